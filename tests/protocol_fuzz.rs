//! Seeded fuzz of the protocol: command lines built from the words of every
//! command form (the analysis forms included) and mutated, fed to an engine
//! in this process. No panic, every `go` other than `go perft` gets exactly
//! one `bestmove`, and the engine still answers afterwards.

use podium::games::Registry;
use podium::protocol::command::{Command, Go, Parsed};
use podium::protocol::output::MemorySink;
use podium::protocol::{Engine, Flow, Output};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

/// Lines that work, to mutate.
const CORPUS: &[&str] = &[
    "go depth 2",
    "go movetime 5",
    "go nodes 500",
    "go mate 2 depth 2",
    "go infinite",
    "go ponder movetime 5",
    "go ponder wtime 100 btime 100 p3time 100",
    "go searchmoves A@c3 B@d4 depth 2",
    "go searchmoves Pc3Mc5 Pa1Me5 depth 2",
    "go wtime 100 btime 100 winc 1 binc 1 movestogo 3",
    "go p1time 50 p2time 50 p3time 50 p1inc 1 p2inc 1 p3inc 1",
    "go perft 1",
    "ponderhit",
    "stop",
    "isready",
    "debug on",
    "debug off",
    "setoption name MultiPV value 3",
    "setoption name MultiPV value 1",
    "setoption name Ponder value true",
    "setoption name Clear Hash",
    "setoption name MultiplayerSearch value maxn",
    "setoption name Hash value 2",
    "newgame standard",
    "newgame advanced rotation 90",
    "newgame poldr players 3 size 4 bricks 5",
    "newgame poldr players 2 size 5 bricks 6",
    "position startpos moves A@c3 b@d4",
    "position startpos moves Pc3Me5 Ma1",
    "position fen 6/6/6/6/6/6 w Ab 0 0",
    "query turn",
    "query result",
    "query islegal A@c3",
    "d",
    "eval",
    "moves",
];

fn below(rng: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// A corpus line with words dropped, repeated, swapped in from other lines
/// or replaced by numbers and junk.
fn mutated_line(rng: &mut Xoshiro256PlusPlus) -> String {
    let mut words: Vec<String> = CORPUS[below(rng, CORPUS.len())].split(' ').map(str::to_string).collect();
    for _ in 0..below(rng, 4) {
        let at = below(rng, words.len() + 1);
        match below(rng, 5) {
            0 if at < words.len() && words.len() > 1 => {
                words.remove(at);
            }
            1 => {
                let donor: Vec<&str> = CORPUS[below(rng, CORPUS.len())].split(' ').collect();
                words.insert(at, donor[below(rng, donor.len())].to_string());
            }
            2 => words.insert(at, ["-1", "0", "1", "7", "99999999999", "x", "1.5", ""][below(rng, 8)].to_string()),
            3 if at < words.len() => words[at] = words[at].to_uppercase(),
            _ => {}
        }
    }
    words.join(" ")
}

/// Whether running `line` could take long: deep perft, big tables.
fn slow(line: &str) -> bool {
    match Parsed::read(line, &Registry::builtin()).map(|parsed| parsed.command) {
        Ok(Command::Go(Go::Perft(depth))) => depth > 2,
        Ok(Command::SetOption { name, value }) => {
            name.eq_ignore_ascii_case("hash") && value.and_then(|v| v.parse::<u64>().ok()).is_none_or(|mb| mb > 8)
        }
        _ => false,
    }
}

#[test]
fn mutated_command_lines_never_break_the_engine_and_every_go_is_answered_once() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x90d1_0b5e);
    let sink = MemorySink::default();
    let mut engine = Engine::new(Registry::builtin(), Output::new(sink.clone()));
    let mut lines = Vec::new();
    let mut searches = 0;
    for _ in 0..5000 {
        let line = mutated_line(&mut rng);
        if slow(&line) {
            continue;
        }
        if matches!(Parsed::read(&line, &Registry::builtin()), Ok(Parsed { command: Command::Go(Go::Search(_)), .. })) {
            searches += 1;
        }
        if engine.execute_line(&line) == Flow::Quit {
            engine = Engine::new(Registry::builtin(), Output::new(sink.clone()));
        }
        // Searches end at once: the test is about answers, not strength.
        engine.execute_line("stop");
        lines.extend(sink.take_lines());
    }
    engine.execute_line("isready");
    lines.extend(sink.take_lines());
    let bestmoves = lines.iter().filter(|line| line.starts_with("bestmove ")).count();
    assert_eq!(bestmoves, searches, "one bestmove per go");
    assert_eq!(lines.last().map(String::as_str), Some("readyok"), "{:?}", &lines[lines.len().saturating_sub(10)..]);
    assert!(searches > 200, "the corpus makes searches: {searches}");
}
