"""Rotation: each person's result over a session, the bank fixed or passed round the table."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from odds.money.bank import BankRound
from odds.rules.profiles import Rotation

__all__ = ["PersonFigures", "rotation_figures"]

@dataclass(frozen=True)
class PersonFigures:
    """One person's expected result and spread over a session."""

    person: int
    bank_rounds: int
    mean: Fraction
    variance: Fraction

    @property
    def sd(self) -> float:
        """Standard deviation of the person's result over the session."""
        return math.sqrt(self.variance)


def rotation_figures(round_: BankRound, rounds: int,
                     rotation: Rotation) -> tuple[PersonFigures, ...]:
    """Each of the N+1 persons' result over ``rounds`` rounds, fixed or rotating bank.

    Person 0 banks first.  ``fixed``: person 0 banks every round and person
    i sits in seat i.  ``rotate``: in round r (from 0) person p holds
    position (p - r) mod (N+1), position 0 being the bank and j seat j.
    Rounds are independent, so means and variances add.

    >>> from odds import BUILTIN, Shoe
    >>> from odds.money.bank import bank_round
    >>> from odds.rules.profiles import Session
    >>> r = bank_round(BUILTIN["plain"], Shoe.infinite_shoe(), Session(players=2))
    >>> [p.bank_rounds for p in rotation_figures(r, 7, Rotation.ROTATE)]
    [3, 2, 2]
    """
    if rounds < 1:
        raise ValueError(f"rounds: a session has at least 1 round, not {rounds}")
    n = round_.players
    roles = [(round_.mean, round_.variance)] + [round_.seat_moments(i) for i in range(1, n + 1)]
    out = []
    for p in range(n + 1):
        # Rounds r < rounds with person p at position j: r = p - j (mod N+1), counted at once
        # (a session may have millions of rounds).
        if rotation is Rotation.FIXED:
            held = {p: rounds}
        else:
            held = {j: rounds // (n + 1) + ((p - j) % (n + 1) < rounds % (n + 1))
                    for j in range(n + 1)}
        mean = sum((k * roles[j][0] for j, k in held.items()), Fraction(0))
        var = sum((k * roles[j][1] for j, k in held.items()), Fraction(0))
        out.append(PersonFigures(p, held.get(0, 0), mean, var))
    return tuple(out)
