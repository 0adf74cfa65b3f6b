//! The tables' memory is taken outside any search: the transposition and
//! proof tables are made and written when `Hash` is set, at the first
//! `isready` and at a new game, so that no `go` pays for their pages; and
//! where memory is short the engine makes smaller tables and says so, never
//! aborts. Measured by the engine's resident memory (`VmRSS` in
//! `/proc/<pid>/status`) and under `ulimit -v`, never by a clock.
#![cfg(target_os = "linux")]

mod protocol_common;

use std::time::Duration;

use protocol_common::{EngineProcess, REPLY_TIMEOUT, check_search_output, resident_megabytes};

/// Writing a large table takes seconds on a crowded machine: a deadline
/// against hanging, not a measurement.
const ALLOCATION_TIMEOUT: Duration = Duration::from_secs(120);

/// `isready` -> `readyok`, however long the tables take; the lines before it.
fn ready(engine: &mut EngineProcess) -> Vec<String> {
    engine.send("isready");
    let mut lines = engine.read_until(|line| line == "readyok", ALLOCATION_TIMEOUT);
    lines.pop();
    lines
}

/// Sends `line`, then waits for the answer to `query fen` after it: the
/// engine has done all `line` does.
fn done(engine: &mut EngineProcess, line: &str) -> Vec<String> {
    engine.send(line);
    engine.send("query fen");
    let mut lines = engine.read_until(|line| line.starts_with("response "), ALLOCATION_TIMEOUT);
    lines.pop();
    lines
}

fn handshake(engine: &mut EngineProcess) {
    engine.send("uci");
    engine.read_until(|line| line == "uciok", REPLY_TIMEOUT);
}

/// The default `Hash`, 64 MB, makes 64 MB of transposition table and 32 MB
/// of proofs: at least this much is resident once they are written.
const DEFAULT_TABLES_MEGABYTES: u64 = 90;

#[test]
fn the_first_isready_makes_and_writes_the_tables() {
    let mut engine = EngineProcess::start();
    handshake(&mut engine);
    let before = resident_megabytes(&engine.pid().to_string());
    assert!(before < 32, "{before} MB resident before the first isready");
    assert_eq!(ready(&mut engine), Vec::<String>::new());
    let after = resident_megabytes(&engine.pid().to_string());
    assert!(after >= before + DEFAULT_TABLES_MEGABYTES, "{before} MB before isready, {after} MB after");
}

#[test]
fn a_new_game_or_a_hash_size_makes_the_tables_before_any_isready() {
    for first in ["newgame", "ucinewgame", "uginewgame", "newgame poldr", "setoption name Hash value 64"] {
        let mut engine = EngineProcess::start();
        handshake(&mut engine);
        let before = resident_megabytes(&engine.pid().to_string());
        assert_eq!(done(&mut engine, first), Vec::<String>::new());
        let after = resident_megabytes(&engine.pid().to_string());
        assert!(after >= before + DEFAULT_TABLES_MEGABYTES, "{first}: {before} MB before, {after} MB after");
    }
}

#[test]
fn a_new_hash_size_replaces_the_tables_at_once() {
    let mut engine = EngineProcess::start();
    handshake(&mut engine);
    ready(&mut engine);
    done(&mut engine, "setoption name Hash value 128");
    let large = resident_megabytes(&engine.pid().to_string());
    assert!(large >= 128 + 64, "Hash 128: {large} MB resident");
    done(&mut engine, "setoption name Hash value 8");
    let small = resident_megabytes(&engine.pid().to_string());
    assert!(small < 64, "Hash 8 after Hash 128: {small} MB resident (the old tables are freed)");
    engine.send("position startpos");
    let (infos, mv) = engine.search("go depth 4", REPLY_TIMEOUT);
    check_search_output(&infos, &mv);
}

/// Searches each game a little, then quits: the engine must exit cleanly.
fn search_both_games_and_quit(mut engine: EngineProcess) {
    for setup in ["newgame standard", "newgame poldr"] {
        engine.send(setup);
        engine.send("position startpos");
        let (infos, mv) = engine.search("go depth 5", ALLOCATION_TIMEOUT);
        check_search_output(&infos, &mv);
    }
    engine.send("quit");
    let status = engine.wait_exit(REPLY_TIMEOUT).expect("the engine exits");
    assert_eq!(status.code(), Some(0), "{}", engine.dump());
}

#[test]
fn short_of_address_space_a_large_hash_gives_way_with_a_warning() {
    // About 390 MB of address space: 1024 MB of table and 512 MB of proofs
    // cannot be had, and used to end the process ("memory allocation of
    // 1048576 bytes failed", status 134) once the tables had taken it all.
    let mut engine = EngineProcess::start_after_shell("ulimit -v 400000");
    handshake(&mut engine);
    engine.send("setoption name Hash value 1024");
    let lines = ready(&mut engine);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("info string warning: Hash: 1024 MB cannot be allocated here: using "), "{lines:?}");
    search_both_games_and_quit(engine);
}

#[test]
fn short_of_address_space_the_default_hash_gives_way_too() {
    // About 100 MB: not enough for the default tables and the rest; with a
    // helper thread searching too.
    let mut engine = EngineProcess::start_after_shell("ulimit -v 105000");
    handshake(&mut engine);
    engine.send("setoption name Threads value 2");
    let lines = ready(&mut engine);
    assert!(lines.iter().any(|line| line.starts_with("info string warning: Hash: 64 MB cannot")), "{lines:?}");
    search_both_games_and_quit(engine);
}
