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
(through :mod:`odds.money.payout`); ``odds/__init__`` does not import it.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from odds._version import __version__
from odds.exact.bets import bet_odds
from odds.exact.engine import round_odds
from odds.exact.removal import removal
from odds.exact.results import RoundOdds
from odds.money.payout import bank_edge, break_even, pay_table, sqrt_decimal
from odds.report.bank_report import bank_section_parts
from odds.report.payout_report import sd_exact
from odds.rules.bets import profile_bets
from odds.rules.cards import POINTS, RANKS, Card, Rank
from odds.rules.options import OPTIONS
from odds.rules.profile import Profile
from odds.rules.profiles import BUILTIN
from odds.rules.settle import Pay
from odds.rules.shoe import Shoe
from odds.rules.text import DIGITS, bonus_limit_data, decimal, fraction, percent, rules_line

__all__ = [
    "Page",
    "Removal",
    "Section",
    "TablesError",
    "csv_text",
    "json_text",
    "markdown",
    "page",
    "shared_odds",
    "shared_removal_effects",
    "table_profiles",
]

DECKS: tuple[int | None, ...] = (1, 2, 4, 6, 8, None)  # None: the infinite shoe
MAX_PLAYERS = 8
Progress = Callable[[str], None]


class TablesError(ValueError):
    """An output folder the tables cannot be written to."""


def table_profiles() -> list[Profile]:
    """The built-in profiles with a fixed rule (``family`` is a game: issue 6).

    >>> [p.key for p in table_profiles()]
    ['standard', 'plain', 'forced-draw', 'super9', 'punto-banco', 'ez-baccarat']
    """
    # ez-baccarat (issue 15) joins when the tables are regenerated with every
    # bet of each profile; until then the committed tables stay byte for byte.
    return [p for p in BUILTIN.values() if p.fixed]




def _suited_bets(profile: Profile) -> set[str]:
    return {name for name, bet in profile_bets(profile).items() if bet.uses_suits}


def deck_shoe(decks: int | None) -> Shoe:
    return Shoe.infinite_shoe() if decks is None else Shoe.packs_of(decks)


def deck_label(decks: int | None) -> str:
    return "inf" if decks is None else str(decks)


# -- shared enumeration ---------------------------------------------------------


def _counting_key(profile: Profile) -> tuple[Any, ...]:
    """What the engine's counts depend on (see odds.exact.engine): no pay-table entry."""
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
        result = cache[key] = _enumerate(profile, shoe)
    return result if result.profile == profile else replace(result, profile=profile)


def _enumerate(profile: Profile, shoe: Shoe) -> RoundOdds:
    """``round_odds(profile, shoe)``; by the batch engine where the rules are fixed.

    The batch engine's answer is equal in every field (tests/exact/test_batch.py),
    and takes milliseconds where the engine took 0.3 s on a new composition:
    the whole set of tables took 63 s of CPU, of which the 168 enumerations
    were about 20.
    """
    if not profile.fixed:
        return round_odds(profile, shoe)
    from odds.exact.batch import batch_counts  # numpy: only when tables are made

    batch = batch_counts(profile, [shoe.counts], infinite=shoe.infinite, full=True)
    return batch.round_odds(0, shoe)


@dataclass(frozen=True)
class Removal:
    """One row of the effect-of-removal table: the change when one ``rank`` goes."""

    rank: Rank
    ev_change: Fraction
    win_change: Fraction


def shared_removal_effects(
    profile: Profile, shoe: Shoe, cache: OddsCache
) -> tuple[Removal, ...]:
    """The figures of :func:`odds.exact.removal.removal_effects`, sharing enumerations.

    >>> from odds.exact.removal import removal_effects
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


def option_text(profile: Profile) -> list[tuple[str, str]]:
    rows = [(opt.name, opt.text(getattr(profile, opt.attr))) for opt in OPTIONS]
    # The profile's own shoe size is an option; every table states the D it is for.
    return [(name, f"{text} (the profile's default; each table names its D)"
             if name == "decks" else text) for name, text in rows]


def _shoe_text(decks: int | None) -> str:
    if decks is None:
        return "D = inf (the infinite shoe: every card drawn with replacement)"
    return f"D = {decks} ({decks} pack{'s' if decks > 1 else ''} of 52, {52 * decks} cards)"


def _header(profile: Profile, decks: int | None) -> dict[str, Any]:
    return {
        "profile": profile.key,
        "title": profile.title,
        "decks": deck_label(decks),
        "shoe": _shoe_text(decks),
        "rules": rules_line(profile),
        "options": profile.options(),
        "tool": f"lucky9-odds {__version__}",
        "decimals": f"rounded half-even to {DIGITS} places; fractions exact",
        **({} if profile.bonus_limit is None else {"max_bonus": bonus_limit_data(profile)}),
        **({} if not profile.session.has_cut else {"house_cut": _cut(profile, decks)}),
    }


def _cut(profile: Profile, decks: int | None) -> list[dict[str, str]]:
    """The player seat after the house's cut at each stake (as ``lucky9 odds`` prints it)."""
    from odds.money.seat_cut import cut_data, seat_cuts

    return cut_data(seat_cuts(shared_odds(profile, deck_shoe(decks), {})))


def break_even_cell(result: RoundOdds, entry: str) -> tuple[Cell, str]:
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
    shoe = deck_shoe(decks)
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
        cell, note = break_even_cell(r, entry)
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
        # Every bet of the profile, from the batch engine (imported here: numpy): the seat's
        # changes are those of round_odds per rank (shared_removal_effects), exactly.
        from odds.exact.bet_table import COLON_SHARE

        every = removal(profile, shoe)
        others = [bet for bet in every.bets if bet != "player"]
        suited = [bet for bet in others if bet in _suited_bets(profile)]
        sections.append(Section(
            "removal", "Effect of removal (one card of a rank taken out)",
            ("rank", "EV change", "P(win) change", *(f"{bet} EV change" for bet in others)),
            tuple((e.rank.value, e.ev_change, e.win_change,
                   *(dict(e.changes)[bet] for bet in others)) for e in every.effects),
            "exact change in the player seat's EV and P(win)"
            + (" and in the EV of every other bet" if others else "")
            + "; weighted by the shoe's composition the changes sum to 0"
            + (f"; {', '.join(suited)}: the suit of the card taken out unseen" if suited else "")
            + (f"; {COLON_SHARE}: the part of the seat's EV its Colon pays add"
               if COLON_SHARE in others else ""),
        ))
    results = bet_odds(profile, shoe, ["all"])
    sections.append(Section(
        "bets", "Every bet of the profile", ("bet", "side", "EV", "house edge", "variance", "pays"),
        tuple((name, b.bet.side, b.expected_value, -b.expected_value, b.variance, b.bet.description)
              for name, b in results.items()),
        "per unit staked on the bet; house edge = -EV; pays: the usual pay table and its source",
    ))
    sections.append(Section(*bank_section_parts(profile, shoe, players=8 if shoe.infinite else 1)))
    return Page(profile, decks, r, tuple(sections))


# -- renderers ------------------------------------------------------------------


def exact_cell(cell: Cell) -> tuple[str, str] | None:
    """(exact, decimal) for a number cell, None for a label."""
    if isinstance(cell, Fraction):
        return fraction(cell), decimal(cell)
    if isinstance(cell, int):
        return str(cell), str(cell)
    if isinstance(cell, tuple):
        return cell
    return None


def _numeric_columns(section: Section) -> list[bool]:
    return [any(exact_cell(row[i]) is not None for row in section.rows)
            for i in range(len(section.columns))]


def file_name(profile: Profile, decks: int | None, ext: str) -> str:
    return f"{profile.key}/{profile.key}-d{deck_label(decks)}.{ext}"


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
        *([f"- note: {h['max_bonus']['note']}"] if "max_bonus" in h else []),
        *[f"- after the house's cut at a stake of {c['stake']}: bank edge "
          f"{percent(Fraction(c['bank_edge']))} (`{c['bank_edge']}`)" for c in h.get("house_cut", [])],
        f"- tool: {h['tool']} (`lucky9 tables`)",
        f"- decimals {h['decimals']}; probabilities per round, from the player seat's side",
        "",
        "| option | value |",
        "|---|---|",
    ]
    lines += [f"| {name} | {text} |" for name, text in option_text(p.profile)]
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
                pair = exact_cell(cell)
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
    for name, text in option_text(p.profile):
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
                pair = exact_cell(cell)
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
        pair = exact_cell(c)
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
