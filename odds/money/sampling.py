"""Ruin on a sampled round: the estimate's 95% interval (the delta method, a control variate).

When the bank's round is sampled (:func:`odds.money.bank.bank_round` on a
finite shoe with many seats), the session's ruin probability is a smooth
function of the sampled round's probabilities, and its sampling error is
that of the mean of its influence (:func:`session_estimates`).  numpy is
imported where a chain runs, not here, so that ``import odds`` stays free
of it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from odds.money.chain import check_capital, check_chain_size, check_distribution, lattice

__all__ = ["MAX_INFLUENCE", "Estimate", "SessionEstimates", "check_estimate_size",
           "ruin_estimate", "session_estimates", "tilted_round"]

Z95 = 1.959963984540054  # two-sided 95% normal quantile
MAX_INFLUENCE = 12_000_000  # rounds x capitals kept for an estimate's interval (96 MB of floats)


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


@dataclass(frozen=True)
class SessionEstimates:
    """An estimated session's figures: ruin, P(ahead), and each quantile's P(result <= it);
    with the quantiles, the expected result (a ruined bank counted at -capital)."""

    ruin: Estimate
    ahead: Estimate
    quantiles: Mapping[float, tuple[Fraction, Estimate]]
    mean_result: Estimate | None = None


def tilted_round(distribution: Mapping[Fraction, Fraction],
                 exact_mean: Fraction | None) -> dict[Fraction, Fraction]:
    """The sampled round as the session's estimates use it: tilted to ``exact_mean``.

    The round :func:`session_estimates` evaluates its figures on (the sampled
    frequencies exponentially tilted to have the exact mean), so that a ruin
    risk, a result's quantile or a capital computed on it with
    :func:`odds.money.ruin.session_risk` or :func:`odds.money.target.capital_for_target`
    is the estimate itself.  The probabilities are the tilt's floating-point
    values written as fractions (an estimate: run its chains in floating point).
    Without an exact mean, or one no tilt reaches (not strictly inside the
    sampled nets), it is the sampled round as it is.

    >>> sampled = {Fraction(1): Fraction(1, 4), Fraction(-1): Fraction(3, 4)}
    >>> {str(v): float(p) for v, p in tilted_round(sampled, Fraction(0)).items()}
    {'-1': 0.5, '1': 0.5}
    >>> tilted_round(sampled, Fraction(2)) == sampled
    True
    """
    import numpy as np

    check_distribution(distribution)
    nets = sorted(v for v, p in distribution.items() if p)
    if exact_mean is None:
        return dict(distribution)
    probs = np.array([float(distribution[v]) for v in nets])
    probs /= probs.sum()
    tilted = _tilt(probs, np.array([float(v) for v in nets]), float(exact_mean))
    if tilted is None:
        return dict(distribution)
    return {v: Fraction(float(q)) for v, q in zip(nets, tilted, strict=True)}


def ruin_estimate(
    distribution: Mapping[Fraction, Fraction], samples: int, capital: Fraction | int,
    rounds: int, *, exact_mean: Fraction | None = None, seed: int | None = None,
    unit: Fraction | None = None, down: bool = True, plain: bool = True,
) -> Estimate:
    """The ruin probability of :func:`session_estimates`, alone.

    >>> walk = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    >>> e = ruin_estimate(walk, 10_000, 0, 3)
    >>> round(e.value, 4), e.interval[0] < 0.625 < e.interval[1]
    (0.625, True)
    """
    return session_estimates(distribution, samples, capital, rounds, exact_mean=exact_mean,
                             seed=seed, unit=unit, down=down, plain=plain).ruin


def session_estimates(
    distribution: Mapping[Fraction, Fraction], samples: int, capital: Fraction | int,
    rounds: int, *, exact_mean: Fraction | None = None, seed: int | None = None,
    quantiles: Mapping[float, Fraction] | None = None, unit: Fraction | None = None,
    down: bool = True, plain: bool = True,
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
    The same holds for P(ahead after the session), for the expected result (a ruined
    bank counted at -capital) and, for each ``quantiles``
    entry q: x (x the estimated quantile q of the result), for P(result <= x),
    whose interval :func:`quantile_interval` turns into one on the quantile.

    With ``unit`` (a multiple of the nets' lattice step), the chain runs on that coarser
    lattice, every sampled net rounded to it toward the bank's loss (``down``, a bound
    above the ruin) or its gain (a bound below): the rounding is a function of the sampled
    net, so the delta method and the control variate (on the nets as sampled) hold as
    they are (:func:`odds.money.bracket.ruin_bracket`).  ``plain`` False skips the pass
    that only the interval without the control variate needs (``Estimate.plain`` and
    ``raw`` are then the tilted round's, not the sampled one's).

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

    check_distribution(distribution)
    check_capital(capital, rounds)
    scale, steps = lattice(distribution)
    fine = sorted(steps)
    probs = np.array([float(steps[v]) for v in fine])
    probs /= probs.sum()
    x = np.array([float(Fraction(v) / scale) for v in fine])
    k = 1 if unit is None else coarse_factor(scale, unit)
    coarse = [(v // k if down else -(-v // k)) for v in fine]
    nets = sorted(set(coarse))
    # past the rounds' worst losses nothing depends on the capital (odds.money.ruin)
    start = min(math.floor(Fraction(capital) * scale / k), max(-nets[0], 0) * rounds)
    inv = np.array([nets.index(c) for c in coarse]) if k > 1 else np.arange(len(fine))
    width = start + rounds * max(max(nets), 0) + 1
    check_chain_size(width, len(nets), rounds, scale / k)
    check_estimate_size(width, len(nets), rounds)
    tilted = None if exact_mean is None else _tilt(probs, x, float(exact_mean))
    capitals = np.arange(width)
    figures = [(np.zeros(width), 1.0)]  # the ruin; then P(ahead), P(result <= each quantile)
    if quantiles is not None:
        figures.append(((capitals > start).astype(float), 0.0))
        figures += [((capitals - start <= math.floor(at * scale / k)).astype(float), 1.0)
                    for at in quantiles.values()]  # result <= at
        # the expected result, in money (a coarse step is k of the nets' steps)
        figures.append(((capitals - start).astype(float) * (k / float(scale)), -float(capital)))

    def passes(p: Any) -> list[tuple[float, Any]]:
        """Each figure and its gradient by sampled net, on the round ``p`` (fine nets): the
        chain on the coarse nets, the gradient carried back to the nets they round."""
        pc = np.bincount(inv, weights=p, minlength=len(nets))
        kept = _forward_kept(nets, pc, width, start, rounds)
        out = [_backward(kept, nets, pc, terminal, ruined) for terminal, ruined in figures]
        return [(value, grad[inv]) for value, grad in out]

    # One chain at a time (its masses by round are the memory): the sampled round's, then
    # the tilted one's.
    raws = passes(probs) if plain or tilted is None else None
    tilts: list[tuple[float, Any] | None] = [None] * len(figures)
    if tilted is not None:
        tilts = list(passes(tilted))

    def probability(i: int) -> bool:  # every figure is a probability but the expected result
        return i < len(figures) - 1 or quantiles is None

    if raws is None:  # only the control variate's interval is asked for
        found = [_delta(tilt, tilt, tilted, tilted, x, samples, seed, probability(i))
                 for i, tilt in enumerate(tilts) if tilt is not None]
    else:
        found = [_delta(raw, tilt, probs, tilted, x, samples, seed, probability(i))
                 for i, (raw, tilt) in enumerate(zip(raws, tilts, strict=True))]
    ruin = found[0]
    if quantiles is None:
        return SessionEstimates(ruin, ruin, {})
    ahead = found[1]
    out = {q: (at, e) for (q, at), e in zip(quantiles.items(), found[2:-1], strict=True)}
    return SessionEstimates(ruin, ahead, out, found[-1])


def coarse_factor(scale: Fraction, unit: Fraction) -> int:
    """How many steps of a lattice of ``scale`` steps a unit make one step of ``unit``.

    >>> coarse_factor(Fraction(1, 100), Fraction(400))
    4
    """
    k = Fraction(unit) * scale
    if k.denominator != 1 or k < 1:
        raise ValueError(f"a coarse lattice's step {unit} is not a whole multiple of the "
                         f"nets' step {1 / scale}")
    return int(k)


def check_estimate_size(width: int, nets: int, rounds: int) -> None:
    """A ``ValueError`` naming the bound unless an estimate's interval fits, before any work.

    ``width`` capitals on the lattice, ``nets`` nets a round (no longer bounded on their
    own: the passes keep one row of capitals at a time, not nets x capitals), ``rounds``
    rounds: every round's masses are kept, rounds x capitals.

    >>> check_estimate_size(1000, 101, 100)
    >>> check_estimate_size(1_000_000, 9, 100)
    Traceback (most recent call last):
    ...
    ValueError: an estimate's interval keeps 100 rounds x 1,000,000 capitals, more than the ...
    """
    if width * rounds > MAX_INFLUENCE:
        raise ValueError(
            f"an estimate's interval keeps {rounds:,} rounds x {width:,} capitals, more than "
            f"the {MAX_INFLUENCE:,} allowed: give fewer rounds or a smaller capital")


DIRECT = 1 << 16  # products of lengths up to which a pass is direct (exact sums), not FFT


def _dense(nets: list[int], probs: Any) -> Any:
    """The round's probabilities on every lattice step from its lowest net to its highest."""
    import numpy as np

    pmf = np.zeros(nets[-1] - nets[0] + 1)
    np.add.at(pmf, np.array(nets) - nets[0], probs)
    return pmf


def _forward_kept(nets: list[int], probs: Any, width: int, start: int, rounds: int) -> Any:
    """The chain forward in floats: the mass alive at each capital before each round (what
    falls below capital 0 is ruined).  ``nets`` sorted."""
    import numpy as np

    kept = np.zeros((rounds, width))
    pmf = _dense(nets, probs)
    lo = nets[0]
    n = 1 << (width + len(pmf)).bit_length()
    spectrum = np.fft.rfft(pmf, n) if width * len(pmf) > DIRECT else None
    alive = np.zeros(width)
    alive[start] = 1.0
    a, b = max(0, lo), min(width, width + len(pmf) - 1 + lo)  # capitals kept
    for r in range(rounds):
        kept[r] = alive
        if spectrum is None:
            full = np.convolve(alive, pmf)  # index j: capital j + lo
        else:
            full = np.maximum(np.fft.irfft(np.fft.rfft(alive, n) * spectrum, n), 0.0)
        alive = np.zeros(width)
        if a < b:
            alive[a:b] = full[a - lo: b - lo]
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
    d figure / d p_v = sum_r sum_c alive_r(c) (``ruined`` or V_{R-r-1}(c + v)).  A capital
    past the top of the lattice takes the top's value (no mass reaches it).  Both sums
    over capitals are correlations: direct while short, else by FFT (the gradient's summed
    over the rounds in the frequency domain, one inverse transform at the end).
    """
    import numpy as np

    rounds, width = kept.shape
    lo, hi = nets[0], nets[-1]
    pmf = _dense(nets, probs)
    span = hi - lo + 1
    value = np.array(terminal, dtype=float)
    below, above = max(0, -lo), max(0, hi)
    n = 1 << (width + span).bit_length()
    fft = width * span > DIRECT
    grad: Any = np.zeros(n // 2 + 1, dtype=complex) if fft else np.zeros(span)
    spectrum: Any = np.conj(np.fft.rfft(pmf, n)) if fft else None
    for r in reversed(range(rounds)):
        ext = np.concatenate([np.full(below, ruined), value, np.full(above, value[-1])])
        ext = ext[max(0, lo): width + hi - lo + max(0, lo)]  # index i: capital i + lo
        if fft:
            e = np.fft.rfft(ext, n)
            grad += e * np.conj(np.fft.rfft(kept[r], n))
            value = np.fft.irfft(e * spectrum, n)[:width]
        else:
            grad += np.correlate(ext, kept[r], "valid")
            value = np.correlate(ext, pmf, "valid")
    if fft:
        grad = np.fft.irfft(grad, n)[:span]
    start = int(np.argmax(kept[0]))
    return float(value[start]), grad[np.array(nets) - lo]


def _delta(raw: tuple[float, Any], tilt: tuple[float, Any] | None, probs: Any,
           tilted: Any | None, x: Any, samples: int, seed: int | None,
           probability: bool = True) -> Estimate:
    """The delta method's 95% interval.

    ``raw`` is (the figure, its gradient) on the sampled round ``probs``: the plain interval.
    ``tilt`` the same on the round ``tilted`` to the exact mean: the control variate's
    interval, whose variance is the gradient's less what the net ``x`` explains.  A
    ``probability`` is kept within [0, 1]; an amount (the expected result) is not.
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
        return (max(0.0, a), min(1.0, b)) if probability else (a, b)

    if probability:
        estimate = min(max(estimate, 0.0), 1.0)
    return Estimate(estimate, clip(estimate - half, estimate + half),
                    clip(value - half_plain, value + half_plain), narrowed, samples, seed, value)
