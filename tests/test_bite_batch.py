"""The batch engine past machine integers, and the boundaries of input checks.

Shoes over 1,448 cards have ``N ** 6 >= 2 ** 63``: the class weights must move
from int64 to Python integers there (and the totals past about 1,456 cards),
or the counts silently wrap.  Each boundary check is tried at the limit and
one past it.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from odds import BUILTIN, Shoe, round_odds
from odds.exact.batch import batch_counts, rules_table
from odds.exact.bets import slot_round_odds
from odds.exact.engine import ConditionError
from odds.exact.products import INT64_EXACT
from odds.money.counting import count_study
from odds.rules.bets import BetError, bet_from_data
from tests.test_batch import assert_same, batch_figures

STANDARD = BUILTIN["standard"]


def _spread(n: int) -> list[int]:
    return [n // 13 + (r < n % 13) for r in range(13)]


# -- 6. the int64 -> Python int guard ---------------------------------------------------


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


def test_the_table_counts_agree_in_both_dtypes() -> None:
    table = rules_table(STANDARD)
    comp = _spread(1500)
    direct = table.counts([comp]).summary[0]
    doubled = table.counts([comp, comp]).summary
    assert direct.tolist() == doubled[0].tolist() == doubled[1].tolist()


# -- 7. boundaries of input checks ------------------------------------------------------


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
