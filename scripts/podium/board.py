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

This module holds the sessions; board_notation.py the paths and marks and the checks of what a
page sends; board_server.py the web server; board_page.py and board_script.py the page.

Python 3.11 standard library only."""

from __future__ import annotations

import os
import queue
import re
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Sequence

from .board_notation import BoardError, click_paths, line_drawing, pasted_position
from .boards import board_svg, symbol_definitions
from .client import AnalysisStream, Engine
from .errors import EngineError, EngineFault, PodiumError
from .notation import fen_fields, is_poldr_position, players_of, seat_to_move
from .pictures import (EVAL_GRAPH_KEY, MOVE_DATA_KEY, OPENING_KEY, POINT_IN_MOVE_RE, board_legend_rows,
                       engine_data, game_outcome, game_title, legend_html)
from .records import RecordsFile, record_engines, record_index, record_rules, record_start, result_text
from .replay import (SEAT_COLOURS, PoldrBoard, PodsBoard, Position, ReplayError, board_lines, pod_set,
                     read_position, replay_record)

GAMES = ("standard", "advanced", "poldr")  # what `newgame` selects
ROTATIONS = (0, 90, 180, 270)
SESSION_RE = re.compile(r"^[A-Za-z0-9_-]{20,64}$")
MOST_LINES = 8  # MultiPV
STOP_WAIT = 5.0  # seconds for a stopped search to give its bestmove before the engine is restarted


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


# -- one page's board and engine


class BoardSession:
    """One page: its engine, the game on its board (a start, moves, the ply shown), the search
    running, and the pages' streams of events. Every call is made under its lock; the search's own
    thread only reads the engine's lines and hands them on."""

    def __init__(self, session_id: str, command: Sequence[str], records: Sequence[RecordsFile],
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
            read = self._records[file]
            # the first record of each number, as the arbiter's report and --resume keep it
            record = next((record for record in read.records if record_index(record) == number), None)
            if record is None:
                raise BoardError(f"{os.path.basename(read.path)} has no game {number}")
            self._stop_search()
            previous = (self.setup, self.start, self.moves, self.ply)
            try:
                replay = replay_record(self.engine, record)  # every move checked by the engine
            except (EngineError, ReplayError) as error:
                self._restore(*previous)
                raise BoardError(f"{_where(read, record)}: cannot be replayed: {error}") from None
            start = replay.positions[0].fen
            rules = record_rules(record)  # records.py has checked every field of the record
            if rules.poldr:
                setup = Setup("poldr", players=rules.players, size=rules.size, bricks=rules.bricks)
            else:
                rotation = int(fen_fields(start)[3]) if fen_fields(start)[3] in ("0", "90", "180", "270") else 0
                setup = Setup(rules.variant, rotation=rotation)
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


def _where(read: RecordsFile, record: dict) -> str:
    """read.where(record) for the page: 'match.jsonl: line 4: game 3', the file by its name alone
    (as the page's list of records files names it)."""
    return os.path.basename(read.path) + read.where(record)[len(read.path):]


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

    def __init__(self, command: Sequence[str], records: Sequence[RecordsFile],
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
        for file, read in enumerate(self.records):
            games, numbers = [], set()
            for record in sorted(read.records, key=record_index):
                if record_index(record) in numbers:
                    continue  # a game recorded twice: the first record is the one load_record opens
                numbers.add(record_index(record))
                seats = " vs ".join(record_engines(record))
                plies = len(record_start(record)[1]) + len(record["moves"])
                games.append({"number": record_index(record),
                              "label": f"Game {record_index(record)}: {seats}, {result_text(record)} ({plies} plies)"})
            listed.append({"file": file, "name": os.path.basename(read.path), "games": games})
        return listed
