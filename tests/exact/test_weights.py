"""The weights-and-limbs proof (odds.exact.weights), checked on its bounds and both kernels.

The batch engine and the two seats count deals as integer weights times
orderings, exact in float64, int64 or limbs by one proof: these tests check
its numbers (the limb width, the int64 shoe) against the tables the kernels
really multiply, and that the limb path gives the float path's counts.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odds.exact import weights
from odds.exact.batch import rules_table
from odds.exact.products import COLUMN_SUM
from odds.exact.seats import HAND, MAX_PAIR_CARDS, pair_counts
from odds.exact.weights import (
    FLOAT_EXACT,
    INT64_EXACT,
    exact_product,
    falling_factorials,
    int64_cards,
    limb_bits,
)
from odds.rules.profiles import BUILTIN
from odds.rules.shoe import Shoe


def test_the_limb_width_is_the_widest_that_stays_exact() -> None:
    assert COLUMN_SUM == 13**6
    b = limb_bits(COLUMN_SUM)
    assert b == 30 and 2**b * COLUMN_SUM <= FLOAT_EXACT < 2 ** (b + 1) * COLUMN_SUM
    assert limb_bits((13**HAND) ** 2) == 30  # the seats' two-sided product
    with pytest.raises(ValueError, match=r"column sums below 2\*\*53"):
        limb_bits(FLOAT_EXACT)


def test_the_limb_width_is_the_widest_at_every_column_sum() -> None:
    # From a column sum of 1 (a limb as wide as float64's exact integers) to just below 2**53.
    for column_sum in [*range(1, 300), 13**6, 2**52 - 1, 2**52, 2**52 + 1, FLOAT_EXACT - 1]:
        b = limb_bits(column_sum)
        assert 2**b * column_sum <= FLOAT_EXACT < 2 ** (b + 1) * column_sum, column_sum
    for bad in (0, -1):
        with pytest.raises(ValueError, match=r"column sums below 2\*\*53"):
            limb_bits(bad)


def test_every_column_of_a_rules_table_sums_to_at_most_the_bound() -> None:
    """The column sum the limbs are cut for: each canonical sequence counts once a column."""
    for key in ("standard", "punto-banco"):
        product = rules_table(BUILTIN[key]).product
        sums = product.sum(axis=0)
        assert sums.max() <= COLUMN_SUM and bool(np.all(sums == np.round(sums)))


def test_the_int64_shoe_is_the_largest_below_2_63() -> None:
    for slots in (1, 2, 3, 6, 9):
        n = int64_cards(slots)
        assert math.perm(n, slots) < INT64_EXACT <= math.perm(n + 1, slots), slots


def test_the_seats_bound_is_whole_packs_below_it() -> None:
    # A round of two seats takes 3 cards for the bank, then the seats' six from n - 3.
    assert MAX_PAIR_CARDS == 1404 == 27 * 52
    assert math.perm(MAX_PAIR_CARDS - 3, 6) < INT64_EXACT <= math.perm(28 * 52 - 3, 6)


def test_the_seats_refuse_a_shoe_beyond_the_bound() -> None:
    over = Shoe((108 + 1,) + (108,) * 12)  # 27 packs and one card
    with pytest.raises(ValueError, match=r"at most 1,404 cards \(27 packs: .*below 2\*\*63\), "
                                         r"not 1,405"):
        pair_counts(BUILTIN["standard"], over)


def test_falling_factorials_are_exact_in_every_type() -> None:
    big = np.array([[0, 1, 5, 416], [3, 6, 7, 1404]])  # ff(1404, 6) < 2**63
    small = np.array([[0, 1, 5, 416], [3, 6, 7, 456]])  # ff(456, 6) < 2**53: float64's own
    for dtype, counts in ((np.int64, big), (object, big), (np.float64, small)):
        got = falling_factorials(counts, 6, False, dtype)
        assert got.shape == (2, 7, 4)
        for r in range(2):
            for k in range(7):
                assert [int(x) for x in got[r, k]] == [math.perm(int(c), k) for c in counts[r]]
    inf = falling_factorials(big, 6, True, object)
    assert [int(x) for x in inf[1, 6]] == [int(c) ** 6 for c in big[1]]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**80), st.integers(1, 30), st.randoms(use_true_random=False))
def test_the_limb_product_equals_python_integers(top: int, rows: int, rng: random.Random) -> None:
    w = np.array([[rng.randrange(top + 1) for _ in range(3)] for _ in range(rows)], dtype=object)
    m = np.array([[rng.randrange(4) for _ in range(5)] for _ in range(rows)])
    column_sum = max(1, int(m.sum(axis=0).max()))
    exact = (w.T @ m.astype(object)).tolist()
    bound = max(1, max(max(row) for row in exact))
    if bound < INT64_EXACT:
        w = w.astype(np.int64)
    got = exact_product(w, bound, column_sum, lambda x: x.T @ m.astype(np.float64))
    assert [[int(v) for v in row] for row in got.tolist()] == exact


def test_the_seats_limb_path_gives_the_float_paths_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """With float64's bound made small, every product of the seats takes limbs (narrow ones):
    the counts are the same integers."""
    profile = BUILTIN["standard"]
    shoe = Shoe((2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1))
    want = pair_counts(profile, shoe).counts
    monkeypatch.setattr(weights, "FLOAT_EXACT", 2**30)
    assert limb_bits(13**6) < 30
    assert pair_counts(profile, shoe).counts == want


def test_below_2_53_the_count_is_one_float64_product() -> None:
    """Step 2 of the proof: below float64's bound one product is exact, so no limbs are cut."""
    w = np.array([[3, 5]], dtype=np.int64)
    m = np.array([[1.0], [2.0]])
    seen: list[np.dtype] = []

    def multiply(x: np.ndarray) -> np.ndarray:
        seen.append(x.dtype)
        return np.asarray(x @ m)

    assert exact_product(w, FLOAT_EXACT - 1, 2, multiply).tolist() == [[13]]
    assert seen == [np.float64]
    seen.clear()
    assert exact_product(w, FLOAT_EXACT, 2, multiply).tolist() == [[13]]  # limbs from here
    assert len(seen) == -(-FLOAT_EXACT.bit_length() // limb_bits(2)) > 1
