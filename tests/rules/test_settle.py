"""Settlement: categories and pay-table entries, pinned to what the reports name."""

from __future__ import annotations

from fractions import Fraction

import pytest

from odds.rules.options import OPTIONS
from odds.rules.profiles import BUILTIN
from odds.rules.settle import COLON, COLON_NINE, NO_COLON, Outcome, Pay, category, pay_entry

HOUSE = BUILTIN["super9"].with_options(win="11/10", colon="5/2", colon_nine="7/2",
                                       bank_colon="3", bank_colon_nine="4")


def test_pay_entries_are_named_after_the_options_that_set_them() -> None:
    # Reports and tables print the entry names; each names its pay-table option.
    names = {o.name for o in OPTIONS}
    signs = {Pay.WIN: 1, Pay.COLON: 1, Pay.COLON_NINE: 1,
             Pay.BANK_COLON: -1, Pay.BANK_COLON_NINE: -1}
    for entry, sign in signs.items():
        assert entry.value in names
        assert entry.amount(HOUSE) == sign * getattr(HOUSE, entry.value)
    assert (Pay.PUSH.value, Pay.PUSH.amount(HOUSE)) == ("push", 0)
    assert (Pay.LOSS.value, Pay.LOSS.amount(HOUSE)) == ("loss", -1)
    assert [p.value for p in Pay] == ["win", "colon", "colon_nine", "push", "loss",
                                      "bank_colon", "bank_colon_nine"]
    assert [o.value for o in Outcome] == ["win", "push", "loss"]


def test_a_bank_colon_falls_back_on_the_player_multipliers() -> None:
    p = BUILTIN["standard"].with_options(bank_bonus="on")
    assert Pay.BANK_COLON.amount(p) == -2 and Pay.BANK_COLON_NINE.amount(p) == -3
    assert pay_entry(p, Outcome.LOSS, NO_COLON, COLON_NINE) is Pay.BANK_COLON_NINE
    assert pay_entry(p, Outcome.LOSS, NO_COLON, COLON) is Pay.BANK_COLON
    assert pay_entry(p, Outcome.PUSH, NO_COLON, COLON) is Pay.PUSH
    assert pay_entry(BUILTIN["standard"], Outcome.LOSS, NO_COLON, COLON) is Pay.LOSS


def test_a_pair_of_nines_is_paid_as_a_colon_without_a_colon_nine_entry() -> None:
    p = BUILTIN["standard"].with_options(colon_nine="none")
    assert pay_entry(p, Outcome.WIN, COLON_NINE, NO_COLON) is Pay.COLON
    assert pay_entry(BUILTIN["plain"], Outcome.WIN, COLON_NINE, NO_COLON) is Pay.WIN
    always = BUILTIN["standard"].with_options(bonus_on="always", bank_bonus="on")
    assert pay_entry(always, Outcome.LOSS, COLON, COLON_NINE) is Pay.COLON
    assert pay_entry(always, Outcome.PUSH, COLON_NINE, NO_COLON) is Pay.COLON_NINE
    with pytest.raises(AssertionError):
        Pay.COLON.amount(BUILTIN["plain"])


@pytest.mark.parametrize(("values", "expected"), [
    ((8, 5, 8, 9), (Outcome.WIN, "natural_8")),
    ((5, 9, 7, 9), (Outcome.LOSS, "natural_9")),
    ((9, 9, 9, 9), (Outcome.PUSH, "natural")),
    ((8, 9, 8, 9), (Outcome.LOSS, "natural_9")),
    ((3, 4, 7, 7), (Outcome.PUSH, "comparison")),
    ((3, 4, 8, 2), (Outcome.WIN, "comparison")),
    ((3, 4, 0, 2), (Outcome.LOSS, "comparison")),
])
def test_category_outright(values: tuple[int, int, int, int],
                           expected: tuple[Outcome, str]) -> None:
    assert category(BUILTIN["standard"], *values) == expected


def test_category_compare() -> None:
    compare = BUILTIN["standard"].with_options(naturals="compare")
    assert category(compare, 8, 5, 8, 9) == (Outcome.LOSS, "comparison")
    assert category(compare, 9, 5, 9, 6) == (Outcome.WIN, "natural_9")
    assert category(compare, 8, 8, 8, 8) == (Outcome.PUSH, "natural")
    assert category(compare, 8, 5, 8, 8) == (Outcome.PUSH, "comparison")
    assert Fraction(1) == Pay.WIN.amount(compare)


def test_outright_a_natural_of_any_value_beats_a_hand_without_one() -> None:
    # Low natural values (0 and 1) sit below every final a drawing hand can reach: outright,
    # the hand without a natural loses (or wins) on the natural alone, whatever its final.
    low = BUILTIN["standard"].with_options(natural_values="0,1,8,9", player_draw="2-5",
                                           bank_draw="2-5")
    plain = sorted(set(range(10)) - low.naturals)
    for nat in sorted(low.naturals):
        for other in plain:
            for final in range(10):
                assert category(low, other, nat, final, nat) == (Outcome.LOSS, f"natural_{nat}")
                assert category(low, nat, other, nat, final) == (Outcome.WIN, f"natural_{nat}")
        assert category(low, nat, nat, nat, nat) == (Outcome.PUSH, "natural")
