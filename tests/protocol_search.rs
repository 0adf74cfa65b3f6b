//! `go` in all its forms through the real binary: legal answers, time
//! limits, `go infinite` with `isready` and `stop`, `quit` and the end of
//! input during a search, and commands that arrive while one runs.

mod protocol_common;

use std::time::{Duration, Instant};

use protocol_common::{EngineProcess, PROMPTLY, REPLY_TIMEOUT, check_search_output, has_form, is_move};

#[test]
fn go_depth_3_returns_a_legal_move_in_both_variants() {
    for variant in ["standard", "advanced"] {
        let mut engine = EngineProcess::start();
        engine.send(&format!("newgame {variant}"));
        engine.send("position startpos moves A@c3");
        let (infos, mv) = engine.search("go depth 3", REPLY_TIMEOUT);
        check_search_output(&infos, &mv);
        assert_eq!(infos.len(), 3, "one line per depth: {infos:?}");
        assert_eq!(engine.query(&format!("islegal {mv}")), "true", "{variant}: {mv}");
        // Every PV is legal move after move: replay each through the engine.
        for info in &infos {
            let pv = info.split(" pv ").nth(1).expect("a pv");
            engine.send(&format!("position startpos moves A@c3 {pv}"));
            assert_eq!(engine.sync(), Vec::<String>::new(), "{variant}: PV {pv} is not legal");
        }
    }
}

#[test]
fn go_nodes_and_go_depth_combine_with_the_first_limit_winning() {
    let mut engine = EngineProcess::start();
    engine.send("position startpos");
    let (infos, mv) = engine.search("go nodes 2000", REPLY_TIMEOUT);
    check_search_output(&infos, &mv);
    let (infos, mv) = engine.search("go depth 2 movetime 60000", REPLY_TIMEOUT);
    check_search_output(&infos, &mv);
    assert!(infos.last().unwrap().starts_with("info depth 2 "), "{infos:?}");
}

#[test]
fn a_decided_position_takes_its_fixed_time_and_no_other_limit_waits() {
    // Two and three players: Blue wins with its first turn (three bricks on
    // 5x5), which the alpha-beta and the MCTS search see at once.
    for players in [2, 3] {
        let mut engine = EngineProcess::start();
        engine.send(&format!("newgame poldr players {players} size 5 bricks 3"));
        engine.send("position startpos");
        // A fixed time a move is spent whole, decided or not.
        let sent = Instant::now();
        let (infos, mv) = engine.search("go movetime 1500", REPLY_TIMEOUT);
        check_search_output(&infos, &mv);
        assert!(
            sent.elapsed() >= Duration::from_millis(1200),
            "{players} players: answered after {:?}",
            sent.elapsed()
        );
        // A depth, nodes, a mate asked for, or a clock end the search where
        // they are met, however long the fixed time beside them.
        for go in [
            "go depth 3 movetime 60000",
            "go nodes 1000 movetime 60000",
            "go mate 1 movetime 60000",
            "go p1time 60000 p2time 60000 p3time 60000",
        ] {
            let sent = Instant::now();
            let (infos, mv) = engine.search(go, REPLY_TIMEOUT);
            check_search_output(&infos, &mv);
            // Far below the 60 s of the fixed time (decided, they answer in
            // milliseconds; the margin is for a loaded machine).
            let elapsed = sent.elapsed();
            assert!(elapsed < Duration::from_secs(5), "{players} players, {go}: answered after {elapsed:?}");
        }
    }
}

#[test]
fn go_movetime_200_answers_in_time() {
    let mut engine = EngineProcess::start();
    engine.send("newgame advanced");
    engine.send("position startpos");
    assert_eq!(engine.sync(), Vec::<String>::new());
    let sent = Instant::now();
    let (infos, mv) = engine.search("go movetime 200", REPLY_TIMEOUT);
    let elapsed = sent.elapsed();
    check_search_output(&infos, &mv);
    assert!(elapsed < Duration::from_millis(1500), "took {elapsed:?}");
}

#[test]
fn the_clock_of_the_side_to_move_counts() {
    let mut engine = EngineProcess::start();
    // Black to move with 300 ms left, White with a minute: the search's
    // limits (which `debug on` shows) are Black's clock, and it ends well
    // before White's minute would let it.
    engine.send("position startpos moves A@c3");
    engine.send("debug on");
    for go in ["go p1time 60000 p2time 300 p1inc 0 p2inc 0", "go wtime 60000 btime 300"] {
        let sent = Instant::now();
        engine.send(go);
        let debug = engine.read_line(REPLY_TIMEOUT);
        assert!(debug.starts_with("info string debug: searching "), "{go}: {debug}");
        assert!(debug.contains("clock: Some(Clock { remaining: 300ms, increment: 0ns"), "{go}: {debug}");
        let lines = engine.read_until(|line| line.starts_with("bestmove "), REPLY_TIMEOUT);
        let (bestmove, infos) = lines.split_last().expect("a bestmove");
        check_search_output(infos, bestmove.strip_prefix("bestmove ").expect("a move"));
        assert!(sent.elapsed() < PROMPTLY, "{go}: took {:?}", sent.elapsed());
    }
    engine.send("debug off");
    // A go that gives no time to the side to move is not guessed: it is
    // an error, answered by a one-ply search.
    engine.send("go p1time 1000");
    let error = engine.read_line(REPLY_TIMEOUT);
    assert_eq!(
        error,
        "info string error: go: no time given for the side to move, p2 (Black): add p2time or btime \
         (searching as 'go depth 1')"
    );
    let lines = engine.read_until(|line| line.starts_with("bestmove "), REPLY_TIMEOUT);
    assert!(lines[0].starts_with("info depth 1 "), "{lines:?}");
}

#[test]
fn go_infinite_answers_isready_at_once_and_stops_promptly() {
    let mut engine = EngineProcess::start();
    // Not the start, which the engine answers from the start's proof.
    engine.send("position startpos moves B@d1");
    engine.send("go infinite");
    // Nothing but info lines until stop.
    let quiet_until = Instant::now() + Duration::from_millis(400);
    while let Some(line) = engine.try_read_line(quiet_until.saturating_duration_since(Instant::now())) {
        assert!(line.starts_with("info depth "), "before stop: {line:?}");
    }
    let sent = Instant::now();
    engine.send("isready");
    let lines = engine.read_until(|line| line == "readyok", REPLY_TIMEOUT);
    assert!(sent.elapsed() < PROMPTLY, "readyok after {:?}", sent.elapsed());
    assert!(lines.iter().all(|line| line == "readyok" || line.starts_with("info depth ")), "{lines:?}");
    let sent = Instant::now();
    engine.send("stop");
    let lines = engine.read_until(|line| line.starts_with("bestmove "), REPLY_TIMEOUT);
    let elapsed = sent.elapsed();
    assert!(elapsed < PROMPTLY, "bestmove {elapsed:?} after stop");
    let mv = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
    assert!(is_move(mv), "{lines:?}");
    // Exactly one bestmove: nothing more comes, and stop when idle is silent.
    engine.send("stop");
    assert_eq!(engine.sync(), Vec::<String>::new());
    assert_eq!(engine.query(&format!("islegal {mv}")), "true");
}

#[test]
fn a_search_stopped_at_once_still_prints_an_info_line_and_a_legal_move() {
    let mut engine = EngineProcess::start();
    engine.send("newgame advanced");
    engine.send("position startpos moves A@c3 b@d4");
    stop_at_once(&mut engine, "advanced Pods");
    // POLD.R, two and three players (alpha-beta, MCTS): a move, and no
    // score of a game already over.
    for players in ["2", "3"] {
        engine.send("setoption name Game value poldr");
        engine.send(&format!("setoption name Players value {players}"));
        engine.send("position startpos moves Pc3Ma1");
        let infos = stop_at_once(&mut engine, &format!("{players} players"));
        assert!(infos.iter().all(|line| !line.contains(" score mate 0 ")), "{players} players: {infos:?}");
    }
}

/// `go infinite` then `stop` at once: checks the search's lines and that
/// its move is legal; returns the info lines.
fn stop_at_once(engine: &mut EngineProcess, what: &str) -> Vec<String> {
    engine.send("go infinite");
    engine.send("stop");
    let mut lines = engine.read_until(|line| line.starts_with("bestmove "), REPLY_TIMEOUT);
    let bestmove = lines.pop().unwrap();
    let mv = bestmove.strip_prefix("bestmove ").unwrap();
    check_search_output(&lines, mv);
    assert_eq!(engine.query(&format!("islegal {mv}")), "true", "{what}");
    lines
}

#[test]
fn quit_during_a_search_exits_at_once() {
    let mut engine = EngineProcess::start();
    engine.send("position startpos");
    engine.send("go infinite");
    engine.read_line(REPLY_TIMEOUT);
    let sent = Instant::now();
    engine.send("quit");
    let status = engine.wait_exit(Duration::from_secs(5)).expect("the engine exits");
    assert!(status.success(), "{status:?}");
    assert!(sent.elapsed() < PROMPTLY, "exit took {:?}", sent.elapsed());
}

#[test]
fn the_end_of_input_during_a_search_ends_it_cleanly() {
    let mut engine = EngineProcess::start();
    engine.send("position startpos");
    engine.send("go infinite");
    engine.read_line(REPLY_TIMEOUT);
    engine.close_stdin();
    let lines = engine.read_until(|line| line.starts_with("bestmove "), REPLY_TIMEOUT);
    assert!(has_form("bestmove <move>", lines.last().unwrap()), "{lines:?}");
    let status = engine.wait_exit(Duration::from_secs(5)).expect("the engine exits");
    assert!(status.success(), "{status:?}");
}

#[test]
fn commands_during_a_search_stop_it_first_and_say_so_with_its_bestmove() {
    let mut engine = EngineProcess::start();
    engine.send("position startpos");
    engine.send("go infinite");
    engine.read_line(REPLY_TIMEOUT);
    // Queries and bad lines leave the search running.
    assert_eq!(engine.query("fen"), protocol_common::START);
    engine.send("go perft banana");
    let lines = engine.read_until(|line| line.starts_with("info string"), REPLY_TIMEOUT);
    assert!(lines.iter().all(|line| !line.starts_with("bestmove")), "{lines:?}");
    // A new position stops it: its bestmove first, then the new position holds.
    engine.send("position startpos moves A@c3");
    let lines = engine.read_until(|line| line.starts_with("bestmove "), REPLY_TIMEOUT);
    assert!(has_form("bestmove <move>", lines.last().unwrap()), "{lines:?}");
    assert_eq!(engine.query("p1turn"), "false");
    // A go during a search: the first search answers, then the second.
    engine.send("go infinite");
    engine.send("go depth 1");
    let first = engine.read_until(|line| line.starts_with("bestmove "), REPLY_TIMEOUT);
    let second = engine.read_until(|line| line.starts_with("bestmove "), REPLY_TIMEOUT);
    for lines in [&first, &second] {
        let (bestmove, infos) = lines.split_last().unwrap();
        check_search_output(infos, bestmove.strip_prefix("bestmove ").unwrap());
    }
    assert_eq!(engine.sync(), Vec::<String>::new(), "exactly one bestmove per go");
}

#[test]
fn go_perft_lists_each_move_then_the_total() {
    let mut engine = EngineProcess::start();
    engine.send("position startpos");
    engine.send("go perft 2");
    let lines = engine.read_until(|line| line.starts_with("nodes "), REPLY_TIMEOUT);
    assert_eq!(lines.len(), 71 + 1, "71 first moves in the standard game");
    for line in &lines[..71] {
        let (mv, count) = line.split_once(": ").expect("<move>: <count>");
        assert!(is_move(mv) && count.parse::<u64>().is_ok(), "{line:?}");
    }
    assert_eq!(lines[71], "nodes 27610");
}

#[test]
fn two_threads_search_answer_legal_moves_and_stop_promptly() {
    let mut engine = EngineProcess::start();
    engine.send("setoption name Threads value 2");
    for variant in ["standard", "advanced"] {
        engine.send(&format!("newgame {variant}"));
        engine.send("position startpos moves B@d1");
        assert_eq!(engine.sync(), Vec::<String>::new());
        let (infos, mv) = engine.search("go depth 5", REPLY_TIMEOUT);
        check_search_output(&infos, &mv);
        assert_eq!(engine.query(&format!("islegal {mv}")), "true", "{variant}");
        let (infos, mv) = engine.search("go nodes 20000", REPLY_TIMEOUT);
        check_search_output(&infos, &mv);
        assert_eq!(engine.query(&format!("islegal {mv}")), "true", "{variant}");
    }
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let sent = Instant::now();
    engine.send("stop");
    let lines = engine.read_until(|line| line.starts_with("bestmove "), REPLY_TIMEOUT);
    assert!(sent.elapsed() < PROMPTLY, "bestmove {:?} after stop", sent.elapsed());
    let mv = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
    assert_eq!(engine.query(&format!("islegal {mv}")), "true");
}

#[test]
fn more_threads_than_the_machine_runs_keep_the_clock() {
    let mut engine = EngineProcess::start();
    engine.send("setoption name Threads value 256");
    let replies = engine.sync();
    assert!(replies.len() <= 1, "{replies:?}");
    if let Some(warning) = replies.first() {
        assert!(warning.starts_with("info string warning: Threads: this machine runs "), "{warning}");
    }
    engine.send("position startpos");
    for _ in 0..3 {
        let sent = Instant::now();
        let (infos, mv) = engine.search("go movetime 200", REPLY_TIMEOUT);
        check_search_output(&infos, &mv);
        // 200 ms and MoveOverhead (10 ms); the bound is generous for a loaded
        // machine. (Before the clock started at `go`: 3 s and more.)
        assert!(sent.elapsed() < Duration::from_millis(1000), "{:?}", sent.elapsed());
    }
}

#[test]
fn a_long_perft_answers_isready_at_once_and_stops_on_stop() {
    let mut engine = EngineProcess::start();
    engine.send("position startpos");
    // perft(7) of the standard start takes minutes.
    engine.send("go perft 7");
    let asked = Instant::now();
    engine.send("isready");
    engine.read_until(|line| line == "readyok", REPLY_TIMEOUT);
    assert!(asked.elapsed() < Duration::from_secs(2), "{:?}", asked.elapsed());
    engine.send("stop");
    let lines = engine.read_until(|line| line.starts_with("info string perft stopped: "), REPLY_TIMEOUT);
    assert!(asked.elapsed() < Duration::from_secs(5), "{:?}", asked.elapsed());
    let counted = lines.iter().filter(|line| line.contains(": ") && !line.starts_with("info")).count();
    assert!(lines.last().unwrap().contains(&format!(" {counted} of 71 first moves counted")), "{lines:?}");
    // The engine goes on as before.
    assert_eq!(engine.query("fen"), protocol_common::START);
    let (infos, mv) = engine.search("go depth 2", REPLY_TIMEOUT);
    check_search_output(&infos, &mv);
}

#[test]
fn go_mate_searches_every_move_and_sees_a_loss_two_plies_sooner() {
    // 16 plies before the end of a real advanced game (the committed
    // endgames, scripts/data/pods-endgames-advanced.txt): the side to move
    // loses. Asked for a mate, the search prunes no move (a proof needs
    // every one of the loser's answered) and reports the loss at depth 12;
    // the search of play, which prunes late moves, first sees it at depth 14.
    let mut engine = EngineProcess::start();
    engine.send("setoption name Hash value 16");
    engine.send("newgame advanced");
    engine.send("position fen i1EB1K/1A2L1/1hnm1N/1J1aMg/kGHf2/F5 b CIcdej 180 45");
    let (infos, mv) = engine.search("go depth 12 mate 20", REPLY_TIMEOUT);
    check_search_output(&infos, &mv);
    let last = infos.iter().rev().find(|line| line.starts_with("info depth ")).expect("an iteration");
    assert!(last.starts_with("info depth 12 ") && last.contains(" score mate -"), "{infos:?}");
}
