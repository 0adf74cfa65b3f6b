"""The arbiter's command line: arguments, the settings of a match, checking that the engines start,
and main(), which turns every error into one line and an exit status."""

from __future__ import annotations

import argparse
import datetime
import math
import os
import random
import shlex
import signal
import sys

from .clock import LONGEST_MS, TimeControl, parse_tc
from .compliance import Compliance
from .engines import EngineSpec, Player, Referee
from .errors import EngineFault, Interrupted, OptionRefused, PodiumError, RefereeError, UsageError
from .match import Match, MatchSettings
from .notation import poldr_shape
from .openings import OpeningBook
from .process import CHILDREN, Transcript
from .protocol import Timeouts
from .pictures import match_page
from .records import RecordFile, load_records, record_index, resumed_records, text_lines
from .replay import replay_records
from .rules import GAMES, VARIANTS, GameRules
from .stats import Sprt, count_of
from .summary import match_summary

NUMBER_WORDS = {2: "two", 3: "three"}
SUBCOMMANDS = ("match", "compliance", "report")


class ArgumentParser(argparse.ArgumentParser):
    """Bad usage is one line on stderr and exit 2, never a usage dump or a traceback."""

    def error(self, message: str):
        raise UsageError(message)


def parse_engine(tokens: list[str], index: int) -> EngineSpec:
    """`name=new cmd="./podium --flag" option.Hash=32 dir=/tmp` -> EngineSpec."""
    fields: dict[str, str] = {}
    options: dict[str, str] = {}
    for token in tokens:
        key, equals, value = token.partition("=")
        if not equals:
            raise UsageError(f"--engine: expected key=value, got {token!r}")
        if key.startswith("option."):
            options[key[len("option."):]] = value
        elif key in ("name", "cmd", "dir"):
            fields[key] = value
        else:
            raise UsageError(f"--engine: unknown key {key!r} (use name=, cmd=, dir=, option.NAME=)")
    if not fields.get("cmd"):
        raise UsageError("--engine needs cmd=COMMAND")
    argv = split_command(fields["cmd"], "--engine cmd=")
    if not argv:
        raise UsageError("--engine: empty cmd=")
    name = fields.get("name") or f"{os.path.basename(argv[0])}#{index + 1}"
    return EngineSpec(name, argv, options, fields.get("dir"))


def split_command(text: str, what: str) -> list[str]:
    """A command line into its words, as a shell would split it."""
    try:
        return shlex.split(text)
    except ValueError as error:  # an unclosed quote, a lone backslash at the end
        raise UsageError(f"{what}{text}: cannot split it into words ({str(error).lower()})") from None


def seconds(text: str) -> float:
    """An argument that is a wait in seconds: a positive, finite number, at most LONGEST_MS."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (0 < value <= LONGEST_MS / 1000):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds up to {LONGEST_MS // 1000}, "
                                         f"got {text!r}")
    return value


def margin_ms(text: str) -> int:
    """--timemargin: whole milliseconds, not negative, at most LONGEST_MS."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= LONGEST_MS:
        raise argparse.ArgumentTypeError(f"expected whole milliseconds from 0 to {LONGEST_MS}, got {text!r}")
    return value


def parse_key_values(tokens: list[str], allowed: dict[str, float], what: str) -> dict[str, float]:
    values = dict(allowed)
    for token in tokens:
        key, equals, value = token.partition("=")
        if not equals or key not in allowed:
            raise UsageError(f"{what}: expected {' '.join(f'{k}=...' for k in allowed)}, got {token!r}")
        try:
            values[key] = float(value)
        except ValueError:
            raise UsageError(f"{what}: {key} must be a number, got {value!r}") from None
    return values


def parse_sprt(tokens: list[str] | None) -> Sprt | None:
    if tokens is None:
        return None
    values = parse_key_values(tokens, {"elo0": 0.0, "elo1": 5.0, "alpha": 0.05, "beta": 0.05}, "--sprt")
    sprt = Sprt(values["elo0"], values["elo1"], values["alpha"], values["beta"])
    if not (sprt.elo0 < sprt.elo1 and 0 < sprt.alpha < 1 and 0 < sprt.beta < 1 and sprt.alpha + sprt.beta < 1):
        raise UsageError("--sprt: need elo0 < elo1 and alpha, beta in (0, 1) with alpha + beta < 1")
    return sprt


def common_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", action="append", nargs="+", default=[], metavar="KEY=VALUE",
                        help="an engine: name=NAME cmd=COMMAND [dir=DIR] [option.NAME=VALUE ...]")
    parser.add_argument("--timemargin", type=margin_ms, default=100, metavar="MS",
                        help="grace beyond the clock or movetime before a time forfeit (default 100)")
    parser.add_argument("--log", metavar="FILE", help="append all engine traffic to FILE")


MATCH_EPILOG = """\
POLD.R (--game poldr): the engines and the referee get `setoption name Game value poldr` and the
Players, Size and Bricks options. Each opening (the start position after --random-plies random
moves, or a POLD.R position line of --openings) is played once per seating: twice with two
players (the first engine as p1 (Blue), then as p2 (Yellow)); six times with --players 3 and
three --engine, every order of the engines over p1 (Blue), p2 (Yellow), p3 (Red), so that no
engine profits from its seat. --games is then rounded up to a multiple of 6: games 6g to 6g+5
play opening g. Under --tc each seat has its own clock (go p1time p2time p3time p1inc p2inc p3inc).

Every game record has "moves" and, in step with them, "move_info": per move its "time_ms" (from
`go` to `bestmove`, as the arbiter measured it), and "score" ("cp 35" or "mate 3", from the
mover's view, or null), "depth" and "nodes" from the engine's last info line with a score.

POLD.R records carry "game": "poldr" (the game's number is then "index"), "pair" (two players) or
"group" (three players: the games sharing an opening), "seats" (engine names in seat order),
"opening", "moves", "final" (the last position line), "result" p1win, p2win or p3win, "reason",
"faulty" (the engine whose fault ended the game, or null) and "time_ms" per seat. POLD.R has no
draws: the summary gives each engine's games, wins, win share with a 95% (Wilson) interval and
mean reserve in the final positions, then each seat's wins and win share. Elo, LOS, the
pentanomial and --sprt compare two engines over opening pairs as for Pods (a pair is LL, WL or WW);
three-player matches have none of them.

A fault (illegal move, crash, stall, time forfeit, protocol error) loses the game for the engine
that made it. With three players the winner is then the other seat standing best by the rules
(most bricks in reserve, then the tie-break), as the referee ranks it: the arbiter sends it the
game's moves followed by the word `forfeit`, which is no move, and asks `query result`. An engine
that fails while getting ready for a game before its turn has come forfeits when its turn comes;
the others play on until then.

Every option the match sets on an engine (its option.NAME=, and Variant or POLD.R's Game, Players,
Size, Bricks) is confirmed with isready: an engine that refuses one (`info string error`) stops the
match with the engine's words, before any game is played (exit 2), or when it is restarted later
(exit 1), rather than let it play with settings that were not asked for.

--variant, --rotation and --max-plies are Pods only; --size, --bricks, --players POLD.R only.
"""


def match_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="arbiter.py",
                            description="Play a match between two Pods engines, or two or three POLD.R engines.",
                            epilog=MATCH_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    common_arguments(parser)
    parser.add_argument("--referee", metavar="CMD", help="trusted Podium for legality and results "
                        "(default: the first engine's cmd)")
    parser.add_argument("--game", choices=GAMES, default="pods", help="the game played (default pods)")
    parser.add_argument("--variant", choices=VARIANTS, help="Pods: standard (default) or advanced")
    parser.add_argument("--players", type=int, metavar="N", help="POLD.R: players, 2 (default) or 3, one --engine each")
    parser.add_argument("--size", type=int, metavar="N", help="POLD.R: board size, 4 to 9 (default 5)")
    parser.add_argument("--bricks", type=int, metavar="N", help="POLD.R: bricks per player, 1 to 40 (default 16)")
    parser.add_argument("--games", type=int, default=100, help="number of games (the games of a pair, or of a group "
                        "of 6 with three players, share an opening)")
    parser.add_argument("--concurrency", type=int, default=1, help="games played at once")
    limits = parser.add_mutually_exclusive_group(required=True)
    limits.add_argument("--tc", metavar="S+INC", help="clock in seconds plus increment, e.g. 1+0.01")
    limits.add_argument("--movetime", type=int, metavar="MS")
    limits.add_argument("--depth", type=int)
    limits.add_argument("--nodes", type=int)
    parser.add_argument("--max-plies", type=int, help="Pods: adjudicate a draw at this ply (default 400, 0: never)")
    parser.add_argument("--rotation", choices=["0", "90", "180", "270", "random"],
                        help="Pods: board rotation of the start position (default 0; not used with --openings)")
    parser.add_argument("--random-plies", type=int, default=0, help="random legal moves starting each opening")
    parser.add_argument("--openings", metavar="FILE", help="position lines of the game, one per line, used in turn")
    parser.add_argument("--seed", type=int, help="seed for rotations and random plies (default: random, "
                        "or the one in the --resume file)")
    parser.add_argument("--records", metavar="FILE", help="JSON lines, one per game (default: timestamped file)")
    parser.add_argument("--resume", metavar="FILE", help="continue the match recorded in FILE")
    parser.add_argument("--sprt", nargs="+", metavar="KEY=VALUE",
                        help="elo0=0 elo1=5 alpha=0.05 beta=0.05: stop when the test decides")
    parser.add_argument("--startup-timeout", type=seconds, default=10.0, metavar="S", help="ugi -> ugiok")
    parser.add_argument("--ready-timeout", type=seconds, default=10.0, metavar="S", help="isready / query answers")
    parser.add_argument("--stall-timeout", type=seconds, default=60.0, metavar="S",
                        help="bestmove under --depth or --nodes")
    return parser


def compliance_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="arbiter.py compliance", description="Protocol self-test of one engine.")
    common_arguments(parser)
    parser.add_argument("--timeout", type=seconds, default=5.0, metavar="S", help="longest wait for any answer")
    return parser


def report_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="arbiter.py report", description="A match's page: one self-contained HTML file "
                            "with the summary, the running score and every game on a board that steps through it.")
    parser.add_argument("records", metavar="RECORDS", help="the match's records (JSON lines)")
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML file to write")
    parser.add_argument("--engine", metavar="CMD", help="the Podium that replays the games (default: $PODIUM_BIN, "
                        "else this checkout's target/release/podium)")
    parser.add_argument("--sprt", nargs="+", metavar="KEY=VALUE",
                        help="the SPRT shown (default elo0=0 elo1=5 alpha=0.05 beta=0.05)")
    parser.add_argument("--title", help="the page's title")
    return parser


def time_control_from(args: argparse.Namespace) -> TimeControl:
    if args.tc is not None:
        return parse_tc(args.tc)
    for kind in ("movetime", "depth", "nodes"):
        value = getattr(args, kind)
        if value is not None:
            if value <= 0:
                raise UsageError(f"--{kind} must be positive")
            if kind == "movetime" and value > LONGEST_MS:
                raise UsageError(f"--movetime may be at most {LONGEST_MS} ms")
            return TimeControl(kind, value=value)
    raise UsageError("one of --tc, --movetime, --depth, --nodes is required")


def rules_from(args: argparse.Namespace) -> GameRules:
    """The game and its settings; options of the other game are a usage error."""
    def given(*names: str) -> list[str]:
        return [f"--{name.replace('_', '-')}" for name in names if getattr(args, name) is not None]

    if args.game == "pods":
        if wrong := given("players", "size", "bricks"):
            raise UsageError(f"{', '.join(wrong)}: for POLD.R only, but the game is Pods (add --game poldr)")
        return GameRules("pods", variant=args.variant or "standard")
    if wrong := given("variant", "rotation", "max_plies"):
        raise UsageError(f"{', '.join(wrong)}: for Pods only, not POLD.R (POLD.R has no rotations, "
                         f"and its games always end, without draws)")
    players = 2 if args.players is None else args.players
    size = 5 if args.size is None else args.size
    bricks = 16 if args.bricks is None else args.bricks
    if players not in (2, 3):
        raise UsageError(f"--players {players}: POLD.R is played by 2 or 3 players")
    if not 4 <= size <= 9:
        raise UsageError(f"--size {size}: POLD.R boards are 4 to 9 cells wide")
    if not 1 <= bricks <= 40:
        raise UsageError(f"--bricks {bricks}: POLD.R reserves hold 1 to 40 bricks")
    return GameRules("poldr", players=players, size=size, bricks=bricks)


def read_opening_lines(path: str, rules: GameRules = GameRules()) -> list[str]:
    try:
        lines = [line.strip() for _, line in text_lines(path)]
    except OSError as error:
        raise UsageError(f"--openings {path}: {error.strerror}") from None
    lines = [line for line in lines if line and not line.startswith("#")]
    if not lines:
        raise UsageError(f"--openings {path}: no position lines")
    for number, line in enumerate(lines, 1):
        if not rules.position_re.match(line):
            kind = "POLD.R position line" if rules.poldr else "position line"
            raise UsageError(f"--openings {path}: line {number} is not a {kind}: {line!r}")
        if rules.poldr and poldr_shape(line) != (rules.size, rules.players):
            size, players = poldr_shape(line)
            raise UsageError(f"--openings {path}: line {number} has size {size} and {players} players, "
                             f"but the match has size {rules.size} and {rules.players} players: {line!r}")
    return lines


def engines_from(args: argparse.Namespace, rules: GameRules) -> list[EngineSpec]:
    """One --engine per seat, each with its own name."""
    seats = len(rules.seat_keys)
    if len(args.engine) != seats:
        match = "a match" if seats == 2 else f"a {seats}-player match (--players {seats})"
        raise UsageError(f"{match} needs exactly {NUMBER_WORDS[seats]} --engine, got {len(args.engine)}")
    engines = [parse_engine(tokens, index) for index, tokens in enumerate(args.engine)]
    names = [engine.name for engine in engines]
    if repeated := sorted({name for name in names if names.count(name) > 1}):
        raise UsageError(f"several engines are named {', '.join(map(repr, repeated))}: give them different name=")
    return engines


def whole_groups(games: int, rules: GameRules) -> int:
    """Three players: the number of games rounded up to whole groups of six, so that every opening
    is played in all six seatings. Two players keep their count (a last, odd game plays one seating)."""
    if len(rules.seat_keys) == 2:
        return games
    group = len(rules.seatings)
    return -(-games // group) * group


def settings_from(args: argparse.Namespace) -> tuple[MatchSettings, list[dict]]:
    rules = rules_from(args)
    engines = engines_from(args, rules)
    max_plies = 400 if args.max_plies is None else args.max_plies
    if args.games < 1 or args.concurrency < 1 or args.random_plies < 0 or max_plies < 0:
        raise UsageError("--games and --concurrency must be positive, --random-plies and --max-plies not negative")
    if args.sprt is not None and len(rules.seat_keys) != 2:
        raise UsageError("--sprt: the SPRT compares two engines; it is not available with three players")
    games = whole_groups(args.games, rules)
    if games != args.games:
        print(f"arbiter: --games {args.games} rounded up to {games}, whole groups of "
              f"{len(rules.seatings)} seatings", file=sys.stderr)
    recorded = []
    if args.resume:
        try:
            recorded = resumed_records(args.resume, [engine.name for engine in engines], games, rules)
        except OSError as error:
            raise UsageError(f"--resume {args.resume}: {error.strerror}") from None
    seed = args.seed
    if seed is None:
        seed = next((record["seed"] for record in recorded if "seed" in record), random.randrange(2**32))
    records_path = args.resume or args.records or datetime.datetime.now().strftime("arbiter-%Y%m%d-%H%M%S.jsonl")
    check_writable(records_path, "--resume" if args.resume else "--records")
    settings = MatchSettings(
        engines=engines,
        referee_argv=split_command(args.referee, "--referee ") if args.referee else engines[0].argv,
        variant=None if rules.poldr else rules.variant,
        games=games,
        concurrency=args.concurrency,
        time_control=time_control_from(args),
        margin_ms=args.timemargin,
        max_plies=0 if rules.poldr else max_plies,
        rotation=None if rules.poldr else args.rotation or "0",
        random_plies=args.random_plies,
        seed=seed,
        opening_lines=read_opening_lines(args.openings, rules) if args.openings else None,
        records_path=records_path,
        sprt=parse_sprt(args.sprt),
        timeouts=Timeouts(args.startup_timeout, args.ready_timeout, args.stall_timeout),
        transcript=open_transcript(args.log),
        rules=rules,
    )
    return settings, recorded


def check_writable(path: str, flag: str) -> None:
    """A file that can be opened for appending: not a directory, in a directory that exists."""
    if os.path.isdir(path):
        raise UsageError(f"{flag} {path}: is a directory")
    directory = os.path.dirname(path) or "."
    if not os.path.isdir(directory):
        raise UsageError(f"{flag} {path}: no such directory {directory}")


def open_transcript(path: str | None) -> Transcript:
    """The --log file, opened at once so that a bad path is a usage error before any engine starts."""
    if path is None:
        return Transcript(None)
    check_writable(path, "--log")
    try:
        return Transcript(path)
    except OSError as error:
        raise UsageError(f"--log {path}: {error.strerror}") from None


def open_records(settings: MatchSettings) -> RecordFile:
    try:
        return RecordFile(settings.records_path)
    except OSError as error:
        raise UsageError(f"{settings.records_path}: {error.strerror}") from None


def check_engines_start(settings: MatchSettings) -> str:
    """Starts every engine and the referee once, so a bad command is a usage error, not a lost match.

    Returns the referee's start position line."""
    for spec in settings.engines:
        player = Player(spec, settings.rules, settings.timeouts, settings.transcript)
        try:
            player.start()
            if unknown := player.undeclared_options():
                raise UsageError(f"engine {spec.name} declares no option {', '.join(unknown)} "
                                 f"(it has: {', '.join(player.options.values()) or 'none'})")
            if unknown := player.undeclared_game_options():
                raise UsageError(f"engine {spec.name} cannot play POLD.R: it declares no option {', '.join(unknown)}")
            player.configure()
        except OptionRefused as refusal:
            raise UsageError(str(refusal)) from None
        except EngineFault as fault:
            raise UsageError(f"engine {spec.name} does not start: {fault.detail}") from None
        finally:
            player.close()
    referee = Referee(settings.referee_argv, settings.rules, settings.timeouts, settings.transcript)
    try:
        referee.launch()
        start_fen = referee.start_fen()
        if settings.rules.poldr and poldr_shape(start_fen) != (settings.rules.size, settings.rules.players):
            raise UsageError(f"the referee's POLD.R start position {start_fen!r} is not of size "
                             f"{settings.rules.size} with {settings.rules.players} players: does it know "
                             f"the Game, Size and Players options?")
        for line in settings.opening_lines or []:
            referee.set_position(line)
            referee.fen()  # a line the referee rejects raises here
        return start_fen
    except RefereeError as error:
        raise UsageError(str(error)) from None
    finally:
        referee.close()


def run_match(argv: list[str]) -> int:
    settings, recorded = settings_from(match_parser().parse_args(argv))
    try:
        start_fen = check_engines_start(settings)
        book = OpeningBook(start_fen, settings.rotation, settings.random_plies, settings.seed, settings.opening_lines)
        records = open_records(settings)
        try:
            play_match(Match(settings, book, recorded, records), len(recorded))
        finally:
            records.close()
    finally:
        settings.transcript.close()
    return 0


def play_match(match: Match, recorded: int) -> None:
    settings = match.settings
    print(f"Match {' vs '.join(match.names)}: {count_of(match.planned, 'game')} ({recorded} already recorded), "
          f"{settings.rules.describe()}, {settings.time_control.describe()}, seed {settings.seed}, "
          f"records {settings.records_path}", flush=True)
    try:
        match.run()
    except Interrupted:
        print(match.report(), flush=True)  # what was played so far is recorded: show it
        raise
    if match.sprt_verdict != "continue":
        print(f"SPRT decided after {count_of(match.tally.games, 'game')}: {match.sprt_verdict}", flush=True)
    print(match.report(), flush=True)


def run_compliance(argv: list[str]) -> int:
    args = compliance_parser().parse_args(argv)
    if len(args.engine) != 1:
        raise UsageError(f"compliance needs exactly one --engine, got {len(args.engine)}")
    spec = parse_engine(args.engine[0], 0)
    transcript = open_transcript(args.log)
    try:
        return Compliance(spec, args.timeout, args.timemargin, transcript).run()
    finally:
        transcript.close()


def run_report(argv: list[str]) -> int:
    """The page of a match's records: podium/pictures.py draws what podium/replay.py gets from a Podium."""
    args = report_parser().parse_args(argv)
    sprt = parse_sprt(args.sprt)
    try:
        records = sorted(load_records(args.records), key=record_index)
    except OSError as error:
        raise UsageError(f"{args.records}: {error.strerror}") from None
    if not records:
        raise UsageError(f"{args.records}: no game records")
    try:
        page = match_page(replay_records(records, split_command(args.engine, "--engine ") if args.engine else None),
                          match_summary(records, sprt), args.title)
        with open(args.output, "w", encoding="utf-8") as output:
            output.write(page)
    except (PodiumError, OSError) as error:
        print(f"arbiter: error: {error}", file=sys.stderr)
        return 1
    print(f"arbiter: {args.output}: {count_of(len(records), 'game')}")
    return 0


def raise_interrupted(signum: int, _frame) -> None:
    """The first SIGINT or SIGTERM ends the program; later ones would only break its shutdown
    (workers first, then the records and the log), which is short: every engine is killed."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Interrupted(signum)


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, raise_interrupted)
    signal.signal(signal.SIGTERM, raise_interrupted)
    try:
        if argv and not argv[0].startswith("-") and argv[0] not in SUBCOMMANDS:
            raise UsageError(f"unknown subcommand {argv[0]!r}: the subcommands are {', '.join(SUBCOMMANDS)} "
                             f"(match is the default: arbiter.py --engine ... plays a match)")
        if argv[:1] == ["compliance"]:
            return run_compliance(argv[1:])
        if argv[:1] == ["report"]:
            return run_report(argv[1:])
        return run_match(argv[1:] if argv[:1] == ["match"] else argv)
    except UsageError as error:
        print(f"arbiter: error: {error}", file=sys.stderr)
        return 2
    except RefereeError as error:
        print(f"arbiter: error: {error}", file=sys.stderr)
        return 1
    except Interrupted as interruption:
        print(f"arbiter: interrupted by {interruption}; engines stopped", file=sys.stderr)
        return 128 + interruption.signum
    except BrokenPipeError:  # our output was closed (| head): stop quietly, records are safe
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    finally:
        CHILDREN.kill_all()
