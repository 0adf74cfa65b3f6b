//! Runs the browser tests (tests/browser/test_*.py) with the podium binary that cargo just built:
//! the game and match pages (scripts/picture.py, `arbiter.py report`) drawn by headless Chromium
//! and checked through the DOM against the engine's own `d`, and the analysis board and the pages'
//! engine data driven through WebDriver (ChromeDriver and Selenium as well).
//!
//! None of those tools is needed to build or use Podium, so a machine without them still passes
//! `cargo test --release`: the Python tests skip themselves, and this test says on the terminal
//! which ones were skipped and how to run them. Where they must run, as in CI, set
//! `PODIUM_REQUIRE_BROWSER=1` (.ci/run does): a missing tool is then a failure.

use std::io::Write;
use std::process::Command;

#[test]
fn browser_tests_pass() {
    let required = std::env::var("PODIUM_REQUIRE_BROWSER").is_ok_and(|value| value == "1");
    let output = Command::new("python3")
        .args(["-m", "unittest", "discover", "-v", "--start-directory", "tests/browser", "--pattern", "test_*.py"])
        .env("PODIUM_BIN", env!("CARGO_BIN_EXE_podium"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("python3 must be installed to run the browser tests");
    let report = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "browser tests failed ({}):\n--- stdout\n{}\n--- stderr\n{report}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
    );
    let skipped = skipped_tests(&report);
    assert!(
        !required || skipped.is_empty(),
        "PODIUM_REQUIRE_BROWSER is set but browser tests were skipped: {skipped:?}\n{report}"
    );
    if !skipped.is_empty() {
        // Straight to the terminal: cargo's test harness would hide a passing test's println!.
        let _ = writeln!(
            std::io::stderr(),
            "\n*** SKIPPED {} browser tests or test classes ***\n    {}\n    To run them, install what they \
             name (Debian: apt-get install -y chromium chromium-driver; pip install selenium) and run \
             `cargo test --release --test browser`.\n    PODIUM_REQUIRE_BROWSER=1 turns a missing tool into \
             a failure (.ci/run sets it).\n",
            skipped.len(),
            skipped.join("\n    "),
        );
    }
}

/// The tests unittest's verbose report marks as skipped, each with the reason. A test's line starts
/// with its name (a test with a docstring has the docstring on the next line, before
/// `... skipped`); a class skipped as a whole by its setUpClass has a line of its own,
/// `setUpClass (module.Class) ... skipped '...'`.
fn skipped_tests(report: &str) -> Vec<String> {
    let mut skipped = Vec::new();
    let mut current = None;
    for line in report.lines() {
        if let Some((name, rest)) = line.split_once(' ')
            && rest.starts_with('(')
        {
            current = Some(name.to_string());
            if current.as_deref() == Some("setUpClass") {
                let class = line.split(['(', ')']).nth(1).unwrap_or("?");
                current = Some(format!("{class} (all its tests)"));
            }
        }
        if let Some(at) = line.find(" ... skipped")
            && let Some(name) = current.take()
        {
            skipped.push(format!("{name}: {}", line[at + " ... skipped".len()..].trim()));
        }
    }
    skipped
}
