#!/usr/bin/env python3
"""Tests of scripts/arbiter.py: usage, matches of both games, faults, resume, the random mover,
compliance and interruption, run as the user runs them.

The engine comes from PODIUM_BIN (tests/arbiter.rs sets it, so `cargo test --release` runs
these); without it only the usage tests run. Broken engines are modes of fake_engine.py.

    PODIUM_BIN=target/release/podium python3 tests/arbiter/test_arbiter.py
"""

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import uuid

from support import ARBITER, NEEDS_PODIUM, PODIUM, RANDOM_MOVER, SCRIPTS, fake, fake_command

from podium import errors, notation
from podium.engines import Referee
from podium.protocol import Timeouts
from podium.records import load_records, points_for, read_match
from podium.rules import GameRules


def random_mover(seed: int) -> str:
    """The --engine cmd= token of a random mover asking PODIUM for the legal moves."""
    return f"cmd={sys.executable} {RANDOM_MOVER} --seed {seed} --podium {PODIUM}"


class ArbiterRun:
    """Runs the arbiter in a scratch directory and reads back what it wrote."""

    def __init__(self, test: unittest.TestCase):
        self.test = test
        self.dir = tempfile.TemporaryDirectory(prefix="arbiter-test-")
        test.addCleanup(self.dir.cleanup)
        self.records = os.path.join(self.dir.name, "games.jsonl")

    def run(self, *args: str, timeout: float = 60, env: dict | None = None) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, ARBITER, *args], cwd=self.dir.name, capture_output=True, text=True,
                              timeout=timeout, env=env)

    def match(self, *args: str, expect_rc: int = 0, records: bool = True, **kwargs) -> subprocess.CompletedProcess:
        done = self.run(*args, *(["--records", self.records] if records else []), **kwargs)
        self.test.assertEqual(done.returncode, expect_rc, f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}")
        return done

    def read_records(self) -> list[dict]:
        """The games of the records file, every line after its first, the match's settings."""
        return self.read_lines()[1:]

    def read_header(self) -> dict:
        header = self.read_lines()[0]
        self.test.assertEqual(header["type"], "match")
        return header

    def read_lines(self) -> list[dict]:
        with open(self.records, encoding="utf-8") as handle:
            return [json.loads(line) for line in handle]


def reported_wld(stdout: str) -> tuple[int, int, int]:
    match = re.search(r"^W-L-D: (\d+)-(\d+)-(\d+)", stdout, re.M)
    return tuple(int(number) for number in match.groups())


def wld_from_records(records: list[dict], first: str) -> tuple[int, int, int]:
    points = [points_for(record, first) for record in records]
    return points.count(1.0), points.count(0.0), points.count(0.5)


class UsageTest(unittest.TestCase):
    def assert_usage_error(self, *args: str, mentions: str) -> None:
        done = ArbiterRun(self).run(*args)
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertNotIn("Traceback", done.stderr)
        self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
        self.assertIn(mentions, done.stderr)

    def test_bad_usage_is_one_line_and_exit_2(self):
        fake_engine = fake_command("illegal")
        self.assert_usage_error("--depth", "1", mentions="exactly two --engine")
        self.assert_usage_error("--engine", f"cmd={fake_engine}", "--engine", f"cmd={fake_engine}", "--depth", "1",
                                "--frobnicate", mentions="--frobnicate")
        self.assert_usage_error("--engine", "cmd=/no/such/engine", "--engine", f"cmd={fake_engine}", "--depth", "1",
                                mentions="does not start")
        self.assert_usage_error("--engine", "name=a", f"cmd={fake_engine}", "option.NoSuch=1", "--engine", "name=b",
                                f"cmd={fake_engine}", "--depth", "1", mentions="NoSuch")
        self.assert_usage_error("--engine", f"cmd={fake_engine}", "--engine", f"cmd={fake_engine}",
                                mentions="required")
        self.assert_usage_error("compliance", mentions="exactly one --engine")
        self.assert_usage_error("compliance", "--engine", "cmd=/no/such/engine",
                                mentions="cannot start /no/such/engine")
        self.assert_usage_error("--engine", fake("mute"), "--engine", f"cmd={fake_engine}", "--depth", "1",
                                "--startup-timeout", "0.2", mentions="no ugiok within 0.2 s")

    def test_hostile_arguments_and_files_are_one_line_usage_errors(self):
        run = ArbiterRun(self)
        engines = ["--engine", "name=a", fake("illegal"), "--engine", "name=b", fake("illegal")]
        for tc in ("inf", "1e400", "1+inf", "nan"):
            self.assert_usage_error(*engines, "--tc", tc, mentions=f"--tc {tc!r}")
        self.assert_usage_error("--engine", "cmd='x", "--engine", fake("illegal"), "--depth", "1",
                                mentions="cannot split it into words (no closing quotation)")
        self.assert_usage_error(*engines, "--depth", "1", "--startup-timeout", "nan",
                                mentions="argument --startup-timeout: expected a positive number of seconds")
        self.assert_usage_error(*engines, "--depth", "1", "--timemargin", "-5",
                                mentions="argument --timemargin: expected whole milliseconds")
        not_utf8 = os.path.join(run.dir.name, "latin1.txt")
        with open(not_utf8, "wb") as handle:
            handle.write(b"# openings\n6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0 \xe9t\xe9\n")
        self.assert_usage_error(*engines, "--depth", "1", "--openings", not_utf8,
                                mentions=f"{not_utf8}: line 2 is not UTF-8 text")
        self.assert_usage_error(*engines, "--depth", "1", "--resume", not_utf8, mentions="line 2 is not UTF-8 text")
        self.assert_usage_error("report", not_utf8, "-o", os.path.join(run.dir.name, "page.html"),
                                mentions="line 2 is not UTF-8 text")
        wrong_type = os.path.join(run.dir.name, "wrong.jsonl")
        with open(wrong_type, "w", encoding="utf-8") as handle:
            handle.write('{"game": "x", "pair": 0, "white": "a", "black": "b", "result": "1-0", "reason": "r"}\n')
        self.assert_usage_error(*engines, "--depth", "1", "--resume", wrong_type,
                                mentions=f"{wrong_type}: line 1: the game record cannot be read: its 'game' is "
                                         f"\"x\", not pods or poldr")
        missing_dir = os.path.join(run.dir.name, "no", "such")
        for flag in ("--records", "--log"):
            self.assert_usage_error(*engines, "--depth", "1", flag, os.path.join(missing_dir, "file"),
                                    mentions=f"no such directory {missing_dir}")
            self.assert_usage_error(*engines, "--depth", "1", flag, run.dir.name, mentions="is a directory")
        self.assert_usage_error("frobnicate", mentions="unknown subcommand 'frobnicate': the subcommands are match")

    def test_poldr_usage_errors(self):
        engines = ["--engine", f"cmd={fake_command('illegal')}", "--engine", f"cmd={fake_command('illegal')}",
                   "--depth", "1"]
        self.assert_usage_error("--game", "poldr", "--players", "3", *engines, mentions="exactly three --engine, got 2")
        self.assert_usage_error("--game", "poldr", "--players", "4", *engines, mentions="2 or 3 players")
        self.assert_usage_error("--game", "poldr", *engines, "--engine", f"cmd={fake_command('illegal')}",
                                mentions="exactly two --engine, got 3")
        self.assert_usage_error("--game", "poldr", "--players", "3", *engines, "--engine", "name=c",
                                f"cmd={fake_command('illegal')}", "--sprt", "elo0=0", mentions="--sprt")
        self.assert_usage_error("--size", "4", *engines, mentions="--size: for POLD.R only")
        self.assert_usage_error("--game", "poldr", "--rotation", "90", *engines, mentions="--rotation: for Pods only")
        self.assert_usage_error("--game", "poldr", "--bricks", "41", *engines, mentions="--bricks 41")


@NEEDS_PODIUM
class MatchTest(unittest.TestCase):
    def check_records(self, records: list[dict], done: subprocess.CompletedProcess, games: int, variant: str):
        self.assertEqual(sorted(record["index"] for record in records), list(range(1, games + 1)))
        self.assertEqual(reported_wld(done.stdout), wld_from_records(records, "one"))
        for record in records:
            self.assertEqual((record["type"], record["game"], record["variant"]), ("game", "pods", variant))
            self.assertEqual(record["group"], (record["index"] + 1) // 2)
            self.assertIn(record["result"], ("p1win", "p2win", "draw"))
            self.assertNotIn(record["reason"], errors.ENGINE_FAULTS, record)
            self.assertEqual(set(record["time_ms"]), {"p1", "p2"})
            self.assertIsNone(record["faulty"])
            self.check_move_info(record)
        by_pair: dict[int, list[dict]] = {}
        for record in records:
            by_pair.setdefault(record["group"], []).append(record)
        for pair in by_pair.values():  # same opening, colours swapped
            self.assertEqual(len({record["opening"] for record in pair}), 1)
            self.assertEqual({tuple(record["seats"]) for record in pair}, {("one", "two"), ("two", "one")})
        self.replay(records, variant)

    def check_move_info(self, record: dict) -> None:
        """Per move, the time it took and what Podium's last info line said of it; the times add up."""
        self.assertEqual(len(record["move_info"]), len(record["moves"]), record)
        for ply, info in enumerate(record["move_info"]):
            self.assertEqual(set(info), {"time_ms", "score", "depth", "nodes"})
            self.assertRegex(info["score"], r"^(cp|mate) -?\d+$")
            self.assertGreaterEqual(info["depth"], 1)
            self.assertGreaterEqual(info["nodes"], 1)
        first, second = ("p1", "p2") if record["opening"].split()[1] == "w" else ("p2", "p1")
        for seat, moves in ((first, record["move_info"][0::2]), (second, record["move_info"][1::2])):
            self.assertLessEqual(sum(info["time_ms"] for info in moves), record["time_ms"][seat] + len(moves))

    def replay(self, records: list[dict], variant) -> None:
        """Every move legal for an independent referee; the recorded end matches its verdict."""
        referee = Referee([PODIUM], variant, Timeouts())
        referee.launch()
        try:
            for record in records:
                for ply, move in enumerate(record["moves"]):
                    referee.set_position(record["opening"], record["moves"][:ply])
                    self.assertTrue(referee.is_legal(move), f"game {record['game']} ply {ply}: {move}")
                referee.set_position(record["opening"], record["moves"])
                if record["reason"] in ("no legal move", "hand emptied"):
                    self.assertTrue(referee.game_over())
                    self.assertEqual(referee.result(), record["result"])
        finally:
            referee.close()

    def test_standard_match_records_add_up(self):
        run = ArbiterRun(self)
        done = run.match("--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two", f"cmd={PODIUM}",
                         "option.Hash=8", "--games", "4", "--depth", "2", "--seed", "3")
        self.check_records(run.read_records(), done, 4, "standard")
        self.assertRegex(done.stdout, r"Pentanomial \[LL, LD, WL\+DD, WD, WW\]: \[\d+, \d+, \d+, \d+, \d+\]")
        self.assertIn("Elo: too few games (2 game pairs; Elo and LOS need 10)", done.stdout)
        self.assertIn("LOS: too few games", done.stdout)

    def test_advanced_match_with_random_openings_concurrently(self):
        run = ArbiterRun(self)
        done = run.match("--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two", f"cmd={PODIUM}",
                         "--variant", "advanced", "--games", "4", "--depth", "1", "--concurrency", "2",
                         "--random-plies", "3", "--rotation", "random", "--seed", "11", "--max-plies", "120")
        records = run.read_records()
        self.check_records(records, done, 4, "advanced")
        self.assertNotIn("repeats game", done.stderr)  # the random openings differ
        for record in records:
            self.assertEqual(len(record["opening_moves"]), 3)
            self.assertTrue(record["opening"].endswith(" 3"), record["opening"])  # ply 3 after the random plies

    def test_clock_match_and_openings_file(self):
        run = ArbiterRun(self)
        # Openings no proof book holds, so that every move is searched: at rotations 180 and 270 (whose
        # starts are proved) after a first move that no position of their proofs holds, A@a1.
        openings = os.path.join(run.dir.name, "openings.txt")
        with open(openings, "w", encoding="utf-8") as handle:
            handle.write("# two openings\n6/6/6/6/6/A5 b BCDEFGHIJKLMNabcdefghijklmn 180 1\n"
                         "6/6/6/6/6/A5 b BCDEFGHIJKLMNabcdefghijklmn 270 1\n")
        done = run.match("--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two", f"cmd={PODIUM}",
                         "--games", "4", "--tc", "0.5+0.02", "--timemargin", "300", "--concurrency", "2",
                         "--openings", openings)
        records = run.read_records()
        self.check_records(records, done, 4, "standard")
        by_game = sorted(records, key=lambda record: record["index"])  # written in the order games ended
        self.assertEqual([record["opening"].split()[3] for record in by_game], ["180", "180", "270", "270"])

    def test_statistics_of_few_games_say_what_is_known(self):
        # below 10 game pairs Elo and LOS say only that the games are too few, and no SPRT row is
        # shown when none was asked for
        run = ArbiterRun(self)
        done = run.match("--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two", fake("illegal"),
                         "--referee", PODIUM, "--games", "1", "--depth", "1")
        self.assertIn("Match one vs two: 1 game (0 already recorded)", done.stdout)
        self.assertIn("| 1/1 game, one vs two W-L-D 1-0-0, score 100.0%, Elo too few games\n", done.stdout)
        self.assertIn("Results of one vs two (standard, depth 1, 1 game):", done.stdout)
        self.assertIn("Elo: too few games (0 game pairs; Elo and LOS need 10)", done.stdout)
        self.assertIn("LOS: too few games (0 game pairs; Elo and LOS need 10)", done.stdout)
        self.assertNotIn("SPRT", done.stdout)
        # three pairs of one binary against itself: no Elo, no LOS
        run = ArbiterRun(self)
        done = run.match("--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two", f"cmd={PODIUM}",
                         "--games", "6", "--depth", "1", "--random-plies", "2", "--seed", "4", "--max-plies", "120")
        self.assertIn("Elo: too few games (3 game pairs; Elo and LOS need 10)", done.stdout)
        self.assertNotRegex(done.stdout, r"LOS: \d|Elo: [<>+-]|SPRT")
        # ten pairs and more: Elo and LOS, never nan; progress and summary give the same figures
        run = ArbiterRun(self)
        done = run.match("--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two", fake("illegal"),
                         "--referee", PODIUM, "--games", "20", "--depth", "1")
        progress = re.findall(r"^Game \d+ .*, Elo (.*)$", done.stdout, re.M)
        self.assertEqual(len(progress), 20, done.stdout)
        self.assertEqual(progress[:19], ["too few games"] * 19)
        summary = re.search(r"^Elo: (.*) \(95%, from 10 game pairs\)$", done.stdout, re.M)
        self.assertIsNotNone(summary, done.stdout)
        self.assertEqual(progress[-1], summary[1])
        self.assertNotIn("nan", summary[1])
        self.assertRegex(done.stdout, r"(?m)^LOS: 100\.00%$")
        self.assertNotIn("SPRT", done.stdout)

    def test_an_option_the_engine_refuses_stops_the_match_before_any_game(self):
        run = ArbiterRun(self)
        done = run.match("--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two", f"cmd={PODIUM}",
                         "option.Hash=lots", "--games", "2", "--depth", "1", expect_rc=2)
        self.assertEqual(done.stderr, "arbiter: error: engine two refuses `setoption name Hash value lots`: "
                                      "Hash: 'lots' is not a whole number from 1 to 1024\n")
        self.assertNotIn("Game 1", done.stdout)
        self.assertFalse(os.path.exists(run.records))

    def test_repeated_games_are_warned_of_once(self):
        # at depth 1 from the one start position, pairs 0 and 1 are the same two games
        run = ArbiterRun(self)
        done = run.match("--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two", f"cmd={PODIUM}",
                         "--games", "6", "--depth", "1", "--max-plies", "60")
        records = {record["index"]: record for record in run.read_records()}
        self.assertEqual(records[1]["moves"], records[3]["moves"])
        warnings = re.findall(r"^arbiter: warning: game (\d) repeats game (\d) move for move .*$", done.stderr, re.M)
        self.assertEqual(len(warnings), 1, done.stderr)
        self.assertIn(warnings[0], [("3", "1"), ("4", "2"), ("5", "3"), ("6", "4")])  # in the order games end
        self.assertIn("vary the openings with --random-plies N or an --openings file", done.stderr)

    def test_sprt_stops_early(self):
        # Against an engine that loses every game, every pair is WW; with elo1 = 200 the LLR
        # passes ln(19) = 2.94 at the fifth pair (see test_sprt_verdicts), long before 100 games.
        run = ArbiterRun(self)
        done = run.match("--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two", fake("illegal"),
                         "--referee", PODIUM, "--games", "100", "--depth", "1",
                         "--sprt", "elo0=0", "elo1=200", "alpha=0.05", "beta=0.05")
        self.assertIn("H1 accepted", done.stdout)
        self.assertEqual(len(run.read_records()), 10)
        self.assertRegex(done.stdout, r"LLR 3\.\d\d \(-2\.94, 2\.94\)")


@NEEDS_PODIUM
class FaultTest(unittest.TestCase):
    """Each broken engine loses every game with the right reason, and the match goes on."""

    def play_against(self, mode: str, *limits: str, games: int = 2) -> list[dict]:
        run = ArbiterRun(self)
        done = run.match("--engine", "name=one", f"cmd={PODIUM}", "--engine", f"name={mode}", fake(mode),
                         "--referee", PODIUM, "--games", str(games), *limits)
        records = run.read_records()
        self.assertEqual(len(records), games)
        self.assertEqual(reported_wld(done.stdout), (games, 0, 0))
        return records

    def assert_all_lost(self, records: list[dict], mode: str, reason: str) -> None:
        for record in records:
            loser = record["seats"][1] if record["result"] == "p1win" else record["seats"][0]
            self.assertEqual(record["faulty"], loser)
            self.assertEqual((loser, record["reason"]), (mode, reason), record)
            self.assertTrue(record["detail"].startswith(f"{mode}: "), record)
            self.assertNotIn(f"{mode}: {mode}", record["detail"], record)  # named once

    def test_illegal_move(self):
        self.assert_all_lost(self.play_against("illegal", "--depth", "1"), "illegal", "illegal move")

    def test_crash_is_restarted_for_each_game(self):
        records = self.play_against("crash", "--depth", "1", games=4)
        self.assert_all_lost(records, "crash", "crash")

    def test_no_bestmove_under_movetime_is_a_time_forfeit(self):
        records = self.play_against("hang", "--movetime", "50", "--timemargin", "200")
        self.assert_all_lost(records, "hang", "time forfeit")

    def test_no_bestmove_under_a_clock_is_a_time_forfeit(self):
        records = self.play_against("hang", "--tc", "0.2+0", "--timemargin", "150")
        self.assert_all_lost(records, "hang", "time forfeit")
        white_fake = next(record for record in records if record["seats"][0] == "hang")
        self.assertGreaterEqual(white_fake["time_ms"]["p1"], 0)

    def test_no_bestmove_under_depth_is_a_stall(self):
        records = self.play_against("hang", "--depth", "1", "--stall-timeout", "0.3")
        self.assert_all_lost(records, "hang", "stall")

    def test_garbage_is_a_protocol_error(self):
        self.assert_all_lost(self.play_against("garbage", "--depth", "1"), "garbage", "protocol error")
        self.assert_all_lost(self.play_against("badmove", "--depth", "1"), "badmove", "protocol error")

    def test_overlong_line_is_a_protocol_error(self):
        records = self.play_against("longline", "--depth", "1", "--stall-timeout", "2")
        self.assert_all_lost(records, "longline", "protocol error")
        for record in records:
            self.assertEqual(record["detail"], "longline: printed a line longer than the protocol's "
                                               "limit of 1048576 bytes", record)


class LongLineTest(unittest.TestCase):
    def test_an_overlong_line_is_refused_without_keeping_it(self):
        # 100 MiB without a newline, then a line: the reader says the long line was too long, keeps
        # reading after it, and never holds it (the reader's process stays far below 100 MiB).
        engine = ("import sys\nfor _ in range(100): sys.stdout.buffer.write(b'x' * (1 << 20))\n"
                  "sys.stdout.buffer.write(b'\\nafter\\n'); sys.stdout.flush(); sys.stdin.read()")
        reader = f"""
import resource, sys, time
sys.path.insert(0, {SCRIPTS!r})
from podium.errors import ProtocolError
from podium.process import EngineProcess
process = EngineProcess([sys.executable, "-c", {engine!r}], "long")
try:
    process.read(time.monotonic() + 30)
except ProtocolError as error:
    print(error.detail)
print(process.read(time.monotonic() + 30)[0])
process.kill()
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""
        done = subprocess.run([sys.executable, "-c", reader], capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        refusal, after, megabytes = done.stdout.splitlines()
        self.assertEqual(refusal, "long: printed a line longer than the protocol's limit of 1048576 bytes")
        self.assertEqual(after, "after")
        self.assertLess(int(megabytes), 60, "the reader kept the long line")


@NEEDS_PODIUM
class ResumeTest(unittest.TestCase):
    def test_resume_plays_only_the_missing_games_with_the_same_openings(self):
        run = ArbiterRun(self)
        engines = ["--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two", f"cmd={PODIUM}"]
        options = ["--games", "4", "--depth", "1", "--random-plies", "2", "--variant", "advanced",
                   "--max-plies", "120"]
        run.match(*engines, *options, "--seed", "5")
        full = run.read_records()
        with open(run.records, encoding="utf-8") as handle:
            kept = handle.readlines()[1:3]  # two games, no settings: a file of an older arbiter
        with open(run.records, "w", encoding="utf-8") as handle:
            handle.writelines(kept)
            handle.write('{"game": 2, "pa')  # a line cut short by the interruption
        done = run.match(*engines, *options, "--resume", run.records, records=False)  # seed from the file
        self.assertIn("(2 already recorded)", done.stdout)
        self.assertEqual(len(re.findall(r"^Game \d", done.stdout, re.M)), 2)
        resumed = load_records(run.records)  # the cut-short line is skipped
        self.assertEqual(sorted(record["index"] for record in resumed), [1, 2, 3, 4])
        self.assertEqual(reported_wld(done.stdout), wld_from_records(resumed, "one"))
        openings = {record["index"]: record["opening"] for record in full}
        for record in resumed:
            self.assertEqual(record["opening"], openings[record["index"]])

    def test_resume_alone_goes_on_with_the_settings_recorded(self):
        run = ArbiterRun(self)
        run.match("--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two", f"cmd={PODIUM}", "option.Hash=8",
                  "--games", "4", "--depth", "1", "--random-plies", "2", "--variant", "advanced", "--max-plies", "120",
                  "--seed", "5", "--concurrency", "2", "--timemargin", "150")
        header, full = run.read_header(), run.read_records()
        self.assertEqual([(engine["name"], engine["cmd"], engine["options"]) for engine in header["engines"]],
                         [("one", [PODIUM], {}), ("two", [PODIUM], {"Hash": "8"})])
        self.assertEqual((header["game"], header["variant"], header["games"], header["random_plies"], header["seed"],
                          header["max_plies"], header["timemargin_ms"], header["concurrency"], header["shard"]),
                         ("pods", "advanced", 4, 2, 5, 120, 150, 2, None))
        self.assertEqual(header["time_control"], {"kind": "depth", "base_ms": 0, "inc_ms": 0, "value": 1})
        with open(run.records, encoding="utf-8") as handle:
            kept = handle.readlines()[:3]  # the settings and two games
        with open(run.records, "w", encoding="utf-8") as handle:
            handle.writelines(kept)
        done = run.match("--resume", run.records, records=False)
        self.assertIn("Match one vs two: 4 games (2 already recorded), advanced, depth 1, seed 5", done.stdout)
        resumed = run.read_records()
        self.assertEqual(sorted(record["index"] for record in resumed), [1, 2, 3, 4])
        openings = {record["index"]: record["opening"] for record in full}
        for record in resumed:
            self.assertEqual(record["opening"], openings[record["index"]])
        self.assertEqual(reported_wld(done.stdout), wld_from_records(resumed, "one"))
        contradiction = run.run("--resume", run.records, "--games", "6")
        self.assertEqual(contradiction.returncode, 2, contradiction.stderr)
        self.assertEqual(contradiction.stderr, f"arbiter: error: --resume {run.records}: --games gives 6, but the "
                                               f"match recorded there has 4; leave it out to go on with the recorded "
                                               f"settings\n")
        how_run = run.match("--resume", run.records, "--concurrency", "1", "--stall-timeout", "30", records=False)
        self.assertIn("(4 already recorded)", how_run.stdout)  # how it is run may change, not what it is
        taken = run.run("--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two", f"cmd={PODIUM}",
                        "--depth", "1", "--records", run.records)
        self.assertEqual(taken.returncode, 2, taken.stderr)
        self.assertIn(f"--records {run.records} holds a match already: continue it with --resume", taken.stderr)
        page = run.run("report", run.records, "-o", os.path.join(run.dir.name, "match.html"), "--engine", PODIUM)
        self.assertEqual(page.returncode, 0, page.stderr)
        self.assertIn("4 games", page.stdout)


POLDR = ["--game", "poldr", "--size", "4", "--bricks", "8"]  # small: a game lasts about 20 plies
NATURAL_ENDINGS = ("last brick", "most bricks")
# For the never-ready fake. The timeout binds Podium too: 0.3 s once failed one starting under CI load.
READY_TIMEOUT_S = 2


def poldr_rules(players: int) -> GameRules:
    return GameRules("poldr", players=players, size=4, bricks=8)


class PoldrRecordChecks(unittest.TestCase):
    """Checks of POLD.R records and reports shared by the two- and three-player tests."""

    names = ["one", "two"]  # the engines, in the order of their --engine

    def check_records(self, records: list[dict], done: subprocess.CompletedProcess, games: int,
                      reasons: tuple[str, ...] = NATURAL_ENDINGS, names: list[str] | None = None) -> None:
        names = names or self.names
        rules = poldr_rules(len(names))
        seats, seatings = rules.seat_keys, rules.seatings
        self.assertEqual(sorted(record["index"] for record in records), list(range(1, games + 1)))
        for record in records:
            self.assertEqual((record["game"], record["players"], record["size"], record["bricks"]),
                             ("poldr", len(names), 4, 8))
            self.assertEqual(record["group"], (record["index"] - 1) // len(seatings) + 1)
            self.assertEqual(record["seats"],
                             [names[engine] for engine in seatings[(record["index"] - 1) % len(seatings)]])
            self.assertIn(record["result"], [f"{seat}win" for seat in seats])
            self.assertEqual(record["winner"], record["seats"][seats.index(record["result"][:-3])])
            self.assertIn(record["reason"], reasons, record)
            self.assertEqual(set(record["time_ms"]), set(seats))
        for name in names:
            won = sum(record["winner"] == name for record in records)
            reserves = [notation.poldr_reserves(record["final"])[record["seats"].index(name)] for record in records]
            self.assertRegex(done.stdout, rf"(?m)^{name}: {games} games, won {won}, win share "
                                          rf"{100 * won / games:.2f}% \(95% interval [\d.]+% to [\d.]+%\), "
                                          rf"mean final reserve {sum(reserves) / games:.2f}$")
        for seat, colour in zip(seats, notation.POLDR_COLOURS):
            won = sum(record["result"] == f"{seat}win" for record in records)
            self.assertRegex(done.stdout, rf"(?m)^Seat {seat} \({colour}\): won {won}, win share "
                                          rf"{100 * won / games:.2f}% \(95% interval [\d.]+% to [\d.]+%\)$")
        for group in range(games // len(seatings)):  # one opening per group, played in every seating
            in_group = [record for record in records if record["group"] == group + 1]
            self.assertEqual(len({record["opening"] for record in in_group}), 1)
            self.assertEqual(sorted(tuple(record["seats"]) for record in in_group),
                             sorted(tuple(names[engine] for engine in seating) for seating in seatings))
        self.replay(records)

    def replay(self, records: list[dict]) -> None:
        """Every move legal for an independent POLD.R referee; the game ends where the record says, as it
        says; a fault leaves the faulty engine to move, and the winner is the one the referee names when
        the side to move plays an illegal move there (Pa1Ma1 never is legal)."""
        referee = Referee([PODIUM], poldr_rules(len(records[0]["seats"])), Timeouts())
        referee.launch()
        try:
            for record in records:
                if record["opening_moves"]:
                    referee.set_position(record["opening_base"], record["opening_moves"])
                    self.assertEqual(referee.fen(), record["opening"])
                for ply, move in enumerate(record["moves"]):
                    referee.set_position(record["opening"], record["moves"][:ply])
                    self.assertFalse(referee.game_over(), f"game {record['index']} over before ply {ply}")
                    self.assertTrue(referee.is_legal(move), f"game {record['index']} ply {ply}: {move}")
                referee.set_position(record["opening"], record["moves"])
                self.assertEqual(referee.fen(), record["final"])
                if record["reason"] in NATURAL_ENDINGS:
                    self.assertTrue(referee.game_over())
                    self.assertEqual(referee.result(), record["result"])
                    self.assertIsNone(record["faulty"])
                    continue
                self.assertFalse(referee.game_over(), record)
                to_move = record["seats"][notation.POLDR_SIDES.index(record["final"].split()[1])]
                self.assertEqual(record["faulty"], to_move, record)
                self.assertNotEqual(record["winner"], record["faulty"], record)
                referee.set_position(record["opening"], [*record["moves"], "Pa1Ma1"])
                self.assertEqual(referee.judge("result", errors_allowed=True), [record["result"]], record)
        finally:
            referee.close()

    def check_resume(self, options: list[str], games: int, kept: int) -> ArbiterRun:
        """Plays a match of `games`, cuts its records after `kept` games and a line cut short, and
        checks that --resume plays only the missing games, each from the opening it had."""
        run = ArbiterRun(self)
        run.match(*options, "--seed", "5")
        full = run.read_records()
        with open(run.records, encoding="utf-8") as handle:
            lines = handle.readlines()[:1 + kept]  # the settings, then games
        with open(run.records, "w", encoding="utf-8") as handle:
            handle.writelines(lines)
            handle.write('{"game": "poldr", "ind')  # a line cut short by the interruption
        done = run.match(*options, "--resume", run.records, records=False)  # seed from the file
        self.assertIn(f"({kept} already recorded)", done.stdout)
        self.assertEqual(len(re.findall(r"^Game \d", done.stdout, re.M)), games - kept)
        resumed = load_records(run.records)
        self.check_records(resumed, done, games)
        openings = {record["index"]: record["opening"] for record in full}
        for record in resumed:
            self.assertEqual(record["opening"], openings[record["index"]])
        return run


@NEEDS_PODIUM
class PoldrTest(PoldrRecordChecks):
    """POLD.R matches: records, seats, results, faults and resume."""

    engines = ["--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two", f"cmd={PODIUM}", "option.Hash=8"]

    def test_poldr_match_records_add_up(self):
        run = ArbiterRun(self)
        done = run.match(*POLDR, *self.engines, "--games", "4", "--depth", "2", "--random-plies", "2",
                         "--concurrency", "2", "--seed", "7", "--sprt", "elo0=0", "elo1=50")
        records = run.read_records()
        self.check_records(records, done, 4)
        for record in records:
            self.assertEqual(len(record["opening_moves"]), 2)
            self.assertEqual(record["opening_base"], "4/4/4/4 b 8,8 1 0 -,-")
        self.assertIn("POLD.R 2 players, size 4, bricks 8", done.stdout)
        self.assertRegex(done.stdout, r"Pentanomial \[LL, LD, WL\+DD, WD, WW\]: \[\d+, 0, \d+, 0, \d+\]")
        self.assertIn("Elo: too few games (2 game pairs; Elo and LOS need 10)", done.stdout)
        self.assertRegex(done.stdout, r"SPRT \[0, 50\] .* -> continue")

    def test_poldr_clock_match_from_an_openings_file(self):
        run = ArbiterRun(self)
        openings = os.path.join(run.dir.name, "openings.txt")
        with open(openings, "w", encoding="utf-8") as handle:  # Blue opened Pa1Mc1, Yellow played Ma3
            handle.write("# POLD.R\n4/Y3/y3/PbB1 b 7,7 1 2 1,2\n")
        done = run.match(*POLDR, *self.engines, "--games", "2", "--tc", "0.3+0.02", "--timemargin", "300",
                         "--openings", openings)
        records = run.read_records()
        self.check_records(records, done, 2)
        self.assertEqual({record["opening"] for record in records}, {"4/Y3/y3/PbB1 b 7,7 1 2 1,2"})

    def test_poldr_faults_lose_with_their_reason(self):
        for mode, limits, reason in (("illegal", ["--depth", "1"], "illegal move"),
                                     ("hang", ["--tc", "0.2+0", "--timemargin", "150"], "time forfeit")):
            run = ArbiterRun(self)
            done = run.match(*POLDR, "--engine", "name=one", f"cmd={PODIUM}", "--engine", f"name={mode}", fake(mode),
                             "--referee", PODIUM, "--games", "2", *limits)
            records = run.read_records()
            self.assertEqual(len(records), 2)
            for record in records:
                self.assertEqual((record["winner"], record["reason"], record["faulty"]), ("one", reason, mode), record)
                self.assertTrue(record["detail"].startswith(f"{mode}: "), record)
            self.assertIn("one: 2 games, won 2, win share 100.00%", done.stdout)
            self.assertIn(f"Faults: {mode} lost 2 by {reason}", done.stdout)
            self.replay(records)

    def test_poldr_resume_plays_only_the_missing_games(self):
        options = [*POLDR, *self.engines, "--games", "4", "--depth", "1", "--random-plies", "2"]
        run = self.check_resume(options, games=4, kept=2)
        other_size = run.run(*options, "--size", "5", "--resume", run.records)  # --size given twice: the last wins
        self.assertEqual(other_size.returncode, 2, other_size.stderr)
        self.assertIn("size", other_size.stderr)
        as_pods = run.run(*self.engines, "--game", "pods", "--games", "4", "--depth", "1", "--resume", run.records)
        self.assertEqual(as_pods.returncode, 2, as_pods.stderr)
        self.assertIn("--game gives pods, but the match recorded there has poldr", as_pods.stderr)


@NEEDS_PODIUM
class ThreePlayerTest(PoldrRecordChecks):
    """Three-player POLD.R: six seatings per opening, per-seat clocks, faults ranked by the referee, resume."""

    names = ["one", "two", "three"]
    engines = ["--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two", f"cmd={PODIUM}", "option.Hash=8",
               "--engine", "name=three", f"cmd={PODIUM}", "option.MultiplayerSearch=maxn"]

    def test_three_engine_clock_match_records_add_up(self):
        run = ArbiterRun(self)
        done = run.match(*POLDR, "--players", "3", *self.engines, "--games", "5", "--tc", "0.5+0.02",
                         "--timemargin", "300", "--random-plies", "2", "--concurrency", "2", "--seed", "3")
        self.assertIn("--games 5 rounded up to 6", done.stderr)
        records = run.read_records()
        self.check_records(records, done, 6)
        self.assertIn("POLD.R 3 players, size 4, bricks 8", done.stdout)
        for two_player_statistic in ("Elo", "LOS", "Pentanomial", "LLR"):
            self.assertNotIn(two_player_statistic, done.stdout)

    def test_faulty_third_engine_never_wins(self):
        # illegal: a move that is never legal; hang: no bestmove in time; unready: no readyok after
        # uginewgame, a fault before the game that is charged when the engine's turn comes
        for mode, limits, reason in (("illegal", ["--depth", "1"], "illegal move"),
                                     ("hang", ["--movetime", "50", "--timemargin", "200"], "time forfeit"),
                                     ("unready", ["--depth", "1", "--ready-timeout", str(READY_TIMEOUT_S)], "stall")):
            run = ArbiterRun(self)
            done = run.match(*POLDR, "--players", "3", *self.engines[:6], "--engine", f"name={mode}", fake(mode),
                             "--referee", PODIUM, "--games", "6", "--random-plies", "2", "--concurrency", "2",
                             *limits)
            records = run.read_records()
            for record in records:
                self.assertEqual((record["reason"], record["faulty"]), (reason, mode), record)
                self.assertTrue(record["detail"].startswith(f"{mode}: "), record)
            # the replay checks that the winner is the referee's best-standing seat at the fault
            self.check_records(records, done, 6, reasons=(reason,), names=["one", "two", mode])
            self.assertIn(f"{mode}: 6 games, won 0, win share 0.00%", done.stdout)
            self.assertIn(f"Faults: {mode} lost 6 by {reason}", done.stdout)
        deferred = [record for record in records if record["moves"]]
        self.assertTrue(deferred, "the unready engine was never out of turn at the start: nothing tested the wait")

    def test_two_engines_failing_before_the_game_are_both_recorded(self):
        # After two random plies Red (p3) is to move. Getting ready goes seat by seat: an unready
        # engine before Red is out but not yet charged, and the second unready engine leaves one
        # seat standing, which wins.
        run = ArbiterRun(self)
        run.match(*POLDR, "--players", "3", "--engine", "name=one", f"cmd={PODIUM}",
                  "--engine", "name=late1", fake("unready"), "--engine", "name=late2", fake("unready"),
                  "--referee", PODIUM, "--games", "6", "--random-plies", "2", "--concurrency", "2",
                  "--depth", "1", "--ready-timeout", str(READY_TIMEOUT_S))
        records = run.read_records()
        self.assertEqual(len(records), 6)
        for record in records:
            self.assertEqual((record["winner"], record["reason"], record["moves"]), ("one", "stall", []), record)
            late = sorted(name for name in ("late1", "late2")
                          if f"{name}: no readyok within {READY_TIMEOUT_S} s" in record["detail"])
            self.assertEqual(late, ["late1", "late2"], record)
            for name in late:
                self.assertNotIn(f"{name}: {name}", record["detail"], record)  # named once
            self.assertTrue(record["detail"].startswith(f"{record['faulty']}: "), record)
            self.assertIn("; also out: ", record["detail"], record)

    def test_resume_plays_only_the_missing_games(self):
        options = [*POLDR, "--players", "3", *self.engines, "--games", "6", "--depth", "1", "--random-plies", "2"]
        run = self.check_resume(options, games=6, kept=3)
        as_two_players = run.run(*POLDR, "--players", "2", *self.engines[:6], "--games", "6", "--depth", "1",
                                 "--resume", run.records)
        self.assertEqual(as_two_players.returncode, 2, as_two_players.stderr)
        self.assertRegex(as_two_players.stderr, r"--engine gives one \(.*\), two \(.*\), but the match recorded "
                                                r"there has one \(.*\), two \(.*, Hash=8\), three \(.*\); "
                                                r"--players gives 2, but the match recorded there has 3; "
                                                r"leave them out")


@NEEDS_PODIUM
class ShardTest(unittest.TestCase):
    """A match played in shards and merged is the match played at once: the same games, the same report."""

    # the games' fields that do not depend on when or where they were played
    SAME = ("game", "index", "group", "seats", "opening", "opening_moves", "moves",
            "result", "reason", "final")

    def play_in_shards(self, arguments: list[str], shards: int) -> tuple[ArbiterRun, list[str], str]:
        """The match at once, then in shards: the run, the shards' records files and the one run's report."""
        run = ArbiterRun(self)
        whole = run.match(*arguments)
        files = []
        for number in range(1, shards + 1):
            files.append(os.path.join(run.dir.name, f"shard{number}.jsonl"))
            done = run.run(*arguments, "--shard", f"{number}/{shards}", "--records", files[-1])
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertIn(f"shard {number}/{shards}", done.stdout)
        return run, files, whole.stdout[whole.stdout.index("Results of"):]

    def check_merged(self, run: ArbiterRun, files: list[str], report: str) -> None:
        merged = os.path.join(run.dir.name, "merged.jsonl")
        done = run.run("merge", *files, "-o", merged)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout.replace(merged, run.records), report)

        def same(record: dict) -> dict:
            return {key: record[key] for key in self.SAME if key in record}
        one_run = sorted(run.read_records(), key=lambda record: record["index"])
        _, joined = read_match(merged)
        self.assertEqual([same(record) for record in joined], [same(record) for record in one_run])
        with open(merged, encoding="utf-8") as handle:
            header = json.loads(handle.readline())
        self.assertEqual({**header, "started": None}, {**run.read_header(), "started": None})

    def test_two_player_shards_merge_into_the_match(self):
        arguments = ["--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two", f"cmd={PODIUM}", "option.Hash=8",
                     "--games", "8", "--depth", "1", "--random-plies", "2", "--seed", "9", "--max-plies", "60"]
        run, files, report = self.play_in_shards(arguments, 3)  # pairs 0 and 3, pair 1, pair 2
        self.assertEqual([sorted(record["index"] for record in load_records(path)) for path in files],
                         [[1, 2, 7, 8], [3, 4], [5, 6]])
        self.assertRegex(report, r"Pentanomial \[LL, LD, WL\+DD, WD, WW\]: \[\d+, \d+, \d+, \d+, \d+\]")
        self.check_merged(run, files, report)
        partial = run.run("merge", files[0], files[2])
        self.assertEqual(partial.returncode, 1, partial.stderr)
        self.assertIn("Results of one vs two (standard, depth 1, 6 games):", partial.stdout)
        self.assertEqual(partial.stderr, "arbiter: merge: not the whole match yet: missing shard 2/3\n")
        twice = run.run("merge", files[0], files[0])
        self.assertEqual((twice.returncode, twice.stderr),
                         (2, f"arbiter: error: {files[0]} and {files[0]} are both shard 1/3\n"))
        other = os.path.join(run.dir.name, "other.jsonl")
        with open(files[1], encoding="utf-8") as shard, open(other, "w", encoding="utf-8") as handle:
            lines = shard.readlines()
            handle.writelines([json.dumps({**json.loads(lines[0]), "seed": 10}) + "\n", *lines[1:]])
        foreign = run.run("merge", files[0], other)
        self.assertEqual((foreign.returncode, foreign.stderr),
                         (2, f"arbiter: error: {other} is not a shard of the match of {files[0]}: --seed is 10 there, "
                             f"9 here\n"))
        whole_and_shard = run.run("merge", run.records, files[0])
        self.assertIn("is shard 1/3, but", whole_and_shard.stderr)
        too_many = run.run(*arguments, "--shard", "5/5")
        self.assertEqual((too_many.returncode, too_many.stderr),
                         (2, "arbiter: error: --shard 5/5: the match has 4 openings (groups of games that share "
                             "one), so at most that many shards\n"))

    def test_three_player_shards_merge_into_the_match(self):
        arguments = [*POLDR, "--players", "3", "--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two",
                     f"cmd={PODIUM}", "--engine", "name=three", f"cmd={PODIUM}", "option.MultiplayerSearch=maxn",
                     "--games", "12", "--depth", "1", "--random-plies", "2", "--seed", "4"]
        run, files, report = self.play_in_shards(arguments, 2)
        self.assertEqual([sorted(record["index"] for record in load_records(path)) for path in files],
                         [list(range(1, 7)), list(range(7, 13))])  # a group's six seatings stay together
        self.assertIn("one: 12 games, won", report)
        self.check_merged(run, files, report)


@NEEDS_PODIUM
class RandomMoverTest(PoldrRecordChecks):
    """scripts/random_mover.py: legal moves in every game, the same moves from the same seed."""

    def test_three_player_poldr_against_podium(self):
        run = ArbiterRun(self)
        done = run.match(*POLDR, "--players", "3", "--engine", "name=one", f"cmd={PODIUM}",
                         "--engine", "name=two", random_mover(1), "--engine", "name=three", random_mover(2),
                         "--games", "6", "--depth", "1", "--concurrency", "2")
        # natural endings only, every move legal on replay
        self.check_records(run.read_records(), done, 6, names=["one", "two", "three"])

    def test_two_player_poldr_and_pods(self):
        run = ArbiterRun(self)
        done = run.match(*POLDR, "--engine", "name=one", random_mover(1), "--engine", "name=two", random_mover(2),
                         "--referee", PODIUM, "--games", "2", "--depth", "1")
        self.check_records(run.read_records(), done, 2)
        run = ArbiterRun(self)
        run.match("--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two", random_mover(3),
                  "--variant", "advanced", "--games", "2", "--depth", "1", "--max-plies", "60")
        for record in run.read_records():  # the referee found every move legal: no game ended by a fault
            self.assertIn(record["reason"], ("no legal move", "hand emptied", "max plies", "threefold repetition"))
            self.assertTrue(record["moves"])

    def play(self, seed: int) -> list[str]:
        """The random mover's answers to a fixed session: a POLD.R game of three, a lost game, Pods."""
        session = ["uci", "setoption name Game value poldr", "setoption name Players value 3", "isready",
                   "position startpos", "go movetime 10", "position startpos moves Pc3Me5", "go depth 1",
                   "position startpos moves Pc3", "go", "newgame standard", "position startpos", "go", "quit"]
        done = subprocess.run([sys.executable, RANDOM_MOVER, "--seed", str(seed), "--podium", PODIUM],
                              input="\n".join(session) + "\n", capture_output=True, text=True, timeout=30)
        self.assertEqual(done.returncode, 0, done.stderr)
        lines = done.stdout.splitlines()
        self.assertIn("option name Players type spin default 2 min 2 max 3", lines)
        self.assertIn("uciok", lines)
        return [line for line in lines if line.startswith(("bestmove", "readyok"))]

    def test_protocol_and_seed(self):
        answers = self.play(11)
        self.assertEqual(answers[0], "readyok")
        self.assertRegex(answers[1], r"^bestmove P[a-e][1-5]M[a-e][1-5]$")  # Blue's first turn
        self.assertRegex(answers[2], r"^bestmove M[a-e][1-5]$")  # Yellow's first turn: its marker
        self.assertEqual(answers[3], "bestmove (none)")  # Blue's illegal Pc3 lost the game
        self.assertRegex(answers[4], r"^bestmove [A-N]@[a-f][1-6]$")  # Pods: a placement
        self.assertEqual(self.play(11), answers)
        self.assertNotEqual([self.play(seed) for seed in (12, 13, 14)], [answers] * 3)


@NEEDS_PODIUM
class ComplianceTest(unittest.TestCase):
    def test_podium_passes(self):
        # a generous margin: this checks the protocol, not how busy the test machine is
        done = ArbiterRun(self).run("compliance", "--engine", f"cmd={PODIUM}", "--timemargin", "400")
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertNotIn("FAIL", done.stdout)
        self.assertNotIn("SKIP", done.stdout)
        self.assertRegex(done.stdout, r"compliance: \d+ passed, 0 failed\n")
        self.assertEqual(len(re.findall(r"^PASS POLD\.R: ", done.stdout, re.M)), 14, done.stdout)
        # UCI's analysis conventions (issue 9), in both games where they apply
        self.assertEqual(set(re.findall(r"^PASS (.*) \(Pods\)$", done.stdout, re.M)),
                         set(re.findall(r"^PASS POLD\.R: (.*) \(POLD\.R\)$", done.stdout, re.M)))
        self.assertEqual(len(re.findall(r"^PASS .* \(Pods\)$", done.stdout, re.M)), 6, done.stdout)

    def test_broken_engine_fails(self):
        done = ArbiterRun(self).run("compliance", "--engine", fake("crash"), "--timeout", "0.3")
        self.assertNotEqual(done.returncode, 0, done.stdout)
        self.assertIn("PASS handshake", done.stdout)
        self.assertRegex(done.stdout, r"FAIL go depth 2: .*exit")
        self.assertIn("SKIP POLD.R: each MultiplayerSearch value plays a legal move: no MultiplayerSearch option",
                      done.stdout)
        # no Clear Hash, MultiPV or Ponder option: not held to their checks (two games each for the last two)
        self.assertIn("SKIP setoption name Clear Hash: no Clear Hash option of type button", done.stdout)
        self.assertRegex(done.stdout, r"compliance: \d+ passed, \d+ failed, 8 skipped")

    def test_an_engine_that_breaks_each_uci_convention_fails_each_check(self):
        # Podium behind a filter that refuses or drops what issue 9 asks for (fake_engine.py sloppy)
        done = ArbiterRun(self).run("compliance", "--engine", fake("sloppy"), "--timeout", "1", "--timemargin", "400",
                                    env={**os.environ, "PODIUM_BIN": PODIUM})
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        failed = [line for line in done.stdout.splitlines() if line.startswith("FAIL ")]
        per_game = ("go movetime abc, go mate -1 -> info string error and exactly one bestmove", "MultiPV 3: ",
                    "go searchmoves: ", "go mate n: ", "Ponder option: ", "go ponder: ")
        checks = ("unknown words in known commands", "an unknown command", "debug on, debug off",
                  "setoption name Clear Hash", "info currmove currmovenumber", *per_game,
                  *(f"POLD.R: {check}" for check in per_game))
        for check in checks:
            self.assertEqual(len([line for line in failed if line.startswith(f"FAIL {check}")]), 1,
                             f"{check}\n{done.stdout}")
        self.assertRegex(done.stdout, r"compliance: \d+ passed, 17 failed\n")
        self.assertIn("PASS a go during a search: the first search's bestmove, then the second's", done.stdout)

    def test_an_engine_without_a_handshake_fails_once_and_stops(self):
        # a silent engine, one that echoes (cat) and one that exits at once (true, before or after
        # the arbiter has written to it): the handshake fails in one line, with no traceback, and no
        # other check waits out its timeout
        gone = r"true#1: (?:gone \(writing 'ugi'\)|exited \(exit code 0\) while waiting for ugiok)"
        for engine, why in ((fake("mute"), r"no answer within 0\.1 s"), ("cmd=cat", r"no answer within 0\.1 s"),
                            ("cmd=true", gone)):
            with self.subTest(engine=engine):
                done = ArbiterRun(self).run("compliance", "--engine", engine, "--timeout", "0.1")
                self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
                self.assertEqual(done.stderr, "")
                self.assertRegex(done.stdout, r"\AFAIL handshake: ugi -> id name, id author, options, ugiok: "
                                 + why + r"\ncompliance: the handshake failed, so the other \d+ checks "
                                 r"were not run\n\Z")


@NEEDS_PODIUM
class InterruptTest(unittest.TestCase):
    def test_sigint_kills_every_engine_and_exits_non_zero(self):
        tag = f"arbiter-test-{uuid.uuid4()}"
        run = ArbiterRun(self)
        process = subprocess.Popen(
            [sys.executable, ARBITER, "--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=hang", fake("hang"),
             "--referee", PODIUM, "--games", "10", "--depth", "1", "--stall-timeout", "60", "--concurrency", "2",
             "--records", run.records],
            cwd=run.dir.name, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "ARBITER_TEST_TAG": tag})
        self.addCleanup(process.kill)
        time.sleep(0.5)
        self.assertTrue(wait_for(lambda: len(processes_tagged(tag)) >= 7, 10), "engines did not start")
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=15)
        self.assertEqual(process.returncode, 130, stderr)
        self.assertIn("interrupted", stderr)
        self.assertTrue(wait_for(lambda: not processes_tagged(tag), 5), f"left behind: {processes_tagged(tag)}")

    def test_interrupt_with_a_log_prints_no_traceback(self):
        # Workers were still writing to the log (an engine's `quit`) after it was closed, and printed
        # a ValueError in most runs; the shutdown now ends the workers first. Two runs, two signals.
        for signum in (signal.SIGINT, signal.SIGTERM):
            run = ArbiterRun(self)
            log = os.path.join(run.dir.name, "engines.log")
            process = subprocess.Popen(
                [sys.executable, ARBITER, "--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two",
                 f"cmd={PODIUM}", "--games", "100", "--depth", "1", "--concurrency", "2", "--log", log,
                 "--records", run.records], cwd=run.dir.name, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            self.addCleanup(process.kill)
            self.assertTrue(wait_for(lambda: len(load_records(run.records)) >= 1 if os.path.exists(run.records)
                                     else False, 20), "no game was played")
            process.send_signal(signum)
            _, stderr = process.communicate(timeout=20)
            self.assertEqual(process.returncode, 128 + signum, stderr)
            self.assertNotIn("Error", stderr)
            interrupted = f"arbiter: interrupted by {signal.Signals(signum).name}; engines stopped\n"
            self.assertTrue(stderr.endswith(interrupted), stderr)
            with open(log, encoding="utf-8") as handle:
                self.assertIn("uginewgame", handle.read())


def wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def processes_tagged(tag: str) -> list[int]:
    """Processes whose environment carries tag: the arbiter and everything it started."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/environ", "rb") as handle:
                    if tag.encode() in handle.read():
                        found.append(int(entry))
            except OSError:
                pass
    return found


if __name__ == "__main__":
    unittest.main(verbosity=2)
