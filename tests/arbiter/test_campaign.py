#!/usr/bin/env python3
"""Tests of scripts/campaign.py: a proof split into sub-proofs, a store that a rerun extends, shards
that a merge combines, with the real engine (PODIUM_BIN) on a small endgame.

    PODIUM_BIN=target/release/podium python3 tests/arbiter/test_campaign.py
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import unittest
import unittest.mock
from collections.abc import Callable

from support import NEEDS_PODIUM, PODIUM, SCRIPTS

import campaign
import solve_table
from podium.verdicts import read_store

SCRIPT = os.path.join(SCRIPTS, "campaign.py")
REPOSITORY = os.path.dirname(SCRIPTS)

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

    # The two-ply stub tree of the walk tests below: White's two moves, Black's replies to them.
    STUB_TREE = {"root w": ["m1 b", "m2 b"], "m1 b": ["r11 w", "r12 w"], "m2 b": ["r21 w"]}

    def stub_walk(self, prover: str, *, prove: bool = False, store: str = "unused.jsonl",
                  **options) -> campaign.Campaign:
        """A walk of STUB_TREE two plies down for `prover`, nothing proved in advance; `options`
        override run's defaults (fail_fast, settle, max_proofs, deepen, cpu_limit)."""
        arguments = {"fail_fast": False, "settle": False, "max_proofs": None, "deepen": 0, "cpu_limit": 1,
                     **options}
        args = campaign.argparse.Namespace(
            engine=PODIUM, variant="standard", order_nodes=0, also=[], store=self.path(store),
            split=2, shard=(0, 1), **arguments)
        walk = campaign.Campaign(args, prove=prove)
        self.addCleanup(walk.engine.close)
        walk.children = self.STUB_TREE
        walk.prover = prover
        return walk

    @staticmethod
    def stub_proofs(walk: campaign.Campaign, verdicts: dict, calls: list, earlier: tuple = ()) -> Callable:
        """A stand-in for the walk's sub-proofs: each asked position is logged in `calls` and gets its
        verdict, a proof run for it unless `earlier` holds it (open since an earlier run)."""

        def sub_proof(position: str) -> str | None:
            calls.append(position)
            if position not in earlier:
                walk.proofs_run += 1
            return verdicts[position]

        return sub_proof

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

    def test_sub_proofs_without_certificates_are_proved_again_on_request(self):
        # A store made without --certificates, or whose certificates stayed on another machine.
        store, certificates, out = self.path("verdicts.jsonl"), self.path("certificates"), self.path("proof.txt")
        self.walk(store)
        solved = [entry for entry in lines(store) if entry["by"] == "solve" and entry["winner"]]
        done = run("certificate", store, out, "--root", ROOT, "--certificates", certificates, "--engine", PODIUM)
        self.assertEqual(done.returncode, 2)
        self.assertIn("--prove-missing", done.stderr)
        self.assertFalse(os.path.exists(out))
        done = run("certificate", store, out, "--root", ROOT, "--certificates", certificates, "--engine", PODIUM,
                   "--prove-missing", "--hash", "4")
        self.assertEqual(done.returncode, 0, done.stderr)
        proved_again = done.stderr.count("proved again for its certificate")
        self.assertEqual(proved_again, len(os.listdir(certificates)))
        self.assertTrue(0 < proved_again <= len(solved))
        # The same certificate as a walk that wrote them as it went.
        other_store, other_certificates = self.path("other.jsonl"), self.path("other-certificates")
        self.walk(other_store, "--certificates", other_certificates)
        other_out = self.path("other.txt")
        done = run("certificate", other_store, other_out, "--root", ROOT, "--certificates", other_certificates,
                   "--engine", PODIUM)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(out, encoding="utf-8") as mine, open(other_out, encoding="utf-8") as theirs:
            self.assertEqual(mine.read(), theirs.read())
        # Proved again two at a time: every missing one once, and the same certificate.
        parallel_certificates, parallel_out = self.path("parallel-certificates"), self.path("parallel.txt")
        done = run("certificate", store, parallel_out, "--root", ROOT, "--certificates", parallel_certificates,
                   "--engine", PODIUM, "--prove-missing", "--hash", "4", "--jobs", "2")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stderr.count("proved again for its certificate"), proved_again)
        self.assertEqual(sorted(os.listdir(parallel_certificates)), sorted(os.listdir(certificates)))
        with open(out, encoding="utf-8") as mine, open(parallel_out, encoding="utf-8") as theirs:
            self.assertEqual(mine.read(), theirs.read())

    def test_fail_fast_leaves_a_move_at_its_first_open_reply(self):
        # A made-up tree two plies deep: White's first move has an open reply first, its second
        # move is proved. The walk's sub-proofs are stubbed: what is asked, in which order.
        verdicts = {"r11 w": None, "r12 w": "white", "r21 w": "white"}
        for fail_fast, asked in ((False, ["r11 w", "r12 w", "r21 w"]), (True, ["r11 w", "r21 w"])):
            walk = self.stub_walk("white", fail_fast=fail_fast)
            calls = []
            walk.sub_proof = self.stub_proofs(walk, verdicts, calls)
            self.assertEqual(walk.value("root w", 0), "white")
            self.assertEqual(calls, asked, f"--fail-fast {fail_fast}")

    def test_fail_fast_passes_over_a_reply_an_earlier_run_left_open(self):
        # r11 was left open by an earlier run: stopping there again would stop every rerun at m1's
        # first reply, so m1's other replies are asked, and m2 settles the root.
        verdicts = {"r11 w": None, "r12 w": "white", "r21 w": "white"}
        walk = self.stub_walk("white", fail_fast=True)
        calls = []
        walk.sub_proof = self.stub_proofs(walk, verdicts, calls, earlier=("r11 w",))
        self.assertEqual(walk.value("root w", 0), "white")
        self.assertEqual(calls, ["r11 w", "r12 w", "r21 w"])

    def test_fail_fast_for_the_other_side_tries_its_replies_until_one_proves(self):
        # White to move at the root, Black the side to prove: every White move needs a Black reply
        # proved; Black's first reply to m1 stays open, so its second is asked, and m1's refutation
        # found, m2 is walked too; with White the prover the walk leaves m1 at its open reply.
        verdicts = {"r11 w": None, "r12 w": "black", "r21 w": "black"}
        for prover, asked, winner in (("black", ["r11 w", "r12 w", "r21 w"], "black"),
                                      ("white", ["r11 w", "r21 w"], None)):
            walk = self.stub_walk(prover, fail_fast=True)
            calls = []
            walk.sub_proof = self.stub_proofs(walk, verdicts, calls)
            self.assertEqual(walk.value("root w", 0), winner, prover)
            self.assertEqual(calls, asked, prover)

    def test_deepen_walks_on_below_a_sub_proof_left_open_at_the_cpu_limit(self):
        # r11 was tried at the CPU limit and left open; below it, White's move s1 wins for White.
        # With --deepen 1 the walk asks s1, which settles r11, then m1 and the root; without, it
        # stops at r11 and goes on to m2, whose r21 is open; and a higher CPU limit than the one
        # tried asks r11 again rather than walking below it.
        tree = {**self.STUB_TREE, "r11 w": ["s1 b", "s2 b"], "r21 w": ["t1 b"]}
        verdicts = {"r11 w": None, "r12 w": "white", "r21 w": None, "s1 b": "white"}
        for deepen, cpu_limit, asked, winner in ((1, 1, ["r11 w", "s1 b", "r12 w"], "white"),
                                                 (0, 1, ["r11 w", "r12 w", "r21 w"], None),
                                                 (1, 2, ["r11 w", "r12 w", "r21 w"], None)):
            walk = self.stub_walk("white", deepen=deepen, cpu_limit=cpu_limit)
            walk.children = tree
            walk.store = {("standard", "r11 w"): {"winner": None, "cpu_limit": 1}}
            calls = []
            walk.sub_proof = self.stub_proofs(walk, verdicts, calls)
            self.assertEqual(walk.value("root w", 0), winner, f"--deepen {deepen} --cpu-limit {cpu_limit}")
            self.assertEqual(calls, asked, f"--deepen {deepen} --cpu-limit {cpu_limit}")

    def test_open_roots_count_the_refuted_moves_and_name_the_replies_left(self):
        # Root 1 is proved and left out; root 2: White's m1 refuted, m2 with one of two replies
        # proved for White, the other named; m3 with none; m4 refuted by a reply proved for Black
        # though no settle has recorded it, and not named however many of its replies White wins.
        tree = {"r2 w": ["m1 b", "m2 b", "m3 b", "m4 b"], "m2 b": ["x w", "y w"], "m3 b": ["z w"],
                "m4 b": ["u w", "v w", "t w"]}
        verdicts = {"r1 w": "white", "m1 b": "black", "x w": "white", "u w": "white", "v w": "white",
                    "t w": "black"}
        lines = list(campaign.open_roots(lambda position: tree.get(position, []), verdicts.get, ["r1 w", "r2 w"]))
        self.assertEqual(lines, ["2: 4 moves of white, 2 refuted; the open move with most replies proved for "
                                 "white: 1 of 2, open: y w"])

    def test_the_frontier_is_the_played_reply_to_each_move_not_refuted_never_asked(self):
        # Root 1 is proved and left out. Root 2: m1 settled, m2 refuted by a reply already proved
        # for Black, m3's played reply z1 asked before (open), m4's played reply asked of no proof.
        tree = {"r2 w": ["m1 b", "m2 b", "m3 b", "m4 b"], "m2 b": ["x w", "y w"], "m3 b": ["z1 w", "z2 w"],
                "m4 b": ["u w", "v w"]}
        verdicts = {"r1 w": {"winner": "white"}, "m1 b": {"winner": "black"}, "y w": {"winner": "black"},
                    "z1 w": {"winner": None}}
        played = {"m2 b": "x w", "m3 b": "z1 w", "m4 b": "v w"}
        asked = []
        lines = list(campaign.frontier(lambda position: tree.get(position, []),
                                       lambda position: asked.append(position) or [played[position]],
                                       verdicts.get, ["r1 w", "r2 w"]))
        self.assertEqual(lines, ["v w"])
        self.assertEqual(asked, ["m3 b", "m4 b"], "no search for a settled or refuted move")
        # --moves: the moves themselves, m3 too though some of its replies were asked.
        moves = list(campaign.frontier(lambda position: tree.get(position, []), None, verdicts.get, ["r1 w", "r2 w"]))
        self.assertEqual(moves, ["m3 b", "m4 b"])
        # --replies 2: m3's second reply too, its first (asked before) left out.
        ranked = {"m2 b": ["x w", "y w"], "m3 b": ["z1 w", "z2 w"], "m4 b": ["v w", "u w"]}
        lines = list(campaign.frontier(lambda position: tree.get(position, []), ranked.get, verdicts.get,
                                       ["r1 w", "r2 w"]))
        self.assertEqual(lines, ["z2 w", "v w", "u w"])

    def test_the_frontier_of_a_real_endgame_is_a_reply_to_each_of_its_moves(self):
        done = run("frontier", self.path("empty.jsonl"), "--root", ROOT, "--engine", PODIUM, "--order-nodes", "2000")
        self.assertEqual(done.returncode, 0, done.stderr)
        engine = campaign.Engine(PODIUM, "standard", 0)
        self.addCleanup(engine.close)
        lines = done.stdout.split("\n")[:-1]
        self.assertEqual(len(lines), len(set(lines)))
        for child in engine.moves(ROOT):
            # One reply to each move, the same position printed once where two moves reach it.
            self.assertTrue(set(lines) & set(engine.moves(child)), child)
        self.assertTrue(all(any(line in engine.moves(child) for child in engine.moves(ROOT)) for line in lines))
        # Two replies a move, ranked by a search of each: more positions, each still a reply.
        done = run("frontier", self.path("empty.jsonl"), "--root", ROOT, "--engine", PODIUM, "--order-nodes", "2000",
                   "--replies", "2")
        self.assertEqual(done.returncode, 0, done.stderr)
        two = done.stdout.split("\n")[:-1]
        self.assertEqual(len(two), len(set(two)))
        self.assertGreater(len(two), len(lines))
        self.assertTrue(all(any(line in engine.moves(child) for child in engine.moves(ROOT)) for line in two))
        # The moves themselves have no replies to count: asking both is refused, not half obeyed.
        done = run("frontier", self.path("empty.jsonl"), "--root", ROOT, "--engine", PODIUM, "--moves",
                   "--replies", "2")
        self.assertEqual(done.returncode, 2)
        self.assertIn("not allowed with argument", done.stderr)
        self.assertEqual(done.stdout, "")

    def test_the_frontier_with_an_answer_is_that_reply_where_legal_and_the_searched_one_elsewhere(self):
        # White's B@e1 is legal after 49 of Black's 51 moves here: the two others fill e1.
        done = run("frontier", self.path("empty.jsonl"), "--root", ROOT, "--engine", PODIUM, "--order-nodes", "2000",
                   "--answer", "B@e1")
        self.assertEqual(done.returncode, 0, done.stderr)
        engine = campaign.Engine(PODIUM, "standard", 0)
        self.addCleanup(engine.close)
        lines = done.stdout.split("\n")[:-1]
        answered, searched = [], []
        for child in engine.moves(ROOT):
            replies = engine.moves(child)
            after = [reply for reply, move in replies.items() if move == "B@e1"]
            if after:
                answered.append(child)
                self.assertIn(after[0], lines, child)
            else:
                searched.append(child)
                self.assertTrue(set(lines) & set(replies), child)
        self.assertEqual((len(answered), len(searched)), (49, 2))
        self.assertEqual(len(lines), 51)
        # A move legal after none of the moves answers none of them: the output is frontier's plain one.
        done = run("frontier", self.path("empty.jsonl"), "--root", ROOT, "--engine", PODIUM, "--order-nodes", "2000",
                   "--answer", "B@z9")
        self.assertEqual(done.returncode, 0, done.stderr)
        plain = run("frontier", self.path("empty.jsonl"), "--root", ROOT, "--engine", PODIUM, "--order-nodes", "2000")
        self.assertEqual(done.stdout, plain.stdout)

    def test_a_book_is_the_winner_moves_of_a_certificate_with_the_plies_left(self):
        # The committed endgame certificate: its tree ends in leaves, and its `plies` line is the
        # longest line of the tree (tests/certificate.rs checks the start's book against the tree).
        certificate = os.path.join(REPOSITORY, "tests", "data", "certificate-standard-12.txt")
        out = self.path("book.txt")
        done = run("book", certificate, out, "--engine", PODIUM)
        self.assertEqual(done.returncode, 0, done.stderr)
        fields, steps = campaign.read_certificate(certificate)
        with open(out, encoding="utf-8") as handle:
            book = [line.split() for line in handle if not line.startswith("#")]
        moves = {position: step.split()[1] for position, step in steps.items() if step.startswith("move ")}
        self.assertEqual({" ".join(line[:5]): line[5] for line in book}, moves)
        plies = {" ".join(line[:5]): int(line[6]) for line in book}
        # The tree from the root (here the loser's turn) lasts the plies the certificate claims.
        self.assertIn(f"at most {fields['plies']} plies", done.stdout)
        engine = campaign.Engine(PODIUM, "standard", 0)
        self.addCleanup(engine.close)

        def claim(position: str) -> int:
            return int(steps[position].split()[1])

        for position, move in moves.items():
            # One ply for the winner's move, then the leaf it leads to, or one more for the loser's
            # move and the longest the winner's next position lasts (a leaf's claim or the book's).
            child = next(child for child, legal in engine.moves(position).items() if legal == move)
            if steps.get(child, "").startswith("leaf "):
                expected = 1 + claim(child)
            else:
                after = [claim(next_position) if steps[next_position].startswith("leaf ") else plies[next_position]
                         for next_position in engine.moves(child)]
                expected = 2 + max(after) if after else 1
            self.assertEqual(plies[position], expected, position)
        with open(out, encoding="utf-8") as handle:
            header = handle.read()
        self.assertIn("# Written by: python3 scripts/campaign.py book", header)
        # The start's book (no --opening) is checked against its committed certificate.
        self.assertIn("# Proved again by: cargo test --release --test certificate\n", header)
        # A certificate cut short is refused.
        cut = self.path("cut.txt")
        with open(certificate, encoding="utf-8") as source, open(cut, "w", encoding="utf-8") as handle:
            handle.write("".join(line for line in source if line.strip() != "end"))
        done = run("book", cut, out, "--engine", PODIUM)
        self.assertEqual(done.returncode, 2)
        self.assertIn("not a whole certificate", done.stderr)

    def test_a_book_below_the_leaves_adds_the_trees_play_needs(self):
        # The endgame certificate again, its leaves given trees that end at 100 nodes (20,000 would
        # prove most of them at once): the certificate's lines first, then each leaf's tree as
        # `podium solve --tree` prints it, each position once.
        certificate = os.path.join(REPOSITORY, "tests", "data", "certificate-standard-12.txt")
        fields, steps = campaign.read_certificate(certificate)
        plain, out = self.path("plain.txt"), self.path("below.txt")
        self.assertEqual(run("book", certificate, plain, "--engine", PODIUM).returncode, 0)
        made_by = f'python3 scripts/campaign.py certificate STORE CERT --root "{fields["root"]}"'
        done = run("book", "--opening", fields["root"], certificate, out, "--below-leaves", "--leaf-nodes", "100",
                   "--jobs", "2", "--engine", PODIUM, "--certificate-made-by", made_by)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(plain, encoding="utf-8") as handle:
            plain_lines = [line.rstrip("\n") for line in handle if not line.startswith("#")]
        with open(out, encoding="utf-8") as handle:
            text = handle.read()
        lines = [line for line in text.splitlines() if not line.startswith("#")]
        self.assertEqual(lines[:len(plain_lines)], plain_lines)
        trees = set()
        for leaf in (position for position, step in steps.items() if step.startswith("leaf ")):
            tree = subprocess.run([PODIUM, "solve", "--game", "pods", "--variant", "standard", "--fen", leaf,
                                   "--hash", "16", "--tree", "--leaf-nodes", "100"], capture_output=True, text=True)
            trees.update(tree.stdout.splitlines())
        added = lines[len(plain_lines):]
        self.assertTrue(added, "the leaves' trees add lines")
        self.assertLessEqual(set(added), trees)
        keys = [" ".join(line.split()[:4]) for line in lines]
        self.assertEqual(len(keys), len(set(keys)), "each position once")
        # The header names the opening first (the engine's book tests read it) and how the trees end.
        self.assertIn(f'# Written by: python3 scripts/campaign.py book --opening "{fields["root"]}"', text)
        self.assertIn("--variant standard --tree --leaf-nodes 100", text)
        # An opening's certificate is not committed: the header says how to make it again, and
        # the book tests (which prove its entries again) check the book.
        self.assertIn(f"# certificate-standard-12.txt: {made_by}\n", text)
        self.assertIn("# Proved again by: cargo test --release --lib pods::book\n", text)
        # A certificate of another position is refused.
        done = run("book", "--opening", ROOT, certificate, out, "--engine", PODIUM)
        self.assertEqual(done.returncode, 2)
        self.assertIn("not --opening", done.stderr)

    def test_a_book_of_roots_is_proved_root_by_root_into_one_store(self):
        engine = campaign.Engine(PODIUM, "standard", 0)
        self.addCleanup(engine.close)
        roots = [ROOT, *list(engine.moves(ROOT))[:2]]
        book = self.path("roots.txt")
        with open(book, "w", encoding="utf-8") as handle:
            handle.write("# three roots\n" + "\n".join(roots) + "\n")
        store = self.path("verdicts.jsonl")
        done = run("run", store, "--roots", book, "--split", "1", "--cpu-limit", "5", "--hash", "4",
                   "--engine", PODIUM)
        self.assertEqual(done.returncode, 0, done.stderr)
        verdicts = read_store(store)
        winners = [verdicts[("standard", root)]["winner"] for root in roots]
        with open(store, encoding="utf-8") as handle:
            solves = [entry for entry in map(json.loads, handle) if entry["by"] == "solve"]
        self.assertEqual({entry.get("hash_mb") for entry in solves}, {4})
        for root, winner in zip(roots, winners):
            self.assertIn(f"root {root}: {winner} wins", done.stdout)
        white = winners.count("white")
        self.assertIn(f"roots: 3 of 3 proved ({white} white wins, {3 - white} black wins), 0 open", done.stdout)
        status = run("status", store, "--roots", book)
        self.assertEqual(status.returncode, 0, status.stderr)
        self.assertIn(f"roots: 3 of 3 proved ({white} white wins", status.stdout)
        # A root in the store of none of them is open.
        with open(book, "a", encoding="utf-8") as handle:
            handle.write(campaign.START["standard"] + "\n")
        self.assertIn("roots: 3 of 4 proved", run("status", store, "--roots", book).stdout)
        self.assertIn("--root: not allowed with argument --roots",
                      run("status", store, "--roots", book, "--root", ROOT).stderr)
        # --max-proofs holds for each root: one hard root does not take the others' turn.
        two = self.path("two.txt")
        with open(two, "w", encoding="utf-8") as handle:
            handle.write("\n".join(roots[1:]) + "\n")
        done = run("run", self.path("capped.jsonl"), "--roots", two, "--split", "1", "--cpu-limit", "5",
                   "--hash", "4", "--max-proofs", "1", "--engine", PODIUM)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("this run 2 proofs", done.stdout)

    def test_trees_writes_the_book_of_each_proved_root_once(self):
        book = self.path("roots.txt")
        with open(book, "w", encoding="utf-8") as handle:
            handle.write(f"# two roots\n{ROOT}\n{campaign.START['standard']}\n")
        store = self.path("verdicts.jsonl")
        self.walk(store)
        winner = read_store(store)[("standard", ROOT)]["winner"]
        books = self.path("books")
        os.mkdir(books)

        def trees(leaf_nodes: str) -> subprocess.CompletedProcess:
            done = run("trees", store, "--roots", book, "--out", books, "--hash", "4", "--leaf-nodes", leaf_nodes,
                       "--engine", PODIUM)
            self.assertEqual(done.returncode, 0, done.stderr)
            return done

        # 12 plies before the end, play proves the root by itself within 20,000 nodes: no book.
        self.assertIn("0 books written, 1 not needed, 0 roots not proved", trees("20000").stdout)
        self.assertEqual(os.listdir(books), [])
        # --only names the roots to write: the open start has no book to write, and a number
        # beyond the file is refused.
        only_open = run("trees", store, "--roots", book, "--out", books, "--hash", "4", "--leaf-nodes", "100",
                        "--only", "2", "--engine", PODIUM)
        self.assertIn("0 books written, 0 not needed, 0 roots not proved", only_open.stdout)
        self.assertEqual(os.listdir(books), [])
        beyond = run("trees", store, "--roots", book, "--out", books, "--only", "1,3", "--engine", PODIUM)
        self.assertEqual(beyond.returncode, 2)
        self.assertIn(f"--only 3: {book} has roots 1 to 2", beyond.stderr)
        # With smaller leaves, the tree podium solve writes, headed by its command; the open root
        # (the start) gets none.
        self.assertIn("1 books written, 0 not needed", trees("100").stdout)
        self.assertEqual(os.listdir(books), ["roots-01.txt"])
        solve = subprocess.run([PODIUM, "solve", "--game", "pods", "--variant", "standard", "--fen", ROOT,
                                "--hash", "4", "--tree", "--leaf-nodes", "100"], capture_output=True, text=True)
        with open(os.path.join(books, "roots-01.txt"), encoding="utf-8") as handle:
            written = handle.read()
        header = [line for line in written.splitlines() if line.startswith("#")]
        self.assertIn(f"(a win for {winner})", header[0])
        self.assertIn(f'# Written by: podium solve --game pods --variant standard --fen "{ROOT}" --hash 4 --tree '
                      "--leaf-nodes 100", header)
        self.assertEqual(written.split("\n", len(header))[-1], solve.stdout)
        self.assertGreater(solve.stdout.count("\n"), 1)
        # A book already written is kept: a second run has nothing to do.
        self.assertIn("0 books written, 0 not needed, 0 roots not proved", trees("100").stdout)
        refused = run("trees", store, "--roots", book, "--out", books, "--jobs", "0")
        self.assertEqual(refused.returncode, 2)
        self.assertIn("--jobs, --time-limit, --hash and --leaf-nodes must be positive", refused.stderr)

    def test_trees_start_from_the_winning_move_the_store_proves(self):
        # After any Black move from ROOT, White to move wins; a walk one ply down proves its move.
        engine = campaign.Engine(PODIUM, "standard", 0)
        self.addCleanup(engine.close)
        root = next(iter(engine.moves(ROOT)))
        book = self.path("roots.txt")
        with open(book, "w", encoding="utf-8") as handle:
            handle.write(root + "\n")
        store = self.path("verdicts.jsonl")
        done = run("run", store, "--roots", book, "--split", "1", "--cpu-limit", "5", "--hash", "4",
                   "--engine", PODIUM)
        self.assertEqual(done.returncode, 0, done.stderr)
        verdicts = read_store(store)
        self.assertEqual(verdicts[("standard", root)]["winner"], "white")
        first = next(move for child, move in engine.moves(root).items()
                     if (verdicts.get(("standard", child)) or {}).get("winner") == "white")
        books = self.path("books")
        os.mkdir(books)
        done = run("trees", store, "--roots", book, "--out", books, "--hash", "4", "--leaf-nodes", "100",
                   "--engine", PODIUM)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(os.path.join(books, "roots-01.txt"), encoding="utf-8") as handle:
            written = handle.read()
        self.assertIn(f'--fen "{root}" --first-move {first} --hash 4 --tree --leaf-nodes 100', written)
        # The same book the root's own proof writes, where it finds the same move.
        solve = subprocess.run([PODIUM, "solve", "--game", "pods", "--variant", "standard", "--fen", root,
                                "--hash", "4", "--tree", "--leaf-nodes", "100"], capture_output=True, text=True)
        self.assertTrue(solve.stdout.startswith(f"{root} {first} "), solve.stdout)
        self.assertEqual("".join(line + "\n" for line in written.splitlines() if not line.startswith("#")),
                         solve.stdout)
        # A move that does not win is refused (the first in the engine's order that a proof of the
        # position after it says Black wins), and so is one that is not legal.

        def first_move_tree(move: str) -> subprocess.CompletedProcess:
            return subprocess.run([PODIUM, "solve", "--variant", "standard", "--fen", root, "--hash", "4",
                                   "--tree", "--first-move", move], capture_output=True, text=True)

        losing = next(move for child, move in engine.moves(root).items()
                      if solve_table.solve_answer(PODIUM, "standard", child, None, 4)["winner"] == "p2")
        for move, why in ((losing, f"{losing} is not proved to win"), ("zz", "zz: not a legal move here")):
            refused = first_move_tree(move)
            self.assertNotEqual(refused.returncode, 0)
            self.assertIn(why, refused.stderr)

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

    def test_settle_records_what_the_stores_prove_and_proves_nothing(self):
        # A made-up tree two plies deep whose sub-proofs are all in the stores, r11 open: a walk
        # that may not prove settles the root from them and writes what it settled; a walk whose
        # limit of proofs is spent before it starts settles nothing.
        for settle, winner in ((True, "white"), (False, None)):
            walk = self.stub_walk("white", prove=True, store="settled.jsonl", settle=settle,
                                  max_proofs=None if settle else 0)
            walk.store = {("standard", "r12 w"): {"winner": "black"}, ("standard", "r21 w"): {"winner": "white"},
                          ("standard", "r11 w"): {"winner": None, "cpu_limit": 30}}
            self.assertEqual(walk.value("root w", 0), winner)
            self.assertEqual(walk.proofs_run, 0)
        written = lines(self.path("settled.jsonl"))
        self.assertEqual([(entry["position"], entry["winner"], entry["by"]) for entry in written],
                         [("m1 b", "black", "tree"), ("m2 b", "white", "tree"), ("root w", "white", "tree")])

    def test_a_settle_runs_no_ordering_search(self):
        # Ordering changes no verdict a settle reads, and cost minutes an opening of std200.txt.
        for settle, order_nodes in ((True, 0), (False, 20_000)):
            args = campaign.argparse.Namespace(
                engine=PODIUM, variant="standard", order_nodes=20_000, also=[], store=self.path("unused.jsonl"),
                split=2, shard=(0, 1), fail_fast=False, settle=settle, max_proofs=None, deepen=0, cpu_limit=1)
            walk = campaign.Campaign(args, prove=False)
            self.addCleanup(walk.engine.close)
            self.assertEqual(walk.engine.order_nodes, order_nodes, f"--settle {settle}")

    def test_moves_come_best_first_for_the_side_to_move(self):
        # After Black's first move from ROOT, White wins: the child the search orders first is a
        # White win by `podium solve`, and the children's scores (each its own mover's) rise.
        engine = campaign.Engine(PODIUM, "standard", 20_000)
        self.addCleanup(engine.close)
        after_black = engine.children(ROOT)[0]
        ordered = engine.children(after_black)
        scores = [engine.score(child) for child in ordered]
        self.assertEqual(scores, sorted(scores))
        self.assertLess(scores[0], scores[-1])
        unordered = campaign.Engine(PODIUM, "standard", 0)
        self.addCleanup(unordered.close)
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


class Certificate(unittest.TestCase):
    def test_steps_the_tree_does_not_reach_are_left_out(self):
        # Two proofs met at B with different moves: the one kept (b2) leads to B2, and B3's leaf,
        # below the other (b3), is reached by nothing.
        class Moves:
            children = {"R": {"A": "a1", "B": "b1"}, "A": {"A1": "a2"}, "B": {"B2": "b2", "B3": "b3"}}

            def moves(self, position: str) -> dict[str, str]:
                return dict(self.children.get(position, {}))

        steps = {"A": "move A a2", "A1": "leaf A1 3", "B": "move B b2", "B2": "leaf B2 5", "B3": "leaf B3 7"}
        kept = campaign.reached_steps(Moves(), "R", steps)
        self.assertEqual(list(kept), ["A", "A1", "B", "B2"])
        steps["B"] = "move B c1"
        with self.assertRaisesRegex(campaign.CampaignError, "B: the winner's move c1 is not legal"):
            campaign.reached_steps(Moves(), "R", steps)

    def test_a_sub_proof_is_proved_again_with_the_table_the_store_names(self):
        # df-pn's time depends on its table: a proof made again gets the store's size, unless
        # --hash says otherwise, and 64 MB where the store names none.
        asked = []

        def solve(engine, variant, fen, movetime, hash_mb, cpu_limit=None, extra=()):
            asked.append((hash_mb, cpu_limit))
            return {"proven": True, "winner": "p1"}

        with tempfile.TemporaryDirectory() as folder, unittest.mock.patch.object(campaign, "solve_answer", solve):
            args = argparse.Namespace(certificates=folder, engine="podium", variant="standard", hash=None)
            campaign.prove_again(args, "P1", {"winner": "white", "hash_mb": 1024, "cpu_ms": 9100})
            campaign.prove_again(args, "P2", {"winner": "white", "cpu_ms": 100})
            args.hash = 8
            campaign.prove_again(args, "P3", {"winner": "white", "hash_mb": 1024, "cpu_ms": 100})
        self.assertEqual(asked, [(1024, 40), (64, 30), (8, 30)])


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

    def test_every_proved_opening_of_the_committed_book_is_carried_by_the_engine(self):
        # The committed store and the engine's books go together: an opening proved without its
        # book is a won game the engine may let go (docs/pods-strength.md, "Letting a won game go").
        data = os.path.join(SCRIPTS, "data", "campaign")
        store = read_store(os.path.join(data, "std200-verdicts.jsonl"))
        roots = campaign.read_roots(os.path.join(data, "std200.txt"))
        books = os.path.join(REPOSITORY, "src", "games", "pods", "book")
        proved = [number for number, root in enumerate(roots, 1) if (store.get(("standard", root)) or {}).get("winner")]
        self.assertGreater(len(proved), 80)
        missing = [number for number in proved if not os.path.exists(os.path.join(books, f"std200-{number:02d}.txt"))]
        self.assertEqual(missing, [], "proved openings without a book: run scripts/campaign.py trees (docs/solving.md)")

    def test_a_merge_holds_back_the_proved_roots_without_a_book(self):
        with tempfile.TemporaryDirectory() as directory:
            def path(name: str) -> str:
                return os.path.join(directory, name)

            with open(path("roots.txt"), "w", encoding="utf-8") as handle:
                handle.write("# three roots\nr1 w\nr2 w\nr3 w\n")
            os.mkdir(path("books"))
            open(path("books/roots-01.txt"), "w").close()
            rows = [{"variant": "standard", "position": "r1 w", "winner": "white", "by": "tree"},
                    {"variant": "standard", "position": "r2 w", "winner": "black", "by": "tree"},
                    {"variant": "standard", "position": "r3 w", "winner": None, "by": "solve", "cpu_limit": 90},
                    {"variant": "standard", "position": "m2 b", "winner": "black", "by": "solve", "cpu_limit": 600}]
            with open(path("store.jsonl"), "w", encoding="utf-8") as handle:
                handle.writelines(json.dumps(row) + "\n" for row in rows)
            done = run("merge", path("merged.jsonl"), path("store.jsonl"), "--unbooked-roots", path("roots.txt"),
                       "--books", path("books"))
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertIn("3 positions, 2 proved, 1 proved roots without a book held back", done.stdout)
            # r2 is proved but has no book: left out; r1 has its book, r3 is open, m2 is no root.
            self.assertEqual([row["position"] for row in lines(path("merged.jsonl"))], ["r1 w", "r3 w", "m2 b"])
            refused = run("merge", path("merged.jsonl"), path("store.jsonl"), "--books", path("books"))
            self.assertEqual(refused.returncode, 2)
            self.assertIn("--unbooked-roots and --books go together", refused.stderr)

    def test_the_shard_of_a_position_is_stable(self):
        self.assertEqual(campaign.shard_of(ROOT, 7), campaign.shard_of(ROOT, 7))
        self.assertEqual({campaign.shard_of(f"p{n}", 3) for n in range(100)}, {0, 1, 2})


if __name__ == "__main__":
    unittest.main()
