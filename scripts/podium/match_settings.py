"""The settings of one match (settings.py makes them from the arbiter's arguments or a resumed
records file's header) and the header they write."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from .clock import TimeControl
from .engines import EngineSpec
from .header import FORMAT, HEADER_TYPE, control_json
from .process import Transcript
from .protocol import Timeouts
from .rules import GameRules
from .stats import Sprt


@dataclass
class MatchSettings:
    engines: list[EngineSpec]
    referee_argv: list[str]
    variant: str | None  # Pods; None for POLD.R
    games: int
    concurrency: int
    time_control: TimeControl | None  # the match's; an engine's own (EngineSpec.time_control) comes first
    margin_ms: int
    max_plies: int
    rotation: str
    random_plies: int
    seed: int
    opening_lines: list[str] | None
    records_path: str
    sprt: Sprt | None
    timeouts: Timeouts
    transcript: Transcript
    rules: GameRules = field(default_factory=GameRules)
    shard: tuple[int, int] | None = None  # (K, N): this run plays the K-th of N slices of the match

    def control_of(self, spec: EngineSpec) -> TimeControl:
        """The time control an engine plays under: its own, else the match's."""
        return spec.time_control or self.time_control

    def describe_controls(self) -> str:
        """'tc 1+0.01' when every engine has it; 'new tc 2+0.02, base tc 1+0.01' with time odds."""
        controls = [self.control_of(spec) for spec in self.engines]
        if all(control == controls[0] for control in controls):
            return controls[0].describe()
        return ", ".join(f"{spec.name} {control.describe()}" for spec, control in zip(self.engines, controls))

    def header(self) -> dict:
        """The first line of the match's records file (header.py)."""
        rules, control, sprt, timeouts = self.rules, self.time_control, self.sprt, self.timeouts
        return {
            "type": HEADER_TYPE,
            "format": FORMAT,
            "engines": [{"name": spec.name, "cmd": spec.argv, "options": spec.options, "dir": spec.cwd,
                         "time_control": control_json(spec.time_control)} for spec in self.engines],
            "referee": self.referee_argv,
            "game": rules.game,
            "variant": self.variant,
            "players": rules.players if rules.poldr else None,
            "size": rules.size if rules.poldr else None,
            "bricks": rules.bricks if rules.poldr else None,
            "games": self.games,
            "time_control": control_json(control),
            "timemargin_ms": self.margin_ms,
            "max_plies": self.max_plies,
            "rotation": self.rotation,
            "random_plies": self.random_plies,
            "seed": self.seed,
            "openings": self.opening_lines,
            "shard": list(self.shard) if self.shard else None,
            "sprt": None if sprt is None else {"elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha,
                                               "beta": sprt.beta},
            "concurrency": self.concurrency,
            "timeouts": {"startup": timeouts.startup, "ready": timeouts.ready, "stall": timeouts.stall},
            "started": datetime.datetime.now().isoformat(timespec="seconds"),
        }
