"""Conditional odds: the round's figures given two-card values.

The table casinos publish for baccarat: P(win), P(push), P(loss) of the
player seat and every bet's expected value, given the player's two-card
value, the bank's, or the pair of both.  All read from one
:class:`~odds.exact.results.RoundOdds` (its counts are keyed by the two-card
values already), so the table is exact and costs one enumeration.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from odds.exact.results import RoundOdds
from odds.rules.settle import Outcome, bet_amount, category_outcome

__all__ = [
    "BY",
    "ConditionalRow",
    "conditional_table",
]

BY = ("player", "bank", "pair")


@dataclass(frozen=True)
class ConditionalRow:
    """The seat's odds given a two-card value (or a pair of them).

    ``values`` is ``(player value,)``, ``(bank value,)`` or ``(player value,
    bank value)``; ``probability`` is how often the condition happens;
    ``expected_values`` has one entry per bet of the profile (``player`` is
    the seat; punto-banco adds ``banker`` and ``tie``).
    """

    values: tuple[int, ...]
    probability: Fraction
    win: Fraction
    push: Fraction
    loss: Fraction
    expected_values: tuple[tuple[str, Fraction], ...]

    @property
    def expected_value(self) -> Fraction:
        """The player seat's expected value given the condition."""
        return dict(self.expected_values)["player"]


def _bet_amounts(result: RoundOdds, outcome: Outcome, pcol: int, bcol: int) -> list[Fraction]:
    """Each bet's net amount when the seat's outcome is ``outcome``."""
    profile = result.profile
    return [bet_amount(profile, bet, outcome, pcol, bcol) for bet in result.bets]


def conditional_table(result: RoundOdds, by: str = "player") -> list[ConditionalRow]:
    """One :class:`ConditionalRow` per value (or pair) that can occur, in order.

    ``by`` is ``player``, ``bank`` or ``pair``.

    >>> from odds.exact.engine import round_odds
    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.rules.shoe import Shoe
    >>> rows = conditional_table(round_odds(BUILTIN["plain"], Shoe.packs_of(1)))
    >>> rows[9].values, rows[9].loss, sum(r.probability for r in rows)
    ((9,), Fraction(0, 1), Fraction(1, 1))
    """
    if by not in BY:
        raise ValueError(f"a conditional table is by {', '.join(BY)}, not {by!r}")
    pick = {"player": (0,), "bank": (1,), "pair": (0, 1)}[by]
    outcomes = list(Outcome)
    counts: dict[tuple[int, ...], list[int]] = defaultdict(lambda: [0, 0, 0])
    money: dict[tuple[int, ...], list[Fraction]] = {}
    bets = result.bets
    amounts: dict[tuple[Outcome, int, int], list[Fraction]] = {}
    for key, count in result.outcome_counts.items():
        values = (key[0], key[1])[pick[0]: pick[-1] + 1]
        outcome = category_outcome(key[4])
        counts[values][outcomes.index(outcome)] += count
        pays = amounts.get((outcome, key[2], key[3]))
        if pays is None:
            pays = amounts[outcome, key[2], key[3]] = _bet_amounts(result, outcome, key[2], key[3])
        row = money.setdefault(values, [Fraction(0)] * len(bets))
        for i, amount in enumerate(pays):
            row[i] += count * amount
    table = []
    for values in sorted(counts):
        win, push, loss = counts[values]
        n = win + push + loss
        if not n:
            continue
        table.append(ConditionalRow(
            values,
            Fraction(n, result.total),
            Fraction(win, n),
            Fraction(push, n),
            Fraction(loss, n),
            tuple((bet, m / n) for bet, m in zip(bets, money[values], strict=True)),
        ))
    return table
