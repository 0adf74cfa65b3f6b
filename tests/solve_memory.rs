//! `podium solve`'s tables take memory as the proof needs it
//! (`Searcher::with_tables_on_demand`), so a small proof with a large hash
//! size answers at once; the engine's tables (`Searcher::new`) are written
//! whole when made. Measured by this process's resident memory (`VmRSS`),
//! one test in its own process, never by a clock.
#![cfg(target_os = "linux")]

mod protocol_common;

use podium::games::Registry;
use podium::search::{Limits, Progress, Score, Searcher, Signals};
use protocol_common::resident_megabytes;

#[test]
fn a_small_proof_with_a_large_hash_takes_little_memory_and_the_engine_s_tables_are_written() {
    let session = Registry::builtin().select(Some("poldr"), &[("Size", "4"), ("Bricks", "3")]).unwrap().setup.start();
    let before = resident_megabytes("self");
    let mut searcher = Searcher::with_tables_on_demand(1024);
    let limits = Limits { depth: Some(127), prove: true, ..Limits::default() };
    let mut proved = None;
    session.search(&mut searcher, &limits, &[], &Signals::default(), &mut |progress| {
        if let Progress::Line(report) = progress
            && let Score::Mate(moves) = report.score
        {
            proved = Some(moves);
        }
    });
    assert_eq!(proved, Some(2));
    let after = resident_megabytes("self");
    // 1024 MB of hash table and up to 512 MB of proofs asked for; the
    // proof's few nodes write a page or two of each.
    assert!(after < before + 16, "{before} MB before, {after} MB after a 10-node proof");
    assert_eq!(searcher.proof_megabytes(), (1, 512), "the proof table has not grown");
    drop(searcher);
    let engine_tables = Searcher::new(64);
    let written = resident_megabytes("self");
    assert!(written >= after + 90, "{after} MB, then {written} MB with the engine's tables of Hash 64");
    drop(engine_tables);
}

#[test]
fn short_of_address_space_solve_proves_with_smaller_tables() {
    // 1024 MB asked for in 105 MB of address space: the tables give way
    // (halved until they fit), and the proof is made, not aborted.
    let script = format!(
        "ulimit -v 105000; exec '{}' solve --game poldr --size 4 --bricks 3 --hash 1024",
        env!("CARGO_BIN_EXE_podium")
    );
    let output = std::process::Command::new("sh").args(["-c", &script]).output().expect("sh runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{:?}: {stdout} {}", output.status, String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("result Blue (p1, to move) wins in at most 2 moves of its own"), "{stdout}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--hash 1024: so much memory cannot be had here, using "), "{stderr}");
}

#[test]
fn a_small_df_pn_proof_with_a_large_hash_takes_little_memory() {
    use podium::games::poldr::{PoldrAdapter, Position};
    use podium::search::{Solver, Verdict};

    let position = Position::start(4, 2, 3).expect("a valid start");
    let before = resident_megabytes("self");
    // 768 MB of df-pn's numbers and 256 MB for the endgame solver at its
    // leaves asked for; the proof's few nodes write a page or two.
    let mut solver = Solver::new(1024);
    let solution = solver.solve(&PoldrAdapter::default(), &position, &Limits::default(), &Signals::default());
    assert_eq!(solution.verdict, Verdict::Win, "Blue wins the 4x4 start with 3 bricks");
    let after = resident_megabytes("self");
    assert!(after < before + 16, "{before} MB before, {after} MB after a proof of {} nodes", solution.nodes);
}
