"""The printable A4 HTML sheet of a profile's reference tables."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from fractions import Fraction

from odds._version import __version__
from odds.exact.results import RoundOdds
from odds.money.payout import pay_table, sqrt_decimal
from odds.report.payout_report import sd_exact
from odds.report.tables import Cell, break_even_cell, deck_label, exact_cell, option_text
from odds.rules.profile import Profile
from odds.rules.text import decimal, rules_line

__all__ = [
    "sheet",
]

# -- the printable sheet ----------------------------------------------------------

SHEET_CSS = """
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


def td_cell(text: str, cls: str = "") -> str:
    """A table cell of escaped text, of class ``cls`` if given.

    >>> td_cell("1 < 2", "exact")
    '<td class="exact">1 &lt; 2</td>'
    """
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

    >>> from odds import BUILTIN, Shoe, round_odds
    >>> text = sheet(BUILTIN["plain"], [(None, round_odds(BUILTIN["plain"], Shoe.infinite_shoe()))])
    >>> text.startswith("<!DOCTYPE html>"), "D = inf" in text
    (True, True)
    """
    main_d, r = next(((d, x) for d, x in results if d == profile.decks), results[0])
    e = html.escape
    out = [
        *html_head(profile.key, SHEET_CSS),
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
        + "<br>".join(f"{e(n)}: {e(t)}" for n, t in option_text(profile))
        + "</div>",
        "</div>",
    ]
    # Key figures for every D.
    decks = [d for d, _ in results]
    out.append("<h2>Per round, player seat against the bank, by number of packs D</h2>")
    out.append("<table><tr><th>figure</th>"
               + "".join(f"<th>D = {deck_label(d)}</th>" for d in decks) + "</tr>")
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
                   + "".join(td_cell(decimal(get(x), 6)) for _, x in results) + "</tr>")
    out.append("</table>")
    out.append(f"<h2>Exact figures, D = {deck_label(main_d)}</h2>")
    out.append("<table><tr><th>figure</th><th>decimal</th><th>exact</th></tr>")
    exact_rows: list[tuple[str, Cell]] = [("win", r.win), ("push", r.push), ("loss", r.loss)]
    for bet in r.bets:
        ev, var = r.bet_moments(bet)
        exact_rows += [(f"{bet} bet EV", ev), (f"{bet} bet variance", var),
                       (f"{bet} bet standard deviation", (sd_exact(var), sqrt_decimal(var)))]
    for label, value in exact_rows:
        pair = exact_cell(value)
        assert pair is not None
        out.append(f"<tr><td>{e(label)}</td>{td_cell(pair[1])}{td_cell(pair[0], 'exact')}</tr>")
    out.append("</table>")
    out.append(f"<h2>Break-even multipliers (EV exactly 0), D = {deck_label(main_d)}</h2>")
    out.append("<table><tr><th>entry</th><th>pays</th><th>break-even</th>"
               "<th>exact</th><th>note</th></tr>")
    for entry, value in pay_table(profile).items():
        pays = f"{value.numerator}:{value.denominator}"
        cell, note = break_even_cell(r, entry)
        pair = exact_cell(cell)
        dec, exact = (pair[1], pair[0]) if pair else (str(cell), "")
        out.append(f"<tr><td>{e(entry)}</td>{td_cell(pays)}{td_cell(dec)}"
                   f"{td_cell(exact, 'exact')}<td>{e(str(note))}</td></tr>")
    out.append("</table>")
    out.append(f"<h2>P(outcome | player two-card value), D = {deck_label(main_d)}</h2>")
    out.append("<table><tr><th>player value</th><th>P(value)</th><th>win</th><th>push</th>"
               "<th>loss</th><th>player EV</th></tr>")
    for v, row in r.by_value("player").items():
        out.append(f"<tr><td>{v}</td>" + "".join(
            td_cell(decimal(row[k], 6))
            for k in ("probability", "win", "push", "loss", "expected_value")
        ) + "</tr>")
    out.append("</table>")
    out.append(
        '<p class="small">Probabilities, and money (EV, edge) per unit stake, as decimals '
        "rounded half-even to 6 places; exact fractions and more tables (final values, Colon "
        "frequencies, effect of removal) in the files beside this sheet. Bank edge per round "
        "at N players = N x the per-player "
        f"figure. Generated by lucky9-odds {e(__version__)} (<code>lucky9 tables</code>).</p>"
    )
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"
