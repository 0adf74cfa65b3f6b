//! `position`, `newgame` and every `query`, through the real binary:
//! positions from the start and from position lines, finished games, and
//! illegal moves that lose the game for the side that tried them.

mod protocol_common;

use std::sync::Arc;
use std::time::Instant;

use podium::games::pods::{GameRecord, Position, Rotation, Rules, Variant};
use protocol_common::{EngineProcess, REPLY_TIMEOUT, START};

/// The position line the rules library reaches from `start` with `moves`.
fn expected_line(variant: Variant, start: &str, moves: &[&str]) -> String {
    let rules = Arc::new(Rules::default_for(variant));
    let position = Position::parse(start, &rules).expect("a valid start");
    let mut game = GameRecord::new(rules, position);
    for mv in moves {
        game.play(mv.parse().expect("a move")).expect("a legal move");
    }
    game.position().to_string()
}

#[test]
fn startpos_with_moves_gives_the_expected_position_line() {
    let mut engine = EngineProcess::start();
    engine.send("position startpos");
    assert_eq!(engine.query("fen"), START);
    assert_eq!(engine.query("p1turn"), "true");
    engine.send("position startpos moves A@c3");
    assert_eq!(engine.query("fen"), "6/6/6/2A3/6/6 b BCDEFGHIJKLMNabcdefghijklmn 0 1");
    assert_eq!(engine.query("p1turn"), "false");
    let moves = ["A@c1", "n@d5", "N@b6", "l@e3"];
    engine.send(&format!("position startpos moves {}", moves.join(" ")));
    assert_eq!(engine.query("fen"), expected_line(Variant::Standard, START, &moves));
    assert_eq!(engine.query("gameover"), "false");
    assert_eq!(engine.query("result"), "none");
    assert_eq!(engine.sync(), Vec::<String>::new(), "no complaint about any of it");
}

#[test]
fn fen_with_moves_gives_the_expected_position_line() {
    let mut engine = EngineProcess::start();
    let start = "1N4/3n2/6/6/6/2A3 b BCDEFGHIJKLMabcdefghijklm 0 3";
    engine.send(&format!("position fen {start}"));
    assert_eq!(engine.query("fen"), start);
    engine.send(&format!("position fen {start} moves L@e3 B@a6"));
    assert_eq!(engine.query("fen"), expected_line(Variant::Standard, start, &["L@e3", "B@a6"]));
    // The same game through startpos and through the start position's line.
    engine.send("position startpos moves A@c1 N@d5 N@b6");
    assert_eq!(engine.query("fen"), start);
    engine.send(&format!("position fen {START} moves A@c1 N@d5 N@b6"));
    assert_eq!(engine.query("fen"), start);
}

#[test]
fn newgame_sets_variant_and_rotation_for_startpos() {
    let mut engine = EngineProcess::start();
    engine.send("newgame advanced rotation 90");
    engine.send("position startpos moves A@c3 b@d4");
    let advanced_rules = Arc::new(Rules::default_for(Variant::Advanced));
    let start = Position::start(&advanced_rules, Rotation::R90).to_string();
    assert_eq!(engine.query("fen"), expected_line(Variant::Advanced, &start, &["A@c3", "b@d4"]));
    // Pods move in the advanced game: c3 along A's east leg to d3.
    assert_eq!(engine.query("islegal c3d3"), expected_islegal(Variant::Advanced, &start, &["A@c3", "b@d4"], "c3d3"));
    // uginewgame keeps the variant and the rotation.
    engine.send("uginewgame");
    engine.send("position startpos");
    assert_eq!(engine.query("fen"), start);
    engine.send("newgame standard rotation 0");
    engine.send("position startpos");
    assert_eq!(engine.query("fen"), START);
    assert_eq!(engine.query("islegal a1a2"), "false");
}

fn expected_islegal(variant: Variant, start: &str, moves: &[&str], mv: &str) -> String {
    let rules = Arc::new(Rules::default_for(variant));
    let mut game = GameRecord::new(Arc::clone(&rules), Position::parse(start, &rules).unwrap());
    for played in moves {
        game.play(played.parse().unwrap()).unwrap();
    }
    game.play(mv.parse().unwrap()).is_ok().to_string()
}

#[test]
fn islegal_judges_moves_and_non_moves() {
    let mut engine = EngineProcess::start();
    engine.send("position startpos");
    for (mv, expected) in
        [("A@c3", "true"), ("a@c3", "true"), ("N@c3", "false"), ("a1a2", "false"), ("nonsense", "false")]
    {
        assert_eq!(engine.query(&format!("islegal {mv}")), expected, "{mv}");
    }
}

#[test]
fn a_standard_side_to_move_with_an_empty_hand_has_lost() {
    let mut engine = EngineProcess::start();
    // White to move with nothing in hand: White has no move and loses.
    engine.send("position fen 1n4/6/6/6/6/A5 w bc 0 9");
    assert_eq!(engine.query("gameover"), "true");
    assert_eq!(engine.query("p1turn"), "true");
    assert_eq!(engine.query("result"), "p2win");
    assert_eq!(engine.query("islegal a1b1"), "false");
    let sent = Instant::now();
    let (_, mv) = engine.search("go infinite", REPLY_TIMEOUT);
    assert_eq!(mv, "(none)");
    assert!(sent.elapsed() < protocol_common::PROMPTLY, "a finished game is answered at once");
    engine.send("moves");
    assert_eq!(engine.read_line(REPLY_TIMEOUT), "(none)");
    // Black to move with an empty hand: Black loses, whoever has pods.
    engine.send("position fen 6/6/6/6/6/6 b ABC 0 3");
    assert_eq!(
        (engine.query("gameover"), engine.query("p1turn"), engine.query("result")),
        ("true".into(), "false".into(), "p1win".into())
    );
}

#[test]
fn an_advanced_game_is_won_by_emptying_the_hand() {
    let mut engine = EngineProcess::start();
    engine.send("newgame advanced");
    // White moved last and has nothing left in hand: White has won.
    engine.send("position fen 1n4/6/6/6/6/A5 b bc 0 9");
    assert_eq!(engine.query("gameover"), "true");
    assert_eq!(engine.query("result"), "p1win");
    let (_, mv) = engine.search("go depth 3", REPLY_TIMEOUT);
    assert_eq!(mv, "(none)");
    // The side to move with an empty hand cannot arise in the advanced game.
    engine.send("position fen 1n4/6/6/6/6/A5 w bc 0 9");
    let error = engine.read_line(REPLY_TIMEOUT);
    assert!(error.starts_with("info string error: invalid position: "), "{error}");
    assert_eq!(engine.query("fen"), "1n4/6/6/6/6/A5 b bc 0 9", "the previous position stays");
}

#[test]
fn an_illegal_move_in_moves_loses_for_the_side_that_tried_it() {
    let mut engine = EngineProcess::start();
    engine.send("position startpos moves A@c3 N@c3");
    assert_eq!(
        engine.read_line(REPLY_TIMEOUT),
        "info string error: illegal move N@c3 at index 1: the point is occupied"
    );
    assert_eq!(engine.query("fen"), "6/6/6/2A3/6/6 b BCDEFGHIJKLMNabcdefghijklmn 0 1", "stopped before the move");
    assert_eq!(engine.query("gameover"), "true");
    assert_eq!(engine.query("result"), "p1win", "Black tried it, White wins");
    assert_eq!(engine.query("p1turn"), "false");
    let (_, mv) = engine.search("go depth 2", REPLY_TIMEOUT);
    assert_eq!(mv, "(none)");

    // White's first move must place a two-legged pod.
    engine.send("position startpos moves N@c3");
    let error = engine.read_line(REPLY_TIMEOUT);
    assert_eq!(error, "info string error: illegal move N@c3 at index 0: the first move must place a two-legged pod");
    assert_eq!((engine.query("gameover"), engine.query("result")), ("true".into(), "p2win".into()));

    // Text that is not a move at all counts the same way.
    engine.send("position startpos moves A@c3 hello");
    let error = engine.read_line(REPLY_TIMEOUT);
    assert!(error.starts_with("info string error: illegal move hello at index 1: 'hello' is not a move"), "{error}");
    assert_eq!(engine.query("result"), "p1win");

    // The next good position starts afresh.
    engine.send("position startpos moves A@c3");
    assert_eq!((engine.query("gameover"), engine.query("result")), ("false".into(), "none".into()));
}

#[test]
fn max_plies_draws_the_game_at_that_ply() {
    let mut engine = EngineProcess::start();
    engine.send("setoption name MaxPlies value 2");
    engine.send("position startpos moves A@c3");
    assert_eq!((engine.query("gameover"), engine.query("result")), ("false".into(), "none".into()));
    engine.send("position startpos moves A@c3 n@f6");
    assert_eq!((engine.query("gameover"), engine.query("result")), ("true".into(), "draw".into()));
    let (_, mv) = engine.search("go movetime 50", REPLY_TIMEOUT);
    assert_eq!(mv, "(none)");
    // A move past the end is reported but does not change the result.
    engine.send("position startpos moves A@c3 n@f6 B@a1");
    let error = engine.read_line(REPLY_TIMEOUT);
    assert_eq!(error, "info string error: illegal move B@a1 at index 2: the game is over");
    assert_eq!(engine.query("result"), "draw");
    engine.send("setoption name MaxPlies value 0");
    engine.send("position startpos moves A@c3 n@f6");
    assert_eq!(engine.query("gameover"), "false");
}

/// MaxPlies takes the game as it stands: no move is replayed or reported
/// again, the position stays, and a result already reached stays.
#[test]
fn max_plies_applies_to_the_game_as_it_stands() {
    let mut engine = EngineProcess::start();
    let quietly = |engine: &mut EngineProcess, command: &str| {
        engine.send(command);
        engine.send("isready");
        assert_eq!(engine.read_line(REPLY_TIMEOUT), "readyok", "{command} answered");
    };
    engine.send("position startpos moves A@c3 n@f6");
    let fen = engine.query("fen");
    quietly(&mut engine, "setoption name MaxPlies value 1");
    assert_eq!((engine.query("fen"), engine.query("result")), (fen.clone(), "draw".into()));
    quietly(&mut engine, "setoption name MaxPlies value 0");
    assert_eq!((engine.query("fen"), engine.query("result")), (fen, "none".into()));

    engine.send("position startpos moves A@c3 b@d4 C@a1 Z@z9");
    let error = engine.read_line(REPLY_TIMEOUT);
    assert!(error.starts_with("info string error: illegal move Z@z9 at index 3"), "{error}");
    quietly(&mut engine, "setoption name MaxPlies value 3");
    assert_eq!(engine.query("result"), "p1win");
}

#[test]
fn changing_the_rules_starts_a_new_game() {
    let mut engine = EngineProcess::start();
    engine.send("position startpos moves A@c3");
    engine.send("setoption name Rotation value 180");
    assert_eq!(engine.query("fen"), START.replace(" 0 0", " 180 0"));
    engine.send("setoption name Pods value A=W:s,E:s;B=N:l,S:s;C=N:s");
    assert_eq!(engine.query("fen"), "6/6/6/6/6/6 w ABCabc 180 0");
    engine.send("position fen 6/6/6/6/6/6 w ABCDabcd 0 0");
    let error = engine.read_line(REPLY_TIMEOUT);
    assert!(error.starts_with("info string error: invalid position: hands: 'D' is not a pod of this set"), "{error}");
}

#[test]
fn d_moves_and_eval_describe_the_position() {
    let mut engine = EngineProcess::start();
    engine.send("position startpos moves A@a1 b@f6");
    engine.send("d");
    let picture: Vec<String> = (0..13).map(|_| engine.read_line(REPLY_TIMEOUT)).collect();
    assert_eq!(picture[0], "o-o-o-o-o-b");
    assert_eq!(picture[10], "A-o-o-o-o-o");
    assert_eq!(picture[11], format!("fen {}", expected_line(Variant::Standard, START, &["A@a1", "b@f6"])));
    assert_eq!(picture[12], "turn White");
    engine.send("moves");
    let moves = engine.read_line(REPLY_TIMEOUT);
    assert!(moves.split(' ').all(protocol_common::is_move), "{moves}");
    assert!(moves.split(' ').count() > 10, "{moves}");
    engine.send("eval");
    let eval = engine.read_line(REPLY_TIMEOUT);
    assert!(eval.starts_with("eval White to move: ") && eval.contains(" total "), "{eval}");
}
