//! Fitting the evaluation's weights to game results (logistic regression,
//! as chess engines' "Texel tuning" does): every position of many games
//! is a sample, its features the evaluation's terms at weight 1, its label
//! whether the side to move went on to win. The weights that best predict
//! the labels through `1 / (1 + e^(-score / scale))` are the fitted ones.

use super::eval::evaluate_terms;
use super::features::{FEATURES, Feature, Weights};
use super::tunables::TUNABLES;
use super::{Move, Position, Rules, Side};
use crate::games::linear::solve;

/// One position of a game with its features and how the game ended for the side to move.
pub struct Sample {
    features: [f64; FEATURES],
    /// 1 won, 0 lost, 0.5 drawn.
    result: f64,
}

/// Why a line of a games file does not read.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct DataError {
    pub line: usize,
    pub message: String,
}

/// The samples of one game given as `<result> <start> [moves <move>...]`:
/// the result `1-0`, `0-1` or `1/2-1/2` (White's first), the start
/// `startpos` or a position line.
pub fn game_samples(rules: &Rules, start: &Position, line: &str, number: usize) -> Result<Vec<Sample>, DataError> {
    let error = |message: String| DataError { line: number, message };
    let (result, rest) = line.trim().split_once(' ').ok_or_else(|| error("expected a result, then the game".into()))?;
    let white_score = match result {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" => 0.5,
        other => return Err(error(format!("'{other}' is not a result: 1-0, 0-1 or 1/2-1/2"))),
    };
    let (head, moves) = match rest.split_once(" moves") {
        Some((head, moves)) => (head.trim(), moves),
        None => (rest.trim(), ""),
    };
    let mut position = if head == "startpos" {
        *start
    } else {
        Position::parse(head, rules).map_err(|problem| error(problem.to_string()))?
    };
    let mut samples = Vec::new();
    let unit = Weights::UNIT;
    let mut add = |position: &Position| {
        let (terms, legal_moves) = evaluate_terms(rules, position, &unit);
        if legal_moves > 0 {
            let mover_score = if position.side_to_move() == Side::White { white_score } else { 1.0 - white_score };
            samples.push(Sample {
                features: Feature::ALL.map(|feature| f64::from(terms.get(feature))),
                result: mover_score,
            });
        }
    };
    add(&position);
    for text in moves.split_whitespace() {
        let mv: Move = text.parse().map_err(|problem| error(format!("{text}: {problem}")))?;
        position.try_play(rules, mv).map_err(|problem| error(format!("{text}: {problem}")))?;
        add(&position);
    }
    Ok(samples)
}

/// Mean cross-entropy of the predictions of `weights` against the results.
pub fn loss(samples: &[Sample], weights: &[f64; FEATURES], scale: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|sample| {
            let p = predict(sample, weights, scale).clamp(1e-9, 1.0 - 1e-9);
            -(sample.result * p.ln() + (1.0 - sample.result) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len().max(1) as f64
}

fn predict(sample: &Sample, weights: &[f64; FEATURES], scale: f64) -> f64 {
    let score: f64 = sample.features.iter().zip(weights).map(|(feature, weight)| feature * weight).sum();
    1.0 / (1.0 + (-score / scale).exp())
}

/// The scale at which `weights` predict the results best: it ties the
/// evaluation's units to winning chances before the weights move.
pub fn best_scale(samples: &[Sample], weights: &[f64; FEATURES]) -> f64 {
    let mut best = (f64::INFINITY, 1.0);
    let mut scale = 10.0;
    while scale <= 2000.0 {
        let this = loss(samples, weights, scale);
        if this < best.0 {
            best = (this, scale);
        }
        scale *= 1.05;
    }
    best.1
}

/// Fits the weights of `free` features by Newton's method on the mean
/// cross-entropy (it is convex in the weights: a few steps reach the
/// minimum), the others staying as they are.
pub fn fit(samples: &[Sample], start: &Weights, free: &[Feature], scale: f64, steps: usize) -> [f64; FEATURES] {
    let mut weights = start.0.map(f64::from);
    let free: Vec<usize> = free.iter().map(|&feature| feature as usize).collect();
    let n = free.len();
    for _ in 0..steps {
        let mut gradient = vec![0.0; n];
        let mut hessian = vec![vec![0.0; n]; n];
        for sample in samples {
            let p = predict(sample, &weights, scale);
            let curvature = p * (1.0 - p) / (scale * scale);
            for (row, &i) in free.iter().enumerate() {
                let xi = sample.features[i];
                gradient[row] += (p - sample.result) * xi / scale;
                for (column, &j) in free.iter().enumerate() {
                    hessian[row][column] += curvature * xi * sample.features[j];
                }
            }
        }
        // A little ridge keeps a feature that never varies from making the system singular.
        for (row, line) in hessian.iter_mut().enumerate() {
            line[row] += 1e-9 * samples.len() as f64;
        }
        let Some(step) = solve(hessian, gradient) else { break };
        let mut largest: f64 = 0.0;
        for (row, &i) in free.iter().enumerate() {
            weights[i] -= step[row];
            largest = largest.max(step[row].abs());
        }
        if largest < 1e-4 {
            break;
        }
    }
    weights
}

/// Why `podium tune` could not fit.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// A games line that does not read.
    #[error(transparent)]
    Data(DataError),
    /// Weights or feature names that do not read.
    #[error(transparent)]
    Weights(super::WeightsError),
    /// The games hold no position to learn from.
    #[error("no positions in the games")]
    NoPositions,
}

/// `podium tune` for a variant: fits the weights `request` names on its
/// games and returns what to print (positions and scale, the loss before
/// and after, the weights).
pub fn run(variant: super::Variant, request: &crate::games::registry::TuneRequest) -> Result<Vec<String>, TuneError> {
    let rules = Rules::default_for(variant);
    let start = Position::start(&rules, super::Rotation::default());
    let weights =
        TUNABLES.weights(variant).with_text(request.weights.as_deref().unwrap_or("")).map_err(TuneError::Weights)?;
    let free: Vec<Feature> = if request.features.is_empty() {
        Feature::ALL.into_iter().filter(|&feature| weights.get(feature) != 0).collect()
    } else {
        request.features.iter().map(|name| name.trim().parse()).collect::<Result<_, _>>().map_err(TuneError::Weights)?
    };
    let mut samples = Vec::new();
    for (number, line) in &request.games {
        samples.extend(game_samples(&rules, &start, line, *number).map_err(TuneError::Data)?);
    }
    if samples.is_empty() {
        return Err(TuneError::NoPositions);
    }
    let initial = weights.0.map(f64::from);
    let scale = request.scale.unwrap_or_else(|| best_scale(&samples, &TUNABLES.weights(variant).0.map(f64::from)));
    let fitted = fit(&samples, &weights, &free, scale, request.steps);
    let rounded = Weights(fitted.map(|weight| weight.round() as i32));
    Ok(vec![
        format!("positions {} scale {scale:.1}", samples.len()),
        format!("loss before {:.6} after {:.6}", loss(&samples, &initial, scale), loss(&samples, &fitted, scale)),
        format!("weights {rounded}"),
    ])
}
