"""The settings of a match, the first line of its records file: {"type": "match", ...}. Written when
the match starts, so that one file is the whole match; read back by --resume, which then needs no
other argument, and by merge, which checks that shards are slices of one match.

What makes the match (IDENTITY: the engines, the game, the games and their openings, the limits)
cannot change when it is resumed; how it is run (concurrency, timeouts, the SPRT, the log) can."""

from __future__ import annotations

import datetime
import json
from typing import TYPE_CHECKING, Callable

from .clock import TimeControl
from .rules import GAMES, GameRules

if TYPE_CHECKING:
    from .match import MatchSettings

HEADER_TYPE = "match"
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


def match_header(settings: MatchSettings) -> dict:
    rules, control, sprt, timeouts = settings.rules, settings.time_control, settings.sprt, settings.timeouts
    return {
        "type": HEADER_TYPE,
        "engines": [{"name": spec.name, "cmd": spec.argv, "options": spec.options, "dir": spec.cwd}
                    for spec in settings.engines],
        "referee": settings.referee_argv,
        "game": rules.game,
        "variant": settings.variant,
        "players": rules.players if rules.poldr else None,
        "size": rules.size if rules.poldr else None,
        "bricks": rules.bricks if rules.poldr else None,
        "games": settings.games,
        "time_control": {"kind": control.kind, "base_ms": control.base_ms, "inc_ms": control.inc_ms,
                         "value": control.value},
        "timemargin_ms": settings.margin_ms,
        "max_plies": settings.max_plies,
        "rotation": settings.rotation,
        "random_plies": settings.random_plies,
        "seed": settings.seed,
        "openings": settings.opening_lines,
        "shard": list(settings.shard) if settings.shard else None,
        "sprt": None if sprt is None else {"elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha,
                                           "beta": sprt.beta},
        "concurrency": settings.concurrency,
        "timeouts": {"startup": timeouts.startup, "ready": timeouts.ready, "stall": timeouts.stall},
        "started": datetime.datetime.now().isoformat(timespec="seconds"),
    }


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
                         + "".join(f", {name}={option}" for name, option in engine["options"].items()) + ")"
                         for engine in value)
    text = " ".join(value) if key == "referee" else value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= 100 else text[:97] + "..."


def _whole(minimum: int) -> Callable[[object], bool]:
    return lambda value: type(value) is int and value >= minimum


def _texts(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _optional(test: Callable[[object], bool]) -> Callable[[object], bool]:
    return lambda value: value is None or test(value)


def _numbers(*keys: str) -> Callable[[object], bool]:
    return lambda value: (isinstance(value, dict) and set(value) == set(keys)
                          and all(type(value[key]) in (int, float) for key in keys))


def _engine(value: object) -> bool:
    return (isinstance(value, dict) and isinstance(value.get("name"), str) and _texts(value.get("cmd"))
            and bool(value["cmd"]) and isinstance(value.get("options"), dict)
            and all(isinstance(option, str) for option in value["options"].values())
            and (value.get("dir") is None or isinstance(value["dir"], str)))


def _time_control(value: object) -> bool:
    return (isinstance(value, dict) and value.get("kind") in ("tc", "movetime", "depth", "nodes")
            and all(_whole(0)(value.get(key)) for key in ("base_ms", "inc_ms", "value")))


# (test, what it must be) for each field of a header that is read back.
HEADER_FIELDS: dict[str, tuple[Callable[[object], bool], str]] = {
    "engines": (lambda value: isinstance(value, list) and value and all(map(_engine, value)),
                "a list of engines (name, cmd, options, dir)"),
    "referee": (lambda value: _texts(value) and bool(value), "a command"),
    "game": (lambda value: value in GAMES, f"one of {', '.join(GAMES)}"),
    "variant": (_optional(lambda value: isinstance(value, str)), "a variant or null"),
    "players": (_optional(_whole(2)), "a number of players or null"),
    "size": (_optional(_whole(1)), "a board size or null"),
    "bricks": (_optional(_whole(1)), "a number of bricks or null"),
    "games": (_whole(1), "a positive number of games"),
    "time_control": (_time_control, "a time control (kind, base_ms, inc_ms, value)"),
    "timemargin_ms": (_whole(0), "whole milliseconds"),
    "max_plies": (_whole(0), "a number of plies"),
    "rotation": (_optional(lambda value: isinstance(value, str)), "a rotation or null"),
    "random_plies": (_whole(0), "a number of plies"),
    "seed": (lambda value: type(value) is int, "a whole number"),
    "openings": (_optional(lambda value: _texts(value) and bool(value)), "a list of position lines or null"),
    "shard": (_optional(lambda value: isinstance(value, list) and len(value) == 2 and all(map(_whole(1), value))
                        and value[0] <= value[1]), "[K, N] or null"),
    "sprt": (_optional(_numbers("elo0", "elo1", "alpha", "beta")), "elo0, elo1, alpha, beta or null"),
    "concurrency": (_whole(1), "a positive number"),
    "timeouts": (_numbers("startup", "ready", "stall"), "startup, ready and stall seconds"),
}


def header_problem(header: dict) -> str | None:
    """What makes a header unreadable (a field missing, or of the wrong type), or None."""
    for key, (valid, kind) in HEADER_FIELDS.items():
        if key not in header:
            return f"it has no {key!r}"
        if not valid(header[key]):
            return f"its {key!r} is {json.dumps(header[key])[:60]}, not {kind}"
    return None


def header_rules(header: dict) -> GameRules:
    """The game a header's match plays."""
    if header["game"] == "poldr":
        return GameRules("poldr", players=header["players"], size=header["size"], bricks=header["bricks"])
    return GameRules("pods", variant=header["variant"] or "standard")
