//! Pods as the search sees it: the `SearchGame` interface over the rules,
//! and the evaluation of both variants.

use std::fmt;
use std::sync::Arc;

use super::{Bitboard, Move, Position, Rules, Side, Variant, most_placements, standard_verdict};
use crate::search::{Outcome, SearchGame};

/// Standard: proofs are tried in timed play once both sides together can
/// make at most this many more placements.
const PROOF_HORIZON: u32 = 20;

/// Evaluation weights, in one place so they are easy to tune.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// Standard: per placement a side can still count on (points only it can use, capped by its hand).
    pub secure_placement: i32,
    /// Standard: per point where the side could place at least one pod of its hand.
    pub open_point: i32,
    /// Both: per (pod, point) placement, a finer mobility measure.
    pub placement: i32,
    /// Advanced: per pod still in hand (fewer is better: an empty hand wins).
    pub pod_in_hand: i32,
    /// Advanced: per own pod on the board with a single liberty left.
    pub pod_nearly_blocked: i32,
    /// Advanced: per legal move of a pod on the board (side to move only).
    pub pod_move: i32,
    /// A bonus for having the move.
    pub tempo: i32,
}

impl Weights {
    /// Weights found by self-play at a fixed node count (the `with_weights` hook).
    pub const fn for_variant(variant: Variant) -> Weights {
        match variant {
            Variant::Standard => Weights {
                secure_placement: 60,
                open_point: 8,
                placement: 1,
                pod_in_hand: 0,
                pod_nearly_blocked: 0,
                pod_move: 0,
                tempo: 10,
            },
            // Mobility counts for much more here: a side with room to place
            // and move can keep emptying its hand.
            Variant::Advanced => Weights {
                secure_placement: 0,
                open_point: 0,
                placement: 6,
                pod_in_hand: 120,
                pod_nearly_blocked: 25,
                pod_move: 1,
                tempo: 10,
            },
        }
    }
}

/// The evaluation split into its terms, each from the side to move's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalTerms {
    pub secure_placements: i32,
    pub open_points: i32,
    pub placements: i32,
    pub pods_in_hand: i32,
    pub pods_nearly_blocked: i32,
    pub pod_moves: i32,
    pub tempo: i32,
}

impl EvalTerms {
    pub fn total(&self) -> i32 {
        self.secure_placements
            + self.open_points
            + self.placements
            + self.pods_in_hand
            + self.pods_nearly_blocked
            + self.pod_moves
            + self.tempo
    }
}

impl fmt::Display for EvalTerms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "secure_placements {} open_points {} placements {} pods_in_hand {} pods_nearly_blocked {} pod_moves {} tempo {} total {}",
            self.secure_placements,
            self.open_points,
            self.placements,
            self.pods_in_hand,
            self.pods_nearly_blocked,
            self.pod_moves,
            self.tempo,
            self.total()
        )
    }
}

/// What one side could place: where, and how many (pod, point) pairs.
struct PlacementSummary {
    points: Bitboard,
    placements: i32,
}

fn placement_summary(rules: &Rules, position: &Position, side: Side) -> PlacementSummary {
    let mut summary = PlacementSummary { points: Bitboard::EMPTY, placements: 0 };
    position.placements_for(rules, side, position.hand(side), |_, targets| {
        summary.points |= targets;
        summary.placements += targets.count() as i32;
    });
    summary
}

/// The static score for the side to move, `None` if it has already lost.
pub fn evaluate(rules: &Rules, position: &Position, weights: &Weights) -> Option<i32> {
    let (terms, legal_moves) = evaluate_terms(rules, position, weights);
    (legal_moves > 0).then(|| terms.total())
}

/// The evaluation's terms for `position`, from the side to move's view, and
/// the side to move's number of legal moves (which the terms need anyway).
pub fn evaluate_terms(rules: &Rules, position: &Position, weights: &Weights) -> (EvalTerms, u64) {
    if position.last_mover_emptied_hand(rules) {
        return (EvalTerms::default(), 0);
    }
    let us = position.side_to_move();
    let them = us.opponent();
    let ours = placement_summary(rules, position, us);
    let theirs = placement_summary(rules, position, them);
    let mut terms = EvalTerms {
        placements: weights.placement * (ours.placements - theirs.placements),
        tempo: weights.tempo,
        ..EvalTerms::default()
    };
    let legal_moves = match rules.variant() {
        Variant::Standard => {
            // A side loses when it cannot place: what counts is how many more
            // placements it can make, and points the opponent cannot take away.
            let secure = |mine: &PlacementSummary, other: &PlacementSummary, side: Side| {
                ((mine.points & !other.points).count() as i32).min(position.hand(side).count() as i32)
            };
            terms.secure_placements =
                weights.secure_placement * (secure(&ours, &theirs, us) - secure(&theirs, &ours, them));
            terms.open_points = weights.open_point * (ours.points.count() as i32 - theirs.points.count() as i32);
            if position.is_first_move() { position.count_moves(rules) } else { ours.placements as u64 }
        }
        Variant::Advanced => {
            terms.pods_in_hand =
                weights.pod_in_hand * (position.hand(them).count() as i32 - position.hand(us).count() as i32);
            let nearly_blocked = |side: Side| {
                position
                    .occupied(side)
                    .filter(|&point| {
                        let (_, pod) = position.pod_at(point).expect("occupied");
                        position.liberties(rules, side, pod, point).count() == 1
                    })
                    .count() as i32
            };
            terms.pods_nearly_blocked = weights.pod_nearly_blocked * (nearly_blocked(them) - nearly_blocked(us));
            let pod_moves = position.count_pod_moves(rules);
            terms.pod_moves = weights.pod_move * pod_moves as i32;
            if position.is_first_move() { position.count_moves(rules) } else { ours.placements as u64 + pod_moves }
        }
    };
    (terms, legal_moves)
}

/// Pods for the search: the rules plus what a match adds (a ply limit).
pub struct PodsGame {
    rules: Arc<Rules>,
    max_plies: u32,
    weights: Weights,
}

impl PodsGame {
    pub fn new(rules: Arc<Rules>, max_plies: u32) -> PodsGame {
        PodsGame { weights: Weights::for_variant(rules.variant()), rules, max_plies }
    }

    /// The same game evaluated with other weights, for tuning.
    pub fn with_weights(mut self, weights: Weights) -> PodsGame {
        self.weights = weights;
        self
    }

    /// The static evaluation's terms, for people (the `eval` command).
    pub fn evaluate_terms(&self, position: &Position) -> EvalTerms {
        evaluate_terms(&self.rules, position, &self.weights).0
    }
}

impl SearchGame for PodsGame {
    type Position = Position;
    type Move = Move;

    fn hash(&self, position: &Position) -> u64 {
        position.hash()
    }

    fn players(&self, _: &Position) -> usize {
        2
    }

    fn mover(&self, position: &Position) -> usize {
        position.side_to_move().index()
    }

    fn legal_moves(&self, position: &Position, moves: &mut Vec<Move>) {
        position.for_each_move(&self.rules, |mv| moves.push(mv));
    }

    fn play(&self, position: &Position, mv: Move) -> Position {
        let mut next = *position;
        next.play_unchecked(&self.rules, mv);
        next
    }

    fn child_hash_hint(&self, position: &Position, mv: Move) -> Option<u64> {
        Some(position.hash_after(&self.rules, mv))
    }

    fn is_legal(&self, position: &Position, mv: Move) -> bool {
        position.check(&self.rules, mv).is_ok()
    }

    /// A side with no legal action has lost (an emptied hand wins the
    /// game for the side that just moved, which leaves the other none).
    fn final_outcome(&self, position: &Position) -> Outcome {
        Outcome::Win(position.side_to_move().opponent().index())
    }

    fn evaluate(&self, position: &Position, player: usize) -> Option<i32> {
        let score = evaluate(&self.rules, position, &self.weights)?;
        Some(if player == position.side_to_move().index() { score } else { -score })
    }

    fn is_draw(&self, position: &Position) -> bool {
        self.max_plies > 0 && position.ply() >= self.max_plies
    }

    fn repetition_is_draw(&self) -> bool {
        self.rules.variant() == Variant::Advanced
    }

    /// Standard: every ply is a placement that a side could make now.
    fn plies_left_bound(&self, position: &Position) -> Option<u32> {
        (self.rules.variant() == Variant::Standard)
            .then(|| Side::BOTH.into_iter().map(|side| most_placements(&self.rules, position, side)).sum())
    }

    fn proof_horizon(&self) -> u32 {
        PROOF_HORIZON
    }

    fn proof_verdict(&self, position: &Position) -> Option<(bool, u32)> {
        standard_verdict(&self.rules, position)
    }

    /// Moves that leave the opponent worst off first: its fewest replies
    /// make the quickest refutations too.
    fn proof_priority(&self, _: &Position, _: Move, child: &Position) -> i32 {
        -(child.count_moves(&self.rules) as i32)
    }

    fn expected_moves_left(&self, position: &Position) -> u32 {
        let in_hand = position.hand(position.side_to_move()).count();
        match self.rules.variant() {
            // Each move places a pod: the hand bounds the game.
            Variant::Standard => in_hand.max(1),
            // Pods come back to hand and move about: games run longer.
            Variant::Advanced => 20 + 2 * in_hand,
        }
    }

    fn move_to_bits(mv: Move) -> u16 {
        mv.to_bits()
    }

    fn move_from_bits(bits: u16) -> Option<Move> {
        Move::from_bits(bits)
    }
}
