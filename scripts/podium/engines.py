"""The arbiter's two kinds of engine, both built on the engine driver: players propose moves, the
trusted referee judges legality, game end and result."""

from __future__ import annotations

import contextlib
import shlex
from dataclasses import dataclass, field
from typing import Sequence

from .clock import TimeControl
from .errors import EngineFault, EngineTimeout, OptionRefused, RefereeError
from .notation import candidate_moves
from .process import Transcript
from .protocol import EngineDriver, Timeouts, info_messages, parse_info, position_command
from .rules import GameRules, as_rules

FORFEIT = "forfeit"  # a word that is no move: played after the moves, it makes the referee rank a forfeit


@dataclass
class EngineSpec:
    name: str
    argv: list[str]
    options: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    time_control: TimeControl | None = None  # its own (time odds: tc=, movetime=, ...), else the match's


class Player(EngineDriver):
    """A playing engine: restarted when broken, asked for one move at a time."""

    def __init__(self, spec: EngineSpec, game: GameRules | str, timeouts: Timeouts,
                 transcript: Transcript | None = None):
        super().__init__(spec.argv, spec.name, timeouts, spec.cwd, transcript)
        self.spec = spec
        self.rules = as_rules(game)

    def launch(self) -> None:
        self.start()
        self.configure()

    def configure(self) -> None:
        """Sets the game's options and the engine's own (option.NAME=), confirmed by isready: an
        option refused (`info string error`) raises OptionRefused with the engine's words."""
        options = [*self.rules.engine_options(), *self.spec.options.items()]
        commands = [self.set_option(name, value) for name, value in options]
        if not (first_refusals := info_messages(self.sync(), "error")):
            return
        for command in commands:  # which was refused: each again, on its own (setting an option twice is harmless)
            self.send(command)
            if refusals := info_messages(self.sync(), "error"):
                raise OptionRefused(self.spec.name, refusals[0], command)
        raise OptionRefused(self.spec.name, first_refusals[0], "; ".join(commands))

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
        self.discard_pending()  # output left over from the last game
        self.send("uginewgame")
        self.sync()

    def best_move(self, position: str, go_command: str, limit: float | None) -> tuple[str, float, dict]:
        """Sends the position and `go`; returns the move, the seconds from `go` to `bestmove`, and
        what the search said of it (search_report).

        limit: seconds after which the move is a time forfeit; None = no clock (stall timeout)."""
        self.discard_pending()  # a stale line must not pass for the answer
        self.send(position)
        search = self.go(go_command, self.timeouts.stall if limit is None else limit, self.rules.move_re)
        last: dict = {}
        try:
            while (line := search.next_info()) is not None:
                info = parse_info(line)
                if "score" in info or ("score" not in last and ("depth" in info or "nodes" in info)):
                    last = info
        except EngineTimeout as timeout:
            if limit is None:
                raise
            raise EngineFault("time forfeit", timeout.engine, timeout.what) from None
        return search.bestmove, search.elapsed, search_report(last)


def search_report(info: dict) -> dict:
    """The score, depth and nodes of a move, from the engine's last `info` line with a score (or,
    if none had one, with a depth or nodes), as the records keep them: score "cp 35" or "mate 3"
    from the mover's view, or None; depth and nodes None when the engine did not say."""
    score = info.get("score")
    return {"score": None if score is None else str(score), "depth": info.get("depth"), "nodes": info.get("nodes")}


class Referee(EngineDriver):
    """The trusted judge: legality, game end and result come from here, never from the players.
    Any failure of its own is a RefereeError: nothing can be judged any more."""

    def __init__(self, argv: list[str], game: GameRules | str, timeouts: Timeouts,
                 transcript: Transcript | None = None):
        super().__init__(argv, "referee", timeouts, None, transcript)
        self.rules = as_rules(game)
        self._has_moves_command: bool | None = None

    @contextlib.contextmanager
    def _judging(self):
        try:
            yield
        except EngineFault as fault:
            raise RefereeError(f"referee ({shlex.join(self.argv)}) failed: {fault.what}") from None

    def launch(self) -> None:
        with self._judging():
            self.start()
            for name, value in self.rules.engine_options():
                command = self.set_option(name, value)
                if refusals := info_messages(self.sync(), "error"):
                    raise RefereeError(f"referee ({shlex.join(self.argv)}) refuses `{command}`: {refusals[0]}")

    def new_game(self) -> None:
        with self._judging():
            self.send("uginewgame")

    def start_fen(self) -> str:
        """The game's (or variant's) start position line, as the referee writes it."""
        with self._judging():
            self.send("position startpos")
        return self.fen()

    def set_position(self, fen: str, moves: Sequence[str] = ()) -> None:
        with self._judging():
            self.send(position_command(fen, moves))

    def judge(self, *questions: str, errors_allowed: bool = False) -> list[str]:
        """Sends queries in one go and returns the answers.

        An `info string error` line before an answer means the referee rejected
        something we sent (a bad position): fatal unless errors_allowed."""
        with self._judging():
            answers, errors = self.ask(*questions)
        if errors and not errors_allowed:
            raise RefereeError(f"referee rejected a position: {errors[0]}")
        return answers

    def forfeit_winner(self, fen: str, moves: Sequence[str]) -> str:
        """The seat that wins when the side to move after moves forfeits: the rules' best-standing
        other seat (most bricks in reserve, then the tie-break), as the referee ranks them.

        The engines' rule does the ranking: a move in `position ... moves` that cannot be played
        loses the game for the side that tried it, and `query result` then names that winner."""
        self.set_position(fen, [*moves, FORFEIT])
        with self._judging():
            (over, result), errors = self.ask("gameover", "result")
        if not errors or over != "true":
            raise RefereeError(f"referee did not end the game on the forfeit word {FORFEIT!r} "
                               f"(gameover {over}, result {result})")
        wins = [f"p{number}win" for number in range(1, len(self.rules.seat_keys) + 1)]
        if result not in wins:
            raise RefereeError(f"referee gave a bad result {result!r} after a forfeit")
        return self.rules.seat_keys[wins.index(result)]

    def is_legal(self, move: str) -> bool:
        return self._boolean(self.judge(f"islegal {move}", errors_allowed=True)[0])

    def game_over(self) -> bool:
        return self._boolean(self.judge("gameover")[0])

    def result(self) -> str:
        answer = self.judge("result")[0]
        if self.rules.poldr:  # no draws in POLD.R
            allowed = {"none", *(self.rules.win_for(seat) for seat in self.rules.seat_keys)}
        else:
            allowed = {"p1win", "p2win", "draw", "none"}
        if answer not in allowed:
            raise RefereeError(f"referee gave a bad result {answer!r}")
        return answer

    def fen(self) -> str:
        answer = self.judge("fen")[0]
        if not self.rules.position_re.match(answer):
            raise RefereeError(f"referee gave a bad position line {answer!r}")
        return answer

    def legal_moves(self, fen: str, moves: Sequence[str] = ()) -> list[str]:
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
        candidates = candidate_moves(current, self.rules.variant)
        answers = self.judge(*(f"islegal {move}" for move in candidates), errors_allowed=True)
        return sorted(move for move, answer in zip(candidates, answers) if self._boolean(answer))

    @staticmethod
    def _boolean(answer: str) -> bool:
        if answer not in ("true", "false"):
            raise RefereeError(f"referee answered {answer!r} where true or false was due")
        return answer == "true"
