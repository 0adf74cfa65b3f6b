"""The limits of a search (Limit) and the checks every argument of the client passes before anything
is sent: the right type, a number within the protocol's range (protocol.md, `go`), a text that
carries no line break into the protocol. A bad argument raises ArgumentError (a ValueError) or
ArgumentTypeError (also a TypeError)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

from .errors import ArgumentError, ArgumentTypeError
from .process import line_break_in

SEATS = ("p1", "p2", "p3")
# The protocol's ranges of the limits of `go` (protocol.md, `go`: numbers too large for their field
# are errors, and the engine then searches as `go depth 1`).
U32 = (1 << 32) - 1
U64 = (1 << 64) - 1
LIMIT_RANGES = {"depth": (1, U32), "nodes": (1, U64), "movetime": (1, U64), "mate": (1, U32),
                "movestogo": (1, U32)}
CLOCK_RANGE = (0, U64)  # p1time, p1inc, ...


def whole(value: object, what: str, low: int, high: int) -> int:
    """A whole number from low to high (bool is no number here)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ArgumentTypeError(f"{what} must be a whole number, not {_shown(value)}")
    if not low <= value <= high:
        raise ArgumentError(f"{what} must be from {low} to {high}, not {_shown(value)}")
    return value


def seconds(value: object, what: str) -> float:
    """A positive number of seconds; float("inf") is allowed (no limit)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise ArgumentTypeError(f"{what} must be a number of seconds, not {_shown(value)}")
    if math.isnan(value) or value <= 0:
        raise ArgumentError(f"{what} must be a positive number of seconds, not {_shown(value)}")
    return float(value)


def optional_seconds(value: object, what: str) -> float | None:
    return None if value is None else seconds(value, what)


def text(value: object, what: str) -> str:
    """A text that may go into a protocol line: a str without line breaks or control characters."""
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{what} must be a text (str), not {_shown(value)}")
    if (character := line_break_in(value)) is not None:
        raise ArgumentError(f"{what} must not hold a line break or a control character ({character}): it would "
                            f"carry another command into the protocol: {value[:80]!r}")
    return value


def word(value: object, what: str) -> str:
    """One word: a text without spaces, not empty."""
    value = text(value, what)
    if not value or value.split() != [value]:
        raise ArgumentError(f"{what} must be one word, not {_shown(value)}")
    return value


def words(values: object, what: str) -> list[str]:
    """A list (or tuple) of words: moves."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise ArgumentTypeError(f"{what} must be a list of moves as texts, not {_shown(values)}")
    return [word(value, f"{what}[{index}]") for index, value in enumerate(values)]


def mapping(value: object, what: str) -> Mapping:
    if not isinstance(value, Mapping):
        raise ArgumentTypeError(f"{what} must be a mapping (a dict), not {_shown(value)}")
    return value


def seat(value: object, what: str) -> str:
    if value not in SEATS:
        raise ArgumentError(f"{what} must be one of p1, p2, p3, not {_shown(value)}")
    return value


def _shown(value: object) -> str:
    shown = repr(value)
    return shown if len(shown) <= 60 else shown[:57] + "..."


@dataclass(frozen=True)
class Limit:
    """What ends a search; the first limit reached ends it (as in UCI). All in the protocol's units:
    depth in plies, nodes, movetime in milliseconds, mate in the side to move's own moves, times and
    increments in milliseconds per seat ({"p1": 60000, "p2": 60000}: a clock, of which only the side
    to move's counts), movestogo the moves to the next time control. Limit() has none: a search
    that runs until it is stopped (Engine.analysis).

        Limit(depth=8)   Limit(movetime=250)   Limit(times={"p1": 60000, "p2": 60000}, increments=...)

    Every value is checked when the Limit is made: a bad one raises ArgumentError."""
    depth: int | None = None
    nodes: int | None = None
    movetime: int | None = None
    mate: int | None = None
    times: Mapping[str, int] | None = None
    increments: Mapping[str, int] | None = None
    movestogo: int | None = None

    def __post_init__(self):
        for name, (low, high) in LIMIT_RANGES.items():
            if getattr(self, name) is not None:
                whole(getattr(self, name), f"Limit {name}", low, high)
        for name in ("times", "increments"):
            given = getattr(self, name)
            if given is not None:
                for key, milliseconds in mapping(given, f"Limit {name}").items():
                    seat(key, f"a seat of Limit {name}")
                    whole(milliseconds, f"Limit {name}[{key!r}] (milliseconds)", *CLOCK_RANGE)
                object.__setattr__(self, name, dict(given))  # a copy: the Limit stays as made
        if self.increments and not self.times:
            raise ArgumentError("Limit increments need times: a clock is the time left, then what each move adds")
        if self.movestogo is not None and not self.times:
            raise ArgumentError("Limit movestogo needs times")

    @property
    def empty(self) -> bool:
        return all(getattr(self, name) is None for name in (*LIMIT_RANGES, "times"))

    @property
    def bounded_by_time(self) -> bool:
        """movetime or a clock: the search ends by itself within a known time."""
        return self.movetime is not None or bool(self.times)

    def longest_ms(self) -> int | None:
        """The longest time the limits allow (movetime, or the longest clock plus its increment)."""
        candidates = [self.movetime] if self.movetime is not None else []
        for key, milliseconds in (self.times or {}).items():
            candidates.append(milliseconds + (self.increments or {}).get(key, 0))
        return max(candidates) if candidates else None

    def go_command(self) -> str:
        """`go <limits>`, `go infinite` without any."""
        words = [f"{name} {getattr(self, name)}" for name in ("depth", "nodes", "movetime", "mate")
                 if getattr(self, name) is not None]
        words += [f"{key}time {value}" for key, value in sorted((self.times or {}).items())]
        words += [f"{key}inc {value}" for key, value in sorted((self.increments or {}).items())]
        if self.movestogo is not None:
            words.append(f"movestogo {self.movestogo}")
        return " ".join(["go", *(words or ["infinite"])])


def limit_of(limit: object, depth: object = None, nodes: object = None, movetime: object = None,
             times: object = None, increments: object = None, mate: object = None) -> Limit:
    """A Limit, or the same limits given as keywords (not both)."""
    keywords = {"depth": depth, "nodes": nodes, "movetime": movetime, "times": times, "increments": increments,
                "mate": mate}
    given = {name: value for name, value in keywords.items() if value is not None}
    if limit is None:
        return Limit(**given)
    if not isinstance(limit, Limit):
        raise ArgumentTypeError(f"limit must be a Limit, not {_shown(limit)}")
    if given:
        raise ArgumentError(f"give the limits as a Limit or as keywords, not both ({', '.join(given)} with {limit})")
    return limit
