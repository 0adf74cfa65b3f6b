#!/usr/bin/env python3
"""Tests of match records as files (issue #42): one schema for both games, checked against
docs/records.schema.json; records of older arbiters read without loss (Pods and POLD.R, by
--resume, report and merge); and every corrupted file a one-line error naming file, line and game,
for each of report, merge, export, picture.py and --resume, which all refuse the same records.

    PODIUM_BIN=target/release/podium python3 tests/arbiter/test_records.py
"""

import json
import os
import subprocess
import sys
import unittest
from types import SimpleNamespace

from schema_check import schema_errors
from support import ARBITER, NEEDS_PODIUM, PODIUM, ROOT, SCRIPTS
from test_arbiter import ArbiterRun

from podium import errors
from podium.records import load_records, read_match, record_problem, upgrade_record

PICTURE = os.path.join(SCRIPTS, "picture.py")
SCHEMA = os.path.join(ROOT, "docs", "records.schema.json")
PODS = ["--engine", "name=one", f"cmd={PODIUM}", "--engine", "name=two", f"cmd={PODIUM}", "option.Hash=8",
        "--games", "4", "--depth", "1", "--random-plies", "2", "--seed", "5", "--max-plies", "80"]
POLDR = ["--game", "poldr", "--size", "4", "--bricks", "3", "--engine", "name=one", f"cmd={PODIUM}",
         "--engine", "name=two", f"cmd={PODIUM}", "--games", "4", "--depth", "1", "--random-plies", "1", "--seed", "5"]


def downgrade(record: dict) -> dict:
    """A record of today's schema as the arbiter wrote it before it (Pods: "game" from 0, "pair",
    "white", "black", 1-0; POLD.R: "game": "poldr", "index" from 0), for the tests of old files."""
    control = next(iter(record["time_control"].values()))
    if record["game"] == "poldr":
        old = {"game": "poldr", "index": record["index"] - 1,
               ("pair" if record["players"] == 2 else "group"): record["group"] - 1}
        old.update({key: value for key, value in record.items() if key not in ("type", "game", "index", "group")})
        return {**old, "time_control": control}
    white, black = record["seats"]
    result = {"p1win": "1-0", "p2win": "0-1", "draw": "1/2-1/2"}[record["result"]]
    old = {"game": record["index"] - 1, "pair": record["group"] - 1, "white": white, "black": black}
    dropped = ("type", "game", "index", "group", "seats", "final", "winner", "faulty")
    old.update({key: value for key, value in record.items() if key not in dropped})
    return {**old, "result": result, "time_ms": {"white": record["time_ms"]["p1"], "black": record["time_ms"]["p2"]},
            "time_control": control}


def old_header(header: dict) -> dict:
    """The settings line of an arbiter before the format had a number and engines their own clocks."""
    old = {key: value for key, value in header.items() if key != "format"}
    old["engines"] = [{key: value for key, value in engine.items() if key != "time_control"}
                      for engine in header["engines"]]
    return old


def write(path: str, lines: list) -> str:
    with open(path, "w", encoding="utf-8") as handle:
        for line in lines:
            handle.write((line if isinstance(line, str) else json.dumps(line)) + "\n")
    return path


@NEEDS_PODIUM
class RecordsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.matches = {}
        for game, arguments in (("pods", PODS), ("poldr", POLDR)):
            run = ArbiterRun(SimpleNamespace(addCleanup=cls.addClassCleanup))  # its scratch directory: the class's
            done = run.run(*arguments, "--records", run.records, timeout=120)
            assert done.returncode == 0, done.stderr
            cls.matches[game] = (run, run.read_lines())

    def lines(self, game: str) -> list[dict]:
        return json.loads(json.dumps(self.matches[game][1]))  # a copy to spoil

    def path(self, name: str) -> str:
        return os.path.join(self.matches["pods"][0].dir.name, name)

    def arbiter(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, ARBITER, *args], capture_output=True, text=True, timeout=120,
                              cwd=self.matches["pods"][0].dir.name)

    def assert_one_line(self, done: subprocess.CompletedProcess, rc: int, *mentions: str) -> None:
        self.assertEqual(done.returncode, rc, done.stdout + done.stderr)
        self.assertNotIn("Traceback", done.stderr)
        self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
        for text in mentions:
            self.assertIn(text, done.stderr)

    # -- one schema, documented and checked

    def test_records_of_both_games_follow_the_one_schema(self):
        with open(SCHEMA, encoding="utf-8") as handle:
            schema = json.load(handle)
        for game, (_, lines) in self.matches.items():
            header, records = lines[0], lines[1:]
            self.assertEqual((header["type"], header["format"]), ("match", 2))
            self.assertEqual(schema_errors(schema, header), [], header)
            for record in records:
                self.assertEqual(schema_errors(schema, record), [], record)
                self.assertIsNone(record_problem(record))
                self.assertEqual((record["type"], record["game"]), ("game", game))
            self.assertEqual(sorted(record["index"] for record in records), [1, 2, 3, 4])  # as the pages count
            self.assertEqual(sorted(record["group"] for record in records), [1, 1, 2, 2])
        # the schema refuses what the arbiter refuses
        record = self.lines("poldr")[1]
        for spoiled in ({**record, "final": None}, {**record, "index": 0}, {**record, "result": "draw"},
                        {key: value for key, value in record.items() if key != "group"},
                        {**record, "moves": ["Pa1Me4\nquit"]}, {**record, "game": "chess"}):
            self.assertNotEqual(schema_errors(schema, spoiled), [], spoiled)
            self.assertIsNotNone(record_problem(spoiled), spoiled)

    # -- older records, read without loss

    def test_older_records_of_both_games_are_read_without_loss(self):
        for game in ("pods", "poldr"):
            with self.subTest(game=game):
                header, *records = self.lines(game)
                old = [downgrade(record) for record in records]
                path = write(self.path(f"old-{game}.jsonl"), [old_header(header), *old])
                read_header, read = read_match(path)
                for new, again in zip(records, read):
                    kept = {key: value for key, value in new.items() if game == "poldr" or key != "final"}
                    self.assertEqual({key: again[key] for key in kept}, kept)  # every field, under today's names
                self.assertEqual(upgrade_record(old[0]), read[0])
                self.assertEqual([engine["time_control"] for engine in read_header["engines"]], [None, None])
                without_settings = write(self.path(f"old-{game}-bare.jsonl"), old)
                self.assertEqual(load_records(without_settings), read)

    def test_resume_report_and_merge_take_older_records(self):
        for game, arguments in (("pods", PODS), ("poldr", POLDR)):
            with self.subTest(game=game):
                header, *records = self.lines(game)
                path = write(self.path(f"resume-{game}.jsonl"), [old_header(header), *map(downgrade, records[:2])])
                done = self.arbiter("--resume", path)
                self.assertEqual(done.returncode, 0, done.stderr)
                self.assertIn("(2 already recorded)", done.stdout)
                self.assertEqual(sorted(record["index"] for record in load_records(path)), [1, 2, 3, 4])
                page = self.arbiter("report", path, "-o", self.path(f"{game}.html"), "--engine", PODIUM)
                self.assertEqual(page.returncode, 0, page.stderr)
                merged = self.arbiter("merge", path)
                self.assertEqual(merged.returncode, 0, merged.stderr)
                bare = write(self.path(f"bare-{game}.jsonl"), [downgrade(record) for record in records[:2]])
                done = self.arbiter(*arguments, "--resume", bare)  # no settings: all the arguments again
                self.assertEqual(done.returncode, 0, done.stderr)
                self.assertIn("(2 already recorded)", done.stdout)

    # -- corrupted files: one line naming file, line and game, from every command

    def corrupted(self) -> dict[str, tuple[str, list, str]]:
        """name -> (game, the file's lines, what the error must say)."""
        pods, poldr = self.lines("pods"), self.lines("poldr")
        header, first, second = pods[0], pods[1], pods[2]
        p_header, p_first = poldr[0], poldr[1]

        def without(record: dict, key: str) -> dict:
            return {name: value for name, value in record.items() if name != key}

        deep = '{"type": "game", "nested": ' + "[" * 100000 + "]" * 100000 + "}"
        huge_number = json.dumps(second)[:-1] + ', "x": ' + "9" * 5000 + "}"
        return {
            "deep nesting": ("pods", [header, first, deep], "line 3: cannot be read: nested too deep"),
            "a number over 4300 digits": ("pods", [header, first, huge_number],
                                          "line 3: cannot be read: a number too long to read"),
            "final null": ("poldr", [p_header, {**p_first, "final": None}],
                           "line 2: game 1: the game record cannot be read: its 'final' is null, not a POLD.R "
                           "position line"),
            "POLD.R record without pair": ("poldr", [p_header, without(downgrade(p_first), "pair")],
                                           "line 2: game 1: the game record cannot be read: it has no 'group'"),
            "no opening": ("pods", [header, first, without(second, "opening")], "line 3: game 2: the game record "
                                                                                "cannot be read: it has no 'opening'"),
            "no moves": ("pods", [header, without(first, "moves")], "line 2: game 1: the game record cannot be "
                                                                    "read: it has no 'moves'"),
            "no size": ("poldr", [p_header, without(p_first, "size")], "line 2: game 1: the game record cannot "
                                                                       "be read: it has no 'size'"),
            "no bricks": ("poldr", [p_header, without(p_first, "bricks")], "line 2: game 1: the game record cannot "
                                                                           "be read: it has no 'bricks'"),
            "games 10^9": ("pods", [{**header, "games": 10**9}, first], "line 1: the match's settings cannot be read: "
                                                                        "its 'games' is 1000000000"),
            "shard [1, 10^12]": ("pods", [{**header, "shard": [1, 10**12]}, first],
                                 "line 1: the match's settings cannot be read: its 'shard' is [1, 1000000000000]"),
            "a line break in a move": ("pods", [header, {**first, "moves": [first["moves"][0] + "\nquit"]}],
                                       "line 2: game 1: the game record cannot be read: its 'moves' is"),
            "a huge game number": ("pods", [header, {**first, "index": 10**40}],
                                   "line 2: the game record cannot be read: its 'index'"),
        }

    def test_every_command_names_file_line_and_game_of_a_corrupted_record(self):
        for name, (game, lines, says) in self.corrupted().items():
            path = write(self.path(f"corrupted-{game}.jsonl"), lines)
            commands = {
                "report": (["report", path, "-o", self.path("page.html"), "--engine", PODIUM], 2),
                "merge": (["merge", path], 2),
                "export": (["export", path, "--engine", PODIUM], 2),
                "--resume": (["--resume", path], 2),
                "picture.py": (["--records", path, "--game", "1", "-o", self.path("game.html"), "--engine", PODIUM], 1),
            }
            for command, (args, rc) in commands.items():
                with self.subTest(fault=name, command=command):
                    if command == "picture.py":
                        done = subprocess.run([sys.executable, PICTURE, *args], capture_output=True, text=True,
                                              timeout=60)
                    else:
                        done = self.arbiter(*args)
                    self.assert_one_line(done, rc, f"{path}: {says}")

    def test_merge_and_report_refuse_what_resume_refuses(self):
        header, first, second, *rest = self.lines("pods")
        p_first = self.lines("poldr")[1]
        renamed = {**first, "seats": ["three", first["seats"][1]], "winner": None}  # White renamed in one game
        for name, spoiled, says in (
                ("an engine outside the match", renamed, "game 1 is a game between other engines (three, "),
                ("another game", {**p_first, "index": 1}, "game 1 is a POLD.R game, not Pods"),
                ("another variant", {**first, "variant": "advanced"},
                 "game 1 is a game of the advanced variant, not standard"),
                ("a game beyond the match", {**first, "index": 9}, "game 9 is beyond the match's 4 games")):
            path = write(self.path("foreign.jsonl"), [header, spoiled, second, *rest])
            for command in (["report", path, "-o", self.path("page.html"), "--engine", PODIUM], ["merge", path],
                            ["--resume", path]):
                with self.subTest(case=name, command=command[0]):
                    self.assert_one_line(self.arbiter(*command), 2, f"{path}: line 2: {says}")
        # without settings the first record decides the match
        path = write(self.path("foreign-bare.jsonl"), [first, renamed | {"index": 2}])
        self.assert_one_line(self.arbiter("report", path, "-o", self.path("page.html"), "--engine", PODIUM), 2,
                             f"{path}: line 2: game 2 is a game between other engines")

    def test_an_illegal_record_is_named_by_report_and_left_out_by_export(self):
        header, *records = self.lines("pods")
        done = next(record for record in records if record["reason"] not in errors.ENGINE_FAULTS)
        illegal = {**done, "moves": [done["moves"][0], done["moves"][0], *done["moves"][2:]]}  # a point taken twice
        number = illegal["index"]
        path = write(self.path("illegal.jsonl"),
                     [header, *[illegal if record is done else record for record in records]])
        line = 2 + records.index(done)
        report = self.arbiter("report", path, "-o", self.path("page.html"), "--engine", PODIUM)
        self.assert_one_line(report, 2, f"{path}: line {line}: game {number}: cannot be replayed: illegal move "
                                        f"{done['moves'][0]} at index {len(done['opening_moves']) + 1}")
        export = self.arbiter("export", path, "--engine", PODIUM, "-o", self.path("games.txt"))
        self.assertEqual(export.returncode, 0, export.stderr)
        self.assertIn(f"arbiter: export: warning: {path}: line {line}: game {number}: left out, the engine cannot play "
                      f"it: illegal move", export.stderr)
        self.assertIn("1 game that cannot be played", export.stderr)
        with open(self.path("games.txt"), encoding="utf-8") as handle:
            exported = handle.read().splitlines()
        self.assertEqual(len(exported), len(records) - 1)
        tune = subprocess.run([PODIUM, "tune", "--games", self.path("games.txt"), "--steps", "1"], capture_output=True,
                              text=True, timeout=60)
        self.assertEqual(tune.returncode, 0, tune.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
