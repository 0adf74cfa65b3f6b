//! A search (or a `go perft`) running on its own thread, so the input loop
//! stays free to answer `isready`, `stop` and `ponderhit`. A search's
//! `Searcher` moves into the thread and comes back when it is joined; the
//! thread prints its `info` lines and exactly one `bestmove` before it ends.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::{self, JoinHandle};

use super::output::Output;
use super::report::{BestMove, search_and_report};
use crate::games::Session;
use crate::search::{Limits, Searcher, Signals};

pub struct SearchJob {
    signals: Arc<Signals>,
    /// Gives back the searcher it took, if any.
    thread: JoinHandle<Option<Searcher>>,
}

/// What one `go` asks, beyond its limits.
#[derive(Clone, Debug, Default)]
pub struct SearchRequest {
    pub limits: Limits,
    /// The only root moves to search, in the game's notation (empty: all).
    pub root_moves: Vec<String>,
    /// Start by pondering (`go ponder`).
    pub ponder: bool,
    /// Name the move to ponder on after `bestmove` (the `Ponder` option).
    pub show_ponder: bool,
}

impl SearchJob {
    /// Starts searching `game`'s position. If no thread can be started the
    /// `go` still gets its answer, `bestmove (none)`, and the searcher is
    /// lost (the engine makes a new one when it needs one).
    pub fn start(
        mut searcher: Searcher,
        game: Box<dyn Session>,
        request: SearchRequest,
        output: Output,
    ) -> Option<SearchJob> {
        let signals = Arc::new(if request.ponder { Signals::pondering() } else { Signals::default() });
        let thread_signals = Arc::clone(&signals);
        let thread_output = output.clone();
        let fallback = (game.clone(), request.show_ponder);
        let spawned = spawn_search_thread(move || {
            run(&mut searcher, game.as_ref(), &request, &thread_signals, &thread_output);
            Some(searcher)
        });
        match spawned {
            Ok(thread) => Some(SearchJob { signals, thread }),
            Err(error) => {
                // The `go` still gets a legal move: a one-ply search here.
                log::error!("cannot start the search thread: {error}");
                output.line("info string error: cannot start the search thread: searching as 'go depth 1' here");
                let (game, show_ponder) = fallback;
                let request = SearchRequest {
                    limits: Limits { depth: Some(1), ..Limits::default() },
                    show_ponder,
                    ..SearchRequest::default()
                };
                run(&mut Searcher::new(1), game.as_ref(), &request, &Signals::default(), &output);
                None
            }
        }
    }

    /// Starts `go perft depth`: each first move's count as it is known, then
    /// `nodes <total>`, or, once stopped, a line that says so.
    pub fn start_perft(game: Box<dyn Session>, depth: u32, output: Output) -> Option<SearchJob> {
        let signals = Arc::new(Signals::default());
        let thread_signals = Arc::clone(&signals);
        let thread_output = output.clone();
        let spawned = spawn_search_thread(move || {
            let (mut counted, mut total) = (0, 0);
            let finished = game.divide(depth, &thread_signals.stop, &mut |mv, count| {
                thread_output.line(format!("{mv}: {count}"));
                counted += 1;
                total += count;
            });
            if finished {
                thread_output.line(format!("nodes {total}"));
            } else {
                let moves = game.legal_moves().len();
                thread_output.line(format!(
                    "info string perft stopped: {counted} of {moves} first moves counted, {total} nodes"
                ));
            }
            None
        });
        match spawned {
            Ok(thread) => Some(SearchJob { signals, thread }),
            Err(error) => {
                output.line(format!("info string error: cannot start perft: {error}"));
                None
            }
        }
    }

    pub fn is_finished(&self) -> bool {
        self.thread.is_finished()
    }

    /// Whether the search is pondering (and waits for `ponderhit` or `stop`).
    pub fn is_pondering(&self) -> bool {
        self.signals.pondering.load(Ordering::Relaxed)
    }

    /// The move pondered on was played: the search goes on under its clock.
    pub fn ponder_hit(&self) {
        self.signals.pondering.store(false, Ordering::Relaxed);
    }

    /// Stops the search; its `bestmove` has been printed when this returns.
    /// Gives back the searcher it took (none for perft, or if the thread died).
    pub fn stop(self) -> Option<Searcher> {
        self.signals.stop.store(true, Ordering::Relaxed);
        self.join()
    }

    /// Waits for the search to end by itself and takes the searcher back;
    /// `None` if the thread died (the engine then makes a new one).
    pub fn join(self) -> Option<Searcher> {
        self.thread.join().unwrap_or_else(|_| {
            log::error!("the search thread died");
            None
        })
    }
}

#[cfg(test)]
/// Test seam: search threads cannot start while set.
static REFUSE_THREADS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn spawn_search_thread(
    work: impl FnOnce() -> Option<Searcher> + Send + 'static,
) -> std::io::Result<JoinHandle<Option<Searcher>>> {
    #[cfg(test)]
    if REFUSE_THREADS.load(Ordering::Relaxed) {
        return Err(std::io::Error::other("refused by the test seam"));
    }
    thread::Builder::new().name("search".to_string()).spawn(work)
}

/// The thread's work. A bug that panics in the search must not leave the
/// controller waiting: it still gets a legal `bestmove`.
fn run(searcher: &mut Searcher, game: &dyn Session, request: &SearchRequest, signals: &Signals, output: &Output) {
    let searched = panic::catch_unwind(AssertUnwindSafe(|| {
        search_and_report(searcher, game, &request.limits, &request.root_moves, signals, |info| output.line(info))
    }));
    let mut answer = searched.unwrap_or_else(|_| {
        log::error!("the search panicked: answering with the first legal move");
        output.line("info string error: internal error in the search");
        BestMove { best: game.legal_moves().into_iter().next(), ponder: None }
    });
    if !request.show_ponder {
        answer.ponder = None;
    }
    output.line(answer);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Registry;
    use crate::protocol::output::MemorySink;

    #[test]
    fn a_search_thread_that_cannot_start_still_answers_with_a_legal_move() {
        let game = Registry::builtin().select(Some("poldr"), &[]).expect("POLD.R").setup.start();
        let sink = MemorySink::default();
        REFUSE_THREADS.store(true, Ordering::Relaxed);
        let request =
            SearchRequest { limits: Limits { infinite: true, ..Limits::default() }, ..SearchRequest::default() };
        let job = SearchJob::start(Searcher::new(1), game.clone(), request, Output::new(sink.clone()));
        REFUSE_THREADS.store(false, Ordering::Relaxed);
        assert!(job.is_none());
        let lines = sink.take_lines();
        assert!(lines[0].starts_with("info string error: cannot start the search thread"), "{lines:?}");
        let best = lines.last().unwrap().strip_prefix("bestmove ").expect("a bestmove");
        assert!(game.legal_moves().contains(&best.to_string()), "{lines:?}");
    }
}
