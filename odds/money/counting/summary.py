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
from odds.money.counting.kernel import FINE, SPAN, SPREAD, ChunkSums
from odds.money.counting.plan import CountSystem, StudyPlan
from odds.rules.profile import Profile

__all__ = ["BetStudy", "CountStudy", "summarise"]

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



def summarise(plan: StudyPlan, shoes: int, penetration: float | None, cut_cards: int | None,
               eor: Any, exact_effects: tuple[tuple[Fraction, ...], ...],
               total: ChunkSums, stopped: bool = False) -> CountStudy:
    """The study's figures from the sums of its chunks (``total``), one :class:`BetStudy` a bet.

    ``eor`` and ``exact_effects`` are the fresh shoe's effects of removal, as
    :func:`odds.money.counting.plan.study_plan` gives them; ``stopped`` marks a
    study ended early.
    """
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
                      rounds_after_cut=plan.rounds_after_cut)


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

