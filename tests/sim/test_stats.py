"""The verifier's statistics (odds/sim/stats.py): each test feeds counts built to break one quantity.

The degrees of freedom on continuous shoes, the side-bet EV, the two-card
value and natural tests, the EV intervals and per-cell z-scores, a probability
of 0 or 1 in the z-check, a missing category counted as zero rounds; a game's
EV test and pooled small cells.  Figures are computed here from their
definitions, independently of the code.
"""

from __future__ import annotations

import math
from fractions import Fraction
from statistics import NormalDist

import numpy as np
import pytest

from odds import BUILTIN, Shoe, round_odds
from odds.sim.expect import ShoeSample, round_probabilities, rounds_model, shoes_model
from odds.sim.stats import (
    StrategyOdds,
    _chi_square,
    _model_chi_square,
    _model_z,
    _z_check,
    model_report,
    moments_of_rounds,
    seat_report,
    strategy_report,
)
from odds.sim.tallies import Tally, category_names
from tests.examples import halve

STANDARD = BUILTIN["standard"]
ALPHA = 0.01


def _expected_tally(exact, n: int, **extra) -> Tally:
    """A tally of ``n`` rounds at (rounded) expected counts: every test should pass."""
    names = category_names(exact.profile)
    cats = {k: round(float(exact.categories.get(k, 0)) * n) for k in names}
    rounds = sum(cats.values())
    return Tally(seat=1, rounds=rounds, categories=cats, **extra)


def _by_name(report) -> dict:
    return {c.name: c for c in report.checks}


# -- 1. continuous shoes: the degrees of freedom of the generalised chi-square ---------


def test_model_chi_square_of_identical_rounds_is_pearsons() -> None:
    # Identical independent rounds: the generalised statistic is Pearson's, df = cells - 1.
    p = np.array([0.4, 0.3, 0.2, 0.1])
    n = 500
    m = moments_of_rounds(np.tile(p, (n, 1)))
    observed = [250, 130, 80, 40]
    got = _model_chi_square("x", list("abcd"), observed, m)
    ref = _chi_square("x", list("abcd"), observed,
                      [Fraction(4, 10), Fraction(3, 10), Fraction(2, 10), Fraction(1, 10)])
    assert got.df == ref.df == 3
    assert got.statistic == pytest.approx(ref.statistic, rel=1e-9)
    assert float(got.p) == pytest.approx(float(ref.p), rel=1e-6)
    assert got.p < ALPHA


def test_model_chi_square_df_is_the_rank_after_dropping_impossible_cells() -> None:
    p = np.array([0.5, 0.0, 0.25, 0.25])
    m = moments_of_rounds(np.tile(p, (400, 1)))
    check = _model_chi_square("x", list("abcd"), [200, 0, 100, 100], m)
    assert check.df == 2 and check.statistic == pytest.approx(0.0, abs=1e-9)
    assert float(check.p) == pytest.approx(1.0)
    # One cell impossible but seen: FAIL, p exactly 0.
    bad = _model_chi_square("x", list("abcd"), [199, 1, 100, 100], m)
    assert bad.p == 0 and math.isinf(bad.statistic) and "b" in bad.note


def test_model_chi_square_p_uses_its_df() -> None:
    # 10 cells and a statistic of 25 on 9 df: p about 0.003 (with 1 df it would be tiny;
    # with 20 df about 0.2).
    k, n = 10, 1000
    p = np.full(k, 1 / k)
    m = moments_of_rounds(np.tile(p, (n, 1)))
    observed = [100] * k
    observed[0] += 50
    observed[1] -= 50
    check = _model_chi_square("x", [str(i) for i in range(k)], observed, m)
    stat = 2 * 50**2 / 100
    assert check.df == 9
    assert check.statistic == pytest.approx(stat)
    import mpmath

    want = mpmath.gammainc(4.5, stat / 2, mpmath.inf, regularized=True)
    assert float(check.p) == pytest.approx(float(want), rel=1e-9)


# -- 1. tests that must not drop out ----------------------------------------------------


def test_two_card_value_and_natural_tests_are_there_and_bite() -> None:
    exact = round_odds(STANDARD, Shoe.infinite_shoe())
    table = exact.by_value("player")
    n = 20_000
    good = [round(float(table[v]["probability"]) * n) if v in table else 0 for v in range(10)]
    ok = seat_report(_expected_tally(exact, n, player_value=good, bank_value=good), exact, ALPHA)
    checks = _by_name(ok)
    for name in ("player two-card value", "bank two-card value", "player natural",
                 "bank natural"):
        assert name in checks and checks[name].p > ALPHA, name
    # 300 rounds moved from value 3 to value 9: too many naturals.
    bad = list(good)
    bad[3] -= 300
    bad[9] += 300
    report = seat_report(_expected_tally(exact, n, player_value=bad), exact, ALPHA)
    checks = _by_name(report)
    assert checks["player two-card value"].p < ALPHA
    assert checks["player natural"].p < ALPHA
    assert checks["player natural"].rows[0][1] == sum(bad[v] for v in STANDARD.naturals)


def test_model_two_card_value_and_natural_tests_are_there_and_bite() -> None:
    comps = [[4] * 13] * 300
    probs = round_probabilities(STANDARD, comps)
    model = rounds_model(STANDARD, probs, np.arange(300))
    exact = round_odds(STANDARD, Shoe.packs_of(1))
    table = exact.by_value("player")
    good = [round(float(table[v]["probability"]) * 300) if v in table else 0 for v in range(10)]
    bad = list(good)
    bad[2] -= 25
    bad[8] += 25
    tally = _expected_tally(exact, 300, player_value=bad)
    tally = Tally(seat=1, rounds=300, categories=tally.categories, player_value=bad)
    checks = _by_name(model_report(1, tally, model, ALPHA))
    assert checks["player two-card value"].p < ALPHA
    assert checks["player natural"].p < ALPHA
    assert checks["player two-card value"].df == 9


def _bet_tally(n: int, pays: dict[Fraction, int]) -> Tally:
    return Tally(seat=1, rounds=n, categories={"win": n // 2, "loss": n - n // 2},
                 bets={"banker": pays})


def test_side_bet_ev_test_is_there_and_bites() -> None:
    profile = BUILTIN["punto-banco"]
    exact = round_odds(profile, Shoe.infinite_shoe())
    dist = exact.payout_distribution("banker")
    n = 40_000
    fair = {a: round(float(p) * n) for a, p in dist.items()}
    checks = _by_name(seat_report(_bet_tally(sum(fair.values()), fair), exact, ALPHA))
    assert "bet banker expected value" in checks and checks["bet banker expected value"].p > ALPHA
    # Move 600 rounds from the banker's loss to its win: EV up by about 0.03.
    skew = dict(fair)
    lose = min(skew)
    win = max(a for a in skew if a > 0)
    skew[lose] -= 600
    skew[win] += 600
    checks = _by_name(seat_report(_bet_tally(n, skew), exact, ALPHA))
    ev = checks["bet banker expected value"]
    mean = sum(a * p for a, p in dist.items())
    var = sum(a * a * p for a, p in dist.items()) - mean**2
    total = sum(a * c for a, c in skew.items())
    want = (float(total / n) - float(mean)) / math.sqrt(float(var) / n)
    assert ev.statistic == pytest.approx(want) and ev.p < ALPHA


def test_model_side_bet_ev_test_is_there_and_bites() -> None:
    profile = BUILTIN["punto-banco"]
    n = 400
    comps = [[4 * 8] * 13] * n
    probs = round_probabilities(profile, comps)
    model = rounds_model(profile, probs, np.arange(n), ("banker",))
    labels, m = model.quantities["bet:banker"]
    amounts = [Fraction(a) for a in labels]
    fair = {a: int(round(e)) for a, e in zip(amounts, m.expected, strict=True)}
    skew = dict(fair)
    skew[min(amounts)] -= 60
    skew[max(amounts)] += 60
    checks = _by_name(model_report(1, _bet_tally(n, skew), model, ALPHA))
    assert checks["bet banker expected value"].p < ALPHA


# -- 1. EV interval and per-cell z ------------------------------------------------------


def test_ev_interval_half_width_is_z_times_the_standard_error() -> None:
    exact = round_odds(STANDARD, Shoe.infinite_shoe())
    payouts = {Fraction(1): 480, Fraction(0): 90, Fraction(-1): 430}
    n = 1000
    tally = Tally(seat=1, rounds=n, categories={"win": 480, "push": 90, "loss": 430},
                  payouts=payouts)
    report = seat_report(tally, exact, ALPHA)
    mean = Fraction(50, n)
    var = (Fraction(910, n) - mean**2) * n / (n - 1)
    half = NormalDist().inv_cdf(1 - ALPHA / 2) * math.sqrt(var) / math.sqrt(n)
    lo, hi = report.ev_interval
    assert lo == pytest.approx(float(mean) - half, rel=1e-9)
    assert hi == pytest.approx(float(mean) + half, rel=1e-9)


@pytest.mark.parametrize("n", [2, 3])
def test_ev_interval_of_two_or_three_rounds_divides_by_n_minus_one(n: int) -> None:
    # The sample variance's n - 1 where it differs most: at 2 rounds, n / (n - 1) is 2.
    exact = round_odds(STANDARD, Shoe.infinite_shoe())
    payouts = {Fraction(1): n - 1, Fraction(-1): 1}
    tally = Tally(seat=1, rounds=n, categories={"win": n - 1, "push": 0, "loss": 1},
                  payouts=payouts)
    lo, hi = seat_report(tally, exact, ALPHA).ev_interval
    mean = Fraction(n - 2, n)
    var = (1 - mean**2) * n / (n - 1)
    half = NormalDist().inv_cdf(1 - ALPHA / 2) * math.sqrt(var) / math.sqrt(n)
    assert (lo, hi) == (pytest.approx(float(mean) - half, rel=1e-9),
                        pytest.approx(float(mean) + half, rel=1e-9))


def test_model_ev_interval_half_width_is_z_times_the_model_sd() -> None:
    n = 200
    probs = round_probabilities(STANDARD, [[4] * 13] * n)
    model = rounds_model(STANDARD, probs, np.arange(n))
    tally = Tally(seat=1, rounds=n, categories={"win": 100, "push": 10, "loss": 90},
                  payouts={Fraction(1): 100, Fraction(0): 10, Fraction(-1): 90})
    report = model_report(1, tally, model, ALPHA)
    _, variance = model.ev
    half = NormalDist().inv_cdf(1 - ALPHA / 2) * math.sqrt(variance) / n
    lo, hi = report.ev_interval
    ev = report.ev_observed
    assert ev == pytest.approx(10 / n)
    assert (hi - lo) / 2 == pytest.approx(half, rel=1e-9)
    assert (lo + hi) / 2 == pytest.approx(ev, rel=1e-9)


def test_per_cell_z_of_a_chi_square_is_the_binomial_z() -> None:
    probs = [Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)]
    check = _chi_square("x", ["a", "b", "c"], [60, 20, 20], probs)
    for (_, o, e, z), p in zip(check.rows, probs, strict=True):
        assert e == 100 * float(p)
        assert z == pytest.approx((o - e) / math.sqrt(e * (1 - float(p))))
    m = moments_of_rounds(np.tile([0.5, 0.25, 0.25], (100, 1)))
    rows = _model_chi_square("x", ["a", "b", "c"], [60, 20, 20], m).rows
    for (_, o, e, z), p in zip(rows, (0.5, 0.25, 0.25), strict=True):
        assert z == pytest.approx((o - e) / math.sqrt(e * (1 - p)))


# -- 1. probability 0 or 1: checked exactly, never a crash --------------------------


@pytest.mark.parametrize("prob,count,n,passes", [
    (Fraction(0), 0, 50, True), (Fraction(0), 1, 50, False),
    (Fraction(1), 50, 50, True), (Fraction(1), 49, 50, False),
])
def test_z_check_of_a_certain_or_impossible_quantity(prob, count, n, passes) -> None:
    check = _z_check("q", count, n, prob)
    assert (check.p == 1) is passes and (check.p == 0) is (not passes)
    assert (check.statistic == 0) is passes


@pytest.mark.parametrize("count,expected,passes", [(0, 0.0, True), (3, 3.0, True),
                                                   (1, 0.0, False), (2, 3.0, False)])
def test_model_z_of_zero_variance(count, expected, passes) -> None:
    check = _model_z("q", count, expected, 0.0)
    assert (check.p == 1) is passes and (check.p == 0) is (not passes)


def test_small_expected_counts_use_the_exact_binomial() -> None:
    # 3 successes in 100 at p = 1/100: P(X >= 3) = 0.0794, two-sided 0.159.
    from math import comb

    check = _z_check("q", 3, 100, Fraction(1, 100))
    tail = 1 - sum(comb(100, k) * 0.01**k * 0.99 ** (100 - k) for k in range(3))
    assert "exact binomial" in check.note
    assert float(check.p) == pytest.approx(2 * tail, rel=1e-9)
    low = _z_check("q", 0, 100, Fraction(1, 100))
    assert float(low.p) == pytest.approx(min(1.0, 2 * 0.99**100), rel=1e-9)


def _exact_pmf(n: int, prob: Fraction, top: int) -> list[float]:
    """Bin(n, prob)'s probabilities of 0 .. top, from log-gamma (good to about 1e-12)."""
    p = float(prob)
    return [math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                     + k * math.log(p) + (n - k) * math.log1p(-p)) for k in range(top + 1)]


# A Colon nine from 2 packs: 8/104 * 7/103.
COLON_NINE_2 = Fraction(8 * 7, 104 * 103)


def test_a_rare_count_far_out_gets_the_exact_binomial_tail() -> None:
    # 50 Colon nines in 5,000 rounds where 26.1 are expected: z = +4.7, whose normal
    # tail (3e-6) is 14 times too thin; the verdict multiplies the smallest p by the
    # number of tests, so that thin tail failed correct simulators.
    pmf = _exact_pmf(5000, COLON_NINE_2, 400)  # beyond 400: below 1e-200
    tail = 2 * sum(pmf[50:])
    check = _z_check("player colon nine", 50, 5000, COLON_NINE_2)
    assert float(check.p) == pytest.approx(tail, rel=1e-7)
    assert check.statistic == pytest.approx((50 - 5000 * float(COLON_NINE_2))
                                            / math.sqrt(5000 * float(COLON_NINE_2 * (1 - COLON_NINE_2))))
    below = _z_check("player colon nine", 10, 5000, COLON_NINE_2)
    assert float(below.p) == pytest.approx(2 * sum(pmf[:11]), rel=1e-7)


@pytest.mark.parametrize("level", [1e-2, 1e-3, 1e-4])
def test_a_z_checks_false_alarm_rate_is_at_most_its_level(level) -> None:
    # Under the exact odds the chance that the check's p falls to `level` or below
    # is at most `level` (the normal tail gave 2.8x that at 1e-4: 2,000 rounds).
    n = 2000
    pmf = _exact_pmf(n, COLON_NINE_2, 80)  # beyond 80: below 1e-30
    mean = n * float(COLON_NINE_2)
    far = [k for k in range(81) if abs(k - mean) > 6]  # nearer, p > 0.05
    alarm = sum(pmf[k] for k in far if _z_check("q", k, n, COLON_NINE_2).p <= level)
    assert 0 < alarm <= level


def test_a_model_z_far_out_is_no_thinner_than_the_binomial_of_the_mean() -> None:
    # Rounds of a continuous shoe with the same mean: the normal tail with the
    # model's variance, widened to the binomial tail where that one is thicker.
    e = 5000 * float(COLON_NINE_2)
    check = _model_z("bank colon nine", 50, e, e * (1 - float(COLON_NINE_2)), 5000)
    assert float(check.p) >= 2 * sum(_exact_pmf(5000, COLON_NINE_2, 400)[50:]) * (1 - 1e-6)
    wide = _model_z("bank colon nine", 50, e, 4 * e, 5000)  # spread between shoes
    assert float(wide.p) == pytest.approx(math.erfc((50 - e) / math.sqrt(8 * e)), rel=1e-9)


# -- 1. a category missing from a tally is 0 rounds -------------------------------------


def test_a_missing_category_is_zero_rounds() -> None:
    exact = round_odds(STANDARD, Shoe.infinite_shoe())
    tally = _expected_tally(exact, 10_000)
    cats = dict(tally.categories)
    gone = cats.pop("push_natural")
    tally = Tally(seat=1, rounds=sum(cats.values()), categories=cats)
    check = _by_name(seat_report(tally, exact, ALPHA))["categories"]
    row = next(r for r in check.rows if r[0] == "push_natural")
    assert gone > 0 and row[1] == 0
    n = 300
    probs = round_probabilities(STANDARD, [[4] * 13] * n)
    model = rounds_model(STANDARD, probs, np.arange(n))
    cats = {k: v * n // 10_000 for k, v in cats.items()}
    cats["win_comparison"] += n - sum(cats.values())
    check = _by_name(model_report(1, Tally(seat=1, rounds=n, categories=cats), model,
                                  ALPHA))["categories"]
    row = next(r for r in check.rows if r[0] == "push_natural")
    assert row[1] == 0


# -- 2. between-shoe variance of draw counts ------------------------------------------


def test_shoes_model_variance_of_draws_includes_the_spread_of_shoes() -> None:
    rng = np.random.default_rng(3)
    comps = []
    shoe = []
    for s in range(6):
        counts = np.array([4] * 13)
        for _ in range(5):
            comps.append(counts.copy())
            shoe.append(s)
            counts[rng.integers(13)] -= 1
        comps[-1][rng.integers(13)] = max(0, comps[-1][rng.integers(13)] - 2)
    probs = round_probabilities(STANDARD, comps)
    sample = ShoeSample(probs, np.array(shoe), len(shoe), 6, 1, 0.5)
    n = 1000
    model = shoes_model(STANDARD, sample, n)
    p = probs.bank_draws
    mu = p.mean()
    sums = np.bincount(shoe, weights=p)
    per = np.bincount(shoe).astype(float)
    v = ((sums - per * mu) ** 2).sum() / 5
    r = per.mean()
    want = n * mu - n * (p * p).mean() + (n / r + n * n / (6 * r * r)) * v
    e, var = model.scalars["bank_draws"]
    assert e == pytest.approx(n * mu)
    assert var == pytest.approx(want, rel=1e-9)
    assert v > 0 and var > n * mu * (1 - mu) - 1e-9 - n * ((p - mu) ** 2).mean()
    # The rounds' own model of the same compositions has no shoe term.
    own = rounds_model(STANDARD, probs, np.arange(len(shoe)))
    assert own.scalars["bank_draws"][1] == pytest.approx(float((p * (1 - p)).sum()))


# -- 2. both hands' zero pairs matching in rank: per-round odds against the engine -------


def _depleted(seed: int) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(4):
        counts = [4] * 13
        for r in (9, 10, 11, 12):  # uneven faces: the match chance differs by rank
            counts[r] = int(rng.integers(0, 5))
        for _ in range(6):
            r = int(rng.integers(13))
            counts[r] = max(0, counts[r] - 1)
        out.append(counts)
    return out


@pytest.mark.parametrize("match", ["rank", "value"])
@pytest.mark.parametrize("options", halve("options", [  # the second: CI
    {"bank_bonus": "on", "bank_colon": "2", "bank_colon_nine": "3"},
    {"bank_bonus": "on", "bank_colon": "3", "bonus_on": "always", "colon": "5/2"},
]))
def test_per_round_payouts_agree_with_the_engine_under_bank_bonuses(match, options) -> None:
    profile = STANDARD.with_options(colon_match=match, **options)
    comps = _depleted(7 if match == "rank" else 8)
    probs = round_probabilities(profile, comps)
    assert probs.payouts is not None
    for i, counts in enumerate(comps):
        exact = round_odds(profile, Shoe(tuple(counts)))
        dist = exact.payout_distribution("player")
        assert set(dist) <= set(probs.amounts)
        for j, amount in enumerate(probs.amounts):
            assert probs.payouts[i, j] == pytest.approx(float(dist.get(amount, 0)), abs=1e-13), (
                i, amount)
        assert probs.player_colon[i, 1:].sum() == pytest.approx(float(exact.player_colon),
                                                                abs=1e-13)
        assert probs.player_colon[i, 2] == pytest.approx(float(exact.player_colon_nine),
                                                         abs=1e-13)
        assert probs.bank_colon[i, 1:].sum() == pytest.approx(float(exact.bank_colon), abs=1e-13)


# -- a game's EV test, pooled small cells, the per-cell z-scores -----------------------------------
# The expected value of a game with choices, the pooling of small cells on
# continuous shoes, the per-cell z-scores of the generalised chi-square.

F = Fraction


# -- the expected value of a game with choices ------------------------------------------

# A strategy pair whose win pays 2: the variance is E[X^2] - E[X]^2 with X = 2, 0 or -1.
ODDS = StrategyOdds("player a, bank b", win=F(3, 10), push=F(1, 10), loss=F(6, 10),
                    player_draws=F(1, 2), bank_draws=F(1, 2), amounts=(F(2), F(0), F(-1)))


def _tally(payouts: dict[Fraction, int]) -> Tally:
    n = sum(payouts.values())
    outcomes = {"win": sum(c for a, c in payouts.items() if a > 0),
                "push": payouts.get(F(0), 0), "loss": sum(c for a, c in payouts.items() if a < 0)}
    return Tally(seat=1, rounds=n, categories=outcomes, payouts=dict(payouts))


def _ev_check(report):
    found = [c for c in report.checks if c.name == "expected value"]
    assert len(found) == 1, [c.name for c in report.checks]
    return found[0]


def test_a_games_ev_test_uses_the_exact_variance() -> None:
    mean = F(3, 10) * 2 - F(6, 10)  # 0
    var = F(3, 10) * 4 + F(6, 10) - mean**2  # 1.8
    assert ODDS.expected_value == mean
    # 1000 rounds that win a little more often than they should: total +60.
    tally = _tally({F(2): 320, F(0): 100, F(-1): 580})
    check = _ev_check(strategy_report(tally, ODDS, ALPHA))
    ev_obs = (2 * 320 - 580) / 1000
    z = (ev_obs - float(mean)) / math.sqrt(float(var) / 1000)
    assert check.statistic == pytest.approx(z, rel=1e-12)
    assert float(check.p) == pytest.approx(2 * (1 - NormalDist().cdf(abs(z))), rel=1e-9)


def test_a_games_ev_interval_is_the_students_half_width() -> None:
    tally = _tally({F(2): 320, F(0): 100, F(-1): 580})
    report = strategy_report(tally, ODDS, ALPHA)
    n = 1000
    values = [2.0] * 320 + [0.0] * 100 + [-1.0] * 580
    ev_obs = sum(values) / n
    sd = math.sqrt(sum((x - ev_obs) ** 2 for x in values) / (n - 1))
    half = NormalDist().inv_cdf(1 - ALPHA / 2) * sd / math.sqrt(n)
    assert report.ev_observed == pytest.approx(ev_obs)
    low, high = report.ev_interval
    assert low == pytest.approx(ev_obs - half, rel=1e-9)
    assert high == pytest.approx(ev_obs + half, rel=1e-9)


def test_a_game_that_pays_too_much_fails_its_ev_test() -> None:
    # Outcome frequencies on the nose, but every win paid 3, not 2.
    tally = _tally({F(3): 300, F(0): 100, F(-1): 600})
    report = strategy_report(tally, ODDS, ALPHA)
    assert _ev_check(report).p < ALPHA
    fair = strategy_report(_tally({F(2): 300, F(0): 100, F(-1): 600}), ODDS, ALPHA)
    assert _ev_check(fair).statistic == pytest.approx(0.0, abs=1e-12)


# -- continuous shoes: small cells are pooled as on a fresh shoe ------------------------


@pytest.mark.parametrize("small,groups", [((3, 2), 3), ((3, 1), 2), ((2, 2), 2), ((4, 2), 3)])
def test_small_cells_are_pooled_alike_in_both_tests(small, groups) -> None:
    # 64 identical rounds: expected counts 64 p exactly.  Small cells whose expected
    # counts sum to 5 or more form a cell of their own; less, they join the smallest cell.
    big = (64 - sum(small)) // 2
    expected = [big, 64 - sum(small) - big, *small]
    probs = [F(e, 64) for e in expected]
    observed = [expected[0] + 3, expected[1] - 3, *small]
    fresh = _chi_square("x", list("abcd"), observed, probs)
    m = moments_of_rounds(np.tile([float(p) for p in probs], (64, 1)))
    model = _model_chi_square("x", list("abcd"), observed, m)
    assert fresh.df == model.df == groups - 1
    assert model.statistic == pytest.approx(fresh.statistic, rel=1e-9)


def test_the_model_per_cell_z_is_the_binomial_z() -> None:
    probs = [0.5, 0.3, 0.2]
    n = 400
    m = moments_of_rounds(np.tile(probs, (n, 1)))
    observed = [230, 100, 70]
    check = _model_chi_square("x", list("abc"), observed, m)
    for (_label, o, e, z), p in zip(check.rows, probs, strict=True):
        assert e == pytest.approx(n * p)
        assert z == pytest.approx((o - n * p) / math.sqrt(n * p * (1 - p)), rel=1e-9)
