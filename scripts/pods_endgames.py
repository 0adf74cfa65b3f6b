#!/usr/bin/env python3
"""Pods endgame positions from real games: for `scripts/solve_table.py` and `podium analyse --positions`.

From the records of arbiter matches it draws, with a seeded generator, games that ended in a win
(draws and faults are left out) and long enough, and writes each one's positions the given numbers
of plies before its end, one JSON line each, naming its game, its variant and its plies before the
end, as scripts/data/pods-endgames-*.txt hold them:

    python3 scripts/pods_endgames.py RECORDS.jsonl --games 24 --plies 12,14,16 --seed 1 -o FILE

The positions are replayed by the engine (`position ... moves ...`, then `query fen`). Standard
library only.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from podium import Engine  # noqa: E402
from podium.errors import PodiumError  # noqa: E402
from podium.records import open_match  # noqa: E402
from solve_table import DEFAULT_PODIUM  # noqa: E402


def parse_plies(text: str) -> list[int]:
    try:
        plies = sorted({int(word) for word in text.split(",")})
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected numbers separated by commas") from None
    if not plies or plies[0] < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: the plies before the end must be positive")
    return plies


def candidates(records: list[dict], variant: str | None, longest: int) -> list[dict]:
    """The Pods games won (not drawn, not lost by a fault) with more than `longest` moves."""
    return [record for record in records
            if record.get("game", "pods") == "pods" and (variant is None or record.get("variant") == variant)
            and record.get("result") in ("p1win", "p2win") and not record.get("faulty")
            and len(record.get("moves", [])) > longest]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", help="arbiter records files (JSON lines)")
    parser.add_argument("--games", type=int, default=24, help="games to draw (default 24)")
    parser.add_argument("--plies", type=parse_plies, default=[12, 14, 16],
                        help="plies before the end, comma-separated (default 12,14,16)")
    parser.add_argument("--variant", choices=("standard", "advanced"), help="only games of this variant")
    parser.add_argument("--seed", type=int, default=1, help="the draw's seed (default 1)")
    parser.add_argument("--engine", default=DEFAULT_PODIUM, help="the podium binary that replays the games")
    parser.add_argument("-o", "--output", required=True, help="the positions file to write")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be positive")
    try:
        records = [record for path in args.records for record in open_match(path)[1]]
    except PodiumError as error:
        parser.error(str(error))
    pool = candidates(records, args.variant, max(args.plies))
    if len(pool) < args.games:
        parser.error(f"{len(pool)} games won with more than {max(args.plies)} moves in the records; "
                     f"--games {args.games} asks for more")
    drawn = random.Random(args.seed).sample(pool, args.games)
    lines = []
    try:
        with Engine(args.engine) as engine:
            for record in drawn:
                variant = record.get("variant", "standard")
                engine.new_game(variant)  # the opening's line carries its rotation
                moves = record["moves"]
                engine.set_position(record["opening"], moves)
                if record.get("final") and engine.fen() != record["final"]:
                    raise PodiumError(f"game {record.get('index')}: the replay ends at {engine.fen()}, "
                                      f"the record at {record['final']}")
                for plies in sorted(args.plies, reverse=True):
                    engine.set_position(record["opening"], moves[:len(moves) - plies])
                    lines.append(json.dumps({"game": "pods", "variant": variant, "fen": engine.fen(),
                                             "id": {"plies_before_end": plies}}, separators=(",", ":")))
    except (OSError, PodiumError) as error:
        print(f"pods_endgames.py: error: {error}", file=sys.stderr)
        return 2
    sources = " ".join(os.path.basename(path) for path in args.records)
    header = [f"# Pods: {len(lines)} positions {','.join(map(str, args.plies))} plies before the end of "
              f"{args.games} won games drawn from {sources}",
              f"# made by: scripts/pods_endgames.py {sources} --games {args.games} "
              f"--plies {','.join(map(str, args.plies))}{f' --variant {args.variant}' if args.variant else ''} "
              f"--seed {args.seed}",
              "# one JSON line each: podium analyse --positions FILE and scripts/solve_table.py read them."]
    with open(args.output, "w", encoding="utf-8") as handle:
        handle.write("\n".join(header + lines) + "\n")
    print(f"pods_endgames.py: wrote {len(lines)} positions to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
