"""The Python API as people call it: names, numbers of packs, 'inf', readable results."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

import odds
from cli import main
from odds import BUILTIN, ProfileError, Shoe, report_text, round_odds
from tests.paths import ROOT


@pytest.mark.parametrize("call", [
    lambda: round_odds("standard", decks=8),
    lambda: round_odds("Standard", 8),
    lambda: round_odds(BUILTIN["standard"], shoe="8"),
    lambda: round_odds("STANDARD", shoe=Shoe.packs_of(8)),
], ids=["name-decks", "any-case-int", "object-text", "shoe-object"])
def test_every_way_of_naming_profile_and_shoe_agrees(call) -> None:
    expected = round_odds(BUILTIN["standard"], Shoe.packs_of(8))
    result = call()
    assert (result.total, result.expected_value, result.variance) == (
        expected.total, expected.expected_value, expected.variance)


def test_infinite_shoe_by_name() -> None:
    assert round_odds(BUILTIN["plain"], shoe="inf").shoe.infinite
    assert round_odds("plain", decks="inf").expected_value == 0


@pytest.mark.parametrize("args,kwargs,message", [
    (("standard", 8.5), {}, "a shoe is a Shoe, a number of packs"),
    (("standard",), {"decks": True}, "a shoe is a Shoe, a number of packs"),
    (("standard",), {"decks": 0}, "at least 1 pack"),
    ((8,), {}, "a profile is a Profile, a built-in name"),
    (("standrd",), {}, "unknown profile 'standrd'"),
    (("standard", 8), {"decks": 8}, "give the shoe once"),
])
def test_anything_else_is_a_value_error_that_says_what_is_expected(args, kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        round_odds(*args, **kwargs)
    assert issubclass(ProfileError, ValueError)


def test_str_is_short_and_report_text_is_the_cli_text() -> None:
    result = round_odds("standard")
    text = str(result)
    assert len(text.splitlines()) == 3 and len(text) < 300
    assert "win 0.45390897" in text and "1041476/38172225" in text
    cli = CliRunner().invoke(main, ["odds"]).output
    assert report_text(result) + "\n" == cli


def test_to_dict_is_the_cli_json() -> None:
    result = round_odds("standard", player="8h 7s", bank="Ac 6d")
    cli = CliRunner().invoke(main, ["odds", "--player", "8h 7s", "--bank", "Ac 6d", "--format", "json"])
    assert json.loads(cli.output) == result.to_dict()
    assert json.loads(json.dumps(result.to_dict())) == result.to_dict()


def test_python_m_odds_runs_the_command() -> None:
    done = subprocess.run([sys.executable, "-m", "odds", "profiles"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "\nstandard " in done.stdout
    bad = subprocess.run([sys.executable, "-m", "odds", "odds", "--decks", "0"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "Usage: lucky9 odds" in bad.stderr


def test_public_names_exist() -> None:
    assert all(hasattr(odds, name) for name in odds.__all__)


def _public_functions() -> list[str]:
    import inspect

    import odds

    return [name for name in odds.__all__ if inspect.isfunction(getattr(odds, name))
            and {"profile", "shoe"} & set(inspect.signature(getattr(odds, name)).parameters)]


@pytest.mark.parametrize("name", _public_functions())
def test_every_public_function_is_annotated_with_every_form(name: str) -> None:
    import inspect
    import typing

    import odds

    func = getattr(odds, name)
    # The parameters' annotations only: a return type may name a class imported for type
    # checking alone (table_game's FiniteTable), which get_type_hints cannot resolve.
    names = vars(sys.modules[func.__module__])
    hints = {k: eval(v, names) if isinstance(v, str) else v
             for k, v in func.__annotations__.items() if k != "return"}
    params = inspect.signature(func).parameters
    if "profile" in params:
        assert str in typing.get_args(hints["profile"]), name
    if "shoe" in params:
        forms = typing.get_args(hints["shoe"])
        assert {int, str, type(None)} <= set(forms), (name, forms)


def test_the_public_list_is_not_empty() -> None:
    assert {"round_odds", "bet_odds", "bank_study", "simulate", "follow_shoe"} <= set(
        _public_functions())


def test_names_and_numbers_give_the_same_figures_as_objects() -> None:
    from odds import (
        BUILTIN,
        Session,
        Shoe,
        bank_round,
        bank_study,
        bet_odds,
        bet_payout,
        bet_removal_effects,
        follow_shoe,
        profile_bets,
        removal_effects,
        round_odds,
        slot_round_odds,
    )

    pb, one = BUILTIN["punto-banco"], Shoe.packs_of(1)
    assert bet_odds("punto-banco", 1, ["tie"])["tie"].entry_counts == bet_odds(
        pb, one, ["tie"])["tie"].entry_counts
    assert bet_odds("punto-banco", "inf", ["tie"])["tie"].payout_distribution() == \
        round_odds(pb, "inf").payout_distribution("tie")
    # the slower ones once each, by name, with an invariant: the changes weighted by the
    # cards left sum to 0
    assert sum(4 * e for _, e in bet_removal_effects("punto-banco", "tie", 1)) == 0
    assert slot_round_odds("standard", 1, player="8h 7s").win == round_odds(
        "standard", 1, player="8h 7s").win
    session = Session(players=2, capital=10, rounds=3)
    assert bank_round("standard", "inf", session).mean == bank_round(
        BUILTIN["standard"], Shoe.infinite_shoe(), session).mean
    assert bank_study("standard", "inf", session).risk == bank_study(
        BUILTIN["standard"], Shoe.infinite_shoe(), session).risk
    assert bet_payout("punto-banco", "tie", "Ah 6s", "2c 5d") == 8
    assert list(profile_bets("ez-baccarat")) == list(profile_bets(BUILTIN["ez-baccarat"]))
    assert sum(4 * e.ev_change for e in removal_effects("plain", 1)) == 0
    follow = follow_shoe("standard", None, "9h 2c 9d 6s")
    assert follow.evs["player"][0] == round_odds("standard").expected_value
    assert follow.evs["player"][1] == round_odds("standard", removed="9h 2c 9d 6s").expected_value


@pytest.mark.parametrize("call", ["bet_odds", "bank_study", "simulate", "removal_effects"])
def test_a_wrong_profile_or_shoe_is_a_value_error_in_words(call: str) -> None:
    import odds

    func = getattr(odds, call)
    with pytest.raises(ValueError, match="unknown profile 'standrd'"):
        func("standrd")
    with pytest.raises(ValueError, match="a shoe is a Shoe, a number of packs"):
        func("standard", 2.5)
