//! The small value types every other rules module speaks: points, directions,
//! bitboards and sides, each with its notation.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};
use std::str::FromStr;

/// Files and ranks on the 6x6 grid.
pub const SIZE: u8 = 6;
/// Number of points on the board.
pub(crate) const POINTS: usize = 36;

/// One of the 36 points, `index = rank * 6 + file` (a1 = 0, f6 = 35).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Point(u8);

impl Point {
    /// Every point, a1 first.
    pub const ALL: [Point; POINTS] = {
        let mut all = [Point(0); POINTS];
        let mut i = 0;
        while i < POINTS {
            all[i] = Point(i as u8);
            i += 1;
        }
        all
    };

    /// The point with this index; `None` past f6.
    pub const fn from_index(index: usize) -> Option<Point> {
        if index < POINTS { Some(Point(index as u8)) } else { None }
    }

    /// The point at file `x` and rank `y` (both 0..6), if on the board.
    pub const fn from_coords(x: i8, y: i8) -> Option<Point> {
        if x >= 0 && x < SIZE as i8 && y >= 0 && y < SIZE as i8 {
            Some(Point((y as u8) * SIZE + x as u8))
        } else {
            None
        }
    }

    /// The point's index, `rank * 6 + file`: its bit in a `Bitboard`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File index 0..6 (a = 0).
    pub const fn file(self) -> i8 {
        (self.0 % SIZE) as i8
    }

    /// Rank index 0..6 (rank 1 = 0).
    pub const fn rank(self) -> i8 {
        (self.0 / SIZE) as i8
    }

    /// The neighbour one step away in `dir`, if it is on the board.
    pub const fn step(self, dir: Direction) -> Option<Point> {
        let (dx, dy) = dir.delta();
        Point::from_coords(self.file() + dx, self.rank() + dy)
    }

    pub(crate) const fn bit(self) -> Bitboard {
        Bitboard(1 << self.0)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = (b'a' + self.file() as u8) as char;
        let rank = (b'1' + self.rank() as u8) as char;
        write!(f, "{file}{rank}")
    }
}

/// Why a text is not a point. Each variant holds the text as given.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum PointParseError {
    /// Not two bytes long.
    #[error("'{text}' is not a point: expected a file a-f and a rank 1-6, like c3")]
    WrongLength {
        /// The text as given.
        text: String,
    },
    /// The first byte is not a file `a`-`f`.
    #[error("'{text}' is not a point: file must be a-f")]
    BadFile {
        /// The text as given.
        text: String,
    },
    /// The second byte is not a rank `1`-`6`.
    #[error("'{text}' is not a point: rank must be 1-6")]
    BadRank {
        /// The text as given.
        text: String,
    },
}

impl FromStr for Point {
    type Err = PointParseError;

    fn from_str(s: &str) -> Result<Point, PointParseError> {
        let bytes = s.as_bytes();
        if bytes.len() != 2 {
            return Err(PointParseError::WrongLength { text: s.to_string() });
        }
        let file = bytes[0].wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'1');
        if file >= SIZE {
            return Err(PointParseError::BadFile { text: s.to_string() });
        }
        if rank >= SIZE {
            return Err(PointParseError::BadRank { text: s.to_string() });
        }
        Ok(Point(rank * SIZE + file))
    }
}

/// The eight directions, named as seen from White, clockwise from north.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Direction {
    /// North: towards Black's side (rank 6).
    N,
    /// North-east.
    NE,
    /// East: towards the f-file.
    E,
    /// South-east.
    SE,
    /// South: towards White's side (rank 1).
    S,
    /// South-west.
    SW,
    /// West: towards the a-file.
    W,
    /// North-west.
    NW,
}

impl Direction {
    /// Every direction, clockwise from north: `ALL[d.index()] == d`.
    pub const ALL: [Direction; 8] = [
        Direction::N,
        Direction::NE,
        Direction::E,
        Direction::SE,
        Direction::S,
        Direction::SW,
        Direction::W,
        Direction::NW,
    ];

    /// 0 to 7, clockwise from north.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction of `index` modulo 8, so turning is addition.
    pub const fn from_index(index: usize) -> Direction {
        Direction::ALL[index % 8]
    }

    /// (file step, rank step).
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::N => (0, 1),
            Direction::NE => (1, 1),
            Direction::E => (1, 0),
            Direction::SE => (1, -1),
            Direction::S => (0, -1),
            Direction::SW => (-1, -1),
            Direction::W => (-1, 0),
            Direction::NW => (-1, 1),
        }
    }

    /// Change of point index for one step (valid only where the step stays on the board).
    pub(crate) const fn index_delta(self) -> i8 {
        let (dx, dy) = self.delta();
        dy * SIZE as i8 + dx
    }

    /// The opposite direction.
    pub(crate) const fn reverse(self) -> Direction {
        Direction::from_index(self.index() + 4)
    }

    /// The direction after turning the board a quarter turn clockwise.
    pub(crate) const fn turned_clockwise(self) -> Direction {
        Direction::from_index(self.index() + 2)
    }

    /// The name pod sets use, as `NE`.
    pub const fn name(self) -> &'static str {
        match self {
            Direction::N => "N",
            Direction::NE => "NE",
            Direction::E => "E",
            Direction::SE => "SE",
            Direction::S => "S",
            Direction::SW => "SW",
            Direction::W => "W",
            Direction::NW => "NW",
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a text is not a direction: it is none of the eight names.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("'{text}' is not a direction: expected one of N NE E SE S SW W NW")]
pub struct DirectionParseError {
    /// The text as given.
    pub text: String,
}

impl FromStr for Direction {
    type Err = DirectionParseError;

    fn from_str(s: &str) -> Result<Direction, DirectionParseError> {
        Direction::ALL.into_iter().find(|d| d.name() == s).ok_or_else(|| DirectionParseError { text: s.to_string() })
    }
}

/// A set of points, one bit per point index.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub(crate) const EMPTY: Bitboard = Bitboard(0);
    pub(crate) const FULL: Bitboard = Bitboard((1 << POINTS) - 1);

    /// Whether no point is in the set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many points are in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `point` is in the set.
    pub const fn contains(self, point: Point) -> bool {
        self.0 & (1 << point.0) != 0
    }

    /// The points whose neighbour in `dir` is in `self`: `result[p] = self[p + dir]`.
    /// Bits that wrap around a board edge, or around the word (a rotation
    /// needs no branch on the sign), are garbage; callers mask them with a
    /// line mask, which only holds points whose neighbour in `dir` exists.
    #[inline(always)]
    pub(crate) const fn pull(self, dir: Direction) -> Bitboard {
        self.pull_steps(dir, 1)
    }

    /// `pull` by `steps` steps at once: `result[p] = self[p + steps * dir]`,
    /// garbage where that point is off the board.
    #[inline(always)]
    pub(crate) const fn pull_steps(self, dir: Direction, steps: i8) -> Bitboard {
        Bitboard(self.0.rotate_right((dir.index_delta() * steps) as u32 & 63))
    }

    /// Every point numbered below the set's lowest one; all of them if the set is empty.
    #[inline(always)]
    pub(crate) const fn below_first(self) -> Bitboard {
        Bitboard((self.0 & self.0.wrapping_neg()).wrapping_sub(1))
    }

    /// Every point numbered above the set's highest one; all of them if the set is empty.
    #[inline(always)]
    pub(crate) const fn above_last(self) -> Bitboard {
        match u64::MAX.checked_shl(64 - self.0.leading_zeros()) {
            Some(bits) => Bitboard(bits),
            None => Bitboard::EMPTY,
        }
    }

    /// The lowest point in the set.
    pub fn first(self) -> Option<Point> {
        (self.0 != 0).then(|| Point(self.0.trailing_zeros() as u8))
    }

    /// The highest point in the set.
    pub fn last(self) -> Option<Point> {
        (self.0 != 0).then(|| Point(63 - self.0.leading_zeros() as u8))
    }
}

impl Iterator for Bitboard {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        if self.0 == 0 {
            return None;
        }
        let point = Point(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(point)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitOrAssign for Bitboard {
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitAndAssign for Bitboard {
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

/// Shown as a 6x6 grid, rank 6 on top, `x` for members.
impl fmt::Display for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..SIZE as i8).rev() {
            for file in 0..SIZE as i8 {
                let point = Point::from_coords(file, rank).expect("on the board");
                f.write_str(if self.contains(point) { "x" } else { "." })?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        Ok(())
    }
}

/// Why a text is not a bitboard. Each variant holds the whole text as given.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum BitboardParseError {
    /// The text does not split into 6 ranks at `/`; `found` is how many it has.
    #[error("'{text}' is not a bitboard: expected 6 ranks separated by '/'")]
    WrongRankCount {
        /// The text as given.
        text: String,
        /// How many ranks it has.
        found: usize,
    },
    /// Rank `rank` (1-6) is `cells` bytes long instead of 6.
    #[error("'{text}' is not a bitboard: rank {rank} has {cells} cells, not 6")]
    WrongRankLength {
        /// The text as given.
        text: String,
        /// The rank, 1 to 6.
        rank: u8,
        /// How many cells it has.
        cells: usize,
    },
    /// `cell` is neither `x` nor `.`.
    #[error("'{text}' is not a bitboard: '{cell}' is neither 'x' nor '.'")]
    BadCell {
        /// The text as given.
        text: String,
        /// The character that is neither.
        cell: char,
    },
}

impl FromStr for Bitboard {
    type Err = BitboardParseError;

    /// Reads the `Display` form back: six ranks of six `x` or `.` separated by `/`.
    fn from_str(s: &str) -> Result<Bitboard, BitboardParseError> {
        let ranks: Vec<&str> = s.split('/').collect();
        if ranks.len() != SIZE as usize {
            return Err(BitboardParseError::WrongRankCount { text: s.to_string(), found: ranks.len() });
        }
        let mut bits = Bitboard::EMPTY;
        for (row, rank) in ranks.iter().enumerate() {
            if rank.len() != SIZE as usize {
                return Err(BitboardParseError::WrongRankLength {
                    text: s.to_string(),
                    rank: SIZE - row as u8,
                    cells: rank.len(),
                });
            }
            for (file, c) in rank.chars().enumerate() {
                let point = Point::from_coords(file as i8, 5 - row as i8).expect("on the board");
                match c {
                    'x' => bits |= point.bit(),
                    '.' => {}
                    _ => return Err(BitboardParseError::BadCell { text: s.to_string(), cell: c }),
                }
            }
        }
        Ok(bits)
    }
}

/// The two players. White sits at rank 1 and moves first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Side {
    /// Moves first; its pods are written in uppercase.
    White,
    /// Moves second; its pods are written in lowercase.
    Black,
}

impl Side {
    /// Both sides, White first: `BOTH[side.index()] == side`.
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    /// 0 for White, 1 for Black.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    pub const fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// `White` or `Black`, for people (`Display` writes the notation's `w` or `b`).
    pub const fn name(self) -> &'static str {
        match self {
            Side::White => "White",
            Side::Black => "Black",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::White => "w",
            Side::Black => "b",
        })
    }
}

/// Why a text is not a side: it is neither `w` nor `b`.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("'{text}' is not a side: expected 'w' or 'b'")]
pub struct SideParseError {
    /// The text as given.
    pub text: String,
}

impl FromStr for Side {
    type Err = SideParseError;

    fn from_str(s: &str) -> Result<Side, SideParseError> {
        match s {
            "w" => Ok(Side::White),
            "b" => Ok(Side::Black),
            _ => Err(SideParseError { text: s.to_string() }),
        }
    }
}

/// The board's turn before the game, clockwise as seen from White.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub enum Rotation {
    /// Not turned: the board as drawn.
    #[default]
    R0,
    /// A quarter turn.
    R90,
    /// A half turn.
    R180,
    /// Three quarter turns.
    R270,
}

impl Rotation {
    /// Every rotation: `ALL[r.index()] == r`.
    pub const ALL: [Rotation; 4] = [Rotation::R0, Rotation::R90, Rotation::R180, Rotation::R270];

    /// 0 to 3: quarter turns clockwise.
    pub const fn index(self) -> usize {
        self as usize
    }

    pub(crate) const fn quarter_turns(self) -> usize {
        self as usize
    }

    pub(crate) const fn degrees(self) -> u32 {
        self as u32 * 90
    }
}

impl fmt::Display for Rotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.degrees())
    }
}

/// Why a text is not a rotation: it is none of `0`, `90`, `180`, `270`.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("'{text}' is not a rotation: expected 0, 90, 180 or 270")]
pub struct RotationParseError {
    /// The text as given.
    pub text: String,
}

impl FromStr for Rotation {
    type Err = RotationParseError;

    fn from_str(s: &str) -> Result<Rotation, RotationParseError> {
        match s {
            "0" => Ok(Rotation::R0),
            "90" => Ok(Rotation::R90),
            "180" => Ok(Rotation::R180),
            "270" => Ok(Rotation::R270),
            _ => Err(RotationParseError { text: s.to_string() }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_notation_round_trips_and_matches_the_index_rule() {
        assert_eq!("a1".parse::<Point>().unwrap().index(), 0);
        assert_eq!("b1".parse::<Point>().unwrap().index(), 1);
        assert_eq!("f1".parse::<Point>().unwrap().index(), 5);
        assert_eq!("a2".parse::<Point>().unwrap().index(), 6);
        assert_eq!("f6".parse::<Point>().unwrap().index(), 35);
        for point in Point::ALL {
            assert_eq!(point.to_string().parse::<Point>(), Ok(point));
        }
        for bad in ["", "a", "a0", "a7", "g1", "A1", "a11", "1a"] {
            assert!(bad.parse::<Point>().is_err(), "{bad}");
        }
        assert_eq!("a7".parse::<Point>(), Err(PointParseError::BadRank { text: "a7".into() }));
    }

    #[test]
    fn below_first_and_above_last_split_the_board_at_the_set_s_ends() {
        let set: Bitboard = ["b2", "e5"]
            .into_iter()
            .map(|name| name.parse::<Point>().unwrap().bit())
            .fold(Bitboard::EMPTY, |a, b| a | b);
        for point in Point::ALL {
            let (low, high) = (set.first().unwrap(), set.last().unwrap());
            assert_eq!(set.below_first().contains(point), point.index() < low.index(), "{point}");
            assert_eq!(set.above_last().contains(point), point.index() > high.index(), "{point}");
            assert!(Bitboard::EMPTY.below_first().contains(point) && Bitboard::EMPTY.above_last().contains(point));
        }
    }

    #[test]
    fn pull_moves_membership_against_the_direction() {
        let c3: Point = "c3".parse().unwrap();
        for dir in Direction::ALL {
            let neighbour = c3.step(dir).unwrap();
            assert_eq!(neighbour.bit().pull(dir), c3.bit(), "{dir}");
            assert_eq!(dir.reverse().reverse(), dir);
        }
    }

    #[test]
    fn bitboard_notation_round_trips() {
        let bits = Bitboard(0b1011 << 7 | 1 << 35);
        assert_eq!(bits.to_string().parse::<Bitboard>(), Ok(bits));
        assert!("xx".parse::<Bitboard>().is_err());
    }
}
