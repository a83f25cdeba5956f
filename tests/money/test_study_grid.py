"""odds.money.study_grid: the settings of a shoe study, checked before any shoe is dealt."""

from __future__ import annotations

import pytest

from odds.money.counting import CountSystem
from odds.money.study_grid import (
    MAX_LIST,
    check_run,
    count_system,
    parse_number,
    parse_tags,
    parse_whole,
    split_values,
    study_cells,
)
from odds.rules import BUILTIN, Shoe

HI_LO_ISH = "0,0,0,-1,-1,-1,-1,2,2,0,0,0,0"


def test_lists_are_bounded_and_have_no_empty_value() -> None:
    assert split_values(",".join(["6"] * MAX_LIST), "--decks") == ["6"] * MAX_LIST
    with pytest.raises(ValueError, match=f"at most {MAX_LIST} values"):
        split_values(",".join(["6"] * (MAX_LIST + 1)), "--decks")
    with pytest.raises(ValueError, match="empty value"):
        split_values("6,", "--decks")


@pytest.mark.parametrize("text", ["", "1.5", "-3", "٣", "1234567890"])
def test_whole_numbers_are_ascii_digits(text: str) -> None:
    with pytest.raises(ValueError, match="is not a whole number of cards"):
        parse_whole(text, "--cut-cards")


def test_tags_are_13_bounded_whole_numbers() -> None:
    assert parse_tags(HI_LO_ISH.replace(",", " ")) == parse_tags(HI_LO_ISH)
    with pytest.raises(ValueError, match="13 whole numbers.*not 12"):
        parse_tags("0 " * 12)
    with pytest.raises(ValueError, match="from -1000 to 1000"):
        parse_tags("0 " * 12 + "10000")


@pytest.mark.parametrize(("text", "value"), [("4", 4.0), ("-1.5", -1.5), (".5", 0.5), ("+2.", 2.0)])
def test_numbers_as_people_write_them(text: str, value: float) -> None:
    assert parse_number(text, "--trigger") == value


def test_a_count_system_from_its_options() -> None:
    assert count_system(None) is None
    assert count_system(HI_LO_ISH, "4", None, "exact") == CountSystem(
        parse_tags(HI_LO_ISH), 4.0, None, "exact")
    with pytest.raises(ValueError, match="--irc is for unbalanced tags"):
        count_system(HI_LO_ISH, None, 3)
    assert count_system("1 " * 13, None, -4).irc == -4
    with pytest.raises(ValueError, match="go with --tags"):
        count_system(None, None, 2)


def test_the_cells_of_a_grid() -> None:
    rules = [(BUILTIN[k], Shoe.packs_of(d)) for k in ("standard", "ez-baccarat") for d in (6, 8)]
    cells = study_cells(rules, [None, 14])
    assert [(p.key, packs, cut) for p, packs, cut in cells] == [
        (k, d, c) for k in ("standard", "ez-baccarat") for d in (6, 8) for c in (None, 14)]
    with pytest.raises(ValueError, match="fresh shoes of packs"):
        study_cells([(BUILTIN["standard"], Shoe.infinite_shoe())])


def test_settings_that_go_together() -> None:
    one = study_cells([(BUILTIN["standard"], Shoe.packs_of(8))])
    check_run(one, save="s")
    with pytest.raises(ValueError, match="--jobs or --cluster"):
        check_run(one, cluster="local:2", jobs=2)
    with pytest.raises(ValueError, match="table of a study grid"):
        check_run(one, table=True)
    check_run(one * 2, table=True)
