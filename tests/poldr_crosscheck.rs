//! The fast POLD.R generator against the slow reference in
//! `tests/common/poldr_reference.rs` (written from the rules alone by a
//! developer who had not seen `src/`): perft, legal move lists, the position
//! after every move and the result, over seeded random games of 2 and 3
//! players, every board size and brick counts from 1 to 16 (every move's
//! successor on boards up to 5x5, a sample of four on larger ones, where the
//! reference is slow).

mod common;

use common::poldr_reference::RefPos;
use podium::games::poldr::{Phase, Position, Seat, divide, perft};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

fn sorted_moves(position: &Position) -> Vec<String> {
    let mut moves: Vec<String> = position.legal_moves().iter().map(ToString::to_string).collect();
    moves.sort();
    moves
}

/// Compares everything the two implementations say about one position,
/// and the positions after `successors` of its moves (every move when
/// `None`); returns how many positions after a move were compared.
fn compare(position: &Position, reference: &RefPos, successors: Option<&[String]>) -> usize {
    let line = position.to_string();
    assert_eq!(line, reference.to_line());
    assert_eq!(line.parse::<Position>().as_ref(), Ok(position), "round trip of {line}");
    assert_eq!(position.hash(), position.compute_hash(), "{line}");
    let moves = sorted_moves(position);
    assert_eq!(moves, reference.legal_moves(), "legal moves of {line}");
    assert_eq!(position.outcome().map(|outcome| outcome.winner.index()), reference.winner(), "winner of {line}");
    assert_eq!(position.mover().index(), reference.side_to_move());
    let successors = successors.unwrap_or(&moves);
    for text in successors {
        let mut after = *position;
        after.try_play(text.parse().expect("a move")).expect("legal");
        let reference_after = reference.play(text).expect("legal in the reference");
        assert_eq!(after.to_string(), reference_after.to_line(), "{line} after {text}");
        assert_eq!(after.hash(), after.compute_hash(), "{line} after {text}");
    }
    successors.len()
}

#[test]
fn perft_agrees_from_every_start() {
    for players in [2u8, 3] {
        for size in 4..=9u8 {
            for bricks in [1u8, 2, 3, 5, 16] {
                let start = Position::start(size, players, bricks).expect("valid");
                let reference = RefPos::start(size as usize, players as usize, bricks as u32);
                let depth = if size <= 6 { 3 } else { 2 };
                for depth in 1..=depth {
                    assert_eq!(perft(&start, depth), reference.perft(depth), "{start} depth {depth}");
                }
            }
        }
    }
}

#[test]
fn divide_agrees_move_by_move() {
    let start = Position::start(5, 2, 16).expect("valid");
    let reference = RefPos::start(5, 2, 16);
    let mut fast: Vec<(String, u64)> = divide(&start, 3).into_iter().map(|(mv, n)| (mv.to_string(), n)).collect();
    fast.sort();
    assert_eq!(fast, reference.divide(3));
}

#[test]
fn random_games_agree_position_by_position() {
    let mut random = Xoshiro256PlusPlus::seed_from_u64(0x5eed_0001);
    let (mut positions, mut successors, mut games_by_end) = (0usize, 0usize, [0usize; 2]);
    for game in 0..600u64 {
        let players = 2 + (game % 2) as u8;
        let size = 4 + (game / 2 % 6) as u8;
        let bricks = 1 + (random.next_u64() % 16) as u8;
        let mut position = Position::start(size, players, bricks).expect("valid");
        let mut reference = RefPos::start(size as usize, players as usize, bricks as u32);
        loop {
            positions += 1;
            // Every successor on small boards; a sample where the reference is slow.
            let moves = sorted_moves(&position);
            let sample: Vec<String> = (0..4)
                .filter_map(|_| moves.get((random.next_u64() % moves.len().max(1) as u64) as usize).cloned())
                .collect();
            successors += compare(&position, &reference, (size > 5).then_some(&sample[..]));
            if position.outcome().is_some() {
                let last_brick = (0..players as usize).any(|seat| position.reserve(Seat::ALL[seat]) == 0);
                games_by_end[usize::from(!last_brick)] += 1;
                break;
            }
            let text = &moves[(random.next_u64() % moves.len() as u64) as usize];
            position.try_play(text.parse().expect("a move")).expect("legal");
            reference = reference.play(text).expect("legal in the reference");
        }
    }
    println!(
        "{positions} positions and {successors} successors agree; {} games won by the last brick, {} at the end",
        games_by_end[0], games_by_end[1]
    );
    assert!(positions > 6_000, "{positions}");
    assert!(games_by_end.iter().all(|&games| games > 20), "both endings reached: {games_by_end:?}");
}

/// The seat that wins `line` with perfect play, as the engine's search proves it.
fn proved_winner(line: &str) -> usize {
    use podium::games::poldr::PoldrAdapter;
    use podium::search::{Limits, Score, Searcher, Signals};

    let position: Position = line.parse().expect("a valid line");
    let mut searcher = Searcher::new(16);
    let limits = Limits { infinite: false, depth: Some(120), ..Limits::default() };
    let result = searcher.search(&PoldrAdapter::default(), &position, &[], &limits, &[], &Signals::default(), |_| {});
    let Score::Mate(moves) = result.score else { panic!("{line}: no proof, {:?}", result.score) };
    let mover = position.mover().index();
    if moves > 0 { mover } else { 1 - mover }
}

/// The seat that wins `line` with perfect play, as df-pn (`podium solve`'s
/// proof search for two players) proves it.
fn dfpn_winner(line: &str) -> usize {
    use podium::games::poldr::PoldrAdapter;
    use podium::search::{Limits, Signals, Solver, Verdict};

    let position: Position = line.parse().expect("a valid line");
    let solution = Solver::new(16).solve(&PoldrAdapter::default(), &position, &Limits::default(), &Signals::default());
    let mover = position.mover().index();
    match solution.verdict {
        Verdict::Win => mover,
        Verdict::Loss => 1 - mover,
        other => panic!("{line}: no proof, {other:?}"),
    }
}

/// Plays up to `plies` uniformly random legal moves, stopping where the game ends.
fn play_randomly(position: &mut Position, plies: u64, random: &mut Xoshiro256PlusPlus) {
    for _ in 0..plies {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        position.play_unchecked(moves[(random.next_u64() % moves.len() as u64) as usize]);
    }
}

#[test]
fn proofs_agree_with_the_reference_solver() {
    // Small games the slow reference solves by brute force: every start of
    // the 4x4 board with 1 to 5 bricks, and positions from seeded random
    // play on 4x4 and 5x5 with few bricks.
    let mut lines: Vec<String> = (1..=5).map(|bricks| format!("4/4/4/4 b {bricks},{bricks} 1 0 -,-")).collect();
    let mut random = Xoshiro256PlusPlus::seed_from_u64(0x5eed_0002);
    for game in 0..24u64 {
        let (size, bricks) = if game % 2 == 0 { (4, 6) } else { (5, 4) };
        let mut position = Position::start(size, 2, bricks).expect("valid");
        let plies = 1 + random.next_u64() % 6;
        play_randomly(&mut position, plies, &mut random);
        if position.outcome().is_none() {
            lines.push(position.to_string());
        }
    }
    assert!(lines.len() >= 20, "{}", lines.len());
    for line in &lines {
        let reference = RefPos::parse(line).expect("valid for the reference");
        let winner = reference.solve_winner();
        assert_eq!(proved_winner(line), winner, "the search: {line}");
        assert_eq!(dfpn_winner(line), winner, "df-pn: {line}");
    }
}

#[test]
fn dfpn_and_the_search_prove_the_same_winners_of_larger_games() {
    // Beyond the reference's reach: the two proof searches, written apart
    // (df-pn in `search/dfpn.rs`, the search's proofs in `search/solver.rs`),
    // must agree on positions of seeded random play on 5x5 and 6x6 with 16
    // bricks, the default game and the one the engine carries a book for.
    let mut random = Xoshiro256PlusPlus::seed_from_u64(0x5eed_0003);
    let mut compared = 0;
    // A debug build (the hash checked after every move) takes the first 5x5 games.
    let games = if cfg!(debug_assertions) { 3 } else { 16 };
    for game in 0..games {
        let size = if game % 4 == 3 { 6 } else { 5 };
        let mut position = Position::start(size, 2, 16).expect("valid");
        let plies = if size == 6 { 8 } else { 2 } + random.next_u64() % 8;
        play_randomly(&mut position, plies, &mut random);
        if position.outcome().is_none() {
            let line = position.to_string();
            assert_eq!(dfpn_winner(&line), proved_winner(&line), "{line}");
            compared += 1;
        }
    }
    assert!(compared * 4 >= games * 3, "{compared} of {games}");
}

/// The end of a game played on from `reference` by uniformly random legal
/// moves, and how many plies that took.
fn random_playout(reference: &RefPos, random: &mut Xoshiro256PlusPlus) -> (RefPos, u32) {
    let mut position = reference.clone();
    let mut plies = 0;
    loop {
        let moves = position.legal_moves();
        if moves.is_empty() {
            return (position, plies);
        }
        let pick = &moves[(random.next_u64() % moves.len() as u64) as usize];
        position = position.play(pick).expect("a listed move");
        plies += 1;
    }
}

#[test]
fn decided_clearing_races_end_as_decided_whatever_is_played() {
    // `decided` says a seat wins however the rest is played: so every
    // random playout of the reference must end with that seat's win, within
    // the plies it gives; with two players and few bricks, the reference's
    // brute force must agree too.
    use podium::games::poldr::PoldrAdapter;
    use podium::search::GameKnowledge;

    let adapter = PoldrAdapter::default();
    let mut random = Xoshiro256PlusPlus::seed_from_u64(0x5eed_0003);
    let mut decided_met = [0usize; 2];
    let mut solved = 0;
    for game in 0..800u64 {
        let players = if game % 4 == 3 { 3 } else { 2 };
        let size = 4 + (game / 4 % 4) as u8;
        let bricks = [3u8, 5, 8, 16][(game / 16 % 4) as usize];
        let mut position = Position::start(size, players, bricks).expect("valid");
        while position.outcome().is_none() {
            if let Some(decided) = adapter.decided(&position) {
                assert_eq!(position.phase(), Phase::Clearing, "{position}");
                decided_met[players as usize - 2] += 1;
                let reference = RefPos::parse(&position.to_string()).expect("valid for the reference");
                for _ in 0..4 {
                    let (end, plies) = random_playout(&reference, &mut random);
                    assert_eq!(end.winner(), Some(decided.winner), "{position}: a playout to {}", end.to_line());
                    assert!(plies <= decided.plies, "{position}: {plies} plies, bound {}", decided.plies);
                }
                let line = position.to_string();
                let board = line.split(' ').next().expect("a board");
                let bricks_left = board.chars().filter(|piece| matches!(piece, 'b' | 'y' | 'r')).count();
                if players == 2 && size <= 5 && bricks_left <= 8 {
                    assert_eq!(reference.solve_winner(), decided.winner, "{position}");
                    solved += 1;
                }
            }
            let moves = position.legal_moves();
            position.play_unchecked(moves[(random.next_u64() % moves.len() as u64) as usize]);
        }
    }
    assert!(decided_met.iter().all(|&count| count >= 100), "decided positions met: {decided_met:?}");
    assert!(solved >= 50, "decided positions solved by brute force: {solved}");
}
