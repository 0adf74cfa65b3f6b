//! POLD.R in the registry: its parameters (players, board size, bricks),
//! how they make a game, and the positions `podium bench` searches.

use std::sync::Arc;

use super::geometry::SYMMETRIES;
use super::types::{MAX_BRICKS, MAX_PLAYERS, MAX_SIZE, MIN_SIZE};
use super::{PoldrSession, Position};
use crate::games::Session;
use crate::games::registry::{Bench, BenchPosition, GameError, GameSetup, GameType, Parameter, TuneRequest, Values};

/// The registry's entry for POLD.R.
pub(crate) struct Poldr;

const PLAYERS: &str = "Players";
const SIZE: &str = "Size";
const BRICKS: &str = "Bricks";

/// POLD.R bench positions, reached by seeded random play: starts, building
/// and clearing phases, 5x5 to 7x7, two and three players.
const BENCH_POSITIONS: [&str; 8] = [
    "5/5/5/5/5 b 16,16 1 0 -,-",
    "5/1yyY1/bbyb1/byB2/P4 b 12,12 1 6 5,6",
    "2bb1/Bbb1y/b1byy/bbyyy/PyyyY b 8,7 1 12 11,12",
    "6/B5/bb4/b5/b2y2/2PyY1 b 12,14 1 4 3,4",
    "1yyyy1/3Yyy/2yy1y/1bby1y/By1Pby/1bbbb1 b 9,3 2 14 13,12",
    "PbB4/yyb1bb1/y1Ybby1/y2b1b1/1yybyy1/3b3/2y4 b 6,6 1 10 9,10",
    "RrYy1/1rybb/2y1b/ry1rb/BbbbP b 9,12,12 1 9 7,8,9",
    "3y2/Bb1yyY/1brbb1/b1r3/1yry2/PrRrr1 b 11,11,10 1 12 10,11,12",
];

/// Shallower than Pods: POLD.R's trees are wider.
const BENCH_DEPTH: u32 = 7;
/// `podium bench perft`: a few million leaves from the start.
const PERFT_DEPTH: u32 = 7;

impl GameType for Poldr {
    fn name(&self) -> &'static str {
        "poldr"
    }

    fn title(&self) -> &'static str {
        "POLD.R"
    }

    fn seats(&self) -> std::ops::RangeInclusive<usize> {
        2..=MAX_PLAYERS
    }

    fn parameters(&self) -> Vec<Parameter> {
        vec![
            Parameter::spin(PLAYERS, 2..=MAX_PLAYERS as u64, 2, "players for `startpos`").for_start_only(),
            Parameter::spin(SIZE, u64::from(MIN_SIZE)..=u64::from(MAX_SIZE), 5, "the board's size for `startpos`")
                .for_start_only(),
            Parameter::spin(BRICKS, 1..=u64::from(MAX_BRICKS), 16, "bricks per player for `startpos`").for_start_only(),
        ]
    }

    fn setup(&self, values: &Values) -> Result<Arc<dyn GameSetup>, GameError> {
        let setting = |name| u8::try_from(values.number(name)).expect("declared ranges fit a byte");
        let start = Position::start(setting(SIZE), setting(PLAYERS), setting(BRICKS)).map_err(GameError::new)?;
        Ok(Arc::new(PoldrSetup { start }))
    }

    fn bench(&self) -> Bench {
        let positions = BENCH_POSITIONS.iter().map(|&line| BenchPosition { settings: Vec::new(), line }).collect();
        Bench { depth: BENCH_DEPTH, positions, perft_depth: PERFT_DEPTH }
    }

    /// Fits the weights of the player count `Players` sets on the games of that count.
    fn tune(&self, values: &Values, request: &TuneRequest) -> Result<Vec<String>, GameError> {
        let setting = |name| u8::try_from(values.number(name)).expect("declared ranges fit a byte");
        let start = Position::start(setting(SIZE), setting(PLAYERS), setting(BRICKS)).map_err(GameError::new)?;
        let adapter = super::PoldrAdapter::default();
        super::tune::run(&start, adapter.weights(start.players()), request).map_err(GameError::new)
    }
}

/// POLD.R with its parameters read: the start position they describe.
pub(crate) struct PoldrSetup {
    start: Position,
}

impl GameSetup for PoldrSetup {
    fn start(&self) -> Box<dyn Session> {
        Box::new(PoldrSession::new(self.start))
    }

    /// Any position line: it carries its own size, players and reserves.
    fn session_at(&self, line: &str) -> Result<Box<dyn Session>, GameError> {
        Ok(Box::new(PoldrSession::new(line.parse::<Position>().map_err(GameError::new)?)))
    }

    /// The square board's turns and reflections.
    fn symmetric_lines(&self, line: &str) -> Vec<String> {
        let Ok(position) = line.parse::<Position>() else { return Vec::new() };
        (1..SYMMETRIES).map(|symmetry| position.transformed(symmetry).to_string()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_line_reads_and_its_game_is_on() {
        for line in BENCH_POSITIONS {
            let position: Position = line.parse().expect(line);
            assert_eq!(position.to_string(), line);
            assert!(position.outcome().is_none(), "{line}");
        }
    }
}
