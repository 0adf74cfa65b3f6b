//! Replays, line for line, what the cutegames tournament manager sends
//! during a game (its UGI engine driver and `play_game` loop), with two
//! Podium processes as the players, and checks the exact form of every
//! reply. cutegames: `ugi`, options in lowercase, `isready`, `uginewgame`,
//! then per move `position` + `query p1turn` on engine 1, `isready`,
//! `position` twice and `query gameover` on the side to move, `go p1time ..
//! p2time .. p1inc .. p2inc ..`; at the end `query gameover` and `query
//! result` on both, which must agree, and `quit`.

mod protocol_common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use podium::games::pods::{GameRecord, Outcome, Position, Rotation, Rules, Side, Variant};
use podium::games::poldr;
use protocol_common::{EngineProcess, INFO_FORM, REPLY_TIMEOUT, has_form};

/// One line must come, of exactly this form.
fn expect(engine: &mut EngineProcess, form: &str) -> String {
    let line = engine.read_line(REPLY_TIMEOUT);
    assert!(has_form(form, &line), "expected /{form}/, got {line:?}; transcript:\n{}", engine.dump());
    line
}

fn expect_answer(engine: &mut EngineProcess, form: &str) -> String {
    expect(engine, &format!("response {form}")).trim_start_matches("response ").to_string()
}

struct Match {
    engines: [EngineProcess; 2],
    options: Vec<(&'static str, &'static str)>,
    clock: [i64; 2],
    increment: i64,
    /// The opening as a position line (`position fen`), or `startpos`.
    opening: Option<String>,
}

impl Match {
    fn new(options: Vec<(&'static str, &'static str)>, clock_ms: i64, increment_ms: i64) -> Match {
        Match {
            engines: [EngineProcess::start(), EngineProcess::start()],
            options,
            clock: [clock_ms; 2],
            increment: increment_ms,
            opening: None,
        }
    }

    /// cutegames' `UGIEngine::init` and its options.
    fn init(&mut self) {
        for engine in &mut self.engines {
            engine.send("ugi");
            expect(engine, &format!("id name Podium {}", env!("CARGO_PKG_VERSION")));
            expect(engine, "id author the Podium developers");
            loop {
                let line = engine.read_line(REPLY_TIMEOUT);
                if line == "ugiok" {
                    break;
                }
                // cutegames reads no option line; these are their UCI forms.
                let button = line == "option name Clear Hash type button";
                assert!(button || has_form("option name <word> type <word> default <rest>", &line), "{line:?}");
                assert!(!line.ends_with(' '), "{line:?}");
            }
            for (name, value) in &self.options {
                engine.send(&format!("setoption name {name} value {value}"));
            }
        }
    }

    fn position_command(&self, moves: &[String]) -> String {
        let start = self.opening.as_ref().map_or("startpos".to_string(), |line| format!("fen {line}"));
        if moves.is_empty() {
            format!("position {start}")
        } else {
            format!("position {start} moves {}", moves.join(" "))
        }
    }

    /// cutegames' `is_p1_turn`: always asked of engine 1.
    fn is_p1_turn(&mut self, moves: &[String]) -> bool {
        let command = self.position_command(moves);
        let engine = &mut self.engines[0];
        engine.send(&command);
        engine.send("query p1turn");
        expect_answer(engine, "true|false") == "true"
    }

    fn is_gameover(engine: &mut EngineProcess, command: &str) -> bool {
        engine.send(command);
        engine.send("query gameover");
        expect_answer(engine, "true|false") == "true"
    }

    fn is_ready(engine: &mut EngineProcess) {
        engine.send("isready");
        expect(engine, "readyok");
    }

    /// cutegames' `play_game`: returns the moves and the agreed result.
    fn play_game(&mut self) -> (Vec<String>, String) {
        for engine in &mut self.engines {
            Self::is_ready(engine);
        }
        for engine in &mut self.engines {
            engine.send("uginewgame");
        }
        let mut moves: Vec<String> = Vec::new();
        if self.opening.is_none() {
            assert!(self.is_p1_turn(&moves), "the first player moves first");
        }
        loop {
            let p1_turn = self.is_p1_turn(&moves);
            let us = if p1_turn { 0 } else { 1 };
            let go = format!(
                "go p1time {} p2time {} p1inc {} p2inc {}",
                self.clock[0], self.clock[1], self.increment, self.increment
            );
            let command = self.position_command(&moves);
            let engine = &mut self.engines[us];
            Self::is_ready(engine);
            engine.send(&command);
            if Self::is_gameover(engine, &command) {
                break;
            }
            let sent = Instant::now();
            engine.send(&go);
            let mut infos = 0;
            let mv = loop {
                let line = engine.read_line(REPLY_TIMEOUT);
                if let Some(mv) = line.strip_prefix("bestmove ") {
                    assert!(has_form("bestmove <move>", &line), "{line:?}");
                    break mv.to_string();
                }
                // A move from a proof book is announced first (cutegames ignores `info string`).
                let book_note = line.starts_with("info string book: ");
                assert!(has_form(INFO_FORM, &line) || book_note, "bad line during a search: {line:?}");
                infos += 1;
            };
            assert!(infos > 0, "no info line before bestmove {mv}");
            // cutegames' clock: a side whose time runs out loses.
            let side = if p1_turn { 0 } else { 1 };
            self.clock[side] -= sent.elapsed().as_millis() as i64;
            assert!(self.clock[side] > 0, "p{} ran out of time after {} moves", side + 1, moves.len());
            self.clock[side] += self.increment;
            moves.push(mv);
        }
        // Both engines must agree on the end and the result.
        let mut answers = Vec::new();
        let command = self.position_command(&moves);
        for engine in &mut self.engines {
            Self::is_ready(engine);
            engine.send(&command);
            let gameover = Self::is_gameover(engine, &command);
            engine.send(&command);
            engine.send("query result");
            answers.push((gameover, expect_answer(engine, "p1win|p2win|draw|none")));
        }
        assert_eq!(answers[0], answers[1], "the engines disagree");
        assert!(answers[0].0, "gameover");
        (moves, answers[0].1.clone())
    }

    fn quit(&mut self) {
        for engine in &mut self.engines {
            engine.send("quit");
            let status = engine.wait_exit(Duration::from_secs(5)).expect("the engine exits on quit");
            assert!(status.success());
            assert_eq!(engine.try_read_line(Duration::from_millis(50)), None, "output after quit");
        }
    }
}

/// The result the rules library gives the same moves.
fn library_result(variant: Variant, max_plies: u32, moves: &[String]) -> &'static str {
    let rules = Arc::new(Rules::default_for(variant));
    let mut game = GameRecord::new(Arc::clone(&rules), Position::start(&rules, Rotation::R0)).with_max_plies(max_plies);
    for mv in moves {
        game.play(mv.parse().expect("a move")).expect("a legal move");
    }
    match game.outcome() {
        Some(Outcome::Win { winner: Side::White, .. }) => "p1win",
        Some(Outcome::Win { winner: Side::Black, .. }) => "p2win",
        Some(Outcome::Draw(_)) => "draw",
        None => "none",
    }
}

#[test]
fn a_standard_game_as_cutegames_plays_it() {
    let mut game = Match::new(vec![("hash", "128"), ("threads", "1")], 2000, 20);
    game.init();
    let (moves, result) = game.play_game();
    assert_eq!(result, library_result(Variant::Standard, 0, &moves), "moves: {moves:?}");
    // A second game in the same processes, as in a match.
    game.clock = [2000; 2];
    let (moves, result) = game.play_game();
    assert_eq!(result, library_result(Variant::Standard, 0, &moves), "moves: {moves:?}");
    game.quit();
}

#[test]
fn an_advanced_game_as_cutegames_plays_it() {
    // Advanced games run long: a ply limit keeps the test short, and an
    // increment of 50 ms keeps the clock clear of a loaded machine's delays.
    let options = vec![("hash", "16"), ("threads", "1"), ("variant", "advanced"), ("maxplies", "80")];
    let mut game = Match::new(options, 1000, 50);
    game.init();
    let (moves, result) = game.play_game();
    assert_eq!(result, library_result(Variant::Advanced, 80, &moves), "moves: {moves:?}");
    game.quit();
}

/// The result the POLD.R rules give the same moves from `opening`.
fn poldr_result(opening: &str, moves: &[String]) -> &'static str {
    let mut position: poldr::Position = opening.parse().expect("a position line");
    for mv in moves {
        position.try_play(mv.parse().expect("a move")).expect("a legal move");
    }
    match position.outcome().map(|outcome| outcome.winner) {
        Some(poldr::Seat::Blue) => "p1win",
        Some(poldr::Seat::Yellow) => "p2win",
        Some(poldr::Seat::Red) => "p3win",
        None => "none",
    }
}

#[test]
fn poldr_games_as_cutegames_plays_them_from_openings() {
    // cutegames only sends options from its settings file ("GameRecord": "poldr")
    // and openings as position lines.
    let options = vec![("hash", "16"), ("threads", "1"), ("game", "poldr")];
    let mut game = Match::new(options, 2000, 20);
    game.init();
    for opening in ["5/5/5/5/5 b 16,16 1 0 -,-", "5/5/2P2/1b3/B4 y 15,16 1 1 1,-", "6/6/6/6/6/6 b 16,16 1 0 -,-"] {
        game.opening = Some(opening.to_string());
        game.clock = [2000; 2];
        let (moves, result) = game.play_game();
        assert!(!moves.is_empty());
        assert_eq!(result, poldr_result(opening, &moves), "from {opening}, moves: {moves:?}");
    }
    game.quit();
}
