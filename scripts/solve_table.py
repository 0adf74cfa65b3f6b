#!/usr/bin/env python3
"""How far before the end Podium plays perfectly: `podium solve` on positions a known number of
plies before the end of real games, and per number of plies the share proved and the median time.

    solve_table.py POSITIONS [--engine PATH] [--movetime MS] [--hash MB] [--plies 14,16]

POSITIONS has one position a line, a JSON object naming its game and variant, as `podium analyse
--positions` reads it, with the plies before the end in "id" (as scripts/data/pods-endgames-*.txt:
`{"game":"pods","variant":"standard","fen":"<position line>","id":{"plies_before_end":8}}`), or
the older `<position line> # <plies before the end> <variant>`; blank lines and lines starting
with `#` are skipped. Each
position is solved by its own process, with the hash size given, and timed in CPU time (user and
system, of that process), so that other work on the machine changes the figures little. A position
not proved within --movetime counts as slower than every proved one. Progress goes to stderr, the
table to stdout.

Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from dataclasses import dataclass

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_PODIUM = os.path.join(REPOSITORY, "target", "release", "podium")
VARIANTS = ("standard", "advanced")


class TableError(Exception):
    """Input the table cannot be made from: the message says which file, line or engine."""


@dataclass
class Endgame:
    fen: str
    plies: int
    variant: str


@dataclass
class Solved:
    endgame: Endgame
    proven: bool
    cpu_ms: int
    nodes: int


def read_endgames(path: str) -> list[Endgame]:
    endgames = []
    try:
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                if line.startswith("{"):
                    endgames.append(json_endgame(path, number, line))
                    continue
                fen, _, tag = line.partition(" # ")
                words = tag.split()
                if len(words) != 2 or not words[0].isdigit() or words[1] not in VARIANTS:
                    raise TableError(f"{path}: line {number}: expected '<position line> # <plies> "
                                     f"standard|advanced', found {line!r}")
                endgames.append(Endgame(fen.strip(), int(words[0]), words[1]))
    except (OSError, UnicodeDecodeError) as error:
        raise TableError(f"{path}: {error}") from None
    return endgames


def json_endgame(path: str, number: int, line: str) -> Endgame:
    """A JSON line: {"game":"pods","variant":V,"fen":F,"id":{"plies_before_end":N}}."""
    try:
        entry = json.loads(line)
    except (ValueError, RecursionError) as error:
        raise TableError(f"{path}: line {number}: not JSON: {error}") from None
    tag = entry.get("id") if isinstance(entry, dict) else None
    plies = tag.get("plies_before_end") if isinstance(tag, dict) else None
    if (not isinstance(entry, dict) or entry.get("game", "pods") != "pods" or entry.get("variant") not in VARIANTS
            or not isinstance(entry.get("fen"), str) or type(plies) is not int or plies < 0):
        raise TableError(f"{path}: line {number}: expected {{\"game\":\"pods\",\"variant\":\"standard|advanced\","
                         f"\"fen\":\"<position line>\",\"id\":{{\"plies_before_end\":<plies>}}}}, found {line[:200]!r}")
    return Endgame(entry["fen"], plies, entry["variant"])


class SolveError(Exception):
    """`podium solve` could not be run, or did not answer: the message says the command."""


def solve_answer(engine: str, variant: str, fen: str, movetime: int, hash_mb: int) -> dict:
    """`podium solve --json` on one position: its answer ("proven", "winner", "nodes", ...).
    scripts/perfect_play.py proves its openings through it too."""
    command = [engine, "solve", "--variant", variant, "--fen", fen,
               "--movetime", str(movetime), "--hash", str(hash_mb), "--json"]
    try:
        run = subprocess.run(command, capture_output=True, text=True)
    except OSError as error:
        raise SolveError(f"cannot start {engine}: {error.strerror}") from None
    if run.returncode != 0:
        raise SolveError(f"{' '.join(command)} failed: {run.stderr.strip() or run.stdout.strip()}")
    try:
        answer = json.loads(run.stdout)
        if isinstance(answer, dict) and "proven" in answer:
            return answer
    except ValueError:
        pass
    raise SolveError(f"{' '.join(command)}: not the JSON of `podium solve --json`: {run.stdout[:200]!r}")


def solve(engine: str, endgame: Endgame, movetime: int, hash_mb: int) -> Solved:
    answer = solve_answer(engine, endgame.variant, endgame.fen, movetime, hash_mb)
    return Solved(endgame, bool(answer["proven"]), 0, int(answer["nodes"]))


def timed_solve(engine: str, endgame: Endgame, movetime: int, hash_mb: int) -> Solved:
    """solve(), with the CPU time of its process: the growth of the reaped children's times."""
    before = os.times()
    solved = solve(engine, endgame, movetime, hash_mb)
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    solved.cpu_ms = round(cpu * 1000)
    return solved


def table(results: list[Solved], movetime: int) -> str:
    lines = ["| variant | plies before the end | positions | proved | median CPU time | nodes |",
             "|---|---|---|---|---|---|"]
    groups: dict[tuple[str, int], list[Solved]] = {}
    for solved in results:
        groups.setdefault((solved.endgame.variant, solved.endgame.plies), []).append(solved)
    for (variant, plies), group in sorted(groups.items()):
        times = [s.cpu_ms if s.proven else float("inf") for s in group]
        median = statistics.median(times)
        shown = f"{median / 1000:.2f} s" if median != float("inf") else f"over {movetime / 1000:g} s"
        proved = sum(s.proven for s in group)
        nodes = sum(s.nodes for s in group)
        lines.append(f"| {variant} | {plies} | {len(group)} | {proved}/{len(group)} | {shown} | {nodes:,} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("positions", help="the endgames: '<position line> # <plies> <variant>' a line")
    parser.add_argument("--engine", default=DEFAULT_PODIUM, help="the podium binary (default: the release build)")
    parser.add_argument("--movetime", type=int, default=30000, help="give up on a position after this many ms")
    parser.add_argument("--hash", type=int, default=16, help="hash table size in MB for each position")
    parser.add_argument("--plies", help="only these numbers of plies before the end, comma-separated")
    args = parser.parse_args(argv)
    try:
        only = {int(p) for p in args.plies.split(",")} if args.plies else None
    except ValueError:
        parser.error(f"--plies {args.plies}: expected numbers separated by commas")
    if args.movetime < 1 or args.hash < 1:
        parser.error("--movetime and --hash must be positive")
    try:
        endgames = [e for e in read_endgames(args.positions) if only is None or e.plies in only]
        results = []
        for index, endgame in enumerate(endgames, 1):
            solved = timed_solve(args.engine, endgame, args.movetime, args.hash)
            results.append(solved)
            print(f"{index}/{len(endgames)} {endgame.plies} plies {endgame.variant}: "
                  f"{'proved' if solved.proven else 'not proved'} in {solved.cpu_ms} ms CPU, "
                  f"{solved.nodes} nodes: {endgame.fen}", file=sys.stderr, flush=True)
    except (TableError, SolveError) as error:
        print(f"solve_table.py: error: {error}", file=sys.stderr)
        return 2
    print(table(results, args.movetime))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
