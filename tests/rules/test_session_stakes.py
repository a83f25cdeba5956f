"""Stakes in a session: one stake is every seat's, in a profile file as in a flag or in Python.

``stakes = [100]`` with six players was refused ('1 stakes given for 6
players'), ``stakes = 100`` was not a list while ``"100"`` was, and a stake of
-100 was "negative (give 0 or more)" while 0 was refused too.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from odds.rules.errors import ProfileError
from odds.rules.profiles import load_profile, profile_from_data
from odds.rules.session_options import Session

HUNDRED = (Fraction(100),)


def from_file(tmp_path, body: str) -> Session:
    path = tmp_path / "house.toml"
    path.write_text(f'base = "standard"\n[session]\n{body}\n', encoding="utf-8")
    return load_profile(path).session


@pytest.mark.parametrize("body", ["stakes = 100", 'stakes = "100"', "stakes = [100]",
                                  "stakes = 100.0", 'stakes = " 100 "'])
def test_one_stake_in_a_file_is_every_seats(tmp_path, body) -> None:
    session = from_file(tmp_path, body)
    assert session.stakes == HUNDRED
    assert session.stakes_for(6) == HUNDRED * 6
    assert session.stakes_for(1) == HUNDRED
    with_players = from_file(tmp_path, body + "\nplayers = 6")
    assert with_players.players == 6 and with_players.stakes_for(6) == HUNDRED * 6


def test_a_list_is_one_stake_per_seat(tmp_path) -> None:
    session = from_file(tmp_path, "stakes = [1, 1, 2]\nplayers = 3")
    assert session.stakes_for(3) == (Fraction(1), Fraction(1), Fraction(2))
    assert from_file(tmp_path, 'stakes = "1,1,2"').stakes == session.stakes
    assert from_file(tmp_path, "stakes = [0.5, 2.5]").stakes == (Fraction(1, 2), Fraction(5, 2))


@pytest.mark.parametrize("body,lengths", [
    ("stakes = [1, 1, 2]\nplayers = 6", "3 stakes given for 6 players"),
    ("stakes = [100, 100]\nplayers = 3", "2 stakes given for 3 players"),
])
def test_a_list_of_the_wrong_length_names_both(tmp_path, body, lengths) -> None:
    with pytest.raises(ProfileError, match=f"house.toml: session.stakes: {lengths} "
                                           r"\(give one stake for every seat, or one per player\)"):
        from_file(tmp_path, body)
    with pytest.raises(ProfileError, match=lengths):
        Session(stakes=(Fraction(1),) * int(lengths[0])).stakes_for(int(lengths.split()[-2]))


NOT_A_STAKE = "is not a stake (a stake is a positive amount, such as 1, 2.5 or 100)"


@pytest.mark.parametrize("raw,shown", [
    (-5, "-5"), (0, "0"), ("-100", "-100"), ("0", "0"), ([100, -5], "-5"), ("1,0", "0"),
    (-2.5, "-5/2"), ("-5/2", "-5/2"), (Fraction(0), "0"),
], ids=repr)
def test_a_stake_of_0_or_less_is_one_sentence_wherever_it_comes_from(raw, shown) -> None:
    with pytest.raises(ProfileError) as typed:
        Session().with_options(stakes=raw)
    assert str(typed.value) == f"stakes: {shown} {NOT_A_STAKE}"
    with pytest.raises(ProfileError) as filed:
        profile_from_data({"base": "standard", "session": {"stakes": raw}}, "house.toml")
    assert str(filed.value) == f"in house.toml: session.stakes: {shown} {NOT_A_STAKE}"


def test_a_stake_of_0_or_less_from_python_and_max_stake_say_the_same() -> None:
    with pytest.raises(ProfileError, match=f"^stakes: -100 {NOT_A_STAKE}$".replace("(", r"\(")
                       .replace(")", r"\)")):
        Session(stakes=(Fraction(-100),))
    for raw in ("0", "-5", 0, -5):
        with pytest.raises(ProfileError, match=f"^max_stake: -?[05] {NOT_A_STAKE[:15]}"):
            Session().with_options(max_stake=raw)
    with pytest.raises(ProfileError, match="max_stake: 0 is not a stake"):
        Session(max_stake=Fraction(0))


def test_max_stake_against_one_stake_and_a_list() -> None:
    with pytest.raises(ProfileError, match="^stakes: a stake of 100, above max_stake 50$"):
        Session().with_options(stakes="100", max_stake="50")
    with pytest.raises(ProfileError, match="^stakes: seat 2 stakes 100, above max_stake 50$"):
        Session().with_options(stakes="10,100", max_stake="50")
    assert Session().with_options(stakes=[50], max_stake=50).stakes_for(4) == (Fraction(50),) * 4


@pytest.mark.parametrize("raw", [[], "", True, "abc", {"a": 1}], ids=repr)
def test_what_is_not_a_stake_at_all(raw) -> None:
    with pytest.raises(ProfileError, match="stakes: "):
        Session().with_options(stakes=raw)


# Stakes as people write them: a denominator up to 10^9 (the parser refuses a denominator
# past 10^30, "too fine", and a numeral of more than 30 digits: tests/rules/test_numbers.py).
@given(st.fractions(min_value=Fraction(1, 100), max_value=1000, max_denominator=10**9),
       st.integers(1, 8))
def test_every_form_of_one_stake_means_the_same(stake, players) -> None:
    forms = [stake, str(stake), [stake], [str(stake)], f" {stake} "]
    if stake.denominator == 1:
        forms.append(int(stake))
    for form in forms:
        session = Session().with_options(stakes=form)
        assert session.stakes == (stake,)
        assert session.stakes_for(players) == (stake,) * players
        assert Session(players=players, stakes=session.stakes).stakes_for(players) == \
            (stake,) * players
