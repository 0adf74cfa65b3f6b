//! The proved moves POLD.R carries: for the two-player starts whose proof
//! is out of reach in a move's time (5x5 and 6x6 with 16 bricks), the
//! winner's move at every position of one proof, for every reply of the
//! loser, down to positions that prove within `LEAF_NODES` nodes; and the
//! same for the second player after each first move that loses (the
//! refutations), where those proofs are out of reach too. The files in
//! `book/` are written by `podium solve --tree` (the command heads each
//! file) and proved again by the tests.

use std::collections::HashMap;
#[cfg(test)]
use std::collections::HashSet;
use std::sync::LazyLock;

use super::moves::Move;
use super::position::Position;

/// A book: its text, and the start it proves.
pub struct BookFile {
    /// The file's name in `book/`.
    pub name: &'static str,
    /// The arguments of `podium solve --tree` that wrote it.
    pub size: u8,
    pub bricks: u8,
    /// Written with `--refutations`: the second player's trees after the
    /// first moves that lose, not the first player's tree.
    pub refutations: bool,
    pub text: &'static str,
}

/// Positions that a proof settles within this many nodes (with a cleared
/// table of 4 MB) end the tree: 10 to 15 ms of a proof on this project's
/// machine, and the least a proof between two iterations is given
/// (`min_proof_nodes`), so a search at 100 ms a move proves them itself.
/// At 50,000 the 5x5 tree was 2 positions, at 20,000 it is 4 and the 6x6
/// tree 89.
#[cfg(test)]
const LEAF_NODES: u64 = 20_000;

/// Every book POLD.R carries.
pub const BOOKS: [BookFile; 3] = [
    BookFile { name: "5x5-16.txt", size: 5, bricks: 16, refutations: false, text: include_str!("book/5x5-16.txt") },
    BookFile { name: "6x6-16.txt", size: 6, bricks: 16, refutations: false, text: include_str!("book/6x6-16.txt") },
    BookFile {
        name: "5x5-16-refutations.txt",
        size: 5,
        bricks: 16,
        refutations: true,
        text: include_str!("book/5x5-16-refutations.txt"),
    },
];

/// One line of a book: a position line, the move and the plies, or `None`
/// for a comment or a blank line.
pub fn parse_line(line: &str) -> Option<Result<(Position, Move, u32), String>> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let fields: Vec<&str> = line.split_whitespace().collect();
    let [board, side, reserves, phase, ply, changed, mv, plies] = fields[..] else {
        return Some(Err(format!("not a book line: {line}")));
    };
    let parsed = (|| {
        let position: Position =
            [board, side, reserves, phase, ply, changed].join(" ").parse().map_err(|error| format!("{error}"))?;
        let mv: Move = mv.parse().map_err(|error| format!("{error}"))?;
        position.check(mv).map_err(|error| format!("{error}"))?;
        let plies: u32 = plies.parse().map_err(|_| format!("not a number of plies: {plies}"))?;
        Ok((position, mv, plies))
    })();
    Some(parsed.map_err(|error: String| format!("{error}: {line}")))
}

/// Every book's moves by the shared key of their position (see
/// `Position::symmetric_key`), as moves of that shared form, with their plies.
static KNOWN: LazyLock<HashMap<u64, (Move, u32)>> =
    LazyLock::new(|| {
        let mut known = HashMap::new();
        for book in BOOKS {
            for parsed in book.text.lines().filter_map(parse_line) {
                let (position, mv, plies) = parsed.expect("the books are proved by the tests");
                debug_assert_eq!(position.size(), book.size, "{}", book.name);
                // Blue wins the starts; Yellow, after Blue's losing first moves.
                debug_assert_eq!(position.mover().index(), usize::from(book.refutations), "{}", book.name);
                debug_assert!(position.seats().all(|seat| {
                    position.reserve(seat) as u32 + position.bricks(seat).count() == book.bricks as u32
                }));
                let (key, symmetry) = position.symmetric_key();
                known.insert(key, (position.transform_move(mv, symmetry, false), plies));
            }
        }
        known
    });

/// The book's winning move at `position`, and at most how many plies the game then lasts.
pub fn known_win(position: &Position) -> Option<(Move, u32)> {
    let (key, symmetry) = position.symmetric_key();
    let &(shared, plies) = KNOWN.get(&key)?;
    let mv = position.transform_move(shared, symmetry, true);
    position.check(mv).is_ok().then_some((mv, plies))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::poldr::PoldrAdapter;
    use crate::search::check_proof_tree;

    /// Every book proves its start again: each entry's move is legal, and
    /// every reply of the loser leads to another entry or to a position
    /// proved within `LEAF_NODES`. Slow in a debug build.
    #[test]
    #[cfg_attr(debug_assertions, ignore = "proofs: run in release")]
    fn every_book_proves_its_start_again() {
        for book in BOOKS {
            assert!(book.text.contains(&format!("--size {} --bricks {}", book.size, book.bricks)), "{}", book.name);
            assert_eq!(book.text.contains("--refutations"), book.refutations, "{}", book.name);
            let entries: Vec<(Position, Move)> = book
                .text
                .lines()
                .filter_map(parse_line)
                .map(|parsed| {
                    let (position, mv, _) = parsed.unwrap();
                    (position, mv)
                })
                .collect();
            let start = Position::start(book.size, 2, book.bricks).unwrap();
            // Every entry is checked whatever the root; a book of
            // refutations has a root for each first move that loses, the
            // first entry one of them.
            let root = if book.refutations {
                let after_first_move: HashSet<u64> = start
                    .legal_moves()
                    .into_iter()
                    .map(|mv| {
                        let mut after = start;
                        after.play_unchecked(mv);
                        after.symmetric_key().0
                    })
                    .collect();
                let (first, _) = entries[0];
                assert!(after_first_move.contains(&first.symmetric_key().0), "{}", book.name);
                first
            } else {
                start
            };
            let leaves = check_proof_tree(&PoldrAdapter::default(), &root, &entries, LEAF_NODES)
                .unwrap_or_else(|error| panic!("{}: {error}", book.name));
            assert!(leaves > 0, "{}", book.name);
        }
    }

    #[test]
    fn the_book_answers_every_symmetric_image_of_its_positions() {
        let start = Position::start(5, 2, 16).unwrap();
        let (mv, plies) = known_win(&start).expect("the 5x5 start is in the book");
        assert!(plies > 0 && start.check(mv).is_ok());
        // Blue's second position of the 5x5 book, turned every way.
        let (second, second_move, _) = BOOKS[0].text.lines().filter_map(parse_line).nth(1).unwrap().unwrap();
        for symmetry in 0..8 {
            let image = second.transformed(symmetry);
            let (found, _) = known_win(&image).expect("an image of a book position");
            assert_eq!(found, image.transform_move(second_move, symmetry, false), "symmetry {symmetry}");
        }
        // Three players, and another number of bricks: not in any book.
        assert_eq!(known_win(&Position::start(5, 3, 16).unwrap()), None);
        assert_eq!(known_win(&Position::start(5, 2, 15).unwrap()), None);
    }

    #[test]
    fn a_line_that_is_not_a_book_line_is_an_error() {
        assert!(parse_line("# comment").is_none());
        assert!(parse_line("5/5/5/5/5 b 16,16 1 0 -,- Pa1Me5").unwrap().is_err());
        assert!(parse_line("5/5/5/5/5 b 16,16 1 0 -,- Pa1Mb2 30").unwrap().is_err());
    }
}
