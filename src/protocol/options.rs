//! The engine's options. Each is declared once, as a `Parameter` (name,
//! kind, range, default, help): the `ugi` declaration, `setoption`'s
//! reading and protocol.md's option table (checked by a test) all come
//! from that declaration. The games' own parameters (`Variant`, `Size`,
//! ...) are options too; they come from the registry.

use std::time::Duration;

use crate::games::registry::{Parameter, Registry, Values};
use crate::search::MultiplayerSearch;

/// The options of the engine itself, as opposed to the games' parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EngineOption {
    Hash,
    Threads,
    Game,
    MoveOverhead,
    MaxPlies,
    MultiplayerSearch,
    MultiPv,
    Ponder,
    OwnBook,
    /// A button: empties the hash table and everything learned.
    ClearHash,
}

/// The largest table in megabytes: game trees here are small, so a
/// gigabyte is plenty, and a larger table could not be allocated on every
/// machine.
pub const MAX_HASH_MEGABYTES: u64 = 1024;

impl EngineOption {
    /// In the order `ugi` declares them (the games' parameters follow `Game`).
    pub const ALL: [EngineOption; 10] = [
        EngineOption::Hash,
        EngineOption::Threads,
        EngineOption::Game,
        EngineOption::MoveOverhead,
        EngineOption::MaxPlies,
        EngineOption::MultiplayerSearch,
        EngineOption::MultiPv,
        EngineOption::Ponder,
        EngineOption::OwnBook,
        EngineOption::ClearHash,
    ];

    /// The one declaration of the option.
    pub fn parameter(self, registry: &Registry) -> Parameter {
        match self {
            EngineOption::Hash => Parameter::spin(
                "Hash",
                1..=MAX_HASH_MEGABYTES,
                64,
                "transposition table size in MB; the table of proved positions takes half as much again",
            ),
            EngineOption::Threads => Parameter::spin(
                "Threads",
                1..=256,
                1,
                "search threads: helpers search the same position a ply or two deeper and share the hash table \
                 (lazy SMP); in the standard Pods game, in POLD.R once at most 90 plies can be left, and under `go \
                 mate` or `go infinite` wherever the game bounds its length (not the advanced game), the first \
                 helper instead proves the result the whole search long, and a proof it finds ends the search as \
                 the main thread's own would; only the main thread reports and decides, and it takes over a \
                 helper's completed deeper iteration (reported as its own line at that depth)",
            ),
            EngineOption::Game => Parameter::combo(
                "Game",
                registry.games().iter().map(|game| game.name()),
                registry.games()[0].name(),
                "the game played; starts a new game",
            ),
            EngineOption::MoveOverhead => Parameter::spin(
                "MoveOverhead",
                0..=5000,
                10,
                "milliseconds kept back from every time limit for the controller's delays",
            ),
            EngineOption::MaxPlies => Parameter::spin(
                "MaxPlies",
                0..=100_000,
                0,
                "0: no limit. Otherwise a game reaching that many plies is drawn, in `query` answers and in the \
                 search, so that a runner without a length limit of its own always finishes (Pods; POLD.R ends by \
                 its own rules); applies to the current game at once",
            ),
            EngineOption::MultiplayerSearch => Parameter::combo(
                "MultiplayerSearch",
                MultiplayerSearch::ALL,
                MultiplayerSearch::default(),
                "how searches of three players treat the others (section 9)",
            ),
            EngineOption::MultiPv => {
                Parameter::spin("MultiPV", 1..=256, 1, "how many best lines each iteration reports (see `go`)")
            }
            EngineOption::Ponder => Parameter::check("Ponder", false, "`bestmove` names the reply to ponder on"),
            EngineOption::OwnBook => Parameter::check(
                "OwnBook",
                true,
                "play the proved moves the game carries (proof trees of the standard Pods game's proved 4-ply \
                 openings; of POLD.R's 5x5 and 6x6 starts and the refutations of Blue's losing first moves on \
                 5x5) where a search would try proofs, reported as `info string book: ...` and a mate score: \
                 under a clock at once, under `movetime` after the time is used; false: search those positions \
                 as any other",
            ),
            EngineOption::ClearHash => Parameter::button(
                "Clear Hash",
                "empties the hash table, the proofs and the move-ordering history (no value)",
            ),
        }
    }
}

/// An option of the engine or of one of its games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum OptionName {
    Engine(EngineOption),
    /// A parameter of the registry's game of this index.
    Game(usize, Parameter),
}

impl OptionName {
    /// The option of that name, in any case (controllers send `hash`).
    pub fn find(registry: &Registry, name: &str) -> Option<OptionName> {
        EngineOption::ALL
            .into_iter()
            .find(|option| option.parameter(registry).name.eq_ignore_ascii_case(name))
            .map(OptionName::Engine)
            .or_else(|| registry.parameter(name).map(|(game, parameter)| OptionName::Game(game, parameter)))
    }

    /// The option's declaration.
    pub fn parameter(&self, registry: &Registry) -> Parameter {
        match self {
            OptionName::Engine(option) => option.parameter(registry),
            OptionName::Game(_, parameter) => parameter.clone(),
        }
    }
}

/// Every option's declaration, in the order `ugi` prints them: the
/// engine's, with each game's parameters after `Game`.
pub(crate) fn declarations(registry: &Registry) -> Vec<Parameter> {
    let mut all = Vec::new();
    for option in EngineOption::ALL {
        all.push(option.parameter(registry));
        if option == EngineOption::Game {
            all.extend(registry.games().iter().flat_map(|game| game.parameters()));
        }
    }
    all
}

/// Everything `setoption` can change.
#[derive(Clone, Debug)]
pub(crate) struct Settings {
    pub hash_megabytes: usize,
    pub threads: usize,
    /// The selected game: its index in the registry.
    pub game: usize,
    pub move_overhead: Duration,
    /// A game reaching this ply is drawn; 0 means no limit.
    pub max_plies: u32,
    /// How a search of more than two players treats the others.
    pub multiplayer: MultiplayerSearch,
    /// How many best lines a search reports (MultiPV).
    pub lines: usize,
    /// Whether `bestmove` names the move to ponder on.
    pub ponder: bool,
    /// Whether the games' books of proved moves are played (`OwnBook`).
    pub own_book: bool,
    /// Each game's parameters, in the registry's order; a game keeps its
    /// own while another is selected.
    pub games: Vec<Values>,
}

impl Settings {
    /// Every option at its default.
    pub fn new(registry: &Registry) -> Settings {
        let mut settings = Settings {
            hash_megabytes: 0,
            threads: 0,
            game: 0,
            move_overhead: Duration::ZERO,
            max_plies: 0,
            multiplayer: MultiplayerSearch::default(),
            lines: 0,
            ponder: false,
            own_book: false,
            games: registry.games().iter().map(|game| Values::defaults(&game.parameters())).collect(),
        };
        for option in EngineOption::ALL {
            let default = option.parameter(registry).default;
            settings.apply(registry, option, &default);
        }
        settings
    }

    /// The selected game's parameters.
    pub fn values(&self) -> &Values {
        &self.games[self.game]
    }

    /// Reads `value` into `option`; on error nothing changes and the message
    /// names the option and says what was expected. A game's parameter is
    /// checked by setting the game up with it.
    pub fn set(&mut self, registry: &Registry, option: &OptionName, value: &str) -> Result<(), String> {
        let value = option.parameter(registry).read(value).map_err(|error| error.to_string())?;
        match option {
            OptionName::Engine(option) => self.apply(registry, *option, &value),
            OptionName::Game(game, parameter) => {
                let mut values = self.games[*game].clone();
                values.set(parameter.name, value);
                registry.games()[*game].setup(&values).map_err(|error| error.to_string())?;
                self.games[*game] = values;
            }
        }
        Ok(())
    }

    /// Sets an engine option to a value its declaration has read.
    fn apply(&mut self, registry: &Registry, option: EngineOption, value: &str) {
        let number = || value.parse::<u64>().expect("a spin's value is a number");
        match option {
            EngineOption::Hash => self.hash_megabytes = number() as usize,
            EngineOption::Threads => self.threads = number() as usize,
            EngineOption::Game => self.game = registry.index_of(value).expect("a combo's value is a game"),
            EngineOption::MoveOverhead => self.move_overhead = Duration::from_millis(number()),
            EngineOption::MaxPlies => self.max_plies = number() as u32,
            EngineOption::MultiplayerSearch => {
                self.multiplayer = value.parse().expect("a combo's value is a multiplayer search")
            }
            EngineOption::MultiPv => self.lines = number() as usize,
            EngineOption::Ponder => self.ponder = value == "true",
            EngineOption::OwnBook => self.own_book = value == "true",
            // A button has no value to keep; the engine acts on it.
            EngineOption::ClearHash => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::registry::Kind;

    /// protocol.md's table of the options: one row per declaration, with the
    /// game each game parameter belongs to (a test keeps the two the same).
    fn markdown_table(registry: &Registry) -> String {
        let mut table = String::from("| name | type | default | range | effect |\n|---|---|---|---|---|\n");
        let owner = |name: &str| registry.parameter(name).map(|(game, _)| registry.games()[game].title());
        for parameter in declarations(registry) {
            let range = match &parameter.kind {
                Kind::Spin(range) => format!("{}-{}", range.start(), range.end()),
                Kind::Check => "`true`, `false`".to_string(),
                Kind::Combo(values) => values.iter().map(|value| format!("`{value}`")).collect::<Vec<_>>().join(", "),
                Kind::Text => "text".to_string(),
                Kind::Button => String::new(),
            };
            let default = match &parameter.kind {
                Kind::Button => String::new(),
                Kind::Text if parameter.default.is_empty() => "`<empty>`".to_string(),
                // A board or a pod set: too long for a table.
                Kind::Text if parameter.default.len() > 40 => "as `ugi` prints it".to_string(),
                _ => format!("`{}`", parameter.default),
            };
            let effect = match owner(parameter.name) {
                Some(game) => format!("{game}: {}; starts a new game", parameter.help),
                None => parameter.help.to_string(),
            };
            let row =
                [format!("`{}`", parameter.name), parameter.kind.protocol_name().to_string(), default, range, effect];
            // A cell's own bars (the board's one-line form has some) are escaped.
            let cells: Vec<String> = row.iter().map(|cell| cell.replace('|', "\\|")).collect();
            table.push_str(&format!("| {} |\n", cells.join(" | ")));
        }
        table
    }

    fn find(name: &str) -> Option<OptionName> {
        OptionName::find(&Registry::builtin(), name)
    }

    #[test]
    fn names_are_found_in_any_case() {
        assert_eq!(find("hash"), Some(OptionName::Engine(EngineOption::Hash)));
        assert_eq!(find("MAXPLIES"), Some(OptionName::Engine(EngineOption::MaxPlies)));
        assert!(matches!(find("size"), Some(OptionName::Game(1, parameter)) if parameter.name == "Size"));
        assert_eq!(find("ownbook"), Some(OptionName::Engine(EngineOption::OwnBook)));
        assert_eq!(find("book"), None);
    }

    #[test]
    fn declarations_carry_the_defaults() {
        let registry = Registry::builtin();
        let lines: Vec<String> = declarations(&registry).iter().map(Parameter::declaration).collect();
        for expected in [
            "option name Hash type spin default 64 min 1 max 1024",
            "option name Variant type combo default standard var standard var advanced",
            "option name MultiplayerSearch type combo default mcts var paranoid var maxn var mcts var brs var mcts-eval",
            "option name Game type combo default pods var pods var poldr",
            "option name Clear Hash type button",
            "option name EvalWeights type string default <empty>",
        ] {
            assert!(lines.iter().any(|line| line == expected), "{expected} not in {lines:?}");
        }
        assert!(lines.iter().all(|line| !line.ends_with(' ')), "{lines:?}");
    }

    /// protocol.md's option table is the one the declarations make; with
    /// `PODIUM_BLESS=1` the test writes it there instead of failing.
    #[test]
    fn protocol_md_declares_the_options_as_the_engine_does() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md");
        let text = std::fs::read_to_string(path).expect("protocol.md");
        let table = markdown_table(&Registry::builtin());
        let start = text.find("| name | type | default | range | effect |").expect("an option table in protocol.md");
        let end = text[start..].find("\n\n").map_or(text.len(), |length| start + length + 1);
        if text[start..end] == table {
            return;
        }
        if std::env::var_os("PODIUM_BLESS").is_some() {
            std::fs::write(path, format!("{}{table}{}", &text[..start], &text[end..])).expect("protocol.md written");
            return;
        }
        panic!(
            "protocol.md's option table differs from the declarations (run with PODIUM_BLESS=1 to rewrite it):\n{}",
            table
        );
    }

    #[test]
    fn bad_values_change_nothing() {
        let registry = Registry::builtin();
        let mut settings = Settings::new(&registry);
        for (name, value) in [
            ("Hash", "0"),
            ("Hash", "lots"),
            ("Variant", "chess"),
            ("Rotation", "45"),
            ("Board", "o-o"),
            ("Pods", "A="),
            ("PlacementLiberty", "yes"),
            ("MaxPlies", "-1"),
            ("MultiplayerSearch", "minimax"),
            ("EvalWeights", "tempo=x"),
            ("Game", "chess"),
        ] {
            let option = find(name).expect(name);
            let error = settings.set(&registry, &option, value).unwrap_err();
            assert!(error.starts_with(name), "{error}");
        }
        assert_eq!(settings.hash_megabytes, 64);
        assert_eq!(settings.values().text("Variant"), "standard");
        settings.set(&registry, &find("Variant").unwrap(), "Advanced").unwrap();
        settings.set(&registry, &find("PlacementLiberty").unwrap(), "TRUE").unwrap();
        assert_eq!((settings.values().text("Variant"), settings.values().flag("PlacementLiberty")), ("advanced", true));
    }
}
