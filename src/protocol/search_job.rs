//! A search running on its own thread, so the input loop stays free to
//! answer `isready` and `stop`. The `Searcher` moves into the thread and
//! comes back when it is joined; the thread prints its `info` lines and
//! exactly one `bestmove` before it ends.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};

use super::output::Output;
use super::report::{bestmove_line, first_legal_move, search_and_report};
use crate::games::Session;
use crate::search::{Limits, Searcher};

pub struct SearchJob {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Searcher>,
}

impl SearchJob {
    /// Starts searching `game`'s position. If no thread can be started the
    /// `go` still gets its answer, `bestmove (none)`, and the searcher is
    /// lost (the engine makes a new one when it needs one).
    pub fn start(mut searcher: Searcher, game: Box<dyn Session>, limits: Limits, output: Output) -> Option<SearchJob> {
        let stop = Arc::new(AtomicBool::new(false));
        let stop_flag = Arc::clone(&stop);
        let thread_output = output.clone();
        let spawned = thread::Builder::new().name("search".to_string()).spawn(move || {
            run(&mut searcher, game.as_ref(), &limits, &stop_flag, &thread_output);
            searcher
        });
        match spawned {
            Ok(thread) => Some(SearchJob { stop, thread }),
            Err(error) => {
                log::error!("cannot start the search thread: {error}");
                output.line("info string error: cannot start the search thread");
                output.line(bestmove_line(None));
                None
            }
        }
    }

    pub fn is_finished(&self) -> bool {
        self.thread.is_finished()
    }

    /// Stops the search; its `bestmove` has been printed when this returns.
    pub fn stop(self) -> Option<Searcher> {
        self.stop.store(true, Ordering::Relaxed);
        self.join()
    }

    /// Waits for the search to end by itself and takes the searcher back;
    /// `None` if the thread died (the engine then makes a new one).
    pub fn join(self) -> Option<Searcher> {
        let searcher = self.thread.join().ok();
        if searcher.is_none() {
            log::error!("the search thread died");
        }
        searcher
    }
}

/// The thread's work. A bug that panics in the search must not leave the
/// controller waiting: it still gets a legal `bestmove`.
fn run(searcher: &mut Searcher, game: &dyn Session, limits: &Limits, stop: &AtomicBool, output: &Output) {
    let searched = panic::catch_unwind(AssertUnwindSafe(|| {
        search_and_report(searcher, game, limits, stop, |info| output.line(info))
    }));
    let best = searched.unwrap_or_else(|_| {
        log::error!("the search panicked: answering with the first legal move");
        output.line("info string error: internal error in the search");
        first_legal_move(game)
    });
    output.line(bestmove_line(best));
}
