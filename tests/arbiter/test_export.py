#!/usr/bin/env python3
"""Tests of `arbiter.py export`: the games of real matches' records (PODIUM_BIN), written as
`podium tune --games` reads them, replayed by the engine to their results, and fitted by
`podium tune`.

    PODIUM_BIN=target/release/podium python3 tests/arbiter/test_export.py
"""

import os
import subprocess
import unittest

from support import NEEDS_PODIUM, PODIUM, fake
from test_arbiter import ArbiterRun

from podium import Engine

WHITE_RESULTS = {"p1win": "1-0", "p2win": "0-1", "draw": "1/2-1/2"}


def podiums(*names: str) -> list[str]:
    return [word for name in names for word in ("--engine", f"name={name}", f"cmd={PODIUM}")]


@NEEDS_PODIUM
class ExportTest(unittest.TestCase):
    def setUp(self):
        self.run_ = ArbiterRun(self)
        self.dir = self.run_.dir.name

    def play(self, records: str, *args: str) -> None:
        done = self.run_.run(*args, "--depth", "1", "--records", os.path.join(self.dir, records))
        self.assertEqual(done.returncode, 0, done.stderr)

    def export(self, *args: str, expect_rc: int = 0) -> subprocess.CompletedProcess:
        done = self.run_.run("export", *args)
        self.assertEqual(done.returncode, expect_rc, done.stderr)
        self.assertNotIn("Traceback", done.stderr)
        return done

    def read(self, name: str) -> list[str]:
        with open(os.path.join(self.dir, name), encoding="utf-8") as handle:
            return handle.read().splitlines()

    def test_games_ended_by_the_rules_from_their_start_replay_to_their_result_and_podium_tune_reads_them(self):
        self.play("pods.jsonl", *podiums("one", "two"), "--games", "4", "--random-plies", "2", "--seed", "2")
        self.play("faults.jsonl", "--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two", fake("illegal"),
                  "--referee", PODIUM, "--games", "2")
        self.play("poldr.jsonl", "--game", "poldr", "--size", "4", "--bricks", "3", *podiums("one", "two"),
                  "--games", "2")
        done = self.export("pods.jsonl", "faults.jsonl", "poldr.jsonl", "--variant", "standard", "-o", "games.txt")
        self.assertIn("4 games of 8 exported (2 games ended by a fault, 2 games of another kind); fit them with: "
                      "podium tune --variant standard --games games.txt", done.stderr)
        self.assertEqual(done.stdout, "")
        lines = self.read("games.txt")
        self.run_.records = os.path.join(self.dir, "pods.jsonl")
        records = self.run_.read_records()  # in the order the games ended, as exported
        self.assertEqual(len(lines), len(records))
        with Engine([PODIUM]) as engine:
            for line, record in zip(lines, records):
                result, start_and_moves = line.split(" ", 1)
                start, moves = start_and_moves.split(" moves")
                moves = moves.split()
                self.assertEqual(result, WHITE_RESULTS[record["result"]])
                self.assertEqual(start, record["opening_base"])  # the position before the random plies
                self.assertEqual(moves, record["opening_moves"] + record["moves"])
                self.assertEqual(len(record["opening_moves"]), 2)
                engine.new_game("standard")
                engine.set_position(start, moves)
                self.assertTrue(engine.is_game_over(), line)
                self.assertEqual(WHITE_RESULTS[engine.result()], result, line)

        tune = subprocess.run([PODIUM, "tune", "--games", os.path.join(self.dir, "games.txt"), "--steps", "1"],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(tune.returncode, 0, tune.stderr)  # it refuses a line it cannot read, or an illegal move
        self.assertRegex(tune.stdout, r"^positions [1-9]\d* ")

        # Without -o the games go to stdout; --unique keeps the first of equal games.
        self.assertEqual(self.export("pods.jsonl").stdout.splitlines(), lines)
        done = self.export("pods.jsonl", "--unique")
        unique = done.stdout.splitlines()
        self.assertEqual(unique, list(dict.fromkeys(lines)))
        repeated = len(lines) - len(unique)
        self.assertGreater(repeated, 0)  # one deterministic engine plays a pair's opening the same from both seats
        self.assertIn(f"{repeated} duplicate{'s' if repeated > 1 else ''} dropped", done.stderr)

    def test_one_variant_at_a_time_and_bad_input_is_one_line_and_exit_2(self):
        self.play("standard.jsonl", *podiums("one", "two"), "--games", "2", "--random-plies", "1", "--seed", "1")
        self.play("advanced.jsonl", *podiums("one", "two"), "--variant", "advanced", "--games", "2",
                  "--random-plies", "1", "--seed", "1", "--max-plies", "60")
        self.play("poldr.jsonl", "--game", "poldr", "--size", "4", "--bricks", "3", *podiums("one", "two"),
                  "--games", "2")
        for args, mentions in [
                (["standard.jsonl", "advanced.jsonl"], "the games are of several kinds, advanced (2 games), "
                                                       "standard (2 games): choose one with --variant"),
                (["standard.jsonl", "poldr.jsonl"],
                 "the games are of several kinds, poldr-2 (2 games), standard (2 games): choose one with "
                 "--variant (Pods) or --players"),
                (["poldr.jsonl", "--players", "3"], "no games ended by the rules in poldr.jsonl"),
                (["no-such.jsonl"], "no-such.jsonl: No such file or directory"),
                (["standard.jsonl", "--variant", "chess"], "argument --variant: invalid choice: 'chess'"),
                (["standard.jsonl", "-o", os.path.join("no", "games.txt")], "no such directory no"),
                ([], "the following arguments are required: RECORDS"),
        ]:
            with self.subTest(args=args):
                done = self.export(*args, expect_rc=2)
                self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
                self.assertIn(mentions, done.stderr)
                self.assertEqual(done.stdout, "")
        done = self.export("standard.jsonl", "advanced.jsonl", "--variant", "advanced")
        self.assertIn("2 games of 4 exported (2 games of another kind); fit them with: podium tune --variant "
                      "advanced --games -", done.stderr)
        self.run_.records = os.path.join(self.dir, "advanced.jsonl")
        self.assertEqual([line.split(" ", 1)[0] for line in done.stdout.splitlines()],
                         [WHITE_RESULTS[record["result"]] for record in self.run_.read_records()])

    def test_poldr_games_of_one_player_count_replay_to_their_winner_and_podium_tune_fits_them(self):
        self.play("three.jsonl", "--game", "poldr", "--players", "3", "--size", "5", "--bricks", "6",
                  *podiums("one", "two", "three"), "--games", "6", "--random-plies", "2", "--seed", "3")
        self.play("two.jsonl", "--game", "poldr", "--size", "4", "--bricks", "3", *podiums("one", "two"),
                  "--games", "2")
        done = self.export("three.jsonl", "two.jsonl", "--players", "3", "-o", "games.txt")
        self.assertIn("6 games of 8 exported (2 games of another kind); fit them with: podium tune --game poldr "
                      "--players 3 --games games.txt", done.stderr)
        lines = self.read("games.txt")
        self.run_.records = os.path.join(self.dir, "three.jsonl")
        records = self.run_.read_records()
        self.assertEqual(len(lines), len(records))
        with Engine([PODIUM]) as engine:
            for line, record in zip(lines, records):
                result, start_and_moves = line.split(" ", 1)
                start, moves = start_and_moves.split(" moves")
                self.assertEqual(result, record["result"])
                self.assertEqual(start, record["opening_base"])
                engine.new_game("poldr", players=3, size=5, bricks=6)
                engine.set_position(start, moves.split())
                self.assertTrue(engine.is_game_over(), line)
                self.assertEqual(engine.result(), result, line)
        games = os.path.join(self.dir, "games.txt")
        tune = subprocess.run([PODIUM, "tune", "--game", "poldr", "--players", "3", "--games", games, "--steps", "2"],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(tune.returncode, 0, tune.stderr)
        self.assertRegex(tune.stdout, r"^players 3 games 6 positions [1-9]\d*\n")
        self.assertIn("weights build_reserve=", tune.stdout)
        # The two-player fit finds no game of its count there, and says so.
        tune = subprocess.run([PODIUM, "tune", "--game", "poldr", "--games", games], capture_output=True, text=True,
                              timeout=60)
        self.assertNotEqual(tune.returncode, 0)
        self.assertIn("no positions of 2-player games", tune.stderr)


if __name__ == "__main__":
    unittest.main()
