//! One suite every registered game runs, as OpenSpiel's basic tests do:
//! random games through the registry and `Session` alone, checking at every
//! position that
//! - the position line reads back to the same position with the same key
//!   (the key read from a line is computed from scratch; the game's own is
//!   kept move by move);
//! - the game is over exactly when there is no legal move, and its winner
//!   is one of its seats;
//! - every legal move reads back as itself and plays, and `legal_move` and
//!   `play` refuse what is not in the list (moves of other positions,
//!   mangled text), changing nothing;
//! - perft equals the sum of `divide`, and of the children's perft;
//! - where the game declares symmetries, their images have the same perft;
//! - a short search answers a legal move.
//!
//! A toy game (tests/toy_game) registered beside Pods and POLD.R runs the
//! suite too, and the protocol, `analyse` and `bench` serve it without a
//! line of theirs naming it.

mod toy_game;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use podium::cli::analysis::analyse;
use podium::cli::bench::{self, BenchOptions};
use podium::games::registry::{GameType, Registry};
use podium::games::{GameSetup, Session};
use podium::protocol::output::MemorySink;
use podium::protocol::{Engine, Output};
use podium::search::{Limits, Searcher, Signals};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

/// A seeded random number below `n`.
fn below(random: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    (random.next_u64() % n as u64) as usize
}

/// How much of the suite a game runs.
struct Budget {
    games: usize,
    plies: usize,
    /// perft depth of the checks of divide and of symmetries.
    perft_depth: u32,
}

/// Runs the suite on the game `name` of `registry`, set up with `settings`.
fn check_game(registry: &Registry, name: &str, settings: &[(&str, &str)], budget: &Budget, seed: u64) {
    let selected = registry.select(Some(name), settings).unwrap_or_else(|error| panic!("{name}: {error}"));
    let setup = selected.setup;
    let mut random = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut searcher = Searcher::new(1);
    // Moves seen anywhere, to try where they may not belong.
    let mut seen_moves: Vec<String> = vec!["".into(), "x".into(), "pass".into(), "A@c3".into(), "Pc3Mc5".into()];
    for game in 0..budget.games {
        let mut session = setup.start();
        for ply in 0..budget.plies {
            let context = format!("{name} {settings:?} game {game} ply {ply}: {}", session.position_line());
            check_position(setup.as_ref(), session.as_ref(), &seen_moves, &context);
            if ply % 4 == 0 {
                check_counts(setup.as_ref(), session.as_ref(), budget.perft_depth, &context);
                check_search(&mut searcher, session.as_ref(), &context);
            }
            let moves = session.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[below(&mut random, moves.len())].clone();
            session.play(&mv).unwrap_or_else(|error| panic!("{context}: {mv}: {error}"));
            if seen_moves.len() < 400 && !seen_moves.contains(&mv) {
                seen_moves.push(mv);
            }
        }
    }
}

/// The checks that are cheap enough for every position.
fn check_position(setup: &dyn GameSetup, session: &dyn Session, seen_moves: &[String], context: &str) {
    let line = session.position_line();
    let read = setup.session_at(&line).unwrap_or_else(|error| panic!("{context}: its own line: {error}"));
    assert_eq!(read.position_line(), line, "{context}: the line reads back");
    assert_eq!(read.key(), session.key(), "{context}: the key kept move by move is the key from scratch");

    let moves = session.legal_moves();
    let outcome = session.outcome();
    assert_eq!(outcome.is_some(), moves.is_empty(), "{context}: over exactly when no move is legal ({outcome:?})");
    if let Some(outcome) = &outcome {
        assert!(outcome.winner.is_none_or(|seat| seat < session.players()), "{context}: {outcome:?}");
    }
    assert!(session.mover() < session.players(), "{context}");
    let mut distinct = moves.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), moves.len(), "{context}: a move listed twice: {moves:?}");
    for mv in &moves {
        assert_eq!(session.legal_move(mv).ok().as_ref(), Some(mv), "{context}: {mv} reads back as itself");
        let mut child = session.box_clone();
        child.play(mv).unwrap_or_else(|error| panic!("{context}: {mv} is listed but does not play: {error}"));
        assert_ne!(child.position_line(), line, "{context}: {mv} changes the position");
    }
    let mangled = moves.iter().flat_map(|mv| [format!("{mv}{mv}"), mv.chars().rev().collect(), format!(" {mv}")]);
    for text in seen_moves.iter().cloned().chain(mangled) {
        let listed = moves.contains(&text);
        let legal = session.legal_move(&text);
        assert_eq!(legal.is_ok(), listed, "{context}: legal_move({text:?}) = {legal:?}, listed {listed}");
        let mut trial = session.box_clone();
        let played = trial.play(&text);
        assert_eq!(played.is_ok(), listed, "{context}: play({text:?}) = {played:?}");
        if !listed {
            assert_eq!(trial.position_line(), line, "{context}: a refused {text:?} changes nothing");
        }
    }
}

/// perft against divide, against the children's perft, and under the
/// game's symmetries.
fn check_counts(setup: &dyn GameSetup, session: &dyn Session, depth: u32, context: &str) {
    let total = session.perft(depth);
    let mut divided = Vec::new();
    assert!(session.divide(depth, &AtomicBool::new(false), &mut |mv, count| divided.push((mv.to_string(), count))));
    assert_eq!(divided.iter().map(|(_, count)| count).sum::<u64>(), total, "{context}: perft and divide");
    let moves = session.legal_moves();
    assert_eq!(divided.iter().map(|(mv, _)| mv.clone()).collect::<Vec<_>>(), moves, "{context}: divide's moves");
    for (mv, count) in &divided {
        let mut child = session.box_clone();
        child.play(mv).expect("a listed move");
        assert_eq!(child.perft(depth - 1), *count, "{context}: perft after {mv}");
    }
    for image in setup.symmetric_lines(&session.position_line()) {
        let image = setup.session_at(&image).unwrap_or_else(|error| panic!("{context}: image {image}: {error}"));
        assert_eq!(image.perft(depth), total, "{context}: perft of the image {}", image.position_line());
    }
}

/// A short search answers one of the legal moves, or none when there is none.
fn check_search(searcher: &mut Searcher, session: &dyn Session, context: &str) {
    if session.outcome().is_some() {
        return;
    }
    searcher.clear();
    let limits = Limits { depth: Some(2), ..Limits::default() };
    let result = session.search(searcher, &limits, &[], &Signals::default(), &mut |_| {});
    let best = result.best_move.unwrap_or_else(|| panic!("{context}: no move"));
    assert!(session.legal_moves().contains(&best), "{context}: {best} is not legal");
}

/// Fewer and shorter games in a debug build, where every move is checked
/// against a hash computed from scratch as well.
fn scaled(games: usize, plies: usize, perft_depth: u32) -> Budget {
    let games = if cfg!(debug_assertions) { games.div_ceil(3) } else { games };
    Budget { games, plies, perft_depth }
}

#[test]
fn pods_runs_the_suite_in_both_variants_and_every_rotation() {
    let registry = Registry::builtin();
    for (index, rotation) in ["0", "90", "180", "270"].into_iter().enumerate() {
        let seed = index as u64;
        check_game(&registry, "pods", &[("Variant", "standard"), ("Rotation", rotation)], &scaled(2, 30, 2), seed);
        check_game(&registry, "pods", &[("Variant", "advanced"), ("Rotation", rotation)], &scaled(2, 60, 2), seed);
    }
    check_game(&registry, "pods", &[("Variant", "advanced"), ("PlacementLiberty", "true")], &scaled(2, 40, 2), 9);
}

#[test]
fn poldr_runs_the_suite_at_every_size_with_two_and_three_players() {
    let registry = Registry::builtin();
    for size in 4..=9u64 {
        for players in ["2", "3"] {
            let size_text = size.to_string();
            let bricks = (size * 2).to_string();
            let settings = [("Size", size_text.as_str()), ("Players", players), ("Bricks", bricks.as_str())];
            check_game(&registry, "poldr", &settings, &scaled(3, 80, 3), size);
        }
    }
}

/// The builtin games and the toy, as a registry that names the toy in one line.
fn with_toy() -> Registry {
    let mut games = Registry::builtin().games().to_vec();
    games.push(Arc::new(toy_game::Subtraction) as Arc<dyn GameType>);
    Registry::new(games)
}

#[test]
fn a_toy_game_registered_in_one_line_runs_the_suite() {
    let registry = with_toy();
    check_game(&registry, "subtraction", &[], &scaled(4, 40, 4), 1);
    check_game(&registry, "subtraction", &[("Stones", "50"), ("Take", "5")], &scaled(4, 40, 4), 2);
}

#[test]
fn the_protocol_serves_the_toy_game() {
    let sink = MemorySink::default();
    let mut engine = Engine::new(with_toy(), Output::new(sink.clone()));
    let mut run = |line: &str| {
        engine.execute_line(line);
        sink.take_lines()
    };
    let handshake = run("ugi");
    assert!(handshake.contains(&"option name Game type combo default pods var pods var poldr var subtraction".into()));
    assert!(handshake.contains(&"option name Stones type spin default 21 min 1 max 200".into()), "{handshake:?}");
    assert!(run("newgame subtraction stones 10").is_empty());
    assert_eq!(run("query fen"), ["response 10 first"]);
    assert_eq!(run("moves"), ["1 2 3"]);
    assert_eq!(run("position startpos moves 1 3"), Vec::<String>::new());
    assert_eq!(run("query fen"), ["response 6 first"]);
    assert_eq!(run("query islegal 4"), ["response false"]);
    assert!(run("newgame subtraction take 10")[0].starts_with("info string error: newgame: Take: '10' is not"));
    assert!(run("position fen 6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0")[0].contains("this is a Pods position"));
    // Six stones, three a move: taking two leaves the opponent a multiple of four.
    engine.execute_line("go depth 10");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let mut lines = Vec::new();
    while !lines.iter().any(|line: &String| line.starts_with("bestmove")) {
        assert!(std::time::Instant::now() < deadline, "{lines:?}");
        std::thread::sleep(std::time::Duration::from_millis(5));
        lines.extend(sink.take_lines());
    }
    assert_eq!(lines.last().map(String::as_str), Some("bestmove 2"), "{lines:?}");
    assert!(lines.iter().any(|line| line.contains(" score mate ")), "{lines:?}");
}

#[test]
fn analyse_and_bench_serve_the_toy_game() {
    let registry = with_toy();
    let setup = registry.select(Some("subtraction"), &[("Stones", "9")]).unwrap().setup;
    let session = setup.start();
    let analysis = analyse(&mut Searcher::new(1), session.as_ref(), &Limits { depth: Some(12), ..Limits::default() });
    assert_eq!(analysis.best_move.as_deref(), Some("1"), "{analysis:?}");
    assert!(matches!(analysis.proven, Some((moves, Some(0))) if moves > 0), "{analysis:?}");
    let json = analysis.to_json(1, "startpos", session.as_ref());
    assert!(json.contains("\"bestmove\":\"1\""), "{json}");

    let mut lines = Vec::new();
    let first = bench::run(&registry, BenchOptions { depth: Some(3), threads: 1 }, |line| lines.push(line)).unwrap();
    assert!(first > 0);
    let toy = lines.iter().find(|line| line.starts_with("Bench subtraction: ")).expect("the toy's bench line");
    let nodes: u64 = toy.split(' ').nth(2).unwrap().parse().unwrap();
    assert!(nodes > 0, "{lines:?}");
    assert!(lines.iter().any(|line| line.starts_with("position 1/2 subtraction 21 first: bestmove 1 ")), "{lines:?}");
    assert!(lines.last().unwrap().starts_with("Bench: "), "{lines:?}");
}
