"""Time controls and the game clock: what each side may still use, as the arbiter measures it."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import UsageError
from .notation import BLACK, WHITE

# The longest time the arbiter takes from its command line: a clock, an increment, a margin or a
# timeout (11.6 days). Longer waits overflow the timeouts of Python's threads and queues.
LONGEST_MS = 1_000_000_000


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


class GameClock:
    """What each side may still use; the arbiter's own measurement is the only one that counts."""

    def __init__(self, control: TimeControl, margin_ms: int, seats: tuple[str, ...] = (WHITE, BLACK)):
        self.control = control
        self.margin_ms = margin_ms
        self.seats = seats  # in turn order: p1, p2, ...
        self.remaining = {seat: float(control.base_ms) for seat in seats}

    def go_command(self) -> str:
        control = self.control
        if control.kind == "tc":
            times = " ".join(f"p{number}time {max(0, int(self.remaining[seat]))}"
                             for number, seat in enumerate(self.seats, 1))
            incs = " ".join(f"p{number}inc {control.inc_ms}" for number in range(1, len(self.seats) + 1))
            return f"go {times} {incs}"
        return f"go {control.kind} {control.value}"

    def limit_seconds(self, colour: str) -> float | None:
        """Past this the move is a time forfeit; None when only depth or nodes limit the search."""
        if self.control.kind == "tc":
            return (self.remaining[colour] + self.margin_ms) / 1000
        if self.control.kind == "movetime":
            return (self.control.value + self.margin_ms) / 1000
        return None

    def charge(self, colour: str, elapsed_ms: float) -> bool:
        """Takes a move's time off the mover's clock; False when that is a time forfeit."""
        if self.control.kind == "movetime":
            return elapsed_ms <= self.control.value + self.margin_ms
        if self.control.kind != "tc":
            return True
        left = self.remaining[colour] - elapsed_ms
        if left < -self.margin_ms:
            return False
        self.remaining[colour] = max(left, 0.0) + self.control.inc_ms
        return True


def parse_tc(text: str) -> TimeControl:
    """'1+0.01' -> 1 s on the clock and 10 ms more after each move; '5' -> 5 s, no increment."""
    base, _, inc = text.partition("+")
    try:
        base_s, inc_s = float(base), float(inc or 0)
    except ValueError:
        raise UsageError(f"--tc {text!r}: expected seconds[+increment], e.g. 1+0.01") from None
    if not (math.isfinite(base_s) and math.isfinite(inc_s)):
        raise UsageError(f"--tc {text!r}: the clock and the increment must be finite numbers of seconds")
    base_ms, inc_ms = round(base_s * 1000), round(inc_s * 1000)
    if base_ms <= 0 or inc_ms < 0:
        raise UsageError(f"--tc {text!r}: the clock must be positive and the increment not negative")
    if max(base_ms, inc_ms) > LONGEST_MS:
        raise UsageError(f"--tc {text!r}: the clock and the increment may be at most {LONGEST_MS // 1000} s")
    return TimeControl("tc", base_ms=base_ms, inc_ms=inc_ms)
