"""The shoe study (odds/money/counting.py) and `lucky9 count`."""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cli import main
from odds.exact.bet_table import bet_set
from odds.exact.deal import round_lengths, shuffled_ranks, shuffled_shoe
from odds.exact.engine import round_odds
from odds.exact.rounds import deal_rounds
from odds.money.counting import (
    CountSystem,
    count_grid,
    count_study,
    deal_compositions,
    integer_tags,
    study_plan,
)
from odds.money.counting import study as counting
from odds.money.counting.folder import StudyFolder
from odds.money.counting.summary import _ratio
from odds.report.count_report import count_data
from odds.rules.profiles import BUILTIN
from odds.rules.shoe import Shoe


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("key, packs", [("standard", 1), ("punto-banco", 2), ("super9", 1)])
def test_study_compositions_are_the_followed_shoe(key: str, packs: int) -> None:
    """Shoe k of a study is the shoe `lucky9 shoe --seed S --index k` deals, round by round."""
    profile = BUILTIN[key]
    comps = deal_compositions(profile, packs, 0.8, 9, 3)
    rounds = deal_rounds(profile, shuffled_shoe(packs, 9, 3), 0.8)
    assert len(comps) == len(rounds)
    counts = [4 * packs] * 13
    for comp, r in zip(comps, rounds, strict=True):
        assert comp.tolist() == counts
        for card in r.cards:
            counts[card.rank.index] -= 1


@pytest.mark.parametrize("key", ["standard", pytest.param("punto-banco", marks=pytest.mark.slow)])
def test_per_round_evs_are_exact(key: str) -> None:
    """The study's per-round EVs (bet_set on the dealt compositions) against round_odds."""
    profile = BUILTIN[key]
    comps = np.vstack([deal_compositions(profile, 1, 0.75, 4, i) for i in range(3)])
    bets = ["player", "banker", "tie"] if key == "punto-banco" else ["player", "colon-share"]
    chosen = bet_set(profile, bets)
    counts = chosen.table().counts(comps, packs=1)
    exact = chosen.exact_evs(counts)
    floats = chosen.float_evs(counts)
    for bet in bets:
        for i in range(0, len(comps), 4):
            shoe = Shoe(tuple(int(c) for c in comps[i]))
            odds = round_odds(profile, shoe)
            if bet == "colon-share":
                plain = profile.with_options(colon="none", colon_nine="none")
                assert exact[bet][i] == odds.expected_value - round_odds(plain, shoe).expected_value
            else:
                assert exact[bet][i] == odds.bet_moments(bet)[0]
            assert math.isclose(floats[bet][i], float(exact[bet][i]), rel_tol=1e-12,
                                abs_tol=1e-15)


def test_jobs_do_not_change_the_figures() -> None:
    one = count_data(count_study(BUILTIN["punto-banco"], 1, 24, 0.75, seed=5, jobs=1))
    two = count_data(count_study(BUILTIN["punto-banco"], 1, 24, 0.75, seed=5, jobs=2))
    assert one == two


def test_study_figures_hold_together() -> None:
    study = count_study(BUILTIN["punto-banco"], 1, 40, 0.75, seed=2,
                        bets=["player", "banker", "tie"])
    data = count_data(study)
    assert data["study"]["rounds"] == study.rounds
    for bet, figures in data["bets"].items():
        assert sum(figures["histogram"]["counts"]) == study.rounds
        p = figures["percentiles"]
        assert figures["min"] <= p["1"] <= p["50"] <= p["99"] <= figures["max"]
        # Perfect information never earns less than sitting out or flat betting.
        perfect = figures["perfect_information"]["gain_per_round_dealt"]["mean"]
        assert perfect >= 0
        assert perfect >= figures["tag_count"]["sit_out"]["gain_per_round_dealt"]["mean"] - 1e-15
        assert perfect >= figures["flat_bet"]["gain_per_round_dealt"]["mean"]
        assert figures["linear_count"]["correlation_with_exact_ev"] > 0.5, bet
        assert len(figures["count"]["tags"]) == 13
        share = figures["positive_share"]["mean"]
        assert (figures["mean_when_positive"] is None) == (share == 0)
        assert figures["mean_when_positive"] is None or figures["mean_when_positive"] > 0
    assert data["bets"]["tie"]["effects_of_removal_exact"]["A"] == str(
        study.bets[2].effects[0])


def test_linear_count_is_exact_for_one_card_removed() -> None:
    """The linear estimate reproduces the exact EV after one card: (N0-1)/N * g_r = g_r."""
    study = count_study(BUILTIN["standard"], 1, 2, 0.75, seed=1)
    player = study.bets[0]
    for r in range(13):
        shoe = Shoe.packs_of(1).without([__import__("odds").RANKS[r].value])
        exact = round_odds(BUILTIN["standard"], shoe).expected_value
        assert exact == player.fresh_ev + player.effects[r]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.fractions(min_value=-5, max_value=5), min_size=1, max_size=13))
def test_integer_tags_are_scaled_and_bounded(effects: list[Fraction]) -> None:
    tags = integer_tags(tuple(effects))
    assert all(abs(t) <= 3 for t in tags)
    top = max(abs(e) for e in effects)
    if top:
        assert max(abs(t) for t in tags) == 3
        assert all(t == 0 or (t > 0) == (e > 0) for t, e in zip(tags, effects, strict=True))


def test_ratio_standard_error() -> None:
    sums = np.array([2.0, 4.0, 6.0])
    counts = np.array([2.0, 2.0, 2.0])
    s = np.array([sums.sum(), (sums**2).sum()])
    c = np.array([counts.sum(), (counts**2).sum()])
    mean, se = _ratio(s, c, float((sums * counts).sum()), 3)
    assert mean == 2.0
    assert se == pytest.approx(np.std([1.0, 2.0, 3.0], ddof=1) / math.sqrt(3))


def test_count_command_json_and_text() -> None:
    out = run("count", "--shoes", "8", "--decks", "1", "--seed", "3", "--format", "json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["study"]["shoes"] == 8 and data["study"]["cut_card_after"] == 41
    assert set(data["bets"]) == {"player", "colon", "colon-nine", "colon-share"}
    assert "estimates" in data["note"] and "exact" in data["note"]
    player = data["bets"]["player"]
    for key in ("percentiles", "histogram", "positive_share", "perfect_information",
                "linear_count", "tag_count", "count", "cut_card_effect"):
        assert key in player
    text = run("count", "--shoes", "8", "--decks", "1", "--seed", "3", "--profile", "punto-banco")
    assert text.exit_code == 0, text.output
    assert "betting correlation" in text.output and "cut-card effect" in text.output
    assert all(len(line) <= 80 for line in text.output.splitlines()[2:])


def test_count_command_progress_bar_on_stderr() -> None:
    out = CliRunner().invoke(main, ["count", "--shoes", "3", "--decks", "1", "--progress",
                                    "--format", "json"])
    assert out.exit_code == 0
    assert "dealing shoes" in out.stderr
    json.loads(out.stdout)  # stdout holds only the data


@pytest.mark.parametrize("args, message", [
    (["--shoes", "0"], "0 is not in the range"),
    (["--shoes", "2.5"], "is not a valid integer"),
    (["--decks", "-1"], "at least 1 pack"),
    (["--decks", "inf"], "give --decks D"),
    (["--jobs", "0"], "0 is not in the range"),
    (["--penetration", "0"], "0"),
    (["--profile", "family"], "no fixed draw rule"),
    (["--decks", "101"], "at most 100 packs (5,200 cards, some 800 rounds"),
], ids=["shoes", "fraction", "negative", "inf", "jobs", "penetration", "family", "huge"])
def test_count_command_bad_input(args: list[str], message: str) -> None:
    out = run("count", "--shoes", "2", *args)
    assert out.exit_code == 2, out.output
    assert message in out.output


def test_count_command_reports_the_bets_asked_for() -> None:
    out = run("count", "--profile", "punto-banco", "--shoes", "3", "--decks", "1",
              "--bet", "tie", "--format", "json")
    assert out.exit_code == 0, out.output
    assert list(json.loads(out.output)["bets"]) == ["tie"]
    bad = run("count", "--shoes", "2", "--bet", "dragon-8")
    assert bad.exit_code == 2 and "unknown bet 'dragon-8'" in bad.output


# -- every figure recomputed round by round --------------------------------------------------------
# A brute force: a small study's figures recomputed round by round from the
# compositions it dealt, each round's EV from the reference engine
# (``round_odds``), every figure from its definition.

PROFILE = BUILTIN["punto-banco"]
PACKS, SHOES, PEN, SEED = 1, 5, 0.9, 3
SPREAD = 4  # the spread's units: 1-4


def _linear_estimate(figures: dict[str, Any], comp: Any) -> float:
    """The linear count's EV estimate before a round, from its definition: the fresh EV
    plus the effects of removal of the cards seen, scaled to the cards left."""
    effects = np.array([float(Fraction(v)) for v in figures["effects_of_removal_exact"].values()])
    seen = 4 * PACKS - np.asarray(comp, dtype=np.float64)
    return (float(Fraction(figures["fresh_ev"]))
            + (52 * PACKS - 1) / float(np.sum(comp)) * float(seen @ effects))


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
    # Percentiles within the histogram's resolution of the rounds' own (a bin's centre: half
    # a bin from any EV in it; a histogram shifted by a bin or two is outside).
    for q, value in figures["percentiles"].items():
        assert abs(value - np.percentile(ev, float(q), method="inverted_cdf")) <= (
            hist["resolution"] + 1e-12), q
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


def test_a_bet_with_a_positive_fresh_ev_spreads_only_above_it() -> None:
    """A tie paying 11:1 has a positive EV off the top of the shoe: the spread bets its top
    stake where the EV (or the count's estimate) is above the fresh shoe's, and one unit
    where it equals it, as on each shoe's first round (nothing seen yet)."""
    profile = replace(PROFILE, tie_pays=Fraction(11))
    shoes = 2
    s = count_study(profile, PACKS, shoes, PEN, seed=SEED, bets=["tie"])
    figures = count_data(s)["bets"]["tie"]
    fresh = round_odds(profile, Shoe.packs_of(PACKS)).bet_moments("tie")[0]
    assert Fraction(figures["fresh_ev"]) == fresh > 0
    ev, est = [], []
    for i in range(shoes):
        for comp in deal_compositions(profile, PACKS, PEN, SEED, i):
            ev.append(round_odds(profile, Shoe(tuple(int(c) for c in comp))).bet_moments("tie")[0])
            est.append(_linear_estimate(figures, comp))
    assert sum(e == fresh for e in ev) >= shoes  # every shoe's first round is at the fresh EV
    ev_a = np.array([float(e) for e in ev])
    spread = np.array([SPREAD if e > 0 and e > fresh else 1.0 for e in ev])
    assert figures["perfect_information_spread"]["mean_stake"] == pytest.approx(spread.mean())
    assert figures["perfect_information_spread"]["gain_per_round_dealt"]["mean"] == (
        pytest.approx((spread * ev_a).mean(), rel=1e-12))
    est_a = np.array(est)
    says = np.where((est_a > 0) & (est_a > float(fresh)), SPREAD, 1.0)
    assert figures["linear_count"]["spread"]["mean_stake"] == pytest.approx(says.mean())


@pytest.mark.parametrize("bet", ["banker", "tie"])
def test_the_linear_count_is_the_effects_of_removal_scaled(study, rounds, bet) -> None:
    s, data = study
    figures = data["bets"][bet]
    effects = np.array([float(Fraction(v)) for v in figures["effects_of_removal_exact"].values()])
    fresh = float(Fraction(figures["fresh_ev"]))
    est, ev = [], []
    for _, comp, evs in rounds:
        est.append(_linear_estimate(figures, comp))
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
        count = data["bets"][bet]["count"]  # the system's tags against the bet's effects
        assert count["system_betting_correlation"] == pytest.approx(
            float(np.corrcoef(tags, np.array(count["effects_of_removal"]))[0, 1]))
        figures = data["bets"][bet]["system"]
        assert figures["mean_stake"] == pytest.approx(stakes.mean())
        assert figures["gain_per_round_dealt"]["mean"] == pytest.approx(
            (stakes * evs_a).mean(), abs=1e-15)


def test_the_librarys_bound_on_shoes_is_the_clis() -> None:
    """`lucky9 count --shoes` and count_study refuse the same sizes, with the bound named."""
    from odds.cli.count import count_command

    top = next(p for p in count_command.params if p.name == "shoes").type.max
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
        outcomes = data["bets"][bet]["flat_bet"]["sampled_outcomes"]
        sampled = outcomes["units_per_shoe"]
        assert sampled["mean"] == pytest.approx(won / shoes)
        # The variance of the outcomes dealt against that of the exact EVs: their se's squared.
        exact_se = data["bets"][bet]["flat_bet"]["units_per_shoe"]["se"]
        assert outcomes["variance_factor"] == pytest.approx((sampled["se"] / exact_se) ** 2)
        assert list(data["bets"][bet]["percentiles"]) == [
            "1", "5", "10", "25", "50", "75", "90", "95", "99"]


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
    # Above it too: a round whose EV lies beyond the fresh EV plus 0.5 (many pairs left) is
    # counted in the top overflow bin, which the 20-bin histogram puts at the largest EV.
    above = sum(1 for e in evs if e > fresh + Fraction(1, 2))
    top_edge = figures["histogram"]["edges"][-2]
    assert above > 0 and float(fresh) + 0.5 < top_edge
    assert figures["histogram"]["counts"][-1] >= above


# -- bounds, jobs, checkpoints and grids -----------------------------------------------------------
# The bounds on the cut card and the burn (the largest value accepted deals a
# round, the next is refused with a sentence naming the bound), jobs against a
# cluster, where the chunks run, the save folder's checkpoint and the chunks kept
# beyond it, a grid stopped by an interrupt, and a few figures
# (``rounds_bet_share``, ``tags_balanced``, the penetration shown).

def _json(study: Any) -> str:
    return json.dumps(count_data(study), indent=2)


def _stopper(after: int) -> Any:
    def progress(done: int) -> None:
        if done >= after:
            raise KeyboardInterrupt

    return progress


# -- bounds: the largest value accepted deals a round, the next is refused -----------------


@pytest.mark.parametrize("packs, burn", [(1, 0), (1, 3), (2, 5)], ids=["1-pack", "burn-3", "2-packs"])
def test_the_cut_card_bound_the_refusal_names_is_the_largest_accepted(packs: int, burn: int) -> None:
    size = 52 * packs
    with pytest.raises(ValueError, match=r"\(at most \d+ behind it\)") as info:
        study_plan(PROFILE, packs, bets=["tie"], cut_cards=size - burn, burn=burn)
    most = int(re.search(r"at most (\d+) behind it", str(info.value)).group(1))  # type: ignore[union-attr]
    plan, _ = study_plan(PROFILE, packs, bets=["tie"], cut_cards=most, burn=burn)
    assert plan.stop == size - most
    # The largest cut card accepted still deals a round in every shoe (a round starts while
    # the cut card has not come out and six cards are left).
    for index in range(3):
        dealt = round_lengths(PROFILE, shuffled_ranks(packs, 1, index), start=burn,
                              stop=min(plan.stop, size - 5))
        assert len(dealt) >= 1
    with pytest.raises(ValueError) as info:
        study_plan(PROFILE, packs, bets=["tie"], cut_cards=most + 1, burn=burn)
    assert str(info.value) == (
        f"a cut card with {most + 1} cards behind it and {burn} burned has fewer than 6 cards "
        f"ahead in a shoe of {size} cards (at most {most} behind it)")


@pytest.mark.parametrize("penetration, stop, last", [(0.75, 39, 38), (1.0, 52, 46)],
                         ids=["before-the-cut-card", "six-left"])
def test_the_largest_burn_accepted_deals_one_round_a_shoe(penetration: float, stop: int,
                                                          last: int) -> None:
    """Burning ``last`` cards leaves room for one round (it starts before the cut card
    and with six cards left); burning one more leaves none, and is refused."""
    with pytest.raises(ValueError) as info:
        study_plan(PROFILE, 1, bets=["tie"], penetration=penetration, burn=last + 1)
    assert str(info.value) == (f"burning {last + 1} cards leaves no round to deal before the "
                               f"cut card ({stop} cards into a shoe of 52)")
    study = count_study(PROFILE, 1, 3, penetration, seed=2, bets=["tie"], burn=last)
    assert study.burn == last and study.cut == stop
    assert study.rounds == 3 and study.rounds_per_shoe[2:] == (1, 1)
    for index in range(3):  # one round a shoe, really dealt
        assert len(round_lengths(PROFILE, shuffled_ranks(1, 2, index), start=last,
                                 stop=min(stop, 52 - 5))) == 1


def test_the_penetration_is_shown_only_when_it_places_the_cut_card() -> None:
    by_share = count_study(PROFILE, 1, 2, 0.75, seed=1, bets=["tie"])
    assert (by_share.penetration, by_share.cut_cards, by_share.cut) == (0.75, None, 39)
    assert count_data(by_share)["study"]["penetration"] == 0.75
    by_cards = count_study(PROFILE, 1, 2, 0.75, seed=1, bets=["tie"], cut_cards=13)
    assert (by_cards.penetration, by_cards.cut_cards, by_cards.cut) == (None, 13, 39)
    assert count_data(by_cards)["study"]["penetration"] is None


# -- where the chunks run ------------------------------------------------------------------


class _HereCluster:
    """A stand-in for an open cluster session: its runner deals the chunks in this process."""

    def __init__(self) -> None:
        self.plans: list[Any] = []

    def runner(self, plan: Any) -> Any:
        self.plans.append(plan)
        return counting._Serial(plan)


def test_jobs_and_a_cluster_together_are_refused() -> None:
    cluster = _HereCluster()
    with pytest.raises(ValueError) as info:
        count_study(PROFILE, 1, 2, 0.75, seed=1, jobs=2, bets=["tie"], cluster=cluster)
    assert str(info.value) == ("give jobs or a cluster, not both (the cluster's workers are the "
                               "jobs)")
    assert cluster.plans == []
    # With jobs left at 1, the cluster runs the chunks, and the figures are the same (the
    # report says where they ran).
    study = count_study(PROFILE, 1, 2, 0.75, seed=1, bets=["tie"], cluster=cluster)
    assert len(cluster.plans) == 1
    assert study.cluster is not None
    assert _json(replace(study, cluster=None)) == _json(
        count_study(PROFILE, 1, 2, 0.75, seed=1, bets=["tie"]))


@pytest.mark.parametrize("jobs, children", [(1, False), (2, True)], ids=["here", "pool"])
def test_one_job_deals_in_this_process_and_two_in_a_pool(jobs: int, children: bool) -> None:
    seen: list[int] = []

    def progress(done: int) -> None:
        seen.append(len(multiprocessing.active_children()))

    count_study(PROFILE, 1, 2, 0.75, seed=1, jobs=jobs, progress=progress, bets=["tie"])
    assert len(seen) >= 2  # before the first chunk, and as chunks finish
    assert (max(seen) > 0) is children


# -- the save folder: its checkpoint, and the chunks kept beyond it ------------------------


def _kept(folder: Path) -> StudyFolder:
    settings = json.loads((folder / "study.json").read_text())["settings"]
    return StudyFolder.resume(folder, settings)


def test_the_checkpoint_folds_every_chunk_done(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """With a checkpoint every chunk, a study stopped after two chunks of four shoes keeps
    both in total.npz (and no chunk file); finished, it keeps the total alone."""
    monkeypatch.setattr(counting, "SHOES_PER_BATCH", 4)
    monkeypatch.setattr(counting, "CHECKPOINT_CHUNKS", 1)
    folder = tmp_path / "s"
    part = count_study(PROFILE, 1, 12, 0.75, seed=5, bets=["tie"], save=folder,
                       progress=_stopper(8), partial_on_stop=True)
    assert part.partial and part.shoes == 8
    assert sorted(os.listdir(folder)) == ["study.json", "total.npz"]
    assert _kept(folder).next == 8
    done = count_study(PROFILE, 1, 12, 0.75, seed=5, bets=["tie"], save=folder, resume=True)
    assert not done.partial and done.shoes == 12
    assert sorted(os.listdir(folder)) == ["study.json", "total.npz"]
    assert _kept(folder).next == 12  # the end: a study grown later starts there


def test_a_resumed_study_starts_from_its_checkpoint(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Resumed, a study stopped after two checkpointed chunks of four shoes counts their 8
    shoes as done from the start and deals the last chunk alone."""
    monkeypatch.setattr(counting, "SHOES_PER_BATCH", 4)
    monkeypatch.setattr(counting, "CHECKPOINT_CHUNKS", 1)
    folder = tmp_path / "s"
    count_study(PROFILE, 1, 12, 0.75, seed=5, bets=["tie"], save=folder,
                progress=_stopper(8), partial_on_stop=True)
    seen: list[int] = []
    done = count_study(PROFILE, 1, 12, 0.75, seed=5, bets=["tie"], save=folder, resume=True,
                       progress=seen.append)
    assert not done.partial and done.shoes == 12
    assert seen == [8, 12]


class _LastFirst:
    """A runner that hands back the chunk submitted last first, as a pool may."""

    slots = 2

    def __init__(self, plan: Any) -> None:
        self.inner = counting._Serial(plan)

    def submit(self, a: int, b: int) -> Any:
        return self.inner.submit(a, b)

    def wait(self, pending: list[Any], timeout: float) -> set[Any]:
        return {pending[-1]}

    def result(self, handle: Any) -> Any:
        return handle.result()

    def close(self, cancel: bool) -> None:
        pass


def test_a_chunk_saved_beyond_the_checkpoint_is_folded_on_resume(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(counting, "SHOES_PER_BATCH", 4)
    args = (PROFILE, 1, 12, 0.75)
    want = _json(count_study(*args, seed=5, bets=["tie"]))
    real = counting._runner
    monkeypatch.setattr(counting, "_runner", lambda plan, *rest: _LastFirst(plan))
    folder = tmp_path / "s"
    part = count_study(*args, seed=5, bets=["tie"], save=folder, progress=_stopper(4),
                       partial_on_stop=True)
    # Shoes 4-7 finished first, then the stop: shoes 0-3 were never dealt.
    assert part.partial and part.shoes == 4
    assert _kept(folder).saved() == [4]
    monkeypatch.setattr(counting, "_runner", real)
    resumed = count_study(*args, seed=5, bets=["tie"], save=folder, resume=True)
    assert not resumed.partial and resumed.shoes == 12
    assert _json(resumed) == want


# -- a grid stopped by an interrupt --------------------------------------------------------


CELLS = [(PROFILE, 1, None), (PROFILE, 1, 20)]


def test_an_interrupted_grid_raises_unless_partial_figures_are_asked() -> None:
    with pytest.raises(KeyboardInterrupt):
        count_grid(CELLS, 2, 0.75, seed=1, progress=_stopper(2), bets=["tie"])
    grid = count_grid(CELLS, 2, 0.75, seed=1, progress=_stopper(2), bets=["tie"],
                      partial_on_stop=True)
    assert grid.partial and len(grid.studies) == 1 and grid.studies[0].partial


# -- figures -------------------------------------------------------------------------------


def test_perfect_information_bets_on_the_positive_rounds() -> None:
    """``rounds_bet_share`` of perfect information is the share of rounds with EV > 0; the
    strategies that bet every round have none."""
    study = count_study(PROFILE, 1, 5, 0.9, seed=3, bets=["banker", "tie"])
    for bet in study.bets:
        f = bet.figures
        share = f["perfect_information"]["rounds_bet_share"]
        assert share == f["positive_share"]
        assert 0 < share["mean"] < 1, bet.bet
        assert "rounds_bet_share" not in f["flat_bet"]
        assert "rounds_bet_share" not in f["perfect_information_spread"]
        assert f["linear_count"]["sit_out"]["rounds_bet_share"]["mean"] == pytest.approx(
            f["linear_count"]["sit_out"]["mean_stake"])


@pytest.mark.parametrize("key, bet", [("punto-banco", "banker"), ("standard", "colon")])
def test_tags_are_balanced_when_they_sum_to_0_over_a_pack(key: str, bet: str) -> None:
    study = count_study(BUILTIN[key], 1, 2, 0.75, seed=1, bets=[bet])
    count = study.bets[0].figures["count"]
    tags = tuple(count["tags"])
    assert count["tags_balanced"] is (sum(tags) == 0) is CountSystem(tags, 0).balanced
    # punto-banco's banker tags sum to 1 (unbalanced); standard's colon tags are all 0.
    assert count["tags_balanced"] is (key == "standard")
