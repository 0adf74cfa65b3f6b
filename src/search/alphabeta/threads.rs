//! Lazy SMP: helper threads search a ply or two ahead of the main thread
//! through the shared table, and the main thread takes over a deeper
//! iteration a helper completed rather than finish its own.

use std::sync::atomic::Ordering;

use super::MATE_BOUND;
use super::manager::Manager;
use super::shared::HelperLine;
use super::worker::Worker;
use crate::search::game::SearchGame;

impl<'a, G: SearchGame> Worker<'a, G> {
    /// A helper's search: iterations from `ahead` plies beyond the main
    /// thread's depth, each offered to the main thread once complete, until
    /// the search stops, the last depth, or a won or lost game.
    pub(super) fn search_ahead(&mut self, root: &G::Position, max_depth: u32) {
        self.set_root(root);
        let allowed = self.allowed_root_moves(root);
        if allowed.is_empty() {
            return;
        }
        // The best line's score at each depth, for aspiration windows (two
        // plies back, as the main thread takes them).
        let mut scores: Vec<Option<i32>> = vec![None; max_depth as usize + 1];
        let mut next_depth = 1 + self.ahead;
        while next_depth <= max_depth {
            let depth = self.depth_to_search(next_depth).min(max_depth);
            next_depth = depth + 1;
            self.root.moves.clone_from(&allowed);
            let expected = if depth >= 2 { scores[depth as usize - 2] } else { None };
            let score = self.search_root(root, depth, expected);
            if self.aborted {
                return;
            }
            self.publish_line(depth, score);
            scores[depth as usize] = Some(score);
            if score.abs() > MATE_BOUND {
                return;
            }
        }
    }

    /// The depth a helper searches next, `planned` unless the main thread
    /// has caught up with it: a helper works ahead of the main thread, so
    /// what it leaves in the table is what the main thread will need next
    /// rather than what it has already found.
    fn depth_to_search(&self, planned: u32) -> u32 {
        planned.max(self.shared.main_depth.load(Ordering::Relaxed) + self.ahead)
    }

    /// Offers this helper's completed iteration to the main thread, if it
    /// is deeper than any offered before.
    fn publish_line(&self, depth: u32, score: i32) {
        let mut line = self.shared.helper_line.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if line.as_ref().is_none_or(|line| line.depth < depth) {
            let pv = self.pv[0].iter().map(|&mv| G::move_to_bits(mv)).collect();
            *line = Some(HelperLine { depth, seldepth: self.seldepth, score, pv });
            self.shared.helper_depth.store(depth, Ordering::Relaxed);
        }
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
}

impl<'a, G: SearchGame> Manager<'a, G> {
    /// Takes over the helpers' deepest line as the main thread's `pv[0]`,
    /// if it is deeper than the iteration it cut short and its moves are
    /// legal from the root; returns its depth and score. A line that is not
    /// taken over is dropped, so it does not cut the next iteration short
    /// again.
    pub(super) fn adopt_helper_line(&mut self, root: &G::Position) -> Option<(u32, i32)> {
        let shared = self.worker.shared;
        let mut offered = shared.helper_line.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let adopted = self.replay_helper_line(root, offered.as_ref());
        if adopted.is_none() {
            *offered = None;
            shared.helper_depth.store(0, Ordering::Relaxed);
        }
        adopted
    }

    /// Makes `line` the main thread's `pv[0]` if it is deep enough and
    /// replays from the root among the root moves searched.
    fn replay_helper_line(&mut self, root: &G::Position, line: Option<&HelperLine>) -> Option<(u32, i32)> {
        let worker = &mut self.worker;
        let line = line.filter(|line| line.depth >= worker.shared.main_depth.load(Ordering::Relaxed))?;
        let pv = worker.legal_prefix(root, &line.pv);
        if pv.len() < line.pv.len() || pv.first().is_none_or(|mv| !worker.root.moves.contains(mv)) {
            return None;
        }
        worker.pv[0] = pv;
        worker.seldepth = worker.seldepth.max(line.seldepth);
        Some((line.depth, line.score))
    }
}

/// How many threads the machine runs at once.
pub fn hardware_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |count| count.get())
}
