//! Runs every Python test of scripts/ (tests/arbiter/test_*.py: the arbiter, its statistics and
//! the Python client) against the podium binary that cargo just built, so `cargo test --release`
//! covers them. unittest's discovery picks up each test file, a new one included.

use std::process::Command;

#[test]
fn python_tests_pass() {
    let output = Command::new("python3")
        .args(["-m", "unittest", "discover", "--start-directory", "tests/arbiter", "--pattern", "test_*.py"])
        .env("PODIUM_BIN", env!("CARGO_BIN_EXE_podium"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("python3 must be installed to run the Python tests");
    assert!(
        output.status.success(),
        "Python tests failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
