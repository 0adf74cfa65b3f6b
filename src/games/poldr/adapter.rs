//! POLD.R as the search sees it: its rules, its knowledge (the evaluation
//! and what proofs need) and the search's settings for it.

use super::eval::{EvalTerms, Weights, evaluate_terms, score_for, scores, win_shares};
use super::moves::Move;
use super::position::Position;
use super::tunables::TUNABLES;
use super::types::{Phase, Seat};
use crate::search::{Decided, GameKnowledge, GameRules, Policy, SearchGame};

/// POLD.R for the search. Stateless: positions carry their board size and
/// number of players.
pub struct PoldrAdapter {
    /// The evaluation's weights for two players.
    weights_two: Weights,
    /// The evaluation's weights for three players.
    weights_three: Weights,
}

impl Default for PoldrAdapter {
    fn default() -> PoldrAdapter {
        PoldrAdapter { weights_two: TUNABLES.weights_two, weights_three: TUNABLES.weights_three }
    }
}

impl PoldrAdapter {
    /// The weights played with `players` players.
    pub(crate) fn weights(&self, players: usize) -> &Weights {
        if players == 2 { &self.weights_two } else { &self.weights_three }
    }

    /// The evaluation's terms, for people (the `eval` command) and for `evaluate`.
    pub(crate) fn evaluate_terms(&self, position: &Position) -> EvalTerms {
        evaluate_terms(position, self.weights(position.players()))
    }
}

impl GameRules for PoldrAdapter {
    type Position = Position;
    type Move = Move;

    fn hash(&self, position: &Position) -> u64 {
        position.hash()
    }

    fn players(&self, position: &Position) -> usize {
        position.players()
    }

    fn mover(&self, position: &Position) -> usize {
        position.mover().index()
    }

    fn legal_moves(&self, position: &Position, moves: &mut Vec<Move>) {
        position.generate_moves(moves);
    }

    fn play(&self, position: &Position, mv: Move) -> Position {
        let mut next = *position;
        next.play_unchecked(mv);
        next
    }

    fn is_legal(&self, position: &Position, mv: Move) -> bool {
        position.check(mv).is_ok()
    }

    fn winner(&self, position: &Position) -> Option<usize> {
        Some(position.scored_outcome().winner.index())
    }

    fn is_draw(&self, _: &Position) -> bool {
        false
    }

    fn repetition_is_draw(&self) -> bool {
        // Every turn but a pass moves bricks one way for good: no position repeats.
        false
    }

    fn move_to_bits(mv: Move) -> u16 {
        mv.to_bits()
    }

    fn move_from_bits(bits: u16) -> Option<Move> {
        Move::from_bits(bits)
    }
}

impl GameKnowledge for PoldrAdapter {
    fn evaluate(&self, position: &Position, player: usize) -> Option<i32> {
        if position.is_over() {
            return None;
        }
        let players = position.players();
        debug_assert!(Seat::from_index(player).is_some_and(|seat| seat.index() < players), "a seat of the game");
        Some(score_for(&scores(position, self.weights(players))[..players], player))
    }

    /// The softmax of the players' scores: the model the weights were fitted to.
    fn win_shares(&self, position: &Position, shares: &mut [f32]) -> bool {
        if position.is_over() {
            return false;
        }
        let players = position.players();
        win_shares(&scores(position, self.weights(players))[..players], shares);
        true
    }

    /// Turns that place or take back more bricks first: the race to the
    /// last brick, and to the most bricks, is most of the game.
    fn proof_priority(&self, position: &Position, mv: Move, _: &Position) -> i32 {
        position.bricks_moved_by(mv) as i32
    }

    /// Building turns each fill an empty cell at least; clearing turns each
    /// take back a brick at least, with fewer than `players` passes between.
    fn plies_left_bound(&self, position: &Position) -> Option<u32> {
        if position.phase() == Phase::Clearing {
            return Some(position.clearing_plies_bound());
        }
        let players = position.players() as u32;
        let empty = position.empty().count();
        Some(empty + (position.bricks_on_board() + empty) * players + players)
    }

    /// The clearing phase, once a seat cannot be caught (`Position::decided_winner`).
    fn decided(&self, position: &Position) -> Option<Decided> {
        let winner = position.decided_winner()?;
        Some(Decided { winner: winner.index(), plies: position.clearing_plies_bound() })
    }

    /// The same seat: `Position::decided_winner` holds however the rest is played.
    fn settled_winner(&self, position: &Position) -> Option<usize> {
        position.decided_winner().map(Seat::index)
    }

    fn symmetric_key(&self, position: &Position) -> (u64, usize) {
        position.symmetric_key()
    }

    /// The shared form only while few bricks are down: later, positions
    /// rarely repeat up to a symmetry, and working out the least of 8
    /// images at every df-pn node costs more than it saves (docs/solving.md,
    /// "POLD.R: df-pn"). The count of bricks is the same for every image.
    fn proof_number_key(&self, position: &Position) -> (u64, usize) {
        if position.bricks_on_board() > TUNABLES.dfpn_symmetric_bricks {
            return (position.hash(), 0);
        }
        position.symmetric_key()
    }

    fn transform_move(&self, position: &Position, mv: Move, symmetry: usize, inverse: bool) -> Move {
        position.transform_move(mv, symmetry, inverse)
    }

    /// The books' proved moves (5x5 and 6x6 with 16 bricks, two players).
    fn known_win(&self, position: &Position) -> Option<(Move, u32)> {
        super::book::known_win(position)
    }

    fn expected_moves_left(&self, position: &Position) -> u32 {
        let mover = position.mover();
        let bricks = position.reserve(mover) as u32 + position.bricks(mover).count();
        bricks / TUNABLES.bricks_per_move_left + TUNABLES.extra_moves_left
    }
}

impl SearchGame for PoldrAdapter {
    /// The settings `Tunables` gives, with their reasons.
    fn policy(&self) -> Policy {
        Policy {
            history_malus: TUNABLES.history_malus,
            futility_pruning: TUNABLES.futility_pruning,
            proof_horizon: TUNABLES.proof_horizon,
            dedicated_proof_horizon: TUNABLES.dedicated_proof_horizon,
            proof_lookahead: TUNABLES.proof_lookahead,
            verdicts_in_search: TUNABLES.verdicts_in_search,
        }
    }
}
