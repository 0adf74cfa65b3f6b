//! Packs the standard Pods proof books (`src/games/pods/book/*.txt`, the
//! committed text that `scripts/campaign.py` writes) into the sorted records
//! the engine carries (`src/games/pods/book_table.rs` says how).

use std::path::{Path, PathBuf};
use std::{env, fs};

#[allow(dead_code)] // the engine's half (reading records) is not needed here
#[path = "src/games/pods/book_table.rs"]
mod book_table;

use book_table::{FOLDER, MOVE_BYTES, RECORD_BYTES, book_files, encode, key_hash, position_key};

fn main() {
    println!("cargo:rerun-if-changed={FOLDER}");
    println!("cargo:rerun-if-changed=src/games/pods/book_table.rs");

    let files = book_files(Path::new(FOLDER)).unwrap_or_else(|error| panic!("{FOLDER}: {error}"));
    let texts: Vec<(PathBuf, String)> = files
        .into_iter()
        .map(|path| {
            let text = fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
            (path, text)
        })
        .collect();
    // (hash, key, record) in the books' order; a bad line fails the build
    // with its place, as the tests would fail on it.
    let mut entries: Vec<(u64, &str, [u8; RECORD_BYTES])> = Vec::new();
    for (path, text) in &texts {
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let place = || format!("{}:{}: {line}", path.display(), number + 1);
            let fields: Vec<&str> = line.split_whitespace().collect();
            let (Some(key), [_, _, _, _, _, mv, plies]) = (position_key(line), &fields[..]) else {
                panic!("{}: not a book line (a position of five fields, a move, plies)", place())
            };
            let mv: [u8; MOVE_BYTES] =
                mv.as_bytes().try_into().unwrap_or_else(|_| panic!("{}: a move of {MOVE_BYTES} characters", place()));
            let plies: u8 = plies.parse().unwrap_or_else(|_| panic!("{}: plies from 0 to 255", place()));
            let hash = key_hash(key);
            entries.push((hash, key, encode(hash, mv, plies)));
        }
    }
    // Stable: the first book's record comes first among a position's.
    entries.sort_by_key(|&(hash, _, _)| hash);
    entries.dedup_by(|later, earlier| {
        assert!(
            later.0 != earlier.0 || later.1 == earlier.1,
            "two positions with one hash: {} and {}",
            earlier.1,
            later.1
        );
        later.0 == earlier.0
    });
    let table: Vec<u8> = entries.iter().flat_map(|(_, _, record)| *record).collect();
    // book.rs includes the file by this name.
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("pods_book.bin");
    fs::write(&out, table).unwrap_or_else(|error| panic!("{}: {error}", out.display()));
}
