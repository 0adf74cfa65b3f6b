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
  sloppy    the real engine (PODIUM_BIN) behind a filter that breaks UCI's analysis conventions:
            unknown words and unreadable values refused without a bestmove, unknown commands
            unanswered, `debug` and `Clear Hash` unknown, searchmoves, mate and ponder dropped
            from `go` (a bare `go` searches until stop), the Ponder option never set, multipv
            lines past the first and currmove lines never shown
  longline  answers `go` with a line of 3 MiB, three times the protocol's longest, with no end
  slow      answers `go` after 1.5 s of silence: `info depth 1 score cp 7 pv B@d1`, `bestmove B@d1`

Every mode but mute and deaf answers `query turn` and `query fen` as at the start of its game, as
the Python client asks them before a search. Words after MODE are ignored: tests add one to find
their processes.
"""

import os
import re
import subprocess
import sys
import threading
import time

MODES = ("illegal", "crash", "hang", "garbage", "badmove", "mute", "unready", "deaf", "sloppy", "longline", "slow")
GO_WORDS = ("movetime", "depth", "nodes", "mate", "infinite", "ponder", "searchmoves", "movestogo", "wtime", "btime",
            "winc", "binc", "p1time", "p2time", "p3time", "p1inc", "p2inc", "p3inc")


def illegal_move(position: str) -> str:
    words = position.split()
    moves = words[words.index("moves") + 1:] if "moves" in words else []
    if not moves:
        return "N@a1"  # a four-legged pod as the first move of the game
    target = moves[-1][-2:]  # the point the last move went to is occupied
    return f"A@{target}"


def sloppy_go(command: str) -> str | None:
    """The `go` passed on to the engine, or None for one refused as a whole (an error, no bestmove)."""
    words = command.split()[1:]
    kept = []
    index = 0
    while index < len(words):
        word = words[index]
        if word == "searchmoves":  # dropped with its moves
            index += 1
            while index < len(words) and words[index] not in GO_WORDS:
                index += 1
            continue
        if word not in GO_WORDS:
            return None
        if word in ("infinite", "ponder"):
            kept += [] if word == "ponder" else [word]
            index += 1
            continue
        value = words[index + 1] if index + 1 < len(words) else ""
        if not value.isdigit():
            return None
        kept += [] if word == "mate" else [word, value]
        index += 2
    return " ".join(["go", *kept])


def sloppy() -> None:
    """The real engine, filtered both ways."""
    engine = subprocess.Popen([os.environ["PODIUM_BIN"]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                              bufsize=1)

    def forward_output() -> None:
        for line in engine.stdout:
            if re.search(r" multipv [2-9]| currmove ", line):
                continue
            sys.stdout.write(line)
            sys.stdout.flush()

    threading.Thread(target=forward_output, daemon=True).start()
    for line in sys.stdin:
        command = line.strip()
        word = command.split()[0] if command else ""
        refused = None
        if word in ("isready", "ugi", "uci", "stop", "ponderhit", "quit") and len(command.split()) > 1:
            refused = f"{word} takes nothing"
        elif word == "go" and not command.startswith("go perft"):
            command = sloppy_go(command)
            refused = "bad go" if command is None else None
        elif word == "debug":
            refused = "unknown command 'debug'"
        elif re.match(r"setoption name clear hash\b", command, re.I):
            refused = "unknown option 'Clear Hash'"
        elif word == "hello" or re.match(r"setoption name ponder\b", command, re.I):
            continue
        if refused:
            print(f"info string error: {refused}", flush=True)
            continue
        engine.stdin.write(command + "\n")
        engine.stdin.flush()
        if word == "quit":
            break
    engine.stdin.close()
    engine.wait()


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "illegal"
    if mode not in MODES:
        sys.exit(f"unknown mode {mode!r}")
    if mode == "sloppy":
        sloppy()
        return
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
        elif word == "query" and command.split()[1:2] == ["turn"]:
            print("response p1")
        elif word == "query" and command.split()[1:2] == ["fen"]:
            print("response " + ("5/5/5/5/5 b 16,16 1 0 -,-" if game == "poldr"
                                 else "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0"))
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
            elif mode == "slow":
                time.sleep(1.5)
                print("info depth 1 score cp 7 pv B@d1\nbestmove B@d1")
            elif mode == "longline":
                print("info string " + "x" * (3 << 20), end="")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
