"""Conditional odds, `odds --player-total/--bank-total`, `lucky9 conditional`."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from cli import main
from odds import BUILTIN, Shoe, round_odds
from odds.exact.conditional import conditional_table


def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def baccarat():
    return round_odds(BUILTIN["punto-banco"], Shoe.packs_of(8))


# issue 3 / published baccarat tables: 8 decks, by the Player's first two-card total,
# P(Player wins) / P(Banker wins) / P(Tie) to 6 digits.
PUBLISHED = {0: ("0.278792", "0.654627", "0.066581"), 5: ("0.358488", "0.537849", "0.103663")}


@pytest.mark.parametrize("value", sorted(PUBLISHED))
def test_published_baccarat_by_player_value(baccarat, value):
    row = conditional_table(baccarat, "player")[value]
    assert row.values == (value,)
    assert tuple(f"{float(p):.6f}" for p in (row.win, row.loss, row.push)) == PUBLISHED[value]
    by_value = baccarat.by_value("player")[value]
    assert (row.win, row.push, row.loss, row.expected_value) == (
        by_value["win"], by_value["push"], by_value["loss"], by_value["expected_value"])


@pytest.mark.parametrize("value", sorted(PUBLISHED))
def test_published_figures_through_the_cli(value):
    result = run("conditional", "--profile", "punto-banco")
    assert result.exit_code == 0, result.output
    player, banker, tie = PUBLISHED[value]
    line = next(line for line in result.output.splitlines() if line.startswith(f"{value} "))
    assert line.split()[2:5] == [player, tie, banker]  # win, push, loss columns


@pytest.mark.parametrize("key", ["standard", "super9", "punto-banco"])
def test_tables_agree(key):
    result = round_odds(BUILTIN[key], Shoe.packs_of(2))
    for side in ("player", "bank"):
        table = conditional_table(result, side)
        expected = result.by_value(side)
        assert [r.values[0] for r in table] == sorted(expected)
        for row in table:
            e = expected[row.values[0]]
            assert (row.probability, row.win, row.push, row.loss, row.expected_value) == (
                e["probability"], e["win"], e["push"], e["loss"], e["expected_value"])
    pairs = conditional_table(result, "pair")
    assert sum(r.probability for r in pairs) == 1
    # averaging the pair rows over the bank value gives the player rows back
    for row in conditional_table(result, "player"):
        mine = [r for r in pairs if r.values[0] == row.values[0]]
        weight = sum(r.probability for r in mine)
        assert weight == row.probability
        assert sum(r.probability * r.win for r in mine) / weight == row.win
        for bet, ev in row.expected_values:
            assert sum(r.probability * dict(r.expected_values)[bet] for r in mine) / weight == ev
    assert sum(r.probability * r.expected_value for r in pairs) == result.expected_value


def test_baccarat_bets_in_the_table(baccarat):
    table = conditional_table(baccarat, "player")
    assert [bet for bet, _ in table[0].expected_values] == ["player", "banker", "tie"]
    banker = sum(r.probability * dict(r.expected_values)["banker"] for r in table)
    assert banker == baccarat.bet_moments("banker")[0]


def test_conditional_table_bad_by(baccarat):
    with pytest.raises(ValueError, match="by player, bank, pair, not 'seat'"):
        conditional_table(baccarat, "seat")


def test_player_total_matches_table():
    result = round_odds(BUILTIN["standard"], Shoe.packs_of(8))
    row = conditional_table(result, "pair")[5 * 10 + 3]
    assert row.values == (5, 3)
    given_both = round_odds(BUILTIN["standard"], Shoe.packs_of(8), player_total=5, bank_total=3)
    assert (given_both.win, given_both.expected_value) == (row.win, row.expected_value)


# -- commands ------------------------------------------------------------------------------


def test_odds_player_total_cli():
    result = run("odds", "--player-total", "5", "--bank-total", "3", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    expected = round_odds(BUILTIN["standard"], Shoe.packs_of(1), player_total=5, bank_total=3)
    assert data["probabilities"]["win"] == str(expected.win) == "45917/89112"
    assert data["conditions"]["player_total"] == 5 and data["conditions"]["bank_total"] == 3
    text = run("odds", "--player-total", "5", "--bank-total", "3").output
    assert "shoe: 1 pack; given: player two-card value 5; bank two-card value 3" in text


@pytest.mark.parametrize(
    "args, message",
    [
        (["--player-total", "10"], "10 is not a two-card value for the player (values run 0-9)"),
        (["--bank-total", "12"], "12 is not a two-card value for the bank"),
        (["--player-total", "x"], "'x' is not a valid integer"),
        (["--shoe", "A=0 2=0 3=0 4=0 5=4 6=0 7=0 8=0 9=0 10=4 J=0 Q=0 K=0",
          "--player-total", "3"],
         "no deal under profile 'standard' from this shoe is consistent with player total 3"),
    ],
    ids=["total-10", "bank-12", "not-a-number", "shoe-cannot"],
)
def test_odds_total_bad_input(args, message):
    result = run("odds", *args)
    assert result.exit_code == 2
    assert message in result.output


def test_odds_in_a_dealt_shoe_reads_well():
    removed = " ".join(["5"] * 20 + ["4"] * 10 + ["9"] * 5 + ["K"] * 3)
    result = run("odds", "--decks", "8", "--removed", removed)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1] == (
        "shoe: 8 packs; given: removed 38 cards (rank:count 4:10 5:20 9:5 K:3), 378 left")
    short = run("odds", "--removed", "Ah 5s")
    assert "given: removed Ah 5s" in short.output


@pytest.mark.parametrize("by, rows", [("player", 10), ("bank", 10), ("pair", 100)])
def test_conditional_cli_csv(by, rows):
    result = run("conditional", "--by", by, "--format", "csv")
    assert result.exit_code == 0, result.output
    table = list(csv.reader(io.StringIO(result.output)))
    assert len(table) == 1 + rows
    assert table[0][: 2 if by == "pair" else 1] == (["player", "bank"] if by == "pair" else [by])
    assert sum(Fraction(r[2 if by == "pair" else 1]) for r in table[1:]) == 1


def test_conditional_cli_json_and_text():
    data = json.loads(run("conditional", "--format", "json", "--decks", "8").output)
    assert data["given"] == ["player two-card value"]
    assert data["rows"][9]["loss"] == "0"
    text = run("conditional", "--by", "pair").output.splitlines()
    assert max(map(len, text[5:])) <= 80


def test_conditional_cli_bad_by():
    result = run("conditional", "--by", "seat")
    assert result.exit_code == 2 and "'seat' is not one of" in result.output
