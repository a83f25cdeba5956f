"""Cards: ranks, suits, point values, parsing and printing."""

from __future__ import annotations

import pytest

from odds.rules.cards import RANKS, Card, Rank, Suit, hand_value, parse_card, parse_cards


def test_a_suit_prints_as_its_letter() -> None:
    assert [str(s) for s in Suit] == ["c", "d", "h", "s"]
    assert f"{Rank.KING}{Suit.SPADES}" == "Ks"


def test_a_printed_card_parses_back_to_itself() -> None:
    for rank in RANKS:
        for suit in (*Suit, None):
            card = Card(rank, suit)
            assert parse_card(str(card)) == card
            assert repr(card) == f"Card({str(card)!r})"


def test_points_and_indices_in_pack_order() -> None:
    assert [r.points for r in RANKS] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]
    assert [r.index for r in RANKS] == list(range(13))
    assert [s.index for s in Suit] == [0, 1, 2, 3]
    assert parse_card("K♠") == Card(Rank.KING, Suit.SPADES)


def test_hand_value_is_the_last_digit() -> None:
    assert hand_value(parse_cards("9 9 9")) == 7
    assert hand_value(parse_cards("K Q")) == 0
    assert hand_value(parse_cards("5 5 K")) == 0
    assert hand_value(parse_cards("A 8")) == 9


@pytest.mark.parametrize(("token", "card"), [
    ("T", Card(Rank.TEN)), ("ts", Card(Rank.TEN, Suit.SPADES)),
    ("A♧", Card(Rank.ACE, Suit.CLUBS)), ("9\ufe0f♥", Card(Rank.NINE, Suit.HEARTS)),
    ("2♣", Card(Rank.TWO, Suit.CLUBS)), ("3♦", Card(Rank.THREE, Suit.DIAMONDS)),
    ("4♢", Card(Rank.FOUR, Suit.DIAMONDS)), ("5♡", Card(Rank.FIVE, Suit.HEARTS)),
    ("6♠", Card(Rank.SIX, Suit.SPADES)), ("7♤", Card(Rank.SEVEN, Suit.SPADES)),
    (" q ", Card(Rank.QUEEN)),
])
def test_aliases_symbols_and_invisible_characters(token: str, card: Card) -> None:
    assert parse_card(token) == card


@pytest.mark.parametrize(("token", "words"), [
    ("", "an empty card"), ("Kx", "suit must be one of"), ("11", "rank must be one of"),
    ("s", "rank must be one of"),
])
def test_bad_cards_say_why(token: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        parse_card(token)


def test_card_lists_split_on_spaces_commas_and_semicolons() -> None:
    assert parse_cards("A;2, 3\t4") == parse_cards(["A", "2", "3", Card(Rank.FOUR)])
