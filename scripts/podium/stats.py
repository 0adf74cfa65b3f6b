"""The statistics of a match: Elo with its interval from game or pair (pentanomial) results, the
likelihood of superiority, the SPRT, Wilson intervals of win shares, and the tally of results
they are computed from."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from .errors import ENGINE_FAULTS
from .notation import poldr_reserves
from .records import faulty_engine, is_poldr_record, points_for, record_engines, winner_of

Z_95 = 1.959963984540054  # two-sided 95% quantile of the normal distribution
# Below this many complete game pairs the reports give no Elo and no LOS, only "too few games": three
# pairs of one binary against itself read "LOS 99.28%, +120 +/- 109", which says nothing.
MIN_PAIRS = 10
GAME_SCORES = (0.0, 0.5, 1.0)  # loss, draw, win
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # LL, LD, WL+DD, WD, WW (pair points / 2)


def elo_from_score(score: float) -> float:
    """Logistic Elo difference for an expected score: -400 * log10(1/score - 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def mean_and_variance(counts: list[float], values: tuple[float, ...]) -> tuple[float, float]:
    total = sum(counts)
    mean = sum(count * value for count, value in zip(counts, values)) / total
    variance = sum(count * (value - mean) ** 2 for count, value in zip(counts, values)) / total
    return mean, variance


@dataclass(frozen=True)
class EloEstimate:
    """The first engine's Elo against the second with its 95% interval, from `count` results, each
    a game or a game pair (`unit`). What the results cannot tell is not made up:

    no results: elo, low and high are nan; every result a win (a loss): elo is +inf (-inf), the
    interval is bounded on one side only; every result the same draw-like score: no interval yet
    (low and high nan); an interval that reaches a score of 1 (0): high is +inf (low is -inf)."""
    elo: float
    low: float
    high: float
    count: int
    unit: str  # "game" or "game pair"

    @property
    def margin(self) -> float:
        """Half the interval's width; nan unless it is bounded on both sides."""
        return (self.high - self.low) / 2 if math.isfinite(self.low) and math.isfinite(self.high) else math.nan


def elo_estimate(counts: list[float], values: tuple[float, ...], unit: str) -> EloEstimate:
    """Elo and its 95% interval, from outcome counts and their scores in [0, 1].

    counts/values are per game (L, D, W) or per pair (pentanomial); the interval is the normal
    interval of the mean score mapped through elo_from_score. When every result is a win (a loss)
    the results have no spread to measure; the bound is then the Wilson interval's of n wins in n."""
    n = sum(counts)
    if n == 0:
        return EloEstimate(math.nan, math.nan, math.nan, 0, unit)
    mean, variance = mean_and_variance(counts, values)
    if mean >= 1 or mean <= 0:
        low, high = wilson_interval(n if mean >= 1 else 0, n)
        return EloEstimate(elo_from_score(mean), elo_from_score(low), elo_from_score(high), n, unit)
    if variance < 1e-12:  # every result alike (all draws, all pairs WL): no spread measured yet
        return EloEstimate(elo_from_score(mean), math.nan, math.nan, n, unit)
    spread = Z_95 * math.sqrt(variance / n)
    return EloEstimate(elo_from_score(mean), elo_from_score(mean - spread), elo_from_score(mean + spread), n, unit)


def wilson_interval(wins: int, games: int) -> tuple[float, float]:
    """95% Wilson score interval of a win share (sound for small samples and shares near 0 or 1):
    (p + z^2/2n -/+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n), p = wins / games."""
    if games == 0:
        return 0.0, 1.0
    share, z2 = wins / games, Z_95 ** 2
    centre = share + z2 / (2 * games)
    spread = Z_95 * math.sqrt(share * (1 - share) / games + z2 / (4 * games ** 2))
    scale = 1 + z2 / games
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def likelihood_of_superiority(wins: int, losses: int) -> float:
    """LOS from wins and losses (draws carry no information): 0.5 * (1 + erf((W-L) / sqrt(2(W+L))))."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * (wins + losses))))


def pair_likelihood_of_superiority(pentanomial: list[int]) -> float:
    """LOS from game pairs [LL, LD, WL+DD, WD, WW], by the normal approximation the pair Elo's
    interval uses: 0.5 * (1 + erf((mean - 1/2) / sqrt(2 var / n))) over the pair scores. Pairs,
    not games, are the independent results: where the colour decides most games, as in the
    standard game, counting games as independent understates what the pairs show."""
    n = sum(pentanomial)
    if n == 0:
        return 0.5
    mean, variance = mean_and_variance(pentanomial, PAIR_SCORES)
    if variance < 1e-12:  # every pair alike: its side of 1/2 is all there is to say
        return 0.5 if mean == 0.5 else float(mean > 0.5)
    return 0.5 * (1 + math.erf((mean - 0.5) / math.sqrt(2 * variance / n)))


def logistic_score(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_llr(pentanomial: list[int], elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (elo1) against H0 (elo0), logistic Elo, from pentanomial counts
    [LL, LD, WL+DD, WD, WW], with the GSPRT approximation of fishtest and fastchess:
    LLR = N/2 * ln((var + (mean - s0)^2) / (var + (mean - s1)^2)), s = logistic score of each Elo.
    Empty cells count 0.001 (as in fastchess) so that all-equal results still move the LLR, except
    while every pair has split 1-1 (WL or DD): such pairs say nothing of which engine is stronger,
    and the 0.001s would make their variance all but zero, so that six of them accepted H0 of a
    0-10 Elo test (the standard game splits about nine pairs in ten). The LLR stays 0 until a pair
    falls elsewhere."""
    if sum(pentanomial) == 0 or sum(pentanomial) == pentanomial[2]:
        return 0.0
    counts = [count if count else 1e-3 for count in pentanomial]
    mean, variance = mean_and_variance(counts, PAIR_SCORES)
    score0, score1 = logistic_score(elo0), logistic_score(elo1)
    return 0.5 * sum(counts) * math.log((variance + (mean - score0) ** 2) / (variance + (mean - score1) ** 2))


@dataclass(frozen=True)
class Sprt:
    elo0: float
    elo1: float
    alpha: float
    beta: float

    def verdict(self, llr: float) -> str:
        lower, upper = sprt_bounds(self.alpha, self.beta)
        if llr >= upper:
            return "H1 accepted"
        if llr <= lower:
            return "H0 accepted"
        return "continue"


def count_of(number: int, thing: str) -> str:
    """'1 game', '2 games'."""
    return f"{number} {thing}{'' if number == 1 else 's'}"


def share_with_interval(wins: int, games: int) -> str:
    if not games:
        return "win share n/a (no games)"
    low, high = wilson_interval(wins, games)
    return f"win share {100 * wins / games:.2f}% (95% interval {100 * low:.2f}% to {100 * high:.2f}%)"


def format_elo(estimate: EloEstimate) -> str:
    """'+34.9 +/- 122.1'; '> -233.1' when every result was a win; '+0.0, no interval yet' when
    every result was alike; 'n/a' without results (elo_basis says what it rests on)."""
    def signed(value: float) -> str:
        return f"{value + 0.0:+.1f}"  # + 0.0 turns -0.0 into 0.0

    if estimate.count == 0:
        return "n/a"
    if estimate.elo == math.inf:
        return f"> {signed(estimate.low)}"
    if estimate.elo == -math.inf:
        return f"< {signed(estimate.high)}"
    if math.isnan(estimate.low):
        return f"{signed(estimate.elo)}, no interval yet"
    if not math.isfinite(estimate.low) or not math.isfinite(estimate.high):
        return f"{signed(estimate.elo)}, interval {estimate.low:+.1f} to {estimate.high:+.1f}"
    return f"{signed(estimate.elo)} +/- {estimate.margin:.1f}"


def elo_basis(estimate: EloEstimate) -> str:
    """What format_elo's figures rest on: '95%, from 10 game pairs', 'from 2 game pairs' (no interval)."""
    if estimate.count == 0:
        return "no games"
    basis = f"from {count_of(estimate.count, estimate.unit)}"
    return basis if math.isnan(estimate.low) else f"95%, {basis}"


class Tally:
    """A match's results: wins per engine and per seat, and, for the two-player statistics (Elo,
    pentanomial, SPRT), games from the first engine's point of view. The first engine plays every game."""

    def __init__(self, first: str):
        self.first = first
        self.wins = self.losses = self.draws = 0  # the first engine's
        self.faults: Counter[tuple[str, str]] = Counter()  # (engine, reason)
        self.engine_wins: Counter[str] = Counter()
        self.seat_wins: Counter[str] = Counter()  # POLD.R: "p1", "p2", "p3" -> games won from that seat
        self.final_reserves: dict[str, list[int]] = {}  # POLD.R: engine -> its reserve when each game ended
        self._pair_points: dict[int, list[float]] = {}

    def add(self, record: dict) -> None:
        points = points_for(record, self.first)
        if points == 1:
            self.wins += 1
        elif points == 0:
            self.losses += 1
        else:
            self.draws += 1
        engines = record_engines(record)
        if len(engines) == 2:
            self._pair_points.setdefault(record["group"], []).append(points)
        if winner := winner_of(record):
            self.engine_wins[winner] += 1
        if is_poldr_record(record):
            self.seat_wins[record["result"][:-len("win")]] += 1
            if "final" in record:  # records written before final positions were recorded have none
                for name, reserve in zip(engines, poldr_reserves(record["final"])):
                    self.final_reserves.setdefault(name, []).append(reserve)
        if record["reason"] in ENGINE_FAULTS:
            self.faults[(faulty_engine(record), record["reason"])] += 1

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    def trinomial(self) -> list[int]:
        return [self.losses, self.draws, self.wins]

    def elo(self) -> EloEstimate:
        """Elo from game pairs (the pentanomial) once there is a complete pair, else from games."""
        pentanomial = self.pentanomial()
        if sum(pentanomial):
            return elo_estimate(pentanomial, PAIR_SCORES, "game pair")
        return elo_estimate(self.trinomial(), GAME_SCORES, "game")

    def los(self) -> float:
        """The likelihood of superiority, from the same results as `elo`."""
        pentanomial = self.pentanomial()
        if sum(pentanomial):
            return pair_likelihood_of_superiority(pentanomial)
        return likelihood_of_superiority(self.wins, self.losses)

    def enough_pairs(self) -> bool:
        """Whether there are the MIN_PAIRS complete game pairs that Elo and LOS need to say anything."""
        return sum(self.pentanomial()) >= MIN_PAIRS

    def pentanomial(self) -> list[int]:
        """[LL, LD, WL+DD, WD, WW] over complete pairs."""
        counts = [0] * 5
        for points in self._pair_points.values():
            if len(points) == 2:
                counts[round(2 * sum(points))] += 1
        return counts
