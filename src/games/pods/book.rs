//! The proved moves the standard Pods game carries: the winner's move at
//! every position of a proof, for every reply of the loser.
//!
//! - `start.txt`, `start-90.txt`, `start-180.txt` and `start-270.txt`: the
//!   proofs that White wins the game from its start at each rotation
//!   (docs/solving.md, "The start's proof" and "The other rotations"),
//!   written by `scripts/campaign.py book` from the campaign's
//!   certificates, down to the positions the endgame solver proved;
//!   tests/certificate.rs checks that each is its certificate's, and the
//!   certificates are checked by the reference rules and an independent
//!   brute force.
//! - `std200-NN.txt`: for each 4-ply balanced opening of `std200.txt` that
//!   the campaign's verdicts prove (docs/pods-strength.md, "Letting a won
//!   game go"), one proof down to positions where the search in play tries
//!   proofs and that prove within `LEAF_NODES` nodes, written by `podium
//!   solve --tree` through `scripts/campaign.py trees` (the command heads
//!   each file) and proved again by the tests.
//!
//! None is written by hand. Only for the standard game on the default
//! board with the default pods. A position is known by its line without
//! the ply (so a move counter does not matter and any order of the same
//! placements finds it); the move is checked legal before it is given.
//!
//! The engine carries the books packed (`book_table.rs`): `build.rs` writes
//! a record a position from the text at build time, the first book's where
//! two hold a position (the start's, then the openings' by number).

use super::book_table::{self, RECORD_BYTES};
use super::{Board, Move, PodSet, Position, Rules, Variant};

/// Positions that a proof settles within this many nodes (with a cleared
/// table of 4 MB), where the search in play tries proofs (from 20
/// placements left at most), end the trees. At 1 s + 10 ms a move's
/// proofs together got 28,608 to 39,040 nodes in the positions with 19 or
/// 20 placements left that they did not prove (6 games against cece54b,
/// 2026-11-27, docs/pods-strength.md), and a proof between two iterations
/// gets at least 20,000 (`min_proof_nodes`) unless the clock cuts it.
#[cfg(test)]
const LEAF_NODES: u64 = 20_000;

/// Every book's records, sorted by hash (`build.rs`).
static RECORDS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/pods_book.bin"));

/// The book's winning move at `position` under `rules`, and at most how
/// many plies the game then lasts: only for the standard game on the
/// default board with the default pods, and only a legal move.
pub fn known_win(rules: &Rules, position: &Position) -> Option<(Move, u32)> {
    if rules.variant() != Variant::Standard || *rules.board() != Board::default() || *rules.pods() != PodSet::default()
    {
        return None;
    }
    let line = position.to_string();
    let hash = book_table::key_hash(book_table::position_key(&line)?);
    let (records, _) = RECORDS.as_chunks::<RECORD_BYTES>();
    let index = records.binary_search_by_key(&hash, book_table::record_hash).ok()?;
    let (mv, plies) = book_table::record_move(&records[index]);
    let mv: Move = std::str::from_utf8(mv).ok()?.parse().ok()?;
    position.check(rules, mv).is_ok().then_some((mv, u32::from(plies)))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::path::Path;
    use std::sync::{Arc, LazyLock};

    use super::*;
    use crate::games::pods::{PodsAdapter, Rotation};
    use crate::search::{Leaves, check_proof_tree_sample};

    /// A book as the tests read it from the source tree.
    struct BookFile {
        /// The file's name in `book/`.
        name: String,
        /// The file's text: comment lines (`#`), then one position a line.
        text: String,
    }

    /// Every book, in the order the build packs them (the start's first).
    static BOOKS: LazyLock<Vec<BookFile>> = LazyLock::new(|| {
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join(book_table::FOLDER);
        let files = book_table::book_files(&folder).expect("the books' folder");
        files
            .into_iter()
            .map(|path| BookFile {
                name: path.file_name().expect("a file").to_string_lossy().into_owned(),
                text: std::fs::read_to_string(&path).expect("a book's text"),
            })
            .collect()
    });

    /// The openings' books: all but the start's (tests/certificate.rs
    /// checks those against their certificates).
    fn opening_books() -> impl Iterator<Item = &'static BookFile> {
        BOOKS.iter().filter(|book| !book.name.starts_with("start"))
    }

    /// The standard game's rules, which the books are for.
    static STANDARD: LazyLock<Rules> = LazyLock::new(|| Rules::default_for(Variant::Standard));

    /// One line of a book: a position line (five fields), the move and the
    /// plies, or `None` for a comment or a blank line. The move must be legal.
    fn parse_line(line: &str) -> Option<Result<(Position, Move, u32), String>> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [board, side, hands, rotation, ply, mv, plies] = fields[..] else {
            return Some(Err(format!("not a book line (a position, a move, plies): {line}")));
        };
        let parsed = (|| {
            let position = Position::parse(&[board, side, hands, rotation, ply].join(" "), &STANDARD)
                .map_err(|error| format!("{error}"))?;
            let mv: Move = mv.parse().map_err(|error| format!("{error}"))?;
            position.check(&STANDARD, mv).map_err(|error| format!("{mv}: {error}"))?;
            let plies: u32 = plies.parse().map_err(|_| format!("not a number of plies: {plies}"))?;
            Ok((position, mv, plies))
        })();
        Some(parsed.map_err(|error: String| format!("{error}: {line}")))
    }

    /// Each book's root: the opening it is headed by (`--fen "..."`).
    fn root(book: &BookFile) -> Position {
        let command = book.text.lines().find(|line| line.starts_with("# Written by: ")).expect("a command");
        let fen = command.split('"').nth(1).expect("the command's --fen");
        Position::parse(fen, &STANDARD).unwrap_or_else(|error| panic!("{}: {error}", book.name))
    }

    fn entries(book: &BookFile) -> Vec<(Position, Move)> {
        book.text
            .lines()
            .filter_map(parse_line)
            .map(|parsed| {
                let (position, mv, _) = parsed.unwrap_or_else(|error| panic!("{}: {error}", book.name));
                (position, mv)
            })
            .collect()
    }

    /// One entry in this many of a small book is proved again in CI.
    const SAMPLE_ONE_IN: u64 = 50;

    /// At most about this many of a large book's: a Black win's tree holds
    /// thousands of entries, and CI's time is shared by all the books.
    const SAMPLED_PER_BOOK: u64 = 5;

    /// The sample's seed: the same entries every run.
    const SAMPLE_SEED: u64 = 0x5eed_b00c;

    /// Proves `book`'s opening again from its entries (with `sampled`, the
    /// first and a seeded sample of the rest): each one's move is legal,
    /// and every reply of the loser leads to another entry or to a position
    /// proved within `LEAF_NODES` where play tries proofs.
    fn prove_again(book: &BookFile, sampled: bool) {
        assert!(book.text.contains("--variant standard"), "{}", book.name);
        assert!(book.text.contains(&format!("--leaf-nodes {LEAF_NODES}")), "{}", book.name);
        let adapter = PodsAdapter::new(Arc::new(Rules::default_for(Variant::Standard)), 0);
        let leaves = Leaves { nodes: LEAF_NODES, in_play: true };
        let entries = entries(book);
        let one_in = if sampled { (entries.len() as u64 / SAMPLED_PER_BOOK).max(SAMPLE_ONE_IN) } else { 1 };
        let picked = |index: usize| {
            let mixed = (index as u64 ^ SAMPLE_SEED).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            index == 0 || (mixed >> 32).is_multiple_of(one_in)
        };
        check_proof_tree_sample(&adapter, &root(book), &entries, leaves, picked)
            .unwrap_or_else(|error| panic!("{}: {error}", book.name));
    }

    /// A fixed sample of every book proved again in CI, the first entry of
    /// each among it (every entry: `every_book_proves_its_opening_again`).
    #[test]
    #[cfg_attr(debug_assertions, ignore = "proofs: run in release")]
    fn a_seeded_sample_of_the_books_proves_again() {
        for book in opening_books() {
            prove_again(book, true);
        }
    }

    /// Every book proved again, every entry:
    /// `cargo test --release --lib pods::book -- --ignored`; one book only
    /// (a new one, before it lands) with `PODIUM_BOOK=std200-48.txt`.
    #[test]
    #[ignore = "every entry of every book: minutes in release"]
    fn every_book_proves_its_opening_again() {
        let only = std::env::var("PODIUM_BOOK").ok();
        let mut proved = 0;
        for book in opening_books().filter(|book| only.as_deref().is_none_or(|name| book.name == name)) {
            prove_again(book, false);
            proved += 1;
        }
        assert!(proved > 0, "no book named {only:?}");
    }

    #[test]
    fn the_book_answers_whatever_the_ply_and_only_with_the_default_rules() {
        let book = opening_books().next().expect("an opening's book");
        let (position, mv, plies) = book.text.lines().filter_map(parse_line).next().unwrap().unwrap();
        assert_eq!(known_win(&STANDARD, &position), Some((mv, plies)));
        // The same position with another move counter.
        let line = position.to_string();
        let (rest, ply) = line.rsplit_once(' ').unwrap();
        let later = Position::parse(&format!("{rest} {}", ply.parse::<u32>().unwrap() + 2), &STANDARD).unwrap();
        assert_ne!(later, position);
        assert_eq!(known_win(&STANDARD, &later), Some((mv, plies)));
        // Another variant, another board: not the books' game.
        let advanced = Rules::default_for(Variant::Advanced);
        assert_eq!(known_win(&advanced, &position), None);
        let other_board =
            Rules::new(Variant::Standard, Board::from_one_line(OTHER_BOARD).unwrap(), PodSet::default(), false);
        assert_eq!(known_win(&other_board, &position), None);
        // The start at each rotation is in the start's books, with the move its proof makes.
        let start = Position::start(&STANDARD, Rotation::R0);
        assert_eq!(known_win(&STANDARD, &start), Some(("B@a1".parse().unwrap(), 27)));
        for (rotation, first) in [(Rotation::R90, "B@a2"), (Rotation::R180, "B@f1"), (Rotation::R270, "B@a2")] {
            let start = Position::start(&STANDARD, rotation);
            assert_eq!(known_win(&STANDARD, &start).map(|(mv, _)| mv), Some(first.parse().unwrap()), "{rotation}");
        }
    }

    /// Every line of every book is a legal move at a position written as
    /// `Position` writes it (the lookup hashes the line's text), no position
    /// is in a book twice, and the engine finds each position's move, the
    /// first book's where two books hold it, and carries nothing else.
    #[test]
    fn every_book_line_is_read_as_written_and_carried() {
        let mut first: HashMap<String, (Move, u32)> = HashMap::new();
        let mut lines = 0;
        for book in BOOKS.iter() {
            let mut seen = std::collections::HashSet::new();
            for line in book.text.lines().map(str::trim) {
                let Some(parsed) = parse_line(line) else { continue };
                let (position, mv, plies) = parsed.unwrap_or_else(|error| panic!("{}: {error}", book.name));
                assert_eq!(line, format!("{position} {mv} {plies}"), "{}: written as the engine writes it", book.name);
                let key = book_table::position_key(line).unwrap().to_string();
                assert!(seen.insert(key.clone()), "{}: twice: {line}", book.name);
                let expected = *first.entry(key).or_insert((mv, plies));
                assert_eq!(known_win(&STANDARD, &position), Some(expected), "{}: {line}", book.name);
                lines += 1;
            }
        }
        assert!(lines > 80_000, "{lines} lines");
        assert_eq!(RECORDS.len(), first.len() * RECORD_BYTES, "one record a position of the books");
    }

    /// The default board with every line of its top row gone.
    const OTHER_BOARD: &str = "o.o.o.o.o.o,|X|\\|/|/|/|,o-o-o-o-o-o,|\\|X|X|\\|/|,o-o-o-o.o-o,|.|/|/|X|X.,o-o-o.o-o-o,|.|\\./|.|\\|,o.o-o.o-o-o,|.|.|.|/|.|,o-o-o-o-o-o";

    #[test]
    fn a_line_that_is_not_a_book_line_is_an_error() {
        assert!(parse_line("# comment").is_none());
        assert!(parse_line("   ").is_none());
        // Too few fields, a move that is not legal there, plies that are no number.
        assert!(parse_line("6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0 A@c3").unwrap().is_err());
        assert!(parse_line("6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0 C@c3 20").unwrap().is_err());
        assert!(parse_line("6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0 A@b1 many").unwrap().is_err());
        assert!(parse_line("6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0 A@b1 20").unwrap().is_ok());
    }
}
