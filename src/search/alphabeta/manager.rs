//! The main thread's duties, apart from the search every thread does:
//! deepening iteration by iteration within the clock, finding and reporting
//! the best lines, proofs between iterations (or taking a proving helper's),
//! and taking over a helper's deeper line.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::worker::{Announcer, CallerReport, Worker};
use super::{FoundLine, MATE, MATE_BOUND, MAX_PLY, Progress, Report, Score, SearchResult};
use crate::search::game::SearchGame;
use crate::search::params::PARAMS;
use crate::search::solver::ProofTable;

/// The main thread: its worker, and what only it does.
pub(super) struct Manager<'a, G: SearchGame> {
    pub(super) worker: Worker<'a, G>,
    /// The caller's report, shared with the worker's announcer.
    report: &'a CallerReport<'a, G::Move>,
    /// When the search began, for reports.
    started: Instant,
    pub(super) proofs: Proofs<'a>,
    /// The last best line reported by an iteration.
    best_line: Option<Report<G::Move>>,
    /// The line of the last proof reported.
    pub(super) proof_line: Option<Report<G::Move>>,
    /// A timed search goes on to its limit whatever it proves: the proof
    /// is played, but what the iterations find is reported (and, after a
    /// proof that is not played, a loss to a coalition, played).
    search_on: bool,
}

/// The main thread's part in proving who wins.
#[derive(Default)]
pub(super) struct Proofs<'a> {
    /// Proved positions, where this thread proves.
    pub(super) table: Option<&'a mut ProofTable>,
    /// A helper proves alongside: its proofs are taken instead.
    pub(super) by_helper: bool,
    /// Asked to prove: proofs get as many nodes as the iterations, however
    /// far the end.
    pub(super) eager: bool,
    /// Asked for nothing but a proof: it is tried first, with no budget.
    pub(super) first: bool,
}

/// How far the main thread deepens, and what it looks for.
pub(super) struct Plan {
    pub(super) max_depth: u32,
    /// Search until stopped, even past a proved result or the last depth.
    pub(super) infinite: bool,
    /// How many best lines each iteration finds.
    pub(super) lines: usize,
    /// Stop once the side to move has a win in this many own moves.
    pub(super) mate: Option<u32>,
    /// Play the game's proved moves (`GameKnowledge::known_win`) where it has one.
    pub(super) book: bool,
    /// A fixed time a move and no other limit (`Limits::fixed_time_only`):
    /// a proof or a decided position does not answer before it is spent.
    /// Otherwise (a clock's share, whose unspent time is kept for later
    /// moves, a depth, nodes) a proof is played at once.
    pub(super) fixed_time: bool,
}

/// How an iteration ended.
enum Iteration {
    /// Its lines were found; the best one's score.
    Done(i32),
    /// It was cut short for a helper's deeper line, taken over: that
    /// line's depth and score.
    Adopted { depth: u32, score: i32 },
    /// It was cut short for a helper's line that could not be taken over:
    /// the same depth again.
    Again,
    /// The search ends: it was stopped, or a helper's proof settled the move.
    Stop,
}

/// Where the main thread's deepening stands.
struct Deepening<M> {
    /// The answer so far.
    best: SearchResult<M>,
    /// The best line's score at each depth, for aspiration windows.
    scores: Vec<Option<i32>>,
    /// A proof was found: no more proofs.
    proofs_done: bool,
    /// The game's known win, or a proof found, played once the iterations
    /// have used a fixed time a move.
    proved: Option<SearchResult<M>>,
    /// The last line reported is that proof, not the line the move comes from.
    proof_reported_last: bool,
}

impl<'a, G: SearchGame> Manager<'a, G> {
    /// The main thread, searching with `worker` and reporting to `report`
    /// from `started` on.
    pub(super) fn new(
        mut worker: Worker<'a, G>,
        report: &'a CallerReport<'a, G::Move>,
        started: Instant,
        proofs: Proofs<'a>,
    ) -> Self {
        worker.limits.helper_proof = proofs.by_helper;
        worker.announcer = Some(Announcer::new(report, started));
        Manager { worker, report, started, proofs, best_line: None, proof_line: None, search_on: false }
    }

    /// Deepens until a limit, finding `plan.lines` best lines at each depth
    /// (each next one among the moves the earlier ones left), trying
    /// proofs between iterations, and answers with the best move found.
    pub(super) fn iterate(&mut self, root: &G::Position, plan: &Plan) -> SearchResult<G::Move> {
        self.worker.set_root(root);
        self.search_on = !plan.infinite && !self.proofs.eager && self.worker.limits.timer.has_limit();
        // Searching on, a helper's proof does not stop the main thread: it
        // is taken between iterations.
        self.worker.limits.helper_proof = self.proofs.by_helper && !self.search_on;
        let allowed = self.worker.allowed_root_moves(root);
        let Some(&first) = allowed.first() else {
            return SearchResult { best_move: None, score: Score::Mate(0), depth: 0, nodes: 0 };
        };
        let known_win = self.known_win(root, &allowed, plan);
        // Under a clock the known win is played at once, its time kept for
        // later moves; a fixed time a move is used (issue #37) as for a proof.
        if let Some(known) = &known_win
            && !self.spends_fixed_time(plan)
        {
            // Nothing to search for: under `go infinite` the answer still
            // waits for `stop`, and while pondering for `ponderhit` or `stop`.
            self.wait_for_stop(plan.infinite);
            return known.clone();
        }
        // Asked for a proof (`solve`): the dedicated search goes first, with
        // every node it needs; the iterations only if it cannot finish.
        if self.proofs.first
            && let Some(mut proof) = self.try_proof(root, u64::MAX, 0)
        {
            proof.nodes = self.worker.total_nodes();
            return proof;
        }
        let lines = plan.lines.min(allowed.len());
        let mut state = Deepening {
            best: SearchResult { best_move: Some(first), score: Score::Centipawns(0), depth: 0, nodes: 0 },
            scores: vec![None; plan.max_depth as usize + 1],
            proofs_done: known_win.is_some(),
            proof_reported_last: false,
            proved: known_win,
        };
        let mut next_depth = 1;
        while next_depth <= plan.max_depth {
            let depth = next_depth;
            self.worker.shared.main_depth.store(depth, Ordering::Relaxed);
            next_depth = depth + 1;
            let best_score = match self.search_depth(root, depth, &allowed, lines, &mut state) {
                Iteration::Done(score) => score,
                Iteration::Adopted { depth, score } => {
                    next_depth = depth + 1;
                    score
                }
                Iteration::Again => {
                    next_depth = depth;
                    continue;
                }
                Iteration::Stop => break,
            };
            if self.prove_between(root, depth, best_score, &mut state, plan)
                || self.deepening_ends(best_score, &state, plan)
            {
                break;
            }
        }
        self.finish(plan, state)
    }

    /// The game's known win at `root`, reported as a proof and said to come
    /// from the book, where the book is wanted (`OwnBook`), proofs are
    /// tried (one line, every move), not asked for (a proof is then wanted,
    /// not a book), and the search has no fixed depth.
    fn known_win(&mut self, root: &G::Position, allowed: &[G::Move], plan: &Plan) -> Option<SearchResult<G::Move>> {
        let proofs_tried = self.proofs.table.is_some() || self.proofs.by_helper;
        if !plan.book || !proofs_tried || self.proofs.first || plan.max_depth < MAX_PLY as u32 - 1 {
            return None;
        }
        let (mv, plies) = self.worker.game.known_win(root).filter(|(mv, _)| allowed.contains(mv))?;
        (self.report.borrow_mut())(Progress::Note(&format!(
            "book: a proved win from the proof book the game carries, not searched (OwnBook false: search instead); \
             the game ends within {plies} plies"
        )));
        let found = FoundLine { score: MATE - plies as i32, pv: vec![mv], seldepth: plies };
        let (result, report) = self.report_found(root, 1, 1, found);
        self.proof_line = Some(report);
        Some(result)
    }

    /// Searches `depth` for `lines` best lines, each among the moves the
    /// ones before it left, and reports them.
    fn search_depth(
        &mut self,
        root: &G::Position,
        depth: u32,
        allowed: &[G::Move],
        lines: usize,
        state: &mut Deepening<G::Move>,
    ) -> Iteration {
        self.worker.root.moves.clear();
        self.worker.root.moves.extend_from_slice(allowed);
        let mut best_score = 0;
        // With several lines, this iteration's, reported together once found.
        let mut found_lines: Vec<FoundLine<G::Move>> = Vec::new();
        for line in 1..=lines {
            // Two plies back, not one: the side to move at the leaves is
            // then the same, so an evaluation that leans to one side
            // cannot throw the window off. One ply back measured no
            // better with one that does not: -8.7 +/- 15.6 Elo (standard,
            // 100 ms a move, 800 games).
            let expected = if line == 1 && depth >= 2 { state.scores[depth as usize - 2] } else { None };
            let score = self.worker.search_root(root, depth, expected);
            if let Some(end) = self.cut_short(root, depth, line, &mut found_lines, state) {
                return end;
            }
            state.proof_reported_last = false;
            let found_move = self.worker.pv[0][0];
            if lines == 1 {
                state.best = self.report_line(root, depth, score);
                best_score = score;
                state.scores[depth as usize] = Some(score);
            } else {
                let seldepth = self.worker.seldepth;
                found_lines.push(FoundLine { score, pv: self.worker.pv[0].clone(), seldepth });
                if line == lines {
                    best_score = found_lines.iter().map(|found| found.score).max().unwrap_or(score);
                    state.scores[depth as usize] = Some(best_score);
                    if let Some(found) = self.report_lines(root, depth, std::mem::take(&mut found_lines)) {
                        state.best = found;
                    }
                }
            }
            self.worker.root.moves.retain(|&mv| mv != found_move);
        }
        Iteration::Done(best_score)
    }

    /// What ends the iteration after the root search of its `line`th line,
    /// if anything: a helper's proof that settles the move, a helper's
    /// deeper line, or a stop (then what was found is reported).
    fn cut_short(
        &mut self,
        root: &G::Position,
        depth: u32,
        line: usize,
        found_lines: &mut Vec<FoundLine<G::Move>>,
        state: &mut Deepening<G::Move>,
    ) -> Option<Iteration> {
        if self.proofs.by_helper
            && !self.search_on
            && self.worker.shared.proof_settles.load(Ordering::Relaxed)
            && let Some(proof) = self.take_helper_proof(root, state.best.depth)
        {
            state.best = proof;
            state.proof_reported_last = false;
            return Some(Iteration::Stop);
        }
        if self.worker.overtaken && !self.worker.shared.signals.stop.load(Ordering::Relaxed) {
            return Some(self.take_over_helper_line(root, state));
        }
        if !self.worker.aborted {
            return None;
        }
        // Root moves are only recorded once fully searched, and the last
        // best move is searched first: a move found here is at least as
        // good, and is reported with its own score at this depth.
        if line == 1
            && let Some(score) = self.worker.root.score
        {
            state.best = self.report_line(root, depth, score);
        } else if let Some(found) = self.report_lines(root, depth, std::mem::take(found_lines)) {
            state.best = found;
        }
        Some(Iteration::Stop)
    }

    /// Takes over the helpers' deeper line the iteration was cut short for.
    fn take_over_helper_line(&mut self, root: &G::Position, state: &mut Deepening<G::Move>) -> Iteration {
        self.worker.overtaken = false;
        self.worker.aborted = false;
        let Some((depth, score)) = self.adopt_helper_line(root) else {
            // The line did not replay (it cannot, short of a bug): this
            // depth is searched again.
            return Iteration::Again;
        };
        state.best = self.report_line(root, depth, score);
        state.scores[depth as usize] = Some(score);
        state.proof_reported_last = false;
        Iteration::Adopted { depth, score }
    }

    /// With a move in hand, tries to settle the game for good, giving the
    /// proof a share of the nodes the iterations have had, so proving
    /// keeps pace with searching (none while the game's bound on the plies
    /// left is beyond its proof horizon: a proof is out of reach there, and
    /// its nodes would be the iterations' loss); or takes a proving
    /// helper's proof. Returns whether the proof is the answer.
    fn prove_between(
        &mut self,
        root: &G::Position,
        depth: u32,
        best_score: i32,
        state: &mut Deepening<G::Move>,
        plan: &Plan,
    ) -> bool {
        if best_score.abs() > MATE_BOUND || state.proofs_done {
            return false;
        }
        let share = if self.proofs.eager { PARAMS.eager_proof_share } else { PARAMS.timed_proof_share };
        let budget = share.of_count(self.worker.nodes).max(PARAMS.min_proof_nodes);
        let proof = if self.proofs.by_helper {
            self.take_helper_proof(root, depth)
        } else {
            self.try_proof(root, budget, depth)
        };
        let Some(proof) = proof else { return false };
        // Lost against a coalition of the others is not lost against each
        // of them: look on for the best practical move. Otherwise the
        // proof is played: the win, or the longest resistance.
        let won = matches!(proof.score, Score::Mate(moves) if moves > 0);
        if won || self.worker.root.players == 2 {
            // Under a clock the proof is played at once, its time kept for
            // later moves (as a known win is). Under a fixed time a move, or
            // until stopped, what is left of the time makes it better first
            // (issue #37), which the iterations, cut short by their forced
            // result, would not.
            let fixed_time = self.spends_fixed_time(plan);
            let proof = if plan.infinite || fixed_time { self.improve_proof(root, proof, depth) } else { proof };
            if fixed_time {
                // A fixed time a move is the move's to spend (issue #37):
                // the iterations go on to its end, and the proof is played then.
                state.best = proof.clone();
                state.proved = Some(proof);
                state.proofs_done = true;
                return false;
            }
            state.best = proof;
            return true;
        }
        state.proofs_done = true;
        state.proof_reported_last = true;
        false
    }

    /// Whether the search has a fixed time for the move to spend, proved or
    /// not (not a clock's share, whose unspent time is kept for later moves,
    /// nor a search for a depth, nodes or a mate, which ends where they are met).
    fn spends_fixed_time(&self, plan: &Plan) -> bool {
        self.search_on && plan.fixed_time
    }

    /// Whether no iteration follows: the result is proved (a max-n tree
    /// that ends everywhere before the depth is complete), the mate asked
    /// for is found, or the clock's soft limit has passed.
    fn deepening_ends(&mut self, best_score: i32, state: &Deepening<G::Move>, plan: &Plan) -> bool {
        let mate_found = matches!((state.best.score, plan.mate),
            (Score::Mate(moves), Some(limit)) if moves > 0 && moves as u32 <= limit);
        // A proof held for the end of a fixed time a move (or a known win) waits for that end.
        let holding_proof = state.proved.is_some() && self.spends_fixed_time(plan);
        // A timed search goes on past a forced result its iterations found
        // until a proof confirms it (their pruning can miss a defence);
        // once both agree, or max-n searched the whole tree, deeper
        // iterations only repeat it.
        let decided = best_score.abs() > MATE_BOUND && (!self.search_on || state.proofs_done);
        let worker = &mut self.worker;
        let proven =
            (decided || ((worker.maxn || worker.brs) && !worker.horizon_reached)) && !plan.infinite && !holding_proof;
        proven || mate_found || worker.limits.timer.past_soft(worker.shared.signals)
    }

    /// Ends the search: reports the line the move comes from again if a
    /// proof not played was reported after it, and under `go infinite` or
    /// while pondering waits for `stop` (or `ponderhit`).
    fn finish(&mut self, plan: &Plan, state: Deepening<G::Move>) -> SearchResult<G::Move> {
        // A fixed time a move is the time the move takes: what the
        // iterations leave of it, out of tree to search (the game decided),
        // is waited out, so that a decided position does not answer sooner
        // than another.
        if self.spends_fixed_time(plan) {
            self.worker.limits.timer.wait_out(self.worker.shared.signals);
        }
        if let Some(mut proved) = state.proved {
            // The proof is played: its line is the last reported, at the
            // depth the iterations reached (reports never go back in depth).
            if let Some(mut line) = self.proof_line.take() {
                line.depth = line.depth.max(state.best.depth);
                line.hashfull = self.worker.tt.hashfull();
                line.nodes = self.worker.total_nodes();
                line.elapsed = self.started.elapsed();
                (self.report.borrow_mut())(Progress::Line(&line));
            }
            self.wait_for_stop(plan.infinite);
            proved.nodes = self.worker.total_nodes();
            return proved;
        }
        if state.proof_reported_last
            && let Some(mut line) = self.best_line.take()
        {
            line.nodes = self.worker.total_nodes();
            line.elapsed = self.started.elapsed();
            (self.report.borrow_mut())(Progress::Line(&line));
        }
        self.wait_for_stop(plan.infinite);
        let mut best = state.best;
        best.nodes = self.worker.total_nodes();
        best
    }

    /// Under `go infinite` or while pondering, waits for `stop` (or `ponderhit`).
    fn wait_for_stop(&self, infinite: bool) {
        let signals = self.worker.shared.signals;
        while (infinite || signals.pondering.load(Ordering::Relaxed)) && !signals.stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Reports `pv[0]` with `score` as the best line at `depth`, and
    /// returns it as a result.
    pub(super) fn report_line(&mut self, root: &G::Position, depth: u32, score: i32) -> SearchResult<G::Move> {
        let found = FoundLine { score, pv: self.worker.pv[0].clone(), seldepth: self.worker.seldepth };
        let (result, report) = self.report_found(root, 1, depth, found);
        self.best_line = Some(report);
        result
    }

    /// Reports an iteration's lines best first (each was the best of the
    /// moves the ones before it left, but a later search can score higher
    /// than an earlier one); returns the best as the result, if any.
    fn report_lines(
        &mut self,
        root: &G::Position,
        depth: u32,
        mut found_lines: Vec<FoundLine<G::Move>>,
    ) -> Option<SearchResult<G::Move>> {
        found_lines.sort_by_key(|found| std::cmp::Reverse(found.score));
        let mut best = None;
        for (index, found) in found_lines.into_iter().enumerate() {
            let (result, report) = self.report_found(root, index + 1, depth, found);
            if best.is_none() {
                self.best_line = Some(report);
                best = Some(result);
            }
        }
        best
    }

    /// Reports `found` as best line `line` at `depth`; returns it as a
    /// result, and the report (the iterations keep their best line's).
    pub(super) fn report_found(
        &mut self,
        root: &G::Position,
        line: usize,
        depth: u32,
        found: FoundLine<G::Move>,
    ) -> (SearchResult<G::Move>, Report<G::Move>) {
        let FoundLine { score, pv, seldepth } = found;
        let result = SearchResult {
            best_move: pv.first().copied(),
            score: self.reported_score(root, score, &pv),
            depth,
            nodes: self.worker.total_nodes(),
        };
        let report = Report {
            multipv: line,
            depth,
            seldepth,
            score: result.score,
            nodes: result.nodes,
            elapsed: self.started.elapsed(),
            hashfull: self.worker.tt.hashfull(),
            pv,
        };
        (self.report.borrow_mut())(Progress::Line(&report));
        (result, report)
    }

    /// The score as reported. A result at the end of the whole PV counts the
    /// root player's own moves along it, so turns need not alternate; a PV
    /// cut short (by the table) falls back on turns going round.
    fn reported_score(&self, root: &G::Position, score: i32, pv: &[G::Move]) -> Score {
        let plies = MATE - score.abs();
        let (game, root_player) = (self.worker.game, self.worker.root.player);
        if score.abs() <= MATE_BOUND || pv.len() != plies as usize {
            return Score::from_internal(score, self.worker.root.players);
        }
        let mut position = *root;
        let mut own_moves = 0;
        for &mv in pv {
            own_moves += i32::from(game.mover(&position) == root_player);
            position = game.play(&position, mv);
        }
        Score::Mate(if score > 0 { own_moves } else { -own_moves })
    }
}
