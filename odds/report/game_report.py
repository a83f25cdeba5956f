"""Rendering games: strategy charts, solved values and evaluated pairs.

Charts have one row per hand (own two-card value, or own two cards under
``--information cards``) and one column for the player and one per thing
the bank saw; a cell says ``draw``, ``stand`` or the exact probability of
drawing; a rule's forced action is in brackets and ``-`` marks a sight
that cannot happen.  Exported data keep every figure exact.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from odds.game.game import Game, Hand, PairResult, TableSet, hand_label, hand_total
from odds.game.play import AtTable, HeadsUp
from odds.game.solve import Equilibrium
from odds.game.strategy import strategy_data
from odds.game.table import TableGame, seen_label
from odds.game.table_finite import FiniteTable
from odds.rules.text import decimal, fraction, rules_line, wrap_rules

__all__ = [
    "chart_rows",
    "pair_data",
    "pair_text",
    "solve_data",
    "solve_text",
    "table_chart_rows",
    "table_data",
    "table_text",
]

INFO_TEXT = {
    "cards": "each side knows its own two cards",
    "totals": "each side acts on its two-card value only",
}


def _cell(p: Fraction) -> str:
    return "draw" if p == 1 else "stand" if p == 0 else str(p)


def _forced(flag: bool) -> str:
    return "(draw)" if flag else "(stand)"


def chart_rows(
    game: Game, player: Mapping[Hand, Fraction] | None, bank: Mapping[Any, Fraction]
) -> list[list[str]]:
    """The chart as rows: hand, player's action, bank's action per sight.

    Under ``cards`` the hands of one two-card value that are played alike
    share a row, their cards listed (``0-0 1-9 2-8``).

    >>> from odds import BUILTIN, Shoe
    >>> from odds.game.game import build_game
    >>> from odds.game.strategy import named_strategy
    >>> g = build_game(BUILTIN["family"], Shoe.infinite_shoe(), "totals")
    >>> rows = chart_rows(g, named_strategy("standard-rule", g, "player"),
    ...                   named_strategy("never", g, "bank"))
    >>> rows[0], rows[6]
    (['value', 'player', 'bank: stood', 'bank: drew'], ['5', 'draw', 'stand', 'stand'])
    """
    sights = [s for s in game.seen_labels() if any(seen == s for _, seen in game.bank_sets)]
    cards = game.information == "cards"
    head = ["value", *(["cards"] if cards else [])]
    head += (["player"] if player is not None else []) + [f"bank: {s}" for s in sights]
    hands = sorted({*game.player_sets, *(h for h, _ in game.bank_sets)},
                   key=lambda h: (hand_total(h), h))
    rows = [head]
    bank_sets = set(game.bank_sets)
    for h in hands:
        row = [str(hand_total(h)), *([hand_label(h)] if cards else [])]
        if player is not None:
            if h in game.player_forced:
                row.append(_forced(game.player_forced[h]))
            else:
                row.append(_cell(player[h]) if h in player else "-")
        for s in sights:
            where = (h, s)
            if where not in bank_sets:
                row.append("-")
            elif where in game.bank_forced:
                row.append(_forced(game.bank_forced[where]))
            else:
                row.append(_cell(bank[where]))
        rows.append(row)
    if not cards:
        return rows
    # Hands of one value that are played alike share a row: "0-0 1-9 2-8".
    merged: dict[tuple[str, ...], list[str]] = {}
    for row in rows[1:]:
        key = (row[0], *row[2:])
        if key in merged:
            merged[key][1] += " " + row[1]
        else:
            merged[key] = list(row)
    return [head, *merged.values()]


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]


def _shoe_text(game: Game) -> str:
    return game.shoe.label


def _value_lines(name: str, value: Fraction) -> list[str]:
    # "decimal  fraction", as every other report prints a figure.
    return [f"{name:<34} {decimal(value):>11}  {fraction(value)}"]


def solve_data(eq: Equilibrium) -> dict[str, Any]:
    """A solved heads-up game as JSON-ready data (fractions as strings)."""
    g = eq.game
    return {
        "profile": g.profile.key,
        "rules": rules_line(g.profile),
        "shoe": _shoe_text(g),
        "information": g.information,
        "players": 1,
        "value": fraction(eq.value),
        "bank_edge": fraction(-eq.value),
        "check": {
            "player_best_response": fraction(eq.player_response),
            "bank_best_response": fraction(eq.bank_response),
            "exploitability": fraction(eq.exploitability),
        },
        "lp": {"rows": eq.lp_rows, "columns": eq.lp_columns, "pivots": eq.pivots},
        "player": strategy_data(g, eq.player, "player"),
        "bank": strategy_data(g, eq.bank, "bank"),
    }


def solve_text(eq: Equilibrium) -> list[str]:
    """A solved heads-up game as terminal lines: value, check, chart."""
    g = eq.game
    lines = [
        *wrap_rules(f"rules: {rules_line(g.profile)}"),
        f"shoe: {_shoe_text(g)}; information: {g.information} ({INFO_TEXT[g.information]}); "
        "heads-up",
        *_value_lines("game value (player's EV per unit)", eq.value),
        *_value_lines("bank's edge", -eq.value),
        f"exact LP: {eq.lp_rows} rows x {eq.lp_columns} columns, {eq.pivots} pivots; "
        f"check: both best responses give the value, exploitability {eq.exploitability}",
        "",
        "optimal strategies (draw, stand, or the probability of drawing):",
        *_table(chart_rows(g, eq.player, eq.bank)),
        "",
        f"decimals rounded half-even to {len(decimal(Fraction(0)).split('.')[1])} places",
    ]
    return lines


def pair_data(game: Game, result: PairResult, specs: tuple[str, str],
              strategies: tuple[Mapping[Any, Fraction], Mapping[Any, Fraction]]) -> dict[str, Any]:
    """An evaluated strategy pair as JSON-ready data."""
    return {
        "profile": game.profile.key,
        "rules": rules_line(game.profile),
        "shoe": _shoe_text(game),
        "information": game.information,
        "strategies": {"player": specs[0], "bank": specs[1]},
        "probabilities": {
            "win": fraction(result.win),
            "push": fraction(result.push),
            "loss": fraction(result.loss),
        },
        "expected_value": fraction(result.expected_value),
        "player_draws": fraction(result.player_draws),
        "bank_draws": fraction(result.bank_draws),
        "player": strategy_data(game, strategies[0], "player"),
        "bank": strategy_data(game, strategies[1], "bank"),
    }


def pair_text(game: Game, result: PairResult, specs: tuple[str, str],
              strategies: tuple[Mapping[Any, Fraction], Mapping[Any, Fraction]]) -> list[str]:
    """An evaluated strategy pair as terminal lines."""
    lines = [
        *wrap_rules(f"rules: {rules_line(game.profile)}"),
        f"shoe: {_shoe_text(game)}; information: {game.information}; heads-up",
        f"player strategy: {specs[0]}; bank strategy: {specs[1]}",
    ]
    for name, value in (
        ("P(player wins)", result.win), ("P(tie)", result.push),
        ("P(bank wins)", result.loss), ("player's EV per unit", result.expected_value),
        ("P(player draws)", result.player_draws), ("P(bank draws)", result.bank_draws),
    ):
        lines.extend(_value_lines(name, value))
    lines += ["", *_table(chart_rows(game, strategies[0], strategies[1]))]
    return lines


def table_chart_rows(
    table: TableGame | FiniteTable, bank: Mapping[TableSet, Fraction]
) -> list[list[str]]:
    """The bank's chart at a table: hand by ``k/n`` (k of n non-natural players drew)."""
    sights = [(k, n) for n in range(1, table.players + 1) for k in range(n + 1)]
    rows = [["bank hand", *(seen_label(k, n) for k, n in sights)]]
    for h in sorted({bh for bh, _, _ in table.bank_sets}, key=lambda h: (hand_total(h), h)):
        rows.append([hand_label(h), *(_cell(bank[h, k, n]) for k, n in sights)])
    return rows


def table_data(table: TableGame | FiniteTable, players: Mapping[Hand, Fraction], spec: str,
               bank_spec: str, bank: Mapping[TableSet, Fraction], seat: PairResult,
               response: Mapping[Hand, Fraction], response_ev: Fraction) -> dict[str, Any]:
    """A table analysis as JSON-ready data."""
    g = table.game
    return {
        "profile": g.profile.key,
        "rules": rules_line(g.profile),
        "shoe": _shoe_text(g),
        "information": g.information,
        "players": table.players,
        "player_strategy": spec,
        "bank_strategy": bank_spec,
        "probabilities": {
            "win": fraction(seat.win),
            "push": fraction(seat.push),
            "loss": fraction(seat.loss),
        },
        "seat_value": fraction(seat.expected_value),
        "bank_edge_per_player": fraction(-seat.expected_value),
        "player_draws": fraction(seat.player_draws),
        "bank_draws": fraction(seat.bank_draws),
        "seat_best_response_value": fraction(response_ev),
        "player": strategy_data(g, dict(players), "player"),
        "bank": {
            hand_label(h): {
                seen_label(k, n): fraction(bank[h, k, n])
                for hh, k, n in table.bank_sets if hh == h
            }
            for h in sorted({bh for bh, _, _ in table.bank_sets})
        },
        "seat_best_response": strategy_data(g, dict(response), "player"),
    }


def table_text(table: TableGame | FiniteTable, players: Mapping[Hand, Fraction], spec: str,
               bank_spec: str, bank: Mapping[TableSet, Fraction], seat: PairResult,
               response: Mapping[Hand, Fraction], response_ev: Fraction) -> list[str]:
    """A table analysis as terminal lines."""
    g = table.game
    changed = [hand_label(h) for h in g.player_choices if response[h] != players[h]]
    return [
        *wrap_rules(f"rules: {rules_line(g.profile)}"),
        f"shoe: {_shoe_text(g)}; information: {g.information}; "
        f"table of {table.players} players, every player plays {spec}, the bank plays {bank_spec}",
        *_value_lines("P(seat wins)", seat.win),
        *_value_lines("P(tie)", seat.push),
        *_value_lines("P(bank wins against the seat)", seat.loss),
        *_value_lines("seat's EV per unit", seat.expected_value),
        *_value_lines("bank's edge per player", -seat.expected_value),
        *_value_lines("one seat's best response EV", response_ev),
        "the seat's best response changes: " + (", ".join(changed) or "nothing"),
        "",
        "players' strategy:",
        *_table([["hand", "player"], *([hand_label(h), _cell(players[h])]
                                       for h in g.player_choices)]),
        "",
        f"bank ({bank_spec}; columns k/n: k of the n non-natural players took a card):",
        *_table(table_chart_rows(table, bank)),
    ]


def play_data(result: HeadsUp | AtTable) -> dict[str, Any]:
    """What :func:`odds.game.play.play` found, as JSON-ready data."""
    if isinstance(result, AtTable):
        return table_data(result.table, result.players, result.spec, result.bank_spec,
                          result.bank, result.seat, result.response, result.response_ev)
    return pair_data(result.game, result.result, result.specs, result.strategies)


def play_text(result: HeadsUp | AtTable) -> list[str]:
    """What :func:`odds.game.play.play` found, as terminal lines."""
    if isinstance(result, AtTable):
        return table_text(result.table, result.players, result.spec, result.bank_spec,
                          result.bank, result.seat, result.response, result.response_ev)
    return pair_text(result.game, result.result, result.specs, result.strategies)
