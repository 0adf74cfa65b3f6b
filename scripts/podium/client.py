"""The Python client: drive a Podium engine from a script.

    from podium import Engine, Limit

    with Engine("target/release/podium") as engine:
        result = engine.play("startpos", Limit(depth=6))
        print(result.move, result.score, result.ponder)
        for line in engine.analyse("startpos", Limit(depth=6), multipv=3):
            print(line.multipv, line.score, " ".join(line.pv))

It is built on the engine driver (protocol.py), the code the arbiter plays its matches with, and
every call is written once, as a conversation of the driver's (EngineBase): Engine runs them on a
thread-read process, aio.AsyncEngine on asyncio's subprocesses, so both have the same calls.

Every answer is awaited at most `timeout` seconds. A search ends at its limits (Limit); with a
movetime or a clock the client waits that long plus `timeout`, and under depth, nodes or mate alone
as long as the search needs, unless a timeout is asked for (`timeout=` of the call, or
`search_timeout` of the engine). When that time is up the search is stopped and what it found is
returned, marked partial; an engine that does not answer even `stop` raises EngineTimeout.

A command the engine refuses (`info string error`), or carries out without some of its words (`info
string warning: ... (ignored)`: new_game("chess") still starts a new game), raises EngineError with
the engine's own message; an illegal move among a position's moves raises IllegalMoveError. An
argument the client cannot send (a line break in a text, a number beyond the protocol's range)
raises ArgumentError before anything is sent, one of the wrong type ArgumentTypeError.

Positions are given as "startpos" or a position line, either optionally followed by
"moves <move> ...", plus the `moves` argument's moves after them. Scores are Score objects, from
the side to move's view unless `view` names another seat (two players only: with three, the
protocol gives the mover's view alone); each knows its seat, and score.pov(seat) turns it."""

from __future__ import annotations

import os
import re
from typing import Any, Callable, Mapping, Sequence

from . import limits as check
from .errors import ArgumentError, EngineError, EngineTimeout, IllegalMoveError, PerspectiveError, ProtocolError
from .info import Analysis, Evaluation, Info, Options, PlayResult, parse_eval, parse_info, with_view
from .limits import SEATS, Limit, limit_of
from .notation import ANY_MOVE_RE, NO_MOVE, players_of
from .protocol import Conversation, EngineDriver, Search, Send, Timeouts, info_messages, position_command

ILLEGAL_MOVE_RE = re.compile(r"^illegal move (?P<move>\S+) at index (?P<index>\d+)")
# How the engine's warnings about words it did not use end (protocol.md, "Errors and warnings").
IGNORED = " (ignored)"
MOVES_WORD_RE = re.compile(r"\s+moves(?:\s+|$)")


def engine_setup(command: object, options: object, timeout: object, search_timeout: object,
                 cwd: object) -> tuple[list[str], dict, Timeouts, str | None]:
    """The checked arguments of an engine: its argv, options, timeouts and working directory."""
    if isinstance(command, (str, os.PathLike)):
        argv = [os.fspath(command)]
    elif isinstance(command, Sequence) and not isinstance(command, bytes):
        argv = [os.fspath(word) if isinstance(word, os.PathLike) else word for word in command]
        if not argv:
            raise ArgumentError("command is an empty list: no program to run")
        if not all(isinstance(word, str) for word in argv):
            raise check.ArgumentTypeError(f"command must be a list of texts, not {command!r}")
    else:
        raise check.ArgumentTypeError(f"command must be a path or a list of words, not {command!r}")
    if not argv[0]:
        raise ArgumentError("command names no program (an empty path)")
    options = dict(check.mapping(options, "options")) if options is not None else {}
    timeout = check.seconds(timeout, "timeout")
    search_timeout = check.optional_seconds(search_timeout, "search_timeout")
    if cwd is not None and not isinstance(cwd, (str, os.PathLike)):
        raise check.ArgumentTypeError(f"cwd must be a path, not {cwd!r}")
    return argv, options, Timeouts(timeout, timeout, search_timeout), None if cwd is None else os.fspath(cwd)


class EngineBase:
    """The calls of Engine and AsyncEngine, each written once as a conversation of the driver. A
    subclass gives `driver` and `_run(conversation)`: Engine's returns the result, AsyncEngine's an
    awaitable of it. The calls check their arguments at once, before anything is sent."""

    driver: Any
    _stream_type: type

    def _init_state(self, timeouts: Timeouts) -> None:
        self.timeout = timeouts.ready
        self.search_timeout = timeouts.stall
        # the `info string warning` messages of the last command checked that refused nothing (a warning
        # that ignored part of the command raises instead): Threads beyond the machine's, Hash cut short
        self.warnings: list[str] = []
        self._search: Search | None = None  # the search under way, until its bestmove is read
        self._multipv: int | None = 1

    def _run(self, conversation: Conversation) -> Any:
        raise NotImplementedError

    @property
    def name(self) -> str:
        """The engine's `id name`."""
        return self.driver.id_name

    @property
    def options(self) -> Options:
        """The options the engine declares, by name (matched without regard to case), each an
        Option with its type, default, min, max and var."""
        return self.driver.declared

    # -- settings and positions

    def set_option(self, name: str, value: object = None):
        """`setoption name <name> value <value>`; no value for a button (`Clear Hash`); True and False
        are written true and false."""
        return self._run(self._set_option_steps(*_option_words(name, value)))

    def new_game(self, game: str | None = None, **settings: object):
        """A new game. Without arguments `uginewgame` (the same game from its start); otherwise
        `newgame <game> [<setting> <value> ...]`: game "standard" or "advanced" (Pods, rotation=)
        or "poldr" (players=, size=, bricks=); a setting not named keeps its value."""
        if game is None and not settings:
            return self._run(self._command_steps("uginewgame"))
        words = ["newgame", *([check.text(game, "game")] if game is not None else [])]
        for setting, value in settings.items():
            words.append(f"{check.word(setting, 'a setting')} {check.text(_written(value), setting)}")
        return self._run(self._command_steps(" ".join(words)))

    def set_position(self, position: str = "startpos", moves: Sequence[str] = ()):
        """Sets the game. A position the engine cannot read raises EngineError (the old position
        stays); an illegal move raises IllegalMoveError, and the game is then over, lost by the side
        that tried it."""
        return self._run(self._command_steps(_position_command(position, moves)))

    # -- searches

    def analyse(self, position: str | None = None, limit: Limit | None = None, *, moves: Sequence[str] = (),
                multipv: int = 1, view: str | None = None, timeout: float | None = None, depth: int | None = None,
                movetime: int | None = None, nodes: int | None = None, mate: int | None = None):
        """Searches (position None: the current one) to the limit and returns an Analysis: the final
        Info of each of the `multipv` best lines, best first (multipv, depth, seldepth, score, nodes,
        nps, hashfull, time, pv); none when the game is over. view: "p1", "p2" or "p3" for the scores
        from that seat's view. timeout: stop the search after that many seconds; the Analysis is then
        partial. The limits may be given as keywords instead of a Limit."""
        limit = limit_of(limit, depth=depth, movetime=movetime, nodes=nodes, mate=mate)
        if limit.empty:
            raise ArgumentError("analyse needs a limit (depth, nodes, movetime, mate or a clock); analysis() "
                                "runs a search without end")
        start = self._search_start(position, moves, limit, multipv, view, timeout)
        return self._run(self._analyse_steps(start))

    def analysis(self, position: str | None = None, limit: Limit | None = None, *, moves: Sequence[str] = (),
                 multipv: int = 1, view: str | None = None, depth: int | None = None, movetime: int | None = None,
                 nodes: int | None = None, mate: int | None = None):
        """Starts a search (`go infinite` without limits) and returns its lines as they come, Infos as
        analyse() gives them; the search ends at its limits, on stop(), on leaving a `with` block of
        the stream, or at the next call on the engine. At most `search_timeout` seconds (if set) may
        pass between two lines of the engine."""
        limit = limit_of(limit, depth=depth, movetime=movetime, nodes=nodes, mate=mate)
        start = self._search_start(position, moves, limit, multipv, view, None, stream=True)
        return self._run(self._analysis_steps(start))

    def play(self, position: str | None = None, limit: Limit | None = None, *, moves: Sequence[str] = (),
             timeout: float | None = None, depth: int | None = None, movetime: int | None = None,
             nodes: int | None = None, mate: int | None = None, times: Mapping[str, int] | None = None,
             increments: Mapping[str, int] | None = None):
        """The engine's move in the position (None: the current one), as a PlayResult: move (None
        when the game is over), ponder (the reply it expects, while its Ponder option is on), info
        (its last line with a score), partial (stopped at `timeout`). times and increments:
        milliseconds per seat ({"p1": 60000, "p2": 60000}), a clock."""
        limit = limit_of(limit, depth=depth, movetime=movetime, nodes=nodes, mate=mate, times=times,
                         increments=increments)
        if limit.empty:
            raise ArgumentError("play needs a limit: depth, nodes, movetime, mate or a clock (times)")
        start = self._search_start(position, moves, limit, 1, None, timeout)
        return self._run(self._play_steps(start))

    def stop(self):
        """Stops a search still running (a stream's), reading its bestmove."""
        return self._run(self._settle_steps())

    # -- questions about the current position

    def legal_moves(self):
        """The legal moves, in the engine's order; none when the game is over."""
        return self._run(self._legal_moves_steps())

    def is_legal(self, move: str):
        return self._run(self._true_steps(f"islegal {check.text(move, 'move')}"))

    def is_game_over(self):
        return self._run(self._true_steps("gameover"))

    def result(self):
        """p1win, p2win, p3win or draw (Pods), None while the game is on."""
        return self._run(self._result_steps())

    def turn(self):
        """The seat to move: p1, p2 or p3."""
        return self._run(self._query_steps("turn"))

    def fen(self):
        """The current position line."""
        return self._run(self._query_steps("fen"))

    def eval(self):
        """The engine's static evaluation of the current position (`eval`), an Evaluation: its score
        from the side to move's view, and the terms it adds up."""
        return self._run(self._eval_steps())

    # -- the conversations

    def _settle_steps(self) -> Conversation[None]:
        """Stops a search still under way (a stream left running, a wait that timed out) and reads
        its bestmove, so that what the engine prints next answers the next command."""
        search, self._search = self._search, None
        if search is not None:
            yield from search.stop_steps()

    def _start_steps(self, options: dict) -> Conversation[None]:
        yield from self.driver.handshake_steps()
        for name, value in options.items():
            yield from self._set_option_steps(*_option_words(name, value))

    def _set_option_steps(self, name: str, text: str | None) -> Conversation[None]:
        yield from self._settle_steps()
        command = f"setoption name {name}" + ("" if text is None else f" value {text}")
        yield Send(command)
        yield from self._confirm_steps(command)
        if name.lower() == "multipv":
            self._multipv = int(text) if text is not None and text.strip().isdigit() else None

    def _command_steps(self, line: str) -> Conversation[None]:
        yield from self._settle_steps()
        yield Send(line)
        yield from self._confirm_steps(line)

    def _confirm_steps(self, command: str) -> Conversation[list[str]]:
        """isready -> readyok, and returns the lines before it. An error the engine printed refused
        the command; a warning that it ignored some of the command's words means the command was not
        carried out as the caller wrote it: both raise EngineError."""
        lines = yield from self.driver.sync_steps()
        warnings = info_messages(lines, "warning")
        errors = info_messages(lines, "error")
        errors += [message for message in warnings if message.endswith(IGNORED)]
        self.warnings = [message for message in warnings if not message.endswith(IGNORED)]
        if errors:
            raise _refusal(errors[0], command)
        return lines

    def _query_steps(self, question: str) -> Conversation[str]:
        yield from self._settle_steps()
        command = f"query {question}"
        yield Send(command)
        lines = yield from self._confirm_steps(command)
        answers = [line[len("response "):].strip() for line in lines if line.startswith("response ")]
        if len(answers) != 1:
            raise ProtocolError(self.driver.label, f"{command} answered {len(answers)} response lines, not one")
        return answers[0]

    def _true_steps(self, question: str) -> Conversation[bool]:
        answer = yield from self._query_steps(question)
        if answer not in ("true", "false"):
            raise ProtocolError(self.driver.label, f"query {question} answered {answer!r}, not true or false")
        return answer == "true"

    def _result_steps(self) -> Conversation[str | None]:
        answer = yield from self._query_steps("result")
        return None if answer == "none" else answer

    def _legal_moves_steps(self) -> Conversation[list[str]]:
        yield from self._settle_steps()
        listed = yield from self.driver.listed_moves_steps()
        if listed is None:
            raise ProtocolError(self.driver.label, "no line of moves in answer to `moves`")
        return listed

    def _eval_steps(self) -> Conversation[Evaluation]:
        yield from self._settle_steps()
        (fen, *_), _ = yield from self.driver.ask_steps("fen")
        yield Send("eval")
        for line in (yield from self._confirm_steps("eval")):
            if line.startswith("eval ") and (evaluation := parse_eval(line, _players(fen))) is not None:
                return evaluation
        raise ProtocolError(self.driver.label, "no eval line that can be read in answer to `eval`")

    def _search_start(self, position: str | None, moves: Sequence[str], limit: Limit, multipv: object,
                      view: object, timeout: object, stream: bool = False) -> dict:
        """A search's arguments, checked: what _begin_search_steps needs."""
        command = None if position is None else _position_command(position, moves)
        if position is None and check.words(moves, "moves"):
            raise ArgumentError("moves need a position to start from")
        if view is not None:
            check.seat(view, "view")
        timeout = check.optional_seconds(timeout, "timeout")
        if timeout is not None:
            wait = timeout
        elif stream:
            wait = None
        elif (longest := limit.longest_ms()) is not None:
            wait = longest / 1000 + self.timeout
        else:
            wait = self.search_timeout
        return {"position": command, "limit": limit, "multipv": check.whole(multipv, "multipv", 1, check.U32),
                "view": view, "wait": wait}

    def _begin_search_steps(self, start: dict) -> Conversation[tuple[Search, Callable[[Info], Info]]]:
        if start["position"] is not None:
            yield from self._command_steps(start["position"])
        yield from self._settle_steps()
        (turn, fen), _ = yield from self.driver.ask_steps("turn", "fen")
        tag = _tagger(turn, _players(fen), start["view"])
        if start["multipv"] != self._multipv:
            yield from self._set_option_steps("MultiPV", str(start["multipv"]))
        search = self.driver.search(start["limit"].go_command(), start["wait"], ANY_MOVE_RE, self._run)
        yield from search.begin_steps()
        self._search = search
        return search, tag

    def _analyse_steps(self, start: dict) -> Conversation[Analysis]:
        search, tag = yield from self._begin_search_steps(start)
        lines: dict[int, Info] = {}

        def take(line: str) -> None:
            if (info := _search_result(line)) is not None:
                lines[info["multipv"]] = tag(info)

        partial = yield from self._read_search(search, take)
        return Analysis([lines[number] for number in sorted(lines)], partial=partial,
                        bestmove=_move(search.bestmove), ponder=search.ponder)

    def _play_steps(self, start: dict) -> Conversation[PlayResult]:
        search, tag = yield from self._begin_search_steps(start)
        last = Info()

        def take(line: str) -> None:
            nonlocal last
            info = parse_info(line)
            if "score" in info or ("score" not in last and ("depth" in info or "nodes" in info)):
                last = tag(info)

        partial = yield from self._read_search(search, take)
        return PlayResult(_move(search.bestmove), search.ponder, last, partial, search.elapsed)

    def _read_search(self, search: Search, take: Callable[[str], None]) -> Conversation[bool]:
        """Reads a search to its bestmove, each info line to take; past its wait it is stopped, and
        what it found is kept: returns whether it was (partial)."""
        partial = False
        try:
            while (line := (yield from search.next_info_steps())) is not None:
                take(line)
        except EngineTimeout:
            if search.stopping:
                raise
            partial = True
            for line in (yield from search.stop_steps()):
                take(line)
        self._end_search(search)
        return partial

    def _analysis_steps(self, start: dict) -> Conversation[Any]:
        search, tag = yield from self._begin_search_steps(start)
        return self._stream_type(self, search, tag)

    def _stream_next_steps(self, search: Search, tag: Callable[[Info], Info]) -> Conversation[Info | None]:
        while (line := (yield from search.next_info_steps())) is not None:
            if (info := _search_result(line)) is not None:
                return tag(info)
        self._end_search(search)
        return None

    def _stream_stop_steps(self, search: Search) -> Conversation[str | None]:
        if self._search is search:
            yield from self._settle_steps()
        else:
            yield from search.stop_steps()
        return _move(search.bestmove)

    def _end_search(self, search: Search) -> None:
        """A search read up to its bestmove: an error it printed (a limit refused) is raised."""
        if self._search is search:
            self._search = None
        if search.errors:
            raise _refusal(search.errors[0], search.command)


class Engine(EngineBase):
    """One engine process and the calls a script needs; use it as a context manager, or call close().

    command: the engine's path, or its argv as a list; options: set at once (setoption);
    timeout: seconds to wait for any answer; search_timeout: the longest a search limited by depth,
    nodes or mate alone may run before it is stopped (None: as long as it needs); cwd: the engine's
    working directory."""

    _stream_type: type

    def __init__(self, command: str | Sequence[str], *, options: Mapping[str, object] | None = None,
                 timeout: float = 10.0, search_timeout: float | None = None, cwd: str | None = None):
        argv, options, timeouts, cwd = engine_setup(command, options, timeout, search_timeout, cwd)
        self._init_state(timeouts)
        self.driver = EngineDriver(argv, os.path.basename(argv[0]), timeouts, cwd)
        try:
            self.driver.start()
            for name, value in options.items():
                self.set_option(name, value)
        except BaseException:
            self.close()
            raise

    def _run(self, conversation: Conversation) -> Any:
        return self.driver.run(conversation)

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *_exception) -> None:
        self.close()

    def close(self) -> None:
        """`quit` (which also stops a search), then whatever is left of the process is killed."""
        self._search = None
        self.driver.close()

    @property
    def pid(self) -> int | None:
        return self.driver.process.pid if self.driver.process else None


class SearchView:
    """What an analysis stream, blocking or awaited, tells of its search at any moment."""

    def __init__(self, engine: Any, search: Search, tag: Callable[[Info], Info]):
        self._engine = engine
        self._search = search
        self._tag = tag

    @property
    def done(self) -> bool:
        return self._search.done

    @property
    def bestmove(self) -> str | None:
        return _move(self._search.bestmove)

    @property
    def ponder(self) -> str | None:
        return self._search.ponder


class AnalysisStream(SearchView):
    """The lines of a running search as they come (Infos, as Engine.analyse gives them), until the
    search ends at its limits or is stopped: stop(), the end of a `with` block, or any other call on
    the engine. bestmove is then the search's move (None if the game is over)."""

    def __iter__(self) -> AnalysisStream:
        return self

    def __next__(self) -> Info:
        info = self._engine._run(self._engine._stream_next_steps(self._search, self._tag))
        if info is None:
            raise StopIteration
        return info

    def __enter__(self) -> AnalysisStream:
        return self

    def __exit__(self, *_exception) -> None:
        self.stop()

    def stop(self) -> str | None:
        """Ends the search (if it still runs) and returns its best move."""
        return self._engine._run(self._engine._stream_stop_steps(self._search))


Engine._stream_type = AnalysisStream


def _option_words(name: object, value: object) -> tuple[str, str | None]:
    name = check.text(name, "option name").strip()
    if not name or re.search(r"(?:^|\s)value(?:\s|$)", name):
        raise ArgumentError(f"option name {name!r}: a name, without the word 'value'")
    return name, None if value is None else check.text(_written(value), f"the value of option {name}")


def _written(value: object) -> str:
    """A value as the protocol writes it: True and False as true and false."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (str, int, float)):
        return str(value)
    raise check.ArgumentTypeError(f"a value must be a text, a number or a bool, not {value!r}")


def _position_command(position: object, moves: object) -> str:
    """"startpos" or a position line ("position " and "fen " before it are allowed, as in a line of
    `podium analyse --positions`), optionally followed by "moves ...", then the moves given apart."""
    position = check.text(position, "position")
    moves = check.words(moves, "moves")
    start, *listed = MOVES_WORD_RE.split(position.strip(), maxsplit=1)
    start = start.removeprefix("position ").strip().removeprefix("fen ").strip()
    return position_command(start, [*(listed[0].split() if listed else []), *moves])


def _players(fen: str) -> int:
    try:
        return players_of(fen)
    except (IndexError, ValueError):
        return 2


def _tagger(turn: str, players: int, view: str | None) -> Callable[[Info], Info]:
    """What marks an Info's score as the mover's view, then turns it to view's."""
    if view is not None:
        if view not in SEATS[:players]:
            raise PerspectiveError(f"view {view!r}: the seats of this game are {', '.join(SEATS[:players])}")
        if players > 2 and view != turn:
            raise PerspectiveError(f"with three players a score is known from the side to move's view only "
                                   f"({turn}), not from {view}'s")

    def tag(info: Info) -> Info:
        info = with_view(info, turn, players)
        if view is not None and view != turn and "score" in info:
            info = Info(info, score=info["score"].pov(view))
        return info

    return tag


def _search_result(line: str) -> Info | None:
    """The Info of a line that reports a search result (one with a score); None for the others
    (currmove, strings)."""
    info = parse_info(line)
    if "score" not in info:
        return None
    info.setdefault("multipv", 1)  # left out when one line is asked for
    info.setdefault("pv", [])
    return info


def _move(move: str | None) -> str | None:
    return None if move in (None, NO_MOVE) else move


def _refusal(message: str, command: str) -> EngineError:
    if illegal := ILLEGAL_MOVE_RE.match(message):
        return IllegalMoveError(message, command, illegal["move"], int(illegal["index"]))
    return EngineError(message, command)
