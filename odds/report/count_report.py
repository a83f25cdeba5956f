"""Rendering the shoe study (:func:`odds.money.counting.count_study`): JSON data and text.

Every per-round EV behind the figures is exact; the figures themselves are
estimates over the shoes dealt, printed with their standard errors.
"""

from __future__ import annotations

import math
import textwrap
from typing import Any

from odds.money.counting import SPREAD, TAG_LEVEL, BetStudy, CountStudy
from odds.rules.cards import RANKS
from odds.rules.text import fraction, rules_line, wrap_rules

__all__ = ["count_data", "count_text"]

NOTE = (
    "every round's EV is exact (the batch engine on the shoe's composition before the "
    "round); the figures are estimates over the shoes dealt, each with its standard error "
    "(the shoe is the unit), computed in float64 from those exact EVs"
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
    """A strategy's lines: per round, bets per shoe, edge when betting, per shoe, per 100."""
    lines = [f"    {label}: {_pm(entry['gain_per_round_dealt'])} a round dealt"]
    lines.append(f"      {_pm(entry['bets_per_shoe'], 2)} bets a shoe, edge when betting "
                 f"{_pm(entry['edge_when_betting'])}")
    lines.append(f"      {_pm(entry['units_per_shoe'], 4)} units a shoe, "
                 f"{_pm(entry['units_per_100_hands'], 4)} per 100 hands")
    sampled = entry.get("sampled_outcomes")
    if sampled and sampled.get("variance_factor"):
        lines.append(f"      settled on the rounds dealt: {_pm(sampled['units_per_shoe'], 4)} "
                     "units a shoe:")
        lines.append(f"        a simulation of outcomes needs {sampled['variance_factor']:.0f}x "
                     "the shoes for the same se")
    return lines


def _clean(value: Any) -> Any:
    """NaN (a standard error of one shoe) as None: JSON has no NaN."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def count_data(study: CountStudy) -> dict[str, Any]:
    """Every figure of the study as JSON-ready data.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.money.counting import count_study
    >>> data = count_data(count_study(BUILTIN["standard"], 1, 5, 0.75, seed=2))
    >>> sorted(data["bets"]), data["bets"]["player"]["fresh_ev"]
    (['colon', 'colon-nine', 'colon-share', 'player'], '1041476/38172225')
    """
    mean, se, low, high = study.rounds_per_shoe
    data: dict[str, Any] = _clean({
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
            "count_system": None if study.system is None else {
                "tags": list(study.system.tags), "trigger": study.system.trigger,
                "balanced": study.system.balanced, "initial_running_count": study.system.irc,
                "deck_estimate": study.system.deck_estimate},
            "partial": study.partial,
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
    })
    return data


def _ev(value: float | None, digits: int = 6) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:+.{digits}f}"


def _pm(entry: dict[str, float], digits: int = 6) -> str:
    se = entry["se"]
    tail = "" if math.isnan(se) else f" ± {se:.{digits}f}"
    return f"{_ev(entry['mean'], digits)}{tail}"


def _share(entry: dict[str, float]) -> str:
    se = entry["se"]
    return f"{100 * entry['mean']:.2f}%" + ("" if math.isnan(se) else f" ± {100 * se:.2f}%")


def _bet_lines(b: BetStudy) -> list[str]:
    f = b.figures
    lines = [f"{_label(b.bet)}", f"  fresh-shoe EV {_ev(float(b.fresh_ev))} "
             f"(exact {fraction(b.fresh_ev)})"]
    lines.append(f"  EV across rounds: mean {_pm(f['mean'])}, sd {f['sd']:.6f}")
    lines.append(f"    from {_ev(f['min'])} to {_ev(f['max'])}")
    cells = [f"{p}%: {_ev(v, 4)}" for p, v in f["percentiles"].items()]
    lines += textwrap.wrap("  percentiles " + "  ".join(cells), 79, subsequent_indent="    ")
    counts = f["histogram"]["counts"]
    edges = f["histogram"]["edges"]
    top = max(counts) or 1
    lines.append(f"  histogram of the EV ({len(counts)} bins, rounds per bin):")
    for k, c in enumerate(counts):
        bar = "#" * math.ceil(40 * c / top) if c else ""
        lines.append(f"    {edges[k]:+.5f} .. {edges[k + 1]:+.5f} {c:>9} {bar}".rstrip())
    when = f["mean_when_positive"]
    lines.append(f"  EV > 0 in {_share(f['positive_share'])} of rounds"
                 + (f", by {_ev(when)} on average when it is" if when is not None else ""))
    lines.append(f"  cut-card effect (mean EV less the fresh EV): {_pm(f['cut_card_effect'])}")
    if b.wager:
        lines.append("  the ceilings, on the exact EV:")
        lines += _play("perfect information (bet when EV > 0)", f["perfect_information"])
        ceiling = f["perfect_information_spread"]
        lines.append(f"    spread {ceiling['units']} on the exact EV: "
                     f"{_pm(ceiling['gain_per_round_dealt'])} a round, "
                     f"{_ev(ceiling['gain_per_unit_staked'])} a unit")
        if "system" in f:
            lines.append("  your count system:")
            lines += _play("bet when it triggers", f["system"])
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
            lines.append(f"    spread {spread['units']} units: {_pm(spread['gain_per_round_dealt'])}"
                         f" a round, {_ev(spread['gain_per_unit_staked'])} a unit")
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
    se_text = "" if math.isnan(se) else f" ± {se:.2f}"
    lines = [
        f"profile {profile.key}: {profile.title}",
        *textwrap.wrap(
            f"study: {study.shoes} shoes of {packs}, seed {study.seed}, cut card after "
            f"{study.cut} of {52 * study.packs} cards"
            + (f", {study.burn} burned face down" if study.burn else "")
            + (f"; count system: {study.system.describe()}" if study.system else ""),
            79, subsequent_indent="  "),
        *wrap_rules(f"rules: {rules_line(profile)}"),
        f"rounds: {study.rounds} ({mean:.2f}{se_text} per shoe, {low} to {high})",
        *textwrap.wrap(NOTE + "; 'a round': per round dealt; spread: 1 unit, "
                       f"{SPREAD} when the count says the EV is positive and above the fresh "
                       "shoe's", 79),
    ]
    for b in study.bets:
        lines.append("")
        lines += _bet_lines(b)
    return lines
