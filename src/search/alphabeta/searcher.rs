//! The search's entry point: `Searcher` keeps what outlives one search (the
//! tables and the ordering statistics) and runs a search on its threads.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::Instant;

use super::manager::{Manager, Plan, Proofs};
use super::maxn::MultiplayerSearch;
use super::ordering::HISTORY_SIZE;
use super::proofs::take_proof_table;
use super::shared::Shared;
use super::threads::hardware_threads;
use super::worker::{ThreadLimits, Worker};
use super::{MAX_PLY, Progress, SearchResult};
use crate::search::game::SearchGame;
use crate::search::limits::{Limits, Signals, Timer};
use crate::search::mcts::{self, MctsTree};
use crate::search::params::PARAMS;
use crate::search::solver::ProofTable;
use crate::search::tt::TranspositionTable;

/// Keeps what outlives one search: the table and the ordering statistics.
pub struct Searcher {
    tt: TranspositionTable,
    proofs: ProofTable,
    /// Move-ordering statistics, one table per search thread.
    histories: Vec<Vec<i32>>,
    multiplayer: MultiplayerSearch,
    /// How many best lines to find (MultiPV).
    lines: usize,
    /// Whether the game's proved moves are played where it has them (`OwnBook`).
    own_book: bool,
    /// Test seam: helper threads after this many fail to start.
    #[cfg(test)]
    pub(super) spawn_limit: Option<usize>,
}

impl Searcher {
    /// A searcher with a table of `hash_megabytes` (and a table of proofs
    /// of a share of it), one thread and one line.
    pub fn new(hash_megabytes: usize) -> Searcher {
        let (tt, proofs) = tables(hash_megabytes);
        Searcher {
            tt,
            proofs,
            histories: vec![vec![0; HISTORY_SIZE]],
            multiplayer: MultiplayerSearch::default(),
            lines: 1,
            own_book: true,
            #[cfg(test)]
            spawn_limit: None,
        }
    }

    /// `new`, with tables that take memory as the search uses it: the
    /// transposition table's pages come from the system as they are first
    /// written, and the proof table starts small and doubles as it fills,
    /// up to its share of `hash_megabytes`. For a single search whose work,
    /// not the size asked, should decide the memory (`podium solve`: a
    /// small proof answers at once); a search under a clock would pay for
    /// the pages inside its time, so the engine makes its tables with `new`
    /// before any search.
    pub fn with_tables_on_demand(hash_megabytes: usize) -> Searcher {
        Searcher {
            tt: TranspositionTable::on_demand(hash_megabytes),
            proofs: ProofTable::growing(hash_megabytes / PARAMS.proof_table_divisor),
            ..Searcher::new(1)
        }
    }

    /// Forgets everything learned: for a new game. The tables are cleared
    /// by as many threads as search.
    pub fn clear(&mut self) {
        let threads = self.histories.len();
        self.tt.clear(threads);
        self.proofs.clear(threads);
        for history in &mut self.histories {
            history.fill(0);
        }
    }

    /// New, empty tables of `hash_megabytes`, the old ones freed first.
    pub fn resize(&mut self, hash_megabytes: usize) {
        self.tt = TranspositionTable::new(1);
        self.proofs = ProofTable::new(1);
        (self.tt, self.proofs) = tables(hash_megabytes);
    }

    /// The table's size: less than asked where the memory could not be had.
    pub fn hash_megabytes(&self) -> usize {
        self.tt.megabytes()
    }

    /// The proof table's size in megabytes, and the size it was to have
    /// (a share of the hash size): less where the memory could not be had.
    pub fn proof_megabytes(&self) -> (usize, usize) {
        self.proofs.megabytes()
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

    /// How many best lines each iteration finds and reports.
    pub fn lines(&self) -> usize {
        self.lines
    }

    /// How many best lines each iteration finds and reports (at least one).
    pub fn set_lines(&mut self, lines: usize) {
        self.lines = lines.max(1);
    }

    /// Whether the game's proved moves (`GameKnowledge::known_win`, a book
    /// the game carries) are played at once where it has one (the default),
    /// or the position is searched as any other.
    pub fn set_own_book(&mut self, own_book: bool) {
        self.own_book = own_book;
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
        // MCTS knows no repetitions: where they draw, alpha-beta searches.
        let evaluated = self.multiplayer == MultiplayerSearch::MctsEval;
        if (self.multiplayer == MultiplayerSearch::Mcts || evaluated)
            && game.players(root) > 2
            && !game.repetition_is_draw()
        {
            let mut tree = MctsTree::new(self.tt.megabytes());
            tree.evaluated = evaluated;
            let mut report = report;
            return mcts::search(game, &mut tree, root, limits, root_moves, signals, &mut report);
        }
        self.tt.new_search();
        let clock_start = limits.clock_start.unwrap_or_else(Instant::now);
        let timer = Timer::new(
            limits.budget(game.expected_moves_left(root)),
            clock_start,
            signals.pondering.load(Ordering::Relaxed),
        );
        let maxn = self.multiplayer == MultiplayerSearch::MaxN && game.players(root) > 2;
        let brs = self.multiplayer == MultiplayerSearch::Brs && game.players(root) > 2;
        // Max-n and Best-Reply Search run on one thread: they keep no table
        // for helpers to fill.
        let single = maxn || brs;
        let mut shared =
            Shared::new(signals, !single && self.lines == 1, timer.hard_limit().map(|hard| clock_start + hard));
        shared.every_move = limits.prove || limits.mate.is_some();
        let plan = Plan {
            max_depth: limits
                .depth
                .filter(|_| !limits.infinite)
                .unwrap_or(MAX_PLY as u32 - 1)
                .clamp(1, MAX_PLY as u32 - 1),
            infinite: limits.infinite,
            lines: self.lines,
            mate: limits.mate,
            book: self.own_book,
            fixed_time: limits.fixed_time_only(),
        };
        let (main_history, helper_histories) = self.histories.split_first_mut().expect("at least one thread");
        let helper_histories: &mut [Vec<i32>] = if single { &mut [] } else { helper_histories };
        // Proofs look at every move: not when some are left out.
        let proofs_wanted = root_moves.is_empty() && self.lines == 1;
        let proofs = plan_proofs(game, root, limits, proofs_wanted, !helper_histories.is_empty());
        let game_history = count_positions(game, history);
        // Whichever thread proves takes the table from here.
        let proof_table = Mutex::new(Some(&mut self.proofs));
        let start = Start {
            game,
            root,
            root_moves,
            tt: &self.tt,
            game_history: &game_history,
            shared: &shared,
            proof_table: &proof_table,
            max_depth: plan.max_depth,
            proofs_wanted,
            #[cfg(test)]
            spawn_limit: self.spawn_limit,
        };
        std::thread::scope(|scope| {
            let helpers_started = start.spawn_helpers(scope, helper_histories, proofs.by_helper);
            shared.open_gate();
            let proofs = Proofs { by_helper: proofs.by_helper && helpers_started > 0, ..proofs };
            let limits = ThreadLimits { timer, nodes: limits.nodes.filter(|_| !limits.infinite), helper_proof: false };
            let result = start.run_main(main_history, limits, (maxn, brs), &plan, proofs, report);
            shared.finished.store(true, Ordering::Relaxed);
            result
        })
    }
}

/// A transposition table of `hash_megabytes` and a proof table of its
/// share, or where the memory for both cannot be had, both at half the
/// size, a quarter, ...: the proofs keep their share.
fn tables(hash_megabytes: usize) -> (TranspositionTable, ProofTable) {
    let mut megabytes = hash_megabytes.max(1);
    loop {
        let tt = TranspositionTable::new(megabytes);
        let proofs = ProofTable::new(megabytes / PARAMS.proof_table_divisor);
        let (proof_megabytes, proofs_wanted) = proofs.megabytes();
        if megabytes == 1 || (tt.megabytes() == megabytes && proof_megabytes == proofs_wanted) {
            return (tt, proofs);
        }
        drop((tt, proofs));
        megabytes /= 2;
    }
}

/// How often each position before the root occurred, where repetitions
/// draw: counted once for all threads, so a long game costs one pass.
fn count_positions<G: SearchGame>(game: &G, history: &[u64]) -> HashMap<u64, u32> {
    let mut counts: HashMap<u64, u32> = HashMap::new();
    if game.repetition_is_draw() {
        for &key in history {
            *counts.entry(key).or_default() += 1;
        }
    }
    counts
}

/// Who proves, where proofs are `wanted`, and how hard. Where the game says
/// a thread of its own should prove, the first helper proves the whole
/// search long rather than search a ply ahead; the main thread then
/// iterates without stopping for proofs. Not when asked for nothing but a
/// proof: the main thread tries it first, with every node. The table goes
/// to the thread that proves, when the search starts.
fn plan_proofs<'t, G: SearchGame>(
    game: &G,
    root: &G::Position,
    limits: &Limits,
    wanted: bool,
    helpers: bool,
) -> Proofs<'t> {
    let eager = limits.prove || limits.infinite || limits.mate.is_some();
    let by_helper = wanted
        && !limits.prove
        && helpers
        && game.plies_left_bound(root).is_some_and(|bound| bound <= game.policy().dedicated_proof_horizon || eager);
    Proofs { table: None, by_helper, eager, first: limits.prove }
}

/// What every thread of one search starts from.
struct Start<'s, G: SearchGame> {
    game: &'s G,
    root: &'s G::Position,
    root_moves: &'s [G::Move],
    tt: &'s TranspositionTable,
    game_history: &'s HashMap<u64, u32>,
    shared: &'s Shared<'s>,
    proof_table: &'s Mutex<Option<&'s mut ProofTable>>,
    max_depth: u32,
    /// Whether proofs are tried at all.
    proofs_wanted: bool,
    /// Test seam: helper threads after this many fail to start.
    #[cfg(test)]
    spawn_limit: Option<usize>,
}

impl<'s, G: SearchGame> Start<'s, G> {
    /// Starts a helper thread on each of `histories`, the first proving
    /// where `helper_proves`; they wait at the shared gate. Returns how
    /// many started.
    fn spawn_helpers<'scope>(
        &'scope self,
        scope: &'scope std::thread::Scope<'scope, '_>,
        histories: &'scope mut [Vec<i32>],
        helper_proves: bool,
    ) -> usize {
        let mut started = 0;
        for (index, history) in histories.iter_mut().enumerate() {
            #[cfg(test)]
            if self.spawn_limit.is_some_and(|limit| index >= limit) {
                log::warn!("search thread {} could not start (test seam)", index + 2);
                break;
            }
            let helper = move || self.run_helper(index, history, index == 0 && helper_proves);
            if let Err(error) = std::thread::Builder::new().spawn_scoped(scope, helper) {
                // Search on the threads that did start.
                log::warn!("search thread {} could not start: {error}", index + 2);
                break;
            }
            started += 1;
        }
        started
    }

    /// A helper thread: proves alongside the main thread where `proves`,
    /// else (or once the proof is out of its reach) searches ahead of it.
    fn run_helper(&self, index: usize, history: &mut [i32], proves: bool) {
        self.shared.wait_at_gate();
        let mut helper = Worker::new(self.game, self.tt, history, self.game_history, self.shared);
        if proves
            && let Some(table) = take_proof_table(self.proof_table)
            && helper.prove_alongside(table, self.root)
        {
            return;
        }
        helper.root.moves = self.root_moves.to_vec();
        // Helpers spread over the next depths.
        helper.ahead = 1 + index as u32 % PARAMS.helper_spread;
        helper.search_ahead(self.root, self.max_depth);
    }

    /// The main thread: its worker with the caller's limits, managed.
    fn run_main(
        &self,
        history: &mut [i32],
        limits: ThreadLimits,
        (maxn, brs): (bool, bool),
        plan: &Plan,
        mut proofs: Proofs<'s>,
        report: impl FnMut(Progress<'_, G::Move>),
    ) -> SearchResult<G::Move> {
        let started = limits.timer.started();
        let mut worker = Worker::new(self.game, self.tt, history, self.game_history, self.shared);
        worker.limits = limits;
        worker.maxn = maxn;
        worker.brs = brs;
        worker.root.moves = self.root_moves.to_vec();
        if !proofs.by_helper && self.proofs_wanted {
            proofs.table = take_proof_table(self.proof_table);
        }
        let report = RefCell::new(report);
        let mut manager = Manager::new(worker, &report, started, proofs);
        manager.iterate(self.root, plan)
    }
}
