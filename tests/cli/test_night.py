"""``lucky9 night``: the owner's night on one page, each figure the single command's own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from tests.pages import StrictParser, needs_chromium, print_check

OWNER = str(Path(__file__).parents[1] / "data" / "owner-night.toml")
# The infinite shoe keeps every run here exact and quick; the figures are compared the same way.
SHOE = ["--decks", "inf"]


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def night() -> dict:
    return json.loads(run("night", OWNER, *SHOE, "--format", "json"))


def test_bank_figures_equal_lucky9_bank(night) -> None:
    bank = json.loads(run("bank", "--profile", OWNER, *SHOE, "--target-ruin", "0.01",
                          "--format", "json"))
    for key, value in night["bank"].items():
        assert value == bank[key], key
    assert night["bank"]["capital_for_target"]["capital"]  # the capital for the target is there
    assert night["stakes"] == bank["stakes"]


def test_bet_edges_equal_lucky9_odds(night) -> None:
    odds = json.loads(run("odds", "--profile", OWNER, *SHOE, "--bet", "all", "--format", "json"))
    assert set(night["bets"]) == set(odds["bets"])
    for name, figures in night["bets"].items():
        assert figures["expected_value"] == odds["bets"][name]["expected_value"], name


def test_break_even_cut_equals_lucky9_payout(night) -> None:
    for stake in sorted(set(night["stakes"]), key=int):
        payout = json.loads(run("payout", "--profile", OWNER, *SHOE, "--solve", "fee",
                                "--solve", "commission", "--fee", "0", "--commission", "0",
                                "--stake", stake, "--format", "json"))
        mine = [c for c in night["break_even_cut"] if c["stake"] == stake]
        assert mine == payout["break_even_cut"], stake


def test_cap_notes_equal_lucky9_odds(night) -> None:
    for stake, note in zip(sorted(set(night["stakes"]), key=int), night["caps"], strict=True):
        text = run("odds", "--profile", OWNER, *SHOE, "--stake", stake)
        assert note in " ".join(line.strip() for line in text.splitlines()), stake


def test_text_markdown_and_html_show_the_same_page(night, tmp_path: Path) -> None:
    text = run("night", OWNER, *SHOE)
    assert "The owner's night: owner" in text and "capital for ruin <= 0.0100" in text
    md = run("night", OWNER, *SHOE, "--format", "md")
    assert md.startswith("# The owner's night") and "| what | figure |" in md
    page = tmp_path / "night.html"
    result = CliRunner().invoke(main, ["night", OWNER, *SHOE, "--format", "html",
                                       "--out", str(page)])
    assert result.exit_code == 0 and f"wrote {page}" in result.output
    parser = StrictParser()
    parser.feed(page.read_text())
    assert not parser.stack
    capital = night["bank"]["capital_for_target"]["capital"]
    for shown in (text, md, page.read_text()):
        assert capital in shown


@pytest.mark.slow
@needs_chromium
def test_the_html_page_prints_on_one_a4_page(tmp_path: Path) -> None:
    page = tmp_path / "night.html"
    run("night", OWNER, *SHOE, "--format", "html", "--out", str(page))
    pages, width = print_check(page, tmp_path)
    assert pages == 1 and width <= 718


@pytest.mark.parametrize("args,message", [
    (["--format", "json", "--out", "night.md"], "--out night.md: a .md name for json"),
    (["--out", "night.pdf"], "--out night.pdf: PDF for text"),
    (["--target-ruin", "2"], "target ruin: '2' is not between 0 and 1"),
    (["--commission", "1"], "commission: 1 is not a share"),
], ids=["suffix", "pdf-of-text", "target", "commission"])
def test_bad_input_is_refused_and_nothing_is_written(args, message, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["night", OWNER, *SHOE, *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_profile_without_a_night_is_refused(tmp_path: Path) -> None:
    plain = tmp_path / "plain.toml"
    plain.write_text('base = "standard"\n[session]\nplayers = 2\n')
    result = CliRunner().invoke(main, ["night", str(plain)])
    assert result.exit_code == 2
    assert "a night needs the rounds it lasts" in result.output
