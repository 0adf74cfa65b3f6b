#!/usr/bin/env python3
"""Podium arbiter: engine-versus-engine matches (Pods, POLD.R for two or three players) and a
protocol self-test of one engine.

    arbiter.py --engine name=new cmd=./target/release/podium \\
               --engine name=base cmd=/path/to/old/podium option.Hash=32 \\
               --variant advanced --games 200 --concurrency 2 --tc 1+0.01
    arbiter.py --game poldr --size 5 --bricks 16 --engine name=new cmd=./target/release/podium \\
               --engine name=base cmd=/path/to/old/podium --games 200 --movetime 100 --random-plies 2
    arbiter.py --game poldr --players 3 --engine name=paranoid cmd=./target/release/podium \\
               --engine name=maxn cmd=./target/release/podium option.MultiplayerSearch=maxn \\
               --engine name=base cmd=/path/to/old/podium --games 60 --tc 2+0.05 --random-plies 3
    arbiter.py --game poldr --players 3 --engine name=podium cmd=./target/release/podium \\
               --engine name=random1 cmd="python3 scripts/random_mover.py --seed 1" \\
               --engine name=random2 cmd="python3 scripts/random_mover.py --seed 2" --games 60 --movetime 100
    arbiter.py --engine name=long cmd=./target/release/podium tc=2+0.02 \\
               --engine name=short cmd=./target/release/podium tc=1+0.01 --games 200 --random-plies 2
    arbiter.py --resume match.jsonl
    arbiter.py --engine name=new cmd=./target/release/podium --engine name=base cmd=/path/to/old/podium \
               --games 20000 --movetime 100 --random-plies 2 --seed 1 --shard 3/50 --records shard3.jsonl
    arbiter.py merge shard*.jsonl -o match.jsonl
    arbiter.py compliance --engine cmd=./target/release/podium
    arbiter.py report match.jsonl -o match.html
    arbiter.py openings --variant standard --plies 4 --depth 7 --max-score 50 --count 200 --seed 1 -o book.txt
    arbiter.py export match.jsonl --unique -o games.txt

An engine's own tc=, movetime=, depth= or nodes= stands for the match's --tc, --movetime, --depth
or --nodes (time odds); the records give each seat's control. `--resume` continues an interrupted
match with the settings its records file starts with. The records (docs/records.md, with a JSON
Schema) have one schema for both games; older ones are read too. `--shard
K/N` plays one of N slices of a match (run the N slices on as many machines), and `merge` joins
their records and prints the match's report.

`report` writes a match's page: one self-contained HTML file (it opens offline) with the summary,
the running score and every game on a board that steps through it (scripts/picture.py: one game).

`openings` writes a book of balanced openings for --openings: random walks of a few plies from the
start whose score at a fixed depth (`podium analyse`) is near even. `export` writes the Pods games
of records as `podium tune --games` reads them.

scripts/random_mover.py is an engine that plays uniformly random legal moves (asking a Podium for
them), a baseline for measurements in either game.

A separate, trusted Podium process (the referee) judges every move and every
game end; the playing engines only ever propose moves. Every wait on an engine
has a timeout, every fault is charged to the engine that made it, and every
finished game is written at once as one JSON line, so a match can be resumed.
Python 3.11 standard library only.

The code is the package beside this script, scripts/podium/ (cli.py parses this command line;
`pip install ./scripts` installs it as the podium-arbiter command); the engines are driven by its
engine driver, podium/protocol.py, which is also the Python client's (docs/client.md).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the checkout's podium package first
from podium.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
