//! perft and divide (spec section 8): move-generation counts that pin the
//! rules down and measure their speed.

use super::moves::{Move, MoveList};
use super::position::Position;
use super::ruleset::Rules;

/// The number of move sequences of length `depth`, counting the last ply
/// without playing it.
pub fn perft(rules: &Rules, position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.count_moves(rules),
        _ => {
            let mut moves = MoveList::new();
            position.generate_moves(rules, &mut moves);
            moves.iter().map(|&mv| perft_after(rules, position, mv, depth - 1)).sum()
        }
    }
}

/// perft split by first move, in generation order; `depth` >= 1.
pub fn divide(rules: &Rules, position: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = MoveList::new();
    position.generate_moves(rules, &mut moves);
    moves.iter().map(|&mv| (mv, perft_after(rules, position, mv, depth.saturating_sub(1)))).collect()
}

/// perft(`depth`) of the position after `mv`.
fn perft_after(rules: &Rules, position: &Position, mv: Move, depth: u32) -> u64 {
    let mut next = *position;
    next.play_unchecked(rules, mv);
    perft(rules, &next, depth)
}
