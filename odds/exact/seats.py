"""Two seats and the bank on one finite shoe, exactly: the table's shared cards.

Under a fixed-rule profile without a tableau, a hand's draw depends on its
own two cards only, and dealing from a shuffled shoe is exchangeable: the
joint law of the hands' cards is the same whatever fixed order their slots
are dealt in.  So, as in the engine (which pads an unused third-card slot),
each hand takes three slots: the bank's first, then each seat's.

Condition on the bank's three-card rank multiset ``b``.  The number of
ordered deals in which seat 1 gets the ordered hand of multiset ``m1`` and
seat 2 that of ``m2`` is, on the composition ``c - b`` left::

    G[m1, m2] = prod_r fallingfactorial((c - b)_r, (m1 + m2)_r)

-- the falling-factorial weights of the batch engine
(:mod:`odds.exact.batch`), here over two hands' multisets.  With ``F[m, t]``
the number of orderings of the three ranks ``m`` that settle as seat type
``t`` against the bank's hand (a table of the rules alone), the counts of
(seat 1's type, seat 2's type) given the bank's hand are ``F^T G F``: one
small matrix product per bank multiset.  Every entry is a count of ordered
six-card sequences from ``c - b``, at most ``ff(n - 3, 6)``; the weights
run in int64, exact while that is below ``2 ** 63`` (:data:`MAX_PAIR_CARDS`
cards, 27 packs), and the products in float64 or limbs, by the proof
shared with the batch engine (:mod:`odds.exact.weights`).

Two seats are enough for the moments at any N: by exchangeability every pair
of seats has the law of seats 1 and 2, so the bank's variance at N seats is
``sum s_i^2 Var(X) + (S^2 - sum s_i^2) Cov(X_1, X_2)`` (``S`` the stakes'
sum); :func:`table_moments` gives it exactly.

>>> from odds.rules.profiles import BUILTIN
>>> from odds.rules.shoe import Shoe
>>> pairs = pair_counts(BUILTIN["standard"], Shoe.packs_of(1))
>>> pairs.total == math.perm(52, 9)
True
>>> sum(pairs.counts.values()) == pairs.total
True
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Any

from odds.exact.engine import colon_class
from odds.exact.weights import exact_product, falling_factorials, int64_cards
from odds.rules.cards import POINTS
from odds.rules.draw import hand_draws
from odds.rules.profile import Profile
from odds.rules.settle import NO_COLON, Outcome, Pay, category, pay_entry
from odds.rules.shoe import Shoe

__all__ = ["MAX_PAIR_CARDS", "PAIRS_HELD", "PairCounts", "SeatType", "clear_pairs", "outcome_type",
           "pair_counts", "seat_type", "table_moments"]

RANKS = 13
HAND = 3  # card slots per hand (an unused third slot is filled all the same)
HAND_COLUMN_SUM = RANKS**HAND  # a column of H: each ordered three-card hand at most once
# A finite shoe's cards for the exact two-seat counts: whole packs whose deals of the
# seats' six cards after the bank's three, ff(n - 3, 6), stay exact in int64 (27 packs).
MAX_PAIR_CARDS = 52 * ((int64_cards(2 * HAND) + HAND) // 52)

SeatType = tuple[Fraction, bool, Fraction]
"""A seat's settlement per unit staked: (net, paid by a bonus entry, net if that bonus is capped).

The exact table moments and :mod:`odds.money` (bank, caps) share it.
"""
HandKey = tuple[int, int, int]  # two-card value, Colon class, final value


def seat_type(profile: Profile, seat: HandKey, bank: HandKey) -> SeatType:
    """A seat's settlement per unit staked against the bank's hand.

    (net, settled by a bonus entry, net if that bonus is capped).

    >>> from odds.rules.profiles import BUILTIN
    >>> seat_type(BUILTIN["standard"], (9, 0, 9), (5, 0, 7))
    (Fraction(1, 1), False, Fraction(1, 1))
    """
    pv, pcol, pf = seat
    bv, bcol, bf = bank
    return outcome_type(profile, category(profile, pv, bv, pf, bf)[0], pcol, bcol)


def outcome_type(profile: Profile, outcome: Outcome, pcol: int, bcol: int) -> SeatType:
    """:func:`seat_type` of a round settled as ``outcome`` with these Colon classes: all a
    seat's settlement reads of the hands (so the engine's outcome counts give the types).

    >>> from odds.rules.profiles import BUILTIN
    >>> outcome_type(BUILTIN["standard"], Outcome.WIN, 2, 0)  # a Colon of nines that wins
    (Fraction(3, 1), True, Fraction(1, 1))
    """
    entry = pay_entry(profile, outcome, pcol, bcol)
    amount = Fraction(entry.amount(profile))
    if entry in (Pay.COLON, Pay.COLON_NINE):
        return amount, True, Fraction(pay_entry(profile, outcome, NO_COLON, bcol).amount(profile))
    return amount, False, amount


@lru_cache(maxsize=1)
def _multisets() -> tuple[tuple[tuple[int, ...], ...], Any]:
    """The 455 three-card rank multisets and, for every pair, where their ranks fall.

    The second item, shape (6, 455, 455): for a pair (m1, m2), six indices into
    a 13 x 7 table of ``ff(count of rank r, k)`` (at ``7 r + k``), one per rank
    that m1 + m2 holds (``k`` its count there), padded with index 0 (``ff(c, 0) = 1``).
    """
    import numpy as np

    sets: list[tuple[int, ...]] = []
    for a in range(RANKS):
        for b in range(a, RANKS):
            for c in range(b, RANKS):
                m = [0] * RANKS
                m[a] += 1
                m[b] += 1
                m[c] += 1
                sets.append(tuple(m))
    arr = np.array(sets, dtype=np.int16)
    sums = arr[:, None, :] + arr[None, :, :]  # (455, 455, 13): m1 + m2 by rank
    flat = sums.reshape(-1, RANKS)
    keys = np.where(flat > 0, 7 * np.arange(RANKS, dtype=np.int16)[None, :] + flat, 0)
    # The ranks a pair holds first (their keys are at least 1), then the padding 0.
    where = np.ascontiguousarray(-np.sort(-keys, axis=1)[:, :2 * HAND].T).astype(np.int16)
    return tuple(sets), where.reshape(2 * HAND, len(sets), len(sets))


def _hand_table(profile: Profile, draws: Sequence[bool]) -> list[dict[HandKey, int]]:
    """For each multiset: orderings of its three ranks by the hand they make.

    ``draws[v]``: the hand draws on two-card value v (:func:`odds.rules.draw.hand_draws`).
    """
    sets, _ = _multisets()
    index = {m: i for i, m in enumerate(sets)}
    table: list[dict[HandKey, int]] = [defaultdict(int) for _ in sets]
    for r1, r2, r3 in product(range(RANKS), repeat=3):
        m = [0] * RANKS
        m[r1] += 1
        m[r2] += 1
        m[r3] += 1
        v = (POINTS[r1] + POINTS[r2]) % 10
        f = (v + POINTS[r3]) % 10 if draws[v] else v
        table[index[tuple(m)]][v, colon_class(profile, r1, r2), f] += 1
    return [dict(t) for t in table]


@dataclass(frozen=True)
class PairCounts:
    """Counts of ordered deals by (seat 1's type, seat 2's type), and their total.

    ``counts`` maps a pair of :data:`SeatType` to the number of ordered
    nine-card deals (bank, seat 1, seat 2; three slots each) that settle so;
    ``total`` is ``perm(n, 9)``.
    """

    counts: Mapping[tuple[SeatType, SeatType], int]
    total: int

    def moments(self) -> tuple[Fraction, Fraction, Fraction]:
        """(a seat's mean, its variance, two seats' covariance) per unit staked, uncapped.

        >>> from odds.rules.profiles import BUILTIN
        >>> m, v, cov = pair_counts(BUILTIN["plain"], Shoe.packs_of(1)).moments()
        >>> m, 0 < cov < v  # the seats face one bank hand: their nets move together
        (Fraction(0, 1), True)
        """
        s1 = s2 = s12 = 0
        den = 1
        for (a, _, _), _ in self.counts:
            den = math.lcm(den, a.denominator)
        for ((a, _, _), (b, _, _)), w in self.counts.items():
            x, y = int(a * den), int(b * den)
            s1 += w * x
            s2 += w * x * x
            s12 += w * x * y
        n = self.total
        mean = Fraction(s1, n * den)
        var = Fraction(s2, n * den * den) - mean * mean
        cov = Fraction(s12, n * den * den) - mean * mean
        return mean, var, cov


def pair_counts(profile: Profile, shoe: Shoe,
                progress: Callable[[int, int], None] | None = None) -> PairCounts:
    """Exact counts of two seats' settlements against one bank on a finite shoe.

    Raises ``ValueError`` for the infinite shoe, a shoe of fewer than 9
    cards or more than :data:`MAX_PAIR_CARDS`, and a ``ProfileError`` for
    rules under which a hand's draw does not follow from its own two cards
    (players who choose, a banker tableau, naturals that stop every draw:
    :func:`odds.rules.draw.hand_draws`).  ``progress(done, total)`` is
    called after each bank multiset (once, as done, when the counts were kept).

    The counts of the last :data:`PAIRS_HELD` (profile, composition) asked
    are kept and given again (a bank at several stakes, capitals or seat
    counts asks for the same shoe's); :func:`clear_pairs` forgets them.

    >>> from odds.rules.profiles import BUILTIN
    >>> tiny = Shoe((1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0))
    >>> pair_counts(BUILTIN["standard"], tiny).total
    3628800
    >>> pair_counts(BUILTIN["standard"], tiny) is pair_counts(BUILTIN["standard"], tiny)
    True
    """
    player_draws, bank_draws = hand_draws(profile)  # refuses rules first, cached or not
    key = (profile, shoe.counts, shoe.infinite)
    held = _PAIRS.pop(key, None)  # re-inserted last: least recently asked first
    if held is None:
        held = _count_pairs(profile, shoe, player_draws, bank_draws, progress)
        while len(_PAIRS) >= PAIRS_HELD:
            _PAIRS.pop(next(iter(_PAIRS)))
    elif progress is not None:
        progress(1, 1)
    _PAIRS[key] = held
    return held


# The pair counts last asked for, by (profile, composition): a few hundred counts each.
PAIRS_HELD = 8
_PAIRS: dict[tuple[Profile, tuple[int, ...], bool], PairCounts] = {}


def clear_pairs() -> None:
    """Forget the pair counts kept by :func:`pair_counts` (the next ask counts again)."""
    _PAIRS.clear()


def _count_pairs(profile: Profile, shoe: Shoe, player_draws: tuple[bool, ...],
                 bank_draws: tuple[bool, ...],
                 progress: Callable[[int, int], None] | None) -> PairCounts:
    import numpy as np

    if shoe.infinite:
        raise ValueError("the two-seat counts need a finite shoe (the infinite shoe's seats "
                         "are independent given the bank's hand)")
    n = shoe.size
    if n < 3 * HAND:
        raise ValueError(f"a round of 2 seats and the bank fills 9 card slots; the shoe has {n}")
    if n > MAX_PAIR_CARDS:
        raise ValueError(f"the exact two-seat counts take a shoe of at most {MAX_PAIR_CARDS:,} "
                         f"cards ({MAX_PAIR_CARDS // 52} packs: their weights, ff(n - 3, 6), "
                         f"must stay below 2**63), not {n:,}")
    sets, sums = _multisets()
    seat_hands = _hand_table(profile, player_draws)
    bank_hands = _hand_table(profile, bank_draws)
    counts = list(shoe.counts)
    arr = np.array(sets, dtype=np.int64)
    seat_keys = sorted({k for t in seat_hands for k in t})
    col = {k: j for j, k in enumerate(seat_keys)}
    hands = np.zeros((len(sets), len(seat_keys)), dtype=np.int64)
    for i, table in enumerate(seat_hands):
        for k, w in table.items():
            hands[i, col[k]] = w
    # Seat types go by small ints (their index in ``kinds_of``) until the end: hashing
    # tuples of Fractions in the inner loops took half the time.
    types: dict[tuple[HandKey, HandKey], int] = {}
    ids: dict[SeatType, int] = {}
    kinds_of: list[SeatType] = []
    out: dict[tuple[int, int], int] = defaultdict(int)
    cache: dict[tuple[Any, ...], list[tuple[int, dict[tuple[int, int], int]]]] = {}
    feasible = [i for i, m in enumerate(sets) if all(a <= c for a, c in zip(m, counts, strict=False))]
    from odds.exact.products import one_blas_thread

    with one_blas_thread():
        for done, i in enumerate(feasible, 1):
            b = sets[i]
            left = tuple(c - a for c, a in zip(counts, b, strict=False))
            weight_b = math.prod(math.perm(c, a) for c, a in zip(counts, b, strict=False))
            # The four 0-point ranks are interchangeable for every rule: a bank hand
            # whose composition left is a face permutation of another's has its counts.
            key = (*left[:9], *sorted(left[9:]), tuple(sorted(bank_hands[i].items())))
            found = cache.get(key)
            if found is None:
                columns: list[Any] = []
                blocks = []
                for bank_key, nb in sorted(bank_hands[i].items()):
                    seat_of = []
                    for k in seat_keys:
                        t = types.get((k, bank_key))
                        if t is None:
                            kind = seat_type(profile, k, bank_key)
                            t = ids.get(kind)
                            if t is None:
                                t = ids[kind] = len(kinds_of)
                                kinds_of.append(kind)
                            types[k, bank_key] = t
                        seat_of.append(t)
                    kinds = sorted(set(seat_of))
                    at = {t: j for j, t in enumerate(kinds)}
                    merge = np.zeros((len(seat_keys), len(kinds)), dtype=np.int64)
                    for j, t in enumerate(seat_of):
                        merge[j, at[t]] = 1
                    blocks.append((nb, kinds, sum(len(c) for c in columns)))
                    columns.append(kinds)
                    if len(blocks) == 1:
                        mats = [hands @ merge]
                    else:
                        mats.append(hands @ merge)
                pairs = _pair_hands(left, sums, arr, np.concatenate(mats, axis=1))
                found = []
                for nb, kinds, at0 in blocks:
                    got: dict[tuple[int, int], int] = {}
                    for a, ta in enumerate(kinds):
                        for c2, tb in enumerate(kinds):
                            v = int(pairs[at0 + a, at0 + c2])
                            if v:
                                got[ta, tb] = v
                    found.append((nb, got))
                cache[key] = found
            for nb, got in found:
                w = weight_b * nb
                for pair, v in got.items():
                    out[pair] += w * v
            if progress is not None:
                progress(done, len(feasible))
    return PairCounts({(kinds_of[a], kinds_of[b]): v for (a, b), v in out.items()},
                      math.perm(n, 3 * HAND))


def _pair_hands(left: Sequence[int], sums: Any, arr: Any, hands: Any) -> Any:
    """Counts of (seat 1's hand key, seat 2's hand key) on the composition ``left``.

    ``H^T G H`` exactly by :func:`odds.exact.weights.exact_product`: every
    entry of ``G`` and every partial sum is a count of ordered six-card
    deals from ``left``, at most ``ff(n, 6)`` (below ``2 ** 63``: at most
    :data:`MAX_PAIR_CARDS` cards), and a column of ``H`` sums to at most
    ``13 ** 3`` (each ordered three-card hand once), so ``H^T L H`` has
    column sums at most ``13 ** 6``: one float64 product below ``2 ** 53``,
    else 30-bit limbs.
    """
    import numpy as np

    ok = np.all(arr <= np.array(left, dtype=np.int64), axis=1)
    idx = np.nonzero(ok)[0]
    # ff(left_r, k) at 7 r + k; index 0 (ff(c, 0) = 1) pads a pair's unused ranks.
    table = falling_factorials(np.array(left, dtype=np.int64), 2 * HAND, False,
                               np.int64).reshape(-1)
    full = len(idx) == sums.shape[1]
    g = table[sums[0] if full else sums[0][np.ix_(idx, idx)]]
    for k in range(1, 2 * HAND):
        g *= table[sums[k] if full else sums[k][np.ix_(idx, idx)]]
    h = hands[idx].astype(np.float64)
    return exact_product(g, math.perm(sum(left), 2 * HAND), HAND_COLUMN_SUM**2,
                         lambda w: h.T @ (w @ h))


def table_moments(pairs: PairCounts, stakes: Sequence[Fraction]) -> tuple[Fraction, Fraction]:
    """The bank's exact mean and variance of net per round at a table with these stakes.

    No caps: the bank's net is minus the sum of the seats' nets.  By
    exchangeability every pair of seats has the law of seats 1 and 2, so
    ``Var = sum s_i^2 Var(X) + (S^2 - sum s_i^2) Cov(X_1, X_2)``.

    >>> from odds.rules.profiles import BUILTIN
    >>> pairs = pair_counts(BUILTIN["standard"], Shoe.packs_of(1))
    >>> mean, var = table_moments(pairs, [Fraction(1)] * 2)
    >>> m, v, cov = pairs.moments()
    >>> mean == -2 * m and var == 2 * v + 2 * cov
    True
    """
    mean, var, cov = pairs.moments()
    total = sum(stakes, Fraction(0))
    squares = sum((s * s for s in stakes), Fraction(0))
    return -total * mean, squares * var + (total * total - squares) * cov
