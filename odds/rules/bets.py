"""Bets as data: a side and a pay table keyed on events of one round.

A :class:`Bet` pays the first of its :class:`Entry` lines whose
:class:`Condition` holds, and ``otherwise`` (a lost stake, -1) when none
does.  Every amount is the net result per unit stake, an exact rational: a
push is 0, a win at 11:1 is 11.  The events a condition can name are those
of one settled round (:class:`Round`):

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

The built-in library is :data:`BETS`; a profile lists the bets it offers
(:func:`profile_bets`), and a profile file may define new ones in ``[bet.NAME]``
tables (docs/bets.md has the schema).

One module, though long: the events, their parsing from files, the
built-in library and settling a dealt round share one vocabulary, and a
reader checks a built-in bet against the event definitions on one page.

One piece on purpose (about 800 lines): the event schema, its parser from
TOML and the built-in library are one definition of what a bet is, as
:mod:`odds.rules.profiles` is of a rule.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from odds.rules.cards import RANKS, Card, parse_cards
from odds.rules.profiles import (
    BonusOn,
    ColonMatch,
    Profile,
    ProfileError,
    as_profile,
    register_bets_loader,
)
from odds.rules.textio import excerpt

__all__ = [
    "BETS",
    "Bet",
    "BetError",
    "Condition",
    "Entry",
    "Round",
    "bet_from_data",
    "bet_payout",
    "bets_from_data",
    "check_bet",
    "main_bet",
    "profile_bets",
    "resolve_bets",
    "round_of_cards",
]

VALUES = range(10)
WINNERS = ("player", "banker", "tie")
PAIR_KINDS = ("rank", "value", "colon", "suited", "unsuited", "none")
_RANK_NAMES = {rank.value: rank.index for rank in RANKS} | {"T": 9}
NINE = 8  # rank index of the 9


class BetError(ProfileError):
    """A bet, pay table or bet name that cannot be used."""


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
class Round:
    """The events of one settled round that bets are keyed on.

    >>> r = Round("banker", None, None, 4, 7, 3, 3, NO_PAIR, NO_PAIR)
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
    >>> c.holds(Round("banker", None, None, 4, 7, 3, 3, NO_PAIR, NO_PAIR), None)
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

    def holds(self, r: Round, profile: Profile | None) -> bool:
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


_Test = Callable[[Round, "Profile | None"], bool]


def _equals(name: str, want: object) -> _Test:
    def test(r: Round, _: Profile | None) -> bool:
        return bool(getattr(r, name) == want)
    return test


def _within(name: str, want: frozenset[int]) -> _Test:
    def test(r: Round, _: Profile | None) -> bool:
        return getattr(r, name) in want
    return test


def _natural(name: str, want: bool) -> _Test:
    def test(r: Round, _: Profile | None) -> bool:
        return (getattr(r, name) is not None) == want
    return test


def _pair_test(name: str, kind: str) -> _Test:
    def test(r: Round, profile: Profile | None) -> bool:
        return pair_matches(kind, getattr(r, name), profile)
    return test


def pair_matches(kind: str, pair: Pair, profile: Profile | None) -> bool:
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
    return pair.rank == _RANK_NAMES[kind]


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

    def pays(self, r: Round, profile: Profile | None = None) -> Fraction:
        """The net result per unit stake of this bet for round ``r``."""
        for entry in self.entries:
            if entry.condition.holds(r, profile):
                return entry.pays
        return self.otherwise

    def entry_of(self, r: Round, profile: Profile | None = None) -> int:
        """Index of the entry that settles ``r`` (``len(entries)``: otherwise)."""
        for i, entry in enumerate(self.entries):
            if entry.condition.holds(r, profile):
                return i
        return len(self.entries)


# -- parsing bets from data (profile files) ------------------------------------

_CONDITION_KEYS = tuple(Condition.__dataclass_fields__)
_ENTRY_KEYS = {"pays", "label"}
_BET_KEYS = {"description", "side", "pay", "otherwise"}
SIDES = ("player", "banker", "tie", "either", "both")


def _key(name: str) -> str:
    return re.sub(r"^bank_", "banker_", name.replace("-", "_"))


def _amount(raw: Any, where: str) -> Fraction:
    if isinstance(raw, bool):
        raise BetError(f"{where}: {excerpt(raw)} is not a number")
    if isinstance(raw, (int, Fraction)):
        return Fraction(raw)
    if isinstance(raw, float):
        if not math.isfinite(raw):
            raise BetError(f"{where}: {excerpt(raw)} is not a finite number (write 11, 1.5, 3/2 or -1)")
        return Fraction(repr(raw))
    if isinstance(raw, str) and re.fullmatch(r"\s*-?\d+(\.\d+)?(/\d+)?\s*", raw):
        try:
            return Fraction(raw.strip())
        except ZeroDivisionError:
            raise BetError(f"{where}: {excerpt(raw)} divides by zero") from None
    raise BetError(f"{where}: {excerpt(raw)} is not a number (write 11, 1.5, 3/2 or -1)")


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
    odds.rules.bets.BetError: test.player_final: 10 is impossible (it runs 0-9)
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
            elif word.upper() in _RANK_NAMES:
                values[key] = RANKS[_RANK_NAMES[word.upper()]].value
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

    >>> from odds.rules.profiles import BUILTIN
    >>> check_bet(BETS["dragon-7"], BUILTIN["punto-banco"])
    >>> bad = bet_from_data("x", {"pay": [{"player_natural": [7], "pays": 5}]}, "f.toml")
    >>> check_bet(bad, BUILTIN["punto-banco"])
    Traceback (most recent call last):
    ...
    odds.rules.bets.BetError: in f.toml: bet.x.pay[1].player_natural: 7 is not a natural under ...
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


# -- settling one dealt round --------------------------------------------------


def _pair_of(a: Card, b: Card, suits: bool) -> Pair:
    if a.rank is b.rank:
        suited = None
        if suits:
            if a.suit is None or b.suit is None:
                raise BetError(
                    f"the pair {a} {b} has no suits, but the bet needs them (write 9h 9h)"
                )
            suited = a.suit is b.suit
        return Pair(a.rank.index, True, suited)
    return Pair(None, a.points == b.points, None)


def round_of_cards(
    profile: Profile, player: Sequence[Card] | str, bank: Sequence[Card] | str,
    suits: bool = False,
) -> Round:
    """The events of a dealt round from both hands' cards (2 or 3 each, in deal order).

    The cards must follow the profile's draw rules (a third card only where
    the hand draws); ``suits`` asks for suited/unsuited pairs.

    >>> from odds.rules.profiles import BUILTIN
    >>> r = round_of_cards(BUILTIN["punto-banco"], "Kh 4s 6d", "5c Kd 2h")
    >>> r.winner, r.banker_final, r.banker_cards
    ('banker', 7, 3)
    """
    from odds.rules.settle import Outcome, category

    p = parse_cards(player) if isinstance(player, str) else tuple(player)
    b = parse_cards(bank) if isinstance(bank, str) else tuple(bank)
    for cards, who in ((p, "player"), (b, "banker")):
        if len(cards) not in (2, 3):
            raise BetError(f"the {who} hand has {len(cards)} cards; a dealt hand has 2 or 3")
    pv = (p[0].points + p[1].points) % 10
    bv = (b[0].points + b[1].points) % 10
    player_rule, bank_rule = profile.player_draw, profile.bank_draw
    if player_rule is None or bank_rule is None:
        raise BetError(f"profile {profile.key!r} has no fixed draw rule: bets need one")
    stop = profile.naturals_stop_draws and (pv in profile.naturals or bv in profile.naturals)
    p_draws = not stop and pv not in profile.naturals and player_rule.decide(pv, None)
    x = p[2].points if len(p) == 3 else None
    b_draws = not stop and bv not in profile.naturals and bank_rule.decide(bv, x)
    if (len(p) == 3) != p_draws or (len(b) == 3) != b_draws:
        raise BetError(
            f"player {' '.join(map(str, p))}, banker {' '.join(map(str, b))} "
            f"cannot be dealt under profile {profile.key!r} (its draw rules "
            f"say the player {'draws' if p_draws else 'stands'})"
            if (len(p) == 3) != p_draws else
            f"player {' '.join(map(str, p))}, banker {' '.join(map(str, b))} "
            f"cannot be dealt under profile {profile.key!r} (its draw rules "
            f"say the banker {'draws' if b_draws else 'stands'})"
        )
    pf = sum(c.points for c in p) % 10
    bf = sum(c.points for c in b) % 10
    outcome = category(profile, pv, bv, pf, bf)[0]
    winner = {Outcome.WIN: "player", Outcome.LOSS: "banker", Outcome.PUSH: "tie"}[outcome]
    return Round(
        winner,
        pv if pv in profile.naturals else None,
        bv if bv in profile.naturals else None,
        pf, bf, len(p), len(b),
        _pair_of(p[0], p[1], suits), _pair_of(b[0], b[1], suits),
    )


def bet_payout(
    profile: Profile | str, bet: Bet | str, player: Sequence[Card] | str, bank: Sequence[Card] | str
) -> Fraction:
    """The exact net payout per unit stake of a bet for one dealt round.

    ``player`` and ``bank`` are the hands as dealt (2 or 3 cards each).
    This is what ``lucky9 verify`` checks a ``bet:NAME`` column against.

    >>> from odds.rules.profiles import BUILTIN
    >>> pb = BUILTIN["punto-banco"]
    >>> bet_payout(pb, "dragon-7", "Kh 4s 6d", "5c Kd 2h")
    Fraction(40, 1)
    >>> bet_payout(pb, "ez-banker", "Kh 4s 6d", "5c Kd 2h"), bet_payout(pb, "perfect-pair", "9h 9h", "Ac 2c")
    (Fraction(0, 1), Fraction(25, 1))
    """
    profile = as_profile(profile)
    chosen = resolve_bets(profile, [bet])[0] if isinstance(bet, str) else bet
    check_bet(chosen, profile)
    r = round_of_cards(profile, player, bank, suits=chosen.uses_suits)
    return chosen.pays(r, profile)


# -- the built-in library ---------------------------------------------------------


def _c(**events: Any) -> Condition:
    return condition_from_data(events, "built-in")


def _e(pays: Fraction | int, label: str, **events: Any) -> Entry:
    return Entry(_c(**events), Fraction(pays), label)


def _dragon_bonus(side: str) -> Bet:
    # Wizard of Odds, Baccarat Side Bets (wizardofodds.com/games/baccarat/appendix/5/):
    # natural win 1, natural tie push, non-natural win by 9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1.
    nat = f"{side}_natural"
    entries = [
        _e(1, "natural win", winner=side, **{nat: True}),
        _e(0, "natural tie (push)", winner="tie", player_natural=True, banker_natural=True),
    ]
    for margin, pays in ((9, 30), (8, 10), (7, 6), (6, 4), (5, 2), (4, 1)):
        entries.append(_e(pays, f"win by {margin}", winner=side, margin=margin))
    return Bet(
        f"dragon-bonus-{side}",
        f"Dragon Bonus on the {side}: a natural win pays 1:1 (natural tie pushes), a "
        "non-natural win by 9 pays 30:1, 8 10:1, 7 6:1, 6 4:1, 5 2:1, 4 1:1 (pay table: "
        "Wizard of Odds, Baccarat Side Bets)",
        side, tuple(entries),
    )


BETS: dict[str, Bet] = {
    bet.name: bet
    for bet in (
        Bet("player", "even money on the player hand, a tie pushes (punto-banco; "
            "Lucky 9 profiles: use the seat bet of 'lucky9 odds')",
            "player", (_e(1, "player wins", winner="player"), _e(0, "tie (push)", winner="tie"))),
        Bet("banker", "the banker hand at 19:20 (5% commission), a tie pushes "
            "(standard punto-banco table)",
            "banker", (_e(Fraction(19, 20), "banker wins", winner="banker"),
                       _e(0, "tie (push)", winner="tie"))),
        Bet("tie", "a tie pays 8:1 (standard punto-banco table)", "tie",
            (_e(8, "tie", winner="tie"),)),
        Bet("player-pair", "the player's first two cards are a pair by rank, 11:1 "
            "(Wizard of Odds, baccarat pair bets; E. Jacobson, The Pairs bet)",
            "player", (_e(11, "player pair", player_pair="rank"),)),
        Bet("banker-pair", "the banker's first two cards are a pair by rank, 11:1 "
            "(Wizard of Odds, baccarat pair bets; E. Jacobson, The Pairs bet)",
            "banker", (_e(11, "banker pair", banker_pair="rank"),)),
        Bet("either-pair", "either hand's first two cards are a pair by rank, 5:1 "
            "(Wizard of Odds, Baccarat Side Bets: Either Pair)",
            "either", (_e(5, "player pair", player_pair="rank"),
                       _e(5, "banker pair", banker_pair="rank"))),
        Bet("perfect-pair", "a suited pair (same rank and suit) in either hand's first two "
            "cards 25:1, in both 250:1 (Wizard of Odds, Perfect Pairs version 2, the "
            "Evolution Gaming pay table)",
            "either", (_e(250, "both perfect pairs", player_pair="suited", banker_pair="suited"),
                       _e(25, "player perfect pair", player_pair="suited"),
                       _e(25, "banker perfect pair", banker_pair="suited"))),
        _dragon_bonus("player"),
        _dragon_bonus("banker"),
        Bet("dragon-7", "the banker wins with a three-card 7, 40:1 (EZ Baccarat; Wizard of "
            "Odds, EZ Baccarat)",
            "banker", (_e(40, "banker wins with a 3-card 7", winner="banker",
                          banker_final=7, banker_cards=3),)),
        Bet("panda-8", "the player wins with a three-card 8, 25:1 (EZ Baccarat; Wizard of "
            "Odds, EZ Baccarat)",
            "player", (_e(25, "player wins with a 3-card 8", winner="player",
                          player_final=8, player_cards=3),)),
        Bet("ez-banker", "the banker at even money, no commission, but a banker win with a "
            "three-card 7 pushes; a tie pushes (EZ Baccarat; Wizard of Odds, EZ Baccarat)",
            "banker", (_e(0, "banker wins, 3-card 7 (push)", winner="banker",
                          banker_final=7, banker_cards=3),
                       _e(1, "banker wins", winner="banker"),
                       _e(0, "tie (push)", winner="tie"))),
        Bet("colon", "Lucky 9: the player's first two cards are a Colon (as the profile's "
            "colon_match says; a pair of nines too), paid 2:1 as a separate stake, whatever "
            "the round (the default Colon multiplier of RULES.md, section 3.6)",
            "player", (_e(2, "player Colon", player_pair="colon"),)),
        Bet("colon-nine", "Lucky 9: the player's first two cards are a pair of nines, paid "
            "3:1 as a separate stake (the default Colon nine multiplier of RULES.md, "
            "section 3.6)",
            "player", (_e(3, "player Colon nine", player_pair="9"),)),
    )
}

# The bets each built-in profile offers; other profiles offer the seat bet only.
PROFILE_BETS: dict[str, tuple[str, ...]] = {
    "punto-banco": ("player", "banker", "tie", "player-pair", "banker-pair", "either-pair",
                    "perfect-pair", "dragon-bonus-player", "dragon-bonus-banker"),
    "ez-baccarat": ("player", "ez-banker", "tie", "dragon-7", "panda-8"),
    "standard": ("player", "colon", "colon-nine"),
    "forced-draw": ("player", "colon", "colon-nine"),
    "super9": ("player", "colon", "colon-nine"),
    "plain": ("player",),
}


def main_bet(profile: Profile) -> Bet:
    """The seat's own bet under a Lucky 9 profile's pay table, as data.

    A winning Colon is paid its multiplier (a Colon nine its own), or
    whatever the comparison with ``bonus_on = always``; with ``bank_bonus``
    a bank Colon that wins collects its multiplier.  The same payouts as
    :meth:`odds.exact.results.RoundOdds.payout_distribution` for ``player``.

    >>> from odds.rules.profiles import BUILTIN
    >>> [(e.label, e.pays) for e in main_bet(BUILTIN["standard"]).entries][:2]
    [('player Colon nine', Fraction(3, 1)), ('player Colon', Fraction(2, 1))]
    """
    entries: list[Entry] = []
    when = {} if profile.bonus_on is BonusOn.ALWAYS else {"winner": "player"}
    nine, colon = profile.player_multiplier(True), profile.player_multiplier(False)
    if nine is not None:
        entries.append(_e(nine, "player Colon nine", player_pair="9", **when))
    if colon is not None:
        entries.append(_e(colon, "player Colon", player_pair="colon", **when))
    entries.append(_e(profile.win, "player wins", winner="player"))
    entries.append(_e(0, "push", winner="tie"))
    bank_nine, bank_colon = profile.bank_multiplier(True), profile.bank_multiplier(False)
    if bank_nine is not None:
        entries.append(_e(-bank_nine, "bank Colon nine wins", winner="banker", banker_pair="9"))
    if bank_colon is not None:
        entries.append(_e(-bank_colon, "bank Colon wins", winner="banker", banker_pair="colon"))
    bonus_text = ", with the profile's Colon bonuses (docs/rules.md)" if profile.bonuses else ""
    return Bet("player", f"the player seat at the profile's pay table: a win pays "
               f"{profile.win.numerator}:{profile.win.denominator}, a tie pushes{bonus_text}",
               "player", tuple(entries))


def profile_bets(profile: Profile | str) -> dict[str, Bet]:
    """The bets a profile offers, by name, in table order.

    Lucky 9 profiles offer the seat bet (``player``, with the profile's
    Colon pay table) and the Colon side bets; punto-banco and ez-baccarat
    their casino bets; a profile file adds its own ``[bet.NAME]`` tables.

    >>> from odds.rules.profiles import BUILTIN
    >>> list(profile_bets(BUILTIN["ez-baccarat"]))
    ['player', 'ez-banker', 'tie', 'dragon-7', 'panda-8']
    """
    profile = as_profile(profile)
    names = profile.bets if profile.bets else PROFILE_BETS.get(
        profile.base or profile.key, PROFILE_BETS.get(profile.key, ("player",)))
    defined = {bet.name: bet for bet in profile.bet_defs}
    out = {}
    for name in names:
        out[name] = _lookup(profile, name, defined)
    for name, bet in defined.items():
        out.setdefault(name, bet)
    return out


def _lookup(profile: Profile, name: str, defined: Mapping[str, Bet]) -> Bet:
    if name in defined:
        return defined[name]
    if name == "player":
        # The player bet is the seat's own: the profile's win and Colon entries.
        return main_bet(profile)
    bet = BETS.get(name)
    if bet is None:
        raise BetError(
            f"unknown bet {name!r} (built-in: {', '.join(BETS)}; profile {profile.key!r} "
            f"defines {', '.join(defined) or 'none'}; or 'all')"
        )
    if name == "banker" and profile.banker_pays is not None:
        bet = _with_pay(bet, 0, profile.banker_pays)
    if name == "tie" and profile.tie_pays is not None:
        bet = _with_pay(bet, 0, profile.tie_pays)
    return bet


def _with_pay(bet: Bet, index: int, pays: Fraction) -> Bet:
    entries = list(bet.entries)
    entries[index] = Entry(entries[index].condition, pays, entries[index].label)
    return Bet(bet.name, bet.description, bet.side, tuple(entries), bet.otherwise, bet.source)


def resolve_bets(profile: Profile, names: Iterable[str | Bet]) -> list[Bet]:
    """Bets by name (``all``: every bet of the profile), checked against the profile.

    Any built-in bet may be named, offered by the profile or not.

    >>> from odds.rules.profiles import BUILTIN
    >>> [b.name for b in resolve_bets(BUILTIN["punto-banco"], ["tie", "dragon-7"])]
    ['tie', 'dragon-7']
    >>> resolve_bets(BUILTIN["punto-banco"], ["dragon-8"])
    Traceback (most recent call last):
    ...
    odds.rules.bets.BetError: unknown bet 'dragon-8' (built-in: player, banker, ...; or 'all')
    """
    offered = profile_bets(profile)
    defined = {bet.name: bet for bet in profile.bet_defs}
    out: dict[str, Bet] = {}
    for item in names:
        if isinstance(item, Bet):
            out[item.name] = item
            continue
        name = item.strip().lower()
        if name == "all":
            out.update(offered)
            continue
        out[name] = offered[name] if name in offered else _lookup(profile, name, defined)
    for bet in out.values():
        check_bet(bet, profile)
    return list(out.values())


def _with_bets(profile: Profile, data: Mapping[str, Any], source: str) -> Profile:
    """The profile with the file's ``bets`` list and ``[bet.NAME]`` tables."""
    defs = bets_from_data(data.get("bet", {}), source)
    names = data.get("bets")
    if names is not None:
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ProfileError(f"in {source}: bets must be a list of bet names")
        names = tuple(n.strip().lower() for n in names)
    else:
        names = ()
    profile = replace(profile, bets=names, bet_defs=defs)
    for bet in defs:
        check_bet(bet, profile)
    try:
        profile_bets(profile)
    except ProfileError as exc:
        raise ProfileError(f"in {source}: bets: {exc}") from None
    return profile


register_bets_loader(_with_bets)
