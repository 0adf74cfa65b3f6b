//! The fast bitboard generator against the slow reference generator in
//! tests/common/reference.rs (written separately, from the spec alone, walking
//! the board's lines point by point). The perft constants below are the
//! values both generators produced; the tests check both against them.

mod common;

use std::sync::Arc;

use common::reference::RefRules;
use podium::games::pods::{
    Board, GameRecord, Move, MoveList, PodSet, Position, Rotation, Rules, Variant, divide, perft,
};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

const START: &str = "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0";

/// perft(1..=3) from the start, by rotation 0, 90, 180, 270.
const STANDARD_PERFT: [[u64; 3]; 4] =
    [[71, 27610, 9449841], [71, 27905, 9424673], [71, 28130, 9468582], [71, 27818, 9407901]];
const ADVANCED_PERFT: [[u64; 3]; 4] =
    [[72, 30956, 11969773], [72, 31093, 12028178], [72, 30956, 11937558], [72, 31093, 12028706]];

fn start_at(rotation: Rotation) -> String {
    START.replace(" 0 0", &format!(" {rotation} 0"))
}

fn perft_table(variant: Variant) -> [[u64; 3]; 4] {
    match variant {
        Variant::Standard => STANDARD_PERFT,
        Variant::Advanced => ADVANCED_PERFT,
    }
}

#[test]
fn perft_from_the_start_to_depth_3_agrees_with_the_reference_at_every_rotation() {
    for variant in [Variant::Standard, Variant::Advanced] {
        let rules = Rules::default_for(variant);
        let reference = RefRules::new(None, None, variant == Variant::Advanced, false);
        for (rotation, expected) in Rotation::ALL.into_iter().zip(perft_table(variant)) {
            let line = start_at(rotation);
            let position = Position::parse(&line, &rules).unwrap();
            for depth in 1..=3 {
                let fast = perft(&rules, &position, depth);
                assert_eq!(fast, expected[depth as usize - 1], "{variant} rotation {rotation} depth {depth}");
            }
            assert_eq!(reference.perft(&line, 3), expected[2], "reference: {variant} rotation {rotation}");
        }
    }
}

#[test]
fn divide_at_depth_2_agrees_move_by_move_with_the_reference() {
    for variant in [Variant::Standard, Variant::Advanced] {
        let rules = Rules::default_for(variant);
        let reference = RefRules::new(None, None, variant == Variant::Advanced, false);
        for (rotation, expected) in Rotation::ALL.into_iter().zip(perft_table(variant)) {
            let line = start_at(rotation);
            let position = Position::parse(&line, &rules).unwrap();
            let mut fast: Vec<(String, u64)> =
                divide(&rules, &position, 2).into_iter().map(|(mv, n)| (mv.to_string(), n)).collect();
            fast.sort();
            let slow: Vec<(String, u64)> = reference
                .legal_moves(&line)
                .into_iter()
                .map(|mv| {
                    let after = reference.play(&line, &mv);
                    let count = reference.perft(&after, 1);
                    (mv, count)
                })
                .collect();
            assert_eq!(fast, slow, "{variant} rotation {rotation}");
            assert_eq!(fast.iter().map(|(_, n)| n).sum::<u64>(), expected[1]);
        }
    }
}

/// A random board: each line of the picture present with probability 3/4.
fn random_board(rng: &mut Xoshiro256PlusPlus) -> String {
    let mut rows = Vec::new();
    for row in 0..11 {
        let mut line = String::new();
        for column in 0..11 {
            let present = !rng.next_u64().is_multiple_of(4);
            let c = match (row % 2, column % 2) {
                (0, 0) => 'o',
                (0, 1) => '-',
                (1, 0) => '|',
                _ => ['\\', '/', 'X'][(rng.next_u64() % 3) as usize],
            };
            line.push(if c == 'o' || present { c } else { '.' });
        }
        rows.push(line);
    }
    rows.join(",")
}

/// A random pod set of 2 to 16 pods with one to eight legs each, A a bipod.
fn random_pods(rng: &mut Xoshiro256PlusPlus) -> String {
    const DIRECTIONS: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
    let count = 2 + (rng.next_u64() % 15) as usize;
    (0..count)
        .map(|index| {
            let legs = if index == 0 { 2 } else { 1 + (rng.next_u64() % 8) as usize };
            let mut directions: Vec<&str> = DIRECTIONS.to_vec();
            let mut chosen = Vec::new();
            for _ in 0..legs {
                let dir = directions.remove((rng.next_u64() % directions.len() as u64) as usize);
                let length = if rng.next_u64().is_multiple_of(3) { "l" } else { "s" };
                chosen.push(format!("{dir}:{length}"));
            }
            format!("{}={}", (b'A' + index as u8) as char, chosen.join(","))
        })
        .collect::<Vec<_>>()
        .join(";")
}

struct Setup {
    rules: Arc<Rules>,
    reference: RefRules,
}

fn setup(variant: Variant, board: Option<String>, pods: Option<String>, placement_liberty: bool) -> Setup {
    let parsed_board = board.as_deref().map_or_else(Board::default, |b| Board::from_one_line(b).unwrap());
    let parsed_pods = pods.as_deref().map_or_else(PodSet::default, |p| p.parse().unwrap());
    Setup {
        rules: Arc::new(Rules::new(variant, parsed_board, parsed_pods, placement_liberty)),
        reference: RefRules::new(board.as_deref(), pods.as_deref(), variant == Variant::Advanced, placement_liberty),
    }
}

/// Plays one random game with both generators in step; returns the positions compared.
fn compare_random_game(setup: &Setup, rotation: Rotation, rng: &mut Xoshiro256PlusPlus, max_plies: usize) -> usize {
    let rules = &setup.rules;
    let mut game = GameRecord::new(rules.clone(), Position::start(rules, rotation));
    let mut line = game.position().to_string();
    for ply in 0..=max_plies {
        let position = *game.position();
        assert_eq!(position.to_string(), line, "positions drifted apart");
        let mut moves = MoveList::new();
        position.generate_moves(rules, &mut moves);
        let mut fast: Vec<String> = moves.iter().map(Move::to_string).collect();
        fast.sort();
        let slow = setup.reference.legal_moves(&line);
        assert_eq!(fast, slow, "legal moves differ in {line} ({:?})", rules);
        assert_eq!(position.count_moves(rules), moves.len() as u64);
        if moves.is_empty() || ply == max_plies {
            return ply + 1;
        }
        let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
        line = setup.reference.play(&line, &mv.to_string());
        let mut next = position;
        next.play_unchecked(rules, mv);
        assert_eq!(next.to_string(), line, "after {mv} from {position}");
        assert_eq!(next.hash(), next.compute_hash(rules));
        game = GameRecord::new(rules.clone(), next);
    }
    unreachable!()
}

#[test]
fn fast_and_slow_generators_agree_on_random_games_of_the_default_game() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2010);
    let mut positions = 0;
    for game_index in 0..240 {
        let variant = if game_index % 2 == 0 { Variant::Standard } else { Variant::Advanced };
        let placement_liberty = game_index % 6 == 5;
        let setup = setup(variant, None, None, placement_liberty);
        positions += compare_random_game(&setup, Rotation::ALL[game_index / 2 % 4], &mut rng, 80);
    }
    println!("default game: the generators agreed on {positions} positions");
    assert!(positions > 5000, "{positions}");
}

#[test]
fn fast_and_slow_generators_agree_on_random_boards_and_pod_sets() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(77);
    let mut positions = 0;
    for game_index in 0..160 {
        let variant = if game_index % 2 == 0 { Variant::Standard } else { Variant::Advanced };
        let board = random_board(&mut rng);
        let pods = random_pods(&mut rng);
        let setup = setup(variant, Some(board), Some(pods), game_index % 4 == 3);
        positions += compare_random_game(&setup, Rotation::ALL[game_index % 4], &mut rng, 60);
    }
    println!("custom games: the generators agreed on {positions} positions");
    assert!(positions > 2000, "{positions}");
}
