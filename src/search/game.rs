//! The small interface the search needs from a game. Everything the search
//! knows about a game comes through it, so every game shares one search.

use std::fmt;

/// How a finished game ended, as far as the search cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The player of this seat (0 = the first player) won.
    Win(usize),
    Draw,
}

/// Scores are for a given player's side; `evaluate` must stay well inside
/// `±MATE_BOUND` so it is never mistaken for a won or lost game. Players are
/// seats numbered from 0. Nothing here assumes that the mover changes every
/// ply or that there are two players. Search threads share the game and the
/// root, hence `Sync` and `Send`.
pub trait SearchGame: Sync {
    type Position: Copy + Send + Sync;
    type Move: Copy + Eq + fmt::Display + fmt::Debug + Send + Sync;

    /// A key for the transposition table and repetition detection.
    fn hash(&self, position: &Self::Position) -> u64;

    /// How many players the game of this position has.
    fn players(&self, position: &Self::Position) -> usize;

    /// The seat whose turn it is.
    fn mover(&self, position: &Self::Position) -> usize;

    /// Every legal move (a pass is a move where the game has one). No legal
    /// move means the game is over: `final_outcome` says how it ended.
    fn legal_moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>);

    /// The position after `mv`, which is legal.
    fn play(&self, position: &Self::Position, mv: Self::Move) -> Self::Position;

    /// Makes `child` the position after `mv`, which is legal. `child` holds
    /// an earlier child of the same node: a game whose positions are large
    /// can write it in place rather than return a copy to be copied again.
    fn play_into(&self, position: &Self::Position, mv: Self::Move, child: &mut Self::Position) {
        *child = self.play(position, mv);
    }

    /// The key the position after `mv` most likely has, where the game can
    /// tell without playing it: the search fetches that table slot early.
    /// A wrong guess costs nothing but the fetch.
    fn child_hash_hint(&self, _position: &Self::Position, _mv: Self::Move) -> Option<u64> {
        None
    }

    /// How promising `mv` looks before any search, in the units of the
    /// search's history scores (a cut-off `d` plies from the leaves adds
    /// `d²`): it orders the moves history knows little about.
    fn order_hint(&self, _position: &Self::Position, _mv: Self::Move) -> i32 {
        0
    }

    /// Whether `mv` (say, read from the transposition table) is legal here.
    fn is_legal(&self, position: &Self::Position, mv: Self::Move) -> bool;

    /// The result of a position with no legal move: the game decides it.
    fn final_outcome(&self, position: &Self::Position) -> Outcome;

    /// A static score for `player`'s side, or `None` when the position has
    /// no legal move (the game is over), which a leaf must not miss.
    fn evaluate(&self, position: &Self::Position, player: usize) -> Option<i32>;

    /// Draws a lone position tells, such as a ply limit. Repetitions are the search's business.
    fn is_draw(&self, position: &Self::Position) -> bool;

    /// Whether a repeated position is a draw in this game.
    fn repetition_is_draw(&self) -> bool;

    /// How promising `mv`, leading to `child`, looks before any search
    /// (higher first): proofs try moves in this order.
    fn proof_priority(&self, _position: &Self::Position, _mv: Self::Move, _child: &Self::Position) -> i32 {
        0
    }

    /// Whether proofs look every child up in their table before searching
    /// any (enhanced transposition cut-offs). Worth it where a child's
    /// `symmetric_key` is cheap next to searching it; not where working out
    /// the shared form of every child costs more than the cut-offs save.
    fn proof_lookahead(&self) -> bool {
        true
    }

    /// Who wins, where a sound bound of the game decides it without a
    /// search (never a guess): whether the side to move wins, and at most
    /// how many plies the game lasts. Proofs take it as proved.
    fn proof_verdict(&self, _position: &Self::Position) -> Option<(bool, u32)> {
        None
    }

    /// A key shared by all positions that are the same up to a symmetry of
    /// the game (for proofs), and the symmetry that takes `position` to the
    /// shared form. Without symmetries: the hash and 0.
    fn symmetric_key(&self, position: &Self::Position) -> (u64, usize) {
        (self.hash(position), 0)
    }

    /// `mv` taken through symmetry `symmetry` (or back, with `inverse`).
    fn transform_move(
        &self,
        _position: &Self::Position,
        mv: Self::Move,
        _symmetry: usize,
        _inverse: bool,
    ) -> Self::Move {
        mv
    }

    /// At most how many plies the game can last from here, where the game
    /// knows a bound small enough for a search to the end to be worth
    /// trying; `None` otherwise.
    fn plies_left_bound(&self, _position: &Self::Position) -> Option<u32> {
        None
    }

    /// In timed play, proofs are tried only where `plies_left_bound` is at
    /// most this: beyond it they rarely finish in a move's time.
    fn proof_horizon(&self) -> u32 {
        90
    }

    /// With two search threads or more, one of them proves the whole search
    /// long where `plies_left_bound` is at most this. Its nodes cost the
    /// iterations no time, only the helper it would otherwise be.
    fn dedicated_proof_horizon(&self) -> u32 {
        self.proof_horizon()
    }

    /// Whether the quiet moves searched before a cut-off lose the history
    /// the cut-off move gains. Measured per game (README, "History malus").
    fn history_malus(&self) -> bool {
        false
    }

    /// Whether a node far below alpha near the leaves searches only its
    /// first move, the table's and the killers (futility pruning).
    /// Measured per game (README, "Futility pruning").
    fn futility_pruning(&self) -> bool {
        false
    }

    /// About how many more moves the side to move will play, for sharing
    /// out its clock.
    fn expected_moves_left(&self, position: &Self::Position) -> u32;

    /// Packs a move into 16 bits for the transposition table.
    fn move_to_bits(mv: Self::Move) -> u16;

    /// Unpacks stored bits; `None` if they are not a move at all.
    fn move_from_bits(bits: u16) -> Option<Self::Move>;
}
