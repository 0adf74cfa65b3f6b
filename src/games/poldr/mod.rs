//! POLD.R (Guilain Dorsimont, 2015) for 2 or 3 players: cells and
//! intervals, positions, move generation, notation, hashing, perft, the
//! evaluation and the adapter to the search. Pure: no I/O.

mod adapter;
mod book;
mod eval;
mod geometry;
mod moves;
mod perft;
mod position;
mod session;
mod setup;
mod tunables;
mod tune;
mod types;
mod zobrist;

pub use adapter::PoldrAdapter;
pub use moves::{Illegal, Move, MoveParseError};
pub use perft::{divide, perft};
pub use position::{LARGEST_PLY, Outcome, Position, PositionError, SetupError, WinReason};
pub use session::PoldrSession;
pub(crate) use setup::Poldr;
pub use types::{Cell, CellParseError, Phase, Seat, SeatParseError};
pub use zobrist::Piece;
