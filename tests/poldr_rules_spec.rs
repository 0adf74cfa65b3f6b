//! The POLD.R rules contract, sections 2 to 5, one rule at a time, on
//! hand-built positions given as position lines. Every expected value (legal
//! move lists, lines after a move, winners) was worked out by hand from the
//! contract; the comment next to it gives the reasoning. Boards are written
//! rank by rank from the top, as in the notation.

use podium::games::poldr::{
    Cell, Illegal, LARGEST_PLY, Move, MoveParseError, Outcome, Phase, Piece, Position, PositionError, Seat, WinReason,
};

// ---------------------------------------------------------------- helpers

/// Reads a canonical line, which must be valid and be written back as read.
fn pos(line: &str) -> Position {
    let position: Position = line.parse().unwrap_or_else(|error| panic!("{line}: {error}"));
    assert_eq!(position.to_string(), line, "a canonical line is written back as read");
    assert_eq!(position.hash(), position.compute_hash(), "{line}");
    position
}

fn mv(text: &str) -> Move {
    text.parse().unwrap_or_else(|error| panic!("{text}: {error}"))
}

fn cell(text: &str) -> Cell {
    text.parse().unwrap_or_else(|error| panic!("{text}: {error}"))
}

/// The legal moves of a line, written and sorted.
fn moves(line: &str) -> Vec<String> {
    let mut moves: Vec<String> = pos(line).legal_moves().iter().map(ToString::to_string).collect();
    moves.sort();
    moves
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut list: Vec<String> = list.iter().map(ToString::to_string).collect();
    list.sort();
    list
}

/// The line after a legal move, checked every way the library offers.
fn play(line: &str, text: &str) -> String {
    let before = pos(line);
    let mv = mv(text);
    assert_eq!(before.check(mv), Ok(()), "{line}: {text} should be legal");
    assert!(before.legal_moves().contains(&mv), "{line}: {text} should be generated");
    let mut after = before;
    after.try_play(mv).expect("legal");
    let mut unchecked = before;
    unchecked.play_unchecked(mv);
    assert_eq!(after, unchecked, "{line}: try_play and play_unchecked agree on {text}");
    assert_eq!(after.hash(), after.compute_hash(), "{line} after {text}");
    let written = after.to_string();
    assert_eq!(written.parse::<Position>().as_ref(), Ok(&after), "{written} round trip");
    written
}

/// Why a move is illegal; the position stays as it was.
fn illegal(line: &str, text: &str) -> Illegal {
    let before = pos(line);
    let mv = mv(text);
    assert!(!before.legal_moves().contains(&mv), "{line}: {text} should not be generated");
    let mut after = before;
    let error = after.try_play(mv).expect_err(&format!("{line}: {text} should be illegal"));
    assert_eq!(after, before, "{line}: an illegal {text} changes nothing");
    assert_eq!(before.check(mv), Err(error));
    error
}

/// The outcome of a finished line; also checks that it has no legal move,
/// refuses every move as the game being over and scores as it ends.
fn finished(line: &str) -> Outcome {
    let position = pos(line);
    let outcome = position.outcome().unwrap_or_else(|| panic!("{line} should be over"));
    assert!(position.legal_moves().is_empty(), "{line}: a finished game has no legal move");
    for text in ["pass", "Pa1", "Ma1", "Pc3", "Mc3"] {
        assert_eq!(position.check(mv(text)), Err(Illegal::GameOver), "{line}: {text}");
    }
    assert_eq!(position.scored_outcome(), outcome, "{line}");
    outcome
}

fn error(line: &str) -> PositionError {
    line.parse::<Position>().expect_err(&format!("{line} should be invalid"))
}

// ---------------------------------------------------------------- 2. intervals

/// Yellow's first turn with the pawn on c3 (Blue: marker a1, brick b2).
const PAWN_C3: &str = "5/5/2P2/1b3/B4 y 15,16 1 1 1,-";

#[test]
fn aligned_cells_share_a_rank_a_file_or_a_diagonal_with_a_cell_between() {
    // From c3 on 5x5, two steps in each of the eight directions: a3 e3
    // (rank), c1 c5 (file), a1 e5 a5 e1 (diagonals). a1 holds Blue's marker;
    // each other interval is one empty cell, within Yellow's 16 bricks.
    assert_eq!(moves(PAWN_C3), sorted(&["Ma3", "Me3", "Mc1", "Mc5", "Me5", "Ma5", "Me1"]));
    assert_eq!(illegal(PAWN_C3, "Ma1"), Illegal::Occupied(cell("a1")));
}

#[test]
fn adjacent_cells_are_not_aligned() {
    // The seven empty neighbours of c3 (b2 holds a brick): no cell between.
    for text in ["Mb3", "Mb4", "Mc2", "Mc4", "Md2", "Md3", "Md4"] {
        assert_eq!(illegal(PAWN_C3, text), Illegal::NotAligned, "{text}");
    }
    assert_eq!(illegal(PAWN_C3, "Mb2"), Illegal::Occupied(cell("b2")));
    // The first turn too: a1 and b2 are neighbours on a diagonal.
    let start = Position::start(5, 2, 16).unwrap().to_string();
    assert_eq!(illegal(&start, "Pa1Mb2"), Illegal::NotAligned);
    assert_eq!(illegal(&start, "Pa1Ma2"), Illegal::NotAligned);
}

#[test]
fn cells_off_every_line_are_not_aligned() {
    // A knight's jump from c3 shares no rank, file or diagonal with it.
    for text in ["Mb1", "Md1", "Ma2", "Me2", "Ma4", "Me4", "Mb5", "Md5"] {
        assert_eq!(illegal(PAWN_C3, text), Illegal::NotAligned, "{text}");
    }
}

#[test]
fn the_interval_is_every_cell_strictly_between() {
    // Pawn a1, Blue's marker a3 (brick a2). Yellow's marker on e5: the
    // interval is b2 c3 d4, three bricks; on e1: b1 c1 d1.
    let line = "5/5/B4/b4/P4 y 15,16 1 1 1,-";
    assert_eq!(play(line, "Me5"), "4Y/3y1/B1y2/by3/P4 b 15,13 1 2 1,2");
    assert_eq!(play(line, "Me1"), "5/5/B4/b4/PyyyY b 15,13 1 2 1,2");
    // On c1 the interval is b1 alone.
    assert_eq!(play(line, "Mc1"), "5/5/B4/b4/PyY2 b 15,15 1 2 1,2");
}

#[test]
fn a_players_interval_joins_the_pawn_and_their_own_marker() {
    // Blue (marker c1, pawn a1) moves its marker to c3: Blue's interval is
    // now b2 (pawn a1 to c3), filled with a Blue brick; Yellow's marker a3
    // and its interval a2 play no part.
    let line = "4/Y3/y3/PbB1 b 15,15 1 2 1,2";
    assert_eq!(play(line, "Mc3"), "4/Y1B1/yb2/Pb2 y 14,15 1 3 3,2");
}

// ---------------------------------------------------------------- 3. building

#[test]
fn the_game_starts_on_an_empty_board_with_full_reserves_in_phase_1() {
    let start = Position::start(5, 2, 16).unwrap();
    assert_eq!(start.to_string(), "5/5/5/5/5 b 16,16 1 0 -,-");
    assert_eq!((start.phase(), start.ply(), start.mover()), (Phase::Building, 0, Seat::Blue));
    assert_eq!(start.last_change(Seat::Blue), None);
    assert_eq!(Position::start(5, 3, 16).unwrap().to_string(), "5/5/5/5/5 b 16,16,16 1 0 -,-,-");
    assert_eq!(Position::start(4, 2, 7).unwrap().to_string(), "4/4/4/4 b 7,7 1 0 -,-");
    assert_eq!(Position::start(9, 3, 40).unwrap().to_string(), "9/9/9/9/9/9/9/9/9 b 40,40,40 1 0 -,-,-");
    for seat in Seat::ALL {
        assert_eq!(Position::start(6, 3, 12).unwrap().reserve(seat), 12);
    }
}

#[test]
fn first_turn_puts_pawn_then_marker() {
    // 4x4: a corner sees 6 cells two or more steps away (2 per line), an
    // edge cell 4 (b1: d1, b3, b4, d3), a centre cell 3 (b2: d2, b4, d4):
    // 4*6 + 8*4 + 4*3 = 68 first turns, every interval (1 or 2 cells) within
    // 16 bricks.
    let start = Position::start(4, 2, 16).unwrap();
    let legal = start.legal_moves();
    assert_eq!(legal.len(), 68);
    assert!(legal.iter().all(|mv| matches!(mv, Move::Opening { .. })));
    let line = start.to_string();
    // Pawn a1, marker d4: b2 and c3 filled.
    assert_eq!(play(&line, "Pa1Md4"), "3B/2b1/1b2/P3 y 14,16 1 1 1,-");
    // The other way round: the pawn is the first cell named.
    assert_eq!(play(&line, "Pd4Ma1"), "3P/2b1/1b2/B3 y 14,16 1 1 1,-");
    // The same in a three-player game.
    let three = Position::start(4, 3, 16).unwrap();
    assert_eq!(three.legal_moves().len(), 68);
    assert_eq!(play(&three.to_string(), "Pa1Mc1"), "4/4/4/PbB1 y 15,16,16 1 1 1,-,-");
}

#[test]
fn the_first_turn_of_the_game_names_both_pieces() {
    let line = Position::start(4, 2, 16).unwrap().to_string();
    assert_eq!(illegal(&line, "Pa1"), Illegal::OpeningExpected);
    assert_eq!(illegal(&line, "Ma1"), Illegal::OpeningExpected);
    assert_eq!(illegal(&line, "Pa1Mb3"), Illegal::NotAligned);
    assert_eq!(illegal(&line, "Pa1Me5"), Illegal::OffBoard(cell("e5")));
    assert!(matches!(illegal(&line, "pass"), Illegal::CannotPass));
}

#[test]
fn a_first_turn_fills_no_more_cells_than_bricks() {
    // One brick each: only intervals of exactly one cell. Corner a1: c1, a3,
    // c3; edge b1: d1, b3, d3; centre b2: d2, b4, d4; 4*3 + 8*3 + 4*3 = 48.
    let start = Position::start(4, 2, 1).unwrap();
    assert_eq!(start.legal_moves().len(), 48);
    assert_eq!(
        illegal(&start.to_string(), "Pa1Md4"),
        Illegal::TooFewBricks { needed: 2, reserve: 1 },
        "b2 and c3 need two bricks"
    );
}

#[test]
fn a_players_first_turn_puts_only_the_marker() {
    // Yellow's first turn: the seven marker moves of the interval test, no
    // pawn move; the pawn stays on c3 and c4 gets a Yellow brick.
    assert!(pos(PAWN_C3).legal_moves().iter().all(|mv| matches!(mv, Move::Marker(_))));
    assert_eq!(illegal(PAWN_C3, "Pc1"), Illegal::MarkerFirst);
    assert_eq!(illegal(PAWN_C3, "Pe5"), Illegal::MarkerFirst);
    assert_eq!(illegal(PAWN_C3, "Pa3Mc5"), Illegal::NotTheOpening);
    assert_eq!(play(PAWN_C3, "Mc5"), "2Y2/2y2/2P2/1b3/B4 b 15,15 1 2 1,2");
}

#[test]
fn three_players_put_their_markers_in_seat_order() {
    // Pa1Mc1 (b1 Blue). Yellow: from a1, c1 is Blue's marker, d1 has b1 and
    // c1 between (no empty cell), a3 (a2), a4 (a2 a3), c3 (b2), d4 (b2 c3).
    let after_blue = "4/4/4/PbB1 y 15,16,16 1 1 1,-,-";
    assert_eq!(moves(after_blue), sorted(&["Ma3", "Ma4", "Mc3", "Md4"]));
    let after_yellow = play(after_blue, "Ma3");
    assert_eq!(after_yellow, "4/Y3/y3/PbB1 r 15,15,16 1 2 1,2,-");
    // Red's first turn: d1 (b1 b, c1 B) and a4 (a2 y, a3 Y) have nothing to
    // fill; c3 (b2) and d4 (b2 c3) remain. The pawn may not move yet.
    assert_eq!(moves(&after_yellow), sorted(&["Mc3", "Md4"]));
    assert_eq!(illegal(&after_yellow, "Md1"), Illegal::NothingToFill);
    assert_eq!(illegal(&after_yellow, "Ma4"), Illegal::NothingToFill);
    assert_eq!(illegal(&after_yellow, "Pc4"), Illegal::MarkerFirst);
    let after_red = play(&after_yellow, "Md4");
    assert_eq!(after_red, "3R/Y1r1/yr2/PbB1 b 15,15,14 1 3 1,2,3");
    // Blue again, a later turn. Marker (from a1): d1 (b1, c1 lifted: one
    // cell); a4 has nothing to fill; c3, d4 are taken. Pawn (with c1): a3 is
    // Yellow's, c3 Red's brick, c4 has c2 empty and c3: one cell.
    assert_eq!(moves(&after_red), sorted(&["Md1", "Pc4"]));
    assert_eq!(play(&after_red, "Pc4"), "2PR/Y1r1/yrb1/1bB1 y 14,15,14 1 4 4,2,3");
}

/// Blue (marker c1, brick b1) to move; Yellow: marker a3, brick a2; pawn a1.
const LATER_TURN: &str = "4/Y3/y3/PbB1 b 15,15 1 2 1,2";

#[test]
fn a_later_turn_moves_the_own_marker_or_the_pawn() {
    // Marker, to a cell aligned with the pawn a1: d1 (b1, c1 lifted: one
    // empty), c3 (b2), d4 (b2 c3); a4 (a2 y, a3 Y) has nothing to fill.
    // Pawn, to a cell aligned with the marker c1: c3 (c2), c4 (c2 c3); a3 is
    // taken and a1 is where it stands.
    assert_eq!(moves(LATER_TURN), sorted(&["Mc3", "Md1", "Md4", "Pc3", "Pc4"]));
    assert_eq!(illegal(LATER_TURN, "Ma4"), Illegal::NothingToFill);
    assert_eq!(illegal(LATER_TURN, "Mb2"), Illegal::NotAligned);
    assert_eq!(illegal(LATER_TURN, "Pb3"), Illegal::NotAligned);
    assert_eq!(illegal(LATER_TURN, "Pb4Mc3"), Illegal::NotTheOpening);
    assert_eq!(illegal(LATER_TURN, "Me4"), Illegal::OffBoard(cell("e4")));
    // The pawn moves to c4: c2 and c3 filled, a1 left empty.
    assert_eq!(play(LATER_TURN, "Pc4"), "2P1/Y1b1/y1b1/1bB1 y 13,15 1 3 3,2");
}

#[test]
fn a_piece_moves_only_to_another_empty_cell() {
    assert_eq!(illegal(LATER_TURN, "Mc1"), Illegal::Occupied(cell("c1")), "its own cell");
    assert_eq!(illegal(LATER_TURN, "Pa1"), Illegal::Occupied(cell("a1")), "its own cell");
    assert_eq!(illegal(LATER_TURN, "Ma3"), Illegal::Occupied(cell("a3")), "another marker");
    assert_eq!(illegal(LATER_TURN, "Ma2"), Illegal::Occupied(cell("a2")), "a brick");
    assert_eq!(illegal(LATER_TURN, "Pb1"), Illegal::Occupied(cell("b1")), "an own brick");
}

#[test]
fn a_lifted_piece_leaves_its_cell_empty_inside_the_new_interval() {
    // Marker c1 to d1: the interval b1 c1 holds Blue's brick and the cell the
    // marker left, which is filled.
    assert_eq!(play(LATER_TURN, "Md1"), "4/Y3/y3/PbbB y 14,15 1 3 3,2");
    // Pawn c1 to d1 (Blue's marker a1): the interval b1 c1 holds the cell
    // the pawn left, which is filled.
    assert_eq!(play("4/2Y1/2y1/BbP1 b 15,15 1 2 1,2", "Pd1"), "4/2Y1/2y1/BbbP y 14,15 1 3 3,2");
    // Outside the new interval it is simply empty: marker c1 to c3 leaves
    // c1 empty, b1 keeps its brick.
    assert_eq!(play(LATER_TURN, "Mc3"), "4/Y1B1/yb2/Pb2 y 14,15 1 3 3,2");
}

#[test]
fn building_fills_every_empty_cell_of_the_interval() {
    // Pawn a1, Blue's marker to a4 on 5x5 (reserve 2): a2 (own brick), a3
    // (lifted), so one brick; to a5: a3 and a4, two bricks; to e1: b1 y,
    // c1 Y, d1: one brick.
    let line = "5/5/B4/b4/PyY2 b 2,15 1 2 1,2";
    assert_eq!(play(line, "Ma4"), "5/B4/b4/b4/PyY2 y 1,15 1 3 3,2");
    assert_eq!(play(line, "Ma5"), "B4/b4/b4/b4/PyY2 y 0,15 1 3 3,2");
    assert_eq!(play(line, "Me1"), "5/5/5/b4/PyYbB y 1,15 1 3 3,2");
}

#[test]
fn other_pieces_in_the_interval_stay() {
    // 6x6, pawn a1, Blue's marker a4 to f6: the interval b2 (Yellow brick),
    // c3 (Yellow marker), d4 (Blue brick), e5 (empty). Only e5 is filled:
    // one brick; a4 is left empty; a2 a3 (outside) keep their bricks.
    let line = "6/6/B2b2/b1Y3/by4/P5 b 13,15 1 4 3,2";
    let after = play(line, "Mf6");
    assert_eq!(after, "5B/4b1/3b2/b1Y3/by4/P5 y 12,15 1 5 5,2");
    let after = pos(&after);
    assert_eq!(after.piece_at(cell("b2")), Some(Piece::Brick(1)));
    assert_eq!(after.piece_at(cell("c3")), Some(Piece::Marker(1)));
    assert_eq!(after.piece_at(cell("d4")), Some(Piece::Brick(0)));
    assert_eq!(after.piece_at(cell("e5")), Some(Piece::Brick(0)));
    assert_eq!(after.piece_at(cell("a4")), None);
}

#[test]
fn building_needs_at_least_one_empty_cell() {
    // a4: a2 (Yellow brick) and a3 (Yellow marker), nothing to fill.
    assert_eq!(illegal(LATER_TURN, "Ma4"), Illegal::NothingToFill);
    // d1 with the pawn a1: b1 (Yellow brick) and c1 (Yellow marker).
    assert_eq!(illegal("5/5/B4/b4/PyY2 b 2,15 1 2 1,2", "Md1"), Illegal::NothingToFill);
}

#[test]
fn building_needs_no_more_empty_cells_than_bricks() {
    // Blue has 2 bricks. Marker (pawn a1): a4 (a3 lifted: 1), a5 (a3 a4: 2),
    // c3 (b2: 1), d4 (b2 c3: 2), e1 (d1: 1), e5 (b2 c3 d4: 3, too many); d1
    // has nothing to fill. Pawn (marker a3): a5 (a4), c5 (b4), c3 (b3),
    // d3 (b3 c3), e3 (b3 c3 d3: too many); c1 is Yellow's marker.
    let line = "5/5/B4/b4/PyY2 b 2,15 1 2 1,2";
    assert_eq!(moves(line), sorted(&["Ma4", "Ma5", "Mc3", "Md4", "Me1", "Pa5", "Pc3", "Pc5", "Pd3"]));
    assert_eq!(illegal(line, "Me5"), Illegal::TooFewBricks { needed: 3, reserve: 2 });
    assert_eq!(illegal(line, "Pe3"), Illegal::TooFewBricks { needed: 3, reserve: 2 });
}

/// 4x4, Blue (marker a3) to move; the empty cells are a2 and a4 only.
fn too_few(reserve: u8) -> String {
    format!("1byb/Byby/1byb/PyyY b {reserve},10 1 10 9,10")
}

#[test]
fn a_player_with_more_empty_cells_to_fill_than_bricks_is_blocked() {
    // The only building turn is the marker to a4 (a2 empty, a3 lifted: two
    // cells); the pawn's cells a2 and a4 are next to the marker. With one
    // brick, Blue is blocked: its clearing turn a4 would hold no Blue brick,
    // Yellow can clear (pawn to a4: c2 b3 are Yellow's), so Blue passes.
    let one = too_few(1);
    assert!(pos(&one).is_blocked());
    assert_eq!(moves(&one), ["pass"]);
    assert_ne!(illegal(&one, "Ma4"), Illegal::GameOver);
    assert_eq!(play(&one, "pass"), "1byb/Byby/1byb/PyyY y 1,10 2 11 9,10");
    // With three bricks the same turn builds.
    let three = too_few(3);
    assert!(!pos(&three).is_blocked());
    assert_eq!(moves(&three), ["Ma4"]);
    assert_eq!(play(&three, "Ma4"), "Bbyb/byby/bbyb/PyyY y 1,10 1 11 11,10");
}

#[test]
fn placing_the_last_brick_wins_at_once() {
    // Exactly enough: two bricks for a2 and a3 leave Blue with none.
    let after = play(&too_few(2), "Ma4");
    assert_eq!(after, "Bbyb/byby/bbyb/PyyY y 0,10 1 11 11,10");
    assert_eq!(finished(&after), Outcome { winner: Seat::Blue, reason: WinReason::LastBrick });
    // With one brick, Blue's marker to c3 fills b2; Yellow still had turns.
    let after = play("5/5/B4/b4/PyY2 b 1,15 1 2 1,2", "Mc3");
    assert_eq!(after, "5/5/2B2/bb3/PyY2 y 0,15 1 3 3,2");
    assert_eq!(finished(&after), Outcome { winner: Seat::Blue, reason: WinReason::LastBrick });
    // Three players: Red places its last two bricks on b2 c3 with d4.
    let after = play("4/Y3/y3/PbB1 r 15,15,2 1 2 1,2,-", "Md4");
    assert_eq!(after, "3R/Y1r1/yr2/PbB1 b 15,15,0 1 3 1,2,3");
    assert_eq!(finished(&after), Outcome { winner: Seat::Red, reason: WinReason::LastBrick });
}

// ---------------------------------------------------------------- 4. clearing

/// 4x4, phase 1, Blue (marker d4) to move; a3 is the only empty cell, a2
/// holds a Blue brick.
const BLOCKED: &str = "ybyB/1bby/bbyy/PyyY b 11,9 1 10 9,10";
/// The same with a Yellow brick on a2.
const BLOCKED_PASS: &str = "ybyB/1bby/ybyy/PyyY b 12,8 1 10 9,10";

#[test]
fn blockage_starts_clearing_with_the_same_player() {
    // Blue's only cell is a3: the marker there has a2 between it and the pawn
    // a1, a brick (nothing to fill); the pawn cannot go there (a3 and d4 are
    // not aligned). So Blue is blocked and clears first: a2 is Blue's.
    let blocked = pos(BLOCKED);
    assert!(blocked.is_blocked());
    assert_eq!(blocked.mover(), Seat::Blue);
    assert_eq!(moves(BLOCKED), ["Ma3"]);
    // a2 back to Blue's reserve (12), d4 left empty, phase 2, Yellow next.
    let after = play(BLOCKED, "Ma3");
    assert_eq!(after, "yby1/Bbby/1byy/PyyY y 12,9 2 11 11,10");
    assert_eq!(pos(&after).mover(), Seat::Yellow);
}

#[test]
fn a_blocked_position_is_written_phase_1_until_the_first_clearing_turn() {
    let blocked = pos(BLOCKED);
    assert_eq!(blocked.phase(), Phase::Building);
    assert!(BLOCKED.contains(" 1 10 "));
    assert_eq!(pos(&play(BLOCKED, "Ma3")).phase(), Phase::Clearing);
    // A pass starts phase 2 as well.
    assert_eq!(pos(BLOCKED_PASS).phase(), Phase::Building);
    assert_eq!(play(BLOCKED_PASS, "pass"), "ybyB/1bby/ybyy/PyyY y 12,8 2 11 9,10");
    // A position that is not blocked is not: Blue has building turns.
    assert!(!pos(LATER_TURN).is_blocked());
}

#[test]
fn a_clearing_turn_moves_the_own_marker_or_the_pawn_to_an_empty_cell() {
    // After Yellow's clearing Pd4 (d2 d3 back), Blue: marker a3, pawn d4,
    // empty a1 a2 d2 d3. Marker (with d4): a1 (c3 b2, Blue's); d2 has only
    // the empty d3 between; d3 is next to d4. Pawn (with a3): d3 (b3 c3,
    // Blue's); a1 has the empty a2; a2 is next to a3; d2 is off a3's lines.
    let after_yellow = play("yby1/Bbby/1byy/PyyY y 12,9 2 11 11,10", "Pd4");
    assert_eq!(after_yellow, "ybyP/Bbb1/1by1/1yyY b 12,11 2 12 11,12");
    assert_eq!(moves(&after_yellow), sorted(&["Ma1", "Pd3"]));
    assert_eq!(illegal(&after_yellow, "Mb4"), Illegal::Occupied(cell("b4")));
    assert_eq!(illegal(&after_yellow, "Pa3"), Illegal::Occupied(cell("a3")));
    assert_eq!(illegal(&after_yellow, "Pa2"), Illegal::NotAligned);
    // Marker to a1: b2 and c3 back to Blue (14), a3 left empty.
    assert_eq!(play(&after_yellow, "Ma1"), "ybyP/1b2/2y1/ByyY y 14,11 2 13 13,12");
}

#[test]
fn clearing_fills_nothing() {
    // Phase 2, Blue's marker c1 to a4 (pawn a1): a2 (Blue) goes back, a3
    // stays empty. c3 would have only the empty b2 between: nothing to clear.
    let line = "4/4/b3/PyBY b 15,15 2 4 3,4";
    assert_eq!(moves(line), sorted(&["Ma3", "Ma4"]));
    assert_eq!(play(line, "Ma4"), "B3/4/4/Py1Y y 16,15 2 5 5,4");
    assert_eq!(illegal(line, "Mc3"), Illegal::NothingToClear);
}

#[test]
fn clearing_takes_back_only_own_bricks() {
    // d4 is the only empty cell. Marker a4 to d4: b2 (Blue) and c3 (Yellow)
    // between the pawn a1 and d4; only b2 goes back. Pawn a1 to d4: b4
    // (Yellow), c4 (Blue) between it and the marker a4; only c4 goes back.
    // Blue's bricks outside the interval (a3 c2 d3 c1) stay.
    let line = "Byb1/byyb/ybby/PybY b 10,10 2 20 19,18";
    assert_eq!(moves(line), sorted(&["Md4", "Pd4"]));
    assert_eq!(play(line, "Md4"), "1ybB/byyb/y1by/PybY y 11,10 2 21 21,18");
    assert_eq!(play(line, "Pd4"), "By1P/byyb/ybby/1ybY y 11,10 2 21 21,18");
}

#[test]
fn clearing_needs_an_own_brick_in_the_interval() {
    // a2 is Yellow's: Blue's marker to a3 would clear nothing.
    assert_eq!(illegal(BLOCKED_PASS, "Ma3"), Illegal::NothingToClear);
    // Phase 2: from a3 with the pawn d4, the marker to d2 would have the
    // empty d3 between (in phase 1 a building turn), the pawn to a1 the
    // empty a2.
    let line = "ybyP/Bbb1/1by1/1yyY b 12,11 2 12 11,12";
    assert_eq!(illegal(line, "Md2"), Illegal::NothingToClear);
    assert_eq!(illegal(line, "Pa1"), Illegal::NothingToClear);
}

#[test]
fn pass_only_when_unable_to_clear() {
    // Blue's only candidate (marker a3) would clear nothing; Yellow could
    // (marker a3 over its a2), so Blue passes, and only passes.
    assert_eq!(moves(BLOCKED_PASS), ["pass"]);
    // Blue can clear in BLOCKED: no pass.
    assert_eq!(illegal(BLOCKED, "pass"), Illegal::CannotPass);
    // Nor in phase 1 with building turns.
    assert_eq!(illegal(LATER_TURN, "pass"), Illegal::CannotPass);
    // After the pass Yellow clears (marker to a3 over a2; a3 is not on the
    // pawn's lines from d1) and may not pass.
    let after = play(BLOCKED_PASS, "pass");
    assert_eq!(moves(&after), ["Ma3"]);
    assert_eq!(illegal(&after, "pass"), Illegal::CannotPass);
}

#[test]
fn the_game_ends_when_nobody_can_clear() {
    // The game from BLOCKED_PASS: Blue passes, Yellow clears a2 (marker a3);
    // Blue again cannot (a2 d1 empty: the marker to d1 has b1 c1, Yellow's;
    // the pawn to d1 with d4 has d2 d3, Yellow's), Yellow clears b1 c1
    // (marker to d1). Then the empty cells are a2 a3 b1 c1: the only aligned
    // moves (a3 over a2, c1 over b1, b1 over c1) have only empty cells
    // between. Nobody can clear: Blue 12 against Yellow 11.
    let one = play(BLOCKED_PASS, "pass");
    let two = play(&one, "Ma3");
    assert_eq!(two, "ybyB/Ybby/1byy/Pyy1 b 12,9 2 12 9,12");
    assert_eq!(moves(&two), ["pass"]);
    let three = play(&two, "pass");
    assert_eq!(moves(&three), ["Md1"]);
    let four = play(&three, "Md1");
    assert_eq!(four, "ybyB/1bby/1byy/P2Y b 12,11 2 14 9,14");
    assert!(!pos(&four).can_clear(Seat::Blue) && !pos(&four).can_clear(Seat::Yellow));
    assert_eq!(finished(&four), Outcome { winner: Seat::Blue, reason: WinReason::MostBricks });
    // While someone can clear the game goes on, even if the mover cannot.
    assert_eq!(pos(&two).outcome(), None);
    // In phase 1 as well: a2, the only empty cell, is on no line of a1, d4
    // or d1 at two steps or more; nobody can build or clear.
    assert_eq!(finished("ybyB/bbby/1byy/PyyY b 11,9 1 10 9,10").winner, Seat::Blue);
}

#[test]
fn in_a_three_player_game_the_game_ends_when_nobody_can_clear_whoever_is_to_move() {
    // 4x4: c2 is the only empty cell. It is on no line of the pawn a1, nor
    // of the markers d4, d1 at two steps or more; from Red's a4 the pawn
    // would have b3 between, a Blue brick. Nobody can clear.
    for (side, ply) in [("b", 12), ("y", 13), ("r", 14)] {
        let line = format!("RybB/rbbb/rb1y/PyyY {side} 11,12,14 2 {ply} 10,11,12");
        assert_eq!(finished(&line), Outcome { winner: Seat::Red, reason: WinReason::MostBricks });
    }
}

#[test]
fn three_players_pass_until_one_can_clear() {
    // The same with b3 Red's: only Red can clear (pawn a1 to c2, over b3).
    let line = "RybB/rrbb/rb1y/PyyY b 12,12,13 2 12 10,11,12";
    assert_eq!(moves(line), ["pass"]);
    let yellow = play(line, "pass");
    assert_eq!(yellow, "RybB/rrbb/rb1y/PyyY y 12,12,13 2 13 10,11,12");
    assert_eq!(moves(&yellow), ["pass"]);
    let red = play(&yellow, "pass");
    assert_eq!(red, "RybB/rrbb/rb1y/PyyY r 12,12,13 2 14 10,11,12");
    assert_eq!(moves(&red), ["Pc2"]);
    let blue = play(&red, "Pc2");
    assert_eq!(blue, "RybB/r1bb/rbPy/1yyY b 12,12,14 2 15 10,11,15");
    // Blue now: empty a1 b3. The pawn to a1 has c3 b2 (Blue's) between it and
    // d4; a1 is off the pawn c2's lines, b3 next to it and off d4's lines.
    assert_eq!(moves(&blue), ["Pa1"]);
}

#[test]
fn a_player_blocked_at_their_first_turn_passes_in_phase_2() {
    // Three players, Red's first turn: from the pawn a1, c1 d1 a3 c3 d4 are
    // taken and a4 has a2 a3 between, both bricks: no building turn. Red has
    // no marker and no brick, so cannot clear; Blue can (marker to a4 over
    // its a2). Red passes and phase 2 begins.
    let line = "3B/y1b1/bb2/PyyY r 13,13,16 1 2 1,2,-";
    assert!(pos(line).is_blocked());
    assert_eq!(moves(line), ["pass"]);
    let blue = play(line, "pass");
    assert_eq!(blue, "3B/y1b1/bb2/PyyY b 13,13,16 2 3 1,2,-");
    // Blue: only the marker to a4 has a Blue brick (a2) between; the pawn's
    // cells b4 a4 d2 have only empty cells between them and d4.
    assert_eq!(moves(&blue), ["Ma4"]);
    assert_eq!(play(&blue, "Ma4"), "B3/y1b1/1b2/PyyY y 14,13,16 2 4 4,2,-");
}

#[test]
fn most_bricks_in_reserve_wins() {
    // The finished board of the phase-1 test, in phase 2, reserves changed.
    let board = "ybyB/bbby/1byy/PyyY b";
    assert_eq!(
        finished(&format!("{board} 11,9 2 10 9,10")),
        Outcome { winner: Seat::Blue, reason: WinReason::MostBricks }
    );
    // Yellow's later change does not matter when it has more.
    assert_eq!(
        finished(&format!("{board} 5,9 2 10 9,10")),
        Outcome { winner: Seat::Yellow, reason: WinReason::MostBricks }
    );
    // Three players: Blue 14 against two tied 13.
    assert_eq!(
        finished("RybB/rbbb/rb1y/PyyY b 14,13,13 2 15 13,14,12"),
        Outcome { winner: Seat::Blue, reason: WinReason::MostBricks }
    );
}

#[test]
fn ties_go_to_who_reached_the_score_first() {
    let board = "ybyB/bbby/1byy/PyyY b";
    // 9 each: Blue's last change at ply 9, Yellow's at 10: Blue.
    assert_eq!(
        finished(&format!("{board} 9,9 2 10 9,10")),
        Outcome { winner: Seat::Blue, reason: WinReason::TieBreak }
    );
    // Yellow's at 8, Blue's at 9: Yellow.
    assert_eq!(
        finished(&format!("{board} 9,9 2 10 9,8")),
        Outcome { winner: Seat::Yellow, reason: WinReason::TieBreak }
    );
    // Three tied at 12, changes at 13, 11, 12: Yellow.
    assert_eq!(
        finished("RybB/rbbb/rb1y/PyyY b 12,12,12 2 15 13,11,12"),
        Outcome { winner: Seat::Yellow, reason: WinReason::TieBreak }
    );
    // Yellow and Red tied for the most (13), Red's change (12) before
    // Yellow's (14): Red, even though Blue's (13) is in between.
    assert_eq!(
        finished("RybB/rbbb/rb1y/PyyY b 12,13,13 2 15 13,14,12"),
        Outcome { winner: Seat::Red, reason: WinReason::TieBreak }
    );
}

#[test]
fn a_reserve_never_changed_counts_as_ply_0_and_the_earlier_seat_wins() {
    // No bricks on the board: nobody can clear. 16 each; Yellow never
    // changed (ply 0) against Blue's 3: Yellow.
    assert_eq!(finished("4/B3/4/P3 b 16,16 2 4 3,-"), Outcome { winner: Seat::Yellow, reason: WinReason::TieBreak });
    // Yellow and Red never changed, tied at 16: the earlier seat, Yellow.
    assert_eq!(
        finished("4/B3/4/P3 b 15,16,16 2 3 1,-,-"),
        Outcome { winner: Seat::Yellow, reason: WinReason::TieBreak }
    );
    // Red never changed, Yellow did at ply 2: Red, though the later seat.
    assert_eq!(finished("4/B3/4/P2Y r 15,16,16 2 5 4,2,-"), Outcome { winner: Seat::Red, reason: WinReason::TieBreak });
}

#[test]
fn the_changed_field_records_the_ply_after_the_turn() {
    assert_eq!(Position::start(5, 3, 16).unwrap().last_change(Seat::Red), None);
    // Blue's turn at ply 2 builds: changed 3.
    let after = play(LATER_TURN, "Md1");
    assert_eq!(after, "4/Y3/y3/PbbB y 14,15 1 3 3,2");
    assert_eq!(pos(&after).last_change(Seat::Blue), Some(3));
    // Yellow's at ply 3: marker a3 to c3 fills b2, changed 4.
    assert_eq!(play(&after, "Mc3"), "4/2Y1/yy2/PbbB b 14,14 1 4 3,4");
    // A clearing turn at ply 10 (BLOCKED): 11. A pass changes nothing.
    assert_eq!(pos(&play(BLOCKED, "Ma3")).last_change(Seat::Blue), Some(11));
    assert_eq!(pos(&play(BLOCKED_PASS, "pass")).last_change(Seat::Blue), Some(9));
}

#[test]
fn turns_go_round_in_seat_order_passes_included() {
    // pass (Blue), Ma3 (Yellow), pass (Blue), Md1 (Yellow): the mover is
    // always seat ply mod 2.
    let mut line = BLOCKED_PASS.to_string();
    for (ply, (seat, text)) in
        (10..).zip([(Seat::Blue, "pass"), (Seat::Yellow, "Ma3"), (Seat::Blue, "pass"), (Seat::Yellow, "Md1")])
    {
        let position = pos(&line);
        assert_eq!((position.ply(), position.mover()), (ply, seat), "{line}");
        line = play(&line, text);
    }
    // Three players: ply 12, 13, 14 are Blue, Yellow, Red, passes included.
    let mut line = "RybB/rrbb/rb1y/PyyY b 12,12,13 2 12 10,11,12".to_string();
    for (ply, (seat, text)) in (12..).zip([(Seat::Blue, "pass"), (Seat::Yellow, "pass"), (Seat::Red, "Pc2")]) {
        let position = pos(&line);
        assert_eq!((position.ply(), position.mover()), (ply, seat), "{line}");
        line = play(&line, text);
    }
    assert_eq!(pos(&line).mover(), Seat::Blue);
}

// ---------------------------------------------------------------- 5. notation: moves and cells

#[test]
fn moves_are_written_as_the_rules_write_them() {
    let cases = [
        ("Pc3", Move::Pawn(cell("c3"))),
        ("Mc5", Move::Marker(cell("c5"))),
        ("Pc3Mc5", Move::Opening { pawn: cell("c3"), marker: cell("c5") }),
        ("pass", Move::Pass),
        ("Pi9", Move::Pawn(cell("i9"))),
        ("Ma1", Move::Marker(cell("a1"))),
    ];
    for (text, expected) in cases {
        assert_eq!(mv(text), expected, "{text}");
        assert_eq!(expected.to_string(), text);
        assert_eq!(Move::from_bits(expected.to_bits()), Some(expected));
    }
}

#[test]
fn move_readers_accept_lowercase_p_and_m() {
    assert_eq!(mv("pc3"), Move::Pawn(cell("c3")));
    assert_eq!(mv("mc5"), Move::Marker(cell("c5")));
    assert_eq!(mv("pc3mc5").to_string(), "Pc3Mc5");
    assert_eq!(mv("Pc3mc5").to_string(), "Pc3Mc5");
    assert_eq!(mv("pc3Mc5").to_string(), "Pc3Mc5");
}

#[test]
fn nothing_else_is_a_move() {
    assert_eq!("".parse::<Move>(), Err(MoveParseError::Empty));
    for text in [
        "Mc5Pc3", "Pc3Pc5", "Mc3Mc5", "PASS", "Pass", "pas", "passs", " pass", "pass ", "c3", "P", "Pc", "PC3", "Pj1",
        "Pa0", "Pa10", "Xc3", "Bc3", "Pc3 ", "Pc3-Mc5", "Pc3,Mc5", "Pc3Mc", "Pé3", "P\u{0}3",
    ] {
        assert!(text.parse::<Move>().is_err(), "{text:?} is not a move");
    }
}

#[test]
fn cells_are_named_like_chess_squares() {
    let a1 = cell("a1");
    assert_eq!((a1.file(), a1.rank()), (0, 0));
    let c5 = cell("c5");
    assert_eq!((c5.file(), c5.rank()), (2, 4));
    assert_eq!(cell("i9").to_string(), "i9");
    assert!(cell("e5").is_on(5) && !cell("e5").is_on(4));
    for text in ["A1", "j1", "a0", "a10", "1a", "", "a", "c3 ", "é1"] {
        assert!(text.parse::<Cell>().is_err(), "{text:?}");
    }
}

// ---------------------------------------------------------------- 5. notation: positions

#[test]
fn canonical_position_lines_round_trip() {
    for line in [
        "5/5/5/5/5 b 16,16 1 0 -,-",
        "5/5/5/5/5 b 16,16,16 1 0 -,-,-",
        "4/4/4/4 b 1,40 1 0 -,-",
        "9/9/9/9/9/9/9/9/9 b 40,40,40 1 0 -,-,-",
        PAWN_C3,
        LATER_TURN,
        BLOCKED,
        BLOCKED_PASS,
        "6/6/B2b2/b1Y3/by4/P5 b 13,15 1 4 3,2",
        "3R/Y1r1/yr2/PbB1 b 15,15,14 1 3 1,2,3",
        "RybB/rrbb/rb1y/PyyY b 12,12,13 2 12 10,11,12",
        "5/5/2B2/bb3/PyY2 y 0,15 1 3 3,2",
        "4/B3/4/P2Y r 15,16,16 2 5 4,2,-",
    ] {
        pos(line);
    }
}

#[test]
fn readers_may_accept_other_spellings_but_writers_never_produce_them() {
    // Unmerged empty runs and leading zeros: if read, written canonically.
    for (text, canonical) in [
        ("11111/5/5/5/5 b 16,16 1 0 -,-", "5/5/5/5/5 b 16,16 1 0 -,-"),
        ("5/5/5/5/32 b 16,16 1 0 -,-", "5/5/5/5/5 b 16,16 1 0 -,-"),
        ("5/5/5/5/5 b 016,16 1 00 -,-", "5/5/5/5/5 b 16,16 1 0 -,-"),
        ("11Y11/2y2/2P2/1b3/B4 b 15,15 1 2 01,02", "2Y2/2y2/2P2/1b3/B4 b 15,15 1 2 1,2"),
    ] {
        if let Ok(position) = text.parse::<Position>() {
            assert_eq!(position.to_string(), canonical, "{text}");
            assert_eq!(position, pos(canonical));
        }
    }
}

#[test]
fn a_line_has_six_fields_separated_by_single_spaces() {
    assert_eq!(error("5/5/5/5/5 b 16,16 1 0"), PositionError::FieldCount { found: 5 });
    assert_eq!(error("5/5/5/5/5 b 16,16 1 0 -,- 0"), PositionError::FieldCount { found: 7 });
    assert_eq!(error(""), PositionError::FieldCount { found: 0 });
    for text in [
        "5/5/5/5/5  b 16,16 1 0 -,-",
        "5/5/5/5/5\tb 16,16 1 0 -,-",
        " 5/5/5/5/5 b 16,16 1 0 -,-",
        "5/5/5/5/5 b 16,16 1 0 -,- ",
        "5/5/5/5/5 b 16,16 1 0 -,-\n",
    ] {
        assert!(text.parse::<Position>().is_err(), "{text:?}");
    }
}

#[test]
fn the_board_is_square_with_4_to_9_ranks() {
    assert_eq!(error("3/3/3 b 16,16 1 0 -,-"), PositionError::RankCount { ranks: 3 });
    assert_eq!(error("4/4/4 b 16,16 1 0 -,-"), PositionError::RankCount { ranks: 3 });
    assert_eq!(error("9/9/9/9/9/9/9/9/9/9 b 16,16 1 0 -,-"), PositionError::RankCount { ranks: 10 });
    // Four ranks of five cells, five of four: not square.
    assert_eq!(error("5/5/5/5 b 16,16 1 0 -,-"), PositionError::RankLength { rank: 4, cells: 5, size: 4 });
    assert_eq!(error("4/4/4/4/4 b 16,16 1 0 -,-"), PositionError::RankLength { rank: 5, cells: 4, size: 5 });
    pos("4/4/4/4 b 16,16 1 0 -,-");
}

#[test]
fn each_rank_describes_size_cells() {
    assert_eq!(error("5/5/5/5/4 b 16,16 1 0 -,-"), PositionError::RankLength { rank: 1, cells: 4, size: 5 });
    assert_eq!(error("5/5/6/5/5 b 16,16 1 0 -,-"), PositionError::RankLength { rank: 3, cells: 6, size: 5 });
    assert_eq!(error("2Y2/2y2/2P3/1b3/B4 b 15,15 1 2 1,2"), PositionError::RankLength { rank: 3, cells: 6, size: 5 });
    assert_eq!(error("2Y2/2y2/2P2/1b3/B4b b 15,15 1 2 1,2"), PositionError::RankLength { rank: 1, cells: 6, size: 5 });
    assert!("5//5/5/5 b 16,16 1 0 -,-".parse::<Position>().is_err());
}

#[test]
fn board_cells_are_p_byr_markers_byr_bricks_or_digits_1_to_9() {
    assert_eq!(error("2Y2/2y2/2P2/1b3/B3x b 15,15 1 2 1,2"), PositionError::BadBoardChar { rank: 1, found: 'x' });
    assert_eq!(error("2Y2/2y2/2P2/1b3/B04 b 15,15 1 2 1,2"), PositionError::BadBoardChar { rank: 1, found: '0' });
    assert_eq!(error("2Y2/2y2/2p2/1b3/B4 b 15,15 1 2 1,2"), PositionError::BadBoardChar { rank: 3, found: 'p' });
}

#[test]
fn at_most_one_pawn() {
    assert_eq!(error("2Y2/2y2/2P2/1b2P/B4 b 15,15 1 2 1,2"), PositionError::SecondPawn);
}

#[test]
fn at_most_one_marker_per_player() {
    assert_eq!(error("2Y2/2y2/2P2/1b3/B3B b 15,15 1 2 1,2"), PositionError::SecondMarker(Seat::Blue));
    assert_eq!(error("2Y2/2y2/2P2/1b3/B3Y b 15,15 1 2 1,2"), PositionError::SecondMarker(Seat::Yellow));
}

#[test]
fn no_piece_belongs_to_a_seat_beyond_the_players() {
    assert_eq!(error("2Y2/2y2/2P2/1b3/B3R b 15,15 1 2 1,2"), PositionError::NoSuchSeat { found: 'R', players: 2 });
    assert_eq!(error("2Y2/2y2/2P2/1b3/B3r b 15,15 1 2 1,2"), PositionError::NoSuchSeat { found: 'r', players: 2 });
}

#[test]
fn a_marker_is_on_the_board_exactly_when_changed_is_a_number() {
    pos("2Y2/2y2/2P2/1b3/B4 b 15,15 1 2 1,2");
    assert_eq!(error("2Y2/2y2/2P2/1b3/B4 b 15,15 2 2 1,-"), PositionError::MarkerWithoutChange(Seat::Yellow));
    assert_eq!(error("5/5/2P2/1b3/B4 b 15,16 2 2 1,2"), PositionError::ChangeWithoutMarker(Seat::Yellow));
}

#[test]
fn a_player_with_bricks_on_the_board_has_their_marker() {
    assert_eq!(error("5/2y2/2P2/1b3/B4 b 15,15 2 2 1,-"), PositionError::BricksWithoutMarker(Seat::Yellow));
    // Without the brick it is valid (phase 2: Yellow never had a marker).
    pos("5/5/2P2/1b3/B4 b 15,16 2 2 1,-");
}

#[test]
fn changed_numbers_are_from_1_to_ply() {
    let line = "4/2Y1/yy2/PbbB b 14,14 1 4 3,4";
    pos(line);
    assert_eq!(error("4/2Y1/yy2/PbbB b 14,14 1 4 3,6"), PositionError::ChangeOutOfRange { seat: Seat::Yellow, ply: 6 });
    assert_eq!(error("4/2Y1/yy2/PbbB b 14,14 1 4 3,0"), PositionError::ChangeOutOfRange { seat: Seat::Yellow, ply: 0 });
    assert_eq!(error("4/2Y1/yy2/PbbB b 14,14 1 4 5,4"), PositionError::ChangeOutOfRange { seat: Seat::Blue, ply: 5 });
}

#[test]
fn no_two_changed_numbers_are_equal() {
    // Equal numbers cannot both follow their owners' turns, so either
    // reason may be given.
    for line in ["4/2Y1/yy2/PbbB b 14,14 1 4 3,3", "3R/Y1r1/yr2/PbB1 b 15,15,14 1 3 1,2,2"] {
        assert!(
            matches!(error(line), PositionError::SameChangePly(_) | PositionError::ChangeNotOnOwnTurn { .. }),
            "{line}"
        );
    }
}

#[test]
fn changed_numbers_follow_the_players_own_turns() {
    // Two players: Blue's are odd, Yellow's even.
    assert_eq!(error("4/2Y1/yy2/PbbB b 14,14 1 4 2,4"), PositionError::ChangeNotOnOwnTurn { seat: Seat::Blue, ply: 2 });
    assert_eq!(
        error("4/2Y1/yy2/PbbB b 14,14 1 4 3,1"),
        PositionError::ChangeNotOnOwnTurn { seat: Seat::Yellow, ply: 1 }
    );
    // Three players: Blue 1, 4, 7...; Yellow 2, 5...; Red 3, 6...
    pos("3R/Y1r1/yr2/PbB1 b 15,15,14 1 3 1,2,3");
    assert_eq!(
        error("3R/Y1r1/yr2/PbB1 b 15,15,14 1 3 2,2,3"),
        PositionError::ChangeNotOnOwnTurn { seat: Seat::Blue, ply: 2 }
    );
    assert_eq!(
        error("3R/Y1r1/yr2/PbB1 b 15,15,14 1 3 1,3,3"),
        PositionError::ChangeNotOnOwnTurn { seat: Seat::Yellow, ply: 3 }
    );
    assert_eq!(
        error("3R/Y1r1/yr2/PbB1 b 15,15,14 1 3 1,2,1"),
        PositionError::ChangeNotOnOwnTurn { seat: Seat::Red, ply: 1 }
    );
}

#[test]
fn in_phase_1_every_seat_that_has_had_a_turn_has_its_marker() {
    assert_eq!(error("5/5/2P2/1b3/B4 b 15,16 1 2 1,-"), PositionError::MarkerMissing(Seat::Yellow));
    // Red, seat 2, has not had a turn at ply 2.
    pos("4/Y3/y3/PbB1 r 15,15,16 1 2 1,2,-");
    assert_eq!(error("4/Y3/y3/PbB1 b 15,15,16 1 3 1,2,-"), PositionError::MarkerMissing(Seat::Red));
}

#[test]
fn every_reserve_is_at_most_40() {
    pos("5/5/5/5/5 b 40,40 1 0 -,-");
    assert_eq!(error("5/5/5/5/5 b 41,16 1 0 -,-"), PositionError::ReserveTooLarge { seat: Seat::Blue, reserve: 41 });
    assert_eq!(
        error("5/5/5/5/5 b 16,16,100 1 0 -,-,-"),
        PositionError::ReserveTooLarge { seat: Seat::Red, reserve: 100 }
    );
}

#[test]
fn the_side_to_move_is_seat_ply_mod_players() {
    assert_eq!(
        error("5/5/5/5/5 y 16,16 1 0 -,-"),
        PositionError::WrongSide { expected: Seat::Blue, found: Seat::Yellow }
    );
    assert_eq!(
        error("2Y2/2y2/2P2/1b3/B4 y 15,15 1 2 1,2"),
        PositionError::WrongSide { expected: Seat::Blue, found: Seat::Yellow }
    );
    assert_eq!(
        error("4/Y3/y3/PbB1 b 15,15,16 1 2 1,2,-"),
        PositionError::WrongSide { expected: Seat::Red, found: Seat::Blue }
    );
    assert_eq!(error("5/5/5/5/5 r 16,16 1 0 -,-"), PositionError::BadSide("r".into()));
    assert_eq!(error("5/5/5/5/5 B 16,16 1 0 -,-"), PositionError::BadSide("B".into()));
}

#[test]
fn at_ply_0_the_board_is_empty_the_phase_1_and_nothing_changed() {
    assert_eq!(error("5/5/5/5/P4 b 16,16 1 0 -,-"), PositionError::StartNotEmpty);
    assert_eq!(error("5/5/5/5/5 b 16,16 2 0 -,-"), PositionError::StartNotEmpty);
    assert!("5/5/5/5/B4 b 16,16 1 0 1,-".parse::<Position>().is_err());
    assert!("5/5/5/5/5 b 16,16 1 0 1,-".parse::<Position>().is_err());
}

#[test]
fn after_ply_0_the_pawn_is_on_the_board() {
    assert_eq!(error("5/5/5/5/Bb3 y 15,16 1 1 1,-"), PositionError::NoPawn);
    pos("5/5/5/5/Bb1P1 y 15,16 1 1 1,-");
}

#[test]
fn a_zero_reserve_occurs_only_in_phase_1_for_the_player_who_moved_last() {
    pos("5/5/2B2/bb3/PyY2 y 0,15 1 3 3,2");
    assert_eq!(error("5/5/2B2/bb3/PyY2 y 0,15 2 3 3,2"), PositionError::EmptyReserve(Seat::Blue));
    assert_eq!(error("5/5/2B2/bb3/PyY2 y 15,0 1 3 3,2"), PositionError::EmptyReserve(Seat::Yellow));
    assert_eq!(error("5/5/2B2/bb3/PyY2 y 0,0 1 3 3,2"), PositionError::EmptyReserve(Seat::Yellow));
    assert_eq!(error("5/5/5/5/5 b 0,16 1 0 -,-"), PositionError::EmptyReserve(Seat::Blue));
}

#[test]
fn large_plies_are_read_like_small_ones() {
    // The contract bounds no ply. 4294967295 = 2^32 - 1 is odd and a
    // multiple of 3. Two players: Yellow to move, Blue moved last and may
    // have an empty reserve.
    pos("5/5/2B2/bb3/PyY2 y 0,15 1 4294967295 3,2");
    // Three players: Blue to move; the last turn, at ply 4294967294, was
    // Red's (4294967294 mod 3 = 2): Red may have an empty reserve, Yellow
    // and Blue may not.
    pos("3R/Y1r1/yr2/PbB1 b 15,15,0 1 4294967295 1,2,3");
    assert_eq!(error("3R/Y1r1/yr2/PbB1 b 15,0,15 1 4294967295 1,2,3"), PositionError::EmptyReserve(Seat::Yellow));
    assert_eq!(error("3R/Y1r1/yr2/PbB1 b 0,15,15 1 4294967295 1,2,3"), PositionError::EmptyReserve(Seat::Blue));
    // A turn from there counts on: Yellow (seat 1) plays at ply 4294967295,
    // and 4294967296 mod 2 = 0 = (1 + 1) mod 2 as the changed rule asks.
    let mut position = pos("5/5/2B2/bb3/PyY2 y 15,15 1 4294967295 3,2");
    position.try_play("Mc3".parse().unwrap()).expect_err("c3 holds Blue's marker");
    // Yellow's marker from c1 to e1: the interval b1 c1 d1 holds Yellow's
    // brick on b1 and, with the marker lifted, two empty cells to fill.
    position.try_play("Me1".parse().unwrap()).expect("a legal building turn");
    assert_eq!(position.to_string(), "5/5/2B2/bb3/PyyyY b 15,13 1 4294967296 3,4294967296");
    // The largest ply a line may give, 2^63 - 1, is odd too; a turn counts
    // on from it rather than round to 0. One more is refused.
    let mut position = pos(&format!("5/5/2B2/bb3/PyY2 y 15,15 1 {LARGEST_PLY} 3,2"));
    position.try_play(mv("Me1")).expect("a legal building turn");
    let next = u128::from(LARGEST_PLY) + 1;
    assert_eq!(position.to_string(), format!("5/5/2B2/bb3/PyyyY b 15,13 1 {next} 3,{next}"));
    let beyond = format!("5/5/2B2/bb3/PyY2 y 15,15 1 {next} 3,2");
    assert_eq!(error(&beyond), PositionError::BadPly(next.to_string()));
}

#[test]
fn reserves_set_the_number_of_players() {
    assert_eq!(pos("5/5/5/5/5 b 16,16 1 0 -,-").players(), 2);
    assert_eq!(pos("5/5/5/5/5 b 16,16,16 1 0 -,-,-").players(), 3);
    assert_eq!(error("5/5/5/5/5 b 16 1 0 -"), PositionError::ReserveCount { found: 1 });
    assert_eq!(error("5/5/5/5/5 b 16,16,16,16 1 0 -,-,-,-"), PositionError::ReserveCount { found: 4 });
    for reserves in ["16,x", "+5,16", "16,-1", "16,,16", "16;16", "1e1,16"] {
        let line = format!("5/5/5/5/5 b {reserves} 1 0 -,-");
        assert_eq!(error(&line), PositionError::BadReserves(reserves.into()), "{line}");
    }
}

#[test]
fn changed_has_one_entry_per_player() {
    assert_eq!(error("5/5/5/5/5 b 16,16 1 0 -,-,-"), PositionError::ChangedCount { found: 3, players: 2 });
    assert_eq!(error("5/5/5/5/5 b 16,16,16 1 0 -,-"), PositionError::ChangedCount { found: 2, players: 3 });
    assert_eq!(error("5/5/5/5/5 b 16,16 1 0 -,x"), PositionError::BadChanged("-,x".into()));
    assert_eq!(error("5/5/5/5/5 b 16,16 1 0 -,+1"), PositionError::BadChanged("-,+1".into()));
}

#[test]
fn the_phase_is_1_or_2_and_the_ply_a_whole_number() {
    assert_eq!(error("5/5/5/5/5 b 16,16 3 0 -,-"), PositionError::BadPhase("3".into()));
    assert_eq!(error("5/5/5/5/5 b 16,16 0 0 -,-"), PositionError::BadPhase("0".into()));
    assert_eq!(error("5/5/5/5/5 b 16,16 1 x -,-"), PositionError::BadPly("x".into()));
    assert_eq!(error("5/5/5/5/5 b 16,16 1 -1 -,-"), PositionError::BadPly("-1".into()));
}

#[test]
fn valid_positions_need_not_be_reachable() {
    // Unequal reserves (a handicap), more bricks than a reserve started with.
    pos("5/5/5/5/5 b 3,40 1 0 -,-");
    pos("5/5/B4/b4/PyY2 b 2,15 1 2 1,2");
    pos("4/B3/4/P3 b 16,16 2 4 3,-");
}
