//! The `podium` command line. With no subcommand it speaks the protocol on
//! stdin/stdout (protocol.md); the subcommands serve scripts: perft, bench
//! and analyse. Errors are one line on stderr and a non-zero exit.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::{Args, Parser, Subcommand};
use podium::games::pods::{Board, PodSet, Rotation, Variant};
use podium::games::{GameKind, Session};
use podium::protocol::command::{Start, parse_position_text};
use podium::protocol::engine::session_at;
use podium::protocol::options::HASH_MEGABYTES;
use podium::protocol::options::Settings;
use podium::protocol::report::{BestMove, search_and_report};
use podium::protocol::{analysis, bench};
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
    /// Search a position, or many (one per line of a file or stdin): print
    /// the info lines and the best move, or one JSON object per position.
    Analyse(AnalyseArgs),
    /// Prove who wins a position with perfect play: the result, the line,
    /// nodes and time (POLD.R and the standard Pods game by a dedicated proof search; the advanced game
    /// by searching to the end).
    Solve(SolveArgs),
    /// Fit the Pods evaluation's weights to the results of games (logistic
    /// regression over every position of every game) and print them.
    Tune(TuneArgs),
}

#[derive(Args)]
struct TuneArgs {
    /// Pods: standard or advanced.
    #[arg(long, default_value_t = Variant::Standard)]
    variant: Variant,
    /// The games, one per line ('-': stdin): the result (1-0, 0-1 or
    /// 1/2-1/2), then 'startpos' or a position line, then 'moves <move>...'.
    #[arg(long, value_name = "FILE")]
    games: String,
    /// The features whose weights are fitted, by name (default: those the
    /// variant's weights use); the others keep their weights.
    #[arg(long, value_delimiter = ',', value_name = "NAME,...")]
    features: Vec<String>,
    /// The weights to start from, as name=value pairs separated by commas
    /// (features not named keep the variant's weights).
    #[arg(long, value_name = "WEIGHTS")]
    weights: Option<String>,
    /// The evaluation's units: a score of `scale` is a win e to 1 against
    /// (default: the scale at which the variant's own weights predict best).
    #[arg(long)]
    scale: Option<f64>,
    /// At most this many Newton steps (each a pass over all positions).
    #[arg(long, default_value_t = 50)]
    steps: usize,
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
    /// The game at the position the arguments name, after `moves`.
    fn session(&self, moves: &[String]) -> anyhow::Result<Box<dyn Session>> {
        let start = self.fen.clone().map_or(Start::StartPos, Start::Fen);
        self.session_at(&start, moves)
    }

    /// The settings the arguments describe, if they belong to one game.
    fn settings(&self) -> anyhow::Result<Settings> {
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
        Ok(settings)
    }

    /// The game at a line of a positions file, read as the protocol reads
    /// a position (`startpos`, `fen <line>` or a bare line, optionally after
    /// `position`, each optionally followed by `moves <move>...`).
    fn session_from_line(&self, line: &str) -> anyhow::Result<Box<dyn Session>> {
        let (start, moves) = parse_position_text(line)?;
        self.session_at(&start, &moves)
    }

    fn session_at(&self, start: &Start, moves: &[String]) -> anyhow::Result<Box<dyn Session>> {
        let settings = self.settings()?;
        let mut session = session_at(&settings, &Arc::new(settings.rules()), start).map_err(anyhow::Error::msg)?;
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
    /// Search threads for the Pods positions: the times to depth then tell
    /// what more threads gain (the node count is a fingerprint with one only).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
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
    #[arg(long, num_args = 1.., value_name = "MOVE", conflicts_with = "positions")]
    moves: Vec<String>,
    /// Analyse every position of this file ('-': stdin), one per line:
    /// 'startpos', 'fen <position line>' or a position line, 'position ' before
    /// it or not, optionally followed by 'moves <move>...'. Blank lines and
    /// lines starting with '#' are skipped.
    #[arg(long, value_name = "FILE", conflicts_with = "fen")]
    positions: Option<String>,
    #[command(flatten)]
    limit: AnalyseLimit,
    /// How many best moves to report, each with its own line (MultiPV).
    #[arg(long, default_value_t = 1, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=256))]
    multipv: u64,
    /// Print one JSON object per position (errors included) instead of protocol lines.
    #[arg(long)]
    json: bool,
    /// Show a progress bar on stderr (shown anyway for several positions when stderr is a terminal).
    #[arg(long)]
    progress: bool,
    /// The hash table's size in megabytes.
    #[arg(long, default_value_t = 64, value_name = "MB", value_parser = clap::value_parser!(u64).range(HASH_MEGABYTES))]
    hash: u64,
    /// Search threads (lazy SMP: helpers share the hash table; in the standard Pods game one of them proves instead).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
}

#[derive(Args)]
#[group(required = true, multiple = true)]
struct AnalyseLimit {
    /// Search this many milliseconds per position.
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Search this many moves deep.
    #[arg(long)]
    depth: Option<u32>,
    /// Search about this many nodes per position.
    #[arg(long)]
    nodes: Option<u64>,
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
        Some(Task::Tune(args)) => run_tune(&args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`podium analyse ... | head -1`): nobody to tell.
        Err(error) if is_broken_pipe(&error) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("podium: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Stdout for the subcommands. A reader that went away (`| head -1`) ends
/// the run quietly with a failure status, not a panic: after the first
/// failed write nothing more is written, and `finish` reports it.
struct Out {
    stdout: io::StdoutLock<'static>,
    failed: Option<io::Error>,
}

impl Out {
    fn new() -> Out {
        Out { stdout: io::stdout().lock(), failed: None }
    }

    fn line(&mut self, text: impl std::fmt::Display) {
        if self.failed.is_none()
            && let Err(error) = writeln!(self.stdout, "{text}").and_then(|()| self.stdout.flush())
        {
            self.failed = Some(error);
        }
    }

    /// Whether the reader has gone: there is no point going on.
    fn closed(&self) -> bool {
        self.failed.is_some()
    }

    fn finish(self) -> io::Result<()> {
        self.failed.map_or(Ok(()), Err)
    }
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .chain()
        .any(|cause| cause.downcast_ref::<io::Error>().is_some_and(|error| error.kind() == io::ErrorKind::BrokenPipe))
}

fn run_perft(args: &PerftArgs) -> anyhow::Result<()> {
    let session = args.game.session(&[])?;
    let started = Instant::now();
    let mut out = Out::new();
    let total = if args.divide && args.depth > 0 {
        let mut total = 0;
        session.divide(args.depth, &AtomicBool::new(false), &mut |mv, count| {
            total += count;
            out.line(format_args!("{mv}: {count}"));
        });
        total
    } else {
        session.perft(args.depth)
    };
    out.line(format_args!("nodes {total}"));
    log::info!("perft {} in {} ms", args.depth, started.elapsed().as_millis());
    Ok(out.finish()?)
}

fn run_bench(args: &BenchArgs) -> anyhow::Result<()> {
    let mut out = Out::new();
    if let Some(BenchKind::Perft) = args.kind {
        for run in bench::perft_speed() {
            out.line(format_args!(
                "perft {} {}: {} nodes {} ms {} nps",
                run.variant,
                run.depth,
                run.nodes,
                run.elapsed.as_millis(),
                per_second(run.nodes, run.elapsed)
            ));
        }
        return Ok(out.finish()?);
    }
    if args.depth == 0 {
        bail!("--depth must be at least 1");
    }
    // POLD.R counts apart, so the Pods fingerprint stays comparable across
    // versions; it comes last, as tools that read a bench expect.
    let poldr = bench::run_poldr(bench::POLDR_DEPTH, |index, run| {
        let best = run.best_move.map_or("(none)".to_string(), |mv| mv.to_string());
        out.line(format_args!(
            "position {}/{} poldr {}: bestmove {best} nodes {} time {} ms",
            index + 1,
            bench::POLDR_POSITIONS.len(),
            run.line,
            run.nodes,
            run.elapsed.as_millis()
        ));
    });
    out.line(format_args!("Bench poldr: {} nodes {} nps", poldr.nodes, per_second(poldr.nodes, poldr.elapsed)));
    let total = bench::run(args.depth, args.threads as usize, |index, run| {
        let best = run.best_move.map_or("(none)".to_string(), |mv| mv.to_string());
        out.line(format_args!(
            "position {}/{} {} {}: bestmove {best} nodes {} time {} ms",
            index + 1,
            bench::POSITIONS.len(),
            run.position.variant,
            run.position.line,
            run.nodes,
            run.elapsed.as_millis()
        ));
    });
    out.line(format_args!(
        "Bench: {} nodes {} nps{}",
        total.nodes,
        per_second(total.nodes, total.elapsed),
        if args.threads > 1 {
            format!(" {} ms with {} threads", total.elapsed.as_millis(), args.threads)
        } else {
            String::new()
        }
    ));
    Ok(out.finish()?)
}

fn run_analyse(args: &AnalyseArgs) -> anyhow::Result<()> {
    let limits = Limits {
        depth: args.limit.depth,
        nodes: args.limit.nodes,
        movetime: args.limit.movetime.map(Duration::from_millis),
        ..Limits::default()
    };
    let mut searcher = Searcher::new(args.hash as usize);
    let threads = searcher.set_threads(args.threads as usize);
    if threads < args.threads as usize {
        log::warn!("this machine runs {threads} threads at once: searching with {threads}, not {}", args.threads);
    }
    searcher.set_lines(args.multipv as usize);
    let inputs: Vec<(usize, String)> = match &args.positions {
        None => vec![(1, "(command line)".to_string())],
        Some(path) => read_positions(path)?,
    };
    let mut out = Out::new();
    let mut progress =
        ProgressBar::new(inputs.len(), args.progress || (inputs.len() > 1 && io::stderr().is_terminal()));
    // Arguments of the wrong game are a command-line error before any position.
    args.game.settings()?;
    let mut failures = 0;
    for (index, input) in &inputs {
        let session = match &args.positions {
            None => args.game.session(&args.moves),
            Some(_) => args.game.session_from_line(input),
        };
        match session {
            Ok(session) if args.json => {
                let analysis = analysis::analyse(&mut searcher, session.as_ref(), &limits);
                out.line(analysis.to_json(*index, input, session.as_ref()));
            }
            Ok(session) => {
                if args.positions.is_some() {
                    out.line(format_args!("info string position {index}: {input}"));
                }
                analyse_as_text(&mut out, &mut searcher, session.as_ref(), &limits);
            }
            Err(error) => {
                failures += 1;
                let message = format!("{error:#}");
                if args.json {
                    out.line(analysis::error_json(*index, input, &message));
                } else if args.positions.is_some() {
                    out.line(format_args!("info string error: position {index}: {message}"));
                }
                // A position named on the command line is a command-line error
                // too (after its JSON object): said on stderr, the only one.
                if args.positions.is_none() {
                    out.finish()?;
                    return Err(error);
                }
            }
        }
        if out.closed() {
            break;
        }
        progress.advance();
    }
    progress.finish();
    out.finish()?;
    if failures > 0 {
        bail!("{failures} of {} positions could not be analysed", inputs.len());
    }
    Ok(())
}

/// The protocol's lines for one position: the info lines as they come, then `bestmove`.
fn analyse_as_text(out: &mut Out, searcher: &mut Searcher, session: &dyn Session, limits: &Limits) {
    searcher.clear();
    if let Some(outcome) = session.ending() {
        out.line(format_args!("info string game over: {outcome}"));
        out.line(BestMove::default());
        return;
    }
    let mut best = search_and_report(searcher, session, limits, &[], &Signals::default(), |info| out.line(info));
    best.ponder = None;
    out.line(best);
}

/// The numbered lines of a positions file ('-': stdin) worth analysing.
fn read_positions(path: &str) -> anyhow::Result<Vec<(usize, String)>> {
    let text = if path == "-" {
        io::read_to_string(io::stdin()).context("cannot read the positions from stdin")?
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read the positions file {path}"))?
    };
    Ok(text
        .lines()
        .enumerate()
        .map(|(number, line)| (number + 1, line.trim().to_string()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .collect())
}

/// `analyse [#######.............] 12/40 positions, 3 s, about 7 s left` on
/// stderr, redrawn in place.
struct ProgressBar {
    total: usize,
    done: usize,
    started: Instant,
    shown: bool,
}

impl ProgressBar {
    const WIDTH: usize = 30;

    fn new(total: usize, shown: bool) -> ProgressBar {
        ProgressBar { total, done: 0, started: Instant::now(), shown }
    }

    fn advance(&mut self) {
        self.done += 1;
        if !self.shown {
            return;
        }
        let filled = Self::WIDTH * self.done / self.total.max(1);
        let elapsed = self.started.elapsed().as_secs_f64();
        let left = elapsed / self.done as f64 * (self.total - self.done) as f64;
        eprint!(
            "\ranalyse [{}{}] {}/{} positions, {elapsed:.0} s, about {left:.0} s left ",
            "#".repeat(filled),
            ".".repeat(Self::WIDTH - filled),
            self.done,
            self.total
        );
    }

    fn finish(&self) {
        if self.shown {
            eprintln!();
        }
    }
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
    let mut out = Out::new();
    if args.json {
        let proof = match &proof {
            None => "\"proven\":false".to_string(),
            Some((mate, line, winner)) => {
                let line: Vec<String> = line.iter().map(|mv| format!("\"{mv}\"")).collect();
                let winner = winner.map_or("null".to_string(), |seat| format!("\"p{}\"", seat + 1));
                format!("\"proven\":true,\"winner\":{winner},\"mate\":{mate},\"line\":[{}]", line.join(","))
            }
        };
        out.line(format_args!(
            "{{\"type\":\"solve\",\"position\":\"{position}\",{proof},\"nodes\":{nodes},\"time\":{time}}}"
        ));
    } else {
        out.line(format_args!("position {position}"));
        match &proof {
            None => out.line("result unknown: no proof within the limits"),
            Some((mate, line, winner)) => {
                let winner = winner.map_or("the side to move loses".to_string(), |seat| {
                    format!("{} (p{}) wins", game.seat_name(seat), seat + 1)
                });
                out.line(format_args!("result {winner}, mate {mate}"));
                out.line(format_args!("line {}", line.join(" ")));
            }
        }
        out.line(format_args!("nodes {nodes} time {time} ms"));
    }
    Ok(out.finish()?)
}

fn run_tune(args: &TuneArgs) -> anyhow::Result<()> {
    use podium::games::pods::tune::{best_scale, fit, game_samples, loss};
    use podium::games::pods::{Feature, Position, Rules, Weights};

    let rules = Rules::default_for(args.variant);
    let start = Position::start(&rules, Rotation::default());
    let weights = Weights::for_variant(args.variant).with_text(args.weights.as_deref().unwrap_or(""))?;
    let free: Vec<Feature> = if args.features.is_empty() {
        Feature::ALL.into_iter().filter(|&feature| weights.get(feature) != 0).collect()
    } else {
        args.features.iter().map(|name| name.trim().parse()).collect::<Result<_, _>>()?
    };
    let mut samples = Vec::new();
    for (number, line) in read_positions(&args.games)? {
        samples.extend(game_samples(&rules, &start, &line, number)?);
    }
    if samples.is_empty() {
        bail!("no positions in {}", args.games);
    }
    let initial = weights.0.map(f64::from);
    let scale =
        args.scale.unwrap_or_else(|| best_scale(&samples, &Weights::for_variant(args.variant).0.map(f64::from)));
    let fitted = fit(&samples, &weights, &free, scale, args.steps);
    let rounded = Weights(fitted.map(|weight| weight.round() as i32));
    let mut out = Out::new();
    out.line(format_args!("positions {} scale {scale:.1}", samples.len()));
    out.line(format_args!(
        "loss before {:.6} after {:.6}",
        loss(&samples, &initial, scale),
        loss(&samples, &fitted, scale)
    ));
    out.line(format_args!("weights {rounded}"));
    Ok(out.finish()?)
}

fn per_second(count: u64, elapsed: Duration) -> u64 {
    (count as u128 * 1_000_000 / elapsed.as_micros().max(1)) as u64
}
