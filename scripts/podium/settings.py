"""The settings of a match, from the arbiter's arguments or from the settings recorded in a
resumed records file (header.py): every argument checked, every bad one a UsageError of one line."""

from __future__ import annotations

import argparse
import datetime
import os
import random
import shlex
import sys

from .clock import DEEPEST_PODIUM, TimeControl, parse_limit
from .engines import EngineSpec
from .errors import UsageError
from .game import game_specs, group_count
from .header import IDENTITY, MOST_CONCURRENCY, MOST_PLIES, describe, identity_differences
from .match_settings import MatchSettings
from .notation import poldr_shape
from .process import LINE_BREAK_RE, Transcript
from .protocol import Timeouts
from .records import RecordsFile, open_records_file, resumed_records, text_lines
from .rules import MAX_GAMES, GameRules
from .stats import Sprt, count_of


NUMBER_WORDS = {2: "two", 3: "three"}
# The arguments that set up the game played: only one game's make sense together.
GAME_SETTINGS = ("variant", "rotation", "max_plies", "players", "size", "bricks")
# The match's arguments that have a default; argparse leaves them None, so that a resumed match can
# tell the arguments given from those its records file holds.


MATCH_DEFAULTS = {"engine": [], "game": "pods", "games": 100, "concurrency": 1, "timemargin": 100, "random_plies": 0,
                  "startup_timeout": 10.0, "ready_timeout": 10.0, "stall_timeout": 60.0}


LIMIT_KEYS = ("tc", "movetime", "depth", "nodes")


def parse_engine(tokens: list[str], index: int) -> EngineSpec:
    """`name=new cmd="./podium --flag" option.Hash=32 dir=/tmp tc=2+0.02` -> EngineSpec. An engine's
    own tc=, movetime=, depth= or nodes= (at most one) stands for the match's for it: time odds."""
    fields: dict[str, str] = {}
    options: dict[str, str] = {}
    for token in tokens:
        key, equals, value = token.partition("=")
        if not equals:
            raise UsageError(f"--engine: expected key=value, got {token!r}")
        if LINE_BREAK_RE.search(token):
            raise UsageError(f"--engine {key}=: a line break or control character would go into the protocol: "
                             f"{token[:60]!r}")
        if key.startswith("option."):
            options[key[len("option."):]] = value
        elif key in ("name", "cmd", "dir", *LIMIT_KEYS):
            fields[key] = value
        else:
            raise UsageError(f"--engine: unknown key {key!r} (use name=, cmd=, dir=, option.NAME=, and tc=, "
                             f"movetime=, depth= or nodes= for a time control of its own)")
    if not fields.get("cmd"):
        raise UsageError("--engine needs cmd=COMMAND")
    argv = split_command(fields["cmd"], "--engine cmd=")
    if not argv:
        raise UsageError("--engine: empty cmd=")
    name = fields.get("name") or f"{os.path.basename(argv[0])}#{index + 1}"
    if limits := [key for key in LIMIT_KEYS if key in fields]:
        if len(limits) > 1:
            raise UsageError(f"--engine name={name}: one time control per engine, not {', '.join(limits)}")
        control = parse_limit(limits[0], fields[limits[0]], f"--engine name={name} {limits[0]}=")
        warn_depth(control, f"engine {name}")
    else:
        control = None
    return EngineSpec(name, argv, options, fields.get("dir"), control)


def warn_depth(control: TimeControl | None, who: str) -> None:
    if control is not None and control.kind == "depth" and control.value > DEEPEST_PODIUM:
        print(f"arbiter: warning: {who}: depth {control.value}: Podium searches at most depth {DEEPEST_PODIUM}, "
              f"and would play as at {DEEPEST_PODIUM}", file=sys.stderr)


def split_command(text: str, what: str) -> list[str]:
    """A command line into its words, as a shell would split it."""
    try:
        return shlex.split(text)
    except ValueError as error:  # an unclosed quote, a lone backslash at the end
        raise UsageError(f"{what}{text}: cannot split it into words ({str(error).lower()})") from None


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


def time_control_from(args: argparse.Namespace, engines: list[EngineSpec]) -> TimeControl | None:
    """The match's time control (--tc, --movetime, --depth, --nodes), each within the range the
    protocol and the arbiter's waits allow; None when every engine has one of its own."""
    for kind in LIMIT_KEYS:
        value = getattr(args, kind)
        if value is not None:
            control = parse_limit(kind, str(value), f"--{kind}")
            warn_depth(control, "--depth")
            return control
    if all(engine.time_control is not None for engine in engines):
        return None
    raise UsageError("one of --tc, --movetime, --depth, --nodes is required (or tc=, movetime=, depth= or nodes= "
                     "in every --engine)")


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
    return group_count(games, rules) * len(rules.seatings)


def parse_shard(text: str | None) -> tuple[int, int] | None:
    """'2/4' -> (2, 4)."""
    if text is None:
        return None
    number, slash, count = text.partition("/")
    try:
        shard = int(number), int(count)
    except ValueError:
        shard = None
    if not slash or shard is None or not 1 <= shard[0] <= shard[1]:
        raise UsageError(f"--shard {text!r}: expected K/N with 1 <= K <= N, e.g. 2/4")
    return None if shard == (1, 1) else shard  # the one slice of one is the whole match


def settings_from(args: argparse.Namespace) -> tuple[MatchSettings, list[dict]]:
    """The match's settings and, when it is resumed, its games recorded so far. A resumed file's own
    settings (its first line) stand for every argument not given; one given that contradicts them
    is a usage error."""
    resumed = read_resumed(args.resume) if args.resume else RecordsFile("", None)
    header = resumed.header
    if header is not None:
        fill_from_header(args, header)
    if args.seed is None:  # a records file without settings keeps its seed in the records
        args.seed = next((record["seed"] for record in resumed.records if "seed" in record), random.randrange(2**32))
    records_path = args.resume or args.records or datetime.datetime.now().strftime("arbiter-%Y%m%d-%H%M%S.jsonl")
    check_writable(records_path, "--resume" if args.resume else "--records")
    if not args.resume and os.path.exists(records_path) and os.path.getsize(records_path) > 0:
        raise UsageError(f"--records {records_path} holds a match already: continue it with --resume "
                         f"{records_path}, or record this one in another file")
    settings = build_settings(args, records_path, header["openings"] if header and not args.openings else None)
    if header is not None:
        check_same_match(header, settings, args.resume)
    recorded = []
    if args.resume:
        numbers = {spec.number for spec in game_specs(settings.games, settings.rules, settings.shard)}
        recorded = resumed_records(resumed, [engine.name for engine in settings.engines], numbers, settings.rules,
                                   settings.games)
    return settings, recorded


def build_settings(args: argparse.Namespace, records_path: str, opening_lines: list[str] | None = None
                   ) -> MatchSettings:
    """A match's settings from its arguments (or from a header's, header_arguments); opening_lines
    stand for --openings when it is not given."""
    for dest, default in MATCH_DEFAULTS.items():
        if getattr(args, dest) is None:
            setattr(args, dest, default)
    rules = rules_from(args)
    engines = engines_from(args, rules)
    max_plies = 400 if args.max_plies is None else args.max_plies
    if args.games < 1 or args.concurrency < 1 or args.random_plies < 0 or max_plies < 0:
        raise UsageError("--games and --concurrency must be positive, --random-plies and --max-plies not negative")
    if args.games > MAX_GAMES:
        raise UsageError(f"--games {args.games}: a match has at most {MAX_GAMES} games")
    if args.concurrency > MOST_CONCURRENCY or max(args.random_plies, max_plies) > MOST_PLIES:
        raise UsageError(f"--concurrency may be at most {MOST_CONCURRENCY}, --random-plies and --max-plies at most "
                         f"{MOST_PLIES}")
    if args.sprt is not None and len(rules.seat_keys) != 2:
        raise UsageError("--sprt: the SPRT compares two engines; it is not available with three players")
    games = whole_groups(args.games, rules)
    if games != args.games:
        print(f"arbiter: --games {args.games} rounded up to {games}, whole groups of "
              f"{len(rules.seatings)} seatings", file=sys.stderr)
    shard = parse_shard(args.shard)
    if shard is not None:
        if shard[1] > group_count(games, rules):
            raise UsageError(f"--shard {args.shard}: the match has {count_of(group_count(games, rules), 'opening')} "
                             f"(groups of games that share one), so at most that many shards")
        if args.sprt is not None:
            raise UsageError("--sprt: a shard cannot stop the whole match; give --sprt to `arbiter.py merge` instead")
    return MatchSettings(
        engines=engines,
        referee_argv=split_command(args.referee, "--referee ") if args.referee else engines[0].argv,
        variant=None if rules.poldr else rules.variant,
        games=games,
        concurrency=args.concurrency,
        time_control=time_control_from(args, engines),
        margin_ms=args.timemargin,
        max_plies=0 if rules.poldr else max_plies,
        rotation=None if rules.poldr else args.rotation or "0",
        random_plies=args.random_plies,
        seed=args.seed,
        opening_lines=read_opening_lines(args.openings, rules) if args.openings else opening_lines,
        records_path=records_path,
        sprt=parse_sprt(args.sprt),
        timeouts=Timeouts(args.startup_timeout, args.ready_timeout, args.stall_timeout),
        transcript=open_transcript(args.log),
        rules=rules,
        shard=shard,
    )


def read_resumed(path: str) -> RecordsFile:
    if not os.path.exists(path):
        raise UsageError(f"--resume {path}: no such file")
    return open_records_file(path, f"--resume {path}")


def header_arguments(header: dict) -> dict[str, object]:
    """The arguments (as argparse gives them) that make the match a header describes."""
    def engine_tokens(engine: dict) -> list[str]:
        own = engine.get("time_control")
        return [f"name={engine['name']}", f"cmd={shlex.join(engine['cmd'])}",
                *([f"dir={engine['dir']}"] if engine["dir"] is not None else []),
                *(f"option.{name}={value}" for name, value in engine["options"].items()),
                *([TimeControl(**own).token()] if own else [])]

    control, timeouts, shard, sprt = header["time_control"], header["timeouts"], header["shard"], header["sprt"]
    arguments = {
        "engine": [engine_tokens(engine) for engine in header["engines"]],
        "referee": shlex.join(header["referee"]),
        "game": header["game"],
        "games": header["games"],
        "concurrency": header["concurrency"],
        "timemargin": header["timemargin_ms"],
        "random_plies": header["random_plies"],
        "seed": header["seed"],
        "shard": None if shard is None else f"{shard[0]}/{shard[1]}",
        "sprt": None if sprt is None else [f"{key}={value!r}" for key, value in sprt.items()],
        "startup_timeout": timeouts["startup"],
        "ready_timeout": timeouts["ready"],
        "stall_timeout": timeouts["stall"],
    }
    if header["game"] == "poldr":
        arguments.update(players=header["players"], size=header["size"], bricks=header["bricks"])
    else:
        arguments.update(variant=header["variant"], rotation=header["rotation"], max_plies=header["max_plies"])
    if control is not None:
        kind, value = TimeControl(**control).token().split("=", 1)
        arguments[kind] = value if kind == "tc" else int(value)
    return arguments


def fill_from_header(args: argparse.Namespace, header: dict) -> None:
    """The header's arguments where none was given (the time control as a whole; the settings of
    the game only when the game is the header's)."""
    arguments = header_arguments(header)
    limits = ("tc", "movetime", "depth", "nodes")
    limit_given = any(getattr(args, limit) is not None for limit in limits)
    other_game = args.game is not None and args.game != header["game"]
    for dest, value in arguments.items():
        if dest in limits and limit_given or dest in GAME_SETTINGS and other_game:
            continue
        if getattr(args, dest) in (None, []):
            setattr(args, dest, value)


def check_same_match(header: dict, settings: MatchSettings, path: str) -> None:
    """Arguments that contradict the settings recorded in a resumed file are a usage error."""
    given = settings.header()
    if differences := identity_differences(header, given):
        if "game" in differences:  # another game has other settings: they follow from it
            differences = [key for key in differences if key not in GAME_SETTINGS]
        said = "; ".join(f"{IDENTITY[key]} gives {describe(key, given[key])}, but the match recorded there has "
                         f"{describe(key, header[key])}" for key in differences)
        raise UsageError(f"--resume {path}: {said}; leave {'it' if len(differences) == 1 else 'them'} out to go on "
                         f"with the recorded settings")


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
