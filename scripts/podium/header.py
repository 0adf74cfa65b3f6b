"""The settings of a match, the first line of its records file: {"type": "match", ...}. Written when
the match starts, so that one file is the whole match; read back by --resume, which then needs no
other argument, and by merge, which checks that shards are slices of one match.

What makes the match (IDENTITY: the engines, the game, the games and their openings, the limits)
cannot change when it is resumed; how it is run (concurrency, timeouts, the SPRT, the log) can."""

from __future__ import annotations

import json
import math
from typing import Callable

from .clock import LONGEST_MS, TimeControl, control_problem
from .notation import POLDR_POSITION_RE, POSITION_RE
from .rules import GAMES, MAX_GAMES, VARIANTS, GameRules

HEADER_TYPE = "match"
# The records' format: 2 since the one schema of both games ("type": "game", "index" from 1, per-engine
# time controls); files without it are of format 1 and are read all the same (records.py).
FORMAT = 2
MOST_CONCURRENCY = 4096
MOST_PLIES = 1_000_000
# The settings that make the match, and the arguments that give each.
IDENTITY = {
    "engines": "--engine",
    "referee": "--referee",
    "game": "--game",
    "variant": "--variant",
    "players": "--players",
    "size": "--size",
    "bricks": "--bricks",
    "games": "--games",
    "time_control": "--tc, --movetime, --depth or --nodes",
    "timemargin_ms": "--timemargin",
    "max_plies": "--max-plies",
    "rotation": "--rotation",
    "random_plies": "--random-plies",
    "seed": "--seed",
    "openings": "--openings",
    "shard": "--shard",
}


def control_json(control: TimeControl | None) -> dict | None:
    if control is None:
        return None
    return {"kind": control.kind, "base_ms": control.base_ms, "inc_ms": control.inc_ms, "value": control.value}


def upgrade_header(header: dict) -> dict:
    """A header (checked by header_problem) as today's arbiter writes it: an older one's engines
    had no time control of their own."""
    engines = [{**engine, "time_control": engine.get("time_control")} for engine in header["engines"]]
    return {**header, "format": FORMAT, "engines": engines}


def identity_differences(stored: dict, other: dict, ignore: tuple[str, ...] = ()) -> list[str]:
    """The IDENTITY keys on which two headers differ."""
    return [key for key in IDENTITY if key not in ignore and stored.get(key) != other.get(key)]


def describe(key: str, value: object) -> str:
    """A header's setting for people: 'tc 1+0.01', 'one (./podium, Hash=8), two (...)', '2/4'."""
    if value is None:
        return "none"
    if key == "time_control":
        return TimeControl(**value).describe()
    if key == "shard":
        return f"{value[0]}/{value[1]}"
    if key == "openings":
        return f"{len(value)} position lines, the first {value[0]!r}"
    if key == "engines":
        return ", ".join(f"{engine['name']} ({' '.join(engine['cmd'])}"
                         + "".join(f", {name}={option}" for name, option in engine["options"].items())
                         + (f", {TimeControl(**engine['time_control']).describe()}" if engine.get("time_control")
                            else "") + ")"
                         for engine in value)
    text = " ".join(value) if key == "referee" else value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= 100 else text[:97] + "..."


def _whole(minimum: int, maximum: float = math.inf) -> Callable[[object], bool]:
    return lambda value: type(value) is int and minimum <= value <= maximum


def _text(value: object) -> bool:
    """A text without line breaks or control characters: what may go into a protocol line."""
    return isinstance(value, str) and not any(ord(character) < 32 or character == "\x7f" for character in value)


def _texts(value: object) -> bool:
    return isinstance(value, list) and all(map(_text, value))


def _optional(test: Callable[[object], bool]) -> Callable[[object], bool]:
    return lambda value: value is None or test(value)


def _numbers(*keys: str, most: float = math.inf) -> Callable[[object], bool]:
    return lambda value: (isinstance(value, dict) and set(value) == set(keys)
                          and all(type(value[key]) in (int, float) and math.isfinite(value[key])
                                  and value[key] <= most for key in keys))


def _time_control(value: object) -> bool:
    if not (isinstance(value, dict) and set(value) == {"kind", "base_ms", "inc_ms", "value"}
            and value["kind"] in ("tc", "movetime", "depth", "nodes")
            and all(_whole(0)(value[key]) for key in ("base_ms", "inc_ms", "value"))):
        return False
    return control_problem(TimeControl(**value)) is None


def _engine(value: object) -> bool:
    return (isinstance(value, dict) and _text(value.get("name")) and value["name"] != ""
            and isinstance(value.get("cmd"), list) and bool(value["cmd"])
            and all(isinstance(word, str) and "\x00" not in word for word in value["cmd"])
            and isinstance(value.get("options"), dict)
            and all(_text(name) and _text(option) for name, option in value["options"].items())
            and (value.get("dir") is None or isinstance(value["dir"], str))
            and _optional(_time_control)(value.get("time_control")))


def _engines(value: object) -> bool:
    return (isinstance(value, list) and 2 <= len(value) <= 3 and all(map(_engine, value))
            and len({engine["name"] for engine in value}) == len(value))


# (test, what it must be) for each field of a header that is read back.
HEADER_FIELDS: dict[str, tuple[Callable[[object], bool], str]] = {
    "engines": (_engines, "a list of two or three engines with different names (name, cmd, options, dir)"),
    "referee": (lambda value: isinstance(value, list) and bool(value)
                and all(isinstance(word, str) and "\x00" not in word for word in value), "a command"),
    "game": (lambda value: value in GAMES, f"one of {', '.join(GAMES)}"),
    "variant": (_optional(lambda value: value in VARIANTS), "a variant or null"),
    "players": (_optional(_whole(2, 3)), "2, 3 or null"),
    "size": (_optional(_whole(4, 9)), "a board size from 4 to 9, or null"),
    "bricks": (_optional(_whole(1, 40)), "a number of bricks from 1 to 40, or null"),
    "games": (_whole(1, MAX_GAMES), f"a number of games from 1 to {MAX_GAMES}"),
    "time_control": (_optional(_time_control), "a time control (kind, base_ms, inc_ms, value) in range, or null"),
    "timemargin_ms": (_whole(0, LONGEST_MS), f"whole milliseconds up to {LONGEST_MS}"),
    "max_plies": (_whole(0, MOST_PLIES), f"a number of plies up to {MOST_PLIES}"),
    "rotation": (_optional(lambda value: value in ("0", "90", "180", "270", "random")), "a rotation or null"),
    "random_plies": (_whole(0, MOST_PLIES), f"a number of plies up to {MOST_PLIES}"),
    "seed": (lambda value: type(value) is int, "a whole number"),
    "openings": (_optional(lambda value: _texts(value) and bool(value)), "a list of position lines or null"),
    "shard": (_optional(lambda value: isinstance(value, list) and len(value) == 2
                        and all(map(_whole(1, MAX_GAMES), value)) and value[0] <= value[1]), "[K, N] or null"),
    "sprt": (_optional(_numbers("elo0", "elo1", "alpha", "beta")), "elo0, elo1, alpha, beta or null"),
    "concurrency": (_whole(1, MOST_CONCURRENCY), f"a number from 1 to {MOST_CONCURRENCY}"),
    "timeouts": (lambda value: _numbers("startup", "ready", "stall", most=LONGEST_MS / 1000)(value)
                 and all(value[key] > 0 for key in value), "startup, ready and stall seconds"),
}


def header_problem(header: dict) -> str | None:
    """What makes a header unreadable (a field missing, of the wrong type, out of range, or fields
    that contradict each other), or None."""
    for key, (valid, kind) in HEADER_FIELDS.items():
        if key not in header:
            return f"it has no {key!r}"
        if not valid(header[key]):
            return f"its {key!r} is {shown(header[key])}, not {kind}"
    rules = header_rules(header) if header["game"] == "pods" or header["players"] else None
    if rules is None or (rules.poldr and None in (header["size"], header["bricks"])):
        return "its game's settings (players, size, bricks) are missing"
    if len(header["engines"]) != len(rules.seat_keys):
        return f"it has {len(header['engines'])} engines for {len(rules.seat_keys)} seats"
    if header["time_control"] is None and any(engine.get("time_control") is None for engine in header["engines"]):
        return "an engine has no time control: neither its own nor the match's"
    groups = -(-header["games"] // len(rules.seatings))
    if header["shard"] is not None and header["shard"][1] > groups:
        return f"its 'shard' is {header['shard']}, but its {header['games']} games make {groups} groups"
    position = POLDR_POSITION_RE if rules.poldr else POSITION_RE
    if header["openings"] and not all(position.fullmatch(line) for line in header["openings"]):
        return f"its 'openings' hold a line that is no {'POLD.R ' if rules.poldr else ''}position line"
    return None


def shown(value: object) -> str:
    """A value of a records file as an error message quotes it: as JSON, cut to 60 characters."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def header_rules(header: dict) -> GameRules:
    """The game a header's match plays."""
    if header["game"] == "poldr":
        return GameRules("poldr", players=header["players"], size=header["size"], bricks=header["bricks"])
    return GameRules("pods", variant=header["variant"] or "standard")
