"""The verifier's per-round odds through the batch engine (odds.exact.marginals, odds.sim.expect).

Checked two ways: every marginal the verifier tests equals the reference
(``round_odds``, the recursive enumeration) exactly, in integers, on
near-exhausted single packs, 2 and 8 packs, under profiles with bank Colon
bonuses by rank and by value; and invariants (the bank's two-card values and
Colon classes are the player's; value-only compositions give the point
quantities of every split of their zero-point cards; the factorised float64
product equals the integer product), with hypothesis.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odds.exact import batch, products
from odds.exact.engine import round_odds
from odds.exact.marginals import (
    colon_by_points,
    lump_zero_points,
    margin_table,
    round_marginals,
)
from odds.exact.sequences import row_classes
from odds.rules.profiles import BUILTIN
from odds.rules.shoe import Shoe
from odds.sim.expect import round_probabilities

BANK_RANK = BUILTIN["standard"].with_options(bank_bonus=True)
BANK_VALUE = BUILTIN["standard"].with_options(bank_bonus=True, colon_match="value",
                                              bonus_on="always")
PROFILES = {
    "standard": BUILTIN["standard"],
    "super9": BUILTIN["super9"],
    "punto-banco": BUILTIN["punto-banco"],
    "ez-baccarat": BUILTIN["ez-baccarat"],
    "forced-draw": BUILTIN["forced-draw"],
    "bank-colon-by-rank": BANK_RANK,
    "bank-colon-by-value": BANK_VALUE,
}


def _compositions(seed: int, count: int) -> list[list[int]]:
    """Shoes of 1, 2 and 8 packs dealt down at random, a third of them to 6-20 cards."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        packs = (1, 2, 8)[k % 3]
        cards = [r for r in range(13) for _ in range(4 * packs)]
        rng.shuffle(cards)
        left = rng.randrange(6, 21) if k % 3 == 0 else rng.randrange(6, len(cards) + 1)
        out.append([cards[:left].count(r) for r in range(13)])
    return out


def _reference(profile, counts):
    """Every marginal of one round from ``round_odds``, as exact integer counts."""
    exact = round_odds(profile, Shoe(tuple(counts)))
    fold = {name: np.zeros(size, dtype=object) for name, size in
            (("pv", 10), ("bv", 10), ("pcol", 3), ("bcol", 3))}
    categories: dict[str, int] = {}
    for (pv, bv, pcol, bcol, cat), c in exact.outcome_counts.items():
        fold["pv"][pv] += c
        fold["bv"][bv] += c
        fold["pcol"][pcol] += c
        fold["bcol"][bcol] += c
        categories[cat] = categories.get(cat, 0) + c
    return exact, fold, categories


# the default run keeps one profile with the bank's bonus and colon by value; the rest
# (punto-banco's plain rules among them) run in CI (slow)
MARGINAL_FAST = ("bank-colon-by-value",)


@pytest.mark.parametrize("key", [k if k in MARGINAL_FAST else pytest.param(k, marks=pytest.mark.slow)
                                 for k in PROFILES])
def test_every_marginal_equals_round_odds_exactly(key):
    profile = PROFILES[key]
    comps = _compositions(len(key), 24)
    m = round_marginals(profile, comps)
    names = m.table.categories
    for i, counts in enumerate(comps):
        exact, fold, categories = _reference(profile, counts)
        assert m.totals[i] == exact.total
        assert {n: int(c) for n, c in zip(names, m.categories[i], strict=True) if c} == categories
        assert m.player_value[i].tolist() == fold["pv"].tolist()
        assert m.bank_value[i].tolist() == fold["bv"].tolist()
        assert m.player_colon[i].tolist() == fold["pcol"].tolist()
        assert m.bank_colon[i].tolist() == fold["bcol"].tolist()
        assert m.player_final[i].tolist() == list(exact.player_final_counts)
        assert m.bank_final[i].tolist() == list(exact.bank_final_counts)
        assert int(m.player_draws[i]) == exact.player_draw_count
        assert int(m.bank_draws[i]) == exact.bank_draw_count
        dist = exact.payout_distribution("player")
        got = {a: Fraction(int(c), exact.total)
               for a, c in zip(m.table.amounts, m.payouts[i], strict=True) if c}
        assert got == dist


@pytest.mark.parametrize("key", ["standard", pytest.param("punto-banco", marks=pytest.mark.slow),
                                 pytest.param("bank-colon-by-value", marks=pytest.mark.slow)])
def test_the_verifiers_probabilities_are_the_exact_counts_rounded_once(key):
    profile = PROFILES[key]
    comps = _compositions(7, 30)
    probs = round_probabilities(profile, comps)
    for i, counts in enumerate(comps):
        exact = round_odds(profile, Shoe(tuple(counts)))
        for k, name in enumerate(probs.names):
            assert probs.categories[i, k] == float(exact.categories.get(name, Fraction(0)))
        assert probs.bank_draws[i] == float(exact.bank_draws)
        assert probs.player_colon is not None and probs.payouts is not None
        assert probs.player_colon[i, 1:].sum() == pytest.approx(float(exact.player_colon),
                                                                abs=1e-15)
        dist = exact.payout_distribution("player")
        for j, amount in enumerate(probs.amounts):
            assert probs.payouts[i, j] == float(dist.get(amount, Fraction(0)))


def _split(counts: list[int], rng: random.Random) -> list[int]:
    """The zero-point cards of ``counts`` split at random between 10, J, Q and K."""
    zero = sum(counts[9:])
    cuts = sorted(rng.randrange(zero + 1) for _ in range(3))
    return counts[:9] + [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], zero - cuts[2]]


@pytest.mark.parametrize("key", ["standard", "punto-banco", "bank-colon-by-rank",
                                 "bank-colon-by-value"])
def test_value_only_compositions_are_exact_for_every_split_of_the_zero_cards(key):
    # The proof in odds.exact.marginals: a point sequence's deals do not depend on how the
    # zero-point cards split between the four ranks.  Checked against round_odds on splits.
    profile = PROFILES[key]
    rng = random.Random(23)
    comps = [_split(c, rng) for c in _compositions(3, 18)]
    lumped = round_marginals(profile, lump_zero_points(comps))
    split = round_marginals(profile, comps)
    for group in ("categories", "player_value", "player_final", "bank_final", "player_draws",
                  "bank_draws"):
        assert np.array_equal(getattr(lumped, group), getattr(split, group)), group
    # A Colon nine is a pair of 9s: points tell it.
    assert np.array_equal(lumped.player_colon[:, 2], split.player_colon[:, 2])
    if colon_by_points(profile):
        assert np.array_equal(lumped.player_colon, split.player_colon)
        assert np.array_equal(lumped.payouts, split.payouts)
    for i in range(0, len(comps), 3):
        exact = round_odds(profile, Shoe(tuple(comps[i])))
        assert lumped.bank_final[i].tolist() == list(exact.bank_final_counts)
    probs = round_probabilities(profile, lump_zero_points(comps), values_only=True)
    assert probs.compositions is None
    assert (probs.player_colon is None) == (not colon_by_points(profile))
    assert (probs.payouts is None) == (not colon_by_points(profile))
    assert probs.player_colon_nine is not None
    assert np.array_equal(probs.player_colon_nine,
                          split.player_colon[:, 2].astype(float) / np.array(
                              [float(t) for t in split.totals]))


def test_value_only_lumps_a_composition_given_by_rank():
    # A value-only caller may pass ranks: they are lumped, never used.
    profile = BUILTIN["standard"]
    comps = _compositions(5, 6)
    a = round_probabilities(profile, comps, values_only=True)
    b = round_probabilities(profile, lump_zero_points(comps), values_only=True)
    assert np.array_equal(a.categories, b.categories)
    assert np.array_equal(a.player_value, b.player_value)


def test_the_margin_table_is_folded_from_the_rules_table_alone():
    # No second enumeration: every margin column is a sum of the rules table's columns,
    # so the product of the margins equals the fold of the full batch counts.
    profile = BUILTIN["super9"]
    comps = _compositions(11, 40)
    full = batch.batch_counts(profile, comps, full=True)
    m = round_marginals(profile, comps)
    keys = full.table.keys
    for v in range(10):
        cols = [j for j, k in enumerate(keys) if k[0] == v]
        assert np.array_equal(m.player_value[:, v], full.outcome[:, cols].sum(axis=1))
    assert np.array_equal(m.bank_final, full.bank_final)
    assert np.array_equal(m.player_draws, full.player_draws)
    num, den = full.ev_numerators("player")
    amounts = np.array([int(a * den) for a in m.table.amounts], dtype=object)
    assert (m.payouts.astype(object) @ amounts).tolist() == [int(x) for x in num]
    assert margin_table(profile).matrix.shape[0] == len(row_classes().codes)


def test_side_bets_in_the_same_product_equal_their_own_table():
    from odds.exact.bet_table import bet_set
    from odds.exact.bets import bet_odds

    profile = BUILTIN["ez-baccarat"]
    comps = _compositions(13, 20)
    probs = round_probabilities(profile, comps, bets=("dragon-7", "panda-8"))
    assert probs.side is not None
    for bet in ("dragon-7", "panda-8"):
        labels, cells = probs.side[bet]
        counts = bet_set(profile, [bet], suits=False).table().counts(comps)
        for i in range(len(comps)):
            dist = counts.distribution(bet, i)
            assert cells[i].tolist() == [float(dist.get(Fraction(a), 0)) for a in labels]
    # and the reference, on the near-exhausted packs (cheap to enumerate)
    for i in range(0, len(comps), 3):
        want = bet_odds(profile, Shoe(tuple(comps[i])), ["dragon-7"])["dragon-7"]
        dist = want.payout_distribution()
        labels, cells = probs.side["dragon-7"]
        assert cells[i] == pytest.approx([float(dist.get(Fraction(a), 0)) for a in labels],
                                         abs=1e-15)


def test_side_bets_need_ranks():
    with pytest.raises(ValueError, match="value only"):
        round_probabilities(BUILTIN["ez-baccarat"], [[4] * 13], values_only=True,
                            bets=("dragon-7",))


def _int_product(comps: np.ndarray, infinite: bool, matrix: np.ndarray) -> list[list[int]]:
    totals = products.sequence_totals(comps, infinite)
    return [products._product(products._class_weights(comps[i:i + 1], infinite, 2**63 - 1),
                           matrix, totals[i])[0].tolist() for i in range(len(comps))]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6),
       st.booleans())
def test_the_factorised_float_product_equals_the_integer_product(counts, infinite):
    table = margin_table(BUILTIN["standard"])
    comps = np.array([counts], dtype=np.int64)
    totals = products.sequence_totals(comps, infinite)
    got = products.composition_counts(comps, infinite, totals, table.matrix)
    assert got.tolist() == _int_product(comps, infinite, table.matrix)


def test_the_float_path_stops_at_its_bound():
    # 456 cards: 456**6 < 2**53, the factorised float product; 457: the integer one.
    # Both give the integer product's counts.
    table = margin_table(BUILTIN["plain"])
    comps = np.array([[36] * 12 + [24], [36] * 12 + [25]], dtype=np.int64)
    assert comps.sum(axis=1).tolist() == [456, 457]
    assert 456**6 < products.FLOAT_EXACT <= 457**6
    totals = products.sequence_totals(comps, False)
    got = products.composition_counts(comps, False, totals, table.matrix)
    assert got.tolist() == _int_product(comps, False, table.matrix)
