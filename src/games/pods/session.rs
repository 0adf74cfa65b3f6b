//! Pods behind the `Session` interface: a game record seen through text.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::tunables::TUNABLES;
use super::{GameRecord, Move, MoveList, Outcome, PodsAdapter, Point, Side, Variant, Weights, perft, perft_until};
use crate::games::{
    self, CeilingReport, CeilingRequest, PlayError, Session, SolveRequest, Solved, TreeRequest, read_move,
    search_in_notation, solve_in_notation,
};
use crate::search::{Leaves, Limits, Progress, SearchResult, Searcher, Signals};

/// A Pods game in progress behind `Session`: its record and the weights
/// its evaluation uses.
#[derive(Clone)]
pub struct PodsSession {
    record: GameRecord,
    weights: Weights,
}

impl PodsSession {
    /// A game record evaluated with its variant's own weights.
    pub fn new(record: GameRecord) -> PodsSession {
        let weights = TUNABLES.weights(record.rules().variant());
        PodsSession { record, weights }
    }

    /// The same game evaluated with other weights.
    pub(crate) fn with_weights(mut self, weights: Weights) -> PodsSession {
        self.weights = weights;
        self
    }

    fn adapter(&self) -> PodsAdapter {
        PodsAdapter::new(Arc::clone(self.record.rules()), self.record.max_plies()).with_weights(self.weights)
    }
}

impl Session for PodsSession {
    fn box_clone(&self) -> Box<dyn Session> {
        Box::new(self.clone())
    }

    fn position_line(&self) -> String {
        self.record.position().to_string()
    }

    fn key(&self) -> u64 {
        self.record.position().hash()
    }

    fn players(&self) -> usize {
        2
    }

    fn mover(&self) -> usize {
        self.record.position().side_to_move().index()
    }

    fn seat_name(&self, seat: usize) -> &'static str {
        Side::BOTH.get(seat).map_or("?", |side| side.name())
    }

    fn outcome(&self) -> Option<games::Outcome> {
        self.record.outcome().map(|outcome| games::Outcome {
            winner: match outcome {
                Outcome::Win { winner, .. } => Some(winner.index()),
                Outcome::Draw(_) => None,
            },
            description: outcome.to_string(),
        })
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut moves = MoveList::new();
        if self.record.outcome().is_none() {
            self.record.position().generate_moves(self.record.rules(), &mut moves);
        }
        moves.iter().map(Move::to_string).collect()
    }

    fn play(&mut self, text: &str) -> Result<(), PlayError> {
        let mv: Move = read_move(text)?;
        self.record.play(mv).map_err(PlayError::illegal)
    }

    fn legal_move(&self, text: &str) -> Result<String, PlayError> {
        let mv: Move = read_move(text)?;
        let legal = match self.record.outcome() {
            Some(_) => Err(super::Illegal::GameOver),
            None => self.record.position().check(self.record.rules(), mv),
        };
        legal.map(|()| mv.to_string()).map_err(PlayError::illegal)
    }

    fn forfeit(&mut self) {
        let side = self.record.position().side_to_move();
        self.record.forfeit(side);
    }

    fn set_max_plies(&mut self, max_plies: u32) {
        self.record.set_max_plies(max_plies);
    }

    fn perft(&self, depth: u32) -> u64 {
        perft(self.record.rules(), self.record.position(), depth)
    }

    fn divide(&self, depth: u32, stop: &AtomicBool, each: &mut dyn FnMut(&str, u64)) -> bool {
        let (rules, position) = (self.record.rules(), self.record.position());
        let mut moves = MoveList::new();
        position.generate_moves(rules, &mut moves);
        for &mv in moves.iter() {
            let mut next = *position;
            next.play_unchecked(rules, mv);
            match perft_until(rules, &next, depth.saturating_sub(1), stop) {
                Some(count) => each(&mv.to_string(), count),
                None => return false,
            }
        }
        true
    }

    /// The board as drawn (turned by the position's rotation) with each
    /// pod's letter on its point, then the position line and the turn.
    fn picture(&self) -> Vec<String> {
        let position = self.record.position();
        let picture = self.record.rules().board().rotated(position.rotation()).picture();
        let mut rows: Vec<Vec<char>> = picture.lines().map(|row| row.chars().collect()).collect();
        for point in Point::ALL {
            if let Some((side, pod)) = position.pod_at(point) {
                let (row, column) = ((5 - point.rank()) as usize * 2, point.file() as usize * 2);
                if let Some(cell) = rows.get_mut(row).and_then(|cells| cells.get_mut(column)) {
                    *cell = pod.letter(side);
                }
            }
        }
        let mut lines: Vec<String> = rows.into_iter().map(|cells| cells.into_iter().collect()).collect();
        lines.push(format!("fen {position}"));
        lines.push(format!("turn {}", position.side_to_move().name()));
        if let Some(outcome) = self.record.outcome() {
            lines.push(format!("game over: {outcome}"));
        }
        lines
    }

    fn evaluation(&self) -> String {
        let position = self.record.position();
        if let Some(outcome) = self.record.outcome() {
            return format!("eval none: game over, {outcome}");
        }
        let terms = self.adapter().evaluate_terms(position);
        format!("eval {} to move: {terms}", position.side_to_move().name())
    }

    /// The standard game only: the proof search weighs no draws, and the
    /// advanced game has draws by repetition. With no ply limit: a proof
    /// holds whatever limit a match sets above its length.
    fn proof_tree(&self, request: &TreeRequest) -> Result<Vec<String>, String> {
        let rules = self.record.rules();
        if rules.variant() == Variant::Advanced {
            return Err("proof trees are for the standard game only: the advanced game has draws by repetition, \
                        which the proof search cannot weigh (try --variant standard)"
                .to_string());
        }
        if self.outcome().is_some() {
            return Err("the game is over".to_string());
        }
        let adapter = PodsAdapter::new(Arc::clone(rules), 0).with_weights(self.weights);
        // In timed play the standard game tries proofs only within its proof
        // horizon (tunables.rs): a cheap proof before that settles nothing.
        let leaves = Leaves { nodes: request.leaf_nodes, in_play: true };
        games::proof_tree_lines(&adapter, self.record.position(), leaves, request)
    }

    fn search(
        &self,
        searcher: &mut Searcher,
        limits: &Limits,
        root_moves: &[String],
        signals: &Signals,
        report: &mut dyn FnMut(Progress<'_, String>),
    ) -> SearchResult<String> {
        let history = self.record.history();
        let before_root = &history[..history.len().saturating_sub(1)];
        search_in_notation(
            &self.adapter(),
            self.record.position(),
            before_root,
            searcher,
            limits,
            root_moves,
            signals,
            report,
        )
    }

    fn solve(&self, request: &SolveRequest, signals: &Signals) -> Option<Solved> {
        let rules = self.record.rules();
        // In the advanced game df-pn proves fewer positions than the search
        // within 10 s (docs/solving.md), though its proofs are sound with
        // repetitions and it proves draws.
        if request.where_better && rules.variant() == Variant::Advanced {
            return None;
        }
        let header = vec![
            "# A proof of who wins a Pods position: docs/solving.md says how to read and check it.".to_string(),
            "certificate 1".to_string(),
            format!("game pods {}", rules.variant()),
            format!("board {}", rules.board().one_line()),
            format!("pods {}", rules.pods()),
            format!("placement-liberty {}", rules.placement_liberty()),
        ];
        Some(solve_in_notation(
            &self.adapter(),
            self.record.position(),
            request,
            signals,
            &header,
            |position| position.to_string(),
            |seat| Side::BOTH[seat].name().to_lowercase(),
        ))
    }

    fn ceiling(&self, request: &CeilingRequest, signals: &Signals) -> Result<CeilingReport, String> {
        games::ceiling_in_notation(&self.adapter(), self.record.position(), request, signals)
    }
}
