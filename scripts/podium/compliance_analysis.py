"""Compliance checks of UCI's analysis conventions (issue 9): MultiPV, searchmoves, go mate,
pondering, currmove, Clear Hash, debug, and forgiveness (unknown words warned, unreadable values an
error that still gets its one bestmove). A mixin of Compliance (compliance.py), whose engine, timeout,
margin and line helpers (send, query, lines_until, declared_option) it uses."""

from __future__ import annotations

import contextlib
import re
import time
from dataclasses import dataclass

from .errors import CheckFailed, CheckSkipped, EngineTimeout
from .protocol import Deadline, info_message, parse_info


@dataclass(frozen=True)
class GameCase:
    """What the checks of UCI's analysis conventions (issue 9) need of a game: two legal first moves
    no engine would choose (corners: only searchmoves makes it play one), an illegal first move, and
    the commands that set up a position won in mate_in of the mover's moves, from the game's start."""
    name: str
    first_moves: tuple[str, str]
    illegal_first_move: str
    mate_setup: tuple[str, ...]
    mate_in: int


# Pods: in the advanced game White, to move with A against b, empties its hand and wins.
# POLD.R: with three bricks on 4x4, Blue wins in two of its turns.
PODS_CASE = GameCase("Pods", ("A@a1", "B@f6"), "N@c3",
                     ("setoption name Variant value advanced", "uginewgame", "position fen 6/6/6/6/6/6 w Ab 0 0"), 1)
POLDR_CASE = GameCase("POLD.R", ("Pa1Ma5", "Pe5Me1"), "Pa1Ma1",
                      ("newgame poldr players 2 size 4 bricks 3", "position startpos"), 2)


@dataclass
class Answer:
    """What a `go` printed: its info lines, the move and the ponder move of its `bestmove`, and the
    seconds from `go` to each info line and to `bestmove`."""
    infos: list[str]
    move: str
    ponder: str | None
    elapsed: float
    stamps: list[float]

    def results(self) -> list[dict]:
        """The info lines that report a search result (a score), parsed."""
        return [info for line in self.infos if "score" in (info := parse_info(line))]

    def messages(self, kind: str) -> list[str]:
        """The messages of its `info string <kind>:` lines (error, warning)."""
        return [message for line in self.infos if (message := info_message(line, kind)) is not None]


class AnalysisChecks:
    """The checks, and the reading of a `go`'s answer that the other checks use too."""

    def answer(self, limit: float, sent: float | None = None) -> Answer:
        """Reads a `go`'s lines up to its `bestmove` (only `info` lines may come first); limit: seconds
        from sent (default: now)."""
        sent = time.monotonic() if sent is None else sent
        infos, stamps = [], []
        while True:
            line, stamp = self.engine.read_stamped(Deadline(limit, start=sent))
            if line.startswith("info") or not line.strip():
                infos.append(line)
                stamps.append(stamp - sent)
                continue
            if match := re.fullmatch(r"bestmove (\S+)(?: ponder (\S+))?", line):
                return Answer(infos, match.group(1), match.group(2), stamp - sent, stamps)
            raise CheckFailed(f"expected info or bestmove, got {line!r}")

    def go_once(self, go: str, limit: float | None = None) -> Answer:
        """Sends go and reads its answer; then isready: no second `bestmove` may come before readyok."""
        sent = time.monotonic()
        self.send(go)
        answer = self.answer(limit or self.timeout, sent)
        if extra := [line for line in self.engine.sync() if line.startswith("bestmove")]:
            raise CheckFailed(f"{go}: more than one bestmove: {answer.move}, then {extra}")
        return answer

    def legal(self, move: str, what: str) -> None:
        if self.query(f"islegal {move}", r"\S+") != "true":
            raise CheckFailed(f"{what}: {move} is not legal")

    def require_option(self, name: str, kind: str) -> None:
        """Engines that do not declare an option are not held to its checks."""
        option = self.declared_option(name)
        if option is None or option["type"] != kind:
            raise CheckSkipped(f"no {name} option of type {kind}")

    def _require_poldr(self) -> None:
        game = self.declared_option("Game")
        if game is None or " var poldr" not in game.group(0):
            raise CheckSkipped("no POLD.R: the engine declares no Game option with var poldr")

    def analysis_checks(self, case: GameCase) -> list[tuple[str, object]]:
        prefix = "POLD.R: " if case is POLDR_CASE else ""
        return [(f"{prefix}{name} ({case.name})", lambda check=check: check(case)) for name, check in (
            ("go movetime abc, go mate -1 -> info string error and exactly one bestmove", self.check_unreadable_go),
            ("MultiPV 3: lines multipv 1..3 at each depth, each its own move", self.check_multipv),
            ("go searchmoves: the bestmove among them; an illegal one is an error, yet a bestmove comes",
             self.check_searchmoves),
            ("go mate n: stops at the win, score mate", self.check_mate),
            ("Ponder option: bestmove <m> ponder <p> only when on", self.check_ponder_option),
            ("go ponder: no bestmove until ponderhit or stop", self.check_pondering),
        )]

    def _start_of(self, case: GameCase, moves: str = "") -> None:
        """The start of the case's game (POLD.R: two players on the default board), plus moves."""
        if case is POLDR_CASE:
            self._require_poldr()
            self.send("newgame poldr players 2 size 5 bricks 16")
        else:
            if self.declared_option("Game"):
                self.send("setoption name Game value pods")
            self.send("setoption name Variant value standard", "uginewgame")
        self.send("position startpos" + (f" moves {moves}" if moves else ""))

    def check_unknown_words(self) -> None:
        """UCI: a token the engine does not know is ignored; Podium says so with a warning."""
        self._start_of(PODS_CASE)
        start = self.query("fen", r".+")
        self.send("isready now")
        lines = self.lines_until("readyok")
        if not any(info_message(line, "warning") for line in lines):
            raise CheckFailed(f"isready now: no info string warning before readyok: {lines}")
        self.send("query fen please")
        lines = self.lines_until(r"response .+")
        if not any(info_message(line, "warning") for line in lines) or lines[-1] != f"response {start}":
            raise CheckFailed(f"query fen please: expected a warning, then response {start}: {lines}")
        answer = self.go_once("go depth 1 sideways")
        if not answer.messages("warning") or answer.messages("error"):
            raise CheckFailed(f"go depth 1 sideways: expected a warning and no error: {answer.infos}")
        self.legal(answer.move, "go depth 1 sideways")
        self.send("debug maybe")
        lines = self.engine.sync()
        kinds = {kind for line in lines for kind in ("warning", "error") if info_message(line, kind) is not None}
        if kinds != {"warning"}:
            raise CheckFailed(f"debug maybe: expected a warning and no error: {lines}")

    def check_unknown_command(self) -> None:
        self.send("hello")
        lines = self.engine.sync()
        if not any(info_message(line, "error") for line in lines):
            raise CheckFailed(f"hello: no info string error: {lines}")

    def check_go_during_search(self) -> None:
        """Every go gets exactly one bestmove: a go while searching ends the search first."""
        self._start_of(PODS_CASE)
        self.send("go infinite")
        time.sleep(0.1)
        self.send("go depth 1")
        first, second = self.answer(self.timeout), self.answer(self.timeout)
        if extra := [line for line in self.engine.sync() if line.startswith("bestmove")]:
            raise CheckFailed(f"a third bestmove after two go: {extra}")
        self.legal(first.move, "go infinite stopped by go")
        self.legal(second.move, "go depth 1 after go infinite")

    def check_debug(self) -> None:
        self._start_of(PODS_CASE)
        for switch in ("on", "off"):
            self.send(f"debug {switch}")
            if errors := [line for line in self.engine.sync() if info_message(line, "error")]:
                raise CheckFailed(f"debug {switch}: {errors[0]}")
            answer = self.go_once("go depth 1")
            self.legal(answer.move, f"go depth 1 with debug {switch}")

    def check_clear_hash(self) -> None:
        self.require_option("Clear Hash", "button")
        self._start_of(PODS_CASE)
        self.go_once("go depth 3")
        self.send("setoption name Clear Hash")
        if complaints := [line for line in self.engine.sync() if line.startswith("info string")]:
            raise CheckFailed(f"setoption name Clear Hash: {complaints[0]}")
        answer = self.go_once("go depth 2")
        self.legal(answer.move, "go depth 2 after Clear Hash")

    def check_currmove(self) -> None:
        """As Stockfish: `info ... currmove <m> currmovenumber <k>` lines once the search has run a
        second, none before. `go infinite` until the first comes (within a few seconds), then stop.
        After a first move: an engine may answer the start from a book, with nothing to search."""
        self._start_of(PODS_CASE, PODS_CASE.first_moves[0])
        sent = time.monotonic()
        self.send("go infinite")
        deadline = Deadline(max(self.timeout, 5.0), start=sent)
        try:
            while " currmove " not in (line := self.engine.read_line(deadline)):
                if line.startswith("bestmove"):
                    raise CheckFailed(f"go infinite answered {line!r} before stop")
        except EngineTimeout:
            self.send("stop")
            self.answer(1.0 + self.margin)
            raise CheckFailed(f"no currmove line within {deadline.seconds:g} s of go infinite") from None
        arrived = time.monotonic() - sent
        self.send("stop")
        answer = self.answer(1.0 + self.margin)
        if arrived < 0.95:
            raise CheckFailed(f"a currmove line {arrived * 1000:.0f} ms after go: {line!r}")
        if not re.fullmatch(r"info (?:depth \d+ )?currmove \S+ currmovenumber [1-9]\d*", line):
            raise CheckFailed(f"malformed currmove line {line!r}")
        self.legal(answer.move, "bestmove after stop")
        self.legal(line.split(" currmove ")[1].split()[0], "currmove")

    def check_unreadable_go(self, case: GameCase) -> None:
        """A value that cannot be read is an error, and the go still gets its one bestmove."""
        for go in ("go movetime abc", "go mate -1"):
            self._start_of(case)
            answer = self.go_once(go)
            if not answer.messages("error"):
                raise CheckFailed(f"{go}: no info string error: {answer.infos}")
            self.legal(answer.move, go)

    def check_multipv(self, case: GameCase) -> None:
        self.require_option("MultiPV", "spin")
        self._start_of(case)
        self.send("setoption name MultiPV value 3")
        try:
            answer = self.go_once("go depth 3")
        finally:
            self.send("setoption name MultiPV value 1")
        by_depth: dict[int, list[dict]] = {}
        for info in answer.results():
            by_depth.setdefault(info.get("depth", 0), []).append(info)
        if not by_depth:
            raise CheckFailed("no info line with a score")
        for depth, lines in sorted(by_depth.items()):
            numbers = [info.get("multipv") for info in lines]
            if numbers != [1, 2, 3]:
                raise CheckFailed(f"depth {depth}: multipv {numbers}, expected 1, 2, 3 in order")
            heads = [info.get("pv", [None])[0] for info in lines]
            if None in heads or len(set(heads)) != 3:
                raise CheckFailed(f"depth {depth}: the lines' first moves {heads} are not three distinct moves")
        if answer.move != heads[0]:
            raise CheckFailed(f"bestmove {answer.move}, but line 1 of depth {depth} starts with {heads[0]}")
        for move in heads:
            self.legal(move, "a multipv line's first move")

    def check_searchmoves(self, case: GameCase) -> None:
        allowed = case.first_moves
        self._start_of(case)
        for move in allowed:
            self.legal(move, "the case's own move")
        answer = self.go_once(f"go depth 2 searchmoves {' '.join(allowed)}")
        heads = {info["pv"][0] for info in answer.results() if info.get("pv")}
        if answer.move not in allowed or not heads <= set(allowed):
            raise CheckFailed(f"searchmoves {' '.join(allowed)}: bestmove {answer.move}, PVs start with {heads}")
        go = f"go depth 2 searchmoves {allowed[0]} {case.illegal_first_move}"
        answer = self.go_once(go)
        if not answer.messages("error"):
            raise CheckFailed(f"{go}: no info string error about {case.illegal_first_move}")
        self.legal(answer.move, go)

    def check_mate(self, case: GameCase) -> None:
        """A position won in case.mate_in of the mover's moves: `go mate n` ends by itself with a
        `score mate` no longer than asked and the first move of the win."""
        self._start_of(case)
        self.send(*case.mate_setup)
        try:
            answer = self.go_once(f"go mate {case.mate_in}")
            scores = [info["score"] for info in answer.results()]
            if not scores or not scores[-1].is_mate or not 0 < scores[-1].mate <= case.mate_in:
                raise CheckFailed(f"go mate {case.mate_in}: last score {scores[-1] if scores else None}, "
                                  f"expected mate 1 to {case.mate_in}")
            self.legal(answer.move, f"go mate {case.mate_in}")
        finally:
            self.send("setoption name Variant value standard")

    def check_ponder_option(self, case: GameCase) -> None:
        """cutegames reads nothing after the move: `ponder` only when the GUI asked for it."""
        self.require_option("Ponder", "check")
        self._start_of(case, case.first_moves[0])
        self.send("setoption name Ponder value false")
        if (answer := self.go_once("go depth 3")).ponder is not None:
            raise CheckFailed(f"Ponder false, yet bestmove {answer.move} ponder {answer.ponder}")
        self.send("setoption name Ponder value true")
        try:
            answer = self.go_once("go depth 3")
        finally:
            self.send("setoption name Ponder value false")
        if answer.ponder is None:
            raise CheckFailed(f"Ponder true, yet bestmove {answer.move} names no reply")
        self.send(f"position startpos moves {case.first_moves[0]} {answer.move}")
        self.legal(answer.ponder, f"the ponder move after {answer.move}")

    def check_pondering(self, case: GameCase) -> None:
        """`go ponder` runs no clock and answers only after `ponderhit` (then under its limits) or
        `stop` (at once); each time exactly one bestmove."""
        self.require_option("Ponder", "check")
        self._start_of(case, case.first_moves[0])
        self.send("setoption name Ponder value true")
        try:
            for go, then, limit in (("go ponder movetime 100", "ponderhit", 0.1), ("go ponder depth 1", "stop", 0.0)):
                self.send(go)
                with contextlib.suppress(EngineTimeout):
                    early = self.lines_until(r"bestmove.*", timeout=0.4)
                    raise CheckFailed(f"{go}: {early[-1]!r} before {then}")
                sent = time.monotonic()
                self.send(then)
                answer = self.answer(limit + self.margin + 1.0, sent)
                if extra := [line for line in self.engine.sync() if line.startswith("bestmove")]:
                    raise CheckFailed(f"{go}, {then}: more than one bestmove: {extra}")
                self.legal(answer.move, f"{go}, {then}")
        finally:
            self.send("setoption name Ponder value false")
