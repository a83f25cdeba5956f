"""The session's options: stakes, caps, capital, rounds and who banks.

The bank over a session (docs/bank.md).  A :class:`Session` is part of
every :class:`~odds.rules.profile.Profile` (all off by default); a profile
file sets it in a ``[session]`` table, the CLI with flags.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from odds.io.textio import excerpt
from odds.rules.errors import ProfileError
from odds.rules.numbers import parse_amount, parse_number
from odds.rules.options import fraction_show, fraction_text, parse_enum
from odds.rules.rule_types import CapRule, Rotation

__all__ = ["CUT_KEYS", "MAX_SESSION_ROUNDS", "SESSION_KEYS", "Session", "not_a_stake",
           "parse_commission", "parse_stake"]

SESSION_KEYS = ("players", "stakes", "max_stake", "bonus_cap", "round_cap", "cap_rule",
                "capital", "rounds", "rotation", "max_bonus", "fee", "commission")
# The house's cut (docs/bank.md): shown in a profile's data only where set, so a
# profile without one reads as before.
CUT_KEYS = ("fee", "commission")
MAX_SESSION_ROUNDS = 10**7  # rounds of a session (--rounds or [session] rounds)


@dataclass(frozen=True)
class Session:
    """The options of a session (all off by default): stakes, caps, capital, rotation.

    Amounts are in units (one unit = a stake of 1).  ``stakes`` lists each
    seat's stake in seat order, or holds one stake for every seat (None: 1 each); ``bonus_cap`` is the most
    bonus payments honoured per round, in seat order; ``round_cap`` the most
    the bank pays winners in one round, cut by ``cap_rule``; ``max_bonus``
    the most one bonus payment pays a seat, in money (never less than a plain
    win; see :class:`~odds.rules.rule_types.BonusLimit`).  The house's cut:
    ``fee`` is what the house collects from every seat every round, in money,
    whatever the result; ``commission`` the share of a winning seat's win it
    keeps (0 to less than 1; applied after every cap).  See
    :func:`odds.rules.house_cut.net_after_cut`.

    >>> s = Session().with_options(stakes="1,1,2", round_cap="10", cap_rule="pro-rata")
    >>> s.stakes_for(3), s.round_cap, s.cap_rule.value
    ((Fraction(1, 1), Fraction(1, 1), Fraction(2, 1)), Fraction(10, 1), 'pro-rata')
    >>> Session().with_options(stakes="1,3", max_stake=2)
    Traceback (most recent call last):
    ...
    odds.rules.errors.ProfileError: stakes: seat 2 stakes 3, above max_stake 2
    """

    players: int | None = None
    stakes: tuple[Fraction, ...] | None = None
    max_stake: Fraction | None = None
    bonus_cap: int | None = None
    round_cap: Fraction | None = None
    cap_rule: CapRule = CapRule.SEAT_ORDER
    capital: Fraction | None = None
    rounds: int | None = None
    rotation: Rotation = Rotation.FIXED
    max_bonus: Fraction | None = None
    fee: Fraction | None = None
    commission: Fraction | None = None

    def __post_init__(self) -> None:
        if self.players is not None and not 1 <= self.players <= 8:
            raise ProfileError(f"players: a table has 1 to 8 players, not {self.players}")
        if self.max_stake is not None and self.max_stake <= 0:
            raise ProfileError(not_a_stake("max_stake", self.max_stake))
        if self.stakes is not None:
            if not 1 <= len(self.stakes) <= 8:
                raise ProfileError(
                    f"stakes: give 1 to 8 stakes (one per player), not {len(self.stakes)}")
            if self.players is not None:
                self.stakes_for(self.players)  # one stake for every seat, or one per seat
            for stake in self.stakes:
                if stake <= 0:
                    raise ProfileError(not_a_stake("stakes", stake))
            self._check_max_stake(self.stakes)
        for name, cap in (("bonus_cap", self.bonus_cap), ("round_cap", self.round_cap)):
            if cap is not None and cap < 0:
                raise ProfileError(f"{name}: {fraction_text(Fraction(cap))} is negative")
        if self.max_bonus is not None and self.max_bonus <= 0:
            raise ProfileError(f"max_bonus: {fraction_text(self.max_bonus)} must be more than 0 "
                               "(leave it out for no cap)")
        if self.fee is not None and self.fee < 0:
            raise ProfileError(f"fee: {fraction_text(self.fee)} is negative (give 0 or more)")
        if self.commission is not None and not 0 <= self.commission < 1:
            raise ProfileError(f"commission: {fraction_text(self.commission)} is not a share "
                               "from 0 to less than 1 (write 5% or 0.05)")
        if self.rounds is not None and self.rounds < 1:
            raise ProfileError(f"rounds: a session has at least 1 round, not {self.rounds}")
        if self.rounds is not None and self.rounds > MAX_SESSION_ROUNDS:
            raise ProfileError(f"rounds: a session has at most {MAX_SESSION_ROUNDS:,} rounds, "
                               f"not {self.rounds:,}")

    @property
    def has_cut(self) -> bool:
        """True when the house takes a fee or a commission (of more than 0)."""
        return bool(self.fee) or bool(self.commission)

    @property
    def capped(self) -> bool:
        """True when a bonus cap or a round cap is set."""
        return self.bonus_cap is not None or self.round_cap is not None

    def stakes_for(self, players: int) -> tuple[Fraction, ...]:
        """Each seat's stake at a table of ``players``: 1 each unless given; one stake given is
        every seat's.

        >>> Session(stakes=(Fraction(100),)).stakes_for(3)
        (Fraction(100, 1), Fraction(100, 1), Fraction(100, 1))
        >>> Session(stakes=(Fraction(1), Fraction(2))).stakes_for(3)
        Traceback (most recent call last):
        ...
        odds.rules.errors.ProfileError: stakes: 2 stakes given for 3 players (give one stake ...
        """
        if self.stakes is None:
            stakes = (Fraction(1),) * players
        elif len(self.stakes) == 1:
            stakes = self.stakes * players
        elif len(self.stakes) != players:
            raise ProfileError(
                f"stakes: {len(self.stakes)} stakes given for {players} players "
                "(give one stake for every seat, or one per player)")
        else:
            stakes = self.stakes
        self._check_max_stake(stakes)
        return stakes

    def _check_max_stake(self, stakes: tuple[Fraction, ...]) -> None:
        if self.max_stake is None:
            return
        for i, stake in enumerate(stakes, 1):
            if stake > self.max_stake:
                seat = f"seat {i} stakes " if len(set(stakes)) > 1 else "a stake of "
                raise ProfileError(
                    f"stakes: {seat}{fraction_text(stake)}, above max_stake "
                    f"{fraction_text(self.max_stake)}")

    def with_options(self, where: str = "", **options: Any) -> Session:
        """A copy with options overridden; values may be strings as typed."""
        changes: dict[str, Any] = {}
        prefix = f"{where}: " if where else ""
        for key, raw in options.items():
            name = key.replace("-", "_")
            if name not in SESSION_KEYS:
                raise ProfileError(
                    f"{prefix}unknown session option {excerpt(key)} (known: {', '.join(SESSION_KEYS)})")
            label = f"{prefix}{'session.' if where else ''}{name}"
            changes[name] = _SESSION_PARSE[name](raw, label)
        try:
            return replace(self, **changes)
        except ProfileError as exc:
            if where:
                raise ProfileError(f"{prefix}session.{exc}") from None
            raise

    def as_data(self) -> dict[str, Any]:
        """Every session option as JSON-ready data (None where off)."""
        return {
            "players": self.players,
            "stakes": None if self.stakes is None else [fraction_text(s) for s in self.stakes],
            "max_stake": fraction_show(self.max_stake),
            "bonus_cap": self.bonus_cap,
            "round_cap": fraction_show(self.round_cap),
            "cap_rule": self.cap_rule.value,
            "capital": fraction_show(self.capital),
            "rounds": self.rounds,
            "rotation": self.rotation.value,
            "max_bonus": fraction_show(self.max_bonus),
            **{key: fraction_show(getattr(self, key)) for key in CUT_KEYS
               if getattr(self, key) is not None},
        }


def _count(raw: Any, name: str) -> int:
    if isinstance(raw, bool) or not (isinstance(raw, int)
                                     or re.fullmatch(r"\s*-?[0-9]{1,18}\s*", str(raw))):
        raise ProfileError(f"{name}: {excerpt(raw)} is not a whole number (at most 18 digits)")
    value = int(raw)
    if value < 0:
        raise ProfileError(f"{name}: {value} is negative (give 0 or more)")
    return value


def _positive(raw: Any, name: str) -> Fraction:
    value = parse_number(raw, name)
    if value < 0:
        raise ProfileError(f"{name}: {fraction_text(value)} is negative (give more than 0)")
    if value == 0:
        raise ProfileError(f"{name}: {fraction_text(value)} must be more than 0 "
                           "(leave it out for no cap)")
    return value


def _optional(parse: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    def inner(raw: Any, name: str) -> Any:
        if raw is None or (isinstance(raw, str) and raw.strip().lower() in {"none", "off"}):
            return None
        return parse(raw, name)

    return inner


def parse_commission(raw: Any, name: str) -> Fraction:
    """A share of a win: ``5%``, ``0.05`` or ``1/20``, from 0 to less than 1.

    >>> parse_commission("5%", "commission"), parse_commission("1/20", "commission")
    (Fraction(1, 20), Fraction(1, 20))
    >>> parse_commission("100%", "commission")
    Traceback (most recent call last):
    ...
    odds.rules.errors.ProfileError: commission: 1 is not a share from 0 to less than 1 (write 5% or 0.05)
    """
    value = parse_number(raw, name, percent=True, hint="write 1/20, 0.05 or 5%")
    if value < 0:
        raise ProfileError(f"{name}: {fraction_text(value)} is negative (write 5% or 0.05)")
    if not value < 1:
        raise ProfileError(f"{name}: {fraction_text(value)} is not a share from 0 to less than 1 "
                           "(write 5% or 0.05)")
    return value


def not_a_stake(name: str, value: Fraction) -> str:
    """The one sentence for a stake of 0 or less, wherever it comes from (a flag, a file, Python)."""
    return (f"{name}: {fraction_text(value)} is not a stake (a stake is a positive amount, "
            "such as 1, 2.5 or 100)")


def parse_stake(raw: Any, name: str) -> Fraction:
    """One stake: a positive amount (2, 2.5, 5/2, 50,000); 0 or a negative one is refused."""
    value = parse_number(raw, name)
    if value <= 0:
        raise ProfileError(not_a_stake(name, value))
    return value


def _stakes(raw: Any, name: str) -> tuple[Fraction, ...]:
    """Stakes: one for every seat (``100``, ``"100"``, ``[100]``) or one per seat in seat order
    (``"1,1,2"``, ``[1, 1, 2]``)."""
    if isinstance(raw, str) and re.search(r",\s*,|^\s*,|,\s*$", raw):
        raise ProfileError(f"{name}: {excerpt(raw)} has an empty stake between commas "
                           "(write 1,1,2)")
    if isinstance(raw, (int, float, Fraction)) and not isinstance(raw, bool):
        items: Any = [raw]
    else:
        items = re.split(r"[\s,]+", raw.strip()) if isinstance(raw, str) else raw
    if isinstance(raw, str) and any(re.fullmatch(r"0[0-9]{2}(\.[0-9]*)?", i) for i in items[1:]):
        # "50,000": a comma separates stakes, and no stake is written 000.
        raise ProfileError(f"{name}: {excerpt(raw)}: a comma separates stakes here (1,1,2), so "
                           "write a stake without thousands commas (50000)")
    if not isinstance(items, (list, tuple)) or not items or items == [""]:
        raise ProfileError(f"{name}: {excerpt(raw)} is not a stake or a list of stakes "
                           "(write 100 for every seat, or 1,1,2 for each seat)")
    return tuple(parse_stake(item, name) for item in items)


_SESSION_PARSE: dict[str, Callable[[Any, str], Any]] = {
    "players": _optional(_count),
    "stakes": _optional(_stakes),
    "max_stake": _optional(parse_stake),
    "bonus_cap": _optional(_count),
    "round_cap": _optional(parse_amount),
    "cap_rule": parse_enum(CapRule),
    "capital": _optional(parse_amount),
    "rounds": _optional(_count),
    "rotation": parse_enum(Rotation),
    "max_bonus": _optional(_positive),
    "fee": _optional(parse_amount),
    "commission": _optional(parse_commission),
}
