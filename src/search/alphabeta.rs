//! Iterative deepening negamax with principal variation search, a
//! transposition table, killer and history move ordering. Game-agnostic:
//! it sees the game only through `SearchGame`.
//!
//! `Searcher` keeps what outlives a search and starts its threads
//! (`searcher`). Each thread is a `Worker` (`worker`): its table, history,
//! killers, path, buffers and nodes, and the search itself (`negamax`, with
//! move ordering in `ordering` and max-n in `maxn`). The main thread's
//! worker is driven by the `Manager` (`manager`), which does what only the
//! main thread does: deepening within the clock, reporting, proofs between
//! iterations, and taking over a helper's deeper line. Helpers search ahead
//! of it (`threads`), or one proves alongside (`proofs`); what the threads
//! share besides the table is in `shared`.

use std::fmt;
use std::time::Duration;

mod brs;
mod manager;
mod maxn;
mod negamax;
mod ordering;
mod proofs;
mod searcher;
mod shared;
mod threads;
mod worker;

pub use maxn::{MultiplayerSearch, UnknownMultiplayerSearch};
pub use searcher::Searcher;
pub use threads::hardware_threads;

/// The score of a won game at the root; a win in `n` plies scores `MATE - n`.
const MATE: i32 = 30_000;
/// Scores beyond this are wins or losses, not evaluations.
const MATE_BOUND: i32 = MATE - 1_000;
/// Beyond any score: the widest window.
const INFINITY: i32 = MATE + 1;
/// The deepest ply a search reaches.
const MAX_PLY: usize = 128;

/// A score as reported: centipawn-like units, or moves to a forced result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// An evaluation, in hundredths of a pawn-like unit, for the side to move.
    Centipawns(i32),
    /// Moves of the side to move (passes included) until the game ends
    /// with its win (> 0) or loss (< 0).
    Mate(i32),
}

impl Score {
    /// The reported form of a search score in a game of `players` players
    /// who move in turn: a result `n` plies away comes after the side to
    /// move's own next `ceil(n / players)` moves.
    fn from_internal(score: i32, players: usize) -> Score {
        let own_moves = |plies: i32| (plies + players as i32 - 1) / players as i32;
        if score > MATE_BOUND {
            Score::Mate(own_moves(MATE - score))
        } else if score < -MATE_BOUND {
            Score::Mate(-own_moves(MATE + score))
        } else {
            Score::Centipawns(score)
        }
    }
}

impl fmt::Display for Score {
    /// The UCI form: `cp 35` or `mate -2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Centipawns(cp) => write!(f, "cp {cp}"),
            Score::Mate(moves) => write!(f, "mate {moves}"),
        }
    }
}

/// What the search tells its caller after each completed iteration (one
/// report per line of a multi-PV search), and after an unfinished one when
/// it found a new best move: a move, its score and its line, all of one
/// search.
#[derive(Clone, Debug)]
pub struct Report<M> {
    /// Which best line this is, from 1.
    pub multipv: usize,
    /// The depth of the iteration that found the line.
    pub depth: u32,
    /// The deepest ply the search reached.
    pub seldepth: u32,
    /// The line's score for the side to move.
    pub score: Score,
    /// Nodes of all search threads so far.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// Permille of the transposition table filled by this search.
    pub hashfull: u32,
    /// The line, its first move the one to play.
    pub pv: Vec<M>,
}

/// What a running search has to say.
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a, M> {
    /// A best line found.
    Line(&'a Report<M>),
    /// The root move the iteration of `depth` is searching now, the
    /// `number`th it tries (from 1).
    CurrentMove {
        /// The iteration's depth.
        depth: u32,
        /// The root move.
        mv: M,
        /// Its place in the iteration's order, from 1.
        number: usize,
    },
    /// A remark in words about the search, such as where its move comes
    /// from (the protocol's `info string`).
    Note(&'a str),
}

impl<M> Report<M> {
    /// Nodes per second over the search so far.
    pub fn nps(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1);
        (self.nodes as u128 * 1_000_000 / micros) as u64
    }
}

/// The answer of a finished search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// `None` only when the side to move has no legal move.
    pub best_move: Option<M>,
    /// Its score for the side to move.
    pub score: Score,
    /// The depth of the last iteration the answer comes from.
    pub depth: u32,
    /// Nodes of all search threads.
    pub nodes: u64,
}

/// A root search's result, before it is reported.
struct FoundLine<M> {
    /// The score for the root player's side.
    score: i32,
    pv: Vec<M>,
    seldepth: u32,
}

#[cfg(test)]
mod tests;
