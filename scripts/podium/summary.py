"""The figures of a match page, from the records of the match: tallied and computed by the arbiter's
own statistics (stats.py), never recomputed here.

Two players: the first engine's wins, losses and draws, Elo with its 95% interval (from game
pairs, the pentanomial, when there are any), LOS, the pentanomial and the SPRT's state. Every
match: each engine's wins and win share with its 95% (Wilson) interval; POLD.R also each seat's.
And the running score: each engine's share of the points after every game."""

from __future__ import annotations

from dataclasses import dataclass

from .notation import POLDR_COLOURS
from .records import is_poldr_record, points_for, record_engines, record_index
from .rules import GameRules
from .stats import EloEstimate, Sprt, Tally, sprt_bounds, sprt_llr, wilson_interval

DEFAULT_SPRT = Sprt(elo0=0.0, elo1=5.0, alpha=0.05, beta=0.05)  # the arbiter's --sprt defaults


@dataclass(frozen=True)
class WinShare:
    """Games won out of games played by an engine, or from a seat, with the share's 95% interval."""
    label: str
    games: int
    wins: int
    low: float
    high: float

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class SprtState:
    test: Sprt
    llr: float
    lower: float
    upper: float
    verdict: str  # H0 accepted, H1 accepted, continue


@dataclass(frozen=True)
class HeadToHead:
    """The first engine against the second (two players)."""
    wins: int
    losses: int
    draws: int
    score: float  # points per game
    elo: EloEstimate  # from game pairs (the pentanomial) when there are any, else from games
    los: float
    pentanomial: list[int]  # [LL, LD, WL+DD, WD, WW]
    sprt: SprtState


@dataclass(frozen=True)
class MatchSummary:
    engines: list[str]
    rules: GameRules
    games: int
    engine_wins: list[WinShare]
    seat_wins: list[WinShare]  # POLD.R only
    head_to_head: HeadToHead | None  # two players only
    faults: list[tuple[str, str, int]]  # (engine, reason, games lost so)
    running_score: dict[str, list[float]]  # engine -> its share of the points after games 1, 2, ...


def match_summary(records: list[dict], sprt: Sprt | None = None) -> MatchSummary:
    """The summary of a match's records (any order; games are counted by their number)."""
    if not records:
        raise ValueError("a match summary needs at least one game record")
    records = sorted(records, key=record_index)
    engines = record_engines(records[0])  # the first game seats the engines in their match order
    tally = Tally(engines[0])
    for record in records:
        tally.add(record)
    rules = rules_of(records[0])
    seat_wins = []
    if rules.poldr:
        seat_wins = [_win_share(f"{seat} ({colour})", tally.seat_wins[seat], tally.games)
                     for seat, colour in zip(rules.seat_keys, POLDR_COLOURS)]
    return MatchSummary(
        engines=engines,
        rules=rules,
        games=tally.games,
        engine_wins=[_win_share(name, tally.engine_wins[name], tally.games) for name in engines],
        seat_wins=seat_wins,
        head_to_head=_head_to_head(tally, sprt or DEFAULT_SPRT) if len(engines) == 2 else None,
        faults=[(engine, reason, count) for (engine, reason), count in sorted(tally.faults.items())],
        running_score=_running_score(records, engines),
    )


def rules_of(record: dict) -> GameRules:
    if is_poldr_record(record):
        return GameRules("poldr", players=len(record["seats"]), size=record["size"], bricks=record["bricks"])
    return GameRules("pods", variant=record.get("variant", "standard"))


def _win_share(label: str, wins: int, games: int) -> WinShare:
    return WinShare(label, games, wins, *wilson_interval(wins, games))


def _head_to_head(tally: Tally, sprt: Sprt) -> HeadToHead:
    """As the arbiter's report."""
    pentanomial = tally.pentanomial()
    llr = sprt_llr(pentanomial, sprt.elo0, sprt.elo1)
    state = SprtState(sprt, llr, *sprt_bounds(sprt.alpha, sprt.beta), sprt.verdict(llr))
    return HeadToHead(tally.wins, tally.losses, tally.draws, tally.score(), tally.elo(),
                      tally.los(), pentanomial, state)


def _running_score(records: list[dict], engines: list[str]) -> dict[str, list[float]]:
    running = {}
    for name in engines:
        points, shares = 0.0, []
        for played, record in enumerate(records, 1):
            points += points_for(record, name)
            shares.append(points / played)
        running[name] = shares
    return running
