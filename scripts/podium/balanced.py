"""Balanced openings (`arbiter.py openings`): random walks from the start position, made as a match
makes them (openings.py), each scored by a Podium's `analyse --positions - --json` at a fixed
depth; the first walks whose score is near even are kept, as an openings file for
`arbiter.py --openings`. The same seed and engine give the same file: the walks follow from the
seed and their number alone, and `podium analyse` searches each position with a cleared hash."""

from __future__ import annotations

import json
import shlex
import statistics
import time
from dataclasses import dataclass, field

from .engines import Referee
from .errors import EngineFault, ProtocolError, RefereeError, UsageError
from .openings import OpeningBook
from .process import EngineProcess
from .protocol import Deadline, Timeouts
from .rules import GameRules


@dataclass
class BookSettings:
    engine_argv: list[str]  # a Podium: the referee of the random plies and the `analyse` that scores them
    rules: GameRules
    rotation: str | None  # Pods: 0, 90, 180, 270 or random; None for POLD.R
    plies: int
    depth: int
    max_cp: int
    count: int
    max_candidates: int
    seed: int
    concurrency: int = 1  # `analyse` processes at once (the scores do not depend on it)
    timeouts: Timeouts = field(default_factory=Timeouts)

    def command(self) -> str:
        """The arguments that make this book again (the output file and --concurrency aside)."""
        words = ["arbiter.py", "openings", "--engine", shlex.join(self.engine_argv), "--game", self.rules.game]
        if self.rules.poldr:
            words += ["--players", str(self.rules.players), "--size", str(self.rules.size),
                      "--bricks", str(self.rules.bricks)]
        else:
            words += ["--variant", self.rules.variant, "--rotation", self.rotation]
        words += ["--plies", str(self.plies), "--depth", str(self.depth), "--max-score", str(self.max_cp),
                  "--count", str(self.count), "--max-candidates", str(self.max_candidates), "--seed", str(self.seed)]
        return shlex.join(words)

    def analyse_argv(self) -> list[str]:
        game = ["--game", "poldr"] if self.rules.poldr else ["--variant", self.rules.variant]
        return [*self.engine_argv, "analyse", *game, "--positions", "-", "--depth", str(self.depth), "--json"]


@dataclass
class Book:
    """What a run found: the positions kept, in the order of their walks, and how the candidates fared."""
    settings: BookSettings
    engine_name: str = ""
    kept: list[tuple[str, int]] = field(default_factory=list)  # (position line, cp from the mover's view)
    tried: int = 0  # candidates judged, up to the last one kept (or all of them, when too few were kept)
    duplicates: int = 0  # a position an earlier walk reached already
    decided: int = 0  # scored as a mate, or proved
    beyond: int = 0  # |cp| above the limit
    scores: list[int] = field(default_factory=list)  # cp of every candidate scored in cp
    seconds: float = 0.0

    @property
    def complete(self) -> bool:
        return len(self.kept) == self.settings.count

    def judge(self, fen: str, answer: dict) -> None:
        score = answer["score"]
        if "mate" in score or answer.get("proven") is not None:
            self.decided += 1
            return
        self.scores.append(score["cp"])
        if abs(score["cp"]) > self.settings.max_cp:
            self.beyond += 1
        else:
            self.kept.append((fen, score["cp"]))

    def header(self) -> list[str]:
        """The comment lines the openings file starts with: how it was made."""
        settings = self.settings
        game = settings.rules.describe() + (" Pods" if not settings.rules.poldr else "")
        return [f"# Balanced openings of {game}: positions after {settings.plies} random plies whose score at "
                f"depth {settings.depth} is within {settings.max_cp} cp (no mates)",
                f"# made by: {settings.command()}",
                f"# engine: {shlex.join(settings.engine_argv)} ({self.engine_name or 'no id name'})",
                f"# seed {settings.seed}: {len(self.kept)} kept of {self.tried} candidates"]

    def summary(self) -> list[str]:
        settings = self.settings
        lines = [f"{len(self.kept)} kept of {self.tried} candidates in {self.seconds:.1f} s "
                 f"({self.duplicates} duplicates, {self.decided} mates or proofs, {self.beyond} beyond "
                 f"{settings.max_cp} cp)"]
        for what, scores in (("candidates", self.scores), ("kept", [cp for _, cp in self.kept])):
            if scores:
                lines.append(f"{what}: mean {statistics.fmean(scores):+.1f} cp, mean |cp| "
                             f"{statistics.fmean(map(abs, scores)):.1f}, from {min(scores):+d} to {max(scores):+d} "
                             f"(depth {settings.depth}, side to move's view)")
        return lines


def make_book(settings: BookSettings) -> Book:
    """Walks, scores and keeps positions until settings.count are kept or settings.max_candidates
    walks are made. A --engine that does not start, or is no Podium, is a UsageError; one that fails
    later a RefereeError."""
    started = time.monotonic()
    book = Book(settings)
    referee = Referee(settings.engine_argv, settings.rules, settings.timeouts)
    try:
        try:
            referee.launch()
        except RefereeError as error:
            raise UsageError(f"--engine {shlex.join(settings.engine_argv)}: {error}") from None
        book.engine_name = referee.id_name
        walks = OpeningBook(referee.start_fen(), settings.rotation, settings.plies, settings.seed)
        seen: set[str] = set()
        walked = 0
        while not book.complete and walked < settings.max_candidates:
            batch = min(batch_size(book, walked), settings.max_candidates - walked)
            candidates = [walks.for_group(group, referee).fen for group in range(walked, walked + batch)]
            walked += batch
            fresh = list(dict.fromkeys(fen for fen in candidates if fen not in seen))
            answers = dict(zip(fresh, score_positions(settings, fresh, first=not seen)))
            for fen in candidates:  # in the order of the walks, so the book does not depend on the batches
                if book.complete:
                    break
                book.tried += 1
                if fen in seen:
                    book.duplicates += 1
                    continue
                seen.add(fen)
                book.judge(fen, answers[fen])
    finally:
        referee.close()
    book.seconds = time.monotonic() - started
    return book


def batch_size(book: Book, walked: int) -> int:
    """How many walks to score next: what the share kept so far says is still needed, a fifth more."""
    needed = book.settings.count - len(book.kept)
    share = max(len(book.kept), 1) / walked if walked else 0.25
    return max(8, min(4000, round(needed / share * 1.2)))


def score_positions(settings: BookSettings, fens: list[str], first: bool) -> list[dict]:
    """`podium analyse --json`'s answer for each position, by settings.concurrency processes each
    given a slice. first: the first call, where an engine that cannot analyse is a usage error."""
    if not fens:
        return []
    slices = max(1, min(settings.concurrency, len(fens)))
    bounds = [len(fens) * number // slices for number in range(slices + 1)]
    chunks = [fens[bounds[number]:bounds[number + 1]] for number in range(slices)]
    processes: list[EngineProcess] = []
    answers: list[dict] = []
    try:
        for chunk in chunks:
            process = EngineProcess(settings.analyse_argv(), "analyse")
            processes.append(process)
            for fen in chunk:
                process.send(fen)
            process.end_input()  # analyse answers each line as it reads it, and ends with its input
        for process, chunk in zip(processes, chunks):
            read_answers(process, chunk, settings.timeouts, answers)
        return answers
    except EngineFault as fault:
        message = (f"--engine {shlex.join(settings.engine_argv)}: `analyse` failed: {fault.detail}; "
                   f"the scores come from `podium analyse --json`, so the engine must be a Podium")
        if first and not answers:
            raise UsageError(message) from None
        raise RefereeError(message) from None
    finally:
        for process in processes:
            process.kill()


def read_answers(process: EngineProcess, fens: list[str], timeouts: Timeouts, answers: list[dict]) -> None:
    """Appends to answers one JSON object per position, in order, each read within the stall
    timeout (the first also within the startup timeout)."""
    for index, fen in enumerate(fens, 1):
        line, _ = process.read(Deadline(timeouts.stall + (timeouts.startup if index == 1 else 0)).at)
        try:
            answer = json.loads(line)
        except json.JSONDecodeError:
            raise ProtocolError(process.label, f"printed {line[:80]!r}, not a JSON object, for {fen!r}") from None
        if not isinstance(answer, dict) or answer.get("index") != index:
            raise ProtocolError(process.label, f"answered {line[:80]!r} for line {index}, {fen!r}")
        if answer.get("type") == "error":
            raise RefereeError(f"`analyse` cannot read {fen!r}, a position its own referee reached: "
                               f"{answer.get('error')}")
        score = answer.get("score")
        if not (isinstance(score, dict) and any(type(score.get(kind)) is int for kind in ("cp", "mate"))):
            raise ProtocolError(process.label, f"gave no score for {fen!r}: {line[:120]}")
        answers.append(answer)
