//! `podium analyse --positions` (issue #42): every answer says which game
//! and variant it read the position as, a JSON line names them, the input
//! is read a line at a time with a bounded line length, and a bad line is
//! reported by number while the run goes on. Nothing here is timed: the
//! streaming test waits for an answer before it closes the input.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdout, Command, Output, Stdio};

fn podium(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_podium"));
    command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    command
}

/// `podium analyse --json <args> --positions -` over `input`.
fn analyse(args: &[&str], input: &[u8]) -> Output {
    let mut child =
        podium(&[&["analyse", "--json"][..], args, &["--positions", "-"]].concat()).spawn().expect("podium runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from a thread: the answers come while the input is read.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    output
}

fn lines(output: &Output) -> Vec<String> {
    String::from_utf8(output.stdout.clone()).unwrap().lines().map(str::to_string).collect()
}

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/data/");

#[test]
fn the_project_s_advanced_middlegames_are_read_as_advanced_and_every_answer_says_so() {
    // The file names its variant; the command line does not.
    let file = format!("{DATA}pods-advanced-middlegames.txt");
    let output = podium(&["analyse", "--json", "--depth", "1", "--positions", &file]).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let answers = lines(&output);
    assert_eq!(answers.len(), 18);
    for answer in &answers {
        assert!(answer.contains(r#""game":"pods","variant":"advanced","fen":"#), "{answer}");
        // Read as the standard game, these positions were "game over" or a
        // win in one for the side to move; in the advanced game none is (a
        // loss in one, seen at depth 1 since the search looks for a win at
        // once past its leaves, is a real answer).
        assert!(!answer.contains("gameover") && !answer.contains(r#""mate":1,"#), "{answer}");
    }
    // The same position as a plain line is read as the command line's
    // variant, the standard by default, and the answer says so.
    let first = std::fs::read_to_string(&file).unwrap();
    let fen = first.lines().find(|line| line.starts_with('{')).unwrap().split("\"fen\":\"").nth(1).unwrap();
    let fen = fen.trim_end_matches("\"}");
    for (args, variant) in [(&[][..], "standard"), (&["--variant", "advanced"][..], "advanced")] {
        let plain = analyse(&[&["--depth", "1"][..], args].concat(), format!("{fen}\n").as_bytes());
        let answer = &lines(&plain)[0];
        assert!(answer.contains(&format!(r#""game":"pods","variant":"{variant}","#)), "{answer}");
    }
    // The data files of endgames name theirs too.
    for variant in ["standard", "advanced"] {
        let text = std::fs::read_to_string(format!("{DATA}pods-endgames-{variant}.txt")).unwrap();
        let positions: Vec<&str> = text.lines().filter(|line| !line.starts_with('#') && !line.is_empty()).collect();
        assert!(positions.len() > 50);
        assert!(positions.iter().all(|line| line.starts_with(&format!(r#"{{"game":"pods","variant":"{variant}","#))));
    }
}

#[test]
fn json_lines_name_game_variant_settings_and_id_and_a_bad_one_is_reported() {
    let input = concat!(
        r#"{"variant":"advanced","moves":["A@c3","b@d4"],"id":"first"}"#,
        "\n",
        r#"{"game":"poldr","settings":{"Size":4,"Bricks":3},"id":{"n":2}}"#,
        "\n",
        r#"{"varaint":"advanced","id":3}"#,
        "\n",
        "startpos\n",
        r#"{"game":"poldr","variant":"advanced"}"#,
        "\n",
        r#"{"settings":{"PlacementLiberty":"maybe"}}"#,
        "\n",
    );
    // The command line's settings hold for the lines of its game, under
    // theirs: PlacementLiberty stays, the variant is the line's.
    let output = analyse(&["--variant", "standard", "--placement-liberty", "--depth", "1"], input.as_bytes());
    let answers = lines(&output);
    assert_eq!(answers.len(), 6, "{answers:?}");
    assert!(
        answers[0].contains(
            r#""game":"pods","variant":"advanced","settings":{"PlacementLiberty":"true"},"id":"first","fen":"6/6/3b2/2A3/6/6 w "#
        ),
        "{}",
        answers[0]
    );
    // Another game takes only the line's settings.
    assert!(
        answers[1].contains(r#""game":"poldr","settings":{"Size":"4","Bricks":"3"},"id":{"n":2},"fen":"4/4/4/4 b 3,3"#),
        "{}",
        answers[1]
    );
    assert!(answers[1].contains(r#""proven":{"mate":2,"winner":"p1"}"#), "{}", answers[1]);
    // A misspelt key is an error, not a silent default.
    assert!(answers[2].starts_with(r#"{"type":"error","index":3,"#), "{}", answers[2]);
    assert!(answers[2].contains(r#""id":3,"error":"unknown key \"varaint\": a JSON line takes "#), "{}", answers[2]);
    assert!(
        answers[3].contains(
            r#""position":"startpos","game":"pods","variant":"standard","settings":{"PlacementLiberty":"true"}"#
        ),
        "{}",
        answers[3]
    );
    assert!(answers[4].contains(r#""error":"poldr has no variants"#), "{}", answers[4]);
    assert!(answers[5].contains(r#""type":"error","index":6,"#) && answers[5].contains("maybe"), "{}", answers[5]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("3 of 6 positions could not be analysed"), "{stderr}");
}

#[test]
fn the_text_answers_say_how_each_position_was_read() {
    let output =
        podium(&["analyse", "--game", "poldr", "--size", "4", "--bricks", "3", "--depth", "1"]).output().unwrap();
    assert_eq!(lines(&output)[0], "info string game poldr, Size 4, Bricks 3");
    let mut child = podium(&["analyse", "--depth", "1", "--positions", "-"]).spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"startpos\n{\"variant\":\"advanced\"}\n").unwrap();
    let answers = lines(&child.wait_with_output().unwrap());
    let said: Vec<&String> = answers.iter().filter(|line| line.starts_with("info string")).collect();
    assert_eq!(
        said,
        [
            "info string position 1: startpos",
            "info string game pods, variant standard",
            "info string position 2: {\"variant\":\"advanced\"}",
            "info string game pods, variant advanced"
        ]
    );
}

/// The next line of `stdout`.
fn next_line(stdout: &mut BufReader<ChildStdout>) -> String {
    let mut line = String::new();
    stdout.read_line(&mut line).expect("an answer");
    line
}

/// Peak resident memory of `child`, in kB.
fn peak_kilobytes(child: &Child) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).expect("the child's status");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("a VmHWM line")
}

#[test]
#[cfg(target_os = "linux")]
fn the_input_is_read_a_line_at_a_time_in_bounded_memory() {
    let mut child = podium(&["analyse", "--json", "--depth", "1", "--hash", "1", "--positions", "-"]).spawn().unwrap();
    // An engine that read its whole input before answering would never
    // answer here: a watchdog ends it, so that the test fails, not hangs.
    let finished = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (watched, pid) = (finished.clone(), child.id().to_string());
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(300));
        if !watched.load(std::sync::atomic::Ordering::SeqCst) {
            let _ = Command::new("kill").args(["-9", &pid]).status();
        }
    });
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    // The first answer comes while the input is still open.
    stdin.write_all(b"startpos\n").unwrap();
    let first = next_line(&mut stdout);
    assert!(first.starts_with(r#"{"type":"analysis","index":1,"#), "{first}");
    // 64 MB of one line without a break: reported at once, not kept.
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..64 {
        stdin.write_all(&chunk).unwrap();
    }
    let long = next_line(&mut stdout);
    assert!(long.starts_with(r#"{"type":"error","index":2,"position":"xxxxxxxx"#), "{long}");
    assert!(long.contains(r#""error":"line 2 is longer than 65536 bytes: skipped"}"#), "{long}");
    assert!(long.len() < 200, "the bad line is not echoed whole: {} bytes", long.len());
    let peak = peak_kilobytes(&child);
    assert!(peak < 40 * 1024, "peak resident memory {peak} kB after a 64 MB line");
    // The rest of the long line is skipped; then a bad byte rejects only its line.
    stdin.write_all(b"xxx\nstartpos moves A@c3 \xff\nstartpos moves A@c3\n").unwrap();
    drop(stdin);
    let bad = next_line(&mut stdout);
    assert!(bad.starts_with(r#"{"type":"error","index":3,"position":"startpos moves A@c3 "#), "{bad}");
    assert!(bad.contains("line 3 is not UTF-8 (byte 20 of the line): skipped"), "{bad}");
    let after = next_line(&mut stdout);
    assert!(after.starts_with(r#"{"type":"analysis","index":4,"position":"startpos moves A@c3","#), "{after}");
    assert_eq!(next_line(&mut stdout), "", "nothing more");
    let status = child.wait().unwrap();
    finished.store(true, std::sync::atomic::Ordering::SeqCst);
    assert!(!status.success(), "two bad lines make the run fail");
}

#[test]
fn a_text_run_names_a_bad_line_and_goes_on() {
    let mut input = b"startpos\n".to_vec();
    input.extend_from_slice(&vec![b'y'; 100_000]);
    input.extend_from_slice(b"\nstartpos\n");
    let mut child = podium(&["analyse", "--depth", "1", "--positions", "-"]).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    let answers = lines(&output);
    assert!(
        answers.contains(&"info string error: position 2: line 2 is longer than 65536 bytes: skipped".to_string()),
        "{answers:?}"
    );
    assert_eq!(answers.iter().filter(|line| line.starts_with("bestmove ")).count(), 2, "{answers:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("1 of 3 positions could not be analysed"));
}
