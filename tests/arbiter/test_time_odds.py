#!/usr/bin/env python3
"""Tests of time controls per engine (issue #39: time odds, as cutechess and fastchess take tc= per
engine) and of the limits the arbiter refuses because the engine cannot take them (issue #42:
protocol.md's ranges).

    PODIUM_BIN=target/release/podium python3 tests/arbiter/test_time_odds.py
"""

import os
import re
import unittest

from support import NEEDS_PODIUM, PODIUM, fake
from test_arbiter import ArbiterRun

from podium.clock import GameClock, TimeControl, parse_limit
from podium.errors import UsageError


class ClockTest(unittest.TestCase):
    def test_each_seat_has_its_own_control(self):
        clock = GameClock({"white": TimeControl("tc", base_ms=2000, inc_ms=20),
                           "black": TimeControl("tc", base_ms=1000, inc_ms=10)}, margin_ms=100)
        self.assertEqual(clock.go_command("white"), "go p1time 2000 p2time 1000 p1inc 20 p2inc 10")
        self.assertTrue(clock.charge("black", 300))
        self.assertEqual(clock.remaining["black"], 710)
        self.assertAlmostEqual(clock.limit_seconds("white"), 2.1)
        mixed = GameClock({"p1": TimeControl("depth", value=3), "p2": TimeControl("tc", base_ms=500, inc_ms=5),
                           "p3": TimeControl("movetime", value=50)}, margin_ms=100, seats=("p1", "p2", "p3"))
        self.assertEqual(mixed.go_command("p1"), "go depth 3")
        self.assertEqual(mixed.go_command("p2"), "go p2time 500 p2inc 5")  # only the seats that have a clock
        self.assertEqual(mixed.go_command("p3"), "go movetime 50")
        self.assertIsNone(mixed.limit_seconds("p1"))
        self.assertFalse(mixed.charge("p3", 151))

    def test_limits_within_the_protocols_ranges(self):
        self.assertEqual(parse_limit("depth", "4294967295", "--depth"), TimeControl("depth", value=4294967295))
        self.assertEqual(parse_limit("nodes", str(2**64 - 1), "--nodes").value, 2**64 - 1)
        for kind, text in (("depth", "4294967296"), ("depth", "99999999999999999999"), ("depth", "0"),
                           ("nodes", str(2**64)), ("movetime", "1000000001"), ("depth", "9" * 5000), ("nodes", "x")):
            with self.assertRaises(UsageError, msg=(kind, text)):
                parse_limit(kind, text, f"--{kind}")


class RangeUsageTest(unittest.TestCase):
    def assert_usage_error(self, *args: str, mentions: str) -> None:
        done = ArbiterRun(self).run(*args)
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertNotIn("Traceback", done.stderr)
        self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
        self.assertIn(mentions, done.stderr)

    def test_the_arbiter_refuses_limits_the_engine_cannot_take(self):
        engines = ["--engine", "name=a", fake("illegal"), "--engine", "name=b", fake("illegal")]
        self.assert_usage_error(*engines, "--depth", "99999999999999999999",
                                mentions="--depth 99999999999999999999: depth must be from 1 to 4294967295, "
                                         "the protocol's range")
        self.assert_usage_error(*engines, "--nodes", str(2**64),
                                mentions="nodes must be from 1 to 18446744073709551615")
        self.assert_usage_error(*engines, "--depth", "0", mentions="depth must be from 1")
        self.assert_usage_error(*engines, "--movetime", "1000000001",
                                mentions="movetime must be from 1 to 1000000000 ms")
        self.assert_usage_error("--engine", "name=a", fake("illegal"), "depth=4294967296", "--engine", "name=b",
                                fake("illegal"), "--depth", "1",
                                mentions="--engine name=a depth= 4294967296: depth must be from 1 to 4294967295")
        self.assert_usage_error("--engine", "name=a", fake("illegal"), "tc=1", "depth=3", "--engine", "name=b",
                                fake("illegal"), "--depth", "1", mentions="one time control per engine, not tc, depth")
        self.assert_usage_error("--engine", "name=a", fake("illegal"), "tc=1", "--engine", "name=b", fake("illegal"),
                                mentions="one of --tc, --movetime, --depth, --nodes is required (or tc=")
        self.assert_usage_error("--engine", "name=a", fake("illegal"), "tc=fast", "--engine", "name=b",
                                fake("illegal"), "tc=1", mentions="--engine name=a tc= 'fast': expected seconds")
        self.assert_usage_error(*engines, "--depth", "1", "--games", "1000000000",
                                mentions="--games 1000000000: a match has at most 1000000 games")
        self.assert_usage_error("--engine", "name=a", fake("illegal"), "option.Hash=8\nquit", "--engine", "name=b",
                                fake("illegal"), "--depth", "1", mentions="a line break or control character")


@NEEDS_PODIUM
class TimeOddsTest(unittest.TestCase):
    def test_a_doubling_match_is_one_command_and_the_records_say_each_control(self):
        run = ArbiterRun(self)
        log = os.path.join(run.dir.name, "traffic.log")
        done = run.match("--engine", "name=long", f"cmd={PODIUM}", "tc=0.6+0.02", "--engine", "name=short",
                         f"cmd={PODIUM}", "tc=0.3+0.01", "--games", "2", "--timemargin", "300", "--random-plies", "2",
                         "--seed", "3", "--max-plies", "60", "--log", log)
        self.assertIn("Match long vs short: 2 games (0 already recorded), standard, long tc 0.6+0.02, short tc "
                      "0.3+0.01", done.stdout)
        records = run.read_records()
        for record in records:
            seat_of = {name: f"p{number}" for number, name in enumerate(record["seats"], 1)}
            self.assertEqual(record["time_control"], {seat_of["long"]: "tc 0.6+0.02", seat_of["short"]: "tc 0.3+0.01"})
        header = run.read_header()
        self.assertIsNone(header["time_control"])
        self.assertEqual([engine["time_control"] for engine in header["engines"]],
                         [{"kind": "tc", "base_ms": 600, "inc_ms": 20, "value": 0},
                          {"kind": "tc", "base_ms": 300, "inc_ms": 10, "value": 0}])
        with open(log, encoding="utf-8") as handle:
            first_go = next(line for line in handle if " > go " in line)
        self.assertRegex(first_go, r"> go p1time (600|300) p2time (300|600) p1inc (20|10) p2inc (10|20)$")
        times = re.search(r"p1time (\d+) p2time (\d+) p1inc (\d+) p2inc (\d+)", first_go).groups()
        self.assertEqual(sorted(zip(times[:2], times[2:])), [("300", "10"), ("600", "20")])
        # --resume alone goes on with each engine's own control
        with open(run.records, encoding="utf-8") as handle:
            kept = handle.readlines()[:2]
        with open(run.records, "w", encoding="utf-8") as handle:
            handle.writelines(kept)
        resumed = run.match("--resume", run.records, records=False)
        self.assertIn("(1 already recorded), standard, long tc 0.6+0.02, short tc 0.3+0.01", resumed.stdout)
        self.assertIn("Results of long vs short (standard, long tc 0.6+0.02, short tc 0.3+0.01, 2 games):",
                      resumed.stdout)

    def test_per_engine_depth_movetime_and_nodes(self):
        run = ArbiterRun(self)
        log = os.path.join(run.dir.name, "traffic.log")
        run.match("--game", "poldr", "--size", "4", "--bricks", "3", "--players", "3",
                  "--engine", "name=deep", f"cmd={PODIUM}", "depth=2", "--engine", "name=quick", f"cmd={PODIUM}",
                  "movetime=30", "--engine", "name=plain", f"cmd={PODIUM}", "--nodes", "500", "--games", "6",
                  "--log", log)
        for record in run.read_records():
            controls = {name: record["time_control"][f"p{number}"] for number, name in enumerate(record["seats"], 1)}
            self.assertEqual(controls, {"deep": "depth 2", "quick": "movetime 30", "plain": "nodes 500"})
        with open(log, encoding="utf-8") as handle:
            goes = {re.search(r"(?:w\d+:)?(\S+) > go (.*)$", line).groups() for line in handle if " > go " in line}
        self.assertEqual({engine: command for engine, command in goes},
                         {"deep": "depth 2", "quick": "movetime 30", "plain": "nodes 500"})


if __name__ == "__main__":
    unittest.main(verbosity=2)
