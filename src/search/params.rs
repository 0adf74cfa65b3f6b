//! The search's tunable numbers, in one place, each with the reason for its
//! value. Measurements quoted are self-play matches (Elo with its 95%
//! interval) or node counts and times of `podium bench`; the game's own
//! numbers are in its `Tunables`.

use std::time::Duration;

/// A share of a time or a count: multiplied by `numerator`, then divided by
/// `denominator`, so a share of 1/2 is exactly a halving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Fraction {
    pub(super) numerator: u32,
    pub(super) denominator: u32,
}

impl Fraction {
    const fn new(numerator: u32, denominator: u32) -> Fraction {
        Fraction { numerator, denominator }
    }

    /// This share of `time`.
    pub(super) fn of(self, time: Duration) -> Duration {
        time * self.numerator / self.denominator
    }

    /// This share of `count`.
    pub(super) fn of_count(self, count: u64) -> u64 {
        count * u64::from(self.numerator) / u64::from(self.denominator)
    }
}

/// Every number the game-agnostic search is tuned by. One value is used
/// (`PARAMS`), a constant so the compiler folds it into the code.
#[derive(Clone, Copy, Debug)]
pub(super) struct SearchParams {
    /// Aspiration windows start at this depth: shallower iterations are
    /// cheap, and their scores move too much to centre a window on. The
    /// windows took the nodes to depth 9 over 40 standard openings from
    /// 51.5 to 44.0 million, to depth 8 over 40 advanced ones from 9.9 to
    /// 7.9 million.
    pub(super) aspiration_depth: u32,
    /// The first window's half-width, doubled each time the score falls
    /// out. 100 instead of 60 in the advanced game, whose scores move 21 to
    /// 59 units from one depth to the next on some positions, measured
    /// +6.9 +/- 29.9 (400 games): not kept.
    pub(super) aspiration_margin: i32,
    /// Past this half-width the window that failed opens fully on its side:
    /// a score so far out is better found in one search than in more doublings.
    pub(super) aspiration_limit: i32,
    /// Reverse futility pruning (and futility pruning, where the game
    /// asks for it) works this many plies from the leaves or fewer. From 4
    /// plies measured +3.5 +/- 30.7 in the advanced game: not kept.
    pub(super) futility_depth: i32,
    /// A node whose static score is above beta by this margin per ply left
    /// is taken to fail high without a search; one this far below alpha is
    /// futile. 40 measured -16.5 +/- 17.6 (800 games) and 90 -21 after 232
    /// games, against 60. With late move pruning it gained +35.6 +/- 18.2
    /// in the standard game and +91.6 +/- 50.6 in the advanced game.
    pub(super) futility_margin: i32,
    /// Late move pruning works this many plies from the leaves or fewer.
    /// From 4 plies with fewer moves measured -3.5 +/- 32.7 (advanced).
    pub(super) late_moves_depth: i32,
    /// Late move pruning keeps the first `base + slope · depth²` moves of
    /// a node (the table move and killers always). In the standard game
    /// 10 + 3·depth² measured -13.0 +/- 14.3, 6 + 2·depth² -7.8 +/- 14.5
    /// and 3 + 3·depth² -4.3 +/- 12.9 against 6 + 3·depth² (800 games each).
    pub(super) late_moves_base: i32,
    /// See `late_moves_base`.
    pub(super) late_moves_slope: i32,
    /// Late move reductions start at this depth...
    pub(super) reduction_depth: i32,
    /// ...and at this move of a node (counting from 0): late moves of a
    /// well-ordered list rarely matter, so they are searched shallower
    /// first, and again in full only if they surprise.
    pub(super) reduction_index: usize,
    /// A late move is reduced by `base + ln(depth) · ln(index) / divisor`
    /// plies, rounded down, at least 1 and at most `depth - 2`. Stronger
    /// reductions measured -19.5 +/- 15.7 and weaker ones -11.8 +/- 16.4
    /// (standard); a ply more away from the principal variation -4.3 +/-
    /// 15.3 (800 games).
    pub(super) reduction_base: f64,
    /// See `reduction_base`.
    pub(super) reduction_divisor: f64,
    /// Each new search divides the history scores it inherits by this:
    /// the last search's order is a good start, but the position has moved on.
    pub(super) history_fade: i32,
    /// How many moves of a list are picked one by one by a swap, which is
    /// cheapest while a cut-off is likely.
    pub(super) picked_moves: usize,
    /// How many moves are handed out, by taking the best out while the rest
    /// keep their order, before the rest is sorted at once: late move
    /// pruning stops most nodes near the leaves before this, and a sort of
    /// a hundred moves would then be wasted. Handing out moves 5 to 12 by
    /// extraction rather than sorting took `podium bench` from 4.73-4.78
    /// to 4.99-5.02 million nodes/s.
    pub(super) extracted_moves: usize,
    /// How many nodes pass between looks at the clock and the stop flags.
    /// Small enough that a thread with a small share of a crowded machine
    /// still looks often.
    pub(super) poll_interval: u64,
    /// How many nodes a proof passes between looks at its interrupt. A
    /// proof node makes all its children, so it costs microseconds: at 1024
    /// a helper proving alongside the iterations took up to 6 ms to notice
    /// that the search was over, and two-thread searches of the standard
    /// game waited for it (64: two threads' time to depth 10 over the bench
    /// positions fell from 0.76 to 0.73 of one thread's).
    pub(super) proof_poll_interval: u64,
    /// The bounded searches that improve a proof (a quicker win, a longer
    /// resistance) remember this many positions without a win within a
    /// bound, then start afresh: a hash map of 2^20 buckets at most, about
    /// 18 MB beside the tables `Hash` sizes.
    pub(super) bounded_failures_kept: usize,
    /// Root moves are announced (`Progress::CurrentMove`) only after the
    /// search has run this long, so short searches are not flooded.
    pub(super) current_move_after: Duration,
    /// Helper threads search ahead of the main thread, spread over 1 to
    /// this many plies: whatever depth the main thread reaches, a helper
    /// has filled the table for it. Every helper two plies ahead (0.70 of
    /// one thread's time to depth 12, 0.78 to 0.82 to depth 10) or at the
    /// main thread's depth (0.68 to depth 12) was no faster than this
    /// spread in the same hours (0.67 to 0.71 to depth 12, 0.75 to 0.87 to
    /// depth 10).
    pub(super) helper_spread: u32,
    /// A proof between iterations gets at least this many nodes, however
    /// few the iterations have had.
    pub(super) min_proof_nodes: u64,
    /// A proof between iterations, when asked to prove (`go infinite`, `go
    /// mate`, `podium solve`), may take this share of the nodes (and, under
    /// a clock, of the time) the iterations have had so far, so proving
    /// keeps pace with searching.
    pub(super) eager_proof_share: Fraction,
    /// The same in timed play, where a proof's nodes are the iterations'
    /// loss unless it finishes (and they cost more than theirs).
    pub(super) timed_proof_share: Fraction,
    /// The table of proved positions takes the `Hash` size divided by
    /// this, on top of the transposition table (protocol.md: "half as
    /// much again"): proofs keep what they proved from move to move.
    pub(super) proof_table_divisor: usize,
    /// Solving (`dfpn`): the endgame solver settles a position that
    /// df-pn meets where the game bounds the plies left by at most this
    /// (its depth-first search is quicker than df-pn's bookkeeping).
    /// Measured on standard positions 4 plies in (docs/solving.md, 10 s
    /// CPU each): with 16 plies and 2,000 nodes, or 20 and 50,000, df-pn
    /// proved none of the positions today's solver proves in 4.5 and
    /// 8.5 s; with 22 and 1,000,000 it proves them in the same time and
    /// nodes (the endgame solver then settles the root's children).
    pub(super) dfpn_leaf_horizon: u32,
    /// ... within this many nodes; beyond them df-pn searches the position itself.
    pub(super) dfpn_leaf_budget: u64,
    /// Solving: the endgame solver's table takes the memory given divided
    /// by this; df-pn's table the rest.
    pub(super) dfpn_leaf_table_divisor: usize,
    /// df-pn in a game whose positions repeat (`repetition_is_draw`): the
    /// most a node's sum of its children's numbers counts. Where pods go
    /// back and forth the numbers, stored and summed again below
    /// themselves, grew until they reached the largest count and the
    /// proof gave up: on 3 of the 36 committed advanced endgames 12 to 16
    /// plies before the end (docs/solving.md), within 4 to 9 s. Capped at
    /// 2^20, each is proved (in 64, 8.4 and 18 million nodes). Nothing else
    /// changes: a sum is 0 only where every child's number is.
    pub(super) dfpn_cycle_cap: u32,
    /// Never plan to use the last few milliseconds of the clock.
    pub(super) clock_reserve: Duration,
    /// A fixed time per move is aimed this share short (at most
    /// `movetime_margin_max`): a loaded machine can deschedule the process
    /// past its deadline. A fiftieth instead of a tenth (88 ms of 100
    /// searched instead of 80) measured -4.3 +/- 10.4 (800 games) in Pods,
    /// no loss: a twentieth, so that a move uses at least 80% of its
    /// time as the arbiter measures it (issue #37: POLD.R used 14 to 20 ms
    /// of 100).
    pub(super) movetime_margin: Fraction,
    /// See `movetime_margin`.
    pub(super) movetime_margin_max: Duration,
    /// The shortest hard limit aimed for, so a search always gets a first
    /// iteration done.
    pub(super) min_think: Duration,
    /// The share of the increment a move counts on beyond its share of the
    /// clock; the rest is a margin.
    pub(super) increment_counted: Fraction,
    /// The hard limit, in shares of the clock a move gets: room for an
    /// iteration begun before the soft limit to end.
    pub(super) hard_per_share: Fraction,
    /// ... but never more than this share of the clock left, so one move
    /// that runs long leaves enough for the rest.
    pub(super) hard_max_of_clock: Fraction,
    /// No iteration starts after this share of a move's share of the clock:
    /// an iteration begun later rarely ends before the hard limit. 7/10
    /// instead measured -4.0 +/- 20.7 (advanced, 790 games, SPRT stopped).
    pub(super) soft_per_share: Fraction,
    /// MCTS: the weight of UCT's exploration term, for wins counted 1 and
    /// losses 0. The yardstick's c = 2 with rewards of +1 and -1 is 1 here.
    pub(super) mcts_exploration: f32,
    /// MCTS: simulations between looks at the clock and the stop flag.
    pub(super) mcts_poll_interval: u64,
    /// MCTS: simulations for each ply of depth asked for, where a search
    /// is limited by its depth alone (tests, the bench).
    pub(super) mcts_simulations_per_depth: u64,
    /// MCTS as `mcts-eval`: a playout plays this many random plies, then
    /// takes the game's evaluation of each player's chance to win
    /// (`win_shares`) as its result, where the game has one. 0: the
    /// evaluation at the leaf. Against two copies of 69de8a6 (`mcts`),
    /// POLD.R 5x5/16, 60 games, 100 ms a move, it won 25 (0 plies) and 15
    /// (6 plies) where an even share is 20; on 7x7/24, 12 of 60 with 0
    /// plies: no gain, so `mcts` stays the default (docs/poldr-strength.md).
    pub(super) mcts_playout_plies: u32,
}

impl SearchParams {
    /// The values the engine plays with.
    pub(super) const DEFAULT: SearchParams = SearchParams {
        aspiration_depth: 5,
        aspiration_margin: 60,
        aspiration_limit: 1000,
        futility_depth: 3,
        futility_margin: 60,
        late_moves_depth: 3,
        late_moves_base: 6,
        late_moves_slope: 3,
        reduction_depth: 3,
        reduction_index: 3,
        reduction_base: 0.5,
        reduction_divisor: 2.5,
        history_fade: 8,
        picked_moves: 4,
        extracted_moves: 12,
        poll_interval: 256,
        proof_poll_interval: 64,
        bounded_failures_kept: 900_000,
        current_move_after: Duration::from_secs(1),
        helper_spread: 2,
        min_proof_nodes: 20_000,
        eager_proof_share: Fraction::new(1, 1),
        timed_proof_share: Fraction::new(1, 2),
        proof_table_divisor: 2,
        dfpn_leaf_horizon: 22,
        dfpn_leaf_budget: 1_000_000,
        dfpn_leaf_table_divisor: 4,
        dfpn_cycle_cap: 1 << 20,
        clock_reserve: Duration::from_millis(5),
        movetime_margin: Fraction::new(1, 20),
        movetime_margin_max: Duration::from_millis(25),
        min_think: Duration::from_millis(1),
        increment_counted: Fraction::new(3, 4),
        hard_per_share: Fraction::new(3, 1),
        hard_max_of_clock: Fraction::new(1, 3),
        soft_per_share: Fraction::new(1, 2),
        mcts_exploration: 1.0,
        mcts_poll_interval: 16,
        mcts_simulations_per_depth: 1000,
        mcts_playout_plies: 0,
    };
}

/// The search's tunables as played.
pub(super) const PARAMS: SearchParams = SearchParams::DEFAULT;
