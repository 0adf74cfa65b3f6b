use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::time::Instant;

use super::manager::{Manager, Plan, Proofs};
use super::maxn::MAXN_WIN;
use super::negamax::{REDUCTION_TABLE, late_move_reduction, reduction_formula, score_from_tt, score_to_tt};
use super::ordering::HISTORY_SIZE;
use super::shared::{HelperLine, HelperProof, Shared};
use super::worker::Worker;
use super::*;
use crate::search::game::{GameKnowledge, GameRules, Policy, SearchGame};
use crate::search::limits::{Limits, Signals};
use crate::search::solver::{ProofTable, Proven};
use crate::search::test_games::{NodeSpec, POLICY, Tree};
use crate::search::tt::TranspositionTable;

/// Second games for the search: one pile of stones, the player to move
/// takes 1 to 3, and the player who cannot take has lost. With
/// `again_after_three`, taking 3 gives the same player another turn, so
/// the mover does not change every ply.
struct Subtraction {
    again_after_three: bool,
}

#[derive(Clone, Copy, Debug)]
struct Pile {
    stones: u8,
    mover: usize,
}

impl GameRules for Subtraction {
    type Position = Pile;
    type Move = u8;

    fn hash(&self, pile: &Pile) -> u64 {
        (pile.stones as u64 * 2 + pile.mover as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    fn players(&self, _: &Pile) -> usize {
        2
    }

    fn mover(&self, pile: &Pile) -> usize {
        pile.mover
    }

    fn legal_moves(&self, pile: &Pile, moves: &mut Vec<u8>) {
        moves.extend((1..=3).filter(|&take| take <= pile.stones));
    }

    fn play(&self, pile: &Pile, take: u8) -> Pile {
        let again = self.again_after_three && take == 3;
        Pile { stones: pile.stones - take, mover: if again { pile.mover } else { 1 - pile.mover } }
    }

    fn is_legal(&self, pile: &Pile, take: u8) -> bool {
        (1..=3).contains(&take) && take <= pile.stones
    }

    fn winner(&self, pile: &Pile) -> Option<usize> {
        Some(1 - pile.mover)
    }

    fn is_draw(&self, _: &Pile) -> bool {
        false
    }

    fn repetition_is_draw(&self) -> bool {
        false
    }

    fn move_to_bits(take: u8) -> u16 {
        take as u16
    }

    fn move_from_bits(bits: u16) -> Option<u8> {
        u8::try_from(bits).ok()
    }
}

impl GameKnowledge for Subtraction {
    fn evaluate(&self, pile: &Pile, _: usize) -> Option<i32> {
        (pile.stones > 0).then_some(0)
    }

    fn expected_moves_left(&self, pile: &Pile) -> u32 {
        pile.stones as u32 / 4 + 1
    }
}

impl SearchGame for Subtraction {
    fn policy(&self) -> Policy {
        POLICY
    }
}

fn solve(game: &Subtraction, stones: u8, mover: usize, threads: usize) -> SearchResult<u8> {
    let mut searcher = Searcher::new(1);
    searcher.set_threads(threads);
    let limits = Limits { depth: Some(40), ..Limits::default() };
    searcher.search(game, &Pile { stones, mover }, &[], &limits, &[], &Signals::default(), |_| {})
}

#[test]
fn reductions_from_the_table_are_the_formula_s() {
    for depth in 3..REDUCTION_TABLE as i32 + 2 {
        for index in 3..REDUCTION_TABLE + 2 {
            assert_eq!(late_move_reduction(depth, index), reduction_formula(depth, index), "{depth} {index}");
        }
    }
    assert!(late_move_reduction(20, 30) > late_move_reduction(4, 3));
}

#[test]
fn the_search_plays_a_second_game_perfectly_with_exact_mate_distances() {
    let game = Subtraction { again_after_three: false };
    for threads in [1, 2] {
        for pile in 1..=21u8 {
            let result = solve(&game, pile, (pile % 2) as usize, threads);
            if pile % 4 == 0 {
                // Every move loses; the loser makes pile / 4 moves first.
                assert_eq!(result.score, Score::Mate(-(pile as i32 / 4)), "pile {pile}, {threads} threads");
            } else {
                assert_eq!(result.best_move, Some(pile % 4), "pile {pile}, {threads} threads");
                assert_eq!(result.score, Score::Mate(pile as i32 / 4 + 1), "pile {pile}, {threads} threads");
            }
        }
        assert_eq!(solve(&game, 0, 0, threads).best_move, None);
    }
}

/// The main thread alone, searching `root` to depth 60 with what `shared`
/// holds (taking a proving helper's proofs where `helper_proves`), reporting
/// to `report`.
fn iterate_main<G: SearchGame>(
    game: &G,
    tt: &TranspositionTable,
    shared: &Shared<'_>,
    root: &G::Position,
    helper_proves: bool,
    report: impl FnMut(Progress<'_, G::Move>),
) -> SearchResult<G::Move> {
    let mut history = vec![0; HISTORY_SIZE];
    let game_history = HashMap::new();
    let worker = Worker::new(game, tt, &mut history, &game_history, shared);
    let report = RefCell::new(report);
    let proofs = Proofs { by_helper: helper_proves, ..Proofs::default() };
    let mut main = Manager::new(worker, &report, Instant::now(), proofs);
    main.iterate(root, &Plan { max_depth: 60, infinite: false, lines: 1, mate: None, book: true, fixed_time: false })
}

#[test]
fn the_main_thread_takes_over_a_deeper_line_a_helper_completed() {
    let game = Subtraction { again_after_three: false };
    let table = TranspositionTable::new(1);
    let signals = Signals::default();
    // As if a helper had completed depth 60 and found taking 3 worth 7.
    let shared = Shared::new(&signals, true, None);
    *shared.helper_line.lock().unwrap() = Some(HelperLine { depth: 60, seldepth: 61, score: 7, pv: vec![3] });
    shared.helper_depth.store(60, Ordering::Relaxed);
    let mut reported = Vec::new();
    // Without the helper, the search would take 1 (201 is 1 more than
    // a multiple of 4) and go on to depth 60 by itself.
    let result = iterate_main(&game, &table, &shared, &Pile { stones: 201, mover: 0 }, false, |progress| {
        if let Progress::Line(line) = progress {
            reported.push((line.depth, line.seldepth, line.pv.clone()));
        }
    });
    assert_eq!((result.depth, result.best_move, result.score), (60, Some(3), Score::Centipawns(7)));
    let (last, earlier) = reported.split_last().expect("lines reported");
    assert_eq!(*last, (60, 61, vec![3]));
    assert!(!earlier.is_empty() && earlier.iter().all(|&(depth, _, _)| depth < 60), "{earlier:?}");
}

/// What a proving helper left for the main thread after proving `root`.
struct ProvedAlongside {
    /// `prove_alongside`'s answer: whether the helper is done.
    done: bool,
    offered: HelperProof,
    settles: bool,
    nodes: u64,
}

fn prove_alongside<G: SearchGame>(game: &G, root: &G::Position) -> ProvedAlongside {
    let table = TranspositionTable::new(1);
    let mut proofs = ProofTable::new(1);
    let mut history = vec![0; HISTORY_SIZE];
    let game_history = HashMap::new();
    let signals = Signals::default();
    let shared = Shared::new(&signals, true, None);
    let mut helper = Worker::new(game, &table, &mut history, &game_history, &shared);
    let done = helper.prove_alongside(&mut proofs, root);
    ProvedAlongside {
        done,
        offered: shared.helper_proof.lock().unwrap().take().expect("a proof offered"),
        settles: shared.proof_settles.load(Ordering::Relaxed),
        nodes: shared.nodes.load(Ordering::Relaxed),
    }
}

#[test]
fn a_helper_proving_alongside_offers_the_proof_and_its_line() {
    // 9 stones: the mover takes 1, then answers each take with 4 less it.
    let proved = prove_alongside(&Subtraction { again_after_three: false }, &Pile { stones: 9, mover: 0 });
    assert!(proved.done);
    assert!(proved.offered.proven.mover_wins);
    assert_eq!(proved.offered.proven.plies, 5);
    assert_eq!(proved.offered.pv.len(), 5);
    assert_eq!(proved.offered.pv[0], 1);
    assert!(proved.settles);
    assert!(proved.nodes > 0);
}

#[test]
fn the_main_thread_plays_the_proof_a_helper_offers() {
    let game = Subtraction { again_after_three: false };
    let table = TranspositionTable::new(1);
    let game_history = HashMap::new();
    let signals = Signals::default();
    // As if the proving helper had found a win in two own moves taking
    // 3 (not the best move: 201 stones are won by taking 1).
    let proven = Proven { mover_wins: true, plies: 3, best_move: Some(3) };
    let shared = Shared::new(&signals, true, None);
    *shared.helper_proof.lock().unwrap() = Some(HelperProof { proven, pv: vec![3, 1, 1] });
    shared.proof_settles.store(true, Ordering::Relaxed);
    // Another helper searching ahead leaves the proof to the main thread.
    let mut other_history = vec![0; HISTORY_SIZE];
    let mut other = Worker::new(&game, &table, &mut other_history, &game_history, &shared);
    other.ahead = 1;
    other.search_ahead(&Pile { stones: 201, mover: 0 }, 8);
    assert!(shared.helper_proof.lock().unwrap().is_some(), "another helper took the proof");
    let mut reported = Vec::new();
    let result = iterate_main(&game, &table, &shared, &Pile { stones: 201, mover: 0 }, true, |progress| {
        if let Progress::Line(line) = progress {
            reported.push((line.score, line.pv.clone()));
        }
    });
    assert_eq!((result.best_move, result.score), (Some(3), Score::Mate(2)));
    assert!(result.depth < 60, "stopped at depth {}", result.depth);
    assert_eq!(reported.last(), Some(&(Score::Mate(2), vec![3, 1, 1])));
}

#[test]
fn helper_threads_that_cannot_start_leave_the_search_to_those_that_did() {
    let game = Subtraction { again_after_three: false };
    let mut searcher = Searcher::new(1);
    searcher.set_threads(4);
    for started in [0, 1] {
        searcher.spawn_limit = Some(started);
        let limits = Limits { depth: Some(30), ..Limits::default() };
        let result =
            searcher.search(&game, &Pile { stones: 21, mover: 0 }, &[], &limits, &[], &Signals::default(), |_| {});
        assert_eq!((result.best_move, result.score), (Some(1), Score::Mate(6)), "{started} helpers started");
    }
}

#[test]
fn scores_stay_right_when_the_same_player_moves_twice() {
    // With another turn after taking 3, piles of a multiple of 3 are lost
    // for the mover: taking 1 or 2 leaves the opponent a pile it wins
    // (by induction), and taking 3 leaves the mover itself a lost pile.
    // Any other pile is won by taking `pile % 3`.
    let game = Subtraction { again_after_three: true };
    for threads in [1, 2] {
        for pile in 1..=20u8 {
            let result = solve(&game, pile, 1, threads);
            let Score::Mate(moves) = result.score else { panic!("pile {pile}: no proof, {:?}", result.score) };
            if pile % 3 == 0 {
                assert!(moves < 0, "pile {pile}, {threads} threads: {moves}");
            } else {
                assert!(moves > 0, "pile {pile}, {threads} threads: {moves}");
                let best = result.best_move.expect("a move");
                let after = game.play(&Pile { stones: pile, mover: 1 }, best);
                let mover_wins_after = !after.stones.is_multiple_of(3);
                assert_eq!(mover_wins_after, after.mover == 1, "pile {pile}: {best} is not a winning move");
            }
        }
    }
    // From 4 the quickest win takes 3 and then, moving again, the last
    // stone: two plies, both the winner's own moves. (Taking 1 instead
    // lets the loser stretch the game to three plies.)
    let result = solve(&game, 4, 0, 1);
    assert_eq!((result.best_move, result.score), (Some(3), Score::Mate(2)));
}

impl Tree {
    fn search(&self, style: MultiplayerSearch, depth: u32) -> (SearchResult<usize>, Vec<&'static str>) {
        self.search_after(style, depth, &[])
    }

    /// A search of the root after a game that went through `before` (by name).
    fn search_after(
        &self,
        style: MultiplayerSearch,
        depth: u32,
        before: &[&str],
    ) -> (SearchResult<usize>, Vec<&'static str>) {
        let history: Vec<u64> = before.iter().map(|name| self.hash(&self.node(name))).collect();
        let mut searcher = Searcher::new(1);
        searcher.set_multiplayer(style);
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let mut pv = Vec::new();
        let result = searcher.search(self, &0, &history, &limits, &[], &Signals::default(), |progress| {
            if let Progress::Line(report) = progress {
                pv = report.pv.iter().map(|&node| self.nodes[node].name).collect()
            }
        });
        (result, pv)
    }
}

/// The end of an inner node: none, as the game goes on there.
const ON: Option<usize> = None;
/// A drawn end.
const DRAW: Option<usize> = None;
const NO_SCORES: [i32; 3] = [0; 3];

#[test]
fn a_proved_loss_to_a_coalition_is_offered_but_leaves_the_prover_searching() {
    // A's only move lets B win: lost against B and C together, which
    // the main thread looks past, so the proving helper searches on.
    let tree = Tree::new(&[
        ("root", 0, &["only"], NO_SCORES, ON),
        ("only", 1, &["b-wins"], NO_SCORES, ON),
        ("b-wins", 2, &[], NO_SCORES, Some(1)),
    ]);
    let proved = prove_alongside(&tree, &0);
    assert!(!proved.done);
    assert!(!proved.offered.proven.mover_wins);
    assert_eq!(proved.offered.pv, vec![1, 2]);
    assert!(!proved.settles);
}

#[test]
fn paranoid_and_maxn_choose_by_hand_worked_values() {
    // A moves to x or y, then B picks one of two continuations, scored
    // (A, B, C) at the horizon (each goes on to a drawn end beyond it).
    // Max-n: after x, B takes x1 (its 4 beats 2), worth 3 to A; after y,
    // B takes y1 (5 beats 1), worth 2 to A; so A plays x, scoring 3.
    // Paranoid: B picks what is worst for A: x2 (1) after x, 2 after y;
    // so A plays y, scoring 2.
    let tree = Tree::new(&[
        ("root", 0, &["x", "y"], NO_SCORES, ON),
        ("x", 1, &["x1", "x2"], NO_SCORES, ON),
        ("y", 1, &["y1", "y2"], NO_SCORES, ON),
        ("x1", 2, &["end"], [3, 4, 1], ON),
        ("x2", 2, &["end"], [1, 2, 5], ON),
        ("y1", 2, &["end"], [2, 5, 0], ON),
        ("y2", 2, &["end"], [2, 1, 3], ON),
        ("end", 0, &[], NO_SCORES, DRAW),
    ]);
    let (maxn, maxn_pv) = tree.search(MultiplayerSearch::MaxN, 2);
    assert_eq!((maxn.score, maxn_pv), (Score::Centipawns(3), vec!["x", "x1"]));
    let (paranoid, paranoid_pv) = tree.search(MultiplayerSearch::Paranoid, 2);
    assert_eq!(paranoid.score, Score::Centipawns(2));
    assert_eq!(paranoid_pv.first(), Some(&"y"));
}

#[test]
fn a_forced_win_through_passes_and_double_moves_is_a_mate_in_own_moves() {
    // A plays "lose" and B wins at once, or "fight": then B chooses.
    // After "short", C can only pass and A wins on its next move (ply 4).
    // After "long", C is skipped: A moves twice in a row ("again",
    // "finish"), B can only pass, and A wins at ply 5. Either way A wins,
    // so the coalition (paranoid) and B itself (max-n: a later loss is
    // a smaller one) both delay it with "long": A wins after its own
    // three moves fight, again, finish. Paranoid finds a forced win and
    // reports it as mate 3; max-n reports the same line as a high score.
    let a_wins = Some(0);
    let tree = Tree::new(&[
        ("root", 0, &["lose", "fight"], NO_SCORES, ON),
        ("lose", 1, &["b-wins"], NO_SCORES, ON),
        ("b-wins", 2, &[], NO_SCORES, Some(1)),
        ("fight", 1, &["short", "long"], NO_SCORES, ON),
        ("short", 2, &["c-pass"], NO_SCORES, ON),
        ("c-pass", 0, &["a-wins"], NO_SCORES, ON),
        ("a-wins", 1, &[], NO_SCORES, a_wins),
        ("long", 0, &["again"], NO_SCORES, ON),
        ("again", 0, &["finish"], NO_SCORES, ON),
        ("finish", 1, &["b-pass"], NO_SCORES, ON),
        ("b-pass", 2, &[], NO_SCORES, a_wins),
    ]);
    let long_line = vec!["fight", "long", "again", "finish", "b-pass"];
    let (paranoid, paranoid_pv) = tree.search(MultiplayerSearch::Paranoid, 10);
    assert_eq!((paranoid.score, paranoid_pv), (Score::Mate(3), long_line.clone()));
    let (maxn, maxn_pv) = tree.search(MultiplayerSearch::MaxN, 10);
    assert_eq!((maxn.score, maxn_pv), (Score::Centipawns(MAXN_WIN - 5), long_line));
    // Max-n stops deepening once no line reaches the horizon.
    assert_eq!(maxn.depth, 5);
}

#[test]
fn late_move_pruning_does_not_give_up_a_node_whose_first_moves_all_lose() {
    // Two players. A's "safe" is worth 0; "x" is worth 50: B can only
    // answer "trap", where A's first nine moves (in the order the
    // search tries them) lose at once and only the tenth, "escape",
    // holds, worth 50 to A. At depth 3 "x" is searched with a null
    // window, and so is "trap", one ply from the leaves, where late
    // move pruning keeps nine moves and a fail-high is not searched
    // again. Were it to prune after nine lost moves, A would seem lost
    // after "trap", and "x" refuted.
    let b_wins = Some(1);
    let mut nodes: Vec<NodeSpec> = vec![
        ("root", 0, &["safe", "x"], NO_SCORES, ON),
        ("safe", 1, &["calm"], NO_SCORES, ON),
        ("calm", 0, &["end"], NO_SCORES, ON),
        ("end", 0, &[], NO_SCORES, DRAW),
        ("x", 1, &["trap"], NO_SCORES, ON),
        ("trap", 0, &["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "escape"], NO_SCORES, ON),
        ("escape", 1, &["end"], [50, -50, 0], ON),
    ];
    for name in ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9"] {
        nodes.push((name, 1, &[], NO_SCORES, b_wins));
    }
    let mut tree = Tree::new(&nodes);
    tree.players = 2;
    let (result, pv) = tree.search(MultiplayerSearch::Paranoid, 3);
    assert_eq!((result.score, pv), (Score::Centipawns(50), vec!["x", "trap", "escape"]));
}

#[test]
fn a_position_seen_once_before_the_root_is_not_yet_a_draw_but_seen_twice_it_is() {
    // A can go to "x", from where B must let A win, or take "y", worth
    // 10. If the game has been at "x" once, going there again is its
    // second occurrence: no draw, A wins. Twice before: the third is a
    // draw, and "y" is better.
    let mut tree = Tree::new(&[
        ("root", 0, &["x", "y"], NO_SCORES, ON),
        ("x", 1, &["a-wins"], NO_SCORES, ON),
        ("a-wins", 2, &[], NO_SCORES, Some(0)),
        ("y", 1, &["calm"], NO_SCORES, ON),
        ("calm", 2, &["end"], [10, 0, 0], ON),
        ("end", 0, &[], NO_SCORES, DRAW),
    ]);
    tree.repetitions = true;
    // Best-Reply Search takes the others' turns as one layer: at depth 2 it
    // sees "end", a draw, after "calm". (MCTS hands a game with
    // repetitions to paranoid search.)
    for style in [MultiplayerSearch::Paranoid, MultiplayerSearch::MaxN, MultiplayerSearch::Mcts] {
        let (result, _) = tree.search_after(style, 2, &["x", "root"]);
        assert_eq!(result.best_move, Some(1), "{style}: once before");
        let (result, pv) = tree.search_after(style, 2, &["x", "root", "x", "root"]);
        assert_eq!((result.best_move, pv), (Some(3), vec!["y", "calm"]), "{style}: twice before");
    }
}

#[test]
fn a_position_the_game_decides_is_a_finished_game_to_the_searches() {
    // Both of A's moves end in B's win, but the game's bounds decide
    // "race" for A before its end: paranoid alpha-beta and MCTS take that
    // as A's win and play "race", paranoid reporting a mate and MCTS a
    // proved win (a share of 1: 667 above an even third); without the
    // verdict both moves lose (MCTS: a share of 0).
    let mut tree = Tree::new(&[
        ("root", 0, &["stall", "race"], NO_SCORES, ON),
        ("stall", 1, &["b-wins"], NO_SCORES, ON),
        ("b-wins", 2, &[], NO_SCORES, Some(1)),
        ("race", 1, &["race-b"], NO_SCORES, ON),
        ("race-b", 2, &["race-c"], NO_SCORES, ON),
        ("race-c", 0, &["b-wins-late"], NO_SCORES, ON),
        ("b-wins-late", 1, &[], NO_SCORES, Some(1)),
    ]);
    let (paranoid, _) = tree.search(MultiplayerSearch::Paranoid, 6);
    assert!(matches!(paranoid.score, Score::Mate(moves) if moves < 0), "{:?}", paranoid.score);
    let (mcts, _) = tree.search(MultiplayerSearch::Mcts, 6);
    assert_eq!(mcts.score, Score::Centipawns(-333));
    tree.decide("race", 0);
    let (paranoid, pv) = tree.search(MultiplayerSearch::Paranoid, 6);
    assert_eq!(pv.first(), Some(&"race"));
    assert!(matches!(paranoid.score, Score::Mate(moves) if moves > 0), "{:?}", paranoid.score);
    let (mcts, pv) = tree.search(MultiplayerSearch::Mcts, 6);
    assert_eq!((mcts.score, pv.first()), (Score::Centipawns(667), Some(&"race")));
}

#[test]
fn paranoid_sees_a_coalition_where_maxn_trusts_self_interest() {
    // After A's "hope", B can let A win later (ply 4) or hand the game
    // to C (ply 3). B loses either way: under max-n it prefers the later
    // loss, so A expects a win; a coalition hands the game to C, so
    // paranoid A sees a loss, and plays "hope" anyway (the other move
    // loses at once), reporting mate -1: A's one move, then the end.
    let tree = Tree::new(&[
        ("root", 0, &["resign", "hope"], NO_SCORES, ON),
        ("resign", 1, &[], NO_SCORES, Some(1)),
        ("hope", 1, &["spare", "betray"], NO_SCORES, ON),
        ("spare", 2, &["pass"], NO_SCORES, ON),
        ("pass", 0, &["a-wins"], NO_SCORES, ON),
        ("a-wins", 1, &[], NO_SCORES, Some(0)),
        ("betray", 2, &["c-wins"], NO_SCORES, ON),
        ("c-wins", 0, &[], NO_SCORES, Some(2)),
    ]);
    let (paranoid, paranoid_pv) = tree.search(MultiplayerSearch::Paranoid, 10);
    assert_eq!((paranoid.score, paranoid_pv), (Score::Mate(-1), vec!["hope", "betray", "c-wins"]));
    let (maxn, maxn_pv) = tree.search(MultiplayerSearch::MaxN, 10);
    assert_eq!((maxn.score, maxn_pv), (Score::Centipawns(MAXN_WIN - 4), vec!["hope", "spare", "pass", "a-wins"]));
}

#[test]
fn mcts_proves_no_loss_that_rests_on_a_loser_s_choice() {
    // After A's "hope", B loses whatever it does, but chooses who wins:
    // A ("spare") or C ("betray"). "resign" loses at once. A loss of A
    // after "hope" rests on B's choice, so MCTS proves nothing there and
    // B's simulations share the game out: "hope" wins about half of them,
    // above an even third, and the search runs all its simulations.
    let tree = Tree::new(&[
        ("root", 0, &["resign", "hope"], NO_SCORES, ON),
        ("resign", 1, &[], NO_SCORES, Some(1)),
        ("hope", 1, &["spare", "betray"], NO_SCORES, ON),
        ("spare", 2, &["a-wins"], NO_SCORES, ON),
        ("a-wins", 0, &[], NO_SCORES, Some(0)),
        ("betray", 2, &["c-wins"], NO_SCORES, ON),
        ("c-wins", 0, &[], NO_SCORES, Some(2)),
    ]);
    let (result, pv) = tree.search(MultiplayerSearch::Mcts, 2);
    assert_eq!(pv.first(), Some(&"hope"));
    let Score::Centipawns(share) = result.score else { panic!("not proved: {:?}", result.score) };
    assert!((100..=230).contains(&share), "about half of the wins, above a third (0): {share}");
    assert_eq!(result.nodes, 2 * 1000);
}

#[test]
fn mcts_proved_lost_plays_on_for_the_others_mistakes() {
    // B wins after each of A's moves, if B finds its win: after "narrow"
    // one of B's ten moves wins, after "wide" five of six. The solver
    // proves A lost at once; the search then plays on, B no longer
    // trusted to find its wins, and picks "narrow", where B's misses are
    // most likely, with all its simulations and a share above nothing.
    let ends: Vec<String> = (0..16).map(|n| format!("end-{n}")).collect();
    let ends: Vec<&'static str> = ends.into_iter().map(|name| &*name.leak()).collect();
    let mut nodes: Vec<NodeSpec> = vec![
        ("root", 0, &["wide", "narrow"], NO_SCORES, ON),
        ("narrow", 1, &ends[..10], NO_SCORES, ON),
        ("wide", 1, &ends[10..], NO_SCORES, ON),
    ];
    for (n, &name) in ends.iter().enumerate() {
        let b_wins = n == 0 || n >= 11;
        nodes.push((name, 2, &[], NO_SCORES, Some(if b_wins { 1 } else { 0 })));
    }
    let tree = Tree::new(&nodes);
    let (result, pv) = tree.search(MultiplayerSearch::Mcts, 2);
    assert_eq!(pv.first(), Some(&"narrow"));
    assert_eq!(result.nodes, 2 * 1000);
    let Score::Centipawns(share) = result.score else { panic!("not a share: {:?}", result.score) };
    assert!(share > -333, "some of B's misses counted: {share}");
    // Where every move of B wins, nothing is left to hope for: the proof
    // stands and ends the search.
    let tree = Tree::new(&[
        ("root", 0, &["wide", "narrow"], NO_SCORES, ON),
        ("narrow", 1, &["b-wins"], NO_SCORES, ON),
        ("wide", 1, &["b-wins"], NO_SCORES, ON),
        ("b-wins", 2, &[], NO_SCORES, Some(1)),
    ]);
    let (result, _) = tree.search(MultiplayerSearch::Mcts, 2);
    assert_eq!(result.score, Score::Centipawns(-333));
    assert!(result.nodes < 100, "{}", result.nodes);
}

#[test]
fn mcts_eval_ends_its_playouts_with_the_game_s_shares() {
    // Each of A's moves leads into a cycle that never ends (random
    // playouts to the end would never return, and nothing is proved); the
    // evaluation gives A 60% in the cycle after "good" and 10% after
    // "poor". mcts-eval ends each playout at once with the shares, plays
    // "good", and reports its share, about 60%: 600 - 333 in tenths of a
    // percent above an even third.
    let tree = Tree::new(&[
        ("root", 0, &["poor", "good"], NO_SCORES, ON),
        ("poor", 1, &["poor-b"], [10, 45, 45], ON),
        ("poor-b", 2, &["poor-c"], [10, 45, 45], ON),
        ("poor-c", 0, &["poor"], [10, 45, 45], ON),
        ("good", 1, &["good-b"], [60, 20, 20], ON),
        ("good-b", 2, &["good-c"], [60, 20, 20], ON),
        ("good-c", 0, &["good"], [60, 20, 20], ON),
    ]);
    let (result, pv) = tree.search(MultiplayerSearch::MctsEval, 2);
    assert_eq!(pv.first(), Some(&"good"));
    let Score::Centipawns(share) = result.score else { panic!("not a share: {:?}", result.score) };
    assert!((240..=280).contains(&share), "about 60% of the wins: {share}");
    assert_eq!(result.nodes, 2 * 1000);
}

#[test]
fn best_reply_search_weighs_one_opponent_s_reply_where_paranoid_weighs_both() {
    // After A's "bold", B or C alone can bring A down to 10, both together
    // to -50; "careful" keeps 5 whatever they do. Paranoid search (A, B, C:
    // depth 3) expects both to strike and plays "careful"; Best-Reply
    // Search (A, then the others as one layer: depth 2) lets one of them
    // reply while the other plays its first move, sees 10 and plays "bold".
    let tree = Tree::new(&[
        ("root", 0, &["careful", "bold"], NO_SCORES, ON),
        ("careful", 1, &["b1"], NO_SCORES, ON),
        ("b1", 2, &["c1"], NO_SCORES, ON),
        ("c1", 0, &["end"], [5, 0, 0], ON),
        ("bold", 1, &["b-quiet", "b-attack"], NO_SCORES, ON),
        ("b-quiet", 2, &["c-quiet", "c-attack"], NO_SCORES, ON),
        ("b-attack", 2, &["c-quiet2", "c-attack2"], NO_SCORES, ON),
        ("c-quiet", 0, &["end"], [20, 0, 0], ON),
        ("c-attack", 0, &["end"], [10, 0, 0], ON),
        ("c-quiet2", 0, &["end"], [10, 0, 0], ON),
        ("c-attack2", 0, &["end"], [-50, 0, 0], ON),
        ("end", 1, &[], NO_SCORES, DRAW),
    ]);
    let (paranoid, paranoid_pv) = tree.search(MultiplayerSearch::Paranoid, 3);
    assert_eq!((paranoid.score, paranoid_pv), (Score::Centipawns(5), vec!["careful", "b1", "c1"]));
    let (brs, brs_pv) = tree.search(MultiplayerSearch::Brs, 2);
    assert_eq!(brs.score, Score::Centipawns(10));
    assert_eq!(brs_pv.first(), Some(&"bold"));
}

#[test]
fn mate_scores_count_moves_of_the_side_to_move() {
    assert_eq!(Score::from_internal(MATE - 1, 2), Score::Mate(1));
    assert_eq!(Score::from_internal(MATE - 3, 2), Score::Mate(2));
    assert_eq!(Score::from_internal(-MATE + 2, 2), Score::Mate(-1));
    assert_eq!(Score::from_internal(-MATE + 4, 2), Score::Mate(-2));
    // A loss right after our own move: one move of ours, then the end.
    assert_eq!(Score::from_internal(-MATE + 1, 2), Score::Mate(-1));
    // Three players: a win 4 plies away comes on our second move.
    assert_eq!(Score::from_internal(MATE - 4, 3), Score::Mate(2));
    assert_eq!(Score::from_internal(57, 2), Score::Centipawns(57));
    assert_eq!(Score::Mate(-3).to_string(), "mate -3");
}

#[test]
fn tt_scores_round_trip_through_node_relative_form() {
    for score in [MATE - 5, -MATE + 7, 123, -45] {
        assert_eq!(score_from_tt(score_to_tt(score, 9), 9), score);
    }
    assert_eq!(score_from_tt(score_to_tt(MATE - 5, 2), 4), MATE - 7);
}

#[test]
fn mates_in_games_that_go_round_agree_with_retrograde_analysis() {
    // Random two-player games whose moves may lead back, repeated
    // positions drawn: a mate the search reports, from any position, with
    // one table kept from position to position as in a game, is a win
    // retrograde analysis finds for that side.
    let (mut mates, mut others) = (0, 0);
    for seed in 0..200 {
        let tree = crate::search::test_games::random_graph(seed, 24, 5);
        let winners = crate::search::test_games::forced_winners(&tree);
        let mut searcher = Searcher::new(1);
        for root in (0..tree.nodes.len()).filter(|&node| !tree.nodes[node].children.is_empty()) {
            let limits = Limits { depth: Some(16), ..Limits::default() };
            let result = searcher.search(&tree, &root, &[], &limits, &[], &Signals::default(), |_| {});
            let mover = tree.nodes[root].mover;
            match result.score {
                Score::Mate(moves) => {
                    let winner = if moves > 0 { mover } else { 1 - mover };
                    assert_eq!(winners[root], Some(winner), "seed {seed}, root {root}: {:?}", result.score);
                    mates += 1;
                }
                _ => others += 1,
            }
        }
    }
    // Most wins within reach are found as mates.
    assert!(mates > 2 * others, "{mates} mates, {others} other scores");
}
