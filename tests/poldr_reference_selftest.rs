//! Hand-derived self-tests of the slow POLD.R reference in
//! `tests/common/poldr_reference.rs`. Every expected value was worked out by
//! hand from the rules (docs/poldr-rules.md), with the reasoning in comments,
//! not copied from a program's output.

mod common;

use common::poldr_reference::RefPos;

fn pos(line: &str) -> RefPos {
    match RefPos::parse(line) {
        Ok(p) => p,
        Err(e) => panic!("expected valid: {} ({})", line, e),
    }
}

fn moves(line: &str) -> Vec<String> {
    pos(line).legal_moves()
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn rejected(line: &str) {
    assert!(RefPos::parse(line).is_err(), "expected invalid: {}", line);
}

// ---------------------------------------------------------------- start lines

#[test]
fn start_lines() {
    assert_eq!(RefPos::start(5, 2, 16).to_line(), "5/5/5/5/5 b 16,16 1 0 -,-");
    assert_eq!(RefPos::start(5, 3, 16).to_line(), "5/5/5/5/5 b 16,16,16 1 0 -,-,-");
    assert_eq!(RefPos::start(4, 2, 3).to_line(), "4/4/4/4 b 3,3 1 0 -,-");
    assert_eq!(RefPos::start(9, 2, 40).to_line(), "9/9/9/9/9/9/9/9/9 b 40,40 1 0 -,-");
    let p = RefPos::start(6, 3, 7);
    assert_eq!(p.size(), 6);
    assert_eq!(p.players(), 3);
    assert_eq!(p.side_to_move(), 0);
    assert_eq!(p.reserve(2), 7);
    assert_eq!(RefPos::parse("5/5/5/5/5 b 16,16 1 0 -,-").unwrap(), RefPos::start(5, 2, 16));
}

// ---------------------------------------------------------------- perft(1), perft(2)

// perft(1) from the start = number of ordered (pawn, marker) pairs of aligned
// cells whose interval (all empty) holds at most `bricks` cells.
// On a line of L cells, pairs at distance d: L - d. Unordered pairs at distance
// >= 2: (L-1)(L-2)/2.
//
// 4x4: rows 4 lines of L=4 -> 4*3 = 12, files 12, each diagonal direction has
//   lines of length 3,4,3 (plus shorter ones with no pair) -> 1+3+1 = 5, two
//   directions 10. Total 34 unordered, 68 ordered (max interval is 2 cells,
//   so any bricks >= 2 gives 68).
//   bricks = 1: only distance 2: rows 4*2=8, files 8, diagonals per direction
//   1+2+1 = 4, both 8 -> 24 unordered, 48 ordered.
// 5x5: rows 5*6 = 30, files 30, diagonal direction: lengths 3,4,5,4,3 ->
//   1+3+6+3+1 = 14, both 28. Total 88 unordered, 176 ordered (bricks >= 3).
//   bricks = 1: distance 2: rows 5*3 = 15, files 15, diag per dir 1+2+3+2+1 = 9,
//   both 18 -> 48, ordered 96.
//   bricks = 2: plus distance 3: rows 5*2=10, files 10, diag per dir 1+2+1=4,
//   both 8 -> 28 more unordered -> 76, ordered 152.
// Three players: the first turn is the same, so the same numbers.
#[test]
fn perft1_of_starts() {
    assert_eq!(RefPos::start(4, 2, 1).perft(1), 48);
    assert_eq!(RefPos::start(4, 2, 2).perft(1), 68);
    assert_eq!(RefPos::start(4, 2, 16).perft(1), 68);
    assert_eq!(RefPos::start(5, 2, 1).perft(1), 96);
    assert_eq!(RefPos::start(5, 2, 2).perft(1), 152);
    assert_eq!(RefPos::start(5, 2, 3).perft(1), 176);
    assert_eq!(pos("5/5/5/5/5 b 16,16 1 0 -,-").perft(1), 176);
    assert_eq!(pos("5/5/5/5/5 b 16,16,16 1 0 -,-,-").perft(1), 176);
    assert_eq!(pos("4/4/4/4 b 3,3 1 0 -,-").perft(1), 68);
    assert_eq!(pos("4/4/4/4 b 3,3 1 0 -,-").perft(0), 1);
}

// 4x4 perft(2). Let A(p) be the number of cells aligned with p:
//   corner (a1): c1,d1,a3,a4,c3,d4 -> 6; edge (b1): d1,b3,b4,d3 -> 4;
//   inner (b2): d2,b4,d4 -> 3. (4*6 + 8*4 + 4*3 = 68, as above.)
// After Blue's first turn with pawn p and marker m, Yellow puts its marker on
// an empty cell q aligned with p whose interval holds an empty cell. The brick
// cells are next to p or at distance 2 in m's direction, so:
// * m at distance 2 (one brick, next to p, never aligned): q ranges over the
//   A(p) cells except m, and except the cell at distance 3 beyond m when it
//   exists (its interval = brick + marker, no empty cell). Replies A(p)-1-ext.
//   corner: 3 such m, each ext=1 -> 3*(6-2) = 12; 4 corners -> 48.
//   edge b1: d1 (ext 0) 3, b3 (ext 1, b4) 2, d3 (ext 0) 3 -> 8; 8 edges -> 64.
//   inner b2: d2, b4, d4, all ext 0 -> 3*2 = 6; 4 inner -> 24. Sum 136.
// * m at distance 3 (two bricks, the second one aligned with p): replies
//   A(p) - 2. corner: 3 such m * 4 = 12 per corner -> 48; edge: one such m,
//   4-2 = 2 -> 16. Sum 64. With bricks = 2 these first turns empty Blue's
//   reserve: Blue wins at once, no reply.
// So perft(2) = 136 with 2 bricks, 136 + 64 = 200 with 3 or more; with 1 brick
// every first turn wins at once, perft(2) = 0.
// Three players: the second turn is Yellow's first turn too, same count.
#[test]
fn perft2_of_4x4_starts() {
    assert_eq!(RefPos::start(4, 2, 1).perft(2), 0);
    assert_eq!(RefPos::start(4, 2, 2).perft(2), 136);
    assert_eq!(RefPos::start(4, 2, 3).perft(2), 200);
    assert_eq!(RefPos::start(4, 2, 16).perft(2), 200);
    assert_eq!(RefPos::start(4, 3, 16).perft(2), 200);
    let d = RefPos::start(4, 2, 3).divide(2);
    assert_eq!(d.len(), 68);
    // Pa1Mc1: corner, distance 2 -> 4 replies (a3, a4, c3, d4).
    assert!(d.contains(&("Pa1Mc1".to_string(), 4)));
    // Pa1Md1: corner, distance 3 -> 4 replies (a3, a4, c3, d4).
    assert!(d.contains(&("Pa1Md1".to_string(), 4)));
    // Pb1Mb3: edge, up, ext -> 2 replies (d1, d3).
    assert!(d.contains(&("Pb1Mb3".to_string(), 2)));
    // Pb2Md4: inner -> 2 replies (d2, b4).
    assert!(d.contains(&("Pb2Md4".to_string(), 2)));
    let total: u64 = d.iter().map(|(_, n)| n).sum();
    assert_eq!(total, 200);
}

// ---------------------------------------------------------------- phase 1

// First turn and a player's first turn; the changed field.
// 4x4, 3 bricks. Blue Pa1Mc1: interval b1 gets a blue brick, Blue 3 -> 2,
// changed of Blue = 1 (the ply after the turn).
// Yellow's first turn: a marker on an empty cell aligned with the pawn a1:
//   c1 occupied; d1: interval b1 (brick), c1 (marker) -> no empty cell: no;
//   a3: interval a2 (empty) yes; a4: a2, a3 (2 empties <= 3) yes;
//   c3: b2 yes; d4: b2, c3 yes. -> Ma3 Ma4 Mc3 Md4.
#[test]
fn first_turns() {
    let start = RefPos::start(4, 2, 3);
    let p1 = start.play("Pa1Mc1").unwrap();
    assert_eq!(p1.to_line(), "4/4/4/PbB1 y 2,3 1 1 1,-");
    assert_eq!(p1.legal_moves(), strs(&["Ma3", "Ma4", "Mc3", "Md4"]));
    // Yellow at ply 1 has no marker: only marker moves, never a pawn move.
    assert!(p1.play("Pc3").is_err());
    // Lowercase accepted.
    assert_eq!(start.play("pa1mc1").unwrap(), p1);
    assert_eq!(start.play("Pa1mc1").unwrap(), p1);
    // Marker first is not the notation; adjacent is not aligned.
    assert!(start.play("Mc1Pa1").is_err());
    assert!(start.play("Pa1Mb1").is_err());
    assert!(start.play("Pa1").is_err());
    assert!(start.play("pass").is_err());
    // Yellow plays Ma3: a2 filled, Yellow 3 -> 2, changed of Yellow = 2.
    let p2 = p1.play("Ma3").unwrap();
    assert_eq!(p2.to_line(), "4/Y3/y3/PbB1 b 2,2 1 2 1,2");
    // Yellow's first turn with only 1 brick: a4 and d4 need two -> Ma3 Mc3.
    assert_eq!(moves("4/4/4/PbB1 y 2,1 1 1 1,-"), strs(&["Ma3", "Mc3"]));
}

// A later phase-1 turn. Board (4x4):
//   4  .  .  .  .
//   3  Y  .  .  .
//   2  y  .  .  .
//   1  P  b  B  .
//      a  b  c  d
// Blue (reserve 2) moves the pawn (a1 becomes empty) or its marker (c1 empty).
// Pawn to c with c aligned with the marker c1: c3 (interval c2: 1 empty),
//   c4 (c2, c3: 2 empties); a1 itself is not "another" cell, d1/b2/d2 adjacent,
//   a3 occupied. -> Pc3 Pc4.
// Marker to c aligned with the pawn a1: d1 (b1 brick, c1 now EMPTY: 1 empty),
//   c3 (b2), d4 (b2, c3), a4 (a2 brick, a3 marker: no empty -> no),
//   c1 (where it was: not another cell). -> Mc3 Md1 Md4.
#[test]
fn later_phase1_turn() {
    let line = "4/Y3/y3/PbB1 b 2,2 1 2 1,2";
    assert_eq!(moves(line), strs(&["Mc3", "Md1", "Md4", "Pc3", "Pc4"]));
    // Md1 fills c1 (the cell the marker left): Blue 2 -> 1, changed 3.
    let after = pos(line).play("Md1").unwrap();
    assert_eq!(after.to_line(), "4/Y3/y3/PbbB y 1,2 1 3 3,2");
    // Pc4 fills c2, c3.
    // Pawn a1 -> c4 (a1 empty), interval c2, c3 filled: Blue 2 -> 0, Blue wins.
    let won = pos(line).play("pc4").unwrap();
    assert_eq!(won.to_line(), "2P1/Y1b1/y1b1/1bB1 y 0,2 1 3 3,2");
    assert_eq!(won.winner(), Some(0));
    // With reserve 1, the two-empty moves Pc4 and Md4 are illegal.
    assert_eq!(moves("4/Y3/y3/PbB1 b 1,2 1 2 1,2"), strs(&["Mc3", "Md1", "Pc3"]));
}

// Reserve 0 wins at once.
#[test]
fn reserve_zero_wins() {
    // Blue with reserve 1 plays Md1 (fills c1): reserve 0, Blue wins.
    let p = pos("4/Y3/y3/PbB1 b 1,2 1 2 1,2").play("Md1").unwrap();
    assert_eq!(p.to_line(), "4/Y3/y3/PbbB y 0,2 1 3 3,2");
    assert!(p.is_over());
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.winner(), Some(0));
    assert_eq!(p.perft(1), 0);
    // 4x4 with 1 brick: every first turn places exactly one brick -> Blue wins.
    let q = RefPos::start(4, 2, 1).play("Pa1Mc1").unwrap();
    assert_eq!(q.to_line(), "4/4/4/PbB1 y 0,1 1 1 1,-");
    assert_eq!(q.winner(), Some(0));
    // 2 bricks, a distance-3 first turn places 2: Blue wins.
    let r = RefPos::start(4, 2, 2).play("Pa1Md1").unwrap();
    assert_eq!(r.to_line(), "4/4/4/PbbB y 0,2 1 1 1,-");
    assert_eq!(r.winner(), Some(0));
    // Game in progress: no winner.
    assert_eq!(RefPos::start(5, 2, 16).winner(), None);
    assert!(!RefPos::start(5, 2, 16).is_over());
}

// ---------------------------------------------------------------- blockage, phase 2

// Blocked in phase 1, Yellow to move (reserve 14):
//   4  b  b  b  .
//   3  Y  b  b  B
//   2  y  b  b  b
//   1  P  y  b  .
// Empty: d4, d1. Pawn a1 -> d1 / d4: not aligned with Y a3. Marker a3 -> d1:
// interval b1, c1 (no empty); -> d4: b2, c3 (no empty). So no phase-1 turn:
// blockage, phase-2 moves. Clearing: Md1 has y at b1 -> yes; Md4: b2, c3 blue
// -> no. Legal: Md1 only. After it: b1 cleared, Yellow 14 -> 15, phase 2,
// ply 12, changed Yellow 12; a3 is empty.
#[test]
fn blockage_then_clearing() {
    let line = "bbb1/YbbB/ybbb/Pyb1 y 7,14 1 11 11,10";
    assert_eq!(moves(line), strs(&["Md1"]));
    let after = pos(line).play("Md1").unwrap();
    assert_eq!(after.to_line(), "bbb1/1bbB/ybbb/P1bY b 7,15 2 12 11,12");
    // Blue, phase 2, marker d3, pawn a1, empty d4, a3, b1:
    //   Pa3: a3-d3 interval b3, c3 blue -> yes. Pb1: b1-d3 interval c2 blue -> yes.
    //   Pd4: adjacent to d3. Md4: a1-d4 interval b2, c3 blue -> yes.
    //   Ma3: interval a2 yellow -> no. Mb1: adjacent to a1.
    assert_eq!(after.legal_moves(), strs(&["Md4", "Pa3", "Pb1"]));
    // Pa3 clears b3 and c3: Blue 7 -> 9, changed 13.
    let next = after.play("Pa3").unwrap();
    assert_eq!(next.to_line(), "bbb1/P2B/ybbb/2bY y 9,15 2 13 13,12");
    // A phase-1 move is not allowed in phase 2: Blue placing bricks is gone.
    assert!(after.play("pass").is_err());
}

// The pass: Yellow to move has no brick on the board (cannot clear), Blue can
// (Pa3 clears b3, c3) -> only `pass`. The pass changes nothing but the ply,
// the side, and the phase (written 2 even from a blocked phase-1 position).
//   4  b  b  b  .
//   3  .  b  b  B
//   2  b  b  b  b
//   1  P  .  b  Y
// In phase 1 Yellow is blocked too: pawn -> a3 (not aligned with d1), b1
// (interval c1 blue, no empty), d4 (d2, d3 no empty); marker -> a3 (a2 no
// empty), b1 (adjacent), d4 (b2, c3 no empty).
#[test]
fn pass_rule() {
    let p2 = "bbb1/1bbB/bbbb/P1bY y 6,16 2 13 11,12";
    assert_eq!(moves(p2), strs(&["pass"]));
    assert_eq!(pos(p2).play("pass").unwrap().to_line(), "bbb1/1bbB/bbbb/P1bY b 6,16 2 14 11,12");
    let p1 = "bbb1/1bbB/bbbb/P1bY y 6,16 1 13 11,12";
    assert_eq!(moves(p1), strs(&["pass"]));
    assert_eq!(pos(p1).play("pass").unwrap().to_line(), "bbb1/1bbB/bbbb/P1bY b 6,16 2 14 11,12");
    assert!(!pos(p1).is_over());
    assert_eq!(pos(p1).winner(), None);
    // Blue to move in the same board can clear, so no pass for Blue.
    // Pa3 (b3,c3), Pb1 (c2), Md4 (b2,c3); Pd4 adjacent, Ma3 (a2 blue!) yes too,
    // Mb1 adjacent. -> Ma3 Md4 Pa3 Pb1.
    let blue = pos("bbb1/1bbB/bbbb/P1bY b 6,16 2 14 11,12");
    assert_eq!(blue.legal_moves(), strs(&["Ma3", "Md4", "Pa3", "Pb1"]));
}

// Three players: Yellow to move, Blue and Yellow have no bricks, Red can clear.
//   4  r  r  r  B
//   3  .  r  r  R
//   2  r  r  r  r
//   1  P  .  r  Y
// Yellow: pass. Then Red (marker d3, pawn a1, empty a3, b1):
//   Pa3: b3, c3 red -> yes; Pb1: c2 red -> yes; Ma3: a2 red -> yes;
//   Mb1: adjacent to a1. -> Ma3 Pa3 Pb1.
#[test]
fn pass_three_players() {
    let line = "rrrB/1rrR/rrrr/P1rY y 16,16,5 2 13 10,11,12";
    assert_eq!(moves(line), strs(&["pass"]));
    let after = pos(line).play("pass").unwrap();
    assert_eq!(after.to_line(), "rrrB/1rrR/rrrr/P1rY r 16,16,5 2 14 10,11,12");
    assert_eq!(after.legal_moves(), strs(&["Ma3", "Pa3", "Pb1"]));
    // Blue to move there (ply 15 is Blue's: 15 mod 3 = 0) would pass as well.
    assert_eq!(moves("rrrB/1rrR/rrrr/P1rY b 16,16,5 2 15 10,11,12"), strs(&["pass"]));
}

// ---------------------------------------------------------------- the end, tie-break

#[test]
fn end_and_tie_break() {
    // No bricks on the board at all: nobody can clear, the game is over.
    // Tie 16-16: Blue's last change at 19 < Yellow's 20 -> Blue.
    let a = pos("4/4/4/P1BY b 16,16 2 20 19,20");
    assert!(a.is_over());
    assert!(a.legal_moves().is_empty());
    assert_eq!(a.winner(), Some(0));
    assert_eq!(a.perft(3), 0);
    // Yellow's last change earlier (14 < 17) -> Yellow.
    assert_eq!(pos("4/4/4/P1BY b 16,16 2 20 17,14").winner(), Some(1));
    // More bricks wins whatever the plies.
    assert_eq!(pos("4/4/4/P1BY b 15,16 2 20 19,20").winner(), Some(1));
    assert_eq!(pos("4/4/4/P1BY b 16,15 2 20 17,14").winner(), Some(0));
    // `-` counts as 0: Red never changed its reserve, ties at 16 -> Red.
    assert_eq!(pos("4/4/4/P1BY b 16,16,16 2 21 19,20,-").winner(), Some(2));
    // Two players at 0 (`-`): earlier seat. Yellow and Red tie at 16, Blue 15.
    assert_eq!(pos("4/4/4/P3 r 15,16,16 2 2 -,-,-").winner(), Some(1));
    // All `-`: Blue.
    assert_eq!(pos("4/4/4/P3 y 16,16,16 2 1 -,-,-").winner(), Some(0));
    // Blocked phase-1 position where nobody can clear: over, written phase 1.
    // Only b1 empty; every move to b1 is next to the pawn a1 or to the marker
    // it would pair with (c1 for Blue), or for Yellow's pawn move the interval
    // c1 holds Blue's marker (no yellow brick). -> over, 16 > 3: Yellow.
    let b = pos("bbbb/bbbb/bbbb/P1BY b 3,16 1 20 19,18");
    assert!(b.is_over());
    assert_eq!(b.winner(), Some(1));
}

// ---------------------------------------------------------------- notation

#[test]
fn canonical_lines_round_trip() {
    let lines = [
        "5/5/5/5/5 b 16,16 1 0 -,-",
        "5/5/5/5/5 b 16,16,16 1 0 -,-,-",
        "4/4/4/4 b 3,3 1 0 -,-",
        "6/6/6/6/6/6 b 1,40 1 0 -,-",
        "7/7/7/7/7/7/7 b 40,40,40 1 0 -,-,-",
        "8/8/8/8/8/8/8/8 b 5,6 1 0 -,-",
        "9/9/9/9/9/9/9/9/9 b 16,16 1 0 -,-",
        "4/4/4/PbB1 y 2,3 1 1 1,-",
        "4/Y3/y3/PbB1 b 2,2 1 2 1,2",
        "4/Y3/y3/PbbB y 0,2 1 3 3,2",
        "bbb1/YbbB/ybbb/Pyb1 y 7,14 1 11 11,10",
        "bbb1/1bbB/ybbb/P1bY b 7,15 2 12 11,12",
        "rrrB/1rrR/rrrr/P1rY y 16,16,5 2 13 10,11,12",
        "4/4/4/P1BY b 16,16,16 2 21 19,20,-",
        "4/4/4/P3 y 16,16,16 2 1 -,-,-",
        "4/4/4/PbB1 b 2,2 2 2 1,-",
        "5/2P2/5/5/5 b 16,16 2 4 -,-",
    ];
    for line in lines.iter() {
        assert_eq!(pos(line).to_line(), *line);
    }
    // Other spellings accepted, written canonically.
    assert_eq!(pos("1111/22/13/4 b 3,3 1 0 -,-").to_line(), "4/4/4/4 b 3,3 1 0 -,-");
    assert_eq!(pos("4/4/4/4 b 03,3 1 00 -,-").to_line(), "4/4/4/4 b 3,3 1 0 -,-");
}

#[test]
fn syntax_rejections() {
    rejected("");
    rejected("5/5/5/5/5 b 16,16 1 0");
    rejected("5/5/5/5/5 b 16,16 1 0 -,- x");
    rejected("5/5/5/5/5  b 16,16 1 0 -,-");
    rejected(" 5/5/5/5/5 b 16,16 1 0 -,-");
    rejected("5/5/5/5/5 b 16,16 1 0 -,- ");
    rejected("5/5/5/5/5 x 16,16 1 0 -,-");
    rejected("5/5/5/5/5 B 16,16 1 0 -,-");
    rejected("5/5/5/5/5 b 16 1 0 -");
    rejected("5/5/5/5/5 b 16,16,16,16 1 0 -,-,-,-");
    rejected("5/5/5/5/5 b 16,,16 1 0 -,-,-");
    rejected("5/5/5/5/5 b -1,16 1 0 -,-");
    rejected("5/5/5/5/5 b +1,16 1 0 -,-");
    rejected("5/5/5/5/5 b 16,16 3 0 -,-");
    rejected("5/5/5/5/5 b 16,16 0 0 -,-");
    rejected("5/5/5/5/5 b 16,16 1 x -,-");
    rejected("5/5/5/5/5 b 16,16 1 0 -,-,-");
    rejected("5/5/5/5/5 b 16,16 1 0 -");
    rejected("5/5/5/5/5 b 16,16 1 0 x,-");
    rejected("5/5/5/5/x4 b 16,16 1 0 -,-");
    rejected("5/5/5/5/05 b 16,16 1 0 -,-");
    rejected("5/5/5/5/ b 16,16 1 0 -,-");
    rejected("5/5/5/5/5/ b 16,16 1 0 -,-");
}

#[test]
fn validity_rejections() {
    // Base, valid: "4/Y3/y3/PbB1 b 2,2 1 2 1,2".
    pos("4/Y3/y3/PbB1 b 2,2 1 2 1,2");
    // Board: not square / wrong size / wrong rank length.
    rejected("5/5/5/5 b 16,16 1 0 -,-");
    rejected("3/3/3 b 16,16 1 0 -,-");
    rejected("9/9/9/9/9/9/9/9/9/9 b 16,16 1 0 -,-");
    rejected("5/5/5/5/4 b 16,16 1 0 -,-");
    rejected("5/5/5/5/6 b 16,16 1 0 -,-");
    rejected("4/Y3/y4/PbB1 b 2,2 1 2 1,2");
    rejected("4/Y3/y2/PbB1 b 2,2 1 2 1,2");
    // At most one pawn, one marker per player; no Red piece in a 2-player game.
    rejected("P3/Y3/y3/PbB1 b 2,2 1 2 1,2");
    rejected("B3/Y3/y3/PbB1 b 2,2 1 2 1,2");
    rejected("Y3/Y3/y3/PbB1 b 2,2 1 2 1,2");
    rejected("R3/Y3/y3/PbB1 b 2,2 1 2 1,2");
    rejected("r3/Y3/y3/PbB1 b 2,2 1 2 1,2");
    // Marker exactly when changed is a number; bricks imply the marker.
    rejected("4/Y3/y3/PbB1 b 2,2 1 2 1,-");
    rejected("4/4/4/PbB1 b 2,2 2 2 1,2");
    rejected("4/4/y3/PbB1 b 2,2 2 2 1,-");
    pos("4/4/4/PbB1 b 2,2 2 2 1,-"); // phase 2: Yellow may lack a marker
    // changed numbers from 1 to ply, right residue, distinct.
    rejected("4/Y3/y3/PbB1 b 2,2 1 2 3,2");
    rejected("4/Y3/y3/PbB1 b 2,2 1 2 1,0");
    rejected("4/Y3/y3/PbB1 b 2,2 1 4 1,3");
    rejected("4/Y3/y3/PbB1 b 2,2 1 4 2,4");
    pos("4/Y3/y3/PbB1 b 2,2 1 4 3,4");
    rejected("4/4/4/P1BY b 16,16,16 2 21 19,19,-");
    rejected("4/4/4/P1BY b 16,16,16 2 21 19,21,-");
    // Phase 1: a seat that has had a turn has its marker.
    rejected("4/4/4/PbB1 b 2,2 1 2 1,-");
    rejected("4/4/4/P3 y 16,16 1 1 -,-");
    pos("4/4/4/P3 y 16,16 2 1 -,-");
    // Reserves at most 40.
    rejected("4/Y3/y3/PbB1 b 41,2 1 2 1,2");
    pos("4/Y3/y3/PbB1 b 40,2 1 2 1,2");
    // Side to move = ply mod players.
    rejected("4/Y3/y3/PbB1 y 2,2 1 2 1,2");
    rejected("4/4/4/4 y 3,3 1 0 -,-");
    rejected("4/4/4/P1BY r 16,16 2 20 19,20");
    rejected("4/4/4/P1BY y 16,16,16 2 21 19,20,-");
    // Ply 0: empty board, phase 1, no changed; after: the pawn on the board.
    rejected("P3/4/4/4 b 3,3 1 0 -,-");
    rejected("4/4/4/4 b 3,3 2 0 -,-");
    rejected("4/4/4/4 y 3,3 2 1 -,-");
    rejected("4/4/4/1bB1 y 2,3 1 1 1,-");
    // Reserve 0 only in phase 1, for the player who moved last.
    pos("4/Y3/y3/PbbB y 0,2 1 3 3,2");
    rejected("4/Y3/y3/PbbB y 0,2 2 3 3,2");
    rejected("4/Y3/y3/PbB1 b 0,2 1 2 1,2");
    rejected("4/Y3/y3/PbbB y 0,0 1 3 3,2");
    rejected("4/4/4/4 b 0,3 1 0 -,-");
}

// ---------------------------------------------------------------- moves syntax

#[test]
fn move_syntax() {
    let p = pos("4/Y3/y3/PbB1 b 2,2 1 2 1,2");
    assert!(p.play("Md1").is_ok());
    assert!(p.play("md1").is_ok());
    assert!(p.play("MD1").is_err());
    assert!(p.play("Md1 ").is_err());
    assert!(p.play("Me1").is_err());
    assert!(p.play("Md5").is_err());
    assert!(p.play("Md0").is_err());
    assert!(p.play("Xd1").is_err());
    assert!(p.play("Pa1Md1").is_err());
    assert!(p.play("Ma4").is_err()); // no empty cell in the interval
    assert!(p.play("Mc1").is_err()); // not another cell
    assert!(p.play("").is_err());
}

// ---------------------------------------------------------------- solving

#[test]
fn solve_tiny_games() {
    // 1 brick: any first turn places one brick -> Blue wins at once.
    assert_eq!(RefPos::start(4, 2, 1).solve_winner(), 0);
    // 2 bricks: Pa1Md1 places two -> Blue wins at once.
    assert_eq!(RefPos::start(4, 2, 2).solve_winner(), 0);
    // 3 bricks: Blue plays Pa1Md1 (b1, c1 filled, reserve 1). Yellow (3 bricks,
    // at most 2 placed per turn) cannot win at once; its replies are Ma3, Ma4,
    // Mc3, Md4. Blue then plays a one-empty move with its last brick:
    //   after Ma3 or Ma4 (a2 yellow): Mc3 (interval b2 empty);
    //   after Mc3 or Md4 (b2 yellow): Ma3 (interval a2 empty).
    // So Blue wins.
    let s = RefPos::start(4, 2, 3);
    assert_eq!(s.solve_winner(), 0);
    let after = s.play("Pa1Md1").unwrap();
    assert_eq!(after.legal_moves(), strs(&["Ma3", "Ma4", "Mc3", "Md4"]));
    for (reply, win) in [("Ma3", "Mc3"), ("Ma4", "Mc3"), ("Mc3", "Ma3"), ("Md4", "Ma3")] {
        let q = after.play(reply).unwrap().play(win).unwrap();
        assert_eq!(q.winner(), Some(0), "{} {}", reply, win);
    }
    assert_eq!(after.solve_winner(), 0);
    // Side to move that can place all remaining bricks wins.
    assert_eq!(pos("4/Y3/y3/PbB1 b 2,2 1 2 1,2").solve_winner(), 0); // Pc4
    assert_eq!(pos("4/Y3/y3/PbB1 b 1,2 1 2 1,2").solve_winner(), 0); // Md1
    // Over positions: solve = winner.
    assert_eq!(pos("4/4/4/P1BY b 16,16 2 20 17,14").solve_winner(), 1);
    assert_eq!(pos("4/Y3/y3/PbbB y 0,2 1 3 3,2").solve_winner(), 0);
}

// Consistency: divide sums to perft; every listed move plays.
#[test]
fn divide_consistency() {
    let p = pos("4/Y3/y3/PbB1 b 2,2 1 2 1,2");
    let d = p.divide(2);
    let names: Vec<String> = d.iter().map(|(m, _)| m.clone()).collect();
    assert_eq!(names, p.legal_moves());
    assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), p.perft(2));
    for m in p.legal_moves() {
        let q = p.play(&m).unwrap();
        assert_eq!(RefPos::parse(&q.to_line()).unwrap(), q);
    }
}

// Every position reached in play is valid (section 5 says so for reachable
// ones: it is a property of the rules, not a hand count): random playouts with
// a fixed LCG, each position round-trips through parse/to_line, and every game
// ends with a winner.
#[test]
fn random_playouts_stay_valid() {
    let mut seed: u64 = 12345;
    for game in 0..300 {
        let size = 4 + (game % 3);
        let players = 2 + (game % 2);
        let bricks = [1u32, 3, 6, 16][game % 4];
        let mut p = RefPos::start(size, players, bricks);
        loop {
            let line = p.to_line();
            assert_eq!(RefPos::parse(&line).unwrap(), p, "{}", line);
            let ms = p.legal_moves();
            if ms.is_empty() {
                assert!(p.winner().is_some());
                break;
            }
            assert_eq!(p.winner(), None);
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let m = &ms[((seed >> 33) as usize) % ms.len()];
            p = p.play(m).unwrap();
        }
    }
}
