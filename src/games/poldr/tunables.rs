//! Every number POLD.R plays by beyond its rules, in one place, each with
//! the reason for its value: the evaluation's weights, the clock, and the
//! search's settings.

use super::eval::Weights;

/// POLD.R's tunables. One value is used (`TUNABLES`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Tunables {
    /// The evaluation's weights for two players (see `eval.rs` for the
    /// features), fitted by `podium tune --game poldr --players 2` on
    /// 2,545 games (100,808 positions) of self-play by 4b402d6 (the POLD.R
    /// search of 566a308) made by `python3 scripts/poldr_tune_data.py
    /// --players 2` (600 games on each size 5 to 9 at 4,000 against 1,500
    /// nodes a move, from 4 random plies; 455 duplicates dropped):
    /// cross-entropy 0.5720 against 0.6377 for 4b402d6's weights and
    /// 0.6320 for them fitted again without the stuck and fragile bricks,
    /// which are most of the gain (a brick that one line only can take
    /// back, -233 while clearing). Against 4b402d6 at 100 ms a move on
    /// 9x9 with 40 bricks, 2 random plies: +155.5 +/- 63.3 (100 games);
    /// the other sizes and the yardstick in docs/poldr-strength.md.
    pub(super) weights_two: Weights,
    /// The evaluation's weights for three players, fitted by `podium tune
    /// --game poldr --players 3` (a per-seat win target: the softmax of
    /// the three scores) on 1,563 games (69,639 positions) of self-play by
    /// 69de8a6 made by `python3 scripts/poldr_tune_data.py` (600 games on
    /// each size 5 to 7, MCTS at 3,000, 1,500 and 800 simulations, from 4
    /// random plies; 237 duplicates dropped): cross-entropy 1.0342 against
    /// 1.0986 for even chances. Building, more bricks in reserve count for
    /// a player here: the count decides three-player games (all 1,800 of
    /// the data's ended by it, none by a last brick). The default
    /// search of three players (`mcts`) does not use them; paranoid, max-n,
    /// BRS and `mcts-eval` do (docs/poldr-strength.md). The stuck and
    /// fragile bricks are not fitted for three players (0).
    pub(super) weights_three: Weights,
    /// Proofs are tried in timed play where the game's bound on the plies
    /// left is at most this: beyond it a proof is out of reach, and its
    /// nodes would be the iterations' loss. Spending the iterations' node
    /// count on proofs whatever the game's length lost about 240 to 325
    /// Elo on an 8x8 board (60 games at 30,000 nodes a move).
    pub(super) proof_horizon: u32,
    /// With two threads or more, a helper proves within the same bound as
    /// the main thread would.
    pub(super) dedicated_proof_horizon: u32,
    /// Proofs do not look children up before searching any: the shared
    /// form of a position is the least of its 8 symmetric images, too
    /// costly to work out for every child of every proof node (with it,
    /// proofs took half of a search's time at the start position).
    pub(super) proof_lookahead: bool,
    /// The alpha-beta search takes a two-player clearing race as decided
    /// where reserves and bricks decide it (`decided`), at every
    /// node: otherwise it only sees the end of the race, twice as deep.
    pub(super) verdicts_in_search: bool,
    /// df-pn keys positions by their shared form up to the board's
    /// symmetries while at most this many bricks are down, by their hash
    /// after (`proof_number_key`).
    pub(super) dfpn_symmetric_bricks: u32,
    /// No history malus: against the search without it (two players, 5x5,
    /// 16 bricks, 100 ms a move) it measured -8.3 +/- 10.9, undecided at
    /// 1,600 games of an SPRT [-10, 0].
    pub(super) history_malus: bool,
    /// No futility pruning: measured in Pods only.
    pub(super) futility_pruning: bool,
    /// The side to move is expected to play one more move per this many of
    /// its bricks, in reserve and on the board, plus `extra_moves_left`: a
    /// first estimate, not measured in matches.
    pub(super) bricks_per_move_left: u32,
    /// See `bricks_per_move_left`.
    pub(super) extra_moves_left: u32,
}

impl Tunables {
    /// The values POLD.R plays with.
    pub(super) const DEFAULT: Tunables = Tunables {
        weights_two: Weights([-133, 8, 71, 1, 15, -4, 14, -75, -109, -90, 63, -33, 108, 118, -40, -1, 22, -182, -233]),
        weights_three: Weights([36, 37, -1, -38, 25, 5, -3, 0, 0, 105, 131, 71, -42, -18, 5, 74, 1, 0, 0]),
        proof_horizon: 90,
        dedicated_proof_horizon: 90,
        proof_lookahead: false,
        verdicts_in_search: true,
        dfpn_symmetric_bricks: 8,
        history_malus: false,
        futility_pruning: false,
        bricks_per_move_left: 2,
        extra_moves_left: 4,
    };
}

/// POLD.R's tunables as played.
pub(super) const TUNABLES: Tunables = Tunables::DEFAULT;
