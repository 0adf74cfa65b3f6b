//! df-pn in the advanced game against a brute force that knows the
//! threefold repetition rule (issue #39 item 3).
//!
//! The brute force is written from the rules (docs/pods-rules.md, section
//! 6), over the slow reference rules of tests/common/reference.rs: plain
//! minimax (alpha-beta over win, draw and loss) along the game's actual
//! history, with no table. A position is the board, both hands and the side
//! to move (not the ply); the game is a draw when a position occurs for the
//! third time, counting the positions of the history before the root. The
//! engine (`podium solve --method dfpn --variant advanced`) must give the
//! same verdict on every position the brute force settles.
//!
//! `podium solve` solves the position as a game that starts there (the
//! moves given with `--moves` do not count towards repetitions, except
//! that a position occurring for the third time is a game over): so the
//! engine is compared with the brute force's value of the game that starts
//! at the root, and the positions whose value depends on the history
//! before them are shown to exist, with both values, and to be solved by
//! the engine as it says it solves them.

mod common;

use std::collections::HashMap;
use std::process::Command;

use common::reference::RefRules;
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

/// The value of a position for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Value {
    Loss,
    Draw,
    Win,
}

impl Value {
    fn negate(self) -> Value {
        match self {
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
            Value::Win => Value::Loss,
        }
    }
}

/// What a repetition does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Repetitions {
    /// The rules: the third occurrence of a position draws the game.
    Threefold,
    /// For comparison, a game without draws: a move to a position that has
    /// already occurred is not allowed (so every game ends, and a side
    /// left with no other move loses).
    Forbidden,
}

/// The position as the repetition rule sees it: board, side to move and
/// hands (the rotation never changes within a game; the ply is no part).
fn repetition_key(line: &str) -> String {
    line.split(' ').take(3).collect::<Vec<_>>().join(" ")
}

/// Plain minimax over the reference rules, along the game's history.
struct BruteForce<'a> {
    rules: &'a RefRules,
    repetitions: Repetitions,
    /// How often each position has occurred in the game so far (the
    /// history before the root, the root and the path below it).
    occurred: HashMap<String, u32>,
    nodes: u64,
    budget: u64,
    /// The positions after each position's legal moves, once each: the
    /// rules' answer kept (no values are kept).
    children: HashMap<String, std::rc::Rc<Vec<String>>>,
}

impl<'a> BruteForce<'a> {
    /// The value of `root` for its side to move, where `history` is the
    /// game's positions before it (oldest first); `None` if more than
    /// `budget` positions would have to be visited.
    fn solve(
        rules: &'a RefRules,
        repetitions: Repetitions,
        history: &[String],
        root: &str,
        budget: u64,
    ) -> Option<(Value, u64)> {
        let mut occurred = HashMap::new();
        for line in history.iter().map(String::as_str).chain([root]) {
            *occurred.entry(repetition_key(line)).or_insert(0) += 1;
        }
        if repetitions == Repetitions::Threefold && occurred[&repetition_key(root)] >= 3 {
            return Some((Value::Draw, 0));
        }
        let mut brute = BruteForce { rules, repetitions, occurred, nodes: 0, budget, children: HashMap::new() };
        let value = brute.value(root, Value::Loss, Value::Win)?;
        Some((value, brute.nodes))
    }

    /// The value of `line` (which has just occurred, and is counted) for
    /// its side to move, exact where it lies strictly between `alpha` and
    /// `beta`, else a bound on the same side.
    fn value(&mut self, line: &str, mut alpha: Value, beta: Value) -> Option<Value> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        let children = self.children_of(line);
        let mut best = None;
        for child in children.iter() {
            let key = repetition_key(child);
            let before = self.occurred.get(&key).copied().unwrap_or(0);
            let value = match self.repetitions {
                Repetitions::Threefold if before >= 2 => Value::Draw,
                Repetitions::Forbidden if before >= 1 => continue,
                _ => {
                    *self.occurred.entry(key.clone()).or_insert(0) += 1;
                    let below = self.value(child, beta.negate(), alpha.negate());
                    *self.occurred.get_mut(&key).expect("counted") -= 1;
                    below?.negate()
                }
            };
            best = best.max(Some(value));
            if value > alpha {
                alpha = value;
            }
            if alpha >= beta {
                break;
            }
        }
        // No legal action (or, where repetitions are forbidden, none left): a loss.
        Some(best.unwrap_or(Value::Loss))
    }

    /// The positions after `line`'s legal moves, each once, those where the
    /// game is over (the side to move then has no legal action) first.
    fn children_of(&mut self, line: &str) -> std::rc::Rc<Vec<String>> {
        if let Some(children) = self.children.get(line) {
            return children.clone();
        }
        // Moves that lead to the same position are one choice.
        let mut children: Vec<String> = self.rules.children(line).into_iter().map(|(_, child)| child).collect();
        children.sort();
        children.dedup();
        children.sort_by_cached_key(|child| !self.rules.legal_moves(child).is_empty());
        let children = std::rc::Rc::new(children);
        self.children.insert(line.to_string(), children.clone());
        children
    }
}

/// A game's settings as `podium` takes them: `None` for the defaults.
struct Game {
    board: Option<&'static str>,
    pods: Option<&'static str>,
}

impl Game {
    fn rules(&self) -> RefRules {
        RefRules::new(self.board, self.pods, true, false)
    }

    /// `podium solve --method dfpn` on `start` after `moves`: the verdict
    /// for the side to move then, or `None` where it proved nothing.
    fn engine(&self, start: &str, moves: &[String], side_to_move: usize) -> Option<Value> {
        let mut command = Command::new(env!("CARGO_BIN_EXE_podium"));
        command.args(["solve", "--json", "--variant", "advanced", "--method", "dfpn", "--hash", "16"]);
        // A guard against a search that never ends, not a measure: every
        // position here is one the brute force settles in a moment.
        command.args(["--movetime", "60000", "--fen", start]);
        if let Some(board) = self.board {
            command.args(["--board", board]);
        }
        if let Some(pods) = self.pods {
            command.args(["--pods", pods]);
        }
        if !moves.is_empty() {
            command.arg("--moves").args(moves);
        }
        let output = command.output().expect("podium runs");
        let text = String::from_utf8_lossy(&output.stdout).to_string();
        assert!(output.status.success(), "podium solve {start} {moves:?}: {}", String::from_utf8_lossy(&output.stderr));
        let json: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|error| panic!("{error}: not one JSON object: {text}"));
        if json["proven"] != true {
            return None;
        }
        if json["draw"] == true {
            return Some(Value::Draw);
        }
        let line: Vec<String> = json["line"]
            .as_array()
            .unwrap_or_else(|| panic!("a line in {text}"))
            .iter()
            .map(|mv| mv.as_str().unwrap_or_else(|| panic!("a move {mv} in {text}")).to_string())
            .collect();
        self.assert_line_ends_the_game(start, moves, &line);
        let winner = match json["winner"].as_str() {
            Some("p1") => 0,
            Some("p2") => 1,
            other => panic!("winner {other:?} in {text}"),
        };
        Some(if winner == side_to_move { Value::Win } else { Value::Loss })
    }

    /// The line of a proved win or loss, the winner's proved moves against
    /// the loser's longest resistance, is legal by the reference rules and
    /// plays on to the end of the game.
    fn assert_line_ends_the_game(&self, start: &str, moves: &[String], line: &[String]) {
        let rules = self.rules();
        let mut position = moves.iter().fold(start.to_string(), |position, mv| rules.play(&position, mv));
        for mv in line {
            let legal = rules.legal_moves(&position);
            assert!(legal.contains(mv), "{start} {moves:?}: the line's {mv} is not legal in {position}: {line:?}");
            position = rules.play(&position, mv);
        }
        assert!(
            rules.legal_moves(&position).is_empty(),
            "{start} {moves:?}: the line {line:?} stops at {position}, before the game ends"
        );
    }
}

/// A seeded random game of the reference rules from `start`, as its
/// positions and moves, until it ends or `limit` plies.
fn random_game(
    rules: &RefRules,
    start: &str,
    random: &mut Xoshiro256PlusPlus,
    limit: usize,
) -> (Vec<String>, Vec<String>) {
    let mut positions = vec![rules.canonical(start)];
    let mut moves = Vec::new();
    let mut occurred: HashMap<String, u32> = HashMap::new();
    *occurred.entry(repetition_key(&positions[0])).or_insert(0) += 1;
    while moves.len() < limit {
        let here = positions.last().expect("a position");
        let children = rules.children(here);
        if children.is_empty() || occurred[&repetition_key(here)] >= 3 {
            break;
        }
        let (mv, child) = children[(random.next_u64() % children.len() as u64) as usize].clone();
        *occurred.entry(repetition_key(&child)).or_insert(0) += 1;
        moves.push(mv);
        positions.push(child);
    }
    (positions, moves)
}

/// The positions of scripts/data/pods-endgames-advanced.txt, 8 plies before
/// the end of their games.
fn real_endgames() -> Vec<String> {
    include_str!("../scripts/data/pods-endgames-advanced.txt")
        .lines()
        .filter(|line| line.contains("\"plies_before_end\":8}"))
        .map(|line| line.split("\"fen\":\"").nth(1).expect("a fen").split('"').next().expect("a fen").to_string())
        .collect()
}

/// Compares the engine with the brute force on `positions` (none with a
/// history: the game starts there), each with the brute force's value and
/// the positions it visited. Returns the values.
fn assert_engine_agrees(game: &Game, positions: &[(String, Value, u64)]) -> Vec<Value> {
    let rules = game.rules();
    let mut values = Vec::new();
    for (position, value, nodes) in positions {
        let (value, nodes) = (*value, *nodes);
        let engine = game.engine(position, &[], rules.side_to_move(position));
        eprintln!("{position}: brute force {value:?} ({nodes} positions), engine {engine:?}");
        assert_eq!(engine, Some(value), "{position}: the engine against the brute force ({nodes} positions)");
        values.push(value);
    }
    values
}

/// Late positions of real advanced games: the last four positions of a
/// seeded random game of the reference rules from each game of
/// scripts/data/pods-endgames-advanced.txt 8 plies before its end, those
/// the brute force settles within 1,000 positions.
#[test]
#[cfg_attr(debug_assertions, ignore = "the reference rules are slow in a debug build")]
fn late_positions_of_advanced_games_agree_with_the_brute_force() {
    let game = Game { board: None, pods: None };
    let rules = game.rules();
    let mut random = Xoshiro256PlusPlus::seed_from_u64(39);
    let mut settled = Vec::new();
    let mut tried = 0;
    for start in real_endgames() {
        let (positions, _) = random_game(&rules, &start, &mut random, 200);
        for position in positions.iter().rev().skip(1).take(4) {
            tried += 1;
            if let Some((value, nodes)) = BruteForce::solve(&rules, Repetitions::Threefold, &[], position, 1_000) {
                settled.push((position.clone(), value, nodes));
            }
        }
    }
    eprintln!("{} of {tried} positions settled by the brute force", settled.len());
    assert!(settled.len() >= 24, "only {} of {tried} positions settled", settled.len());
    let values = assert_engine_agrees(&game, &settled);
    assert!(values.contains(&Value::Win) && values.contains(&Value::Loss), "{values:?}");
}

/// A board of six joined points (a1, b1, c1, a2, b2, c2) and 30 alone,
/// where a pod placed alone is blocked and goes back to hand (a move that
/// changes nothing but the side to move), and three pods a side: games
/// small enough for the brute force that repeat positions.
const SMALL_BOARD: &str = "o.o.o.o.o.o,...........,o.o.o.o.o.o,...........,o.o.o.o.o.o,...........,\
o.o.o.o.o.o,...........,o-o-o.o.o.o,|.|X|......,o-o-o.o.o.o";
/// The small game's pods.
const SMALL_PODS: &str = "A=W:s,E:s;B=N:s,S:s;C=N:l,E:s";

/// Positions of the small game, found by a throwaway search (not kept):
/// `random_game` from the small game's start (`6/6/6/6/6/6 w ABCabc 0 0`),
/// `Xoshiro256PlusPlus::seed_from_u64(1)`, six games of at most 60 plies,
/// every position put to `BruteForce::solve` with and without
/// repetitions within 100,000 positions; these are positions of its games
/// 0, 1 and 3 that it settled: two whose value is a draw by repetition
/// (and a win where repeating is not allowed), and two won positions.
const SMALL_POSITIONS: [&str; 4] = [
    "6/6/6/6/A1a3/1b4 w BCc 0 10",
    "6/6/6/6/A1a3/1b4 b BCc 0 11",
    "6/6/6/6/1c4/6 b ABCab 0 5",
    "6/6/6/6/6/1c4 b ABCab 0 5",
];

/// Where repetitions decide: the engine's verdicts (draws included) are the
/// brute force's, and at least one position's value under the threefold
/// rule is not its value in a game where repeating is not allowed.
#[test]
#[cfg_attr(debug_assertions, ignore = "the reference rules are slow in a debug build")]
fn positions_where_repetitions_decide_agree_with_the_brute_force() {
    let game = Game { board: Some(SMALL_BOARD), pods: Some(SMALL_PODS) };
    let rules = game.rules();
    let positions: Vec<String> = SMALL_POSITIONS.iter().map(|line| rules.canonical(line)).collect();
    let solved: Vec<(String, Value, u64)> = positions
        .iter()
        .map(|position| {
            let (value, nodes) = BruteForce::solve(&rules, Repetitions::Threefold, &[], position, 100_000)
                .unwrap_or_else(|| panic!("{position}: the brute force does not settle it within 100,000 positions"));
            (position.clone(), value, nodes)
        })
        .collect();
    let values = assert_engine_agrees(&game, &solved);
    let mut differ = 0;
    for (position, value) in positions.iter().zip(&values) {
        let forbidden = BruteForce::solve(&rules, Repetitions::Forbidden, &[], position, 100_000)
            .unwrap_or_else(|| panic!("{position}: not settled without repetitions"))
            .0;
        eprintln!("{position}: threefold {value:?}, repeating not allowed {forbidden:?}");
        differ += usize::from(forbidden != *value);
    }
    assert!(differ >= 1, "no position whose value the repetition rule decides");
}

/// The history before the root: a won position, then the same position
/// after its two sides have each placed a pod where it is at once blocked
/// (back to hand), twice. The brute force counts the history; the engine
/// solves the game that starts at the root (docs/solving.md), except that
/// a position occurring for the third time is a game over, a draw.
#[test]
#[cfg_attr(debug_assertions, ignore = "the reference rules are slow in a debug build")]
fn a_value_that_depends_on_the_history_before_the_root() {
    let game = Game { board: Some(SMALL_BOARD), pods: Some(SMALL_PODS) };
    let rules = game.rules();
    let start = rules.canonical("6/6/6/6/6/1c4 b ABCab 0 5");
    let moves: Vec<String> = ["A@f6", "A@f6", "A@f6", "A@f6"].iter().map(|mv| mv.to_string()).collect();
    let mut positions = vec![start.clone()];
    for mv in &moves {
        positions.push(rules.play(positions.last().expect("a position"), mv));
    }
    let mut depends = 0;
    // The won position, for the first, second and third time (the
    // positions between, White to move, are too large for the brute force).
    for played in [0, 2, 4] {
        let root = &positions[played];
        let history = &positions[..played];
        // With its history the brute force may not settle it within its
        // budget (the history makes the lines that go round longer).
        let with_history =
            BruteForce::solve(&rules, Repetitions::Threefold, history, root, 20_000).map(|found| found.0);
        let (alone, _) = BruteForce::solve(&rules, Repetitions::Threefold, &[], root, 20_000).expect("settled");
        let third = history.iter().filter(|line| repetition_key(line) == repetition_key(root)).count() >= 2;
        let engine = game.engine(&start, &moves[..played], rules.side_to_move(root));
        eprintln!(
            "after {:?}: {root}: with its history {with_history:?}, alone {alone:?}, engine {engine:?}",
            &moves[..played]
        );
        depends += usize::from(with_history.is_some_and(|value| value != alone));
        let expected = if third { with_history.expect("a third occurrence: a draw") } else { alone };
        assert_eq!(engine, Some(expected), "{root} after {:?}", &moves[..played]);
    }
    assert!(depends >= 1, "no position whose value depends on the history before it");
}
