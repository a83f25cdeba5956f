"""Rendering the effect-of-removal table: JSON-ready data, CSV rows, text.

The numbers come from :func:`odds.exact.removal.removal`; this module only
lays them out: the shoe's EV of every bet, the change per card of each rank
removed (the normalisation is printed: per one card, from this shoe), and
the check that the changes, weighted by the cards left, sum to exactly 0.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from odds.exact.removal import Removal, RemovalEffect, removal
from odds.rules.profile import Profile
from odds.rules.shoe import Shoe
from odds.rules.text import decimal, fraction, percent, rules_line, text_table, wrap_rules

__all__ = ["normalisation", "removal_data", "removal_rows", "removal_text", "weighted_sum"]

BET_TEXT = {
    "player": "player seat",
    "banker": "banker bet",
    "tie": "tie bet",
    "colon-share": "colon-share (the part of the seat's EV its Colon pays add)",
}


def _bets(side: Sequence[str]) -> tuple[str, ...]:
    """What to evaluate: every bet of the profile, or the player seat and the bets named."""
    if not side:
        return ("all",)
    return tuple(side) if "player" in side else ("player", *side)


def weighted_sum(
    effects: tuple[RemovalEffect, ...], shoe: Shoe, attr: str = "ev_change"
) -> Fraction:
    """Sum of the changes weighted by how many cards of each rank are left: exactly 0.

    ``attr`` is ``ev_change``, ``win_change`` or a bet name.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.exact.removal import removal_effects
    >>> shoe = Shoe.packs_of(1)
    >>> weighted_sum(removal_effects(BUILTIN["standard"], shoe), shoe)
    Fraction(0, 1)
    """
    def value(e: RemovalEffect) -> Fraction:
        return e.change(attr) if attr not in ("ev_change", "win_change") else getattr(e, attr)

    total = sum((shoe.counts[e.rank.index] * value(e) for e in effects), Fraction(0))
    return Fraction(total, shoe.size)


def normalisation(shoe: Shoe) -> str:
    """What one number of the table is: the change per card removed, from which shoe.

    >>> normalisation(Shoe.packs_of(8))
    'change in EV per card of the rank removed, from 8 packs (416 cards)'
    """
    where = shoe.label if shoe.packs is not None else "this shoe"
    return f"change in EV per card of the rank removed, from {where} ({shoe.size} cards)"


def removal_data(profile: Profile, shoe: Shoe, side: Sequence[str] = ()) -> dict[str, Any]:
    """The table as JSON-ready data (fractions as strings).

    The player seat's figures keep their keys (``expected_value``,
    ``ev_change``, ``weighted_sum``, ...); every bet's are under
    ``expected_values``, ``ev_changes`` and ``weighted_sums``.

    >>> from odds.rules.profiles import BUILTIN
    >>> data = removal_data(BUILTIN["plain"], Shoe.packs_of(1))
    >>> data["expected_value"], data["weighted_sum"]["ev_change"], data["bets"]
    ('0', '0', ['player'])
    """
    result = removal(profile, shoe, _bets(side))
    ev = result.expected_value()
    effects = result.effects
    return {
        "profile": profile.key,
        "title": profile.title,
        "shoe": {"label": shoe.label, "counts": list(shoe.counts), "cards": shoe.size},
        "normalisation": normalisation(shoe),
        "bets": list(result.bets),
        "expected_value": fraction(ev),
        "win": fraction(result.win),
        "expected_values": {bet: fraction(v) for bet, v in result.expected_values},
        "effects": [
            {
                "rank": str(e.rank),
                "left": shoe.counts[e.rank.index],
                "ev_change": fraction(e.ev_change),
                "win_change": fraction(e.win_change),
                "ev_after": fraction(ev + e.ev_change),
                "ev_changes": {bet: fraction(v) for bet, v in e.changes},
            }
            for e in effects
        ],
        "weighted_sum": {
            "ev_change": fraction(weighted_sum(effects, shoe)),
            "win_change": fraction(weighted_sum(effects, shoe, "win_change")),
        },
        "weighted_sums": {bet: fraction(weighted_sum(effects, shoe, bet)) for bet in result.bets},
        "options": profile.options(),
    }


def removal_rows(profile: Profile, shoe: Shoe, side: Sequence[str] = ()) -> list[list[str]]:
    """CSV rows: rank, cards left, each change as a fraction and a decimal, then other bets'.

    >>> from odds.rules.profiles import BUILTIN
    >>> rows = removal_rows(BUILTIN["punto-banco"], Shoe.packs_of(1))
    >>> rows[0][6:10], rows[1][:2]
    (['banker_ev_change', 'banker_ev_change_decimal', 'tie_ev_change', 'tie_ev_change_decimal'], ['A', '4'])
    """
    result = removal(profile, shoe, _bets(side))
    others = [bet for bet in result.bets if bet != "player"]
    rows = [["rank", "left", "ev_change", "ev_change_decimal", "win_change",
             "win_change_decimal"]
            + [f"{bet}_{what}" for bet in others for what in ("ev_change", "ev_change_decimal")]]
    for e in result.effects:
        row = [str(e.rank), str(shoe.counts[e.rank.index]),
               fraction(e.ev_change), decimal(e.ev_change, 10),
               fraction(e.win_change), decimal(e.win_change, 10)]
        for bet in others:
            row += [fraction(e.change(bet)), decimal(e.change(bet), 10)]
        rows.append(row)
    return rows


def _text(result: Removal, digits: int) -> list[str]:
    profile, shoe = result.profile, result.shoe
    ev = result.expected_value()
    width = digits + 5
    others: list[str] = []  # in the seat's table; every other bet in tables of its own
    side = [bet for bet in result.bets if bet != "player"]
    lines = [
        *textwrap.wrap(f"profile {profile.key}: {profile.title}", 79, subsequent_indent="  "),
        f"shoe: {shoe.label} ({shoe.size} cards)",
        *wrap_rules(f"rules: {rules_line(profile)}"),
        f"player seat EV {percent(ev, digits - 2)} ({fraction(ev)}), "
        f"P(win) {decimal(result.win, digits)}",
    ]
    for bet in others + side:
        value = result.expected_value(bet)
        lines += textwrap.wrap(f"{BET_TEXT.get(bet, bet + ' bet')}: EV {percent(value, digits - 2)} "
                               f"({fraction(value)})", 79, subsequent_indent="  ")
    lines += textwrap.wrap(
        f"effect of removing one card of a rank: {normalisation(shoe)}; "
        f"EVs and their changes in percent of the stake to {digits - 2} places, other "
        f"decimals rounded to {digits} places", 79)
    if others:
        lines += textwrap.wrap(f"EV change, P(win) change, EV after: the player seat; "
                               f"{', '.join(others)}: that bet's EV change", 79,
                               break_on_hyphens=False)
    lines.append("")
    lines += text_table(
        [["rank", "left", "EV change", "P(win) change", "EV after", *others]]
        + [[str(e.rank), shoe.counts[e.rank.index], percent(e.ev_change, digits - 2),
            decimal(e.win_change, digits), percent(ev + e.ev_change, digits - 2),
            *(percent(e.change(bet), digits - 2) for bet in others)]
           for e in result.effects],
        ["<6", ">6", f">{width}", f">{width + 2}", f">{width}", *[f">{width}"] * len(others)])
    for part in _fit(side, width, 79 - 12):  # other bets: tables of their own, as many as fit
        cols = [f">{max(width, len(bet) + 1)}" for bet in part]
        lines.append("")
        lines += text_table(
            [["rank", "left", *part]]
            + [[str(e.rank), shoe.counts[e.rank.index],
                *(percent(e.change(bet), digits - 2) for bet in part)] for e in result.effects],
            ["<6", ">6", *cols])
    total = weighted_sum(result.effects, shoe)
    rest = ", ".join(f"{bet} {fraction(weighted_sum(result.effects, shoe, bet))}"
                     for bet in others + side)
    lines.append("")
    lines += textwrap.wrap(f"weighted by the cards left, the EV changes sum to "
                           f"{fraction(total)}" + (f" ({rest})" if rest else ""), 79,
                           break_on_hyphens=False)
    lines.append("(exact: the shoe's EV is the average of the EVs after one card)")
    return lines


def _fit(names: Sequence[str], width: int, room: int) -> list[list[str]]:
    """Names in groups whose columns (each at least ``width``) fit in ``room`` characters.

    >>> _fit(["a", "b", "c"], 10, 25)
    [['a', 'b'], ['c']]
    """
    groups: list[list[str]] = []
    used = room
    for name in names:
        w = max(width, len(name) + 1)
        if used + w > room:
            groups.append([])
            used = 0
        groups[-1].append(name)
        used += w
    return groups


def removal_text(profile: Profile, shoe: Shoe, digits: int = 8,
                 side: Sequence[str] = ()) -> list[str]:
    """The table as terminal lines: changes in EV and P(win) per rank removed.

    >>> from odds.rules.profiles import BUILTIN
    >>> print("\\n".join(removal_text(BUILTIN["standard"], Shoe.packs_of(1))[-3:-1]))
    weighted by the cards left, the EV changes sum to 0 (colon 0, colon-nine 0,
    colon-share 0)
    """
    return _text(removal(profile, shoe, _bets(side)), digits)
