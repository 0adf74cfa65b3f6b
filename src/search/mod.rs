//! Game-agnostic search: alpha-beta and max^n, the transposition table, the
//! proof search, and limits and time. Each game brings its own adapter
//! (`SearchGame`).

mod alphabeta;
mod game;
mod limits;
mod params;
mod solver;
mod tt;

pub use alphabeta::{
    MultiplayerSearch, Progress, Report, Score, SearchResult, Searcher, UnknownMultiplayerSearch, hardware_threads,
};
pub use game::{GameKnowledge, GameRules, Policy, SearchGame};
pub use limits::{Clock, Limits, Signals};
