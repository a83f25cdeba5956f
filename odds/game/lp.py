"""An exact simplex method: linear programmes over the rationals, no rounding.

Solves ``maximise c.x subject to A x <= b, x >= 0`` with ``b >= 0`` (so
the slack basis is a feasible start and no first phase is needed), in
``fractions.Fraction`` arithmetic throughout.  It returns the optimal
value, an optimal ``x`` and the dual prices ``y`` (``y >= 0``,
``A^T y >= c``, ``b.y`` = the value), which the game solver reads as the
other side's optimal strategy.

Pivoting is Dantzig's rule (largest reduced cost) with Bland's rule after
a run of degenerate pivots, so the method terminates.

``sympy.solvers.simplex.linprog`` (sympy 1.14) was tried first: it reports
feasible programmes with free or lower-bounded variables as infeasible
(``z <= x - 3, z <= 1 - x, 0 <= x <= 1``), and it gives no dual prices.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["LPResult", "maximise"]


@dataclass(frozen=True)
class LPResult:
    """An optimal solution: value, primal ``x``, dual ``y``, pivots taken."""

    value: Fraction
    x: tuple[Fraction, ...]
    y: tuple[Fraction, ...]
    pivots: int


def maximise(
    c: Sequence[Fraction | int],
    a: Sequence[Sequence[Fraction | int]],
    b: Sequence[Fraction | int],
) -> LPResult:
    """Maximise ``c.x`` subject to ``a x <= b``, ``x >= 0``, for ``b >= 0``.

    >>> r = maximise([3, 2], [[1, 1], [1, 0]], [4, 3])
    >>> r.value, r.x, r.y
    (Fraction(11, 1), (Fraction(3, 1), Fraction(1, 1)), (Fraction(2, 1), Fraction(1, 1)))
    >>> maximise([1], [[-1]], [0])
    Traceback (most recent call last):
    ...
    ValueError: the linear programme is unbounded (column 0 can grow without limit)
    """
    m, n = len(a), len(c)
    if len(b) != m or any(len(row) != n for row in a):
        raise ValueError(f"the programme's sizes do not agree: c has {n} entries, "
                         f"a has {m} rows, b has {len(b)} entries")
    if any(v < 0 for v in b):
        raise ValueError("the slack start needs b >= 0; shift the variables first")
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
