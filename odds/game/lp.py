"""An exact simplex method: linear programmes over the rationals, no rounding.

Solves ``maximise c.x subject to A x <= b, x >= 0`` with ``b >= 0`` (so
the slack basis is a feasible start and no first phase is needed), in
``fractions.Fraction`` arithmetic throughout.  It returns the optimal
value, an optimal ``x`` and the dual prices ``y`` (``y >= 0``,
``A^T y >= c``, ``b.y`` = the value), which the game solver reads as the
other side's optimal strategy.

Pivoting is Dantzig's rule (largest reduced cost) with Bland's rule after
a run of degenerate pivots, so the method terminates.

The tableau is kept in integers (fraction-free, Bareiss' integer pivoting):
each row is scaled to integers once, with its slack rescaled to stay a unit
column; the tableau is then ``T / D`` with ``D`` the determinant of the
current basis, and a pivot's cross products divide exactly by the previous
``D``.  No gcd per operation, several times faster than ``Fraction`` rows,
and the same pivots: every choice compares the true (unscaled) reduced costs
and ratios.  :func:`maximise_fractions` is the plain ``Fraction`` version,
kept as the reference the tests compare against.

``sympy.solvers.simplex.linprog`` (sympy 1.14) was tried first: it reports
feasible programmes with free or lower-bounded variables as infeasible
(``z <= x - 3, z <= 1 - x, 0 <= x <= 1``), and it gives no dual prices.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import gcd

__all__ = ["LPResult", "maximise", "maximise_fractions"]


@dataclass(frozen=True)
class LPResult:
    """An optimal solution: value, primal ``x``, dual ``y``, pivots taken."""

    value: Fraction
    x: tuple[Fraction, ...]
    y: tuple[Fraction, ...]
    pivots: int


def _sizes(c: Sequence[Fraction | int], a: Sequence[Sequence[Fraction | int]],
           b: Sequence[Fraction | int]) -> tuple[int, int]:
    """Rows and columns of ``max c.x, a x <= b``, checked for the slack start."""
    m, n = len(a), len(c)
    if len(b) != m or any(len(row) != n for row in a):
        raise ValueError(f"the programme's sizes do not agree: c has {n} entries, "
                         f"a has {m} rows, b has {len(b)} entries")
    if any(v < 0 for v in b):
        raise ValueError("the slack start needs b >= 0; shift the variables first")
    return m, n


def maximise_fractions(
    c: Sequence[Fraction | int],
    a: Sequence[Sequence[Fraction | int]],
    b: Sequence[Fraction | int],
) -> LPResult:
    """:func:`maximise` in ``Fraction`` arithmetic (the reference).

    >>> r = maximise_fractions([3, 2], [[1, 1], [1, 0]], [4, 3])
    >>> r.value, r.x, r.y
    (Fraction(11, 1), (Fraction(3, 1), Fraction(1, 1)), (Fraction(2, 1), Fraction(1, 1)))
    >>> maximise_fractions([1], [[-1]], [0])
    Traceback (most recent call last):
    ...
    ValueError: the linear programme is unbounded (column 0 can grow without limit)
    """
    m, n = _sizes(c, a, b)
    width = n + m
    # Row i: [a_i | e_i | b_i]; the objective row holds reduced costs -c, 0 | value.
    rows: list[list[Fraction]] = []
    for i, row in enumerate(a):
        full = [Fraction(v) for v in row] + [Fraction(0)] * m + [Fraction(b[i])]
        full[n + i] = Fraction(1)
        rows.append(full)
    obj = [Fraction(-v) for v in c] + [Fraction(0)] * (m + 1)
    basis = list(range(n, n + m))
    pivots = 0
    degenerate = 0
    while True:
        if degenerate > 50:  # Bland: the first improving column, ends cycling
            col = next((k for k in range(width) if obj[k] < 0), -1)
        else:
            col = min(range(width), key=obj.__getitem__)
            if obj[col] >= 0:
                col = -1
        if col < 0:
            break
        best: tuple[Fraction, int] | None = None
        for i, row in enumerate(rows):
            if row[col] > 0:
                ratio = row[-1] / row[col]
                if best is None or ratio < best[0] or (
                    ratio == best[0] and basis[i] < basis[best[1]]
                ):
                    best = (ratio, i)
        if best is None:
            raise ValueError(
                f"the linear programme is unbounded (column {col} can grow without limit)"
            )
        ratio, r = best
        degenerate = degenerate + 1 if ratio == 0 else 0
        _pivot(rows, obj, r, col)
        basis[r] = col
        pivots += 1
    x = [Fraction(0)] * width
    for i, k in enumerate(basis):
        x[k] = rows[i][-1]
    return LPResult(obj[-1], tuple(x[:n]), tuple(obj[n:width]), pivots)


def _pivot(rows: list[list[Fraction]], obj: list[Fraction], r: int, col: int) -> None:
    prow = rows[r]
    piv = prow[col]
    nz = [k for k, v in enumerate(prow) if v]
    for k in nz:
        prow[k] /= piv
    for i, row in enumerate(rows):
        f = row[col]
        if i != r and f:
            for k in nz:
                row[k] -= f * prow[k]
    f = obj[col]
    if f:
        for k in nz:
            obj[k] -= f * prow[k]


def _lcm_of_denominators(values: Sequence[Fraction]) -> int:
    scale = 1
    for v in values:
        if v.denominator != 1:
            scale = scale * v.denominator // gcd(scale, v.denominator)
    return scale


def _integer_row(values: Sequence[Fraction]) -> tuple[list[int], int]:
    """``values`` as integers over one positive denominator, in lowest terms."""
    den = _lcm_of_denominators(values)
    return [v.numerator * (den // v.denominator) for v in values], den


def maximise(
    c: Sequence[Fraction | int],
    a: Sequence[Sequence[Fraction | int]],
    b: Sequence[Fraction | int],
) -> LPResult:
    """Maximise ``c.x`` subject to ``a x <= b``, ``x >= 0``, for ``b >= 0``.

    >>> r = maximise([3, 2], [[1, 1], [1, 0]], [4, 3])
    >>> r.value, r.x, r.y
    (Fraction(11, 1), (Fraction(3, 1), Fraction(1, 1)), (Fraction(2, 1), Fraction(1, 1)))
    >>> maximise([Fraction(1, 2)], [[Fraction(1, 3)]], [1]).value
    Fraction(3, 2)
    >>> maximise([1], [[-1]], [0])
    Traceback (most recent call last):
    ...
    ValueError: the linear programme is unbounded (column 0 can grow without limit)
    """
    m, n = _sizes(c, a, b)
    width = n + m
    # Each row is integers over its own positive denominator: row i is nums[i] / dens[i].
    nums: list[list[int]] = []
    dens: list[int] = []
    zero, one = Fraction(0), Fraction(1)
    for i, row in enumerate(a):
        full = [v if isinstance(v, Fraction) else Fraction(v) for v in row]
        full += [zero] * m + [Fraction(b[i])]
        full[n + i] = one
        ints, den = _integer_row(full)
        nums.append(ints)
        dens.append(den)
    obj, obj_den = _integer_row([Fraction(-v) for v in c] + [Fraction(0)] * (m + 1))
    basis = list(range(n, n + m))
    pivots = 0
    degenerate = 0
    while True:
        # The objective row's common denominator is positive: compare numerators.
        if degenerate > 50:  # Bland: the first improving column, ends cycling
            col = next((k for k in range(width) if obj[k] < 0), -1)
        else:
            col = min(range(width), key=obj.__getitem__)
            if obj[col] >= 0:
                col = -1
        if col < 0:
            break
        best: int | None = None
        for i, row in enumerate(nums):
            if row[col] > 0:
                if best is None:
                    best = i
                    continue
                # ratio_i = row[-1] / row[col] (the row's denominator cancels): cross products.
                lhs, rhs = row[-1] * nums[best][col], nums[best][-1] * row[col]
                if lhs < rhs or (lhs == rhs and basis[i] < basis[best]):
                    best = i
        if best is None:
            raise ValueError(
                f"the linear programme is unbounded (column {col} can grow without limit)"
            )
        r = best
        degenerate = degenerate + 1 if nums[r][-1] == 0 else 0
        obj_den = _pivot_rows(nums, dens, obj, obj_den, r, col)
        basis[r] = col
        pivots += 1
    x = [Fraction(0)] * width
    for i, k in enumerate(basis):
        x[k] = Fraction(nums[i][-1], dens[i])
    y = tuple(Fraction(obj[k], obj_den) for k in range(n, width))
    return LPResult(Fraction(obj[-1], obj_den), tuple(x[:n]), y, pivots)


def _reduce(row: list[int], den: int) -> int:
    g = gcd(den, *row)
    if g > 1:
        row[:] = [v // g for v in row]
        den //= g
    return den


def _pivot_rows(nums: list[list[int]], dens: list[int], obj: list[int], obj_den: int,
                r: int, col: int) -> int:
    """One pivot on rows kept as integers over a denominator; returns the objective's."""
    prow = nums[r]
    piv = prow[col]  # the pivot row becomes prow / piv (its old denominator cancels)
    if piv < 0:
        prow[:] = [-v for v in prow]
        piv = -piv
    dens[r] = _reduce(prow, piv)
    piv = prow[col]
    pden = dens[r]  # now prow[col] / pden == 1
    nz = [k for k, v in enumerate(prow) if v]

    def eliminate(row: list[int], den: int) -> int:
        # row/den - (row[col]/den) * prow/pden  ==  (row * pden - row[col] * prow) / (den * pden)
        f = row[col]
        new = [v * pden for v in row] if pden != 1 else row[:]
        for k in nz:
            new[k] -= f * prow[k]
        row[:] = new
        return _reduce(row, den * pden)

    for i, row in enumerate(nums):
        if i != r and row[col]:
            dens[i] = eliminate(row, dens[i])
    if obj[col]:
        obj_den = eliminate(obj, obj_den)
    return obj_den
