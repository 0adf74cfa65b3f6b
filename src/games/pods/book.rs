//! The proved moves the standard Pods game carries: the winner's move at
//! every position of a proof, for every reply of the loser.
//!
//! - `start.txt`: the proof that White wins the game from its start
//!   (docs/solving.md, "The start's proof"), written by `scripts/campaign.py
//!   book` from the campaign's certificate, down to the positions the
//!   endgame solver proved; tests/certificate.rs checks that it is the
//!   certificate's, and the certificate is checked by the reference rules
//!   and an independent brute force.
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

use std::sync::LazyLock;

#[cfg(test)]
use super::Rotation;
use super::{Board, Move, PodSet, Position, Rules, Variant};

/// A book: its file's name in `book/` and its text.
pub struct BookFile {
    /// The file's name in `book/`.
    pub name: &'static str,
    /// The file's text: comment lines (`#`), then one position a line.
    pub text: &'static str,
}

/// Positions that a proof settles within this many nodes (with a cleared
/// table of 4 MB), where the search in play tries proofs (from 20
/// placements left at most), end the trees. At 1 s + 10 ms a move's
/// proofs together got 28,608 to 39,040 nodes in the positions with 19 or
/// 20 placements left that they did not prove (6 games against cece54b,
/// 2026-11-27, docs/pods-strength.md), and a proof between two iterations
/// gets at least 20,000 (`min_proof_nodes`) unless the clock cuts it.
#[cfg(test)]
const LEAF_NODES: u64 = 20_000;

/// The proof of the start: White's move at each of its 61,429 turns.
pub const START: BookFile = BookFile { name: "start.txt", text: include_str!("book/start.txt") };

/// The proofs of 4-ply openings: `std200-NN.txt` is opening NN of
/// `std200.txt` (counted from 1, comments left out).
pub const BOOKS: &[BookFile] = &[
    BookFile { name: "std200-01.txt", text: include_str!("book/std200-01.txt") },
    BookFile { name: "std200-02.txt", text: include_str!("book/std200-02.txt") },
    BookFile { name: "std200-03.txt", text: include_str!("book/std200-03.txt") },
    BookFile { name: "std200-04.txt", text: include_str!("book/std200-04.txt") },
    BookFile { name: "std200-05.txt", text: include_str!("book/std200-05.txt") },
    BookFile { name: "std200-06.txt", text: include_str!("book/std200-06.txt") },
    BookFile { name: "std200-07.txt", text: include_str!("book/std200-07.txt") },
    BookFile { name: "std200-08.txt", text: include_str!("book/std200-08.txt") },
    BookFile { name: "std200-09.txt", text: include_str!("book/std200-09.txt") },
    BookFile { name: "std200-11.txt", text: include_str!("book/std200-11.txt") },
    BookFile { name: "std200-12.txt", text: include_str!("book/std200-12.txt") },
    BookFile { name: "std200-13.txt", text: include_str!("book/std200-13.txt") },
    BookFile { name: "std200-14.txt", text: include_str!("book/std200-14.txt") },
    BookFile { name: "std200-15.txt", text: include_str!("book/std200-15.txt") },
    BookFile { name: "std200-16.txt", text: include_str!("book/std200-16.txt") },
    BookFile { name: "std200-17.txt", text: include_str!("book/std200-17.txt") },
    BookFile { name: "std200-21.txt", text: include_str!("book/std200-21.txt") },
    BookFile { name: "std200-22.txt", text: include_str!("book/std200-22.txt") },
    BookFile { name: "std200-23.txt", text: include_str!("book/std200-23.txt") },
    BookFile { name: "std200-24.txt", text: include_str!("book/std200-24.txt") },
    BookFile { name: "std200-25.txt", text: include_str!("book/std200-25.txt") },
    BookFile { name: "std200-26.txt", text: include_str!("book/std200-26.txt") },
    BookFile { name: "std200-29.txt", text: include_str!("book/std200-29.txt") },
    BookFile { name: "std200-30.txt", text: include_str!("book/std200-30.txt") },
    BookFile { name: "std200-31.txt", text: include_str!("book/std200-31.txt") },
    BookFile { name: "std200-32.txt", text: include_str!("book/std200-32.txt") },
    BookFile { name: "std200-33.txt", text: include_str!("book/std200-33.txt") },
    BookFile { name: "std200-35.txt", text: include_str!("book/std200-35.txt") },
    BookFile { name: "std200-37.txt", text: include_str!("book/std200-37.txt") },
    BookFile { name: "std200-38.txt", text: include_str!("book/std200-38.txt") },
    BookFile { name: "std200-41.txt", text: include_str!("book/std200-41.txt") },
    BookFile { name: "std200-42.txt", text: include_str!("book/std200-42.txt") },
    BookFile { name: "std200-43.txt", text: include_str!("book/std200-43.txt") },
    BookFile { name: "std200-44.txt", text: include_str!("book/std200-44.txt") },
    BookFile { name: "std200-46.txt", text: include_str!("book/std200-46.txt") },
    BookFile { name: "std200-47.txt", text: include_str!("book/std200-47.txt") },
    BookFile { name: "std200-49.txt", text: include_str!("book/std200-49.txt") },
    BookFile { name: "std200-50.txt", text: include_str!("book/std200-50.txt") },
    BookFile { name: "std200-51.txt", text: include_str!("book/std200-51.txt") },
    BookFile { name: "std200-53.txt", text: include_str!("book/std200-53.txt") },
    BookFile { name: "std200-54.txt", text: include_str!("book/std200-54.txt") },
    BookFile { name: "std200-55.txt", text: include_str!("book/std200-55.txt") },
    BookFile { name: "std200-56.txt", text: include_str!("book/std200-56.txt") },
    BookFile { name: "std200-58.txt", text: include_str!("book/std200-58.txt") },
    BookFile { name: "std200-59.txt", text: include_str!("book/std200-59.txt") },
    BookFile { name: "std200-60.txt", text: include_str!("book/std200-60.txt") },
    BookFile { name: "std200-61.txt", text: include_str!("book/std200-61.txt") },
    BookFile { name: "std200-62.txt", text: include_str!("book/std200-62.txt") },
    BookFile { name: "std200-63.txt", text: include_str!("book/std200-63.txt") },
    BookFile { name: "std200-64.txt", text: include_str!("book/std200-64.txt") },
    BookFile { name: "std200-65.txt", text: include_str!("book/std200-65.txt") },
    BookFile { name: "std200-66.txt", text: include_str!("book/std200-66.txt") },
    BookFile { name: "std200-68.txt", text: include_str!("book/std200-68.txt") },
    BookFile { name: "std200-69.txt", text: include_str!("book/std200-69.txt") },
    BookFile { name: "std200-70.txt", text: include_str!("book/std200-70.txt") },
    BookFile { name: "std200-74.txt", text: include_str!("book/std200-74.txt") },
    BookFile { name: "std200-75.txt", text: include_str!("book/std200-75.txt") },
    BookFile { name: "std200-76.txt", text: include_str!("book/std200-76.txt") },
    BookFile { name: "std200-77.txt", text: include_str!("book/std200-77.txt") },
    BookFile { name: "std200-82.txt", text: include_str!("book/std200-82.txt") },
    BookFile { name: "std200-84.txt", text: include_str!("book/std200-84.txt") },
    BookFile { name: "std200-85.txt", text: include_str!("book/std200-85.txt") },
    BookFile { name: "std200-86.txt", text: include_str!("book/std200-86.txt") },
    BookFile { name: "std200-91.txt", text: include_str!("book/std200-91.txt") },
    BookFile { name: "std200-93.txt", text: include_str!("book/std200-93.txt") },
    BookFile { name: "std200-94.txt", text: include_str!("book/std200-94.txt") },
    BookFile { name: "std200-95.txt", text: include_str!("book/std200-95.txt") },
    BookFile { name: "std200-96.txt", text: include_str!("book/std200-96.txt") },
    BookFile { name: "std200-99.txt", text: include_str!("book/std200-99.txt") },
    BookFile { name: "std200-100.txt", text: include_str!("book/std200-100.txt") },
    BookFile { name: "std200-101.txt", text: include_str!("book/std200-101.txt") },
    BookFile { name: "std200-103.txt", text: include_str!("book/std200-103.txt") },
    BookFile { name: "std200-104.txt", text: include_str!("book/std200-104.txt") },
    BookFile { name: "std200-105.txt", text: include_str!("book/std200-105.txt") },
    BookFile { name: "std200-109.txt", text: include_str!("book/std200-109.txt") },
    BookFile { name: "std200-110.txt", text: include_str!("book/std200-110.txt") },
    BookFile { name: "std200-112.txt", text: include_str!("book/std200-112.txt") },
    BookFile { name: "std200-113.txt", text: include_str!("book/std200-113.txt") },
    BookFile { name: "std200-115.txt", text: include_str!("book/std200-115.txt") },
    BookFile { name: "std200-117.txt", text: include_str!("book/std200-117.txt") },
    BookFile { name: "std200-118.txt", text: include_str!("book/std200-118.txt") },
    BookFile { name: "std200-119.txt", text: include_str!("book/std200-119.txt") },
    BookFile { name: "std200-121.txt", text: include_str!("book/std200-121.txt") },
    BookFile { name: "std200-122.txt", text: include_str!("book/std200-122.txt") },
    BookFile { name: "std200-123.txt", text: include_str!("book/std200-123.txt") },
    BookFile { name: "std200-124.txt", text: include_str!("book/std200-124.txt") },
    BookFile { name: "std200-129.txt", text: include_str!("book/std200-129.txt") },
    BookFile { name: "std200-134.txt", text: include_str!("book/std200-134.txt") },
    BookFile { name: "std200-135.txt", text: include_str!("book/std200-135.txt") },
    BookFile { name: "std200-136.txt", text: include_str!("book/std200-136.txt") },
    BookFile { name: "std200-137.txt", text: include_str!("book/std200-137.txt") },
    BookFile { name: "std200-138.txt", text: include_str!("book/std200-138.txt") },
    BookFile { name: "std200-141.txt", text: include_str!("book/std200-141.txt") },
    BookFile { name: "std200-142.txt", text: include_str!("book/std200-142.txt") },
    BookFile { name: "std200-143.txt", text: include_str!("book/std200-143.txt") },
    BookFile { name: "std200-144.txt", text: include_str!("book/std200-144.txt") },
    BookFile { name: "std200-146.txt", text: include_str!("book/std200-146.txt") },
    BookFile { name: "std200-149.txt", text: include_str!("book/std200-149.txt") },
    BookFile { name: "std200-151.txt", text: include_str!("book/std200-151.txt") },
    BookFile { name: "std200-156.txt", text: include_str!("book/std200-156.txt") },
    BookFile { name: "std200-160.txt", text: include_str!("book/std200-160.txt") },
    BookFile { name: "std200-161.txt", text: include_str!("book/std200-161.txt") },
    BookFile { name: "std200-163.txt", text: include_str!("book/std200-163.txt") },
    BookFile { name: "std200-164.txt", text: include_str!("book/std200-164.txt") },
    BookFile { name: "std200-165.txt", text: include_str!("book/std200-165.txt") },
    BookFile { name: "std200-166.txt", text: include_str!("book/std200-166.txt") },
    BookFile { name: "std200-168.txt", text: include_str!("book/std200-168.txt") },
    BookFile { name: "std200-169.txt", text: include_str!("book/std200-169.txt") },
    BookFile { name: "std200-172.txt", text: include_str!("book/std200-172.txt") },
    BookFile { name: "std200-175.txt", text: include_str!("book/std200-175.txt") },
    BookFile { name: "std200-178.txt", text: include_str!("book/std200-178.txt") },
    BookFile { name: "std200-180.txt", text: include_str!("book/std200-180.txt") },
    BookFile { name: "std200-181.txt", text: include_str!("book/std200-181.txt") },
    BookFile { name: "std200-183.txt", text: include_str!("book/std200-183.txt") },
    BookFile { name: "std200-184.txt", text: include_str!("book/std200-184.txt") },
    BookFile { name: "std200-185.txt", text: include_str!("book/std200-185.txt") },
    BookFile { name: "std200-187.txt", text: include_str!("book/std200-187.txt") },
    BookFile { name: "std200-190.txt", text: include_str!("book/std200-190.txt") },
    BookFile { name: "std200-194.txt", text: include_str!("book/std200-194.txt") },
    BookFile { name: "std200-198.txt", text: include_str!("book/std200-198.txt") },
    BookFile { name: "std200-199.txt", text: include_str!("book/std200-199.txt") },
    BookFile { name: "std200-200.txt", text: include_str!("book/std200-200.txt") },
];

/// The standard game's rules, which the books are for.
static STANDARD: LazyLock<Rules> = LazyLock::new(|| Rules::default_for(Variant::Standard));

/// One line of a book: a position line (five fields), the move and the
/// plies, or `None` for a comment or a blank line. The move must be legal.
pub fn parse_line(line: &str) -> Option<Result<(Position, Move, u32), String>> {
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

/// A book line's position without its ply: its first four fields.
fn without_ply(line: &str) -> Option<&str> {
    let mut spaces = line.match_indices(' ').map(|(index, _)| index);
    spaces.nth(3).map(|end| &line[..end])
}

/// Every book's lines, sorted by their position without the ply as
/// `Position` writes it (the tests check each line is so written), the first
/// book's line kept where two books hold a position: half a million lines
/// are indexed without parsing any, and only a line looked up is parsed. A
/// sorted list takes 16 bytes a line, and the sort's keys 24 more a line
/// while it runs (a hash map of 0.5 million lines took 34.6 MB in one
/// allocation, which failed where memory is short after the tables had
/// taken theirs).
static KNOWN: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let mut known = Vec::new();
    for book in std::iter::once(&START).chain(BOOKS) {
        for line in book.text.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#')) {
            match without_ply(line) {
                Some(_) => known.push(line),
                None => log::warn!("book {}: not a book line: {line}", book.name),
            }
        }
    }
    // Keys found once a line, not at each comparison; the sort keeps the
    // lines of one position in the books' order.
    known.sort_by_cached_key(|line| without_ply(line));
    known.dedup_by(|later, earlier| without_ply(later) == without_ply(earlier));
    known
});

/// Indexes the books now, not at the first lookup.
pub fn load() {
    LazyLock::force(&KNOWN);
}

/// The book's winning move at `position` under `rules`, and at most how
/// many plies the game then lasts: only for the standard game on the
/// default board with the default pods, and only a legal move.
pub fn known_win(rules: &Rules, position: &Position) -> Option<(Move, u32)> {
    if rules.variant() != Variant::Standard || *rules.board() != Board::default() || *rules.pods() != PodSet::default()
    {
        return None;
    }
    let line = position.to_string();
    let key = without_ply(&line)?;
    let index = KNOWN.binary_search_by(|probe| without_ply(probe).cmp(&Some(key))).ok()?;
    let book_line = KNOWN[index];
    let (_, mv, plies) = parse_line(book_line)?.ok()?;
    position.check(rules, mv).is_ok().then_some((mv, plies))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::games::pods::PodsAdapter;
    use crate::search::{Leaves, check_proof_tree_sample};

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
    const SAMPLE_ONE_IN: u64 = 20;

    /// At most about this many of a large book's: a Black win's tree holds
    /// thousands of entries, and CI's time is shared by all the books.
    const SAMPLED_PER_BOOK: u64 = 20;

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
        for book in BOOKS {
            prove_again(book, true);
        }
    }

    /// Every book proved again, every entry:
    /// `cargo test --release --lib pods::book -- --ignored`.
    #[test]
    #[ignore = "every entry of every book: minutes in release"]
    fn every_book_proves_its_opening_again() {
        for book in BOOKS {
            prove_again(book, false);
        }
    }

    #[test]
    fn the_book_answers_whatever_the_ply_and_only_with_the_default_rules() {
        let book = &BOOKS[0];
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
        // The start is in the start's book; its other rotations in none.
        let start = Position::start(&STANDARD, Rotation::R0);
        assert_eq!(known_win(&STANDARD, &start), Some(("B@a1".parse().unwrap(), 27)));
        assert_eq!(known_win(&STANDARD, &Position::start(&STANDARD, Rotation::R90)), None);
    }

    /// Every book in `book/` is carried: `scripts/campaign.py trees` writes
    /// the files, and a file not listed in `BOOKS` would be a proof the
    /// engine does not know.
    #[test]
    fn every_book_file_is_carried() {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games/pods/book");
        let mut files: Vec<String> = std::fs::read_dir(&folder)
            .expect("the books' folder")
            .map(|entry| entry.expect("a file").file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".txt") && name != START.name)
            .collect();
        files.sort();
        let mut carried: Vec<String> = BOOKS.iter().map(|book| book.name.to_string()).collect();
        carried.sort();
        assert_eq!(files, carried);
    }

    /// Every line of every book is a legal move at a position written as
    /// `Position` writes it (the lookup compares the lines as text), and no
    /// position is in a book twice.
    #[test]
    fn every_book_line_is_read_as_written() {
        let mut lines = 0;
        for book in std::iter::once(&START).chain(BOOKS) {
            let mut seen = std::collections::HashSet::new();
            for line in book.text.lines().map(str::trim) {
                let Some(parsed) = parse_line(line) else { continue };
                let (position, mv, plies) = parsed.unwrap_or_else(|error| panic!("{}: {error}", book.name));
                assert_eq!(line, format!("{position} {mv} {plies}"), "{}: written as the engine writes it", book.name);
                assert!(seen.insert(without_ply(line).unwrap().to_string()), "{}: twice: {line}", book.name);
                assert_eq!(known_win(&STANDARD, &position).map(|(_, plies)| plies > 0), Some(true));
                lines += 1;
            }
        }
        assert!(lines > 80_000, "{lines} lines");
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
