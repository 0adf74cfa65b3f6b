#!/usr/bin/env python3
"""Tests of the analysis board without a browser (podium/board.py): the moves as paths of clicks,
the best line as marks, pasted positions, and the server's answers to requests a page should not
make (another host, another site, not JSON, fields out of range, illegal moves, bad positions),
none of which may bring it down. The board in a real browser: tests/browser/test_board.py.

    PODIUM_BIN=target/release/podium python3 tests/arbiter/test_board.py
"""

import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
import unittest

from support import NEEDS_PODIUM, PODIUM, SCRIPTS

from podium.board import Sessions
from podium.board_notation import BoardError, click_paths, line_drawing, pasted_position
from podium.board_server import BoardServer, records_files
from podium.errors import UsageError

BOARD = os.path.join(SCRIPTS, "board.py")
START = "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0"
# Records as an arbiter before format 2 wrote them: games from 0, white and black, 1-0, one time control.
OLD_RECORDS = [
    {"game": 0, "pair": 0, "white": "x", "black": "y", "opening": START, "moves": ["B@d1", "N@c5"],
     "move_info": [{"time_ms": 90, "score": "cp 10", "depth": 3, "nodes": 100}] * 2, "result": "1-0",
     "reason": "no legal move", "time_control": "tc 1+0.05", "time_ms": {"white": 90, "black": 90}},
    {"game": 1, "pair": 0, "white": "y", "black": "x", "opening": START, "moves": ["C@c3"], "result": "0-1",
     "reason": "illegal move"},
]


class PathsTest(unittest.TestCase):
    def test_pods_placements_pick_the_pod_of_the_side_to_move_and_moves_two_points(self):
        white = "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 90 0"
        black = "6/6/6/6/6/3B2 b ACDEFGHIJKLMNabcdefghijklmn 0 1"
        self.assertEqual(click_paths(white, {}, ["B@d1"]), [{"move": "B@d1", "path": ["pod:B", "pt:d1"]}])
        self.assertEqual(click_paths(black, {"d1": "B"}, ["N@a6", "d1d3"])[0]["path"], ["pod:n", "pt:a6"])
        self.assertEqual(click_paths(black, {"d1": "B"}, ["d1d3"])[0]["path"], ["pt:d1", "pt:d3"])

    def test_poldr_pieces_are_picked_where_they_stand_or_from_the_tray(self):
        start = "5/5/5/5/5 b 16,16,16 1 0 -,-,-"
        self.assertEqual(click_paths(start, {}, ["Pc3Me5"])[0]["path"], ["pawn", "pt:c3", "pt:e5"])
        after = "4B/3b1/2P2/5/5 y 15,16,16 1 1 1,-,-"
        pieces = {"e5": "B", "d4": "b", "c3": "P"}
        paths = {entry["move"]: entry["path"] for entry in click_paths(after, pieces, ["Ma1", "Pa3", "pass"])}
        self.assertEqual(paths, {"Ma1": ["marker", "pt:a1"], "Pa3": ["pt:c3", "pt:a3"], "pass": ["pass"]})
        blue = "4B/3b1/2P2/1y3/Y4 b 15,15,16 1 3 1,2,-"
        self.assertEqual(click_paths(blue, {"e5": "B", "c3": "P", "a1": "Y"}, ["Mc5"])[0]["path"], ["pt:e5", "pt:c5"])


class LineDrawingTest(unittest.TestCase):
    def test_poldr_pawn_and_markers_are_followed_along_the_line(self):
        fen = "4B/3b1/2P2/5/5 y 15,16 1 1 1,-"
        marks = line_drawing(fen, {"e5": "B", "c3": "P"}, ["Ma1", "Me1", "Pa3", "pass", "Pc3"])
        self.assertEqual(marks, [
            {"n": 1, "seat": 1, "to": "a1", "piece": "Y"},
            {"n": 2, "seat": 0, "to": "e1", "piece": "B", "from": "e5"},
            {"n": 3, "seat": 1, "to": "a3", "piece": "P", "from": "c3"},
            {"n": 4, "seat": 0, "pass": True},
        ])

    def test_pods_placements_are_rings_and_moves_arrows(self):
        marks = line_drawing("6/6/6/6/6/3B2 b ACDEFGHIJKLMNabcdefghijklmn 0 1", {"d1": "B"}, ["N@a6", "d1d3"])
        self.assertEqual(marks, [{"n": 1, "seat": 1, "to": "a6", "piece": "n"},
                                 {"n": 2, "seat": 0, "from": "d1", "to": "d3"}])


class PastedPositionTest(unittest.TestCase):
    def test_one_line_of_single_spaces_and_the_moves_after_it(self):
        self.assertEqual(pasted_position("  position fen 5/5/5/5/5 b\t16,16 1 0 -,-\n moves Pc3Me5 Ma1 "),
                         ("5/5/5/5/5 b 16,16 1 0 -,-", ["Pc3Me5", "Ma1"]))

    def test_what_is_no_position_line_never_reaches_the_engine(self):
        for text, said in (("", "paste"), ("6/6 w", "5 fields"), ("6/6/6/6/6/6 w $(rm) 0 0", "letters"),
                           ("6/6/6/6/6/6 w A;B 0 0", "letters"),
                           ("6/6/6/6/6/6 w - 0 0 moves A@c3 ../etc", "not a move")):
            with self.assertRaises(BoardError) as refused:
                pasted_position(text)
            self.assertIn(said, str(refused.exception))


class RecordsTest(unittest.TestCase):
    """The board reads records through podium.records: older ones into today's schema, a bad one a
    one-line error naming file, line and game."""

    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.addCleanup(self.directory.cleanup)

    def records_file(self, name: str, lines: list[object]) -> str:
        path = os.path.join(self.directory.name, name)
        with open(path, "w", encoding="utf-8") as handle:
            handle.writelines(json.dumps(line) + "\n" for line in lines)
        return path

    def test_the_games_of_an_older_records_file_are_listed_from_1_with_their_results(self):
        path = self.records_file("old.jsonl", OLD_RECORDS)
        listed = Sessions([sys.executable], records_files([path]), {}).records_index()
        self.assertEqual(listed, [{"file": 0, "name": "old.jsonl", "games": [
            {"number": 1, "label": "Game 1: x vs y, 1-0 (2 plies)"},
            {"number": 2, "label": "Game 2: y vs x, 0-1 (1 plies)"}]}])

    def test_a_record_that_cannot_be_used_is_one_line_naming_file_line_and_game(self):
        path = self.records_file("bad.jsonl", [OLD_RECORDS[0], {**OLD_RECORDS[1], "moves": "C@c3"}])
        with self.assertRaises(UsageError) as refused:
            records_files([path])
        self.assertRegex(str(refused.exception), r"bad\.jsonl: line 2: game 2: the game record cannot be read: "
                                                 r"its 'moves' is \"C@c3\", not a list of moves$")
        with self.assertRaises(UsageError) as refused:
            records_files([os.path.join(self.directory.name, "none.jsonl")])
        self.assertRegex(str(refused.exception), r"none\.jsonl: No such file or directory$")

    @NEEDS_PODIUM
    def test_a_game_opens_with_its_number_clocks_and_result_and_one_that_cannot_be_replayed_is_named(self):
        path = self.records_file("old.jsonl", OLD_RECORDS)
        sessions = Sessions([PODIUM], records_files([path]), {"Hash": 8})
        self.addCleanup(sessions.close_all)
        session = sessions.create()
        state = session.load_record(0, 1)
        record = state["record"]
        self.assertEqual((record["number"], record["moves"], record["seats"]), (1, ["B@d1", "N@c5"], ["x", "y"]))
        self.assertEqual(record["title"], "Game 1: x vs y")
        self.assertIn("Result: 1-0", record["outcome"])
        self.assertEqual(record["timeControl"], {"p1": "tc 1+0.05", "p2": "tc 1+0.05"})
        self.assertEqual(record["clocks"], [[1000, 1000], [960, 1000], [960, 960]])
        self.assertEqual(state["ply"], 2)
        with self.assertRaises(BoardError) as refused:
            session.load_record(0, 2)
        self.assertRegex(str(refused.exception), r"^old\.jsonl: line 2: game 2: cannot be replayed: .*C@c3")
        self.assertEqual(session.state()["moves"], ["B@d1", "N@c5"], "the board stays as it was")
        with self.assertRaises(BoardError) as refused:
            session.load_record(0, 3)
        self.assertIn("old.jsonl has no game 3", str(refused.exception))

    @NEEDS_PODIUM
    def test_board_py_says_in_one_line_which_records_it_cannot_read(self):
        path = self.records_file("bad.jsonl", [{**OLD_RECORDS[0], "result": "1-1"}])
        done = subprocess.run([sys.executable, BOARD, "--engine", PODIUM, "--port", "0", "--records", path],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 1)
        self.assertEqual(done.stderr.count("\n"), 1, done.stderr)
        self.assertRegex(done.stderr, r"^board: error: .*bad\.jsonl: line 1: game 1: the game record cannot be read")


@NEEDS_PODIUM
class ServerTest(unittest.TestCase):
    """A board server on a free port of 127.0.0.1, spoken to as a page would, and as others would."""

    @classmethod
    def setUpClass(cls):
        cls.sessions = Sessions([PODIUM], [], {"Hash": 8}, limit=2)
        cls.server = BoardServer(("127.0.0.1", 0), cls.sessions)
        cls.port = cls.server.server_address[1]
        cls.thread = threading.Thread(target=cls.server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
        cls.thread.start()

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()

    def request(self, action: str, body: object, headers: dict | None = None) -> tuple[int, dict]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        sent = {"Content-Type": "application/json", **(headers or {})}
        connection.request("POST", f"/api/{action}", body=data, headers=sent)
        response = connection.getresponse()
        answer = json.loads(response.read() or b"{}")
        connection.close()
        return response.status, answer

    def test_a_page_plays_and_its_mistakes_are_errors_not_crashes(self):
        status, answer = self.request("session", {})
        self.assertEqual(status, 200, answer)
        session = answer["session"]
        state = answer["state"]
        self.assertEqual(state["fen"], "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0")
        self.assertIn('data-point="c3"', state["svg"])
        refusals = [
            ("move", {"session": session, "move": "C@c3"}, "not a legal move"),
            ("move", {"session": session, "move": ["A@a1"]}, "expected a text"),
            ("position", {"session": session, "position": "6/6/6/6/6/6 x ABC 0 0", "variant": "standard"},
             "invalid position"),
            ("position", {"session": session, "position": "5/5/5/5/5 b 16,16 1 0 -,-", "variant": "chess"},
             "variant"),
            ("new", {"session": session, "game": "poldr", "players": 2, "size": 12, "bricks": 16}, "size"),
            ("new", {"session": session, "game": "standard", "rotation": True}, "rotation"),
            ("goto", {"session": session, "ply": 3}, "ply"),
            ("analysis", {"session": session, "on": "yes", "multipv": 1}, "on"),
            ("record", {"session": session, "file": 0, "game": 1}, "no such records file"),
            ("move", {"session": "x" * 30, "move": "A@a1"}, "closed"),
        ]
        for action, body, said in refusals:
            status, answer = self.request(action, body)
            self.assertEqual(status, 400, (action, body, answer))
            self.assertIn(said, answer["error"])
        status, answer = self.request("move", {"session": session, "move": "B@d1"})
        self.assertEqual(status, 200, answer)
        self.assertEqual(answer["state"]["fen"], "6/6/6/6/6/3B2 b ACDEFGHIJKLMNabcdefghijklmn 0 1")
        self.assertEqual(answer["state"]["last"], ["d1"])
        status, answer = self.request("position", {"session": session, "variant": "standard",
                                                   "position": "5/5/5/5/5 b 16,16,16 1 0 -,-,- moves Pc3Me5"})
        self.assertEqual(status, 200, answer)
        self.assertEqual(answer["state"]["game"], "poldr")
        self.assertEqual(answer["state"]["colours"], ["Blue", "Yellow", "Red"])
        self.assertEqual(self.request("close", {"session": session})[0], 200)
        self.assertEqual(self.request("state", {"session": session})[0], 400)

    def test_other_sites_and_other_hosts_are_refused(self):
        self.assertEqual(self.request("session", {}, {"Origin": "http://example.invalid"})[0], 403)
        self.assertEqual(self.request("session", {}, {"Host": "attacker.invalid:80"})[0], 421)
        self.assertEqual(self.request("session", b"session=1", {"Content-Type": "text/plain"})[0], 415)
        self.assertEqual(self.request("session", b"{not json")[0], 400)
        self.assertEqual(self.request("session", b"[]")[0], 400)
        self.assertEqual(self.request("../../etc/passwd", {})[0], 404)


if __name__ == "__main__":
    unittest.main(verbosity=2)
