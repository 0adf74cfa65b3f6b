//! Solving a position: who wins with perfect play, by df-pn (`dfpn`), the
//! line the proof follows, and the proof tree for a checker.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::dfpn::{Answer, Dfpn, DfpnTable, ProofStep, TreeError};
use super::game::{GameRules, SearchGame};
use super::limits::{Limits, Signals};
use super::params::PARAMS;
use super::solver::ProofTable;

/// Who wins with perfect play, for the side to move (with more than two
/// players: the side to move against all the others).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move wins.
    Win,
    /// The side to move loses.
    Loss,
    /// Neither side can force a win (a draw by repetition, or one the game
    /// itself declares).
    Draw,
    /// Not settled within the limits.
    Unknown,
}

/// A solved (or not) position.
#[derive(Clone, Debug)]
pub struct Solution<M> {
    /// Who wins, for the side to move.
    pub verdict: Verdict,
    /// Plies to the end along the proof: the winner keeping to its proved
    /// moves, the loser resisting longest (an upper bound on the quickest
    /// win). 0 for a draw or an unknown result.
    pub plies: u32,
    /// The proof's line: the winner's moves and the loser's longest
    /// resistance, as far as the tables hold them.
    pub line: Vec<M>,
    /// Positions visited, the endgame solver's included.
    pub nodes: u64,
    /// Which question settled it, for the proof tree: whether the root's
    /// side attacked, and whether the attacker won.
    question: Option<(bool, bool)>,
}

/// A proof tree as `Solver::proof_tree` gives it: the winner's seat, the
/// listed positions (the winner's turns with their moves, and the leaves),
/// and the plies the game lasts at most along it.
pub struct ProofTree<P, M> {
    /// The winner's seat.
    pub winner: usize,
    /// The winner's turns with their moves, and the leaves, each position once.
    pub steps: Vec<(P, ProofStep<M>)>,
    /// Plies to the end along the tree, at most.
    pub plies: u32,
}

/// A proof tree, or why it could not be written.
pub type TreeResult<G> = Result<ProofTree<<G as GameRules>::Position, <G as GameRules>::Move>, TreeError>;

/// Solves positions, keeping what it proved from one to the next.
pub struct Solver {
    table: DfpnTable,
    leaf_table: ProofTable,
    /// Whether a search met a draw: the table's failures may then rest on
    /// one, and a failure of the attacker is no longer a win of the other side.
    draws_met: bool,
}

/// A salt per attacking side, the set of its seats, so that one table
/// holds every question, whoever is to move at the root.
fn salt<G: SearchGame>(game: &G, root: &G::Position, root_side_attacks: bool) -> u64 {
    let root_seat = 1u64 << game.mover(root);
    let seats = if root_side_attacks { root_seat } else { ((1u64 << game.players(root)) - 1) & !root_seat };
    // A multiply and a shift, so that salts share no structure with keys.
    let mixed = seats.wrapping_mul(0xd1b5_4a32_d192_ed03);
    mixed ^ (mixed >> 29)
}

impl Solver {
    /// A solver whose tables take at most `megabytes` in all.
    pub fn new(megabytes: usize) -> Solver {
        let leaf = (megabytes / PARAMS.dfpn_leaf_table_divisor).max(1);
        Solver {
            table: DfpnTable::new(megabytes.saturating_sub(leaf).max(1)),
            leaf_table: ProofTable::growing(leaf),
            draws_met: false,
        }
    }

    /// The tables' size in megabytes, where df-pn's is smaller than asked
    /// (the memory could not be had): for a warning.
    pub fn megabytes_if_short(&self) -> Option<usize> {
        let (leaf, _) = self.leaf_table.megabytes();
        self.table.megabytes_if_short().map(|megabytes| megabytes + leaf)
    }

    /// Forgets every proof.
    pub fn clear(&mut self) {
        self.table.clear();
        self.leaf_table.clear(1);
        self.draws_met = false;
    }

    /// Who wins `root` with perfect play, as a game that starts there,
    /// within `limits` (nodes and time; the others are ignored) unless
    /// `signals` stops it.
    pub fn solve<G: SearchGame>(
        &mut self,
        game: &G,
        root: &G::Position,
        limits: &Limits,
        signals: &Signals,
    ) -> Solution<G::Move> {
        let started = limits.clock_start.unwrap_or_else(Instant::now);
        let deadline = limits.movetime.map(|time| started + time);
        let node_limit = limits.nodes.unwrap_or(u64::MAX);
        let mut total = 0;
        let root_seat = game.mover(root);
        for root_side_attacks in [true, false] {
            let attacker = move |seat: usize| (seat == root_seat) == root_side_attacks;
            let spent = total;
            let mut interrupt = |nodes: u64| {
                spent + nodes >= node_limit
                    || signals.stop.load(Ordering::Relaxed)
                    || deadline.is_some_and(|deadline| Instant::now() >= deadline)
            };
            let mut dfpn = Dfpn::new(
                game,
                &mut self.table,
                &mut self.leaf_table,
                &attacker,
                salt(game, root, root_side_attacks),
                &mut interrupt,
            );
            let answer = dfpn.prove(root);
            let line = dfpn.proof_line(root);
            total += dfpn.nodes;
            self.draws_met |= dfpn.draws_met;
            let verdict = match (root_side_attacks, answer) {
                (true, Answer::Proved(plies)) => Some((Verdict::Win, plies, (true, true))),
                (true, Answer::Disproved(plies)) if !self.draws_met => Some((Verdict::Loss, plies, (true, false))),
                (false, Answer::Proved(plies)) => Some((Verdict::Loss, plies, (false, true))),
                (false, Answer::Disproved(_)) => Some((Verdict::Draw, 0, (false, false))),
                (_, Answer::Unknown) => None,
                (true, Answer::Disproved(_)) => continue,
            };
            return match verdict {
                Some((verdict, plies, question)) => {
                    let line = if verdict == Verdict::Draw { Vec::new() } else { line };
                    Solution { verdict, plies, line, nodes: total, question: Some(question) }
                }
                None => {
                    Solution { verdict: Verdict::Unknown, plies: 0, line: Vec::new(), nodes: total, question: None }
                }
            };
        }
        unreachable!("the second question always answers")
    }

    /// The proof tree of a win or loss `solution` of `root` found by
    /// `solve` (with this solver's tables as they are): positions whose
    /// proof the tables let go are proved again, within `limits`. `None`
    /// for a draw or an unknown result.
    pub fn proof_tree<G: SearchGame>(
        &mut self,
        game: &G,
        root: &G::Position,
        solution: &Solution<G::Move>,
        limits: &Limits,
        signals: &Signals,
    ) -> Option<TreeResult<G>> {
        let (root_side_attacks, attacker_won) = solution.question?;
        if !matches!(solution.verdict, Verdict::Win | Verdict::Loss) {
            return None;
        }
        let started = Instant::now();
        let deadline = limits.movetime.map(|time| started + time);
        let mut interrupt = |_: u64| {
            signals.stop.load(Ordering::Relaxed) || deadline.is_some_and(|deadline| Instant::now() >= deadline)
        };
        let root_seat = game.mover(root);
        let attacker = move |seat: usize| (seat == root_seat) == root_side_attacks;
        let mut dfpn = Dfpn::new(
            game,
            &mut self.table,
            &mut self.leaf_table,
            &attacker,
            salt(game, root, root_side_attacks),
            &mut interrupt,
        );
        let tree = dfpn.proof_tree(root, attacker_won);
        let winner_is_root_side = root_side_attacks == attacker_won;
        let winner = if winner_is_root_side {
            root_seat
        } else {
            // The other side: with two players, the other seat.
            (0..game.players(root)).find(|&seat| seat != root_seat).unwrap_or(root_seat)
        };
        Some(tree.map(|(steps, plies)| ProofTree { winner, steps, plies }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_games::{forced_winners, random_graph};

    #[test]
    fn wins_losses_and_draws_by_repetition_agree_with_retrograde_analysis() {
        let (mut wins, mut losses, mut draws, mut unknown) = (0, 0, 0, 0);
        for seed in 0..300 {
            let tree = random_graph(seed, 24, 5);
            let winners = forced_winners(&tree);
            let mut solver = Solver::new(1);
            for root in (0..tree.nodes.len()).filter(|&node| !tree.nodes[node].children.is_empty()) {
                let solution = solver.solve(&tree, &root, &Limits::default(), &Signals::default());
                let expected = match winners[root] {
                    Some(winner) if winner == tree.nodes[root].mover => Verdict::Win,
                    Some(_) => Verdict::Loss,
                    None => Verdict::Draw,
                };
                if solution.verdict == Verdict::Unknown {
                    unknown += 1;
                    continue;
                }
                assert_eq!(solution.verdict, expected, "seed {seed}, root {root}");
                match expected {
                    Verdict::Win => wins += 1,
                    Verdict::Loss => losses += 1,
                    _ => draws += 1,
                }
            }
        }
        // The graphs hold all three kinds, each many times. With no limit
        // the search settles every position: before the sums were capped
        // where positions repeat (`PARAMS.dfpn_cycle_cap`), the numbers of
        // positions that go round grew past any count and it gave up on
        // about 18 (docs/solving.md).
        assert!(wins > 300 && losses > 300 && draws > 300, "{wins} wins, {losses} losses, {draws} draws");
        assert_eq!(unknown, 0, "{unknown} given up, {wins} wins, {losses} losses, {draws} draws");
    }
}
