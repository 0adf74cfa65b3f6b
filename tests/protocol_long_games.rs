//! Long games through the binary: a game of tens of thousands of plies
//! replays at once, and the search's speed does not depend on how long the
//! game before the root was (a scan of the whole history at every node made
//! it several times slower). The bounds are generous: an order of magnitude
//! beyond what the engine needs.

mod protocol_common;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use podium::games::pods::{Move, MoveList, Position, Rotation, Rules, Side, Variant};
use protocol_common::{EngineProcess, REPLY_TIMEOUT};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

/// A seeded walk through the advanced game that neither ends it nor
/// repeats a position a third time, up to `plies` or a budget of tries
/// (backing up a random stretch where every move would), moving pods about
/// after a few placements.
fn long_advanced_game(plies: usize) -> Vec<Move> {
    let rules = Rules::default_for(Variant::Advanced);
    let mut random = Xoshiro256PlusPlus::seed_from_u64(0x10_0000);
    let start = Position::start(&rules, Rotation::R0);
    let mut seen: HashMap<u64, u32> = HashMap::from([(start.hash(), 1)]);
    // Each position of the walk, the move that left it, and the moves not yet tried there.
    let mut path: Vec<(Position, Option<Move>, Vec<Move>)> = Vec::new();
    let shuffled = |position: &Position, random: &mut Xoshiro256PlusPlus| {
        let mut moves = MoveList::new();
        position.generate_moves(&rules, &mut moves);
        let mut moves: Vec<Move> = moves.iter().copied().collect();
        for index in (1..moves.len()).rev() {
            moves.swap(index, (random.next_u64() % (index as u64 + 1)) as usize);
        }
        moves
    };
    path.push((start, None, shuffled(&start, &mut random)));
    // Walks get stuck in corners of the game; this many tries is enough for
    // tens of thousands of plies.
    let mut tries = 0u32;
    while path.len() <= plies && tries < 4_000_000 {
        tries += 1;
        let opening = path.len() <= OPENING_PLIES;
        let Some(top) = path.last_mut() else { break };
        let Some(mv) = top.2.pop() else {
            // Stuck: back up a random stretch rather than try every way out.
            let back = 1 + (random.next_u64() % 400) as usize;
            for _ in 0..back.min(path.len() - 1) {
                let (position, _, _) = path.pop().expect("a position");
                *seen.get_mut(&position.hash()).expect("counted") -= 1;
            }
            continue;
        };
        let mut next = top.0;
        next.play_unchecked(&rules, mv);
        // After the first placements only pods on the board move, and none
        // comes off: the hands stay full enough for a search with work to do.
        let on_board = |position: &Position| Side::BOTH.map(|side| position.occupied(side).count());
        let shuffles_only = !opening && (mv.to_string().contains('@') || on_board(&next) != on_board(&top.0));
        let count = seen.entry(next.hash()).or_default();
        if shuffles_only || next.outcome(&rules).is_some() || *count >= 2 {
            continue;
        }
        *count += 1;
        let moves = shuffled(&next, &mut random);
        path.push((next, Some(mv), moves));
    }
    path.iter().filter_map(|(_, mv, _)| *mv).collect()
}

/// Placements and moves at random before the walk only moves pods about.
const OPENING_PLIES: usize = 16;

fn position_command(moves: &[Move]) -> String {
    let moves: Vec<String> = moves.iter().map(Move::to_string).collect();
    format!("position startpos moves {}", moves.join(" "))
}

#[test]
fn a_long_game_replays_in_linear_time_and_does_not_slow_the_search() {
    let moves = long_advanced_game(150_000);
    assert!(moves.len() > 140_000, "the walk stopped at {} plies", moves.len());
    let mut engine = EngineProcess::start();
    engine.send("setoption name Variant value advanced");
    engine.sync();
    let started = Instant::now();
    engine.send(&position_command(&moves));
    let answers = engine.sync();
    let replay = started.elapsed();
    assert!(answers.is_empty(), "the game was accepted: {answers:?}");
    // Linear replay takes a few milliseconds per ten thousand plies; the
    // old replay, which scanned the history at every move, took seconds.
    assert!(replay < Duration::from_millis(1500), "replaying {} plies took {replay:?}", moves.len());

    let fen = engine.query("fen");
    let timed = |engine: &mut EngineProcess, position: &str| {
        engine.send(position);
        engine.sync();
        let started = Instant::now();
        let (infos, best) = engine.search("go nodes 300000", REPLY_TIMEOUT);
        assert!(!best.is_empty() && best != "(none)", "{best}");
        let nodes = infos.last().and_then(|info| info.split(" nodes ").nth(1)).and_then(|rest| rest.split(' ').next());
        assert!(nodes.and_then(|nodes| nodes.parse::<u64>().ok()).is_some_and(|nodes| nodes > 100_000), "{infos:?}");
        started.elapsed()
    };
    let with_history = timed(&mut engine, &position_command(&moves));
    let alone = timed(&mut engine, &format!("position fen {fen}"));
    // The same position and node count: the history must not make it slower
    // by anything like the factor a scan of it per node cost.
    eprintln!("{} plies: replay {replay:?}, search with history {with_history:?}, alone {alone:?}", moves.len());
    assert!(
        with_history < alone * 3 + Duration::from_millis(200),
        "with {} plies of history {with_history:?}, alone {alone:?}",
        moves.len()
    );
}
