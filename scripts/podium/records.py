"""Game records: after the match's settings (header.py), one JSON line per finished game, written
at once so a match can be resumed; reading them back, checking that they are whole and of one
match, and what a record says (who played, who won, whose fault).

One schema for both games (docs/records.md, docs/records.schema.json): {"type": "game", "game":
"pods" or "poldr", "index": the game's number from 1, as the arbiter's progress lines and the pages
count, "group": the number from 1 of the games sharing an opening, "seats": the engines in seat
order, ..., "result": "p1win", "p2win", "p3win" or "draw"}. Records of older arbiters (Pods:
"game" the number from 0, "white", "black", "1-0"; POLD.R: "game": "poldr", "index" from 0) are
read into it without loss (upgrade_record): every reader here sees today's schema only.

Every record read is checked (record_problem): a file with one that cannot be used is a UsageError
of one line naming the file, the line and the game, never a traceback."""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

from .errors import ENGINE_FAULTS, UsageError
from .header import HEADER_TYPE, header_problem, shown, upgrade_header
from .notation import POLDR_POSITION_RE, POSITION_RE, poldr_shape
from .rules import MAX_GAMES, GameRules, as_rules

RECORD_TYPE = "game"
RESULTS = ("p1win", "p2win", "p3win", "draw")
OLD_PODS_RESULTS = {"1-0": "p1win", "0-1": "p2win", "1/2-1/2": "draw"}
PODS_RESULT_TEXT = {value: key for key, value in OLD_PODS_RESULTS.items()}
LONGEST_NUMBER = 20  # digits of a number in a position line read from a file (POLD.R plies reach 19)
NUMBER_RE = re.compile(r"\d+")
SEATS = ("p1", "p2", "p3")


# -- what a record says (today's schema)


def is_poldr_record(record: dict) -> bool:
    return record.get("game") == "poldr"


def record_index(record: dict) -> int:
    """The game's number, from 1: as the progress lines and the pages show it."""
    return record["index"]


def record_engines(record: dict) -> list[str]:
    """The engines of a game in seat order (p1 first: White, Blue)."""
    return list(record["seats"])


def record_rules(record: dict) -> GameRules:
    """The game a record's game was played in."""
    if is_poldr_record(record):
        return GameRules("poldr", players=record["players"], size=record["size"], bricks=record["bricks"])
    return GameRules("pods", variant=record["variant"])


def record_start(record: dict) -> tuple[str, list[str]]:
    """Where the game's moves start: the position before the opening's random moves and those moves
    (records made before that position was recorded: the opening itself, no moves)."""
    if "opening_base" in record:
        return record["opening_base"], list(record.get("opening_moves", []))
    return record["opening"], []


def winning_seat(record: dict) -> int | None:
    """The seat that won, from 0; None for a draw."""
    return None if record["result"] == "draw" else int(record["result"][1:-len("win")]) - 1


def result_text(record: dict) -> str:
    """The result for people: 1-0, 0-1, 1/2-1/2 in Pods, p1win, p2win, p3win in POLD.R."""
    return record["result"] if is_poldr_record(record) else PODS_RESULT_TEXT[record["result"]]


def points_for(record: dict, name: str) -> float:
    seat = winning_seat(record)
    if seat is None:
        return 0.5
    return 1.0 if record["seats"][seat] == name else 0.0


def winner_of(record: dict) -> str | None:
    """The engine that won the game; None for a draw."""
    seat = winning_seat(record)
    return None if seat is None else record["seats"][seat]


def game_moves_key(record: dict) -> tuple:
    """What makes two games the same game: the start, who sat where, every move."""
    return record.get("opening"), tuple(record_engines(record)), tuple(record.get("moves", ()))


def faulty_engine(record: dict) -> str:
    """The engine whose fault ended the game."""
    if faulty := record.get("faulty"):
        return faulty
    first, second = record_engines(record)[:2]
    return second if points_for(record, first) == 1 else first


# -- records of older arbiters


def upgrade_record(record: dict, header: dict | None = None) -> dict:
    """A game record in today's schema: itself if it is, else the record of an older arbiter with
    every field kept (renamed, numbered from 1, its result in the engines' words). A record that is
    neither is returned unchanged, for record_problem to name what it lacks."""
    if record.get("type") == RECORD_TYPE or "type" in record:
        return record
    game = record.get("game")
    if game == "poldr":
        upgraded = {"type": RECORD_TYPE, "game": "poldr", "index": _plus_one(record.get("index")),
                    "group": _plus_one(record.get("pair", record.get("group")))}
        skip = {"game", "index", "pair", "group"}
    else:
        white, black = record.get("white"), record.get("black")
        result = OLD_PODS_RESULTS.get(record.get("result"), record.get("result"))
        upgraded = {"type": RECORD_TYPE, "game": "pods" if type(game) is int else game, "index": _plus_one(game),
                    "group": _plus_one(record.get("pair")), "seats": [white, black],
                    "variant": record.get("variant") or (header or {}).get("variant") or "standard",
                    "result": result}
        if isinstance(result, str) and result in RESULTS:
            upgraded["winner"] = {"p1win": white, "p2win": black}.get(result)
            loser = {"p1win": black, "p2win": white}.get(result)
            upgraded["faulty"] = loser if record.get("reason") in ENGINE_FAULTS else None
        if isinstance(times := record.get("time_ms"), dict):
            upgraded["time_ms"] = {{"white": "p1", "black": "p2"}.get(key, key): value for key, value in times.items()}
        skip = {"game", "pair", "white", "black", "variant", "result", "time_ms"}
        if "white" not in record or "black" not in record:
            del upgraded["seats"]  # for record_problem to say which is missing
    upgraded = {key: value for key, value in upgraded.items() if value is not None or key in ("winner", "faulty")}
    for key, value in record.items():
        if key not in skip and key not in upgraded:
            upgraded[key] = value
    if isinstance(control := upgraded.get("time_control"), str) and isinstance(upgraded.get("seats"), list):
        upgraded["time_control"] = {seat: control for seat in SEATS[:len(upgraded["seats"])]}
    return upgraded


def _plus_one(number: object) -> object:
    return number + 1 if type(number) is int else number


def is_game_record(line: dict) -> bool:
    """A line that is a game record: today's ({"type": "game"}) or an older arbiter's (a "game" field)."""
    if "type" in line:
        return line["type"] == RECORD_TYPE
    return "game" in line


# -- checks


def _whole(low: int, high: int) -> Callable[[object], bool]:
    return lambda value: type(value) is int and low <= value <= high


def _text(value: object) -> bool:
    return isinstance(value, str) and not any(ord(character) < 32 or character == "\x7f" for character in value)


def _name(value: object) -> bool:
    return _text(value) and value != ""


def _number(value: object) -> bool:
    return type(value) in (int, float) and math.isfinite(value) and value >= 0


def _position(value: object, pattern: re.Pattern) -> bool:
    return (isinstance(value, str) and pattern.fullmatch(value) is not None
            and all(len(digits) <= LONGEST_NUMBER for digits in NUMBER_RE.findall(value)))


def _moves(value: object, pattern: re.Pattern) -> bool:
    return isinstance(value, list) and all(isinstance(move, str) and pattern.fullmatch(move) for move in value)


def _move_info(value: object) -> bool:
    numbers = (lambda item: item is None or _number(item))
    return isinstance(value, list) and all(
        isinstance(item, dict) and numbers(item.get("time_ms")) and numbers(item.get("depth"))
        and numbers(item.get("nodes")) and (item.get("score") is None or _text(item["score"])) for item in value)


def _per_seat(test: Callable[[object], bool]) -> Callable[[object], bool]:
    return lambda value: isinstance(value, dict) and all(key in SEATS and test(item) for key, item in value.items())


REQUIRED = ("type", "game", "index", "group", "seats", "opening", "moves", "result", "reason")
REQUIRED_BY_GAME = {"pods": ("variant",), "poldr": ("players", "size", "bricks")}


def _fields(rules: GameRules) -> dict[str, tuple[Callable[[object], bool], str]]:
    """What each field of a record of this game must be: (test, what it must be)."""
    position, move = (POLDR_POSITION_RE, rules.move_re) if rules.poldr else (POSITION_RE, rules.move_re)
    kind = "a POLD.R position line" if rules.poldr else "a Pods position line"
    results = [f"p{seat}win" for seat in range(1, len(rules.seat_keys) + 1)] + ([] if rules.poldr else ["draw"])
    return {
        "index": (_whole(1, MAX_GAMES), f"a game number from 1 to {MAX_GAMES}"),
        "group": (_whole(1, MAX_GAMES), f"a group number from 1 to {MAX_GAMES}"),
        "seats": (lambda value: isinstance(value, list) and len(value) == len(rules.seat_keys)
                  and all(map(_name, value)) and len(set(value)) == len(value),
                  f"a list of {len(rules.seat_keys)} different engine names"),
        "variant": (lambda value: value in ("standard", "advanced"), "standard or advanced"),
        "players": (_whole(2, 3), "2 or 3"),
        "size": (_whole(4, 9), "a board size from 4 to 9"),
        "bricks": (_whole(1, 40), "a number of bricks from 1 to 40"),
        "opening": (lambda value: _position(value, position), kind),
        "opening_base": (lambda value: _position(value, position), kind),
        "final": (lambda value: _position(value, position), kind),
        "opening_moves": (lambda value: _moves(value, move), "a list of moves"),
        "moves": (lambda value: _moves(value, move), "a list of moves"),
        "move_info": (_move_info, "a list of objects (time_ms, score, depth, nodes)"),
        "result": (lambda value: value in results, ", ".join(results)),
        "winner": (lambda value: value is None or _name(value), "an engine name or null"),
        "faulty": (lambda value: value is None or _name(value), "an engine name or null"),
        "reason": (_text, "a text"),
        "detail": (_text, "a text"),
        "time_ms": (_per_seat(_number), "milliseconds per seat (p1, p2, p3)"),
        "time_control": (_per_seat(_text), "a time control per seat (p1, p2, p3)"),
        "seed": (lambda value: type(value) is int, "a whole number"),
        "finished": (_text, "a text"),
    }


def record_problem(record: dict) -> str | None:
    """What makes a game record (today's schema) unusable: a field missing, of the wrong type or
    value, or fields that contradict each other; None if it is whole."""
    if record.get("game") not in REQUIRED_BY_GAME:
        return f"its 'game' is {shown(record.get('game'))}, not pods or poldr"
    for key in (*REQUIRED, *REQUIRED_BY_GAME[record["game"]]):
        if key not in record:
            return f"it has no {key!r}"
    if is_poldr_record(record):
        for key in ("players", "size", "bricks"):
            if not _fields(GameRules("poldr"))[key][0](record[key]):
                return f"its {key!r} is {shown(record[key])}, not {_fields(GameRules('poldr'))[key][1]}"
    elif not _fields(GameRules())["variant"][0](record["variant"]):
        return f"its 'variant' is {shown(record['variant'])}, not standard or advanced"
    rules = record_rules(record)
    for key, (valid, kind) in _fields(rules).items():
        if key in record and not valid(record[key]):
            return f"its {key!r} is {shown(record[key])}, not {kind}"
    if rules.poldr:
        for key in ("opening", "opening_base", "final"):
            if key in record and poldr_shape(record[key]) != (rules.size, rules.players):
                return f"its {key!r} is not of size {rules.size} with {rules.players} players"
    if record.get("winner") is not None and record["winner"] != winner_of(record):
        return f"its 'winner' is {shown(record['winner'])}, but its result {record['result']} names {winner_of(record)}"
    if record.get("faulty") is not None and record["faulty"] not in record["seats"]:
        return f"its 'faulty' is {shown(record['faulty'])}, who did not play"
    return None


# -- files

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


def is_match_header(line: dict) -> bool:
    """The first line of a records file written by this arbiter: the match's settings, not a game."""
    return line.get("type") == HEADER_TYPE


@dataclass
class RecordsFile:
    """What a records file holds: the match's settings (None in files written before there were any)
    and its game records in today's schema, each with the number of its line."""
    path: str
    header: dict | None
    records: list[dict] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)

    def where(self, record: dict) -> str:
        """'FILE: line N: game K', for the messages about one record."""
        line = next((number for other, number in zip(self.records, self.lines) if other is record), None)
        return f"{self.path}: line {line}: game {record['index']}"


def read_records_file(path: str) -> RecordsFile:
    """The match's settings and its complete game records. Half-written lines (an interruption)
    and lines that are no game record are skipped; settings or a record that cannot be used (a
    field missing or of the wrong type, a line too deep or with a number too long to read) are a
    UsageError naming file, line and game."""
    read = RecordsFile(path, None)
    for number, line in text_lines(path):
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by an interruption, or not JSON at all
        except (ValueError, RecursionError) as error:  # numbers of thousands of digits, nesting too deep
            why = "nested too deep" if isinstance(error, RecursionError) else "a number too long to read"
            raise UsageError(f"{path}: line {number}: cannot be read: {why}") from None
        if not isinstance(entry, dict):
            continue
        if is_match_header(entry):
            if number == 1:
                if problem := header_problem(entry):
                    raise UsageError(f"{path}: line 1: the match's settings cannot be read: {problem}")
                read.header = upgrade_header(entry)
            continue
        if not is_game_record(entry):
            continue
        record = upgrade_record(entry, read.header)
        if problem := record_problem(record):
            game = f"game {record['index']}: " if _fields(GameRules())["index"][0](record.get("index")) else ""
            raise UsageError(f"{path}: line {number}: {game}the game record cannot be read: {problem}")
        read.records.append(record)
        read.lines.append(number)
    return read


def read_match(path: str) -> tuple[dict | None, list[dict]]:
    """The match's settings and its game records (read_records_file)."""
    read = read_records_file(path)
    return read.header, read.records


def load_records(path: str) -> list[dict]:
    """The complete game records of a file (read_records_file)."""
    return read_match(path)[1]


def open_records_file(path: str, label: str | None = None) -> RecordsFile:
    """read_records_file, with the file's own errors (none there, a directory) as a UsageError that
    names it as label (default: its path)."""
    try:
        return read_records_file(path)
    except OSError as error:
        raise UsageError(f"{label or path}: {error.strerror}") from None


def open_match(path: str, label: str | None = None) -> tuple[dict | None, list[dict]]:
    read = open_records_file(path, label)
    return read.header, read.records


# -- records of one match


def foreign_problem(record: dict, names: set[str], rules: GameRules) -> str | None:
    """Why a record is not of the match of these engines and this game, or None."""
    if is_poldr_record(record) != rules.poldr:
        return f"a {'POLD.R' if is_poldr_record(record) else 'Pods'} game, not {'POLD.R' if rules.poldr else 'Pods'}"
    if rules.poldr:
        recorded = tuple(record[key] for key in ("players", "size", "bricks"))
        if recorded != (rules.players, rules.size, rules.bricks):
            return f"a game of players, size, bricks {recorded}, not {(rules.players, rules.size, rules.bricks)}"
    elif record["variant"] != rules.variant:
        return f"a game of the {record['variant']} variant, not {rules.variant}"
    if set(record["seats"]) != names:
        return f"a game between other engines ({', '.join(record['seats'])})"
    return None


def check_one_match(read: RecordsFile, names: Sequence[str] | None = None, rules: GameRules | None = None,
                    games: int | None = None, flag: str = "") -> None:
    """A UsageError naming file, line and game for the first record that is not of the match: of
    its engines and game (given, or the header's, or else the first record's), numbered within
    its games. What --resume refuses, merge and report refuse too."""
    if not read.records:
        return
    if names is None or rules is None:
        if read.header is not None:
            names = [engine["name"] for engine in read.header["engines"]]
            rules = _header_rules(read.header)
            games = read.header["games"] if games is None else games
        else:
            names, rules = record_engines(read.records[0]), record_rules(read.records[0])
    for record in read.records:
        problem = foreign_problem(record, set(names), rules)
        if problem is None and games is not None and record["index"] > games:
            problem = f"beyond the match's {games} games"
        if problem:
            raise UsageError(f"{flag}{read.where(record)} is {problem}: not a game of this match "
                             f"({', '.join(names)}, {rules.describe()})")


def _header_rules(header: dict) -> GameRules:
    if header["game"] == "poldr":
        return GameRules("poldr", players=header["players"], size=header["size"], bricks=header["bricks"])
    return GameRules("pods", variant=header["variant"] or "standard")


def resumed_records(read: RecordsFile, names: Sequence[str], numbers: set[int], game: GameRules | str,
                    games: int | None = None) -> list[dict]:
    """The records of an earlier run of this match, one per game number among numbers (the match's,
    or its shard's). A record of another match (other engines, another game or other settings, a
    game beyond its `games`) is a usage error."""
    check_one_match(read, names, as_rules(game), games, flag="--resume ")
    by_game: dict[int, dict] = {}
    for record in read.records:
        if record["index"] in numbers:
            by_game.setdefault(record["index"], record)
    return [by_game[number] for number in sorted(by_game)]
