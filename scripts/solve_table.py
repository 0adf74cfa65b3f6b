#!/usr/bin/env python3
"""How far before the end Podium plays perfectly: `podium solve` on positions a known number of
plies before the end of real games, and per number of plies the share proved and the median time.

    solve_table.py POSITIONS [--engine PATH] [--movetime MS | --cpu-limit S] [--hash MB] [--plies 14,16]

POSITIONS has one position a line, a JSON object naming its game and variant, as `podium analyse
--positions` reads it, with the plies before the end in "id" (as scripts/data/pods-endgames-*.txt:
`{"game":"pods","variant":"standard","fen":"<position line>","id":{"plies_before_end":8}}`), or
the older `<position line> # <plies before the end> <variant>`; blank lines and lines starting
with `#` are skipped. Each
position is solved by its own process, with the hash size given, and timed in CPU time (user and
system, of that process), so that other work on the machine changes the figures little. A position
not proved within --movetime counts as slower than every proved one. --cpu-limit S limits each
position to S seconds of CPU time instead of wall-clock time (`podium solve --cpu-limit`, which
answers with the nodes it searched; the system stops a build without that option at the limit): on
a machine other work shares, a wall-clock limit gives a position less than its time. With
--results FILE each position's result is also written there as a JSON line. Progress goes to
stderr, the table to stdout.

Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import statistics
import subprocess
import sys
from dataclasses import dataclass

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_PODIUM = os.path.join(REPOSITORY, "target", "release", "podium")
VARIANTS = ("standard", "advanced")


# Seconds past --cpu-limit at which the system stops a `podium solve` that has not stopped itself.
CPU_LIMIT_BACKSTOP = 30
# The exit status of a command line clap refuses (an option an older build does not know).
CLAP_USAGE_ERROR = 2


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


def solve_answer(engine: str, variant: str, fen: str, movetime: int | None, hash_mb: int,
                 cpu_limit: int | None = None, extra: tuple[str, ...] = ()) -> dict:
    """`podium solve --json` on one position: its answer ("proven", "winner", "nodes", ...).
    With `cpu_limit` (seconds) `podium solve --cpu-limit` gives up after that much CPU time and
    answers with "stopped": "cpu" and the nodes it searched; a build without that option (an older
    one, to compare with) is stopped by the system instead, and the answer is then {"proven":
    False, "nodes": 0, "stopped": "cpu"}. `extra`: more arguments of `podium solve`.
    scripts/perfect_play.py and scripts/campaign.py prove through it too."""
    command = [engine, "solve", "--variant", variant, "--fen", fen, "--hash", str(hash_mb), "--json", *extra]
    if movetime is not None:
        command += ["--movetime", str(movetime)]
    if cpu_limit is None:
        run = run_solve(engine, command, None)
    else:
        # The system's limit stays as a backstop, some way past the engine's own.
        run = run_solve(engine, [*command, "--cpu-limit", str(cpu_limit)], cpu_limit + CPU_LIMIT_BACKSTOP)
        if run.returncode == CLAP_USAGE_ERROR and "--cpu-limit" in run.stderr:
            run = run_solve(engine, command, cpu_limit)
        if run.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
            return {"proven": False, "nodes": 0, "stopped": "cpu"}
    if run.returncode != 0:
        raise SolveError(f"{' '.join(command)} failed: {run.stderr.strip() or run.stdout.strip()}")
    try:
        answer = json.loads(run.stdout)
        if isinstance(answer, dict) and "proven" in answer:
            return answer
    except ValueError:
        pass
    raise SolveError(f"{' '.join(command)}: not the JSON of `podium solve --json`: {run.stdout[:200]!r}")


def run_solve(engine: str, command: list[str], cpu_seconds: int | None) -> subprocess.CompletedProcess:
    """Runs `command`, stopped by the system after `cpu_seconds` of CPU time if given."""
    def limit_cpu() -> None:
        if cpu_seconds is not None:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))

    try:
        return subprocess.run(command, capture_output=True, text=True,
                              preexec_fn=limit_cpu if cpu_seconds is not None else None)
    except OSError as error:
        raise SolveError(f"cannot start {engine}: {error.strerror}") from None


def solve(engine: str, endgame: Endgame, movetime: int | None, hash_mb: int, cpu_limit: int | None = None,
          extra: tuple[str, ...] = ()) -> Solved:
    answer = solve_answer(engine, endgame.variant, endgame.fen, movetime, hash_mb, cpu_limit, extra)
    return Solved(endgame, bool(answer["proven"]), 0, int(answer["nodes"]))


def timed_solve(engine: str, endgame: Endgame, movetime: int | None, hash_mb: int,
                cpu_limit: int | None = None, extra: tuple[str, ...] = ()) -> Solved:
    """solve(), with the CPU time of its process: the growth of the reaped children's times."""
    before = os.times()
    solved = solve(engine, endgame, movetime, hash_mb, cpu_limit, extra)
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    solved.cpu_ms = round(cpu * 1000)
    return solved


def table(results: list[Solved], limit: str) -> str:
    lines = ["| variant | plies before the end | positions | proved | median CPU time | nodes |",
             "|---|---|---|---|---|---|"]
    groups: dict[tuple[str, int], list[Solved]] = {}
    for solved in results:
        groups.setdefault((solved.endgame.variant, solved.endgame.plies), []).append(solved)
    for (variant, plies), group in sorted(groups.items()):
        times = [s.cpu_ms if s.proven else float("inf") for s in group]
        median = statistics.median(times)
        shown = f"{median / 1000:.2f} s" if median != float("inf") else f"over {limit}"
        proved = sum(s.proven for s in group)
        nodes = sum(s.nodes for s in group)
        lines.append(f"| {variant} | {plies} | {len(group)} | {proved}/{len(group)} | {shown} | {nodes:,} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("positions", help="the endgames: '<position line> # <plies> <variant>' a line")
    parser.add_argument("--engine", default=DEFAULT_PODIUM, help="the podium binary (default: the release build)")
    parser.add_argument("--movetime", type=int, default=30000, help="give up on a position after this many ms")
    parser.add_argument("--cpu-limit", type=int, metavar="S",
                        help="give up on a position after S seconds of CPU time instead (no --movetime)")
    parser.add_argument("--results", metavar="FILE", help="also write each position's result there, a JSON line each")
    parser.add_argument("--hash", type=int, default=16, help="hash table size in MB for each position")
    parser.add_argument("--plies", help="only these numbers of plies before the end, comma-separated")
    parser.add_argument("--method", choices=("auto", "dfpn", "search"), default="auto",
                        help="podium solve's proof search (default: auto)")
    args = parser.parse_args(argv)
    try:
        only = {int(p) for p in args.plies.split(",")} if args.plies else None
    except ValueError:
        parser.error(f"--plies {args.plies}: expected numbers separated by commas")
    if args.movetime < 1 or args.hash < 1 or (args.cpu_limit is not None and args.cpu_limit < 1):
        parser.error("--movetime, --cpu-limit and --hash must be positive")
    movetime = None if args.cpu_limit else args.movetime
    limit = f"{args.cpu_limit:g} s CPU" if args.cpu_limit else f"{args.movetime / 1000:g} s"
    try:
        endgames = [e for e in read_endgames(args.positions) if only is None or e.plies in only]
        results = []
        for index, endgame in enumerate(endgames, 1):
            solved = timed_solve(args.engine, endgame, movetime, args.hash, args.cpu_limit, ("--method", args.method))
            results.append(solved)
            if args.results:
                with open(args.results, "a", encoding="utf-8") as handle:
                    handle.write(json.dumps({"position": endgame.fen, "plies": endgame.plies,
                                             "variant": endgame.variant, "proven": solved.proven,
                                             "cpu_ms": solved.cpu_ms, "nodes": solved.nodes}) + "\n")
            print(f"{index}/{len(endgames)} {endgame.plies} plies {endgame.variant}: "
                  f"{'proved' if solved.proven else 'not proved'} in {solved.cpu_ms} ms CPU, "
                  f"{solved.nodes} nodes: {endgame.fen}", file=sys.stderr, flush=True)
    except (TableError, SolveError) as error:
        print(f"solve_table.py: error: {error}", file=sys.stderr)
        return 2
    print(table(results, limit))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
