#!/usr/bin/env python3
"""Tests of the pictures without a browser: reading the engine's drawings (podium/replay.py), the
summary of a match (podium/summary.py), the pages (podium/pictures.py, podium/boards.py) and the
commands that write them (scripts/picture.py, `arbiter.py report`). The pages in a real browser:
tests/browser/.

    PODIUM_BIN=target/release/podium python3 tests/arbiter/test_pictures.py
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

from support import ARBITER, NEEDS_PODIUM, PODIUM, SCRIPTS

from podium import IllegalMoveError
from podium.boards import pod_symbol
from podium.pictures import game_page, match_page
from podium.records import upgrade_record
from podium.replay import (PodsBoard, Position, Replay, open_engine, parse_pod_set, read_position,
                           record_time_control, replay_moves, replay_record)
from podium.stats import Sprt
from podium.summary import match_summary

PICTURE = os.path.join(SCRIPTS, "picture.py")
DEFAULT_PODS = ("A=W:s,E:s;B=N:l,S:s;C=NW:s,SW:s,E:s;D=N:s,SW:l,SE:l;E=NW:l,NE:l,S:s;F=W:l,E:l,N:s;"
                "G=N:l,S:l,W:s,E:s;H=NW:s,NE:s,SW:s,SE:s;I=N:s,E:s,S:s,W:s;J=NE:l,SW:l,NW:s,SE:s;"
                "K=N:s,NE:s,E:s,W:s,S:l;L=NW:l,N:s,NE:l,SW:s,SE:s;M=N:s,NE:s,SE:s,S:s,SW:s,NW:s;"
                "N=N:l,NE:s,E:l,SE:s,S:l,SW:s,W:l,NW:s")
# `d` after `position startpos moves A@c3 b@d4` (rows lose their blanks at the end, as `d` writes them).
PODS_DRAWING = ["o-o-o-o-o-o", "|X|\\|/|/|/|", "o-o-o-o-o-o", "|\\|X|X|\\|/|", "o-o-o-b o-o", "| |/|/|X|X",
                "o-o-A o-o-o", "| |\\ /| |\\|", "o o-o o-o-o", "| | | |/| |", "o-o-o-o-o-o",
                "fen 6/6/3b2/2A3/6/6 w BCDEFGHIJKLMNacdefghijklmn 0 2", "turn White"]
# `d` of three-player POLD.R after `Pc3Me5 Ma1`.
POLDR_DRAWING = ["5 . . . . B", "4 . . . b .", "3 . . P . .", "2 . y . . .", "1 Y . . . .", "  a b c d e",
                 "fen 4B/3b1/2P2/1y3/Y4 r 15,15,16 1 2 1,2,-", "turn Red (phase building, ply 2)",
                 "reserves Blue 15, Yellow 15, Red 16"]


def pods_record(index: int, white: str, black: str, result: str, moves: list[str]) -> dict:
    """A record as an older arbiter wrote it (game from 0, white and black, 1-0), read into today's schema."""
    return upgrade_record({"game": index, "pair": index // 2, "white": white, "black": black, "variant": "standard",
                           "opening": "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0", "moves": moves,
                           "result": result, "reason": "no legal move"})


def poldr_record(index: int, seats: list[str], result: str) -> dict:
    return upgrade_record({"game": "poldr", "index": index, "group": index // 6, "seats": seats, "players": 3,
                           "size": 5, "bricks": 16, "opening": "5/5/5/5/5 b 16,16,16 1 0 -,-,-", "moves": [],
                           "result": result, "reason": "most bricks"})


class DrawingsTest(unittest.TestCase):
    def test_pods_drawing_gives_pods_on_points_and_the_lines(self):
        position = read_position(PODS_DRAWING, "pods")
        self.assertEqual(position.pieces, {"c3": "A", "d4": "b"})
        self.assertEqual(position.turn, "White")
        self.assertIsNone(position.over)
        self.assertEqual(position.hands, ("BCDEFGHIJKLMN", "acdefghijklmn"))

    def test_poldr_drawing_gives_pawn_markers_and_bricks(self):
        position = read_position(POLDR_DRAWING, "poldr")
        self.assertEqual(position.pieces, {"e5": "B", "d4": "b", "c3": "P", "b2": "y", "a1": "Y"})
        self.assertEqual(position.reserves, [15, 15, 16])
        self.assertEqual(position.turn, "Red (phase building, ply 2)")

    def test_pod_set_as_the_rules_write_it(self):
        pods = dict(parse_pod_set(DEFAULT_PODS))
        self.assertEqual("".join(pods), "ABCDEFGHIJKLMN")
        self.assertEqual(pods["B"], (("N", "l"), ("S", "s")))
        self.assertEqual(len(pods["N"]), 8)

    def test_black_pods_stand_turned_half_way_round(self):
        """White's B reaches far north (up the picture), Black's b far south."""
        legs = dict(parse_pod_set(DEFAULT_PODS))["B"]

        def long_leg_end(symbol: str) -> float:
            return float(re.search(r'class="leg long" x1="0" y1="0" x2="[-\d.]+" y2="([-\d.]+)"', symbol).group(1))

        self.assertLess(long_leg_end(pod_symbol("B", legs)), 0)
        self.assertGreater(long_leg_end(pod_symbol("b", legs)), 0)


class PagesTest(unittest.TestCase):
    def position_replay(self, seats: list[str]) -> Replay:
        board = PodsBoard(tuple(row.ljust(11).replace("A", "o").replace("b", "o") for row in PODS_DRAWING[:11]),
                          parse_pod_set(DEFAULT_PODS))
        start = Position("6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0", {}, "White", None)
        after = read_position(PODS_DRAWING, "pods")
        middle = Position("6/6/6/2A3/6/6 b BCDEFGHIJKLMNabcdefghijklmn 0 1", {"c3": "A"}, "Black", None)
        return Replay("pods", board, ["A@c3", "B@d4"], [start, middle, after], seats, number=1, result="1-0",
                      reason="no legal move")

    def page_data(self, page: str) -> dict:
        found = re.search(r'<script type="application/json" id="podium-data">(.*?)</script>', page, re.S)
        return json.loads(found.group(1))

    def test_a_page_holds_every_ply_and_nothing_from_outside(self):
        page = game_page(self.position_replay(["white engine", "black engine"]))
        self.assertNotRegex(page, r"https?:|<link|\bsrc=|url\(")
        game, = self.page_data(page)["games"]
        self.assertEqual(game["moves"], ["A@c3", "B@d4"])
        self.assertEqual(len(game["plies"]), 3)
        self.assertEqual(game["plies"][2]["last"], ["d4"])
        self.assertEqual(game["plies"][1]["toMove"], 1)
        self.assertEqual(game["plies"][2]["handStates"], "bhhhhhhhhhhhhh" + "hbhhhhhhhhhhhh")

    def test_a_page_has_each_moves_engine_data_the_clocks_and_a_legend(self):
        replay = self.position_replay(["white engine", "black engine"])
        replay.move_info = [{"time_ms": 300, "score": "cp 35", "depth": 6, "nodes": 1234},
                            {"time_ms": 1200, "score": "mate -3", "depth": 9, "nodes": 99}]
        replay.time_control = {"p1": "tc 1+0.5", "p2": "tc 1+0.5"}
        page = game_page(replay)
        game, = self.page_data(page)["games"]
        self.assertEqual(game["movers"], [0, 1])
        self.assertEqual(game["info"][1], {"score": "mate -3", "depth": 9, "nodes": 99, "time_ms": 1200})
        # White: 1000 - 300 + 500; Black: 1000 - 1200 is a loss on time, shown as 0
        self.assertEqual(game["clocks"], [[1000, 1000], [1200, 1000], [1200, 0]])
        self.assertIn('id="eval-graph"', page)
        for words in ("a point of the last move", "out of the game", "the evaluation graph"):
            self.assertIn(words, page)

    def test_with_time_odds_each_clock_runs_by_its_own_control(self):
        replay = self.position_replay(["white engine", "black engine"])
        replay.move_info = [{"time_ms": 300}, {"time_ms": 500}]
        replay.time_control = {"p1": "tc 1+0.5", "p2": "tc 2+0.1"}
        self.assertEqual(self.page_data(game_page(replay))["games"][0]["clocks"],
                         [[1000, 2000], [1200, 2000], [1200, 1600]])
        replay.time_control = {"p1": "tc 1+0.5", "p2": "movetime 100"}  # one seat without a clock: none shown
        self.assertIsNone(self.page_data(game_page(replay))["games"][0]["clocks"])

    def test_a_records_time_control_is_each_seats_in_old_records_too(self):
        old = upgrade_record({"game": 0, "pair": 0, "white": "x", "black": "y", "variant": "standard",
                              "opening": "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0", "moves": [],
                              "result": "1-0", "reason": "no legal move", "time_control": "tc 1+0.01"})
        self.assertEqual(record_time_control(old), {"p1": "tc 1+0.01", "p2": "tc 1+0.01"})
        odds = {**old, "time_control": {"p1": "tc 2+0.02", "p2": "tc 1+0.01"}}
        self.assertEqual(record_time_control(odds), {"p1": "tc 2+0.02", "p2": "tc 1+0.01"})
        self.assertIsNone(record_time_control(pods_record(0, "x", "y", "1-0", [])))

    def test_names_cannot_break_out_of_the_page(self):
        name = '</script><script>alert("x")</script>'
        page = game_page(self.position_replay([name, "<b>black</b>"]))
        self.assertNotIn(name, page)
        self.assertNotIn("<b>black</b>", page)
        self.assertEqual(self.page_data(page)["games"][0]["title"], f"Game 1: {name} vs <b>black</b>")

    def test_two_player_summary_is_the_arbiters_statistics(self):
        records = [pods_record(0, "new", "old", "1-0", []), pods_record(1, "old", "new", "0-1", []),
                   pods_record(2, "new", "old", "1/2-1/2", []), pods_record(3, "old", "new", "1-0", [])]
        summary = match_summary(list(reversed(records)))  # any order: games count by number
        self.assertEqual(summary.engines, ["new", "old"])
        duel = summary.head_to_head
        self.assertEqual((duel.wins, duel.losses, duel.draws), (2, 1, 1))
        self.assertEqual(duel.pentanomial, [0, 1, 0, 0, 1])  # pair 0: WW, pair 1: a draw and a loss, LD
        self.assertEqual((duel.elo.count, duel.elo.unit), (2, "game pair"))
        self.assertEqual(duel.sprt.verdict, "continue")
        self.assertEqual(summary.running_score["new"], [1.0, 1.0, 2.5 / 3, 2.5 / 4])
        page = match_page([self.position_replay(["new", "old"])], summary)
        self.assertIn("W-L-D of new against old", page)
        self.assertIn('id="score-plot" data-games="4"', page)
        # the page's rows are summary.figure_rows: below 10 game pairs no Elo or LOS, no SPRT unless asked for
        self.assertIn("<th>Elo</th><td>too few games (2 pairs; Elo and LOS need 10)</td>", page)
        self.assertNotIn("SPRT", page)
        asked = match_page([self.position_replay(["new", "old"])], match_summary(records, Sprt(0, 5, 0.05, 0.05)))
        self.assertRegex(asked, r"<th>SPRT</th><td>LLR -?\d+\.\d\d in \(-2\.94, 2\.94\): continue; elo0 0, elo1 5")

    def test_three_player_summary_has_shares_per_engine_and_seat(self):
        names = ["a", "b", "c"]
        records = [poldr_record(index, names[index % 3:] + names[:index % 3], result)
                   for index, result in enumerate(["p1win", "p1win", "p2win", "p3win", "p1win", "p1win"])]
        summary = match_summary(records)
        self.assertIsNone(summary.head_to_head)
        self.assertEqual([(share.label, share.wins) for share in summary.seat_wins],
                         [("p1 (Blue)", 4), ("p2 (Yellow)", 1), ("p3 (Red)", 1)])
        self.assertEqual([share.wins for share in summary.engine_wins], [2, 2, 2])
        for game in range(6):
            self.assertAlmostEqual(sum(shares[game] for shares in summary.running_score.values()), 1.0)


@NEEDS_PODIUM
class ReplayTest(unittest.TestCase):
    def test_a_record_is_replayed_from_the_position_before_its_opening_moves(self):
        record = {**pods_record(4, "x", "y", "0-1", ["N@e3"]), "opening_moves": ["B@a1"],
                  "opening": "6/6/6/6/6/B5 b ACDEFGHIJKLMNabcdefghijklmn 0 1",
                  "opening_base": "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0",
                  "move_info": [{"time_ms": 101, "score": "cp -35", "depth": 6, "nodes": 1234}]}
        with open_engine([PODIUM]) as engine:
            replay = replay_record(engine, record)
        self.assertEqual((replay.number, replay.opening_plies, replay.moves), (5, 1, ["B@a1", "N@e3"]))
        self.assertEqual(replay.notes, ["", "cp -35, depth 6, 1234 nodes, 101 ms"])  # the opening move has none
        self.assertIn('"notes":["","cp -35, depth 6, 1234 nodes, 101 ms"]', game_page(replay))
        self.assertEqual([position.pieces for position in replay.positions], [{}, {"a1": "B"}, {"a1": "B", "e3": "n"}])
        self.assertEqual(replay.board.letters, "ABCDEFGHIJKLMN")

    def test_a_move_the_rules_refuse_is_an_error(self):
        with open_engine([PODIUM]) as engine:
            with self.assertRaises(IllegalMoveError):
                replay_moves(engine, "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0", ["C@c3"])  # C is no bipod

    def test_picture_of_a_position_and_moves(self):
        with tempfile.TemporaryDirectory() as directory:
            output = os.path.join(directory, "poldr.html")
            done = subprocess.run([sys.executable, PICTURE, "--engine", PODIUM, "--fen",
                                   "5/5/5/5/5 b 16,16,16 1 0 -,-,-", "--moves", "Pc3Me5", "Ma1", "-o", output],
                                  capture_output=True, text=True, timeout=60)
            self.assertEqual(done.returncode, 0, done.stderr)
            with open(output, encoding="utf-8") as page:
                text = page.read()
        self.assertIn('data-point="e5" data-piece="B"', text)  # the last position is drawn without the script
        self.assertIn("Position and 2 moves", text)

    def test_commands_say_what_is_wrong(self):
        with tempfile.TemporaryDirectory() as directory:
            records = os.path.join(directory, "match.jsonl")
            with open(records, "w", encoding="utf-8") as handle:
                handle.write(json.dumps(pods_record(0, "x", "y", "1-0", ["B@a1"])) + "\n")
            missing = subprocess.run([sys.executable, PICTURE, "--engine", PODIUM, "--records", records, "--game", "7",
                                      "-o", os.path.join(directory, "page.html")], capture_output=True, text=True)
            self.assertEqual(missing.returncode, 1)
            self.assertIn("has no game 7 (games recorded: 1 to 1)", missing.stderr)
            absent = subprocess.run([sys.executable, ARBITER, "report", os.path.join(directory, "none.jsonl"),
                                     "-o", os.path.join(directory, "page.html")], capture_output=True, text=True)
            self.assertEqual(absent.returncode, 2)
            self.assertIn("none.jsonl: No such file or directory", absent.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
