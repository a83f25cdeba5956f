"""One sign per word in every command's text: an EV is the bettor's, an edge the house's (-EV).

docs/commands.md, "Signs": `+` in an EV means the bettor gains, `+` in an
edge means the house (or the bank) gains.  Checked on the printed text of
real commands, figure by figure, and the PAR sheet's study states its shoes,
seed and cut card.
"""

from __future__ import annotations

import re

from click.testing import CliRunner

from cli import main

RUNNER = CliRunner()
PERCENT = r"([+-]?\d+\.\d+)%"


def _run(*args: str) -> str:
    res = RUNNER.invoke(main, list(args))
    assert res.exit_code == 0, res.output
    return res.output


def _figure(text: str, label: str) -> str:
    m = re.search(rf"^\s*{re.escape(label)}\s+{PERCENT}", text, re.M)
    assert m, f"{label!r} not in\n{text}"
    return m.group(1)


def _negated(figure: str) -> str:
    """The printed figure with its sign turned round (0 keeps no sign)."""
    bare = figure.lstrip("+-")
    if float(bare) == 0:
        return bare
    return ("+" if figure.startswith("-") else "-") + bare


def test_odds_bank_edge_is_minus_the_seat_ev() -> None:
    for profile in ("standard", "ez-baccarat", "super9"):
        text = _run("odds", "--profile", profile)
        ev = _figure(text, "player seat EV")
        assert _figure(text, "bank edge per seat") == _negated(ev)
    # standard's seat wins in the long run: a + EV and a - bank edge.
    text = _run("odds")
    assert _figure(text, "player seat EV").startswith("+")
    assert _figure(text, "bank edge per seat").startswith("-")


def test_payout_bank_edge_is_minus_the_ev() -> None:
    text = _run("payout", "--decks", "8")
    ev = _figure(text, "EV")
    assert _figure(text, "bank edge per unit staked") == _negated(ev)
    assert _figure(text, "bank edge per round, 1 player") == _negated(ev)


def test_par_house_edge_is_minus_the_ev() -> None:
    text = _run("par", "--profile", "ez-baccarat", "--bet", "dragon-7", "--no-count")
    ev = re.search(r"^\| total: the EV \| \|(.*)\|$", text, re.M)
    edge = re.search(r"^\| house edge \|(.*)\|$", text, re.M)
    assert ev and edge, text
    evs = [c.strip().rstrip("%") for c in ev.group(1).split("|")]
    edges = [c.strip().rstrip("%") for c in edge.group(1).split("|")]
    assert len(evs) == 6 and edges == [_negated(x) for x in evs]
    assert all(e.startswith("+") for e in edges)  # the Dragon 7 favours the house
    odds = _run("odds", "--profile", "ez-baccarat", "--bet", "dragon-7")
    # odds prints 6 places, the sheet 4: the same EV, rounded.
    assert round(float(_figure(odds, "dragon-7 EV")), 4) == float(evs[4])


def test_card_edge_is_minus_the_ev() -> None:
    odds = _run("odds", "--profile", "ez-baccarat", "--bet", "dragon-7")
    ev = float(_figure(odds, "dragon-7 EV"))
    card = _run("card", "--profile", "ez-baccarat")
    row = card.split('<td class="bet">dragon-7</td>')[1].split("</tr>")[0]
    assert f'<td class="edge">{-ev:.2f}%</td>' in row
    standard = _run("card", "--profile", "standard")
    seat = float(_figure(_run("odds"), "player seat EV"))
    assert seat > 0 and f"{seat:.2f}% to the players" in standard


def test_par_states_its_study() -> None:
    text = _run("par", "--profile", "ez-baccarat", "--bet", "dragon-7", "--shoes", "20",
                "--seed", "3", "--cut-cards", "20")
    line = next(x for x in text.splitlines() if x.startswith("Shoe study:"))
    assert line.startswith("Shoe study: 20 shoes of 8 packs, seed 3, cut card with 20 cards "
                           "behind it (penetration 0.952), no burn;"), line
    assert "--shoes 20 --seed 3 --cut-cards 20" in text
    assert "EV when betting" in text and "edge when betting" not in text


def test_decimal_money_says_its_unit() -> None:
    """tree and the tables' HTML sheet print money as decimals, and say so."""
    tree = _run("tree", "--depth", "1")
    assert "(EV in units of the stake, as a decimal, not in percent)" in tree
    from tests.paths import ROOT

    for sheet in sorted((ROOT / "tables").glob("*/*-sheet.html")):
        text = sheet.read_text(encoding="utf-8")
        assert "in the files beside this sheet" in text and "tables/" not in text.split(
            '<p class="small">')[-1], sheet
        if sheet.parent.name != "family":
            assert "money (EV, edge) per unit stake, as decimals" in text, sheet
