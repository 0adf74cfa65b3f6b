//! `Rules`: everything fixed for a game (variant, board, pod set, options) and
//! the tables computed from it once, so move generation is mask arithmetic.

use std::fmt;
use std::str::FromStr;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use super::board::Board;
use super::pods::{MAX_PODS, Pod, PodMask, PodSet};
use super::types::{Bitboard, Direction, POINTS, Point, Rotation, Side};

/// Which game is played.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Variant {
    /// Place only.
    #[default]
    Standard,
    /// Place or move; blocked pods come off.
    Advanced,
}

impl Variant {
    /// Both variants, the default first.
    pub const ALL: [Variant; 2] = [Variant::Standard, Variant::Advanced];
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Variant::Standard => "standard",
            Variant::Advanced => "advanced",
        })
    }
}

/// Why a text is not a variant: it is neither `standard` nor `advanced`
/// (in any case).
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("'{text}' is not a variant: expected 'standard' or 'advanced'")]
pub struct VariantParseError {
    /// The text as given.
    pub text: String,
}

impl FromStr for Variant {
    type Err = VariantParseError;

    fn from_str(s: &str) -> Result<Variant, VariantParseError> {
        match s.to_ascii_lowercase().as_str() {
            "standard" => Ok(Variant::Standard),
            "advanced" => Ok(Variant::Advanced),
            _ => Err(VariantParseError { text: s.to_string() }),
        }
    }
}

/// Random keys for Zobrist hashing, the same on every run and machine.
#[derive(Clone)]
pub struct ZobristKeys {
    pub board: [[[u64; POINTS]; MAX_PODS]; 2],
    pub hand: [[u64; MAX_PODS]; 2],
    pub black_to_move: u64,
    pub rotation: [u64; 4],
}

impl ZobristKeys {
    const SEED: u64 = 0x506f_6469_756d_2121; // "Podium!!"

    fn new() -> ZobristKeys {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(Self::SEED);
        let mut keys = ZobristKeys {
            board: [[[0; POINTS]; MAX_PODS]; 2],
            hand: [[0; MAX_PODS]; 2],
            black_to_move: 0,
            rotation: [0; 4],
        };
        for side in keys.board.iter_mut() {
            for pod in side.iter_mut() {
                for key in pod.iter_mut() {
                    *key = rng.next_u64();
                }
            }
        }
        for side in keys.hand.iter_mut() {
            for key in side.iter_mut() {
                *key = rng.next_u64();
            }
        }
        keys.black_to_move = rng.next_u64();
        for key in keys.rotation.iter_mut() {
            *key = rng.next_u64();
        }
        keys
    }
}

/// Leg directions of one pod of one side, as direction bit masks.
#[derive(Clone, Copy, Default)]
pub(crate) struct LegMasks {
    /// Every leg direction (liberties use the first step of long legs too).
    pub all: u8,
    pub long: u8,
}

impl LegMasks {
    pub fn short(self) -> u8 {
        self.all & !self.long
    }
}

/// What the board looks like under one rotation.
pub(crate) struct Geometry {
    /// Points joined to their neighbour in each direction.
    pub links: [Bitboard; 8],
    /// The points a long leg reaches from each point in each direction,
    /// through pods, until a line is missing.
    pub rays: [[Bitboard; POINTS]; 8],
    /// Points attacked by each side's pod standing on each point.
    pub attacks: [[[Bitboard; POINTS]; MAX_PODS]; 2],
    /// First steps of each side's pod's legs from each point (its possible liberties).
    pub first_steps: [[[Bitboard; POINTS]; MAX_PODS]; 2],
    /// The same for short legs alone: where such a leg can step.
    pub short_steps: [[[Bitboard; POINTS]; MAX_PODS]; 2],
    /// The points joined to each point by a line: where pods stand that a
    /// pod on that point could block.
    pub neighbours: [Bitboard; POINTS],
    /// The other way round: the points from which each side's pod would attack each point.
    pub reverse_attacks: [[[Bitboard; POINTS]; MAX_PODS]; 2],
    /// The points where each side's pod would have each point among its first steps.
    pub reverse_first_steps: [[[Bitboard; POINTS]; MAX_PODS]; 2],
}

impl Geometry {
    /// The points a placement of `pod` by `side` on `to` closes to the
    /// opponent: the point itself and every point the pod attacks from it.
    #[inline(always)]
    pub(crate) fn closed_by_placement(&self, side: Side, pod: Pod, to: Point) -> Bitboard {
        to.bit() | self.attacks[side.index()][pod.index()][to.index()]
    }

    /// The points from which a long leg in `dir` reaches a point of `set`:
    /// along linked points, through whatever stands between.
    #[inline(always)]
    pub(crate) fn long_leg_hits(&self, dir: Direction, set: Bitboard) -> Bitboard {
        let links = self.links[dir.index()];
        // Grow backwards from the set by 1, 2 and 4 steps (a line is at most
        // five steps long), each only where every step is linked.
        let mut reach = set;
        let mut linked = links;
        reach |= linked & reach.pull_steps(dir, 1);
        linked &= linked.pull_steps(dir, 1);
        reach |= linked & reach.pull_steps(dir, 2);
        linked &= linked.pull_steps(dir, 2);
        reach |= linked & reach.pull_steps(dir, 4);
        links & reach.pull(dir)
    }

    fn new(board: &Board, pods: &PodSet, legs: &[[LegMasks; MAX_PODS]; 2]) -> Box<Geometry> {
        let mut geometry = Box::new(Geometry {
            links: [Bitboard::EMPTY; 8],
            rays: [[Bitboard::EMPTY; POINTS]; 8],
            attacks: [[[Bitboard::EMPTY; POINTS]; MAX_PODS]; 2],
            first_steps: [[[Bitboard::EMPTY; POINTS]; MAX_PODS]; 2],
            short_steps: [[[Bitboard::EMPTY; POINTS]; MAX_PODS]; 2],
            neighbours: [Bitboard::EMPTY; POINTS],
            reverse_attacks: [[[Bitboard::EMPTY; POINTS]; MAX_PODS]; 2],
            reverse_first_steps: [[[Bitboard::EMPTY; POINTS]; MAX_PODS]; 2],
        });
        for dir in Direction::ALL {
            geometry.links[dir.index()] = board.links(dir);
            for from in Point::ALL {
                let mut ray = Bitboard::EMPTY;
                let mut at = from;
                while board.is_linked(at, dir) {
                    at = at.step(dir).expect("a line leads to a point");
                    ray |= at.bit();
                }
                geometry.rays[dir.index()][from.index()] = ray;
                if board.is_linked(from, dir) {
                    let to = from.step(dir).expect("a line leads to a point");
                    geometry.neighbours[to.index()] |= from.bit();
                }
            }
        }
        for side in Side::BOTH {
            for pod in pods.all() {
                let masks = legs[side.index()][pod.index()];
                for at in Point::ALL {
                    let mut attacks = Bitboard::EMPTY;
                    let mut first_steps = Bitboard::EMPTY;
                    let mut short_steps = Bitboard::EMPTY;
                    for dir in Direction::ALL {
                        let bit = 1 << dir.index();
                        if masks.all & bit == 0 || !board.is_linked(at, dir) {
                            continue;
                        }
                        let step = at.step(dir).expect("linked").bit();
                        first_steps |= step;
                        if masks.long & bit == 0 {
                            short_steps |= step;
                        }
                        attacks |= if masks.long & bit != 0 { geometry.rays[dir.index()][at.index()] } else { step };
                    }
                    geometry.attacks[side.index()][pod.index()][at.index()] = attacks;
                    geometry.first_steps[side.index()][pod.index()][at.index()] = first_steps;
                    geometry.short_steps[side.index()][pod.index()][at.index()] = short_steps;
                    for target in attacks {
                        geometry.reverse_attacks[side.index()][pod.index()][target.index()] |= at.bit();
                    }
                    for step in first_steps {
                        geometry.reverse_first_steps[side.index()][pod.index()][step.index()] |= at.bit();
                    }
                }
            }
        }
        geometry
    }
}

/// Everything fixed for a game, and the tables derived from it.
pub struct Rules {
    variant: Variant,
    placement_liberty: bool,
    board: Board,
    pods: PodSet,
    pub(crate) legs: [[LegMasks; MAX_PODS]; 2],
    pub(crate) bipods: PodMask,
    pub(crate) geometry: [Box<Geometry>; 4],
    pub(crate) zobrist: ZobristKeys,
}

impl Rules {
    /// `placement_liberty` only matters in the advanced game: it makes
    /// placements need a liberty as in the standard game.
    pub fn new(variant: Variant, board: Board, pods: PodSet, placement_liberty: bool) -> Rules {
        let mut legs = [[LegMasks::default(); MAX_PODS]; 2];
        for side in Side::BOTH {
            for pod in pods.all() {
                let masks = &mut legs[side.index()][pod.index()];
                for leg in pods.shape(pod).legs_for(side) {
                    masks.all |= 1 << leg.direction.index();
                    if leg.long {
                        masks.long |= 1 << leg.direction.index();
                    }
                }
            }
        }
        let geometry = Rotation::ALL.map(|rotation| Geometry::new(&board.rotated(rotation), &pods, &legs));
        Rules {
            variant,
            placement_liberty,
            bipods: pods.bipods(),
            board,
            pods,
            legs,
            geometry,
            zobrist: ZobristKeys::new(),
        }
    }

    /// The default board and pod set.
    pub fn default_for(variant: Variant) -> Rules {
        Rules::new(variant, Board::default(), PodSet::default(), false)
    }

    /// The standard or the advanced game.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The option that makes advanced placements need a liberty, as set
    /// (`placement_needs_liberty` says whether a placement needs one).
    pub fn placement_liberty(&self) -> bool {
        self.placement_liberty
    }

    /// Whether a placement needs a liberty in this game.
    pub(crate) fn placement_needs_liberty(&self) -> bool {
        self.variant == Variant::Standard || self.placement_liberty
    }

    /// The board as drawn, before rotation.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The pod set both sides play with.
    pub fn pods(&self) -> &PodSet {
        &self.pods
    }

    pub(crate) fn geometry(&self, rotation: Rotation) -> &Geometry {
        &self.geometry[rotation.index()]
    }
}

impl Clone for Rules {
    fn clone(&self) -> Rules {
        Rules::new(self.variant, self.board, self.pods.clone(), self.placement_liberty)
    }
}

impl fmt::Debug for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rules")
            .field("variant", &self.variant)
            .field("placement_liberty", &self.placement_liberty)
            .field("board", &self.board.one_line())
            .field("pods", &self.pods.to_string())
            .finish()
    }
}
