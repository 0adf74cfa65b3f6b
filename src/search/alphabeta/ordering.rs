//! Move ordering: the table's move, then the killers, then the other moves
//! by history and the game's hint, handed out one at a time
//! (`Worker::pick`); and the killers and history that cut-offs teach.

use super::worker::Worker;
use crate::search::game::SearchGame;
use crate::search::params::PARAMS;

/// History is kept per seat, as a move's worth depends on who makes it
/// (Pods' notation names the same placement for either side); seats past
/// the last share its table.
const HISTORY_SEATS: usize = 4;

pub(super) const HISTORY_SIZE: usize = HISTORY_SEATS << 16;

/// Where a move's history score is kept: by the seat making it and its bits.
fn history_slot(mover: usize, bits: u16) -> usize {
    mover.min(HISTORY_SEATS - 1) << 16 | usize::from(bits)
}

impl<'a, G: SearchGame> Worker<'a, G> {
    /// The next move to search at the picker's node and its ordering
    /// score: the table's move, then the killers that are legal here, then
    /// the rest of the generated moves, best first. Moves are generated
    /// only when the first stages are used up.
    pub(super) fn pick(&mut self, picker: &mut MovePicker<G::Move>, position: &G::Position) -> Option<(G::Move, i32)> {
        loop {
            match picker.stage {
                Stage::Table => {
                    picker.stage = Stage::Killer(0);
                    if let Some(mv) = picker.table_move {
                        return Some((mv, TT_MOVE_SCORE));
                    }
                }
                Stage::Killer(slot) => {
                    picker.stage = if slot == 0 { Stage::Killer(1) } else { Stage::Generate };
                    if let Some(mv) = picker.killers[slot]
                        && Some(mv) != picker.table_move
                        && self.game.is_legal(position, mv)
                    {
                        picker.tried[slot] = Some(mv);
                        return Some((mv, KILLER_SCORE + 1 - slot as i32));
                    }
                }
                Stage::Generate => {
                    picker.stage = Stage::Rest;
                    self.generate(picker, position);
                }
                Stage::Rest => {
                    if picker.next >= picker.scored.len() {
                        return None;
                    }
                    order_next(&mut picker.scored, picker.next);
                    let (score, mv) = picker.scored[picker.next];
                    picker.next += 1;
                    return Some((mv, score));
                }
            }
        }
    }

    /// Generates the node's moves (at the root, only those asked for)
    /// less the ones already handed out, with their ordering scores.
    fn generate(&mut self, picker: &mut MovePicker<G::Move>, position: &G::Position) {
        let ply = picker.ply;
        let mut moves = std::mem::take(&mut self.buffers.moves[ply]);
        moves.clear();
        self.game.legal_moves(position, &mut moves);
        if ply == 0 {
            let generated = moves.len();
            moves.retain(|mv| self.root.moves.contains(mv));
            picker.partial_root = moves.len() < generated;
        }
        let tried = [picker.table_move, picker.tried[0], picker.tried[1]];
        moves.retain(|mv| !tried.contains(&Some(*mv)));
        self.score_moves(position, picker, &moves);
        self.buffers.moves[ply] = moves;
    }

    /// The table move first, then killers, then by history and the game's hint.
    fn score_moves(&self, position: &G::Position, picker: &mut MovePicker<G::Move>, moves: &[G::Move]) {
        let (tt_move, mover) = (picker.tt_move, picker.mover);
        let killers = self.killers[picker.ply];
        picker.scored.clear();
        picker.scored.extend(moves.iter().map(|&mv| {
            let score = if Some(mv) == tt_move {
                TT_MOVE_SCORE
            } else if Some(mv) == killers[0] {
                KILLER_SCORE + 1
            } else if Some(mv) == killers[1] {
                KILLER_SCORE
            } else {
                (self.history[history_slot(mover, G::move_to_bits(mv))] + self.game.order_hint(position, mv))
                    .min(HISTORY_MAX)
            };
            (score, mv)
        }));
    }

    /// Quiet moves searched before a cut-off lose the history the cut-off gains.
    pub(super) fn punish(&mut self, quiets: &[G::Move], mover: usize, depth: i32) {
        for &mv in quiets {
            let slot = &mut self.history[history_slot(mover, G::move_to_bits(mv))];
            *slot = (*slot - depth * depth).max(-HISTORY_MAX);
        }
    }

    /// A move that caused a cut-off becomes a killer and gains history.
    pub(super) fn reward(&mut self, mv: G::Move, mover: usize, depth: i32, ply: usize) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let slot = &mut self.history[history_slot(mover, G::move_to_bits(mv))];
        *slot = (*slot + depth * depth).min(HISTORY_MAX);
    }
}

/// Where a node is in handing out its moves (see `Worker::pick`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    Table,
    Killer(usize),
    Generate,
    Rest,
}

/// One node's move ordering: where it is in handing out its moves, and
/// what it knows to order them by.
pub(super) struct MovePicker<M> {
    stage: Stage,
    /// The table's move, as a stage of its own (not at the root).
    table_move: Option<M>,
    /// The table's move, to score first in the generated list.
    tt_move: Option<M>,
    killers: [Option<M>; 2],
    /// The killers handed out, so the generated list skips them.
    tried: [Option<M>; 2],
    /// The generated moves with their ordering scores.
    scored: Vec<(i32, M)>,
    /// The next generated move to hand out.
    next: usize,
    /// Who moves at the node: history is kept by seat.
    mover: usize,
    ply: usize,
    /// At the root: some legal moves were left out, as the caller asked.
    pub(super) partial_root: bool,
}

impl<M: Copy> MovePicker<M> {
    /// The picker of a node at `ply`, whose generated moves go into
    /// `scored` (a buffer, emptied here). At the root the table's move and
    /// the killers get no stage of their own: the root searches only the
    /// moves asked for, which the generated list keeps to.
    pub(super) fn new(
        tt_move: Option<M>,
        killers: [Option<M>; 2],
        mover: usize,
        ply: usize,
        mut scored: Vec<(i32, M)>,
    ) -> Self {
        scored.clear();
        let root = ply == 0;
        MovePicker {
            stage: Stage::Table,
            table_move: if root { None } else { tt_move },
            tt_move,
            killers: if root { [None; 2] } else { killers },
            tried: [None; 2],
            scored,
            next: 0,
            mover,
            ply,
            partial_root: false,
        }
    }

    /// The buffer of generated moves, to be reused.
    pub(super) fn into_buffer(self) -> Vec<(i32, M)> {
        self.scored
    }
}

const TT_MOVE_SCORE: i32 = i32::MAX;

/// Above any history score, which is capped at `HISTORY_MAX`.
pub(super) const KILLER_SCORE: i32 = HISTORY_MAX + 1;

const HISTORY_MAX: i32 = 1 << 20;

/// Brings the next move to try to `index`: the first few by picking the best
/// (a cut-off usually comes early), then by taking out the best while the
/// rest keep their order, and the rest by one stable sort, which hands out
/// what further extraction would.
fn order_next<M: Copy>(scored: &mut [(i32, M)], index: usize) {
    if index < PARAMS.extracted_moves {
        // Two passes, each of which the compiler turns into vector code.
        let rest = &scored[index..];
        let top = rest.iter().fold(i32::MIN, |top, &(score, _)| top.max(score));
        let best = index + rest.iter().position(|&(score, _)| score == top).unwrap_or(0);
        if index < PARAMS.picked_moves {
            scored.swap(index, best);
        } else {
            scored[index..=best].rotate_right(1);
        }
    } else if index == PARAMS.extracted_moves {
        scored[index..].sort_by_key(|&(score, _)| std::cmp::Reverse(score));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_handed_out_best_first_and_ties_in_order_after_the_picked_ones() {
        use rand_xoshiro::Xoshiro256PlusPlus;
        use rand_xoshiro::rand_core::{Rng, SeedableRng};
        let mut random = Xoshiro256PlusPlus::seed_from_u64(11);
        for length in [1, 3, PARAMS.picked_moves + 1, PARAMS.extracted_moves, PARAMS.extracted_moves + 1, 40, 150] {
            // Few distinct scores, so that ties are common; the move is its
            // place in the list as generated.
            let generated: Vec<(i32, usize)> =
                (0..length).map(|place| ((random.next_u64() % 5) as i32, place)).collect();
            let mut scored = generated.clone();
            for index in 0..length {
                order_next(&mut scored, index);
            }
            let mut places: Vec<usize> = scored.iter().map(|&(_, place)| place).collect();
            assert!(scored.windows(2).all(|pair| pair[0].0 >= pair[1].0), "{scored:?}");
            if length > PARAMS.picked_moves {
                // Once the swaps are over, equal scores keep their order.
                let rest = &scored[PARAMS.picked_moves..];
                let before_rest: Vec<usize> = {
                    let mut reordered = generated.clone();
                    for index in 0..PARAMS.picked_moves {
                        order_next(&mut reordered, index);
                    }
                    reordered[PARAMS.picked_moves..].iter().map(|&(_, place)| place).collect()
                };
                let rank = |place: usize| before_rest.iter().position(|&p| p == place).unwrap();
                assert!(
                    rest.windows(2).all(|pair| pair[0].0 > pair[1].0 || rank(pair[0].1) < rank(pair[1].1)),
                    "{rest:?}"
                );
            }
            places.sort_unstable();
            assert_eq!(places, (0..length).collect::<Vec<_>>());
        }
    }
}
