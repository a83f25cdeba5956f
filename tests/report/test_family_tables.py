"""The family pages of the reference tables: present, complete, and equal to the solver.

The committed charts are checked as an equilibrium from scratch: both exact
best responses to the charted strategies give the stated game value.  The
standard-rule figures are checked against a brute force of the infinite
shoe written here from RULES.md section 4.
"""

from __future__ import annotations

import csv
import json
from fractions import Fraction
from typing import Any

import pytest

import odds
from odds import BUILTIN, Shoe
from odds.game.game import build_game
from odds.game.solve import solve_game
from odds.report.family_tables import family_page, solve_family
from odds.report.table_files import build_tables
from odds.report.tables import DECKS, csv_text, json_text, markdown
from odds.rules.options import OPTIONS
from tests.paths import ROOT

TABLES = ROOT / "tables"
FAMILY = BUILTIN["family"]
MODELS = ("cards", "totals")
OPTIMUM = {m: f"optimum ({m})" for m in MODELS}
STANDARD = "standard rule, both sides"
RESPONSE = {m: f"standard-rule player, bank best response ({m})" for m in MODELS}


def _d(decks: int | None) -> str:
    return "inf" if decks is None else str(decks)


def _json(decks: int | None) -> dict[str, Any]:
    return json.loads((TABLES / "family" / f"family-d{_d(decks)}.json").read_text())


def _f(cell: dict[str, str]) -> Fraction:
    return Fraction(cell["fraction"])


def _summary(data: dict[str, Any]) -> dict[str, dict[str, Fraction]]:
    """{column: {quantity: value}} of the summary section."""
    rows = data["sections"]["summary"]["rows"]
    columns = data["sections"]["summary"]["columns"][1:]
    return {c: {r["quantity"].split(" (")[0]: _f(r[c]) for r in rows} for c in columns}


def _cell(text: str) -> Fraction:
    named = {"draw": Fraction(1), "stand": Fraction(0)}
    return named[text] if text in named else Fraction(text)


def _charted(data: dict[str, Any], model: str) -> tuple[dict[Any, Fraction], dict[Any, Fraction]]:
    """The player's and bank's strategies as written in the page's chart."""
    player: dict[Any, Fraction] = {}
    bank: dict[Any, Fraction] = {}
    for row in data["sections"][f"chart_{model}"]["rows"]:
        if model == "cards":
            hands = [tuple(int(x) for x in label.split("-")) for label in row["cards"].split()]
        else:
            hands = [(int(row["value"]),)]
        for h in hands:
            player[h] = _cell(row["player"])
            for seen in ("stood", "drew"):
                bank[h, seen] = _cell(row[f"bank: {seen}"])
    return player, bank


@pytest.mark.parametrize("decks", DECKS, ids=_d)
def test_family_page_for_every_d_names_profile_options_decks_version(decks) -> None:
    stem = TABLES / "family" / f"family-d{_d(decks)}"
    md = stem.with_suffix(".md").read_text()
    rows = list(csv.reader(stem.with_suffix(".csv").read_text().splitlines()))
    for text in (md, "\n".join(",".join(r) for r in rows)):
        assert "family" in text and f"lucky9-odds {odds.__version__}" in text
        assert f"D = {_d(decks)}" in text
        for opt in OPTIONS:
            assert opt.name in text
        for word in ("cards", "totals", "exploitability", "heads-up"):
            assert word in text
    data = _json(decks)
    assert data["header"]["profile"] == "family" and data["header"]["decks"] == _d(decks)
    assert data["header"]["options"] == FAMILY.options()
    assert list(data["sections"]) == ["summary", "check", "chart_cards", "chart_totals",
                                      "chart_standard_rule", "chart_bank_response"]
    # Every chart cell of the JSON is in the CSV, exactly.
    chart_csv = {(r[0], r[1], r[2]): r[3] for r in rows if r and r[0].startswith("chart_")}
    for key in ("chart_cards", "chart_totals"):
        section = data["sections"][key]
        labels = 2 if key == "chart_cards" else 1
        for row in section["rows"]:
            values = list(row.values())
            name = " ".join(values[:labels])
            for column in section["columns"][labels:]:
                assert Fraction(chart_csv[key, name, column]) == _cell(row[column])


# one pack and the infinite shoe by default; 2, 4, 6 and 8 packs in CI (slow)
@pytest.mark.parametrize("decks", [d if d in (1, None) else pytest.param(d, marks=pytest.mark.slow)
                                   for d in DECKS], ids=_d)
def test_family_figures_are_an_equilibrium_and_standard_rule_is_fair(decks) -> None:
    data = _json(decks)
    figures = _summary(data)
    check = {r["quantity"]: _f(r["player's EV"]) for r in data["sections"]["check"]["rows"]}
    shoe = Shoe.infinite_shoe() if decks is None else Shoe.packs_of(decks)
    for model in MODELS:
        game = build_game(FAMILY, shoe, model)
        value = figures[OPTIMUM[model]]["player's EV"]
        assert check[f"game value ({model})"] == value
        assert check[f"exploitability ({model})"] == 0
        # The charted strategies, checked from scratch: neither side gains by deviating.
        player, bank = _charted(data, model)
        assert set(player) == set(game.player_choices) and set(bank) == set(game.bank_choices)
        assert game.player_best_response(bank)[1] == value
        assert game.bank_best_response(player)[1] == value
        result = game.evaluate(player, bank)
        got = figures[OPTIMUM[model]]
        assert (result.win, result.push, result.loss) == (
            got["player wins"], got["push"], got["bank wins"])
        assert (result.player_draws, result.bank_draws) == (
            got["player draws"], got["bank draws"])
        # The bank's best response to standard-rule players: at most the value.
        assert figures[RESPONSE[model]]["player's EV"] <= value
    standard = figures[STANDARD]
    # Both sides on one rule: the round is symmetric, EV exactly 0.
    assert standard["player's EV"] == 0 and standard["bank's edge"] == 0
    assert standard["player wins"] == standard["bank wins"]
    assert standard["player draws"] == standard["bank draws"]
    for column in figures.values():
        assert column["player wins"] + column["push"] + column["bank wins"] == 1
        assert column["bank's edge"] == -column["player's EV"]
    # The bank knowing its cards does at least as well as knowing its total.
    assert (figures[RESPONSE["cards"]]["player's EV"]
            <= figures[RESPONSE["totals"]]["player's EV"])


def test_family_value_equals_the_solver() -> None:
    # The solver run directly (the committed value was checked by best responses above).
    for decks in (None, 8):
        shoe = Shoe.infinite_shoe() if decks is None else Shoe.packs_of(decks)
        figures = _summary(_json(decks))
        for model in MODELS:
            eq = solve_game(build_game(FAMILY, shoe, model))
            assert figures[OPTIMUM[model]]["player's EV"] == eq.value


def _brute_force_infinite() -> dict[str, Fraction]:
    """Standard rule for both sides and the bank's best response by totals, infinite shoe.

    Written from RULES.md section 4 alone: a two-card 9 is a natural; naturals
    settle first (two naturals push) and nobody draws; then the player draws
    on 0-5, the bank knowing its total and whether the player drew.
    """
    # Integer weights, in 13ths: a card of value 0 (10, J, Q, K) weighs 4, any other 1.
    # Every deal is counted in units of 13**-6 (six cards); a card not dealt weighs 13/13.
    w = [4] + [1] * 9
    unit = 13**6
    out_int = dict.fromkeys(("win", "push", "loss", "pd", "bd"), 0)
    natural_ev = 0
    gain: dict[tuple[int, bool, bool], int] = {}
    for p1 in range(10):
        for p2 in range(10):
            for b1 in range(10):
                for b2 in range(10):
                    weight = w[p1] * w[p2] * w[b1] * w[b2]
                    pv, bv = (p1 + p2) % 10, (b1 + b2) % 10
                    if pv == 9 or bv == 9:
                        res = "push" if pv == bv else "win" if pv == 9 else "loss"
                        out_int[res] += weight * 13 * 13
                        natural_ev += weight * 13 * 13 * {"win": 1, "push": 0, "loss": -1}[res]
                        continue
                    p_draws = pv <= 5
                    for p3 in range(10) if p_draws else [None]:
                        wp = weight * (w[p3] if p3 is not None else 13)
                        pf = pv if p3 is None else (pv + p3) % 10
                        if p_draws:
                            out_int["pd"] += wp * 13
                        for b_draws in (False, True):
                            for b3 in range(10) if b_draws else [None]:
                                wb = wp * (w[b3] if b3 is not None else 13)
                                bf = bv if b3 is None else (bv + b3) % 10
                                ev = (pf > bf) - (pf < bf)
                                key = (bv, p_draws, b_draws)
                                gain[key] = gain.get(key, 0) + wb * ev
                                if b_draws == (bv <= 5):
                                    res = "win" if pf > bf else "push" if pf == bf else "loss"
                                    out_int[res] += wb
                                    out_int["bd"] += wb if b_draws else 0
    out = {name: Fraction(value, unit) for name, value in out_int.items()}
    out["response"] = Fraction(natural_ev + sum(
        min(gain[bv, seen, False], gain[bv, seen, True])
        for bv in range(9) for seen in (False, True)
    ), unit)
    return out


def test_infinite_shoe_standard_rule_equals_brute_force() -> None:
    brute = _brute_force_infinite()
    figures = _summary(_json(None))
    standard = figures[STANDARD]
    assert standard["player wins"] == brute["win"]
    assert standard["push"] == brute["push"]
    assert standard["bank wins"] == brute["loss"]
    assert standard["player draws"] == brute["pd"]
    assert standard["bank draws"] == brute["bd"]
    assert figures[RESPONSE["totals"]]["player's EV"] == brute["response"]
    assert brute["response"] < 0  # the check can fail: the bank's answer gains


def test_family_page_renders_in_every_format_and_through_build_tables() -> None:
    labels: list[str] = []
    files = build_tables([FAMILY], [None], progress=labels.append)
    assert labels == ["family D=inf"]
    assert sorted(files) == ["family/family-dinf.csv", "family/family-dinf.json",
                             "family/family-dinf.md", "family/family-sheet.html"]
    page = family_page(solve_family(None))
    assert files["family/family-dinf.md"] == markdown(page)
    assert files["family/family-dinf.csv"] == csv_text(page)
    assert files["family/family-dinf.json"] == json_text(page)
    for name in ("md", "csv", "json"):
        assert files[f"family/family-dinf.{name}"] == (
            TABLES / "family" / f"family-dinf.{name}").read_text()
