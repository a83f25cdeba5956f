"""The reference tables in ``tables/``: every fixed-rule built-in profile, every D.

For each built-in profile with a fixed rule and each shoe D in
{1, 2, 4, 6, 8, inf} this module computes the outcome summary, final-value
distributions, P(outcome | player two-card value), Colon frequencies, the
profile's pay table (EV, variance, sd, bank edge, break-even multipliers)
and the effect of removal, and renders them as Markdown, CSV and JSON; one
printable HTML sheet per profile; and ``README.md``, an index.

Output is byte-for-byte reproducible (no timestamps, fixed order).
:func:`write_tables` computes everything first, writes it into a temporary
folder inside the output folder, then moves each file into place with
``os.replace``: an interrupted run leaves the old tables intact.

The engine's counts depend on the draw rules, naturals and Colon matching,
never on the pay table, so ``standard``, ``plain`` and ``super9`` share
one enumeration per shoe (:func:`shared_odds`).  This module imports sympy
(through :mod:`odds.payout`); ``odds/__init__`` does not import it.
"""

from __future__ import annotations

import csv
import html
import io
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from odds.cards import POINTS, RANKS, Card, Rank
from odds.engine import round_odds
from odds.payout import bank_edge, break_even, pay_table, sqrt_decimal
from odds.payout_report import sd_exact
from odds.profiles import BUILTIN, OPTIONS, Profile
from odds.report import DIGITS, decimal, fraction, rules_line
from odds.results import RoundOdds
from odds.settle import Pay
from odds.shoe import Shoe

__all__ = [
    "DECKS",
    "Page",
    "Removal",
    "Section",
    "TablesError",
    "all_profiles",
    "build_tables",
    "csv_text",
    "json_text",
    "markdown",
    "page",
    "readme",
    "shared_odds",
    "shared_removal_effects",
    "sheet",
    "table_profiles",
    "table_steps",
    "write_tables",
]

DECKS: tuple[int | None, ...] = (1, 2, 4, 6, 8, None)  # None: the infinite shoe
MAX_PLAYERS = 8
Progress = Callable[[str], None]


class TablesError(ValueError):
    """An output folder the tables cannot be written to."""


def table_profiles() -> list[Profile]:
    """The built-in profiles with a fixed rule (``family`` is a game: issue 6).

    >>> [p.key for p in table_profiles()]
    ['standard', 'plain', 'forced-draw', 'super9', 'punto-banco']
    """
    # ez-baccarat (issue 15) joins when the tables are regenerated with every
    # bet of each profile; until then the committed tables stay byte for byte.
    return [p for p in BUILTIN.values() if p.fixed and p.key not in _NOT_YET_TABLED]


_NOT_YET_TABLED = frozenset({"ez-baccarat"})


def _shoe(decks: int | None) -> Shoe:
    return Shoe.infinite_shoe() if decks is None else Shoe.packs_of(decks)


def _d(decks: int | None) -> str:
    return "inf" if decks is None else str(decks)


# -- shared enumeration ---------------------------------------------------------


def _counting_key(profile: Profile) -> tuple[Any, ...]:
    """What the engine's counts depend on (see odds.engine): no pay-table entry."""
    return (profile.naturals, profile.naturals_rule, profile.naturals_stop_draws,
            profile.player_draw, profile.bank_draw, profile.colon_match)


OddsCache = dict[tuple[tuple[Any, ...], Shoe], RoundOdds]


def shared_odds(profile: Profile, shoe: Shoe, cache: OddsCache) -> RoundOdds:
    """``round_odds(profile, shoe)``, reusing counts of a profile that differs only in pay.

    >>> cache: OddsCache = {}
    >>> a = shared_odds(BUILTIN["standard"], Shoe.packs_of(1), cache)
    >>> b = shared_odds(BUILTIN["plain"], Shoe.packs_of(1), cache)
    >>> direct = round_odds(BUILTIN["plain"], Shoe.packs_of(1))
    >>> len(cache), b.expected_value == direct.expected_value
    (1, True)
    """
    key = (_counting_key(profile), shoe)
    result = cache.get(key)
    if result is None:
        result = cache[key] = round_odds(profile, shoe)
    return result if result.profile == profile else replace(result, profile=profile)


@dataclass(frozen=True)
class Removal:
    """One row of the effect-of-removal table: the change when one ``rank`` goes."""

    rank: Rank
    ev_change: Fraction
    win_change: Fraction


def shared_removal_effects(
    profile: Profile, shoe: Shoe, cache: OddsCache
) -> tuple[Removal, ...]:
    """The figures of :func:`odds.removal.removal_effects`, sharing enumerations.

    >>> from odds.removal import removal_effects
    >>> shoe = Shoe.packs_of(1)
    >>> shared = shared_removal_effects(BUILTIN["plain"], shoe, {})
    >>> direct = removal_effects(BUILTIN["plain"], shoe)
    >>> [(e.rank, e.ev_change, e.win_change) for e in direct] == [
    ...     (e.rank, e.ev_change, e.win_change) for e in shared]
    True
    """
    if shoe.infinite:
        raise ValueError(
            "removing a card does not change an infinite shoe; give a number of packs"
        )
    base = shared_odds(profile, shoe, cache)
    effects = []
    zeros: dict[int, Removal] = {}
    for rank in RANKS:
        count = shoe.counts[rank.index]
        if not count:
            continue
        # 10, J, Q and K are interchangeable in every rule (same point value;
        # a Colon needs equal ranks or, by value, equal points), so taking out
        # any one of them from equal numbers gives the same odds.
        twin = zeros.get(count) if POINTS[rank.index] == 0 else None
        if twin is not None:
            effects.append(Removal(rank, twin.ev_change, twin.win_change))
            continue
        after = shared_odds(profile, shoe.without([Card(rank)]), cache)
        effect = Removal(
            rank, after.expected_value - base.expected_value, after.win - base.win
        )
        if POINTS[rank.index] == 0:
            zeros[count] = effect
        effects.append(effect)
    return tuple(effects)


# -- one file's content: header plus sections of cells ------------------------------

Cell = str | int | Fraction | tuple[str, str]  # a (exact, decimal) pair for radicals


@dataclass(frozen=True)
class Section:
    """One table of a file: its columns and rows of cells."""

    key: str
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    note: str = ""
    count: int | None = None  # the total number of sequences, where it is given
    # A strategy chart: the first ``labels`` columns name the row, every other
    # cell is ``draw``, ``stand`` or the exact probability of drawing.
    labels: int = 0
    note_row: bool = False  # the CSV states the note in a row of its own


@dataclass(frozen=True)
class Page:
    """Everything about one profile and one shoe (``result``: None for a game)."""

    profile: Profile
    decks: int | None
    result: RoundOdds | None
    sections: tuple[Section, ...]


def _option_text(profile: Profile) -> list[tuple[str, str]]:
    rows = [(opt.name, opt.text(getattr(profile, opt.attr))) for opt in OPTIONS]
    # The profile's own shoe size is an option; every table states the D it is for.
    return [(name, f"{text} (the profile's default; each table names its D)"
             if name == "decks" else text) for name, text in rows]


def _shoe_text(decks: int | None) -> str:
    if decks is None:
        return "D = inf (the infinite shoe: every card drawn with replacement)"
    return f"D = {decks} ({decks} pack{'s' if decks > 1 else ''} of 52, {52 * decks} cards)"


def _header(profile: Profile, decks: int | None) -> dict[str, Any]:
    from odds import __version__

    return {
        "profile": profile.key,
        "title": profile.title,
        "decks": _d(decks),
        "shoe": _shoe_text(decks),
        "rules": rules_line(profile),
        "options": profile.options(),
        "tool": f"lucky9-odds {__version__}",
        "decimals": f"rounded half-even to {DIGITS} places; fractions exact",
    }


def _break_even_cell(result: RoundOdds, entry: str) -> tuple[Cell, str]:
    found = break_even(result, entry)
    value = found.fraction
    if value is None:
        return "any" if found.always else "none", "EV does not depend on it"
    return value, "" if found.payable else "negative: no pay table reaches it"


def page(profile: Profile, decks: int | None, cache: OddsCache) -> Page:
    """The sections of one profile and shoe (exact values as Fractions).

    >>> p = page(BUILTIN["plain"], None, {})
    >>> [s.key for s in p.sections][:3]
    ['summary', 'final_values', 'by_player_value']
    """
    shoe = _shoe(decks)
    r = shared_odds(profile, shoe, cache)
    sections = []
    summary: list[tuple[Cell, ...]] = [("win", r.win), ("push", r.push), ("loss", r.loss)]
    summary += [(name, value) for name, value in r.categories.items()]
    summary += [("player draws", r.player_draws), ("bank draws", r.bank_draws)]
    sections.append(Section(
        "summary", "Outcome summary (player seat against the bank)", ("quantity", "probability"),
        tuple(summary),
        f"total sequences: {r.total} ordered six-card deals (unused third-card slots "
        "filled), the denominator of every probability here",
        r.total,
    ))
    sections.append(Section(
        "final_values", "Final-value distributions", ("value", "player", "bank"),
        tuple((str(v), r.player_final[v], r.bank_final[v]) for v in range(10)),
    ))
    sections.append(Section(
        "by_player_value", "P(outcome | player two-card value)",
        ("player value", "P(value)", "win", "push", "loss", "player EV"),
        tuple(
            (str(v), row["probability"], row["win"], row["push"], row["loss"],
             row["expected_value"])
            for v, row in r.by_value("player").items()
        ),
        "player EV: the seat's expected net payout per unit stake under the pay table below",
    ))
    sections.append(Section(
        "colon", "Colon and Colon-nine frequencies (first two cards)",
        ("hand", "probability"),
        (("player Colon (nines included)", r.player_colon),
         ("player Colon nine", r.player_colon_nine),
         ("bank Colon (nines included)", r.bank_colon),
         ("bank Colon nine", r.bank_colon_nine)),
        f"a Colon is a pair by {profile.colon_match.value}",
    ))
    pay = pay_table(profile)
    pay_rows: list[tuple[Cell, ...]] = []
    for entry, value in pay.items():
        cell, note = _break_even_cell(r, entry)
        pay_rows.append((entry, f"{value.numerator}:{value.denominator}", value, cell, note))
    sections.append(Section(
        "pay_table", "Pay table and break-even multipliers",
        ("entry", "pays", "multiplier", "break-even", "note"), tuple(pay_rows),
        "break-even: the multiplier that makes its bet's EV exactly 0, "
        "the other entries as set",
    ))
    moments = {bet: r.bet_moments(bet) for bet in r.bets}
    rows: list[tuple[Cell, ...]] = [
        ("expected value", *(ev for ev, _ in moments.values())),
        ("variance", *(var for _, var in moments.values())),
        ("standard deviation",
         *((sd_exact(var), sqrt_decimal(var)) for _, var in moments.values())),
        ("bank edge per unit staked", *(bank_edge(ev)[0] for ev, _ in moments.values())),
    ]
    sections.append(Section(
        "money", "Money per unit stake", ("quantity", *(f"{b} bet" for b in moments)),
        tuple(rows),
        "the bank's (house's) edge is the negative of the bet's expected value",
    ))
    sections.append(Section(
        "bank_edge", "The bank's edge per round at a table of N players",
        ("players", *(f"{b} bet" for b in moments)),
        tuple((str(n), *(bank_edge(ev, n)[1] for ev, _ in moments.values()))
              for n in range(1, MAX_PLAYERS + 1)),
        "N x the seat figure, each player staking one unit: under fixed rules every seat "
        "has the heads-up odds whatever N and its position (exchangeability of the shoe), "
        "and expectations add although the seats share the bank's hand",
    ))
    counts = r.pay_counts()
    sections.append(Section(
        "pay_entries", "How the player seat is settled (pay-table entry frequencies)",
        ("entry", "probability"),
        tuple((entry.value, r.probability(counts[entry])) for entry in Pay if entry in counts),
        "bank_colon(_nine): a bank Colon beat the player and collected its multiplier",
    ))
    if shoe.infinite:
        sections.append(Section(
            "removal", "Effect of removal", ("rank", "EV change", "P(win) change"), (),
            "not defined for the infinite shoe: removing a card does not change it",
        ))
    else:
        effects = shared_removal_effects(profile, shoe, cache)
        sections.append(Section(
            "removal", "Effect of removal (one card of a rank taken out)",
            ("rank", "EV change", "P(win) change"),
            tuple((e.rank.value, e.ev_change, e.win_change) for e in effects),
            "exact change in the player seat's EV and P(win); weighted by the shoe's "
            "composition the changes sum to 0",
        ))
    return Page(profile, decks, r, tuple(sections))


# -- renderers ------------------------------------------------------------------


def _exact(cell: Cell) -> tuple[str, str] | None:
    """(exact, decimal) for a number cell, None for a label."""
    if isinstance(cell, Fraction):
        return fraction(cell), decimal(cell)
    if isinstance(cell, int):
        return str(cell), str(cell)
    if isinstance(cell, tuple):
        return cell
    return None


def _numeric_columns(section: Section) -> list[bool]:
    return [any(_exact(row[i]) is not None for row in section.rows)
            for i in range(len(section.columns))]


def _file_name(profile: Profile, decks: int | None, ext: str) -> str:
    return f"{profile.key}/{profile.key}-d{_d(decks)}.{ext}"


def markdown(p: Page) -> str:
    """A page as Markdown: header, then each section with decimal and exact columns.

    >>> text = markdown(page(BUILTIN["plain"], None, {}))
    >>> text.splitlines()[0]
    '# plain, D = inf: exact odds of one round'
    >>> "| win | 0.45297504 | 2186424/4826809 |" in text
    True
    """
    h = _header(p.profile, p.decks)
    lines = [
        f"# {p.profile.key}, D = {h['decks']}: exact odds of one round",
        "",
        f"{p.profile.title}",
        "",
        f"- profile: `{p.profile.key}` ({p.profile.source})",
        f"- shoe: {h['shoe']}",
        f"- rules: {h['rules']}",
        f"- tool: {h['tool']} (`lucky9 tables`)",
        f"- decimals {h['decimals']}; probabilities per round, from the player seat's side",
        "",
        "| option | value |",
        "|---|---|",
    ]
    lines += [f"| {name} | {text} |" for name, text in _option_text(p.profile)]
    for s in p.sections:
        lines += ["", f"## {s.title}", ""]
        if s.note:
            lines += [f"{s.note}.", ""]
        if not s.rows:
            continue
        numeric = _numeric_columns(s)
        head: list[str] = []
        for name, num in zip(s.columns, numeric, strict=True):
            head += [name, f"{name} (exact)"] if num else [name]
        lines.append("| " + " | ".join(head) + " |")
        lines.append("|" + "|".join("---:" if h_ != s.columns[0] else "---" for h_ in head) + "|")
        for row in s.rows:
            cells: list[str] = []
            for cell, num in zip(row, numeric, strict=True):
                pair = _exact(cell)
                if num:
                    cells += [pair[1], pair[0]] if pair else [str(cell), ""]
                else:
                    cells.append(str(cell))
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def csv_text(p: Page) -> str:
    """A page as CSV: ``#`` header rows, then one row per number (long form).

    >>> lines = csv_text(page(BUILTIN["plain"], None, {})).splitlines()
    >>> lines[0]
    '# profile,plain,standard Lucky 9 without pair bonuses (for beginners)'
    >>> for line in lines:
    ...     if line.startswith("pay_table,"):
    ...         print(line)
    pay_table,win,multiplier,1,1.00000000,pays: 1:1
    pay_table,win,break-even,1,1.00000000,pays: 1:1
    """
    h = _header(p.profile, p.decks)
    buffer = io.StringIO()
    w = csv.writer(buffer, lineterminator="\n")
    w.writerow(["# profile", p.profile.key, p.profile.title])
    w.writerow(["# decks", h["decks"], h["shoe"]])
    w.writerow(["# rules", h["rules"]])
    for name, text in _option_text(p.profile):
        w.writerow(["# option", name, text])
    w.writerow(["# tool", h["tool"]])
    w.writerow(["# decimals", h["decimals"]])
    w.writerow(["section", "row", "column", "fraction", "decimal", "note"])
    for s in p.sections:
        if s.count is not None:
            w.writerow([s.key, "total sequences", "count", s.count, s.count, ""])
        if not s.rows or s.note_row:
            w.writerow([s.key, "", "", "", "", s.note])
        if not s.rows:
            continue
        if s.labels:
            _chart_csv(w, s)
            continue
        numeric = _numeric_columns(s)
        for row in s.rows:
            # The first column names the row; other text columns go to the note.
            note = "; ".join(
                f"{name}: {cell}"
                for cell, name, num in zip(row[1:], s.columns[1:], numeric[1:], strict=True)
                if not num and str(cell)
            )
            for cell, name, num in zip(row, s.columns, numeric, strict=True):
                pair = _exact(cell)
                if num:
                    exact, dec = pair if pair else (str(cell), "")
                    w.writerow([s.key, str(row[0]), name, exact, dec, note])
    return buffer.getvalue()


def _chart_csv(w: Any, s: Section) -> None:
    """A chart's cells: the draw probability, exact and decimal, the cell as a note."""
    for row in s.rows:
        name = " ".join(str(c) for c in row[:s.labels])
        for cell, column in zip(row[s.labels:], s.columns[s.labels:], strict=True):
            text = str(cell).strip("()")
            value = {"draw": Fraction(1), "stand": Fraction(0)}.get(text)
            if value is None and text != "-":
                value = Fraction(text)
            if value is None:
                w.writerow([s.key, name, column, "", "", "cannot happen"])
            else:
                w.writerow([s.key, name, column, fraction(value), decimal(value), str(cell)])


def json_text(p: Page) -> str:
    """A page as JSON: header, then sections with exact and decimal values.

    >>> data = json.loads(json_text(page(BUILTIN["plain"], None, {})))
    >>> data["header"]["decks"], data["sections"]["summary"]["rows"][0]  # doctest: +ELLIPSIS
    ('inf', {'quantity': 'win', 'probability': {'fraction': '2186424/4826809', 'decimal': ...}})
    """

    def cell(c: Cell) -> Any:
        pair = _exact(c)
        if pair is None:
            return c
        if isinstance(c, int):
            return c
        return {"fraction": pair[0], "decimal": pair[1]}

    data = {
        "header": _header(p.profile, p.decks),
        "sections": {
            s.key: {
                "title": s.title,
                "note": s.note,
                **({} if s.count is None else {"total_sequences": s.count}),
                "columns": list(s.columns),
                "rows": [dict(zip(s.columns, map(cell, row), strict=True)) for row in s.rows],
            }
            for s in p.sections
        },
    }
    return json.dumps(data, indent=2) + "\n"


# -- the printable sheet ----------------------------------------------------------

_CSS = """
@page { size: A4; margin: 11mm; }
* { box-sizing: border-box; }
body { font: 8.4pt/1.25 "DejaVu Sans", Arial, sans-serif; color: #000; margin: 0; }
h1 { font-size: 14pt; margin: 0 0 1mm; }
h2 { font-size: 9.5pt; margin: 2.2mm 0 0.8mm; border-bottom: 0.3mm solid #000; }
p { margin: 0.6mm 0; }
.rules { border: 0.3mm solid #000; padding: 1.2mm 2mm; }
.options { columns: 2; font-size: 7pt; margin-top: 1mm; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 0.25mm 1.2mm; border-bottom: 0.1mm solid #999; text-align: right; }
th:first-child, td:first-child { text-align: left; }
td.exact { font-size: 6.3pt; color: #333; }
.small { font-size: 6.8pt; color: #333; }
@media screen { body { max-width: 190mm; margin: 8mm auto; } }
""".strip()


def _td(text: str, cls: str = "") -> str:
    return f'<td class="{cls}">{html.escape(text)}</td>' if cls else f"<td>{html.escape(text)}</td>"


def _bet_ev(bet: str) -> Callable[[RoundOdds], Fraction]:
    return lambda result: result.bet_moments(bet)[0]


def html_head(key: str, css: str) -> list[str]:
    """The opening lines of a profile's HTML sheet, through ``</head>``.

    >>> html_head("plain", "p {}")[4], html_head("plain", "p {}")[-1]
    ('<title>Lucky 9 odds: plain</title>', '</head>')
    """
    return [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>Lucky 9 odds: {html.escape(key)}</title>",
        f"<style>\n{css}\n</style>",
        "</head>",
    ]


def sheet(profile: Profile, results: Sequence[tuple[int | None, RoundOdds]]) -> str:
    """One printable A4 page for a profile: rules and pay table, key figures per D.

    ``results`` hold the profile's round for every D; the detail tables are
    for the profile's own number of packs.

    >>> text = sheet(BUILTIN["plain"], [(None, round_odds(BUILTIN["plain"], Shoe.infinite_shoe()))])
    >>> text.startswith("<!DOCTYPE html>"), "D = inf" in text
    (True, True)
    """
    from odds import __version__

    main_d, r = next(((d, x) for d, x in results if d == profile.decks), results[0])
    e = html.escape
    out = [
        *html_head(profile.key, _CSS),
        "<body>",
        f"<h1>Lucky 9 exact odds: {e(profile.key)}</h1>",
        '<div class="rules">',
        f"<p><b>{e(profile.title)}</b></p>",
        f"<p><b>Rules:</b> {e(rules_line(profile))}</p>",
        "<p><b>Pay table</b> (net per unit stake): "
        + e(", ".join(f"{k} {v.numerator}:{v.denominator}"
                      for k, v in pay_table(profile).items()))
        + "</p>",
        '<div class="options">'
        + "<br>".join(f"{e(n)}: {e(t)}" for n, t in _option_text(profile))
        + "</div>",
        "</div>",
    ]
    # Key figures for every D.
    decks = [d for d, _ in results]
    out.append("<h2>Per round, player seat against the bank, by number of packs D</h2>")
    out.append("<table><tr><th>figure</th>"
               + "".join(f"<th>D = {_d(d)}</th>" for d in decks) + "</tr>")
    rows: list[tuple[str, Callable[[RoundOdds], Fraction]]] = [
        ("win", lambda x: x.win), ("push", lambda x: x.push), ("loss", lambda x: x.loss),
    ]
    for bet in r.bets:
        rows.append((f"{bet} bet EV", _bet_ev(bet)))
    rows.append(("bank edge per player seat", lambda x: -x.expected_value))
    rows += [("player Colon", lambda x: x.player_colon),
             ("player Colon nine", lambda x: x.player_colon_nine)]
    for label, get in rows:
        out.append(f"<tr><td>{e(label)}</td>"
                   + "".join(_td(decimal(get(x), 6)) for _, x in results) + "</tr>")
    out.append("</table>")
    out.append(f"<h2>Exact figures, D = {_d(main_d)}</h2>")
    out.append("<table><tr><th>figure</th><th>decimal</th><th>exact</th></tr>")
    exact_rows: list[tuple[str, Cell]] = [("win", r.win), ("push", r.push), ("loss", r.loss)]
    for bet in r.bets:
        ev, var = r.bet_moments(bet)
        exact_rows += [(f"{bet} bet EV", ev), (f"{bet} bet variance", var),
                       (f"{bet} bet standard deviation", (sd_exact(var), sqrt_decimal(var)))]
    for label, value in exact_rows:
        pair = _exact(value)
        assert pair is not None
        out.append(f"<tr><td>{e(label)}</td>{_td(pair[1])}{_td(pair[0], 'exact')}</tr>")
    out.append("</table>")
    out.append(f"<h2>Break-even multipliers (EV exactly 0), D = {_d(main_d)}</h2>")
    out.append("<table><tr><th>entry</th><th>pays</th><th>break-even</th>"
               "<th>exact</th><th>note</th></tr>")
    for entry, value in pay_table(profile).items():
        pays = f"{value.numerator}:{value.denominator}"
        cell, note = _break_even_cell(r, entry)
        pair = _exact(cell)
        dec, exact = (pair[1], pair[0]) if pair else (str(cell), "")
        out.append(f"<tr><td>{e(entry)}</td>{_td(pays)}{_td(dec)}"
                   f"{_td(exact, 'exact')}<td>{e(str(note))}</td></tr>")
    out.append("</table>")
    out.append(f"<h2>P(outcome | player two-card value), D = {_d(main_d)}</h2>")
    out.append("<table><tr><th>player value</th><th>P(value)</th><th>win</th><th>push</th>"
               "<th>loss</th><th>player EV</th></tr>")
    for v, row in r.by_value("player").items():
        out.append(f"<tr><td>{v}</td>" + "".join(
            _td(decimal(row[k], 6))
            for k in ("probability", "win", "push", "loss", "expected_value")
        ) + "</tr>")
    out.append("</table>")
    out.append(
        '<p class="small">Decimals rounded half-even to 6 places; exact fractions and more '
        f"tables (final values, Colon frequencies, effect of removal) in "
        f"tables/{e(profile.key)}/. Bank edge per round at N players = N x the per-player "
        f"figure. Generated by lucky9-odds {e(__version__)} (<code>lucky9 tables</code>).</p>"
    )
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


# -- the index ----------------------------------------------------------------------


def readme(profiles: Sequence[Profile], decks: Sequence[int | None]) -> str:
    """``tables/README.md``: what is here and how it was made.

    >>> readme([BUILTIN["plain"]], [None]).splitlines()[-1]  # doctest: +ELLIPSIS
    '| `plain`: ... | [sheet](plain/plain-sheet.html) | [md](plain/plain-dinf.md) ... |'
    """
    from odds import __version__

    lines = [
        "# Reference tables",
        "",
        f"Generated by `lucky9 tables` (lucky9-odds {__version__}); do not edit by hand.",
        "Every figure is exact: integer counts of card sequences divided once; decimals are",
        f"rounded half-even to {DIGITS} places ({6} on the printable sheets).",
        "The output is byte-for-byte reproducible: `lucky9 tables --out DIR` and compare.",
        "",
        "Each file's header names the profile, every option, the shoe (D packs, or inf: the",
        "infinite shoe, cards drawn with replacement) and the tool version.",
        "",
        "Contents of every profile/shoe file: outcome summary with the total number of",
        "sequences; final-value distributions; P(outcome | player two-card value); Colon and",
        "Colon-nine frequencies (player and bank); the pay table with break-even multipliers;",
        "EV, variance and standard deviation per bet; the bank's edge per unit staked and per",
        "round at N = 1..8 players (N x the seat figure: under fixed rules every seat has the",
        "heads-up odds); pay-entry frequencies; the effect of removal (not defined for the",
        "infinite shoe: removing a card does not change it).",
        "",
        "Formats: Markdown (`.md`, to read), CSV (`.csv`, long form: section, row, column,",
        "fraction, decimal), JSON (`.json`), and one printable A4 sheet per profile (`.html`).",
        "",
        "`family` has no fixed rule: its players and bank choose whether to draw, so its",
        "files hold the solved heads-up game (`lucky9 solve`, docs/family-game.md): under",
        "the exact zero-sum equilibrium (information models `cards`, each side knows its",
        "own two cards, and `totals`, each acts on its two-card value) the game value",
        "(player's EV), P(win/push/loss), P(player draws), P(bank draws) and the optimal",
        "strategy charts (draw, stand or the exact probability of drawing, per own hand;",
        "the bank's columns after the player stood or drew), checked by both exact best",
        "responses (exploitability 0); the same figures with both sides on the standard",
        "rule (draw on 0-5: EV exactly 0 by symmetry), and the bank's best response to",
        "standard-rule players; its sheet compares them for every D.",
        "",
        "| profile | sheet | " + " | ".join(f"D = {_d(d)}" for d in decks) + " |",
        "|---|---|" + "---|" * len(decks),
    ]
    for p in profiles:
        cells = []
        for d in decks:
            links = [f"[{ext}]({_file_name(p, d, ext)})" for ext in ("md", "csv", "json")]
            cells.append(" ".join(links))
        lines.append(f"| `{p.key}`: {p.title} | [sheet]({p.key}/{p.key}-sheet.html) | "
                     + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


# -- building and writing -----------------------------------------------------------


def all_profiles() -> list[Profile]:
    """Every profile of the full set: the fixed-rule ones, then ``family`` (a game).

    >>> [p.key for p in all_profiles()][-1]
    'family'
    """
    return [*table_profiles(), BUILTIN["family"]]


def table_steps(
    profiles: Sequence[Profile] | None = None, decks: Sequence[int | None] = DECKS
) -> int:
    """How many progress steps :func:`build_tables` reports (one per profile and D).

    >>> table_steps()
    36
    """
    return len(all_profiles() if profiles is None else profiles) * len(decks)


def build_tables(
    profiles: Sequence[Profile] | None = None,
    decks: Sequence[int | None] = DECKS,
    progress: Progress | None = None,
) -> dict[str, str]:
    """Every file of ``tables/`` as {relative path: text}, computed in memory.

    ``progress`` is called with a label after each profile and shoe.  With
    the defaults this is the full set, ``README.md`` included; a subset
    (for tests) leaves the index out.  A profile where people choose
    (``family``) gets the solved game's pages (:mod:`odds.family_tables`).

    >>> files = build_tables([BUILTIN["plain"]], [None])
    >>> sorted(files)  # doctest: +NORMALIZE_WHITESPACE
    ['plain/plain-dinf.csv', 'plain/plain-dinf.json', 'plain/plain-dinf.md',
     'plain/plain-sheet.html']
    """
    chosen = all_profiles() if profiles is None else list(profiles)
    cache: OddsCache = {}
    files: dict[str, str] = {}
    for profile in chosen:
        if not profile.fixed:
            files.update(_game_files(profile, decks, progress))
            continue
        for d in decks:
            q = page(profile, d, cache)
            files[_file_name(profile, d, "md")] = markdown(q)
            files[_file_name(profile, d, "csv")] = csv_text(q)
            files[_file_name(profile, d, "json")] = json_text(q)
            if progress is not None:
                progress(f"{profile.key} D={_d(d)}")
        results = [(d, shared_odds(profile, _shoe(d), cache)) for d in DECKS]
        files[f"{profile.key}/{profile.key}-sheet.html"] = sheet(profile, results)
    if profiles is None and tuple(decks) == DECKS:
        files["README.md"] = readme(chosen, decks)
    return files


def _game_files(
    profile: Profile, decks: Sequence[int | None], progress: Progress | None
) -> dict[str, str]:
    from odds.family_tables import family_page, family_sheet, solve_family

    files: dict[str, str] = {}
    solved = []
    for d in decks:
        f = solve_family(d, profile)
        solved.append(f)
        q = family_page(f)
        files[_file_name(profile, d, "md")] = markdown(q)
        files[_file_name(profile, d, "csv")] = csv_text(q)
        files[_file_name(profile, d, "json")] = json_text(q)
        if progress is not None:
            progress(f"{profile.key} D={_d(d)}")
    files[f"{profile.key}/{profile.key}-sheet.html"] = family_sheet(solved)
    return files


def write_tables(
    out: str | Path,
    profiles: Sequence[Profile] | None = None,
    decks: Sequence[int | None] = DECKS,
    progress: Progress | None = None,
) -> list[str]:
    """Compute and write the tables into ``out``; returns the paths written.

    The folder is checked first; files are written to a temporary folder
    inside ``out`` and moved into place one by one with ``os.replace``, so
    an interrupted run leaves every old file whole.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     write_tables(tmp, [BUILTIN["plain"]], [None])[-1]
    'plain/plain-sheet.html'
    >>> write_tables("/dev/null/tables", [BUILTIN["plain"]], [None])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    odds.tables.TablesError: cannot write tables to '/dev/null/tables': [Errno 20] Not a ...
    """
    out = Path(out)
    created = not out.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".lucky9-tables-", dir=out))
    except OSError as exc:
        raise TablesError(f"cannot write tables to {str(out)!r}: {exc}") from None
    try:
        files = build_tables(profiles, decks, progress)
        try:
            for rel, text in files.items():
                target = staging / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                with open(target, "w", encoding="utf-8", newline="\n") as f:
                    f.write(text)
            for rel in files:
                (out / rel).parent.mkdir(parents=True, exist_ok=True)
            for rel in files:
                os.replace(staging / rel, out / rel)
        except OSError as exc:
            raise TablesError(f"cannot write tables to {str(out)!r}: {exc}") from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        if created:
            shutil.rmtree(out, ignore_errors=True)
        raise
    shutil.rmtree(staging, ignore_errors=True)
    return list(files)
