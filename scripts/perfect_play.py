#!/usr/bin/env python3
"""Perfect play as a match's yardstick: every opening of a Pods match proved by `podium solve`, and
each game counted by who held the won side and who won.

    perfect_play.py RECORDS [--engine PATH] [--verdicts FILE] [--movetime MS] [--hash MB]
                            [--openings N] [--concurrency N]

Pods has no draws, so every opening is won for one side with perfect play, and a pair of games
that splits by colour says only which. What tells two engines apart is how often each lets a won
game go, and how often its opponent lets one go to it. Per engine, the table gives its games from
the won side and how many it won, its games from the lost side and how many it won, its score,
and what its score would have been had it never let a win go against the same opponent: the most
a better engine could gain over these openings without setting its opponent more traps.

RECORDS is an arbiter records file of a Pods match. --verdicts FILE keeps the proofs, one JSON
line per opening, read first and added to as openings are proved, so a second run proves nothing
again. An opening not proved within --movetime (the standard game's openings take seconds to
minutes) is left out with its games, and counted. --openings N proves only the first N openings
the match played.

Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from podium.errors import UsageError
from podium.records import is_poldr_record, open_match, points_for, record_engines
from podium.stats import elo_from_score
from podium.verdicts import StoreError, append, read_store
from solve_table import SolveError, solve_answer

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_PODIUM = os.path.join(REPOSITORY, "target", "release", "podium")


class VerdictError(Exception):
    """A verdict that cannot be had or read: the message says which engine, file or line."""


@dataclass(frozen=True)
class Opening:
    """Where the engines took over: the position after the opening's moves, if any."""
    variant: str
    position: str

    def as_json(self) -> dict:
        return {"variant": self.variant, "position": self.position}


@dataclass
class Tally:
    """One engine's games and points, by the side it held with perfect play (a draw is half a point)."""
    held_won: int = 0
    points_held_won: float = 0
    held_lost: int = 0
    points_held_lost: float = 0

    @property
    def games(self) -> int:
        return self.held_won + self.held_lost

    @property
    def points(self) -> float:
        return self.points_held_won + self.points_held_lost

    @property
    def points_never_letting_go(self) -> float:
        return self.held_won + self.points_held_lost


def opening_of(record: dict) -> Opening:
    return Opening(record["variant"], record["opening"])


def read_verdicts(path: str) -> dict[Opening, str | None]:
    """Opening -> the winning side ("white" or "black"), None where the proof ran out of time. The
    file is the verdicts store of scripts/podium/verdicts.py, which scripts/campaign.py writes too."""
    try:
        store = read_store(path)
    except StoreError as error:
        raise VerdictError(str(error)) from None
    return {Opening(variant, position): entry["winner"] for (variant, position), entry in store.items()}


def prove(engine: str, opening: Opening, movetime: int, hash_mb: int) -> str | None:
    """The side that wins `opening` with perfect play, None if not proved within `movetime`."""
    answer = solve_answer(engine, opening.variant, opening.position, movetime, hash_mb)
    if not answer["proven"]:
        return None
    try:
        return {"p1": "white", "p2": "black"}[answer["winner"]]
    except (KeyError, TypeError):
        raise VerdictError(f"podium solve proved {opening.position} without a winner p1 or p2: {answer}") from None


def tally(records: list[dict], verdicts: dict[Opening, str | None]) -> dict[str, Tally]:
    tallies: dict[str, Tally] = {}
    for record in records:
        won_side = verdicts.get(opening_of(record))
        if won_side is None:
            continue
        for side, name in zip(("white", "black"), record_engines(record)):
            engine = tallies.setdefault(name, Tally())
            points = points_for(record, name)
            if side == won_side:
                engine.held_won += 1
                engine.points_held_won += points
            else:
                engine.held_lost += 1
                engine.points_held_lost += points
    return tallies


def score_and_elo(points: float, games: int) -> str:
    score = points / games
    elo = elo_from_score(score)
    shown = f"{round(elo):+d}" if abs(elo) != float("inf") else ("+inf" if elo > 0 else "-inf")
    return f"{100 * score:.1f}% ({shown} Elo)"


def table(tallies: dict[str, Tally]) -> str:
    lines = ["| engine | games from the won side | points | games from the lost side | points | score "
             "| had it never let a win go |",
             "|---|---|---|---|---|---|---|"]
    for name, t in sorted(tallies.items()):
        lines.append(f"| {name} | {t.held_won} | {t.points_held_won:g} | {t.held_lost} | {t.points_held_lost:g} "
                     f"| {score_and_elo(t.points, t.games)} | {score_and_elo(t.points_never_letting_go, t.games)} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", help="the arbiter records file of a Pods match")
    parser.add_argument("--engine", default=DEFAULT_PODIUM, help="the podium binary (default: the release build)")
    parser.add_argument("--verdicts", metavar="FILE", help="proofs read first and added to (default: none kept)")
    parser.add_argument("--movetime", type=int, default=90000, help="give up on an opening after this many ms")
    parser.add_argument("--hash", type=int, default=256, help="hash table size in MB for each proof")
    parser.add_argument("--openings", type=int, metavar="N", help="prove only the first N openings played")
    parser.add_argument("--concurrency", type=int, default=1, help="proofs run at once")
    args = parser.parse_args(argv)
    if args.movetime < 1 or args.hash < 1 or args.concurrency < 1 or (args.openings is not None and args.openings < 1):
        parser.error("--movetime, --hash, --concurrency and --openings must be positive")
    try:
        _, records = open_match(args.records)
        if any(is_poldr_record(record) for record in records):
            raise UsageError(f"{args.records}: a POLD.R match; perfect_play.py reads Pods matches")
        openings = list(dict.fromkeys(opening_of(record) for record in records))[:args.openings]
        verdicts = read_verdicts(args.verdicts) if args.verdicts else {}
        wanted = [opening for opening in openings if opening not in verdicts]

        def proved(opening: Opening) -> tuple[Opening, str | None]:
            return opening, prove(args.engine, opening, args.movetime, args.hash)

        with ThreadPoolExecutor(args.concurrency) as pool:
            for done, (opening, winner) in enumerate(pool.map(proved, wanted), 1):
                verdicts[opening] = winner
                if args.verdicts:
                    append(args.verdicts, {**opening.as_json(), "winner": winner})
                print(f"{done}/{len(wanted)}: {winner or 'not proved'}: {opening.position}", file=sys.stderr,
                      flush=True)
    except (UsageError, VerdictError, SolveError) as error:
        print(f"perfect_play.py: error: {error}", file=sys.stderr)
        return 2
    counted = {opening for opening in openings if verdicts.get(opening)}
    games = [record for record in records if opening_of(record) in counted]
    print(f"{len(counted)} of {len(openings)} openings proved; {len(games)} games counted, "
          f"{len(records) - len(games)} left out")
    print(table(tally(games, verdicts)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
