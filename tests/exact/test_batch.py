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
from collections import Counter
from dataclasses import fields
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odds import RoundOdds
from odds.exact import products as batch_module
from odds.exact.batch import _distinct_columns, batch_counts, rules_table
from odds.exact.bets import slot_round_odds
from odds.exact.engine import ConditionError, round_odds
from odds.exact.products import _class_weights
from odds.exact.products import composition_counts as _counts
from odds.exact.products import sequence_totals as _totals
from odds.exact.sequences import SLOTS
from odds.exact.weights import FLOAT_EXACT, INT64_EXACT
from odds.money.counting import count_study
from odds.rules.bet_files import bet_from_data
from odds.rules.errors import BetError, ProfileError
from odds.rules.profile import Profile
from odds.rules.profiles import BUILTIN, load_profile
from odds.rules.shoe import Shoe
from tests.batch_check import assert_same, batch_figures
from tests.brute import by_permutations
from tests.examples import halve
from tests.paths import DATA

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
        # Unsigned counts past int64 are too large, not negative once converted.
        (np.full((1, 13), 2**63, dtype=np.uint64), "has a count too large to hold"),
        (np.array([[4] * 12 + [-1]], dtype=np.int64), "composition 0 has a negative count (-1)"),
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


# -- The batch engine past machine integers, and the boundaries of input checks -------------------
# Shoes over 1,448 cards have ``N ** 6 >= 2 ** 63``: the class weights must move
# from int64 to Python integers there (and the totals past about 1,456 cards),
# or the counts silently wrap.  Each boundary check is tried at the limit and
# one past it.

STANDARD = BUILTIN["standard"]


def _spread(n: int) -> list[int]:
    return [n // 13 + (r < n % 13) for r in range(13)]


# -- the int64 -> Python int guard ---------------------------------------------------


def test_the_limits_are_where_the_docs_say() -> None:
    assert 1448**6 < INT64_EXACT <= 1449**6
    last = max(n for n in range(1440, 1470) if math.perm(n, 6) < INT64_EXACT)
    assert 1449 < last + 1 < 1470


@pytest.mark.parametrize("key", ["standard", "punto-banco"])
def test_finite_shoes_across_the_int64_limits_equal_the_engine(key: str) -> None:
    profile = BUILTIN[key]
    last = max(n for n in range(1440, 1470) if math.perm(n, 6) < INT64_EXACT)
    sizes = [1448, 1449, last, last + 1, 2003]
    comps = [_spread(n) for n in sizes]
    comps[-1][12] += 17  # uneven
    batch = batch_counts(profile, comps)
    figures = batch_figures(batch)
    for i, comp in enumerate(comps):
        assert_same(batch, i, Shoe(tuple(comp)), figures)
    # Alone, each equals its place in the batch (whatever dtype the batch took).
    for i in (0, 2):
        alone = batch_counts(profile, [comps[i]])
        assert alone.summary[0].tolist() == batch.summary[i].tolist()


def test_big_totals_are_python_integers() -> None:
    last = max(n for n in range(1440, 1470) if math.perm(n, 6) < INT64_EXACT)
    small = batch_counts(STANDARD, [_spread(last)]).summary
    big = batch_counts(STANDARD, [_spread(last + 1)]).summary
    assert small.dtype == np.int64 and big.dtype == object
    assert all(isinstance(x, int) for x in big[0])


@pytest.mark.parametrize("k", [111, 112, 150])
def test_infinite_weights_past_the_limit_are_the_infinite_shoe(k: int) -> None:
    # k cards of each rank as infinite-shoe weights: the probabilities of the infinite shoe,
    # 13 k = 1,443 (int64) and 1,456 and 1,950 (Python integers).
    want = round_odds(STANDARD, Shoe.infinite_shoe())
    batch = batch_counts(STANDARD, [[k] * 13], infinite=True, full=True)
    assert batch.totals == ((13 * k) ** 6,)
    probs = batch.probabilities()
    assert (probs["win"][0], probs["push"][0], probs["loss"][0]) == (want.win, want.push,
                                                                     want.loss)
    assert probs["colon"][0] == want.player_colon
    assert batch.expected_values()[0] == want.expected_value
    total = batch.totals[0]
    assert Fraction(int(batch.bank_draws[0]), total) == want.bank_draws
    assert [Fraction(int(c), total) for c in batch.player_final[0]] == list(want.player_final)


def test_weighted_sums_past_int64_are_python_integers() -> None:
    # int64 counts times amounts whose sums can pass 2 ** 63 are summed in Python integers.
    batch = batch_counts(STANDARD, [_spread(416)])  # 8 packs: totals near 2 ** 52
    assert batch.summary.dtype == np.int64
    for big in (2**10, 2**40, 2**62):
        scaled = [big * (k % 3 - 1) for k in range(batch.summary.shape[1])]
        exact = sum(int(c) * a for c, a in zip(batch.summary[0], scaled, strict=True))
        assert int(batch.weighted_sums(scaled)[0]) == exact, big


def test_the_default_bet_is_the_player_bet() -> None:
    batch = batch_counts(STANDARD, [_spread(52), _spread(100)])
    num, den = batch.ev_numerators()
    player, player_den = batch.ev_numerators("player")
    assert (num.tolist(), den) == (player.tolist(), player_den)
    want = round_odds(STANDARD, Shoe(tuple(_spread(52)))).expected_value
    assert Fraction(int(num[0]), den * batch.totals[0]) == want == batch.expected_values()[0]


def test_the_table_counts_agree_in_both_dtypes() -> None:
    table = rules_table(STANDARD)
    comp = _spread(1500)
    direct = table.counts([comp]).summary[0]
    doubled = table.counts([comp, comp]).summary
    assert direct.tolist() == doubled[0].tolist() == doubled[1].tolist()


# -- boundaries of input checks ------------------------------------------------------


def test_a_shoe_one_card_too_small_for_a_round() -> None:
    for n, ok in ((5, False), (6, True)):
        counts = [0] * 13
        counts[0] = n
        if ok:
            assert round_odds(STANDARD, Shoe(tuple(counts))).win == 0
            assert batch_counts(STANDARD, [counts]).totals == (math.perm(6, 6),)
        else:
            with pytest.raises(ConditionError):
                round_odds(STANDARD, Shoe(tuple(counts)))
            with pytest.raises(ValueError, match="six card slots"):
                batch_counts(STANDARD, [counts])
    with pytest.raises(ValueError):
        batch_counts(STANDARD, [[0] * 13], infinite=True)
    one = [0] * 13
    one[8] = 1
    assert batch_counts(STANDARD, [one], infinite=True).totals == (1,)


@pytest.mark.parametrize("shoes,ok", [(0, False), (1, True)])
def test_a_one_shoe_count_study(shoes: int, ok: bool) -> None:
    if not ok:
        with pytest.raises(ValueError):
            count_study(BUILTIN["punto-banco"], 1, shoes, 0.75, seed=1, bets=["player"])
        return
    study = count_study(BUILTIN["punto-banco"], 1, shoes, 0.75, seed=1, bets=["player"])
    assert study.shoes == 1 and study.rounds > 0
    from odds.report.count_report import count_data

    data = count_data(study)
    assert data["study"]["rounds"] == study.rounds


@pytest.mark.parametrize("slot", [1, 2, 3, 4])
def test_a_slot_that_conflicts_with_the_hands_own_cards(slot: int) -> None:
    side = "player" if slot in (1, 3) else "bank"
    hand = {side: "8h 7s"}
    with pytest.raises(ConditionError, match=f"slot {slot}"):
        slot_round_odds(STANDARD, Shoe.packs_of(1), slots=[f"{slot}=9h"], **hand)
    # The same card the hand gives is no conflict.
    card = "8h" if slot <= 2 else "7s"
    same = slot_round_odds(STANDARD, Shoe.packs_of(1), slots=[f"{slot}={card}"], **hand)
    plain = slot_round_odds(STANDARD, Shoe.packs_of(1), **hand)
    assert (same.win, same.push, same.loss, same.total) == (plain.win, plain.push, plain.loss,
                                                            plain.total)


@pytest.mark.parametrize("slot,ok", [(0, False), (1, True), (6, True), (7, False)])
def test_slot_numbers_run_from_1_to_6(slot: int, ok: bool) -> None:
    if ok:
        slot_round_odds(STANDARD, Shoe.packs_of(1), slots=[f"{slot}=9h"])
    else:
        with pytest.raises(ValueError, match=f"slot {slot}"):
            slot_round_odds(STANDARD, Shoe.packs_of(1), slots=[f"{slot}=9h"])


@pytest.mark.parametrize("pays", ["abc", "", [1], None, {"a": 1}, True, "1/0", "5/2x",
                                  float("nan"), float("inf")])
def test_a_non_numeric_pays_is_a_bet_error(pays: object) -> None:
    with pytest.raises(BetError):
        bet_from_data("x", {"side": "player", "pay": [{"player_natural": [7], "pays": pays}]},
                      "f.toml")


# -- The batch engine's two cost contracts, which no count can show (both ways are exact) --------
# * shoes below ``FLOAT_EXACT ** (1/6)`` cards (456: 8 packs included) are counted by the
#   factorised float64 product, without a weight per row class (3 times faster, measured
#   on 2,000 depleted 8-pack shoes); from 457 cards on, by the class weights;
# * once a batch's full counts are made (on first use), :meth:`BatchCounts.round_odds`
#   reads its row back instead of counting the composition again.
#
# Spies wrap the module's own functions (still calling them), so the counts are the
# real ones and are checked too.

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
