"""Effect of removal: how one card taken from the shoe moves the odds.

For each rank, the exact change in the player seat's expected value and in
P(win) when one card of that rank leaves a shoe.  Weighted by the shoe's
composition the changes sum to exactly 0: the fresh-shoe figures are the
average over which card comes off the top.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from odds.exact.engine import round_odds
from odds.rules.cards import RANKS, Card, Rank
from odds.rules.profiles import Profile
from odds.rules.shoe import Shoe

__all__ = ["RemovalEffect", "removal_effects"]


@dataclass(frozen=True)
class RemovalEffect:
    """The exact change in the seat's figures when one ``rank`` is removed."""

    rank: Rank
    ev_change: Fraction
    win_change: Fraction


def removal_effects(profile: Profile, shoe: Shoe) -> tuple[RemovalEffect, ...]:
    """One :class:`RemovalEffect` per rank the shoe still holds, in A..K order.

    >>> from odds.rules.profiles import BUILTIN
    >>> effects = removal_effects(BUILTIN["plain"], Shoe.packs_of(1))
    >>> sum(e.ev_change for e in effects)
    Fraction(0, 1)
    """
    if shoe.infinite:
        raise ValueError(
            "removing a card does not change an infinite shoe; give a number of packs"
        )
    base = round_odds(profile, shoe)
    effects = []
    for rank in RANKS:
        if not shoe.counts[rank.index]:
            continue
        after = round_odds(profile, shoe.without([Card(rank)]))
        effects.append(
            RemovalEffect(rank, after.expected_value - base.expected_value, after.win - base.win)
        )
    return tuple(effects)
