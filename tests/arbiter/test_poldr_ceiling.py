#!/usr/bin/env python3
"""Tests of scripts/poldr_ceiling.py: the chance a POLD.R player wins against random movers when it
plays its best, checked against games played out (the best moves against seeded random movers) and
against the records report.

    python3 tests/arbiter/test_poldr_ceiling.py
"""

import json
import math
import os
import random
import subprocess
import sys
import tempfile
import unittest

from support import SCRIPTS

from poldr_ceiling import Ceiling, TooLarge
from podium.poldr_rules import Rules

SCRIPT = os.path.join(SCRIPTS, "poldr_ceiling.py")


def play_out(rules: Rules, ceiling: Ceiling, state: tuple, rng: random.Random) -> bool:
    """One game from state: the ceiling's seat plays a best move, every other seat a random one."""
    while True:
        moves = rules.legal_moves(state)
        if not moves:
            return rules.winner(state) == ceiling.seat
        if state[5] % rules.players == ceiling.seat:
            state = max((rules.play(state, move) for move in moves), key=ceiling.chance)
        else:
            state = rules.play(state, rng.choice(moves))


class CeilingTest(unittest.TestCase):
    def test_the_best_moves_win_as_often_as_the_ceiling_says(self):
        # 4x4, three players, 5 bricks each (every seat between a sure loss and a sure win), played out 3,000
        # times a seat; the share won must match the exact chance within 4 standard errors.
        rules = Rules(4, 3)
        start = rules.start(5)
        rng = random.Random(5)
        for seat in range(3):
            ceiling = Ceiling(rules, seat)
            chance = ceiling.chance(start)
            self.assertTrue(0.0 < chance < 1.0, chance)
            games = 3000
            won = sum(play_out(rules, ceiling, start, rng) for _ in range(games))
            error = math.sqrt(chance * (1 - chance) / games)
            self.assertLess(abs(won / games - chance), 4 * error, (seat, won, chance))

    def test_a_random_player_in_the_seat_wins_less_than_the_ceiling(self):
        rules = Rules(4, 3)
        start = rules.start(3)
        rng = random.Random(6)
        ceiling = Ceiling(rules, 1)
        games = 3000
        won = 0
        for _ in range(games):
            state = start
            while moves := rules.legal_moves(state):
                state = rules.play(state, rng.choice(moves))
            won += rules.winner(state) == 1
        self.assertLess(won / games + 4 * math.sqrt(0.25 / games), ceiling.chance(start))

    def test_the_seat_to_move_gets_its_best_move_and_a_finished_game_its_result(self):
        rules = Rules(4, 2)
        state = rules.start(4)
        ceiling = Ceiling(rules, 0)
        self.assertAlmostEqual(max(ceiling.moves(state).values()), ceiling.chance(state))
        rng = random.Random(7)
        while moves := rules.legal_moves(state):
            state = rules.play(state, rng.choice(moves))
        winner = rules.winner(state)
        self.assertEqual(Ceiling(rules, winner).chance(state), 1.0)
        self.assertEqual(Ceiling(rules, 1 - winner).chance(state), 0.0)

    def test_a_tree_too_large_is_refused(self):
        rules = Rules(4, 3)
        with self.assertRaises(TooLarge):
            Ceiling(rules, 0, max_states=100).chance(rules.start(3))

    def test_the_records_report_gives_each_games_ceiling_and_the_rows_sum(self):
        rules = Rules(4, 3)
        start_line = rules.fen(rules.start(3))
        rng = random.Random(8)
        games = []
        for index, seats in enumerate((["podium", "a", "b"], ["a", "podium", "b"], ["a", "b", "podium"]), 1):
            state, moves = rules.start(3), []
            while legal := rules.legal_moves(state):
                move = rng.choice(legal)
                moves.append(rules.move_name(move))
                state = rules.play(state, move)
            winner = seats[rules.winner(state)]
            games.append({"type": "game", "index": index, "seats": seats, "opening_base": start_line,
                          "opening_moves": moves[:1], "moves": moves[1:], "winner": winner})
        with tempfile.TemporaryDirectory(prefix="poldr-ceiling-") as folder:
            path = os.path.join(folder, "row.jsonl")
            with open(path, "w", encoding="utf-8") as out:
                out.write(json.dumps({"type": "match"}) + "\n")
                for game in games:
                    out.write(json.dumps(game) + "\n")
            done = subprocess.run([sys.executable, SCRIPT, path], capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr)
        lines = done.stdout.splitlines()
        expected_total = 0.0
        for game in games:
            seat = game["seats"].index("podium")
            state = rules.play(rules.start(3), rules.parse_move(game["opening_moves"][0]))
            chance = Ceiling(rules, seat).chance(state)
            expected_total += chance
            won = "won" if game["winner"] == "podium" else "lost"
            line = next(line for line in lines if line.startswith(f"game {game['index']}:"))
            self.assertTrue(line.startswith(f"game {game['index']}: seat {seat + 1}, ceiling {chance:.3f}, {won}"),
                            line)
        wins = sum(game["winner"] == "podium" for game in games)
        self.assertEqual(lines[-1], f"3 games: ceiling {expected_total:.1f} wins expected at best "
                                    f"({100 * expected_total / 3:.1f}%), podium won {wins} ({100 * wins / 3:.1f}%)")

    def test_bad_input_is_a_message_not_a_traceback(self):
        done = subprocess.run([sys.executable, SCRIPT, "--position", "5/5/5 b 16,16 1 0 -,-", "--seat", "1"],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 1)
        self.assertIn("poldr_ceiling.py: board:", done.stderr)
        self.assertNotIn("Traceback", done.stderr)


if __name__ == "__main__":
    unittest.main()
