"""The games of match records as `podium tune --games` reads them (`arbiter.py export`): one line
per Pods game, `<result> <start> moves <move> ...`, the result from White's view, the start the
position the opening's random plies were played from, so that they come first among the moves.
Games ended by a fault are left out (a crash or a time forfeit says nothing of the position), and
so are POLD.R games (the tuner fits the Pods evaluation)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .errors import ENGINE_FAULTS, UsageError
from .notation import POSITION_RE
from .records import is_poldr_record, open_match
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

    def summary(self) -> str:
        left_out = [f"{count_of(number, what)} {why}" for number, what, why in (
            (self.faults, "game", "ended by a fault"), (self.poldr, "POLD.R game", "skipped"),
            (self.other_variant, "game", "of another variant"), (self.duplicates, "duplicate", "dropped"))
            if number]
        return (f"{count_of(len(self.lines), 'game')} of {self.games} exported"
                + (f" ({', '.join(left_out)})" if left_out else ""))


def tune_line(record: dict, path: str) -> str:
    """`<result> <start> moves <move> ...` of a Pods game record. Records made before the opening's
    start was recorded begin at the opening itself."""
    start = record.get("opening_base", record.get("opening"))
    moves = [*record.get("opening_moves", []), *record.get("moves", [])] if "opening_base" in record \
        else list(record.get("moves", []))
    if not isinstance(start, str) or not POSITION_RE.match(start):
        raise UsageError(f"{path}: game {record['game']} has no Pods start position line (opening_base or opening)")
    return " ".join([record["result"], start, "moves", *moves])


def export_games(paths: list[str], variant: str | None, unique: bool) -> Export:
    """The lines of the Pods games of the records files that ended by the rules (or were adjudicated a
    draw at --max-plies), of one variant: variant, or the only one the games have."""
    export = Export()
    seen: set[str] = set()
    for path in paths:
        header, records = open_match(path)
        for record in records:
            export.games += 1
            if is_poldr_record(record):
                export.poldr += 1
                continue
            if record["reason"] in ENGINE_FAULTS:
                export.faults += 1
                continue
            # records and settings without a variant come from before advanced games were played
            game_variant = record.get("variant") or (header or {}).get("variant") or "standard"
            if variant is not None and game_variant != variant:
                export.other_variant += 1
                continue
            line = tune_line(record, path)
            if unique and line in seen:
                export.duplicates += 1
                continue
            seen.add(line)
            export.lines.append(line)
            export.variants[game_variant] += 1
    if len(export.variants) > 1:
        found = ", ".join(f"{name} ({count_of(number, 'game')})" for name, number in sorted(export.variants.items()))
        raise UsageError(f"the games are of several variants, {found}: choose one with --variant "
                         f"(podium tune fits one variant at a time)")
    if not export.lines:
        raise UsageError(f"no Pods games ended by the rules in {', '.join(paths)}: {export.summary()}")
    return export
