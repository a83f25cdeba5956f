"""The shoe study: is any bet worth counting?

N shoes of D packs are shuffled (:func:`odds.exact.deal.shuffled_ranks`,
shoe k of seed S the same whatever the processes), ``burn`` cards are burned
face down, and the shoe is dealt to the cut card: a round starts while more
than ``cut_cards`` cards are left behind it (or, given as a share, while
fewer than ``int(penetration * 52 D)`` cards are out), and six are left.
Before every round the shoe's composition **as the player knows it** (the
full shoe less the cards seen; burned cards are unseen, so they stay in) is
evaluated **exactly** for every bet (:mod:`odds.exact.bet_table`), all the
rounds of a batch of shoes in one matrix product.

The study's figures are then statistics over rounds, computed in float64
from those exact per-round EVs: **estimates** over N shoes, each with its
standard error (rounds of one shoe are not independent, so every standard
error treats the shoe as the unit: ratio estimators over per-shoe sums).
Only moment sums per chunk of shoes are kept, never the rounds, so the
memory of a study does not grow with its size.

Per bet (any bet: :func:`odds.exact.bet_table.bet_set`):

* the distribution of the exact EV across rounds (percentiles to 1e-5,
  histogram), how often it is positive and by how much;
* the strategies, each with its bets per shoe, edge when betting, units won
  per shoe and per 100 hands dealt (all with standard errors):

  - ``perfect_information``: stake 1 exactly when the exact EV is positive
    (the ceiling of any count), and ``perfect_information_spread``, a 1-4
    ramp on the exact EV;
  - ``linear_count``: the best linear count from the effects of removal of
    a fresh shoe (:func:`odds.exact.removal.removal`): with ``g_r`` the
    change in EV per card of rank r removed, a shoe of N cards less the
    seen cards S has, to first order, ``EV = EV0 + (N0 - 1) / N * sum(g_c
    for c in S)``; ``tag_count``: its integer tags (``g`` scaled to at most
    3 and rounded), read against its expectation;
  - ``system``: a count system given as input (:class:`CountSystem`: tags
    per rank, balanced with a true-count trigger, or unbalanced from an
    initial running count with a running-count trigger);

* **exact EVs against sampled outcomes**: the same strategies settled on
  the rounds the shoes really dealt, so the standard error a simulation of
  outcomes would have on the same shoes, and the factor of shoes it would
  need for the standard error of the exact-EV study (``variance_factor``).

``colon-share`` (the part of the seat's EV its Colon pays add) is not a
wager one can place alone: it gets the distribution and the counts'
correlations, not the betting figures.

The work is a pure function of a :class:`StudyPlan` and a range of shoes
(:func:`evaluate_chunk`), whose results add up (:class:`ChunkSums`), so the
chunks run in one process, in a pool (``jobs``) or on a cluster, and the
figures never depend on how they were spread.
"""

from __future__ import annotations

import math
import os
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from odds.exact.bet_table import COLON_SHARE, BetSet, bet_set
from odds.exact.deal import check_dealt_packs, cut_position, deal_shoe
from odds.exact.removal import removal
from odds.rules.bets import Bet
from odds.rules.profiles import Profile, as_profile
from odds.rules.shoe import Shoe

__all__ = ["BetStudy", "CountGrid", "CountStudy", "CountSystem", "StudyPlan", "count_grid",
           "count_study",
           "deal_compositions", "evaluate_chunk", "study_plan"]

PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)
BINS = 20
TAG_LEVEL = 3
SPREAD = 4
SHOES_PER_BATCH = 64  # shoes evaluated in one call of the batch engine
MAX_SHOES = 10**9  # about 10^5 core-hours: beyond that a study is a cluster's, in pieces
MAX_JOBS = 64
FINE = 1e-5  # width of the EV histogram's bins (percentiles are read to it)
SPAN = 0.5  # the fine histogram spans the fresh EV +- SPAN; beyond, two overflow bins


@dataclass(frozen=True)
class CountSystem:
    """A count system as input: a tag per rank A..K and a trigger.

    Balanced tags (summing to 0 over a pack) are read as a **true count**:
    the running count per deck left, the decks left as the counter estimates
    them (``deck_estimate``: ``exact``, ``half`` or ``whole`` decks, at least
    one half or one deck).  Unbalanced tags are read as a **running count**
    from ``irc`` (the initial running count, default 0).  The bet is placed
    when the count is at least ``trigger``.

    >>> CountSystem((0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0), 4).balanced
    True
    >>> CountSystem((1,) * 12, 4)
    Traceback (most recent call last):
    ...
    ValueError: a count system has 13 tags, one per rank A..K, not 12
    """

    tags: tuple[int, ...]
    trigger: float
    irc: int | None = None
    deck_estimate: str = "half"

    def __post_init__(self) -> None:
        if len(self.tags) != 13:
            raise ValueError(f"a count system has 13 tags, one per rank A..K, not {len(self.tags)}")
        for t in self.tags:
            if isinstance(t, bool) or not isinstance(t, int) or abs(t) > 1000:
                raise ValueError(f"a tag is a whole number from -1000 to 1000, not {t!r}")
        if isinstance(self.trigger, bool) or not isinstance(self.trigger, (int, float)) \
                or not math.isfinite(self.trigger):
            raise ValueError(f"the trigger is a finite number, not {self.trigger!r}")
        if self.irc is not None and (isinstance(self.irc, bool) or not isinstance(self.irc, int)
                                     or abs(self.irc) > 10**6):
            raise ValueError(f"the initial running count is a whole number, not {self.irc!r}")
        if self.deck_estimate not in ("exact", "half", "whole"):
            raise ValueError(f"decks left are estimated 'exact', 'half' or 'whole', "
                             f"not {self.deck_estimate!r}")

    @property
    def balanced(self) -> bool:
        """True when the tags sum to 0 over a pack (a true count)."""
        return sum(self.tags) * 4 == 0

    def describe(self) -> str:
        """The system in words."""
        from odds.rules.cards import RANKS

        tags = " ".join(f"{r.value}:{t:+d}" for r, t in zip(RANKS, self.tags, strict=True))
        if self.balanced:
            return (f"tags {tags}; balanced: bet at a true count of {self.trigger:g} or more "
                    f"(decks left estimated to the {self.deck_estimate} deck)"
                    if self.deck_estimate != "exact" else
                    f"tags {tags}; balanced: bet at a true count of {self.trigger:g} or more "
                    "(decks left exact)")
        return (f"tags {tags}; unbalanced: running count from {self.irc or 0:+d}, bet at "
                f"{self.trigger:g} or more")


@dataclass(frozen=True)
class StudyPlan:
    """Everything a chunk of shoes needs: picklable, so chunks run anywhere."""

    profile: Profile
    bets: BetSet
    packs: int
    stop: int  # a round starts while fewer than ``stop`` cards are out (burn included)
    burn: int
    seed: int
    fresh_ev: tuple[float, ...]  # per reported name
    effects: tuple[tuple[float, ...], ...]  # per reported name: g_r, per rank A..K
    tags: tuple[tuple[int, ...], ...]  # per reported name: integer tags of g
    slope: tuple[float, ...]  # per reported name: EV per centred tag point
    system: CountSystem | None

    @property
    def names(self) -> tuple[str, ...]:
        return self.bets.names

    @property
    def size(self) -> int:
        return 52 * self.packs


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
    from odds.exact.deal import draw_arrays

    table = plan.bets.table()
    out = ChunkSums()
    player_draws, bank_draws = draw_arrays(plan.profile)
    for start in range(first, last, SHOES_PER_BATCH):
        dealt = [deal_shoe(plan.profile, plan.packs, plan.seed, i, stop=plan.stop, burn=plan.burn)
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
            if not wager:
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
                    ps[f"{key}:outcome*stake"] = _pair_moments(won, stake, shoe_of, shoes)
        out.add(part)
    return out


def _system_bets(system: CountSystem, comps: np.ndarray, packs: int) -> np.ndarray:
    """Where the count system says bet, per round."""
    tags = np.array(system.tags, dtype=np.float64)
    seen = (4 * packs - comps).astype(np.float64)
    running = seen @ tags
    if not system.balanced:
        return np.asarray(running + (system.irc or 0) >= system.trigger)
    decks = comps.sum(axis=1) / 52.0
    if system.deck_estimate == "half":
        decks = np.maximum(0.5, np.round(decks * 2) / 2)
    elif system.deck_estimate == "whole":
        decks = np.maximum(1.0, np.round(decks))
    return np.asarray(running / decks >= system.trigger)


def _outcomes(plan: StudyPlan, table: Any, slots: np.ndarray, player_draws: np.ndarray,
              bank_draws: np.ndarray) -> dict[str, np.ndarray]:
    """Each bet's net payout on the round really dealt (bets on suits: none, ranks only)."""
    from odds.rules.cards import POINTS

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


# -- the study -------------------------------------------------------------------


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


def study_plan(profile: Profile, packs: int, *, bets: Sequence[str | Bet] = ("all",),
               penetration: float = 0.8, cut_cards: int | None = None, burn: int = 0,
               seed: int = 0, system: CountSystem | None = None) -> tuple[StudyPlan, Any]:
    """Check the study's settings and make its plan (and the fresh shoe's effects of removal)."""
    check_dealt_packs(packs)
    size = 52 * packs
    for name, value in (("burn", burn), ("seed", seed)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} is a whole number, 0 or more, not {value!r}")
    if cut_cards is not None:
        if isinstance(cut_cards, bool) or not isinstance(cut_cards, int) or cut_cards < 0:
            raise ValueError(f"the cut card's place is a whole number of cards, not {cut_cards!r}")
        if burn + 6 + cut_cards > size:
            raise ValueError(
                f"a cut card with {cut_cards} cards behind it and {burn} burned has fewer than "
                f"6 cards ahead in a shoe of {size} cards (at most {size - burn - 6} behind it)"
            )
        stop = size - cut_cards
    else:
        stop = cut_position(size, penetration)
    if burn + 6 > size or burn >= stop:
        raise ValueError(f"burning {burn} cards leaves no round to deal before the cut card "
                         f"({stop} cards into a shoe of {size})")
    chosen = bet_set(profile, bets)
    fresh = Shoe.packs_of(packs)
    eor = removal(profile, fresh, list(chosen.bets) + ([COLON_SHARE] if chosen.share else []))
    names = chosen.names
    fresh_ev = tuple(float(eor.expected_value(n)) for n in names)
    effects: list[tuple[float, ...]] = []
    tags: list[tuple[int, ...]] = []
    slopes: list[float] = []
    exact_effects: list[tuple[Fraction, ...]] = []
    pack = np.full(13, 4 * packs, dtype=np.float64)
    for name in names:
        ex = tuple(e.change(name) for e in eor.effects)
        exact_effects.append(ex)
        g = np.array([float(e) for e in ex])
        tg = integer_tags(ex)
        t = np.array(tg, dtype=np.float64)
        centred = t - float(pack @ t / size)
        slopes.append(float(centred @ g / (centred @ centred)) if centred.any() else 0.0)
        effects.append(tuple(float(v) for v in g))
        tags.append(tg)
    plan = StudyPlan(profile, chosen, packs, stop, burn, seed, fresh_ev, tuple(effects),
                     tuple(tags), tuple(slopes), system)
    return plan, (eor, tuple(exact_effects))


def count_study(
    profile: Profile | str,
    packs: int,
    shoes: int,
    penetration: float = 0.8,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    *,
    bets: Sequence[str | Bet] = ("all",),
    cut_cards: int | None = None,
    burn: int = 0,
    system: CountSystem | None = None,
    save: str | Path | None = None,
    resume: bool = False,
    cluster: Any = None,
    cluster_timeout: float = 10.0,
    partial_on_stop: bool = False,
) -> CountStudy:
    """Deal ``shoes`` shoes to the cut card, evaluate every round exactly, summarise.

    ``progress`` is called with the number of shoes done so far (at least
    every half second while chunks run in other processes).

    The shoes run in chunks of a fixed size, in one process (``jobs=1``), in
    ``jobs`` processes, or on a Dask cluster (``cluster``: a scheduler's
    address ``tcp://host:port``, ``local:N`` for N worker processes on this
    machine, or an open :class:`odds.money.cluster.ClusterSession`); the
    chunks' sums are added in shoe order, so the figures never depend on
    where they ran.

    ``save`` names a folder that keeps every finished chunk
    (:mod:`odds.money.study_folder`); with ``resume`` the folder's study
    (the same settings, the same version) is continued where it stopped.
    With ``partial_on_stop``, an interrupt (KeyboardInterrupt or SystemExit,
    raised by ``progress`` or a signal) ends the study early with the
    figures of the chunks done (``partial`` is then True); without it, or
    before any chunk is done, the interrupt is raised again.

    >>> from odds.rules.profiles import BUILTIN
    >>> study = count_study(BUILTIN["punto-banco"], 1, 20, 0.75, seed=1,
    ...                     bets=["player", "banker", "tie"])
    >>> [b.bet for b in study.bets], study.shoes
    (['player', 'banker', 'tie'], 20)
    """
    profile = as_profile(profile)
    if isinstance(shoes, bool) or not isinstance(shoes, int) or not 1 <= shoes <= MAX_SHOES:
        raise ValueError(f"the study deals 1 to {MAX_SHOES:,} shoes, not {shoes!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= MAX_JOBS:
        raise ValueError(f"jobs is a whole number from 1 to {MAX_JOBS}, not {jobs!r}")
    if cluster is not None and jobs != 1:
        raise ValueError("give jobs or a cluster, not both (the cluster's workers are the jobs)")
    if resume and save is None:
        raise ValueError("resume needs the folder of the study to resume (save)")
    if isinstance(cluster, str):
        from odds.money.cluster import check_address, check_timeout

        check_address(cluster)
        check_timeout(cluster_timeout)
    plan, (eor, exact_effects) = study_plan(profile, packs, bets=bets, penetration=penetration,
                                            cut_cards=cut_cards, burn=burn, seed=seed,
                                            system=system)
    plan.bets.table()  # build once here: fail early, and a pool's workers fork with it
    shown_penetration = penetration if cut_cards is None else None
    # Chunks of a fixed size, added in shoe order: the figures do not depend on ``jobs``.
    chunk = SHOES_PER_BATCH
    ranges = [(a, min(shoes, a + chunk)) for a in range(0, shoes, chunk)]
    folder = None
    if save is not None:
        from odds.money.study_folder import StudyFolder, study_settings

        settings = study_settings(plan, shoes, shown_penetration, cut_cards, chunk)
        folder = (StudyFolder.resume if resume else StudyFolder.create)(save, settings)
    fold = _Fold(ranges, folder)
    waiting = set(fold.order)
    todo = [(a, b) for a, b in ranges if a in waiting and a not in fold.on_disk]
    stopped = False
    try:
        if progress:
            progress(fold.shoes_kept(ranges))
        if todo:
            runner = _runner(plan, jobs, cluster, cluster_timeout, len(todo))
            _run(todo, runner, fold, progress, fold.shoes_kept(ranges))
        fold.flush()
        total = fold.total
    except BaseException as exc:
        fold.checkpoint()  # every finished chunk is kept, whatever stopped the study
        if not (partial_on_stop and isinstance(exc, (KeyboardInterrupt, SystemExit))):
            raise
        total = fold.partial()
        if not total.rounds[0]:
            raise
        stopped = True
    fold.checkpoint()
    return _summarise(plan, shoes, shown_penetration, cut_cards, eor, exact_effects, total,
                      stopped)


CHECKPOINT_CHUNKS = 64  # chunks folded between two writes of the checkpoint (total.npz)
CHECKPOINT_SECONDS = 60.0


class _Fold:
    """Chunk sums added in shoe order, the figures' one order, as they come.

    Chunks that finish early wait in ``ready`` (at most the runner's window);
    with a save folder, each chunk is written the moment it finishes, and the
    fold itself every :data:`CHECKPOINT_CHUNKS` chunks or
    :data:`CHECKPOINT_SECONDS` (and when the study ends or stops).
    """

    def __init__(self, ranges: list[tuple[int, int]], folder: Any) -> None:
        self.folder = folder
        self.total = ChunkSums()
        start = 0
        self.on_disk: set[int] = set()
        if folder is not None:
            kept = folder.load_total()
            if kept is not None:
                self.total = kept
                start = folder.next
            self.on_disk = set(folder.saved())
        self.order = deque(a for a, _ in ranges if a >= start)
        self.ready: dict[int, ChunkSums] = {}
        self.since = 0
        self.last = time.monotonic()

    def shoes_kept(self, ranges: list[tuple[int, int]]) -> int:
        """Shoes already done: folded, waiting in order, or saved beyond the checkpoint."""
        head = self.order[0] if self.order else None
        return sum(b - a for a, b in ranges
                   if head is None or a < head or a in self.ready or a in self.on_disk)

    def put(self, first: int, sums: ChunkSums) -> None:
        if self.folder is not None:
            self.folder.write_chunk(first, sums)
        self.ready[first] = sums
        self.flush()

    def _take(self, first: int) -> ChunkSums | None:
        if first in self.ready:
            return self.ready.pop(first)
        if first in self.on_disk:
            self.on_disk.discard(first)
            sums: ChunkSums = self.folder.load_chunk(first)
            return sums
        return None

    def flush(self) -> None:
        while self.order:
            sums = self._take(self.order[0])
            if sums is None:
                break
            self.total.add(sums)
            self.order.popleft()
            self.since += 1
        if self.folder is not None and self.since and (
                self.since >= CHECKPOINT_CHUNKS or not self.order
                or time.monotonic() - self.last >= CHECKPOINT_SECONDS):
            self.checkpoint()

    def checkpoint(self) -> None:
        """Write the fold so far (a no-op without a folder or with nothing new)."""
        if self.folder is None or (not self.since and self.folder.total_written):
            return
        self.folder.write_total(self.total, self.order[0] if self.order else MAX_SHOES + 1)
        self.since = 0
        self.last = time.monotonic()

    def partial(self) -> ChunkSums:
        """The fold so far plus every chunk finished beyond it, in shoe order."""
        out = self.total.copy()
        for first in sorted(set(self.ready) | self.on_disk):
            if self.order and first >= self.order[0]:
                sums = self.ready.get(first)
                out.add(sums if sums is not None else self.folder.load_chunk(first))
        return out


class _Serial:
    """Chunks run here, one at a time."""

    slots = 1

    def __init__(self, plan: StudyPlan) -> None:
        self.plan = plan

    def submit(self, a: int, b: int) -> Future[ChunkSums]:
        done: Future[ChunkSums] = Future()
        done.set_result(evaluate_chunk(self.plan, a, b))
        return done

    def wait(self, pending: list[Any], timeout: float) -> set[Any]:
        return set(pending)

    def result(self, handle: Any) -> ChunkSums:
        out: ChunkSums = handle.result()
        return out

    def close(self, cancel: bool) -> None:
        pass


class _Pool(_Serial):
    """Chunks in ``jobs`` processes, a few in flight at a time (so that Ctrl-C stops the
    study at once: waiting chunks are cancelled, not run)."""

    def __init__(self, plan: StudyPlan, jobs: int, chunks: int) -> None:
        super().__init__(plan)
        self.slots = 2 * jobs
        self.pool = ProcessPoolExecutor(max_workers=min(jobs, chunks))

    def submit(self, a: int, b: int) -> Future[ChunkSums]:
        return self.pool.submit(evaluate_chunk, self.plan, a, b)

    def wait(self, pending: list[Any], timeout: float) -> set[Any]:
        finished, _ = wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)
        return finished

    def close(self, cancel: bool) -> None:
        if not cancel:
            self.pool.shutdown(wait=True)
            return
        # Waiting chunks are cancelled; the running ones (one a process, a second or
        # so) end before the processes exit.  Ending a process mid-chunk instead left,
        # when it was writing its result, half a message in the result pipe: the
        # pool's manager thread waited for the rest, and the interpreter for that
        # thread at exit (measured: 2 exits in 3 hung).
        self.pool.shutdown(wait=True, cancel_futures=True)


def _runner(plan: StudyPlan, jobs: int, cluster: Any, timeout: float,
            chunks: int) -> Any:
    if isinstance(cluster, str):
        from odds.money.cluster import ClusterSession

        return _Owned(ClusterSession.open(cluster, timeout), plan)
    if cluster is not None:
        return cluster.runner(plan)
    if jobs == 1:
        return _Serial(plan)
    return _Pool(plan, jobs, chunks)


class _Owned:
    """A cluster session opened for one study: closed with the study's runner."""

    def __init__(self, session: Any, plan: StudyPlan) -> None:
        self.session = session
        try:
            self.runner = session.runner(plan)
        except BaseException:
            session.close()
            raise
        self.slots = self.runner.slots

    def submit(self, a: int, b: int) -> Any:
        return self.runner.submit(a, b)

    def wait(self, pending: list[Any], timeout: float) -> set[Any]:
        out: set[Any] = self.runner.wait(pending, timeout)
        return out

    def result(self, handle: Any) -> ChunkSums:
        out: ChunkSums = self.runner.result(handle)
        return out

    def close(self, cancel: bool) -> None:
        try:
            self.runner.close(cancel)
        finally:
            self.session.close()


MAX_CELLS = 64  # cells of a study grid


@dataclass(frozen=True)
class CountGrid:
    """Studies of several rule variants with the same shoes and seed, one per cell.

    ``cells`` is the number asked for; fewer ``studies`` (or a partial last
    one) when the grid was stopped.
    """

    cells: int
    studies: tuple[CountStudy, ...]

    @property
    def partial(self) -> bool:
        return len(self.studies) < self.cells or any(s.partial for s in self.studies)


def count_grid(
    cells: Sequence[tuple[Profile, int, int | None]],
    shoes: int,
    penetration: float = 0.8,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    *,
    bets: Sequence[str | Bet] = ("all",),
    burn: int = 0,
    system: CountSystem | None = None,
    save: str | Path | None = None,
    resume: bool = False,
    cluster: Any = None,
    cluster_timeout: float = 10.0,
    partial_on_stop: bool = False,
) -> CountGrid:
    """One :func:`count_study` per cell ``(profile, packs, cut_cards)``, the same seed each.

    Each cell's figures are those of the single study (a cluster is reached
    once for the whole grid; with ``save``, cell k is kept in ``save/cell-k``).
    ``progress`` counts the shoes of every cell.

    >>> from odds.rules.profiles import BUILTIN
    >>> grid = count_grid([(BUILTIN["punto-banco"], 1, None), (BUILTIN["punto-banco"], 2, 20)],
    ...                   8, seed=1, bets=["tie"])
    >>> [(s.packs, s.cut) for s in grid.studies]
    [(1, 41), (2, 84)]
    """
    if not 1 <= len(cells) <= MAX_CELLS:
        raise ValueError(f"a study grid has 1 to {MAX_CELLS} cells, not {len(cells)}")
    if isinstance(shoes, int) and not isinstance(shoes, bool) and shoes * len(cells) > MAX_SHOES:
        raise ValueError(f"a study grid deals at most {MAX_SHOES:,} shoes in all, not "
                         f"{len(cells)} cells of {shoes:,}")
    for profile, packs, cut in cells:  # every cell checked before any shoe is dealt
        study_plan(profile, packs, bets=bets, penetration=penetration, cut_cards=cut, burn=burn,
                   seed=seed, system=system)
    folders: list[Path | None] = [None] * len(cells)
    if save is not None:
        folders = _grid_folders(Path(save), len(cells), resume)
    session = None
    if isinstance(cluster, str):
        from odds.money.cluster import ClusterSession

        session = cluster = ClusterSession.open(cluster, cluster_timeout)
    studies: list[CountStudy] = []
    try:
        for k, (profile, packs, cut) in enumerate(cells):
            base = k * shoes

            def step(done: int, base: int = base) -> None:
                if progress:
                    progress(base + done)

            folder = folders[k]
            try:
                study = count_study(
                    profile, packs, shoes, penetration, seed, jobs, step, bets=bets,
                    cut_cards=cut, burn=burn, system=system, save=folder,
                    resume=resume and folder is not None and (folder / "study.json").exists(),
                    cluster=cluster, cluster_timeout=cluster_timeout,
                    partial_on_stop=partial_on_stop)
            except (KeyboardInterrupt, SystemExit):
                if partial_on_stop and studies:
                    break
                raise
            studies.append(study)
            if study.partial:
                break
    finally:
        if session is not None:
            session.close()
    return CountGrid(len(cells), tuple(studies))


def _grid_folders(root: Path, cells: int, resume: bool) -> list[Path | None]:
    """``root/cell-k``: a new grid needs a new or empty folder; a resumed one, its own cells."""
    from odds.money.study_folder import FolderError

    names = [f"cell-{k:03d}" for k in range(cells)]
    flag = "--resume" if resume else "--save"
    if resume:
        if not (root / names[0]).is_dir():
            raise FolderError(f"{flag} {str(root)[:120]!r}: the folder holds no study grid "
                              "(no cell-000; start one with --save)")
        extra = sorted(set(os.listdir(root)) - set(names))
        if extra:
            raise FolderError(f"{flag} {str(root)[:120]!r}: the folder holds a grid of other "
                              f"cells ({extra[0]!r} is not one of the {cells} cells here); "
                              "give the same options")
    else:
        if root.exists() and (not root.is_dir() or any(root.iterdir())):
            raise FolderError(f"{flag} {str(root)[:120]!r}: give a new or empty folder")
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise FolderError(f"{flag} {str(root)[:120]!r}: cannot make the folder: "
                              f"{exc.strerror or exc}") from None
    return [root / n for n in names]


def _run(todo: list[tuple[int, int]], runner: Any, fold: _Fold,
         progress: Callable[[int], None] | None, done: int) -> None:
    """Run the chunks ``todo`` on ``runner`` and fold them in; ``progress`` as they finish."""
    pending: dict[Any, tuple[int, int]] = {}
    queue = deque(todo)
    try:
        while queue or pending:
            while queue and len(pending) + len(fold.ready) < runner.slots:
                a, b = queue.popleft()
                pending[runner.submit(a, b)] = (a, b)
            for handle in runner.wait(list(pending), 0.5):
                a, b = pending.pop(handle)
                fold.put(a, runner.result(handle))
                done += b - a
            if progress:
                progress(done)  # also lets the caller notice a signal while chunks run
    except BaseException:
        runner.close(cancel=True)
        raise
    runner.close(cancel=False)


def _summarise(plan: StudyPlan, shoes: int, penetration: float | None, cut_cards: int | None,
               eor: Any, exact_effects: tuple[tuple[Fraction, ...], ...],
               total: ChunkSums, stopped: bool = False) -> CountStudy:
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
                      partial=stopped or m < shoes, shoes_planned=shoes)


def _strategy(ps: dict[str, np.ndarray], key: str, c: np.ndarray, m: float) -> dict[str, Any]:
    """A strategy's figures: per round dealt, bets per shoe, edge when betting, per shoe, per 100."""
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


def integer_tags(effects: tuple[Fraction, ...], level: int = TAG_LEVEL) -> tuple[int, ...]:
    """The effects of removal scaled so the largest is ``level`` in size, rounded.

    >>> integer_tags((Fraction(1), Fraction(-3), Fraction(0), Fraction(2, 5)))
    (1, -3, 0, 0)
    """
    top = max((abs(e) for e in effects), default=Fraction(0))
    if not top:
        return tuple(0 for _ in effects)
    return tuple(int(round(e * level / top)) for e in effects)
