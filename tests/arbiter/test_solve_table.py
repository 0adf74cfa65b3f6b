#!/usr/bin/env python3
"""Tests of scripts/solve_table.py: its endgame files read, and a table made by the real engine
(PODIUM_BIN).

    PODIUM_BIN=target/release/podium python3 tests/arbiter/test_solve_table.py
"""

import os
import subprocess
import sys
import tempfile
import unittest

from support import NEEDS_PODIUM, PODIUM, SCRIPTS

import solve_table

TABLE = os.path.join(SCRIPTS, "solve_table.py")
DATA = os.path.join(SCRIPTS, "data")
STANDARD_START = "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0"


def run_table(text: str, *args: str) -> subprocess.CompletedProcess:
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write(text)
    try:
        return subprocess.run([sys.executable, TABLE, handle.name, *args], capture_output=True, text=True, timeout=120)
    finally:
        os.unlink(handle.name)


class EndgameFiles(unittest.TestCase):
    def test_the_shipped_files_hold_every_distance_of_their_variant(self):
        for variant in solve_table.VARIANTS:
            endgames = solve_table.read_endgames(os.path.join(DATA, f"pods-endgames-{variant}.txt"))
            self.assertEqual({e.variant for e in endgames}, {variant})
            self.assertEqual({e.plies for e in endgames}, {8, 10, 12, 14, 16})

    def test_a_line_without_its_tag_names_file_and_line(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
            handle.write(f"# a comment\n{STANDARD_START} # 8 standard\n{STANDARD_START}\n")
        try:
            with self.assertRaisesRegex(solve_table.TableError, r"line 3: expected '<position line> # <plies>"):
                solve_table.read_endgames(handle.name)
        finally:
            os.unlink(handle.name)

    def test_a_json_line_names_its_variant_and_a_bad_one_names_file_and_line(self):
        good = '{"game":"pods","variant":"advanced","fen":"%s","id":{"plies_before_end":8}}' % STANDARD_START
        for bad in ('{"game":"pods","variant":"advanced","fen":"x"}', '{"variant":"other","fen":"x","id":'
                    '{"plies_before_end":8}}', '{"game":"poldr","variant":"advanced","fen":"x","id":'
                    '{"plies_before_end":8}}', "{" * 5000, '{"id":[]}'):
            with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
                handle.write(f"{good}\n{bad}\n")
            try:
                with self.assertRaisesRegex(solve_table.TableError, r"line 2: (not JSON|expected \{\"game\")"):
                    solve_table.read_endgames(handle.name)
                with open(handle.name, "w") as rewrite:
                    rewrite.write(good + "\n")
                self.assertEqual(solve_table.read_endgames(handle.name),
                                 [solve_table.Endgame(STANDARD_START, 8, "advanced")])
            finally:
                os.unlink(handle.name)


@NEEDS_PODIUM
class Table(unittest.TestCase):
    def test_near_the_end_proved_at_the_start_not(self):
        endgames = solve_table.read_endgames(os.path.join(DATA, "pods-endgames-standard.txt"))
        near = [e for e in endgames if e.plies == 8][:2]
        text = "".join(f"{e.fen} # 8 standard\n" for e in near) + f"{STANDARD_START} # 60 standard\n"
        run = run_table(text, "--engine", PODIUM, "--movetime", "300")
        self.assertEqual(run.returncode, 0, run.stderr)
        rows = [line.split(" | ") for line in run.stdout.splitlines() if line.startswith("| standard")]
        self.assertEqual([(r[1], r[2], r[3]) for r in rows], [("8", "2", "2/2"), ("60", "1", "0/1")])
        self.assertEqual(rows[1][4], "over 0.3 s")
        self.assertEqual(run.stderr.count(" plies standard: "), 3)

    def test_a_position_left_open_at_the_cpu_limit_keeps_its_nodes(self):
        answer = solve_table.solve_answer(PODIUM, "standard", STANDARD_START, None, 16, cpu_limit=1)
        self.assertEqual((answer["proven"], answer["stopped"]), (False, "cpu"))
        self.assertGreater(answer["nodes"], 0)

    def test_a_build_without_the_cpu_limit_option_is_stopped_by_the_system(self):
        # An older build refuses the option as clap does; it then runs until the system stops it.
        with tempfile.TemporaryDirectory() as directory:
            old_build = os.path.join(directory, "podium-old")
            with open(old_build, "w") as handle:
                handle.write("#!/bin/sh\n"
                             "case \"$*\" in *--cpu-limit*) echo \"error: unexpected argument '--cpu-limit'\" >&2;"
                             " exit 2;; esac\n"
                             "while :; do :; done\n")
            os.chmod(old_build, 0o755)
            answer = solve_table.solve_answer(old_build, "standard", STANDARD_START, None, 16, cpu_limit=1)
        self.assertEqual(answer, {"proven": False, "nodes": 0, "stopped": "cpu"})

    def test_an_engine_that_cannot_start_is_one_error_line(self):
        run = run_table(f"{STANDARD_START} # 60 standard\n", "--engine", "/nonexistent/podium")
        self.assertEqual(run.returncode, 2)
        self.assertEqual(run.stderr,
                         "solve_table.py: error: cannot start /nonexistent/podium: No such file or directory\n")


if __name__ == "__main__":
    unittest.main()
