"""Compliance: a protocol self-test of one engine. Each check prints PASS, FAIL or SKIP; the checks
read the engine's lines themselves, through the engine driver, since what they test is exactly what
the engine prints."""

from __future__ import annotations

import contextlib
import re

from .compliance_analysis import PODS_CASE, POLDR_CASE, AnalysisChecks
from .engines import EngineSpec
from .errors import CheckFailed, CheckSkipped, EngineStartFailed, EngineTerminated, EngineTimeout, UsageError
from .notation import BLACK, MOVE_RE, NO_MOVE, POLDR_COLOURS, POSITION_RE, ply_of, side_to_move, with_rotation
from .process import Transcript
from .protocol import OPTION_RE, Deadline, EngineDriver, Timeouts


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


class Compliance(AnalysisChecks):
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
        self.engine = EngineDriver(spec.argv, spec.name, Timeouts(timeout, timeout, timeout), spec.cwd, transcript)
        self.failures = 0
        self.skipped = 0

    def run(self) -> int:
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
            ("unknown words in known commands -> info string warning, the command still works",
             self.check_unknown_words),
            ("an unknown command -> info string error", self.check_unknown_command),
            ("a go during a search: the first search's bestmove, then the second's", self.check_go_during_search),
            ("debug on, debug off", self.check_debug),
            ("setoption name Clear Hash", self.check_clear_hash),
            ("info currmove currmovenumber after the first second of go infinite", self.check_currmove),
            *self.analysis_checks(PODS_CASE),
            ("POLD.R: newgame poldr players 3 selects three players", self.check_newgame_three_players),
            ("POLD.R: setoption name Players value 3 selects three players", self.check_players_option),
            ("POLD.R: a position line with three reserves", self.check_three_reserve_position),
            ("POLD.R: query turn along moves of three and of two players", self.check_turn_along_moves),
            ("POLD.R: query result, none while on, the rules' winner after an illegal move",
             self.check_three_player_forfeits),
            ("POLD.R: go p1time p2time p3time charges p3's clock with p3 to move", self.check_three_player_clock),
            ("POLD.R: d and eval name Blue, Yellow and Red", self.check_three_player_display),
            ("POLD.R: each MultiplayerSearch value plays a legal move", self.check_multiplayer_search),
            *self.analysis_checks(POLDR_CASE),
            ("quit exits", self.check_quit),
        ]
        try:
            for name, check in checks:
                self._run_check(name, check)
                if check == self.check_handshake and self.failures:
                    # Not an engine of this protocol (cat, true, a typo'd command): every other check
                    # would wait out its timeout for nothing.
                    print(f"compliance: the handshake failed, so the other {len(checks) - 1} checks were not run")
                    return 1
        finally:
            self.engine.kill()
        passed = len(checks) - self.failures - self.skipped
        print(f"compliance: {passed} passed, {self.failures} failed"
              + (f", {self.skipped} skipped" if self.skipped else ""))
        return 1 if self.failures else 0

    def _run_check(self, name: str, check) -> None:
        try:
            if check != self.check_handshake and not self.engine.running:
                self._start()
            check()
        except EngineStartFailed as error:  # no engine to test at all
            raise UsageError(error.detail) from None
        except CheckFailed as error:
            self._fail(name, str(error))
        except EngineTerminated as error:
            self._fail(name, error.detail)
            self.engine.kill()
        except EngineTimeout:
            self._fail(name, f"no answer within {self.timeout:g} s")
            self.engine.kill()  # it may be stuck in a search: start afresh for the next check
        except CheckSkipped as reason:
            self.skipped += 1
            print(f"SKIP {name}: {reason}", flush=True)
        else:
            print(f"PASS {name}", flush=True)

    def _fail(self, name: str, why: str) -> None:
        self.failures += 1
        print(f"FAIL {name}: {why}", flush=True)

    # -- talking to the engine

    def _start(self) -> list[str]:
        """Starts the engine and completes the handshake; returns the handshake lines."""
        self.engine.start()
        for name, value in self.spec.options.items():
            self.engine.set_option(name, value)
        return self.engine.handshake

    def declared_option(self, name: str) -> re.Match | None:
        """The handshake's `option name <name> ...` line (OPTION_RE groups), if there is one."""
        for line in self.engine.handshake:
            if (option := OPTION_RE.match(line)) and option["name"].lower() == name.lower():
                return option
        return None

    def send(self, *lines: str) -> None:
        for line in lines:
            self.engine.send(line)

    def line(self, timeout: float | None = None) -> str:
        return self.engine.read_line(Deadline(timeout or self.timeout))

    def lines_until(self, pattern: str, timeout: float | None = None) -> list[str]:
        """All lines up to and including the first that matches pattern in full."""
        deadline = Deadline(timeout or self.timeout)
        lines = []
        while True:
            line = self.engine.read_line(deadline)
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
        answer = self.answer(limit)
        return answer.move, answer.elapsed

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
        if extra := self.engine.sync():
            raise CheckFailed(f"unexpected output before readyok: {extra}")

    def check_known_option(self) -> None:
        self.send("setoption name hash value 16", "setoption name THREADS value 1")
        complaints = [line for line in self.engine.sync() if re.search(r"unknown|error", line, re.I)]
        if complaints:
            raise CheckFailed(f"complains about a declared option: {complaints}")

    def check_unknown_option(self) -> None:
        self.send("setoption name NoSuchOption value 1")
        if not any(line.startswith("info string") for line in self.engine.sync()):
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
        with contextlib.suppress(EngineTimeout):
            early = self.lines_until(r"bestmove.*", timeout=0.3)
            raise CheckFailed(f"bestmove during go infinite before stop: {early[-1]!r}")
        self.engine.sync()
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
        if errors := [line for line in self.engine.sync() if "error" in line]:
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
            shown = "\n".join(self.engine.sync())
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
        deadline = Deadline(2.0)
        try:
            while True:  # whatever it still prints, its output must end
                self.engine.read_line(deadline)
        except EngineTerminated:
            return
        except EngineTimeout:
            raise CheckFailed("still running 2 s after quit") from None
