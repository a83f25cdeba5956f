"""Ruin where the nets' lattice is too fine: two coarser chains that bracket it.

The session chain (:mod:`odds.money.ruin`) runs over capital on the lattice of the
round's nets, whose step is their greatest common divisor: mixed stakes (100 and
275, or 1/2 beside 500) make that step small against the capital and the nets, and
the chain as wide as capital / step.  Where it would not fit the budget, every net
is rounded to a coarser lattice of step ``unit`` (a power-of-two multiple of the
nets' step), both ways:

* toward the bank's loss (``down``): along every sequence of rounds, the capital is
  at most the true one, so a true ruin is a ruin of this chain: an **upper bound**;
* toward the bank's gain: the capital is at least the true one: a **lower bound**.

The capital itself needs no rounding: with every net on the lattice, capital + net
< 0 holds exactly when floor(capital / unit) + net / unit < 0.  The smallest capital
whose upper bound meets a target is a capital that meets it for certain; the one
whose lower bound meets it is a capital below which the target cannot be met: the
true smallest capital lies between.  Coarser is cheaper and wider: the two chains
part by one step in each round where a net is off the lattice, so the bracket
shrinks as the unit does, to nothing on the nets' own lattice.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from odds.money.chain import MAX_CELLS, check_distribution, lattice
from odds.money.ruin import ruin_by_capital
from odds.money.sampling import MAX_INFLUENCE
from odds.money.target import CapitalTarget, check_target_ruin

__all__ = ["BRACKET_WORK", "LatticePlan", "capital_bracket", "coarsen", "lattice_plan",
           "nets_plan", "refinements"]

BRACKET_WORK = 1_000_000_000  # capitals x nets x rounds of one chain on the chosen lattice (~1 s)


def coarsen(distribution: Mapping[Fraction, Fraction], unit: Fraction, *,
            down: bool) -> dict[Fraction, Fraction]:
    """The round with every net rounded to a multiple of ``unit``: toward the bank's loss
    (``down``) or its gain.  Probabilities are kept exact.

    >>> d = {Fraction(-150): Fraction(1, 4), Fraction(0): Fraction(1, 4),
    ...      Fraction(275): Fraction(1, 2)}
    >>> {str(v): str(p) for v, p in coarsen(d, Fraction(100), down=True).items()}
    {'-200': '1/4', '0': '1/4', '200': '1/2'}
    >>> {str(v): str(p) for v, p in coarsen(d, Fraction(100), down=False).items()}
    {'-100': '1/4', '0': '1/4', '300': '1/2'}
    """
    check_distribution(distribution)
    if unit <= 0:
        raise ValueError(f"a lattice's step must be above 0, not {unit}")
    out: dict[Fraction, Fraction] = defaultdict(Fraction)
    for v, p in distribution.items():
        q = Fraction(v) / unit
        out[(math.floor(q) if down else math.ceil(q)) * unit] += p
    return {v: out[v] for v in sorted(out) if out[v]}


@dataclass(frozen=True)
class LatticePlan:
    """The lattice a session's chains run on: ``factor`` steps of the nets' own lattice
    (``step`` units each) make one of its steps; 1 is the nets' own lattice (no bracket).
    ``cells`` capitals, ``nets`` nets a round, ``work`` = cells x nets x rounds."""

    step: Fraction
    factor: int
    cells: int
    nets: int
    work: int

    @property
    def unit(self) -> Fraction | None:
        """The coarse lattice's step in units, or None on the nets' own lattice."""
        return None if self.factor == 1 else self.step * self.factor


def lattice_plan(step: Fraction, capital: int, top: int, worst: int, rounds: int, *,
                 nets: int | None = None, sampled: bool = False,
                 what: str = "the session's chain") -> LatticePlan:
    """The finest lattice (a power-of-two multiple of ``step``) whose chain fits the budget.

    ``capital``, ``top`` (the bank's best net), ``worst`` (its worst loss) in steps of the
    nets' lattice (``nets``, the round's count of nets, is kept for the callers: the chains
    convolve every step between the lowest net and the highest, so that span is what
    costs); a chain has ``capital + rounds x top + 1`` capitals and ``top + worst + 1``
    steps of nets on its lattice, and fits when capitals <= ``MAX_CELLS``, capitals x nets x rounds <=
    ``BRACKET_WORK`` and, where the round is ``sampled`` (its estimates keep every round's
    masses), rounds x capitals <= ``MAX_INFLUENCE``.  The cost then stays bounded whatever
    capital / step; only the rounds can exceed every lattice (a ``ValueError`` naming the
    bound).

    >>> lattice_plan(Fraction(100), 1000, 25, 75, 300).factor  # 7 seats of 100 to 500: its own
    1
    >>> p = lattice_plan(Fraction(1, 2), 200_000, 5000, 15000, 300)  # a stake of 1/2 beside 500
    >>> p.factor, p.unit, p.cells
    (128, Fraction(64, 1), 13563)
    """
    if rounds < 1:
        raise ValueError(f"rounds: a session has at least 1 round, not {rounds}")
    capital = min(capital, worst * rounds)  # past the worst losses the chain starts there
    k = 1
    while True:
        cells = capital // k + rounds * -(-top // k) + 1
        span = -(-top // k) + -(-worst // k) + 1
        count = span  # the chains convolve every step between the lowest net and the highest
        work = cells * count * rounds
        if cells <= MAX_CELLS and work <= BRACKET_WORK and (
                not sampled or cells * rounds <= MAX_INFLUENCE):
            return LatticePlan(step, k, cells, count, work)
        if k > max(capital, top, worst, 1):  # every net within one step: no coarser helps
            bound = (f"{MAX_INFLUENCE:,} rounds x capitals" if sampled
                     and cells * rounds > MAX_INFLUENCE else
                     f"{BRACKET_WORK:,} capitals x nets x rounds")
            raise ValueError(
                f"{what} takes {cells:,} capitals x {count} nets over {rounds:,} rounds even "
                f"on its coarsest lattice, more than the {bound} allowed: give fewer rounds")
        k *= 2


def refinements(plan: LatticePlan, precision: float | None) -> list[int]:
    """The lattices to try, coarsest first: with a ``precision`` to reach, two coarser ones
    before the finest that fits (each costs about a quarter of the next); else the finest.
    The nets' own lattice, where it fits, is tried alone: it has no bracket at all.

    >>> plan = LatticePlan(Fraction(1), 8, 100, 10, 10_000)
    >>> refinements(plan, 0.001), refinements(plan, None)
    ([32, 16, 8], [8])
    """
    if precision is None or plan.factor == 1:
        return [plan.factor]
    return [4 * plan.factor, 2 * plan.factor, plan.factor]


def nets_plan(distribution: Mapping[Fraction, Fraction], capital: Fraction, rounds: int, *,
              sampled: bool = False, what: str = "the session's chain") -> LatticePlan:
    """:func:`lattice_plan` for a round's own nets and a capital (in units)."""
    scale, steps = lattice(distribution)
    return lattice_plan(1 / scale, math.floor(capital * scale), max(max(steps), 0),
                        max(-min(steps), 0), rounds, nets=len(steps), sampled=sampled,
                        what=what)


def capital_bracket(distribution: Mapping[Fraction, Fraction], rounds: int,
                    target: Fraction | float, unit: Fraction, *,
                    exact: bool | None = None) -> CapitalTarget:
    """The smallest capital whose ruin within ``rounds`` is at most ``target`` for certain,
    on the lattice of step ``unit``, with the bracket on the true smallest capital.

    ``capital``: the smallest whose upper bound (nets rounded toward the bank's loss)
    meets the target; ``bracket``: (the smallest whose lower bound meets it, ``capital``);
    ``ruin`` and ``ruin_lower``: the two bounds at ``capital``.  One backward pass per
    chain (:func:`odds.money.ruin.ruin_by_capital`).

    A +-1 walk rounded to steps of 2 (down: -2 or 0; up: 0 or +2):

    >>> walk = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    >>> c = capital_bracket(walk, 3, Fraction(1, 4), Fraction(2))
    >>> c.capital, c.bracket, c.ruin, c.ruin_lower
    (Fraction(4, 1), (Fraction(0, 1), Fraction(4, 1)), Fraction(1, 8), Fraction(0, 1))

    The walk's own smallest capital, 1, lies in the bracket.
    """
    t = check_target_ruin(target)
    bounds = []
    for down in (True, False):
        chain = coarsen(distribution, unit, down=down)
        worst = max(Fraction(0), -min(chain))
        bounds.append((chain, ruin_by_capital(chain, rounds, worst * rounds, exact=exact)))
    (_, (caps, upper, exact_up, err_up)), (low_chain, (_, lower, exact_low, err_low)) = bounds
    low_scale = lattice(low_chain)[0]

    def at(ruin: list[Fraction | float], was_exact: bool, c: Fraction) -> Fraction | float:
        i = math.floor(c * low_scale)
        return ruin[i] if i < len(ruin) else (Fraction(0) if was_exact else 0.0)

    def first(capitals: list[Fraction], ruin: list[Fraction | float], was_exact: bool) -> int:
        goal = t if was_exact else float(t)
        return next((i for i, p in enumerate(ruin) if p <= goal), len(capitals) - 1)

    i = first(caps, upper, exact_up)
    j = first([Fraction(k) / low_scale for k in range(len(lower))], lower, exact_low)
    capital = caps[i]
    return CapitalTarget(t, rounds, capital, upper[i], exact_up and exact_low,
                         max(err_up, err_low), bracket=(min(Fraction(j) / low_scale, capital),
                                                        capital),
                         unit=unit, ruin_lower=at(lower, exact_low, capital))
