"""The arbiter's command line: its parsers, the subcommands (a match, compliance, report, merge,
openings, export), checking that the engines start, and main(), which turns every error into one
line and an exit status. The settings of a match are made in settings.py."""

from __future__ import annotations

import argparse
import math
import os
import random
import signal
import sys

from .balanced import BookSettings, make_book
from .clock import LONGEST_MS
from .compliance import Compliance
from .engines import Player, Referee
from .errors import EngineFault, Interrupted, OptionRefused, PodiumError, RefereeError, UsageError
from .export import export_games, tune_command
from .match import Match, match_report
from .match_settings import MatchSettings
from .merge import join_shards
from .notation import poldr_shape
from .openings import OpeningBook
from .process import CHILDREN
from .protocol import Timeouts
from .records import RecordFile
from .replay import default_engine_command
from .report import report_page
from .rules import GAMES, VARIANTS
from .settings import (MATCH_DEFAULTS, build_settings, check_writable, fill_from_header, open_transcript, parse_engine,
                       parse_sprt, rules_from, settings_from, split_command)
from .stats import Tally, count_of

SUBCOMMANDS = ("match", "compliance", "report", "merge", "openings", "export")


class ArgumentParser(argparse.ArgumentParser):
    """Bad usage is one line on stderr and exit 2, never a usage dump or a traceback."""

    def error(self, message: str):
        raise UsageError(message)


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


def common_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", action="append", nargs="+", metavar="KEY=VALUE",
                        help="an engine: name=NAME cmd=COMMAND [dir=DIR] [option.NAME=VALUE ...] and, in a match, "
                             "its own time control [tc=S+INC | movetime=MS | depth=D | nodes=N] (time odds)")
    parser.add_argument("--timemargin", type=margin_ms, metavar="MS",
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

Records have one schema for both games (docs/records.md, docs/records.schema.json): per game
"type": "game", "game" (pods or poldr), "index" (its number from 1, as the progress lines say),
"group" (from 1: the games sharing an opening, a pair with two players), "seats" (engine names in
seat order, p1 first), "variant" (Pods) or "players", "size", "bricks" (POLD.R), "opening",
"moves", "final" (the last position line), "result" (p1win, p2win, p3win or draw), "winner",
"reason", "faulty" (the engine whose fault ended the game, or null), and per seat "time_ms" and
"time_control". "move_info" is, per move, its "time_ms" (from `go` to `bestmove`, as the arbiter
measured it), and "score" ("cp 35" or "mate 3", from the mover's view, or null), "depth" and
"nodes" from the engine's last info line with a score. Records of older arbiters are read as well.

POLD.R has no draws: the summary gives each engine's games, wins, win share with a 95% (Wilson)
interval and mean reserve in the final positions, then each seat's wins and win share. Elo, LOS,
the pentanomial and --sprt compare two engines over opening pairs as for Pods (a pair is LL, WL or
WW); three-player matches have none of them. Below 10 complete game pairs Elo and LOS read "too
few games"; the SPRT is shown only when one was asked for (--sprt).

Time odds: an engine's own tc=, movetime=, depth= or nodes= in its --engine stands for the match's
--tc, --movetime, --depth or --nodes (which every engine without one needs): `--engine name=long
cmd=./podium tc=2+0.02 --engine name=short cmd=./podium tc=1+0.01` is one match of double time.
Under a clock, each seat's go gives the clocks of the seats that have one; the records give each
seat's control. --depth goes up to 4294967295 and --nodes up to 2^64 - 1, the protocol's ranges.

--shard K/N plays only the openings g (numbered from 0) with g mod N = K - 1, every game of each
(both colours, or all six seatings), with the seed and openings of the whole match: N runs with the
same arguments and K = 1 to N, on as many machines, play the match between them, each into its
own records, whose settings carry the shard. `arbiter.py merge FILE...` checks that the files are
the shards of one match, each game in one only, and prints the match's report as one run would
have; shards or games not there yet are named, with exit status 1. A shard takes no --sprt (it
cannot stop the others): give it to merge.

A fault (illegal move, crash, stall, time forfeit, protocol error) loses the game for the engine
that made it. With three players the winner is then the other seat standing best by the rules
(most bricks in reserve, then the tie-break), as the referee ranks it: the arbiter sends it the
game's moves followed by the word `forfeit`, which is no move, and asks `query result`. An engine
that fails while getting ready for a game before its turn has come forfeits when its turn comes;
the others play on until then. The record's `faulty` is the engine whose fault ended the game;
its `detail` also names any engine that failed earlier in that game.

Every option the match sets on an engine (its option.NAME=, and Variant or POLD.R's Game, Players,
Size, Bricks) is confirmed with isready: an engine that refuses one (`info string error`) stops the
match with the engine's words, before any game is played (exit 2), or when it is restarted later
(exit 1), rather than let it play with settings that were not asked for.

The records file starts with the match's settings, one JSON line {"type": "match", ...}: the
engines (name, cmd, options, dir), the referee, the game and its settings, --games, the time
control and --timemargin, --max-plies, --rotation, --random-plies, the seed, the lines of
--openings, --shard, --sprt, --concurrency and the timeouts. `--resume FILE` alone continues the
match with them. Arguments given with --resume may change how the match is run (--concurrency,
--sprt, the timeouts, --log), not the match itself: an argument that contradicts the recorded
settings is an error. A file without settings (from an older arbiter) resumes when all the
arguments are given again. --records refuses a file that holds a match already.

--variant, --rotation and --max-plies are Pods only; --size, --bricks, --players POLD.R only.
"""


def match_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="arbiter.py",
                            description="Play a match between two Pods engines, or two or three POLD.R engines.",
                            epilog=MATCH_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    common_arguments(parser)
    parser.add_argument("--referee", metavar="CMD", help="trusted Podium for legality and results "
                        "(default: the first engine's cmd)")
    parser.add_argument("--game", choices=GAMES, help="the game played (default pods)")
    parser.add_argument("--variant", choices=VARIANTS, help="Pods: standard (default) or advanced")
    parser.add_argument("--players", type=int, metavar="N", help="POLD.R: players, 2 (default) or 3, one --engine each")
    parser.add_argument("--size", type=int, metavar="N", help="POLD.R: board size, 4 to 9 (default 5)")
    parser.add_argument("--bricks", type=int, metavar="N", help="POLD.R: bricks per player, 1 to 40 (default 16)")
    parser.add_argument("--games", type=int, help="number of games (default 100; the games of a pair, or of a "
                        "group of 6 with three players, share an opening)")
    parser.add_argument("--concurrency", type=int, help="games played at once (default 1)")
    limits = parser.add_mutually_exclusive_group()
    limits.add_argument("--tc", metavar="S+INC", help="clock in seconds plus increment, e.g. 1+0.01")
    limits.add_argument("--movetime", type=int, metavar="MS")
    limits.add_argument("--depth", type=int)
    limits.add_argument("--nodes", type=int)
    parser.add_argument("--max-plies", type=int, help="Pods: adjudicate a draw at this ply (default 400, 0: never)")
    parser.add_argument("--rotation", choices=["0", "90", "180", "270", "random"],
                        help="Pods: board rotation of the start position (default 0; not used with --openings)")
    parser.add_argument("--random-plies", type=int, help="random legal moves starting each opening (default 0)")
    parser.add_argument("--openings", metavar="FILE", help="position lines of the game, one per line, used in turn")
    parser.add_argument("--seed", type=int, help="seed for rotations and random plies (default: random, "
                        "or the one in the --resume file)")
    parser.add_argument("--records", metavar="FILE", help="JSON lines: the match's settings, then one line per game "
                        "(default: a timestamped file; a file that holds a match already is refused)")
    parser.add_argument("--resume", metavar="FILE", help="continue the match recorded in FILE, with the settings "
                        "recorded there: no other argument is needed (see below)")
    parser.add_argument("--shard", metavar="K/N", help="play only the K-th of N slices of the match's openings "
                        "(see below); `arbiter.py merge` joins the shards' records")
    parser.add_argument("--sprt", nargs="+", metavar="KEY=VALUE",
                        help="elo0=0 elo1=5 alpha=0.05 beta=0.05: stop when the test decides")
    parser.add_argument("--startup-timeout", type=seconds, metavar="S", help="ugi -> ugiok (default 10)")
    parser.add_argument("--ready-timeout", type=seconds, metavar="S", help="isready / query answers (default 10)")
    parser.add_argument("--stall-timeout", type=seconds, metavar="S",
                        help="bestmove under --depth or --nodes (default 60)")
    return parser


def compliance_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="arbiter.py compliance", description="Protocol self-test of one engine.")
    common_arguments(parser)
    parser.add_argument("--timeout", type=seconds, default=5.0, metavar="S", help="longest wait for any answer")
    parser.set_defaults(engine=[], timemargin=MATCH_DEFAULTS["timemargin"])
    return parser


def report_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="arbiter.py report", description="A match's page: one self-contained HTML file "
                            "with the summary, the running score and every game on a board that steps through it.")
    parser.add_argument("records", metavar="RECORDS", help="the match's records (JSON lines)")
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML file to write")
    parser.add_argument("--engine", metavar="CMD", help="the Podium that replays the games (default: $PODIUM_BIN, "
                        "else this checkout's target/release/podium)")
    parser.add_argument("--sprt", nargs="+", metavar="KEY=VALUE",
                        help="the SPRT shown: elo0=0 elo1=5 alpha=0.05 beta=0.05 (default: the match's own, if it "
                             "had one; else none)")
    parser.add_argument("--title", help="the page's title")
    return parser


def merge_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="arbiter.py merge", description="Join the records of a match's shards (--shard K/N, "
                            "played apart) and print the match's report as one run would have: the files must be "
                            "shards of one match, with no game twice; shards or games missing are named, and the "
                            "exit status is then 1.")
    parser.add_argument("files", nargs="+", metavar="FILE", help="the shards' records")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the joined records to FILE: one file of the "
                        "whole match, for `arbiter.py report` and --resume")
    parser.add_argument("--sprt", nargs="+", metavar="KEY=VALUE",
                        help="elo0=0 elo1=5 alpha=0.05 beta=0.05: the SPRT's state over all the shards' games")
    return parser


def whole_number(minimum: int):
    """An argument that is a whole number, at least minimum."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < minimum:
            raise argparse.ArgumentTypeError(f"expected a whole number of at least {minimum}, got {text!r}")
        return value
    return parse


OPENINGS_EPILOG = """\
Each candidate is the start position (at --rotation) after --plies moves drawn uniformly among the
legal moves, as a match draws its --random-plies: walk k follows from the seed and k alone, and a
walk that ends the game is drawn again. A position an earlier walk reached is skipped; the others
are scored by `ENGINE analyse --positions - --depth D --json`, so the engine must be a Podium (it
also referees the walks). Each position is searched with a cleared hash: one seed and one engine
give one file, whatever --concurrency. A position is kept when its score is in centipawns, within
--max-score of 0 (from the side to move's view; a mate or a proof never is), until --count are kept.
When --max-candidates walks do not give them, the positions found are written and the exit status
is 1. A summary goes to stderr: candidates, kept, duplicates, mates, and the scores' mean and spread.

The file starts with '#' lines saying how it was made (the arguments that make it again, the engine,
the seed), which --openings skips, then one position line per line, in the order they were found:

    arbiter.py openings --plies 4 --depth 7 --max-score 50 --count 200 --seed 1 -o book.txt
    arbiter.py --engine ... --engine ... --openings book.txt --games 400 --tc 1+0.01

A match plays line g (from 0) in games 2g and 2g+1, colours swapped, and uses the lines again in
turn when it has more games.

POLD.R (--game poldr) with two players only: with three, a score is the mover's against both others
and no score says that the seats stand even.
"""


def openings_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="arbiter.py openings", epilog=OPENINGS_EPILOG,
                            formatter_class=argparse.RawDescriptionHelpFormatter,
                            description="Write an openings file of balanced positions: random walks of a few plies "
                            "from\nthe start whose score at a fixed depth is near even.")
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="the openings file to write")
    parser.add_argument("--engine", metavar="CMD", help="the Podium that referees the walks and scores them with "
                        "`analyse` (default: $PODIUM_BIN, else this checkout's target/release/podium)")
    parser.add_argument("--game", choices=GAMES, default="pods", help="the game (default pods)")
    parser.add_argument("--variant", choices=VARIANTS, help="Pods: standard (default) or advanced")
    parser.add_argument("--rotation", choices=["0", "90", "180", "270", "random"],
                        help="Pods: the start position's board rotation (default 0)")
    parser.add_argument("--size", type=int, metavar="N", help="POLD.R: board size, 4 to 9 (default 5)")
    parser.add_argument("--bricks", type=int, metavar="N", help="POLD.R: bricks per player, 1 to 40 (default 16)")
    parser.add_argument("--players", type=int, metavar="N", help="POLD.R: players, 2 only (see below)")
    parser.add_argument("--plies", type=whole_number(1), default=4, metavar="N",
                        help="random legal moves from the start (default 4)")
    parser.add_argument("--depth", type=whole_number(1), default=7, metavar="D", help="search depth of the scores "
                        "(default 7)")
    parser.add_argument("--max-score", type=whole_number(0), default=50, metavar="CP",
                        help="keep positions scored within CP centipawns of 0 (default 50)")
    parser.add_argument("--count", type=whole_number(1), default=100, metavar="K",
                        help="positions to write (default 100)")
    parser.add_argument("--max-candidates", type=whole_number(1), metavar="N",
                        help="give up after this many walks (default 50 per position asked for)")
    parser.add_argument("--seed", type=int, help="seed of the walks (default: random; the file records it)")
    parser.add_argument("--concurrency", type=whole_number(1), default=1, metavar="N",
                        help="`analyse` processes at once (default 1; the file does not depend on it)")
    parser.add_argument("--stall-timeout", type=seconds, default=MATCH_DEFAULTS["stall_timeout"], metavar="S",
                        help="longest wait for one position's score (default 60)")
    parser.set_defaults(max_plies=None)  # rules_from's Pods-only settings
    return parser


def export_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="arbiter.py export", description="Write the games of match records as "
                            "`podium tune --games` reads them: one line per game, `<result> <start> moves <move> "
                            "...`, the result from White's view in Pods (1-0, 0-1, 1/2-1/2), the winning seat in "
                            "POLD.R (p1win, p2win, p3win), the start the position before the opening's random "
                            "plies, which lead the moves. Games ended by a fault (illegal move, crash, stall, time "
                            "forfeit, protocol error) say nothing of the position and are left out; draws "
                            "adjudicated at --max-plies are kept. The games written are of one kind: one Pods "
                            "variant or one POLD.R player count. The summary goes to stderr.")
    parser.add_argument("records", nargs="+", metavar="RECORDS", help="match records (JSON lines)")
    parser.add_argument("-o", "--output", metavar="FILE", help="the file to write (default: stdout)")
    parser.add_argument("--variant", choices=VARIANTS, help="only the Pods games of this variant (needed when the "
                        "records hold both: podium tune fits one)")
    parser.add_argument("--players", type=int, choices=(2, 3), help="only the POLD.R games of this many players "
                        "(needed when the records hold both: podium tune fits one count)")
    parser.add_argument("--unique", action="store_true", help="drop a game that is the same as one before it: "
                        "same start, same moves")
    parser.add_argument("--engine", metavar="CMD", help="the Podium that plays each game through first, so that one "
                        "it cannot play is left out with a warning (default: $PODIUM_BIN, else this checkout's "
                        "target/release/podium)")
    return parser


def header_settings(header: dict, records_path: str) -> MatchSettings:
    """The settings of the match a header describes (merge reads them from the shards' records)."""
    args = match_parser().parse_args([])
    fill_from_header(args, header)
    return build_settings(args, records_path, header["openings"])


def open_records(settings: MatchSettings) -> RecordFile:
    """The records file, its first line the match's settings when it is new."""
    try:
        return RecordFile(settings.records_path, settings.header())
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
            raise UsageError(f"engine {spec.name} does not start: {fault.what}") from None
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
    planned = count_of(match.planned, "game")
    if settings.shard:
        planned += f" of {settings.games}, shard {settings.shard[0]}/{settings.shard[1]}"
    print(f"Match {' vs '.join(match.names)}: {planned} ({recorded} already recorded), "
          f"{settings.rules.describe()}, {settings.describe_controls()}, seed {settings.seed}, "
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
    """The page of a match's records (report.py): podium/pictures.py draws what podium/replay.py gets
    from a Podium. A records file that cannot be used is a usage error naming its file, line and game."""
    args = report_parser().parse_args(argv)
    sprt = parse_sprt(args.sprt)
    try:
        page, games = report_page(args.records, split_command(args.engine, "--engine ") if args.engine else None,
                                  sprt, args.title)
        with open(args.output, "w", encoding="utf-8") as output:
            output.write(page)
    except UsageError:
        raise
    except (PodiumError, OSError) as error:
        print(f"arbiter: error: {error}", file=sys.stderr)
        return 1
    print(f"arbiter: {args.output}: {count_of(games, 'game')}")
    return 0


def run_merge(argv: list[str]) -> int:
    """The shards' records joined (merge.py), reported by the match's own report (match.py)."""
    args = merge_parser().parse_args(argv)
    joined = join_shards(args.files)
    settings = header_settings(joined.header, args.output or ", ".join(args.files))
    if args.sprt is not None:
        settings.sprt = parse_sprt(args.sprt)
    tally = Tally(settings.engines[0].name)
    for record in joined.records:
        tally.add(record)
    if args.output:
        check_writable(args.output, "--output")
        if os.path.exists(args.output) and os.path.getsize(args.output) > 0:
            raise UsageError(f"--output {args.output} holds records already: choose another file")
        records = open_records(settings)
        try:
            for record in joined.records:
                records.write(record)
        finally:
            records.close()
    print(match_report(settings, tally), flush=True)
    if joined.missing:
        print(f"arbiter: merge: not the whole match yet: missing {'; '.join(joined.missing)}", file=sys.stderr)
        return 1
    return 0


def run_openings(argv: list[str]) -> int:
    """A book of balanced openings (balanced.py), written with how it was made."""
    args = openings_parser().parse_args(argv)
    rules = rules_from(args)
    if rules.players != 2:
        raise UsageError(f"--players {rules.players}: balanced openings need two players; with three a score is "
                         f"the mover's against both others, and none says that the seats stand even")
    max_candidates = 50 * args.count if args.max_candidates is None else args.max_candidates
    if max_candidates < args.count:
        raise UsageError(f"--max-candidates {max_candidates} is fewer than --count {args.count}")
    check_writable(args.output, "--output")
    settings = BookSettings(
        engine_argv=split_command(args.engine, "--engine ") if args.engine else default_engine_command(),
        rules=rules, rotation=None if rules.poldr else args.rotation or "0", plies=args.plies, depth=args.depth,
        max_cp=args.max_score, count=args.count, max_candidates=max_candidates,
        seed=random.randrange(2**32) if args.seed is None else args.seed, concurrency=args.concurrency,
        timeouts=Timeouts(stall=args.stall_timeout))
    book = make_book(settings)
    try:
        with open(args.output, "w", encoding="utf-8") as output:
            output.writelines(line + "\n" for line in [*book.header(), *(fen for fen, _ in book.kept)])
    except OSError as error:
        raise UsageError(f"--output {args.output}: {error.strerror}") from None
    for line in book.summary():
        print(f"arbiter: openings: {line}", file=sys.stderr)
    if not book.complete:
        print(f"arbiter: openings: only {len(book.kept)} of {settings.count} positions within {settings.max_cp} cp "
              f"after {book.tried} candidates (--max-candidates {max_candidates}): wrote them to {args.output}",
              file=sys.stderr)
        return 1
    print(f"arbiter: openings: wrote {count_of(len(book.kept), 'position')} to {args.output}", file=sys.stderr)
    return 0


def run_export(argv: list[str]) -> int:
    """Match records as the games `podium tune` fits its weights to (export.py)."""
    args = export_parser().parse_args(argv)
    if args.output:
        check_writable(args.output, "--output")
    engine = split_command(args.engine, "--engine ") if args.engine else default_engine_command()
    export = export_games(args.records, args.variant, args.unique, engine, args.players)
    for warning in export.warnings:
        print(f"arbiter: export: warning: {warning}", file=sys.stderr)
    text = "".join(line + "\n" for line in export.lines)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as output:
                output.write(text)
        except OSError as error:
            raise UsageError(f"--output {args.output}: {error.strerror}") from None
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    kind = next(iter(export.variants))
    target = args.output or "-"
    print(f"arbiter: export: {export.summary()}; fit them with: {tune_command(kind, target)}", file=sys.stderr)
    return 0


def command() -> None:
    """The podium-arbiter command that `pip install ./scripts` installs: scripts/arbiter.py."""
    sys.exit(main(sys.argv[1:]))


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
        if argv[:1] == ["merge"]:
            return run_merge(argv[1:])
        if argv[:1] == ["openings"]:
            return run_openings(argv[1:])
        if argv[:1] == ["export"]:
            return run_export(argv[1:])
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
