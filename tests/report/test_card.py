"""`lucky9 tables --profile` (your own rules' tables) and `lucky9 card` (the players' card)."""

from __future__ import annotations

import json
import os
import re
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from odds.report.card import card, edge_words, rules_in_words
from odds.rules.bet_library import table_bets
from odds.rules.profiles import BUILTIN
from tests.pages import StrictParser, needs_chromium, print_check
from tests.paths import ROOT

RUNNER = CliRunner()
HOUSE = """
base = "punto-banco"
name = "my-house"
title = "My house: punto-banco, the tie at 9:1, a big-tiger side bet"
tie_pays = 9
bets = ["player", "banker", "tie", "big-tiger"]

[bet.big-tiger]
side = "banker"
description = "the banker wins with a three-card 6, 50:1"
[[bet.big-tiger.pay]]
winner = "banker"
banker_final = 6
banker_cards = 3
pays = 50
"""
CARD_PROFILES = ["standard", "plain", "forced-draw", "super9", "punto-banco", "ez-baccarat"]
# standard and ez-baccarat (the most side bets) by default; the others in CI (slow)
CARD_FAST = ("standard", "ez-baccarat")


def _card_profiles(fast: tuple[str, ...] = CARD_FAST) -> list:  # type: ignore[type-arg]
    return [k if k in fast else pytest.param(k, marks=pytest.mark.slow) for k in CARD_PROFILES]


@pytest.fixture(scope="module")
def house(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("house") / "my-house.toml"
    path.write_text(HOUSE)
    return str(path)


# -- tables --profile --------------------------------------------------------------------


# CI (slow: the 19 files of a profile); the fast twin is test_tables.py's
# test_one_page_per_profile_matches_its_committed_files.
@pytest.mark.slow
def test_tables_for_one_built_in_profile_equal_the_committed_ones(tmp_path: Path) -> None:
    res = RUNNER.invoke(main, ["tables", "--profile", "punto-banco", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert sorted(os.listdir(tmp_path)) == ["punto-banco"]
    written = sorted(os.listdir(tmp_path / "punto-banco"))
    assert written == sorted(os.listdir(ROOT / "tables" / "punto-banco"))
    for name in written:
        assert (tmp_path / "punto-banco" / name).read_bytes() == (
            ROOT / "tables" / "punto-banco" / name).read_bytes(), name


def test_tables_for_a_profile_file(house: str, tmp_path: Path) -> None:
    res = RUNNER.invoke(main, ["tables", "--profile", house, "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "wrote 19 files" in res.output
    assert sorted(os.listdir(tmp_path)) == ["my-house"]
    page = json.loads((tmp_path / "my-house" / "my-house-d8.json").read_text())
    odds = json.loads(RUNNER.invoke(main, ["odds", "--profile", house, "--decks", "8",
                                           "--format", "json"]).output)
    assert page["header"]["profile"] == "my-house"
    assert page["header"]["options"]["tie_pays"] == "9"
    text = json.dumps(page)
    assert odds["probabilities"]["win"] in text and odds["probabilities"]["push"] in text
    assert odds["bets"]["tie"]["expected_value"] in text  # the tie at 9:1, from the file
    sheet = (tmp_path / "my-house" / "my-house-sheet.html").read_text()
    assert "My house: punto-banco, the tie at 9:1" in sheet


@pytest.mark.parametrize("args,message", [
    (["--profile", "plain", "--profile", "plain"], "given twice"),
    (["--profile", "nosuch"], "nosuch"),
    (["--profile", "plain"] * 17, "at most 16 profiles"),
])
def test_tables_bad_profiles(args, message, tmp_path: Path) -> None:
    res = RUNNER.invoke(main, ["tables", *args, "--out", str(tmp_path / "t")])
    assert res.exit_code == 2, res.output
    assert message in res.output and "Traceback" not in res.output
    assert not (tmp_path / "t").exists()


def test_tables_bad_profile_file_writes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('base = "punto-banco"\ntie_pays = "lots"\n')
    res = RUNNER.invoke(main, ["tables", "--profile", str(bad), "--out", str(tmp_path / "t")])
    assert res.exit_code == 2 and "bad.toml" in res.output, res.output
    assert not (tmp_path / "t").exists()


# -- the table card --------------------------------------------------------------------------


@pytest.mark.parametrize("key", _card_profiles())
def test_card_edges_equal_odds(key: str) -> None:
    profile = BUILTIN[key]
    odds = json.loads(RUNNER.invoke(main, ["odds", "--profile", key, "--bet", "all",
                                           "--format", "json"]).output)["bets"]
    page = card(profile)
    body = page.split("<body>")[1]
    assert "/" not in body.replace("</", "")  # no fractions, anywhere
    shown = re.findall(r'<td class="bet">([^<]*)</td>', page)
    assert shown == list(table_bets(profile))
    for name in shown:
        edge = -Fraction(odds[name]["expected_value"])
        row = f'<td class="bet">{name}</td>'
        assert f'<td class="edge">{edge_words(edge)}</td>' in page.split(row)[1].split("</tr>")[0]
    parser = StrictParser()
    parser.feed(page)
    parser.close()
    assert parser.stack == [] and "@page { size: A4;" in page


def test_a_lucky9_card_shows_the_bets_its_table_takes() -> None:
    """A Lucky 9 table takes the seat bet (its Colon a bonus), not the colon stakes."""
    for key in ("standard", "forced-draw", "super9"):
        res = RUNNER.invoke(main, ["card", "--profile", key])
        assert res.exit_code == 0, res.output
        assert re.findall(r'<td class="bet">([^<]*)</td>', res.output) == ["player"]
        assert "player Colon nine: " in res.output and ">colon" not in res.output
    ez = RUNNER.invoke(main, ["card", "--profile", "ez-baccarat"]).output
    assert re.findall(r'<td class="bet">([^<]*)</td>', ez) == [
        "player", "ez-banker", "tie", "dragon-7", "panda-8"]


def test_a_line_without_a_label_reads_as_the_bets_description(house: str) -> None:
    res = RUNNER.invoke(main, ["card", "--profile", house])
    assert res.exit_code == 0, res.output
    assert "the banker wins with a three-card 6, 50:1: 50 to 1" in res.output
    assert "winner banker" not in res.output


def test_the_card_says_what_a_natural_is() -> None:
    assert ("A hand whose first two cards count 8 or 9 is a natural."
            in rules_in_words(BUILTIN["standard"]))


def test_edge_words() -> None:
    assert edge_words(Fraction(1, 8)) == "12.50%"
    assert edge_words(Fraction(-1041476, 38172225)) == "2.73% to the players"
    assert edge_words(Fraction(0)) == "0.00%"


def test_rules_in_words_follow_the_profile() -> None:
    standard = " ".join(rules_in_words(BUILTIN["standard"]))
    assert "1 pack of 52 cards" in standard and "draws one card on 0 to 5" in standard
    assert "a Colon (first two cards a pair by rank) pays 2 to 1" in standard
    assert "a pair of nines pays 3 to 1" in standard
    forced = " ".join(rules_in_words(BUILTIN["forced-draw"]))
    assert "draws one card on 0 to 7" in forced
    punto = " ".join(rules_in_words(BUILTIN["punto-banco"]))
    assert "8 packs" in punto and "third-card table" in punto and "nobody draws" in punto
    assert "Bonus" not in punto
    with pytest.raises(ValueError, match="fixed rule"):
        rules_in_words(BUILTIN["family"])


def test_card_cli(house: str, tmp_path: Path) -> None:
    res = RUNNER.invoke(main, ["card", "--profile", house])
    assert res.exit_code == 0 and "big-tiger" in res.output and "tie: 9 to 1" in res.output
    res = RUNNER.invoke(main, ["card", "--profile", house, "--profile", "standard",
                               "--out", str(tmp_path / "cards")])
    assert res.exit_code == 0, res.output
    assert sorted(os.listdir(tmp_path / "cards")) == ["my-house-card.html",
                                                      "standard-card.html"]
    for args, message in ((["--profile", "family"], "fixed rule"),
                          (["--profile", "plain", "--profile", "standard"], "--out DIR"),
                          (["--profile", "plain", "--out", str(tmp_path / "no" / "x.html")],
                           "x.html")):
        res = RUNNER.invoke(main, ["card", *args])
        assert res.exit_code == 2 and message in res.output, res.output


# Chromium prints ez-baccarat's card (the most side bets) by default; the others in CI (slow)
@needs_chromium
@pytest.mark.parametrize("key", _card_profiles(("ez-baccarat",)))
def test_card_prints_on_one_a4_page_without_overflow(key: str, tmp_path: Path) -> None:
    page = tmp_path / f"{key}-card.html"
    page.write_text(card(BUILTIN[key]))
    pages, width = print_check(page, tmp_path)
    assert pages == 1
    assert width <= 718
