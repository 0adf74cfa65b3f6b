//! What the search needs from a game, in three parts kept apart: the rules
//! as the search sees them (`GameRules`), what the game knows beyond its
//! rules to play well (`GameKnowledge`: evaluation, move order, proofs, the
//! clock), and the settings the search takes for it (`Policy`, a plain
//! struct). A game the search can play (`SearchGame`) has all three, so
//! every game shares one search.

use std::fmt;

/// The rules, as far as the search needs them. Players are seats numbered
/// from 0. Nothing here assumes that the mover changes every ply or that
/// there are two players. Search threads share the game and the root,
/// hence `Sync` and `Send`.
pub trait GameRules: Sync {
    /// A position of the game, copied freely.
    type Position: Copy + Send + Sync;
    /// A move of the game, written in its notation by `Display`.
    type Move: Copy + Eq + fmt::Display + fmt::Debug + Send + Sync;

    /// A key for the transposition table and repetition detection.
    fn hash(&self, position: &Self::Position) -> u64;

    /// How many players the game of this position has.
    fn players(&self, position: &Self::Position) -> usize;

    /// The seat whose turn it is.
    fn mover(&self, position: &Self::Position) -> usize;

    /// Every legal move (a pass is a move where the game has one). No legal
    /// move means the game is over: `winner` says how it ended.
    fn legal_moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>);

    /// The position after `mv`, which is legal.
    fn play(&self, position: &Self::Position, mv: Self::Move) -> Self::Position;

    /// Makes `child` the position after `mv`, which is legal. `child` holds
    /// some earlier position (a child of this node or of another at the
    /// same ply), nothing to rely on: a game whose positions are large can
    /// write it in place rather than return a copy to be copied again.
    fn play_into(&self, position: &Self::Position, mv: Self::Move, child: &mut Self::Position) {
        *child = self.play(position, mv);
    }

    /// The key the position after `mv` most likely has, where the game can
    /// tell without playing it: the search fetches that table slot early.
    /// A wrong guess costs nothing but the fetch.
    fn child_hash_hint(&self, _position: &Self::Position, _mv: Self::Move) -> Option<u64> {
        None
    }

    /// Whether `mv` (say, read from the transposition table) is legal here.
    fn is_legal(&self, position: &Self::Position, mv: Self::Move) -> bool;

    /// Who won a position with no legal move (the game is over there): the
    /// winning seat, or `None` for a draw.
    fn winner(&self, position: &Self::Position) -> Option<usize>;

    /// Draws a lone position tells, such as a ply limit. Repetitions are the search's business.
    fn is_draw(&self, position: &Self::Position) -> bool;

    /// Whether a repeated position is a draw in this game.
    fn repetition_is_draw(&self) -> bool;

    /// Packs a move into 16 bits for the transposition table.
    fn move_to_bits(mv: Self::Move) -> u16;

    /// Unpacks stored bits; `None` if they are not a move at all.
    fn move_from_bits(bits: u16) -> Option<Self::Move>;
}

/// What a game knows beyond its rules: how good a position looks, which
/// moves to try first, what settles a game without a search, and how long
/// it will last. Scores are for a given player's side; `evaluate` must stay
/// well inside `±MATE_BOUND` so it is never mistaken for a won or lost game.
pub trait GameKnowledge: GameRules {
    /// A static score for `player`'s side, or `None` when the position has
    /// no legal move (the game is over), which a leaf must not miss.
    fn evaluate(&self, position: &Self::Position, player: usize) -> Option<i32>;

    /// Each player's chance to win as the evaluation sees it (in seat
    /// order, summing to 1) into `shares`, which has a place per player;
    /// false, leaving `shares` alone, where the game has no such model or
    /// the game is over. MCTS ends its playouts with it
    /// (`PARAMS.mcts_playout_plies`).
    fn win_shares(&self, _position: &Self::Position, _shares: &mut [f32]) -> bool {
        false
    }

    /// A move with which the side to move wins at once, where the game can
    /// tell cheaply without playing its moves. The search scores such a
    /// node as won at the next ply before pruning anything, so a win the
    /// pruning near the leaves would skip, or one a ply past them, is seen;
    /// proofs settle it without expanding it, so it must be a sure win.
    fn winning_move(&self, _position: &Self::Position) -> Option<Self::Move> {
        None
    }

    /// Whether the side to move must stop the player who moved last from
    /// winning at once on its next turn, where the game can tell cheaply.
    /// The search looks a ply further at such a node (up to twice the
    /// iteration's depth from the root), so a threat seen at the leaves is
    /// answered rather than scored as if it were not there.
    fn win_threatened(&self, _position: &Self::Position) -> bool {
        false
    }

    /// How promising `mv` looks before any search, in the units of the
    /// search's history scores (a cut-off `d` plies from the leaves adds
    /// `d²`): it orders the moves history knows little about.
    fn order_hint(&self, _position: &Self::Position, _mv: Self::Move) -> i32 {
        0
    }

    /// How promising `mv`, leading to `child`, looks before any search
    /// (higher first): proofs try moves in this order.
    fn proof_priority(&self, _position: &Self::Position, _mv: Self::Move, _child: &Self::Position) -> i32 {
        0
    }

    /// Who wins, where a sound bound of the game decides it without a
    /// search (never a guess), and at most how many plies the game lasts.
    /// Proofs take it as proved; the searches too, where the game's
    /// `Policy::verdicts_in_search` says so.
    fn decided(&self, _position: &Self::Position) -> Option<Decided> {
        None
    }

    /// The winner however the rest of the game is played (by anyone, well
    /// or badly), where the position already fixes it: a stronger promise
    /// than `decided`'s, which may rest on the winner's best play. The
    /// ceiling against random movers (`search::ceiling`) stops there.
    fn settled_winner(&self, _position: &Self::Position) -> Option<usize> {
        None
    }

    /// About how many moves `player` must still make before it can win
    /// (at least 1): proofs start a position not searched yet with it as
    /// the cost of proving that `player` wins. Without a measure: 1.
    fn proof_cost(&self, _position: &Self::Position, _player: usize) -> u32 {
        1
    }

    /// How many legal moves `position` has (0 where the game is over),
    /// where the game counts them more cheaply than it lists them. Proofs
    /// take it as the cost of refuting a position not searched yet.
    fn move_count(&self, position: &Self::Position) -> usize {
        let mut moves = Vec::new();
        self.legal_moves(position, &mut moves);
        moves.len()
    }

    /// At most how many plies the game can last from here, where the game
    /// knows a bound small enough for a search to the end to be worth
    /// trying; `None` otherwise.
    fn plies_left_bound(&self, _position: &Self::Position) -> Option<u32> {
        None
    }

    /// A key shared by all positions that are the same up to a symmetry of
    /// the game (for proofs), and the symmetry that takes `position` to the
    /// shared form. Without symmetries: the hash and 0.
    fn symmetric_key(&self, position: &Self::Position) -> (u64, usize) {
        (self.hash(position), 0)
    }

    /// The key df-pn files `position` under, and the symmetry to its
    /// shared form: `symmetric_key`, unless the game knows where working
    /// out the shared form costs more than the positions it shares save
    /// (it may then key such positions by their hash, symmetry 0; two
    /// images of one position must be keyed alike).
    fn proof_number_key(&self, position: &Self::Position) -> (u64, usize) {
        self.symmetric_key(position)
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

    /// A move proved ahead of time to win `position` for the side to move
    /// (a book of proved moves the game carries), and at most how many
    /// plies the game then lasts. The search plays it where it would try
    /// proofs, unless it is asked for a proof or a fixed depth.
    fn known_win(&self, _position: &Self::Position) -> Option<(Self::Move, u32)> {
        None
    }

    /// About how many more moves the side to move will play, for sharing
    /// out its clock.
    fn expected_moves_left(&self, position: &Self::Position) -> u32;
}

/// A result a game's sound bounds decide (`GameKnowledge::decided`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decided {
    /// The seat that wins, whatever is played.
    pub winner: usize,
    /// At most how many more plies the game lasts.
    pub plies: u32,
}

/// The settings the search takes for a game: choices that were measured
/// per game, so the game gives them (with its reasons) rather than the
/// search guessing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Whether the quiet moves searched before a cut-off lose the history
    /// the cut-off move gains.
    pub history_malus: bool,
    /// Whether a node far below alpha near the leaves searches only its
    /// first move, the table's and the killers (futility pruning).
    pub futility_pruning: bool,
    /// In timed play, proofs are tried only where `plies_left_bound` is at
    /// most this: beyond it they rarely finish in a move's time.
    pub proof_horizon: u32,
    /// With two search threads or more, one of them proves the whole search
    /// long where `plies_left_bound` is at most this. Its nodes cost the
    /// iterations no time, only the helper it would otherwise be.
    pub dedicated_proof_horizon: u32,
    /// Whether proofs look every child up in their table before searching
    /// any (enhanced transposition cut-offs). Worth it where a child's
    /// `symmetric_key` is cheap next to searching it; not where working out
    /// the shared form of every child costs more than the cut-offs save.
    pub proof_lookahead: bool,
    /// Whether the searches take `GameKnowledge::decided` at every node,
    /// as proofs do: worth it where the verdict is cheap next to the
    /// search it spares.
    pub verdicts_in_search: bool,
}

/// A game the search can play: its rules, its knowledge, and the settings
/// the search takes for it.
pub trait SearchGame: GameKnowledge {
    /// The search's settings for this game (as it stands: they may depend
    /// on its variant). Read once a search.
    fn policy(&self) -> Policy;
}
