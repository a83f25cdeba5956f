"""The conditional-odds table as JSON-ready data, CSV rows and terminal text."""

from __future__ import annotations

import textwrap
from typing import Any

from odds.exact.conditional import BY, ConditionalRow
from odds.exact.results import RoundOdds
from odds.rules.text import decimal, fraction, percent, rules_line, text_table, wrap_rules

__all__ = [
    "conditional_data",
    "conditional_rows",
    "conditional_text",
]


def _heads(by: str) -> list[str]:
    if by not in BY:
        raise ValueError(f"a conditional table is by {', '.join(BY)}, not {by!r}")
    return ["player", "bank"] if by == "pair" else [by]


def conditional_data(
    result: RoundOdds, table: list[ConditionalRow], by: str = "player"
) -> dict[str, Any]:
    """The table as JSON-ready data (fractions as strings).

    >>> from odds.exact.conditional import conditional_table
    >>> from odds.exact.engine import round_odds
    >>> from odds.rules.profiles import BUILTIN
    >>> result = round_odds(BUILTIN["plain"])
    >>> conditional_data(result, conditional_table(result, "bank"), "bank")["rows"][9]["win"]
    '0'
    """
    profile = result.profile
    heads = _heads(by)
    return {
        "profile": profile.key,
        "title": profile.title,
        "shoe": {"label": result.shoe.label, "counts": list(result.shoe.counts)},
        "conditions": {
            "player": [str(c) for c in result.player],
            "bank": [str(c) for c in result.bank],
            "removed": [str(c) for c in result.removed],
        },
        "given": [f"{h} two-card value" for h in heads],
        "rows": [
            {
                **dict(zip(heads, row.values, strict=True)),
                "probability": fraction(row.probability),
                "win": fraction(row.win),
                "push": fraction(row.push),
                "loss": fraction(row.loss),
                "expected_value": {bet: fraction(v) for bet, v in row.expected_values},
            }
            for row in table
        ],
        "options": profile.options(),
    }


def conditional_rows(
    result: RoundOdds, table: list[ConditionalRow], by: str = "player"
) -> list[list[str]]:
    """CSV rows: a header, then one row per value with exact fractions and decimals.

    >>> from odds.exact.conditional import conditional_table
    >>> from odds.exact.engine import round_odds
    >>> from odds.rules.profiles import BUILTIN
    >>> result = round_odds(BUILTIN["plain"])
    >>> rows = conditional_rows(result, conditional_table(result, "pair"), "pair")
    >>> rows[0][:4], rows[-1][:3]
    (['player', 'bank', 'probability', 'probability_decimal'], ['9', '9', '1472/162435'])
    """
    heads = _heads(by)
    bets = [bet for bet, _ in table[0].expected_values]
    names = ["probability", "win", "push", "loss"] + [f"{bet}_ev" for bet in bets]
    header = heads + [h for name in names for h in (name, f"{name}_decimal")]
    rows = [header]
    for row in table:
        cells = [row.probability, row.win, row.push, row.loss]
        cells += [v for _, v in row.expected_values]
        rows.append([str(v) for v in row.values]
                    + [t for c in cells for t in (fraction(c), decimal(c))])
    return rows


def conditional_text(
    result: RoundOdds, table: list[ConditionalRow], by: str = "player", digits: int = 6
) -> list[str]:
    """The table as terminal lines (under 80 columns).

    >>> from odds.exact.conditional import conditional_table
    >>> from odds.exact.engine import round_odds
    >>> from odds.rules.profiles import BUILTIN
    >>> result = round_odds(BUILTIN["plain"])
    >>> print(conditional_text(result, conditional_table(result))[-1])
    9        0.096531  0.906122  0.093878  0.000000  +90.6122%
    """
    profile = result.profile
    heads = _heads(by)
    bets = [bet for bet, _ in table[0].expected_values]
    given = []
    for who, cards in (("player", result.player), ("bank", result.bank),
                       ("removed", result.removed)):
        if cards:
            given.append(f"{who} {' '.join(map(str, cards))}")
    lines = [
        f"profile {profile.key}: {profile.title}",
        f"shoe: {result.shoe.label}" + (f"; given: {'; '.join(given)}" if given else ""),
        *wrap_rules(f"rules: {rules_line(profile)}"),
        f"odds of the player seat given the {' and '.join(heads)} two-card value"
        + ("s" if len(heads) == 2 else ""),
        *textwrap.wrap(f"EVs in percent of the stake, rounded to {digits - 2} places, "
                       f"probabilities to {digits}; fractions exact (--format csv or json)", 79),
    ]
    if "banker" in bets:
        lines.append("punto-banco: win = Player wins, loss = Banker wins, tie = Tie")
    width = digits + 4
    names = ["P(value)", "win", "tie", "loss"] + [
        "EV" if bet == "player" else f"{bet} EV" for bet in bets
    ]
    lines.append("")
    rows: list[list[object]] = [[*heads, *names]]
    for row in table:
        values = [*row.values, *[""] * (len(heads) - len(row.values))]
        rows.append([*values, *(decimal(p, digits) for p in (row.probability, row.win,
                                                              row.push, row.loss)),
                     *(percent(v, digits - 2) for _, v in row.expected_values)])
    lines += text_table(rows, ["<7"] * len(heads) + [f">{width}"] * 4
                        + [f">{width + 1}"] * (len(names) - 4))
    return lines
