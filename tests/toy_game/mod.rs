//! A toy game registered beside Pods and POLD.R, to show what a new game
//! has to bring and that nothing outside it changes: the subtraction game.
//! A pile of stones; each player in turn takes 1 to `Take` stones; whoever
//! takes the last stone wins. With 1 to 3 a move, the player to move
//! loses exactly when the pile is a multiple of 4.
//!
//! Position line: `<stones> <first|second>`; a move is the number taken.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use podium::games::registry::{Bench, BenchPosition, GameError, GameSetup, GameType, Parameter, Values};
use podium::games::{Outcome, PlayError, Session, read_move, search_in_notation};
use podium::search::{GameKnowledge, GameRules, Limits, Policy, Progress, SearchGame, SearchResult, Searcher, Signals};

/// The registry's entry.
pub struct Subtraction;

const STONES: &str = "Stones";
const TAKE: &str = "Take";

impl GameType for Subtraction {
    fn name(&self) -> &'static str {
        "subtraction"
    }

    fn title(&self) -> &'static str {
        "Subtraction"
    }

    fn seats(&self) -> std::ops::RangeInclusive<usize> {
        2..=2
    }

    fn parameters(&self) -> Vec<Parameter> {
        vec![
            Parameter::spin(STONES, 1..=200, 21, "stones in the pile at the start").for_start_only(),
            Parameter::spin(TAKE, 1..=9, 3, "the most stones a move takes"),
        ]
    }

    fn setup(&self, values: &Values) -> Result<Arc<dyn GameSetup>, GameError> {
        Ok(Arc::new(Rules { start: values.number(STONES) as u32, take: values.number(TAKE) as u32 }))
    }

    fn bench(&self) -> Bench {
        let positions = ["21 first", "30 second"].map(|line| BenchPosition { settings: Vec::new(), line });
        Bench { depth: 12, positions: positions.to_vec(), perft_depth: 6 }
    }
}

/// The game with its parameters read.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    start: u32,
    take: u32,
}

/// A position: the pile and whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    stones: u32,
    /// 0 or 1.
    mover: usize,
}

const SEATS: [&str; 2] = ["first", "second"];

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.stones, SEATS[self.mover])
    }
}

/// Why a text is not a position or a move of the toy game.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ToyError(String);

impl FromStr for Position {
    type Err = ToyError;

    fn from_str(line: &str) -> Result<Position, ToyError> {
        let error = || ToyError(format!("invalid position: '{line}' is not '<stones> first|second'"));
        let (stones, seat) = line.split_once(' ').ok_or_else(error)?;
        let stones = stones.parse().ok().filter(|&stones| stones <= 200).ok_or_else(error)?;
        let mover = SEATS.iter().position(|&name| name == seat).ok_or_else(error)?;
        Ok(Position { stones, mover })
    }
}

/// A move: how many stones it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Take(u32);

impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Take {
    type Err = ToyError;

    fn from_str(text: &str) -> Result<Take, ToyError> {
        text.parse()
            .ok()
            .filter(|&taken| (1..=9).contains(&taken))
            .map(Take)
            .ok_or_else(|| ToyError(format!("'{text}' is not a move: write how many stones to take, 1 to 9")))
    }
}

impl Rules {
    fn moves(&self, position: &Position) -> Vec<Take> {
        (1..=self.take.min(position.stones)).map(Take).collect()
    }

    fn check(&self, position: &Position, mv: Take) -> Result<(), ToyError> {
        if position.stones == 0 {
            return Err(ToyError("the game is over".to_string()));
        }
        if mv.0 > self.take.min(position.stones) {
            return Err(ToyError(format!("{} stones cannot be taken here", mv.0)));
        }
        Ok(())
    }

    fn after(position: &Position, mv: Take) -> Position {
        Position { stones: position.stones - mv.0, mover: 1 - position.mover }
    }
}

impl GameRules for Rules {
    type Position = Position;
    type Move = Take;

    fn hash(&self, position: &Position) -> u64 {
        (u64::from(position.stones) << 1 | position.mover as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    fn players(&self, _: &Position) -> usize {
        2
    }

    fn mover(&self, position: &Position) -> usize {
        position.mover
    }

    fn legal_moves(&self, position: &Position, moves: &mut Vec<Take>) {
        moves.extend(self.moves(position));
    }

    fn play(&self, position: &Position, mv: Take) -> Position {
        Rules::after(position, mv)
    }

    fn is_legal(&self, position: &Position, mv: Take) -> bool {
        self.check(position, mv).is_ok()
    }

    /// Whoever took the last stone, the one not to move, has won.
    fn winner(&self, position: &Position) -> Option<usize> {
        Some(1 - position.mover)
    }

    fn is_draw(&self, _: &Position) -> bool {
        false
    }

    fn repetition_is_draw(&self) -> bool {
        false
    }

    fn move_to_bits(mv: Take) -> u16 {
        mv.0 as u16
    }

    fn move_from_bits(bits: u16) -> Option<Take> {
        (1..=9).contains(&bits).then_some(Take(u32::from(bits)))
    }
}

impl GameKnowledge for Rules {
    /// Knows nothing: every position looks even until the search sees the end.
    fn evaluate(&self, position: &Position, _player: usize) -> Option<i32> {
        (position.stones > 0).then_some(0)
    }

    fn expected_moves_left(&self, position: &Position) -> u32 {
        position.stones / 4 + 1
    }
}

impl SearchGame for Rules {
    fn policy(&self) -> Policy {
        Policy {
            history_malus: false,
            futility_pruning: false,
            proof_horizon: 0,
            dedicated_proof_horizon: 0,
            proof_lookahead: false,
            verdicts_in_search: false,
        }
    }
}

impl GameSetup for Rules {
    fn start(&self) -> Box<dyn Session> {
        Box::new(ToySession { rules: *self, position: Position { stones: self.start, mover: 0 }, forfeited: None })
    }

    fn session_at(&self, line: &str) -> Result<Box<dyn Session>, GameError> {
        let position = line.parse().map_err(GameError::new)?;
        Ok(Box::new(ToySession { rules: *self, position, forfeited: None }))
    }
}

/// A game in progress.
#[derive(Clone)]
pub struct ToySession {
    rules: Rules,
    position: Position,
    /// The seat that played an illegal move.
    forfeited: Option<usize>,
}

fn perft(rules: &Rules, position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    rules.moves(position).into_iter().map(|mv| perft(rules, &Rules::after(position, mv), depth - 1)).sum()
}

impl Session for ToySession {
    fn box_clone(&self) -> Box<dyn Session> {
        Box::new(self.clone())
    }

    fn position_line(&self) -> String {
        self.position.to_string()
    }

    fn key(&self) -> u64 {
        self.rules.hash(&self.position)
    }

    fn players(&self) -> usize {
        2
    }

    fn mover(&self) -> usize {
        self.position.mover
    }

    fn seat_name(&self, seat: usize) -> &'static str {
        ["First", "Second"].get(seat).copied().unwrap_or("?")
    }

    fn outcome(&self) -> Option<Outcome> {
        let winner = match self.forfeited {
            Some(loser) => 1 - loser,
            None if self.position.stones == 0 => 1 - self.position.mover,
            None => return None,
        };
        Some(Outcome { winner: Some(winner), description: format!("{} wins", self.seat_name(winner)) })
    }

    fn legal_moves(&self) -> Vec<String> {
        if self.forfeited.is_some() {
            return Vec::new();
        }
        self.rules.moves(&self.position).iter().map(Take::to_string).collect()
    }

    fn play(&mut self, text: &str) -> Result<(), PlayError> {
        let mv = self.legal(text)?;
        self.position = Rules::after(&self.position, mv);
        Ok(())
    }

    fn legal_move(&self, text: &str) -> Result<String, PlayError> {
        self.legal(text).map(|mv| mv.to_string())
    }

    fn forfeit(&mut self) {
        if self.outcome().is_none() {
            self.forfeited = Some(self.position.mover);
        }
    }

    fn set_max_plies(&mut self, _: u32) {}

    fn perft(&self, depth: u32) -> u64 {
        perft(&self.rules, &self.position, depth)
    }

    fn divide(&self, depth: u32, _stop: &AtomicBool, each: &mut dyn FnMut(&str, u64)) -> bool {
        for mv in self.rules.moves(&self.position) {
            each(&mv.to_string(), perft(&self.rules, &Rules::after(&self.position, mv), depth.saturating_sub(1)));
        }
        true
    }

    fn picture(&self) -> Vec<String> {
        vec![format!("stones {}", self.position.stones), format!("fen {}", self.position)]
    }

    fn evaluation(&self) -> String {
        format!("eval {} to move: 0", self.seat_name(self.position.mover))
    }

    fn search(
        &self,
        searcher: &mut Searcher,
        limits: &Limits,
        root_moves: &[String],
        signals: &Signals,
        report: &mut dyn FnMut(Progress<'_, String>),
    ) -> SearchResult<String> {
        search_in_notation(&self.rules, &self.position, &[], searcher, limits, root_moves, signals, report)
    }
}

impl ToySession {
    fn legal(&self, text: &str) -> Result<Take, PlayError> {
        let mv: Take = read_move(text)?;
        if self.forfeited.is_some() {
            return Err(PlayError::illegal(ToyError("the game is over".to_string())));
        }
        self.rules.check(&self.position, mv).map_err(PlayError::illegal)?;
        Ok(mv)
    }
}
