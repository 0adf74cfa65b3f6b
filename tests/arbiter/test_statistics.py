#!/usr/bin/env python3
"""Tests of the arbiter's arithmetic: Elo, intervals, LOS, SPRT, the tally of results, seatings and
clocks. No engine is needed.

    python3 tests/arbiter/test_statistics.py
"""

import math
import unittest

import support  # noqa: F401  (puts the checkout's scripts/ on sys.path)

from podium import game, notation, records, settings, stats, summary
from podium.clock import GameClock, TimeControl, parse_tc
from podium.errors import UsageError
from podium.rules import GameRules


class StatisticsTest(unittest.TestCase):
    """Expected values are worked out by hand in the comments."""

    def test_elo_from_score(self):
        # 0.75 -> -400 * log10(1/0.75 - 1) = -400 * log10(1/3) = 400 * 0.477121 = 190.85
        self.assertAlmostEqual(stats.elo_from_score(0.75), 190.85, places=2)
        # 0.5 -> log10(1) = 0; 0.25 mirrors 0.75
        self.assertEqual(stats.elo_from_score(0.5), 0.0)
        self.assertAlmostEqual(stats.elo_from_score(0.25), -190.85, places=2)
        self.assertEqual(stats.elo_from_score(1.0), math.inf)

    def test_trinomial_elo_and_interval(self):
        # W=6 L=2 D=2: score s = (6 + 1) / 10 = 0.7 -> Elo = -400 log10(1/0.7 - 1) = 147.19
        # per-game variance = (6 * 0.3^2 + 2 * 0.7^2 + 2 * 0.2^2) / 10 = (0.54 + 0.98 + 0.08) / 10 = 0.16
        # standard error = sqrt(0.16 / 10) = 0.126491; 1.959964 * 0.126491 = 0.247919
        # Elo(0.947919) = 504.04, Elo(0.452081) = -33.40 -> margin = (504.04 + 33.40) / 2 = 268.72
        estimate = stats.elo_estimate([2, 2, 6], stats.GAME_SCORES, "game")
        self.assertAlmostEqual(estimate.elo, 147.19, places=2)
        self.assertAlmostEqual(estimate.margin, 268.72, places=1)
        self.assertEqual(stats.format_elo(estimate), "+147.2 +/- 268.7")
        self.assertEqual(stats.elo_basis(estimate), "95%, from 10 games")

    def test_likelihood_of_superiority(self):
        # W=6 L=2: 0.5 * (1 + erf(4 / sqrt(2 * 8))) = 0.5 * (1 + erf(1)) = 0.5 * 1.842701 = 0.921350
        self.assertAlmostEqual(stats.likelihood_of_superiority(6, 2), 0.921350, places=6)
        self.assertEqual(stats.likelihood_of_superiority(3, 3), 0.5)
        self.assertEqual(stats.likelihood_of_superiority(0, 0), 0.5)

    def test_pair_likelihood_of_superiority(self):
        # [1, 1, 4, 3, 1]: mean 0.55, variance 0.0725 (see the pentanomial Elo test), n = 10
        # z = 0.05 / sqrt(2 * 0.0725 / 10) = 0.415227; 0.5 * (1 + erf(z)) = 0.721472
        self.assertAlmostEqual(stats.pair_likelihood_of_superiority([1, 1, 4, 3, 1]), 0.721472, places=6)
        # 19 pairs lost both games, 107 split, 3 won both: W-L 113-146 gives 2.02% counted by
        # games, but the pairs put it far lower: mean 0.437984, variance 0.038790, n = 129,
        # z = -0.062016 / sqrt(2 * 0.038790 / 129) = -2.528842, LOS = 0.000174
        self.assertAlmostEqual(stats.likelihood_of_superiority(113, 146), 0.020157, places=6)
        self.assertAlmostEqual(stats.pair_likelihood_of_superiority([19, 0, 107, 0, 3]), 0.000174, places=6)
        # no spread: only the side of 1/2 speaks
        self.assertEqual(stats.pair_likelihood_of_superiority([0, 0, 5, 0, 0]), 0.5)
        self.assertEqual(stats.pair_likelihood_of_superiority([0, 0, 0, 0, 3]), 1.0)
        self.assertEqual(stats.pair_likelihood_of_superiority([2, 0, 0, 0, 0]), 0.0)
        self.assertEqual(stats.pair_likelihood_of_superiority([0, 0, 0, 0, 0]), 0.5)

    def test_pentanomial_elo_and_interval(self):
        # pairs [LL, LD, WL+DD, WD, WW] = [1, 1, 4, 3, 1], pair scores 0, .25, .5, .75, 1
        # mean = (0 + 0.25 + 2 + 2.25 + 1) / 10 = 0.55 -> Elo = -400 log10(1/0.55 - 1) = 34.86
        # variance = (0.55^2 + 0.3^2 + 4 * 0.05^2 + 3 * 0.2^2 + 0.45^2) / 10 = 0.725 / 10 = 0.0725
        # se = sqrt(0.0725 / 10) = 0.085147; 1.959964 * se = 0.166886
        # Elo(0.716886) = 161.04, Elo(0.383114) = -83.10 -> margin = 122.07
        estimate = stats.elo_estimate([1, 1, 4, 3, 1], stats.PAIR_SCORES, "game pair")
        self.assertAlmostEqual(estimate.elo, 34.86, places=2)
        self.assertAlmostEqual(estimate.margin, 122.07, places=1)

    def test_elo_of_empty_and_one_sided_samples(self):
        # no results: nothing to say
        nothing = stats.elo_estimate([0, 0, 0], stats.GAME_SCORES, "game")
        self.assertEqual((stats.format_elo(nothing), stats.elo_basis(nothing)), ("n/a", "no games"))
        # every game won, 4 of 4: the Wilson interval's lower end, 4 / (4 + z^2) = 4 / 7.841459 = 0.510109
        # -> Elo -400 log10(1/0.510109 - 1) = +7.03, unbounded above
        won = stats.elo_estimate([0, 0, 4], stats.GAME_SCORES, "game")
        self.assertEqual((won.elo, won.high), (math.inf, math.inf))
        self.assertAlmostEqual(won.low, 7.03, places=2)
        self.assertEqual(stats.format_elo(won), "> +7.0")
        self.assertEqual(stats.elo_basis(won), "95%, from 4 games")
        # one pair, lost twice: the Wilson interval of 0 in 1 ends at z^2 / (1 + z^2) = 0.793457 -> +233.8
        lost = stats.elo_estimate([1, 0, 0, 0, 0], stats.PAIR_SCORES, "game pair")
        self.assertEqual(stats.format_elo(lost), "< +233.8")
        self.assertEqual(stats.elo_basis(lost), "95%, from 1 game pair")
        # two pairs, each won once and lost once: score 0.5 with no spread at all
        alike = stats.elo_estimate([0, 0, 2, 0, 0], stats.PAIR_SCORES, "game pair")
        self.assertEqual(stats.format_elo(alike), "+0.0, no interval yet")
        self.assertEqual(stats.elo_basis(alike), "from 2 game pairs")
        # W=3 L=1: mean 0.75, variance 0.1875, 1.959964 * sqrt(0.1875 / 4) = 0.424352; 0.75 + 0.42 > 1:
        # the interval is open above, below it is Elo(0.325648) = -126.4
        open_above = stats.elo_estimate([1, 0, 3], stats.GAME_SCORES, "game")
        self.assertEqual(stats.format_elo(open_above), "+190.8, interval -126.4 to +inf")
        for estimate in (nothing, won, lost, alike, open_above):
            self.assertNotIn("nan", stats.format_elo(estimate))

    def test_sprt_bounds(self):
        # alpha = beta = 0.05: ln(0.05 / 0.95) = -ln 19 = -2.944439, ln(0.95 / 0.05) = +2.944439
        lower, upper = stats.sprt_bounds(0.05, 0.05)
        self.assertAlmostEqual(lower, -2.944439, places=6)
        self.assertAlmostEqual(upper, 2.944439, places=6)

    def test_sprt_llr_pentanomial_logistic(self):
        # [1, 1, 4, 3, 1]: mean 0.55, variance 0.0725 (see above), 10 pairs
        # s0 = score(0 Elo) = 0.5; s1 = score(5 Elo) = 1 / (1 + 10^(-5/400)) = 0.507195
        # LLR = 10/2 * ln((0.0725 + 0.05^2) / (0.0725 + 0.042805^2)) = 5 * ln(0.075 / 0.074332) = 0.04472
        self.assertAlmostEqual(stats.logistic_score(5), 0.507195, places=6)
        self.assertAlmostEqual(stats.sprt_llr([1, 1, 4, 3, 1], 0, 5), 0.04472, places=4)
        # symmetric [1, 2, 4, 2, 1]: mean 0.5 = s0, variance = (2 * 0.25 + 4 * 0.0625) / 10 = 0.075
        # LLR = 5 * ln(0.075 / (0.075 + 0.007195^2)) = -0.003451: a little evidence for H0
        self.assertAlmostEqual(stats.sprt_llr([1, 2, 4, 2, 1], 0, 5), -0.003451, places=5)
        self.assertEqual(stats.sprt_llr([0, 0, 0, 0, 0], 0, 5), 0.0)
        # pairs that all split 1-1 measure no variance: no evidence either way until one does not
        self.assertEqual(stats.sprt_llr([0, 0, 6, 0, 0], 0, 10), 0.0)
        self.assertEqual(stats.sprt_llr([0, 0, 60, 0, 0], 0, 10), 0.0)
        # one pair that does not split gives the variance: six split pairs and a won one are
        # mean 4 / 7 = 0.571429, variance (6 * 0.071429^2 + 0.428571^2) / 7 = 0.030612; s1 = 0.514387
        # LLR = 7/2 * ln((0.030612 + 0.071429^2) / (0.030612 + 0.057042^2)) = 3.5 * ln(0.035714 / 0.033866)
        # = 0.186 (0.1856 with the empty cells' 0.001s)
        self.assertAlmostEqual(stats.sprt_llr([0, 0, 6, 0, 1], 0, 10), 0.186, places=3)

    def test_sprt_verdicts(self):
        sprt = stats.Sprt(0, 5, 0.05, 0.05)
        self.assertEqual(sprt.verdict(3.0), "H1 accepted")
        self.assertEqual(sprt.verdict(-3.0), "H0 accepted")
        self.assertEqual(sprt.verdict(0.0), "continue")
        # all pairs won: the empty cells count 0.001 so the LLR still grows with every pair
        self.assertLess(stats.sprt_llr([0, 0, 0, 0, 4], 0, 200), 2.944439)
        self.assertGreater(stats.sprt_llr([0, 0, 0, 0, 5], 0, 200), 2.944439)

    def test_tally_counts_pairs_from_the_first_engine_side(self):
        def record(game, white, black, result):  # as an older arbiter wrote it, read into today's schema
            return records.upgrade_record({"game": game, "pair": game // 2, "white": white, "black": black,
                                           "result": result, "reason": "no legal move"})
        tally = stats.Tally("new")
        for rec in [record(0, "new", "old", "1-0"), record(1, "old", "new", "1-0"),  # W + L -> WL
                    record(2, "new", "old", "1/2-1/2"), record(3, "old", "new", "0-1"),  # D + W -> WD
                    record(4, "new", "old", "0-1")]:  # unpaired: counts as a game only
            tally.add(rec)
        self.assertEqual((tally.wins, tally.losses, tally.draws), (2, 2, 1))
        self.assertEqual(tally.pentanomial(), [0, 0, 1, 1, 0])
        # LOS from the pairs, like the Elo: [0, 0, 1, 1, 0] has mean 0.625, variance 0.015625, n = 2,
        # z = 0.125 / sqrt(2 * 0.015625 / 2) = 1, LOS = 0.5 * (1 + erf(1)) = 0.921350
        self.assertAlmostEqual(tally.los(), 0.921350, places=6)
        unpaired = stats.Tally("new")
        unpaired.add(record(0, "new", "old", "1-0"))
        self.assertAlmostEqual(unpaired.los(), stats.likelihood_of_superiority(1, 0))

    def test_wilson_interval(self):
        # 2 of 4: p = 0.5, z^2 = 3.841459; centre = 0.5 + z^2/8 = 0.980182
        # spread = z * sqrt(0.25/4 + z^2/64) = 1.959964 * sqrt(0.122523) = 0.686052; scale = 1 + z^2/4 = 1.960365
        # -> (0.980182 -/+ 0.686052) / 1.960365 = 0.150039, 0.849961
        low, high = stats.wilson_interval(2, 4)
        self.assertAlmostEqual(low, 0.150039, places=5)
        self.assertAlmostEqual(high, 0.849961, places=5)
        # 0 of 4: centre = spread = z^2/8 = 0.480182 -> 0 and 0.960365 / 1.960365 = 0.489891
        low, high = stats.wilson_interval(0, 4)
        self.assertAlmostEqual(low, 0.0, places=9)
        self.assertAlmostEqual(high, 0.489891, places=5)
        self.assertEqual(stats.wilson_interval(0, 0), (0.0, 1.0))

    def test_tally_of_poldr_records(self):
        def record(index, seats, result, reason="most bricks"):
            return records.upgrade_record({"game": "poldr", "index": index, "pair": index // 2, "seats": seats,
                                           "result": result, "reason": reason})
        tally = stats.Tally("new")
        for rec in [record(0, ["new", "old"], "p1win"), record(1, ["old", "new"], "p1win"),  # W + L -> WL
                    record(2, ["new", "old"], "p2win"), record(3, ["old", "new"], "p1win"),  # L + L -> LL
                    record(4, ["new", "old"], "p2win", "illegal move"),  # unpaired, "new" faulted
                    record(5, ["old", "new"], "p2win", "crash")]:  # W, "old" crashed -> LW = WL
            tally.add(rec)
        self.assertEqual((tally.wins, tally.losses, tally.draws), (2, 4, 0))
        self.assertEqual(tally.pentanomial(), [1, 0, 2, 0, 0])
        self.assertEqual(dict(tally.seat_wins), {"p1": 3, "p2": 3})
        self.assertEqual(dict(tally.faults), {("new", "illegal move"): 1, ("old", "crash"): 1})
        self.assertEqual(records.record_index(record(5, ["a", "b"], "p1win")), 6)  # from 1, as the pages count

    def test_tally_of_three_player_records(self):
        def record(index, seats, result, final, reason="most bricks", faulty=None):
            return records.upgrade_record({"game": "poldr", "index": index, "group": index // 6, "seats": seats,
                                           "result": result, "reason": reason, "final": final, "faulty": faulty})
        tally = stats.Tally("a")
        for rec in [record(0, ["a", "b", "c"], "p1win", "4/4/4/4 y 8,5,2 2 30 29,27,28"),
                    record(1, ["a", "c", "b"], "p3win", "4/4/4/4 r 3,4,6 2 29 25,27,28"),
                    record(2, ["b", "a", "c"], "p1win", "4/4/4/4 r 7,6,6 1 5 4,5,3", "illegal move", "c")]:
            tally.add(rec)
        self.assertEqual(tally.games, 3)
        self.assertEqual(dict(tally.engine_wins), {"a": 1, "b": 2})
        self.assertEqual(dict(tally.seat_wins), {"p1": 2, "p3": 1})
        # a's reserves 8, 3, 6; b's 5, 6, 7; c's 2, 4, 6
        self.assertEqual(tally.final_reserves, {"a": [8, 3, 6], "b": [5, 6, 7], "c": [2, 4, 6]})
        self.assertEqual(dict(tally.faults), {("c", "illegal move"): 1})

    def test_page_figures_say_only_what_is_known(self):
        """The page's rows (summary.figure_rows): no SPRT row unless one was asked for; below 10 game
        pairs no Elo and no LOS, even where three pairs of one binary against itself would read
        "LOS 99.28%, +120 +/- 109"."""
        def pair(group, first_wins, second_wins):  # two games of one opening, colours swapped
            return [records.upgrade_record({"game": 2 * group + seat, "pair": group, "white": white, "black": black,
                                            "result": "1-0" if won else "0-1", "reason": "no legal move",
                                            "opening": "6/6/6/6/6/6 w ABCDEFGHIJKLMNabcdefghijklmn 0 0",
                                            "moves": []})
                    for seat, (white, black, won) in enumerate((("a", "b", first_wins), ("b", "a", second_wins)))]

        few = [record for group in range(3) for record in pair(group, True, False)]  # WW three times
        rows = dict(summary.figure_rows(summary.match_summary(few)))
        self.assertEqual(rows["Elo"], "too few games (3 pairs; Elo and LOS need 10)")
        self.assertEqual(rows["LOS"], rows["Elo"])
        self.assertNotIn("SPRT", rows)
        asked = dict(summary.figure_rows(summary.match_summary(few, stats.Sprt(0, 5, 0.05, 0.05))))
        self.assertRegex(asked["SPRT"], r"^LLR -?\d+\.\d\d in \(-2\.94, 2\.94\)")
        enough = [record for group in range(10) for record in pair(group, True, group % 2 == 0)]
        rows = dict(summary.figure_rows(summary.match_summary(enough)))
        self.assertRegex(rows["Elo"], r"^\+\d+\.\d \+/- \d+\.\d \(95%, from 10 game pairs\)$")
        self.assertRegex(rows["LOS"], r"^\d+\.\d%$")

    def test_seatings_and_game_specs(self):
        three = GameRules("poldr", players=3)
        self.assertEqual(three.seatings, [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)])
        specs = game.game_specs(12, three)
        self.assertEqual([spec.group for spec in specs], [0] * 6 + [1] * 6)
        self.assertEqual(specs[7].seating, (0, 2, 1))
        two = game.game_specs(3, GameRules("poldr"))  # as ever: pairs with colours swapped
        self.assertEqual([(spec.group, spec.seating) for spec in two], [(0, (0, 1)), (0, (1, 0)), (1, (0, 1))])
        self.assertEqual(settings.whole_groups(7, three), 12)
        self.assertEqual(settings.whole_groups(7, GameRules("poldr")), 7)

    def test_three_player_clock(self):
        clock = GameClock(TimeControl("tc", base_ms=1000, inc_ms=10), margin_ms=100, seats=("p1", "p2", "p3"))
        self.assertTrue(clock.charge("p3", 300))
        self.assertEqual(clock.go_command(), "go p1time 1000 p2time 1000 p3time 710 p1inc 10 p2inc 10 p3inc 10")

    def test_game_clock(self):
        clock = GameClock(TimeControl("tc", base_ms=1000, inc_ms=10), margin_ms=100)
        self.assertEqual(clock.go_command(), "go p1time 1000 p2time 1000 p1inc 10 p2inc 10")
        self.assertTrue(clock.charge(notation.WHITE, 400))  # 1000 - 400 + 10
        self.assertEqual(clock.remaining[notation.WHITE], 610)
        self.assertAlmostEqual(clock.limit_seconds(notation.WHITE), 0.71)
        self.assertTrue(clock.charge(notation.BLACK, 1050))  # over by 50 ms, inside the margin: 0 + 10
        self.assertEqual(clock.remaining[notation.BLACK], 10)
        self.assertFalse(clock.charge(notation.WHITE, 711))  # 610 + 100 ms margin exceeded
        movetime = GameClock(TimeControl("movetime", value=100), margin_ms=50)
        self.assertTrue(movetime.charge(notation.WHITE, 150))
        self.assertFalse(movetime.charge(notation.WHITE, 151))

    def test_parse_tc(self):
        self.assertEqual(parse_tc("1+0.01"), TimeControl("tc", base_ms=1000, inc_ms=10))
        self.assertEqual(parse_tc("5"), TimeControl("tc", base_ms=5000, inc_ms=0))
        with self.assertRaises(UsageError):
            parse_tc("fast")


if __name__ == "__main__":
    unittest.main(verbosity=2)
