//! Games given as explicit trees, for the tests of the searches and the
//! proofs: every value can be worked out by hand, or by brute force.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use super::game::{Decided, GameKnowledge, GameRules, Policy, SearchGame};

/// The search's settings for the test games: no proof horizon matters, as
/// they bound no game's length.
pub(super) const POLICY: Policy = Policy {
    history_malus: false,
    futility_pruning: false,
    proof_horizon: 90,
    dedicated_proof_horizon: 90,
    proof_lookahead: true,
    verdicts_in_search: false,
};

/// A three-player (or two-player) game given as an explicit tree, so
/// that every value can be worked out by hand. Players: A = 0, B = 1,
/// C = 2. A node with no children is a finished game; the others carry
/// each player's static score, read when the search stops there.
pub(super) struct Tree {
    pub(super) nodes: Vec<TreeNode>,
    /// A repeated position is a draw (as in the advanced Pods game).
    pub(super) repetitions: bool,
    /// 3, or 2 for a two-player game (A and B).
    pub(super) players: usize,
    /// Nodes whose winner the game's bounds decide (`GameKnowledge::decided`),
    /// by index; with any, the searches take them (`Policy::verdicts_in_search`).
    pub(super) decided: Vec<(usize, usize)>,
}

pub(super) struct TreeNode {
    pub(super) name: &'static str,
    pub(super) mover: usize,
    pub(super) children: Vec<usize>,
    pub(super) scores: [i32; 3],
    /// The winner, where the node ends the game (`None`: a draw).
    pub(super) end: Option<usize>,
}

/// A node as written in a test: name, mover, children by name, static
/// scores, and the result if it has no children.
pub(super) type NodeSpec<'a> = (&'static str, usize, &'a [&'a str], [i32; 3], Option<usize>);

impl Tree {
    pub(super) fn new(nodes: &[NodeSpec]) -> Tree {
        let index = |name: &str| nodes.iter().position(|node| node.0 == name).expect("a node of the tree");
        Tree {
            nodes: nodes
                .iter()
                .map(|&(name, mover, children, scores, end)| TreeNode {
                    name,
                    mover,
                    children: children.iter().map(|child| index(child)).collect(),
                    scores,
                    end,
                })
                .collect(),
            repetitions: false,
            players: 3,
            decided: Vec::new(),
        }
    }

    /// The index of the node named `name`.
    pub(super) fn node(&self, name: &str) -> usize {
        self.nodes.iter().position(|node| node.name == name).expect("a node of the tree")
    }

    /// The node named `name` decided for `winner`.
    pub(super) fn decide(&mut self, name: &str, winner: usize) {
        self.decided.push((self.node(name), winner));
    }
}

impl GameRules for Tree {
    type Position = usize;
    /// The node a move leads to.
    type Move = usize;

    fn hash(&self, node: &usize) -> u64 {
        (*node as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    fn players(&self, _: &usize) -> usize {
        self.players
    }

    fn mover(&self, node: &usize) -> usize {
        self.nodes[*node].mover
    }

    fn legal_moves(&self, node: &usize, moves: &mut Vec<usize>) {
        moves.extend_from_slice(&self.nodes[*node].children);
    }

    fn play(&self, _: &usize, child: usize) -> usize {
        child
    }

    fn is_legal(&self, node: &usize, child: usize) -> bool {
        self.nodes[*node].children.contains(&child)
    }

    fn winner(&self, node: &usize) -> Option<usize> {
        self.nodes[*node].end
    }

    fn is_draw(&self, _: &usize) -> bool {
        false
    }

    fn repetition_is_draw(&self) -> bool {
        self.repetitions
    }

    fn move_to_bits(child: usize) -> u16 {
        child as u16
    }

    fn move_from_bits(bits: u16) -> Option<usize> {
        Some(bits as usize)
    }
}

impl GameKnowledge for Tree {
    fn decided(&self, node: &usize) -> Option<Decided> {
        let &(_, winner) = self.decided.iter().find(|(decided, _)| decided == node)?;
        Some(Decided { winner, plies: 5 })
    }

    fn evaluate(&self, node: &usize, player: usize) -> Option<i32> {
        let node = &self.nodes[*node];
        (!node.children.is_empty()).then_some(node.scores[player])
    }

    /// Each player's static score as its share, out of the players' total
    /// (the scores of a test of `mcts-eval` are shares in hundredths).
    fn win_shares(&self, node: &usize, shares: &mut [f32]) -> bool {
        let node = &self.nodes[*node];
        let total: i32 = node.scores[..self.players].iter().sum();
        if node.children.is_empty() || total <= 0 {
            return false;
        }
        for (share, score) in shares.iter_mut().zip(node.scores) {
            *share = score as f32 / total as f32;
        }
        true
    }

    fn expected_moves_left(&self, _: &usize) -> u32 {
        4
    }
}

impl SearchGame for Tree {
    fn policy(&self) -> Policy {
        Policy { verdicts_in_search: !self.decided.is_empty(), ..POLICY }
    }
}

/// The shape of a random game (`random_tree`).
pub(super) struct Shape {
    /// Its positions, 0 the start.
    pub(super) positions: usize,
    /// 2 or 3.
    pub(super) players: usize,
    /// About one position in this many ends the game early.
    pub(super) ends_one_in: u32,
    /// How far on a move may lead, and how many of the last positions end the game.
    pub(super) reach: usize,
}

/// A random game of `shape`: position i's moves (1 to 4) lead to later
/// positions within `reach` (so lines transpose), each position's mover is
/// drawn (turns follow no order), and a position without moves is won by
/// its drawn winner.
pub(super) fn random_tree(seed: u64, shape: &Shape) -> Tree {
    let mut random = Xoshiro256PlusPlus::seed_from_u64(seed);
    let count = shape.positions;
    let players = shape.players as u32;
    let nodes = (0..count)
        .map(|index| {
            let leaf = index + shape.reach >= count || (index > 0 && random.next_u32() % shape.ends_one_in == 0);
            let mut children = Vec::new();
            if !leaf {
                for _ in 0..1 + random.next_u32() % 4 {
                    let child = index + 1 + (random.next_u32() as usize) % (count - index - 1).min(shape.reach);
                    if !children.contains(&child) {
                        children.push(child);
                    }
                }
            }
            let (mover, winner) = ((random.next_u32() % players) as usize, (random.next_u32() % players) as usize);
            let end = children.is_empty().then_some(winner);
            TreeNode { name: "", mover, children, scores: [0; 3], end }
        })
        .collect();
    Tree { nodes, repetitions: false, players: shape.players, decided: Vec::new() }
}

/// A random two-player game of `positions` positions whose moves may lead
/// anywhere, back to earlier positions too, so that play can go round: a
/// game for the questions repetitions raise (`repetitions` is set). About
/// one position in `ends_one_in` ends the game, won by its drawn winner.
pub(super) fn random_graph(seed: u64, positions: usize, ends_one_in: u32) -> Tree {
    let mut random = Xoshiro256PlusPlus::seed_from_u64(seed);
    let nodes = (0..positions)
        .map(|index| {
            let leaf = index > 0 && random.next_u32() % ends_one_in == 0;
            let mut children = Vec::new();
            if !leaf {
                for _ in 0..1 + random.next_u32() % 3 {
                    let child = (random.next_u32() as usize) % positions;
                    if child != index && !children.contains(&child) {
                        children.push(child);
                    }
                }
            }
            let (mover, winner) = ((random.next_u32() % 2) as usize, (random.next_u32() % 2) as usize);
            let end = children.is_empty().then_some(winner);
            TreeNode { name: "", mover, children, scores: [0; 3], end }
        })
        .collect();
    Tree { nodes, repetitions: true, players: 2, decided: Vec::new() }
}

/// Who can force a win from each position, by retrograde analysis: the
/// least sets closed under "the mover has a move into its own set" and
/// "every move leads into the other's set" (a finished game in its
/// winner's). A position in neither set is a draw: each side can keep
/// the other from winning for ever, which is what the repetition rule
/// scores as a draw, from a position with no history.
pub(super) fn forced_winners(tree: &Tree) -> Vec<Option<usize>> {
    let mut winner: Vec<Option<usize>> = tree.nodes.iter().map(|node| node.end).collect();
    loop {
        let mut changed = false;
        for (index, node) in tree.nodes.iter().enumerate() {
            if winner[index].is_some() || node.children.is_empty() {
                continue;
            }
            let found = if node.children.iter().any(|&child| winner[child] == Some(node.mover)) {
                Some(node.mover)
            } else {
                let other = 1 - node.mover;
                node.children.iter().all(|&child| winner[child] == Some(other)).then_some(other)
            };
            if found.is_some() {
                winner[index] = found;
                changed = true;
            }
        }
        if !changed {
            return winner;
        }
    }
}
