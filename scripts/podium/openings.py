"""Openings: where each group of games starts, the same for every seating, reproducible from the
seed and the group's number alone."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass

from .engines import Referee
from .errors import RefereeError
from .notation import with_rotation
from .rules import ROTATIONS


@dataclass(frozen=True)
class Opening:
    fen: str  # where the game starts: the position line after the opening moves
    base: str  # the position the opening moves were played from
    moves: tuple[str, ...] = ()


class OpeningBook:
    """The opening of every group of games (one per seating), reproducible from the seed and the
    group's number alone."""

    def __init__(self, start_fen: str, rotation: str | None, random_plies: int, seed: int,
                 lines: list[str] | None = None):
        self.start_fen = start_fen
        self.rotation = rotation
        self.random_plies = random_plies
        self.seed = seed
        self.lines = lines
        self._cache: dict[int, Opening] = {}
        self._lock = threading.Lock()

    def for_group(self, group: int, referee: Referee) -> Opening:
        with self._lock:
            if group not in self._cache:
                rng = random.Random(f"{self.seed}:{group}")  # string seeds are stable across runs
                self._cache[group] = self._random_walk(self._base(group, rng), rng, referee)
            return self._cache[group]

    def _base(self, group: int, rng: random.Random) -> str:
        if self.lines:
            return self.lines[group % len(self.lines)]
        if self.rotation is None:  # a game without rotations (POLD.R)
            return self.start_fen
        rotation = rng.choice(ROTATIONS) if self.rotation == "random" else int(self.rotation)
        return with_rotation(self.start_fen, rotation)

    def _random_walk(self, base: str, rng: random.Random, referee: Referee) -> Opening:
        if self.random_plies == 0:
            return Opening(base, base)
        for _attempt in range(50):
            moves: list[str] = []
            for _ply in range(self.random_plies):
                referee.set_position(base, moves)
                if referee.game_over():
                    break
                moves.append(rng.choice(referee.legal_moves(base, moves)))
            referee.set_position(base, moves)
            if len(moves) == self.random_plies and not referee.game_over():
                return Opening(referee.fen(), base, tuple(moves))
        raise RefereeError(f"no {self.random_plies} random plies from {base!r} leave the game open")
