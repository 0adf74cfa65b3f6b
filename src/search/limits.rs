//! What the caller allows a search (depth, nodes, time) and how clock time
//! becomes a budget.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::params::PARAMS;

/// The side to move's clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on it.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the controller says.
    pub moves_to_go: Option<u32>,
}

/// Limits combine as in UCI: the search stops at the first one reached.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The last iteration's depth.
    pub depth: Option<u32>,
    /// Nodes of all threads.
    pub nodes: Option<u64>,
    /// A fixed time for the move, to be used.
    pub movetime: Option<Duration>,
    /// The side to move's clock, shared out over the moves it has to play.
    pub clock: Option<Clock>,
    /// Search until stopped, whatever else is set.
    pub infinite: bool,
    /// Asked for a proof (`podium solve`): the dedicated proof search first
    /// where the game bounds its length, then iterations that prune no
    /// move. `infinite` and `mate` also give proofs as many nodes as the
    /// iterations, and `mate` prunes no move either.
    pub prove: bool,
    /// Stop once a win in at most this many of the side to move's own moves is found.
    pub mate: Option<u32>,
    /// Time lost between our reply and the controller's clock, per move.
    pub move_overhead: Duration,
    /// When the clock started: when the `go` was read (so starting and
    /// joining threads counts); the search's own start if not given.
    pub clock_start: Option<Instant>,
}

/// What the caller can tell a running search, from another thread.
#[derive(Debug, Default)]
pub struct Signals {
    /// Stop as soon as possible and answer.
    pub stop: AtomicBool,
    /// While set, the search ponders: no time limit runs and no answer comes
    /// (as under `infinite`) until it is cleared (the expected move was
    /// played: the clock starts then) or `stop` is set.
    pub pondering: AtomicBool,
}

impl Signals {
    /// Signals for a search that starts by pondering.
    pub fn pondering() -> Signals {
        Signals { stop: AtomicBool::new(false), pondering: AtomicBool::new(true) }
    }
}

/// When to stop: no new iteration starts after `soft`; the search is cut
/// off at `hard`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TimeBudget {
    pub(super) soft: Option<Duration>,
    pub(super) hard: Option<Duration>,
}

impl TimeBudget {
    /// No time limit.
    pub(super) const NONE: TimeBudget = TimeBudget { soft: None, hard: None };
}

/// The main thread's clock: its budget, counted from when the clock
/// started (the `go`, or the end of pondering: while the search ponders no
/// limit runs).
#[derive(Clone, Copy, Debug)]
pub(super) struct Timer {
    budget: TimeBudget,
    started: Instant,
    pondering: bool,
}

impl Timer {
    /// A clock started at `started` with `budget`, or not yet started while `pondering`.
    pub(super) fn new(budget: TimeBudget, started: Instant, pondering: bool) -> Timer {
        Timer { budget, started, pondering }
    }

    /// A clock with no limits (helper threads: the main thread stops them).
    pub(super) fn unlimited() -> Timer {
        Timer::new(TimeBudget::NONE, Instant::now(), false)
    }

    /// When the clock started (the search's start, or the end of pondering).
    pub(super) fn started(&self) -> Instant {
        self.started
    }

    /// The hard limit, once the clock runs (none while pondering).
    pub(super) fn hard_limit(&self) -> Option<Duration> {
        if self.pondering { None } else { self.budget.hard }
    }

    /// Whether the clock limits the search at all (once pondering ends).
    pub(super) fn has_limit(&self) -> bool {
        self.budget.hard.is_some()
    }

    /// Whether the hard limit has passed: the search stops now.
    pub(super) fn past_hard(&mut self, signals: &Signals) -> bool {
        self.past(signals, self.budget.hard)
    }

    /// Whether the soft limit has passed: no new iteration starts.
    pub(super) fn past_soft(&mut self, signals: &Signals) -> bool {
        self.past(signals, self.budget.soft)
    }

    /// Waits until the soft limit passes or the search is stopped.
    pub(super) fn wait_out(&mut self, signals: &Signals) {
        while !self.past_soft(signals) && !signals.stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Whether the clock has passed `limit`. While the search ponders no
    /// limit runs; the clock starts when pondering ends.
    fn past(&mut self, signals: &Signals, limit: Option<Duration>) -> bool {
        if self.pondering {
            if signals.pondering.load(Ordering::Relaxed) {
                return false;
            }
            self.pondering = false;
            self.started = Instant::now();
        }
        limit.is_some_and(|limit| self.started.elapsed() >= limit)
    }
}

impl Limits {
    /// Whether the move has a fixed time and nothing else ends it sooner
    /// (no depth, nodes or mate asked for, not `infinite`): the move takes
    /// that time, decided or not (UCI: "search exactly x mseconds").
    pub(super) fn fixed_time_only(&self) -> bool {
        self.movetime.is_some() && !self.infinite && (self.depth, self.nodes, self.mate) == (None, None, None)
    }

    /// The time budget for this move. `moves_left` is the game's estimate of
    /// the moves the side to move has still to play, used when the
    /// controller gives no `moves_to_go`.
    pub(super) fn budget(&self, moves_left: u32) -> TimeBudget {
        if self.infinite {
            return TimeBudget::NONE;
        }
        let mut budget = TimeBudget::NONE;
        if let Some(movetime) = self.movetime {
            // A fixed time per move is meant to be used: iterations run to
            // the end of it, less the overhead and a margin for a busy machine.
            let margin = PARAMS.movetime_margin.of(movetime).min(PARAMS.movetime_margin_max);
            let hard = movetime.saturating_sub(self.move_overhead + margin).max(PARAMS.min_think);
            budget = TimeBudget { soft: Some(hard), hard: Some(hard) };
        }
        if let Some(clock) = self.clock {
            let usable = clock.remaining.saturating_sub(self.move_overhead + PARAMS.clock_reserve);
            let moves_to_go = clock.moves_to_go.unwrap_or(moves_left).max(1);
            let share = usable / moves_to_go + PARAMS.increment_counted.of(clock.increment);
            let hard = PARAMS.hard_per_share.of(share).min(PARAMS.hard_max_of_clock.of(usable)).max(PARAMS.min_think);
            let soft = PARAMS.soft_per_share.of(share).min(hard);
            budget.soft = Some(budget.soft.map_or(soft, |s| s.min(soft)));
            budget.hard = Some(budget.hard.map_or(hard, |h| h.min(hard)));
        }
        budget
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn movetime_is_a_hard_limit_less_the_overhead_and_a_margin() {
        let limits = Limits { movetime: Some(ms(100)), move_overhead: ms(10), ..Limits::default() };
        assert_eq!(limits.budget(16), TimeBudget { soft: Some(ms(85)), hard: Some(ms(85)) });
        let limits = Limits { movetime: Some(ms(2000)), move_overhead: ms(10), ..Limits::default() };
        assert_eq!(limits.budget(16).hard, Some(ms(1965)));
    }

    #[test]
    fn clock_budget_stays_well_inside_the_remaining_time() {
        for remaining in [1u64, 5, 20, 100, 1000, 60_000] {
            let limits = Limits {
                clock: Some(Clock { remaining: ms(remaining), increment: ms(10), moves_to_go: None }),
                move_overhead: ms(10),
                ..Limits::default()
            };
            let budget = limits.budget(16);
            let (soft, hard) = (budget.soft.unwrap(), budget.hard.unwrap());
            assert!(soft <= hard, "{remaining}: {budget:?}");
            assert!(hard <= ms(remaining).max(PARAMS.min_think), "{remaining}: {budget:?}");
            if remaining >= 1000 {
                assert!(hard >= ms(remaining / 50), "{remaining}: uses too little, {budget:?}");
            }
        }
    }

    #[test]
    fn infinite_has_no_budget_and_limits_combine() {
        let infinite = Limits { infinite: true, movetime: Some(ms(5)), ..Limits::default() };
        assert_eq!(infinite.budget(16), TimeBudget::NONE);
        let both = Limits {
            movetime: Some(ms(50)),
            clock: Some(Clock { remaining: ms(100_000), increment: ms(0), moves_to_go: None }),
            ..Limits::default()
        };
        // The movetime, less its margin (a twentieth), wins over the long clock.
        assert_eq!(both.budget(16).hard, Some(ms(50) - ms(50) / 20));
    }
}
