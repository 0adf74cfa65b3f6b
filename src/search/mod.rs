//! Game-agnostic search: alpha-beta and max^n, the transposition table, the
//! proof search, the ceiling against random movers, and limits and time, tuned by one set of numbers
//! (`params`). Each game brings its rules (`GameRules`), its knowledge
//! (`GameKnowledge`) and the search's settings for it (`Policy`) as one
//! `SearchGame`; callers search through `Searcher`.

mod alphabeta;
mod ceiling;
mod dfpn;
mod game;
mod limits;
mod mcts;
mod params;
mod proof_tree;
mod solve;
mod solver;
#[cfg(test)]
mod test_games;
mod tt;

pub use alphabeta::{
    MultiplayerSearch, Progress, Report, Score, SearchResult, Searcher, UnknownMultiplayerSearch, hardware_threads,
};
pub use ceiling::{CeilingAnswer, CeilingError, ceiling};
pub use dfpn::{ProofStep, TreeError};
pub use game::{Decided, GameKnowledge, GameRules, Policy, SearchGame};
pub use limits::{Clock, Limits, Signals};
pub use proof_tree::{
    Leaves, ProofTreeEntries, ProofTreeEntry, build_proof_tree, build_proof_tree_from, build_refutation_trees,
    check_proof_tree, check_proof_tree_sample,
};
pub use solve::{ProofTree, Solution, Solver, Verdict};
