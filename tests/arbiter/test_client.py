#!/usr/bin/env python3
"""Tests of the Python client (scripts/podium/client.py) against the real engine, and against broken
ones (fake_engine.py) for timeouts, crashes and garbage.

    PODIUM_BIN=target/release/podium python3 tests/arbiter/test_client.py
"""

import os
import tempfile
import time
import unittest
import uuid

from support import NEEDS_PODIUM, PODIUM, fake_argv

from podium import (ArgumentError, Engine, EngineError, EngineStartFailed, EngineTerminated, EngineTimeout,
                    IllegalMoveError, PerspectiveError, ProtocolError, Score)
from podium.engines import Player, Referee
from podium.protocol import EngineDriver, parse_info

# Three-player POLD.R: Blue's first turn names no marker, an illegal move: Yellow and Red stay at 16
# bricks, the earlier seat wins (the arbiter's compliance check has the same case).
POLDR3_FORFEIT = ("Pc3", "p2win")


def processes_running(marker: str) -> list[int]:
    """The processes whose command line contains marker."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    if marker.encode() in handle.read():
                        found.append(int(entry))
            except OSError:
                pass
    return found


def processes_in(directory: str) -> list[int]:
    """The processes whose working directory is directory."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.readlink(f"/proc/{entry}/cwd") == directory:
                    found.append(int(entry))
            except OSError:
                pass
    return found


def play_out(engine: Engine, limit: int = 200) -> list[str]:
    """Self-play at depth 1 from the current position to the end; returns the seats that moved."""
    movers = []
    moves: list[str] = []
    start = engine.fen()
    while not engine.is_game_over():
        if len(moves) >= limit:
            raise AssertionError(f"game not over after {limit} plies")
        movers.append(engine.turn())
        moves.append(engine.play(depth=1).move)
        engine.set_position(start, moves)
    return movers


class DriverTest(unittest.TestCase):
    def test_info_lines(self):
        info = parse_info("info multipv 2 depth 3 seldepth 4 score mate -2 nodes 10 nps 5 hashfull 0 time 1 "
                          "pv Pa1Me5 Mc1")
        self.assertEqual(info, {"multipv": 2, "depth": 3, "seldepth": 4, "score": Score(mate=-2), "nodes": 10,
                                "nps": 5, "hashfull": 0, "time": 1, "pv": ["Pa1Me5", "Mc1"]})
        self.assertEqual(parse_info("info depth 12 currmove B@b3 currmovenumber 4"),
                         {"depth": 12, "currmove": "B@b3", "currmovenumber": 4})
        self.assertEqual(parse_info("info depth 5 score cp 17 lowerbound pv"), {"depth": 5, "score": Score(cp=17),
                                                                                "pv": []})
        self.assertEqual(parse_info("info string error: Hash: 'lots'"), {"string": "error: Hash: 'lots'"})

    def test_one_driver(self):
        # the client and the arbiter's engines speak the protocol through the same code
        # the arbiter's engines speak the protocol through the client's driver (see also ClientTest)
        self.assertTrue(issubclass(Player, EngineDriver) and issubclass(Referee, EngineDriver))


@NEEDS_PODIUM
class ClientTest(unittest.TestCase):
    def setUp(self):
        self.engine = Engine(PODIUM, options={"Hash": 8}, timeout=10)
        self.addCleanup(self.engine.close)

    def test_start_name_and_options(self):
        self.assertTrue(self.engine.name.startswith("Podium"), self.engine.name)
        self.assertIsInstance(self.engine.driver, EngineDriver)
        self.assertIn("MultiPV", self.engine.options)
        self.assertIn("MultiplayerSearch", self.engine.options)

    def test_options_and_their_errors(self):
        engine = self.engine
        engine.set_option("Threads", 1)
        engine.set_option("Ponder", True)
        engine.set_option("Clear Hash")  # a button: no value
        with self.assertRaises(EngineError) as refused:
            engine.set_option("Hash", "lots")
        self.assertEqual(refused.exception.message, "Hash: 'lots' is not a whole number from 1 to 1024")
        self.assertEqual(refused.exception.command, "setoption name Hash value lots")
        with self.assertRaisesRegex(EngineError, r"^unknown option 'NoSuchOption' ignored"):
            engine.set_option("NoSuchOption", 1)
        self.assertEqual(engine.fen(), "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0")  # still in step

    def test_a_bad_option_at_start_raises_and_leaves_no_process(self):
        with tempfile.TemporaryDirectory() as directory:
            directory = os.path.realpath(directory)
            with self.assertRaisesRegex(EngineError, r"^MultiPV: '0' is not a whole number from 1 to 256$"):
                Engine(PODIUM, options={"MultiPV": 0}, cwd=directory)
            self.assertEqual(processes_in(directory), [])

    def test_set_position_and_its_errors(self):
        engine = self.engine
        engine.set_position("startpos", ["B@d1"])
        after_one = engine.fen()
        self.assertEqual(engine.turn(), "p2")
        for same in ("startpos moves B@d1", f"fen {after_one}", after_one):
            engine.set_position(same)
            self.assertEqual(engine.fen(), after_one, same)
        with self.assertRaises(EngineError) as refused:
            engine.set_position("6/6/6/6/6/6 x - 0 0")
        self.assertNotIsInstance(refused.exception, IllegalMoveError)
        self.assertEqual(refused.exception.message,
                         "invalid position: side: 'x' is not a side: expected 'w' or 'b'")
        self.assertEqual(engine.fen(), after_one)  # the old position stays
        with self.assertRaises(IllegalMoveError) as illegal:
            engine.set_position("startpos", ["B@d1", "B@d1"])
        error = illegal.exception
        self.assertEqual((error.move, error.index), ("B@d1", 1))
        self.assertEqual(error.message, "illegal move B@d1 at index 1: the point is occupied")
        # the side that tried it lost
        self.assertTrue(engine.is_game_over())
        self.assertEqual(engine.result(), "p1win")
        self.assertEqual(engine.legal_moves(), [])
        self.assertIsNone(engine.play(depth=1).move)
        self.assertEqual(engine.analyse(depth=2), [])
        self.assertIsNone(engine.analyse(depth=2).bestmove)
        with self.assertRaises(ArgumentError):
            engine.play(moves=["B@d1"], depth=1)  # moves need a position to start from

    def test_bad_input_to_every_call_raises(self):
        engine = self.engine
        engine.set_position("startpos", ["B@d1"])
        after_one = engine.fen()
        ignored = r"^{}: unexpected '{}', expected .* \(ignored\)$"
        # Words the engine would only warn about and ignore: the call did not do what it said.
        for call, command, word in (
                (lambda: engine.new_game("chess"), "newgame", "chess"),
                (lambda: engine.new_game("standard", colour=3), "newgame", "colour"),
                (lambda: engine.new_game("standard", rotation="90 degrees"), "newgame", "degrees"),
                (lambda: engine.is_legal("N@b6 N@e5"), "query", "N@e5")):
            with self.assertRaisesRegex(EngineError, ignored.format(command, word)):
                call()
        with self.assertRaisesRegex(EngineError, r"^setoption: Clear Hash is a button and takes no value"):
            engine.set_option("Clear Hash", True)
        # The engine carried out the rest of each command: a new game, turned by the rotation it could read.
        self.assertEqual(engine.fen(), "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 90 0")
        engine.new_game("standard", rotation=0)
        engine.set_position(after_one)
        # Values the engine cannot read: errors.
        for call, message in (
                (lambda: engine.new_game("poldr", players=4),
                 r"^newgame: Players: '4' is not a whole number from 2 to 3$"),
                (lambda: engine.new_game("standard", size=5),
                 r"^newgame: unexpected 'size', expected the settings of one game "),
                (lambda: engine.set_option("MultiPV", 2.5), r"^MultiPV: '2\.5' is not a whole number"),
                (lambda: engine.is_legal(""), r"^query: missing a move after islegal$"),
                (lambda: engine.set_position("startpos B@d1"), r"^invalid position: "),
                (lambda: engine.set_position("position somewhere"), r"^invalid position: ")):
            with self.assertRaisesRegex(EngineError, message):
                call()
        # Arguments of the wrong kind: before anything is sent.
        for call in (lambda: engine.analyse(depth=True), lambda: engine.play(times={"p1": 1.5}),
                     lambda: engine.play(nodes=-5), lambda: engine.analyse(depth=2, view="p4"),
                     lambda: engine.analyse(depth=1, multipv=0)):
            with self.assertRaises(ValueError):
                call()
        for call in (lambda: engine.set_position("startpos", "B@d1"), lambda: engine.set_position(None)):
            with self.assertRaises(TypeError):
                call()
        self.assertEqual(engine.fen(), after_one)  # still in step
        # "position " before a position is read as in a positions file of podium analyse.
        engine.set_position(f"position fen {after_one}")
        self.assertEqual(engine.fen(), after_one)

    def test_analyse_with_multipv(self):
        engine = self.engine
        for game, position in ((None, "startpos moves B@d1"), ("poldr", "startpos")):
            if game:
                engine.new_game(game, players=2, size=5, bricks=16)
            lines = engine.analyse(position, depth=3, multipv=3)
            self.assertEqual([line["multipv"] for line in lines], [1, 2, 3], lines)
            self.assertEqual(len({line["pv"][0] for line in lines}), 3, lines)
            for line in lines:
                self.assertEqual(line["depth"], 3)
                self.assertIsInstance(line["score"], Score)
                self.assertTrue(engine.is_legal(line["pv"][0]), line)
                for field in ("seldepth", "nodes", "nps", "hashfull", "time"):
                    self.assertIsInstance(line[field], int, field)
            single = engine.analyse(position, depth=3)
            self.assertEqual(len(single), 1)
            self.assertEqual(single[0]["multipv"], 1)

    def test_scores_from_another_side(self):
        engine = self.engine

        def score(view):
            engine.set_option("Clear Hash")  # the same search each time
            return engine.analyse("startpos moves B@d1", depth=4, view=view)[0]["score"]

        mover = score(None)
        self.assertEqual(score("p2"), mover)  # Black is to move
        self.assertEqual(score("p1"), mover.negated())
        self.assertEqual(Score(mate=3).negated(), Score(mate=-3))
        self.assertEqual(str(Score(cp=-12)), "cp -12")
        with self.assertRaises(PerspectiveError):
            engine.analyse(depth=1, view="p3")  # no third seat in Pods
        engine.new_game("poldr", players=3, size=4, bricks=3)
        engine.set_position("startpos")
        self.assertEqual(len(engine.analyse(depth=2, view="p1")), 1)  # p1 is the mover
        for other in ("p2", "p3"):
            with self.assertRaisesRegex(PerspectiveError, "three players"):
                engine.analyse(depth=2, view=other)
        with self.assertRaises(ValueError):  # PerspectiveError is a ValueError too
            engine.analyse(depth=2, view="white")

    def test_streaming_analysis_stopped_early(self):
        engine = self.engine
        engine.set_position("startpos")
        start_moves = engine.legal_moves()
        with engine.analysis("startpos", multipv=2) as stream:
            lines = []
            for line in stream:
                lines.append(line)
                if len(lines) == 6:
                    break
        self.assertTrue(stream.done)
        self.assertTrue(engine.is_legal(stream.bestmove))
        self.assertEqual([line["multipv"] for line in lines[:2]], [1, 2])
        self.assertEqual([line["depth"] for line in lines], [1, 1, 2, 2, 3, 3])
        self.assertEqual(engine.legal_moves(), start_moves)  # in step with the engine again
        # stop() ends it too; so does the next call on the engine, which reads the bestmove first
        stream = engine.analysis("startpos moves B@d1")
        next(stream)
        self.assertTrue(engine.is_legal(stream.stop()))
        stream = engine.analysis("startpos moves B@d1")
        next(stream)
        self.assertEqual(engine.turn(), "p2")
        self.assertTrue(stream.done)
        self.assertEqual(list(stream), [])

    def test_streaming_analysis_ends_at_its_limit(self):
        lines = list(self.engine.analysis("startpos", depth=3))
        self.assertEqual([line["depth"] for line in lines], [1, 2, 3])

    def test_play(self):
        engine = self.engine
        with self.assertRaises(ValueError):
            engine.play("startpos")  # no limit: it would never end
        with self.assertRaises(ValueError):
            engine.play("startpos", depth=0)
        self.assertTrue(engine.is_legal(engine.play("startpos", depth=2).move))
        started = time.monotonic()
        self.assertTrue(engine.is_legal(engine.play("startpos", movetime=50).move))
        self.assertLess(time.monotonic() - started, 2.0)
        move = engine.play("startpos moves B@d1", times={"p1": 1000, "p2": 300}, increments={"p1": 10, "p2": 10}).move
        self.assertTrue(engine.is_legal(move))
        with self.assertRaisesRegex(EngineError, "no time given for the side to move"):
            engine.play("startpos moves B@d1", times={"p1": 1000})

    def test_pods_game_to_its_end(self):
        engine = self.engine
        engine.new_game("standard")
        engine.set_position("startpos")
        self.assertIsNone(engine.result())
        movers = play_out(engine)
        loser = engine.turn()  # the side to move has no move
        self.assertEqual(engine.result(), {"p1": "p2win", "p2": "p1win"}[loser])
        self.assertEqual(movers[:4], ["p1", "p2", "p1", "p2"])
        self.assertEqual(engine.legal_moves(), [])

    def test_poldr_games_of_two_and_three_to_their_end(self):
        engine = self.engine
        for players in (2, 3):
            engine.new_game("poldr", players=players, size=4, bricks=3)
            engine.set_position("startpos")
            self.assertEqual(engine.fen(), f"4/4/4/4 b {','.join(['3'] * players)} 1 0 {','.join(['-'] * players)}")
            self.assertIn("Pa1Mc1", engine.legal_moves())
            movers = play_out(engine)
            self.assertEqual(movers[:players + 1], [f"p{seat % players + 1}" for seat in range(players + 1)])
            self.assertIn(engine.result(), [f"p{seat}win" for seat in range(1, players + 1)])  # never a draw
            self.assertEqual(engine.legal_moves(), [])
            self.assertIsNone(engine.play(depth=1).move)
        engine.new_game("poldr", players=3, size=5, bricks=16)
        move, winner = POLDR3_FORFEIT
        with self.assertRaises(IllegalMoveError):
            engine.set_position("startpos", [move])
        self.assertEqual((engine.is_game_over(), engine.result()), (True, winner))

    def test_context_manager_shutdown_leaves_no_process(self):
        with tempfile.TemporaryDirectory() as directory:
            directory = os.path.realpath(directory)
            with Engine(PODIUM, cwd=directory) as engine:
                self.assertEqual(processes_in(directory), [engine.pid])
                stream = engine.analysis("startpos")
                next(stream)  # left running: quit stops it
            self.assertEqual(processes_in(directory), [])
            with self.assertRaises(KeyError):
                with Engine(PODIUM, cwd=directory) as engine:
                    raise KeyError("the script fails")
            self.assertEqual(processes_in(directory), [])
            with self.assertRaises(EngineTerminated):
                engine.fen()  # closed


class BrokenEngineTest(unittest.TestCase):
    """Every wait is bounded, every failure is a typed exception, no process is left behind."""

    def fake(self, mode: str) -> list[str]:
        marker = f"client-test-{uuid.uuid4()}"
        self.addCleanup(lambda: self.assertEqual(processes_running(marker), [], f"{mode} engine left running"))
        return [*fake_argv(mode), marker]

    def assert_times_out(self, call, within: float) -> EngineTimeout:
        started = time.monotonic()
        with self.assertRaises(EngineTimeout) as timeout:
            call()
        self.assertLess(time.monotonic() - started, within + 0.5)
        self.assertIsInstance(timeout.exception, TimeoutError)
        return timeout.exception

    def test_an_engine_that_never_finishes_its_handshake(self):
        error = self.assert_times_out(lambda: Engine(self.fake("mute"), timeout=0.3), 0.3)
        self.assertEqual(error.detail, "python3: no ugiok within 0.3 s")

    def test_an_engine_that_never_answers(self):
        with Engine(self.fake("deaf"), timeout=0.3) as engine:
            self.assert_times_out(lambda: engine.set_option("Hash", 1), 0.3)
            self.assert_times_out(engine.is_game_over, 0.3)
            self.assert_times_out(engine.legal_moves, 0.3)

    def test_an_engine_that_never_moves(self):
        def never_moves() -> Engine:
            engine = Engine(self.fake("hang"), timeout=0.3, search_timeout=0.4)
            self.addCleanup(engine.close)
            return engine

        # past its time the search is stopped to keep what it found; an engine that does not answer
        # even `stop` times out then
        engine = never_moves()
        error = self.assert_times_out(lambda: engine.play("startpos", depth=1), 0.7)  # search_timeout, then stop
        self.assertEqual(error.detail, "python3: no bestmove within 0.3 s of stop")
        # the next call finds the search still unanswered, and waits for it no longer
        error = self.assert_times_out(engine.fen, 0.1)
        self.assertEqual(error.detail, "python3: no bestmove within 0.3 s of stop")
        self.assert_times_out(lambda: never_moves().play("startpos", movetime=100), 0.7)  # movetime + timeout + stop
        self.assert_times_out(lambda: never_moves().analyse("startpos", nodes=1000, timeout=0.2), 0.5)
        stream = never_moves().analysis("startpos")
        error = self.assert_times_out(lambda: next(stream), 0.4)  # search_timeout between two lines
        self.assertEqual(error.detail, "python3: no output for 0.4 s while searching")

    def test_an_engine_that_crashes_or_cannot_start(self):
        with Engine(self.fake("crash")) as engine:
            with self.assertRaisesRegex(EngineTerminated, r"exit code 3\) while searching"):
                engine.play("startpos", depth=1)
        with self.assertRaises(EngineStartFailed):
            Engine("/no/such/engine")

    def test_an_engine_that_prints_garbage(self):
        with Engine(self.fake("garbage")) as engine:
            with self.assertRaisesRegex(ProtocolError, "Hello, I am not an engine"):
                engine.play("startpos", depth=1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
