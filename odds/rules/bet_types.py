"""Bets as data: a side and a pay table keyed on events of one round.

A :class:`Bet` pays the first of its :class:`Entry` lines whose
:class:`Condition` holds, and ``otherwise`` (a lost stake, -1) when none
does.  Every amount is the net result per unit stake, an exact rational: a
push is 0, a win at 11:1 is 11.  The events a condition can name are those
of one settled round (:class:`RoundEvents`):

- ``winner``: ``player``, ``banker`` or ``tie``, as the profile settles the
  round (Lucky 9's outright naturals included);
- ``player_natural`` / ``banker_natural``: true, false, or the natural
  values that count (``[9]``);
- ``player_final`` / ``banker_final``: final hand values;
- ``player_cards`` / ``banker_cards``: 2, or 3 after a draw;
- ``margin``: the difference of the final values (0 for a tie);
- ``player_pair`` / ``banker_pair``: the first two cards: ``rank`` (same
  rank), ``value`` (same point value, so 10-K too), ``colon`` (a Colon as
  the profile's ``colon_match`` says), ``suited`` (same rank and suit: a
  perfect pair), ``unsuited``, ``none`` (no pair by rank), or a rank
  (``9``: a pair of nines).

Only ``suited`` and ``unsuited`` need suits; the exact enumerator
(:mod:`odds.exact.bets`) counts suits only when a requested bet names them.

A condition looks at one thing of the rules, the profile's ``colon_match``
(:class:`PairRules`), so this module sits below the profile that lists its
bets.  Reading bets from a profile file is :mod:`odds.rules.bet_files`; the
built-in library :mod:`odds.rules.bet_library`; settling a dealt round
:mod:`odds.rules.bets` (docs/bets.md has the schema).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from odds.rules.cards import RANKS
from odds.rules.rule_types import ColonMatch

__all__ = [
    "NINE",
    "NO_PAIR",
    "PAIR_KINDS",
    "RANK_NAMES",
    "WINNERS",
    "Bet",
    "Condition",
    "Entry",
    "Pair",
    "PairRules",
    "RoundEvents",
    "pair_matches",
]

WINNERS = ("player", "banker", "tie")
PAIR_KINDS = ("rank", "value", "colon", "suited", "unsuited", "none")
RANK_NAMES = {rank.value: rank.index for rank in RANKS} | {"T": 9}
"""A rank as a pair kind names it (``A``, ``9``, ``10`` or ``T``, ``K``) -> its rank index."""
NINE = 8  # rank index of the 9


class PairRules(Protocol):
    """What a condition asks of the rules: how a Colon is matched (a Profile has it)."""

    @property
    def colon_match(self) -> ColonMatch: ...


# -- one settled round, as the events a bet can look at ------------------------


@dataclass(frozen=True)
class Pair:
    """What a hand's first two cards make: the pair rank and suit facts.

    ``rank`` is the rank index of a same-rank pair (None otherwise);
    ``value`` is True when the two cards have the same point value;
    ``suited`` is True/False for a same-rank pair when suits are known,
    None when they are not counted.
    """

    rank: int | None = None
    value: bool = False
    suited: bool | None = None


NO_PAIR = Pair()


@dataclass(frozen=True)
class RoundEvents:
    """The events of one settled round that bets are keyed on.

    >>> r = RoundEvents("banker", None, None, 4, 7, 3, 3, NO_PAIR, NO_PAIR)
    >>> r.margin
    3
    """

    winner: str
    player_natural: int | None  # the natural's value, None if not a natural
    banker_natural: int | None
    player_final: int
    banker_final: int
    player_cards: int
    banker_cards: int
    player_pair: Pair
    banker_pair: Pair

    @property
    def margin(self) -> int:
        """The difference of the final values."""
        return abs(self.player_final - self.banker_final)


# -- conditions, entries, bets ------------------------------------------------


@dataclass(frozen=True)
class Condition:
    """Events that must all hold; a field left None is not looked at.

    A natural field is True (any natural), False (not a natural) or the
    set of natural values that count.

    >>> c = Condition(winner="banker", banker_final=frozenset({7}), banker_cards=3)
    >>> c.holds(RoundEvents("banker", None, None, 4, 7, 3, 3, NO_PAIR, NO_PAIR), None)
    True
    """

    winner: str | None = None
    player_natural: bool | frozenset[int] | None = None
    banker_natural: bool | frozenset[int] | None = None
    player_final: frozenset[int] | None = None
    banker_final: frozenset[int] | None = None
    player_cards: int | None = None
    banker_cards: int | None = None
    margin: frozenset[int] | None = None
    player_pair: str | None = None
    banker_pair: str | None = None

    @property
    def round_events(self) -> bool:
        """True when the condition looks past the first two cards of each hand."""
        return any(
            getattr(self, name) is not None
            for name in ("winner", "player_natural", "banker_natural", "player_final",
                         "banker_final", "player_cards", "banker_cards", "margin")
        )

    @property
    def pair_events(self) -> bool:
        """True when the condition looks at pairs."""
        return self.player_pair is not None or self.banker_pair is not None

    @property
    def suits(self) -> bool:
        """True when the condition needs suits (a suited or unsuited pair)."""
        return bool({self.player_pair, self.banker_pair} & {"suited", "unsuited"})

    def holds(self, r: RoundEvents, profile: PairRules | None) -> bool:
        """Does the condition hold for round ``r`` (``profile`` for Colon pairs)?"""
        checks = self.__dict__.get("_checks")
        if checks is None:
            checks = self._compile()
        return all(test(r, profile) for test in checks)

    def _compile(self) -> tuple[_Test, ...]:
        """One test per field the condition sets, kept on the (frozen) instance."""
        tests: list[_Test] = []
        for name in ("winner", "player_cards", "banker_cards"):
            if getattr(self, name) is not None:
                tests.append(_equals(name, getattr(self, name)))
        for name in ("player_natural", "banker_natural"):
            want = getattr(self, name)
            if isinstance(want, bool):
                tests.append(_natural(name, want))
            elif want is not None:
                tests.append(_within(name, want))
        for name in ("player_final", "banker_final", "margin"):
            if getattr(self, name) is not None:
                tests.append(_within(name, getattr(self, name)))
        for name in ("player_pair", "banker_pair"):
            if getattr(self, name) is not None:
                tests.append(_pair_test(name, getattr(self, name)))
        checks = tuple(tests)
        object.__setattr__(self, "_checks", checks)
        return checks

    def __getstate__(self) -> dict[str, Any]:
        # The compiled tests are closures: not pickled (a study's plan goes to other processes).
        state = dict(self.__dict__)
        state.pop("_checks", None)
        return state

    def describe(self) -> str:
        """The condition in words, e.g. ``winner banker, banker cards 3``."""
        parts = []
        for name in Condition.__dataclass_fields__:
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, frozenset):
                value = ",".join(str(v) for v in sorted(value))
            elif isinstance(value, bool):
                value = "yes" if value else "no"
            parts.append(f"{name.replace('_', ' ')} {value}")
        return ", ".join(parts) or "always"


_Test = Callable[[RoundEvents, PairRules | None], bool]


def _equals(name: str, want: object) -> _Test:
    def test(r: RoundEvents, _: PairRules | None) -> bool:
        return bool(getattr(r, name) == want)
    return test


def _within(name: str, want: frozenset[int]) -> _Test:
    def test(r: RoundEvents, _: PairRules | None) -> bool:
        return getattr(r, name) in want
    return test


def _natural(name: str, want: bool) -> _Test:
    def test(r: RoundEvents, _: PairRules | None) -> bool:
        return (getattr(r, name) is not None) == want
    return test


def _pair_test(name: str, kind: str) -> _Test:
    def test(r: RoundEvents, profile: PairRules | None) -> bool:
        return pair_matches(kind, getattr(r, name), profile)
    return test


def pair_matches(kind: str, pair: Pair, profile: PairRules | None) -> bool:
    """Does a hand's pair facts match a pair kind (``rank``, ``suited``, ``9``, ...)?

    >>> pair_matches("9", Pair(NINE, True, None), None), pair_matches("none", NO_PAIR, None)
    (True, True)
    """
    if kind == "rank":
        return pair.rank is not None
    if kind == "value":
        return pair.value
    if kind == "none":
        return pair.rank is None
    if kind == "colon":
        by_value = profile is not None and profile.colon_match is ColonMatch.VALUE
        return pair.value if by_value else pair.rank is not None
    if kind in ("suited", "unsuited"):
        if pair.rank is None:
            return False
        assert pair.suited is not None, "suits were not counted for a suited bet"
        return pair.suited == (kind == "suited")
    return pair.rank == RANK_NAMES[kind]


@dataclass(frozen=True)
class Entry:
    """One line of a pay table: when ``condition`` holds the bet nets ``pays``."""

    condition: Condition
    pays: Fraction
    label: str = ""

    @property
    def name(self) -> str:
        """The label, or the condition in words."""
        return self.label or self.condition.describe()


@dataclass(frozen=True)
class Bet:
    """A bet: the side it is placed on and its pay table, first match paying.

    >>> from odds.rules.bet_library import BETS
    >>> bet = BETS["dragon-7"]
    >>> bet.side, [e.pays for e in bet.entries], bet.otherwise
    ('banker', [Fraction(40, 1)], Fraction(-1, 1))
    >>> bet.uses_round, bet.uses_pairs, bet.uses_suits
    (True, False, False)
    """

    name: str
    description: str
    side: str
    entries: tuple[Entry, ...]
    otherwise: Fraction = Fraction(-1)
    source: str = field(default="built-in", compare=False)

    @property
    def uses_round(self) -> bool:
        """True when some entry looks past the first two cards."""
        return any(e.condition.round_events for e in self.entries)

    @property
    def uses_pairs(self) -> bool:
        """True when some entry looks at pairs."""
        return any(e.condition.pair_events for e in self.entries)

    @property
    def uses_suits(self) -> bool:
        """True when some entry needs suits."""
        return any(e.condition.suits for e in self.entries)

    def pays(self, r: RoundEvents, profile: PairRules | None = None) -> Fraction:
        """The net result per unit stake of this bet for round ``r``."""
        for entry in self.entries:
            if entry.condition.holds(r, profile):
                return entry.pays
        return self.otherwise

    def entry_of(self, r: RoundEvents, profile: PairRules | None = None) -> int:
        """Index of the entry that settles ``r`` (``len(entries)``: otherwise)."""
        for i, entry in enumerate(self.entries):
            if entry.condition.holds(r, profile):
                return i
        return len(self.entries)
