//! POLD.R behind the `Session` interface: a game record seen through text.

use std::sync::atomic::AtomicBool;

use super::adapter::PoldrAdapter;
use super::moves::Move;
use super::perft::{perft, perft_until};
use super::position::Position;
use super::types::{Cell, Seat};
use super::zobrist::Piece;
use crate::games::{
    self, CeilingReport, CeilingRequest, PlayError, Session, SolveRequest, Solved, TreeRequest, read_move,
    search_in_notation,
};
use crate::search::{Leaves, Limits, Progress, SearchResult, Searcher, Signals};

/// A POLD.R game in progress behind `Session`: the position, the moves
/// played and a forfeit.
#[derive(Clone)]
pub struct PoldrSession {
    position: Position,
    moves: Vec<Move>,
    /// The seat that tried an illegal move, which loses the game.
    forfeited_by: Option<Seat>,
}

impl PoldrSession {
    /// A game from `start`, no move played.
    pub fn new(start: Position) -> PoldrSession {
        PoldrSession { position: start, moves: Vec::new(), forfeited_by: None }
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.position
    }
}

impl Session for PoldrSession {
    fn box_clone(&self) -> Box<dyn Session> {
        Box::new(self.clone())
    }

    fn position_line(&self) -> String {
        self.position.to_string()
    }

    fn key(&self) -> u64 {
        self.position.hash()
    }

    fn players(&self) -> usize {
        self.position.players()
    }

    fn mover(&self) -> usize {
        self.position.mover().index()
    }

    fn seat_name(&self, seat: usize) -> &'static str {
        Seat::from_index(seat).map_or("?", Seat::name)
    }

    /// The rules' own result, or a forfeit: the seat that forfeits loses;
    /// of the others, the one the rules' scoring puts first wins.
    fn outcome(&self) -> Option<games::Outcome> {
        let (winner, description) = match self.forfeited_by {
            Some(loser) => {
                let others = self.position.seats().filter(|&seat| seat != loser);
                let winner = self.position.best_standing(others).expect("another seat");
                (winner, format!("{} wins ({} played an illegal move)", winner.name(), loser.name()))
            }
            None => self.position.outcome().map(|outcome| (outcome.winner, outcome.to_string()))?,
        };
        Some(games::Outcome { winner: Some(winner.index()), description })
    }

    fn legal_moves(&self) -> Vec<String> {
        if self.forfeited_by.is_some() {
            return Vec::new();
        }
        self.position.legal_moves().iter().map(Move::to_string).collect()
    }

    fn play(&mut self, text: &str) -> Result<(), PlayError> {
        let mv: Move = read_move(text)?;
        if self.forfeited_by.is_some() {
            return Err(PlayError::illegal(super::Illegal::GameOver));
        }
        self.position.try_play(mv).map_err(PlayError::illegal)?;
        self.moves.push(mv);
        Ok(())
    }

    fn legal_move(&self, text: &str) -> Result<String, PlayError> {
        let mv: Move = read_move(text)?;
        let legal = match self.forfeited_by {
            Some(_) => Err(super::Illegal::GameOver),
            None => self.position.check(mv),
        };
        legal.map(|()| mv.to_string()).map_err(PlayError::illegal)
    }

    fn forfeit(&mut self) {
        if self.outcome().is_none() {
            self.forfeited_by = Some(self.position.mover());
        }
    }

    /// POLD.R ends by its own rules: no ply limit.
    fn set_max_plies(&mut self, _max_plies: u32) {}

    fn perft(&self, depth: u32) -> u64 {
        perft(&self.position, depth)
    }

    fn divide(&self, depth: u32, stop: &AtomicBool, each: &mut dyn FnMut(&str, u64)) -> bool {
        // The rules' moves: perft ignores forfeits.
        for mv in self.position.legal_moves() {
            let mut next = self.position;
            next.play_unchecked(mv);
            match perft_until(&next, depth.saturating_sub(1), stop) {
                Some(count) => each(&mv.to_string(), count),
                None => return false,
            }
        }
        true
    }

    /// The grid from the top rank down with coordinates, then the position
    /// line, the turn and each player's reserve.
    fn picture(&self) -> Vec<String> {
        let position = &self.position;
        let size = position.size();
        let mut lines = Vec::new();
        for rank in (0..size).rev() {
            let cells: Vec<String> = (0..size)
                .map(|file| {
                    let cell = Cell::new(file, rank).expect("on the board");
                    match position.piece_at(cell) {
                        None => '.',
                        Some(Piece::Pawn) => 'P',
                        Some(Piece::Marker(seat)) => Seat::ALL[seat].marker_letter(),
                        Some(Piece::Brick(seat)) => Seat::ALL[seat].brick_letter(),
                    }
                    .to_string()
                })
                .collect();
            lines.push(format!("{} {}", rank + 1, cells.join(" ")));
        }
        lines.push(format!(
            "  {}",
            (0..size).map(|file| ((b'a' + file) as char).to_string()).collect::<Vec<_>>().join(" ")
        ));
        lines.push(format!("fen {position}"));
        let phase = if position.phase().number() == 2 || position.is_blocked() { "clearing" } else { "building" };
        lines.push(format!("turn {} (phase {phase}, ply {})", position.mover().name(), position.ply()));
        let reserves: Vec<String> =
            position.seats().map(|seat| format!("{} {}", seat.name(), position.reserve(seat))).collect();
        lines.push(format!("reserves {}", reserves.join(", ")));
        if let Some(outcome) = self.outcome() {
            lines.push(format!("game over: {outcome}"));
        }
        lines
    }

    fn evaluation(&self) -> String {
        if let Some(outcome) = self.outcome() {
            return format!("eval none: game over, {outcome}");
        }
        let terms = PoldrAdapter::default().evaluate_terms(&self.position);
        let mover = self.position.mover();
        format!("eval {} to move: score {} {terms}", mover.name(), terms.score_for(mover))
    }

    fn proof_tree(&self, request: &TreeRequest) -> Result<Vec<String>, String> {
        if self.outcome().is_some() {
            return Err("the game is over".to_string());
        }
        // Leaves as the carried books were written: by their proof's cost alone.
        let leaves = Leaves { nodes: request.leaf_nodes, in_play: false };
        games::proof_tree_lines(&PoldrAdapter::default(), &self.position, leaves, request)
    }

    fn search(
        &self,
        searcher: &mut Searcher,
        limits: &Limits,
        root_moves: &[String],
        signals: &Signals,
        report: &mut dyn FnMut(Progress<'_, String>),
    ) -> SearchResult<String> {
        search_in_notation(&PoldrAdapter::default(), &self.position, &[], searcher, limits, root_moves, signals, report)
    }

    fn ceiling(&self, request: &CeilingRequest, signals: &Signals) -> Result<CeilingReport, String> {
        games::ceiling_in_notation(&PoldrAdapter::default(), &self.position, request, signals)
    }

    /// Two players only: with three, a loss is one against the others
    /// together, which the search's proofs (paranoid) say. df-pn is the
    /// better prover here (docs/solving.md, "POLD.R: df-pn"), so `auto` takes it.
    /// No certificate: nothing checks a POLD.R one.
    fn solve(&self, request: &SolveRequest, signals: &Signals) -> Option<Solved> {
        if self.position.players() != 2 || request.certificate {
            return None;
        }
        let header = Vec::new();
        Some(games::solve_in_notation(
            &PoldrAdapter::default(),
            &self.position,
            request,
            signals,
            &header,
            |position| position.to_string(),
            |seat| Seat::from_index(seat).map_or("?", Seat::name).to_lowercase(),
        ))
    }
}
