//! What the threads of one search share besides the table: the caller's
//! signals, when to stop, the node count, and what helpers hand the main
//! thread (a deeper line, a proof).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64};
use std::sync::{Condvar, Mutex};
use std::time::Instant;

use crate::search::limits::Signals;
use crate::search::solver::Proven;

/// The state one search's threads share.
pub(super) struct Shared<'a> {
    /// The caller's stop and ponder flags.
    pub(super) signals: &'a Signals,
    /// Set by the main thread when it is done, to stop the helpers.
    pub(super) finished: AtomicBool,
    /// The depth the main thread is searching.
    pub(super) main_depth: AtomicU32,
    /// Nodes of all threads, added in steps of `poll_interval`.
    pub(super) nodes: AtomicU64,
    /// The deepest iteration a helper has completed, and its line: the
    /// main thread takes it over rather than finish a shallower one.
    pub(super) helper_depth: AtomicU32,
    pub(super) helper_line: Mutex<Option<HelperLine>>,
    /// Whether the main thread takes over helpers' lines: not when it looks
    /// for more lines than the helpers do, or searches max-n without them.
    pub(super) adopt_helper_lines: bool,
    /// When every thread stops, whoever notices first (not while pondering:
    /// then only the main thread knows when the clock starts).
    pub(super) deadline: Option<Instant>,
    /// Helpers wait here until all are started, so starting them is not
    /// slowed by the ones already searching.
    start_gate: (Mutex<bool>, Condvar),
    /// A proof found by the helper that proves while the main thread
    /// iterates, and whether it settles the move to play (then the main
    /// thread stops its iteration for it).
    pub(super) helper_proof: Mutex<Option<HelperProof>>,
    pub(super) proof_settles: AtomicBool,
    /// A search for a proof (`Limits::prove`) or a mate (`Limits::mate`):
    /// every move of every node is searched, none left out by late move or
    /// futility pruning, nor a node cut by its static score, since a proof
    /// needs each of the loser's moves answered.
    pub(super) every_move: bool,
}

impl<'a> Shared<'a> {
    /// The shared state of a search that has not started.
    pub(super) fn new(signals: &'a Signals, adopt_helper_lines: bool, deadline: Option<Instant>) -> Self {
        Shared {
            signals,
            finished: AtomicBool::new(false),
            main_depth: AtomicU32::new(0),
            nodes: AtomicU64::new(0),
            helper_depth: AtomicU32::new(0),
            helper_line: Mutex::new(None),
            adopt_helper_lines,
            deadline,
            start_gate: (Mutex::new(false), Condvar::new()),
            helper_proof: Mutex::new(None),
            proof_settles: AtomicBool::new(false),
            every_move: false,
        }
    }

    /// Lets the helpers waiting at the gate start.
    pub(super) fn open_gate(&self) {
        *self.start_gate.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = true;
        self.start_gate.1.notify_all();
    }

    /// Waits until the main thread has started every helper.
    pub(super) fn wait_at_gate(&self) {
        let mut open = self.start_gate.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        while !*open {
            open = self.start_gate.1.wait(open).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }
}

/// An iteration a helper completed: its depth, score and best line.
pub(super) struct HelperLine {
    pub(super) depth: u32,
    pub(super) seldepth: u32,
    pub(super) score: i32,
    /// Moves as the table packs them: `Shared` knows no game.
    pub(super) pv: Vec<u16>,
}

/// A proof a helper completed: the root's result and the proof's line.
pub(super) struct HelperProof {
    pub(super) proven: Proven,
    /// Moves as the table packs them.
    pub(super) pv: Vec<u16>,
}
