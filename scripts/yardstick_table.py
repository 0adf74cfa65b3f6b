#!/usr/bin/env python3
"""The table of docs/poldr-yardstick.md from POLD.R match records: for one engine (default
`podium`), per records file, its games, wins and win share with a 95% Wilson interval, the same
per seat (as Blue, Yellow, Red), its mean time per move, its search speed (nodes a second on the
moves it searched at least 50 ms with the game still open for it: the median, and the 10th and
90th percentiles, which show how much a loaded machine slowed it), and the games lost by a fault.

    yardstick_table.py [--engine NAME] [--baseline DIR] [--times] RECORDS...

--baseline DIR adds, for each records file, the share in DIR's records file of the same name (an
earlier build's run of the same row) and the gain in points of share.

--times prints instead where the engine's time went: its moves after it reported a proof (`score
mate`), and the others (the game undecided for it), with their number and mean time each.

A records file may be a match still under way: the table counts the games recorded so far.

Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

FULL_MOVE_MS = 50  # moves searched this long count for the speed: not forced


def wilson(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    if not games:
        return 0.0, 1.0
    share = wins / games
    centre = share + z * z / (2 * games)
    spread = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def share(wins: int, games: int) -> str:
    if not games:
        return "-"
    low, high = wilson(wins, games)
    return f"{wins}/{games} {100 * wins / games:.0f}% [{100 * low:.0f}-{100 * high:.0f}]"


def load(path: str) -> tuple[dict, list[dict]]:
    header, games = {}, []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            record = json.loads(line)
            if record.get("type") == "match":
                header = record
            elif record.get("game") == "poldr":
                games.append(record)
    return header, games


def row(path: str, engine: str) -> list[str]:
    header, games = load(path)
    games = [game for game in games if engine in game["seats"]]
    if not games:
        return [os.path.basename(path), "-", "0"] + ["-"] * 6
    first = games[0]
    players, size, bricks = first["players"], first["size"], first["bricks"]
    others = sorted({name for game in games for name in game["seats"] if name != engine})
    opening = "start" if not first["opening_moves"] else f"{len(first['opening_moves'])} random plies"
    wins = sum(game["winner"] == engine for game in games)
    by_seat = []
    for seat in range(players):
        mine = [game for game in games if game["seats"][seat] == engine]
        by_seat.append(share(sum(game["winner"] == engine for game in mine), len(mine)))
    times, speeds = [], []
    for game in games:
        seat = game["seats"].index(engine)
        for ply, info in enumerate(game["move_info"]):
            if (ply + len(game["opening_moves"])) % players == seat:
                times.append(info["time_ms"])
                # A move after a proof (a mate score) takes its time waiting, not searching.
                decided = str(info.get("score", "")).startswith("mate")
                if info.get("nodes") is not None and info["time_ms"] >= FULL_MOVE_MS and not decided:
                    speeds.append(info["nodes"] / info["time_ms"])  # thousands a second
    faults = sum(game["faulty"] is not None for game in games)
    mean_time = f"{sum(times) / len(times):.0f}" if times else "-"
    speeds.sort()
    speed = f"{speeds[len(speeds) // 2]:.0f}k ({speeds[len(speeds) // 10]:.0f}k-{speeds[len(speeds) * 9 // 10]:.0f}k)" \
        if speeds else "-"
    return [f"{players}p {size}x{size}/{bricks}, {opening}", " + ".join(others), share(wins, len(games)),
            *(by_seat + ["n/a"] * (3 - players)), f"{mean_time} ms", speed, str(faults)]


def engine_moves(game: dict, engine: str) -> list[dict]:
    """The engine's entries of `move_info` in one game."""
    seat, players = game["seats"].index(engine), game["players"]
    return [info for ply, info in enumerate(game["move_info"])
            if (ply + len(game["opening_moves"])) % players == seat]


def times_row(path: str, engine: str) -> list[str]:
    _, games = load(path)
    games = [game for game in games if engine in game["seats"]]
    decided, open_ = [], []
    for game in games:
        for info in engine_moves(game, engine):
            if str(info.get("score", "")).startswith("mate"):
                decided.append(info["time_ms"])
            else:
                open_.append(info["time_ms"])
    mean = lambda times: f"{len(times)}, {sum(times) / len(times):.0f} ms" if times else "0"  # noqa: E731
    return [os.path.basename(path), str(len(games)), mean(decided + open_), mean(open_), mean(decided)]


def wins_games(path: str, engine: str) -> tuple[int, int]:
    _, games = load(path)
    games = [game for game in games if engine in game["seats"]]
    return sum(game["winner"] == engine for game in games), len(games)


def baseline_cells(path: str, earlier: str, engine: str) -> list[str]:
    """The earlier build's share of the same row, and the gain in points."""
    if not os.path.exists(earlier):
        return ["-", "-"]
    (wins, games), (old_wins, old_games) = wins_games(path, engine), wins_games(earlier, engine)
    if not games or not old_games:
        return [share(old_wins, old_games), "-"]
    return [share(old_wins, old_games), f"{100 * (wins / games - old_wins / old_games):+.0f}"]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="yardstick_table.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default="podium", help="the engine measured (its name in the records)")
    parser.add_argument("--baseline", metavar="DIR", help="records of an earlier build, by file name")
    parser.add_argument("--times", action="store_true", help="where the engine's time went (see above)")
    parser.add_argument("records", nargs="+")
    args = parser.parse_args(argv)
    if args.times:
        print(f"| records | games | {args.engine}'s moves, mean time | undecided | after a proof (mate) |")
        print("|---|---|---|---|---|")
        for path in args.records:
            print("| " + " | ".join(times_row(path, args.engine)) + " |")
        return 0
    extra = " baseline | gain |" if args.baseline else ""
    print(f"| row | against | {args.engine} wins, share [95%] |{extra} as Blue | as Yellow | as Red "
          f"| {args.engine}'s mean time a move | its nodes a second, median (10%-90%) | faults |")
    print("|---|---|---|" + "---|---|" * bool(args.baseline) + "---|---|---|---|---|---|")
    for path in args.records:
        cells = row(path, args.engine)
        if args.baseline:
            cells[3:3] = baseline_cells(path, os.path.join(args.baseline, os.path.basename(path)), args.engine)
        print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
