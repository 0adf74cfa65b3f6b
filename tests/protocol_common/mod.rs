//! Shared by the protocol tests: the real `podium` binary behind pipes, read
//! by a thread so that no test can hang (every read has a deadline), and word
//! patterns that check a reply's exact form.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// The start position line of the default rules.
pub const START: &str = "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0";
/// Long enough for any single reply on a loaded machine, short enough to fail fast.
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(10);
/// What a test takes for "at once" (an answer to `isready` or `stop`, an
/// exit on `quit`, a finished game's `bestmove`): on a quiet machine a few
/// milliseconds, on one whose two cores are shared with a dozen other
/// processes some hundreds. The failures these bounds catch (an engine that
/// waits for its search to end, or searches forever) take far longer.
pub const PROMPTLY: Duration = Duration::from_secs(2);

/// A process's resident memory in megabytes: `process` is a pid, or
/// `self` for the test itself.
pub fn resident_megabytes(process: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{process}/status")).expect("the process's status");
    let kilobytes = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .expect("a VmRSS line");
    kilobytes / 1024
}

pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything sent (`> `) and received (`< `), for failure messages.
    pub transcript: Vec<String>,
}

impl EngineProcess {
    pub fn start() -> EngineProcess {
        EngineProcess::start_with_args(&[])
    }

    pub fn start_with_args(args: &[&str]) -> EngineProcess {
        let mut command = Command::new(env!("CARGO_BIN_EXE_podium"));
        command.args(args);
        EngineProcess::spawn(command)
    }

    /// The engine started by `sh` after a shell command, as `ulimit -v
    /// 400000`: the shell runs it, then becomes the engine (`exec`).
    pub fn start_after_shell(prelude: &str) -> EngineProcess {
        let mut command = Command::new("sh");
        command.args(["-c", &format!("{prelude} && exec \"$0\""), env!("CARGO_BIN_EXE_podium")]);
        EngineProcess::spawn(command)
    }

    fn spawn(mut command: Command) -> EngineProcess {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the podium binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        EngineProcess { child, stdin, lines, transcript: Vec::new() }
    }

    pub fn send(&mut self, line: &str) {
        assert!(self.try_send(line), "the engine reads its input; transcript:\n{}", self.transcript.join("\n"));
    }

    /// Sends a line; false if the engine no longer reads (it quit), for
    /// replays that compare what it printed all the same.
    pub fn try_send(&mut self, line: &str) -> bool {
        self.transcript.push(format!("> {}", abbreviate(line)));
        let Some(stdin) = self.stdin.as_mut() else { return false };
        stdin.write_all(format!("{line}\n").as_bytes()).and_then(|()| stdin.flush()).is_ok()
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).and_then(|()| stdin.flush()).expect("the engine reads its input");
    }

    /// Closes the engine's input: the end of input.
    pub fn close_stdin(&mut self) {
        self.transcript.push("> (end of input)".to_string());
        self.stdin = None;
    }

    /// The next line, or `None` if none comes within `timeout`.
    pub fn try_read_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(format!("< {}", abbreviate(&line)));
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// The first line starting with `prefix` within `timeout`, skipping
    /// others; `None` if none comes.
    pub fn try_read_line_matching(&mut self, prefix: &str, timeout: Duration) -> Option<String> {
        let deadline = Instant::now() + timeout;
        while let Some(line) = self.try_read_line(deadline.saturating_duration_since(Instant::now())) {
            if line.starts_with(prefix) {
                return Some(line);
            }
        }
        None
    }

    pub fn read_line(&mut self, timeout: Duration) -> String {
        match self.try_read_line(timeout) {
            Some(line) => line,
            None => panic!("no line within {timeout:?}; transcript:\n{}", self.transcript.join("\n")),
        }
    }

    /// Lines up to and including the first one `is_last` accepts.
    pub fn read_until(&mut self, is_last: impl Fn(&str) -> bool, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.read_line(left);
            let done = is_last(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// `isready` -> `readyok`; returns the lines that came before it.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(|line| line == "readyok", REPLY_TIMEOUT);
        lines.pop();
        lines
    }

    /// Sends `query <question>` and returns the answer after `response `;
    /// search info lines that come first (a search may be running) are skipped.
    pub fn query(&mut self, question: &str) -> String {
        self.send(&format!("query {question}"));
        let line = self.read_until(|line| !line.starts_with("info depth "), REPLY_TIMEOUT).pop().expect("a line");
        match line.strip_prefix("response ") {
            Some(answer) => answer.to_string(),
            None => panic!("expected a response, got {line:?}; transcript:\n{}", self.transcript.join("\n")),
        }
    }

    /// Sends `go` and waits for `bestmove`: returns the info lines and the move.
    pub fn search(&mut self, go: &str, timeout: Duration) -> (Vec<String>, String) {
        self.send(go);
        let mut lines = self.read_until(|line| line.starts_with("bestmove"), timeout);
        let bestmove = lines.pop().expect("a bestmove line");
        let mv = bestmove.strip_prefix("bestmove ").expect("bestmove <move>").to_string();
        (lines, mv)
    }

    /// Waits for the process to end; `None` if it is still running at the deadline.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn dump(&self) -> String {
        self.transcript.join("\n")
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn abbreviate(line: &str) -> String {
    if line.len() > 200 {
        format!("{}... ({} bytes)", &line[..line.floor_char_boundary(200)], line.len())
    } else {
        line.to_string()
    }
}

/// Whether `line` has exactly the form `pattern` describes, end to end.
///
/// A pattern is words separated by single spaces; so is the line, so a
/// double or trailing space never matches. A pattern word is literal text,
/// alternatives `a|b|c`, or a placeholder: `<uint>`, `<int>`, `<move>`,
/// `<word>` (any one word), and, last in a pattern only, `<moves>` (one or
/// more moves) or `<rest>` (one or more words).
pub fn has_form(pattern: &str, line: &str) -> bool {
    let pattern: Vec<&str> = pattern.split(' ').collect();
    let words: Vec<&str> = line.split(' ').collect();
    let mut at = 0;
    for (index, &expected) in pattern.iter().enumerate() {
        let last = index + 1 == pattern.len();
        match expected {
            "<moves>" | "<rest>" if last => {
                let rest = &words[at.min(words.len())..];
                let each_ok = |word: &&str| if expected == "<moves>" { is_move(word) } else { !word.is_empty() };
                return !rest.is_empty() && rest.iter().all(each_ok);
            }
            _ => {
                let Some(&word) = words.get(at) else { return false };
                let ok = match expected {
                    "<uint>" => !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()),
                    "<int>" => {
                        let digits = word.strip_prefix('-').unwrap_or(word);
                        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
                    }
                    "<move>" => is_move(word),
                    "<word>" => !word.is_empty(),
                    _ => expected.split('|').any(|choice| choice == word),
                };
                if !ok {
                    return false;
                }
                at += 1;
            }
        }
    }
    at == words.len()
}

/// A Pods move, `A@c3` (any pod letter, either case) or `c3c5`, or a
/// POLD.R move, `Pc3`, `Mc5`, `Pc3Mc5` or `pass`.
pub fn is_move(word: &str) -> bool {
    let point = |bytes: &[u8]| matches!(bytes, [b'a'..=b'f', b'1'..=b'6']);
    let cell = |bytes: &[u8]| matches!(bytes, [b'a'..=b'i', b'1'..=b'9']);
    if word == "pass" {
        return true;
    }
    match word.as_bytes() {
        [pod, b'@', to @ ..] => pod.is_ascii_alphabetic() && point(to),
        [b'P', pawn @ .., b'M', _, _] if word.len() == 6 => cell(pawn) && cell(&word.as_bytes()[4..]),
        [b'P' | b'M', to @ ..] => cell(to),
        [from @ .., _, _] if word.len() == 4 => point(from) && point(&word.as_bytes()[2..]),
        _ => false,
    }
}

/// The form of every search `info` line.
pub const INFO_FORM: &str = "info depth <uint> seldepth <uint> score cp|mate <int> nodes <uint> nps <uint> hashfull <uint> time <uint> pv <moves>";

/// The form of the lines that name the root move being searched.
pub const CURRMOVE_FORM: &str = "info depth <uint> currmove <move> currmovenumber <uint>";

/// Checks what a search printed: only info lines of the documented forms,
/// and the move played is the first move of the last PV.
pub fn check_search_output(infos: &[String], mv: &str) {
    assert!(!infos.is_empty(), "no info line before bestmove {mv}");
    for line in infos {
        let book_note = line.starts_with("info string book: ");
        assert!(has_form(INFO_FORM, line) || has_form(CURRMOVE_FORM, line) || book_note, "bad info line {line:?}");
    }
    let last = infos.iter().rev().find(|line| line.contains(" pv ")).expect("an info line with a PV");
    let pv_head = last.split(" pv ").nth(1).and_then(|pv| pv.split(' ').next());
    assert_eq!(pv_head, Some(mv), "bestmove {mv} is not the head of the last PV in {last:?}");
}
