//! The engine behind the protocol: the options, the game, the searcher and
//! the running search, changed only by commands. Replies go through an
//! `Output`, so the same code serves stdin/stdout and tests.
//!
//! A bad line never changes anything, a running search included: commands
//! are checked first and only then stop the search they would disturb.

use std::sync::Arc;

use super::command::{Command, Dialect, Go, Query, SearchParams, Start, shorten};
use super::options::{EngineOption, Settings};
use super::output::Output;
use super::report::bestmove_line;
use super::search_job::SearchJob;
use crate::games::pods::PodsGame;
use crate::games::pods::{Game, Move, MoveList, Outcome, Point, Position, Rotation, Rules, Side, Variant, divide};
use crate::search::Searcher;

/// Whether to read another line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

pub struct Engine {
    output: Output,
    settings: Settings,
    rules: Arc<Rules>,
    game: Game,
    /// Made on first need, not at start-up (UGI asks for no big allocation
    /// before the first `isready`); lent to the search thread while it runs.
    searcher: Option<Searcher>,
    search: Option<SearchJob>,
}

impl Engine {
    pub fn new(output: Output) -> Engine {
        let settings = Settings::default();
        let rules = Arc::new(settings.rules());
        let game = start_game(&rules, &settings);
        Engine { output, settings, rules, game, searcher: None, search: None }
    }

    /// Reads and executes one line; problems become `info string error` lines.
    pub fn execute_line(&mut self, line: &str) -> Flow {
        log::debug!("<- {line}");
        if line.trim().is_empty() {
            return Flow::Continue;
        }
        match line.parse::<Command>() {
            Ok(command) => self.execute(command),
            Err(error) => {
                self.error(error);
                Flow::Continue
            }
        }
    }

    pub fn execute(&mut self, command: Command) -> Flow {
        if let Some(finished) = self.search.take_if(|search| search.is_finished()) {
            self.searcher = finished.join();
        }
        match command {
            // Answered at once, also during a search, which goes on.
            Command::Handshake(dialect) => self.handshake(dialect),
            Command::IsReady => self.is_ready(),
            Command::Query(query) => self.query(query),
            Command::Display => self.display(),
            Command::Moves => self.list_moves(),
            Command::Eval => self.eval(),
            Command::Stop => self.stop_search(),
            Command::Quit => {
                self.stop_search();
                return Flow::Quit;
            }
            // These stop a running search (it prints its bestmove) once they
            // are known to be valid.
            Command::NewGame { variant, rotation } => self.new_game(variant, rotation),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { start, moves } => self.set_position(&start, &moves),
            Command::Go(Go::Search(params)) => self.go(&params),
            Command::Go(Go::Perft(depth)) => self.perft(depth),
        }
        Flow::Continue
    }

    /// Prints `info string error: <message>`.
    pub fn error(&self, message: impl std::fmt::Display) {
        self.output.line(format!("info string error: {message}"));
    }

    /// Stops a running search and waits for it: its `bestmove` is printed
    /// when this returns. Nothing happens if no search runs.
    pub fn stop_search(&mut self) {
        if let Some(search) = self.search.take() {
            self.searcher = search.stop();
        }
    }

    fn handshake(&self, dialect: Dialect) {
        let mut lines = vec![
            format!("id name Podium {}", env!("CARGO_PKG_VERSION")),
            "id author the Podium developers".to_string(),
        ];
        lines.extend(EngineOption::ALL.map(EngineOption::declaration));
        lines.push(dialect.confirmation().to_string());
        self.output.lines(lines);
    }

    fn is_ready(&mut self) {
        // The first `isready` is the moment UGI allows the big allocation.
        if self.search.is_none() && self.searcher.is_none() {
            self.searcher = Some(self.new_searcher());
        }
        self.output.line("readyok");
    }

    fn new_searcher(&self) -> Searcher {
        let mut searcher = Searcher::new(self.settings.hash_megabytes);
        searcher.set_threads(self.settings.threads);
        searcher
    }

    fn new_game(&mut self, variant: Option<Variant>, rotation: Option<Rotation>) {
        self.stop_search();
        if let Some(variant) = variant.filter(|&variant| variant != self.settings.variant) {
            self.settings.variant = variant;
            self.rules = Arc::new(self.settings.rules());
        }
        if let Some(rotation) = rotation {
            self.settings.rotation = rotation;
        }
        self.restart_game();
    }

    /// A new game from the start under the current rules, with a cleared
    /// hash table: nothing learned in another game carries over.
    fn restart_game(&mut self) {
        self.game = start_game(&self.rules, &self.settings);
        if let Some(searcher) = &mut self.searcher {
            searcher.clear();
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let Some(option) = EngineOption::find(name) else {
            self.error(format!("unknown option '{}' ignored (options: {})", shorten(name), EngineOption::names()));
            return;
        };
        let Some(value) = value else {
            self.error(format!("setoption: {} needs a value: setoption name {0} value <value>", option.name()));
            return;
        };
        let mut settings = self.settings.clone();
        if let Err(message) = settings.set(option, value) {
            self.error(shorten_message(&message));
            return;
        }
        self.stop_search();
        self.settings = settings;
        match option {
            EngineOption::Hash => {
                if let Some(searcher) = &mut self.searcher {
                    searcher.resize(self.settings.hash_megabytes);
                }
            }
            EngineOption::Threads => {
                if let Some(searcher) = &mut self.searcher {
                    searcher.set_threads(self.settings.threads);
                }
            }
            EngineOption::MaxPlies => self.game = self.game.clone().with_max_plies(self.settings.max_plies),
            _ if option.starts_new_game() => {
                self.rules = Arc::new(self.settings.rules());
                self.restart_game();
            }
            _ => {}
        }
    }

    /// Sets up the position. A start that does not read changes nothing; a
    /// move that cannot be played ends the replay there and loses the game
    /// for the side that tried it, as a referee would rule.
    fn set_position(&mut self, start: &Start, moves: &[String]) {
        let start = match start {
            Start::StartPos => Position::start(&self.rules, self.settings.rotation),
            Start::Fen(line) => match Position::parse(line, &self.rules) {
                Ok(position) => position,
                Err(error) => {
                    self.error(shorten_message(&error.to_string()));
                    return;
                }
            },
        };
        self.stop_search();
        let mut game = Game::new(Arc::clone(&self.rules), start).with_max_plies(self.settings.max_plies);
        for (index, text) in moves.iter().enumerate() {
            let played = text
                .parse::<Move>()
                .map_err(|error| error.to_string())
                .and_then(|mv| game.play(mv).map_err(|illegal| illegal.to_string()));
            if let Err(reason) = played {
                self.error(format!("illegal move {} at index {index}: {}", shorten(text), shorten_message(&reason)));
                // Game::forfeit leaves a finished game's result alone: moves
                // after the end are reported, not punished.
                game.forfeit(game.position().side_to_move());
                break;
            }
        }
        self.game = game;
    }

    fn go(&mut self, params: &SearchParams) {
        let side = self.game.position().side_to_move();
        let limits = match params.limits(side, self.settings.move_overhead) {
            Ok(limits) => limits,
            Err(message) => {
                self.error(message);
                return;
            }
        };
        self.stop_search();
        if let Some(outcome) = self.game.outcome() {
            self.output.lines([format!("info string game over: {outcome}"), bestmove_line(None)]);
            return;
        }
        let searcher = self.searcher.take().unwrap_or_else(|| self.new_searcher());
        self.search = SearchJob::start(searcher, self.game.clone(), limits, self.output.clone());
    }

    /// `go perft`: runs to the end before the next line is read.
    fn perft(&mut self, depth: u32) {
        self.stop_search();
        let position = self.game.position();
        if depth == 0 {
            self.output.line("nodes 1");
            return;
        }
        let counts = divide(&self.rules, position, depth);
        let total: u64 = counts.iter().map(|&(_, count)| count).sum();
        let lines = counts.iter().map(|(mv, count)| format!("{mv}: {count}"));
        self.output.lines(lines.chain([format!("nodes {total}")]));
    }

    fn query(&self, query: Query) {
        let outcome = self.game.outcome();
        let answer = match query {
            Query::GameOver => outcome.is_some().to_string(),
            Query::P1Turn => (self.game.position().side_to_move() == Side::White).to_string(),
            Query::Result => match outcome {
                None => "none".to_string(),
                Some(Outcome::Win { winner: Side::White, .. }) => "p1win".to_string(),
                Some(Outcome::Win { winner: Side::Black, .. }) => "p2win".to_string(),
                Some(Outcome::Draw(_)) => "draw".to_string(),
            },
            Query::Fen => self.game.position().to_string(),
            Query::IsLegal(text) => text.parse::<Move>().is_ok_and(|mv| self.game.clone().play(mv).is_ok()).to_string(),
        };
        self.output.line(format!("response {answer}"));
    }

    /// `d`: the board as drawn (turned by the position's rotation) with each
    /// pod's letter on its point, then the position line and the turn.
    fn display(&self) {
        let position = self.game.position();
        let picture = self.rules.board().rotated(position.rotation()).picture();
        let mut rows: Vec<Vec<char>> = picture.lines().map(|row| row.chars().collect()).collect();
        for point in Point::ALL {
            if let Some((side, pod)) = position.pod_at(point) {
                let (row, column) = ((5 - point.rank()) as usize * 2, point.file() as usize * 2);
                if let Some(cell) = rows.get_mut(row).and_then(|cells| cells.get_mut(column)) {
                    *cell = pod.letter(side);
                }
            }
        }
        let mut lines: Vec<String> = rows.into_iter().map(|cells| cells.into_iter().collect()).collect();
        lines.push(format!("fen {position}"));
        lines.push(format!("turn {}", position.side_to_move().name()));
        if let Some(outcome) = self.game.outcome() {
            lines.push(format!("game over: {outcome}"));
        }
        self.output.lines(lines);
    }

    /// `moves`: the moves the game allows now, or `(none)`.
    fn list_moves(&self) {
        let mut moves = MoveList::new();
        if self.game.outcome().is_none() {
            self.game.position().generate_moves(&self.rules, &mut moves);
        }
        let texts: Vec<String> = moves.iter().map(Move::to_string).collect();
        self.output.line(if texts.is_empty() { "(none)".to_string() } else { texts.join(" ") });
    }

    /// `eval`: the static evaluation's terms, from the side to move's view.
    fn eval(&self) {
        let position = self.game.position();
        if let Some(outcome) = self.game.outcome() {
            self.output.line(format!("eval none: game over, {outcome}"));
            return;
        }
        let terms = PodsGame::new(Arc::clone(&self.rules), self.settings.max_plies).evaluate_terms(position);
        self.output.line(format!("eval {} to move: {terms}", position.side_to_move().name()));
    }
}

impl Drop for Engine {
    /// A search never outlives its engine: its `bestmove` is printed first.
    fn drop(&mut self) {
        self.stop_search();
    }
}

fn start_game(rules: &Arc<Rules>, settings: &Settings) -> Game {
    Game::new(Arc::clone(rules), Position::start(rules, settings.rotation)).with_max_plies(settings.max_plies)
}

/// Messages from the rules quote the input; keep an echo of garbage short.
fn shorten_message(message: &str) -> String {
    const MAX_CHARS: usize = 300;
    if message.chars().count() <= MAX_CHARS {
        message.to_string()
    } else {
        format!("{}...", message.chars().take(MAX_CHARS).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;
    use crate::protocol::output::MemorySink;

    fn engine() -> (Engine, MemorySink) {
        let sink = MemorySink::default();
        (Engine::new(Output::new(sink.clone())), sink)
    }

    fn run(engine: &mut Engine, sink: &MemorySink, lines: &[&str]) -> Vec<String> {
        for line in lines {
            engine.execute_line(line);
        }
        sink.take_lines()
    }

    /// Runs `go ...` and waits for the search thread to end by itself.
    fn search(engine: &mut Engine, sink: &MemorySink, go: &str) -> Vec<String> {
        engine.execute_line(go);
        let deadline = Instant::now() + Duration::from_secs(20);
        while engine.search.as_ref().is_some_and(|search| !search.is_finished()) {
            assert!(Instant::now() < deadline, "search did not finish");
            std::thread::sleep(Duration::from_millis(2));
        }
        engine.stop_search();
        sink.take_lines()
    }

    #[test]
    fn queries_answer_in_two_words() {
        let (mut engine, sink) = engine();
        let replies = run(&mut engine, &sink, &["position startpos", "query gameover", "query p1turn", "query result"]);
        assert_eq!(replies, ["response false", "response true", "response none"]);
        let replies =
            run(&mut engine, &sink, &["query fen", "query islegal A@c3", "query islegal N@c3", "query islegal x"]);
        assert_eq!(
            replies,
            [
                "response 6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0",
                "response true",
                "response false",
                "response false"
            ]
        );
    }

    #[test]
    fn an_illegal_move_loses_for_the_side_that_tried_it() {
        let (mut engine, sink) = engine();
        let replies = run(&mut engine, &sink, &["position startpos moves A@c3 zz", "query result", "query fen"]);
        assert_eq!(
            replies[0],
            "info string error: illegal move zz at index 1: 'zz' is not a move: expected 4 characters for a move on the board (write A@c3 to place, c3c5 to move)"
        );
        assert_eq!(replies[1], "response p1win");
        assert_eq!(replies[2], "response 6/6/6/2A3/6/6 b BCDEFGHIJKLMNabcdefghijklmn 0 1");
        let replies = search(&mut engine, &sink, "go depth 2");
        assert_eq!(replies.last().map(String::as_str), Some("bestmove (none)"));
    }

    #[test]
    fn a_bad_position_keeps_the_previous_one() {
        let (mut engine, sink) = engine();
        let before = run(&mut engine, &sink, &["position startpos moves A@c3", "query fen"]);
        let replies = run(&mut engine, &sink, &["position fen 6/6/6/6/6/6 x AB 0 0", "query fen"]);
        assert!(replies[0].starts_with("info string error: invalid position: side:"), "{replies:?}");
        assert_eq!(replies[1], before[0]);
    }

    #[test]
    fn a_search_reports_then_answers_one_legal_move() {
        let (mut engine, sink) = engine();
        run(&mut engine, &sink, &["setoption name Hash value 1", "newgame advanced", "position startpos"]);
        let replies = search(&mut engine, &sink, "go depth 3");
        let (bestmove, infos) = replies.split_last().unwrap();
        assert!(infos.iter().all(|line| line.starts_with("info depth ")), "{replies:?}");
        let mv = bestmove.strip_prefix("bestmove ").unwrap();
        assert!(infos.last().unwrap().contains(&format!(" pv {mv}")), "{replies:?}");
        assert_eq!(run(&mut engine, &sink, &[&format!("query islegal {mv}")]), ["response true"]);
    }

    #[test]
    fn options_change_the_game_and_bad_values_change_nothing() {
        let (mut engine, sink) = engine();
        let replies =
            run(&mut engine, &sink, &["setoption name Variant value chess", "setoption name ownbook value true"]);
        assert_eq!(replies.len(), 2);
        assert!(replies.iter().all(|line| line.starts_with("info string error: ")), "{replies:?}");
        assert_eq!(engine.settings.variant, Variant::Standard);
        run(&mut engine, &sink, &["setoption name rotation value 90", "setoption name maxplies value 1"]);
        let replies = run(&mut engine, &sink, &["query fen", "position startpos moves A@c3", "query result"]);
        assert_eq!(replies, ["response 6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 90 0", "response draw"]);
    }

    #[test]
    fn the_picture_shows_pods_on_their_points() {
        let (mut engine, sink) = engine();
        let replies = run(&mut engine, &sink, &["position startpos moves A@a1 b@f6", "d"]);
        assert_eq!(replies.len(), 13, "{replies:?}");
        assert!(replies[0].ends_with('b'), "{replies:?}");
        assert!(replies[10].starts_with('A'), "{replies:?}");
        assert_eq!(replies[12], "turn White");
    }
}
