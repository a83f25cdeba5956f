"""Shoes: D packs, the infinite-shoe limit, or an explicit per-rank composition.

A shoe is a count of cards per rank (A..K).  It also remembers which suited
cards have been taken from it, so that it refuses a card it cannot hold: a
fifth ace from one pack, or the same ``Ah`` twice.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from odds.io.textio import excerpt, whole_number
from odds.rules.cards import RANKS, Card, parse_cards

__all__ = ["Shoe", "as_shoe", "parse_shoe"]

_NO_SUITS = (0,) * 52
_RANK_NAMES = {rank.value: rank.index for rank in RANKS} | {"T": 9}


@dataclass(frozen=True)
class Shoe:
    """The cards left in a shoe, as counts per rank in A..K order.

    ``packs`` is the number of 52-card packs the shoe was made of (None for
    an explicit composition); an ``infinite`` shoe deals with replacement from
    one pack's proportions, the limit that many published analyses quote.

    >>> Shoe.packs_of(1).size
    52
    >>> Shoe.packs_of(1).without("Ah As").counts[0]
    2
    """

    counts: tuple[int, ...]
    packs: int | None = None
    infinite: bool = False
    taken: tuple[int, ...] = _NO_SUITS  # suited cards taken, by rank*4 + suit

    def __post_init__(self) -> None:
        if len(self.counts) != 13 or any(c < 0 for c in self.counts):
            raise ValueError("a shoe needs 13 non-negative counts, one per rank A..K")
        if self.packs is not None and self.packs < 1:
            raise ValueError(f"a shoe needs at least 1 pack, not {self.packs}")

    @classmethod
    def packs_of(cls, packs: int) -> Shoe:
        """A fresh shoe of ``packs`` 52-card packs (``packs >= 1``)."""
        if isinstance(packs, bool) or not isinstance(packs, int) or packs < 1:
            raise ValueError(f"a shoe needs at least 1 pack, not {packs!r}")
        return cls((4 * packs,) * 13, packs=packs)

    @classmethod
    def infinite_shoe(cls) -> Shoe:
        """The infinite-shoe limit: every card drawn with replacement."""
        return cls((4,) * 13, infinite=True)

    @property
    def size(self) -> int:
        """Number of cards left (for an infinite shoe, the weights' sum: 52)."""
        return sum(self.counts)

    @property
    def label(self) -> str:
        """A short description: ``8 packs``, ``inf`` or ``custom (312 cards)``."""
        if self.infinite:
            return "inf"
        if self.packs is None:
            return f"custom ({self.size} cards)"
        packs = f"{self.packs} pack" + ("s" if self.packs > 1 else "")
        gone = 52 * self.packs - self.size
        return packs if not gone else f"{packs} less {gone} card" + ("s" if gone > 1 else "")

    def without(
        self, cards: str | Iterable[str | Card], what: str = "removed cards", dealt: bool = False
    ) -> Shoe:
        """The shoe after taking ``cards`` out of it (dealt, seen or burned).

        ``what`` names the cards in error messages (``player cards``, ...).
        Known ``dealt`` cards leave an infinite shoe as it is; removing cards
        from it is refused, since it deals with replacement.

        >>> Shoe.packs_of(1).without("A A A A A")
        Traceback (most recent call last):
        ...
        ValueError: the shoe holds only 4 cards of rank A (1 pack), but 5 are taken (removed cards include A)
        >>> Shoe.packs_of(1).without("Ah ah")
        Traceback (most recent call last):
        ...
        ValueError: the shoe holds only 1 Ah (1 pack), but 2 are taken (removed cards include Ah)
        """
        return self.take([(what, parse_cards(cards), dealt)])

    def take(self, groups: Sequence[tuple[str, Sequence[Card], bool]]) -> Shoe:
        """Take several named groups of cards at once: (name, cards, dealt).

        Errors count against this shoe and name every group that holds the
        card in excess.

        >>> from odds.rules.cards import parse_cards
        >>> Shoe.packs_of(1).take([("player cards", parse_cards("9 9"), True),
        ...                        ("removed cards", parse_cards("9 9 9"), False)])
        Traceback (most recent call last):
        ...
        ValueError: the shoe holds only 4 cards of rank 9 (1 pack), but 5 are taken (player cards and ...)
        """
        if self.infinite:
            for _, cards, dealt in groups:
                if cards and not dealt:
                    raise ValueError(
                        "cards cannot be removed from an infinite shoe "
                        "(it deals with replacement); use a number of packs"
                    )
            return self
        counts = list(self.counts)
        taken = list(self.taken)

        def owners(card: Card, by_rank: bool) -> str:
            def match(c: Card) -> bool:
                return c.rank is card.rank if by_rank else c == card

            names = [w for w, cards, _ in groups if any(match(c) for c in cards)]
            return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 2 else names)

        for _, cards, _ in groups:
            for card in cards:
                i = card.rank.index
                counts[i] -= 1
                if counts[i] < 0:
                    held = self.counts[i]
                    rank = card.rank
                    raise ValueError(
                        f"the shoe holds only {held} card{'s' * (held != 1)} of rank {rank} "
                        f"({self.label}), but {sum(c.rank is rank for _, cs, _ in groups for c in cs)}"
                        f" are taken ({owners(card, True)} include {rank})"
                    )
                if card.suit is not None:
                    k = 4 * i + card.suit.index
                    taken[k] += 1
                    if self.packs is not None and taken[k] > self.packs:
                        raise ValueError(
                            f"the shoe holds only {self.packs} {card} ({self.label}), "
                            f"but {sum(c == card for _, cs, _ in groups for c in cs)} are taken "
                            f"({owners(card, False)} include {card})"
                        )
        return replace(self, counts=tuple(counts), taken=tuple(taken))


_COUNT = re.compile(r"[0-9]+")


def parse_shoe(text: str) -> Shoe:
    """Parse a shoe: a number of packs, ``inf``, or a per-rank composition.

    A composition is 13 counts in A..K order (``4,4,4,4,4,4,4,4,4,4,4,4,4``)
    or ``RANK=COUNT`` for every rank (``A=3 2=4 ... K=4``).

    >>> parse_shoe("8").label, parse_shoe("inf").label
    ('8 packs', 'inf')
    >>> parse_shoe("A=3 2=4 3=4 4=4 5=4 6=4 7=4 8=4 9=4 10=4 J=4 Q=4 K=4").size
    51
    >>> parse_shoe("0")
    Traceback (most recent call last):
    ...
    ValueError: a shoe needs at least 1 pack, not 0
    """
    spec = text.strip()
    if spec.lower() in {"inf", "infinite", "∞"}:
        return Shoe.infinite_shoe()
    if re.fullmatch(r"-?[0-9]+", spec):
        return Shoe.packs_of(-whole_number(spec[1:], "packs") if spec[0] == "-"
                             else whole_number(spec, "packs"))
    tokens = [t for t in re.split(r"[\s,;]+", spec) if t]
    if tokens and all("=" not in t and ":" not in t for t in tokens):
        if len(tokens) != 13 or not all(_COUNT.fullmatch(t) for t in tokens):
            raise ValueError(
                f"{excerpt(text)} is not a shoe: give a number of packs, 'inf', "
                "13 counts in A..K order, or RANK=COUNT for every rank"
            )
        counts = [whole_number(t, "shoe count") for t in tokens]
    else:
        found: dict[int, int] = {}
        for token in tokens:
            name, _, number = token.replace(":", "=").partition("=")
            i = _RANK_NAMES.get(name.upper())
            if i is None or not _COUNT.fullmatch(number):
                raise ValueError(
                    f"{excerpt(token)} in shoe {excerpt(text)} is not RANK=COUNT "
                    "(rank one of A 2 3 4 5 6 7 8 9 10 J Q K, count a whole number)"
                )
            if i in found:
                raise ValueError(f"rank {RANKS[i]} is given twice in shoe {excerpt(text)}")
            found[i] = whole_number(number, f"count of rank {RANKS[i]}")
        missing = [RANKS[i].value for i in range(13) if i not in found]
        if missing:
            raise ValueError(
                f"shoe {excerpt(text)} gives no count for rank {' '.join(missing)} "
                "(give every rank, 0 where none are left)"
            )
        counts = [found[i] for i in range(13)]
    return Shoe(tuple(counts))


def as_shoe(value: Shoe | int | str | None, packs: int | None = None) -> Shoe:
    """A shoe given as itself, a number of packs, ``"inf"``, or text for :func:`parse_shoe`.

    ``None`` is a fresh shoe of ``packs`` packs (a profile's own number) when
    ``packs`` is given: every public function reads its ``shoe`` argument here.

    >>> as_shoe(8).label, as_shoe("inf").label, as_shoe("2").label, as_shoe(None, 6).label
    ('8 packs', 'inf', '2 packs', '6 packs')
    >>> as_shoe(2.5)
    Traceback (most recent call last):
    ...
    ValueError: a shoe is a Shoe, a number of packs (1 or more), 'inf' or a composition, not 2.5
    """
    if isinstance(value, Shoe):
        return value
    if value is None and packs is not None:
        return Shoe.packs_of(packs)
    if isinstance(value, int) and not isinstance(value, bool):
        return Shoe.packs_of(value)
    if isinstance(value, str):
        return parse_shoe(value)
    raise ValueError(
        f"a shoe is a Shoe, a number of packs (1 or more), 'inf' or a composition, not {value!r}")
