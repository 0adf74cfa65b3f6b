#!/usr/bin/env python3
"""The analysis board: a page in the browser on which to set up a position of Pods or POLD.R,
play moves by clicking, take them back, and watch the engine's lines live; with --records, the
games of a match to step through with their stored engine data.

    board.py                                  then open http://127.0.0.1:8765/
    board.py --records match.jsonl --port 8000
    board.py --engine "target/release/podium" --hash 64

It serves 127.0.0.1 only unless --host says otherwise. Each page opened gets an engine process of
its own (--engine, default $PODIUM_BIN or this checkout's target/release/podium), closed with the
page. Python 3.11 standard library only.
"""

import argparse
import os
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the checkout's podium package first
from podium.board_server import serve, stderr_log  # noqa: E402
from podium.errors import PodiumError  # noqa: E402


def arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="board.py", description="The analysis board, in the browser.")
    parser.add_argument("--engine", metavar="CMD", help="the Podium to run, one per page (split as a shell would, "
                        "but run without one)")
    parser.add_argument("--host", default="127.0.0.1", help="the address to serve (default 127.0.0.1: this "
                        "machine only)")
    parser.add_argument("--port", type=int, default=8765, help="the port (default 8765; 0: any free port)")
    parser.add_argument("--records", nargs="+", default=[], metavar="FILE",
                        help="records files of the arbiter whose games the page can load")
    parser.add_argument("--hash", type=int, default=32, metavar="MB", help="each engine's hash table (default 32)")
    parser.add_argument("--threads", type=int, default=1, metavar="N", help="each engine's search threads (default 1)")
    parser.add_argument("--boards", type=int, default=4, metavar="N",
                        help="pages open at once, each with its engine (default 4)")
    parser.add_argument("--quiet", action="store_true", help="do not log the requests")
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error("--port: 0 to 65535")
    if args.boards < 1 or args.hash < 1 or args.threads < 1:
        parser.error("--boards, --hash and --threads must be at least 1")
    return args


def main(argv: list[str]) -> int:
    args = arguments(argv)

    def ready(server) -> None:
        print(f"board: {server.url} (Ctrl-C to stop)", flush=True)
        if not server.loopback:
            print(f"board: warning: {args.host} may be reached from other machines, and the board has no "
                  f"password", file=sys.stderr, flush=True)

    try:
        serve(args.host, args.port, shlex.split(args.engine) if args.engine else None, args.records,
              {"Hash": args.hash, "Threads": args.threads}, limit=args.boards, ready=ready,
              log=(lambda message: None) if args.quiet else stderr_log)
    except (PodiumError, OSError) as error:
        print(f"board: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
