"""The house's cut in the commands, the card's shoe and rule flags, and file names that must
name the format written (real commands through CliRunner)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from odds import BUILTIN, Shoe, round_odds
from odds.money.seat_cut import seat_after_cut
from odds.rules.session_options import Session
from tests.pages import needs_chromium


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def test_odds_prints_the_seat_after_the_cut_exactly() -> None:
    result = invoke("odds", "--decks", "6", "--fee", "5", "--commission", "5%", "--stake", "100",
                    "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    want = seat_after_cut(round_odds(BUILTIN["standard"], Shoe.packs_of(6)),
                          Session(fee=Fraction(5), commission=Fraction(1, 20)), Fraction(100))
    assert data["house_cut"] == [{"stake": "100", "fee": "5", "commission": "1/20",
                                  "expected_value": str(want.after[0]),
                                  "variance": str(want.after[1]),
                                  "bank_edge": str(-want.after[0])}]
    text = invoke("odds", "--decks", "6", "--fee", "5", "--stake", "100").output
    assert "after the house's cut, at a stake of 100" in text
    assert "the house's cut: a fee of 5 per seat per round" in text


def test_odds_without_a_cut_is_unchanged() -> None:
    assert "house's cut" not in invoke("odds", "--decks", "6").output
    assert "house_cut" not in json.loads(invoke("odds", "--format", "json").output)


def test_payout_solves_the_fee_and_commission_for_an_edge() -> None:
    result = invoke("payout", "--decks", "6", "--solve", "fee", "--solve", "commission",
                    "--edge", "1%", "--stake", "100", "--format", "json")
    assert result.exit_code == 0, result.output
    cuts = {c["cut"]: c for c in json.loads(result.output)["break_even_cut"]}
    r = round_odds(BUILTIN["standard"], Shoe.packs_of(6))
    fee = Fraction(cuts["fee"]["value"])
    assert seat_after_cut(r, Session(fee=fee), Fraction(100)).bank_edge == Fraction(1, 100)
    c = Fraction(cuts["commission"]["value"])
    assert seat_after_cut(r, Session(commission=c)).bank_edge == Fraction(1, 100)
    text = invoke("payout", "--decks", "6", "--solve", "commission").output
    assert "commission on a seat's win, bank edge 0.000000%" in text


def test_bank_takes_the_cut_the_fee_moving_the_mean_only() -> None:
    base = ["bank", "--players", "2", "--decks", "inf", "--stakes", "100", "--format", "json"]
    plain = json.loads(invoke(*base).output)
    cut = json.loads(invoke(*base, "--fee", "10").output)
    assert Fraction(cut["mean"]) == Fraction(plain["mean"]) + 20
    assert cut["variance"] == plain["variance"]
    assert cut["session"]["fee"] == "10"
    text = invoke("bank", "--players", "2", "--decks", "inf", "--commission", "5%").output
    assert "commission 5%" in text


@pytest.mark.parametrize("args,message", [
    (["odds", "--fee", "-1"], "fee: -1 is negative"),
    (["odds", "--commission", "120%"], "commission: 6/5 is not a share"),
    (["payout", "--solve", "fee", "--edge", "lots"], "--edge"),
    (["bank", "--commission", "x"], "commission: 'x' is not a number"),
], ids=["fee", "commission", "edge", "bank-commission"])
def test_bad_cuts_exit_2_with_a_sentence(args, message) -> None:
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output


# -- the card: the shoe and rule flags every command takes --------------------------------


def test_card_takes_the_shoe_and_rule_flags() -> None:
    result = invoke("card", "--profile", "standard", "--decks", "6", "--colon", "3/2")
    assert result.exit_code == 0, result.output
    assert "exact for 6 packs" in result.output and "3 to 2" in result.output
    assert invoke("card", "--profile", "standard").output != result.output


def test_card_shows_the_house_cut() -> None:
    page = invoke("card", "--profile", "standard", "--decks", "6", "--fee", "5",
                  "--commission", "5%", "--stake", "100").output
    assert "The house takes a fee of 5 from every seat every round" in page
    assert "after the house&#x27;s cut, at a stake of 100" in page or \
        "after the house's cut, at a stake of 100" in page


# -- file names that name another format ---------------------------------------------------


@pytest.mark.parametrize("args,message", [
    (["card", "--profile", "standard", "--out", "card.md"], "--out card.md: a .md name for html"),
    (["par", "--bet", "player", "--no-count", "--out", "p.html"],
     "--out p.html: a .html name for md (name it p.md, or give --format html)"),
    (["par", "--bet", "player", "--no-count", "--format", "json", "--out", "p.pdf"],
     "--out p.pdf: PDF for json"),
    (["tree", "--format", "svg", "-o", "t.png"], "--output t.png: a .png name for svg"),
], ids=["card", "par", "par-pdf", "tree"])
def test_a_suffix_of_another_format_is_refused(args, message, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_pdf_without_chromium_is_a_clear_error(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path))  # no chromium on it
    result = invoke("card", "--profile", "standard", "--out", "card.pdf")
    assert result.exit_code == 2, result.output
    assert "writing a PDF needs headless Chromium" in result.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
@needs_chromium
def test_card_out_pdf_writes_a_real_pdf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke("card", "--profile", "standard", "--decks", "6", "--out", "card.pdf")
    assert result.exit_code == 0, result.output
    assert "wrote card.pdf" in result.output
    assert (tmp_path / "card.pdf").read_bytes().startswith(b"%PDF")
