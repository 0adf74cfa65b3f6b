//! The rules of spec sections 4 to 7, one targeted test per rule, each on a
//! hand-built position. Every expectation below was worked out by hand from
//! the spec (/work/shared/pods-rules.md) and the default board picture, not
//! from the code; the comments say why.
//!
//! The default board, as drawn in the spec (rank 6 on top, file a on the left):
//!
//! ```text
//!     a b c d e f
//! 6   o-o-o-o-o-o
//!     |X|\|/|/|/|
//! 5   o-o-o-o-o-o
//!     |\|X|X|\|/|
//! 4   o-o-o-o o-o      d4-e4 not joined
//!     | |/|/|X|X       a4-b3 not joined, f4-f3 not joined
//! 3   o-o-o o-o-o      c3-d3 not joined
//!     | |\ /| |\|      c3-c2 not joined, only b3-c2 and d3-c2 diagonals
//! 2   o o-o o-o-o      a2-b2 and c2-d2 not joined
//!     | | | |/| |      only one diagonal: e2-d1
//! 1   o-o-o-o-o-o
//! ```
//!
//! Points used often, with every line that leaves them:
//! a1: N E            a2: N S (only!)     a3: N E S           c3: N NE W (only!)
//! b3: N NE E SE S W  c1: N E W           c2: NE S W NW       d1: N NE E W
//! f1: N W            f3: S W NW          f4: N SW W          e5: N NE E S W
//!
//! Default pods as White's stand (Black's have every leg reversed):
//! A W:s E:s, B N:l S:s, C NW:s SW:s E:s, E NW:l NE:l S:s, F W:l E:l N:s,
//! I N:s E:s S:s W:s, J NE:l SW:l NW:s SE:s, N N:l NE:s E:l SE:s S:l SW:s W:l NW:s.

use std::sync::Arc;

use podium::games::pods::{
    Bitboard, Board, DrawReason, GameRecord, Illegal, LARGEST_PLY, Move, MoveList, Outcome, Pod, PodSet, Point,
    Position, Rotation, Rules, Side, Variant, WinReason,
};

const START: &str = "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0";
const DEFAULT_ONE_LINE: &str = "o-o-o-o-o-o,|X|\\|/|/|/|,o-o-o-o-o-o,|\\|X|X|\\|/|,o-o-o-o.o-o,|.|/|/|X|X.,o-o-o.o-o-o,|.|\\./|.|\\|,o.o-o.o-o-o,|.|.|.|/|.|,o-o-o-o-o-o";

// ---------------------------------------------------------------- helpers

fn standard() -> Rules {
    Rules::default_for(Variant::Standard)
}

fn advanced() -> Rules {
    Rules::default_for(Variant::Advanced)
}

fn pt(name: &str) -> Point {
    name.parse().unwrap_or_else(|e| panic!("bad point {name}: {e}"))
}

fn mv(text: &str) -> Move {
    text.parse().unwrap_or_else(|e| panic!("bad move {text}: {e}"))
}

fn pos(line: &str, rules: &Rules) -> Position {
    Position::parse(line, rules).unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// The generated moves, as text, sorted.
fn legal(rules: &Rules, position: &Position) -> Vec<String> {
    let mut list = MoveList::new();
    position.generate_moves(rules, &mut list);
    let mut moves: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    moves.sort();
    assert_eq!(position.count_moves(rules), moves.len() as u64, "count_moves disagrees with generate_moves");
    moves
}

/// Only the moves of pods on the board (no `@`), sorted.
fn steps(rules: &Rules, position: &Position) -> Vec<String> {
    legal(rules, position).into_iter().filter(|m| !m.contains('@')).collect()
}

fn names(bits: Bitboard) -> Vec<String> {
    let mut v: Vec<String> = bits.map(|p| p.to_string()).collect();
    v.sort();
    v
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn attacked(line: &str, rules: &Rules, side: Side) -> Vec<String> {
    names(pos(line, rules).attacked_by(side))
}

/// `text` is legal in `line`: check() accepts it, the generator lists it, and
/// playing it gives exactly `after`. Returns the position after.
fn assert_plays(rules: &Rules, line: &str, text: &str, after: &str) -> Position {
    let position = pos(line, rules);
    let m = mv(text);
    assert_eq!(position.check(rules, m), Ok(()), "{line}: {text} should be legal");
    assert!(legal(rules, &position).contains(&m.to_string()), "{line}: {text} not generated");
    let mut played = position;
    played.play_unchecked(rules, m);
    assert_eq!(played.to_string(), after, "{line}: after {text}");
    assert_eq!(played.hash(), played.compute_hash(rules), "{line}: hash after {text}");
    assert_eq!(pos(after, rules), played, "{after}: parse of the line after {text}");
    let mut tried = position;
    assert_eq!(tried.try_play(rules, m), Ok(()));
    assert_eq!(tried, played);
    played
}

/// `text` is illegal in `line` for exactly `reason`: check() says so, the
/// generator does not list it, and try_play leaves the position unchanged.
fn assert_illegal(rules: &Rules, line: &str, text: &str, reason: Illegal) {
    let position = pos(line, rules);
    let m = mv(text);
    assert_eq!(position.check(rules, m), Err(reason), "{line}: {text}");
    assert!(!legal(rules, &position).contains(&m.to_string()), "{line}: illegal {text} is generated");
    let mut tried = position;
    assert_eq!(tried.try_play(rules, m), Err(reason));
    assert_eq!(tried, position, "{line}: try_play of illegal {text} changed the position");
}

/// The board field of a position line with these pods on these points.
fn board_with(pods: &[(char, &str)]) -> String {
    let mut ranks = Vec::new();
    for rank in (1..=6).rev() {
        let mut text = String::new();
        let mut run = 0;
        for file in "abcdef".chars() {
            match pods.iter().find(|(_, p)| *p == format!("{file}{rank}")) {
                Some((letter, _)) => {
                    if run > 0 {
                        text.push_str(&run.to_string());
                        run = 0;
                    }
                    text.push(*letter);
                }
                None => run += 1,
            }
        }
        if run > 0 {
            text.push_str(&run.to_string());
        }
        ranks.push(text);
    }
    ranks.join("/")
}

fn rules_with(variant: Variant, board_one_line: &str, pods: &str) -> Rules {
    let board = Board::from_one_line(board_one_line).unwrap_or_else(|e| panic!("{e}"));
    let set: PodSet = pods.parse().unwrap_or_else(|e| panic!("{e}"));
    Rules::new(variant, board, set, false)
}

// ---------------------------------------------------------------- section 2 & 3 (data the rules rely on)

#[test]
fn default_board_is_the_picture_of_the_spec() {
    let board = Board::default();
    assert_eq!(board.line_count(), 77);
    assert_eq!(board.one_line(), DEFAULT_ONE_LINE);
    assert_eq!(Board::from_one_line(DEFAULT_ONE_LINE).unwrap(), board);
    // The picture with the sixth row missing its last character is the same board.
    let picture = DEFAULT_ONE_LINE.replace('.', " ").replace(',', "\n");
    let short_sixth = picture.replace("| |/|/|X|X \n", "| |/|/|X|X\n");
    assert_ne!(picture, short_sixth);
    assert_eq!(Board::from_picture(&short_sixth).unwrap(), board);
    // Lines read off the picture by hand.
    use podium::games::pods::Direction::*;
    for (point, dir, linked) in [
        ("a6", S, true),
        ("a6", SE, true),
        ("a5", NE, true),
        ("d4", E, false),
        ("f4", S, false),
        ("c3", E, false),
        ("c3", S, false),
        ("b3", SE, true),
        ("d3", SW, true),
        ("a2", E, false),
        ("c2", E, false),
        ("e2", SW, true),
        ("a3", SE, false),
    ] {
        assert_eq!(board.is_linked(pt(point), dir), linked, "{point} {dir}");
    }
}

#[test]
fn invalid_boards_are_errors() {
    let bad = [
        DEFAULT_ONE_LINE.replacen("o-o-o-o-o-o", "o-o-o-o-o|o", 1), // '|' at a horizontal place
        DEFAULT_ONE_LINE.replacen("|X|", "|-|", 1),                 // '-' at a diagonal place
        DEFAULT_ONE_LINE.replacen("o-o", ".-o", 1),                 // a point missing
        DEFAULT_ONE_LINE.replacen("|X|\\|/|/|/|", "|X|\\|/|/|/", 1), // a row of 10
        DEFAULT_ONE_LINE.replacen("|X|\\|/|/|/|", "|X|\\|/|/|/||", 1), // a row of 12
        DEFAULT_ONE_LINE.rsplit_once(',').unwrap().0.to_string(),   // 10 rows
        format!("{DEFAULT_ONE_LINE},o-o-o-o-o-o"),                  // 12 rows
        DEFAULT_ONE_LINE.replacen('X', "x", 1),
    ];
    for text in bad {
        assert!(Board::from_one_line(&text).is_err(), "{text}");
    }
    // The one-line form writes a blank as '.', never as a space (the picture
    // form takes both): f4-f3 unjoined, the blank at row 6's end.
    let spaced = DEFAULT_ONE_LINE.replacen("|X|X.", "|X|X ", 1);
    let error = Board::from_one_line(&spaced).expect_err("a space in the one-line form");
    assert_eq!(
        error.to_string(),
        "invalid board: row 6 column 11: a space; the one-line form writes every blank as '.'"
    );
    let picture = spaced.replace(',', "\n");
    assert_eq!(Board::from_picture(&picture), Board::from_one_line(DEFAULT_ONE_LINE));
}

#[test]
fn default_pod_set_is_the_table_of_the_spec() {
    let table = "A=W:s,E:s;B=N:l,S:s;C=NW:s,SW:s,E:s;D=N:s,SW:l,SE:l;E=NW:l,NE:l,S:s;F=W:l,E:l,N:s;\
G=N:l,S:l,W:s,E:s;H=NW:s,NE:s,SW:s,SE:s;I=N:s,E:s,S:s,W:s;J=NE:l,SW:l,NW:s,SE:s;K=N:s,NE:s,E:s,W:s,S:l;\
L=NW:l,N:s,NE:l,SW:s,SE:s;M=N:s,NE:s,SE:s,S:s,SW:s,NW:s;N=N:l,NE:s,E:l,SE:s,S:l,SW:s,W:l,NW:s";
    let parsed: PodSet = table.parse().unwrap();
    assert_eq!(parsed, PodSet::default());
    assert_eq!(parsed.to_string().parse::<PodSet>().unwrap(), parsed);
    assert_eq!(parsed.len(), 14);
    for bad in ["", "B=N:s", "A=N:s;C=S:s", "A=N:s,N:l", "A=", "A=Q:s", "A=N:x", "A=N"] {
        assert!(bad.parse::<PodSet>().is_err(), "{bad}");
    }
    let seventeen: Vec<String> = (0..17).map(|i| format!("{}=N:s", (b'A' + i) as char)).collect();
    assert!(seventeen.join(";").parse::<PodSet>().is_err());
}

// ---------------------------------------------------------------- section 4: attack and liberty

/// White A (W:s E:s) on c3: b3-c3 is joined, c3-d3 is not. So A attacks b3
/// only. Black may not place on b3, but may place on d3: d3 is not attacked,
/// and Black's A there attacks nothing of White's either (no line to c3) while
/// its E leg has the liberty e3.
#[test]
fn short_leg_attacks_only_a_connected_neighbour() {
    let rules = standard();
    let line = "6/6/6/2A3/6/6 b BCDEFGHIJKLMNabcdefghijklmn 0 1";
    assert_eq!(attacked(line, &rules, Side::White), sorted(&["b3"]));
    assert_illegal(&rules, line, "A@b3", Illegal::Attacked);
    assert_plays(&rules, line, "A@d3", "6/6/6/2Aa2/6/6 w BCDEFGHIJKLMNbcdefghijklmn 0 2");
}

/// White B (N:l S:s) on a1 with White A on a3: a1-a2-a3-a4-a5-a6 are all
/// joined, so B attacks a2..a6, through A. A on a3 attacks b3 (W is off the
/// board). Black may place on none of a4, a5, a6.
/// Second position: Black A on a5, White A on a3; White B on a1 would attack
/// a5 through a3, so it may not be placed there (a1 itself is not attacked:
/// Black A on a5 attacks only b5).
#[test]
fn long_leg_attack_passes_through_pods() {
    let rules = standard();
    let line = "6/6/6/A5/6/B5 b CDEFGHIJKLMNabcdefghijklmn 0 2";
    assert_eq!(attacked(line, &rules, Side::White), sorted(&["a2", "a3", "a4", "a5", "a6", "b3"]));
    for to in ["a4", "a5", "a6"] {
        assert_illegal(&rules, line, &format!("A@{to}"), Illegal::Attacked);
    }
    let line = "6/a5/6/A5/6/6 w BCDEFGHIJKLMNbcdefghijklmn 0 2";
    assert_eq!(attacked(line, &rules, Side::Black), sorted(&["b5"]));
    assert_illegal(&rules, line, "B@a1", Illegal::WouldAttack);
}

/// White B on f1: f1-f2 and f2-f3 are joined, f3-f4 is not (the blank at the
/// end of the picture's sixth row). So B attacks f2 and f3 only, although
/// f4-f5-f6 are joined again. Black may place A on f4 and f5 (A on f4 has
/// the liberty e4 and attacks only e4), not on f2 or f3.
#[test]
fn long_leg_attack_stops_at_a_missing_line() {
    let rules = standard();
    let line = "6/6/6/6/6/5B b ACDEFGHIJKLMNabcdefghijklmn 0 2";
    assert_eq!(attacked(line, &rules, Side::White), sorted(&["f2", "f3"]));
    assert_illegal(&rules, line, "A@f2", Illegal::Attacked);
    assert_illegal(&rules, line, "A@f3", Illegal::Attacked);
    assert_plays(&rules, line, "A@f4", "6/6/5a/6/6/5B w ACDEFGHIJKLMNbcdefghijklmn 0 3");
    assert_plays(&rules, line, "A@f5", "6/5a/6/6/6/5B w ACDEFGHIJKLMNbcdefghijklmn 0 3");
}

/// White B (N:l S:s) on a1: S is off the board, the first step of N is a2.
/// With a White pod on a2, B has no liberty even though a3..a6 are empty and
/// joined: a long leg counts only its first step. In the standard game B may
/// not be placed there; with a2 empty it may.
/// In the advanced game, White placing I on a2 (I there has the liberty a3)
/// leaves B on a1 blocked, so B goes back to White's hand.
#[test]
fn liberty_counts_only_the_first_step_of_a_long_leg() {
    let rules = standard();
    let line = "6/6/6/6/A5/6 w BCDEFGHIJKLMNabcdefghijklmn 0 2";
    let b: Pod = "B".parse().unwrap();
    assert_eq!(names(pos(line, &rules).liberties(&rules, Side::White, b, pt("a1"))), Vec::<String>::new());
    assert_illegal(&rules, line, "B@a1", Illegal::NoLiberty);
    let free = "6/6/6/A5/6/6 w BCDEFGHIJKLMNabcdefghijklmn 0 2";
    assert_eq!(names(pos(free, &rules).liberties(&rules, Side::White, b, pt("a1"))), sorted(&["a2"]));
    assert_plays(&rules, free, "B@a1", "6/6/6/A5/6/B5 b CDEFGHIJKLMNabcdefghijklmn 0 3");

    let rules = advanced();
    assert_plays(
        &rules,
        "6/6/6/6/6/B5 w ACDEFGHIJKLMNabcdefghijklmn 0 2",
        "I@a2",
        "6/6/6/6/I5/6 b ABCDEFGHJKLMNabcdefghijklmn 0 3",
    );
}

/// A liberty must be joined to the pod by a line and be empty. White A on a2:
/// W is off the board and a2-b2 is not joined, so no liberty although b2 is
/// empty. White A on b1 between White I on a1 and White K on c1: both
/// neighbours are joined but occupied, so no liberty. B on b1 has the
/// liberty b2.
#[test]
fn liberty_must_be_a_connected_empty_neighbour() {
    let rules = standard();
    let a: Pod = "A".parse().unwrap();
    let start = pos(START, &rules);
    assert_eq!(names(start.liberties(&rules, Side::White, a, pt("a2"))), Vec::<String>::new());
    assert_eq!(names(start.liberties(&rules, Side::White, a, pt("b2"))), sorted(&["c2"]));
    let line = "6/6/6/6/6/I1K3 w ABCDEFGHJLMNabcdefghijklmn 0 4";
    assert_eq!(names(pos(line, &rules).liberties(&rules, Side::White, a, pt("b1"))), Vec::<String>::new());
    assert_illegal(&rules, line, "A@b1", Illegal::NoLiberty);
    assert_plays(&rules, line, "B@b1", "6/6/6/6/6/IBK3 b ACDEFGHJLMNabcdefghijklmn 0 5");
}

/// Black's pods are White's turned half round. White B (N:l S:s) on c3 attacks
/// c4, c5, c6 (c3-c2 is not joined); Black b on c3 has S:l (no line) and N:s,
/// so it attacks c4 only. In the advanced game they move accordingly.
/// Spec example: Black J has legs SW:l NE:l SE:s NW:s.
#[test]
fn black_pods_legs_are_reversed() {
    let set = PodSet::default();
    let j = set.shape("J".parse().unwrap());
    let mut black: Vec<String> = j.legs_for(Side::Black).map(|l| l.to_string()).collect();
    black.sort();
    assert_eq!(black, sorted(&["SW:l", "NE:l", "SE:s", "NW:s"]));
    let b = set.shape("B".parse().unwrap());
    let mut black: Vec<String> = b.legs_for(Side::Black).map(|l| l.to_string()).collect();
    black.sort();
    assert_eq!(black, sorted(&["S:l", "N:s"]));

    let rules = advanced();
    let white = "6/6/6/2B3/6/6 w ACDEFGHIJKLMNabcdefghijklmn 0 2";
    assert_eq!(attacked(white, &rules, Side::White), sorted(&["c4", "c5", "c6"]));
    assert_eq!(steps(&rules, &pos(white, &rules)), sorted(&["c3c4", "c3c5", "c3c6"]));
    let black = "6/6/6/2b3/6/6 b ABCDEFGHIJKLMNacdefghijklmn 0 2";
    assert_eq!(attacked(black, &rules, Side::Black), sorted(&["c4"]));
    assert_eq!(steps(&rules, &pos(black, &rules)), sorted(&["c3c4"]));
    assert_illegal(&rules, black, "c3c5", Illegal::NotAlongALeg);
    // Black b on c6: S:l reaches c5, c4, c3 and stops (c3-c2); so White may
    // not place on c4, but may on c2 (A there: liberty b2, attacks b2 only).
    let rules = standard();
    let line = "2b3/6/6/6/6/6 w ABCDEFGHIJKLMNacdefghijklmn 0 2";
    assert_eq!(attacked(line, &rules, Side::Black), sorted(&["c3", "c4", "c5"]));
    assert_illegal(&rules, line, "A@c4", Illegal::Attacked);
    assert_plays(&rules, line, "A@c2", "2b3/6/6/6/2A3/6 b BCDEFGHIJKLMNacdefghijklmn 0 3");
}

/// Attacks depend on lines and positions only: a pod in the way changes
/// nothing, whatever its colour (White B on a1, Black a on a4: a2..a6).
#[test]
fn attacks_ignore_pods_in_the_way() {
    let rules = advanced();
    let line = "6/6/a5/6/6/B5 w ACDEFGHIJKLMNbcdefghijklmn 0 2";
    assert_eq!(attacked(line, &rules, Side::White), sorted(&["a2", "a3", "a4", "a5", "a6"]));
    assert_eq!(attacked(line, &rules, Side::Black), sorted(&["b4"]));
}

// ---------------------------------------------------------------- rotation

/// The same position, White B (N:l S:s) on d1, at each rotation. Turning by 90
/// takes (x,y) to (y,5-x), so the point (x',y') comes from (5-y',x'):
/// - 0: d1-d2-d3-d4-d5-d6 all joined: d2..d6.
/// - 90: the d file comes from rank 4, d1 <- f4, d2 <- e4, d3 <- d4; f4-e4 is
///   joined, e4-d4 is not: d2 only.
/// - 180: (x,y) <- (5-x,5-y), the d file comes from the c file reversed:
///   d1 <- c6 ... d4 <- c3, d5 <- c2; c6-c5-c4-c3 joined, c3-c2 not: d2, d3, d4.
/// - 270: (x,y) <- (y,5-x), the d file comes from rank 3: d1 <- a3, d2 <- b3,
///   d3 <- c3, d4 <- d3; a3-b3-c3 joined, c3-d3 not: d2, d3.
///
/// White F (W:l E:l N:s) on a3:
/// - 0: E b3, c3 (c3-d3 missing); N a4.
/// - 90: a3..f3 <- d1..d6, all joined: E b3..f3; a4 <- c1, d1-c1 joined: N a4.
/// - 180: a3 <- f4, b3 <- e4, c3 <- d4: E b3 only; a4 <- f3, f4-f3 missing.
/// - 270: a3 <- c6, b3 <- c5, c3 <- c4, d3 <- c3, e3 <- c2: E b3, c3, d3;
///   a4 <- d6, c6-d6 joined: N a4.
#[test]
fn rotation_turns_the_lines_as_the_spec_maps_them() {
    let expected_b: [&[&str]; 4] = [&["d2", "d3", "d4", "d5", "d6"], &["d2"], &["d2", "d3", "d4"], &["d2", "d3"]];
    let expected_f: [&[&str]; 4] =
        [&["a4", "b3", "c3"], &["a4", "b3", "c3", "d3", "e3", "f3"], &["b3"], &["a4", "b3", "c3", "d3"]];
    for (rotation, (b_attacks, f_attacks)) in Rotation::ALL.into_iter().zip(expected_b.iter().zip(expected_f)) {
        let rules = advanced();
        let line = format!("6/6/6/6/6/3B2 w ACDEFGHIJKLMNabcdefghijklmn {rotation} 2");
        assert_eq!(attacked(&line, &rules, Side::White), sorted(b_attacks), "{line}");
        let mut b_steps: Vec<String> = b_attacks.iter().map(|to| format!("d1{to}")).collect();
        b_steps.sort();
        assert_eq!(steps(&rules, &pos(&line, &rules)), b_steps, "{line}");
        let line = format!("6/6/6/F5/6/6 w ABCDEGHIJKLMNabcdefghijklmn {rotation} 2");
        assert_eq!(attacked(&line, &rules, Side::White), sorted(f_attacks), "{line}");
        let mut f_steps: Vec<String> = f_attacks.iter().map(|to| format!("a3{to}")).collect();
        f_steps.sort();
        assert_eq!(steps(&rules, &pos(&line, &rules)), f_steps, "{line}");
    }
    // At 90, Black may place on d3 (not attacked), not on d2.
    let rules = standard();
    let line = "6/6/6/6/6/3B2 b ACDEFGHIJKLMNabcdefghijklmn 90 1";
    assert_illegal(&rules, line, "A@d2", Illegal::Attacked);
    assert_plays(&rules, line, "A@d3", "6/6/6/3a2/6/3B2 w ACDEFGHIJKLMNbcdefghijklmn 90 2");
    // At 0 d3 is attacked.
    assert_illegal(&rules, "6/6/6/6/6/3B2 b ACDEFGHIJKLMNabcdefghijklmn 0 1", "A@d3", Illegal::Attacked);
}

/// The spec's own example on a board with one line, a6-b6: at 90 it joins
/// f6 and f5, at 180 f1 and e1 (twice), at 270 a1 and a2. White N (legs in all
/// eight directions) standing at one end attacks the other end, and nothing
/// else; a White N anywhere else attacks nothing.
#[test]
fn rotation_moves_the_only_line_of_a_one_line_board() {
    let one_line = "o-o.o.o.o.o,...........,o.o.o.o.o.o,...........,o.o.o.o.o.o,...........,o.o.o.o.o.o,...........,o.o.o.o.o.o,...........,o.o.o.o.o.o";
    let board = Board::from_one_line(one_line).unwrap();
    assert_eq!(board.line_count(), 1);
    let ends = [("a6", "b6"), ("f6", "f5"), ("f1", "e1"), ("a1", "a2")];
    for (rotation, (from, to)) in Rotation::ALL.into_iter().zip(ends) {
        let rules = Rules::new(Variant::Standard, board, PodSet::default(), false);
        for (here, there) in [(from, to), (to, from)] {
            let line = format!("{} w ABCDEFGHIJKLMabcdefghijklmn {rotation} 2", board_with(&[('N', here)]));
            assert_eq!(attacked(&line, &rules, Side::White), sorted(&[there]), "{line}");
        }
        // The other rotations' ends are not joined at this rotation.
        for other in ["a6", "f6", "f1", "a1"].into_iter().filter(|p| *p != from) {
            let line = format!("{} w ABCDEFGHIJKLMabcdefghijklmn {rotation} 2", board_with(&[('N', other)]));
            assert_eq!(attacked(&line, &rules, Side::White), Vec::<String>::new(), "{line}");
        }
        // In the advanced game N moves along the line, and only there.
        let rules = Rules::new(Variant::Advanced, board, PodSet::default(), false);
        let line = format!("{} w ABCDEFGHIJKLMabcdefghijklmn {rotation} 2", board_with(&[('N', from)]));
        assert_eq!(steps(&rules, &pos(&line, &rules)), vec![format!("{from}{to}")], "{line}");
    }
}

// ---------------------------------------------------------------- section 5: the standard game

/// A placement needs a liberty: White A on a2 (a2 joins only a1 and a3, A's
/// legs are W and E) has none, on b2 it has c2.
#[test]
fn standard_placement_needs_a_liberty() {
    let rules = standard();
    let line = "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 2";
    assert_illegal(&rules, line, "A@a2", Illegal::NoLiberty);
    assert_plays(&rules, line, "A@b2", "6/6/6/6/1A4/6 b BCDEFGHIJKLMNabcdefghijklmn 0 3");
}

/// Black b on c3 attacks c4 (N:s; its S:l has no line at c3). White may not
/// place on c4 with any pod.
#[test]
fn placement_on_an_attacked_point_is_illegal() {
    let rules = standard();
    let line = "6/6/6/2b3/6/6 w ABCDEFGHIJKLMNacdefghijklmn 0 2";
    for pod in ["A", "B", "I", "N"] {
        assert_illegal(&rules, line, &format!("{pod}@c4"), Illegal::Attacked);
    }
}

/// Black b on c3 attacks only c4, so b3 and d3 are free. White A on b3 would
/// attack c3 (b3-c3 is joined): illegal. White A on d3 would not (c3-d3 is
/// not joined) and has the liberty e3: legal.
#[test]
fn placement_that_would_attack_an_opponent_pod_is_illegal() {
    let rules = standard();
    let line = "6/6/6/2b3/6/6 w ABCDEFGHIJKLMNacdefghijklmn 0 2";
    assert_illegal(&rules, line, "A@b3", Illegal::WouldAttack);
    assert_plays(&rules, line, "A@d3", "6/6/6/2bA2/6/6 b BCDEFGHIJKLMNacdefghijklmn 0 3");
}

/// From the start only the bipods A and B may be placed: A on every point
/// with a horizontal line (all but a2: 35), B on every point with a vertical
/// line (all 36). 71 moves.
#[test]
fn first_move_must_be_a_bipod() {
    let rules = standard();
    let start = pos(START, &rules);
    let mut expected = Vec::new();
    for point in Point::ALL {
        if point != pt("a2") {
            expected.push(format!("A@{point}"));
        }
        expected.push(format!("B@{point}"));
    }
    expected.sort();
    assert_eq!(legal(&rules, &start), expected);
    // C on b2 would have the liberty c2 (E), and nothing else is against it.
    assert_illegal(&rules, START, "C@b2", Illegal::NotBipodFirstMove);
    assert_illegal(&rules, START, "N@c5", Illegal::NotBipodFirstMove);

    // A bipod means two legs, whatever the letter. Custom set: A one leg,
    // B=E:s,W:s, C three legs, D=NE:s,SW:s. B goes where A went above (35
    // points), D on the 21 ends of the 13 NE-SW diagonals of the picture.
    let rules = rules_with(Variant::Standard, DEFAULT_ONE_LINE, "A=N:s;B=E:s,W:s;C=N:l,S:l,E:l;D=NE:s,SW:s");
    let start = pos("6/6/6/6/6/6 w ABCDabcd 0 0", &rules);
    let diagonal_ends = [
        "a5", "b6", "c5", "d6", "d5", "e6", "e5", "f6", "b4", "c4", "f5", "e4", "b3", "c3", "d4", "d3", "e3", "f4",
        "c2", "d1", "e2",
    ];
    let mut expected: Vec<String> = Point::ALL.iter().filter(|p| **p != pt("a2")).map(|p| format!("B@{p}")).collect();
    expected.extend(diagonal_ends.iter().map(|p| format!("D@{p}")));
    expected.sort();
    assert_eq!(legal(&rules, &start), expected);
    assert_illegal(&rules, "6/6/6/6/6/6 w ABCDabcd 0 0", "A@c5", Illegal::NotBipodFirstMove);
    assert_illegal(&rules, "6/6/6/6/6/6 w ABCDabcd 0 0", "C@c5", Illegal::NotBipodFirstMove);
}

/// The first-move rule holds exactly when White is to move at ply 0: N on c5
/// (all eight lines there) is illegal then, legal for Black at ply 0 and for
/// White at ply 2, in both games.
#[test]
fn first_move_rule_applies_only_at_ply_0_with_white_to_move() {
    for rules in [standard(), advanced()] {
        assert_illegal(&rules, START, "N@c5", Illegal::NotBipodFirstMove);
        assert_plays(
            &rules,
            "6/6/6/6/6/6 b ABCDEFGHIJKLMNabcdefghijklmn 0 0",
            "N@c5",
            "6/2n3/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklm 0 1",
        );
        assert_plays(
            &rules,
            "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 2",
            "N@c5",
            "6/2N3/6/6/6/6 b ABCDEFGHIJKLMabcdefghijklmn 0 3",
        );
        assert!(pos("6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 1", &rules).check(&rules, mv("N@c5")).is_ok());
    }
}

/// The largest ply a line may give is read, and counted on from without
/// wrapping round to 0, where the first-move rule would hold again; one more
/// is refused by name.
#[test]
fn the_largest_ply_is_read_and_counted_on_from() {
    let rules = standard();
    let largest = format!("6/6/6/6/6/6 b ABCDEFGHIJKLMNabcdefghijklmn 0 {LARGEST_PLY}");
    let mut game = GameRecord::new(Arc::new(rules.clone()), pos(&largest, &rules));
    game.play(mv("A@a1")).unwrap();
    assert_eq!(game.position().ply(), LARGEST_PLY + 1);
    assert!(game.position().check(&rules, mv("N@c5")).is_ok(), "the first-move rule came back");
    game.play(mv("N@c5")).unwrap();
    assert!(game.position().to_string().ends_with(&format!(" 0 {}", u64::from(LARGEST_PLY) + 2)));
    let beyond = format!("6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 {}", u64::from(LARGEST_PLY) + 1);
    let error = Position::parse(&beyond, &rules).expect_err("past the largest ply");
    assert!(error.to_string().contains(&format!("from 0 to {LARGEST_PLY}")), "{error}");
}

/// A standard position whose side to move has an empty hand is valid, and
/// that side has lost: no moves, Black wins. (White A on a1 cannot move: the
/// standard game has no moves on the board.)
#[test]
fn standard_side_with_empty_hand_has_lost() {
    let rules = standard();
    let line = "5a/6/6/6/6/A5 w bcdefghijklmn 0 27";
    let position = pos(line, &rules);
    assert_eq!(position.to_string(), line);
    assert_eq!(legal(&rules, &position), Vec::<String>::new());
    assert_eq!(position.outcome(&rules), Some(Outcome::Win { winner: Side::Black, reason: WinReason::NoLegalMove }));
    assert_illegal(&rules, line, "B@c3", Illegal::NotInHand);
    assert_illegal(&rules, line, "a1b1", Illegal::MovesNotAllowed);
    let game = GameRecord::new(Arc::new(standard()), position);
    assert_eq!(game.outcome(), Some(Outcome::Win { winner: Side::Black, reason: WinReason::NoLegalMove }));
    // Both hands empty: still a valid standard position, written with '-'.
    let line = "5a/6/6/6/6/A5 w - 0 27";
    assert_eq!(pos(line, &rules).to_string(), line);
}

/// With pods in hand but no legal placement the side to move loses too. On a
/// board with no lines no pod ever has a liberty.
#[test]
fn standard_side_without_a_legal_placement_has_lost() {
    let lineless = "o.o.o.o.o.o,...........,o.o.o.o.o.o,...........,o.o.o.o.o.o,...........,o.o.o.o.o.o,...........,o.o.o.o.o.o,...........,o.o.o.o.o.o";
    let rules = rules_with(Variant::Standard, lineless, &PodSet::default().to_string());
    let start = pos(START, &rules);
    assert_eq!(legal(&rules, &start), Vec::<String>::new());
    assert_eq!(start.outcome(&rules), Some(Outcome::Win { winner: Side::Black, reason: WinReason::NoLegalMove }));
    // In the advanced game placements need no liberty: every bipod everywhere.
    let rules = rules_with(Variant::Advanced, lineless, &PodSet::default().to_string());
    assert_eq!(legal(&rules, &pos(START, &rules)).len(), 72);
}

/// White B on a1 has only the liberty a2. White placing I on a2 (liberty a3)
/// blocks B; in the standard game it stays on the board.
#[test]
fn standard_pods_may_be_blocked_and_stay() {
    let rules = standard();
    let after = assert_plays(
        &rules,
        "6/6/6/6/6/B5 w ACDEFGHIJKLMNabcdefghijklmn 0 2",
        "I@a2",
        "6/6/6/6/I5/B5 b ACDEFGHJKLMNabcdefghijklmn 0 3",
    );
    let b: Pod = "B".parse().unwrap();
    assert!(after.liberties(&rules, Side::White, b, pt("a1")).is_empty());
    // Black's turn; B is still there after Black's placement too.
    assert_plays(
        &rules,
        "6/6/6/6/I5/B5 b ACDEFGHJKLMNabcdefghijklmn 0 3",
        "N@d5",
        "6/3n2/6/6/I5/B5 w ACDEFGHJKLMNabcdefghijklm 0 4",
    );
}

/// In the standard game no pod on the board ever moves.
#[test]
fn standard_pods_never_move() {
    let rules = standard();
    let line = "6/6/6/2A3/6/6 w BCDEFGHIJKLMNabcdefghijklmn 0 2";
    assert_eq!(steps(&rules, &pos(line, &rules)), Vec::<String>::new());
    assert_illegal(&rules, line, "c3b3", Illegal::MovesNotAllowed);
}

// ---------------------------------------------------------------- section 6: the advanced game

/// A on a2 has no liberty (see above) but may be placed in the advanced game,
/// even as the first move: 72 first moves instead of 71. Blocked, it goes
/// straight back to White's hand.
#[test]
fn advanced_placement_needs_no_liberty_by_default() {
    let rules = advanced();
    assert!(!rules.placement_liberty());
    assert_eq!(legal(&rules, &pos(START, &rules)).len(), 72);
    assert_plays(&rules, START, "A@a2", "6/6/6/6/6/6 b ABCDEFGHIJKLMNabcdefghijklmn 0 1");
}

/// With the liberty option on, A on a2 is illegal again: 71 first moves.
#[test]
fn advanced_placement_liberty_option_requires_a_liberty() {
    let rules = Rules::new(Variant::Advanced, Board::default(), PodSet::default(), true);
    assert!(rules.placement_liberty());
    assert_eq!(legal(&rules, &pos(START, &rules)).len(), 71);
    assert_illegal(&rules, START, "A@a2", Illegal::NoLiberty);
    assert_illegal(&rules, "6/6/6/6/A5/6 w BCDEFGHIJKLMNabcdefghijklmn 0 2", "B@a1", Illegal::NoLiberty);
    // Moves are unaffected by the option.
    assert_eq!(
        steps(&rules, &pos("6/6/6/6/6/5B w ACDEFGHIJKLMNabcdefghijklmn 0 2", &rules)),
        sorted(&["f1f2", "f1f3"])
    );
}

/// White A on c3: W goes to b3 (joined, empty); E would go to d3 but c3-d3 is
/// not joined. A short leg is one step only, and only along a leg.
#[test]
fn advanced_short_leg_moves_one_step_to_a_linked_empty_neighbour() {
    let rules = advanced();
    let line = "6/6/6/2A3/6/6 w BCDEFGHIJKLMNabcdefghijklmn 0 2";
    assert_eq!(steps(&rules, &pos(line, &rules)), sorted(&["c3b3"]));
    assert_plays(&rules, line, "c3b3", "6/6/6/1A4/6/6 b BCDEFGHIJKLMNabcdefghijklmn 0 3");
    assert_illegal(&rules, line, "c3d3", Illegal::BlockedPath);
    assert_illegal(&rules, line, "c3a3", Illegal::NotAlongALeg);
    assert_illegal(&rules, line, "c3c4", Illegal::NotAlongALeg);
    assert_illegal(&rules, line, "c3b5", Illegal::NotAlongALeg);
    // With Black a on b3 the only step is taken.
    let line = "6/6/6/1aA3/6/6 w BCDEFGHIJKLMNbcdefghijklmn 0 2";
    assert_eq!(steps(&rules, &pos(line, &rules)), Vec::<String>::new());
    assert_illegal(&rules, line, "c3b3", Illegal::Occupied);
}

/// White B on f1 slides N to f2 or f3; f3-f4 is not joined. White B on a1
/// with Black a on a4 slides to a2 or a3, not onto a4 nor past it.
#[test]
fn advanced_long_leg_slides_until_blocked_or_line_missing() {
    let rules = advanced();
    let line = "6/6/6/6/6/5B w ACDEFGHIJKLMNabcdefghijklmn 0 2";
    assert_eq!(steps(&rules, &pos(line, &rules)), sorted(&["f1f2", "f1f3"]));
    assert_plays(&rules, line, "f1f3", "6/6/6/5B/6/6 b ACDEFGHIJKLMNabcdefghijklmn 0 3");
    assert_plays(&rules, line, "f1f2", "6/6/6/6/5B/6 b ACDEFGHIJKLMNabcdefghijklmn 0 3");
    assert_illegal(&rules, line, "f1f4", Illegal::BlockedPath);
    assert_illegal(&rules, line, "f1f6", Illegal::BlockedPath);

    let line = "6/6/a5/6/6/B5 w ACDEFGHIJKLMNbcdefghijklmn 0 2";
    assert_eq!(steps(&rules, &pos(line, &rules)), sorted(&["a1a2", "a1a3"]));
    // B on a3 keeps the liberty a2; Black a on a4 keeps b4.
    assert_plays(&rules, line, "a1a3", "6/6/a5/B5/6/6 b ACDEFGHIJKLMNbcdefghijklmn 0 3");
    assert_illegal(&rules, line, "a1a4", Illegal::Occupied);
    assert_illegal(&rules, line, "a1a5", Illegal::BlockedPath);
    assert_illegal(&rules, line, "a1a6", Illegal::BlockedPath);
}

/// Black b on a6 attacks a5..a1 (through Black a on a4). White I on b3 may
/// still step W to a3, an attacked point from which I attacks Black a on a4.
/// Nothing is blocked after (I: a2, b3; a: b4; b: a5). A placement on a3 is
/// illegal, for comparison.
#[test]
fn advanced_move_ignores_attacks() {
    let rules = advanced();
    let line = "b5/6/a5/1I4/6/6 w ABCDEFGHJKLMNcdefghijklmn 0 4";
    assert!(attacked(line, &rules, Side::Black).contains(&"a3".to_string()));
    assert_eq!(steps(&rules, &pos(line, &rules)), sorted(&["b3a3", "b3b2", "b3b4", "b3c3"]));
    let after = assert_plays(&rules, line, "b3a3", "b5/6/a5/I5/6/6 b ABCDEFGHJKLMNcdefghijklmn 0 5");
    assert!(after.attacked_by(Side::White).contains(pt("a4")));
    assert!(after.attacked_by(Side::Black).contains(pt("a3")));
    assert_illegal(&rules, line, "A@a3", Illegal::Attacked);
}

/// With White to move at ply 0 no pod may move, even one set on the board by
/// hand; Black at ply 0 and White at ply 1 may.
#[test]
fn advanced_no_pod_moves_on_the_first_move() {
    let rules = advanced();
    let line = "6/6/6/2A3/6/6 w BCDEFGHIJKLMNabcdefghijklmn 0 0";
    assert_eq!(steps(&rules, &pos(line, &rules)), Vec::<String>::new());
    assert!(legal(&rules, &pos(line, &rules)).iter().all(|m| m.starts_with("B@")));
    assert_illegal(&rules, line, "c3b3", Illegal::FirstMoveMustPlace);
    assert_plays(
        &rules,
        "6/6/6/2a3/6/6 b ABCDEFGHIJKLMNbcdefghijklmn 0 0",
        "c3b3",
        "6/6/6/1a4/6/6 w ABCDEFGHIJKLMNbcdefghijklmn 0 1",
    );
    assert_plays(
        &rules,
        "6/6/6/2A3/6/6 w BCDEFGHIJKLMNabcdefghijklmn 0 1",
        "c3b3",
        "6/6/6/1A4/6/6 b BCDEFGHIJKLMNabcdefghijklmn 0 2",
    );
}

/// One pass. White B on a1 has only a2 as liberty. White places A on a2,
/// where A has no liberty either. After the placement both are blocked, and
/// both come off at once; that a2 is empty again after A leaves does not
/// save B. Both go back to White's hand.
/// Same with opponents: White E (S:s) on a3 steps to a2 next to Black b on a1
/// (whose only liberty is a2). E on a2 is blocked (NW off the board, a2-b3 not
/// joined, a1 occupied), b on a1 is blocked: E goes back to White's hand and
/// b leaves the game, although each one's leaving would have freed the other.
#[test]
fn advanced_blocked_pods_removed_in_one_pass() {
    let rules = advanced();
    assert_plays(
        &rules,
        "6/6/6/6/6/B5 w ACDEFGHIJKLMNabcdefghijklmn 0 2",
        "A@a2",
        "6/6/6/6/6/6 b ABCDEFGHIJKLMNabcdefghijklmn 0 3",
    );
    assert_plays(
        &rules,
        "6/6/6/E5/6/b5 w ABCDFGHIJKLMNacdefghijklmn 0 6",
        "a3a2",
        "6/6/6/6/6/6 b ABCDEFGHIJKLMNacdefghijklmn 0 7",
    );
}

/// White I on a3 steps to a2 (I keeps the liberty a3): White B on a1 loses its
/// only liberty and goes back to White's hand.
#[test]
fn advanced_movers_blocked_pods_return_to_hand() {
    let rules = advanced();
    let line = "6/6/6/I5/6/B5 w ACDEFGHJKLMNabcdefghijklmn 0 4";
    assert_eq!(steps(&rules, &pos(line, &rules)), sorted(&["a1a2", "a3a2", "a3a4", "a3b3"]));
    assert_plays(&rules, line, "a3a2", "6/6/6/6/I5/6 b ABCDEFGHJKLMNabcdefghijklmn 0 5");
}

/// White I on a3 steps to a2: Black b on a1 (legs S:l off the board, N:s to
/// a2) is blocked and leaves the game: it is in neither hand afterwards.
#[test]
fn advanced_opponents_blocked_pods_leave_the_game() {
    let rules = advanced();
    let line = "6/6/6/I5/6/b5 w ACDEFGHJKLMNacdefghijklmn 0 4";
    let after = assert_plays(&rules, line, "a3a2", "6/6/6/6/I5/6 b ACDEFGHJKLMNacdefghijklmn 0 5");
    let b: Pod = "b".parse().unwrap();
    assert!(!after.hand(Side::Black).contains(b));
    assert!(!after.hand(Side::White).contains(b));
    // b is gone for good: Black cannot place it.
    assert_illegal(&rules, "6/6/6/6/I5/6 b ACDEFGHJKLMNacdefghijklmn 0 5", "B@e5", Illegal::NotInHand);
}

/// The placed pod itself: A on a2 (no liberty there) comes straight back, mid
/// game too, and nothing else changes but side and ply.
#[test]
fn advanced_placed_pod_itself_can_be_removed() {
    let rules = advanced();
    assert_plays(
        &rules,
        "5a/6/6/6/6/5B w ACDEFGHIJKLMNbcdefghijklmn 0 2",
        "A@a2",
        "5a/6/6/6/6/5B b ACDEFGHIJKLMNbcdefghijklmn 0 3",
    );
}

/// A position set up by hand with White A on a2 (never has a liberty) and
/// Black b on a1 (blocked by A). Black places N on d5, far away: after it both
/// already-blocked pods come off, b back to Black's hand (Black moved), A out
/// of the game.
#[test]
fn advanced_already_blocked_pod_is_removed_by_any_action() {
    let rules = advanced();
    assert_plays(
        &rules,
        "6/6/6/6/A5/b5 b BCDEFGHIJKLMNacdefghijklmn 0 5",
        "N@d5",
        "6/3n2/6/6/6/6 w BCDEFGHIJKLMNabcdefghijklm 0 6",
    );
    // With White to move instead, A returns to White's hand and b leaves, after
    // a step of White I from e5 to d5 (far away; I keeps liberties).
    assert_plays(
        &rules,
        "6/4I1/6/6/A5/b5 w BCDEFGHJKLMNacdefghijklmn 0 5",
        "e5d5",
        "6/3I2/6/6/6/6 b ABCDEFGHJKLMNacdefghijklmn 0 6",
    );
}

/// White's last pod in hand is placed: White's hand is empty, White wins.
/// The game is over: no moves, every move is GameOver. If the placed pod comes
/// straight back (A on a2), the hand is not empty and the game goes on.
#[test]
fn advanced_mover_wins_with_empty_hand() {
    let rules = advanced();
    let line = "6/6/6/6/6/6 w Aabc 0 9";
    let after = assert_plays(&rules, line, "A@c5", "6/2A3/6/6/6/6 b abc 0 10");
    assert_eq!(after.outcome(&rules), Some(Outcome::Win { winner: Side::White, reason: WinReason::EmptyHand }));
    assert_eq!(legal(&rules, &after), Vec::<String>::new());
    assert_illegal(&rules, "6/2A3/6/6/6/6 b abc 0 10", "A@e5", Illegal::GameOver);
    let back = assert_plays(&rules, line, "A@a2", "6/6/6/6/6/6 b Aabc 0 10");
    assert_eq!(back.outcome(&rules), None);
    let mut game = GameRecord::new(Arc::new(advanced()), pos(line, &rules));
    assert_eq!(game.play(mv("A@c5")), Ok(()));
    assert_eq!(game.outcome(), Some(Outcome::Win { winner: Side::White, reason: WinReason::EmptyHand }));
    assert_eq!(game.play(mv("A@e5")), Err(Illegal::GameOver));
}

/// The side to move with nothing to do loses. Board with only the horizontal
/// lines; pods A..G all W:l,E:l, H=N:s,S:s. Black's a..f stand on a1..a6, one
/// per rank: each attacks its whole rank, so every empty point is attacked and
/// White cannot place. White's H on c3 has no vertical line to move along.
/// White loses. Without Black's f on rank 6, White may place any of A..G on
/// the six points of rank 6 (nothing of Black's on that rank): 42 moves.
#[test]
fn advanced_no_legal_action_loses() {
    let horizontal = "o-o-o-o-o-o,...........,o-o-o-o-o-o,...........,o-o-o-o-o-o,...........,o-o-o-o-o-o,...........,o-o-o-o-o-o,...........,o-o-o-o-o-o";
    let set = "A=W:l,E:l;B=W:l,E:l;C=W:l,E:l;D=W:l,E:l;E=W:l,E:l;F=W:l,E:l;G=W:l,E:l;H=N:s,S:s";
    let rules = rules_with(Variant::Advanced, horizontal, set);
    let line = "f5/e5/d5/c1H3/b5/a5 w ABCDEFGg 0 12";
    let position = pos(line, &rules);
    assert_eq!(position.to_string(), line);
    assert_eq!(legal(&rules, &position), Vec::<String>::new());
    assert_eq!(position.outcome(&rules), Some(Outcome::Win { winner: Side::Black, reason: WinReason::NoLegalMove }));
    let game = GameRecord::new(Arc::new(rules_with(Variant::Advanced, horizontal, set)), position);
    assert_eq!(game.outcome(), Some(Outcome::Win { winner: Side::Black, reason: WinReason::NoLegalMove }));
    assert_illegal(&rules, line, "c3c4", Illegal::BlockedPath);
    // b3 is attacked by Black c on a3, and A there would attack c: both
    // conditions fail, so only "illegal" is certain.
    assert!(position.check(&rules, mv("A@b3")).is_err());

    let open = pos("6/e5/d5/c1H3/b5/a5 w ABCDEFGfg 0 12", &rules);
    let mut expected = Vec::new();
    for pod in ["A", "B", "C", "D", "E", "F", "G"] {
        for file in ["a", "b", "c", "d", "e", "f"] {
            expected.push(format!("{pod}@{file}6"));
        }
    }
    expected.sort();
    assert_eq!(legal(&rules, &open), expected);
    assert_eq!(open.outcome(&rules), None);
}

/// White A shuttles c3-b3-c3, Black a e5-d5-e5 (no pod is ever blocked: A
/// keeps b3 or a3/c3, a keeps d5/f5 or c5/e5). The position after 4 plies is
/// the start again (ply aside): twice. After 8 plies: three times, a draw.
#[test]
fn advanced_threefold_repetition_is_a_draw() {
    let rules = Arc::new(advanced());
    let line = "6/4a1/6/2A3/6/6 w BCDEFGHIJKLMNbcdefghijklmn 0 2";
    let mut game = GameRecord::new(rules.clone(), pos(line, &rules));
    let cycle = ["c3b3", "e5d5", "b3c3", "d5e5"];
    for (ply, text) in cycle.iter().chain(cycle.iter()).enumerate() {
        assert_eq!(game.outcome(), None, "before ply {ply}");
        assert_eq!(game.play(mv(text)), Ok(()), "{text}");
    }
    assert_eq!(game.position().to_string(), "6/4a1/6/2A3/6/6 w BCDEFGHIJKLMNbcdefghijklmn 0 10");
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
    assert_eq!(game.play(mv("c3b3")), Err(Illegal::GameOver));
    // After 7 plies the position (A on c3, a on d5, Black to move) has
    // occurred twice (plies 3 and 7): no draw yet.
    let mut game = GameRecord::new(rules.clone(), pos(line, &rules));
    for text in cycle.iter().chain(cycle.iter()).take(7) {
        game.play(mv(text)).unwrap();
    }
    assert_eq!(game.repetitions(), 2);
    assert_eq!(game.outcome(), None);
}

/// An advanced position whose side to move has an empty hand is invalid; the
/// same line is a valid standard position. One whose other side has an empty
/// hand is over: that side has won.
#[test]
fn advanced_side_to_move_with_empty_hand_is_invalid() {
    let line = "5a/6/6/6/6/A5 w bcdefghijklmn 0 27";
    assert!(Position::parse(line, &advanced()).is_err());
    assert!(Position::parse(line, &standard()).is_ok());
    assert!(Position::parse("5a/6/6/6/6/A5 b - 0 27", &advanced()).is_err());

    let rules = advanced();
    let over = "5a/6/6/6/6/A5 b bcdefghijklmn 0 27";
    let position = pos(over, &rules);
    assert_eq!(position.outcome(&rules), Some(Outcome::Win { winner: Side::White, reason: WinReason::EmptyHand }));
    assert_eq!(legal(&rules, &position), Vec::<String>::new());
    assert_illegal(&rules, over, "B@c3", Illegal::GameOver);
    assert_illegal(&rules, over, "f6e6", Illegal::GameOver);
}

// ---------------------------------------------------------------- illegal reasons

/// Each reason on a position where only that condition fails.
#[test]
fn check_reports_the_specific_reason() {
    let std_rules = standard();
    let adv_rules = advanced();
    let cases: &[(&Rules, &str, &str, Illegal)] = &[
        // c3 holds White A; Black b there would have the liberty c4 and attack
        // nothing of White's; c3 is not attacked (A attacks b3).
        (&std_rules, "6/6/6/2A3/6/6 b BCDEFGHIJKLMNabcdefghijklmn 0 1", "B@c3", Illegal::Occupied),
        (&std_rules, "6/6/6/2A3/6/6 b BCDEFGHIJKLMNabcdefghijklmn 0 1", "A@b3", Illegal::Attacked),
        (&std_rules, "6/6/6/2b3/6/6 w ABCDEFGHIJKLMNacdefghijklmn 0 2", "A@b3", Illegal::WouldAttack),
        (&std_rules, "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 2", "A@a2", Illegal::NoLiberty),
        (&std_rules, START, "C@b2", Illegal::NotBipodFirstMove),
        // A is on the board; B..N in hand.
        (&std_rules, "6/6/6/2A3/6/6 w BCDEFGHIJKLMNabcdefghijklmn 0 2", "A@e5", Illegal::NotInHand),
        // Black's b has left the game.
        (&adv_rules, "6/6/6/6/I5/6 b ACDEFGHJKLMNacdefghijklmn 0 5", "B@e5", Illegal::NotInHand),
        // O is no pod of the default set.
        (&std_rules, START, "O@c3", Illegal::UnknownPod),
        (&adv_rules, "6/6/6/2A3/6/6 b BCDEFGHIJKLMNabcdefghijklmn 0 1", "c3b3", Illegal::NotYourPod),
        (&adv_rules, "6/6/6/2A3/6/6 b BCDEFGHIJKLMNabcdefghijklmn 0 1", "e5d5", Illegal::NoPodThere),
        (&adv_rules, "6/6/6/6/6/5B w ACDEFGHIJKLMNabcdefghijklmn 0 2", "f1f4", Illegal::BlockedPath),
        (&adv_rules, "6/6/a5/6/6/B5 w ACDEFGHIJKLMNbcdefghijklmn 0 2", "a1a5", Illegal::BlockedPath),
        (&adv_rules, "6/6/a5/6/6/B5 w ACDEFGHIJKLMNbcdefghijklmn 0 2", "a1a4", Illegal::Occupied),
        (&adv_rules, "6/6/6/2A3/6/6 w BCDEFGHIJKLMNabcdefghijklmn 0 2", "c3a3", Illegal::NotAlongALeg),
        (&adv_rules, "6/6/6/2A3/6/6 w BCDEFGHIJKLMNabcdefghijklmn 0 2", "c3c4", Illegal::NotAlongALeg),
        (&adv_rules, "6/6/6/2A3/6/6 w BCDEFGHIJKLMNabcdefghijklmn 0 2", "c3d5", Illegal::NotAlongALeg),
        (&std_rules, "6/6/6/2A3/6/6 w BCDEFGHIJKLMNabcdefghijklmn 0 2", "c3b3", Illegal::MovesNotAllowed),
        (&adv_rules, "6/6/6/2A3/6/6 w BCDEFGHIJKLMNabcdefghijklmn 0 0", "c3b3", Illegal::FirstMoveMustPlace),
        (&adv_rules, "5a/6/6/6/6/A5 b bcdefghijklmn 0 27", "B@c3", Illegal::GameOver),
    ];
    for (rules, line, text, reason) in cases {
        assert_illegal(rules, line, text, *reason);
    }
}

// ---------------------------------------------------------------- section 7: notation

#[test]
fn position_lines_round_trip() {
    let rules = standard();
    let lines = [
        START,
        "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 90 0",
        "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 180 0",
        "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 270 0",
        "5a/6/6/6/6/A5 w bcdefghijklmn 0 27",
        "5a/6/6/6/6/A5 b - 0 27",
        "ABCDEF/abcdef/6/6/6/6 b GHIJKLMNghijklmn 90 12",
        "1A1b1C/a5/5n/2N3/3m2/M5 w DEFGHIJKLcdefghijkl 180 1000",
        "6/6/6/6/6/6 b A 270 1",
        "6/6/6/6/6/6 w n 0 1",
    ];
    for line in lines {
        let position = pos(line, &rules);
        assert_eq!(position.to_string(), line);
        assert_eq!(position.hash(), position.compute_hash(&rules));
    }
    // Letters O and P with a 16-pod set.
    let sixteen: Vec<String> = (0..16).map(|i| format!("{}=N:s", (b'A' + i) as char)).collect();
    let rules16 = rules_with(Variant::Advanced, DEFAULT_ONE_LINE, &sixteen.join(";"));
    let line = "OP4/op4/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 40";
    assert_eq!(pos(line, &rules16).to_string(), line);
}

/// Readers take unmerged runs; writers merge them.
#[test]
fn position_writer_merges_empty_runs() {
    let rules = standard();
    let position = pos("33/111111/2211/6/42/15 w ABCDEFGHIJKLMNabcdefghijklmn 0 0", &rules);
    assert_eq!(position.to_string(), START);
    let position = pos("1A13/6/6/6/6/6 b BCDEFGHIJKLMNabcdefghijklmn 0 1", &rules);
    assert_eq!(position.to_string(), "1A4/6/6/6/6/6 b BCDEFGHIJKLMNabcdefghijklmn 0 1");
}

#[test]
fn position_parse_errors_say_what_is_wrong() {
    let rules = standard();
    let cases: &[(&str, &[&str])] = &[
        ("6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0", &["5 fields"]),
        ("6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0 0", &["5 fields"]),
        ("", &["5 fields"]),
        ("6/6/6/6/6/x5 w ABCDEFGHIJKLMNabcdefghijklmn 0 0", &["'x'", "not a pod"]),
        ("6/6/6/6/6/O5 w ABCDEFGHIJKLMNabcdefghijklmn 0 0", &["'O'", "not a pod"]),
        ("6/6/6/6/6/6 w ABCDEFGHIJKLMN?abcdefghijklmn 0 0", &["'?'", "not a pod"]),
        ("6/6/6/6/6/A5 w ABCDEFGHIJKLMNabcdefghijklmn 0 0", &["'A'", "twice"]),
        ("6/6/6/6/6/A4A w BCDEFGHIJKLMNabcdefghijklmn 0 0", &["'A'", "twice"]),
        ("6/6/6/6/6/6 w AABCDEFGHIJKLMNabcdefghijklmn 0 0", &["'A'", "twice"]),
        ("6/6/6/6/6/a5 w ABCDEFGHIJKLMNabcdefghijklmn 0 0", &["'a'", "twice"]),
        ("6/6/6/6/6/5 w ABCDEFGHIJKLMNabcdefghijklmn 0 0", &["5 points"]),
        ("6/6/6/6/6/A5A w BCDEFGHIJKLMNabcdefghijklmn 0 0", &["'A'"]),
        ("6/6/6/6/6/A6 w BCDEFGHIJKLMNabcdefghijklmn 0 0", &["7 points"]),
        ("6/6/25/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0", &["rank 4", "7 points"]),
        ("6/6/6/6/6/06 w ABCDEFGHIJKLMNabcdefghijklmn 0 0", &["'0'"]),
        ("6/6/6/6/6/7 w ABCDEFGHIJKLMNabcdefghijklmn 0 0", &["'7'"]),
        ("6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0", &["ranks"]),
        ("6/6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0", &["ranks"]),
        ("6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 45 0", &["rotation", "45"]),
        ("6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 360 0", &["rotation"]),
        ("6/6/6/6/6/6 x ABCDEFGHIJKLMNabcdefghijklmn 0 0", &["side", "'x'"]),
        ("6/6/6/6/6/6 W ABCDEFGHIJKLMNabcdefghijklmn 0 0", &["side"]),
        ("6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 -1", &["ply", "-1"]),
        ("6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 x", &["ply"]),
        ("6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 1.5", &["ply"]),
        ("6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 4294967296", &["ply"]),
        ("6/6/6/6/6/6 w A- 0 0", &["'-'"]),
        ("6/6/6/6/6/6 w -- 0 0", &["'-'"]),
    ];
    for (line, needles) in cases {
        let err = match Position::parse(line, &rules) {
            Ok(p) => panic!("'{line}' parsed as {p}"),
            Err(e) => e.to_string(),
        };
        for needle in *needles {
            assert!(err.contains(needle), "'{line}': error '{err}' should mention {needle}");
        }
    }
}

/// Spec 7: "five fields separated by single spaces (no leading or trailing
/// space)". Anything else is not a position line.
#[test]
fn position_fields_are_separated_by_single_spaces() {
    let rules = standard();
    for line in [
        " 6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0",
        "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0 ",
        "6/6/6/6/6/6  w ABCDEFGHIJKLMNabcdefghijklmn 0 0",
        "6/6/6/6/6/6\tw ABCDEFGHIJKLMNabcdefghijklmn 0 0",
        "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0\n",
    ] {
        assert!(Position::parse(line, &rules).is_err(), "{line:?} should not parse");
    }
}

/// Spec 7: hands are "the pods in White's hand in uppercase, then those in
/// Black's hand in lowercase, each group in alphabetical order".
#[test]
fn position_hands_must_be_in_order() {
    let rules = standard();
    for line in [
        "6/6/6/6/6/6 w BACDEFGHIJKLMNabcdefghijklmn 0 0",
        "6/6/6/6/6/6 w abcdefghijklmnABCDEFGHIJKLMN 0 0",
        "6/6/6/6/6/6 w ABCDEFGHIJKLMNbacdefghijklmn 0 0",
    ] {
        assert!(Position::parse(line, &rules).is_err(), "{line:?} should not parse");
    }
}

#[test]
fn move_notation_round_trips() {
    let rules = standard();
    for pod in 0..16u8 {
        for point in Point::ALL {
            let text = format!("{}@{point}", (b'A' + pod) as char);
            let m = mv(&text);
            assert_eq!(m.to_string(), text);
            assert_eq!(format!("{}@{point}", (b'a' + pod) as char).parse::<Move>().unwrap(), m, "lowercase");
        }
    }
    for from in Point::ALL {
        for to in Point::ALL.into_iter().filter(|to| *to != from) {
            let text = format!("{from}{to}");
            assert_eq!(mv(&text).to_string(), text);
        }
    }
    // A placement's side is the side to move: "a@c5" is White's A with White to move.
    assert_plays(
        &rules,
        "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 2",
        "a@b2",
        "6/6/6/6/1A4/6 b BCDEFGHIJKLMNabcdefghijklmn 0 3",
    );
    for bad in [
        "", "A", "A@", "@c3", "A@c", "A@g1", "A@c0", "A@c7", "AB@c3", "Q@c3", "1@c3", "A@@c3", "A@c3 ", " A@c3", "c3",
        "c3c", "c3c3c", "c3-c5", "c3 c5", "a1a7", "g1a1", "A1B2", "c3@c5", "A@c3c5",
    ] {
        assert!(bad.parse::<Move>().is_err(), "{bad:?} should not be a move");
    }
}

#[test]
fn point_and_rotation_notation_round_trip() {
    for (index, point) in Point::ALL.into_iter().enumerate() {
        assert_eq!(point.index(), index);
        assert_eq!(point.to_string().parse::<Point>(), Ok(point));
    }
    assert_eq!(pt("a1").index(), 0);
    assert_eq!(pt("b1").index(), 1);
    assert_eq!(pt("f1").index(), 5);
    assert_eq!(pt("a2").index(), 6);
    assert_eq!(pt("f6").index(), 35);
    for bad in ["", "a", "a0", "a7", "g1", "A1", "a11", "1a", " a1", "a1 "] {
        assert!(bad.parse::<Point>().is_err(), "{bad:?}");
    }
    for (text, rotation) in
        [("0", Rotation::R0), ("90", Rotation::R90), ("180", Rotation::R180), ("270", Rotation::R270)]
    {
        assert_eq!(text.parse::<Rotation>(), Ok(rotation));
        assert_eq!(rotation.to_string(), text);
    }
    for bad in ["", "45", "360", "-90", "R90", "090", "90 ", "00"] {
        assert!(bad.parse::<Rotation>().is_err(), "{bad:?}");
    }
    for (text, side) in [("w", Side::White), ("b", Side::Black)] {
        assert_eq!(text.parse::<Side>(), Ok(side));
        assert_eq!(side.to_string(), text);
    }
}
