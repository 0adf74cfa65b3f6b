#!/usr/bin/env python3
"""A picture of one game or one position: a self-contained HTML page (it opens offline) with the
board as SVG and a move list that steps through the game.

    picture.py --records match.jsonl --game 3 -o game3.html
    picture.py --fen "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 90 0" --moves A@c3 b@d4 -o position.html
    picture.py --fen "5/5/5/5/5 b 16,16,16 1 0 -,-,-" --moves Pc3Me5 Ma1 -o poldr.html

--game N is the game's number as the arbiter prints it (Game N, from 1). The positions come from a
Podium process (--engine, default $PODIUM_BIN or this checkout's target/release/podium), which also
checks every move. A whole match, with its summary: `arbiter.py report RECORDS -o match.html`.
Python 3.11 standard library only.
"""

import argparse
import os
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the checkout's podium package first
from podium.errors import PodiumError  # noqa: E402
from podium.pictures import game_page  # noqa: E402
from podium.records import load_records, record_index  # noqa: E402
from podium.replay import open_engine, replay_moves, replay_record  # noqa: E402


def arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="picture.py", description="A picture (HTML page) of one game or position.")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--records", metavar="FILE", help="the arbiter's records of a match (JSON lines)")
    source.add_argument("--fen", metavar="LINE", help="a position line of Pods or POLD.R")
    parser.add_argument("--game", type=int, metavar="N", help="with --records: the game's number, from 1")
    parser.add_argument("--moves", nargs="*", default=[], metavar="MOVE", help="with --fen: moves played from it")
    parser.add_argument("--variant", choices=("standard", "advanced"), default="standard",
                        help="with --fen, Pods: the variant the moves are played in (default standard)")
    parser.add_argument("--engine", metavar="CMD", help="the Podium that draws the positions")
    parser.add_argument("--title", help="the page's title")
    parser.add_argument("-o", "--output", metavar="FILE", required=True, help="the HTML file to write")
    args = parser.parse_args(argv)
    if args.records and args.game is None:
        parser.error("--records needs --game N")
    if args.fen is None and args.moves:
        parser.error("--moves goes with --fen")
    if args.records is None and args.game is not None:
        parser.error("--game goes with --records")
    return args


def game_record(path: str, number: int) -> dict:
    records = {record_index(record) + 1: record for record in load_records(path)}
    if number not in records:
        known = f"{min(records)} to {max(records)}" if records else "none"
        raise PodiumError(f"{path} has no game {number} (games recorded: {known})")
    return records[number]


def main(argv: list[str]) -> int:
    args = arguments(argv)
    try:
        record = game_record(args.records, args.game) if args.records else None
        with open_engine(shlex.split(args.engine) if args.engine else None) as engine:
            replay = replay_record(engine, record) if record else replay_moves(engine, args.fen, args.moves,
                                                                               args.variant)
        page = game_page(replay, args.title)
        with open(args.output, "w", encoding="utf-8") as output:
            output.write(page)
    except (PodiumError, OSError) as error:
        print(f"picture: error: {error}", file=sys.stderr)
        return 1
    print(f"picture: {args.output}: {len(replay.moves)} moves")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
