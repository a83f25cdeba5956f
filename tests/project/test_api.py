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
