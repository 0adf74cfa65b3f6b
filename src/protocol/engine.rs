//! The engine behind the protocol: the options, the game, the searcher and
//! the running search, changed only by commands. Replies go through an
//! `Output`, so the same code serves stdin/stdout and tests.
//!
//! A bad line never changes anything, a running search included: commands
//! are checked first and only then stop the search they would disturb.

use std::sync::Arc;
use std::time::Instant;

use super::command::{Command, Dialect, Go, NewGame, Parsed, Query, Remark, SearchParams, Start, shorten};
use super::options::{EngineOption, OptionName, Settings, declarations};
use super::output::Output;
use super::report::BestMove;
use super::search_job::{SearchJob, SearchRequest};
use crate::games::{GameSetup, Registry, Session};
use crate::search::{Searcher, hardware_threads};

/// Whether to read another line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on: read the next line.
    Continue,
    /// `quit` was read: stop reading.
    Quit,
}

/// The protocol's state between lines: the games served, the settings, the
/// game in progress and the search running, if any. Replies go to `output`.
pub struct Engine {
    output: Output,
    /// The games served.
    registry: Registry,
    settings: Settings,
    /// The selected game as the settings describe it, set up once per change.
    setup: Arc<dyn GameSetup>,
    /// The game in progress, of the selected game.
    session: Box<dyn Session>,
    /// Made, its tables allocated and written, at the first `isready`,
    /// `newgame` or `Hash`, not at start-up (UGI asks for no big allocation
    /// before the first `isready`), so no search pays for the memory; lent
    /// to the search thread while it runs.
    searcher: Option<Searcher>,
    search: Option<SearchJob>,
    /// `debug on`: say more, in `info string debug:` lines.
    debug: bool,
}

impl Engine {
    /// An engine serving the games of `registry`, the first selected.
    pub fn new(registry: Registry, output: Output) -> Engine {
        let settings = Settings::new(&registry);
        let setup = selected_setup(&registry, &settings).expect("every game's defaults make a game");
        let session = setup.start();
        Engine { output, registry, settings, setup, session, searcher: None, search: None, debug: false }
    }

    /// Reads and executes one line; problems become `info string error` lines.
    pub fn execute_line(&mut self, line: &str) -> Flow {
        log::debug!("<- {line}");
        if line.trim().is_empty() {
            return Flow::Continue;
        }
        match Parsed::read(line, &self.registry) {
            Ok(Parsed { command, remarks }) => {
                for remark in remarks {
                    match remark {
                        Remark::Ignored(problem) => self.warning(format!("{problem} (ignored)")),
                        Remark::Unreadable(problem) => self.error(format!("{problem} (searching as 'go depth 1')")),
                    }
                }
                self.execute(command)
            }
            Err(error) => {
                self.error(error);
                Flow::Continue
            }
        }
    }

    pub(crate) fn execute(&mut self, command: Command) -> Flow {
        if let Some(finished) = self.search.take_if(|search| search.is_finished()) {
            self.take_back_searcher(finished.join());
        }
        match command {
            // Answered at once, also during a search, which goes on.
            Command::Handshake(dialect) => self.handshake(dialect),
            Command::IsReady => self.is_ready(),
            Command::Query(query) => self.query(query),
            Command::Display => self.output.lines(self.session.picture()),
            Command::Moves => self.list_moves(),
            Command::Eval => self.output.line(self.session.evaluation()),
            Command::Stop => self.stop_search(),
            Command::PonderHit => match &self.search {
                Some(search) if search.is_pondering() => search.ponder_hit(),
                _ => self.warning("ponderhit: no search is pondering (ignored)"),
            },
            Command::Debug(Some(on)) => self.debug = on,
            Command::Debug(None) => {}
            Command::Quit => {
                self.stop_search();
                return Flow::Quit;
            }
            // These stop a running search (it prints its bestmove) once they
            // are known to be valid.
            Command::NewGame(new_game) => self.new_game(new_game),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { start, moves } => self.set_position(start, moves),
            Command::Go(Go::Search(params)) => self.go(&params),
            Command::Go(Go::Perft(depth)) => self.perft(depth),
        }
        Flow::Continue
    }

    /// Prints `info string error: <message>`.
    pub fn error(&self, message: impl std::fmt::Display) {
        self.output.line(format!("info string error: {message}"));
    }

    /// Says so when the memory for the whole tables could not be had.
    fn check_hash_size(&self, searcher: &Searcher) {
        let (asked, got) = (self.settings.hash_megabytes, searcher.hash_megabytes());
        let (proofs, proofs_asked) = searcher.proof_megabytes();
        if got < asked || proofs < proofs_asked {
            let size = |megabytes: usize| match megabytes {
                0 => "under 1 MB".to_string(),
                _ => format!("{megabytes} MB"),
            };
            self.warning(format!(
                "Hash: {asked} MB cannot be allocated here: using {} and {} for proofs",
                size(got),
                size(proofs)
            ));
        }
    }

    /// Prints `info string warning: <message>`: something was ignored.
    pub fn warning(&self, message: impl std::fmt::Display) {
        self.output.line(format!("info string warning: {message}"));
    }

    /// Stops a running search and waits for it: its `bestmove` is printed
    /// when this returns. Nothing happens if no search runs.
    pub(crate) fn stop_search(&mut self) {
        if let Some(search) = self.search.take() {
            let searcher = search.stop();
            self.take_back_searcher(searcher);
        }
    }

    /// A search gives its searcher back; a perft had none to give.
    fn take_back_searcher(&mut self, searcher: Option<Searcher>) {
        if searcher.is_some() {
            self.searcher = searcher;
        }
    }

    fn handshake(&self, dialect: Dialect) {
        let mut lines = vec![
            format!("id name Podium {}", env!("CARGO_PKG_VERSION")),
            "id author the Podium developers".to_string(),
        ];
        lines.extend(declarations(&self.registry).iter().map(|parameter| parameter.declaration()));
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
        self.check_hash_size(&searcher);
        searcher.set_threads(self.settings.threads);
        searcher.set_multiplayer(self.settings.multiplayer);
        searcher.set_lines(self.settings.lines);
        searcher.set_own_book(self.settings.own_book);
        searcher
    }

    fn new_game(&mut self, new_game: NewGame) {
        let mut settings = self.settings.clone();
        settings.game = new_game.game.unwrap_or(settings.game);
        for (name, value) in new_game.settings {
            settings.games[settings.game].set(name, value);
        }
        let setup = match selected_setup(&self.registry, &settings) {
            Ok(setup) => setup,
            Err(message) => {
                self.error(format!("newgame: {}", shorten_message(&message)));
                return;
            }
        };
        self.stop_search();
        self.settings = settings;
        self.setup = setup;
        self.restart_game();
    }

    /// A new game from the start under the current settings, with a cleared
    /// hash table: nothing learned in another game carries over. The tables
    /// are made now if they were not yet, so the game's first `go` does not
    /// wait for them.
    fn restart_game(&mut self) {
        self.session = self.setup.start();
        self.session.set_max_plies(self.settings.max_plies);
        match &mut self.searcher {
            Some(searcher) => searcher.clear(),
            None => self.searcher = Some(self.new_searcher()),
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let Some(option) = OptionName::find(&self.registry, name) else {
            let names: Vec<&str> = declarations(&self.registry).iter().map(|parameter| parameter.name).collect();
            self.error(format!("unknown option '{}' ignored (options: {})", shorten(name), names.join(", ")));
            return;
        };
        if option == OptionName::Engine(EngineOption::ClearHash) {
            if value.is_some() {
                self.warning("setoption: Clear Hash is a button and takes no value (ignored)");
            }
            self.stop_search();
            if let Some(searcher) = &mut self.searcher {
                searcher.clear();
            }
            return;
        }
        let name = option.parameter(&self.registry).name;
        let Some(value) = value else {
            self.error(format!("setoption: {name} needs a value: setoption name {name} value <value>"));
            return;
        };
        let mut settings = self.settings.clone();
        if let Err(message) = settings.set(&self.registry, &option, value) {
            self.error(shorten_message(&message));
            return;
        }
        let setup = match &option {
            OptionName::Engine(EngineOption::Game) | OptionName::Game(..) => {
                match selected_setup(&self.registry, &settings) {
                    Ok(setup) => Some(setup),
                    Err(message) => {
                        self.error(shorten_message(&message));
                        return;
                    }
                }
            }
            OptionName::Engine(_) => None,
        };
        self.stop_search();
        self.settings = settings;
        match option {
            // The tables are made at once, outside any search's clock.
            OptionName::Engine(EngineOption::Hash) => match &mut self.searcher {
                Some(searcher) => {
                    searcher.resize(self.settings.hash_megabytes);
                    if let Some(searcher) = &self.searcher {
                        self.check_hash_size(searcher);
                    }
                }
                None => self.searcher = Some(self.new_searcher()),
            },
            OptionName::Engine(EngineOption::Threads) => {
                let usable = hardware_threads();
                if self.settings.threads > usable {
                    self.warning(format!(
                        "Threads: this machine runs {usable} threads at once: searching with {usable}, not {}",
                        self.settings.threads
                    ));
                }
                if let Some(searcher) = &mut self.searcher {
                    searcher.set_threads(self.settings.threads);
                }
            }
            OptionName::Engine(EngineOption::MultiplayerSearch) => {
                if let Some(searcher) = &mut self.searcher {
                    searcher.set_multiplayer(self.settings.multiplayer);
                }
            }
            OptionName::Engine(EngineOption::MultiPv) => {
                if let Some(searcher) = &mut self.searcher {
                    searcher.set_lines(self.settings.lines);
                }
            }
            OptionName::Engine(EngineOption::OwnBook) => {
                if let Some(searcher) = &mut self.searcher {
                    searcher.set_own_book(self.settings.own_book);
                }
            }
            OptionName::Engine(EngineOption::MaxPlies) => self.session.set_max_plies(self.settings.max_plies),
            _ => {}
        }
        // The game or its rules changed: a new game from the start.
        if let Some(setup) = setup {
            self.setup = setup;
            self.restart_game();
        }
    }

    /// Sets up the position. A start that does not read changes nothing; a
    /// move that cannot be played ends the replay there and loses the game
    /// for the side that tried it, as a referee would rule.
    fn set_position(&mut self, start: Start, moves: Vec<String>) {
        let mut session = match self.session_at(&start) {
            Ok(session) => session,
            Err(message) => {
                self.error(shorten_message(&message));
                return;
            }
        };
        self.stop_search();
        for (index, text) in moves.iter().enumerate() {
            if let Err(reason) = session.play(text) {
                self.error(format!(
                    "illegal move {} at index {index}: {}",
                    shorten(text),
                    shorten_message(&reason.to_string())
                ));
                // A finished game's result stays: moves after the end are
                // reported, not punished.
                session.forfeit();
                break;
            }
        }
        self.session = session;
    }

    /// Starts a search. Every `go` gets its `bestmove`: one whose limits or
    /// moves cannot be used searches as `go depth 1`.
    fn go(&mut self, params: &SearchParams) {
        // The controller's clock runs from here: stopping the last search
        // and starting threads count.
        let read_at = Instant::now();
        let mut request = match self.search_request(params) {
            Ok(request) => request,
            Err(message) => {
                self.error(format!("{message} (searching as 'go depth 1')"));
                let depth_one = SearchParams { depth: Some(1), ..SearchParams::default() };
                self.search_request(&depth_one).expect("depth 1 needs no clock")
            }
        };
        self.stop_search();
        if let Some(ending) = self.session.outcome() {
            self.output.lines([format!("info string game over: {ending}"), BestMove::default().to_string()]);
            return;
        }
        request.show_ponder = self.settings.ponder;
        request.limits.clock_start = Some(read_at);
        if self.debug {
            self.output.line(format!(
                "info string debug: searching {} with {:?}, root moves {:?}, ponder {}",
                self.session.position_line(),
                request.limits,
                request.root_moves,
                request.ponder
            ));
        }
        let searcher = self.searcher.take().unwrap_or_else(|| self.new_searcher());
        self.search = SearchJob::start(searcher, self.session.clone(), request, self.output.clone());
    }

    /// The search a `go` asks for, its `searchmoves` checked against the rules.
    fn search_request(&self, params: &SearchParams) -> Result<SearchRequest, String> {
        let mover = self.session.mover();
        let limits = params.limits(mover, self.session.seat_name(mover), self.settings.move_overhead)?;
        let mut root_moves = Vec::new();
        if self.session.outcome().is_none() {
            for text in &params.searchmoves {
                let mv = self
                    .session
                    .legal_move(text)
                    .map_err(|problem| format!("go: searchmoves: '{}' cannot be played: {problem}", shorten(text)))?;
                if !root_moves.contains(&mv) {
                    root_moves.push(mv);
                }
            }
        }
        Ok(SearchRequest { limits, root_moves, ponder: params.ponder, show_ponder: false })
    }

    /// `go perft`: runs on its own thread like a search, so `isready`
    /// answers at once and `stop` ends it.
    fn perft(&mut self, depth: u32) {
        self.stop_search();
        if depth == 0 {
            self.output.line("nodes 1");
            return;
        }
        self.search = SearchJob::start_perft(self.session.clone(), depth, self.output.clone());
    }

    /// A game of the selected game from `start`. A position line of another
    /// game is refused with a hint to select that game.
    fn session_at(&self, start: &Start) -> Result<Box<dyn Session>, String> {
        let mut session = match start {
            Start::StartPos => self.setup.start(),
            Start::Fen(line) => self.session_from_line(line)?,
        };
        session.set_max_plies(self.settings.max_plies);
        Ok(session)
    }

    fn session_from_line(&self, line: &str) -> Result<Box<dyn Session>, String> {
        self.setup.session_at(line).map_err(|error| {
            let other = self.registry.games().iter().enumerate().find(|&(index, game)| {
                index != self.settings.game
                    && game.setup(&self.settings.games[index]).is_ok_and(|setup| setup.session_at(line).is_ok())
            });
            match other {
                Some((_, game)) => format!(
                    "{error} (this is a {} position: select {0} first, as with 'newgame {}')",
                    game.title(),
                    game.name()
                ),
                None => error.to_string(),
            }
        })
    }

    fn query(&self, query: Query) {
        let ending = self.session.outcome();
        let answer = match query {
            Query::GameOver => ending.is_some().to_string(),
            Query::P1Turn => (self.session.mover() == 0).to_string(),
            Query::Turn => format!("p{}", self.session.mover() + 1),
            Query::Result => match ending {
                None => "none".to_string(),
                Some(ending) => ending.winner.map_or("draw".to_string(), |seat| format!("p{}win", seat + 1)),
            },
            Query::Fen => self.session.position_line(),
            Query::IsLegal(text) => {
                let mut trial = self.session.clone();
                trial.play(&text).is_ok().to_string()
            }
        };
        self.output.line(format!("response {answer}"));
    }

    /// `moves`: the moves the game allows now, or `(none)`.
    fn list_moves(&self) {
        let moves = self.session.legal_moves();
        self.output.line(if moves.is_empty() { "(none)".to_string() } else { moves.join(" ") });
    }
}

impl Drop for Engine {
    /// A search never outlives its engine: its `bestmove` is printed first.
    fn drop(&mut self) {
        self.stop_search();
    }
}

/// The selected game set up under the settings, or why it cannot be.
fn selected_setup(registry: &Registry, settings: &Settings) -> Result<Arc<dyn GameSetup>, String> {
    registry.games()[settings.game].setup(settings.values()).map_err(|error| error.to_string())
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
        (Engine::new(Registry::builtin(), Output::new(sink.clone())), sink)
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
            run(&mut engine, &sink, &["setoption name Variant value chess", "setoption name ownbook value maybe"]);
        assert_eq!(replies.len(), 2);
        assert!(replies.iter().all(|line| line.starts_with("info string error: ")), "{replies:?}");
        assert_eq!(engine.settings.values().text("Variant"), "standard");
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
