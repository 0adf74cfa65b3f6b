//! The command line: perft, bench, analyse (one position or many, text or
//! JSON), solve, help, and one-line errors.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn podium(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_podium")).args(args).output().expect("the podium binary runs")
}

fn stdout_lines(output: &Output) -> Vec<String> {
    assert!(output.status.success(), "{:?}: {}", output.status, String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).lines().map(str::to_string).collect()
}

/// The node count of `Bench: <nodes> nodes <nps> nps`, the last line.
fn bench_nodes(args: &[&str]) -> u64 {
    let lines = stdout_lines(&podium(args));
    let last = lines.last().expect("output");
    let words: Vec<&str> = last.split(' ').collect();
    assert!(matches!(words[..], ["Bench:", _, "nodes", _, "nps"]), "{last:?}");
    assert!(words[3].parse::<u64>().is_ok(), "{last:?}");
    words[1].parse().expect("a node count")
}

#[test]
fn the_bench_node_count_is_the_same_on_every_run() {
    let first = bench_nodes(&["bench", "--depth", "4"]);
    assert!(first > 1000, "{first}");
    assert_eq!(bench_nodes(&["bench", "--depth", "4"]), first);
    assert!(bench_nodes(&["bench", "--depth", "5"]) > first, "deeper searches more");
}

#[test]
fn bench_perft_reports_both_variants_and_poldr() {
    let lines = stdout_lines(&podium(&["bench", "perft"]));
    assert_eq!(lines.len(), 3, "{lines:?}");
    for (line, (variant, depth)) in lines.iter().zip([("standard", "4:"), ("advanced", "4:"), ("poldr", "7:")]) {
        let words: Vec<&str> = line.split(' ').collect();
        assert!(
            matches!(words[..], ["perft", v, d, _, "nodes", _, "ms", _, "nps"] if v == variant && d == depth),
            "{line:?}"
        );
    }
}

#[test]
fn perft_counts_match_the_rules() {
    let cases: [(&[&str], &str); 5] = [
        (&["--variant", "standard", "--depth", "2"], "nodes 27610"),
        (&["--variant", "advanced", "--depth", "2"], "nodes 30956"),
        (&["--variant", "standard", "--rotation", "90", "--depth", "2"], "nodes 27905"),
        (
            &["--variant", "advanced", "--fen", "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0", "--depth", "1"],
            "nodes 72",
        ),
        (&["--variant", "standard", "--depth", "0"], "nodes 1"),
    ];
    for (args, expected) in cases {
        let lines = stdout_lines(&podium(&[&["perft"], args].concat()));
        assert_eq!(lines, [expected], "{args:?}");
    }
    let lines = stdout_lines(&podium(&["perft", "--variant", "standard", "--depth", "2", "--divide"]));
    assert_eq!(lines.len(), 72);
    let total: u64 = lines[..71].iter().map(|line| line.split(": ").nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(total, 27610);
    assert_eq!(lines[71], "nodes 27610");
}

#[test]
fn perft_takes_other_rules() {
    let pods = "A=W:s,E:s;B=N:l,S:s;C=N:s";
    let lines = stdout_lines(&podium(&["perft", "--variant", "advanced", "--pods", pods, "--depth", "1"]));
    assert_eq!(lines.len(), 1);
    let liberty = stdout_lines(&podium(&["perft", "--variant", "advanced", "--placement-liberty", "--depth", "2"]));
    let free = stdout_lines(&podium(&["perft", "--variant", "advanced", "--depth", "2"]));
    assert_ne!(liberty, free, "placements need a liberty with --placement-liberty");
}

#[test]
fn analyse_prints_info_lines_then_the_best_move() {
    let lines = stdout_lines(&podium(&["analyse", "--variant", "advanced", "--moves", "A@c3", "b@d4", "--depth", "3"]));
    // First how the position was read, then the search.
    assert_eq!(lines[0], "info string game pods, variant advanced");
    let (bestmove, infos) = lines[1..].split_last().unwrap();
    assert_eq!(infos.len(), 3, "{lines:?}");
    assert!(infos.iter().all(|line| line.starts_with("info depth ")), "{lines:?}");
    let mv = bestmove.strip_prefix("bestmove ").expect("bestmove <move>");
    assert!(infos[2].contains(&format!(" pv {mv}")), "{lines:?}");

    let lines =
        stdout_lines(&podium(&["analyse", "--variant", "standard", "--fen", "6/6/6/6/6/6 w abc 0 3", "--depth", "2"]));
    assert_eq!(
        lines,
        [
            "info string game pods, variant standard",
            "info string game over: Black wins (opponent has no legal move)",
            "bestmove (none)"
        ]
    );
}

/// Runs `podium analyse --json` over `positions` (given on stdin).
fn analyse_json(args: &[&str], positions: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_podium"))
        .args(["analyse", "--json"])
        .args(args)
        .args(["--positions", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the podium binary runs");
    child.stdin.take().unwrap().write_all(positions.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn analyse_json_answers_each_position_with_one_object_errors_included() {
    let positions = "startpos\n# a comment\n\n6/6/6/6/6/6 w Ab 0 0\nstartpos moves A@c3 b@d4\nnonsense \"quoted\"\n\
                     6/6/6/6/6/6 w abc 0 3\n";
    let output = analyse_json(&["--variant", "standard", "--depth", "3", "--multipv", "2"], positions);
    assert!(!output.status.success(), "a bad position makes the run fail");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("1 of 5 positions could not be analysed"), "{stderr}");
    let lines: Vec<String> = String::from_utf8_lossy(&output.stdout).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 5, "{lines:?}");
    // Input line numbers identify the answers.
    for (line, index) in lines.iter().zip([1, 4, 5, 6, 7]) {
        let kind = if index == 6 { "error" } else { "analysis" };
        assert!(line.starts_with(&format!("{{\"type\":\"{kind}\",\"index\":{index},")), "{line}");
        assert!(line.ends_with('}'), "{line}");
    }
    // Two best lines, each with its own score, depth and PV.
    assert!(lines[0].contains("\"lines\":[{\"multipv\":1,\"depth\":3,"), "{}", lines[0]);
    assert!(lines[0].contains("},{\"multipv\":2,\"depth\":3,"), "{}", lines[0]);
    assert!(lines[0].contains("\"proven\":null"), "{}", lines[0]);
    // One pod each: White's one placement leaves Black the last, proven.
    assert!(lines[1].contains("\"proven\":{\"mate\":-1,\"winner\":\"p2\"}"), "{}", lines[1]);
    assert!(lines[2].contains("\"fen\":\"6/6/3b2/2A3/6/6 w "), "{}", lines[2]);
    // The error quotes its input, escaped.
    assert!(
        lines[3].contains("\"position\":\"nonsense \\\"quoted\\\"\",\"error\":\"invalid position: "),
        "{}",
        lines[3]
    );
    assert!(lines[4].contains("\"bestmove\":null") && lines[4].contains("\"gameover\":\"Black wins"), "{}", lines[4]);
    // POLD.R positions with the game selected.
    let output = analyse_json(&["--game", "poldr", "--nodes", "20000"], "startpos\n5/5/5/5/5 b 3,3 1 0 -,-\n");
    let lines = stdout_lines(&output);
    assert!(lines[0].contains("\"turn\":\"p1\"") && lines[0].contains("\"bestmove\":\"P"), "{}", lines[0]);
    assert!(lines[1].contains("\"proven\":{\"mate\":1,\"winner\":\"p1\"}"), "{}", lines[1]);
}

#[test]
fn a_progress_bar_goes_to_stderr_and_leaves_stdout_to_the_answers() {
    let positions = "startpos\nstartpos moves A@c3\nstartpos moves B@d1\n";
    // Of a file the bar knows the positions to come (it counts them first).
    let file = std::env::temp_dir().join(format!("podium-progress-{}.txt", std::process::id()));
    std::fs::write(&file, positions).unwrap();
    let with_bar = podium(&["analyse", "--json", "--depth", "2", "--progress", "--positions", file.to_str().unwrap()]);
    std::fs::remove_file(&file).unwrap();
    assert!(with_bar.status.success());
    let stderr = String::from_utf8_lossy(&with_bar.stderr);
    // Redrawn in place after each position, then one newline.
    let steps: Vec<&str> = stderr.split('\r').filter(|step| !step.is_empty()).collect();
    assert_eq!(steps.len(), 3, "{stderr:?}");
    for (done, step) in (1..=3).zip(&steps) {
        assert!(step.starts_with("analyse [") && step.contains(&format!("] {done}/3 positions, ")), "{step:?}");
    }
    assert!(steps[2].contains(&format!("[{}]", "#".repeat(30))) && stderr.ends_with('\n'), "{stderr:?}");
    // Of stdin, read as it comes, it counts those done.
    let streamed = analyse_json(&["--depth", "2", "--progress"], positions);
    let stderr = String::from_utf8_lossy(&streamed.stderr);
    let steps: Vec<&str> = stderr.split('\r').filter(|step| !step.is_empty()).collect();
    assert_eq!(steps.len(), 3, "{stderr:?}");
    assert!(steps[2].starts_with("analyse: 3 positions, "), "{stderr:?}");
    // The answers are the same as without the bar: one JSON object a line.
    let without = analyse_json(&["--depth", "2"], positions);
    assert!(String::from_utf8_lossy(&without.stderr).is_empty());
    fn bestmove(line: &str) -> &str {
        line.split("\"bestmove\":").nth(1).and_then(|rest| rest.split(',').next()).unwrap_or_default()
    }
    let bestmoves = |output: &Output| -> Vec<String> {
        stdout_lines(output).iter().map(|line| bestmove(line).to_string()).collect()
    };
    assert_eq!(stdout_lines(&with_bar).len(), 3);
    assert_eq!(bestmoves(&with_bar), bestmoves(&without));
}

#[test]
fn analyse_reads_every_shape_of_a_position_line() {
    let start = "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0";
    let positions = format!(
        "fen {start} moves A@c3\n{start} moves A@c3\nposition fen {start} moves A@c3\nposition startpos moves A@c3\n\
         startpos moves A@c3\nstartpos\nposition {start}\nstartpos A@c3 moves b@d4\n"
    );
    let output = analyse_json(&["--variant", "standard", "--depth", "1"], &positions);
    let lines: Vec<String> = String::from_utf8_lossy(&output.stdout).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 8, "{lines:?}");
    let after_a_c3 = "\"fen\":\"6/6/6/2A3/6/6 b BCDEFGHIJKLMNabcdefghijklmn 0 1\"";
    for line in &lines[..5] {
        assert!(line.starts_with("{\"type\":\"analysis\",") && line.contains(after_a_c3), "{line}");
    }
    for line in &lines[5..7] {
        assert!(line.contains(&format!("\"fen\":\"{start}\"")), "{line}");
    }
    // A stray word is an error here (there is nobody to warn), as it says.
    assert!(lines[7].contains("\"error\":\"position: unexpected 'A@c3', expected 'moves'\""), "{}", lines[7]);
    assert!(!output.status.success());
}

#[test]
fn analyse_json_reports_a_bad_command_line_position_as_json_on_stdout() {
    for (args, error) in [
        (&["--fen", "garbage"][..], "invalid position: expected 5 fields"),
        (&["--moves", "A@c3", "A@c3"][..], "move A@c3 at index 1: "),
    ] {
        let output = podium(&[&["analyse", "--variant", "standard", "--depth", "1", "--json"][..], args].concat());
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 1, "{args:?}: {stdout}");
        assert!(
            lines[0].starts_with(&format!(
                "{{\"type\":\"error\",\"index\":1,\"position\":\"(command line)\",\"error\":\"{error}"
            )),
            "{args:?}: {stdout}"
        );
        assert!(lines[0].ends_with("\"}"), "{stdout}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.starts_with("podium: ") && stderr.lines().count() == 1, "{stderr}");
    }
}

#[test]
fn help_works_everywhere() {
    for args in [&["--help"][..], &["perft", "--help"], &["bench", "--help"], &["analyse", "--help"], &["--version"]] {
        let output = podium(args);
        assert!(output.status.success(), "{args:?}");
        assert!(!output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn command_line_errors_are_one_line_and_fail() {
    let cases: [&[&str]; 9] = [
        &["nonsense"],
        &["perft", "--variant", "chess", "--depth", "2"],
        &["perft", "--variant", "standard"],
        &["perft", "--variant", "standard", "--depth", "x"],
        &["perft", "--variant", "standard", "--fen", "garbage", "--depth", "1"],
        &["perft", "--variant", "standard", "--fen", "6/6/6/6/6/6 w A 0 0", "--rotation", "90", "--depth", "1"],
        &["analyse", "--variant", "standard"],
        &["analyse", "--variant", "standard", "--depth", "2", "--moves", "A@c3", "A@c3"],
        &["bench", "--depth", "0"],
    ];
    for args in cases {
        let output = podium(args);
        assert!(!output.status.success(), "{args:?} succeeded");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("podium: "), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn solve_proves_small_poldr_games_as_text_and_json() {
    // Three bricks on 4x4: Blue puts pawn and marker three cells apart and
    // keeps one brick; Yellow cannot place three, and Blue's next turn fills
    // a single cell (the reference test's hand argument).
    let lines = stdout_lines(&podium(&["solve", "--game", "poldr", "--size", "4", "--bricks", "3"]));
    assert_eq!(lines[0], "position 4/4/4/4 b 3,3 1 0 -,-");
    assert_eq!(lines[1], "game poldr, Size 4, Bricks 3");
    assert_eq!(lines[2], "result Blue (p1, to move) wins in at most 2 moves of its own", "{lines:?}");
    assert!(lines[3].starts_with("line "), "{lines:?}");
    let json = stdout_lines(&podium(&["solve", "--game", "poldr", "--size", "4", "--bricks", "3", "--json"]));
    assert_eq!(json.len(), 1);
    assert!(
        json[0].starts_with(
            r#"{"type":"solve","position":"4/4/4/4 b 3,3 1 0 -,-","game":"poldr","settings":{"Size":"4","Bricks":"3"},"proven":true,"winner":"p1","mate":2,"line":["#
        ),
        "{json:?}"
    );
    // After Blue's first turn Yellow is to move and lost: the count is
    // signed for the side to move, the winner named beside it.
    let moves = ["--moves", "Pa1Md1"];
    let lost = stdout_lines(&podium(&["solve", "--game", "poldr", "--size", "4", "--bricks", "3", moves[0], moves[1]]));
    assert_eq!(lost[2], "result Blue (p1) wins: Yellow (p2, to move) loses within 1 move of its own", "{lost:?}");
    let lost = stdout_lines(&podium(&[
        "solve", "--game", "poldr", "--size", "4", "--bricks", "3", moves[0], moves[1], "--json",
    ]));
    assert!(lost[0].contains(r#""proven":true,"winner":"p1","mate":-1,"#), "{lost:?}");
    // With three players a loss names no winner.
    let coalition = stdout_lines(&podium(&[
        "solve",
        "--game",
        "poldr",
        "--players",
        "3",
        "--size",
        "4",
        "--bricks",
        "3",
        moves[0],
        moves[1],
    ]));
    assert_eq!(
        coalition[2], "result Yellow (p2, to move) loses within 1 move of its own against the others together",
        "{coalition:?}"
    );
    // A finished game is its own proof.
    let over = stdout_lines(&podium(&["solve", "--game", "poldr", "--bricks", "3", "--moves", "Pa1Me5"]));
    assert!(over[2].starts_with("result game over: Blue wins"), "{over:?}");
    let over = stdout_lines(&podium(&["solve", "--game", "poldr", "--bricks", "3", "--moves", "Pa1Me5", "--json"]));
    assert!(over[0].contains(r#""winner":"p1","mate":0,"line":[],"nodes":0,"#), "{over:?}");
    assert!(over[0].contains(r#""gameover":"Blue wins"#), "{over:?}");
    // A Pods answer names its variant.
    let pods = stdout_lines(&podium(&["solve", "--variant", "advanced", "--movetime", "1", "--json"]));
    assert!(pods[0].contains(r#""game":"pods","variant":"advanced","#), "{pods:?}");
    let bad = podium(&["solve", "--game", "poldr", "--variant", "advanced"]);
    assert!(!bad.status.success());
}

#[test]
#[cfg(target_os = "linux")]
fn solve_gives_up_at_its_cpu_limit_with_the_nodes_it_searched() {
    // The standard start is far beyond a second's proof, by df-pn and by the search.
    for method in ["dfpn", "search"] {
        let args = ["solve", "--variant", "standard", "--hash", "16", "--cpu-limit", "1", "--method", method];
        let text = stdout_lines(&podium(&args));
        assert_eq!(text[2], "result unknown: no proof within 1 s of CPU time", "{method}: {text:?}");
        let json = stdout_lines(&podium(&[&args[..], &["--json"]].concat()));
        assert!(json[0].contains(r#""proven":false,"nodes":"#), "{method}: {json:?}");
        assert!(json[0].ends_with(r#","stopped":"cpu"}"#), "{method}: {json:?}");
        let nodes: u64 =
            json[0].split(r#""nodes":"#).nth(1).and_then(|rest| rest.split(',').next()).unwrap().parse().unwrap();
        assert!(nodes > 0, "{method}: {json:?}");
    }
    // A proof within the limit is the answer, with no word of the limit.
    let proved = stdout_lines(&podium(&[
        "solve",
        "--game",
        "poldr",
        "--size",
        "4",
        "--bricks",
        "3",
        "--cpu-limit",
        "60",
        "--json",
    ]));
    assert!(proved[0].contains(r#""proven":true,"#) && !proved[0].contains("stopped"), "{proved:?}");
    assert!(!podium(&["solve", "--variant", "standard", "--cpu-limit", "0"]).status.success());
}
