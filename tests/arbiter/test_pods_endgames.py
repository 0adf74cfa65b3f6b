#!/usr/bin/env python3
"""Tests of scripts/pods_endgames.py: endgame positions drawn from game records, replayed by the real
engine (PODIUM_BIN).

    PODIUM_BIN=target/release/podium python3 tests/arbiter/test_pods_endgames.py
"""

import json
import os
import random
import subprocess
import sys
import tempfile
import unittest

from support import NEEDS_PODIUM, PODIUM, SCRIPTS

from podium import Engine

import solve_table

SCRIPT = os.path.join(SCRIPTS, "pods_endgames.py")
DATA = os.path.join(SCRIPTS, "data")


def random_game(engine: Engine, variant: str, seed: int) -> tuple[dict, list[str]]:
    """A game of seeded random moves to its end, as a record, and the position line after each ply."""
    choose = random.Random(seed)
    engine.new_game(variant)
    engine.set_position("startpos")
    opening = engine.fen()
    moves, lines = [], [opening]
    while not engine.is_game_over() and len(moves) < 200:
        moves.append(choose.choice(sorted(engine.legal_moves())))
        engine.set_position(opening, moves)
        lines.append(engine.fen())
    result = engine.result()
    record = {"type": "game", "game": "pods", "variant": variant, "index": seed, "group": seed,
              "seats": ["first", "second"], "opening": opening, "moves": moves, "final": lines[-1],
              "result": result, "reason": "no legal move", "faulty": None}
    return record, lines


@NEEDS_PODIUM
class Endgames(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.games = []
        with Engine(PODIUM) as engine:
            for seed in range(1, 40):
                record, lines = random_game(engine, "standard", seed)
                if record["result"] in ("p1win", "p2win") and len(record["moves"]) > 6:
                    cls.games.append((record, lines))
                if len(cls.games) == 4:
                    break
        assert len(cls.games) == 4, "four won games of more than 6 plies among 39 random ones"

    def run_script(self, records: list[dict], *args: str) -> tuple[subprocess.CompletedProcess, list[str]]:
        with tempfile.TemporaryDirectory() as scratch:
            path = os.path.join(scratch, "records.jsonl")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write("".join(json.dumps(record) + "\n" for record in records))
            output = os.path.join(scratch, "endgames.txt")
            run = subprocess.run([sys.executable, SCRIPT, path, "--engine", PODIUM, "-o", output, *args],
                                 capture_output=True, text=True, timeout=120)
            if not os.path.exists(output):
                return run, []
            with open(output, encoding="utf-8") as handle:
                return run, handle.read().splitlines()

    def test_each_position_is_the_games_the_given_plies_before_its_end(self):
        drawn_game = dict(self.games[0][0], result="draw")
        run, lines = self.run_script([record for record, _ in self.games] + [drawn_game],
                                     "--games", "3", "--plies", "2,5", "--seed", "7")
        self.assertEqual(run.returncode, 0, run.stderr)
        positions = [json.loads(line) for line in lines if not line.startswith("#")]
        self.assertEqual(len(positions), 6)
        self.assertTrue(any("--seed 7" in line for line in lines if line.startswith("#")))
        by_line = {}
        for record, game_lines in self.games:
            for plies in (2, 5):
                by_line[game_lines[len(game_lines) - 1 - plies]] = (record["index"], plies)
        seen = set()
        for position in positions:
            self.assertEqual((position["game"], position["variant"]), ("pods", "standard"))
            game, plies = by_line[position["fen"]]
            self.assertEqual(position["id"], {"plies_before_end": plies})
            seen.add(game)
        self.assertEqual(len(seen), 3)
        # solve_table.py reads what it wrote.
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
            handle.write("\n".join(lines) + "\n")
        try:
            self.assertEqual(len(solve_table.read_endgames(handle.name)), 6)
        finally:
            os.unlink(handle.name)

    def test_the_same_seed_draws_the_same_games_and_another_may_not(self):
        records = [record for record, _ in self.games]
        first = self.run_script(records, "--games", "2", "--plies", "3", "--seed", "1")[1]
        again = self.run_script(records, "--games", "2", "--plies", "3", "--seed", "1")[1]
        self.assertEqual(first, again)

    def test_too_few_games_and_a_replay_that_disagrees_are_errors(self):
        records = [record for record, _ in self.games]
        run, _ = self.run_script(records, "--games", "5", "--plies", "2")
        self.assertEqual(run.returncode, 2)
        self.assertIn("4 games won", run.stderr)
        wrong = dict(records[0], final=records[1]["final"])
        run, lines = self.run_script([wrong], "--games", "1", "--plies", "2")
        self.assertEqual(run.returncode, 2)
        self.assertIn("the replay ends at", run.stderr)
        self.assertEqual(lines, [])


class ShippedFile(unittest.TestCase):
    def test_the_fresh_advanced_positions_are_24_games_at_12_14_and_16_plies(self):
        endgames = solve_table.read_endgames(os.path.join(DATA, "pods-endgames-advanced-fresh.txt"))
        self.assertEqual(len(endgames), 72)
        self.assertEqual({e.variant for e in endgames}, {"advanced"})
        self.assertEqual(sorted(e.plies for e in endgames), sorted([12, 14, 16] * 24))


if __name__ == "__main__":
    unittest.main()
