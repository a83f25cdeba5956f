"""Reading untrusted text safely: bounded reads, byte-order marks, nesting, numbers, excerpts.

Every reader of a user's file (profiles, strategies, tallies, logs) and
every parser of a user's option value goes through these primitives, so a
hostile input is refused with one short sentence before it can exhaust
memory, time or the interpreter's stack:

- :func:`read_text` reads at most a given number of bytes (``/dev/zero``
  is refused, not swallowed) and drops a UTF-8 byte-order mark;
  :func:`read_line_blocks` reads a file of any size as blocks of lines, in
  bounded memory, with every line's length bounded;
- :func:`check_nesting` counts JSON or TOML bracket depth *before* a
  recursive parser sees the text; :func:`load_json` does both;
- :func:`whole_number` converts only ASCII digits, and only so many of them;
- :func:`excerpt` quotes at most a few dozen characters of bad input.

It sits in :mod:`odds.rules`, the bottom layer, because every layer reads.
"""

from __future__ import annotations

import codecs
import datetime
import json
import os
import re
import stat
from collections.abc import Generator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

__all__ = [
    "BOM",
    "MAX_LINE",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_MESSAGE",
    "JSON_DECODER",
    "check_lines",
    "check_nesting",
    "check_numbers",
    "excerpt",
    "load_json",
    "decode_text",
    "read_line_blocks",
    "read_text",
    "shorten",
    "strip_bom",
    "whole_number",
]

BOM = "\ufeff"
MAX_DEPTH = 64  # brackets deep: far beyond any profile, strategy or tallies file
MAX_DIGITS = 30  # digits of a whole number: 10^30 is beyond any count or stake
MAX_MESSAGE = 500  # characters of an error message: a few hundred, one line
_EXCERPT = 40
_CHUNK = 1 << 20


def excerpt(value: object, limit: int = _EXCERPT) -> str:
    """``repr`` of ``value``, cut to about ``limit`` characters with its length said.

    >>> excerpt("8h 7s")
    "'8h 7s'"
    >>> excerpt(True), excerpt(datetime.date(1979, 5, 27))
    ('true', '1979-05-27')
    >>> print(excerpt({"a": 1}), excerpt(["player", True, None]))
    {"a": 1} ["player", true, null]
    >>> excerpt("x" * 100_000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' (100,000 characters)"
    """
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit] + '…'!r} ({len(value):,} characters)"
    if isinstance(value, bool):  # as a TOML or JSON file writes it, not as Python does
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (datetime.date, datetime.time)):  # datetime is a date too
        return value.isoformat()
    text = repr(value)
    if isinstance(value, (dict, list, tuple)):  # as JSON writes it, not as Python does
        try:
            text = json.dumps(value, ensure_ascii=False, default=str)
        except (TypeError, ValueError, RecursionError):
            pass
    if len(text) > limit + 2:
        return text[:limit] + "…"
    return text


def shorten(message: str, limit: int = MAX_MESSAGE) -> str:
    """One line of at most ``limit`` characters: the head and tail of ``message``.

    >>> shorten("a\\nb")
    'a b'
    >>> len(shorten("y" * 10_000)) <= 500
    True
    """
    line = " ".join(message.split("\n"))
    if len(line) <= limit:
        return line
    keep = (limit - 5) // 2
    return f"{line[:keep]} ... {line[-keep:]}"


def strip_bom(text: str) -> str:
    """``text`` without its leading UTF-8 byte-order marks (a file saved twice by an
    editor that adds one may carry two).

    >>> strip_bom("\\ufeffround,seat"), strip_bom("\\ufeff\\ufeffround")
    ('round,seat', 'round')
    """
    return text.lstrip(BOM)


def decode_text(raw: bytes, what: str, error: type[ValueError] = ValueError) -> str:
    """Bytes read from a stream as UTF-8 text, byte-order mark dropped; one sentence if not.

    >>> decode_text(b"\\xef\\xbb\\xbf9h Ks", "standard input")
    '9h Ks'
    >>> decode_text(b"9h \\xff", "standard input")
    Traceback (most recent call last):
    ...
    ValueError: standard input is not UTF-8 text (byte 4 is not)
    """
    if b"\x00" in raw:
        raise error(f"{what} is not text (it holds NUL bytes)")
    try:
        return strip_bom(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise error(f"{what} is not UTF-8 text (byte {exc.start + 1:,} is not)") from None


def _open(path: str | Path, what: str, error: type[ValueError]) -> tuple[BinaryIO, str]:
    """A file opened for reading bytes, and its name as errors quote it; one sentence if not.

    >>> _open("/", "file", ValueError)
    Traceback (most recent call last):
    ...
    ValueError: file '/' cannot be read: Is a directory
    """
    name = str(path)
    if not name:
        raise error("no file name was given (an empty path)")
    shown = excerpt(name, 120)
    if "\x00" in name:  # open() would raise a bare ValueError
        raise error(f"{what} {shown} cannot be a file name (it holds a NUL byte)")
    try:
        handle = open(name, "rb")  # noqa: SIM115 - the callers close it
    except FileNotFoundError:
        raise error(f"{what} {shown} does not exist") from None
    except OSError as exc:
        raise error(f"{what} {shown} cannot be read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(os.fstat(handle.fileno()).st_mode):
        handle.close()
        raise error(f"{what} {shown} cannot be read: Is a directory")
    return handle, shown


def _read(handle: BinaryIO, size: int, what: str, shown: str,
          error: type[ValueError]) -> bytes:
    try:
        return handle.read(size)
    except OSError as exc:
        raise error(f"{what} {shown} cannot be read: {exc.strerror or exc}") from None


def read_text(path: str | Path, limit: int, what: str = "file",
              error: type[ValueError] = ValueError) -> str:
    """The text of a UTF-8 file of at most ``limit`` bytes, byte-order mark dropped.

    Reads at most ``limit + 1`` bytes, so a device that never ends
    (``/dev/zero``) or a huge file costs no more; anything that is not
    readable UTF-8 text raises ``error`` with one sentence naming the file.

    >>> read_text("/dev/zero", 1000, "profile file")
    Traceback (most recent call last):
    ...
    ValueError: profile file '/dev/zero' is larger than 1,000 bytes (is it the right file?)
    >>> read_text("", 10)
    Traceback (most recent call last):
    ...
    ValueError: no file name was given (an empty path)
    """
    handle, shown = _open(path, what, error)
    decoder = codecs.getincrementaldecoder("utf-8")()
    parts: list[str] = []
    size = 0
    with handle:
        # Chunk by chunk, so that garbage (/dev/zero, /dev/urandom) fails at
        # its first megabyte and a file over the limit costs no more than it.
        while chunk := _read(handle, min(_CHUNK, limit + 1 - size), what, shown, error):
            size += len(chunk)
            if size > limit:
                raise error(f"{what} {shown} is larger than {limit:,} bytes "
                            "(is it the right file?)")
            if b"\x00" in chunk:
                raise error(f"{what} {shown} is not text (it holds NUL bytes)")
            try:
                parts.append(decoder.decode(chunk))
            except UnicodeDecodeError as exc:
                at = size - len(chunk) + exc.start + 1
                raise error(f"{what} {shown} is not UTF-8 text (byte {at:,} is not)") from None
        try:
            parts.append(decoder.decode(b"", final=True))
        except UnicodeDecodeError:
            raise error(f"{what} {shown} is not UTF-8 text (it ends inside a character)") from None
    return strip_bom("".join(parts))


_BLOCK = 8 << 20  # bytes read at a time by read_line_blocks


def read_line_blocks(path: str | Path, what: str = "file",
                     error: type[ValueError] = ValueError, where: str | None = None,
                     block: int = _BLOCK, start: int = 0, stop: int | None = None,
                     number: int = 1) -> Generator[tuple[int, list[str]], None, None]:
    """The lines of a UTF-8 file of any size, block by block, in bounded memory.

    Yields ``(number of the block's first line, its lines)``; blocks hold
    whole lines of about ``block`` bytes, the byte-order mark dropped.  The
    checks of :func:`read_text` (a missing file, a folder, NUL bytes, bytes
    that are not UTF-8) and of :func:`check_lines` (a line over
    :data:`MAX_LINE` characters) raise ``error`` with one sentence, at the
    block where they fail: a file that never ends costs no more than a block.
    ``where`` names the file in the line errors (default: ``what`` and the name).

    ``start`` and ``stop`` (byte offsets at the start of a line) read a part
    of the file, whose first line is line ``number``: its blocks end where
    the whole file's do (reads keep to the same multiples of ``block``), so
    a part read alone gives the blocks the whole file gives there.

    >>> [(n, lines) for n, lines in read_line_blocks("/dev/null")]
    []
    >>> next(read_line_blocks("/dev/zero", "log"))
    Traceback (most recent call last):
    ...
    ValueError: log '/dev/zero' is not text (it holds NUL bytes)
    """
    handle, shown = _open(path, what, error)
    named = where or f"{what} {shown}"
    with handle:
        offset, rest, first = start, b"", start == 0
        if start:
            handle.seek(start)
        while True:
            size = block - (offset + len(rest)) % block
            if stop is not None:
                size = max(0, min(size, stop - offset - len(rest)))
            chunk = _read(handle, size, what, shown, error) if size else b""
            if b"\x00" in chunk:
                raise error(f"{what} {shown} is not text (it holds NUL bytes)")
            data = rest + chunk
            if not data:
                return
            cut = data.rfind(b"\n") + 1 if chunk else len(data)
            if cut == 0:  # no end of line yet: bounded by the longest line allowed
                if len(data) > 4 * MAX_LINE + 4:
                    raise error(f"{named}, line {number:,}: a line of more than "
                                f"{MAX_LINE:,} characters (the longest a row may be)")
                rest = data
                continue
            try:
                text = data[:cut].decode("utf-8")
            except UnicodeDecodeError as exc:
                if not chunk and exc.end == cut:
                    raise error(f"{what} {shown} is not UTF-8 text (it ends inside a "
                                "character)") from None
                raise error(f"{what} {shown} is not UTF-8 text (byte {offset + exc.start + 1:,} "
                            "is not)") from None
            if first:
                text, first = strip_bom(text), False
            lines = text.splitlines()
            check_lines(lines, named, error, number)
            if lines:
                yield number, lines
            number += len(lines)
            offset += cut
            rest = data[cut:]
            if not chunk:
                return


# Strings (and TOML comments) are skipped; brackets are counted.  TOML's
# multi-line and literal strings come first so that a quote inside them does
# not start a string.
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
_TOML_TOKENS = re.compile(
    r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*'
    r'|[\[\]{}.=,\n]',
    re.DOTALL,
)


def nesting(text: str, toml: bool = False) -> int:
    """The deepest nesting of JSON (or, with ``toml``, TOML) text.

    Brackets inside strings (and TOML comments) do not count; in TOML a
    dotted key (``a.b.c = 1``) nests as deep as it has parts, and parsers
    take time quadratic in that depth, so it counts too.

    >>> nesting('{"a": [[1], "]]]"]}'), nesting("a = [[1]] # [[[[", toml=True)
    (3, 2)
    >>> nesting("a.b.c.d = 1", toml=True)
    3
    """
    depth = deepest = dots = 0
    for m in (_TOML_TOKENS if toml else _JSON_TOKENS).finditer(text):
        tok = m.group()
        if tok in ("[", "{"):
            depth += 1
            dots = 0
        elif tok in ("]", "}"):
            depth -= 1
            dots = 0
        elif tok == ".":
            dots += 1
        elif tok in ("=", ",", "\n"):
            dots = 0
        deepest = max(deepest, depth + dots)
    return deepest


def check_nesting(text: str, where: str, error: type[ValueError] = ValueError,
                  toml: bool = False, limit: int = MAX_DEPTH) -> None:
    """Refuse text nested more than ``limit`` brackets deep, before a parser recurses.

    >>> check_nesting("[" * 100_000, "strategy file 'x.json'")
    Traceback (most recent call last):
    ...
    ValueError: strategy file 'x.json': nested more than 64 levels deep (brackets [ or {)
    """
    if text.count("[") + text.count("{") + (text.count(".") if toml else 0) <= limit:
        return  # cannot be deeper: no need to scan
    if nesting(text, toml) > limit:
        raise error(f"{where}: nested more than {limit} levels deep (brackets [ or {{)")


# More than MAX_DIGITS digits in a row (TOML lets "_" stand between two of them).
_LONG_NUMBER = re.compile(rf"[0-9](?:_?[0-9]){{{MAX_DIGITS},}}")


def check_numbers(text: str, where: str, error: type[ValueError] = ValueError) -> None:
    """Refuse text holding a run of digits far longer than any number it may hold.

    A parser converts numbers as it meets them, and converting a
    10^9-digit number takes minutes: check first.

    >>> check_numbers("colon = 1" + "0" * 5000, "profile file 'x.toml'")
    Traceback (most recent call last):
    ...
    ValueError: profile file 'x.toml': a number of 5,001 digits (at most 30 are meaningful)
    """
    m = _LONG_NUMBER.search(text)
    if m:
        digits = len(m.group().replace("_", ""))
        raise error(f"{where}: a number of {digits:,} digits "
                    f"(at most {MAX_DIGITS} are meaningful)")


MAX_LINE = 100_000  # characters of a line of a tallies file or round log


def check_lines(lines: Sequence[str], where: str, error: type[ValueError] = ValueError,
                first: int = 1, limit: int = MAX_LINE) -> None:
    """Refuse a line longer than ``limit`` characters, naming it, before any parser sees it.

    ``first`` is the number of ``lines[0]`` in the file.  Lengths are taken
    in C (a 10^7-line log in a fraction of a second).

    >>> check_lines(["a", "b" * 200], "log.csv", limit=100)
    Traceback (most recent call last):
    ...
    ValueError: log.csv, line 2: a line of more than 100 characters (the longest a row may be)
    """
    if not lines or max(map(len, lines)) <= limit:
        return
    at = next(i for i, line in enumerate(lines) if len(line) > limit)
    raise error(f"{where}, line {first + at:,}: a line of more than {limit:,} characters "
                "(the longest a row may be)")


def _json_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"the number {excerpt(digits, 20)} has more than {MAX_DIGITS} digits")
    return int(digits)


def _json_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"the number {excerpt(text, 20)} is too large")
    return value


def _json_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number JSON allows")


# JSON with numbers bounded as they are met (checked text first: see load_json).
JSON_DECODER = json.JSONDecoder(parse_int=_json_int, parse_float=_json_float,
                                parse_constant=_json_constant)


def load_json(text: str, where: str, error: type[ValueError] = ValueError,
              line: int | None = None) -> Any:
    """Parse JSON text with nesting and numbers bounded; errors are one sentence.

    ``line`` is the number of the text's first line in its file (for JSON Lines).

    >>> load_json('\\ufeff{"a": [1, 2.5]}', "x.json")
    {'a': [1, 2.5]}
    >>> load_json("[1e400]", "x.json")
    Traceback (most recent call last):
    ...
    ValueError: x.json: the number '1e400' is too large
    >>> load_json("[" + "9" * 50 + "]", "x.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: x.json: a number of 50 digits (at most 30 are meaningful)
    >>> load_json("[" + "9" * 5000 + "]", "x.json")
    Traceback (most recent call last):
    ...
    ValueError: x.json: a number of 5,000 digits (at most 30 are meaningful)
    """
    text = strip_bom(text)
    named = where if line is None else f"{where}, line {line:,}"
    check_nesting(text, named, error)
    check_numbers(text, named, error)
    try:
        return JSON_DECODER.decode(text)
    except json.JSONDecodeError as exc:
        at = exc.lineno + (line or 1) - 1
        raise error(f"{where}, line {at:,}: not valid JSON ({exc.msg})") from None
    except (ValueError, RecursionError) as exc:
        raise error(f"{where}, line {line:,}: {exc}" if line else f"{where}: {exc}") from None


_DIGITS = re.compile(r"[0-9]+")


def whole_number(text: str, what: str, error: type[ValueError] = ValueError,
                 max_digits: int = MAX_DIGITS) -> int:
    """A whole number 0 or more written in ASCII digits, at most ``max_digits`` of them.

    >>> whole_number(" 42 ", "rounds")
    42
    >>> whole_number("²", "rounds")
    Traceback (most recent call last):
    ...
    ValueError: rounds: '²' is not a whole number (digits 0-9)
    >>> whole_number("1" * 5000, "rounds")
    Traceback (most recent call last):
    ...
    ValueError: rounds: a number of 5,000 digits is too large (at most 30 digits)
    """
    digits = text.strip()
    if not _DIGITS.fullmatch(digits):
        raise error(f"{what}: {excerpt(text)} is not a whole number (digits 0-9)")
    if len(digits.lstrip("0")) > max_digits:
        raise error(f"{what}: a number of {len(digits):,} digits is too large "
                    f"(at most {max_digits} digits)")
    return int(digits)
