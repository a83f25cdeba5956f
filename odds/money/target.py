"""The capital for a target: the smallest capital, or the largest stakes, for a ruin risk.

Both read the ruin against every capital (:func:`odds.money.ruin.ruin_by_capital`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from odds.money.chain import check_capital, check_distribution
from odds.money.ruin import ruin_by_capital

__all__ = ["CapitalTarget", "capital_for_target", "check_target_ruin", "largest_stake"]

@dataclass(frozen=True)
class CapitalTarget:
    """The smallest capital whose ruin risk within ``rounds`` is at most ``target``."""

    target: Fraction
    rounds: int
    capital: Fraction
    ruin: Fraction | float
    exact: bool
    error_bound: float


def check_target_ruin(target: Fraction | float) -> Fraction:
    if isinstance(target, bool) or not isinstance(target, int | float | Fraction) or (
            isinstance(target, float) and not math.isfinite(target)):
        raise ValueError(f"target ruin {target!r} is not a number (write 0.01 or 1/100)")
    t = Fraction(str(target)) if isinstance(target, float) else Fraction(target)
    if not 0 < t < 1:
        raise ValueError(f"target ruin {target} must be strictly between 0 and 1")
    return t


def capital_for_target(
    distribution: Mapping[Fraction, Fraction], rounds: int, target: Fraction | float,
    *, exact: bool | None = None,
) -> CapitalTarget:
    """The smallest capital (on the lattice of nets) with ruin within ``rounds`` <= ``target``.

    Ruin is impossible once the capital covers ``rounds`` worst rounds, so
    the search is bounded.

    >>> walk = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    >>> capital_for_target(walk, 3, Fraction(1, 4)).capital
    Fraction(1, 1)
    """
    t = check_target_ruin(target)
    check_distribution(distribution)
    worst = max(Fraction(0), -min(Fraction(v) for v in distribution))
    top = worst * rounds
    capitals, ruin, was_exact, bound = ruin_by_capital(distribution, rounds, top, exact=exact)
    for c, p in zip(capitals, ruin, strict=True):
        if p <= (t if was_exact else float(t)):
            return CapitalTarget(t, rounds, c, p, was_exact, bound)
    return CapitalTarget(t, rounds, capitals[-1], ruin[-1], was_exact, bound)


def largest_stake(
    distribution: Mapping[Fraction, Fraction], capital: Fraction | int, rounds: int,
    target: Fraction | float, *, exact: bool | None = None,
) -> Fraction | None:
    """The largest factor on every stake keeping ruin within ``rounds`` <= ``target``.

    Scaling every stake by s is scaling the capital by 1/s, so the answer is
    capital / (smallest capital for the target at the given stakes); None when
    that capital is 0 (no stake can ruin the bank).

    >>> walk = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    >>> largest_stake(walk, 10, 3, Fraction(1, 4))
    Fraction(10, 1)
    """
    check_capital(capital, rounds)
    need = capital_for_target(distribution, rounds, target, exact=exact).capital
    return None if need == 0 else Fraction(capital) / need
