"""A bet's volatility over many rounds: how long until the house's result settles.

Two figures a PAR sheet prints, from a bet's exact per-round net payout
distribution (net per unit stake, the player's side; rounds independent, as
from a fresh or reshuffled shoe each round):

* :func:`rounds_for_precision`: the rounds after which the house's average
  result per unit staked is within ``precision`` (0.01: one percentage
  point) of its edge with 95% confidence, by the normal approximation
  ``n = (z sd / precision)^2``, z = 1.959964 (so a float, and said so);
* :func:`house_behind`: the probability that the house is behind after n
  rounds (the player's total net is above 0).  **Exact** by the
  multinomial sum over how many rounds land on each amount when there are
  few enough terms (:data:`MAX_EXACT_TERMS`: always for a bet with two
  amounts, as the Dragon 7 or the tie); otherwise the distribution of the
  n-round total is convolved round by round on the lattice of the amounts
  in double precision (at most :data:`MAX_LATTICE_WORK` operations), and the
  result says it is not exact.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["MAX_EXACT_TERMS", "MAX_LATTICE_WORK", "MAX_ROUNDS", "Z95", "Behind",
           "house_behind", "interval95", "rounds_for_precision"]

Z95 = 1.959963984540054  # the two-sided 95% point of the standard normal
MAX_EXACT_TERMS = 20_000  # multinomial terms of the exact sum (big integers each)
MAX_LATTICE_WORK = 3 * 10**8  # rounds x amounts x lattice points of the float convolution
MAX_ROUNDS = 100_000


def interval95(mean: object, se: object) -> list[float] | None:
    """A sampled figure's 95% interval [mean - 1.96 se, mean + 1.96 se] (None unless both are
    numbers, not NaN).

    >>> [round(x, 4) for x in interval95(1.0, 0.5)], interval95(1.0, None)
    ([0.02, 1.98], None)
    """
    if not isinstance(mean, float | int) or not isinstance(se, float | int) \
            or math.isnan(se) or math.isnan(mean):
        return None
    return [mean - Z95 * se, mean + Z95 * se]


@dataclass(frozen=True)
class Behind:
    """P(the house is behind after ``rounds`` rounds): exact, or a double-precision value."""

    rounds: int
    probability: Fraction | float | None  # None: the lattice is too fine to convolve
    exact: bool
    method: str


def _check_distribution(distribution: Mapping[Fraction, Fraction]) -> list[tuple[Fraction,
                                                                              Fraction]]:
    items = [(Fraction(a), Fraction(p)) for a, p in distribution.items() if p]
    if not items or sum(p for _, p in items) != 1 or any(p < 0 for _, p in items):
        raise ValueError("a payout distribution has probabilities that are 0 or more and "
                         "sum to 1")
    return sorted(items)


def rounds_for_precision(variance: Fraction, precision: Fraction = Fraction(1, 100)) -> int:
    """Rounds for the average result to be within ``precision`` of the edge, 95% of the time.

    The normal approximation ``ceil((z sd / precision)^2)``: the sample mean
    of n rounds has standard deviation ``sd / sqrt(n)``.

    >>> rounds_for_precision(Fraction(1))  # an even-money bet, sd 1: 38,415 rounds
    38415
    """
    if variance < 0 or precision <= 0:
        raise ValueError("the variance is 0 or more and the precision above 0")
    return math.ceil(Z95 * Z95 * float(variance) / float(precision) ** 2)


def _exact_terms(n: int, m: int) -> int:
    return math.comb(n + m - 1, m - 1)


def house_behind(distribution: Mapping[Fraction, Fraction], rounds: int) -> Behind:
    """P(the player's total net after ``rounds`` independent rounds is above 0).

    ``distribution``: net payout per unit stake -> probability (the bet's
    exact distribution, e.g. :meth:`odds.exact.bets.BetOdds.payout_distribution`).

    >>> coin = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    >>> b = house_behind(coin, 3)
    >>> b.probability, b.exact
    (Fraction(1, 2), True)
    >>> house_behind({Fraction(40): Fraction(1, 50), Fraction(-1): Fraction(49, 50)}, 1).probability
    Fraction(1, 50)
    """
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise ValueError(f"rounds is a whole number from 1 to {MAX_ROUNDS:,}, not {rounds!r}")
    items = _check_distribution(distribution)
    if _exact_terms(rounds, len(items)) <= MAX_EXACT_TERMS:
        return Behind(rounds, _exact(items, rounds), True,
                      "exact: the multinomial sum over the rounds on each amount")
    return _behind_by_convolution(items, rounds)


def _exact(items: list[tuple[Fraction, Fraction]], n: int) -> Fraction:
    den = math.lcm(*(p.denominator for _, p in items))
    counts = [int(p * den) for _, p in items]
    amounts = [a for a, _ in items]
    fact = [1] * (n + 1)
    for k in range(1, n + 1):
        fact[k] = fact[k - 1] * k
    powers = []
    for c in counts:
        row = [1] * (n + 1)
        for k in range(1, n + 1):
            row[k] = row[k - 1] * c
        powers.append(row)
    m = len(items)
    total = 0

    def walk(i: int, left: int, net: Fraction, weight: int, denom: int) -> None:
        nonlocal total
        if i == m - 1:
            if net + left * amounts[i] > 0:
                total += weight * powers[i][left] * (fact[n] // (denom * fact[left]))
            return
        for k in range(left + 1):
            walk(i + 1, left - k, net + k * amounts[i], weight * powers[i][k], denom * fact[k])

    walk(0, n, Fraction(0), 1, 1)
    return Fraction(total, den ** n)


def _behind_by_convolution(items: list[tuple[Fraction, Fraction]], n: int) -> Behind:
    """P(behind after n rounds) in double precision: the total convolved round by round.

    Not :func:`odds.money.chain.lattice` (which puts nets on a lattice of steps).
    """
    import numpy as np

    scale = math.lcm(*(a.denominator for a, _ in items))
    ints = [int(a * scale) for a, _ in items]
    step = math.gcd(*ints) or 1
    values = [v // step for v in ints]
    low = min(values)
    span = max(values) - low
    size = n * span + 1
    if n * len(values) * size > MAX_LATTICE_WORK:
        return Behind(n, None, False,
                      f"not computed: {n:,} rounds on a lattice of {span:,} steps a round is "
                      f"beyond {MAX_LATTICE_WORK:,} operations")
    probs = [float(p) for _, p in items]
    dist = np.zeros(size)
    dist[0] = 1.0
    for k in range(n):
        width = k * span + 1
        new = np.zeros(size)
        for v, p in zip(values, probs, strict=True):
            shift = v - low
            new[shift:shift + width] += p * dist[:width]
        dist = new
    # index i is the total (i + n * low) * step / scale; behind when it is above 0.
    first = max(0, -n * low + 1)
    value = float(dist[first:].sum())
    return Behind(n, min(max(value, 0.0), 1.0), False,
                  "double precision: the n-round total convolved round by round on the "
                  "lattice of the amounts (too many amounts for the exact sum)")
