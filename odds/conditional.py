"""Conditional odds: the round's figures given two-card values.

The table casinos publish for baccarat: P(win), P(push), P(loss) of the
player seat and every bet's expected value, given the player's two-card
value, the bank's, or the pair of both.  All read from one
:class:`~odds.results.RoundOdds` (its counts are keyed by the two-card
values already), so the table is exact and costs one enumeration.
"""

from __future__ import annotations

import textwrap
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from odds.report import decimal, fraction, rules_line
from odds.results import RoundOdds
from odds.settle import Outcome, pay_entry

__all__ = [
    "BY",
    "ConditionalRow",
    "conditional_data",
    "conditional_rows",
    "conditional_table",
    "conditional_text",
]

BY = ("player", "bank", "pair")


@dataclass(frozen=True)
class ConditionalRow:
    """The seat's odds given a two-card value (or a pair of them).

    ``values`` is ``(player value,)``, ``(bank value,)`` or ``(player value,
    bank value)``; ``probability`` is how often the condition happens;
    ``expected_values`` has one entry per bet of the profile (``player`` is
    the seat; punto-banco adds ``banker`` and ``tie``).
    """

    values: tuple[int, ...]
    probability: Fraction
    win: Fraction
    push: Fraction
    loss: Fraction
    expected_values: tuple[tuple[str, Fraction], ...]

    @property
    def expected_value(self) -> Fraction:
        """The player seat's expected value given the condition."""
        return dict(self.expected_values)["player"]


def _bet_amounts(result: RoundOdds, outcome: Outcome, pcol: int, bcol: int) -> list[Fraction]:
    """Each bet's net amount when the seat's outcome is ``outcome``."""
    profile = result.profile
    amounts = [pay_entry(profile, outcome, pcol, bcol).amount(profile)]
    if profile.banker_pays is not None:
        amounts.append({Outcome.WIN: Fraction(-1), Outcome.PUSH: Fraction(0),
                        Outcome.LOSS: profile.banker_pays}[outcome])
    if profile.tie_pays is not None:
        amounts.append(profile.tie_pays if outcome is Outcome.PUSH else Fraction(-1))
    return amounts


def conditional_table(result: RoundOdds, by: str = "player") -> list[ConditionalRow]:
    """One :class:`ConditionalRow` per value (or pair) that can occur, in order.

    ``by`` is ``player``, ``bank`` or ``pair``.

    >>> from odds.engine import round_odds
    >>> from odds.profiles import BUILTIN
    >>> from odds.shoe import Shoe
    >>> rows = conditional_table(round_odds(BUILTIN["plain"], Shoe.packs_of(1)))
    >>> rows[9].values, rows[9].loss, sum(r.probability for r in rows)
    ((9,), Fraction(0, 1), Fraction(1, 1))
    """
    if by not in BY:
        raise ValueError(f"a conditional table is by {', '.join(BY)}, not {by!r}")
    pick = {"player": (0,), "bank": (1,), "pair": (0, 1)}[by]
    outcomes = list(Outcome)
    counts: dict[tuple[int, ...], list[int]] = defaultdict(lambda: [0, 0, 0])
    money: dict[tuple[int, ...], list[Fraction]] = {}
    bets = result.bets
    amounts: dict[tuple[Outcome, int, int], list[Fraction]] = {}
    for key, count in result.outcome_counts.items():
        values = (key[0], key[1])[pick[0]: pick[-1] + 1]
        outcome = Outcome(key[4].split("_")[0])
        counts[values][outcomes.index(outcome)] += count
        pays = amounts.get((outcome, key[2], key[3]))
        if pays is None:
            pays = amounts[outcome, key[2], key[3]] = _bet_amounts(result, outcome, key[2], key[3])
        row = money.setdefault(values, [Fraction(0)] * len(bets))
        for i, amount in enumerate(pays):
            row[i] += count * amount
    table = []
    for values in sorted(counts):
        win, push, loss = counts[values]
        n = win + push + loss
        if not n:
            continue
        table.append(ConditionalRow(
            values,
            Fraction(n, result.total),
            Fraction(win, n),
            Fraction(push, n),
            Fraction(loss, n),
            tuple((bet, m / n) for bet, m in zip(bets, money[values], strict=True)),
        ))
    return table


def _heads(by: str) -> list[str]:
    if by not in BY:
        raise ValueError(f"a conditional table is by {', '.join(BY)}, not {by!r}")
    return ["player", "bank"] if by == "pair" else [by]


def conditional_data(
    result: RoundOdds, table: list[ConditionalRow], by: str = "player"
) -> dict[str, Any]:
    """The table as JSON-ready data (fractions as strings).

    >>> from odds.engine import round_odds
    >>> from odds.profiles import BUILTIN
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

    >>> from odds.engine import round_odds
    >>> from odds.profiles import BUILTIN
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

    >>> from odds.engine import round_odds
    >>> from odds.profiles import BUILTIN
    >>> result = round_odds(BUILTIN["plain"])
    >>> print(conditional_text(result, conditional_table(result))[-1])
    9        0.096531  0.906122  0.093878  0.000000  0.906122
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
        *textwrap.wrap(f"rules: {rules_line(profile)}", 79, subsequent_indent="  "),
        f"odds of the player seat given the {' and '.join(heads)} two-card value"
        + ("s" if len(heads) == 2 else ""),
        f"decimals rounded to {digits} places; fractions exact (--format csv or json)",
    ]
    if "banker" in bets:
        lines.append("punto-banco: win = Player wins, loss = Banker wins, push = Tie")
    width = digits + 4
    names = ["P(value)", "win", "push", "loss"] + [
        "EV" if bet == "player" else f"{bet} EV" for bet in bets
    ]
    key_width = 7 * len(heads)
    lines.append("")
    lines.append("".join(f"{h:<7}" for h in heads)
                 + "".join(f"{n:>{width}}" for n in names))
    for row in table:
        cells = [row.probability, row.win, row.push, row.loss]
        cells += [v for _, v in row.expected_values]
        lines.append(f"{''.join(f'{v:<7}' for v in row.values):<{key_width}}"
                     + "".join(f"{decimal(c, digits):>{width}}" for c in cells))
    return lines
