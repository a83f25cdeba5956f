"""The batch engine's two cost contracts, which no count can show (both ways are exact):

* shoes below ``FLOAT_EXACT ** (1/6)`` cards (456: 8 packs included) are counted by the
  factorised float64 product, without a weight per row class (3 times faster, measured
  on 2,000 depleted 8-pack shoes); from 457 cards on, by the class weights;
* once a batch's full counts are made (on first use), :meth:`BatchCounts.round_odds`
  reads its row back instead of counting the composition again.

Spies wrap the module's own functions (still calling them), so the counts are the
real ones and are checked too.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import fields

import numpy as np
import pytest

from odds import BUILTIN, RoundOdds
from odds.exact import products as batch_module
from odds.exact.batch import batch_counts, rules_table
from odds.exact.products import FLOAT_EXACT
from odds.exact.sequences import SLOTS

STANDARD = BUILTIN["standard"]


def _spread(n: int) -> list[int]:
    return [n // 13 + (r < n % 13) for r in range(13)]


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Counter:
    """How often each counting function of the module is called."""
    seen: Counter = Counter()
    for name in ("_class_weights", "_float_product", "_product"):
        real = getattr(batch_module, name)

        def spy(*args, _real=real, _name=name, **kwargs):
            seen[_name] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(batch_module, name, spy)
    return seen


# -- the float64 fast path: up to 456 cards, and not one card more ------------------------

LAST_FLOAT = max(n for n in range(400, 500) if n**SLOTS < FLOAT_EXACT)


def test_the_float_limit_is_456_cards() -> None:
    assert LAST_FLOAT == 456 and 456**6 < 2**53 <= 457**6


@pytest.mark.parametrize("infinite", [False, True], ids=["finite", "infinite"])
@pytest.mark.parametrize("size,fast", [(7, True), (52, True), (LAST_FLOAT, True),
                                       (LAST_FLOAT + 1, False), (600, False)])
def test_shoes_up_to_456_cards_take_the_float_product(calls, size, fast, infinite) -> None:
    table = rules_table(STANDARD)
    comps = [_spread(size), _spread(size - 1)]  # a chunk's largest shoe decides its path
    got = batch_counts(STANDARD, comps, infinite=infinite)
    if fast:
        assert calls["_float_product"] == 1 and calls["_class_weights"] == 0
    else:
        assert calls["_float_product"] == 0 and calls["_class_weights"] == 1
    # Either way the counts are the exact sums W(M; c) * T[M, column] in Python integers.
    weights = batch_module._class_weights(np.array(comps), infinite, size**SLOTS)
    exact = weights.astype(object).T @ table.summary.astype(np.int64).astype(object)
    assert got.summary.tolist() == exact.tolist()
    per_shoe = (lambda n: n**SLOTS) if infinite else (lambda n: math.perm(n, SLOTS))
    assert got.totals == (per_shoe(size), per_shoe(size - 1))


# -- round_odds(i) reads the full counts back once they are made ----------------------------


def _fields(r: RoundOdds) -> dict[str, object]:
    return {f.name: getattr(r, f.name) for f in fields(r)}  # RoundOdds compares by identity


@pytest.mark.parametrize("infinite", [False, True], ids=["finite", "infinite"])
def test_round_odds_reads_back_the_full_counts(calls, infinite) -> None:
    comps = [[4] * 13, _spread(30), [0, 1, 2, 3, 0, 1, 2, 3, 4, 0, 1, 2, 3]]
    fresh = batch_counts(STANDARD, comps, infinite=infinite)
    want = [_fields(fresh.round_odds(i)) for i in range(len(comps))]  # row by row
    assert "_full" not in fresh.__dict__  # one row each, not the full table
    batch = batch_counts(STANDARD, comps, infinite=infinite)
    assert batch.outcome.shape == (len(comps), len(batch.table.keys))  # the full counts, made
    calls.clear()
    got = [_fields(batch.round_odds(i)) for i in range(len(comps))]
    assert not calls, f"round_odds counted again: {dict(calls)}"
    assert got == want
