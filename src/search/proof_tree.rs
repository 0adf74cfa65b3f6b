//! Proof trees: where the side to move wins, the winning move of every
//! position of one proof, for every reply of the loser, down to positions
//! cheap enough to prove during a move. A game can carry such a tree as
//! data (a book of proved moves) and play it where a proof in the time of a
//! move is out of reach; `check_proof_tree` proves a carried tree again.

use std::collections::{HashMap, HashSet};

use super::game::{GameRules, SearchGame};
use super::solver::{ProofTable, Proven, Prover, proved_move};

/// One position of a proof tree: the winner to move, its proved move, and
/// at most how many plies the game then lasts.
#[derive(Clone, Debug)]
pub struct ProofTreeEntry<P, M> {
    /// The position, the winner to move.
    pub position: P,
    /// The winner's proved move there.
    pub mv: M,
    /// At most how many plies the game lasts after the move.
    pub plies: u32,
}

/// A game's proof tree: its entries, the root first.
pub type ProofTreeEntries<G> = Vec<ProofTreeEntry<<G as GameRules>::Position, <G as GameRules>::Move>>;

/// The table of the cheap proofs that end a tree, in megabytes: a proof
/// of a leaf's few nodes needs little, and the table is cleared for each.
const LEAF_TABLE_MEGABYTES: usize = 4;

/// Which positions end a tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leaves {
    /// Positions the side to move is proved to win within this many nodes
    /// with a cleared table.
    pub nodes: u64,
    /// Only where the search in play tries proofs: the game's bound on the
    /// plies left is within its `proof_horizon` (as for one thread under a
    /// clock). A position the search would not try to prove is then no
    /// leaf however cheap its proof, since nothing in play would settle it.
    /// (POLD.R's books were written without it: some of the 6x6 book's
    /// leaves are beyond its horizon of 90 plies.)
    pub in_play: bool,
}

/// Whether `position` ends a tree under `leaves`.
fn is_leaf<G: SearchGame>(game: &G, position: &G::Position, leaves: Leaves, table: &mut ProofTable) -> bool {
    let tried =
        !leaves.in_play || game.plies_left_bound(position).is_some_and(|bound| bound <= game.policy().proof_horizon);
    tried && wins_within(game, position, leaves.nodes, table)
}

/// Whether the side to move at `position` is proved to win within
/// `nodes` nodes, with a cleared `table`.
fn wins_within<G: SearchGame>(game: &G, position: &G::Position, nodes: u64, table: &mut ProofTable) -> bool {
    table.clear(1);
    let same_side = |a: usize, b: usize| a == b;
    let mut interrupt = |visited: u64| visited >= nodes;
    let mut prover = Prover::new(game, table, &same_side, 0, &mut interrupt);
    prover.prove(position).is_ok_and(|proven| proven.mover_wins)
}

/// The positions where `winner` moves next after `position`, through
/// every reply of the other side (`winner` moved last); `Err` where the
/// game ends without `winner` winning.
fn next_winner_positions<G: SearchGame>(
    game: &G,
    position: &G::Position,
    winner: usize,
    found: &mut Vec<G::Position>,
) -> Result<(), String> {
    let mut moves = Vec::new();
    game.legal_moves(position, &mut moves);
    if moves.is_empty() {
        return match game.winner(position) {
            Some(seat) if seat == winner => Ok(()),
            _ => Err("a reply ends the game without the winner's win".to_string()),
        };
    }
    if game.mover(position) == winner {
        found.push(*position);
        return Ok(());
    }
    for mv in moves {
        next_winner_positions(game, &game.play(position, mv), winner, found)?;
    }
    Ok(())
}

/// The proof tree of `root`, a two-player position: the proved move of
/// every position the winner meets, whatever the loser replies (positions
/// equal up to a symmetry once), except the `leaves`. Where the side to
/// move wins, the root is always the first entry; where it loses, the tree
/// starts from every one of its moves (the winner's positions after them
/// are entries unless they are leaves). The full proofs use a table of
/// `megabytes`. `Err` if no proof is found.
pub fn build_proof_tree<G: SearchGame>(
    game: &G,
    root: &G::Position,
    leaves: Leaves,
    megabytes: usize,
) -> Result<ProofTreeEntries<G>, String> {
    let mut builder = TreeBuilder::new(game, root, leaves, megabytes)?;
    if !builder.add_tree(root)? {
        // Two players: seats 0 and 1.
        let winner = 1 - game.mover(root);
        let mut stack = Vec::new();
        next_winner_positions(game, root, winner, &mut stack)?;
        builder.grow(stack, winner)?;
    }
    Ok(builder.entries)
}

/// `build_proof_tree` where the side to move's winning move `first` is
/// known already (a campaign proved it): the root's entry is that move,
/// and only the position after it is proved, not the root, whose other
/// moves may take far longer to refute than `first` takes to win. The
/// same entries as `build_proof_tree` where it finds the same move. `Err`
/// where `first` is not proved to win.
pub fn build_proof_tree_from<G: SearchGame>(
    game: &G,
    root: &G::Position,
    first: G::Move,
    leaves: Leaves,
    megabytes: usize,
) -> Result<ProofTreeEntries<G>, String> {
    if !game.is_legal(root, first) {
        return Err(format!("{first}: not a legal move here"));
    }
    let mut builder = TreeBuilder::new(game, root, leaves, megabytes)?;
    let proven = builder.prove(&game.play(root, first))?;
    if proven.mover_wins {
        return Err(format!("{first} is not proved to win: it loses"));
    }
    // The position's plies, as a proof of the root counts them through this move.
    builder.entries.push(ProofTreeEntry { position: *root, mv: first, plies: proven.plies + 1 });
    builder.grow_below(root, first)?;
    Ok(builder.entries)
}

/// The refutations of `root`'s losing moves: for every move of the side to
/// move after which the other side is proved to win (one move of each
/// class of moves equal up to a symmetry), the other side's proof tree, as
/// `build_proof_tree` makes it, one after the other (a position shared by
/// two trees once). A book of them turns an opponent's early mistake into
/// a win when the proof is out of reach in a move's time. `Ok` and empty
/// where no move loses.
pub fn build_refutation_trees<G: SearchGame>(
    game: &G,
    root: &G::Position,
    leaves: Leaves,
    megabytes: usize,
) -> Result<ProofTreeEntries<G>, String> {
    let mut builder = TreeBuilder::new(game, root, leaves, megabytes)?;
    let mut moves = Vec::new();
    game.legal_moves(root, &mut moves);
    let mut replies_seen = HashSet::new();
    let mut replies = Vec::new();
    for mv in moves {
        let reply = game.play(root, mv);
        replies.clear();
        game.legal_moves(&reply, &mut replies);
        // A move that ends the game needs no tree.
        if !replies.is_empty() && replies_seen.insert(game.symmetric_key(&reply).0) {
            builder.add_tree(&reply)?;
        }
    }
    Ok(builder.entries)
}

/// Proof trees being written: the tables of their proofs and the entries
/// found so far.
struct TreeBuilder<'g, G: SearchGame> {
    game: &'g G,
    leaves: Leaves,
    table: ProofTable,
    leaf_table: ProofTable,
    entries: ProofTreeEntries<G>,
    /// The positions met (by their symmetric key), entries and leaves.
    seen: HashSet<u64>,
}

impl<'g, G: SearchGame> TreeBuilder<'g, G> {
    fn new(game: &'g G, root: &G::Position, leaves: Leaves, megabytes: usize) -> Result<Self, String> {
        if game.players(root) != 2 {
            return Err("proof trees are for two players".to_string());
        }
        Ok(TreeBuilder {
            game,
            leaves,
            table: ProofTable::new(megabytes),
            leaf_table: ProofTable::new(LEAF_TABLE_MEGABYTES),
            entries: Vec::new(),
            seen: HashSet::new(),
        })
    }

    /// Adds the proof tree of `root` if its side to move wins (`root` is
    /// then an entry, or was one already); returns whether it wins.
    fn add_tree(&mut self, root: &G::Position) -> Result<bool, String> {
        let game = self.game;
        let root_key = game.symmetric_key(root).0;
        if self.seen.contains(&root_key) {
            return Ok(true);
        }
        let Some(mv) = self.add_entry(root)? else {
            return Ok(false);
        };
        self.grow_below(root, mv)?;
        Ok(true)
    }

    /// Grows the tree below `root`, an entry whose winner plays `mv`.
    fn grow_below(&mut self, root: &G::Position, mv: G::Move) -> Result<(), String> {
        let game = self.game;
        self.seen.insert(game.symmetric_key(root).0);
        let winner = game.mover(root);
        let mut stack = Vec::new();
        next_winner_positions(game, &game.play(root, mv), winner, &mut stack)?;
        self.grow(stack, winner)
    }

    /// Adds the winner's positions on `stack` and the tree below each,
    /// but for the leaves and the positions met already.
    fn grow(&mut self, mut stack: Vec<G::Position>, winner: usize) -> Result<(), String> {
        let game = self.game;
        while let Some(position) = stack.pop() {
            if !self.seen.insert(game.symmetric_key(&position).0)
                || is_leaf(game, &position, self.leaves, &mut self.leaf_table)
            {
                continue;
            }
            let Some(mv) = self.add_entry(&position)? else {
                return Err("a position of the tree is lost for the winner".to_string());
            };
            next_winner_positions(game, &game.play(&position, mv), winner, &mut stack)?;
        }
        Ok(())
    }

    /// Proves `position` with the full proofs' table.
    fn prove(&mut self, position: &G::Position) -> Result<Proven, String> {
        let same_side = |a: usize, b: usize| a == b;
        let mut interrupt = |_: u64| false;
        Prover::new(self.game, &mut self.table, &same_side, 0, &mut interrupt)
            .prove(position)
            .map_err(|unproven| format!("no proof: {unproven:?}"))
    }

    /// Proves `position` and adds it with its proved move if its side to
    /// move wins; returns that move, `None` where it does not win.
    fn add_entry(&mut self, position: &G::Position) -> Result<Option<G::Move>, String> {
        let game = self.game;
        let proven = self.prove(position)?;
        if !proven.mover_wins {
            return Ok(None);
        }
        let mv = proved_move(game, position, &self.table, 0)
            .filter(|&mv| game.is_legal(position, mv))
            .ok_or("a proof without its move")?;
        self.entries.push(ProofTreeEntry { position: *position, mv, plies: proven.plies });
        Ok(Some(mv))
    }
}

/// Proves `root` again from a proof tree. Where the root is an entry, its
/// side to move is the winner; otherwise the other side is, and every move
/// at the root is a reply of the loser. Each entry's move must be the
/// winner's and legal, and every reply of the loser must lead to the
/// winner's win, to another entry (up to a symmetry), or to a leaf (the
/// winner proved to win within `leaves.nodes` nodes with a cleared table,
/// where the search in play tries proofs if `leaves.in_play`). Returns how
/// many leaves were proved; `Err` says where the tree fails.
pub fn check_proof_tree<G: SearchGame>(
    game: &G,
    root: &G::Position,
    entries: &[(G::Position, G::Move)],
    leaves: Leaves,
) -> Result<usize, String> {
    check_proof_tree_sample(game, root, entries, leaves, |_| true)
}

/// `check_proof_tree` for the entries whose index `sampled` picks (and the
/// root's replies where the root is no entry): a check of part of a tree
/// too large to prove again in full every time. Every entry still counts
/// as proved where a reply leads to it.
pub fn check_proof_tree_sample<G: SearchGame>(
    game: &G,
    root: &G::Position,
    entries: &[(G::Position, G::Move)],
    leaves: Leaves,
    sampled: impl Fn(usize) -> bool,
) -> Result<usize, String> {
    if game.players(root) != 2 {
        return Err("proof trees are for two players".to_string());
    }
    let keys: HashMap<u64, usize> =
        entries.iter().enumerate().map(|(index, (position, _))| (game.symmetric_key(position).0, index)).collect();
    let root_entry = keys.contains_key(&game.symmetric_key(root).0);
    // Two players: seats 0 and 1.
    let winner = if root_entry { game.mover(root) } else { 1 - game.mover(root) };
    let mut leaf_table = ProofTable::new(LEAF_TABLE_MEGABYTES);
    let mut leaves_proved = HashSet::new();
    let mut check_replies = |after: &G::Position, place: &str| -> Result<(), String> {
        let mut next = Vec::new();
        next_winner_positions(game, after, winner, &mut next).map_err(|error| format!("{place}: {error}"))?;
        for child in next {
            let key = game.symmetric_key(&child).0;
            if keys.contains_key(&key) || leaves_proved.contains(&key) {
                continue;
            }
            if !is_leaf(game, &child, leaves, &mut leaf_table) {
                return Err(format!("{place}: a reply leads to a position neither an entry nor proved"));
            }
            leaves_proved.insert(key);
        }
        Ok(())
    };
    if !root_entry {
        check_replies(root, "the root")?;
    }
    for (index, (position, mv)) in entries.iter().enumerate().filter(|&(index, _)| sampled(index)) {
        if game.mover(position) != winner || !game.is_legal(position, *mv) {
            return Err(format!("entry {}: not the winner's legal move", index + 1));
        }
        check_replies(&game.play(position, *mv), &format!("entry {}", index + 1))?;
    }
    Ok(leaves_proved.len())
}
