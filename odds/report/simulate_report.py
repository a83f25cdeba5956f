"""A simulation run as JSON-ready data and terminal text."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from odds.rules.text import rules_line, text_table, wrap_rules
from odds.sim.simulate import Simulation

__all__ = ["simulation_data", "simulation_text"]


def simulation_data(sim: Simulation) -> dict[str, Any]:
    """A simulation run as JSON-ready data: the run's header, then every seat's tallies."""
    return {**sim.header.as_data(), "cut_cards": sim.cut_cards, "rounds": sim.rounds,
            "shoes": sim.shoes, "note": sim.note, "tallies": [t.as_data() for t in sim.tallies]}


def simulation_text(sim: Simulation) -> list[str]:
    """A simulation run as terminal lines (frequencies, not exact odds)."""
    h = sim.header
    if h.reshuffle == "round" or h.penetration is None or sim.cut_cards is None:
        how = "a fresh shoe every round"
    else:
        behind = sim.cut_cards
        how = (f"continuous shoe, cut card at penetration {h.penetration:.4g}: "
               f"{h.shoe.size - behind:,} of {h.shoe.size:,} cards dealt, {behind:,} behind "
               f"it ({sim.shoes:,} shoes)")
    lines = [
        f"profile {h.profile.key}: {h.profile.title}",
        *wrap_rules(f"rules: {rules_line(h.profile)}"),
        f"shoe: {h.shoe.label}; {how}; seed {h.seed}",
        f"{sim.rounds:,} rounds x {h.seats} seat{'s' if h.seats > 1 else ''} "
        f"= {sim.rounds * h.seats:,} player-rounds (simulated; decimals are frequencies)",
        "",
    ]
    table = [["seat", "win", "tie", "loss", "EV/stake", "99% interval"]]
    for t in sim.tallies:
        n = t.rounds
        out = t.outcomes
        mean = float(sim.expected_value(t.seat))
        payouts = t.payouts or {}  # the simulator always counts them
        second = float(sum((a * a * c for a, c in payouts.items()), Fraction(0)) / n)
        half = 2.5758293035489 * ((second - mean * mean) / n) ** 0.5
        table.append([str(t.seat), f"{out['win'] / n:.5f}", f"{out['push'] / n:.5f}",
                      f"{out['loss'] / n:.5f}", f"{mean:+.5f}",
                      f"[{mean - half:+.5f}, {mean + half:+.5f}]"])
    lines += text_table(table, ["  <6", ">10", ">10", ">10", ">12", "  <0"])
    first = sim.tallies[0]
    lines.append("")
    lines += text_table([["how it ends (seat 1)", "frequency"]] + [
        [name, f"{count / first.rounds:.6f}"] for name, count in first.categories.items()],
        ["  <24", ">12"])
    if sim.note:
        lines += ["", f"note: {sim.note}"]
    lines += ["", "compare with the exact odds: lucky9 verify FILE "
              "(write FILE with --tallies or --log)"]
    return lines
