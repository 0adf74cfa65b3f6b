//! The small values of POLD.R: cells, sets of cells, seats and phases, each
//! with its notation.

use std::fmt;
use std::str::FromStr;

/// The largest board side the rules allow.
pub(crate) const MAX_SIZE: u8 = 9;
pub(crate) const MIN_SIZE: u8 = 4;
/// Cells are numbered `rank * MAX_SIZE + file` whatever the board's size, so
/// a cell means the same on every board.
pub(crate) const CELLS: usize = (MAX_SIZE * MAX_SIZE) as usize;
pub(crate) const MAX_PLAYERS: usize = 3;
pub(crate) const MAX_BRICKS: u8 = 40;

/// A cell of the board, `a1` at the bottom left.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Cell(u8);

impl Cell {
    /// The cell of `file` and `rank` (from 0), if the largest board has it.
    pub fn new(file: u8, rank: u8) -> Option<Cell> {
        (file < MAX_SIZE && rank < MAX_SIZE).then_some(Cell(rank * MAX_SIZE + file))
    }

    /// The cell of `index` (`rank * MAX_SIZE + file`), if the largest board has it.
    pub fn from_index(index: usize) -> Option<Cell> {
        (index < CELLS).then_some(Cell(index as u8))
    }

    /// `rank * MAX_SIZE + file`: the same on every board size.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, from 0 for `a`.
    pub fn file(self) -> u8 {
        self.0 % MAX_SIZE
    }

    /// The rank, from 0 for `1`.
    pub fn rank(self) -> u8 {
        self.0 / MAX_SIZE
    }

    pub(crate) fn bit(self) -> Cells {
        Cells(1 << self.0)
    }

    /// Whether a board of `size` has this cell.
    pub fn is_on(self, size: u8) -> bool {
        self.file() < size && self.rank() < size
    }
}

/// Why a text is not a cell.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CellParseError {
    /// Not a letter `a`-`i` followed by a digit `1`-`9`.
    #[error("'{0}' is not a cell: write a file a-i and a rank 1-9, as c3")]
    Malformed(String),
}

impl FromStr for Cell {
    type Err = CellParseError;

    fn from_str(text: &str) -> Result<Cell, CellParseError> {
        let malformed = || CellParseError::Malformed(text.to_string());
        match text.as_bytes() {
            &[file @ b'a'..=b'i', rank @ b'1'..=b'9'] => Cell::new(file - b'a', rank - b'1').ok_or_else(malformed),
            _ => Err(malformed()),
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// A set of cells, one bit per cell index.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub(crate) struct Cells(pub u128);

impl Cells {
    pub(crate) const EMPTY: Cells = Cells(0);

    pub fn count(self) -> u32 {
        self.0.count_ones()
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn contains(self, cell: Cell) -> bool {
        self.0 >> cell.index() & 1 != 0
    }

    pub fn first(self) -> Option<Cell> {
        (self.0 != 0).then(|| Cell(self.0.trailing_zeros() as u8))
    }
}

impl std::ops::BitOr for Cells {
    type Output = Cells;
    fn bitor(self, other: Cells) -> Cells {
        Cells(self.0 | other.0)
    }
}

impl std::ops::BitAnd for Cells {
    type Output = Cells;
    fn bitand(self, other: Cells) -> Cells {
        Cells(self.0 & other.0)
    }
}

impl std::ops::Not for Cells {
    type Output = Cells;
    fn not(self) -> Cells {
        Cells(!self.0)
    }
}

impl std::ops::BitOrAssign for Cells {
    fn bitor_assign(&mut self, other: Cells) {
        self.0 |= other.0;
    }
}

impl std::ops::BitAndAssign for Cells {
    fn bitand_assign(&mut self, other: Cells) {
        self.0 &= other.0;
    }
}

impl Iterator for Cells {
    type Item = Cell;

    fn next(&mut self) -> Option<Cell> {
        let cell = self.first()?;
        self.0 &= self.0 - 1;
        Some(cell)
    }
}

/// A player's seat, in turn order: Blue, Yellow, Red.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Seat {
    /// Plays first; its marker is `B`, its bricks `b`.
    Blue,
    /// Plays second; its marker is `Y`, its bricks `y`.
    Yellow,
    /// Plays third, in a game of 3; its marker is `R`, its bricks `r`.
    Red,
}

impl Seat {
    /// Every seat in turn order: `ALL[s.index()] == s`.
    pub const ALL: [Seat; 3] = [Seat::Blue, Seat::Yellow, Seat::Red];

    /// 0 for Blue, 1 for Yellow, 2 for Red.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The seat of `index`, if there is one.
    pub fn from_index(index: usize) -> Option<Seat> {
        Seat::ALL.get(index).copied()
    }

    /// `Blue`, `Yellow` or `Red`, for people.
    pub fn name(self) -> &'static str {
        match self {
            Seat::Blue => "Blue",
            Seat::Yellow => "Yellow",
            Seat::Red => "Red",
        }
    }

    /// The letter of this seat's marker; its bricks are the lowercase letter.
    pub(crate) fn marker_letter(self) -> char {
        match self {
            Seat::Blue => 'B',
            Seat::Yellow => 'Y',
            Seat::Red => 'R',
        }
    }

    pub(crate) fn brick_letter(self) -> char {
        self.marker_letter().to_ascii_lowercase()
    }
}

/// Why a text is not a seat.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeatParseError {
    /// Not `b`, `y` or `r` (the text as given).
    #[error("'{0}' is not a player: write b, y or r")]
    Unknown(String),
}

/// The side-to-move letter of a position line: `b`, `y` or `r`.
impl FromStr for Seat {
    type Err = SeatParseError;

    fn from_str(text: &str) -> Result<Seat, SeatParseError> {
        match text {
            "b" => Ok(Seat::Blue),
            "y" => Ok(Seat::Yellow),
            "r" => Ok(Seat::Red),
            _ => Err(SeatParseError::Unknown(text.to_string())),
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.brick_letter())
    }
}

/// Building (placing bricks) or clearing (taking them back).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Phase {
    /// Players place bricks (phase 1).
    Building,
    /// Players take their bricks back (phase 2).
    Clearing,
}

impl Phase {
    /// 1 or 2, as the position line writes it.
    pub fn number(self) -> u8 {
        match self {
            Phase::Building => 1,
            Phase::Clearing => 2,
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_and_write_chess_style() {
        assert_eq!("a1".parse::<Cell>().unwrap(), Cell::new(0, 0).unwrap());
        assert_eq!("i9".parse::<Cell>().unwrap().to_string(), "i9");
        assert_eq!("c3".parse::<Cell>().unwrap().rank(), 2);
        for bad in ["", "a", "a0", "j1", "A1", "a10", "1a", "c3 "] {
            assert!(bad.parse::<Cell>().is_err(), "{bad}");
        }
    }

    #[test]
    fn cell_sets_iterate_in_index_order() {
        let set = "b2".parse::<Cell>().unwrap().bit() | "a1".parse::<Cell>().unwrap().bit();
        assert_eq!(set.map(|cell| cell.to_string()).collect::<Vec<_>>(), ["a1", "b2"]);
        assert_eq!(set.count(), 2);
    }
}
