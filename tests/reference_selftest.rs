//! Hand-checked facts about the reference rules implementation.
mod common;

use common::reference::RefRules;

const START: &str = "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0";

fn standard() -> RefRules {
    RefRules::new(None, None, false, false)
}

fn advanced() -> RefRules {
    RefRules::new(None, None, true, false)
}

#[test]
fn default_board_has_77_lines() {
    assert_eq!(standard().line_count(), 77);
    // The one-line form from the rules file is the same board.
    let one_line = r"o-o-o-o-o-o,|X|\|/|/|/|,o-o-o-o-o-o,|\|X|X|\|/|,o-o-o-o.o-o,|.|/|/|X|X.,o-o-o.o-o-o,|.|\./|.|\|,o.o-o.o-o-o,|.|.|.|/|.|,o-o-o-o-o-o";
    let r = RefRules::new(Some(one_line), None, false, false);
    assert_eq!(r.line_count(), 77);
    for rot in [0, 90, 180, 270] {
        for a in 0..36 {
            for b in 0..36 {
                let (pa, pb) = (name(a), name(b));
                assert_eq!(r.connected(rot, &pa, &pb), standard().connected(rot, &pa, &pb));
            }
        }
    }
}

fn name(p: usize) -> String {
    format!("{}{}", (b'a' + (p % 6) as u8) as char, p / 6 + 1)
}

#[test]
fn picture_details() {
    let r = standard();
    assert!(!r.connected(0, "f4", "f3"), "row 6 ends with a blank");
    assert!(!r.connected(0, "a2", "b2"));
    assert!(!r.connected(0, "c3", "c2"));
    assert!(r.connected(0, "a6", "b5") && r.connected(0, "b6", "a5"), "X at the top left");
    assert!(r.connected(0, "b6", "c5"), "\\ between b6 and c5");
    assert!(!r.connected(0, "c6", "b5"));
    assert!(r.connected(0, "d6", "c5"), "/ between d6 and c5");
    assert!(r.connected(0, "e2", "d1"), "the only diagonal of the bottom row");
    assert!(!r.connected(0, "a1", "b2"));
}

#[test]
fn rotation_90() {
    let r = standard();
    assert!(r.connected(0, "a6", "b6"));
    assert!(r.connected(90, "f6", "f5"));
    // f4-f3 missing at rotation 0; (5,3)-(5,2) -> (3,0)-(2,0): d1-c1 missing at 90.
    assert!(!r.connected(90, "d1", "c1"));
    // a2-b2 missing: (0,1)-(1,1) -> (1,5)-(1,4): b6-b5 missing at 90.
    assert!(!r.connected(90, "b6", "b5"));
    // 180: a6-b6 -> f1-e1; 270: -> a1-a2.
    assert!(r.connected(180, "f1", "e1"));
    assert!(r.connected(270, "a1", "a2"));
    // 180 and 270 turn f4-f3 into a3-a4 and c6-d6.
    assert!(!r.connected(180, "a3", "a4"));
    assert!(!r.connected(270, "c6", "d6"));
}

#[test]
fn standard_start_only_bipods() {
    let moves = standard().legal_moves(START);
    assert!(moves.iter().all(|m| m.starts_with("A@") || m.starts_with("B@")));
    // A (W:s E:s) needs a horizontal line: only a2 has none. B needs a vertical one: all do.
    assert_eq!(moves.iter().filter(|m| m.starts_with("A@")).count(), 35);
    assert_eq!(moves.iter().filter(|m| m.starts_with("B@")).count(), 36);
    assert!(!moves.contains(&"A@a2".to_string()));
    assert_eq!(standard().perft(START, 1), 71);
    // Advanced: no liberty needed, so A@a2 is allowed too; with the option it is not.
    assert_eq!(advanced().perft(START, 1), 72);
    assert_eq!(RefRules::new(None, None, true, true).perft(START, 1), 71);
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted);
}

#[test]
fn long_attack_passes_through_pods() {
    // White B (N:l S:s) on a1 attacks a2..a6 along the a-file, through black a on a3.
    let pos = "6/6/6/a5/6/B5 b ACDEFGHIJKLMNbcdefghijklmn 0 2";
    let moves = standard().legal_moves(pos);
    for p in ["a2", "a4", "a5", "a6"] {
        assert!(!moves.iter().any(|m| m.ends_with(&format!("@{p}"))), "{p} is attacked");
    }
    assert!(moves.contains(&"B@f6".to_string()));
    // Black's b is White's B turned round (S:l N:s): from a6 it attacks a5..a1.
    let pos = "b5/6/6/6/6/6 w ABCDEFGHIJKLMNacdefghijklmn 0 1";
    let moves = standard().legal_moves(pos);
    for p in ["a1", "a2", "a3", "a4", "a5"] {
        assert!(!moves.iter().any(|m| m.ends_with(&format!("@{p}"))), "{p} is attacked");
    }
    assert!(moves.contains(&"A@b1".to_string()));
    // A long attack stops at a missing line: white B on f1 attacks f2, f3 but not f4.
    let pos = "6/6/6/6/6/5B b ACDEFGHIJKLMNabcdefghijklmn 0 1";
    let moves = standard().legal_moves(pos);
    assert!(moves.contains(&"A@f4".to_string()));
    assert!(!moves.contains(&"A@f3".to_string()));
}

#[test]
fn placement_may_not_attack_opponent() {
    // Black a on a1; White A on b1 would attack it (and be attacked).
    let pos = "6/6/6/6/6/a5 w ABCDEFGHIJKLMNbcdefghijklmn 0 1";
    let moves = standard().legal_moves(pos);
    assert!(!moves.contains(&"A@b1".to_string()));
    // White A on c1 does not touch a1, and nothing attacks c1.
    assert!(moves.contains(&"A@c1".to_string()));
    // White I (N E S W short) on b2 is not joined to a2 or a1: fine.
    assert!(moves.contains(&"I@b2".to_string()));
}

#[test]
fn standard_play_and_canonical_form() {
    let r = standard();
    let p1 = r.play(START, "A@c3");
    assert_eq!(p1, "6/6/6/2A3/6/6 b BCDEFGHIJKLMNabcdefghijklmn 0 1");
    let p2 = r.play(&p1, "m@f6");
    assert_eq!(p2, "5m/6/6/2A3/6/6 w BCDEFGHIJKLMNabcdefghijkln 0 2");
    // Empty hand for the side to move: no moves in the standard game.
    let pos = "6/6/6/6/6/A5 b B 0 1";
    assert!(r.legal_moves(pos).is_empty());
    // Rotation field is kept.
    let p = r.play("6/6/6/6/6/6 w ABab 90 0", "A@a1");
    assert_eq!(p, "6/6/6/6/6/A5 b Bab 90 1");
}

#[test]
#[should_panic]
fn illegal_move_panics() {
    standard().play(START, "C@c3");
}

#[test]
fn advanced_removal() {
    let r = advanced();
    // A blocked-at-once placement goes straight back to the hand.
    assert_eq!(r.play(START, "A@a2"), "6/6/6/6/6/6 b ABCDEFGHIJKLMNabcdefghijklmn 0 1");
    // No pod may move on White's first move.
    let pos = "6/6/6/6/1B4/6 w ACDEFGHIJKLMNabcdefghijklmn 0 0";
    assert!(r.legal_moves(pos).iter().all(|m| m.contains('@')));
    // Mover's blocked pod returns to hand: B b2->b1 blocks White's A on a1.
    let pos = "6/6/6/6/1B4/A5 w CDEFGHIJKLMNabcdefghijklmn 0 10";
    assert_eq!(r.play(pos, "b2b1"), "6/6/6/6/6/1B4 b ACDEFGHIJKLMNabcdefghijklmn 0 11");
    // Opponent's blocked pod leaves the game.
    let pos = "6/6/6/6/1B4/a5 w ACDEFGHIJKLMNbcdefghijklmn 0 10";
    assert_eq!(r.play(pos, "b2b1"), "6/6/6/6/6/1B4 b ACDEFGHIJKLMNbcdefghijklmn 0 11");
    // Long leg moves: B (N:l) on b1 slides up the b-file while empty; S:s is off the board.
    let pos = "6/1a4/6/6/6/1B4 w ACDEFGHIJKLMNbcdefghijklmn 0 10";
    let shifts: Vec<String> = r.legal_moves(pos).into_iter().filter(|m| !m.contains('@')).collect();
    assert_eq!(shifts, vec!["b1b2", "b1b3", "b1b4"]);
    // Mover wins by emptying the hand: no moves afterwards.
    let pos = "6/6/6/6/6/6 w Ab 0 5";
    let after = r.play(pos, "A@a1");
    assert_eq!(after, "6/6/6/6/6/A5 b b 0 6");
    assert!(r.legal_moves(&after).is_empty());
}

/// perft through the public string API agrees with the internal recursion.
fn perft_by_strings(r: &RefRules, pos: &str, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    r.legal_moves(pos).iter().map(|m| perft_by_strings(r, &r.play(pos, m), depth - 1)).sum()
}

#[test]
fn perft_matches_string_api() {
    for adv in [false, true] {
        let r = RefRules::new(None, None, adv, false);
        // Walk a few plies along a middle legal move, comparing on the way.
        let mut pos = START.replace(" 0 0", " 270 0");
        for ply in 0..10 {
            let depth = if ply % 5 == 4 { 2 } else { 1 };
            assert_eq!(r.perft(&pos, depth), perft_by_strings(&r, &pos, depth), "{pos}");
            let moves = r.legal_moves(&pos);
            pos = r.play(&pos, &moves[moves.len() / 2]);
        }
    }
}
