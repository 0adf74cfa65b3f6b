//! The static evaluation of both variants: a weighted sum of features of
//! the position, each seen from the side to move. The weights are data
//! (`Weights`), fitted to the results of self-play games (`podium tune`).

use std::fmt;

use super::endgame::{Prospects, secure_estimate};
use super::features::{FEATURES, Feature, Weights};
use super::position::PlacementSummary;
use super::tunables::TUNABLES;
use super::{Position, Rules, Side, Variant};

/// The evaluation split into its weighted terms, each from the side to move's
/// view, and the grain their total is rounded down to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EvalTerms {
    terms: [i32; FEATURES],
    grain: i32,
}

impl EvalTerms {
    /// The score: the terms' sum, rounded down to the grain.
    pub fn total(&self) -> i32 {
        debug_assert!(self.grain > 0 && self.grain.count_ones() == 1, "grain {}", self.grain);
        // Down, not towards zero, so every step of the grain is as wide.
        self.terms.iter().sum::<i32>() & !(self.grain - 1)
    }

    /// The weighted term of `feature`.
    pub fn get(&self, feature: Feature) -> i32 {
        self.terms[feature.index()]
    }
}

impl fmt::Display for EvalTerms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for feature in Feature::ALL {
            write!(f, "{} {} ", feature.name(), self.get(feature))?;
        }
        write!(f, "total {}", self.total())
    }
}

/// The static score for the side to move, `None` if it has already lost.
pub(super) fn evaluate(rules: &Rules, position: &Position, weights: &Weights) -> Option<i32> {
    let (terms, legal_moves) = evaluate_terms(rules, position, weights);
    (legal_moves > 0).then(|| terms.total())
}

/// The evaluation's terms for `position`, from the side to move's view, and
/// the side to move's number of legal moves (which the terms need anyway).
/// Features of weight 0 are not worked out.
pub(crate) fn evaluate_terms(rules: &Rules, position: &Position, weights: &Weights) -> (EvalTerms, u64) {
    if position.last_mover_emptied_hand(rules) {
        return (EvalTerms { terms: [0; FEATURES], grain: 1 }, 0);
    }
    let us = position.side_to_move();
    let them = us.opponent();
    let ours = position.placement_summary(us);
    let theirs = position.placement_summary(them);
    let mut terms = [0; FEATURES];
    let mut set = |feature: Feature, value: i32| terms[feature.index()] = weights.get(feature) * value;
    set(Feature::Placements, i32::from(ours.placements) - i32::from(theirs.placements));
    set(Feature::Tempo, 1);
    let legal_moves = match rules.variant() {
        Variant::Standard => {
            // A side loses when it cannot place: what counts is how many more
            // placements it can make, and points the opponent cannot take away.
            let secure = |mine: &PlacementSummary, other: &PlacementSummary, side: Side| {
                ((mine.points & !other.points).count() as i32).min(position.hand(side).count() as i32)
            };
            set(Feature::SecurePlacements, secure(&ours, &theirs, us) - secure(&theirs, &ours, them));
            set(Feature::OpenPoints, ours.points.count() as i32 - theirs.points.count() as i32);
            set(Feature::ContestedPoints, (ours.points & theirs.points).count() as i32);
            set(Feature::MostPlacements, ours.most() - theirs.most());
            if weights.get(Feature::SafePlacements) != 0 {
                let (mine, other) = (Prospects::of(rules, position, us), Prospects::of(rules, position, them));
                let safe =
                    |side, one: &Prospects, two: &Prospects| secure_estimate(rules, position, side, one, two) as i32;
                set(Feature::SafePlacements, safe(us, &mine, &other) - safe(them, &other, &mine));
            }
            if position.is_first_move() { position.count_moves(rules) } else { ours.placements as u64 }
        }
        Variant::Advanced => {
            set(Feature::PodsInHand, position.hand(them).count() as i32 - position.hand(us).count() as i32);
            let mobility = position.pod_mobility(rules);
            let nearly_blocked = |side: Side| mobility.nearly_blocked[side.index()] as i32;
            set(Feature::PodsNearlyBlocked, nearly_blocked(them) - nearly_blocked(us));
            set(Feature::PodMoves, mobility.moves as i32);
            if position.is_first_move() {
                position.count_moves(rules)
            } else {
                u64::from(ours.placements) + u64::from(mobility.moves)
            }
        }
    };
    (EvalTerms { terms, grain: TUNABLES.grain(rules.variant()) }, legal_moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pods::position::visit_random_games;

    /// The search sees the terms' sum rounded down to the variant's grain:
    /// never more than the sum, and less by under one step.
    #[test]
    fn scores_are_the_terms_rounded_down_to_the_grain() {
        for variant in [Variant::Standard, Variant::Advanced] {
            let rules = Rules::default_for(variant);
            let weights = TUNABLES.weights(variant);
            let grain = TUNABLES.grain(variant);
            let mut rounded = 0;
            visit_random_games(&rules, 5, 16, |position, _| {
                let (terms, _) = evaluate_terms(&rules, position, &weights);
                let sum: i32 = Feature::ALL.iter().map(|&feature| terms.get(feature)).sum();
                if let Some(score) = evaluate(&rules, position, &weights) {
                    assert_eq!(score, terms.total());
                    assert!(score <= sum && sum - score < grain, "{variant:?}: {score} from {sum}");
                    assert_eq!(score.rem_euclid(grain), 0, "{variant:?}: {score}");
                    rounded += usize::from(score != sum);
                }
            });
            assert_eq!(rounded > 0, grain > 1, "{variant:?}: {rounded} scores rounded");
        }
    }
}
