#!/usr/bin/env python3
"""Tests of `arbiter.py openings`: books of balanced openings, scored by the real engine
(PODIUM_BIN), checked against the walks a match makes and against `podium analyse` run apart, and
played in matches with --openings.

    PODIUM_BIN=target/release/podium python3 tests/arbiter/test_openings.py
"""

import json
import os
import re
import shlex
import subprocess
import sys
import unittest

from support import ARBITER, NEEDS_PODIUM, PODIUM, fake_command
from test_arbiter import ArbiterRun

from podium.engines import Referee
from podium.notation import POLDR_POSITION_RE, POSITION_RE, poldr_shape
from podium.openings import OpeningBook
from podium.protocol import Timeouts
from podium.rules import GameRules

SUMMARY_RE = re.compile(r"arbiter: openings: (?P<kept>\d+) kept of (?P<tried>\d+) candidates in [\d.]+ s "
                        r"\((?P<duplicates>\d+) duplicates, (?P<decided>\d+) mates or proofs, (?P<beyond>\d+) beyond "
                        r"(?P<limit>\d+) cp\)")


def read_book(path: str) -> tuple[list[str], list[str]]:
    """The comment lines a book starts with, and its positions."""
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    comments = [line for line in lines if line.startswith("#")]
    positions = [line for line in lines if not line.startswith("#")]
    assert lines == comments + positions, "the comments come first"
    return comments, positions


def analysed(fens: list[str], depth: int, *game: str) -> list[dict]:
    """`podium analyse --json` of each position, run apart from the arbiter."""
    done = subprocess.run([PODIUM, "analyse", *game, "--positions", "-", "--depth", str(depth), "--json"],
                          input="".join(fen + "\n" for fen in fens), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def walks(rules: GameRules, rotation: str | None, plies: int, seed: int, count: int) -> list[str]:
    """The positions of the first count random walks a match with this seed would start from."""
    referee = Referee([PODIUM], rules, Timeouts())
    try:
        referee.launch()
        book = OpeningBook(referee.start_fen(), rotation, plies, seed)
        return [book.for_group(group, referee).fen for group in range(count)]
    finally:
        referee.close()


@NEEDS_PODIUM
class OpeningsTest(unittest.TestCase):
    def make_book(self, run: ArbiterRun, *args: str, output: str = "book.txt", expect_rc: int = 0
                  ) -> tuple[subprocess.CompletedProcess, list[str], list[str]]:
        done = run.run("openings", "--engine", PODIUM, *args, "-o", output)
        self.assertEqual(done.returncode, expect_rc, done.stderr)
        self.assertNotIn("Traceback", done.stderr)
        return done, *read_book(os.path.join(run.dir.name, output))

    def summary(self, done: subprocess.CompletedProcess) -> dict[str, int]:
        found = SUMMARY_RE.search(done.stderr)
        self.assertIsNotNone(found, done.stderr)
        return {key: int(value) for key, value in found.groupdict().items()}

    def test_the_book_is_the_first_walks_scored_near_even_and_says_how_to_make_it_again(self):
        run = ArbiterRun(self)
        done, comments, positions = self.make_book(run, "--plies", "3", "--depth", "3", "--max-score", "100",
                                                   "--count", "6", "--seed", "5")
        summary = self.summary(done)
        self.assertEqual((summary["kept"], summary["limit"]), (6, 100))
        self.assertEqual(summary["tried"], 6 + summary["duplicates"] + summary["decided"] + summary["beyond"])
        self.assertIn("wrote 6 positions", done.stderr)
        self.assertEqual(len(positions), 6)
        for fen in positions:
            self.assertRegex(fen, POSITION_RE)
            self.assertEqual(fen.split()[4], "3", fen)  # three plies from the start

        # The walks a match with seed 5 makes, scored by podium analyse apart: the book holds the first
        # distinct ones within 100 cp and no mate, in order, and ends with the walk that completed it.
        tried = walks(GameRules(), "0", 3, 5, summary["tried"])
        distinct = list(dict.fromkeys(tried))
        self.assertEqual(len(tried) - len(distinct), summary["duplicates"])
        answers = analysed(distinct, 3, "--variant", "standard")
        balanced = [fen for fen, answer in zip(distinct, answers)
                    if "cp" in answer["score"] and answer["proven"] is None and abs(answer["score"]["cp"]) <= 100]
        self.assertEqual(positions, balanced)
        self.assertEqual(positions[-1], tried[-1])

        # The comments say how it was made; their command makes the same book, whatever --concurrency.
        self.assertIn(f"# engine: {PODIUM} (", "\n".join(comments))
        made_by = next(line for line in comments if line.startswith("# made by: "))
        words = shlex.split(made_by[len("# made by: "):])
        self.assertEqual(words[:2], ["arbiter.py", "openings"])
        for setting in ("--plies 3", "--depth 3", "--max-score 100", "--count 6", "--seed 5", "--variant standard"):
            self.assertIn(setting, made_by)
        again = subprocess.run([sys.executable, ARBITER, *words[1:], "--concurrency", "2", "-o", "again.txt"],
                               cwd=run.dir.name, capture_output=True, text=True, timeout=120)
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertEqual(read_book(os.path.join(run.dir.name, "again.txt")), (comments, positions))
        _, _, other = self.make_book(run, "--plies", "3", "--depth", "3", "--max-score", "100", "--count", "6",
                                     "--seed", "6", output="other.txt")
        self.assertNotEqual(other, positions)

        # A match plays the book as it is, comments skipped: the first line in its first pair.
        done = run.match("--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two", f"cmd={PODIUM}",
                         "--games", "4", "--depth", "1", "--openings", os.path.join(run.dir.name, "book.txt"))
        by_game = sorted(run.read_records(), key=lambda record: record["index"])
        self.assertEqual([record["opening"] for record in by_game], [positions[0]] * 2 + [positions[1]] * 2)

    def test_poldr_book_with_rotated_pods_book_beside_it(self):
        run = ArbiterRun(self)
        done, comments, positions = self.make_book(run, "--game", "poldr", "--size", "5", "--plies", "2", "--depth",
                                                   "3", "--max-score", "100", "--count", "4", "--seed", "1")
        self.assertIn("POLD.R 2 players, size 5, bricks 16", comments[0])
        self.assertEqual(len(positions), 4)
        for fen in positions:
            self.assertRegex(fen, POLDR_POSITION_RE)
            self.assertEqual(poldr_shape(fen), (5, 2))
        for answer in analysed(positions, 3, "--game", "poldr"):
            self.assertLessEqual(abs(answer["score"]["cp"]), 100)
        run.match("--game", "poldr", "--size", "5", "--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two",
                  f"cmd={PODIUM}", "--games", "2", "--depth", "1", "--openings", os.path.join(run.dir.name, "book.txt"))
        self.assertEqual({record["opening"] for record in run.read_records()}, {positions[0]})

        _, _, rotated = self.make_book(run, "--rotation", "random", "--plies", "1", "--depth", "2", "--max-score",
                                       "1000", "--count", "8", "--seed", "3", output="rotated.txt")
        self.assertEqual(rotated, walks(GameRules(), "random", 1, 3, 8))  # a score within 1000 cp keeps them all
        self.assertGreater(len({fen.split()[3] for fen in rotated}), 1)

    def test_too_few_balanced_candidates_write_what_was_found_and_exit_1(self):
        run = ArbiterRun(self)
        done, comments, positions = self.make_book(run, "--plies", "3", "--depth", "3", "--max-score", "100",
                                                   "--count", "5", "--max-candidates", "8", "--seed", "3", expect_rc=1)
        self.assertIn(f"only {len(positions)} of 5 positions within 100 cp after 8 candidates", done.stderr)
        self.assertIn(f"# seed 3: {len(positions)} kept of 8 candidates", comments)
        candidates = list(dict.fromkeys(walks(GameRules(), "0", 3, 3, 8)))
        balanced = [fen for fen, answer in zip(candidates, analysed(candidates, 3))
                    if "cp" in answer["score"] and abs(answer["score"]["cp"]) <= 100]
        self.assertEqual(positions, balanced)
        self.assertTrue(0 < len(positions) < 5, positions)  # some kept, not enough: both parts of the rule at work

    def test_bad_usage_is_one_line_and_exit_2(self):
        run = ArbiterRun(self)
        # The default engine, and the sloppy fake's, from any directory.
        environment = {**os.environ, "PODIUM_BIN": PODIUM}
        for args, mentions in [
                (["--plies", "0"], "argument --plies: expected a whole number of at least 1, got '0'"),
                (["--max-score", "-1"], "argument --max-score: expected a whole number of at least 0"),
                (["--count", "x"], "argument --count: expected a whole number"),
                (["--count", "5", "--max-candidates", "4"], "--max-candidates 4 is fewer than --count 5"),
                (["--game", "poldr", "--players", "3"], "--players 3: balanced openings need two players"),
                (["--game", "poldr", "--rotation", "90"], "--rotation: for Pods only"),
                (["--size", "6"], "--size: for POLD.R only"),
                (["--engine", "/no/such/podium"], "cannot start /no/such/podium"),
                (["--engine", "'x"], "cannot split it into words"),
                (["--engine", fake_command("sloppy"), "--depth", "1", "--count", "1"],
                 "the engine must be a Podium"),
                (["--stall-timeout", "0"], "argument --stall-timeout: expected a positive number of seconds"),
                (["-o", os.path.join(run.dir.name, "no", "book.txt")], "no such directory"),
        ]:
            with self.subTest(args=args):
                done = run.run("openings", *(["-o", "book.txt"] if "-o" not in args else []), *args, env=environment)
                self.assertEqual(done.returncode, 2, done.stderr)
                self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
                self.assertIn(mentions, done.stderr)
        self.assertIn("required: -o/--output", run.run("openings").stderr)
        self.assertFalse(os.path.exists(os.path.join(run.dir.name, "book.txt")))


if __name__ == "__main__":
    unittest.main()
