//! The layers only call down, and only `src/games/` knows the games:
//! `main.rs` -> `cli` -> `protocol` -> `games` -> `search`. A game is
//! served through the registry and `Session`, so no code above
//! `src/games/` names one (a third game would otherwise touch every layer).

use std::fs;
use std::path::{Path, PathBuf};

/// Every Rust file below `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

fn source() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The lines of the files below `layer` that hold any of `words`, as `file:line: text`.
fn offenders(layer: &str, words: &[&str]) -> Vec<String> {
    let root = source();
    let files = if layer.ends_with(".rs") { vec![root.join(layer)] } else { rust_files(&root.join(layer)) };
    let mut found = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).expect("a source file");
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if words.iter().any(|word| code.contains(word)) {
                found.push(format!("{}:{}: {}", file.display(), number + 1, line.trim()));
            }
        }
    }
    found
}

/// The names by which code would reach one game's own types.
const GAME_NAMES: [&str; 8] =
    ["games::pods", "games::poldr", "pods::", "poldr::", "PodsSession", "PoldrSession", "PodsAdapter", "PoldrAdapter"];

#[test]
fn the_search_knows_no_game_and_no_layer_above_it() {
    let found = offenders("search", &["crate::games", "crate::protocol", "crate::cli"]);
    assert!(found.is_empty(), "the search reaches up:\n{}", found.join("\n"));
}

#[test]
fn the_games_do_not_reach_up_to_the_protocol_or_the_command_line() {
    let found = offenders("games", &["crate::protocol", "crate::cli"]);
    assert!(found.is_empty(), "a game reaches up:\n{}", found.join("\n"));
}

#[test]
fn the_protocol_does_not_reach_up_to_the_command_line() {
    let found = offenders("protocol", &["crate::cli"]);
    assert!(found.is_empty(), "the protocol reaches up:\n{}", found.join("\n"));
}

#[test]
fn nothing_above_the_games_names_a_game() {
    for layer in ["protocol", "cli", "search", "main.rs", "lib.rs"] {
        let found = offenders(layer, &GAME_NAMES);
        assert!(found.is_empty(), "{layer} names a game's own types:\n{}", found.join("\n"));
    }
}

#[test]
fn the_check_finds_what_it_looks_for() {
    // The registry does name the games: a check that found nothing there
    // would be looking at nothing.
    assert!(!offenders("games/registry.rs", &GAME_NAMES).is_empty());
}
