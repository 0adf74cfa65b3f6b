"""Game records: after the match's settings (header.py), one JSON line per finished game, written
at once so a match can be resumed; reading them back, checking that a resumed match is the same
match, and what a record says (who played, who won, whose fault)."""

from __future__ import annotations

import json
import os
from typing import Callable, Iterator, Sequence

from .errors import UsageError
from .header import header_problem
from .notation import POLDR_POSITION_RE
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


def game_moves_key(record: dict) -> tuple:
    """What makes two games the same game: the start, who sat where, every move."""
    return record.get("opening"), tuple(record_engines(record)), tuple(record.get("moves", ()))


def faulty_engine(record: dict) -> str:
    """The engine whose fault ended the game: named in POLD.R records, the loser in two-player ones."""
    if faulty := record.get("faulty"):
        return faulty
    first, second = record_engines(record)
    return second if points_for(record, first) == 1 else first


class RecordFile:
    """The match's settings first (header.py), then one JSON line per finished game, each flushed to
    disk at once so an interruption loses nothing."""

    def __init__(self, path: str, header: dict | None = None):
        """header: written first when the file is new or empty (a resumed file keeps its own)."""
        self.path = path
        ends_cleanly, empty = True, True
        if os.path.exists(path) and os.path.getsize(path) > 0:
            empty = False
            with open(path, "rb") as existing:
                existing.seek(-1, os.SEEK_END)
                ends_cleanly = existing.read(1) == b"\n"
        self._file = open(path, "a", encoding="utf-8")
        if not ends_cleanly:
            self._file.write("\n")  # a line cut short by a crash stays alone on its line
        if empty and header is not None:
            self.write(header)

    def write(self, record: dict) -> None:
        self._file.write(json.dumps(record) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def text_lines(path: str) -> Iterator[tuple[int, str]]:
    """The lines of a UTF-8 text file, numbered from 1. A line that is not UTF-8 is a UsageError
    naming the file and the line; the file's own errors (none there, a directory) are OSError."""
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, 1):
            try:
                yield number, raw.decode("utf-8")
            except UnicodeDecodeError:
                raise UsageError(f"{path}: line {number} is not UTF-8 text") from None


def _whole(value: object) -> bool:
    return type(value) is int and value >= 0  # bool is an int to Python, not to a record


def _text(value: object) -> bool:
    return isinstance(value, str)


def _texts(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _times(value: object) -> bool:
    return isinstance(value, dict) and all(type(ms) in (int, float) for ms in value.values())


# What each field of a record must be, for the fields that the arbiter, its statistics and its
# pictures read: (test, what it must be). Fields not listed are carried along unread.
COMMON_FIELDS: dict[str, tuple[Callable[[object], bool], str]] = {
    "reason": (_text, "a text"),
    "detail": (_text, "a text"),
    "opening": (_text, "a position line"),
    "opening_base": (_text, "a position line"),
    "opening_moves": (_texts, "a list of moves"),
    "moves": (_texts, "a list of moves"),
    "move_info": (lambda value: isinstance(value, list) and all(isinstance(item, dict) for item in value),
                  "a list of objects"),
    "time_ms": (_times, "an object of milliseconds per seat"),
    "seed": (lambda value: type(value) is int, "a whole number"),
}
PODS_FIELDS = {
    "game": (_whole, "a game number"),
    "pair": (_whole, "a pair number"),
    "white": (_text, "an engine name"),
    "black": (_text, "an engine name"),
    "variant": (lambda value: value is None or isinstance(value, str), "a variant name"),
    "result": (lambda value: value in ("1-0", "0-1", "1/2-1/2"), "1-0, 0-1 or 1/2-1/2"),
}
POLDR_FIELDS = {
    "index": (_whole, "a game number"),
    "pair": (_whole, "a pair number"),
    "group": (_whole, "a group number"),
    "seats": (lambda value: _texts(value) and len(value) in (2, 3), "a list of two or three engine names"),
    "players": (_whole, "a number of players"),
    "size": (_whole, "a board size"),
    "bricks": (_whole, "a number of bricks"),
    "faulty": (lambda value: value is None or isinstance(value, str), "an engine name or null"),
}


def record_problem(record: dict) -> str | None:
    """What makes a game record unreadable (a field of the wrong type or value), or None."""
    fields = {**COMMON_FIELDS, **(POLDR_FIELDS if is_poldr_record(record) else PODS_FIELDS)}
    for key, (valid, kind) in fields.items():
        if key in record and not valid(record[key]):
            return f"{key!r} is {json.dumps(record[key])[:60]}, not {kind}"
    if is_poldr_record(record):
        wins = [f"p{seat}win" for seat in range(1, len(record["seats"]) + 1)]
        if record["result"] not in wins:
            return f"'result' is {json.dumps(record['result'])[:60]}, not one of {', '.join(wins)}"
        final = record.get("final")
        if final is not None and not (isinstance(final, str) and POLDR_POSITION_RE.match(final)):
            return f"'final' is {json.dumps(final)[:60]}, not a POLD.R position line"
    return None


def is_match_header(line: dict) -> bool:
    """The first line of a records file written by this arbiter: the match's settings, not a game."""
    return line.get("type") == "match"


def load_records(path: str) -> list[dict]:
    """The complete game records of a file; half-written or foreign lines and the match's settings
    are skipped. A record with a field of the wrong type is a UsageError naming file and line."""
    return read_match(path)[1]


def open_match(path: str, label: str | None = None) -> tuple[dict | None, list[dict]]:
    """read_match, with the file's own errors (none there, a directory) as a UsageError that names
    it as label (default: its path)."""
    try:
        return read_match(path)
    except OSError as error:
        raise UsageError(f"{label or path}: {error.strerror}") from None


def read_match(path: str) -> tuple[dict | None, list[dict]]:
    """The match's settings (the first line; None in files written before there were any) and its
    complete game records. Half-written or foreign lines are skipped; settings or a record with a
    field of the wrong type are a UsageError naming file and line."""
    header, records = None, []
    for number, line in text_lines(path):
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(record, dict):
            continue
        if is_match_header(record):
            if number == 1:
                if problem := header_problem(record):
                    raise UsageError(f"{path}: line 1: the match's settings cannot be read: {problem}")
                header = record
            continue
        if is_poldr_record(record):
            needed = {"index", "seats", "result", "reason"}
        else:
            needed = {"game", "pair", "white", "black", "result", "reason"}
        if needed <= record.keys():
            if problem := record_problem(record):
                raise UsageError(f"{path}: line {number}: a game record whose {problem}")
            records.append(record)
    return header, records


def resumed_records(records: list[dict], path: str, names: Sequence[str], indices: set[int],
                    game: GameRules | str) -> list[dict]:
    """The records of an earlier run of this match, one per game index among indices (the match's,
    or its shard's). A record of another match (other engines, another game or other settings) is a
    usage error."""
    rules = as_rules(game)
    same_match = _check_poldr_record if rules.poldr else _check_pods_record
    by_game: dict[int, dict] = {}
    for record in records:
        same_match(record, path, set(names), rules)
        if record_index(record) in indices:
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
