//! The board: which neighbouring points a line joins, read from and written to
//! the 11x11 picture (spec section 2), and turned for the four rotations.

use std::fmt;
use std::str::FromStr;

use super::types::{Bitboard, Direction, Point, Rotation};

/// The default board as the 11-line picture.
pub const DEFAULT_PICTURE: &str = "\
o-o-o-o-o-o
|X|\\|/|/|/|
o-o-o-o-o-o
|\\|X|X|\\|/|
o-o-o-o o-o
| |/|/|X|X
o-o-o o-o-o
| |\\ /| |\\|
o o-o o-o-o
| | | |/| |
o-o-o-o-o-o";

const PICTURE_SIDE: usize = 11;

/// The lines of a board. `links[d]` holds every point joined to its neighbour
/// in direction `d`; both ends of a line record it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Board {
    links: [Bitboard; 8],
}

/// What is wrong with a board text, and where. Rows and columns count from
/// 1, top left, as a person reads the picture.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum BoardError {
    /// The text has `found` rows instead of 11.
    #[error("invalid board: expected 11 rows, found {found}")]
    WrongRowCount {
        /// How many rows the text has.
        found: usize,
    },
    /// Row `row` has `found` characters: more than 11 in the picture, other
    /// than exactly 11 in the one-line form.
    #[error("invalid board: row {row} has {found} characters, expected 11")]
    WrongRowLength {
        /// The row, from 1 at the top.
        row: usize,
        /// How many characters it has.
        found: usize,
    },
    /// Where the picture has the point `point`, `cell` stands instead of `o`.
    #[error("invalid board: row {row} column {column}: '{cell}' cannot stand there, expected 'o' (the point {point})")]
    NotAPoint {
        /// The row, from 1 at the top.
        row: usize,
        /// The column, from 1 at the left.
        column: usize,
        /// The character found there.
        cell: char,
        /// The point the picture has there.
        point: Point,
    },
    /// Between two points of a rank, `cell` is neither `-` nor a blank.
    #[error("invalid board: row {row} column {column}: '{cell}' cannot stand there, expected '-' or a blank")]
    BadHorizontalLine {
        /// The row, from 1 at the top.
        row: usize,
        /// The column, from 1 at the left.
        column: usize,
        /// The character found there.
        cell: char,
    },
    /// Between two points of a file, `cell` is neither `|` nor a blank.
    #[error("invalid board: row {row} column {column}: '{cell}' cannot stand there, expected '|' or a blank")]
    BadVerticalLine {
        /// The row, from 1 at the top.
        row: usize,
        /// The column, from 1 at the left.
        column: usize,
        /// The character found there.
        cell: char,
    },
    /// In the middle of a square, `cell` is none of `\`, `/`, `X` or a blank.
    #[error(
        "invalid board: row {row} column {column}: '{cell}' cannot stand there, expected '\\', '/', 'X' or a blank"
    )]
    BadDiagonalLine {
        /// The row, from 1 at the top.
        row: usize,
        /// The column, from 1 at the left.
        column: usize,
        /// The character found there.
        cell: char,
    },
    /// A space in the one-line form, which writes every blank as `.`.
    #[error("invalid board: row {row} column {column}: a space; the one-line form writes every blank as '.'")]
    SpaceInOneLine {
        /// The row, from 1 at the top.
        row: usize,
        /// The column, from 1 at the left.
        column: usize,
    },
}

/// The two ways a board is written: the picture, rows on lines of their
/// own (short rows end in blanks; a blank is ` ` or `.`), and the one-line
/// form (rows of exactly 11 characters; a blank is `.`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    Picture,
    OneLine,
}

impl Default for Board {
    fn default() -> Board {
        Board::from_picture(DEFAULT_PICTURE).expect("the default board is valid")
    }
}

impl Board {
    /// A board with no lines at all.
    pub(crate) const fn unconnected() -> Board {
        Board { links: [Bitboard::EMPTY; 8] }
    }

    /// Whether a line joins `point` to its neighbour in `dir`.
    pub fn is_linked(&self, point: Point, dir: Direction) -> bool {
        self.links[dir.index()].contains(point)
    }

    /// Every point joined to its neighbour in `dir`.
    pub(crate) fn links(&self, dir: Direction) -> Bitboard {
        self.links[dir.index()]
    }

    /// Number of lines on the board.
    pub fn line_count(&self) -> u32 {
        self.links.iter().map(|b| b.count()).sum::<u32>() / 2
    }

    /// Joins `point` and its neighbour in `dir` (which must exist).
    fn link(&mut self, point: Point, dir: Direction) {
        let other = point.step(dir).expect("a line joins two points on the board");
        self.links[dir.index()] |= point.bit();
        self.links[dir.reverse().index()] |= other.bit();
    }

    /// The board turned clockwise by `rotation`: the line (x, y)-(x', y')
    /// goes to (y, 5-x)-(y', 5-x') for each quarter turn.
    pub(crate) fn rotated(&self, rotation: Rotation) -> Board {
        let mut board = *self;
        for _ in 0..rotation.quarter_turns() {
            let mut turned = Board::unconnected();
            for dir in Direction::ALL {
                for point in board.links(dir) {
                    let moved = Point::from_coords(point.rank(), 5 - point.file()).expect("on the board");
                    turned.link(moved, dir.turned_clockwise());
                }
            }
            board = turned;
        }
        board
    }

    /// Reads the 11-row picture. Rows may be shorter than 11 characters
    /// (missing characters are blanks); `.` and ` ` are both blanks.
    pub fn from_picture(text: &str) -> Result<Board, BoardError> {
        let mut rows: Vec<&str> = text.lines().map(|row| row.trim_end_matches('\r')).collect();
        while rows.last().is_some_and(|row| row.trim().is_empty()) {
            rows.pop();
        }
        Board::from_rows(&rows, Form::Picture)
    }

    /// Reads the one-line form: 11 rows of exactly 11 characters joined by
    /// `,`, every blank written as `.`.
    pub fn from_one_line(text: &str) -> Result<Board, BoardError> {
        let rows: Vec<&str> = text.split(',').collect();
        Board::from_rows(&rows, Form::OneLine)
    }

    fn from_rows(rows: &[&str], form: Form) -> Result<Board, BoardError> {
        if rows.len() != PICTURE_SIDE {
            return Err(BoardError::WrongRowCount { found: rows.len() });
        }
        let mut board = Board::unconnected();
        for (row_index, row) in rows.iter().enumerate() {
            let cells: Vec<char> = row.chars().collect();
            let length_ok = match form {
                Form::Picture => cells.len() <= PICTURE_SIDE,
                Form::OneLine => cells.len() == PICTURE_SIDE,
            };
            if !length_ok {
                return Err(BoardError::WrongRowLength { row: row_index + 1, found: cells.len() });
            }
            if form == Form::OneLine
                && let Some(column) = cells.iter().position(|&cell| cell == ' ')
            {
                return Err(BoardError::SpaceInOneLine { row: row_index + 1, column: column + 1 });
            }
            for column in 0..PICTURE_SIDE {
                let cell = cells.get(column).copied().unwrap_or(' ');
                board.read_cell(row_index, column, cell)?;
            }
        }
        Ok(board)
    }

    /// Applies one picture character at (row, column), checking it fits its place.
    fn read_cell(&mut self, row: usize, column: usize, cell: char) -> Result<(), BoardError> {
        let blank = cell == ' ' || cell == '.';
        // The point at the upper-left corner of this cell's square.
        let x = (column / 2) as i8;
        let y = 5 - (row / 2) as i8;
        let corner = Point::from_coords(x, y).expect("inside the picture");
        // Errors count rows and columns from 1.
        let (r, c) = (row + 1, column + 1);
        match (row % 2, column % 2) {
            (0, 0) if cell == 'o' => {}
            (0, 0) => return Err(BoardError::NotAPoint { row: r, column: c, cell, point: corner }),
            (0, 1) if cell == '-' => self.link(corner, Direction::E),
            (0, 1) if blank => {}
            (0, 1) => return Err(BoardError::BadHorizontalLine { row: r, column: c, cell }),
            (1, 0) if cell == '|' => self.link(corner, Direction::S),
            (1, 0) if blank => {}
            (1, 0) => return Err(BoardError::BadVerticalLine { row: r, column: c, cell }),
            _ => {
                let lower_left = Point::from_coords(x, y - 1).expect("inside the picture");
                match cell {
                    '\\' => self.link(corner, Direction::SE),
                    '/' => self.link(lower_left, Direction::NE),
                    'X' => {
                        self.link(corner, Direction::SE);
                        self.link(lower_left, Direction::NE);
                    }
                    _ if blank => {}
                    _ => return Err(BoardError::BadDiagonalLine { row: r, column: c, cell }),
                }
            }
        }
        Ok(())
    }

    /// The picture rows, blanks written as `blank`.
    fn picture_rows(&self, blank: char) -> Vec<String> {
        let mut rows = Vec::with_capacity(PICTURE_SIDE);
        for row in 0..PICTURE_SIDE {
            let mut line = String::with_capacity(PICTURE_SIDE);
            for column in 0..PICTURE_SIDE {
                let corner = Point::from_coords((column / 2) as i8, 5 - (row / 2) as i8).expect("inside");
                let cell = match (row % 2, column % 2) {
                    (0, 0) => Some('o'),
                    (0, 1) => self.is_linked(corner, Direction::E).then_some('-'),
                    (1, 0) => self.is_linked(corner, Direction::S).then_some('|'),
                    _ => {
                        let down = self.is_linked(corner, Direction::SE);
                        let lower_left = corner.step(Direction::S).expect("inside");
                        let up = self.is_linked(lower_left, Direction::NE);
                        match (down, up) {
                            (true, true) => Some('X'),
                            (true, false) => Some('\\'),
                            (false, true) => Some('/'),
                            (false, false) => None,
                        }
                    }
                };
                line.push(cell.unwrap_or(blank));
            }
            rows.push(line);
        }
        rows
    }

    /// The 11-line picture, trailing blanks trimmed.
    pub fn picture(&self) -> String {
        let rows: Vec<String> = self.picture_rows(' ').into_iter().map(|r| r.trim_end().to_string()).collect();
        rows.join("\n")
    }

    /// The one-line form: 11 rows of 11 characters, blanks as `.`, joined by `,`.
    pub fn one_line(&self) -> String {
        self.picture_rows('.').join(",")
    }
}

/// `Display` writes the one-line form, the form every parser of this crate accepts.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.one_line())
    }
}

/// Reads either form: the one-line form if the text has commas, else the picture.
impl FromStr for Board {
    type Err = BoardError;

    fn from_str(s: &str) -> Result<Board, BoardError> {
        if s.contains(',') { Board::from_one_line(s.trim()) } else { Board::from_picture(s) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFAULT_ONE_LINE: &str = "o-o-o-o-o-o,|X|\\|/|/|/|,o-o-o-o-o-o,|\\|X|X|\\|/|,o-o-o-o.o-o,|.|/|/|X|X.,o-o-o.o-o-o,|.|\\./|.|\\|,o.o-o.o-o-o,|.|.|.|/|.|,o-o-o-o-o-o";

    fn p(name: &str) -> Point {
        name.parse().unwrap()
    }

    #[test]
    fn default_board_has_77_lines_and_both_forms_agree() {
        let board = Board::default();
        assert_eq!(board.line_count(), 77);
        assert_eq!(board.one_line(), DEFAULT_ONE_LINE);
        assert_eq!(Board::from_one_line(DEFAULT_ONE_LINE).unwrap(), board);
        assert_eq!(board.picture(), DEFAULT_PICTURE);
    }

    #[test]
    fn default_board_lines_read_from_the_picture() {
        let board = Board::default();
        // Row 2 starts "|X": a6-a5 vertical, and both diagonals of the a6-b5 square.
        assert!(board.is_linked(p("a6"), Direction::S));
        assert!(board.is_linked(p("a6"), Direction::SE));
        assert!(board.is_linked(p("a5"), Direction::NE));
        // "o-o-o-o o-o" on rank 4: d4 and e4 are not joined.
        assert!(!board.is_linked(p("d4"), Direction::E));
        assert!(!board.is_linked(p("e4"), Direction::W));
        // The sixth row ends with a blank: f4 and f3 are not joined.
        assert!(!board.is_linked(p("f4"), Direction::S));
        // "| |\\ /| |\\|" between ranks 3 and 2: b3-c2 diagonal, d3-c2 diagonal.
        assert!(board.is_linked(p("b3"), Direction::SE));
        assert!(board.is_linked(p("c2"), Direction::NE));
        assert!(!board.is_linked(p("c3"), Direction::S));
    }

    #[test]
    fn rotation_90_takes_the_a6_b6_line_to_f6_f5() {
        let turned = Board::default().rotated(Rotation::R90);
        assert!(turned.is_linked(p("f6"), Direction::S));
        assert_eq!(turned.line_count(), 77);
        let full_turn = turned.rotated(Rotation::R270);
        assert_eq!(full_turn, Board::default());
        let half = Board::default().rotated(Rotation::R180);
        assert_eq!(half, turned.rotated(Rotation::R90));
    }

    #[test]
    fn invalid_boards_say_what_and_where() {
        let err = Board::from_one_line("o-o").unwrap_err();
        assert!(err.to_string().contains("11 rows"), "{err}");
        let bad_char = DEFAULT_ONE_LINE.replacen("o-o-o-o-o-o", "o-o-o-o-o|o", 1);
        let err = Board::from_one_line(&bad_char).unwrap_err();
        assert!(err.to_string().contains("row 1 column 10"), "{err}");
        assert_eq!(err, BoardError::BadHorizontalLine { row: 1, column: 10, cell: '|' });
        let short_row = DEFAULT_ONE_LINE.replacen("|X|\\|/|/|/|", "|X|\\|/|/|/", 1);
        let err = Board::from_one_line(&short_row).unwrap_err();
        assert!(err.to_string().contains("row 2 has 10 characters"), "{err}");
        let missing_point = DEFAULT_ONE_LINE.replacen("o-o", ".-o", 1);
        assert!(Board::from_one_line(&missing_point).is_err());
        assert!(Board::from_picture("").is_err());
    }
}
