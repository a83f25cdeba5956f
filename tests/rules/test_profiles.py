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


@pytest.mark.parametrize(("word", "value"), [
    ("on", True), ("true", True), ("Yes", True), ("1", True),
    ("off", False), ("false", False), ("NO", False), ("0", False),
])
def test_on_and_off_words(word: str, value: bool) -> None:
    assert BUILTIN["standard"].with_options(bank_bonus=word).bank_bonus is value


def test_a_draw_rule_given_as_a_table_without_a_tableau() -> None:
    p = BUILTIN["standard"].with_options(player_draw={"draws": [0, 1, 2]})
    assert p.player_draw is not None and p.player_draw.tableau is None
    assert p.player_draw.draws == frozenset({0, 1, 2})
    with pytest.raises(ProfileError, match="needs 'draws'"):
        BUILTIN["standard"].with_options(player_draw={"tableau": {}})


def test_options_are_json_ready_data() -> None:
    # The form every file header and JSON report carries (tests/data/example-log.csv).
    assert BUILTIN["standard"].options() == {
        "decks": 1, "naturals": "outright", "natural_values": [8, 9],
        "naturals_stop_draws": False, "player_draw": {"draws": [0, 1, 2, 3, 4, 5]},
        "bank_draw": {"draws": [0, 1, 2, 3, 4, 5]}, "colon_match": "rank", "colon": "2",
        "colon_nine": "3", "bonus_on": "win", "bank_bonus": False, "bank_colon": None,
        "bank_colon_nine": None, "win": "1", "banker_pays": None, "tie_pays": None,
    }
    super9 = BUILTIN["super9"].options()
    assert (super9["colon"], super9["bank_colon_nine"], super9["bank_bonus"]) == ("3/2", "3", True)


def test_describe_prints_every_option_in_words() -> None:
    lines = BUILTIN["standard"].describe()
    assert lines[0].startswith("standard: ")
    for line in ("  naturals_stop_draws  off", "  player_draw          draws on 0-5",
                 "  colon                2:1", "  bank_bonus           off",
                 "  bank_colon           none", "  natural_values       8-9"):
        assert line in lines
    assert "  bank_bonus           on" in BUILTIN["super9"].describe()
    assert "  player_draw          chosen by the player (a game: see lucky9 solve)" in (
        BUILTIN["family"].describe())


def test_family_is_the_french_family_sheet() -> None:
    # RULES.md section 4: only a two-card 9 is natural; when the bank holds a
    # natural nobody draws; players and bank choose; no pair bonus.
    family = BUILTIN["family"]
    assert family.naturals == frozenset({9}) and family.naturals_stop_draws
    assert family.player_draw is None and family.bank_draw is None and not family.fixed
    assert not family.bonuses and family.win == 1


def test_a_profile_file_named_by_a_string(tmp_path) -> None:
    from odds.rules.profiles import load_profile

    path = tmp_path / "house.toml"
    path.write_text('base = "standard"\ncolon = 3\n', encoding="utf-8")
    assert load_profile(str(path)).colon == 3


def test_a_profile_files_bets_load(tmp_path) -> None:
    from odds.rules.profiles import load_profile

    path = tmp_path / "p.toml"
    path.write_text('base = "standard"\nbets = ["colon"]\n')
    assert load_profile(path).bets == ("colon",)
