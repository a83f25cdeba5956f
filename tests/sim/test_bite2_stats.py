"""Tests that bite, round two: the verifier's statistics (odds/sim/stats.py).

Each test here is aimed at a bug that ``bench/mutate.py`` planted in the
module and that no earlier test caught (docs/mutation.md lists them): the
expected value of a game with choices, the pooling of small cells on
continuous shoes, the per-cell z-scores of the generalised chi-square.
Figures are computed here from their definitions, independently of the code.
"""

from __future__ import annotations

import math
from fractions import Fraction
from statistics import NormalDist

import numpy as np
import pytest

from odds.sim.stats import (
    StrategyOdds,
    _chi_square,
    _model_chi_square,
    moments_of_rounds,
    strategy_report,
)
from odds.sim.tallies import Tally

F = Fraction
ALPHA = 0.01


# -- the expected value of a game with choices ------------------------------------------

# A strategy pair whose win pays 2: the variance is E[X^2] - E[X]^2 with X = 2, 0 or -1.
ODDS = StrategyOdds("player a, bank b", win=F(3, 10), push=F(1, 10), loss=F(6, 10),
                    player_draws=F(1, 2), bank_draws=F(1, 2), win_pays=F(2))


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
