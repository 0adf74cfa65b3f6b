//! Lazy SMP: helper threads search a ply or two ahead of the main thread
//! through the shared table, and the main thread takes over a deeper
//! iteration a helper completed rather than finish its own.

use std::sync::atomic::Ordering;

use super::{HelperLine, Progress, Run};
use crate::search::game::SearchGame;

impl<'a, G: SearchGame, R: FnMut(Progress<'_, G::Move>)> Run<'a, G, R> {
    /// Offers this helper's completed iteration to the main thread, if it
    /// is deeper than any offered before.
    pub(super) fn publish_line(&self, depth: u32, score: i32) {
        let mut line = self.shared.helper_line.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if line.as_ref().is_none_or(|line| line.depth < depth) {
            let pv = self.pv[0].iter().map(|&mv| G::move_to_bits(mv)).collect();
            *line = Some(HelperLine { depth, seldepth: self.seldepth, score, pv });
            self.shared.helper_depth.store(depth, Ordering::Relaxed);
        }
    }

    /// Takes over the helpers' deepest line as this thread's `pv[0]`, if it
    /// is deeper than the iteration it cut short and its moves are legal
    /// from the root; returns its depth and score. A line that is not taken
    /// over is dropped, so it does not cut the next iteration short again.
    pub(super) fn adopt_helper_line(&mut self, root: &G::Position) -> Option<(u32, i32)> {
        let mut offered = self.shared.helper_line.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let adopted = self.replay_helper_line(root, offered.as_ref());
        if adopted.is_none() {
            *offered = None;
            self.shared.helper_depth.store(0, Ordering::Relaxed);
        }
        adopted
    }

    pub(super) fn replay_helper_line(&mut self, root: &G::Position, line: Option<&HelperLine>) -> Option<(u32, i32)> {
        let line = line.filter(|line| line.depth >= self.shared.main_depth.load(Ordering::Relaxed))?;
        let pv = self.legal_prefix(root, &line.pv);
        if pv.len() < line.pv.len() || pv.first().is_none_or(|mv| !self.root_moves.contains(mv)) {
            return None;
        }
        self.pv[0] = pv;
        self.seldepth = self.seldepth.max(line.seldepth);
        Some((line.depth, line.score))
    }

    /// The moves of a line packed by another thread, from `root` up to the
    /// first that is not a legal move where it stands.
    pub(super) fn legal_prefix(&self, root: &G::Position, packed: &[u16]) -> Vec<G::Move> {
        let mut moves = Vec::with_capacity(packed.len());
        let mut position = *root;
        for &bits in packed {
            let Some(mv) = G::move_from_bits(bits).filter(|&mv| self.game.is_legal(&position, mv)) else { break };
            moves.push(mv);
            position = self.game.play(&position, mv);
        }
        moves
    }

    /// The depth to search next, `planned` unless this is a helper that the
    /// main thread has caught up with: a helper works ahead of the main
    /// thread, so what it leaves in the table is what the main thread will
    /// need next rather than what it has already found.
    pub(super) fn depth_to_search(&self, planned: u32) -> u32 {
        let main_depth = &self.shared.main_depth;
        if self.ahead > 0 {
            planned.max(main_depth.load(Ordering::Relaxed) + self.ahead)
        } else {
            main_depth.store(planned, Ordering::Relaxed);
            planned
        }
    }
}

/// How many threads the machine runs at once.
pub fn hardware_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |count| count.get())
}
