"""Whole hands at a table of several seats: each hand dealt and drawn on its own cards.

At a table of N players under rules where every hand decides on its own two
cards (no tableau, no naturals that stop every draw: the functions here take
a side of :func:`odds.rules.draw.hand_draws`, which refuses the others), a
hand is three card slots (two cards and a third, dealt or padding) whose
result is (two-card value, Colon class, final value).  This module counts
those hands, for :mod:`odds.money.bank` to settle:

- :func:`hand_counts`: one hand's three slots on an infinite shoe, counted
  by what it ends as;
- :func:`hand_deals`: one hand dealt from a finite composition, by rank,
  with the composition it leaves (the next hand is dealt from that);
- :func:`hand_of`: one hand from three dealt cards.

>>> from odds.rules.draw import hand_draws
>>> from odds.rules.profiles import BUILTIN
>>> from odds.rules.shoe import Shoe
>>> player, bank = hand_draws(BUILTIN["standard"])
>>> weights = Shoe.infinite_shoe().counts
>>> sum(hand_counts(BUILTIN["standard"], weights, player).values()) == sum(weights) ** 3
True
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from odds.exact.engine import colon_class, pair_options, value_counts
from odds.rules.cards import POINTS
from odds.rules.profile import Profile

__all__ = ["Hand", "HandDeal", "canonical", "hand_counts", "hand_deals", "hand_of"]

Hand = tuple[int, int, int]  # two-card value, Colon class, final value
HandDeal = tuple[int, int, int, int, tuple[int, ...]]  # value, class, final, ways, counts left

def hand_counts(profile: Profile, counts: Sequence[int], draws: Sequence[bool]) -> dict[Hand, int]:
    """One hand's three slots on an infinite shoe of per-rank weights ``counts``, by result.

    ``draws`` is the hand's side of :func:`odds.rules.draw.hand_draws`.

    A hand that stands still fills its third slot (any card), so every
    hand counts sum(counts) ** 3 in all.
    """
    vc = value_counts(counts)
    n = sum(vc)
    out: dict[Hand, int] = defaultdict(int)
    for r1, r2, w, _ in pair_options(list(counts), (), True):
        v = (POINTS[r1] + POINTS[r2]) % 10
        col = colon_class(profile, r1, r2)
        if draws[v]:
            for y, c in enumerate(vc):
                if c:
                    out[v, col, (v + y) % 10] += w * c
        else:
            out[v, col, v] += w * n
    return dict(out)


def canonical(counts: Sequence[int]) -> tuple[int, ...]:
    """The composition with the four 0-point ranks (10 J Q K) sorted: they are
    interchangeable for every rule, so compositions that differ only there merge."""
    return (*counts[:9], *sorted(counts[9:]))


def hand_deals(profile: Profile, counts: Sequence[int],
               draws: Sequence[bool]) -> tuple[list[HandDeal], int]:
    """One hand dealt from a finite composition: its results with the ways and what is left.

    Only the cards a hand takes leave the composition (a hand that stands
    leaves its third slot to be padded at the end).  Compositions left are
    :func:`canonical`.  The second item is the work done: 13 per hand that
    draws, 1 per hand that stands (what a caller budgets).

    >>> from odds.rules.draw import hand_draws
    >>> from odds.rules.profiles import BUILTIN
    >>> deals, work = hand_deals(BUILTIN["standard"], (1,) * 13, hand_draws(BUILTIN["standard"])[1])
    >>> padded = [w * (11 if sum(left) == 11 else 1) for *_, w, left in deals]  # stood: pad
    >>> sum(padded) == 13 * 12 * 11
    True
    """
    out: list[HandDeal] = []
    work = 0
    for r1, r2, w, taken in pair_options(list(counts), (), False):
        c = list(counts)
        for r in taken:
            c[r] -= 1
        v = (POINTS[r1] + POINTS[r2]) % 10
        col = colon_class(profile, r1, r2)
        if draws[v]:
            work += 13
            for r3 in range(13):
                if c[r3]:
                    w3 = c[r3]
                    c[r3] -= 1
                    out.append((v, col, (v + POINTS[r3]) % 10, w * w3, canonical(c)))
                    c[r3] += 1
        else:
            work += 1
            out.append((v, col, v, w, canonical(c)))
    return out, work


def hand_of(profile: Profile, cards: Sequence[int], draws: Sequence[bool]) -> Hand:
    """The hand three dealt cards (rank indices) make: the third is taken if the rules draw.

    >>> from odds.rules.draw import hand_draws
    >>> from odds.rules.profiles import BUILTIN
    >>> hand_of(BUILTIN["standard"], [2, 0, 4], hand_draws(BUILTIN["standard"])[0])  # 3+A draws
    (4, 0, 9)
    """
    v = (POINTS[cards[0]] + POINTS[cards[1]]) % 10
    f = (v + POINTS[cards[2]]) % 10 if draws[v] else v
    return v, colon_class(profile, cards[0], cards[1]), f
