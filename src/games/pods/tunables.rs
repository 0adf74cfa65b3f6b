//! Every number Pods plays by beyond its rules, in one place, each with the
//! reason for its value: the evaluation's weights and grain, the move-order
//! hint, the clock, and the search's settings for each variant.
//! Measurements quoted are self-play matches (Elo with its 95% interval)
//! against the same build without the change, unless said otherwise.

use super::Variant;
use super::features::Weights;

/// Pods' tunables. One value is used (`TUNABLES`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Tunables {
    /// The standard game's weights (secure placements, open points,
    /// placements, safe, most, hand, nearly blocked, pod moves, tempo,
    /// contested points): fitted by `podium tune`, then `placements`
    /// raised from 1 to 3 by matches (+35.7 +/- 21.4, 800 games at 50 ms a
    /// move), and `contested_points` set to 30, where the scores stop
    /// swinging between odd and even depths: without it the side that has
    /// just moved looks hundreds of units better off than it is (over
    /// 1,524 positions of match games the side to move's best placement
    /// left it 436 units better off on average than the static score said).
    pub(super) standard_weights: Weights,
    /// The advanced game's weights, fitted by `podium tune`. Weights fitted
    /// again to 750 distinct self-play games lost -98.1 +/- 34.1 against
    /// them (400 games).
    pub(super) advanced_weights: Weights,
    /// The standard game's scores are rounded down to a multiple of this
    /// power of two. Its terms differ by a few units between many moves; at
    /// a grain of 1 each one that edges past the best so far is searched
    /// again in full, and some iterations cost a hundred times the one
    /// before (bench position 4 took 443 million nodes to depth 14, 55
    /// million at a grain of 8). Against grain 1: +26.1 +/- 17.1 (800 games,
    /// 100 ms a move); a grain of 16: +10.4 +/- 17.2.
    pub(super) standard_grain: i32,
    /// The advanced game's grain: 1, as before (the grain was measured in
    /// the standard game only).
    pub(super) advanced_grain: i32,
    /// Standard: the order hint of a placement, per point it takes or
    /// attacks that the opponent could still place on (in history units: a
    /// cut-off at depth 3 adds 9). With history kept per side, 8 measured
    /// +30.5 +/- 16.3 and 4 +27.9 +/- 15.1 (800 games each); 16 against 8
    /// measured -18.3 +/- 15.6.
    pub(super) hint_per_closed_point: i32,
    /// Standard: proofs are tried in timed play once both sides together
    /// can make at most this many more placements. 24 measured -43.3 +/-
    /// 24.0 against 20 (259 games, SPRT H0 accepted), 18 measured -3.7 +/-
    /// 10.6 (560 games, H0 accepted).
    pub(super) proof_horizon: u32,
    /// With two threads or more, a helper proves wherever the standard
    /// game's bound on the plies left is at most this: everywhere (the
    /// bound never exceeds 28). Proving from the game's first move, rather
    /// than searching ahead of the main thread (lazy SMP), measured +24.9
    /// +/- 16.0 against two threads of lazy SMP (558 games, SPRT H1
    /// accepted); proving only within 20 plies measured -15.6 +/- 18.9
    /// against one thread, from the start +9.6 over 800 games.
    pub(super) dedicated_proof_horizon: u32,
    /// Proofs look every child up in their table before searching any: a
    /// child's key is its hash, already worked out as the child is made.
    pub(super) proof_lookahead: bool,
    /// The alpha-beta search does not take the standard game's bounds
    /// (`decided`) at its nodes: they work out both sides' prospects, and
    /// tried at the leaves or nodes the bench positions took 3.8 to 4.3
    /// times as long (docs/speed.md).
    pub(super) verdicts_in_search: bool,
    /// The quiet moves searched before a cut-off lose the history the
    /// cut-off move gains, in both variants: the advanced game gained +50.1
    /// +/- 24.2 (699 games, SPRT [0, 10] H1 accepted) and the standard game
    /// lost nothing, +5.8 +/- 11.7 (832 games, SPRT [-10, 0] H1 accepted).
    pub(super) history_malus: bool,
    /// No futility pruning in the standard game: its bench positions
    /// visited 18% more nodes with it, and it showed no clear gain at
    /// 1 s + 10 ms, +10.4 +/- 13.4 over 800 games, then +5.9 +/- 8.1 over
    /// 2,000 in an SPRT [0, 10] (undecided).
    pub(super) standard_futility_pruning: bool,
    /// Futility pruning in the advanced game: its bench positions visit
    /// 28% fewer nodes, and it measured +38.2 +/- 20.7 at 1 s + 10 ms (851
    /// games, SPRT [0, 10] H1 accepted), +9.8 +/- 15.5 at 100 ms a move
    /// (1,600 games, undecided).
    pub(super) advanced_futility_pruning: bool,
    /// Standard: games between good players are proved won or lost about
    /// when both sides together can make this many more placements
    /// (measured over match games); after that each move is nearly free,
    /// so the clock is shared over the moves before. Sharing it so measured
    /// +38.4 +/- 22.3 at 1 s + 10 ms; counting the game decided 18
    /// placements before the end instead measured -4.2 +/- 10.5 (662 games,
    /// SPRT H0 accepted).
    pub(super) decided_at: u32,
    /// Standard: the fewest own moves a clock is shared over, so a game
    /// that runs past `decided_at` unproved still keeps time for its last
    /// moves.
    pub(super) fewest_moves_left: u32,
    /// Advanced: the moves the side to move has still to play, about this
    /// many plus `advanced_moves_per_pod` per pod in its hand. Over 150
    /// games of a match at 1 s + 10 ms the mean was 10 with one pod in
    /// hand, 17 with four, 25 with eight and 30 with twelve: a little above
    /// that, so the clock is used and not run out. Against 20 plus 2 per
    /// pod: +28.7 +/- 17.6 (1,152 games, SPRT [0, 10] H1 accepted).
    pub(super) advanced_moves_left: u32,
    /// See `advanced_moves_left`.
    pub(super) advanced_moves_per_pod: u32,
}

impl Tunables {
    /// The values Pods plays with.
    pub(super) const DEFAULT: Tunables = Tunables {
        // By feature: secure, open, placements, safe, most, hand, nearly blocked, pod moves, tempo, contested.
        standard_weights: Weights([60, 8, 3, 0, 0, 0, 0, 0, 10, 30]),
        advanced_weights: Weights([0, 0, 6, 0, 0, 120, 25, 1, 10, 0]),
        standard_grain: 8,
        advanced_grain: 1,
        hint_per_closed_point: 8,
        proof_horizon: 20,
        dedicated_proof_horizon: u32::MAX,
        proof_lookahead: true,
        verdicts_in_search: false,
        history_malus: true,
        standard_futility_pruning: false,
        advanced_futility_pruning: true,
        decided_at: 14,
        fewest_moves_left: 3,
        advanced_moves_left: 10,
        advanced_moves_per_pod: 2,
    };
}

impl Tunables {
    /// The weights `variant` plays with.
    pub(super) const fn weights(&self, variant: Variant) -> Weights {
        match variant {
            Variant::Standard => self.standard_weights,
            Variant::Advanced => self.advanced_weights,
        }
    }

    /// `variant`'s scores are rounded down to a multiple of this power of
    /// two (see `standard_grain`).
    pub(super) const fn grain(&self, variant: Variant) -> i32 {
        match variant {
            Variant::Standard => self.standard_grain,
            Variant::Advanced => self.advanced_grain,
        }
    }
}

/// Pods' tunables as played.
pub(super) const TUNABLES: Tunables = Tunables::DEFAULT;
