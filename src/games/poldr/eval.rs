//! The static evaluation of POLD.R: features of each player's standing
//! (the race to the last brick while building, the bricks they can take
//! back while clearing and those they never could, or only along one
//! line, the reach of the pawn and of their marker, who is blocked, the
//! tie-break), weighed by weights fitted on game results
//! (`podium tune --game poldr`), one set per player count.
//!
//! Each player gets a score, the weighted sum of its features; a feature
//! that counts bricks or turns is divided by the board's size (a turn
//! places or clears at most `size - 2` bricks, and a piece reaches at most
//! about `4 * size` cells), so that one set of weights serves every size.
//! The scores are logits in hundredths: the chance that a player wins is
//! the softmax of the players' scores over `SCALE` (`win_shares`), which
//! is the model the weights were fitted to. For the alpha-beta searches a
//! player's evaluation is its score less the best of the others'.

use std::fmt;
use std::str::FromStr;

use super::geometry::LINES;
use super::position::Position;
use super::types::{Cell, Cells, MAX_PLAYERS, Phase, Seat};

/// The score that is a logit of 1: `e` to 1 on a player against another.
pub(crate) const SCALE: f64 = 100.0;

/// The features of one player, each a count (divided by the board's size
/// when weighed) or a yes/no.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Feature {
    /// Building: bricks in reserve (the race to the last brick).
    BuildReserve,
    /// Building: the most bricks one turn of this player could place now (how soon).
    BuildBest,
    /// Building: one turn of this player could place its last brick now (a win in one).
    BuildFinish,
    /// Building: the cells its marker could move to with a legal turn (the pawn's reach for it).
    BuildMarkerMoves,
    /// Building: the cells the pawn could move to with a legal turn of this player (its marker's reach).
    BuildPawnMoves,
    /// Building: no building turn left (blocked: the clearing starts when it is to move).
    BuildBlocked,
    /// Building: this player is to move.
    BuildTempo,
    /// Building: own bricks no clearing turn could ever take back as the board stands (`stuck_bricks`).
    BuildStuck,
    /// Building: own bricks only one line could take back (`stuck_bricks`).
    BuildFragile,
    /// Clearing: bricks in reserve (the most win).
    ClearReserve,
    /// Clearing: own bricks that some turn could take back now.
    ClearClearable,
    /// Clearing: the most own bricks one turn could take back now (how soon).
    ClearBest,
    /// Clearing: the cells its marker could move to with a clearing turn.
    ClearMarkerMoves,
    /// Clearing: the cells the pawn could move to with a clearing turn of this player.
    ClearPawnMoves,
    /// Clearing: this player would win a tie (its last reserve change is the earliest).
    ClearTieBreak,
    /// Clearing: this player would win if the game ended now (most bricks, then the tie-break).
    ClearLeader,
    /// Clearing: this player is to move.
    ClearTempo,
    /// Clearing: own bricks no clearing turn could ever take back as the board stands (`stuck_bricks`).
    ClearStuck,
    /// Clearing: own bricks only one line could take back (`stuck_bricks`).
    ClearFragile,
}

/// How many features there are.
pub(crate) const FEATURES: usize = 19;

impl Feature {
    /// Every feature, in order.
    pub(crate) const ALL: [Feature; FEATURES] = [
        Feature::BuildReserve,
        Feature::BuildBest,
        Feature::BuildFinish,
        Feature::BuildMarkerMoves,
        Feature::BuildPawnMoves,
        Feature::BuildBlocked,
        Feature::BuildTempo,
        Feature::BuildStuck,
        Feature::BuildFragile,
        Feature::ClearReserve,
        Feature::ClearClearable,
        Feature::ClearBest,
        Feature::ClearMarkerMoves,
        Feature::ClearPawnMoves,
        Feature::ClearTieBreak,
        Feature::ClearLeader,
        Feature::ClearTempo,
        Feature::ClearStuck,
        Feature::ClearFragile,
    ];

    /// Its name, as `podium tune` and the weights' text write it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Feature::BuildReserve => "build_reserve",
            Feature::BuildBest => "build_best",
            Feature::BuildFinish => "build_finish",
            Feature::BuildMarkerMoves => "build_marker_moves",
            Feature::BuildPawnMoves => "build_pawn_moves",
            Feature::BuildBlocked => "build_blocked",
            Feature::BuildTempo => "build_tempo",
            Feature::BuildStuck => "build_stuck",
            Feature::BuildFragile => "build_fragile",
            Feature::ClearReserve => "clear_reserve",
            Feature::ClearClearable => "clear_clearable",
            Feature::ClearBest => "clear_best",
            Feature::ClearMarkerMoves => "clear_marker_moves",
            Feature::ClearPawnMoves => "clear_pawn_moves",
            Feature::ClearTieBreak => "clear_tie_break",
            Feature::ClearLeader => "clear_leader",
            Feature::ClearTempo => "clear_tempo",
            Feature::ClearStuck => "clear_stuck",
            Feature::ClearFragile => "clear_fragile",
        }
    }

    /// Whether it is a count, weighed per board size (else a yes/no, 0 or 1).
    pub(crate) fn per_size(self) -> bool {
        !matches!(
            self,
            Feature::BuildFinish
                | Feature::BuildBlocked
                | Feature::BuildTempo
                | Feature::ClearTieBreak
                | Feature::ClearLeader
                | Feature::ClearTempo
        )
    }
}

/// A feature name that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// A name that is no feature.
    #[error("'{0}' is not a feature of the POLD.R evaluation: {names}", names = feature_names())]
    UnknownFeature(String),
    /// A `name=value` pair that does not read.
    #[error("'{0}': write name=value, the value a whole number")]
    Malformed(String),
}

fn feature_names() -> String {
    Feature::ALL.map(Feature::name).join(", ")
}

impl FromStr for Feature {
    type Err = WeightsError;

    fn from_str(text: &str) -> Result<Feature, WeightsError> {
        Feature::ALL
            .into_iter()
            .find(|feature| feature.name() == text)
            .ok_or_else(|| WeightsError::UnknownFeature(text.to_string()))
    }
}

/// The evaluation's weights, one per feature, in hundredths of a logit
/// (per brick or cell divided by the board's size for a count).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Weights(pub(crate) [i32; FEATURES]);

impl Weights {
    /// The weight of `feature`.
    pub(crate) fn get(&self, feature: Feature) -> i32 {
        self.0[feature as usize]
    }

    /// These weights with those of `text` (`name=value` pairs separated by commas) instead.
    pub(crate) fn with_text(mut self, text: &str) -> Result<Weights, WeightsError> {
        for pair in text.split(',').map(str::trim).filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').ok_or_else(|| WeightsError::Malformed(pair.to_string()))?;
            let feature: Feature = name.trim().parse()?;
            self.0[feature as usize] = value.trim().parse().map_err(|_| WeightsError::Malformed(pair.to_string()))?;
        }
        Ok(self)
    }
}

impl fmt::Display for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pairs: Vec<String> =
            Feature::ALL.iter().map(|&feature| format!("{}={}", feature.name(), self.get(feature))).collect();
        write!(f, "{}", pairs.join(","))
    }
}

/// One player's features: counts, and 0 or 1 for a yes/no.
pub(crate) type SeatFeatures = [u32; FEATURES];

/// What one player's turns could do now: how many there are by marker and
/// by pawn, the most bricks one of them moves, and the cells they reach.
#[derive(Default)]
struct Turns {
    marker_moves: u32,
    pawn_moves: u32,
    best: u32,
    /// Clearing: the own bricks some turn takes back.
    reached: Cells,
}

/// The building turns `seat` would have if it were to move.
fn building_turns(position: &Position, seat: Seat, pawn: Cell) -> Turns {
    let geometry = position.geometry();
    let empty = position.empty();
    let reserve = u32::from(position.reserve(seat));
    let mut turns = Turns::default();
    let mut consider = |interval: Cells, free: Cells, by_marker: bool| {
        let filled = (interval & free).count();
        if (1..=reserve).contains(&filled) {
            if by_marker {
                turns.marker_moves += 1;
            } else {
                turns.pawn_moves += 1;
            }
            turns.best = turns.best.max(filled);
        }
    };
    match position.marker(seat) {
        None => {
            for to in geometry.aligned(pawn) & empty {
                consider(geometry.between(pawn, to), empty, true);
            }
        }
        Some(marker) => {
            // A lifted piece leaves its cell empty, maybe inside the new interval.
            for to in geometry.aligned(pawn) & empty {
                consider(geometry.between(pawn, to), empty | marker.bit(), true);
            }
            for to in geometry.aligned(marker) & empty {
                consider(geometry.between(to, marker), empty | pawn.bit(), false);
            }
        }
    }
    turns
}

/// The clearing turns `seat` would have if it were to move.
fn clearing_turns(position: &Position, seat: Seat, pawn: Cell) -> Turns {
    let mut turns = Turns::default();
    let Some(marker) = position.marker(seat) else { return turns };
    let own = position.bricks(seat);
    if own.is_empty() {
        return turns;
    }
    let geometry = position.geometry();
    let empty = position.empty();
    for to in geometry.aligned(pawn) & empty {
        let taken = geometry.between(pawn, to) & own;
        if !taken.is_empty() {
            turns.marker_moves += 1;
            turns.best = turns.best.max(taken.count());
            turns.reached |= taken;
        }
    }
    for to in geometry.aligned(marker) & empty {
        let taken = geometry.between(to, marker) & own;
        if !taken.is_empty() {
            turns.pawn_moves += 1;
            turns.best = turns.best.max(taken.count());
            turns.reached |= taken;
        }
    }
    turns
}

/// How many of `seat`'s bricks no clearing turn could take back while the
/// other bricks and the other players' markers stay, and how many only one
/// line could: a brick is taken back from between the pawn and the marker,
/// so it needs a cell free for them on both sides of it along a line (a
/// corner brick never has one; a row of bricks along an edge has only the
/// edge, and a marker parked on its corner shuts it). The clearing race is
/// decided by the bricks each player can still take back.
pub(crate) fn stuck_bricks(position: &Position, seat: Seat) -> (u32, u32) {
    let geometry = position.geometry();
    let mut blocking = position.all_bricks();
    for other in position.seats().filter(|&other| other != seat) {
        if let Some(marker) = position.marker(other) {
            blocking |= marker.bit();
        }
    }
    let free = geometry.board & !blocking;
    let mut lines = [Cells::EMPTY; LINES];
    for (line, through) in lines.iter_mut().enumerate() {
        *through = geometry.behind(free, 2 * line) & geometry.behind(free, 2 * line + 1);
    }
    let [a, b, c, d] = lines;
    let some = a | b | c | d;
    let two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d);
    let own = position.bricks(seat);
    ((own & !some).count(), (own & some & !two).count())
}

/// Every player's features (`features[seat]`; seats beyond the game's
/// players stay 0), with whether they are the clearing phase's: clearing,
/// or the mover blocked.
pub(crate) fn features(position: &Position) -> (bool, [SeatFeatures; MAX_PLAYERS]) {
    let mut all = [[0; FEATURES]; MAX_PLAYERS];
    let mover = position.mover();
    let set = |values: &mut SeatFeatures, feature: Feature, value: u32| values[feature as usize] = value;
    if position.phase() == Phase::Building {
        let mut mover_blocked = false;
        for seat in position.seats() {
            let values = &mut all[seat.index()];
            let reserve = u32::from(position.reserve(seat));
            set(values, Feature::BuildReserve, reserve);
            set(values, Feature::BuildTempo, u32::from(seat == mover));
            let (stuck, fragile) = stuck_bricks(position, seat);
            set(values, Feature::BuildStuck, stuck);
            set(values, Feature::BuildFragile, fragile);
            let Some(pawn) = position.pawn() else { continue };
            let turns = building_turns(position, seat, pawn);
            let blocked = turns.marker_moves + turns.pawn_moves == 0;
            mover_blocked |= blocked && seat == mover;
            set(values, Feature::BuildBest, turns.best);
            set(values, Feature::BuildFinish, u32::from(turns.best == reserve));
            set(values, Feature::BuildMarkerMoves, turns.marker_moves);
            set(values, Feature::BuildPawnMoves, turns.pawn_moves);
            set(values, Feature::BuildBlocked, u32::from(blocked));
        }
        if !mover_blocked {
            return (false, all);
        }
        all = [[0; FEATURES]; MAX_PLAYERS];
    }
    let leader = position.best_standing(position.seats());
    let first_to_tie = position.seats().min_by_key(|&seat| (position.last_change(seat).unwrap_or(0), seat.index()));
    for seat in position.seats() {
        let values = &mut all[seat.index()];
        set(values, Feature::ClearReserve, u32::from(position.reserve(seat)));
        set(values, Feature::ClearTempo, u32::from(seat == mover));
        set(values, Feature::ClearLeader, u32::from(leader == Some(seat)));
        set(values, Feature::ClearTieBreak, u32::from(first_to_tie == Some(seat)));
        let (stuck, fragile) = stuck_bricks(position, seat);
        set(values, Feature::ClearStuck, stuck);
        set(values, Feature::ClearFragile, fragile);
        if let Some(pawn) = position.pawn() {
            let turns = clearing_turns(position, seat, pawn);
            set(values, Feature::ClearClearable, turns.reached.count());
            set(values, Feature::ClearBest, turns.best);
            set(values, Feature::ClearMarkerMoves, turns.marker_moves);
            set(values, Feature::ClearPawnMoves, turns.pawn_moves);
        }
    }
    (true, all)
}

/// A player's score under `weights`: a count's weight is per brick or cell
/// divided by the board's size.
pub(crate) fn seat_score(values: &SeatFeatures, weights: &Weights, size: u8) -> i32 {
    let mut per_size = 0i64;
    let mut whole = 0i64;
    for feature in Feature::ALL {
        let term = i64::from(weights.get(feature)) * i64::from(values[feature as usize]);
        if feature.per_size() {
            per_size += term;
        } else {
            whole += term;
        }
    }
    (per_size / i64::from(size) + whole) as i32
}

/// Each player's score (`scores[seat]`; 0 beyond the game's players).
pub(crate) fn scores(position: &Position, weights: &Weights) -> [i32; MAX_PLAYERS] {
    let (_, all) = features(position);
    let size = position.size();
    let mut scores = [0; MAX_PLAYERS];
    for seat in position.seats() {
        scores[seat.index()] = seat_score(&all[seat.index()], weights, size);
    }
    scores
}

/// The evaluation for `player`: its score less the best of the others'.
pub(crate) fn score_for(scores: &[i32], player: usize) -> i32 {
    let best_other = scores.iter().enumerate().filter(|&(seat, _)| seat != player).map(|(_, &score)| score).max();
    scores[player] - best_other.unwrap_or(0)
}

/// Each player's chance to win as the evaluation sees it: the softmax of
/// the scores over `SCALE`, into `shares` (one place per player).
pub(crate) fn win_shares(scores: &[i32], shares: &mut [f32]) {
    let top = scores.iter().copied().max().unwrap_or(0);
    let mut total = 0.0;
    for (share, &score) in shares.iter_mut().zip(scores) {
        let weight = (f64::from(score - top) / SCALE).exp();
        *share = weight as f32;
        total += weight;
    }
    for share in shares.iter_mut() {
        *share = (f64::from(*share) / total) as f32;
    }
}

/// The evaluation split into its terms: each player's features and score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EvalTerms {
    /// Whether the clearing phase's features apply (clearing, or blocked).
    pub(crate) clearing: bool,
    /// Each player's features and score, in seat order.
    pub seats: Vec<(Seat, SeatFeatures, i32)>,
}

impl EvalTerms {
    /// The evaluation for `player`: its score less the best of the others'.
    pub(crate) fn score_for(&self, player: Seat) -> i32 {
        let scores: Vec<i32> = self.seats.iter().map(|(.., score)| *score).collect();
        score_for(&scores, player.index())
    }
}

impl fmt::Display for EvalTerms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "phase {}", if self.clearing { "clearing" } else { "building" })?;
        let prefix = if self.clearing { "clear_" } else { "build_" };
        for (index, (seat, values, score)) in self.seats.iter().enumerate() {
            let reserve = if self.clearing { Feature::ClearReserve } else { Feature::BuildReserve };
            // Seats are separated by `;`, not ended by one.
            let separator = if index == 0 { "" } else { ";" };
            write!(f, "{separator} {} reserve {}", seat.name(), values[reserve as usize])?;
            for feature in Feature::ALL {
                if let Some(short) = feature.name().strip_prefix(prefix)
                    && feature != reserve
                {
                    write!(f, " {short} {}", values[feature as usize])?;
                }
            }
            write!(f, " score {score}")?;
        }
        Ok(())
    }
}

/// The evaluation's terms for every player of `position`.
pub(super) fn evaluate_terms(position: &Position, weights: &Weights) -> EvalTerms {
    let (clearing, all) = features(position);
    let size = position.size();
    let seats = position
        .seats()
        .map(|seat| {
            let values = all[seat.index()];
            (seat, values, seat_score(&values, weights, size))
        })
        .collect();
    EvalTerms { clearing, seats }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::poldr::moves::Move;

    /// Positions of seeded random games of both player counts and several sizes.
    fn random_positions() -> Vec<Position> {
        let mut positions = Vec::new();
        let mut state = 11u64;
        for (size, players, bricks) in [(5, 2, 16), (6, 3, 16), (7, 2, 24), (9, 3, 40), (4, 2, 3)] {
            for _ in 0..6 {
                let mut position = Position::start(size, players, bricks).unwrap();
                loop {
                    positions.push(position);
                    let moves = position.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    position.try_play(moves[(state >> 33) as usize % moves.len()]).unwrap();
                }
            }
        }
        positions
    }

    /// The mover's features count what the move generator finds: its
    /// turns, whether it is blocked, whether one turn places its last
    /// brick, the most bricks one turn moves.
    #[test]
    fn the_movers_features_agree_with_its_legal_moves() {
        let mut seen = [0; 2];
        for position in random_positions().into_iter().filter(|position| !position.is_over()) {
            let (clearing, all) = features(&position);
            let mover = position.mover();
            let values = all[mover.index()];
            let get = |feature: Feature| values[feature as usize];
            let turns: Vec<Move> = position.legal_moves().into_iter().filter(|&mv| mv != Move::Pass).collect();
            let best = turns.iter().map(|&mv| position.bricks_moved_by(mv)).max().unwrap_or(0);
            assert_eq!(clearing, position.phase() == Phase::Clearing || position.is_blocked(), "{position}");
            seen[usize::from(clearing)] += 1;
            if clearing {
                assert_eq!(get(Feature::ClearMarkerMoves) + get(Feature::ClearPawnMoves), turns.len() as u32);
                assert_eq!(get(Feature::ClearBest), best, "{position}");
                assert_eq!(get(Feature::ClearReserve), u32::from(position.reserve(mover)));
                assert!(get(Feature::ClearClearable) >= best && get(Feature::BuildReserve) == 0);
            } else if position.pawn().is_some() {
                assert_eq!(get(Feature::BuildMarkerMoves) + get(Feature::BuildPawnMoves), turns.len() as u32);
                assert_eq!(get(Feature::BuildBest), best, "{position}");
                assert_eq!(get(Feature::BuildFinish) == 1, best == u32::from(position.reserve(mover)), "{position}");
                assert_eq!(get(Feature::BuildBlocked), 0);
                assert_eq!(get(Feature::ClearReserve), 0);
            }
            assert_eq!(get(Feature::BuildTempo) + get(Feature::ClearTempo), 1);
        }
        assert!(seen[0] > 100 && seen[1] > 100, "{seen:?}");
    }

    /// A brick is stuck when no interval of two cells free for the pawn and
    /// the player's marker (no brick, no other player's marker) holds it,
    /// fragile when those intervals all lie on one line: checked by trying
    /// every pair of cells.
    #[test]
    fn stuck_and_fragile_bricks_are_counted_by_the_intervals_that_hold_them() {
        let (mut stuck_seen, mut fragile_seen) = (0, 0);
        for position in random_positions().into_iter().step_by(3) {
            let geometry = position.geometry();
            let mut bricks = Cells::EMPTY;
            for seat in position.seats() {
                bricks |= position.bricks(seat);
            }
            for seat in position.seats() {
                let mut blocking = bricks;
                for other in position.seats().filter(|&other| other != seat) {
                    blocking |= position.marker(other).map_or(Cells::EMPTY, Cell::bit);
                }
                let free: Vec<Cell> = (geometry.board & !blocking).into_iter().collect();
                // The intervals of free cells holding the brick, told apart by
                // their line: the direction of their ends, one way or the other.
                let lines = |brick: Cell| {
                    let mut directions = Vec::new();
                    for &a in &free {
                        for &b in &free {
                            if geometry.between(a, b).contains(brick) {
                                let (df, dr) = (b.file() as i32 - a.file() as i32, b.rank() as i32 - a.rank() as i32);
                                let (df, dr) = (df.signum(), dr.signum());
                                let direction = if (df, dr) < (0, 0) { (-df, -dr) } else { (df, dr) };
                                if !directions.contains(&direction) {
                                    directions.push(direction);
                                }
                            }
                        }
                    }
                    directions.len()
                };
                let counts: Vec<usize> = position.bricks(seat).into_iter().map(lines).collect();
                let stuck = counts.iter().filter(|&&lines| lines == 0).count() as u32;
                let fragile = counts.iter().filter(|&&lines| lines == 1).count() as u32;
                assert_eq!(stuck_bricks(&position, seat), (stuck, fragile), "{position}");
                stuck_seen += stuck;
                fragile_seen += fragile;
            }
        }
        assert!(stuck_seen > 50 && fragile_seen > 50, "{stuck_seen} {fragile_seen}");
    }

    /// The evaluation's shares are a softmax: they sum to 1 and follow the
    /// scores, and the score for a player is its own less the best other.
    #[test]
    fn shares_follow_the_scores() {
        let weights = Weights([-50, 30, 80, 2, 10, -30, 10, -20, -10, 60, 80, -40, 90, 130, -10, 10, 0, -40, -10]);
        for position in random_positions().into_iter().filter(|position| !position.is_over()).step_by(7) {
            let players = position.players();
            let scores = scores(&position, &weights);
            let mut shares = [0.0; MAX_PLAYERS];
            win_shares(&scores[..players], &mut shares[..players]);
            assert!((shares[..players].iter().sum::<f32>() - 1.0).abs() < 1e-4, "{shares:?}");
            for a in 0..players {
                for b in 0..players {
                    assert_eq!(scores[a] > scores[b], shares[a] > shares[b], "{position} {scores:?} {shares:?}");
                }
                let best_other = (0..players).filter(|&b| b != a).map(|b| scores[b]).max().unwrap();
                assert_eq!(score_for(&scores[..players], a), scores[a] - best_other);
            }
        }
    }

    #[test]
    fn weights_read_by_name_and_say_what_is_wrong() {
        let weights = Weights([0; FEATURES]).with_text("clear_reserve=70, build_tempo=-3").unwrap();
        assert_eq!(weights.get(Feature::ClearReserve), 70);
        assert_eq!(weights.get(Feature::BuildTempo), -3);
        assert_eq!(weights.to_string().split(',').count(), FEATURES);
        assert_eq!(Weights([0; FEATURES]).with_text(&weights.to_string()), Ok(weights));
        let error = Weights([0; FEATURES]).with_text("reserve=1").unwrap_err().to_string();
        assert!(error.starts_with("'reserve' is not a feature of the POLD.R evaluation: build_reserve, "), "{error}");
        let error = Weights([0; FEATURES]).with_text("clear_reserve=x").unwrap_err().to_string();
        assert!(error.contains("name=value"), "{error}");
    }
}
