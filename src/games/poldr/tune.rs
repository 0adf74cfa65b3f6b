//! Fitting the evaluation's weights to game results: every position of
//! many games is a sample, each player's features at weight 1 (a count
//! divided by the board's size), its label the seat that went on to win.
//! The model is the one the evaluation plays with: the chance that a
//! player wins is the softmax of the players' scores over `SCALE` (with
//! two players, the logistic of the score difference; with three, a
//! per-seat win target). The weights that best predict the winners (the
//! least mean cross-entropy, a convex loss: Newton's method reaches it in
//! a few steps) are printed as `tunables.rs` holds them.

use super::eval::{FEATURES, Feature, SCALE, Weights, WeightsError, features};
use super::moves::Move;
use super::position::Position;
use crate::games::linear::solve;
use crate::games::registry::TuneRequest;

/// One position of a game: each player's features, and who won.
pub(crate) struct Sample {
    seats: Vec<[f64; FEATURES]>,
    winner: usize,
}

/// Why a line of a games file does not read.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct DataError {
    /// The line's number in the games file.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

/// Why `podium tune --game poldr` could not fit.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// A games line that does not read.
    #[error(transparent)]
    Data(DataError),
    /// Weights or feature names that do not read.
    #[error(transparent)]
    Weights(WeightsError),
    /// `--scale` given: POLD.R's scores are logits in hundredths, fixed.
    #[error("POLD.R's evaluation has a fixed scale (a score of 100 is a logit of 1): leave out --scale")]
    Scale,
    /// The games hold no position of the player count asked for.
    #[error("no positions of {players}-player games in the games (--players sets the count fitted)")]
    NoPositions {
        /// The player count asked for.
        players: usize,
    },
}

/// The samples of one game given as `<result> <start> moves <move>...`:
/// the result `p1win`, `p2win` or `p3win`, the start `startpos` (`start`)
/// or a position line. `None` for a game of another player count.
pub(crate) fn game_samples(
    start: &Position,
    players: usize,
    line: &str,
    number: usize,
) -> Result<Option<Vec<Sample>>, DataError> {
    let error = |message: String| DataError { line: number, message };
    let (result, rest) = line.trim().split_once(' ').ok_or_else(|| error("expected a result, then the game".into()))?;
    let winner = match result {
        "p1win" => 0,
        "p2win" => 1,
        "p3win" => 2,
        other => return Err(error(format!("'{other}' is not a POLD.R result: p1win, p2win or p3win"))),
    };
    let (head, moves) = match rest.split_once(" moves") {
        Some((head, moves)) => (head.trim(), moves),
        None => (rest.trim(), ""),
    };
    let mut position = if head == "startpos" {
        *start
    } else {
        head.parse::<Position>().map_err(|problem| error(problem.to_string()))?
    };
    if position.players() != players {
        return Ok(None);
    }
    if winner >= players {
        return Err(error(format!("{result} in a game of {players} players")));
    }
    let mut samples = Vec::new();
    let mut add = |position: &Position| {
        if !position.is_over() {
            let size = f64::from(position.size());
            let (_, all) = features(position);
            let seats = all[..position.players()]
                .iter()
                .map(|values| {
                    Feature::ALL.map(|feature| {
                        let value = f64::from(values[feature as usize]);
                        if feature.per_size() { value / size } else { value }
                    })
                })
                .collect();
            samples.push(Sample { seats, winner });
        }
    };
    add(&position);
    for text in moves.split_whitespace() {
        let mv: Move = text.parse().map_err(|problem| error(format!("{text}: {problem}")))?;
        position.try_play(mv).map_err(|problem| error(format!("{text}: {problem}")))?;
        add(&position);
    }
    Ok(Some(samples))
}

/// Each player's chance to win under `weights` (in hundredths of a logit).
fn predict(sample: &Sample, weights: &[f64; FEATURES], chances: &mut Vec<f64>) {
    chances.clear();
    chances
        .extend(sample.seats.iter().map(|values| values.iter().zip(weights).map(|(x, w)| x * w).sum::<f64>() / SCALE));
    let top = chances.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut total = 0.0;
    for chance in chances.iter_mut() {
        *chance = (*chance - top).exp();
        total += *chance;
    }
    for chance in chances.iter_mut() {
        *chance /= total;
    }
}

/// The ridge: the fit minimises the mean cross-entropy plus `RIDGE / 2`
/// times the sum of the squared weights in logits. Without it the clearing
/// phase's weights run off to infinity: its positions in games between
/// engines that prove their endgames are told apart perfectly by some
/// features (no finite weights fit best).
const RIDGE: f64 = 1e-3;

/// The fit's objective: the mean cross-entropy and the ridge.
fn objective(samples: &[Sample], weights: &[f64; FEATURES]) -> f64 {
    loss(samples, weights) + RIDGE / 2.0 * weights.iter().map(|w| (w / SCALE).powi(2)).sum::<f64>()
}

/// Mean cross-entropy of the predictions of `weights` against the winners.
pub(crate) fn loss(samples: &[Sample], weights: &[f64; FEATURES]) -> f64 {
    let mut chances = Vec::new();
    let total: f64 = samples
        .iter()
        .map(|sample| {
            predict(sample, weights, &mut chances);
            -chances[sample.winner].max(1e-12).ln()
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// Fits the weights of `free` features by Newton's method on the mean
/// cross-entropy and the ridge (a step that does not lower them is
/// halved), the others staying as they are.
pub(crate) fn fit(samples: &[Sample], start: &Weights, free: &[Feature], steps: usize) -> [f64; FEATURES] {
    let mut weights = start.0.map(f64::from);
    let free: Vec<usize> = free.iter().map(|&feature| feature as usize).collect();
    let n = free.len();
    let mut chances = Vec::new();
    for _ in 0..steps {
        let mut gradient = vec![0.0; n];
        let mut hessian = vec![vec![0.0; n]; n];
        for sample in samples {
            predict(sample, &weights, &mut chances);
            // The expected features under the model, against those of the winner.
            let mean: Vec<f64> = (0..n)
                .map(|row| sample.seats.iter().zip(&chances).map(|(values, p)| p * values[free[row]]).sum())
                .collect();
            for row in 0..n {
                gradient[row] += (mean[row] - sample.seats[sample.winner][free[row]]) / SCALE;
            }
            for (values, p) in sample.seats.iter().zip(&chances) {
                for row in 0..n {
                    let x = values[free[row]] - mean[row];
                    for column in 0..n {
                        hessian[row][column] += p * x * (values[free[column]] - mean[column]) / (SCALE * SCALE);
                    }
                }
            }
        }
        let count = samples.len() as f64;
        for (row, line) in hessian.iter_mut().enumerate() {
            gradient[row] = gradient[row] / count + RIDGE * weights[free[row]] / (SCALE * SCALE);
            for cell in line.iter_mut() {
                *cell /= count;
            }
            line[row] += RIDGE / (SCALE * SCALE);
        }
        let Some(step) = solve(hessian, gradient) else { break };
        let before = objective(samples, &weights);
        let mut fraction = 1.0;
        let mut tried = weights;
        while fraction > 1e-4 {
            tried = weights;
            for (row, &i) in free.iter().enumerate() {
                tried[i] -= fraction * step[row];
            }
            if objective(samples, &tried) <= before {
                break;
            }
            fraction /= 2.0;
        }
        let largest = step.iter().fold(0.0f64, |largest, x| largest.max((fraction * x).abs()));
        weights = tried;
        if largest < 1e-3 || fraction <= 1e-4 {
            break;
        }
    }
    weights
}

/// `podium tune --game poldr`: fits the weights of the player count of
/// `start` on the games of that count in `request`, starting from
/// `weights`; returns what to print (games and positions, the loss before
/// and after, the weights as `tunables.rs` holds them).
pub(crate) fn run(start: &Position, weights: &Weights, request: &TuneRequest) -> Result<Vec<String>, TuneError> {
    let players = start.players();
    if request.scale.is_some() {
        return Err(TuneError::Scale);
    }
    let weights = weights.with_text(request.weights.as_deref().unwrap_or("")).map_err(TuneError::Weights)?;
    let free: Vec<Feature> = if request.features.is_empty() {
        Feature::ALL.to_vec()
    } else {
        request.features.iter().map(|name| name.trim().parse()).collect::<Result<_, _>>().map_err(TuneError::Weights)?
    };
    let mut samples = Vec::new();
    let (mut games, mut other) = (0, 0);
    for (number, line) in &request.games {
        match game_samples(start, players, line, *number).map_err(TuneError::Data)? {
            Some(more) => {
                games += 1;
                samples.extend(more);
            }
            None => other += 1,
        }
    }
    if samples.is_empty() {
        return Err(TuneError::NoPositions { players });
    }
    let initial = weights.0.map(f64::from);
    let fitted = fit(&samples, &weights, &free, request.steps);
    let rounded = Weights(fitted.map(|weight| weight.round() as i32));
    let skipped = if other > 0 { format!(" ({other} of other player counts skipped)") } else { String::new() };
    let values: Vec<String> = rounded.0.iter().map(i32::to_string).collect();
    Ok(vec![
        format!("players {players} games {games}{skipped} positions {}", samples.len()),
        format!(
            "loss before {:.6} after {:.6} (even chances {:.6})",
            loss(&samples, &initial),
            loss(&samples, &fitted),
            (players as f64).ln()
        ),
        format!("weights {rounded}"),
        format!("Weights([{}])", values.join(", ")),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Games whose winner is always the player with fewer bricks in
    /// reserve while building: the fit must find a negative reserve weight
    /// and predict better than the weights it started from.
    #[test]
    fn the_fit_learns_what_decides_the_games() {
        let start = Position::start(5, 2, 16).unwrap();
        let mut lines = Vec::new();
        let mut state = 7u64;
        for _ in 0..60 {
            let mut position = start;
            let mut moves = Vec::new();
            for _ in 0..4 {
                let legal = position.legal_moves();
                if legal.is_empty() {
                    break;
                }
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let mv = legal[(state >> 33) as usize % legal.len()];
                position.try_play(mv).unwrap();
                moves.push(mv.to_string());
            }
            let seat = |index| super::super::types::Seat::from_index(index).unwrap();
            let (blue, yellow) = (position.reserve(seat(0)), position.reserve(seat(1)));
            if blue == yellow {
                continue;
            }
            let result = if blue < yellow { "p1win" } else { "p2win" };
            lines.push((lines.len() + 1, format!("{result} {start} moves {}", moves.join(" "))));
        }
        let request = TuneRequest { games: lines, steps: 20, ..TuneRequest::default() };
        let zero = Weights([0; FEATURES]);
        let mut samples = Vec::new();
        for (number, line) in &request.games {
            samples.extend(game_samples(&start, 2, line, *number).unwrap().unwrap());
        }
        let fitted = fit(&samples, &zero, &[Feature::BuildReserve], 20);
        assert!(fitted[Feature::BuildReserve as usize] < 0.0, "{fitted:?}");
        assert!(loss(&samples, &fitted) < loss(&samples, &zero.0.map(f64::from)));
        let printed = run(&start, &zero, &request).unwrap();
        assert!(printed[0].starts_with("players 2 games "), "{printed:?}");
        assert!(printed[2].starts_with("weights build_reserve=-"), "{printed:?}");
    }

    #[test]
    fn a_line_that_does_not_read_says_where() {
        let start = Position::start(5, 2, 16).unwrap();
        let request = TuneRequest { games: vec![(3, "1-0 startpos".into())], steps: 5, ..TuneRequest::default() };
        let error = run(&start, &Weights([0; FEATURES]), &request).unwrap_err().to_string();
        assert!(error.starts_with("line 3: '1-0' is not a POLD.R result"), "{error}");
        let request = TuneRequest {
            games: vec![(1, "p1win startpos moves Pc3Mc5 Zz9".into())],
            steps: 5,
            ..TuneRequest::default()
        };
        let error = run(&start, &Weights([0; FEATURES]), &request).unwrap_err().to_string();
        assert!(error.starts_with("line 1: Zz9"), "{error}");
        let scaled =
            TuneRequest { games: vec![(1, "p1win startpos".into())], scale: Some(80.0), ..TuneRequest::default() };
        let error = run(&start, &Weights([0; FEATURES]), &scaled).unwrap_err().to_string();
        assert!(error.contains("leave out --scale"), "{error}");
        let three = Position::start(5, 3, 16).unwrap();
        let request = TuneRequest { games: vec![(1, "p1win startpos".into())], steps: 5, ..TuneRequest::default() };
        assert!(run(&start, &Weights([0; FEATURES]), &request).is_ok());
        let two_player_games = TuneRequest { games: vec![(1, format!("p1win {start}"))], ..TuneRequest::default() };
        let error = run(&three, &Weights([0; FEATURES]), &two_player_games).unwrap_err().to_string();
        assert!(error.starts_with("no positions of 3-player games"), "{error}");
    }
}
