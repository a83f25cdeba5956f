"""Cards: parsing, validation and the errors people see."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from odds import (
    BUILTIN,
    RANKS,
    Card,
    Rank,
    Shoe,
    Suit,
    parse_card,
    parse_cards,
    round_odds,
)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("8h", Card(Rank.EIGHT, Suit.HEARTS)),
        ("AC", Card(Rank.ACE, Suit.CLUBS)),
        ("t♠", Card(Rank.TEN, Suit.SPADES)),
        ("10♦️", Card(Rank.TEN, Suit.DIAMONDS)),
        ("q", Card(Rank.QUEEN)),
        ("9", Card(Rank.NINE)),
        ("kD", Card(Rank.KING, Suit.DIAMONDS)),
    ],
)
def test_parse_card(text: str, expected: Card) -> None:
    assert parse_card(text) == expected


def test_parse_cards_separators() -> None:
    assert parse_cards("8h,7s  Ac;10d") == parse_cards("8h 7s Ac 10d")
    assert [str(c) for c in parse_cards("8♥ 7♠ K")] == ["8h", "7s", "K"]


@pytest.mark.parametrize(
    "text,message",
    [
        ("1x", "'1x' is not a card (rank must be one of A 2 3 4 5 6 7 8 9 10 J Q K)"),
        ("8z", "'8z' is not a card (suit must be one of c d h s or ♣ ♦ ♥ ♠)"),
        ("11", "'11' is not a card"),
        ("Z", "'Z' is not a card"),
    ],
)
def test_bad_card(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_card(text)


def test_empty_card_list() -> None:
    with pytest.raises(ValueError, match="no cards were given"):
        parse_cards(" , ")


def test_too_many_copies_of_a_rank() -> None:
    with pytest.raises(ValueError, match="holds only 4 cards of rank A .1 pack., but 5 are taken"):
        Shoe.packs_of(1).without("A A A A A")


def test_same_suited_card_twice_in_one_pack() -> None:
    with pytest.raises(ValueError, match="holds only 1 Ah"):
        Shoe.packs_of(1).without("Ah Ah")
    Shoe.packs_of(2).without("Ah Ah")  # two packs hold two


def test_suited_and_rank_only_cards_mix() -> None:
    # Three rank-only aces and Ah fit one pack; a second Ah does not.
    Shoe.packs_of(1).without("A A A Ah")
    with pytest.raises(ValueError):
        Shoe.packs_of(1).without("A A Ah Ah")


def test_cards_across_hands_are_checked_together() -> None:
    with pytest.raises(ValueError, match="bank cards include Ah"):
        round_odds(BUILTIN["standard"], Shoe.packs_of(1), player="Ah", bank="Ah")


cards = st.builds(Card, st.sampled_from(RANKS), st.none() | st.sampled_from(list(Suit)))


@given(st.lists(cards, min_size=1, max_size=8), st.sampled_from([" ", ",", ", ", " ; "]))
def test_parsing_round_trips(hand: list[Card], sep: str) -> None:
    assert parse_cards(sep.join(str(c) for c in hand)) == tuple(hand)
    assert parse_cards(sep.join(str(c).upper() for c in hand)) == tuple(hand)
