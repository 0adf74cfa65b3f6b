#!/usr/bin/env python3
"""A proof campaign: who wins a Pods position (by default the standard game's start) with perfect
play, its proof split into sub-proofs a few plies deep, each proved by its own `podium solve`
process, the verdicts kept in a store that a rerun extends instead of redoing.

    campaign.py run STORE [--root POSITION | --roots FILE] [--variant standard] [--split 4] [--cpu-limit S]
                          [--hash MB] [--certificates DIR] [--also FILE ...] [--shard I/N]
                          [--max-proofs N] [--fail-fast [--winner mover|white|black]] [--settle]
                          [--deepen N] [--order-nodes N] [--engine PATH]
    campaign.py merge OUT FILE...
    campaign.py certificate STORE OUT --certificates DIR [--root POSITION] [--also FILE ...]
                               [--prove-missing [--jobs N] [--hash MB]]
    campaign.py status STORE [--root POSITION | --roots FILE] [--variant standard] [--also FILE ...]
                           [--open-roots] [--engine PATH]
    campaign.py book [--opening POSITION] CERTIFICATE OUT [--below-leaves [--leaf-nodes N] [--jobs N]]
                     [--engine PATH]
    campaign.py trees STORE --roots FILE --out DIR [--also FILE ...] [--hash MB] [--leaf-nodes N]
                          [--time-limit S] [--jobs N] [--only N[,N...]] [--engine PATH]

`run` walks the tree of positions from the root down to --split plies, as a proof would, the
moves best first for the side to move as a search of --order-nodes nodes (default 20,000; 0: the
engine's move order) scores the position after each, so that a winning move or a refutation tends
to come first: at a node the side to move wins as soon as one child is won for it, and
loses once every child is lost for it; a child that settles its node ends the node's walk. Each
position --split plies down (a sub-proof) is proved by `podium solve --json`, given --cpu-limit
seconds of CPU time (default 10), with --certificates DIR writing its proof tree there. Every
verdict is appended to STORE at once (scripts/podium/verdicts.py: the format scripts/perfect_play.py
reads and writes), nodes above the sub-proofs too, once their children settle them: a stop loses
at most the sub-proof being proved, and a rerun skips whatever STORE (and every --also FILE, read
only) already settles, and every sub-proof already tried with as much CPU time. A larger
--cpu-limit tries the open sub-proofs again; --deepen N walks on below those left open at
--cpu-limit, their children sub-proofs in turn, down to N plies more, so that the walk goes deeper
only where the proofs at --split did not end.

Many machines, or many cores: --shard I/N proves only the sub-proofs whose position falls in
shard I of N (by a hash of the position line; I from 0), each shard appending to a store of its
own, reading the others' through --also; `merge OUT FILE...` combines stores into OUT (a proved
verdict outweighs an unproved one). docs/solving.md shows a GNU parallel and a Slurm array run.

`certificate` writes one certificate of the root's proof (docs/solving.md, "Certificates"; gzip if
OUT ends in .gz): the winner's move at each of its turns above the sub-proofs, then the sub-proofs'
own certificates, for tests/certificate.rs to check.

--roots FILE proves each position of FILE in turn (a book of openings, one position line a line,
`#` comments), in one store: how many of them are proved is the campaign's progress.

`frontier` prints, for each open root and each move of its mover not yet refuted, the position
after the reply a search of --order-nodes nodes plays to it (--replies N: after each of the N
best as such searches of every reply rank them), where no proof was ever asked of that
position: the first sub-proofs of each move's refutation, for `run --roots FILE --split 0` to ask
of every move at once (a walk asks them one move after another); --answer MOVE asks one reply of
every move where it is legal, for the reply that refuted the first few moves tried. With --moves it prints
the position after each such move itself, asked before or not (`run --cpu-limit` passes over those
tried that long already): one proof of a whole move often costs less than its replies' proofs.

`book` writes the winner's move at each of its turns in a certificate's tree, with the most plies
the game then lasts along the tree, as a book the engine carries (src/games/pods/book.rs). With
--below-leaves it adds below each leaf (where the endgame solver proved) the tree `podium solve
--tree` writes, down to where play proves by itself: an opening's book as `trees` would write it,
for a root whose proof one `podium solve` cannot make again (the campaign's walks proved it).

`trees` writes, for each root of --roots FILE that the stores prove and that has no book in DIR yet,
the book of its proof tree as `podium solve --tree` writes it (the winner's move at every position
of one proof, for every reply of the loser, down to positions that prove within --leaf-nodes nodes
where the search in play tries proofs), headed by the command: `DIR/<stem>-NN.txt`, NN the root's
number in FILE and <stem> FILE's name without its extension (the build packs every file there). A
root not proved within --time-limit seconds is reported and left without one, and so is a root that
play proves by itself (the tree is empty). Where the side to move wins and the stores prove one of
its moves won, the tree is written from that move (`podium solve --tree --first-move MOVE`): the
same book where the root's proof finds that move, without refuting again at the root the moves the
stores refuted, which may take far longer than the win. --only N,... writes only those roots' books.

`status` prints the root's verdict (with --roots, how many of the roots are proved), the count of
sub-proofs proved and open (with the CPU time they were given) and of positions above them
settled, and the CPU time of the records kept (one a position: a proof over any attempt, else the
longest attempt; what the others took is not counted, so it is not the campaign's whole CPU
time); with --open-roots, for each open root how many of its mover's moves are refuted, and the
open move with most replies proved for the mover (a root refuted but for a few moves is walked
with `run --winner` for the other side).

Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed

from podium.verdicts import SIDES, StoreError, append, better, read_store
from solve_table import DEFAULT_PODIUM, SolveError, solve_answer

START = {"standard": "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0"}


class CampaignError(Exception):
    """A campaign that cannot go on: the message says what to fix."""


def shard_of(position: str, shards: int) -> int:
    return int.from_bytes(hashlib.sha256(position.encode()).digest()[:8], "big") % shards


def mover_of(position: str) -> str:
    """The side to move of a Pods position line ("white" or "black")."""
    try:
        return {"w": "white", "b": "black"}[position.split()[1]]
    except (IndexError, KeyError):
        raise CampaignError(f"not a Pods position line: {position!r}") from None


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


class Engine:
    """One podium process speaking the protocol, for the moves of a position and the positions
    after them."""

    def __init__(self, path: str, variant: str, order_nodes: int):
        self.order_nodes, self.variant = order_nodes, variant
        try:
            self.process = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL, text=True)
        except OSError as error:
            raise CampaignError(f"cannot start {path}: {error.strerror}") from None
        self.path = path
        # Enough for the ordering searches, and quick to clear before each.
        self.send("setoption name Hash value 4")
        self.send(f"newgame {variant}")

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        self.process.stdin.close()
        self.process.stdout.close()

    def send(self, line: str) -> None:
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            raise CampaignError(f"{self.path} exited") from None

    def answer(self, line: str) -> str:
        self.send(line)
        reply = self.process.stdout.readline()
        if not reply:
            raise CampaignError(f"{self.path} exited")
        if reply.startswith("info string error"):
            raise CampaignError(f"{self.path}: {line}: {reply.strip()}")
        return reply.strip()

    def moves(self, position: str) -> dict[str, str]:
        """The position after each legal move of `position`, by the first move (in the engine's
        order) that reaches it."""
        children: dict[str, str] = {}
        for move in self.legal_moves(position):
            children.setdefault(self.after(position, move), move)
        return children

    def legal_moves(self, position: str) -> list[str]:
        """The legal moves of `position`, in the engine's order."""
        self.send(f"position fen {position}")
        moves = self.answer("moves").split()
        return moves if moves != ["(none)"] else []

    def after(self, position: str, move: str) -> str:
        """The position after `move`, a legal move of `position`."""
        self.send(f"position fen {position} moves {move}")
        reply = self.answer("query fen")
        if not reply.startswith("response "):
            raise CampaignError(f"{self.path}: query fen: {reply}")
        return reply.removeprefix("response ")

    def children(self, position: str) -> list[str]:
        """The positions after each legal move of `position`, each once: best first for the side to
        move as searches of `order_nodes` nodes score them (ties, and with 0 nodes all, in the
        engine's move order)."""
        children = list(self.moves(position))
        if self.order_nodes:
            # A child's score is its own mover's: the lowest is the best for `position`'s mover.
            children.sort(key=self.score)
        return children

    def score(self, position: str) -> int:
        """The search's score of `position` for its side to move, a forced result beyond any
        centipawns (a quicker win higher, a quicker loss lower; 0 for a finished game)."""
        return self.search(position)[0]

    def best_move(self, position: str) -> str | None:
        """The move a search of `order_nodes` nodes plays in `position`, None for a finished game."""
        return self.search(position)[1]

    def search(self, position: str) -> tuple[int, str | None]:
        """A search of `order_nodes` nodes: its score (see `score`) and its move. A new game first,
        so that both are the position's own, whatever was searched before."""
        self.send(f"newgame {self.variant}")
        self.send(f"position fen {position}")
        self.send(f"go nodes {self.order_nodes}")
        score = 0
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise CampaignError(f"{self.path} exited")
            fields = line.split()
            if fields[:1] == ["bestmove"]:
                return score, (fields[1] if fields[1:2] != ["(none)"] else None)
            if fields[:2] == ["info", "string"] or "score" not in fields:
                continue
            kind, value = (fields[fields.index("score") + 1:] + ["", ""])[:2]
            if kind == "cp":
                score = int(value)
            elif kind == "mate":
                moves = int(value)
                score = 100_000 - moves if moves > 0 else -100_000 - moves


def read_stores(args: argparse.Namespace) -> dict[tuple[str, str], dict]:
    """The verdicts of every --also store and of the store itself, the best of each position's."""
    store: dict[tuple[str, str], dict] = {}
    for path in [*args.also, args.store]:
        read_store(path, store)
    return store


class Campaign:
    def __init__(self, args: argparse.Namespace, prove: bool):
        self.args, self.prove = args, prove
        # A settle only reads verdicts: the order it meets a node's children in changes none.
        self.engine = Engine(args.engine, args.variant, 0 if args.settle else args.order_nodes)
        self.store = read_stores(args)
        self.children: dict[str, list[str]] = {}
        self.proofs_run = 0
        # Proofs run for the root being walked, which --max-proofs limits.
        self.root_proofs = 0
        # The side the walk tries to prove wins the root being walked (--fail-fast, --winner).
        self.prover: str | None = None
        self.counts = {"proved": 0, "open": 0, "untried": 0, "other shards'": 0}
        self.cpu_ms = 0
        self.visited: set[str] = set()

    def known(self, position: str) -> dict | None:
        return self.store.get((self.args.variant, position))

    def record(self, entry: dict) -> None:
        entry = {"variant": self.args.variant, **entry}
        if better(entry, self.known(entry["position"])):
            self.store[(self.args.variant, entry["position"])] = entry
            if self.prove:
                append(self.args.store, entry)

    def count(self, position: str, entry: dict | None, kind: str) -> None:
        if position not in self.visited:
            self.visited.add(position)
            self.counts[kind] += 1
            if entry and entry.get("by") == "solve":
                self.cpu_ms += entry.get("cpu_ms") or 0

    def sub_proof(self, position: str) -> str | None:
        entry = self.known(position)
        if entry and entry["winner"] is not None:
            self.count(position, entry, "proved")
            return entry["winner"]
        if self.tried(position):
            self.count(position, entry, "open")
            return None
        shard, shards = self.args.shard
        if shard_of(position, shards) != shard:
            self.count(position, entry, "other shards'")
            return None
        if (not self.prove or self.args.settle
                or (self.args.max_proofs is not None and self.root_proofs >= self.args.max_proofs)):
            self.count(position, entry, "untried")
            return None
        self.proofs_run += 1
        self.root_proofs += 1
        certificate = None
        extra: tuple[str, ...] = ()
        if self.args.certificates:
            os.makedirs(self.args.certificates, exist_ok=True)
            certificate = os.path.join(self.args.certificates, certificate_name(position))
            extra = ("--certificate", certificate)
        before = os.times()
        answer = solve_answer(self.args.engine, self.args.variant, position, None, self.args.hash,
                              self.args.cpu_limit, extra)
        after = os.times()
        cpu_ms = round(1000 * ((after.children_user - before.children_user)
                               + (after.children_system - before.children_system)))
        winner = proved_winner(position, answer)
        # The table size goes with the limit: "open at 120 s" says little without it.
        entry = {"position": position, "winner": winner, "by": "solve", "cpu_limit": self.args.cpu_limit,
                 "hash_mb": self.args.hash, "cpu_ms": cpu_ms, "nodes": answer.get("nodes", 0),
                 "certificate": os.path.basename(certificate) if certificate and winner else None}
        if certificate and not winner and os.path.exists(certificate):
            os.unlink(certificate)
        self.record(entry)
        self.count(position, entry, "proved" if winner else "open")
        print(f"{self.proofs_run}: {winner or 'not proved'} in {cpu_ms} ms CPU, {entry['nodes']} nodes: {position}",
              file=sys.stderr, flush=True)
        return winner

    def tried(self, position: str) -> bool:
        """Whether a proof of `position` was run with --cpu-limit or more and did not end it."""
        entry = self.known(position)
        return bool(entry and entry["winner"] is None and (entry.get("cpu_limit") or 0) >= self.args.cpu_limit)

    def value(self, position: str, depth: int) -> str | None:
        """The side that wins `position`, None while open."""
        if self.args.max_proofs is not None and self.root_proofs >= self.args.max_proofs:
            return None
        entry = self.known(position)
        if entry and entry["winner"] is not None and depth < self.args.split:
            return entry["winner"]
        if depth >= self.args.split:
            verdict = self.sub_proof(position)
            if verdict or depth >= self.args.split + self.args.deepen or not self.tried(position):
                return verdict
            # Open at --cpu-limit: its children are sub-proofs in turn, down to --deepen plies more.
        if position not in self.children:
            self.children[position] = self.engine.children(position)
        children = self.children[position]
        if not children:
            return self.sub_proof(position)
        mover = mover_of(position)
        unknown = False
        for child in children:
            proofs_before = self.proofs_run
            won = self.value(child, depth + 1)
            if won == mover:
                self.record({"position": position, "winner": mover, "by": "tree"})
                return mover
            if won is None and self.args.fail_fast and mover != self.prover and self.proofs_run > proofs_before:
                # The prover cannot prove this move of the other side on this run: on to its next.
                # A move left open by an earlier run (no proof run below it now) is passed over
                # instead, or every rerun would stop at it and never learn the moves after it.
                return None
            unknown |= won is None
        if unknown:
            return None
        self.record({"position": position, "winner": other(mover), "by": "tree"})
        return other(mover)


def open_roots(moves: Callable[[str], list[str]], winner: Callable[[str], str | None],
               roots: list[str]) -> Iterator[str]:
    """A line for each open root: how many of its mover's moves the other side is proved to win,
    the move or one of its replies (refuted), and of the moves still open the one with most
    replies proved for the mover, with those replies left open where at most three are. A root
    refuted but for a few moves, their replies not proved for the mover, is likely the other
    side's (`run --winner`); one move whose replies are proved but for a few names the
    sub-proofs that may settle it."""
    for number, root in enumerate(roots, 1):
        if winner(root):
            continue
        mover = mover_of(root)
        children = moves(root)
        refuted = 0
        line = f"{number}: {len(children)} moves of {mover}"
        best: tuple[int, int, list[str]] | None = None
        for child in children:
            if winner(child) == mover:
                continue
            replies = moves(child)
            # A reply proved for the other side refutes the move before a settle records it.
            if winner(child) == other(mover) or any(winner(reply) == other(mover) for reply in replies):
                refuted += 1
                continue
            proved = sum(winner(reply) == mover for reply in replies)
            if best is None or proved > best[0]:
                best = (proved, len(replies), [reply for reply in replies if winner(reply) != mover])
        line += f", {refuted} refuted"
        if best:
            line += f"; the open move with most replies proved for {mover}: {best[0]} of {best[1]}"
            if len(best[2]) <= 3:
                line += ", open: " + ", ".join(best[2])
        yield line


def frontier(moves: Callable[[str], list[str]], best_replies: Callable[[str], list[str]] | None,
             known: Callable[[str], dict | None], roots: list[str]) -> Iterator[str]:
    """For each open root, each move of its mover not yet refuted: the positions after the best
    replies to it (`best_replies`: the one a search plays, or the first few as searches rank
    them), where no proof was ever asked of that position. These are the first sub-proofs a
    refutation of the root asks, asked of every move at once: a walk meets them one move after
    another, and gives up a root at a move it cannot refute. Without `best_replies` (`--moves`),
    the position after each such move itself: one proof of a whole move often costs less than
    proving its replies one at a time."""
    def winner(position: str) -> str | None:
        return (known(position) or {}).get("winner")

    # Two moves answered may reach one position (placements commute): it is printed once.
    printed = set()
    for root in roots:
        if winner(root):
            continue
        mover = mover_of(root)
        for child in moves(root):
            if winner(child) or any(winner(reply) == other(mover) for reply in moves(child)):
                continue
            if best_replies:
                wanted = [reply for reply in best_replies(child) if known(reply) is None]
            else:
                wanted = [child]
            for position in wanted:
                if position not in printed:
                    printed.add(position)
                    yield position


def proved_winner(position: str, answer: dict) -> str | None:
    """The side `podium solve`'s answer on `position` proves the winner, None if not proved."""
    if not answer.get("proven"):
        return None
    winner = {"p1": "white", "p2": "black"}.get(answer.get("winner"))
    if winner is None:
        raise CampaignError(f"podium solve proved {position} without a winner p1 or p2: {answer}")
    return winner


# A sub-proof's table where the store does not say which it had.
DEFAULT_PROOF_HASH_MB = 64


def certificate_name(position: str) -> str:
    """The file name of a sub-proof's certificate: the same position always gets the same name."""
    return hashlib.sha256(position.encode()).hexdigest()[:16] + ".txt"


def prove_again(args: argparse.Namespace, position: str, entry: dict) -> str:
    """Proves a sub-proof again with `podium solve --certificate`, for a store made without
    --certificates or on another machine; returns its certificate's name. The proof gets four times
    the CPU time it was proved in (at least 30 s): another build or machine may make it slower here
    (one proved in 26 s took 71 s on 2026-12-02)."""
    name = certificate_name(position)
    path = os.path.join(args.certificates, name)
    os.makedirs(args.certificates, exist_ok=True)
    cpu_limit = max(30, 4 * -(-(entry.get("cpu_ms") or 0) // 1000))
    # The table the store's proof had unless --hash says otherwise: df-pn in a smaller one can take
    # many times longer (one proved in 6.7 s at 1,024 MB stayed open for 40 s at 256 MB).
    hash_mb = args.hash or entry.get("hash_mb") or DEFAULT_PROOF_HASH_MB
    answer = solve_answer(args.engine, args.variant, position, None, hash_mb, cpu_limit,
                          ("--certificate", path))
    winner = proved_winner(position, answer)
    if winner != entry["winner"]:
        if os.path.exists(path):
            os.unlink(path)
        found = f"{winner} wins" if winner else f"not proved within {cpu_limit} s of CPU"
        raise CampaignError(f"{position}: proved again for its certificate, {found}; the store says "
                            f"{entry['winner']} wins")
    print(f"proved again for its certificate: {position}", file=sys.stderr, flush=True)
    return name


def sub_certificate(path: str, position: str, winner: str) -> tuple[list[str], list[str], int]:
    """The header lines (`game`, `board`, `pods`, `placement-liberty`), the step lines and the
    plies of the certificate `path` of the sub-proof of `position`, which `winner` wins."""
    header, steps, fields = [], [], {}
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                line = line.rstrip("\n")
                word, _, rest = line.partition(" ")
                if word in ("move", "leaf"):
                    steps.append(line)
                elif word in ("game", "board", "pods", "placement-liberty"):
                    header.append(line)
                elif word in ("root", "winner", "plies"):
                    fields[word] = rest
    except OSError as error:
        raise CampaignError(f"{path}: {error.strerror}") from None
    if fields.get("root") != position or fields.get("winner") != winner or not fields.get("plies", "").isdigit():
        raise CampaignError(f"{path}: not the certificate of {position} won by {winner}")
    return header, steps, int(fields["plies"])


def write_certificate(args: argparse.Namespace) -> str:
    """Writes one certificate of the root's proof to args.out (gzip if it ends in .gz): the store's
    moves above the sub-proofs (the first child proved a win for the winner where the winner moves,
    every child where the loser does), then each sub-proof's own certificate; a position met twice
    keeps its first step, and where two steps of one position differed, the lines only the other
    one led to are left out. Returns a summary line."""
    store = read_stores(args)
    root = store.get((args.variant, args.root))
    if not root or root["winner"] is None:
        raise CampaignError(f"the store does not settle {args.root}: nothing to certify")
    winner = root["winner"]
    engine = Engine(args.engine, args.variant, 0)
    header: list[str] = []
    steps: dict[str, str] = {}
    plies, sub_proofs, visited, differed = 0, 0, set(), False

    def keep(position: str, line: str) -> None:
        nonlocal differed
        differed |= steps.setdefault(position, line) != line

    def certificate_found(position: str, entry: dict) -> str | None:
        # The store's name, or the one a proof made again here (or by an earlier --prove-missing) wrote.
        for name in (entry.get("certificate"), certificate_name(position)):
            if name and os.path.exists(os.path.join(args.certificates, name)):
                return name
        return None

    def walk(position: str, depth: int, missing: list[tuple[str, dict]] | None = None) -> None:
        """The proof below `position`; with `missing`, only the sub-proofs without a certificate,
        collected there."""
        nonlocal header, plies, sub_proofs
        if position in visited:
            return
        visited.add(position)
        entry = store.get((args.variant, position))
        if not entry or entry["winner"] != winner:
            raise CampaignError(f"{position}: the store does not say {winner} wins it")
        if entry.get("by") == "solve":
            name = certificate_found(position, entry)
            if missing is not None:
                if name is None:
                    missing.append((position, entry))
                return
            if name is None:
                if not args.prove_missing:
                    raise CampaignError(f"{position}: no certificate of its sub-proof in {args.certificates} "
                                        "(--prove-missing proves it again)")
                name = prove_again(args, position, entry)
            lines, sub_steps, sub_plies = sub_certificate(os.path.join(args.certificates, name), position, winner)
            if header and lines != header:
                raise CampaignError(f"{name}: another game than the other certificates'")
            header = lines
            for line in sub_steps:
                keep(line.split(" ", 1)[1].rsplit(" ", 1)[0], line)
            plies, sub_proofs = max(plies, depth + sub_plies), sub_proofs + 1
            return
        children = engine.moves(position)
        if mover_of(position) == winner:
            move, child = next(((move, child) for child, move in children.items()
                                if (store.get((args.variant, child)) or {}).get("winner") == winner), (None, None))
            if move is None:
                raise CampaignError(f"{position}: no move the store proves a win for {winner}")
            if missing is None:
                keep(position, f"move {position} {move}")
            walk(child, depth + 1, missing)
        else:
            plies = max(plies, depth + 1)
            for child in children:
                walk(child, depth + 1, missing)

    if args.prove_missing and args.jobs > 1:
        # The sub-proofs to prove again first, on --jobs processes at once; the walk then finds them.
        missing: list[tuple[str, dict]] = []
        walk(args.root, 0, missing)
        visited.clear()
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for done in as_completed([pool.submit(prove_again, args, position, entry) for position, entry in missing]):
                done.result()
    walk(args.root, 0)
    if not header:
        raise CampaignError("no sub-proof on the proof: nothing says which board and pods")
    if differed:
        steps = reached_steps(engine, args.root, steps)
    temporary = args.out + ".writing"
    # No name or time in the gzip header: the same proof makes the same bytes.
    compress = args.out.endswith(".gz")
    with open(temporary, "wb") as raw, (
            gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0) if compress else raw) as binary, \
            io.TextIOWrapper(binary, encoding="utf-8") as handle:
        handle.write("# A proof of who wins a Pods position: docs/solving.md says how to read and check it.\n")
        handle.write("certificate 1\n" + "\n".join(header) + "\n")
        handle.write(f"root {args.root}\nwinner {winner}\nplies {plies}\n")
        for line in steps.values():
            handle.write(line + "\n")
        handle.write("end\n")
    os.replace(temporary, args.out)
    return f"{args.out}: {winner} wins {args.root}; {len(steps)} steps, {sub_proofs} sub-proofs, at most {plies} plies"


def reached_steps(engine: Engine, root: str, steps: dict[str, str]) -> dict[str, str]:
    """The steps of `steps` (by position) that the tree from `root` reaches, in their order: the
    step's move at a position with a `move` step, every move at one without, none below a leaf.
    (Where two proofs met at a position with different steps, the lines below the step not kept
    are reached by nothing, and a checker takes them for a faulty writer's.)"""
    seen, stack = {root}, [root]
    while stack:
        position = stack.pop()
        word, _, rest = steps.get(position, "").partition(" ")
        if word == "leaf":
            continue
        children = engine.moves(position)
        if word == "move":
            move = rest.rsplit(" ", 1)[1]
            children = {child: by for child, by in children.items() if by.lower() == move.lower()}
            if not children:
                raise CampaignError(f"{position}: the winner's move {move} is not legal")
        for child in children:
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return {position: line for position, line in steps.items() if position in seen}


def read_certificate(path: str) -> tuple[dict[str, str], dict[str, str]]:
    """The header fields (`root`, `winner`, `plies`, ...) and the steps (a position line's `move X`
    or `leaf N`) of the certificate `path`, gzip or not."""
    fields, steps = {}, {}
    try:
        with (gzip.open(path, "rt", encoding="utf-8") if path.endswith(".gz")
              else open(path, encoding="utf-8")) as handle:
            for line in handle:
                word, _, rest = line.rstrip("\n").partition(" ")
                if word in ("move", "leaf"):
                    position, _, step = rest.rpartition(" ")
                    steps[position] = f"{word} {step}"
                elif word and not word.startswith("#"):
                    fields[word] = rest
    except (OSError, EOFError) as error:
        raise CampaignError(f"{path}: {getattr(error, 'strerror', None) or error}") from None
    if fields.get("certificate") != "1" or "end" not in fields or not {"root", "winner"} <= fields.keys():
        raise CampaignError(f"{path}: not a whole certificate of format 1")
    return fields, steps


def read_roots(path: str) -> list[str]:
    """The position lines of the file `path`, comments (`#`) and blank lines left out."""
    try:
        with open(path, encoding="utf-8") as handle:
            roots = [line.strip() for line in handle if line.strip() and not line.startswith("#")]
    except OSError as error:
        raise CampaignError(f"{path}: {error.strerror}") from None
    if not roots:
        raise CampaignError(f"{path}: no position in it")
    return roots


def tally(verdicts: list[str | None]) -> str:
    """How many of the roots are proved, by winner, and how many are open."""
    white, black = verdicts.count("white"), verdicts.count("black")
    return (f"roots: {white + black} of {len(verdicts)} proved ({white} white wins, {black} black wins), "
            f"{verdicts.count(None)} open")


def write_book(args: argparse.Namespace) -> str:
    """Writes the book of a certificate's proof to args.out: one line per winner's turn of the tree,
    `<position line> <move> <plies>`, the plies the most the game then lasts along the tree (the
    loser's every move followed, down to leaves and positions where the loser has no move), in the
    certificate's order. Returns a summary line."""
    fields, steps = read_certificate(args.certificate)
    engine = Engine(args.engine, variant_of(fields), 0)
    known: dict[str, int] = {}

    def plies(position: str) -> int:
        # Each position worked out once, however many paths reach it; the recursion is at most
        # the game's length deep.
        if position in known:
            return known[position]
        word, _, step = steps.get(position, " ").partition(" ")
        if word == "leaf":
            value = int(step)
        elif word == "move":
            value = 1 + plies(engine.after(position, step))
        else:
            children = engine.moves(position)
            value = 1 + max(map(plies, children)) if children else 0
        known[position] = value
        return value

    if args.opening and args.opening != fields["root"]:
        raise CampaignError(f"{args.certificate} proves {fields['root']}, not --opening {args.opening}")
    try:
        lines = [f"{position} {step.split()[1]} {plies(position)}" for position, step in steps.items()
                 if step.startswith("move ")]
        root_plies = plies(fields["root"])
    finally:
        engine.close()
    if str(root_plies) != fields.get("plies"):
        raise CampaignError(f"{args.certificate}: the tree lasts {root_plies} plies, the certificate says "
                            f"{fields.get('plies')}")
    written_by = " ".join(["python3 scripts/campaign.py book",
                           *([f'--opening "{args.opening}"'] if args.opening else []), args.certificate, args.out,
                           *([f"--below-leaves --leaf-nodes {args.leaf_nodes}"] if args.below_leaves else [])])
    about = ("# at every position of the proof, for every reply of the loser, down to the positions\n"
             "# the endgame solver proved; then the plies the game lasts at most.\n")
    if args.below_leaves:
        lines = known_once(lines + trees_below_leaves(args, fields, steps))
        about = ("# at every position of the proof, for every reply of the loser, down to the positions the\n"
                 "# endgame solver proved, and below each of those its proof tree\n"
                 f"# (`podium solve --variant {variant_of(fields)} --tree --leaf-nodes {args.leaf_nodes}`), down to\n"
                 f"# positions that prove within {args.leaf_nodes:,} nodes where the search in play tries proofs;\n"
                 "# then the plies the game lasts at most.\n")
    temporary = args.out + ".writing"
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(f"# The proof tree of {fields['root']} (a win for {fields['winner']}): the winner's move\n")
        handle.write(about)
        handle.write(f"# Written by: {written_by}\n")
        if args.certificate_made_by:
            handle.write(f"# {os.path.basename(args.certificate)}: {args.certificate_made_by}\n")
        handle.write(f"# Proved again by: {proved_by(args)}\n")
        handle.write("".join(line + "\n" for line in lines))
    os.replace(temporary, args.out)
    return f"{args.out}: {len(lines)} positions, the game lasting at most {root_plies} plies"


def proved_by(args: argparse.Namespace) -> str:
    """The command that checks a book, for its header: the start's certificate is committed and its
    test reads it; an opening's is not, and the book tests prove the opening's entries again."""
    if args.proved_by:
        return args.proved_by
    return "cargo test --release --lib pods::book" if args.opening else "cargo test --release --test certificate"


def trees_below_leaves(args: argparse.Namespace, fields: dict[str, str], steps: dict[str, str]) -> list[str]:
    """The lines of `podium solve --tree` from each leaf of a certificate, in the leaves' order, on
    --jobs processes: a certificate ends where the endgame solver proves, often far from where play
    proves by itself, and the engine's books go on to there."""
    variant = variant_of(fields)
    leaves = [position for position, step in steps.items() if step.startswith("leaf ")]

    def tree(leaf: str) -> list[str]:
        done = subprocess.run(tree_command(args, variant, leaf), capture_output=True, text=True)
        if done.returncode != 0:
            raise CampaignError(f"{leaf}: podium solve --tree failed ({done.returncode}): {done.stderr.strip()[-300:]}")
        return done.stdout.splitlines()

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        return [line for lines in pool.map(tree, leaves) for line in lines]


def tree_command(args: argparse.Namespace, variant: str, position: str, first_move: str | None = None) -> list[str]:
    """`podium solve --tree` on `position` with --engine, --hash and --leaf-nodes (`trees`, and
    `book --below-leaves` below each leaf)."""
    return [args.engine, "solve", "--game", "pods", "--variant", variant, "--fen", position,
            *(["--first-move", first_move] if first_move else []),
            "--hash", str(args.hash), "--tree", "--leaf-nodes", str(args.leaf_nodes)]


def variant_of(fields: dict[str, str]) -> str:
    """The Pods variant a certificate's `game` line names."""
    return fields.get("game", "pods standard").removeprefix("pods ")


def known_once(lines: list[str]) -> list[str]:
    """`lines` (`<position line> <move> <plies>`), each position (its line without the move
    counter, as the engine's books key it) kept at its first line only."""
    seen: set[str] = set()
    kept = []
    for line in lines:
        key = " ".join(line.split()[:4])
        if key not in seen:
            seen.add(key)
            kept.append(line)
    return kept


def book_path(books: str, roots: str, number: int) -> str:
    """The book of the `number`th root (from 1) of the file `roots`, in the folder `books`."""
    stem = os.path.splitext(os.path.basename(roots))[0]
    return os.path.join(books, f"{stem}-{number:02d}.txt")


def write_trees(args: argparse.Namespace) -> int:
    """Writes the books of `trees` (see the module's text); returns how many roots got none."""
    store = read_stores(args)
    roots = read_roots(args.roots)
    beyond = sorted(number for number in args.only or () if not 1 <= number <= len(roots))
    if beyond:
        raise CampaignError(f"--only {beyond[0]}: {args.roots} has roots 1 to {len(roots)}")
    wanted = []
    for number, root in enumerate(roots, 1):
        winner = (store.get((args.variant, root)) or {}).get("winner")
        out = book_path(args.out, args.roots, number)
        if winner and not os.path.exists(out) and (not args.only or number in args.only):
            wanted.append((number, root, winner, out))

    first_moves = {}
    if any(mover_of(root) == winner for _, root, winner, _ in wanted):
        engine = Engine(args.engine, args.variant, 0)
        try:
            for number, root, winner, _ in wanted:
                if mover_of(root) == winner:
                    first_moves[number] = proved_first_move(engine, store, args.variant, root, winner)
        finally:
            engine.close()

    def write(number: int, root: str, winner: str, out: str) -> tuple[str, str]:
        first_move = first_moves.get(number)
        command = tree_command(args, args.variant, root, first_move)
        started = time.monotonic()
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=args.time_limit)
        except subprocess.TimeoutExpired:
            return "failed", f"root {number}: not proved within {args.time_limit} s, no book"
        if done.returncode != 0:
            reason = done.stderr.strip()[-300:]
            return "failed", f"root {number}: podium solve failed ({done.returncode}): {reason}"
        if not done.stdout.strip():
            return "needless", f"root {number}: play proves it within the leaves' nodes, no book needed"
        shown = " ".join(f'"{part}"' if part == root else part for part in ["podium", *command[1:]])
        header = (f"# The proof tree of opening {number} of the 4-ply balanced book {os.path.basename(args.roots)}"
                  f" (a win for {winner}): the\n"
                  "# winner's proved move at every position of one proof, for every reply of the loser, down to\n"
                  f"# positions that prove within {args.leaf_nodes:,} nodes where the search in play tries proofs.\n"
                  f"# Written by: {shown}\n"
                  "# Proved again by: cargo test --release --lib pods::book\n")
        temporary = out + ".writing"
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(header + done.stdout)
        os.replace(temporary, out)
        lines = done.stdout.count("\n")
        return "written", f"root {number}: {out}, {lines} positions, {time.monotonic() - started:.0f} s"

    outcomes = []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        # Said as each book is done, not in the roots' order: one slow tree holds up no other's line.
        for done in as_completed([pool.submit(write, *job) for job in wanted]):
            outcome, line = done.result()
            print(line, flush=True)
            outcomes.append(outcome)
    print(f"{outcomes.count('written')} books written, {outcomes.count('needless')} not needed, "
          f"{outcomes.count('failed')} roots not proved")
    return outcomes.count("failed")


def proved_first_move(engine: Engine, store: dict[tuple[str, str], dict], variant: str, root: str,
                      winner: str) -> str | None:
    """A move of `root` after which the stores prove `winner`, `root`'s side to move, wins; None if
    they prove none."""
    for child, move in engine.moves(root).items():
        if (store.get((variant, child)) or {}).get("winner") == winner:
            return move
    return None


def parse_numbers(text: str) -> set[int]:
    try:
        return {int(part) for part in text.split(",")}
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected root numbers, as 145 or 19,48") from None


def parse_shard(text: str) -> tuple[int, int]:
    try:
        shard, shards = (int(part) for part in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected I/N, as 0/4") from None
    if not 0 <= shard < shards:
        raise argparse.ArgumentTypeError(f"{text!r}: I must be from 0 to N-1")
    return shard, shards


def add_root_arguments(parser: argparse.ArgumentParser) -> None:
    roots = parser.add_mutually_exclusive_group()
    roots.add_argument("--root", help="the position to prove (default: the variant's start)")
    roots.add_argument("--roots", metavar="FILE", help="prove each position of FILE (one a line) in turn")
    parser.add_argument("--variant", default="standard", choices=["standard"], help="the Pods variant")


def add_walk_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("store", help="the verdicts store (JSON lines), appended to")
    add_root_arguments(parser)
    parser.add_argument("--split", type=int, default=4, help="plies from the root to the sub-proofs (default 4)")
    parser.add_argument("--cpu-limit", type=int, default=10, metavar="S", help="CPU seconds per sub-proof")
    parser.add_argument("--deepen", type=int, default=0, metavar="N",
                        help="walk on below a sub-proof left open at --cpu-limit, each position down to N plies "
                             "more a sub-proof in turn (default 0)")
    parser.add_argument("--also", action="append", default=[], metavar="FILE", help="more stores, read only")
    parser.add_argument("--shard", type=parse_shard, default=(0, 1), metavar="I/N", help="this shard's sub-proofs only")
    parser.add_argument("--engine", default=DEFAULT_PODIUM, help="the podium binary (default: the release build)")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="prove the open sub-proofs, in the walk's order")
    add_walk_arguments(run)
    run.add_argument("--hash", type=int, default=64, help="hash size in MB of each sub-proof (default 64)")
    run.add_argument("--certificates", metavar="DIR", help="write each sub-proof's proof tree there")
    run.add_argument("--max-proofs", type=int, metavar="N",
                     help="stop after N sub-proofs (with --roots, N for each root: a hard one leaves the rest time)")
    run.add_argument("--fail-fast", action="store_true",
                     help="where the side that --winner names does not move, stop at the first reply this run "
                          "leaves open (one an earlier run left open is passed over): that side goes on to its "
                          "next move")
    run.add_argument("--winner", choices=["mover", "white", "black"], default="mover",
                     help="the side --fail-fast tries to prove wins each root (default: the root's mover; the "
                          "other side for roots refuted but for a few moves: status --open-roots)")
    run.add_argument("--settle", action="store_true",
                     help="prove nothing new: record what the stores already settle (after a merge of stores "
                          "that proved different parts of a root); no ordering searches")
    run.add_argument("--order-nodes", type=int, default=20_000, metavar="N",
                     help="nodes of the search that orders each node's moves (default 20000; 0: the engine's order)")
    status = commands.add_parser("status", help="how far the campaign is, proving nothing")
    status.add_argument("store", help="the verdicts store")
    add_root_arguments(status)
    status.add_argument("--also", action="append", default=[], metavar="FILE", help="more stores")
    status.add_argument("--open-roots", action="store_true",
                        help="for each open root, its moves refuted and the open move nearest a proof "
                             "(an engine round a position looked at)")
    status.add_argument("--engine", default=DEFAULT_PODIUM, help="the podium binary, for --open-roots")
    frontier_parser = commands.add_parser(
        "frontier", help="the reply a search plays to each move not yet refuted of each open root, never asked")
    frontier_parser.add_argument("store", help="the verdicts store")
    add_root_arguments(frontier_parser)
    frontier_parser.add_argument("--also", action="append", default=[], metavar="FILE", help="more stores")
    frontier_parser.add_argument("--order-nodes", type=int, default=20_000, metavar="N",
                                 help="nodes of the search that picks each reply (default 20000)")
    # --moves gives the moves themselves, so a count of replies to them means nothing beside it.
    replies_or_moves = frontier_parser.add_mutually_exclusive_group()
    replies_or_moves.add_argument("--replies", type=int, default=1, metavar="N",
                                  help="the N best replies to each move, as searches of each rank them (default 1: "
                                       "the one a search of the move plays)")
    replies_or_moves.add_argument("--moves", action="store_true",
                                  help="the position after each such move, asked before or not: `run --cpu-limit` "
                                       "passes over those already tried that long")
    replies_or_moves.add_argument("--answer", metavar="MOVE",
                                  help="the position after MOVE in reply to each such move where it is legal (the "
                                       "reply a search plays where not): one reply that refutes most of the moves, "
                                       "asked of all of them at once")
    frontier_parser.add_argument("--engine", default=DEFAULT_PODIUM, help="the podium binary")
    certificate = commands.add_parser("certificate", help="write one certificate of the root's proof")
    certificate.add_argument("store", help="the verdicts store")
    certificate.add_argument("out", help="the certificate written (gzip if it ends in .gz)")
    certificate.add_argument("--certificates", required=True, metavar="DIR", help="the sub-proofs' certificates")
    certificate.add_argument("--root", help="the position proved (default: the variant's start)")
    certificate.add_argument("--variant", default="standard", choices=["standard"], help="the Pods variant")
    certificate.add_argument("--also", action="append", default=[], metavar="FILE", help="more stores")
    certificate.add_argument("--engine", default=DEFAULT_PODIUM, help="the podium binary (default: the release build)")
    certificate.add_argument("--prove-missing", action="store_true",
                             help="prove again each sub-proof whose certificate is not in DIR, writing it there")
    certificate.add_argument("--hash", type=int,
                             help="hash size in MB of each proof with --prove-missing (default: the size the store "
                                  f"says the sub-proof was proved with, else {DEFAULT_PROOF_HASH_MB})")
    certificate.add_argument("--jobs", type=int, default=1, metavar="N",
                             help="with --prove-missing, sub-proofs proved again at once (default 1)")
    book = commands.add_parser("book", help="write the winner's moves of a certificate as a book the engine carries")
    book.add_argument("certificate", help="the certificate read (gzip if it ends in .gz)")
    book.add_argument("out", help="the book written")
    book.add_argument("--engine", default=DEFAULT_PODIUM, help="the podium binary (default: the release build)")
    book.add_argument("--proved-by", metavar="COMMAND",
                      help="the command that checks the book, for its header (default: the book tests with "
                           "--opening, else the certificate test)")
    book.add_argument("--certificate-made-by", metavar="COMMAND",
                      help="the command that wrote the certificate, for the header (a certificate not committed "
                           "can then be made again)")
    book.add_argument("--opening", metavar="POSITION",
                      help="the position the certificate must prove (an opening's book names it in its header)")
    book.add_argument("--below-leaves", action="store_true",
                      help="add below each leaf the proof tree of `podium solve --tree`, as `trees` writes them")
    book.add_argument("--leaf-nodes", type=int, default=20000, metavar="N",
                      help="with --below-leaves: positions proved within N nodes end the trees (default 20000)")
    book.add_argument("--hash", type=int, default=16, help="with --below-leaves: hash size in MB of each tree")
    book.add_argument("--jobs", type=int, default=1, metavar="N", help="with --below-leaves: trees made at once")
    trees = commands.add_parser("trees", help="write the books of the proved roots' proof trees")
    trees.add_argument("store", help="the verdicts store")
    trees.add_argument("--roots", required=True, metavar="FILE", help="the roots, one position line a line")
    trees.add_argument("--out", required=True, metavar="DIR", help="the folder of the books")
    trees.add_argument("--variant", default="standard", choices=["standard"], help="the Pods variant")
    trees.add_argument("--also", action="append", default=[], metavar="FILE", help="more stores")
    trees.add_argument("--hash", type=int, default=256, help="hash size in MB of each proof (default 256)")
    trees.add_argument("--leaf-nodes", type=int, default=20_000, metavar="N",
                       help="positions proved within N nodes end the trees (default 20000)")
    trees.add_argument("--time-limit", type=int, default=600, metavar="S", help="seconds per root (default 600)")
    trees.add_argument("--jobs", type=int, default=1, metavar="N", help="roots proved at once (default 1)")
    trees.add_argument("--engine", default=DEFAULT_PODIUM, help="the podium binary (default: the release build)")
    trees.add_argument("--only", type=parse_numbers, metavar="N[,N...]",
                       help="write only these roots' books (numbered from 1 in FILE)")
    merge = commands.add_parser("merge", help="combine stores into one")
    merge.add_argument("out", help="the store written (any verdicts it holds are kept)")
    merge.add_argument("files", nargs="+", help="the stores read")
    merge.add_argument("--unbooked-roots", metavar="FILE",
                       help="leave out the verdicts of FILE's roots (trees' numbering) that --books has no book "
                            "for: the store lands before a proved root's book is written, its root held back")
    merge.add_argument("--books", metavar="DIR", help="the books' folder, with --unbooked-roots")
    args = parser.parse_args(argv)
    try:
        if args.command == "merge":
            combined: dict = {}
            if (args.unbooked_roots is None) != (args.books is None):
                parser.error("--unbooked-roots and --books go together")
            for path in [args.out, *args.files]:
                read_store(path, combined)
            held_back = 0
            if args.unbooked_roots:
                for number, root in enumerate(read_roots(args.unbooked_roots), 1):
                    entry = combined.get(("standard", root))
                    book = book_path(args.books, args.unbooked_roots, number)
                    if entry and entry["winner"] and not os.path.exists(book):
                        del combined[("standard", root)]
                        held_back += 1
            temporary = args.out + ".merging"
            open(temporary, "w", encoding="utf-8").close()
            for entry in combined.values():
                append(temporary, entry)
            os.replace(temporary, args.out)
            proved = sum(entry["winner"] is not None for entry in combined.values())
            print(f"{args.out}: {len(combined)} positions, {proved} proved"
                  + (f", {held_back} proved roots without a book held back" if args.unbooked_roots else ""))
            return 0
        if args.command == "book":
            if min(args.jobs, args.hash, args.leaf_nodes) < 1:
                parser.error("--jobs, --hash and --leaf-nodes must be positive")
            print(write_book(args))
            return 0
        if args.command == "trees":
            if min(args.jobs, args.time_limit, args.hash, args.leaf_nodes) < 1:
                parser.error("--jobs, --time-limit, --hash and --leaf-nodes must be positive")
            return 1 if write_trees(args) else 0
        if args.command == "run" and (min(args.split, args.deepen, args.order_nodes) < 0
                                      or min(args.cpu_limit, args.hash) < 1):
            parser.error("--split, --deepen and --order-nodes must be 0 or more, --cpu-limit and --hash positive")
        args.root = args.root or START[args.variant]
        if args.command == "certificate":
            if args.jobs < 1 or (args.hash is not None and args.hash < 1):
                parser.error("--jobs and --hash must be positive")
            print(write_certificate(args))
            return 0
        roots = read_roots(args.roots) if getattr(args, "roots", None) else [args.root]
        if args.command == "frontier":
            if min(args.order_nodes, args.replies) < 1:
                parser.error("--order-nodes and --replies must be positive")
            store = read_stores(args)
            engine = Engine(args.engine, args.variant, args.order_nodes)

            def best_replies(position: str) -> list[str]:
                # Only the answer's position: every child's would cost a round trip a move.
                if args.answer and args.answer in engine.legal_moves(position):
                    return [engine.after(position, args.answer)]
                if args.replies > 1:
                    return engine.children(position)[:args.replies]
                # One search, where ranking every reply would take one a reply.
                move = engine.best_move(position)
                return [engine.after(position, move)] if move else []

            try:
                for line in frontier(lambda position: list(engine.moves(position)),
                                     None if args.moves else best_replies,
                                     lambda position: store.get((args.variant, position)), roots):
                    print(line, flush=True)
            finally:
                engine.close()
            return 0
        if args.command == "status":
            store = read_stores(args)
            verdicts = [(store.get((args.variant, root)) or {}).get("winner") for root in roots]
            if args.roots:
                print(tally(verdicts))
            else:
                print(f"root {args.root}: {verdicts[0] + ' wins' if verdicts[0] else 'open'}")
            if args.open_roots:
                engine = Engine(args.engine, args.variant, 0)
                try:
                    for line in open_roots(lambda position: list(engine.moves(position)),
                                           lambda position: (store.get((args.variant, position)) or {}).get("winner"),
                                           roots):
                        print(line, flush=True)
                finally:
                    engine.close()
            solved = [entry for entry in store.values() if entry.get("by") == "solve"]
            proved = sum(entry["winner"] is not None for entry in solved)
            cpu = sum(entry.get("cpu_ms") or 0 for entry in solved) / 1000
            limits = sorted({entry.get("cpu_limit") for entry in solved if entry["winner"] is None} - {None})
            print(f"sub-proofs: {proved} proved, {len(solved) - proved} open (tried with {limits or '-'} s CPU); "
                  f"{sum(entry.get('by') == 'tree' for entry in store.values())} positions above them settled; "
                  f"CPU time of the records kept {cpu:.1f} s (a proof that replaced an attempt counts alone)")
            return 0
        campaign = Campaign(args, prove=True)
        started = time.monotonic()
        verdicts = []
        for root in roots:
            campaign.root_proofs = 0
            campaign.prover = mover_of(root) if args.winner == "mover" else args.winner
            winner = campaign.value(root, 0)
            verdicts.append(winner)
            print(f"root {root}: {winner + ' wins' if winner else 'open'}", flush=True)
        if args.roots:
            print(tally(verdicts))
        counts = ", ".join(f"{count} {kind}" for kind, count in campaign.counts.items() if count)
        print(f"sub-proofs met along the walk: {counts or 'none'}; their CPU time {campaign.cpu_ms / 1000:.1f} s; "
              f"this run {campaign.proofs_run} proofs in {time.monotonic() - started:.0f} s")
    except (CampaignError, StoreError, SolveError) as error:
        print(f"campaign.py: error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
