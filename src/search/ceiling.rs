//! The ceiling against random movers: the chance that one seat wins when
//! it plays its best and every other seat plays a uniformly random legal
//! move, worked out exactly by expectimax over the whole game tree (the
//! seat takes its best move, the others' moves are averaged). It is the
//! most any player can expect from a position against random movers, so a
//! row of such games cannot be expected to give more than the mean of its
//! openings' ceilings. Game-agnostic; only for games whose every line ends
//! without a repetition rule.
//!
//! Positions equal up to a symmetry of the game share one value (the
//! rules and a uniform choice among the moves look the same through it).
//! The table is a cache: a position whose value was overwritten is worked
//! out again, so any memory gives the exact value, a small one more slowly.

use super::game::SearchGame;
use super::limits::Signals;
use super::params::PARAMS;

/// Why a ceiling was not worked out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CeilingError {
    /// The game draws repeated positions: its tree has no end to average over.
    #[error("the game draws repeated positions: its tree has cycles, so there is no ceiling to work out")]
    Repetitions,
    /// Stopped (the stop flag, or the limit of positions) before the end.
    #[error("stopped after {0} positions, before the whole tree was worked out")]
    Stopped(u64),
}

/// The ceiling of a position for a seat.
#[derive(Clone, Debug, PartialEq)]
pub struct CeilingAnswer<M> {
    /// The seat's chance to win against random movers, playing its best.
    pub chance: f64,
    /// Where the seat is to move: each legal move's chance, best first.
    pub moves: Vec<(M, f64)>,
    /// Positions worked out (visits of positions not found in the table).
    pub nodes: u64,
}

/// Expectimax for one seat, with its table.
struct Expectimax<'a, G: SearchGame> {
    game: &'a G,
    seat: usize,
    /// The table: symmetric keys (0: empty; a position whose key is 0 is
    /// never kept) and the bounds known on their values (equal: exact).
    /// Zeroed, so pages never written cost no memory.
    keys: Vec<u64>,
    lower: Vec<f64>,
    upper: Vec<f64>,
    moves: Vec<Vec<G::Move>>,
    nodes: u64,
    max_nodes: Option<u64>,
    signals: &'a Signals,
    stopped: bool,
}

/// A window that takes every value as it is: the result is exact.
const WHOLE: (f64, f64) = (-1.0, 2.0);

impl<G: SearchGame> Expectimax<'_, G> {
    fn slot(&self, key: u64) -> usize {
        // The table's length is a power of two.
        (key as usize) & (self.keys.len() - 1)
    }

    /// The seat's chance from `position` within the window `(alpha,
    /// beta)`, fail-soft: a result at or below `alpha` is only an upper
    /// bound, at or above `beta` only a lower bound, between them exact.
    /// Pruning (Ballard's Star1): values lie in [0, 1], so a random
    /// mover's position is cut once the moves seen already settle which
    /// side of the window its average falls on, and the seat's once a move
    /// reaches `beta`.
    fn chance(&mut self, position: &G::Position, ply: usize, alpha: f64, beta: f64) -> f64 {
        let (key, _) = self.game.symmetric_key(position);
        let slot = self.slot(key);
        let (mut known_lower, mut known_upper) = (0.0, 1.0);
        if self.keys[slot] == key && key != 0 {
            (known_lower, known_upper) = (self.lower[slot], self.upper[slot]);
            if known_lower == known_upper || known_upper <= alpha {
                return known_upper;
            }
            if known_lower >= beta {
                return known_lower;
            }
        }
        self.nodes += 1;
        // The flag at the first position and then every so often.
        let poll = self.nodes % PARAMS.proof_poll_interval == 1;
        if self.max_nodes.is_some_and(|most| self.nodes > most)
            || (poll && self.signals.stop.load(std::sync::atomic::Ordering::Relaxed))
        {
            self.stopped = true;
        }
        if self.stopped {
            return 0.0;
        }
        if self.moves.len() <= ply {
            self.moves.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        // A position that fixes its winner however the rest is played needs no moves.
        let mut settled = self.game.settled_winner(position);
        if settled.is_none() {
            self.game.legal_moves(position, &mut moves);
            if moves.is_empty() {
                settled = self.game.winner(position);
            }
        }
        let chance = if moves.is_empty() {
            if settled == Some(self.seat) { 1.0 } else { 0.0 }
        } else if self.game.mover(position) == self.seat {
            let mut best: f64 = 0.0;
            for &mv in &moves {
                let child = self.game.play(position, mv);
                best = best.max(self.chance(&child, ply + 1, alpha.max(best), beta));
                if best >= beta {
                    break;
                }
            }
            best
        } else {
            let count = moves.len() as f64;
            let mut sum = 0.0;
            let mut chance = None;
            for (index, &mv) in moves.iter().enumerate() {
                // The moves after this one count 1 at best, 0 at worst.
                let rest = count - index as f64 - 1.0;
                let (child_alpha, child_beta) = (count * alpha - sum - rest, count * beta - sum);
                let child = self.game.play(position, mv);
                let value = self.chance(&child, ply + 1, child_alpha, child_beta);
                // A cut's bound is kept on its side of the window, which
                // rounding could otherwise cross (and make it look exact).
                if value <= child_alpha {
                    chance = Some(((sum + value + rest) / count).min(alpha));
                    break;
                }
                if value >= child_beta {
                    chance = Some(((sum + value) / count).max(beta));
                    break;
                }
                sum += value;
            }
            chance.unwrap_or(sum / count)
        };
        self.moves[ply] = moves;
        if !self.stopped {
            // What the result says, with what was known before.
            let (lower, upper) = if chance <= alpha {
                (known_lower, chance.min(known_upper))
            } else if chance >= beta {
                (chance.max(known_lower), known_upper)
            } else {
                (chance, chance)
            };
            (self.keys[slot], self.lower[slot], self.upper[slot]) = (key, lower, upper);
        }
        chance
    }
}

/// The ceiling of `root` for `seat` (see the module), with a table of at
/// most `megabytes` (at least one), stopping after `max_nodes` positions if
/// given or when `signals.stop` is set.
pub fn ceiling<G: SearchGame>(
    game: &G,
    root: &G::Position,
    seat: usize,
    megabytes: usize,
    max_nodes: Option<u64>,
    signals: &Signals,
) -> Result<CeilingAnswer<G::Move>, CeilingError> {
    let entry_bytes = std::mem::size_of::<u64>() + 2 * std::mem::size_of::<f64>();
    let slots = super::tt::power_of_two_entries(megabytes, entry_bytes, 1);
    ceiling_with_slots(game, root, seat, slots, max_nodes, signals)
}

/// `ceiling` with a table of `slots` entries (a power of two).
fn ceiling_with_slots<G: SearchGame>(
    game: &G,
    root: &G::Position,
    seat: usize,
    slots: usize,
    max_nodes: Option<u64>,
    signals: &Signals,
) -> Result<CeilingAnswer<G::Move>, CeilingError> {
    if game.repetition_is_draw() {
        return Err(CeilingError::Repetitions);
    }
    let mut search = Expectimax {
        game,
        seat,
        keys: vec![0; slots],
        lower: vec![0.0; slots],
        upper: vec![0.0; slots],
        moves: Vec::new(),
        nodes: 0,
        max_nodes,
        signals,
        stopped: false,
    };
    let mut moves = Vec::new();
    game.legal_moves(root, &mut moves);
    let mut answer = CeilingAnswer { chance: 0.0, moves: Vec::new(), nodes: 0 };
    if game.mover(root) == seat && !moves.is_empty() {
        for &mv in &moves {
            // Each move's chance exact, not only the best one's.
            let chance = search.chance(&game.play(root, mv), 1, WHOLE.0, WHOLE.1);
            answer.moves.push((mv, chance));
        }
        // Best first; equal chances keep the order of generation.
        answer.moves.sort_by(|a, b| b.1.total_cmp(&a.1));
        answer.chance = answer.moves.first().map_or(0.0, |&(_, chance)| chance);
    } else {
        answer.chance = search.chance(root, 0, WHOLE.0, WHOLE.1);
    }
    answer.nodes = search.nodes;
    if search.stopped {
        return Err(CeilingError::Stopped(search.nodes));
    }
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::search::game::GameRules;
    use crate::search::test_games::{Shape, Tree, random_tree};

    /// A random three-player game of 60 positions (`random_tree`).
    fn random_game(seed: u64) -> Tree {
        random_tree(seed, &Shape { positions: 60, players: 3, ends_one_in: 5, reach: 10 })
    }

    /// Expectimax straight from the definition, each position worked out once.
    fn plain(game: &Tree, node: usize, seat: usize, known: &mut HashMap<usize, f64>) -> f64 {
        if let Some(&value) = known.get(&node) {
            return value;
        }
        let here = &game.nodes[node];
        let values: Vec<f64> = here.children.iter().map(|&child| plain(game, child, seat, known)).collect();
        let value = if values.is_empty() {
            if here.end == Some(seat) { 1.0 } else { 0.0 }
        } else if here.mover == seat {
            values.iter().copied().fold(0.0, f64::max)
        } else {
            values.iter().sum::<f64>() / values.len() as f64
        };
        known.insert(node, value);
        value
    }

    #[test]
    fn the_ceiling_is_expectimax_whatever_the_tables_size() {
        let signals = Signals::default();
        for seed in 0..1000 {
            let game = random_game(seed);
            for seat in 0..3 {
                let mut known = HashMap::new();
                let expected = plain(&game, 0, seat, &mut known);
                // A table that holds every position, and small ones overwritten all the time (the
                // cuts' bounds then meet other windows than their own).
                for slots in [1 << 16, 16, 4] {
                    let answer = ceiling_with_slots(&game, &0, seat, slots, None, &signals).expect("no repetitions");
                    assert!((answer.chance - expected).abs() < 1e-12, "seed {seed} seat {seat} slots {slots}");
                    if game.mover(&0) == seat {
                        assert_eq!(answer.moves.len(), game.nodes[0].children.len());
                        assert!(answer.moves.windows(2).all(|pair| pair[0].1 >= pair[1].1), "best first");
                        for &(child, chance) in &answer.moves {
                            assert!((chance - plain(&game, child, seat, &mut known)).abs() < 1e-12);
                        }
                    } else {
                        assert!(answer.moves.is_empty());
                    }
                }
            }
        }
    }

    #[test]
    fn a_stop_or_the_limit_of_positions_is_an_error_not_a_value() {
        let game = random_game(3);
        let signals = Signals::default();
        let limited = ceiling(&game, &0, 0, 1, Some(2), &signals);
        assert!(matches!(limited, Err(CeilingError::Stopped(_))), "{limited:?}");
        signals.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let stopped = ceiling(&game, &0, 0, 1, None, &signals);
        assert!(matches!(stopped, Err(CeilingError::Stopped(_))), "{stopped:?}");
    }

    #[test]
    fn a_game_that_draws_repetitions_has_no_ceiling() {
        let mut game = random_game(4);
        game.repetitions = true;
        assert_eq!(ceiling(&game, &0, 0, 1, None, &Signals::default()), Err(CeilingError::Repetitions));
    }
}
