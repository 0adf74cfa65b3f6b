//! What a search tells the outside world: `info` lines and the best move,
//! with the promises the protocol makes about them kept in one place.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::games::Session;
use crate::search::{Limits, Report, Score, Searcher};

/// One `info` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub nps: u64,
    pub hashfull: u32,
    pub time: Duration,
    /// Legal from the searched position, move after move, in notation.
    pub pv: Vec<String>,
}

impl Info {
    fn from_report(report: &Report<String>) -> Info {
        Info {
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

    /// The same data as one JSON object (for `podium analyse --json`).
    pub fn to_json(&self) -> String {
        let score = match self.score {
            Score::Centipawns(cp) => format!("{{\"cp\":{cp}}}"),
            Score::Mate(moves) => format!("{{\"mate\":{moves}}}"),
        };
        let pv: Vec<String> = self.pv.iter().map(|mv| format!("\"{mv}\"")).collect();
        format!(
            "{{\"type\":\"info\",\"depth\":{},\"seldepth\":{},\"score\":{score},\"nodes\":{},\"nps\":{},\
             \"hashfull\":{},\"time\":{},\"pv\":[{}]}}",
            self.depth,
            self.seldepth,
            self.nodes,
            self.nps,
            self.hashfull,
            self.time.as_millis(),
            pv.join(",")
        )
    }
}

/// `info depth 5 seldepth 7 score cp 12 nodes 9000 nps 450000 hashfull 3 time 20 pv A@c3 b@d4`
impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "info depth {} seldepth {} score {} nodes {} nps {} hashfull {} time {}",
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

/// The `bestmove` line; `(none)` when there is no move to play.
pub fn bestmove_line(best: Option<String>) -> String {
    match best {
        Some(mv) => format!("bestmove {mv}"),
        None => "bestmove (none)".to_string(),
    }
}

/// Searches the game's current position and reports it as the protocol
/// promises: at least one `info` line with a score, every PV move legal, the
/// last PV starting with the move returned. Returns `None` only when the game
/// is over (nothing is reported then).
pub fn search_and_report(
    searcher: &mut Searcher,
    game: &dyn Session,
    limits: &Limits,
    stop: &AtomicBool,
    mut emit: impl FnMut(&Info),
) -> Option<String> {
    if game.ending().is_some() {
        return None;
    }
    game.search(searcher, limits, stop, &mut |report| emit(&Info::from_report(report))).best_move
}

/// The first move the game allows, for when the search has none to give.
pub(super) fn first_legal_move(game: &dyn Session) -> Option<String> {
    game.legal_moves().into_iter().next()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::games::pods::{Game, PodsSession, Position, Rotation, Rules, Variant};
    use crate::games::poldr::{self, PoldrSession};

    fn start_game(variant: Variant) -> PodsSession {
        let rules = Arc::new(Rules::default_for(variant));
        let start = Position::start(&rules, Rotation::R0);
        PodsSession::new(Game::new(rules, start))
    }

    #[test]
    fn info_lines_have_the_documented_form() {
        let info = Info {
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
        assert_eq!(
            info.to_json(),
            "{\"type\":\"info\",\"depth\":3,\"seldepth\":5,\"score\":{\"mate\":-2},\"nodes\":1234,\"nps\":5678,\
             \"hashfull\":9,\"time\":17,\"pv\":[\"A@c3\",\"B@d4\"]}"
        );
    }

    #[test]
    fn a_search_stopped_at_once_still_reports_its_move() {
        let game = start_game(Variant::Advanced);
        let mut searcher = Searcher::new(1);
        let stop = AtomicBool::new(true);
        let mut infos = Vec::new();
        let limits = Limits { infinite: true, ..Limits::default() };
        let best = search_and_report(&mut searcher, &game, &limits, &stop, |info| infos.push(info.clone()));
        let best = best.expect("a move");
        assert!(game.clone().play(&best).is_ok());
        assert_eq!(infos.last().unwrap().pv.first(), Some(&best));
    }

    #[test]
    fn the_last_pv_starts_with_the_best_move() {
        let game = start_game(Variant::Standard);
        let mut searcher = Searcher::new(1);
        let mut infos = Vec::new();
        let limits = Limits { depth: Some(3), ..Limits::default() };
        let best =
            search_and_report(&mut searcher, &game, &limits, &AtomicBool::new(false), |info| infos.push(info.clone()));
        assert_eq!(infos.len(), 3);
        assert_eq!(infos.last().unwrap().pv.first().cloned(), best);
    }

    #[test]
    fn a_poldr_search_answers_a_legal_move_with_its_pv() {
        let game = PoldrSession::new(poldr::Position::start(6, 2, 16).unwrap());
        let mut searcher = Searcher::new(1);
        let mut infos = Vec::new();
        let limits = Limits { depth: Some(3), ..Limits::default() };
        let best =
            search_and_report(&mut searcher, &game, &limits, &AtomicBool::new(false), |info| infos.push(info.clone()));
        let best = best.expect("a move");
        assert!(game.clone().play(&best).is_ok(), "{best}");
        assert_eq!(infos.last().unwrap().pv.first(), Some(&best));
    }
}
