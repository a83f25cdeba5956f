"""Rendering bets: JSON-ready data, CSV rows and terminal text.

Takes :class:`odds.exact.bets.BetOdds` results; fractions stay exact
strings in JSON and CSV, decimals are rounded half-even as in
:mod:`odds.report.odds_report`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from odds.exact.bets import BetOdds
from odds.exact.results import RoundOdds
from odds.report.odds_report import odds_data, odds_rows, odds_text
from odds.rules.bet_types import Bet
from odds.rules.profile import Profile
from odds.rules.shoe import Shoe
from odds.rules.text import decimal, fraction, percent, rules_line, text_row, text_table, wrap_rules

__all__ = ["bet_list_text", "bets_data", "bets_table", "bets_rows", "bets_text", "break_even_data",
           "break_even_page", "break_even_text", "odds_bets_data", "odds_bets_rows",
           "odds_bets_text"]


def bets_data(results: Mapping[str, BetOdds]) -> dict[str, Any]:
    """Each bet's expected value, variance and payouts, as ``bets.NAME`` in JSON.

    >>> from odds import BUILTIN, Shoe
    >>> from odds.exact.bets import bet_odds
    >>> data = bets_data(bet_odds(BUILTIN["punto-banco"], Shoe.packs_of(8), ["tie"]))
    >>> data["tie"]["payouts"]
    {'8': '619306544887/6508331087895', '-1': '5889024543008/6508331087895'}
    """
    return {
        name: {
            "expected_value": fraction(odds.expected_value),
            "variance": fraction(odds.variance),
            "payouts": {fraction(k): fraction(v) for k, v in odds.payout_distribution().items()},
            "description": odds.bet.description,
        }
        for name, odds in results.items()
    }


def _row(name: str, value: Fraction, shown: str | None = None) -> str:
    shown = decimal(value) if shown is None else shown
    text = text_row([name, shown, fraction(value)], ["  <30", ">12", "  <0"])
    if len(text) <= 79:
        return text
    return text_row([name, shown], ["  <30", ">12"]) + "\n" + ("= " + fraction(value)).rjust(79)


def bets_text(results: Mapping[str, BetOdds]) -> list[str]:
    """Terminal lines: each bet's EV and variance per unit stake.

    EVs are in percent of the stake, as the main bets above them.

    >>> from odds import BUILTIN, Shoe
    >>> from odds.exact.bets import bet_odds
    >>> bets_text(bet_odds(BUILTIN["punto-banco"], Shoe.packs_of(8), ["player-pair"]))[1]
    '  player-pair EV                 -10.361446%  -43/415'
    """
    lines = ["bets (EV in percent of the stake; the house edge is -EV)"]
    for name, odds in results.items():
        lines.append(_row(f"{name} EV", odds.expected_value, percent(odds.expected_value)))
        lines.append(_row(f"{name} variance", odds.variance))
    return lines


def bets_rows(results: Mapping[str, BetOdds]) -> list[list[str]]:
    """CSV rows (section, quantity, fraction, decimal) for every bet."""
    rows = []
    for name, odds in results.items():
        section = f"bet {name}"
        rows.append([section, "expected value", fraction(odds.expected_value),
                     decimal(odds.expected_value)])
        rows.append([section, "variance", fraction(odds.variance), decimal(odds.variance)])
        for amount, p in odds.payout_distribution().items():
            rows.append([section, f"payout {fraction(amount)}", fraction(p), decimal(p)])
    return rows


def break_even_data(results: Mapping[str, BetOdds]) -> dict[str, Any]:
    """Per bet, each pay-table line: pays, probability and its break-even pay.

    The break-even pay of a line is the amount that makes the bet's EV
    exactly 0 with the other lines as they are (None if the line never
    happens).
    """
    out = {}
    for name, odds in results.items():
        out[name] = {
            "expected_value": fraction(odds.expected_value),
            "entries": [
                {"entry": entry, "pays": fraction(pays), "probability": fraction(p),
                 "break_even": None if even is None else fraction(even)}
                for entry, pays, p, even in odds.entries()
            ],
        }
    return out


def break_even_text(results: Mapping[str, BetOdds]) -> list[str]:
    """Terminal lines of :func:`break_even_data`: the EV in percent of the stake, as every
    command prints a bet's EV; probabilities and pays rounded to 6 places.

    >>> from odds import BUILTIN, Shoe
    >>> from odds.exact.bets import bet_odds
    >>> break_even_text(bet_odds(BUILTIN["punto-banco"], Shoe.packs_of(8), ["player-pair"]))[0]
    'bet player-pair: EV -10.361446% = -43/415'
    """
    lines: list[str] = []
    for name, odds in results.items():
        if lines:
            lines.append("")
        lines.append(f"bet {name}: EV {percent(odds.expected_value)} = "
                     f"{fraction(odds.expected_value)}")
        table = [["pay-table line", "pays", "probability", "break-even"]]
        for entry, pays, p, even in odds.entries():
            shown = "never" if even is None else decimal(even, 6)
            table.append([entry[:36], fraction(pays), decimal(p, 6), shown])
        lines += text_table(table, ["  <36", ">8", ">13", ">13"])
    return lines


def break_even_page(profile: Profile, shoe: Shoe, results: Mapping[str, BetOdds]) -> list[str]:
    """``lucky9 payout --bet``: a header naming the rules, then :func:`break_even_text`."""
    lines = [f"profile {profile.key}; shoe: {shoe.label}"]
    lines += wrap_rules(f"rules: {rules_line(profile)}")
    lines += ["break-even: the pay of that line alone that makes the bet's EV exactly 0",
              "EVs in percent of the stake; other decimals rounded half-even to 6 places", ""]
    return lines + break_even_text(results)


def odds_bets_data(result: RoundOdds, bets: Mapping[str, BetOdds]) -> dict[str, Any]:
    """``lucky9 odds`` JSON with the bets added under ``bets.NAME``."""
    data = odds_data(result)
    data["bets"].update(bets_data(bets))
    return data


def odds_bets_text(result: RoundOdds, bets: Mapping[str, BetOdds]) -> list[str]:
    """``lucky9 odds`` text with a section for the bets."""
    return odds_text(result) + (bets_text(bets) if bets else [])


def odds_bets_rows(result: RoundOdds, bets: Mapping[str, BetOdds]) -> list[list[str]]:
    """``lucky9 odds`` CSV rows with the bets' rows after them."""
    return odds_rows(result) + bets_rows(bets)


def bets_table(results: Mapping[str, BetOdds]) -> tuple[list[str], list[list[str]]]:
    """A table of every bet for the reference tables: header and rows of text.

    Columns: bet, side, EV (exact), EV (decimal), house edge in percent,
    variance (exact), the pay table's source (the bet's description).

    >>> from odds import BUILTIN, Shoe
    >>> from odds.exact.bets import bet_odds
    >>> head, rows = bets_table(bet_odds(BUILTIN["ez-baccarat"], Shoe.packs_of(8), ["dragon-7"]))
    >>> rows[0][:5]
    ['dragon-7', 'banker', '-64613588827/848912750595', '-0.07611334', '7.6113']
    """
    head = ["bet", "side", "EV", "EV (decimal)", "house edge %", "variance", "pays (source)"]
    rows = [
        [name, odds.bet.side, fraction(odds.expected_value), decimal(odds.expected_value),
         decimal(-100 * odds.expected_value, 4), fraction(odds.variance), odds.bet.description]
        for name, odds in results.items()
    ]
    return head, rows


def bet_list_text(bets: Mapping[str, Bet]) -> list[str]:
    """One line per bet: name and description (for ``--bet help``-style listings)."""
    width = max(map(len, bets), default=0)
    return [f"{name:<{width}}  {bet.description}" for name, bet in bets.items()]
