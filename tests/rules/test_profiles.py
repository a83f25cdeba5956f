"""Rule profiles: options parsed from what people type, errors as ProfileError."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from odds import (
    BUILTIN,
    ProfileError,
    Shoe,
    load_profile,
    round_odds,
)


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
        "bank_colon_nine": None, "win": "1", "ties": "push", "banker_pays": None,
        "tie_pays": None,
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


# -- profile files and options: parsing, validation and the errors people see -----------------

def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_profile_file_overrides(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'base = "standard"\nname = "house"\ncolon = "5/2"\ncolon_nine = 4\n'
        'naturals = "compare"\nbank_bonus = true\ndecks = 2\n',
    )
    p = load_profile(path)
    assert (p.key, p.colon, p.colon_nine, p.naturals_rule.value, p.bank_bonus, p.decks) == (
        "house", Fraction(5, 2), Fraction(4), "compare", True, 2)


def test_profile_file_tableau(tmp_path: Path) -> None:
    rows = "\n".join(
        f'{v} = {x}' for v, x in enumerate(
            ['"all"', '"all"', '"all"', "[0,1,2,3,4,5,6,7,9]", "[2,3,4,5,6,7]",
             "[4,5,6,7]", "[6,7]", "[]"])
    )
    path = write(
        tmp_path,
        'base = "plain"\nnaturals_stop_draws = true\n'
        f"[bank_draw]\ndraws = [0,1,2,3,4,5]\n[bank_draw.tableau]\n{rows}\n",
    )
    p = load_profile(path)
    pb = BUILTIN["punto-banco"]
    assert p.bank_draw == pb.bank_draw
    a = round_odds(p, Shoe.packs_of(1))
    b = round_odds(pb, Shoe.packs_of(1))
    assert (a.win, a.push) == (b.win, b.push)


@pytest.mark.parametrize(
    "text,message",
    [
        ('colr = 2\n', "unknown option 'colr'"),
        ('colon = "two"\n', "colon: 'two' is not a number"),
        ('colon = -2\n', "colon: -2 is negative"),
        ('bank_bonus = "maybe"\n', "bank_bonus: 'maybe' is not on or off"),
        ('naturals = "sometimes"\n', "naturals: 'sometimes' is not one of outright, compare"),
        ('player_draw = [0, 1, 8]\n', "player_draw: 8 is a natural"),
        ('player_draw = [0, 12]\n', "player_draw: 12 is not a hand value 0-9"),
        ('base = "bacarrat"\n', "base 'bacarrat' is not a built-in profile"),
        ('decks = 0\n', "decks: a shoe needs at least 1 pack"),
        ('[bank_draw]\ndraws = [0,1,2]\n[bank_draw.tableau]\n0 = "all"\n',
         "bank_draw.tableau: no entry for own value 1"),
        ('colon = \n', "is not valid TOML"),
        ('colon = "1/0"\n', "colon: '1/0' divides by zero"),
        ('colon = nan\n', "colon: nan is not a number"),
        ('colon = inf\n', "colon: inf is not a number"),
        ('player_draw = "5-0"\n', "range '5-0' runs backwards"),
        ('[player_draw]\ndraws = [0]\n[player_draw.tableau]\n' + "".join(
            f"{v} = []\n" for v in range(10)), "the player acts first"),
        ('[bank_draw]\ndraws = [0]\n[bank_draw.tableau]\n0 = []\n00 = [1]\n',
         "own value 0 is given twice"),
    ],
)
def test_bad_profile_file(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    assert message in str(info.value)
    assert str(path) in str(info.value)


def test_missing_profile_file(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="does not exist"):
        load_profile(tmp_path / "nope.toml")


def test_unknown_profile_key() -> None:
    from odds import get_profile

    with pytest.raises(ProfileError, match="unknown profile 'standrd'"):
        get_profile("standrd")


def test_forced_draw_option_equals_builtin() -> None:
    p = BUILTIN["standard"].with_options(forced_draw=True)
    assert p.forced_draw and BUILTIN["forced-draw"].forced_draw
    assert p.player_draw == BUILTIN["forced-draw"].player_draw


def test_every_option_shows_in_options() -> None:
    from odds import OPTIONS
    from odds.rules.options import INFORMATION_OPTIONS

    for profile in BUILTIN.values():
        # The information options show where a profile sets them (chemin-de-fer).
        assert set(profile.options()) - set(INFORMATION_OPTIONS) == {o.name for o in OPTIONS}
        assert len(profile.describe()) >= len(OPTIONS)


def test_profile_key_from_a_file_name_with_spaces(tmp_path: Path) -> None:
    path = tmp_path / "My Table.toml"
    path.write_text("colon = 3\n", encoding="utf-8")
    assert load_profile(path).key == "my-table"


def test_forced_draw_follows_natural_values_given_with_it() -> None:
    p = BUILTIN["standard"].with_options(natural_values="5,8,9", forced_draw=True)
    assert p.player_draw is not None and p.player_draw.draws == frozenset({0, 1, 2, 3, 4, 6, 7})


def test_profiles_built_directly_are_validated() -> None:
    from dataclasses import replace

    with pytest.raises(ProfileError, match="colon: -1 is negative"):
        replace(BUILTIN["standard"], colon=Fraction(-1))
    with pytest.raises(ProfileError, match="not all hand values"):
        replace(BUILTIN["standard"], naturals=frozenset({12}))
    with pytest.raises(ValueError, match="at least 1 pack"):
        Shoe((4,) * 13, packs=0)
