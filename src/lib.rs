//! Podium: a game engine for Pods.
//!
//! Layers, each using only the one below: `rules` (the game, pure) ->
//! `search` (game-agnostic alpha-beta over a small trait) -> `protocol`
//! (text commands in, replies out). `main.rs` is the command line.

pub mod protocol;
pub mod rules;
pub mod search;
