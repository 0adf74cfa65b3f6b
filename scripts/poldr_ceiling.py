#!/usr/bin/env python3
"""The ceiling against random movers: the exact chance that a POLD.R player wins against opponents
who each play a uniformly random legal move (as scripts/random_mover.py does), when that player
plays the best there is against them. Worked out by expectimax over the whole game tree (the
player takes its best move, every other move is averaged), so it is the most any engine can expect
to win from a position against random movers, and a row of such games cannot be expected to give
more than the mean of its games' ceilings.

    poldr_ceiling.py RECORDS [--engine NAME] [--shard I/N]
                                                      each game's opening, from the engine's seat
    poldr_ceiling.py --position FEN --seat N          one position (seat 1 = Blue)
    poldr_ceiling.py --random-plies N --samples K [--players P --size S --bricks B --seed X]
                                                      K openings of N uniformly random plies

With RECORDS (an arbiter.py records file) it prints the ceiling of each opening for the seat the
engine played, the row's sum against the engine's wins, and the turns where the engine's move
gave up chance (its move's chance against the best move's). The tree is searched whole: a
position too large for --max-states is reported as such. Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the checkout's podium package first
from podium.poldr_rules import Rules, parse_fen, play_names  # noqa: E402

DEFAULT_MAX_STATES = 20_000_000


class TooLarge(Exception):
    """The game tree below a position has more positions than the budget allows."""


class Ceiling:
    """Expectimax for one seat against random movers, with a table of the positions worked out."""

    def __init__(self, rules: Rules, seat: int, max_states: int = DEFAULT_MAX_STATES):
        self.rules, self.seat, self.max_states = rules, seat, max_states
        self.table: dict[tuple, float] = {}

    def chance(self, state: tuple) -> float:
        """The seat's chance to win from state, playing its best against random movers."""
        known = self.table.get(state)
        if known is not None:
            return known
        if len(self.table) >= self.max_states:
            raise TooLarge(f"more than {self.max_states} positions")
        rules = self.rules
        moves = rules.legal_moves(state)
        if not moves:
            value = 1.0 if rules.winner(state) == self.seat else 0.0
        else:
            values = [self.chance(rules.play(state, move)) for move in moves]
            value = max(values) if state[5] % rules.players == self.seat else sum(values) / len(values)
        self.table[state] = value
        return value

    def moves(self, state: tuple) -> dict[str, float]:
        """Each legal move's chance for the seat (the seat to move in state)."""
        return {self.rules.move_name(move): self.chance(self.rules.play(state, move))
                for move in self.rules.legal_moves(state)}


def records_report(path: str, engine: str, max_states: int, shard: tuple[int, int]) -> int:
    """The ceiling of every game of a records file for the engine's seat, with its row's sum."""
    games = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            if record.get("type") == "game" and engine in record["seats"]:
                games.append(record)
    if not games:
        print(f"{path}: no game with an engine named {engine}", file=sys.stderr)
        return 1

    def key(game: dict) -> tuple[str, int]:
        return game["opening_base"] + " " + " ".join(game["opening_moves"]), game["seats"].index(engine)

    # The games of one opening and seat share a table, dropped before the next: it can be gigabytes.
    keys = sorted({key(game) for game in games})
    index, count = shard
    mine = set(keys[index::count])
    total = wins = 0.0
    counted = 0
    ceiling, ceiling_key = None, None
    for game in sorted((game for game in games if key(game) in mine), key=key):
        seat = game["seats"].index(engine)
        rules, state = parse_fen(game["opening_base"])
        state = play_names(rules, state, game["opening_moves"])
        if key(game) != ceiling_key:
            ceiling, ceiling_key = Ceiling(rules, seat, max_states), key(game)
        won = game["winner"] == engine
        try:
            best = ceiling.chance(state)
        except TooLarge as error:
            print(f"game {game['index']}: seat {seat + 1}, {error}: left out", flush=True)
            ceiling, ceiling_key = None, None
            continue
        given_up = []
        for move in game["moves"]:
            if state[5] % rules.players == seat:
                chances = ceiling.moves(state)
                top = max(chances.values())
                if chances[move] < top - 1e-9:
                    given_up.append(f"{move} {chances[move]:.3f} (best {top:.3f})")
            state = play_names(rules, state, [move])
        counted += 1
        total += best
        wins += won
        print(f"game {game['index']}: seat {seat + 1}, ceiling {best:.3f}, {'won' if won else 'lost'}"
              + (f"; chance given up: {', '.join(given_up)}" if given_up else ""), flush=True)
    print(f"{counted} games: ceiling {total:.1f} wins expected at best ({100 * total / max(counted, 1):.1f}%), "
          f"{engine} won {wins:.0f} ({100 * wins / max(counted, 1):.1f}%)")
    return 0


def random_opening(rules: Rules, state: tuple, plies: int, rng: random.Random) -> tuple | None:
    for _ in range(plies):
        moves = rules.legal_moves(state)
        if not moves:
            return None
        state = rules.play(state, rng.choice(moves))
    return state


def samples_report(args: argparse.Namespace) -> int:
    """The mean ceiling of each seat over random openings, with a 95% interval."""
    rules = Rules(args.size, args.players)
    rng = random.Random(args.seed)
    per_seat: list[list[float]] = [[] for _ in range(args.players)]
    drawn = 0
    while drawn < args.samples:
        state = random_opening(rules, rules.start(args.bricks), args.random_plies, rng)
        if state is None:
            continue
        drawn += 1
        values = []
        for seat in range(args.players):
            try:
                value = Ceiling(rules, seat, args.max_states).chance(state)
            except TooLarge:
                values.append("too large")
                continue
            per_seat[seat].append(value)
            values.append(f"{value:.3f}")
        print(f"{rules.fen(state)}: " + ", ".join(f"seat {seat + 1} {value}" for seat, value in enumerate(values)),
              flush=True)
    everything = [value for values in per_seat for value in values]
    for seat, values in enumerate(per_seat + [everything]):
        if not values:
            continue
        mean = sum(values) / len(values)
        spread = math.sqrt(sum((value - mean) ** 2 for value in values) / max(len(values) - 1, 1))
        half = 1.96 * spread / math.sqrt(len(values))
        name = f"seat {seat + 1}" if seat < args.players else "every seat"
        print(f"{name}: mean ceiling {100 * mean:.1f}% ({100 * (mean - half):.1f}-{100 * (mean + half):.1f}) "
              f"over {len(values)} openings")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", nargs="?", help="an arbiter.py records file")
    parser.add_argument("--engine", default="podium", help="the engine whose seat is measured (default podium)")
    parser.add_argument("--position", help="one position line")
    parser.add_argument("--seat", type=int, help="the seat measured with --position (1 = Blue)")
    parser.add_argument("--random-plies", type=int, help="openings of this many uniformly random plies")
    parser.add_argument("--samples", type=int, default=20, help="how many such openings (default 20)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--bricks", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shard", default="0/1", help="I/N: this shard's openings of RECORDS only (default 0/1)")
    parser.add_argument("--max-states", type=int, default=DEFAULT_MAX_STATES,
                        help=f"the most positions one ceiling may work out (default {DEFAULT_MAX_STATES})")
    args = parser.parse_args(argv)
    sys.setrecursionlimit(10_000)
    try:
        if args.records:
            index, _, count = args.shard.partition("/")
            if not (index.isdigit() and count.isdigit() and int(index) < int(count)):
                parser.error(f"--shard: I/N with I below N, not {args.shard}")
            return records_report(args.records, args.engine, args.max_states, (int(index), int(count)))
        if args.position:
            rules, state = parse_fen(args.position)
            if args.seat is None or not 1 <= args.seat <= rules.players:
                parser.error(f"--seat: 1 to {rules.players} with --position")
            ceiling = Ceiling(rules, args.seat - 1, args.max_states)
            print(f"ceiling {ceiling.chance(state):.4f}")
            if state[5] % rules.players == args.seat - 1:
                for move, chance in sorted(ceiling.moves(state).items(), key=lambda item: -item[1]):
                    print(f"  {move} {chance:.4f}")
            return 0
        if args.random_plies is not None:
            return samples_report(args)
    except (OSError, ValueError, KeyError) as error:
        print(f"poldr_ceiling.py: {error}", file=sys.stderr)
        return 1
    except TooLarge as error:
        print(f"poldr_ceiling.py: the position's tree is too large: {error}", file=sys.stderr)
        return 1
    parser.error("give a records file, --position with --seat, or --random-plies")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
