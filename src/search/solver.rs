//! Win/loss proofs: a search to the end of the game with no evaluation that
//! asks only which side wins. It tries the game's most promising moves
//! first, looks up every child in the table before searching any where the
//! game says that pays (an enhanced transposition cutoff: one child already
//! proved lost for its mover settles the node), takes the game's word where
//! a sound bound decides a position, and remembers what it proved. Only for
//! games without draws within reach (a draw leaves the proof unfinished).

use super::game::SearchGame;
use super::params::PARAMS;

/// The move a proved entry holds, as played in `position` (entries hold
/// moves as seen in the shared form of symmetric positions).
pub(super) fn proved_move<G: SearchGame>(
    game: &G,
    position: &G::Position,
    table: &ProofTable,
    key_salt: u64,
) -> Option<G::Move> {
    let (key, symmetry) = game.symmetric_key(position);
    let stored = table.get(key ^ key_salt)?.best_move.and_then(G::move_from_bits)?;
    Some(game.transform_move(position, stored, symmetry, true))
}

/// A proved position: whether the side to move wins, and in how many plies
/// (at most) the game ends when the winner keeps to the proof's moves and
/// the loser resists longest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Proven {
    pub(super) mover_wins: bool,
    pub(super) plies: u32,
    /// The winning move, or the loser's longest resistance; packed. None
    /// where the game's bound decided without a move.
    pub(super) best_move: Option<u16>,
}

impl Proven {
    fn pack(self) -> u32 {
        let mv = self.best_move.map_or(0, |bits| (1 << 16) | bits as u32);
        VALID | (self.mover_wins as u32) << 30 | (self.plies.min(0xff)) << 17 | mv
    }

    fn unpack(data: u32) -> Proven {
        Proven {
            mover_wins: data & (1 << 30) != 0,
            plies: (data >> 17) & 0xff,
            best_move: (data & (1 << 16) != 0).then_some(data as u16),
        }
    }
}

const VALID: u32 = 1 << 31;

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    data: u32,
    /// log2 of the nodes the proof took: cheap proofs give way to costly ones.
    work: u8,
}

/// Proved positions, kept across searches of the same game: a proof only
/// grows while it fits. Keys are shared by positions equal up to a
/// symmetry, and moves are stored as seen in that shared form. Two slots a
/// bucket; a new proof replaces the cheaper one.
pub(super) struct ProofTable {
    slots: Vec<Slot>,
    /// The slots asked for: more than `slots` holds where the memory could not be had.
    wanted: usize,
}

impl ProofTable {
    /// A table of at most `megabytes`, smaller where the memory cannot be had.
    pub(super) fn new(megabytes: usize) -> ProofTable {
        let wanted = ((megabytes.max(1) << 20) / std::mem::size_of::<Slot>()).max(2);
        // A power of two, so a key's low bits pick its bucket.
        let wanted = if wanted.is_power_of_two() { wanted } else { wanted.next_power_of_two() / 2 };
        let mut count = wanted;
        loop {
            let reserved = super::tt::reserve_table(count);
            if reserved.is_some() || count == 2 {
                let mut slots = reserved.unwrap_or_default();
                super::tt::advise_huge_pages(slots.as_ptr(), slots.capacity() * std::mem::size_of::<Slot>());
                // Written at once, so that no search pays for the pages later.
                slots.resize(count, Slot::default());
                return ProofTable { slots, wanted };
            }
            count /= 2;
        }
    }

    /// The table's size in megabytes, and the size asked for (more where
    /// the memory could not be had).
    pub(super) fn megabytes(&self) -> (usize, usize) {
        let megabytes = |slots: usize| slots * std::mem::size_of::<Slot>() >> 20;
        (megabytes(self.slots.len()), megabytes(self.wanted))
    }

    /// Forgets every proof, on `threads` threads.
    pub(super) fn clear(&mut self, threads: usize) {
        super::tt::clear_on_threads(&mut self.slots, threads);
    }

    fn bucket(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 2)
    }

    /// Starts fetching `key`'s bucket into the cache, to be read soon.
    fn prefetch(&self, key: u64) {
        super::tt::prefetch(&self.slots[self.bucket(key)]);
    }

    /// The proof of the position of `key`, if kept.
    pub(super) fn get(&self, key: u64) -> Option<Proven> {
        let bucket = self.bucket(key);
        self.slots[bucket..bucket + 2]
            .iter()
            .find(|slot| slot.key == key && slot.data & VALID != 0)
            .map(|slot| Proven::unpack(slot.data))
    }

    fn insert(&mut self, key: u64, proven: Proven, nodes: u64) {
        let bucket = self.bucket(key);
        let work = (64 - nodes.leading_zeros()) as u8;
        let pair = &mut self.slots[bucket..bucket + 2];
        let index = if let Some(same) = pair.iter().position(|slot| slot.key == key) {
            same
        } else if pair[0].work <= pair[1].work {
            0
        } else {
            1
        };
        pair[index] = Slot { key, data: proven.pack(), work };
    }
}

/// Why a proof stopped before the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Unproven {
    /// Out of nodes, or told to stop.
    Interrupted,
    /// A draw was reached, which a win/loss proof cannot weigh.
    Draw,
}

/// A child waiting to be searched, with its place in the order.
struct Child<G: SearchGame> {
    priority: i32,
    mv: G::Move,
    position: G::Position,
    /// The child's `symmetric_key` when the game looks children up ahead
    /// (see `Policy::proof_lookahead`), then kept for its own search.
    symmetric_key: Option<(u64, usize)>,
}

/// One proof attempt. `same_side` says whether two players are on one side
/// (with more than two players, the others form a coalition against the
/// root player); `key_salt` is mixed into every key.
pub(super) struct Prover<'a, G: SearchGame> {
    game: &'a G,
    table: &'a mut ProofTable,
    same_side: &'a dyn Fn(usize, usize) -> bool,
    key_salt: u64,
    /// Whether children are looked up before any is searched (the game's
    /// `Policy::proof_lookahead`).
    lookahead: bool,
    /// Called every `proof_poll_interval` nodes with the count so far: true to stop.
    interrupt: &'a mut dyn FnMut(u64) -> bool,
    /// Nodes visited so far.
    pub(super) nodes: u64,
    /// Children of the node at each ply, reused.
    children: Vec<Vec<Child<G>>>,
    moves: Vec<G::Move>,
}

impl<'a, G: SearchGame> Prover<'a, G> {
    /// A prover of `game` keeping its proofs in `table`.
    pub(super) fn new(
        game: &'a G,
        table: &'a mut ProofTable,
        same_side: &'a dyn Fn(usize, usize) -> bool,
        key_salt: u64,
        interrupt: &'a mut dyn FnMut(u64) -> bool,
    ) -> Self {
        let lookahead = game.policy().proof_lookahead;
        Prover {
            game,
            table,
            same_side,
            key_salt,
            lookahead,
            interrupt,
            nodes: 0,
            children: Vec::new(),
            moves: Vec::new(),
        }
    }

    /// Proves who wins `root`. The root itself is always searched, so a
    /// proof of it names a move.
    pub(super) fn prove(&mut self, root: &G::Position) -> Result<Proven, Unproven> {
        self.prove_at(root, None, 0)
    }

    /// `symmetric_key`: the game's `symmetric_key(position)`, if known.
    fn prove_at(
        &mut self,
        position: &G::Position,
        symmetric_key: Option<(u64, usize)>,
        ply: usize,
    ) -> Result<Proven, Unproven> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(PARAMS.proof_poll_interval) && (self.interrupt)(self.nodes) {
            return Err(Unproven::Interrupted);
        }
        let nodes_before = self.nodes;
        let (key, symmetry) = symmetric_key.unwrap_or_else(|| self.game.symmetric_key(position));
        let key = key ^ self.key_salt;
        if let Some(proven) = self.table.get(key)
            && (ply > 0 || proven.best_move.is_some())
        {
            return Ok(proven);
        }
        if ply > 0
            && let Some((mover_wins, plies)) = self.game.proof_verdict(position)
        {
            let proven = Proven { mover_wins, plies, best_move: None };
            self.table.insert(key, proven, 1);
            return Ok(proven);
        }
        let mover = self.game.mover(position);
        self.moves.clear();
        self.game.legal_moves(position, &mut self.moves);
        if self.moves.is_empty() {
            return match self.game.winner(position) {
                None => Err(Unproven::Draw),
                Some(winner) => {
                    let proven = Proven { mover_wins: (self.same_side)(winner, mover), plies: 0, best_move: None };
                    self.table.insert(key, proven, 1);
                    Ok(proven)
                }
            };
        }
        if self.children.len() <= ply {
            self.children.resize_with(ply + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut self.children[ply]);
        let outcome = self.search_children(position, mover, &mut children, ply);
        self.children[ply] = children;
        let (mover_wins, plies, mv) = outcome?;
        let best_move = Some(G::move_to_bits(self.game.transform_move(position, mv, symmetry, false)));
        let proven = Proven { mover_wins, plies, best_move };
        self.table.insert(key, proven, self.nodes - nodes_before + 1);
        Ok(proven)
    }

    /// Whether `mover` wins by one of the moves in `self.moves`, in how
    /// many plies, and by which move (or the longest resistance).
    fn search_children(
        &mut self,
        position: &G::Position,
        mover: usize,
        children: &mut Vec<Child<G>>,
        ply: usize,
    ) -> Result<(bool, u32, G::Move), Unproven> {
        let game = self.game;
        let mut longest: Option<(u32, G::Move)> = None;
        children.clear();
        // All children's buckets are fetched at once, then looked at: the
        // table's cache misses overlap instead of coming one after another.
        let lookahead = self.lookahead;
        for &mv in &self.moves {
            let child = game.play(position, mv);
            let symmetric_key = lookahead.then(|| game.symmetric_key(&child));
            if let Some((key, _)) = symmetric_key {
                self.table.prefetch(key ^ self.key_salt);
            }
            children.push(Child { priority: 0, mv, position: child, symmetric_key });
        }
        let mut index = 0;
        // At the root, of the wins already proved the quickest is played.
        let mut quickest: Option<(u32, G::Move)> = None;
        while index < children.len() {
            let child = &mut children[index];
            if let Some(below) = child.symmetric_key.and_then(|(key, _)| self.table.get(key ^ self.key_salt)) {
                let plies = below.plies + 1;
                if self.mover_wins_through(&child.position, mover, below) {
                    if ply > 0 {
                        return Ok((true, plies, child.mv));
                    }
                    if quickest.is_none_or(|(fewest, _)| plies < fewest) {
                        quickest = Some((plies, child.mv));
                    }
                }
                if longest.is_none_or(|(most, _)| plies > most) {
                    longest = Some((plies, child.mv));
                }
                children.swap_remove(index);
                continue;
            }
            child.priority = game.proof_priority(position, child.mv, &child.position);
            index += 1;
        }
        if let Some((plies, mv)) = quickest {
            return Ok((true, plies, mv));
        }
        // Stable: equal priorities keep the game's order.
        children.sort_by_key(|child| std::cmp::Reverse(child.priority));
        for child in children.iter() {
            let below = self.prove_at(&child.position, child.symmetric_key, ply + 1)?;
            let plies = below.plies + 1;
            if self.mover_wins_through(&child.position, mover, below) {
                return Ok((true, plies, child.mv));
            }
            if longest.is_none_or(|(most, _)| plies > most) {
                longest = Some((plies, child.mv));
            }
        }
        let (plies, mv) = longest.expect("at least one move");
        Ok((false, plies, mv))
    }

    /// Whether `mover` wins when the game goes on to `child`, proved `below`.
    fn mover_wins_through(&self, child: &G::Position, mover: usize, below: Proven) -> bool {
        if (self.same_side)(self.game.mover(child), mover) { below.mover_wins } else { !below.mover_wins }
    }
}
