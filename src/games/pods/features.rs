//! What the evaluation of both variants looks at (`Feature`) and how much
//! each weighs (`Weights`, in the notation `podium tune` and the `EvalWeights`
//! option use). The values played with are in `tunables.rs`.

use std::fmt;
use std::str::FromStr;

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

    pub(super) fn index(self) -> usize {
        self as usize
    }
}

/// A weight per feature, in centipawn-like units per unit of the feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Weights(pub [i32; FEATURES]);

impl Weights {
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
