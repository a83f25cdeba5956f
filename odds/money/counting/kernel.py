"""The chunk kernel of the shoe study: shoes dealt, every round evaluated, moment sums.

Shoe k of a plan is shuffled (:func:`odds.exact.deal.shuffled_ranks`, seeded
by ``[seed, k]`` alone), ``burn`` cards are burned face down (or the casino
way: the first card shown, its value burned), and it is dealt to the cut card
(and ``rounds_after_cut`` rounds more).  Before every round the shoe's composition **as the player
knows it** (the full shoe less the cards seen; burned cards are unseen, so
they stay in) is evaluated **exactly** for every bet
(:mod:`odds.exact.bet_table`), all the rounds of a batch of shoes in one
matrix product; the strategies of the study are staked on those EVs, and
settled on the rounds really dealt too (:func:`evaluate_chunk`).

A chunk returns moment sums only (:class:`ChunkSums`), never the rounds, so
the memory of a study does not grow with its size, and two chunks' sums add:
the chunks run in one process, in a pool or on a cluster, and the figures
never depend on how they were spread.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from odds.exact.bet_table import COLON_SHARE
from odds.exact.deal import cut_position, deal_shoe, draw_arrays
from odds.money.counting.plan import CountSystem, StudyPlan
from odds.rules.cards import POINTS
from odds.rules.profile import Profile

__all__ = ["BUCKETS", "COUNT_LIMIT", "FINE", "SHOES_PER_BATCH", "SPAN", "SPREAD", "ChunkSums",
           "count_buckets", "deal_compositions", "evaluate_chunk"]

SPREAD = 4  # the spread strategies stake 1 to SPREAD units
SHOES_PER_BATCH = 64  # shoes evaluated in one call of the batch engine
FINE = 1e-5  # width of the EV histogram's bins (percentiles are read to it)
SPAN = 0.5  # the fine histogram spans the fresh EV +- SPAN; beyond, two overflow bins
COUNT_LIMIT = 20  # count buckets -20 .. 20; the two ends hold every count beyond them
BUCKETS = 2 * COUNT_LIMIT + 1


def deal_compositions(profile: Profile, packs: int, penetration: float, seed: int,
                      index: int, *, cut_cards: int | None = None, burn: int = 0) -> np.ndarray:
    """The composition the player knows before each round of shoe ``index``: (rounds, 13).

    >>> from odds.rules.profiles import BUILTIN
    >>> comps = deal_compositions(BUILTIN["standard"], 1, 0.75, 7, 0)
    >>> comps[0].tolist() == [4] * 13, int(comps[-1].sum()) > 13
    (True, True)
    """
    size = 52 * packs
    stop = size - cut_cards if cut_cards is not None else cut_position(size, penetration)
    comps, _ = deal_shoe(profile, packs, seed, index, stop=stop, burn=burn)
    return comps


# -- moment sums: what a chunk returns ---------------------------------------------


@dataclass
class ChunkSums:
    """Sums over the shoes of a chunk; two chunks' sums add (:meth:`add`).

    ``per_shoe[name]`` holds, per tracked quantity, ``[sum s, sum s^2, sum s*c]``
    over shoes (s a shoe's total, c its rounds); ``rounds`` ``[shoes, sum c,
    sum c^2, min c, max c]``; ``per_round[name]`` sums over rounds; ``hist``
    the fine EV histograms.
    """

    rounds: np.ndarray = field(default_factory=lambda: np.array([0.0, 0.0, 0.0, math.inf, -math.inf]))
    per_shoe: dict[str, np.ndarray] = field(default_factory=dict)
    per_round: dict[str, np.ndarray] = field(default_factory=dict)
    hist: dict[str, np.ndarray] = field(default_factory=dict)

    def add(self, other: ChunkSums) -> None:
        r = self.rounds
        o = other.rounds
        self.rounds = np.array([r[0] + o[0], r[1] + o[1], r[2] + o[2], min(r[3], o[3]),
                                max(r[4], o[4])])
        for mine, theirs in ((self.per_shoe, other.per_shoe), (self.per_round, other.per_round),
                             (self.hist, other.hist)):
            for k, v in theirs.items():
                if k in mine:
                    if k.endswith(":min"):
                        mine[k] = np.minimum(mine[k], v)
                    elif k.endswith(":max"):
                        mine[k] = np.maximum(mine[k], v)
                    else:
                        mine[k] = mine[k] + v
                else:
                    mine[k] = v.copy()

    def copy(self) -> ChunkSums:
        """A copy that adding to leaves this one as it is."""
        return ChunkSums(self.rounds.copy(), {k: v.copy() for k, v in self.per_shoe.items()},
                         {k: v.copy() for k, v in self.per_round.items()},
                         {k: v.copy() for k, v in self.hist.items()})


def _shoe_moments(values: np.ndarray, shoe_of: np.ndarray, shoes: int,
                  per: np.ndarray) -> np.ndarray:
    s = np.bincount(shoe_of, weights=values, minlength=shoes)
    return np.array([s.sum(), (s * s).sum(), (s * per).sum()])


def _pair_moments(a: np.ndarray, b: np.ndarray, shoe_of: np.ndarray, shoes: int) -> np.ndarray:
    """Per shoe sums of a and b: [sum sa*sb] (for a ratio of two per-shoe totals)."""
    sa = np.bincount(shoe_of, weights=a, minlength=shoes)
    sb = np.bincount(shoe_of, weights=b, minlength=shoes)
    return np.array([(sa * sb).sum()])


def _hist(plan: StudyPlan, b: int, ev: np.ndarray) -> np.ndarray:
    bins = int(round(2 * SPAN / FINE))
    low = plan.fresh_ev[b] - SPAN
    index = np.floor((ev - low) / FINE).astype(np.int64) + 1
    index = np.clip(index, 0, bins + 1)  # 0: below, bins + 1: above
    return np.bincount(index, minlength=bins + 2).astype(np.float64)


def evaluate_chunk(plan: StudyPlan, first: int, last: int) -> ChunkSums:
    """Shoes ``first..last-1`` of the plan, as moment sums (see :class:`ChunkSums`)."""
    table = plan.bets.table()
    out = ChunkSums()
    player_draws, bank_draws = draw_arrays(plan.profile)
    for start in range(first, last, SHOES_PER_BATCH):
        dealt = [deal_shoe(plan.profile, plan.packs, plan.seed, i, stop=plan.stop, burn=plan.burn,
                           burn_rule=plan.burn_rule, count_burn=plan.count_burn,
                           rounds_after_cut=plan.rounds_after_cut)
                 for i in range(start, min(last, start + SHOES_PER_BATCH))]
        per = np.array([len(c) for c, _ in dealt], dtype=np.float64)
        shoes = len(dealt)
        comps = np.vstack([c for c, _ in dealt])
        slots = np.vstack([s for _, s in dealt])
        shoe_of = np.repeat(np.arange(shoes), per.astype(np.int64))
        counts = table.counts(comps, packs=plan.packs)
        evs = plan.bets.float_evs(counts)
        pays = _outcomes(plan, table, slots, player_draws, bank_draws)
        part = ChunkSums(np.array([shoes, per.sum(), (per * per).sum(), per.min(), per.max()]))
        left = comps.sum(axis=1).astype(np.float64)
        seen = (4 * plan.packs - comps).astype(np.float64)  # cards of each rank seen
        unseen = left  # burned cards are unseen: in the count of cards left
        scale = (plan.size - 1) / unseen
        for b, name in enumerate(plan.names):
            ev = evs[name]
            g = np.array(plan.effects[b])
            t = np.array(plan.tags[b], dtype=np.float64)
            centred = t - float(np.full(13, 4.0 * plan.packs) @ t / plan.size)
            estimates = {
                "linear_count": plan.fresh_ev[b] + scale * (seen @ g),
                "tag_count": plan.fresh_ev[b] + plan.slope[b] * scale * (seen @ centred),
            }
            wager = name != COLON_SHARE
            pos = ev > 0
            pr = part.per_round
            pr[f"{name}:ev"] = np.array([ev.sum(), (ev * ev).sum(), np.where(pos, ev, 0.0).sum()])
            pr[f"{name}:ev:min"] = np.array([ev.min()])
            pr[f"{name}:ev:max"] = np.array([ev.max()])
            part.hist[name] = _hist(plan, b, ev)
            ps = part.per_shoe
            ps[f"{name}:ev"] = _shoe_moments(ev, shoe_of, shoes, per)
            ps[f"{name}:positive"] = _shoe_moments(pos.astype(np.float64), shoe_of, shoes, per)
            for est_name, est in estimates.items():
                pr[f"{name}:{est_name}:corr"] = np.array(
                    [est.sum(), (est * est).sum(), (est * ev).sum()])
            _bucket_sums(part, name, count_buckets(plan.counted_by(b), comps, plan.packs), ev,
                         pays.get(name), shoe_of, shoes)
            if not wager:
                share = pays.get(name)
                if share is not None:  # what the Colon pays added on the rounds dealt
                    ps[f"{name}:settled"] = _shoe_moments(share, shoe_of, shoes, per)
                continue
            stakes: dict[str, np.ndarray] = {
                "flat_bet": np.ones_like(ev),
                "perfect_information": pos.astype(np.float64),
                "perfect_information_spread": np.where(pos & (ev > plan.fresh_ev[b]),
                                                       float(SPREAD), 1.0),
            }
            for est_name, est in estimates.items():
                says = est > 0
                stakes[f"{est_name}:sit_out"] = says.astype(np.float64)
                stakes[f"{est_name}:spread"] = np.where(says & (est > plan.fresh_ev[b]),
                                                        float(SPREAD), 1.0)
            if plan.system is not None:
                stakes["system"] = _system_bets(plan.system, comps, plan.packs).astype(np.float64)
            pay = pays.get(name)
            for sname, stake in stakes.items():
                key = f"{name}:{sname}"
                units = stake * ev
                ps[f"{key}:units"] = _shoe_moments(units, shoe_of, shoes, per)
                ps[f"{key}:stake"] = _shoe_moments(stake, shoe_of, shoes, per)
                ps[f"{key}:units*stake"] = _pair_moments(units, stake, shoe_of, shoes)
                if pay is not None:
                    won = stake * pay
                    ps[f"{key}:outcome"] = _shoe_moments(won, shoe_of, shoes, per)
                    totals = np.bincount(shoe_of, weights=won, minlength=shoes)
                    ps[f"{key}:outcome^3,4"] = np.array([(totals ** 3).sum(),
                                                         (totals ** 4).sum()])
        out.add(part)
    return out


def _bucket_sums(part: ChunkSums, name: str, bucket: np.ndarray, ev: np.ndarray,
                 pay: np.ndarray | None, shoe_of: np.ndarray, shoes: int) -> None:
    """Per count bucket: sums over rounds (``name:buckets``: rounds, EV, EV^2, result,
    result^2, each :data:`BUCKETS` long) and, per shoe, the vector w = (rounds, EV, result)
    by bucket, kept as sum w and sum w w^T (``name:buckets:shoe``): any bet per bucket (a
    ramp) then has its per-shoe moments, ``s.w`` being a shoe's total under stakes s."""
    settled = np.zeros_like(ev) if pay is None else pay

    def by(weights: np.ndarray | None, index: np.ndarray, size: int) -> np.ndarray:
        return np.bincount(index, weights=weights, minlength=size).astype(np.float64)

    part.per_round[f"{name}:buckets"] = np.concatenate([
        by(None, bucket, BUCKETS), by(ev, bucket, BUCKETS), by(ev * ev, bucket, BUCKETS),
        by(settled, bucket, BUCKETS), by(settled * settled, bucket, BUCKETS)])
    cell = shoe_of * BUCKETS + bucket
    w = np.hstack([by(v, cell, shoes * BUCKETS).reshape(shoes, BUCKETS)
                   for v in (None, ev, settled)])
    part.per_shoe[f"{name}:buckets:shoe"] = np.concatenate([w.sum(axis=0), (w.T @ w).ravel()])


def count_buckets(system: CountSystem, comps: np.ndarray, packs: int) -> np.ndarray:
    """Each round's count bucket, 0 .. BUCKETS-1 for counts -COUNT_LIMIT .. COUNT_LIMIT:
    the true count rounded down for balanced tags (decks left as ``system`` estimates
    them), the running count from ``irc`` for unbalanced ones; the ends hold the counts
    beyond them.  Whole-number arithmetic, so a count on a bucket's edge is never rounded
    into the one below.

    >>> system = CountSystem((0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0), 4, deck_estimate="exact")
    >>> comps = np.array([[4] * 13, [4] * 7 + [2, 2] + [4] * 4])  # fresh; two 8s and 9s seen
    >>> (count_buckets(system, comps, 1) - COUNT_LIMIT).tolist()  # 8 * 52 / 48 = 8.67
    [0, 8]
    """
    tags = np.array(system.tags, dtype=np.int64)
    running = (4 * packs - np.asarray(comps, dtype=np.int64)) @ tags
    if not system.balanced:
        level = running + (system.irc or 0)
    else:
        left = np.asarray(comps, dtype=np.int64).sum(axis=1)
        if system.deck_estimate == "exact":
            level = np.floor_divide(running * 52, left)
        elif system.deck_estimate == "half":  # decks to the half deck, as _system_bets
            halves = np.maximum(1, np.round(left / 52.0 * 2)).astype(np.int64)
            level = np.floor_divide(2 * running, halves)
        else:
            whole = np.maximum(1, np.round(left / 52.0)).astype(np.int64)
            level = np.floor_divide(running, whole)
    return np.asarray(np.clip(level, -COUNT_LIMIT, COUNT_LIMIT) + COUNT_LIMIT, dtype=np.int64)


def _system_bets(system: CountSystem, comps: np.ndarray, packs: int) -> np.ndarray:
    """Where the count system says bet, per round."""
    tags = np.array(system.tags, dtype=np.float64)
    seen = (4 * packs - comps).astype(np.float64)
    running = seen @ tags
    if not system.balanced:
        trigger = system.trigger_at(seen.sum(axis=1)) if system.schedule else system.trigger
        return np.asarray(running + (system.irc or 0) >= trigger)
    decks = comps.sum(axis=1) / 52.0
    if system.deck_estimate == "half":
        decks = np.maximum(0.5, np.round(decks * 2) / 2)
    elif system.deck_estimate == "whole":
        decks = np.maximum(1.0, np.round(decks))
    return np.asarray(running / decks >= system.trigger)


def _outcomes(plan: StudyPlan, table: Any, slots: np.ndarray, player_draws: np.ndarray,
              bank_draws: np.ndarray) -> dict[str, np.ndarray]:
    """Each bet's net payout on the round really dealt (bets on suits: none, ranks only)."""
    points = np.array(POINTS, dtype=np.int64)
    ok = slots >= 0
    pt = np.where(ok, points[np.where(ok, slots, 0)], 0)
    pv = (pt[:, 0] + pt[:, 2]) % 10  # deal order: P B P B
    bv = (pt[:, 1] + pt[:, 3]) % 10
    pd = player_draws[pv, bv]
    x = np.where(pd, pt[:, 4], 10)
    bd = bank_draws[pv, bv, x]
    y = np.where(bd, np.where(pd, pt[:, 5], pt[:, 4]), 10)
    p_ranks = (slots[:, 0], slots[:, 2])
    b_ranks = (slots[:, 1], slots[:, 3])
    out: dict[str, np.ndarray] = {}
    settled = table.settle(pv, bv, x, y, p_ranks, b_ranks)
    for bet in plan.bets.bets:
        if bet.name in settled:
            out[bet.name] = settled[bet.name]
    if plan.bets.share and "player" in settled and "seat-plain" in settled:
        out[COLON_SHARE] = settled["player"] - settled["seat-plain"]
    return out

