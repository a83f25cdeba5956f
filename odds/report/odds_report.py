"""Rendering results: JSON-ready data, CSV rows and terminal text.

Exporters take results, never engines.  Probabilities stay exact (fraction
strings) in JSON and CSV; decimals are printed rounded half-even to the
digits shown, and the text says so.
"""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction
from typing import Any

from odds.exact.results import RoundOdds
from odds.rules.house_cut import cut_note
from odds.rules.text import (
    DIGITS,
    bonus_limit_data,
    bonus_limit_note,
    decimal,
    fraction,
    odds_against,
    percent,
    rules_line,
    text_row,
    text_table,
    wrap_rules,
)

__all__ = ["cut_lines", "odds_data", "odds_rows", "odds_text"]


def cut_lines(result: RoundOdds, money: Any, row: Any) -> list[str]:
    """The player seat's figures after the house's cut, at each stake (none without a cut)."""
    session = result.profile.session
    if not session.has_cut:
        return []
    from odds.money.seat_cut import seat_cuts

    lines = [f"  {cut_note(session.fee, session.commission)}"]
    for cut in seat_cuts(result):
        stake = fraction(cut.stake)
        lines.append(f"after the house's cut, at a stake of {stake}")
        lines.append(money("player seat EV", cut.after[0]))
        lines.append(row("player seat variance", cut.after[1]))
        lines.append(money("bank edge per seat", cut.bank_edge))
    return lines

def odds_data(result: RoundOdds) -> dict[str, Any]:
    """Everything about a result as JSON-ready data (fractions as strings).

    The same as ``result.to_dict()``, which builds it.

    >>> from odds import BUILTIN, round_odds
    >>> data = odds_data(round_odds(BUILTIN["standard"], player="8h 7s", bank="Ac 6d"))
    >>> data["probabilities"], data["total_sequences"]
    ({'win': '1/6', 'push': '1/12', 'loss': '3/4'}, 2256)
    """
    data = result.to_dict()
    limit = bonus_limit_data(result.profile)
    if limit is not None:  # figures per unit at one stake under a cap in money
        data["max_bonus"] = limit
    if result.profile.session.has_cut:
        from odds.money.seat_cut import cut_data, seat_cuts

        data["house_cut"] = cut_data(seat_cuts(result))
    return data


def _quantities(result: RoundOdds) -> list[tuple[str, str, Fraction]]:
    """(section, name, value) for every reported figure, in report order."""
    rows: list[tuple[str, str, Fraction]] = [
        ("outcome", "win", result.win),
        ("outcome", "push", result.push),
        ("outcome", "loss", result.loss),
    ]
    rows += [("how", name, value) for name, value in result.categories.items()]
    for bet in result.bets:
        ev, var = result.bet_moments(bet)
        rows.append(("money", f"{bet} expected value", ev))
        rows.append(("money", f"{bet} variance", var))
    rows += [
        ("hands", "player Colon", result.player_colon),
        ("hands", "player Colon nine", result.player_colon_nine),
        ("hands", "bank Colon", result.bank_colon),
        ("hands", "bank Colon nine", result.bank_colon_nine),
        ("hands", "player draws", result.player_draws),
        ("hands", "bank draws", result.bank_draws),
    ]
    rows += [("player final", str(v), p) for v, p in enumerate(result.player_final)]
    rows += [("bank final", str(v), p) for v, p in enumerate(result.bank_final)]
    payouts = result.payout_distribution()
    rows += [("player payout", fraction(k), v) for k, v in payouts.items()]
    return rows


def odds_rows(result: RoundOdds) -> list[list[str]]:
    """CSV rows: a header, then section, quantity, exact fraction, decimal.

    >>> from odds import BUILTIN, round_odds
    >>> rows = odds_rows(round_odds(BUILTIN["plain"], player="8h 7s", bank="Ac 6d"))
    >>> rows[0], [r for r in rows if r[:2] == ["outcome", "win"]]
    (['section', 'quantity', 'fraction', 'decimal'], [['outcome', 'win', '1/6', '0.16666667']])
    """
    rows = [["section", "quantity", "fraction", "decimal"]]
    rows.append(["meta", "profile", result.profile.key, ""])
    rows.append(["meta", "shoe", result.shoe.label, ""])
    for who, cards in (("player", result.player), ("bank", result.bank), ("removed", result.removed)):
        if cards:
            rows.append(["meta", f"{who} cards", " ".join(map(str, cards)), ""])
    for who, total in (("player", result.player_total), ("bank", result.bank_total)):
        if total is not None:
            rows.append(["meta", f"{who} two-card value", str(total), ""])
    for slot, card in result.slots:
        rows.append(["meta", f"slot {slot}", str(card), ""])
    for name, value in result.profile.options().items():
        shown = json.dumps(value) if isinstance(value, (dict, list, bool)) or value is None else value
        rows.append(["rule", name, str(shown), ""])
    limit = bonus_limit_data(result.profile)
    if limit is not None:
        rows += [["rule", f"max_bonus {k}", str(v), ""] for k, v in limit.items()]
    rows.append(["meta", "total_sequences", str(result.total), str(result.total)])
    rows += [[s, n, fraction(v), decimal(v)] for s, n, v in _quantities(result)]
    return rows


_LABELS = {
    "win_natural_9": "win, natural 9",
    "win_natural_8": "win, natural 8",
    "win_comparison": "win, comparison",
    "push_natural": "tie, equal naturals",
    "push_comparison": "tie, comparison",
    "loss_natural_9": "loss, bank natural 9",
    "loss_natural_8": "loss, bank natural 8",
    "loss_comparison": "loss, comparison",
}


def _removed_text(result: RoundOdds) -> str:
    """Removed cards as typed, or counted by rank when there are many."""
    cards = result.removed
    if len(cards) <= 12:
        return f"removed {' '.join(map(str, cards))}"
    by_rank: dict[str, int] = {}
    for card in sorted(cards, key=lambda c: c.rank.index):
        by_rank[str(card.rank)] = by_rank.get(str(card.rank), 0) + 1
    counted = " ".join(f"{rank}:{n}" for rank, n in by_rank.items())
    left = result.shoe.size - len(cards)
    return f"removed {len(cards)} cards (rank:count {counted}), {left} left"


def _wrap(text: str, width: int = 79) -> list[str]:
    return textwrap.wrap(text, width, subsequent_indent="    ", break_on_hyphens=False)


def odds_text(result: RoundOdds) -> list[str]:
    """The result as terminal lines (under 80 columns for 1-8 packs).

    >>> from odds import BUILTIN, round_odds
    >>> lines = odds_text(round_odds(BUILTIN["plain"], player="8h 7s", bank="Ac 6d"))
    >>> lines[1], max(map(len, lines)) < 80
    ('shoe: 1 pack; given: player 8h 7s; bank Ac 6d', True)
    """
    profile = result.profile
    cond = []
    for who, cards in (("player", result.player), ("bank", result.bank)):
        if cards:
            cond.append(f"{who} {' '.join(map(str, cards))}")
    for who, total in (("player", result.player_total), ("bank", result.bank_total)):
        if total is not None:
            cond.append(f"{who} two-card value {total}")
    if result.slots:
        cond.append("slots " + " ".join(f"{k}={c}" for k, c in result.slots))
    if result.removed:
        cond.append(_removed_text(result))
    lines = [
        *_wrap(f"profile {profile.key}: {profile.title}"),
        *_wrap(f"shoe: {result.shoe.label}" + (f"; given: {'; '.join(cond)}" if cond else "")),
        *wrap_rules(f"rules: {rules_line(profile)}"),
        *_wrap(f"note: {bonus_limit_note(profile)}" if profile.bonus_limit else ""),
        f"card sequences: {result.total:,} (ordered six-card deals)",
        f"decimals rounded to {DIGITS} places, money in percent of the stake; fractions exact",
        "",
    ]

    def row(name: str, value: Fraction, shown: str | None = None, odds: bool = False) -> str:
        shown = decimal(value) if shown is None else shown
        cells, columns = [name, shown], ["  <24", ">12"]
        if odds:
            cells, columns = [*cells, odds_against(value)], [*columns, ">13"]
        text = text_row([*cells, fraction(value)], [*columns, "  <0"])
        if len(text) <= 79:
            return text
        # Long exact fractions go on their own line, so the table stays narrow.
        return text_row(cells, columns) + "\n" + ("= " + fraction(value)).rjust(79)

    def event(name: str, value: Fraction) -> str:
        return row(name, value, odds=True)

    def money(name: str, value: Fraction) -> str:
        return row(name, value, percent(value))

    lines.append("outcome (player seat)      probability  odds against")
    lines += [event(n, v) for n, v in (("win", result.win), ("tie", result.push), ("loss", result.loss))]
    lines.append("how it ends")
    lines += [event(_LABELS.get(n, n.replace("_", " ")), v) for n, v in result.categories.items()]
    lines.append("money per unit stake")
    for bet in result.bets:
        ev, var = result.bet_moments(bet)
        label = "player seat" if bet == "player" else f"{bet} bet"
        lines.append(money(f"{label} EV", ev))
        lines.append(row(f"{label} variance", var))
    if "banker" not in result.bets:
        lines.append(money("bank edge per seat", -result.expected_value))
    lines += cut_lines(result, money, row)
    lines.append("hands")
    lines += [
        event("player Colon", result.player_colon),
        event("player Colon nine", result.player_colon_nine),
        event("bank Colon", result.bank_colon),
        event("bank Colon nine", result.bank_colon_nine),
        event("player draws", result.player_draws),
        event("bank draws", result.bank_draws),
    ]
    lines.append("final value       player        bank")
    lines += text_table([[str(v), decimal(result.player_final[v]), decimal(result.bank_final[v])]
                         for v in range(10)], ["  <14", ">12", ">12"])
    lines.append("player net payout per unit stake")
    for amount, p in result.payout_distribution().items():
        lines.append(row(fraction(amount).rjust(6), p))
    return lines
