"""Tests that bite, round two: the shoe study (odds/money/counting.py).

Each test here is aimed at bugs that ``bench/mutate.py`` planted in the
module and that no earlier test caught (docs/mutation.md lists them).  The
main one is a brute force: a small study's figures recomputed round by round
from the compositions it dealt, each round's EV from the reference engine
(``round_odds``), every figure from its definition.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from odds.exact.engine import round_odds
from odds.money.counting import count_study, deal_compositions
from odds.report.count_report import count_data
from odds.rules.profiles import BUILTIN
from odds.rules.shoe import Shoe

PROFILE = BUILTIN["punto-banco"]
PACKS, SHOES, PEN, SEED = 1, 5, 0.9, 3
SPREAD = 4  # the spread's units: 1-4


@pytest.fixture(scope="module")
def study():
    s = count_study(PROFILE, PACKS, SHOES, PEN, seed=SEED, bets=["banker", "tie"])
    return s, count_data(s)


@pytest.fixture(scope="module")
def rounds():
    """Per round: (shoe index, composition, exact EV of each bet)."""
    out = []
    for i in range(SHOES):
        for comp in deal_compositions(PROFILE, PACKS, PEN, SEED, i):
            odds = round_odds(PROFILE, Shoe(tuple(int(c) for c in comp)))
            out.append((i, comp, {b: odds.bet_moments(b)[0] for b in ("banker", "tie")}))
    return out


def test_the_rounds_and_shoes_are_the_ones_dealt(study, rounds) -> None:
    s, data = study
    assert s.rounds == data["study"]["rounds"] == len(rounds)
    per_shoe = [sum(1 for i, _, _ in rounds if i == k) for k in range(SHOES)]
    rps = data["study"]["rounds_per_shoe"]
    assert rps["mean"] == pytest.approx(np.mean(per_shoe))
    assert rps["se"] == pytest.approx(np.std(per_shoe, ddof=1) / math.sqrt(SHOES))
    assert (rps["min"], rps["max"]) == (min(per_shoe), max(per_shoe))
    assert data["study"]["cut_card_after"] == int(PEN * 52 * PACKS)


@pytest.mark.parametrize("bet", ["banker", "tie"])
def test_every_figure_of_a_bet_recomputed_round_by_round(study, rounds, bet) -> None:
    s, data = study
    figures = data["bets"][bet]
    ev = np.array([float(r[2][bet]) for r in rounds])
    shoe_of = np.array([r[0] for r in rounds])
    n = len(ev)
    fresh = round_odds(PROFILE, Shoe.packs_of(PACKS)).bet_moments(bet)[0]
    assert Fraction(figures["fresh_ev"]) == fresh
    assert figures["mean"]["mean"] == pytest.approx(ev.mean(), rel=1e-12)
    assert figures["min"] == pytest.approx(ev.min()) and figures["max"] == pytest.approx(ev.max())
    positive = ev > 0
    assert figures["positive_share"]["mean"] == pytest.approx(positive.mean())
    if positive.any():
        assert figures["mean_when_positive"] == pytest.approx(ev[positive].mean())
    else:
        assert figures["mean_when_positive"] is None
    # The histogram's 20 bins run from the smallest EV to the largest and count every round.
    hist = figures["histogram"]
    assert len(hist["counts"]) == 20 and sum(hist["counts"]) == n
    assert hist["edges"][0] == pytest.approx(ev.min()) and hist["edges"][-1] == pytest.approx(ev.max())
    inner = np.histogram(ev, bins=np.array(hist["edges"]))[0]
    assert sum(abs(a - b) for a, b in zip(inner, hist["counts"], strict=True)) <= 2
    # Percentiles within the histogram's resolution of the rounds' own.
    for q, value in figures["percentiles"].items():
        assert abs(value - np.percentile(ev, float(q), method="inverted_cdf")) <= (
            2 * hist["resolution"] + 1e-12), q
    # Betting figures: a stake a round, the gain is sum(stake x EV) over the rounds dealt.
    flat = figures["flat_bet"]
    assert flat["gain_per_round_dealt"]["mean"] == pytest.approx(ev.mean(), rel=1e-12)
    assert flat["units_per_100_hands"]["mean"] == pytest.approx(100 * ev.mean(), rel=1e-12)
    assert flat["units_per_shoe"]["mean"] == pytest.approx(ev.sum() / SHOES, rel=1e-12)
    assert flat["bets_per_shoe"]["mean"] == pytest.approx(n / SHOES)
    shoe_units = np.bincount(shoe_of, weights=ev, minlength=SHOES)
    assert flat["units_per_shoe"]["se"] == pytest.approx(
        np.std(shoe_units, ddof=1) / math.sqrt(SHOES), rel=1e-9)
    perfect = figures["perfect_information"]
    assert perfect["gain_per_round_dealt"]["mean"] == pytest.approx(
        np.where(positive, ev, 0).mean(), abs=1e-15)
    assert perfect["mean_stake"] == pytest.approx(positive.mean())
    spread = np.where(positive & (ev > float(fresh)), SPREAD, 1.0)
    assert figures["perfect_information_spread"]["gain_per_round_dealt"]["mean"] == (
        pytest.approx((spread * ev).mean(), rel=1e-12))
    assert figures["perfect_information_spread"]["mean_stake"] == pytest.approx(spread.mean())


@pytest.mark.parametrize("bet", ["banker", "tie"])
def test_the_linear_count_is_the_effects_of_removal_scaled(study, rounds, bet) -> None:
    s, data = study
    figures = data["bets"][bet]
    effects = np.array([float(Fraction(v)) for v in figures["effects_of_removal_exact"].values()])
    fresh = float(Fraction(figures["fresh_ev"]))
    est, ev = [], []
    for _, comp, evs in rounds:
        seen = 4 * PACKS - np.asarray(comp, dtype=np.float64)
        left = float(np.sum(comp))
        est.append(fresh + (52 * PACKS - 1) / left * float(seen @ effects))
        ev.append(float(evs[bet]))
    est_a, ev_a = np.array(est), np.array(ev)
    assert figures["linear_count"]["correlation_with_exact_ev"] == pytest.approx(
        float(np.corrcoef(est_a, ev_a)[0, 1]), rel=1e-9)
    says = est_a > 0
    sit_out = figures["linear_count"]["sit_out"]
    assert sit_out["mean_stake"] == pytest.approx(says.mean())
    assert sit_out["gain_per_round_dealt"]["mean"] == pytest.approx(
        np.where(says, ev_a, 0).mean(), abs=1e-15)
    stake = np.where(says & (est_a > fresh), SPREAD, 1.0)
    spread = figures["linear_count"]["spread"]
    assert spread["mean_stake"] == pytest.approx(stake.mean())
    assert spread["gain_per_round_dealt"]["mean"] == pytest.approx((stake * ev_a).mean(), rel=1e-12)
