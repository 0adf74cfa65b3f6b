"""The games of match records as `podium tune --games` reads them (`arbiter.py export`): one line
per game, `<result> <start> moves <move> ...`, the result from White's view in Pods (1-0, 0-1,
1/2-1/2), the winning seat in POLD.R (p1win, p2win, p3win), the start the position the opening's
random plies were played from, so that they come first among the moves. Games ended by a fault are
left out (a crash or a time forfeit says nothing of the position). The tuner fits one Pods variant
or one POLD.R player count at a time, so the games exported are all of one kind. Every game is
played through by a Podium first: one it cannot play (an illegal move, a start it cannot read) is
left out with a warning that names its file, line and game, rather than stop `podium tune` at it."""

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
    variants: Counter[str] = field(default_factory=Counter)  # the kind of each game exported (kind_of)
    games: int = 0  # game records read
    faults: int = 0
    other_variant: int = 0  # not the --variant or --players asked for
    duplicates: int = 0
    warnings: list[str] = field(default_factory=list)  # the games left out that the engine cannot play

    def summary(self) -> str:
        left_out = [f"{count_of(number, what)} {why}" for number, what, why in (
            (self.faults, "game", "ended by a fault"),
            (self.other_variant, "game", "of another kind"), (self.duplicates, "duplicate", "dropped"),
            (len(self.warnings), "game", "that cannot be played"))
            if number]
        return (f"{count_of(len(self.lines), 'game')} of {self.games} exported"
                + (f" ({', '.join(left_out)})" if left_out else ""))


def kind_of(record: dict) -> str:
    """What podium tune fits one at a time: a Pods variant (`standard`, `advanced`) or a POLD.R
    player count (`poldr-2`, `poldr-3`)."""
    return f"poldr-{record['players']}" if is_poldr_record(record) else record["variant"]


def tune_command(kind: str, target: str) -> str:
    """The `podium tune` command that fits the games of `kind` written to `target`."""
    if kind.startswith("poldr-"):
        return f"podium tune --game poldr --players {kind[len('poldr-'):]} --games {target}"
    return f"podium tune --variant {kind} --games {target}"


def tune_line(record: dict) -> str:
    """`<result> <start> moves <move> ...` of a game record: the result from White's view in Pods,
    the winning seat in POLD.R."""
    start, opening_moves = record_start(record)
    result = record["result"] if is_poldr_record(record) else PODS_RESULT_TEXT[record["result"]]
    return " ".join([result, start, "moves", *opening_moves, *record["moves"]])


def unplayable(engine: Engine, record: dict) -> str | None:
    """Why the engine cannot play a game's moves from its start (an illegal move, a start it cannot
    read), or None."""
    start, opening_moves = record_start(record)
    try:
        if is_poldr_record(record):
            engine.new_game("poldr", players=record["players"], size=record["size"], bricks=record["bricks"])
        else:
            engine.new_game(record["variant"])
        engine.set_position(start, [*opening_moves, *record["moves"]])
    except EngineError as refusal:
        return refusal.message
    return None


def export_games(paths: list[str], variant: str | None, unique: bool, engine_argv: Sequence[str],
                 players: int | None = None) -> Export:
    """The lines of the games of the records files that ended by the rules (or were adjudicated a
    draw at --max-plies), of one kind: a Pods variant (variant), or POLD.R games of one player count
    (players), or the only kind the games have. engine_argv: the Podium that plays each game through
    first."""
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
                export_file(read, variant, players, unique, engine, export, seen)
        except EngineFault as fault:
            raise UsageError(f"the Podium that plays the games through failed: {fault}") from None
    if len(export.variants) > 1:
        found = ", ".join(f"{name} ({count_of(number, 'game')})" for name, number in sorted(export.variants.items()))
        raise UsageError(f"the games are of several kinds, {found}: choose one with --variant (Pods) or "
                         f"--players (POLD.R): podium tune fits one Pods variant or one POLD.R player count at "
                         f"a time")
    if not export.lines:
        raise UsageError(f"no games ended by the rules in {', '.join(paths)}: {export.summary()}")
    return export


def export_file(read: RecordsFile, variant: str | None, players: int | None, unique: bool, engine: Engine,
                export: Export, seen: set[str]) -> None:
    for record in read.records:
        export.games += 1
        if record["reason"] in ENGINE_FAULTS:
            export.faults += 1
            continue
        poldr = is_poldr_record(record)
        if (variant is not None and (poldr or record["variant"] != variant)) or (
                players is not None and (not poldr or record["players"] != players)):
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
        export.variants[kind_of(record)] += 1
