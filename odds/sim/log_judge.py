"""A round log judged as it is read, block by block: its kind, its header,
the rows audited against the rules and tallied, and the verdict's reports
(see :mod:`odds.sim.verify`, which opens the file)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from odds.exact.engine import round_odds
from odds.rules.cards import RANKS
from odds.sim.audit import EXAMPLES, Reference, Violation, audit, log_tallies
from odds.sim.logs import CODE_RANK, Log, NoRows, ignored_note, parse_json_log, parse_log
from odds.sim.profile_hint import SAMPLE_ROWS, profile_hint
from odds.sim.shoe_check import DealtBefore, OutOfOrder, ShoeCheck, check_shoe
from odds.sim.stats import (
    POSITION_PARTS,
    RoundModel,
    dealt_ranks_moments,
    model_report,
    position_check,
    seat_report,
)
from odds.sim.tallies import (
    OUTCOMES,
    RunHeader,
    Tally,
    TallyError,
    split_comments,
)
from odds.sim.verdict import (
    MAX_SEATS,
    RuleOverrides,
    StrategyFn,
    Verification,
    choice_reports,
    continuous_reports,
    continuous_side_notes,
    side_bets,
    side_odds,
    unchecked_note,
    untested_side,
    values_note,
    without_bets,
)

__all__ = ["LogJudge", "Opening", "held_back", "judge_blocks", "log_header", "log_judge", "log_kind",
           "open_log", "read_opening", "verify_log"]


def log_kind(lines: Sequence[str]) -> str | None:
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


def log_header(data: Mapping[str, Any], source: str, rules: RunHeader | RuleOverrides | None,
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


def read_opening(blocks: Iterator[tuple[int, list[str]]], number: int, lines: list[str]
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


@dataclass
class Opening:
    """A round log's opening: its header data, how to parse its rows, and the first
    rows' lines (``ready``: already parsed, for JSON Lines)."""

    data: dict[str, Any]
    parse: Callable[[list[str], int], Log]
    number: int
    lines: list[str]
    ready: Log | None


def open_log(blocks: Iterator[tuple[int, list[str]]], kind: str, source: str,
             rules: RunHeader | RuleOverrides | None) -> Opening:
    """The header and the row parser of a round log given as blocks of lines."""
    cards = rules.cards if isinstance(rules, RuleOverrides) else None
    number, lines = next(blocks)
    number, lines, within = read_opening(blocks, number, list(lines))
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
    return Opening(data, parse, number, lines, ready)


def log_judge(opening: Opening, source: str, rules: RunHeader | RuleOverrides | None,
              seats: int | None, streaming: bool) -> tuple[LogJudge, tuple[tuple[str, str], ...],
                                                          str]:
    """The judge of a log's rows under its header (and the overrides), the rules'
    sources, and where the header came from."""
    data = opening.data
    header, sources, header_from = log_header(data, source, rules, seats)
    if seats is not None:
        header = RunHeader(header.profile, header.shoe, seats, header.reshuffle,
                           header.penetration, header.seed)
    stated = seats is not None or (not isinstance(rules, RunHeader) and "seats" in data)
    if not stated:  # the highest seat in the rows, not a default
        sources = tuple((rule, "rows" if rule == "seats" else kind) for rule, kind in sources)
    judge = LogJudge(header, stated, source, streaming=streaming,
                     profile_given=_profile_given(sources))
    return judge, sources, header_from


def held_back(log: Log) -> int:
    """Where a block's rows are cut: its rows before this are judged now, the rest wait
    for the next block.  With a shoe column, the rows of the block's last shoe wait
    (so that a block ends where a shoe does, and a log cut into parts at those
    places is judged block for block as it is whole: ``verify --jobs``); without
    one, or when the block holds one shoe, the rows of its last round."""
    if log.shoe is not None:
        other = np.flatnonzero(log.shoe != log.shoe[-1])
        if other.size:
            return int(other[-1]) + 1
    key = log.key()
    other = np.flatnonzero(key != key[-1])
    return int(other[-1]) + 1 if other.size else 0


def judge_blocks(judge: LogJudge, opening: Opening,
                 blocks: Iterator[tuple[int, list[str]]]) -> None:
    """Feed the judge the log's rows, block by block, in whole rounds (whole shoes
    where the log has a shoe column, :func:`held_back`)."""
    parse, number, lines, ready = opening.parse, opening.number, opening.lines, opening.ready
    for more_number, more in blocks:
        if any(ln.strip() for ln in lines):
            log = ready if ready is not None else parse(lines, number)
            ready = None
            key = log.key()
            cut = held_back(log)
            other = np.flatnonzero(key != key[-1])
            if len(key) - (int(other[-1]) + 1 if other.size else 0) > MAX_SEATS:
                # More rows of one round than a table has seats: a fault the
                # audit names now (holding them back would cost time and memory).
                judge.feed(log)
                number, lines = more_number, more
                continue
            if cut:  # all but the last round's (or shoe's) rows
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
        raise TallyError(f"{judge.source}: the round log has no rows")


def verify_log(blocks: Iterator[tuple[int, list[str]]], kind: str, source: str,
                rules: RunHeader | RuleOverrides | None, alpha: float, seats: int | None,
                strategies: StrategyFn | None, streaming: bool = False) -> Verification:
    """Verify a round log given as blocks of lines (:func:`read_line_blocks`).

    Each block is parsed, audited and tallied, then dropped: memory is bounded
    by a block, whatever the length of the log.  A block ends at a round's
    end (the rows of its last round wait for the next block).  Raises
    :class:`OutOfOrder` when the log is not in round order (or its columns
    change) across blocks; :func:`verify_file` then reads it whole.
    """
    opening = open_log(blocks, kind, source, rules)
    judge, sources, header_from = log_judge(opening, source, rules, seats, streaming)
    judge_blocks(judge, opening, blocks)
    return judge.verdict(alpha, strategies, header_from, sources)


@dataclass
class LogJudge:
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
    result_words: dict[str, str] = field(default_factory=dict)  # "banker" -> "loss", as read
    shared_shoe: tuple[int, int] | None = None  # (shoe, line): a shoe of several rounds
    sample: Log | None = None  # the first rows, to try other profiles on (profile_hint)
    profile_given: bool = True  # by the file or a flag (else the default, standard)
    ignored: tuple[str, ...] = ()  # unknown columns read past, in the order first seen
    # (packs, copies, card): the fewest packs of a shoe that hold every round (shoe_check)
    packs_needed: tuple[int, int, str] | None = None
    # With a shoe column: the ranks of the rounds' first two cards of every hand, by part
    # of the shoe (observed counts, their expectation and covariance: sums over rounds).
    positions: tuple[Any, Any, Any] | None = None

    def feed(self, log: Log) -> None:
        """Audit and tally one block of rows (whole rounds, after the earlier blocks')."""
        header, source = self.header, self.source
        shape = (log.values, log.player_final is not None, log.shoe is not None,
                 tuple(log.bets))
        if self.shape is None:
            self.shape = shape
        elif shape != self.shape:
            raise OutOfOrder("the columns of the rows change")
        key = log.key()
        if self.streaming and (
                (self.last_round is not None and int(key.min()) <= self.last_round)
                or bool(np.any(key[1:] < key[:-1]))):
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
                try:
                    self.side += side_bets(profile, [bet], f"{source}: column bet:{bet}")
                except TallyError as exc:  # a bet of another profile's, perhaps
                    ask = profile_hint(log.head(SAMPLE_ROWS), profile, seats, {"bets": 1},
                                       self.profile_given)
                    raise TallyError(f"{exc}; {ask}" if ask else str(exc)) from None
        earlier_shoes = set(self.dealt.open)
        check = check_shoe(log, header.shoe, seats, source, self.dealt)
        if log.shoe is not None and self.shared_shoe is None:
            self.shared_shoe = _shared_shoe(log, check, earlier_shoes)
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
        if check.packs_needed is not None:
            self.packs_needed = max(check.packs_needed, self.packs_needed or check.packs_needed)
        if check.compositions is not None:
            self._check_shoe_end(log, check, seats)
        if profile.fixed and check.compositions is not None and not self.past_end:
            from odds.sim.expect import round_probabilities, rounds_model

            self.per_round = True
            untested = untested_side(profile, self.side, log.values)
            side = tuple(b for b in self.side if b not in untested)
            probs = round_probabilities(profile, check.compositions, log.values, side)
            self._positions(log, check)
            for t in without_bets(tallies, list(untested)):
                rows = check.index[log.seat == t.seat]
                model = rounds_model(profile, probs, rows, tuple(t.bets or ()))
                self.models[t.seat] = (self.models[t.seat].plus(model)
                                       if t.seat in self.models else model)
        self.result_words.update(log.result_words)
        self.ignored += tuple(c for c in log.ignored if c not in self.ignored)
        if self.sample is None:
            self.sample = log.head(SAMPLE_ROWS)
        self.rows += len(log.line)
        self.last_round = int(key.max())

    def _positions(self, log: Log, check: ShoeCheck) -> None:
        """Add this block's rounds to the test of each card's position in its shoe."""
        assert check.compositions is not None
        rounds = len(check.first)
        cells = np.concatenate([check.index[:, None] * 13 + CODE_RANK[log.player[:, :2]],
                                (np.arange(rounds) * 13)[:, None]
                                + CODE_RANK[log.bank[check.first, :2]]]).ravel()
        seen = np.bincount(cells, minlength=rounds * 13).reshape(rounds, 13)
        drawn = 2 * (np.bincount(check.index, minlength=rounds) + 1)
        size = self.header.shoe.size
        left = check.compositions.sum(axis=1)
        part = np.minimum((size - left) * POSITION_PARTS // size, POSITION_PARTS - 1)
        observed = np.zeros((POSITION_PARTS, 13))
        expected = np.zeros((POSITION_PARTS, 13))
        cov = np.zeros((POSITION_PARTS, 13, 13))
        for k in range(POSITION_PARTS):
            mine = part == k
            if mine.any():
                m = dealt_ranks_moments(check.compositions[mine], drawn[mine])
                observed[k], expected[k], cov[k] = seen[mine].sum(axis=0), m.expected, m.cov
        if self.positions is not None:
            observed, expected, cov = (a + b for a, b in zip(self.positions,
                                                             (observed, expected, cov),
                                                             strict=True))
        self.positions = (observed, expected, cov)

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

    def _with_later_rows(self, v: Violation) -> Violation:
        """The first over-dealt round of a shoe, with the count of the rows after it."""
        for shoe, (line, later) in self.dealt.spoiled.items():
            if v.rule == "cards" and v.line == line and later:
                return replace(v, message=(
                    f"{v.message}; shoe {shoe} is over-dealt from here, so its {later:,} "
                    f"later row{'s are' if later != 1 else ' is'} not counted again (or its "
                    "shoe number is used again for a new shoe)"))
        return v

    def verdict(self, alpha: float, strategies: StrategyFn | None, header_from: str,
                sources: tuple[tuple[str, str], ...]) -> Verification:
        """The tests of the whole log's tallies, once every block is in; and, for a log
        read under the default profile that breaks its rules, the profile it fits."""
        result = self._tests(alpha, strategies, header_from, sources)
        if self.packs_needed is not None and set(result.broken_rules) == {"cards"}:
            return replace(result, packs_needed=self.packs_needed[0],
                           hint=_packs_hint(self.packs_needed, self.header,
                                            dict(sources).get("shoe")))
        hint = profile_hint(self.sample, self.header.profile, self.header.seats,
                            self.counts, _profile_given(sources))
        return replace(result, hint=hint) if hint else result

    def _tests(self, alpha: float, strategies: StrategyFn | None, header_from: str,
               sources: tuple[tuple[str, str], ...]) -> Verification:
        header, source, side = self.header, self.source, self.side
        values = bool(self.shape and self.shape[0])
        tallies = [self.tallies[s] for s in sorted(self.tallies)]
        violations = tuple(self._with_later_rows(v) for v in self.violations)
        notes: list[str] = [ignored_note(self.ignored)] if self.ignored else []
        notes += [unchecked_note(header.profile, bet, n, values)
                  for bet, n in self.unchecked.items()]
        if self.shared_shoe is not None and header.reshuffle == "round":
            notes.append(_reshuffle_warning(self.shared_shoe, dict(sources).get("reshuffle")))
        if self.result_words:
            notes.append("results read as the player hand's outcome: " + ", ".join(
                f"{word!r} as {outcome}" for word, outcome in sorted(self.result_words.items())))
        if not header.profile.fixed:
            seat_reports, more = choice_reports(header, tallies, alpha, strategies)
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
            untested = untested_side(header.profile, side, values)
            seat_reports = tuple(model_report(t.seat, t, self.models[t.seat], alpha)
                                 for t in without_bets(tallies, list(untested)))
            notes += continuous_side_notes(side, untested)
            if self.positions is not None and seat_reports:
                labels = ([str(v) for v in range(1, 10)] + ["0"] if values
                          else [r.value for r in RANKS])
                seen, expected, cov = self.positions
                k = len(labels)
                where = position_check(seen[:, :k], expected[:, :k], cov[:, :k, :k], labels)
                seat_reports = (replace(seat_reports[0], checks=(*seat_reports[0].checks,
                                                                  where)), *seat_reports[1:])
            notes.append("continuous shoe with a shoe column: each round is tested against "
                         "its exact odds given the cards dealt before it in its shoe (every "
                         "seat's and the bank's cards of the earlier rounds)")
            kind = "per round"
        elif header.reshuffle == "cut" and not header.shoe.infinite:
            untested = untested_side(header.profile, side, False)  # the sample has ranks
            seat_reports, more = continuous_reports(header, without_bets(tallies, list(untested)),
                                                     alpha)
            notes += ["no shoe column: " + more[0], *more[1:],
                      *continuous_side_notes(side, untested)]
            kind = "over shoes"
        else:
            dists, side_notes = side_odds(header, side)
            seat_reports = tuple(seat_report(t, exact, alpha, dists) for t in
                                 without_bets(tallies, [b for b in side if b not in dists]))
            notes += side_notes
            kind = "fresh"
        if values:
            notes.append(values_note(Reference.of(header.profile), self.payout_unchecked,
                                      kind))
        return Verification(source, "log", header, header_from, self.rows, violations,
                            self.counts, seat_reports, alpha, exact.total, kind, tuple(notes),
                            sources)


def _shared_shoe(log: Log, check: ShoeCheck, earlier: set[int]) -> tuple[int, int] | None:
    """A shoe dealing more than one round (shoe number, line of its second round), or None."""
    assert log.shoe is not None
    shoe_of = log.shoe[check.first]
    seen = set(earlier)
    for k, shoe in enumerate(shoe_of.tolist()):
        if shoe in seen:
            return shoe, int(log.line[check.first[k]])
        seen.add(shoe)
    return None


def _reshuffle_warning(shared: tuple[int, int], source: str | None) -> str:
    """The header's reshuffle (a fresh shoe every round) against a shoe column of several
    rounds a shoe: say how the log is read and which header value matches the column."""
    shoe, line = shared
    said = ("the file states no reshuffle (so round: a fresh shoe every round)"
            if source == "default" else
            "--reshuffle round says a fresh shoe every round" if source == "flag" else
            "the header says reshuffle: round (a fresh shoe every round)")
    return (f"warning: {said}, but the shoe column deals several rounds from one shoe "
            f"(shoe {shoe} again at line {line}); the rounds are judged as dealt one after "
            "another from each shoe, which is what reshuffle: cut says (write it in the "
            "header or give --reshuffle cut), or give every round its own shoe number")


def _packs_hint(needed: tuple[int, int, str], header: RunHeader, source: str | None) -> str:
    """The fix for a log that deals more copies of a card than its stated shoe holds."""
    packs, copies, card = needed
    said = {"default": ": the default, as the file names no shoe", "flag": ": the flag's",
            "file": ": the file header's"}.get(source or "", "")
    if card.startswith(("rank", "value")):
        what = f"{copies} cards of {card}"
        holds = header.shoe.counts[9 if card == "value 0" else 0] if card.startswith(
            "value") else 4 * (header.shoe.packs or 0)
    else:
        what, holds = f"{copies} copies of {card}", header.shoe.packs or 0
    where = "one shoe" if header.reshuffle == "cut" else "one round"
    return (f"the log deals {what} in {where}, but the shoe ({header.shoe.label}{said}) "
            f"holds {holds}: if the simulator deals from more packs, add --decks N, "
            f"at least {packs}")


def _profile_given(sources: Sequence[tuple[str, str]]) -> bool:
    """The profile or one of its options comes from the file or a flag (not the default)."""
    return any(kind != "default" for rule, kind in sources
               if rule == "profile" or rule.startswith("option "))
