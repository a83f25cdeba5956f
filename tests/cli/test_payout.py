"""``lucky9 payout`` through click's test runner: exact output and exit codes."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli import main

PLAIN = """\
profile plain: standard Lucky 9 without pair bonuses (for beginners)
shoe: 1 pack
rules: naturals 8-9 outright; player draws on 0-5; bank draws on 0-5; Colon by
  rank; no pair bonus
pay table (net per unit stake): win 1
decimals rounded half-even to 8 places, EVs and edges in percent; fractions exact; lucky9-odds 0.1.0

player seat, per unit stake
  EV                                 0.000000%  0
  variance                          0.90781793  103960291/114516675
  standard deviation                0.95279480  sqrt(1079835542617)/1090635
  bank edge per unit staked          0.000000%  0
  bank edge per round, 1 player      0.000000%  0

break-even: the value that makes the bet's EV exactly 0 (other entries as set)
  win               1.00000000  1
"""


def run(*args: str):
    return CliRunner().invoke(main, ["payout", *args])


def test_plain_text_output() -> None:
    # plain, 1 pack: P(win) = P(loss) = 103960291/229033350 (the foundation's
    # verified figure), so Var = 2 * P(win) = 103960291/114516675.
    result = run("--profile", "plain")
    assert result.exit_code == 0, result.output
    assert result.stdout == PLAIN


def test_json_symbols_solve_tables_players() -> None:
    result = run("--decks", "8", "--symbol", "colon", "--solve", "colon-nine",
                 "--table", "colon=3/2,colon_nine=5/2", "--players", "8", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["shoe"] == "8 packs" and data["players"] == 8
    assert data["symbolic"]["player"]["symbols"] == ["colon"]
    assert "colon" in data["symbolic"]["player"]["expected_value"]
    (solved,) = data["break_even"]
    assert solved["entry"] == "colon_nine" and solved["symbolic_in"] == ["colon"]
    assert solved["decimal"] is None  # an expression in colon
    labels = [t["label"] for t in data["tables"]]
    assert labels == ["as set", "colon=3/2,colon_nine=5/2"]
    seat = data["tables"][0]["bets"]["player"]
    assert seat == data["bets"]["player"]
    from fractions import Fraction

    per_unit = Fraction(seat["bank_edge_per_unit"]["fraction"])
    assert Fraction(seat["bank_edge_per_round"]["fraction"]) == 8 * per_unit
    assert data["tables"][1]["pay_table"]["colon"] == "3/2"


def test_side_by_side_text_mentions_n_times() -> None:
    result = run("--table", "colon=2,colon_nine=3", "--table", "colon=3/2", "--players", "4")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "(4 x the seat figure)" in out
    assert "[1] colon=2,colon_nine=3" in out and "[2] colon=3/2" in out
    assert "bank edge per round, N=4" in out


def test_punto_banco_break_even_and_house_edges() -> None:
    result = run("--profile", "punto-banco", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    # Published 8-deck house edges (RULES.md section 5): 1.0579%, 1.2351%, 14.3596%.
    assert data["bets"]["banker"]["bank_edge_per_unit"]["decimal"].startswith("0.010579")
    assert data["bets"]["player"]["bank_edge_per_unit"]["decimal"].startswith("0.012350")
    assert data["bets"]["tie"]["bank_edge_per_unit"]["decimal"].startswith("0.143596")
    entries = [b["entry"] for b in data["break_even"]]
    assert entries == ["win", "banker_pays", "tie_pays"]


def test_symmetric_bank_bonus_says_any_value_is_fair() -> None:
    result = run("--bank-bonus", "on", "--solve", "colon")
    assert result.exit_code == 0, result.output
    assert "0 whatever it is (every value is fair)" in result.stdout


def test_negative_break_even_is_flagged() -> None:
    result = run("--solve", "colon_nine")
    assert result.exit_code == 0, result.output
    assert "-307123/71205  (negative: no pay table reaches it)" in result.stdout


@pytest.mark.parametrize(
    "args,message",
    [
        (["--table", "colon=-1"], "-1 is negative"),
        (["--table", "colon=abc"], "'abc' is not a number"),
        (["--table", "colon_nine=-3/2"], "is negative"),
        (["--colon", "-2"], "is negative"),
        (["--colon", "x"], "is not a number"),
        (["--table", "colour=2"], "'colour' is not a pay-table option"),
        (["--table", "colon"], "is not NAME=VALUE"),
        (["--symbol", "colour"], "'colour' is not a pay-table entry"),
        (["--solve", "nine"], "'nine' is not a pay-table entry"),
        (["--symbol", "bank_colon"], "set bank_bonus on"),
        (["--solve", "tie_pays"], "only punto-banco"),
        (["--players", "0"], "0 is not in the range"),
        (["--players", "9"], "9 is not in the range"),
        (["--players", "two"], "'two' is not a valid integer"),
    ],
    ids=lambda a: " ".join(a) if isinstance(a, list) else "",
)
def test_bad_input_exits_2(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert result.stdout == ""
