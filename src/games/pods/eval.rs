//! The static evaluation of both variants: a weighted sum of features of
//! the position, each seen from the side to move. The weights are data
//! (`Weights`), fitted to the results of self-play games (`podium tune`).

use std::fmt;
use std::str::FromStr;

use super::endgame::{Prospects, secure_estimate};
use super::position::PlacementSummary;
use super::tunables::TUNABLES;
use super::{Position, Rules, Side, Variant};

/// What the evaluation looks at. Each is the side to move's count less the
/// opponent's, unless said otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Feature {
    /// Points only this side could place on, capped by its hand.
    SecurePlacements,
    /// Points where this side could place at least one pod of its hand.
    OpenPoints,
    /// (pod, point) placements this side could make.
    Placements,
    /// About how many placements this side can make whatever the other
    /// does (an estimate of the endgame's lower bound).
    SafePlacements,
    /// About how many placements this side can make at most (an estimate of
    /// the endgame's upper bound).
    MostPlacements,
    /// Pods in hand, the opponent's less ours: an empty hand wins the advanced game.
    PodsInHand,
    /// Pods on the board with one liberty left, the opponent's less ours.
    PodsNearlyBlocked,
    /// Legal moves of pods on the board, the side to move's alone.
    PodMoves,
    /// Having the move: always 1.
    Tempo,
    /// Points both sides could place on, counted for the side to move
    /// alone: its next placement turns some of them into points only it
    /// can take. Without this term the side that has just moved looks
    /// hundreds of units better off than it is, and the standard game's
    /// scores swing between odd and even depths.
    ContestedPoints,
}

/// How many features there are.
pub(crate) const FEATURES: usize = 10;

impl Feature {
    /// Every feature, in the order of the weights.
    pub const ALL: [Feature; FEATURES] = [
        Feature::SecurePlacements,
        Feature::OpenPoints,
        Feature::Placements,
        Feature::SafePlacements,
        Feature::MostPlacements,
        Feature::PodsInHand,
        Feature::PodsNearlyBlocked,
        Feature::PodMoves,
        Feature::Tempo,
        Feature::ContestedPoints,
    ];

    /// The feature's name, as `eval` prints it and weights texts give it.
    pub fn name(self) -> &'static str {
        match self {
            Feature::SecurePlacements => "secure_placements",
            Feature::OpenPoints => "open_points",
            Feature::Placements => "placements",
            Feature::SafePlacements => "safe_placements",
            Feature::MostPlacements => "most_placements",
            Feature::PodsInHand => "pods_in_hand",
            Feature::PodsNearlyBlocked => "pods_nearly_blocked",
            Feature::PodMoves => "pod_moves",
            Feature::Tempo => "tempo",
            Feature::ContestedPoints => "contested_points",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// A weight per feature, in centipawn-like units per unit of the feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Weights(pub [i32; FEATURES]);

impl Weights {
    /// The weights each variant plays with (the reasons for their values
    /// are in `Tunables`).
    pub(crate) const fn for_variant(variant: Variant) -> Weights {
        match variant {
            Variant::Standard => TUNABLES.standard_weights,
            Variant::Advanced => TUNABLES.advanced_weights,
        }
    }

    /// Scores are rounded down to a multiple of this power of two (see
    /// `Tunables::standard_grain`).
    pub(crate) const fn grain(variant: Variant) -> i32 {
        match variant {
            Variant::Standard => TUNABLES.standard_grain,
            Variant::Advanced => TUNABLES.advanced_grain,
        }
    }

    /// The weight of `feature`.
    pub fn get(&self, feature: Feature) -> i32 {
        self.0[feature.index()]
    }

    /// Every feature at weight 1: the evaluation's terms are then the raw features.
    pub(crate) const UNIT: Weights = Weights([1; FEATURES]);
}

/// `name=value` pairs separated by commas, every feature named once at most:
/// the ones not named keep their weight in `base`.
impl Weights {
    /// These weights with those `text` names changed.
    pub(crate) fn with_text(mut self, text: &str) -> Result<Weights, WeightsError> {
        for pair in text.split(',').map(str::trim).filter(|pair| !pair.is_empty()) {
            let (name, value) =
                pair.split_once('=').ok_or_else(|| WeightsError(format!("'{pair}' is not name=value")))?;
            let feature: Feature = name.trim().parse()?;
            let weight =
                value.trim().parse::<i32>().ok().filter(|weight| weight.abs() <= MAX_WEIGHT).ok_or_else(|| {
                    WeightsError(format!(
                        "{name}: '{}' is not a whole number from -{MAX_WEIGHT} to {MAX_WEIGHT}",
                        value.trim()
                    ))
                })?;
            self.0[feature.index()] = weight;
        }
        Ok(self)
    }
}

/// Large enough for any sensible weight, small enough that no sum overflows
/// or reaches the scores of won games.
const MAX_WEIGHT: i32 = 1000;

/// A feature by its name, as `eval` prints it.
impl FromStr for Feature {
    type Err = WeightsError;

    fn from_str(name: &str) -> Result<Feature, WeightsError> {
        Feature::ALL.into_iter().find(|feature| feature.name() == name).ok_or_else(|| {
            WeightsError(format!("'{name}' is not a feature: {}", Feature::ALL.map(Feature::name).join(", ")))
        })
    }
}

/// Why a weights text does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct WeightsError(String);

impl FromStr for Weights {
    type Err = WeightsError;

    /// Every feature not named weighs 0.
    fn from_str(text: &str) -> Result<Weights, WeightsError> {
        Weights([0; FEATURES]).with_text(text)
    }
}

impl fmt::Display for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pairs: Vec<String> =
            Feature::ALL.iter().map(|feature| format!("{}={}", feature.name(), self.get(*feature))).collect();
        f.write_str(&pairs.join(","))
    }
}

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
    (EvalTerms { terms, grain: Weights::grain(rules.variant()) }, legal_moves)
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
            let weights = Weights::for_variant(variant);
            let grain = Weights::grain(variant);
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
