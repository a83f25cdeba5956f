"""The option table: every option of a profile, its parser and how it is shown.

One table (:data:`OPTIONS`) drives parsing, validation of single values, CLI
flags and report headers; the parsers take what a user typed or a TOML file
holds and return the value a :class:`~odds.rules.profile.Profile` keeps, or
raise :class:`~odds.rules.errors.ProfileError` with a sentence naming the
option.  The session's options (:mod:`odds.rules.session_options`) reuse the
number parsers.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from odds.io.textio import excerpt, whole_number
from odds.rules.errors import ProfileError
from odds.rules.numbers import parse_number
from odds.rules.rule_types import (
    VALUES,
    BonusOn,
    ColonMatch,
    DrawRule,
    Naturals,
    spans,
)

__all__ = [
    "INFORMATION_OPTIONS",
    "OPTIONS",
    "OPTIONS_BY_NAME",
    "MissingRow",
    "Option",
    "fraction_show",
    "fraction_text",
    "parse_bool",
    "parse_enum",
    "parse_rational",
    "parse_sees",
]


@dataclass(frozen=True)
class Option:
    """One profile option: its name (TOML key; CLI flag with dashes), help, codec."""

    name: str
    attr: str
    help: str
    parse: Callable[[Any, str], Any]
    show: Callable[[Any], Any]
    text: Callable[[Any], str]
    choices: tuple[str, ...] = ()
    cli: bool = True


def parse_enum(cls: type[enum.Enum]) -> Callable[[Any, str], Any]:
    """A parser for an enum option: a member, or its value in any case.

    >>> parse_enum(Naturals)(" Compare", "naturals")
    <Naturals.COMPARE: 'compare'>
    """

    def parse(raw: Any, name: str) -> Any:
        if isinstance(raw, cls):
            return raw
        for member in cls:
            if str(raw).strip().lower() == member.value:
                return member
        choices = ", ".join(m.value for m in cls)
        raise ProfileError(f"{name}: {excerpt(raw)} is not one of {choices}")

    return parse


def parse_bool(raw: Any, name: str) -> bool:
    """An on/off option: a bool, or on/off, true/false, yes/no, 1/0 in any case.

    >>> parse_bool("Off", "bank_bonus"), parse_bool(True, "bank_bonus")
    (False, True)
    """
    if isinstance(raw, bool):
        return raw
    word = str(raw).strip().lower()
    if word in {"on", "true", "yes", "1"}:
        return True
    if word in {"off", "false", "no", "0"}:
        return False
    raise ProfileError(f"{name}: {excerpt(raw)} is not on or off")


def parse_rational(raw: Any, name: str) -> Fraction:
    """A payout of 0 or more, exact: ``2``, ``1.5``, ``3/2`` or ``2:1``
    (read by :func:`odds.rules.numbers.parse_number`).

    >>> parse_rational("3/2", "colon"), parse_rational("2:1", "colon"), parse_rational(1.1, "win")
    (Fraction(3, 2), Fraction(2, 1), Fraction(11, 10))
    """
    value = parse_number(raw, name)
    if value < 0:
        raise ProfileError(
            f"{name}: {fraction_text(value)} is negative "
            "(a payout must be 0 or more, or 'none')"
        )
    return value


def _optional_rational(raw: Any, name: str) -> Fraction | None:
    if raw is None or (isinstance(raw, str) and raw.strip().lower() in {"none", "off"}):
        return None
    return parse_rational(raw, name)


def _values(raw: Any, name: str) -> frozenset[int]:
    """Two-card values from a list, ``0-5``, ``0,1,2`` or ``none``."""
    if isinstance(raw, str):
        text = raw.strip().lower()
        if text in {"none", ""}:
            return frozenset()
        items: list[Any] = []
        for part in re.split(r"[\s,]+", text):
            m = re.fullmatch(r"(\d)-(\d)", part)
            if m:
                if int(m[1]) > int(m[2]):
                    raise ProfileError(f"{name}: range {excerpt(part)} runs backwards (write {m[2]}-{m[1]})")
                items.extend(range(int(m[1]), int(m[2]) + 1))
            else:
                items.append(part)
    elif isinstance(raw, (list, tuple, set, frozenset)):
        items = list(raw)
    else:
        raise ProfileError(f"{name}: {excerpt(raw)} is not a list of values 0-9")
    out = set()
    for item in items:
        if isinstance(item, bool) or not (
            isinstance(item, int) or (isinstance(item, str) and re.fullmatch(r"[0-9]{1,3}", item))
        ):
            raise ProfileError(f"{name}: {excerpt(item)} is not a hand value 0-9")
        v = int(item)
        if v not in VALUES:
            raise ProfileError(f"{name}: {v} is not a hand value 0-9")
        out.add(v)
    return frozenset(out)


def _draw_rule(raw: Any, name: str) -> DrawRule | None:
    """A draw rule: values that draw, ``choice``, or a table with a tableau."""
    if raw is None or isinstance(raw, DrawRule):
        return raw
    if isinstance(raw, str) and raw.strip().lower() == "choice":
        return None
    if isinstance(raw, Mapping):
        unknown = set(raw) - {"draws", "tableau", "choose", "open"}
        if unknown:
            raise ProfileError(
                f"{name}: unknown key {sorted(unknown)[0]!r} "
                "(a draw rule has draws, tableau, choose and open)"
            )
        if "draws" not in raw:
            raise ProfileError(f"{name}: a draw rule needs 'draws' (the values that draw)")
        draws = _values(raw["draws"], f"{name}.draws")
        choose = _values(raw.get("choose", "none"), f"{name}.choose")
        if draws & choose:
            raise ProfileError(f"{name}: {min(draws & choose)} is both in draws and in choose "
                               "(a value either draws or is chosen)")
        open_cells = _open_cells(raw.get("open", {}), f"{name}.open")
        table = raw.get("tableau")
        if open_cells and table is None:
            raise ProfileError(f"{name}.open: open cells after a third card need a tableau")
        if table is None:
            return DrawRule(draws, choose=choose)
        if not isinstance(table, Mapping):
            raise ProfileError(f"{name}.tableau: give one entry per own value, e.g. 3 = [0, 1, 2]")
        rows: dict[int, frozenset[int]] = {}
        for key, row in table.items():
            if not re.fullmatch(r"[0-9]{1,3}", str(key)) or int(key) not in VALUES:
                raise ProfileError(f"{name}.tableau: {excerpt(key)} is not a hand value 0-9")
            if int(key) in rows:
                raise ProfileError(f"{name}.tableau: own value {int(key)} is given twice")
            if isinstance(row, str) and row.strip().lower() in {"all", "always"}:
                rows[int(key)] = frozenset(VALUES)
            else:
                rows[int(key)] = _values(row, f"{name}.tableau.{key}")
        # Rows left out are marked, so that validation (which knows the
        # naturals) can name a non-natural value the rule leaves undefined.
        return DrawRule(draws, tuple(rows[v] if v in rows else MissingRow() for v in VALUES),
                        choose=choose, open=open_cells)
    return DrawRule(_values(raw, name))


def _open_cells(raw: Any, name: str) -> frozenset[tuple[int, int]]:
    """A rule's open cells: own value -> the other's third-card values where it chooses."""
    if not isinstance(raw, Mapping):
        raise ProfileError(f"{name}: give one entry per own value, e.g. 5 = [4]")
    cells: set[tuple[int, int]] = set()
    for key, row in raw.items():
        if not re.fullmatch(r"[0-9]{1,3}", str(key)) or int(key) not in VALUES:
            raise ProfileError(f"{name}: {excerpt(key)} is not a hand value 0-9")
        cells.update((int(key), x) for x in _values(row, f"{name}.{key}"))
    return frozenset(cells)


# What each side sees when it chooses (profile fields outside the table: shown only where set).
INFORMATION_OPTIONS = ("player_sees", "bank_sees", "bank_sees_third")


def parse_sees(raw: Any, name: str) -> str | None:
    """What a side sees of its own hand when it chooses: ``total``, ``cards`` or None."""
    if raw is None or str(raw).strip().lower() == "none":
        return None
    word = str(raw).strip().lower()
    if word not in ("total", "cards"):
        raise ProfileError(f"{name}: {excerpt(raw)} is not total or cards "
                           "(what a side sees of its own hand when it chooses)")
    return word


class MissingRow(frozenset[int]):
    """Marks a tableau row the user left out, so validation can name it."""


def fraction_text(value: Fraction | None) -> str:
    """An amount as written in a profile: ``2``, ``3/2``, or ``none``."""
    if value is None:
        return "none"
    return str(value.numerator) if value.denominator == 1 else f"{value}"


def _show_rule(rule: DrawRule | None) -> Any:
    return "choice" if rule is None else rule.as_data()


def _text_rule(who: str) -> Callable[[DrawRule | None], str]:
    def text(rule: DrawRule | None) -> str:
        return f"chosen by the {who} (a game: see lucky9 solve)" if rule is None else rule.describe()

    return text


def _pay_text(value: Fraction | None) -> str:
    if value is None:
        return "none"
    return f"{value.numerator}:{value.denominator}"


def fraction_show(value: Fraction | None) -> str | None:
    """An amount as JSON data: its :func:`fraction_text`, or None."""
    return None if value is None else fraction_text(value)


def _decks(raw: Any, name: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, (int, str)):
        raise ProfileError(f"{name}: {excerpt(raw)} is not a whole number of packs")
    value = raw if isinstance(raw, int) else whole_number(raw, name, ProfileError)
    if value < 1:
        raise ProfileError(f"{name}: a shoe needs at least 1 pack, not {value}")
    return value


# What a seat that ties is paid per unit (the Profile's ``ties``), by the word the option takes.
_TIES = {"push": Fraction(0), "bank": Fraction(-1)}


def _ties(raw: Any, name: str) -> Fraction:
    word = str(raw).strip().lower()
    if word not in _TIES:
        raise ProfileError(f"{name}: {excerpt(raw)} is not push or bank (push: a tie returns "
                           "the seat's stake; bank: the bank wins ties)")
    return _TIES[word]


def _ties_show(value: Fraction) -> str:
    words = {v: k for k, v in _TIES.items()}
    return words.get(value, fraction_text(value))


OPTIONS: tuple[Option, ...] = (
    Option("decks", "decks", "default number of 52-card packs in the shoe",
           lambda raw, n: _decks(raw, n), lambda v: v, str),
    Option("naturals", "naturals_rule",
           "outright: a natural beats any non-natural; compare: final values only",
           parse_enum(Naturals), lambda v: v.value, lambda v: v.value,
           choices=tuple(m.value for m in Naturals)),
    Option("natural_values", "naturals", "two-card values that are naturals (e.g. 8,9)",
           _values, lambda v: sorted(v), lambda v: spans(v)),
    Option("naturals_stop_draws", "naturals_stop_draws",
           "on: when either hand is a natural nobody draws (baccarat, family)",
           parse_bool, lambda v: v, lambda v: "on" if v else "off"),
    Option("player_draw", "player_draw",
           "two-card values on which a player draws (e.g. 0-5), or 'choice'",
           _draw_rule, _show_rule, _text_rule("player")),
    Option("bank_draw", "bank_draw",
           "two-card values on which the bank draws (e.g. 0-5), or 'choice'; "
           "a tableau only in a profile file",
           _draw_rule, _show_rule, _text_rule("bank")),
    Option("colon_match", "colon_match",
           "rank: 5-5, K-K are pairs; value: 10-K is a pair of zeros too",
           parse_enum(ColonMatch), lambda v: v.value, lambda v: v.value,
           choices=tuple(m.value for m in ColonMatch)),
    Option("colon", "colon", "multiplier paid on a player Colon, or 'none'",
           _optional_rational, fraction_show, _pay_text),
    Option("colon_nine", "colon_nine", "multiplier paid on a player Colon nine, or 'none'",
           _optional_rational, fraction_show, _pay_text),
    Option("bonus_on", "bonus_on",
           "win: a Colon is paid its multiplier when it wins; always: whatever the comparison",
           parse_enum(BonusOn), lambda v: v.value, lambda v: v.value,
           choices=tuple(m.value for m in BonusOn)),
    Option("bank_bonus", "bank_bonus",
           "on: a bank Colon that beats a player collects its multiplier",
           parse_bool, lambda v: v, lambda v: "on" if v else "off"),
    Option("bank_colon", "bank_colon",
           "what a bank Colon collects with bank_bonus ('none': the colon multiplier)",
           _optional_rational, fraction_show, _pay_text),
    Option("bank_colon_nine", "bank_colon_nine",
           "what a bank Colon nine collects with bank_bonus ('none': colon_nine)",
           _optional_rational, fraction_show, _pay_text),
    Option("win", "win", "what an ordinary win pays per unit stake",
           parse_rational, fraction_text, _pay_text),
    Option("ties", "ties",
           "push: a seat that ties has its stake returned; bank: the bank wins ties, a seat "
           "that ties loses its stake",
           _ties, _ties_show, _ties_show, choices=tuple(_TIES)),
    Option("banker_pays", "banker_pays",
           "punto-banco: what a bet on the banker wins (19/20 is 5% commission), or 'none'",
           _optional_rational, fraction_show, _pay_text),
    Option("tie_pays", "tie_pays", "punto-banco: what a bet on a tie wins, or 'none'",
           _optional_rational, fraction_show, _pay_text),
)
OPTIONS_BY_NAME = {opt.name: opt for opt in OPTIONS}
"""Each option of :data:`OPTIONS` by its name."""
