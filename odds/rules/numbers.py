"""Numbers as people type them: one parser for amounts and one for probabilities.

Every number a user gives (a flag, a profile file's string or number, a bet
file) is read here, exactly, as a :class:`~fractions.Fraction`:

* an amount (a stake, a capital, a cap, a payout) is a whole number or a
  decimal with a point, optionally with commas grouping thousands
  (``50,000``, ``1,000,000.5``), a fraction (``3/2``) or odds (``2:1``);
* a probability is written the same way or as a percent (``1%``, ``0.5%``),
  and lies between 0 and 1;
* a number written with ``e`` (``1e-3``, as Python and TOML write a float) is
  read as the decimal it names.

A comma that does not group thousands (``1,5``, ``1,00``, ``1.000,5``) is
refused, never guessed: a decimal comma and a thousands comma look alike.
Every number is bounded (:data:`MAX_NUMBER`, :data:`MAX_PLACES`), so that no
later sum overflows a float or runs for ever: the same bound for a flag and a
file's value.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

from odds.io.textio import MAX_DIGITS, excerpt
from odds.rules.errors import ProfileError

__all__ = [
    "MAX_NUMBER",
    "MAX_PLACES",
    "NumberError",
    "parse_amount",
    "parse_number",
    "parse_probability",
]

MAX_NUMBER = 10**MAX_DIGITS  # the largest amount (a stake of 10^30 is beyond any table)
MAX_PLACES = MAX_DIGITS  # decimal places: 10^-30 is finer than any stake or probability


class NumberError(ProfileError):
    """A number that cannot be read, or one out of bounds: a :class:`ValueError`."""


# A whole number has at most 31 digits (10^30, MAX_NUMBER, has 31), decimal places at
# most 30; the bounds on the value itself are _bounded's.
_DECIMAL = r"[0-9]{1,31}(?:\.[0-9]{0,30})?|\.[0-9]{1,30}"
_GROUPED = r"[0-9]{1,3}(?:,[0-9]{3}){1,10}(?:\.[0-9]{0,30})?"
_EXPONENT = r"[eE][-+]?[0-9]{1,3}"
_NUMBER = re.compile(rf"(?P<sign>[-+]?)(?P<num>{_GROUPED}|{_DECIMAL})(?P<exp>{_EXPONENT})?"
                     rf"(?:\s*/\s*(?P<den>[0-9]{{1,31}}))?")
_ODDS = re.compile(r"([0-9]{1,31})\s*:\s*([0-9]{1,31})")  # "2:1", as the output writes pays
_NUMERAL = re.compile(r"[-+]?[0-9.,]+(?:\s*[/:]\s*[0-9.,]+)?")  # a number's shape, any length
_PERCENT = re.compile(rf"(?P<num>{_GROUPED}|{_DECIMAL})\s*%")

AMOUNT_HINT = "write 2, 1.5, 50,000, 3/2 or 2:1"
PROBABILITY_HINT = "write 0.01, 1%, 1/100 or 1e-2"


def parse_number(raw: Any, name: str, *, percent: bool = False, hint: str = AMOUNT_HINT,
                 fine: bool = False) -> Fraction:
    """The exact number ``raw`` names: the core of :func:`parse_amount` and
    :func:`parse_probability`.

    ``raw`` is a string as typed, or a number as a TOML or JSON file holds it
    (a float is read as the decimal it was written as).  With ``percent``,
    ``1%`` is 1/100.  Refuses what is not a number, an ambiguous comma, and a
    number beyond :data:`MAX_NUMBER` or finer than :data:`MAX_PLACES` places,
    each with a sentence naming ``name`` and saying how to write it (``fine``: any
    number of places, for a caller that bounds the value from below itself).

    >>> parse_number("50,000", "capital"), parse_number(" 3/2 ", "win"), parse_number("2:1", "win")
    (Fraction(50000, 1), Fraction(3, 2), Fraction(2, 1))
    >>> parse_number("1,000,000.5", "capital"), parse_number(1.1, "win"), parse_number("-2", "x")
    (Fraction(2000001, 2), Fraction(11, 10), Fraction(-2, 1))
    >>> parse_number("1,5", "capital")
    Traceback (most recent call last):
    ...
    odds.rules.numbers.NumberError: capital: '1,5' is ambiguous: write 1.5 with a point (a comma only ...
    >>> parse_number("1e308", "stakes")
    Traceback (most recent call last):
    ...
    odds.rules.numbers.NumberError: stakes: '1e308' is too large (at most 10^30)
    >>> parse_number("1/" + "1" + "0" * 30, "p")  # 10^30 has 31 digits: within the bounds
    Fraction(1, 1000000000000000000000000000000)
    """
    if isinstance(raw, bool) or not isinstance(raw, (int, float, Fraction, str)):
        raise NumberError(f"{name}: {excerpt(raw)} is not a number ({hint})")
    if isinstance(raw, float):
        if not math.isfinite(raw):
            raise NumberError(f"{name}: {excerpt(raw)} is not a number ({hint})")
        # TOML and JSON floats are read as the decimal the user wrote, not the binary double.
        return _bounded(_from_text(repr(raw), name, percent, hint), raw, name, fine)
    if isinstance(raw, (int, Fraction)):
        return _bounded(Fraction(raw), raw, name, fine)
    return _bounded(_from_text(raw, name, percent, hint), raw, name, fine)


def _from_text(raw: str, name: str, percent: bool, hint: str) -> Fraction:
    text = raw.strip()
    if odds := _ODDS.fullmatch(text):
        if not int(odds[2]):
            raise NumberError(f"{name}: {excerpt(raw)} divides by zero")
        return Fraction(int(odds[1]), int(odds[2]))
    if percent and (pct := _PERCENT.fullmatch(text)):
        return Fraction(pct["num"].replace(",", "")) / 100
    m = _NUMBER.fullmatch(text)
    if m is None:
        if "," in text and re.fullmatch(r"[-+]?[0-9.,]+", text):
            raise NumberError(
                f"{name}: {excerpt(raw)} is ambiguous: write "
                f"{_decimal_reading(text)} with a point (a comma only groups thousands, as in 50,000)")
        if "%" in text and not percent:
            raise NumberError(f"{name}: {excerpt(raw)} is an amount, not a percent ({hint})")
        if _NUMERAL.fullmatch(text) and max(map(len, re.findall(r"[0-9]+", text)), default=0) > MAX_DIGITS:
            raise NumberError(
                f"{name}: {excerpt(raw)} has too many digits (at most 10^{MAX_DIGITS}, "
                f"and {MAX_PLACES} decimal places)")
        raise NumberError(f"{name}: {excerpt(raw)} is not a number ({hint})")
    value = Fraction(m["num"].replace(",", ""))
    if m["exp"]:
        value *= Fraction(10) ** int(m["exp"][1:])
    if m["den"] is not None:
        if not int(m["den"]):
            raise NumberError(f"{name}: {excerpt(raw)} divides by zero")
        value /= int(m["den"])
    return -value if m["sign"] == "-" else value


def _decimal_reading(text: str) -> str:
    """``1,5`` as a point writes it, for the message: ``1.5`` (``1.000,5``: ``1000.5``)."""
    whole, _, rest = text.rpartition(",")
    return f"{whole.replace('.', '').replace(',', '')}.{rest}".lstrip("+")


def _bounded(value: Fraction, raw: Any, name: str, fine: bool) -> Fraction:
    if abs(value) > MAX_NUMBER:
        raise NumberError(f"{name}: {excerpt(raw)} is too large (at most 10^{MAX_DIGITS})")
    if not fine and value.denominator > 10**MAX_PLACES:
        raise NumberError(f"{name}: {excerpt(raw)} is too fine (at most {MAX_PLACES} decimal places)")
    return value


def parse_amount(raw: Any, name: str) -> Fraction:
    """An amount of money (a stake, a capital, a cap): 0 or more, as typed.

    >>> parse_amount("50,000", "capital"), parse_amount("2.5", "stakes"), parse_amount(7, "capital")
    (Fraction(50000, 1), Fraction(5, 2), Fraction(7, 1))
    >>> parse_amount("-5", "capital")
    Traceback (most recent call last):
    ...
    odds.rules.numbers.NumberError: capital: -5 is negative (give 0 or more)
    """
    value = parse_number(raw, name)
    if value < 0:
        raise NumberError(f"{name}: {_text(value)} is negative (give 0 or more)")
    return value


def parse_probability(raw: Any, name: str, *, low: Fraction | None = None) -> Fraction:
    """A probability strictly between 0 and 1 (a target ruin, a precision, a test's alpha),
    as typed: ``0.01``, ``1%``, ``1/100``, ``1e-2``; ``low`` is the smallest allowed.

    >>> parse_probability("1%", "target ruin"), parse_probability("0.5%", "alpha")
    (Fraction(1, 100), Fraction(1, 200))
    >>> parse_probability("1e-3", "precision"), parse_probability(0.05, "alpha")
    (Fraction(1, 1000), Fraction(1, 20))
    >>> parse_probability("1e-300", "precision", low=Fraction(1, 10**6))
    Traceback (most recent call last):
    ...
    odds.rules.numbers.NumberError: precision: '1e-300' is below 0.000001, the smallest allowed
    >>> parse_probability("150%", "target ruin")
    Traceback (most recent call last):
    ...
    odds.rules.numbers.NumberError: target ruin: '150%' is not between 0 and 1 (write 0.01, 1%, 1/100 or 1e-2)
    """
    value = parse_number(raw, name, percent=True, hint=PROBABILITY_HINT, fine=low is not None)
    if not 0 < value < 1:
        raise NumberError(f"{name}: {excerpt(raw)} is not between 0 and 1 ({PROBABILITY_HINT})")
    if low is not None and value < low:
        raise NumberError(f"{name}: {excerpt(raw)} is below {_decimal(low)}, the smallest allowed")
    return value


def _decimal(value: Fraction) -> str:
    """``value`` as a decimal where it has one of a few places, else as a fraction."""
    text = f"{float(value):.12f}".rstrip("0").rstrip(".")
    return text if Fraction(text) == value else _text(value)


def _text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(value)
