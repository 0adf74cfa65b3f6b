#!/usr/bin/env python3
"""The ceiling against random movers for rows of POLD.R games: the chance that a seat wins when it
plays its best and every other seat plays a uniformly random legal move (as scripts/random_mover.py
does), worked out exactly over the whole game tree by `podium ceiling` (expectimax: the seat takes
its best move, the others' moves are averaged). It is the most any engine can expect from a
position against random movers, so a row of such games cannot be expected to give more than the
mean of its games' ceilings.

    poldr_ceiling.py RECORDS [--engine NAME] [--turns] [--shard I/N]
        every game of an arbiter.py records file: the ceiling of its opening for the seat the
        engine played, the row's sum against the engine's wins; --turns: also the engine's turns
        whose move gave up chance (its move's chance against the best move's)
    poldr_ceiling.py --random-plies N --samples K [--players P --size S --bricks B --seed X]
        K openings of N uniformly random plies: each seat's mean ceiling, with a 95% interval

--podium PATH (default: the release build), --hash MB (its table; a smaller one only takes
longer), --nodes N (give a position up after N positions worked out). Python 3.11 standard
library only.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the checkout's podium package first
from campaign import parse_shard  # noqa: E402
from podium.poldr_rules import Rules, parse_fen, play_names  # noqa: E402
from solve_table import DEFAULT_PODIUM  # noqa: E402


class CeilingFailed(Exception):
    """podium ceiling gave no answer (a position given up, a bad position)."""


def ceiling(args: argparse.Namespace, position: str, seat: int) -> dict:
    """podium ceiling's JSON answer for `position` and `seat` (0 = Blue)."""
    command = [args.podium, "ceiling", "--game", "poldr", "--fen", position, "--seat", str(seat + 1),
               "--hash", str(args.hash), "--json"]
    if args.nodes:
        command += ["--nodes", str(args.nodes)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise CeilingFailed(done.stderr.strip() or f"podium ceiling exited with {done.returncode}")
    return json.loads(done.stdout)


def records_report(args: argparse.Namespace) -> int:
    """The ceiling of every game of a records file for the engine's seat, with the row's sum."""
    games = []
    with open(args.records, encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            if record.get("type") == "game" and args.engine in record["seats"]:
                games.append(record)
    if not games:
        print(f"poldr_ceiling.py: {args.records}: no game with an engine named {args.engine}", file=sys.stderr)
        return 1

    def opening_and_seat(game: dict) -> tuple[str, int]:
        rules, state = parse_fen(game["opening_base"])
        return rules.fen(play_names(rules, state, game["opening_moves"])), game["seats"].index(args.engine)

    # A shard takes every Nth opening and seat, so that no two work out the same.
    shard, shards = args.shard
    keys = sorted({opening_and_seat(game) for game in games})
    mine = set(keys[shard::shards])
    total = wins = 0.0
    counted = 0
    known: dict[tuple[str, int], float | CeilingFailed] = {}
    for game in games:
        opening, seat = opening_and_seat(game)
        if (opening, seat) not in mine:
            continue
        rules, state = parse_fen(opening)
        won = game["winner"] == args.engine
        try:
            if (opening, seat) not in known:
                try:
                    known[(opening, seat)] = ceiling(args, opening, seat)["chance"]
                except CeilingFailed as error:
                    known[(opening, seat)] = error  # the other games of this opening and seat too
            best = known[(opening, seat)]
            if isinstance(best, CeilingFailed):
                raise best
            given_up = []
            for move in game["moves"] if args.turns else []:
                if state[5] % rules.players == seat:
                    answer = ceiling(args, rules.fen(state), seat)
                    chances = {entry["move"]: entry["chance"] for entry in answer["moves"]}
                    top = max(chances.values())
                    if chances[move] < top - 1e-9:
                        given_up.append(f"{move} {chances[move]:.3f} (best {top:.3f})")
                state = play_names(rules, state, [move])
        except CeilingFailed as error:
            print(f"game {game['index']}: seat {seat + 1}, left out: {error}", flush=True)
            continue
        counted += 1
        total += best
        wins += won
        print(f"game {game['index']}: seat {seat + 1}, ceiling {best:.3f}, {'won' if won else 'lost'}"
              + (f"; chance given up: {', '.join(given_up)}" if given_up else ""), flush=True)
    print(f"{counted} games: ceiling {total:.1f} wins expected at best ({100 * total / max(counted, 1):.1f}%), "
          f"{args.engine} won {wins:.0f} ({100 * wins / max(counted, 1):.1f}%)")
    return 0


def random_opening(rules: Rules, state: tuple, plies: int, rng: random.Random) -> tuple | None:
    """`plies` uniformly random moves from `state`, None if the game ends first."""
    for _ in range(plies):
        moves = rules.legal_moves(state)
        if not moves:
            return None
        state = rules.play(state, rng.choice(moves))
    return state if rules.legal_moves(state) else None


def samples_report(args: argparse.Namespace) -> int:
    """Each seat's mean ceiling over random openings, with a 95% interval."""
    rules = Rules(args.size, args.players)
    rng = random.Random(args.seed)
    per_seat: list[list[float]] = [[] for _ in range(args.players)]
    drawn = 0
    while drawn < args.samples:
        state = random_opening(rules, rules.start(args.bricks), args.random_plies, rng)
        if state is None:
            continue
        drawn += 1
        opening = rules.fen(state)
        words = []
        for seat in range(args.players):
            try:
                chance = ceiling(args, opening, seat)["chance"]
            except CeilingFailed as error:
                words.append(f"seat {seat + 1} left out ({error})")
                continue
            per_seat[seat].append(chance)
            words.append(f"seat {seat + 1} {chance:.3f}")
        print(f"{opening}: {', '.join(words)}", flush=True)
    for name, values in [(f"seat {seat + 1}", values) for seat, values in enumerate(per_seat)] + [
            ("every seat", [value for values in per_seat for value in values])]:
        if not values:
            continue
        mean = sum(values) / len(values)
        spread = math.sqrt(sum((value - mean) ** 2 for value in values) / max(len(values) - 1, 1))
        half = 1.96 * spread / math.sqrt(len(values))
        print(f"{name}: mean ceiling {100 * mean:.1f}% ({100 * (mean - half):.1f}-{100 * (mean + half):.1f}) "
              f"over {len(values)} openings")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", nargs="?", help="an arbiter.py records file")
    parser.add_argument("--engine", default="podium", help="the engine whose seat is measured (default podium)")
    parser.add_argument("--turns", action="store_true", help="also each of the engine's turns that gave up chance")
    parser.add_argument("--shard", type=parse_shard, default=(0, 1), metavar="I/N",
                        help="I/N: every Nth of the openings and seats, from the Ith")
    parser.add_argument("--random-plies", type=int, help="openings of this many uniformly random plies")
    parser.add_argument("--samples", type=int, default=20, help="how many such openings (default 20)")
    parser.add_argument("--players", type=int, default=3, choices=(2, 3))
    parser.add_argument("--size", type=int, default=5, choices=range(4, 10), metavar="4..9")
    parser.add_argument("--bricks", type=int, default=16, choices=range(1, 41), metavar="1..40")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--podium", default=DEFAULT_PODIUM, help="the podium binary (default: the release build)")
    parser.add_argument("--hash", type=int, default=1024, help="podium ceiling's table in MB (default 1024)")
    parser.add_argument("--nodes", type=int, help="give a position up after this many positions worked out")
    args = parser.parse_args(argv)
    try:
        if args.records:
            return records_report(args)
        if args.random_plies is not None:
            return samples_report(args)
    except (OSError, ValueError, KeyError) as error:
        print(f"poldr_ceiling.py: {error}", file=sys.stderr)
        return 1
    parser.error("give a records file or --random-plies")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
