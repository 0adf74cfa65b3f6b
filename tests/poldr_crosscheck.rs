//! The fast POLD.R generator against the slow reference in
//! `tests/common/poldr_reference.rs` (written from the rules alone by a
//! developer who had not seen `src/`): perft, legal move lists, the position
//! after every move and the result, over seeded random games of 2 and 3
//! players, every board size and brick counts from 1 to 16 (every move's
//! successor on boards up to 5x5, a sample of four on larger ones, where the
//! reference is slow).

mod common;

use common::poldr_reference::RefPos;
use podium::games::poldr::{Position, Seat, divide, perft};
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
