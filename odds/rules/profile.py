"""A rule profile: every option of docs/rules.md as one frozen, validated value.

A :class:`Profile` says which two-card values are naturals, when each side
draws (the bank's rule may depend on the player's third card, as baccarat's
tableau does), how naturals compare, how Colon pairs are matched and paid,
and the pay table.  A profile whose draw rule is ``None`` leaves the choice
to the players (the ``family`` rules): it is a game, not a fixed round.

Options are parsed by the table of :mod:`odds.rules.options`
(:func:`apply_options`) and checked together here (:func:`validate`), so a
built-in profile, a profile file and a CLI flag are validated the same way.
The built-in profiles and profile files are :mod:`odds.rules.profiles`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from odds.io.textio import excerpt
from odds.rules.errors import ProfileError
from odds.rules.options import (
    INFORMATION_OPTIONS,
    OPTIONS,
    OPTIONS_BY_NAME,
    MissingRow,
    parse_bool,
    parse_sees,
)
from odds.rules.rule_types import (
    VALUES,
    BonusLimit,
    BonusOn,
    ColonMatch,
    DrawRule,
    Naturals,
    spans,
)
from odds.rules.session_options import Session, not_a_stake

if TYPE_CHECKING:  # a profile file's bets only: the fixed rules need not import them
    from odds.rules.bet_types import Bet

__all__ = ["Profile", "apply_options", "validate"]


@dataclass(frozen=True)
class Profile:
    """A complete, validated set of rules and payouts for one round.

    Payouts are per unit stake, as exact rationals.  ``colon`` and
    ``colon_nine`` are None where no pair bonus is paid; ``bank_colon`` and
    ``bank_colon_nine`` are what a bank Colon collects with ``bank_bonus``
    (None: the players' multipliers); ``ties`` is what a seat that ties is paid
    (0, a push; -1: it loses its stake).  ``banker_pays`` and ``tie_pays`` are
    punto-banco's side bets (None where the game offers none).

    >>> from odds.rules.profiles import BUILTIN
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
    # What a seat that ties is paid per unit (the pay table's tie entry): 0, a push.
    ties: Fraction = Fraction(0)
    banker_pays: Fraction | None = None
    tie_pays: Fraction | None = None
    decks: int = 1
    base: str | None = None
    source: str = "built-in"
    notes: tuple[str, ...] = field(default=(), compare=False)
    # The bets the profile offers, by name (empty: its base's, see odds.rules.bet_library),
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
    # A cap per bonus payment in money at one stake (max_bonus): set by the commands that
    # take a stake (see at_stake); None: bonuses paid in full.
    bonus_limit: BonusLimit | None = None

    def __post_init__(self) -> None:
        if self.session is None:
            object.__setattr__(self, "session", Session())
        validate(self)

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
        """What a player Colon (Colon nine if ``nine``) is paid, or None if nothing.

        Under a :attr:`bonus_limit` (``max_bonus`` at a stake), the capped amount per unit.
        """
        paid = self.colon_nine if nine else self.colon
        if paid is None or self.bonus_limit is None:
            return paid
        return self.bonus_limit.pays(paid, self.win)

    def at_stake(self, stake: Fraction, max_bonus: Fraction | None = None) -> Profile:
        """The profile paid per unit at ``stake`` under ``max_bonus`` (None: the session's).

        A cap per bonus payment in money depends on the stake: a Colon 2:1 capped
        at 5000 pays 2 per unit at a stake of 100, 5/4 at a stake of 4000.
        Without a cap, the profile itself.

        >>> from odds.rules.profiles import BUILTIN
        >>> p = BUILTIN["standard"].at_stake(Fraction(4000), Fraction(5000))
        >>> p.player_multiplier(False), p.player_multiplier(True), p.colon, p.bonus_binds
        (Fraction(5, 4), Fraction(5, 4), Fraction(2, 1), True)
        >>> BUILTIN["standard"].at_stake(Fraction(1), Fraction(3)).bonus_binds
        False
        """
        if max_bonus is None:
            max_bonus = self.session.max_bonus
        if stake <= 0:
            raise ProfileError(not_a_stake("stake", Fraction(stake)))
        if max_bonus is None:
            return self
        if max_bonus <= 0:
            raise ProfileError(f"max_bonus: {max_bonus} must be more than 0")
        return replace(self, bonus_limit=BonusLimit(Fraction(max_bonus), Fraction(stake)))

    @property
    def bonus_binds(self) -> bool:
        """True when the :attr:`bonus_limit` lowers a player bonus at its stake."""
        return any(m is not None and self.player_multiplier(n) != m
                   for n, m in ((False, self.colon), (True, self.colon_nine)))

    def with_options(self, **options: Any) -> Profile:
        """A copy with options overridden; values may be strings as typed.

        >>> from odds.rules.profiles import BUILTIN
        >>> BUILTIN["standard"].with_options(naturals="compare", colon="5/2").colon
        Fraction(5, 2)
        >>> BUILTIN["standard"].with_options(colon="-1")
        Traceback (most recent call last):
        ...
        odds.rules.errors.ProfileError: option colon: -1 is negative (a payout must be 0 or more, ...)
        """
        return apply_options(self, options, where="option")

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


def apply_options(profile: Profile, options: Mapping[str, Any], where: str) -> Profile:
    """``profile`` with ``options`` parsed and set; an error starts with ``where``.

    Keys are option names (dashes or underscores), ``forced_draw`` or an
    information option; values are parsed by the option table.
    """
    changes: dict[str, Any] = {}
    forced = None
    for key, raw in options.items():
        name = key.replace("-", "_")
        if name == "forced_draw":
            forced = parse_bool(raw, f"{where} forced_draw")
            continue
        if name in INFORMATION_OPTIONS:
            label = f"{where} {name}"
            changes[name] = (None if raw is None else parse_bool(raw, label)) \
                if name == "bank_sees_third" else parse_sees(raw, label)
            continue
        opt = OPTIONS_BY_NAME.get(name)
        if opt is None:
            known = ", ".join(sorted([*OPTIONS_BY_NAME, "forced_draw", *INFORMATION_OPTIONS]))
            raise ProfileError(f"{where}: unknown option {excerpt(key)} (known: {known})")
        changes[opt.attr] = opt.parse(raw, f"{where} {name}")
    if forced:
        everything = DrawRule(frozenset(VALUES) - changes.get("naturals", profile.naturals))
        changes.update(player_draw=everything, bank_draw=everything)
    return replace(profile, **changes)


def validate(p: Profile) -> None:
    """Refuse a profile whose options contradict each other (a natural that draws, ...).

    Checks that span options; single values are also checked as they are parsed.
    """
    if not p.naturals <= frozenset(VALUES):
        raise ProfileError(f"natural_values: {sorted(p.naturals)} are not all hand values 0-9")
    if p.ties < -1:
        raise ProfileError(f"ties: {p.ties} is less than -1 (a seat that ties loses at most "
                           "its stake)")
    for opt in OPTIONS:
        value = getattr(p, opt.attr)
        if isinstance(value, Fraction) and value < 0 and opt.attr != "ties":
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
                    if row and not isinstance(row, MissingRow):
                        raise ProfileError(
                            f"{who}.tableau: {v} is a natural, and a natural never draws"
                        )
                elif isinstance(row, MissingRow):
                    raise ProfileError(
                        f"{who}.tableau: no entry for own value {v}: the rule leaves "
                        f"it undefined (give the third-card values that draw, or [])"
                    )
    if p.key == "" or not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", p.key):
        raise ProfileError(f"{p.key!r} is not a profile key (lower-case letters, digits, -)")
