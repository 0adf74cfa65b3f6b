"""The Python client: drive a Podium engine from a script.

    from podium import Engine

    with Engine("target/release/podium") as engine:
        for line in engine.analyse("startpos", depth=6, multipv=3):
            print(line["multipv"], line["score"], " ".join(line["pv"]))

It is built on the engine driver (protocol.py), the code the arbiter plays its matches with. Every
call waits at most `timeout` seconds for the engine's answer (a search: its movetime or clock plus
`timeout`, or `search_timeout` under depth or nodes alone) and raises EngineTimeout past that. A
command the engine refuses (`info string error`), or carries out without some of its words
(`info string warning: ... (ignored)`: new_game("chess") still starts a new game), raises
EngineError with the engine's own message; an illegal move among a position's moves raises
IllegalMoveError. Arguments of the wrong kind raise ValueError or TypeError before anything is
sent.

Positions are given as "startpos" or a position line, either optionally followed by
"moves <move> ...", plus the `moves` argument's moves after them. Scores are Score objects, from
the side to move's view unless `view` names another seat (two players only: with three, the
protocol gives the mover's view alone)."""

from __future__ import annotations

import os
import re
from typing import Callable, Mapping, Sequence

from .errors import EngineError, IllegalMoveError, PerspectiveError, ProtocolError
from .notation import NO_MOVE, players_of
from .protocol import EngineDriver, Search, Timeouts, info_messages, parse_info, position_command

SEATS = ("p1", "p2", "p3")
ILLEGAL_MOVE_RE = re.compile(r"^illegal move (?P<move>\S+) at index (?P<index>\d+)")
# How the engine's warnings about words it did not use end (protocol.md, "Errors and warnings").
IGNORED = " (ignored)"
MOVES_WORD_RE = re.compile(r"\s+moves(?:\s+|$)")


class Engine:
    """One engine process and the calls a script needs; use it as a context manager, or call close().

    command: the engine's path, or its argv as a list; options: set at once (setoption);
    timeout: seconds to wait for any answer; search_timeout: for a search limited by depth or
    nodes only; cwd: the engine's working directory."""

    def __init__(self, command: str | Sequence[str], *, options: Mapping[str, object] | None = None,
                 timeout: float = 10.0, search_timeout: float = 60.0, cwd: str | None = None):
        argv = [command] if isinstance(command, str) else list(command)
        self.timeout = timeout
        self.driver = EngineDriver(argv, os.path.basename(argv[0]), Timeouts(timeout, timeout, search_timeout), cwd)
        # the `info string warning` messages of the last command checked that refused nothing (a warning
        # that ignored part of the command raises instead): Threads beyond the machine's, Hash cut short
        self.warnings: list[str] = []
        self._search: Search | None = None  # the search under way, until its bestmove is read
        self._multipv = 1
        try:
            self.driver.start()
            for name, value in (options or {}).items():
                self.set_option(name, value)
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *_exception) -> None:
        self.close()

    def close(self) -> None:
        """`quit` (which also stops a search), then whatever is left of the process is killed."""
        self._search = None
        self.driver.close()

    @property
    def name(self) -> str:
        """The engine's `id name`."""
        return self.driver.id_name

    @property
    def options(self) -> list[str]:
        """The names of the options the engine declares."""
        return list(self.driver.options.values())

    @property
    def pid(self) -> int | None:
        return self.driver.process.pid if self.driver.process else None

    # -- settings and positions

    def set_option(self, name: str, value: object = None) -> None:
        """`setoption name <name> value <value>`; no value for a button (`Clear Hash`); True and False
        are written true and false."""
        text = None if value is None else str(value).lower() if isinstance(value, bool) else str(value)
        self._settle()
        self.driver.set_option(name, text)
        self._confirm(f"setoption name {name}" + ("" if text is None else f" value {text}"))
        if name.lower() == "multipv":
            self._multipv = int(text)

    def new_game(self, game: str | None = None, **settings: object) -> None:
        """A new game. Without arguments `uginewgame` (the same game from its start); otherwise
        `newgame <game> [<setting> <value> ...]`: game "standard" or "advanced" (Pods, rotation=)
        or "poldr" (players=, size=, bricks=); a setting not named keeps its value."""
        if game is None and not settings:
            self._command("uginewgame")
            return
        words = ["newgame", *([game] if game else []), *(f"{setting} {value}" for setting, value in settings.items())]
        self._command(" ".join(words))

    def set_position(self, position: str = "startpos", moves: Sequence[str] = ()) -> None:
        """Sets the game. A position the engine cannot read raises EngineError (the old position
        stays); an illegal move raises IllegalMoveError, and the game is then over, lost by the side
        that tried it."""
        self._command(_position_command(position, moves))

    # -- searches

    def analyse(self, position: str | None = None, moves: Sequence[str] = (), *, depth: int | None = None,
                movetime: int | None = None, nodes: int | None = None, multipv: int = 1, view: str | None = None,
                timeout: float | None = None) -> list[dict]:
        """Searches (position None: the current one) to the limits given and returns the final line
        of each of the `multipv` best moves, best first, as info dictionaries: multipv, depth,
        seldepth, score (a Score), nodes, nps, hashfull, time, pv (a list of moves). No line when the
        game is over. view: "p1", "p2" or "p3" for the scores from that seat's view."""
        limits = _limits(depth=depth, movetime=movetime, nodes=nodes)
        if not limits:
            raise ValueError("analyse needs depth=, movetime= or nodes= (analysis() runs a search without end)")
        search, to_view = self._start_search(position, moves, limits, multipv, view, self._search_wait(limits, timeout))
        lines: dict[int, dict] = {}
        while (line := search.next_info()) is not None:
            if (info := _search_result(line)) is not None:
                lines[info["multipv"]] = to_view(info)
        self._end_search(search)
        return [lines[number] for number in sorted(lines)]

    def analysis(self, position: str | None = None, moves: Sequence[str] = (), *, multipv: int = 1,
                 view: str | None = None, depth: int | None = None, movetime: int | None = None,
                 nodes: int | None = None) -> AnalysisStream:
        """Starts a search (`go infinite` without limits) and returns its lines as they come, info
        dictionaries as analyse() gives them; the search ends at its limits, on stop(), on leaving a
        `with` block of the stream, or at the next call on the engine. At most `search_timeout`
        seconds may pass between two lines of the engine."""
        limits = _limits(depth=depth, movetime=movetime, nodes=nodes)
        search, to_view = self._start_search(position, moves, limits, multipv, view, None)
        return AnalysisStream(self, search, to_view)

    def play(self, position: str | None = None, moves: Sequence[str] = (), *, depth: int | None = None,
             movetime: int | None = None, nodes: int | None = None, times: Mapping[str, int] | None = None,
             increments: Mapping[str, int] | None = None, timeout: float | None = None) -> str | None:
        """The engine's move in the position (None: the current one), or None when the game is over.
        times and increments: milliseconds per seat ({"p1": 60000, "p2": 60000}), a clock."""
        limits = _limits(depth=depth, movetime=movetime, nodes=nodes, times=times, increments=increments)
        if not limits:
            raise ValueError("play needs depth=, movetime=, nodes= or times=")
        search, _ = self._start_search(position, moves, limits, 1, None, self._search_wait(limits, timeout))
        search.finish()
        self._end_search(search)
        return None if search.bestmove == NO_MOVE else search.bestmove

    def stop(self) -> None:
        """Stops a search still running (a stream's), reading its bestmove."""
        self._settle()

    # -- questions about the current position

    def legal_moves(self) -> list[str]:
        """The legal moves, in the engine's order; none when the game is over."""
        self._settle()
        listed = self.driver.listed_moves()
        if listed is None:
            raise ProtocolError(self.driver.label, f"no line of moves in answer to `moves`")
        return listed

    def is_legal(self, move: str) -> bool:
        return self._true(f"islegal {move}")

    def is_game_over(self) -> bool:
        return self._true("gameover")

    def result(self) -> str | None:
        """p1win, p2win, p3win or draw (Pods), None while the game is on."""
        answer = self._query("result")
        return None if answer == "none" else answer

    def turn(self) -> str:
        """The seat to move: p1, p2 or p3."""
        return self._query("turn")

    def fen(self) -> str:
        """The current position line."""
        return self._query("fen")

    # -- the inner workings

    def _settle(self) -> None:
        """Stops a search still under way (a stream left running, a wait that timed out) and reads
        its bestmove, so that what the engine prints next answers the next command."""
        search, self._search = self._search, None
        if search is not None:
            search.stop()

    def _command(self, line: str) -> None:
        self._settle()
        self.driver.send(line)
        self._confirm(line)

    def _confirm(self, command: str) -> list[str]:
        """isready -> readyok, and returns the lines before it. An error the engine printed refused
        the command; a warning that it ignored some of the command's words means the command was not
        carried out as the caller wrote it: both raise EngineError."""
        lines = self.driver.sync()
        warnings = info_messages(lines, "warning")
        errors = info_messages(lines, "error")
        errors += [message for message in warnings if message.endswith(IGNORED)]
        self.warnings = [message for message in warnings if not message.endswith(IGNORED)]
        if errors:
            raise _refusal(errors[0], command)
        return lines

    def _query(self, question: str) -> str:
        self._settle()
        command = f"query {question}"
        self.driver.send(command)
        answers = [line[len("response "):].strip() for line in self._confirm(command) if line.startswith("response ")]
        if len(answers) != 1:
            raise ProtocolError(self.driver.label, f"{command} answered {len(answers)} response lines, not one")
        return answers[0]

    def _true(self, question: str) -> bool:
        answer = self._query(question)
        if answer not in ("true", "false"):
            raise ProtocolError(self.driver.label, f"query {question} answered {answer!r}, not true or false")
        return answer == "true"

    def _search_wait(self, limits: dict[str, int], timeout: float | None) -> float:
        """How long a search may take: the caller's timeout, else its movetime or the longest clock
        plus the answer timeout, else (depth, nodes) the search timeout."""
        if timeout is not None:
            return timeout
        times = [milliseconds for name, milliseconds in limits.items() if name.endswith("time")]  # movetime, p1time
        return max(times) / 1000 + self.timeout if times else self.driver.timeouts.stall

    def _start_search(self, position: str | None, moves: Sequence[str], limits: dict[str, int], multipv: int,
                      view: str | None, wait: float | None) -> tuple[Search, Callable[[dict], dict]]:
        if position is not None:
            self.set_position(position, moves)
        elif moves:
            raise ValueError("moves need a position to start from")
        to_view = self._view(view)
        if multipv != self._multipv:
            self.set_option("MultiPV", multipv)
        self._settle()
        words = [f"{name} {value}" for name, value in limits.items()] or ["infinite"]
        self._search = self.driver.go(" ".join(["go", *words]), wait)
        return self._search, to_view

    def _end_search(self, search: Search) -> None:
        """A search read up to its bestmove: an error it printed (a limit refused) is raised."""
        if self._search is search:
            self._search = None
        if search.errors:
            raise _refusal(search.errors[0], search.command)

    def _view(self, view: str | None) -> Callable[[dict], dict]:
        """What turns an info dictionary's score, from the side to move's view, into view's."""
        if view is None:
            return _unchanged
        turn = self._query("turn")
        players = players_of(self._query("fen"))
        if view not in SEATS[:players]:
            raise PerspectiveError(f"view {view!r}: the seats of this game are {', '.join(SEATS[:players])}")
        if view == turn:
            return _unchanged
        if players > 2:
            raise PerspectiveError(f"with three players a score is known from the side to move's view only "
                                   f"({turn}), not from {view}'s")
        return _negated


class AnalysisStream:
    """The lines of a running search as they come (info dictionaries, as Engine.analyse gives them),
    until the search ends at its limits or is stopped: stop(), the end of a `with` block, or any
    other call on the engine. bestmove is then the search's move (None if the game is over)."""

    def __init__(self, engine: Engine, search: Search, to_view: Callable[[dict], dict]):
        self._engine = engine
        self._search = search
        self._to_view = to_view

    def __iter__(self) -> AnalysisStream:
        return self

    def __next__(self) -> dict:
        while (line := self._search.next_info()) is not None:
            if (info := _search_result(line)) is not None:
                return self._to_view(info)
        self._engine._end_search(self._search)
        raise StopIteration

    def __enter__(self) -> AnalysisStream:
        return self

    def __exit__(self, *_exception) -> None:
        self.stop()

    @property
    def done(self) -> bool:
        return self._search.done

    @property
    def bestmove(self) -> str | None:
        return None if self._search.bestmove in (None, NO_MOVE) else self._search.bestmove

    def stop(self) -> str | None:
        """Ends the search (if it still runs) and returns its best move."""
        if self._engine._search is self._search:
            self._engine._settle()
        else:
            self._search.stop()
        return self.bestmove


def _position_command(position: str, moves: Sequence[str]) -> str:
    """"startpos" or a position line ("position " and "fen " before it are allowed, as in a line of
    `podium analyse --positions`), optionally followed by "moves ...", then the moves given apart."""
    if not isinstance(position, str):
        raise TypeError(f"position: 'startpos' or a position line, not {position!r}")
    if isinstance(moves, str) or not all(isinstance(move, str) for move in moves):
        raise TypeError(f"moves: a list of moves as strings, not {moves!r}")
    start, *listed = MOVES_WORD_RE.split(position.strip(), maxsplit=1)
    start = start.removeprefix("position ").strip().removeprefix("fen ").strip()
    return position_command(start, [*(listed[0].split() if listed else []), *moves])


def _limits(**given: object) -> dict[str, int]:
    """The limits of a `go`, by their names in the protocol: depth, movetime, nodes (positive whole
    numbers), and from times and increments (milliseconds per seat) p1time, p1inc, ..."""
    limits = {}
    for name in ("depth", "movetime", "nodes"):
        value = given.get(name)
        if value is not None:
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be a positive whole number, not {value!r}")
            limits[name] = value
    for name, suffix in (("times", "time"), ("increments", "inc")):
        for seat, milliseconds in (given.get(name) or {}).items():
            if seat not in SEATS or not isinstance(milliseconds, int) or isinstance(milliseconds, bool) \
                    or milliseconds < 0:
                raise ValueError(f"{name}: expected milliseconds per seat p1, p2, p3, got {seat!r}: {milliseconds!r}")
            limits[f"{seat}{suffix}"] = milliseconds
    return limits


def _search_result(line: str) -> dict | None:
    """The info dictionary of a line that reports a search result (one with a score); None for
    the others (currmove, strings)."""
    info = parse_info(line)
    if "score" not in info:
        return None
    info.setdefault("multipv", 1)  # left out when one line is asked for
    info.setdefault("pv", [])
    return info


def _refusal(message: str, command: str) -> EngineError:
    if illegal := ILLEGAL_MOVE_RE.match(message):
        return IllegalMoveError(message, command, illegal["move"], int(illegal["index"]))
    return EngineError(message, command)


def _unchanged(info: dict) -> dict:
    return info


def _negated(info: dict) -> dict:
    return {**info, "score": info["score"].negated()}
