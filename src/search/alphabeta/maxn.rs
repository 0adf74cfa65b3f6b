//! Max-n: with more than two players, each player picks the move best for
//! itself, given a score for every player at the leaves. Unlike paranoid
//! alpha-beta it assumes nobody plays against the root player on purpose,
//! so it cannot prove anything and has no cut-offs: it searches the whole
//! tree to its depth (shallow pruning needs a bounded sum of scores, which
//! evaluations of the kind "me against the best other" do not have).

use std::fmt;
use std::str::FromStr;

use super::worker::Worker;
use super::{MATE_BOUND, MAX_PLY};
use crate::search::game::SearchGame;

/// How a search of more than two players treats the others.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MultiplayerSearch {
    /// The others form a coalition against the root player: alpha-beta
    /// with all its cut-offs, and a win it finds is forced.
    Paranoid,
    /// Each player maximises its own score.
    MaxN,
    /// Monte Carlo tree search: each player's own wins (max-n backups),
    /// random playouts, proved nodes (`search::mcts`). The default: it
    /// won the matches between the styles (docs/poldr-strength.md).
    #[default]
    Mcts,
    /// Best-Reply Search: between two of the root player's turns, only the
    /// others' single most harmful reply (`brs`).
    Brs,
    /// MCTS whose playouts end after `PARAMS.mcts_playout_plies` random
    /// plies with the game's evaluation of each player's chance to win
    /// (`GameKnowledge::win_shares`), where the game has one. Not the
    /// default: with POLD.R's fitted evaluation it did not beat `mcts`
    /// (docs/poldr-strength.md).
    MctsEval,
}

impl MultiplayerSearch {
    /// Every style, as the `MultiplayerSearch` option lists them.
    pub const ALL: [MultiplayerSearch; 5] = [
        MultiplayerSearch::Paranoid,
        MultiplayerSearch::MaxN,
        MultiplayerSearch::Mcts,
        MultiplayerSearch::Brs,
        MultiplayerSearch::MctsEval,
    ];

    /// Every style's name, comma separated, for messages.
    fn names() -> String {
        let names: Vec<String> = MultiplayerSearch::ALL.iter().map(|style| style.to_string()).collect();
        names.join(", ")
    }
}

impl fmt::Display for MultiplayerSearch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MultiplayerSearch::Paranoid => "paranoid",
            MultiplayerSearch::MaxN => "maxn",
            MultiplayerSearch::Mcts => "mcts",
            MultiplayerSearch::Brs => "brs",
            MultiplayerSearch::MctsEval => "mcts-eval",
        })
    }
}

/// A name that is not a multiplayer search style (the name given).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown multiplayer search '{0}' (expected {names})", names = MultiplayerSearch::names())]
pub struct UnknownMultiplayerSearch(pub String);

impl FromStr for MultiplayerSearch {
    type Err = UnknownMultiplayerSearch;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        MultiplayerSearch::ALL
            .into_iter()
            .find(|style| style.to_string().eq_ignore_ascii_case(text))
            .ok_or_else(|| UnknownMultiplayerSearch(text.to_string()))
    }
}

/// The most players max-n scores.
const MAX_PLAYERS: usize = 4;

/// A score for every player (seats beyond the game's are unused).
pub(super) type Scores = [i32; MAX_PLAYERS];

/// A finished game under max-n: a win `n` plies from the root scores
/// `MAXN_WIN - n` for the winner and the opposite for the others. It stays
/// below `MATE_BOUND`, so it is reported in centipawns, never as a mate:
/// nothing forces the others to play as max-n expects.
pub(super) const MAXN_WIN: i32 = MATE_BOUND - 1_000;

impl<G: SearchGame> Worker<'_, G> {
    /// The scores of `position` searched `depth` plies deep; fills `pv[ply]`.
    /// Sets `horizon_reached` when a leaf was cut off by the depth, so the
    /// caller knows whether a deeper search could tell more.
    pub(super) fn maxn(&mut self, position: &G::Position, depth: i32, ply: usize) -> Scores {
        let last_best = if ply == 0 { self.pv[0].first().copied() } else { None };
        self.pv[ply].clear();
        let stopping = self.count_node();
        self.seldepth = self.seldepth.max(ply as u32);
        if ply > 0 && stopping {
            return [0; MAX_PLAYERS];
        }
        let key = self.game.hash(position);
        if ply > 0 && (self.game.is_draw(position) || self.is_repetition_draw(key)) {
            return [0; MAX_PLAYERS];
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            let mut scores = [0; MAX_PLAYERS];
            for (player, score) in scores.iter_mut().enumerate().take(self.root.players) {
                match self.game.evaluate(position, player) {
                    Some(value) => *score = value,
                    None => return self.maxn_outcome(position, ply),
                }
            }
            self.horizon_reached = true;
            return scores;
        }

        let mut moves = std::mem::take(&mut self.buffers.moves[ply]);
        moves.clear();
        self.game.legal_moves(position, &mut moves);
        if moves.is_empty() {
            self.buffers.moves[ply] = moves;
            return self.maxn_outcome(position, ply);
        }
        // Without cut-offs the order only decides ties and what an aborted
        // iteration leaves: the last iteration's best move goes first.
        if ply == 0 {
            moves.retain(|mv| self.root.moves.contains(mv));
        }
        if let Some(index) = last_best.and_then(|best| moves.iter().position(|&mv| mv == best)) {
            moves.swap(0, index);
        }
        let mover = self.game.mover(position);
        self.path.push(key);
        let mut best: Option<Scores> = None;
        for (index, &mv) in moves.iter().enumerate() {
            if ply == 0 {
                self.announce(mv, index + 1, depth as u32);
            }
            let child = self.game.play(position, mv);
            let scores = self.maxn(&child, depth - 1, ply + 1);
            if self.aborted {
                break;
            }
            if best.is_none_or(|best| prefers(&scores, &best, mover, self.root.players)) {
                best = Some(scores);
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                head[ply].clear();
                head[ply].push(mv);
                head[ply].extend_from_slice(&tail[0]);
                if ply == 0 {
                    self.root.score = Some(scores[self.root.player]);
                }
            }
        }
        self.path.pop();
        self.buffers.moves[ply] = moves;
        best.unwrap_or([0; MAX_PLAYERS])
    }

    fn maxn_outcome(&self, position: &G::Position, ply: usize) -> Scores {
        let mut scores = [0; MAX_PLAYERS];
        if let Some(winner) = self.game.winner(position) {
            let win = MAXN_WIN - ply as i32;
            for (player, score) in scores.iter_mut().enumerate().take(self.root.players) {
                *score = if player == winner { win } else { -win };
            }
        }
        scores
    }
}

/// Whether `mover` prefers `candidate` to `best`: its own score first; on a
/// tie, the one worse for the others (a player who cannot gain still
/// competes).
fn prefers(candidate: &Scores, best: &Scores, mover: usize, players: usize) -> bool {
    let others = |scores: &Scores| -> i64 {
        (0..players).filter(|&player| player != mover).map(|player| scores[player] as i64).sum()
    };
    candidate[mover] > best[mover] || (candidate[mover] == best[mover] && others(candidate) < others(best))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_style_reads_and_writes_its_name() {
        for style in MultiplayerSearch::ALL {
            assert_eq!(style.to_string().parse::<MultiplayerSearch>(), Ok(style));
        }
        assert_eq!("MaxN".parse::<MultiplayerSearch>(), Ok(MultiplayerSearch::MaxN));
        assert!("minimax".parse::<MultiplayerSearch>().unwrap_err().to_string().contains("paranoid, maxn, mcts, brs"));
    }

    #[test]
    fn a_player_prefers_its_own_score_then_the_others_loss() {
        assert!(prefers(&[0, 5, 0, 0], &[9, 4, 9, 0], 1, 3));
        assert!(!prefers(&[0, 4, 0, 0], &[0, 5, 0, 0], 1, 3));
        assert!(prefers(&[1, 5, 1, 0], &[2, 5, 1, 0], 1, 3));
        assert!(!prefers(&[2, 5, 1, 0], &[2, 5, 1, 0], 1, 3));
    }
}
