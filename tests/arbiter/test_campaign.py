#!/usr/bin/env python3
"""Tests of scripts/campaign.py: a proof split into sub-proofs, a store that a rerun extends, shards
that a merge combines, with the real engine (PODIUM_BIN) on a small endgame.

    PODIUM_BIN=target/release/podium python3 tests/arbiter/test_campaign.py
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

from support import NEEDS_PODIUM, PODIUM, SCRIPTS

import campaign
from podium.verdicts import read_store

SCRIPT = os.path.join(SCRIPTS, "campaign.py")

# 12 plies before the end of a real standard game (scripts/data/pods-endgames-standard.txt): Black
# to move loses (`podium solve`), every sub-proof two plies down takes milliseconds.
ROOT = "4N1/D1k3/G5/3n2/1F4/2fA1j b BCEHIJKLMabcdeghilm 90 9"


def run(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, SCRIPT, *arguments], capture_output=True, text=True)


def lines(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@NEEDS_PODIUM
class Campaign(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.addCleanup(self.directory.cleanup)

    def path(self, name: str) -> str:
        return os.path.join(self.directory.name, name)

    def walk(self, store: str, *more: str) -> subprocess.CompletedProcess:
        done = run("run", store, "--root", ROOT, "--split", "2", "--cpu-limit", "5", "--hash", "4",
                   "--engine", PODIUM, *more)
        self.assertEqual(done.returncode, 0, done.stderr)
        return done

    def test_a_stopped_campaign_goes_on_where_it_stopped_and_agrees_with_one_proof(self):
        store = self.path("verdicts.jsonl")
        first = self.walk(store, "--max-proofs", "3", "--certificates", self.path("certificates"))
        self.assertIn(f"root {ROOT}: open", first.stdout)
        self.assertEqual(sum(entry["by"] == "solve" for entry in lines(store)), 3)
        certificates = os.listdir(self.path("certificates"))
        self.assertEqual(len(certificates), 3, "one certificate per proved sub-proof")
        second = self.walk(store)
        solved = [entry for entry in lines(store) if entry["by"] == "solve"]
        positions = [entry["position"] for entry in solved]
        self.assertEqual(len(positions), len(set(positions)), "no sub-proof is proved twice")
        whole = json.loads(subprocess.run([PODIUM, "solve", "--fen", ROOT, "--hash", "4", "--json"],
                                          capture_output=True, text=True, check=True).stdout)
        winner = {"p1": "white", "p2": "black"}[whole["winner"]]
        self.assertIn(f"root {ROOT}: {winner} wins", second.stdout)
        self.assertEqual(read_store(store)[("standard", ROOT)]["winner"], winner)
        # A third run proves nothing again.
        third = self.walk(store)
        self.assertIn("this run 0 proofs", third.stdout)
        status = run("status", store, "--root", ROOT)
        self.assertIn(f"{winner} wins", status.stdout)
        self.assertIn(f"sub-proofs: {len(solved)} proved, 0 open", status.stdout)

    def test_one_certificate_joins_the_moves_above_the_sub_proofs_to_their_certificates(self):
        # tests/certificate.rs checks such a certificate with the independent verifier; here, what
        # it is made of.
        store, certificates = self.path("verdicts.jsonl"), self.path("certificates")
        self.walk(store, "--certificates", certificates)
        out = self.path("proof.txt")
        done = run("certificate", store, out, "--root", ROOT, "--certificates", certificates, "--engine", PODIUM)
        self.assertEqual(done.returncode, 0, done.stderr)
        verdicts = read_store(store)
        winner = verdicts[("standard", ROOT)]["winner"]
        with open(out, encoding="utf-8") as handle:
            text = handle.read().splitlines()
        self.assertIn(f"root {ROOT}", text)
        self.assertIn(f"winner {winner}", text)
        self.assertEqual(text[-1], "end")
        sub_steps = set()
        for name in os.listdir(certificates):
            with open(os.path.join(certificates, name), encoding="utf-8") as handle:
                sub_steps.update(line.rstrip("\n") for line in handle if line.startswith(("move ", "leaf ")))
        steps = [line for line in text if line.startswith(("move ", "leaf "))]
        above = [line for line in steps if line not in sub_steps]
        self.assertTrue(above, "moves above the sub-proofs")
        for line in above:
            # The winner's move at a position of the tree above the sub-proofs.
            position = line.split(" ", 1)[1].rsplit(" ", 1)[0]
            self.assertEqual(verdicts[("standard", position)]["winner"], winner)
            self.assertEqual(campaign.mover_of(position), winner)
        self.assertLess(len(above), len(steps), "the sub-proofs' steps follow")
        # A store that does not settle the root certifies nothing.
        done = run("certificate", self.path("empty.jsonl"), out, "--root", ROOT, "--certificates", certificates,
                   "--engine", PODIUM)
        self.assertEqual(done.returncode, 2)
        self.assertIn("does not settle", done.stderr)

    def test_shards_merge_into_the_proof_of_one_run(self):
        shards = [self.path(f"shard{index}.jsonl") for index in range(2)]
        for index, store in enumerate(shards):
            self.walk(store, "--shard", f"{index}/2")
        merged = self.path("merged.jsonl")
        done = run("merge", merged, *shards)
        self.assertEqual(done.returncode, 0, done.stderr)
        # With both shards' sub-proofs read, the root's walk needs no new proof.
        again = self.walk(merged)
        self.assertIn("this run 0 proofs", again.stdout)
        self.assertRegex(again.stdout, rf"root {ROOT}: (white|black) wins")

    def test_moves_come_best_first_for_the_side_to_move(self):
        # After Black's first move from ROOT, White wins: the child the search orders first is a
        # White win by `podium solve`, and the children's scores (each its own mover's) rise.
        engine = campaign.Engine(PODIUM, "standard", 20_000)
        self.addCleanup(engine.process.kill)
        after_black = engine.children(ROOT)[0]
        ordered = engine.children(after_black)
        scores = [engine.score(child) for child in ordered]
        self.assertEqual(scores, sorted(scores))
        self.assertLess(scores[0], scores[-1])
        unordered = campaign.Engine(PODIUM, "standard", 0)
        self.addCleanup(unordered.process.kill)
        self.assertEqual(sorted(unordered.children(after_black)), sorted(ordered))
        proof = json.loads(subprocess.run([PODIUM, "solve", "--fen", ordered[0], "--hash", "4", "--json"],
                                          capture_output=True, text=True, check=True).stdout)
        self.assertEqual(proof["winner"], "p1")

    def test_bad_arguments_and_files_say_what_to_fix(self):
        done = run("run", self.path("v.jsonl"), "--shard", "2/2", "--engine", PODIUM)
        self.assertEqual(done.returncode, 2)
        self.assertIn("I must be from 0 to N-1", done.stderr)
        store = self.path("bad.jsonl")
        with open(store, "w") as handle:
            handle.write('{"variant": "standard"}\n')
        done = run("status", store)
        self.assertEqual(done.returncode, 2)
        self.assertIn("line 1: not a verdict", done.stderr)
        done = run("run", self.path("v.jsonl"), "--root", "not a position", "--engine", PODIUM)
        self.assertEqual(done.returncode, 2)
        self.assertIn("campaign.py: error:", done.stderr)


class Store(unittest.TestCase):
    def test_a_proved_verdict_outweighs_an_unproved_one_whatever_the_order(self):
        unproved = {"variant": "standard", "position": "p", "winner": None, "cpu_limit": 90}
        proved = {"variant": "standard", "position": "p", "winner": "black", "cpu_limit": 10}
        for rows in ([unproved, proved], [proved, unproved]):
            with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
                handle.writelines(json.dumps(row) + "\n" for row in rows)
            try:
                self.assertEqual(read_store(handle.name)[("standard", "p")]["winner"], "black")
            finally:
                os.unlink(handle.name)

    def test_the_shard_of_a_position_is_stable(self):
        self.assertEqual(campaign.shard_of(ROOT, 7), campaign.shard_of(ROOT, 7))
        self.assertEqual({campaign.shard_of(f"p{n}", 3) for n in range(100)}, {0, 1, 2})


if __name__ == "__main__":
    unittest.main()
