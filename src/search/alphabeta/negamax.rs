//! The alpha-beta search of one thread: negamax with principal variation
//! search, the transposition table, reverse futility and futility pruning,
//! late move pruning and reductions. A node goes through `negamax` in
//! steps: counted and checked for draws, a leaf scored, or the table
//! probed, the static score tried for a cut-off, then its moves searched
//! (`search_moves`) one by one (`search_move`), each score taken in
//! (`take_score`), and the result stored.

use std::sync::LazyLock;

use super::ordering::{KILLER_SCORE, MovePicker};
use super::worker::Worker;
use super::{INFINITY, MATE, MATE_BOUND, MAX_PLY};
use crate::search::game::SearchGame;
use crate::search::params::PARAMS;
use crate::search::tt::{Bound, Entry};

/// One node being searched: where it stands, its window, and the best
/// found so far.
struct Node<'p, G: SearchGame> {
    position: &'p G::Position,
    key: u64,
    mover: usize,
    /// Plies left to the leaves.
    depth: i32,
    /// Plies from the root.
    ply: usize,
    alpha: i32,
    beta: i32,
    /// `alpha` when the node began: the bound stored depends on it.
    original_alpha: i32,
    pv_node: bool,
    /// The table's move, if it is legal here.
    tt_move: Option<G::Move>,
    /// Far below alpha: only the likeliest moves are searched.
    futile: bool,
    best_score: i32,
    best_move: Option<G::Move>,
    /// How many moves have been searched.
    searched: usize,
}

/// How the static score settles a node before its moves are searched.
enum StaticCut {
    /// Far above beta: the node fails high with this score.
    FailHigh(i32),
    /// Far below alpha: only the likeliest moves are worth searching.
    Futile,
    /// Search all moves.
    None,
}

impl<'a, G: SearchGame> Worker<'a, G> {
    /// The score of `position` for the side of the player to move there,
    /// searched `depth` plies deep within (`alpha`, `beta`); fills `pv[ply]`.
    pub(super) fn negamax(&mut self, position: &G::Position, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        let stopping = self.count_node();
        self.seldepth = self.seldepth.max(ply as u32);
        if ply > 0 && stopping {
            return 0;
        }
        let key = self.game.hash(position);
        let mover = self.game.mover(position);
        if ply > 0 && (self.game.is_draw(position) || self.is_repetition_draw(key)) {
            return 0;
        }
        if ply > 0
            && let Some(mv) = self.game.winning_move(position)
        {
            self.pv[ply].push(mv);
            return MATE - (ply as i32 + 1);
        }
        if ply > 0
            && self.policy.verdicts_in_search
            && let Some(decided) = self.game.decided(position)
        {
            // Decided, as the game's end is, however deep: at the latest
            // ply the game's bound allows.
            return self.outcome_score(Some(decided.winner), mover, ply + decided.plies as usize);
        }
        let depth = if ply > 0 && ply < 2 * self.iteration_depth as usize && self.game.win_threatened(position) {
            depth + 1
        } else {
            depth
        };
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.leaf_score(position, mover, ply);
        }
        let mut node = Node {
            position,
            key,
            mover,
            depth,
            ply,
            alpha,
            beta,
            original_alpha: alpha,
            pv_node: beta - alpha > 1,
            tt_move: None,
            futile: false,
            best_score: -INFINITY,
            best_move: None,
            searched: 0,
        };
        if let Some(score) = self.probe(&mut node) {
            return score;
        }
        match self.static_cut(&node) {
            StaticCut::FailHigh(score) => return score,
            StaticCut::Futile => node.futile = true,
            StaticCut::None => {}
        }
        self.search_node(node)
    }

    /// The static score of a leaf for `mover`'s side, or the game's result
    /// where it is over.
    fn leaf_score(&self, position: &G::Position, mover: usize, ply: usize) -> i32 {
        match self.game.evaluate(position, self.root.player) {
            Some(score) if self.with_root(mover) => score,
            Some(score) => -score,
            None => self.outcome_score(self.game.winner(position), mover, ply),
        }
    }

    /// Reads the node's table entry: sets the table's move, if legal here,
    /// and returns the stored score where it settles the node. A won or
    /// lost game is one at any depth: only terminal positions give such scores.
    fn probe(&self, node: &mut Node<'_, G>) -> Option<i32> {
        let entry = self.tt.probe(node.key ^ self.root.key_salt);
        node.tt_move = entry
            .and_then(|entry| entry.best_move)
            .and_then(G::move_from_bits)
            .filter(|&mv| self.game.is_legal(node.position, mv));
        let entry = entry?;
        if node.ply == 0 || node.pv_node || ((entry.depth as i32) < node.depth && entry.score.abs() <= MATE_BOUND) {
            return None;
        }
        let score = score_from_tt(entry.score, node.ply);
        let usable = match entry.bound {
            Bound::Exact => true,
            Bound::Lower => score >= node.beta,
            Bound::Upper => score <= node.alpha,
        };
        usable.then_some(score)
    }

    /// Far above beta with few plies left, a node is taken to hold its
    /// lead (reverse futility pruning); not against a won or lost game's
    /// score. Far below alpha, only its likeliest moves are tried
    /// (futility pruning), where the game gains from it.
    fn static_cut(&self, node: &Node<'_, G>) -> StaticCut {
        if !self.prunes
            || node.pv_node
            || node.ply == 0
            || node.depth > PARAMS.futility_depth
            || node.beta.abs() >= MATE_BOUND
        {
            return StaticCut::None;
        }
        let Some(score) = self.game.evaluate(node.position, self.root.player) else { return StaticCut::None };
        let static_score = if self.with_root(node.mover) { score } else { -score };
        let margin = PARAMS.futility_margin * node.depth;
        if static_score - margin >= node.beta {
            StaticCut::FailHigh(static_score)
        } else if self.policy.futility_pruning && static_score + margin <= node.alpha {
            StaticCut::Futile
        } else {
            StaticCut::None
        }
    }

    /// Searches the node's moves and returns its score: the game's result
    /// if it has none, and otherwise stores what was found.
    fn search_node(&mut self, mut node: Node<'_, G>) -> i32 {
        let ply = node.ply;
        let mut picker = MovePicker::new(
            node.tt_move,
            self.killers[ply],
            node.mover,
            ply,
            std::mem::take(&mut self.buffers.scored[ply]),
        );
        let mut quiets = std::mem::take(&mut self.buffers.quiets[ply]);
        quiets.clear();
        self.path.push(node.key);
        self.search_moves(&mut node, &mut picker, &mut quiets);
        self.path.pop();
        let partial_root = picker.partial_root;
        self.buffers.scored[ply] = picker.into_buffer();
        self.buffers.quiets[ply] = quiets;
        if node.searched == 0 && !self.aborted {
            // No legal move at all: the game is over here.
            return self.outcome_score(self.game.winner(node.position), node.mover, ply);
        }
        if self.aborted {
            return 0;
        }
        // The root searches only the moves asked for; its value is then not
        // the position's, and is not stored.
        if !partial_root {
            self.store(&node);
        }
        node.best_score
    }

    /// Searches the node's moves as the picker hands them out, until one
    /// cuts the node off, the rest are pruned, or the search stops.
    fn search_moves(&mut self, node: &mut Node<'_, G>, picker: &mut MovePicker<G::Move>, quiets: &mut Vec<G::Move>) {
        let position = node.position;
        // Once the first move has failed to cut off, each move is picked
        // one ahead, and its child's table slot fetched while the previous
        // child's subtree is searched.
        let mut upcoming: Option<(G::Move, i32)> = None;
        // One child a node, written over by each move after the first.
        let mut child_slot: Option<G::Position> = None;
        while let Some((mv, move_score)) = upcoming.take().or_else(|| self.pick(picker, position)) {
            if self.prunes_late(node, move_score) {
                break;
            }
            // The first child's table slot is fetched while it is made;
            // later ones were fetched a move ahead (below).
            if node.searched == 0 {
                self.prefetch_child(position, mv, node.depth);
            }
            let child: &G::Position = match &mut child_slot {
                Some(child) => {
                    self.game.play_into(position, mv, child);
                    child
                }
                None => child_slot.insert(self.game.play(position, mv)),
            };
            if node.ply == 0 {
                self.announce(mv, node.searched + 1, node.depth as u32);
            }
            let same_side = self.with_root(self.game.mover(child)) == self.with_root(node.mover);
            if node.searched > 0
                && let Some((next, next_score)) = self.pick(picker, position)
            {
                self.prefetch_child(position, next, node.depth);
                upcoming = Some((next, next_score));
            }
            let score = self.search_move(node, child, same_side, move_score);
            node.searched += 1;
            if self.aborted || self.take_score(node, quiets, mv, move_score, score) {
                break;
            }
        }
    }

    /// Whether the move to search next, and all after it, are not searched
    /// at all. Late quiet moves near the leaves are not (late move
    /// pruning): history puts the likely ones first. At a futile node no
    /// quiet move is searched after the first. A node that has only lost
    /// so far searches on.
    fn prunes_late(&self, node: &Node<'_, G>, move_score: i32) -> bool {
        let depth = node.depth;
        let late = !node.pv_node
            && node.ply > 0
            && depth <= PARAMS.late_moves_depth
            && node.searched >= (PARAMS.late_moves_base + PARAMS.late_moves_slope * depth * depth) as usize;
        self.prunes
            && (late || (node.futile && node.searched > 0))
            && move_score < KILLER_SCORE
            && node.best_score > -MATE_BOUND
    }

    /// Starts fetching the table slot of the child `mv` leads to, where the
    /// game can tell its key and the child will probe the table.
    fn prefetch_child(&self, position: &G::Position, mv: G::Move, depth: i32) {
        if depth > 1
            && let Some(key) = self.game.child_hash_hint(position, mv)
        {
            self.tt.prefetch(key ^ self.root.key_salt);
        }
    }

    /// The score of the move leading to `child`, for the node's side: the
    /// first move with the full window, the others with a null window
    /// first (principal variation search), late quiet ones at a reduced
    /// depth first (late move reductions: late moves of a well-ordered
    /// list rarely matter), and again in full only if they surprise.
    fn search_move(&mut self, node: &Node<'_, G>, child: &G::Position, same_side: bool, move_score: i32) -> i32 {
        let (depth, alpha, beta, ply) = (node.depth, node.alpha, node.beta, node.ply);
        if node.searched == 0 {
            return self.search_child(child, same_side, depth - 1, alpha, beta, ply + 1);
        }
        let quiet = move_score < KILLER_SCORE;
        let reducible = quiet && depth >= PARAMS.reduction_depth && node.searched >= PARAMS.reduction_index;
        let reduction = if reducible { late_move_reduction(depth, node.searched) } else { 0 };
        let mut score = self.search_child(child, same_side, depth - 1 - reduction, alpha, alpha + 1, ply + 1);
        if reduction > 0 && score > alpha {
            score = self.search_child(child, same_side, depth - 1, alpha, alpha + 1, ply + 1);
        }
        if score > alpha && score < beta {
            score = self.search_child(child, same_side, depth - 1, alpha, beta, ply + 1);
        }
        score
    }

    /// A child's score for the side of the player moving here: negated only
    /// when the child's mover is on the other side.
    fn search_child(
        &mut self,
        child: &G::Position,
        same_side: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if same_side {
            self.negamax(child, depth, alpha, beta, ply)
        } else {
            -self.negamax(child, depth, -beta, -alpha, ply)
        }
    }

    /// Takes in `mv`'s score: the best move and line so far, and at a
    /// cut-off the killers and history it teaches. Returns whether the
    /// node is cut off.
    fn take_score(
        &mut self,
        node: &mut Node<'_, G>,
        quiets: &mut Vec<G::Move>,
        mv: G::Move,
        move_score: i32,
        score: i32,
    ) -> bool {
        let quiet = move_score < KILLER_SCORE;
        if self.policy.history_malus && quiet && score < node.beta {
            quiets.push(mv);
        }
        if score <= node.best_score {
            return false;
        }
        node.best_score = score;
        node.best_move = Some(mv);
        if score <= node.alpha {
            return false;
        }
        node.alpha = score;
        let ply = node.ply;
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
        if ply == 0 {
            self.root.score = Some(score);
        }
        if score < node.beta {
            return false;
        }
        self.reward(mv, node.mover, node.depth, ply);
        if self.policy.history_malus {
            self.punish(quiets, node.mover, node.depth);
        }
        true
    }

    /// Stores the node's result in the table.
    fn store(&self, node: &Node<'_, G>) {
        let bound = if node.best_score >= node.beta {
            Bound::Lower
        } else if node.best_score > node.original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            node.key ^ self.root.key_salt,
            Entry {
                depth: node.depth as u8,
                bound,
                score: score_to_tt(node.best_score, node.ply),
                best_move: node.best_move.map(G::move_to_bits),
            },
        );
    }
}

/// Plies to cut from a late move's search (from `reduction_depth` and move
/// index 1): more for later moves and deeper searches.
pub(super) fn late_move_reduction(depth: i32, index: usize) -> i32 {
    match REDUCTIONS.get(depth as usize).and_then(|row| row.get(index)) {
        Some(&reduction) => i32::from(reduction),
        None => reduction_formula(depth, index),
    }
}

/// The reduction as `SearchParams::reduction_base` gives it.
pub(super) fn reduction_formula(depth: i32, index: usize) -> i32 {
    let reduction = PARAMS.reduction_base + (depth as f64).ln() * (index as f64).ln() / PARAMS.reduction_divisor;
    (reduction as i32).clamp(1, depth - 2)
}

/// The reductions of the depths and move indices most nodes have, worked
/// out once: two logarithms a late move cost more than the lookup.
static REDUCTIONS: LazyLock<[[u8; REDUCTION_TABLE]; REDUCTION_TABLE]> = LazyLock::new(|| {
    std::array::from_fn(|depth| {
        std::array::from_fn(|index| {
            if (depth as i32) < PARAMS.reduction_depth || index < 1 {
                0
            } else {
                reduction_formula(depth as i32, index) as u8
            }
        })
    })
});

/// The depths and move indices `REDUCTIONS` covers.
pub(super) const REDUCTION_TABLE: usize = 64;

/// Mate scores are stored as distances from the node, read back relative to the root.
pub(super) fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score as seen from the root, `ply` plies above the node.
pub(super) fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
