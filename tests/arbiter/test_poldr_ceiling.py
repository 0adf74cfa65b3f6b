#!/usr/bin/env python3
"""Tests of `podium ceiling` and scripts/poldr_ceiling.py: the chance a POLD.R player wins against
random movers when it plays its best. A reference written here from the definition (expectimax over
the rules of scripts/podium/poldr_rules.py, which share nothing with the engine's) is checked by
playing its best moves against seeded random movers; the engine must give the same chances.

    PODIUM_BIN=target/release/podium python3 tests/arbiter/test_poldr_ceiling.py
"""

import json
import math
import os
import random
import subprocess
import sys
import tempfile
import unittest

from support import NEEDS_PODIUM, PODIUM, SCRIPTS

from podium.poldr_rules import Rules

SCRIPT = os.path.join(SCRIPTS, "poldr_ceiling.py")


class Ceiling:
    """The reference: expectimax for one seat against random movers, each position worked out once."""

    def __init__(self, rules: Rules, seat: int):
        self.rules, self.seat = rules, seat
        self.table: dict[tuple, float] = {}

    def chance(self, state: tuple) -> float:
        known = self.table.get(state)
        if known is not None:
            return known
        moves = self.rules.legal_moves(state)
        if not moves:
            value = 1.0 if self.rules.winner(state) == self.seat else 0.0
        else:
            values = [self.chance(self.rules.play(state, move)) for move in moves]
            value = max(values) if state[5] % self.rules.players == self.seat else sum(values) / len(values)
        self.table[state] = value
        return value


def podium_ceiling(*args: str) -> dict:
    done = subprocess.run([PODIUM, "ceiling", "--game", "poldr", "--hash", "16", "--json", *args],
                          capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise AssertionError(done.stderr)
    return json.loads(done.stdout)


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
        best = max(ceiling.chance(rules.play(state, move)) for move in rules.legal_moves(state))
        self.assertAlmostEqual(best, ceiling.chance(state))
        rng = random.Random(7)
        while moves := rules.legal_moves(state):
            state = rules.play(state, rng.choice(moves))
        winner = rules.winner(state)
        self.assertEqual(Ceiling(rules, winner).chance(state), 1.0)
        self.assertEqual(Ceiling(rules, 1 - winner).chance(state), 0.0)


@NEEDS_PODIUM
class PodiumCeilingTest(unittest.TestCase):
    def test_the_engine_agrees_with_the_reference(self):
        # The starts of small games, every seat; then positions late in random 5x5 games.
        rng = random.Random(9)
        cases = [(Rules(4, 3), Rules(4, 3).start(5)), (Rules(4, 2), Rules(4, 2).start(4))]
        for players in (2, 3):
            rules = Rules(5, players)
            while len([case for case in cases if case[0].size == 5 and case[0].players == players]) < 4:
                line = [rules.start(16)]
                while moves := rules.legal_moves(line[-1]):
                    line.append(rules.play(line[-1], rng.choice(moves)))
                if len(line) > 12:
                    cases.append((rules, line[-10]))
        for rules, state in cases:
            for seat in range(rules.players):
                reference = Ceiling(rules, seat)
                answer = podium_ceiling("--fen", rules.fen(state), "--seat", str(seat + 1))
                self.assertEqual(answer["seat"], f"p{seat + 1}")
                self.assertAlmostEqual(answer["chance"], reference.chance(state), places=12, msg=rules.fen(state))
                if state[5] % rules.players == seat:
                    expected = {rules.move_name(move): reference.chance(rules.play(state, move))
                                for move in rules.legal_moves(state)}
                    got = {entry["move"]: entry["chance"] for entry in answer["moves"]}
                    self.assertEqual(set(got), set(expected))
                    for move, chance in expected.items():
                        self.assertAlmostEqual(got[move], chance, places=12, msg=move)
                    self.assertEqual([entry["chance"] for entry in answer["moves"]],
                                     sorted(got.values(), reverse=True))
                else:
                    self.assertEqual(answer["moves"], [])

    def test_the_text_form_and_the_refusals(self):
        done = subprocess.run([PODIUM, "ceiling", "--game", "poldr", "--size", "4", "--bricks", "3", "--players", "3",
                               "--hash", "16"], capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        lines = done.stdout.splitlines()
        self.assertEqual(lines[0], "position 4/4/4/4 b 3,3,3 1 0 -,-,-")
        self.assertEqual(lines[2], "seat Blue (p1)")
        chance = Ceiling(Rules(4, 3), 0).chance(Rules(4, 3).start(3))
        self.assertEqual(lines[3], f"ceiling {chance:.6f}")
        self.assertTrue(lines[-1].startswith("nodes "), lines[-1])
        refusals = [
            (["--game", "poldr", "--seat", "3"], "--seat 3: the game has 2 players"),
            (["--game", "poldr", "--players", "3", "--size", "4", "--nodes", "5"], "stopped after"),
            (["--game", "pods", "--variant", "advanced"], "repeated positions"),
        ]
        for arguments, message in refusals:
            done = subprocess.run([PODIUM, "ceiling", "--hash", "16", *arguments], capture_output=True, text=True,
                                  timeout=60)
            self.assertEqual(done.returncode, 1, arguments)
            self.assertIn(message, done.stderr)
            self.assertEqual(done.stdout, "")

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
            done = subprocess.run([sys.executable, SCRIPT, path, "--podium", PODIUM, "--hash", "16", "--turns"],
                                  capture_output=True, text=True, timeout=300)
        self.assertEqual(done.returncode, 0, done.stderr)
        lines = done.stdout.splitlines()
        expected_total = 0.0
        for game in games:
            seat = game["seats"].index("podium")
            reference = Ceiling(rules, seat)
            state = rules.play(rules.start(3), rules.parse_move(game["opening_moves"][0]))
            chance = reference.chance(state)
            expected_total += chance
            given_up = []
            for name in game["moves"]:
                move = rules.parse_move(name)
                if state[5] % 3 == seat:
                    best = max(reference.chance(rules.play(state, other)) for other in rules.legal_moves(state))
                    mine = reference.chance(rules.play(state, move))
                    if mine < best - 1e-9:
                        given_up.append(f"{name} {mine:.3f} (best {best:.3f})")
                state = rules.play(state, move)
            won = "won" if game["winner"] == "podium" else "lost"
            line = next(line for line in lines if line.startswith(f"game {game['index']}:"))
            self.assertEqual(line, f"game {game['index']}: seat {seat + 1}, ceiling {chance:.3f}, {won}"
                             + (f"; chance given up: {', '.join(given_up)}" if given_up else ""))
        wins = sum(game["winner"] == "podium" for game in games)
        self.assertEqual(lines[-1], f"3 games: ceiling {expected_total:.1f} wins expected at best "
                                    f"({100 * expected_total / 3:.1f}%), podium won {wins} ({100 * wins / 3:.1f}%)")

    def test_bad_input_is_a_message_not_a_traceback(self):
        done = subprocess.run([sys.executable, SCRIPT, "/nonexistent/row.jsonl", "--podium", PODIUM],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 1)
        self.assertIn("poldr_ceiling.py:", done.stderr)
        self.assertNotIn("Traceback", done.stderr)


if __name__ == "__main__":
    unittest.main()
