//! Runs the browser tests of the game and match pages (tests/browser/test_*.py: scripts/picture.py
//! and `arbiter.py report` drawn by headless Chromium, checked through the DOM against the engine's
//! own `d`) with the podium binary that cargo just built. Chromium must be installed
//! (`apt-get install -y chromium`): without it these tests fail, saying so.

use std::process::Command;

#[test]
fn browser_tests_pass() {
    let output = Command::new("python3")
        .args(["-m", "unittest", "discover", "--start-directory", "tests/browser", "--pattern", "test_*.py"])
        .env("PODIUM_BIN", env!("CARGO_BIN_EXE_podium"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("python3 must be installed to run the browser tests");
    assert!(
        output.status.success(),
        "browser tests failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
