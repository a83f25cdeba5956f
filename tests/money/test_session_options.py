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
