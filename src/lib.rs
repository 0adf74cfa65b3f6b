//! Podium: a game engine for Pods and POLD.R.
//!
//! Layers, each using only the ones below it: `main.rs` (the command line)
//! -> `cli` (bench, analysis) -> `protocol` (text commands in, replies out)
//! -> `games` (the registry of games, each game pure, and `Session`) ->
//! `search` (game-agnostic alpha-beta over a small trait).

#![warn(missing_docs)]

pub mod cli;
pub mod games;
pub mod protocol;
pub mod search;
