"""odds.money.session_inputs and pay_entries: a session and pay-table names from options."""

from __future__ import annotations

from fractions import Fraction

import pytest

from odds.money.pay_entries import entry_names
from odds.money.session_inputs import SESSION_OPTIONS, session_of
from odds.rules import BUILTIN, Session


def test_no_option_is_the_profiles_session() -> None:
    profile = BUILTIN["standard"]
    assert session_of(profile, {}) == profile.session
    assert session_of(profile, dict.fromkeys(SESSION_OPTIONS)) == profile.session


def test_one_stake_is_every_seats() -> None:
    session = session_of(BUILTIN["standard"], {"players": "4", "stakes": " 3 "})
    assert session.stakes == (Fraction(3),) * 4
    listed = session_of(BUILTIN["standard"], {"stakes": "1,1,2"})
    assert listed == Session().with_options(stakes="1,1,2")


def test_a_capital_below_one_stake_is_refused() -> None:
    assert session_of(BUILTIN["standard"], {"stakes": "2", "capital": "2"}).capital == 2
    with pytest.raises(ValueError, match=r"capital 1 is less than one stake \(2\)"):
        session_of(BUILTIN["standard"], {"players": "2", "stakes": "2", "capital": "1"})


def test_entry_names() -> None:
    assert entry_names(()) == []
    assert entry_names(["TIE-PAYS", "win"]) == ["tie_pays", "win"]


def _house(tmp_path, body: str):
    from odds.rules.profiles import load_profile

    path = tmp_path / "house.toml"
    path.write_text(f'base = "standard"\n[session]\n{body}\n', encoding="utf-8")
    return load_profile(path)


@pytest.mark.parametrize("body", ["stakes = 100", 'stakes = "100"', "stakes = [100]"])
def test_one_stake_in_the_file_is_every_seat_at_the_players_given(tmp_path, body) -> None:
    session = session_of(_house(tmp_path, body), {"players": "6"})
    assert session.players == 6 and session.stakes == (Fraction(100),) * 6


def test_flags_replace_the_files_stakes_whole(tmp_path) -> None:
    house = _house(tmp_path, "stakes = [1, 1, 2]")
    # one stake given: every seat of the file's table (three players, from its list)
    assert session_of(house, {"stakes": "5"}).stakes == (Fraction(5),) * 3
    assert session_of(house, {"stakes": "5", "players": "6"}).stakes == (Fraction(5),) * 6
    assert session_of(house, {"stakes": "5,6"}).stakes == (Fraction(5), Fraction(6))
    assert session_of(house, {}).stakes == (Fraction(1), Fraction(1), Fraction(2))
    # the file's players, the flag's stakes
    table = _house(tmp_path, "stakes = 100\nplayers = 4")
    assert session_of(table, {"stakes": "7"}).stakes == (Fraction(7),) * 4
    assert session_of(table, {}).stakes == (Fraction(100),) * 4
    assert session_of(table, {"players": "2"}).stakes == (Fraction(100),) * 2


def test_a_list_that_does_not_fit_the_players_names_both_and_where(tmp_path) -> None:
    house = _house(tmp_path, "stakes = [1, 1, 2]")
    with pytest.raises(ValueError, match=r"^stakes: 3 stakes given for 6 players \(give one "
                       r"stake for every seat, or one per player\); stakes from the profile's "
                       r"\[session\]$"):
        session_of(house, {"players": "6"})
    table = _house(tmp_path, "players = 6")
    with pytest.raises(ValueError, match=r"2 stakes given for 6 players .*; players from the "
                       r"profile's \[session\]$"):
        session_of(table, {"stakes": "1,2"})
    with pytest.raises(ValueError, match=r"2 stakes given for 3 players \(give one stake for "
                       r"every seat, or one per player\)$"):
        session_of(BUILTIN["standard"], {"players": "3", "stakes": "1,2"})
