#!/usr/bin/env python3
"""Tests of scripts/perfect_play.py: games counted by the side that wins with perfect play, its
verdicts file, and openings proved by the real engine (PODIUM_BIN).

    PODIUM_BIN=target/release/podium python3 tests/arbiter/test_perfect_play.py
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

from support import NEEDS_PODIUM, PODIUM, SCRIPTS

import perfect_play
from perfect_play import Opening
from podium.records import upgrade_record

SCRIPT = os.path.join(SCRIPTS, "perfect_play.py")

# The last two positions of a standard game of a match at 1 s + 10 ms, from the opening
# 1jB3/6/1f4/6/N5/6 w ACDEFGHIJKLMabcdeghiklmn 0 4 and the moves K@d5 N@e1 E@c2 C@e3 F@f5 D@b2 M@f3
# B@c4 A@d2 A@f4 C@b5 E@f1 D@a3 I@b1 G@d6 H@c3: White to move, whose H@f6 then left Black without a
# legal move (the arbiter's referee: "1-0", "no legal move").
WHITE_WINS_IN_ONE = "1jBG2/1C1K1F/1fb2a/D1h1cM/NdEA2/1i2ne w HIJLgklm 0 20"
BLACK_HAS_NO_MOVE = "1jBG1H/1C1K1F/1fb2a/D1h1cM/NdEA2/1i2ne b IJLgklm 0 21"


def record(game: int, white: str, black: str, result: str, opening: str) -> dict:
    """A record of an older arbiter (game numbered from 0, white and black, 1-0), in today's schema."""
    return upgrade_record({"game": game, "pair": game // 2, "white": white, "black": black, "variant": "standard",
                           "opening": opening, "moves": [], "result": result, "reason": "no legal move"})


def write_lines(rows: list[dict]) -> str:
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
        handle.writelines(json.dumps(row) + "\n" for row in rows)
    return handle.name


class Tallies(unittest.TestCase):
    def test_games_are_counted_by_the_side_each_engine_held(self):
        won_by_white, won_by_black, unproved = (Opening("standard", f"position {n}") for n in range(3))
        verdicts = {won_by_white: "white", won_by_black: "black", unproved: None}
        records = [
            record(0, "a", "b", "1-0", won_by_white.position),  # a holds the win and keeps it
            record(1, "b", "a", "0-1", won_by_white.position),  # b held it and let it go
            record(2, "a", "b", "1-0", won_by_black.position),  # b held it and let it go
            record(3, "b", "a", "1/2-1/2", won_by_black.position),  # a held it and drew
            record(4, "a", "b", "1-0", unproved.position),  # not counted
        ]
        tallies = perfect_play.tally(records, verdicts)
        a, b = tallies["a"], tallies["b"]
        self.assertEqual((a.held_won, a.points_held_won, a.held_lost, a.points_held_lost), (2, 1.5, 2, 2))
        self.assertEqual((b.held_won, b.points_held_won, b.held_lost, b.points_held_lost), (2, 0, 2, 0.5))
        self.assertEqual((a.points, a.points_never_letting_go, a.games), (3.5, 4, 4))
        self.assertEqual((b.points, b.points_never_letting_go), (0.5, 2.5))
        self.assertIn("| a | 2 | 1.5 | 2 | 2 | 87.5% (+338 Elo) | 100.0% (+inf Elo) |", perfect_play.table(tallies))

    def test_a_verdicts_file_with_a_foreign_line_names_file_and_line(self):
        path = write_lines([{"variant": "standard", "position": WHITE_WINS_IN_ONE, "winner": "white"}])
        try:
            with open(path, "a") as handle:
                handle.write('{"type": "solve"}\n')
            with self.assertRaisesRegex(perfect_play.VerdictError, r"line 2: not a verdict \(docs/solving.md"):
                perfect_play.read_verdicts(path)
        finally:
            os.unlink(path)


@NEEDS_PODIUM
class RealEngine(unittest.TestCase):
    def run_script(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, SCRIPT, *args, "--engine", PODIUM, "--hash", "1", "--movetime", "20000"],
                              capture_output=True, text=True, timeout=120)

    def test_a_win_in_one_and_a_lost_position_are_proved_once(self):
        # One placement before the end White wins; after it Black has no move. In the first game
        # White ("a") let that win go, in the second it kept it.
        records = write_lines([record(0, "a", "b", "0-1", WHITE_WINS_IN_ONE),
                               record(1, "a", "b", "1-0", BLACK_HAS_NO_MOVE)])
        verdicts = records + ".verdicts"
        try:
            first = self.run_script(records, "--verdicts", verdicts)
            self.assertEqual(first.returncode, 0, first.stderr)
            self.assertEqual(first.stderr.count(": white: "), 2, first.stderr)
            self.assertIn("2 of 2 openings proved; 2 games counted, 0 left out", first.stdout)
            self.assertIn("| a | 2 | 1 | 0 | 0 | 50.0% (+0 Elo) | 100.0% (+inf Elo) |", first.stdout)
            self.assertIn("| b | 0 | 0 | 2 | 1 | 50.0% (+0 Elo) | 50.0% (+0 Elo) |", first.stdout)
            with open(verdicts) as handle:
                self.assertEqual([json.loads(line)["winner"] for line in handle], ["white", "white"])
            again = self.run_script(records, "--verdicts", verdicts)
            self.assertEqual((again.returncode, again.stderr), (0, ""))
            self.assertEqual(again.stdout, first.stdout)
        finally:
            for path in (records, verdicts):
                if os.path.exists(path):
                    os.unlink(path)

    def test_an_engine_that_cannot_start_is_one_error_line(self):
        records = write_lines([record(0, "a", "b", "1-0", WHITE_WINS_IN_ONE)])
        try:
            run = subprocess.run([sys.executable, SCRIPT, records, "--engine", "/nonexistent/podium"],
                                 capture_output=True, text=True, timeout=60)
            self.assertEqual(run.returncode, 2)
            self.assertEqual(run.stderr,
                             "perfect_play.py: error: cannot start /nonexistent/podium: No such file or directory\n")
        finally:
            os.unlink(records)


if __name__ == "__main__":
    unittest.main()
