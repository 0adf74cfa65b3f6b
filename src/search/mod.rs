//! Game-agnostic search (alpha-beta, transposition table, time) and the
//! Pods adapter with its evaluation.

mod alphabeta;
mod game;
mod limits;
mod solver;
mod tt;

pub use alphabeta::{
    MATE, MATE_BOUND, MAXN_WIN, MultiplayerSearch, Progress, Report, Score, SearchResult, Searcher,
    UnknownMultiplayerSearch, hardware_threads,
};
pub use game::{Outcome, SearchGame};
pub use limits::{Clock, Limits, Signals, TimeBudget};
pub use tt::{Bound, Entry, TranspositionTable};
