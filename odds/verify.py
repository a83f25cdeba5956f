"""Judge a simulator's output against the rules and the exact odds.

:func:`verify_file` reads tallies or a round log (formats in
:mod:`odds.tallies` and docs/simulate-and-verify.md), from our simulator or anyone's.
A round log is first *audited*: every row's draw and stand decisions, final
values, result and payout are recomputed from its cards with the reference
code (:mod:`odds.engine`, :mod:`odds.settle`), and the first violations are
reported with their line numbers.  Then the frequencies are tested against
the exact probabilities of :func:`odds.engine.round_odds` for the same
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
import json
import math
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple

import mpmath  # type: ignore[import-untyped]
import numpy as np
import numpy.typing as npt

from odds.cards import POINTS, RANKS, Suit, parse_card
from odds.engine import colon_class, round_odds
from odds.profiles import Naturals, Profile
from odds.results import RoundOdds
from odds.settle import Outcome, category, pay_entry
from odds.shoe import Shoe
from odds.tallies import (
    LOG_COLUMNS,
    OUTCOMES,
    RunHeader,
    Tally,
    TallyError,
    category_names,
    header_from_data,
    read_tallies,
    split_comments,
)

__all__ = [
    "CUT_TOLERANCE",
    "Check",
    "SeatReport",
    "Verification",
    "Violation",
    "verify_file",
    "verify_tallies",
    "verify_text",
]

IntArray = npt.NDArray[np.int64]
# In a continuous shoe the fresh-shoe odds do not strictly apply; a deviation
# of every category frequency within this much (absolute) is card removal.
CUT_TOLERANCE = 0.005
EXAMPLES = 10  # violations shown

# -- card codes: 0..51 rank*4+suit; 52+rank for a card written without suit ---

_CODE_RANK = np.array([c // 4 for c in range(52)] + list(range(13)), dtype=np.int64)
_CODE_POINT = np.array([POINTS[r] for r in _CODE_RANK.tolist()], dtype=np.int64)


def _code_name(code: int) -> str:
    if code >= 52:
        return RANKS[code - 52].value
    return RANKS[code // 4].value + list(Suit)[code % 4].value


def _card_code(token: str) -> int:
    card = parse_card(token)
    if card.suit is None:
        return 52 + card.rank.index
    return card.rank.index * 4 + card.suit.index


@dataclass(frozen=True)
class Violation:
    """One row that breaks a rule."""

    line: int
    round: int
    seat: int
    rule: str
    message: str

    def text(self) -> str:
        """One line for the report."""
        where = f"line {self.line} (round {self.round}, seat {self.seat})"
        return f"{where}: {self.rule}: {self.message}"


@dataclass
class _Log:
    """A parsed round log as arrays, one entry per row."""

    line: IntArray
    round: IntArray
    seat: IntArray
    player: IntArray  # (n, 3) card codes, -1 where no third card
    bank: IntArray
    results: list[str]  # distinct result strings
    result: IntArray  # index into results
    payouts: list[Fraction]
    payout: IntArray  # index into payouts
    player_final: IntArray | None
    bank_final: IntArray | None


def _parse_log(lines: list[str], first_line: int, where: str) -> _Log:
    """Parse the rows of a round log, column by column (a 10^6-row log in seconds)."""
    head = next(csv.reader(lines[:1]), None)
    names = [h.strip().lower() for h in head or []]
    missing = [c for c in LOG_COLUMNS if c not in names]
    if missing:
        raise TallyError(
            f"{where}, line {first_line}: a round log needs the columns "
            f"{','.join(LOG_COLUMNS)} (optional: player_final,bank_final); "
            f"missing {', '.join(missing)}"
        )
    extra = [c for c in names if c not in (*LOG_COLUMNS, "player_final", "bank_final")]
    if extra:
        raise TallyError(f"{where}, line {first_line}: unknown column {extra[0]!r}")
    finals = "player_final" in names and "bank_final" in names
    width = len(names)
    body = lines[1:]
    numbers = range(first_line + 1, first_line + 1 + len(body))
    if not all(body) or (body and not body[-1].strip()):
        kept = [(n, ln) for n, ln in zip(numbers, body, strict=True) if ln.strip()]
        line_list = [n for n, _ in kept]
        body = [ln for _, ln in kept]
    else:
        line_list = list(numbers)
    if not body:
        raise TallyError(f"{where}: the round log has no rows")
    fast = _fast_columns(body, names)
    if fast is not None:
        return _log_from_columns(fast, line_list, finals, where)
    commas = np.fromiter(map(operator.methodcaller("count", ","), body), dtype=np.int64,
                         count=len(body))
    joined = ",".join(body)
    quoted = '"' in joined
    widths = (np.fromiter(map(len, csv.reader(body)), dtype=np.int64, count=len(body))
              if quoted else commas + 1)
    bad = np.flatnonzero(widths != width)
    if bad.size:
        i = int(bad[0])
        raise TallyError(
            f"{where}, line {line_list[i]}: expected {width} fields ({','.join(names)}), "
            f"got {widths[i]}"
        )
    columns: dict[str, Sequence[str]]
    if quoted:
        columns = {n: list(c) for n, c in
                   zip(names, zip(*csv.reader(body), strict=True), strict=True)}
    else:
        # One split of the whole text; column k is every width-th field from k.
        flat = joined.split(",")
        columns = {name: flat[k::width] for k, name in enumerate(names)}
    return _log_from_columns(columns, line_list, finals, where)


def _parse_json_log(lines: list[str], where: str) -> tuple[dict[str, Any], _Log]:
    """A JSON Lines round log: a header object, then one object per row."""
    header: dict[str, Any] = {}
    rows: list[dict[str, Any]] = []
    numbers: list[int] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise TallyError(f"{where}, line {number}: not valid JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise TallyError(f"{where}, line {number}: each line must be a JSON object")
        if "round" not in obj and not rows:
            header.update(obj)
            continue
        missing = [c for c in LOG_COLUMNS if c not in obj]
        if missing:
            raise TallyError(f"{where}, line {number}: a row needs {', '.join(missing)}")
        extra = sorted(set(obj) - {*LOG_COLUMNS, "player_final", "bank_final"})
        if extra:
            raise TallyError(f"{where}, line {number}: unknown field {extra[0]!r}")
        rows.append(obj)
        numbers.append(number)
    if not rows:
        raise TallyError(f"{where}: the round log has no rows")
    finals = all("player_final" in r and "bank_final" in r for r in rows)
    names = list(LOG_COLUMNS) + (["player_final", "bank_final"] if finals else [])
    columns: dict[str, Sequence[str]] = {}
    for name in names:
        values = []
        for r, number in zip(rows, numbers, strict=True):
            value = r[name]
            if isinstance(value, bool) or not isinstance(value, (str, int, float)):
                raise TallyError(f"{where}, line {number}: {name} {value!r} is not a "
                                 f"{'number' if name != 'player' and name != 'bank' else 'hand'}")
            if isinstance(value, float) and name != "payout":
                raise TallyError(f"{where}, line {number}: {name} {value!r} is not a whole number")
            values.append(str(value))
        columns[name] = values
    return header, _log_from_columns(columns, numbers, finals, where)


class _Factor(NamedTuple):
    """A text column factorised: its distinct values and each row's index into them."""

    values: list[str]
    codes: IntArray


Column = Sequence[str] | _Factor | IntArray


def _fast_columns(body: list[str], names: list[str]) -> dict[str, Column] | None:
    """Split a plain CSV body with numpy on its bytes; None where the slow path must look.

    Each field becomes a fixed-width byte row; text columns are returned as
    (distinct values, code per row), whole-number columns as integers.  Lines
    with quotes, wrong field counts, odd whitespace or non-digits in a number
    go to the line-by-line parser, which names the line and the fault.
    """
    width = len(names)
    raw = ("\n".join(body) + "\n").encode("utf-8")
    if b'"' in raw or b"\r" in raw:
        return None
    buf = np.frombuffer(raw, dtype=np.uint8)
    ends = np.flatnonzero(buf == 10)
    starts = np.r_[0, ends[:-1] + 1]
    commas = np.flatnonzero(buf == 44)
    per_line = np.searchsorted(commas, ends) - np.searchsorted(commas, starts)
    if len(ends) != len(body) or np.any(per_line != width - 1):
        return None
    cut = commas.reshape(len(ends), width - 1)
    padded = np.concatenate([buf, np.zeros(64, dtype=np.uint8)])
    windows = np.lib.stride_tricks.sliding_window_view(padded, 48)  # no copy
    out: dict[str, Column] = {}
    for k, name in enumerate(names):
        lo = starts if k == 0 else cut[:, k - 1] + 1
        hi = ends if k == width - 1 else cut[:, k]
        length = hi - lo
        size = int(length.max()) if len(length) else 0
        if size == 0 or size > 48:
            return None
        wide = -(-size // 8) * 8
        block = windows[lo, :wide].copy()  # the field's bytes, then the next ones
        block *= np.arange(wide, dtype=np.int64)[None, :] < length[:, None]  # zero the rest
        if name in ("round", "seat", "player_final", "bank_final"):
            if size > 18:
                return None
            digits = block[:, :size].astype(np.int64) - 48
            inside = np.arange(size)[None, :] < length[:, None]
            if np.any(inside & ((digits < 0) | (digits > 9))):
                return None
            power = length[:, None] - 1 - np.arange(size)[None, :]
            scale = np.where(power >= 0, 10 ** np.maximum(power, 0), 0)
            out[name] = (digits * scale).sum(axis=1)
            continue
        # Factorise 8 bytes at a time (integer sorts are fast; byte-string sorts are not).
        words = block.view(np.uint64)
        if words.shape[1] == 1:
            _, first, code = np.unique(words[:, 0], return_index=True, return_inverse=True)
        else:
            code = np.zeros(len(block), dtype=np.int64)
            for j in range(words.shape[1]):
                _, inverse = np.unique(words[:, j], return_inverse=True)
                inverse = inverse.ravel()
                code = code * (int(inverse.max()) + 1) + inverse
                if code.max() > 1 << 40:
                    _, code = np.unique(code, return_inverse=True)
                    code = code.ravel()
            _, first, code = np.unique(code, return_index=True, return_inverse=True)
        values = [bytes(block[i]).rstrip(b"\x00").decode("utf-8") for i in first.tolist()]
        out[name] = _Factor(values, code.astype(np.int64).ravel())
    return out


def _log_from_columns(columns: Mapping[str, Column], line_list: list[int], finals: bool,
                      where: str) -> _Log:
    lines_arr = np.array(line_list, dtype=np.int64)

    def distinct(column: Column) -> tuple[list[str], IntArray]:
        if isinstance(column, _Factor):
            return column.values, column.codes
        assert not isinstance(column, np.ndarray)
        # set() and map() iterate in C: a 10^6-row column in a fraction of a second.
        values = sorted(set(column))
        index = {v: i for i, v in enumerate(values)}
        codes = np.fromiter(map(index.__getitem__, column), dtype=np.int64, count=len(column))
        return values, codes

    tokens: dict[str, int] = {}
    hands = {}
    for who in ("player", "bank"):
        texts, codes = distinct(columns[who])
        table = np.empty((len(texts), 3), dtype=np.int64)
        for k, text in enumerate(texts):
            try:
                table[k] = _hand(text, tokens)
            except ValueError as exc:
                i = int(np.flatnonzero(codes == k)[0])
                raise TallyError(f"{where}, line {line_list[i]}: {who} cards: {exc}") from None
        hands[who] = table[codes]
    results, result = distinct(columns["result"])
    stripped = [r.strip().lower() for r in results]
    if stripped != results:  # merge results that differ only by spaces or case
        merged = sorted(set(stripped))
        result = np.array([merged.index(r) for r in stripped], dtype=np.int64)[result]
        results = merged
    pay_texts, pay_codes = distinct(columns["payout"])
    payouts: list[Fraction] = []
    remap = np.empty(len(pay_texts), dtype=np.int64)
    for k, text in enumerate(pay_texts):
        try:
            amount = _payout(text)
        except ValueError as exc:
            i = int(np.flatnonzero(pay_codes == k)[0])
            raise TallyError(f"{where}, line {line_list[i]}: {exc}") from None
        if amount not in payouts:
            payouts.append(amount)
        remap[k] = payouts.index(amount)
    return _Log(
        line=lines_arr,
        round=_integers(columns["round"], lines_arr, "round", where, 1),
        seat=_integers(columns["seat"], lines_arr, "seat", where, 1),
        player=hands["player"],
        bank=hands["bank"],
        results=results,
        result=result,
        payouts=payouts,
        payout=remap[pay_codes],
        player_final=(_integers(columns["player_final"], lines_arr, "player_final", where, 0)
                      if finals else None),
        bank_final=(_integers(columns["bank_final"], lines_arr, "bank_final", where, 0)
                    if finals else None),
    )


def _hand(text: str, tokens: dict[str, int]) -> tuple[int, int, int]:
    """Card codes of a hand written ``8h 7s 4d`` (third code -1 for two cards)."""
    codes = []
    for token in text.replace(";", " ").replace(",", " ").split():
        code = tokens.get(token)
        if code is None:
            code = tokens[token] = _card_code(token)
        codes.append(code)
    if not 2 <= len(codes) <= 3:
        raise ValueError(
            f"{text.strip()!r} has {len(codes)} cards; a hand has 2, or 3 after a draw"
        )
    return codes[0], codes[1], codes[2] if len(codes) == 3 else -1


def _payout(text: str) -> Fraction:
    raw = text.strip()
    try:
        return Fraction(raw)
    except (ValueError, ZeroDivisionError):
        raise ValueError(
            f"payout {raw!r} is not a number (write 1, -1, 0, 1.5 or 3/2)"
        ) from None


def _integers(texts: Column, lines: IntArray, what: str, where: str,
              low: int) -> IntArray:
    if isinstance(texts, np.ndarray):
        values = texts.astype(np.int64)
        bad = np.flatnonzero(values < low)
        if bad.size:
            i = int(bad[0])
            raise TallyError(
                f"{where}, line {lines[i]}: {what} '{values[i]}' is less than {low}"
            )
        return values
    assert not isinstance(texts, _Factor)
    try:
        values = np.array(list(map(int, texts)), dtype=np.int64)
    except (ValueError, OverflowError):
        for i, t in enumerate(texts):
            if not t.strip().lstrip("-").isdigit() or len(t.strip()) > 18:
                raise TallyError(
                    f"{where}, line {lines[i]}: {what} {t!r} is not a whole number"
                ) from None
        raise
    bad = np.flatnonzero(values < low)
    if bad.size:
        i = int(bad[0])
        raise TallyError(f"{where}, line {lines[i]}: {what} {texts[i]!r} is less than {low}")
    return values


# -- the rules as lookup tables (from the reference code) ---------------------


@dataclass(frozen=True)
class _Reference:
    profile: Profile
    names: tuple[str, ...]  # category names; codes index this
    player_draw: npt.NDArray[np.bool_]  # [pv, bv]
    bank_draw: npt.NDArray[np.bool_]  # [bv, player third value or 10, pv]
    cat: IntArray  # [pv, bv, pf, bf] -> category code
    colon: IntArray  # [rank, rank] -> Colon class
    pay: list[list[list[Fraction]]]  # [outcome 0 win 1 push 2 loss][pcol][bcol]

    @classmethod
    def of(cls, profile: Profile) -> _Reference:
        p_rule, b_rule = profile.player_draw, profile.bank_draw
        if p_rule is None or b_rule is None:
            raise ValueError(
                f"profile {profile.key!r} has no fixed draw rule (players and bank choose): "
                "its rounds cannot be checked against a rule"
            )
        names = category_names(profile)
        nat = [v in profile.naturals for v in range(10)]
        stop = profile.naturals_stop_draws
        pdraw = np.zeros((10, 10), dtype=bool)
        bdraw = np.zeros((10, 11, 10), dtype=bool)
        for pv in range(10):
            for bv in range(10):
                halted = stop and (nat[pv] or nat[bv])
                pdraw[pv, bv] = not nat[pv] and not halted and p_rule.decide(pv, None)
                for x in range(11):
                    bdraw[bv, x, pv] = (not nat[bv] and not halted
                                        and b_rule.decide(bv, None if x == 10 else x))
        cat = np.zeros((10, 10, 10, 10), dtype=np.int64)
        for pv in range(10):
            for bv in range(10):
                for pf in range(10):
                    for bf in range(10):
                        outcome, how = category(profile, pv, bv, pf, bf)
                        cat[pv, bv, pf, bf] = names.index(f"{outcome.value}_{how}")
        colon = np.array([[colon_class(profile, a, b) for b in range(13)] for a in range(13)])
        pay = [
            [[pay_entry(profile, outcome, pc, bc).amount(profile) for bc in range(3)]
             for pc in range(3)]
            for outcome in (Outcome.WIN, Outcome.PUSH, Outcome.LOSS)
        ]
        return cls(profile, names, pdraw, bdraw, cat, colon.astype(np.int64), pay)


@dataclass
class _Audited:
    """Per-row values recomputed from a log's cards, and the violations found."""

    pv: IntArray
    bv: IntArray
    pf: IntArray
    bf: IntArray
    pcol: IntArray
    bcol: IntArray
    pdrew: npt.NDArray[np.bool_]
    bdrew: npt.NDArray[np.bool_]
    violations: list[Violation]
    counts: dict[str, int]


def _check_shoe(log: _Log, shoe: Shoe, seats: int, where: str) -> IntArray:
    """Rows of each round: one per seat, the same bank, cards the shoe can hold.

    Returns the index of each row's round (0..rounds-1, dense).
    """
    if np.all(log.round[1:] > log.round[:-1]):
        order = np.arange(len(log.round))  # one row per round, in order (heads-up)
    else:
        order = np.lexsort((log.seat, log.round))
    r, s = log.round[order], log.seat[order]
    dup = np.flatnonzero((r[1:] == r[:-1]) & (s[1:] == s[:-1]))
    if dup.size:
        a, b = order[dup[0]], order[dup[0] + 1]
        raise TallyError(
            f"{where}, line {log.line[max(a, b)]}: round {r[dup[0]]} seat {s[dup[0]]} is "
            f"given twice (also line {log.line[min(a, b)]})"
        )
    over = np.flatnonzero(log.seat > seats)
    if over.size:
        i = int(over[0])
        raise TallyError(
            f"{where}, line {log.line[i]}: seat {log.seat[i]}, but the run has {seats} "
            f"seat{'s' if seats > 1 else ''}"
        )
    starts = np.flatnonzero(np.r_[True, r[1:] != r[:-1]])
    first = order[starts]  # the first row (lowest seat) of each round, in round order
    index = np.empty(len(order), dtype=np.int64)
    index[order] = np.cumsum(np.r_[True, r[1:] != r[:-1]]) - 1
    same = (log.bank == log.bank[first[index]]).all(axis=1)
    bad = np.flatnonzero(~same)
    if bad.size:
        i = int(bad[0])
        raise TallyError(
            f"{where}, line {log.line[i]}: round {log.round[i]}: the bank's cards differ "
            f"from line {log.line[first[index[i]]]} (every seat faces the same bank hand)"
        )
    if shoe.infinite:
        return index
    # Every card of each round in one row: each seat's three slots, then the bank's.
    width = 3 * seats + 3
    if min(shoe.counts) >= width and (shoe.packs is None or shoe.packs >= width):
        return index  # no round is long enough to run out of anything
    cards = np.full((len(first), width), -1, dtype=np.int64)
    cols = 3 * (log.seat[:, None] - 1) + np.arange(3)
    cards[index[:, None], cols] = log.player
    cards[:, 3 * seats:] = log.bank[first]
    ranks = np.where(cards >= 0, _CODE_RANK[np.maximum(cards, 0)], 99)
    held = np.full(100, 10**9, dtype=np.int64)  # padding (99) never runs out
    held[:13] = shoe.counts
    _too_many(np.sort(ranks, axis=1), held, lambda rd, k: (
        f"deals {k} cards of rank {RANKS[rd].value}, but the shoe ({shoe.label}) "
        f"holds {shoe.counts[rd]}"), log, first, where)
    if shoe.packs is not None:
        suited = np.where((cards >= 0) & (cards < 52), cards, 1000 + np.arange(width))
        limit = np.full(1000 + width, 10**9, dtype=np.int64)
        limit[:52] = shoe.packs
        _too_many(np.sort(suited, axis=1), limit, lambda c, k: (
            f"deals {k} {_code_name(c)}, but the shoe ({shoe.label}) holds {shoe.packs}"),
            log, first, where)
    return index


def _too_many(ordered: IntArray, limit: IntArray, say: Callable[[int, int], str],
              log: _Log, first: IntArray, where: str) -> None:
    """Raise if a value in a sorted row repeats more often than ``limit[value]``.

    In a sorted row, a value held at most ``c`` times must differ from the
    entry ``c`` places on.
    """
    width = ordered.shape[1]
    cap = limit[ordered]
    hit = np.zeros(ordered.shape, dtype=bool)
    for c in np.unique(cap).tolist():
        if c >= width:
            continue
        hit[:, : width - c] |= (ordered[:, : width - c] == ordered[:, c:]) & (
            cap[:, : width - c] == c)
    bad = np.flatnonzero(hit.any(axis=1))
    if not bad.size:
        return
    k = int(bad[0])
    j = int(np.flatnonzero(hit[k])[0])
    value = int(ordered[k, j])
    count = int((ordered[k] == value).sum())
    i = int(first[k])
    raise TallyError(
        f"{where}, line {log.line[i]}: round {log.round[i]} {say(value, count)}: "
        "these cards cannot come from the stated shoe"
    )


def _audit(log: _Log, ref: _Reference) -> _Audited:
    p, b = log.player, log.bank
    pp = np.where(p >= 0, _CODE_POINT[np.maximum(p, 0)], 0)
    bp = np.where(b >= 0, _CODE_POINT[np.maximum(b, 0)], 0)
    pv = (pp[:, 0] + pp[:, 1]) % 10
    bv = (bp[:, 0] + bp[:, 1]) % 10
    pdrew = p[:, 2] >= 0
    bdrew = b[:, 2] >= 0
    pf = (pv + pp[:, 2]) % 10
    bf = (bv + bp[:, 2]) % 10
    x = np.where(pdrew, pp[:, 2], 10)
    pcol = ref.colon[_CODE_RANK[p[:, 0]], _CODE_RANK[p[:, 1]]]
    bcol = ref.colon[_CODE_RANK[b[:, 0]], _CODE_RANK[b[:, 1]]]
    want_p = ref.player_draw[pv, bv]
    want_b = ref.bank_draw[bv, x, pv]
    expected = ref.cat[pv, bv, pf, bf]
    # Reported results as category codes (outcome-only results: -1, -2, -3).
    res_code = np.array(
        [ref.names.index(r) if r in ref.names else -1 - OUTCOMES.index(r) for r in log.results],
        dtype=np.int64,
    )[log.result]
    exp_outcome = np.array([OUTCOMES.index(n.split("_")[0]) for n in ref.names])[expected]
    rep_outcome = np.where(
        res_code >= 0,
        np.array([OUTCOMES.index(n.split("_")[0]) for n in ref.names])[np.maximum(res_code, 0)],
        -1 - res_code,
    )
    result_bad = np.where(res_code >= 0, res_code != expected, rep_outcome != exp_outcome)
    amounts = list(log.payouts)
    table = np.zeros((3, 3, 3), dtype=np.int64)
    for o in range(3):
        for pc in range(3):
            for bc in range(3):
                a = ref.pay[o][pc][bc]
                if a not in amounts:
                    amounts.append(a)
                table[o, pc, bc] = amounts.index(a)
    want_pay = table[exp_outcome, pcol, bcol]
    checks: list[tuple[str, npt.NDArray[np.bool_]]] = [
        ("player draw", pdrew != want_p),
        ("bank draw", bdrew != want_b),
    ]
    if log.player_final is not None and log.bank_final is not None:
        checks.append(("final value", (log.player_final != pf) | (log.bank_final != bf)))
    checks.append(("result", result_bad))
    checks.append(("payout", ~result_bad & (log.payout != want_pay)))
    counts = {}
    found: list[tuple[int, str]] = []
    for rule, mask in checks:
        rows = np.flatnonzero(mask)
        counts[rule] = int(rows.size)
        found += [(int(i), rule) for i in rows[:EXAMPLES]]
    found.sort()
    violations = []
    for i, rule in found[:EXAMPLES]:
        ctx = _RowContext(log, ref, i, int(pv[i]), int(bv[i]), int(pf[i]), int(bf[i]),
                          int(pcol[i]), int(bcol[i]), amounts)
        message = _MESSAGES[rule](ctx)
        violations.append(Violation(int(log.line[i]), int(log.round[i]), int(log.seat[i]),
                                    rule, message))
    return _Audited(pv, bv, pf, bf, pcol, bcol, pdrew, bdrew, violations, counts)


@dataclass(frozen=True)
class _RowContext:
    log: _Log
    ref: _Reference
    i: int
    pv: int
    bv: int
    pf: int
    bf: int
    pcol: int
    bcol: int
    amounts: list[Fraction]

    def cards(self, who: str) -> str:
        row = (self.log.player if who == "player" else self.log.bank)[self.i]
        return " ".join(_code_name(int(c)) for c in row if c >= 0)

    @property
    def result(self) -> str:
        return self.log.results[int(self.log.result[self.i])]

    @property
    def payout(self) -> Fraction:
        return self.log.payouts[int(self.log.payout[self.i])]

    @property
    def expected(self) -> str:
        return self.ref.names[int(self.ref.cat[self.pv, self.bv, self.pf, self.bf])]


def _draw_message(ctx: _RowContext, who: str) -> str:
    profile = ctx.ref.profile
    own = ctx.pv if who == "player" else ctx.bv
    drew = (ctx.log.player if who == "player" else ctx.log.bank)[ctx.i, 2] >= 0
    nat = profile.naturals
    if own in nat:
        why = "a natural never draws"
    elif profile.naturals_stop_draws and (ctx.pv in nat or ctx.bv in nat):
        why = "a natural on either side stops all draws"
    else:
        rule = profile.player_draw if who == "player" else profile.bank_draw
        assert rule is not None
        why = f"the {who} {rule.describe()}"
        if who == "bank" and rule.tableau is not None and ctx.log.player[ctx.i, 2] >= 0:
            x = int(_CODE_POINT[ctx.log.player[ctx.i, 2]])
            why += f"; the player's third card is worth {x}"
    should = "stand" if drew else "draw"
    did = "drew" if drew else "stood"
    return f"{who} {ctx.cards(who)} has {own}: must {should} ({why}), but {did}"


def _result_message(ctx: _RowContext) -> str:
    from odds.report import rules_line

    profile = ctx.ref.profile
    expected, reported = ctx.expected, ctx.result
    exp_out, rep_out = expected.split("_")[0], reported.split("_")[0]
    head = (f"player {ctx.cards('player')} ({ctx.pf}) vs bank {ctx.cards('bank')} ({ctx.bf}): "
            f"the rules give {expected}, the log says {reported}")
    by_finals = "win" if ctx.pf > ctx.bf else "loss" if ctx.pf < ctx.bf else "push"
    naturals = rules_line(profile).split(";")[0]  # 'naturals 8-9 outright'
    if "natural" in expected and "natural" not in reported:
        nat = ctx.pv if ctx.pv in profile.naturals else ctx.bv
        why = f"{nat} is a natural ({naturals})"
        if exp_out != rep_out and profile.naturals_rule is Naturals.OUTRIGHT \
                and rep_out == by_finals:
            why += ("; a natural beats any non-natural hand, whatever it drew to, "
                    "but the log compared final values")
        return f"{head} ({why})"
    if reported.startswith(("win_natural_", "loss_natural_")):
        v = int(reported.rsplit("_", 1)[1])
        if v not in profile.naturals:
            return f"{head} ({v} is not a natural: {naturals})"
    if exp_out == rep_out:
        return f"{head} (the outcome is right, but not how it came about)"
    if "natural" not in expected:
        return f"{head} (comparison: the higher final value wins, equal values push)"
    return f"{head} ({naturals})"


def _payout_message(ctx: _RowContext) -> str:
    profile = ctx.ref.profile
    exp_out = OUTCOMES.index(ctx.expected.split("_")[0])
    want = ctx.ref.pay[exp_out][ctx.pcol][ctx.bcol]
    got = ctx.payout
    head = (f"{ctx.expected} with player {ctx.cards('player')}: "
            f"the rules pay {want}, the log pays {got}")
    codes = ctx.log.player[ctx.i]
    same_value = _CODE_POINT[codes[0]] == _CODE_POINT[codes[1]]
    if ctx.pcol == 0 and same_value and profile.colon is not None and got == profile.colon:
        return (f"{head} (colon_match {profile.colon_match.value}: "
                f"{_code_name(int(codes[0]))} {_code_name(int(codes[1]))} is not a Colon; "
                "only equal ranks pair)")
    if exp_out == 1 and got != 0:
        return f"{head} (a push returns the stake: net 0)"
    if ctx.pcol and want in (profile.colon, profile.colon_nine) and got != want:
        return f"{head} (Colon bonus on {profile.bonus_on.value})"
    if ctx.bcol and profile.bank_bonus and exp_out == 2:
        return f"{head} (bank Colon collects with bank_bonus on)"
    return head


_MESSAGES: dict[str, Callable[[_RowContext], str]] = {
    "player draw": lambda c: _draw_message(c, "player"),
    "bank draw": lambda c: _draw_message(c, "bank"),
    "final value": lambda c: (
        f"player {c.cards('player')} is {c.pf} and bank {c.cards('bank')} is {c.bf}, "
        f"the log says {c.log.player_final[c.i] if c.log.player_final is not None else '?'} "
        f"and {c.log.bank_final[c.i] if c.log.bank_final is not None else '?'}"
    ),
    "result": _result_message,
    "payout": _payout_message,
}


def _log_tallies(log: _Log, audited: _Audited, seats: int) -> list[Tally]:
    names = log.results
    tallies = []
    for s in range(1, seats + 1):
        rows = log.seat == s
        n = int(rows.sum())
        if not n:
            continue
        res = np.bincount(log.result[rows], minlength=len(names))
        cats = {name: int(res[i]) for i, name in enumerate(names) if res[i]}
        if any(name in OUTCOMES for name in cats):  # outcome-only: collapse
            merged: dict[str, int] = {}
            for name, c in cats.items():
                key = name.split("_")[0]
                merged[key] = merged.get(key, 0) + c
            cats = merged
        pays = np.bincount(log.payout[rows], minlength=len(log.payouts))
        tallies.append(Tally(
            seat=s, rounds=n, categories=cats,
            player_value=np.bincount(audited.pv[rows], minlength=10).tolist(),
            bank_value=np.bincount(audited.bv[rows], minlength=10).tolist(),
            player_final=np.bincount(audited.pf[rows], minlength=10).tolist(),
            bank_final=np.bincount(audited.bf[rows], minlength=10).tolist(),
            player_colon=int((audited.pcol[rows] > 0).sum()),
            player_colon_nine=int((audited.pcol[rows] == 2).sum()),
            bank_colon=int((audited.bcol[rows] > 0).sum()),
            bank_colon_nine=int((audited.bcol[rows] == 2).sum()),
            player_draws=int(audited.pdrew[rows].sum()),
            bank_draws=int(audited.bdrew[rows].sum()),
            payouts={a: int(pays[i]) for i, a in enumerate(log.payouts) if pays[i]},
        ))
    return tallies


# -- frequency tests ----------------------------------------------------------


@dataclass(frozen=True)
class Check:
    """One frequency test: chi-square (``df`` set) or z (``df`` None).

    ``rows`` are (label, observed count, expected count, z) for display.
    """

    name: str
    statistic: float
    df: int | None
    p: Any  # mpmath mpf: exact-ish even when far below 1e-300
    rows: tuple[tuple[str, int, float, float], ...] = ()
    note: str = ""

    @property
    def p_text(self) -> str:
        """The p-value, 3 significant digits."""
        return _p_text(self.p)


def _p_text(p: Any) -> str:
    if p == 0:
        return "0"
    if p >= 0.001:
        return f"{float(p):.3f}"
    return str(mpmath.nstr(p, 3, min_fixed=1, max_fixed=0))


def _z_text(z: float) -> str:
    """A z-score with sign and one decimal; an impossible cell shows as inf."""
    return "inf" if math.isinf(z) else f"{z:+.1f}"


def _z_p(z: float) -> Any:
    return mpmath.erfc(mpmath.mpf(abs(z)) / mpmath.sqrt(2))


def _chi_square(name: str, labels: Sequence[str], observed: Sequence[int],
                probs: Sequence[Fraction]) -> Check:
    n = sum(observed)
    rows = []
    impossible = []
    cells: list[tuple[int, float]] = []
    for label, o, pr in zip(labels, observed, probs, strict=True):
        e = float(pr) * n
        z = (o - e) / math.sqrt(e * (1 - float(pr))) if 0 < pr < 1 else (
            0.0 if o == e else math.inf)
        rows.append((label, o, e, z))
        if pr == 0:
            if o:
                impossible.append(label)
            continue
        cells.append((o, e))
    if impossible:
        return Check(name, math.inf, len(cells) - 1, mpmath.mpf(0), tuple(rows),
                     f"impossible under the rules: {', '.join(impossible)}")
    # Pool cells expected under 5 so the chi-square approximation holds.
    small = [c for c in cells if c[1] < 5]
    cells = [c for c in cells if c[1] >= 5]
    if small:
        pooled = (sum(o for o, _ in small), sum(e for _, e in small))
        if pooled[1] >= 5 or not cells:
            cells.append(pooled)
        else:
            j = min(range(len(cells)), key=lambda k: cells[k][1])
            cells[j] = (cells[j][0] + pooled[0], cells[j][1] + pooled[1])
    stat = sum((o - e) ** 2 / e for o, e in cells)
    df = len(cells) - 1
    if df < 1:
        return Check(name, 0.0, 0, mpmath.mpf(1), tuple(rows), "one cell: nothing to test")
    p = mpmath.gammainc(mpmath.mpf(df) / 2, mpmath.mpf(stat) / 2, mpmath.inf, regularized=True)
    return Check(name, stat, df, p, tuple(rows))


def _z_check(name: str, count: int, n: int, prob: Fraction) -> Check:
    e = float(prob) * n
    if prob in (0, 1):
        ok = count == e
        return Check(name, 0.0 if ok else math.inf, None, mpmath.mpf(1 if ok else 0),
                     ((name, count, e, 0.0 if ok else math.inf),),
                     "" if ok else "impossible under the rules")
    z = (count - e) / math.sqrt(n * float(prob) * (1 - float(prob)))
    if min(e, n - e) < 10:
        # Too few expected for the normal approximation: exact binomial tails,
        # P(X <= k) and P(X >= k) as regularized incomplete beta functions.
        q = mpmath.mpf(prob.numerator) / prob.denominator
        low = mpmath.mpf(1) if count == n else mpmath.betainc(count + 1, n - count, q, 1,
                                                              regularized=True)
        high = mpmath.mpf(1) if count == 0 else mpmath.betainc(count, n - count + 1, 0, q,
                                                               regularized=True)
        p = min(mpmath.mpf(1), 2 * min(low, high))
        return Check(name, z, None, p, ((name, count, e, z),), "exact binomial")
    return Check(name, z, None, _z_p(z), ((name, count, e, z),))


@dataclass(frozen=True)
class SeatReport:
    """The frequency tests of one seat's tally, and its EV."""

    seat: int
    rounds: int
    checks: tuple[Check, ...]
    ev_observed: float
    ev_exact: Fraction
    ev_interval: tuple[float, float] | None
    max_deviation: float  # largest |observed - exact| category frequency


def _seat_report(tally: Tally, exact: RoundOdds, alpha: float) -> SeatReport:
    n = tally.rounds
    checks = []
    cats = exact.categories
    if tally.detailed:
        names = category_names(exact.profile)
        probs = [cats.get(k, Fraction(0)) for k in names]
        observed = [tally.categories.get(k, 0) for k in names]
        checks.append(_chi_square("categories", names, observed, probs))
    else:
        names = OUTCOMES
        probs = [exact.win, exact.push, exact.loss]
        observed = [tally.outcomes[k] for k in OUTCOMES]
        checks.append(_chi_square("outcomes", names, observed, probs))
    max_dev = max(abs(o / n - float(p)) for o, p in zip(observed, probs, strict=True)) if n else 0.0
    outcomes = tally.outcomes
    for name, prob in (("win", exact.win), ("push", exact.push), ("loss", exact.loss)):
        checks.append(_z_check(name, outcomes[name], n, prob))
    labels = [str(v) for v in range(10)]
    value_probs = {}
    for side in ("player", "bank"):
        table = exact.by_value(side)
        value_probs[side] = [table[v]["probability"] if v in table else Fraction(0)
                             for v in range(10)]
    finals = {"player": exact.player_final, "bank": exact.bank_final}
    nat = sorted(exact.profile.naturals)
    for side in ("player", "bank"):
        vec = getattr(tally, f"{side}_value")
        if vec is not None:
            checks.append(_chi_square(f"{side} two-card value", labels, vec, value_probs[side]))
            checks.append(_z_check(f"{side} natural", sum(vec[v] for v in nat), n,
                                   sum((value_probs[side][v] for v in nat), Fraction(0))))
        vec = getattr(tally, f"{side}_final")
        if vec is not None:
            checks.append(_chi_square(f"{side} final value", labels, vec, list(finals[side])))
    for name, prob in (
        ("player_colon", exact.player_colon), ("player_colon_nine", exact.player_colon_nine),
        ("bank_colon", exact.bank_colon), ("bank_colon_nine", exact.bank_colon_nine),
        ("player_draws", exact.player_draws), ("bank_draws", exact.bank_draws),
    ):
        count = getattr(tally, name)
        if count is not None:
            checks.append(_z_check(name.replace("_", " "), count, n, prob))
    ev_exact, var_exact = exact.bet_moments("player")
    ev_obs = math.nan
    interval = None
    if tally.payouts is not None:
        dist = exact.payout_distribution("player")
        amounts = sorted(set(dist) | set(tally.payouts), reverse=True)
        checks.append(_chi_square(
            "payouts", [str(a) for a in amounts], [tally.payouts.get(a, 0) for a in amounts],
            [dist.get(a, Fraction(0)) for a in amounts],
        ))
        total = sum((a * c for a, c in tally.payouts.items()), Fraction(0))
        ev_obs = float(total / n)
        second = float(sum((a * a * c for a, c in tally.payouts.items()), Fraction(0)) / n)
        sd = math.sqrt(max(second - ev_obs**2, 0.0) * n / max(n - 1, 1))
        half = float(mpmath.sqrt(2) * mpmath.erfinv(1 - alpha)) * sd / math.sqrt(n)
        interval = (ev_obs - half, ev_obs + half)
        if var_exact > 0:
            z = (ev_obs - float(ev_exact)) / math.sqrt(float(var_exact) / n)
            checks.append(Check("expected value", z, None, _z_p(z),
                                (("EV", 0, float(ev_exact), z),)))
    return SeatReport(tally.seat, n, tuple(checks), ev_obs, ev_exact, interval, max_dev)


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
        p = _p_text(self.p_value)
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

    def lines(self, detail: bool = True) -> list[str]:
        """The report as terminal lines."""
        from odds.report import decimal, fraction, rules_line

        h = self.header
        out = [
            f"file: {self.source} ({'round log' if self.kind == 'log' else 'tallies'}, "
            f"{self.rows:,} rows)" if self.kind == "log" else f"file: {self.source} (tallies)",
            f"rules ({self.header_from}): profile {h.profile.key}; {rules_line(h.profile)}",
            f"shoe: {h.shoe.label}; seats: {h.seats}; reshuffle: {h.reshuffle}"
            + (f" at penetration {h.penetration:g}" if h.penetration is not None else "")
            + (f"; seed {h.seed}" if h.seed is not None else ""),
        ]
        if self.continuous:
            out.append("note: continuous shoe: card removal between rounds shifts the odds "
                       "slightly from the fresh-shoe figures tested here; a small deviation "
                       "is expected, not a bug")
        if self.kind == "log":
            out.append("")
            out.append("audit (every row against the rules):")
            for rule, count in self.violation_counts.items():
                broken = f"{count:,} row{'s' if count > 1 else ''} broken"
                out.append(f"  {rule:<12} {'ok' if not count else broken}")
            if self.violations:
                out.append(f"first violations (of {sum(self.violation_counts.values()):,}):")
                out += ["  " + v.text() for v in self.violations]
        for seat in self.seats:
            out.append("")
            out.append(f"seat {seat.seat}: {seat.rounds:,} rounds")
            for check in seat.checks:
                if check.df is not None:
                    stat = "inf" if math.isinf(check.statistic) else f"{check.statistic:.2f}"
                    out.append(f"  chi-square {check.name:<22} {stat:>12} df {check.df:<3}"
                               f" p = {check.p_text}" + (f"  ({check.note})" if check.note else ""))
                    if detail and check is not seat.checks[0] and check.rows:
                        zs = " ".join(f"{label}:{_z_text(z)}" for label, _, e, z in check.rows
                                      if e > 0 or not math.isfinite(z))
                        out.append(f"    z by {'amount' if check.name == 'payouts' else 'value'}:"
                                   f" {zs}")
                else:
                    z = "inf" if math.isinf(check.statistic) else f"{check.statistic:+.2f}"
                    out.append(f"  z          {check.name:<22} {z:>12}        p = {check.p_text}"
                               + (f"  ({check.note})" if check.note else ""))
            if detail:
                cat = seat.checks[0]
                out.append(f"  {cat.name:<24}{'observed':>12}{'exact':>12}{'z':>8}")
                for label, o, e, zz in cat.rows:
                    freq = o / seat.rounds if seat.rounds else 0.0
                    exact = e / seat.rounds if seat.rounds else 0.0
                    out.append(f"  {label:<24}{freq:>12.6f}{exact:>12.6f}{zz:>+8.2f}")
            if seat.ev_interval is not None:
                lo, hi = seat.ev_interval
                out.append(
                    f"  EV per unit stake: observed {seat.ev_observed:+.6f}, "
                    f"{100 * (1 - self.alpha):g}% interval [{lo:+.6f}, {hi:+.6f}]; "
                    f"exact {decimal(seat.ev_exact, 6)} ({fraction(seat.ev_exact)})"
                )
        out.append("")
        out.append(self.verdict_text())
        return out

    def as_data(self) -> dict[str, Any]:
        """JSON-ready report."""
        from odds.report import fraction

        return {
            "source": self.source,
            "kind": self.kind,
            "header": self.header.as_data(),
            "rules_from": self.header_from,
            "rows": self.rows,
            "audit": {"counts": self.violation_counts,
                      "violations": [v.__dict__ for v in self.violations]},
            "seats": [
                {
                    "seat": s.seat,
                    "rounds": s.rounds,
                    "tests": [
                        {"name": c.name, "kind": "z" if c.df is None else "chi-square",
                         "statistic": None if math.isinf(c.statistic) else c.statistic,
                         "df": c.df, "p": c.p_text, "note": c.note or None,
                         "cells": [{"label": label, "observed": o, "expected": e,
                                    "z": _z_text(z)} for label, o, e, z in c.rows]}
                        for c in s.checks
                    ],
                    "ev_observed": s.ev_observed,
                    "ev_exact": fraction(s.ev_exact),
                    "ev_interval": list(s.ev_interval) if s.ev_interval else None,
                }
                for s in self.seats
            ],
            "alpha": self.alpha,
            "p_value": _p_text(self.p_value),
            "verdict": self.verdict,
            "verdict_text": self.verdict_text(),
        }


def verify_tallies(header: RunHeader, tallies: Sequence[Tally], alpha: float = 0.01,
                   source: str = "tallies", header_from: str = "file") -> Verification:
    """Test tallies against the exact odds of the header's profile and shoe.

    >>> from odds.profiles import BUILTIN
    >>> from odds.simulate import simulate
    >>> sim = simulate(BUILTIN["plain"], Shoe.packs_of(1), 20000, seed=5)
    >>> verify_tallies(sim.header, sim.tallies).verdict
    'pass'
    """
    _check_alpha(alpha)
    exact = round_odds(header.profile, header.shoe)
    for t in tallies:
        t.check(header.profile, source)
    seats = tuple(_seat_report(t, exact, alpha) for t in tallies)
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
    odds.tallies.TallyError: input, line 2: player cards: '8h 7s 4d 4d' has 4 cards; ...
    """
    _check_alpha(alpha)
    stripped = text.lstrip()
    first_object = stripped.split("\n", 1)[0]
    tallies: list[Tally] = []
    log: _Log | None = None
    if stripped.startswith("{") and ('"lucky9-log/1"' in first_object
                                     or '"round"' in first_object):
        data, log = _parse_json_log(text.splitlines(), source)
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
            log = _parse_log(rest, skipped + 1, source)
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
    ref = _Reference.of(header.profile)
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
    _check_shoe(log, header.shoe, seats, source)
    audited = _audit(log, ref)
    exact = round_odds(header.profile, header.shoe)
    seat_reports = tuple(_seat_report(t, exact, alpha)
                         for t in _log_tallies(log, audited, seats))
    return Verification(source, "log", header, header_from, len(log.line),
                        tuple(audited.violations), audited.counts, seat_reports, alpha,
                        exact.total)


def verify_file(path: str | Path, rules: RunHeader | None = None,
                alpha: float = 0.01, seats: int | None = None) -> Verification:
    """Verify a tallies file or round log (see :func:`verify_text`).

    >>> verify_file("no-such-file.csv")
    Traceback (most recent call last):
    ...
    odds.tallies.TallyError: file 'no-such-file.csv' does not exist
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TallyError(f"file {str(p)!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TallyError(f"file {str(p)!r} cannot be read: {exc}") from None
    return verify_text(text, str(p), rules, alpha, seats)
