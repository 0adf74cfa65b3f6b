"""The games of match records as `podium tune --games` reads them (`arbiter.py export`): one line
per Pods game, `<result> <start> moves <move> ...`, the result from White's view, the start the
position the opening's random plies were played from, so that they come first among the moves.
Games ended by a fault are left out (a crash or a time forfeit says nothing of the position), and
so are POLD.R games (the tuner fits the Pods evaluation). Every game is played through by a Podium
first: one it cannot play (an illegal move, a start it cannot read) is left out with a warning that
names its file, line and game, rather than stop `podium tune` at it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from typing import Sequence

from .client import Engine
from .errors import ENGINE_FAULTS, EngineError, EngineFault, UsageError
from .records import PODS_RESULT_TEXT, RecordsFile, is_poldr_record, open_records_file, record_start
from .stats import count_of


@dataclass
class Export:
    lines: list[str] = field(default_factory=list)
    variants: Counter[str] = field(default_factory=Counter)  # the variant of each game exported
    games: int = 0  # game records read
    poldr: int = 0
    faults: int = 0
    other_variant: int = 0  # not the --variant asked for
    duplicates: int = 0
    warnings: list[str] = field(default_factory=list)  # the games left out that the engine cannot play

    def summary(self) -> str:
        left_out = [f"{count_of(number, what)} {why}" for number, what, why in (
            (self.faults, "game", "ended by a fault"), (self.poldr, "POLD.R game", "skipped"),
            (self.other_variant, "game", "of another variant"), (self.duplicates, "duplicate", "dropped"),
            (len(self.warnings), "game", "that cannot be played"))
            if number]
        return (f"{count_of(len(self.lines), 'game')} of {self.games} exported"
                + (f" ({', '.join(left_out)})" if left_out else ""))


def tune_line(record: dict) -> str:
    """`<result> <start> moves <move> ...` of a Pods game record, the result from White's view."""
    start, opening_moves = record_start(record)
    return " ".join([PODS_RESULT_TEXT[record["result"]], start, "moves", *opening_moves, *record["moves"]])


def unplayable(engine: Engine, record: dict) -> str | None:
    """Why the engine cannot play a game's moves from its start (an illegal move, a start it cannot
    read), or None."""
    start, opening_moves = record_start(record)
    try:
        engine.new_game(record["variant"])
        engine.set_position(start, [*opening_moves, *record["moves"]])
    except EngineError as refusal:
        return refusal.message
    return None


def export_games(paths: list[str], variant: str | None, unique: bool, engine_argv: Sequence[str]) -> Export:
    """The lines of the Pods games of the records files that ended by the rules (or were adjudicated a
    draw at --max-plies), of one variant: variant, or the only one the games have. engine_argv: the
    Podium that plays each game through first."""
    export = Export()
    seen: set[str] = set()
    files = [open_records_file(path) for path in paths]
    try:
        engine = Engine(list(engine_argv))
    except EngineFault as fault:
        raise UsageError(f"export plays each game through with a Podium, and {fault.detail} (give one with "
                         f"--engine)") from None
    with engine:
        try:
            for read in files:
                export_file(read, variant, unique, engine, export, seen)
        except EngineFault as fault:
            raise UsageError(f"the Podium that plays the games through failed: {fault}") from None
    if len(export.variants) > 1:
        found = ", ".join(f"{name} ({count_of(number, 'game')})" for name, number in sorted(export.variants.items()))
        raise UsageError(f"the games are of several variants, {found}: choose one with --variant "
                         f"(podium tune fits one variant at a time)")
    if not export.lines:
        raise UsageError(f"no Pods games ended by the rules in {', '.join(paths)}: {export.summary()}")
    return export


def export_file(read: RecordsFile, variant: str | None, unique: bool, engine: Engine, export: Export,
                seen: set[str]) -> None:
    for record in read.records:
        export.games += 1
        if is_poldr_record(record):
            export.poldr += 1
            continue
        if record["reason"] in ENGINE_FAULTS:
            export.faults += 1
            continue
        if variant is not None and record["variant"] != variant:
            export.other_variant += 1
            continue
        line = tune_line(record)
        if unique and line in seen:
            export.duplicates += 1
            continue
        if (why := unplayable(engine, record)) is not None:
            export.warnings.append(f"{read.where(record)}: left out, the engine cannot play it: {why}")
            continue
        seen.add(line)
        export.lines.append(line)
        export.variants[record["variant"]] += 1
