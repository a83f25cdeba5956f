"""The value types a profile is made of: its enums and its draw rules.

:class:`Naturals`, :class:`ColonMatch` and :class:`BonusOn` are the choices
of a pay table and a comparison, :class:`CapRule` and :class:`Rotation` those
of a session; a :class:`DrawRule` says when one hand takes a third card.
They know nothing of profiles: :mod:`odds.rules.profile` puts them together.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = [
    "VALUES",
    "BonusLimit",
    "BonusOn",
    "CapRule",
    "ColonMatch",
    "DrawRule",
    "Naturals",
    "Rotation",
    "spans",
]

VALUES = range(10)
"""The hand values 0-9."""


class Naturals(enum.Enum):
    """How a natural compares with a hand that is not one."""

    OUTRIGHT = "outright"  # a natural beats any non-natural, whatever it drew to
    COMPARE = "compare"  # only final values are compared


class ColonMatch(enum.Enum):
    """What makes the first two cards a Colon (a pair)."""

    RANK = "rank"  # 5-5, K-K; 10-K is not a pair
    VALUE = "value"  # 10-K counts as a pair of zeros


class BonusOn(enum.Enum):
    """When a player's Colon is paid its multiplier."""

    WIN = "win"  # in place of 1 when the Colon hand wins
    ALWAYS = "always"  # in place of the comparison's settlement, whatever it is


@dataclass(frozen=True)
class DrawRule:
    """When a hand with a given two-card value takes a third card.

    ``draws`` holds the own two-card values that draw when the other hand
    took no third card (or is not looked at).  ``tableau``, when given, holds
    for each own value 0..9 the other hand's third-card values on which it
    draws: baccarat's banker rule.

    >>> rule = DrawRule.values(0, 1, 2, 3, 4, 5)
    >>> rule.decide(5, None), rule.decide(6, 3)
    (True, False)
    """

    draws: frozenset[int]
    tableau: tuple[frozenset[int], ...] | None = None
    # Where the side may choose instead (chemin de fer's open cells): own values
    # when the other hand stood or is not looked at, and (own value, the other
    # hand's third card) pairs after a third card.
    choose: frozenset[int] = frozenset()
    open: frozenset[tuple[int, int]] = frozenset()

    @classmethod
    def values(cls, *values: int) -> DrawRule:
        """A rule that draws on these own values, looking at nothing else."""
        return cls(frozenset(values))

    def decide(self, own: int, other_third: int | None) -> bool:
        """Does a hand of value ``own`` draw, given the other hand's third card?"""
        if other_third is None or self.tableau is None:
            return own in self.draws
        return other_third in self.tableau[own]

    def chooses(self, own: int, other_third: int | None) -> bool:
        """Is the side free to choose here (an open cell of the rule)?

        >>> from odds.rules.profiles import BUILTIN
        >>> r = BUILTIN["chemin-de-fer"].bank_draw
        >>> r.chooses(5, 4), r.chooses(5, 3), r.chooses(5, None)
        (True, False, False)
        """
        if other_third is None or self.tableau is None:
            return own in self.choose
        return (own, other_third) in self.open

    def describe(self) -> str:
        """Plain words, e.g. ``draws on 0-5`` or the tableau row by row."""
        text = "draws on " + spans(self.draws)
        if self.choose:
            text += ", chooses on " + spans(self.choose)
        if self.tableau is None:
            return text
        rows = []
        for own in VALUES:
            on = self.tableau[own]
            if on == frozenset(VALUES):
                rows.append(f"{own}: always")
            elif on:
                rows.append(f"{own}: if third card in {spans(on)}")
            elif not any(o == own for o, _ in self.open):
                continue
            free = sorted(x for o, x in self.open if o == own)
            if free:
                if not on:
                    rows.append(f"{own}: never")
                rows[-1] += f", chooses on {spans(free)}"
        return text + " if the other hand stood; after its third card: " + "; ".join(rows)

    def as_data(self) -> dict[str, Any]:
        """The rule as JSON/TOML data (the inverse of the profile file form)."""
        data: dict[str, Any] = {"draws": sorted(self.draws)}
        if self.tableau is not None:
            data["tableau"] = {str(v): sorted(self.tableau[v]) for v in VALUES}
        if self.choose:
            data["choose"] = sorted(self.choose)
        if self.open:
            data["open"] = {str(v): sorted(x for o, x in self.open if o == v)
                            for v in sorted({o for o, _ in self.open})}
        return data


def spans(values: Iterable[int]) -> str:
    """Values as ranges: ``{0,1,2,3,5}`` -> ``0-3, 5``; empty -> ``none``.

    >>> spans({0, 1, 2, 3, 5}), spans({7, 9}), spans(())
    ('0-3, 5', '7, 9', 'none')
    """
    ordered = sorted(values)
    if not ordered:
        return "none"
    parts: list[str] = []
    start = prev = ordered[0]
    for v in [*ordered[1:], None]:
        if v is not None and v == prev + 1:
            prev = v
            continue
        parts.append(f"{start}-{prev}" if prev > start else f"{start}")
        if v is not None:
            start = prev = v
    return ", ".join(parts)


class CapRule(enum.Enum):
    """How winners' claims beyond ``round_cap`` are cut."""

    SEAT_ORDER = "seat-order"  # paid in seat order until the cap is used
    PRO_RATA = "pro-rata"  # every winner gets the same fraction of its claim


class Rotation(enum.Enum):
    """Who banks over a session."""

    FIXED = "fixed"  # one person banks every round (the house in Super 9)
    ROTATE = "rotate"  # N+1 persons pass the bank each round


@dataclass(frozen=True)
class BonusLimit:
    """A cap per bonus payment in money (``max_bonus``), applied at one stake.

    A player's hand paid by a bonus entry (Colon, Colon nine) wins at most
    ``max_bonus`` in all, never less than a plain win: at stake s a bonus
    multiplier m pays ``max(win * s, min(m * s, max_bonus))``, that is
    ``min(m, max(win, max_bonus / s))`` per unit staked.

    >>> limit = BonusLimit(Fraction(5000), Fraction(4000))
    >>> limit.per_unit(Fraction(1)), limit.pays(Fraction(2), Fraction(1))
    (Fraction(5, 4), Fraction(5, 4))
    >>> BonusLimit(Fraction(50), Fraction(100)).pays(Fraction(2), Fraction(1))  # never below a win
    Fraction(1, 1)
    """

    max_bonus: Fraction
    stake: Fraction

    def per_unit(self, win: Fraction) -> Fraction:
        """The most a bonus pays per unit staked at this stake (at least a plain win)."""
        return max(win, self.max_bonus / self.stake)

    def pays(self, multiplier: Fraction, win: Fraction) -> Fraction:
        """What a bonus ``multiplier`` pays per unit staked under the cap."""
        return min(multiplier, self.per_unit(win))
