//! Win/loss proofs: a search to the end of the game with no evaluation that
//! asks only which side wins. It tries the game's most promising moves
//! first, looks up every child in the table before searching any where the
//! game says that pays (an enhanced transposition cutoff: one child already
//! proved lost for its mover settles the node), takes the game's word where
//! a sound bound decides a position, and remembers what it proved. Only for
//! games without draws within reach (a draw leaves the proof unfinished).

use std::collections::HashMap;

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
    /// The slots a growing table may double up to (`slots.len()` for one that does not grow).
    limit: usize,
    /// Slots holding a proof.
    filled: usize,
}

/// A growing table starts with this many slots (1 MiB).
const GROWING_START_SLOTS: usize = 1 << 16;

impl ProofTable {
    /// A table of at most `megabytes`, smaller where the memory cannot be
    /// had, written at once so that no search pays for the pages later.
    pub(super) fn new(megabytes: usize) -> ProofTable {
        let wanted = Self::slots_for(megabytes);
        let mut count = wanted;
        loop {
            if let Some(slots) = Self::written_slots(count) {
                return ProofTable { slots, wanted, limit: count, filled: 0 };
            }
            count /= 2;
        }
    }

    /// A table that starts small (1 MiB) and doubles each time half its
    /// slots hold proofs, up to `megabytes` (or as far as the memory can be
    /// had): a proof takes memory as it needs it, and a small one answers
    /// at once. For a single proof's search; a search under a clock would
    /// pay for the doubling.
    pub(super) fn growing(megabytes: usize) -> ProofTable {
        let wanted = Self::slots_for(megabytes);
        let mut table = ProofTable::new((GROWING_START_SLOTS.min(wanted) * std::mem::size_of::<Slot>()) >> 20);
        (table.wanted, table.limit) = (wanted, wanted);
        table
    }

    /// The slots of `megabytes`: a power of two, so a key's low bits pick its bucket.
    fn slots_for(megabytes: usize) -> usize {
        super::tt::power_of_two_entries(megabytes, std::mem::size_of::<Slot>(), 2)
    }

    /// `count` empty slots, if the memory can be had (two at least, always).
    fn written_slots(count: usize) -> Option<Vec<Slot>> {
        let reserved = super::tt::reserve_table(count);
        if reserved.is_none() && count > 2 {
            return None;
        }
        let mut slots = reserved.unwrap_or_default();
        super::tt::advise_huge_pages(slots.as_ptr(), slots.capacity() * std::mem::size_of::<Slot>());
        slots.resize(count, Slot::default());
        Some(slots)
    }

    /// Twice the slots, each proof moved to its bucket there: the two
    /// slots of a bucket go to the same bucket or to the one `len` further,
    /// so every proof finds a place. Where the memory cannot be had the
    /// table stops growing.
    fn grow(&mut self) {
        let count = self.slots.len() * 2;
        let Some(mut slots) = Self::written_slots(count) else {
            self.limit = self.slots.len();
            return;
        };
        for slot in self.slots.iter().filter(|slot| slot.data & VALID != 0) {
            let bucket = (slot.key as usize) & (count - 2);
            let index = if slots[bucket].data & VALID == 0 { bucket } else { bucket + 1 };
            slots[index] = *slot;
        }
        self.slots = slots;
    }

    /// The table's size in megabytes, and the size asked for (more where
    /// the memory could not be had).
    pub(super) fn megabytes(&self) -> (usize, usize) {
        let megabytes = |slots: usize| (slots * std::mem::size_of::<Slot>()) >> 20;
        (megabytes(self.slots.len()), megabytes(self.wanted))
    }

    /// Forgets every proof, on `threads` threads.
    pub(super) fn clear(&mut self, threads: usize) {
        super::tt::clear_on_threads(&mut self.slots, threads);
        self.filled = 0;
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
        // A growing table grows rather than let a proof go (more than once
        // where the keys still share their bucket).
        while self.slots.len() < self.limit {
            let bucket = self.bucket(key);
            let pair = &self.slots[bucket..bucket + 2];
            if !pair.iter().all(|slot| slot.data & VALID != 0 && slot.key != key) {
                break;
            }
            self.grow();
        }
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
        self.filled += usize::from(pair[index].data & VALID == 0);
        pair[index] = Slot { key, data: proven.pack(), work };
        if self.filled * 2 > self.slots.len() && self.slots.len() < self.limit {
            self.grow();
        }
    }
}

/// A proof made better by bounded searches: the move, and the plies the
/// game then lasts (exactly, or as far as the search went).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Improved<M> {
    pub(super) mv: M,
    pub(super) plies: u32,
    /// The quickest win, or the longest resistance, for certain.
    pub(super) exact: bool,
}

/// A win within a bound: the plies it takes, and the move where one was searched.
type QuickWin<M> = (u32, Option<M>);

/// Salts the key of a position where the side asked about moves, in the
/// bounded searches' record of positions without a quick win.
const SIDE_MOVES_SALT: u64 = 0x5bd1_e995_7f4a_7c15;

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
    /// Children of the node at each ply, reused: written over in place,
    /// since a game's positions may be large.
    children: Vec<Vec<Child<G>>>,
    /// The order the children at each ply are searched in, as indices
    /// into `children`: sorting these moves no positions.
    orders: Vec<Vec<u32>>,
    moves: Vec<G::Move>,
    /// For the bounded searches that improve a proof: positions (keyed
    /// with the side asked about) where that side has no win within the
    /// most plies stored.
    no_win_within: HashMap<u64, u32>,
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
            orders: Vec::new(),
            moves: Vec::new(),
            no_win_within: HashMap::new(),
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
            && let Some(decided) = self.game.decided(position)
        {
            let mover_wins = (self.same_side)(decided.winner, self.game.mover(position));
            let proven = Proven { mover_wins, plies: decided.plies, best_move: None };
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
        let (mut children, mut order) = self.take_buffers(ply);
        let outcome = self.search_children(position, mover, &mut children, &mut order, ply);
        (self.children[ply], self.orders[ply]) = (children, order);
        let (mover_wins, plies, mv) = outcome?;
        let best_move = Some(G::move_to_bits(self.game.transform_move(position, mv, symmetry, false)));
        let proven = Proven { mover_wins, plies, best_move };
        self.table.insert(key, proven, self.nodes - nodes_before + 1);
        Ok(proven)
    }

    /// The children and order buffers of `ply`, taken out of `self` for
    /// the node's search and put back after it.
    fn take_buffers(&mut self, ply: usize) -> (Vec<Child<G>>, Vec<u32>) {
        if self.children.len() <= ply {
            self.children.resize_with(ply + 1, Vec::new);
            self.orders.resize_with(ply + 1, Vec::new);
        }
        (std::mem::take(&mut self.children[ply]), std::mem::take(&mut self.orders[ply]))
    }

    /// Makes `children` the positions after each move of `self.moves`, in
    /// order, each written over an earlier child where there is one; with
    /// `keys`, each with its `symmetric_key`, its table bucket fetched.
    /// `order` lists them all.
    fn fill_children(
        &mut self,
        position: &G::Position,
        children: &mut Vec<Child<G>>,
        order: &mut Vec<u32>,
        keys: bool,
    ) {
        let game = self.game;
        for (index, &mv) in self.moves.iter().enumerate() {
            if index < children.len() {
                let child = &mut children[index];
                game.play_into(position, mv, &mut child.position);
                (child.mv, child.priority) = (mv, 0);
            } else {
                children.push(Child { priority: 0, mv, position: game.play(position, mv), symmetric_key: None });
            }
            let child = &mut children[index];
            child.symmetric_key = keys.then(|| game.symmetric_key(&child.position));
            if let Some((key, _)) = child.symmetric_key {
                self.table.prefetch(key ^ self.key_salt);
            }
        }
        children.truncate(self.moves.len());
        order.clear();
        order.extend(0..children.len() as u32);
    }

    /// Whether `mover` wins by one of the moves in `self.moves`, in how
    /// many plies, and by which move (or the longest resistance).
    fn search_children(
        &mut self,
        position: &G::Position,
        mover: usize,
        children: &mut Vec<Child<G>>,
        order: &mut Vec<u32>,
        ply: usize,
    ) -> Result<(bool, u32, G::Move), Unproven> {
        let game = self.game;
        let mut longest: Option<(u32, G::Move)> = None;
        // All children's buckets are fetched at once, then looked at: the
        // table's cache misses overlap instead of coming one after another.
        self.fill_children(position, children, order, self.lookahead);
        let mut index = 0;
        // At the root, of the wins already proved the quickest is played.
        let mut quickest: Option<(u32, G::Move)> = None;
        while index < order.len() {
            let child = &mut children[order[index] as usize];
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
                order.swap_remove(index);
                continue;
            }
            child.priority = game.proof_priority(position, child.mv, &child.position);
            index += 1;
        }
        if let Some((plies, mv)) = quickest {
            return Ok((true, plies, mv));
        }
        // Stable: equal priorities keep the game's order.
        order.sort_by_key(|&index| std::cmp::Reverse(children[index as usize].priority));
        for &index in order.iter() {
            let child = &children[index as usize];
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

    /// The quickest win from `root`, proved won for its mover in `plies`:
    /// searches for a win within fewer plies, each bound one below the
    /// last win found, until there is none (the last win is then the
    /// quickest: `exact`) or the interrupt. The wins found are kept in the
    /// table, so the proof's line follows them. None if no quicker win was
    /// found.
    pub(super) fn quicken_win(&mut self, root: &G::Position, plies: u32) -> Option<Improved<G::Move>> {
        let mover = self.game.mover(root);
        let mut quickest = None;
        let mut bound = plies;
        while bound > 1 {
            match self.wins_within(root, mover, bound - 1, 0) {
                Ok(Some((plies, Some(mv)))) => {
                    quickest = Some(Improved { mv, plies, exact: false });
                    bound = plies;
                }
                Ok(_) => break,
                Err(_) => return quickest,
            }
        }
        quickest.map(|found| Improved { exact: true, ..found })
    }

    /// The longest resistance at `root`, proved lost for its mover in at
    /// most `plies`: for bounds 0, 1, 2, ... in turn, the moves after which
    /// the winner has no win within the bound go on to the next, until
    /// none does (those of the bound before resist longest: `exact`) or
    /// the interrupt (then a move that went furthest). Of the moves that
    /// resist longest, `preferred` if it is one. `plies` is the game's
    /// length after it when exact, else the table's bound on it.
    pub(super) fn lengthen_loss(
        &mut self,
        root: &G::Position,
        plies: u32,
        preferred: Option<G::Move>,
    ) -> Option<Improved<G::Move>> {
        let game = self.game;
        let mut moves = Vec::new();
        game.legal_moves(root, &mut moves);
        let mut resisting: Vec<(G::Move, G::Position)> =
            moves.into_iter().map(|mv| (mv, game.play(root, mv))).collect();
        let mover = game.mover(root);
        let winner = (0..game.players(root)).find(|&seat| !(self.same_side)(seat, mover))?;
        let mut exact = false;
        let mut bound = 0;
        while bound < plies {
            let mut further = Vec::new();
            let mut interrupted = false;
            for &(mv, child) in &resisting {
                match self.wins_within(&child, winner, bound, 1) {
                    Ok(Some(_)) => {}
                    Ok(None) => further.push((mv, child)),
                    Err(_) => {
                        interrupted = true;
                        break;
                    }
                }
            }
            if further.is_empty() {
                exact = !interrupted;
                break;
            }
            resisting = further;
            if interrupted {
                break;
            }
            bound += 1;
        }
        let &(mv, child) = resisting.iter().find(|&&(mv, _)| Some(mv) == preferred).or(resisting.first())?;
        let plies = if exact {
            bound + 1
        } else {
            let (key, _) = game.symmetric_key(&child);
            self.table.get(key ^ self.key_salt).map_or(plies, |below| below.plies + 1)
        };
        Some(Improved { mv, plies, exact })
    }

    /// Whether `side` (with its allies) forces a win from `position` within
    /// `limit` plies: the plies it takes, and the move here (the winning
    /// one, or the other side's longest resistance within the bound; none
    /// where the table or the game's bound answered). What is found is
    /// kept in the table where it is quicker than what it holds.
    fn wins_within(
        &mut self,
        position: &G::Position,
        side: usize,
        limit: u32,
        ply: usize,
    ) -> Result<Option<QuickWin<G::Move>>, Unproven> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(PARAMS.proof_poll_interval) && (self.interrupt)(self.nodes) {
            return Err(Unproven::Interrupted);
        }
        let nodes_before = self.nodes;
        let game = self.game;
        let mover = game.mover(position);
        let side_moves = (self.same_side)(mover, side);
        let (key, symmetry) = game.symmetric_key(position);
        let key = key ^ self.key_salt;
        let stored = self.table.get(key);
        if ply > 0 {
            if let Some(proven) = stored {
                if proven.mover_wins != side_moves {
                    return Ok(None);
                }
                if proven.plies <= limit {
                    return Ok(Some((proven.plies, None)));
                }
            }
            if let Some(decided) = game.decided(position) {
                if !(self.same_side)(decided.winner, side) {
                    return Ok(None);
                }
                if decided.plies <= limit {
                    return Ok(Some((decided.plies, None)));
                }
            }
        }
        let failed_key = key ^ if side_moves { SIDE_MOVES_SALT } else { 0 };
        if self.no_win_within.get(&failed_key).is_some_and(|&most| most >= limit) {
            return Ok(None);
        }
        self.moves.clear();
        game.legal_moves(position, &mut self.moves);
        if self.moves.is_empty() {
            let won = game.winner(position).is_some_and(|winner| (self.same_side)(winner, side));
            return Ok(won.then_some((0, None)));
        }
        if limit == 0 {
            return Ok(None);
        }
        let (mut children, mut order) = self.take_buffers(ply);
        self.fill_children(position, &mut children, &mut order, false);
        for child in children.iter_mut() {
            child.priority = game.proof_priority(position, child.mv, &child.position);
        }
        order.sort_by_key(|&index| std::cmp::Reverse(children[index as usize].priority));
        let mut found: Result<Option<(u32, G::Move)>, Unproven> = Ok(None);
        for &index in order.iter() {
            let child = &children[index as usize];
            match self.wins_within(&child.position, side, limit - 1, ply + 1) {
                Err(unproven) => {
                    found = Err(unproven);
                    break;
                }
                Ok(Some((plies, _))) => {
                    let plies = plies + 1;
                    if side_moves {
                        found = Ok(Some((plies, child.mv)));
                        break;
                    }
                    if found.as_ref().is_ok_and(|longest| longest.is_none_or(|(most, _)| plies > most)) {
                        found = Ok(Some((plies, child.mv)));
                    }
                }
                Ok(None) if side_moves => {}
                Ok(None) => {
                    found = Ok(None);
                    break;
                }
            }
        }
        (self.children[ply], self.orders[ply]) = (children, order);
        let found = found?;
        let Some((plies, mv)) = found else {
            let most = self.no_win_within.entry(failed_key).or_insert(0);
            *most = (*most).max(limit);
            if self.no_win_within.len() > PARAMS.bounded_failures_kept {
                self.no_win_within.clear();
            }
            return Ok(None);
        };
        if stored.is_none_or(|proven| plies < proven.plies) {
            let best_move = Some(G::move_to_bits(game.transform_move(position, mv, symmetry, false)));
            let proven = Proven { mover_wins: side_moves, plies, best_move };
            self.table.insert(key, proven, self.nodes - nodes_before + 1);
        }
        Ok(Some((plies, Some(mv))))
    }

    /// Whether `mover` wins when the game goes on to `child`, proved `below`.
    fn mover_wins_through(&self, child: &G::Position, mover: usize, below: Proven) -> bool {
        if (self.same_side)(self.game.mover(child), mover) { below.mover_wins } else { !below.mover_wins }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::game::GameRules;
    use crate::search::test_games::{Shape, Tree, random_tree};

    /// A random two-player game of 80 positions (`random_tree`).
    fn random_game(seed: u64) -> Tree {
        random_tree(seed, &Shape { positions: 80, players: 2, ends_one_in: 6, reach: 12 })
    }

    /// The fewest plies in which `side` forces a win from `node` of `game`,
    /// by brute force, if it can.
    fn quickest(game: &Tree, node: usize, side: usize, memo: &mut HashMap<(usize, usize), Option<u32>>) -> Option<u32> {
        if let Some(&known) = memo.get(&(node, side)) {
            return known;
        }
        let here = &game.nodes[node];
        let below = here.children.iter().map(|&child| quickest(game, child, side, memo));
        let found = if here.children.is_empty() {
            (here.end == Some(side)).then_some(0)
        } else if here.mover == side {
            below.flatten().min().map(|plies| plies + 1)
        } else {
            below.collect::<Option<Vec<u32>>>().and_then(|all| all.into_iter().max()).map(|plies| plies + 1)
        };
        memo.insert((node, side), found);
        found
    }

    #[test]
    fn bounded_searches_find_the_quickest_win_and_the_longest_resistance() {
        let (mut quicker, mut longer) = (0, 0);
        for seed in 0..300 {
            let game = random_game(seed);
            let mut memo = HashMap::new();
            let mut table = ProofTable::new(1);
            let same_side = |a: usize, b: usize| a == b;
            let mut never = |_: u64| false;
            let mut prover = Prover::new(&game, &mut table, &same_side, 0, &mut never);
            let proven = prover.prove(&0).expect("no draws, no interrupt");
            let mover = game.nodes[0].mover;
            let winner = if proven.mover_wins { mover } else { 1 - mover };
            let exact = quickest(&game, 0, winner, &mut memo).expect("the proof's winner wins");
            assert!(proven.plies >= exact, "seed {seed}: a proof shorter than the game allows");
            if proven.mover_wins {
                match prover.quicken_win(&0, proven.plies) {
                    None => assert_eq!(proven.plies, exact, "seed {seed}: a quicker win missed"),
                    Some(improved) => {
                        quicker += 1;
                        assert!(improved.exact, "seed {seed}");
                        assert_eq!(improved.plies, exact, "seed {seed}");
                        assert_eq!(quickest(&game, improved.mv, winner, &mut memo), Some(exact - 1), "seed {seed}");
                    }
                }
            } else {
                let improved = prover.lengthen_loss(&0, proven.plies, None).expect("a lost root has moves");
                assert!(improved.exact, "seed {seed}");
                // The longest resistance: the most plies the winner needs after any move.
                let longest =
                    game.nodes[0].children.iter().filter_map(|&child| quickest(&game, child, winner, &mut memo)).max();
                assert_eq!(Some(improved.plies), longest.map(|plies| plies + 1), "seed {seed}");
                assert_eq!(quickest(&game, improved.mv, winner, &mut memo), Some(improved.plies - 1), "seed {seed}");
                longer += usize::from(improved.plies < proven.plies);
            }
            // What the bounded searches kept is still a proof: the line it
            // gives is legal and ends in the winner's win.
            let mut node = 0;
            while let Some(mv) = proved_move(&game, &node, &table, 0) {
                assert!(game.is_legal(&node, mv), "seed {seed}");
                node = mv;
            }
            assert!(game.nodes[node].children.is_empty() && game.nodes[node].end == Some(winner), "seed {seed}");
        }
        // The games are varied enough to test something.
        assert!(quicker > 10 && longer > 10, "{quicker} quicker wins, {longer} shorter losses");
    }

    #[test]
    fn a_growing_table_keeps_every_proof_until_it_reaches_its_size() {
        let proven = |plies| Proven { mover_wins: plies % 2 == 0, plies, best_move: Some(plies as u16) };
        let mut table = ProofTable::growing(8);
        assert_eq!(table.megabytes(), (1, 8));
        // Keys with a bucket each at the full size (an odd multiple is a
        // permutation of the 2^18 buckets of 8 MiB), scattered so that at
        // the smaller sizes three of them often meet in one bucket: the
        // table must grow before a third comes to a full bucket.
        let keys: Vec<u64> = (1..=200_000u64)
            .map(|index| ((index.wrapping_mul(0x9e37_79b1) & ((1 << 18) - 1)) << 1) | index << 40)
            .collect();
        for (index, &key) in keys.iter().enumerate() {
            table.insert(key, proven(index as u32 % 200), 1);
        }
        assert_eq!(table.megabytes(), (8, 8));
        let kept = keys.iter().enumerate().filter(|&(index, &key)| table.get(key) == Some(proven(index as u32 % 200)));
        assert_eq!(kept.count(), keys.len());
        // At its size it replaces, as a table made whole does.
        for key in 1..=2_000_000u64 {
            table.insert(key.wrapping_mul(0xff51_afd7_ed55_8ccd), proven(1), 1);
        }
        assert_eq!(table.megabytes(), (8, 8));
        // One made whole does not grow.
        let mut whole = ProofTable::new(1);
        for &key in &keys {
            whole.insert(key, proven(1), 1);
        }
        assert_eq!(whole.megabytes(), (1, 1));
    }
}
