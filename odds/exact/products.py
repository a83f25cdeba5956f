"""A batch of compositions' counts: their weights times a table's columns, exactly.

The batch engine (:mod:`odds.exact.batch`) counts a composition ``c``'s
ordered six-card deals by outcome column as ``sum_M W(M; c) * T[M, column]``,
``W(M; c) = prod_r ff(c_r, m_r)`` (``c_r ** m_r`` for the infinite shoe)
over the row classes ``M`` of :func:`odds.exact.sequences.row_classes`.
This module makes the weights and the product for a batch of compositions,
chunk by chunk, given any matrix over the row classes (the rules table's,
a bet table's, the verifier's marginals).

Exactness, by the proof of :mod:`odds.exact.weights` (shared with the two
seats' counts): a composition of N cards has ``ff(N, 6)`` ordered six-card
sequences (``N ** 6`` infinite), the ``bound`` of each of its counts, and a
column of any table over the row classes counts each sequence at most once,
so it sums to at most :data:`COLUMN_SUM` ``= 13 ** 6`` over the rows.  Hence:

* W is computed in int64 when ``N ** 6 < 2 ** 63``, else in Python
  integers (dtype=object) (step 1);
* the product is one float64 matrix product when every total is below
  ``2 ** 53`` (step 2): up to 458 cards, 8 packs (416 cards, total about
  4.97e15) included; when ``N ** 6 < 2 ** 53`` too (up to 456 cards) the
  weights themselves are made in float64, factorised by face partition and
  by low and high non-face ranks, without a weight per class
  (:func:`_float_product`, with its own bound on partial sums);
* beyond, W is split into 30-bit limbs (step 3: ``2 ** 30 * 13 ** 6 <
  2 ** 53``), recombined in int64 while every total is below ``2 ** 63``,
  else in Python integers.

Products run on one BLAS thread: on a shared 2-core machine a second thread
measured slower (bench/bench_batch.py prints both).

>>> from odds.rules.shoe import Shoe
>>> comps, infinite = check_compositions([Shoe.packs_of(1)], False)
>>> sequence_totals(comps, infinite) == (52 * 51 * 50 * 49 * 48 * 47,)
True
>>> check_compositions([[4] * 12], False)
Traceback (most recent call last):
...
ValueError: compositions must be an (n, 13) table of counts per rank A..K, not shape (1, 12)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import permutations
from typing import Any

import numpy as np

from odds.exact.sequences import NONFACE, SLOTS, multisets, row_classes
from odds.exact.table_cache import held
from odds.exact.weights import FLOAT_EXACT, INT64_EXACT, exact_product, falling_factorials
from odds.rules.shoe import Shoe

__all__ = ["CHUNK", "COLUMN_SUM", "FLOAT_CHUNK", "FLOAT_EXACT", "INT64_EXACT", "OBJECT_CHUNK",
           "check_compositions", "clear_ordered", "composition_counts", "one_blas_thread",
           "sequence_totals", "single_counts"]

# A column of a table over the row classes counts each ordered six-card sequence at most
# once (a rules table's key, a bet's entry, a marginal): it sums to at most 13 ** 6 over
# the rows, the column sum of the limb proof (odds.exact.weights).
COLUMN_SUM = 13**SLOTS
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


def sequence_totals(comps: np.ndarray, infinite: bool) -> tuple[int, ...]:
    sizes = [int(s) for s in comps.sum(axis=1, dtype=object)]
    return tuple(size**SLOTS if infinite else math.perm(size, SLOTS) for size in sizes)


def composition_counts(
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
        with one_blas_thread():
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
    classes = row_classes()
    lows = [multisets(LOW, range(k, k + 1)) for k in range(SLOTS + 1)]
    highs = [multisets(NONFACE - LOW, range(k, k + 1)) for k in range(SLOTS + 1)]
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
    falling = falling_factorials(c, SLOTS, infinite, np.float64)
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
    classes = row_classes()
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


def check_compositions(compositions: Any, infinite: bool) -> tuple[np.ndarray, bool]:
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
    if isinstance(compositions, np.ndarray) and compositions.dtype.kind == "i":
        raw = compositions  # signed machine integers: only signs and shape to check
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
    classes = row_classes()
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
    falling = falling_factorials(c[NONFACE:], SLOTS, infinite, dtype)
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
    classes = row_classes()
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


def one_blas_thread() -> AbstractContextManager[Any]:
    """One BLAS thread: products here are small, and on a shared 2-core machine a
    second thread measured slower (bench/bench_batch.py prints both)."""
    limiter: AbstractContextManager[Any] = _blas().limit(limits=1, user_api="blas")
    return limiter


def _product(weights: np.ndarray, matrix: np.ndarray, bound: int) -> np.ndarray:
    """``weights.T @ matrix`` exactly, given every result is at most ``bound``: the
    product of :mod:`odds.exact.weights` with the row classes' :data:`COLUMN_SUM`."""
    return exact_product(weights, bound, COLUMN_SUM, lambda w: w.T @ matrix)


def single_counts(composition: np.ndarray, infinite: bool, total: int,
                  matrix: np.ndarray) -> np.ndarray:
    """One validated composition's counts, ``W(c) @ matrix``, given its total.

    Only the row classes it can deal take part (few, in a small shoe).
    """
    one = np.asarray(composition).reshape(1, -1)
    weights = _class_weights(one, infinite, int(one.sum()) ** SLOTS)
    rows = np.flatnonzero(weights[:, 0])
    with one_blas_thread():
        out: np.ndarray = _product(weights[rows], matrix[rows], total)[0]
    return out


def clear_ordered() -> None:
    """Forget the reordered copies of the matrices held for the float product."""
    _ORDERED.clear()
