"""The bank over a session: ruin within R rounds, capital for a target, rotation.

With capital C the bank is ruined in the first round whose settlement it
cannot pay from C plus that round's collected stakes, i.e. when C + net < 0.
The ruin probability within R rounds and the result after R rounds come from
a Markov chain over capital on the lattice of possible nets: exact rationals
while it is small, else floating point (numpy, imported lazily) with a
stated error bound.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from odds.money.bank import BankRound, TableError, bank_round
from odds.rules.profile import Profile
from odds.rules.profiles import as_profile
from odds.rules.rule_types import Rotation
from odds.rules.session_options import Session
from odds.rules.shoe import Shoe

__all__ = [
    "BankStudy",
    "CHAIN_BUDGET",
    "CapitalTarget",
    "PersonFigures",
    "SessionRisk",
    "bank_study",
    "bank_table_rows",
    "capital_for_target",
    "largest_stake",
    "rotation_figures",
    "ruin_by_capital",
    "session_risk",
]

CHAIN_BUDGET = 400_000  # state x support x rounds for the exact (rational) Markov chain
CHAIN_DIGITS = 600  # most digits of an exact chain's denominator (rounds x digits of one round's)


# -- the session: a Markov chain over capital ---------------------------------------


def _lattice(dist: Mapping[Fraction, Fraction]) -> tuple[Fraction, dict[int, Fraction]]:
    """The lattice of the nets: (steps per unit, each net as a whole number of steps).

    A step is the greatest common divisor of the nets, so stakes of 100 and a capital
    of 20,000 make the same chain as stakes of 1 and a capital of 200.

    >>> _lattice({Fraction(200): Fraction(1, 2), Fraction(-100): Fraction(1, 2)})
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


def _check_dist(dist: Mapping[Fraction, Fraction]) -> None:
    if not dist or any(p < 0 for p in dist.values()):
        raise ValueError("a round's distribution needs at least one net with probability >= 0")


def _check_capital(capital: Fraction | int, rounds: int) -> None:
    if capital < 0:
        raise ValueError(f"capital: {capital} is negative (give 0 or more units)")
    if isinstance(rounds, bool) or rounds < 1:
        raise ValueError(f"rounds: a session has at least 1 round, not {rounds}")


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

    @property
    def estimate(self) -> Estimate | None:
        """The ruin probability's estimate with its interval, on an estimated round."""
        return None if self.estimates is None else self.estimates.ruin

    def quantile_interval(self, q: float) -> tuple[Fraction, Fraction] | None:
        """A 95% interval on the result's quantile ``q``, on an estimated round.

        The smallest results whose estimated P(result <= x) reaches q -+ h, where h is
        the half-width of the interval on P(result <= the estimated quantile).
        """
        if self.estimates is None or q not in self.estimates.quantiles:
            return None
        e = self.estimates.quantiles[q][1]
        shift = e.value - e.raw  # the control variate's correction of P(result <= x)
        return (self.quantile(min(max(q - shift - e.half_width, 0.0), 1.0)),
                self.quantile(min(max(q - shift + e.half_width, 0.0), 1.0)))

    def quantile_estimate(self, q: float) -> Fraction:
        """The result's quantile ``q``; on an estimated round, corrected as P(result <= x) is
        by the control variate (the correction taken as locally constant)."""
        if self.estimates is None or q not in self.estimates.quantiles:
            return self.quantile(q)
        e = self.estimates.quantiles[q][1]
        return self.quantile(min(max(q - (e.value - e.raw), 0.0), 1.0))

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

    Ruin (RULES.md section 6): the first round with capital + net < 0.
    ``exact`` None chooses rationals while states x nets x rounds stays
    under ``CHAIN_BUDGET``.

    A fair +-1 walk from capital 0 is ruined in the first round half the time:

    >>> walk = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    >>> s = session_risk(walk, 0, 3)
    >>> s.ruin, s.exact, s.result
    (Fraction(5, 8), True, {Fraction(1, 1): Fraction(1, 4), Fraction(3, 1): Fraction(1, 8)})
    """
    _check_dist(distribution)
    _check_capital(capital, rounds)
    capital = Fraction(capital)
    scale, steps = _lattice(distribution)
    start = math.floor(capital * scale)
    offset = capital * scale - start  # capital off the lattice keeps its fraction
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
            result[Fraction(c) / scale + offset / scale - capital] = p
    result = {v: result[v] for v in sorted(result)}
    bound = 0.0 if exact else _bound(rounds, len(steps))
    return SessionRisk(capital, rounds, ruin_list[-1], tuple(ruin_list), result, exact, bound)


Z95 = 1.959963984540054  # two-sided 95% normal quantile
MAX_INFLUENCE = 12_000_000  # rounds x capitals kept for an estimate's interval (96 MB of floats)
MAX_TERMS = 3_000_000  # nets x capitals of one backward step (three such arrays: 72 MB)


@dataclass(frozen=True)
class Estimate:
    """A sampled figure: value, 95% interval, the samples and seed it came from.

    ``value`` and ``interval`` use the exact mean as a control variate where
    that narrows the interval; ``plain`` is the interval without it, and
    ``narrowed`` the share of the interval's width the control variate saves.
    """

    value: float
    interval: tuple[float, float]
    plain: tuple[float, float]
    narrowed: float
    samples: int
    seed: int | None
    raw: float = 0.0  # the figure of the sampled distribution, before the control variate

    @property
    def half_width(self) -> float:
        """Half the interval's width."""
        return (self.interval[1] - self.interval[0]) / 2


def ruin_estimate(
    distribution: Mapping[Fraction, Fraction], samples: int, capital: Fraction | int,
    rounds: int, *, exact_mean: Fraction | None = None, seed: int | None = None,
) -> Estimate:
    """The ruin probability of :func:`session_estimates`, alone.

    >>> walk = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    >>> e = ruin_estimate(walk, 10_000, 0, 3)
    >>> round(e.value, 4), e.interval[0] < 0.625 < e.interval[1]
    (0.625, True)
    """
    return session_estimates(distribution, samples, capital, rounds, exact_mean=exact_mean,
                             seed=seed).ruin


def session_estimates(
    distribution: Mapping[Fraction, Fraction], samples: int, capital: Fraction | int,
    rounds: int, *, exact_mean: Fraction | None = None, seed: int | None = None,
    quantiles: Mapping[float, Fraction] | None = None,
) -> SessionEstimates:
    """The ruin probability within ``rounds`` from ``capital`` when ``distribution`` is
    the frequency of ``samples`` sampled rounds, with a 95% interval.

    The ruin probability is a smooth function R(p) of the round's probabilities;
    its sampling error is that of the mean of the influence ``g(X) = dR/dp_X``
    over the sampled rounds (the delta method), ``g`` from one forward and one
    backward pass of the chain.  With the round's ``exact_mean`` (a control
    variate) the estimate is R at the sampled distribution reweighted to have
    the exact mean (exponential tilting: the least change, in relative entropy,
    that does it), and its variance is smaller by the squared correlation of
    ``g`` and the net.  To first order that is the regression estimate
    ``R(p) - b (sample mean - exact mean)``; unlike it, it also takes R's
    curvature in the mean into account, which the linear correction left as a
    bias of a third of the interval's half-width and an interval 5-10% too
    narrow once the control variate had removed most of the variance.
    The same holds for P(ahead after the session) and, for each ``quantiles``
    entry q: x (x the estimated quantile q of the result), for P(result <= x),
    whose interval :func:`quantile_interval` turns into one on the quantile.

    >>> walk = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    >>> e = session_estimates(walk, 10_000, 0, 3, quantiles={0.5: Fraction(0)})
    >>> e.quantiles[0.5][1].interval[0] < 0.625 < e.quantiles[0.5][1].interval[1]
    True

    With the exact mean, the sample of a biased walk is reweighted to the fair one:

    >>> sampled = {Fraction(1): Fraction(1, 4), Fraction(-1): Fraction(3, 4)}
    >>> e = session_estimates(sampled, 10_000, 0, 3, exact_mean=Fraction(0))
    >>> round(e.ruin.raw, 4), round(e.ruin.value, 4), e.ruin.interval
    (0.8906, 0.625, (0.625, 0.625))
    """
    import numpy as np

    _check_dist(distribution)
    _check_capital(capital, rounds)
    scale, steps = _lattice(distribution)
    start = math.floor(Fraction(capital) * scale)
    nets = sorted(steps)
    width = start + rounds * max(max(nets), 0) + 1
    check_chain_size(width, len(nets), rounds, scale)
    check_estimate_size(width, len(nets), rounds)
    probs = np.array([float(steps[v]) for v in nets])
    probs /= probs.sum()
    x = np.array([float(Fraction(v) / scale) for v in nets])
    tilted = None if exact_mean is None else _tilt(probs, x, float(exact_mean))
    capitals = np.arange(width)
    figures = [(np.zeros(width), 1.0)]  # the ruin; then P(ahead), P(result <= each quantile)
    if quantiles is not None:
        figures.append(((capitals > start).astype(float), 0.0))
        figures += [((capitals - start <= math.floor(at * scale)).astype(float), 1.0)
                    for at in quantiles.values()]  # result <= at
    # One chain at a time (its masses by round are the memory): the sampled round's, then
    # the tilted one's.
    kept = _forward_kept(nets, probs, width, start, rounds)
    raws = [_backward(kept, nets, probs, terminal, ruined) for terminal, ruined in figures]
    del kept
    tilts: list[tuple[float, Any] | None] = [None] * len(figures)
    if tilted is not None:
        kept = _forward_kept(nets, tilted, width, start, rounds)
        tilts = [_backward(kept, nets, tilted, terminal, ruined) for terminal, ruined in figures]
        del kept
    found = [_delta(raw, tilt, probs, tilted, x, samples, seed)
             for raw, tilt in zip(raws, tilts, strict=True)]
    ruin = found[0]
    if quantiles is None:
        return SessionEstimates(ruin, ruin, {})
    ahead = found[1]
    out = {q: (at, e) for (q, at), e in zip(quantiles.items(), found[2:], strict=True)}
    return SessionEstimates(ruin, ahead, out)


def check_estimate_size(width: int, nets: int, rounds: int) -> None:
    """A ``ValueError`` naming the bound unless an estimate's interval fits, before any work.

    ``width`` capitals on the lattice, ``nets`` nets a round, ``rounds`` rounds.

    >>> check_estimate_size(1000, 9, 100)
    >>> check_estimate_size(1_000_000, 9, 100)
    Traceback (most recent call last):
    ...
    ValueError: an estimate's interval takes 9 nets x 1,000,000 capitals, more than the ...
    """
    if width * nets > MAX_TERMS:
        raise ValueError(
            f"an estimate's interval takes {nets:,} nets x {width:,} capitals, more than "
            f"the {MAX_TERMS:,} allowed: give a smaller capital or fewer rounds")
    if width * rounds > MAX_INFLUENCE:
        raise ValueError(
            f"an estimate's interval keeps {rounds:,} rounds x {width:,} capitals, more than "
            f"the {MAX_INFLUENCE:,} allowed: give fewer rounds or a smaller capital")


def _forward_kept(nets: list[int], probs: Any, width: int, start: int, rounds: int) -> Any:
    """The chain forward in floats: the mass alive at each capital before each round (what
    falls below capital 0 is ruined)."""
    import numpy as np

    kept = np.zeros((rounds, width))
    alive = np.zeros(width)
    alive[start] = 1.0
    for r in range(rounds):
        kept[r] = alive
        new = np.zeros(width)
        for v, p in zip(nets, probs, strict=True):
            lo, hi = max(0, -v), min(width, width - v)  # capitals c with 0 <= c + v < width
            new[lo + v: hi + v] += p * alive[lo:hi]
        alive = new
    return kept


def _tilt(probs: Any, x: Any, mean: float) -> Any | None:
    """``probs`` exponentially tilted, q_v ~ p_v exp(t x_v), so that the mean of ``x`` is
    ``mean``; None when no tilt can (the mean is not strictly inside the sampled nets).

    Of all the reweightings of ``probs`` with that mean, the tilt is the one closest to
    ``probs`` in relative entropy; t solves K'(t) = mean, K the cumulant generating
    function, which is convex: Newton's steps, kept inside a bracket by bisection.
    """
    import numpy as np

    d = x - mean
    if not d.min() < 0 < d.max():
        return None
    scale = float(np.abs(d).max())
    d = d / scale  # t in units of the widest net: the bracket's start is sensible

    def moments(t: float) -> tuple[Any, float, float]:
        e = np.exp(t * d - (t * d).max())
        q = probs * e
        q /= q.sum()
        m = float(q @ d)
        return q, m, float(q @ (d - m) ** 2)

    lo, hi = -1.0, 1.0
    while moments(lo)[1] > 0:
        lo *= 2
    while moments(hi)[1] < 0:
        hi *= 2
    t = 0.0
    for _ in range(200):
        q, m, v = moments(t)
        if abs(m) <= 1e-15:
            break
        if m > 0:
            hi = t
        else:
            lo = t
        step = t - m / v if v > 0 else (lo + hi) / 2
        t = step if lo < step < hi else (lo + hi) / 2
        if hi - lo <= 1e-15 * max(1.0, abs(t)):
            break
    return q


def _backward(kept: Any, nets: list[int], probs: Any, terminal: Any,
              ruined: float) -> tuple[float, Any]:
    """One backward pass: the figure's value from the start and its gradient by net.

    V_0 = ``terminal``; V_j(c) = sum_v p_v (``ruined`` if c + v < 0 else V_{j-1}(c + v));
    d figure / d p_v = sum_r sum_c alive_r(c) (``ruined`` or V_{R-r-1}(c + v)).
    """
    import numpy as np

    rounds, width = kept.shape
    value = np.array(terminal, dtype=float)
    grad = np.zeros(len(nets))
    to = np.arange(width)[None, :] + np.array(nets)[:, None]  # (nets, capitals)
    gone = to < 0
    to = np.clip(to, 0, width - 1)
    for r in reversed(range(rounds)):
        term = np.where(gone, ruined, value[to])  # each net's next value, by capital
        grad += term @ kept[r]
        value = probs @ term
    start = int(np.argmax(kept[0]))
    return float(value[start]), grad


def _delta(raw: tuple[float, Any], tilt: tuple[float, Any] | None, probs: Any,
           tilted: Any | None, x: Any, samples: int, seed: int | None) -> Estimate:
    """The delta method's 95% interval.

    ``raw`` is (the figure, its gradient) on the sampled round ``probs``: the plain interval.
    ``tilt`` the same on the round ``tilted`` to the exact mean: the control variate's
    interval, whose variance is the gradient's less what the net ``x`` explains.
    """
    def half_width(probs: Any, grad: Any) -> tuple[float, float]:
        g = grad - float(probs @ grad)
        return Z95 * math.sqrt(max(float(probs @ g**2), 0.0) / samples), float(probs @ g**2)

    value, grad = raw
    half_plain, _ = half_width(probs, grad)
    estimate, half, narrowed = value, half_plain, 0.0
    if tilt is not None and tilted is not None:
        estimate, grad = tilt
        x_mean = float(tilted @ x)
        var_x = float(tilted @ (x - x_mean) ** 2)
        _, var_g = half_width(tilted, grad)
        if var_x > 0:
            cov = float(tilted @ ((grad - float(tilted @ grad)) * (x - x_mean)))
            half = Z95 * math.sqrt(max(var_g - cov * cov / var_x, 0.0) / samples)
            narrowed = 0.0 if half_plain == 0 else 1 - half / half_plain

    def clip(a: float, b: float) -> tuple[float, float]:
        return max(0.0, a), min(1.0, b)

    estimate = min(max(estimate, 0.0), 1.0)
    return Estimate(estimate, clip(estimate - half, estimate + half),
                    clip(value - half_plain, value + half_plain), narrowed, samples, seed, value)


@dataclass(frozen=True)
class SessionEstimates:
    """An estimated session's figures: ruin, P(ahead), and each quantile's P(result <= it)."""

    ruin: Estimate
    ahead: Estimate
    quantiles: Mapping[float, tuple[Fraction, Estimate]]


MAX_CELLS = 20_000_000  # capitals on the lattice of a session chain: 160 MB of floats
MAX_WORK = 50_000_000_000  # capitals x nets x rounds: about a minute of convolutions


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
    _check_dist(distribution)
    _check_capital(max_capital, rounds)
    scale, steps = _lattice(distribution)
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


@dataclass(frozen=True)
class CapitalTarget:
    """The smallest capital whose ruin risk within ``rounds`` is at most ``target``."""

    target: Fraction
    rounds: int
    capital: Fraction
    ruin: Fraction | float
    exact: bool
    error_bound: float


def _check_target(target: Fraction | float) -> Fraction:
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
    t = _check_target(target)
    _check_dist(distribution)
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
    _check_capital(capital, rounds)
    need = capital_for_target(distribution, rounds, target, exact=exact).capital
    return None if need == 0 else Fraction(capital) / need


# -- rotation ---------------------------------------------------------------------


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

    >>> from odds import BUILTIN
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


# -- reference rows -----------------------------------------------------------------


def bank_table_rows(
    profile: Profile, shoe: Shoe, *, loss: int = 5, rounds: int = 50,
    target: Fraction = Fraction(1, 100), samples: int = 20_000,
    progress: Callable[[int], None] | None = None, players: int = 8,
) -> list[dict[str, Any]]:
    """The reference bank table of a profile and shoe: N = 1..8 at stake 1 each.

    Each row: players, mean, variance, exact, P(loss > ``loss`` stakes), and
    the capital for a ``target`` ruin risk over ``rounds`` rounds.  Tableau
    or stopping-natural profiles have heads-up rows only.

    >>> from odds import BUILTIN
    >>> rows = bank_table_rows(BUILTIN["plain"], Shoe.infinite_shoe())
    >>> [r["players"] for r in rows][-1], rows[0]["mean"]
    (8, Fraction(0, 1))
    """
    out = []
    for n in range(1, players + 1):
        try:
            r = bank_round(profile, shoe, Session(players=n), samples=samples)
        except TableError:
            break
        cap = capital_for_target(r.distribution, rounds, target)
        out.append({
            "players": n, "mean": r.mean, "variance": r.variance, "exact": r.exact,
            "p_loss": r.p_loss_more_than(loss), "capital": cap.capital,
            "capital_exact": cap.exact and r.exact,
        })
        if progress is not None:
            progress(n)
    return out


# -- everything ``lucky9 bank`` shows -------------------------------------------------


@dataclass(frozen=True)
class BankStudy:
    """A round at a table and, where the session asks, its risk over a session."""

    round: BankRound
    target_ruin: Fraction | None
    risk: SessionRisk | None
    target: CapitalTarget | None
    stake_factor: Fraction | None
    rotation: tuple[PersonFigures, ...] | None
    other_rotation: tuple[PersonFigures, ...] | None
    loss_over: Fraction = Fraction(5)


def bank_study(
    profile: Profile | str, shoe: Shoe | int | str | None = None, session: Session | None = None, *,
    target_ruin: Fraction | float | str | None = None, samples: int = 20_000, seed: int = 1,
    loss_over: Fraction | int | str | None = None, precision: float | None = None,
    progress: Callable[[int, int], None] | None = None, plot: bool = False,
) -> BankStudy:
    """The bank's round, ruin with capital and rounds, capital for a target, rotation.

    Session figures need ``session.rounds``; ruin needs ``session.capital``
    too; the capital for a target needs ``target_ruin``; the largest stake
    needs all three.  ``loss_over`` defaults to 5 times the largest stake.
    Where the round is estimated, ``precision`` (a probability) doubles the
    samples until the 95% interval on the ruin probability is at most
    +-``precision`` wide, or :data:`odds.money.bank.MAX_SAMPLES` are drawn.
    Every chain is sized before the round is computed (:func:`check_study_size`;
    with ``plot``, the ruin-against-capital curve a plot draws too).

    >>> from odds import BUILTIN
    >>> s = bank_study(BUILTIN["standard"], Shoe.infinite_shoe(),
    ...                Session(players=2, capital=Fraction(10), rounds=5), target_ruin="0.01")
    >>> s.risk.exact, s.target.capital <= 10 * 5 * 2 * 3
    (True, True)
    """
    from odds.money.bank import MAX_SAMPLES

    loss = None
    if loss_over is not None:
        try:
            loss = Fraction(str(loss_over).strip())
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"loss over {loss_over!r} is not a number (write 5 or 5/2)") from None
        if loss < 0:
            raise ValueError(f"loss over {loss_over}: give 0 or more units")
    if precision is not None and not 0 < precision < 1:
        raise ValueError(f"precision {precision}: give a probability between 0 and 1, "
                         "such as 0.001")
    target = None
    if target_ruin is not None:
        if isinstance(target_ruin, str):
            try:
                target = Fraction(target_ruin.strip())
            except (ValueError, ZeroDivisionError):
                raise ValueError(f"target ruin {target_ruin!r} is not a number (write 0.01 or 1/100)"
                                 ) from None
        else:
            target = _check_target(target_ruin)
        target = _check_target(target)
    profile = as_profile(profile)
    if target is not None and (profile.session if session is None else session).rounds is None:
        raise ValueError("a target ruin needs the number of rounds of the session (rounds)")
    check_study_size(profile, shoe, session, target=target is not None, plot=plot)
    r = bank_round(profile, shoe, session, samples=samples, seed=seed, progress=progress)
    s = r.session
    if loss is None:
        loss = 5 * max(s.stakes or (Fraction(1),))
    risk = cap = factor = None
    rot = other = None
    if s.rounds is not None:
        if s.capital is not None:
            risk = session_risk(r.distribution, s.capital, s.rounds)
            if not r.exact and r.samples is not None:
                est = _estimate(r, s.capital, s.rounds).ruin
                while (precision is not None and est.half_width > precision
                       and r.samples is not None and r.samples < MAX_SAMPLES):
                    more = min(MAX_SAMPLES, 2 * r.samples)
                    r = bank_round(profile, shoe, session, samples=more, seed=seed,
                                   progress=progress)
                    est = _estimate(r, s.capital, s.rounds).ruin
                risk = session_risk(r.distribution, s.capital, s.rounds)
                risk = replace(risk, estimates=_estimate(r, s.capital, s.rounds, risk))
        if target is not None:
            cap = capital_for_target(r.distribution, s.rounds, target)
            if s.capital is not None:
                factor = None if cap.capital == 0 else s.capital / cap.capital
        rot = rotation_figures(r, s.rounds, s.rotation)
        flip = Rotation.ROTATE if s.rotation is Rotation.FIXED else Rotation.FIXED
        other = rotation_figures(r, s.rounds, flip)
    return BankStudy(r, target, risk, cap, factor, rot, other, loss)


@dataclass(frozen=True)
class NetBounds:
    """What the bank's nets can be at a table, from the rules and the session alone.

    Every net of a round lies on the lattice of ``1 / scale`` units, between
    ``-worst / scale`` and ``top / scale``, and takes one of at most ``nets``
    values, whatever the shoe and whether the round is counted or sampled: the
    session's chains can be sized from these before the round is computed.
    """

    scale: Fraction
    nets: int
    top: int
    worst: int


MAX_NET_SET = 100_000  # candidate nets listed one by one; beyond, their range bounds them


def net_bounds(profile: Profile, session: Session) -> NetBounds:
    """Bounds on the bank's nets at ``session``'s table, before any round is computed.

    A seat is settled by one entry of the pay table (its stake times the entry's
    amount; a capped bonus falls back to another entry); the bank's net is minus
    their sum or, past ``round_cap`` X, what it collects less X (never below -X).
    So the nets are among those sums: their greatest common divisor divides
    every net's, and their count, largest and smallest bound the round's.

    >>> from odds import BUILTIN
    >>> net_bounds(BUILTIN["standard"], Session(players=2))  # -6 .. +2 by 1
    NetBounds(scale=Fraction(1, 1), nets=9, top=2, worst=6)
    >>> # stakes 100 and 50, the bank pays at most 120: -120 .. +150 by 10
    >>> net_bounds(BUILTIN["standard"], Session(stakes=(Fraction(100), Fraction(50)),
    ...                                         round_cap=Fraction(120)))
    NetBounds(scale=Fraction(1, 10), nets=10, top=15, worst=12)
    """
    from odds.rules.settle import Pay

    players = session.players or (len(session.stakes) if session.stakes else 1)
    stakes = session.stakes_for(players)
    amounts = {Pay.WIN.amount(profile), Fraction(0), Fraction(-1)}
    for nine in (False, True):
        paid = profile.player_multiplier(nine)
        if paid is not None:
            amounts.add(paid)
        collected = profile.bank_multiplier(nine)
        if collected is not None:
            amounts.add(-collected)
    cap = session.round_cap
    den = 1 if cap is None else cap.denominator
    for st in stakes:
        for a in amounts:
            den = math.lcm(den, (st * a).denominator)
    dues = [sorted({int(st * a * den) for a in amounts}) for st in stakes]  # each seat's net

    def sums(choices: list[list[int]]) -> set[int] | None:
        found = {0}
        for c in choices:
            found = {x + y for x in found for y in c}
            if len(found) > MAX_NET_SET:
                return None
        return found

    bank = sums([[-d for d in c] for c in dues])
    hi = sum(max(-d for d in c) for c in dues)  # every seat loses its most
    lo = -sum(max(c) for c in dues)  # every seat wins its most
    extra: set[int] | None = set()
    if cap is not None:
        x = int(cap * den)
        lo = max(lo, -x)
        losses = sums([sorted({max(-d, 0) for d in c}) for c in dues])
        extra = None if losses is None else {v - x for v in losses}
        if bank is not None:
            bank = {v for v in bank if v >= -x}  # a round the cap leaves alone pays <= X
    step = math.gcd(*(abs(d) for c in dues for d in c), 0 if cap is None else int(cap * den))
    if bank is not None and extra is not None:
        found = bank | extra
        step = math.gcd(*found) or 1
        count = len(found)
        hi, lo = max(found), min(found)
    else:
        step = step or 1
        count = (hi - lo) // step + 1
    return NetBounds(Fraction(den, step), count, max(hi, 0) // step, max(-lo, 0) // step)


def check_study_size(profile: Profile, shoe: Shoe | int | str | None, session: Session | None,
                     *, target: bool = False, plot: bool = False) -> None:
    """Refuse a session whose chains would not fit, before any round is computed.

    The chains' sizes come from :func:`net_bounds` (upper bounds on the round's
    lattice and nets): the session chain (capital x lattice plus what the rounds
    can win, ``MAX_CELLS`` and ``MAX_WORK``), on a round that may be sampled the
    estimate's interval (``MAX_TERMS``, ``MAX_INFLUENCE``), with ``target`` the
    chain that searches every capital up to the rounds' worst losses, and with
    ``plot`` the ruin against every capital up to twice the capital (or twice
    the target's, or 10) over the session's rounds (or 50) that the plot draws.

    >>> from odds import BUILTIN
    >>> check_study_size(BUILTIN["standard"], 1, Session(players=2, capital=Fraction(10**9),
    ...                                                  rounds=10))
    Traceback (most recent call last):
    ...
    ValueError: the session's chain may take up to 1,000,000,021 capitals on its lattice ...
    """
    from odds.exact.seats import MAX_PAIR_CARDS
    from odds.rules.shoe import as_shoe

    profile = as_profile(profile)
    s = profile.session if session is None else session
    if s.rounds is None and not plot:
        return
    b = net_bounds(profile, s)
    if plot:
        rounds = s.rounds or 50
        top: Fraction = max(10 * b.scale, 2 * Fraction(s.capital or 0) * b.scale,
                            Fraction(2 * b.worst * rounds if target else 0))
        check_chain_size(math.floor(top) + rounds * b.top + 1, b.nets, rounds, b.scale,
                         may=True, what="the plot's chain (ruin against capital)")
    if s.rounds is None:
        return
    players = s.players or (len(s.stakes) if s.stakes else 1)
    shoe = as_shoe(shoe, profile.decks)
    sampled = not shoe.infinite and players > 1 and not (players == 2
                                                         and shoe.size <= MAX_PAIR_CARDS)
    if s.capital is not None:
        width = math.floor(s.capital * b.scale) + s.rounds * b.top + 1
        check_chain_size(width, b.nets, s.rounds, b.scale, may=True)
        if sampled:
            check_estimate_size(width, b.nets, s.rounds)
    if target:
        check_chain_size(b.worst * s.rounds + s.rounds * b.top + 1, b.nets, s.rounds, b.scale,
                         may=True, what="the search for a capital")


QUANTILES = (0.05, 0.5, 0.95)


def _estimate(r: BankRound, capital: Fraction, rounds: int,
              risk: SessionRisk | None = None) -> SessionEstimates:
    assert r.samples is not None
    mean = None if r.exact_moments is None else r.exact_moments[0]
    at = None if risk is None else {q: risk.quantile(q) for q in QUANTILES}
    return session_estimates(r.distribution, r.samples, capital, rounds, exact_mean=mean,
                             seed=r.seed, quantiles=at)
