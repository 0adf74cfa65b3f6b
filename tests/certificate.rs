//! The independent verifier of proof certificates (#40 item 3): a
//! certificate written by `podium solve --certificate` or by the campaign
//! (`scripts/campaign.py certificate`) is checked by
//! tests/common/certificate.rs, which shares no code with the engine: every
//! node's moves are made again by the slow reference rules of
//! tests/common/reference.rs, and leaves (positions the engine's endgame
//! solver or bounds settled) are proved again by the fast brute force of
//! tests/common/fast_pods.rs, written from the rules alone and compared here
//! with the reference's own brute force.
//!
//! CI checks the committed certificate's whole tree and a seeded sample of
//! its leaves, the start's proofs (the campaign's, at rotations 0, 90, 180
//! and 270) whole trees and a sample of their leaves, a fresh certificate and a
//! fresh campaign's whole, and that forged ones are refused. To verify any
//! certificate (the tree, every leaf within 10 plies of the end and a sample
//! of the others, drawn by PODIUM_CERTIFICATE_SEED):
//!
//! ```sh
//! PODIUM_CERTIFICATE=FILE [PODIUM_CERTIFICATE_SAMPLE=N] [PODIUM_CERTIFICATE_WITHIN=PLIES] cargo test --release --test certificate verify_a_certificate_file -- --ignored --nocapture
//! ```

mod common;
// Only this test binary checks certificates, so only it builds the checker
// and its fast brute force (and runs the brute force's own unit tests).
#[allow(dead_code)]
#[path = "common/certificate.rs"]
mod certificate;
#[allow(dead_code)]
#[path = "common/fast_pods.rs"]
mod fast_pods;

use std::io::Read;
use std::path::Path;
use std::process::Command;

use certificate::{Certificate, LeafChecker, Step, TreeReport, check_tree, parse};
use fast_pods::FastPods;
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

/// A certificate of the repository: `podium solve --certificate` on a
/// standard endgame 12 plies before the end of a real game
/// (scripts/data/pods-endgames-standard.txt), docs/solving.md says the command.
const COMMITTED: &str = include_str!("data/certificate-standard-12.txt");

/// The proofs that White wins the standard game from the start, at rotations
/// 0, 90, 180 and 270: the campaign's (`campaign.py certificate`,
/// docs/solving.md), gzip-compressed, each with its root and the book the
/// engine carries of it (src/games/pods/book.rs).
const START_PROOFS: [StartProof; 4] = [
    StartProof {
        certificate: concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/data/campaign/certificate.txt.gz"),
        root: "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0",
        book: include_str!("../src/games/pods/book/start.txt"),
    },
    StartProof {
        certificate: concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/data/campaign/r90-certificate.txt.gz"),
        root: "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 90 0",
        book: include_str!("../src/games/pods/book/start-90.txt"),
    },
    StartProof {
        certificate: concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/data/campaign/r180-certificate.txt.gz"),
        root: "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 180 0",
        book: include_str!("../src/games/pods/book/start-180.txt"),
    },
    StartProof {
        certificate: concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/data/campaign/r270-certificate.txt.gz"),
        root: "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 270 0",
        book: include_str!("../src/games/pods/book/start-270.txt"),
    },
];

struct StartProof {
    certificate: &'static str,
    root: &'static str,
    book: &'static str,
}

/// Which leaves `verify` proves again: those claiming at most `within`
/// plies (all, or `near` of them), and `far` of the others; samples are
/// drawn by `seed`.
struct Leaves {
    within: u32,
    near: Option<usize>,
    far: usize,
    seed: u64,
}

impl Leaves {
    const ALL: Leaves = Leaves { within: u32::MAX, near: None, far: 0, seed: 0 };
}

/// Keeps `count` of `items`, drawn at random.
fn sample<T>(items: &mut Vec<T>, count: usize, random: &mut Xoshiro256PlusPlus) {
    for index in 0..count.min(items.len()) {
        let pick = index + (random.next_u64() % (items.len() - index) as u64) as usize;
        items.swap(index, pick);
    }
    items.truncate(count);
}

/// Checks a certificate: its tree whole, then the leaves `leaves` asks for.
/// Returns the tree's report and the number of leaves proved again.
fn verify(text: &str, leaves: &Leaves) -> Result<(TreeReport, usize), String> {
    let certificate = parse(text)?;
    let rules = certificate.rules();
    let report = check_tree(&certificate, &rules)?;
    assert!(report.positions > 0, "the tree has positions");
    assert_eq!(report.unused_steps, 0, "every step of the certificate is reached from its root");
    let (mut near, mut far): (Vec<_>, Vec<_>) =
        report.leaves.iter().cloned().partition(|(_, plies)| *plies <= leaves.within);
    let mut random = Xoshiro256PlusPlus::seed_from_u64(leaves.seed);
    if let Some(count) = leaves.near {
        sample(&mut near, count, &mut random);
    }
    sample(&mut far, leaves.far, &mut random);
    near.extend(far);
    let mut checker = LeafChecker::new(&certificate, rules)?;
    for (done, (position, plies)) in near.iter().cloned().enumerate() {
        let started = std::time::Instant::now();
        checker.check(certificate.winner, &position, plies)?;
        let seconds = started.elapsed().as_secs_f64();
        if seconds >= 1.0 {
            eprintln!("leaf {position} ({plies} plies) proved again in {seconds:.1} s");
        }
        if (done + 1) % 100 == 0 {
            eprintln!("{} of {} leaves proved again", done + 1, near.len());
        }
    }
    Ok((report, near.len()))
}

/// Proves again every leaf of shard `shard` of `shards` (the leaves sorted
/// by position, every `shards`-th from the `shard`-th) after checking the
/// tree, writing each leaf proved to `log` as its line as soon as it is
/// proved, and skipping the leaves `log` already holds: a run stopped goes on
/// where it stopped, and shards run on as many cores or machines. Returns
/// the leaves proved by this run and those the log already held.
fn prove_leaves(text: &str, shard: usize, shards: usize, log: &Path) -> Result<(usize, usize), String> {
    use std::io::Write;
    let certificate = parse(text)?;
    let rules = certificate.rules();
    let report = check_tree(&certificate, &rules)?;
    let done: std::collections::HashSet<String> =
        std::fs::read_to_string(log).unwrap_or_default().lines().map(str::to_string).collect();
    let mut leaves = report.leaves;
    leaves.sort();
    let mut out = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .map_err(|error| format!("{}: {error}", log.display()))?;
    let mut checker = LeafChecker::new(&certificate, rules)?;
    let (mut proved, mut already) = (0, 0);
    for (position, plies) in leaves.into_iter().skip(shard).step_by(shards) {
        let line = format!("{position} {plies}");
        if done.contains(&line) {
            already += 1;
            continue;
        }
        checker.check(certificate.winner, &position, plies)?;
        writeln!(out, "{line}").and_then(|_| out.flush()).map_err(|error| format!("{}: {error}", log.display()))?;
        proved += 1;
    }
    Ok((proved, already))
}

/// A certificate file's text, gzip-compressed if its name ends in `.gz`.
fn read_certificate(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    if path.extension().is_some_and(|extension| extension == "gz") {
        let mut text = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut text)
            .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        text
    } else {
        String::from_utf8(bytes).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
    }
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
    let leaves = Leaves { within: 5, near: None, far: 20, seed: 40 };
    let (_, checked) = verify(COMMITTED, &leaves).expect("the committed certificate is sound");
    assert!(checked >= 20, "leaves were proved again ({checked})");
}

#[test]
fn a_fresh_certificate_checks_whole() {
    // 12 plies before the end of a real game (pods-endgames-standard.txt): every leaf is proved again.
    let text = solve_certificate("2N3/1I2ml/B2hn1/MK1b2/LG1j1e/A4g w CDEFHJacdfik 180 16");
    let certificate = parse(&text).expect("the engine writes the format");
    assert!(!certificate.steps.is_empty(), "the tree has steps");
    verify(&text, &Leaves::ALL).expect("the engine's certificate is sound");
}

#[test]
fn the_fast_brute_force_agrees_with_the_reference() {
    // On the committed certificate's short leaves and the positions after
    // each of their moves: the same moves, the same perft, and for both
    // sides and every ply count up to the claim, the same answer.
    let certificate = parse(COMMITTED).unwrap();
    let rules = certificate.rules();
    let report = check_tree(&certificate, &rules).unwrap();
    let mut fast = FastPods::new(Some(&certificate.board), Some(&certificate.pods)).unwrap();
    let mut compared = 0;
    // 15 of its 110 leaves 7 plies from the end: the reference's brute force is slow.
    for (leaf, claim) in report.leaves.iter().filter(|(_, plies)| *plies <= 7).take(15) {
        let mut positions = vec![leaf.clone()];
        positions.extend(rules.children(leaf).into_iter().map(|(_, child)| child));
        for position in &positions {
            let mut fast_moves = fast.legal_moves(position).unwrap();
            let mut reference_moves = rules.legal_moves(position);
            fast_moves.sort();
            reference_moves.sort();
            assert_eq!(fast_moves, reference_moves, "{position}: the moves");
            assert_eq!(fast.perft(position, 2).unwrap(), rules.perft(position, 2), "{position}: perft 2");
            for side in 0..2 {
                for plies in 0..=*claim {
                    let wins = rules.side_wins_within(position, side, plies);
                    assert_eq!(
                        fast.wins_within(position, side, plies).unwrap(),
                        wins,
                        "{position}: side {side}, {plies} plies"
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared >= 500, "enough answers compared ({compared})");
}

/// Checks a proof that White wins from the start: its tree whole (about a
/// million positions made again by the reference rules) and a sample of its
/// leaves (`verify_a_certificate_file` checks all the near ones), and that the
/// book the engine carries (`campaign.py book`) is this proof: White's move at
/// each of its turns, and the plies the tree lasts from there.
fn check_start_proof(proof: &StartProof) {
    let text = read_certificate(Path::new(proof.certificate));
    let certificate = parse(&text).expect("the campaign writes the format");
    assert_eq!((certificate.root.as_str(), certificate.winner), (proof.root, 0), "White wins from the start");
    let leaves = Leaves { within: 10, near: Some(200), far: 0, seed: 27 };
    let (report, checked) = verify(&text, &leaves).expect("the proof is sound");
    assert!(report.leaves.len() > 100_000 && checked == 200, "{} leaves, {checked} proved again", report.leaves.len());
    assert_eq!(report.winner_plies[proof.root], certificate.plies, "the tree lasts the plies claimed");
    let mut book_lines = 0;
    for line in proof.book.lines().filter(|line| !line.starts_with('#')) {
        let fields: Vec<&str> = line.split(' ').collect();
        let [position @ .., mv, plies] = &fields[..] else { panic!("not a book line: {line}") };
        let position = position.join(" ");
        assert_eq!(certificate.steps.get(&position), Some(&Step::Move(mv.to_string())), "the proof's move: {line}");
        assert_eq!(Some(&plies.parse().unwrap()), report.winner_plies.get(&position), "the tree's plies: {line}");
        book_lines += 1;
    }
    assert_eq!(book_lines, report.winner_turns, "every turn of White's in the book");
}

#[test]
fn the_start_proof_checks() {
    check_start_proof(&START_PROOFS[0]);
}

#[test]
fn the_start_proof_at_rotation_90_checks() {
    check_start_proof(&START_PROOFS[1]);
}

#[test]
fn the_start_proof_at_rotation_180_checks() {
    check_start_proof(&START_PROOFS[2]);
}

#[test]
fn the_start_proof_at_rotation_270_checks() {
    check_start_proof(&START_PROOFS[3]);
}

#[test]
fn a_campaign_certificate_checks_whole() {
    // A campaign proves a real endgame (tests/arbiter/test_campaign.py's) in
    // sub-proofs two plies down, and writes one certificate of the whole.
    let root = "4N1/D1k3/G5/3n2/1F4/2fA1j b BCEHIJKLMabcdeghilm 90 9";
    let directory = std::env::temp_dir().join(format!("podium-campaign-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    let store = directory.join("verdicts.jsonl");
    let out = directory.join("proof.txt.gz");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/campaign.py");
    let engine = env!("CARGO_BIN_EXE_podium");
    let run = |arguments: &[&str]| {
        let output = Command::new("python3").arg(script).args(arguments).output().expect("python3 runs");
        assert!(output.status.success(), "campaign.py {arguments:?}: {}", String::from_utf8_lossy(&output.stderr));
    };
    let (store, out, certificates) =
        (store.to_str().unwrap(), out.to_str().unwrap(), directory.join("certificates").to_str().unwrap().to_string());
    run(&[
        "run",
        store,
        "--root",
        root,
        "--split",
        "2",
        "--cpu-limit",
        "5",
        "--hash",
        "4",
        "--certificates",
        &certificates,
        "--engine",
        engine,
    ]);
    run(&["certificate", store, out, "--root", root, "--certificates", &certificates, "--engine", engine]);
    let text = read_certificate(Path::new(out));
    let _ = std::fs::remove_dir_all(&directory);
    let certificate = parse(&text).expect("the campaign writes the format");
    assert_eq!(certificate.root, root);
    let (report, _) = verify(&text, &Leaves::ALL).expect("the campaign's certificate is sound");
    assert!(report.winner_turns > 1 && report.loser_turns >= 1, "a tree above the sub-proofs: {report:?}");
}

#[test]
fn every_leaf_is_proved_by_shards_that_resume() {
    let directory = std::env::temp_dir().join(format!("podium-leaves-{}", std::process::id()));
    std::fs::create_dir_all(&directory).unwrap();
    let certificate = parse(COMMITTED).unwrap();
    let mut all = check_tree(&certificate, &certificate.rules()).unwrap().leaves;
    all.sort();
    let leaves = all.len();
    let logs = [directory.join("0.txt"), directory.join("1.txt")];
    // A first shard stopped after two leaves: its log holds them.
    let first: Vec<String> =
        all.iter().step_by(2).take(2).map(|(position, plies)| format!("{position} {plies}")).collect();
    std::fs::write(&logs[0], first.join("\n") + "\n").unwrap();
    let (proved_0, already_0) = prove_leaves(COMMITTED, 0, 2, &logs[0]).expect("sound");
    let (proved_1, already_1) = prove_leaves(COMMITTED, 1, 2, &logs[1]).expect("sound");
    assert_eq!((already_0, already_1), (2, 0), "the stopped run's leaves are not proved again");
    assert_eq!(proved_0 + already_0 + proved_1, leaves, "every leaf, in one shard or the other");
    let mut logged: Vec<String> = logs
        .iter()
        .flat_map(|log| std::fs::read_to_string(log).unwrap().lines().map(str::to_string).collect::<Vec<_>>())
        .collect();
    logged.sort();
    logged.dedup();
    assert_eq!(logged.len(), leaves, "each leaf logged once");
    // Run again: nothing left to prove.
    assert_eq!(prove_leaves(COMMITTED, 1, 2, &logs[1]).unwrap(), (0, proved_1));
    let _ = std::fs::remove_dir_all(&directory);
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
    // A game claimed shorter than the tree lasts.
    let quick =
        forged(|certificate, line| line.starts_with("plies ").then(|| format!("plies {}", certificate.plies - 1)));
    assert!(check_tree(&parse(&quick).unwrap(), &rules).is_err(), "a claim of fewer plies is refused");
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
        LeafChecker::new(&short, short.rules()).unwrap().check(short.winner, &forged_leaf.0, forged_leaf.1).is_err(),
        "a leaf claiming too short a win is refused"
    );
    // The other side named the winner.
    let loser = forged(|certificate, line| {
        line.starts_with("winner ").then(|| format!("winner {}", ["black", "white"][certificate.winner]))
    });
    assert!(verify(&loser, &Leaves::ALL).is_err(), "the wrong winner is refused");
    // Cut short.
    let cut = COMMITTED.replace("\nend\n", "\n");
    assert!(parse(&cut).is_err(), "a certificate without its end is refused");
}

/// Verifies the certificate named by PODIUM_CERTIFICATE (gzip if it ends in
/// `.gz`): the tree, every leaf within PODIUM_CERTIFICATE_WITHIN (default
/// 10) plies of the end and PODIUM_CERTIFICATE_SAMPLE (default 100) of the
/// others, drawn by PODIUM_CERTIFICATE_SEED (default 1).
/// Proves again every leaf of the certificate PODIUM_CERTIFICATE, shard
/// PODIUM_CERTIFICATE_SHARD (I/N, default 0/1), logging the leaves proved to
/// PODIUM_CERTIFICATE_LOG and skipping those it holds (a rerun resumes):
///
/// ```sh
/// for shard in 0 1; do PODIUM_CERTIFICATE=scripts/data/campaign/certificate.txt.gz PODIUM_CERTIFICATE_SHARD=$shard/2 \
///     PODIUM_CERTIFICATE_LOG=leaves-$shard.txt cargo test --release --test certificate every_leaf -- --ignored & done
/// ```
#[test]
#[ignore = "a checker run by hand: PODIUM_CERTIFICATE=FILE PODIUM_CERTIFICATE_LOG=FILE"]
fn every_leaf_of_a_certificate_file() {
    let variable = |name: &str| std::env::var(name).unwrap_or_else(|_| panic!("set {name}"));
    let (path, log) = (variable("PODIUM_CERTIFICATE"), variable("PODIUM_CERTIFICATE_LOG"));
    let shard = std::env::var("PODIUM_CERTIFICATE_SHARD").unwrap_or_else(|_| "0/1".to_string());
    let (shard, shards) = shard
        .split_once('/')
        .and_then(|(shard, shards)| Some((shard.parse().ok()?, shards.parse().ok()?)))
        .filter(|&(shard, shards): &(usize, usize)| shard < shards)
        .unwrap_or_else(|| panic!("PODIUM_CERTIFICATE_SHARD={shard}: expected I/N with I below N"));
    let started = std::time::Instant::now();
    match prove_leaves(&read_certificate(Path::new(&path)), shard, shards, Path::new(&log)) {
        Ok((proved, already)) => eprintln!(
            "{path}: sound; shard {shard}/{shards}: {proved} leaves proved again, {already} proved before ({log}), {:.0} s",
            started.elapsed().as_secs_f64()
        ),
        Err(error) => panic!("{path}: {error}"),
    }
}

#[test]
#[ignore = "a checker run by hand: PODIUM_CERTIFICATE=FILE"]
fn verify_a_certificate_file() {
    let Ok(path) = std::env::var("PODIUM_CERTIFICATE") else {
        panic!("set PODIUM_CERTIFICATE to the certificate's file");
    };
    let setting = |name: &str, default: u64| match std::env::var(name) {
        Ok(value) => value.parse().unwrap_or_else(|_| panic!("{name}={value}: expected a number")),
        Err(_) => default,
    };
    let far = setting("PODIUM_CERTIFICATE_SAMPLE", 100) as usize;
    let within = setting("PODIUM_CERTIFICATE_WITHIN", 10) as u32;
    let seed = setting("PODIUM_CERTIFICATE_SEED", 1);
    let text = read_certificate(Path::new(&path));
    let started = std::time::Instant::now();
    match verify(&text, &Leaves { within, near: None, far, seed }) {
        Ok((report, checked)) => eprintln!(
            "{path}: sound; {} positions, {} leaves, {checked} proved again (at most {far} of them beyond {within} plies), {:.0} s",
            report.positions,
            report.leaves.len(),
            started.elapsed().as_secs_f64()
        ),
        Err(error) => panic!("{path}: {error}"),
    }
}
