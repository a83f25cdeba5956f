"""Property-based tests (hypothesis): parsing, removals, conditioning."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from odds import BUILTIN, RANKS, Card, Shoe, Suit, parse_cards, round_odds
from odds.exact.removal import removal_effects
from tests.examples import examples

cards = st.builds(Card, st.sampled_from(RANKS), st.none() | st.sampled_from(list(Suit)))
PROFILES = ["standard", "forced-draw", "punto-banco", "super9"]


@given(st.lists(cards, min_size=1, max_size=8), st.sampled_from([" ", ",", ", ", " ; "]))
def test_parsing_round_trips(hand: list[Card], sep: str) -> None:
    assert parse_cards(sep.join(str(c) for c in hand)) == tuple(hand)
    assert parse_cards(sep.join(str(c).upper() for c in hand)) == tuple(hand)


@settings(max_examples=examples(8, 25), deadline=None)
@given(
    st.lists(st.sampled_from(RANKS), max_size=12),
    st.sampled_from(PROFILES),
    st.integers(1, 2),
)
def test_random_removals_sum_to_one(removed: list, profile: str, decks: int) -> None:
    shoe = Shoe.packs_of(decks)
    gone = [Card(r) for r in removed if sum(1 for x in removed if x is r) <= 4 * decks]
    r = round_odds(BUILTIN[profile], shoe, removed=gone) if gone else round_odds(
        BUILTIN[profile], shoe)
    assert r.win + r.push + r.loss == 1
    assert sum(r.payout_distribution().values()) == 1
    assert r.total > 0


@settings(max_examples=examples(5, 15), deadline=None)
@given(st.lists(st.sampled_from(RANKS), min_size=1, max_size=6), st.sampled_from(PROFILES))
def test_remove_then_put_back_is_fresh(removed: list, profile: str) -> None:
    fresh = Shoe.packs_of(2)
    less = fresh.without([Card(r) for r in removed])
    counts = list(less.counts)
    for r in removed:
        counts[r.index] += 1
    back = Shoe(tuple(counts), packs=2)
    a = round_odds(BUILTIN[profile], fresh)
    b = round_odds(BUILTIN[profile], back)
    assert (a.win, a.push, a.loss, a.expected_value, a.variance) == (
        b.win, b.push, b.loss, b.expected_value, b.variance)


@settings(max_examples=examples(3, 10), deadline=None)
@given(st.sampled_from(PROFILES), st.integers(1, 2))
def test_conditioning_on_first_card_averages_back(profile: str, decks: int) -> None:
    # Averaging over the player's known first card, weighted by how often
    # each rank comes, gives the unconditioned odds (law of total probability).
    shoe = Shoe.packs_of(decks)
    base = round_odds(BUILTIN[profile], shoe)
    total = sum(
        shoe.counts[r.index] * round_odds(BUILTIN[profile], shoe, player=[Card(r)]).expected_value
        for r in RANKS
    )
    assert total / shoe.size == base.expected_value


def test_effect_of_removal_weighted_sum_is_zero() -> None:
    shoe = Shoe.packs_of(1)
    for profile in ("standard", "punto-banco"):
        effects = removal_effects(BUILTIN[profile], shoe)
        assert sum(shoe.counts[e.rank.index] * e.ev_change for e in effects) == 0
        assert sum(shoe.counts[e.rank.index] * e.win_change for e in effects) == 0
