"""Frequency tests of tallies against the exact odds.

Chi-square goodness of fit (outcome categories, two-card and final values,
payouts), z-scores (win, push, loss, naturals, Colon, draws) and the expected
value with a confidence interval.  P-values are computed with mpmath, so a
tiny one is printed as what it is, not as 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath  # type: ignore[import-untyped]

from odds.exact.results import RoundOdds
from odds.sim.tallies import (
    OUTCOMES,
    Tally,
    category_names,
)

__all__ = [
    "Check",
    "SeatReport",
]

# -- frequency tests ----------------------------------------------------------


@dataclass(frozen=True)
class Check:
    """One frequency test: chi-square (``df`` set) or z (``df`` None).

    ``rows`` are (label, observed count, expected count, z) for display.
    """

    name: str
    statistic: float
    df: int | None
    p: Any  # mpmath mpf: exact-ish even when far below 1e-300
    rows: tuple[tuple[str, int, float, float], ...] = ()
    note: str = ""

    @property
    def p_text(self) -> str:
        """The p-value, 3 significant digits."""
        return p_text(self.p)


def p_text(p: Any) -> str:
    if p == 0:
        return "0"
    if p >= 0.001:
        return f"{float(p):.3f}"
    return str(mpmath.nstr(p, 3, min_fixed=1, max_fixed=0))


def z_text(z: float) -> str:
    """A z-score with sign and one decimal; an impossible cell shows as inf."""
    return "inf" if math.isinf(z) else f"{z:+.1f}"


def _z_p(z: float) -> Any:
    return mpmath.erfc(mpmath.mpf(abs(z)) / mpmath.sqrt(2))


def _chi_square(name: str, labels: Sequence[str], observed: Sequence[int],
                probs: Sequence[Fraction]) -> Check:
    n = sum(observed)
    rows = []
    impossible = []
    cells: list[tuple[int, float]] = []
    for label, o, pr in zip(labels, observed, probs, strict=True):
        e = float(pr) * n
        z = (o - e) / math.sqrt(e * (1 - float(pr))) if 0 < pr < 1 else (
            0.0 if o == e else math.inf)
        rows.append((label, o, e, z))
        if pr == 0:
            if o:
                impossible.append(label)
            continue
        cells.append((o, e))
    if impossible:
        return Check(name, math.inf, len(cells) - 1, mpmath.mpf(0), tuple(rows),
                     f"impossible under the rules: {', '.join(impossible)}")
    # Pool cells expected under 5 so the chi-square approximation holds.
    small = [c for c in cells if c[1] < 5]
    cells = [c for c in cells if c[1] >= 5]
    if small:
        pooled = (sum(o for o, _ in small), sum(e for _, e in small))
        if pooled[1] >= 5 or not cells:
            cells.append(pooled)
        else:
            j = min(range(len(cells)), key=lambda k: cells[k][1])
            cells[j] = (cells[j][0] + pooled[0], cells[j][1] + pooled[1])
    stat = sum((o - e) ** 2 / e for o, e in cells)
    df = len(cells) - 1
    if df < 1:
        return Check(name, 0.0, 0, mpmath.mpf(1), tuple(rows), "one cell: nothing to test")
    p = mpmath.gammainc(mpmath.mpf(df) / 2, mpmath.mpf(stat) / 2, mpmath.inf, regularized=True)
    return Check(name, stat, df, p, tuple(rows))


def _z_check(name: str, count: int, n: int, prob: Fraction) -> Check:
    e = float(prob) * n
    if prob in (0, 1):
        ok = count == e
        return Check(name, 0.0 if ok else math.inf, None, mpmath.mpf(1 if ok else 0),
                     ((name, count, e, 0.0 if ok else math.inf),),
                     "" if ok else "impossible under the rules")
    z = (count - e) / math.sqrt(n * float(prob) * (1 - float(prob)))
    if min(e, n - e) < 10:
        # Too few expected for the normal approximation: exact binomial tails,
        # P(X <= k) and P(X >= k) as regularized incomplete beta functions.
        q = mpmath.mpf(prob.numerator) / prob.denominator
        low = mpmath.mpf(1) if count == n else mpmath.betainc(count + 1, n - count, q, 1,
                                                              regularized=True)
        high = mpmath.mpf(1) if count == 0 else mpmath.betainc(count, n - count + 1, 0, q,
                                                               regularized=True)
        p = min(mpmath.mpf(1), 2 * min(low, high))
        return Check(name, z, None, p, ((name, count, e, z),), "exact binomial")
    return Check(name, z, None, _z_p(z), ((name, count, e, z),))


@dataclass(frozen=True)
class SeatReport:
    """The frequency tests of one seat's tally, and its EV."""

    seat: int
    rounds: int
    checks: tuple[Check, ...]
    ev_observed: float
    ev_exact: Fraction
    ev_interval: tuple[float, float] | None
    max_deviation: float  # largest |observed - exact| category frequency


def seat_report(tally: Tally, exact: RoundOdds, alpha: float) -> SeatReport:
    n = tally.rounds
    checks = []
    cats = exact.categories
    if tally.detailed:
        names = category_names(exact.profile)
        probs = [cats.get(k, Fraction(0)) for k in names]
        observed = [tally.categories.get(k, 0) for k in names]
        checks.append(_chi_square("categories", names, observed, probs))
    else:
        names = OUTCOMES
        probs = [exact.win, exact.push, exact.loss]
        observed = [tally.outcomes[k] for k in OUTCOMES]
        checks.append(_chi_square("outcomes", names, observed, probs))
    max_dev = max(abs(o / n - float(p)) for o, p in zip(observed, probs, strict=True)) if n else 0.0
    outcomes = tally.outcomes
    for name, prob in (("win", exact.win), ("push", exact.push), ("loss", exact.loss)):
        checks.append(_z_check(name, outcomes[name], n, prob))
    labels = [str(v) for v in range(10)]
    value_probs = {}
    for side in ("player", "bank"):
        table = exact.by_value(side)
        value_probs[side] = [table[v]["probability"] if v in table else Fraction(0)
                             for v in range(10)]
    finals = {"player": exact.player_final, "bank": exact.bank_final}
    nat = sorted(exact.profile.naturals)
    for side in ("player", "bank"):
        vec = getattr(tally, f"{side}_value")
        if vec is not None:
            checks.append(_chi_square(f"{side} two-card value", labels, vec, value_probs[side]))
            checks.append(_z_check(f"{side} natural", sum(vec[v] for v in nat), n,
                                   sum((value_probs[side][v] for v in nat), Fraction(0))))
        vec = getattr(tally, f"{side}_final")
        if vec is not None:
            checks.append(_chi_square(f"{side} final value", labels, vec, list(finals[side])))
    for name, prob in (
        ("player_colon", exact.player_colon), ("player_colon_nine", exact.player_colon_nine),
        ("bank_colon", exact.bank_colon), ("bank_colon_nine", exact.bank_colon_nine),
        ("player_draws", exact.player_draws), ("bank_draws", exact.bank_draws),
    ):
        count = getattr(tally, name)
        if count is not None:
            checks.append(_z_check(name.replace("_", " "), count, n, prob))
    ev_exact, var_exact = exact.bet_moments("player")
    ev_obs = math.nan
    interval = None
    if tally.payouts is not None:
        dist = exact.payout_distribution("player")
        amounts = sorted(set(dist) | set(tally.payouts), reverse=True)
        checks.append(_chi_square(
            "payouts", [str(a) for a in amounts], [tally.payouts.get(a, 0) for a in amounts],
            [dist.get(a, Fraction(0)) for a in amounts],
        ))
        total = sum((a * c for a, c in tally.payouts.items()), Fraction(0))
        ev_obs = float(total / n)
        second = float(sum((a * a * c for a, c in tally.payouts.items()), Fraction(0)) / n)
        sd = math.sqrt(max(second - ev_obs**2, 0.0) * n / max(n - 1, 1))
        half = float(mpmath.sqrt(2) * mpmath.erfinv(1 - alpha)) * sd / math.sqrt(n)
        interval = (ev_obs - half, ev_obs + half)
        if var_exact > 0:
            z = (ev_obs - float(ev_exact)) / math.sqrt(float(var_exact) / n)
            checks.append(Check("expected value", z, None, _z_p(z),
                                (("EV", 0, float(ev_exact), z),)))
    return SeatReport(tally.seat, n, tuple(checks), ev_obs, ev_exact, interval, max_dev)
