"""The lucky9 command through click's CliRunner: output, JSON and exit codes."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from odds import BUILTIN, Shoe, round_odds


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_odds_json_keys_and_values() -> None:
    code, out = run("odds", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["profile"] == "standard"
    assert data["decks"] == 1
    assert data["total_sequences"] == 52 * 51 * 50 * 49 * 48 * 47
    assert data["probabilities"]["win"] == "103960291/229033350"
    exact = round_odds(BUILTIN["standard"], Shoe.packs_of(1))
    assert Fraction(data["expected_value"]) == exact.expected_value
    assert Fraction(data["variance"]) == exact.variance
    assert data["colon"] == "1/17"
    assert Fraction(data["colon_nine"]) == Fraction(1, 221)
    assert data["options"]["colon"] == "2"
    assert data["options"]["naturals"] == "outright"
    assert sum(Fraction(v) for v in data["probabilities"].values()) == 1


def test_odds_text_has_rules_header_and_fractions() -> None:
    code, out = run("odds", "--decks", "8")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("profile standard:")
    assert "shoe: 8 packs" in lines
    assert any(line.startswith("rules: naturals 8-9 outright; player draws on 0-5") for line in lines)
    assert f"{416 * 415 * 414 * 413 * 412 * 411:,}" in out
    assert max(len(line) for line in lines) <= 80


def test_odds_flags_override_profile() -> None:
    code, out = run("odds", "--naturals", "compare", "--colon", "5/2", "--colon-nine", "none",
                    "--bank-bonus", "on", "--format", "json")
    assert code == 0
    opts = json.loads(out)["options"]
    assert (opts["naturals"], opts["colon"], opts["colon_nine"], opts["bank_bonus"]) == (
        "compare", "5/2", None, True)


def test_odds_csv() -> None:
    code, out = run("odds", "--profile", "plain", "--format", "csv")
    assert code == 0
    rows = out.splitlines()
    assert rows[0] == "section,quantity,fraction,decimal"
    assert "money,player expected value,0,0.00000000" in rows


def test_odds_known_cards_example() -> None:
    code, out = run("odds", "--player", "8h 7s 4d", "--bank", "Ac 6d", "--format", "json")
    assert code == 0
    assert json.loads(out)["probabilities"] == {"win": "1", "push": "0", "loss": "0"}


def test_punto_banco_json_bets() -> None:
    code, out = run("odds", "--profile", "punto-banco", "--format", "json")
    data = json.loads(out)
    assert code == 0 and set(data["bets"]) == {"player", "banker", "tie"}
    assert data["decks"] == 8


def test_profiles_list_and_show(tmp_path: Path) -> None:
    code, out = run("profiles")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()[1:1 + len(BUILTIN)]] == list(BUILTIN)
    assert out.splitlines()[0].split() == ["profile", "packs", "rules"]
    code, out = run("profiles", "punto-banco")
    assert code == 0 and "banker_pays          19:20" in out
    path = tmp_path / "club.toml"
    path.write_text('base = "standard"\nname = "club"\ncolon = 3\n', encoding="utf-8")
    code, out = run("profiles", str(path), "--format", "json")
    assert code == 0 and json.loads(out)["options"]["colon"] == "3"



def test_profiles_shows_the_session_a_file_sets(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('base = "standard"\nname = "house"\n[session]\nstakes = 100\n'
                    'max_bonus = 5000\n', encoding="utf-8")
    code, out = run("profiles", str(path))
    assert code == 0
    tail = [line.split() for line in out.splitlines()[-3:]]
    assert tail == [["session", "(lucky9", "bank;", "its", "flags", "override", "these):"],
                    ["stakes", "100"], ["max_bonus", "5000"]]
    code, out = run("profiles", str(path), "--format", "json")
    assert json.loads(out)["session"]["stakes"] == ["100"]
    assert json.loads(out)["session"]["max_bonus"] == "5000"
    code, out = run("profiles", "standard")
    assert "session" not in out  # a built-in profile sets none

def test_odds_with_profile_file(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text('base = "standard"\nname = "club"\ncolon = 3\n', encoding="utf-8")
    code, out = run("odds", "--profile", str(path), "--format", "json")
    assert code == 0 and json.loads(out)["profile"] == "club"


@pytest.mark.parametrize(
    "args,message",
    [
        (["odds", "--player", "1x"],
         "'1x' is not a card (rank must be one of A 2 3 4 5 6 7 8 9 10 J Q K)"),
        (["odds", "--player", "8z"], "'8z' is not a card (suit must be one of"),
        (["odds", "--removed", " "], "no cards were given"),
        (["odds", "--removed", "A A A A A"],
         "holds only 4 cards of rank A (1 pack), but 5 are taken"),
        (["odds", "--player", "Ah", "--bank", "Ah"], "holds only 1 Ah"),
        (["odds", "--decks", "0"], "a shoe needs at least 1 pack, not 0"),
        (["odds", "--decks", "many"], "'many' is not a shoe"),
        (["odds", "--profile", "standrd"], "unknown profile 'standrd'"),
        (["odds", "--colon", "-2"], "colon: -2 is negative"),
        (["odds", "--colon", "two"], "colon: 'two' is not a number"),
        (["odds", "--player-draw", "0-8"], "player_draw: 8 is a natural"),
        (["odds", "--naturals", "sometimes"], "'sometimes' is not one of"),
        (["odds", "--player", "A 2 3 4"], "the player holds at most 3 cards"),
        (["odds", "--player", "8 K 5"], "no deal under profile 'standard'"),
        # A profile where people choose goes to the game (issue 6); CSV is refused there.
        (["odds", "--profile", "family", "--format", "csv"], "use --format text or json"),
        (["odds", "--decks", "inf", "--removed", "9"], "cannot be removed from an infinite shoe"),
        (["odds", "--decks", "2", "--shoe", "inf"], "give --decks or --shoe, not both"),
        (["profiles", "nope"], "unknown profile 'nope'"),
        (["odds", "--colon", "1/0"], "colon: '1/0' divides by zero"),
        (["odds", "--player-draw", "5-0"], "range '5-0' runs backwards"),
    ],
)
def test_bad_input_is_a_usage_error(args: list[str], message: str) -> None:
    code, out = run(*args)
    assert code == 2, out
    assert message in out
    assert "Traceback" not in out


@pytest.mark.parametrize(
    "text,message",
    [
        ("colr = 2\n", "unknown option 'colr'"),
        ("colon = -1\n", "colon: -1 is negative"),
        ('colon = "two"\n', "colon: 'two' is not a number"),
        ('bank_bonus = "maybe"\n', "bank_bonus: 'maybe' is not on or off"),
        ('base = "bacarrat"\n', "base 'bacarrat' is not a built-in profile"),
        ("player_draw = [0, 12]\n", "12 is not a hand value"),
        ("[bank_draw]\ndraws = [0]\n[bank_draw.tableau]\n0 = []\n", "no entry for own value 1"),
        ("colon = \n", "is not valid TOML"),
    ],
)
def test_bad_profile_file_is_a_usage_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    code, out = run("odds", "--profile", str(path))
    assert code == 2
    assert message in out and "bad.toml" in out


def test_help_explains() -> None:
    code, out = run("odds", "--help")
    assert code == 0
    for flag in ("--naturals", "--colon", "--colon-nine", "--bonus-on", "--bank-bonus",
                 "--forced-draw", "--decks", "--shoe", "--player", "--removed", "--format"):
        assert flag in out


def test_header_shows_every_rule_that_moves_a_figure() -> None:
    code, out = run("odds", "--profile", "plain", "--bank-bonus", "on", "--bank-colon", "2",
                    "--natural-values", "7,9", "--player-draw", "0-5", "--bank-draw", "0-5")
    assert code == 0
    header = " ".join(out.split("card sequences")[0].split())
    assert "naturals 7, 9 outright" in header
    assert "bank Colon collects 2:1" in header
    assert "Colon by rank" in header


def test_no_naturals_at_all_prints() -> None:
    code, out = run("odds", "--natural-values", "")
    assert code == 0 and "naturals none" in out


def test_csv_names_profile_shoe_and_every_option() -> None:
    from odds import OPTIONS

    code, out = run("odds", "--format", "csv", "--decks", "2", "--removed", "9")
    assert code == 0
    rows = out.splitlines()
    assert "meta,profile,standard," in rows and "meta,shoe,2 packs," in rows
    assert "meta,removed cards,9," in rows
    assert {r.split(",")[1] for r in rows if r.startswith("rule,")} == {o.name for o in OPTIONS}


def test_decks_flag_is_the_profile_decks_option() -> None:
    code, out = run("odds", "--profile", "super9", "--decks", "1", "--format", "json")
    data = json.loads(out)
    assert data["decks"] == 1 and data["options"]["decks"] == 1
