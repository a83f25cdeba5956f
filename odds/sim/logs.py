"""Reading a round log (CSV or JSON lines) into columns of card codes and numbers.

The first of the verifier's three jobs: parse, with every error naming the
file and line; judging the rows is :mod:`odds.sim.audit`'s, testing the
frequencies :mod:`odds.sim.stats`'.
"""

from __future__ import annotations

import csv
import difflib
import json
import operator
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from odds.io.textio import JSON_DECODER, check_lines, excerpt, load_json
from odds.rules.cards import POINTS, RANKS, Suit, parse_card
from odds.sim.tallies import (
    LOG_COLUMNS,
    PAYOUT,
    TallyError,
)

__all__ = [
]

IntArray = npt.NDArray[np.int64]
OPTIONAL = ("player_final", "bank_final", "shoe")
# A log of one seat may leave out the seat column: every row is seat 1.
REQUIRED = tuple(c for c in LOG_COLUMNS if c != "seat")
KNOWN = (*LOG_COLUMNS, *OPTIONAL)
# How a hand may be written, for the error that refuses one.
HAND_FORMS = ('a hand is read as its cards separated by spaces, commas or semicolons '
              '("9s 6c 10s"), or in JSON Lines as a list (["9s", "6c", "10s"]); a card is '
              'a rank A 2-10 J Q K, with a suit c d h s or without one')
# With a shoe column a round is (shoe, round): round numbers below ROUND_SPAN, shoe
# numbers below MAX_SHOE, so that shoe * ROUND_SPAN + round fits in 63 bits.
ROUND_SPAN = 1 << 32
MAX_SHOE = (1 << 31) - 1

# Result words of other simulators, read as the player hand's outcome (a log's
# result is the seat's: its player hand against the bank).  Case and spaces are
# ignored; "draw" is not among them (in baccarat it means taking a card).
RESULT_WORDS = {
    **dict.fromkeys(("player", "player win", "player wins", "punto", "won"), "win"),
    **dict.fromkeys(("tie", "tied", "tie game", "standoff", "egalite"), "push"),
    **dict.fromkeys(("banker", "bank", "banker win", "banker wins", "bank win", "bank wins",
                     "dealer", "dealer win", "dealer wins", "banco", "lost", "lose"), "loss"),
}

# -- card codes: 0..51 rank*4+suit; 52+rank for a card written without suit ---

# 65+v for a card written as its point value v (``cards: values``): its rank
# stands for the point (10 for 0), and nothing that needs the rank is checked.
VALUE_CODE = 65
_RANK_OF_POINT = [9] + [next(r for r in range(13) if POINTS[r] == v) for v in range(1, 10)]
CODE_RANK = np.array([c // 4 for c in range(52)] + list(range(13)) + _RANK_OF_POINT,
                     dtype=np.int64)
CODE_POINT = np.array([POINTS[r] for r in range(13) for _ in range(4)]
                      + list(POINTS) + list(range(10)), dtype=np.int64)


class NoRows(TallyError):
    """A round log (or the part of it read so far) with no rows; ``header``: its header."""

    def __init__(self, message: str, header: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.header = header or {}


def code_name(code: int) -> str:
    if code >= VALUE_CODE:
        return str(code - VALUE_CODE)
    if code >= 52:
        return RANKS[code - 52].value
    return RANKS[code // 4].value + list(Suit)[code % 4].value


def _card_code(token: str, values: bool = False) -> int:
    if values:
        if len(token) == 1 and token.isdigit():
            return VALUE_CODE + int(token)
        raise ValueError(f"{token!r} is not a point value 0-9 (the file gives cards as values)")
    card = parse_card(token)
    if card.suit is None:
        return 52 + card.rank.index
    return card.rank.index * 4 + card.suit.index


@dataclass
class Log:
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
    shoe: IntArray | None = None  # shoe number; rows in deal order within a shoe
    values: bool = False  # cards given as point values 0-9 (no ranks, no suits)
    # bet:NAME columns: by bet name, (distinct net payouts, each row's index into them)
    bets: dict[str, tuple[list[Fraction], IntArray]] = field(default_factory=dict)
    player_size: IntArray | None = None  # cards written in each hand (2-3 unless broken)
    bank_size: IntArray | None = None
    # Result words read as the player hand's outcome ("banker" -> "loss"), as found.
    result_words: dict[str, str] = field(default_factory=dict)
    # Columns (fields) the verifier does not know, read past: named in a note.
    ignored: tuple[str, ...] = ()

    def key(self) -> IntArray:
        """Each row's round as one number: with a shoe column, the pair (shoe, round).

        Round numbers may start again in every shoe; the shoe then tells the
        rounds apart (:func:`parse_log` bounds both so the pair fits).
        """
        if self.shoe is None:
            return self.round
        key: IntArray = self.shoe * ROUND_SPAN + self.round
        return key

    def head(self, stop: int) -> Log:
        """The first ``stop`` rows (the verifier reads a long log block by block)."""
        def cut(a: IntArray | None) -> IntArray | None:
            return None if a is None else a[:stop]

        return Log(self.line[:stop], self.round[:stop], self.seat[:stop], self.player[:stop],
                   self.bank[:stop], self.results, self.result[:stop], self.payouts,
                   self.payout[:stop], cut(self.player_final), cut(self.bank_final),
                   cut(self.shoe), self.values,
                   {k: (amounts, index[:stop]) for k, (amounts, index) in self.bets.items()},
                   cut(self.player_size), cut(self.bank_size), self.result_words,
                   self.ignored)


def parse_log(lines: list[str], first_line: int, where: str, values: bool = False) -> Log:
    """Parse the rows of a round log, column by column (a 10^6-row log in seconds)."""
    head = next(csv.reader(lines[:1]), None)
    names = [h.strip().lower() for h in head or []]
    _unique_columns(names, f"{where}, line {first_line}")
    missing = [c for c in REQUIRED if c not in names]
    extra = tuple(c for c in names if c not in KNOWN and not _is_bet(c))
    if missing:
        raise TallyError(
            f"{where}, line {first_line}: a round log needs the columns "
            f"{','.join(REQUIRED)} (optional: seat, {','.join(OPTIONAL)}); "
            f"missing {_missing_text(missing, extra)}"
        )
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
        raise NoRows(f"{where}: the round log has no rows")
    fast = _fast_columns(body, names, set(extra))
    if fast is not None:
        return _log_from_columns(fast, line_list, finals, where, "shoe" in names, values,
                                 extra)
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
                   zip(names, zip(*csv.reader(body), strict=True), strict=True)
                   if n not in extra}
    else:
        # One split of the whole text; column k is every width-th field from k.
        flat = joined.split(",")
        columns = {name: flat[k::width] for k, name in enumerate(names) if name not in extra}
    return _log_from_columns(columns, line_list, finals, where, "shoe" in names, values,
                             extra)


def _unique_columns(names: Sequence[str], where: str) -> None:
    """A column named twice would be read as one of the two: refuse it."""
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise TallyError(f"{where}: column {excerpt(twice[0])} is given twice")


def _missing_text(missing: Sequence[str], extra: Sequence[str]) -> str:
    """The missing columns, each with the unknown column probably meant for it."""
    out = []
    for name in missing:
        near = difflib.get_close_matches(name, extra, n=1, cutoff=0.6)
        out.append(f"{name} (is {excerpt(near[0])} meant?)" if near else name)
    return ", ".join(out)


def ignored_note(names: Sequence[str], what: str = "column") -> str:
    """The note naming the columns read past, and the known column each probably means.

    >>> ignored_note(["player_total", "dealer_id"])
    "ignored 2 unknown columns: 'player_total' (did you mean player_final?), 'dealer_id'"
    """
    parts = []
    for name in names:
        near = difflib.get_close_matches(name, KNOWN, n=1, cutoff=0.6)
        shown = excerpt(name) if name else "(one without a name)"
        parts.append(shown + (f" (did you mean {near[0]}?)" if near else ""))
    many = len(names) != 1
    return (f"ignored {len(names)} unknown {what}{'s' if many else ''}: " + ", ".join(parts))


def parse_json_log(lines: list[str], where: str, values: bool | None = None,
                   first_line: int = 1, header_lines: bool = True
                   ) -> tuple[dict[str, Any], Log]:
    """A JSON Lines round log: a header object, then one object per row.

    ``values`` (cards as point values): None to follow the header's ``cards``.
    ``first_line`` is the number of ``lines[0]`` in the file; a block from the
    middle of a file (``header_lines=False``) has rows only.
    """
    check_lines(lines, where, TallyError, first_line)
    header: dict[str, Any] = {}
    rows: list[dict[str, Any]] = []
    numbers: list[int] = []
    decode = JSON_DECODER.raw_decode
    known: set[tuple[str, ...]] = set()  # the field lists already checked
    for number, line in enumerate(lines, start=first_line):
        text = line.strip()
        if not text:
            continue
        try:  # one decoder for every line; anything odd goes to load_json, which names it
            obj, end = decode(text)
            if end != len(text):
                raise ValueError("extra data")
        except (ValueError, RecursionError):
            obj = load_json(line, where, TallyError, number)
        if not isinstance(obj, dict):
            raise TallyError(f"{where}, line {number}: each line must be a JSON object")
        if "round" not in obj and not rows and header_lines:
            header.update(obj)
            continue
        fields = tuple(obj)
        if fields not in known:
            missing = [c for c in REQUIRED if c not in obj]
            if missing:
                unknown = [c for c in obj if c not in KNOWN and not _is_bet(c)]
                raise TallyError(f"{where}, line {number}: a row needs "
                                 f"{_missing_text(missing, unknown)}")
            known.add(fields)
        rows.append(obj)
        numbers.append(number)
    if not rows:
        raise NoRows(f"{where}: the round log has no rows", header)
    finals = all("player_final" in f and "bank_final" in f for f in known)
    shoes = all("shoe" in f for f in known)
    seated = all("seat" in f for f in known)
    if not seated and any("seat" in f for f in known):
        lacking = [n for r, n in zip(rows, numbers, strict=True) if "seat" not in r]
        raise TallyError(f"{where}, line {lacking[0]}: a row needs seat (other rows give it)")
    bets = sorted({c for f in known for c in f if _is_bet(c)})
    extra = tuple(sorted({c for f in known for c in f if c not in KNOWN and not _is_bet(c)}))
    for name in bets:
        if all(name in f for f in known):
            continue
        lacking = [n for r, n in zip(rows, numbers, strict=True) if name not in r]
        raise TallyError(f"{where}, line {lacking[0]}: a row needs {name} (other rows "
                         "give it)")
    names = ([c for c in LOG_COLUMNS if seated or c != "seat"]
             + (["player_final", "bank_final"] if finals else [])
             + (["shoe"] if shoes else []) + bets)
    columns: dict[str, Sequence[str]] = {}
    for name in names:
        cells = [r[name] for r in rows]
        if name in ("player", "bank"):
            cells = [_hand_text(c) if isinstance(c, list) else c for c in cells]
        amount = name == "payout" or _is_bet(name)
        if not set(map(type, cells)) <= ({str, int, float} if amount else {str, int}):
            _bad_cell(cells, numbers, name, where)
        columns[name] = list(map(str, cells))
    if values is None:
        values = header.get("cards") == "values"
    return header, _log_from_columns(columns, numbers, finals, where, shoes, values, extra)


def _hand_text(cards: list[Any]) -> Any:
    """A hand given as a JSON list of cards, as text; a list of anything else as it is."""
    if all(isinstance(c, (str, int)) and not isinstance(c, bool) for c in cards):
        return " ".join(map(str, cards))
    return cards


def _bad_cell(cells: list[Any], numbers: list[int], name: str, where: str) -> None:
    """Name the first row whose ``name`` is not a number (or hand) of the right kind."""
    for value, number in zip(cells, numbers, strict=True):
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            if name in ("player", "bank"):
                shown = json.dumps(value, default=str)
                shown = shown if len(shown) <= 60 else shown[:57] + "..."
                raise TallyError(f"{where}, line {number}: {name} {shown} is not a hand: "
                                 f"{HAND_FORMS}")
            raise TallyError(f"{where}, line {number}: {name} {excerpt(value)} is not a number")
        if isinstance(value, float) and name != "payout" and not _is_bet(name):
            raise TallyError(f"{where}, line {number}: {name} {excerpt(value)} is not a whole number")


class _Factor(NamedTuple):
    """A text column factorised: its distinct values and each row's index into them."""

    values: list[str]
    codes: IntArray


Column = Sequence[str] | _Factor | IntArray


def _fast_columns(body: list[str], names: list[str],
                  skip: set[str] | frozenset[str] = frozenset()) -> dict[str, Column] | None:
    """Split a plain CSV body with numpy on its bytes; None where the slow path must look.

    Each field becomes a fixed-width byte row; text columns are returned as
    (distinct values, code per row), whole-number columns as integers.  Lines
    with quotes, wrong field counts, odd whitespace or non-digits in a number
    go to the line-by-line parser, which names the line and the fault.
    Columns in ``skip`` (unknown ones) are split off and not read.
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
        if name in skip:
            continue
        lo = starts if k == 0 else cut[:, k - 1] + 1
        hi = ends if k == width - 1 else cut[:, k]
        length = hi - lo
        size = int(length.max()) if len(length) else 0
        if size == 0 or size > 48:
            return None
        wide = -(-size // 8) * 8
        block = windows[lo, :wide].copy()  # the field's bytes, then the next ones
        block *= np.arange(wide, dtype=np.int64)[None, :] < length[:, None]  # zero the rest
        if name in ("round", "seat", "player_final", "bank_final", "shoe"):
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
                      where: str, shoes: bool = False, values: bool = False,
                      ignored: Sequence[str] = ()) -> Log:
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
    sizes = {}
    for who in ("player", "bank"):
        texts, codes = distinct(columns[who])
        table = np.empty((len(texts), 3), dtype=np.int64)
        size = np.empty(len(texts), dtype=np.int64)
        for k, text in enumerate(texts):
            try:
                cards = _hand(text, tokens, values)
            except ValueError as exc:
                i = int(np.flatnonzero(codes == k)[0])
                raise TallyError(f"{where}, line {line_list[i]}: {who} cards: {exc}; "
                                 f"{HAND_FORMS}") from None
            # A hand of the wrong size is the simulator's rule break, not bad input:
            # the audit reports it; the first three cards stand in for the rest.
            size[k] = len(cards)
            padded = (cards + [-1, -1, -1])[:3]
            if len(cards) < 2:
                padded = [cards[0] if cards else 0] * 2 + [-1]
            table[k] = padded
        hands[who] = table[codes]
        sizes[who] = size[codes]
    results, result = distinct(columns["result"])
    stripped = [r.strip().lower() for r in results]
    if stripped != results:  # merge results that differ only by spaces or case
        merged = sorted(set(stripped))
        result = np.array([merged.index(r) for r in stripped], dtype=np.int64)[result]
        results = merged
    words = {r: RESULT_WORDS[r] for r in results if r in RESULT_WORDS}
    if words:  # "Banker" and "loss" are one result
        plain = [words.get(r, r) for r in results]
        merged = sorted(set(plain))
        result = np.array([merged.index(r) for r in plain], dtype=np.int64)[result]
        results = merged
    def amounts(column: Column, what: str) -> tuple[list[Fraction], IntArray]:
        pay_texts, pay_codes = distinct(column)
        found: list[Fraction] = []
        remap = np.empty(len(pay_texts), dtype=np.int64)
        for k, text in enumerate(pay_texts):
            try:
                amount = _payout(text)
            except ValueError as exc:
                i = int(np.flatnonzero(pay_codes == k)[0])
                raise TallyError(f"{where}, line {line_list[i]}: {what}{exc}") from None
            if amount not in found:
                found.append(amount)
            remap[k] = found.index(amount)
        return found, remap[pay_codes]

    payouts, payout_index = amounts(columns["payout"], "")
    bets = {name[4:]: amounts(column, f"{name}: ")
            for name, column in columns.items() if _is_bet(name)}
    rounds = _integers(columns["round"], lines_arr, "round", where, 1)
    shoe = _integers(columns["shoe"], lines_arr, "shoe", where, 0) if shoes else None
    if shoe is not None:
        _check_span(rounds, shoe, lines_arr, where)
    if "seat" in columns:
        seat = _integers(columns["seat"], lines_arr, "seat", where, 1)
    else:  # one seat: every row is seat 1, and a round is one row
        seat = np.ones(len(lines_arr), dtype=np.int64)
        key = rounds if shoe is None else shoe * ROUND_SPAN + rounds
        again = np.flatnonzero(key[1:] == key[:-1])
        if again.size:
            i = int(again[0]) + 1
            raise TallyError(
                f"{where}, line {line_list[i]}: round {rounds[i]} again (also line "
                f"{line_list[i - 1]}), but the log has no seat column, so every row is seat 1: "
                "a log of several seats needs a seat column (1, 2, ...)")
    return Log(
        line=lines_arr,
        round=rounds,
        seat=seat,
        player=hands["player"],
        bank=hands["bank"],
        results=results,
        result=result,
        payouts=payouts,
        payout=payout_index,
        player_final=(_integers(columns["player_final"], lines_arr, "player_final", where, 0)
                      if finals else None),
        bank_final=(_integers(columns["bank_final"], lines_arr, "bank_final", where, 0)
                    if finals else None),
        shoe=shoe,
        values=values,
        bets=bets,
        player_size=sizes["player"],
        bank_size=sizes["bank"],
        result_words=words,
        ignored=tuple(ignored),
    )


def _check_span(rounds: IntArray, shoe: IntArray, lines: IntArray, where: str) -> None:
    """With a shoe column, round and shoe numbers small enough to make one key."""
    for values, bound, what in ((rounds, ROUND_SPAN - 1, "round"), (shoe, MAX_SHOE, "shoe")):
        big = np.flatnonzero(values > bound)
        if big.size:
            i = int(big[0])
            raise TallyError(f"{where}, line {lines[i]}: {what} {values[i]} is more than "
                             f"{bound:,}, the most a log with a shoe column may number")


def _is_bet(name: str) -> bool:
    """A ``bet:NAME`` column: that bet's net payout per unit stake."""
    return name.startswith("bet:") and len(name) > 4


_LIST_MARKS = str.maketrans("[]'\"", "    ")


def _hand(text: str, tokens: dict[str, int], values: bool = False) -> list[int]:
    """Card codes of a hand written ``8h 7s 4d`` (any number: the audit judges the size)."""
    codes = []
    if "[" in text or "'" in text or '"' in text:  # a list as Python or JSON prints it
        text = text.translate(_LIST_MARKS)
    for token in text.replace(";", " ").replace(",", " ").split():
        code = tokens.get(token)
        if code is None:
            code = tokens[token] = _card_code(token, values)
        codes.append(code)
    return codes


def _payout(text: str) -> Fraction:
    raw = text.strip()
    try:
        if not PAYOUT.fullmatch(raw):  # bounded before converting: no 1e999999999
            raise ValueError
        return Fraction(raw)
    except (ValueError, ZeroDivisionError):
        raise ValueError(
            f"payout {excerpt(raw)} is not a number (write 1, -1, 0, 1.5 or 3/2)"
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
    parsed: IntArray | None
    try:
        parsed = np.array(list(map(int, texts)), dtype=np.int64)
    except (ValueError, OverflowError):
        parsed = None
    if parsed is None or any(not t.isascii() for t in texts):  # int() takes '٣' too
        for i, t in enumerate(texts):
            if not re.fullmatch(r"\s*-?[0-9]{1,18}\s*", t):
                raise TallyError(
                    f"{where}, line {lines[i]}: {what} {excerpt(t)} is not a whole number"
                ) from None
    assert parsed is not None
    values = parsed
    bad = np.flatnonzero(values < low)
    if bad.size:
        i = int(bad[0])
        raise TallyError(f"{where}, line {lines[i]}: {what} {texts[i]!r} is less than {low}")
    return values
