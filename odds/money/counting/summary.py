"""The shoe study's figures: statistics over rounds from the chunks' moment sums.

The figures are computed in float64 from the exact per-round EVs: **estimates**
over N shoes, each with its standard error.  Rounds of one shoe are not
independent, so every standard error treats the shoe as the unit: ratio
estimators over per-shoe sums (:func:`summarise`).

Per bet (:class:`BetStudy`): the distribution of the exact EV across rounds
(percentiles to 1e-5, histogram), how often it is positive and by how much;
the strategies, each with its bets per shoe, EV when betting, units won per
shoe and per 100 hands dealt; and the same strategies settled on the rounds
the shoes really dealt, so the standard error a simulation of outcomes would
have on the same shoes (``variance_factor``).  ``colon-share`` (the part of
the seat's EV its Colon pays add) is not a wager one can place alone: it gets
the distribution and the counts' correlations, not the betting figures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from odds.exact.bet_table import COLON_SHARE
from odds.money.counting.kernel import BUCKETS, COUNT_LIMIT, FINE, SPAN, SPREAD, ChunkSums
from odds.money.counting.plan import CountSystem, StudyPlan
from odds.money.volatility import interval95
from odds.rules.profile import Profile
from odds.rules.session_options import parse_stake

__all__ = ["MAX_BANKROLL_UNITS", "MAX_RAMP_SPREAD", "BetStudy", "Bankroll", "CountStudy",
           "summarise"]

MAX_RAMP_SPREAD = 1000
MAX_BANKROLL_UNITS = 10**12  # the bankroll in table units: far beyond any table

PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)
BINS = 20


def _ratio(s: np.ndarray, c: np.ndarray, cross: float, shoes: float) -> tuple[float, float]:
    """A ratio of per-shoe totals (sum s / sum c) and its standard error, the shoe as unit.

    ``s`` = [sum s, sum s^2, ...], ``c`` = [sum c, sum c^2], ``cross`` = sum s*c.
    """
    if not c[0]:
        return math.nan, math.nan
    mean = s[0] / c[0]
    if shoes < 2:
        return float(mean), math.nan
    resid = s[1] - 2 * mean * cross + mean * mean * c[1]
    se = math.sqrt(max(resid, 0.0) / (shoes * (shoes - 1))) / (c[0] / shoes)
    return float(mean), float(se)


def _mean(s: np.ndarray, shoes: float) -> tuple[float, float]:
    """A per-shoe mean and its standard error."""
    mean = s[0] / shoes
    if shoes < 2:
        return float(mean), math.nan
    var = max(s[1] / shoes - mean * mean, 0.0) * shoes / (shoes - 1)
    return float(mean), float(math.sqrt(var / shoes))


def _ms(pair: tuple[float, float]) -> dict[str, float]:
    return {"mean": pair[0], "se": pair[1]}


@dataclass(frozen=True)
class Bankroll:
    """The counter's money: the bankroll, the table's betting unit (both in money, exact),
    the risk of ruin to size the bet for, and the spread that caps the ramp (most units).

    >>> Bankroll.of("1000", "5", "1/20", 4).units
    Fraction(200, 1)
    >>> Bankroll.of(1, 5)
    Traceback (most recent call last):
    ...
    ValueError: the bankroll (1) is less than the betting unit (5): not one bet
    """

    bankroll: Fraction = Fraction(1000)
    unit: Fraction = Fraction(1)
    risk_of_ruin: Fraction = Fraction(1, 20)
    ramp_spread: int = SPREAD

    def __post_init__(self) -> None:
        if self.bankroll < self.unit:
            raise ValueError(f"the bankroll ({self.bankroll}) is less than the betting unit "
                             f"({self.unit}): not one bet")
        if self.bankroll / self.unit > MAX_BANKROLL_UNITS:
            raise ValueError(f"the bankroll is at most {MAX_BANKROLL_UNITS:,} betting units, "
                             f"not {self.bankroll / self.unit}")
        if not 0 < self.risk_of_ruin < 1:
            raise ValueError(f"the risk of ruin is strictly between 0 and 1, "
                             f"not {self.risk_of_ruin}")
        if isinstance(self.ramp_spread, bool) or not isinstance(self.ramp_spread, int) \
                or not 1 <= self.ramp_spread <= MAX_RAMP_SPREAD:
            raise ValueError(f"the ramp's spread is a whole number of units from 1 to "
                             f"{MAX_RAMP_SPREAD}, not {self.ramp_spread!r}")

    @classmethod
    def of(cls, bankroll: Any = 1000, unit: Any = 1, risk_of_ruin: Any = "1/20",
           ramp_spread: int = SPREAD) -> Bankroll:
        """From amounts as people type them (``1000``, ``2.5``, ``1/20``: the money parser)."""
        risk = parse_stake(risk_of_ruin, "risk of ruin")
        return cls(parse_stake(bankroll, "bankroll"), parse_stake(unit, "betting unit"), risk,
                   ramp_spread)

    @property
    def units(self) -> Fraction:
        """The bankroll in betting units."""
        return self.bankroll / self.unit


@dataclass(frozen=True)
class BetStudy:
    """Every figure of the study for one bet (floats: estimates over the shoes)."""

    bet: str
    wager: bool  # False for colon-share: part of the seat's EV, not a separate stake
    fresh_ev: Fraction
    effects: tuple[Fraction, ...]  # exact change per card of rank A..K removed, fresh shoe
    figures: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class CountStudy:
    """The shoe study: settings, sizes and one :class:`BetStudy` per bet."""

    profile: Profile
    packs: int
    shoes: int
    penetration: float | None  # None when the cut card is given as cards behind it
    seed: int
    cut: int  # a round starts while fewer than this many cards are out
    rounds: int
    rounds_per_shoe: tuple[float, float, int, int]  # mean, se, min, max
    bets: tuple[BetStudy, ...]
    cut_cards: int | None = None
    burn: int = 0
    system: CountSystem | None = None
    partial: bool = False  # stopped early: the figures are of ``shoes`` of ``shoes_planned``
    shoes_planned: int | None = None
    burn_rule: str = "none"
    count_burn: bool = True
    rounds_after_cut: int = 0
    bankroll: Bankroll = field(default_factory=Bankroll)
    cluster: dict[str, Any] | None = None  # where the chunks ran: scheduler, workers



def summarise(plan: StudyPlan, shoes: int, penetration: float | None, cut_cards: int | None,
               eor: Any, exact_effects: tuple[tuple[Fraction, ...], ...],
               total: ChunkSums, stopped: bool = False, bankroll: Bankroll | None = None,
               cluster: dict[str, Any] | None = None) -> CountStudy:
    """The study's figures from the sums of its chunks (``total``), one :class:`BetStudy` a bet.

    ``eor`` and ``exact_effects`` are the fresh shoe's effects of removal, as
    :func:`odds.money.counting.plan.study_plan` gives them; ``stopped`` marks a
    study ended early; ``bankroll`` sizes the counter's figures (:func:`_money`) and the
    ramp (:func:`_buckets`); ``cluster`` says where the chunks ran.
    """
    bankroll = bankroll or Bankroll()
    m = float(total.rounds[0])
    c = np.array([total.rounds[1], total.rounds[2]])
    n_rounds = float(total.rounds[1])
    studies = []
    for b, name in enumerate(plan.names):
        ps, pr = total.per_shoe, total.per_round
        wager = name != COLON_SHARE
        ev = ps[f"{name}:ev"]
        mean = _ratio(ev, c, ev[2], m)
        er = pr[f"{name}:ev"]
        sd = math.sqrt(max(er[1] / n_rounds - (er[0] / n_rounds) ** 2, 0.0))
        positive = _ratio(ps[f"{name}:positive"], c, ps[f"{name}:positive"][2], m)
        pos_rounds = positive[0] * n_rounds
        percentiles, hist = _percentiles(plan, b, total.hist[name], pr[f"{name}:ev:min"][0],
                                         pr[f"{name}:ev:max"][0])
        figures: dict[str, Any] = {
            "mean": _ms(mean),
            "sd": sd,
            "min": float(pr[f"{name}:ev:min"][0]),
            "max": float(pr[f"{name}:ev:max"][0]),
            "percentiles": percentiles,
            "histogram": hist,
            "positive_share": _ms(positive),
            "mean_when_positive": float(er[2] / pos_rounds) if pos_rounds >= 0.5 else None,
            "cut_card_effect": {"mean": mean[0] - plan.fresh_ev[b], "se": mean[1]},
        }
        settled = ps.get(f"{name}:settled")
        if settled is not None:  # a share's value on the rounds really dealt, per round
            figures["settled_per_round"] = _ms(_ratio(settled, c, settled[2], m))
        if wager:
            for sname in ("flat_bet", "perfect_information", "perfect_information_spread"):
                figures[sname] = _strategy(ps, f"{name}:{sname}", c, m)
            figures["perfect_information_spread"]["units"] = f"1-{SPREAD}"
        for est in ("linear_count", "tag_count"):
            corr = pr[f"{name}:{est}:corr"]
            entry: dict[str, Any] = {"correlation_with_exact_ev": _corr_from_sums(
                corr, er, n_rounds)}
            if wager:
                entry["sit_out"] = _strategy(ps, f"{name}:{est}:sit_out", c, m)
                entry["spread"] = _strategy(ps, f"{name}:{est}:spread", c, m)
                entry["spread"]["units"] = f"1-{SPREAD}"
            figures[est] = entry
        if wager and plan.system is not None:
            figures["system"] = _strategy(ps, f"{name}:system", c, m)
        for sname in ("flat_bet", "system"):
            outcome = ps.get(f"{name}:{sname}:outcome")
            if sname in figures and outcome is not None:
                _money(figures[sname], _shoe_variance(
                    outcome, m, ps.get(f"{name}:{sname}:outcome^3,4")), bankroll)
        variance = (plan.bets.table().counts(np.full((1, 13), 4 * plan.packs), packs=plan.packs)
                    .variance(name, 0) if wager and f"{name}:flat_bet:outcome" in ps else None)
        figures.update(_buckets(plan.counted_by(b), ps, pr, name, c, m, bankroll, variance))
        ex = exact_effects[b]
        tags = plan.tags[b]
        t = np.array(tags, dtype=np.float64)
        g = np.array(plan.effects[b])
        pivot = float(np.full(13, 4.0 * plan.packs) @ t / plan.size)
        k = plan.slope[b]
        ev0 = plan.fresh_ev[b]
        figures["count"] = {
            "effects_of_removal": [float(e) for e in g],
            "tags": list(tags),
            "tags_balanced": sum(tags) == 0,
            "pivot_per_card": pivot,
            "betting_correlation": _corr(t, g),
            "ev_per_tag_point": k,
            # The tags say EV > 0 when the true count (running count less pivot x cards
            # seen, per pack left) passes: EV0 + k (N0 - 1) / N * RC > 0, RC = TC * N / 52.
            "true_count_threshold": (-ev0 * 52 / (k * (plan.size - 1))) if k else None,
        }
        if plan.system is not None:
            figures["count"]["system_betting_correlation"] = _corr(
                np.array(plan.system.tags, dtype=np.float64), g)
        studies.append(BetStudy(name, wager, eor.expected_value(name), ex, figures))
    per_mean, per_se = _mean(np.array([total.rounds[1], total.rounds[2]]), m)
    return CountStudy(plan.profile, plan.packs, int(m), penetration, plan.seed, plan.stop,
                      int(n_rounds), (per_mean, per_se, int(total.rounds[3]),
                                      int(total.rounds[4])),
                      tuple(studies), cut_cards, plan.burn, plan.system,
                      partial=stopped or m < shoes, shoes_planned=shoes,
                      burn_rule=plan.burn_rule, count_burn=plan.count_burn,
                      rounds_after_cut=plan.rounds_after_cut, bankroll=bankroll,
                      cluster=cluster)


def _shoe_variance(o: np.ndarray, m: float, high: np.ndarray | None) -> tuple[float, float]:
    """The variance of a shoe's total (``o`` = [sum s, sum s^2, ...] over ``m`` shoes) and
    its standard error: from the fourth central moment when ``high`` = [sum s^3, sum s^4]
    is known (se^2 = (mu4 - mu2^2) / m), else as for normal totals (2 var^2 / (m - 1))."""
    if m < 2:
        return math.nan, math.nan
    mean = o[0] / m
    c2 = max(o[1] / m - mean * mean, 0.0)
    var = c2 * m / (m - 1)
    if high is None:
        return float(var), float(var * math.sqrt(2 / (m - 1)))
    c4 = high[1] / m - 4 * mean * high[0] / m + 6 * mean * mean * o[1] / m - 3 * mean ** 4
    return float(var), float(math.sqrt(max(c4 - c2 * c2, 0.0) / m))


def _money(entry: dict[str, Any], variance: tuple[float, float], bankroll: Bankroll) -> None:
    """A strategy's figures for a counter, added to ``entry`` (its units a shoe, mean
    ``mu``, from the exact EVs; the variance ``v`` of a shoe's result as settled):

    * ``sd_per_shoe``: sqrt(v);
    * ``n0``: v / mu^2, the shoes before the expected win is one standard deviation
      (Schlesinger, *Blackjack Attack*, ch. 2);
    * ``risk_of_ruin``: exp(-2 mu b / v) with b the bankroll in betting units, the
      diffusion approximation for i.i.d. shoe results (*Blackjack Attack*, ch. 4);
    * ``at_risk_of_ruin``: the betting unit that makes that risk the one asked for,
      2 mu B / (v ln(1/r)), and its win a shoe, 2 B / (n0 ln(1/r)), both in money.

    Each with its standard error by the delta method, ``mu`` and ``v`` taken as
    independent.  With no edge (mu <= 0) ruin is certain: no n0, no unit.
    """
    mu, se_mu = entry["units_per_shoe"]["mean"], entry["units_per_shoe"]["se"]
    v, se_v = variance
    sd = math.sqrt(v) if v > 0 else math.nan
    entry["sd_per_shoe"] = _bounded(sd, se_v / (2 * sd) if v > 0 else math.nan)
    if not (mu > 0 and v > 0):
        entry.update({"n0": None, "risk_of_ruin": {"mean": 1.0, "se": None, "ci95": None},
                      "at_risk_of_ruin": None})
        return
    a, b = se_mu / mu, se_v / v
    both, twice = math.hypot(a, b), math.hypot(2 * a, b)
    q = 2 * mu * float(bankroll.units) / v
    n0 = v / mu ** 2
    log = -math.log(float(bankroll.risk_of_ruin))
    win = 2 * float(bankroll.bankroll) / (n0 * log)
    unit = 2 * mu * float(bankroll.bankroll) / (v * log)
    entry["n0"] = _bounded(n0, n0 * twice)
    entry["risk_of_ruin"] = _bounded(math.exp(-q), math.exp(-q) * q * both, 1.0)
    entry["at_risk_of_ruin"] = {"win_per_shoe": _bounded(win, win * twice),
                                "unit": _bounded(unit, unit * both)}


def _bounded(mean: float, se: float, high: float = math.inf) -> dict[str, Any]:
    """An estimate of a figure that cannot be negative (nor above ``high``): its 95%
    interval mean +- 1.96 se cut to [0, high]."""
    ci = interval95(mean, se)
    return {"mean": mean, "se": se,
            "ci95": None if ci is None else [max(0.0, ci[0]), min(high, ci[1])]}


def _buckets(system: CountSystem, ps: dict[str, np.ndarray], pr: dict[str, np.ndarray],
             name: str, c: np.ndarray, m: float, bankroll: Bankroll,
             variance: Fraction | None) -> dict[str, Any]:
    """The count buckets' table (rounds, share of rounds, mean exact EV) and, for a wager
    (``variance``: its exact variance on the fresh shoe), the Kelly ramp: in a bucket of
    EV e > 0, round(b e / variance) units (b the bankroll in units; Kelly's bet is the
    advantage over the variance), at least 1 and at most the spread; 0 elsewhere.  The
    ramp's figures come from the per-shoe bucket sums, so they are exact functions of the
    rounds dealt; it is chosen on the shoes it is scored on, so they lean optimistic."""
    k = BUCKETS
    per = pr[f"{name}:buckets"].reshape(5, k)
    sums = ps[f"{name}:buckets:shoe"]
    first, w = sums[:3 * k], sums[3 * k:].reshape(3 * k, 3 * k)
    ones = np.ones(k)
    rows, stakes = [], np.zeros(k)
    for j in range(k):
        if not per[0, j]:
            continue
        share = _ratio(np.array([first[j], w[j, j]]), c, float(w[j, :k].sum()), m)
        ev = _ratio(np.array([first[k + j], w[k + j, k + j]]), np.array([first[j], w[j, j]]),
                    float(w[k + j, j]), m)
        row: dict[str, Any] = {"count": j - COUNT_LIMIT, "or_beyond": j in (0, k - 1),
                               "rounds": int(per[0, j]), "share": _ms(share), "ev": _ms(ev)}
        if variance:
            kelly = float(bankroll.units) * ev[0] / float(variance)
            stakes[j] = min(bankroll.ramp_spread, max(1, math.floor(kelly + 0.5))) \
                if ev[0] > 0 else 0
            row["ramp_units"] = int(stakes[j])
        rows.append(row)
    out: dict[str, Any] = {"count_buckets": {
        "count": "true" if system.balanced else "running",
        "deck_estimate": system.deck_estimate if system.balanced else None,
        "tags": list(system.tags), "buckets": rows}}
    if not variance:
        return out

    def block(i: int, j: int) -> np.ndarray:
        return w[i * k:(i + 1) * k, j * k:(j + 1) * k]

    def quad(i: int, j: int) -> float:
        return float(stakes @ block(i, j) @ stakes)

    def moments(i: int) -> np.ndarray:  # [sum s, sum s^2, sum s*c] of s = stakes . w_i
        return np.array([stakes @ first[i * k:(i + 1) * k], quad(i, i),
                         float(stakes @ block(i, 0) @ ones)])

    synthetic = {"ramp:units": moments(1), "ramp:stake": moments(0),
                 "ramp:units*stake": np.array([quad(1, 0)]), "ramp:outcome": moments(2)}
    ramp = _strategy(synthetic, "ramp", c, m)
    _money(ramp, _shoe_variance(synthetic["ramp:outcome"], m, None), bankroll)
    ramp["units"] = f"0-{bankroll.ramp_spread}"
    ramp["variance_fresh_shoe"] = f"{variance.numerator}/{variance.denominator}"
    out["kelly_ramp"] = ramp
    return out


def _strategy(ps: dict[str, np.ndarray], key: str, c: np.ndarray, m: float) -> dict[str, Any]:
    """A strategy's figures: per round dealt, bets per shoe, EV when betting (the bettor's mean
    EV of the rounds bet, kept as ``edge_when_betting``), per shoe, per 100."""
    units, stake = ps[f"{key}:units"], ps[f"{key}:stake"]
    per_round = _ratio(units, c, units[2], m)
    edge = _ratio(units, np.array([stake[0], stake[1]]), ps[f"{key}:units*stake"][0], m)
    out: dict[str, Any] = {
        "gain_per_round_dealt": _ms(per_round),
        "rounds_bet_share": _ms(_ratio(stake, c, stake[2], m)) if key.endswith(
            ("perfect_information", "sit_out", "system")) else None,
        "bets_per_shoe": _ms(_mean(stake, m)),
        "edge_when_betting": _ms(edge),
        "units_per_shoe": _ms(_mean(units, m)),
        "units_per_100_hands": {"mean": 100 * per_round[0], "se": 100 * per_round[1]},
        "mean_stake": float(stake[0] / c[0]) if c[0] else math.nan,
        "gain_per_unit_staked": edge[0],
    }
    if out["rounds_bet_share"] is None:
        del out["rounds_bet_share"]
    outcome = ps.get(f"{key}:outcome")
    if outcome is not None:
        sampled = _mean(outcome, m)
        exact_se = out["units_per_shoe"]["se"]
        out["sampled_outcomes"] = {
            "units_per_shoe": _ms(sampled),
            "variance_factor": (sampled[1] / exact_se) ** 2 if exact_se and
            not math.isnan(exact_se) and not math.isnan(sampled[1]) else None,
        }
    return out


def _corr_from_sums(est: np.ndarray, ev: np.ndarray, n: float) -> float | None:
    if n < 2:
        return None
    va = est[1] / n - (est[0] / n) ** 2
    vb = ev[1] / n - (ev[0] / n) ** 2
    if va <= 1e-300 or vb <= 1e-300:
        return None
    cov = est[2] / n - (est[0] / n) * (ev[0] / n)
    return float(max(-1.0, min(1.0, cov / math.sqrt(va * vb))))


def _percentiles(plan: StudyPlan, b: int, hist: np.ndarray, low: float,
                 high: float) -> tuple[dict[str, float], dict[str, Any]]:
    """Percentiles read from the fine histogram (to 1e-5), and a 20-bin histogram."""
    total = hist.sum()
    cum = np.cumsum(hist)
    base = plan.fresh_ev[b] - SPAN
    out = {}
    for p in PERCENTILES:
        j = int(np.searchsorted(cum, p / 100 * total))
        if j == 0:
            value = low
        elif j >= len(hist) - 1:
            value = high
        else:
            value = base + (j - 0.5) * FINE
        out[str(p)] = float(min(max(value, low), high))
    edges = np.linspace(low, high, BINS + 1) if high > low else np.array([low] * (BINS + 1))
    counts = np.zeros(BINS, dtype=np.int64)
    centres = base + (np.arange(len(hist)) - 0.5) * FINE
    centres[0], centres[-1] = low, high
    if high > low:
        where = np.clip(((centres - low) / (high - low) * BINS).astype(np.int64), 0, BINS - 1)
        counts = np.bincount(where, weights=hist, minlength=BINS).astype(np.int64)
    else:
        counts[0] = int(total)
    return out, {"edges": [float(e) for e in edges], "counts": [int(v) for v in counts],
                 "resolution": FINE}


def _corr(a: np.ndarray, b: np.ndarray) -> float | None:
    if len(a) < 2 or float(a.std()) == 0 or float(b.std()) == 0:
        return None
    return float(np.corrcoef(a, b)[0, 1])

