//! Iterative deepening negamax with principal variation search, a
//! transposition table, killer and history move ordering. Game-agnostic:
//! it sees the game only through `SearchGame`. Move ordering, the helper
//! threads and the proofs tried inside the search each have a module below.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Condvar, LazyLock, Mutex};
use std::time::{Duration, Instant};

use super::game::{Policy, SearchGame};
use super::limits::{Limits, Signals, Timer};
use super::params::PARAMS;
use super::solver::{ProofTable, Proven};
use super::tt::{Bound, Entry, TranspositionTable};

mod maxn;
mod ordering;
mod proofs;
mod threads;
pub use maxn::{MAXN_WIN, MultiplayerSearch, UnknownMultiplayerSearch};
use ordering::{HISTORY_SIZE, KILLER_SCORE, MovePicker};
use proofs::take_proof_table;
pub use threads::hardware_threads;

/// The score of a won game at the root; a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are wins or losses, not evaluations.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INFINITY: i32 = MATE + 1;
const MAX_PLY: usize = 128;

/// A score as reported: centipawn-like units, or moves to a forced result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    Centipawns(i32),
    /// Moves of the side to move (passes included) until the game ends
    /// with its win (> 0) or loss (< 0).
    Mate(i32),
}

impl Score {
    /// The reported form of a search score in a game of `players` players
    /// who move in turn: a result `n` plies away comes after the side to
    /// move's own next `ceil(n / players)` moves.
    pub fn from_internal(score: i32, players: usize) -> Score {
        let own_moves = |plies: i32| (plies + players as i32 - 1) / players as i32;
        if score > MATE_BOUND {
            Score::Mate(own_moves(MATE - score))
        } else if score < -MATE_BOUND {
            Score::Mate(-own_moves(MATE + score))
        } else {
            Score::Centipawns(score)
        }
    }
}

impl fmt::Display for Score {
    /// The UCI form: `cp 35` or `mate -2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Centipawns(cp) => write!(f, "cp {cp}"),
            Score::Mate(moves) => write!(f, "mate {moves}"),
        }
    }
}

/// What the search tells its caller after each completed iteration (one
/// report per line of a multi-PV search), and after an unfinished one when
/// it found a new best move: a move, its score and its line, all of one
/// search.
#[derive(Clone, Debug)]
pub struct Report<M> {
    /// Which best line this is, from 1.
    pub multipv: usize,
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    pub hashfull: u32,
    pub pv: Vec<M>,
}

/// What a running search has to say.
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a, M> {
    Line(&'a Report<M>),
    /// The root move the iteration of `depth` is searching now, the
    /// `number`th it tries (from 1).
    CurrentMove {
        depth: u32,
        mv: M,
        number: usize,
    },
}

impl<M> Report<M> {
    pub fn nps(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1);
        (self.nodes as u128 * 1_000_000 / micros) as u64
    }
}

/// The answer of a finished search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// `None` only when the side to move has no legal move.
    pub best_move: Option<M>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
}

/// Keeps what outlives one search: the table and the ordering statistics.
pub struct Searcher {
    tt: TranspositionTable,
    proofs: ProofTable,
    /// Move-ordering statistics, one table per search thread.
    histories: Vec<Vec<i32>>,
    multiplayer: MultiplayerSearch,
    /// How many best lines to find (MultiPV).
    lines: usize,
    /// Test seam: helper threads after this many fail to start.
    #[cfg(test)]
    spawn_limit: Option<usize>,
}

/// What the threads of one search share besides the table.
struct Shared<'a> {
    /// The caller's stop and ponder flags.
    signals: &'a Signals,
    /// Set by the main thread when it is done, to stop the helpers.
    finished: AtomicBool,
    /// The depth the main thread is searching.
    main_depth: AtomicU32,
    /// Nodes of all threads, added in steps of `poll_interval`.
    nodes: AtomicU64,
    /// The deepest iteration a helper has completed, and its line: the
    /// main thread takes it over rather than finish a shallower one.
    helper_depth: AtomicU32,
    helper_line: Mutex<Option<HelperLine>>,
    /// Whether the main thread takes over helpers' lines: not when it looks
    /// for more lines than the helpers do, or searches max-n without them.
    adopt_helper_lines: bool,
    /// When every thread stops, whoever notices first (not while pondering:
    /// then only the main thread knows when the clock starts).
    deadline: Option<Instant>,
    /// Helpers wait here until all are started, so starting them is not
    /// slowed by the ones already searching.
    start_gate: (Mutex<bool>, Condvar),
    /// A proof found by the helper that proves while the main thread
    /// iterates, and whether it settles the move to play (then the main
    /// thread stops its iteration for it).
    helper_proof: Mutex<Option<HelperProof>>,
    proof_settles: AtomicBool,
}

impl<'a> Shared<'a> {
    fn new(signals: &'a Signals, adopt_helper_lines: bool, deadline: Option<Instant>) -> Self {
        Shared {
            signals,
            finished: AtomicBool::new(false),
            main_depth: AtomicU32::new(0),
            nodes: AtomicU64::new(0),
            helper_depth: AtomicU32::new(0),
            helper_line: Mutex::new(None),
            adopt_helper_lines,
            deadline,
            start_gate: (Mutex::new(false), Condvar::new()),
            helper_proof: Mutex::new(None),
            proof_settles: AtomicBool::new(false),
        }
    }

    fn open_gate(&self) {
        *self.start_gate.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = true;
        self.start_gate.1.notify_all();
    }

    fn wait_at_gate(&self) {
        let mut open = self.start_gate.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        while !*open {
            open = self.start_gate.1.wait(open).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }
}

/// A root search's result, before it is reported.
struct FoundLine<M> {
    score: i32,
    pv: Vec<M>,
    seldepth: u32,
}

/// An iteration a helper completed: its depth, score and best line.
struct HelperLine {
    depth: u32,
    seldepth: u32,
    score: i32,
    /// Moves as the table packs them: `Shared` knows no game.
    pv: Vec<u16>,
}

/// A proof a helper completed: the root's result and the proof's line.
struct HelperProof {
    proven: Proven,
    /// Moves as the table packs them.
    pv: Vec<u16>,
}

/// Per-thread search state, borrowed from the `Searcher` for one `search` call.
struct Run<'a, G: SearchGame, R: FnMut(Progress<'_, G::Move>)> {
    game: &'a G,
    /// The game's settings for the search, read once.
    policy: Policy,
    tt: &'a TranspositionTable,
    history: &'a mut [i32],
    killers: [[Option<G::Move>; 2]; MAX_PLY],
    /// Keys of this node's ancestors in the search, the root first.
    path: Vec<u64>,
    /// How often each position occurred in the game before the root.
    game_history: &'a HashMap<u64, u32>,
    /// Moves generated at each ply, reused across nodes.
    move_buffers: Vec<Vec<G::Move>>,
    /// Those moves with their ordering scores.
    scored_buffers: Vec<Vec<(i32, G::Move)>>,
    /// Per ply: the quiet moves searched at the node without a cut-off.
    quiet_buffers: Vec<Vec<G::Move>>,
    pv: Vec<Vec<G::Move>>,
    /// This thread's nodes.
    nodes: u64,
    seldepth: u32,
    /// When the search began, for reports.
    started: Instant,
    /// The main thread's clock (helpers: unlimited).
    timer: Timer,
    node_limit: Option<u64>,
    shared: &'a Shared<'a>,
    aborted: bool,
    report: R,
    /// Scores are for this player's side: with more than two players, the
    /// others count as one coalition against it (paranoid search).
    root_player: usize,
    players: usize,
    /// Mixed into table keys where scores depend on the root player.
    key_salt: u64,
    /// Proved positions: held by the one thread that tries proofs.
    proofs: Option<&'a mut ProofTable>,
    /// The main thread's proofs come from a helper proving alongside.
    helper_proves: bool,
    /// Asked to prove: proofs get as many nodes as the iterations, however
    /// far the end.
    eager_proofs: bool,
    /// Asked for nothing but a proof: it is tried first, with no budget.
    prove_first: bool,
    /// Iterations search max-n rather than paranoid alpha-beta.
    maxn: bool,
    /// Whether the current max-n iteration cut a line off at its depth.
    horizon_reached: bool,
    /// The root moves to search (the caller's, less the lines already
    /// found at this depth).
    root_moves: Vec<G::Move>,
    /// The score of `pv[0]` once a root move has been searched this iteration.
    root_score: Option<i32>,
    /// The last best line reported by an iteration.
    best_line: Option<Report<G::Move>>,
    /// How many plies ahead of the main thread a helper keeps; 0 for the main thread.
    ahead: u32,
    /// The main thread stopped its iteration for a helper's deeper one.
    overtaken: bool,
}

impl Searcher {
    pub fn new(hash_megabytes: usize) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(hash_megabytes),
            proofs: ProofTable::new(hash_megabytes / PARAMS.proof_table_divisor),
            histories: vec![vec![0; HISTORY_SIZE]],
            multiplayer: MultiplayerSearch::default(),
            lines: 1,
            #[cfg(test)]
            spawn_limit: None,
        }
    }

    /// Forgets everything learned: for a new game.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.proofs.clear();
        for history in &mut self.histories {
            history.fill(0);
        }
    }

    pub fn resize(&mut self, hash_megabytes: usize) {
        self.tt = TranspositionTable::new(hash_megabytes);
        self.proofs = ProofTable::new(hash_megabytes / PARAMS.proof_table_divisor);
    }

    pub fn hash_megabytes(&self) -> usize {
        self.tt.megabytes()
    }

    /// Search threads from now on: as many as asked, but at least one and at
    /// most `hardware_threads()` (more would only take turns on the same
    /// cores, and could not all stop in time). Helper threads search the
    /// same root and share the table (lazy SMP), except that one proves
    /// where the game says a thread of its own should; only the main one
    /// reports. Returns the number used.
    pub fn set_threads(&mut self, threads: usize) -> usize {
        let used = threads.clamp(1, hardware_threads());
        self.histories.resize_with(used, || vec![0; HISTORY_SIZE]);
        used
    }

    pub fn threads(&self) -> usize {
        self.histories.len()
    }

    pub fn lines(&self) -> usize {
        self.lines
    }

    /// How many best lines each iteration finds and reports (at least one).
    pub fn set_lines(&mut self, lines: usize) {
        self.lines = lines.max(1);
    }

    /// How searches of more than two players treat the others. Max-n runs
    /// on one thread: helpers would only repeat its tree, which has no
    /// table to share.
    pub fn set_multiplayer(&mut self, style: MultiplayerSearch) {
        self.multiplayer = style;
    }

    /// Searches `root` within `limits`, reporting each completed iteration.
    /// `history` holds the keys of the positions before `root` in the game, for
    /// repetitions; `root_moves`, if not empty, the only moves to consider.
    /// Returns early, with the best move found so far, once `signals.stop`
    /// is set.
    #[allow(clippy::too_many_arguments)]
    pub fn search<G: SearchGame>(
        &mut self,
        game: &G,
        root: &G::Position,
        history: &[u64],
        limits: &Limits,
        root_moves: &[G::Move],
        signals: &Signals,
        report: impl FnMut(Progress<'_, G::Move>),
    ) -> SearchResult<G::Move> {
        self.tt.new_search();
        let clock_start = limits.clock_start.unwrap_or_else(Instant::now);
        // Counted once for all threads: a long game costs one pass.
        let mut game_history: HashMap<u64, u32> = HashMap::new();
        if game.repetition_is_draw() {
            for &key in history {
                *game_history.entry(key).or_default() += 1;
            }
        }
        let game_history = &game_history;
        let budget = limits.budget(game.expected_moves_left(root));
        let pondering = signals.pondering.load(Ordering::Relaxed);
        let maxn = self.multiplayer == MultiplayerSearch::MaxN && game.players(root) > 2;
        let shared = Shared::new(
            signals,
            !maxn && self.lines == 1,
            budget.hard.filter(|_| !pondering).map(|hard| clock_start + hard),
        );
        let max_depth =
            limits.depth.filter(|_| !limits.infinite).unwrap_or(MAX_PLY as u32 - 1).clamp(1, MAX_PLY as u32 - 1);
        let (main_history, helper_histories) = self.histories.split_first_mut().expect("at least one thread");
        let helper_histories: &mut [Vec<i32>] = if maxn { &mut [] } else { helper_histories };
        let tt = &self.tt;
        let lines = self.lines;
        let eager_proofs = limits.prove || limits.infinite || limits.mate.is_some();
        // Proofs look at every move: not when some are left out.
        let proofs_wanted = root_moves.is_empty() && lines == 1;
        // Where the game says a thread of its own should prove, the first
        // helper proves the whole search long rather than search a ply
        // ahead; the main thread then iterates without stopping for proofs.
        // Not when asked for nothing but a proof: the main thread tries it
        // first, with every node.
        let helper_proves = proofs_wanted
            && !limits.prove
            && !helper_histories.is_empty()
            && game
                .plies_left_bound(root)
                .is_some_and(|bound| bound <= game.policy().dedicated_proof_horizon || eager_proofs);
        // Whichever thread proves takes the table from here.
        let proof_table = Mutex::new(Some(&mut self.proofs));
        let proof_table = &proof_table;
        #[cfg(test)]
        let spawn_limit = self.spawn_limit;
        std::thread::scope(|scope| {
            let mut helpers_started = 0;
            for (index, history_table) in helper_histories.iter_mut().enumerate() {
                let shared = &shared;
                let helper = move || {
                    shared.wait_at_gate();
                    let mut helper = Run::new(game, tt, history_table, game_history, shared, |_: Progress<G::Move>| {});
                    if index == 0 && helper_proves {
                        helper.proofs = take_proof_table(proof_table);
                        if helper.prove_alongside(root) {
                            return;
                        }
                        helper.proofs = None;
                    }
                    helper.root_moves = root_moves.to_vec();
                    // Helpers spread over the next two depths.
                    helper.ahead = 1 + index as u32 % PARAMS.helper_spread;
                    helper.iterate(root, 1 + helper.ahead, max_depth, false, 1, None);
                };
                #[cfg(test)]
                if spawn_limit.is_some_and(|limit| index >= limit) {
                    log::warn!("search thread {} could not start (test seam)", index + 2);
                    break;
                }
                if let Err(error) = std::thread::Builder::new().spawn_scoped(scope, helper) {
                    // Search on the threads that did start.
                    log::warn!("search thread {} could not start: {error}", index + 2);
                    break;
                }
                helpers_started += 1;
            }
            shared.open_gate();
            let mut main = Run::new(game, tt, main_history, game_history, &shared, report);
            main.started = clock_start;
            main.timer = Timer::new(budget, clock_start, pondering);
            main.helper_proves = helper_proves && helpers_started > 0;
            if !main.helper_proves && proofs_wanted {
                main.proofs = take_proof_table(proof_table);
            }
            main.maxn = maxn;
            main.root_moves = root_moves.to_vec();
            main.eager_proofs = eager_proofs;
            main.prove_first = limits.prove;
            main.node_limit = limits.nodes.filter(|_| !limits.infinite);
            let result = main.iterate(root, 1, max_depth, limits.infinite, lines, limits.mate);
            shared.finished.store(true, Ordering::Relaxed);
            result
        })
    }
}

impl<'a, G: SearchGame, R: FnMut(Progress<'_, G::Move>)> Run<'a, G, R> {
    /// A thread's state with no limits of its own. Its move-ordering
    /// statistics fade from the last search (each thread does its own).
    fn new(
        game: &'a G,
        tt: &'a TranspositionTable,
        history: &'a mut [i32],
        game_history: &'a HashMap<u64, u32>,
        shared: &'a Shared<'a>,
        report: R,
    ) -> Self {
        for value in history.iter_mut() {
            *value /= PARAMS.history_fade;
        }
        Run {
            game,
            policy: game.policy(),
            tt,
            history,
            killers: [[None; 2]; MAX_PLY],
            path: Vec::with_capacity(MAX_PLY),
            game_history,
            // Grown on first use: a crowd of helpers need not fault in pages
            // for plies they never reach.
            move_buffers: (0..MAX_PLY).map(|_| Vec::new()).collect(),
            scored_buffers: (0..MAX_PLY).map(|_| Vec::new()).collect(),
            quiet_buffers: (0..MAX_PLY).map(|_| Vec::new()).collect(),
            pv: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            nodes: 0,
            seldepth: 0,
            started: Instant::now(),
            timer: Timer::unlimited(),
            node_limit: None,
            shared,
            aborted: false,
            report,
            root_player: 0,
            players: 2,
            key_salt: 0,
            proofs: None,
            helper_proves: false,
            eager_proofs: false,
            prove_first: false,
            maxn: false,
            horizon_reached: false,
            root_moves: Vec::new(),
            root_score: None,
            best_line: None,
            ahead: 0,
            overtaken: false,
        }
    }

    /// Takes the root's player as the side whose scores are searched.
    fn set_root(&mut self, root: &G::Position) {
        self.root_player = self.game.mover(root);
        self.players = self.game.players(root);
        self.key_salt = if self.players > 2 { (self.root_player as u64 + 1).wrapping_mul(ROOT_PLAYER_KEY) } else { 0 };
    }

    /// The score as reported. A result at the end of the whole PV counts the
    /// root player's own moves along it, so turns need not alternate; a PV
    /// cut short (by the table) falls back on turns going round.
    fn reported_score(&self, root: &G::Position, score: i32, pv: &[G::Move]) -> Score {
        let plies = MATE - score.abs();
        if score.abs() <= MATE_BOUND || pv.len() != plies as usize {
            return Score::from_internal(score, self.players);
        }
        let mut position = *root;
        let mut own_moves = 0;
        for &mv in pv {
            own_moves += i32::from(self.game.mover(&position) == self.root_player);
            position = self.game.play(&position, mv);
        }
        Score::Mate(if score > 0 { own_moves } else { -own_moves })
    }

    /// Whether `player` is on the root player's side.
    fn with_root(&self, player: usize) -> bool {
        player == self.root_player
    }

    /// The score of a finished game for `mover`'s side, `ply` plies from the root.
    fn outcome_score(&self, winner: Option<usize>, mover: usize, ply: usize) -> i32 {
        match winner {
            None => 0,
            Some(winner) if self.with_root(winner) == self.with_root(mover) => MATE - ply as i32,
            Some(_) => -MATE + ply as i32,
        }
    }

    /// Nodes of all threads, this one's exactly.
    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + self.nodes % PARAMS.poll_interval
    }

    /// Deepens from `first_depth` until a limit, finding `lines` best lines
    /// at each depth (each next one among the moves the earlier ones left).
    /// With `mate`, stops once the side to move has a win in that many own moves.
    fn iterate(
        &mut self,
        root: &G::Position,
        first_depth: u32,
        max_depth: u32,
        infinite: bool,
        lines: usize,
        mate: Option<u32>,
    ) -> SearchResult<G::Move> {
        self.set_root(root);
        let mut legal = Vec::new();
        self.game.legal_moves(root, &mut legal);
        let allowed: Vec<G::Move> = if self.root_moves.is_empty() {
            legal
        } else {
            legal.into_iter().filter(|mv| self.root_moves.contains(mv)).collect()
        };
        let mut best =
            SearchResult { best_move: allowed.first().copied(), score: Score::Centipawns(0), depth: 0, nodes: 0 };
        if allowed.is_empty() {
            best.score = Score::Mate(0);
            return best;
        }
        let lines = lines.min(allowed.len());
        let mut proofs_done = false;
        // Asked for a proof (`solve`): the dedicated search goes first, with
        // every node it needs; the iterations only if it cannot finish.
        if self.prove_first
            && let Some(proof) = self.try_proof(root, u64::MAX, 0)
        {
            best = proof;
            best.nodes = self.total_nodes();
            return best;
        }
        // The best line's score at each depth, for aspiration windows.
        let mut scores: Vec<Option<i32>> = vec![None; max_depth as usize + 1];
        // Whether the last line reported is a proof the search does not play.
        let mut last_proof_line = false;
        let mut next_depth = first_depth;
        'deepening: while next_depth <= max_depth {
            let depth = self.depth_to_search(next_depth).min(max_depth);
            next_depth = depth + 1;
            let mut first_score = 0;
            self.root_moves.clone_from(&allowed);
            // With several lines, this iteration's, reported together once found.
            let mut found_lines: Vec<FoundLine<G::Move>> = Vec::new();
            for line in 1..=lines {
                // Two plies back, not one: the side to move at the leaves is
                // then the same, so an evaluation that leans to one side
                // cannot throw the window off. One ply back measured no
                // better with one that does not: -8.7 +/- 15.6 Elo (standard,
                // 100 ms a move, 800 games).
                let expected = if line == 1 && depth >= 2 { scores[depth as usize - 2] } else { None };
                let score = self.search_root(root, depth, expected);
                if self.helper_proves
                    && self.shared.proof_settles.load(Ordering::Relaxed)
                    && let Some(proof) = self.take_helper_proof(root, best.depth)
                {
                    best = proof;
                    last_proof_line = false;
                    break 'deepening;
                }
                if self.overtaken && !self.shared.signals.stop.load(Ordering::Relaxed) {
                    self.overtaken = false;
                    self.aborted = false;
                    if let Some((depth, score)) = self.adopt_helper_line(root) {
                        best = self.report_line(root, depth, score);
                        first_score = score;
                        scores[depth as usize] = Some(score);
                        next_depth = depth + 1;
                        last_proof_line = false;
                        break;
                    }
                    // The line did not replay (it cannot, short of a bug):
                    // this depth is searched again.
                    next_depth = depth;
                    continue 'deepening;
                }
                if self.aborted {
                    // Root moves are only recorded once fully searched, and
                    // the last best move is searched first: a move found
                    // here is at least as good, and is reported with its
                    // own score at this depth.
                    if line == 1
                        && let Some(score) = self.root_score
                    {
                        best = self.report_line(root, depth, score);
                    } else if let Some(found) = self.report_lines(root, depth, found_lines) {
                        best = found;
                    }
                    break 'deepening;
                }
                if self.ahead > 0 {
                    self.publish_line(depth, score);
                }
                last_proof_line = false;
                let found_move = self.pv[0][0];
                if lines == 1 {
                    best = self.report_line(root, depth, score);
                    first_score = score;
                    scores[depth as usize] = Some(score);
                } else {
                    found_lines.push(FoundLine { score, pv: self.pv[0].clone(), seldepth: self.seldepth });
                    if line == lines {
                        first_score = found_lines.iter().map(|found| found.score).max().unwrap_or(score);
                        scores[depth as usize] = Some(first_score);
                        if let Some(found) = self.report_lines(root, depth, std::mem::take(&mut found_lines)) {
                            best = found;
                        }
                    }
                }
                self.root_moves.retain(|&mv| mv != found_move);
            }
            // With a move in hand, try to settle the game for good, giving
            // the proof a share of the nodes the iterations have had, so
            // proving keeps pace with searching (none while the game's
            // bound on the plies left is beyond its proof horizon: a proof
            // is out of reach there, and its nodes would be the iterations'
            // loss).
            if first_score.abs() <= MATE_BOUND && !proofs_done {
                let share = if self.eager_proofs { PARAMS.eager_proof_share } else { PARAMS.timed_proof_share };
                let budget = share.of_count(self.nodes).max(PARAMS.min_proof_nodes);
                let proof = if self.helper_proves {
                    self.take_helper_proof(root, depth)
                } else {
                    self.try_proof(root, budget, depth)
                };
                if let Some(proof) = proof {
                    let won = matches!(proof.score, Score::Mate(moves) if moves > 0);
                    // Lost against a coalition of the others is not lost
                    // against each of them: look on for the best practical
                    // move. Otherwise the proof is played: the win, or the
                    // longest resistance.
                    if won || self.players == 2 {
                        best = proof;
                        break;
                    }
                    proofs_done = true;
                    last_proof_line = true;
                }
            }
            let mate_found =
                matches!((best.score, mate), (Score::Mate(moves), Some(limit)) if moves > 0 && moves as u32 <= limit);
            // A max-n tree that ends everywhere before the depth is complete.
            let proven = (first_score.abs() > MATE_BOUND || (self.maxn && !self.horizon_reached)) && !infinite;
            if proven || mate_found || self.timer.past_soft(self.shared.signals) {
                break;
            }
        }
        // The last line reported is the one the move played comes from.
        if last_proof_line && let Some(mut line) = self.best_line.take() {
            line.nodes = self.total_nodes();
            line.elapsed = self.started.elapsed();
            (self.report)(Progress::Line(&line));
        }
        // `go infinite` and pondering wait for `stop` (or `ponderhit`) even
        // after the last depth.
        while (infinite || self.shared.signals.pondering.load(Ordering::Relaxed))
            && !self.shared.signals.stop.load(Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        best.nodes = self.total_nodes();
        best
    }

    /// One search of the root among `root_moves` to `depth`; leaves the line in `pv[0]`.
    /// With `expected`, the score an earlier iteration found, the search
    /// looks first in a narrow window around it (an aspiration window),
    /// and widens it on the side the score falls out of.
    fn search_root(&mut self, root: &G::Position, depth: u32, expected: Option<i32>) -> i32 {
        self.seldepth = 0;
        self.horizon_reached = false;
        self.root_score = None;
        if self.maxn {
            return self.maxn(root, depth as i32, 0)[self.root_player];
        }
        let Some(expected) = expected.filter(|score| score.abs() <= MATE_BOUND && depth >= PARAMS.aspiration_depth)
        else {
            return self.negamax(root, depth as i32, -INFINITY, INFINITY, 0);
        };
        let mut margin = PARAMS.aspiration_margin;
        let (mut alpha, mut beta) = (expected - margin, expected + margin);
        loop {
            // A move recorded by an attempt that failed is not one of this attempt's.
            self.root_score = None;
            let score = self.negamax(root, depth as i32, alpha, beta, 0);
            if self.aborted || (score > alpha && score < beta) {
                return score;
            }
            margin *= 2;
            if score <= alpha {
                alpha = if margin > PARAMS.aspiration_limit { -INFINITY } else { (score - margin).max(-INFINITY) };
            } else {
                beta = if margin > PARAMS.aspiration_limit { INFINITY } else { (score + margin).min(INFINITY) };
            }
        }
    }

    /// Reports `pv[0]` with `score` as the best line at `depth`, and
    /// returns it as a result.
    fn report_line(&mut self, root: &G::Position, depth: u32, score: i32) -> SearchResult<G::Move> {
        let found = FoundLine { score, pv: self.pv[0].clone(), seldepth: self.seldepth };
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
    fn report_found(
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
            nodes: self.total_nodes(),
        };
        let report = Report {
            multipv: line,
            depth,
            seldepth,
            score: result.score,
            nodes: result.nodes,
            elapsed: self.started.elapsed(),
            hashfull: self.tt.hashfull(),
            pv,
        };
        (self.report)(Progress::Line(&report));
        (result, report)
    }

    /// Whether reaching `key` here draws by repetition: a second occurrence
    /// within the search counts (the usual shortcut: the side that can
    /// repeat could as well repeat again), but against the game before the
    /// root the rule applies as written, at the third occurrence.
    fn is_repetition_draw(&self, key: u64) -> bool {
        self.game.repetition_is_draw()
            && (self.path.contains(&key) || self.game_history.get(&key).is_some_and(|&count| count >= 2))
    }

    /// Tells the caller which root move is searched now, once the search
    /// has run for a while.
    fn announce(&mut self, mv: G::Move, number: usize, depth: u32) {
        if self.started.elapsed() >= PARAMS.current_move_after {
            (self.report)(Progress::CurrentMove { depth, mv, number });
        }
    }

    /// Counts a node; every `poll_interval` nodes publishes the count and
    /// looks at the clock and the stop flags. Returns whether to stop.
    fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(PARAMS.poll_interval) {
            self.shared.nodes.fetch_add(PARAMS.poll_interval, Ordering::Relaxed);
            let over_time = self.timer.past_hard(self.shared.signals)
                || self.shared.deadline.is_some_and(|deadline| Instant::now() >= deadline);
            self.overtaken = self.ahead == 0
                && self.shared.adopt_helper_lines
                && self.shared.helper_depth.load(Ordering::Relaxed) >= self.shared.main_depth.load(Ordering::Relaxed);
            self.aborted |= over_time
                || self.overtaken
                || (self.helper_proves && self.shared.proof_settles.load(Ordering::Relaxed))
                || self.shared.signals.stop.load(Ordering::Relaxed)
                || self.shared.finished.load(Ordering::Relaxed);
        }
        if self.node_limit.is_some_and(|limit| self.total_nodes() >= limit) {
            self.aborted = true;
        }
        self.aborted
    }

    fn negamax(&mut self, position: &G::Position, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        let stopping = self.count_node();
        self.seldepth = self.seldepth.max(ply as u32);
        if ply > 0 && stopping {
            return 0;
        }
        let key = self.game.hash(position);
        let mover = self.game.mover(position);
        if ply > 0 {
            if self.game.is_draw(position) {
                return 0;
            }
            if self.is_repetition_draw(key) {
                return 0;
            }
        }

        if depth <= 0 || ply >= MAX_PLY - 1 {
            return match self.game.evaluate(position, self.root_player) {
                Some(score) if self.with_root(mover) => score,
                Some(score) => -score,
                None => self.outcome_score(self.game.winner(position), mover, ply),
            };
        }

        let pv_node = beta - alpha > 1;
        let tt_key = key ^ self.key_salt;
        let entry = self.tt.probe(tt_key);
        let tt_move =
            entry.and_then(|e| e.best_move).and_then(G::move_from_bits).filter(|&mv| self.game.is_legal(position, mv));
        // A won or lost game is one at any depth: only terminal positions give such scores.
        if let Some(entry) = entry
            && ply > 0
            && !pv_node
            && (entry.depth as i32 >= depth || entry.score.abs() > MATE_BOUND)
        {
            let score = score_from_tt(entry.score, ply);
            let usable = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if usable {
                return score;
            }
        }

        // Far above beta with few plies left, a node is taken to hold its
        // lead (reverse futility pruning); not against a won or lost game's
        // score. Far below alpha, only its likeliest moves are tried
        // (futility pruning), where the game gains from it.
        let mut futile = false;
        if !pv_node
            && ply > 0
            && depth <= PARAMS.futility_depth
            && beta.abs() < MATE_BOUND
            && let Some(score) = self.game.evaluate(position, self.root_player)
        {
            let static_score = if self.with_root(mover) { score } else { -score };
            if static_score - PARAMS.futility_margin * depth >= beta {
                return static_score;
            }
            futile = self.policy.futility_pruning && static_score + PARAMS.futility_margin * depth <= alpha;
        }

        // Moves come in stages: the table's move and the killers are tried
        // before any list is made, since most cut-offs come from them.
        let mut picker = MovePicker::new(
            if ply == 0 { None } else { tt_move },
            if ply == 0 { [None; 2] } else { self.killers[ply] },
            mover,
        );
        let mut scored = std::mem::take(&mut self.scored_buffers[ply]);
        scored.clear();
        let mut quiets = std::mem::take(&mut self.quiet_buffers[ply]);
        quiets.clear();
        // The root searches only the moves asked for; its value is then not
        // the position's, and is not stored.
        let mut partial_root = false;

        self.path.push(key);
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut index = 0;
        // Once the first move has failed to cut off, each move is picked
        // one ahead, and its child's table slot fetched while the previous
        // child's subtree is searched.
        let mut upcoming: Option<(G::Move, i32)> = None;
        let mut child_slot: Option<G::Position> = None;
        while let Some((mv, move_score)) =
            upcoming.take().or_else(|| self.pick(&mut picker, position, &mut scored, tt_move, ply, &mut partial_root))
        {
            // Late quiet moves near the leaves are not searched at all (late
            // move pruning): history puts the likely ones first. At a futile
            // node no quiet move is searched after the first.
            let late = !pv_node
                && ply > 0
                && depth <= PARAMS.late_moves_depth
                && index >= (PARAMS.late_moves_base + PARAMS.late_moves_slope * depth * depth) as usize;
            if (late || (futile && index > 0)) && move_score < KILLER_SCORE && best_score > -MATE_BOUND {
                break;
            }
            // The first child's table slot is fetched while it is made;
            // later ones were fetched a move ahead (below).
            if index == 0
                && depth > 1
                && let Some(key) = self.game.child_hash_hint(position, mv)
            {
                self.tt.prefetch(key ^ self.key_salt);
            }
            // One child a node, written over by each move after the first.
            let child: &G::Position = match &mut child_slot {
                Some(child) => {
                    self.game.play_into(position, mv, child);
                    child
                }
                None => child_slot.insert(self.game.play(position, mv)),
            };
            if ply == 0 {
                self.announce(mv, index + 1, depth as u32);
            }
            let same_side = self.with_root(self.game.mover(child)) == self.with_root(mover);
            if index > 0
                && let Some((next, next_score)) =
                    self.pick(&mut picker, position, &mut scored, tt_move, ply, &mut partial_root)
            {
                if depth > 1
                    && let Some(key) = self.game.child_hash_hint(position, next)
                {
                    self.tt.prefetch(key ^ self.key_salt);
                }
                upcoming = Some((next, next_score));
            }
            let score = if index == 0 {
                self.search_child(child, same_side, depth - 1, alpha, beta, ply + 1)
            } else {
                // Late moves of a well-ordered list rarely matter: look at them
                // shallower first and search again only if they surprise.
                let quiet = move_score < KILLER_SCORE;
                let reducible = quiet && depth >= PARAMS.reduction_depth && index >= PARAMS.reduction_index;
                let reduction = if reducible { late_move_reduction(depth, index) } else { 0 };
                let mut score = self.search_child(child, same_side, depth - 1 - reduction, alpha, alpha + 1, ply + 1);
                if reduction > 0 && score > alpha {
                    score = self.search_child(child, same_side, depth - 1, alpha, alpha + 1, ply + 1);
                }
                if score > alpha && score < beta {
                    score = self.search_child(child, same_side, depth - 1, alpha, beta, ply + 1);
                }
                score
            };
            index += 1;
            if self.aborted {
                break;
            }
            if self.policy.history_malus && move_score < KILLER_SCORE && score < beta {
                quiets.push(mv);
            }
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if ply == 0 {
                        self.root_score = Some(score);
                    }
                    if score >= beta {
                        self.reward(mv, mover, depth, ply);
                        if self.policy.history_malus {
                            self.punish(&quiets, mover, depth);
                        }
                        break;
                    }
                }
            }
        }
        if index == 0 && !self.aborted {
            // No legal move at all: the game is over here.
            self.scored_buffers[ply] = scored;
            self.quiet_buffers[ply] = quiets;
            self.path.pop();
            return self.outcome_score(self.game.winner(position), mover, ply);
        }
        self.scored_buffers[ply] = scored;
        self.quiet_buffers[ply] = quiets;
        self.path.pop();
        if self.aborted {
            return 0;
        }

        if partial_root {
            return best_score;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            tt_key,
            Entry {
                depth: depth as u8,
                bound,
                score: score_to_tt(best_score, ply),
                best_move: best_move.map(G::move_to_bits),
            },
        );
        best_score
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
}

/// Spreads the root player over table keys (multi-player searches only).
const ROOT_PLAYER_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

/// Plies to cut from a late move's search (from `reduction_depth` and move
/// index 1): more for later moves and deeper searches.
fn late_move_reduction(depth: i32, index: usize) -> i32 {
    match REDUCTIONS.get(depth as usize).and_then(|row| row.get(index)) {
        Some(&reduction) => i32::from(reduction),
        None => reduction_formula(depth, index),
    }
}

fn reduction_formula(depth: i32, index: usize) -> i32 {
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
const REDUCTION_TABLE: usize = 64;

/// Mate scores are stored as distances from the node, read back relative to the root.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests;
