//! A closed output ends every subcommand quietly with a failure.
//!
//! This test has a binary of its own: while a test in the same process
//! starts another child, that child holds a copy of every open descriptor
//! until it execs, the read end of this test's pipe included. Output small
//! enough for the pipe's buffer then goes through, and the subcommand
//! succeeds. And each pipe's read end is closed before its child starts: a
//! subcommand that waits for no input could write and finish first (seen in
//! CI for `perft --divide` and `solve`).

use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn a_closed_output_ends_every_subcommand_quietly_with_a_failure() {
    let cases: [(&[&str], &str); 6] = [
        (&["analyse", "--json", "--depth", "2", "--positions", "-"], "startpos\n"),
        (&["analyse", "--depth", "2", "--positions", "-"], "startpos\n"),
        (&["perft", "--depth", "3", "--divide"], ""),
        (&["bench", "--depth", "2"], ""),
        (&["solve", "--game", "poldr", "--size", "4", "--bricks", "3"], ""),
        (
            &["tune", "--variant", "standard", "--games", "-"],
            "1-0 startpos moves B@d1 N@b5 G@e3\n0-1 startpos moves A@c3 b@d4\n",
        ),
    ];
    for (args, input) in cases {
        // The reader is gone before the child starts: a subcommand that does
        // not wait for input (solve, perft) could otherwise write and finish
        // while the read end was still open.
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let mut child = Command::new(env!("CARGO_BIN_EXE_podium"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(writer)
            .stderr(Stdio::piped())
            .spawn()
            .expect("the podium binary runs");
        child.stdin.take().unwrap().write_all(input.repeat(200).as_bytes()).unwrap();
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(1), "{args:?}: {output:?}");
        assert!(output.stderr.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    }
}
