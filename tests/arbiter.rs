//! Runs the arbiter's Python tests (tests/arbiter/test_arbiter.py) against the
//! podium binary that cargo just built, so `cargo test --release` covers them.

use std::process::Command;

#[test]
fn arbiter_python_tests_pass() {
    let output = Command::new("python3")
        .arg("tests/arbiter/test_arbiter.py")
        .env("PODIUM_BIN", env!("CARGO_BIN_EXE_podium"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("python3 must be installed to run the arbiter tests");
    assert!(
        output.status.success(),
        "arbiter tests failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
