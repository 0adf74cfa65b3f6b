"""The engine driver: the one piece of code that speaks the Podium protocol (protocol.md) to an
engine process: handshake, options, isready, position, go up to bestmove, query and moves, with a
deadline on every wait.

The client (client.py), the arbiter's players and referee (engines.py), its compliance test and
random_mover.py all talk to engines through EngineDriver; it raises EngineTerminated, EngineTimeout
and ProtocolError (errors.py) and leaves it to them to decide what an `info string error` means."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Sequence

from .errors import EngineTerminated, EngineTimeout, ProtocolError
from .notation import ANY_MOVE_RE, NO_MOVE
from .process import EngineProcess, Transcript

OPTION_RE = re.compile(r"^option name (?P<name>.+?) type (?P<type>\S+)(?: .*)?$")
# The whole-number fields of an `info` line.
INFO_NUMBERS = ("depth", "seldepth", "multipv", "nodes", "nps", "hashfull", "time", "currmovenumber", "tbhits")


@dataclass(frozen=True)
class Timeouts:
    startup: float = 10.0  # seconds from `ugi` to `ugiok`
    ready: float = 10.0  # seconds from `isready` (or a query) to its answer
    stall: float = 60.0  # seconds to wait for `bestmove` when no clock limits the search


class Deadline:
    """When a wait ends, and how long it was meant to last (for the message when nothing came)."""

    def __init__(self, seconds: float, start: float | None = None):
        self.seconds = seconds
        self.at = (time.monotonic() if start is None else start) + seconds


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


@dataclass(frozen=True)
class Score:
    """A search's score from one side's view: cp, the evaluation (positive is good for that side),
    or mate: that side wins in `mate` of its own moves, or loses in `-mate` if it is negative.
    Exactly one of the two is set."""
    cp: int | None = None
    mate: int | None = None

    @property
    def is_mate(self) -> bool:
        return self.mate is not None

    def negated(self) -> Score:
        """The same score from the opponent's view (two players): a win in m is a loss in m."""
        return Score(cp=None if self.cp is None else -self.cp, mate=None if self.mate is None else -self.mate)

    def __str__(self) -> str:
        return f"mate {self.mate}" if self.is_mate else f"cp {self.cp}"


def parse_info(line: str) -> dict:
    """The fields of an `info` line: numbers as int, `score` as a Score, `pv` as a list of moves,
    `currmove` as a move, `string` as the rest of the line. Words it does not know are skipped."""
    if line.startswith("info string"):
        return {"string": line[len("info string"):].strip()}
    words = line.split()[1:]
    info: dict = {}
    index = 0
    while index < len(words):
        key, value = words[index], words[index + 1] if index + 1 < len(words) else None
        if key == "pv":
            info["pv"] = words[index + 1:]
            break
        if key == "score" and value in ("cp", "mate") and index + 2 < len(words):
            number = _integer(words[index + 2])
            if number is not None:
                info["score"] = Score(cp=number) if value == "cp" else Score(mate=number)
            index += 3
        elif key in INFO_NUMBERS and value is not None and _integer(value) is not None:
            info[key] = _integer(value)
            index += 2
        elif key == "currmove" and value is not None:
            info[key] = value
            index += 2
        else:
            index += 1
    return info


def _integer(word: str) -> int | None:
    try:
        return int(word)
    except ValueError:
        return None


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


class EngineDriver:
    """One engine process, spoken to in the protocol. Every wait is bounded by `timeouts`; an engine
    that dies, stays silent or prints garbage raises EngineTerminated, EngineTimeout or ProtocolError."""

    def __init__(self, argv: list[str], label: str = "engine", timeouts: Timeouts = Timeouts(),
                 cwd: str | None = None, transcript: Transcript | None = None):
        self.argv = argv
        self.label = label
        self.timeouts = timeouts
        self.cwd = cwd
        self.transcript = transcript
        self.process: EngineProcess | None = None
        self.options: dict[str, str] = {}  # lower-case name -> name as declared
        self.option_lines: list[str] = []  # the handshake's option lines, verbatim (random_mover.py declares them)
        self.handshake: list[str] = []  # every line of the last handshake, `ugiok` last
        self.id_name = ""

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.alive

    def start(self) -> None:
        """Starts the process (afresh if it runs) and completes the `ugi` handshake."""
        self.kill()
        self.process = EngineProcess(self.argv, self.label, self.cwd, self.transcript)
        self.options, self.option_lines, self.handshake = {}, [], []
        self.send("ugi")
        self._read_handshake()

    def _read_handshake(self) -> None:
        deadline = Deadline(self.timeouts.startup)
        while True:
            line = self.read_line(deadline, "ugiok")
            self.handshake.append(line)
            if line.strip() == "ugiok":
                return
            if option := OPTION_RE.match(line):
                self.options[option["name"].lower()] = option["name"]
                self.option_lines.append(line)
            elif line.startswith("id name "):
                self.id_name = line[len("id name "):].strip()

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
        except EngineTerminated as error:
            if awaited is None:
                raise
            raise EngineTerminated(error.engine, f"{error.what} while waiting for {awaited}") from None
        except EngineTimeout:
            if awaited is None:
                raise
            raise EngineTimeout(self.label, f"no {awaited} within {deadline.seconds:.3g} s") from None

    def discard_pending(self) -> list[str]:
        """Drops (and returns) the lines already printed, so that a stale line passes for no answer."""
        return self._running_process().pending()

    def sync(self) -> list[str]:
        """isready -> readyok; returns the lines that came before the answer (errors among them)."""
        self.send("isready")
        deadline = Deadline(self.timeouts.ready)
        lines = []
        while (line := self.read_line(deadline, "readyok")).strip() != "readyok":
            lines.append(line)
        return lines

    def set_option(self, name: str, value: str | None = None) -> str:
        """Sends `setoption` (without a value for a button) and returns the line sent; the engine
        answers only errors."""
        command = f"setoption name {name}" + ("" if value is None else f" value {value}")
        self.send(command)
        return command

    def ask(self, *questions: str) -> tuple[list[str], list[str]]:
        """Sends queries in one go (pipelined); returns their answers, `response` stripped, and the
        `info string error` lines that came before them (a position the engine refused)."""
        for question in questions:
            self.send(f"query {question}")
        deadline = Deadline(self.timeouts.ready + 0.001 * len(questions))
        answers, errors = [], []
        while len(answers) < len(questions):
            line = self.read_line(deadline, f"response to query {questions[len(answers)]}")
            if line.startswith("response "):
                answers.append(line[len("response "):].strip())
            elif info_message(line, "error") is not None:
                errors.append(line)
        return answers, errors

    def listed_moves(self, move_re: re.Pattern = ANY_MOVE_RE) -> list[str] | None:
        """The legal moves of the current position by the `moves` command (one line of moves, or
        `(none)`); None when the engine answers no such line (it does not know the command)."""
        self.send("moves")
        self.send("isready")
        deadline = Deadline(self.timeouts.ready)
        listed = None
        while (line := self.read_line(deadline, "readyok").strip()) != "readyok":
            words = line.split()
            if words == [NO_MOVE]:
                listed = []
            elif words and all(move_re.match(word) for word in words):
                listed = words
        return listed

    def go(self, command: str, wait: float | None = None, move_re: re.Pattern = ANY_MOVE_RE) -> Search:
        """Sends a `go` command; read its lines from the Search returned."""
        return Search(self, command, wait, move_re)

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
    but at most Timeouts.stall between two lines (a long search prints a line at every iteration,
    and, after its first second, one for every root move)."""

    def __init__(self, driver: EngineDriver, command: str, wait: float | None, move_re: re.Pattern):
        self._driver = driver
        self._move_re = move_re
        self.command = command
        self.bestmove: str | None = None  # once done: the move, or NO_MOVE when the game is over
        self.ponder: str | None = None
        self.elapsed: float | None = None  # seconds from `go` to the arrival of `bestmove`
        self.errors: list[str] = []  # the messages of `info string error` lines of this search
        self.done = False
        driver.send(command)
        self.sent = time.monotonic()
        self._deadline = None if wait is None else Deadline(wait, start=self.sent)
        self._overdue = "" if wait is None else f"no bestmove within {wait * 1000:.0f} ms"

    def next_info(self) -> str | None:
        """The next `info` line of the search, or None once its `bestmove` has come."""
        while not self.done:
            line, stamp = self._read()
            try:
                found = parse_bestmove(line, self._move_re)
            except ValueError as error:
                raise ProtocolError(self._driver.label, str(error)) from None
            if found is not None:
                (self.bestmove, self.ponder), self.elapsed, self.done = found, stamp - self.sent, True
            elif line.startswith("info"):
                if (message := info_message(line, "error")) is not None:
                    self.errors.append(message)
                return line
        return None

    def finish(self) -> str:
        """Reads up to the `bestmove` and returns its move."""
        while self.next_info() is not None:
            pass
        return self.bestmove

    def stop(self) -> str:
        """Ends the search now (`stop`) and reads up to its `bestmove`, so the engine is in step again."""
        if not self.done:
            self._driver.send("stop")
            self._deadline = Deadline(self._driver.timeouts.ready)
            self._overdue = f"no bestmove within {self._driver.timeouts.ready:g} s of stop"
        return self.finish()

    def _read(self) -> tuple[str, float]:
        stall = self._driver.timeouts.stall
        deadline = Deadline(stall) if self._deadline is None else self._deadline
        try:
            return self._driver.read_stamped(deadline)
        except EngineTerminated as error:
            raise EngineTerminated(error.engine, f"{error.what} while searching") from None
        except EngineTimeout:
            overdue = self._overdue or f"no output for {stall:g} s while searching"
            raise EngineTimeout(self._driver.label, overdue) from None
