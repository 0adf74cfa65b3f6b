//! Depth-first proof-number search (df-pn, Nagai 2002) for solving: who
//! wins a position with perfect play, a draw where the game has them, and
//! the proof as a tree anyone can check.
//!
//! The search asks one question at a time: does the *attacker* (the root
//! player's side, or the other) win? Each position has a proof number (how
//! many more leaves must be proved, at least, to show the attacker wins)
//! and a disproof number (the same to show it does not); the search always
//! goes down to the most-proving leaf, and a subtree is left as soon as its
//! numbers pass the thresholds its parent gave it (with Pawlewicz and
//! Lew's 1 + ε trick, so that siblings of close numbers do not take turns
//! at every step). Numbers are kept in a table, keyed by the game's
//! `proof_number_key` (its `symmetric_key` unless it says otherwise), so
//! transpositions and symmetric positions share them.
//! A new position starts with the number of its moves as the cost of
//! refuting it, each move weighed by what the side refuting it has still
//! to do (the game's `proof_cost`), and that side's own cost as the cost
//! of proving it; a position whose side to move wins at once (the game's
//! `winning_move`) is settled without a search. Where the game's sound
//! bounds decide a position (`decided`) it is settled at once, and where
//! few plies can be left (`plies_left_bound`) the existing endgame solver
//! (`solver.rs`, a depth-first win/loss search) gets a budget of nodes to
//! settle it.
//!
//! Draws: a draw fails the attacker. Where the game has draws, a position
//! the attacker cannot win is proved again with the other side attacking:
//! the side to move wins, loses, or neither (a proved draw).
//!
//! Repetitions (the graph-history interaction): a position already on the
//! path is a draw by repetition, which fails the attacker. A win never
//! rests on a repetition, so proofs are stored as they are. A failure that
//! rests on the repetition of a position above the node is true only on
//! this path: such results carry the depth of the highest position they
//! rest on, and are kept only in the parent's list of children, never in
//! the table. Once a node's failure rests on no position above it, it holds
//! whatever the path: from that node with no history, the same moves lead
//! to the same repetitions. So what the table holds never depends on the
//! path that reached it, and the root is solved as a game that starts
//! there (the repetition rule then draws exactly the games that go round
//! for ever: neither side can force a win).

use super::game::SearchGame;
use super::params::PARAMS;
use super::solver::{ProofTable, Proven, Prover};

/// A proof or disproof number beyond any count: the question is settled.
pub(super) const INFINITE: u32 = u32::MAX;
/// The largest count of an unsettled question.
const LARGEST: u32 = u32::MAX - 1;
/// A failure of the attacker that rests on no repetition.
const NO_DEPENDENCY: u32 = u32::MAX;
/// The deepest path the search follows; below it a position counts as a
/// failure of the attacker on this path only (never a proof), and the
/// root's failure is then not trusted.
const MAX_PATH: usize = 1000;

/// Where a settled entry's result came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settled {
    /// The search below it.
    Search,
    /// The endgame solver, or the game's own bound (`decided`): a
    /// leaf of the proof.
    Leaf,
    /// No legal move: the game is over.
    Terminal,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    proof: u32,
    disproof: u32,
    /// The move found best, as the game packs it (in the shared form of
    /// symmetric positions), valid with `HAS_MOVE`.
    best_move: u16,
    /// `HAS_MOVE`, and `Settled` in the next two bits.
    flags: u8,
    /// Plies to the end along the proof, for a settled entry (at most 255).
    plies: u8,
    /// log2 of the nodes spent below the position: cheap entries give way first.
    work: u8,
}

const HAS_MOVE: u8 = 1;
const SLOT_USED: u8 = 1 << 3;

impl Slot {
    fn settled_by(self) -> Settled {
        match (self.flags >> 1) & 3 {
            1 => Settled::Leaf,
            2 => Settled::Terminal,
            _ => Settled::Search,
        }
    }

    fn is_settled(self) -> bool {
        self.proof == 0 || self.disproof == 0
    }
}

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    pub(super) proof: u32,
    pub(super) disproof: u32,
    pub(super) best_move: Option<u16>,
    pub(super) plies: u32,
    pub(super) settled_by: Settled,
}

/// Slots per bucket: a new entry takes the place of the least worth
/// keeping of four.
const BUCKET: usize = 4;

/// `count` empty slots, if the memory can be had, as zeroed memory that the
/// system backs page by page as it is first written (`calloc` maps fresh
/// pages for a large block and writes nothing). Huge pages are not asked
/// for: one would be written whole the first time any of it is.
fn zeroed_slots(count: usize) -> Option<Vec<Slot>> {
    let layout = std::alloc::Layout::array::<Slot>(count).ok().filter(|layout| layout.size() > 0)?;
    // SAFETY: the layout's size is not zero.
    let slots = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Slot>();
    if slots.is_null() {
        return None;
    }
    // SAFETY: allocated by the global allocator with the layout of `count`
    // slots, as a `Vec` of that capacity frees it; every byte is zero, and
    // a slot of zeros is `Slot::default()` (integers only), so all `count`
    // are initialised.
    Some(unsafe { Vec::from_raw_parts(slots, count, count) })
}

/// Proof and disproof numbers by position key. Settled entries are kept
/// before unsettled ones, and costly ones before cheap ones.
pub struct DfpnTable {
    slots: Vec<Slot>,
    /// The slots it was to have, had the memory been there.
    wanted: usize,
}

impl DfpnTable {
    /// A table of at most `megabytes`, smaller where the memory cannot be
    /// had, that takes its memory as it is written: solving is one search,
    /// whose work, not the size asked, should decide the memory, so that a
    /// small proof answers at once.
    pub fn new(megabytes: usize) -> DfpnTable {
        let wanted = super::tt::power_of_two_entries(megabytes, std::mem::size_of::<Slot>(), BUCKET);
        let mut count = wanted;
        loop {
            if let Some(slots) = zeroed_slots(count) {
                return DfpnTable { slots, wanted };
            }
            if count == BUCKET {
                return DfpnTable { slots: vec![Slot::default(); BUCKET], wanted };
            }
            count /= 2;
        }
    }

    /// Its size in megabytes, where it is smaller than it was to be (the
    /// memory could not be had).
    pub(super) fn megabytes_if_short(&self) -> Option<usize> {
        (self.slots.len() < self.wanted).then(|| (self.slots.len() * std::mem::size_of::<Slot>()) >> 20)
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.fill(Slot::default());
    }

    fn bucket(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - BUCKET)
    }

    fn prefetch(&self, key: u64) {
        super::tt::prefetch(&self.slots[self.bucket(key)]);
    }

    pub(super) fn get(&self, key: u64) -> Option<Entry> {
        let bucket = self.bucket(key);
        self.slots[bucket..bucket + BUCKET].iter().find(|slot| slot.key == key && slot.flags & SLOT_USED != 0).map(
            |slot| Entry {
                proof: slot.proof,
                disproof: slot.disproof,
                best_move: (slot.flags & HAS_MOVE != 0).then_some(slot.best_move),
                plies: u32::from(slot.plies),
                settled_by: slot.settled_by(),
            },
        )
    }

    fn put(&mut self, key: u64, entry: Entry, nodes: u64) {
        let bucket = self.bucket(key);
        let work = (64 - nodes.leading_zeros()) as u8;
        let settled_by = match entry.settled_by {
            Settled::Search => 0,
            Settled::Leaf => 1,
            Settled::Terminal => 2,
        };
        let slot = Slot {
            key,
            proof: entry.proof,
            disproof: entry.disproof,
            best_move: entry.best_move.unwrap_or(0),
            flags: SLOT_USED | (u8::from(entry.best_move.is_some()) * HAS_MOVE) | (settled_by << 1),
            plies: entry.plies.min(255) as u8,
            work,
        };
        let slots = &mut self.slots[bucket..bucket + BUCKET];
        if let Some(same) = slots.iter_mut().find(|old| old.key == key && old.flags & SLOT_USED != 0) {
            // A settled entry stays settled: an unsettled one never replaces it.
            if !same.is_settled() || slot.is_settled() {
                *same = Slot { work: slot.work.max(same.work), ..slot };
            }
            return;
        }
        // The least worth keeping: empty, then unsettled and cheap, then settled and cheap.
        let worth = |old: &Slot| {
            if old.flags & SLOT_USED == 0 { 0 } else { 1 + u32::from(old.is_settled()) * 256 + u32::from(old.work) }
        };
        let (index, least) =
            slots.iter().enumerate().map(|(index, old)| (index, worth(old))).min_by_key(|&(_, w)| w).expect("a bucket");
        // A cheap unsettled entry does not push out a settled one.
        if least > 256 && !slot.is_settled() {
            return;
        }
        slots[index] = slot;
    }
}

/// A child of the node being searched, as its parent sees it.
struct Child<G: SearchGame> {
    mv: G::Move,
    position: G::Position,
    /// The table's key (the shared form's key, salted by the attacker).
    key: u64,
    /// The symmetry that takes the child to its shared form.
    symmetry: usize,
    /// The position's own key, for repetitions.
    hash: u64,
    proof: u32,
    disproof: u32,
    /// The highest path index a failure of the attacker here rests on.
    dependency: u32,
    plies: u32,
}

/// What a search of one node found.
#[derive(Clone, Copy, Debug)]
struct Numbers {
    proof: u32,
    disproof: u32,
    dependency: u32,
    plies: u32,
}

/// The answer to one question: does the attacker win?
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Answer {
    /// It wins, the game lasting at most this many plies along the proof.
    Proved(u32),
    /// It does not, in at most this many plies along the proof.
    Disproved(u32),
    /// Out of nodes or time, or told to stop.
    Unknown,
}

/// One proof of one question.
pub(super) struct Dfpn<'a, G: SearchGame> {
    game: &'a G,
    table: &'a mut DfpnTable,
    /// The endgame solver's table, shared by its calls.
    leaf_table: &'a mut ProofTable,
    /// The seats of the attacker's side.
    attacker: &'a dyn Fn(usize) -> bool,
    salt: u64,
    interrupt: &'a mut dyn FnMut(u64) -> bool,
    pub(super) nodes: u64,
    stopped: bool,
    /// Whether a draw was met (a position the game calls drawn, or a
    /// repetition where the game draws them): a failure of the attacker
    /// is then not a win of the other side.
    pub(super) draws_met: bool,
    /// Whether a repetition was met in a game that does not draw them, or
    /// the path grew beyond `MAX_PATH`: a failure is then not trusted.
    pub(super) failures_doubtful: bool,
    /// The most a node's sum of its children's numbers counts
    /// (`PARAMS.dfpn_cycle_cap` where positions repeat).
    sum_cap: u32,
    /// Keys of the positions on the path, the root first.
    path: Vec<u64>,
    children: Vec<Vec<Child<G>>>,
    moves: Vec<G::Move>,
}

impl<'a, G: SearchGame> Dfpn<'a, G> {
    pub(super) fn new(
        game: &'a G,
        table: &'a mut DfpnTable,
        leaf_table: &'a mut ProofTable,
        attacker: &'a dyn Fn(usize) -> bool,
        salt: u64,
        interrupt: &'a mut dyn FnMut(u64) -> bool,
    ) -> Self {
        Dfpn {
            game,
            table,
            leaf_table,
            attacker,
            salt,
            interrupt,
            nodes: 0,
            stopped: false,
            draws_met: false,
            failures_doubtful: false,
            sum_cap: if game.repetition_is_draw() { PARAMS.dfpn_cycle_cap } else { LARGEST },
            path: Vec::new(),
            children: Vec::new(),
            moves: Vec::new(),
        }
    }

    /// The table key of `position` and the symmetry to its shared form.
    pub(super) fn key_of(&self, position: &G::Position) -> (u64, usize) {
        let (key, symmetry) = self.game.proof_number_key(position);
        (key ^ self.salt, symmetry)
    }

    /// Whether the attacker wins `root`, searched as a game that starts
    /// there. The root itself is always searched (never settled by the
    /// table, the game's bounds or the endgame solver), so a proof of it
    /// names a move.
    pub(super) fn prove(&mut self, root: &G::Position) -> Answer {
        self.path.clear();
        if self.game.move_count(root) == 0 {
            let winner = self.game.winner(root);
            self.draws_met |= winner.is_none();
            let attacker_wins = winner.is_some_and(|winner| (self.attacker)(winner));
            return if attacker_wins { Answer::Proved(0) } else { Answer::Disproved(0) };
        }
        self.settle(root, false)
    }

    /// Searches `position`, which is not over, from an empty path until it
    /// is settled or the search is stopped; `evaluate` says whether the
    /// game's bounds and the endgame solver may settle it without a move.
    fn settle(&mut self, position: &G::Position, evaluate: bool) -> Answer {
        let (key, symmetry) = self.key_of(position);
        let hash = self.game.hash(position);
        loop {
            let numbers = self.search(position, key, symmetry, hash, LARGEST, LARGEST, 0, evaluate);
            let settled = numbers.proof == 0 || numbers.disproof == 0;
            if settled || self.stopped || numbers.proof >= LARGEST || numbers.disproof >= LARGEST {
                return self.answer(numbers);
            }
        }
    }

    fn answer(&self, numbers: Numbers) -> Answer {
        if numbers.proof == 0 {
            Answer::Proved(numbers.plies)
        } else if numbers.disproof == 0 && !self.failures_doubtful {
            Answer::Disproved(numbers.plies)
        } else {
            Answer::Unknown
        }
    }

    /// Counts a node; every so often asks whether to stop.
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(PARAMS.proof_poll_interval) && (self.interrupt)(self.nodes) {
            self.stopped = true;
        }
    }

    /// Settled numbers: the attacker wins, or fails, in `plies`.
    fn settled(attacker_wins: bool, plies: u32) -> Numbers {
        let (proof, disproof) = if attacker_wins { (0, INFINITE) } else { (INFINITE, 0) };
        Numbers { proof, disproof, dependency: NO_DEPENDENCY, plies }
    }

    /// A child's numbers, cheaply: a repetition, the table's, the end of
    /// the game, a win at once, or, for a position not searched yet, the
    /// game's costs of proving each side's win (`proof_cost`), times its
    /// count of moves for the side that must refute them all. The game's
    /// bounds and the endgame solver wait until the search goes down to it
    /// (`search`).
    fn look(&mut self, position: &G::Position, key: u64, hash: u64) -> Numbers {
        if let Some(index) = self.path.iter().position(|&on_path| on_path == hash) {
            // A repetition: a draw where the game draws them; elsewhere a
            // game that goes round, which no one wins.
            if self.game.repetition_is_draw() {
                self.draws_met = true;
            } else {
                self.failures_doubtful = true;
            }
            return Numbers { proof: INFINITE, disproof: 0, dependency: index as u32, plies: 0 };
        }
        if let Some(entry) = self.table.get(key) {
            return Numbers {
                proof: entry.proof,
                disproof: entry.disproof,
                dependency: NO_DEPENDENCY,
                plies: entry.plies,
            };
        }
        self.count_node();
        let count = self.game.move_count(position) as u32;
        let ends = if count == 0 {
            Some(self.game.winner(position))
        } else if self.game.is_draw(position) {
            Some(None)
        } else {
            None
        };
        if let Some(winner) = ends {
            self.draws_met |= winner.is_none();
            let numbers = Self::settled(winner.is_some_and(|winner| (self.attacker)(winner)), 0);
            self.store(key, numbers, None, Settled::Terminal, 1);
            return numbers;
        }
        let mover = self.game.mover(position);
        // The side to move wins at once: a leaf, settled without a search.
        if self.game.winning_move(position).is_some() {
            let numbers = Self::settled((self.attacker)(mover), 1);
            self.store(key, numbers, None, Settled::Leaf, 1);
            return numbers;
        }
        // One winning move proves a position, all its moves must fail to
        // disprove it: each is a child whose mover has its own cost to pay.
        let other = (0..self.game.players(position)).find(|&seat| seat != mover).unwrap_or(mover);
        let (mover_cost, other_cost) = (self.game.proof_cost(position, mover), self.game.proof_cost(position, other));
        let (proof, disproof) = if (self.attacker)(mover) {
            (mover_cost, count.saturating_mul(other_cost))
        } else {
            (count.saturating_mul(other_cost), mover_cost)
        };
        Numbers { proof, disproof, dependency: NO_DEPENDENCY, plies: 0 }
    }

    /// Settles a position met for the first time without a search, where
    /// the game's bounds or the endgame solver can (a leaf of the proof).
    fn evaluate(&mut self, position: &G::Position, key: u64) -> Option<Numbers> {
        let or_node = (self.attacker)(self.game.mover(position));
        let mover_wins = match self.game.decided(position) {
            Some(decided) => Some(((self.attacker)(decided.winner) == or_node, decided.plies)),
            None => self.try_leaf_solver(position).map(|proven| (proven.mover_wins, proven.plies)),
        };
        let (mover_wins, plies) = mover_wins?;
        let numbers = Self::settled(mover_wins == or_node, plies);
        self.store(key, numbers, None, Settled::Leaf, 1);
        Some(numbers)
    }

    fn store(&mut self, key: u64, numbers: Numbers, best_move: Option<u16>, settled_by: Settled, nodes: u64) {
        let entry =
            Entry { proof: numbers.proof, disproof: numbers.disproof, best_move, plies: numbers.plies, settled_by };
        self.table.put(key, entry, nodes);
    }

    /// The endgame solver's verdict on `position`, where the game bounds
    /// its length closely enough, within the solver's budget of nodes. A
    /// position it gives up on is searched by df-pn (its table entry says
    /// so, and so the solver is not tried on it again while it is kept).
    fn try_leaf_solver(&mut self, position: &G::Position) -> Option<Proven> {
        if self.game.repetition_is_draw() {
            return None;
        }
        let bound = self.game.plies_left_bound(position)?;
        if bound > PARAMS.dfpn_leaf_horizon {
            return None;
        }
        let attacker = self.attacker;
        let same_side = move |a: usize, b: usize| attacker(a) == attacker(b);
        let budget = PARAMS.dfpn_leaf_budget;
        let before = self.nodes;
        let interrupt = &mut *self.interrupt;
        let mut stopped = false;
        let (proved, nodes) = {
            let mut leaf_interrupt = |nodes: u64| {
                stopped = stopped || interrupt(before + nodes);
                stopped || nodes >= budget
            };
            let mut prover = Prover::new(self.game, &mut *self.leaf_table, &same_side, self.salt, &mut leaf_interrupt);
            let proved = prover.prove(position);
            (proved, prover.nodes)
        };
        self.nodes += nodes;
        self.stopped |= stopped;
        // Interrupted, or a draw: df-pn searches the position itself.
        proved.ok()
    }

    /// Searches `position` (at `ply` on the path, not over, not settled,
    /// not a repetition) until it is settled or its numbers reach the
    /// thresholds. The first time it is met (`evaluate`), the game's bounds
    /// and the endgame solver may settle it without a search.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        position: &G::Position,
        key: u64,
        symmetry: usize,
        hash: u64,
        proof_threshold: u32,
        disproof_threshold: u32,
        ply: usize,
        evaluate: bool,
    ) -> Numbers {
        let nodes_before = self.nodes;
        let game = self.game;
        self.count_node();
        if evaluate
            && self.table.get(key).is_none()
            && let Some(numbers) = self.evaluate(position, key)
        {
            return numbers;
        }
        let or_node = (self.attacker)(game.mover(position));
        if ply >= MAX_PATH {
            self.failures_doubtful = true;
            return Numbers { proof: INFINITE, disproof: 0, dependency: 0, plies: 0 };
        }
        self.path.push(hash);
        if self.children.len() <= ply {
            self.children.resize_with(ply + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut self.children[ply]);
        self.moves.clear();
        game.legal_moves(position, &mut self.moves);
        let moves = std::mem::take(&mut self.moves);
        // Every child's key first, so the table's cache misses overlap.
        // The children of the last node at this ply are written over in
        // place: a game's positions may be large.
        for (index, &mv) in moves.iter().enumerate() {
            if index < children.len() {
                game.play_into(position, mv, &mut children[index].position);
            } else {
                children.push(Child {
                    mv,
                    position: game.play(position, mv),
                    key: 0,
                    symmetry: 0,
                    hash: 0,
                    proof: 0,
                    disproof: 0,
                    dependency: NO_DEPENDENCY,
                    plies: 0,
                });
            }
            let (key, symmetry) = self.key_of(&children[index].position);
            self.table.prefetch(key);
            let child = &mut children[index];
            let hash = game.hash(&child.position);
            (child.mv, child.key, child.symmetry, child.hash) = (mv, key, symmetry, hash);
            (child.proof, child.disproof, child.dependency, child.plies) = (0, 0, NO_DEPENDENCY, 0);
        }
        children.truncate(moves.len());
        self.moves = moves;
        let mut index = 0;
        while index < children.len() {
            let child = &children[index];
            let (child_position, child_key, child_hash) = (child.position, child.key, child.hash);
            let found = self.look(&child_position, child_key, child_hash);
            let child = &mut children[index];
            (child.proof, child.disproof, child.dependency, child.plies) =
                (found.proof, found.disproof, found.dependency, found.plies);
            index += 1;
            // One child settles the node for the side to move: the others
            // need not be looked at.
            if (or_node && found.proof == 0) || (!or_node && found.disproof == 0) {
                break;
            }
        }
        children.truncate(index);
        let (numbers, best) = loop {
            let (numbers, chosen, second) = summarize(&children, or_node, self.sum_cap);
            if numbers.proof == 0
                || numbers.disproof == 0
                || numbers.proof >= proof_threshold
                || numbers.disproof >= disproof_threshold
                || self.stopped
            {
                break (numbers, chosen);
            }
            let child = &children[chosen];
            // The chosen child may take the node up to its own threshold,
            // a little past the second best (1 + ε), and the rest of the
            // node's slack on the other number.
            let (child_proof_threshold, child_disproof_threshold) = if or_node {
                (proof_threshold.min(widen(second)), grow(disproof_threshold, numbers.disproof, child.disproof))
            } else {
                (grow(proof_threshold, numbers.proof, child.proof), disproof_threshold.min(widen(second)))
            };
            let (child_position, child_key, child_symmetry, child_hash) =
                (child.position, child.key, child.symmetry, child.hash);
            let below = self.search(
                &child_position,
                child_key,
                child_symmetry,
                child_hash,
                child_proof_threshold,
                child_disproof_threshold,
                ply + 1,
                true,
            );
            let child = &mut children[chosen];
            (child.proof, child.disproof, child.dependency, child.plies) =
                (below.proof, below.disproof, below.dependency, below.plies);
        };
        let mut numbers = numbers;
        self.path.pop();
        let settled = numbers.proof == 0 || numbers.disproof == 0;
        if settled && numbers.dependency != NO_DEPENDENCY && numbers.dependency as usize >= ply {
            // The failure rests only on repetitions within this subtree.
            numbers.dependency = NO_DEPENDENCY;
        }
        if (!self.stopped || settled) && numbers.dependency == NO_DEPENDENCY {
            let best_move = children
                .get(best)
                .map(|child| G::move_to_bits(game.transform_move(position, child.mv, symmetry, false)));
            self.store(key, numbers, best_move, Settled::Search, self.nodes - nodes_before);
        }
        self.children[ply] = children;
        numbers
    }
}

/// The node's numbers from its children's, the child to search next, and
/// the second best number in the side to move's terms (the chosen child's
/// threshold follows from it). Where the node is settled, `chosen` is the
/// child that decides it: the side to move's quickest deciding move
/// (resting on as few repetitions as can be), or, where every move fails
/// it, its longest resistance. The sum counts at most `sum_cap`.
fn summarize<G: SearchGame>(children: &[Child<G>], or_node: bool, sum_cap: u32) -> (Numbers, usize, u32) {
    // The side to move needs one child whose `select` number is 0, and
    // fails once every child's `other` number is 0: at an OR node the
    // attacker's proof and disproof numbers, at an AND node the other way round.
    let select = |child: &Child<G>| if or_node { child.proof } else { child.disproof };
    let other = |child: &Child<G>| if or_node { child.disproof } else { child.proof };
    let mut smallest = INFINITE;
    let mut second = INFINITE;
    let mut chosen = 0;
    let mut sum: u32 = 0;
    // Where the side to move wins: its best deciding child.
    let mut deciding: Option<(usize, u32, u32)> = None;
    // Where it fails: the longest resistance, and what the failure rests on.
    let mut longest = (0, 0);
    let mut dependency = NO_DEPENDENCY;
    for (index, child) in children.iter().enumerate() {
        let value = select(child);
        if value < smallest {
            second = smallest;
            smallest = value;
            chosen = index;
        } else if value < second {
            second = value;
        }
        if value == 0 {
            let better = deciding.is_none_or(|(_, plies, rests_on)| {
                child.dependency > rests_on || (child.dependency == rests_on && child.plies < plies)
            });
            if better {
                deciding = Some((index, child.plies, child.dependency));
            }
        }
        sum = sum.saturating_add(other(child)).min(sum_cap);
        dependency = dependency.min(child.dependency);
        if child.plies >= longest.1 {
            longest = (index, child.plies);
        }
    }
    let (win, fail) = ((0, INFINITE), (INFINITE, 0));
    let numbers = |(select, other): (u32, u32), dependency, plies| {
        let (proof, disproof) = if or_node { (select, other) } else { (other, select) };
        Numbers { proof, disproof, dependency, plies }
    };
    if let Some((index, plies, rests_on)) = deciding {
        // A win of the attacker never rests on a repetition.
        let rests_on = if or_node { NO_DEPENDENCY } else { rests_on };
        return (numbers(win, rests_on, plies + 1), index, second);
    }
    if sum == 0 {
        let rests_on = if or_node { dependency } else { NO_DEPENDENCY };
        return (numbers(fail, rests_on, longest.1 + 1), longest.0, second);
    }
    (numbers((smallest, sum), NO_DEPENDENCY, 0), chosen, second)
}

/// A threshold a little past `second`: 1 + ε with ε = 1/4, at least one more.
fn widen(second: u32) -> u32 {
    if second >= LARGEST { LARGEST } else { second.saturating_add(second / 4 + 1).min(LARGEST) }
}

/// The child's share of the node's slack: `threshold - node + child`.
fn grow(threshold: u32, node: u32, child: u32) -> u32 {
    if threshold >= LARGEST { LARGEST } else { (threshold - node).saturating_add(child).min(LARGEST) }
}

/// The listed positions of a proof tree with their steps.
type Steps<G> = Vec<(<G as super::game::GameRules>::Position, ProofStep<<G as super::game::GameRules>::Move>)>;

/// One position of a proof tree that a checker must be told about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofStep<M> {
    /// The winner, to move, plays this move.
    Move(M),
    /// The endgame solver or the game's own bound proved the position: the
    /// winner wins within this many plies.
    Leaf(u32),
}

/// Why a proof tree could not be written out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeError {
    /// Stopped (out of time or nodes) while proving again a position whose
    /// proof the table had let go.
    Stopped,
    /// The table contradicts itself (a key shared by two positions): no
    /// tree is given rather than a wrong one.
    Inconsistent,
}

/// A proof tree being written out: each position once, with the plies to
/// the end along the proof from it.
struct TreeWriter<G: SearchGame> {
    winner_is_attacker: bool,
    plies: std::collections::HashMap<u64, u32>,
    on_path: std::collections::HashSet<u64>,
    steps: Vec<(G::Position, ProofStep<G::Move>)>,
}

impl<'a, G: SearchGame> Dfpn<'a, G> {
    /// The proof tree of `root`, which this question settled for the
    /// attacker (`winner_is_attacker`) or against it (in a game without
    /// draws, a win of the other side): at the winner's turns the move it
    /// plays, at the loser's every move, down to positions that are over,
    /// and to positions the endgame solver or the game's bound settled
    /// (leaves). Only the winner's turns and the leaves are listed, each
    /// position once, with the plies the game lasts at most along it.
    /// Positions whose proof the table no longer holds are proved again.
    pub(super) fn proof_tree(
        &mut self,
        root: &G::Position,
        winner_is_attacker: bool,
    ) -> Result<(Steps<G>, u32), TreeError> {
        let mut writer = TreeWriter {
            winner_is_attacker,
            plies: Default::default(),
            on_path: Default::default(),
            steps: Vec::new(),
        };
        let plies = self.tree_node(root, true, &mut writer)?;
        Ok((writer.steps, plies))
    }

    /// The table's entry of `position`, settled: proved again if need be.
    fn settled_entry(&mut self, position: &G::Position) -> Result<Entry, TreeError> {
        let (key, _) = self.key_of(position);
        if let Some(entry) = self.table.get(key).filter(|entry| entry.proof == 0 || entry.disproof == 0) {
            return Ok(entry);
        }
        self.path.clear();
        let numbers = self.look(position, key, self.game.hash(position));
        if numbers.proof != 0 && numbers.disproof != 0 {
            self.settle(position, true);
        }
        if self.stopped {
            return Err(TreeError::Stopped);
        }
        self.table.get(key).filter(|entry| entry.proof == 0 || entry.disproof == 0).ok_or(TreeError::Inconsistent)
    }

    /// Whether `entry` settles its position for the winner of the tree.
    fn for_winner(entry: &Entry, winner_is_attacker: bool) -> bool {
        if winner_is_attacker { entry.proof == 0 } else { entry.disproof == 0 }
    }

    fn tree_node(
        &mut self,
        position: &G::Position,
        is_root: bool,
        writer: &mut TreeWriter<G>,
    ) -> Result<u32, TreeError> {
        let game = self.game;
        let hash = game.hash(position);
        if let Some(&plies) = writer.plies.get(&hash) {
            return Ok(plies);
        }
        if !writer.on_path.insert(hash) {
            return Err(TreeError::Inconsistent);
        }
        let mut moves = Vec::new();
        game.legal_moves(position, &mut moves);
        let mover = game.mover(position);
        let mover_is_winner = (self.attacker)(mover) == writer.winner_is_attacker;
        let plies = if moves.is_empty() {
            let winner = game.winner(position).ok_or(TreeError::Inconsistent)?;
            if (self.attacker)(winner) != writer.winner_is_attacker {
                return Err(TreeError::Inconsistent);
            }
            0
        } else {
            let entry = self.settled_entry(position)?;
            if !Self::for_winner(&entry, writer.winner_is_attacker) {
                return Err(TreeError::Inconsistent);
            }
            if !is_root && entry.settled_by == Settled::Leaf {
                writer.steps.push((*position, ProofStep::Leaf(entry.plies)));
                entry.plies
            } else if mover_is_winner {
                let (_, symmetry) = self.key_of(position);
                let stored = entry
                    .best_move
                    .and_then(G::move_from_bits)
                    .map(|mv| game.transform_move(position, mv, symmetry, true))
                    .filter(|&mv| moves.contains(&mv));
                // The stored move, or else the first move proved to win.
                let mut chosen = None;
                for mv in stored.into_iter().chain(moves.iter().copied()) {
                    let child = game.play(position, mv);
                    let winning = match self.child_settled(&child)? {
                        Some(entry) => Self::for_winner(&entry, writer.winner_is_attacker),
                        None => game.winner(&child).is_some_and(|w| (self.attacker)(w) == writer.winner_is_attacker),
                    };
                    if winning {
                        chosen = Some((mv, child));
                        break;
                    }
                }
                let (mv, child) = chosen.ok_or(TreeError::Inconsistent)?;
                let below = self.tree_node(&child, false, writer)?;
                writer.steps.push((*position, ProofStep::Move(mv)));
                below + 1
            } else {
                let mut longest = 0;
                for &mv in &moves {
                    let child = game.play(position, mv);
                    longest = longest.max(self.tree_node(&child, false, writer)? + 1);
                }
                longest
            }
        };
        writer.on_path.remove(&hash);
        writer.plies.insert(hash, plies);
        Ok(plies)
    }

    /// The settled entry of `child`, or `None` where the game is over there.
    fn child_settled(&mut self, child: &G::Position) -> Result<Option<Entry>, TreeError> {
        let mut moves = Vec::new();
        self.game.legal_moves(child, &mut moves);
        if moves.is_empty() {
            return Ok(None);
        }
        self.settled_entry(child).map(Some)
    }

    /// The line the proof follows from `root`: the winner's proved moves and
    /// the loser's longest resistance, as far as the table holds them. A
    /// position of the line the table does not hold (it was proved as
    /// another image of itself, which a game's `proof_number_key` need not
    /// share) is proved again, within what is left of the limits.
    pub(super) fn proof_line(&mut self, root: &G::Position) -> Vec<G::Move> {
        let game = self.game;
        let mut line = Vec::new();
        let mut position = *root;
        let mut seen = std::collections::HashSet::new();
        while line.len() < MAX_PATH && seen.insert(game.hash(&position)) {
            let mut mv = self.proved_move(&position);
            // Looked up only where the line has no move: most steps have one.
            let settled = || {
                self.table.get(self.key_of(&position).0).is_some_and(|entry| entry.proof == 0 || entry.disproof == 0)
            };
            if mv.is_none() && !self.stopped && game.move_count(&position) > 0 && !settled() {
                self.settle(&position, false);
                mv = self.proved_move(&position);
            }
            match mv {
                Some(mv) => {
                    line.push(mv);
                    position = game.play(&position, mv);
                }
                None => break,
            }
        }
        line
    }

    /// The proved move of `position` the tables hold, if legal.
    fn proved_move(&self, position: &G::Position) -> Option<G::Move> {
        let game = self.game;
        let (key, symmetry) = self.key_of(position);
        let from_table = self
            .table
            .get(key)
            .filter(|entry| entry.proof == 0 || entry.disproof == 0)
            .and_then(|entry| entry.best_move)
            .and_then(G::move_from_bits)
            .map(|mv| game.transform_move(position, mv, symmetry, true));
        from_table
            .or_else(|| super::solver::proved_move(game, position, self.leaf_table, self.salt))
            .filter(|&mv| game.is_legal(position, mv))
            // A win at once, settled without a move stored (`look`).
            .or_else(|| game.winning_move(position))
    }
}
