//! The registry of games: every game Podium plays declares here, once, what
//! the layers above need to serve it without naming its types: its name and
//! seats, its typed setup parameters (each with its range, default and one
//! line of help), how to make its start position and read a position line,
//! and its bench positions. The protocol (options, `newgame`, positions),
//! the command line, `bench` and `analyse` loop over a `Registry`.
//!
//! Adding a game means a folder under `src/games/` whose `GameType` is one
//! more entry of `Registry::builtin`.

use std::ops::RangeInclusive;
use std::sync::Arc;

use super::Session;

/// What kind of value a parameter takes, with its range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number within the range.
    Spin(RangeInclusive<u64>),
    /// `true` or `false`, in any case.
    Check,
    /// One of these words, in any case.
    Combo(Vec<String>),
    /// Free text that the owner of the parameter reads (a board, a weights list).
    Text,
    /// No value: setting it is an action.
    Button,
}

impl Kind {
    /// The protocol's name for the kind, as `ugi` declares it.
    pub fn protocol_name(&self) -> &'static str {
        match self {
            Kind::Spin(_) => "spin",
            Kind::Check => "check",
            Kind::Combo(_) => "combo",
            Kind::Text => "string",
            Kind::Button => "button",
        }
    }
}

/// One declared setting: a game's setup parameter, or an engine option.
/// Everything that shows or reads the setting (the `ugi` declaration,
/// `setoption`, `newgame`, the command line, protocol.md's option table)
/// comes from this one declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parameter {
    /// The name as options spell it, as `Size`; matched in any case.
    pub name: &'static str,
    /// What values it takes.
    pub kind: Kind,
    /// The default, in the form `value` reads (empty for a button).
    pub default: String,
    /// One line for people: what it changes.
    pub help: &'static str,
    /// Whether it describes the start position only (a position line
    /// carries it): the command line refuses it beside `--fen`.
    pub start_only: bool,
}

impl Parameter {
    /// A whole-number parameter.
    pub fn spin(name: &'static str, range: RangeInclusive<u64>, default: u64, help: &'static str) -> Parameter {
        Parameter { name, kind: Kind::Spin(range), default: default.to_string(), help, start_only: false }
    }

    /// A `true`/`false` parameter.
    pub fn check(name: &'static str, default: bool, help: &'static str) -> Parameter {
        Parameter { name, kind: Kind::Check, default: default.to_string(), help, start_only: false }
    }

    /// A parameter that takes one of `values`.
    pub fn combo<T: ToString>(
        name: &'static str,
        values: impl IntoIterator<Item = T>,
        default: impl ToString,
        help: &'static str,
    ) -> Parameter {
        let values = values.into_iter().map(|value| value.to_string()).collect();
        Parameter { name, kind: Kind::Combo(values), default: default.to_string(), help, start_only: false }
    }

    /// A free-text parameter, read by its owner.
    pub fn text(name: &'static str, default: impl Into<String>, help: &'static str) -> Parameter {
        Parameter { name, kind: Kind::Text, default: default.into(), help, start_only: false }
    }

    /// A button: no value.
    pub fn button(name: &'static str, help: &'static str) -> Parameter {
        Parameter { name, kind: Kind::Button, default: String::new(), help, start_only: false }
    }

    /// The same parameter, marked as describing the start position only.
    pub fn for_start_only(mut self) -> Parameter {
        self.start_only = true;
        self
    }

    /// The value as this parameter keeps it (a combo's word as declared,
    /// a check's in lower case), or why `text` is not one of its values.
    /// Free text passes unchanged: its owner reads it.
    pub fn read(&self, text: &str) -> Result<String, ValueError> {
        let refuse = |expected: String| ValueError { name: self.name, value: text.to_string(), expected };
        match &self.kind {
            Kind::Spin(range) => match text.parse::<u64>() {
                Ok(number) if range.contains(&number) => Ok(number.to_string()),
                _ => Err(refuse(format!("a whole number from {} to {}", range.start(), range.end()))),
            },
            Kind::Check => match text.to_ascii_lowercase().as_str() {
                word @ ("true" | "false") => Ok(word.to_string()),
                _ => Err(refuse("true or false".to_string())),
            },
            Kind::Combo(values) => values
                .iter()
                .find(|value| value.eq_ignore_ascii_case(text))
                .cloned()
                .ok_or_else(|| refuse(one_of(values))),
            // How `ugi` writes an empty default, so a controller may send it back.
            Kind::Text if text == "<empty>" => Ok(String::new()),
            Kind::Text => Ok(text.to_string()),
            Kind::Button => Err(refuse("no value (it is a button)".to_string())),
        }
    }

    /// The `ugi` line that declares it: `option name Size type spin default 5 min 4 max 9`.
    pub fn declaration(&self) -> String {
        let head = format!("option name {} type {}", self.name, self.kind.protocol_name());
        match &self.kind {
            Kind::Spin(range) => format!("{head} default {} min {} max {}", self.default, range.start(), range.end()),
            Kind::Check => format!("{head} default {}", self.default),
            Kind::Combo(values) => {
                let vars: Vec<String> = values.iter().map(|value| format!("var {value}")).collect();
                format!("{head} default {} {}", self.default, vars.join(" "))
            }
            // As Stockfish writes an empty string's default.
            Kind::Text if self.default.is_empty() => format!("{head} default <empty>"),
            Kind::Text => format!("{head} default {}", self.default),
            Kind::Button => head,
        }
    }
}

/// `a, b or c`.
fn one_of(values: &[String]) -> String {
    match values {
        [] => "nothing".to_string(),
        [only] => only.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// A value a parameter does not take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{name}: '{value}' is not {expected}")]
pub struct ValueError {
    /// The parameter's name.
    pub name: &'static str,
    /// The value as given.
    pub value: String,
    /// What the parameter takes, in words.
    pub expected: String,
}

/// The values of a game's parameters, by name, each already read by its
/// parameter. A game reads them back with the typed getters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Values {
    entries: Vec<(&'static str, String)>,
}

impl Values {
    /// Every parameter at its default.
    pub fn defaults(parameters: &[Parameter]) -> Values {
        Values { entries: parameters.iter().map(|parameter| (parameter.name, parameter.default.clone())).collect() }
    }

    /// The value of `name` as kept, or `None` if there is no such parameter.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.entries.iter().find(|(known, _)| known.eq_ignore_ascii_case(name)).map(|(_, value)| value.as_str())
    }

    /// Sets a value that its parameter has read; returns whether `name` is one of them.
    pub fn set(&mut self, name: &str, value: String) -> bool {
        match self.entries.iter_mut().find(|(known, _)| known.eq_ignore_ascii_case(name)) {
            Some((_, slot)) => {
                *slot = value;
                true
            }
            None => false,
        }
    }

    /// The text of a parameter the game declared.
    pub fn text(&self, name: &str) -> &str {
        self.get(name).unwrap_or_else(|| panic!("the game declares no parameter {name}"))
    }

    /// A spin parameter's value: declared, so in its range.
    pub fn number(&self, name: &str) -> u64 {
        self.text(name).parse().unwrap_or_else(|_| panic!("{name} holds a number"))
    }

    /// A check parameter's value.
    pub fn flag(&self, name: &str) -> bool {
        self.text(name) == "true"
    }

    /// The names and values, in the order of the declaration.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &str)> {
        self.entries.iter().map(|(name, value)| (*name, value.as_str()))
    }
}

/// Why a game cannot be set up, or a position not read: the game's own
/// typed error, whose message says what was expected.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct GameError(pub Box<dyn std::error::Error + Send + Sync>);

impl GameError {
    /// Wraps any error of a game.
    pub fn new(error: impl std::error::Error + Send + Sync + 'static) -> GameError {
        GameError(Box::new(error))
    }
}

/// A position the bench searches: the parameters it needs beyond the
/// defaults, and its position line.
#[derive(Clone, Debug)]
pub struct BenchPosition {
    /// Parameters set for this position, as `("Variant", "advanced")`.
    pub settings: Vec<(&'static str, &'static str)>,
    /// The position line.
    pub line: &'static str,
}

/// What `podium bench` searches of a game: fixed positions to a fixed depth.
#[derive(Clone, Debug)]
pub struct Bench {
    /// Searched to this depth unless the bench is asked for another (the
    /// first game's depth can be set from the command line).
    pub depth: u32,
    /// The positions, searched in order.
    pub positions: Vec<BenchPosition>,
    /// `podium bench perft` counts this deep from the start of each
    /// setting of the positions.
    pub perft_depth: u32,
}

/// A game as the registry knows it: everything about it that is the same
/// for every setting of its parameters.
pub trait GameType: Send + Sync {
    /// The name the protocol and the command line use, in lower case: `pods`.
    fn name(&self) -> &'static str;
    /// The name for people: `POLD.R`.
    fn title(&self) -> &'static str;
    /// How many players a game can have.
    fn seats(&self) -> RangeInclusive<usize>;
    /// The setup parameters, in the order `ugi` declares them.
    fn parameters(&self) -> Vec<Parameter>;
    /// The parameter whose values are the game's variants, if it has
    /// some: `newgame` takes them as words of their own (`newgame advanced`).
    fn variant_parameter(&self) -> Option<&'static str> {
        None
    }
    /// The game under these parameter values, or why they do not make one
    /// (a text parameter that does not read, say).
    fn setup(&self, values: &Values) -> Result<Arc<dyn GameSetup>, GameError>;
    /// What `podium bench` searches.
    fn bench(&self) -> Bench;
    /// Fits the evaluation's weights to the results of games (`podium
    /// tune`), returning the lines to print; a game that cannot says so.
    fn tune(&self, _values: &Values, _request: &TuneRequest) -> Result<Vec<String>, GameError> {
        Err(GameError::new(Unsupported { game: self.name(), what: "tune" }))
    }
}

/// What `podium tune` asks of a game.
#[derive(Clone, Debug, Default)]
pub struct TuneRequest {
    /// The games, each with its line number in the input: the result, a
    /// start (`startpos` or a position line) and `moves <move>...`.
    pub games: Vec<(usize, String)>,
    /// The features whose weights are fitted, by name (empty: the game's choice).
    pub features: Vec<String>,
    /// The weights to start from, as `name=value` pairs (default: the game's own).
    pub weights: Option<String>,
    /// The evaluation's units: a score of `scale` is a win e to 1 against
    /// (default: the game's best fit).
    pub scale: Option<f64>,
    /// At most this many steps of the fit.
    pub steps: usize,
}

/// A command the game does not offer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{game} has no {what}")]
pub(crate) struct Unsupported {
    /// The game's name.
    pub game: &'static str,
    /// What was asked of it.
    pub what: &'static str,
}

/// A game with its parameters set: it makes games in progress.
pub trait GameSetup: Send + Sync {
    /// A game from the start position.
    fn start(&self) -> Box<dyn Session>;
    /// A game from a position line, read under these rules.
    fn session_at(&self, line: &str) -> Result<Box<dyn Session>, GameError>;
    /// The position lines of the other images of `line`'s position under
    /// the game's symmetries, where it has some: games the same up to a
    /// symmetry, so their perft counts agree (the conformance tests check it).
    fn symmetric_lines(&self, _line: &str) -> Vec<String> {
        Vec::new()
    }
}

/// The games one engine serves, in order: the first is the default.
#[derive(Clone)]
pub struct Registry {
    games: Vec<Arc<dyn GameType>>,
}

impl Registry {
    /// Pods and POLD.R.
    pub fn builtin() -> Registry {
        Registry::new(vec![Arc::new(super::pods::Pods), Arc::new(super::poldr::Poldr)])
    }

    /// These games. Their names must differ from each other in any case,
    /// and so must the names of all their parameters (parameters are
    /// options); a game may share its name with a parameter (`newgame pods`
    /// is the game, `setoption name Pods` the pod set).
    pub fn new(games: Vec<Arc<dyn GameType>>) -> Registry {
        assert!(!games.is_empty(), "a registry holds a game");
        let distinct = |names: Vec<&str>| {
            let mut lower: Vec<String> = names.iter().map(|name| name.to_ascii_lowercase()).collect();
            lower.sort();
            lower.dedup();
            lower.len() == names.len()
        };
        assert!(distinct(games.iter().map(|game| game.name()).collect()), "two games of one name");
        let parameters: Vec<Parameter> = games.iter().flat_map(|game| game.parameters()).collect();
        assert!(distinct(parameters.iter().map(|p| p.name).collect()), "two parameters of one name");
        Registry { games }
    }

    /// The games, the default first.
    pub fn games(&self) -> &[Arc<dyn GameType>] {
        &self.games
    }

    /// The game of that name, in any case.
    pub fn find(&self, name: &str) -> Option<&Arc<dyn GameType>> {
        self.games.iter().find(|game| game.name().eq_ignore_ascii_case(name))
    }

    /// The index of the game of that name, in any case.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.games.iter().position(|game| game.name().eq_ignore_ascii_case(name))
    }

    /// Every game's name, for messages: `pods or poldr`.
    pub fn names(&self) -> String {
        let names: Vec<&str> = self.games.iter().map(|game| game.name()).collect();
        match names.split_last() {
            Some((last, init)) if !init.is_empty() => format!("{} or {last}", init.join(", ")),
            _ => names.join(""),
        }
    }

    /// The game and the parameter of that name, in any case.
    pub fn parameter(&self, name: &str) -> Option<(usize, Parameter)> {
        self.games.iter().enumerate().find_map(|(index, game)| {
            game.parameters()
                .into_iter()
                .find(|parameter| parameter.name.eq_ignore_ascii_case(name))
                .map(|p| (index, p))
        })
    }

    /// The game whose variant is called `word`, with the variant's parameter.
    pub fn variant(&self, word: &str) -> Option<(usize, Parameter)> {
        self.games.iter().enumerate().find_map(|(index, game)| {
            let name = game.variant_parameter()?;
            let parameter = game.parameters().into_iter().find(|parameter| parameter.name == name)?;
            parameter.read(word).is_ok().then_some((index, parameter))
        })
    }
}

/// Why the settings a person gave do not select and set up a game.
#[derive(Debug, thiserror::Error)]
pub enum SelectError {
    /// No game has that name.
    #[error("'{name}' is not a game: {games}")]
    UnknownGame {
        /// The name as given.
        name: String,
        /// The games there are, for the message.
        games: String,
    },
    /// No game has a parameter of that name.
    #[error("no game has a setting '{0}'")]
    UnknownParameter(String),
    /// A parameter of another game than the one named.
    #[error("{parameter} is a setting of {owner}, not of {game}")]
    OtherGame {
        /// The parameter's name.
        parameter: &'static str,
        /// The game it belongs to.
        owner: &'static str,
        /// The game named.
        game: &'static str,
    },
    /// Parameters of two games, and no game named.
    #[error("settings of two games: {first} and {second}; name the game")]
    TwoGames {
        /// The game of the first setting.
        first: &'static str,
        /// The other game.
        second: &'static str,
    },
    /// A value its parameter does not take.
    #[error(transparent)]
    Value(ValueError),
    /// The values do not make a game.
    #[error(transparent)]
    Setup(GameError),
}

/// A game chosen and set up from settings given by a person.
pub struct Selected {
    /// The game's index in the registry.
    pub index: usize,
    /// The values of all its parameters: the settings over the defaults.
    pub values: Values,
    /// The game under those values.
    pub setup: Arc<dyn GameSetup>,
}

impl Registry {
    /// The game `game` names, or else the one the settings belong to, or
    /// else the first; set up with `settings` (parameter names in any case,
    /// values as the parameters read them) over its defaults.
    pub fn select(&self, game: Option<&str>, settings: &[(&str, &str)]) -> Result<Selected, SelectError> {
        let named = match game {
            Some(name) => Some(
                self.index_of(name)
                    .ok_or_else(|| SelectError::UnknownGame { name: name.to_string(), games: self.names() })?,
            ),
            None => None,
        };
        let mut owners = Vec::new();
        for &(name, _) in settings {
            let (owner, parameter) =
                self.parameter(name).ok_or_else(|| SelectError::UnknownParameter(name.to_string()))?;
            match named.or(owners.first().copied()) {
                Some(index) if index != owner && named.is_some() => {
                    return Err(SelectError::OtherGame {
                        parameter: parameter.name,
                        owner: self.games[owner].name(),
                        game: self.games[index].name(),
                    });
                }
                Some(index) if index != owner => {
                    return Err(SelectError::TwoGames {
                        first: self.games[index].name(),
                        second: self.games[owner].name(),
                    });
                }
                _ => owners.push(owner),
            }
        }
        let index = named.or(owners.first().copied()).unwrap_or(0);
        let game = &self.games[index];
        let parameters = game.parameters();
        let mut values = Values::defaults(&parameters);
        for &(name, text) in settings {
            let parameter = parameters.iter().find(|p| p.name.eq_ignore_ascii_case(name)).expect("checked above");
            values.set(parameter.name, parameter.read(text).map_err(SelectError::Value)?);
        }
        let setup = game.setup(&values).map_err(SelectError::Setup)?;
        Ok(Selected { index, values, setup })
    }
}
