"""The bank over a session: ruin within R rounds, and the result after them.

With capital C the bank is ruined in the first round whose settlement it
cannot pay from C plus that round's collected stakes, i.e. when C + net < 0.
The ruin probability within R rounds and the result after R rounds come from
a Markov chain over capital on the lattice of possible nets
(:mod:`odds.money.chain`): exact rationals while it is small, else floating
point (numpy, imported where a float chain runs, so that ``import odds``
stays free of it) with a stated error bound.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from odds.money.chain import check_capital, check_chain_size, check_distribution, lattice
from odds.money.sampling import Estimate, SessionEstimates

__all__ = ["CHAIN_BUDGET", "CHAIN_DIGITS", "SessionRisk", "ruin_by_capital", "session_risk"]

CHAIN_BUDGET = 400_000  # state x support x rounds for the exact (rational) Markov chain
CHAIN_DIGITS = 600  # most digits of an exact chain's denominator (rounds x digits of one round's)


@dataclass(frozen=True)
class SessionRisk:
    """Ruin within ``rounds`` and the bank's result after them, from ``capital``.

    ``result`` maps the bank's total net after ``rounds`` rounds (sessions
    not ruined) to its probability; ``ruin`` is the probability of ruin
    within the session and ``ruin_by_round[r]`` within r + 1 rounds.
    Exact rationals when ``exact``, else floats within ``error_bound``.
    """

    capital: Fraction
    rounds: int
    ruin: Fraction | float
    ruin_by_round: tuple[Fraction | float, ...]
    result: Mapping[Fraction, Fraction | float]
    exact: bool
    error_bound: float
    estimates: SessionEstimates | None = None  # on an estimated round: intervals
    lower: SessionRisk | None = None  # on a coarse lattice: the chain of nets rounded up
    unit: Fraction | None = None  # the coarse lattice's step (None: the nets' own lattice)

    @property
    def bracket(self) -> tuple[Fraction | float, Fraction | float] | None:
        """On a coarse lattice (:mod:`odds.money.bracket`): (lower, upper) bounds on the ruin,
        this chain's (nets rounded toward the bank's loss) being the upper; else None."""
        return None if self.lower is None else (self.lower.ruin, self.ruin)

    @property
    def interval_bracket(self) -> tuple[float, float] | None:
        """On a sampled round: the 95% interval on the ruin, widened by the bracket (from the
        lower chain's interval's low end to this chain's high end)."""
        if self.estimate is None:
            return None
        low = self.estimate if self.lower is None or self.lower.estimate is None \
            else self.lower.estimate
        return low.interval[0], self.estimate.interval[1]

    @property
    def estimate(self) -> Estimate | None:
        """The ruin probability's estimate with its interval, on an estimated round."""
        return None if self.estimates is None else self.estimates.ruin

    def quantile_interval(self, q: float) -> tuple[Fraction, Fraction] | None:
        """A 95% interval on the result's quantile ``q``, on an estimated round.

        The results at quantiles q -+ h, where h is the half-width of the interval on
        P(result <= the quantile q); the result is that of the round the estimates'
        values are of (the sampled round tilted to the exact mean, by
        :func:`odds.money.session.bank_study`).
        """
        if self.estimates is None or q not in self.estimates.quantiles:
            return None
        h = self.estimates.quantiles[q][1].half_width
        return self.quantile(min(max(q - h, 0.0), 1.0)), self.quantile(min(max(q + h, 0.0), 1.0))

    def quantile(self, q: float) -> Fraction:
        """The bank's result after the session at quantile ``q`` (ruin counted as -capital).

        >>> walk = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
        >>> s = session_risk(walk, 0, 3)
        >>> s.quantile(0.5), s.quantile(0.9)
        (Fraction(0, 1), Fraction(3, 1))
        """
        acc = float(self.ruin)
        if q <= acc:
            return -self.capital
        for v, p in self.result.items():
            acc += float(p)
            if q <= acc:
                return v
        return max(self.result) if self.result else -self.capital

    @property
    def mean_result(self) -> float:
        """Expected result, a ruined bank counted as losing its whole capital."""
        kept = sum(float(v) * float(p) for v, p in self.result.items())
        return kept - float(self.ruin) * float(self.capital)


def session_risk(
    distribution: Mapping[Fraction, Fraction], capital: Fraction | int, rounds: int,
    *, exact: bool | None = None,
) -> SessionRisk:
    """Ruin probability within ``rounds`` rounds from ``capital``, and the result.

    Ruin (docs/bank.md, 'The session'): the first round with capital + net < 0.
    ``exact`` None chooses rationals while states x nets x rounds stays
    under ``CHAIN_BUDGET``.

    A fair +-1 walk from capital 0 is ruined in the first round half the time:

    >>> walk = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    >>> s = session_risk(walk, 0, 3)
    >>> s.ruin, s.exact, s.result
    (Fraction(5, 8), True, {Fraction(1, 1): Fraction(1, 4), Fraction(3, 1): Fraction(1, 8)})
    """
    check_distribution(distribution)
    check_capital(capital, rounds)
    capital = Fraction(capital)
    scale, steps = lattice(distribution)
    # Past the rounds' worst losses ruin is impossible and the result does not depend on the
    # capital: the chain starts there (its cost stays that of the rounds, not the capital).
    start = min(math.floor(capital * scale), max(-min(steps), 0) * rounds)
    width = start + rounds * max(max(steps), 0) + 1
    check_chain_size(width, len(steps), rounds, scale)
    if exact is None:
        exact = _small(width * len(steps) * rounds, steps, rounds)
    alive: Mapping[int, Fraction | float]
    if exact:
        ruin_list, alive = _forward_exact(steps, start, rounds)
    else:
        ruin_list, alive = _forward_float(steps, start, rounds)
    result: dict[Fraction, Fraction | float] = {}
    for c, p in alive.items():
        if p:
            result[Fraction(c - start) / scale] = p  # the bank's total net
    result = {v: result[v] for v in sorted(result)}
    bound = 0.0 if exact else _bound(rounds, len(steps))
    return SessionRisk(capital, rounds, ruin_list[-1], tuple(ruin_list), result, exact, bound)


def _small(work: int, steps: Mapping[int, Fraction], rounds: int) -> bool:
    """Is the exact chain affordable: little work, and fractions of readable size?"""
    denom = 1
    for p in steps.values():
        denom = math.lcm(denom, p.denominator)
    return work <= CHAIN_BUDGET and len(str(denom)) * rounds <= CHAIN_DIGITS


def _bound(rounds: int, support: int) -> float:
    # Sums of products of non-negative floats: each round adds at most
    # (support + 1) roundings of relative size 2**-53 to every mass, and the
    # inputs are rounded once; probabilities are at most 1.
    return rounds * (support + 2) * 2.0**-53


def _forward_exact(steps: Mapping[int, Fraction], start: int,
                   rounds: int) -> tuple[list[Fraction | float], dict[int, Fraction]]:
    denom = 1
    for p in steps.values():
        denom = math.lcm(denom, p.denominator)
    ints = {v: int(p * denom) for v, p in steps.items()}
    alive = {start: 1}
    ruined = 0
    out: list[Fraction | float] = []
    for r in range(1, rounds + 1):
        new: dict[int, int] = defaultdict(int)
        ruined *= denom
        for c, m in alive.items():
            for v, a in ints.items():
                if c + v < 0:
                    ruined += m * a
                else:
                    new[c + v] += m * a
        alive = new
        out.append(Fraction(ruined, denom**r))
    total = denom**rounds
    return out, {c: Fraction(m, total) for c, m in alive.items()}


def _forward_float(steps: Mapping[int, Fraction], start: int,
                   rounds: int) -> tuple[list[Fraction | float], dict[int, float]]:
    import numpy as np

    lo, hi = min(steps), max(steps)
    pmf = np.zeros(hi - lo + 1)
    for v, p in steps.items():
        pmf[v - lo] = float(p)
    alive = np.zeros(start + 1)
    alive[start] = 1.0
    ruined = 0.0
    out: list[Fraction | float] = []
    for _ in range(rounds):
        new = np.convolve(alive, pmf) if alive.size else alive  # index j: capital j + lo
        cut = max(0, -lo)
        ruined += float(new[:cut].sum())
        alive = new[cut:] if lo < 0 else np.concatenate([np.zeros(lo), new])
        out.append(ruined)
    return out, {c: float(m) for c, m in enumerate(alive) if m > 0}


def ruin_by_capital(
    distribution: Mapping[Fraction, Fraction], rounds: int, max_capital: Fraction | int,
    *, exact: bool | None = None,
) -> tuple[list[Fraction], list[Fraction | float], bool, float]:
    """Ruin within ``rounds`` for every capital on the lattice up to ``max_capital``.

    One backward pass: V_r(c) = sum_v p_v [c + v < 0 or V_{r-1}(c + v)].
    Returns (capitals, ruin probabilities, exact, error bound).

    >>> walk = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    >>> caps, ruin, exact, _ = ruin_by_capital(walk, 3, 2)
    >>> [str(c) for c in caps], [str(p) for p in ruin]
    (['0', '1', '2'], ['5/8', '1/4', '1/8'])
    """
    check_distribution(distribution)
    check_capital(max_capital, rounds)
    scale, steps = lattice(distribution)
    top = math.floor(Fraction(max_capital) * scale)
    lo, hi = min(steps), max(steps)
    domain = top + rounds * max(hi, 0) + 1
    check_chain_size(domain, len(steps), rounds, scale)
    if exact is None:
        exact = _small(domain * len(steps) * rounds, steps, rounds)
    values: list[Fraction | float]
    if exact:
        denom = 1
        for p in steps.values():
            denom = math.lcm(denom, p.denominator)
        ints = {v: int(p * denom) for v, p in steps.items()}
        v_prev = [0] * domain
        one = 1
        for _ in range(rounds):
            cur = [0] * domain
            for c in range(domain):
                acc = 0
                for v, a in ints.items():
                    j = c + v
                    if j < 0:
                        acc += a * one
                    elif j < domain:
                        acc += a * v_prev[j]
                cur[c] = acc
            v_prev = cur
            one *= denom
        values = [Fraction(x, one) for x in v_prev[: top + 1]]
    else:
        import numpy as np

        pmf = np.zeros(hi - lo + 1)
        for v, p in steps.items():
            pmf[v - lo] = float(p)
        vec = np.zeros(domain)
        for _ in range(rounds):
            ext = np.concatenate([np.ones(max(0, -lo)), vec, np.zeros(max(0, hi))])
            if lo > 0:
                ext = ext[lo:]
            vec = np.correlate(ext, pmf, "valid")[:domain]
        values = [float(x) for x in vec[: top + 1]]
    capitals = [Fraction(c) / scale for c in range(top + 1)]
    return capitals, values, exact, 0.0 if exact else _bound(rounds, len(steps))
