//! A sanity check of playing strength: at a small fixed depth Podium must
//! beat a uniformly random mover in at least 95% of seeded games, in each
//! variant, taking White and Black in turn. Played in-process through the
//! library (the same search the protocol drives), for speed.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use podium::games::pods::{Game, MoveList, Outcome, Position, Rotation, Rules, Side, Variant};
use podium::protocol::report::search_and_report;
use podium::search::{Limits, Searcher};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

const GAMES: u64 = 40;
const DEPTH: u32 = 2;
/// Long enough for any real game; a random mover cannot drag one on forever.
const MAX_PLIES: u32 = 300;

/// Plays one game; returns the winner, `None` for a draw.
fn play(rules: &Arc<Rules>, seed: u64, podium_side: Side, searcher: &mut Searcher) -> Option<Side> {
    let mut random = Xoshiro256PlusPlus::seed_from_u64(seed);
    // The rotation is drawn too, as the published rules do before a game.
    let rotation = Rotation::ALL[(random.next_u64() % 4) as usize];
    let mut game = Game::new(Arc::clone(rules), Position::start(rules, rotation)).with_max_plies(MAX_PLIES);
    searcher.clear();
    let limits = Limits { depth: Some(DEPTH), ..Limits::default() };
    let stop = AtomicBool::new(false);
    loop {
        match game.outcome() {
            Some(Outcome::Win { winner, .. }) => return Some(winner),
            Some(Outcome::Draw(_)) => return None,
            None => {}
        }
        let mv = if game.position().side_to_move() == podium_side {
            search_and_report(searcher, &game, &limits, &stop, |_| {}).expect("a move in a game still on")
        } else {
            let mut moves = MoveList::new();
            game.position().generate_moves(rules, &mut moves);
            moves[(random.next_u64() % moves.len() as u64) as usize]
        };
        game.play(mv).expect("a legal move");
    }
}

fn check_variant(variant: Variant) {
    let rules = Arc::new(Rules::default_for(variant));
    let mut searcher = Searcher::new(8);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for seed in 0..GAMES {
        let podium_side = if seed % 2 == 0 { Side::White } else { Side::Black };
        match play(&rules, seed, podium_side, &mut searcher) {
            Some(winner) if winner == podium_side => wins += 1,
            Some(_) => losses += 1,
            None => draws += 1,
        }
    }
    println!("{variant}: Podium at depth {DEPTH} against a random mover: {wins} wins, {draws} draws, {losses} losses");
    assert!(wins * 100 >= GAMES * 95, "{variant}: only {wins} wins of {GAMES} ({draws} draws, {losses} losses)");
}

#[test]
fn podium_beats_a_random_mover_in_the_standard_game() {
    check_variant(Variant::Standard);
}

#[test]
fn podium_beats_a_random_mover_in_the_advanced_game() {
    check_variant(Variant::Advanced);
}
