//! perft and divide for POLD.R: move-generation counts that pin the rules down.

use std::sync::atomic::{AtomicBool, Ordering};

use super::moves::Move;
use super::position::Position;

/// The number of move sequences of length `depth`, counting the last ply
/// without playing it.
pub fn perft(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.count_moves(),
        _ => {
            let mut total = 0;
            position.for_each_move(|mv| total += perft_after(position, mv, depth - 1));
            total
        }
    }
}

/// perft split by first move, in generation order; `depth` >= 1.
pub fn divide(position: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut counts = Vec::new();
    position.for_each_move(|mv| counts.push((mv, perft_after(position, mv, depth.saturating_sub(1)))));
    counts
}

/// perft that gives up (`None`) once `stop` is set; it looks at the flag at
/// every node at least three plies above the leaves, which costs nothing
/// beside the work below them.
pub(crate) fn perft_until(position: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth < 3 {
        return Some(perft(position, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut total = 0;
    for mv in position.legal_moves() {
        let mut next = *position;
        next.play_unchecked(mv);
        total += perft_until(&next, depth - 1, stop)?;
    }
    Some(total)
}

fn perft_after(position: &Position, mv: Move, depth: u32) -> u64 {
    let mut next = *position;
    next.play_unchecked(mv);
    perft(&next, depth)
}
