#!/usr/bin/env python3
"""A deliberately broken engine for the arbiter tests.

    fake_engine.py MODE

It handshakes and answers `isready` like a real engine, and declares the options that select
Pods or POLD.R (`setoption name Game value poldr`); what it does on `go` depends on MODE:
  illegal   plays a move that is never legal (Pods: a placement on an occupied point, or a
            non-bipod as the very first move; POLD.R: Pa1Ma1, pawn and marker on one cell)
  crash     exits at once, without a word
  hang      never answers (but keeps answering `isready`)
  garbage   prints a line that is not part of the protocol
  badmove   answers `bestmove` with something that is not a move
  mute      never even finishes the handshake (no `ugiok`)
  unready   plays like `illegal`, but once told of a new game (`uginewgame`) stops answering
            `isready`: it fails while getting ready for a game, before any move
  deaf      finishes the handshake, then answers nothing at all, not even `quit`
  longline  answers `go` with a line of 3 MiB, three times the protocol's longest, with no end

Words after MODE are ignored: tests add one to find their processes.
"""

import sys

MODES = ("illegal", "crash", "hang", "garbage", "badmove", "mute", "unready", "deaf", "longline")


def illegal_move(position: str) -> str:
    words = position.split()
    moves = words[words.index("moves") + 1:] if "moves" in words else []
    if not moves:
        return "N@a1"  # a four-legged pod as the first move of the game
    target = moves[-1][-2:]  # the point the last move went to is occupied
    return f"A@{target}"


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "illegal"
    if mode not in MODES:
        sys.exit(f"unknown mode {mode!r}")
    position = "position startpos"
    game = "pods"
    ready = True
    for line in sys.stdin:
        command = line.strip()
        word = command.split()[0] if command else ""
        if mode == "deaf" and word not in ("ugi", "uci"):
            continue
        if word in ("ugi", "uci") and mode != "mute":
            print(f"id name fake-{mode}\nid author arbiter tests")
            print("option name Variant type combo default standard var standard var advanced")
            print("option name Hash type spin default 16 min 1 max 1024")
            print("option name Game type combo default pods var pods var poldr")
            print("option name Players type spin default 2 min 2 max 3")
            print("option name Size type spin default 5 min 4 max 9")
            print("option name Bricks type spin default 16 min 1 max 40")
            print("ugiok" if word == "ugi" else "uciok")
        elif word == "isready":
            if ready:
                print("readyok")
        elif word in ("uginewgame", "ucinewgame") and mode == "unready":
            ready = False
        elif command.lower().startswith("setoption name game value "):
            game = command.split()[-1].lower()
        elif word == "position":
            position = command
        elif word == "quit":
            return
        elif word == "go":
            if mode == "crash":
                sys.exit(3)
            if mode in ("illegal", "unready"):
                move = "Pa1Ma1" if game == "poldr" else illegal_move(position)
                print(f"info depth 1 score cp 0\nbestmove {move}")
            elif mode == "garbage":
                print("Hello, I am not an engine")
            elif mode == "badmove":
                print("bestmove z9z9")
            elif mode == "longline":
                print("info string " + "x" * (3 << 20), end="")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
