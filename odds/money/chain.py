"""The session chain's lattice and bounds: what every session figure starts from.

The bank's nets in a round lie on a lattice (:func:`lattice`: their greatest
common divisor as the step), so a session is a Markov chain over whole
numbers of steps of capital.  This module checks a session's inputs (a
round's distribution, a capital and a number of rounds) and refuses, before
any work, a chain that would not fit (:func:`check_chain_size`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction

__all__ = ["MAX_CELLS", "MAX_WORK", "check_capital", "check_chain_size", "check_distribution",
           "lattice"]

MAX_CELLS = 20_000_000  # capitals on the lattice of a session chain: 160 MB of floats
MAX_WORK = 50_000_000_000  # capitals x nets x rounds: about a minute of convolutions


def lattice(dist: Mapping[Fraction, Fraction]) -> tuple[Fraction, dict[int, Fraction]]:
    """The lattice of the nets: (steps per unit, each net as a whole number of steps).

    A step is the greatest common divisor of the nets, so stakes of 100 and a capital
    of 20,000 make the same chain as stakes of 1 and a capital of 200.

    >>> lattice({Fraction(200): Fraction(1, 2), Fraction(-100): Fraction(1, 2)})
    (Fraction(1, 100), {2: Fraction(1, 2), -1: Fraction(1, 2)})
    """
    den = 1
    for v in dist:
        den = math.lcm(den, v.denominator)
    step = 0
    for v, p in dist.items():
        if p:
            step = math.gcd(step, int(v * den))
    scale = Fraction(den, step or 1)
    return scale, {int(v * scale): p for v, p in dist.items() if p}


def check_distribution(dist: Mapping[Fraction, Fraction]) -> None:
    if not dist or any(p < 0 for p in dist.values()):
        raise ValueError("a round's distribution needs at least one net with probability >= 0")


def check_capital(capital: Fraction | int, rounds: int) -> None:
    if capital < 0:
        raise ValueError(f"capital: {capital} is negative (give 0 or more units)")
    if isinstance(rounds, bool) or rounds < 1:
        raise ValueError(f"rounds: a session has at least 1 round, not {rounds}")


def check_chain_size(cells: int, nets: int, rounds: int, scale: Fraction | int, *,
                     may: bool = False, what: str = "the session's chain") -> None:
    """A ``ValueError`` naming the bound unless the session chain fits, before any work.

    ``cells`` capitals on the lattice (capital x ``scale``, the lattice's steps per unit,
    plus what ``rounds`` wins add), ``nets`` nets a round, ``rounds`` rounds; ``may``: these
    are upper bounds (from :func:`net_bounds`), not the round's own figures.

    >>> check_chain_size(1000, 9, 100, 2)
    >>> check_chain_size(2 * 10**9, 9, 100, 2)
    Traceback (most recent call last):
    ...
    ValueError: the session's chain has 2,000,000,000 capitals on its lattice (2 a unit), ...
    """
    has, takes = ("may take up to", "may take up to") if may else ("has", "takes")
    if cells > MAX_CELLS:
        per = Fraction(scale)
        unit = f"{per.numerator:,}" if per.denominator == 1 else str(per)
        raise ValueError(
            f"{what} {has} {cells:,} capitals on its lattice ({unit} a unit), "
            f"more than the {MAX_CELLS:,} allowed: give a smaller capital, fewer rounds "
            "or stakes with small denominators")
    if cells * nets * rounds > MAX_WORK:
        raise ValueError(
            f"{what} {takes} {cells:,} capitals x {nets:,} nets x {rounds:,} rounds "
            f"= {cells * nets * rounds:,} steps, more than the {MAX_WORK:,} allowed "
            "(about a minute): give fewer rounds or a smaller capital")
