//! Iterative deepening negamax with principal variation search, a
//! transposition table, killer and history move ordering. Game-agnostic:
//! it sees the game only through `SearchGame`.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Condvar, LazyLock, Mutex};
use std::time::{Duration, Instant};

use super::game::{Outcome, SearchGame};
use super::limits::{Limits, Signals, TimeBudget};
use super::solver::{PROOF_TABLE_SHARE, ProofTable, Proven, Prover, Unproven, proved_move};
use super::tt::{Bound, Entry, TranspositionTable};

mod maxn;
pub use maxn::{MAXN_WIN, MultiplayerSearch, UnknownMultiplayerSearch};

/// The score of a won game at the root; a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are wins or losses, not evaluations.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INFINITY: i32 = MATE + 1;
const MAX_PLY: usize = 128;
/// After each iteration a proof may take a share of the nodes searched so
/// far (and at least `MIN_PROOF_NODES`), so proving keeps pace with
/// searching: an equal share when asked to prove (`go infinite`, `go
/// mate`), half otherwise, and none while the game's bound on the plies
/// left is beyond its `proof_horizon` (a proof is out of reach there, and
/// its nodes would be the iterations' loss). Under a clock a proof also
/// stops once it has taken as long as the iterations before it, since its
/// nodes cost more than theirs.
const MIN_PROOF_NODES: u64 = 20_000;
/// Aspiration windows: from this depth, a first window of this many units
/// either side of the expected score, doubled each time the score falls
/// out, and given up for the full window past the limit.
const ASPIRATION_DEPTH: u32 = 5;
const ASPIRATION_MARGIN: i32 = 60;
const ASPIRATION_LIMIT: i32 = 1000;
/// Reverse futility pruning: a node this many plies from the leaves or
/// fewer, whose static score is above beta by this margin per ply, is taken
/// to fail high without a search.
const FUTILITY_DEPTH: i32 = 3;
const FUTILITY_MARGIN: i32 = 60;
/// Late move pruning: at this many plies from the leaves or fewer, only the
/// first `LATE_MOVES_BASE + LATE_MOVES_SLOPE * depth²` moves are searched
/// (the table move and killers always).
const LATE_MOVES_DEPTH: i32 = 3;
const LATE_MOVES_BASE: i32 = 6;
const LATE_MOVES_SLOPE: i32 = 3;
/// How many nodes pass between looks at the clock and the stop flag. Small
/// enough that a thread with a small share of a crowded machine still
/// looks often.
const POLL_INTERVAL: u64 = 256;
/// Root moves are announced (`Progress::CurrentMove`) only after this long,
/// so short searches are not flooded.
const CURRENT_MOVE_AFTER: Duration = Duration::from_secs(1);

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

/// History is kept per seat, as a move's worth depends on who makes it
/// (Pods' notation names the same placement for either side); seats past
/// the last share its table.
const HISTORY_SEATS: usize = 4;
const HISTORY_SIZE: usize = HISTORY_SEATS << 16;

/// Where a move's history score is kept: by the seat making it and its bits.
fn history_slot(mover: usize, bits: u16) -> usize {
    mover.min(HISTORY_SEATS - 1) << 16 | usize::from(bits)
}

/// What the threads of one search share besides the table.
struct Shared<'a> {
    /// The caller's stop and ponder flags.
    signals: &'a Signals,
    /// Set by the main thread when it is done, to stop the helpers.
    finished: AtomicBool,
    /// The depth the main thread is searching.
    main_depth: AtomicU32,
    /// Nodes of all threads, added in steps of `POLL_INTERVAL`.
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
    /// When the clock began: at the start, or when pondering ended.
    clock_started: Instant,
    /// Pondering: no time limit yet.
    pondering: bool,
    budget: TimeBudget,
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
            proofs: ProofTable::new(hash_megabytes / PROOF_TABLE_SHARE),
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
        self.proofs = ProofTable::new(hash_megabytes / PROOF_TABLE_SHARE);
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
            && game.plies_left_bound(root).is_some_and(|bound| bound <= game.dedicated_proof_horizon() || eager_proofs);
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
                    helper.ahead = 1 + index as u32 % 2;
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
            main.clock_started = clock_start;
            main.helper_proves = helper_proves && helpers_started > 0;
            if !main.helper_proves && proofs_wanted {
                main.proofs = take_proof_table(proof_table);
            }
            main.maxn = maxn;
            main.root_moves = root_moves.to_vec();
            main.pondering = pondering;
            main.eager_proofs = eager_proofs;
            main.prove_first = limits.prove;
            main.budget = budget;
            main.node_limit = limits.nodes.filter(|_| !limits.infinite);
            let result = main.iterate(root, 1, max_depth, limits.infinite, lines, limits.mate);
            shared.finished.store(true, Ordering::Relaxed);
            result
        })
    }
}

/// The proof table, to the one thread that asks first.
fn take_proof_table<'t>(slot: &Mutex<Option<&'t mut ProofTable>>) -> Option<&'t mut ProofTable> {
    slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take()
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
            *value /= 8;
        }
        Run {
            game,
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
            clock_started: Instant::now(),
            pondering: false,
            budget: TimeBudget { soft: None, hard: None },
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
    fn outcome_score(&self, outcome: Outcome, mover: usize, ply: usize) -> i32 {
        match outcome {
            Outcome::Draw => 0,
            Outcome::Win(winner) if self.with_root(winner) == self.with_root(mover) => MATE - ply as i32,
            Outcome::Win(_) => -MATE + ply as i32,
        }
    }

    /// Nodes of all threads, this one's exactly.
    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + self.nodes % POLL_INTERVAL
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
                // better with one that does not (README, the odd/even swing).
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
            // the proof a share of the nodes the iterations have had.
            if first_score.abs() <= MATE_BOUND && !proofs_done {
                let budget = if self.eager_proofs { self.nodes } else { self.nodes / 2 }.max(MIN_PROOF_NODES);
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
            let soft = self.budget.soft;
            if proven || mate_found || self.past(soft) {
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

    /// Takes over the helpers' deepest line as this thread's `pv[0]`, if it
    /// is deeper than the iteration it cut short and its moves are legal
    /// from the root; returns its depth and score. A line that is not taken
    /// over is dropped, so it does not cut the next iteration short again.
    fn adopt_helper_line(&mut self, root: &G::Position) -> Option<(u32, i32)> {
        let mut offered = self.shared.helper_line.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let adopted = self.replay_helper_line(root, offered.as_ref());
        if adopted.is_none() {
            *offered = None;
            self.shared.helper_depth.store(0, Ordering::Relaxed);
        }
        adopted
    }

    fn replay_helper_line(&mut self, root: &G::Position, line: Option<&HelperLine>) -> Option<(u32, i32)> {
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
    fn legal_prefix(&self, root: &G::Position, packed: &[u16]) -> Vec<G::Move> {
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
    fn depth_to_search(&self, planned: u32) -> u32 {
        let main_depth = &self.shared.main_depth;
        if self.ahead > 0 {
            planned.max(main_depth.load(Ordering::Relaxed) + self.ahead)
        } else {
            main_depth.store(planned, Ordering::Relaxed);
            planned
        }
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
        let Some(expected) = expected.filter(|score| score.abs() <= MATE_BOUND && depth >= ASPIRATION_DEPTH) else {
            return self.negamax(root, depth as i32, -INFINITY, INFINITY, 0);
        };
        let mut margin = ASPIRATION_MARGIN;
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
                alpha = if margin > ASPIRATION_LIMIT { -INFINITY } else { (score - margin).max(-INFINITY) };
            } else {
                beta = if margin > ASPIRATION_LIMIT { INFINITY } else { (score + margin).min(INFINITY) };
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

    /// Whether the clock has passed `limit`. While the search ponders no
    /// limit runs; the clock starts when pondering ends.
    fn past(&mut self, limit: Option<Duration>) -> bool {
        if self.pondering {
            if self.shared.signals.pondering.load(Ordering::Relaxed) {
                return false;
            }
            self.pondering = false;
            self.clock_started = Instant::now();
        }
        limit.is_some_and(|limit| self.clock_started.elapsed() >= limit)
    }

    /// Where the game bounds its length, tries to prove who wins with at
    /// most `budget` nodes (proved positions are kept, so each attempt goes
    /// on from the last), and reports a proof found. A proved win ends the
    /// search: no iteration improves on it.
    fn try_proof(&mut self, root: &G::Position, budget: u64, depth: u32) -> Option<SearchResult<G::Move>> {
        let bound = self.game.plies_left_bound(root)?;
        if bound > self.game.proof_horizon() && !self.eager_proofs {
            return None;
        }
        let signals = self.shared.signals;
        // Pondering, the budget of nodes is the only limit.
        let hard = if self.pondering { None } else { self.budget.hard };
        let clock_started = self.clock_started;
        let searched_for = clock_started.elapsed();
        let share = if self.eager_proofs { searched_for } else { searched_for / 2 };
        let time_cap = (hard.is_some() && budget != u64::MAX).then(|| Instant::now() + share);
        let mut interrupt = |nodes: u64| {
            nodes >= budget
                || signals.stop.load(Ordering::Relaxed)
                || hard.is_some_and(|hard| clock_started.elapsed() >= hard)
                || time_cap.is_some_and(|cap| Instant::now() >= cap)
        };
        let (proved, nodes) = self.prove_root(root, &mut interrupt)?;
        self.shared.nodes.fetch_add(nodes, Ordering::Relaxed);
        let proven = proved.ok()?;
        let pv = self.proof_line(root);
        Some(self.report_proof(root, proven, pv, depth))
    }

    /// A helper's search where proofs are worth trying: one proof, the whole
    /// search long, rather than shares of the nodes between iterations.
    /// Offers the proof found to the main thread. Returns whether this
    /// thread is done: not when the proof met a draw, which it cannot weigh,
    /// nor when it proved a loss the main thread looks past (against a
    /// coalition); the thread then searches ahead like the other helpers.
    fn prove_alongside(&mut self, root: &G::Position) -> bool {
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
        let Some((proved, nodes)) = self.prove_root(root, &mut interrupt) else { return false };
        shared.nodes.fetch_add(nodes - counted, Ordering::Relaxed);
        let proven = match proved {
            Ok(proven) => proven,
            Err(Unproven::Interrupted) => return true,
            Err(Unproven::Draw) => return false,
        };
        let pv = self.proof_line(root).into_iter().map(G::move_to_bits).collect();
        *shared.helper_proof.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(HelperProof { proven, pv });
        // Won, or lost with no coalition to look past: the move to play.
        let settles = proven.mover_wins || self.players == 2;
        shared.proof_settles.store(settles, Ordering::Relaxed);
        settles
    }

    /// Runs the prover on `root`, the root player's allies counting as one
    /// side, until `interrupt` stops it; `None` without a proof table.
    /// Returns what it proved and the nodes it visited.
    fn prove_root(
        &mut self,
        root: &G::Position,
        interrupt: &mut dyn FnMut(u64) -> bool,
    ) -> Option<(Result<Proven, Unproven>, u64)> {
        let root_player = self.root_player;
        let same_side = move |a, b| (a == root_player) == (b == root_player);
        let proofs = self.proofs.as_deref_mut()?;
        let mut prover = Prover::new(self.game, proofs, &same_side, self.key_salt, interrupt);
        let proved = prover.prove(root);
        Some((proved, prover.nodes))
    }

    /// Reports the proof a helper offered, if any, as `try_proof` reports its own.
    fn take_helper_proof(&mut self, root: &G::Position, depth: u32) -> Option<SearchResult<G::Move>> {
        let offered = self.shared.helper_proof.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take()?;
        let pv = self.legal_prefix(root, &offered.pv);
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
        let seldepth = self.seldepth.max(proven.plies);
        // Not kept as the best line: a proof that is not played gives way
        // to the iterations' line at the end.
        self.report_found(root, 1, depth, FoundLine { score, pv, seldepth }).0
    }

    /// The proof's line: the winner's proved moves, the loser's longest resistance.
    fn proof_line(&self, root: &G::Position) -> Vec<G::Move> {
        let Some(proofs) = self.proofs.as_deref() else { return Vec::new() };
        let mut line = Vec::new();
        let mut position = *root;
        while let Some(mv) =
            proved_move(self.game, &position, proofs, self.key_salt).filter(|&mv| self.game.is_legal(&position, mv))
        {
            line.push(mv);
            position = self.game.play(&position, mv);
        }
        line
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
        if self.started.elapsed() >= CURRENT_MOVE_AFTER {
            (self.report)(Progress::CurrentMove { depth, mv, number });
        }
    }

    /// Counts a node; every `POLL_INTERVAL` nodes publishes the count and
    /// looks at the clock and the stop flags. Returns whether to stop.
    fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_INTERVAL) {
            self.shared.nodes.fetch_add(POLL_INTERVAL, Ordering::Relaxed);
            let hard = self.budget.hard;
            let over_time = self.past(hard) || self.shared.deadline.is_some_and(|deadline| Instant::now() >= deadline);
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
                None => self.outcome_score(self.game.final_outcome(position), mover, ply),
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
        // lead (reverse futility pruning); not against a won or lost game's score.
        if !pv_node
            && ply > 0
            && depth <= FUTILITY_DEPTH
            && beta.abs() < MATE_BOUND
            && let Some(score) = self.game.evaluate(position, self.root_player)
        {
            let static_score = if self.with_root(mover) { score } else { -score };
            if static_score - FUTILITY_MARGIN * depth >= beta {
                return static_score;
            }
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
            // move pruning): history puts the likely ones first.
            if !pv_node
                && ply > 0
                && depth <= LATE_MOVES_DEPTH
                && index >= (LATE_MOVES_BASE + LATE_MOVES_SLOPE * depth * depth) as usize
                && move_score < KILLER_SCORE
                && best_score > -MATE_BOUND
            {
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
                let reducible = quiet && depth >= 3 && index >= 3;
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
            if self.game.history_malus() && move_score < KILLER_SCORE && score < beta {
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
                        if self.game.history_malus() {
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
            return self.outcome_score(self.game.final_outcome(position), mover, ply);
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

    /// The next move to search at this node and its ordering score: the
    /// table's move, then the killers that are legal here, then the rest of
    /// the generated moves, best first. Moves are generated only when the
    /// first stages are used up.
    fn pick(
        &mut self,
        picker: &mut MovePicker<G::Move>,
        position: &G::Position,
        scored: &mut Vec<(i32, G::Move)>,
        tt_move: Option<G::Move>,
        ply: usize,
        partial_root: &mut bool,
    ) -> Option<(G::Move, i32)> {
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
                    let mut moves = std::mem::take(&mut self.move_buffers[ply]);
                    moves.clear();
                    self.game.legal_moves(position, &mut moves);
                    if ply == 0 {
                        let generated = moves.len();
                        moves.retain(|mv| self.root_moves.contains(mv));
                        *partial_root = moves.len() < generated;
                    }
                    let tried = [picker.table_move, picker.tried[0], picker.tried[1]];
                    moves.retain(|mv| !tried.contains(&Some(*mv)));
                    self.score_moves(position, picker.mover, &moves, scored, tt_move, ply);
                    self.move_buffers[ply] = moves;
                }
                Stage::Rest => {
                    if picker.next >= scored.len() {
                        return None;
                    }
                    order_next(scored, picker.next);
                    let (score, mv) = scored[picker.next];
                    picker.next += 1;
                    return Some((mv, score));
                }
            }
        }
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

    /// The table move first, then killers, then by history and the game's hint.
    fn score_moves(
        &self,
        position: &G::Position,
        mover: usize,
        moves: &[G::Move],
        scored: &mut Vec<(i32, G::Move)>,
        tt_move: Option<G::Move>,
        ply: usize,
    ) {
        let killers = self.killers[ply];
        scored.clear();
        scored.extend(moves.iter().map(|&mv| {
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
    fn punish(&mut self, quiets: &[G::Move], mover: usize, depth: i32) {
        for &mv in quiets {
            let slot = &mut self.history[history_slot(mover, G::move_to_bits(mv))];
            *slot = (*slot - depth * depth).max(-HISTORY_MAX);
        }
    }

    /// A move that caused a cut-off becomes a killer and gains history.
    fn reward(&mut self, mv: G::Move, mover: usize, depth: i32, ply: usize) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let slot = &mut self.history[history_slot(mover, G::move_to_bits(mv))];
        *slot = (*slot + depth * depth).min(HISTORY_MAX);
    }
}

/// Where a node is in handing out its moves (see `Run::pick`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    Table,
    Killer(usize),
    Generate,
    Rest,
}

struct MovePicker<M> {
    stage: Stage,
    table_move: Option<M>,
    killers: [Option<M>; 2],
    /// The killers handed out, so the generated list skips them.
    tried: [Option<M>; 2],
    /// The next generated move to hand out.
    next: usize,
    /// Who moves at the node: history is kept by seat.
    mover: usize,
}

impl<M: Copy> MovePicker<M> {
    fn new(table_move: Option<M>, killers: [Option<M>; 2], mover: usize) -> Self {
        MovePicker { stage: Stage::Table, table_move, killers, tried: [None; 2], next: 0, mover }
    }
}

/// How many threads the machine runs at once.
pub fn hardware_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |count| count.get())
}

const TT_MOVE_SCORE: i32 = i32::MAX;
/// Spreads the root player over table keys (multi-player searches only).
const ROOT_PLAYER_KEY: u64 = 0x9e37_79b9_7f4a_7c15;
/// Above any history score, which is capped at `HISTORY_MAX`.
const KILLER_SCORE: i32 = HISTORY_MAX + 1;
const HISTORY_MAX: i32 = 1 << 20;

/// How many moves are picked one by one by a swap, which is cheapest.
const PICKED_MOVES: usize = 4;
/// How many moves are handed out before the rest is sorted at once: late
/// move pruning stops most nodes near the leaves before this, and a sort of
/// a hundred moves would then be wasted.
const EXTRACTED_MOVES: usize = 12;

/// Brings the next move to try to `index`: the first few by picking the best
/// (a cut-off usually comes early), then by taking out the best while the
/// rest keep their order, and the rest by one stable sort, which hands out
/// what further extraction would.
fn order_next<M: Copy>(scored: &mut [(i32, M)], index: usize) {
    if index < EXTRACTED_MOVES {
        // Two passes, each of which the compiler turns into vector code.
        let rest = &scored[index..];
        let top = rest.iter().fold(i32::MIN, |top, &(score, _)| top.max(score));
        let best = index + rest.iter().position(|&(score, _)| score == top).unwrap_or(0);
        if index < PICKED_MOVES {
            scored.swap(index, best);
        } else {
            scored[index..=best].rotate_right(1);
        }
    } else if index == EXTRACTED_MOVES {
        scored[index..].sort_by_key(|&(score, _)| std::cmp::Reverse(score));
    }
}

/// Plies to cut from a late move's search (from depth 3 and move index 1):
/// more for later moves and deeper searches.
fn late_move_reduction(depth: i32, index: usize) -> i32 {
    match REDUCTIONS.get(depth as usize).and_then(|row| row.get(index)) {
        Some(&reduction) => i32::from(reduction),
        None => reduction_formula(depth, index),
    }
}

fn reduction_formula(depth: i32, index: usize) -> i32 {
    let reduction = 0.5 + (depth as f64).ln() * (index as f64).ln() / 2.5;
    (reduction as i32).clamp(1, depth - 2)
}

/// The reductions of the depths and move indices most nodes have, worked
/// out once: two logarithms a late move cost more than the lookup.
static REDUCTIONS: LazyLock<[[u8; REDUCTION_TABLE]; REDUCTION_TABLE]> = LazyLock::new(|| {
    std::array::from_fn(|depth| {
        std::array::from_fn(
            |index| if depth < 3 || index < 1 { 0 } else { reduction_formula(depth as i32, index) as u8 },
        )
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
mod tests {
    use super::*;

    /// Second games for the search: one pile of stones, the player to move
    /// takes 1 to 3, and the player who cannot take has lost. With
    /// `again_after_three`, taking 3 gives the same player another turn, so
    /// the mover does not change every ply.
    struct Subtraction {
        again_after_three: bool,
    }

    #[derive(Clone, Copy, Debug)]
    struct Pile {
        stones: u8,
        mover: usize,
    }

    impl SearchGame for Subtraction {
        type Position = Pile;
        type Move = u8;

        fn hash(&self, pile: &Pile) -> u64 {
            (pile.stones as u64 * 2 + pile.mover as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        }

        fn players(&self, _: &Pile) -> usize {
            2
        }

        fn mover(&self, pile: &Pile) -> usize {
            pile.mover
        }

        fn legal_moves(&self, pile: &Pile, moves: &mut Vec<u8>) {
            moves.extend((1..=3).filter(|&take| take <= pile.stones));
        }

        fn play(&self, pile: &Pile, take: u8) -> Pile {
            let again = self.again_after_three && take == 3;
            Pile { stones: pile.stones - take, mover: if again { pile.mover } else { 1 - pile.mover } }
        }

        fn is_legal(&self, pile: &Pile, take: u8) -> bool {
            (1..=3).contains(&take) && take <= pile.stones
        }

        fn final_outcome(&self, pile: &Pile) -> Outcome {
            Outcome::Win(1 - pile.mover)
        }

        fn evaluate(&self, pile: &Pile, _: usize) -> Option<i32> {
            (pile.stones > 0).then_some(0)
        }

        fn is_draw(&self, _: &Pile) -> bool {
            false
        }

        fn repetition_is_draw(&self) -> bool {
            false
        }

        fn expected_moves_left(&self, pile: &Pile) -> u32 {
            pile.stones as u32 / 4 + 1
        }

        fn move_to_bits(take: u8) -> u16 {
            take as u16
        }

        fn move_from_bits(bits: u16) -> Option<u8> {
            u8::try_from(bits).ok()
        }
    }

    fn solve(game: &Subtraction, stones: u8, mover: usize, threads: usize) -> SearchResult<u8> {
        let mut searcher = Searcher::new(1);
        searcher.set_threads(threads);
        let limits = Limits { depth: Some(40), ..Limits::default() };
        searcher.search(game, &Pile { stones, mover }, &[], &limits, &[], &Signals::default(), |_| {})
    }

    #[test]
    fn reductions_from_the_table_are_the_formula_s() {
        for depth in 3..REDUCTION_TABLE as i32 + 2 {
            for index in 3..REDUCTION_TABLE + 2 {
                assert_eq!(late_move_reduction(depth, index), reduction_formula(depth, index), "{depth} {index}");
            }
        }
        assert!(late_move_reduction(20, 30) > late_move_reduction(4, 3));
    }

    #[test]
    fn moves_are_handed_out_best_first_and_ties_in_order_after_the_picked_ones() {
        use rand_xoshiro::Xoshiro256PlusPlus;
        use rand_xoshiro::rand_core::{Rng, SeedableRng};
        let mut random = Xoshiro256PlusPlus::seed_from_u64(11);
        for length in [1, 3, PICKED_MOVES + 1, EXTRACTED_MOVES, EXTRACTED_MOVES + 1, 40, 150] {
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
            if length > PICKED_MOVES {
                // Once the swaps are over, equal scores keep their order.
                let rest = &scored[PICKED_MOVES..];
                let before_rest: Vec<usize> = {
                    let mut reordered = generated.clone();
                    for index in 0..PICKED_MOVES {
                        order_next(&mut reordered, index);
                    }
                    reordered[PICKED_MOVES..].iter().map(|&(_, place)| place).collect()
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

    #[test]
    fn the_search_plays_a_second_game_perfectly_with_exact_mate_distances() {
        let game = Subtraction { again_after_three: false };
        for threads in [1, 2] {
            for pile in 1..=21u8 {
                let result = solve(&game, pile, (pile % 2) as usize, threads);
                if pile % 4 == 0 {
                    // Every move loses; the loser makes pile / 4 moves first.
                    assert_eq!(result.score, Score::Mate(-(pile as i32 / 4)), "pile {pile}, {threads} threads");
                } else {
                    assert_eq!(result.best_move, Some(pile % 4), "pile {pile}, {threads} threads");
                    assert_eq!(result.score, Score::Mate(pile as i32 / 4 + 1), "pile {pile}, {threads} threads");
                }
            }
            assert_eq!(solve(&game, 0, 0, threads).best_move, None);
        }
    }

    #[test]
    fn the_main_thread_takes_over_a_deeper_line_a_helper_completed() {
        let game = Subtraction { again_after_three: false };
        let table = TranspositionTable::new(1);
        let mut history = vec![0; HISTORY_SIZE];
        let game_history = HashMap::new();
        let signals = Signals::default();
        // As if a helper had completed depth 60 and found taking 3 worth 7.
        let shared = Shared {
            helper_depth: AtomicU32::new(60),
            helper_line: Mutex::new(Some(HelperLine { depth: 60, seldepth: 61, score: 7, pv: vec![3] })),
            ..Shared::new(&signals, true, None)
        };
        let mut reported = Vec::new();
        let mut main = Run::new(&game, &table, &mut history, &game_history, &shared, |progress| {
            if let Progress::Line(line) = progress {
                reported.push((line.depth, line.seldepth, line.pv.clone()));
            }
        });
        // Without the helper, the search would take 1 (201 is 1 more than
        // a multiple of 4) and go on to depth 60 by itself.
        let result = main.iterate(&Pile { stones: 201, mover: 0 }, 1, 60, false, 1, None);
        drop(main);
        assert_eq!((result.depth, result.best_move, result.score), (60, Some(3), Score::Centipawns(7)));
        let (last, earlier) = reported.split_last().expect("lines reported");
        assert_eq!(*last, (60, 61, vec![3]));
        assert!(!earlier.is_empty() && earlier.iter().all(|&(depth, _, _)| depth < 60), "{earlier:?}");
    }

    /// What a proving helper left for the main thread after proving `root`.
    struct ProvedAlongside {
        /// `prove_alongside`'s answer: whether the helper is done.
        done: bool,
        offered: HelperProof,
        settles: bool,
        nodes: u64,
    }

    fn prove_alongside<G: SearchGame>(game: &G, root: &G::Position) -> ProvedAlongside {
        let table = TranspositionTable::new(1);
        let mut proofs = ProofTable::new(1);
        let mut history = vec![0; HISTORY_SIZE];
        let game_history = HashMap::new();
        let signals = Signals::default();
        let shared = Shared::new(&signals, true, None);
        let mut helper = Run::new(game, &table, &mut history, &game_history, &shared, |_: Progress<G::Move>| {});
        helper.proofs = Some(&mut proofs);
        let done = helper.prove_alongside(root);
        drop(helper);
        ProvedAlongside {
            done,
            offered: shared.helper_proof.lock().unwrap().take().expect("a proof offered"),
            settles: shared.proof_settles.load(Ordering::Relaxed),
            nodes: shared.nodes.load(Ordering::Relaxed),
        }
    }

    #[test]
    fn a_helper_proving_alongside_offers_the_proof_and_its_line() {
        // 9 stones: the mover takes 1, then answers each take with 4 less it.
        let proved = prove_alongside(&Subtraction { again_after_three: false }, &Pile { stones: 9, mover: 0 });
        assert!(proved.done);
        assert!(proved.offered.proven.mover_wins);
        assert_eq!(proved.offered.proven.plies, 5);
        assert_eq!(proved.offered.pv.len(), 5);
        assert_eq!(proved.offered.pv[0], 1);
        assert!(proved.settles);
        assert!(proved.nodes > 0);
    }

    #[test]
    fn the_main_thread_plays_the_proof_a_helper_offers() {
        let game = Subtraction { again_after_three: false };
        let table = TranspositionTable::new(1);
        let mut history = vec![0; HISTORY_SIZE];
        let game_history = HashMap::new();
        let signals = Signals::default();
        // As if the proving helper had found a win in two own moves taking
        // 3 (not the best move: 201 stones are won by taking 1).
        let proven = Proven { mover_wins: true, plies: 3, best_move: Some(3) };
        let shared = Shared {
            helper_proof: Mutex::new(Some(HelperProof { proven, pv: vec![3, 1, 1] })),
            proof_settles: AtomicBool::new(true),
            ..Shared::new(&signals, true, None)
        };
        // Another helper searching ahead leaves the proof to the main thread.
        let mut other_history = vec![0; HISTORY_SIZE];
        let mut other = Run::new(&game, &table, &mut other_history, &game_history, &shared, |_: Progress<u8>| {});
        other.ahead = 1;
        other.iterate(&Pile { stones: 201, mover: 0 }, 2, 8, false, 1, None);
        drop(other);
        assert!(shared.helper_proof.lock().unwrap().is_some(), "another helper took the proof");
        let mut reported = Vec::new();
        let mut main = Run::new(&game, &table, &mut history, &game_history, &shared, |progress| {
            if let Progress::Line(line) = progress {
                reported.push((line.score, line.pv.clone()));
            }
        });
        main.helper_proves = true;
        let result = main.iterate(&Pile { stones: 201, mover: 0 }, 1, 60, false, 1, None);
        drop(main);
        assert_eq!((result.best_move, result.score), (Some(3), Score::Mate(2)));
        assert!(result.depth < 60, "stopped at depth {}", result.depth);
        assert_eq!(reported.last(), Some(&(Score::Mate(2), vec![3, 1, 1])));
    }

    #[test]
    fn helper_threads_that_cannot_start_leave_the_search_to_those_that_did() {
        let game = Subtraction { again_after_three: false };
        let mut searcher = Searcher::new(1);
        searcher.set_threads(4);
        for started in [0, 1] {
            searcher.spawn_limit = Some(started);
            let limits = Limits { depth: Some(30), ..Limits::default() };
            let result =
                searcher.search(&game, &Pile { stones: 21, mover: 0 }, &[], &limits, &[], &Signals::default(), |_| {});
            assert_eq!((result.best_move, result.score), (Some(1), Score::Mate(6)), "{started} helpers started");
        }
    }

    #[test]
    fn scores_stay_right_when_the_same_player_moves_twice() {
        // With another turn after taking 3, piles of a multiple of 3 are lost
        // for the mover: taking 1 or 2 leaves the opponent a pile it wins
        // (by induction), and taking 3 leaves the mover itself a lost pile.
        // Any other pile is won by taking `pile % 3`.
        let game = Subtraction { again_after_three: true };
        for threads in [1, 2] {
            for pile in 1..=20u8 {
                let result = solve(&game, pile, 1, threads);
                let Score::Mate(moves) = result.score else { panic!("pile {pile}: no proof, {:?}", result.score) };
                if pile % 3 == 0 {
                    assert!(moves < 0, "pile {pile}, {threads} threads: {moves}");
                } else {
                    assert!(moves > 0, "pile {pile}, {threads} threads: {moves}");
                    let best = result.best_move.expect("a move");
                    let after = game.play(&Pile { stones: pile, mover: 1 }, best);
                    let mover_wins_after = !after.stones.is_multiple_of(3);
                    assert_eq!(mover_wins_after, after.mover == 1, "pile {pile}: {best} is not a winning move");
                }
            }
        }
        // From 4 the quickest win takes 3 and then, moving again, the last
        // stone: two plies, both the winner's own moves. (Taking 1 instead
        // lets the loser stretch the game to three plies.)
        let result = solve(&game, 4, 0, 1);
        assert_eq!((result.best_move, result.score), (Some(3), Score::Mate(2)));
    }

    /// A three-player (or two-player) game given as an explicit tree, so
    /// that every value can be worked out by hand. Players: A = 0, B = 1,
    /// C = 2. A node with no children is a finished game; the others carry
    /// each player's static score, read when the search stops there.
    struct Tree {
        nodes: Vec<TreeNode>,
        /// A repeated position is a draw (as in the advanced Pods game).
        repetitions: bool,
        /// 3, or 2 for a two-player game (A and B).
        players: usize,
    }

    struct TreeNode {
        name: &'static str,
        mover: usize,
        children: Vec<usize>,
        scores: [i32; 3],
        end: Outcome,
    }

    /// A node as written in a test: name, mover, children by name, static
    /// scores, and the result if it has no children.
    type NodeSpec<'a> = (&'static str, usize, &'a [&'a str], [i32; 3], Outcome);

    impl Tree {
        fn new(nodes: &[NodeSpec]) -> Tree {
            let index = |name: &str| nodes.iter().position(|node| node.0 == name).expect("a node of the tree");
            Tree {
                nodes: nodes
                    .iter()
                    .map(|&(name, mover, children, scores, end)| TreeNode {
                        name,
                        mover,
                        children: children.iter().map(|child| index(child)).collect(),
                        scores,
                        end,
                    })
                    .collect(),
                repetitions: false,
                players: 3,
            }
        }

        fn search(&self, style: MultiplayerSearch, depth: u32) -> (SearchResult<usize>, Vec<&'static str>) {
            self.search_after(style, depth, &[])
        }

        /// A search of the root after a game that went through `before` (by name).
        fn search_after(
            &self,
            style: MultiplayerSearch,
            depth: u32,
            before: &[&str],
        ) -> (SearchResult<usize>, Vec<&'static str>) {
            let history: Vec<u64> = before
                .iter()
                .map(|name| self.hash(&self.nodes.iter().position(|node| node.name == *name).unwrap()))
                .collect();
            let mut searcher = Searcher::new(1);
            searcher.set_multiplayer(style);
            let limits = Limits { depth: Some(depth), ..Limits::default() };
            let mut pv = Vec::new();
            let result = searcher.search(self, &0, &history, &limits, &[], &Signals::default(), |progress| {
                if let Progress::Line(report) = progress {
                    pv = report.pv.iter().map(|&node| self.nodes[node].name).collect()
                }
            });
            (result, pv)
        }
    }

    impl SearchGame for Tree {
        type Position = usize;
        /// The node a move leads to.
        type Move = usize;

        fn hash(&self, node: &usize) -> u64 {
            (*node as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        }

        fn players(&self, _: &usize) -> usize {
            self.players
        }

        fn mover(&self, node: &usize) -> usize {
            self.nodes[*node].mover
        }

        fn legal_moves(&self, node: &usize, moves: &mut Vec<usize>) {
            moves.extend_from_slice(&self.nodes[*node].children);
        }

        fn play(&self, _: &usize, child: usize) -> usize {
            child
        }

        fn is_legal(&self, node: &usize, child: usize) -> bool {
            self.nodes[*node].children.contains(&child)
        }

        fn final_outcome(&self, node: &usize) -> Outcome {
            self.nodes[*node].end
        }

        fn evaluate(&self, node: &usize, player: usize) -> Option<i32> {
            let node = &self.nodes[*node];
            (!node.children.is_empty()).then_some(node.scores[player])
        }

        fn is_draw(&self, _: &usize) -> bool {
            false
        }

        fn repetition_is_draw(&self) -> bool {
            self.repetitions
        }

        fn expected_moves_left(&self, _: &usize) -> u32 {
            4
        }

        fn move_to_bits(child: usize) -> u16 {
            child as u16
        }

        fn move_from_bits(bits: u16) -> Option<usize> {
            Some(bits as usize)
        }
    }

    const ON: Outcome = Outcome::Draw;
    const NO_SCORES: [i32; 3] = [0; 3];

    #[test]
    fn a_proved_loss_to_a_coalition_is_offered_but_leaves_the_prover_searching() {
        // A's only move lets B win: lost against B and C together, which
        // the main thread looks past, so the proving helper searches on.
        let tree = Tree::new(&[
            ("root", 0, &["only"], NO_SCORES, ON),
            ("only", 1, &["b-wins"], NO_SCORES, ON),
            ("b-wins", 2, &[], NO_SCORES, Outcome::Win(1)),
        ]);
        let proved = prove_alongside(&tree, &0);
        assert!(!proved.done);
        assert!(!proved.offered.proven.mover_wins);
        assert_eq!(proved.offered.pv, vec![1, 2]);
        assert!(!proved.settles);
    }

    #[test]
    fn paranoid_and_maxn_choose_by_hand_worked_values() {
        // A moves to x or y, then B picks one of two continuations, scored
        // (A, B, C) at the horizon (each goes on to a drawn end beyond it).
        // Max-n: after x, B takes x1 (its 4 beats 2), worth 3 to A; after y,
        // B takes y1 (5 beats 1), worth 2 to A; so A plays x, scoring 3.
        // Paranoid: B picks what is worst for A: x2 (1) after x, 2 after y;
        // so A plays y, scoring 2.
        let tree = Tree::new(&[
            ("root", 0, &["x", "y"], NO_SCORES, ON),
            ("x", 1, &["x1", "x2"], NO_SCORES, ON),
            ("y", 1, &["y1", "y2"], NO_SCORES, ON),
            ("x1", 2, &["end"], [3, 4, 1], ON),
            ("x2", 2, &["end"], [1, 2, 5], ON),
            ("y1", 2, &["end"], [2, 5, 0], ON),
            ("y2", 2, &["end"], [2, 1, 3], ON),
            ("end", 0, &[], NO_SCORES, Outcome::Draw),
        ]);
        let (maxn, maxn_pv) = tree.search(MultiplayerSearch::MaxN, 2);
        assert_eq!((maxn.score, maxn_pv), (Score::Centipawns(3), vec!["x", "x1"]));
        let (paranoid, paranoid_pv) = tree.search(MultiplayerSearch::Paranoid, 2);
        assert_eq!(paranoid.score, Score::Centipawns(2));
        assert_eq!(paranoid_pv.first(), Some(&"y"));
    }

    #[test]
    fn a_forced_win_through_passes_and_double_moves_is_a_mate_in_own_moves() {
        // A plays "lose" and B wins at once, or "fight": then B chooses.
        // After "short", C can only pass and A wins on its next move (ply 4).
        // After "long", C is skipped: A moves twice in a row ("again",
        // "finish"), B can only pass, and A wins at ply 5. Either way A wins,
        // so the coalition (paranoid) and B itself (max-n: a later loss is
        // a smaller one) both delay it with "long": A wins after its own
        // three moves fight, again, finish. Paranoid finds a forced win and
        // reports it as mate 3; max-n reports the same line as a high score.
        let a_wins = Outcome::Win(0);
        let tree = Tree::new(&[
            ("root", 0, &["lose", "fight"], NO_SCORES, ON),
            ("lose", 1, &["b-wins"], NO_SCORES, ON),
            ("b-wins", 2, &[], NO_SCORES, Outcome::Win(1)),
            ("fight", 1, &["short", "long"], NO_SCORES, ON),
            ("short", 2, &["c-pass"], NO_SCORES, ON),
            ("c-pass", 0, &["a-wins"], NO_SCORES, ON),
            ("a-wins", 1, &[], NO_SCORES, a_wins),
            ("long", 0, &["again"], NO_SCORES, ON),
            ("again", 0, &["finish"], NO_SCORES, ON),
            ("finish", 1, &["b-pass"], NO_SCORES, ON),
            ("b-pass", 2, &[], NO_SCORES, a_wins),
        ]);
        let long_line = vec!["fight", "long", "again", "finish", "b-pass"];
        let (paranoid, paranoid_pv) = tree.search(MultiplayerSearch::Paranoid, 10);
        assert_eq!((paranoid.score, paranoid_pv), (Score::Mate(3), long_line.clone()));
        let (maxn, maxn_pv) = tree.search(MultiplayerSearch::MaxN, 10);
        assert_eq!((maxn.score, maxn_pv), (Score::Centipawns(MAXN_WIN - 5), long_line));
        // Max-n stops deepening once no line reaches the horizon.
        assert_eq!(maxn.depth, 5);
    }

    #[test]
    fn late_move_pruning_does_not_give_up_a_node_whose_first_moves_all_lose() {
        // Two players. A's "safe" is worth 0; "x" is worth 50: B can only
        // answer "trap", where A's first nine moves (in the order the
        // search tries them) lose at once and only the tenth, "escape",
        // holds, worth 50 to A. At depth 3 "x" is searched with a null
        // window, and so is "trap", one ply from the leaves, where late
        // move pruning keeps nine moves and a fail-high is not searched
        // again. Were it to prune after nine lost moves, A would seem lost
        // after "trap", and "x" refuted.
        let b_wins = Outcome::Win(1);
        let mut nodes: Vec<NodeSpec> = vec![
            ("root", 0, &["safe", "x"], NO_SCORES, ON),
            ("safe", 1, &["calm"], NO_SCORES, ON),
            ("calm", 0, &["end"], NO_SCORES, ON),
            ("end", 0, &[], NO_SCORES, Outcome::Draw),
            ("x", 1, &["trap"], NO_SCORES, ON),
            ("trap", 0, &["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "escape"], NO_SCORES, ON),
            ("escape", 1, &["end"], [50, -50, 0], ON),
        ];
        for name in ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9"] {
            nodes.push((name, 1, &[], NO_SCORES, b_wins));
        }
        let mut tree = Tree::new(&nodes);
        tree.players = 2;
        let (result, pv) = tree.search(MultiplayerSearch::Paranoid, 3);
        assert_eq!((result.score, pv), (Score::Centipawns(50), vec!["x", "trap", "escape"]));
    }

    #[test]
    fn a_position_seen_once_before_the_root_is_not_yet_a_draw_but_seen_twice_it_is() {
        // A can go to "x", from where B must let A win, or take "y", worth
        // 10. If the game has been at "x" once, going there again is its
        // second occurrence: no draw, A wins. Twice before: the third is a
        // draw, and "y" is better.
        let mut tree = Tree::new(&[
            ("root", 0, &["x", "y"], NO_SCORES, ON),
            ("x", 1, &["a-wins"], NO_SCORES, ON),
            ("a-wins", 2, &[], NO_SCORES, Outcome::Win(0)),
            ("y", 1, &["calm"], NO_SCORES, ON),
            ("calm", 2, &["end"], [10, 0, 0], ON),
            ("end", 0, &[], NO_SCORES, Outcome::Draw),
        ]);
        tree.repetitions = true;
        for style in MultiplayerSearch::ALL {
            let (result, _) = tree.search_after(style, 2, &["x", "root"]);
            assert_eq!(result.best_move, Some(1), "{style}: once before");
            let (result, pv) = tree.search_after(style, 2, &["x", "root", "x", "root"]);
            assert_eq!((result.best_move, pv), (Some(3), vec!["y", "calm"]), "{style}: twice before");
        }
    }

    #[test]
    fn paranoid_sees_a_coalition_where_maxn_trusts_self_interest() {
        // After A's "hope", B can let A win later (ply 4) or hand the game
        // to C (ply 3). B loses either way: under max-n it prefers the later
        // loss, so A expects a win; a coalition hands the game to C, so
        // paranoid A sees a loss, and plays "hope" anyway (the other move
        // loses at once), reporting mate -1: A's one move, then the end.
        let tree = Tree::new(&[
            ("root", 0, &["resign", "hope"], NO_SCORES, ON),
            ("resign", 1, &[], NO_SCORES, Outcome::Win(1)),
            ("hope", 1, &["spare", "betray"], NO_SCORES, ON),
            ("spare", 2, &["pass"], NO_SCORES, ON),
            ("pass", 0, &["a-wins"], NO_SCORES, ON),
            ("a-wins", 1, &[], NO_SCORES, Outcome::Win(0)),
            ("betray", 2, &["c-wins"], NO_SCORES, ON),
            ("c-wins", 0, &[], NO_SCORES, Outcome::Win(2)),
        ]);
        let (paranoid, paranoid_pv) = tree.search(MultiplayerSearch::Paranoid, 10);
        assert_eq!((paranoid.score, paranoid_pv), (Score::Mate(-1), vec!["hope", "betray", "c-wins"]));
        let (maxn, maxn_pv) = tree.search(MultiplayerSearch::MaxN, 10);
        assert_eq!((maxn.score, maxn_pv), (Score::Centipawns(MAXN_WIN - 4), vec!["hope", "spare", "pass", "a-wins"]));
    }

    #[test]
    fn mate_scores_count_moves_of_the_side_to_move() {
        assert_eq!(Score::from_internal(MATE - 1, 2), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3, 2), Score::Mate(2));
        assert_eq!(Score::from_internal(-MATE + 2, 2), Score::Mate(-1));
        assert_eq!(Score::from_internal(-MATE + 4, 2), Score::Mate(-2));
        // A loss right after our own move: one move of ours, then the end.
        assert_eq!(Score::from_internal(-MATE + 1, 2), Score::Mate(-1));
        // Three players: a win 4 plies away comes on our second move.
        assert_eq!(Score::from_internal(MATE - 4, 3), Score::Mate(2));
        assert_eq!(Score::from_internal(57, 2), Score::Centipawns(57));
        assert_eq!(Score::Mate(-3).to_string(), "mate -3");
    }

    #[test]
    fn tt_scores_round_trip_through_node_relative_form() {
        for score in [MATE - 5, -MATE + 7, 123, -45] {
            assert_eq!(score_from_tt(score_to_tt(score, 9), 9), score);
        }
        assert_eq!(score_from_tt(score_to_tt(MATE - 5, 2), 4), MATE - 7);
    }
}
