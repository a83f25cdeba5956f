"""Settlement: who wins a compared round, and which pay-table entry applies.

Outcomes are from the player seat's side.  A round's result is described by
a *category* (how it was won, pushed or lost) and a *pay entry* (which line
of the pay table settles it), so that payouts can be changed, even made
symbolic, without enumerating again.
"""

from __future__ import annotations

import enum
from fractions import Fraction
from functools import lru_cache

from odds.rules.profile import Profile
from odds.rules.rule_types import BonusOn, Naturals

__all__ = ["Outcome", "Pay", "category", "category_table", "outcome_of", "pay_entry"]

# Colon classes of a two-card hand.
NO_COLON, COLON, COLON_NINE = 0, 1, 2


class Outcome(enum.Enum):
    """The seat's result against the bank."""

    WIN = "win"
    PUSH = "push"
    LOSS = "loss"


class Pay(enum.Enum):
    """The pay-table entry that settles a round, per unit stake."""

    WIN = "win"  # +win
    COLON = "colon"  # +colon
    COLON_NINE = "colon_nine"  # +colon_nine
    PUSH = "push"  # 0
    LOSS = "loss"  # -1
    BANK_COLON = "bank_colon"  # -(bank_colon, else colon)
    BANK_COLON_NINE = "bank_colon_nine"  # -(bank_colon_nine, else colon_nine)

    def amount(self, profile: Profile) -> Fraction:
        """The player's net result for this entry under ``profile``'s pay table.

        >>> from odds.rules.profiles import BUILTIN
        >>> Pay.COLON_NINE.amount(BUILTIN["standard"]), Pay.LOSS.amount(BUILTIN["standard"])
        (Fraction(3, 1), Fraction(-1, 1))
        """
        if self is Pay.WIN:
            return profile.win
        if self is Pay.PUSH:
            return Fraction(0)
        if self is Pay.LOSS:
            return Fraction(-1)
        if self in (Pay.COLON, Pay.COLON_NINE):
            value = profile.player_multiplier(self is Pay.COLON_NINE)
        else:
            value = profile.bank_multiplier(self is Pay.BANK_COLON_NINE)
            value = None if value is None else -value
        assert value is not None, f"{self} is not in this profile's pay table"
        return value


def category(
    profile: Profile, pv: int, bv: int, pf: int, bf: int
) -> tuple[Outcome, str]:
    """The outcome and how it came about, from two-card and final values.

    The second item is ``natural_9`` (the winner's natural), ``natural``
    (equal naturals pushed) or ``comparison`` (final values decided).

    >>> from odds.rules.profiles import BUILTIN
    >>> category(BUILTIN["standard"], 8, 5, 8, 9)
    (<Outcome.WIN: 'win'>, 'natural_8')
    >>> category(BUILTIN["standard"].with_options(naturals="compare"), 8, 5, 8, 9)
    (<Outcome.LOSS: 'loss'>, 'comparison')
    """
    return _category(profile.naturals, profile.naturals_rule, pv, bv, pf, bf)


def _category(naturals: frozenset[int], rule: Naturals, pv: int, bv: int, pf: int,
              bf: int) -> tuple[Outcome, str]:
    p_nat = pv in naturals
    b_nat = bv in naturals
    if rule is Naturals.OUTRIGHT and (p_nat or b_nat):
        # A natural settles on its two-card value; the other hand's draw is moot.
        mine = pv if p_nat else -1
        theirs = bv if b_nat else -1
    else:
        mine, theirs = pf, bf
    if mine > theirs:
        return Outcome.WIN, f"natural_{pv}" if p_nat and mine == pv else "comparison"
    if mine < theirs:
        return Outcome.LOSS, f"natural_{bv}" if b_nat and theirs == bv else "comparison"
    return Outcome.PUSH, "natural" if p_nat and b_nat and mine == pv else "comparison"


def outcome_of(profile: Profile, pv: int, bv: int, pf: int, bf: int) -> Outcome:
    """Just the outcome of :func:`category`."""
    return category(profile, pv, bv, pf, bf)[0]


CategoryTable = tuple[tuple[tuple[tuple[tuple[Outcome, str], ...], ...], ...], ...]


def category_table(profile: Profile) -> CategoryTable:
    """:func:`category` for every (pv, bv, pf, bf), as nested tuples ``[pv][bv][pf][bf]``.

    Computed once per naturals rule (the only fields a category reads), for
    code that settles rounds by the million (``numpy.array`` of a derived
    table is the vectorised view; this layer stays free of numpy).

    >>> from odds.rules.profiles import BUILTIN
    >>> category_table(BUILTIN["standard"])[8][5][8][9]
    (<Outcome.WIN: 'win'>, 'natural_8')
    """
    return _category_table(profile.naturals, profile.naturals_rule)


@lru_cache(maxsize=16)
def _category_table(naturals: frozenset[int], rule: Naturals) -> CategoryTable:
    return tuple(tuple(tuple(tuple(_category(naturals, rule, pv, bv, pf, bf) for bf in range(10))
                             for pf in range(10)) for bv in range(10)) for pv in range(10))


def pay_entry(profile: Profile, outcome: Outcome, pcol: int, bcol: int) -> Pay:
    """Which pay-table entry settles a round (Colon classes 0 none, 1, 2 nines).

    A player Colon is paid its multiplier when it wins, or whatever the
    comparison with ``bonus_on = always``; a bank Colon that beats the player
    collects its multiplier with ``bank_bonus``.  A player Colon paid under
    ``always`` takes precedence over the bank's.

    >>> from odds.rules.profiles import BUILTIN
    >>> pay_entry(BUILTIN["standard"], Outcome.WIN, COLON_NINE, NO_COLON)
    <Pay.COLON_NINE: 'colon_nine'>
    >>> pay_entry(BUILTIN["standard"], Outcome.LOSS, COLON, NO_COLON)
    <Pay.LOSS: 'loss'>
    """
    if pcol and (outcome is Outcome.WIN or profile.bonus_on is BonusOn.ALWAYS):
        # A pair of nines is a Colon too: paid as one where no Colon-nine entry exists.
        if pcol == COLON_NINE and profile.player_multiplier(True) is not None:
            return Pay.COLON_NINE
        if profile.player_multiplier(False) is not None:
            return Pay.COLON
    if outcome is Outcome.WIN:
        return Pay.WIN
    if outcome is Outcome.PUSH:
        return Pay.PUSH
    if bcol == COLON_NINE and profile.bank_multiplier(True) is not None:
        return Pay.BANK_COLON_NINE
    if bcol and profile.bank_multiplier(False) is not None:
        return Pay.BANK_COLON
    return Pay.LOSS


def bet_amount(profile: Profile, bet: str, outcome: Outcome, pcol: int, bcol: int) -> Fraction:
    """Net payout per unit of ``player``, ``banker`` or ``tie`` for one settled round.

    ``pcol``/``bcol`` are the Colon classes (0 none, 1 Colon, 2 Colon nine);
    only the player bet's pay table looks at them.

    >>> from odds.rules.profiles import BUILTIN
    >>> pb = BUILTIN["punto-banco"]
    >>> bet_amount(pb, "banker", Outcome.LOSS, 0, 0), bet_amount(pb, "tie", Outcome.PUSH, 0, 0)
    (Fraction(19, 20), Fraction(8, 1))
    >>> bet_amount(BUILTIN["standard"], "player", Outcome.WIN, 1, 0)
    Fraction(2, 1)
    """
    if bet == "player":
        return pay_entry(profile, outcome, pcol, bcol).amount(profile)
    if bet == "banker":
        assert profile.banker_pays is not None
        return {Outcome.WIN: Fraction(-1), Outcome.PUSH: Fraction(0),
                Outcome.LOSS: profile.banker_pays}[outcome]
    assert bet == "tie" and profile.tie_pays is not None
    return profile.tie_pays if outcome is Outcome.PUSH else Fraction(-1)
