"""Judge a simulator's output against the rules and the exact odds.

:func:`verify_file` reads tallies or a round log (formats in
:mod:`odds.sim.tallies` and docs/simulate-and-verify.md), from our simulator or anyone's.
A round log is first *audited*: every row's draw and stand decisions, final
values, result and payout are recomputed from its cards with the reference
code (:mod:`odds.exact.engine`, :mod:`odds.rules.settle`), and the first violations are
reported with their line numbers.  Then the frequencies are tested against
the exact probabilities of :func:`odds.exact.engine.round_odds` for the same
profile and shoe: chi-square goodness of fit (outcome categories, two-card
and final values, payouts), z-scores (win, push, loss, naturals, Colon,
draws), and the expected value with a confidence interval.  P-values are
computed with mpmath, so a tiny one is printed as what it is, not as 0.

Every seat is tested on its own (seats share the bank's hand, so pooled
seats are not independent rounds); the verdict combines all tests with a
Bonferroni bound: ``p = min(1, tests * smallest p)``.

This module imports numpy and mpmath; the ``odds`` package does not import it.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import mpmath  # type: ignore[import-untyped]
import numpy as np

from odds.exact.engine import round_odds
from odds.rules.textio import read_text, strip_bom
from odds.sim.audit import Reference, Violation, audit, check_shoe, log_tallies
from odds.sim.logs import Log, parse_json_log, parse_log
from odds.sim.stats import SeatReport, p_text, seat_report
from odds.sim.tallies import (
    LOG_COLUMNS,
    OUTCOMES,
    RunHeader,
    Tally,
    TallyError,
    header_from_data,
    read_tallies,
    split_comments,
)

__all__ = [
    "CUT_TOLERANCE",
    "Verification",
    "verify_file",
    "verify_tallies",
    "verify_text",
]

# In a continuous shoe the fresh-shoe odds do not strictly apply; a deviation
# of every category frequency within this much (absolute) is card removal.
CUT_TOLERANCE = 0.005
# The largest file verify reads (it reads it whole): 2 GiB, a 4*10^7-row CSV log.
MAX_FILE = 1 << 31


@dataclass(frozen=True)
class Verification:
    """Everything ``lucky9 verify`` found about one file."""

    source: str
    kind: str  # "tallies" or "log"
    header: RunHeader
    header_from: str  # "file" or "command line"
    rows: int
    violations: tuple[Violation, ...]
    violation_counts: dict[str, int]
    seats: tuple[SeatReport, ...]
    alpha: float
    exact_total: int = field(repr=False, default=0)

    @property
    def tests(self) -> int:
        """How many frequency tests the verdict combines."""
        return sum(len(s.checks) for s in self.seats)

    @property
    def p_value(self) -> Any:
        """Bonferroni bound over all tests: min(1, tests * smallest p)."""
        ps = [c.p for s in self.seats for c in s.checks]
        if not ps:
            return mpmath.mpf(1)
        return min(mpmath.mpf(1), len(ps) * min(ps))

    @property
    def continuous(self) -> bool:
        """True for a continuous shoe (reshuffle at a cut card)."""
        return self.header.reshuffle == "cut"

    @property
    def broken_rules(self) -> list[str]:
        """Rules the audit found broken, in audit order."""
        return [rule for rule, count in self.violation_counts.items() if count]

    @property
    def verdict(self) -> str:
        """``pass``, ``fail`` or ``expected deviation`` (continuous shoe)."""
        if self.broken_rules:
            return "fail"
        if self.p_value >= self.alpha:
            return "pass"
        if self.continuous and all(s.max_deviation <= CUT_TOLERANCE for s in self.seats):
            return "expected deviation"
        return "fail"

    @property
    def passed(self) -> bool:
        """True unless the verdict is ``fail``."""
        return self.verdict != "fail"

    def verdict_text(self) -> str:
        """The plain verdict sentence."""
        p = p_text(self.p_value)
        if self.broken_rules:
            total = sum(self.violation_counts.values())
            return (f"FAIL: {total} row{'s' if total != 1 else ''} break the rules "
                    f"({', '.join(self.broken_rules)}); the simulator deals or settles wrongly")
        if self.verdict == "pass":
            text = (f"PASS: the frequencies agree with the exact odds at alpha {self.alpha:g} "
                    f"(combined p = {p} over {self.tests} tests)")
            if self.continuous:
                text += ("; continuous shoe: card removal shifts the odds slightly, "
                         "too little to see here")
            return text
        if self.verdict == "expected deviation":
            dev = max(s.max_deviation for s in self.seats)
            return (f"EXPECTED DEVIATION, not a bug: combined p = {p} at alpha {self.alpha:g}, "
                    f"but this is a continuous shoe with a cut card, where card removal "
                    f"shifts each round's odds slightly; the largest category shift "
                    f"({dev:.5f}) is within {CUT_TOLERANCE}")
        return (f"FAIL: the frequencies do not match the exact odds (combined p = {p} "
                f"over {self.tests} tests, alpha {self.alpha:g}); see the smallest p-values")


def verify_tallies(header: RunHeader, tallies: Sequence[Tally], alpha: float = 0.01,
                   source: str = "tallies", header_from: str = "file") -> Verification:
    """Test tallies against the exact odds of the header's profile and shoe.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.rules.shoe import Shoe
    >>> from odds.sim.simulate import simulate
    >>> sim = simulate(BUILTIN["plain"], Shoe.packs_of(1), 20000, seed=5)
    >>> verify_tallies(sim.header, sim.tallies).verdict
    'pass'
    """
    _check_alpha(alpha)
    exact = round_odds(header.profile, header.shoe)
    for t in tallies:
        t.check(header.profile, source)
        if t.rounds < 1:  # the statistics divide by it
            raise TallyError(f"{source}: seat {t.seat}: rounds is 0 (nothing to test)")
    seats = tuple(seat_report(t, exact, alpha) for t in tallies)
    return Verification(source, "tallies", header, header_from, 0, (), {}, seats, alpha,
                        exact.total)


def _check_alpha(alpha: float) -> None:
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, not {alpha!r}")


def verify_text(
    text: str,
    source: str = "input",
    rules: RunHeader | None = None,
    alpha: float = 0.01,
    seats: int | None = None,
) -> Verification:
    """Verify the contents of a tallies file or round log.

    ``rules`` overrides the file's header (or supplies one where the file
    has none); without either, the ``standard`` profile is assumed.
    ``seats`` is the table's number of seats (default: the header's, or
    for a log without one, the highest seat in it).

    >>> log = "round,seat,player,bank,result,payout\\n1,1,8h 7s 4d,Ac 6d,win,1\\n"
    >>> verify_text(log).broken_rules
    []
    >>> print(verify_text(log.replace("win,1", "win,2")).violations[0].message)
    win_comparison with player 8h 7s 4d: the rules pay 1, the log pays 2
    >>> verify_text(log.replace("4d", "4d 4d"))
    Traceback (most recent call last):
    ...
    odds.sim.tallies.TallyError: input, line 2: player cards: '8h 7s 4d 4d' has 4 cards; ...
    """
    _check_alpha(alpha)
    text = strip_bom(text)
    try:
        return _verify_text(text, source, rules, alpha, seats)
    except csv.Error as exc:  # a quoted field past the csv module's limit, say
        raise TallyError(f"{source}: not valid CSV ({exc})") from None


def _verify_text(text: str, source: str, rules: RunHeader | None, alpha: float,
                 seats: int | None) -> Verification:
    stripped = text.lstrip()
    first_object = stripped.split("\n", 1)[0]
    tallies: list[Tally] = []
    log: Log | None = None
    if stripped.startswith("{") and ('"lucky9-log/1"' in first_object
                                     or '"round"' in first_object):
        data, log = parse_json_log(text.splitlines(), source)
    elif stripped.startswith("{"):
        data, tallies = read_tallies(text, source)
        log = None
        if data.get("format") not in (None, "lucky9-tallies/1"):
            raise TallyError(f"{source}: format {data.get('format')!r} is not lucky9-tallies/1")
    else:
        data, rest, skipped = split_comments(text, source)
        first = next((ln for ln in rest if ln.strip()), "")
        columns = [c.strip().lower() for c in first.split(",")]
        if "quantity" in columns:
            data, tallies = read_tallies(text, source)
            log = None
        elif "player" in columns and "bank" in columns:
            log = parse_log(rest, skipped + 1, source)
        else:
            raise TallyError(
                f"{source}, line {skipped + 1}: not a tallies file (seat,quantity,key,count) "
                f"or round log ({','.join(LOG_COLUMNS)}), nor JSON"
            )
    header_from = "file"
    if rules is not None:
        header, header_from = rules, "command line"
    elif data.get("profile") is not None or data.get("options") is not None:
        header = header_from_data(data, source)
    else:
        header = header_from_data(data, source)
        header_from = "defaults (the file names no rules)"
    if log is None:
        seats = max((t.seat for t in tallies), default=1)
        if header.seats < seats:
            header = RunHeader(header.profile, header.shoe, seats, header.reshuffle,
                               header.penetration, header.seed)
        result = verify_tallies(header, tallies, alpha, source, header_from)
        return result
    if seats is not None:
        header = RunHeader(header.profile, header.shoe, seats, header.reshuffle,
                           header.penetration, header.seed)
    stated = seats is not None or (rules is None and "seats" in data)
    seats = header.seats if stated else max(header.seats, int(log.seat.max()))
    if seats > 8:
        raise TallyError(f"{source}: seat {seats}, but a table has at most 8 players")
    if seats != header.seats:
        header = RunHeader(header.profile, header.shoe, seats, header.reshuffle,
                           header.penetration, header.seed)
    ref = Reference.of(header.profile)
    b_rule = header.profile.bank_draw
    if seats > 1 and ((b_rule is not None and b_rule.tableau is not None)
                      or header.profile.naturals_stop_draws):
        raise TallyError(
            f"{source}: profile {header.profile.key!r} is defined for one player hand "
            f"(tableau or naturals stopping draws), but the log has {seats} seats"
        )
    unknown = [r for r in log.results if r not in ref.names and r not in OUTCOMES]
    if unknown:
        i = int(np.flatnonzero(log.result == log.results.index(unknown[0]))[0])
        raise TallyError(
            f"{source}, line {log.line[i]}: unknown result {unknown[0]!r} "
            f"(categories under profile {header.profile.key!r}: {', '.join(ref.names)}; "
            "or win, push, loss)"
        )
    check_shoe(log, header.shoe, seats, source)
    audited = audit(log, ref)
    exact = round_odds(header.profile, header.shoe)
    seat_reports = tuple(seat_report(t, exact, alpha)
                         for t in log_tallies(log, audited, seats))
    return Verification(source, "log", header, header_from, len(log.line),
                        tuple(audited.violations), audited.counts, seat_reports, alpha,
                        exact.total)


def verify_file(path: str | Path, rules: RunHeader | None = None,
                alpha: float = 0.01, seats: int | None = None) -> Verification:
    """Verify a tallies file or round log (see :func:`verify_text`).

    >>> verify_file("no-such-file.csv")
    Traceback (most recent call last):
    ...
    odds.sim.tallies.TallyError: file 'no-such-file.csv' does not exist
    """
    p = Path(path)
    text = read_text(p, MAX_FILE, "file", TallyError)
    return verify_text(text, str(p), rules, alpha, seats)
