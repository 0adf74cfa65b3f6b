//! Every kind of bad input line: each gets one `info string error` line (an
//! empty line gets nothing), changes nothing, and the next command works.
//! Words a known command does not know are forgiven with a warning, and
//! every `go` but `go perft` gets exactly one `bestmove`.

mod protocol_common;

use protocol_common::{EngineProcess, REPLY_TIMEOUT};

/// A game in progress, so that "nothing changed" means something.
const SETUP: &str = "position startpos moves A@c1 n@d5 N@b6";
const SETUP_LINE: &str = "1N4/3n2/6/6/6/2A3 b BCDEFGHIJKLMabcdefghijklm 0 3";

/// Sends `bad` (raw bytes, newline included), expects exactly `expected_errors`
/// error lines for it, and checks the position and the engine still work.
fn check_bad_input(engine: &mut EngineProcess, bad: &[u8], expected_errors: usize) -> Vec<String> {
    engine.transcript.push(format!("> {}", String::from_utf8_lossy(&bad[..bad.len().min(80)])));
    engine.send_bytes(bad);
    let replies = engine.sync();
    let what = String::from_utf8_lossy(&bad[..bad.len().min(60)]).into_owned();
    assert_eq!(replies.len(), expected_errors, "{what:?} gave {replies:?}");
    for reply in &replies {
        assert!(reply.starts_with("info string error: "), "{what:?} gave {reply:?}");
        assert!(!reply.ends_with(' ') && reply.len() < 600, "{what:?} gave {reply:?}");
    }
    assert_eq!(engine.query("fen"), SETUP_LINE, "{what:?} changed the position");
    assert_eq!(engine.query("result"), "none", "{what:?} changed the game");
    replies
}

fn line(text: &str) -> Vec<u8> {
    format!("{text}\n").into_bytes()
}

#[test]
fn bad_lines_are_reported_and_change_nothing() {
    let mut engine = EngineProcess::start();
    engine.send(SETUP);
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (line("hello world"), "unknown command 'hello'"),
        // Control characters are echoed as escapes, never raw.
        (line("ugi\u{0}"), "unknown command 'ugi\\0'"),
        (line("go\u{1b}[2J"), "unknown command 'go\\u{1b}[2J'"),
        (line("Position startpos"), "unknown command 'Position'"),
        (line("position"), "position: missing 'startpos' or 'fen <position line>'"),
        (line("position somewhere"), "position: unexpected 'somewhere'"),
        (line("position fen"), "position: missing the position line"),
        (line("position fen 6/6/6 w AB 0 0"), "invalid position: board: expected 6 ranks"),
        (line("position fen 6/6/6/6/6/6 w AB 0"), "invalid position: expected 5 fields"),
        (line("position fen 6/6/6/6/6/6 x AB 0 0"), "invalid position: side: 'x' is not a side"),
        (line("position fen 7/6/6/6/6/6 w AB 0 0"), "invalid position: board rank 6: '7' is not an empty run 1-6"),
        (line("position fen 6/6/6/6/6/6 w AAB 0 0"), "invalid position: hands: pod 'A' appears twice"),
        (line("position fen 6/6/6/6/6/6 w AB 45 0"), "invalid position: rotation"),
        (line("position fen 6/6/6/6/6/6 w AB 0 -1"), "invalid position: ply"),
        (line("position fen 6/6/6/6/6/6 w Z 0 0 moves A@c3"), "invalid position: hands: 'Z' is not a pod"),
        (line("setoption name Hash value lots"), "Hash: 'lots' is not a whole number from 1 to 1024"),
        (line("setoption name Hash value 0"), "Hash: '0' is not a whole number from 1 to 1024"),
        (line("setoption name Variant value chess"), "Variant: 'chess' is not standard or advanced"),
        (line("setoption name Rotation value 45"), "Rotation: '45' is not 0, 90, 180 or 270"),
        (line("setoption name Board value o-o-o"), "Board (one-line form): invalid board"),
        (line("setoption name Pods value A=Q:s"), "Pods:"),
        (line("setoption name PlacementLiberty value maybe"), "PlacementLiberty: 'maybe' is not true or false"),
        (line("setoption name MaxPlies value -3"), "MaxPlies: '-3' is not a whole number"),
        (line("setoption name Hash"), "setoption: Hash needs a value"),
        (line("setoption name NoSuchOption value 1"), "unknown option 'NoSuchOption' ignored"),
        (line("setoption Hash 16"), "setoption: unexpected 'Hash', expected 'name'"),
        (line("go perft x"), "go: perft needs a depth"),
        (line("query"), "query: missing gameover, p1turn, turn, result, fen or islegal <move>"),
        (line("query weather"), "query: unexpected 'weather'"),
        (line("query islegal"), "query: missing a move after islegal"),
        (b"position \xff\xfe startpos\n".to_vec(), "line ignored: not valid UTF-8 after the first 9 bytes"),
        (line("newgame rotation 45"), "newgame: Rotation: '45' is not 0, 90, 180 or 270"),
        (line(&"x".repeat(200_000)), "unknown command 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'"),
        (line(&format!("position fen {}", "6/".repeat(100_000))), "invalid position: expected 5 fields"),
        (line(&"y".repeat(3_000_000)), "line longer than 1048576 bytes ignored"),
    ];
    for (bad, expected) in cases {
        let replies = check_bad_input(&mut engine, &bad, 1);
        assert!(replies[0].contains(expected), "expected {expected:?} in {:?}", replies[0]);
    }
}

#[test]
fn empty_and_blank_lines_are_ignored_silently() {
    let mut engine = EngineProcess::start();
    engine.send(SETUP);
    for blank in [&b"\n"[..], b"   \t \n", b"\r\n"] {
        check_bad_input(&mut engine, blank, 0);
    }
}

#[test]
fn a_bad_line_during_a_search_leaves_it_running() {
    let mut engine = EngineProcess::start();
    engine.send(SETUP);
    engine.send("go infinite");
    for bad in ["position fen nonsense", "setoption name Hash value lots", "go perft soon", "flip the board"] {
        engine.send(bad);
        let lines = engine.read_until(|line| line.starts_with("info string"), REPLY_TIMEOUT);
        assert!(lines.last().unwrap().starts_with("info string error: "), "{lines:?}");
        assert!(lines.iter().all(|line| !line.starts_with("bestmove")), "{bad} stopped the search: {lines:?}");
    }
    engine.send("stop");
    engine.read_until(|line| line.starts_with("bestmove "), REPLY_TIMEOUT);
    assert_eq!(engine.query("fen"), SETUP_LINE);
}

#[test]
fn unknown_option_names_from_tournament_managers_are_reported_and_ignored() {
    let mut engine = EngineProcess::start();
    engine.send(SETUP);
    for name in ["debug", "UCI_Chess960"] {
        let replies = check_bad_input(&mut engine, &line(&format!("setoption name {name} value false")), 1);
        assert!(replies[0].starts_with(&format!("info string error: unknown option '{name}' ignored")), "{replies:?}");
    }
}

#[test]
fn unknown_words_in_known_commands_are_ignored_with_a_warning() {
    let mut engine = EngineProcess::start();
    engine.send(SETUP);
    engine.send("isready now");
    assert_eq!(
        engine.read_until(|line| line == "readyok", REPLY_TIMEOUT),
        ["info string warning: isready: unexpected 'now', expected nothing (ignored)", "readyok"]
    );
    engine.send("query fen please");
    let replies = engine.read_until(|line| line.starts_with("response "), REPLY_TIMEOUT);
    assert!(replies[0].starts_with("info string warning: query: unexpected 'please'"), "{replies:?}");
    assert_eq!(replies[1], format!("response {SETUP_LINE}"));
    engine.send("debug on");
    engine.send("debug off");
    engine.send("ponderhit");
    let replies = engine.sync();
    assert_eq!(replies, ["info string warning: ponderhit: no search is pondering (ignored)"]);
    // The position command forgives a stray word before `moves`.
    engine.send("position startpos moves A@c1");
    let expected = engine.query("fen");
    engine.send("position startpos A@c3 moves A@c1");
    let replies = engine.sync();
    assert!(replies.len() == 1 && replies[0].starts_with("info string warning: position: unexpected 'A@c3'"));
    assert_eq!(engine.query("fen"), expected);
}

/// Sends a `go` and returns every line up to its `bestmove`, checking that
/// exactly one `bestmove` comes.
fn answer_to(engine: &mut EngineProcess, go: &str) -> Vec<String> {
    engine.send(go);
    let lines = engine.read_until(|line| line.starts_with("bestmove "), REPLY_TIMEOUT);
    assert_eq!(engine.sync(), Vec::<String>::new(), "{go}: a second bestmove or more");
    lines
}

#[test]
fn every_go_gets_exactly_one_bestmove() {
    let mut engine = EngineProcess::start();
    engine.send(SETUP);
    let legal = |engine: &mut EngineProcess, lines: &[String]| {
        let mv = lines.last().unwrap().strip_prefix("bestmove ").unwrap().split(' ').next().unwrap().to_string();
        assert_eq!(engine.query(&format!("islegal {mv}")), "true", "{lines:?}");
    };
    // Limits that cannot be read: an error, then a search as `go depth 1`.
    for (go, message) in [
        ("go movetime abc", "go: movetime needs a whole number of milliseconds, not 'abc'"),
        ("go depth -3", "go: depth needs a depth of at least 1, not '-3'"),
        ("go depth 99999999999", "go: depth '99999999999' is too large: the range is 1 to 4294967295"),
        ("go nodes 1e9", "go: nodes needs a whole number of nodes, not '1e9'"),
        ("go mate -1", "go: mate needs a number of moves of at least 1, not '-1'"),
        ("go wtime x btime 100", "go: wtime needs a whole number of milliseconds, not 'x'"),
        ("go movetime", "go: missing a whole number of milliseconds"),
        ("go wtime 100", "go: no time given for the side to move, p2 (Black): add p2time or btime"),
        ("go depth 3 searchmoves A@c1", "go: searchmoves: 'A@c1' cannot be played"),
        ("go depth 3 searchmoves nonsense", "go: searchmoves: 'nonsense' cannot be played"),
    ] {
        let lines = answer_to(&mut engine, go);
        assert!(lines[0].starts_with(&format!("info string error: {message}")), "{go}: {lines:?}");
        assert!(lines[0].ends_with("(searching as 'go depth 1')"), "{go}: {lines:?}");
        let infos: Vec<&String> = lines.iter().filter(|line| line.starts_with("info depth")).collect();
        assert!(infos.len() == 1 && infos[0].starts_with("info depth 1 "), "{go}: {lines:?}");
        legal(&mut engine, &lines);
    }
    // Unknown words and repeated fields: a warning, and the rest is obeyed.
    for (go, message) in [
        ("go depth 2 sideways", "go: unexpected 'sideways'"),
        ("go depth 2 depth 4", "go: 'depth' is given twice (ignored)"),
        ("go p2time 100000 btime 10 depth 2", "go: 'btime' is given twice (ignored)"),
    ] {
        let lines = answer_to(&mut engine, go);
        assert!(lines[0].starts_with(&format!("info string warning: {message}")), "{go}: {lines:?}");
        let deepest = lines.iter().rev().find(|line| line.starts_with("info depth")).unwrap();
        assert!(deepest.starts_with("info depth 2 "), "{go}: {lines:?}");
        legal(&mut engine, &lines);
    }
    assert_eq!(engine.query("fen"), SETUP_LINE);
}

#[test]
fn a_hash_size_the_memory_cannot_hold_falls_back_with_a_warning() {
    // A real limit on the process's memory (Linux): 600 MB of address space.
    let mut child = std::process::Command::new("bash")
        .args(["-c", &format!("ulimit -v 600000 && exec {}", env!("CARGO_BIN_EXE_podium"))])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("bash runs");
    let mut stdin = child.stdin.take().unwrap();
    use std::io::Write;
    stdin.write_all(b"setoption name Hash value 1024\nisready\nposition startpos\ngo depth 3\n").unwrap();
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(output.status.success(), "{:?}: {lines:?}", output.status);
    assert!(lines[0].starts_with("info string warning: Hash: 1024 MB cannot be allocated here: using "), "{lines:?}");
    assert_eq!(lines[1], "readyok");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
}
