"""Rule profiles: every option of RULES.md as one frozen, validated value.

A :class:`Profile` says which two-card values are naturals, when each side
draws (the bank's rule may depend on the player's third card, as baccarat's
tableau does), how naturals compare, how Colon pairs are matched and paid,
and the pay table.  A profile whose draw rule is ``None`` leaves the choice
to the players (the ``family`` rules): it is a game, not a fixed round.

Profiles come built in (:data:`BUILTIN`), from a TOML file that names a
built-in ``base`` and overrides options, and from per-option overrides
(:meth:`Profile.with_options`), all validated the same way.

One piece on purpose (about 900 lines, the session options included): the option table, its parsers, the
validation and the built-in profiles are one definition of what a rule is;
split, each part would need the others to be read.
"""

from __future__ import annotations

import enum
import math
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from odds.rules.bets import Bet

from odds.rules.textio import check_nesting, check_numbers, excerpt, read_text, whole_number

__all__ = [
    "as_profile",
    "BUILTIN",
    "OPTIONS",
    "DrawRule",
    "Naturals",
    "BonusOn",
    "CapRule",
    "ColonMatch",
    "Option",
    "Profile",
    "ProfileError",
    "Rotation",
    "Session",
    "get_profile",
    "load_profile",
    "profile_from_data",
    "resolve_profile",
    "spans",
]

VALUES = range(10)


class ProfileError(ValueError):
    """A profile, profile file or option that cannot be used."""


class Naturals(enum.Enum):
    """How a natural compares with a hand that is not one."""

    OUTRIGHT = "outright"  # a natural beats any non-natural, whatever it drew to
    COMPARE = "compare"  # only final values are compared


class ColonMatch(enum.Enum):
    """What makes the first two cards a Colon (a pair)."""

    RANK = "rank"  # 5-5, K-K; 10-K is not a pair
    VALUE = "value"  # 10-K counts as a pair of zeros


class BonusOn(enum.Enum):
    """When a player's Colon is paid its multiplier."""

    WIN = "win"  # in place of 1 when the Colon hand wins
    ALWAYS = "always"  # in place of the comparison's settlement, whatever it is


@dataclass(frozen=True)
class DrawRule:
    """When a hand with a given two-card value takes a third card.

    ``draws`` holds the own two-card values that draw when the other hand
    took no third card (or is not looked at).  ``tableau``, when given, holds
    for each own value 0..9 the other hand's third-card values on which it
    draws: baccarat's banker rule.

    >>> rule = DrawRule.values(0, 1, 2, 3, 4, 5)
    >>> rule.decide(5, None), rule.decide(6, 3)
    (True, False)
    """

    draws: frozenset[int]
    tableau: tuple[frozenset[int], ...] | None = None
    # Where the side may choose instead (chemin de fer's open cells): own values
    # when the other hand stood or is not looked at, and (own value, the other
    # hand's third card) pairs after a third card.
    choose: frozenset[int] = frozenset()
    open: frozenset[tuple[int, int]] = frozenset()

    @classmethod
    def values(cls, *values: int) -> DrawRule:
        """A rule that draws on these own values, looking at nothing else."""
        return cls(frozenset(values))

    def decide(self, own: int, other_third: int | None) -> bool:
        """Does a hand of value ``own`` draw, given the other hand's third card?"""
        if other_third is None or self.tableau is None:
            return own in self.draws
        return other_third in self.tableau[own]

    def chooses(self, own: int, other_third: int | None) -> bool:
        """Is the side free to choose here (an open cell of the rule)?

        >>> r = BUILTIN["chemin-de-fer"].bank_draw
        >>> r.chooses(5, 4), r.chooses(5, 3), r.chooses(5, None)
        (True, False, False)
        """
        if other_third is None or self.tableau is None:
            return own in self.choose
        return (own, other_third) in self.open

    def describe(self) -> str:
        """Plain words, e.g. ``draws on 0-5`` or the tableau row by row."""
        text = "draws on " + spans(self.draws)
        if self.choose:
            text += ", chooses on " + spans(self.choose)
        if self.tableau is None:
            return text
        rows = []
        for own in VALUES:
            on = self.tableau[own]
            if on == frozenset(VALUES):
                rows.append(f"{own}: always")
            elif on:
                rows.append(f"{own}: if third card in {spans(on)}")
            elif not any(o == own for o, _ in self.open):
                continue
            free = sorted(x for o, x in self.open if o == own)
            if free:
                if not on:
                    rows.append(f"{own}: never")
                rows[-1] += f", chooses on {spans(free)}"
        return text + " if the other hand stood; after its third card: " + "; ".join(rows)

    def as_data(self) -> dict[str, Any]:
        """The rule as JSON/TOML data (the inverse of the profile file form)."""
        data: dict[str, Any] = {"draws": sorted(self.draws)}
        if self.tableau is not None:
            data["tableau"] = {str(v): sorted(self.tableau[v]) for v in VALUES}
        if self.choose:
            data["choose"] = sorted(self.choose)
        if self.open:
            data["open"] = {str(v): sorted(x for o, x in self.open if o == v)
                            for v in sorted({o for o, _ in self.open})}
        return data


def spans(values: Iterable[int]) -> str:
    """Values as ranges: ``{0,1,2,3,5}`` -> ``0-3, 5``; empty -> ``none``.

    >>> spans({0, 1, 2, 3, 5}), spans({7, 9}), spans(())
    ('0-3, 5', '7, 9', 'none')
    """
    ordered = sorted(values)
    if not ordered:
        return "none"
    parts: list[str] = []
    start = prev = ordered[0]
    for v in [*ordered[1:], None]:
        if v is not None and v == prev + 1:
            prev = v
            continue
        parts.append(f"{start}-{prev}" if prev > start else f"{start}")
        if v is not None:
            start = prev = v
    return ", ".join(parts)


@dataclass(frozen=True)
class Profile:
    """A complete, validated set of rules and payouts for one round.

    Payouts are per unit stake, as exact rationals.  ``colon`` and
    ``colon_nine`` are None where no pair bonus is paid; ``bank_colon`` and
    ``bank_colon_nine`` are what a bank Colon collects with ``bank_bonus``
    (None: the players' multipliers).  ``banker_pays`` and ``tie_pays`` are
    punto-banco's side bets (None where the game offers none).

    >>> p = BUILTIN["standard"]
    >>> sorted(p.naturals), p.colon, p.colon_nine
    ([8, 9], Fraction(2, 1), Fraction(3, 1))
    """

    key: str
    title: str
    naturals: frozenset[int] = frozenset({8, 9})
    naturals_rule: Naturals = Naturals.OUTRIGHT
    naturals_stop_draws: bool = False
    player_draw: DrawRule | None = DrawRule.values(0, 1, 2, 3, 4, 5)
    bank_draw: DrawRule | None = DrawRule.values(0, 1, 2, 3, 4, 5)
    colon_match: ColonMatch = ColonMatch.RANK
    colon: Fraction | None = Fraction(2)
    colon_nine: Fraction | None = Fraction(3)
    bonus_on: BonusOn = BonusOn.WIN
    bank_bonus: bool = False
    bank_colon: Fraction | None = None
    bank_colon_nine: Fraction | None = None
    win: Fraction = Fraction(1)
    banker_pays: Fraction | None = None
    tie_pays: Fraction | None = None
    decks: int = 1
    base: str | None = None
    source: str = "built-in"
    notes: tuple[str, ...] = field(default=(), compare=False)
    # The bets the profile offers, by name (empty: its base's, see odds.rules.bets),
    # and the bets its profile file defines.
    bets: tuple[str, ...] = ()
    bet_defs: tuple[Bet, ...] = ()
    session: Session = field(default=None, compare=False)  # type: ignore[assignment]
    # What each side sees when it chooses (None: as the solver's --information
    # says): "total" (its two-card value) or "cards" (its two cards); and
    # whether the bank sees the player's third card face up (None: when its
    # rule has a tableau).  See INFORMATION_OPTIONS.
    player_sees: str | None = None
    bank_sees: str | None = None
    bank_sees_third: bool | None = None

    def __post_init__(self) -> None:
        if self.session is None:
            object.__setattr__(self, "session", Session())
        _validate(self)

    # -- derived facts -------------------------------------------------------

    @property
    def fixed(self) -> bool:
        """True when nobody chooses: both draw rules are fixed, with no open cell."""
        return all(rule is not None and not rule.choose and not rule.open
                   for rule in (self.player_draw, self.bank_draw))

    @property
    def forced_draw(self) -> bool:
        """True when every non-natural hand draws (the forced-draw variant)."""
        everything = frozenset(VALUES) - self.naturals
        return all(
            rule is not None and rule.tableau is None and rule.draws == everything
            for rule in (self.player_draw, self.bank_draw)
        )

    @property
    def bonuses(self) -> bool:
        """True when a player or bank Colon is paid other than as a plain result."""
        return self.colon is not None or self.colon_nine is not None

    def bank_multiplier(self, nine: bool) -> Fraction | None:
        """What a bank Colon (Colon nine if ``nine``) collects, or None if nothing."""
        if not self.bank_bonus:
            return None
        if nine:
            return self.bank_colon_nine if self.bank_colon_nine is not None else self.colon_nine
        return self.bank_colon if self.bank_colon is not None else self.colon

    def player_multiplier(self, nine: bool) -> Fraction | None:
        """What a player Colon (Colon nine if ``nine``) is paid, or None if nothing."""
        return self.colon_nine if nine else self.colon

    def with_options(self, **options: Any) -> Profile:
        """A copy with options overridden; values may be strings as typed.

        >>> BUILTIN["standard"].with_options(naturals="compare", colon="5/2").colon
        Fraction(5, 2)
        >>> BUILTIN["standard"].with_options(colon="-1")
        Traceback (most recent call last):
        ...
        odds.rules.profiles.ProfileError: option colon: -1 is negative (a payout must be 0 or more, ...)
        """
        return _apply(self, options, where="option")

    def options(self) -> dict[str, Any]:
        """Every option, resolved, as JSON-ready data (fractions as strings).

        The information options show only where the profile sets them.
        """
        data = {opt.name: opt.show(getattr(self, opt.attr)) for opt in OPTIONS}
        data.update({k: getattr(self, k) for k in INFORMATION_OPTIONS
                     if getattr(self, k) is not None})
        return data

    def describe(self) -> list[str]:
        """The rules in plain lines, for headers and ``lucky9 profiles``."""
        lines = [f"{self.key}: {self.title}"]
        if self.base:
            lines.append(f"  based on {self.base}, from {self.source}")
        for opt in OPTIONS:
            lines.append(f"  {opt.name:<20} {opt.text(getattr(self, opt.attr))}")
        for name in INFORMATION_OPTIONS:
            value = getattr(self, name)
            if value is not None:
                shown = ("on" if value else "off") if isinstance(value, bool) else value
                lines.append(f"  {name:<20} {shown}")
        lines.extend(f"  note: {note}" for note in self.notes)
        return lines


# -- options: one table drives parsing, validation, CLI flags and headers ------


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


def _enum_option(cls: type[enum.Enum]) -> Callable[[Any, str], Any]:
    def parse(raw: Any, name: str) -> Any:
        if isinstance(raw, cls):
            return raw
        for member in cls:
            if str(raw).strip().lower() == member.value:
                return member
        choices = ", ".join(m.value for m in cls)
        raise ProfileError(f"{name}: {excerpt(raw)} is not one of {choices}")

    return parse


def _bool(raw: Any, name: str) -> bool:
    if isinstance(raw, bool):
        return raw
    word = str(raw).strip().lower()
    if word in {"on", "true", "yes", "1"}:
        return True
    if word in {"off", "false", "no", "0"}:
        return False
    raise ProfileError(f"{name}: {excerpt(raw)} is not on or off")


_NUMBER = re.compile(r"\s*-?[0-9]{1,30}(\.[0-9]{1,30})?(/[0-9]{1,30})?\s*")
_ODDS = re.compile(r"\s*([0-9]{1,30})\s*:\s*([0-9]{1,30})\s*")  # "2:1", as the output writes pays


def _rational(raw: Any, name: str) -> Fraction:
    if isinstance(raw, bool):
        raise ProfileError(f"{name}: {excerpt(raw)} is not a number")
    if isinstance(raw, (int, Fraction)):
        value = Fraction(raw)
    elif isinstance(raw, float) and math.isfinite(raw):
        # TOML floats are read as the decimal the user wrote, not the binary double.
        value = Fraction(repr(raw))
    elif isinstance(raw, str) and (odds := _ODDS.fullmatch(raw)):
        if not int(odds[2]):
            raise ProfileError(f"{name}: {excerpt(raw)} divides by zero")
        value = Fraction(int(odds[1]), int(odds[2]))
    elif isinstance(raw, str) and _NUMBER.fullmatch(raw):
        try:
            value = Fraction(raw.strip())
        except ZeroDivisionError:
            raise ProfileError(f"{name}: {excerpt(raw)} divides by zero") from None
    else:
        raise ProfileError(
            f"{name}: {excerpt(raw)} is not a number (write 2, 1.5, 3/2 or 2:1)"
        )
    if value < 0:
        raise ProfileError(
            f"{name}: {_fraction_text(value)} is negative "
            "(a payout must be 0 or more, or 'none')"
        )
    return value


def _optional_rational(raw: Any, name: str) -> Fraction | None:
    if raw is None or (isinstance(raw, str) and raw.strip().lower() in {"none", "off"}):
        return None
    return _rational(raw, name)


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
        return DrawRule(draws, tuple(rows[v] if v in rows else _Missing() for v in VALUES),
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


INFORMATION_OPTIONS = ("player_sees", "bank_sees", "bank_sees_third")


def _sees(raw: Any, name: str) -> str | None:
    if raw is None or str(raw).strip().lower() == "none":
        return None
    word = str(raw).strip().lower()
    if word not in ("total", "cards"):
        raise ProfileError(f"{name}: {excerpt(raw)} is not total or cards "
                           "(what a side sees of its own hand when it chooses)")
    return word


class _Missing(frozenset[int]):
    """Marks a tableau row the user left out, so validation can name it."""


def _fraction_text(value: Fraction | None) -> str:
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


def _fraction_show(value: Fraction | None) -> str | None:
    return None if value is None else _fraction_text(value)


OPTIONS: tuple[Option, ...] = (
    Option("decks", "decks", "default number of 52-card packs in the shoe",
           lambda raw, n: _decks(raw, n), lambda v: v, str),
    Option("naturals", "naturals_rule",
           "outright: a natural beats any non-natural; compare: final values only",
           _enum_option(Naturals), lambda v: v.value, lambda v: v.value,
           choices=tuple(m.value for m in Naturals)),
    Option("natural_values", "naturals", "two-card values that are naturals (e.g. 8,9)",
           _values, lambda v: sorted(v), lambda v: spans(v)),
    Option("naturals_stop_draws", "naturals_stop_draws",
           "on: when either hand is a natural nobody draws (baccarat, family)",
           _bool, lambda v: v, lambda v: "on" if v else "off"),
    Option("player_draw", "player_draw",
           "two-card values on which a player draws (e.g. 0-5), or 'choice'",
           _draw_rule, _show_rule, _text_rule("player")),
    Option("bank_draw", "bank_draw",
           "two-card values on which the bank draws (e.g. 0-5), or 'choice'; "
           "a tableau only in a profile file",
           _draw_rule, _show_rule, _text_rule("bank")),
    Option("colon_match", "colon_match",
           "rank: 5-5, K-K are pairs; value: 10-K is a pair of zeros too",
           _enum_option(ColonMatch), lambda v: v.value, lambda v: v.value,
           choices=tuple(m.value for m in ColonMatch)),
    Option("colon", "colon", "multiplier paid on a player Colon, or 'none'",
           _optional_rational, _fraction_show, _pay_text),
    Option("colon_nine", "colon_nine", "multiplier paid on a player Colon nine, or 'none'",
           _optional_rational, _fraction_show, _pay_text),
    Option("bonus_on", "bonus_on",
           "win: a Colon is paid its multiplier when it wins; always: whatever the comparison",
           _enum_option(BonusOn), lambda v: v.value, lambda v: v.value,
           choices=tuple(m.value for m in BonusOn)),
    Option("bank_bonus", "bank_bonus",
           "on: a bank Colon that beats a player collects its multiplier",
           _bool, lambda v: v, lambda v: "on" if v else "off"),
    Option("bank_colon", "bank_colon",
           "what a bank Colon collects with bank_bonus ('none': the colon multiplier)",
           _optional_rational, _fraction_show, _pay_text),
    Option("bank_colon_nine", "bank_colon_nine",
           "what a bank Colon nine collects with bank_bonus ('none': colon_nine)",
           _optional_rational, _fraction_show, _pay_text),
    Option("win", "win", "what an ordinary win pays per unit stake",
           _rational, _fraction_text, _pay_text),
    Option("banker_pays", "banker_pays",
           "punto-banco: what a bet on the banker wins (19/20 is 5% commission), or 'none'",
           _optional_rational, _fraction_show, _pay_text),
    Option("tie_pays", "tie_pays", "punto-banco: what a bet on a tie wins, or 'none'",
           _optional_rational, _fraction_show, _pay_text),
)
_BY_NAME = {opt.name: opt for opt in OPTIONS}



# -- session options (RULES.md section 6): the bank over a session -------------


class CapRule(enum.Enum):
    """How winners' claims beyond ``round_cap`` are cut."""

    SEAT_ORDER = "seat-order"  # paid in seat order until the cap is used
    PRO_RATA = "pro-rata"  # every winner gets the same fraction of its claim


class Rotation(enum.Enum):
    """Who banks over a session."""

    FIXED = "fixed"  # one person banks every round (the house in Super 9)
    ROTATE = "rotate"  # N+1 persons pass the bank each round


_SESSION_KEYS = ("players", "stakes", "max_stake", "bonus_cap", "round_cap", "cap_rule",
                 "capital", "rounds", "rotation")


MAX_SESSION_ROUNDS = 10**7  # rounds of a session (--rounds or [session] rounds)

@dataclass(frozen=True)
class Session:
    """The options of a session (all off by default): stakes, caps, capital, rotation.

    Amounts are in units (one unit = a stake of 1).  ``stakes`` lists each
    seat's stake in seat order (None: 1 each); ``bonus_cap`` is the most
    bonus payments honoured per round, in seat order; ``round_cap`` the most
    the bank pays winners in one round, cut by ``cap_rule``.

    >>> s = Session().with_options(stakes="1,1,2", round_cap="10", cap_rule="pro-rata")
    >>> s.stakes_for(3), s.round_cap, s.cap_rule.value
    ((Fraction(1, 1), Fraction(1, 1), Fraction(2, 1)), Fraction(10, 1), 'pro-rata')
    >>> Session().with_options(stakes="1,3", max_stake=2)
    Traceback (most recent call last):
    ...
    odds.rules.profiles.ProfileError: stakes: seat 2 stakes 3, above max_stake 2
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

    def __post_init__(self) -> None:
        if self.players is not None and not 1 <= self.players <= 8:
            raise ProfileError(f"players: a table has 1 to 8 players, not {self.players}")
        if self.stakes is not None:
            if not 1 <= len(self.stakes) <= 8:
                raise ProfileError(
                    f"stakes: give 1 to 8 stakes (one per player), not {len(self.stakes)}")
            if self.players is not None and len(self.stakes) != self.players:
                raise ProfileError(
                    f"stakes: {len(self.stakes)} stakes given for {self.players} players "
                    "(give one per player)")
            for i, stake in enumerate(self.stakes, 1):
                if stake <= 0:
                    raise ProfileError(f"stakes: seat {i} stakes {_fraction_text(stake)}; "
                                       "a stake must be more than 0")
                if self.max_stake is not None and stake > self.max_stake:
                    raise ProfileError(
                        f"stakes: seat {i} stakes {_fraction_text(stake)}, above max_stake "
                        f"{_fraction_text(self.max_stake)}")
        if self.max_stake is not None and self.max_stake <= 0:
            raise ProfileError(f"max_stake: {_fraction_text(self.max_stake)} must be more than 0")
        for name, cap in (("bonus_cap", self.bonus_cap), ("round_cap", self.round_cap)):
            if cap is not None and cap < 0:
                raise ProfileError(f"{name}: {_fraction_text(Fraction(cap))} is negative")
        if self.rounds is not None and self.rounds < 1:
            raise ProfileError(f"rounds: a session has at least 1 round, not {self.rounds}")
        if self.rounds is not None and self.rounds > MAX_SESSION_ROUNDS:
            raise ProfileError(f"rounds: a session has at most {MAX_SESSION_ROUNDS:,} rounds, "
                               f"not {self.rounds:,}")

    @property
    def capped(self) -> bool:
        """True when a bonus cap or a round cap is set."""
        return self.bonus_cap is not None or self.round_cap is not None

    def stakes_for(self, players: int) -> tuple[Fraction, ...]:
        """Each seat's stake at a table of ``players`` (1 each unless listed)."""
        if self.stakes is None:
            stakes = (Fraction(1),) * players
        elif len(self.stakes) != players:
            raise ProfileError(
                f"stakes: {len(self.stakes)} stakes given for {players} players "
                "(give one per player)")
        else:
            stakes = self.stakes
        if self.max_stake is not None:
            for i, stake in enumerate(stakes, 1):
                if stake > self.max_stake:
                    raise ProfileError(
                        f"stakes: seat {i} stakes {_fraction_text(stake)}, above max_stake "
                        f"{_fraction_text(self.max_stake)}")
        return stakes

    def with_options(self, where: str = "", **options: Any) -> Session:
        """A copy with options overridden; values may be strings as typed."""
        changes: dict[str, Any] = {}
        prefix = f"{where}: " if where else ""
        for key, raw in options.items():
            name = key.replace("-", "_")
            if name not in _SESSION_KEYS:
                raise ProfileError(
                    f"{prefix}unknown session option {excerpt(key)} (known: {', '.join(_SESSION_KEYS)})")
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
            "stakes": None if self.stakes is None else [_fraction_text(s) for s in self.stakes],
            "max_stake": _fraction_show(self.max_stake),
            "bonus_cap": self.bonus_cap,
            "round_cap": _fraction_show(self.round_cap),
            "cap_rule": self.cap_rule.value,
            "capital": _fraction_show(self.capital),
            "rounds": self.rounds,
            "rotation": self.rotation.value,
        }


def _count(raw: Any, name: str) -> int:
    if isinstance(raw, bool) or not (isinstance(raw, int)
                                     or re.fullmatch(r"\s*-?[0-9]{1,18}\s*", str(raw))):
        raise ProfileError(f"{name}: {excerpt(raw)} is not a whole number (at most 18 digits)")
    value = int(raw)
    if value < 0:
        raise ProfileError(f"{name}: {value} is negative (give 0 or more)")
    return value


def _amount(raw: Any, name: str) -> Fraction:
    try:
        return _rational(raw, name)
    except ProfileError as exc:
        raise ProfileError(str(exc).replace("(a payout must be 0 or more, or 'none')",
                                            "(give 0 or more)")) from None


def _optional(parse: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    def inner(raw: Any, name: str) -> Any:
        if raw is None or (isinstance(raw, str) and raw.strip().lower() in {"none", "off"}):
            return None
        return parse(raw, name)

    return inner


def _stakes(raw: Any, name: str) -> tuple[Fraction, ...]:
    if isinstance(raw, str) and re.search(r",\s*,|^\s*,|,\s*$", raw):
        raise ProfileError(f"{name}: {excerpt(raw)} has an empty stake between commas "
                           "(write 1,1,2)")
    items = re.split(r"[\s,]+", raw.strip()) if isinstance(raw, str) else raw
    if not isinstance(items, (list, tuple)) or not items or items == [""]:
        raise ProfileError(f"{name}: {excerpt(raw)} is not a list of stakes (write 1,1,2)")
    return tuple(_amount(item, name) for item in items)


_SESSION_PARSE: dict[str, Callable[[Any, str], Any]] = {
    "players": _optional(_count),
    "stakes": _optional(_stakes),
    "max_stake": _optional(_amount),
    "bonus_cap": _optional(_count),
    "round_cap": _optional(_amount),
    "cap_rule": _enum_option(CapRule),
    "capital": _optional(_amount),
    "rounds": _optional(_count),
    "rotation": _enum_option(Rotation),
}


def _decks(raw: Any, name: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, (int, str)):
        raise ProfileError(f"{name}: {excerpt(raw)} is not a whole number of packs")
    value = raw if isinstance(raw, int) else whole_number(raw, name, ProfileError)
    if value < 1:
        raise ProfileError(f"{name}: a shoe needs at least 1 pack, not {value}")
    return value


def _apply(profile: Profile, options: Mapping[str, Any], where: str) -> Profile:
    changes: dict[str, Any] = {}
    forced = None
    for key, raw in options.items():
        name = key.replace("-", "_")
        if name == "forced_draw":
            forced = _bool(raw, f"{where} forced_draw")
            continue
        if name in INFORMATION_OPTIONS:
            label = f"{where} {name}"
            changes[name] = (None if raw is None else _bool(raw, label)) \
                if name == "bank_sees_third" else _sees(raw, label)
            continue
        opt = _BY_NAME.get(name)
        if opt is None:
            known = ", ".join(sorted([*_BY_NAME, "forced_draw", *INFORMATION_OPTIONS]))
            raise ProfileError(f"{where}: unknown option {excerpt(key)} (known: {known})")
        changes[opt.attr] = opt.parse(raw, f"{where} {name}")
    if forced:
        everything = DrawRule(frozenset(VALUES) - changes.get("naturals", profile.naturals))
        changes.update(player_draw=everything, bank_draw=everything)
    return replace(profile, **changes)


def _validate(p: Profile) -> None:
    """Checks that span options; single values are also checked as they are parsed."""
    if not p.naturals <= frozenset(VALUES):
        raise ProfileError(f"natural_values: {sorted(p.naturals)} are not all hand values 0-9")
    for opt in OPTIONS:
        value = getattr(p, opt.attr)
        if isinstance(value, Fraction) and value < 0:
            raise ProfileError(f"{opt.name}: {value} is negative (a payout must be 0 or more)")
    if p.decks < 1:
        raise ProfileError(f"decks: a shoe needs at least 1 pack, not {p.decks}")
    if p.player_draw is not None and p.player_draw.tableau is not None:
        raise ProfileError(
            "player_draw: the player acts first, so its rule cannot depend on the other "
            "hand's third card (a tableau is for the bank only)"
        )
    for rule, who in ((p.player_draw, "player_draw"), (p.bank_draw, "bank_draw")):
        if rule is None:
            continue
        natural_draws = sorted((rule.draws | rule.choose | {o for o, _ in rule.open})
                               & p.naturals)
        if natural_draws:
            raise ProfileError(
                f"{who}: {natural_draws[0]} is a natural, and a natural never draws "
                f"(draw values must leave out {spans(p.naturals)})"
            )
        if rule.tableau is not None:
            for v in VALUES:
                row = rule.tableau[v]
                if v in p.naturals:
                    if row and not isinstance(row, _Missing):
                        raise ProfileError(
                            f"{who}.tableau: {v} is a natural, and a natural never draws"
                        )
                elif isinstance(row, _Missing):
                    raise ProfileError(
                        f"{who}.tableau: no entry for own value {v}: the rule leaves "
                        f"it undefined (give the third-card values that draw, or [])"
                    )
    if p.key == "" or not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", p.key):
        raise ProfileError(f"{p.key!r} is not a profile key (lower-case letters, digits, -)")


# -- built-in profiles ---------------------------------------------------------

_BACCARAT_BANKER = DrawRule(
    frozenset(range(6)),
    (
        frozenset(VALUES), frozenset(VALUES), frozenset(VALUES),  # 0-2 always draw
        frozenset(VALUES) - {8},  # 3: unless the player's third card is an 8
        frozenset(range(2, 8)),  # 4: on 2-7
        frozenset(range(4, 8)),  # 5: on 4-7
        frozenset({6, 7}),  # 6: on 6-7
        frozenset(), frozenset(), frozenset(),  # 7 stands; 8, 9 are naturals
    ),
)

# The classic chemin de fer banker's table: the baccarat tableau, except that
# 3 against an 8 or a 9 and 5 against a 4 are left to the banker ("optional"),
# 4 stands against a 1 and 5 draws only against 5-7.
_CHEMIN_BANKER = DrawRule(
    frozenset(range(6)),
    (
        frozenset(VALUES), frozenset(VALUES), frozenset(VALUES),
        frozenset(range(8)),  # 3: on 0-7; stands on 8; chooses on 9
        frozenset(range(2, 8)),  # 4: on 2-7
        frozenset(range(5, 8)),  # 5: on 5-7; chooses on 4
        frozenset({6, 7}),  # 6: on 6-7
        frozenset(), frozenset(), frozenset(),
    ),
    open=frozenset({(3, 9), (5, 4)}),
)

BUILTIN: dict[str, Profile] = {
    p.key: p
    for p in (
        Profile("standard", "Philippine Lucky 9 with Colon bonuses, draw on 0-5"),
        Profile("plain", "standard Lucky 9 without pair bonuses (for beginners)",
                colon=None, colon_nine=None),
        Profile(
            "forced-draw", "every non-natural hand draws, 6 and 7 included",
            player_draw=DrawRule.values(*range(8)), bank_draw=DrawRule.values(*range(8)),
        ),
        Profile(
            "super9",
            "casino Super 9: the house banks; example house pay table "
            "(Colon 3:2, Colon nine 2:1; the house's own Colons collect 2:1 and 3:1)",
            colon=Fraction(3, 2), colon_nine=Fraction(2), bank_bonus=True,
            bank_colon=Fraction(2), bank_colon_nine=Fraction(3), decks=8,
            notes=("the pay table is an example: put your house's in a profile file",),
        ),
        Profile(
            "family", "French family rules: only a two-card 9 is natural; players and bank choose",
            naturals=frozenset({9}), naturals_stop_draws=True,
            player_draw=None, bank_draw=None, colon=None, colon_nine=None,
        ),
        Profile(
            "punto-banco", "casino baccarat (reference for validation): banker tableau, "
            "banker bet pays 19/20, tie 8:1",
            naturals_rule=Naturals.COMPARE, naturals_stop_draws=True,
            bank_draw=_BACCARAT_BANKER, banker_pays=Fraction(19, 20), tie_pays=Fraction(8),
            decks=8, colon=None, colon_nine=None,
        ),
        Profile(
            "ez-baccarat", "EZ Baccarat: punto-banco rules, the banker bet without commission "
            "pushes on a three-card 7; Dragon 7 and Panda 8 side bets",
            naturals_rule=Naturals.COMPARE, naturals_stop_draws=True,
            bank_draw=_BACCARAT_BANKER, tie_pays=Fraction(8),
            decks=8, colon=None, colon_nine=None,
        ),
        Profile(
            "chemin-de-fer", "chemin de fer: the player chooses on 5; the banker sees the player's "
            "third card (classic table, open cells)",
            naturals_rule=Naturals.COMPARE, naturals_stop_draws=True,
            player_draw=DrawRule(frozenset(range(5)), choose=frozenset({5})),
            bank_draw=_CHEMIN_BANKER, decks=6, colon=None, colon_nine=None,
            player_sees="cards", bank_sees="cards", bank_sees_third=True,
        ),
    )
}


def get_profile(key: str) -> Profile:
    """A built-in profile by key.

    >>> get_profile("plain").colon is None
    True
    >>> get_profile("Punto-Banco").key  # any case
    'punto-banco'
    >>> get_profile("standrd")
    Traceback (most recent call last):
    ...
    odds.rules.profiles.ProfileError: unknown profile 'standrd' (built-in: standard, plain, ...)
    """
    try:
        return BUILTIN[key.strip().lower()]
    except KeyError:
        names = ", ".join(BUILTIN)
        raise ProfileError(
            f"unknown profile {excerpt(key)} (built-in: {names}; or a .toml file)"
        ) from None


_FILE_KEYS = {"base", "name", "title", "session", "bets", "bet"}
MAX_TOML = 1 << 20  # bytes of a profile or strategy file: a real one is a few hundred


def load_profile(path: str | Path) -> Profile:
    """Read a TOML profile file: ``base`` (a built-in), ``name``, then options.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
    ...     _ = f.write('base = "standard"\\nname = "my-table"\\ncolon = "5/2"\\n')
    >>> p = load_profile(f.name); os.unlink(f.name)
    >>> p.key, p.base, p.colon
    ('my-table', 'standard', Fraction(5, 2))
    """
    path = Path(path)
    where = f"profile file {excerpt(str(path), 120)}"
    text = read_text(path, MAX_TOML, "profile file", ProfileError)
    check_nesting(text, where, ProfileError, toml=True)
    check_numbers(text, where, ProfileError)
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:
        raise ProfileError(f"{where} is not valid TOML: {exc}") from None
    return profile_from_data(data, source=str(path))


def profile_from_data(data: Mapping[str, Any], source: str) -> Profile:
    """Build a profile from parsed file data; errors name the key and the file."""
    where = f"in {source}"
    base_key = data.get("base", "standard")
    if not isinstance(base_key, str) or base_key not in BUILTIN:
        raise ProfileError(
            f"{where}: base {base_key!r} is not a built-in profile "
            f"({', '.join(BUILTIN)})"
        )
    name = data.get("name", re.sub(r"[^a-z0-9_-]+", "-", Path(source).stem.lower()).strip("-")
                    or "custom")
    if not isinstance(name, str):
        raise ProfileError(f"{where}: name must be a string, not {excerpt(name)}")
    title = data.get("title", f"{base_key} with house options from {Path(source).name}")
    if not isinstance(title, str):
        raise ProfileError(f"{where}: title must be a string, not {excerpt(title)}")
    options = {k: v for k, v in data.items() if k not in _FILE_KEYS}
    try:
        base = replace(BUILTIN[base_key], key=name, title=title, base=base_key, source=source)
    except ProfileError as exc:
        raise ProfileError(f"{where}: name: {exc}") from None
    session = data.get("session", {})
    if not isinstance(session, Mapping):
        raise ProfileError(f"{where}: session must be a table ([session]), not {excerpt(session)}")
    try:
        profile = _apply(base, options, where=where)
    except ProfileError as exc:
        text = str(exc)
        if not text.startswith(where):
            text = f"{where}: {text}"
        raise ProfileError(text) from None
    profile = replace(profile, session=Session().with_options(where=where, **session))
    if "bet" in data or "bets" in data:
        profile = _with_bets(profile, data, source)
    return profile


# How a file's ``bets`` list and ``[bet.NAME]`` tables join a profile.  The bets module
# (which imports this one) registers it when it is imported, so this module never imports
# bets: importing ``odds.rules`` imports both.
_BETS_LOADER: Callable[[Profile, Mapping[str, Any], str], Profile] | None = None


def register_bets_loader(loader: Callable[[Profile, Mapping[str, Any], str], Profile]) -> None:
    """Set the function that reads a profile file's bets (called by ``odds.rules.bets``)."""
    global _BETS_LOADER
    _BETS_LOADER = loader


def _with_bets(profile: Profile, data: Mapping[str, Any], source: str) -> Profile:
    """The profile with the file's ``bets`` list and ``[bet.NAME]`` tables."""
    if _BETS_LOADER is None:  # pragma: no cover - odds.rules imports bets first
        import importlib

        importlib.import_module("odds.rules.bets")
    assert _BETS_LOADER is not None
    return _BETS_LOADER(profile, data, source)


def resolve_profile(name: str) -> Profile:
    """A built-in key (any case), or a path to a ``.toml`` profile file."""
    if name.endswith(".toml") or "/" in name or Path(name).suffix:
        return load_profile(name)
    return get_profile(name)


def as_profile(value: Profile | str) -> Profile:
    """A profile given as itself, a built-in key (any case) or a ``.toml`` file path.

    >>> as_profile("Standard") is BUILTIN["standard"]
    True
    >>> as_profile(8)
    Traceback (most recent call last):
    ...
    odds.rules.profiles.ProfileError: a profile is a Profile, a built-in name (...) or a .toml file ..., not 8
    """
    if isinstance(value, Profile):
        return value
    if isinstance(value, str | Path):
        return resolve_profile(str(value))
    names = ", ".join(BUILTIN)
    raise ProfileError(f"a profile is a Profile, a built-in name ({names}) or a .toml file path, "
                       f"not {value!r}")

