"""scripts/picture.py, the podium-picture command: a picture of one game or one position, a
self-contained HTML page (it opens offline) with the board as SVG and a move list that steps
through the game.

    picture.py --records match.jsonl --game 3 -o game3.html
    picture.py --fen "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 90 0" --moves A@c3 b@d4 -o position.html
    picture.py --fen "5/5/5/5/5 b 16,16,16 1 0 -,-,-" --moves Pc3Me5 Ma1 -o poldr.html

--game N is the game's number as the arbiter prints it and the records give it ("index", from 1).
The positions come from a Podium process (--engine, default $PODIUM_BIN or this checkout's
target/release/podium), which also checks every move. A records file that cannot be read, or a game
that cannot be replayed, is one line naming the file, the line and the game. A whole match, with
its summary: `arbiter.py report RECORDS -o match.html`."""

from __future__ import annotations

import argparse
import shlex
import sys

from .errors import EngineError, PodiumError
from .pictures import game_page
from .records import open_records_file
from .replay import ReplayError, open_engine, replay_moves, replay_record


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


def game_record(path: str, number: int) -> tuple[dict, str]:
    """The record of game `number` (from 1) and where it is ('FILE: line N: game K')."""
    read = open_records_file(path)
    records = {}
    for record in read.records:
        records.setdefault(record["index"], record)
    if number not in records:
        known = f"{min(records)} to {max(records)}" if records else "none"
        raise PodiumError(f"{path} has no game {number} (games recorded: {known})")
    return records[number], read.where(records[number])


def main(argv: list[str]) -> int:
    args = arguments(argv)
    try:
        record, where = game_record(args.records, args.game) if args.records else (None, "")
        try:
            with open_engine(shlex.split(args.engine) if args.engine else None) as engine:
                replay = replay_record(engine, record) if record else replay_moves(engine, args.fen, args.moves,
                                                                                   args.variant)
        except (EngineError, ReplayError) as error:
            raise PodiumError(f"{where}: cannot be replayed: {error}" if where else str(error)) from None
        page = game_page(replay, args.title)
        with open(args.output, "w", encoding="utf-8") as output:
            output.write(page)
    except (PodiumError, OSError, ValueError) as error:
        print(f"picture: error: {error}", file=sys.stderr)
        return 1
    print(f"picture: {args.output}: {len(replay.moves)} moves")
    return 0


def command() -> None:
    """The podium-picture command that `pip install ./scripts` installs."""
    sys.exit(main(sys.argv[1:]))
