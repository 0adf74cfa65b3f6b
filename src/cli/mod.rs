//! What the command line does beyond the protocol loop, for scripts and
//! people: the bench and the analysis of many positions. `main.rs` reads
//! the arguments; these do the work over a `Registry`, so every game is
//! served alike.

pub mod analysis;
pub mod bench;
pub mod cpu_time;
pub mod positions;
pub mod rules;
