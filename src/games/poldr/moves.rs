//! POLD.R moves and their notation: `Pc3`, `Mc5`, `Pc3Mc5`, `pass`.

use std::fmt;
use std::str::FromStr;

use super::types::{Cell, CellParseError};

/// One turn. Whether it builds or clears depends on the position, not on the move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// The first turn of the game: the pawn, then the mover's marker.
    Opening {
        /// Where the pawn is put.
        pawn: Cell,
        /// Where the mover's marker is put.
        marker: Cell,
    },
    /// The pawn moves (or is put) to a cell.
    Pawn(Cell),
    /// The mover's marker moves (or is put) to a cell.
    Marker(Cell),
    /// The clearing-phase pass of a player who cannot clear.
    Pass,
}

impl Move {
    /// 16 bits for the transposition table: a 2-bit kind and two 7-bit cells.
    pub fn to_bits(self) -> u16 {
        let (kind, first, second) = match self {
            Move::Opening { pawn, marker } => (0, pawn.index(), marker.index()),
            Move::Pawn(cell) => (1, cell.index(), 0),
            Move::Marker(cell) => (2, cell.index(), 0),
            Move::Pass => (3, 0, 0),
        };
        (kind | first << 2 | second << 9) as u16
    }

    /// The move `to_bits` packed, if `bits` holds cells of the board.
    pub fn from_bits(bits: u16) -> Option<Move> {
        let cell = |shift: u16| Cell::from_index((bits >> shift & 0x7f) as usize);
        match bits & 3 {
            0 => Some(Move::Opening { pawn: cell(2)?, marker: cell(9)? }),
            1 => Some(Move::Pawn(cell(2)?)),
            2 => Some(Move::Marker(cell(2)?)),
            _ => Some(Move::Pass),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Opening { pawn, marker } => write!(f, "P{pawn}M{marker}"),
            Move::Pawn(cell) => write!(f, "P{cell}"),
            Move::Marker(cell) => write!(f, "M{cell}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// The forms of a move, for the errors about one that does not read.
const FORMS: &str = "write Pc3 (pawn), Mc3 (marker), Pc3Mc5 (first turn) or pass";

/// Why a text is not a move at all (as opposed to a move that is illegal).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveParseError {
    /// No text at all.
    #[error("empty move: {FORMS}")]
    Empty,
    /// Not `P`/`M` followed by a cell, `P<cell>M<cell>` or `pass`.
    #[error("'{0}' is not a move: {FORMS}")]
    Malformed(String),
    /// A move whose cell does not read.
    #[error("'{text}' is not a move: {error}")]
    BadCell {
        /// The move as given.
        text: String,
        /// Why the cell does not read.
        error: CellParseError,
    },
}

impl FromStr for Move {
    type Err = MoveParseError;

    fn from_str(text: &str) -> Result<Move, MoveParseError> {
        if text.is_empty() {
            return Err(MoveParseError::Empty);
        }
        if text == "pass" {
            return Ok(Move::Pass);
        }
        let malformed = || MoveParseError::Malformed(text.to_string());
        let cell = |part: &str| {
            part.parse::<Cell>().map_err(|error| MoveParseError::BadCell { text: text.to_string(), error })
        };
        let piece = |letter: u8| match letter {
            b'P' | b'p' => Some(true),
            b'M' | b'm' => Some(false),
            _ => None,
        };
        if !text.is_ascii() {
            return Err(malformed());
        }
        let bytes = text.as_bytes();
        match bytes.len() {
            3 => match piece(bytes[0]).ok_or_else(malformed)? {
                true => Ok(Move::Pawn(cell(&text[1..])?)),
                false => Ok(Move::Marker(cell(&text[1..])?)),
            },
            6 if piece(bytes[0]) == Some(true) && piece(bytes[3]) == Some(false) => {
                Ok(Move::Opening { pawn: cell(&text[1..3])?, marker: cell(&text[4..])? })
            }
            _ => Err(malformed()),
        }
    }
}

/// Why a well-formed move cannot be played in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// A cell outside this board.
    #[error("{0} is not on this board")]
    OffBoard(Cell),
    /// The first turn of the game names the pawn and the marker, `Pc3Mc5`.
    #[error("the first turn puts the pawn and the marker in one move, as Pc3Mc5")]
    OpeningExpected,
    /// Only the first turn of the game puts both pieces.
    #[error("only the first turn of the game puts both pawn and marker")]
    NotTheOpening,
    /// A player's first turn puts their marker; the pawn stays.
    #[error("a player's first turn puts their marker (the pawn stays)")]
    MarkerFirst,
    /// The pawn or the marker would go to a cell that holds a piece.
    #[error("{0} is not empty")]
    Occupied(Cell),
    /// The pawn and the marker would not be aligned (adjacent cells are not).
    #[error("the pawn and the marker would not be aligned with a cell between them")]
    NotAligned,
    /// Building: the interval would have no empty cell to fill.
    #[error("the interval would have no empty cell to fill")]
    NothingToFill,
    /// Building: the interval has more empty cells than the mover has bricks.
    #[error("the interval needs {needed} bricks and the reserve holds {reserve}")]
    TooFewBricks {
        /// How many empty cells the interval has.
        needed: u32,
        /// The mover's reserve.
        reserve: u8,
    },
    /// Clearing: the interval would hold none of the mover's bricks.
    #[error("the interval would hold none of the mover's bricks")]
    NothingToClear,
    /// Passing is legal only for a player who cannot clear.
    #[error("a player may pass only when they cannot clear")]
    CannotPass,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_read_and_write_as_the_rules_write_them() {
        for text in ["Pc3", "Mc5", "Pa1Me5", "pass", "Pi9"] {
            assert_eq!(text.parse::<Move>().unwrap().to_string(), text);
        }
        assert_eq!("pc3".parse::<Move>().unwrap().to_string(), "Pc3");
        assert_eq!("pa1me5".parse::<Move>().unwrap().to_string(), "Pa1Me5");
        for bad in ["", "Xc3", "P", "Pc", "Pj3", "Pc0", "Mc3Pa1", "Pc3Pa1", "PASS", "pas", "Pc3 ", "Pé3"] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
    }

    #[test]
    fn every_move_survives_the_table_packing() {
        let cells = ["a1", "e5", "i9", "c7"].map(|text| text.parse::<Cell>().unwrap());
        let mut moves = vec![Move::Pass];
        for &a in &cells {
            moves.extend([Move::Pawn(a), Move::Marker(a)]);
            for &b in &cells {
                moves.push(Move::Opening { pawn: a, marker: b });
            }
        }
        for mv in moves {
            assert_eq!(Move::from_bits(mv.to_bits()), Some(mv));
        }
    }
}
