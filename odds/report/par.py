"""The PAR sheet of a bet (probability and accounting report): its data, Markdown and writer.

A PAR sheet gathers, for one bet of a profile, what ``odds``, ``payout``,
``removal`` and ``count`` print separately, from the same engines and
nothing else:

* per pay line at 1, 2, 4, 6, 8 packs and the infinite shoe: the exact
  combinations (ordered six-card deals; ``52^6`` card sequences for the
  infinite shoe), the probability and the contribution to the return
  (:func:`odds.exact.bets.bet_odds`, the engine of ``odds --bet`` and
  ``payout --bet``);
* per shoe size: house edge, hit frequency (the bet pays more than 0),
  variance and standard deviation;
* the break-even pay of each line and the effect of removal per rank, from
  the profile's own shoe (:func:`odds.exact.removal.removal`, as ``removal``);
* volatility (:mod:`odds.money.volatility`);
* countability and the cut-card effect, from the shoe study of ``count``
  (:func:`odds.money.counting.count_study`; sampled, so each figure is
  printed with its 95% interval, and the shoes and seed are stated).

:func:`par_data` is the one source of every format: JSON is it as it is,
:func:`par_markdown` and :func:`odds.report.par_html.par_html` render it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from odds._version import __version__
from odds.exact.bets import BetOdds, bet_odds
from odds.exact.removal import removal
from odds.io.atomic import AtomicFile
from odds.money.volatility import Behind, house_behind, interval95, rounds_for_precision
from odds.report.json_data import nan_as_none
from odds.report.par_format import (
    RETURN_TITLE,
    estimate_text,
    ev_percent,
    fraction_decimal,
    hit_percent,
    study_line,
)
from odds.report.par_html import par_html
from odds.rules.bet_library import resolve_bets
from odds.rules.bet_types import Bet
from odds.rules.cards import RANKS
from odds.rules.profile import Profile
from odds.rules.shoe import Shoe
from odds.rules.text import decimal, fraction, rules_line

__all__ = ["DEFAULT_CUT_CARDS", "DEFAULT_SEED", "DEFAULT_SHOES", "MAX_PAR_SHOES", "PAR_DECKS",
           "ParSheet", "check_par_shoe", "line_names", "par_data", "par_markdown", "par_sheet",
           "pays_text", "write_par"]

PAR_DECKS: tuple[int | None, ...] = (1, 2, 4, 6, 8, None)  # None: the infinite shoe
VOLATILITY_ROUNDS = (100, 1000)
PRECISION = Fraction(1, 100)  # the house's result within +-1 percentage point of its edge
DEFAULT_SHOES = 2000
DEFAULT_SEED = 1
DEFAULT_CUT_CARDS = 14
MAX_PAR_SHOES = 100_000  # a sheet is minutes at most; a bigger study is 'lucky9 count'


@dataclass(frozen=True)
class ParSheet:
    """Everything a PAR sheet prints, as the engines returned it."""

    profile: Profile
    bet: Bet
    packs: int  # the profile's own shoe: break-even, removal, volatility, the study
    by_deck: tuple[tuple[int | None, BetOdds], ...]
    removal: Any  # odds.exact.removal.Removal
    behind: tuple[Behind, ...]
    study: Any | None  # odds.money.counting.CountStudy, None with --no-count
    cut_cards: int
    shoes: int
    seed: int


def deck_text(decks: int | None) -> str:
    """A shoe size as a column heading: ``1``, ``8``, ``inf``.

    >>> deck_text(8), deck_text(None)
    ('8', 'inf')
    """
    return "inf" if decks is None else str(decks)


def line_names(bet: Bet) -> list[str]:
    """Each pay line's name for people, then ``otherwise``.

    A line's label; else, for a bet of one line that has a description of its
    own, the description; else the line's condition in words.

    >>> from odds.rules.bet_files import bet_from_data
    >>> bet = bet_from_data("big-tiger", {"side": "banker", "description": "a three-card 6 "
    ...     "wins", "pay": [{"winner": "banker", "banker_final": 6, "banker_cards": 3,
    ...     "pays": 50}]}, "club.toml")
    >>> line_names(bet)
    ['a three-card 6 wins', 'otherwise']
    """
    own = bet.description != f"{bet.name} (from {bet.source})"
    lone = len(bet.entries) == 1 and own
    return [e.label or (bet.description if lone else e.name) for e in bet.entries] + ["otherwise"]


def pays_text(pays: Fraction) -> str:
    """A pay-table amount as a sheet says it.

    >>> pays_text(Fraction(40)), pays_text(Fraction(19, 20)), pays_text(Fraction(0))
    ('40 to 1', '19 to 20', 'push (stake returned)')
    >>> pays_text(Fraction(-1)), pays_text(Fraction(-2))
    ('loses the stake', 'loses 2 units')
    """
    if pays > 0:
        return f"{pays.numerator} to {pays.denominator}"
    if pays == 0:
        return "push (stake returned)"
    if pays == -1:
        return "loses the stake"
    return f"loses {fraction(-pays)} units"


def check_par_shoe(profile: Profile, shoes: int, seed: int, cut_cards: int) -> None:
    """Bounds of a sheet's settings, checked before any work.

    >>> from odds.rules.profiles import BUILTIN
    >>> check_par_shoe(BUILTIN["ez-baccarat"], 10**6, 1, 14)
    Traceback (most recent call last):
    ...
    ValueError: a PAR sheet's shoe study deals 1 to 100,000 shoes, not 1000000 (a larger study: lucky9 count)
    """
    if isinstance(shoes, bool) or not isinstance(shoes, int) or not 1 <= shoes <= MAX_PAR_SHOES:
        raise ValueError(f"a PAR sheet's shoe study deals 1 to {MAX_PAR_SHOES:,} shoes, not "
                         f"{shoes!r} (a larger study: lucky9 count)")
    for name, value in (("seed", seed), ("cut cards", cut_cards)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"the {name} is a whole number, 0 or more, not {value!r}")
    if not profile.fixed:
        raise ValueError(f"profile {profile.key!r} has no fixed rule (its players and bank "
                         "choose): a PAR sheet needs a fixed-rule profile")


def par_sheet(profile: Profile, bet: str | Bet, *, count: bool = True,
              shoes: int = DEFAULT_SHOES, seed: int = DEFAULT_SEED,
              cut_cards: int = DEFAULT_CUT_CARDS,
              progress: Callable[[int], None] | None = None) -> ParSheet:
    """Compute one bet's PAR sheet (``count=False``: without the shoe study).

    >>> from odds.rules.profiles import BUILTIN
    >>> s = par_sheet(BUILTIN["ez-baccarat"], "dragon-7", count=False)
    >>> s.by_deck[4][1].entry_counts[0], s.study is None
    (112633011329024, True)
    """
    check_par_shoe(profile, shoes, seed, cut_cards)
    chosen = resolve_bets(profile, [bet])[0]
    packs = profile.decks
    if count:  # every setting of the study checked before the exact work starts
        # The shoe study imports numpy: only when a sheet counts (not with --no-count).
        from odds.money.counting import study_plan

        study_plan(profile, packs, bets=[chosen], cut_cards=cut_cards, seed=seed)
    by_deck = tuple((d, bet_odds(profile, Shoe.infinite_shoe() if d is None
                                 else Shoe.packs_of(d), [chosen])[chosen.name])
                    for d in PAR_DECKS)
    own = bet_odds(profile, Shoe.packs_of(packs), [chosen])[chosen.name]
    eor = removal(profile, Shoe.packs_of(packs), [chosen])
    dist = own.payout_distribution()
    behind = tuple(house_behind(dist, n) for n in VOLATILITY_ROUNDS)
    study = None
    if count:
        from odds.money.counting import count_study  # numpy: as above

        study = count_study(profile, packs, shoes, seed=seed, bets=[chosen],
                            cut_cards=cut_cards, progress=progress)
    return ParSheet(profile, chosen, packs, by_deck, eor, behind, study, cut_cards, shoes, seed)


# -- the data: every figure once -------------------------------------------------------


def _hit(odds: BetOdds) -> Fraction:
    return sum((p for a, p in odds.payout_distribution().items() if a > 0), Fraction(0))


def _interval(entry: dict[str, Any] | None) -> dict[str, Any] | None:
    """A sampled figure {mean, se} with its 95% interval (mean +- 1.96 se)."""
    if entry is None:
        return None
    mean, se = entry.get("mean"), entry.get("se")
    return {"mean": mean, "se": se, "ci95": interval95(mean, se)}


def _lines(odds: BetOdds) -> list[dict[str, Any]]:
    rows = []
    pays_ = [e.pays for e in odds.bet.entries] + [odds.bet.otherwise]
    for name, pays, count in zip(line_names(odds.bet), pays_, odds.entry_counts, strict=True):
        p = Fraction(count, odds.total)
        rows.append({"line": name, "pays": fraction(pays), "combinations": count,
                     "probability": fraction(p), "return": fraction(pays * p)})
    return rows


def _deck_figures(d: int | None, odds: BetOdds) -> dict[str, Any]:
    from odds.money.payout import sqrt_decimal  # sympy: imported by a sheet, not by odds.report

    ev, var = odds.expected_value, odds.variance
    return {
        "decks": deck_text(d),
        "total_combinations": odds.total,
        "lines": _lines(odds),
        "expected_value": fraction(ev),
        "house_edge": fraction(-ev),
        "hit_frequency": fraction(_hit(odds)),
        "variance": fraction(var),
        "standard_deviation": sqrt_decimal(var),
    }


def _countability(sheet: ParSheet) -> dict[str, Any] | None:
    if sheet.study is None:
        return None
    from odds.report.count_report import count_data  # numpy: only for a sheet that counted

    full = count_data(sheet.study)
    b = full["bets"][sheet.bet.name]
    count = b["count"]
    out: dict[str, Any] = {
        "estimate": "Sampled: means over the shoes dealt, each with its standard error (the "
                    "shoe is the unit) and 95% interval (mean +- 1.96 se); every round's EV "
                    "is exact",
        "study": full["study"],
        "tags": count["tags"],
        "tags_balanced": count["tags_balanced"],
        "betting_correlation": count["betting_correlation"],
        "true_count_threshold": count["true_count_threshold"],
        "effects_of_removal": b["effects_of_removal_exact"],
        "positive_share": _interval(b["positive_share"]),
        "cut_card_effect": _interval(b["cut_card_effect"]),
    }
    for key, src in (("perfect_information", b.get("perfect_information")),
                     ("linear_count", (b.get("linear_count") or {}).get("sit_out")),
                     ("tag_count", (b.get("tag_count") or {}).get("sit_out"))):
        if src is None:
            out[key] = None
            continue
        out[key] = {
            "units_per_shoe": _interval(src["units_per_shoe"]),
            "bets_per_shoe": _interval(src["bets_per_shoe"]),
            "edge_when_betting": _interval(src["edge_when_betting"]),
        }
    for key in ("linear_count", "tag_count"):
        if out[key] is not None:
            out[key]["correlation_with_exact_ev"] = b[key]["correlation_with_exact_ev"]
    return out


def par_data(sheet: ParSheet) -> dict[str, Any]:
    """Every figure of the sheet as JSON-ready data: exact fractions as strings.

    >>> from odds.rules.profiles import BUILTIN
    >>> d = par_data(par_sheet(BUILTIN["ez-baccarat"], "dragon-7", count=False))
    >>> d["shoe_sizes"][4]["lines"][0]["combinations"], d["countability"]
    (112633011329024, None)
    """
    bet, profile = sheet.bet, sheet.profile
    own = next(o for d, o in sheet.by_deck if d == sheet.packs) if sheet.packs in PAR_DECKS \
        else None
    if own is None:
        own = bet_odds(profile, Shoe.packs_of(sheet.packs), [bet])[bet.name]
    eor = sheet.removal
    shoe = Shoe.packs_of(sheet.packs)
    effects = [{"rank": str(e.rank), "left": shoe.counts[e.rank.index],
                "ev_change": fraction(e.change(bet.name))} for e in eor.effects]
    weighted = sum((shoe.counts[e.rank.index] * e.change(bet.name) for e in eor.effects),
                   Fraction(0))
    variance = own.variance
    behind = []
    for b in sheet.behind:
        p = b.probability
        exact_text: str | float | None = p if not isinstance(p, Fraction) else (
            # An exact fraction of thousands of digits is left out: its decimal is exact-rounded.
            fraction(p) if p.denominator.bit_length() < 3000 else None)
        behind.append({
            "rounds": b.rounds, "exact": b.exact, "method": b.method,
            "probability": exact_text,
            "decimal": (decimal(p, 6) if isinstance(p, Fraction)
                        else None if p is None else f"{p:.6f}"),
        })
    where = profile.key if profile.source == "built-in" else profile.source
    command = (f"lucky9 par --profile {where} --decks {sheet.packs} --bet {bet.name}"
               + (f" --shoes {sheet.shoes} --seed {sheet.seed} --cut-cards {sheet.cut_cards}"
                  if sheet.study is not None else " --no-count"))
    return {
        "profile": profile.key,
        "title": profile.title,
        "rules": rules_line(profile),
        "options": profile.options(),
        "version": __version__,
        "command": command,
        "bet": {
            "name": bet.name,
            "side": bet.side,
            "description": bet.description,
            "source": bet.source,
            "pay_table": [{"line": name, "pays": fraction(pays), "in_words": pays_text(pays)}
                          for name, pays in zip(line_names(bet), [e.pays for e in bet.entries]
                                                + [bet.otherwise], strict=True)],
        },
        "shoe": {"packs": sheet.packs, "label": shoe.label, "cards": shoe.size,
                 "house_edge": fraction(-own.expected_value)},
        "combinations": "ordered six-card deals (unused third-card slots filled); the "
                        "infinite shoe counts 52^6 card sequences",
        "shoe_sizes": [_deck_figures(d, o) for d, o in sheet.by_deck],
        "break_even": [
            {"line": line, "pays": fraction(pays),
             "break_even": None if even is None else fraction(even)}
            for line, (_, pays, _, even) in zip(line_names(bet), own.entries(), strict=True)
        ],
        "removal": {
            "shoe": shoe.label,
            "expected_value": fraction(eor.expected_value(bet.name)),
            "normalisation": f"change in the bet's EV per card of the rank removed, from "
                             f"{shoe.label} ({shoe.size} cards)",
            "effects": effects,
            "weighted_sum": fraction(weighted),
        },
        "volatility": {
            "shoe": shoe.label,
            "rounds": "independent, a fresh shoe each round",
            "standard_deviation": _deck_figures(sheet.packs, own)["standard_deviation"],
            "rounds_within_1_percent": rounds_for_precision(variance, PRECISION),
            "rounds_within_1_percent_method":
                "normal approximation: (1.96 sd / 0.01)^2 rounds for the house's average "
                "result per unit staked to be within 1 percentage point of its edge, 95% "
                "of the time",
            "house_behind": behind,
        },
        "countability": _countability(sheet),
    }


# -- Markdown ---------------------------------------------------------------------------


def par_markdown(data: dict[str, Any]) -> str:
    """The sheet as Markdown (every section of the HTML, no charts).

    >>> from odds.rules.profiles import BUILTIN
    >>> text = par_markdown(par_data(par_sheet(BUILTIN["ez-baccarat"], "dragon-7", count=False)))
    >>> text.splitlines()[0]
    '# PAR sheet: dragon-7 (ez-baccarat)'
    """
    bet = data["bet"]
    sizes = data["shoe_sizes"]
    heads = [f"D = {s['decks']}" for s in sizes]
    out = [
        f"# PAR sheet: {bet['name']} ({data['profile']})",
        "",
        f"**{data['title']}**",
        "",
        f"Rules: {data['rules']}",
        "",
        f"**The bet** ({bet['side']} side): {bet['description']}.",
        "",
        "| pay-table line | pays |",
        "|---|---|",
    ]
    out += [f"| {row['line']} | {row['in_words']} |" for row in bet["pay_table"]]
    out += ["", "## Combinations per pay line, by number of packs D", "",
            f"Combinations: {data['combinations']}.", "",
            "| line | " + " | ".join(heads) + " |", "|---|" + "---:|" * len(sizes)]
    for i, row in enumerate(bet["pay_table"]):
        out.append(f"| {row['line']} | " + " | ".join(
            f"{s['lines'][i]['combinations']:,}" for s in sizes) + " |")
    out.append("| total | " + " | ".join(f"{s['total_combinations']:,}" for s in sizes) + " |")
    for title, key, shown in (("Probability per pay line", "probability", fraction_decimal),
                              (RETURN_TITLE, "return", ev_percent)):
        out += ["", f"## {title}", "",
                "| line | pays | " + " | ".join(heads) + " |",
                "|---|---:|" + "---:|" * len(sizes)]
        for i, row in enumerate(bet["pay_table"]):
            out.append(f"| {row['line']} | {row['pays']} | " + " | ".join(
                shown(s["lines"][i][key]) for s in sizes) + " |")
        if key == "return":
            out.append("| total: the EV | | " + " | ".join(
                ev_percent(s["expected_value"]) for s in sizes) + " |")
    out += ["", "## Per number of packs", "",
            "| figure | " + " | ".join(heads) + " |", "|---|" + "---:|" * len(sizes),
            "| house edge | " + " | ".join(ev_percent(s["house_edge"]) for s in sizes) + " |",
            "| hit frequency (pays more than 0) | " + " | ".join(
                hit_percent(s["hit_frequency"]) for s in sizes) + " |",
            "| variance | " + " | ".join(fraction_decimal(s["variance"], 4) for s in sizes) + " |",
            "| standard deviation | " + " | ".join(
                decimal(Fraction(s["standard_deviation"]), 4) for s in sizes) + " |",
            "", _exact_edge(data), "",
            f"## Break-even pay per line ({data['shoe']['label']})", "",
            "the pay of that line alone that makes the bet fair (EV exactly 0)", "",
            "| line | pays | break-even | exact |", "|---|---:|---:|---|"]
    for row in data["break_even"]:
        even = row["break_even"]
        out.append(f"| {row['line']} | {row['pays']} | {fraction_decimal(even)} | {even or 'never'} |")
    rem = data["removal"]
    out += ["", f"## Effect of removal ({rem['shoe']})", "", rem["normalisation"] + "; weighted "
            f"by the cards left they sum to {rem['weighted_sum']}.", "",
            "| rank | left | EV change | exact |", "|---|---:|---:|---|"]
    out += [f"| {e['rank']} | {e['left']} | {ev_percent(e['ev_change'], 6)} | {e['ev_change']} |"
            for e in rem["effects"]]
    out += ["", "## Countability and the cut-card effect", ""] + _count_md(data)
    vol = data["volatility"]
    out += ["", f"## Volatility ({vol['shoe']}; rounds {vol['rounds']})", "",
            f"- standard deviation per round: {decimal(Fraction(vol['standard_deviation']), 4)}",
            f"- rounds for the house's result to be within ±1% of its edge (95%): "
            f"{vol['rounds_within_1_percent']:,} ({vol['rounds_within_1_percent_method']})"]
    for b in vol["house_behind"]:
        out.append(f"- P(the house is behind after {b['rounds']:,} rounds): "
                   f"{b['decimal'] or 'not computed'} ({b['method']})")
    out += ["", f"Decimals rounded half-even; exact fractions in the JSON. Made by "
            f"lucky9-odds {data['version']}: `{data['command']}`.", ""]
    return "\n".join(out)


def _exact_edge(data: dict[str, Any]) -> str:
    """The house edge on the profile's own shoe, as an exact fraction."""
    return f"Exact house edge at D = {data['shoe']['packs']}: {data['shoe']['house_edge']}."


def _count_md(data: dict[str, Any]) -> list[str]:
    c = data["countability"]
    if c is None:
        return ["Left out (`--no-count`): the shoe study was not run."]
    tags = " ".join(f"{r.value}:{t:+d}" for r, t in zip(RANKS, c["tags"], strict=True))
    corr = c["betting_correlation"]
    out = [f"Shoe study: {study_line(data)}. {c['estimate']}.", "",
           f"- best linear count's tags (level 3): {tags}; betting correlation "
           f"{'—' if corr is None else f'{corr:.3f}'}"]
    for key, label in (("perfect_information", "perfect information (the ceiling)"),
                       ("linear_count", "best linear count"), ("tag_count", "its integer tags")):
        e = c[key]
        if e is not None:
            out.append(f"- {label}: {estimate_text(e['units_per_shoe'])} units a shoe, "
                       f"{estimate_text(e['bets_per_shoe'], 2)} bets a shoe, EV when betting "
                       f"{estimate_text(e['edge_when_betting'], 2, 100, '%')}")
    out.append(f"- cut-card effect (mean EV per round dealt less the fresh shoe's): "
               f"{estimate_text(c['cut_card_effect'], 4, 100, '%')}")
    return out


# -- writing ---------------------------------------------------------------------------------


def par_json(data: dict[str, Any]) -> str:
    """The sheet as JSON text (NaN written as null).

    >>> par_json({"a": float("nan")})
    '{\\n  "a": null\\n}\\n'
    """
    return json.dumps(nan_as_none(data), indent=2) + "\n"


def render(data: dict[str, Any], fmt: str) -> str:
    """The sheet in ``fmt``: ``html``, ``md`` or ``json``."""
    if fmt == "json":
        return par_json(data)
    if fmt == "md":
        return par_markdown(data)
    if fmt == "html":
        return par_html(data)
    raise ValueError(f"a PAR sheet is written as html, md or json, not {fmt!r}")


def write_par(texts: Sequence[tuple[str, str]]) -> None:
    """Write each (path, text) whole or not at all; all are rendered before the first is written.

    A failure removes the files this call already wrote and leaves the old ones whole
    (each file goes through :class:`odds.io.atomic.AtomicFile`).
    """
    pending: list[AtomicFile] = []
    try:
        for path, text in texts:
            f = AtomicFile(path)
            pending.append(f)
            f.write(text)
            try:  # a full disk or a device fails here, before any file is put in place
                f.handle.flush()
            except OSError as exc:
                raise f.failed(exc) from None
        for f in pending:
            f.commit()
    except BaseException:
        for f in pending:
            f.discard()  # the files not yet committed: their targets stay as they were
        raise
