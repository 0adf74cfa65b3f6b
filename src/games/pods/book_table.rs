//! The proof books' packed form, shared by `build.rs`, which writes it from
//! the books' text at build time, and `book.rs`, which looks positions up in
//! it. The text (1.7 million lines, 107 MB) stays the committed source;
//! the engine carries 13 bytes a position instead, sorted, searched where it
//! lies in the binary, with nothing to read or index at startup.
//!
//! This file is compiled twice (as a module of the crate and inside the
//! build script), so it uses nothing but `std`.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// One position's record: its key's hash (8 bytes, little-endian), the
/// move's text (4 bytes: a standard placement such as `B@a1`), the plies.
pub const RECORD_BYTES: usize = 13;

/// A record's move: always a placement of four characters in the standard
/// game, which the build checks.
pub const MOVE_BYTES: usize = 4;

/// The books' text, from the crate's root.
#[cfg_attr(not(test), allow(dead_code))] // the engine reads records, not files
pub const FOLDER: &str = "src/games/pods/book";

/// The books' files in `folder`, in the order the engine prefers them where
/// two hold a position: the start's proof (`start.txt`), then by name and
/// number (the other rotations' `start-90.txt`, `start-180.txt` and
/// `start-270.txt`, then the openings' `std200-NN.txt`).
#[cfg_attr(not(test), allow(dead_code))] // the engine reads records, not files
pub fn book_files(folder: &Path) -> io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in fs::read_dir(folder)? {
        let path = entry?.path();
        if path.extension().is_some_and(|extension| extension == "txt") {
            files.push(path);
        }
    }
    files.sort_by_cached_key(|path| {
        let stem = path.file_stem().and_then(|stem| stem.to_str()).unwrap_or_default().to_string();
        let (prefix, number) = stem.rsplit_once('-').unwrap_or((&stem, ""));
        (stem != "start", prefix.to_string(), number.parse::<u64>().unwrap_or(0), stem.clone())
    });
    Ok(files)
}

/// A book line's position without its ply (its first four fields): a
/// position is known by this, so a move counter does not matter.
pub fn position_key(line: &str) -> Option<&str> {
    let mut spaces = line.match_indices(' ').map(|(index, _)| index);
    spaces.nth(3).map(|end| &line[..end])
}

/// The 64-bit hash records are sorted and found by: FNV-1a over the key's
/// text, then the SplitMix64 finaliser to spread its bits. The build
/// refuses two keys with one hash; a position outside the books meets a
/// book's hash with odds of the records' count over 2^64 (about one in
/// 1.1e13 with 1.7 million), and its move is then still checked legal
/// before it is given.
pub fn key_hash(key: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in key.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash = (hash ^ (hash >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    hash = (hash ^ (hash >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    hash ^ (hash >> 31)
}

/// A record of `hash`, `mv` (four bytes of text) and `plies`.
#[cfg_attr(not(test), allow(dead_code))] // written by the build
pub fn encode(hash: u64, mv: [u8; MOVE_BYTES], plies: u8) -> [u8; RECORD_BYTES] {
    let mut record = [0; RECORD_BYTES];
    record[..8].copy_from_slice(&hash.to_le_bytes());
    record[8..8 + MOVE_BYTES].copy_from_slice(&mv);
    record[RECORD_BYTES - 1] = plies;
    record
}

/// A record's hash.
pub fn record_hash(record: &[u8; RECORD_BYTES]) -> u64 {
    let mut bytes = [0; 8];
    bytes.copy_from_slice(&record[..8]);
    u64::from_le_bytes(bytes)
}

/// A record's move text (as written, not yet parsed) and plies.
pub fn record_move(record: &[u8; RECORD_BYTES]) -> (&[u8], u8) {
    (&record[8..8 + MOVE_BYTES], record[RECORD_BYTES - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_gives_back_what_it_was_made_of() {
        let hash = key_hash("6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0");
        let record = encode(hash, *b"B@a1", 27);
        assert_eq!(record_hash(&record), hash);
        assert_eq!(record_move(&record), (&b"B@a1"[..], 27));
    }

    #[test]
    fn keys_are_the_first_four_fields_and_hash_apart() {
        let line = "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 12 B@a1 27";
        assert_eq!(position_key(line), Some("6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0"));
        assert_eq!(position_key("6/6/6/6/6/6 w ABC"), None);
        // One character apart (the rotation): different hashes.
        assert_ne!(key_hash("6/6/6/6/6/6 w A 0"), key_hash("6/6/6/6/6/6 w A 9"));
    }
}
