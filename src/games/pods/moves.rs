//! Moves and their notation: `A@c3` places a pod, `c3c5` moves one (spec section 7).

use std::fmt;
use std::str::FromStr;

use super::pods::{Pod, PodParseError};
use super::types::{POINTS, Point, PointParseError};

/// A placement or a move of a pod on the board, packed in 16 bits so the
/// transposition table can store it: bits 0-5 the target point, bits 6-11 the
/// source point or the pod, bit 12 set for a move on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

const STEP_FLAG: u16 = 1 << 12;

/// What a move's letters mean, for code that branches on the kind of move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveKind {
    /// A pod from the hand put on an empty point, `A@c3`.
    Place {
        /// The pod placed.
        pod: Pod,
        /// The point it is placed on.
        to: Point,
    },
    /// A pod on the board moved along one of its legs, `c3c5`.
    Step {
        /// The point the pod leaves.
        from: Point,
        /// The point it reaches.
        to: Point,
    },
}

impl Move {
    /// Placing `pod` on `to`.
    pub const fn place(pod: Pod, to: Point) -> Move {
        Move((pod.index() as u16) << 6 | to.index() as u16)
    }

    /// Moving the pod on `from` to `to`.
    pub const fn step(from: Point, to: Point) -> Move {
        Move(STEP_FLAG | (from.index() as u16) << 6 | to.index() as u16)
    }

    /// The move unpacked: a placement or a move on the board.
    pub fn kind(self) -> MoveKind {
        let to = self.to();
        let source = (self.0 >> 6 & 63) as usize;
        if self.0 & STEP_FLAG != 0 {
            MoveKind::Step { from: Point::from_index(source).expect("packed point"), to }
        } else {
            MoveKind::Place { pod: Pod::from_index(source).expect("packed pod"), to }
        }
    }

    /// The point the pod ends on, whatever the kind of move.
    pub fn to(self) -> Point {
        Point::from_index((self.0 & 63) as usize).expect("packed point")
    }

    /// The 16-bit packing, for storage.
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// Unpacks stored bits; `None` for bits no `Move` produces.
    pub fn from_bits(bits: u16) -> Option<Move> {
        let to = (bits & 63) as usize;
        let source = (bits >> 6 & 63) as usize;
        let valid = bits >> 13 == 0
            && to < POINTS
            && if bits & STEP_FLAG != 0 { source < POINTS } else { Pod::from_index(source).is_some() };
        valid.then_some(Move(bits))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            MoveKind::Place { pod, to } => write!(f, "{pod}@{to}"),
            MoveKind::Step { from, to } => write!(f, "{from}{to}"),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a text is not a move at all (as opposed to a move that is illegal).
/// Each variant holds the whole text as given.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum MoveParseError {
    /// A placement whose text before `@` is not one pod letter.
    #[error("'{text}' is not a move: before '@' must stand one pod letter (write A@c3 to place, c3c5 to move)")]
    BadPod {
        /// The move as given.
        text: String,
        /// Why the pod letter does not read.
        error: PodParseError,
    },
    /// A placement whose text after `@` is not a point.
    #[error("'{text}' is not a move: after '@' must stand a point a1-f6 (write A@c3 to place, c3c5 to move)")]
    BadPlacementPoint {
        /// The move as given.
        text: String,
        /// Why the point does not read.
        error: PointParseError,
    },
    /// Not a placement, and not 4 ASCII characters as a move on the board is.
    #[error(
        "'{text}' is not a move: expected 4 characters for a move on the board (write A@c3 to place, c3c5 to move)"
    )]
    WrongLength {
        /// The move as given.
        text: String,
    },
    /// A move on the board whose first two characters are not a point.
    #[error("'{text}' is not a move: the first point is not a1-f6 (write A@c3 to place, c3c5 to move)")]
    BadFrom {
        /// The move as given.
        text: String,
        /// Why the first point does not read.
        error: PointParseError,
    },
    /// A move on the board whose last two characters are not a point.
    #[error("'{text}' is not a move: the second point is not a1-f6 (write A@c3 to place, c3c5 to move)")]
    BadTo {
        /// The move as given.
        text: String,
        /// Why the second point does not read.
        error: PointParseError,
    },
    /// A move on the board from `point` to `point` itself.
    #[error("'{text}' is not a move: a pod must leave its point (write A@c3 to place, c3c5 to move)")]
    SamePoint {
        /// The move as given.
        text: String,
        /// The point named twice.
        point: Point,
    },
}

impl FromStr for Move {
    type Err = MoveParseError;

    fn from_str(s: &str) -> Result<Move, MoveParseError> {
        let text = || s.to_string();
        if let Some((pod, to)) = s.split_once('@') {
            let pod: Pod = pod.parse().map_err(|error| MoveParseError::BadPod { text: text(), error })?;
            let to: Point = to.parse().map_err(|error| MoveParseError::BadPlacementPoint { text: text(), error })?;
            return Ok(Move::place(pod, to));
        }
        if s.len() != 4 || !s.is_ascii() {
            return Err(MoveParseError::WrongLength { text: text() });
        }
        let from: Point = s[..2].parse().map_err(|error| MoveParseError::BadFrom { text: text(), error })?;
        let to: Point = s[2..].parse().map_err(|error| MoveParseError::BadTo { text: text(), error })?;
        if from == to {
            return Err(MoveParseError::SamePoint { text: text(), point: from });
        }
        Ok(Move::step(from, to))
    }
}

/// Why a well-formed move cannot be played in a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum Illegal {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// A placement of a letter beyond the game's pod set.
    #[error("no such pod in this pod set")]
    UnknownPod,
    /// A placement of a pod the mover does not hold.
    #[error("that pod is not in your hand")]
    NotInHand,
    /// A placement on a point that holds a pod.
    #[error("the point is occupied")]
    Occupied,
    /// A placement on a point an opponent's pod attacks.
    #[error("the point is attacked by an opponent pod")]
    Attacked,
    /// A placement from which the pod would attack an opponent's pod.
    #[error("the pod would attack an opponent pod")]
    WouldAttack,
    /// A placement where the pod would have no liberty, where the game asks for one.
    #[error("the pod would have no liberty")]
    NoLiberty,
    /// The game's first move places a pod that is not two-legged.
    #[error("the first move must place a two-legged pod")]
    NotBipodFirstMove,
    /// A move on the board at ply 0, where the first move is a placement.
    #[error("no pod may move on the first move")]
    FirstMoveMustPlace,
    /// A move on the board in the standard game, where pods never move.
    #[error("pods on the board never move in the standard game")]
    MovesNotAllowed,
    /// A move from an empty point.
    #[error("there is no pod on that point")]
    NoPodThere,
    /// A move of the opponent's pod.
    #[error("that pod is not yours")]
    NotYourPod,
    /// A move to a point that none of the pod's legs points to.
    #[error("the pod has no leg reaching that point")]
    NotAlongALeg,
    /// A move whose path has a pod on it or leaves the board's lines.
    #[error("the path is blocked or has no line")]
    BlockedPath,
}

/// Most moves a position can have: every pod on every point, plus moves.
pub(crate) const MAX_MOVES: usize = 1024;

/// A fixed-capacity list of moves, filled by move generation without allocating.
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList { moves: [Move(0); MAX_MOVES], len: 0 }
    }

    /// Adds a move; a position never has more than `MAX_MOVES`.
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// How many moves the list holds.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list holds no move.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(crate) fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_notation_round_trips() {
        for text in ["A@c3", "N@f6", "P@a1", "c3c5", "a1f6"] {
            let mv: Move = text.parse().unwrap();
            assert_eq!(mv.to_string(), text);
            assert_eq!(Move::from_bits(mv.to_bits()), Some(mv));
        }
        assert_eq!("a@c3".parse::<Move>().unwrap().to_string(), "A@c3");
    }

    #[test]
    fn malformed_moves_are_errors() {
        for text in ["", "A@", "@c3", "AB@c3", "A@g3", "c3", "c3c", "c3c3", "c3c7", "Q@c3", "c3-c5", "é@c3", "a1ä"] {
            assert!(text.parse::<Move>().is_err(), "{text}");
        }
        let c3: Point = "c3".parse().unwrap();
        assert_eq!("c3c3".parse::<Move>(), Err(MoveParseError::SamePoint { text: "c3c3".into(), point: c3 }));
        assert_eq!(
            "zz".parse::<Move>().unwrap_err().to_string(),
            "'zz' is not a move: expected 4 characters for a move on the board (write A@c3 to place, c3c5 to move)"
        );
    }

    #[test]
    fn bits_no_move_produces_are_rejected() {
        assert_eq!(Move::from_bits(40), None);
        assert_eq!(Move::from_bits(1 << 13), None);
        assert_eq!(Move::from_bits(STEP_FLAG | 36 << 6), None);
    }
}
