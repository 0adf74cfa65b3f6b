//! perft and divide (spec section 8): move-generation counts that pin the
//! rules down and measure their speed.

use std::sync::atomic::{AtomicBool, Ordering};

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
            let mut child = *position;
            moves
                .iter()
                .map(|&mv| {
                    child.become_after(position, rules, mv);
                    perft(rules, &child, depth - 1)
                })
                .sum()
        }
    }
}

/// perft split by first move, in generation order; `depth` >= 1.
pub fn divide(rules: &Rules, position: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = MoveList::new();
    position.generate_moves(rules, &mut moves);
    moves.iter().map(|&mv| (mv, perft_after(rules, position, mv, depth.saturating_sub(1)))).collect()
}

/// perft that gives up (`None`) once `stop` is set; it looks at the flag at
/// every node at least three plies above the leaves, which costs nothing
/// beside the work below them.
pub(crate) fn perft_until(rules: &Rules, position: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth < 3 {
        return Some(perft(rules, position, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut moves = MoveList::new();
    position.generate_moves(rules, &mut moves);
    let mut total = 0;
    for &mv in moves.iter() {
        total += perft_until(rules, &position.after(rules, mv), depth - 1, stop)?;
    }
    Some(total)
}

/// perft(`depth`) of the position after `mv`.
fn perft_after(rules: &Rules, position: &Position, mv: Move, depth: u32) -> u64 {
    perft(rules, &position.after(rules, mv), depth)
}
