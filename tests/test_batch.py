"""The batch engine against the engine, brute force and its own invariants.

Every comparison goes through :meth:`BatchCounts.round_odds` field by field
and through the bets' expected values, on more than 1,000 compositions:
near-exhausted single packs, depleted 2, 8 and 100-pack shoes, odd
compositions and infinite shoes, for every fixed built-in profile and the
option variants the issue names.
"""

from __future__ import annotations

import hashlib
import math
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odds.exact.batch import BatchCounts, _distinct_columns, batch_counts, rules_table
from odds.exact.engine import round_odds
from odds.exact.products import FLOAT_EXACT, INT64_EXACT, _class_weights
from odds.exact.products import composition_counts as _counts
from odds.exact.products import sequence_totals as _totals
from odds.rules.profiles import BUILTIN, Profile, ProfileError, load_profile
from odds.rules.shoe import Shoe
from tests.brute import by_permutations
from tests.examples import halve

DATA = Path(__file__).parent / "data"
PROFILES = [
    *(p for p in BUILTIN.values() if p.fixed),
    BUILTIN["standard"].with_options(colon_match="value"),
    BUILTIN["standard"].with_options(naturals="compare"),
    BUILTIN["super9"].with_options(bonus_on="always"),
    load_profile(DATA / "house-tableau.toml"),  # a bank tableau of its own
]
SMALL = 108  # near-exhausted single packs per profile


def test_every_fixed_builtin_is_covered() -> None:
    assert {p.key for p in PROFILES} >= {"standard", "plain", "forced-draw", "super9",
                                         "punto-banco", "house-tableau"}
    # Compositions compared with the engine, in test_equal_to_the_engine: at least 1,000.
    assert len(PROFILES) * (SMALL + 7) + 14 >= 1000


def depleted(rng: random.Random, packs: int, left: int) -> list[int]:
    """The composition after dealing all but ``left`` cards of a shuffled shoe."""
    counts = [0] * 13
    for r in rng.sample([r for r in range(13) for _ in range(4 * packs)], left):
        counts[r] += 1
    return counts


def assert_same(batch: BatchCounts, i: int, shoe: Shoe, figures: Figures | None = None) -> None:
    """Composition ``i`` of the batch against the engine, every field and every bet."""
    evs, numerators, probs = figures or batch_figures(batch)
    profile = batch.profile
    want = round_odds(profile, shoe)
    got = batch.round_odds(i, shoe)
    assert got.profile == want.profile and got.shoe == want.shoe
    assert (got.player, got.bank, got.removed) == (want.player, want.bank, want.removed)
    assert (got.player_total, got.bank_total) == (want.player_total, want.bank_total)
    assert got.total == want.total == batch.totals[i]
    assert dict(got.outcome_counts) == {k: v for k, v in want.outcome_counts.items() if v}
    assert got.player_final_counts == want.player_final_counts
    assert got.bank_final_counts == want.bank_final_counts
    assert got.player_draw_count == want.player_draw_count
    assert got.bank_draw_count == want.bank_draw_count
    assert batch.bets == want.bets
    for bet in want.bets:
        ev = want.bet_moments(bet)[0]
        assert evs[bet][i] == ev
        num, den = numerators[bet]
        assert Fraction(int(num[i]), den * batch.totals[i]) == ev
    assert probs["win"][i] == want.win
    assert probs["push"][i] == want.push
    assert probs["loss"][i] == want.loss
    assert probs["colon"][i] == want.player_colon
    assert probs["colon_nine"][i] == want.player_colon_nine


Figures = tuple[dict[str, list[Fraction]], dict[str, tuple[np.ndarray, int]],
                dict[str, list[Fraction]]]


def batch_figures(batch: BatchCounts) -> Figures:
    return ({bet: batch.expected_values(bet) for bet in batch.bets},
            {bet: batch.ev_numerators(bet) for bet in batch.bets},
            batch.probabilities())


def check_batch(profile: Profile, comps: list[list[int]], *, infinite: bool = False) -> int:
    batch = batch_counts(profile, comps, infinite=infinite)
    figures = batch_figures(batch)
    for i, comp in enumerate(comps):
        assert_same(batch, i, Shoe(tuple(comp), infinite=infinite), figures)
    return len(comps)


# half the profiles by default, all in CI (slow): there, 1,000 compositions or more
@pytest.mark.parametrize("profile", halve("profile", PROFILES), ids=[
    f"{p.key}-{p.colon_match.value}-{p.naturals_rule.value}-{p.bonus_on.value}" for p in PROFILES])
def test_equal_to_the_engine(profile: Profile) -> None:
    rng = random.Random(f"20261201 {profile}")
    # Near-exhausted single packs, mostly very small (the engine is quick there).
    small = [depleted(rng, 1, rng.choice([6, 6, 7, 7, 7, 8, 8, 9, 10, 12])) for _ in range(SMALL)]
    odd = [
        [0] * 4 + [6] + [0] * 8,  # one rank only
        [3, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0],  # aces and nines
        [0] * 9 + [2, 2, 2, 2],  # faces only: Colons by rank, not by value
        [0] * 7 + [4, 4] + [0] * 4,  # eights and nines: naturals everywhere
        [1] * 13,
    ]
    assert check_batch(profile, [*small, *odd, depleted(rng, 2, rng.randint(6, 24))]) == SMALL + 6
    assert check_batch(profile, [[4] * 13], infinite=True) == 1


def test_equal_to_the_engine_on_large_shoes() -> None:
    # A few of each: the engine takes ~0.3 s per new large composition.
    rng = random.Random(8)
    big = [depleted(rng, 8, rng.randint(6, 416)) for _ in range(3)] + [[32] * 13]
    checked = check_batch(BUILTIN["standard"], big)
    checked += check_batch(BUILTIN["punto-banco"], [big[0], depleted(rng, 2, 100), [8] * 13])
    hundred = [depleted(rng, 100, rng.randint(3000, 5200)), [400] * 13]
    checked += check_batch(BUILTIN["super9"], hundred)
    checked += check_batch(BUILTIN["standard"], [[rng.randint(0, 9) for _ in range(13)]
                                                 for _ in range(5)], infinite=True)
    assert checked == 14


def test_full_counts_match_row_by_row() -> None:
    rng = random.Random(7)
    comps = [depleted(rng, 8, rng.randint(6, 416)) for _ in range(40)]
    batch = batch_counts(BUILTIN["super9"], comps)
    for i in (0, 17, 39):
        row = batch.round_odds(i)
        assert dict(zip(batch.table.keys, batch.outcome[i].tolist(), strict=True)) == {
            k: row.outcome_counts.get(k, 0) for k in batch.table.keys
        }
        assert tuple(batch.player_final[i]) == row.player_final_counts
        assert tuple(batch.bank_final[i]) == row.bank_final_counts
        assert (batch.player_draws[i], batch.bank_draws[i]) == (
            row.player_draw_count, row.bank_draw_count)


def test_full_at_once_equals_full_on_first_use() -> None:
    # counts(full=True) takes the distinct columns and the summary in one
    # product; on first use they come from a product of their own.
    rng = random.Random(11)
    comps = [depleted(rng, 8, rng.randint(6, 416)) for _ in range(30)] + [[4] * 13]
    for key in ("standard", "punto-banco"):
        at_once = batch_counts(BUILTIN[key], comps, full=True)
        later = batch_counts(BUILTIN[key], comps)
        assert at_once.full_counts is not None and later.full_counts is None
        assert np.array_equal(at_once.summary, later.summary)
        for name in ("outcome", "player_final", "bank_final", "player_draws", "bank_draws"):
            assert np.array_equal(getattr(at_once, name), getattr(later, name)), name
        table = at_once.table
        # Every column of the full table is one of the distinct ones, each distinct.
        assert table.scatter.max() < table.distinct < len(table.keys) + 22
        # (Column by column: np.unique(axis=1) sorted a copy of the table, 40-60 MB.)
        columns = {hashlib.sha256(table.product[:, j].tobytes()).digest()
                   for j in range(table.distinct)}
        assert len(columns) == table.distinct
    # Past float64's exact range too (limbs), and infinite shoes.
    big = [[400] * 13, [33] * 13]
    for infinite in (False, True):
        at_once = batch_counts(BUILTIN["super9"], big, full=True, infinite=infinite)
        later = batch_counts(BUILTIN["super9"], big, infinite=infinite)
        assert at_once.outcome.tolist() == later.outcome.tolist()
        assert at_once.summary.tolist() == later.summary.tolist()


@pytest.mark.parametrize("key", ["standard", "forced-draw", "punto-banco"])
def test_sums_to_total(key: str) -> None:
    rng = random.Random(3)
    comps = [depleted(rng, 8, rng.randint(6, 416)) for _ in range(50)] + [[4] * 13]
    batch = batch_counts(BUILTIN[key], comps)
    totals = [int(t) for t in batch.totals]
    assert totals[-1] == math.perm(52, 6)
    for array in (batch.summary, batch.outcome, batch.player_final, batch.bank_final):
        assert [int(s) for s in array.sum(axis=1)] == totals
    assert all(0 <= int(d) <= t for d, t in zip(batch.player_draws, totals, strict=True))
    probs = batch.probabilities()
    assert all(w + p + lo == 1 for w, p, lo in zip(probs["win"], probs["push"], probs["loss"],
                                                  strict=True))


def test_exact_at_the_machine_integer_boundaries() -> None:
    table = rules_table(BUILTIN["standard"])
    # The largest shoe whose total fits float64's exact integers, and one card more.
    n53 = max(n for n in range(400, 500) if math.perm(n, 6) < FLOAT_EXACT)
    # The largest shoe whose weights fit int64 (N ** 6 < 2 ** 63), and one card more.
    n63 = max(n for n in range(1000, 2000) if n**6 < INT64_EXACT)
    assert math.perm(n53 + 1, 6) >= FLOAT_EXACT and (n63 + 1) ** 6 >= INT64_EXACT

    def spread(n: int) -> list[int]:
        return [n // 13 + (r < n % 13) for r in range(13)]

    comps = np.array([spread(n53), spread(n53 + 1), spread(n63), spread(n63 + 1)])
    for comp in comps:
        one = comp[None, :]
        totals = _totals(one, False)
        got = _counts(one, False, totals, table.summary)
        size = int(comp.sum())
        weights = _class_weights(one, False, size**6)
        assert weights.dtype == (np.int64 if size**6 < INT64_EXACT else object)
        exact = weights.astype(object).T @ table.summary.astype(np.int64).astype(object)
        assert got.tolist() == exact.tolist()
        assert got.dtype == (np.int64 if totals[0] < INT64_EXACT else object)
    # And through the engine, just past the float64 limit.
    assert_same(batch_counts(BUILTIN["standard"], [spread(n53 + 1)]), 0,
                Shoe(tuple(spread(n53 + 1))))


def test_float_path_is_exact_below_the_limit() -> None:
    # Just below 2 ** 53 the single float64 product is used; an object product agrees.
    table = rules_table(BUILTIN["super9"])
    n = max(n for n in range(400, 500) if math.perm(n, 6) < FLOAT_EXACT)
    rng = random.Random(5)
    comps = np.array([[rng.randint(0, 2 * n // 13) for _ in range(12)] for _ in range(6)])
    comps = np.column_stack([comps, np.maximum(0, n - comps.sum(axis=1))])
    comps = comps[comps.sum(axis=1) <= n]
    totals = _totals(comps, False)
    assert max(totals) < FLOAT_EXACT
    weights = _class_weights(comps, False, n**6)
    exact = weights.astype(object).T @ table.matrix.astype(np.int64).astype(object)
    assert _counts(comps, False, totals, table.matrix.astype(np.float64)).tolist() == exact.tolist()


@pytest.mark.parametrize("key", ["standard", "super9", "forced-draw", "punto-banco"])
def test_brute_force_on_tiny_shoes(key: str) -> None:
    profile = BUILTIN[key]
    for ranks in ([0, 8, 8, 9, 10, 4, 5], [8, 8, 8, 12, 12, 1, 2], [9, 10, 11, 12, 9, 3]):
        comp = [ranks.count(r) for r in range(13)]
        batch = batch_counts(profile, [comp])
        brute = by_permutations(profile, ranks)
        probs = batch.probabilities()
        assert batch.totals[0] == brute["n"] == math.perm(len(ranks), 6)
        assert batch.expected_values()[0] == brute["ev"]
        for name in ("win", "push", "loss"):
            assert probs[name][0] == brute.get(name, 0)
        assert probs["colon"][0] == brute.get("player_colon", 0)
        assert Fraction(int(batch.player_draws[0]), batch.totals[0]) == brute.get(
            "player_draws", 0)
        assert Fraction(int(batch.bank_draws[0]), batch.totals[0]) == brute.get("bank_draws", 0)


@settings(max_examples=25, deadline=None)
@given(
    cards=st.lists(st.integers(0, 12), min_size=6, max_size=10),
    key=st.sampled_from(["standard", "plain", "forced-draw", "super9", "punto-banco"]),
)
def test_property_equal_to_the_engine(cards: list[int], key: str) -> None:
    counts = [cards.count(r) for r in range(13)]
    assert_same(batch_counts(BUILTIN[key], [counts]), 0, Shoe(tuple(counts)))


def test_shoes_as_input_and_cache() -> None:
    profile = BUILTIN["standard"]
    assert rules_table(profile).product is rules_table(profile).product
    # profiles that differ only in what they pay share one table in memory
    assert rules_table(profile.with_options(colon="5")).product is rules_table(profile).product
    batch = batch_counts(profile, [Shoe.packs_of(1), Shoe.packs_of(1).without("Ah Kd")])
    assert batch.compositions.shape == (2, 13) and not batch.infinite
    assert_same(batch, 0, Shoe.packs_of(1))
    inf = batch_counts(profile, [Shoe.infinite_shoe()])
    assert inf.infinite and inf.totals == (52**6,)
    assert_same(inf, 0, Shoe.infinite_shoe())


@pytest.mark.parametrize(
    ("comps", "message"),
    [
        ([4] * 13, "must be an (n, 13) table"),
        ([[4] * 12], "not shape (1, 12)"),
        ([[4] * 12, [4] * 13], "must be an (n, 13) table"),
        ([[4] * 12 + [-1]], "composition 0 has a negative count (-1)"),
        ([[4] * 12 + [1.5]], "composition 0 has a count 1.5 that is not a whole number"),
        ([[4] * 12 + [True]], "not a whole number"),
        ([[4] * 13, [1] * 5 + [0] * 8], "composition 1 has 5 cards, but a round fills six"),
        ([Shoe.packs_of(1), Shoe.infinite_shoe()], "mix infinite and finite"),
    ],
)
def test_bad_input(comps: object, message: str) -> None:
    with pytest.raises(ValueError) as info:
        batch_counts(BUILTIN["standard"], comps)
    assert message in str(info.value)


def test_bad_requests() -> None:
    with pytest.raises(ValueError, match="no card weights"):
        batch_counts(BUILTIN["standard"], [[0] * 13], infinite=True)
    with pytest.raises(ProfileError, match="no fixed draw rule"):
        rules_table(BUILTIN["family"])
    batch = batch_counts(BUILTIN["standard"], [[4] * 13])
    with pytest.raises(ValueError, match="'banker' is not a bet of profile 'standard'"):
        batch.expected_values("banker")
    with pytest.raises(ValueError, match="not composition 0"):
        batch.round_odds(0, Shoe.packs_of(2))
    assert batch_counts(BUILTIN["standard"], [[6] + [0] * 12]).totals == (720,)
    assert batch_counts(BUILTIN["standard"], [[4.0] * 13]).totals == (math.perm(52, 6),)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, 3), min_size=3, max_size=3), min_size=1, max_size=12),
       st.lists(st.integers(0, 11), max_size=12))
def test_distinct_columns_agree_with_numpy_unique(columns: list[list[int]],
                                                  copies: list[int]) -> None:
    """The build's duplicate-column finder (a hash, then exact comparison) against np.unique."""
    table = np.array(columns + [columns[c % len(columns)] for c in copies], dtype=np.float32).T
    reps, scatter = _distinct_columns(table)
    assert len(reps) == np.unique(table, axis=1).shape[1]
    assert np.array_equal(table[:, reps][:, scatter], table)  # every column is its rep's
    assert reps == sorted(reps) and list(scatter[reps]) == list(range(len(reps)))


def test_python_integer_chunks_join_up() -> None:
    """Shoes of 100 packs take Python integers, OBJECT_CHUNK compositions at a time: a batch
    across several chunks equals each composition on its own."""
    from odds.exact import products as batch_module

    rng = random.Random(10)
    comps = [[400 - rng.randrange(40) for _ in range(13)] for _ in range(2 * batch_module.OBJECT_CHUNK + 3)]
    table = rules_table(BUILTIN["standard"])
    together = table.counts(comps)
    assert together.summary.dtype == object
    for i in (0, batch_module.OBJECT_CHUNK, len(comps) - 1):
        assert together.summary[i].tolist() == table.counts([comps[i]]).summary[0].tolist()


def test_packed_sequences_read_back_to_their_rows() -> None:
    # Each rank sequence is stored as row << INDEX_BITS | index: its index must
    # fit below the row, and reading it back must give a sequence of the row's class.
    from odds.exact.sequences import INDEX_BITS, SLOTS, _ranks, _sequences
    from odds.exact.sequences import row_classes as _classes

    assert 13**SLOTS < 2**INDEX_BITS
    packed = _sequences()
    assert len(packed) == 1_391_211 and bool(np.all(packed[1:] > packed[:-1]))
    sample = packed[::97]
    ranks = _ranks(sample)
    counts = np.zeros((len(sample), 13), dtype=np.int64)
    for slot in range(SLOTS):
        np.add.at(counts, (np.arange(len(sample)), ranks[slot]), 1)
    faces = counts[:, 9:]
    assert bool(np.all(faces[:, :-1] >= faces[:, 1:]))  # canonical: 10 >= J >= Q >= K
    assert np.array_equal(_classes().codes[sample >> INDEX_BITS], counts @ 7 ** np.arange(13))
