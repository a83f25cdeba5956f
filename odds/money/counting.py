"""The shoe study: is any bet worth counting?

N shoes of D packs are shuffled (:func:`odds.exact.rounds.shuffled_ranks`,
shoe k of seed S the same whatever the processes) and dealt to the cut card
(:func:`odds.exact.rounds.round_lengths`: a round starts while fewer than
``int(penetration * 52 D)`` cards are out and six are left).  Before every
round the shoe's composition is evaluated **exactly** by the batch engine
(:mod:`odds.exact.batch`), all the rounds of a batch of shoes in one call.
The study's summaries are then statistics over rounds, computed in float64
from those exact per-round EVs: **estimates** over N shoes, each with its
standard error (rounds of one shoe are not independent, so every standard
error treats the shoe as the unit: a ratio estimator over per-shoe sums).

For every bet of the profile (:func:`odds.exact.shoe_follow.bet_names`) it
reports

* the distribution of the exact EV across rounds (percentiles, histogram);
* how often the EV is positive and by how much (mean EV when positive);
* the gain of a player with perfect information, who stakes 1 unit exactly
  when the EV is positive (per round dealt), and of one who plays the 1-4
  spread below on the exact EV (the ceiling of any count's spread);
* the best linear count from the effects of removal of a fresh shoe
  (:func:`odds.exact.removal.removal`): with ``g_r`` the change in EV per
  card of rank r removed, a shoe of N cards less the seen cards S has, to
  first order, ``EV = EV0 + (N0 - 1) / N * sum(g_c for c in S)`` (exact for
  an EV linear in the proportions).  Its integer tags are ``g`` scaled to at
  most 3 in size and rounded; the betting correlation is the correlation of
  the tags with ``g`` over the 13 ranks; the estimate from the tags is
  ``EV0 + k (N0 - 1) / N * running count`` with ``k`` the least-squares
  slope of ``g`` on the tags.  Two ramps are played with it: sit out unless
  the count says EV > 0 (bet 0 or 1), and spread 1 to 4 units (4 when the
  count says the EV is positive and above the fresh shoe's, else 1);
* the cut-card effect: the mean EV per round dealt less the fresh shoe's EV
  (dealing to a cut card makes shoe compositions with more rounds weigh
  more).

``colon`` (the part of the seat's EV its Colon pays add) is not a wager one
can place alone: it gets the distribution and the count's correlation, not
the betting figures.

``jobs`` spreads the shoes over processes (concurrent.futures): the work is
a pure function of (profile, packs, penetration, seed, shoe range), so the
same chunks map onto a cluster engine such as Dask (one ``delayed`` or
``client.submit`` per chunk, then the same concatenation).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from odds.exact.batch import rules_table
from odds.exact.removal import removal
from odds.exact.rounds import check_dealt_packs, cut_position, round_lengths, shuffled_ranks
from odds.exact.shoe_follow import bet_names, bet_numerators
from odds.rules.profiles import Profile
from odds.rules.shoe import Shoe

__all__ = ["BetStudy", "CountStudy", "count_study", "deal_compositions"]

PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)
BINS = 20
TAG_LEVEL = 3
SPREAD = 4
SHOES_PER_BATCH = 64  # shoes evaluated in one call of the batch engine


def deal_compositions(profile: Profile, packs: int, penetration: float, seed: int,
                      index: int) -> np.ndarray:
    """The composition before each round of shoe ``index``: (rounds, 13) int64.

    >>> from odds.rules.profiles import BUILTIN
    >>> comps = deal_compositions(BUILTIN["standard"], 1, 0.75, 7, 0)
    >>> comps[0].tolist() == [4] * 13, int(comps[-1].sum()) > 13
    (True, True)
    """
    ranks = shuffled_ranks(packs, seed, index)
    size = len(ranks)
    lengths = round_lengths(profile, ranks, stop=min(cut_position(size, penetration), size - 5))
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.intp)
    seen = np.zeros((size + 1, 13), dtype=np.int64)
    seen[1:] = np.cumsum(np.eye(13, dtype=np.int64)[ranks], axis=0)
    return 4 * packs - seen[starts]


def _evaluate(profile: Profile, packs: int, penetration: float, seed: int,
              first: int, last: int) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """Shoes ``first..last-1``: rounds per shoe, compositions, EVs (bets x rounds)."""
    table = rules_table(profile)
    bets = bet_names(profile)
    per_shoe, comps_list, evs_list = [], [], []
    for start in range(first, last, SHOES_PER_BATCH):
        comps = [deal_compositions(profile, packs, penetration, seed, i)
                 for i in range(start, min(last, start + SHOES_PER_BATCH))]
        per_shoe += [len(c) for c in comps]
        stacked = np.vstack(comps)
        batch = table.counts(stacked)
        totals = np.array([float(t) for t in batch.totals])
        evs = np.empty((len(bets), len(stacked)))
        for b, bet in enumerate(bets):
            num, den = bet_numerators(batch, bet)
            # Exact numerators; the float is the exact EV rounded once.
            evs[b] = np.array([float(Fraction(int(n), den)) for n in num]) / totals \
                if num.dtype == object else num.astype(np.float64) / den / totals
        comps_list.append(stacked.astype(np.int16))
        evs_list.append(evs)
    return first, np.array(per_shoe, dtype=np.int64), np.vstack(comps_list), np.hstack(evs_list)


def _ratio(sums: np.ndarray, counts: np.ndarray) -> tuple[float, float]:
    """A per-round mean over shoes and its standard error, the shoe as the unit."""
    total = counts.sum()
    mean = float(sums.sum() / total) if total else math.nan
    m = len(counts)
    if m < 2 or not total:
        return mean, math.nan
    resid = sums - mean * counts
    se = math.sqrt(float((resid**2).sum()) / (m * (m - 1))) / float(counts.mean())
    return mean, se


@dataclass(frozen=True)
class BetStudy:
    """Every figure of the study for one bet (floats: estimates over the shoes)."""

    bet: str
    wager: bool  # False for colon: part of the seat's EV, not a separate stake
    fresh_ev: Fraction
    effects: tuple[Fraction, ...]  # exact change per card of rank A..K removed, fresh shoe
    figures: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class CountStudy:
    """The shoe study: settings, sizes and one :class:`BetStudy` per bet."""

    profile: Profile
    packs: int
    shoes: int
    penetration: float
    seed: int
    cut: int
    rounds: int
    rounds_per_shoe: tuple[float, float, int, int]  # mean, se, min, max
    bets: tuple[BetStudy, ...]


def _shoe_sums(values: np.ndarray, shoe_of: np.ndarray, shoes: int) -> np.ndarray:
    return np.bincount(shoe_of, weights=values, minlength=shoes)


def _bet_figures(ev: np.ndarray, estimates: dict[str, np.ndarray], shoe_of: np.ndarray,
                 per_shoe: np.ndarray, fresh: float, wager: bool) -> dict[str, Any]:
    shoes = len(per_shoe)
    counts = per_shoe.astype(np.float64)

    def mean_se(values: np.ndarray) -> dict[str, float]:
        mean, se = _ratio(_shoe_sums(values, shoe_of, shoes), counts)
        return {"mean": mean, "se": se}

    positive = ev > 0
    hist, edges = np.histogram(ev, bins=BINS)
    mean = mean_se(ev)
    figures: dict[str, Any] = {
        "mean": mean,
        "sd": float(ev.std()),
        "min": float(ev.min()),
        "max": float(ev.max()),
        "percentiles": {str(p): float(v) for p, v in zip(
            PERCENTILES, np.percentile(ev, PERCENTILES), strict=True)},
        "histogram": {"edges": [float(e) for e in edges], "counts": [int(c) for c in hist]},
        "positive_share": mean_se(positive.astype(np.float64)),
        "mean_when_positive": float(ev[positive].mean()) if positive.any() else None,
        "cut_card_effect": {"mean": mean["mean"] - fresh, "se": mean["se"]},
    }
    if wager:
        figures["flat_bet"] = {"gain_per_round_dealt": mean}
        figures["perfect_information"] = {
            "gain_per_round_dealt": mean_se(np.where(positive, ev, 0.0)),
            "rounds_bet_share": figures["positive_share"],
        }
        # The ceiling of any count's spread: the same 1-4 ramp on the exact EV.
        best = np.where(positive & (ev > fresh), float(SPREAD), 1.0)
        figures["perfect_information_spread"] = {
            "units": f"1-{SPREAD}",
            "gain_per_round_dealt": mean_se(best * ev),
            "mean_stake": float(best.mean()),
            "gain_per_unit_staked": float((best * ev).sum() / best.sum()),
        }
    for name, estimate in estimates.items():
        says = estimate > 0
        entry: dict[str, Any] = {"correlation_with_exact_ev": _corr(estimate, ev)}
        if wager:
            # Spread: the big stake when the count says the EV is positive and better
            # than a fresh shoe's (so the ramp means something in a game with an edge).
            stake = np.where(says & (estimate > fresh), float(SPREAD), 1.0)
            entry["sit_out"] = {
                "gain_per_round_dealt": mean_se(np.where(says, ev, 0.0)),
                "rounds_bet_share": mean_se(says.astype(np.float64)),
                "gain_per_unit_staked": float(ev[says].mean()) if says.any() else None,
            }
            entry["spread"] = {
                "units": f"1-{SPREAD}",
                "gain_per_round_dealt": mean_se(stake * ev),
                "mean_stake": float(stake.mean()),
                "gain_per_unit_staked": float((stake * ev).sum() / stake.sum()),
            }
        figures[name] = entry
    return figures


def _corr(a: np.ndarray, b: np.ndarray) -> float | None:
    if len(a) < 2 or float(a.std()) == 0 or float(b.std()) == 0:
        return None
    return float(np.corrcoef(a, b)[0, 1])


def integer_tags(effects: tuple[Fraction, ...], level: int = TAG_LEVEL) -> tuple[int, ...]:
    """The effects of removal scaled so the largest is ``level`` in size, rounded.

    >>> integer_tags((Fraction(1), Fraction(-3), Fraction(0), Fraction(2, 5)))
    (1, -3, 0, 0)
    """
    top = max((abs(e) for e in effects), default=Fraction(0))
    if not top:
        return tuple(0 for _ in effects)
    return tuple(int(round(e * level / top)) for e in effects)


def count_study(
    profile: Profile,
    packs: int,
    shoes: int,
    penetration: float = 0.8,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> CountStudy:
    """Deal ``shoes`` shoes to the cut card, evaluate every round exactly, summarise.

    ``progress`` is called with the number of shoes done so far.

    >>> from odds.rules.profiles import BUILTIN
    >>> study = count_study(BUILTIN["punto-banco"], 1, 20, 0.75, seed=1)
    >>> [b.bet for b in study.bets], study.shoes
    (['player', 'banker', 'tie'], 20)
    """
    check_dealt_packs(packs)
    if isinstance(shoes, bool) or not isinstance(shoes, int) or shoes < 1:
        raise ValueError(f"the study needs at least 1 shoe, not {shoes!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs is a whole number, 1 or more, not {jobs!r}")
    size = 52 * packs
    cut = cut_position(size, penetration)
    fresh = Shoe.packs_of(packs)
    rules_table(profile)  # fail early on a profile the batch engine cannot take
    eor = removal(profile, fresh)
    bets = eor.bets
    chunk = max(1, min(500, -(-shoes // (8 * jobs))))
    ranges = [(a, min(shoes, a + chunk)) for a in range(0, shoes, chunk)]
    parts: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    done = 0
    if jobs == 1:
        for a, b in ranges:
            first, per, comps, evs = _evaluate(profile, packs, penetration, seed, a, b)
            parts[first] = (per, comps, evs)
            done += b - a
            if progress:
                progress(done)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(_evaluate, profile, packs, penetration, seed, a, b): b - a
                       for a, b in ranges}
            for future in as_completed(futures):
                first, per, comps, evs = future.result()
                parts[first] = (per, comps, evs)
                done += futures[future]
                if progress:
                    progress(done)
    order = sorted(parts)
    per_shoe = np.concatenate([parts[k][0] for k in order])
    comps = np.vstack([parts[k][1] for k in order]).astype(np.int64)
    evs = np.hstack([parts[k][2] for k in order])
    shoe_of = np.repeat(np.arange(shoes), per_shoe)
    left = comps.sum(axis=1).astype(np.float64)
    seen = 4 * packs - comps  # cards of each rank seen before the round
    scale = (size - 1) / left
    studies = []
    pack = np.full(13, 4 * packs, dtype=np.float64)
    for b, bet in enumerate(bets):
        effects = tuple(e.change(bet) for e in eor.effects)
        g = np.array([float(e) for e in effects])
        tags = integer_tags(effects)
        # An unbalanced count is read against its expectation: tags less their mean per card.
        t = np.array(tags, dtype=np.float64)
        pivot = float(pack @ t / size)
        centred = t - pivot
        k = float(centred @ g / (centred @ centred)) if centred.any() else 0.0
        ev0 = float(eor.expected_value(bet))
        estimates = {
            "linear_count": ev0 + scale * (seen @ g),
            "tag_count": ev0 + k * scale * (seen @ centred),
        }
        wager = bet != "colon"
        figures = _bet_figures(evs[b], estimates, shoe_of, per_shoe, ev0, wager)
        figures["count"] = {
            "effects_of_removal": [float(e) for e in g],
            "tags": list(tags),
            "tags_balanced": sum(tags) == 0,
            "pivot_per_card": pivot,
            "betting_correlation": _corr(t, g),
            "ev_per_tag_point": k,
            # The tags say EV > 0 when the true count (running count less pivot x cards
            # seen, per pack left) passes: EV0 + k (N0 - 1) / N * RC > 0, RC = TC * N / 52.
            "true_count_threshold": (-ev0 * 52 / (k * (size - 1))) if k else None,
        }
        studies.append(BetStudy(bet, wager, eor.expected_value(bet), effects, figures))
    rounds_mean, rounds_se = float(per_shoe.mean()), (
        float(per_shoe.std(ddof=1) / math.sqrt(shoes)) if shoes > 1 else math.nan)
    return CountStudy(profile, packs, shoes, penetration, seed, cut, int(per_shoe.sum()),
                      (rounds_mean, rounds_se, int(per_shoe.min()), int(per_shoe.max())),
                      tuple(studies))
