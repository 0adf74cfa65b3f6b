//! The `podium` command line. With no subcommand it speaks the protocol on
//! stdin/stdout (protocol.md); the subcommands serve scripts: perft, bench
//! and analyse. Errors are one line on stderr and a non-zero exit.

use std::io;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::{Args, Parser, Subcommand};
use podium::games::pods::{Board, PodSet, Rotation, Variant};
use podium::games::{GameKind, Session};
use podium::protocol::bench;
use podium::protocol::command::Start;
use podium::protocol::engine::session_at;
use podium::protocol::options::HASH_MEGABYTES;
use podium::protocol::options::Settings;
use podium::protocol::report::{BestMove, SearchInfo, search_and_report};
use podium::search::{Limits, Progress, Report, Score, Searcher, Signals};

#[derive(Parser)]
#[command(
    name = "podium",
    version,
    about = "Podium, a game engine for Pods and POLD.R.",
    long_about = "Podium, a game engine for Pods and POLD.R. With no subcommand it speaks UGI (and UCI's handshake) on \
                  stdin/stdout: see protocol.md. Logs go to stderr; set RUST_LOG=debug to see every line."
)]
struct Cli {
    #[command(subcommand)]
    task: Option<Task>,
}

#[derive(Subcommand)]
enum Task {
    /// Count the move sequences of a given length from a position (perft).
    Perft(PerftArgs),
    /// Search fixed positions to a fixed depth and print the node count (the
    /// same for every run of the same binary) and the speed.
    Bench(BenchArgs),
    /// Search one position: print the info lines and the best move.
    Analyse(AnalyseArgs),
    /// Prove who wins a position with perfect play: the result, the line,
    /// nodes and time (games that bound their length: POLD.R).
    Solve(SolveArgs),
}

#[derive(Args)]
struct SolveArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Moves to play from the position before solving.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    moves: Vec<String>,
    /// Give up after this many milliseconds (default: no limit).
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// The hash table's size in megabytes.
    #[arg(long, default_value_t = 256, value_name = "MB", value_parser = clap::value_parser!(u64).range(HASH_MEGABYTES))]
    hash: u64,
}

/// The game to look at: rules and starting position.
#[derive(Args)]
struct GameArgs {
    /// The game: pods or poldr.
    #[arg(long, default_value_t = GameKind::Pods)]
    game: GameKind,
    /// Pods: standard or advanced.
    #[arg(long)]
    variant: Option<Variant>,
    /// A position line to start from instead of the start position.
    #[arg(long, value_name = "POSITION")]
    fen: Option<String>,
    /// Pods: the board's rotation for the start position: 0, 90, 180 or 270.
    #[arg(long, conflicts_with = "fen")]
    rotation: Option<Rotation>,
    /// Pods: the board in its one-line form (default: the default board).
    #[arg(long)]
    board: Option<Board>,
    /// Pods: the pod set in its one-line form (default: the default set).
    #[arg(long)]
    pods: Option<PodSet>,
    /// Pods, advanced game: placements need a liberty, as in the standard game.
    #[arg(long)]
    placement_liberty: bool,
    /// POLD.R: players for the start position (2 or 3).
    #[arg(long, conflicts_with = "fen", value_parser = clap::value_parser!(u8).range(2..=3))]
    players: Option<u8>,
    /// POLD.R: the board's size for the start position (4 to 9).
    #[arg(long, conflicts_with = "fen", value_parser = clap::value_parser!(u8).range(4..=9))]
    size: Option<u8>,
    /// POLD.R: bricks per player for the start position (1 to 40).
    #[arg(long, conflicts_with = "fen", value_parser = clap::value_parser!(u8).range(1..=40))]
    bricks: Option<u8>,
}

impl GameArgs {
    fn session(&self, moves: &[String]) -> anyhow::Result<Box<dyn Session>> {
        let pods_only = self.variant.is_some()
            || self.rotation.is_some()
            || self.board.is_some()
            || self.pods.is_some()
            || self.placement_liberty;
        let poldr_only = self.players.is_some() || self.size.is_some() || self.bricks.is_some();
        match self.game {
            GameKind::Pods if poldr_only => bail!("--players, --size and --bricks are for --game poldr"),
            GameKind::Poldr if pods_only => {
                bail!("--variant, --rotation, --board, --pods and --placement-liberty are for --game pods")
            }
            _ => {}
        }
        let defaults = Settings::default();
        let settings = Settings {
            game: self.game,
            variant: self.variant.unwrap_or(defaults.variant),
            rotation: self.rotation.unwrap_or_default(),
            board: self.board.unwrap_or_default(),
            pods: self.pods.clone().unwrap_or_default(),
            placement_liberty: self.placement_liberty,
            players: self.players.unwrap_or(defaults.players),
            size: self.size.unwrap_or(defaults.size),
            bricks: self.bricks.unwrap_or(defaults.bricks),
            ..defaults
        };
        let start = self.fen.clone().map_or(Start::StartPos, Start::Fen);
        let mut session = session_at(&settings, &Arc::new(settings.rules()), &start).map_err(anyhow::Error::msg)?;
        // Each argument may hold several moves: `--moves "A@c3 b@d4"` works too.
        for (index, text) in moves.iter().flat_map(|text| text.split_whitespace()).enumerate() {
            session.play(text).with_context(|| format!("move {text} at index {index}"))?;
        }
        Ok(session)
    }
}

#[derive(Args)]
struct PerftArgs {
    #[command(flatten)]
    game: GameArgs,
    /// How many moves deep to count.
    #[arg(long)]
    depth: u32,
    /// One line per legal move with its count, before the total.
    #[arg(long)]
    divide: bool,
}

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
struct BenchArgs {
    #[command(subcommand)]
    kind: Option<BenchKind>,
    /// The depth each position is searched to.
    #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
    depth: u32,
}

#[derive(Subcommand)]
enum BenchKind {
    /// Leaf nodes per second of perft(4) from the start, in both variants.
    Perft,
}

#[derive(Args)]
struct AnalyseArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Moves to play from the position before searching.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    moves: Vec<String>,
    #[command(flatten)]
    limit: AnalyseLimit,
    /// Print one JSON object per line instead of protocol lines.
    #[arg(long)]
    json: bool,
    /// The hash table's size in megabytes.
    #[arg(long, default_value_t = 64, value_name = "MB", value_parser = clap::value_parser!(u64).range(HASH_MEGABYTES))]
    hash: u64,
    /// Search threads (lazy SMP: helpers share the hash table).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
}

#[derive(Args)]
#[group(required = true, multiple = false)]
struct AnalyseLimit {
    /// Search this many milliseconds.
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Search this many moves deep.
    #[arg(long)]
    depth: Option<u32>,
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version go to stdout with success.
        Err(error) if !error.use_stderr() => error.exit(),
        Err(error) => {
            // clap's first paragraph says what is wrong (on one line or two);
            // usage and tips follow after a blank line.
            let message = error.to_string();
            let what: Vec<&str> = message.lines().take_while(|line| !line.trim().is_empty()).map(str::trim).collect();
            eprintln!("podium: {}", what.join(" ").trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    let outcome = match cli.task {
        None => {
            podium::protocol::run(io::stdin().lock(), io::stdout());
            Ok(())
        }
        Some(Task::Perft(args)) => run_perft(&args),
        Some(Task::Bench(args)) => run_bench(&args),
        Some(Task::Analyse(args)) => run_analyse(&args),
        Some(Task::Solve(args)) => run_solve(&args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("podium: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run_perft(args: &PerftArgs) -> anyhow::Result<()> {
    let session = args.game.session(&[])?;
    let started = Instant::now();
    let total = if args.divide && args.depth > 0 {
        let counts = session.divide(args.depth);
        for (mv, count) in &counts {
            println!("{mv}: {count}");
        }
        counts.iter().map(|&(_, count)| count).sum()
    } else {
        session.perft(args.depth)
    };
    println!("nodes {total}");
    log::info!("perft {} in {} ms", args.depth, started.elapsed().as_millis());
    Ok(())
}

fn run_bench(args: &BenchArgs) -> anyhow::Result<()> {
    if let Some(BenchKind::Perft) = args.kind {
        for run in bench::perft_speed() {
            println!(
                "perft {} {}: {} nodes {} ms {} nps",
                run.variant,
                run.depth,
                run.nodes,
                run.elapsed.as_millis(),
                per_second(run.nodes, run.elapsed)
            );
        }
        return Ok(());
    }
    if args.depth == 0 {
        bail!("--depth must be at least 1");
    }
    // POLD.R counts apart, so the Pods fingerprint stays comparable across
    // versions; it comes last, as tools that read a bench expect.
    let poldr = bench::run_poldr(bench::POLDR_DEPTH, |index, run| {
        let best = run.best_move.map_or("(none)".to_string(), |mv| mv.to_string());
        println!(
            "position {}/{} poldr {}: bestmove {best} nodes {} time {} ms",
            index + 1,
            bench::POLDR_POSITIONS.len(),
            run.line,
            run.nodes,
            run.elapsed.as_millis()
        );
    });
    println!("Bench poldr: {} nodes {} nps", poldr.nodes, per_second(poldr.nodes, poldr.elapsed));
    let total = bench::run(args.depth, |index, run| {
        let best = run.best_move.map_or("(none)".to_string(), |mv| mv.to_string());
        println!(
            "position {}/{} {} {}: bestmove {best} nodes {} time {} ms",
            index + 1,
            bench::POSITIONS.len(),
            run.position.variant,
            run.position.line,
            run.nodes,
            run.elapsed.as_millis()
        );
    });
    println!("Bench: {} nodes {} nps", total.nodes, per_second(total.nodes, total.elapsed));

    Ok(())
}

fn run_analyse(args: &AnalyseArgs) -> anyhow::Result<()> {
    let game = args.game.session(&args.moves)?;
    if let Some(outcome) = game.ending() {
        if args.json {
            println!("{{\"type\":\"gameover\",\"outcome\":\"{outcome}\"}}");
            println!("{{\"type\":\"bestmove\",\"move\":null}}");
        } else {
            println!("info string game over: {outcome}");
            println!("{}", BestMove::default());
        }
        return Ok(());
    }
    let limits = Limits {
        depth: args.limit.depth,
        movetime: args.limit.movetime.map(Duration::from_millis),
        ..Limits::default()
    };
    let mut searcher = Searcher::new(args.hash as usize);
    searcher.set_threads(args.threads as usize);
    let mut best =
        search_and_report(&mut searcher, game.as_ref(), &limits, &[], &Signals::default(), |info| match info {
            SearchInfo::Line(line) if args.json => println!("{}", line.to_json()),
            SearchInfo::CurrentMove { .. } if args.json => {}
            _ => println!("{info}"),
        });
    best.ponder = None;
    if args.json {
        let mv = best.best.map_or("null".to_string(), |mv| format!("\"{mv}\""));
        println!("{{\"type\":\"bestmove\",\"move\":{mv}}}");
    } else {
        println!("{best}");
    }
    Ok(())
}

fn run_solve(args: &SolveArgs) -> anyhow::Result<()> {
    let game = args.game.session(&args.moves)?;
    let position = game.position_line();
    let started = Instant::now();
    let (proof, nodes) = match game.ending() {
        Some(ending) => (Some((0, Vec::new(), ending.winner)), 0),
        None => {
            let limits = Limits {
                depth: Some(127),
                movetime: args.movetime.map(Duration::from_millis),
                prove: true,
                ..Limits::default()
            };
            let mut searcher = Searcher::new(args.hash as usize);
            let mut last: Option<Report<String>> = None;
            let result = game.search(&mut searcher, &limits, &[], &Signals::default(), &mut |progress| {
                if let Progress::Line(report) = progress {
                    last = Some(report.clone());
                }
            });
            let mover = game.mover();
            let proof = last.filter(|report| matches!(report.score, Score::Mate(_))).map(|report| {
                let Score::Mate(moves) = report.score else { unreachable!("a mate score") };
                // A loss for the side to move names the winner only with two players.
                let winner = if moves > 0 { Some(mover) } else { (game.players() == 2).then(|| 1 - mover) };
                (moves, report.pv, winner)
            });
            (proof, result.nodes)
        }
    };
    let time = started.elapsed().as_millis();
    if args.json {
        let proof = match &proof {
            None => "\"proven\":false".to_string(),
            Some((mate, line, winner)) => {
                let line: Vec<String> = line.iter().map(|mv| format!("\"{mv}\"")).collect();
                let winner = winner.map_or("null".to_string(), |seat| format!("\"p{}\"", seat + 1));
                format!("\"proven\":true,\"winner\":{winner},\"mate\":{mate},\"line\":[{}]", line.join(","))
            }
        };
        println!("{{\"type\":\"solve\",\"position\":\"{position}\",{proof},\"nodes\":{nodes},\"time\":{time}}}");
    } else {
        println!("position {position}");
        match &proof {
            None => println!("result unknown: no proof within the limits"),
            Some((mate, line, winner)) => {
                let winner = winner.map_or("the side to move loses".to_string(), |seat| {
                    format!("{} (p{}) wins", game.seat_name(seat), seat + 1)
                });
                println!("result {winner}, mate {mate}");
                println!("line {}", line.join(" "));
            }
        }
        println!("nodes {nodes} time {time} ms");
    }
    Ok(())
}

fn per_second(count: u64, elapsed: Duration) -> u64 {
    (count as u128 * 1_000_000 / elapsed.as_micros().max(1)) as u64
}
