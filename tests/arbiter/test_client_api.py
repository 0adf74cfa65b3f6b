#!/usr/bin/env python3
"""Tests of the client's types and of its answers to misuse (issue #42): Limit, Score, Info,
PlayResult, the options' details, eval, searches that run as long as they need or stop at a timeout
with what they found, no line break carried into the protocol by any argument, typed errors for
every misuse, and engines that die collected at once.

    PODIUM_BIN=target/release/podium python3 tests/arbiter/test_client_api.py
"""

import math
import os
import signal
import time
import unittest
import uuid

from support import NEEDS_PODIUM, PODIUM, fake_argv

from podium import (Analysis, ArgumentError, ArgumentTypeError, Engine, EngineTerminated, Evaluation, Info, Limit,
                    Option, PerspectiveError, PlayResult, PodiumError, Score)
from podium.info import parse_eval, parse_info, parse_option
from podium.process import LONGEST_LINE, LineSplitter, Overlong

START = "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0"
# Texts that would end a protocol line early, or carry a control character into it.
BREAKS = ["\n", "\r", "\r\n", "\x00", "\x1b", "\u2028", "\x85"]


def reaped(pid: int, within: float = 3.0) -> bool:
    """Whether the process is gone, not even a zombie, within the time given."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not os.path.exists(f"/proc/{pid}"):  # a zombie keeps its entry until it is collected
            return True
        time.sleep(0.02)
    return False


class TypesTest(unittest.TestCase):
    def test_limit_checks_its_values_and_writes_go(self):
        self.assertEqual(Limit(depth=6).go_command(), "go depth 6")
        self.assertEqual(Limit().go_command(), "go infinite")
        self.assertEqual(Limit(nodes=1000, movetime=50, mate=3).go_command(), "go nodes 1000 movetime 50 mate 3")
        clock = Limit(times={"p2": 300, "p1": 1000}, increments={"p1": 10, "p2": 10}, movestogo=20)
        self.assertEqual(clock.go_command(), "go p1time 1000 p2time 300 p1inc 10 p2inc 10 movestogo 20")
        self.assertEqual(clock.longest_ms(), 1010)
        self.assertTrue(Limit().empty and not Limit(depth=1).empty)
        # the protocol's ranges: depth 1 to 4294967295, nodes up to 2^64 - 1
        Limit(depth=4294967295, nodes=2**64 - 1)
        for bad in ({"depth": 0}, {"depth": 2**32}, {"depth": 99999999999999999999}, {"nodes": 2**64},
                    {"movetime": -1}, {"mate": 0}, {"times": {"p4": 1}}, {"times": {"p1": -1}},
                    {"increments": {"p1": 1}}, {"movestogo": 3}):
            with self.assertRaises(ArgumentError, msg=bad):
                Limit(**bad)
        for bad in ({"depth": True}, {"depth": 2.0}, {"depth": "6"}, {"times": "x"}, {"times": [("p1", 1)]},
                    {"times": {"p1": 1.5}}):
            with self.assertRaises(ArgumentTypeError, msg=bad):
                Limit(**bad)

    def test_scores_compare_sort_and_turn_to_a_side(self):
        # best to worst for the side whose view they give: wins sooner, then later, evaluations, losses later, sooner
        ordered = [Score(mate=1), Score(mate=4), Score(cp=900), Score(cp=0), Score(cp=-35), Score(mate=-6),
                   Score(mate=-1)]
        self.assertEqual(sorted(reversed(ordered), reverse=True), ordered)
        self.assertEqual(max(ordered[2:]), Score(cp=900))
        self.assertTrue(Score(mate=-3) < Score(cp=-10000) < Score(cp=10000) < Score(mate=30))
        self.assertEqual(Score(cp=5), Score(cp=5, seat="p1"))
        self.assertEqual(len({Score(cp=5), Score(cp=5, seat="p2"), Score(mate=5)}), 2)
        # turned to the other side of a two-player game: negated, mates too
        mover = Score(mate=3, seat="p2", players=2)
        self.assertEqual(mover.pov("p2"), mover)
        self.assertEqual(mover.pov("p1"), Score(mate=-3, seat="p1"))
        self.assertEqual(mover.pov("p1").seat, "p1")
        self.assertEqual(Score(cp=-12, seat="p1", players=2).pov("p2"), Score(cp=12))
        self.assertEqual(-Score(cp=7), Score(cp=-7))
        self.assertEqual((Score(mate=2).score(), Score(mate=2).score(mate_score=10000),
                          Score(mate=-2).score(mate_score=10000), Score(cp=40).score()), (None, 9998, -9998, 40))
        with self.assertRaises(PerspectiveError):  # three players: only the mover's own view is known
            Score(cp=10, seat="p1", players=3).pov("p2")
        with self.assertRaises(PerspectiveError):  # whose view: not known
            Score(cp=10).pov("p1")
        with self.assertRaises(PerspectiveError):  # two views do not compare
            _ = Score(cp=10, seat="p1") < Score(cp=20, seat="p2")
        self.assertEqual(str(Score(mate=-2)), "mate -2")

    def test_info_has_every_field_the_engine_prints(self):
        info = parse_info("info multipv 2 depth 3 seldepth 4 score mate -2 nodes 10 nps 5 hashfull 1 time 7 tbhits 0 "
                          "pv Pa1Me5 Mc1")
        self.assertIsInstance(info, Info)
        self.assertEqual((info.multipv, info.depth, info.seldepth, info.score, info.nodes, info.nps, info.hashfull,
                          info.time, info.tbhits, info.pv),
                         (2, 3, 4, Score(mate=-2), 10, 5, 1, 7, 0, ["Pa1Me5", "Mc1"]))
        current = parse_info("info depth 12 currmove B@b3 currmovenumber 4")
        self.assertEqual((current.currmove, current.currmovenumber, current.score), ("B@b3", 4, None))
        self.assertEqual(parse_info("info string game over: White wins").string, "game over: White wins")
        self.assertEqual(parse_info(f"info depth {'9' * 5000}"), {})  # no int() of thousands of digits
        with self.assertRaises(AttributeError):
            _ = info.dept  # a misspelt field

    def test_option_lines_give_type_default_and_range(self):
        self.assertEqual(parse_option("option name Hash type spin default 64 min 1 max 1024"),
                         Option("Hash", "spin", "64", 1, 1024))
        self.assertEqual(parse_option("option name MultiplayerSearch type combo default paranoid var paranoid "
                                      "var maxn"),
                         Option("MultiplayerSearch", "combo", "paranoid", var=("paranoid", "maxn")))
        self.assertEqual(parse_option("option name Clear Hash type button"), Option("Clear Hash", "button"))
        self.assertEqual(parse_option("option name EvalWeights type string default <empty>").default, "<empty>")
        self.assertIsNone(parse_option("id name Podium"))

    def test_eval_lines(self):
        pods = parse_eval("eval Black to move: placements -183 tempo 10 total -173", 2)
        self.assertEqual((pods.score, pods.turn, pods.terms),
                         (Score(cp=-173), "p2", {"placements": -183, "tempo": 10, "total": -173}))
        poldr = parse_eval("eval Blue to move: score 5 phase building Blue reserve -450 clearable 0 total -450; Yellow "
                           "reserve -440 clearable 0 total -440;", 2)
        self.assertEqual((poldr.score, poldr.terms["phase"], poldr.players["p2"]["reserve"]),
                         (Score(cp=5), "building", -440))
        over = parse_eval("eval none: game over, Yellow wins (Blue played an illegal move)", 3)
        self.assertEqual((over.score, over.over), (None, "Yellow wins (Blue played an illegal move)"))

    def test_lines_are_cut_whole_and_overlong_ones_skipped(self):
        splitter = LineSplitter(limit=16)
        self.assertEqual(splitter.feed(b"bestmo"), [])
        self.assertEqual(splitter.feed(b"ve B@d1\r\nreadyok\n012"), ["bestmove B@d1", "readyok"])
        lines = splitter.feed(b"3456789" + b"x" * 30)  # 40 bytes and more: too long
        self.assertEqual(len(lines), 1)
        self.assertIsInstance(lines[0], Overlong)
        self.assertEqual(splitter.feed(b"yyy\nafter\nlast"), ["after"])  # the rest of the long line is skipped
        self.assertEqual(splitter.end(), ["last"])
        self.assertEqual(LineSplitter().feed(b"a" * LONGEST_LINE + b"\n"), ["a" * LONGEST_LINE])


@NEEDS_PODIUM
class ResultsTest(unittest.TestCase):
    def setUp(self):
        self.engine = Engine(PODIUM, options={"Hash": 8})
        self.addCleanup(self.engine.close)

    def test_play_gives_the_move_the_ponder_move_and_the_search_info(self):
        engine = self.engine
        engine.set_option("Ponder", True)
        result = engine.play("startpos moves B@d1", Limit(depth=4))
        self.assertIsInstance(result, PlayResult)
        self.assertTrue(engine.is_legal(result.move))
        self.assertEqual((result.info.depth, result.info.pv[:2]), (4, [result.move, result.ponder]))
        self.assertIsNotNone(result.ponder)
        self.assertEqual((result.score, result.score.seat), (result.info.score, "p2"))
        self.assertFalse(result.partial)
        self.assertGreaterEqual(result.elapsed, 0)
        engine.set_option("Ponder", False)
        self.assertIsNone(engine.play("startpos", depth=3).ponder)

    def test_analysis_lines_carry_their_seat_and_sort(self):
        lines = self.engine.analyse("startpos moves B@d1", Limit(depth=3), multipv=3)
        self.assertIsInstance(lines, Analysis)
        self.assertEqual(lines.bestmove, lines[0].pv[0])
        self.assertEqual(sorted((line.score for line in lines), reverse=True), [line.score for line in lines])
        self.assertEqual({line.score.seat for line in lines}, {"p2"})
        as_white = [line.score.pov("p1") for line in lines]
        self.assertEqual(as_white, [-line.score for line in lines])

    def test_option_details(self):
        options = self.engine.options
        self.assertEqual(options["Hash"], Option("Hash", "spin", "64", 1, 1024))
        self.assertIs(options["hash"], options["Hash"])  # names match without regard to case, as in the protocol
        self.assertEqual(options["Variant"].var, ("standard", "advanced"))
        self.assertEqual(options["Clear Hash"].type, "button")
        self.assertIn("MultiPV", options)
        self.assertIn("MultiPV", list(options))

    def test_eval_of_both_games(self):
        engine = self.engine
        engine.set_position("startpos", ["B@d1"])
        evaluation = engine.eval()
        self.assertIsInstance(evaluation, Evaluation)
        self.assertEqual((evaluation.turn, evaluation.score.seat), ("p2", "p2"))
        self.assertEqual(evaluation.score.cp, evaluation.terms["total"])
        engine.new_game("poldr", players=3, size=5, bricks=8)
        engine.set_position("startpos", ["Pc3Me5", "Ma1", "Ma5"])
        evaluation = engine.eval()
        self.assertEqual(sorted(evaluation.players), ["p1", "p2", "p3"])
        self.assertEqual(evaluation.players["p3"]["reserve"], evaluation.players["p1"]["reserve"])
        with self.assertRaises(PodiumError):
            engine.set_position("startpos", ["Pc3Me5", "Ma1", "Ma5", "Qb2"])
        self.assertIsNone(engine.eval().score)
        self.assertIn("Yellow wins", engine.eval().over)

    def test_a_depth_limited_analysis_runs_as_long_as_it_needs(self):
        self.assertIsNone(self.engine.search_timeout)  # no limit unless one is asked for
        slow = Engine(fake_argv("slow"), timeout=0.3)  # 1.5 s of silence, then its answer
        self.addCleanup(slow.close)
        started = time.monotonic()
        lines = slow.analyse("startpos", Limit(depth=1))
        self.assertGreater(time.monotonic() - started, 1.4)
        self.assertEqual((lines.partial, lines[0].score, lines.bestmove), (False, Score(cp=7), "B@d1"))
        self.assertEqual(slow.play("startpos", Limit(nodes=100)).move, "B@d1")

    def test_a_timeout_stops_the_search_and_keeps_what_it_found(self):
        engine = self.engine
        started = time.monotonic()
        lines = engine.analyse("startpos", Limit(depth=120), multipv=2, timeout=0.5)
        self.assertLess(time.monotonic() - started, 3.0)
        self.assertTrue(lines.partial)
        self.assertEqual([line.multipv for line in lines], [1, 2])
        self.assertLess(lines[0].depth, 120)
        self.assertTrue(engine.is_legal(lines.bestmove))
        result = engine.play("startpos", Limit(depth=120), timeout=0.3)
        self.assertTrue(result.partial)
        self.assertTrue(engine.is_legal(result.move))
        self.assertEqual(engine.fen(), START)  # in step again
        self.assertFalse(engine.analyse("startpos", depth=2, timeout=30).partial)


@NEEDS_PODIUM
class MisuseTest(unittest.TestCase):
    """Every misuse is a typed error (a PodiumError), and nothing reaches the engine."""

    def setUp(self):
        self.engine = Engine(PODIUM, options={"Hash": 8})
        self.addCleanup(self.engine.close)

    def assert_unchanged(self) -> None:
        engine = self.engine
        self.assertEqual((engine.fen(), engine.is_game_over(), engine.options["MultiPV"].default), (START, False, "1"))
        self.assertTrue(engine.driver.running)

    def test_no_argument_carries_a_line_break_into_the_protocol(self):
        engine = self.engine
        for brk in BREAKS:
            injected = f"{brk}position startpos moves B@d1{brk}quit"
            calls = {
                "is_legal": lambda: engine.is_legal("A@c3" + injected),
                "set_option name": lambda: engine.set_option("Hash" + injected, 8),
                "set_option value": lambda: engine.set_option("Hash", "8" + injected),
                "new_game game": lambda: engine.new_game("standard" + injected),
                "new_game setting": lambda: engine.new_game("standard", **{"rotation" + injected: 0}),
                "new_game value": lambda: engine.new_game("standard", rotation="0" + injected),
                "set_position position": lambda: engine.set_position("startpos" + injected),
                "set_position moves": lambda: engine.set_position("startpos", ["A@c3" + injected]),
                "analyse position": lambda: engine.analyse("startpos" + injected, depth=1),
                "analyse moves": lambda: engine.analyse("startpos", depth=1, moves=["B@d1" + injected]),
                "play position": lambda: engine.play(START + injected, depth=1),
                "analysis position": lambda: engine.analysis("startpos" + injected),
                "driver": lambda: engine.driver.send("isready" + injected),
            }
            for name, call in calls.items():
                with self.subTest(call=name, brk=brk):
                    with self.assertRaises(ArgumentError):
                        call()
                    self.assert_unchanged()
        with self.assertRaises(ArgumentError):
            Engine(PODIUM, options={"Hash": "8\nquit"})

    def test_every_misuse_is_a_typed_error(self):
        engine = self.engine
        for call, error in (
                (lambda: Engine([]), ArgumentError),
                (lambda: Engine(""), ArgumentError),
                (lambda: Engine(None), ArgumentTypeError),
                (lambda: Engine([PODIUM, 3]), ArgumentTypeError),
                (lambda: Engine(PODIUM, options=[("Hash", 8)]), ArgumentTypeError),
                (lambda: Engine(PODIUM, options=["Hash"]), ArgumentTypeError),
                (lambda: Engine(PODIUM, timeout=math.nan), ArgumentError),
                (lambda: Engine(PODIUM, timeout=-1), ArgumentError),
                (lambda: Engine(PODIUM, timeout="5"), ArgumentTypeError),
                (lambda: Engine(PODIUM, search_timeout=0), ArgumentError),
                (lambda: engine.play("startpos", times="x"), ArgumentTypeError),
                (lambda: engine.play("startpos", times={"p1": "x"}), ArgumentTypeError),
                (lambda: engine.play("startpos", increments=[1]), ArgumentTypeError),
                (lambda: engine.play("startpos", depth=99999999999999999999), ArgumentError),
                (lambda: engine.play("startpos", Limit(depth=2), depth=3), ArgumentError),
                (lambda: engine.play("startpos", [{"depth": 2}]), ArgumentTypeError),
                (lambda: engine.play("startpos", depth=2, timeout=math.nan), ArgumentError),
                (lambda: engine.analyse("startpos", depth=2, multipv="2"), ArgumentTypeError),
                (lambda: engine.analyse("startpos", depth=2, view=1), ArgumentError),
                (lambda: engine.analyse("startpos"), ArgumentError),
                (lambda: engine.set_position(["startpos"]), ArgumentTypeError),
                (lambda: engine.set_position("startpos", "B@d1"), ArgumentTypeError),
                (lambda: engine.set_position("startpos", ["B@d1 N@c5"]), ArgumentError),
                (lambda: engine.set_option(None), ArgumentTypeError),
                (lambda: engine.set_option("Hash", [8]), ArgumentTypeError),
                (lambda: engine.set_option("Hash value 8"), ArgumentError),
                (lambda: engine.is_legal(3), ArgumentTypeError)):
            with self.subTest(error=error.__name__):
                with self.assertRaises(error) as raised:
                    call()
                self.assertIsInstance(raised.exception, PodiumError)
        self.assert_unchanged()

    def test_large_timeouts_are_waited_without_overflow(self):
        for timeout in (1e300, math.inf, 2**70):
            with Engine(PODIUM, timeout=timeout, search_timeout=timeout) as engine:
                self.assertTrue(engine.is_legal(engine.play("startpos", depth=2, timeout=timeout).move))
                self.assertFalse(engine.analyse("startpos", movetime=20, timeout=timeout).partial)
        self.assertFalse(self.engine.analyse("startpos", Limit(depth=2, movetime=2**64 - 1)).partial)


class ReapTest(unittest.TestCase):
    """An engine that dies is collected at once, closed or not: no zombie stays until the script ends."""

    def test_an_engine_that_died_is_not_left_a_zombie(self):
        engine = Engine([*fake_argv("crash"), f"reap-{uuid.uuid4()}"])
        pid = engine.pid
        with self.assertRaises(EngineTerminated):
            engine.play("startpos", depth=1)
        self.assertTrue(reaped(pid), "the dead engine stayed a zombie")
        with self.assertRaises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # already collected

    @NEEDS_PODIUM
    def test_an_engine_killed_while_idle_is_collected_without_any_call(self):
        engine = Engine(PODIUM)
        pid = engine.pid
        os.kill(pid, signal.SIGKILL)
        self.assertTrue(reaped(pid), "the killed engine stayed a zombie")
        with self.assertRaises(EngineTerminated):
            engine.fen()
        engine.close()


if __name__ == "__main__":
    unittest.main(verbosity=2)
