//! `podium bench`: fixed positions searched to a fixed depth with a fresh
//! searcher each, so the node count is the same on every run of the same
//! binary (a fingerprint of the search) and nodes per second measure speed.
//! `podium bench perft` measures move generation alone.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::games::pods::PodsGame;
use crate::games::pods::{Game, Move, Position, Rotation, Rules, Variant, perft};
use crate::games::poldr::{self, PoldrGame};
use crate::search::{Limits, SearchGame, SearchResult, Searcher, Signals};

/// Deep enough to exercise the whole search, short enough for a few seconds.
pub const DEFAULT_DEPTH: u32 = 10;
/// Small: a fresh table per position, and no table so small it changes the count.
const HASH_MEGABYTES: usize = 16;
const PERFT_DEPTH: u32 = 4;

/// A bench position: the moves that reach it from the start (rotation 0,
/// default board and pods) and its position line, which a test replays.
pub struct BenchPosition {
    pub variant: Variant,
    pub moves: &'static str,
    pub line: &'static str,
}

const fn standard(moves: &'static str, line: &'static str) -> BenchPosition {
    BenchPosition { variant: Variant::Standard, moves, line }
}

const fn advanced(moves: &'static str, line: &'static str) -> BenchPosition {
    BenchPosition { variant: Variant::Advanced, moves, line }
}

/// Reached by an engine playing depth-2 moves mixed with seeded random ones:
/// openings, middle games and endings of both variants.
pub const POSITIONS: [BenchPosition; 16] = [
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

/// POLD.R bench positions, reached by seeded random play: starts, building
/// and clearing phases, 5x5 to 7x7, two and three players.
pub const POLDR_POSITIONS: [&str; 8] = [
    "5/5/5/5/5 b 16,16 1 0 -,-",
    "5/1yyY1/bbyb1/byB2/P4 b 12,12 1 6 5,6",
    "2bb1/Bbb1y/b1byy/bbyyy/PyyyY b 8,7 1 12 11,12",
    "6/B5/bb4/b5/b2y2/2PyY1 b 12,14 1 4 3,4",
    "1yyyy1/3Yyy/2yy1y/1bby1y/By1Pby/1bbbb1 b 9,3 2 14 13,12",
    "PbB4/yyb1bb1/y1Ybby1/y2b1b1/1yybyy1/3b3/2y4 b 6,6 1 10 9,10",
    "RrYy1/1rybb/2y1b/ry1rb/BbbbP b 9,12,12 1 9 7,8,9",
    "3y2/Bb1yyY/1brbb1/b1r3/1yry2/PrRrr1 b 11,11,10 1 12 10,11,12",
];

/// The depth POLD.R bench positions are searched to.
pub const POLDR_DEPTH: u32 = 7;

/// One POLD.R bench position's result.
pub struct PoldrBenchRun {
    pub line: &'static str,
    pub best_move: Option<poldr::Move>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Searches every POLD.R bench position to `depth` with a fresh searcher each.
pub fn run_poldr(depth: u32, mut each: impl FnMut(usize, &PoldrBenchRun)) -> BenchTotal {
    let mut total = BenchTotal { nodes: 0, elapsed: Duration::ZERO };
    for (index, &line) in POLDR_POSITIONS.iter().enumerate() {
        let root: poldr::Position = match line.parse() {
            Ok(root) => root,
            Err(error) => {
                log::error!("POLD.R bench position {index} does not read: {error}");
                continue;
            }
        };
        let (result, elapsed) = search_fresh(&PoldrGame::default(), &root, depth, 1);
        let run = PoldrBenchRun { line, best_move: result.best_move, nodes: result.nodes, elapsed };
        total.nodes += run.nodes;
        total.elapsed += run.elapsed;
        each(index, &run);
    }
    total
}

/// What one position of the bench gave.
pub struct BenchRun<'a> {
    pub position: &'a BenchPosition,
    pub best_move: Option<Move>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// The totals over all positions.
pub struct BenchTotal {
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Searches every bench position to `depth`, calling `each` with its index
/// and result as it goes.
pub fn run(depth: u32, threads: usize, mut each: impl FnMut(usize, &BenchRun)) -> BenchTotal {
    let mut total = BenchTotal { nodes: 0, elapsed: Duration::ZERO };
    let rules_for = |variant| Arc::new(Rules::default_for(variant));
    let (standard_rules, advanced_rules) = (rules_for(Variant::Standard), rules_for(Variant::Advanced));
    for (index, position) in POSITIONS.iter().enumerate() {
        let rules = match position.variant {
            Variant::Standard => &standard_rules,
            Variant::Advanced => &advanced_rules,
        };
        let root = match Position::parse(position.line, rules) {
            Ok(root) => root,
            Err(error) => {
                log::error!("bench position {index} does not read: {error}");
                continue;
            }
        };
        let (result, elapsed) = search_fresh(&PodsGame::new(Arc::clone(rules), 0), &root, depth, threads);
        let run = BenchRun { position, best_move: result.best_move, nodes: result.nodes, elapsed };
        total.nodes += run.nodes;
        total.elapsed += run.elapsed;
        each(index, &run);
    }
    total
}

/// Searches `root` to `depth` with a fresh searcher, so the count depends on
/// nothing searched before (with one thread); returns the result and the
/// time taken.
fn search_fresh<G: SearchGame>(
    game: &G,
    root: &G::Position,
    depth: u32,
    threads: usize,
) -> (SearchResult<G::Move>, Duration) {
    let mut searcher = Searcher::new(HASH_MEGABYTES);
    searcher.set_threads(threads);
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let started = Instant::now();
    let result = searcher.search(game, root, &[], &limits, &[], &Signals::default(), |_| {});
    (result, started.elapsed())
}

/// One perft measurement.
pub struct PerftRun {
    pub variant: Variant,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// perft(4) from the start position of each variant, timed.
pub fn perft_speed() -> Vec<PerftRun> {
    [Variant::Standard, Variant::Advanced]
        .into_iter()
        .map(|variant| {
            let rules = Rules::default_for(variant);
            let start = Position::start(&rules, Rotation::R0);
            let started = Instant::now();
            let nodes = perft(&rules, &start, PERFT_DEPTH);
            PerftRun { variant, depth: PERFT_DEPTH, nodes, elapsed: started.elapsed() }
        })
        .collect()
}

/// The position `moves` reach from the start, if every move is legal.
pub fn replay(variant: Variant, moves: &str) -> Option<Position> {
    let rules = Arc::new(Rules::default_for(variant));
    let start = Position::start(&rules, Rotation::R0);
    let mut game = Game::new(rules, start);
    for text in moves.split_whitespace() {
        game.play(text.parse().ok()?).ok()?;
    }
    Some(*game.position())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_is_what_its_moves_reach_and_the_game_is_on() {
        for variant in [Variant::Standard, Variant::Advanced] {
            let count = POSITIONS.iter().filter(|position| position.variant == variant).count();
            assert!(count >= 8, "{variant}: {count} positions");
        }
        for position in &POSITIONS {
            let reached = replay(position.variant, position.moves).expect(position.moves);
            assert_eq!(reached.to_string(), position.line, "{}", position.moves);
            let rules = Rules::default_for(position.variant);
            assert!(reached.outcome(&rules).is_none(), "{}", position.line);
        }
    }

    #[test]
    fn the_node_count_does_not_change_between_runs() {
        let first = run(2, 1, |_, _| {}).nodes;
        assert!(first > 0);
        assert_eq!(run(2, 1, |_, _| {}).nodes, first);
        let poldr = run_poldr(2, |_, _| {}).nodes;
        assert!(poldr > 0);
        assert_eq!(run_poldr(2, |_, _| {}).nodes, poldr);
    }

    #[test]
    fn every_poldr_line_reads_and_its_game_is_on() {
        for line in POLDR_POSITIONS {
            let position: poldr::Position = line.parse().expect(line);
            assert_eq!(position.to_string(), line);
            assert!(position.outcome().is_none(), "{line}");
        }
    }
}
