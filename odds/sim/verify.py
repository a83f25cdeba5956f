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
import itertools
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath  # type: ignore[import-untyped]
import numpy as np

from odds.exact.engine import round_odds
from odds.io.textio import read_line_blocks, read_text, strip_bom
from odds.rules.errors import ProfileError
from odds.rules.profile import Profile
from odds.rules.shoe import Shoe
from odds.sim.audit import (
    EXAMPLES,
    DealtBefore,
    OutOfOrder,
    Reference,
    ShoeCheck,
    Violation,
    audit,
    check_shoe,
    log_tallies,
    side_bet,
)
from odds.sim.logs import Log, NoRows, parse_json_log, parse_log
from odds.sim.stats import (
    RoundModel,
    SeatReport,
    StrategyOdds,
    model_report,
    p_text,
    seat_report,
    strategy_report,
)
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
    "RuleOverrides",
    "StrategyFn",
    "Verification",
    "verify_file",
    "verify_tallies",
    "verify_text",
]

StrategyFn = Callable[[Profile, Shoe], StrategyOdds]
# The largest file verify reads whole (a tallies file, or a round log out of
# round order): 2 GiB, a 4*10^7-row CSV log.  A log in round order, as every
# simulator writes it, is read block by block, whatever its size.
MAX_FILE = 1 << 31
BLOCK = 1 << 20  # bytes of a round log read at a time (about 22,000 CSV rows; a cut-card
# block costs about 2.5 KB a row: 4 MB blocks peaked at 306 MB on 10^6 rows, 1 MB at 130 MB,
# in the same CPU time)
MAX_SEATS = 8


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
    expectation: str = "fresh"  # "fresh", "per round" (shoe column) or "over shoes"
    notes: tuple[str, ...] = ()
    sources: tuple[tuple[str, str], ...] = ()  # (rule, "file" / "flag" / "default")

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
        """``pass`` or ``fail``: a broken rule or a rejected frequency fails."""
        if self.broken_rules:
            return "fail"
        if self.p_value >= self.alpha:
            return "pass"
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
            return (f"FAIL: {total} rule break{'s' if total != 1 else ''} "
                    f"({', '.join(self.broken_rules)}); the simulator deals or settles wrongly")
        if self.verdict == "pass" and not self.tests:
            return "PASS: every row keeps the rules (no frequency test ran: see the notes)"
        if self.verdict == "pass":
            text = (f"PASS: the frequencies agree with the exact odds at alpha {self.alpha:g} "
                    f"(combined p = {p} over {self.tests} tests)")
            return text
        seat, check = min(((s.seat, c) for s in self.seats for c in s.checks),
                          key=lambda sc: sc[1].p)
        kind = "chi-square" if check.df is not None else "z"
        return (f"FAIL: the frequencies do not match the exact odds: seat {seat}'s "
                f"{kind} test of {check.name} rejects (p = {check.p_text}; combined p = {p} "
                f"over {self.tests} tests, alpha {self.alpha:g})")


@dataclass(frozen=True)
class RuleOverrides:
    """Header fields named on the command line; every other field stands as the file has it.

    ``options`` are profile options by name (``bank_draw``, ``colon`` ...),
    applied on top of the file's profile (or of ``profile`` when that is
    given too).
    """

    profile: Profile | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    shoe: Shoe | None = None
    seats: int | None = None
    reshuffle: str | None = None
    penetration: float | None = None
    cards: str | None = None  # "ranks" or "values" (cards as point values 0-9)

    def apply(self, data: Mapping[str, Any],
              where: str) -> tuple[RunHeader, tuple[tuple[str, str], ...]]:
        """The header: the file's fields, these overrides, defaults for the rest.

        >>> from odds.rules.shoe import Shoe
        >>> header, sources = RuleOverrides(shoe=Shoe.infinite_shoe()).apply(
        ...     {"profile": "plain", "reshuffle": "cut", "shoe": "8"}, "f")
        >>> header.profile.key, header.shoe.label, header.reshuffle
        ('plain', 'inf', 'cut')
        >>> dict(sources)["shoe"], dict(sources)["profile"], dict(sources)["seats"]
        ('flag', 'file', 'default')
        """
        base = header_from_data(data, where)
        profile, shoe = base.profile, base.shoe
        sources = {"profile": "file" if ("profile" in data or "options" in data)
                   else "default"}
        if self.profile is not None:
            profile, sources["profile"] = self.profile, "flag"
            if "shoe" not in data and self.shoe is None:
                shoe = Shoe.packs_of(profile.decks)
        if self.options:
            try:
                profile = profile.with_options(**self.options)
            except ProfileError as exc:
                raise TallyError(f"{where}: {exc}") from None
            for name in self.options:
                sources[f"option {name}"] = "flag"
        sources["shoe"] = "file" if "shoe" in data else "default"
        if self.shoe is not None:
            shoe, sources["shoe"] = self.shoe, "flag"
        values: dict[str, Any] = {}
        for name in ("seats", "reshuffle", "penetration"):
            given = getattr(self, name)
            sources[name] = "flag" if given is not None else (
                "file" if data.get(name) is not None else "default")
            values[name] = given if given is not None else getattr(base, name)
        header = RunHeader(profile, shoe, values["seats"], values["reshuffle"],
                           values["penetration"], base.seed)
        if header.reshuffle != "cut" and sources["penetration"] == "default":
            del sources["penetration"]  # a fresh shoe every round: no cut card
        if self.cards is not None or data.get("cards") is not None:
            sources["cards"] = "flag" if self.cards is not None else "file"
        return header, tuple(sources.items())

    def values(self, data: Mapping[str, Any], where: str) -> bool:
        """True when the cards are point values (the flag, else the file's ``cards``)."""
        cards = self.cards if self.cards is not None else data.get("cards", "ranks")
        if cards not in ("ranks", "values"):
            raise TallyError(f"{where}: cards must be ranks or values, not {cards!r}")
        return cards == "values"


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
    side: list[str] = []
    for t in tallies:
        t.check(header.profile, source)
        if t.rounds < 1:  # the statistics divide by it
            raise TallyError(f"{source}: seat {t.seat}: rounds is 0 (nothing to test)")
        side += [b for b in _side_bets(header.profile, t.bets or (),
                                       f"{source}: seat {t.seat}: bets") if b not in side]
    if header.reshuffle == "cut" and not header.shoe.infinite:
        untested = _untested_side(header.profile, side, False)  # the sample has ranks
        reports, notes = _continuous_reports(header, _without(tallies, list(untested)), alpha)
        return Verification(source, "tallies", header, header_from, 0, (), {}, reports,
                            alpha, exact.total, "over shoes",
                            (*notes, *_continuous_side_notes(side, untested)))
    dists, side_notes = _side_odds(header, side)
    seats = tuple(seat_report(t, exact, alpha, dists)
                  for t in _without(tallies, [b for b in side if b not in dists]))
    return Verification(source, "tallies", header, header_from, 0, (), {}, seats, alpha,
                        exact.total, notes=tuple(side_notes))


def _side_bets(profile: Profile, bets: Sequence[str] | Mapping[str, Any],
               where: str) -> list[str]:
    """The bets settled from the cards (not by outcome alone); an unknown bet is bad input."""
    side = []
    for bet in bets:
        try:
            if side_bet(profile, bet) is not None:
                side.append(bet)
        except ValueError as exc:
            raise TallyError(f"{where}: {exc}") from None
    return side


def _side_odds(header: RunHeader, side: Sequence[str]
               ) -> tuple[dict[str, dict[Fraction, Fraction]], list[str]]:
    """A fresh shoe: each side bet's exact payout distribution, or why it has none."""
    from odds.exact.bets import bet_odds

    dists: dict[str, dict[Fraction, Fraction]] = {}
    notes = []
    for bet in side:
        try:
            dists[bet] = bet_odds(header.profile, header.shoe, [bet])[bet].payout_distribution()
        except ValueError as exc:
            notes.append(f"bet {bet}: its payout frequencies are not tested ({exc}); "
                         "only its row audit ran")
    if dists:
        notes.append(f"side bet{'s' if len(dists) > 1 else ''} {', '.join(dists)}: payouts "
                     "tested against the exact distribution of the bet's pay table "
                     "for this profile and shoe")
    return dists, notes


def _untested_side(profile: Profile, side: Sequence[str], values_only: bool) -> dict[str, str]:
    """The side bets of a continuous shoe whose per-round odds cannot be had: why, by bet."""
    from odds.sim.expect import countable_side_bet

    out = {}
    for bet in side:
        why = countable_side_bet(profile, bet, values_only)
        if why is not None:
            out[bet] = why
    return out


def _continuous_side_notes(side: Sequence[str], untested: Mapping[str, str]) -> list[str]:
    notes = []
    tested = [b for b in side if b not in untested]
    if tested:
        many = len(tested) > 1
        notes.append(f"side bet{'s' if many else ''} {', '.join(tested)}: payouts tested "
                     "against the exact odds of each round's pay table given the cards "
                     "left before it (the batch engine)")
    for bet, why in untested.items():
        notes.append(f"side bet {bet}: continuous shoe, and {why}: its payout frequencies "
                     "are NOT tested, only the row audit ran")
    return notes


def _without(tallies: Sequence[Tally], drop: Sequence[str]) -> list[Tally]:
    """Tallies without the bets in ``drop`` (they are not frequency-tested)."""
    if not drop:
        return list(tallies)
    return [replace(t, bets={b: p for b, p in t.bets.items() if b not in drop} or None)
            if t.bets else t for t in tallies]


def _continuous_reports(header: RunHeader, tallies: Sequence[Tally],
                        alpha: float) -> tuple[tuple[SeatReport, ...], tuple[str, ...]]:
    """Tallies of continuous shoes against the expectation over shoes dealt by our simulator."""
    from odds.sim.expect import sample_shoes, shoes_model

    penetration = header.penetration if header.penetration is not None else 0.75
    sample = sample_shoes(header.profile, header.shoe, header.seats, penetration)
    notes = [
        f"continuous shoe without card order: each quantity is tested against its "
        f"expectation over cut-card shoes, the exact odds of every round given the cards "
        f"dealt before it, over {sample.rounds:,} rounds ({sample.shoes:,} shoes) dealt by "
        f"our simulator (seed {sample.seed}), with the spread of that estimate"
    ]
    if header.penetration is None:
        notes.append("the file states no penetration: assumed 0.75 (our simulator's default)")
    reports = tuple(model_report(t.seat, t, shoes_model(header.profile, sample, t.rounds,
                                                        tuple(t.bets or ())),
                                 alpha) for t in tallies)
    return reports, tuple(notes)


def _choice_reports(header: RunHeader, tallies: Sequence[Tally], alpha: float,
                    strategies: StrategyFn | None
                    ) -> tuple[tuple[SeatReport, ...], tuple[str, ...]]:
    """A game with choices: the strategies' exact odds, or the audit alone."""
    who = ("players and bank choose" if header.profile.player_draw is None
           and header.profile.bank_draw is None else
           "players choose" if header.profile.player_draw is None else "the bank chooses")
    head = (f"profile {header.profile.key!r}: {who}; the audit accepts any legal choice "
            "(a natural never draws, nobody draws against one where naturals stop draws)")
    if strategies is None:
        return (), (head + "; without --strategy/--bank-strategy there are no exact odds to "
                    "test the frequencies against: only the audit ran",)
    if header.reshuffle == "cut" and not header.shoe.infinite:
        return (), (head + "; the strategies' exact odds are a fresh shoe's, and this is a "
                    "continuous shoe: the frequencies are not tested, only the audit ran",)
    odds = strategies(header.profile, header.shoe)
    return (tuple(strategy_report(t, odds, alpha) for t in tallies),
            (head + f"; frequencies tested against the exact odds of {odds.label}",))


def _unchecked_note(profile: Profile, bet: str, rows: int, values: bool) -> str:
    """Why some rows of a side bet's column were not audited."""
    chosen = side_bet(profile, bet)
    assert chosen is not None
    plural = "s" if rows != 1 else ""
    if chosen.uses_suits and not values:
        why = "the bet needs suits and the log's cards give none"
    else:
        why = ("cards given as point values: the bet looks at pairs, and a pair of "
               "zero-point cards (10, J, Q, K) is a pair only if the ranks match")
    return f"bet {bet}: the payout of {rows:,} row{plural} is not audited ({why})"


def _values_note(ref: Reference, unchecked: int, kind: str) -> str:
    """What value-only cards leave unchecked, and why."""
    skipped = ["suits (no card is named)"]
    if ref.colon[9, 9] != ref.colon[9, 10]:
        skipped.append("Colon by rank: a pair of zero-point cards (10, J, Q, K) is a Colon "
                       "only if the ranks match, so the player and bank Colon counts are not "
                       "tested (the Colon-nine counts are: a pair of 9s is two 9s) and the "
                       f"payout of {unchecked:,} row{'s' if unchecked != 1 else ''} with such "
                       "a pair is not audited")
        if kind == "per round":
            skipped.append("the payout frequencies and EV (each round's Colon odds depend on "
                           "which zero-point ranks left the shoe)")
    return "cards given as point values: skipped " + "; ".join(skipped)


def _check_alpha(alpha: float) -> None:
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, not {alpha!r}")


def verify_text(
    text: str,
    source: str = "input",
    rules: RunHeader | RuleOverrides | None = None,
    alpha: float = 0.01,
    seats: int | None = None,
    strategies: StrategyFn | None = None,
) -> Verification:
    """Verify the contents of a tallies file or round log.

    ``rules``: a :class:`RuleOverrides` replaces only the fields it names
    (the report says where each rule came from); a whole :class:`RunHeader`
    replaces the file's header.  Without either, the file's header, with
    defaults (the ``standard`` profile) for what it leaves out.
    ``seats`` is the table's number of seats (default: the header's, or
    for a log without one, the highest seat in it).  ``strategies``: for a
    profile where players and bank choose, a function giving the exact odds
    of the strategies played (the CLI builds it from ``odds.game``); without
    it only the audit runs (any legal choice passes).

    >>> log = "round,seat,player,bank,result,payout\\n1,1,8h 7s 4d,Ac 6d,win,1\\n"
    >>> verify_text(log).broken_rules
    []
    >>> print(verify_text(log.replace("win,1", "win,2")).violations[0].message)
    win_comparison with player 8h 7s 4d: the rules pay 1, the log pays 2
    >>> verify_text(log.replace("4d", "4d 4d")).violations[0].message
    "the player's hand has 4 cards; a hand has 2, or 3 after a draw"
    """
    _check_alpha(alpha)
    text = strip_bom(text)
    lines = text.splitlines()
    kind = _log_kind(lines)
    if kind is not None:
        return _verify_log(iter([(1, lines)]), kind, source, rules, alpha, seats, strategies)
    if text.lstrip().startswith("{"):
        data, tallies = read_tallies(text, source)
        if data.get("format") not in (None, "lucky9-tallies/1"):
            raise TallyError(f"{source}: format {data.get('format')!r} is not lucky9-tallies/1")
    else:
        data, rest, skipped = split_comments(text, source)
        first = next((ln for ln in rest if ln.strip()), "")
        if "quantity" not in [c.strip().lower() for c in first.split(",")]:
            raise TallyError(
                f"{source}, line {skipped + 1}: not a tallies file (seat,quantity,key,count) "
                f"or round log ({','.join(LOG_COLUMNS)}), nor JSON"
            )
        data, tallies = read_tallies(text, source)
    header, sources, header_from = _header(data, source, rules, seats)
    seats = max((t.seat for t in tallies), default=1)
    if header.seats < seats:
        header = RunHeader(header.profile, header.shoe, seats, header.reshuffle,
                           header.penetration, header.seed)
    if not header.profile.fixed:
        for t in tallies:
            t.check(header.profile, source)
        reports, choice_notes = _choice_reports(header, tallies, alpha, strategies)
        return Verification(source, "tallies", header, header_from, 0, (), {}, reports,
                            alpha, 0, "strategies", choice_notes, sources)
    result = verify_tallies(header, tallies, alpha, source, header_from)
    return replace(result, sources=sources)


def _log_kind(lines: Sequence[str]) -> str | None:
    """"jsonl" or "csv" for a round log (judged by its first lines), else None."""
    first = next((ln.lstrip() for ln in lines if ln.strip()), "")
    if first.startswith("{"):
        # '"round":' as a key: a tallies file on one line has "reshuffle": "round"
        return "jsonl" if '"lucky9-log/1"' in first or re.search(r'"round"\s*:', first) else None
    columns = next((ln for ln in lines if ln.strip() and not ln.strip().startswith("#")), "")
    names = [c.strip().lower() for c in columns.split(",")]
    if "quantity" not in names and "player" in names and "bank" in names:
        return "csv"
    return None


def _header(data: Mapping[str, Any], source: str, rules: RunHeader | RuleOverrides | None,
            seats: int | None) -> tuple[RunHeader, tuple[tuple[str, str], ...], str]:
    """The rules of a run: the file's header, the overrides, and where each came from."""
    overrides = rules if isinstance(rules, RuleOverrides) else RuleOverrides(seats=seats)
    if isinstance(rules, RuleOverrides) and seats is not None:
        overrides = RuleOverrides(rules.profile, rules.options, rules.shoe, seats,
                                  rules.reshuffle, rules.penetration, rules.cards)
    header, sources = overrides.apply(data, source)
    if isinstance(rules, RunHeader):
        header = rules
        sources = tuple((name, "flag") for name, _ in sources)
    kinds = {kind for _, kind in sources}
    header_from = ("file and command line" if {"file", "flag"} <= kinds else
                   "file" if "file" in kinds else
                   "command line" if "flag" in kinds else "defaults (the file names no rules)")
    return header, sources, header_from


HEAD_LIMIT = 64 << 20  # characters of comments or header lines read before the first row
HEAD_LINES = 100_000  # and lines


def _opening(blocks: Iterator[tuple[int, list[str]]], number: int, lines: list[str]
             ) -> tuple[int, list[str], bool]:
    """Blocks joined until one holds a line that is not blank or a comment.

    Returns the first line's number, the lines, and False when ``HEAD_LIMIT``
    characters came first (the file is then read whole, as it always was).
    """
    def found(part: list[str]) -> bool:
        return any(ln.strip() and not ln.lstrip().startswith("#") for ln in part)

    size = sum(map(len, lines))
    ok = found(lines)
    while not ok:
        more = next(blocks, None)  # a long header spans blocks
        if more is None:
            break
        if size > HEAD_LIMIT or len(lines) > HEAD_LINES:
            return number, lines, False
        lines.extend(more[1])
        size += sum(map(len, more[1]))
        ok = found(more[1])
    return number, lines, True


def _verify_log(blocks: Iterator[tuple[int, list[str]]], kind: str, source: str,
                rules: RunHeader | RuleOverrides | None, alpha: float, seats: int | None,
                strategies: StrategyFn | None, streaming: bool = False) -> Verification:
    """Verify a round log given as blocks of lines (:func:`read_line_blocks`).

    Each block is parsed, audited and tallied, then dropped: memory is bounded
    by a block, whatever the length of the log.  A block ends at a round's
    end (the rows of its last round wait for the next block).  Raises
    :class:`OutOfOrder` when the log is not in round order (or its columns
    change) across blocks; :func:`verify_file` then reads it whole.
    """
    cards = rules.cards if isinstance(rules, RuleOverrides) else None
    number, lines = next(blocks)
    number, lines, within = _opening(blocks, number, list(lines))
    if not within:
        raise OutOfOrder("a header longer than HEAD_LIMIT")
    parse: Callable[[list[str], int], Log]
    ready: Log | None = None  # the rows of ``lines``, when already parsed
    if kind == "csv":
        k = next(i for i, ln in enumerate(lines) if ln.strip() and not ln.strip().startswith("#"))
        data, _, _ = split_comments("\n".join(lines[:k + 1]), source)
        values = RuleOverrides(cards=cards).values(data, source)
        columns = lines[k]

        def parse(chunk: list[str], at: int) -> Log:
            return parse_log([columns, *chunk], at - 1, source, values)

        number, lines = number + k + 1, lines[k + 1:]
    else:
        opening: dict[str, Any] = {}  # header lines of the blocks before the first row
        while True:  # the header and a first row (a long header spans blocks)
            try:
                data, first = parse_json_log(lines, source,
                                             None if cards is None else cards == "values",
                                             number)
                data = {**opening, **data}
                break
            except NoRows as exc:
                extra = next(blocks, None)
                if extra is None:
                    raise
                opening.update(exc.header)
                number, lines = extra
        values = RuleOverrides(cards=cards).values(data, source)

        def parse(chunk: list[str], at: int) -> Log:
            return parse_json_log(chunk, source, values, at, header_lines=False)[1]

        number, lines = int(first.line[0]), lines[int(first.line[0]) - number:]
        ready = first
    header, sources, header_from = _header(data, source, rules, seats)
    if seats is not None:
        header = RunHeader(header.profile, header.shoe, seats, header.reshuffle,
                           header.penetration, header.seed)
    stated = seats is not None or (not isinstance(rules, RunHeader) and "seats" in data)
    judge = _Judge(header, stated, source, streaming=streaming)
    for more_number, more in blocks:
        if any(ln.strip() for ln in lines):
            log = ready if ready is not None else parse(lines, number)
            ready = None
            other = np.flatnonzero(log.round != log.round[-1])
            cut = int(other[-1]) + 1 if other.size else 0
            if len(log.round) - cut > MAX_SEATS:
                # More rows of one round than a table has seats: a fault the
                # audit names now (holding them back would cost time and memory).
                judge.feed(log)
                number, lines = more_number, more
                continue
            if cut:  # all but the last round's rows
                judge.feed(log.head(cut))
                lines = lines[int(log.line[cut]) - number:]
                number = int(log.line[cut])
            del log
            lines = lines + more
        else:
            number, lines = more_number, more
    if any(ln.strip() for ln in lines):
        judge.feed(ready if ready is not None else parse(lines, number))
    if not judge.rows:
        parse([], number)  # names a missing column, else says there are no rows
        raise TallyError(f"{source}: the round log has no rows")
    return judge.verdict(alpha, strategies, header_from, sources)


@dataclass
class _Judge:
    """A round log judged block by block: the running counts and models."""

    header: RunHeader
    stated: bool  # the seats are stated (file or flag), not the highest seat seen
    source: str
    rows: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    violations: list[Violation] = field(default_factory=list)
    tallies: dict[int, Tally] = field(default_factory=dict)
    models: dict[int, RoundModel] = field(default_factory=dict)
    unchecked: dict[str, int] = field(default_factory=dict)  # side-bet rows not audited
    payout_unchecked: int = 0
    side: list[str] = field(default_factory=list)
    shape: tuple[Any, ...] | None = None  # the first block's columns
    dealt: DealtBefore = field(default_factory=DealtBefore)
    last_round: int | None = None
    per_round: bool = False  # tested round by round (a shoe column)
    ref: Reference | None = None
    streaming: bool = False  # blocks of a file: rounds must not go back (else OutOfOrder)
    suits_ignored: int = 0  # rounds with suited cards, from a shoe of ranks without suits
    past_end: bool = False  # a shoe dealt past what it holds: no odds to test against

    def feed(self, log: Log) -> None:
        """Audit and tally one block of rows (whole rounds, after the earlier blocks')."""
        header, source = self.header, self.source
        shape = (log.values, log.player_final is not None, log.shoe is not None,
                 tuple(log.bets))
        if self.shape is None:
            self.shape = shape
        elif shape != self.shape:
            raise OutOfOrder("the columns of the rows change")
        if self.streaming and (
                (self.last_round is not None and int(log.round.min()) <= self.last_round)
                or bool(np.any(log.round[1:] < log.round[:-1]))):
            # Whole reading picks its examples among all rounds: read whole.
            raise OutOfOrder("a round comes back after later rounds")
        seats = header.seats if self.stated else max(header.seats, int(log.seat.max()))
        if seats > MAX_SEATS:
            raise TallyError(f"{source}: seat {seats}, but a table has at most 8 players")
        if seats != header.seats:
            header = self.header = RunHeader(header.profile, header.shoe, seats,
                                             header.reshuffle, header.penetration, header.seed)
        profile = header.profile
        ref = self.ref = self.ref or Reference.of(profile)
        b_rule = profile.bank_draw
        if seats > 1 and ((b_rule is not None and b_rule.tableau is not None)
                          or profile.naturals_stop_draws):
            raise TallyError(
                f"{source}: profile {profile.key!r} is defined for one player hand "
                f"(tableau or naturals stopping draws), but the log has {seats} seats"
            )
        present = [log.results[k] for k in np.unique(log.result).tolist()]
        unknown = [r for r in present if r not in ref.names and r not in OUTCOMES]
        if unknown:
            i = int(np.flatnonzero(log.result == log.results.index(unknown[0]))[0])
            raise TallyError(
                f"{source}, line {log.line[i]}: unknown result {unknown[0]!r} "
                f"(categories under profile {profile.key!r}: {', '.join(ref.names)}; "
                "or win, push, loss)"
            )
        if self.rows == 0:
            for bet in log.bets:
                self.side += _side_bets(profile, [bet], f"{source}: column bet:{bet}")
        check = check_shoe(log, header.shoe, seats, source, self.dealt)
        audited = audit(log, ref)
        for rule, count in {**check.counts, **audited.counts}.items():
            self.counts[rule] = self.counts.get(rule, 0) + count
        self.violations = sorted(self.violations + check.violations + audited.violations,
                                 key=lambda x: (x.line, x.rule))[:EXAMPLES]
        tallies = log_tallies(log, audited, seats, ref)
        for t in tallies:
            self.tallies[t.seat] = self.tallies[t.seat].plus(t) if t.seat in self.tallies else t
        for bet, count in audited.bets_unchecked.items():
            self.unchecked[bet] = self.unchecked.get(bet, 0) + count
        self.payout_unchecked += audited.payout_unchecked
        self.suits_ignored += check.suits_ignored
        if check.compositions is not None:
            self._check_shoe_end(log, check, seats)
        if profile.fixed and check.compositions is not None and not self.past_end:
            from odds.sim.expect import round_probabilities, rounds_model

            self.per_round = True
            untested = _untested_side(profile, self.side, log.values)
            side = tuple(b for b in self.side if b not in untested)
            probs = round_probabilities(profile, check.compositions, log.values, side)
            for t in _without(tallies, list(untested)):
                rows = check.index[log.seat == t.seat]
                model = rounds_model(profile, probs, rows, tuple(t.bets or ()))
                self.models[t.seat] = (self.models[t.seat].plus(model)
                                       if t.seat in self.models else model)
        self.rows += len(log.line)
        self.last_round = int(log.round.max())

    def _check_shoe_end(self, log: Log, check: ShoeCheck, seats: int) -> None:
        """A shoe dealt past its end: a rule break, and the per-round odds stop.

        A round needs up to three cards a hand (``3 * seats + 3``) from the
        cards left in its shoe; a round dealt from fewer, or a shoe that deals
        more of a card than it holds (rule ``cards``, from :func:`check_shoe`),
        has no exact odds: the frequencies are then not tested.
        """
        assert check.compositions is not None
        need = 3 * seats + 3
        left = check.compositions.sum(axis=1)
        short = np.flatnonzero((left < need) & (check.compositions >= 0).all(axis=1))
        if check.counts.get("cards") or short.size:
            self.past_end = True
        if not short.size:
            return
        self.counts["cards"] = self.counts.get("cards", 0) + int(short.size)
        found = [Violation(int(log.line[i]), int(log.round[i]), int(log.seat[i]), "cards",
                           f"the round starts with {int(left[k])} card"
                           f"{'s' if left[k] != 1 else ''} left in shoe {int(log.shoe[i])}, "
                           f"fewer than the {need} a round of {seats} seat"
                           f"{'s' if seats > 1 else ''} can need: the shoe is dealt past "
                           "its end (or its shoe number is used again for a new shoe)")
                 for k in short[:EXAMPLES].tolist()
                 for i in [int(check.first[k])] if log.shoe is not None]
        self.violations = sorted(self.violations + found,
                                 key=lambda x: (x.line, x.rule))[:EXAMPLES]

    def verdict(self, alpha: float, strategies: StrategyFn | None, header_from: str,
                sources: tuple[tuple[str, str], ...]) -> Verification:
        """The tests of the whole log's tallies, once every block is in."""
        header, source, side = self.header, self.source, self.side
        values = bool(self.shape and self.shape[0])
        tallies = [self.tallies[s] for s in sorted(self.tallies)]
        violations = tuple(self.violations)
        notes: list[str] = [_unchecked_note(header.profile, bet, n, values)
                            for bet, n in self.unchecked.items()]
        if not header.profile.fixed:
            seat_reports, more = _choice_reports(header, tallies, alpha, strategies)
            return Verification(source, "log", header, header_from, self.rows,
                                violations, self.counts, seat_reports, alpha, 0,
                                "strategies", more, sources)
        if self.suits_ignored:
            notes.append(f"the shoe ({header.shoe.label}) is a composition of ranks without "
                         f"suits: the suits written on the cards of {self.suits_ignored:,} "
                         f"round{'s' if self.suits_ignored != 1 else ''} are not checked "
                         "(the ranks are)")
        exact = round_odds(header.profile, header.shoe)
        if self.past_end:
            notes.append("a shoe is dealt past its end (rule cards): its rounds have no "
                         "exact odds, so the frequencies are not tested")
            return Verification(source, "log", header, header_from, self.rows, violations,
                                self.counts, (), alpha, exact.total, "per round",
                                tuple(notes), sources)
        if self.per_round:
            untested = _untested_side(header.profile, side, values)
            seat_reports = tuple(model_report(t.seat, t, self.models[t.seat], alpha)
                                 for t in _without(tallies, list(untested)))
            notes += _continuous_side_notes(side, untested)
            notes.append("continuous shoe with a shoe column: each round is tested against "
                         "its exact odds given the cards dealt before it in its shoe (every "
                         "seat's and the bank's cards of the earlier rounds)")
            kind = "per round"
        elif header.reshuffle == "cut" and not header.shoe.infinite:
            untested = _untested_side(header.profile, side, False)  # the sample has ranks
            seat_reports, more = _continuous_reports(header, _without(tallies, list(untested)),
                                                     alpha)
            notes += ["no shoe column: " + more[0], *more[1:],
                      *_continuous_side_notes(side, untested)]
            kind = "over shoes"
        else:
            dists, side_notes = _side_odds(header, side)
            seat_reports = tuple(seat_report(t, exact, alpha, dists) for t in
                                 _without(tallies, [b for b in side if b not in dists]))
            notes += side_notes
            kind = "fresh"
        if values:
            notes.append(_values_note(Reference.of(header.profile), self.payout_unchecked,
                                      kind))
        return Verification(source, "log", header, header_from, self.rows, violations,
                            self.counts, seat_reports, alpha, exact.total, kind, tuple(notes),
                            sources)


def verify_file(path: str | Path, rules: RunHeader | RuleOverrides | None = None,
                alpha: float = 0.01, seats: int | None = None,
                strategies: StrategyFn | None = None) -> Verification:
    """Verify a tallies file or round log (see :func:`verify_text`).

    >>> verify_file("no-such-file.csv")
    Traceback (most recent call last):
    ...
    odds.sim.tallies.TallyError: file 'no-such-file.csv' does not exist
    """
    _check_alpha(alpha)
    p = Path(path)
    try:
        blocks = read_line_blocks(p, "file", TallyError, str(p), BLOCK)
        number, lines = next(blocks, (1, []))
        number, lines, within = _opening(blocks, number, list(lines))
        kind = _log_kind(lines) if within else None
        if kind is not None:  # a round log: block by block, in bounded memory
            try:
                return _verify_log(itertools.chain([(number, lines)], blocks), kind, str(p),
                                   rules, alpha, seats, strategies, streaming=True)
            except OutOfOrder:
                pass  # not in round order: read whole, below
        blocks.close()
        text = read_text(p, MAX_FILE, "file", TallyError)
        return verify_text(text, str(p), rules, alpha, seats, strategies)
    except csv.Error as exc:  # a quoted field past the csv module's limit, say
        raise TallyError(f"{p}: not valid CSV ({exc})") from None
