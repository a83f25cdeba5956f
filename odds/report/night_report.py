"""The owner's night on one page: text, Markdown, JSON and A4 HTML.

Every format renders the one data dict of :func:`night_data`, whose bank
figures are ``lucky9 bank --format json``'s own (:func:`bank_data`), whose
bet edges are ``lucky9 odds --bet all``'s and whose break-even cut is
``lucky9 payout --solve fee --solve commission``'s: the page equals the
single commands figure by figure.
"""

from __future__ import annotations

import html
import json
from fractions import Fraction
from typing import Any

from odds._version import __version__
from odds.money.night import Night
from odds.report.bank_report import bank_data
from odds.report.payout_report import cut_data
from odds.report.sheet import html_head
from odds.rules.house_cut import cut_note
from odds.rules.text import bonus_limit_note, decimal, fraction, percent, rules_line, wrap_rules

__all__ = ["night_data", "night_html", "night_markdown", "night_text", "render_night"]

_CSS = """
@page { size: A4; margin: 12mm; }
* { box-sizing: border-box; }
body { font: 9.5pt/1.3 "DejaVu Sans", Arial, sans-serif; color: #000; margin: 0; }
h1 { font-size: 15pt; margin: 0 0 1mm; }
h2 { font-size: 10.5pt; margin: 3mm 0 1mm; border-bottom: 0.3mm solid #000; }
p, li { margin: 0.6mm 0; }
ul { margin: 0; padding-left: 5mm; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 0.4mm 1.5mm; border-bottom: 0.1mm solid #999; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.small { font-size: 7.5pt; color: #333; }
@media screen { body { max-width: 186mm; margin: 8mm auto; } }
""".strip()


def _num(x: Any) -> float:
    """A figure of the bank's data as a float (an estimate's value, or an exact fraction)."""
    if isinstance(x, dict):
        return float(x["estimate"])
    return float(Fraction(x))


def night_data(night: Night) -> dict[str, Any]:
    """Every figure of the night as JSON-ready data (exact fractions as strings)."""
    profile = night.profile
    bank = bank_data(night.study)
    session = profile.session
    keep = ("exact", "method", "samples", "seed", "moments_exact", "mean", "variance", "sd",
            "worst", "p_loss_more_than", "capital_for_target", "ruin_probability", "rotation")
    caps = [note for at in night.at_stakes if (note := bonus_limit_note(at)) is not None]
    if session.bonus_cap is not None:
        caps.append(f"bonus_cap {session.bonus_cap}: at most {session.bonus_cap} bonus "
                    "payments a round, in seat order")
    if session.round_cap is not None:
        caps.append(f"round_cap {fraction(session.round_cap)}: the most the bank pays winners "
                    "in one round")
    return {
        "profile": profile.key, "title": profile.title, "source": profile.source,
        "rules": rules_line(profile), "shoe": night.shoe.label, "version": __version__,
        "players": bank["players"], "stakes": bank["stakes"], "rounds": session.rounds,
        "capital": None if session.capital is None else fraction(session.capital),
        "house_cut": {"fee": fraction(session.fee or Fraction(0)),
                      "commission": fraction(session.commission or Fraction(0)),
                      "note": cut_note(session.fee, session.commission)},
        "bets": {name: {"side": b.bet.side, "expected_value": fraction(b.expected_value),
                        "house_edge": fraction(-b.expected_value)}
                 for name, b in night.bets.items()},
        "caps": caps,
        "bank": {k: bank[k] for k in keep if k in bank},
        "break_even_cut": [cut_data(c) for c in night.break_even],
    }


def _money(x: float) -> str:
    return f"{x:+,.2f}"


def _bank_lines(data: dict[str, Any]) -> list[tuple[str, str]]:
    """(what, figure) rows of the bank's part of the page, shared by every format."""
    b = data["bank"]
    exact = "exact" if b["moments_exact"] else "estimate"
    rows = [("bank's net per round: mean", f"{_money(_num(b['mean']))} ({exact})"),
            ("bank's net per round: sd", f"{b['sd']:,.2f}")]
    loss = b["p_loss_more_than"]
    p = loss["probability"]
    shown = decimal(Fraction(p), 6) if not isinstance(p, dict) else (
        f"{p['estimate']:.6f} [{p['interval'][0]:.6f}, {p['interval'][1]:.6f}]")
    rows.append((f"P(the bank loses more than {loss['x']} in a round)", shown))
    if "ruin_probability" in b and data["capital"] is not None:
        rows.append((f"P(ruin within {data['rounds']} rounds from {data['capital']})",
                     f"{_num(b['ruin_probability']):.6f}"))
    t = b.get("capital_for_target")
    if t is not None:
        iv = t["interval"]
        where = "" if iv is None else f" [{iv[0]}, {iv[1]}] 95%, {t['samples']:,} rounds, seed {t['seed']}"
        if t.get("bracket") is not None:  # nets rounded both ways on a coarser lattice
            low, high = t["bracket"]["capitals"]
            where += f" (lies in [{low}, {high}], lattice {t['bracket']['lattice_step']})"
        rows.append((f"capital for ruin <= {decimal(Fraction(t['target_ruin']), 4)} over "
                     f"{t['rounds']} rounds", f"{t['capital']}{where}"))
    rot = b.get("rotation")
    if rot is not None:
        mine, other = rot["persons"], rot["other_mode"]
        fixed, rotate = (mine, other) if rot["mode"] == "fixed" else (other, mine)
        rows.append(("fixed bank: the banker's sd over the night",
                     f"{fixed[0]['sd']:,.2f} (a player's at most "
                     f"{max(p['sd'] for p in fixed[1:]):,.2f})"))
        rows.append(("rotating bank: every person's sd at most",
                     f"{max(p['sd'] for p in rotate):,.2f}"))
    return rows


def _cut_rows(data: dict[str, Any]) -> list[tuple[str, str]]:
    rows = []
    cuts = data["break_even_cut"]
    shares = {c["value"] for c in cuts if c["cut"] == "commission"}
    if len(shares) == 1:  # a share of the win: the same at every stake unless a cap binds
        first = next(c for c in cuts if c["cut"] == "commission")
        cuts = [c for c in cuts if c["cut"] == "fee"] + [{**first, "stake": "every stake"}]
    for c in cuts:
        if c["cut"] == "fee":
            what = f"fee at a stake of {c['stake']}"
            shown = "none" if c["value"] is None else f"{decimal(Fraction(c['value']), 4)}"
        else:
            what = (f"commission at a stake of {c['stake']}" if c["stake"] != "every stake"
                    else "commission at every stake")
            shown = "none" if c["value"] is None else percent(Fraction(c["value"]))
        rows.append((f"break-even {what}", shown if c["value"] is not None
                     else f"none ({c['reason']})"))
    return rows


def _bet_rows(data: dict[str, Any]) -> list[tuple[str, str]]:
    return [(name, f"{percent(Fraction(b['house_edge']))} house edge")
            for name, b in data["bets"].items()]


def _header(data: dict[str, Any]) -> list[str]:
    stakes = ", ".join(data["stakes"])
    return [f"The owner's night: {data['profile']} ({data['title']})",
            f"shoe: {data['shoe']}; {data['players']} players staking {stakes}; "
            f"{data['rounds']} rounds" + (f"; capital {data['capital']}" if data["capital"]
                                         else "")]


def _sections(data: dict[str, Any]) -> list[tuple[str, list[tuple[str, str]]]]:
    caps = [(note, "") for note in data["caps"]] or [("no cap", "")]
    b = data["bank"]
    how = (f"{b['method']}" if b["exact"] else
           f"{b['method']}; estimates with 95% intervals")
    return [("Each bet's edge (per unit staked, exact, before the house's cut)", _bet_rows(data)),
            ("Caps", caps),
            (f"The bank at this table ({how})", _bank_lines(data)),
            ("The house's cut at which the bank breaks even (each cut alone, per seat)",
             _cut_rows(data))]


def night_text(data: dict[str, Any]) -> list[str]:
    """The page as terminal lines."""
    lines = [*_header(data), *wrap_rules(f"rules: {data['rules']}"),
             "amounts in money; the bank's side: + the bank wins; decimals rounded half-even"]
    for title, rows in _sections(data):
        lines += ["", title]
        width = max((len(w) for w, _ in rows), default=0)
        lines += [f"  {w:<{width}}  {f}".rstrip() for w, f in rows]
    return lines


def night_markdown(data: dict[str, Any]) -> list[str]:
    """The page as Markdown."""
    head = _header(data)
    lines = [f"# {head[0]}", "", f"- {head[1]}", f"- rules: {data['rules']}",
             f"- lucky9-odds {data['version']}; amounts in money; the bank's side: + the bank wins"]
    for title, rows in _sections(data):
        lines += ["", f"## {title}", ""]
        if all(not f for _, f in rows):
            lines += [f"- {w}" for w, _ in rows]
            continue
        lines += ["| what | figure |", "|---|---|"]
        lines += [f"| {w} | {f} |" for w, f in rows]
    return lines


def night_html(data: dict[str, Any]) -> list[str]:
    """The page as one printable A4 HTML page."""
    e = html.escape
    head = _header(data)
    out = [*html_head(f"{data['profile']} night", _CSS), "<body>", f"<h1>{e(head[0])}</h1>",
           f"<p>{e(head[1])}</p>", f"<p>rules: {e(data['rules'])}</p>"]
    for title, rows in _sections(data):
        out.append(f"<h2>{e(title)}</h2>")
        if all(not f for _, f in rows):
            out += ["<ul>", *[f"<li>{e(w)}</li>" for w, _ in rows], "</ul>"]
            continue
        out.append("<table>")
        out += [f"<tr><td>{e(w)}</td><td>{e(f)}</td></tr>" for w, f in rows]
        out.append("</table>")
    out += [f'<p class="small">Amounts in money; the bank\'s side: + the bank wins. Made by '
            f"lucky9-odds {e(data['version'])} (lucky9 night).</p>", "</body>", "</html>"]
    return out


def render_night(data: dict[str, Any], fmt: str) -> str:
    """The page in ``fmt`` (text, md, json or html) as one string ending in a newline."""
    if fmt == "json":
        return json.dumps(data, indent=2) + "\n"
    lines = {"text": night_text, "md": night_markdown, "html": night_html}[fmt](data)
    return "\n".join(lines) + "\n"
