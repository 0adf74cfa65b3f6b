"""Every position of a game, as a Podium process draws it, for the pictures (pictures.py).

The rules live in the engine alone: for each ply the engine is given the game's start and the moves
so far (`position`), draws the board (`d`: the picture of points and lines, pod letters on points,
turned by the rotation; in POLD.R the grid of pawn, markers and bricks) and writes the position
line, from which the hands and reserves are read. A Pods game's pod set (the legs of each pod) is
the engine's `Pods` option, read from its handshake.

    with open_engine() as engine:
        replays = [replay_record(engine, record) for record in load_records("match.jsonl")]
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Iterator, Sequence

from .client import Engine
from .errors import PodiumError
from .notation import BLACK, POINTS, WHITE, hand_of, is_poldr_position, players_of, poldr_reserves, poldr_shape
from .records import record_engines, record_index, record_start, result_text

PODS_PICTURE_SIZE = 11  # rows and columns of a Pods board picture (docs/pods-rules.md section 2)
POLDR_ROW_RE = re.compile(r"^\s*(?P<rank>[1-9]) (?P<cells>[.PBYRbyr](?: [.PBYRbyr])*)\s*$")
POD_OPTION_RE = re.compile(r"^option name Pods type string default (?P<pods>\S+)")
SEAT_COLOURS = {"pods": ("White", "Black"), "poldr": ("Blue", "Yellow", "Red")}


class ReplayError(PodiumError):
    """A game that cannot be replayed: the engine refused its start or one of its moves, or drew
    something this module cannot read."""


@dataclass(frozen=True)
class Position:
    """The game after some plies, as the engine drew it."""
    fen: str
    pieces: dict[str, str]  # point -> what stands on it: a pod letter, or P, B, Y, R, b, y, r
    turn: str  # the engine's `turn` line without the word: "White", "Red (phase building, ply 2)"
    over: str | None  # the engine's `game over:` text once the game is over, else None

    @property
    def hands(self) -> tuple[str, str]:
        """Pods: the pods in White's and in Black's hand (White's uppercase, Black's lowercase)."""
        return hand_of(self.fen, WHITE), hand_of(self.fen, BLACK)

    @property
    def reserves(self) -> list[int]:
        """POLD.R: the bricks in each reserve, in seat order."""
        return poldr_reserves(self.fen)


@dataclass(frozen=True)
class PodsBoard:
    """What a Pods game's pictures share: the board's lines at the game's rotation and the pod set."""
    picture: tuple[str, ...]  # the 11 rows of 11 characters of `d`, `o` on every point
    pods: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]  # (letter, ((direction, "s" or "l"), ...)), as White's

    @property
    def letters(self) -> str:
        return "".join(letter for letter, _ in self.pods)


@dataclass(frozen=True)
class PoldrBoard:
    size: int
    players: int


@dataclass
class Replay:
    """One game (or a position and moves from it) with every position on the way."""
    game: str  # "pods" or "poldr"
    board: PodsBoard | PoldrBoard
    moves: list[str]
    positions: list[Position]  # after 0, 1, ..., len(moves) moves
    seats: list[str]  # who played each seat, in seat order (engine names; the colours for a position)
    number: int | None = None  # the game's number in its match, from 1
    opening_plies: int = 0  # the first moves, the match's opening, that no engine chose
    result: str | None = None  # as records.result_text gives it: 1-0, 0-1, 1/2-1/2 (Pods), p1win, p2win, p3win
    reason: str = ""
    detail: str = ""
    notes: list[str] = field(default_factory=list)  # per move: what its engine said of it (move_note), or ""
    # per move: the record's move_info (score, depth, nodes, time_ms), None for the opening's moves
    move_info: list[dict | None] = field(default_factory=list)
    # per seat, as the record has it: {"p1": "tc 10+0.1", "p2": "movetime 100"} (time odds); None: not known
    time_control: dict[str, str] | None = None

    @property
    def colours(self) -> tuple[str, ...]:
        """The seats' colours: White, Black; Blue, Yellow(, Red)."""
        return SEAT_COLOURS[self.game][:len(self.seats)]


def default_engine_command() -> list[str]:
    """$PODIUM_BIN, else this checkout's release build, else `podium` on the PATH."""
    if os.environ.get("PODIUM_BIN"):
        return [os.environ["PODIUM_BIN"]]
    built = os.path.join(os.path.dirname(__file__), "..", "..", "target", "release", "podium")
    return [os.path.normpath(built)] if os.path.exists(built) else ["podium"]


def open_engine(command: Sequence[str] | None = None) -> Engine:
    return Engine(list(command or default_engine_command()))


def replay_records(records: Sequence[dict], command: Sequence[str] | None = None) -> list[Replay]:
    """The games of match records, replayed by one engine (open_engine's command)."""
    with open_engine(command) as engine:
        return [replay_record(engine, record) for record in records]


def engine_pictures(engine: Engine, game: str, start: str, moves: Sequence[str]) -> Iterator[list[str]]:
    """The engine's `d` (its board picture, `fen`, `turn`, `game over`) after each of 0 to
    len(moves) moves from start; game is what `newgame` selects: standard, advanced or poldr.
    The one place where this module talks to the engine."""
    engine.new_game(game)
    for ply in range(len(moves) + 1):
        engine.set_position(start, moves[:ply])  # a move the rules refuse raises IllegalMoveError
        engine.driver.send("d")
        yield engine.driver.sync()


def replay_moves(engine: Engine, start: str, moves: Sequence[str], variant: str = "standard") -> Replay:
    """A position line and moves played from it; the seats are named by their colours."""
    game = "poldr" if is_poldr_position(start) else "pods"
    pictures = list(engine_pictures(engine, "poldr" if game == "poldr" else variant, start, moves))
    positions = [read_position(lines, game) for lines in pictures]
    board = PoldrBoard(*poldr_shape(start)) if game == "poldr" else PodsBoard(board_lines(pictures[0]), pod_set(engine))
    return Replay(game, board, list(moves), positions, list(SEAT_COLOURS[game][:players_of(start)]))


def replay_record(engine: Engine, record: dict) -> Replay:
    """A game of a match record (records.py), from the position its opening moves were played from."""
    start, opening_moves = record_start(record)
    replay = replay_moves(engine, start, opening_moves + list(record["moves"]), record.get("variant") or "standard")
    replay.seats = record_engines(record)
    replay.number = record_index(record)
    replay.opening_plies = len(opening_moves)
    replay.result, replay.reason, replay.detail = result_text(record), record["reason"], record.get("detail", "")
    replay.notes = [""] * len(opening_moves) + [move_note(info) for info in record.get("move_info", [])]
    replay.move_info = [None] * len(opening_moves) + list(record.get("move_info", []))
    replay.time_control = record_time_control(record)
    return replay


def record_time_control(record: dict) -> dict[str, str] | None:
    """Each seat's time control as the record gives it, {"p1": "tc 10+0.1", "p2": "movetime 100"}
    (format 2: per seat, as time odds make them differ); None when the record has none."""
    control = record.get("time_control")
    if not isinstance(control, dict) or not all(isinstance(text, str) for text in control.values()):
        return None
    return dict(control)


def move_note(info: dict) -> str:
    """A record's move_info of one move for people: 'cp 35, depth 6, 1234 nodes, 101 ms'."""
    parts = [str(info["score"])] if info.get("score") is not None else []
    if info.get("depth") is not None:
        parts.append(f"depth {info['depth']}")
    if info.get("nodes") is not None:
        parts.append(f"{info['nodes']} nodes")
    if info.get("time_ms") is not None:
        parts.append(f"{info['time_ms']} ms")
    return ", ".join(parts)


def read_position(lines: list[str], game: str) -> Position:
    """A Position from the lines of `d`."""
    fen = _field(lines, "fen ")
    turn = _field(lines, "turn ")
    if fen is None or turn is None:
        raise ReplayError(f"the engine's `d` has no fen or turn line: {lines!r}")
    pieces = poldr_pieces(lines) if game == "poldr" else pods_pieces(board_rows(lines))
    return Position(fen, pieces, turn, _field(lines, "game over: "))


def board_rows(lines: list[str]) -> list[str]:
    """The 11 picture rows that start a Pods `d`, each padded to 11 characters (`d` drops blanks
    at the end of a row, as the rules' picture form allows)."""
    rows = [line.ljust(PODS_PICTURE_SIZE) for line in lines[:PODS_PICTURE_SIZE]]
    if len(rows) != PODS_PICTURE_SIZE or any(len(row) != PODS_PICTURE_SIZE for row in rows):
        raise ReplayError(f"the engine's `d` does not start with an 11-row board picture: {lines!r}")
    return rows


def board_lines(lines: list[str]) -> tuple[str, ...]:
    """The board's picture with `o` on every point: its lines, at the rotation of the game."""
    return tuple("".join("o" if row_index % 2 == 0 and column % 2 == 0 else char for column, char in enumerate(row))
                 for row_index, row in enumerate(board_rows(lines)))


def pods_pieces(rows: list[str]) -> dict[str, str]:
    """Point -> pod letter, from a Pods picture: a point's place holds `o` or the letter of its pod.
    Row r and column c (both even) is the point of file c / 2 and rank 6 - r / 2."""
    pieces = {}
    for rank_row in range(0, PODS_PICTURE_SIZE, 2):
        for file_column in range(0, PODS_PICTURE_SIZE, 2):
            char = rows[rank_row][file_column]
            if char.isalpha() and char != "o":
                pieces[POINTS[(5 - rank_row // 2) * 6 + file_column // 2]] = char
            elif char != "o":
                raise ReplayError(f"the engine's picture has {char!r} at a point: {rows!r}")
    return pieces


def poldr_pieces(lines: list[str]) -> dict[str, str]:
    """Cell -> piece, from a POLD.R grid: `5 . . . . B`, a rank and its cells from file a."""
    pieces = {}
    for line in lines:
        if row := POLDR_ROW_RE.match(line):
            for file_index, char in enumerate(row["cells"].split()):
                if char != ".":
                    pieces[f"{'abcdefghi'[file_index]}{row['rank']}"] = char
    return pieces


def pod_set(engine: Engine) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """The engine's pod set, from `option name Pods type string default A=W:s,E:s;B=N:l,S:s;...`."""
    for line in engine.driver.option_lines:
        if found := POD_OPTION_RE.match(line):
            return parse_pod_set(found["pods"])
    raise ReplayError("the engine declares no Pods option with a default: its pod set is unknown")


def parse_pod_set(text: str) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """`A=W:s,E:s;B=N:l,S:s` -> (("A", (("W", "s"), ("E", "s"))), ("B", (("N", "l"), ("S", "s"))))."""
    pods = []
    for pod in text.split(";"):
        letter, _, legs = pod.partition("=")
        pods.append((letter, tuple(tuple(leg.split(":")) for leg in legs.split(","))))
    return tuple(pods)


def _field(lines: list[str], prefix: str) -> str | None:
    return next((line[len(prefix):].strip() for line in lines if line.startswith(prefix)), None)
