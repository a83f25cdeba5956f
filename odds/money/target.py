"""The capital for a target: the smallest capital, or the largest stakes, for a ruin risk.

Both read the ruin against every capital (:func:`odds.money.ruin.ruin_by_capital`).
On a sampled round the capital is an estimate: :func:`capital_interval` gives
the capitals whose ruin interval (:func:`odds.money.sampling.ruin_estimate`)
holds the target.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from odds.money.chain import check_capital, check_distribution, lattice
from odds.money.ruin import ruin_by_capital
from odds.money.sampling import Estimate, ruin_estimate

__all__ = ["CapitalTarget", "capital_for_target", "capital_interval", "check_target_ruin",
           "largest_stake"]

@dataclass(frozen=True)
class CapitalTarget:
    """The smallest capital whose ruin risk within ``rounds`` is at most ``target``.

    ``exact``: the chain ran in rationals.  On a sampled round, ``interval`` is
    the lowest and highest capital of :func:`capital_interval`, from ``samples``
    rounds drawn with ``seed``; None where the round is exact.  On a coarse lattice of
    step ``unit`` (:mod:`odds.money.bracket`) ``capital`` meets the target for certain (its
    upper bound does) and ``bracket`` holds the lowest and highest capital the true
    smallest capital can be; ``ruin`` is then the upper bound at ``capital``.
    """

    target: Fraction
    rounds: int
    capital: Fraction
    ruin: Fraction | float
    exact: bool
    error_bound: float
    interval: tuple[Fraction, Fraction] | None = None
    samples: int | None = None
    seed: int | None = None
    bracket: tuple[Fraction, Fraction] | None = None  # on a coarse lattice: lowest, highest
    ruin_lower: Fraction | float | None = None  # on a coarse lattice: the lower bound at capital
    unit: Fraction | None = None  # the coarse lattice's step (None: the nets' own lattice)


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
    stop = t if was_exact else float(t)
    # The last capital covers every loss: its ruin is 0, exactly and as a float, so one is found.
    c, p = next((c, p) for c, p in zip(capitals, ruin, strict=True) if p <= stop)
    return CapitalTarget(t, rounds, c, p, was_exact, bound)


def largest_stake(
    distribution: Mapping[Fraction, Fraction], capital: Fraction | int, rounds: int,
    target: Fraction | float, *, exact: bool | None = None,
) -> Fraction | None:
    """The largest factor on every stake keeping ruin within ``rounds`` <= ``target``.

    Scaling every stake by s is scaling the capital by 1/s, so the answer is
    capital / (smallest capital for the target at the given stakes); None when
    that capital is 0 (the ruin stays within the target at any stake).

    >>> walk = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    >>> largest_stake(walk, 10, 3, Fraction(1, 4))
    Fraction(10, 1)
    """
    check_capital(capital, rounds)
    need = capital_for_target(distribution, rounds, target, exact=exact).capital
    return None if need == 0 else Fraction(capital) / need


def capital_interval(
    distribution: Mapping[Fraction, Fraction], samples: int, rounds: int,
    target: Fraction | float, capital: Fraction, *, exact_mean: Fraction | None = None,
    seed: int | None = None, unit: Fraction | None = None, most: Fraction | None = None,
) -> tuple[Fraction, Fraction]:
    """A 95% interval on the smallest capital for ``target``, on a sampled round: (lowest, highest).

    ``distribution`` is the frequency of ``samples`` sampled rounds, ``exact_mean`` the
    round's exact mean (the control variate of :func:`odds.money.sampling.ruin_estimate`).
    A capital c on the lattice (step s) may be the smallest one when its ruin may be
    at most the target and the ruin at c - s may be above it: the lowest such c is the
    lowest whose ruin 95% interval reaches down to the target, the highest is one step
    above the highest whose interval reaches up to it.  If c is the true answer, each
    of the two conditions fails with probability 2.5% at most, so the interval holds
    it at least 95% of the time; it always holds ``capital``, the estimated smallest
    capital (:func:`capital_for_target` on :func:`odds.money.sampling.tilted_round`).
    The intervals' ends fall as the capital grows, so each end is found by galloping
    out from ``capital`` and bisecting: a few ruin estimates, not one per capital.
    With ``unit``, the capitals and ruin estimates are those of the round on that coarse
    lattice, nets rounded toward the bank's loss (:mod:`odds.money.bracket`); ``most``
    caps the capitals estimated (the interval's top end is then at most ``most``).

    The smallest capital of a fair walk for a 10% ruin within 20 rounds is 7:

    >>> walk = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    >>> capital_for_target(walk, 20, Fraction(1, 10)).capital
    Fraction(7, 1)
    >>> capital_interval(walk, 100, 20, Fraction(1, 10), Fraction(7))
    (Fraction(3, 1), Fraction(9, 1))

    With more samples: the ruin falls from 0.115 at capital 6 to 0.078 at 7, each
    +-0.005, so no other capital can be the answer:

    >>> capital_interval(walk, 100_000, 20, Fraction(1, 10), Fraction(7))
    (Fraction(7, 1), Fraction(7, 1))
    """
    t = check_target_ruin(target)
    check_distribution(distribution)
    scale, steps = lattice(distribution)
    if unit is not None:
        factor = Fraction(unit) * scale
        scale = scale / factor
        steps = {math.floor(v / factor): p for v, p in steps.items()}
    top = max(0, -min(steps)) * rounds  # ruin is impossible in the sampled round from here
    if most is not None:
        top = min(top, math.floor(Fraction(most) * scale))
    seen: dict[int, Estimate] = {}

    def estimate(k: int) -> Estimate:
        if k not in seen:
            seen[k] = ruin_estimate(distribution, samples, Fraction(k) / scale, rounds,
                                    exact_mean=exact_mean, seed=seed, unit=unit, plain=False)
        return seen[k]

    def bounds(k: int) -> tuple[float, float]:
        return estimate(k).interval

    point = min(math.floor(Fraction(capital) * scale), top)
    low_start, high_start = _starts(estimate, point, top, float(t))
    lowest = _first(lambda k: bounds(k)[0] <= t, top, low_start)
    above = _first(lambda k: bounds(k)[1] < t, top, high_start)  # the highest reaching t, plus 1
    return Fraction(min(lowest, point)) / scale, Fraction(max(above, point)) / scale


def _starts(estimate: Callable[[int], Estimate], point: int, top: int,
            t: float) -> tuple[int, int]:
    """Where the interval's two ends are likely to be, for the searches to start from.

    Near the point the ruin falls about exponentially with the capital, and its interval's
    half-width is about a fixed share of it: from the estimates at the point and one step
    below, each end is where the ruin times (1 -+ that share) crosses ``t``.  Only where
    the searches start: they find the same ends from any start, in fewer estimates from a
    good one.
    """
    if not 0 < point < top:
        return point, point
    here, below = estimate(point), estimate(point - 1)
    if not 0 < here.value < below.value:  # a ruin estimate is at most 1: so here.value < 1
        return point, point
    rate = math.log(below.value / here.value)  # per step
    share = min(here.half_width / here.value, 0.99)

    def at(factor: float) -> int:
        k = point + math.log(here.value * factor / t) / rate
        return min(max(math.ceil(k), 0), top) if math.isfinite(k) else point

    return at(1 - share), at(1 + share)


def _first(holds: Callable[[int], bool], top: int, start: int, limit: int | None = None) -> int:
    """The first k in 0..``top`` where ``holds`` (false, then true up to ``top``, where it is
    taken as true): a gallop from ``start``, then bisection.

    Every k asked is a whole number in 0..``top``; the gallop and the bisection each take
    at most about log2(``top``) + 2 steps, and a search that asks more than ``limit`` times
    (by default 2 log2(``top``) + 4: only a broken search gets there) stops with a
    ``RuntimeError`` instead of running for ever.

    >>> _first(lambda k: k >= 5, 10, 0), _first(lambda k: k >= 5, 10, 9), _first(bool, 10, 3)
    (5, 5, 1)
    >>> _first(lambda k: k >= 5, 10, 0, limit=2)
    Traceback (most recent call last):
    ...
    RuntimeError: the capital search took more than 2 steps over 0..10: the ruin is not ...
    """
    if not 0 <= start <= top:
        raise ValueError(f"the search starts at {start}, outside 0..{top}")
    if limit is None:
        limit = 2 * top.bit_length() + 4
    steps = 0

    def ask(k: int) -> bool:
        nonlocal steps
        steps += 1
        if steps > limit:
            raise RuntimeError(f"the capital search took more than {limit} steps over "
                               f"0..{top}: the ruin is not falling with the capital")
        return holds(k)

    if start < top and not ask(start):
        no, step = start, 1  # holds(no) is false
        while no + step < top and not ask(no + step):
            no, step = no + step, step * 2
        yes = min(no + step, top)
    else:
        yes, step = start, 1  # holds(yes) is true
        while yes - step >= 0 and ask(yes - step):
            yes, step = yes - step, step * 2
        no = max(yes - step, -1)  # -1: before the first capital
    while yes - no > 1:
        mid = (no + yes) // 2
        if mid >= 0 and ask(mid):
            yes = mid
        else:
            no = mid
    return yes
