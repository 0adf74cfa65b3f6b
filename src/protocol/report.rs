//! What a search tells the outside world: `info` lines and the best move,
//! with the promises the protocol makes about them kept in one place.

use std::fmt;
use std::time::Duration;

use crate::games::Session;
use crate::search::{Limits, Progress, Report, Score, Searcher, Signals};

/// One `info` line about a search result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Which best line (from 1), printed when several are asked for.
    pub multipv: Option<usize>,
    /// The depth of the iteration that found the line.
    pub depth: u32,
    /// The deepest ply the search reached.
    pub seldepth: u32,
    /// The line's score for the side to move.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Permille of the transposition table filled.
    pub hashfull: u32,
    /// Time since the search began.
    pub time: Duration,
    /// Legal from the searched position, move after move, in notation.
    pub pv: Vec<String>,
}

impl Info {
    fn from_report(report: &Report<String>, several_lines: bool) -> Info {
        Info {
            multipv: several_lines.then_some(report.multipv),
            depth: report.depth,
            seldepth: report.seldepth,
            score: report.score,
            nodes: report.nodes,
            nps: report.nps(),
            hashfull: report.hashfull,
            time: report.elapsed,
            pv: report.pv.clone(),
        }
    }
}

/// `{"cp":35}` or `{"mate":-2}`.
pub fn score_json(score: Score) -> String {
    match score {
        Score::Centipawns(cp) => format!("{{\"cp\":{cp}}}"),
        Score::Mate(moves) => format!("{{\"mate\":{moves}}}"),
    }
}

/// `info depth 5 seldepth 7 score cp 12 nodes 9000 nps 450000 hashfull 3 time 20 pv A@c3 b@d4`,
/// with `multipv k` first when several lines are searched.
impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        if let Some(line) = self.multipv {
            write!(f, " multipv {line}")?;
        }
        write!(
            f,
            " depth {} seldepth {} score {} nodes {} nps {} hashfull {} time {}",
            self.depth,
            self.seldepth,
            self.score,
            self.nodes,
            self.nps,
            self.hashfull,
            self.time.as_millis()
        )?;
        if !self.pv.is_empty() {
            f.write_str(" pv")?;
            for mv in &self.pv {
                write!(f, " {mv}")?;
            }
        }
        Ok(())
    }
}

/// What a running search prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchInfo {
    /// A best line: `info depth ... pv ...`.
    Line(Info),
    /// `info depth 12 currmove B@b3 currmovenumber 4`
    CurrentMove {
        /// The depth of the iteration.
        depth: u32,
        /// The root move being searched, in notation.
        mv: String,
        /// Its place in the iteration's move order, from 1.
        number: usize,
    },
    /// `info string <text>`: a remark of the search's, such as a move
    /// played from the book.
    Note(String),
}

impl fmt::Display for SearchInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchInfo::Line(info) => info.fmt(f),
            SearchInfo::CurrentMove { depth, mv, number } => {
                write!(f, "info depth {depth} currmove {mv} currmovenumber {number}")
            }
            SearchInfo::Note(text) => write!(f, "info string {text}"),
        }
    }
}

/// The answer to a `go`: the move to play, and the reply expected to it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BestMove {
    /// `None` when there is no move to play.
    pub best: Option<String>,
    /// The next move of the last principal variation, to ponder on.
    pub ponder: Option<String>,
}

/// `bestmove <move> [ponder <move>]`, or `bestmove (none)`.
impl fmt::Display for BestMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.best, &self.ponder) {
            (None, _) => f.write_str("bestmove (none)"),
            (Some(best), None) => write!(f, "bestmove {best}"),
            (Some(best), Some(ponder)) => write!(f, "bestmove {best} ponder {ponder}"),
        }
    }
}

/// Searches the game's current position among `root_moves` (all if empty)
/// and reports it as protocol lines: the session's search
/// (`games::search_in_notation`) keeps the promises about moves; this adds
/// the protocol's: `multipv` on every line when several are searched, the
/// ponder move (the reply in the last best line), and no move and no line
/// for a finished game.
pub fn search_and_report(
    searcher: &mut Searcher,
    game: &dyn Session,
    limits: &Limits,
    root_moves: &[String],
    signals: &Signals,
    mut emit: impl FnMut(&SearchInfo),
) -> BestMove {
    if game.outcome().is_some() {
        return BestMove::default();
    }
    let several_lines = searcher.lines() > 1;
    let mut last_pv = Vec::new();
    let result = game.search(searcher, limits, root_moves, signals, &mut |progress| match progress {
        Progress::Line(report) => {
            let info = Info::from_report(report, several_lines);
            if report.multipv == 1 {
                last_pv.clone_from(&info.pv);
            }
            emit(&SearchInfo::Line(info));
        }
        Progress::CurrentMove { depth, mv, number } => emit(&SearchInfo::CurrentMove { depth, mv, number }),
        Progress::Note(text) => emit(&SearchInfo::Note(text.to_string())),
    });
    let ponder = last_pv.get(1).filter(|_| last_pv.first() == result.best_move.as_ref()).cloned();
    BestMove { best: result.best_move, ponder }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Registry;

    /// The start of a game of the registry, with these settings.
    fn start(game: &str, settings: &[(&str, &str)]) -> Box<dyn Session> {
        Registry::builtin().select(Some(game), settings).expect("a game").setup.start()
    }

    fn start_game(variant: &str) -> Box<dyn Session> {
        start("pods", &[("Variant", variant)])
    }

    #[test]
    fn info_lines_have_the_documented_form() {
        let info = Info {
            multipv: None,
            depth: 3,
            seldepth: 5,
            score: Score::Mate(-2),
            nodes: 1234,
            nps: 5678,
            hashfull: 9,
            time: Duration::from_millis(17),
            pv: vec!["A@c3".to_string(), "B@d4".to_string()],
        };
        assert_eq!(
            info.to_string(),
            "info depth 3 seldepth 5 score mate -2 nodes 1234 nps 5678 hashfull 9 time 17 pv A@c3 B@d4"
        );
    }

    /// Searches `game` and returns the result lines printed and the answer.
    fn search(game: &dyn Session, limits: &Limits, signals: &Signals, lines: usize) -> (Vec<Info>, BestMove) {
        let mut searcher = Searcher::new(1);
        searcher.set_lines(lines);
        let mut infos = Vec::new();
        let best = search_and_report(&mut searcher, game, limits, &[], signals, |info| {
            if let SearchInfo::Line(info) = info {
                infos.push(info.clone())
            }
        });
        (infos, best)
    }

    #[test]
    fn a_search_stopped_at_once_still_reports_its_move() {
        let game = start_game("advanced");
        let signals = Signals::default();
        signals.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let (infos, answer) = search(game.as_ref(), &Limits { infinite: true, ..Limits::default() }, &signals, 1);
        let best = answer.best.expect("a move");
        assert!(game.box_clone().play(&best).is_ok());
        assert_eq!(infos.last().unwrap().pv.first(), Some(&best));
    }

    #[test]
    fn the_last_pv_starts_with_the_best_move_and_names_the_reply() {
        let game = start_game("standard");
        let (infos, answer) =
            search(game.as_ref(), &Limits { depth: Some(3), ..Limits::default() }, &Signals::default(), 1);
        assert_eq!(infos.len(), 3);
        let last = infos.last().unwrap();
        assert_eq!(last.pv.first(), answer.best.as_ref());
        assert_eq!(last.pv.get(1), answer.ponder.as_ref());
        assert_eq!(answer.to_string(), format!("bestmove {} ponder {}", last.pv[0], last.pv[1]));
    }

    #[test]
    fn every_line_is_one_search_result_even_when_an_iteration_is_cut_short() {
        // Node limits cut iterations off at many points. A line is printed
        // per finished iteration, and for an unfinished one only with the
        // move it found and that move's own score at that depth: depths
        // only grow, and the last line's move is the one played.
        for variant in ["standard", "advanced"] {
            let game = start_game(variant);
            for nodes in (1..=12).map(|step| step * 7_919) {
                let limits = Limits { nodes: Some(nodes), ..Limits::default() };
                let (infos, answer) = search(game.as_ref(), &limits, &Signals::default(), 1);
                assert!(infos.windows(2).all(|pair| pair[0].depth < pair[1].depth), "{nodes} nodes: {infos:?}");
                assert_eq!(infos.last().unwrap().pv.first(), answer.best.as_ref(), "{nodes} nodes");
            }
        }
    }

    #[test]
    fn multipv_reports_distinct_best_lines_in_order_at_every_depth() {
        let game = start_game("standard");
        let (infos, answer) =
            search(game.as_ref(), &Limits { depth: Some(4), ..Limits::default() }, &Signals::default(), 3);
        assert_eq!(infos.len(), 12, "{infos:?}");
        for (depth, lines) in (1..=4).zip(infos.chunks(3)) {
            assert_eq!(
                lines.iter().map(|info| (info.depth, info.multipv)).collect::<Vec<_>>(),
                [(depth, Some(1)), (depth, Some(2)), (depth, Some(3))]
            );
            let firsts: Vec<&String> = lines.iter().map(|info| &info.pv[0]).collect();
            assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2], "{firsts:?}");
            assert!(lines[0].to_string().starts_with("info multipv 1 depth "), "{}", lines[0]);
        }
        assert_eq!(answer.best.as_ref(), Some(&infos[9].pv[0]));
    }

    #[test]
    fn searchmoves_confine_the_root_and_a_poldr_search_answers_a_legal_move() {
        let game = start("poldr", &[("Size", "6")]);
        let allowed = ["Pa1Mf6".to_string(), "Pb2Mb5".to_string()];
        let mut searcher = Searcher::new(1);
        let mut firsts = Vec::new();
        let limits = Limits { depth: Some(3), ..Limits::default() };
        let answer = search_and_report(&mut searcher, game.as_ref(), &limits, &allowed, &Signals::default(), |info| {
            if let SearchInfo::Line(info) = info {
                firsts.push(info.pv[0].clone())
            }
        });
        assert!(firsts.iter().all(|mv| allowed.contains(mv)), "{firsts:?}");
        assert!(allowed.contains(answer.best.as_ref().unwrap()));
        let (infos, answer) = search(game.as_ref(), &limits, &Signals::default(), 1);
        let best = answer.best.expect("a move");
        assert!(game.box_clone().play(&best).is_ok(), "{best}");
        assert_eq!(infos.last().unwrap().pv.first(), Some(&best));
    }

    #[test]
    fn each_root_move_is_announced_at_most_once_an_iteration() {
        // A search whose clock started two seconds ago announces its root
        // moves from the first; with MultiPV each iteration searches the
        // root once per line, and every search announced every move again
        // (a 9x9 POLD.R `go depth 1` with MultiPV 256 printed 154,697
        // currmove lines for 1,568 moves).
        let game = start("poldr", &[("Size", "6"), ("Bricks", "20")]);
        let legal = game.legal_moves().len();
        let two_seconds_ago = std::time::Instant::now().checked_sub(Duration::from_secs(2)).expect("an old clock");
        let limits = Limits { depth: Some(2), clock_start: Some(two_seconds_ago), ..Limits::default() };
        let mut searcher = Searcher::new(1);
        searcher.set_lines(4);
        let mut announced = Vec::new();
        search_and_report(&mut searcher, game.as_ref(), &limits, &[], &Signals::default(), |info| {
            if let SearchInfo::CurrentMove { depth, mv, number } = info {
                announced.push((*depth, mv.clone(), *number));
            }
        });
        for depth in 1..=2 {
            let moves: Vec<&String> = announced.iter().filter(|(at, ..)| *at == depth).map(|(_, mv, _)| mv).collect();
            let distinct: std::collections::HashSet<&String> = moves.iter().copied().collect();
            assert_eq!(moves.len(), distinct.len(), "depth {depth}: a move announced twice");
            assert_eq!(moves.len(), legal, "depth {depth}: every move once");
        }
        assert!(announced.iter().all(|&(_, _, number)| (1..=legal).contains(&number)));
    }
}
