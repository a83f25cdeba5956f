"""Weights and limbs: counting ordered deals exactly with machine numbers, and why it is exact.

Both kernels that count a finite shoe's deals by rank multisets count them
as *weights times orderings*:

- the batch engine (:mod:`odds.exact.products`): per row class ``M`` of six
  cards, ``W(M; c) = prod_r ff(c_r, m_r)`` times ``T[M, column]``, the
  orderings of M that lead to the column: ``W.T @ T``;
- the two seats (:mod:`odds.exact.seats`): per pair of three-card multisets,
  ``G[m1, m2] = prod_r ff(c_r, (m1 + m2)_r)`` between the seats' orderings
  ``H``: ``H.T @ G @ H``.

``ff(c, k) = c (c - 1) ... (c - k + 1)`` is the number of ordered draws of
k cards of a rank from the c left (``c ** k`` for the infinite shoe, which
deals with replacement): :func:`falling_factorials`.  A count is a sum of
weights times orderings, so it is exact when every number along the way is
an integer that the type holding it represents.

**The proof.**  Every weight and every entry of an orderings matrix is a
non-negative integer, and every count is a number of ordered deals of ``s``
cards from a shoe of ``n``: at most ``bound = ff(n, s)`` (``n ** s``
infinite).

1. *Weights.*  A weight is a product of at most ``s`` factors, each at most
   ``n``; so is each partial product: all are at most ``n ** s``.  They are
   exact in int64 when ``n ** s < 2 ** 63`` (:data:`INT64_EXACT`), else held
   as Python integers.  :func:`int64_cards` is the largest shoe whose
   ``ff(n, s)`` stays below ``2 ** 63``.
2. *One float64 product.*  The terms of a count are non-negative, so every
   partial sum, in whatever order BLAS adds, is an integer at most the
   count, at most ``bound``.  When ``bound < 2 ** 53`` (:data:`FLOAT_EXACT`)
   float64 holds each exactly, so the product is the exact count.
3. *Limbs.*  Beyond, each weight is split into ``b``-bit limbs,
   ``w = sum_j L_j 2 ** (b j)`` with ``0 <= L_j < 2 ** b``.  If every column
   of the orderings matrix sums to at most ``S`` over its rows, every entry
   of ``L_j @ matrix`` and each of its partial sums is below ``2 ** b * S``;
   :func:`limb_bits` takes the widest ``b`` with ``2 ** b * S <= 2 ** 53``,
   so each limb's product is exact in float64.  (For ``H.T @ L @ H`` with
   H's columns summing to at most ``S_H``, ``S = S_H ** 2``.)  The limbs'
   products, shifted back, are recombined in int64 while ``bound < 2 ** 63``
   (each shifted part is at most the count), else in Python integers.

``S`` is small because a column counts each ordered sequence at most once:
``13 ** 6`` over six-card row classes (30-bit limbs), ``(13 ** 3) ** 2``
for the seats' three-card hands (30-bit limbs too).

>>> limb_bits(13 ** 6), 2 ** 30 * 13 ** 6 < FLOAT_EXACT <= 2 ** 31 * 13 ** 6
(30, True)
>>> int64_cards(6)
1450
>>> import numpy as np
>>> falling_factorials(np.array([[4], [1]]), 3, False, np.int64)[:, :, 0].tolist()
[[1, 4, 12, 24], [1, 1, 0, 0]]
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

__all__ = ["FLOAT_EXACT", "INT64_EXACT", "exact_product", "falling_factorials", "int64_cards",
           "limb_bits"]

FLOAT_EXACT = 2**53  # float64 holds every integer below this
INT64_EXACT = 2**63  # int64 holds every non-negative integer below this


def falling_factorials(counts: np.ndarray, depth: int, infinite: bool, dtype: Any) -> np.ndarray:
    """``out[r, k, ...] = ff(counts[r, ...], k)`` for k = 0..depth (``c ** k`` infinite).

    ``counts`` holds non-negative integers; ``dtype`` is np.float64, np.int64
    or object, chosen by the caller by the proof above.  A count below k
    gives 0 (the product passes through the factor 0).
    """
    import numpy as np  # numpy only when counting: the seats' bounds are read without it

    c = np.asarray(counts).astype(dtype)
    out = np.ones((c.shape[0], depth + 1, *c.shape[1:]), dtype=dtype)
    for k in range(1, depth + 1):
        out[:, k] = out[:, k - 1] * (c if infinite else np.maximum(c - (k - 1), 0))
    return out


def limb_bits(column_sum: int) -> int:
    """The widest limb ``b`` with ``2 ** b * column_sum <= 2 ** 53`` (step 3 of the proof).

    >>> limb_bits(2 ** 53)
    Traceback (most recent call last):
    ...
    ValueError: a limb product needs column sums below 2**53 (float64's exact integers), not 9007199254740992
    """
    if column_sum < 1 or column_sum >= FLOAT_EXACT:
        raise ValueError("a limb product needs column sums below 2**53 (float64's exact "
                         f"integers), not {column_sum}")
    return (FLOAT_EXACT // column_sum).bit_length() - 1


def int64_cards(slots: int) -> int:
    """The largest shoe ``n`` whose ordered draws of ``slots`` cards, ``ff(n, slots)``, stay
    below ``2 ** 63``: the largest for which every weight is exact in int64 (step 1)."""
    n = int(INT64_EXACT ** (1 / slots))  # near: ff(n, s) < n ** s, then exactly
    while math.perm(n + 1, slots) < INT64_EXACT:
        n += 1
    while math.perm(n, slots) >= INT64_EXACT:
        n -= 1
    return n


def exact_product(weights: np.ndarray, bound: int, column_sum: int,
                  multiply: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """``multiply(weights)`` exactly, as int64 or Python integers (dtype=object).

    ``multiply`` is linear in the weights with non-negative integer
    coefficients whose columns sum to at most ``column_sum`` (an orderings
    matrix, once or on both sides: then its column sum squared); ``weights``
    are non-negative integers (int64 or Python integers) and every result is
    at most ``bound``.  One float64 product below ``2 ** 53``, else limbs
    (steps 2 and 3 of the proof).

    >>> import numpy as np
    >>> w = np.array([[3 * 2 ** 60 + 5]], dtype=object)  # beyond float64 and int64
    >>> m = np.array([[2.0, 1.0]])
    >>> exact_product(w, 2 ** 63, 2, lambda x: x @ m).tolist() == [[6 * 2 ** 60 + 10, 3 * 2 ** 60 + 5]]
    True
    """
    import numpy as np

    if bound < FLOAT_EXACT:
        out: np.ndarray = multiply(weights.astype(np.float64)).astype(np.int64)
        return out
    bits = limb_bits(column_sum)
    mask = (1 << bits) - 1
    big = bound >= INT64_EXACT
    total: Any = 0
    for j in range(-(-bound.bit_length() // bits)):
        part = multiply(((weights >> (bits * j)) & mask).astype(np.float64)).astype(np.int64)
        if big:
            total = total + (part.astype(object) << (bits * j))
        else:
            total = total + (part << (bits * j))
    result: np.ndarray = total
    return result
