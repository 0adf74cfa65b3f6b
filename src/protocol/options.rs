//! The engine's options: their names, types, defaults and ranges (declared
//! in the handshake), and how a `setoption` value is read.

use std::ops::RangeInclusive;
use std::time::Duration;

use crate::games::GameKind;
use crate::games::pods::{Board, PodSet, Rotation, Rules, Variant, Weights};
use crate::search::MultiplayerSearch;

/// Everything `setoption` can change.
#[derive(Clone, Debug)]
pub struct Settings {
    pub hash_megabytes: usize,
    pub threads: usize,
    /// The selected game; the settings of the other stay as they are.
    pub game: GameKind,
    pub variant: Variant,
    pub rotation: Rotation,
    pub board: Board,
    pub pods: PodSet,
    pub placement_liberty: bool,
    pub move_overhead: Duration,
    /// A game reaching this ply is drawn; 0 means no limit (Pods).
    pub max_plies: u32,
    /// POLD.R: players, board size and bricks per player for `startpos`.
    pub players: u8,
    pub size: u8,
    pub bricks: u8,
    /// How a search of more than two players treats the others.
    pub multiplayer: MultiplayerSearch,
    /// How many best lines a search reports (MultiPV).
    pub lines: usize,
    /// Whether `bestmove` names the move to ponder on.
    pub ponder: bool,
    /// Pods: evaluation weights that replace the variant's own, as
    /// `name=value` pairs (empty: none).
    pub eval_weights: String,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            hash_megabytes: 64,
            threads: 1,
            game: GameKind::Pods,
            variant: Variant::Standard,
            rotation: Rotation::R0,
            board: Board::default(),
            pods: PodSet::default(),
            placement_liberty: false,
            move_overhead: Duration::from_millis(10),
            max_plies: 0,
            players: 2,
            size: 5,
            bricks: 16,
            multiplayer: MultiplayerSearch::Paranoid,
            lines: 1,
            ponder: false,
            eval_weights: String::new(),
        }
    }
}

impl Settings {
    /// The rules these settings describe.
    pub fn rules(&self) -> Rules {
        Rules::new(self.variant, self.board, self.pods.clone(), self.placement_liberty)
    }

    /// The Pods evaluation's weights: the variant's own, with the
    /// `EvalWeights` option's replacements.
    pub fn weights(&self) -> Weights {
        Weights::for_variant(self.variant).with_text(&self.eval_weights).unwrap_or(Weights::for_variant(self.variant))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineOption {
    Hash,
    Threads,
    Game,
    Variant,
    Rotation,
    Board,
    Pods,
    PlacementLiberty,
    MoveOverhead,
    MaxPlies,
    Players,
    Size,
    Bricks,
    MultiplayerSearch,
    MultiPv,
    Ponder,
    /// A button: empties the hash table and everything learned.
    ClearHash,
    EvalWeights,
}

/// Pods trees are small: a gigabyte is plenty, and a larger table could not
/// be allocated on every machine.
pub const HASH_MEGABYTES: RangeInclusive<u64> = 1..=1024;
const THREADS: RangeInclusive<u64> = 1..=256;
const MOVE_OVERHEAD_MS: RangeInclusive<u64> = 0..=5000;
const MAX_PLIES: RangeInclusive<u64> = 0..=100_000;
const PLAYERS: RangeInclusive<u64> = 2..=3;
const SIZE: RangeInclusive<u64> = 4..=9;
const BRICKS: RangeInclusive<u64> = 1..=40;
const LINES: RangeInclusive<u64> = 1..=256;

impl EngineOption {
    pub const ALL: [EngineOption; 18] = [
        EngineOption::Hash,
        EngineOption::Threads,
        EngineOption::Game,
        EngineOption::Variant,
        EngineOption::Rotation,
        EngineOption::Board,
        EngineOption::Pods,
        EngineOption::PlacementLiberty,
        EngineOption::MoveOverhead,
        EngineOption::MaxPlies,
        EngineOption::Players,
        EngineOption::Size,
        EngineOption::Bricks,
        EngineOption::MultiplayerSearch,
        EngineOption::MultiPv,
        EngineOption::Ponder,
        EngineOption::ClearHash,
        EngineOption::EvalWeights,
    ];

    pub fn name(self) -> &'static str {
        match self {
            EngineOption::Hash => "Hash",
            EngineOption::Threads => "Threads",
            EngineOption::Variant => "Variant",
            EngineOption::Rotation => "Rotation",
            EngineOption::Board => "Board",
            EngineOption::Pods => "Pods",
            EngineOption::PlacementLiberty => "PlacementLiberty",
            EngineOption::MoveOverhead => "MoveOverhead",
            EngineOption::MaxPlies => "MaxPlies",
            EngineOption::Game => "Game",
            EngineOption::Players => "Players",
            EngineOption::Size => "Size",
            EngineOption::Bricks => "Bricks",
            EngineOption::MultiplayerSearch => "MultiplayerSearch",
            EngineOption::MultiPv => "MultiPV",
            EngineOption::Ponder => "Ponder",
            EngineOption::ClearHash => "Clear Hash",
            EngineOption::EvalWeights => "EvalWeights",
        }
    }

    /// The option of that name, in any case (controllers send `hash`).
    pub fn find(name: &str) -> Option<EngineOption> {
        EngineOption::ALL.into_iter().find(|option| option.name().eq_ignore_ascii_case(name))
    }

    /// Every option name, for messages.
    pub fn names() -> String {
        EngineOption::ALL.map(EngineOption::name).join(", ")
    }

    /// Whether setting it starts a new game: it changes the rules or the start.
    pub fn starts_new_game(self) -> bool {
        matches!(
            self,
            EngineOption::Game
                | EngineOption::Players
                | EngineOption::Size
                | EngineOption::Bricks
                | EngineOption::Variant
                | EngineOption::Rotation
                | EngineOption::Board
                | EngineOption::Pods
                | EngineOption::PlacementLiberty
        )
    }

    /// The handshake line that declares it, with the default value.
    pub fn declaration(self) -> String {
        let defaults = Settings::default();
        let name = self.name();
        let spin = |default: u64, range: RangeInclusive<u64>| {
            format!("option name {name} type spin default {default} min {} max {}", range.start(), range.end())
        };
        match self {
            EngineOption::Hash => spin(defaults.hash_megabytes as u64, HASH_MEGABYTES),
            EngineOption::Threads => spin(defaults.threads as u64, THREADS),
            EngineOption::Variant => {
                format!("option name {name} type combo default {} var standard var advanced", defaults.variant)
            }
            EngineOption::Rotation => {
                format!("option name {name} type combo default {} var 0 var 90 var 180 var 270", defaults.rotation)
            }
            EngineOption::Board => format!("option name {name} type string default {}", defaults.board.one_line()),
            EngineOption::Pods => format!("option name {name} type string default {}", defaults.pods),
            EngineOption::PlacementLiberty => {
                format!("option name {name} type check default {}", defaults.placement_liberty)
            }
            EngineOption::MoveOverhead => spin(defaults.move_overhead.as_millis() as u64, MOVE_OVERHEAD_MS),
            EngineOption::MaxPlies => spin(defaults.max_plies as u64, MAX_PLIES),
            EngineOption::Game => format!("option name {name} type combo default {} var pods var poldr", defaults.game),
            EngineOption::Players => spin(defaults.players as u64, PLAYERS),
            EngineOption::Size => spin(defaults.size as u64, SIZE),
            EngineOption::Bricks => spin(defaults.bricks as u64, BRICKS),
            EngineOption::MultiplayerSearch => {
                let styles: Vec<String> = MultiplayerSearch::ALL.iter().map(|style| format!("var {style}")).collect();
                format!("option name {name} type combo default {} {}", defaults.multiplayer, styles.join(" "))
            }
            EngineOption::MultiPv => spin(defaults.lines as u64, LINES),
            EngineOption::Ponder => format!("option name {name} type check default {}", defaults.ponder),
            EngineOption::ClearHash => format!("option name {name} type button"),
            // As Stockfish writes an empty string's default.
            EngineOption::EvalWeights => format!("option name {name} type string default <empty>"),
        }
    }
}

impl Settings {
    /// Reads `value` into `option`; on error nothing changes and the message
    /// says what was expected.
    pub fn set(&mut self, option: EngineOption, value: &str) -> Result<(), String> {
        let name = option.name();
        let check = |value: &str| match value.to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!("{name}: '{value}' is neither true nor false")),
        };
        let spin = |range: RangeInclusive<u64>| {
            value.parse::<u64>().ok().filter(|number| range.contains(number)).ok_or_else(|| {
                format!("{name}: '{value}' is not a whole number from {} to {}", range.start(), range.end())
            })
        };
        match option {
            EngineOption::Hash => self.hash_megabytes = spin(HASH_MEGABYTES)? as usize,
            EngineOption::Threads => self.threads = spin(THREADS)? as usize,
            EngineOption::MoveOverhead => self.move_overhead = Duration::from_millis(spin(MOVE_OVERHEAD_MS)?),
            EngineOption::MaxPlies => self.max_plies = spin(MAX_PLIES)? as u32,
            EngineOption::Game => self.game = value.parse().map_err(|e| format!("{name}: {e}"))?,
            EngineOption::Players => self.players = spin(PLAYERS)? as u8,
            EngineOption::Size => self.size = spin(SIZE)? as u8,
            EngineOption::Bricks => self.bricks = spin(BRICKS)? as u8,
            EngineOption::MultiplayerSearch => self.multiplayer = value.parse().map_err(|e| format!("{name}: {e}"))?,
            EngineOption::MultiPv => self.lines = spin(LINES)? as usize,
            EngineOption::Ponder => self.ponder = check(value)?,
            // A button has no value to keep; the engine acts on it.
            EngineOption::ClearHash => {}
            EngineOption::Variant => self.variant = value.parse().map_err(|e| format!("{name}: {e}"))?,
            EngineOption::Rotation => self.rotation = value.parse().map_err(|e| format!("{name}: {e}"))?,
            EngineOption::Board => {
                self.board = Board::from_one_line(value).map_err(|e| format!("{name} (one-line form): {e}"))?
            }
            EngineOption::Pods => self.pods = value.parse().map_err(|e| format!("{name}: {e}"))?,
            EngineOption::PlacementLiberty => self.placement_liberty = check(value)?,
            EngineOption::EvalWeights => {
                let text = if value == "<empty>" { "" } else { value };
                Weights::UNIT.with_text(text).map_err(|e| format!("{name}: {e}"))?;
                self.eval_weights = text.to_string();
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_in_any_case() {
        assert_eq!(EngineOption::find("hash"), Some(EngineOption::Hash));
        assert_eq!(EngineOption::find("MAXPLIES"), Some(EngineOption::MaxPlies));
        assert_eq!(EngineOption::find("ownbook"), None);
    }

    #[test]
    fn declarations_carry_the_defaults() {
        assert_eq!(EngineOption::Hash.declaration(), "option name Hash type spin default 64 min 1 max 1024");
        assert_eq!(
            EngineOption::Variant.declaration(),
            "option name Variant type combo default standard var standard var advanced"
        );
        assert!(EngineOption::Board.declaration().ends_with(&Board::default().one_line()));
        assert_eq!(
            EngineOption::MultiplayerSearch.declaration(),
            "option name MultiplayerSearch type combo default paranoid var paranoid var maxn"
        );
        for option in EngineOption::ALL {
            assert!(!option.declaration().ends_with(' '), "{option:?}");
        }
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut settings = Settings::default();
        for (option, value) in [
            (EngineOption::Hash, "0"),
            (EngineOption::Hash, "lots"),
            (EngineOption::Variant, "chess"),
            (EngineOption::Rotation, "45"),
            (EngineOption::Board, "o-o"),
            (EngineOption::Pods, "A="),
            (EngineOption::PlacementLiberty, "yes"),
            (EngineOption::MaxPlies, "-1"),
            (EngineOption::MultiplayerSearch, "minimax"),
        ] {
            let error = settings.set(option, value).unwrap_err();
            assert!(error.starts_with(option.name()), "{error}");
        }
        assert_eq!(settings.hash_megabytes, 64);
        assert_eq!(settings.variant, Variant::Standard);
        settings.set(EngineOption::Variant, "Advanced").unwrap();
        settings.set(EngineOption::PlacementLiberty, "TRUE").unwrap();
        assert_eq!((settings.variant, settings.placement_liberty), (Variant::Advanced, true));
    }
}
