"""The reference tables of the ``family`` profile: the game, solved for every D.

Under ``family`` the player and the bank choose whether to draw, so the
odds depend on how they play.  For each shoe D in {1, 2, 4, 6, 8, inf} this
module takes the heads-up game of :mod:`odds.game.game` under both information
models (``cards``: each side knows its own two cards; ``totals``: each acts
on its two-card value), solves it exactly (:func:`odds.game.solve.solve_game`,
checked by both exact best responses: exploitability 0), and evaluates
the Philippine fixed rule (``standard-rule``: draw on 0-5) for both sides
and the bank's exact best response to standard-rule players.  The figures
and strategy charts (:func:`odds.report.game_report.chart_rows`) become
:class:`odds.report.tables.Section` rows, rendered by the same Markdown, CSV and
JSON writers as the fixed-rule profiles, plus one printable A4 sheet.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from odds._version import __version__
from odds.game.game import Game, PairResult, build_game
from odds.game.solve import Equilibrium, solve_game
from odds.game.strategy import named_strategy
from odds.report.game_report import INFO_TEXT, chart_rows
from odds.report.sheet import SHEET_CSS, html_head, td_cell
from odds.report.tables import Cell, Page, Section, deck_label, deck_shoe, option_text
from odds.rules.profile import Profile
from odds.rules.profiles import BUILTIN
from odds.rules.text import decimal, fraction, rules_line

__all__ = ["FAMILY", "Family", "family_page", "family_sheet", "solve_family"]

FAMILY = "family"
MODELS = ("cards", "totals")  # cards first: the default information model


@dataclass(frozen=True, eq=False)
class Family:
    """The family game on one shoe, solved and evaluated (player's side).

    ``equilibria`` and ``optimum`` (the equilibrium pair evaluated) are by
    information model; ``standard`` is both sides on the standard rule;
    ``response`` is the bank's best response to standard-rule players, its
    strategy and the evaluated pair, by information model.
    """

    profile: Profile
    decks: int | None
    games: Mapping[str, Game]
    equilibria: Mapping[str, Equilibrium]
    optimum: Mapping[str, PairResult]
    rule: tuple[dict[Any, Fraction], dict[Any, Fraction]]
    standard: PairResult
    response: Mapping[str, tuple[dict[Any, Fraction], PairResult]]


def solve_family(decks: int | None, profile: Profile | None = None) -> Family:
    """Solve the game and evaluate the standard rule on D packs (None: infinite).

    >>> f = solve_family(None)
    >>> f.equilibria["cards"].value, f.equilibria["cards"].exploitability
    (Fraction(-456160, 53094899), Fraction(0, 1))
    >>> f.standard.expected_value, f.response["cards"][1].expected_value
    (Fraction(0, 1), Fraction(-53840, 4826809))
    """
    profile = BUILTIN[FAMILY] if profile is None else profile
    shoe = deck_shoe(decks)
    games = {m: build_game(profile, shoe, m) for m in MODELS}
    equilibria = {m: solve_game(g) for m, g in games.items()}
    optimum = {m: games[m].evaluate(eq.player, eq.bank) for m, eq in equilibria.items()}
    cards = games["cards"]
    player = named_strategy("standard-rule", cards, "player")
    bank = named_strategy("standard-rule", cards, "bank")
    assert player is not None and bank is not None
    response = {}
    for m, g in games.items():
        rule = named_strategy("standard-rule", g, "player")
        assert rule is not None
        best, _ = g.bank_best_response(rule)
        response[m] = (best, g.evaluate(rule, best))
    return Family(profile, decks, games, equilibria, optimum, (player, bank),
                  cards.evaluate(player, bank), response)


# -- the page ---------------------------------------------------------------------

_FIGURES: tuple[tuple[str, Callable[[PairResult], Fraction]], ...] = (
    ("player's EV (under the optimum: the game value)", lambda r: r.expected_value),
    ("bank's edge", lambda r: -r.expected_value),
    ("player wins", lambda r: r.win),
    ("push", lambda r: r.push),
    ("bank wins", lambda r: r.loss),
    ("player draws", lambda r: r.player_draws),
    ("bank draws", lambda r: r.bank_draws),
)


def _columns(f: Family) -> list[tuple[str, PairResult]]:
    return [
        ("optimum (cards)", f.optimum["cards"]),
        ("optimum (totals)", f.optimum["totals"]),
        ("standard rule, both sides", f.standard),
        ("standard-rule player, bank best response (cards)", f.response["cards"][1]),
        ("standard-rule player, bank best response (totals)", f.response["totals"][1]),
    ]


def _chart(key: str, title: str, rows: list[list[str]], note: str) -> Section:
    labels = 2 if rows[0][1] == "cards" else 1
    return Section(key, title, tuple(rows[0]), tuple(tuple(r) for r in rows[1:]), note,
                   labels=labels)


def family_page(f: Family) -> Page:
    """The sections of the family page for one shoe.

    >>> p = family_page(solve_family(None))
    >>> [s.key for s in p.sections]  # doctest: +NORMALIZE_WHITESPACE
    ['summary', 'check', 'chart_cards', 'chart_totals', 'chart_standard_rule',
     'chart_bank_response']
    """
    columns = _columns(f)
    cards = f.games["cards"]
    summary: list[tuple[Cell, ...]] = [
        (label, *(get(r) for _, r in columns)) for label, get in _FIGURES
    ]
    sections = [Section(
        "summary", "Heads-up: the optimum against the standard rule",
        ("quantity", *(name for name, _ in columns)), tuple(summary),
        "player's EV per unit stake (the bank's edge is its negative) and probabilities "
        "per round for one player against the bank, heads-up; optimum: the exact zero-sum "
        "equilibrium under the information model named (cards: "
        f"{INFO_TEXT['cards']}; totals: {INFO_TEXT['totals']}); standard rule: draw on "
        "0-5, stand on 6-8, which for both sides gives EV exactly 0 by symmetry; "
        f"total sequences: {cards.total} ordered six-card deals (unused third-card slots "
        "filled), the denominator of every probability here",
        cards.total, note_row=True,
    )]
    check: list[tuple[Cell, ...]] = []
    for m in MODELS:
        eq = f.equilibria[m]
        check += [
            (f"game value ({m})", eq.value),
            (f"player's best response to the bank's optimum ({m})", eq.player_response),
            (f"bank's best response to the player's optimum ({m})", eq.bank_response),
            (f"exploitability ({m})", eq.exploitability),
        ]
    sections.append(Section(
        "check", "Check of the equilibrium by exact best responses",
        ("quantity", "player's EV"), tuple(check),
        "each side's exact best response to the other's optimal strategy gives the game "
        "value, so neither side can gain by deviating: exploitability 0 "
        f"(exact LP over the rationals: {f.equilibria['cards'].lp_rows} rows x "
        f"{f.equilibria['cards'].lp_columns} columns by cards, "
        f"{f.equilibria['totals'].lp_rows} x {f.equilibria['totals'].lp_columns} by totals)",
        note_row=True,
    ))
    cell_note = ("draw, stand, or the exact probability of drawing; rows: own two-card "
                 "value{}; columns: the player, the bank when the player stood, the bank "
                 "when the player drew")
    for m in MODELS:
        eq = f.equilibria[m]
        sections.append(_chart(
            f"chart_{m}", f"Optimal strategies (information: {m})",
            chart_rows(eq.game, eq.player, eq.bank),
            cell_note.format(" and, by cards, the two cards (0 = 10 J Q K; hands of one "
                             "value played alike share a row)" if m == "cards" else ""),
        ))
    sections.append(_chart(
        "chart_standard_rule", "The standard rule (both sides)",
        chart_rows(f.games["totals"], *(_by_totals(f, side) for side in ("player", "bank"))),
        cell_note.format(""),
    ))
    best, _ = f.response["cards"]
    sections.append(_chart(
        "chart_bank_response", "The bank's best response to standard-rule players (cards)",
        chart_rows(cards, f.rule[0], best),
        cell_note.format(" and the two cards") + "; what the optimum changes: compare "
        "with the charts above",
    ))
    return Page(f.profile, f.decks, None, tuple(sections))


def _by_totals(f: Family, side: str) -> dict[Any, Fraction]:
    rule = named_strategy("standard-rule", f.games["totals"], side)
    assert rule is not None
    return rule


# -- the printable sheet ----------------------------------------------------------

_CHART_CSS = """
.pair { display: flex; gap: 3mm; }
.pair > div { flex: 1; }
table.chart td, table.chart th { font-size: 7pt; padding: 0.2mm 0.8mm; }
table.chart td:nth-child(2), table.chart th:nth-child(2) { text-align: left; }
""".strip()


def family_sheet(families: Sequence[Family]) -> str:
    """One printable A4 page: rules, figures per D, the optimal chart (cards).

    The chart and exact figures are for the profile's own number of packs.

    >>> text = family_sheet([solve_family(None)])
    >>> text.startswith("<!DOCTYPE html>"), "D = inf" in text, "exploitability" in text
    (True, True, True)
    """
    profile = families[0].profile
    main = next((f for f in families if f.decks == profile.decks), families[0])
    e = html.escape
    out = [
        *html_head(profile.key, f"{SHEET_CSS}\n{_CHART_CSS}"),
        "<body>",
        f"<h1>Lucky 9 exact odds: {e(profile.key)} (players and bank choose)</h1>",
        '<div class="rules">',
        f"<p><b>{e(profile.title)}</b></p>",
        f"<p><b>Rules:</b> {e(rules_line(profile))}</p>",
        "<p>Heads-up, one player against the bank. <b>Optimum</b>: the exact zero-sum "
        "equilibrium (exploitability 0, checked by both exact best responses); "
        f"information <b>cards</b>: {e(INFO_TEXT['cards'])}; <b>totals</b>: "
        f"{e(INFO_TEXT['totals'])}. <b>Standard rule</b>: draw on 0-5, stand on 6-8.</p>",
        '<div class="options">'
        + "<br>".join(f"{e(n)}: {e(t)}" for n, t in option_text(profile))
        + "</div>",
        "</div>",
        "<h2>Player's EV and probabilities per round, by number of packs D</h2>",
        "<table><tr><th>figure</th>"
        + "".join(f"<th>D = {deck_label(f.decks)}</th>" for f in families) + "</tr>",
    ]
    rows: list[tuple[str, Callable[[Family], Fraction]]] = [
        ("game value (cards)", lambda f: f.equilibria["cards"].value),
        ("game value (totals)", lambda f: f.equilibria["totals"].value),
        ("optimum (cards): player wins", lambda f: f.optimum["cards"].win),
        ("optimum (cards): push", lambda f: f.optimum["cards"].push),
        ("optimum (cards): bank wins", lambda f: f.optimum["cards"].loss),
        ("optimum (cards): player draws", lambda f: f.optimum["cards"].player_draws),
        ("optimum (cards): bank draws", lambda f: f.optimum["cards"].bank_draws),
        ("standard rule, both sides: EV", lambda f: f.standard.expected_value),
        ("standard rule: player wins", lambda f: f.standard.win),
        ("standard rule: push", lambda f: f.standard.push),
        ("standard rule: player draws", lambda f: f.standard.player_draws),
        ("standard-rule player, bank best response: EV",
         lambda f: f.response["cards"][1].expected_value),
    ]
    for label, get in rows:
        out.append(f"<tr><td>{e(label)}</td>"
                   + "".join(td_cell(decimal(get(f), 6)) for f in families) + "</tr>")
    out.append("</table>")
    out.append(f"<h2>Exact figures, D = {deck_label(main.decks)}</h2>")
    out.append("<table><tr><th>figure</th><th>decimal</th><th>exact</th></tr>")
    exact_rows: list[tuple[str, Fraction]] = [
        ("game value (cards)", main.equilibria["cards"].value),
        ("game value (totals)", main.equilibria["totals"].value),
        ("exploitability (cards, totals)",
         main.equilibria["cards"].exploitability + main.equilibria["totals"].exploitability),
        ("standard rule, both sides: EV", main.standard.expected_value),
        ("standard-rule player, bank best response: EV (cards)",
         main.response["cards"][1].expected_value),
    ]
    for label, value in exact_rows:
        out.append(f"<tr><td>{e(label)}</td>{td_cell(decimal(value))}"
                   f"{td_cell(fraction(value), 'exact')}</tr>")
    out.append("</table>")
    eq = main.equilibria["cards"]
    best, _ = main.response["cards"]
    out.append('<div class="pair">')
    for title, rows_ in (
        ("Optimal strategies (information: cards)", chart_rows(eq.game, eq.player, eq.bank)),
        ("Bank's best response to the standard rule",
         chart_rows(eq.game, main.rule[0], best)),
    ):
        out.append(f"<div><h2>{e(title)}, D = {deck_label(main.decks)}</h2>")
        out.append('<table class="chart"><tr>'
                   + "".join(f"<th>{e(c)}</th>" for c in rows_[0]) + "</tr>")
        for r in rows_[1:]:
            out.append("<tr>" + "".join(td_cell(c) for c in r) + "</tr>")
        out.append("</table></div>")
    out.append("</div>")
    out.append(
        '<p class="small">Cells: draw, stand, or the exact probability of drawing; cards '
        "0 = 10 J Q K. Decimals rounded half-even to 6 places (8 in the exact table); "
        "the totals chart, every D and every figure exactly in the files beside this sheet. "
        f"Generated by lucky9-odds {e(__version__)} (<code>lucky9 tables</code>).</p>"
    )
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"
