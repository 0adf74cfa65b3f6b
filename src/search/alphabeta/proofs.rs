//! Proofs inside the search: where the game bounds its length, the proof
//! search (`solver`) tries to settle the game, between the main thread's
//! iterations or on a helper thread of its own the whole search long; a
//! proof found is reported, and played when it settles the move.

use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::Instant;

use super::manager::Manager;
use super::shared::HelperProof;
use super::worker::Worker;
use super::{FoundLine, MATE, SearchResult};
use crate::search::game::SearchGame;
use crate::search::params::PARAMS;
use crate::search::solver::{Improved, ProofTable, Proven, Prover, Unproven, proved_move};

/// The proof table, to the one thread that asks first.
pub(super) fn take_proof_table<'t>(slot: &Mutex<Option<&'t mut ProofTable>>) -> Option<&'t mut ProofTable> {
    slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take()
}

impl<'a, G: SearchGame> Manager<'a, G> {
    /// Where the game bounds its length, tries to prove who wins with at
    /// most `budget` nodes (proved positions are kept, so each attempt goes
    /// on from the last), and reports a proof found. A proved win ends the
    /// search: no iteration improves on it.
    pub(super) fn try_proof(&mut self, root: &G::Position, budget: u64, depth: u32) -> Option<SearchResult<G::Move>> {
        let bound = self.worker.game.plies_left_bound(root)?;
        if bound > self.worker.policy.proof_horizon && !self.proofs.eager {
            return None;
        }
        let signals = self.worker.shared.signals;
        // Pondering, the budget of nodes is the only limit.
        let hard = self.worker.limits.timer.hard_limit();
        let clock_started = self.worker.limits.timer.started();
        let searched_for = clock_started.elapsed();
        // Under a clock a proof also stops once it has taken its share of
        // the time the iterations have had, since its nodes cost more than theirs.
        let share =
            if self.proofs.eager { PARAMS.eager_proof_share } else { PARAMS.timed_proof_share }.of(searched_for);
        let time_cap = (hard.is_some() && budget != u64::MAX).then(|| Instant::now() + share);
        let mut interrupt = |nodes: u64| {
            nodes >= budget
                || signals.stop.load(Ordering::Relaxed)
                || hard.is_some_and(|hard| clock_started.elapsed() >= hard)
                || time_cap.is_some_and(|cap| Instant::now() >= cap)
        };
        let table = self.proofs.table.as_deref_mut()?;
        let (proved, nodes) = self.worker.prove_root(table, root, &mut interrupt);
        self.worker.shared.nodes.fetch_add(nodes, Ordering::Relaxed);
        let proven = proved.ok()?;
        let pv = self.worker.proof_line(table, root);
        Some(self.report_proof(root, proven, pv, depth))
    }

    /// Under a fixed time a move (or until stopped), what is left of it
    /// after a proof goes to making the proof better: a quicker win, or the longest resistance,
    /// by bounded searches, until the time (or the nodes) run out or the
    /// best is certain. The improved proof is reported; without a table
    /// of its own (a helper proves) the proof stays as it is.
    pub(super) fn improve_proof(
        &mut self,
        root: &G::Position,
        proof: SearchResult<G::Move>,
        depth: u32,
    ) -> SearchResult<G::Move> {
        let worker = &self.worker;
        let (game, key_salt, shared) = (worker.game, worker.root.key_salt, worker.shared);
        let Some(table) = self.proofs.table.as_deref_mut() else { return proof };
        let Some(proven) = table.get(game.symmetric_key(root).0 ^ key_salt) else { return proof };
        // The timer's own check: while pondering no limit runs, and the
        // clock starts when pondering ends.
        let mut timer = worker.limits.timer;
        let (node_limit, nodes_before) = (worker.limits.nodes, worker.total_nodes());
        let mut interrupt = |nodes: u64| {
            shared.signals.stop.load(Ordering::Relaxed)
                || timer.past_hard(shared.signals)
                || node_limit.is_some_and(|limit| nodes_before + nodes >= limit)
        };
        let root_player = worker.root.player;
        let same_side = move |a, b| (a == root_player) == (b == root_player);
        let mut prover = Prover::new(game, table, &same_side, key_salt, &mut interrupt);
        let improved = if proven.mover_wins {
            prover.quicken_win(root, proven.plies)
        } else {
            prover.lengthen_loss(root, proven.plies, proof.best_move)
        };
        let nodes = prover.nodes;
        shared.nodes.fetch_add(nodes, Ordering::Relaxed);
        let Some(Improved { mv, plies, .. }) = improved else { return proof };
        let after = game.play(root, mv);
        let mut pv = vec![mv];
        pv.extend(self.worker.proof_line(self.proofs.table.as_deref().expect("taken above"), &after));
        let proven = Proven { plies, best_move: Some(G::move_to_bits(mv)), ..proven };
        self.report_proof(root, proven, pv, depth)
    }

    /// Reports the proof a helper offered, if any, as `try_proof` reports its own.
    pub(super) fn take_helper_proof(&mut self, root: &G::Position, depth: u32) -> Option<SearchResult<G::Move>> {
        let shared = self.worker.shared;
        let offered = shared.helper_proof.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take()?;
        let pv = self.worker.legal_prefix(root, &offered.pv);
        Some(self.report_proof(root, offered.proven, pv, depth))
    }

    /// Reports a proof of `root` found after the iterations reached `depth`.
    fn report_proof(
        &mut self,
        root: &G::Position,
        proven: Proven,
        pv: Vec<G::Move>,
        depth: u32,
    ) -> SearchResult<G::Move> {
        let plies = proven.plies as i32;
        let score = if proven.mover_wins { MATE - plies } else { -MATE + plies };
        // Reported at the depth the iterations reached (reports never go
        // back in depth), the proof's length as the selective depth; a
        // proof that came first goes as deep as the game's end.
        let depth = if depth == 0 { proven.plies } else { depth };
        let seldepth = self.worker.seldepth.max(proven.plies);
        // Not kept as the best line: a proof that is not played gives way
        // to the iterations' line at the end; one played is reported again.
        let (result, report) = self.report_found(root, 1, depth, FoundLine { score, pv, seldepth });
        self.proof_line = Some(report);
        result
    }
}

impl<'a, G: SearchGame> Worker<'a, G> {
    /// A helper's search where proofs are worth trying: one proof, the whole
    /// search long, rather than shares of the nodes between iterations.
    /// Offers the proof found to the main thread. Returns whether this
    /// thread is done: not when the proof met a draw, which it cannot weigh,
    /// nor when it proved a loss the main thread looks past (against a
    /// coalition); the thread then searches ahead like the other helpers.
    pub(super) fn prove_alongside(&mut self, table: &mut ProofTable, root: &G::Position) -> bool {
        self.set_root(root);
        let shared = self.shared;
        let mut counted = 0;
        // Nodes are counted as they go, for the main thread's reports.
        let mut interrupt = |nodes: u64| {
            shared.nodes.fetch_add(nodes - counted, Ordering::Relaxed);
            counted = nodes;
            shared.signals.stop.load(Ordering::Relaxed)
                || shared.finished.load(Ordering::Relaxed)
                || shared.deadline.is_some_and(|deadline| Instant::now() >= deadline)
        };
        let (proved, nodes) = self.prove_root(table, root, &mut interrupt);
        shared.nodes.fetch_add(nodes - counted, Ordering::Relaxed);
        let proven = match proved {
            Ok(proven) => proven,
            Err(Unproven::Interrupted) => return true,
            Err(Unproven::Draw) => return false,
        };
        let pv = self.proof_line(table, root).into_iter().map(G::move_to_bits).collect();
        *shared.helper_proof.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(HelperProof { proven, pv });
        // Won, or lost with no coalition to look past: the move to play.
        let settles = proven.mover_wins || self.root.players == 2;
        shared.proof_settles.store(settles, Ordering::Relaxed);
        settles
    }

    /// Runs the prover on `root`, the root player's allies counting as one
    /// side, until `interrupt` stops it. Returns what it proved and the
    /// nodes it visited.
    fn prove_root(
        &self,
        table: &mut ProofTable,
        root: &G::Position,
        interrupt: &mut dyn FnMut(u64) -> bool,
    ) -> (Result<Proven, Unproven>, u64) {
        let root_player = self.root.player;
        let same_side = move |a, b| (a == root_player) == (b == root_player);
        let mut prover = Prover::new(self.game, table, &same_side, self.root.key_salt, interrupt);
        let proved = prover.prove(root);
        (proved, prover.nodes)
    }

    /// The proof's line: the winner's proved moves, the loser's longest resistance.
    fn proof_line(&self, table: &ProofTable, root: &G::Position) -> Vec<G::Move> {
        let mut line = Vec::new();
        let mut position = *root;
        while let Some(mv) =
            proved_move(self.game, &position, table, self.root.key_salt).filter(|&mv| self.game.is_legal(&position, mv))
        {
            line.push(mv);
            position = self.game.play(&position, mv);
        }
        line
    }
}
