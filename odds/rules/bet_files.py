"""Bets from data: the ``[bet.NAME]`` tables of a profile file, and their checks.

:func:`bet_from_data` reads one table (side, description, ``[[pay]]``
entries of events and amounts), :func:`condition_from_data` one entry's
events; every error names the file, the bet and the key.  :func:`check_bet`
refuses a bet whose events a profile can never produce.  The built-in
library (:mod:`odds.rules.bet_library`) is written with the same parser, so
a built-in bet and a user's are read and checked one way.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from odds.io.textio import excerpt
from odds.rules.bet_types import PAIR_KINDS, RANK_NAMES, WINNERS, Bet, Condition, Entry
from odds.rules.cards import RANKS
from odds.rules.errors import BetError, ProfileError
from odds.rules.numbers import parse_number
from odds.rules.profile import Profile
from odds.rules.rule_types import VALUES

__all__ = [
    "SIDES",
    "bet_from_data",
    "bets_from_data",
    "check_bet",
    "condition_from_data",
]

_CONDITION_KEYS = tuple(Condition.__dataclass_fields__)
_ENTRY_KEYS = {"pays", "label"}
_BET_KEYS = {"description", "side", "pay", "otherwise"}
SIDES = ("player", "banker", "tie", "either", "both")


def _key(name: str) -> str:
    return re.sub(r"^bank_", "banker_", name.replace("-", "_"))


def _amount(raw: Any, where: str) -> Fraction:
    """A bet's amount (may be negative), read by :func:`odds.rules.numbers.parse_number`,
    bounded as every number is (a pays of 1e308 is refused, as in a flag)."""
    try:
        return parse_number(raw, where, hint="write 11, 1.5, 3/2 or -1")
    except ProfileError as exc:
        raise BetError(str(exc)) from None


def _ints(raw: Any, where: str, allowed: range) -> frozenset[int]:
    items = raw if isinstance(raw, (list, tuple)) else [raw]
    out: set[int] = set()
    for item in items:
        if isinstance(item, bool) or not isinstance(item, int):
            if isinstance(item, str) and re.fullmatch(r"\d-\d", item.strip()):
                lo, hi = (int(x) for x in item.strip().split("-"))
                out.update(range(lo, hi + 1))
                continue
            raise BetError(f"{where}: {excerpt(item)} is not a whole number")
        if item not in allowed:
            raise BetError(
                f"{where}: {item} is impossible (it runs {allowed.start}-{allowed.stop - 1})"
            )
        out.add(item)
    if not out:
        raise BetError(f"{where}: the list is empty, so the entry can never pay")
    bad = sorted(out - set(allowed))
    if bad:
        raise BetError(f"{where}: {bad[0]} is impossible (it runs {allowed.start}-{allowed.stop - 1})")
    return frozenset(out)


def condition_from_data(data: Mapping[str, Any], where: str) -> Condition:
    """A :class:`Condition` from a TOML/JSON table; errors name ``where`` and the key.

    >>> condition_from_data({"winner": "banker", "banker_cards": 3}, "test").banker_cards
    3
    >>> condition_from_data({"player_final": 10}, "test")
    Traceback (most recent call last):
    ...
    odds.rules.errors.BetError: test.player_final: 10 is impossible (it runs 0-9)
    """
    values: dict[str, Any] = {}
    spelled: dict[str, str] = {}
    for raw_key, raw in data.items():
        key = _key(str(raw_key))
        here = f"{where}.{raw_key}"
        if key in spelled:
            raise BetError(f"{where}: {spelled[key]!r} and {raw_key!r} are the same event; "
                           "give it once")
        spelled[key] = str(raw_key)
        if key not in _CONDITION_KEYS:
            raise BetError(
                f"{where}: unknown event {raw_key!r} (events: {', '.join(_CONDITION_KEYS)})"
            )
        if key == "winner":
            word = str(raw).strip().lower()
            word = {"bank": "banker", "push": "tie"}.get(word, word)
            if word not in WINNERS:
                raise BetError(f"{here}: {excerpt(raw)} is not one of player, banker, tie")
            values[key] = word
        elif key.endswith("_natural"):
            values[key] = raw if isinstance(raw, bool) else _ints(raw, here, VALUES)
        elif key.endswith("_final"):
            values[key] = _ints(raw, here, VALUES)
        elif key == "margin":
            values[key] = _ints(raw, here, VALUES)
        elif key.endswith("_cards"):
            if isinstance(raw, bool) or raw not in (2, 3):
                raise BetError(f"{here}: {excerpt(raw)} is impossible (a hand ends with 2 or 3 cards)")
            values[key] = raw
        else:
            word = str(raw).strip()
            lowered = word.lower()
            if isinstance(raw, bool):
                lowered = "rank" if raw else "none"
            if lowered in PAIR_KINDS:
                values[key] = lowered
            elif word.upper() in RANK_NAMES:
                values[key] = RANKS[RANK_NAMES[word.upper()]].value
            else:
                raise BetError(
                    f"{here}: {excerpt(raw)} is not a pair kind ({', '.join(PAIR_KINDS)}, "
                    "or a rank A 2..9 10 J Q K)"
                )
    condition = Condition(**values)
    _check_condition(condition, where)
    return condition


def _check_condition(c: Condition, where: str) -> None:
    """Refuse conditions that no round can meet, whatever the rules."""
    if c.winner == "tie" and c.margin is not None and 0 not in c.margin:
        raise BetError(f"{where}: winner tie with a margin above 0 is impossible")
    if c.winner in ("player", "banker") and c.margin == frozenset({0}):
        raise BetError(f"{where}: a {c.winner} win by a margin of 0 is impossible")
    for side in ("player", "banker"):
        natural = getattr(c, f"{side}_natural")
        if natural not in (None, False) and getattr(c, f"{side}_cards") == 3:
            raise BetError(f"{where}: a {side} natural with 3 cards is impossible "
                           "(a natural never draws)")


def bet_from_data(name: str, data: Mapping[str, Any], source: str) -> Bet:
    """A :class:`Bet` from a profile file's ``[bet.NAME]`` table.

    >>> bet = bet_from_data("big-tiger", {"side": "banker", "pay": [
    ...     {"winner": "banker", "banker_final": 6, "banker_cards": 3, "pays": 50}]}, "x.toml")
    >>> bet.entries[0].pays, bet.otherwise
    (Fraction(50, 1), Fraction(-1, 1))
    """
    where = f"in {source}: bet.{name}"
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", name):
        raise BetError(f"{where}: {name!r} is not a bet name (lower-case letters, digits, -)")
    if name == "all":
        raise BetError(f"{where}: 'all' is not a bet name (it stands for every bet of a profile)")
    if not isinstance(data, Mapping):
        raise BetError(f"{where}: a bet is a table with side, description and pay entries")
    unknown = sorted(set(data) - _BET_KEYS)
    if unknown:
        raise BetError(
            f"{where}: unknown key {unknown[0]!r} (a bet has {', '.join(sorted(_BET_KEYS))})"
        )
    side = str(data.get("side", "player")).strip().lower()
    side = {"bank": "banker"}.get(side, side)
    if side not in SIDES:
        raise BetError(f"{where}.side: {excerpt(data.get('side'))} is not one of {', '.join(SIDES)}")
    description = data.get("description", f"{name} (from {source})")
    if not isinstance(description, str):
        raise BetError(f"{where}.description: give a string")
    pay = data.get("pay")
    if not isinstance(pay, list) or not pay:
        raise BetError(f"{where}: give at least one [[bet.{name}.pay]] entry (events and pays)")
    entries = []
    for i, raw in enumerate(pay, start=1):
        here = f"{where}.pay[{i}]"
        if not isinstance(raw, Mapping):
            raise BetError(f"{here}: a pay entry is a table of events and pays")
        if "pays" not in raw:
            raise BetError(f"{here}: no 'pays' (the net result per unit stake, e.g. 11 or 0)")
        events = {k: v for k, v in raw.items() if k not in _ENTRY_KEYS}
        label = raw.get("label", "")
        if not isinstance(label, str):
            raise BetError(f"{here}.label: give a string")
        entries.append(Entry(condition_from_data(events, here), _amount(raw["pays"], f"{here}.pays"),
                             label))
    otherwise = _amount(data.get("otherwise", -1), f"{where}.otherwise")
    return Bet(name, description, side, tuple(entries), otherwise, source=source)


def bets_from_data(data: Mapping[str, Any], source: str) -> tuple[Bet, ...]:
    """Every ``[bet.NAME]`` table of a profile file, as bets."""
    if not isinstance(data, Mapping):
        raise BetError(f"in {source}: 'bet' must be tables [bet.NAME]")
    return tuple(bet_from_data(str(name), table, source) for name, table in data.items())


def check_bet(bet: Bet, profile: Profile) -> None:
    """Refuse a bet whose events the profile can never produce (e.g. a natural 7).

    >>> from odds.rules.bet_library import BETS
    >>> from odds.rules.profiles import BUILTIN
    >>> check_bet(BETS["dragon-7"], BUILTIN["punto-banco"])
    >>> bad = bet_from_data("x", {"pay": [{"player_natural": [7], "pays": 5}]}, "f.toml")
    >>> check_bet(bad, BUILTIN["punto-banco"])
    Traceback (most recent call last):
    ...
    odds.rules.errors.BetError: in f.toml: bet.x.pay[1].player_natural: 7 is not a natural under ...
    """
    for i, entry in enumerate(bet.entries, start=1):
        c = entry.condition
        for side in ("player", "banker"):
            natural = getattr(c, f"{side}_natural")
            where = f"in {bet.source}: bet.{bet.name}.pay[{i}].{side}_natural"
            if bet.source == "built-in":
                where = f"bet {bet.name}, entry {i}: {side}_natural"
            naturals = ", ".join(map(str, sorted(profile.naturals))) or "none"
            if isinstance(natural, frozenset):
                bad = sorted(natural - profile.naturals)
                if bad:
                    raise BetError(f"{where}: {bad[0]} is not a natural under profile "
                                   f"{profile.key!r} (naturals: {naturals})")
            elif natural is True and not profile.naturals:
                raise BetError(f"{where}: profile {profile.key!r} has no naturals")
