"""Each round's exact probabilities given the cards left in the shoe, for many rounds at once.

The verifier needs, for every round of a continuous shoe, the probabilities
of every quantity it tests *given the cards already dealt from that shoe*.
:func:`round_probabilities` computes them for a batch of compositions:

* the round (categories, final values, draws, payouts) depends on the six
  dealt cards (player 1, player 2, bank 1, bank 2, player third, bank third;
  an unused third-card slot is dealt all the same, which leaves every
  probability unchanged, as in :mod:`odds.exact.engine`) through their
  *point values* only, except for a Colon of two zero-point cards, which
  depends on their ranks;
* so a table ``T[M, column]`` counts the ordered point sequences of each
  6-card point multiset ``M`` (5,005 of them) leading to each column, once
  per profile, and a composition's count of a column is
  ``sum_M W(M) T[M, column]`` with ``W(M) = prod_v ff(q_v, m_v)`` (``q_v``
  cards of point ``v`` left, falling factorials: drawing without
  replacement);
* ``W`` factorises over points 0-4 and 5-9, so the sum is one matrix product
  per split of the six cards between the two halves;
* for a pair of zero-point cards (10, J, Q, K) the chance that the ranks
  match, given everything else about the round, is ``F / (q0 (q0 - 1))`` with
  ``F = sum_r c_r (c_r - 1)`` over the four ranks (the zero-point cards of a
  round are a uniform sample of the ``q0`` left, whatever the other slots
  hold), and both pairs match with chance ``G / ff(q0, 4)``.

Two-card values and Colon classes are closed forms over rank pairs.

Arithmetic: weights and table entries are integers and the products are
float64 sums of integers, exact while the partial sums stay below 2**53 (a
fresh 8-pack shoe included); the final division and the sums beyond are
float64, so probabilities are good to about 1e-13 (tests compare them with
:func:`odds.exact.engine.round_odds`).  They are used only inside the
frequency tests' statistics, which are floats anyway.

This is the verifier's own per-round engine; the general batch engine
(``odds.exact.batch``) answers the same question for other callers.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any

import numpy as np
import numpy.typing as npt

from odds.exact.engine import colon_class
from odds.rules.cards import POINTS
from odds.rules.profiles import Profile
from odds.sim.audit import Reference
from odds.sim.stats import Moments, RoundModel, moments_of_rounds

__all__ = ["RoundProbabilities", "round_probabilities"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

SLOTS = 6
HALF = 5  # points 0-4 and 5-9
CHUNK = 1024  # compositions per matrix product (bounds the working memory)
SEQUENCE_BAND = 1 << 17  # point sequences at a time in the table's build
FACES = [r for r in range(13) if POINTS[r] == 0]
# rank index of the one rank worth each point 1..9 (A..9)
RANK_OF_POINT = {v: next(r for r in range(13) if POINTS[r] == v) for v in range(1, 10)}


def _multisets(size: int) -> list[tuple[int, ...]]:
    """Count vectors over HALF classes of every multiset of ``size`` items."""
    out = []
    for combo in combinations_with_replacement(range(HALF), size):
        counts = [0] * HALF
        for c in combo:
            counts[c] += 1
        out.append(tuple(counts))
    return out


@dataclass(frozen=True)
class _Table:
    """The rules as counts of ordered point sequences, by multiset half and column."""

    profile: Profile
    names: tuple[str, ...]  # categories
    amounts: tuple[Fraction, ...]  # distinct net payouts of the player bet
    keys: tuple[tuple[int, int, tuple[int, int, int, int]], ...]
    # keys: (player pair undetermined?, bank pair undetermined?, amount index by
    # scenario (player match, bank match) in order mm, mn, nm, nn)
    columns: int
    zero_same: int
    zero_diff: int
    lo_all: IntArray  # (462, HALF) every half's count vector (sizes 0..6 in order)
    offsets: IntArray  # where each size's halves start in lo_all
    # Blocks of columns, each over the multisets of the m slots it depends on:
    # (m, column indices, table (rows, len(columns)), where each split s starts);
    # rows of split s (s cards of points 0-4) are (high half h, low half l) at
    # h * L_s + l, weighing w_hi[h] * w_lo[l] out of ff(N, m).
    blocks: tuple[tuple[int, IntArray, FloatArray, IntArray], ...]

    # column layout: categories, player final 0-9, bank final 0-9, player draws,
    # bank draws, payout keys
    @property
    def pf(self) -> int:
        return len(self.names)

    @property
    def bf(self) -> int:
        return self.pf + 10

    @property
    def draws(self) -> int:
        return self.bf + 10

    @property
    def pay(self) -> int:
        return self.draws + 2


@lru_cache(maxsize=8)
def _table(profile: Profile) -> _Table:
    ref = Reference.of(profile)
    # Every point sequence of the six slots (10^6): kept in int8/int16, and
    # counted a band at a time, the build peaks 50 MB above where it starts
    # (in int64 it was 200 MB; all sequences at once, 76 MB).
    p1, p2, b1, b2, x, y = np.indices((10,) * SLOTS, dtype=np.int8).reshape(SLOTS, -1)
    pv = (p1 + p2) % 10
    bv = (b1 + b2) % 10
    pd = ref.player_draw[pv, bv]
    bd = ref.bank_draw[bv, np.where(pd, x, np.int8(10)), pv]
    pf = np.where(pd, (pv + x) % 10, pv)
    bf = np.where(bd, (bv + y) % 10, bv)
    cat = ref.cat.astype(np.int16)[pv, bv, pf, bf]
    outcome_of = np.array([("win", "push", "loss").index(n.split("_")[0]) for n in ref.names],
                          dtype=np.int8)
    o = outcome_of[cat]
    zero_same = colon_class(profile, FACES[0], FACES[0])
    zero_diff = colon_class(profile, FACES[0], FACES[1])
    det = np.zeros(10, dtype=np.int8)  # Colon class of an equal pair of each point
    for v in range(1, 10):
        det[v] = colon_class(profile, RANK_OF_POINT[v], RANK_OF_POINT[v])
    undetermined = zero_same != zero_diff
    det[0] = 3 if undetermined else zero_same
    pk = np.where(p1 != p2, np.int8(0), det[p1])
    bk = np.where(b1 != b2, np.int8(0), det[b1])
    # Payout keys: what each (outcome, player pair kind, bank pair kind) pays in
    # each scenario of the zero pairs' ranks.
    amounts: list[Fraction] = []
    keys: list[tuple[int, int, tuple[int, int, int, int]]] = []
    key_of = np.zeros((3, 4, 4), dtype=np.int16)
    for oo in range(3):
        for a in range(4):
            for b in range(4):
                scen = []
                for pm, bm in ((1, 1), (1, 0), (0, 1), (0, 0)):
                    pc = a if a < 3 else (zero_same if pm else zero_diff)
                    bc = b if b < 3 else (zero_same if bm else zero_diff)
                    amount = ref.pay[oo][pc][bc]
                    if amount not in amounts:
                        amounts.append(amount)
                    scen.append(amounts.index(amount))
                pz = a == 3 and (scen[0], scen[1]) != (scen[2], scen[3])
                bz = b == 3 and (scen[0], scen[2]) != (scen[1], scen[3])
                if not pz and not bz:
                    scen = [scen[0]] * 4  # the same amount whatever the ranks
                elif not pz:
                    scen = [scen[0], scen[1], scen[0], scen[1]]
                elif not bz:
                    scen = [scen[0], scen[0], scen[2], scen[2]]
                key = (int(pz), int(bz), (scen[0], scen[1], scen[2], scen[3]))
                if key not in keys:
                    keys.append(key)
                key_of[oo, a, b] = keys.index(key)
    names = ref.names
    columns = len(names) + 22 + len(keys)
    lows = [np.array(_multisets(s), dtype=np.int64).reshape(-1, HALF) for s in range(SLOTS + 1)]
    pf_col = len(names)
    pay_col = len(names) + 22
    slots = (p1, p2, b1, b2, x, y)
    shape = (10,) * SLOTS
    # A block's columns: (per-sequence column index or weights, fixed column).
    # column indices in int32: int8 plus an offset could wrap
    player = [(pf_col + pf.astype(np.int32), None), (pd, pf_col + 20)]
    bank = [(pf_col + 10 + bf.astype(np.int32), None), (bd, pf_col + 21)]
    whole = [(cat, None), (pay_col + key_of[o, pk, bk].astype(np.int32), None)]

    def depends(arrays: list[tuple[Any, Any]], kept: tuple[int, ...]) -> bool:
        """True when every array is the same whatever the slots outside ``kept`` hold."""
        drop = tuple(k for k in range(SLOTS) if k not in kept)
        for a, _ in arrays:
            grid = np.asarray(a).reshape(shape)
            first = grid[tuple(slice(0, 1) if k in drop else slice(None) for k in range(SLOTS))]
            if not np.array_equal(np.broadcast_to(first, shape), grid):
                return False
        return True

    blocks = []
    for arrays, choices in ((player, ((0, 1, 4), (0, 1, 2, 3, 4))),
                            (bank, ((2, 3, 5),)), (whole, ())):
        kept = next((c for c in choices if depends(arrays, c)), tuple(range(SLOTS)))
        blocks.append(_block(arrays, kept, slots, lows, columns))
    lo_all = np.concatenate(lows)
    offsets = np.cumsum([0] + [len(lo) for lo in lows])
    return _Table(profile, names, tuple(amounts), tuple(keys), columns, zero_same, zero_diff,
                  lo_all, offsets, tuple(blocks))


def _block(arrays: list[tuple[Any, Any]], kept: tuple[int, ...], slots: tuple[Any, ...],
           lows: list[IntArray], columns: int
           ) -> tuple[int, IntArray, FloatArray, IntArray]:
    """Count the sequences of the ``kept`` slots by point multiset and column."""
    m = len(kept)
    # The sequences with every other slot at 0 stand for all (the columns ignore them).
    at = np.ones(10**SLOTS, dtype=bool)
    for k in range(SLOTS):
        if k not in kept:
            at &= slots[k] == 0
    # int32 throughout: codes below 7^5, rows below 5,005 (sequences: up to 10^6)
    code = np.array([7**v for v in range(HALF)], dtype=np.int32)
    lookup = np.zeros(7**HALF, dtype=np.int32)  # a half's count code -> index in its size
    for lo in lows:
        lookup[lo @ code] = np.arange(len(lo))
    power = np.array([7**v for v in range(HALF)] * 2, dtype=np.int32)
    n_lo = np.array([len(lo) for lo in lows], dtype=np.int32)
    sizes = n_lo[: m + 1] * n_lo[m::-1]
    base = np.concatenate([[0], np.cumsum(sizes)])[:-1]
    rows = int(sizes.sum())
    used = sorted({int(c) for a, fixed in arrays
                   for c in (np.unique(np.asarray(a)[at]) if fixed is None else [fixed])})
    where = np.full(columns, -1, dtype=np.int64)
    where[used] = np.arange(len(used))
    table = np.zeros((rows, len(used)), dtype=np.float64)
    # The sequences a band at a time: the temporaries of 10^6 sequences at once
    # (a dozen arrays of 4-8 MB) made the verifier's build peak 30 MB higher.
    chosen = np.flatnonzero(at)
    for start in range(0, len(chosen), SEQUENCE_BAND):
        band = chosen[start:start + SEQUENCE_BAND]
        low_code = np.zeros(len(band), dtype=np.int32)
        high_code = np.zeros_like(low_code)
        low_size = np.zeros_like(low_code)
        for k in kept:
            slot = slots[k][band]
            low = slot < HALF
            low_size += low.astype(np.int32)
            low_code += np.where(low, power[slot], np.int32(0))
            high_code += np.where(low, np.int32(0), power[slot])
        row = base[low_size] + lookup[high_code] * n_lo[low_size] + lookup[low_code]
        for a, fixed in arrays:
            if fixed is None:
                col = where[np.asarray(a)[band]]
                table += np.bincount(row * len(used) + col, minlength=rows * len(used)).reshape(
                    rows, len(used))
            else:
                table[:, where[fixed]] += np.bincount(row, weights=np.asarray(a)[band],
                                                      minlength=rows)
    return (m, np.array(used, dtype=np.int64), table,
            np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64))


@dataclass(frozen=True)
class RoundProbabilities:
    """Per-round probabilities (one row per composition), float64.

    ``categories`` (n, len(names)); ``player_value``, ``bank_value`` (two-card
    values), ``player_final``, ``bank_final`` (n, 10); ``player_colon``,
    ``bank_colon`` (n, 3): no Colon, Colon, Colon nine; ``player_draws``,
    ``bank_draws`` (n,); ``payouts`` (n, len(amounts)), or None where the
    ranks are unknown (value-only cards) and a zero-point pair's Colon decides
    the payout.
    """

    names: tuple[str, ...]
    categories: FloatArray
    player_value: FloatArray
    bank_value: FloatArray
    player_final: FloatArray
    bank_final: FloatArray
    player_colon: FloatArray | None
    bank_colon: FloatArray | None
    player_draws: FloatArray
    bank_draws: FloatArray
    amounts: tuple[Fraction, ...]
    payouts: FloatArray | None
    compositions: IntArray | None = None  # the cards left before each round (None: values only)


def _falling(q: FloatArray, upto: int) -> FloatArray:
    """ff(q, m) for m = 0..upto, shape q.shape + (upto + 1,)."""
    out = np.ones(q.shape + (upto + 1,), dtype=np.float64)
    for m in range(1, upto + 1):
        out[..., m] = out[..., m - 1] * np.maximum(q - (m - 1), 0)
    return out


def _half_weights(ff: FloatArray, counts: IntArray) -> FloatArray:
    """W of each multiset (rows of ``counts``) for each composition: (n, len(counts)).

    Built class by class (multisets of classes 0..k of at most SLOTS items),
    which takes about a third of the products of one product per class.
    """
    steps, order = _half_steps(tuple(map(tuple, counts.tolist())))
    w = ff[:, 0, :]
    for v, (prev, m) in enumerate(steps, start=1):
        w = w[:, prev] * ff[:, v, m]
    return w[:, order]


@lru_cache(maxsize=4)
def _half_steps(counts: tuple[tuple[int, ...], ...]
                ) -> tuple[list[tuple[IntArray, IntArray]], IntArray]:
    """Index pairs of :func:`_half_weights`' steps, and the final order of ``counts``."""
    items: list[tuple[int, ...]] = [(m,) for m in range(SLOTS + 1)]
    steps = []
    for _ in range(1, HALF):
        prev, ms, nxt = [], [], []
        for i, item in enumerate(items):
            for m in range(SLOTS + 1 - sum(item)):
                prev.append(i)
                ms.append(m)
                nxt.append((*item, m))
        steps.append((np.array(prev, dtype=np.int64), np.array(ms, dtype=np.int64)))
        items = nxt
    where = {item: i for i, item in enumerate(items)}
    return steps, np.array([where[c] for c in counts], dtype=np.int64)


def round_probabilities(profile: Profile, compositions: npt.ArrayLike,
                        values_only: bool = False) -> RoundProbabilities:
    """Exact (to float64) probabilities of one round for each composition.

    ``compositions``: (n, 13) counts per rank A..K of the cards left; with
    ``values_only`` the ranks 10, J, Q, K are not told apart (their total is
    in column 9 and the face columns 10-12 are 0) and what needs them (Colon
    of zero-point cards) is None.

    >>> from odds.rules.profiles import BUILTIN
    >>> p = round_probabilities(BUILTIN["standard"], [[4] * 13, [3] + [4] * 12])
    >>> from odds.exact.engine import round_odds
    >>> from odds.rules.shoe import Shoe
    >>> exact = round_odds(BUILTIN["standard"], Shoe.packs_of(1))
    >>> bool(abs(p.bank_draws[0] - float(exact.bank_draws)) < 1e-14)
    True
    """
    try:
        from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - an optional speed-up
        return _round_probabilities(profile, compositions, values_only)
    # Many small products: one BLAS thread wastes less time than two spinning.
    with threadpool_limits(1):
        return _round_probabilities(profile, compositions, values_only)


def _round_probabilities(profile: Profile, compositions: npt.ArrayLike,
                         values_only: bool) -> RoundProbabilities:
    table = _table(profile)
    comps = np.asarray(compositions, dtype=np.int64).reshape(-1, 13)
    n = len(comps)
    points = np.zeros((n, 10), dtype=np.int64)
    for r in range(13):
        points[:, POINTS[r]] += comps[:, r]
    total = points.sum(axis=1).astype(np.float64)
    cols = table.columns
    counts = np.zeros((n, cols), dtype=np.float64)
    for start in range(0, n, CHUNK):
        q = points[start:start + CHUNK].astype(np.float64)
        ff = _falling(q, SLOTS)
        w_lo = _half_weights(ff[:, :HALF], table.lo_all)
        w_hi = _half_weights(ff[:, HALF:], table.lo_all)
        falling = _falling(total[start:start + CHUNK], SLOTS)
        for m, used, part, starts in table.blocks:
            acc = np.zeros((len(q), len(used)), dtype=np.float64)
            for s in range(m + 1):
                # rows of split s: (high half h, low half l) at h * L + l
                low = w_lo[:, table.offsets[s]:table.offsets[s + 1]]
                high = w_hi[:, table.offsets[m - s]:table.offsets[m - s + 1]]
                both = (high[:, :, None] * low[:, None, :]).reshape(len(q), -1)
                acc += both @ part[starts[s]:starts[s + 1]]
            with np.errstate(invalid="ignore", divide="ignore"):
                counts[start:start + CHUNK, used] = acc / falling[:, m, None]
    probs = counts
    c = len(table.names)
    # Two-card values and Colon classes: closed forms over pairs.
    pairs = _falling(total, 2)[:, 2]
    qf = points.astype(np.float64)
    values = np.zeros((n, 10), dtype=np.float64)
    for u in range(10):
        for w in range(10):
            values[:, (u + w) % 10] += qf[:, u] * (qf[:, w] - (u == w))
    values /= pairs[:, None]
    colon: FloatArray | None = None
    payouts: FloatArray | None = None
    q0 = qf[:, 0]
    keyed = probs[:, c + 22:]
    if not values_only or table.zero_same == table.zero_diff:
        cf = comps.astype(np.float64)
        colon = np.zeros((n, 3), dtype=np.float64)
        for r in range(13):
            for s2 in range(13):
                k = colon_class(profile, r, s2)
                colon[:, k] += cf[:, r] * (cf[:, s2] - (r == s2))
        colon /= pairs[:, None]
        # Zero-pair scenarios: P(match) and P(both match).
        face = cf[:, FACES]
        f2 = (face * (face - 1)).sum(axis=1)
        f4 = (face * (face - 1) * (face - 2) * (face - 3)).sum(axis=1)
        g = f4 + f2 * f2 - ((face * (face - 1)) ** 2).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            rho = np.where(q0 >= 2, f2 / np.maximum(q0 * (q0 - 1), 1), 0.0)
            both = np.where(q0 >= 4, g / np.maximum(q0 * (q0 - 1) * (q0 - 2) * (q0 - 3), 1),
                            0.0)
        payouts = np.zeros((n, len(table.amounts)), dtype=np.float64)
        for j, (pz, bz, scen) in enumerate(table.keys):
            pj = keyed[:, j]
            scen_w: tuple[Any, Any, Any, Any]
            if pz and bz:
                scen_w = (both, rho - both, rho - both, 1 - 2 * rho + both)
            elif pz:
                scen_w = (rho, np.zeros(n), 1 - rho, np.zeros(n))
            elif bz:
                scen_w = (rho, 1 - rho, np.zeros(n), np.zeros(n))
            else:
                scen_w = (np.zeros(n), np.zeros(n), np.zeros(n), np.ones(n))
            for a, wt in zip(scen, scen_w, strict=True):
                payouts[:, a] += pj * wt
    return RoundProbabilities(
        names=table.names,
        categories=probs[:, :c],
        player_value=values,
        bank_value=values,
        player_final=probs[:, c:c + 10],
        bank_final=probs[:, c + 10:c + 20],
        player_colon=colon,
        bank_colon=colon,
        player_draws=probs[:, c + 20],
        bank_draws=probs[:, c + 21],
        amounts=table.amounts,
        payouts=payouts,
        compositions=None if values_only else comps,
    )


# -- models of a seat's counts ------------------------------------------------


def _quantities(profile: Profile, probs: RoundProbabilities, rows: Any,
                bets: tuple[str, ...] = ()) -> dict[str, Any]:
    """Per-round cell probabilities of every tested quantity, for the given rows."""
    from odds.sim.audit import bet_outcomes

    rows = np.asarray(rows)
    if len(rows) == len(probs.categories) and np.array_equal(rows, np.arange(len(rows))):
        rows = slice(None)  # every round, in order: views, not copies
    nat = sorted(profile.naturals)
    out: dict[str, Any] = {
        "categories": probs.categories[rows],
        "player_value": probs.player_value[rows],
        "bank_value": probs.bank_value[rows],
        "player_final": probs.player_final[rows],
        "bank_final": probs.bank_final[rows],
        "player_natural": probs.player_value[rows][:, nat].sum(axis=1),
        "bank_natural": probs.bank_value[rows][:, nat].sum(axis=1),
        "player_draws": probs.player_draws[rows],
        "bank_draws": probs.bank_draws[rows],
    }
    if probs.player_colon is not None and probs.bank_colon is not None:
        out["player_colon"] = probs.player_colon[rows][:, 1:].sum(axis=1)
        out["player_colon_nine"] = probs.player_colon[rows][:, 2]
        out["bank_colon"] = probs.bank_colon[rows][:, 1:].sum(axis=1)
        out["bank_colon_nine"] = probs.bank_colon[rows][:, 2]
    if probs.payouts is not None:
        out["payouts"] = probs.payouts[rows]
    outcome = np.array([("win", "push", "loss").index(n.split("_")[0]) for n in probs.names])
    by_outcome = np.zeros((len(probs.names), 3))
    by_outcome[np.arange(len(probs.names)), outcome] = 1
    outcomes = out["categories"] @ by_outcome
    for bet in bets:
        if bet not in ("banker", "tie"):  # a side bet: the batch engine's columns
            out[f"bet:{bet}"] = side_bet_cells(profile, bet, probs, rows)
            continue
        table = bet_outcomes(profile, bet)
        amounts = sorted(set(table.values()), reverse=True)
        cells = np.zeros((3, len(amounts)))
        for o, name in enumerate(("win", "push", "loss")):
            cells[o, amounts.index(table[name])] = 1
        out[f"bet:{bet}"] = (tuple(str(a) for a in amounts), outcomes @ cells)
    return out


def countable_side_bet(profile: Profile, bet: str, values_only: bool) -> str | None:
    """Why the per-round odds of side bet ``bet`` cannot be computed here, or None.

    They come from the batch engine (:mod:`odds.exact.bet_table`) on the
    composition left before each round: by rank, so a log with value-only
    cards cannot have them, nor a bet on suits (the suits of the cards dealt
    before would condition it).
    """
    from odds.exact.bet_table import check_countable
    from odds.rules.bets import BetError, resolve_bets

    if values_only:
        return "the cards are written by value only"
    chosen = resolve_bets(profile, [bet])[0]
    if chosen.uses_suits:
        return "the bet looks at suits"
    try:
        check_countable(chosen)
    except BetError as exc:
        return str(exc)
    return None


def side_bet_cells(profile: Profile, bet: str, probs: RoundProbabilities,
                   rows: Any) -> tuple[tuple[str, ...], FloatArray]:
    """Per-round probabilities of each net payout of side bet ``bet`` (labels high to low),
    exact counts of the batch engine on each round's composition, divided in float64."""
    from odds.exact.bet_table import bet_set

    if probs.compositions is None:
        raise ValueError(f"bet {bet}: the ranks left are not known (value-only cards)")
    chosen = bet_set(profile, [bet], suits=False)
    comps = probs.compositions[rows]
    counts = chosen.table().counts(comps)
    the_bet = chosen.bets[0]
    pays = [e.pays for e in the_bet.entries] + [the_bet.otherwise]
    amounts = sorted(set(pays), reverse=True)
    cells = np.zeros((len(comps), len(amounts)))
    for i, row in enumerate(counts.entry_counts(bet)):
        total = float(counts.totals[i])
        for pay, count in zip(pays, row, strict=True):
            cells[i, amounts.index(pay)] += float(count) / total
    return tuple(str(a) for a in amounts), cells


MULTI = ("categories", "player_value", "bank_value", "player_final", "bank_final", "payouts")


def rounds_model(profile: Profile, probs: RoundProbabilities, rows: Any,
                 bets: tuple[str, ...] = ()) -> RoundModel:
    """The model of one seat's counts: its rounds are independent given the cards dealt.

    Expected counts are the sums of the rounds' probabilities, variances the
    sums of the rounds' (multinomial) variances.
    """
    q = _quantities(profile, probs, rows, bets)
    n = len(q["categories"])
    return _model(profile, probs, q, n, moments_of_rounds,
                  lambda p: (float(p.sum()), float((p * (1 - p)).sum())),
                  lambda m, s: (float(m.sum()), float((s - m * m).sum())))


def _model(profile: Profile, probs: RoundProbabilities, q: dict[str, Any], n: int,
           multi: Any, single: Any, ev_fn: Any) -> RoundModel:
    labels = {"categories": probs.names, "payouts": tuple(str(a) for a in probs.amounts)}
    quantities = {}
    scalars: dict[str, Any] = {}
    for name, p in q.items():
        if name.startswith("bet:"):
            quantities[name] = (p[0], multi(p[1]))
        elif name in MULTI:
            quantities[name] = (labels.get(name, tuple(str(v) for v in range(10))), multi(p))
        else:
            scalars[name] = single(p)
    nat = tuple(str(v) for v in sorted(profile.naturals))
    scalars["player_natural_values"] = nat
    scalars["bank_natural_values"] = nat
    ev = None
    if "payouts" in q:
        a = np.array([float(x) for x in probs.amounts])
        mean = q["payouts"] @ a
        second = q["payouts"] @ (a * a)
        ev = ev_fn(mean, second)
    return RoundModel(n, quantities, scalars, probs.amounts, ev, Fraction(0))


# -- tallies from continuous shoes: the expectation over dealt shoes ----------

SAMPLE_ROUNDS = 20_000  # rounds of simulated shoes behind a tallies model
SAMPLE_SEED = 1


@dataclass(frozen=True)
class ShoeSample:
    """Per-round exact probabilities over shoes dealt by our simulator."""

    probs: RoundProbabilities
    shoe: IntArray  # shoe of each sampled round
    rounds: int
    shoes: int
    seed: int
    penetration: float


def sample_shoes(profile: Profile, shoe: Any, seats: int, penetration: float,
                 rounds: int = SAMPLE_ROUNDS, seed: int = SAMPLE_SEED) -> ShoeSample:
    """Deal ``rounds`` rounds of cut-card shoes (our simulator, ``seed``) and compute
    every round's exact probabilities given the cards dealt before it in its shoe.
    """
    import tempfile
    from pathlib import Path

    from odds.sim.audit import check_shoe
    from odds.sim.logs import parse_log
    from odds.sim.simulate import simulate

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sample.csv"
        simulate(profile, shoe, rounds, seats=seats, seed=seed, reshuffle="cut",
                 penetration=penetration, log=path)
        lines = path.read_text(encoding="utf-8").splitlines()
    skip = next(i for i, ln in enumerate(lines) if not ln.startswith("#"))
    log = parse_log(lines[skip:], skip + 1, "sample")
    check = check_shoe(log, shoe, seats, "sample")
    assert check.compositions is not None and log.shoe is not None
    probs = round_probabilities(profile, check.compositions)
    shoe_of = log.shoe[check.first]
    return ShoeSample(probs, shoe_of, len(shoe_of), len(np.unique(shoe_of)), seed, penetration)


def shoes_model(profile: Profile, sample: ShoeSample, n: int,
                bets: tuple[str, ...] = ()) -> RoundModel:
    """The model of ``n`` rounds' counts from continuous shoes, estimated from ``sample``.

    The rounds' probabilities are random through the shoe: the count of a
    cell has expectation ``n mu`` (mu: the mean over the sampled rounds) and
    variance ``n E[p (1 - p)] + (n / r) V + n**2 V / (K r**2)``: the rounds'
    own variance, the spread of the shoes (V: the covariance over shoes of a
    shoe's summed probabilities less ``rounds * mu``, r rounds per shoe on
    average) and the spread of the estimate of mu from K sampled shoes.
    """
    rows = np.arange(sample.rounds)
    q = _quantities(profile, sample.probs, rows, bets)
    shoe_ids = np.unique(sample.shoe, return_inverse=True)[1].ravel()
    k = int(shoe_ids.max()) + 1
    per_shoe = np.bincount(shoe_ids, minlength=k).astype(np.float64)
    r = float(per_shoe.mean())
    spread = n / r + n * n / (k * r * r)

    def shoe_cov(p: Any) -> Any:
        p2 = p.reshape(len(p), -1)
        mu = p2.mean(axis=0)
        sums = np.zeros((k, p2.shape[1]))
        np.add.at(sums, shoe_ids, p2)
        dev = sums - per_shoe[:, None] * mu[None, :]
        return mu, dev.T @ dev / max(k - 1, 1)

    def multi(p: Any) -> Moments:
        mu, cov = shoe_cov(p)
        within = np.diag(mu) - p.T @ p / len(p)
        return Moments(n * mu, n * within + spread * cov)

    def single(p: Any) -> tuple[float, float]:
        mu, cov = shoe_cov(p)
        return float(n * mu[0]), float(n * mu[0] - n * float((p * p).mean())
                                       + spread * float(cov[0, 0]))

    def ev_fn(mean: Any, second: Any) -> tuple[float, float]:
        mu, cov = shoe_cov(mean)
        within = float((second - mean * mean).mean())
        return float(n * mu[0]), n * within + spread * float(cov[0, 0])

    return _model(profile, sample.probs, q, n, multi, single, ev_fn)
