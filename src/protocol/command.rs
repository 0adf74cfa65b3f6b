//! One input line -> one typed `Command` with the remarks it earned, or a
//! `CommandError` that says what is wrong and what was expected. As UCI
//! asks, a known command forgives words it does not know (they are ignored,
//! with a warning); a value it cannot read is an error. Parsing knows
//! nothing of the engine's state: positions and moves are checked against
//! the rules when executed.

use std::borrow::Cow;
use std::num::{IntErrorKind, NonZeroU32, ParseIntError};
use std::str::FromStr;
use std::time::Duration;

use crate::games::registry::{Kind, Parameter, Registry, ValueError};
use crate::search::{Clock, Limits};

/// Everything a controller or a person can ask of the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `ugi` or `uci`: identify, declare the options, confirm.
    Handshake(Dialect),
    /// `isready`: answered with `readyok` at once, even during a search.
    IsReady,
    /// `newgame [<game>|<variant>] [<parameter> <value>]...` (`newgame
    /// advanced rotation 90`, `newgame poldr players 3`), `uginewgame`, `ucinewgame`.
    NewGame(NewGame),
    /// `setoption name <name> [value <value>]`; the name may hold spaces.
    SetOption {
        /// The option's name, as given.
        name: String,
        /// The value, if the line has one (a button has none).
        value: Option<String>,
    },
    /// `position (startpos | fen <position line>) [moves <move>...]`. Moves
    /// stay text: one that does not even parse counts as an illegal move.
    Position {
        /// Where the game starts.
        start: Start,
        /// The moves played from there.
        moves: Vec<String>,
    },
    /// `go ...`: a search under the limits given, or `go perft <depth>`.
    Go(Go),
    /// `stop`: the search running ends with its best move.
    Stop,
    /// `quit`: the engine stops, a running search with it.
    Quit,
    /// `query <question>`: a fact about the game in progress.
    Query(Query),
    /// `d`: the board picture with the pods, the position line, the turn.
    Display,
    /// `moves`: the legal moves.
    Moves,
    /// `eval`: the static evaluation and its terms.
    Eval,
    /// `ponderhit`: the move pondered on was played; the search goes on
    /// under its clock.
    PonderHit,
    /// `debug on|off`: extra `info string debug:` lines; `None` (another
    /// word) leaves the setting as it was.
    Debug(Option<bool>),
}

/// A command and what was wrong in its line without stopping it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The command to execute.
    pub command: Command,
    pub(crate) remarks: Vec<Remark>,
}

/// A problem that did not stop its command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Remark {
    /// A word that means nothing where it stands: ignored
    /// (`info string warning: ...`).
    Ignored(CommandError),
    /// A `go` limit that cannot be read: the `go` still searches, as `go
    /// depth 1` (`info string error: ...`), so it gets its `bestmove`.
    Unreadable(CommandError),
}

/// What a `newgame` changes; what it does not name keeps its value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewGame {
    /// The game selected, by its index in the registry.
    pub game: Option<usize>,
    /// Parameters of that game, with their values as read.
    pub settings: Vec<(&'static str, String)>,
}

/// Which handshake the controller speaks; only the confirmation differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UGI, answered with `ugiok`.
    Ugi,
    /// UCI, answered with `uciok`.
    Uci,
}

impl Dialect {
    /// The line that ends the handshake.
    pub fn confirmation(self) -> &'static str {
        match self {
            Dialect::Ugi => "ugiok",
            Dialect::Uci => "uciok",
        }
    }
}

/// Where a `position` command starts its game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The start position of the current rules and rotation.
    StartPos,
    /// A position line (five fields), checked when executed.
    Fen(String),
}

/// What `go` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Go {
    /// A search, under these limits.
    Search(SearchParams),
    /// `go perft <depth>`.
    Perft(u32),
}

/// The limits of a `go`, as given. Clocks are indexed by seat: p1 (White,
/// Blue; `p1time` = `wtime`), p2 (Black, Yellow), p3 (Red).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchParams {
    /// `movetime`: search for this long.
    pub movetime: Option<Duration>,
    /// `depth`: search at most this many plies deep.
    pub depth: Option<u32>,
    /// `nodes`: search at most this many nodes.
    pub nodes: Option<u64>,
    /// Stop at a win in at most this many of the side to move's own moves.
    pub mate: Option<u32>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// Search the position after the move expected from the opponent until
    /// `ponderhit` or `stop`.
    pub ponder: bool,
    /// Only these root moves (as written; checked when executed).
    pub searchmoves: Vec<String>,
    /// Each seat's time left on its clock.
    pub time: [Option<Duration>; 3],
    /// Each seat's time added after each of its moves.
    pub increment: [Option<Duration>; 3],
    /// `movestogo`: moves until the next time control.
    pub moves_to_go: Option<u32>,
}

impl SearchParams {
    /// The search limits for `seat` to move: only its own clock counts. A
    /// bare `go` searches until `stop`, like `go infinite`.
    /// `seat_name` names the seat for people, as `Black`.
    pub fn limits(&self, seat: usize, seat_name: &str, move_overhead: Duration) -> Result<Limits, String> {
        let clock_given = self.time.iter().chain(&self.increment).any(Option::is_some) || self.moves_to_go.is_some();
        let clock = match self.time.get(seat).copied().flatten() {
            Some(remaining) => Some(Clock {
                remaining,
                increment: self.increment[seat].unwrap_or_default(),
                moves_to_go: self.moves_to_go,
            }),
            None if clock_given => {
                let add = match seat {
                    0 => "p1time or wtime".to_string(),
                    1 => "p2time or btime".to_string(),
                    _ => format!("p{}time", seat + 1),
                };
                return Err(format!("go: no time given for the side to move, p{} ({seat_name}): add {add}", seat + 1));
            }
            None => None,
        };
        let nothing_limits = self.movetime.is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
            && self.mate.is_none()
            && clock.is_none();
        Ok(Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime,
            clock,
            infinite: self.infinite || nothing_limits,
            prove: false,
            mate: self.mate,
            move_overhead,
            clock_start: None,
        })
    }
}

/// A question of `query`, answered with one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Query {
    /// Whether the game is over: `true` or `false`.
    GameOver,
    /// Whether the first player is to move: `true` or `false`.
    P1Turn,
    /// Whose turn: `p1`, `p2` or `p3`.
    Turn,
    /// `none`, `draw`, or the winner as `p1win`, `p2win`, `p3win`.
    Result,
    /// The position line.
    Fen,
    /// The move as text: one that does not parse is simply not legal.
    IsLegal(String),
}

/// Why a line is not a command, in words a person can act on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// A line with no word.
    #[error("empty line")]
    Empty,
    /// A first word that is no command (the word as given).
    #[error("unknown command '{}' (commands: {COMMAND_NAMES})", shorten(.0))]
    UnknownCommand(String),
    /// Something required is not there.
    #[error("{command}: missing {expected}")]
    Missing {
        /// The command.
        command: &'static str,
        /// What is missing, in words.
        expected: &'static str,
    },
    /// A word that does not belong where it stands.
    #[error("{command}: unexpected '{}', expected {expected}", shorten(.found))]
    Unexpected {
        /// The command.
        command: &'static str,
        /// The word as given.
        found: String,
        /// What may stand there, in words.
        expected: Cow<'static, str>,
    },
    /// A word that should be a number of some kind.
    #[error("{command}: {field} needs {expected}, not '{}'", shorten(.found))]
    BadNumber {
        /// The command.
        command: &'static str,
        /// The field the number is for.
        field: &'static str,
        /// The word as given.
        found: String,
        /// What kind of number, in words.
        expected: &'static str,
    },
    /// A whole number beyond what its field can hold.
    #[error("{command}: {field} '{}' is too large: the range is {range}", shorten(.found))]
    TooLarge {
        /// The command.
        command: &'static str,
        /// The field the number is for.
        field: &'static str,
        /// The number as given.
        found: String,
        /// The field's range, as `1 to 4294967295`.
        range: String,
    },
    /// A field given twice.
    #[error("{command}: '{field}' is given twice")]
    Repeated {
        /// The command.
        command: &'static str,
        /// The field.
        field: &'static str,
    },
    /// A value its parameter does not take.
    #[error("{command}: {error}")]
    BadValue {
        /// The command.
        command: &'static str,
        /// What the parameter refused.
        error: ValueError,
    },
}

/// The commands, for the error about an unknown one.
const COMMAND_NAMES: &str = "ugi, uci, isready, setoption, newgame, uginewgame, ucinewgame, position, go, stop, \
                             ponderhit, quit, query, d, moves, eval, debug";

/// A word of input as quoted in a message: long garbage is cut short.
pub(crate) fn shorten(text: &str) -> String {
    const MAX_CHARS: usize = 40;
    if text.chars().count() <= MAX_CHARS {
        text.to_string()
    } else {
        let head: String = text.chars().take(MAX_CHARS).collect();
        format!("{head}...")
    }
}

impl Parsed {
    /// Reads one line; `registry` says which words name games and their parameters.
    pub fn read(line: &str, registry: &Registry) -> Result<Parsed, CommandError> {
        let mut words = line.split_whitespace();
        let Some(name) = words.next() else {
            return Err(CommandError::Empty);
        };
        let rest: Vec<&str> = words.collect();
        let mut remarks = Vec::new();
        // Words after a command that takes none are ignored, with a warning.
        let mut alone = |command: &'static str, value: Command| {
            if let Some(word) = rest.first() {
                remarks.push(Remark::Ignored(CommandError::Unexpected {
                    command,
                    found: word.to_string(),
                    expected: "nothing".into(),
                }));
            }
            Ok(value)
        };
        let command = match name {
            "ugi" => alone("ugi", Command::Handshake(Dialect::Ugi)),
            "uci" => alone("uci", Command::Handshake(Dialect::Uci)),
            "isready" => alone("isready", Command::IsReady),
            "uginewgame" => alone("uginewgame", Command::NewGame(NewGame::default())),
            "ucinewgame" => alone("ucinewgame", Command::NewGame(NewGame::default())),
            "stop" => alone("stop", Command::Stop),
            "ponderhit" => alone("ponderhit", Command::PonderHit),
            "quit" => alone("quit", Command::Quit),
            "d" => alone("d", Command::Display),
            "moves" => alone("moves", Command::Moves),
            "eval" => alone("eval", Command::Eval),
            "newgame" => parse_newgame(&rest, registry, &mut remarks),
            "setoption" => parse_setoption(line),
            "position" => parse_position(&rest, &mut remarks, BareLine::Refused),
            "go" => parse_go(&rest, &mut remarks).map(Command::Go),
            "query" => parse_query(&rest, &mut remarks).map(Command::Query),
            "debug" => parse_debug(&rest, &mut remarks),
            _ => Err(CommandError::UnknownCommand(name.to_string())),
        }?;
        Ok(Parsed { command, remarks })
    }
}

fn parse_newgame(words: &[&str], registry: &Registry, remarks: &mut Vec<Remark>) -> Result<Command, CommandError> {
    const COMMAND: &str = "newgame";
    let mut new_game = NewGame::default();
    // Each setting once; a word of one game selects that game.
    let select = |new_game: &mut NewGame, game: usize, word: &str| match new_game.game.replace(game) {
        Some(other) if other != game => Err(CommandError::Unexpected {
            command: COMMAND,
            found: word.to_string(),
            expected: format!("the settings of one game ({})", game_words(registry)).into(),
        }),
        _ => Ok(()),
    };
    let set = |new_game: &mut NewGame, parameter: &Parameter, value: String| {
        if new_game.settings.iter().any(|(name, _)| *name == parameter.name) {
            return Err(CommandError::Repeated { command: COMMAND, field: parameter.name });
        }
        new_game.settings.push((parameter.name, value));
        Ok(())
    };
    let mut words = words.iter();
    while let Some(&word) = words.next() {
        if let Some(game) = registry.index_of(word) {
            select(&mut new_game, game, word)?;
        } else if let Some((game, parameter)) = registry.variant(word) {
            select(&mut new_game, game, word)?;
            let value = parameter.read(word).expect("a variant's own word");
            set(&mut new_game, &parameter, value)?;
        } else if let Some((game, parameter)) = registry.parameter(word) {
            select(&mut new_game, game, word)?;
            let value = words.next().ok_or(CommandError::Missing { command: COMMAND, expected: "a value" })?;
            let value = parameter.read(value).map_err(|error| CommandError::BadValue { command: COMMAND, error })?;
            set(&mut new_game, &parameter, value)?;
        } else {
            remarks.push(Remark::Ignored(CommandError::Unexpected {
                command: COMMAND,
                found: word.to_string(),
                expected: format!("a game, a variant or '<parameter> <value>' ({})", game_words(registry)).into(),
            }));
        }
    }
    Ok(Command::NewGame(new_game))
}

/// What `newgame` takes of each game: `pods: standard, advanced, rotation, ...; poldr: players, ...`.
fn game_words(registry: &Registry) -> String {
    let games: Vec<String> = registry
        .games()
        .iter()
        .map(|game| {
            let parameters = game.parameters();
            let variants = game
                .variant_parameter()
                .and_then(|name| parameters.iter().find(|parameter| parameter.name == name))
                .map(|parameter| match &parameter.kind {
                    Kind::Combo(values) => values.clone(),
                    _ => Vec::new(),
                })
                .unwrap_or_default();
            let words: Vec<String> = variants
                .into_iter()
                .chain(
                    parameters
                        .iter()
                        .filter(|parameter| Some(parameter.name) != game.variant_parameter())
                        .map(|parameter| parameter.name.to_ascii_lowercase()),
                )
                .collect();
            format!("{}: {}", game.name(), words.join(", "))
        })
        .collect();
    games.join("; ")
}

/// `setoption name <name words> [value <rest of the line>]`: the value is
/// taken from the line as written, inner spaces included.
fn parse_setoption(line: &str) -> Result<Command, CommandError> {
    const COMMAND: &str = "setoption";
    let words: Vec<(usize, &str)> = words_with_offsets(line).collect();
    match words.get(1) {
        Some((_, "name")) => {}
        Some((_, word)) => {
            return Err(CommandError::Unexpected {
                command: COMMAND,
                found: word.to_string(),
                expected: "'name'".into(),
            });
        }
        None => return Err(CommandError::Missing { command: COMMAND, expected: "'name <option> value <value>'" }),
    }
    let value_at = words.iter().skip(2).position(|&(_, word)| word == "value").map(|index| index + 2);
    let name_words = &words[2..value_at.unwrap_or(words.len())];
    if name_words.is_empty() {
        return Err(CommandError::Missing { command: COMMAND, expected: "an option name after 'name'" });
    }
    let name = name_words.iter().map(|&(_, word)| word).collect::<Vec<_>>().join(" ");
    let value = value_at.map(|index| {
        let (offset, word) = words[index];
        line[offset + word.len()..].trim().to_string()
    });
    Ok(Command::SetOption { name, value: value.filter(|value| !value.is_empty()) })
}

/// The whitespace-separated words of `line`, each with its byte offset.
fn words_with_offsets(line: &str) -> impl Iterator<Item = (usize, &str)> {
    line.split_whitespace().map(move |word| (word.as_ptr() as usize - line.as_ptr() as usize, word))
}

/// Whether a position may be a bare position line, without `fen` before it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BareLine {
    Refused,
    Allowed,
}

fn parse_position(words: &[&str], remarks: &mut Vec<Remark>, bare: BareLine) -> Result<Command, CommandError> {
    const COMMAND: &str = "position";
    let moves_at = words.iter().position(|&word| word == "moves");
    let (head, moves) = match moves_at {
        Some(index) => (&words[..index], words[index + 1..].iter().map(|word| word.to_string()).collect()),
        None => (words, Vec::new()),
    };
    let start = match head.first() {
        None => {
            return Err(CommandError::Missing { command: COMMAND, expected: "'startpos' or 'fen <position line>'" });
        }
        Some(&"startpos") => {
            if let Some(word) = head.get(1) {
                remarks.push(Remark::Ignored(CommandError::Unexpected {
                    command: COMMAND,
                    found: word.to_string(),
                    expected: "'moves'".into(),
                }));
            }
            Start::StartPos
        }
        Some(&"fen") if head.len() == 1 => {
            return Err(CommandError::Missing { command: COMMAND, expected: "the position line after 'fen'" });
        }
        Some(&"fen") => Start::Fen(head[1..].join(" ")),
        Some(_) if bare == BareLine::Allowed => Start::Fen(head.join(" ")),
        Some(word) => {
            return Err(CommandError::Unexpected {
                command: COMMAND,
                found: word.to_string(),
                expected: "'startpos' or 'fen'".into(),
            });
        }
    };
    Ok(Command::Position { start, moves })
}

/// A position written by a person or a script, as a line of `podium analyse
/// --positions`: what `position` takes (`startpos` or `fen <position
/// line>`), or a bare position line, `position ` before it or not, each
/// optionally followed by `moves <move>...`. Stricter than the protocol: a
/// word that means nothing is an error, since there is nobody to warn.
pub fn parse_position_text(text: &str) -> Result<(Start, Vec<String>), CommandError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let words = words.strip_prefix(&["position"]).unwrap_or(&words);
    let mut remarks = Vec::new();
    let command = parse_position(words, &mut remarks, BareLine::Allowed)?;
    if let Some(Remark::Ignored(problem) | Remark::Unreadable(problem)) = remarks.into_iter().next() {
        return Err(problem);
    }
    let Command::Position { start, moves } = command else { unreachable!("parse_position gives a position") };
    Ok((start, moves))
}

/// What a word of `go` sets.
#[derive(Clone, Copy, PartialEq, Eq)]
enum GoField {
    MoveTime,
    Depth,
    Nodes,
    Mate,
    Infinite,
    Ponder,
    SearchMoves,
    MovesToGo,
    Time(usize),
    Increment(usize),
}

/// The words of `go`: the UCI clock names set the same fields as the UGI
/// ones (White is p1).
const GO_FIELDS: [(&str, GoField); 18] = [
    ("movetime", GoField::MoveTime),
    ("depth", GoField::Depth),
    ("nodes", GoField::Nodes),
    ("mate", GoField::Mate),
    ("infinite", GoField::Infinite),
    ("ponder", GoField::Ponder),
    ("searchmoves", GoField::SearchMoves),
    ("movestogo", GoField::MovesToGo),
    ("p1time", GoField::Time(0)),
    ("wtime", GoField::Time(0)),
    ("p2time", GoField::Time(1)),
    ("btime", GoField::Time(1)),
    ("p3time", GoField::Time(2)),
    ("p1inc", GoField::Increment(0)),
    ("winc", GoField::Increment(0)),
    ("p2inc", GoField::Increment(1)),
    ("binc", GoField::Increment(1)),
    ("p3inc", GoField::Increment(2)),
];

fn go_field(word: &str) -> Option<(&'static str, GoField)> {
    GO_FIELDS.iter().find(|&&(spelled, _)| spelled == word).copied()
}

/// `go perft <depth>`, or a search. A search forgives words it does not
/// know and a field given twice (the first counts); a limit it cannot read
/// makes it a `go depth 1`, so that every `go` gets its `bestmove`.
fn parse_go(words: &[&str], remarks: &mut Vec<Remark>) -> Result<Go, CommandError> {
    const COMMAND: &str = "go";
    const EXPECTED: &str = "movetime, depth, nodes, mate, infinite, ponder, searchmoves, p1time, p2time, p3time, \
                            p1inc, p2inc, p3inc, wtime, btime, winc, binc, movestogo or perft";
    if words.first() == Some(&"perft") {
        let depth = number(COMMAND, "perft", words.get(1).copied(), "a depth (a whole number)")?;
        if let Some(word) = words.get(2) {
            remarks.push(Remark::Ignored(CommandError::Unexpected {
                command: COMMAND,
                found: word.to_string(),
                expected: "nothing after the depth".into(),
            }));
        }
        return Ok(Go::Perft(depth));
    }
    let mut params = SearchParams::default();
    let mut seen: Vec<GoField> = Vec::new();
    let mut unreadable = false;
    let mut words = words.iter().copied().peekable();
    while let Some(word) = words.next() {
        let Some((spelled, field)) = go_field(word) else {
            let expected = if word == "perft" { "'perft <depth>' alone" } else { EXPECTED };
            remarks.push(Remark::Ignored(CommandError::Unexpected {
                command: COMMAND,
                found: word.to_string(),
                expected: expected.into(),
            }));
            continue;
        };
        let repeated = seen.contains(&field);
        seen.push(field);
        // A repeated field is read as usual (its value must be skipped), then dropped.
        let mut given = params.clone();
        let read: Result<(), CommandError> = (|| {
            let mut value = || words.next();
            match field {
                GoField::Infinite => given.infinite = true,
                GoField::Ponder => given.ponder = true,
                GoField::SearchMoves => {
                    while let Some(mv) = words.next_if(|next| go_field(next).is_none()) {
                        given.searchmoves.push(mv.to_string());
                    }
                    if given.searchmoves.is_empty() {
                        return Err(CommandError::Missing { command: COMMAND, expected: "moves after searchmoves" });
                    }
                }
                GoField::MoveTime => given.movetime = Some(milliseconds(spelled, value())?),
                GoField::Depth => {
                    let depth: NonZeroU32 = number(COMMAND, spelled, value(), "a depth of at least 1")?;
                    given.depth = Some(depth.get());
                }
                GoField::Nodes => given.nodes = Some(number(COMMAND, spelled, value(), "a whole number of nodes")?),
                GoField::Mate => {
                    let moves: NonZeroU32 = number(COMMAND, spelled, value(), "a number of moves of at least 1")?;
                    given.mate = Some(moves.get());
                }
                GoField::MovesToGo => {
                    given.moves_to_go = Some(number(COMMAND, spelled, value(), "a whole number of moves")?)
                }
                GoField::Time(seat) => given.time[seat] = Some(clock_milliseconds(spelled, value())?),
                GoField::Increment(seat) => given.increment[seat] = Some(clock_milliseconds(spelled, value())?),
            }
            Ok(())
        })();
        match read {
            _ if repeated => {
                remarks.push(Remark::Ignored(CommandError::Repeated { command: COMMAND, field: spelled }));
            }
            Ok(()) => params = given,
            Err(error @ CommandError::Missing { expected: "moves after searchmoves", .. }) => {
                remarks.push(Remark::Ignored(error));
            }
            Err(error) => {
                remarks.push(Remark::Unreadable(error));
                unreadable = true;
            }
        }
    }
    if unreadable {
        params = SearchParams { depth: Some(1), ..SearchParams::default() };
    }
    Ok(Go::Search(params))
}

/// The whole-number types of the fields, with their ranges for messages.
trait Whole: FromStr<Err = ParseIntError> {
    const RANGE: (u64, u64);
}

impl Whole for u32 {
    const RANGE: (u64, u64) = (0, u32::MAX as u64);
}

impl Whole for NonZeroU32 {
    const RANGE: (u64, u64) = (1, u32::MAX as u64);
}

impl Whole for u64 {
    const RANGE: (u64, u64) = (0, u64::MAX);
}

/// A whole number: one too large to hold says so, with the range, rather
/// than that it is not a number.
fn number<T: Whole>(
    command: &'static str,
    field: &'static str,
    word: Option<&str>,
    expected: &'static str,
) -> Result<T, CommandError> {
    let word = word.ok_or(CommandError::Missing { command, expected })?;
    word.parse().map_err(|error: ParseIntError| match error.kind() {
        IntErrorKind::PosOverflow => {
            let (least, most) = T::RANGE;
            CommandError::TooLarge { command, field, found: word.to_string(), range: format!("{least} to {most}") }
        }
        _ => CommandError::BadNumber { command, field, found: word.to_string(), expected },
    })
}

fn milliseconds(field: &'static str, word: Option<&str>) -> Result<Duration, CommandError> {
    number("go", field, word, "a whole number of milliseconds").map(Duration::from_millis)
}

/// Clock times may be negative (a controller's clock that ran out): zero,
/// however negative.
fn clock_milliseconds(field: &'static str, word: Option<&str>) -> Result<Duration, CommandError> {
    let negative =
        word.and_then(|word| word.strip_prefix('-')).filter(|digits| digits.bytes().all(|b| b.is_ascii_digit()));
    match negative {
        Some(digits) if !digits.is_empty() => Ok(Duration::ZERO),
        _ => milliseconds(field, word),
    }
}

fn parse_query(words: &[&str], remarks: &mut Vec<Remark>) -> Result<Query, CommandError> {
    const COMMAND: &str = "query";
    const EXPECTED: &str = "gameover, p1turn, turn, result, fen or islegal <move>";
    let (query, used) = match words.first() {
        None => return Err(CommandError::Missing { command: COMMAND, expected: EXPECTED }),
        Some(&"gameover") => (Query::GameOver, 1),
        Some(&"p1turn") => (Query::P1Turn, 1),
        Some(&"turn") => (Query::Turn, 1),
        Some(&"result") => (Query::Result, 1),
        Some(&"fen") => (Query::Fen, 1),
        Some(&"islegal") => {
            let mv =
                words.get(1).ok_or(CommandError::Missing { command: COMMAND, expected: "a move after islegal" })?;
            (Query::IsLegal(mv.to_string()), 2)
        }
        Some(word) => {
            return Err(CommandError::Unexpected {
                command: COMMAND,
                found: word.to_string(),
                expected: EXPECTED.into(),
            });
        }
    };
    if let Some(word) = words.get(used) {
        let expected = if used == 2 { "one move" } else { "nothing" };
        remarks.push(Remark::Ignored(CommandError::Unexpected {
            command: COMMAND,
            found: word.to_string(),
            expected: expected.into(),
        }));
    }
    Ok(query)
}

/// `debug on|off`. Any other word, or none, is only a warning, as UCI's
/// forgiveness asks, and leaves the setting as it was.
fn parse_debug(words: &[&str], remarks: &mut Vec<Remark>) -> Result<Command, CommandError> {
    const COMMAND: &str = "debug";
    let (on, unused) = match words.split_first() {
        Some((&"on", rest)) => (Some(true), rest),
        Some((&"off", rest)) => (Some(false), rest),
        Some(_) => (None, words),
        None => {
            remarks.push(Remark::Ignored(CommandError::Missing { command: COMMAND, expected: "on or off" }));
            (None, words)
        }
    };
    if let Some(word) = unused.first() {
        let expected = if on.is_some() { "nothing" } else { "on or off" };
        remarks.push(Remark::Ignored(CommandError::Unexpected {
            command: COMMAND,
            found: word.to_string(),
            expected: expected.into(),
        }));
    }
    Ok(Command::Debug(on))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Command, CommandError> {
        Parsed::read(line, &Registry::builtin()).map(|parsed| parsed.command)
    }

    fn remarks(line: &str) -> Vec<Remark> {
        Parsed::read(line, &Registry::builtin()).expect("a command").remarks
    }

    fn new_game(game: usize, settings: &[(&'static str, &str)]) -> Command {
        let settings = settings.iter().map(|&(name, value)| (name, value.to_string())).collect();
        Command::NewGame(NewGame { game: Some(game), settings })
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn simple_commands_parse_and_forgive_extra_words() {
        assert_eq!(parse("ugi"), Ok(Command::Handshake(Dialect::Ugi)));
        assert_eq!(parse("  uci  "), Ok(Command::Handshake(Dialect::Uci)));
        assert_eq!(parse("isready"), Ok(Command::IsReady));
        assert_eq!(parse("uginewgame"), Ok(Command::NewGame(NewGame::default())));
        assert_eq!(parse("d"), Ok(Command::Display));
        assert_eq!(parse("ponderhit"), Ok(Command::PonderHit));
        assert_eq!(parse("debug on"), Ok(Command::Debug(Some(true))));
        assert_eq!(parse("debug off"), Ok(Command::Debug(Some(false))));
        // Like other unknown words in a known command: a warning, nothing changes.
        for forgiven in ["debug", "debug maybe", "debug maybe on"] {
            assert_eq!(parse(forgiven), Ok(Command::Debug(None)), "{forgiven}");
            assert!(matches!(remarks(forgiven)[..], [Remark::Ignored(_)]), "{forgiven}");
        }
        assert!(matches!(remarks("debug on now")[..], [Remark::Ignored(_)]));
        assert_eq!(parse("quit now"), Ok(Command::Quit));
        assert!(matches!(remarks("quit now")[..], [Remark::Ignored(CommandError::Unexpected { .. })]));
        assert!(matches!(remarks("isready now")[..], [Remark::Ignored(_)]));
        assert_eq!(remarks("isready"), []);
        assert_eq!(parse("   "), Err(CommandError::Empty));
        assert_eq!(parse("hello"), Err(CommandError::UnknownCommand("hello".into())));
    }

    #[test]
    fn newgame_takes_variant_and_rotation_in_any_order() {
        let expected = new_game(0, &[("Variant", "advanced"), ("Rotation", "90")]);
        assert_eq!(parse("newgame advanced rotation 90"), Ok(expected));
        assert_eq!(
            parse("newgame rotation 90 advanced"),
            Ok(new_game(0, &[("Rotation", "90"), ("Variant", "advanced")]))
        );
        assert!(parse("newgame rotation 45").unwrap_err().to_string().contains("is not 0, 90, 180 or 270"));
        assert_eq!(parse("newgame chess"), Ok(Command::NewGame(NewGame::default())));
        assert!(matches!(remarks("newgame chess")[..], [Remark::Ignored(_)]));
        assert!(parse("newgame standard advanced").is_err());
    }

    #[test]
    fn newgame_selects_poldr_with_its_settings() {
        assert_eq!(parse("newgame poldr players 3 size 6"), Ok(new_game(1, &[("Players", "3"), ("Size", "6")])));
        assert_eq!(parse("newgame size 6 players 3"), Ok(new_game(1, &[("Size", "6"), ("Players", "3")])));
        assert_eq!(parse("newgame poldr"), Ok(new_game(1, &[])));
        for bad in [
            "newgame poldr players 4",
            "newgame poldr size 10",
            "newgame poldr bricks 0",
            "newgame poldr bricks",
            "newgame poldr advanced",
            "newgame pods size 5",
            "newgame poldr size 5 size 6",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse("newgame poldr size 10").unwrap_err().to_string(),
            "newgame: Size: '10' is not a whole number from 4 to 9"
        );
        // A mix names the word the user wrote, not the game it stands for.
        for (mixed, word) in [("newgame poldr rotation 90", "rotation"), ("newgame standard size 5", "size")] {
            let error = parse(mixed).unwrap_err().to_string();
            assert!(
                error.starts_with(&format!("newgame: unexpected '{word}', expected the settings of one game")),
                "{error}"
            );
        }
    }

    #[test]
    fn setoption_keeps_spaces_in_names_and_values() {
        assert_eq!(
            parse("setoption name Move Overhead value 1 2  3 "),
            Ok(Command::SetOption { name: "Move Overhead".into(), value: Some("1 2  3".into()) })
        );
        assert_eq!(parse("setoption name hash"), Ok(Command::SetOption { name: "hash".into(), value: None }));
        assert_eq!(parse("setoption name Board value "), Ok(Command::SetOption { name: "Board".into(), value: None }));
        assert!(parse("setoption hash 1").is_err());
        assert!(parse("setoption name value 3").is_err());
        assert!(parse("setoption").is_err());
    }

    #[test]
    fn position_splits_start_and_moves() {
        assert_eq!(
            parse("position startpos moves A@c3 b@d4"),
            Ok(Command::Position { start: Start::StartPos, moves: vec!["A@c3".into(), "b@d4".into()] })
        );
        assert_eq!(
            parse("position fen 6/6/6/6/6/6  w AB 0 0 moves"),
            Ok(Command::Position { start: Start::Fen("6/6/6/6/6/6 w AB 0 0".into()), moves: vec![] })
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert_eq!(parse("position startpos A@c3"), Ok(Command::Position { start: Start::StartPos, moves: vec![] }));
        assert!(matches!(remarks("position startpos A@c3")[..], [Remark::Ignored(_)]));
        assert!(parse("position somewhere").is_err());
    }

    #[test]
    fn position_text_takes_every_shape_of_a_position() {
        let line = "6/6/6/6/6/6 w AB 0 0";
        let moved = |start: Start| Ok((start, vec!["A@c3".to_string(), "b@d4".to_string()]));
        for text in [
            format!("fen {line} moves A@c3 b@d4"),
            format!("{line} moves A@c3 b@d4"),
            format!("position fen {line} moves A@c3 b@d4"),
            format!("position {line}  moves A@c3  b@d4"),
        ] {
            assert_eq!(parse_position_text(&text), moved(Start::Fen(line.into())), "{text}");
        }
        assert_eq!(parse_position_text("startpos moves A@c3 b@d4"), moved(Start::StartPos));
        assert_eq!(parse_position_text("position startpos"), Ok((Start::StartPos, vec![])));
        assert_eq!(parse_position_text(line), Ok((Start::Fen(line.into()), vec![])));
        assert_eq!(
            parse_position_text("startpos A@c3 moves b@d4").unwrap_err().to_string(),
            "position: unexpected 'A@c3', expected 'moves'"
        );
        for bad in ["", "position", "fen", "fen moves A@c3", "moves A@c3"] {
            assert!(parse_position_text(bad).is_err(), "{bad}");
        }
        // The protocol's own command still wants `startpos` or `fen`.
        assert!(parse(&format!("position {line}")).is_err());
    }

    #[test]
    fn go_reads_every_limit_and_both_clock_spellings() {
        let Ok(Command::Go(Go::Search(params))) = parse("go p1time 1000 p2time -5 p1inc 10 binc 20 movestogo 3") else {
            panic!("not a search");
        };
        assert_eq!(params.time, [Some(ms(1000)), Some(ms(0)), None]);
        assert_eq!(params.increment, [Some(ms(10)), Some(ms(20)), None]);
        assert_eq!(params.moves_to_go, Some(3));
        assert_eq!(parse("go perft 3"), Ok(Command::Go(Go::Perft(3))));
        assert!(parse("go perft").is_err() && parse("go perft x").is_err());
        assert_eq!(parse("go perft 2 3"), Ok(Command::Go(Go::Perft(2))));
    }

    #[test]
    fn go_reads_mate_ponder_and_searchmoves() {
        let Ok(Command::Go(Go::Search(params))) = parse("go searchmoves A@c3 b@d4 mate 3 ponder wtime 10 btime 20")
        else {
            panic!("not a search");
        };
        assert_eq!(params.searchmoves, ["A@c3", "b@d4"]);
        assert_eq!((params.mate, params.ponder), (Some(3), true));
        assert_eq!(params.time, [Some(ms(10)), Some(ms(20)), None]);
        assert_eq!(remarks("go mate 3 searchmoves A@c3"), []);
        // `go mate` alone is a limit: not a search until `stop`.
        let limits = SearchParams { mate: Some(2), ..SearchParams::default() }.limits(0, "White", ms(10)).unwrap();
        assert!(!limits.infinite && limits.mate == Some(2));
    }

    #[test]
    fn a_go_forgives_unknown_words_and_searches_depth_1_when_a_limit_cannot_be_read() {
        let depth_one = Command::Go(Go::Search(SearchParams { depth: Some(1), ..SearchParams::default() }));
        for unreadable in [
            "go movetime",
            "go movetime abc",
            "go depth -1",
            "go depth 0",
            "go nodes 1.5",
            "go mate -1",
            "go mate 0",
            "go depth 99999999999",
            "go infinite wtime x",
        ] {
            assert_eq!(parse(unreadable), Ok(depth_one.clone()), "{unreadable}");
            assert!(matches!(remarks(unreadable)[..], [Remark::Unreadable(_)]), "{unreadable}");
        }
        let Ok(Command::Go(Go::Search(params))) = parse("go wtime 1 p1time 2 sideways depth 3 searchmoves") else {
            panic!("not a search");
        };
        // The first of a repeated field counts; unknown words and empty searchmoves are ignored.
        assert_eq!((params.time[0], params.depth, params.searchmoves.len()), (Some(ms(1)), Some(3), 0));
        let remarks = remarks("go wtime 1 p1time 2 sideways depth 3 searchmoves");
        assert_eq!(remarks.len(), 3, "{remarks:?}");
        assert!(remarks.iter().all(|remark| matches!(remark, Remark::Ignored(_))), "{remarks:?}");
    }

    #[test]
    fn a_number_too_large_for_its_field_says_so_with_the_range() {
        let message = |line: &str| match &remarks(line)[..] {
            [Remark::Unreadable(error)] => error.to_string(),
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(
            message("go depth 99999999999"),
            "go: depth '99999999999' is too large: the range is 1 to 4294967295"
        );
        assert_eq!(
            message("go nodes 99999999999999999999"),
            "go: nodes '99999999999999999999' is too large: the range is 0 to 18446744073709551615"
        );
        assert!(message("go wtime 99999999999999999999").contains("too large"));
        assert_eq!(message("go depth 0"), "go: depth needs a depth of at least 1, not '0'");
        assert!(parse("go perft 99999999999").unwrap_err().to_string().contains("too large: the range is 0 to"));
        // A clock however far below zero has run out.
        let Ok(Command::Go(Go::Search(params))) = parse("go wtime -99999999999999999999 btime 5") else {
            panic!("not a search");
        };
        assert_eq!(params.time[0], Some(Duration::ZERO));
    }

    #[test]
    fn only_the_side_to_move_clock_counts() {
        let Ok(Command::Go(Go::Search(params))) = parse("go wtime 60000 btime 300 winc 5 binc 7") else {
            panic!("not a search");
        };
        let limits = params.limits(1, "Black", ms(10)).unwrap();
        let clock = limits.clock.unwrap();
        assert_eq!((clock.remaining, clock.increment), (ms(300), ms(7)));
        assert!(!limits.infinite);
        let only_white = SearchParams { time: [Some(ms(1000)), None, None], ..SearchParams::default() };
        assert!(only_white.limits(1, "Black", ms(10)).unwrap_err().contains("p2 (Black): add p2time"));
        assert!(only_white.limits(2, "Red", ms(10)).unwrap_err().contains("p3 (Red): add p3time"));
        assert!(SearchParams::default().limits(0, "White", ms(10)).unwrap().infinite);
    }

    #[test]
    fn queries_parse() {
        assert_eq!(parse("query p1turn"), Ok(Command::Query(Query::P1Turn)));
        assert_eq!(parse("query turn"), Ok(Command::Query(Query::Turn)));
        assert_eq!(parse("query islegal A@c3"), Ok(Command::Query(Query::IsLegal("A@c3".into()))));
        assert!(parse("query").is_err());
        assert!(parse("query islegal").is_err());
        assert!(parse("query weather").is_err());
    }

    #[test]
    fn long_words_are_cut_short_in_messages() {
        let error = parse(&"x".repeat(100_000)).unwrap_err().to_string();
        assert!(error.len() < 300, "{error}");
    }
}
