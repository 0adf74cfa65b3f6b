//! The standard game's endgame bounds and proofs against brute force: the
//! slow reference generator of tests/common/reference.rs (written from the
//! rules alone) plays every line to the end, and its winner must be the
//! one the bounds and the proofs name.

mod common;

use std::collections::HashMap;
use std::sync::Arc;

use common::reference::RefRules;
use podium::games::pods::{
    Move, MoveList, PodsAdapter, Position, Rotation, Rules, Side, Variant, least_placements, most_placements,
    standard_verdict,
};
use podium::search::{Limits, Score, SearchResult, Searcher, Signals};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

/// Seeded random standard games, each as the list of its positions.
fn random_games(count: usize, seed: u64) -> Vec<Vec<Position>> {
    let rules = Rules::default_for(Variant::Standard);
    let mut random = Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let rotation = Rotation::ALL[(random.next_u64() % 4) as usize];
            let mut position = Position::start(&rules, rotation);
            let mut positions = vec![position];
            loop {
                let mut moves = MoveList::new();
                position.generate_moves(&rules, &mut moves);
                if moves.is_empty() {
                    return positions;
                }
                position.play_unchecked(&rules, moves[(random.next_u64() % moves.len() as u64) as usize]);
                positions.push(position);
            }
        })
        .collect()
}

/// The last `plies` positions before the end of seeded random standard
/// games, where every line can be tried.
fn endgames(count: usize, seed: u64, plies: usize) -> Vec<Position> {
    random_games(count, seed).iter().flat_map(|positions| positions.iter().rev().skip(1).take(plies).copied()).collect()
}

/// Whether the side to move wins, by trying every line to the end.
fn brute_force_wins(reference: &RefRules, line: &str, known: &mut HashMap<String, bool>) -> bool {
    if let Some(&wins) = known.get(line) {
        return wins;
    }
    let wins =
        reference.legal_moves(line).iter().any(|mv| !brute_force_wins(reference, &reference.play(line, mv), known));
    known.insert(line.to_string(), wins);
    wins
}

/// Checks a search's proved result for the position of `line` against brute
/// force: the winner, and the winner's move. Returns whether the mover wins.
fn assert_brute_force_agrees(
    reference: &RefRules,
    line: &str,
    result: &SearchResult<Move>,
    known: &mut HashMap<String, bool>,
) -> bool {
    let mover_wins = brute_force_wins(reference, line, known);
    let Score::Mate(moves) = result.score else { panic!("{line}: no mate found, {:?}", result.score) };
    assert_eq!(moves > 0, mover_wins, "{line}: mate {moves}");
    if mover_wins {
        let best = result.best_move.expect("a winning move").to_string();
        let after = reference.play(line, &best);
        assert!(!brute_force_wins(reference, &after, known), "{line}: {best} does not win");
    }
    mover_wins
}

#[test]
fn no_side_places_more_pods_than_its_upper_bound() {
    let rules = Rules::default_for(Variant::Standard);
    let mut checked = 0;
    for game in random_games(200, 0x5eed_0b0d) {
        for (index, position) in game.iter().enumerate() {
            for side in Side::BOTH {
                let bound = most_placements(&rules, position, side);
                let made = game[index..].windows(2).filter(|pair| pair[0].side_to_move() == side).count() as u32;
                assert!(made <= bound, "{position}: {side:?} placed {made} pods, bound {bound}");
                let least = least_placements(&rules, position, side);
                assert!(least <= bound, "{position}: {side:?} counts on {least} of at most {bound}");
                checked += 1;
            }
        }
    }
    assert!(checked > 5_000, "{checked}");
}

#[test]
fn verdicts_and_proofs_name_the_brute_force_winner() {
    let rules = Arc::new(Rules::default_for(Variant::Standard));
    let reference = RefRules::new(None, None, false, false);
    let game = PodsAdapter::new(rules.clone(), 0);
    let mut known = HashMap::new();
    let (mut verdicts, mut proofs, mut wins) = (0, 0, 0);
    for position in endgames(400, 0x5eed_0b0e, 5) {
        let line = position.to_string();
        if let Some((verdict, _)) = standard_verdict(&rules, &position) {
            assert_eq!(verdict, brute_force_wins(&reference, &line, &mut known), "{line}: the bound's verdict");
            verdicts += 1;
        }
        let mut searcher = Searcher::new(1);
        let limits = Limits { depth: Some(60), prove: true, ..Limits::default() };
        let result = searcher.search(&game, &position, &[], &limits, &[], &Signals::default(), |_| {});
        wins += u32::from(assert_brute_force_agrees(&reference, &line, &result, &mut known));
        proofs += 1;
    }
    assert!(verdicts > 800 && proofs > 1_800 && wins > 800, "{verdicts} verdicts, {proofs} proofs, {wins} wins");
}

/// Searches to the end, with a fresh `Searcher` that `prepare` sets up and
/// among the root moves `root_moves` names, the endgames of `count` random
/// games from `seed`, checking each result against brute force. Returns
/// how many positions were searched and in how many the mover wins.
fn searches_agree_with_brute_force(
    count: usize,
    seed: u64,
    prepare: impl Fn(&mut Searcher),
    root_moves: impl Fn(&Rules, &Position) -> MoveList,
) -> (u32, u32) {
    let rules = Arc::new(Rules::default_for(Variant::Standard));
    let reference = RefRules::new(None, None, false, false);
    let game = PodsAdapter::new(rules.clone(), 0);
    let mut known = HashMap::new();
    let (mut searched, mut wins) = (0, 0);
    for position in endgames(count, seed, 6) {
        let root_moves = root_moves(&rules, &position);
        let mut searcher = Searcher::new(1);
        prepare(&mut searcher);
        let limits = Limits { depth: Some(60), ..Limits::default() };
        let result = searcher.search(&game, &position, &[], &limits, &root_moves, &Signals::default(), |_| {});
        wins += u32::from(assert_brute_force_agrees(&reference, &position.to_string(), &result, &mut known));
        searched += 1;
    }
    (searched, wins)
}

#[test]
fn the_iterations_alone_name_the_brute_force_winner_despite_their_pruning() {
    // Searching every root move by name leaves the proof search out, so
    // each result here is the iterations' own, pruning and all.
    let every_move = |rules: &Rules, position: &Position| {
        let mut moves = MoveList::new();
        position.generate_moves(rules, &mut moves);
        moves
    };
    let (proved, wins) = searches_agree_with_brute_force(60, 0x5eed_0b0f, |_| {}, every_move);
    assert!(proved > 300 && wins > 100, "{proved} positions, {wins} wins");
}

#[test]
fn two_threads_name_the_brute_force_winner_with_a_helper_proving_alongside() {
    // With two threads the second proves while the first iterates; whichever
    // finishes first gives the result, and either must be right.
    let two_threads = |searcher: &mut Searcher| {
        searcher.set_threads(2);
    };
    let (searched, wins) = searches_agree_with_brute_force(100, 0x5eed_0b10, two_threads, |_, _| MoveList::new());
    assert!(searched > 500 && wins > 200, "{searched} positions, {wins} wins");
}
