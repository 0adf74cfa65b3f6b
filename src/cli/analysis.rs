//! `podium analyse` for scripts: each position searched afresh, summed up
//! as one JSON object with the final line of every best move (MultiPV), the
//! move to play and the proven result where the search proved one.

use std::fmt::Write;

use crate::games::Session;
use crate::protocol::report::{Info, SearchInfo, score_json, search_and_report};
use crate::search::{Limits, Score, Searcher, Signals};

/// What the search of one position found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The last line reported for each best move, line 1 first.
    pub lines: Vec<Info>,
    /// The move to play, in notation; none when the game is over.
    pub best_move: Option<String>,
    /// Why there is no move, when the game is over.
    pub game_over: Option<String>,
    /// A forced result: the mover's moves to the end, won (> 0) or lost,
    /// and the winner's seat where that says who it is.
    pub proven: Option<(i32, Option<usize>)>,
}

/// Searches `session`'s position with a cleared `searcher` (so the result
/// does not depend on what was searched before).
pub fn analyse(searcher: &mut Searcher, session: &dyn Session, limits: &Limits) -> Analysis {
    searcher.clear();
    if let Some(outcome) = session.outcome() {
        return Analysis { lines: Vec::new(), best_move: None, game_over: Some(outcome.to_string()), proven: None };
    }
    let mut lines: Vec<Info> = Vec::new();
    // The last forced result reported: after a proved loss the search goes
    // on for the most stubborn move, whose own lines score it in cp.
    let mut proof: Option<i32> = None;
    let answer = search_and_report(searcher, session, limits, &[], &Signals::default(), |info| {
        if let SearchInfo::Line(info) = info {
            let index = info.multipv.unwrap_or(1) - 1;
            if index >= lines.len() {
                lines.resize(index + 1, info.clone());
            }
            lines[index] = info.clone();
            if let (0, Score::Mate(moves)) = (index, info.score) {
                proof = Some(moves);
            }
        }
    });
    let proven = proof.map(|moves| {
        let mover = session.mover();
        // A loss for the mover names the winner only between two players.
        let winner = if moves > 0 { Some(mover) } else { (session.players() == 2).then(|| 1 - mover) };
        (moves, winner)
    });
    Analysis { lines, best_move: answer.best, game_over: None, proven }
}

impl Analysis {
    /// One JSON object; `index` and `position` say which input it answers,
    /// and `fields`, each after a comma (`,"game":"pods","variant":"standard"`),
    /// how it was read.
    pub fn to_json(&self, index: usize, position: &str, fields: &str, session: &dyn Session) -> String {
        let mut json = format!(
            "{{\"type\":\"analysis\",\"index\":{index},\"position\":{}{fields},\"fen\":{},\"turn\":\"p{}\"",
            json_string(position),
            json_string(&session.position_line()),
            session.mover() + 1
        );
        let lines: Vec<String> = self.lines.iter().map(line_json).collect();
        let _ = write!(json, ",\"lines\":[{}]", lines.join(","));
        let best = self.best_move.as_deref().map_or("null".to_string(), json_string);
        let _ = write!(json, ",\"bestmove\":{best}");
        if let Some(first) = self.lines.first() {
            let _ = write!(
                json,
                ",\"score\":{},\"depth\":{},\"nodes\":{},\"time\":{}",
                score_json(first.score),
                first.depth,
                self.lines.iter().map(|line| line.nodes).max().unwrap_or(0),
                self.lines.iter().map(|line| line.time.as_millis()).max().unwrap_or(0)
            );
        }
        match self.proven {
            Some((mate, winner)) => {
                let winner = winner.map_or("null".to_string(), |seat| format!("\"p{}\"", seat + 1));
                let _ = write!(json, ",\"proven\":{{\"mate\":{mate},\"winner\":{winner}}}");
            }
            None => json.push_str(",\"proven\":null"),
        }
        if let Some(over) = &self.game_over {
            let _ = write!(json, ",\"gameover\":{}", json_string(over));
        }
        json.push('}');
        json
    }
}

/// An input that could not be analysed, as a JSON object, with the
/// input's `id` (JSON text) where it gave one.
pub fn error_json(index: usize, position: &str, id: Option<&str>, message: &str) -> String {
    let id = id.map_or(String::new(), |id| format!(",\"id\":{id}"));
    format!(
        "{{\"type\":\"error\",\"index\":{index},\"position\":{}{id},\"error\":{}}}",
        json_string(position),
        json_string(message)
    )
}

fn line_json(info: &Info) -> String {
    let pv: Vec<String> = info.pv.iter().map(|mv| json_string(mv)).collect();
    format!(
        "{{\"multipv\":{},\"depth\":{},\"seldepth\":{},\"score\":{},\"nodes\":{},\"time\":{},\"pv\":[{}]}}",
        info.multipv.unwrap_or(1),
        info.depth,
        info.seldepth,
        score_json(info.score),
        info.nodes,
        info.time.as_millis(),
        pv.join(",")
    )
}

/// `text` as a JSON string, quotes and control characters escaped.
pub fn json_string(text: &str) -> String {
    let mut json = String::with_capacity(text.len() + 2);
    json.push('"');
    for c in text.chars() {
        match c {
            '"' => json.push_str("\\\""),
            '\\' => json.push_str("\\\\"),
            '\n' => json.push_str("\\n"),
            '\r' => json.push_str("\\r"),
            '\t' => json.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(json, "\\u{:04x}", c as u32);
            }
            c => json.push(c),
        }
    }
    json.push('"');
    json
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Registry;
    use crate::search::MultiplayerSearch;

    /// A POLD.R game with these settings, at `line` if one is given.
    fn poldr(settings: &[(&str, &str)], line: Option<&str>) -> Box<dyn Session> {
        let setup = Registry::builtin().select(Some("poldr"), settings).expect("POLD.R").setup;
        line.map_or_else(|| setup.start(), |line| setup.session_at(line).expect("a POLD.R position"))
    }

    #[test]
    fn json_strings_escape_what_json_needs() {
        assert_eq!(json_string("a\"b\\c\nd\u{1}é"), "\"a\\\"b\\\\c\\nd\\u0001é\"");
    }

    #[test]
    fn an_analysis_keeps_the_last_line_of_each_best_move_and_the_proof() {
        let session = poldr(&[("Bricks", "3")], None);
        let mut searcher = Searcher::new(1);
        searcher.set_lines(2);
        let analysis = analyse(&mut searcher, session.as_ref(), &Limits { depth: Some(3), ..Limits::default() });
        assert_eq!(analysis.lines.len(), 2);
        assert_eq!(analysis.lines.iter().map(|line| line.multipv).collect::<Vec<_>>(), [Some(1), Some(2)]);
        assert_eq!(analysis.best_move.as_ref(), analysis.lines[0].pv.first());
        // Three bricks on 5x5: Blue lays them all on its first turn.
        assert_eq!(analysis.proven, Some((1, Some(0))));
        let json = analysis.to_json(7, "startpos", "", session.as_ref());
        assert!(json.starts_with("{\"type\":\"analysis\",\"index\":7,\"position\":\"startpos\""), "{json}");
        assert!(json.contains("\"proven\":{\"mate\":1,\"winner\":\"p1\"}"), "{json}");
    }

    #[test]
    fn a_proved_loss_stays_proven_while_the_search_goes_on_for_the_stubbornest_move() {
        // protocol.md's three-player example under paranoid search: Blue, to
        // move, is proved lost against the coalition; the iterations after the proof (at depth 3
        // today) score in cp, and the last line is one of them.
        let session = poldr(&[], Some("R3B/1r1b1/2P2/1y3/Y4 b 7,7,7 1 3 1,2,3"));
        let mut searcher = Searcher::new(1);
        searcher.set_multiplayer(MultiplayerSearch::Paranoid);
        let analysis = analyse(&mut searcher, session.as_ref(), &Limits { depth: Some(3), ..Limits::default() });
        assert!(matches!(analysis.proven, Some((moves, None)) if moves < 0), "{analysis:?}");
    }
}
