"""Chemin de fer solutions as text and JSON: value, the player's mix on 5, the banker's table.

The banker's table has one row per banker total (0-7) and one column per
thing he saw: ``stood`` (the player took no card) or the player's third
card 0-9.  A cell reads ``D`` (draws), ``S`` (stands), a probability of
drawing, or ``*`` where the answer depends on the banker's two cards;
those cells are then listed by composition.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

from odds.game.chemin import MODEL_WORDS, ChemEquilibrium, ChemSolution
from odds.game.chemin_decision import Decision
from odds.game.game import STOOD_LABEL, BankSet, Game, hand_label, hand_total, third_label
from odds.rules.text import decimal, fraction, rules_line, wrap_rules

__all__ = ["chemin_data", "chemin_text", "decision_data", "decision_text"]

_SEEN = (STOOD_LABEL, *(third_label(x) for x in range(10)))
_HEAD = ("stood", *(str(x) for x in range(10)))


def _cell(p: Fraction) -> str:
    return "D" if p == 1 else "S" if p == 0 else fraction(p)


def _bank_cells(game: Game, eq: ChemEquilibrium) -> dict[tuple[int, str], dict[str, Fraction]]:
    """(banker total, what he saw) -> {hand label: P(draw)} over every banker set."""
    cells: dict[tuple[int, str], dict[str, Fraction]] = defaultdict(dict)
    for where in game.bank_sets:
        bh, seen = where
        cells[hand_total(bh), seen][hand_label(bh)] = game.bank_prob(eq.bank, where)
    return cells


def _table_rows(game: Game, eq: ChemEquilibrium) -> tuple[list[list[str]], list[str]]:
    cells = _bank_cells(game, eq)
    rows = [["total", *_HEAD]]
    notes: list[str] = []
    for total in range(10):
        if not any((total, s) in cells for s in _SEEN):
            continue
        row = [str(total)]
        for seen, head in zip(_SEEN, _HEAD, strict=True):
            by_hand = cells.get((total, seen))
            if not by_hand:
                row.append("-")
                continue
            values = set(by_hand.values())
            if len(values) == 1:
                row.append(_cell(values.pop()))
                continue
            row.append("*")
            groups: dict[str, list[str]] = defaultdict(list)
            for label, p in sorted(by_hand.items()):
                groups[_cell(p)].append(label)
            parts = [f"{'draws' if c == 'D' else 'stands' if c == 'S' else 'P(draw) ' + c} "
                     f"with {', '.join(labels)}" for c, labels in groups.items()]
            notes.append(f"  {total} / {head}: " + "; ".join(parts))
        rows.append(row)
    return rows, notes


def _align(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]


def _mixed(game: Game, eq: ChemEquilibrium) -> list[str]:
    out = []
    for (bh, seen), p in eq.bank.items():
        if 0 < p < 1:
            out.append(f"  banker {hand_label(bh)} / {seen}: draws with probability "
                       f"{fraction(p)} ({decimal(p)})")
    return out


def _figure(name: str, value: Fraction) -> str:
    return f"{name:<38} {decimal(value):>11}  {fraction(value)}"


def _model_text(sol: ChemSolution) -> str:
    if sol.model is None:
        return (f"the profile's rules (player sees {sol.game.information}, banker sees "
                f"{sol.game.bank_information or sol.game.information})")
    return f"model {sol.model}: {MODEL_WORDS[sol.model]}; the banker may choose in every cell"


def _player_mix(game: Game, eq: ChemEquilibrium) -> list[str]:
    lines = []
    for h, p in eq.player.items():
        label = hand_label(h)
        if eq.player_upper is not None:
            lines.append(f"  player {label}: any probability of drawing from {fraction(p)} "
                         f"to {fraction(eq.player_upper)}")
        elif p in (0, 1):
            lines.append(f"  player {label}: {'draws' if p == 1 else 'stands'}")
        else:
            lines.append(f"  player {label}: draws with probability {fraction(p)} ({decimal(p)})")
    return lines


def chemin_text(sol: ChemSolution) -> list[str]:
    """A solved chemin de fer game as terminal lines.

    >>> from odds import BUILTIN, Shoe
    >>> from odds.game.chemin import chemin_game, solve_chemin
    >>> sol = solve_chemin(chemin_game(BUILTIN["chemin-de-fer"], Shoe.infinite_shoe(), "A1"))
    >>> [line for line in chemin_text(sol) if "player 5" in line]
    ['  player 5: draws with probability 9/11 (0.81818182)']
    """
    g = sol.game
    lines = [
        *wrap_rules(f"rules: {rules_line(g.profile)}"),
        f"shoe: {g.shoe.label}; {_model_text(sol)}",
    ]
    if sol.commission:
        lines.append(f"commission: {fraction(sol.commission)} of the banker's wins "
                     f"(a bimatrix game: {sol.method}; "
                     + ("every Nash equilibrium" if sol.complete else
                        "one Nash equilibrium, not shown to be unique") + ")")
    else:
        lines.append(f"zero-sum; solved by {sol.method}; checked by both exact best responses")
    for k, eq in enumerate(sol.equilibria, 1):
        lines.append("")
        if len(sol.equilibria) > 1:
            lines.append(f"equilibrium {k} of {len(sol.equilibria)}:")
        if sol.commission:
            lines.append(_figure("player's EV per unit", eq.player_payoff))
            lines.append(_figure("banker's EV per unit, after commission", eq.bank_payoff))
        else:
            lines.append(_figure("game value (player's EV per unit)", eq.player_payoff))
        lines.append("the player's choice (must draw on 0-4, stand on 6-7):")
        lines.extend(_player_mix(g, eq))
        rows, notes = _table_rows(g, eq)
        lines.append("the banker's strategy (D draws, S stands, a fraction: P(draw); "
                     "* depends on his cards); columns: the player's third card, or stood:")
        lines.extend("  " + r for r in _align(rows))
        if notes:
            lines.append("cells that depend on the banker's cards:")
            lines.extend(notes)
        mixed = _mixed(g, eq)
        if mixed:
            lines.append("mixed cells:")
            lines.extend(mixed)
        if eq.free_cells:
            lines.append(f"the banker is indifferent in {eq.free_cells} more cell(s): "
                         "other mixes there are equilibria too")
        lines.append(f"check: best responses give {fraction(eq.player_response)} (player) and "
                     f"{fraction(eq.bank_response)} (banker), the payoffs exactly")
    lines.append("")
    lines.append("decimals rounded half-even to 8 places")
    return lines


def _eq_data(game: Game, eq: ChemEquilibrium) -> dict[str, Any]:
    bank: dict[str, dict[str, str]] = defaultdict(dict)
    for where in game.bank_sets:
        bh, seen = where
        bank[hand_label(bh)][seen] = fraction(game.bank_prob(eq.bank, where))
    return {
        "player_payoff": fraction(eq.player_payoff),
        "bank_payoff": fraction(eq.bank_payoff),
        "player": {hand_label(h): fraction(p) for h, p in eq.player.items()},
        "player_upper": None if eq.player_upper is None else fraction(eq.player_upper),
        "bank": dict(bank),
        "free_cells": eq.free_cells,
        "check": {"player_best_response": fraction(eq.player_response),
                  "bank_best_response": fraction(eq.bank_response)},
    }


def chemin_data(sol: ChemSolution) -> dict[str, Any]:
    """A solved chemin de fer game as JSON-ready data (fractions as strings).

    >>> from odds import BUILTIN, Shoe
    >>> from odds.game.chemin import chemin_game, solve_chemin
    >>> sol = solve_chemin(chemin_game(BUILTIN["chemin-de-fer"], Shoe.infinite_shoe(), "A1"))
    >>> data = chemin_data(sol)
    >>> data["value"], data["equilibria"][0]["player"], data["equilibria"][0]["bank"]["6"]["stood"]
    ('-679568/53094899', {'5': '9/11'}, '859/2288')
    """
    g = sol.game
    return {
        "profile": g.profile.key,
        "rules": rules_line(g.profile),
        "shoe": g.shoe.label,
        "model": sol.model,
        "information": {"player": g.information, "bank": g.bank_information or g.information},
        "commission": fraction(sol.commission),
        "method": sol.method,
        "value": fraction(sol.value) if not sol.commission else None,
        "all_equilibria": sol.complete,
        "equilibria": [_eq_data(g, eq) for eq in sol.equilibria],
    }


def _where_text(d: Decision) -> str:
    if d.side == "player":
        return f"player holds {hand_label(d.where)}"  # type: ignore[arg-type]
    where: BankSet = d.where  # type: ignore[assignment]
    bh, seen = where
    saw = "the player stood" if seen == STOOD_LABEL else f"the player drew a {seen.split()[1]}"
    return f"banker holds {hand_label(bh)} (total {hand_total(bh)}), {saw}"


def decision_text(d: Decision, sol: ChemSolution) -> list[str]:
    """One decision as terminal lines: the player's EV of each choice.

    >>> from odds import BUILTIN, Shoe
    >>> from odds.game.chemin import chemin_game, solve_chemin
    >>> from odds.game.chemin_decision import decision
    >>> g = chemin_game(BUILTIN["chemin-de-fer"], Shoe.infinite_shoe(), "A1")
    >>> sol = solve_chemin(g)
    >>> eq = sol.equilibria[0]
    >>> text = decision_text(decision(g, eq.player, eq.bank, "bank", ((5,), "third 4")), sol)
    >>> [line for line in text if line.startswith("best")]
    ['best for the bank: draw']
    """
    g = sol.game
    best = "draw" if (d.draw > d.stand) == (d.side == "player") else "stand"
    if d.draw == d.stand:
        best = "either (indifferent)"
    return [
        *wrap_rules(f"rules: {rules_line(g.profile)}"),
        f"shoe: {g.shoe.label}; {_model_text(sol)}; the other side plays its equilibrium strategy",
        f"{_where_text(d)}: {d.side} to choose",
        _figure("player's EV if the " + d.side + " stands", d.stand),
        _figure("player's EV if the " + d.side + " draws", d.draw),
        f"best for the {d.side}: {best}",
        "EVs per unit staked, given this situation; decimals rounded half-even to 8 places",
    ]


def decision_data(d: Decision, sol: ChemSolution) -> dict[str, Any]:
    """One decision as JSON-ready data.

    >>> from odds import BUILTIN, Shoe
    >>> from odds.game.chemin import chemin_game, solve_chemin
    >>> from odds.game.chemin_decision import decision
    >>> g = chemin_game(BUILTIN["chemin-de-fer"], Shoe.infinite_shoe(), "A1")
    >>> sol = solve_chemin(g)
    >>> eq = sol.equilibria[0]
    >>> decision_data(decision(g, eq.player, eq.bank, "player", (5,)), sol)["side"]
    'player'
    """
    return {
        "profile": sol.game.profile.key,
        "shoe": sol.game.shoe.label,
        "model": sol.model,
        "side": d.side,
        "situation": _where_text(d),
        "ev_stand": fraction(d.stand),
        "ev_draw": fraction(d.draw),
        "probability_of_situation": fraction(d.weight),
    }
