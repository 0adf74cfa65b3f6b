//! `podium bench`: each game's fixed positions searched to a fixed depth
//! with a fresh searcher each, so the node count is the same on every run
//! of the same binary (a fingerprint of the search) and nodes per second
//! measure speed. `podium bench perft` measures move generation alone.
//!
//! The first game of the registry is the fingerprint tools read: its total
//! is the last line, `Bench: <nodes> nodes <nps> nps`. Every other game's
//! comes before it, as `Bench <game>: ...`, so it changes nothing there.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::games::Session;
use crate::games::registry::{BenchPosition, GameSetup, GameType, Registry, Values};
use crate::search::{Limits, Searcher, Signals};

/// Small: a fresh table per position, and no table so small it changes the count.
const HASH_MEGABYTES: usize = 16;

/// Why the bench could not run.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BenchError(String);

/// How the bench runs.
#[derive(Clone, Copy, Debug)]
pub struct BenchOptions {
    /// The first game's depth, instead of its own.
    pub depth: Option<u32>,
    /// Search threads for the first game's positions: the times to depth
    /// then tell what more threads gain (the node count is a fingerprint
    /// with one thread only).
    pub threads: usize,
}

/// Runs the bench of every game, the first last, handing each output line
/// to `out` as it is known. Returns the first game's node count.
pub fn run(registry: &Registry, options: BenchOptions, mut out: impl FnMut(String)) -> Result<u64, BenchError> {
    if options.depth == Some(0) {
        return Err(BenchError("--depth must be at least 1".to_string()));
    }
    let (first, others) = registry.games().split_first().expect("a registry holds a game");
    for game in others {
        let (nodes, elapsed) = run_game(game.as_ref(), game.bench().depth, 1, &mut out)?;
        out(format!("Bench {}: {nodes} nodes {} nps", game.name(), per_second(nodes, elapsed)));
    }
    let depth = options.depth.unwrap_or(first.bench().depth);
    let (nodes, elapsed) = run_game(first.as_ref(), depth, options.threads, &mut out)?;
    let threads = if options.threads > 1 {
        format!(" {} ms with {} threads", elapsed.as_millis(), options.threads)
    } else {
        String::new()
    };
    out(format!("Bench: {nodes} nodes {} nps{threads}", per_second(nodes, elapsed)));
    Ok(nodes)
}

/// Searches each of a game's bench positions to `depth` with a fresh
/// searcher; returns the nodes and time summed.
fn run_game(
    game: &dyn GameType,
    depth: u32,
    threads: usize,
    out: &mut impl FnMut(String),
) -> Result<(u64, Duration), BenchError> {
    let positions = game.bench().positions;
    let (mut nodes, mut elapsed) = (0, Duration::ZERO);
    for (index, position) in positions.iter().enumerate() {
        let session = set_up(game, position)?;
        let mut searcher = Searcher::new(HASH_MEGABYTES);
        searcher.set_threads(threads);
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let started = Instant::now();
        let result = session.search(&mut searcher, &limits, &[], &Signals::default(), &mut |_| {});
        let time = started.elapsed();
        out(format!(
            "position {}/{} {} {}: bestmove {} nodes {} time {} ms",
            index + 1,
            positions.len(),
            label(game, position),
            position.line,
            result.best_move.as_deref().unwrap_or("(none)"),
            result.nodes,
            time.as_millis()
        ));
        nodes += result.nodes;
        elapsed += time;
    }
    Ok((nodes, elapsed))
}

/// A game set up with a bench position's settings.
fn setup_for(game: &dyn GameType, position: &BenchPosition) -> Result<Arc<dyn GameSetup>, BenchError> {
    let mut values = Values::defaults(&game.parameters());
    for &(name, value) in &position.settings {
        values.set(name, value.to_string());
    }
    game.setup(&values).map_err(|error| BenchError(format!("{} bench settings do not set up: {error}", game.name())))
}

/// The game at a bench position.
fn set_up(game: &dyn GameType, position: &BenchPosition) -> Result<Box<dyn Session>, BenchError> {
    setup_for(game, position)?
        .session_at(position.line)
        .map_err(|error| BenchError(format!("{} bench position {} does not read: {error}", game.name(), position.line)))
}

/// What a bench position is a position of: its settings' values
/// (`advanced`), or the game's name.
fn label(game: &dyn GameType, position: &BenchPosition) -> String {
    if position.settings.is_empty() {
        game.name().to_string()
    } else {
        position.settings.iter().map(|&(_, value)| value).collect::<Vec<_>>().join(" ")
    }
}

/// Counts perft from the start of each setting of every game's bench
/// positions, handing a line per count to `out`:
/// `perft standard 4: <nodes> nodes <ms> ms <nps> nps`.
pub fn perft_speed(registry: &Registry, mut out: impl FnMut(String)) -> Result<(), BenchError> {
    for game in registry.games() {
        let bench = game.bench();
        let mut seen: Vec<&Vec<(&str, &str)>> = Vec::new();
        for position in &bench.positions {
            if seen.contains(&&position.settings) {
                continue;
            }
            seen.push(&position.settings);
            let session = setup_for(game.as_ref(), position)?.start();
            let started = Instant::now();
            let mut nodes = 0;
            session.divide(bench.perft_depth, &AtomicBool::new(false), &mut |_, count| nodes += count);
            let elapsed = started.elapsed();
            out(format!(
                "perft {} {}: {nodes} nodes {} ms {} nps",
                label(game.as_ref(), position),
                bench.perft_depth,
                elapsed.as_millis(),
                per_second(nodes, elapsed)
            ));
        }
    }
    Ok(())
}

/// A count per second, for speeds.
pub(crate) fn per_second(count: u64, elapsed: Duration) -> u64 {
    (count as u128 * 1_000_000 / elapsed.as_micros().max(1)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_node_count_does_not_change_between_runs() {
        let registry = Registry::builtin();
        let options = BenchOptions { depth: Some(2), threads: 1 };
        let mut first_lines = Vec::new();
        let first = run(&registry, options, |line| first_lines.push(line)).unwrap();
        assert!(first > 0);
        let mut second_lines = Vec::new();
        assert_eq!(run(&registry, options, |line| second_lines.push(line)).unwrap(), first);
        let totals = |lines: &[String]| -> Vec<String> {
            lines
                .iter()
                .filter(|line| line.starts_with("Bench"))
                .map(|line| line.split(" nodes").next().unwrap().to_string())
                .collect()
        };
        assert_eq!(totals(&first_lines), totals(&second_lines));
        assert!(first_lines.last().unwrap().starts_with("Bench: "), "{first_lines:?}");
        assert!(first_lines.iter().any(|line| line.starts_with("Bench poldr: ")), "{first_lines:?}");
    }
}
