#!/usr/bin/env python3
"""A random mover: an engine of the Podium protocol that plays a uniformly random legal move, as a
baseline for measurements (arbiter.py matches).

    random_mover.py [--seed N] [--podium PATH]

It answers the uci/ugi handshake (declaring the options of the Podium it runs, so Game, Players,
Size, Bricks, Variant and the rest can be set), isready, setoption, newgame, uginewgame,
ucinewgame, position, go (whatever its limits) with `bestmove <move>` at once, or `bestmove (none)`
when the game is over, and quit; stop, ponderhit and the rest need nothing. The legal moves come
from a Podium process (`moves`), driven with the podium package's engine driver: every command that sets
the game or the position is passed on to it, so the random mover plays whatever Podium plays,
Pods and POLD.R for two or three players. The same seed and the same commands give the same moves.

Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the checkout's podium package first
from podium.errors import EngineFault  # noqa: E402
from podium.notation import ANY_MOVE_RE, NO_MOVE  # noqa: E402
from podium.protocol import EngineDriver, Timeouts  # noqa: E402

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_PODIUM = os.path.join(REPOSITORY, "target", "release", "podium")
# What Podium must see too, since it lists the moves: the game's settings and the position.
FORWARDED = ("setoption", "newgame", "uginewgame", "ucinewgame", "position")


class PodiumFailed(Exception):
    """The Podium listing the moves failed: the random mover cannot go on."""


def reply(*lines: str) -> None:
    print("\n".join(lines), flush=True)


def random_move(podium: EngineDriver, rng: random.Random) -> str:
    moves = podium.listed_moves(ANY_MOVE_RE)
    if moves is None:
        raise PodiumFailed("podium printed no line of moves for `moves`")
    return rng.choice(moves) if moves else NO_MOVE


def serve(podium: EngineDriver, rng: random.Random, seed: int | None) -> None:
    """Answers the commands on stdin until quit or the end of input."""
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command in ("ugi", "uci"):
            name = "Random mover" + (f" (seed {seed})" if seed is not None else "")
            reply(f"id name {name}", "id author the Podium developers", *podium.option_lines, f"{command}ok")
        elif command == "isready":
            reply("readyok")
        elif command in FORWARDED:
            podium.send(line.strip())
        elif command == "go":
            reply(f"bestmove {random_move(podium, rng)}")
        elif command == "quit":
            return


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="random_mover.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, help="seed of the random choices (default: random)")
    parser.add_argument("--podium", default=DEFAULT_PODIUM, metavar="PATH",
                        help=f"the Podium that lists the legal moves (default {DEFAULT_PODIUM})")
    args = parser.parse_args(argv)
    podium = EngineDriver([args.podium], "podium", Timeouts())
    try:
        podium.start()
        podium.set_option("Hash", "1")  # it never searches
        serve(podium, random.Random(args.seed), args.seed)
    except (EngineFault, PodiumFailed) as error:
        print(f"info string error: random mover: {error}", flush=True)
        return 1
    finally:
        podium.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
