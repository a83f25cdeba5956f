"""Rendering pay-table figures: JSON-ready data and terminal text.

:func:`payout_data` gathers everything ``lucky9 payout`` shows (exact
values as fraction strings, decimals rounded half-even); :func:`payout_text`
lays the same data out for a terminal.  Like :mod:`odds.money.payout` this module
imports sympy, so the ``odds`` package does not import it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import sympy  # type: ignore[import-untyped]

from odds._version import __version__
from odds.exact.results import RoundOdds
from odds.money.payout import (
    bank_edge,
    break_even,
    compare_tables,
    entry_bet,
    pay_table,
    sqrt_decimal,
    symbolic_payout,
)
from odds.money.seat_cut import BreakEvenCut
from odds.rules.text import DIGITS, decimal, fraction, percent, rules_line, text_row, text_table, wrap_rules

__all__ = ["bet_figures", "cut_data", "payout_data", "payout_text", "sd_exact"]

_BET_LABEL = {"player": "player seat", "banker": "banker bet", "tie": "tie bet"}


def sd_exact(variance: Fraction) -> str:
    """The standard deviation as an exact radical.

    >>> sd_exact(Fraction(9, 8))
    '3*sqrt(2)/4'
    """
    return str(sympy.sqrt(sympy.Rational(variance.numerator, variance.denominator)))


def _number(value: Fraction) -> dict[str, str]:
    return {"fraction": fraction(value), "decimal": decimal(value)}


def bet_figures(ev: Fraction, variance: Fraction, players: int) -> dict[str, Any]:
    """EV, variance, sd and the bank's edge (per unit, per round) as data.

    >>> bet_figures(Fraction(0), Fraction(1), 2)["bank_edge_per_round"]
    {'fraction': '0', 'decimal': '0.00000000'}
    """
    per_unit, per_round = bank_edge(ev, players)
    return {
        "expected_value": _number(ev),
        "variance": _number(variance),
        "standard_deviation": {"exact": sd_exact(variance), "decimal": sqrt_decimal(variance)},
        "bank_edge_per_unit": _number(per_unit),
        "bank_edge_per_round": _number(per_round),
    }


def _pay_data(pay: Mapping[str, Fraction]) -> dict[str, str]:
    return {name: fraction(value) for name, value in pay.items()}


def payout_data(
    result: RoundOdds,
    symbols: Iterable[str] = (),
    solve: Iterable[str] | None = None,
    tables: Sequence[Mapping[str, Any]] = (),
    players: int = 1,
    cuts: Sequence[BreakEvenCut] = (),
) -> dict[str, Any]:
    """Everything ``lucky9 payout`` reports, as JSON-ready data.

    ``solve`` None solves every entry of the profile's pay table for break-even;
    ``symbols`` stay symbolic in the expressions and the break-even values.

    >>> from odds import BUILTIN, Shoe, round_odds
    >>> d = payout_data(round_odds(BUILTIN["plain"], Shoe.packs_of(1)), players=8)
    >>> d["bets"]["player"]["expected_value"], d["break_even"][0]["value"]
    ({'fraction': '0', 'decimal': '0.00000000'}, '1')
    """
    profile = result.profile
    symbols = tuple(dict.fromkeys(symbols))
    bank_edge(Fraction(0), players)  # validates players before any work
    pay = pay_table(profile)
    data: dict[str, Any] = {
        "profile": profile.key,
        "title": profile.title,
        "shoe": result.shoe.label,
        "rules": rules_line(profile),
        "options": profile.options(),
        "version": __version__,
        "players": players,
        "pay_table": _pay_data(pay),
        "bets": {},
        "symbolic": {},
        "break_even": [],
        "tables": [],
    }
    if cuts:
        data["break_even_cut"] = [cut_data(c) for c in cuts]
    for bet in result.bets:
        ev, var = result.bet_moments(bet)
        data["bets"][bet] = bet_figures(ev, var, players)
    for bet in dict.fromkeys(entry_bet(s) for s in symbols):
        names = [s for s in symbols if entry_bet(s) == bet]
        sym = symbolic_payout(result, names, bet=bet)
        data["symbolic"][bet] = {
            "symbols": list(names),
            "expected_value": str(sym.expected_value),
            "variance": str(sym.variance),
        }
    for entry in pay if solve is None else dict.fromkeys(solve):
        others = [s for s in symbols if entry_bet(s) == entry_bet(entry)]
        found = break_even(result, entry, others)
        value = found.fraction
        data["break_even"].append({
            "entry": entry,
            "bet": found.bet,
            "value": None if found.value is None else str(found.value),
            "decimal": None if value is None else decimal(value),
            "always_fair": found.always,
            "payable": found.payable,
            "symbolic_in": list(found.others),
        })
    if tables:
        for label, figures in zip(
            ["as set", *(",".join(f"{k}={v}" for k, v in t.items()) for t in tables)],
            compare_tables(result, [{}, *tables]),
            strict=True,
        ):
            data["tables"].append({
                "label": label,
                "pay_table": _pay_data(figures.pay),
                "bets": {bet: bet_figures(ev, var, players)
                         for bet, (ev, var) in figures.moments.items()},
            })
    return data


def cut_data(cut: BreakEvenCut) -> dict[str, Any]:
    """A break-even cut as ``lucky9 payout --format json`` prints it."""
    value = cut.value
    return {"cut": cut.cut, "bank_edge": fraction(cut.edge), "stake": fraction(cut.stake),
            "value": None if value is None else fraction(value),
            "decimal": None if value is None else decimal(value),
            "percent": percent(value) if value is not None and cut.cut == "commission"
            else None,
            "reason": cut.reason or None}


def _cut_lines(cuts: Sequence[Mapping[str, Any]]) -> list[str]:
    lines = ["", "the house's cut that gives the bank its edge (the other cut as set)"]
    for item in cuts:
        edge = percent(Fraction(item["bank_edge"]))
        what = (f"fee per seat per round at a stake of {item['stake']}" if item["cut"] == "fee"
                else "commission on a seat's win")
        lines.append(f"  {what}, bank edge {edge}")
        if item["value"] is None:
            lines.append(f"    none: {item['reason']}")
        else:
            shown = item["percent"] or item["decimal"]
            lines.append(f"    {shown:>14}  {item['value']}")
    return lines


def _row(name: str, number: Mapping[str, str], width: int = 32) -> str:
    return text_row([name, number["decimal"], number["fraction"]], [f"  <{width}", ">12", "  <0"])


def _money(number: Mapping[str, str]) -> str:
    """An EV or an edge in percent of the stake (the data keeps the exact fraction)."""
    return percent(Fraction(number["fraction"]))


def _money_row(name: str, number: Mapping[str, str], width: int = 32) -> str:
    return _row(name, {"decimal": _money(number), "fraction": number["fraction"]}, width)


def _pay_line(pay: Mapping[str, str]) -> str:
    return ", ".join(f"{k} {v}" for k, v in pay.items())


def payout_text(data: Mapping[str, Any]) -> list[str]:
    """The data of :func:`payout_data` as terminal lines.

    >>> from odds import BUILTIN, Shoe, round_odds
    >>> lines = payout_text(payout_data(round_odds(BUILTIN["plain"], Shoe.packs_of(1))))
    >>> lines[4]
    'pay table (net per unit stake): win 1'
    """
    n = data["players"]
    lines = [
        f"profile {data['profile']}: {data['title']}",
        f"shoe: {data['shoe']}",
        *wrap_rules(f"rules: {data['rules']}"),
        f"pay table (net per unit stake): {_pay_line(data['pay_table'])}",
        f"decimals rounded half-even to {DIGITS} places, EVs and edges in percent; fractions "
        f"exact; lucky9-odds {data['version']}",
    ]
    for bet, figures in data["bets"].items():
        lines += ["", f"{_BET_LABEL[bet]}, per unit stake"]
        lines += _figure_lines(figures, n)
    if data["break_even"]:
        lines += ["", "break-even: the value that makes the bet's EV exactly 0 "
                      "(other entries as set)"]
        for item in data["break_even"]:
            name = item["entry"]
            if item["value"] is None:
                lines.append(f"  {name:<16}EV does not depend on it: "
                             + ("0 whatever it is (every value is fair)" if item["always_fair"]
                                else "never 0"))
            elif item["decimal"] is None:
                lines.append(text_row([name, item["value"]], ["  <16", "<0"]))
            else:
                note = "" if item["payable"] else "  (negative: no pay table reaches it)"
                lines.append(text_row([name, item["decimal"], item["value"]],
                                      ["  <16", ">12", "  <0"]) + note)
    for bet, sym in data["symbolic"].items():
        plural = "s" if len(sym["symbols"]) > 1 else ""
        lines += ["", f"{_BET_LABEL[bet]} with {', '.join(sym['symbols'])} as symbol{plural}, "
                      "per unit stake"]
        lines.append(f"  EV       = {sym['expected_value']}")
        lines.append(f"  variance = {sym['variance']}")
    if data["tables"]:
        lines += _table_lines(data["tables"], n)
    if data.get("break_even_cut"):
        lines += _cut_lines(data["break_even_cut"])
    return lines


def _figure_lines(figures: Mapping[str, Any], players: int) -> list[str]:
    sd = figures["standard_deviation"]
    return [
        _money_row("EV", figures["expected_value"]),
        _row("variance", figures["variance"]),
        _row("standard deviation", {"decimal": sd["decimal"], "fraction": sd["exact"]}),
        _money_row("bank edge per unit staked", figures["bank_edge_per_unit"]),
        _money_row(f"bank edge per round, {players} player{'s' if players > 1 else ''}",
                   figures["bank_edge_per_round"])
        + (f"  ({players} x the seat figure)" if players > 1 else ""),
    ]


def _table_lines(tables: Sequence[Mapping[str, Any]], players: int) -> list[str]:
    lines = ["", "candidate pay tables, side by side (per unit stake)"]
    for i, table in enumerate(tables):
        lines.append(f"  [{i}] {table['label']}")
    entries = list(dict.fromkeys(k for t in tables for k in t["pay_table"]))
    lines.append("")
    side: list[list[str] | str] = [["", *(f"[{i}]" for i in range(len(tables)))]]
    side += [[name, *(t["pay_table"].get(name, "none") for t in tables)] for name in entries]
    for bet in tables[0]["bets"]:
        rows = [
            ("EV", "expected_value"),
            ("variance", "variance"),
            ("standard deviation", "standard_deviation"),
            ("bank edge per unit", "bank_edge_per_unit"),
            (f"bank edge per round, N={players}", "bank_edge_per_round"),
        ]
        side.append(f"  {_BET_LABEL[bet]}")
        for label, key in rows:
            money = key in ("expected_value", "bank_edge_per_unit", "bank_edge_per_round")
            side.append(["  " + label, *(_money(t["bets"][bet][key]) if money
                                         else t["bets"][bet][key]["decimal"] for t in tables)])
    lines += text_table(side, ["  <26", *[">13"] * len(tables)])
    lines += ["", "  exact"]
    for i, table in enumerate(tables):
        for bet, figures in table["bets"].items():
            lines.append(
                f"  [{i}] {_BET_LABEL[bet]}: EV {figures['expected_value']['fraction']}; "
                f"variance {figures['variance']['fraction']}; "
                f"sd {figures['standard_deviation']['exact']}"
            )
    return lines
