//! The small interface the search needs from a game. Everything the search
//! knows about Pods comes through it, so another game can reuse the search.

use std::fmt;

/// Scores are from the side to move's point of view; `evaluate` must stay
/// well inside `±MATE_BOUND` so it is never mistaken for a won or lost game.
/// Search threads share the game and the root, hence `Sync` and `Send`.
pub trait SearchGame: Sync {
    type Position: Copy + Send + Sync;
    type Move: Copy + Eq + fmt::Display + fmt::Debug + Send;

    /// A key for the transposition table and repetition detection.
    fn hash(&self, position: &Self::Position) -> u64;

    /// Every legal move. No legal move means the side to move has lost.
    fn legal_moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>);

    /// The position after `mv`, which is legal.
    fn play(&self, position: &Self::Position, mv: Self::Move) -> Self::Position;

    /// Whether `mv` (say, read from the transposition table) is legal here.
    fn is_legal(&self, position: &Self::Position, mv: Self::Move) -> bool;

    /// A static score for the side to move, or `None` when the side to move
    /// has already lost (no legal move), which a leaf must not miss.
    fn evaluate(&self, position: &Self::Position) -> Option<i32>;

    /// Draws a lone position tells, such as a ply limit. Repetitions are the search's business.
    fn is_draw(&self, position: &Self::Position) -> bool;

    /// Whether a repeated position is a draw in this game.
    fn repetition_is_draw(&self) -> bool;

    /// About how many more moves the side to move will play, for sharing
    /// out its clock.
    fn expected_moves_left(&self, position: &Self::Position) -> u32;

    /// Packs a move into 16 bits for the transposition table.
    fn move_to_bits(mv: Self::Move) -> u16;

    /// Unpacks stored bits; `None` if they are not a move at all.
    fn move_from_bits(bits: u16) -> Option<Self::Move>;
}
