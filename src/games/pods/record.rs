//! A game record: the start position, the moves played and what the history
//! decides beyond a single position (repetition, ply limit, forfeits).

use std::collections::HashMap;
use std::sync::Arc;

use super::moves::{Illegal, Move};
use super::position::{DrawReason, Outcome, Position, WinReason};
use super::ruleset::{Rules, Variant};
use super::types::Side;

/// A Pods game as played: the rules, the start, the moves, and what only
/// the history decides (repetitions, a forfeit, a match's ply limit).
#[derive(Clone, Debug)]
pub struct GameRecord {
    rules: Arc<Rules>,
    start: Position,
    position: Position,
    moves: Vec<Move>,
    /// The key of every position reached, the start included.
    history: Vec<u64>,
    /// How often each of those positions occurred: repetitions in constant
    /// time, so replaying a long game stays linear.
    occurrences: HashMap<u64, u32>,
    /// The side that tried an illegal move, which loses the game.
    forfeited_by: Option<Side>,
    /// A game reaching this ply is drawn; 0 means no limit.
    max_plies: u32,
}

impl GameRecord {
    /// A game from `start` with no move played and no ply limit.
    pub fn new(rules: Arc<Rules>, start: Position) -> GameRecord {
        GameRecord {
            rules,
            start,
            position: start,
            moves: Vec::new(),
            history: vec![start.hash()],
            occurrences: HashMap::from([(start.hash(), 1)]),
            forfeited_by: None,
            max_plies: 0,
        }
    }

    /// The same game with a ply limit (0: none).
    pub fn with_max_plies(mut self, max_plies: u32) -> GameRecord {
        self.set_max_plies(max_plies);
        self
    }

    /// The rules the game is played under.
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played from the start, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Keys of every position so far, oldest first, the current one last.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    pub(crate) fn max_plies(&self) -> u32 {
        self.max_plies
    }

    /// A new ply limit for the game as it stands (0: none): a game that has
    /// reached it is drawn, unless it was already decided otherwise.
    pub fn set_max_plies(&mut self, max_plies: u32) {
        self.max_plies = max_plies;
    }

    /// Plays a move if it is legal and the game is still on.
    pub fn play(&mut self, mv: Move) -> Result<(), Illegal> {
        if self.outcome().is_some() {
            return Err(Illegal::GameOver);
        }
        self.position.try_play(&self.rules, mv)?;
        self.moves.push(mv);
        self.history.push(self.position.hash());
        *self.occurrences.entry(self.position.hash()).or_default() += 1;
        Ok(())
    }

    /// Records that `side` tried an illegal move: it loses, unless the game
    /// was already decided (a move after the end changes nothing).
    pub fn forfeit(&mut self, side: Side) {
        if self.outcome().is_none() {
            self.forfeited_by = Some(side);
        }
    }

    /// How often the current position has occurred, this time included.
    pub fn repetitions(&self) -> usize {
        self.occurrences.get(&self.position.hash()).copied().unwrap_or(0) as usize
    }

    /// The result, if the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(side) = self.forfeited_by {
            return Some(Outcome::Win { winner: side.opponent(), reason: WinReason::IllegalMove });
        }
        if let Some(outcome) = self.position.outcome(&self.rules) {
            return Some(outcome);
        }
        if self.rules.variant() == Variant::Advanced && self.repetitions() >= 3 {
            return Some(Outcome::Draw(DrawReason::Repetition));
        }
        if self.max_plies > 0 && self.position.ply() >= self.max_plies {
            return Some(Outcome::Draw(DrawReason::PlyLimit));
        }
        None
    }
}
