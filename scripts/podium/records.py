"""Game records: one JSON line per finished game, written at once so a match can be resumed; reading
them back, checking that a resumed match is the same match, and what a record says (who played,
who won, whose fault)."""

from __future__ import annotations

import json
import os
from typing import Sequence

from .errors import UsageError
from .rules import GameRules, as_rules


def is_poldr_record(record: dict) -> bool:
    return record.get("game") == "poldr"


def record_index(record: dict) -> int:
    """The game's number: "game" in Pods records, "index" in POLD.R records (where "game" is "poldr")."""
    return record["index"] if is_poldr_record(record) else record["game"]


def record_engines(record: dict) -> list[str]:
    """The engines of a game in seat order (white, black / p1, p2, p3)."""
    return list(record["seats"]) if is_poldr_record(record) else [record["white"], record["black"]]


def points_for(record: dict, name: str) -> float:
    if is_poldr_record(record):
        seat = int(record["result"][1:-len("win")]) - 1  # "p2win" -> 1
        return 1.0 if record["seats"][seat] == name else 0.0
    white_points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[record["result"]]
    return white_points if record["white"] == name else 1 - white_points


def winner_of(record: dict) -> str | None:
    """The engine that won the game; None for a draw."""
    return next((name for name in record_engines(record) if points_for(record, name) == 1), None)


def faulty_engine(record: dict) -> str:
    """The engine whose fault ended the game: named in POLD.R records, the loser in two-player ones."""
    if faulty := record.get("faulty"):
        return faulty
    first, second = record_engines(record)
    return second if points_for(record, first) == 1 else first


class RecordFile:
    """One JSON line per finished game, flushed to disk at once so an interruption loses nothing."""

    def __init__(self, path: str):
        self.path = path
        ends_cleanly = True
        if os.path.exists(path) and os.path.getsize(path) > 0:
            with open(path, "rb") as existing:
                existing.seek(-1, os.SEEK_END)
                ends_cleanly = existing.read(1) == b"\n"
        self._file = open(path, "a", encoding="utf-8")
        if not ends_cleanly:
            self._file.write("\n")  # a line cut short by a crash stays alone on its line

    def write(self, record: dict) -> None:
        self._file.write(json.dumps(record) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def load_records(path: str) -> list[dict]:
    """The complete records of a file; half-written or foreign lines are skipped."""
    records = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if not isinstance(record, dict):
                continue
            if is_poldr_record(record):
                needed = {"index", "seats", "result", "reason"}
            else:
                needed = {"game", "pair", "white", "black", "result", "reason"}
            if needed <= record.keys():
                records.append(record)
    return records


def resumed_records(path: str, names: Sequence[str], games: int, game: GameRules | str) -> list[dict]:
    """The records of an earlier run of this match, one per game index below games. A record of
    another match (other engines, another game or other settings) is a usage error."""
    if not os.path.exists(path):
        raise UsageError(f"--resume {path}: no such file")
    rules = as_rules(game)
    same_match = _check_poldr_record if rules.poldr else _check_pods_record
    by_game: dict[int, dict] = {}
    for record in load_records(path):
        same_match(record, path, set(names), rules)
        if record_index(record) < games:
            by_game.setdefault(record_index(record), record)
    return [by_game[index] for index in sorted(by_game)]


def _check_pods_record(record: dict, path: str, names: set[str], rules: GameRules) -> None:
    """Same engines, same variant."""
    if is_poldr_record(record):
        raise UsageError(f"--resume {path}: game {record['index']} was a POLD.R game (add --game poldr)")
    if {record["white"], record["black"]} != names:
        raise UsageError(f"--resume {path}: game {record['game']} was between other engines "
                         f"({record['white']}, {record['black']})")
    if record.get("variant", rules.variant) != rules.variant:
        raise UsageError(f"--resume {path}: game {record['game']} was a {record['variant']} game")


def _check_poldr_record(record: dict, path: str, names: set[str], rules: GameRules) -> None:
    """Same engines, same players, size and bricks."""
    if not is_poldr_record(record):
        raise UsageError(f"--resume {path}: game {record['game']} was a Pods game, not POLD.R")
    index = record["index"]
    recorded = tuple(record.get(key) for key in ("players", "size", "bricks"))
    if recorded != (rules.players, rules.size, rules.bricks):
        raise UsageError(f"--resume {path}: game {index} had players, size, bricks {recorded}, "
                         f"not {(rules.players, rules.size, rules.bricks)}")
    if set(record["seats"]) != names:
        raise UsageError(f"--resume {path}: game {index} was between other engines ({', '.join(record['seats'])})")
