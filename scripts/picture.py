#!/usr/bin/env python3
"""A picture of one game or one position: a self-contained HTML page (it opens offline) with the
board as SVG and a move list that steps through the game.

    picture.py --records match.jsonl --game 3 -o game3.html
    picture.py --fen "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 90 0" --moves A@c3 b@d4 -o position.html
    picture.py --fen "5/5/5/5/5 b 16,16,16 1 0 -,-,-" --moves Pc3Me5 Ma1 -o poldr.html

--game N is the game's number as the arbiter prints it (Game N, from 1: the records' "index"). The
positions come from a Podium process (--engine, default $PODIUM_BIN or this checkout's
target/release/podium), which also checks every move. A whole match, with its summary: `arbiter.py
report RECORDS -o match.html`. The code is podium/picture_cli.py (`pip install ./scripts` installs
it as the podium-picture command). Python 3.11 standard library only.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the checkout's podium package first
from podium.picture_cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
