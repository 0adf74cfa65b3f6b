//! One search thread: the state it keeps while searching (its share of the
//! table, move-ordering statistics, path, buffers, principal variation and
//! node count) and what every thread does around the alpha-beta search
//! itself: count nodes and look at what stops it, detect repetitions, and
//! search the root within an aspiration window.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::time::Instant;

use super::shared::Shared;
use super::{INFINITY, MATE, MATE_BOUND, MAX_PLY, Progress};
use crate::search::game::{Policy, SearchGame};
use crate::search::limits::Timer;
use crate::search::params::PARAMS;
use crate::search::tt::TranspositionTable;

/// Spreads the root player over table keys (multi-player searches only).
const ROOT_PLAYER_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

/// A search thread's state, borrowed from the `Searcher` for one search.
pub(super) struct Worker<'a, G: SearchGame> {
    pub(super) game: &'a G,
    /// The game's settings for the search, read once.
    pub(super) policy: Policy,
    /// Whether moves may be pruned and nodes cut by their static score:
    /// not in a search for a proof (`Shared::every_move`).
    pub(super) prunes: bool,
    pub(super) tt: &'a TranspositionTable,
    pub(super) shared: &'a Shared<'a>,
    /// How often each position occurred in the game before the root.
    game_history: &'a HashMap<u64, u32>,
    /// Move-ordering statistics of this thread, by seat and move.
    pub(super) history: &'a mut [i32],
    /// Two moves per ply that cut a node off there lately.
    pub(super) killers: [[Option<G::Move>; 2]; MAX_PLY],
    /// Keys of this node's ancestors in the search, the root first.
    pub(super) path: Vec<u64>,
    pub(super) buffers: PlyBuffers<G::Move>,
    /// The best line found below each ply.
    pub(super) pv: Vec<Vec<G::Move>>,
    /// This thread's nodes.
    pub(super) nodes: u64,
    pub(super) seldepth: u32,
    /// The depth of the root search under way.
    pub(super) iteration_depth: u32,
    /// Set when something stops the search: every node then returns at once.
    pub(super) aborted: bool,
    /// The main thread stopped its iteration for a helper's deeper one.
    pub(super) overtaken: bool,
    pub(super) root: Root<G::Move>,
    /// Iterations search max-n rather than paranoid alpha-beta.
    pub(super) maxn: bool,
    /// Iterations search Best-Reply Search rather than paranoid alpha-beta.
    pub(super) brs: bool,
    /// Whether the current max-n iteration cut a line off at its depth.
    pub(super) horizon_reached: bool,
    /// How many plies ahead of the main thread a helper keeps; 0 for the main thread.
    pub(super) ahead: u32,
    pub(super) limits: ThreadLimits,
    /// Where the main thread tells which root move it searches; helpers have none.
    pub(super) announcer: Option<Announcer<'a, G::Move>>,
}

/// The root as a thread searches it.
pub(super) struct Root<M> {
    /// Scores are for this player's side: with more than two players, the
    /// others count as one coalition against it (paranoid search).
    pub(super) player: usize,
    pub(super) players: usize,
    /// Mixed into table keys where scores depend on the root player.
    pub(super) key_salt: u64,
    /// The root moves to search: the caller's (none: all), then those of
    /// an iteration, less the lines already found at its depth.
    pub(super) moves: Vec<M>,
    /// The score of `pv[0]` once a root move has been searched this iteration.
    pub(super) score: Option<i32>,
}

/// Per ply, buffers reused across nodes.
pub(super) struct PlyBuffers<M> {
    /// Moves generated.
    pub(super) moves: Vec<Vec<M>>,
    /// Those moves with their ordering scores.
    pub(super) scored: Vec<Vec<(i32, M)>>,
    /// The quiet moves searched at the node without a cut-off.
    pub(super) quiets: Vec<Vec<M>>,
}

/// What stops a thread besides what stops them all (the caller's stop, the
/// main thread finishing, the shared deadline): the main thread's own
/// limits. Helpers have none.
pub(super) struct ThreadLimits {
    pub(super) timer: Timer,
    /// Nodes of all threads at which to stop.
    pub(super) nodes: Option<u64>,
    /// Stop once the proving helper's proof settles the move.
    pub(super) helper_proof: bool,
}

/// The caller's report, which the main thread's manager and worker share.
pub(super) type CallerReport<'a, M> = RefCell<dyn FnMut(Progress<'_, M>) + 'a>;

/// The main thread's report, shared with its `Manager`, and when the
/// search began: root moves are announced once it has run a while, each
/// at most once an iteration.
pub(super) struct Announcer<'a, M> {
    pub(super) report: &'a CallerReport<'a, M>,
    pub(super) started: Instant,
    /// The depth whose root moves are being announced.
    depth: u32,
    /// The highest root move number announced at `depth`.
    announced: usize,
}

impl<'a, M> Announcer<'a, M> {
    /// Announces to `report` once the search begun at `started` has run a while.
    pub(super) fn new(report: &'a CallerReport<'a, M>, started: Instant) -> Self {
        Announcer { report, started, depth: 0, announced: 0 }
    }

    /// Whether root move `number` of a root search at `depth` is announced:
    /// only a number above every one announced at that depth, so at most
    /// one line per root move an iteration however many times the root is
    /// searched (a MultiPV search of k lines searches it k times, a failed
    /// aspiration window again), and a search again after one that failed
    /// before the first second still names its moves.
    fn announces(&mut self, number: usize, depth: u32) -> bool {
        if depth != self.depth {
            (self.depth, self.announced) = (depth, 0);
        }
        if number <= self.announced || self.started.elapsed() < PARAMS.current_move_after {
            return false;
        }
        self.announced = number;
        true
    }
}

impl<'a, G: SearchGame> Worker<'a, G> {
    /// A thread's state with no limits of its own, searching all root
    /// moves. Its move-ordering statistics fade from the last search (each
    /// thread keeps its own).
    pub(super) fn new(
        game: &'a G,
        tt: &'a TranspositionTable,
        history: &'a mut [i32],
        game_history: &'a HashMap<u64, u32>,
        shared: &'a Shared<'a>,
    ) -> Self {
        for value in history.iter_mut() {
            *value /= PARAMS.history_fade;
        }
        Worker {
            game,
            policy: game.policy(),
            prunes: !shared.every_move,
            tt,
            shared,
            game_history,
            history,
            killers: [[None; 2]; MAX_PLY],
            path: Vec::with_capacity(MAX_PLY),
            // Grown on first use: a crowd of helpers need not fault in pages
            // for plies they never reach.
            buffers: PlyBuffers {
                moves: (0..MAX_PLY).map(|_| Vec::new()).collect(),
                scored: (0..MAX_PLY).map(|_| Vec::new()).collect(),
                quiets: (0..MAX_PLY).map(|_| Vec::new()).collect(),
            },
            pv: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            nodes: 0,
            seldepth: 0,
            iteration_depth: 0,
            aborted: false,
            overtaken: false,
            root: Root { player: 0, players: 2, key_salt: 0, moves: Vec::new(), score: None },
            maxn: false,
            brs: false,
            horizon_reached: false,
            ahead: 0,
            limits: ThreadLimits { timer: Timer::unlimited(), nodes: None, helper_proof: false },
            announcer: None,
        }
    }

    /// Takes the root's player as the side whose scores are searched.
    pub(super) fn set_root(&mut self, root: &G::Position) {
        let player = self.game.mover(root);
        let players = self.game.players(root);
        self.root.player = player;
        self.root.players = players;
        self.root.key_salt = if players > 2 { (player as u64 + 1).wrapping_mul(ROOT_PLAYER_KEY) } else { 0 };
    }

    /// The legal root moves among those the caller asked for.
    pub(super) fn allowed_root_moves(&self, root: &G::Position) -> Vec<G::Move> {
        let mut legal = Vec::new();
        self.game.legal_moves(root, &mut legal);
        if !self.root.moves.is_empty() {
            legal.retain(|mv| self.root.moves.contains(mv));
        }
        legal
    }

    /// Whether `player` is on the root player's side.
    pub(super) fn with_root(&self, player: usize) -> bool {
        player == self.root.player
    }

    /// The score of a finished game for `mover`'s side, `ply` plies from the root.
    pub(super) fn outcome_score(&self, winner: Option<usize>, mover: usize, ply: usize) -> i32 {
        match winner {
            None => 0,
            Some(winner) if self.with_root(winner) == self.with_root(mover) => MATE - ply as i32,
            Some(_) => -MATE + ply as i32,
        }
    }

    /// Nodes of all threads, this one's exactly.
    pub(super) fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + self.nodes % PARAMS.poll_interval
    }

    /// Whether reaching `key` here draws by repetition: a second occurrence
    /// within the search counts (the usual shortcut: the side that can
    /// repeat could as well repeat again), but against the game before the
    /// root the rule applies as written, at the third occurrence.
    pub(super) fn is_repetition_draw(&self, key: u64) -> bool {
        self.game.repetition_is_draw()
            && (self.path.contains(&key) || self.game_history.get(&key).is_some_and(|&count| count >= 2))
    }

    /// Tells the caller which root move is searched now, once the search
    /// has run for a while, the first time it is searched in the iteration
    /// (the main thread only).
    pub(super) fn announce(&mut self, mv: G::Move, number: usize, depth: u32) {
        if let Some(announcer) = &mut self.announcer
            && announcer.announces(number, depth)
        {
            (announcer.report.borrow_mut())(Progress::CurrentMove { depth, mv, number });
        }
    }

    /// Counts a node; every `poll_interval` nodes publishes the count and
    /// looks at what stops the search. Returns whether to stop.
    pub(super) fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(PARAMS.poll_interval) {
            self.shared.nodes.fetch_add(PARAMS.poll_interval, Ordering::Relaxed);
            self.poll();
        }
        if self.limits.nodes.is_some_and(|limit| self.total_nodes() >= limit) {
            self.aborted = true;
        }
        self.aborted
    }

    /// Looks at the clock and the flags that stop the search.
    fn poll(&mut self) {
        let shared = self.shared;
        let over_time = self.limits.timer.past_hard(shared.signals)
            || shared.deadline.is_some_and(|deadline| Instant::now() >= deadline);
        self.overtaken = self.ahead == 0
            && shared.adopt_helper_lines
            && shared.helper_depth.load(Ordering::Relaxed) >= shared.main_depth.load(Ordering::Relaxed);
        self.aborted |= over_time
            || self.overtaken
            || (self.limits.helper_proof && shared.proof_settles.load(Ordering::Relaxed))
            || shared.signals.stop.load(Ordering::Relaxed)
            || shared.finished.load(Ordering::Relaxed);
    }

    /// One search of the root among `root.moves` to `depth`; leaves the
    /// line in `pv[0]`. With `expected`, the score an earlier iteration
    /// found, the search looks first in a narrow window around it (an
    /// aspiration window), and widens it on the side the score falls out of.
    pub(super) fn search_root(&mut self, root: &G::Position, depth: u32, expected: Option<i32>) -> i32 {
        self.seldepth = 0;
        self.iteration_depth = depth;
        self.horizon_reached = false;
        self.root.score = None;
        if self.maxn {
            return self.maxn(root, depth as i32, 0)[self.root.player];
        }
        if self.brs {
            return self.brs(root, depth as i32, -INFINITY, INFINITY, 0);
        }
        let Some(expected) = expected.filter(|score| score.abs() <= MATE_BOUND && depth >= PARAMS.aspiration_depth)
        else {
            return self.negamax(root, depth as i32, -INFINITY, INFINITY, 0);
        };
        let mut margin = PARAMS.aspiration_margin;
        let (mut alpha, mut beta) = (expected - margin, expected + margin);
        loop {
            // A move recorded by an attempt that failed is not one of this attempt's.
            self.root.score = None;
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
}
