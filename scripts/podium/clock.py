"""Time controls and the game clock: what each side may still use, as the arbiter measures it."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import UsageError
from .notation import BLACK, WHITE

# The longest time the arbiter takes from its command line: a clock, an increment, a margin or a
# timeout (11.6 days). Longer waits overflow the timeouts of Python's threads and queues.
LONGEST_MS = 1_000_000_000
# The largest depth and node count the protocol reads (protocol.md, `go`: a larger number is an error,
# and the engine then searches as `go depth 1`). Podium searches a depth above 127 as 127.
MAX_DEPTH = (1 << 32) - 1
MAX_NODES = (1 << 64) - 1
DEEPEST_PODIUM = 127
LIMIT_RANGES = {"movetime": (1, LONGEST_MS, "ms"), "depth": (1, MAX_DEPTH, ""), "nodes": (1, MAX_NODES, "")}


@dataclass(frozen=True)
class TimeControl:
    kind: str  # "tc", "movetime", "depth" or "nodes"
    base_ms: int = 0  # tc: starting clock
    inc_ms: int = 0  # tc: increment per move
    value: int = 0  # movetime (ms), depth or nodes

    def describe(self) -> str:
        if self.kind == "tc":
            return f"tc {self.base_ms / 1000:g}+{self.inc_ms / 1000:g}"
        return f"{self.kind} {self.value}"

    def token(self) -> str:
        """As an --engine token gives it: tc=1+0.01, movetime=100, depth=6, nodes=10000."""
        if self.kind == "tc":
            return f"tc={self.base_ms / 1000!r}+{self.inc_ms / 1000!r}"
        return f"{self.kind}={self.value}"


def control_problem(control: TimeControl) -> str | None:
    """What puts a time control beyond what the arbiter can wait for or the protocol can say."""
    if control.kind == "tc":
        if not (1 <= control.base_ms <= LONGEST_MS and 0 <= control.inc_ms <= LONGEST_MS):
            return f"the clock must be 1 ms to {LONGEST_MS // 1000} s and the increment at most {LONGEST_MS // 1000} s"
        return None
    if control.kind not in LIMIT_RANGES:
        return f"{control.kind!r} is no time control (tc, movetime, depth, nodes)"
    low, high, unit = LIMIT_RANGES[control.kind]
    if not low <= control.value <= high:
        return f"{control.kind} must be from {low} to {high}{' ' + unit if unit else ''}, the protocol's range"
    return None


def parse_limit(kind: str, text: str, what: str) -> TimeControl:
    """A time control given as text: tc '1+0.01', movetime, depth or nodes a whole number in range."""
    if kind == "tc":
        return parse_tc(text, what)
    try:
        value = int(text) if len(text) <= 40 else None
    except ValueError:
        value = None
    if value is None:
        raise UsageError(f"{what} {text!r}: expected a whole number")
    control = TimeControl(kind, value=value)
    if problem := control_problem(control):
        raise UsageError(f"{what} {text}: {problem}")
    return control


class GameClock:
    """What each side may still use; the arbiter's own measurement is the only one that counts.

    controls: each seat's time control (the engine in that seat's: time odds), or one for all."""

    def __init__(self, controls: TimeControl | dict[str, TimeControl], margin_ms: int,
                 seats: tuple[str, ...] = (WHITE, BLACK)):
        self.controls = controls if isinstance(controls, dict) else {seat: controls for seat in seats}
        self.margin_ms = margin_ms
        self.seats = seats  # in turn order: p1, p2, ...
        self.remaining = {seat: float(self.controls[seat].base_ms) for seat in seats}

    def go_command(self, mover: str | None = None) -> str:
        """The mover's `go`: its own movetime, depth or nodes; or every seat's clock that has one."""
        control = self.controls[mover or self.seats[0]]
        if control.kind == "tc":
            clocks = [(number, seat) for number, seat in enumerate(self.seats, 1) if self.controls[seat].kind == "tc"]
            times = " ".join(f"p{number}time {max(0, int(self.remaining[seat]))}" for number, seat in clocks)
            incs = " ".join(f"p{number}inc {self.controls[seat].inc_ms}" for number, seat in clocks)
            return f"go {times} {incs}"
        return f"go {control.kind} {control.value}"

    def limit_seconds(self, colour: str) -> float | None:
        """Past this the move is a time forfeit; None when only depth or nodes limit the search."""
        control = self.controls[colour]
        if control.kind == "tc":
            return (self.remaining[colour] + self.margin_ms) / 1000
        if control.kind == "movetime":
            return (control.value + self.margin_ms) / 1000
        return None

    def charge(self, colour: str, elapsed_ms: float) -> bool:
        """Takes a move's time off the mover's clock; False when that is a time forfeit."""
        control = self.controls[colour]
        if control.kind == "movetime":
            return elapsed_ms <= control.value + self.margin_ms
        if control.kind != "tc":
            return True
        left = self.remaining[colour] - elapsed_ms
        if left < -self.margin_ms:
            return False
        self.remaining[colour] = max(left, 0.0) + control.inc_ms
        return True


def parse_tc(text: str, what: str = "--tc") -> TimeControl:
    """'1+0.01' -> 1 s on the clock and 10 ms more after each move; '5' -> 5 s, no increment."""
    base, _, inc = text.partition("+")
    try:
        base_s, inc_s = float(base), float(inc or 0)
    except ValueError:
        raise UsageError(f"{what} {text!r}: expected seconds[+increment], e.g. 1+0.01") from None
    if not (math.isfinite(base_s) and math.isfinite(inc_s)):
        raise UsageError(f"{what} {text!r}: the clock and the increment must be finite numbers of seconds")
    base_ms, inc_ms = round(base_s * 1000), round(inc_s * 1000)
    if base_ms <= 0 or inc_ms < 0:
        raise UsageError(f"{what} {text!r}: the clock must be positive and the increment not negative")
    if max(base_ms, inc_ms) > LONGEST_MS:
        raise UsageError(f"{what} {text!r}: the clock and the increment may be at most {LONGEST_MS // 1000} s")
    return TimeControl("tc", base_ms=base_ms, inc_ms=inc_ms)
