"""The engine driver: the one piece of code that speaks the Podium protocol (protocol.md) to an
engine process: handshake, options, isready, position, go up to bestmove, query and moves, with a
deadline on every wait.

The protocol is written once, without any input or output of its own: each exchange is a
conversation, a generator that yields what it sends (Send) and what it waits for (Read, with its
deadline), is sent back each line read, and returns what the exchange found. A runner carries a
conversation out: EngineDriver.run here, with a thread reading the engine (process.py), and
AsyncDriver.run in aio.py, on asyncio's subprocesses. Faults of the engine are thrown into the
conversation, which may handle them (a search that overruns its time is stopped, and keeps what it
found) or let them pass.

The client (client.py, aio.py), the arbiter's players and referee (engines.py), its compliance test
and random_mover.py all talk to engines through this driver; it raises EngineTerminated,
EngineTimeout and ProtocolError (errors.py) and leaves it to them to decide what an `info string
error` means."""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from typing import Any, Callable, Generator, Sequence, TypeVar

from .errors import EngineTerminated, EngineTimeout, PodiumError, ProtocolError
from .info import OPTION_RE, Options, Score, parse_info, parse_option  # OPTION_RE, Score, parse_info: their old home
from .notation import ANY_MOVE_RE, NO_MOVE
from .process import EngineProcess, Transcript

__all__ = ["Conversation", "Deadline", "EngineDriver", "OPTION_RE", "Protocol", "Read", "Score", "Search", "Send",
           "Timeouts", "info_message", "info_messages", "parse_bestmove", "parse_info", "position_command", "reworded"]
T = TypeVar("T")


@dataclass(frozen=True)
class Timeouts:
    startup: float = 10.0  # seconds from `ugi` to `ugiok`
    ready: float = 10.0  # seconds from `isready` (or a query) to its answer
    stall: float | None = 60.0  # seconds to wait for `bestmove` when no clock limits the search; None: no limit


class Deadline:
    """When a wait ends, and how long it was meant to last (for the message when nothing came).
    seconds None (or inf): never."""

    def __init__(self, seconds: float | None, start: float | None = None):
        self.seconds = math.inf if seconds is None else seconds
        self.at = (time.monotonic() if start is None else start) + self.seconds


@dataclass(frozen=True)
class Send:
    """A conversation's request: send this line."""
    line: str


@dataclass(frozen=True)
class Read:
    """A conversation's request: the next line and when it came, (line, time.monotonic()), by the
    deadline. What the fault says if none comes: overdue, else "no <awaited> within <s> s"; if the
    engine is gone: what it did, then during ("while searching") or "while waiting for <awaited>"."""
    deadline: Deadline
    awaited: str | None = None
    during: str | None = None
    overdue: str | None = None


Conversation = Generator["Send | Read", Any, T]


def reworded(label: str, request: Read, error: PodiumError) -> PodiumError:
    """A fault of the process, in the words of what the conversation was waiting for."""
    if isinstance(error, EngineTerminated):
        if request.during:
            return EngineTerminated(error.engine, f"{error.what} {request.during}")
        if request.awaited:
            return EngineTerminated(error.engine, f"{error.what} while waiting for {request.awaited}")
    elif isinstance(error, EngineTimeout):
        if request.overdue:
            return EngineTimeout(label, request.overdue)
        if request.awaited:
            return EngineTimeout(label, f"no {request.awaited} within {request.deadline.seconds:.3g} s")
    return error


def position_command(start: str, moves: Sequence[str] = ()) -> str:
    """`position startpos [moves ...]` when start is "startpos", else `position fen <start> [moves ...]`."""
    head = "position startpos" if start == "startpos" else f"position fen {start}"
    return head + (f" moves {' '.join(moves)}" if moves else "")


def info_message(line: str, kind: str) -> str | None:
    """The message of an `info string <kind>: <message>` line (kind: error, warning), else None."""
    prefix = f"info string {kind}: "
    return line[len(prefix):] if line.startswith(prefix) else None


def info_messages(lines: Sequence[str], kind: str) -> list[str]:
    """The messages of the `info string <kind>: <message>` lines among lines."""
    return [message for line in lines if (message := info_message(line, kind)) is not None]


def parse_bestmove(line: str, move_re: re.Pattern = ANY_MOVE_RE) -> tuple[str, str | None] | None:
    """(move, ponder move or None) of a `bestmove` line; None for the lines a search may print
    before it (info, readyok, blank). Anything else raises ValueError."""
    words = line.split()
    if not words or words[0] in ("info", "readyok"):
        return None
    well_formed = (words[0] == "bestmove" and len(words) in (2, 4)
                   and (len(words) == 2 or words[2] == "ponder")
                   and (words[1] == NO_MOVE or move_re.match(words[1])))
    if not well_formed:
        raise ValueError(f"unexpected output {line[:80]!r}")
    return words[1], (words[3] if len(words) == 4 else None)


class Protocol:
    """The protocol spoken to one engine, as conversations (see the module's docstring): no input or
    output of its own. EngineDriver and aio.AsyncDriver run them."""

    def __init__(self, argv: list[str], label: str = "engine", timeouts: Timeouts = Timeouts(),
                 cwd: str | None = None, transcript: Transcript | None = None):
        self.argv = argv
        self.label = label
        self.timeouts = timeouts
        self.cwd = cwd
        self.transcript = transcript
        self.options: dict[str, str] = {}  # lower-case name -> name as declared
        self.declared = Options()  # the options with their details (type, default, range)
        self.option_lines: list[str] = []  # the handshake's option lines, verbatim (random_mover.py declares them)
        self.handshake: list[str] = []  # every line of the last handshake, `ugiok` last
        self.id_name = ""

    def handshake_steps(self) -> Conversation[None]:
        """`ugi` up to `ugiok`: the engine's name and options."""
        self.options, self.option_lines, self.handshake, declared = {}, [], [], []
        yield Send("ugi")
        deadline = Deadline(self.timeouts.startup)
        while True:
            line, _ = yield Read(deadline, "ugiok")
            self.handshake.append(line)
            if line.strip() == "ugiok":
                self.declared = Options(declared)
                return
            if option := parse_option(line):
                self.options[option.name.lower()] = option.name
                self.option_lines.append(line)
                declared.append(option)
            elif line.startswith("id name "):
                self.id_name = line[len("id name "):].strip()

    def sync_steps(self) -> Conversation[list[str]]:
        """isready -> readyok; returns the lines that came before the answer (errors among them)."""
        yield Send("isready")
        deadline = Deadline(self.timeouts.ready)
        lines = []
        while (line := (yield Read(deadline, "readyok"))[0]).strip() != "readyok":
            lines.append(line)
        return lines

    def ask_steps(self, *questions: str) -> Conversation[tuple[list[str], list[str]]]:
        """Queries sent in one go (pipelined); their answers, `response` stripped, and the `info
        string error` lines that came before them (a position the engine refused)."""
        for question in questions:
            yield Send(f"query {question}")
        deadline = Deadline(self.timeouts.ready + 0.001 * len(questions))
        answers, errors = [], []
        while len(answers) < len(questions):
            line, _ = yield Read(deadline, f"response to query {questions[len(answers)]}")
            if line.startswith("response "):
                answers.append(line[len("response "):].strip())
            elif info_message(line, "error") is not None:
                errors.append(line)
        return answers, errors

    def listed_moves_steps(self, move_re: re.Pattern = ANY_MOVE_RE) -> Conversation[list[str] | None]:
        """The legal moves of the current position by the `moves` command (one line of moves, or
        `(none)`); None when the engine answers no such line (it does not know the command)."""
        yield Send("moves")
        yield Send("isready")
        deadline = Deadline(self.timeouts.ready)
        listed = None
        while (line := (yield Read(deadline, "readyok"))[0].strip()) != "readyok":
            words = line.split()
            if words == [NO_MOVE]:
                listed = []
            elif words and all(move_re.match(word) for word in words):
                listed = words
        return listed

    def search(self, command: str, wait: float | None, move_re: re.Pattern,
               runner: Callable[[Conversation], Any]) -> Search:
        """A search not yet sent: its begin_steps() sends the `go`."""
        return Search(self, command, wait, move_re, runner)


class EngineDriver(Protocol):
    """One engine process, spoken to in the protocol, with a thread that reads it. Every wait is
    bounded by `timeouts`; an engine that dies, stays silent or prints garbage raises
    EngineTerminated, EngineTimeout or ProtocolError."""

    def __init__(self, argv: list[str], label: str = "engine", timeouts: Timeouts = Timeouts(),
                 cwd: str | None = None, transcript: Transcript | None = None):
        super().__init__(argv, label, timeouts, cwd, transcript)
        self.process: EngineProcess | None = None

    def run(self, conversation: Conversation[T]) -> T:
        """Carries a conversation out: sends what it sends, reads what it waits for, throws the
        engine's faults into it; returns what it returns."""
        reply, error = None, None
        while True:
            try:
                request = conversation.send(reply) if error is None else conversation.throw(error)
            except StopIteration as done:
                return done.value
            reply, error = None, None
            try:
                if isinstance(request, Send):
                    self.send(request.line)
                else:
                    reply = self.read_stamped(request.deadline)
            except PodiumError as fault:
                error = fault if isinstance(request, Send) else reworded(self.label, request, fault)

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.alive

    def start(self) -> None:
        """Starts the process (afresh if it runs) and completes the `ugi` handshake."""
        self.kill()
        self.process = EngineProcess(self.argv, self.label, self.cwd, self.transcript)
        self.run(self.handshake_steps())

    def _running_process(self) -> EngineProcess:
        if self.process is None:
            raise EngineTerminated(self.label, "not running")
        return self.process

    def send(self, line: str) -> None:
        self._running_process().send(line)

    def read_line(self, deadline: Deadline, awaited: str | None = None) -> str:
        return self.read_stamped(deadline, awaited)[0]

    def read_stamped(self, deadline: Deadline, awaited: str | None = None) -> tuple[str, float]:
        """The next line and when it arrived; awaited, what the caller waits for, goes into the
        detail of the error if none comes."""
        process = self._running_process()
        try:
            return process.read(deadline.at)
        except PodiumError as fault:
            raise reworded(self.label, Read(deadline, awaited), fault) from None

    def discard_pending(self) -> list[str]:
        """Drops (and returns) the lines already printed, so that a stale line passes for no answer."""
        return self._running_process().pending()

    def sync(self) -> list[str]:
        """isready -> readyok; returns the lines that came before the answer (errors among them)."""
        return self.run(self.sync_steps())

    def set_option(self, name: str, value: str | None = None) -> str:
        """Sends `setoption` (without a value for a button) and returns the line sent; the engine
        answers only errors."""
        command = f"setoption name {name}" + ("" if value is None else f" value {value}")
        self.send(command)
        return command

    def ask(self, *questions: str) -> tuple[list[str], list[str]]:
        """Sends queries in one go (pipelined); returns their answers, `response` stripped, and the
        `info string error` lines that came before them (a position the engine refused)."""
        return self.run(self.ask_steps(*questions))

    def listed_moves(self, move_re: re.Pattern = ANY_MOVE_RE) -> list[str] | None:
        """The legal moves of the current position by the `moves` command; None when the engine
        answers no line of moves (it does not know the command)."""
        return self.run(self.listed_moves_steps(move_re))

    def go(self, command: str, wait: float | None = None, move_re: re.Pattern = ANY_MOVE_RE) -> Search:
        """Sends a `go` command; read its lines from the Search returned."""
        search = self.search(command, wait, move_re, self.run)
        self.run(search.begin_steps())
        return search

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process = None

    def close(self) -> None:
        """`quit`, then whatever is left is killed."""
        if self.process is not None:
            self.process.close()
            self.process = None


class Search:
    """A `go` sent to an engine, read line by line up to its `bestmove`.

    wait: seconds from `go` to `bestmove`, past which EngineTimeout; None: no limit on the whole,
    but at most Timeouts.stall between two lines (None: no limit at all; a long search prints a line
    at every iteration, and, after its first second, one for every root move).

    The steps are conversations; next_info(), finish() and stop() run them with the runner the
    search was made with (an async runner makes them awaitable)."""

    def __init__(self, protocol: Protocol, command: str, wait: float | None, move_re: re.Pattern,
                 runner: Callable[[Conversation], Any]):
        self._protocol = protocol
        self._move_re = move_re
        self._runner = runner
        self.command = command
        self.wait = wait
        self.bestmove: str | None = None  # once done: the move, or NO_MOVE when the game is over
        self.ponder: str | None = None
        self.elapsed: float | None = None  # seconds from `go` to the arrival of `bestmove`
        self.errors: list[str] = []  # the messages of `info string error` lines of this search
        self.done = False
        self.stopping = False  # `stop` was sent
        self.sent = time.monotonic()
        self._deadline: Deadline | None = None
        self._overdue = ""

    def begin_steps(self) -> Conversation[None]:
        # Stamped before the `go` is written: the reader may stamp a fast bestmove before the write returns.
        self.sent = time.monotonic()
        yield Send(self.command)
        if self.wait is not None:
            self._deadline = Deadline(self.wait, start=self.sent)
            self._overdue = f"no bestmove within {self.wait * 1000:.0f} ms"

    def next_info_steps(self) -> Conversation[str | None]:
        """The next `info` line of the search, or None once its `bestmove` has come."""
        while not self.done:
            line, stamp = yield self._read_request()
            try:
                found = parse_bestmove(line, self._move_re)
            except ValueError as error:
                raise ProtocolError(self._protocol.label, str(error)) from None
            if found is not None:
                (self.bestmove, self.ponder), self.elapsed, self.done = found, max(0.0, stamp - self.sent), True
            elif line.startswith("info"):
                if (message := info_message(line, "error")) is not None:
                    self.errors.append(message)
                return line
        return None

    def finish_steps(self) -> Conversation[list[str]]:
        """Reads up to the `bestmove`; returns the `info` lines read on the way."""
        lines = []
        while (line := (yield from self.next_info_steps())) is not None:
            lines.append(line)
        return lines

    def stop_steps(self) -> Conversation[list[str]]:
        """Ends the search now (`stop`) and reads up to its `bestmove`, so the engine is in step
        again; returns the `info` lines read on the way."""
        if not self.done and not self.stopping:
            yield Send("stop")
            self.stopping = True
            ready = self._protocol.timeouts.ready
            self._deadline = Deadline(ready)
            self._overdue = f"no bestmove within {ready:g} s of stop"
        return (yield from self.finish_steps())

    def _read_request(self) -> Read:
        if self._deadline is not None:
            return Read(self._deadline, during="while searching", overdue=self._overdue)
        stall = self._protocol.timeouts.stall
        if stall is None:
            return Read(Deadline(None), during="while searching")
        return Read(Deadline(stall), during="while searching", overdue=f"no output for {stall:g} s while searching")

    def next_info(self):
        return self._runner(self.next_info_steps())

    def finish(self):
        """Reads up to the `bestmove` and returns its move."""
        return self._runner(self._then_bestmove(self.finish_steps()))

    def stop(self):
        """Ends the search (if it runs) and returns its move."""
        return self._runner(self._then_bestmove(self.stop_steps()))

    def _then_bestmove(self, steps: Conversation) -> Conversation[str | None]:
        yield from steps
        return self.bestmove
