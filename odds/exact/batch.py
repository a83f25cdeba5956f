"""The batch engine: exact round odds for many shoe compositions at once.

The count of an ordered six-card deal depends on the shoe only through the
multiset of ranks it uses.  For a composition ``c`` (cards left per rank
A..K) and an outcome column::

    count(column; c) = sum over six-card rank multisets M of W(M; c) * T[M, column]

where ``W(M; c) = prod_r fallingfactorial(c_r, m_r)`` (powers ``c_r ** m_r``
for the infinite shoe, which deals with replacement) and ``T[M, column]`` is
the number of ORDERED arrangements of M's ranks into the six slots (player
1, player 2, bank 1, bank 2, player 3, bank 3) that lead to the column.  An
unused third-card slot is filled all the same, exactly as
:mod:`odds.exact.engine` pads, so every count is one of full six-card orderings.
``T`` depends on the rules alone: :func:`rules_table` builds it once per
fixed-rule profile (about a second) and caches it, in memory and on disk
(:mod:`odds.exact.table_cache`: about 0.02 s to read back in a later
process); a batch of compositions is then one matrix product.

Rows are not the 18,564 rank multisets but their 6,063 classes under
permutations of the four zero-point ranks (10, J, Q, K): they only differ
by which of them pair up, so T is the same on a class and W is summed over
it (:meth:`RulesTable.counts` computes the class sums directly).

Columns: every key of :attr:`RoundOdds.outcome_counts` the profile can
produce (:attr:`RulesTable.keys`), then player final values 0-9, bank final
values 0-9, player draws, bank draws.  Every bet and the Colon figures only
need the keys summed over the two-card values, by (player Colon class, bank
Colon class, category): :attr:`RulesTable.summary_keys`, about 40 columns
instead of about 550, so :meth:`RulesTable.counts` computes these eagerly
and the full columns on first use (``outcome``, ``player_final``, ...), or
at once with ``full=True``, in the same product.  About half the full
columns equal another one (two keys that every row class reaches in the
same number of orderings), so the product takes each distinct column once
(279 of 548 under ``standard``) and scatters the results.
Products run on one BLAS thread: on a shared 2-core machine a second thread
measured slower (bench/bench_batch.py prints both).

Exactness.  Every term of the sum is a non-negative integer, so every
partial sum of a column is at most the column's value, which is at most the
composition's total ``ff(N, 6)`` (``N ** 6`` for the infinite shoe, N the
sum of the counts).  Hence:

* W is computed in int64 when ``N ** 6 < 2 ** 63`` (every factor and partial
  product is at most ``N ** 6``), else in Python integers (dtype=object);
* the product is one float64 matrix product when every total is below
  ``2 ** 53`` (every partial sum is an integer below ``2 ** 53``, so float64
  holds it exactly in whatever order BLAS adds): up to 458 cards, 8 packs
  (416 cards, total about 4.97e15) included; when ``N ** 6 < 2 ** 53`` too
  (up to 456 cards) the weights themselves are made in float64, factorised
  by face partition and by low and high non-face ranks, without a weight
  per class (:func:`_float_product`, with its own bound on partial sums);
* beyond, W is split into 30-bit limbs ``W = sum_j L_j * 2 ** (30 j)``: a
  column of T (or of the summary: each sequence counts in one key) sums to
  at most ``13 ** 6 < 2 ** 22.3`` over the rows, so each
  ``L_j @ T`` is below ``2 ** 52.3``, exact in float64; limbs are recombined
  in int64 while every total is below ``2 ** 63``, else in Python integers.

The API (``compositions``: any (n, 13) array-like of non-negative integer
counts per rank A..K, or a sequence of :class:`Shoe` objects)::

    rules_table(profile) -> RulesTable          # cached per rule set (last 2) and on disk
    RulesTable.profile, .keys, .summary_keys    # keys: (pv, bv, pcol, bcol, category)
    RulesTable.product, .scatter, .distinct     # distinct full columns + summary; full j -> column
    RulesTable.matrix, .summary                 # the full table T, the summary columns
    RulesTable.counts(compositions, *, infinite=False, full=False) -> BatchCounts
    batch_counts(profile, compositions, *, infinite=False, full=False) -> BatchCounts
    BatchCounts.table, .compositions (n, 13) int64, .infinite,
        .totals (tuple of Python ints: ordered six-card sequences),
        .summary (n, len(summary_keys))                          # eager
        .outcome (n, len(keys)), .player_final (n, 10), .bank_final (n, 10),
        .player_draws (n,), .bank_draws (n,)         # full=True, else on first use
        # counts are int64, or Python ints (dtype=object) once a total reaches 2**63
    BatchCounts.round_odds(i, shoe=None) -> RoundOdds   # == engine.round_odds
    BatchCounts.bets -> tuple[str, ...]                 # player (, banker, tie)
    BatchCounts.expected_values(bet="player") -> list[Fraction]
    BatchCounts.ev_numerators(bet="player") -> (num, den)  # EV_i = num[i] / (den * totals[i])
    BatchCounts.probabilities() -> {win, push, loss, colon, colon_nine: list[Fraction]}

>>> from odds.rules.profiles import BUILTIN
>>> from odds.exact.engine import round_odds
>>> from odds.rules.shoe import Shoe
>>> batch = batch_counts(BUILTIN["standard"], [[4] * 13, [3] + [4] * 12])
>>> batch.totals[0] == 52 * 51 * 50 * 49 * 48 * 47
True
>>> batch.expected_values()[0] == round_odds(BUILTIN["standard"], Shoe.packs_of(1)).expected_value
True
>>> batch.probabilities()["colon"][0]
Fraction(1, 17)

One piece on purpose (about 850 lines): the rules table, the exact weights and
the limb arithmetic rest on the one proof of exactness above; split, the proof
would be spread over files.  Storing tables on disk is a job of its own:
:mod:`odds.exact.table_cache`.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, cached_property, lru_cache
from importlib import metadata
from itertools import combinations_with_replacement, permutations
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from odds.exact.deal import draw_arrays
from odds.exact.engine import colon_class
from odds.exact.results import OutcomeKey, RoundOdds, round_bets
from odds.exact.table_cache import TableParts, cached_table
from odds.rules.cards import POINTS
from odds.rules.profiles import Profile, ProfileError
from odds.rules.settle import COLON_NINE, Outcome, bet_amount, category
from odds.rules.shoe import Shoe

__all__ = ["BatchCounts", "RulesTable", "batch_counts", "clear_tables", "over_common_denominator",
           "rules_table"]

SLOTS = 6
NONFACE = 9  # ranks A..9: one rank per point value
FACES = 4  # ranks 10, J, Q, K: all worth 0
LIMB = 30  # bits per limb of W beyond float64's exact range
FLOAT_EXACT = 2**53
INT64_EXACT = 2**63
# Compositions per matrix product (bounds the working memory).  Measured on
# 4,000 depleted 8-pack shoes: 512 gave 7,700 a second and a 127 MB peak; 256
# and 128 gave 14,800 and 13,800 a second, 93 and 77 MB (the weights of a chunk
# stay in the processor's cache).
CHUNK = 128
# The factorised float64 product (shoes up to 456 cards): its weights are made
# by outer products, not gathered per class, and 512 compositions a chunk
# measured 25% faster than 128 (verifier's margins, 42 columns; 20 MB of weights).
FLOAT_CHUNK = 512
# With Python integers (shoes of 100 packs and more), a weight costs about 40
# bytes, not 8: 512 compositions made 136 MB arrays and a 515 MB peak for
# `lucky9 shoe --decks 100`; the time per composition does not depend on it.
OBJECT_CHUNK = 16
FACE_COUNTS = 7  # a rank appears 0..6 times in six cards


def _multisets(ranks: int, sizes: range) -> list[tuple[int, ...]]:
    """Count vectors of the multisets of the given sizes, by size then lexicographically."""
    out = []
    for k in sizes:
        for combo in combinations_with_replacement(range(ranks), k):
            counts = [0] * ranks
            for r in combo:
                counts[r] += 1
            out.append(tuple(counts))
    return out


@dataclass(frozen=True)
class _Classes:
    """The row classes: rank multisets of six cards up to permuting the faces.

    A class is a multiset of non-face ranks (``nonface``) and a partition of
    the face cards into at most four non-increasing parts (``partition``);
    its canonical representative gives the faces in that order to 10, J, Q, K.
    """

    codes: np.ndarray  # base-7 code of each canonical representative, sorted
    nonface_index: np.ndarray  # row -> index into nonface multisets
    partition_index: np.ndarray  # row -> index into partitions
    nonface: list[tuple[int, ...]]  # multisets of 0..6 cards over ranks A..9
    partitions: list[tuple[int, ...]]  # face partitions, length 4


@lru_cache(maxsize=1)
def _classes() -> _Classes:
    nonface = _multisets(NONFACE, range(SLOTS + 1))
    nonface_at = {m: i for i, m in enumerate(nonface)}
    partitions = sorted({
        tuple(sorted(m, reverse=True)) for m in _multisets(FACES, range(SLOTS + 1))
    })
    partition_at = {p: i for i, p in enumerate(partitions)}
    rows = []
    for counts in _multisets(NONFACE + FACES, range(SLOTS, SLOTS + 1)):
        faces = counts[NONFACE:]
        if list(faces) == sorted(faces, reverse=True):
            code = sum(c * FACE_COUNTS**r for r, c in enumerate(counts))
            rows.append((code, nonface_at[counts[:NONFACE]], partition_at[faces]))
    rows.sort()
    return _Classes(
        codes=np.array([r[0] for r in rows], dtype=np.int64),
        nonface_index=np.array([r[1] for r in rows], dtype=np.intp),
        partition_index=np.array([r[2] for r in rows], dtype=np.intp),
        nonface=nonface,
        partitions=partitions,
    )


INDEX_BITS = 23  # a sequence's index, its six ranks read in base 13, is below 13**6 < 2**23


def _sequences() -> np.ndarray:
    """The ordered rank sequences of six cards whose faces are canonical, with their rows.

    A sequence counts for its class when its face ranks appear in
    non-increasing number 10 >= J >= Q >= K: the class's representative.
    Returns one int64 per sequence, ``row << INDEX_BITS | index`` (index: its
    ranks in base 13, first card most significant; :func:`_ranks` reads them
    back), sorted: by row, so that the build can fill the table a band of rows
    at a time.  1.4 million sequences: 11 MB, built with a peak some 23 MB
    above its classes (as ranks with their rows and a stable sort by row it
    was 74 MB; joining 13 parts, 44 MB).  Made for each build (0.3 s), not
    kept: held in the process after a build, it left the batch products 40%
    slower (measured, 5,600 against 9,400 compositions a second; the cause is
    in the allocator, not in the product), and a process builds a table per
    rule set at most once.
    """
    classes = _classes()
    power = FACE_COUNTS ** np.arange(13, dtype=np.int64)
    grid = np.indices((13,) * (SLOTS - 1), dtype=np.int8).reshape(SLOTS - 1, -1)
    rest = np.zeros(grid.shape[1], dtype=np.int64)  # the code of cards 2..6
    faces = np.zeros((FACES, grid.shape[1]), dtype=np.int8)  # how many of each face in them
    for slot in grid:
        rest += power[slot]
        for f in range(FACES):
            faces[f] += slot == NONFACE + f
    del grid

    def kept(first: int) -> np.ndarray:
        """The sequences (of cards 2..6) whose faces are canonical after ``first``."""
        keep = np.ones(len(rest), dtype=bool)
        for f in range(FACES - 1):  # each face at least as often as the next: 10 >= J >= Q >= K
            keep &= faces[f] + (first == NONFACE + f) >= faces[f + 1] + (first == NONFACE + f + 1)
        return keep

    # Counted first, then written in place: no parts to join (that held both, 22 MB).
    packed = np.empty(sum(int(np.count_nonzero(kept(first))) for first in range(13)),
                      dtype=np.int64)
    at = 0
    for first in range(13):
        index = np.flatnonzero(kept(first))
        row = np.searchsorted(classes.codes, rest[index] + power[first])
        packed[at:at + len(index)] = (row << INDEX_BITS) | (index + first * len(rest))
        at += len(index)
    packed.sort()
    return packed


def _ranks(packed: np.ndarray) -> np.ndarray:
    """The (6, n) ranks of packed sequences (see :func:`_sequences`)."""
    index = packed & ((1 << INDEX_BITS) - 1)
    ranks = np.empty((SLOTS, len(packed)), dtype=np.int8)
    for slot in range(SLOTS - 1, -1, -1):
        index, ranks[slot] = np.divmod(index, 13)
    return ranks


def _categories(profile: Profile) -> tuple[list[str], np.ndarray]:
    """Category names and the (pv, bv, pf, bf) -> category index table."""
    names: list[str] = []
    cat = np.zeros((10, 10, 10, 10), dtype=np.int32)
    for pv in range(10):
        for bv in range(10):
            for pf in range(10):
                for bf in range(10):
                    outcome, how = category(profile, pv, bv, pf, bf)
                    name = f"{outcome.value}_{how}"
                    if name not in names:
                        names.append(name)
                    cat[pv, bv, pf, bf] = names.index(name)
    return names, cat


def _reachable_keys(
    profile: Profile, names: list[str], cat: np.ndarray, colon: np.ndarray,
    player_draws: np.ndarray, bank_draws: np.ndarray,
) -> list[OutcomeKey]:
    """The outcome keys some sequence reaches, in code order.

    The six slots take any ranks independently, so a key is reachable when
    its two-card hands are and its category follows from some third cards.
    """
    hands = {(int(POINTS[a] + POINTS[b]) % 10, int(colon[a, b]))
             for a in range(13) for b in range(13)}
    keys = []
    for pv, pcol in hands:
        for bv, bcol in hands:
            cats = set()
            for x in range(10):
                drew = bool(player_draws[pv, bv])
                pf = (pv + x) % 10 if drew else pv
                for y in range(10):
                    bf = (bv + y) % 10 if bank_draws[pv, bv, x if drew else 10] else bv
                    cats.add(int(cat[pv, bv, pf, bf]))
            keys += [(pv, bv, pcol, bcol, c) for c in cats]
    return [(pv, bv, pcol, bcol, names[c]) for pv, bv, pcol, bcol, c in sorted(keys)]


BAND = 32_768  # sequences per band of the build (its temporaries: about 4 MB)


@dataclass(frozen=True)
class DealtBand:
    """A band of the canonical rank sequences, dealt under a profile's drawing rules.

    ``ranks`` (6, n) rank indices in slot order (P B P B, then the third-card
    slots); ``row`` each sequence's row class; ``first``/``last`` the band's
    rows; ``points`` their point values; ``pv``/``bv`` two-card values;
    ``player_draws``/``bank_draws`` whether each hand takes a third card.
    """

    ranks: np.ndarray
    row: np.ndarray
    first: int
    last: int
    points: np.ndarray
    pv: np.ndarray
    bv: np.ndarray
    player_draws: np.ndarray
    bank_draws: np.ndarray


def dealt_bands(profile: Profile) -> Iterator[DealtBand]:
    """The 1.4 million canonical sequences in bands of :data:`BAND`, each dealt once:
    the one enumeration behind the rules table and every bet's columns."""
    points = np.array(POINTS, dtype=np.int8)  # small types: 1.4 million sequences
    player_draws, bank_draws = draw_arrays(profile)
    packed = _sequences()
    for start in range(0, len(packed), BAND):
        band = packed[start:start + BAND]
        s = _ranks(band)
        row = band >> INDEX_BITS
        pt = points[s]
        pv = (pt[0] + pt[1]) % 10
        bv = (pt[2] + pt[3]) % 10
        pd = player_draws[pv, bv]
        bd = bank_draws[pv, bv, np.where(pd, pt[4], 10)]
        yield DealtBand(s, row, int(row[0]), int(row[-1]) + 1, pt, pv, bv, pd, bd)


def _build(
    profile: Profile,
) -> tuple[tuple[OutcomeKey, ...], tuple[SummaryKey, ...], np.ndarray, np.ndarray]:
    """Enumerate the 13**6 ordered rank sequences with canonical faces into T.

    Returns the keys, the summary keys, the product matrix and the scatter
    index of :class:`RulesTable`.
    """
    colon = np.array(
        [[colon_class(profile, a, b) for b in range(13)] for a in range(13)], dtype=np.int32
    )
    player_draws, bank_draws = draw_arrays(profile)  # for the reachable keys
    names, cat = _categories(profile)
    n_cat = len(names)
    keys = _reachable_keys(profile, names, cat, colon, player_draws, bank_draws)
    column = np.full(100 * 9 * n_cat, -1, dtype=np.int32)
    for j, (pv_, bv_, pcol, bcol, name) in enumerate(keys):
        column[(((pv_ * 10 + bv_) * 3 + pcol) * 3 + bcol) * n_cat + names.index(name)] = j
    k = len(keys)
    width = k + 22  # the keys, then player finals, bank finals, player draws, bank draws
    # Entries <= 6! = 720 (a row's sequences are its orderings): int16, 6.6 MB.
    table = np.zeros((len(_classes().codes), width), dtype=np.int16)
    for d in dealt_bands(profile):
        s, row, first, last, pt, pv, bv, pd, bd = (d.ranks, d.row, d.first, d.last, d.points,
                                                   d.pv, d.bv, d.player_draws, d.bank_draws)
        pf = np.where(pd, (pv + pt[4]) % 10, pv)
        bf = np.where(bd, (bv + pt[5]) % 10, bv)
        key = (((pv * 10 + bv.astype(np.int32)) * 3 + colon[s[0], s[1]]) * 3
               + colon[s[2], s[3]]) * n_cat + cat.ravel()[
            ((pv * 10 + bv.astype(np.int16)) * 10 + pf) * 10 + bf]
        base = (row - first) * width
        size = (last - first) * width
        cols = column[key]
        assert cols.min() >= 0, "a sequence reached a key thought unreachable"
        counts = np.bincount(base + cols, minlength=size)
        counts += np.bincount(base + k + pf, minlength=size)
        counts += np.bincount(base + (k + 10) + bf, minlength=size)
        counts += np.bincount((base + k + 20)[pd], minlength=size)
        counts += np.bincount((base + k + 21)[bd], minlength=size)
        # Bands may share their edge rows: add.
        table[first:last] += counts.reshape(last - first, width)
    summary_keys = sorted({key_[2:] for key_ in keys})
    fold = np.zeros((len(keys), len(summary_keys)), dtype=np.float32)
    for j, key_ in enumerate(keys):
        fold[j, summary_keys.index(key_[2:])] = 1
    # About half the columns equal another (every row class reaches the two
    # keys in as many orderings): multiply by each distinct column once, then scatter.
    reps, scatter = _distinct_columns(table)
    product = np.empty((table.shape[0], len(reps) + len(summary_keys)), dtype=np.float64)
    for start in range(0, table.shape[0], 512):  # a band of rows at a time: no copy of T
        rows = table[start:start + 512]
        product[start:start + 512, :len(reps)] = rows[:, reps]
        # A row's entries sum to at most 720: the fold is exact even in float32.
        product[start:start + 512, len(reps):] = rows[:, :len(keys)].astype(np.float32) @ fold
    return tuple(keys), tuple(summary_keys), product, scatter


def _distinct_columns(table: np.ndarray) -> tuple[list[int], np.ndarray]:
    """The first of each set of equal columns, and each column's set (its index in the first).

    Columns are grouped by a hash (random integer weights, wrapping integer
    sums: equal columns hash equally whatever the order of the sums, which a
    float projection does not promise), then compared exactly within each
    group: no copy of the table is made, where ``np.unique(table, axis=1)``
    sorted one (46 MB at its peak).  The entries are whole numbers.

    >>> _distinct_columns(np.array([[1, 0, 1, 2], [3, 0, 3, 3]], dtype=np.float32))
    ([0, 1, 3], array([0, 1, 0, 2]))
    """
    weights = np.asarray(np.random.default_rng(0).integers(0, 2**63, size=table.shape[0],
                                                           dtype=np.uint64))
    projection = np.zeros(table.shape[1], dtype=np.uint64)
    for start in range(0, table.shape[0], 512):  # 512 rows at a time: 2 MB
        band: np.ndarray = table[start:start + 512].astype(np.uint64)
        projection += weights[start:start + 512] @ band
    first: list[int] = []
    scatter = np.empty(table.shape[1], dtype=np.intp)
    seen: dict[int, list[int]] = {}  # hash -> the distinct columns that have it
    for j, h in enumerate(projection.tolist()):
        for d in seen.setdefault(h, []):
            if np.array_equal(table[:, first[d]], table[:, j]):
                scatter[j] = d
                break
        else:
            seen[h].append(len(first))
            scatter[j] = len(first)
            first.append(j)
    return first, scatter


SummaryKey = tuple[int, int, str]


@dataclass(frozen=True, eq=False)
class RulesTable:
    """The rules half of the product: T per row class, for one fixed-rule profile.

    The full table (:attr:`matrix`) has a column per key of :attr:`keys`,
    then player finals 0-9, bank finals 0-9, player draws, bank draws; the
    summary columns (:attr:`summary`) sum the key columns over the two-card
    values into (player Colon class, bank Colon class, category) columns,
    :attr:`summary_keys`: all that settles every bet, so :meth:`counts`
    computes only these unless asked for the full counts.

    Stored as one float64 matrix, ``product``: the distinct columns of the
    full table (about half of them: many keys have the same column), then
    the summary columns; full column j is ``product[:, scatter[j]]``.

    >>> from odds.rules.profiles import BUILTIN
    >>> table = rules_table(BUILTIN["standard"])
    >>> len(table.keys), table.keys[0], len(table.summary_keys)
    (526, (0, 0, 0, 0, 'push_comparison'), 39)
    >>> table.distinct, table.matrix.shape
    (279, (6063, 548))
    """

    profile: Profile
    keys: tuple[OutcomeKey, ...]
    summary_keys: tuple[SummaryKey, ...]
    product: np.ndarray  # (row classes, distinct + len(summary_keys)) float64, integers <= 720
    scatter: np.ndarray  # (len(keys) + 22,) intp: full column -> column of product

    @property
    def distinct(self) -> int:
        """How many distinct columns the full table has (the first columns of ``product``)."""
        return int(self.product.shape[1]) - len(self.summary_keys)

    @property
    def summary(self) -> np.ndarray:
        """(row classes, len(summary_keys)) float64: the summary columns of T."""
        return self.product[:, self.distinct:]

    @property
    def matrix(self) -> np.ndarray:
        """(row classes, len(keys) + 22) float64: the full table T (made on each use, 26 MB)."""
        full: np.ndarray = self.product[:, self.scatter]
        return full

    def counts(self, compositions: Any, *, infinite: bool = False, full: bool = False) -> BatchCounts:
        """Exact counts for each composition (see the module docstring).

        With ``full`` the full counts (``outcome``, finals, draws) are
        computed at once, in the same product as the summary; otherwise on
        first use, in one more product.

        >>> from odds.rules.profiles import BUILTIN
        >>> rules_table(BUILTIN["plain"]).counts([[1] * 6 + [0] * 7]).totals
        (720,)
        >>> batch = rules_table(BUILTIN["plain"]).counts([[4] * 13], full=True)
        >>> Fraction(int(batch.player_draws[0]), batch.totals[0])  # two-card value 0-5
        Fraction(137, 221)
        """
        comps, infinite = _compositions(compositions, infinite)
        totals = _totals(comps, infinite)
        if not full:
            return BatchCounts(table=self, compositions=comps, infinite=infinite, totals=totals,
                               summary=_counts(comps, infinite, totals, self.summary))
        both = _counts(comps, infinite, totals, self.product)
        d = self.distinct
        return BatchCounts(table=self, compositions=comps, infinite=infinite, totals=totals,
                           summary=both[:, d:], full_counts=both[:, self.scatter])


def _totals(comps: np.ndarray, infinite: bool) -> tuple[int, ...]:
    sizes = [int(s) for s in comps.sum(axis=1, dtype=object)]
    return tuple(size**SLOTS if infinite else math.perm(size, SLOTS) for size in sizes)


def _counts(
    comps: np.ndarray, infinite: bool, totals: tuple[int, ...], matrix: np.ndarray
) -> np.ndarray:
    """``W(comps) @ matrix`` exactly, chunk by chunk; int64 or Python ints.

    Chunks of shoes below :data:`FLOAT_EXACT` ``** (1/6)`` cards (up to 456:
    8 packs included) take :func:`_float_product`, the others the class
    weights and :func:`_product`.
    """
    bound = max(totals, default=0)
    dtype: Any = np.int64 if bound < INT64_EXACT else object
    result = np.zeros((len(comps), matrix.shape[1]), dtype=dtype)
    step = CHUNK if dtype is np.int64 else OBJECT_CHUNK
    if comps.sum(axis=1, dtype=object).max(initial=0) ** SLOTS < FLOAT_EXACT:
        step = FLOAT_CHUNK
    ordered: np.ndarray | None = None
    for start in range(0, len(comps), step):
        part = comps[start:start + step]
        size = int(part.sum(axis=1, dtype=object).max())
        with _one_blas_thread():
            if size**SLOTS < FLOAT_EXACT:
                if ordered is None:
                    ordered = _ordered(matrix)
                result[start:start + step] = _float_product(part, infinite, ordered)
                continue
            result[start:start + step] = _product(
                _class_weights(part, infinite, size**SLOTS),
                matrix,
                max(totals[start:start + step]),
            )
    return result


LOW = 4  # ranks A..4: the low half of the non-face ranks (5..9 the high half)


@dataclass(frozen=True)
class _Blocks:
    """The row classes grouped for :func:`_float_product`.

    ``order``: the rows by face partition, then by how many of the other
    cards are low (A..4), then by their high multiset, then by their low
    one; ``blocks``: per partition p, ``(p, first row, last row, size s of
    its non-face multisets)``; ``lows[a]`` / ``highs[b]``: the count vectors
    of the low multisets of a cards and the high ones of b cards, in that
    order.  The classes of p are its faces beside every non-face multiset of
    ``s = 6 - |p|`` cards, each once: so the non-face weights of a block are
    ``concat over a of outer(W_high[s - a], W_low[a])``.
    """

    order: np.ndarray
    blocks: tuple[tuple[int, int, int, int], ...]
    lows: tuple[np.ndarray, ...]
    highs: tuple[np.ndarray, ...]


ORDERED_HELD = 2  # matrices whose reordered copies stay in memory (a rules table's: 15 MB)
_ORDERED: dict[tuple[int, tuple[int, ...], tuple[int, ...]], tuple[np.ndarray, np.ndarray]] = {}


def _ordered(matrix: np.ndarray) -> np.ndarray:
    """``matrix`` with its rows in :func:`_partition_blocks` order, transposed (the product
    measured faster so): made once per matrix (a view of the same memory, shape and
    strides is the same matrix; the entry holds it, so its memory is not reused)."""
    key = (matrix.__array_interface__["data"][0], matrix.shape, matrix.strides)
    entry = held(_ORDERED, key, ORDERED_HELD,
                 lambda: (matrix, np.ascontiguousarray(matrix[_partition_blocks().order].T)))
    return entry[1]


@lru_cache(maxsize=1)
def _partition_blocks() -> _Blocks:
    classes = _classes()
    lows = [_multisets(LOW, range(k, k + 1)) for k in range(SLOTS + 1)]
    highs = [_multisets(NONFACE - LOW, range(k, k + 1)) for k in range(SLOTS + 1)]
    low_at = [{m: i for i, m in enumerate(ms)} for ms in lows]
    high_at = [{m: i for i, m in enumerate(ms)} for ms in highs]
    keys = np.zeros((len(classes.codes), 3), dtype=np.int64)
    for row, i in enumerate(classes.nonface_index.tolist()):
        m = classes.nonface[i]
        a, b = sum(m[:LOW]), sum(m[LOW:])
        keys[row] = (a, high_at[b][m[LOW:]], low_at[a][m[:LOW]])
    order = np.lexsort((keys[:, 2], keys[:, 1], keys[:, 0], classes.partition_index))
    blocks = []
    at = 0
    for p, parts in enumerate(classes.partitions):
        rest = SLOTS - sum(parts)
        rows = sum(len(lows[a]) * len(highs[rest - a]) for a in range(rest + 1))
        assert (classes.partition_index[order[at:at + rows]] == p).all()
        blocks.append((p, at, at + rows, rest))
        at += rows
    assert at == len(order)
    return _Blocks(order, tuple(blocks),
                   tuple(np.array(ms, dtype=np.intp).reshape(-1, LOW) for ms in lows),
                   tuple(np.array(ms, dtype=np.intp).reshape(-1, NONFACE - LOW) for ms in highs))


def _float_product(comps: np.ndarray, infinite: bool, ordered: np.ndarray) -> np.ndarray:
    """``W(comps) @ matrix`` in float64, factorised: int64 counts.

    ``ordered`` is the matrix with its rows in :func:`_partition_blocks`
    order, transposed (columns, rows).  A class's weight is the product of
    its low non-face cards' weight, its high ones' and its face partition's
    (summed over the partition's assignments to 10, J, Q, K):
    ``W = W_low * W_high * sym[p]``.  So the non-face weights of a block are
    outer products of two small tables (210 and 462 rows), and the count is
    ``sum_p sym[p] * (nonface_s @ T[rows of p])``: no weight per class is
    gathered or converted.

    Exact when ``N ** 6 < 2 ** 53`` (N the largest composition's size).
    Every weight is an integer at most ``N ** 6``.  Take a partition p and
    its classes, whose non-face multisets M have s cards.  A class has
    ``6! / (prod m_r! prod p_j!)`` orderings, at most ``6! / s!`` times the
    ``s! / prod m_r!`` orderings of M, and a column counts some of them;
    ``sum_M W(M) s! / prod m_r!`` is ``ff(N_nf, s)`` (``N_nf ** s``
    infinite), the ordered draws of s non-face cards.  So every partial sum
    of ``nonface_s @ T`` is an integer at most ``6! / s! * N ** s``, which is
    at most ``max(N, 6) ** 6`` (``6! / s! <= 6 ** (6 - s)``).  Times
    ``sym[p]`` it is a sum of the true terms, so at most the column's count,
    at most ``N ** 6``; so is every partial sum over the partitions.  All
    are integers below ``2 ** 53``, which float64 holds in whatever order
    BLAS adds.
    """
    layout = _partition_blocks()
    c = comps.T.astype(np.float64)  # (13, n)
    n = c.shape[1]
    # falling[r, m]: ff(c_r, m) (c_r ** m for the infinite shoe).
    falling = np.ones((13, SLOTS + 1, n), dtype=np.float64)
    for m in range(1, SLOTS + 1):
        falling[:, m] = falling[:, m - 1] * (c if infinite else np.maximum(c - (m - 1), 0))
    halves = []
    for counts, ranks in ((layout.lows, range(LOW)), (layout.highs, range(LOW, NONFACE))):
        half = []
        for ms in counts:
            w = np.ones((len(ms), n), dtype=np.float64)
            for j, r in enumerate(ranks):
                w *= falling[r, ms[:, j]]
            half.append(w)
        halves.append(half)
    low, high = halves
    nonface = []
    for s in range(SLOTS + 1):
        block = np.empty((sum(len(low[a]) * len(high[s - a]) for a in range(s + 1)), n))
        at = 0
        for a in range(s + 1):
            rows = len(low[a]) * len(high[s - a])
            np.multiply(high[s - a][:, None, :], low[a][None, :, :],
                        out=block[at:at + rows].reshape(len(high[s - a]), len(low[a]), n))
            at += rows
        nonface.append(block)
    classes = _classes()
    faces = falling[NONFACE:]
    total = np.zeros((ordered.shape[0], n), dtype=np.float64)
    for p, first, last, rest in layout.blocks:
        sym = np.zeros(n, dtype=np.float64)
        for perm in _distinct_perms(classes.partitions[p]):
            sym += faces[0, perm[0]] * faces[1, perm[1]] * faces[2, perm[2]] * faces[3, perm[3]]
        part = ordered[:, first:last] @ nonface[rest]
        part *= sym[None, :]
        total += part
    out: np.ndarray = total.T.astype(np.int64)
    return out


def _compositions(compositions: Any, infinite: bool) -> tuple[np.ndarray, bool]:
    """Validate compositions once, at the boundary; (n, 13) int64 and the infinite flag."""
    if isinstance(compositions, Shoe):
        compositions = [compositions]
    if isinstance(compositions, Sequence) and compositions and all(
        isinstance(s, Shoe) for s in compositions
    ):
        kinds = {s.infinite for s in compositions}
        if len(kinds) > 1:
            raise ValueError("the shoes mix infinite and finite shoes: evaluate them in two batches")
        infinite = infinite or kinds.pop()
        compositions = [s.counts for s in compositions]
    if isinstance(compositions, np.ndarray) and compositions.dtype.kind in "iu":
        raw = compositions  # machine integers: only signs and shape to check
    else:
        try:
            raw = np.asarray(compositions, dtype=object)
        except ValueError:
            raise ValueError(
                "compositions must be an (n, 13) table of counts per rank A..K "
                "(rows of unequal length)"
            ) from None
    if raw.ndim != 2 or raw.shape[1] != 13:
        raise ValueError(
            f"compositions must be an (n, 13) table of counts per rank A..K, not shape {raw.shape}"
        )
    if raw.dtype == object:
        for i, row in enumerate(raw):
            for value in row:
                if isinstance(value, (bool, np.bool_)) or not (
                    isinstance(value, (int, np.integer))
                    or (isinstance(value, (float, np.floating)) and float(value).is_integer())
                ):
                    raise ValueError(
                        f"composition {i} has a count {value!r} that is not a whole number"
                    )
                if value >= INT64_EXACT:
                    raise ValueError(f"composition {i} has a count too large to hold ({value})")
    comps = raw.astype(np.int64)
    negative = np.flatnonzero((comps < 0).any(axis=1))
    if len(negative):
        i = int(negative[0])
        raise ValueError(f"composition {i} has a negative count ({int(comps[i].min())})")
    least = 1 if infinite else SLOTS
    for i, size in enumerate(comps.sum(axis=1, dtype=object)):
        if size < least:
            raise ValueError(
                f"composition {i} has {size} cards, but a round fills six card slots"
                if not infinite
                else f"composition {i} has no card weights (an infinite shoe needs some)"
            )
    return comps, infinite


def _class_weights(comps: np.ndarray, infinite: bool, bound: int) -> np.ndarray:
    """W summed over each row class, transposed: (classes, n), int64 or Python ints.

    ``bound`` (``N ** 6``, N the largest composition's size) caps every
    partial product: int64 is used only below ``2 ** 63``.  Arrays are laid
    out composition-last so that every gather takes whole rows.
    """
    classes = _classes()
    dtype: Any = np.int64 if bound < INT64_EXACT else object
    c = comps.T.astype(dtype)  # (13, n)
    n = c.shape[1]
    # step[r, j]: the factor the (j+1)-th card of rank r brings.
    offsets = np.zeros(SLOTS, dtype=np.int64) if infinite else np.arange(SLOTS, dtype=np.int64)
    step = c[:, None, :] - offsets.astype(dtype)[None, :, None]
    # Non-face multisets level by level: W(M) = W(M less one card of its top rank) * step.
    nonface = np.ones((len(classes.nonface), n), dtype=dtype)
    for parent, rank, nth, target in zip(*_nonface_tree(), strict=True):
        nonface[target] = nonface[parent] * step[rank, nth]
    # Face partitions: the sum over distinct assignments of the parts to 10, J, Q, K.
    falling = np.ones((FACES, SLOTS + 1, n), dtype=dtype)
    for m in range(1, SLOTS + 1):
        falling[:, m] = falling[:, m - 1] * step[NONFACE:, m - 1]
    sym = np.zeros((len(classes.partitions), n), dtype=dtype)
    for p, parts in enumerate(classes.partitions):
        for perm in _distinct_perms(parts):
            sym[p] += falling[0, perm[0]] * falling[1, perm[1]] * falling[2, perm[2]] * falling[
                3, perm[3]
            ]
    out: np.ndarray = nonface[classes.nonface_index] * sym[classes.partition_index]
    return out


@cache
def _distinct_perms(parts: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(sorted(set(permutations(parts))))


@lru_cache(maxsize=1)
def _nonface_tree() -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray], list[np.ndarray]]:
    """Per size 1..6: parent index, rank added, how many of it the parent held, index."""
    classes = _classes()
    at = {m: i for i, m in enumerate(classes.nonface)}
    levels: list[list[tuple[int, int, int, int]]] = [[] for _ in range(SLOTS)]
    for i, m in enumerate(classes.nonface):
        size = sum(m)
        if not size:
            continue
        top = max(r for r in range(NONFACE) if m[r])
        parent = list(m)
        parent[top] -= 1
        levels[size - 1].append((at[tuple(parent)], top, parent[top], i))
    columns = [np.array(list(zip(*lv, strict=True)), dtype=np.intp) for lv in levels]
    return ([c[0] for c in columns], [c[1] for c in columns],
            [c[2] for c in columns], [c[3] for c in columns])


@lru_cache(maxsize=1)
def _blas() -> Any:
    from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]

    return ThreadpoolController()


def _one_blas_thread() -> AbstractContextManager[Any]:
    """One BLAS thread: products here are small, and on a shared 2-core machine a
    second thread measured slower (bench/bench_batch.py prints both)."""
    limiter: AbstractContextManager[Any] = _blas().limit(limits=1, user_api="blas")
    return limiter


def _product(weights: np.ndarray, matrix: np.ndarray, bound: int) -> np.ndarray:
    """``weights.T @ matrix`` exactly, given every result is at most ``bound``.

    See the module docstring for why each branch is exact.
    """
    if bound < FLOAT_EXACT:
        out: np.ndarray = (weights.astype(np.float64).T @ matrix).astype(np.int64)
        return out
    limbs = -(-bound.bit_length() // LIMB)
    mask = (1 << LIMB) - 1
    big = bound >= INT64_EXACT
    total: np.ndarray = np.zeros((weights.shape[1], matrix.shape[1]),
                                 dtype=object if big else np.int64)
    for j in range(limbs):
        limb = ((weights >> (LIMB * j)) & mask).astype(np.float64)
        part = (limb.T @ matrix).astype(np.int64)
        if big:
            total = total + (part.astype(object) << (LIMB * j))
        else:
            total += part << (LIMB * j)
    return total


@dataclass(frozen=True, eq=False)
class BatchCounts:
    """Exact counts for a batch of compositions under one profile.

    Rows follow ``compositions``; ``totals[i]`` is the number of ordered
    six-card sequences of composition i (``ff(N, 6)``, or ``N ** 6``
    infinite).  ``summary`` (computed eagerly) holds the counts by
    :attr:`RulesTable.summary_keys`; ``outcome`` (by :attr:`RulesTable.keys`),
    ``player_final``, ``bank_final``, ``player_draws`` and ``bank_draws`` are
    given by ``counts(..., full=True)`` (``full_counts``, every column of the
    full table), else computed on first use, in one more matrix product.  Counts are int64, or
    Python integers (dtype=object) when a total reaches ``2 ** 63``.
    """

    table: RulesTable
    compositions: np.ndarray
    infinite: bool
    totals: tuple[int, ...]
    summary: np.ndarray
    full_counts: np.ndarray | None = field(default=None, repr=False)  # given: counts(full=True)

    def __len__(self) -> int:
        return len(self.totals)

    @cached_property
    def _full(self) -> np.ndarray:
        """(n, len(keys) + 22): every column of the full table."""
        if self.full_counts is not None:
            return self.full_counts
        table = self.table
        distinct = _counts(self.compositions, self.infinite, self.totals,
                           table.product[:, :table.distinct])
        full: np.ndarray = distinct[:, table.scatter]
        return full

    @property
    def outcome(self) -> np.ndarray:
        """(n, len(keys)) counts by :attr:`RoundOdds.outcome_counts` key."""
        return self._full[:, :len(self.table.keys)]

    @property
    def player_final(self) -> np.ndarray:
        """(n, 10) counts by the player's final value."""
        k = len(self.table.keys)
        return self._full[:, k:k + 10]

    @property
    def bank_final(self) -> np.ndarray:
        """(n, 10) counts by the bank's final value."""
        k = len(self.table.keys)
        return self._full[:, k + 10:k + 20]

    @property
    def player_draws(self) -> np.ndarray:
        """(n,) counts of sequences where the player takes a third card."""
        return self._full[:, len(self.table.keys) + 20]

    @property
    def bank_draws(self) -> np.ndarray:
        """(n,) counts of sequences where the bank takes a third card."""
        return self._full[:, len(self.table.keys) + 21]

    @property
    def profile(self) -> Profile:
        """The profile the counts are for."""
        return self.table.profile

    @property
    def bets(self) -> tuple[str, ...]:
        """The profile's bets, as :attr:`RoundOdds.bets`: player, and banker/tie."""
        return round_bets(self.profile)

    def shoe(self, i: int) -> Shoe:
        """Composition ``i`` as a :class:`Shoe` (no pack count: an explicit composition)."""
        return Shoe(tuple(int(c) for c in self.compositions[i]), infinite=self.infinite)

    def round_odds(self, i: int, shoe: Shoe | None = None) -> RoundOdds:
        """Composition ``i`` as the engine's :class:`RoundOdds`, equal in every field.

        ``shoe`` is the shoe to record (say ``Shoe.packs_of(8)`` for a fresh
        shoe, for its label); its counts must be composition ``i``'s.  Without
        the full counts computed, only row ``i`` is.

        >>> from odds.rules.profiles import BUILTIN
        >>> batch_counts(BUILTIN["standard"], [[4] * 13]).round_odds(0).player_colon
        Fraction(1, 17)
        """
        comp = tuple(int(c) for c in self.compositions[i])
        if shoe is None:
            shoe = self.shoe(i)
        elif tuple(shoe.counts) != comp or shoe.infinite != self.infinite:
            raise ValueError(f"the shoe given is not composition {i} of the batch")
        if "_full" in self.__dict__:
            row = self._full[i]
        else:
            # One composition: only the row classes it can deal (few, in a small shoe).
            one = self.compositions[i:i + 1]
            weights = _class_weights(one, self.infinite, int(one.sum()) ** SLOTS)
            rows = np.flatnonzero(weights[:, 0])
            table = self.table
            with _one_blas_thread():
                row = _product(weights[rows], table.product[rows, :table.distinct],
                               self.totals[i])[0][table.scatter]
        k = len(self.table.keys)
        return RoundOdds(
            profile=self.profile,
            shoe=shoe,
            player=(),
            bank=(),
            removed=(),
            player_total=None,
            bank_total=None,
            total=self.totals[i],
            outcome_counts={
                key: int(count) for key, count in zip(self.table.keys, row[:k], strict=True)
                if count
            },
            player_final_counts=tuple(int(c) for c in row[k:k + 10]),
            bank_final_counts=tuple(int(c) for c in row[k + 10:k + 20]),
            player_draw_count=int(row[k + 20]),
            bank_draw_count=int(row[k + 21]),
        )

    def _amounts(self, bet: str) -> list[Fraction]:
        """The net payout of ``bet`` per summary column."""
        if bet not in self.bets:
            raise ValueError(
                f"{bet!r} is not a bet of profile {self.profile.key!r} "
                f"(bets: {', '.join(self.bets)})"
            )
        profile = self.profile
        out = []
        for pcol, bcol, cat in self.table.summary_keys:
            out.append(bet_amount(profile, bet, Outcome(cat.split("_")[0]), pcol, bcol))
        return out

    def ev_numerators(self, bet: str = "player") -> tuple[np.ndarray, int]:
        """Numerators and the common denominator of each composition's EV.

        ``EV_i == Fraction(num[i], den * totals[i])``; ``num`` is int64 when
        no sum can reach ``2 ** 63``, else Python integers (dtype=object).

        >>> from odds.rules.profiles import BUILTIN
        >>> num, den = batch_counts(BUILTIN["punto-banco"], [[4] * 13]).ev_numerators("banker")
        >>> den, int(num[0]) < 0
        (20, True)
        """
        scaled, den = over_common_denominator(self._amounts(bet))
        return self.weighted_sums(scaled), den

    def weighted_sums(self, scaled: Sequence[int]) -> np.ndarray:
        """``summary @ scaled`` exactly: int64 when no sum can reach ``2 ** 63``, else
        Python integers (dtype=object)."""
        # |sum_k count_k * a_k| <= max|a| * total: the int64 bound.
        largest = max((abs(a) for a in scaled), default=0)
        if self.summary.dtype == np.int64 and largest * max(self.totals, default=0) < INT64_EXACT:
            num: np.ndarray = self.summary @ np.array(scaled, dtype=np.int64)
        else:
            num = self.summary.astype(object) @ np.array(scaled, dtype=object)
        return num

    def expected_values(self, bet: str = "player") -> list[Fraction]:
        """The exact expected net payout per unit stake of ``bet``, per composition.

        >>> from odds.rules.profiles import BUILTIN
        >>> batch_counts(BUILTIN["plain"], [[4] * 13]).expected_values()
        [Fraction(0, 1)]
        """
        num, den = self.ev_numerators(bet)
        return [Fraction(int(n), den * t) for n, t in zip(num, self.totals, strict=True)]

    def probabilities(self) -> dict[str, list[Fraction]]:
        """P(win), P(push), P(loss) of the player seat, P(Colon), P(Colon nine).

        >>> from odds.rules.profiles import BUILTIN
        >>> batch_counts(BUILTIN["standard"], [[4] * 13]).probabilities()["colon_nine"]
        [Fraction(1, 221)]
        """
        keys = self.table.summary_keys
        masks = {
            "win": [k[2].startswith("win_") for k in keys],
            "push": [k[2].startswith("push_") for k in keys],
            "loss": [k[2].startswith("loss_") for k in keys],
            "colon": [k[0] > 0 for k in keys],
            "colon_nine": [k[0] == COLON_NINE for k in keys],
        }
        out = {}
        for name, mask in masks.items():
            sums = self.summary[:, np.array(mask, dtype=bool)].sum(axis=1)
            out[name] = [Fraction(int(s), t) for s, t in zip(sums, self.totals, strict=True)]
        return out


def over_common_denominator(amounts: Sequence[Fraction]) -> tuple[list[int], int]:
    """Amounts as integer numerators over their least common denominator.

    >>> over_common_denominator([Fraction(19, 20), Fraction(-1), Fraction(8)])
    ([19, -20, 160], 20)
    """
    den = math.lcm(*(a.denominator for a in amounts)) if amounts else 1
    return [int(a * den) for a in amounts], den


def rules_table(profile: Profile) -> RulesTable:
    """The rules table of a fixed-rule profile, built once and cached.

    Cached in memory (the last :data:`HELD` rule sets, about 15 MB each,
    shared by profiles that differ only in what they pay) and on disk, if
    it can be written (:mod:`odds.exact.table_cache`: ``LUCKY9_NO_CACHE=1``
    turns that off).  :func:`clear_tables` empties the memory.

    >>> from odds.rules.profiles import BUILTIN
    >>> rules_table(BUILTIN["standard"]).product is rules_table(BUILTIN["standard"]).product
    True
    >>> rules_table(BUILTIN["family"])
    Traceback (most recent call last):
    ...
    odds.rules.profiles.ProfileError: profile 'family' has no fixed draw rule ...
    """
    require_fixed(profile)
    parts = held(_HELD, _rules_text(profile), HELD,
                 lambda: cached_table(table_key(profile), lambda: _build(profile), _orderings))
    return RulesTable(profile, *parts)


_T = TypeVar("_T")


def require_fixed(profile: Profile) -> None:
    """The batch engine's tables need fixed drawing rules: a ProfileError otherwise."""
    if not profile.fixed:
        raise ProfileError(
            f"profile {profile.key!r} has no fixed draw rule (players and bank choose): "
            "the batch engine needs fixed rules"
        )


def held(store: dict[Any, _T], key: Any, limit: int, build: Callable[[], _T]) -> _T:
    """``store[key]``, built if missing; the ``limit`` most recently used stay held."""
    value = store.pop(key, None)
    if value is None:
        value = build()
    store[key] = value  # the newest last
    while len(store) > limit:
        del store[next(iter(store))]
    return value


HELD = 2  # rule sets whose tables stay in memory (a test process used to keep 4, 160 MB)
_HELD: dict[str, TableParts] = {}


def clear_tables() -> None:
    """Forget the rules tables held in memory (the disk cache stays)."""
    _HELD.clear()
    _ORDERED.clear()


@lru_cache(maxsize=64)
def _rules_text(profile: Profile) -> str:
    """What the table depends on, as text: the memory cache's key."""
    options = profile.options()
    return json.dumps({name: options[name] for name in TABLE_OPTIONS}, sort_keys=True)


TABLE_FORMAT = 1  # how a rules table is stored on disk (odds.exact.table_cache)
# The options T depends on: the draw and settlement rules and what a Colon
# is.  Payouts and the shoe are applied after the product, so profiles
# that differ only there share one table (a test checks each other option).
TABLE_OPTIONS = ("naturals", "natural_values", "naturals_stop_draws", "player_draw", "bank_draw",
                 "colon_match")
# The modules whose code builds T (the build, Colon classes, settlement,
# point values, draw rules and table): editing any of them makes a new disk-cache key.
TABLE_SOURCES = ("odds.exact.batch", "odds.exact.deal", "odds.exact.engine", "odds.rules.settle",
                 "odds.rules.cards", "odds.rules.draw", "odds.rules.profiles")


def table_key(profile: Profile) -> dict[str, Any] | None:
    """What determines the rules table of ``profile``, as JSON data: its disk-cache key.

    None when the package's version or sources cannot be read (then no disk cache).

    >>> from odds.rules.profiles import BUILTIN
    >>> key = table_key(BUILTIN["standard"])
    >>> sorted(key), key["rules"]["player_draw"]
    (['format', 'rules', 'sources', 'version'], {'draws': [0, 1, 2, 3, 4, 5]})
    >>> table_key(BUILTIN["standard"].with_options(colon="5")) == key
    True
    """
    try:
        version = metadata.version("lucky9-odds")
    except metadata.PackageNotFoundError:
        return None
    sources = _source_digest()
    if sources is None:
        return None
    options = profile.options()
    return {"format": TABLE_FORMAT, "version": version, "sources": sources,
            "rules": {name: options[name] for name in TABLE_OPTIONS}}


@lru_cache(maxsize=1)
def _source_digest() -> str | None:
    digest = hashlib.sha256()
    for name in TABLE_SOURCES:
        try:
            digest.update(Path(sys.modules[name].__file__ or "").read_bytes())
        except (KeyError, OSError):
            return None
    return digest.hexdigest()


def _orderings() -> np.ndarray:
    """Per row class, the orderings of its rank multiset: ``6! / prod(m_r!)``."""
    codes = _classes().codes
    counts = (codes[:, None] // FACE_COUNTS ** np.arange(13, dtype=np.int64)) % FACE_COUNTS
    factorials = np.array([math.factorial(m) for m in range(FACE_COUNTS)], dtype=np.int64)
    out: np.ndarray = math.factorial(SLOTS) // factorials[counts].prod(axis=1)
    return out


def batch_counts(
    profile: Profile, compositions: Any, *, infinite: bool = False, full: bool = False
) -> BatchCounts:
    """``rules_table(profile).counts(compositions, infinite=infinite, full=full)``.

    >>> from odds.rules.profiles import BUILTIN
    >>> batch_counts(BUILTIN["standard"], [[4] * 13], infinite=True).totals
    (19770609664,)
    """
    return rules_table(profile).counts(compositions, infinite=infinite, full=full)
