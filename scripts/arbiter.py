#!/usr/bin/env python3
"""Podium arbiter: engine-versus-engine matches (Pods, POLD.R for two or three players) and a
protocol self-test of one engine.

    arbiter.py --engine name=new cmd=./target/release/podium \\
               --engine name=base cmd=/path/to/old/podium option.Hash=32 \\
               --variant advanced --games 200 --concurrency 2 --tc 1+0.01
    arbiter.py --game poldr --size 5 --bricks 16 --engine name=new cmd=./target/release/podium \\
               --engine name=base cmd=/path/to/old/podium --games 200 --movetime 100 --random-plies 2
    arbiter.py --game poldr --players 3 --engine name=paranoid cmd=./target/release/podium \\
               --engine name=maxn cmd=./target/release/podium option.MultiplayerSearch=maxn \\
               --engine name=base cmd=/path/to/old/podium --games 60 --tc 2+0.05 --random-plies 3
    arbiter.py --game poldr --players 3 --engine name=podium cmd=./target/release/podium \\
               --engine name=random1 cmd="python3 scripts/random_mover.py --seed 1" \\
               --engine name=random2 cmd="python3 scripts/random_mover.py --seed 2" --games 60 --movetime 100
    arbiter.py compliance --engine cmd=./target/release/podium

scripts/random_mover.py is an engine that plays uniformly random legal moves (asking a Podium for
them), a baseline for measurements in either game.

A separate, trusted Podium process (the referee) judges every move and every
game end; the playing engines only ever propose moves. Every wait on an engine
has a timeout, every fault is charged to the engine that made it, and every
finished game is written at once as one JSON line, so a match can be resumed.
Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import itertools
import json
import math
import os
import queue
import random
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field

WHITE, BLACK = "white", "black"
ROTATIONS = (0, 90, 180, 270)
VARIANTS = ("standard", "advanced")
# Why a game ended when an engine broke the rules of the match.
ENGINE_FAULTS = ("illegal move", "crash", "stall", "time forfeit", "protocol error")

MOVE_RE = re.compile(r"^(?:[A-Za-z]@[a-f][1-6]|[a-f][1-6][a-f][1-6])$")
POSITION_RE = re.compile(r"^[1-6A-Za-z/]+ [wb] (?:[A-Z]*[a-z]*|-) (?:0|90|180|270) \d+$")
# POLD.R (docs/poldr-rules.md section 5): `Pc3Me5` (first turn), `Pc3`, `Mc5`, `pass`; six-field position lines.
POLDR_MOVE_RE = re.compile(r"^(?:[Pp][a-i][1-9](?:[Mm][a-i][1-9])?|[Mm][a-i][1-9]|pass)$")
POLDR_POSITION_RE = re.compile(r"^[1-9PBYRbyr/]+ [byr] \d+(?:,\d+){1,2} [12] \d+ (?:\d+|-)(?:,(?:\d+|-)){1,2}$")
GAMES = ("pods", "poldr")
POLDR_SIDES = "byr"  # Blue (p1), Yellow (p2), Red (p3)
POLDR_COLOURS = ("Blue", "Yellow", "Red")
OPTION_RE = re.compile(r"^option name (?P<name>.+?) type (?P<type>\S+)(?: .*)?$")
NO_MOVE = "(none)"
FORFEIT = "forfeit"  # a word that is no move: played after the moves, it makes the referee rank a forfeit

NUMBER_WORDS = {2: "two", 3: "three"}

Z_95 = 1.959963984540054  # two-sided 95% quantile of the normal distribution
GAME_SCORES = (0.0, 0.5, 1.0)  # loss, draw, win
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # LL, LD, WL+DD, WD, WW (pair points / 2)


# ----------------------------------------------------------------------------
# Errors


class UsageError(Exception):
    """Bad command line, or an engine that cannot be used at all: one line, exit 2."""


class RefereeError(Exception):
    """The trusted referee failed, so nothing more can be judged: exit 1."""


class EngineFault(Exception):
    """An engine broke the rules of the match; it loses the game it is in."""

    def __init__(self, reason: str, detail: str):
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


class ProcessDied(Exception):
    """The child process could not be started, or its output ended."""


class StartFailed(ProcessDied):
    """The command could not be executed at all."""


class ReadTimeout(Exception):
    """No line arrived before the deadline."""


class Interrupted(Exception):
    """SIGINT or SIGTERM arrived; the arbiter winds down and exits non-zero."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


# ----------------------------------------------------------------------------
# Child processes


class ChildRegistry:
    """Every process the arbiter starts, so that none outlives it."""

    def __init__(self):
        self._lock = threading.Lock()
        self._children: set[EngineProcess] = set()
        self._closed = False

    def add(self, child: EngineProcess) -> bool:
        """Registers a child; False once shutting down (the caller must kill it)."""
        with self._lock:
            if self._closed:
                return False
            self._children.add(child)
            return True

    def discard(self, child: EngineProcess) -> None:
        with self._lock:
            self._children.discard(child)

    def kill_all(self) -> None:
        """Kills every child and refuses new ones from now on."""
        with self._lock:
            self._closed = True
            children = list(self._children)
        for child in children:
            child.kill()


CHILDREN = ChildRegistry()


class Transcript:
    """Optional log of all engine traffic (--log), for debugging protocol problems."""

    def __init__(self, path: str | None):
        self._file = open(path, "a", encoding="utf-8") if path else None
        self._lock = threading.Lock()
        self._start = time.monotonic()
        self._prefix = ""

    def tagged(self, prefix: str) -> Transcript:
        """The same log, with lines marked by prefix (which worker's engine spoke)."""
        view = Transcript(None)
        view._file, view._lock, view._start, view._prefix = self._file, self._lock, self._start, prefix
        return view

    def close(self) -> None:
        if self._file is not None:
            self._file.close()

    def write(self, label: str, direction: str, line: str) -> None:
        if self._file is None:
            return
        with self._lock:
            self._file.write(f"{time.monotonic() - self._start:10.3f} {self._prefix}{label} {direction} {line}\n")
            self._file.flush()


class EngineProcess:
    """One child process; a reader thread feeds its output lines to a queue so reads can time out."""

    def __init__(self, argv: list[str], label: str, cwd: str | None = None, transcript: Transcript | None = None):
        self.label = label
        self._transcript = transcript or Transcript(None)
        self._lines: queue.Queue[tuple[str | None, float]] = queue.Queue()
        self._ended = False
        try:
            # A session of its own: our Ctrl-C is ours to handle, and killpg reaches any grandchildren.
            self._proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                cwd=cwd, text=True, encoding="utf-8", errors="replace", bufsize=1, start_new_session=True)
        except (OSError, ValueError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            raise StartFailed(f"cannot start {shlex.join(argv)}: {reason}") from None
        if not CHILDREN.add(self):
            self.kill()
            raise ProcessDied("the arbiter is shutting down")
        threading.Thread(target=self._pump, name=f"reader {label}", daemon=True).start()

    def _pump(self) -> None:
        try:
            for raw in self._proc.stdout:
                stamp = time.monotonic()
                line = raw.rstrip("\r\n")
                self._transcript.write(self.label, "<", line)
                self._lines.put((line, stamp))
        except (OSError, ValueError):
            pass
        with contextlib.suppress(OSError):
            self._proc.stdout.close()  # this thread is the only reader
        self._lines.put((None, time.monotonic()))

    @property
    def alive(self) -> bool:
        return not self._ended and self._proc.poll() is None

    def send(self, line: str) -> None:
        self._transcript.write(self.label, ">", line)
        try:
            self._proc.stdin.write(line + "\n")
            self._proc.stdin.flush()
        except (OSError, ValueError):
            raise ProcessDied(f"{self.label} is gone (writing {line!r})") from None

    def read(self, deadline: float) -> tuple[str, float]:
        """The next line and when it arrived; raises ReadTimeout or ProcessDied."""
        if self._ended:
            raise ProcessDied(f"{self.label} exited{self._exit_status()}")
        try:
            line, stamp = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise ReadTimeout() from None
        if line is None:
            self._ended = True
            raise ProcessDied(f"{self.label} exited{self._exit_status()}")
        return line, stamp

    def pending(self) -> list[str]:
        """Lines already waiting, without blocking (an end of output is remembered, not raised)."""
        lines = []
        while not self._ended:
            try:
                line, _ = self._lines.get_nowait()
            except queue.Empty:
                break
            if line is None:
                self._ended = True
            else:
                lines.append(line)
        return lines

    def _exit_status(self) -> str:
        try:
            code = self._proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return " (closed its output)"
        if code >= 0:
            return f" (exit code {code})"
        try:
            return f" (killed by {signal.Signals(-code).name})"
        except ValueError:
            return f" (signal {-code})"

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._proc.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            self._proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=5)
        with contextlib.suppress(OSError, ValueError):
            self._proc.stdin.close()  # stdout is left to the reader thread, which meets its end
        CHILDREN.discard(self)

    def close(self, grace: float = 1.0) -> None:
        """Asks the engine to quit, then kills whatever is left of it."""
        with contextlib.suppress(ProcessDied):
            if self.alive:
                self.send("quit")
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=grace)
        self.kill()


# ----------------------------------------------------------------------------
# The game played


@dataclass(frozen=True)
class GameRules:
    """Which game the match plays, and what the arbiter must know of its notation.

    Pods: two seats, white (p1) and black (p2); results 1-0, 0-1, 1/2-1/2.
    POLD.R: seats p1 (Blue), p2 (Yellow) and with three players p3 (Red); results p1win, p2win,
    p3win, never a draw."""
    game: str = "pods"
    variant: str = "standard"  # Pods
    players: int = 2  # POLD.R
    size: int = 5  # POLD.R
    bricks: int = 16  # POLD.R

    @property
    def poldr(self) -> bool:
        return self.game == "poldr"

    @property
    def seat_keys(self) -> tuple[str, ...]:
        """The seats in turn order, as keys of clocks, times and records."""
        if self.poldr:
            return tuple(f"p{seat + 1}" for seat in range(self.players))
        return WHITE, BLACK

    @property
    def move_re(self) -> re.Pattern:
        return POLDR_MOVE_RE if self.poldr else MOVE_RE

    @property
    def position_re(self) -> re.Pattern:
        return POLDR_POSITION_RE if self.poldr else POSITION_RE

    def engine_options(self) -> list[tuple[str, str]]:
        """The options that select the game, set on every engine and on the referee."""
        if self.poldr:
            return [("Game", "poldr"), ("Players", str(self.players)), ("Size", str(self.size)),
                    ("Bricks", str(self.bricks))]
        return [("Variant", self.variant)]

    def side_to_move(self, fen: str) -> str:
        if self.poldr:
            return f"p{POLDR_SIDES.index(fen_fields(fen)[1]) + 1}"
        return side_to_move(fen)

    def win_for(self, seat: str) -> str:
        return f"{seat}win" if self.poldr else win_for(seat)

    @property
    def group_key(self) -> str:
        """The record field numbering the games that share an opening: "pair" with two seats, else "group"."""
        return "pair" if len(self.seat_keys) == 2 else "group"

    @property
    def seatings(self) -> list[tuple[int, ...]]:
        """Every assignment of the engines to the seats (engine index per seat), the first engine
        in the first seat first: each opening is played once per seating, so no engine profits from
        its seat (two players: a pair of games with colours swapped; three players: six games)."""
        return list(itertools.permutations(range(len(self.seat_keys))))

    def describe(self) -> str:
        if self.poldr:
            return f"POLD.R {self.players} players, size {self.size}, bricks {self.bricks}"
        return self.variant


def as_rules(game: GameRules | str) -> GameRules:
    """A Pods variant name stands for Pods with that variant."""
    return game if isinstance(game, GameRules) else GameRules("pods", variant=game)


# ----------------------------------------------------------------------------
# Engines speaking the protocol


@dataclass(frozen=True)
class Timeouts:
    startup: float = 10.0  # seconds from `ugi` to `ugiok`
    ready: float = 10.0  # seconds from `isready` (or a query) to its answer
    stall: float = 60.0  # seconds to wait for `bestmove` when no clock limits the search


@dataclass
class EngineSpec:
    name: str
    argv: list[str]
    options: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None


def deadline_seconds(deadline: float) -> str:
    return f"{max(0.0, deadline - time.monotonic()):.1f} s"


class UgiEngine:
    """A process that speaks the UGI handshake; every wait is bounded and a failure is an EngineFault."""

    def __init__(self, argv: list[str], label: str, timeouts: Timeouts,
                 cwd: str | None = None, transcript: Transcript | None = None):
        self.argv = argv
        self.label = label
        self.timeouts = timeouts
        self.cwd = cwd
        self.transcript = transcript
        self.process: EngineProcess | None = None
        self.options: dict[str, str] = {}  # lower-case name -> name as declared
        self.option_lines: list[str] = []  # the handshake's option lines, verbatim (random_mover.py declares them)
        self.id_name = ""

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.alive

    def start(self) -> None:
        self.kill()
        try:
            self.process = EngineProcess(self.argv, self.label, self.cwd, self.transcript)
        except ProcessDied as error:
            raise EngineFault("crash", str(error)) from None
        self.send("ugi")
        self._read_handshake()

    def _read_handshake(self) -> None:
        deadline = time.monotonic() + self.timeouts.startup
        while True:
            line = self.read_line(deadline, "ugiok")
            if line.strip() == "ugiok":
                return
            if option := OPTION_RE.match(line):
                self.options[option["name"].lower()] = option["name"]
                self.option_lines.append(line)
            elif line.startswith("id name "):
                self.id_name = line[len("id name "):].strip()

    def _running_process(self) -> EngineProcess:
        if self.process is None:
            raise EngineFault("crash", f"{self.label} is not running")
        return self.process

    def send(self, line: str) -> None:
        try:
            self._running_process().send(line)
        except ProcessDied as error:
            raise EngineFault("crash", str(error)) from None

    def read_line(self, deadline: float, awaited: str) -> str:
        try:
            return self._running_process().read(deadline)[0]
        except ProcessDied as error:
            raise EngineFault("crash", f"{error} while waiting for {awaited}") from None
        except ReadTimeout:
            raise EngineFault("stall", f"{self.label}: no {awaited} within {deadline_seconds(deadline)}") from None

    def sync(self) -> None:
        """isready -> readyok; anything printed before the answer is left behind."""
        self.send("isready")
        deadline = time.monotonic() + self.timeouts.ready
        while self.read_line(deadline, "readyok").strip() != "readyok":
            pass

    def set_option(self, name: str, value: str) -> None:
        self.send(f"setoption name {name} value {value}")

    def listed_moves(self, move_re: re.Pattern) -> list[str] | None:
        """The legal moves of the current position by the `moves` command (one line of moves, or
        `(none)`); None when the engine answers no such line (it does not know the command)."""
        self.send("moves")
        self.send("isready")
        deadline = time.monotonic() + self.timeouts.ready
        listed = None
        while (line := self.read_line(deadline, "readyok").strip()) != "readyok":
            words = line.split()
            if words == [NO_MOVE]:
                listed = []
            elif words and all(move_re.match(word) for word in words):
                listed = words
        return listed

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process = None

    def close(self) -> None:
        if self.process is not None:
            self.process.close()
            self.process = None


class Player(UgiEngine):
    """A playing engine: restarted when broken, asked for one move at a time."""

    def __init__(self, spec: EngineSpec, game: GameRules | str, timeouts: Timeouts,
                 transcript: Transcript | None = None):
        super().__init__(spec.argv, spec.name, timeouts, spec.cwd, transcript)
        self.spec = spec
        self.rules = as_rules(game)
        self.variant = self.rules.variant

    def launch(self) -> None:
        self.start()
        for name, value in self.rules.engine_options():
            self.set_option(name, value)
        for name, value in self.spec.options.items():
            self.set_option(name, value)
        self.sync()

    def undeclared_options(self) -> list[str]:
        return [name for name in self.spec.options if name.lower() not in self.options]

    def undeclared_game_options(self) -> list[str]:
        """The options selecting the game that the engine does not declare (Pods: none are required)."""
        if not self.rules.poldr:
            return []
        return [name for name, _ in self.rules.engine_options() if name.lower() not in self.options]

    def prepare_for_game(self) -> None:
        """A responsive engine that knows a new game starts; a dead one is started afresh."""
        if not self.running:
            self.launch()
        self._running_process().pending()  # output left over from the last game
        self.send("uginewgame")
        self.sync()

    def best_move(self, position_command: str, go_command: str, limit: float | None) -> tuple[str, float]:
        """Sends the position and `go`; returns the move and the seconds from `go` to `bestmove`.

        limit: seconds after which the move is a time forfeit; None = no clock (stall timeout)."""
        process = self._running_process()
        process.pending()  # a stale line must not pass for the answer
        self.send(position_command)
        self.send(go_command)
        sent = time.monotonic()
        wait = self.timeouts.stall if limit is None else limit
        while True:
            try:
                line, stamp = process.read(sent + wait)
            except ProcessDied as error:
                raise EngineFault("crash", f"{error} while searching") from None
            except ReadTimeout:
                reason = "stall" if limit is None else "time forfeit"
                raise EngineFault(reason, f"no bestmove within {wait * 1000:.0f} ms") from None
            move = parse_search_output(line, self.rules.move_re)
            if move is not None:
                return move, stamp - sent


def parse_search_output(line: str, move_re: re.Pattern = MOVE_RE) -> str | None:
    """The move of a `bestmove` line, None for harmless lines; garbage is a protocol error."""
    words = line.split()
    if not words or words[0] in ("info", "readyok"):
        return None
    well_formed = (words[0] == "bestmove" and len(words) in (2, 4)
                   and (len(words) == 2 or words[2] == "ponder")
                   and (words[1] == NO_MOVE or move_re.match(words[1])))
    if not well_formed:
        raise EngineFault("protocol error", f"unexpected output {line[:80]!r}")
    return words[1]


class Referee(UgiEngine):
    """The trusted judge: legality, game end and result come from here, never from the players."""

    def __init__(self, argv: list[str], game: GameRules | str, timeouts: Timeouts,
                 transcript: Transcript | None = None):
        super().__init__(argv, "referee", timeouts, None, transcript)
        self.rules = as_rules(game)
        self.variant = self.rules.variant
        self._has_moves_command: bool | None = None

    @contextlib.contextmanager
    def _judging(self):
        try:
            yield
        except EngineFault as fault:
            raise RefereeError(f"referee ({shlex.join(self.argv)}) failed: {fault.detail}") from None

    def launch(self) -> None:
        with self._judging():
            self.start()
            for name, value in self.rules.engine_options():
                self.set_option(name, value)
            self.sync()

    def new_game(self) -> None:
        with self._judging():
            self.send("uginewgame")

    def start_fen(self) -> str:
        """The game's (or variant's) start position line, as the referee writes it."""
        with self._judging():
            self.send("position startpos")
        return self.fen()

    def set_position(self, fen: str, moves: list[str] | tuple[str, ...] = ()) -> None:
        with self._judging():
            self.send(position_command(fen, moves))

    def ask(self, *questions: str, errors_allowed: bool = False) -> list[str]:
        """Sends queries in one go (pipelined) and returns the answers, `response` stripped.

        An `info string error` line before an answer means the referee rejected
        something we sent (a bad position): fatal unless errors_allowed."""
        answers, errors = self._answers_and_errors(questions)
        if errors and not errors_allowed:
            raise RefereeError(f"referee rejected a position: {errors[0]}")
        return answers

    def _answers_and_errors(self, questions: tuple[str, ...]) -> tuple[list[str], list[str]]:
        """The answers to the queries, and the `info ... error` lines that came before them."""
        with self._judging():
            for question in questions:
                self.send(f"query {question}")
            deadline = time.monotonic() + self.timeouts.ready + 0.001 * len(questions)
            answers, errors = [], []
            while len(answers) < len(questions):
                line = self.read_line(deadline, f"response to query {questions[len(answers)]}")
                if line.startswith("response "):
                    answers.append(line[len("response "):].strip())
                elif "error" in line and line.startswith("info"):
                    errors.append(line)
            return answers, errors

    def forfeit_winner(self, fen: str, moves: list[str] | tuple[str, ...]) -> str:
        """The seat that wins when the side to move after moves forfeits: the rules' best-standing
        other seat (most bricks in reserve, then the tie-break), as the referee ranks them.

        The engines' rule does the ranking: a move in `position ... moves` that cannot be played
        loses the game for the side that tried it, and `query result` then names that winner."""
        self.set_position(fen, [*moves, FORFEIT])
        (over, result), errors = self._answers_and_errors(("gameover", "result"))
        if not errors or over != "true":
            raise RefereeError(f"referee did not end the game on the forfeit word {FORFEIT!r} "
                               f"(gameover {over}, result {result})")
        wins = [f"p{number}win" for number in range(1, len(self.rules.seat_keys) + 1)]
        if result not in wins:
            raise RefereeError(f"referee gave a bad result {result!r} after a forfeit")
        return self.rules.seat_keys[wins.index(result)]

    def is_legal(self, move: str) -> bool:
        return self._boolean(self.ask(f"islegal {move}", errors_allowed=True)[0])

    def game_over(self) -> bool:
        return self._boolean(self.ask("gameover")[0])

    def result(self) -> str:
        answer = self.ask("result")[0]
        if self.rules.poldr:  # no draws in POLD.R
            allowed = {"none", *(self.rules.win_for(seat) for seat in self.rules.seat_keys)}
        else:
            allowed = {"p1win", "p2win", "draw", "none"}
        if answer not in allowed:
            raise RefereeError(f"referee gave a bad result {answer!r}")
        return answer

    def fen(self) -> str:
        answer = self.ask("fen")[0]
        if not self.rules.position_re.match(answer):
            raise RefereeError(f"referee gave a bad position line {answer!r}")
        return answer

    def legal_moves(self, fen: str, moves: list[str] | tuple[str, ...] = ()) -> list[str]:
        """Every legal move in a position that is not over, sorted (for reproducible random openings)."""
        self.set_position(fen, moves)
        if self._has_moves_command is not False:
            with self._judging():
                listed = self.listed_moves(self.rules.move_re)
            self._has_moves_command = listed is not None
            if listed is not None:
                return sorted(listed)
        if self.rules.poldr:
            raise RefereeError("the referee has no `moves` command, needed for random POLD.R openings")
        current = self.fen()
        candidates = candidate_moves(current, self.variant)
        answers = self.ask(*(f"islegal {move}" for move in candidates), errors_allowed=True)
        return sorted(move for move, answer in zip(candidates, answers) if self._boolean(answer))

    @staticmethod
    def _boolean(answer: str) -> bool:
        if answer not in ("true", "false"):
            raise RefereeError(f"referee answered {answer!r} where true or false was due")
        return answer == "true"


def position_command(fen: str, moves: list[str] | tuple[str, ...] = ()) -> str:
    return f"position fen {fen}" + (f" moves {' '.join(moves)}" if moves else "")


# ----------------------------------------------------------------------------
# Position lines


POINTS = [f"{file}{rank}" for rank in "123456" for file in "abcdef"]


def fen_fields(fen: str) -> list[str]:
    return fen.split(" ")


def side_to_move(fen: str) -> str:
    return WHITE if fen_fields(fen)[1] == "w" else BLACK


def ply_of(fen: str) -> int:
    return int(fen_fields(fen)[4])


def with_rotation(fen: str, rotation: int) -> str:
    fields = fen_fields(fen)
    fields[3] = str(rotation)
    return " ".join(fields)


def repetition_key(fen: str) -> str:
    """What makes two positions the same for repetition: board, side to move, hands."""
    return " ".join(fen_fields(fen)[:3])


def hand_of(fen: str, colour: str) -> str:
    hands = fen_fields(fen)[2].strip("-")
    return "".join(letter for letter in hands if letter.isupper() == (colour == WHITE))


def board_contents(fen: str) -> dict[str, str]:
    """Point name -> pod letter for every occupied point."""
    contents = {}
    for rank_index, row in enumerate(reversed(fen_fields(fen)[0].split("/"))):
        file_index = 0
        for char in row:
            if char.isdigit():
                file_index += int(char)
            else:
                contents[POINTS[rank_index * 6 + file_index]] = char
                file_index += 1
    return contents


def candidate_moves(fen: str, variant: str) -> list[str]:
    """Every move worth asking the referee about: placements from the hand, and in the advanced game
    moves of one's own pods to empty points (a superset of the legal moves)."""
    colour = side_to_move(fen)
    contents = board_contents(fen)
    empty = [point for point in POINTS if point not in contents]
    candidates = [f"{letter.upper()}@{point}" for letter in hand_of(fen, colour) for point in empty]
    if variant == "advanced":
        own = [point for point, letter in contents.items() if letter.isupper() == (colour == WHITE)]
        candidates += [source + target for source in own for target in empty]
    return candidates


def poldr_reserves(fen: str) -> list[int]:
    """POLD.R: the bricks in each reserve, in seat order."""
    return [int(count) for count in fen_fields(fen)[2].split(",")]


def poldr_shape(fen: str) -> tuple[int, int]:
    """POLD.R: (board size, number of players) of a position line."""
    return len(fen_fields(fen)[0].split("/")), len(poldr_reserves(fen))


# ----------------------------------------------------------------------------
# Openings


@dataclass(frozen=True)
class Opening:
    fen: str  # where the game starts: the position line after the opening moves
    base: str  # the position the opening moves were played from
    moves: tuple[str, ...] = ()


class OpeningBook:
    """The opening of every group of games (one per seating), reproducible from the seed and the
    group's number alone."""

    def __init__(self, start_fen: str, rotation: str | None, random_plies: int, seed: int,
                 lines: list[str] | None = None):
        self.start_fen = start_fen
        self.rotation = rotation
        self.random_plies = random_plies
        self.seed = seed
        self.lines = lines
        self._cache: dict[int, Opening] = {}
        self._lock = threading.Lock()

    def for_group(self, group: int, referee: Referee) -> Opening:
        with self._lock:
            if group not in self._cache:
                rng = random.Random(f"{self.seed}:{group}")  # string seeds are stable across runs
                self._cache[group] = self._random_walk(self._base(group, rng), rng, referee)
            return self._cache[group]

    def _base(self, group: int, rng: random.Random) -> str:
        if self.lines:
            return self.lines[group % len(self.lines)]
        if self.rotation is None:  # a game without rotations (POLD.R)
            return self.start_fen
        rotation = rng.choice(ROTATIONS) if self.rotation == "random" else int(self.rotation)
        return with_rotation(self.start_fen, rotation)

    def _random_walk(self, base: str, rng: random.Random, referee: Referee) -> Opening:
        if self.random_plies == 0:
            return Opening(base, base)
        for _attempt in range(50):
            moves: list[str] = []
            for _ply in range(self.random_plies):
                referee.set_position(base, moves)
                if referee.game_over():
                    break
                moves.append(rng.choice(referee.legal_moves(base, moves)))
            referee.set_position(base, moves)
            if len(moves) == self.random_plies and not referee.game_over():
                return Opening(referee.fen(), base, tuple(moves))
        raise RefereeError(f"no {self.random_plies} random plies from {base!r} leave the game open")


# ----------------------------------------------------------------------------
# Time controls and clocks


@dataclass(frozen=True)
class TimeControl:
    kind: str  # "tc", "movetime", "depth" or "nodes"
    base_ms: int = 0  # tc: starting clock
    inc_ms: int = 0  # tc: increment per move
    value: int = 0  # movetime (ms), depth or nodes

    def describe(self) -> str:
        if self.kind == "tc":
            return f"tc {self.base_ms / 1000:g}+{self.inc_ms / 1000:g}"
        return f"{self.kind} {self.value}"


class GameClock:
    """What each side may still use; the arbiter's own measurement is the only one that counts."""

    def __init__(self, control: TimeControl, margin_ms: int, seats: tuple[str, ...] = (WHITE, BLACK)):
        self.control = control
        self.margin_ms = margin_ms
        self.seats = seats  # in turn order: p1, p2, ...
        self.remaining = {seat: float(control.base_ms) for seat in seats}

    def go_command(self) -> str:
        control = self.control
        if control.kind == "tc":
            times = " ".join(f"p{number}time {max(0, int(self.remaining[seat]))}"
                             for number, seat in enumerate(self.seats, 1))
            incs = " ".join(f"p{number}inc {control.inc_ms}" for number in range(1, len(self.seats) + 1))
            return f"go {times} {incs}"
        return f"go {control.kind} {control.value}"

    def limit_seconds(self, colour: str) -> float | None:
        """Past this the move is a time forfeit; None when only depth or nodes limit the search."""
        if self.control.kind == "tc":
            return (self.remaining[colour] + self.margin_ms) / 1000
        if self.control.kind == "movetime":
            return (self.control.value + self.margin_ms) / 1000
        return None

    def charge(self, colour: str, elapsed_ms: float) -> bool:
        """Takes a move's time off the mover's clock; False when that is a time forfeit."""
        if self.control.kind == "movetime":
            return elapsed_ms <= self.control.value + self.margin_ms
        if self.control.kind != "tc":
            return True
        left = self.remaining[colour] - elapsed_ms
        if left < -self.margin_ms:
            return False
        self.remaining[colour] = max(left, 0.0) + self.control.inc_ms
        return True


def parse_tc(text: str) -> TimeControl:
    """'1+0.01' -> 1 s on the clock and 10 ms more after each move; '5' -> 5 s, no increment."""
    base, _, inc = text.partition("+")
    try:
        base_ms, inc_ms = round(float(base) * 1000), round(float(inc or 0) * 1000)
    except ValueError:
        raise UsageError(f"--tc {text!r}: expected seconds[+increment], e.g. 1+0.01") from None
    if base_ms <= 0 or inc_ms < 0:
        raise UsageError(f"--tc {text!r}: the clock must be positive and the increment not negative")
    return TimeControl("tc", base_ms=base_ms, inc_ms=inc_ms)


# ----------------------------------------------------------------------------
# Playing one game


@dataclass(frozen=True)
class GameSpec:
    index: int
    group: int  # the games of one group share an opening, one game per seating (two players: a pair)
    seating: tuple[int, ...]  # index into the engine list of the engine in each seat, in turn order


def game_specs(games: int, rules: GameRules) -> list[GameSpec]:
    """Game k of each group of len(seatings) games shares the group's opening and has seating k:
    with two players games 2p and 2p+1 share opening p with colours swapped, the first engine
    White (p1) in 2p; with three players games 6g to 6g+5 play opening g in all six seatings."""
    seatings = rules.seatings
    return [GameSpec(index, index // len(seatings), seatings[index % len(seatings)]) for index in range(games)]


@dataclass
class Ending:
    result: str  # "1-0", "0-1" or "1/2-1/2"; POLD.R: "p1win", "p2win" or "p3win"
    reason: str
    detail: str = ""
    faulty: str | None = None  # the engine whose fault ended the game


def win_for(colour: str) -> str:
    return "1-0" if colour == WHITE else "0-1"


def other(colour: str) -> str:
    return BLACK if colour == WHITE else WHITE


class GameRunner:
    """Plays one game: players propose moves, the referee decides everything.

    Seats are keyed white/black in Pods and p1/p2(/p3) in POLD.R (GameRules.seat_keys)."""

    def __init__(self, spec: GameSpec, opening: Opening, seats: dict[str, Player], referee: Referee,
                 settings: MatchSettings, stop: threading.Event):
        self.spec = spec
        self.opening = opening
        self.seats = seats
        self.referee = referee
        self.settings = settings
        self.rules = settings.rules
        self.stop = stop
        self.clock = GameClock(settings.time_control, settings.margin_ms, self.rules.seat_keys)
        self.moves: list[str] = []
        self.used_ms = {seat: 0.0 for seat in self.rules.seat_keys}
        self.seen: Counter[str] = Counter()
        # The current position; whose turn it is and the ply are read from the referee's position line each move.
        self.fen = opening.fen
        self.to_move, self.ply = self.rules.side_to_move(opening.fen), ply_of(opening.fen)
        self.faults: dict[str, EngineFault] = {}  # seat -> the fault its engine made in this game

    def run(self) -> dict | None:
        """The game's record, or None when the match was stopped during it."""
        self.referee.new_game()
        ending = self._prepare_players()
        while ending is None and not self.stop.is_set():
            ending = self._judge_position()
            if ending is None:
                ending = self._play_move()
        if self.stop.is_set():
            return None
        return self._record(ending)

    def _prepare_players(self) -> Ending | None:
        for seat in self.rules.seat_keys:
            try:
                self.seats[seat].prepare_for_game()
            except EngineFault as fault:
                fault = EngineFault(fault.reason, f"{fault.detail} (getting ready for the game)")
                if ending := self._forfeit(seat, fault):
                    return ending
        return None

    def _judge_position(self) -> Ending | None:
        """The referee's verdict on the current position; also notes whose turn it is."""
        self.referee.set_position(self.opening.fen, self.moves)
        over = self.referee.game_over()
        self.fen = fen = self.referee.fen()
        if self.rules.poldr:  # no repetitions, no draws: every POLD.R game ends by the rules
            if over:
                return self._poldr_ending(self.referee.result(), fen)
            self.to_move, self.ply = self.rules.side_to_move(fen), ply_of(fen)
            return None
        self.seen[repetition_key(fen)] += 1
        repeated = self.seen[repetition_key(fen)] >= 3
        if over:
            return self._natural_ending(self.referee.result(), fen, repeated)
        if repeated:
            return Ending("1/2-1/2", "threefold repetition")
        if self.settings.max_plies and ply_of(fen) >= self.settings.max_plies:
            return Ending("1/2-1/2", "max plies", f"adjudicated at ply {ply_of(fen)}")
        self.to_move, self.ply = side_to_move(fen), ply_of(fen)
        return None

    def _natural_ending(self, result: str, fen: str, repeated: bool) -> Ending:
        if result == "draw":
            return Ending("1/2-1/2", "threefold repetition" if repeated else "draw")
        if result not in ("p1win", "p2win"):
            raise RefereeError(f"referee says the game is over but gives result {result!r}")
        winner = WHITE if result == "p1win" else BLACK
        if self.settings.variant == "advanced" and not hand_of(fen, winner):
            return Ending(win_for(winner), "hand emptied")
        return Ending(win_for(winner), "no legal move")

    def _poldr_ending(self, result: str, fen: str) -> Ending:
        """POLD.R ends by a last brick laid in phase 1, or when nobody can clear: the most bricks win."""
        if result not in [self.rules.win_for(seat) for seat in self.rules.seat_keys]:
            raise RefereeError(f"referee says the POLD.R game is over but gives result {result!r}")
        reserves = poldr_reserves(fen)
        winner = self.rules.seat_keys.index(result[:-len("win")])
        detail = f"reserves {fen_fields(fen)[2]}"
        if reserves[winner] == 0:
            return Ending(result, "last brick", detail)
        if reserves.count(reserves[winner]) > 1:
            detail += ", tie broken: reached first"
        return Ending(result, "most bricks", detail)

    def _play_move(self) -> Ending | None:
        colour = self.to_move
        if colour in self.faults:  # its engine failed before its turn came: it forfeits now
            return self._forfeit(colour, self.faults[colour])
        player = self.seats[colour]
        asked = time.monotonic()
        try:
            move, elapsed = player.best_move(position_command(self.opening.fen, self.moves),
                                             self.clock.go_command(), self.clock.limit_seconds(colour))
        except EngineFault as fault:
            self.used_ms[colour] += (time.monotonic() - asked) * 1000  # a forfeited move's time counts too
            return self._forfeit(colour, fault)
        elapsed_ms = elapsed * 1000
        self.used_ms[colour] += elapsed_ms
        if not self.clock.charge(colour, elapsed_ms):
            return self._forfeit(colour, EngineFault("time forfeit", f"{move} took {elapsed_ms:.0f} ms"))
        if move == NO_MOVE:
            return self._forfeit(colour, EngineFault("illegal move", "bestmove (none) in a game still on"))
        if not self.referee.is_legal(move):
            return self._forfeit(colour, EngineFault("illegal move", f"{move} at ply {self.ply}"))
        self.moves.append(move)
        return None

    def _forfeit(self, seat: str, fault: EngineFault) -> Ending | None:
        """Charges a fault to seat, whose engine then cannot win this game.

        When one seat is left without a fault it wins (always so with two players). Otherwise the
        faulty seat must be the one to move, and the referee ranks the others by the rules'
        scoring (Referee.forfeit_winner). A seat whose engine fails while getting ready for the
        game, before its turn has come, cannot be put to the referee yet: the game goes on without
        asking it anything and it forfeits when its turn comes (None: the game is not over)."""
        if fault.reason != "illegal move":
            self.seats[seat].kill()  # crashed, hung or confused: a fresh process next game
        self.faults[seat] = fault
        standing = [other_seat for other_seat in self.rules.seat_keys if other_seat not in self.faults]
        if len(standing) == 1:
            winner = standing[0]
        elif seat == self.to_move:
            winner = self.referee.forfeit_winner(self.opening.fen, self.moves)
            if winner not in standing:
                raise RefereeError(f"referee let {winner}, which forfeited, win after {seat}'s fault")
        else:
            return None
        name = self.seats[seat].spec.name
        return Ending(self.rules.win_for(winner), fault.reason, f"{name}: {fault.detail}", faulty=name)

    def _record(self, ending: Ending) -> dict:
        if self.rules.poldr:
            return self._poldr_record(ending)
        return {
            "game": self.spec.index,
            "pair": self.spec.group,
            "white": self.seats[WHITE].spec.name,
            "black": self.seats[BLACK].spec.name,
            "variant": self.settings.variant,
            "opening": self.opening.fen,
            "opening_base": self.opening.base,
            "opening_moves": list(self.opening.moves),
            "moves": self.moves,
            "result": ending.result,
            "reason": ending.reason,
            "detail": ending.detail,
            "time_ms": {WHITE: round(self.used_ms[WHITE]), BLACK: round(self.used_ms[BLACK])},
            "time_control": self.settings.time_control.describe(),
            "seed": self.settings.seed,
            "finished": datetime.datetime.now().isoformat(timespec="seconds"),
        }

    def _poldr_record(self, ending: Ending) -> dict:
        """The POLD.R record: "game" is "poldr" here, and the game's number is "index". The games
        sharing an opening are a "pair" with two players and a "group" (of six) with three."""
        rules, keys = self.rules, self.rules.seat_keys
        return {
            "game": "poldr",
            "index": self.spec.index,
            rules.group_key: self.spec.group,
            "seats": [self.seats[seat].spec.name for seat in keys],
            "players": rules.players,
            "size": rules.size,
            "bricks": rules.bricks,
            "opening": self.opening.fen,
            "opening_base": self.opening.base,
            "opening_moves": list(self.opening.moves),
            "moves": self.moves,
            "final": self.fen,
            "result": ending.result,
            "winner": self.seats[ending.result[:-len("win")]].spec.name,
            "reason": ending.reason,
            "detail": ending.detail,
            "faulty": ending.faulty,
            "time_ms": {seat: round(self.used_ms[seat]) for seat in keys},
            "time_control": self.settings.time_control.describe(),
            "seed": self.settings.seed,
            "finished": datetime.datetime.now().isoformat(timespec="seconds"),
        }


# ----------------------------------------------------------------------------
# Statistics


def elo_from_score(score: float) -> float:
    """Logistic Elo difference for an expected score: -400 * log10(1/score - 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def mean_and_variance(counts: list[float], values: tuple[float, ...]) -> tuple[float, float]:
    total = sum(counts)
    mean = sum(count * value for count, value in zip(counts, values)) / total
    variance = sum(count * (value - mean) ** 2 for count, value in zip(counts, values)) / total
    return mean, variance


def elo_with_margin(counts: list[float], values: tuple[float, ...]) -> tuple[float, float]:
    """Elo and half the width of its 95% interval, from outcome counts and their scores in [0, 1].

    counts/values are per game (L, D, W) or per pair (pentanomial); the interval is the normal
    interval of the mean score mapped through elo_from_score."""
    n = sum(counts)
    if n == 0:
        return 0.0, math.nan
    mean, variance = mean_and_variance(counts, values)
    spread = Z_95 * math.sqrt(variance / n)
    elo = elo_from_score(mean)
    if not math.isfinite(elo):
        return elo, math.nan
    return elo, (elo_from_score(mean + spread) - elo_from_score(mean - spread)) / 2


def wilson_interval(wins: int, games: int) -> tuple[float, float]:
    """95% Wilson score interval of a win share (sound for small samples and shares near 0 or 1):
    (p + z^2/2n -/+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n), p = wins / games."""
    if games == 0:
        return 0.0, 1.0
    share, z2 = wins / games, Z_95 ** 2
    centre = share + z2 / (2 * games)
    spread = Z_95 * math.sqrt(share * (1 - share) / games + z2 / (4 * games ** 2))
    scale = 1 + z2 / games
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def likelihood_of_superiority(wins: int, losses: int) -> float:
    """LOS from wins and losses (draws carry no information): 0.5 * (1 + erf((W-L) / sqrt(2(W+L))))."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * (wins + losses))))


def logistic_score(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_llr(pentanomial: list[int], elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (elo1) against H0 (elo0), logistic Elo, from pentanomial counts
    [LL, LD, WL+DD, WD, WW], with the GSPRT approximation of fishtest and fastchess:
    LLR = N/2 * ln((var + (mean - s0)^2) / (var + (mean - s1)^2)), s = logistic score of each Elo.
    Empty cells count 0.001 (as in fastchess) so that all-equal results still move the LLR."""
    if sum(pentanomial) == 0:
        return 0.0
    counts = [count if count else 1e-3 for count in pentanomial]
    mean, variance = mean_and_variance(counts, PAIR_SCORES)
    score0, score1 = logistic_score(elo0), logistic_score(elo1)
    return 0.5 * sum(counts) * math.log((variance + (mean - score0) ** 2) / (variance + (mean - score1) ** 2))


@dataclass(frozen=True)
class Sprt:
    elo0: float
    elo1: float
    alpha: float
    beta: float

    def verdict(self, llr: float) -> str:
        lower, upper = sprt_bounds(self.alpha, self.beta)
        if llr >= upper:
            return "H1 accepted"
        if llr <= lower:
            return "H0 accepted"
        return "continue"


class Tally:
    """A match's results: wins per engine and per seat, and, for the two-player statistics (Elo,
    pentanomial, SPRT), games from the first engine's point of view. The first engine plays every game."""

    def __init__(self, first: str):
        self.first = first
        self.wins = self.losses = self.draws = 0  # the first engine's
        self.faults: Counter[tuple[str, str]] = Counter()  # (engine, reason)
        self.engine_wins: Counter[str] = Counter()
        self.seat_wins: Counter[str] = Counter()  # POLD.R: "p1", "p2", "p3" -> games won from that seat
        self.final_reserves: dict[str, list[int]] = {}  # POLD.R: engine -> its reserve when each game ended
        self._pair_points: dict[int, list[float]] = {}

    def add(self, record: dict) -> None:
        points = points_for(record, self.first)
        if points == 1:
            self.wins += 1
        elif points == 0:
            self.losses += 1
        else:
            self.draws += 1
        engines = record_engines(record)
        if len(engines) == 2:
            self._pair_points.setdefault(record["pair"], []).append(points)
        if winner := winner_of(record):
            self.engine_wins[winner] += 1
        if is_poldr_record(record):
            self.seat_wins[record["result"][:-len("win")]] += 1
            if "final" in record:  # records written before final positions were recorded have none
                for name, reserve in zip(engines, poldr_reserves(record["final"])):
                    self.final_reserves.setdefault(name, []).append(reserve)
        if record["reason"] in ENGINE_FAULTS:
            self.faults[(faulty_engine(record), record["reason"])] += 1

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    def trinomial(self) -> list[int]:
        return [self.losses, self.draws, self.wins]

    def pentanomial(self) -> list[int]:
        """[LL, LD, WL+DD, WD, WW] over complete pairs."""
        counts = [0] * 5
        for points in self._pair_points.values():
            if len(points) == 2:
                counts[round(2 * sum(points))] += 1
        return counts


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


def share_with_interval(wins: int, games: int) -> str:
    share = wins / games if games else 0.0
    low, high = wilson_interval(wins, games)
    return f"win share {100 * share:.2f}% (95% interval {100 * low:.2f}% to {100 * high:.2f}%)"


def format_elo(elo: float, margin: float) -> str:
    margin_text = "nan" if math.isnan(margin) else f"{margin:.1f}"
    return f"{elo + 0.0:+.1f} +/- {margin_text}"  # + 0.0 turns -0.0 into 0.0


# ----------------------------------------------------------------------------
# Records


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


# ----------------------------------------------------------------------------
# The match


@dataclass
class MatchSettings:
    engines: list[EngineSpec]
    referee_argv: list[str]
    variant: str | None  # Pods; None for POLD.R
    games: int
    concurrency: int
    time_control: TimeControl
    margin_ms: int
    max_plies: int
    rotation: str
    random_plies: int
    seed: int
    opening_lines: list[str] | None
    records_path: str
    sprt: Sprt | None
    timeouts: Timeouts
    transcript: Transcript
    rules: GameRules = field(default_factory=GameRules)


class Worker(threading.Thread):
    """Plays games one after another with its own engines (one per seat) and its own referee."""

    def __init__(self, number: int, match: Match):
        super().__init__(name=f"worker {number}", daemon=True)
        self.number = number
        self.match = match

    def run(self) -> None:
        settings = self.match.settings
        transcript = settings.transcript.tagged(f"w{self.number}:")
        players = [Player(spec, settings.rules, settings.timeouts, transcript) for spec in settings.engines]
        referee = Referee(settings.referee_argv, settings.rules, settings.timeouts, transcript)
        try:
            referee.launch()
            self._play_games(players, referee)
        except RefereeError as error:
            self._report_error(str(error))
        except Exception as error:  # a bug: report it instead of dying silently
            if not self.match.stop.is_set():
                traceback.print_exc()
            self._report_error(f"internal error in {self.name}: {error!r}")
        finally:
            for engine in (*players, referee):
                engine.close()
            self.match.results.put(("done", None))

    def _play_games(self, players: list[Player], referee: Referee) -> None:
        while not self.match.stop.is_set():
            try:
                spec = self.match.pending.get_nowait()
            except queue.Empty:
                return
            opening = self.match.book.for_group(spec.group, referee)
            seats = {seat: players[engine] for seat, engine in zip(self.match.settings.rules.seat_keys, spec.seating)}
            record = GameRunner(spec, opening, seats, referee, self.match.settings, self.match.stop).run()
            if record is not None:
                self.match.results.put(("record", record))

    def _report_error(self, message: str) -> None:
        if not self.match.stop.is_set():  # after a stop, killed engines fail on purpose
            self.match.results.put(("error", message))


class Match:
    """Schedules the games over the workers, records and reports results, stops on an SPRT verdict."""

    def __init__(self, settings: MatchSettings, book: OpeningBook, recorded: list[dict]):
        self.settings = settings
        self.book = book
        self.names = [spec.name for spec in settings.engines]
        self.first = self.names[0]
        self.tally = Tally(self.first)
        for record in recorded:
            self.tally.add(record)
        done = {record_index(record) for record in recorded}
        self.todo = [spec for spec in game_specs(settings.games, settings.rules) if spec.index not in done]
        self.pending: queue.Queue[GameSpec] = queue.Queue()
        for spec in self.todo:
            self.pending.put(spec)
        self.results: queue.Queue[tuple[str, object]] = queue.Queue()
        self.stop = threading.Event()
        self.sprt_verdict = "continue"

    def run(self) -> None:
        """Plays the missing games; raises RefereeError if the referee fails."""
        if self._sprt_decided():
            return
        records = RecordFile(self.settings.records_path)
        try:
            workers = [Worker(number, self) for number in range(min(self.settings.concurrency, len(self.todo)))]
            for worker in workers:
                worker.start()
            self._collect(records, len(workers))
        finally:
            self.stop.set()
            records.close()

    def _collect(self, records: RecordFile, workers: int) -> None:
        while workers:
            try:
                kind, payload = self.results.get(timeout=0.2)
            except queue.Empty:
                continue
            if kind == "done":
                workers -= 1
            elif kind == "error":
                raise RefereeError(payload)
            elif kind == "record" and not self.stop.is_set():
                records.write(payload)
                self.tally.add(payload)
                print(self.progress_line(payload), flush=True)
                if self._sprt_decided():
                    self.stop.set()
                    CHILDREN.kill_all()  # games in flight no longer matter
                    return

    def _sprt_decided(self) -> bool:
        if self.settings.sprt is None:
            return False
        llr = sprt_llr(self.tally.pentanomial(), self.settings.sprt.elo0, self.settings.sprt.elo1)
        self.sprt_verdict = self.settings.sprt.verdict(llr)
        return self.sprt_verdict != "continue"

    @property
    def two_players(self) -> bool:
        """Elo, LOS, the pentanomial and SPRT compare two engines: only for two-player games."""
        return len(self.names) == 2

    def progress_line(self, record: dict) -> str:
        tally = self.tally
        number = record_index(record) + 1
        head = (f"Game {number} ({' vs '.join(record_engines(record))}): {record['result']} {record['reason']} "
                f"| {tally.games}/{self.settings.games} games, ")
        if not self.two_players:
            return head + "wins " + ", ".join(f"{name} {tally.engine_wins[name]}" for name in self.names)
        elo, margin = elo_with_margin(tally.trinomial(), GAME_SCORES)
        first, second = self.names
        if is_poldr_record(record):
            line = (head + f"{first} vs {second} wins {tally.wins}-{tally.losses}, "
                    f"{first} win share {100 * tally.score():.1f}%, Elo {format_elo(elo, margin)}")
        else:
            line = (head + f"{first} vs {second} W-L-D {tally.wins}-{tally.losses}-{tally.draws}, "
                    f"score {100 * tally.score():.1f}%, Elo {format_elo(elo, margin)}")
        if sprt := self.settings.sprt:
            line += f", LLR {sprt_llr(tally.pentanomial(), sprt.elo0, sprt.elo1):.2f}"
        return line

    def report(self) -> str:
        tally, settings = self.tally, self.settings
        lines = [f"Results of {' vs '.join(self.names)} ({settings.rules.describe()}, "
                 f"{settings.time_control.describe()}, {tally.games} games):"]
        if settings.rules.poldr:
            lines += self._poldr_win_lines()
        else:
            lines.append(f"W-L-D: {tally.wins}-{tally.losses}-{tally.draws}, points "
                         f"{tally.wins + tally.draws / 2:g}/{tally.games} ({100 * tally.score():.2f}%)")
        if self.two_players:
            lines += self._two_player_lines()
        for (engine, reason), count in sorted(tally.faults.items()):
            lines.append(f"Faults: {engine} lost {count} by {reason}")
        lines.append(f"Records: {settings.records_path}")
        return "\n".join(lines)

    def _two_player_lines(self) -> list[str]:
        """Elo, LOS, pentanomial and SPRT of the first engine against the second."""
        tally, settings = self.tally, self.settings
        penta = tally.pentanomial()
        if sum(penta):
            elo, margin = elo_with_margin(penta, PAIR_SCORES)
            lines = [f"Elo: {format_elo(elo, margin)} (95%, from {sum(penta)} game pairs)"]
        else:
            elo, margin = elo_with_margin(tally.trinomial(), GAME_SCORES)
            lines = [f"Elo: {format_elo(elo, margin)} (95%, from single games)"]
        lines.append(f"LOS: {100 * likelihood_of_superiority(tally.wins, tally.losses):.2f}%")
        lines.append(f"Pentanomial [LL, LD, WL+DD, WD, WW]: {penta}"
                     + (" (no draws in POLD.R: LD and WD stay 0)" if settings.rules.poldr else ""))
        if settings.sprt:
            lines.append(self._sprt_line(penta))
        return lines

    def _poldr_win_lines(self) -> list[str]:
        """Per engine: games, wins, win share with its 95% (Wilson) interval and mean final reserve;
        then the same win shares per seat, which show any advantage of moving first."""
        tally = self.tally
        lines = []
        for name in self.names:
            reserves = tally.final_reserves.get(name)
            mean_reserve = f"{sum(reserves) / len(reserves):.2f}" if reserves else "n/a"
            lines.append(f"{name}: {tally.games} games, won {tally.engine_wins[name]}, "
                         f"{share_with_interval(tally.engine_wins[name], tally.games)}, "
                         f"mean final reserve {mean_reserve}")
        for seat, colour in zip(self.settings.rules.seat_keys, POLDR_COLOURS):
            lines.append(f"Seat {seat} ({colour}): won {tally.seat_wins[seat]}, "
                         f"{share_with_interval(tally.seat_wins[seat], tally.games)}")
        return lines

    def _sprt_line(self, penta: list[int]) -> str:
        sprt = self.settings.sprt
        llr = sprt_llr(penta, sprt.elo0, sprt.elo1)
        lower, upper = sprt_bounds(sprt.alpha, sprt.beta)
        return (f"SPRT [{sprt.elo0:g}, {sprt.elo1:g}] (logistic Elo, pentanomial GSPRT), alpha {sprt.alpha:g}, "
                f"beta {sprt.beta:g}: LLR {llr:.2f} ({lower:.2f}, {upper:.2f}) -> {sprt.verdict(llr)}")


# ----------------------------------------------------------------------------
# Compliance: a protocol self-test of one engine


START_FEN = "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0"


# Three-player POLD.R on the default board: the start, and moves Blue, Yellow, Red, Blue legal in turn.
POLDR3_START_FEN = "5/5/5/5/5 b 16,16,16 1 0 -,-,-"
POLDR3_MOVES = ("Pc3Me5", "Ma1", "Ma5", "Pe1")
# A position line of three players from a game of 8 bricks each, Blue to move.
POLDR3_FEN = "R3B/1r1b1/2P2/1y3/Y4 b 7,7,7 1 3 1,2,3"
# Illegal moves after a few of POLDR3_MOVES, and who then wins by the rules' ranking:
# Blue's first turn names no marker: Yellow and Red unchanged at 16, the earlier seat wins;
# Yellow's marker next to the pawn: Red's 16 bricks beat Blue's 15;
# Red's marker on Blue's brick: Blue and Yellow at 15, Blue's reserve changed first.
POLDR3_FORFEITS = (((), "Pc3", "p2win"), (("Pc3Me5",), "Mb2", "p3win"), (("Pc3Me5", "Ma1"), "Md4", "p1win"))


class CheckFailed(Exception):
    pass


class CheckSkipped(Exception):
    """The engine does not declare what the check needs (an option, a game)."""


class Compliance:
    """Runs protocol checks in order against one engine; each prints PASS, FAIL or SKIP."""

    CLOCK_FORMS = (
        "go p1time 2000 p2time 2000 p1inc 10 p2inc 10",
        "go wtime 2000 btime 2000 winc 10 binc 10",
        "go p2inc 10 p1inc 10 p2time 2000 p1time 2000",
        "go binc 10 winc 10 btime 2000 wtime 2000",
        "go p1time 2000 p2time 2000",
        "go wtime 2000 btime 2000",
    )

    def __init__(self, spec: EngineSpec, timeout: float, margin_ms: int, transcript: Transcript):
        self.spec = spec
        self.timeout = timeout
        self.margin = margin_ms / 1000
        self.transcript = transcript
        self.process: EngineProcess | None = None
        self.handshake: list[str] = []  # the lines of the last handshake, up to ugiok
        self.failures = 0
        self.skipped = 0

    def run(self) -> int:
        try:
            self._start()
        except StartFailed as error:
            raise UsageError(str(error)) from None
        checks = [
            ("handshake: ugi -> id name, id author, options, ugiok", self.check_handshake),
            ("uci -> uciok", self.check_uci_alias),
            ("isready -> readyok", self.check_isready),
            ("setoption with a known name in another case is silent", self.check_known_option),
            ("setoption with an unknown name -> info string", self.check_unknown_option),
            ("uginewgame then queries at once", self.check_queries_after_newgame),
            ("query islegal", self.check_islegal),
            ("position startpos moves", self.check_startpos_moves),
            ("position fen ... moves ...", self.check_fen_moves),
            *((f"{form} (from the start)", self._clock_check(form)) for form in self.CLOCK_FORMS),
            ("go charges the clock of the side to move (p1time/p2time)", self._side_clock_check("p1time", "p2time")),
            ("go charges the clock of the side to move (wtime/btime)", self._side_clock_check("wtime", "btime")),
            ("go movetime 200", self.check_movetime),
            ("go depth 2", lambda: self._go_from_start("go depth 2", self.timeout)),
            ("go nodes 2000", lambda: self._go_from_start("go nodes 2000", self.timeout)),
            ("go infinite, isready while searching, stop", self.check_infinite),
            ("an illegal move in position loses the game for its player", self.check_illegal_move_in_position),
            ("a played-out game: gameover, result, bestmove (none)", self.check_finished_game),
            ("newgame advanced rotation 90", self.check_newgame_advanced),
            ("POLD.R: newgame poldr players 3 selects three players", self.check_newgame_three_players),
            ("POLD.R: setoption name Players value 3 selects three players", self.check_players_option),
            ("POLD.R: a position line with three reserves", self.check_three_reserve_position),
            ("POLD.R: query turn along moves of three and of two players", self.check_turn_along_moves),
            ("POLD.R: query result, none while on, the rules' winner after an illegal move",
             self.check_three_player_forfeits),
            ("POLD.R: go p1time p2time p3time charges p3's clock with p3 to move", self.check_three_player_clock),
            ("POLD.R: d and eval name Blue, Yellow and Red", self.check_three_player_display),
            ("POLD.R: each MultiplayerSearch value plays a legal move", self.check_multiplayer_search),
            ("quit exits", self.check_quit),
        ]
        try:
            for name, check in checks:
                self._run_check(name, check)
        finally:
            self._kill()
        passed = len(checks) - self.failures - self.skipped
        print(f"compliance: {passed} passed, {self.failures} failed"
              + (f", {self.skipped} skipped" if self.skipped else ""))
        return 1 if self.failures else 0

    def _run_check(self, name: str, check) -> None:
        try:
            if check != self.check_handshake and (self.process is None or not self.process.alive):
                self._start()
            check()
        except (CheckFailed, ProcessDied) as error:
            self.failures += 1
            print(f"FAIL {name}: {error}", flush=True)
            if isinstance(error, ProcessDied):
                self._kill()
        except ReadTimeout:
            self.failures += 1
            print(f"FAIL {name}: no answer within {self.timeout:g} s", flush=True)
            self._kill()  # it may be stuck in a search: start afresh for the next check
        except CheckSkipped as reason:
            self.skipped += 1
            print(f"SKIP {name}: {reason}", flush=True)
        else:
            print(f"PASS {name}", flush=True)

    # -- talking to the engine

    def _start(self) -> list[str]:
        """Starts the engine and completes the handshake; returns the handshake lines."""
        self._kill()
        self.process = EngineProcess(self.spec.argv, self.spec.name, self.spec.cwd, self.transcript)
        self.send("ugi")
        lines = self.lines_until(r"ugiok")
        for name, value in self.spec.options.items():
            self.send(f"setoption name {name} value {value}")
        self.handshake = lines
        return lines

    def declared_option(self, name: str) -> re.Match | None:
        """The handshake's `option name <name> ...` line (OPTION_RE groups), if there is one."""
        for line in self.handshake:
            if (option := OPTION_RE.match(line)) and option["name"].lower() == name.lower():
                return option
        return None

    def _kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process = None

    def send(self, *lines: str) -> None:
        for line in lines:
            self.process.send(line)

    def line(self, timeout: float | None = None) -> str:
        return self.process.read(time.monotonic() + (timeout or self.timeout))[0]

    def lines_until(self, pattern: str, timeout: float | None = None) -> list[str]:
        """All lines up to and including the first that matches pattern in full."""
        deadline = time.monotonic() + (timeout or self.timeout)
        lines = []
        while True:
            line = self.process.read(deadline)[0]
            lines.append(line)
            if re.fullmatch(pattern, line):
                return lines

    def expect(self, pattern: str, what: str) -> re.Match:
        """The next line that is not `info ...` must match pattern in full."""
        while (line := self.line()).startswith("info") or not line.strip():
            pass
        if not (match := re.fullmatch(pattern, line)):
            raise CheckFailed(f"{what}: expected /{pattern}/, got {line!r}")
        return match

    def query(self, question: str, pattern: str) -> str:
        self.send(f"query {question}")
        return self.expect(f"response ({pattern})", f"query {question}").group(1)

    def best_move(self, limit: float) -> tuple[str, float]:
        """Waits for `bestmove`: only `info` lines may come first; returns the move and seconds taken."""
        sent = time.monotonic()
        while True:
            line, stamp = self.process.read(sent + limit)
            if line.startswith("info") or not line.strip():
                continue
            if match := re.fullmatch(r"bestmove (\S+)(?: ponder \S+)?", line):
                return match.group(1), stamp - sent
            raise CheckFailed(f"expected info or bestmove, got {line!r}")

    def sync(self) -> list[str]:
        """isready -> readyok; returns what came before it."""
        self.send("isready")
        return self.lines_until("readyok")[:-1]

    # -- the checks

    def check_handshake(self) -> None:
        lines = self._start()
        for line in lines[:-1]:
            if not re.fullmatch(r"id (name|author) .+|option name .+? type (check|spin|combo|button|string)( .*)?"
                                r"|info( .*)?|", line):
                raise CheckFailed(f"unexpected handshake line {line!r}")
        for needed in ("id name ", "id author "):
            if not any(line.startswith(needed) for line in lines):
                raise CheckFailed(f"no '{needed.strip()}' line")

    def check_uci_alias(self) -> None:
        self.send("uci")
        self.lines_until("uciok")

    def check_isready(self) -> None:
        if extra := self.sync():
            raise CheckFailed(f"unexpected output before readyok: {extra}")

    def check_known_option(self) -> None:
        self.send("setoption name hash value 16", "setoption name THREADS value 1")
        complaints = [line for line in self.sync() if re.search(r"unknown|error", line, re.I)]
        if complaints:
            raise CheckFailed(f"complains about a declared option: {complaints}")

    def check_unknown_option(self) -> None:
        self.send("setoption name NoSuchOption value 1")
        if not any(line.startswith("info string") for line in self.sync()):
            raise CheckFailed("no info string line about the unknown option")

    def check_queries_after_newgame(self) -> None:
        self.send("setoption name Variant value standard", "uginewgame")
        answers = (self.query("gameover", r"\S+"), self.query("p1turn", r"\S+"), self.query("result", r"\S+"),
                   self.query("fen", r".+"))
        if answers != ("false", "true", "none", START_FEN):
            raise CheckFailed(f"gameover/p1turn/result/fen gave {answers}, expected false/true/none/{START_FEN}")

    def check_islegal(self) -> None:
        self.send("position startpos")
        expectations = {"A@c3": "true", "a@c3": "true", "N@c3": "false", "a1a2": "false", "nonsense": "false"}
        for move, expected in expectations.items():
            if (answer := self.query(f"islegal {move}", r"\S+")) != expected:
                raise CheckFailed(f"islegal {move}: {answer}, expected {expected}")

    def check_startpos_moves(self) -> None:
        self.send("position startpos moves A@c3")
        if self.query("p1turn", r"\S+") != "false":
            raise CheckFailed("after one move it should be Black's turn")
        fen = self.query("fen", r".+")
        if not POSITION_RE.match(fen) or ply_of(fen) != 1 or side_to_move(fen) != BLACK:
            raise CheckFailed(f"bad position line after A@c3: {fen!r}")

    def check_fen_moves(self) -> None:
        self.send("position startpos moves A@c3")
        after_one = self.query("fen", r".+")
        self.send(f"position fen {START_FEN} moves A@c3")
        if (same := self.query("fen", r".+")) != after_one:
            raise CheckFailed(f"position fen start moves A@c3 gave {same!r}, startpos gave {after_one!r}")
        self.send(f"position fen {after_one}", "go depth 1")
        reply, _ = self.best_move(self.timeout)
        self.send(f"position fen {after_one} moves {reply}")
        via_fen = self.query("fen", r".+")
        self.send(f"position startpos moves A@c3 {reply}")
        via_start = self.query("fen", r".+")
        if via_fen != via_start or ply_of(via_fen) != 2:
            raise CheckFailed(f"fen+moves gave {via_fen!r}, startpos+moves gave {via_start!r}")

    def _go_from_start(self, go: str, limit: float, moves: str = "") -> tuple[str, float]:
        self.send("position startpos" + (f" moves {moves}" if moves else ""), go)
        move, elapsed = self.best_move(limit)
        if self.query(f"islegal {move}", r"\S+") != "true":
            raise CheckFailed(f"{go}: bestmove {move} is not legal")
        return move, elapsed

    def _clock_check(self, go: str):
        def check() -> None:
            _, elapsed = self._go_from_start(go, 2.0 + self.margin)
            if elapsed > 2.0:
                raise CheckFailed(f"used {elapsed * 1000:.0f} ms of a 2000 ms clock")
        return check

    def _side_clock_check(self, white_field: str, black_field: str):
        """Black to move with 300 ms left and White with a minute: Black's clock must be the one used
        (White's would allow seconds)."""
        def check() -> None:
            go = f"go {white_field} 60000 {black_field} 300"
            _, elapsed = self._go_from_start(go, 0.3 + self.margin + 1.0, moves="A@c3")
            if elapsed > 0.3 + self.margin:
                raise CheckFailed(f"{go} with Black to move took {elapsed * 1000:.0f} ms")
        return check

    def check_movetime(self) -> None:
        _, elapsed = self._go_from_start("go movetime 200", 0.2 + self.margin + 1.0)
        if elapsed > 0.2 + self.margin:
            raise CheckFailed(f"took {elapsed * 1000:.0f} ms (margin {self.margin * 1000:.0f} ms)")

    def check_infinite(self) -> None:
        self.send("position startpos", "go infinite")
        with contextlib.suppress(ReadTimeout):
            early = self.lines_until(r"bestmove.*", timeout=0.3)
            raise CheckFailed(f"bestmove during go infinite before stop: {early[-1]!r}")
        self.sync()
        self.send("stop")
        move, _ = self.best_move(1.0 + self.margin)
        if not MOVE_RE.match(move):
            raise CheckFailed(f"bestmove {move!r} after stop")

    def check_illegal_move_in_position(self) -> None:
        self.send("setoption name Variant value standard", "uginewgame", "position startpos moves N@c3")
        answers = (self.query("gameover", r"\S+"), self.query("result", r"\S+"))
        if answers != ("true", "p2win"):
            raise CheckFailed(f"gameover/result after White's illegal N@c3: {answers}, expected true/p2win")
        self.send("go depth 1")
        if (move := self.best_move(self.timeout)[0]) != NO_MOVE:
            raise CheckFailed(f"bestmove {move} in a lost game, expected (none)")

    def check_finished_game(self) -> None:
        """Self-play at depth 1 in the standard game (at most 28 placements) to its end."""
        self.send("setoption name Variant value standard", "uginewgame")
        moves: list[str] = []
        while True:
            self.send("position startpos" + (f" moves {' '.join(moves)}" if moves else ""))
            if self.query("gameover", r"true|false") == "true":
                break
            if len(moves) > 40:
                raise CheckFailed("standard game not over after 40 plies")
            self.send("go depth 1")
            moves.append(self.best_move(self.timeout)[0])
        result = self.query("result", r"\S+")
        loser_to_move = "p2win" if self.query("p1turn", r"\S+") == "true" else "p1win"
        if result != loser_to_move:
            raise CheckFailed(f"result {result}, expected {loser_to_move} (the side to move has no move)")
        if self.query(f"islegal {moves[-1]}", r"\S+") != "false":
            raise CheckFailed("a move is legal in a finished game")
        self.send("go depth 1")
        if (move := self.best_move(self.timeout)[0]) != NO_MOVE:
            raise CheckFailed(f"bestmove {move} in a finished game, expected (none)")

    def check_newgame_advanced(self) -> None:
        self.send("newgame advanced rotation 90", "position startpos")
        fen = self.query("fen", r".+")
        if fen != with_rotation(START_FEN, 90):
            raise CheckFailed(f"start position {fen!r}, expected rotation 90")
        self._go_from_start("go depth 2", self.timeout)
        self.send("setoption name Variant value standard", "newgame standard rotation 0")

    # -- three-player POLD.R

    def _require_three_player_poldr(self) -> None:
        """Engines that play Pods only, or POLD.R for two, are not held to the three-player checks."""
        players = self.declared_option("Players")
        game = self.declared_option("Game")
        if players is None or game is None or " var poldr" not in game.group(0):
            raise CheckSkipped("no POLD.R: the engine declares no Game option with var poldr and Players option")
        if not (most := re.search(r" max (\d+)", players.group(0))) or int(most.group(1)) < 3:
            raise CheckSkipped("the Players option does not go up to 3")

    def _poldr_position(self, players: int, moves: tuple[str, ...] | list[str] = ()) -> None:
        """Selects POLD.R for players on the default board and sets the start plus moves."""
        self.send(f"newgame poldr players {players} size 5 bricks 16",
                  "position startpos" + (f" moves {' '.join(moves)}" if moves else ""))

    def check_newgame_three_players(self) -> None:
        self._require_three_player_poldr()
        self._poldr_position(3)
        answers = (self.query("fen", r".+"), self.query("turn", r"\S+"), self.query("gameover", r"\S+"),
                   self.query("result", r"\S+"))
        if answers != (POLDR3_START_FEN, "p1", "false", "none"):
            raise CheckFailed(f"fen/turn/gameover/result gave {answers}, "
                              f"expected {POLDR3_START_FEN}/p1/false/none")

    def check_players_option(self) -> None:
        self._require_three_player_poldr()
        self._poldr_position(2)
        self.send("setoption name Game value poldr", "setoption name Players value 3", "position startpos")
        if (fen := self.query("fen", r".+")) != POLDR3_START_FEN:
            raise CheckFailed(f"start position {fen!r} after Players 3, expected {POLDR3_START_FEN}")

    def check_three_reserve_position(self) -> None:
        """The line itself gives the number of players, whatever Players says."""
        self._require_three_player_poldr()
        self._poldr_position(2)
        self.send(f"position fen {POLDR3_FEN}")
        if errors := [line for line in self.sync() if "error" in line]:
            raise CheckFailed(f"position fen {POLDR3_FEN} refused: {errors[0]}")
        if (fen := self.query("fen", r".+")) != POLDR3_FEN:
            raise CheckFailed(f"query fen gave {fen!r}, expected {POLDR3_FEN}")
        if (turn := self.query("turn", r"\S+")) != "p1":
            raise CheckFailed(f"query turn gave {turn}, expected p1 (side b)")

    def check_turn_along_moves(self) -> None:
        """After k moves it is seat k mod players to move; `query p1turn` agrees with `query turn`."""
        self._require_three_player_poldr()
        for players in (3, 2):
            moves = [move for move in POLDR3_MOVES if players == 3 or move != "Ma5"]  # no Red: Blue's Pe1 follows Ma1
            for played in range(len(moves) + 1):
                self._poldr_position(players, moves[:played])
                expected = f"p{played % players + 1}"
                turn, p1turn = self.query("turn", r"\S+"), self.query("p1turn", r"\S+")
                if (turn, p1turn) != (expected, str(expected == "p1").lower()):
                    raise CheckFailed(f"{players} players after {' '.join(moves[:played]) or 'no move'}: "
                                      f"turn {turn}, p1turn {p1turn}, expected {expected}")

    def check_three_player_forfeits(self) -> None:
        self._require_three_player_poldr()
        self._poldr_position(3, POLDR3_MOVES)
        if (result := self.query("result", r"\S+")) != "none":
            raise CheckFailed(f"result {result} in a game still on, expected none")
        for moves, illegal, winner in POLDR3_FORFEITS:
            self._poldr_position(3, (*moves, illegal))
            answers = (self.query("gameover", r"\S+"), self.query("result", r"\S+"))
            if answers != ("true", winner):
                raise CheckFailed(f"gameover/result after {' '.join((*moves, illegal))} (the last illegal): "
                                  f"{answers}, expected true/{winner}")

    def check_three_player_clock(self) -> None:
        """Red to move with 300 ms left, the others with a minute: Red's clock must be the one used."""
        self._require_three_player_poldr()
        moves = POLDR3_MOVES[:2]
        self._poldr_position(3, moves)
        go = "go p1time 60000 p2time 60000 p3time 300 p1inc 0 p2inc 0 p3inc 0"
        self.send(go)
        move, elapsed = self.best_move(0.3 + self.margin + 1.0)
        if elapsed > 0.3 + self.margin:
            raise CheckFailed(f"{go} with p3 to move took {elapsed * 1000:.0f} ms")
        if self.query(f"islegal {move}", r"\S+") != "true":
            raise CheckFailed(f"{go}: bestmove {move} is not legal")

    def check_three_player_display(self) -> None:
        self._require_three_player_poldr()
        self._poldr_position(3, POLDR3_MOVES[:2])
        for command in ("d", "eval"):
            self.send(command)
            shown = "\n".join(self.sync())
            if missing := [colour for colour in POLDR_COLOURS if colour not in shown]:
                raise CheckFailed(f"{command} does not mention {', '.join(missing)}: {shown!r}")

    def check_multiplayer_search(self) -> None:
        """Each value of the MultiplayerSearch combo answers a short three-player go with a legal move."""
        self._require_three_player_poldr()
        option = self.declared_option("MultiplayerSearch")
        if option is None:
            raise CheckSkipped("no MultiplayerSearch option")
        values = re.findall(r" var (\S+)", option.group(0))
        default = re.search(r" default (\S+)", option.group(0))
        for value in values:
            self.send(f"setoption name MultiplayerSearch value {value}")
            self._poldr_position(3, POLDR3_MOVES)
            self.send("go depth 3")
            move, _ = self.best_move(self.timeout)
            if self.query(f"islegal {move}", r"\S+") != "true":
                raise CheckFailed(f"MultiplayerSearch {value}: bestmove {move} is not legal")
        if default:
            self.send(f"setoption name MultiplayerSearch value {default.group(1)}")

    def check_quit(self) -> None:
        self.send("quit")
        deadline = time.monotonic() + 2.0
        try:
            while True:  # whatever it still prints, its output must end
                self.process.read(deadline)
        except ProcessDied:
            return
        except ReadTimeout:
            raise CheckFailed("still running 2 s after quit") from None


# ----------------------------------------------------------------------------
# Command line


class ArgumentParser(argparse.ArgumentParser):
    """Bad usage is one line on stderr and exit 2, never a usage dump or a traceback."""

    def error(self, message: str):
        raise UsageError(message)


def parse_engine(tokens: list[str], index: int) -> EngineSpec:
    """`name=new cmd="./podium --flag" option.Hash=32 dir=/tmp` -> EngineSpec."""
    fields: dict[str, str] = {}
    options: dict[str, str] = {}
    for token in tokens:
        key, equals, value = token.partition("=")
        if not equals:
            raise UsageError(f"--engine: expected key=value, got {token!r}")
        if key.startswith("option."):
            options[key[len("option."):]] = value
        elif key in ("name", "cmd", "dir"):
            fields[key] = value
        else:
            raise UsageError(f"--engine: unknown key {key!r} (use name=, cmd=, dir=, option.NAME=)")
    if not fields.get("cmd"):
        raise UsageError("--engine needs cmd=COMMAND")
    argv = shlex.split(fields["cmd"])
    if not argv:
        raise UsageError("--engine: empty cmd=")
    name = fields.get("name") or f"{os.path.basename(argv[0])}#{index + 1}"
    return EngineSpec(name, argv, options, fields.get("dir"))


def parse_key_values(tokens: list[str], allowed: dict[str, float], what: str) -> dict[str, float]:
    values = dict(allowed)
    for token in tokens:
        key, equals, value = token.partition("=")
        if not equals or key not in allowed:
            raise UsageError(f"{what}: expected {' '.join(f'{k}=...' for k in allowed)}, got {token!r}")
        try:
            values[key] = float(value)
        except ValueError:
            raise UsageError(f"{what}: {key} must be a number, got {value!r}") from None
    return values


def parse_sprt(tokens: list[str] | None) -> Sprt | None:
    if tokens is None:
        return None
    values = parse_key_values(tokens, {"elo0": 0.0, "elo1": 5.0, "alpha": 0.05, "beta": 0.05}, "--sprt")
    sprt = Sprt(values["elo0"], values["elo1"], values["alpha"], values["beta"])
    if not (sprt.elo0 < sprt.elo1 and 0 < sprt.alpha < 1 and 0 < sprt.beta < 1 and sprt.alpha + sprt.beta < 1):
        raise UsageError("--sprt: need elo0 < elo1 and alpha, beta in (0, 1) with alpha + beta < 1")
    return sprt


def common_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", action="append", nargs="+", default=[], metavar="KEY=VALUE",
                        help="an engine: name=NAME cmd=COMMAND [dir=DIR] [option.NAME=VALUE ...]")
    parser.add_argument("--timemargin", type=int, default=100, metavar="MS",
                        help="grace beyond the clock or movetime before a time forfeit (default 100)")
    parser.add_argument("--log", metavar="FILE", help="append all engine traffic to FILE")


MATCH_EPILOG = """\
POLD.R (--game poldr): the engines and the referee get `setoption name Game value poldr` and the
Players, Size and Bricks options. Each opening (the start position after --random-plies random
moves, or a POLD.R position line of --openings) is played once per seating: twice with two
players (the first engine as p1 (Blue), then as p2 (Yellow)); six times with --players 3 and
three --engine, every order of the engines over p1 (Blue), p2 (Yellow), p3 (Red), so that no
engine profits from its seat. --games is then rounded up to a multiple of 6: games 6g to 6g+5
play opening g. Under --tc each seat has its own clock (go p1time p2time p3time p1inc p2inc p3inc).

Records carry "game": "poldr" (the game's number is then "index"), "pair" (two players) or
"group" (three players: the games sharing an opening), "seats" (engine names in seat order),
"opening", "moves", "final" (the last position line), "result" p1win, p2win or p3win, "reason",
"faulty" (the engine whose fault ended the game, or null) and "time_ms" per seat. POLD.R has no
draws: the summary gives each engine's games, wins, win share with a 95% (Wilson) interval and
mean reserve in the final positions, then each seat's wins and win share. Elo, LOS, the
pentanomial and --sprt compare two engines over opening pairs as for Pods (a pair is LL, WL or WW);
three-player matches have none of them.

A fault (illegal move, crash, stall, time forfeit, protocol error) loses the game for the engine
that made it. With three players the winner is then the other seat standing best by the rules
(most bricks in reserve, then the tie-break), as the referee ranks it: the arbiter sends it the
game's moves followed by the word `forfeit`, which is no move, and asks `query result`. An engine
that fails while getting ready for a game before its turn has come forfeits when its turn comes;
the others play on until then.

--variant, --rotation and --max-plies are Pods only; --size, --bricks, --players POLD.R only.
"""


def match_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="arbiter.py",
                            description="Play a match between two Pods engines, or two or three POLD.R engines.",
                            epilog=MATCH_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    common_arguments(parser)
    parser.add_argument("--referee", metavar="CMD", help="trusted Podium for legality and results "
                        "(default: the first engine's cmd)")
    parser.add_argument("--game", choices=GAMES, default="pods", help="the game played (default pods)")
    parser.add_argument("--variant", choices=VARIANTS, help="Pods: standard (default) or advanced")
    parser.add_argument("--players", type=int, metavar="N", help="POLD.R: players, 2 (default) or 3, one --engine each")
    parser.add_argument("--size", type=int, metavar="N", help="POLD.R: board size, 4 to 9 (default 5)")
    parser.add_argument("--bricks", type=int, metavar="N", help="POLD.R: bricks per player, 1 to 40 (default 16)")
    parser.add_argument("--games", type=int, default=100, help="number of games (the games of a pair, or of a group "
                        "of 6 with three players, share an opening)")
    parser.add_argument("--concurrency", type=int, default=1, help="games played at once")
    limits = parser.add_mutually_exclusive_group(required=True)
    limits.add_argument("--tc", metavar="S+INC", help="clock in seconds plus increment, e.g. 1+0.01")
    limits.add_argument("--movetime", type=int, metavar="MS")
    limits.add_argument("--depth", type=int)
    limits.add_argument("--nodes", type=int)
    parser.add_argument("--max-plies", type=int, help="Pods: adjudicate a draw at this ply (default 400, 0: never)")
    parser.add_argument("--rotation", choices=["0", "90", "180", "270", "random"],
                        help="Pods: board rotation of the start position (default 0; not used with --openings)")
    parser.add_argument("--random-plies", type=int, default=0, help="random legal moves starting each opening")
    parser.add_argument("--openings", metavar="FILE", help="position lines of the game, one per line, used in turn")
    parser.add_argument("--seed", type=int, help="seed for rotations and random plies (default: random, "
                        "or the one in the --resume file)")
    parser.add_argument("--records", metavar="FILE", help="JSON lines, one per game (default: timestamped file)")
    parser.add_argument("--resume", metavar="FILE", help="continue the match recorded in FILE")
    parser.add_argument("--sprt", nargs="+", metavar="KEY=VALUE",
                        help="elo0=0 elo1=5 alpha=0.05 beta=0.05: stop when the test decides")
    parser.add_argument("--startup-timeout", type=float, default=10.0, metavar="S", help="ugi -> ugiok")
    parser.add_argument("--ready-timeout", type=float, default=10.0, metavar="S", help="isready / query answers")
    parser.add_argument("--stall-timeout", type=float, default=60.0, metavar="S",
                        help="bestmove under --depth or --nodes")
    return parser


def compliance_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="arbiter.py compliance", description="Protocol self-test of one engine.")
    common_arguments(parser)
    parser.add_argument("--timeout", type=float, default=5.0, metavar="S", help="longest wait for any answer")
    return parser


def time_control_from(args: argparse.Namespace) -> TimeControl:
    if args.tc is not None:
        return parse_tc(args.tc)
    for kind in ("movetime", "depth", "nodes"):
        value = getattr(args, kind)
        if value is not None:
            if value <= 0:
                raise UsageError(f"--{kind} must be positive")
            return TimeControl(kind, value=value)
    raise UsageError("one of --tc, --movetime, --depth, --nodes is required")


def rules_from(args: argparse.Namespace) -> GameRules:
    """The game and its settings; options of the other game are a usage error."""
    def given(*names: str) -> list[str]:
        return [f"--{name.replace('_', '-')}" for name in names if getattr(args, name) is not None]

    if args.game == "pods":
        if wrong := given("players", "size", "bricks"):
            raise UsageError(f"{', '.join(wrong)}: for POLD.R only, but the game is Pods (add --game poldr)")
        return GameRules("pods", variant=args.variant or "standard")
    if wrong := given("variant", "rotation", "max_plies"):
        raise UsageError(f"{', '.join(wrong)}: for Pods only, not POLD.R (POLD.R has no rotations, "
                         f"and its games always end, without draws)")
    players = 2 if args.players is None else args.players
    size = 5 if args.size is None else args.size
    bricks = 16 if args.bricks is None else args.bricks
    if players not in (2, 3):
        raise UsageError(f"--players {players}: POLD.R is played by 2 or 3 players")
    if not 4 <= size <= 9:
        raise UsageError(f"--size {size}: POLD.R boards are 4 to 9 cells wide")
    if not 1 <= bricks <= 40:
        raise UsageError(f"--bricks {bricks}: POLD.R reserves hold 1 to 40 bricks")
    return GameRules("poldr", players=players, size=size, bricks=bricks)


def read_opening_lines(path: str, rules: GameRules = GameRules()) -> list[str]:
    try:
        with open(path, encoding="utf-8") as handle:
            lines = [line.strip() for line in handle]
    except OSError as error:
        raise UsageError(f"--openings {path}: {error.strerror}") from None
    lines = [line for line in lines if line and not line.startswith("#")]
    if not lines:
        raise UsageError(f"--openings {path}: no position lines")
    for number, line in enumerate(lines, 1):
        if not rules.position_re.match(line):
            kind = "POLD.R position line" if rules.poldr else "position line"
            raise UsageError(f"--openings {path}: line {number} is not a {kind}: {line!r}")
        if rules.poldr and poldr_shape(line) != (rules.size, rules.players):
            size, players = poldr_shape(line)
            raise UsageError(f"--openings {path}: line {number} has size {size} and {players} players, "
                             f"but the match has size {rules.size} and {rules.players} players: {line!r}")
    return lines


def engines_from(args: argparse.Namespace, rules: GameRules) -> list[EngineSpec]:
    """One --engine per seat, each with its own name."""
    seats = len(rules.seat_keys)
    if len(args.engine) != seats:
        match = "a match" if seats == 2 else f"a {seats}-player match (--players {seats})"
        raise UsageError(f"{match} needs exactly {NUMBER_WORDS[seats]} --engine, got {len(args.engine)}")
    engines = [parse_engine(tokens, index) for index, tokens in enumerate(args.engine)]
    names = [engine.name for engine in engines]
    if repeated := sorted({name for name in names if names.count(name) > 1}):
        raise UsageError(f"several engines are named {', '.join(map(repr, repeated))}: give them different name=")
    return engines


def whole_groups(games: int, rules: GameRules) -> int:
    """Three players: the number of games rounded up to whole groups of six, so that every opening
    is played in all six seatings. Two players keep their count (a last, odd game plays one seating)."""
    if len(rules.seat_keys) == 2:
        return games
    group = len(rules.seatings)
    return -(-games // group) * group


def settings_from(args: argparse.Namespace) -> tuple[MatchSettings, list[dict]]:
    rules = rules_from(args)
    engines = engines_from(args, rules)
    max_plies = 400 if args.max_plies is None else args.max_plies
    if args.games < 1 or args.concurrency < 1 or args.random_plies < 0 or max_plies < 0:
        raise UsageError("--games and --concurrency must be positive, --random-plies and --max-plies not negative")
    if args.sprt is not None and len(rules.seat_keys) != 2:
        raise UsageError("--sprt: the SPRT compares two engines; it is not available with three players")
    games = whole_groups(args.games, rules)
    if games != args.games:
        print(f"arbiter: --games {args.games} rounded up to {games}, whole groups of "
              f"{len(rules.seatings)} seatings", file=sys.stderr)
    recorded = resumed_records(args.resume, engines, games, rules) if args.resume else []
    seed = args.seed
    if seed is None:
        seed = next((record["seed"] for record in recorded if "seed" in record), random.randrange(2**32))
    records_path = args.resume or args.records or datetime.datetime.now().strftime("arbiter-%Y%m%d-%H%M%S.jsonl")
    settings = MatchSettings(
        engines=engines,
        referee_argv=shlex.split(args.referee) if args.referee else engines[0].argv,
        variant=None if rules.poldr else rules.variant,
        games=games,
        concurrency=args.concurrency,
        time_control=time_control_from(args),
        margin_ms=args.timemargin,
        max_plies=0 if rules.poldr else max_plies,
        rotation=None if rules.poldr else args.rotation or "0",
        random_plies=args.random_plies,
        seed=seed,
        opening_lines=read_opening_lines(args.openings, rules) if args.openings else None,
        records_path=records_path,
        sprt=parse_sprt(args.sprt),
        timeouts=Timeouts(args.startup_timeout, args.ready_timeout, args.stall_timeout),
        transcript=Transcript(args.log),
        rules=rules,
    )
    return settings, recorded


def resumed_records(path: str, engines: list[EngineSpec], games: int, game: GameRules | str) -> list[dict]:
    """The records of an earlier run of this match, one per game index."""
    if not os.path.exists(path):
        raise UsageError(f"--resume {path}: no such file")
    rules = as_rules(game)
    if rules.poldr:
        return resumed_poldr_records(path, engines, games, rules)
    variant = rules.variant
    names = {engine.name for engine in engines}
    by_game: dict[int, dict] = {}
    for record in load_records(path):
        if is_poldr_record(record):
            raise UsageError(f"--resume {path}: game {record['index']} was a POLD.R game (add --game poldr)")
        if {record["white"], record["black"]} != names:
            raise UsageError(f"--resume {path}: game {record['game']} was between other engines "
                             f"({record['white']}, {record['black']})")
        if record.get("variant", variant) != variant:
            raise UsageError(f"--resume {path}: game {record['game']} was a {record['variant']} game")
        if record["game"] < games:
            by_game.setdefault(record["game"], record)
    return [by_game[index] for index in sorted(by_game)]


def resumed_poldr_records(path: str, engines: list[EngineSpec], games: int, rules: GameRules) -> list[dict]:
    """As resumed_records, for POLD.R: same engines, same players, size and bricks."""
    names = {engine.name for engine in engines}
    by_game: dict[int, dict] = {}
    for record in load_records(path):
        if not is_poldr_record(record):
            raise UsageError(f"--resume {path}: game {record['game']} was a Pods game, not POLD.R")
        index = record["index"]
        recorded = tuple(record.get(key) for key in ("players", "size", "bricks"))
        if recorded != (rules.players, rules.size, rules.bricks):
            raise UsageError(f"--resume {path}: game {index} had players, size, bricks {recorded}, "
                             f"not {(rules.players, rules.size, rules.bricks)}")
        if set(record["seats"]) != names:
            raise UsageError(f"--resume {path}: game {index} was between other engines ({', '.join(record['seats'])})")
        if index < games:
            by_game.setdefault(index, record)
    return [by_game[index] for index in sorted(by_game)]


def check_engines_start(settings: MatchSettings) -> str:
    """Starts every engine and the referee once, so a bad command is a usage error, not a lost match.

    Returns the referee's start position line."""
    for spec in settings.engines:
        player = Player(spec, settings.rules, settings.timeouts, settings.transcript)
        try:
            player.start()
            if unknown := player.undeclared_options():
                raise UsageError(f"engine {spec.name} declares no option {', '.join(unknown)} "
                                 f"(it has: {', '.join(player.options.values()) or 'none'})")
            if unknown := player.undeclared_game_options():
                raise UsageError(f"engine {spec.name} cannot play POLD.R: it declares no option {', '.join(unknown)}")
        except EngineFault as fault:
            raise UsageError(f"engine {spec.name} does not start: {fault.detail}") from None
        finally:
            player.close()
    referee = Referee(settings.referee_argv, settings.rules, settings.timeouts, settings.transcript)
    try:
        referee.launch()
        start_fen = referee.start_fen()
        if settings.rules.poldr and poldr_shape(start_fen) != (settings.rules.size, settings.rules.players):
            raise UsageError(f"the referee's POLD.R start position {start_fen!r} is not of size "
                             f"{settings.rules.size} with {settings.rules.players} players: does it know "
                             f"the Game, Size and Players options?")
        for line in settings.opening_lines or []:
            referee.set_position(line)
            referee.fen()  # a line the referee rejects raises here
        return start_fen
    except RefereeError as error:
        raise UsageError(str(error)) from None
    finally:
        referee.close()


def run_match(argv: list[str]) -> int:
    settings, recorded = settings_from(match_parser().parse_args(argv))
    try:
        start_fen = check_engines_start(settings)
        book = OpeningBook(start_fen, settings.rotation, settings.random_plies, settings.seed, settings.opening_lines)
        play_match(Match(settings, book, recorded), len(recorded))
    finally:
        settings.transcript.close()
    return 0


def play_match(match: Match, recorded: int) -> None:
    settings = match.settings
    print(f"Match {' vs '.join(match.names)}: {settings.games} games ({recorded} already recorded), "
          f"{settings.rules.describe()}, {settings.time_control.describe()}, seed {settings.seed}, "
          f"records {settings.records_path}", flush=True)
    try:
        match.run()
    except Interrupted:
        print(match.report(), flush=True)  # what was played so far is recorded: show it
        raise
    if match.sprt_verdict != "continue":
        print(f"SPRT decided after {match.tally.games} games: {match.sprt_verdict}", flush=True)
    print(match.report(), flush=True)


def run_compliance(argv: list[str]) -> int:
    args = compliance_parser().parse_args(argv)
    if len(args.engine) != 1:
        raise UsageError(f"compliance needs exactly one --engine, got {len(args.engine)}")
    spec = parse_engine(args.engine[0], 0)
    transcript = Transcript(args.log)
    try:
        return Compliance(spec, args.timeout, args.timemargin, transcript).run()
    finally:
        transcript.close()


def raise_interrupted(signum: int, _frame) -> None:
    raise Interrupted(signum)


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, raise_interrupted)
    signal.signal(signal.SIGTERM, raise_interrupted)
    try:
        if argv[:1] == ["compliance"]:
            return run_compliance(argv[1:])
        return run_match(argv[1:] if argv[:1] == ["match"] else argv)
    except UsageError as error:
        print(f"arbiter: error: {error}", file=sys.stderr)
        return 2
    except RefereeError as error:
        print(f"arbiter: error: {error}", file=sys.stderr)
        return 1
    except Interrupted as interruption:
        print(f"arbiter: interrupted by {interruption}; engines stopped", file=sys.stderr)
        return 128 + interruption.signum
    except BrokenPipeError:  # our output was closed (| head): stop quietly, records are safe
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    finally:
        CHILDREN.kill_all()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
