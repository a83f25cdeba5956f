"""Cards: ranks, suits, point values and parsing what people type.

Suits never matter for settlement; they are kept only so that a shoe can
refuse a card it does not hold (the same ``Ah`` twice from one pack).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass

from odds.io.textio import excerpt

__all__ = [
    "RANKS",
    "Card",
    "Rank",
    "Suit",
    "hand_value",
    "parse_card",
    "parse_cards",
]


class Rank(enum.Enum):
    """The thirteen ranks, in pack order A..K."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def index(self) -> int:
        """Position in pack order, 0 (ace) to 12 (king)."""
        return _RANK_INDEX[self]

    @property
    def points(self) -> int:
        """Point value: A = 1, 2..9 face value, 10 J Q K = 0.

        >>> Rank.ACE.points, Rank.NINE.points, Rank.KING.points
        (1, 9, 0)
        """
        return POINTS[self.index]

    def __str__(self) -> str:
        return self.value


RANKS: tuple[Rank, ...] = tuple(Rank)
_RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)}
# Point value by rank index: A..9 count 1..9, the four ten-cards count 0.
POINTS: tuple[int, ...] = tuple(i + 1 if i < 9 else 0 for i in range(13))


class Suit(enum.Enum):
    """The four suits; letters and symbols are both accepted."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def index(self) -> int:
        """Position 0..3 in c, d, h, s order."""
        return list(Suit).index(self)

    def __str__(self) -> str:
        return self.value


_SUIT_SYMBOLS = {
    "♣": Suit.CLUBS, "♧": Suit.CLUBS,
    "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "♠": Suit.SPADES, "♤": Suit.SPADES,
    "C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES,
}
_RANK_ALIASES = {rank.value: rank for rank in RANKS} | {"T": Rank.TEN}
_RANK_LIST = " ".join(rank.value for rank in RANKS)
# Variation selectors and zero-width joiners ride along with emoji suits.
_INVISIBLE = re.compile("[\ufe0e\ufe0f\u200d]")


@dataclass(frozen=True)
class Card:
    """A card; ``suit`` is None for a rank-only card such as ``9`` or ``K``.

    >>> Card(Rank.EIGHT, Suit.HEARTS)
    Card('8h')
    >>> Card(Rank.EIGHT, Suit.HEARTS).points
    8
    """

    rank: Rank
    suit: Suit | None = None

    @property
    def points(self) -> int:
        """The card's point value."""
        return self.rank.points

    def __str__(self) -> str:
        return self.rank.value + (self.suit.value if self.suit else "")

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


def parse_card(token: str) -> Card:
    """Parse one card: rank (``A 2..9 10 T J Q K``), optional suit letter or symbol.

    >>> parse_card("10d"), parse_card("t♥"), parse_card("K")
    (Card('10d'), Card('10h'), Card('K'))
    >>> parse_card("1x")
    Traceback (most recent call last):
    ...
    ValueError: '1x' is not a card (rank must be one of A 2 3 4 5 6 7 8 9 10 J Q K)
    """
    text = _INVISIBLE.sub("", token).strip()
    upper = text.upper()
    suit: Suit | None = None
    if len(upper) > 1 and upper[-1] in _SUIT_SYMBOLS:
        suit = _SUIT_SYMBOLS[upper[-1]]
        upper = upper[:-1]
    rank = _RANK_ALIASES.get(upper)
    if rank is None:
        if not text:
            raise ValueError("an empty card was given (write cards like 8h 7s Ac 10d K)")
        if len(upper) > 1 and upper[-1].isalpha() and upper[:-1] in _RANK_ALIASES:
            raise ValueError(
                f"{excerpt(token)} is not a card (suit must be one of c d h s or ♣ ♦ ♥ ♠)"
            )
        raise ValueError(f"{excerpt(token)} is not a card (rank must be one of {_RANK_LIST})")
    return Card(rank, suit)


def parse_cards(cards: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas; Card objects pass through.

    >>> parse_cards("8h 7s, Ac 10d K")
    (Card('8h'), Card('7s'), Card('Ac'), Card('10d'), Card('K'))
    >>> parse_cards("8♥ 7♠")
    (Card('8h'), Card('7s'))
    >>> parse_cards(" ")
    Traceback (most recent call last):
    ...
    ValueError: no cards were given (write cards like 8h 7s Ac 10d K)
    """
    items: list[str | Card] = (
        [t for t in re.split(r"[\s,;]+", cards) if t]
        if isinstance(cards, str)
        else list(cards)
    )
    parsed = tuple(c if isinstance(c, Card) else parse_card(c) for c in items)
    if not parsed:
        raise ValueError("no cards were given (write cards like 8h 7s Ac 10d K)")
    return parsed


def hand_value(cards: Iterable[Card]) -> int:
    """The value of a hand: the last digit of its point total.

    >>> hand_value(parse_cards("8h 7s")), hand_value(parse_cards("9 9 9"))
    (5, 7)
    """
    return sum(card.points for card in cards) % 10
