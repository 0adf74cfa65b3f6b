#!/usr/bin/env python3
"""The games `podium tune --game poldr` fits the POLD.R evaluation to, made by self-play.

For each player count and board size it plays a seeded arbiter match of Podium against itself
(two or three copies at different node counts, so that the seatings of an opening play different
games), from random plies for variety, records the games as they go (a stopped run resumes where it
stopped), then exports each player count's games with `arbiter.py export` to one file:

    python3 scripts/poldr_tune_data.py --engine target/release/podium --out data/poldr-tune
    ./target/release/podium tune --game poldr --players 2 --games data/poldr-tune/poldr-p2.games
    ./target/release/podium tune --game poldr --players 3 --games data/poldr-tune/poldr-p3.games

The defaults are the set the weights in src/games/poldr/tunables.rs were fitted on; the data is made
by this command and is not committed. Standard library only.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ARBITER = os.path.join(HERE, "arbiter.py")

# Bricks per player for each board size: enough that the larger boards block before a player places
# them all (sixteen on 5x5 and 6x6, the rules' default; more on the larger boards).
BRICKS = {4: 10, 5: 16, 6: 16, 7: 24, 8: 32, 9: 40}
# The node counts of the copies (for three players, MCTS simulations a move).
NODES = {2: (4000, 1500), 3: (3000, 1500, 800)}
# The sizes played by default: three players stop at 7x7, since their games on 8x8 took over ten
# times as long as on 7x7 on the shared 2-core machine (MCTS at these node counts); the features are
# divided by the size, so the weights still serve the larger boards.
SIZES = {2: (5, 6, 7, 8, 9), 3: (5, 6, 7)}


def match_command(engine: str, players: int, size: int, games: int, random_plies: int, records: str) -> list[str]:
    """The arbiter match of one player count and size, or its resumption if its records exist."""
    if os.path.exists(records):
        return [sys.executable, ARBITER, "--resume", records]
    seed = 1000 * players + size
    command = [sys.executable, ARBITER, "--game", "poldr", "--players", str(players), "--size", str(size),
               "--bricks", str(BRICKS[size]), "--games", str(games), "--random-plies", str(random_plies),
               "--seed", str(seed), "--concurrency", "1", "--records", records]
    for nodes in NODES[players]:
        command += ["--engine", f"name=n{nodes}", f"cmd={engine}", f"nodes={nodes}"]
    return command


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="the Podium that plays (and replays the games to export)")
    parser.add_argument("--out", required=True, help="the directory of the records and the exported games")
    parser.add_argument("--players", default="2,3", help="player counts (default 2,3)")
    parser.add_argument("--sizes", help="board sizes (default 5,6,7,8,9 for two players, 5,6,7 for three)")
    parser.add_argument("--games", type=int, default=600, help="games per player count and size (default 600)")
    parser.add_argument("--random-plies", type=int, default=4, help="random plies opening each game (default 4)")
    parser.add_argument("--export-only", action="store_true", help="export the records there are, play none")
    args = parser.parse_args()
    try:
        players = [int(text) for text in args.players.split(",")]
        sizes = None if args.sizes is None else [int(text) for text in args.sizes.split(",")]
    except ValueError:
        parser.error("--players and --sizes are numbers separated by commas")
    if any(count not in NODES for count in players) or any(size not in BRICKS for size in sizes or ()):
        parser.error("players are 2 or 3, sizes 4 to 9")
    if not os.access(args.engine, os.X_OK):
        parser.error(f"--engine {args.engine}: not an executable file")
    os.makedirs(args.out, exist_ok=True)
    for count in players:
        count_sizes = SIZES[count] if sizes is None else sizes
        records = [os.path.join(args.out, f"poldr-p{count}-s{size}.jsonl") for size in count_sizes]
        if not args.export_only:
            for size, path in zip(count_sizes, records):
                print(f"poldr_tune_data: {count} players, {size}x{size}: {path}", file=sys.stderr, flush=True)
                subprocess.run(match_command(args.engine, count, size, args.games, args.random_plies, path),
                               check=True, stdout=subprocess.DEVNULL)
        existing = [path for path in records if os.path.exists(path)]
        if existing:
            output = os.path.join(args.out, f"poldr-p{count}.games")
            subprocess.run([sys.executable, ARBITER, "export", "--unique", "--engine", args.engine,
                            "-o", output, *existing], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
