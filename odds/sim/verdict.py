"""The parts of a verdict on a simulator's output: the result, the rules a
run was made under, tallies tested against the exact odds, and the side
bets' and strategies' reports (see :mod:`odds.sim.verify`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import mpmath  # type: ignore[import-untyped]

from odds.exact.engine import round_odds
from odds.rules.errors import ProfileError
from odds.rules.profile import Profile
from odds.rules.shoe import Shoe
from odds.sim.audit import (
    Reference,
    Violation,
    side_bet,
)
from odds.sim.causes import likely_causes
from odds.sim.stats import (
    SeatReport,
    StrategyOdds,
    model_report,
    p_text,
    seat_report,
    strategy_report,
)
from odds.sim.tallies import (
    RunHeader,
    Tally,
    TallyError,
    header_from_data,
)

__all__ = ["RuleOverrides", "StrategyFn", "Verification", "verify_tallies"]

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
    # (rule, "file" / "flag" / "default", or "rows": the seats, the highest seat in the rows)
    sources: tuple[tuple[str, str], ...] = ()
    hint: str = ""  # a question for a failing log, e.g. whether it is another profile
    # The only break is cards over-dealt, and a shoe of this many packs holds them all.
    packs_needed: int = 0

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
    def causes(self) -> tuple[str, ...]:
        """Where the frequencies reject and every rule is kept: the likely causes the
        pattern of rejections supports, with their evidence (:mod:`odds.sim.causes`)."""
        if self.broken_rules or self.p_value >= self.alpha:
            return ()
        return likely_causes(self.seats, self.alpha, self.header.shoe.label,
                             self.header.shoe.infinite, self.kind == "log")

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
            head = (f"FAIL: {total} rule break{'s' if total != 1 else ''} "
                    f"({', '.join(self.broken_rules)})")
            if self.packs_needed:
                return (f"{head}: the log deals more copies of a card than the shoe "
                        f"({self.header.shoe.label}) holds; with {self.packs_needed} packs or "
                        "more it would not (see the hint)")
            return f"{head}; the simulator deals or settles wrongly"
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
    check_alpha(alpha)
    exact = round_odds(header.profile, header.shoe)
    side: list[str] = []
    for t in tallies:
        t.check(header.profile, source)
        if t.rounds < 1:  # the statistics divide by it
            raise TallyError(f"{source}: seat {t.seat}: rounds is 0 (nothing to test)")
        side += [b for b in side_bets(header.profile, t.bets or (),
                                       f"{source}: seat {t.seat}: bets") if b not in side]
    if header.reshuffle == "cut" and not header.shoe.infinite:
        untested = untested_side(header.profile, side, False)  # the sample has ranks
        reports, notes = continuous_reports(header, without_bets(tallies, list(untested)), alpha)
        return Verification(source, "tallies", header, header_from, 0, (), {}, reports,
                            alpha, exact.total, "over shoes",
                            (*notes, *continuous_side_notes(side, untested)))
    dists, side_notes = side_odds(header, side)
    seats = tuple(seat_report(t, exact, alpha, dists)
                  for t in without_bets(tallies, [b for b in side if b not in dists]))
    return Verification(source, "tallies", header, header_from, 0, (), {}, seats, alpha,
                        exact.total, notes=tuple(side_notes))


def side_bets(profile: Profile, bets: Sequence[str] | Mapping[str, Any],
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


def side_odds(header: RunHeader, side: Sequence[str]
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


def untested_side(profile: Profile, side: Sequence[str], values_only: bool) -> dict[str, str]:
    """The side bets of a continuous shoe whose per-round odds cannot be had: why, by bet."""
    from odds.sim.expect import countable_side_bet

    out = {}
    for bet in side:
        why = countable_side_bet(profile, bet, values_only)
        if why is not None:
            out[bet] = why
    return out


def continuous_side_notes(side: Sequence[str], untested: Mapping[str, str]) -> list[str]:
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


def without_bets(tallies: Sequence[Tally], drop: Sequence[str]) -> list[Tally]:
    """Tallies without the bets in ``drop`` (they are not frequency-tested)."""
    if not drop:
        return list(tallies)
    return [replace(t, bets={b: p for b, p in t.bets.items() if b not in drop} or None)
            if t.bets else t for t in tallies]


def continuous_reports(header: RunHeader, tallies: Sequence[Tally],
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


def choice_reports(header: RunHeader, tallies: Sequence[Tally], alpha: float,
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


def unchecked_note(profile: Profile, bet: str, rows: int, values: bool) -> str:
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


def values_note(ref: Reference, unchecked: int, kind: str) -> str:
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


def check_alpha(alpha: float) -> None:
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, not {alpha!r}")


