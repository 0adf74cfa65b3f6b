//! Pods: board geometry, pods, positions, move generation, notation,
//! hashing, evaluation and the adapter to the search. Pure: no I/O.

mod adapter;
mod board;
mod book;
mod book_table;
mod endgame;
mod eval;
mod features;
mod moves;
mod perft;
mod record;
// `games::pods::pods` holds the pods themselves; the name is the right one.
#[allow(clippy::module_inception)]
mod pods;
mod position;
mod ruleset;
mod session;
mod setup;
mod tunables;
mod tune;
mod types;

pub use adapter::PodsAdapter;
pub use board::{Board, BoardError, DEFAULT_PICTURE};
pub use endgame::{least_placements, most_placements, standard_verdict};
pub(crate) use features::{Weights, WeightsError};
pub use moves::{Illegal, Move, MoveKind, MoveList, MoveParseError};
pub(crate) use perft::perft_until;
pub use perft::{divide, perft};
pub use pods::{DEFAULT_POD_SET, Leg, Pod, PodMask, PodParseError, PodSet, PodSetError, PodShape};
pub use position::{DrawReason, LARGEST_PLY, Outcome, PodPlace, Position, PositionError, WinReason};
pub use record::GameRecord;
pub use ruleset::{Rules, Variant, VariantParseError};
pub use session::PodsSession;
pub(crate) use setup::Pods;
pub use types::{
    Bitboard, BitboardParseError, Direction, DirectionParseError, Point, PointParseError, Rotation, RotationParseError,
    Side, SideParseError,
};
