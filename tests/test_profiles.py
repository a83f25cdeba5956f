"""Rule profiles: options parsed from what people type, errors as ProfileError."""

from __future__ import annotations

import pytest

from odds.rules.profiles import BUILTIN, ProfileError


@pytest.mark.parametrize(("option", "raw"), [
    ("natural_values", "8 x"), ("natural_values", ["8", "x"]), ("player_draw", "0-5,six"),
    ("bank_draw", [0, 1, "2.5"]), ("natural_values", [True]),
])
def test_a_non_numeric_hand_value_is_a_profile_error(option: str, raw: object) -> None:
    with pytest.raises(ProfileError, match="is not a hand value 0-9"):
        BUILTIN["standard"].with_options(**{option: raw})


def test_hand_values_from_lists_ranges_and_none() -> None:
    p = BUILTIN["standard"].with_options(natural_values="9", player_draw="0-3, 5 6",
                                         bank_draw=["0", 1, 2])
    assert p.naturals == frozenset({9})
    assert p.player_draw is not None and p.player_draw.draws == frozenset({0, 1, 2, 3, 5, 6})
    assert p.bank_draw is not None and p.bank_draw.draws == frozenset({0, 1, 2})
    assert BUILTIN["standard"].with_options(player_draw="none").player_draw.draws == frozenset()
    with pytest.raises(ProfileError, match="is not a list of values 0-9"):
        BUILTIN["standard"].with_options(natural_values=9)
