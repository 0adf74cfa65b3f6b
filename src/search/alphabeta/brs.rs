//! Best-Reply Search (Schadd and Winands, 2011) for more than two players,
//! in its BRS+ form for games whose turns go round (Esser et al., 2013):
//! between two turns of the root player, one opponent at a time replies
//! with every move it has while the others play their likeliest move (the
//! game's `proof_priority` first), and the reply worst for the root player
//! counts. So the root player sees more of its own turns than paranoid
//! search at the same depth, and the others are not taken to play together
//! on every move. Alpha-beta on the root player's score, without a table;
//! a layer of the others' turns is one ply of depth.

use super::worker::Worker;
use super::{INFINITY, MAX_PLY};
use crate::search::game::SearchGame;

impl<G: SearchGame> Worker<'_, G> {
    /// The root player's score of `position` searched `depth` layers deep
    /// within (`alpha`, `beta`); fills `pv[ply]`. The root player is to
    /// move at `position`, or it is the first of the others' turns.
    pub(super) fn brs(&mut self, position: &G::Position, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        let stopping = self.count_node();
        self.seldepth = self.seldepth.max(ply as u32);
        if ply > 0 && stopping {
            return 0;
        }
        let root_player = self.root.player;
        let key = self.game.hash(position);
        if ply > 0 && (self.game.is_draw(position) || self.is_repetition_draw(key)) {
            return 0;
        }
        let mut moves = Vec::new();
        self.game.legal_moves(position, &mut moves);
        if moves.is_empty() {
            return self.outcome_score(self.game.winner(position), root_player, ply);
        }
        if depth <= 0 || ply >= MAX_PLY - 8 {
            self.horizon_reached = true;
            return self.game.evaluate(position, root_player).unwrap_or(0);
        }
        self.path.push(key);
        let score = if self.game.mover(position) == root_player {
            self.brs_own_turn(position, moves, depth, alpha, beta, ply)
        } else {
            self.brs_replies(position, depth, alpha, beta, ply)
        };
        self.path.pop();
        score
    }

    /// The root player's turn: its best move.
    fn brs_own_turn(
        &mut self,
        position: &G::Position,
        mut moves: Vec<G::Move>,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if ply == 0 {
            moves.retain(|mv| self.root.moves.contains(mv));
            // The last iteration's best move first.
            if let Some(best) = self.pv[0].first().copied()
                && let Some(index) = moves.iter().position(|&mv| mv == best)
            {
                moves.swap(0, index);
            }
        } else {
            self.order_by_priority(position, &mut moves);
        }
        let mut best = -INFINITY;
        for (index, &mv) in moves.iter().enumerate() {
            if ply == 0 {
                self.announce(mv, index + 1, depth as u32);
            }
            let child = self.game.play(position, mv);
            let score = self.brs(&child, depth - 1, alpha, beta, ply + 1);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                self.take_line(ply, mv);
                if ply == 0 {
                    self.root.score = Some(score);
                }
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// The others' turns until the root player's next: each of them in turn
    /// replies with every move while the others play their likeliest; the
    /// reply worst for the root player.
    fn brs_replies(&mut self, position: &G::Position, depth: i32, alpha: i32, mut beta: i32, ply: usize) -> i32 {
        let mut worst = Worst::new();
        // The turns of the others before the root player's next, one each
        // (passes included).
        let others = self.root.players - 1;
        for searcher in 0..others {
            let mut line = Vec::new();
            let score = self.brs_layer(position, searcher, 0, depth, alpha, beta, ply, &mut line);
            if self.aborted || worst.cuts_off(score, &self.pv[ply], alpha, &mut beta) {
                break;
            }
        }
        self.pv[ply] = worst.line;
        worst.score
    }

    /// One opponent's turn within a layer (`turn` counts the layer's turns
    /// so far): every move if it is the `searcher`th, else the likeliest.
    #[allow(clippy::too_many_arguments)]
    fn brs_layer(
        &mut self,
        position: &G::Position,
        searcher: usize,
        turn: usize,
        depth: i32,
        alpha: i32,
        mut beta: i32,
        ply: usize,
        line: &mut Vec<G::Move>,
    ) -> i32 {
        if self.count_node() {
            return 0;
        }
        let mut moves = Vec::new();
        self.game.legal_moves(position, &mut moves);
        let plies = ply + line.len();
        if moves.is_empty() {
            return self.outcome_score(self.game.winner(position), self.root.player, plies);
        }
        if self.game.mover(position) == self.root.player || plies >= MAX_PLY - 8 {
            let score = self.brs(position, depth - 1, alpha, beta, plies);
            let (head, tail) = self.pv.split_at_mut(plies);
            head[ply].clear();
            head[ply].extend_from_slice(line);
            head[ply].extend_from_slice(&tail[0]);
            return score;
        }
        self.order_by_priority(position, &mut moves);
        if turn != searcher {
            moves.truncate(1);
        }
        let mut worst = Worst::new();
        for mv in moves {
            let child = self.game.play(position, mv);
            line.push(mv);
            let score = self.brs_layer(&child, searcher, turn + 1, depth, alpha, beta, ply, line);
            line.pop();
            if self.aborted || worst.cuts_off(score, &self.pv[ply], alpha, &mut beta) {
                break;
            }
        }
        self.pv[ply] = worst.line;
        worst.score
    }

    /// Moves with the game's highest `proof_priority` first.
    fn order_by_priority(&self, position: &G::Position, moves: &mut [G::Move]) {
        moves.sort_by_cached_key(|&mv| {
            let child = self.game.play(position, mv);
            std::cmp::Reverse(self.game.proof_priority(position, mv, &child))
        });
    }

    /// Makes `pv[ply]` the move `mv` followed by the line below it.
    fn take_line(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }
}

/// The reply worst for the root player among those searched, and its line.
struct Worst<M> {
    score: i32,
    line: Vec<M>,
}

impl<M: Copy> Worst<M> {
    fn new() -> Self {
        Worst { score: INFINITY, line: Vec::new() }
    }

    /// Takes a reply's `score` and `line`, lowering `beta`; whether the
    /// window has closed, so that the other replies need no search.
    fn cuts_off(&mut self, score: i32, line: &[M], alpha: i32, beta: &mut i32) -> bool {
        if score < self.score {
            self.score = score;
            self.line.clear();
            self.line.extend_from_slice(line);
        }
        *beta = (*beta).min(score);
        alpha >= *beta
    }
}
