"""Rendering the shoe study (:func:`odds.money.counting.count_study`): JSON data and text.

Every per-round EV behind the figures is exact; the figures themselves are
estimates over the shoes dealt, printed with their 95% intervals (mean +- 1.96
standard errors, the shoe as the unit), as ``lucky9 par`` prints the same
figures; the JSON keeps each standard error (``se``) beside its ``ci95``.
"""

from __future__ import annotations

import math
import textwrap
from fractions import Fraction
from typing import Any

from odds.money.counting import SPREAD, TAG_LEVEL, Bankroll, BetStudy, CountGrid, CountStudy
from odds.money.volatility import interval95
from odds.report.json_data import nan_as_none
from odds.rules.cards import RANKS
from odds.rules.text import fraction, percent, rules_line, wrap_rules

__all__ = ["count_data", "count_text", "grid_data", "grid_rows", "grid_text", "with_ci95"]

NOTE = (
    "every round's EV is exact (the batch engine on the shoe's composition before the "
    "round); the figures are estimates over the shoes dealt, each with its 95% interval "
    "[lo, hi] (mean +- 1.96 standard errors, the shoe is the unit), computed in float64 "
    "from those exact EVs"
)
BET_TEXT = {
    "player": "player seat",
    "banker": "banker bet",
    "tie": "tie bet",
    "colon-share": "colon-share: the part of the seat's EV its Colon pays add (not a wager)",
}


def _label(bet: str) -> str:
    return BET_TEXT.get(bet, f"{bet} bet")


def _play(label: str, entry: dict[str, Any]) -> list[str]:
    """A strategy's lines: per round, bets per shoe, EV when betting, per shoe, per 100,
    one figure a line (``edge_when_betting`` is the bettor's mean EV of the rounds bet,
    despite its name; ``lucky9 par`` says "EV when betting" too)."""
    lines = [f"    {label}:"]
    for name, text in (("a round dealt", _pm_ev(entry["gain_per_round_dealt"])),
                       ("bets a shoe", _pm(entry["bets_per_shoe"], 2)),
                       ("EV when betting", _pm_ev(entry["edge_when_betting"])),
                       ("units a shoe", _pm(entry["units_per_shoe"], 4)),
                       ("units per 100 hands", _pm(entry["units_per_100_hands"], 4))):
        lines.append(f"      {name:<19} {text}")
    sampled = entry.get("sampled_outcomes")
    if sampled and sampled.get("variance_factor"):
        lines.append(f"      settled on the rounds dealt: {_pm(sampled['units_per_shoe'], 4)} "
                     "units a shoe:")
        lines.append(f"        a simulation of outcomes needs {sampled['variance_factor']:.0f}x "
                     "the shoes for the same interval")
    return lines


def _spread_line(head: str, entry: dict[str, Any]) -> list[str]:
    """A 1-4 spread's gain a round and a unit: one line, or two when one is too long."""
    first = f"    {head}: {_pm_ev(entry['gain_per_round_dealt'])} a round,"
    tail = f"{_ev(entry['gain_per_unit_staked'])} a unit"
    if len(first) + 1 + len(tail) <= 79:
        return [f"{first} {tail}"]
    return [first, f"      {tail}"]


def count_data(study: CountStudy) -> dict[str, Any]:
    """Every figure of the study as JSON-ready data.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.money.counting import count_study
    >>> data = count_data(count_study(BUILTIN["standard"], 1, 5, 0.75, seed=2))
    >>> sorted(data["bets"]), data["bets"]["player"]["fresh_ev"]
    (['colon', 'colon-nine', 'colon-share', 'player'], '1041476/38172225')
    """
    mean, se, low, high = study.rounds_per_shoe
    data: dict[str, Any] = nan_as_none(with_ci95({
        "profile": study.profile.key,
        "title": study.profile.title,
        "study": {
            "shoes": study.shoes,
            "packs": study.packs,
            "cards": 52 * study.packs,
            "penetration": study.penetration,
            "cut_card_after": study.cut,
            "cards_behind_cut_card": 52 * study.packs - study.cut,
            "burn": study.burn,
            "burn_rule": study.burn_rule,
            "count_burn": study.count_burn,
            "rounds_after_cut": study.rounds_after_cut,
            "count_system": None if study.system is None else {
                "tags": list(study.system.tags), "trigger": study.system.trigger,
                "balanced": study.system.balanced, "initial_running_count": study.system.irc,
                "deck_estimate": study.system.deck_estimate,
                "trigger_schedule": [{"cards_seen": c, "trigger": t}
                                     for c, t in study.system.schedule]},
            "cluster": study.cluster,
            "bankroll": {"bankroll": fraction(study.bankroll.bankroll),
                         "betting_unit": fraction(study.bankroll.unit),
                         "risk_of_ruin": fraction(study.bankroll.risk_of_ruin),
                         "ramp_spread": study.bankroll.ramp_spread},
            "partial": study.partial,
            "shoes_planned": study.shoes if study.shoes_planned is None else study.shoes_planned,
            "seed": study.seed,
            "rounds": study.rounds,
            "rounds_per_shoe": {"mean": mean, "se": se, "min": low, "max": high},
            "tag_level": TAG_LEVEL,
            "spread_units": f"1-{SPREAD}",
        },
        "note": NOTE,
        "bets": {
            b.bet: {
                "wager": b.wager,
                "fresh_ev": fraction(b.fresh_ev),
                "effects_of_removal_exact": {
                    rank.value: fraction(e) for rank, e in zip(RANKS, b.effects, strict=True)},
                **b.figures,
            }
            for b in study.bets
        },
        "options": study.profile.options(),
    }))
    return data


def with_ci95(data: Any) -> Any:
    """``data`` with a ``ci95`` [lo, hi] (mean +- 1.96 se) beside every ``{mean, se}`` estimate
    (None where the se is not known).

    >>> data = with_ci95({"a": [{"mean": 1.0, "se": 0.5}], "b": {"mean": 1.0, "se": None}})
    >>> [round(x, 4) for x in data["a"][0]["ci95"]], data["b"]["ci95"]
    ([0.02, 1.98], None)
    """
    if isinstance(data, list):
        return [with_ci95(v) for v in data]
    if not isinstance(data, dict):
        return data
    out = {k: with_ci95(v) for k, v in data.items()}
    if "mean" in out and "se" in out and "ci95" not in out:
        out["ci95"] = interval95(out["mean"], out["se"])
    return out


def _ev(value: float | None, digits: int = 4) -> str:
    """Money per unit staked (an EV, a gain, an edge) in percent of the stake, as every command
    prints a bet's EV (:func:`odds.rules.text.percent`, on the float's exact value).

    >>> _ev(-0.0761133), _ev(0.5, 2), _ev(float("nan"))
    ('-7.6113%', '+50.00%', 'n/a')
    """
    return "n/a" if value is None or math.isnan(value) else percent(Fraction(value), digits)


def _spread(value: float, digits: int = 4) -> str:
    """A standard error or deviation of such a figure, in percent of the stake, unsigned."""
    return f"{100 * value:.{digits}f}%"


def _pm_ev(entry: dict[str, float], digits: int = 4) -> str:
    """An estimated EV or gain and its 95% interval, in percent of the stake.

    >>> _pm_ev({"mean": -0.074, "se": 0.003})
    '-7.4000% [-7.9880%, -6.8120%]'
    """
    ci = interval95(entry["mean"], entry["se"])
    tail = "" if ci is None else f" [{_ev(ci[0], digits)}, {_ev(ci[1], digits)}]"
    return f"{_ev(entry['mean'], digits)}{tail}"


def _pm(entry: dict[str, float], digits: int = 6) -> str:
    """An estimated count (units, bets) and its 95% interval.

    >>> _pm({"mean": 0.6309, "se": 0.0759}, 4)
    '+0.6309 [+0.4821, +0.7797]'
    """
    mean = entry["mean"]
    head = "n/a" if mean is None or math.isnan(mean) else f"{mean:+.{digits}f}"
    ci = interval95(mean, entry["se"])
    return head + ("" if ci is None else f" [{ci[0]:+.{digits}f}, {ci[1]:+.{digits}f}]")


def _share(entry: dict[str, Any]) -> str:
    ci = entry.get("ci95") or interval95(entry["mean"], entry["se"])
    return f"{100 * entry['mean']:.2f}%" + (
        "" if ci is None else f" [{100 * ci[0]:.2f}%, {100 * ci[1]:.2f}%]")


def _bet_lines(b: BetStudy, bankroll: Bankroll) -> list[str]:
    f = b.figures
    lines = [f"{_label(b.bet)}", f"  fresh-shoe EV {percent(b.fresh_ev)} "
             f"(exact {fraction(b.fresh_ev)})"]
    lines.append(f"  EV across rounds: mean {_pm_ev(f['mean'])}, sd {_spread(f['sd'])}")
    lines.append(f"    from {_ev(f['min'])} to {_ev(f['max'])}")
    cells = [f"{p}%: {_ev(v, 2)}" for p, v in f["percentiles"].items()]
    lines += textwrap.wrap("  percentiles " + "  ".join(cells), 79, subsequent_indent="    ")
    counts = f["histogram"]["counts"]
    edges = f["histogram"]["edges"]
    top = max(counts) or 1
    lines.append(f"  histogram of the EV ({len(counts)} bins, rounds per bin):")
    for k, c in enumerate(counts):
        bar = "#" * math.ceil(40 * c / top) if c else ""
        lines.append(f"    {_ev(edges[k], 3):>9} .. {_ev(edges[k + 1], 3):>9} {c:>9} "
                     f"{bar}".rstrip())
    when = f["mean_when_positive"]
    lines.append(f"  EV > 0 in {_share(f['positive_share'])} of rounds"
                 + (f", by {_ev(when)} on average when it is" if when is not None else ""))
    lines.append(f"  cut-card effect (mean EV less the fresh EV): "
                 f"{_pm_ev(f['cut_card_effect'])}")
    if "settled_per_round" in f:
        lines.append(f"  settled on the rounds dealt: {_pm_ev(f['settled_per_round'])} a round")
    if b.wager:
        lines.append("  the ceilings, on the exact EV:")
        lines += _play("perfect information (bet when EV > 0)", f["perfect_information"])
        ceiling = f["perfect_information_spread"]
        lines += _spread_line(f"spread {ceiling['units']} on the exact EV", ceiling)
        if "system" in f:
            lines.append("  your count system:")
            lines += _play("bet when it triggers", f["system"])
    if "kelly_ramp" in f:
        lines += _counter_lines(f, bankroll)
    if "count_buckets" in f:
        lines += _bucket_lines(f)
    count = f["count"]
    tags = " ".join(f"{rank.value}:{t:+d}" for rank, t in zip(RANKS, count["tags"], strict=True))
    lines += textwrap.wrap(f"  tags (level {TAG_LEVEL}, from the effects of removal): {tags}",
                           79, subsequent_indent="    ")
    balance = "balanced" if count["tags_balanced"] else (
        f"unbalanced: pivot {count['pivot_per_card']:+.3f} per card seen")
    bc = count["betting_correlation"]
    lines.append(f"    betting correlation {'n/a' if bc is None else f'{bc:.3f}'}; {balance}")
    threshold = count["true_count_threshold"]
    if threshold is not None and b.wager:
        lines.append(f"    the tags say EV > 0 above a true count of {threshold:+.2f} "
                     "(per 52 cards left)")
    for name, label in (("linear_count", "linear count (unrounded effects)"),
                        ("tag_count", "tag count")):
        entry = f[name]
        corr = entry["correlation_with_exact_ev"]
        lines.append(f"  {label}: correlation with the exact EV "
                     f"{'n/a' if corr is None else f'{corr:.3f}'}")
        if b.wager:
            sit, spread = entry["sit_out"], entry["spread"]
            lines += _play("sit out unless it says EV > 0", sit)
            lines += _spread_line(f"spread {spread['units']} units", spread)
    return lines


def _size(entry: dict[str, Any], digits: int) -> str:
    """A size (an sd, a number of shoes, an amount) and its 95% interval, unsigned."""
    ci = entry.get("ci95")
    head = "n/a" if entry["mean"] is None or math.isnan(entry["mean"]) else (
        f"{entry['mean']:.{digits}f}")
    return head + ("" if ci is None else f" [{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]")


def _money_lines(label: str, entry: dict[str, Any]) -> list[str]:
    """A way of betting as a counter sees it: a shoe's mean and sd, N0, the risk of ruin at
    the table's unit and the win a shoe at the risk asked for."""
    lines = [f"    {label}:", f"      {'units a shoe':<19} {_pm(entry['units_per_shoe'], 4)}",
             f"      {'sd of a shoe':<19} {_size(entry['sd_per_shoe'], 3)} units"]
    if entry["n0"] is None:
        lines.append("      no edge: no N0, ruin is certain")
        return lines
    at = entry["at_risk_of_ruin"]
    lines += [f"      {'N0':<19} {_size(entry['n0'], 0)} shoes",
              f"      {'risk of ruin':<19} {_share(entry['risk_of_ruin'])}",
              f"      {'at the risk asked':<19} win {_size(at['win_per_shoe'], 4)} a shoe",
              f"      {'':<19} with a unit of {_size(at['unit'], 3)}"]
    return lines


def _counter_lines(f: dict[str, Any], bankroll: Bankroll) -> list[str]:
    """The counter's figures: the flat bet, the count system, the Kelly ramp."""
    lines = textwrap.wrap(
        f"  the counter's figures (a shoe as settled on the rounds dealt; bankroll "
        f"{fraction(bankroll.bankroll)}, betting unit {fraction(bankroll.unit)}, risk of "
        f"ruin asked {percent(bankroll.risk_of_ruin, 2).lstrip('+')}; money in the "
        "bankroll's units):", 79, subsequent_indent="    ")
    lines += _money_lines("flat bet, every round", f["flat_bet"])
    if "system" in f:
        lines += _money_lines("flat bet when your count triggers", f["system"])
    ramp = f["kelly_ramp"]
    lines += _money_lines(f"Kelly ramp, {ramp['units']} units by count bucket", ramp)
    lines.append(f"      {'bets a shoe':<19} {_pm(ramp['bets_per_shoe'], 2)} units")
    return lines


def _bucket_lines(f: dict[str, Any]) -> list[str]:
    """The count buckets: rounds, share of rounds, mean EV (95% intervals), the ramp."""
    table = f["count_buckets"]
    kind = ("true count, rounded down" if table["count"] == "true" else "running count")
    ramp = "ramp_units" in (table["buckets"] or [{}])[0]
    lines = [f"  count buckets ({kind}):",
             f"    {'count':>6} {'rounds':>8} {'share':>7} {'EV [95% interval]':>32}"
             + (" ramp" if ramp else "")]
    for row in table["buckets"]:
        count = f"{row['count']:+d}" + (("-" if row["count"] < 0 else "+")
                                        if row["or_beyond"] else "")
        lines.append(f"    {count:>6} {row['rounds']:>8} {100 * row['share']['mean']:>6.2f}% "
                     f"{_pm_ev(row['ev'], 3):>32}" + (f" {row['ramp_units']:>4}" if ramp else ""))
    return lines


def count_text(study: CountStudy) -> list[str]:
    """The study as terminal lines, bet by bet.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.money.counting import count_study
    >>> lines = count_text(count_study(BUILTIN["punto-banco"], 1, 5, 0.75, seed=2))
    >>> lines[1]
    'study: 5 shoes of 1 pack, seed 2, cut card after 39 of 52 cards'
    """
    profile = study.profile
    mean, se, low, high = study.rounds_per_shoe
    packs = f"{study.packs} pack" + "s" * (study.packs != 1)
    ci = interval95(mean, se)
    se_text = "" if ci is None else f" [{ci[0]:.2f}, {ci[1]:.2f}]"
    lines = [
        f"profile {profile.key}: {profile.title}",
        *textwrap.wrap(
            f"study: {study.shoes} shoes of {packs}, seed {study.seed}, cut card after "
            f"{study.cut} of {52 * study.packs} cards"
            + _dealing_text(study)
            + (f"; count system: {study.system.describe()}" if study.system else ""),
            79, subsequent_indent="  "),
        *wrap_rules(f"rules: {rules_line(profile)}"),
        f"rounds: {study.rounds} ({mean:.2f}{se_text} per shoe, {low} to {high})",
        *textwrap.wrap(NOTE + "; EVs and gains in percent of the stake; 'a round': "
                       "per round dealt; spread: 1 unit, "
                       f"{SPREAD} when the count says the EV is positive and above the fresh "
                       "shoe's", 79),
    ]
    if study.cluster is not None:
        lines[2:2] = textwrap.wrap(_cluster_line(study.cluster), 79, subsequent_indent="  ")
    if study.partial:
        lines[1:1] = textwrap.wrap(_partial_line(study), 79)
    for b in study.bets:
        lines.append("")
        lines += _bet_lines(b, study.bankroll)
    return lines


def _dealing_text(study: CountStudy) -> str:
    """The burn and the rounds after the cut card, as the study line says them ('' if none)."""
    text = f", {study.burn} burned face down" if study.burn else ""
    if study.burn_rule == "casino":
        text += (", the first card shown (" + ("counted" if study.count_burn else "not counted")
                 + ") and its value burned face down (10-K: 10)")
    if study.rounds_after_cut:
        text += (f", {study.rounds_after_cut} round" + "s" * (study.rounds_after_cut != 1)
                 + " dealt after the cut card comes out")
    return text


def _cluster_line(where: dict[str, Any]) -> str:
    """Where the chunks ran: ``dealt on the Dask cluster local:2 (scheduler tcp://..., 2
    workers, 2 threads)``."""
    parts = [f"scheduler {where['scheduler']}" if where.get("scheduler") else None,
             f"{where['workers']} worker" + "s" * (where["workers"] != 1)
             if where.get("workers") is not None else None,
             f"{where['threads']} thread" + "s" * (where["threads"] != 1)
             if where.get("threads") is not None else None]
    shown = ", ".join(p for p in parts if p)
    return (f"dealt on the Dask cluster {where.get('address') or ''}".rstrip()
            + (f" ({shown})" if shown else ""))


def _partial_line(study: CountStudy) -> str:
    return (f"PARTIAL: stopped after {study.shoes:,} of {study.shoes_planned or study.shoes:,} "
            f"shoes; every figure below is of those {study.shoes:,} shoes "
            "(resume a study saved with --save DIR with --resume DIR)")


# -- a study grid --------------------------------------------------------------

GRID_COLUMNS = (
    "profile", "packs", "cut_card_after", "cards_behind_cut_card", "shoes", "partial", "rounds",
    "bet", "fresh_ev", "mean_ev", "mean_ev_se", "positive_share", "positive_share_se",
    "perfect_information_per_round", "perfect_information_per_round_se",
    "tag_count_correlation", "tag_count_sit_out_per_round", "tag_count_sit_out_per_round_se",
    "linear_count_correlation", "linear_count_sit_out_per_round",
    "linear_count_sit_out_per_round_se",
    # Appended, so scripts that read the columns above by place keep working: the 95% interval
    # (estimate +- 1.96 se) of each estimate with an se column, as count's text prints it.
    *(f"{name}_ci95_{end}" for name in ("mean_ev", "positive_share",
                                         "perfect_information_per_round",
                                         "tag_count_sit_out_per_round",
                                         "linear_count_sit_out_per_round")
      for end in ("low", "high")),
    # Appended likewise: units a shoe of each way of betting, your count system's figures
    # (empty without --tags) and the Kelly ramp's, each estimate with its se and interval.
    *(f"{name}{end}" for name in (
        "perfect_information_units_per_shoe", "tag_count_sit_out_units_per_shoe",
        "linear_count_sit_out_units_per_shoe", "system_per_round", "system_units_per_shoe",
        "system_bets_per_shoe", "system_edge_when_betting", "system_n0",
        "kelly_ramp_units_per_shoe", "kelly_ramp_n0")
      for end in ("", "_se", "_ci95_low", "_ci95_high")),
    "count_system_tags", "count_system_trigger",
)


def _cell(study: CountStudy) -> dict[str, Any]:
    return {"profile": study.profile.key, "packs": study.packs, "cut_cards": study.cut_cards,
            "penetration": study.penetration}


def grid_data(grid: CountGrid) -> dict[str, Any]:
    """A study grid as JSON-ready data: each cell's settings and its study's data.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.money.counting import count_grid
    >>> grid = count_grid([(BUILTIN["punto-banco"], 1, None), (BUILTIN["punto-banco"], 2, None)],
    ...                   4, seed=1, bets=["tie"])
    >>> data = grid_data(grid)
    >>> data["cells"], [c["cell"]["packs"] for c in data["grid"]], data["partial"]
    (2, [1, 2], False)
    """
    return {"cells": grid.cells, "partial": grid.partial,
            "grid": [{"cell": _cell(s), "study": count_data(s)} for s in grid.studies]}


def _row_values(study: CountStudy, b: BetStudy) -> list[Any]:
    f = b.figures

    def gain(entry: dict[str, Any] | None) -> list[Any]:
        if entry is None:
            return [None, None]
        g = entry["gain_per_round_dealt"]
        return [g["mean"], g["se"]]

    def ci(pair: list[Any]) -> list[Any]:
        interval = interval95(*pair) if None not in pair else None
        return [None, None] if interval is None else interval

    wager = b.wager
    mean = [f["mean"]["mean"], f["mean"]["se"]]
    share = [f["positive_share"]["mean"], f["positive_share"]["se"]]
    gains = [gain(f["perfect_information"] if wager else None),
             gain(f["tag_count"]["sit_out"] if wager else None),
             gain(f["linear_count"]["sit_out"] if wager else None)]
    return [
        study.profile.key, study.packs, study.cut, 52 * study.packs - study.cut, study.shoes,
        study.partial, study.rounds, b.bet, fraction(b.fresh_ev), f["mean"]["mean"],
        f["mean"]["se"], f["positive_share"]["mean"], f["positive_share"]["se"],
        *gain(f["perfect_information"] if wager else None),
        f["tag_count"]["correlation_with_exact_ev"],
        *gain(f["tag_count"]["sit_out"] if wager else None),
        f["linear_count"]["correlation_with_exact_ev"],
        *gain(f["linear_count"]["sit_out"] if wager else None),
        *ci(mean), *ci(share), *(v for g in gains for v in ci(g)),
        *_appended(study, b),
    ]


def _appended(study: CountStudy, b: BetStudy) -> list[Any]:
    """The grid's appended columns: units a shoe, the count system's and the ramp's."""
    f = b.figures
    system = f.get("system")
    ramp = f.get("kelly_ramp")

    def of(entry: dict[str, Any] | None, *path: str) -> list[Any]:
        for key in path:
            entry = None if entry is None else entry.get(key)
        if entry is None:
            return [None] * 4
        ci = entry.get("ci95") or interval95(entry["mean"], entry["se"])
        return [entry["mean"], entry["se"], *(ci or [None, None])]

    out = [*of(f.get("perfect_information"), "units_per_shoe"),
           *of(f["tag_count"].get("sit_out"), "units_per_shoe"),
           *of(f["linear_count"].get("sit_out"), "units_per_shoe"),
           *of(system, "gain_per_round_dealt"), *of(system, "units_per_shoe"),
           *of(system, "bets_per_shoe"), *of(system, "edge_when_betting"), *of(system, "n0"),
           *of(ramp, "units_per_shoe"), *of(ramp, "n0")]
    tags = None if study.system is None else " ".join(str(t) for t in study.system.tags)
    trigger = None if study.system is None else study.system.trigger
    return [*out, tags, trigger]


def _csv_value(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def grid_rows(grid: CountGrid) -> list[list[str]]:
    """The grid as CSV rows: a header, then one row per cell and bet (estimates with se).

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.money.counting import count_grid
    >>> rows = grid_rows(count_grid([(BUILTIN["punto-banco"], 1, None)] * 2, 3, bets=["tie"]))
    >>> rows[0][:3], len(rows), rows[1][7]
    (['profile', 'packs', 'cut_card_after'], 3, 'tie')
    """
    rows = [list(GRID_COLUMNS)]
    for study in grid.studies:
        for b in study.bets:
            rows.append([_csv_value(v) for v in _row_values(study, b)])
    return rows


def grid_text(grid: CountGrid) -> list[str]:
    """The grid as terminal lines: one line per cell and bet (EVs per round dealt, 95% intervals)."""
    lines = [f"study grid: {grid.cells} cells, the same shoes (seed) in each; " +
             ("PARTIAL: stopped early, the figures are of the shoes dealt" if grid.partial
              else "every cell complete"),
             *textwrap.wrap(NOTE, 79), "",
             f"{'profile':<14} {'packs':>5} {'cut':>4} {'bet':<14} {'mean EV':>29} "
             f"{'perfect info':>29}"]
    for study in grid.studies:
        for b in study.bets:
            f = b.figures
            perfect = (_pm_ev(f["perfect_information"]["gain_per_round_dealt"], 3) if b.wager
                       else "n/a")
            lines.append(f"{study.profile.key[:14]:<14} {study.packs:>5} "
                         f"{52 * study.packs - study.cut:>4} {b.bet[:14]:<14} "
                         f"{_pm_ev(f['mean'], 3):>29} {perfect:>29}")
        if study.partial:
            lines.append(f"  ({_partial_line(study)})")
    lines.append("")
    lines += textwrap.wrap("cut: cards behind the cut card; per round dealt, in percent of the "
                           "stake, [95% interval]; --format json for every figure", 79)
    return lines
