#!/usr/bin/env python3
"""Tests of the Monte Carlo yardstick (docs/poldr-yardstick.md): its own POLD.R rules
(scripts/podium/poldr_rules.py) against the podium binary on random positions of every size, 2 and
3 players; the search (scripts/podium/mcts.py); the engine (scripts/mcts_player.py) in a short
arbiter match.

    PODIUM_BIN=target/release/podium python3 tests/arbiter/test_mcts.py
"""

import json
import os
import random
import subprocess
import sys
import tempfile
import unittest

from support import ARBITER, NEEDS_PODIUM, PODIUM, RANDOM_MOVER, SCRIPTS

from podium.mcts import search
from podium.poldr_rules import PASS, Rules, parse_fen, play_names

MCTS_PLAYER = os.path.join(SCRIPTS, "mcts_player.py")
TABLE = os.path.join(SCRIPTS, "yardstick_table.py")
# The rules' example (docs/poldr-rules.md, protocol.md section 9): Blue has two bricks left and
# Md1 lays both in b1 and c1, a win at once.
WIN_IN_ONE = "4B/3b1/Y1b2/yb3/P4 b 2,4 1 2 1,2"
ROUNDS = 8  # random games per size and number of players compared with podium, to the end (over 1,000 positions)


class Podium:
    """One podium process, asked about positions in batches: one write, then the answers read."""

    def __init__(self, binary: str):
        self.process = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("setoption name Game value poldr")

    def send(self, text: str) -> None:
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def describe(self, start: str, moves: list[str]) -> tuple[str, list[str], str, str]:
        """The position line, the legal moves, `query gameover` and `query result` after moves."""
        self.send(f"position fen {start}" + (f" moves {' '.join(moves)}" if moves else "")
                  + "\nquery fen\nmoves\nquery gameover\nquery result")
        lines = [self.process.stdout.readline().strip() for _ in range(4)]
        for line in lines:
            if line.startswith("info string"):
                raise AssertionError(f"podium: {line}")
        listed = lines[1].split()
        moves = [] if listed == ["(none)"] else listed
        return lines[0].split(" ", 1)[1], moves, lines[2].split()[1], lines[3].split()[1]

    def close(self) -> None:
        self.send("quit")
        self.process.communicate(timeout=30)


@NEEDS_PODIUM
class RulesAgainstPodiumTest(unittest.TestCase):
    """The yardstick's rules, written from the rules alone, agree with podium's on random games."""

    def test_random_positions_of_every_size(self):
        podium = Podium(PODIUM)
        rng = random.Random(37)
        compared, ends = 0, 0
        try:
            for round_number in range(ROUNDS):
                for size in range(4, 10):
                    for players in (2, 3):
                        bricks = rng.choice((1, 2, 3, 5, 8, 16, 24, 40)) if round_number else rng.randint(1, 40)
                        rules = Rules(size, players)
                        state = rules.start(bricks)
                        start, moves = rules.fen(state), []
                        while True:
                            fen, listed, over, result = podium.describe(start, moves)
                            where = f"{start} moves {' '.join(moves)}"
                            self.assertEqual(rules.fen(state), fen, where)
                            self.assertEqual(parse_fen(fen)[1], state, where)
                            legal = rules.legal_moves(state)
                            self.assertEqual(sorted(rules.move_name(move) for move in legal), sorted(listed), where)
                            winner = rules.winner(state)
                            self.assertEqual(over, "true" if winner >= 0 else "false", where)
                            self.assertEqual(result, f"p{winner + 1}win" if winner >= 0 else "none", where)
                            compared += 1
                            if not legal:
                                ends += 1
                                break
                            move = rng.choice(legal)
                            moves.append(rules.move_name(move))
                            state = rules.play(state, move)
        finally:
            podium.close()
        self.assertGreaterEqual(compared, 1000)
        print(f"\n{compared} positions compared with podium", file=sys.stderr)
        self.assertEqual(ends, ROUNDS * 12)  # every game played to its end

    def test_podium_reads_the_lines_written(self):
        podium = Podium(PODIUM)
        rng = random.Random(5)
        try:
            for size in range(4, 10):
                for players in (2, 3):
                    rules = Rules(size, players)
                    state = rules.start(rng.randint(1, 40))
                    while legal := rules.legal_moves(state):
                        state = rules.play(state, rng.choice(legal))
                        fen, listed, _, _ = podium.describe(rules.fen(state), [])
                        self.assertEqual(fen, rules.fen(state))
        finally:
            podium.close()


class RulesTest(unittest.TestCase):
    def test_start_lines(self):
        self.assertEqual(Rules(5, 2).fen(Rules(5, 2).start(16)), "5/5/5/5/5 b 16,16 1 0 -,-")
        self.assertEqual(Rules(9, 3).fen(Rules(9, 3).start(40)), "9/9/9/9/9/9/9/9/9 b 40,40,40 1 0 -,-,-")

    def test_example_of_the_rules(self):
        rules, state = parse_fen("5/5/5/5/5 b 5,5 1 0 -,-")
        state = play_names(rules, state, ["Pa1Me5", "Ma3"])
        self.assertEqual(rules.fen(state), WIN_IN_ONE)
        self.assertEqual(sorted(rules.move_name(m) for m in rules.legal_moves(state)),
                         sorted("Mc1 Md1 Ma5 Pe2 Pe3 Pb5 Pc5".split()))
        with self.assertRaises(ValueError):
            play_names(rules, rules.start(5), ["Pa1Me5", "Mb3"])

    def test_invalid_lines_are_refused(self):
        for line in ("5/5/5/5/5 b 16,16 1 0", "5/5/5/5/4 b 16,16 1 0 -,-", "5/5/5/5/5 y 16,16 1 0 -,-",
                     "5/5/5/5/5 b 16,16 3 0 -,-", "5/5/5/5/5 b 41,16 1 0 -,-", "3/3/3 b 16,16 1 0 -,-",
                     "P4/5/5/5/5 b 16,16 1 0 -,-", "PB3/5/5/5/5 y 15,16 1 1 -,-", "R4/5/5/5/5 b 16,16 1 0 -,-"):
            with self.assertRaises(ValueError, msg=line):
                parse_fen(line)

    def test_playouts_play_legal_moves_to_the_winner(self):
        rng = random.Random(11)
        for size in range(4, 10):
            for players in (2, 3):
                rules = Rules(size, players)
                for _ in range(15):
                    state = rules.start(rng.randint(1, 40))
                    for _ in range(rng.randint(0, 8)):
                        if legal := rules.legal_moves(state):
                            state = rules.play(state, rng.choice(legal))
                    trace: list[int] = []
                    winner, plies = rules.playout(state, rng.random, trace=trace)
                    self.assertEqual(len(trace), plies)
                    for move in trace:
                        self.assertIn(move, rules.legal_moves(state))
                        state = rules.play(state, move)
                    self.assertEqual(rules.legal_moves(state), [])
                    self.assertEqual(rules.winner(state), winner)

    def test_pass_only_when_another_player_can_clear(self):
        rules = Rules(5, 2)
        rng = random.Random(3)
        passes = 0
        for _ in range(200):
            state = rules.start(16)
            while legal := rules.legal_moves(state):
                if legal == [PASS]:
                    passes += 1
                    self.assertEqual(state[4] == 2 or not rules._building(state, state[5] % 2), True)
                self.assertTrue(legal == [PASS] or PASS not in legal)
                state = rules.play(state, rng.choice(legal))
        self.assertGreater(passes, 0)


class SearchTest(unittest.TestCase):
    def test_finds_the_win_in_one_and_proves_it(self):
        rules, state = parse_fen(WIN_IN_ONE)
        result = search(rules, state, 10_000, random.Random(1))
        self.assertEqual(rules.winner(rules.play(state, result.move)), 0)
        self.assertEqual(result.proved, 0)  # the root is proved a win for Blue...
        self.assertLess(result.simulations, 10_000)  # ...and the search stops there

    def test_three_players_win_in_one(self):
        rules, state = parse_fen("R3B/1r1b1/2P2/1y3/Y4 b 2,7,7 1 3 1,2,3")
        wins = [move for move in rules.legal_moves(state) if rules.winner(rules.play(state, move)) == 0]
        self.assertTrue(wins)
        result = search(rules, state, 5_000, random.Random(2))
        self.assertIn(result.move, wins)
        self.assertEqual(result.proved, 0)

    def test_proves_small_games(self):
        # podium solve --game poldr --size 4 --bricks 3: Blue wins (mate 2), Pa1Md1 among the wins.
        rules = Rules(4, 2)
        result = search(rules, rules.start(3), 20_000, random.Random(4))
        self.assertEqual(result.proved, 0)
        after = rules.play(rules.start(3), result.move)
        self.assertEqual(search(rules, after, 20_000, random.Random(4)).proved, 0)  # Yellow to move: lost
        # A proved loss for the side to move: every reply of Yellow's after Pa1Md1 loses.
        lost = play_names(rules, rules.start(3), ["Pa1Md1"])
        self.assertEqual(search(rules, lost, 20_000, random.Random(5)).proved, 0)

    def test_same_seed_same_search(self):
        rules = Rules(5, 3)
        state = rules.start(16)
        first = search(rules, state, 300, random.Random(9))
        second = search(rules, state, 300, random.Random(9))
        self.assertEqual(first, second)

    def test_forced_pass_is_played_at_once(self):
        rng = random.Random(8)
        rules = Rules(5, 2)
        for _ in range(100):
            state = rules.start(16)
            while (legal := rules.legal_moves(state)) and legal != [PASS]:
                state = rules.play(state, rng.choice(legal))
            if legal == [PASS]:
                self.assertEqual(search(rules, state, 1000, rng).move, PASS)
                return
        self.fail("no forced pass in 100 random games")


class EngineTest(unittest.TestCase):
    def session(self, commands: str, *args: str) -> list[str]:
        done = subprocess.run([sys.executable, MCTS_PLAYER, *args], input=commands, capture_output=True, text=True,
                              timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        return done.stdout.splitlines()

    def test_handshake_declares_the_game_options(self):
        lines = self.session("ugi\nquit\n", "--simulations", "500")
        self.assertEqual(lines[-1], "ugiok")
        names = [line.split()[2] for line in lines if line.startswith("option name")]
        self.assertEqual(names, ["Game", "Players", "Size", "Bricks", "Simulations", "Seed"])
        self.assertIn("option name Simulations type spin default 500 min 1 max 100000000", lines)

    def test_plays_a_legal_move_with_the_options_set(self):
        lines = self.session("setoption name Game value poldr\nsetoption name Players value 3\n"
                             "setoption name Size value 7\nsetoption name Bricks value 24\n"
                             "setoption name Simulations value 200\nsetoption name Seed value 5\nisready\n"
                             "position startpos moves Pd4Md7\nquery fen\ngo movetime 100\n"
                             "position startpos moves Pd4Md7 Qb2\nquery gameover\nquery result\n")
        self.assertIn("readyok", lines)
        self.assertIn("response 3B3/3b3/3b3/3P3/7/7/7 y 22,24,24 1 1 1,-,-", lines)
        bestmove = [line for line in lines if line.startswith("bestmove")][0].split()[1]
        self.assertEqual(lines[lines.index(f"bestmove {bestmove}") - 1].split()[-1], bestmove)
        rules, state = parse_fen("3B3/3b3/3b3/3P3/7/7/7 y 22,24,24 1 1 1,-,-")
        self.assertIn(rules.parse_move(bestmove), rules.legal_moves(state))
        self.assertEqual(lines[-2:], ["response true", "response p3win"])  # Yellow forfeits; Red ranks first

    def test_go_nodes_sets_the_simulations_and_seed_repeats(self):
        commands = "setoption name Seed value 3\nposition startpos\ngo nodes 50\n"
        first, second = self.session(commands), self.session(commands)
        self.assertEqual([line for line in first if line.startswith("bestmove")],
                         [line for line in second if line.startswith("bestmove")])
        self.assertIn(" nodes 50 ", [line for line in first if line.startswith("info depth")][0])

    @NEEDS_PODIUM
    def test_an_arbiter_match(self):
        with tempfile.TemporaryDirectory() as scratch:
            records = os.path.join(scratch, "records.jsonl")
            done = subprocess.run(
                [sys.executable, ARBITER, "--game", "poldr", "--size", "4", "--bricks", "6", "--games", "2",
                 "--movetime", "50", "--timemargin", "60000", "--random-plies", "2", "--seed", "1",
                 "--records", records, "--engine", "name=mcts", f"cmd={sys.executable} {MCTS_PLAYER} --simulations 300",
                 "--engine", "name=random", f"cmd={sys.executable} {RANDOM_MOVER} --podium {PODIUM} --seed 1"],
                capture_output=True, text=True, timeout=120)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            with open(records, encoding="utf-8") as handle:
                games = [json.loads(line) for line in handle][1:]
            self.assertEqual(len(games), 2)
            self.assertTrue(all(game["faulty"] is None for game in games))
            table = subprocess.run([sys.executable, TABLE, "--engine", "mcts", records], capture_output=True,
                                   text=True, timeout=60)
            self.assertEqual(table.returncode, 0, table.stderr)
            line = table.stdout.splitlines()[-1]
            wins = sum(game["winner"] == "mcts" for game in games)
            self.assertTrue(line.startswith(f"| 2p 4x4/6, 2 random plies | random | {wins}/2 "), line)
            self.assertEqual(line.count("/1 "), 2)  # one game as Blue, one as Yellow


if __name__ == "__main__":
    unittest.main(verbosity=2)
