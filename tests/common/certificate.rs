//! A checker of Pods proof certificates (the format is in docs/solving.md),
//! independent of the engine: every position is made again from the root
//! by the slow reference rules of `reference.rs`, every move of the winner
//! is checked legal there, every move of the loser is followed, and the
//! leaves (positions the engine's endgame solver or its bounds settled) are
//! proved again by an independent brute force (`LeafChecker`).

use std::collections::{HashMap, HashSet};

use crate::common::reference::RefRules;
use crate::fast_pods::FastPods;

/// What the certificate says the winner does at a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The winner, to move, plays this move.
    Move(String),
    /// The winner wins from here within this many plies.
    Leaf(u32),
}

/// A certificate as read.
pub struct Certificate {
    pub variant: String,
    pub board: String,
    pub pods: String,
    pub placement_liberty: bool,
    pub root: String,
    /// 0 White, 1 Black.
    pub winner: usize,
    pub plies: u32,
    /// Steps by position line, as written.
    pub steps: HashMap<String, Step>,
}

/// What the tree check found.
#[derive(Clone, Debug, Default)]
pub struct TreeReport {
    /// Distinct positions of the tree (the root, the winner's and the
    /// loser's turns, the leaves).
    pub positions: usize,
    pub winner_turns: usize,
    pub loser_turns: usize,
    /// Positions where the loser had no legal move.
    pub ends: usize,
    /// Leaves, each position once, with the plies claimed.
    pub leaves: Vec<(String, u32)>,
    /// Step lines the tree never reached (harmless, but a sign of a faulty writer).
    pub unused_steps: usize,
    /// The most plies the game lasts along the tree from each of the
    /// winner's turns, the leaves' claims taken as they are.
    pub winner_plies: HashMap<String, u32>,
}

fn side_of(name: &str) -> Result<usize, String> {
    match name {
        "white" => Ok(0),
        "black" => Ok(1),
        _ => Err(format!("winner: expected white or black, found {name:?}")),
    }
}

/// Reads a certificate; every line must be of the format.
pub fn parse(text: &str) -> Result<Certificate, String> {
    let mut fields: HashMap<&str, &str> = HashMap::new();
    let mut steps = HashMap::new();
    let mut ended = false;
    for (number, line) in text.lines().enumerate() {
        let number = number + 1;
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if ended {
            return Err(format!("line {number}: text after `end`"));
        }
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "certificate" | "game" | "board" | "pods" | "placement-liberty" | "root" | "winner" | "plies" => {
                if fields.insert(word, rest).is_some() {
                    return Err(format!("line {number}: a second `{word}` line"));
                }
            }
            "move" | "leaf" => {
                // A position line has five fields; the step follows them.
                let parts: Vec<&str> = rest.split(' ').collect();
                if parts.len() != 6 {
                    return Err(format!(
                        "line {number}: expected `{word} <position line> <{}>`",
                        if word == "move" { "move" } else { "plies" }
                    ));
                }
                let position = parts[..5].join(" ");
                let step = if word == "move" {
                    Step::Move(parts[5].to_string())
                } else {
                    Step::Leaf(
                        parts[5].parse().map_err(|_| format!("line {number}: plies: not a number: {:?}", parts[5]))?,
                    )
                };
                if steps.insert(position, step).is_some() {
                    return Err(format!("line {number}: a second step for the same position"));
                }
            }
            "end" => ended = true,
            _ => return Err(format!("line {number}: unknown line {word:?}")),
        }
    }
    if !ended {
        return Err("no `end` line: the certificate is cut short".to_string());
    }
    let field = |name: &str| fields.get(name).copied().ok_or_else(|| format!("no `{name}` line"));
    if field("certificate")? != "1" {
        return Err(format!("certificate format {:?}: this checker reads format 1", field("certificate")?));
    }
    let variant = field("game")?
        .strip_prefix("pods ")
        .filter(|variant| ["standard", "advanced"].contains(variant))
        .ok_or("game: expected `pods standard` or `pods advanced`")?
        .to_string();
    Ok(Certificate {
        variant,
        board: field("board")?.to_string(),
        pods: field("pods")?.to_string(),
        placement_liberty: field("placement-liberty")? == "true",
        root: field("root")?.to_string(),
        winner: side_of(field("winner")?)?,
        plies: field("plies")?.parse().map_err(|_| "plies: not a number".to_string())?,
        steps,
    })
}

impl Certificate {
    /// The reference rules of the certificate's game.
    pub fn rules(&self) -> RefRules {
        RefRules::new(Some(&self.board), Some(&self.pods), self.variant == "advanced", self.placement_liberty)
    }
}

/// Checks the tree: from the root, the winner's move where the winner is
/// to move, every move where the loser is, down to leaves and to
/// positions where the loser has no legal move. Positions are made by the
/// reference rules and looked up by their canonical line, so a
/// transposition is one position.
pub fn check_tree(certificate: &Certificate, rules: &RefRules) -> Result<TreeReport, String> {
    let mut report = TreeReport::default();
    let root = rules.canonical(&certificate.root);
    let mut seen: HashSet<String> = HashSet::new();
    let mut used: HashSet<&String> = HashSet::new();
    let mut stack = vec![root.clone()];
    seen.insert(root.clone());
    // The tree's edges, for the check that it has no cycle (in the advanced
    // game positions can repeat, and a winner going round never wins).
    let mut edges: HashMap<String, Vec<String>> = HashMap::new();
    // The winner's turns, for the plies each lasts.
    let mut winner_turns: HashSet<String> = HashSet::new();
    while let Some(position) = stack.pop() {
        report.positions += 1;
        let step = certificate.steps.get_key_value(&position);
        if let Some((key, _)) = step {
            used.insert(key);
        }
        let winner_to_move = rules.side_to_move(&position) == certificate.winner;
        let children = match step.map(|(_, step)| step) {
            Some(Step::Leaf(plies)) => {
                report.leaves.push((position.clone(), *plies));
                continue;
            }
            Some(Step::Move(mv)) if winner_to_move => {
                winner_turns.insert(position.clone());
                let children = rules.children(&position);
                let child = children
                    .into_iter()
                    .find(|(legal, _)| legal.eq_ignore_ascii_case(mv))
                    .ok_or_else(|| format!("{position}: the winner's move {mv} is not legal"))?;
                vec![child.1]
            }
            Some(Step::Move(mv)) => return Err(format!("{position}: a move ({mv}) given for the loser's turn")),
            None if winner_to_move => return Err(format!("{position}: the winner's turn, and no move given")),
            None => {
                let children = rules.children(&position);
                if children.is_empty() {
                    report.ends += 1;
                } else {
                    report.loser_turns += 1;
                }
                children.into_iter().map(|(_, child)| child).collect()
            }
        };
        for child in &children {
            if seen.insert(child.clone()) {
                stack.push(child.clone());
            }
        }
        edges.insert(position, children);
    }
    if let Some(position) = find_cycle(&root, &edges) {
        return Err(format!("{position}: the tree goes round through this position (a repetition is no win)"));
    }
    report.winner_turns = winner_turns.len();
    report.unused_steps = certificate.steps.len() - used.len();
    let leaves: HashMap<&str, u32> =
        report.leaves.iter().map(|(position, plies)| (position.as_str(), *plies)).collect();
    let plies = longest_plies(&root, &edges, &leaves);
    let root_plies = plies[root.as_str()];
    if root_plies > certificate.plies {
        return Err(format!("the tree lasts {root_plies} plies, the certificate claims at most {}", certificate.plies));
    }
    let winner_plies = plies
        .into_iter()
        .filter(|(position, _)| winner_turns.contains(*position))
        .map(|(position, plies)| (position.to_string(), plies))
        .collect();
    Ok(TreeReport { winner_plies, ..report })
}

/// The most plies the game lasts from each position of the tree `edges`
/// (no cycle): a leaf's claim, none where the loser has no move, one more
/// than the winner's move or the loser's longest move.
fn longest_plies<'a>(
    root: &'a str,
    edges: &'a HashMap<String, Vec<String>>,
    leaves: &HashMap<&str, u32>,
) -> HashMap<&'a str, u32> {
    let mut plies: HashMap<&str, u32> = HashMap::new();
    let mut stack: Vec<(&str, bool)> = vec![(root, false)];
    while let Some((position, children_done)) = stack.pop() {
        if plies.contains_key(position) {
            continue;
        }
        let children = edges.get(position).map(Vec::as_slice).unwrap_or(&[]);
        if let Some(&claim) = leaves.get(position) {
            plies.insert(position, claim);
        } else if children.is_empty() {
            plies.insert(position, 0);
        } else if children_done {
            let longest = children.iter().map(|child| plies[child.as_str()]).max().unwrap_or(0);
            plies.insert(position, longest + 1);
        } else {
            stack.push((position, true));
            stack.extend(children.iter().map(|child| (child.as_str(), false)));
        }
    }
    plies
}

/// Proves leaves again: standard-game leaves by the fast brute force of
/// `fast_pods.rs` (written from the rules alone, cross-checked against the
/// reference's brute force by tests/certificate.rs), advanced-game leaves by
/// the reference's own brute force.
pub struct LeafChecker {
    fast: Option<FastPods>,
    rules: RefRules,
}

impl LeafChecker {
    /// A checker of `certificate`'s leaves by its game's `rules`.
    pub fn new(certificate: &Certificate, rules: RefRules) -> Result<LeafChecker, String> {
        let fast = match certificate.variant.as_str() {
            "standard" => Some(FastPods::new(Some(&certificate.board), Some(&certificate.pods))?),
            _ => None,
        };
        Ok(LeafChecker { fast, rules })
    }

    /// The winner wins from `position` within `plies` plies.
    pub fn check(&mut self, winner: usize, position: &str, plies: u32) -> Result<(), String> {
        let wins = match &mut self.fast {
            Some(fast) => fast.wins_within(position, winner, plies)?,
            None => self.rules.side_wins_within(position, winner, plies),
        };
        if wins {
            Ok(())
        } else {
            let side = ["White", "Black"][winner];
            Err(format!("leaf {position}: {side} does not win within {plies} plies"))
        }
    }
}

/// A position on a cycle of the graph `edges` reachable from `root`, if any
/// (a depth-first search that keeps the positions on its path).
fn find_cycle(root: &str, edges: &HashMap<String, Vec<String>>) -> Option<String> {
    let mut done: HashSet<&str> = HashSet::new();
    let mut on_path: HashSet<&str> = HashSet::new();
    // (position, index of the next child to look at)
    let mut stack: Vec<(&str, usize)> = vec![(root, 0)];
    on_path.insert(root);
    while let Some((position, next)) = stack.last_mut() {
        let children = edges.get(*position).map(Vec::as_slice).unwrap_or(&[]);
        if let Some(child) = children.get(*next) {
            *next += 1;
            if on_path.contains(child.as_str()) {
                return Some(child.clone());
            }
            if !done.contains(child.as_str()) {
                on_path.insert(child);
                stack.push((child, 0));
            }
        } else {
            let position = *position;
            on_path.remove(position);
            done.insert(position);
            stack.pop();
        }
    }
    None
}
