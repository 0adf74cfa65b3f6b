//! Lines of a board of a given size, computed once per size: for every two
//! cells, the cells strictly between them when they are aligned.

use std::sync::OnceLock;

use super::types::{CELLS, Cell, Cells, MAX_SIZE, MIN_SIZE};

pub(crate) struct Geometry {
    /// Every cell of the board.
    pub board: Cells,
    /// `between[a * CELLS + b]`: the interval of `a` and `b`, empty when they
    /// are not aligned (adjacent cells are not).
    between: Vec<Cells>,
    /// `aligned[a]`: every cell aligned with `a`.
    aligned: [Cells; CELLS],
    /// `steps[d][k]`: the cells of the largest board from which `2^k` steps
    /// in direction `d` stay on it (so a shift of a whole set never wraps).
    steps: [[Cells; 3]; 8],
    /// `symmetric[s][a]`: where the `s`-th of the board's 8 symmetries takes `a`.
    symmetric: [[Cell; CELLS]; SYMMETRIES],
}

/// Rotations and reflections of the square: each maps lines to lines, so
/// legal moves to legal moves, and keeps every result.
pub const SYMMETRIES: usize = 8;

/// The inverse of each symmetry: the quarter turns undo each other, the
/// rest undo themselves.
const INVERSE: [usize; SYMMETRIES] = [0, 1, 2, 3, 4, 6, 5, 7];

/// The eight directions: along ranks, files and both diagonals.
const DIRECTIONS: [(i8, i8); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)];

/// The lines through a cell: `DIRECTIONS` two by two, opposite ways.
pub(crate) const LINES: usize = 4;

/// How far a cell index moves with one step in each direction.
const SHIFTS: [i32; 8] = {
    let mut shifts = [0; 8];
    let mut direction = 0;
    while direction < 8 {
        let (df, dr) = DIRECTIONS[direction];
        shifts[direction] = dr as i32 * MAX_SIZE as i32 + df as i32;
        direction += 1;
    }
    shifts
};

impl Geometry {
    /// The tables of a board of `size` (4 to 9), built on first use.
    pub fn of(size: u8) -> &'static Geometry {
        static TABLES: [OnceLock<Geometry>; (MAX_SIZE - MIN_SIZE + 1) as usize] =
            [const { OnceLock::new() }; (MAX_SIZE - MIN_SIZE + 1) as usize];
        assert!((MIN_SIZE..=MAX_SIZE).contains(&size), "board size {size} out of range");
        TABLES[(size - MIN_SIZE) as usize].get_or_init(|| Geometry::new(size))
    }

    fn new(size: u8) -> Geometry {
        let mut geometry = Geometry {
            board: Cells::EMPTY,
            between: vec![Cells::EMPTY; CELLS * CELLS],
            aligned: [Cells::EMPTY; CELLS],
            steps: [[Cells::EMPTY; 3]; 8],
            symmetric: [[Cell::new(0, 0).expect("a1"); CELLS]; SYMMETRIES],
        };
        let last = size - 1;
        for rank in 0..size {
            for file in 0..size {
                let images = [
                    (file, rank),
                    (last - file, rank),
                    (file, last - rank),
                    (last - file, last - rank),
                    (rank, file),
                    (last - rank, file),
                    (rank, last - file),
                    (last - rank, last - file),
                ];
                let from = Cell::new(file, rank).expect("on the board");
                for (symmetry, (f, r)) in images.into_iter().enumerate() {
                    geometry.symmetric[symmetry][from.index()] = Cell::new(f, r).expect("on the board");
                }
            }
        }
        // Within a square of `side` cells from a1.
        let within = |side: u8, file: i8, rank: i8| (0..side as i8).contains(&file) && (0..side as i8).contains(&rank);
        for rank in 0..size {
            for file in 0..size {
                let from = Cell::new(file, rank).expect("on the board");
                geometry.board |= from.bit();
                for (df, dr) in DIRECTIONS {
                    let mut passed = Cells::EMPTY;
                    let (mut f, mut r) = (file as i8 + df, rank as i8 + dr);
                    while within(size, f, r) {
                        let to = Cell::new(f as u8, r as u8).expect("on the board");
                        if !passed.is_empty() {
                            geometry.between[from.index() * CELLS + to.index()] = passed;
                            geometry.aligned[from.index()] |= to.bit();
                        }
                        passed |= to.bit();
                        f += df;
                        r += dr;
                    }
                }
            }
        }
        for (direction, (df, dr)) in DIRECTIONS.into_iter().enumerate() {
            for (k, steps) in geometry.steps[direction].iter_mut().enumerate() {
                let distance = 1 << k;
                for index in 0..CELLS {
                    let cell = Cell::from_index(index).expect("a cell");
                    let (file, rank) = (cell.file() as i8, cell.rank() as i8);
                    if within(MAX_SIZE, file + distance * df, rank + distance * dr) {
                        *steps |= cell.bit();
                    }
                }
            }
        }
        geometry
    }

    #[inline]
    pub(crate) fn between(&self, a: Cell, b: Cell) -> Cells {
        self.between[a.index() * CELLS + b.index()]
    }

    #[inline]
    pub(crate) fn aligned(&self, cell: Cell) -> Cells {
        self.aligned[cell.index()]
    }

    /// The cells from which some cell of `cells` lies ahead in the
    /// `direction`-th of `DIRECTIONS`, 1 to 8 steps away (line `l` is
    /// directions `2l` and `2l + 1`): shifts of the whole set, doubling the
    /// distance covered, instead of a walk from each cell.
    pub(crate) fn behind(&self, cells: Cells, direction: usize) -> Cells {
        let shift = SHIFTS[direction];
        let step = |set: Cells, k: usize| {
            let amount = shift.unsigned_abs() << k;
            let moved = if shift > 0 { set.0 >> amount } else { set.0 << amount };
            Cells(moved) & self.steps[direction][k]
        };
        let mut reached = step(cells, 0);
        for k in 0..3 {
            reached |= step(reached, k);
        }
        reached
    }

    /// Where symmetry `symmetry` takes `cell` (its inverse with `inverse`).
    #[inline]
    pub(crate) fn transform(&self, cell: Cell, symmetry: usize, inverse: bool) -> Cell {
        let symmetry = if inverse { INVERSE[symmetry] } else { symmetry };
        self.symmetric[symmetry][cell.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(text: &str) -> Cell {
        text.parse().unwrap()
    }

    #[test]
    fn intervals_hold_the_cells_strictly_between() {
        let geometry = Geometry::of(5);
        assert_eq!(geometry.between(cell("a1"), cell("e5")), cell("b2").bit() | cell("c3").bit() | cell("d4").bit());
        assert_eq!(geometry.between(cell("c1"), cell("c3")), cell("c2").bit());
        assert_eq!(geometry.between(cell("c3"), cell("c1")), cell("c2").bit());
        // Neighbours and knight jumps are not aligned.
        assert!(geometry.between(cell("c3"), cell("c4")).is_empty());
        assert!(geometry.between(cell("a1"), cell("b3")).is_empty());
        assert!(!geometry.aligned(cell("a1")).contains(cell("b2")));
        assert!(geometry.aligned(cell("a1")).contains(cell("c3")));
    }

    #[test]
    fn symmetries_keep_intervals_and_undo_each_other() {
        let geometry = Geometry::of(5);
        for symmetry in 0..SYMMETRIES {
            for a in geometry.board {
                let image = geometry.transform(a, symmetry, false);
                assert_eq!(geometry.transform(image, symmetry, true), a);
                for b in geometry.board {
                    let mapped = geometry
                        .between(a, b)
                        .fold(Cells::EMPTY, |set, c| set | geometry.transform(c, symmetry, false).bit());
                    assert_eq!(mapped, geometry.between(image, geometry.transform(b, symmetry, false)));
                }
            }
        }
        // A quarter turn takes a1 to e1 on 5x5, its inverse e1 back.
        assert_eq!(geometry.transform(cell("a1"), 5, false), cell("e1"));
        assert_eq!(geometry.transform(cell("e1"), 5, true), cell("a1"));
    }

    #[test]
    fn corners_see_three_lines_of_the_board() {
        // From a corner of a 5x5 board: 3 cells along the rank, 3 along the
        // file, 3 along the diagonal (the neighbour on each is too close).
        assert_eq!(Geometry::of(5).aligned(cell("a1")).count(), 9);
        assert_eq!(Geometry::of(9).aligned(cell("a1")).count(), 21);
        assert!(!Geometry::of(4).board.contains(cell("e1")));
    }
}
