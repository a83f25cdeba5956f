"""Rendering the effect-of-removal table: JSON-ready data, CSV rows, text.

The numbers come from :func:`odds.exact.removal.removal_effects`; this module only
lays them out, with the base figures of the shoe and the check that the
changes, weighted by the cards left, sum to exactly 0.
"""

from __future__ import annotations

import textwrap
from fractions import Fraction
from typing import Any

from odds.exact.engine import round_odds
from odds.exact.removal import RemovalEffect, removal_effects
from odds.rules.profiles import Profile
from odds.rules.shoe import Shoe
from odds.rules.text import decimal, fraction, rules_line

__all__ = ["removal_data", "removal_rows", "removal_text", "weighted_sum"]


def weighted_sum(
    effects: tuple[RemovalEffect, ...], shoe: Shoe, attr: str = "ev_change"
) -> Fraction:
    """Sum of the changes weighted by how many cards of each rank are left: exactly 0.

    >>> from odds.rules.profiles import BUILTIN
    >>> shoe = Shoe.packs_of(1)
    >>> weighted_sum(removal_effects(BUILTIN["standard"], shoe), shoe)
    Fraction(0, 1)
    """
    total = sum((shoe.counts[e.rank.index] * getattr(e, attr) for e in effects), Fraction(0))
    return Fraction(total, shoe.size)


def _base(profile: Profile, shoe: Shoe) -> tuple[Fraction, Fraction]:
    base = round_odds(profile, shoe)
    return base.expected_value, base.win


def removal_data(profile: Profile, shoe: Shoe) -> dict[str, Any]:
    """The table as JSON-ready data (fractions as strings).

    >>> from odds.rules.profiles import BUILTIN
    >>> data = removal_data(BUILTIN["plain"], Shoe.packs_of(1))
    >>> data["expected_value"], data["weighted_sum"]
    ('0', {'ev_change': '0', 'win_change': '0'})
    """
    effects = removal_effects(profile, shoe)
    ev, win = _base(profile, shoe)
    return {
        "profile": profile.key,
        "title": profile.title,
        "shoe": {"label": shoe.label, "counts": list(shoe.counts), "cards": shoe.size},
        "expected_value": fraction(ev),
        "win": fraction(win),
        "effects": [
            {
                "rank": str(e.rank),
                "left": shoe.counts[e.rank.index],
                "ev_change": fraction(e.ev_change),
                "win_change": fraction(e.win_change),
                "ev_after": fraction(ev + e.ev_change),
            }
            for e in effects
        ],
        "weighted_sum": {
            "ev_change": fraction(weighted_sum(effects, shoe)),
            "win_change": fraction(weighted_sum(effects, shoe, "win_change")),
        },
        "options": profile.options(),
    }


def removal_rows(profile: Profile, shoe: Shoe) -> list[list[str]]:
    """CSV rows: rank, cards left, then each change as a fraction and a decimal.

    >>> from odds.rules.profiles import BUILTIN
    >>> removal_rows(BUILTIN["plain"], Shoe.packs_of(1))[1][:3]
    ['A', '4', '0']
    """
    effects = removal_effects(profile, shoe)
    rows = [["rank", "left", "ev_change", "ev_change_decimal", "win_change",
             "win_change_decimal"]]
    for e in effects:
        rows.append([str(e.rank), str(shoe.counts[e.rank.index]),
                     fraction(e.ev_change), decimal(e.ev_change, 10),
                     fraction(e.win_change), decimal(e.win_change, 10)])
    return rows


def removal_text(profile: Profile, shoe: Shoe, digits: int = 8) -> list[str]:
    """The table as terminal lines: changes in EV and P(win) per rank removed.

    >>> from odds.rules.profiles import BUILTIN
    >>> print(removal_text(BUILTIN["standard"], Shoe.packs_of(1))[-2])
    weighted by the cards left, the EV changes sum to 0
    """
    effects = removal_effects(profile, shoe)
    ev, win = _base(profile, shoe)
    width = digits + 5
    lines = [
        f"profile {profile.key}: {profile.title}",
        f"shoe: {shoe.label} ({shoe.size} cards)",
        *textwrap.wrap(f"rules: {rules_line(profile)}", 79, subsequent_indent="  "),
        f"player seat EV {decimal(ev, digits)} ({fraction(ev)}), P(win) {decimal(win, digits)}",
        f"effect of removing one card of a rank; decimals rounded to {digits} places",
        "",
        f"{'rank':<6}{'left':>6}{'EV change':>{width}}{'P(win) change':>{width + 2}}"
        f"{'EV after':>{width}}",
    ]
    for e in effects:
        lines.append(
            f"{str(e.rank):<6}{shoe.counts[e.rank.index]:>6}"
            f"{decimal(e.ev_change, digits):>{width}}"
            f"{decimal(e.win_change, digits):>{width + 2}}"
            f"{decimal(ev + e.ev_change, digits):>{width}}"
        )
    total = weighted_sum(effects, shoe)
    lines.append("")
    lines.append(f"weighted by the cards left, the EV changes sum to {fraction(total)}")
    lines.append("(exact: the shoe's EV is the average of the EVs after one card)")
    return lines
