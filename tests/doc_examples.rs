//! The examples of README.md, protocol.md and docs/*.md, run against the engine cargo just built
//! and compared with what the documents show, so that they stay true.
//!
//! An example is a fenced block marked by an HTML comment on the line before it:
//!
//! - `<!-- example: session -->`: a protocol session. Each `> ` line is sent to one `podium`
//!   process; the `< ` lines after it are what it must answer before the next `> ` line is sent.
//!   After the last line the input is closed, and nothing more may come.
//! - `<!-- example: shell -->`: `$ ` lines, each run by `sh` from the repository's root with the
//!   built `podium` first on `PATH`, followed by what it must print on stdout.
//! - `<!-- example: python -->`: a Python block, run with `PYTHONPATH=scripts` from the
//!   repository's root (`"target/release/podium"` in it names the built binary); the next fenced
//!   block is what it must print.
//!
//! Lines are compared exactly, except for what varies from machine to machine and run to run:
//! the number after `nps`, `time` or `hashfull` (as a word or a JSON key) is masked, and
//! `info ... currmove` lines (printed only after a search's first second) are left out. A line
//! that ends in `...` stands for any line that starts with what comes before. The documents say
//! so next to their examples. Everything else must come out the same on every machine, so no
//! example may depend on timing: a search in an example is limited by depth or nodes (or ends in
//! a proof), never by a clock or `movetime` (under those, POLD.R's proofs also stop at a share of
//! the time), runs on one thread and starts from a fresh process.
//!
//! A change to the search changes the examples' node counts and lines: run
//! `PODIUM_BLESS=1 cargo test --release --test doc_examples` to rewrite the output of every
//! example that differs from the engine (lines that still match are kept as they are, masked
//! numbers included; `PODIUM_BLESS=all` rewrites every line), then read the diff and commit it
//! with the change. In README.md and protocol.md a block that looks like an example (`> ` or
//! `$ ` lines, or Python) must be marked as one.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod protocol_common;
use protocol_common::EngineProcess;

/// Whether a line is the last of a command's reply.
type LastLine = fn(&str) -> bool;

/// Longest wait for one expected line; examples answer in well under a second on an idle machine.
const LINE_TIMEOUT: Duration = Duration::from_secs(60);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn blessing() -> bool {
    std::env::var("PODIUM_BLESS").is_ok_and(|value| !value.is_empty() && value != "0")
}

// ---------------------------------------------------------------- reading the documents

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Session,
    Shell,
    Python,
}

/// A fenced block: its content lines (the fence's indentation taken off) and where they are.
#[derive(Clone, Debug)]
struct Block {
    info: String,
    indent: String,
    /// Index in the file's lines of the first content line (after the opening fence).
    first: usize,
    lines: Vec<String>,
    /// The example marker on the line before the fence, if any.
    kind: Option<Kind>,
}

fn blocks(text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index];
        let trimmed = line.trim_start();
        if !trimmed.starts_with("```") {
            index += 1;
            continue;
        }
        let indent = line[..line.len() - trimmed.len()].to_string();
        let info = trimmed.trim_start_matches('`').trim().to_string();
        let marker = lines[..index].iter().rev().find(|line| !line.trim().is_empty()).map(|line| line.trim());
        let kind = match marker {
            Some("<!-- example: session -->") => Some(Kind::Session),
            Some("<!-- example: shell -->") => Some(Kind::Shell),
            Some("<!-- example: python -->") => Some(Kind::Python),
            _ => None,
        };
        let first = index + 1;
        let mut end = first;
        while end < lines.len() && lines[end].trim() != "```" {
            end += 1;
        }
        let content: Vec<String> = lines[first..end]
            .iter()
            .map(|line| line.strip_prefix(indent.as_str()).unwrap_or(line).to_string())
            .collect();
        found.push(Block { info, indent, first, lines: content, kind });
        index = end + 1;
    }
    found
}

/// The documents whose examples are run: README.md, protocol.md, or every page of docs/.
fn documents(which: &str) -> Vec<PathBuf> {
    match which {
        "docs" => {
            let mut pages: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
                .expect("docs/ can be read")
                .map(|entry| entry.expect("a docs/ entry").path())
                .filter(|path| path.extension().is_some_and(|extension| extension == "md"))
                .collect();
            pages.sort();
            pages
        }
        name => vec![root().join(name)],
    }
}

// ---------------------------------------------------------------- comparing lines

/// The line with what varies between machines and runs masked: the number after `nps`, `time`
/// or `hashfull`, as a word (`time 12`) or a JSON key (`"time":12`).
fn mask(line: &str) -> String {
    let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
    for index in 1..words.len() {
        let varies = matches!(words[index - 1].as_str(), "nps" | "time" | "hashfull");
        if varies && !words[index].is_empty() && words[index].bytes().all(|byte| byte.is_ascii_digit()) {
            words[index] = "*".to_string();
        }
    }
    let mut line = words.join(" ");
    for key in ["\"nps\":", "\"time\":", "\"hashfull\":"] {
        let mut from = 0;
        while let Some(at) = line[from..].find(key) {
            let start = from + at + key.len();
            let digits = line[start..].bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 {
                line.replace_range(start..start + digits, "*");
            }
            from = start;
        }
    }
    line
}

/// Whether an actual line is what the document shows (masked; a shown line ending in `...` is
/// cut short).
fn same(shown: &str, actual: &str) -> bool {
    let (shown, actual) = (mask(shown), mask(actual));
    match shown.strip_suffix("...") {
        Some(start) if !start.is_empty() => actual.starts_with(start),
        _ => shown == actual,
    }
}

fn same_lines(shown: &[String], actual: &[String]) -> bool {
    shown.len() == actual.len() && shown.iter().zip(actual).all(|(shown, actual)| same(shown, actual))
}

/// What a blessed example shows: the document's own lines where they still match (so that masked
/// numbers do not change for nothing), the engine's elsewhere; every line the engine's with
/// `PODIUM_BLESS=all`.
fn merged(shown: &[String], actual: &[String]) -> Vec<String> {
    if shown.len() != actual.len() || std::env::var("PODIUM_BLESS").is_ok_and(|value| value == "all") {
        return actual.to_vec();
    }
    shown.iter().zip(actual).map(|(shown, actual)| if same(shown, actual) { shown } else { actual }.clone()).collect()
}

/// Search lines that come only when a search has lasted a second.
fn timing_only(line: &str) -> bool {
    line.starts_with("info ") && line.split(' ').any(|word| word == "currmove")
}

// ---------------------------------------------------------------- running examples

/// One example's outcome: the block's new content when blessing, and the differences found.
struct Outcome {
    rewritten: Vec<String>,
    problems: Vec<String>,
}

/// The engine behind pipes (the protocol tests' own), read with deadlines.
struct Engine(EngineProcess);

impl Engine {
    fn start() -> Engine {
        Engine(EngineProcess::start())
    }

    fn send(&mut self, line: &str) {
        // A write after the engine quit fails; what it printed is compared all the same.
        let _ = self.0.try_send(line);
    }

    /// The next line that is not a timing-only one; `None` at the end of output or the deadline.
    fn next(&mut self, timeout: Duration) -> Option<String> {
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.0.try_read_line(deadline.saturating_duration_since(Instant::now()))?;
            if !timing_only(&line) {
                return Some(line);
            }
        }
    }

    /// Lines until `last` accepts one, or until `quiet` passes with none (`last` None).
    fn read_reply(&mut self, last: Option<LastLine>, quiet: Duration) -> Vec<String> {
        let mut lines = Vec::new();
        let timeout = if last.is_some() { LINE_TIMEOUT } else { quiet };
        while let Some(line) = self.next(timeout) {
            let done = last.is_some_and(|last| last(&line));
            lines.push(line);
            if done {
                break;
            }
        }
        lines
    }
}

/// A session's steps: a line sent, and the lines shown after it.
fn session_steps(lines: &[String]) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut steps: Vec<(String, Vec<String>)> = Vec::new();
    for line in lines {
        if let Some(sent) = line.strip_prefix("> ") {
            steps.push((sent.to_string(), Vec::new()));
        } else if let Some(received) = line.strip_prefix("< ").or(if line == "<" { Some("") } else { None }) {
            match steps.last_mut() {
                Some((_, shown)) => shown.push(received.to_string()),
                None => return Err(format!("a received line before any sent one: {line:?}")),
            }
        } else {
            return Err(format!("neither '> ' nor '< ': {line:?}"));
        }
    }
    Ok(steps)
}

/// When blessing, how long a command's reply is: searches end with `bestmove`, perft with its
/// total, the handshake, `isready` and `query` with their last line, `quit` with the end of
/// output; searches that run on (`infinite`, `ponder`) and other commands end when nothing more
/// comes for a while.
fn reply_end(sent: &str) -> (Option<LastLine>, Duration) {
    let words: Vec<&str> = sent.split_whitespace().collect();
    let quiet = Duration::from_secs(1);
    let last: Option<LastLine> = match words.as_slice() {
        ["go", "perft", ..] => Some(|line| line.starts_with("nodes ") || line.contains("perft stopped")),
        ["go", rest @ ..] if rest.contains(&"infinite") || rest.contains(&"ponder") => {
            return (None, Duration::from_secs(3));
        }
        ["go", ..] | ["ponderhit"] | ["stop"] => Some(|line| line.starts_with("bestmove")),
        ["ugi", ..] => Some(|line| line == "ugiok"),
        ["uci", ..] => Some(|line| line == "uciok"),
        ["isready", ..] => Some(|line| line == "readyok"),
        ["query", ..] => Some(|line| line.starts_with("response ")),
        ["quit"] => return (None, LINE_TIMEOUT),
        _ => None,
    };
    (last, quiet)
}

fn run_session(block: &Block, bless: bool) -> Outcome {
    let steps = match session_steps(&block.lines) {
        Ok(steps) => steps,
        Err(problem) => return Outcome { rewritten: block.lines.clone(), problems: vec![problem] },
    };
    let mut engine = Engine::start();
    let mut rewritten = Vec::new();
    let mut problems = Vec::new();
    for (index, (sent, shown)) in steps.iter().enumerate() {
        engine.send(sent);
        rewritten.push(format!("> {sent}"));
        let next = steps.get(index + 1).map(|(next, _)| next.as_str());
        let actual: Vec<String> = if !bless {
            shown.iter().map_while(|_| engine.next(LINE_TIMEOUT)).collect()
        } else if sent.split_whitespace().any(|word| word == "ponder") && next == Some("ponderhit") {
            // The pondering search's lines are read after ponderhit, sent at once.
            Vec::new()
        } else {
            let (last, quiet) = reply_end(sent);
            engine.read_reply(last, quiet)
        };
        if index + 1 == steps.len() {
            // After the last line: the input ends, and nothing more may come.
            engine.0.close_stdin();
            let mut actual = actual;
            let more: Vec<String> = std::iter::from_fn(|| engine.next(Duration::from_secs(5))).collect();
            actual.extend(more);
            check_step(sent, shown, &actual, &mut rewritten, &mut problems);
        } else {
            check_step(sent, shown, &actual, &mut rewritten, &mut problems);
        }
        if !problems.is_empty() && !bless {
            break; // the rest of the session would differ anyway
        }
    }
    Outcome { rewritten, problems }
}

fn check_step(
    sent: &str,
    shown: &[String],
    actual: &[String],
    rewritten: &mut Vec<String>,
    problems: &mut Vec<String>,
) {
    if same_lines(shown, actual) {
        rewritten.extend(merged(shown, actual).iter().map(|line| format!("< {line}").trim_end().to_string()));
    } else {
        problems.push(format!(
            "after '> {sent}'\n  shown:\n{}\n  printed:\n{}",
            indent_lines(shown, "< "),
            indent_lines(actual, "< ")
        ));
        rewritten.extend(merged(shown, actual).iter().map(|line| format!("< {line}").trim_end().to_string()));
    }
}

fn indent_lines(lines: &[String], prefix: &str) -> String {
    if lines.is_empty() {
        return "    (nothing)".to_string();
    }
    lines.iter().map(|line| format!("    {prefix}{line}")).collect::<Vec<_>>().join("\n")
}

/// PATH with the built podium first.
fn path_with_podium() -> String {
    let binary = Path::new(env!("CARGO_BIN_EXE_podium"));
    let directory = binary.parent().expect("the binary's directory");
    format!("{}:{}", directory.display(), std::env::var("PATH").unwrap_or_default())
}

fn stdout_lines(mut command: Command) -> Vec<String> {
    let mut child = command
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the example's command starts");
    let mut text = String::new();
    child.stdout.take().expect("piped stdout").read_to_string(&mut text).expect("the output is text");
    let _ = child.wait();
    text.lines().filter(|line| !timing_only(line)).map(str::to_string).collect()
}

fn run_shell(block: &Block) -> Outcome {
    let mut rewritten = Vec::new();
    let mut problems = Vec::new();
    let mut commands: Vec<(String, Vec<String>)> = Vec::new();
    for line in &block.lines {
        match line.strip_prefix("$ ") {
            Some(command) => commands.push((command.to_string(), Vec::new())),
            None => match commands.last_mut() {
                Some((_, shown)) => shown.push(line.clone()),
                None => problems.push(format!("output before any '$ ' line: {line:?}")),
            },
        }
    }
    for (command, shown) in &commands {
        let mut shell = Command::new("sh");
        shell.args(["-c", command]).env("PATH", path_with_podium());
        let actual = stdout_lines(shell);
        rewritten.push(format!("$ {command}"));
        if same_lines(shown, &actual) {
            rewritten.extend(merged(shown, &actual));
        } else {
            problems.push(format!(
                "'$ {command}'\n  shown:\n{}\n  printed:\n{}",
                indent_lines(shown, ""),
                indent_lines(&actual, "")
            ));
            rewritten.extend(merged(shown, &actual));
        }
    }
    Outcome { rewritten, problems }
}

fn run_python(code: &Block, output: &Block) -> Outcome {
    let binary = format!("{:?}", env!("CARGO_BIN_EXE_podium"));
    let source = code.lines.join("\n").replace("\"target/release/podium\"", &binary);
    let mut python = Command::new("python3");
    python.args(["-c", &source]).env("PYTHONPATH", "scripts").env("PATH", path_with_podium());
    let actual = stdout_lines(python);
    if same_lines(&output.lines, &actual) {
        Outcome { rewritten: merged(&output.lines, &actual), problems: Vec::new() }
    } else {
        let problem =
            format!("  shown:\n{}\n  printed:\n{}", indent_lines(&output.lines, ""), indent_lines(&actual, ""));
        Outcome { rewritten: merged(&output.lines, &actual), problems: vec![problem] }
    }
}

/// Runs every example of the documents; with PODIUM_BLESS set, writes what the engine printed
/// back into them. Returns the differences found, one entry per example.
fn run_examples(which: &str) -> (usize, Vec<String>) {
    let bless = blessing();
    let mut count = 0;
    let mut report = Vec::new();
    for path in documents(which) {
        let text = std::fs::read_to_string(&path).expect("the document can be read");
        let found = blocks(&text);
        // Replacement content per block (by its first line), applied from the bottom up.
        let mut replacements: BTreeMap<usize, (usize, String, Vec<String>)> = BTreeMap::new();
        for (index, block) in found.iter().enumerate() {
            let (target, outcome) = match block.kind {
                None => continue,
                Some(Kind::Session) => (block, run_session(block, bless)),
                Some(Kind::Shell) => (block, run_shell(block)),
                Some(Kind::Python) => match found.get(index + 1) {
                    Some(output) => (output, run_python(block, output)),
                    None => {
                        report.push(format!(
                            "{}:{}: a Python example needs its output block after it",
                            path.display(),
                            block.first
                        ));
                        continue;
                    }
                },
            };
            count += 1;
            let everything = std::env::var("PODIUM_BLESS").is_ok_and(|value| value == "all");
            if everything && outcome.problems.is_empty() {
                replacements.insert(target.first, (target.lines.len(), target.indent.clone(), outcome.rewritten));
            } else if !outcome.problems.is_empty() {
                report.push(format!(
                    "{}:{}: the example is not what the engine prints:\n{}",
                    path.display(),
                    block.first,
                    outcome.problems.join("\n")
                ));
                replacements.insert(target.first, (target.lines.len(), target.indent.clone(), outcome.rewritten));
            }
        }
        if bless && !replacements.is_empty() {
            let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
            for (first, (length, indent, content)) in replacements.into_iter().rev() {
                let content =
                    content.into_iter().map(|line| if line.is_empty() { line } else { format!("{indent}{line}") });
                lines.splice(first..first + length, content);
            }
            std::fs::write(&path, lines.join("\n") + "\n").expect("the document can be written");
        }
    }
    (count, report)
}

fn check_examples(which: &str, at_least: usize) {
    let (count, report) = run_examples(which);
    assert!(count >= at_least, "{which}: {count} examples found, expected at least {at_least}: are the markers there?");
    if blessing() {
        if !report.is_empty() {
            eprintln!("{which}: rewrote {} examples from the engine:\n{}", report.len(), report.join("\n\n"));
        }
        return;
    }
    assert!(
        report.is_empty(),
        "{which}: {} of {count} examples differ from what the engine prints now. If the engine is right, \
         `PODIUM_BLESS=1 cargo test --release --test doc_examples` rewrites them; read the diff before \
         committing it.\n\n{}",
        report.len(),
        report.join("\n\n")
    );
}

// ---------------------------------------------------------------- the tests

#[test]
fn readme_examples_are_what_the_engine_prints() {
    check_examples("README.md", 2);
}

#[test]
fn protocol_examples_are_what_the_engine_prints() {
    check_examples("protocol.md", 6);
}

#[test]
fn docs_examples_are_what_the_engine_prints() {
    check_examples("docs", 1);
}

/// A block that looks like an example but carries no marker would never be run.
#[test]
fn every_example_in_readme_and_protocol_is_marked() {
    for name in ["README.md", "protocol.md"] {
        let text = std::fs::read_to_string(root().join(name)).expect("the document can be read");
        let found = blocks(&text);
        for (index, block) in found.iter().enumerate() {
            let is_output_of_python = index > 0 && found[index - 1].kind == Some(Kind::Python);
            let looks_like_one = block.info == "python"
                || block.lines.iter().any(|line| line.starts_with("> ") || line.starts_with("$ "));
            assert!(
                block.kind.is_some() || is_output_of_python || !looks_like_one,
                "{name}:{}: this block looks like an example but is not marked as one; put \
                 `<!-- example: session -->` (or shell, or python) on the line before it",
                block.first
            );
        }
    }
}

/// The comparison can fail: a changed count, move or line is caught, and only the fields said to
/// vary are masked.
#[test]
fn a_wrong_example_is_caught() {
    assert!(same(
        "info depth 2 nodes 10 nps 5 hashfull 0 time 3 pv A@c3",
        "info depth 2 nodes 10 nps 99 hashfull 7 time 0 pv A@c3"
    ));
    assert!(!same("info depth 2 nodes 10 nps 5 time 3 pv A@c3", "info depth 2 nodes 11 nps 5 time 3 pv A@c3"));
    assert!(!same("info depth 2 nodes 10 nps 5 time 3 pv A@c3", "info depth 2 nodes 10 nps 5 time 3 pv A@c4"));
    assert!(same(r#"{"nodes":79,"time":1}"#, r#"{"nodes":79,"time":250}"#));
    assert!(!same(r#"{"nodes":79,"time":1}"#, r#"{"nodes":80,"time":1}"#));
    assert!(same("option name Board type string default o-o,...", "option name Board type string default o-o,|X|"));
    assert!(!same("option name Board type string default x-x,...", "option name Board type string default o-o,|X|"));
    let session = Block {
        info: String::new(),
        indent: String::new(),
        first: 0,
        lines: ["> newgame poldr size 4 bricks 3", "> go depth 1", "< bestmove Pa1Md1"].map(str::to_string).to_vec(),
        kind: Some(Kind::Session),
    };
    let outcome = run_session(&session, false);
    assert_eq!(outcome.problems.len(), 1, "a session missing its info line is caught");
}
