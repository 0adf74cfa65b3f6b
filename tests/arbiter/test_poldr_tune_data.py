#!/usr/bin/env python3
"""Tests of scripts/poldr_tune_data.py: self-play records for each player count, resumed where they
stopped, exported as `podium tune --game poldr` reads them.

    PODIUM_BIN=target/release/podium python3 tests/arbiter/test_poldr_tune_data.py
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

from support import NEEDS_PODIUM, PODIUM, SCRIPTS

SCRIPT = os.path.join(SCRIPTS, "poldr_tune_data.py")


@NEEDS_PODIUM
class PoldrTuneDataTest(unittest.TestCase):
    def run_script(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, SCRIPT, "--engine", PODIUM, *args], capture_output=True, text=True,
                              timeout=120)

    def test_games_of_both_counts_are_recorded_resumed_exported_and_fitted(self):
        with tempfile.TemporaryDirectory(prefix="poldr-tune-data-") as out:
            done = self.run_script("--out", out, "--sizes", "4", "--games", "2", "--random-plies", "1")
            self.assertEqual(done.returncode, 0, done.stderr)
            for players, games in ((2, 2), (3, 6)):  # three players: a group of 6 seatings per opening
                with open(os.path.join(out, f"poldr-p{players}-s4.jsonl"), encoding="utf-8") as records:
                    lines = [json.loads(line) for line in records]
                self.assertEqual(lines[0]["players"], players)
                self.assertEqual(lines[0]["seed"], 1000 * players + 4)
                self.assertEqual(len(lines) - 1, games)
                with open(os.path.join(out, f"poldr-p{players}.games"), encoding="utf-8") as exported:
                    results = [line.split(" ", 1)[0] for line in exported]
                self.assertTrue(results)
                self.assertTrue(set(results) <= {f"p{seat}win" for seat in range(1, players + 1)}, results)
                tune = subprocess.run([PODIUM, "tune", "--game", "poldr", "--players", str(players), "--games",
                                       os.path.join(out, f"poldr-p{players}.games"), "--steps", "2"],
                                      capture_output=True, text=True, timeout=60)
                self.assertEqual(tune.returncode, 0, tune.stderr)
                self.assertTrue(tune.stdout.startswith(f"players {players} games "), tune.stdout)
            # A second run resumes the finished matches: it plays no game more.
            done = self.run_script("--out", out, "--sizes", "4", "--games", "2", "--players", "2")
            self.assertEqual(done.returncode, 0, done.stderr)
            with open(os.path.join(out, "poldr-p2-s4.jsonl"), encoding="utf-8") as records:
                self.assertEqual(len(records.readlines()), 3)

    def test_bad_arguments_are_refused(self):
        for args, says in [(["--out", "x", "--sizes", "10"], "sizes 4 to 9"),
                           (["--out", "x", "--players", "two"], "numbers separated by commas")]:
            done = self.run_script(*args)
            self.assertEqual(done.returncode, 2)
            self.assertIn(says, done.stderr)


if __name__ == "__main__":
    unittest.main()
