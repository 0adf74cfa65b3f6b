//! Podium: a game engine for Pods and POLD.R.
//!
//! Layers, each using only the one below: `games` (each game, pure) ->
//! `search` (game-agnostic alpha-beta over a small trait) -> `protocol`
//! (text commands in, replies out). `main.rs` is the command line.

pub mod games;
pub mod protocol;
pub mod search;
