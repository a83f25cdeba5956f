"""The verifier's report: terminal lines and JSON-ready data of a :class:`Verification`."""

from __future__ import annotations

import math
from typing import Any

from odds.exact.deal import cut_position
from odds.rules.text import decimal, fraction, rules_line, text_table, wrap_rules
from odds.sim.stats import p_text, z_text
from odds.sim.verdict import Verification

__all__ = ["verify_data", "verify_lines"]


def _room(name: str) -> int:
    """The width of a test's figure after its name: a side bet's longer name (``bet banker
    expected value``) takes room from it, so its figure lines up with the main bet's.

    >>> _room("expected value"), _room("bet banker expected value")
    (12, 9)
    """
    return max(12 - max(len(name) - 22, 0), 1)


def verify_lines(v: Verification, detail: bool = True) -> list[str]:
    """The report as terminal lines."""
    h = v.header
    out = [
        f"file: {v.source} ({'round log' if v.kind == 'log' else 'tallies'}, "
        f"{v.rows:,} row{'s' if v.rows != 1 else ''})" if v.kind == "log"
        else f"file: {v.source} (tallies)",
        *wrap_rules(f"rules ({v.header_from}): profile {h.profile.key}; {rules_line(h.profile)}"),
        f"shoe: {h.shoe.label}; seats: {h.seats}; reshuffle: {h.reshuffle}"
        + (f" at penetration {h.penetration:g}" if h.penetration is not None else "")
        + (f" ({h.shoe.size - cut_position(h.shoe.size, h.penetration):,} cards behind the "
           "cut card)" if h.penetration is not None and h.reshuffle == "cut"
           and not h.shoe.infinite else "")
        + (f"; seed {h.seed}" if h.seed is not None else ""),
    ]
    if v.sources:
        out.append("rules from: " + ", ".join(f"{rule} ({kind})" for rule, kind in v.sources))
    out += [f"note: {note}" for note in v.notes]
    if v.kind == "log":
        out.append("")
        out.append("audit (every row against the rules):")
        for rule, count in v.violation_counts.items():
            broken = f"{count:,} row{'s' if count > 1 else ''} broken"
            out.append(f"  {rule:<12} {'ok' if not count else broken}")
        if v.violations:
            out.append(f"first violations (of {sum(v.violation_counts.values()):,}):")
            out += ["  " + violation.text() for violation in v.violations]
    for seat in v.seats:
        out.append("")
        out.append(f"seat {seat.seat}: {seat.rounds:,} round{'s' if seat.rounds != 1 else ''}")
        for check in seat.checks:
            if check.df is not None:
                stat = "inf" if math.isinf(check.statistic) else f"{check.statistic:.2f}"
                out.append(f"  chi-square {check.name:<22} {stat:>{_room(check.name)}} df {check.df:<3}"
                           f" p = {check.p_text}" + (f"  ({check.note})" if check.note else ""))
                if detail and check is not seat.checks[0] and check.rows:
                    zs = " ".join(f"{label}:{z_text(z)}" for label, _, e, z in check.rows
                                  if e > 0 or not math.isfinite(z))
                    out.append(f"    z by {'amount' if check.name.endswith('payouts') else 'value'}:"
                               f" {zs}")
            else:
                z = "inf" if math.isinf(check.statistic) else f"{check.statistic:+.2f}"
                out.append(f"  z          {check.name:<22} {z:>{_room(check.name)}}        "
                           f"p = {check.p_text}"
                           + (f"  ({check.note})" if check.note else ""))
        if detail:
            cat = seat.checks[0]
            table = [[cat.name, "observed", "exact", "z"]]
            for label, o, e, zz in cat.rows:
                freq = o / seat.rounds if seat.rounds else 0.0
                exact = e / seat.rounds if seat.rounds else 0.0
                table.append([label, f"{freq:.6f}", f"{exact:.6f}", f"{zz:+.2f}"])
            out += text_table(table, ["  <24", ">12", ">12", ">8"])
        if seat.ev_interval is not None and seat.ev_expected is not None:
            lo, hi = seat.ev_interval
            out.append(
                f"  EV per unit stake: observed {seat.ev_observed:+.6f}, "
                f"{100 * (1 - v.alpha):g}% interval [{lo:+.6f}, {hi:+.6f}]; "
                f"expected {seat.ev_expected:+.6f} (mean of the rounds' exact EVs)"
            )
        elif seat.ev_interval is not None and seat.ev_exact is not None:
            lo, hi = seat.ev_interval
            out.append(
                f"  EV per unit stake: observed {seat.ev_observed:+.6f}, "
                f"{100 * (1 - v.alpha):g}% interval [{lo:+.6f}, {hi:+.6f}]; "
                f"exact {decimal(seat.ev_exact, 6)} ({fraction(seat.ev_exact)})"
            )
    out.append("")
    out.append(v.verdict_text())
    if v.hint:
        out.append(f"hint: {v.hint}")
    out += [f"hint: {cause}" for cause in v.causes]
    return out


def verify_data(v: Verification) -> dict[str, Any]:
    """JSON-ready report."""
    return {
        "source": v.source,
        "kind": v.kind,
        "header": v.header.as_data(),
        "rules_from": v.header_from,
        "sources": dict(v.sources),
        "expectation": v.expectation,
        "notes": list(v.notes),
        "rows": v.rows,
        "audit": {"counts": v.violation_counts,
                  "violations": [v.__dict__ for v in v.violations]},
        "seats": [
            {
                "seat": s.seat,
                "rounds": s.rounds,
                "tests": [
                    {"name": c.name, "kind": "z" if c.df is None else "chi-square",
                     "statistic": None if math.isinf(c.statistic) else c.statistic,
                     "df": c.df, "p": c.p_text, "note": c.note or None,
                     "cells": [{"label": label, "observed": o, "expected": e,
                                "z": z_text(z)} for label, o, e, z in c.rows]}
                    for c in s.checks
                ],
                "ev_observed": s.ev_observed,
                "ev_exact": None if s.ev_exact is None else fraction(s.ev_exact),
                "ev_expected": s.ev_expected,
                "ev_interval": list(s.ev_interval) if s.ev_interval else None,
            }
            for s in v.seats
        ],
        "alpha": v.alpha,
        "p_value": p_text(v.p_value),
        "verdict": v.verdict,
        "verdict_text": v.verdict_text(),
        "hint": v.hint or None,
        "causes": list(v.causes),
    }
