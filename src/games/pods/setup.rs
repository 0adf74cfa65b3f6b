//! Pods in the registry: its parameters (variant, rotation, board, pods,
//! the placement rule, evaluation weights), how they make a game, and the
//! positions `podium bench` searches.

use std::sync::Arc;

use super::tunables::TUNABLES;
use super::{
    Board, BoardError, GameRecord, PodSet, PodSetError, PodsSession, Position, Rotation, RotationParseError, Rules,
    Variant, VariantParseError, Weights, WeightsError,
};
use crate::games::Session;
use crate::games::registry::{Bench, BenchPosition, GameError, GameSetup, GameType, Parameter, TuneRequest, Values};

/// The registry's entry for Pods.
pub(crate) struct Pods;

const VARIANT: &str = "Variant";
const ROTATION: &str = "Rotation";
const BOARD: &str = "Board";
const PODS: &str = "Pods";
const PLACEMENT_LIBERTY: &str = "PlacementLiberty";
const EVAL_WEIGHTS: &str = "EvalWeights";

/// Deep enough to exercise the whole search, short enough for a few seconds.
const BENCH_DEPTH: u32 = 10;
/// `podium bench perft`: a few million leaves from the start.
const PERFT_DEPTH: u32 = 4;

impl GameType for Pods {
    fn name(&self) -> &'static str {
        "pods"
    }

    fn title(&self) -> &'static str {
        "Pods"
    }

    fn seats(&self) -> std::ops::RangeInclusive<usize> {
        2..=2
    }

    fn parameters(&self) -> Vec<Parameter> {
        vec![
            Parameter::combo(
                VARIANT,
                Variant::ALL,
                Variant::default(),
                "the variant played, standard (place only) or advanced (place or move; blocked pods come off)",
            ),
            Parameter::combo(ROTATION, Rotation::ALL, Rotation::default(), "the board's rotation for `startpos`")
                .for_start_only(),
            Parameter::text(BOARD, Board::default().one_line(), "the board's lines, in the rules' one-line form"),
            Parameter::text(PODS, PodSet::default().to_string(), "the pod set, in the rules' one-line form"),
            Parameter::check(
                PLACEMENT_LIBERTY,
                false,
                "in the advanced game, placements need a liberty, as in the standard game",
            ),
            Parameter::text(
                EVAL_WEIGHTS,
                "",
                "replaces weights of the variant's evaluation: name=value pairs separated by commas (the terms \
                 `eval` prints; values -1000 to 1000), for tuning by matches",
            ),
        ]
    }

    fn variant_parameter(&self) -> Option<&'static str> {
        Some(VARIANT)
    }

    fn setup(&self, values: &Values) -> Result<Arc<dyn GameSetup>, GameError> {
        Ok(Arc::new(PodsSetup::new(values).map_err(GameError::new)?))
    }

    fn bench(&self) -> Bench {
        let positions = BENCH_POSITIONS
            .iter()
            .map(|position| BenchPosition {
                settings: vec![(
                    VARIANT,
                    match position.variant {
                        Variant::Standard => "standard",
                        Variant::Advanced => "advanced",
                    },
                )],
                line: position.line,
            })
            .collect();
        Bench { depth: BENCH_DEPTH, positions, perft_depth: PERFT_DEPTH }
    }

    fn tune(&self, values: &Values, request: &TuneRequest) -> Result<Vec<String>, GameError> {
        let variant: Variant = values.text(VARIANT).parse().map_err(GameError::new)?;
        super::tune::run(variant, request).map_err(GameError::new)
    }
}

/// Why Pods parameters do not make a game: the parameter and its problem.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SetupError {
    #[error("{VARIANT}: {0}")]
    Variant(VariantParseError),
    #[error("{ROTATION}: {0}")]
    Rotation(RotationParseError),
    #[error("{BOARD} (one-line form): {0}")]
    Board(BoardError),
    #[error("{PODS}: {0}")]
    Pods(PodSetError),
    #[error("{EVAL_WEIGHTS}: {0}")]
    Weights(WeightsError),
}

/// Pods with its parameters read: the rules (tables built once), the start's
/// rotation and the evaluation's weights.
pub(crate) struct PodsSetup {
    rules: Arc<Rules>,
    rotation: Rotation,
    weights: Weights,
}

impl PodsSetup {
    fn new(values: &Values) -> Result<PodsSetup, SetupError> {
        let variant: Variant = values.text(VARIANT).parse().map_err(SetupError::Variant)?;
        let rotation = values.text(ROTATION).parse().map_err(SetupError::Rotation)?;
        let board = Board::from_one_line(values.text(BOARD)).map_err(SetupError::Board)?;
        let pods: PodSet = values.text(PODS).parse().map_err(SetupError::Pods)?;
        let weights = TUNABLES.weights(variant).with_text(values.text(EVAL_WEIGHTS)).map_err(SetupError::Weights)?;
        let rules = Arc::new(Rules::new(variant, board, pods, values.flag(PLACEMENT_LIBERTY)));
        Ok(PodsSetup { rules, rotation, weights })
    }

    fn session(&self, position: Position) -> Box<dyn Session> {
        Box::new(PodsSession::new(GameRecord::new(Arc::clone(&self.rules), position)).with_weights(self.weights))
    }
}

impl GameSetup for PodsSetup {
    fn start(&self) -> Box<dyn Session> {
        self.session(Position::start(&self.rules, self.rotation))
    }

    fn session_at(&self, line: &str) -> Result<Box<dyn Session>, GameError> {
        Ok(self.session(Position::parse(line, &self.rules).map_err(GameError::new)?))
    }
}

/// A bench position: the moves that reach it from the start (rotation 0,
/// default board and pods) and its position line, which a test replays.
struct PodsBenchPosition {
    variant: Variant,
    #[cfg_attr(not(test), allow(dead_code, reason = "read by the test that replays it"))]
    moves: &'static str,
    line: &'static str,
}

const fn standard(moves: &'static str, line: &'static str) -> PodsBenchPosition {
    PodsBenchPosition { variant: Variant::Standard, moves, line }
}

const fn advanced(moves: &'static str, line: &'static str) -> PodsBenchPosition {
    PodsBenchPosition { variant: Variant::Advanced, moves, line }
}

/// Reached by an engine playing depth-2 moves mixed with seeded random ones:
/// openings, middle games and endings of both variants.
const BENCH_POSITIONS: [PodsBenchPosition; 16] = [
    standard("", "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0"),
    standard("B@b4", "6/6/1B4/6/6/6 b ACDEFGHIJKLMNabcdefghijklmn 0 1"),
    standard("A@c1 N@d5 N@b6", "1N4/3n2/6/6/6/2A3 b BCDEFGHIJKLMabcdefghijklm 0 3"),
    standard("A@d6 N@f4 N@b5 G@e3 F@a1", "3A2/1N4/5n/4g1/6/F5 b BCDEGHIJKLMabcdefhijklm 0 5"),
    standard("B@d1 N@b5 N@e6 G@a1 C@c6 B@f5 M@f2", "2C1N1/1n3b/6/6/5M/g2B2 b ADEFGHIJKLacdefhijklm 0 7"),
    standard("A@f3 N@c5 N@d1 F@b6 K@b3 J@f2 G@e4 G@a2 J@c2", "1f4/2n3/4G1/1K3A/g1J2j/3N2 b BCDEFHILMabcdehiklm 0 9"),
    standard(
        "B@d1 D@c3 N@b5 N@e6 F@a1 J@e4 E@a4 F@f2 J@f4 G@c2 L@c5",
        "4n1/1NL3/E3jJ/2d3/2g2f/F2B2 b ACDGHIKMabcehiklm 0 11",
    ),
    standard(
        "B@d1 N@b5 N@e6 K@f3 G@a4 M@b2 E@c2 A@b1 L@a2 G@c4 D@f1 B@f4 H@d6",
        "3HN1/1n4/G1g2b/5k/LmE3/1a1B1D b ACFIJKMcdefhijl 0 13",
    ),
    advanced("A@c5 N@d1 N@b6", "1N4/2A3/6/6/6/3n2 b BCDEFGHIJKLMabcdefghijklm 0 3"),
    advanced("B@f6 C@d5 N@a1 N@d4 G@b3 G@f2", "5B/3c2/3n2/1G4/5g/N5 w ACDEFHIJKLMabdefhijklm 0 6"),
    advanced(
        "B@a3 E@d5 N@b1 N@e5 L@d3 G@f2 C@c3 B@f3 G@c6 D@e3",
        "2G3/3en1/6/B2Ld1/5g/1N4 w ACDEFHIJKMabcfhijklm 0 10",
    ),
    advanced(
        "A@c5 B@c1 N@e6 F@f4 G@a1 N@b3 K@d4 D@c2 M@f2 K@b2 H@a5 L@f5 F@e1 b3c3",
        "4N1/H1A2l/3K1f/2n3/1kd2M/G3F1 w BCDEIJLabceghijm 0 14",
    ),
    advanced(
        "A@c5 N@d1 F@b2 F@e6 N@a5 M@e3 G@c4 L@e4 B@a2 A@b1 I@b4 E@e1 a5a4 K@b6 a4a5 G@d6 E@a3 e4d3",
        "1k1gf1/N1A3/1IG3/3lm1/BF4/1a1ne1 w CDEHJKLMbcdhij 0 18",
    ),
    advanced(
        "B@f6 K@c2 N@d5 N@e3 G@a6 G@b4 E@f5 F@b1 K@c5 I@b3 B@d6 A@e2 F@d6 E@e1 B@c6 L@f3 M@a2 J@c1 B@c6 b1a1 I@a5 B@f1",
        "G2F2/I1KN1E/1g4/1i2nl/M1k1a1/f4b w ABCDHJLcdehjm 0 22",
    ),
    advanced(
        "A@b6 N@d5 M@f6 F@e1 L@e2 K@c4 N@a3 L@e4 G@b2 M@f2 D@f4 G@c5 I@a4 e1a1 b6a6 I@d6 K@b6 E@d4 B@a6 A@e1 e2d1 B@c1 f6e5 C@f3 a3a2 c4b4",
        "BK1i2/2gnM1/Ik1elD/5c/NG3m/f1bLa1 w ACEFHJdhj 0 26",
    ),
    advanced(
        "A@c5 B@f2 E@b4 N@c1 N@e6 G@d4 K@b3 A@d1 L@a5 K@f5 G@e3 M@a2 I@b4 C@c2 D@a4 c2b2 F@b2 f5e4 B@f5 I@d2 M@b5 c1b1 C@c6 d4c4 E@a4 D@a1 I@a6 b1a1 J@f6 a2a3",
        "I1C1NJ/LMA2B/2g1k1/mK2G1/1F1i1b/n2a2 w DHcdefhjl 0 30",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_line_is_what_its_moves_reach_and_the_game_is_on() {
        for variant in [Variant::Standard, Variant::Advanced] {
            let count = BENCH_POSITIONS.iter().filter(|position| position.variant == variant).count();
            assert!(count >= 8, "{variant}: {count} positions");
        }
        for position in &BENCH_POSITIONS {
            let rules = Arc::new(Rules::default_for(position.variant));
            let mut game = GameRecord::new(Arc::clone(&rules), Position::start(&rules, Rotation::R0));
            for text in position.moves.split_whitespace() {
                game.play(text.parse().expect(text)).expect(text);
            }
            assert_eq!(game.position().to_string(), position.line, "{}", position.moves);
            assert!(game.outcome().is_none(), "{}", position.line);
        }
    }

    #[test]
    fn bad_parameters_name_themselves() {
        let mut values = Values::defaults(&Pods.parameters());
        assert!(Pods.setup(&values).is_ok());
        values.set(BOARD, "o-o".to_string());
        let error = Pods.setup(&values).err().expect("a bad board").to_string();
        assert!(error.starts_with("Board (one-line form): "), "{error}");
        let mut values = Values::defaults(&Pods.parameters());
        values.set(EVAL_WEIGHTS, "tempo=x".to_string());
        let error = Pods.setup(&values).err().expect("bad weights").to_string();
        assert!(error.starts_with("EvalWeights: "), "{error}");
    }
}
