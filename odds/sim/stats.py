"""Frequency tests of tallies against the exact odds.

Chi-square goodness of fit (outcome categories, two-card and final values,
payouts), z-scores (win, push, loss, naturals, Colon, draws) and the expected
value with a confidence interval.  P-values are computed with mpmath, so a
tiny one is printed as what it is, not as 0.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath  # type: ignore[import-untyped]

from odds.exact.results import RoundOdds, mean_and_variance
from odds.rules.settle import category_outcome
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


def binomial_p(count: int, n: int, prob: Fraction | float) -> Any:
    """Two-sided exact binomial p-value: twice the tail of Bin(n, prob) on the side of
    ``count`` (``P(X >= count)`` above the mean, ``P(X <= count)`` below), at most 1.

    The normal approximation's tail is too thin for a rare event far out (a Colon
    nine expected 28 times and seen 50: normal p = 3e-5, binomial 2e-4), and the
    verdict multiplies the smallest p by the number of tests, so every z-test of a
    count takes its p from these tails.  The tail is summed term by term from
    ``count`` outwards, in float relative to its first term (an mpmath number, so
    p = 1e-8000 is not 0).

    >>> float(binomial_p(3, 10, Fraction(1, 2)))  # 2 * P(X <= 3) = 2 * 176/1024
    0.34375
    >>> print(mpmath.nstr(binomial_p(5000, 5000, Fraction(1, 2)), 3))  # 2 * 2**-5000
    1.42e-1505
    """
    import numpy as np

    q = float(prob)
    if not 0 < q < 1 or not 0 <= count <= n:
        raise ValueError(f"a binomial tail needs 0 < prob < 1 and 0 <= count <= n, not "
                         f"prob {prob}, count {count} of {n}")
    mean = n * q
    span = int(abs(count - mean) + 40 * math.sqrt(mean * (1 - q)) + 50)
    if count >= mean:
        j = np.arange(count, min(n, count + span), dtype=np.float64)  # pmf(j+1)/pmf(j)
        steps = np.log(n - j) - np.log(j + 1) + math.log(q / (1 - q))
    else:
        j = np.arange(count, max(0, count - span), -1, dtype=np.float64)  # pmf(j-1)/pmf(j)
        steps = np.log(j) - np.log(n - j + 1) + math.log((1 - q) / q)
    terms = float(1 + np.exp(np.cumsum(steps)).sum())
    with mpmath.workdps(30):
        k, m = mpmath.mpf(count), mpmath.mpf(n)
        lead = (mpmath.loggamma(m + 1) - mpmath.loggamma(k + 1) - mpmath.loggamma(m - k + 1)
                + k * mpmath.log(q) + (m - k) * mpmath.log1p(-q))
        tail = mpmath.exp(lead) * terms
    return min(mpmath.mpf(1), 2 * tail)


def _z_check(name: str, count: int, n: int, prob: Fraction) -> Check:
    e = float(prob) * n
    if prob in (0, 1):
        ok = count == e
        return Check(name, 0.0 if ok else math.inf, None, mpmath.mpf(1 if ok else 0),
                     ((name, count, e, 0.0 if ok else math.inf),),
                     "" if ok else "impossible under the rules")
    z = (count - e) / math.sqrt(n * float(prob) * (1 - float(prob)))
    # The p-value is the exact binomial tail whatever the count (binomial_p: the
    # normal tail is too thin far out for a rare event); the z is shown as a guide.
    note = "exact binomial" if min(e, n - e) < 10 else ""
    return Check(name, z, None, binomial_p(count, n, prob), ((name, count, e, z),), note)


@dataclass(frozen=True)
class SeatReport:
    """The frequency tests of one seat's tally, and its EV."""

    seat: int
    rounds: int
    checks: tuple[Check, ...]
    ev_observed: float
    ev_exact: Fraction | None  # a fresh shoe's (or a game's) exact EV; None on a continuous shoe
    ev_interval: tuple[float, float] | None
    max_deviation: float  # largest |observed - exact| category frequency
    ev_expected: float | None = None  # per-round model: mean of the rounds' exact EVs


def seat_report(tally: Tally, exact: RoundOdds, alpha: float,
                side_odds: Mapping[str, Mapping[Fraction, Fraction]] | None = None
                ) -> SeatReport:
    """The frequency tests of one seat's tally against a fresh shoe's exact odds.

    ``side_odds`` gives the exact payout distribution of each bet settled from the
    cards (:func:`odds.exact.bets.bet_odds`); the other bets pay by outcome.
    """
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
    for bet, pays in (tally.bets or {}).items():
        dist = (dict(side_odds[bet]) if side_odds and bet in side_odds else
                exact.payout_distribution(bet))
        amounts = sorted(set(dist) | set(pays), reverse=True)
        checks.append(_chi_square(
            f"bet {bet} payouts", [str(a) for a in amounts], [pays.get(a, 0) for a in amounts],
            [dist.get(a, Fraction(0)) for a in amounts]))
        bet_mean, bet_var = mean_and_variance(dist)
        bet_total = sum((a * c for a, c in pays.items()), Fraction(0))
        if bet_var > 0 and n:
            z = (float(bet_total / n) - float(bet_mean)) / math.sqrt(float(bet_var) / n)
            checks.append(Check(f"bet {bet} expected value", z, None, _z_p(z),
                                (("EV", 0, float(bet_mean), z),)))
    return SeatReport(tally.seat, n, tuple(checks), ev_obs, ev_exact, interval, max_dev)


# -- tests against per-round expectations (continuous shoes) ------------------


@dataclass(frozen=True)
class Moments:
    """Expected counts of a quantity's cells over some rounds, and their covariance."""

    expected: Any  # numpy (k,)
    cov: Any  # numpy (k, k)


def moments_of_rounds(probs: Any) -> Moments:
    """Independent rounds with per-round cell probabilities ``probs`` (n, k).

    The counts are a sum of independent multinomials: expected ``sum p_i``,
    covariance ``sum (diag p_i - p_i p_i^T)``.
    """
    import numpy as np

    p = np.asarray(probs, dtype=np.float64)
    e = p.sum(axis=0)
    return Moments(e, np.diag(e) - p.T @ p)


def _model_chi_square(name: str, labels: Sequence[str], observed: Sequence[int],
                      m: Moments) -> Check:
    """Generalised chi-square ``(O - E)^T S^+ (O - E)``, df the rank of S."""
    import numpy as np

    o = np.asarray(observed, dtype=np.float64)
    e, s = m.expected, m.cov
    var = np.maximum(np.diag(s), 0.0)
    rows = []
    impossible = []
    for k, label in enumerate(labels):
        if var[k] > 0:
            z = float((o[k] - e[k]) / math.sqrt(var[k]))
        else:
            z = 0.0 if abs(o[k] - e[k]) < 0.5 else math.inf
            if z:
                impossible.append(label)
        rows.append((label, int(o[k]), float(e[k]), z))
    if impossible:
        return Check(name, math.inf, len(labels) - 1, mpmath.mpf(0), tuple(rows),
                     f"impossible under the rules: {', '.join(impossible)}")
    keep = np.flatnonzero(var > 1e-12 * max(float(var.max()), 1e-300))
    # Pool cells expected under 5, as the fresh-shoe test does (_chi_square).
    small = [k for k in keep.tolist() if e[k] < 5]
    groups = [[k] for k in keep.tolist() if e[k] >= 5]
    if small:
        if sum(e[k] for k in small) >= 5 or not groups:
            groups.append(small)
        else:
            min(groups, key=lambda g: float(e[g].sum())).extend(small)
    if len(groups) < 2:
        return Check(name, 0.0, 0, mpmath.mpf(1), tuple(rows), "one cell: nothing to test")
    merge = np.zeros((len(o), len(groups)))
    for j, g in enumerate(groups):
        merge[g, j] = 1
    d = (o - e) @ merge
    sub = merge.T @ s @ merge
    # Cells sum to the number of rounds, so S is singular: drop the last cell.
    d, sub = d[:-1], sub[:-1, :-1]
    stat = float(d @ np.linalg.solve(sub, d))
    df = len(d)
    p = mpmath.gammainc(mpmath.mpf(df) / 2, mpmath.mpf(max(stat, 0.0)) / 2, mpmath.inf,
                        regularized=True)
    return Check(name, stat, df, p, tuple(rows))


def _model_z(name: str, count: float, expected: float, variance: float,
             rounds: int = 0) -> Check:
    if variance <= 0:
        ok = abs(count - expected) < 0.5
        return Check(name, 0.0 if ok else math.inf, None, mpmath.mpf(1 if ok else 0),
                     ((name, int(count), expected, 0.0 if ok else math.inf),),
                     "" if ok else "impossible under the rules")
    z = (count - expected) / math.sqrt(variance)
    if rounds and min(expected, rounds - expected) < 10 and 0 < expected < rounds:
        # Too few expected for the normal approximation: the exact binomial tails
        # of the rounds' mean probability, which bound those of a sum of
        # Bernoullis of that mean (Hoeffding 1956, theorem 4).
        prob = Fraction(expected / rounds).limit_denominator(1 << 60)
        check = _z_check(name, int(round(count)), rounds, prob)
        return Check(name, z, None, check.p, ((name, int(count), expected, z),), check.note)
    p = _z_p(z)
    if rounds and 0 < expected < rounds:
        # The normal tail is too thin far out for a rare event (binomial_p): the
        # larger of it and the binomial tail of the rounds' mean probability, which
        # keeps the skew and, in the normal one, the variance between shoes.
        p = max(p, binomial_p(min(rounds, max(0, int(round(count)))), rounds,
                              expected / rounds))
    return Check(name, z, None, p, ((name, int(count), expected, z),))


@dataclass(frozen=True)
class RoundModel:
    """Expected counts of every tested quantity over one seat's rounds.

    ``quantities`` maps a quantity (``categories``, ``player_value`` ...) to
    its cell labels and :class:`Moments`; ``scalars`` maps a yes/no quantity
    (``bank_draws`` ...) to (expected count, variance); ``ev`` is the player
    bet's (expected total, variance of the total) and ``amounts`` the payout
    cells' amounts.
    """

    rounds: int
    quantities: dict[str, tuple[tuple[str, ...], Moments]]
    scalars: dict[str, tuple[float, float]]
    amounts: tuple[Fraction, ...]
    ev: tuple[float, float] | None

    def plus(self, other: RoundModel) -> RoundModel:
        """The model of both sets of rounds (independent given the cards dealt: sums)."""
        quantities = {name: (labels, Moments(m.expected + other.quantities[name][1].expected,
                                             m.cov + other.quantities[name][1].cov))
                      for name, (labels, m) in self.quantities.items()}
        scalars = {name: (value if name.endswith("_values") else  # labels, not counts
                          (value[0] + other.scalars[name][0], value[1] + other.scalars[name][1]))
                   for name, value in self.scalars.items()}
        ev = (None if self.ev is None or other.ev is None else
              (self.ev[0] + other.ev[0], self.ev[1] + other.ev[1]))
        return RoundModel(self.rounds + other.rounds, quantities, scalars, self.amounts, ev)


def model_report(seat: int, tally: Tally, model: RoundModel, alpha: float) -> SeatReport:
    """The frequency tests of one seat's tally against a :class:`RoundModel`."""
    n = tally.rounds
    checks: list[Check] = []
    names, cat = model.quantities["categories"]
    if tally.detailed:
        observed = [tally.categories.get(k, 0) for k in names]
        checks.append(_model_chi_square("categories", names, observed, cat))
    import numpy as np

    outcome_of = np.array([OUTCOMES.index(category_outcome(k).value) for k in names])
    merge = np.zeros((len(names), 3))
    merge[np.arange(len(names)), outcome_of] = 1
    out = Moments(cat.expected @ merge, merge.T @ cat.cov @ merge)
    outcomes = tally.outcomes
    obs_out = [outcomes[k] for k in OUTCOMES]
    if not tally.detailed:
        checks.append(_model_chi_square("outcomes", OUTCOMES, obs_out, out))
    for k, name in enumerate(OUTCOMES):
        checks.append(_model_z(name, obs_out[k], float(out.expected[k]),
                               float(out.cov[k, k]), n))
    labels = tuple(str(v) for v in range(10))
    for side in ("player", "bank"):
        vec = getattr(tally, f"{side}_value")
        if vec is not None and f"{side}_value" in model.quantities:
            _, m = model.quantities[f"{side}_value"]
            checks.append(_model_chi_square(f"{side} two-card value", labels, vec, m))
            e, v = model.scalars[f"{side}_natural"]
            nat = model.scalars[f"{side}_natural_values"]
            checks.append(_model_z(f"{side} natural", sum(vec[int(x)] for x in nat), e, v, n))
        vec = getattr(tally, f"{side}_final")
        if vec is not None:
            _, m = model.quantities[f"{side}_final"]
            checks.append(_model_chi_square(f"{side} final value", labels, vec, m))
    for name in ("player_colon", "player_colon_nine", "bank_colon", "bank_colon_nine",
                 "player_draws", "bank_draws"):
        count = getattr(tally, name)
        if count is not None and name in model.scalars:
            e, v = model.scalars[name]
            checks.append(_model_z(name.replace("_", " "), count, e, v, n))
    ev_obs = math.nan
    interval = None
    if tally.payouts is not None and "payouts" in model.quantities:
        _, m = model.quantities["payouts"]
        amounts = sorted(set(model.amounts) | set(tally.payouts), reverse=True)
        index = {a: i for i, a in enumerate(model.amounts)}
        k = len(amounts)
        e_vec = np.zeros(k)
        cov = np.zeros((k, k))
        where = [index.get(a) for a in amounts]
        for i, wi in enumerate(where):
            if wi is None:
                continue
            e_vec[i] = m.expected[wi]
            for j, wj in enumerate(where):
                if wj is not None:
                    cov[i, j] = m.cov[wi, wj]
        checks.append(_model_chi_square("payouts", [str(a) for a in amounts],
                                        [tally.payouts.get(a, 0) for a in amounts],
                                        Moments(e_vec, cov)))
        total = sum((a * c for a, c in tally.payouts.items()), Fraction(0))
        ev_obs = float(total / n)
        if model.ev is not None:
            expected, variance = model.ev
            sd = math.sqrt(max(variance, 0.0)) / n
            half = float(mpmath.sqrt(2) * mpmath.erfinv(1 - alpha)) * sd
            interval = (ev_obs - half, ev_obs + half)
            if variance > 0:
                z = (float(total) - expected) / math.sqrt(variance)
                checks.append(Check("expected value", z, None, _z_p(z),
                                    (("EV", 0, expected / n, z),)))
    for bet, pays in (tally.bets or {}).items():
        bet_labels, m = model.quantities[f"bet:{bet}"]
        bet_amounts = [Fraction(a) for a in bet_labels]
        extra = sorted(set(pays) - set(bet_amounts), reverse=True)
        labels_all = [*bet_labels, *(str(a) for a in extra)]
        k = len(labels_all)
        e_all = np.zeros(k)
        cov_all = np.zeros((k, k))
        e_all[:len(bet_labels)] = m.expected
        cov_all[:len(bet_labels), :len(bet_labels)] = m.cov
        observed_all = [pays.get(a, 0) for a in [*bet_amounts, *extra]]
        checks.append(_model_chi_square(f"bet {bet} payouts", labels_all, observed_all,
                                        Moments(e_all, cov_all)))
        a = np.array([float(x) for x in bet_amounts])
        bet_mean = float(m.expected @ a)
        bet_var = float(a @ m.cov @ a)
        bet_total = float(sum((x * c for x, c in pays.items()), Fraction(0)))
        if bet_var > 0:
            z = (bet_total - bet_mean) / math.sqrt(bet_var)
            checks.append(Check(f"bet {bet} expected value", z, None, _z_p(z),
                                (("EV", 0, bet_mean / n, z),)))
    ev_expected = model.ev[0] / n if model.ev is not None and n else None
    return SeatReport(seat, n, tuple(checks), ev_obs, None, interval, 0.0, ev_expected)


# -- each card's position in its shoe (a log with a shoe column) --------------

POSITION_PARTS = 3  # the shoe cut in thirds by the cards dealt before a round
POSITION_TEST = "ranks by shoe position"


def dealt_ranks_moments(compositions: Any, drawn: Any) -> Moments:
    """The rank counts of ``drawn[i]`` cards dealt from the cards left ``compositions[i]``
    (multivariate hypergeometric), summed over the rounds ``i``.

    The first two cards of every hand of a round (each seat's and the bank's) are the
    next cards of the shoe whatever order they are dealt in: given the cards left, their
    ranks are a multivariate hypergeometric draw, whatever the shuffle should have been.
    """
    import numpy as np

    c = np.asarray(compositions, dtype=np.float64)
    k = np.asarray(drawn, dtype=np.float64)
    left = c.sum(axis=1)
    p = c / np.maximum(left, 1)[:, None]
    f = k * (left - k) / np.maximum(left - 1, 1)  # the finite-population factor times k
    expected = (k[:, None] * p).sum(axis=0)
    cov = np.diag((f[:, None] * p).sum(axis=0)) - (p * f[:, None]).T @ p
    return Moments(expected, cov)


def position_check(observed: Any, expected: Any, cov: Any, labels: Sequence[str]) -> Check:
    """The ranks of the cards dealt in each part of the shoe against the cards left before
    each round: one generalised chi-square per part, summed (the parts are disjoint rounds).

    ``observed`` and ``expected`` are (parts, ranks), ``cov`` (parts, ranks, ranks).
    A biased shuffle puts some ranks early in the shoe and others late; a fair one
    deals every card left with the same chance, wherever the round is.
    """
    stat, df, notes = 0.0, 0, []
    for part in range(len(observed)):
        if float(expected[part].sum()) == 0:
            continue
        one = _model_chi_square(POSITION_TEST, labels, [int(x) for x in observed[part]],
                                Moments(expected[part], cov[part]))
        if math.isinf(one.statistic):
            return Check(POSITION_TEST, math.inf, one.df, mpmath.mpf(0), (), one.note)
        stat += one.statistic
        df += one.df or 0
        notes.append(one.note)
    if df < 1:
        return Check(POSITION_TEST, 0.0, 0, mpmath.mpf(1), (), "one cell: nothing to test")
    p = mpmath.gammainc(mpmath.mpf(df) / 2, mpmath.mpf(max(stat, 0.0)) / 2, mpmath.inf,
                        regularized=True)
    return Check(POSITION_TEST, stat, df, p, (),
                 f"first two cards of every hand, the shoe in {POSITION_PARTS} parts")


# -- games with choices: the exact odds of given strategies --------------------


@dataclass(frozen=True)
class StrategyOdds:
    """Exact figures of one round under a (player strategy, bank strategy) pair.

    Computed by the caller (``odds.game``: the verifier does not import it)
    and handed in, so that a log of a game with choices is tested against
    the strategies it claims to play.
    """

    label: str  # e.g. "player standard-rule, bank optimal"
    win: Fraction
    push: Fraction
    loss: Fraction
    player_draws: Fraction
    bank_draws: Fraction
    # The seat's amounts for a win, a tie and a loss (odds.rules.settle.plain_amounts).
    amounts: tuple[Fraction, Fraction, Fraction] = (Fraction(1), Fraction(0), Fraction(-1))

    @property
    def expected_value(self) -> Fraction:
        """The player's expected net payout per unit stake."""
        return sum((p * a for p, a in zip((self.win, self.push, self.loss), self.amounts,
                                          strict=True)), Fraction(0))


def strategy_report(tally: Tally, odds: StrategyOdds, alpha: float) -> SeatReport:
    """One seat's frequencies against the exact odds of the strategies played."""
    n = tally.rounds
    probs = [odds.win, odds.push, odds.loss]
    observed = [tally.outcomes[k] for k in OUTCOMES]
    checks = [_chi_square("outcomes", OUTCOMES, observed, probs)]
    for name, count, prob in zip(OUTCOMES, observed, probs, strict=True):
        checks.append(_z_check(name, count, n, prob))
    for name, prob in (("player_draws", odds.player_draws), ("bank_draws", odds.bank_draws)):
        count = getattr(tally, name)
        if count is not None:
            checks.append(_z_check(name.replace("_", " "), count, n, prob))
    ev = odds.expected_value
    var = sum((p * a * a for p, a in zip(probs, odds.amounts, strict=True)), Fraction(0)) - ev * ev
    ev_obs = math.nan
    interval = None
    if tally.payouts is not None and n:
        total = sum((a * c for a, c in tally.payouts.items()), Fraction(0))
        ev_obs = float(total / n)
        second = float(sum((a * a * c for a, c in tally.payouts.items()), Fraction(0)) / n)
        sd = math.sqrt(max(second - ev_obs**2, 0.0) * n / max(n - 1, 1))
        half = float(mpmath.sqrt(2) * mpmath.erfinv(1 - alpha)) * sd / math.sqrt(n)
        interval = (ev_obs - half, ev_obs + half)
        if var > 0:
            z = (ev_obs - float(ev)) / math.sqrt(float(var) / n)
            checks.append(Check("expected value", z, None, _z_p(z), (("EV", 0, float(ev), z),)))
    return SeatReport(tally.seat, n, tuple(checks), ev_obs, ev, interval, 0.0)
