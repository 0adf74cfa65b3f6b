//! POLD.R through the real binary: selecting it by `newgame` and by options,
//! position lines, moves, every query, the picture, the evaluation, perft,
//! searches, and bad input that leaves the previous position in place.

mod protocol_common;

use std::time::Duration;

use podium::games::poldr::{Position, Seat, perft};
use protocol_common::{EngineProcess, check_search_output};

const START: &str = "5/5/5/5/5 b 16,16 1 0 -,-";

/// The position line the rules library reaches from `start` with `moves`.
fn expected_line(start: &str, moves: &[&str]) -> String {
    let mut position: Position = start.parse().expect("a valid start");
    for mv in moves {
        position.try_play(mv.parse().expect("a move")).expect("a legal move");
    }
    position.to_string()
}

#[test]
fn newgame_poldr_selects_the_game_with_its_settings() {
    let mut engine = EngineProcess::start();
    engine.send("newgame poldr");
    engine.send("position startpos");
    assert_eq!(engine.query("fen"), START);
    engine.send("newgame poldr players 3 size 6 bricks 9");
    engine.send("position startpos");
    assert_eq!(engine.query("fen"), "6/6/6/6/6/6 b 9,9,9 1 0 -,-,-");
    // What newgame does not name keeps its value.
    engine.send("newgame poldr players 2");
    engine.send("position startpos");
    assert_eq!(engine.query("fen"), "6/6/6/6/6/6 b 9,9 1 0 -,-");
    engine.send("newgame standard");
    engine.send("position startpos");
    assert_eq!(engine.query("fen"), protocol_common::START);
    assert_eq!(engine.sync(), Vec::<String>::new());
}

#[test]
fn options_alone_select_poldr_as_cutegames_sends_them() {
    let mut engine = EngineProcess::start();
    for line in ["setoption name Game value poldr", "setoption name Size value 4", "setoption name Bricks value 3"] {
        engine.send(line);
    }
    engine.send("position startpos");
    assert_eq!(engine.query("fen"), "4/4/4/4 b 3,3 1 0 -,-");
    engine.send("setoption name Players value 3");
    engine.send("position startpos");
    assert_eq!(engine.query("fen"), "4/4/4/4 b 3,3,3 1 0 -,-,-");
    let errors = {
        engine.send("setoption name Game value chess");
        engine.send("setoption name Size value 10");
        engine.sync()
    };
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors.iter().all(|line| line.starts_with("info string error: ")), "{errors:?}");
}

#[test]
fn moves_queries_and_position_lines() {
    let mut engine = EngineProcess::start();
    engine.send("newgame poldr");
    let moves = ["Pc3Me5", "Ma1", "pe1"];
    engine.send(&format!("position startpos moves {}", moves.join(" ")));
    assert_eq!(engine.query("fen"), expected_line(START, &moves));
    assert_eq!(engine.query("turn"), "p2");
    assert_eq!(engine.query("p1turn"), "false");
    assert_eq!(engine.query("gameover"), "false");
    assert_eq!(engine.query("result"), "none");
    assert_eq!(engine.query("islegal Pa3"), "true");
    assert_eq!(engine.query("islegal Pb3"), "false");
    assert_eq!(engine.query("islegal Pc3Me5"), "false");
    assert_eq!(engine.query("islegal nonsense"), "false");
    // A position line of the game, then its moves.
    let line = expected_line(START, &moves);
    engine.send(&format!("position fen {line} moves Pa3"));
    assert_eq!(engine.query("fen"), expected_line(START, &["Pc3Me5", "Ma1", "Pe1", "Pa3"]));
    assert_eq!(engine.query("turn"), "p1");
    assert_eq!(engine.sync(), Vec::<String>::new());
}

#[test]
fn the_last_brick_wins_and_is_reported() {
    let mut engine = EngineProcess::start();
    engine.send("newgame poldr bricks 3");
    engine.send("position startpos moves Pa1Me5");
    assert_eq!(engine.query("gameover"), "true");
    assert_eq!(engine.query("result"), "p1win");
    let (infos, mv) = engine.search("go depth 3", Duration::from_secs(10));
    assert_eq!(mv, "(none)", "{infos:?}");
}

#[test]
fn an_illegal_move_loses_for_the_player_who_tried_it() {
    let mut engine = EngineProcess::start();
    engine.send("newgame poldr");
    engine.send("position startpos moves Pc3Me5 Mc4");
    let errors = engine.sync();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("info string error: illegal move Mc4 at index 1: "), "{errors:?}");
    assert_eq!(engine.query("fen"), expected_line(START, &["Pc3Me5"]));
    assert_eq!(engine.query("gameover"), "true");
    assert_eq!(engine.query("result"), "p1win");
}

#[test]
fn a_bad_or_foreign_position_line_keeps_the_previous_position() {
    let mut engine = EngineProcess::start();
    engine.send("newgame poldr");
    engine.send("position startpos moves Pc3Me5");
    let before = engine.query("fen");
    engine.send("position fen 5/5/5/5/5 y 16,16 1 0 -,-");
    engine.send(&format!("position fen {}", protocol_common::START));
    let errors = engine.sync();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].contains("Yellow") || errors[0].contains("side"), "{errors:?}");
    assert!(errors[1].contains("this is a Pods position"), "{errors:?}");
    assert_eq!(engine.query("fen"), before);
    // And the reverse: a POLD.R line while Pods is selected.
    engine.send("newgame standard");
    engine.send(&format!("position fen {START}"));
    let errors = engine.sync();
    assert!(errors.len() == 1 && errors[0].contains("this is a POLD.R position"), "{errors:?}");
}

#[test]
fn picture_moves_eval_and_perft() {
    let mut engine = EngineProcess::start();
    engine.send("newgame poldr");
    engine.send("position startpos moves Pa1Me5");
    engine.send("d");
    let picture = engine.sync();
    assert_eq!(picture[0], "5 . . . . B", "{picture:?}");
    assert_eq!(picture[3], "2 . b . . .", "{picture:?}");
    assert_eq!(picture[4], "1 P . . . .", "{picture:?}");
    assert_eq!(picture[5], "  a b c d e", "{picture:?}");
    assert!(picture.iter().any(|line| line == "reserves Blue 13, Yellow 16"), "{picture:?}");
    engine.send("moves");
    let moves = engine.sync();
    let position = expected_line(START, &["Pa1Me5"]).parse::<Position>().unwrap();
    assert_eq!(moves[0].split(' ').count() as u64, perft(&position, 1), "{moves:?}");
    engine.send("eval");
    assert!(engine.sync()[0].starts_with("eval Yellow to move: score "));
    engine.send("go perft 2");
    let lines = engine.read_until(|line| line.starts_with("nodes "), protocol_common::REPLY_TIMEOUT);
    assert_eq!(lines.last().map(String::as_str), Some(format!("nodes {}", perft(&position, 2)).as_str()));
}

#[test]
fn searches_answer_legal_moves_and_prove_small_games() {
    let mut engine = EngineProcess::start();
    engine.send("newgame poldr size 4");
    engine.send("position startpos");
    let (infos, mv) = engine.search("go depth 4", Duration::from_secs(20));
    check_search_output(&infos, &mv);
    assert_eq!(engine.query(&format!("islegal {mv}")), "true");
    // Three bricks on 5x5: Blue fills a three-cell interval at once.
    engine.send("newgame poldr size 5 bricks 3");
    engine.send("position startpos");
    let (infos, mv) = engine.search("go movetime 2000", Duration::from_secs(20));
    check_search_output(&infos, &mv);
    assert!(infos.last().unwrap().contains(" score mate 1 "), "{infos:?}");
}

#[test]
fn the_default_start_is_proved_a_first_player_win_and_the_win_is_kept() {
    let mut engine = EngineProcess::start();
    engine.send("newgame poldr");
    engine.send("position startpos");
    engine.send("go infinite");
    // The start's win is carried (src/games/poldr/book), reported at once;
    // the bound is generous for a loaded machine.
    let infos = engine.read_until(|line| line.contains(" score mate "), Duration::from_secs(60));
    let carried = infos.last().expect("a line").clone();
    assert!(!carried.contains(" score mate -"), "Blue wins: {carried}");
    let first: String = carried.split(" pv ").nth(1).unwrap().split(' ').next().unwrap().to_string();
    // Under go infinite the answer waits for stop, even with the win known.
    std::thread::sleep(Duration::from_millis(200));
    let early = engine.sync();
    assert!(early.iter().all(|line| !line.starts_with("bestmove ")), "{early:?}");
    engine.send("stop");
    let bestmove = engine.read_until(|line| line.starts_with("bestmove "), Duration::from_secs(10)).pop().unwrap();
    assert_eq!(bestmove, format!("bestmove {first}"));
    // The carried win names its move; Yellow's search after it proves the
    // loss, with the whole line.
    engine.send(&format!("position startpos moves {first}"));
    let (infos, mv) = engine.search("go movetime 2000", Duration::from_secs(60));
    check_search_output(&infos, &mv);
    let proof = infos.last().unwrap().clone();
    assert!(proof.contains(" score mate -"), "Yellow loses: {proof}");
    let mut pv: Vec<String> = vec![first];
    pv.extend(proof.split(" pv ").nth(1).unwrap().split(' ').map(str::to_string));
    // Along the proof's line, the winner's every later search proves the win again.
    for blue_turn in [2, 4, 6] {
        engine.send(&format!("position startpos moves {}", pv[..blue_turn].join(" ")));
        let (infos, mv) = engine.search("go movetime 2000", Duration::from_secs(30));
        check_search_output(&infos, &mv);
        let last = infos.last().unwrap();
        assert!(last.contains(" score mate ") && !last.contains(" score mate -"), "{last}");
    }
}

/// A 7x7 position of a yardstick game (issue #37), Yellow to move and
/// winning: the first proof its search finds wins in at most 14 of its
/// moves, and a quicker win exists.
const QUICKER_WIN: &str = "Pc1Mg1 Mc7 Pb6 Mg6 Pa7 Mg7 Ma3 Ma1 Pc1 Mg5 Ma1 Pb5 Pa7 Pg2 Me4 Pg1 Mg7 Ma1 Ma7";

/// The moves of a mate of `line` (`score mate N`), if it is one.
fn mate_of(line: &str) -> Option<i32> {
    line.split(" score mate ").nth(1)?.split(' ').next()?.parse().ok()
}

#[test]
fn the_time_left_after_a_proof_goes_to_a_quicker_win() {
    let moves: Vec<&str> = QUICKER_WIN.split(' ').collect();
    // The proof alone, as `podium solve` finds it.
    let solved = std::process::Command::new(env!("CARGO_BIN_EXE_podium"))
        .args(["solve", "--game", "poldr", "--size", "7", "--bricks", "24", "--json", "--moves"])
        .args(&moves)
        .output()
        .expect("podium solve runs");
    let solved = String::from_utf8(solved.stdout).expect("text");
    let proof_mate: i32 =
        solved.split("\"mate\":").nth(1).and_then(|rest| rest.split(',').next()?.parse().ok()).expect(&solved);
    let proof_move = solved.split("\"line\":[\"").nth(1).and_then(|rest| rest.split('"').next()).expect(&solved);
    // A search with time to spare proves the win, then searches on for a
    // quicker one until it is sure of the quickest (well before the limit,
    // which only a very slow machine reaches), and answers when the fixed
    // time is spent, proved or not.
    let mut engine = EngineProcess::start();
    engine.send("newgame poldr size 7 bricks 24");
    engine.send(&format!("position startpos moves {QUICKER_WIN}"));
    let sent = std::time::Instant::now();
    let (infos, mv) = engine.search("go movetime 5000", Duration::from_secs(30));
    assert!(sent.elapsed() >= Duration::from_secs(4), "answered after {:?}", sent.elapsed());
    check_search_output(&infos, &mv);
    let last = infos.last().expect("a line");
    let mate = mate_of(last).expect(last);
    assert!(0 < mate && mate < proof_mate, "a quicker win than the proof's {proof_mate}: {last}");
    assert_ne!(mv, proof_move, "searching on changes the move: {last}");
    // Its line is the win it claims: Yellow wins when it ends, after as
    // many of Yellow's moves as the score says.
    let start = "7/7/7/7/7/7/7 b 24,24 1 0 -,-";
    let mut position: Position = expected_line(start, &moves).parse().expect("a position");
    let pv: Vec<&str> = last.split(" pv ").nth(1).expect(last).split(' ').collect();
    assert_eq!(pv[0], mv);
    for played in &pv {
        assert!(position.outcome().is_none(), "the line goes on after the end: {last}");
        position.try_play(played.parse().expect("a move")).expect("a legal move");
    }
    assert_eq!(position.outcome().map(|outcome| outcome.winner), Some(Seat::Yellow), "{last}");
    assert_eq!(pv.len() as i32, 2 * mate - 1, "{last}");
    // Under go infinite too, from a new game's empty tables: the proof,
    // then the same quickest win, then nothing until stop.
    engine.send("newgame poldr size 7 bricks 24");
    engine.send(&format!("position startpos moves {QUICKER_WIN}"));
    engine.send("go infinite");
    let infos = engine.read_until(|line| mate_of(line) == Some(mate), Duration::from_secs(90));
    let first_proof = infos.iter().find_map(|line| mate_of(line)).expect("a proof reported");
    assert!(first_proof > mate, "the proof first, then the quicker win: {infos:?}");
    std::thread::sleep(Duration::from_millis(200));
    assert!(engine.sync().iter().all(|line| !line.starts_with("bestmove ")), "go infinite waits for stop");
    engine.send("stop");
    let bestmove = engine.read_until(|line| line.starts_with("bestmove "), Duration::from_secs(10)).pop().unwrap();
    let quickest = infos.last().expect("a line");
    let first = quickest.split(" pv ").nth(1).expect(quickest).split(' ').next().unwrap();
    assert_eq!(bestmove, format!("bestmove {first}"));
}

const START_3: &str = "5/5/5/5/5 b 16,16,16 1 0 -,-,-";

/// The first line of play from `start` (depth first, moves in generation
/// order) that ends with `winner` winning, found by the rules library.
fn line_won_by(start: &str, winner: Seat) -> Vec<String> {
    fn search(position: &Position, winner: Seat, line: &mut Vec<String>) -> bool {
        if let Some(outcome) = position.outcome() {
            return outcome.winner == winner;
        }
        for mv in position.legal_moves() {
            let mut next = *position;
            next.try_play(mv).expect("a generated move");
            line.push(mv.to_string());
            if search(&next, winner, line) {
                return true;
            }
            line.pop();
        }
        false
    }
    let mut line = Vec::new();
    assert!(search(&start.parse().expect("a valid start"), winner, &mut line), "no line won by {winner:?}");
    line
}

#[test]
fn three_players_are_selected_by_their_position_line_and_take_turns() {
    let mut engine = EngineProcess::start();
    // Pods is selected: the line itself says POLD.R is not, so it is refused.
    engine.send(&format!("position fen {START_3}"));
    assert!(engine.sync()[0].contains("this is a POLD.R position"));
    engine.send("setoption name Game value poldr");
    engine.send(&format!("position fen {START_3}"));
    assert_eq!(engine.query("fen"), START_3);
    let moves = ["Pc3Me5", "Ma1", "Ma5", "Pe1"];
    for (played, expected) in ["p1", "p2", "p3", "p1", "p2"].iter().enumerate() {
        engine.send(&format!("position fen {START_3} moves {}", moves[..played].join(" ")));
        assert_eq!(engine.query("turn"), *expected, "after {played} moves");
        assert_eq!(engine.query("p1turn"), (*expected == "p1").to_string());
    }
    assert_eq!(engine.query("fen"), expected_line(START_3, &moves));
    assert_eq!(engine.query("result"), "none");
    assert_eq!(engine.sync(), Vec::<String>::new());
}

#[test]
fn the_third_player_can_win_and_is_reported() {
    let start = "4/4/4/4 b 2,2,2 1 0 -,-,-";
    let line = line_won_by(start, Seat::Red);
    let mut engine = EngineProcess::start();
    engine.send("newgame poldr players 3 size 4 bricks 2");
    engine.send(&format!("position startpos moves {}", line.join(" ")));
    assert_eq!(engine.query("gameover"), "true");
    assert_eq!(engine.query("result"), "p3win");
    engine.send("d");
    let picture = engine.sync();
    assert!(picture.iter().any(|line| line.starts_with("game over: Red wins")), "{picture:?}");
    // An illegal move by Red, whoever stands best, never makes Red the winner.
    engine.send(&format!("position startpos moves {} Qa1", line[..line.len() - 1].join(" ")));
    assert_eq!(engine.sync().len(), 1, "the illegal move is reported");
    assert_eq!(engine.query("gameover"), "true");
    assert_ne!(engine.query("result"), "p3win");
}

#[test]
fn three_player_picture_eval_and_clocks() {
    let mut engine = EngineProcess::start();
    engine.send("newgame poldr players 3 size 7 bricks 30");
    let moves = ["Pd4Md7", "Ma1"];
    engine.send(&format!("position startpos moves {}", moves.join(" ")));
    assert_eq!(engine.query("turn"), "p3");
    engine.send("d");
    let picture = engine.sync();
    let position: Position = expected_line("7/7/7/7/7/7/7 b 30,30,30 1 0 -,-,-", &moves).parse().unwrap();
    let reserves: Vec<String> =
        position.seats().map(|seat| format!("{} {}", seat.name(), position.reserve(seat))).collect();
    assert!(picture.contains(&format!("reserves {}", reserves.join(", "))), "{picture:?}");
    assert!(picture.iter().any(|line| line.starts_with("turn Red")), "{picture:?}");
    engine.send("eval");
    let eval = engine.sync().remove(0);
    assert!(eval.starts_with("eval Red to move: score "), "{eval}");
    assert!(["Blue", "Yellow", "Red"].iter().all(|seat| eval.contains(&format!(" {seat} reserve "))), "{eval}");
    // Red's clock is short, the others' long: the search must budget Red's
    // (on the others' it would think for seconds).
    let started = std::time::Instant::now();
    let (infos, mv) = engine.search("go p1time 600000 p2time 600000 p3time 300 p3inc 0", Duration::from_secs(30));
    check_search_output(&infos, &mv);
    assert!(started.elapsed() < Duration::from_secs(3), "{:?} on a 300 ms clock", started.elapsed());
    assert_eq!(engine.query(&format!("islegal {mv}")), "true");
}

#[test]
fn both_multiplayer_searches_answer_and_paranoid_proves_three_player_wins() {
    let mut engine = EngineProcess::start();
    for style in ["maxn", "paranoid", "MaxN", "brs", "mcts", "mcts-eval"] {
        engine.send(&format!("setoption name MultiplayerSearch value {style}"));
        engine.send("newgame poldr players 3 size 6 bricks 16");
        engine.send("position startpos moves Pc3Mc5");
        let (infos, mv) = engine.search("go depth 3", Duration::from_secs(30));
        check_search_output(&infos, &mv);
        assert_eq!(engine.query(&format!("islegal {mv}")), "true");
        assert!(infos.iter().all(|info| !info.contains(" score mate ")), "{infos:?}");
    }
    engine.send("setoption name MultiplayerSearch value minimax");
    let errors = engine.sync();
    assert!(errors.len() == 1 && errors[0].contains("paranoid, maxn, mcts, brs or mcts-eval"), "{errors:?}");
    // Four bricks on 4x4: Blue lays its last brick first against any defence.
    engine.send("setoption name MultiplayerSearch value paranoid");
    engine.send("newgame poldr players 3 size 4 bricks 4");
    engine.send("position startpos");
    let (infos, mv) = engine.search("go movetime 5000", Duration::from_secs(30));
    check_search_output(&infos, &mv);
    let last = infos.last().unwrap();
    assert!(last.contains(" score mate ") && !last.contains(" score mate -"), "{infos:?}");
    // The proof's line ends where Blue has won, or where the reserves
    // decide the clearing race for Blue: from there every way of playing
    // on ends in Blue's win (here: every line, 4x4 is small).
    let pv: Vec<&str> = last.split(" pv ").nth(1).unwrap().split(' ').collect();
    let mut end = Position::start(4, 3, 4).unwrap();
    for mv in &pv {
        end.try_play(mv.parse().unwrap()).unwrap();
    }
    engine.send(&format!("position startpos moves {}", pv.join(" ")));
    engine.send("d");
    let picture = engine.sync();
    assert!(picture.contains(&format!("fen {end}")), "{picture:?}");
    fn every_line_won_by_blue(position: &Position) -> bool {
        match position.outcome() {
            Some(outcome) => outcome.winner == Seat::Blue,
            None => position.legal_moves().into_iter().all(|mv| {
                let mut next = *position;
                next.play_unchecked(mv);
                every_line_won_by_blue(&next)
            }),
        }
    }
    assert!(every_line_won_by_blue(&end), "after the pv: {end}");
}
