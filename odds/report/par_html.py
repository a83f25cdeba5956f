"""The PAR sheet as print-ready HTML (A4, one or two pages), with SVG charts.

The charts (effect of removal per rank; house edge by number of packs) are
drawn by matplotlib, the optional ``plot`` extra, and inlined as SVG; without
matplotlib the sheet says plainly that they were left out.  Every figure
comes from :func:`odds.report.par.par_data`.
"""

from __future__ import annotations

import html
import io
from fractions import Fraction
from typing import Any

from odds.report.par_format import (
    RETURN_TITLE,
    estimate_text,
    ev_percent,
    fraction_decimal,
    hit_percent,
    study_line,
)
from odds.report.sheet import html_head
from odds.rules.cards import RANKS
from odds.rules.text import decimal

__all__ = ["charts", "par_html"]

_CSS = """
@page { size: A4; margin: 11mm; }
* { box-sizing: border-box; }
body { font: 8.2pt/1.25 "DejaVu Sans", Arial, sans-serif; color: #000; margin: 0; }
h1 { font-size: 14pt; margin: 0 0 1mm; }
h2 { font-size: 9.5pt; margin: 2.4mm 0 0.8mm; border-bottom: 0.3mm solid #000;
     break-after: avoid; }
p { margin: 0.6mm 0; }
.box { border: 0.3mm solid #000; padding: 1.2mm 2mm; }
table { border-collapse: collapse; width: 100%; break-inside: avoid; }
th, td { padding: 0.25mm 1mm; border-bottom: 0.1mm solid #999; text-align: right;
         white-space: nowrap; }
th:first-child, td:first-child { text-align: left; white-space: normal; }
td.n { font-size: 6.6pt; font-family: "DejaVu Sans Mono", monospace; }
th.exact { text-align: left; }
td.exact { font-size: 6pt; color: #333; text-align: left; white-space: normal;
           word-break: break-all; }
.small { font-size: 6.8pt; color: #333; }
.row { display: flex; gap: 3mm; align-items: flex-start; break-inside: avoid; }
.row > div { flex: 1 1 0; min-width: 0; }
svg { width: 100%; height: auto; }
ul { margin: 0.5mm 0 0.5mm 4mm; padding: 0; }
li { margin: 0.3mm 0; }
.page { break-before: page; }
@media screen { body { max-width: 190mm; margin: 8mm auto; } }
""".strip()


def _svg(fig: Any) -> str:
    """A matplotlib figure as inline SVG: no XML prolog, reproducible ids, no date."""
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    text = buffer.getvalue()
    return text[text.index("<svg"):].strip()


def charts(data: dict[str, Any]) -> dict[str, str] | None:
    """The sheet's charts as inline SVG, or None when matplotlib is not installed.

    Keys: ``removal`` (bar chart of the effect of removal per rank) and
    ``edge`` (house edge by number of packs).
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    plt.rcParams["svg.hashsalt"] = "lucky9-par"  # the same ids every run
    plt.rcParams["svg.fonttype"] = "none"  # text as text: smaller, and searchable
    out = {}
    effects = data["removal"]["effects"]
    values = [float(Fraction(e["ev_change"])) * 100 for e in effects]
    fig, ax = plt.subplots(figsize=(4.2, 2.0))
    ax.bar([e["rank"] for e in effects], values,
           color=["#2b6cb0" if v >= 0 else "#c05621" for v in values])
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_ylabel("EV change, % per card", fontsize=7)
    ax.set_title(f"effect of removing one card ({data['removal']['shoe']})", fontsize=8)
    ax.tick_params(labelsize=7)
    fig.tight_layout()
    out["removal"] = _svg(fig)
    plt.close(fig)
    sizes = data["shoe_sizes"]
    fig, ax = plt.subplots(figsize=(4.2, 2.0))
    finite = [s for s in sizes if s["decks"] != "inf"]
    ax.plot([int(s["decks"]) for s in finite],
            [float(Fraction(s["house_edge"])) * 100 for s in finite], marker="o")
    inf = [s for s in sizes if s["decks"] == "inf"]
    if inf:
        ax.axhline(float(Fraction(inf[0]["house_edge"])) * 100, color="grey", linestyle="--",
                   linewidth=0.8, label="infinite shoe")
        ax.legend(fontsize=7)
    ax.set_xlabel("packs", fontsize=7)
    ax.set_ylabel("house edge, %", fontsize=7)
    ax.set_title("house edge by number of packs", fontsize=8)
    ax.tick_params(labelsize=7)
    fig.tight_layout()
    out["edge"] = _svg(fig)
    plt.close(fig)
    return out


def _cell(text: str, cls: str = "n") -> str:
    return f'<td class="{cls}">{html.escape(text)}</td>'


def _sd(text: str) -> str:
    """The standard deviation (8 places in the data) to 4 places."""
    return decimal(Fraction(text), 4)


def par_html(data: dict[str, Any], drawn: dict[str, str] | None | bool = True) -> str:
    """The sheet as HTML for A4 paper (``drawn``: charts, True to draw them, None: left out).

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.report.par import par_data, par_sheet
    >>> page = par_html(par_data(par_sheet(BUILTIN["ez-baccarat"], "dragon-7", count=False)),
    ...                 drawn=None)
    >>> "charts were left out" in page, page.startswith("<!DOCTYPE html>")
    (True, True)
    """
    e = html.escape
    if drawn is True:
        drawn = charts(data)
    pictures = drawn if isinstance(drawn, dict) else None
    bet = data["bet"]
    sizes = data["shoe_sizes"]
    heads = "".join(f"<th>D = {e(s['decks'])}</th>" for s in sizes)
    out = [*html_head(f"{data['profile']} {bet['name']} PAR sheet", _CSS), "<body>",
           f"<h1>PAR sheet: {e(bet['name'])} ({e(data['profile'])})</h1>",
           '<div class="box">',
           f"<p><b>{e(data['title'])}</b></p>",
           f"<p><b>Rules:</b> {e(data['rules'])}</p>",
           f"<p><b>The bet</b> ({e(bet['side'])} side): {e(bet['description'])}.</p>",
           "<p><b>Pays:</b> " + "; ".join(f"{e(r['line'])}: {e(r['in_words'])}"
                                         for r in bet["pay_table"]) + ".</p>",
           "</div>"]
    if pictures is None:
        out.append('<p class="small"><b>The charts were left out:</b> matplotlib is not '
                   "installed (pip install 'lucky9-odds[plot]', or pip install matplotlib). "
                   "Every figure is in the tables.</p>")
    out += ["<h2>Combinations per pay line, by number of packs D</h2>",
            f"<table><tr><th>line</th>{heads}</tr>"]
    for i, row in enumerate(bet["pay_table"]):
        out.append(f"<tr><td>{e(row['line'])}</td>" + "".join(
            _cell(f"{s['lines'][i]['combinations']:,}") for s in sizes) + "</tr>")
    out.append("<tr><td>total</td>" + "".join(_cell(f"{s['total_combinations']:,}")
                                              for s in sizes) + "</tr></table>")
    out.append(f'<p class="small">Combinations: {e(data["combinations"])}.</p>')
    for title, key, shown in (("Probability per pay line", "probability", fraction_decimal),
                              (RETURN_TITLE, "return", ev_percent)):
        out += [f"<h2>{title}</h2>", f"<table><tr><th>line</th><th>pays</th>{heads}</tr>"]
        for i, row in enumerate(bet["pay_table"]):
            out.append(f"<tr><td>{e(row['line'])}</td>{_cell(row['pays'])}" + "".join(
                _cell(shown(s["lines"][i][key])) for s in sizes) + "</tr>")
        if key == "return":
            out.append('<tr><td>total: the EV</td><td></td>' + "".join(
                _cell(ev_percent(s["expected_value"])) for s in sizes) + "</tr>")
        out.append("</table>")
    out += ["<h2>Per number of packs</h2>", f"<table><tr><th>figure</th>{heads}</tr>",
            "<tr><td>house edge</td>" + "".join(_cell(ev_percent(s["house_edge"])) for s in sizes)
            + "</tr>",
            "<tr><td>hit frequency (pays more than 0)</td>"
            + "".join(_cell(hit_percent(s["hit_frequency"])) for s in sizes) + "</tr>",
            "<tr><td>variance</td>" + "".join(_cell(fraction_decimal(s["variance"], 4)) for s in sizes)
            + "</tr>",
            "<tr><td>standard deviation</td>"
            + "".join(_cell(_sd(s["standard_deviation"])) for s in sizes) + "</tr>",
            "</table>"]
    out.append(f'<p class="small">Exact house edge at D = {data["shoe"]["packs"]}: '
               f'{e(data["shoe"]["house_edge"])}.</p>')
    rem = data["removal"]
    out += [f"<h2>Break-even pay per line and effect of removal ({e(rem['shoe'])})</h2>",
            '<div class="row"><div>',
            "<table><tr><th>line</th><th>pays</th><th>break-even</th></tr>"]
    for row in data["break_even"]:
        out.append(f"<tr><td>{e(row['line'])}</td>{_cell(row['pays'])}"
                   f"{_cell(fraction_decimal(row['break_even']))}</tr>")
    out.append("</table>")
    out.append('<p class="small">The pay of that line alone that makes the bet fair (EV '
               "exactly 0), the other lines as they are.</p>")
    out += ["</div><div>", "<table><tr><th>rank</th><th>left</th><th>EV change</th>"
            '<th class="exact">exact</th></tr>']
    for x in rem["effects"]:
        out.append(f"<tr><td>{e(x['rank'])}</td>{_cell(str(x['left']))}"
                   f"{_cell(ev_percent(x['ev_change'], 6))}{_cell(x['ev_change'], 'exact')}</tr>")
    out.append("</table>")
    out.append(f'<p class="small">{e(rem["normalisation"])}; weighted by the cards left they '
               f"sum to {e(rem['weighted_sum'])}.</p></div></div>")
    if pictures is not None:
        out.append(f'<div class="row"><div>{pictures["removal"]}</div>'
                   f'<div>{pictures["edge"]}</div></div>')
    out += ["<h2>Countability and the cut-card effect</h2>"] + _count_html(data)
    vol = data["volatility"]
    out += [f"<h2>Volatility ({e(vol['shoe'])}; rounds {e(vol['rounds'])})</h2>", "<ul>",
            f"<li>Standard deviation per round: {e(_sd(vol['standard_deviation']))} units.</li>",
            f"<li>Rounds for the house's result to be within ±1% of its edge, 95% of the time: "
            f"<b>{vol['rounds_within_1_percent']:,}</b> (normal approximation, "
            "(1.96 sd / 0.01)<sup>2</sup>).</li>"]
    for b in vol["house_behind"]:
        how = "exact" if b["exact"] else b["method"].split(":")[0]
        value = b["decimal"] or "not computed"
        exact = f" = {b['probability']}" if b["exact"] and b["probability"] is not None and \
            len(b["probability"]) < 60 else ""
        out.append(f"<li>P(the house is behind after {b['rounds']:,} rounds): <b>{e(value)}</b>"
                   f" ({e(how)}{e(exact)})</li>")
    out.append("</ul>")
    out.append(f'<p class="small">Decimals rounded half-even; every exact fraction is in the '
               f"JSON (--format json). Made by lucky9-odds {e(data['version'])}: "
               f"<code>{e(data['command'])}</code>.</p>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


def _sampled(entry: dict[str, Any] | None, digits: int, scale: float = 1.0,
             unit: str = "") -> str:
    """A table cell: the mean, and its 95% interval under it in small type."""
    if entry is None or entry.get("mean") is None:
        return _cell("—")
    mean = f"{entry['mean'] * scale:+.{digits}f}{unit}"
    ci = entry.get("ci95")
    low = "" if ci is None else (f"<br><span class=\"small\">{ci[0] * scale:+.{digits}f}{unit}"
                                 f" to {ci[1] * scale:+.{digits}f}{unit}</span>")
    return f'<td class="n">{html.escape(mean)}{low}</td>'


def _count_html(data: dict[str, Any]) -> list[str]:
    e = html.escape
    c = data["countability"]
    if c is None:
        return ["<p>Left out (<code>--no-count</code>): the shoe study was not run, so "
                "neither the count's gain nor the cut-card effect is on this sheet.</p>"]
    tags = "".join(f"<td>{t:+d}</td>" for t in c["tags"])
    corr = c["betting_correlation"]
    out = [f"<p>Shoe study: {e(study_line(data))}. Sampled figures: the mean over the shoes "
           "and its 95% interval (every round's EV is exact).</p>",
           "<table><tr><th>rank</th>" + "".join(f"<th>{r.value}</th>" for r in RANKS)
           + "</tr>", f"<tr><td>tags (level 3)</td>{tags}</tr></table>",
           f"<p>Best linear count, from the effects of removal: betting correlation "
           f"<b>{'—' if corr is None else f'{corr:.3f}'}</b>.</p>",
           "<table><tr><th>way of betting (bet only when it says EV &gt; 0)</th>"
           "<th>units a shoe</th><th>bets a shoe</th><th>EV when betting</th></tr>"]
    for key, label in (("perfect_information", "perfect information (the ceiling)"),
                       ("linear_count", "best linear count"),
                       ("tag_count", "its integer tags")):
        x = c[key]
        if x is None:
            continue
        out.append(f"<tr><td>{label}</td>{_sampled(x['units_per_shoe'], 4)}"
                   f"{_sampled(x['bets_per_shoe'], 2)}"
                   f"{_sampled(x['edge_when_betting'], 2, 100, '%')}</tr>")
    out.append("</table>")
    out.append('<p class="small">Each sampled figure: the mean, and below it its 95% '
               "interval (mean &#177; 1.96 standard errors, the shoe as the unit).</p>")
    out.append(f"<p>Cut-card effect (mean EV per round dealt less the fresh shoe's): "
               f"<b>{e(estimate_text(c['cut_card_effect'], 4, 100, '%'))}</b>.</p>")
    return out
