"""``--max-bonus`` and ``--stake`` on the real commands: figures, notes, errors, precedence."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from cli import main
from odds import BUILTIN, Shoe, round_odds

F = Fraction


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def _house(tmp_path, body: str) -> str:
    path = tmp_path / "house.toml"
    path.write_text(f'base = "standard"\n{body}\n')
    return str(path)


def test_odds_at_a_stake_under_a_binding_cap() -> None:
    result = run("odds", "--max-bonus", "5000", "--stake", "4000", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    want = round_odds(BUILTIN["standard"].at_stake(F(4000), F(5000)), Shoe.packs_of(1))
    assert F(data["expected_value"]) == want.expected_value
    assert F(data["variance"]) == want.variance
    assert F(data["expected_value"]) < round_odds(BUILTIN["standard"]).expected_value
    assert data["max_bonus"]["binds"] is True and data["max_bonus"]["per_unit"] == "5/4"
    assert data["options"]["colon"] == "2"  # the pay table as set; the cap is beside it
    text = run("odds", "--max-bonus", "5000", "--stake", "4000").stdout
    assert "a bonus pays at most 5000 at stake 4000" in " ".join(text.split())


def test_a_cap_that_never_binds_says_so() -> None:
    result = run("odds", "--max-bonus", "5000", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["max_bonus"]["binds"] is False
    assert "never binds at stake 1" in data["max_bonus"]["note"]
    assert data["expected_value"] == json.loads(run("odds", "--format", "json").stdout)[
        "expected_value"]
    text = " ".join(run("odds", "--max-bonus", "5000").stdout.split())
    assert "note: max_bonus 5000 never binds at stake 1: the largest bonus, Colon nine 3:1" in text
    csv = run("odds", "--max-bonus", "5000", "--format", "csv").stdout
    assert "rule,max_bonus binds,False," in csv


def test_without_a_cap_nothing_changes() -> None:
    plain = run("odds", "--format", "json").stdout
    assert "max_bonus" not in json.loads(plain)
    assert run("odds", "--stake", "100", "--format", "json").stdout == plain


@pytest.mark.parametrize("args,message", [
    (("--max-bonus", "0"), "max_bonus: 0 must be more than 0"),
    (("--max-bonus", "-2"), "max_bonus: -2 is negative"),
    (("--max-bonus", "lots"), "max_bonus: 'lots' is not a number"),
    (("--max-bonus", "10", "--stake", "0"), "stake: 0 is not a stake (a stake is a positive"),
    (("--max-bonus", "10", "--stake", "x"), "stake: 'x' is not a number"),
])
@pytest.mark.parametrize("command", ["odds", "bank"])
def test_bad_input_exits_2_with_a_sentence(command, args, message) -> None:
    if command == "bank" and "--stake" in args:
        args = tuple("--stakes" if a == "--stake" else a for a in args)
        message = message.replace("stake:", "stakes:")  # the one sentence, of bank's --stakes
    result = run(command, *args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("body", ["max_bonus = \"lots\"", "[session]\nmax_bonus = \"lots\"",
                                  "max_bonus = 0", "max_bonus = 1\n[session]\nmax_bonus = 2"])
def test_a_bad_file_exits_2_naming_the_key(tmp_path, body) -> None:
    path = _house(tmp_path, body)
    for command in ("odds", "bank"):
        result = run(command, "--profile", path)
        assert result.exit_code == 2, result.output
        assert "max_bonus" in result.output and "house.toml" in result.output


@pytest.mark.parametrize("body", ["max_bonus = 100", "[session]\nmax_bonus = 100"])
def test_the_flag_overrides_the_file(tmp_path, body) -> None:
    path = _house(tmp_path, body)
    from_file = json.loads(run("odds", "--profile", path, "--stake", "50", "--format",
                               "json").stdout)
    assert from_file["max_bonus"]["max_bonus"] == "100" and from_file["max_bonus"]["binds"]
    flag = json.loads(run("odds", "--profile", path, "--stake", "50", "--max-bonus", "5000",
                          "--format", "json").stdout)
    assert flag["max_bonus"]["max_bonus"] == "5000" and not flag["max_bonus"]["binds"]
    off = json.loads(run("odds", "--profile", path, "--stake", "50", "--max-bonus", "none",
                         "--format", "json").stdout)
    assert "max_bonus" not in off
    bank = json.loads(run("bank", "--profile", path, "--stakes", "50", "--max-bonus", "120",
                          "--format", "json").stdout)
    assert bank["session"]["max_bonus"] == "120"


def test_bank_applies_the_cap_at_each_seat_s_stake() -> None:
    result = run("bank", "--players", "2", "--decks", "inf", "--stakes", "10,100",
                 "--max-bonus", "150", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    first, second = (s["max_bonus"] for s in data["seats"])
    assert first["binds"] is False and "never binds at stake 10" in first["note"]
    assert second["binds"] is True and second["per_unit"] == "3/2"
    inf = Shoe.infinite_shoe()
    want = (10 * round_odds(BUILTIN["standard"], inf).expected_value
            + 100 * round_odds(BUILTIN["standard"].at_stake(F(100), F(150)), inf).expected_value)
    assert F(data["mean"]) == -want
    text = " ".join(run("bank", "--players", "2", "--decks", "inf", "--stakes", "10,100",
                        "--max-bonus", "150").stdout.split())
    assert "max_bonus 150;" in text
    assert "note: seat 1: max_bonus 150 never binds at stake 10" in text
    assert "note: seat 2: max_bonus 150 at stake 100: a bonus pays at most 150" in text


def test_help_says_what_the_cap_is() -> None:
    for command in ("odds", "bank"):
        text = " ".join(run(command, "--help").stdout.split())
        assert "--max-bonus X" in text
        assert "never less than a plain win" in text


def test_tables_card_and_par_take_the_cap_at_a_stake(tmp_path) -> None:
    path = _house(tmp_path, "max_bonus = 5000")
    out = tmp_path / "t"
    result = run("tables", "--profile", path, "--stake", "4000", "--out", str(out))
    assert result.exit_code == 0, result.output
    page = json.loads((out / "house" / "house-d1.json").read_text())
    assert page["header"]["max_bonus"]["binds"] is True
    money = page["sections"]["money"]["rows"][0]["player bet"]["fraction"]
    assert F(money) == round_odds(BUILTIN["standard"].at_stake(F(4000), F(5000))).expected_value
    assert "- note: max_bonus 5000 at stake 4000" in (out / "house" / "house-d1.md").read_text()
    card = run("card", "--profile", path).stdout
    assert "A bonus pays at most 5,000 in all" in card and "where it never binds" in card
    par = run("par", "--profile", path, "--bet", "player", "--no-count", "--decks", "1",
              "--max-bonus", "3000", "--stake", "2000", "--format", "json")
    assert par.exit_code == 0, par.output
    assert "a bonus pays at most 3000 at stake 2000" in par.stdout


def test_tables_without_a_profile_refuses_a_cap() -> None:
    result = run("tables", "--max-bonus", "5000", "--out", "unused")
    assert result.exit_code == 2 and "give --profile" in result.output


def test_a_command_that_pays_bonuses_in_full_says_so(tmp_path) -> None:
    path = _house(tmp_path, "max_bonus = 5000")
    result = run("conditional", "--profile", path, "--format", "json")
    assert result.exit_code == 0, result.output
    assert "this command pays bonuses in full" in result.stderr
    json.loads(result.stdout)  # standard output stays the data
    assert "pays bonuses in full" not in run("odds", "--profile", path).stderr
