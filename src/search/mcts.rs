//! Monte Carlo tree search for games of more than two players: UCT
//! selection, random playouts to the end of the game (or, as `mcts-eval`
//! and where the game evaluates each player's chance to win with
//! `win_shares`, to `PARAMS.mcts_playout_plies` and that chance), max-n
//! backups (each
//! node holds the wins of the player who moved into it, so every player
//! picks what is best for itself), and proved nodes (MCTS-Solver in its
//! multi-player form: a node is won where its mover has a won child, and
//! settled where every child is). Nothing here assumes that the others
//! play together against the root player: a loss to a coalition is no
//! loss until they play it. Game-agnostic, like the rest of the search.

use std::time::Instant;

use super::alphabeta::{Progress, Report, Score, SearchResult};
use super::game::SearchGame;
use super::limits::{Limits, Signals, Timer};
use super::params::PARAMS;

/// A node's `proved` while nothing is proved.
const UNPROVED: u8 = u8::MAX;
/// A node's `proved` for a drawn game.
const DRAW: u8 = u8::MAX - 1;
/// The most players whose chances a playout's evaluation gives.
const MAX_SHARES: usize = 8;

/// How a simulation ended: a game over (its winner, or `DRAW`), or each
/// player's chance to win as the game's evaluation sees it.
#[derive(Clone, Copy)]
enum Outcome {
    Winner(u8),
    Shares([f32; MAX_SHARES]),
}

/// One node of the tree.
#[derive(Clone, Copy)]
struct Node<M> {
    /// The move into it (none at the root).
    mv: Option<M>,
    /// The player who made that move: the node's wins are theirs.
    by: u8,
    /// The player to move here, once expanded.
    mover: u8,
    /// The winner where proved, `DRAW`, or `UNPROVED`.
    proved: u8,
    expanded: bool,
    /// Its children are `first_child..first_child + children`.
    first_child: u32,
    children: u32,
    visits: u32,
    /// Wins of `by` over the simulations through this node (a draw counts
    /// a share, and a playout the evaluation ends `by`'s chance).
    wins: f32,
}

impl<M> Node<M> {
    /// A node not yet expanded, proved or visited.
    fn unvisited(mv: Option<M>, by: u8, mover: u8) -> Self {
        Node { mv, by, mover, proved: UNPROVED, expanded: false, first_child: 0, children: 0, visits: 0, wins: 0.0 }
    }
}

/// The tree, kept from search to search so its memory is allocated once.
pub(super) struct MctsTree<M> {
    nodes: Vec<Node<M>>,
    /// The most nodes the tree may hold: the `Hash` size's worth.
    capacity: usize,
    moves: Vec<M>,
    path: Vec<u32>,
    rng: u64,
    /// Whether playouts end with the game's evaluation (`MultiplayerSearch::MctsEval`).
    pub(super) evaluated: bool,
    /// Whether a result the game's bounds decide ends a playout and proves
    /// a node, as the game's end does (`Policy::verdicts_in_search`).
    verdicts: bool,
    /// Where set, only this player (the root's) is trusted to play a won
    /// move: a node of another player is proved only where every move has
    /// one result. The search after a proved loss, for the others' mistakes.
    only_trusted: Option<u8>,
}

impl<M: Copy> MctsTree<M> {
    /// A tree of at most `megabytes` of nodes.
    pub(super) fn new(megabytes: usize) -> MctsTree<M> {
        let capacity = ((megabytes.max(1) << 20) / std::mem::size_of::<Node<M>>()).max(1024);
        MctsTree {
            nodes: Vec::new(),
            capacity,
            moves: Vec::new(),
            path: Vec::new(),
            rng: 1,
            evaluated: false,
            verdicts: false,
            only_trusted: None,
        }
    }

    /// Forgets every node but a fresh root, `mover` to play.
    fn restart(&mut self, mover: u8) {
        self.nodes.clear();
        self.nodes.push(Node::unvisited(None, UNPROVED, mover));
    }

    /// A random number (xorshift64*).
    fn random(&mut self, below: usize) -> usize {
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        ((self.rng.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as usize * below) >> 32
    }
}

/// One MCTS search of `root` within `limits`, among `root_moves` (all if
/// empty). Reports one line at the end (and every second under a long
/// search), its score the chosen move's share of wins, in tenths of a
/// percent above or below an even share.
pub(super) fn search<G: SearchGame>(
    game: &G,
    tree: &mut MctsTree<G::Move>,
    root: &G::Position,
    limits: &Limits,
    root_moves: &[G::Move],
    signals: &Signals,
    report: &mut dyn FnMut(Progress<'_, G::Move>),
) -> SearchResult<G::Move> {
    let started = limits.clock_start.unwrap_or_else(Instant::now);
    let pondering = signals.pondering.load(std::sync::atomic::Ordering::Relaxed);
    let budget = limits.budget(game.expected_moves_left(root));
    // Stopped at any time, a search ends at its share of the clock (between
    // the soft and the hard limit), or at a fixed time's hard limit.
    let end = match (budget.soft, budget.hard) {
        (Some(soft), Some(hard)) => Some((soft * 2).min(hard)),
        (soft, hard) => soft.or(hard),
    };
    let mut timer = Timer::new(super::limits::TimeBudget { soft: end, hard: end }, started, pondering);
    // Without a limit of time or nodes, the depth asked for sets the
    // simulations (a depth alone is for tests and the bench).
    let simulations = limits.nodes.or_else(|| {
        (!limits.infinite && end.is_none())
            .then(|| u64::from(limits.depth.unwrap_or(1)) * PARAMS.mcts_simulations_per_depth)
    });
    tree.rng = game.hash(root) | 1;
    tree.verdicts = game.policy().verdicts_in_search;
    tree.only_trusted = None;
    let mover = game.mover(root) as u8;
    tree.restart(mover);
    let players = game.players(root);
    let mut done: u64 = 0;
    let mut deepest = 0;
    let mut last_report = Instant::now();
    loop {
        let root_proved = tree.nodes[0].proved;
        if root_proved != UNPROVED && !limits.infinite && !pondering {
            // A win, a draw, or a loss no one's choice avoids ends the
            // search. A loss that rests on the others finding their wins
            // gets the time left, in a fresh tree that does not prove their
            // wins: the move that gives them most chances to miss one.
            if root_proved == mover || root_proved == DRAW || tree.only_trusted.is_some() {
                // A fixed time a move is the time the move takes, proved or not.
                if limits.fixed_time_only() {
                    timer.wait_out(signals);
                }
                break;
            }
            report(Progress::Note("the others can force a win: playing on for their mistakes"));
            tree.only_trusted = Some(mover);
            tree.restart(mover);
        }
        // One simulation at least: it gives the root its moves, so a search
        // stopped at once still answers one (and not a game over).
        if simulations.is_some_and(|limit| done >= limit.max(1)) && !limits.infinite {
            break;
        }
        if done > 0
            && done.is_multiple_of(PARAMS.mcts_poll_interval)
            && (signals.stop.load(std::sync::atomic::Ordering::Relaxed) || timer.past_hard(signals))
        {
            break;
        }
        deepest = deepest.max(simulate(game, tree, root, root_moves, players));
        done += 1;
        if last_report.elapsed() >= PARAMS.current_move_after {
            last_report = Instant::now();
            report_line(game, tree, root, done, deepest, started, report);
        }
        if tree.nodes[0].children == 0 && tree.nodes[0].expanded {
            break;
        }
    }
    let best = report_line(game, tree, root, done, deepest, started, report);
    // Searching on under `go infinite` or while pondering, until told.
    while (limits.infinite || signals.pondering.load(std::sync::atomic::Ordering::Relaxed))
        && !signals.stop.load(std::sync::atomic::Ordering::Relaxed)
    {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    best
}

/// One simulation: down the tree by UCT to a leaf, a playout from it (or
/// its proved result), and the result (a winner, or each player's share)
/// backed up. Returns the depth reached.
fn simulate<G: SearchGame>(
    game: &G,
    tree: &mut MctsTree<G::Move>,
    root: &G::Position,
    root_moves: &[G::Move],
    players: usize,
) -> usize {
    let mut position = *root;
    tree.path.clear();
    tree.path.push(0);
    let mut index = 0usize;
    let outcome = loop {
        let node = tree.nodes[index];
        if node.proved != UNPROVED {
            break Outcome::Winner(node.proved);
        }
        if !node.expanded {
            if index != 0 && node.visits == 0 || tree.nodes.len() + 256 > tree.capacity {
                break playout(game, tree, position, players);
            }
            if let Some(result) = expand(game, tree, index, &position, if index == 0 { root_moves } else { &[] }) {
                break Outcome::Winner(result);
            }
        }
        let child = select(tree, index, players);
        let mv = tree.nodes[child].mv.expect("a child has its move");
        position = game.play(&position, mv);
        tree.path.push(child as u32);
        index = child;
    };
    backup(tree, outcome, players);
    tree.path.len()
}

/// Makes the children of `index`, in a random order (unvisited children are
/// tried in that order). Returns the result where the game is over there.
fn expand<G: SearchGame>(
    game: &G,
    tree: &mut MctsTree<G::Move>,
    index: usize,
    position: &G::Position,
    only: &[G::Move],
) -> Option<u8> {
    let mover = game.mover(position) as u8;
    tree.nodes[index].expanded = true;
    tree.nodes[index].mover = mover;
    // Not at the root: it needs its moves to answer with one.
    if index != 0
        && let Some(decided) = decided_winner(game, tree, position)
    {
        tree.nodes[index].proved = decided;
        return Some(decided);
    }
    let mut moves = std::mem::take(&mut tree.moves);
    moves.clear();
    game.legal_moves(position, &mut moves);
    if moves.is_empty() {
        let result = game.winner(position).map_or(DRAW, |winner| winner as u8);
        tree.nodes[index].proved = result;
        tree.moves = moves;
        return Some(result);
    }
    if !only.is_empty() {
        moves.retain(|mv| only.contains(mv));
    }
    for last in (1..moves.len()).rev() {
        let other = tree.random(last + 1);
        moves.swap(last, other);
    }
    let first_child = tree.nodes.len() as u32;
    tree.nodes[index].first_child = first_child;
    tree.nodes[index].children = moves.len() as u32;
    for &mv in &moves {
        tree.nodes.push(Node::unvisited(Some(mv), mover, UNPROVED));
    }
    tree.moves = moves;
    None
}

/// The child of `index` UCT picks: a proved child at its result (where
/// the mover is trusted to play its wins), an unvisited one first, else
/// the best mean wins plus exploration. Where
/// every child is proved (and none won by the mover, or the node would be
/// proved too), one of those best for the mover at random: a player that
/// loses whatever it does is as likely to hand the game to one opponent as
/// to another, so the simulations through it share the wins out.
fn select<M: Copy>(tree: &mut MctsTree<M>, index: usize, players: usize) -> usize {
    let nodes = &tree.nodes;
    let node = &nodes[index];
    let log_visits = (node.visits.max(1) as f32).ln();
    let first = node.first_child as usize;
    let children = first..first + node.children as usize;
    let mut best = first;
    let mut best_value = f32::NEG_INFINITY;
    let mut all_proved = true;
    // A player not trusted to play its wins picks among proved children by
    // their counts too, so a win among many losing moves is missed more.
    let trusted = trusts(tree.only_trusted, node.mover);
    for child in children.clone() {
        let candidate = &nodes[child];
        let value = if candidate.proved != UNPROVED && trusted {
            result_for(candidate.proved, node.mover, players)
        } else if candidate.visits == 0 {
            return child;
        } else {
            all_proved = false;
            let visits = candidate.visits as f32;
            candidate.wins / visits + PARAMS.mcts_exploration * (log_visits / visits).sqrt()
        };
        if value > best_value {
            best_value = value;
            best = child;
        }
    }
    if !all_proved {
        return best;
    }
    let mover = node.mover;
    let is_best = |child: &usize| result_for(nodes[*child].proved, mover, players) == best_value;
    let ties = children.clone().filter(is_best).count();
    let pick = tree.random(ties);
    let nodes = &tree.nodes;
    let is_best = |child: &usize| result_for(nodes[*child].proved, mover, players) == best_value;
    children.filter(is_best).nth(pick).unwrap_or(best)
}

/// The winner where the game's bounds decide it and the tree takes them.
fn decided_winner<G: SearchGame>(game: &G, tree: &MctsTree<G::Move>, position: &G::Position) -> Option<u8> {
    tree.verdicts.then(|| game.decided(position)).flatten().map(|decided| decided.winner as u8)
}

/// What a game won by `winner` (or drawn) is worth to `player`.
fn result_for(winner: u8, player: u8, players: usize) -> f32 {
    match winner {
        DRAW => 1.0 / players as f32,
        winner if winner == player => 1.0,
        _ => 0.0,
    }
}

/// Random moves to the end of the game, its winner; or, where the tree is
/// `evaluated`, after `PARAMS.mcts_playout_plies` of them, the game's
/// evaluation of each player's chance, where it has one.
fn playout<G: SearchGame>(
    game: &G,
    tree: &mut MctsTree<G::Move>,
    mut position: G::Position,
    players: usize,
) -> Outcome {
    let mut moves = std::mem::take(&mut tree.moves);
    let mut plies_left = PARAMS.mcts_playout_plies;
    let outcome = loop {
        if tree.evaluated && plies_left == 0 && players <= MAX_SHARES {
            let mut shares = [0.0; MAX_SHARES];
            if game.win_shares(&position, &mut shares[..players]) {
                break Outcome::Shares(shares);
            }
        }
        if let Some(winner) = decided_winner(game, tree, &position) {
            break Outcome::Winner(winner);
        }
        moves.clear();
        game.legal_moves(&position, &mut moves);
        if moves.is_empty() {
            break Outcome::Winner(game.winner(&position).map_or(DRAW, |winner| winner as u8));
        }
        let mv = moves[tree.random(moves.len())];
        position = game.play(&position, mv);
        plies_left = plies_left.saturating_sub(1);
    };
    tree.moves = moves;
    outcome
}

/// Counts the simulation along the path, and proves what it settles: a node
/// whose mover has a won child is won by its mover; a node whose children
/// all have one result has it. Nothing else is proved: where the mover
/// loses whatever it does but who wins instead is its choice, the node
/// stays open (`select` then picks among its children at random), so a
/// loss proved only against a coalition or a guessed choice never ends a
/// search nor hides the games the others may yet give away.
fn backup<M: Copy>(tree: &mut MctsTree<M>, outcome: Outcome, players: usize) {
    let mut proving = true;
    for step in (0..tree.path.len()).rev() {
        let index = tree.path[step] as usize;
        let node = &mut tree.nodes[index];
        node.visits += 1;
        node.wins += match outcome {
            Outcome::Winner(winner) => result_for(winner, node.by, players),
            Outcome::Shares(shares) => shares.get(usize::from(node.by)).copied().unwrap_or(0.0),
        };
        if !proving || step == tree.path.len() - 1 {
            continue;
        }
        proving = node.proved == UNPROVED && prove(&mut tree.nodes, index, tree.only_trusted);
    }
}

/// Whether `player` is trusted to play its wins (`MctsTree::only_trusted`).
fn trusts(only_trusted: Option<u8>, player: u8) -> bool {
    only_trusted.is_none_or(|trusted| trusted == player)
}

/// Proves `index` from its children where they settle it; whether it did.
/// A won child proves its mover's win only where that player is trusted
/// to play it (`MctsTree::only_trusted`).
fn prove<M: Copy>(nodes: &mut [Node<M>], index: usize, only_trusted: Option<u8>) -> bool {
    let node = nodes[index];
    let first = node.first_child as usize;
    let children = &nodes[first..first + node.children as usize];
    let proved = if trusts(only_trusted, node.mover) && children.iter().any(|child| child.proved == node.mover) {
        node.mover
    } else if let Some(first) = children.first()
        && children.iter().all(|child| child.proved != UNPROVED && child.proved == first.proved)
    {
        first.proved
    } else {
        return false;
    };
    nodes[index].proved = proved;
    true
}

/// The move to play: a proved win, else the most visited child not proved
/// lost (all lost: the most visited). Reports it with its line.
fn report_line<G: SearchGame>(
    game: &G,
    tree: &MctsTree<G::Move>,
    root: &G::Position,
    simulations: u64,
    deepest: usize,
    started: Instant,
    report: &mut dyn FnMut(Progress<'_, G::Move>),
) -> SearchResult<G::Move> {
    let players = game.players(root);
    let nodes = &tree.nodes;
    let root_node = &nodes[0];
    let mover = root_node.mover;
    let first = root_node.first_child as usize;
    let children = first..first + root_node.children as usize;
    let rank = |child: &usize| {
        let node = &nodes[*child];
        let won = node.proved == mover;
        let lost = node.proved != UNPROVED && !won;
        (won, !lost, node.visits)
    };
    let Some(best) = children.clone().max_by_key(rank) else {
        return SearchResult { best_move: None, score: Score::Mate(0), depth: 0, nodes: simulations };
    };
    let chosen = &nodes[best];
    let share = if chosen.proved != UNPROVED {
        result_for(chosen.proved, mover, players)
    } else if chosen.visits > 0 {
        chosen.wins / chosen.visits as f32
    } else {
        1.0 / players as f32
    };
    let even = 1.0 / players as f32;
    let score = Score::Centipawns(((share - even) * 1000.0).round() as i32);
    let mut pv = Vec::new();
    let mut index = best;
    while let Some(mv) = nodes[index].mv {
        pv.push(mv);
        let node = &nodes[index];
        if !node.expanded || node.children == 0 || pv.len() >= 32 {
            break;
        }
        let first = node.first_child as usize;
        let next = (first..first + node.children as usize).max_by_key(|&child| nodes[child].visits).expect("children");
        if nodes[next].visits == 0 {
            break;
        }
        index = next;
    }
    let depth = pv.len() as u32;
    let line = Report {
        multipv: 1,
        depth,
        seldepth: deepest as u32,
        score,
        nodes: simulations,
        elapsed: started.elapsed(),
        hashfull: (nodes.len() * 1000 / tree.capacity.max(1)) as u32,
        pv,
    };
    report(Progress::Line(&line));
    SearchResult { best_move: chosen.mv, score, depth, nodes: simulations }
}
