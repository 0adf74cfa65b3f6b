//! The text protocol: UGI (the generalised UCI that the cutegames tournament
//! manager speaks), UCI's handshake, and Podium's own commands for people
//! and scripts. `protocol.md` at the repository root is the contract.
//!
//! Input lines -> `command` (typed commands) -> `engine` (state, replies)
//! -> `output` (one locked, flushed writer). Searches run on their own
//! thread (`search_job`) and report through `report`.

pub mod command;
pub mod engine;
pub mod input;
pub mod options;
pub mod output;
pub mod report;
mod search_job;

use std::io::{BufRead, Write};

use crate::games::Registry;

pub use command::{Command, CommandError};
pub use engine::{Engine, Flow};
pub use output::Output;

/// Speaks the protocol until `quit` or the end of input; a search still
/// running then is stopped, and its `bestmove` printed, as the engine drops.
pub fn run(input: impl BufRead, output: impl Write + Send + 'static) {
    let mut engine = Engine::new(Registry::builtin(), Output::new(output));
    let mut lines = input::LineReader::new(input);
    loop {
        match lines.next_line() {
            Ok(None) => break,
            Ok(Some(Ok(line))) => {
                if engine.execute_line(&line) == Flow::Quit {
                    break;
                }
            }
            Ok(Some(Err(bad_line))) => engine.error(bad_line),
            Err(error) => {
                log::error!("cannot read the input: {error}");
                break;
            }
        }
    }
}
