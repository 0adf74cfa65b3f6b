"""The game a match plays, and what the arbiter must know of it: seats, notation, the options that
select it, how seats are assigned to engines."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from .notation import (BLACK, MOVE_RE, POLDR_MOVE_RE, POLDR_POSITION_RE, POSITION_RE, WHITE, seat_to_move,
                       side_to_move, win_for)

GAMES = ("pods", "poldr")
VARIANTS = ("standard", "advanced")
ROTATIONS = (0, 90, 180, 270)
MAX_GAMES = 1_000_000  # the most games a match may have (--games), and so the largest game number


@dataclass(frozen=True)
class GameRules:
    """Which game the match plays, and what the arbiter must know of its notation.

    Pods: two seats, white (p1) and black (p2); results 1-0, 0-1, 1/2-1/2.
    POLD.R: seats p1 (Blue), p2 (Yellow) and with three players p3 (Red); results p1win, p2win,
    p3win, never a draw."""
    game: str = "pods"
    variant: str = "standard"  # Pods
    players: int = 2  # POLD.R
    size: int = 5  # POLD.R
    bricks: int = 16  # POLD.R

    @property
    def poldr(self) -> bool:
        return self.game == "poldr"

    @property
    def seat_keys(self) -> tuple[str, ...]:
        """The seats in turn order, as keys of clocks, times and records."""
        if self.poldr:
            return tuple(f"p{seat + 1}" for seat in range(self.players))
        return WHITE, BLACK

    @property
    def move_re(self) -> re.Pattern:
        return POLDR_MOVE_RE if self.poldr else MOVE_RE

    @property
    def position_re(self) -> re.Pattern:
        return POLDR_POSITION_RE if self.poldr else POSITION_RE

    def engine_options(self) -> list[tuple[str, str]]:
        """The options that select the game, set on every engine and on the referee."""
        if self.poldr:
            return [("Game", "poldr"), ("Players", str(self.players)), ("Size", str(self.size)),
                    ("Bricks", str(self.bricks))]
        return [("Variant", self.variant)]

    def side_to_move(self, fen: str) -> str:
        """The seat key to move: white or black in Pods, p1, p2 or p3 in POLD.R."""
        return seat_to_move(fen) if self.poldr else side_to_move(fen)

    def win_for(self, seat: str) -> str:
        return f"{seat}win" if self.poldr else win_for(seat)

    @property
    def group_key(self) -> str:
        """The record field numbering the games that share an opening: "pair" with two seats, else "group"."""
        return "pair" if len(self.seat_keys) == 2 else "group"

    @property
    def seatings(self) -> list[tuple[int, ...]]:
        """Every assignment of the engines to the seats (engine index per seat), the first engine
        in the first seat first: each opening is played once per seating, so no engine profits from
        its seat (two players: a pair of games with colours swapped; three players: six games)."""
        return list(itertools.permutations(range(len(self.seat_keys))))

    def describe(self) -> str:
        if self.poldr:
            return f"POLD.R {self.players} players, size {self.size}, bricks {self.bricks}"
        return self.variant


def as_rules(game: GameRules | str) -> GameRules:
    """A Pods variant name stands for Pods with that variant."""
    return game if isinstance(game, GameRules) else GameRules("pods", variant=game)
