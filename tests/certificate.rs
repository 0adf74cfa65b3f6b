//! The independent verifier of proof certificates (#40 item 3): a
//! certificate written by `podium solve --certificate` is checked by
//! tests/common/certificate.rs, which knows only the slow reference rules
//! of tests/common/reference.rs: every node's moves are made again there,
//! and leaves (positions the engine's endgame solver or bounds settled) are
//! proved again by brute force.
//!
//! CI checks the committed certificate's whole tree and a seeded sample of
//! its leaves, a fresh certificate whole, and that forged ones are refused.
//! To verify any certificate whole (the tree, every leaf within 10 plies of
//! the end and a sample of the others):
//!
//! ```sh
//! PODIUM_CERTIFICATE=FILE [PODIUM_CERTIFICATE_SAMPLE=N] cargo test --release --test certificate -- --ignored
//! ```

mod common;

use std::process::Command;

use common::certificate::{Certificate, Step, check_leaf, check_tree, parse};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

/// A certificate of the repository: `podium solve --certificate` on a
/// standard endgame 12 plies before the end of a real game
/// (scripts/data/pods-endgames-standard.txt), docs/solving.md says the command.
const COMMITTED: &str = include_str!("data/certificate-standard-12.txt");

/// Leaves within this many plies of the end are all proved again.
const ALWAYS_CHECKED: u32 = 10;

/// Checks `certificate`: its tree whole, then the leaves claiming at most
/// `every_within` plies and `sample` of the others, chosen by `seed`.
/// Returns the number of leaves proved again.
fn verify(text: &str, every_within: u32, sample: usize, seed: u64) -> Result<usize, String> {
    let certificate = parse(text)?;
    let rules = certificate.rules();
    let report = check_tree(&certificate, &rules)?;
    assert!(report.positions > 0, "the tree has positions");
    assert_eq!(report.unused_steps, 0, "every step of the certificate is reached from its root");
    let (mut near, mut far): (Vec<_>, Vec<_>) = report.leaves.iter().partition(|(_, plies)| *plies <= every_within);
    let mut random = Xoshiro256PlusPlus::seed_from_u64(seed);
    for index in 0..sample.min(far.len()) {
        let pick = index + (random.next_u64() % (far.len() - index) as u64) as usize;
        far.swap(index, pick);
    }
    near.extend(far.into_iter().take(sample));
    for (position, plies) in &near {
        check_leaf(&rules, certificate.winner, position, *plies)?;
    }
    Ok(near.len())
}

fn solve_certificate(position: &str) -> String {
    let path = std::env::temp_dir().join(format!("podium-certificate-{}.txt", std::process::id()));
    let output = Command::new(env!("CARGO_BIN_EXE_podium"))
        .args(["solve", "--variant", "standard", "--hash", "16", "--fen", position, "--certificate"])
        .arg(&path)
        .output()
        .expect("podium runs");
    assert!(output.status.success(), "podium solve --certificate: {}", String::from_utf8_lossy(&output.stderr));
    let text = std::fs::read_to_string(&path).expect("the certificate was written");
    let _ = std::fs::remove_file(&path);
    text
}

#[test]
fn the_committed_certificate_checks() {
    // The whole tree, and a sample of its leaves: CI's share, seconds.
    let checked = verify(COMMITTED, 5, 20, 40).expect("the committed certificate is sound");
    assert!(checked >= 20, "leaves were proved again ({checked})");
}

#[test]
fn a_fresh_certificate_checks_whole() {
    // 12 plies before the end of a real game (pods-endgames-standard.txt): every leaf is proved again.
    let text = solve_certificate("2N3/1I2ml/B2hn1/MK1b2/LG1j1e/A4g w CDEFHJacdfik 180 16");
    let certificate = parse(&text).expect("the engine writes the format");
    assert!(!certificate.steps.is_empty(), "the tree has steps");
    verify(&text, u32::MAX, 0, 0).expect("the engine's certificate is sound");
}

/// The committed certificate with one line changed by `change`.
fn forged(change: impl Fn(&Certificate, &str) -> Option<String>) -> String {
    let certificate = parse(COMMITTED).unwrap();
    let mut done = false;
    let lines: Vec<String> = COMMITTED
        .lines()
        .map(|line| match (done, change(&certificate, line)) {
            (false, Some(new)) => {
                done = true;
                new
            }
            _ => line.to_string(),
        })
        .collect();
    assert!(done, "a line was forged");
    lines.join("\n") + "\n"
}

#[test]
fn forged_certificates_are_refused() {
    // The winner's first move replaced by another legal move: the tree then
    // reaches the winner's turns the certificate does not cover.
    let rules = parse(COMMITTED).unwrap().rules();
    let wrong_move = forged(|_, line| {
        let rest = line.strip_prefix("move ")?;
        let (position, mv) = rest.rsplit_once(' ')?;
        let other = rules.legal_moves(position).into_iter().find(|legal| !legal.eq_ignore_ascii_case(mv))?;
        Some(format!("move {position} {other}"))
    });
    assert!(check_tree(&parse(&wrong_move).unwrap(), &rules).is_err(), "another move is refused");
    // An illegal move.
    let illegal = forged(|_, line| {
        let (head, _) = line.strip_prefix("move ")?.rsplit_once(' ')?;
        Some(format!("move {head} Z@z9"))
    });
    assert!(check_tree(&parse(&illegal).unwrap(), &rules).is_err(), "an illegal move is refused");
    // A leaf that claims a win sooner than there is one: the tree is
    // unchanged, the brute force refuses the leaf.
    let short = forged(|certificate, line| {
        let (position, plies) = line.strip_prefix("leaf ")?.rsplit_once(' ')?;
        let plies: u32 = plies.parse().ok()?;
        (plies > 1 && !rules.side_wins_within(position, certificate.winner, 1)).then(|| format!("leaf {position} 1"))
    });
    let short = parse(&short).unwrap();
    let report = check_tree(&short, &rules).expect("the tree itself is unchanged");
    let original = parse(COMMITTED).unwrap();
    let forged_leaf = report
        .leaves
        .iter()
        .find(|(position, plies)| original.steps.get(position) != Some(&Step::Leaf(*plies)))
        .expect("the forged leaf is in the tree");
    assert!(
        check_leaf(&rules, short.winner, &forged_leaf.0, forged_leaf.1).is_err(),
        "a leaf claiming too short a win is refused"
    );
    // The other side named the winner.
    let loser = forged(|certificate, line| {
        line.starts_with("winner ").then(|| format!("winner {}", ["black", "white"][certificate.winner]))
    });
    assert!(verify(&loser, u32::MAX, 0, 0).is_err(), "the wrong winner is refused");
    // Cut short.
    let cut = COMMITTED.replace("\nend\n", "\n");
    assert!(parse(&cut).is_err(), "a certificate without its end is refused");
}

/// Verifies the certificate named by PODIUM_CERTIFICATE whole: the tree,
/// every leaf within 10 plies of the end and PODIUM_CERTIFICATE_SAMPLE
/// (default 100) of the others.
#[test]
#[ignore = "a checker run by hand: PODIUM_CERTIFICATE=FILE"]
fn verify_a_certificate_file() {
    let Ok(path) = std::env::var("PODIUM_CERTIFICATE") else {
        panic!("set PODIUM_CERTIFICATE to the certificate's file");
    };
    let sample = std::env::var("PODIUM_CERTIFICATE_SAMPLE").ok().and_then(|n| n.parse().ok()).unwrap_or(100);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    match verify(&text, ALWAYS_CHECKED, sample, 1) {
        Ok(checked) => eprintln!("{path}: sound; {checked} leaves proved again"),
        Err(error) => panic!("{path}: {error}"),
    }
}
