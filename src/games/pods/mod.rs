//! Pods: board geometry, pods, positions, move generation, notation,
//! hashing, evaluation and the adapter to the search. Pure: no I/O.

mod board;
mod game;
mod moves;
mod perft;
mod pods;
mod position;
mod ruleset;
mod search;
mod session;
mod types;

pub use board::{Board, BoardError, DEFAULT_PICTURE};
pub use game::Game;
pub use moves::{Illegal, MAX_MOVES, Move, MoveKind, MoveList, MoveParseError};
pub use perft::{divide, perft};
pub use pods::{DEFAULT_POD_SET, Leg, MAX_PODS, Pod, PodMask, PodSet, PodSetError, PodShape};
pub use position::{DrawReason, Outcome, Position, PositionError, WinReason};
pub use ruleset::{Rules, Variant};
pub use search::{EvalTerms, PodsGame, Weights};
pub use session::PodsSession;
pub use types::{Bitboard, Direction, POINTS, Point, Rotation, Side};
