"""Whole hands at a table (odds.exact.hands) against card-by-card brute force."""

from __future__ import annotations

from collections import Counter
from itertools import permutations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odds.exact.engine import pair_options
from odds.exact.hands import canonical, hand_counts, hand_deals, hand_of
from odds.rules.draw import hand_draws
from odds.rules.profiles import BUILTIN
from tests.brute import PIPS, _pair_class
from tests.examples import examples

KEYS = ["standard", "super9", "forced-draw", "plain"]


def _plain_hand(profile, cards, side):  # type: ignore[no-untyped-def]
    rule = profile.player_draw if side == "player" else profile.bank_draw
    v = (PIPS[cards[0]] + PIPS[cards[1]]) % 10
    draws = v not in profile.naturals and v in rule.draws
    f = (v + PIPS[cards[2]]) % 10 if draws else v
    return v, _pair_class(profile, cards[0], cards[1]), f


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("side", ["player", "bank"])
def test_hand_deals_against_every_ordering(key: str, side: str) -> None:
    profile = BUILTIN[key]
    counts = (1, 1, 0, 1, 1, 1, 0, 1, 2, 1, 0, 0, 1)
    draws = hand_draws(profile)[side == "bank"]
    cards = [r for r, c in enumerate(counts) for _ in range(c)]
    brute: Counter[tuple[int, int, int, tuple[int, ...]]] = Counter()
    for order in permutations(range(len(cards)), 3):
        dealt = [cards[i] for i in order]
        hand = _plain_hand(profile, dealt, side)
        left = list(counts)
        took = dealt if _takes(profile, dealt, side) else dealt[:2]
        for r in took:
            left[r] -= 1
        # A hand that stands leaves its third slot for padding: count it there.
        brute[(*hand, canonical(left))] += 1
    got: Counter[tuple[int, int, int, tuple[int, ...]]] = Counter()
    deals, work = hand_deals(profile, counts, draws)
    for v, col, f, w, left in deals:
        padding = sum(left) if sum(left) == sum(counts) - 2 else 1
        got[v, col, f, left] += w * padding
    # The brute force's stood hands are keyed by what is left after two cards.
    assert got == +brute
    # Work: 13 per two-card hand that draws, 1 per hand that stands.
    assert work == sum(13 if draws[(PIPS[a] + PIPS[b]) % 10] else 1
                       for a, b, _, _ in pair_options(list(counts), (), False))


def _takes(profile, dealt, side):  # type: ignore[no-untyped-def]
    rule = profile.player_draw if side == "player" else profile.bank_draw
    v = (PIPS[dealt[0]] + PIPS[dealt[1]]) % 10
    return v not in profile.naturals and v in rule.draws


@pytest.mark.parametrize("key", KEYS)
def test_hand_counts_against_every_triple_of_an_infinite_shoe(key: str) -> None:
    profile = BUILTIN[key]
    weights = (1, 2, 1, 1, 3, 1, 1, 2, 1, 1, 1, 2, 1)
    for side, draws in zip(("player", "bank"), hand_draws(profile), strict=True):
        brute: Counter[tuple[int, int, int]] = Counter()
        for triple in product(range(13), repeat=3):
            w = weights[triple[0]] * weights[triple[1]] * weights[triple[2]]
            brute[_plain_hand(profile, triple, side)] += w
        assert hand_counts(profile, weights, draws) == dict(brute)


@settings(max_examples=examples(60, 500), deadline=None)
@given(st.sampled_from(KEYS), st.sampled_from(["player", "bank"]),
       st.lists(st.integers(0, 12), min_size=3, max_size=3))
def test_hand_of_is_the_rules_read_plainly(key: str, side: str, cards: list[int]) -> None:
    profile = BUILTIN[key]
    draws = hand_draws(profile)[side == "bank"]
    assert hand_of(profile, cards, draws) == _plain_hand(profile, cards, side)


def test_every_name_the_module_exports_is_defined() -> None:
    # The aliases Hand and HandDeal are public (odds.money.bank imports HandDeal).
    import odds.exact.hands as hands

    assert [name for name in hands.__all__ if not hasattr(hands, name)] == []
