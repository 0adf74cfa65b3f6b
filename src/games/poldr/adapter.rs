//! POLD.R as the search sees it: its rules, its knowledge (the evaluation
//! and what proofs need) and the search's settings for it.

use std::fmt;

use super::moves::Move;
use super::position::Position;
use super::types::{Cells, Phase, Seat};
use crate::search::{GameKnowledge, GameRules, Policy, SearchGame};

/// Evaluation weights, in one place so they are easy to tune.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// Building: per brick still in reserve (fewer is better: the last brick wins).
    pub building_reserve: i32,
    /// Clearing: per brick in reserve (the most bricks win at the end).
    pub clearing_reserve: i32,
    /// Clearing: per own brick that a turn could take back now.
    pub clearable_brick: i32,
}

impl Weights {
    pub const DEFAULT: Weights = Weights { building_reserve: -30, clearing_reserve: 100, clearable_brick: 50 };
}

/// One player's evaluation terms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatTerms {
    pub reserve: i32,
    pub clearable: i32,
}

impl SeatTerms {
    pub fn total(&self) -> i32 {
        self.reserve + self.clearable
    }
}

/// The evaluation split into its terms: each player's own, and the score of
/// one player (their total against the best of the others).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalTerms {
    pub clearing: bool,
    pub seats: Vec<(Seat, SeatTerms)>,
}

impl EvalTerms {
    pub fn score_for(&self, player: Seat) -> i32 {
        let own = self.seats.iter().find(|(seat, _)| *seat == player).map_or(0, |(_, terms)| terms.total());
        let best_other =
            self.seats.iter().filter(|(seat, _)| *seat != player).map(|(_, terms)| terms.total()).max().unwrap_or(0);
        own - best_other
    }
}

impl fmt::Display for EvalTerms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "phase {}", if self.clearing { "clearing" } else { "building" })?;
        for (seat, terms) in &self.seats {
            write!(
                f,
                " {} reserve {} clearable {} total {};",
                seat.name(),
                terms.reserve,
                terms.clearable,
                terms.total()
            )?;
        }
        Ok(())
    }
}

/// The bricks of `seat` that some clearing turn could take back now.
fn clearable_bricks(position: &Position, seat: Seat) -> Cells {
    let (Some(pawn), Some(marker)) = (position.pawn(), position.marker(seat)) else {
        return Cells::EMPTY;
    };
    let own = position.bricks(seat);
    let geometry = position.geometry();
    let empty = position.empty();
    let mut reachable = Cells::EMPTY;
    for to in geometry.aligned(pawn) & empty {
        reachable |= geometry.between(pawn, to);
    }
    for to in geometry.aligned(marker) & empty {
        reachable |= geometry.between(to, marker);
    }
    reachable & own
}

/// POLD.R for the search. Stateless: positions carry their board size and
/// number of players.
pub struct PoldrGame {
    weights: Weights,
}

impl Default for PoldrGame {
    fn default() -> PoldrGame {
        PoldrGame { weights: Weights::DEFAULT }
    }
}

impl PoldrGame {
    /// The evaluation's terms, for people (the `eval` command) and for `evaluate`.
    pub fn evaluate_terms(&self, position: &Position) -> EvalTerms {
        let clearing = position.phase() == Phase::Clearing || position.is_blocked();
        let seats = position
            .seats()
            .map(|seat| {
                let reserve = position.reserve(seat) as i32;
                let terms = if clearing {
                    SeatTerms {
                        reserve: self.weights.clearing_reserve * reserve,
                        clearable: self.weights.clearable_brick * clearable_bricks(position, seat).count() as i32,
                    }
                } else {
                    SeatTerms { reserve: self.weights.building_reserve * reserve, clearable: 0 }
                };
                (seat, terms)
            })
            .collect();
        EvalTerms { clearing, seats }
    }
}

impl GameRules for PoldrGame {
    type Position = Position;
    type Move = Move;

    fn hash(&self, position: &Position) -> u64 {
        position.hash()
    }

    fn players(&self, position: &Position) -> usize {
        position.players()
    }

    fn mover(&self, position: &Position) -> usize {
        position.mover().index()
    }

    fn legal_moves(&self, position: &Position, moves: &mut Vec<Move>) {
        position.generate_moves(moves);
    }

    fn play(&self, position: &Position, mv: Move) -> Position {
        let mut next = *position;
        next.play_unchecked(mv);
        next
    }

    fn is_legal(&self, position: &Position, mv: Move) -> bool {
        position.check(mv).is_ok()
    }

    fn winner(&self, position: &Position) -> Option<usize> {
        Some(position.scored_outcome().winner.index())
    }

    fn is_draw(&self, _: &Position) -> bool {
        false
    }

    fn repetition_is_draw(&self) -> bool {
        // Every turn but a pass moves bricks one way for good: no position repeats.
        false
    }

    fn move_to_bits(mv: Move) -> u16 {
        mv.to_bits()
    }

    fn move_from_bits(bits: u16) -> Option<Move> {
        Move::from_bits(bits)
    }
}

impl GameKnowledge for PoldrGame {
    fn evaluate(&self, position: &Position, player: usize) -> Option<i32> {
        if position.is_over() {
            return None;
        }
        let player = Seat::from_index(player).expect("a seat of the game");
        Some(self.evaluate_terms(position).score_for(player))
    }

    /// Turns that place or take back more bricks first: the race to the
    /// last brick, and to the most bricks, is most of the game.
    fn proof_priority(&self, position: &Position, mv: Move, _: &Position) -> i32 {
        position.bricks_moved_by(mv) as i32
    }

    /// Building turns each fill an empty cell at least; clearing turns each
    /// take back a brick at least, with fewer than `players` passes between.
    fn plies_left_bound(&self, position: &Position) -> Option<u32> {
        let players = position.players() as u32;
        let empty = position.empty().count();
        let bricks: u32 = position.seats().map(|seat| position.bricks(seat).count()).sum();
        Some(empty + (bricks + empty) * players + players)
    }

    fn symmetric_key(&self, position: &Position) -> (u64, usize) {
        position.symmetric_key()
    }

    fn transform_move(&self, position: &Position, mv: Move, symmetry: usize, inverse: bool) -> Move {
        position.transform_move(mv, symmetry, inverse)
    }

    fn expected_moves_left(&self, position: &Position) -> u32 {
        let mover = position.mover();
        (position.reserve(mover) as u32 + position.bricks(mover).count()) / 2 + 4
    }
}

impl SearchGame for PoldrGame {
    /// Proofs where at most 90 plies can be left, by a helper thread too.
    /// No lookahead in proofs: the shared form of a position is the least
    /// of its 8 symmetric images, too costly to work out for every child
    /// of every proof node (with it, proofs took half of a search's time at
    /// the start position).
    fn policy(&self) -> Policy {
        Policy {
            history_malus: false,
            futility_pruning: false,
            proof_horizon: 90,
            dedicated_proof_horizon: 90,
            proof_lookahead: false,
        }
    }
}
