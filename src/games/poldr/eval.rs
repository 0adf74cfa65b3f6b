//! The static evaluation of POLD.R: each player's bricks in reserve and,
//! while clearing, the bricks a turn could take back, weighed against the
//! best of the other players.

use std::fmt;

use super::position::Position;
use super::types::{Cells, Phase, Seat};

/// Evaluation weights (the values played are in `Tunables`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Weights {
    /// Building: per brick still in reserve (fewer is better: the last brick wins).
    pub(crate) building_reserve: i32,
    /// Clearing: per brick in reserve (the most bricks win at the end).
    pub(crate) clearing_reserve: i32,
    /// Clearing: per own brick that a turn could take back now.
    pub(crate) clearable_brick: i32,
}

/// One player's evaluation terms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SeatTerms {
    /// The bricks in reserve, weighed by phase.
    pub reserve: i32,
    /// The bricks a turn could take back now (clearing only).
    pub(crate) clearable: i32,
}

impl SeatTerms {
    /// The player's own total.
    pub fn total(&self) -> i32 {
        self.reserve + self.clearable
    }
}

/// The evaluation split into its terms: each player's own, and the score of
/// one player (their total against the best of the others).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EvalTerms {
    /// Whether the clearing phase's terms apply (clearing, or blocked).
    pub(crate) clearing: bool,
    /// Each player's terms.
    pub seats: Vec<(Seat, SeatTerms)>,
}

impl EvalTerms {
    /// The score for `player`: its total less the best of the others'.
    pub(crate) fn score_for(&self, player: Seat) -> i32 {
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

/// The evaluation's terms for every player of `position`.
pub(super) fn evaluate_terms(position: &Position, weights: &Weights) -> EvalTerms {
    let clearing = position.phase() == Phase::Clearing || position.is_blocked();
    let seats = position
        .seats()
        .map(|seat| {
            let reserve = position.reserve(seat) as i32;
            let terms = if clearing {
                SeatTerms {
                    reserve: weights.clearing_reserve * reserve,
                    clearable: weights.clearable_brick * clearable_bricks(position, seat).count() as i32,
                }
            } else {
                SeatTerms { reserve: weights.building_reserve * reserve, clearable: 0 }
            };
            (seat, terms)
        })
        .collect();
    EvalTerms { clearing, seats }
}
