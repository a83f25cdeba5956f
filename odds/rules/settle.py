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

__all__ = ["Outcome", "Pay", "amount", "bet_amount", "category", "category_table", "outcome_of",
           "pay_entry", "pay_lines", "plain_amounts", "seat_amount"]

# Colon classes of a two-card hand.
NO_COLON, COLON, COLON_NINE = 0, 1, 2


class Outcome(enum.Enum):
    """The seat's result against the bank."""

    WIN = "win"
    PUSH = "push"
    LOSS = "loss"


def category_outcome(name: str) -> Outcome:
    """The outcome a round's category names: its first word (``win_natural_9``: a win).

    >>> category_outcome("win_natural_9"), category_outcome("push")
    (<Outcome.WIN: 'win'>, <Outcome.PUSH: 'push'>)
    """
    return Outcome(name.partition("_")[0])


class Pay(enum.Enum):
    """The pay-table entry that settles a round, per unit stake."""

    WIN = "win"  # +win
    COLON = "colon"  # +colon
    COLON_NINE = "colon_nine"  # +colon_nine
    PUSH = "push"  # +ties (0: the stake returned)
    LOSS = "loss"  # -1
    BANK_COLON = "bank_colon"  # -(bank_colon, else colon)
    BANK_COLON_NINE = "bank_colon_nine"  # -(bank_colon_nine, else colon_nine)

    def amount(self, profile: Profile) -> Fraction:
        """The player's net result for this entry: :func:`amount`."""
        return amount(profile, self)


def amount(profile: Profile, pay: Pay) -> Fraction:
    """The seat's net result per unit stake for pay entry ``pay`` under ``profile``.

    The one place a pay line becomes an amount: every engine, the simulator,
    the verifier, the pay tables, the bank and the game layer read it (or a
    table built from it).  A tie pays the profile's ``ties`` amount (0, a push,
    in every built-in profile).

    >>> from odds.rules.profiles import BUILTIN
    >>> amount(BUILTIN["standard"], Pay.COLON_NINE), amount(BUILTIN["standard"], Pay.LOSS)
    (Fraction(3, 1), Fraction(-1, 1))
    >>> amount(BUILTIN["standard"], Pay.PUSH)
    Fraction(0, 1)
    """
    value = _line(profile, pay)
    assert value is not None, f"{pay} is not in this profile's pay table"
    return value


def _line(profile: Profile, pay: Pay) -> Fraction | None:
    if pay is Pay.WIN:
        return profile.win
    if pay is Pay.PUSH:
        return profile.ties
    if pay is Pay.LOSS:
        return Fraction(-1)
    if pay in (Pay.COLON, Pay.COLON_NINE):
        return profile.player_multiplier(pay is Pay.COLON_NINE)
    value = profile.bank_multiplier(pay is Pay.BANK_COLON_NINE)
    return None if value is None else -value


def pay_lines(profile: Profile) -> dict[Pay, Fraction]:
    """Every line of the profile's pay table, in :class:`Pay` order, and its :func:`amount`.

    >>> from odds.rules.profiles import BUILTIN
    >>> {pay.value: str(a) for pay, a in pay_lines(BUILTIN["standard"]).items()}
    {'win': '1', 'colon': '2', 'colon_nine': '3', 'push': '0', 'loss': '-1'}
    """
    return {pay: value for pay in Pay if (value := _line(profile, pay)) is not None}


def seat_amount(profile: Profile, outcome: Outcome, pcol: int = 0, bcol: int = 0) -> Fraction:
    """The seat's net result per unit for a settled round: its pay line's :func:`amount`.

    >>> from odds.rules.profiles import BUILTIN
    >>> seat_amount(BUILTIN["standard"], Outcome.WIN, COLON), seat_amount(BUILTIN["standard"], Outcome.PUSH)
    (Fraction(2, 1), Fraction(0, 1))
    """
    return amount(profile, pay_entry(profile, outcome, pcol, bcol))


def plain_amounts(profile: Profile) -> tuple[Fraction, Fraction, Fraction]:
    """The seat's amounts for a win, a tie and a loss with no Colon in play.

    >>> from odds.rules.profiles import BUILTIN
    >>> plain_amounts(BUILTIN["family"])
    (Fraction(1, 1), Fraction(0, 1), Fraction(-1, 1))
    """
    return (amount(profile, Pay.WIN), amount(profile, Pay.PUSH), amount(profile, Pay.LOSS))


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
        return seat_amount(profile, outcome, pcol, bcol)
    if bet == "banker":
        assert profile.banker_pays is not None
        return {Outcome.WIN: Fraction(-1), Outcome.PUSH: Fraction(0),
                Outcome.LOSS: profile.banker_pays}[outcome]
    assert bet == "tie" and profile.tie_pays is not None
    return profile.tie_pays if outcome is Outcome.PUSH else Fraction(-1)
