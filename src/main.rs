//! The `podium` command line. With no subcommand it speaks the protocol on
//! stdin/stdout (protocol.md); the subcommands serve scripts: perft, bench
//! and analyse. Errors are one line on stderr and a non-zero exit.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::{Arg, ArgAction, ArgMatches, Args, FromArgMatches, Parser, Subcommand};
use podium::cli::analysis::{self, json_string};
use podium::cli::bench::{self, BenchOptions};
use podium::cli::cpu_time;
use podium::cli::positions::{Lines, Request, line_id, parse_request};
use podium::cli::rules::ReadAs;
use podium::games::registry::{Kind, Registry, SelectError, Selected, TuneRequest};
use podium::games::{CeilingRequest, Session, SolveRequest, TreeRequest};
use podium::protocol::command::Start;
use podium::protocol::options::MAX_HASH_MEGABYTES;
use podium::protocol::report::{BestMove, search_and_report};
use podium::search::{Limits, MultiplayerSearch, Progress, Report, Score, Searcher, Signals, Verdict};

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
    /// nodes and time (by proof-number search, df-pn, with the endgame solver at its leaves: Pods,
    /// where the advanced game can prove a draw by repetition, and POLD.R with two players; POLD.R
    /// with three players by its search with proofs, against the others together).
    Solve(SolveArgs),
    /// The ceiling against random movers: a seat's chance to win when it plays its best and every
    /// other seat plays a uniformly random legal move, worked out exactly over the whole game tree
    /// (expectimax), and each move's chance where the seat is to move. The most any player can
    /// expect from the position against random movers (POLD.R, standard Pods).
    Ceiling(CeilingArgs),
    /// Fit the evaluation's weights to the results of games (logistic
    /// regression over every position of every game) and print them: Pods
    /// (per variant), or POLD.R (--game poldr, per player count: --players).
    Tune(TuneArgs),
}

#[derive(Args)]
struct TuneArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The games, one per line ('-': stdin): the result (Pods 1-0, 0-1 or
    /// 1/2-1/2; POLD.R p1win, p2win or p3win), then 'startpos' or a position
    /// line, then 'moves <move>...' (as `arbiter.py export` writes them).
    #[arg(long, value_name = "FILE")]
    games: String,
    /// The features whose weights are fitted, by name (default: those the
    /// variant's weights use in Pods, all in POLD.R); the others keep their weights.
    #[arg(long, value_delimiter = ',', value_name = "NAME,...")]
    features: Vec<String>,
    /// The weights to start from, as name=value pairs separated by commas
    /// (features not named keep the variant's weights).
    #[arg(long, value_name = "WEIGHTS")]
    weights: Option<String>,
    /// Pods: the evaluation's units, a score of `scale` is a win e to 1 against
    /// (default: the scale at which the variant's own weights predict best).
    /// POLD.R's is fixed (100).
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
    /// Give up once the process has used this many seconds of CPU time
    /// (Linux), answering with the nodes searched (default: no limit).
    #[arg(long, value_name = "S", value_parser = clap::value_parser!(u64).range(1..))]
    cpu_limit: Option<u64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// The hash table's size in megabytes.
    #[arg(long, default_value_t = 256, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..=MAX_HASH_MEGABYTES))]
    hash: u64,
    /// Print the proof tree instead (POLD.R with two players, or the
    /// standard Pods game; the side to move winning): the winner's proved
    /// move at every position of one proof, for every reply of the loser,
    /// down to positions that prove within --leaf-nodes nodes (Pods: and
    /// where the search in play tries proofs); one line each: the position,
    /// the move, at most how many plies the game then lasts. The books the
    /// games carry.
    #[arg(long, conflicts_with_all = ["json", "movetime", "cpu_limit", "certificate"])]
    tree: bool,
    /// With --tree: positions proved within this many nodes (with a
    /// cleared table of 4 MB) end the tree.
    #[arg(long, default_value_t = 50_000, value_name = "NODES", requires = "tree", value_parser = clap::value_parser!(u64).range(1..))]
    leaf_nodes: u64,
    /// With --tree: the trees that refute the side to move's losing moves
    /// instead (for each losing move, one of each class of moves equal up
    /// to a symmetry, the other side's proof tree), the books of the
    /// replies to a first move that throws the win away.
    #[arg(long, requires = "tree")]
    refutations: bool,
    /// With --tree: the side to move's winning move, known already (a
    /// campaign's store proved it): the tree is written from it, the root's
    /// other moves not refuted again.
    #[arg(long, value_name = "MOVE", requires = "tree", conflicts_with = "refutations")]
    first_move: Option<String>,
    /// Write the proof tree to this file, for a checker (Pods; docs/solving.md).
    #[arg(long, value_name = "FILE")]
    certificate: Option<String>,
    /// The proof search: dfpn (proof-number search, where the game has it), search (the engine's
    /// search with proofs), or auto: the one that proves more of the game's positions
    /// (docs/solving.md; the advanced Pods game: search, unless a certificate is asked for; POLD.R:
    /// dfpn with two players, search with three).
    #[arg(long, value_enum, default_value_t = Method::Auto)]
    method: Method,
}

#[derive(Args)]
struct CeilingArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Moves to play from the position first.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    moves: Vec<String>,
    /// The seat whose chance it is: 1 for the first player (default: the side to move).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=3))]
    seat: Option<u64>,
    /// The table of values' most memory in megabytes, taken as it is written (a smaller one only
    /// takes longer: a value overwritten is worked out again).
    #[arg(long, default_value_t = 1024, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..=MAX_CEILING_MEGABYTES))]
    hash: u64,
    /// Give up after this many positions worked out (default: no limit).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// `podium solve --method`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Method {
    Auto,
    Dfpn,
    Search,
}

/// The game to look at: which game, its settings and a position. The
/// settings are the registry's parameters, one argument each
/// (`--size 6`, `--placement-liberty`); a setting of one game selects
/// that game unless `--game` names it.
struct GameArgs {
    game: Option<String>,
    fen: Option<String>,
    /// Parameter names and values as given.
    settings: Vec<(&'static str, String)>,
}

/// `PlacementLiberty` -> `placement-liberty`.
fn argument_name(parameter: &str) -> String {
    let mut name = String::new();
    for (index, c) in parameter.chars().enumerate() {
        if c.is_ascii_uppercase() && index > 0 {
            name.push('-');
        }
        name.push(c.to_ascii_lowercase());
    }
    name
}

impl Args for GameArgs {
    fn augment_args(command: clap::Command) -> clap::Command {
        let registry = Registry::builtin();
        let games: Vec<&'static str> = registry.games().iter().map(|game| game.name()).collect();
        let mut command = command
            .arg(
                Arg::new("game")
                    .long("game")
                    .value_parser(clap::builder::PossibleValuesParser::new(games.clone()))
                    .ignore_case(true)
                    .help(format!(
                        "The game: {} (default: {}, or the game the settings belong to).",
                        games.join(", "),
                        games[0]
                    )),
            )
            .arg(
                Arg::new("fen")
                    .long("fen")
                    .value_name("POSITION")
                    .help("A position line to start from instead of the start position."),
            );
        for game in registry.games() {
            for parameter in game.parameters() {
                let mut arg = Arg::new(parameter.name).long(argument_name(parameter.name)).help(format!(
                    "{}: {}.",
                    game.title(),
                    parameter.help
                ));
                arg = match &parameter.kind {
                    Kind::Check => arg.action(ArgAction::SetTrue),
                    Kind::Spin(range) => arg.value_parser(clap::value_parser!(u64).range(range.clone())),
                    Kind::Combo(values) => {
                        arg.value_parser(clap::builder::PossibleValuesParser::new(values.clone())).ignore_case(true)
                    }
                    Kind::Text | Kind::Button => arg,
                };
                if parameter.start_only {
                    arg = arg.conflicts_with("fen");
                }
                command = command.arg(arg);
            }
        }
        command
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        GameArgs::augment_args(command)
    }
}

impl FromArgMatches for GameArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<GameArgs, clap::Error> {
        let mut settings = Vec::new();
        for game in Registry::builtin().games() {
            for parameter in game.parameters() {
                let value = match parameter.kind {
                    Kind::Check => matches.get_flag(parameter.name).then(|| "true".to_string()),
                    Kind::Spin(_) => matches.get_one::<u64>(parameter.name).map(u64::to_string),
                    _ => matches.get_one::<String>(parameter.name).cloned(),
                };
                if let Some(value) = value {
                    settings.push((parameter.name, value));
                }
            }
        }
        Ok(GameArgs {
            game: matches.get_one::<String>("game").cloned(),
            fen: matches.get_one::<String>("fen").cloned(),
            settings,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = GameArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl GameArgs {
    /// The game the arguments select, set up with their settings.
    fn selected(&self) -> anyhow::Result<Selected> {
        let settings: Vec<(&str, &str)> = self.settings.iter().map(|(name, value)| (*name, value.as_str())).collect();
        Ok(Registry::builtin().select(self.game.as_deref(), &settings)?)
    }

    /// The game at the position the arguments name, after `moves`.
    fn session(&self, moves: &[String]) -> anyhow::Result<Box<dyn Session>> {
        let start = self.fen.clone().map_or(Start::StartPos, Start::Fen);
        self.session_at(&start, moves)
    }

    /// The game a line of a positions file asks for, and how it was read.
    /// A line that names no game is of the command line's (`base`); one
    /// that names the command line's game takes its settings, then the
    /// line's over them; one that names another game takes only its own.
    /// `"variant"` sets the game's variant parameter.
    fn session_for(&self, base: &Selected, request: &Request) -> anyhow::Result<(ReadAs, Box<dyn Session>)> {
        let registry = Registry::builtin();
        let index = match &request.game {
            Some(name) => registry
                .index_of(name)
                .ok_or_else(|| SelectError::UnknownGame { name: name.clone(), games: registry.names() })?,
            None => base.index,
        };
        let game = &registry.games()[index];
        let mut settings: Vec<(&str, &str)> = Vec::new();
        if index == base.index {
            settings.extend(self.settings.iter().map(|(name, value)| (*name, value.as_str())));
        }
        if let Some(variant) = &request.variant {
            let Some(parameter) = game.variant_parameter() else {
                bail!("{} has no variants: \"variant\" is for a game that has", game.name());
            };
            settings.push((parameter, variant));
        }
        settings.extend(request.settings.iter().map(|(name, value)| (name.as_str(), value.as_str())));
        let selected = registry.select(Some(game.name()), &settings)?;
        let read_as = ReadAs::of(&registry, &selected);
        let session = session_of(&selected, &request.start, &request.moves)?;
        Ok((read_as, session))
    }

    fn session_at(&self, start: &Start, moves: &[String]) -> anyhow::Result<Box<dyn Session>> {
        session_of(&self.selected()?, start, moves)
    }
}

/// The game `selected` at `start`, after `moves`.
fn session_of(selected: &Selected, start: &Start, moves: &[String]) -> anyhow::Result<Box<dyn Session>> {
    let mut session = match start {
        Start::StartPos => selected.setup.start(),
        Start::Fen(line) => selected.setup.session_at(line)?,
    };
    // Each argument may hold several moves: `--moves "A@c3 b@d4"` works too.
    for (index, text) in moves.iter().flat_map(|text| text.split_whitespace()).enumerate() {
        session.play(text).with_context(|| format!("move {text} at index {index}"))?;
    }
    Ok(session)
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
    /// The depth the first game's positions are searched to (default: its own).
    #[arg(long)]
    depth: Option<u32>,
    /// Search threads for the Pods positions: the times to depth then tell
    /// what more threads gain (the node count is a fingerprint with one only).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
}

#[derive(Subcommand)]
enum BenchKind {
    /// Leaf nodes per second of perft from the start of every game and variant.
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
    #[arg(long, default_value_t = 64, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..=MAX_HASH_MEGABYTES))]
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
        Some(Task::Ceiling(args)) => run_ceiling(&args),
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
    let registry = Registry::builtin();
    if let Some(BenchKind::Perft) = args.kind {
        bench::perft_speed(&registry, |line| out.line(line))?;
        return Ok(out.finish()?);
    }
    let options = BenchOptions { depth: args.depth, threads: args.threads as usize };
    bench::run(&registry, options, |line| out.line(line))?;
    Ok(out.finish()?)
}

/// Says so on stderr where the memory for the hash size asked could not be
/// had: the search goes on with the smaller table.
fn warn_if_smaller(searcher: &Searcher, asked: u64) {
    let got = searcher.hash_megabytes();
    if (got as u64) < asked {
        warn_hash_short(asked, got);
    }
}

/// The warning for a table smaller than `--hash` asked, the search's or a proof's.
fn warn_hash_short(asked: u64, got: usize) {
    log::warn!("--hash {asked}: so much memory cannot be had here, using {got} MB");
}

fn run_analyse(args: &AnalyseArgs) -> anyhow::Result<()> {
    let limits = Limits {
        depth: args.limit.depth,
        nodes: args.limit.nodes,
        movetime: args.limit.movetime.map(Duration::from_millis),
        ..Limits::default()
    };
    let mut searcher = Searcher::new(args.hash as usize);
    warn_if_smaller(&searcher, args.hash);
    let threads = searcher.set_threads(args.threads as usize);
    if threads < args.threads as usize {
        log::warn!("this machine runs {threads} threads at once: searching with {threads}, not {}", args.threads);
    }
    searcher.set_lines(args.multipv as usize);
    // Arguments of the wrong game are a command-line error before any position.
    let base = args.game.selected()?;
    let mut out = Out::new();
    let Some(path) = &args.positions else {
        let read_as = ReadAs::of(&Registry::builtin(), &base);
        return match args.game.session(&args.moves) {
            Ok(session) => {
                answer(&mut out, args.json, &mut searcher, &limits, None, &read_as, None, session.as_ref());
                Ok(out.finish()?)
            }
            Err(error) => {
                // A position named on the command line is a command-line
                // error too (after its JSON object): said on stderr.
                if args.json {
                    out.line(analysis::error_json(1, "(command line)", None, &format!("{error:#}")));
                }
                out.finish()?;
                Err(error)
            }
        };
    };
    // A file is counted first, for the progress bar; stdin is not.
    let total = if path == "-" { None } else { Some(count_positions(path)?) };
    let mut progress = ProgressBar::new(total, args.progress || (total != Some(1) && io::stderr().is_terminal()));
    let mut lines = open_positions(path)?;
    let (mut read, mut failures) = (0, 0);
    while let Some(line) =
        lines.next_line().with_context(|| format!("cannot read the positions from {}", positions_name(path)))?
    {
        read += 1;
        let request = match &line.fault {
            Some(fault) => Err(anyhow::Error::new(fault.clone())),
            None => parse_request(&line.text).map_err(anyhow::Error::new),
        };
        let id = match &request {
            Ok(request) => request.id.clone(),
            Err(_) if line.fault.is_none() => line_id(&line.text),
            Err(_) => None,
        };
        match request.and_then(|request| args.game.session_for(&base, &request)) {
            Ok((read_as, session)) => answer(
                &mut out,
                args.json,
                &mut searcher,
                &limits,
                Some((line.number, &line.text)),
                &read_as,
                id.as_deref(),
                session.as_ref(),
            ),
            Err(error) => {
                failures += 1;
                let message = format!("{error:#}");
                if args.json {
                    out.line(analysis::error_json(line.number, &line.text, id.as_deref(), &message));
                } else {
                    out.line(format_args!("info string error: position {}: {message}", line.number));
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
        bail!("{failures} of {read} positions could not be analysed");
    }
    Ok(())
}

/// One position's answer: a JSON object, or the protocol's lines after
/// `info string position <line>: <input>` (for a line of a file) and
/// `info string game <how it was read>`.
#[allow(clippy::too_many_arguments)]
fn answer(
    out: &mut Out,
    json: bool,
    searcher: &mut Searcher,
    limits: &Limits,
    input: Option<(usize, &str)>,
    read_as: &ReadAs,
    id: Option<&str>,
    session: &dyn Session,
) {
    let (index, position) = input.unwrap_or((1, "(command line)"));
    if json {
        let analysis = analysis::analyse(searcher, session, limits);
        let mut fields = format!(",{}", read_as.json_fields());
        if let Some(id) = id {
            fields.push_str(&format!(",\"id\":{id}"));
        }
        out.line(analysis.to_json(index, position, &fields, session));
    } else {
        if input.is_some() {
            out.line(format_args!("info string position {index}: {position}"));
        }
        out.line(format_args!("info string game {read_as}"));
        analyse_as_text(out, searcher, session, limits);
    }
}

/// `stdin` or the file's name, for messages.
fn positions_name(path: &str) -> String {
    if path == "-" { "stdin".to_string() } else { format!("the positions file {path}") }
}

/// The lines of a positions file ('-': stdin), read one at a time.
fn open_positions(path: &str) -> anyhow::Result<Lines<Box<dyn io::BufRead>>> {
    let reader: Box<dyn io::BufRead> = if path == "-" {
        Box::new(io::stdin().lock())
    } else {
        let file = std::fs::File::open(path).with_context(|| format!("cannot read the positions file {path}"))?;
        Box::new(io::BufReader::new(file))
    };
    Ok(Lines::new(reader))
}

/// How many lines of a positions file are worth an answer.
fn count_positions(path: &str) -> anyhow::Result<usize> {
    let mut lines = open_positions(path)?;
    let mut count = 0;
    while lines.next_line().with_context(|| format!("cannot read {}", positions_name(path)))?.is_some() {
        count += 1;
    }
    Ok(count)
}

/// The protocol's lines for one position: the info lines as they come, then `bestmove`.
fn analyse_as_text(out: &mut Out, searcher: &mut Searcher, session: &dyn Session, limits: &Limits) {
    searcher.clear();
    if let Some(outcome) = session.outcome() {
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
    /// The positions to analyse, where known (not for stdin).
    total: Option<usize>,
    done: usize,
    started: Instant,
    shown: bool,
}

impl ProgressBar {
    const WIDTH: usize = 30;

    fn new(total: Option<usize>, shown: bool) -> ProgressBar {
        ProgressBar { total, done: 0, started: Instant::now(), shown }
    }

    fn advance(&mut self) {
        self.done += 1;
        if !self.shown {
            return;
        }
        let elapsed = self.started.elapsed().as_secs_f64();
        let Some(total) = self.total else {
            eprint!("\ranalyse: {} positions, {elapsed:.0} s ", self.done);
            return;
        };
        let total = total.max(self.done);
        let filled = Self::WIDTH * self.done / total.max(1);
        let left = elapsed / self.done as f64 * (total - self.done) as f64;
        eprint!(
            "\ranalyse [{}{}] {}/{} positions, {elapsed:.0} s, about {left:.0} s left ",
            "#".repeat(filled),
            ".".repeat(Self::WIDTH - filled),
            self.done,
            total
        );
    }

    fn finish(&self) {
        if self.shown && self.done > 0 {
            eprintln!();
        }
    }
}

fn run_solve(args: &SolveArgs) -> anyhow::Result<()> {
    let read_as = ReadAs::of(&Registry::builtin(), &args.game.selected()?);
    let game = args.game.session(&args.moves)?;
    if args.tree {
        let request = TreeRequest {
            leaf_nodes: args.leaf_nodes,
            megabytes: args.hash as usize,
            refutations: args.refutations,
            first_move: args.first_move.clone(),
        };
        let lines = game.proof_tree(&request).map_err(|error| anyhow::anyhow!(error))?;
        let mut out = Out::new();
        for line in lines {
            out.line(line);
        }
        return Ok(out.finish()?);
    }
    let position = game.position_line();
    let started = Instant::now();
    let outcome = game.outcome();
    let signals = Signals::default();
    let (Proof { found: proof, draw, nodes }, out_of_cpu) = match (&outcome, args.cpu_limit) {
        (Some(outcome), _) => (
            Proof {
                found: outcome.winner.map(|winner| (0, Vec::new(), Some(winner))),
                draw: outcome.winner.is_none(),
                nodes: 0,
            },
            false,
        ),
        (None, None) => (prove(game.as_ref(), args, &signals)?, false),
        (None, Some(seconds)) => {
            let limit = Duration::from_secs(seconds);
            let (proof, fired) =
                cpu_time::with_cpu_limit(limit, &signals.stop, || prove(game.as_ref(), args, &signals))
                    .context("--cpu-limit")?;
            (proof?, fired)
        }
    };
    // The limit may fire just as a proof completes: then the proof stands.
    let out_of_cpu = out_of_cpu && proof.is_none() && !draw;
    let time = started.elapsed().as_millis();
    let mut out = Out::new();
    if args.json {
        let proof = match &proof {
            None if draw => "\"proven\":true,\"winner\":null,\"draw\":true".to_string(),
            None => "\"proven\":false".to_string(),
            Some((mate, line, winner)) => {
                let line: Vec<String> = line.iter().map(|mv| format!("\"{mv}\"")).collect();
                let winner = winner.map_or("null".to_string(), |seat| format!("\"p{}\"", seat + 1));
                format!("\"proven\":true,\"winner\":{winner},\"mate\":{mate},\"line\":[{}]", line.join(","))
            }
        };
        let over = outcome
            .as_ref()
            .map_or(String::new(), |outcome| format!(",\"gameover\":{}", json_string(&outcome.description)));
        let stopped = if out_of_cpu { ",\"stopped\":\"cpu\"" } else { "" };
        out.line(format_args!(
            "{{\"type\":\"solve\",\"position\":\"{position}\",{},{proof},\"nodes\":{nodes},\"time\":{time}{stopped}{over}}}",
            read_as.json_fields()
        ));
    } else {
        out.line(format_args!("position {position}"));
        out.line(format_args!("game {read_as}"));
        match (&outcome, &proof) {
            (Some(outcome), _) => out.line(format_args!("result game over: {outcome}")),
            (None, None) if draw => out.line("result draw: neither side can force a win"),
            (None, None) if out_of_cpu => out.line(format_args!(
                "result unknown: no proof within {} s of CPU time",
                args.cpu_limit.unwrap_or_default()
            )),
            (None, None) => out.line("result unknown: no proof within the limits"),
            (None, Some((mate, line, winner))) => {
                out.line(format_args!("result {}", proof_in_words(game.as_ref(), *mate, *winner)));
                out.line(format_args!("line {}", line.join(" ")));
            }
        }
        out.line(format_args!("nodes {nodes} time {time} ms"));
    }
    Ok(out.finish()?)
}

/// The most memory `podium ceiling --hash` takes: 64 GB.
const MAX_CEILING_MEGABYTES: u64 = 1 << 16;

fn run_ceiling(args: &CeilingArgs) -> anyhow::Result<()> {
    let read_as = ReadAs::of(&Registry::builtin(), &args.game.selected()?);
    let game = args.game.session(&args.moves)?;
    let seat = args.seat.map_or(game.mover(), |seat| seat as usize - 1);
    if seat >= game.players() {
        anyhow::bail!("--seat {}: the game has {} players", seat + 1, game.players());
    }
    let request = CeilingRequest { seat, megabytes: args.hash as usize, max_nodes: args.nodes };
    let started = Instant::now();
    let found = game.ceiling(&request, &Signals::default()).map_err(|error| anyhow::anyhow!(error))?;
    let time = started.elapsed().as_millis();
    let position = game.position_line();
    let mut out = Out::new();
    if args.json {
        let moves: Vec<String> = found
            .moves
            .iter()
            .map(|(mv, chance)| format!("{{\"move\":{},\"chance\":{chance}}}", json_string(mv)))
            .collect();
        out.line(format_args!(
            "{{\"type\":\"ceiling\",\"position\":{},{},\"seat\":\"p{}\",\"chance\":{},\"moves\":[{}],\"nodes\":{},\"time\":{time}}}",
            json_string(&position),
            read_as.json_fields(),
            seat + 1,
            found.chance,
            moves.join(","),
            found.nodes
        ));
    } else {
        out.line(format_args!("position {position}"));
        out.line(format_args!("game {read_as}"));
        out.line(format_args!("seat {} (p{})", game.seat_name(seat), seat + 1));
        out.line(format_args!("ceiling {:.6}", found.chance));
        for (mv, chance) in &found.moves {
            out.line(format_args!("move {mv} {chance:.6}"));
        }
        out.line(format_args!("nodes {} time {time} ms", found.nodes));
    }
    Ok(out.finish()?)
}

/// What `solve` found: the proof (signed moves of the side to move, the
/// line, the winner), whether it proved a draw, and the nodes it took.
struct Proof {
    found: Option<(i32, Vec<String>, Option<usize>)>,
    draw: bool,
    nodes: u64,
}

/// Proves a position that is not over: by the game's proof-number search
/// where it has one and `--method` allows it, else by the search with proofs.
fn prove(game: &dyn Session, args: &SolveArgs, signals: &Signals) -> anyhow::Result<Proof> {
    let movetime = args.movetime.map(Duration::from_millis);
    let request = SolveRequest {
        megabytes: args.hash as usize,
        limits: Limits { movetime, ..Limits::default() },
        certificate: args.certificate.is_some(),
        where_better: args.method == Method::Auto && args.certificate.is_none(),
    };
    let solved = if args.method == Method::Search { None } else { game.solve(&request, signals) };
    if let Some(solved) = solved {
        if let Some(got) = solved.megabytes_if_short {
            warn_hash_short(args.hash, got);
        }
        if let Some(path) = &args.certificate {
            // A limit reached is an answer (unknown), not a failure of the command.
            if solved.verdict == Verdict::Unknown {
                log::warn!("--certificate {path}: not written: no proof within the limits");
            } else {
                write_certificate(path, solved.certificate.as_ref())?;
            }
        }
        // Moves of the side to move, as a search reports a mate.
        let moves = solved.plies.div_ceil(game.players() as u32) as i32;
        let found = match solved.verdict {
            Verdict::Win => Some((moves, solved.line, solved.winner)),
            Verdict::Loss => Some((-moves, solved.line, solved.winner)),
            Verdict::Draw | Verdict::Unknown => None,
        };
        return Ok(Proof { found, draw: solved.verdict == Verdict::Draw, nodes: solved.nodes });
    }
    if args.certificate.is_some() {
        bail!("--certificate: this game's proofs are not written out (only Pods')");
    }
    if args.method == Method::Dfpn {
        bail!("--method dfpn: no proof-number search here (it proves Pods and two-player POLD.R)");
    }
    let limits = Limits { depth: Some(127), movetime, prove: true, ..Limits::default() };
    // Tables that take memory as the proof needs it: a small proof answers
    // at once, and a large one pays for its pages as it goes.
    let mut searcher = Searcher::with_tables_on_demand(args.hash as usize);
    warn_if_smaller(&searcher, args.hash);
    // A proof with three players is one against the others together: the
    // paranoid search's, whatever plays best in games.
    searcher.set_multiplayer(MultiplayerSearch::Paranoid);
    let mut last: Option<Report<String>> = None;
    let result = game.search(&mut searcher, &limits, &[], signals, &mut |progress| {
        if let Progress::Line(report) = progress {
            last = Some(report.clone());
        }
    });
    let mover = game.mover();
    let found = last.filter(|report| matches!(report.score, Score::Mate(_))).map(|report| {
        let Score::Mate(moves) = report.score else { unreachable!("a mate score") };
        // A loss for the side to move names the winner only with two players.
        let winner = if moves > 0 { Some(mover) } else { (game.players() == 2).then(|| 1 - mover) };
        (moves, report.pv, winner)
    });
    Ok(Proof { found, draw: false, nodes: result.nodes })
}

/// Writes the certificate `solve` made to `path`, or says why there is none.
fn write_certificate(path: &str, certificate: Option<&Result<Vec<String>, String>>) -> anyhow::Result<()> {
    match certificate {
        None => bail!("--certificate {path}: no certificate: the position was not proved won or lost"),
        Some(Err(why)) => bail!("--certificate {path}: {why}"),
        Some(Ok(lines)) => {
            let mut text = lines.join("\n");
            text.push('\n');
            std::fs::write(path, text).with_context(|| format!("cannot write the certificate {path}"))
        }
    }
}

/// A proof for people: `White (p1, to move) wins in at most 4 moves of its
/// own`. The count is the side to move's own moves to the end along the
/// proof's line, the winner's proved moves against the loser's longest
/// resistance: an upper bound on the fastest win.
fn proof_in_words(game: &dyn Session, mate: i32, winner: Option<usize>) -> String {
    let mover = game.mover();
    let seat = |seat: usize| format!("{} (p{}", game.seat_name(seat), seat + 1);
    let moves = match mate.abs() {
        1 => "1 move of its own".to_string(),
        count => format!("{count} moves of its own"),
    };
    match winner {
        _ if mate > 0 => format!("{}, to move) wins in at most {moves}", seat(mover)),
        Some(winner) => format!("{}) wins: {}, to move) loses within {moves}", seat(winner), seat(mover)),
        None => format!("{}, to move) loses within {moves} against the others together", seat(mover)),
    }
}

fn run_tune(args: &TuneArgs) -> anyhow::Result<()> {
    if args.game.fen.is_some() {
        bail!("tune reads its positions from --games, not --fen");
    }
    let selected = args.game.selected()?;
    let request = TuneRequest {
        games: read_positions(&args.games)?,
        features: args.features.clone(),
        weights: args.weights.clone(),
        scale: args.scale,
        steps: args.steps,
    };
    let lines = Registry::builtin().games()[selected.index].tune(&selected.values, &request)?;
    let mut out = Out::new();
    for line in lines {
        out.line(line);
    }
    Ok(out.finish()?)
}
