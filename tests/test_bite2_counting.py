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

from odds.exact.deal import shuffled_shoe
from odds.exact.engine import round_odds
from odds.exact.rounds import deal_rounds
from odds.money.counting import CountSystem, count_study, deal_compositions
from odds.report.count_report import count_data
from odds.rules.profiles import BUILTIN
from odds.rules.shoe import Shoe

PROFILE = BUILTIN["punto-banco"]
PACKS, SHOES, PEN, SEED = 1, 5, 0.9, 3
SPREAD = 4  # the spread's units: 1-4


@pytest.fixture
def study():
    # Function scope: each test runs the study it reads (a mutation run selects the tests
    # that execute a line, and a shared fixture's lines count only for its first test).
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
    assert figures["count"]["effects_of_removal"] == pytest.approx(list(effects), rel=1e-15)
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


# -- a count system given as input: where it bets, recomputed round by round -------------

SYSTEMS = [
    CountSystem((1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0), 0, irc=-3),  # unbalanced: running count
    CountSystem((0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0), 2.5, deck_estimate="exact"),
    CountSystem((0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0), 6, deck_estimate="half"),
    CountSystem((0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0), 2.5, deck_estimate="whole"),
]


@pytest.mark.parametrize("system", SYSTEMS, ids=["running", "exact", "half", "whole"])
def test_a_count_systems_bets_recomputed_round_by_round(rounds, system) -> None:
    data = count_data(count_study(PROFILE, PACKS, SHOES, PEN, seed=SEED, bets=["banker", "tie"],
                                  system=system))
    tags = np.array(system.tags, dtype=np.float64)
    for bet in ("banker", "tie"):
        stake, ev, unrounded = [], [], []
        for _, comp, evs in rounds:
            running = float((4 * PACKS - np.asarray(comp, dtype=np.float64)) @ tags)
            if not system.balanced:
                says = running + (system.irc or 0) >= system.trigger
            else:
                decks = float(np.sum(comp)) / 52
                unrounded.append(running / decks >= system.trigger)
                if system.deck_estimate == "half":
                    decks = max(0.5, float(np.round(decks * 2)) / 2)
                elif system.deck_estimate == "whole":
                    decks = max(1.0, float(np.round(decks)))
                says = running / decks >= system.trigger
            stake.append(1.0 if says else 0.0)
            ev.append(float(evs[bet]))
        stakes, evs_a = np.array(stake), np.array(ev)
        assert 0 < stakes.mean() < 1, "the system should bet on some rounds, not all"
        if system.deck_estimate != "exact" and system.balanced:  # the rounding must matter
            assert list(stakes) != [1.0 if u else 0.0 for u in unrounded]
        figures = data["bets"][bet]["system"]
        assert figures["mean_stake"] == pytest.approx(stakes.mean())
        assert figures["gain_per_round_dealt"]["mean"] == pytest.approx(
            (stakes * evs_a).mean(), abs=1e-15)


def test_the_librarys_bound_on_shoes_is_the_clis() -> None:
    """`lucky9 count --shoes` and count_study refuse the same sizes, with the bound named."""
    import cli

    top = next(p for p in cli.count_command.params if p.name == "shoes").type.max
    for shoes in (0, top + 1):
        with pytest.raises(ValueError, match=f"1 to {top:,} shoes"):
            count_study(PROFILE, PACKS, shoes, PEN)


def test_a_fair_game_has_no_positive_round() -> None:
    """Plain Lucky 9 is fair on every composition (EV exactly 0): no round is positive."""
    data = count_data(count_study(BUILTIN["plain"], 1, 2, 0.75, seed=1, bets=["player"]))
    figures = data["bets"]["player"]
    assert figures["min"] == figures["max"] == 0.0
    assert figures["positive_share"]["mean"] == 0.0 and figures["mean_when_positive"] is None
    perfect = figures["perfect_information"]
    assert perfect["mean_stake"] == 0.0 and perfect["gain_per_round_dealt"]["mean"] == 0.0


def test_a_pair_bets_sampled_outcomes_are_the_rounds_dealt() -> None:
    """The outcomes really dealt: a player pair wins 11 when the player's two cards pair."""
    shoes = 6
    data = count_data(count_study(PROFILE, 1, shoes, 0.9, seed=SEED,
                                  bets=["player-pair", "banker-pair"]))
    for bet, hand in (("player-pair", "player"), ("banker-pair", "bank")):
        won = 0
        for i in range(shoes):
            for r in deal_rounds(PROFILE, shuffled_shoe(1, SEED, i), 0.9):
                cards = getattr(r, hand)
                won += 11 if cards[0].rank == cards[1].rank else -1
        sampled = data["bets"][bet]["flat_bet"]["sampled_outcomes"]["units_per_shoe"]
        assert sampled["mean"] == pytest.approx(won / shoes)


def test_a_percentile_beyond_the_fine_histogram_is_the_extreme_ev() -> None:
    """Percentiles are read from a histogram of the fresh EV +- 0.5; beyond it, the extreme.

    A player pair (11:1) on the last cards of one pack: when no two cards left pair, its
    EV is -1, far below the fresh EV less 0.5.  Each round's EV here is 12 P(pair) - 1,
    P(pair) = sum c (c - 1) / (T (T - 1)) over the ranks left.
    """
    shoes = 20
    data = count_data(count_study(PROFILE, 1, shoes, 0.9, seed=SEED, bets=["player-pair"]))
    figures = data["bets"]["player-pair"]
    evs = []
    for i in range(shoes):
        for comp in deal_compositions(PROFILE, 1, 0.9, SEED, i):
            c = np.asarray(comp, dtype=np.int64)
            total = int(c.sum())
            evs.append(12 * Fraction(int((c * (c - 1)).sum()), total * (total - 1)) - 1)
    fresh = 12 * Fraction(4 * 3 * 13, 52 * 51) - 1
    assert Fraction(figures["fresh_ev"]) == fresh
    below = sum(1 for e in evs if e < fresh - Fraction(1, 2))
    assert below > len(evs) / 100  # more than 1% of rounds lie beyond the fine histogram
    assert figures["min"] == float(min(evs)) == -1.0
    assert figures["percentiles"]["1"] == figures["min"]
    assert figures["max"] == pytest.approx(float(max(evs)))
