"""The figures of a match page, from the records of the match: tallied and computed by the arbiter's
own statistics (stats.py), never recomputed here.

Two players: the first engine's wins, losses and draws, Elo with its 95% interval (from game
pairs, the pentanomial, when there are any), LOS, the pentanomial and the SPRT's state. Every
match: each engine's wins and win share with its 95% (Wilson) interval; POLD.R also each seat's.
And the running score: each engine's share of the points after every game.

figure_rows() gives the page's table of figures as it should read: no SPRT row unless an SPRT was
asked for (the report's --sprt, or the match's own), and below MIN_PAIRS complete game pairs "too
few games" where Elo and LOS would be."""

from __future__ import annotations

from dataclasses import dataclass

from .notation import POLDR_COLOURS
from .records import points_for, record_engines, record_index, record_rules
from .rules import GameRules
from .stats import (MIN_PAIRS, EloEstimate, Sprt, Tally, count_of, elo_basis, format_elo, sprt_bounds, sprt_llr,
                    wilson_interval)

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
    sprt: SprtState  # the SPRT asked for; when none was (sprt_requested False), the arbiter's defaults
    sprt_requested: bool = False
    enough: bool = True  # MIN_PAIRS complete game pairs or more: else Elo and LOS say nothing yet


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
        head_to_head=_head_to_head(tally, sprt) if len(engines) == 2 else None,
        faults=[(engine, reason, count) for (engine, reason), count in sorted(tally.faults.items())],
        running_score=_running_score(records, engines),
    )


def rules_of(record: dict) -> GameRules:
    return record_rules(record)


def _win_share(label: str, wins: int, games: int) -> WinShare:
    return WinShare(label, games, wins, *wilson_interval(wins, games))


def _head_to_head(tally: Tally, sprt: Sprt | None) -> HeadToHead:
    """As the arbiter's report."""
    pentanomial = tally.pentanomial()
    test = sprt or DEFAULT_SPRT
    llr = sprt_llr(pentanomial, test.elo0, test.elo1)
    state = SprtState(test, llr, *sprt_bounds(test.alpha, test.beta), test.verdict(llr))
    return HeadToHead(tally.wins, tally.losses, tally.draws, tally.score(), tally.elo(),
                      tally.los(), pentanomial, state, sprt is not None, tally.enough_pairs())


def figure_rows(summary: MatchSummary) -> list[tuple[str, str]]:
    """The page's figures, (name, value) rows: the game, the games, and with two players W-L-D, Elo,
    LOS, the pentanomial, and the SPRT if one was asked for. Elo and LOS read "too few games" below
    MIN_PAIRS complete game pairs."""
    rows = [("Game", summary.rules.describe()), ("Games", str(summary.games))]
    duel = summary.head_to_head
    if duel is None:
        return rows
    first, second = summary.engines
    pairs = count_of(sum(duel.pentanomial), "pair")
    few = f"too few games ({pairs}; Elo and LOS need {MIN_PAIRS})"
    rows += [
        (f"W-L-D of {first} against {second}", f"{duel.wins}-{duel.losses}-{duel.draws}, score "
         f"{100 * duel.score:.1f}%"),
        ("Elo", f"{format_elo(duel.elo)} ({elo_basis(duel.elo)})" if duel.enough else few),
        ("LOS", f"{100 * duel.los:.1f}%" if duel.enough else few),
        ("Pentanomial [LL, LD, WL+DD, WD, WW]", f"{duel.pentanomial} over {pairs}"),
    ]
    if duel.sprt_requested:
        sprt = duel.sprt
        test = f"elo0 {sprt.test.elo0:g}, elo1 {sprt.test.elo1:g}, alpha {sprt.test.alpha:g}, beta {sprt.test.beta:g}"
        rows.append(("SPRT", f"LLR {sprt.llr:.2f} in ({sprt.lower:.2f}, {sprt.upper:.2f}): {sprt.verdict}; {test}"))
    return rows


def _running_score(records: list[dict], engines: list[str]) -> dict[str, list[float]]:
    running = {}
    for name in engines:
        points, shares = 0.0, []
        for played, record in enumerate(records, 1):
            points += points_for(record, name)
            shares.append(points / played)
        running[name] = shares
    return running
