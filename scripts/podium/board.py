"""The analysis board: a page, served on 127.0.0.1, on which to set up a position of Pods or POLD.R
(a game's start or a pasted position line), play moves by clicking, take them back, watch the
engine's lines live, and step through the games of a records file with their stored engine data.

    scripts/board.py [--engine CMD] [--port 8765] [--records match.jsonl ...]

Every page opened is a session with an engine process of its own: the engine knows the rules, the
board never does. It gives the legal moves (`moves`), the board (`d`), the position line (`query
fen`), and the lines (`go infinite` with `MultiPV`, ended by `stop`). The page only maps the legal
moves to the things to click: for each move the server gives a path of tokens, `pod:A` (a pod of
the hand), `pt:c3` (a point or cell), `pawn` and `marker` (POLD.R's pieces not yet on the board)
and `pass`; a move is played when its whole path has been clicked.

What the page sends is checked field by field: a move must be one of the legal moves; a position
line goes to the engine as one line of letters, digits, `/`, `,` and `-`, whose errors come back to
the page; a records file is only ever one named on the command line, picked by its number. Nothing
from the page reaches a shell or a file path. The page's live lines come by Server-Sent Events;
when the page goes (its events stream breaks, or it says goodbye as it unloads), its search stops
and its engine is closed.

Python 3.11 standard library only."""

from __future__ import annotations

import json
import os
import queue
import re
import secrets
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, Sequence
from urllib.parse import parse_qs, urlsplit

from .board_page import BOARD_CSS, BOARD_HTML, BOARD_JS
from .boards import board_svg, symbol_definitions
from .client import AnalysisStream, Engine
from .errors import EngineError, EngineFault, PodiumError
from .notation import ANY_MOVE_RE, POLDR_SIDES, fen_fields, is_poldr_position, players_of, seat_to_move
from .pictures import (EVAL_GRAPH_KEY, MOVE_DATA_KEY, OPENING_KEY, POINT_IN_MOVE_RE, board_legend_rows,
                       engine_data, game_outcome, game_title, legend_html)
from .records import load_records, record_engines
from .replay import (SEAT_COLOURS, PoldrBoard, PodsBoard, Position, board_lines, default_engine_command, pod_set,
                     read_position, record_number, replay_record)

GAMES = ("standard", "advanced", "poldr")  # what `newgame` selects
ROTATIONS = (0, 90, 180, 270)
SESSION_RE = re.compile(r"^[A-Za-z0-9_-]{20,64}$")
POSITION_CHARS_RE = re.compile(r"^[A-Za-z0-9/,\- ]+$")  # the characters of both games' position lines
LONGEST_BODY = 64 * 1024  # bytes of a request's JSON
LONGEST_POSITION = 600  # characters of a pasted position line (a 9 x 9 POLD.R line is under 100)
MOST_MOVES = 2000  # moves pasted after a position
MOST_LINES = 8  # MultiPV
PV_DRAWN = 4  # moves of the best line drawn on the board
HEARTBEAT = 2.0  # seconds between two messages of an events stream, so a page gone is noticed
STOP_WAIT = 5.0  # seconds for a stopped search to give its bestmove before the engine is restarted


class BoardError(PodiumError):
    """What the page asked cannot be done: the message says why, on the page."""


@dataclass
class Setup:
    """The game chosen: Pods (standard or advanced, at a rotation) or POLD.R (players, size, bricks)."""
    game: str = "standard"
    rotation: int = 0
    players: int = 2
    size: int = 5
    bricks: int = 16

    @property
    def poldr(self) -> bool:
        return self.game == "poldr"

    def newgame(self, engine: Engine) -> None:
        if self.poldr:
            engine.new_game("poldr", players=self.players, size=self.size, bricks=self.bricks)
        else:
            engine.new_game(self.game, rotation=self.rotation)

    def as_json(self) -> dict:
        return {"game": self.game, "rotation": self.rotation, "players": self.players, "size": self.size,
                "bricks": self.bricks}


@dataclass
class RecordGame:
    """A game of a records file, as the board steps through it."""
    file: int
    number: int
    moves: list[str]
    view: dict  # for the page: title, outcome, colours, openingPlies, movers, info, clocks, evalColours


# -- the moves as paths of clicks


def click_paths(fen: str, pieces: dict[str, str], moves: Sequence[str]) -> list[dict]:
    """Each legal move with the tokens to click to play it (see the module's docstring). Read from
    the notation alone: where the pawn and the mover's marker stand is on the board drawn."""
    paths = []
    if is_poldr_position(fen):
        side = fen_fields(fen)[1]
        pawn = _source(pieces, "P", "pawn")
        marker = _source(pieces, side.upper(), "marker")
        for move in moves:
            if move == "pass":
                path = ["pass"]
            else:
                found = re.fullmatch(r"(?:[Pp]([a-i][1-9]))?(?:[Mm]([a-i][1-9]))?", move)
                pawn_to, marker_to = found.groups() if found else (None, None)
                if pawn_to and marker_to:  # the game's first turn: the pawn, then the marker
                    path = [pawn, f"pt:{pawn_to}", f"pt:{marker_to}"]
                elif pawn_to:
                    path = [pawn, f"pt:{pawn_to}"]
                elif marker_to:
                    path = [marker, f"pt:{marker_to}"]
                else:
                    continue  # not a move this board knows how to click: left out
            paths.append({"move": move, "path": path})
        return paths
    white = fen_fields(fen)[1] == "w"
    for move in moves:
        if "@" in move:
            letter, point = move.split("@")
            paths.append({"move": move, "path": [f"pod:{letter.upper() if white else letter.lower()}", f"pt:{point}"]})
        else:
            paths.append({"move": move, "path": [f"pt:{move[:2]}", f"pt:{move[2:]}"]})
    return paths


def _source(pieces: dict[str, str], piece: str, off_board: str) -> str:
    """The token that picks a POLD.R piece: its cell, or its own token while it is not on the board."""
    return next((f"pt:{point}" for point, standing in pieces.items() if standing == piece), off_board)


def line_drawing(fen: str, pieces: dict[str, str], pv: Sequence[str], limit: int = PV_DRAWN) -> list[dict]:
    """The first moves of a line as marks to draw: {"n": 1, "seat": 0, "from": "c3", "to": "c5",
    "piece": "A"}, no "from" for a piece put on the board, {"pass": true} for a pass. Where the pawn
    and the markers go is followed along the line; nothing else is (no rules here)."""
    marks = []
    if is_poldr_position(fen):
        players = players_of(fen)
        first = POLDR_SIDES.index(fen_fields(fen)[1])
        places = {piece: point for point, piece in pieces.items() if piece in "PBYR"}
        for index, move in enumerate(pv[:limit]):
            seat = (first + index) % players
            if move == "pass":
                marks.append({"n": index + 1, "seat": seat, "pass": True})
                continue
            found = re.fullmatch(r"(?:[Pp]([a-i][1-9]))?(?:[Mm]([a-i][1-9]))?", move)
            if not found:
                break
            for piece, target in (("P", found.group(1)), ("BYR"[seat], found.group(2))):
                if target:
                    mark = {"n": index + 1, "seat": seat, "to": target, "piece": piece}
                    if piece in places:
                        mark["from"] = places[piece]
                    places[piece] = target
                    marks.append(mark)
        return marks
    first = 0 if fen_fields(fen)[1] == "w" else 1
    for index, move in enumerate(pv[:limit]):
        seat = (first + index) % 2
        if "@" in move:
            letter = move[0].upper() if seat == 0 else move[0].lower()
            marks.append({"n": index + 1, "seat": seat, "to": move[2:4], "piece": letter})
        else:
            marks.append({"n": index + 1, "seat": seat, "from": move[:2], "to": move[2:4]})
    return marks


# -- what the page sends, checked


def text_field(body: dict, name: str, longest: int) -> str:
    value = body.get(name)
    if not isinstance(value, str):
        raise BoardError(f"{name}: expected a text")
    if len(value) > longest:
        raise BoardError(f"{name}: longer than {longest} characters")
    return value


def whole_field(body: dict, name: str, low: int, high: int) -> int:
    value = body.get(name)
    if type(value) is not int or not low <= value <= high:
        raise BoardError(f"{name}: expected a whole number from {low} to {high}")
    return value


def choice_field(body: dict, name: str, choices: Sequence) -> object:
    value = body.get(name)
    if value not in choices or isinstance(value, bool):
        raise BoardError(f"{name}: expected one of {', '.join(str(choice) for choice in choices)}")
    return value


def pasted_position(text: str) -> tuple[str, list[str]]:
    """A pasted position line, optionally followed by `moves ...` (and after `position` or `fen`,
    as the protocol writes them): (the line with single spaces, the moves). Only the shape is checked
    here; what the line says is the engine's to judge."""
    words = text.split()  # line breaks and tabs go: the engine is sent one line
    if not words:
        raise BoardError("paste a position line first")
    if words[0] == "position":
        words = words[1:]
    if words[:1] == ["fen"]:
        words = words[1:]
    moves: list[str] = []
    if "moves" in words:
        at = words.index("moves")
        words, moves = words[:at], words[at + 1:]
    line = " ".join(words)
    if len(words) not in (5, 6):
        raise BoardError(f"a position line has 5 fields (Pods) or 6 (POLD.R), not {len(words)}: {line[:80]!r}")
    if not POSITION_CHARS_RE.match(line):
        raise BoardError("a position line is made of letters, digits, '/', ',' and '-' alone")
    if len(moves) > MOST_MOVES:
        raise BoardError(f"at most {MOST_MOVES} moves after a position")
    for move in moves:
        if not ANY_MOVE_RE.match(move):
            raise BoardError(f"{move[:20]!r} is not a move of Pods or POLD.R")
    return line, moves


# -- one page's board and engine


class BoardSession:
    """One page: its engine, the game on its board (a start, moves, the ply shown), the search
    running, and the pages' streams of events. Every call is made under its lock; the search's own
    thread only reads the engine's lines and hands them on."""

    def __init__(self, session_id: str, command: Sequence[str], records: Sequence[tuple[str, list[dict]]],
                 options: dict[str, object]):
        self.id = session_id
        self.lock = threading.RLock()
        self._command = list(command)
        self._options = options
        self._records = records
        self.engine = self._open_engine()
        self.setup = Setup()
        self.start = ""
        self.moves: list[str] = []
        self.ply = 0
        self.record: RecordGame | None = None
        self.multipv = 1
        self.analysing = False  # wanted by the page: it goes on from move to move until turned off
        self.run = 0  # the number of the last search started; the page drops lines of older ones
        self._search: threading.Thread | None = None
        self._subscribers: list[queue.Queue] = []
        self._subscribers_lock = threading.Lock()
        self.seen = time.monotonic()
        self.closed = False
        self.view: dict = {}
        self.new_game(Setup())

    def _open_engine(self) -> Engine:
        return Engine(self._command, options=self._options, timeout=10.0, search_timeout=3600.0)

    # -- the events streams

    def subscribe(self) -> queue.Queue:
        stream: queue.Queue = queue.Queue()
        with self._subscribers_lock:
            self._subscribers.append(stream)
        return stream

    def unsubscribe(self, stream: queue.Queue) -> bool:
        """True when that was the last stream: nobody watches the board any more."""
        with self._subscribers_lock:
            if stream in self._subscribers:
                self._subscribers.remove(stream)
            self.seen = time.monotonic()
            return not self._subscribers

    @property
    def watched(self) -> bool:
        with self._subscribers_lock:
            return bool(self._subscribers)

    def publish(self, event: dict | None) -> None:
        with self._subscribers_lock:
            for stream in self._subscribers:
                stream.put(event)

    # -- the game

    def new_game(self, setup: Setup) -> dict:
        with self.lock:
            self._stop_search()
            previous = (self.setup, self.start, self.moves, self.ply)
            try:
                setup.newgame(self.engine)
                self.engine.set_position("startpos")
                start = self.engine.fen()
            except EngineError as error:
                self._restore(*previous)
                raise BoardError(f"the engine refused the game: {error}") from None
            self.setup, self.start, self.moves, self.ply, self.record = setup, start, [], 0, None
            return self._refresh()

    def set_position(self, text: str, variant: str) -> dict:
        """A pasted position line (and moves after it); an error leaves the board as it was."""
        line, moves = pasted_position(text)
        with self.lock:
            self._stop_search()
            previous = (self.setup, self.start, self.moves, self.ply)
            if is_poldr_position(line):
                reserves = fen_fields(line)[2].split(",")
                setup = Setup("poldr", players=len(reserves), size=len(fen_fields(line)[0].split("/")),
                              bricks=self.setup.bricks)
                setup.players = min(max(setup.players, 2), 3)
                setup.size = min(max(setup.size, 4), 9)
            else:
                rotation = int(fen_fields(line)[3]) if fen_fields(line)[3] in ("0", "90", "180", "270") else 0
                setup = Setup(variant, rotation=rotation)
            try:
                self.engine.new_game("poldr" if setup.poldr else setup.game)
                self.engine.set_position(line, moves)
            except EngineError as error:
                self._restore(*previous)
                raise BoardError(f"not a position the engine can play: {error}") from None
            self.setup, self.start, self.moves, self.ply, self.record = setup, line, moves, len(moves), None
            return self._refresh()

    def play(self, move: str) -> dict:
        with self.lock:
            legal = {entry["move"] for entry in self.view.get("legal", [])}
            if move not in legal:
                raise BoardError(f"{move[:20]!r} is not a legal move here")
            self._stop_search()
            if self.ply < len(self.moves) and self.moves[self.ply] == move:
                self.ply += 1  # the line already goes on with this move: keep what follows
            else:
                self.moves = self.moves[:self.ply] + [move]
                self.ply += 1
            return self._refresh()

    def goto(self, ply: int) -> dict:
        with self.lock:
            if not 0 <= ply <= len(self.moves):
                raise BoardError(f"ply: expected 0 to {len(self.moves)}")
            self._stop_search()
            self.ply = ply
            return self._refresh()

    def load_record(self, file: int, number: int, ply: int | None = None) -> dict:
        """A game of a records file named on the command line, at ply (None: its end)."""
        with self.lock:
            if not 0 <= file < len(self._records):
                raise BoardError("no such records file")
            record = next((record for record in self._records[file][1] if record_number(record) == number), None)
            if record is None:
                raise BoardError(f"{os.path.basename(self._records[file][0])} has no game {number}")
            self._stop_search()
            previous = (self.setup, self.start, self.moves, self.ply)
            try:
                replay = replay_record(self.engine, record)  # every move checked by the engine
            except EngineError as error:
                self._restore(*previous)
                raise BoardError(f"game {number} cannot be replayed: {error}") from None
            start = replay.positions[0].fen
            if replay.game == "poldr":
                players, size = players_of(start), len(fen_fields(start)[0].split("/"))
                bricks = record.get("bricks") if type(record.get("bricks")) is int else self.setup.bricks
                setup = Setup("poldr", players=players, size=size, bricks=min(max(bricks, 1), 40))
            else:
                rotation = int(fen_fields(start)[3]) if fen_fields(start)[3] in ("0", "90", "180", "270") else 0
                variant = record.get("variant") if record.get("variant") in ("standard", "advanced") else "standard"
                setup = Setup(variant, rotation=rotation)
            self.engine.new_game("poldr" if setup.poldr else setup.game)
            view = {"title": game_title(replay), "outcome": game_outcome(replay), "colours": list(replay.colours),
                    "seats": record_engines(record), "openingPlies": replay.opening_plies, **engine_data(replay)}
            self.record = RecordGame(file, number, list(replay.moves), view)
            self.setup, self.start, self.moves = setup, start, list(replay.moves)
            self.ply = len(self.moves) if ply is None else min(max(ply, 0), len(self.moves))
            return self._refresh()

    def set_analysis(self, on: bool, multipv: int) -> dict:
        with self.lock:
            self._stop_search()
            self.analysing, self.multipv = on, multipv
            return self._refresh()

    def state(self) -> dict:
        with self.lock:
            return self._state()

    def recover(self) -> None:
        """After the engine failed (crashed, hung, printed garbage): a fresh one, the search off,
        the board as it was."""
        with self.lock:
            search, self._search = self._search, None
            self.analysing = False
            self._restart_engine()
            if search is not None:
                search.join(STOP_WAIT)
            self._restore(self.setup, self.start, self.moves, self.ply)
            self._refresh()

    # -- the inner workings

    def _restore(self, setup: Setup, start: str, moves: list[str], ply: int) -> None:
        """Back to the board as it was before a request the engine refused."""
        try:
            if start:
                self.engine.new_game("poldr" if setup.poldr else setup.game)
                self.engine.set_position(start, moves[:ply])
        except PodiumError:
            self._restart_engine()
            if start:
                self.engine.new_game("poldr" if setup.poldr else setup.game)
                self.engine.set_position(start, moves[:ply])

    def _restart_engine(self) -> None:
        self.engine.close()
        self.engine = self._open_engine()

    def _refresh(self) -> dict:
        """The board at the ply shown, drawn and listed by the engine; then the search again if the
        page wants one."""
        game = "poldr" if self.setup.poldr else "pods"
        self.engine.set_position(self.start, self.moves[:self.ply])
        self.engine.driver.send("d")
        lines = self.engine.driver.sync()
        position = read_position(lines, game)
        board = PoldrBoard(len(fen_fields(position.fen)[0].split("/")), players_of(position.fen)) if game == "poldr" \
            else PodsBoard(board_lines(lines), pod_set(self.engine))
        legal = [] if position.over else self.engine.legal_moves()
        self.view = {"game": game, "position": position, "board": board,
                     "legal": click_paths(position.fen, position.pieces, legal)}
        if self.analysing and not position.over:
            self._start_search(position)
        return self._state()

    def _state(self) -> dict:
        position: Position = self.view["position"]
        board = self.view["board"]
        game = self.view["game"]
        boards = {board: "board-main"}
        record = None
        if self.record is not None:
            agreeing = 0
            while agreeing < min(len(self.moves), len(self.record.moves)) and \
                    self.moves[agreeing] == self.record.moves[agreeing]:
                agreeing += 1
            record = {**self.record.view, "file": self.record.file, "number": self.record.number,
                      "moves": self.record.moves, "agreeing": agreeing}
        rows = board_legend_rows({game: board}) + BOARD_KEYS + ([MOVE_DATA_KEY, OPENING_KEY, EVAL_GRAPH_KEY]
                                                                if record else [])
        colours = SEAT_COLOURS[game][:players_of(position.fen)]
        return {
            "setup": self.setup.as_json(), "game": game, "start": self.start, "moves": self.moves, "ply": self.ply,
            "fen": position.fen, "turn": position.turn, "over": position.over, "colours": list(colours),
            "toMove": None if position.over else int(seat_to_move(position.fen)[1:]) - 1,
            "last": POINT_IN_MOVE_RE.findall(self.moves[self.ply - 1]) if self.ply else [],
            "svg": symbol_definitions(boards) + board_svg(board, "board-main", position),
            "legal": self.view["legal"], "record": record, "legend": legend_html(rows),
            "analysis": {"on": self.analysing, "multipv": self.multipv, "run": self.run},
        }

    def _start_search(self, position: Position) -> None:
        self.run += 1
        run = self.run
        stream = self.engine.analysis(multipv=self.multipv)  # go infinite on the position just set
        self._search = threading.Thread(target=self._pump, args=(stream, run, position), name=f"search {self.id[:6]}",
                                        daemon=True)
        self._search.start()

    def _pump(self, stream: AnalysisStream, run: int, position: Position) -> None:
        """The search's lines, to the page, until its bestmove."""
        try:
            for info in stream:
                pv = info.get("pv", [])
                self.publish({"type": "line", "run": run, "multipv": info.get("multipv", 1),
                              "depth": info.get("depth"), "seldepth": info.get("seldepth"),
                              "score": str(info["score"]), "nodes": info.get("nodes"), "nps": info.get("nps"),
                              "time": info.get("time"), "pv": pv,
                              "drawing": line_drawing(position.fen, position.pieces, pv)})
            self.publish({"type": "done", "run": run, "bestmove": stream.bestmove})
        except PodiumError as error:
            self.publish({"type": "error", "run": run, "message": f"the search failed: {error}"})

    def _stop_search(self) -> None:
        """Ends the search under way, if any, and waits for its bestmove (the engine is then in step)."""
        search, self._search = self._search, None
        if search is None:
            return
        if search.is_alive():
            try:
                self.engine.driver.send("stop")
            except EngineFault:
                pass
            search.join(STOP_WAIT)
        if search.is_alive():  # no bestmove: a fresh engine, in the same position
            self._restart_engine()
            search.join(STOP_WAIT)
            self._restore(self.setup, self.start, self.moves, self.ply)

    def stop_search(self) -> None:
        """The page stopped watching: no search goes on for nobody."""
        with self.lock:
            self.analysing = False
            self._stop_search()

    def close(self) -> None:
        with self.lock:
            if self.closed:
                return
            self.closed = True
            try:
                self._stop_search()
            finally:
                self.engine.close()
        self.publish(None)  # ends the events streams


BOARD_KEYS = [
    ('<svg class="key board" viewBox="-20 -20 40 40" width="36" height="36"><circle class="target-dot" r="9"/>'
     '</svg>', "a point or cell the piece chosen can go to (click it to play)"),
    ('<svg class="key board" viewBox="-20 -20 40 40" width="36" height="36"><circle class="choice-ring" r="16"/>'
     '</svg>', "something to click first: a pod of the hand, a pod or piece on the board; the chosen one "
     "is ringed in blue"),
    ('<svg class="key board" viewBox="-20 -20 40 40" width="36" height="36"><path class="pv-arrow" '
     'd="M-14 10L8 -8" stroke="#2a7d4f"/><circle class="pv-badge" cx="-12" cy="12" r="7" fill="#2a7d4f"/>'
     '<text class="pv-number" x="-12" y="15.5">1</text></svg>',
     "the engine&#x2019;s best line: its moves numbered 1, 2, 3, 4 in the mover&#x2019;s colour; a ring where a "
     "piece is put on the board"),
]


# -- the sessions of the server


class Sessions:
    """The boards open: created by a page, closed when it goes (or after `idle` seconds without a
    stream of events), at most `limit` at once."""

    def __init__(self, command: Sequence[str], records: Sequence[tuple[str, list[dict]]],
                 options: dict[str, object], limit: int = 8, idle: float = 60.0):
        self.command, self.records, self.options, self.limit, self.idle = list(command), records, options, limit, idle
        self._lock = threading.Lock()
        self._sessions: dict[str, BoardSession] = {}

    def create(self) -> BoardSession:
        self.reap()
        with self._lock:
            if len(self._sessions) >= self.limit:
                unwatched = [session for session in self._sessions.values() if not session.watched]
                if not unwatched:
                    raise BoardError(f"{self.limit} boards are open already: close one first")
                oldest = min(unwatched, key=lambda session: session.seen)
                del self._sessions[oldest.id]
            else:
                oldest = None
        if oldest is not None:
            oldest.close()
        session = BoardSession(secrets.token_urlsafe(24), self.command, self.records, self.options)
        with self._lock:
            self._sessions[session.id] = session
        return session

    def get(self, session_id: object) -> BoardSession:
        if not isinstance(session_id, str) or not SESSION_RE.match(session_id):
            raise BoardError("session: missing or malformed")
        with self._lock:
            session = self._sessions.get(session_id)
        if session is None:
            raise BoardError("this board was closed: reload the page")
        session.seen = time.monotonic()
        return session

    def close(self, session_id: str) -> None:
        with self._lock:
            session = self._sessions.pop(session_id, None)
        if session is not None:
            session.close()

    def reap(self) -> None:
        """Closes the boards no page has watched for `idle` seconds."""
        now = time.monotonic()
        with self._lock:
            gone = [session for session in self._sessions.values()
                    if not session.watched and now - session.seen > self.idle]
            for session in gone:
                del self._sessions[session.id]
        for session in gone:
            session.close()

    def close_all(self) -> None:
        with self._lock:
            sessions = list(self._sessions.values())
            self._sessions.clear()
        for session in sessions:
            session.close()

    def count(self) -> int:
        with self._lock:
            return len(self._sessions)

    def records_index(self) -> list[dict]:
        """The records files named on the command line and their games, for the page's list."""
        listed = []
        for file, (path, records) in enumerate(self.records):
            games = []
            for record in sorted(records, key=record_number):
                seats = " vs ".join(record_engines(record))
                plies = len(record.get("opening_moves", [])) + len(record.get("moves", []))
                games.append({"number": record_number(record),
                              "label": f"Game {record_number(record)}: {seats}, {record['result']} ({plies} plies)"})
            listed.append({"file": file, "name": os.path.basename(path), "games": games})
        return listed


# -- the web server


class BoardServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], sessions: Sessions, log: Callable[[str], None] | None = None):
        self.sessions = sessions
        self.log = log or (lambda message: None)
        self.closing = threading.Event()
        super().__init__(address, BoardHandler)
        host, port = self.server_address[:2]
        self.loopback = host in ("127.0.0.1", "::1", "localhost") or host.startswith("127.")
        names = {host, "127.0.0.1", "localhost", "[::1]"} if self.loopback else set()
        self.allowed_hosts = {f"{name}:{port}" for name in names}
        self._reaper = threading.Thread(target=self._reap, name="board reaper", daemon=True)
        self._reaper.start()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{'[' + host + ']' if ':' in host else host}:{port}/"

    def _reap(self) -> None:
        while not self.closing.wait(5.0):
            try:
                self.sessions.reap()
            except Exception:  # noqa: BLE001 - the reaper must outlive any one session's trouble
                self.log(traceback.format_exc())

    def shutdown(self) -> None:
        self.closing.set()
        self.sessions.close_all()
        super().shutdown()


class BoardHandler(BaseHTTPRequestHandler):
    server: BoardServer
    server_version = "PodiumBoard"
    sys_version = ""

    STATIC = {"/": ("text/html; charset=utf-8", BOARD_HTML), "/board.js": ("text/javascript; charset=utf-8", BOARD_JS),
              "/board.css": ("text/css; charset=utf-8", BOARD_CSS)}
    ACTIONS = ("session", "new", "position", "move", "goto", "analysis", "record", "close", "state")

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        self.server.log(f"{self.address_string()} {format % args}")

    # -- answers

    def _headers(self, status: int, content_type: str, length: int | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        if length is not None:
            self.send_header("Content-Length", str(length))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                         "script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; "
                         "frame-ancestors 'none'")
        self.end_headers()

    def _send(self, status: int, content_type: str, body: bytes) -> None:
        self._headers(status, content_type, len(body))
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, answer: dict) -> None:
        self._send(status, "application/json", json.dumps(answer).encode("utf-8"))

    def _refuse(self, status: int, message: str) -> None:
        self._json(status, {"ok": False, "error": message})

    def _host_allowed(self) -> bool:
        """On loopback, only pages of this server: another site's page cannot reach it through a
        name of its own that points here."""
        if not self.server.loopback:
            return True
        return self.headers.get("Host", "") in self.server.allowed_hosts

    # -- requests

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        if not self._host_allowed():
            return self._refuse(HTTPStatus.MISDIRECTED_REQUEST, "unknown host")
        url = urlsplit(self.path)
        if url.path in self.STATIC:
            content_type, text = self.STATIC[url.path]
            return self._send(HTTPStatus.OK, content_type, text.encode("utf-8"))
        if url.path == "/api/events":
            return self._events(parse_qs(url.query).get("session", [""])[0])
        if url.path == "/favicon.ico":
            return self._send(HTTPStatus.NO_CONTENT, "text/plain", b"")
        return self._refuse(HTTPStatus.NOT_FOUND, "not found")

    def do_POST(self) -> None:  # noqa: N802 - the base class's name
        if not self._host_allowed():
            return self._refuse(HTTPStatus.MISDIRECTED_REQUEST, "unknown host")
        origin = self.headers.get("Origin")
        if origin is not None and origin != f"http://{self.headers.get('Host', '')}":
            return self._refuse(HTTPStatus.FORBIDDEN, "requests come from the board's own page only")
        if not self.headers.get("Content-Type", "").startswith("application/json"):
            return self._refuse(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "expected JSON")
        action = urlsplit(self.path).path.removeprefix("/api/")
        if action not in self.ACTIONS:
            return self._refuse(HTTPStatus.NOT_FOUND, "not found")
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            return self._refuse(HTTPStatus.LENGTH_REQUIRED, "expected a Content-Length")
        if not 0 <= length <= LONGEST_BODY:
            return self._refuse(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "request too large")
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError):
            return self._refuse(HTTPStatus.BAD_REQUEST, "expected a JSON object")
        if not isinstance(body, dict):
            return self._refuse(HTTPStatus.BAD_REQUEST, "expected a JSON object")
        try:
            answer = self._act(action, body)
        except BoardError as error:
            return self._refuse(HTTPStatus.BAD_REQUEST, str(error))
        except EngineError as error:
            return self._refuse(HTTPStatus.BAD_REQUEST, f"the engine refused: {error}")
        except PodiumError as error:  # the engine failed: a fresh one takes its place
            self.server.log(f"board: engine trouble: {error}")
            message = f"the engine failed ({error}): it was restarted"
            try:
                self.server.sessions.get(body.get("session")).recover()
            except PodiumError as again:
                message = f"the engine failed ({error}) and could not be restarted ({again}): reload the page"
            return self._refuse(HTTPStatus.INTERNAL_SERVER_ERROR, message)
        except Exception:  # noqa: BLE001 - one request's bug is an error on the page, not the end of the server
            self.server.log(traceback.format_exc())
            return self._refuse(HTTPStatus.INTERNAL_SERVER_ERROR, "internal error (see the server's output)")
        return self._json(HTTPStatus.OK, {"ok": True, **answer})

    def _act(self, action: str, body: dict) -> dict:
        sessions = self.server.sessions
        if action == "session":
            session = sessions.create()
            return {"session": session.id, "state": session.state(), "records": sessions.records_index(),
                    "limits": {"multipv": MOST_LINES}}
        session = sessions.get(body.get("session"))
        if action == "close":
            sessions.close(session.id)
            return {}
        if action == "state":
            return {"state": session.state()}
        if action == "new":
            game = choice_field(body, "game", GAMES)
            if game == "poldr":
                setup = Setup("poldr", players=whole_field(body, "players", 2, 3), size=whole_field(body, "size", 4, 9),
                              bricks=whole_field(body, "bricks", 1, 40))
            else:
                setup = Setup(game, rotation=choice_field(body, "rotation", ROTATIONS))
            return {"state": session.new_game(setup)}
        if action == "position":
            variant = choice_field(body, "variant", ("standard", "advanced"))
            return {"state": session.set_position(text_field(body, "position", LONGEST_POSITION + 20 * MOST_MOVES),
                                                  variant)}
        if action == "move":
            return {"state": session.play(text_field(body, "move", 16))}
        if action == "goto":
            return {"state": session.goto(whole_field(body, "ply", 0, 1_000_000))}
        if action == "analysis":
            on = body.get("on")
            if not isinstance(on, bool):
                raise BoardError("on: expected true or false")
            return {"state": session.set_analysis(on, whole_field(body, "multipv", 1, MOST_LINES))}
        if action == "record":
            ply = None if body.get("ply") is None else whole_field(body, "ply", 0, 1_000_000)
            return {"state": session.load_record(whole_field(body, "file", 0, 10_000),
                                                 whole_field(body, "game", 1, 10_000_000), ply)}
        raise BoardError("not found")

    def _events(self, session_id: str) -> None:
        """The session's events as Server-Sent Events, a comment every HEARTBEAT seconds between
        them; when the page is gone (a write fails) and no other stream watches, the search stops."""
        try:
            session = self.server.sessions.get(session_id)
        except BoardError as error:
            return self._refuse(HTTPStatus.NOT_FOUND, str(error))
        stream = session.subscribe()
        try:
            self._headers(HTTPStatus.OK, "text/event-stream")
            self.wfile.write(b"retry: 3000\n\n")
            self.wfile.flush()
            while not self.server.closing.is_set():
                try:
                    event = stream.get(timeout=HEARTBEAT)
                except queue.Empty:
                    payload = ": still here\n\n"
                else:
                    if event is None:
                        break
                    payload = f"data: {json.dumps(event)}\n\n"
                self.wfile.write(payload.encode("utf-8"))
                self.wfile.flush()
        except OSError:  # the page went away
            pass
        finally:
            if session.unsubscribe(stream) and not session.closed:
                session.stop_search()
                self.server.log(f"board: session {session.id[:6]}: no page watches it: its search is stopped")


# -- starting it


def records_files(paths: Sequence[str]) -> list[tuple[str, list[dict]]]:
    """The records files named on the command line, read once (a file that cannot be read is a
    UsageError or an OSError, said at start-up)."""
    return [(path, load_records(path)) for path in paths]


def serve(host: str = "127.0.0.1", port: int = 8765, command: Sequence[str] | None = None,
          records: Sequence[str] = (), options: dict[str, object] | None = None, limit: int = 8,
          ready: Callable[[BoardServer], None] | None = None, log: Callable[[str], None] | None = None) -> None:
    """Serves the board until interrupted (Ctrl-C), then closes every engine."""
    command = list(command or default_engine_command())
    with Engine(command):  # the engine starts, or this says why at once
        pass
    sessions = Sessions(command, records_files(records), options or {}, limit=limit)
    server = BoardServer((host, port), sessions, log)
    if ready is not None:
        ready(server)
    try:
        server.serve_forever(poll_interval=0.25)
    except KeyboardInterrupt:
        pass
    finally:
        server.closing.set()
        sessions.close_all()
        server.server_close()


def stderr_log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
