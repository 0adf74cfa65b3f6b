//! Win/loss proofs: a search to the end of the game with no evaluation that
//! asks only which side wins, trying the game's most promising moves first
//! and remembering every position it has proved. Only for games without
//! draws within reach (a draw leaves the proof unfinished).

use std::collections::HashMap;

use super::game::{Outcome, SearchGame};

/// The move a proved entry holds, as played in `position` (entries hold
/// moves as seen in the shared form of symmetric positions).
pub fn proved_move<G: SearchGame>(
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
/// the game ends when the winner keeps to the proof's moves and the loser
/// resists longest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proven {
    pub mover_wins: bool,
    pub plies: u32,
    /// The winning move, or the loser's longest resistance; packed.
    pub best_move: Option<u16>,
}

/// Proved positions, kept across searches of the same game: a proof only
/// grows. Keys are shared by positions equal up to a symmetry, and moves
/// are stored as seen in that shared form.
#[derive(Default)]
pub struct ProofTable {
    entries: HashMap<u64, Proven>,
}

/// Past this many proved positions the table starts afresh, to bound memory.
const MAX_ENTRIES: usize = 1 << 24;

impl ProofTable {
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    pub fn get(&self, key: u64) -> Option<Proven> {
        self.entries.get(&key).copied()
    }

    fn insert(&mut self, key: u64, proven: Proven) {
        if self.entries.len() >= MAX_ENTRIES {
            self.entries.clear();
        }
        self.entries.insert(key, proven);
    }
}

/// Why a proof stopped before the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unproven {
    /// Out of nodes, or told to stop.
    Interrupted,
    /// A draw was reached, which a win/loss proof cannot weigh.
    Draw,
}

/// One proof attempt. `same_side` says whether two players are on one side
/// (with more than two players, the others form a coalition against the
/// root player); `key_salt` is mixed into every key.
pub struct Prover<'a, G: SearchGame> {
    pub game: &'a G,
    pub table: &'a mut ProofTable,
    pub same_side: &'a dyn Fn(usize, usize) -> bool,
    pub key_salt: u64,
    /// Called every few thousand nodes with the count so far: true to stop.
    pub interrupt: &'a mut dyn FnMut(u64) -> bool,
    pub nodes: u64,
}

impl<G: SearchGame> Prover<'_, G> {
    pub fn prove(&mut self, position: &G::Position) -> Result<Proven, Unproven> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096) && (self.interrupt)(self.nodes) {
            return Err(Unproven::Interrupted);
        }
        let (key, symmetry) = self.game.symmetric_key(position);
        let key = key ^ self.key_salt;
        let stored = |mv| Some(G::move_to_bits(self.game.transform_move(position, mv, symmetry, false)));
        if let Some(proven) = self.table.get(key) {
            return Ok(proven);
        }
        let mover = self.game.mover(position);
        let mut moves = Vec::new();
        self.game.legal_moves(position, &mut moves);
        if moves.is_empty() {
            return match self.game.final_outcome(position) {
                Outcome::Draw => Err(Unproven::Draw),
                Outcome::Win(winner) => {
                    let proven = Proven { mover_wins: (self.same_side)(winner, mover), plies: 0, best_move: None };
                    self.table.insert(key, proven);
                    Ok(proven)
                }
            };
        }
        // Stable: equal priorities keep the game's order.
        moves.sort_by_key(|&mv| std::cmp::Reverse(self.game.move_priority(position, mv)));
        let mut longest: Option<(u32, G::Move)> = None;
        for mv in moves {
            let child = self.game.play(position, mv);
            let below = self.prove(&child)?;
            let child_side_wins = below.mover_wins;
            let we_win =
                if (self.same_side)(self.game.mover(&child), mover) { child_side_wins } else { !child_side_wins };
            let plies = below.plies + 1;
            if we_win {
                let proven = Proven { mover_wins: true, plies, best_move: stored(mv) };
                self.table.insert(key, proven);
                return Ok(proven);
            }
            if longest.is_none_or(|(most, _)| plies > most) {
                longest = Some((plies, mv));
            }
        }
        let (plies, mv) = longest.expect("at least one move");
        let proven = Proven { mover_wins: false, plies, best_move: stored(mv) };
        self.table.insert(key, proven);
        Ok(proven)
    }
}
