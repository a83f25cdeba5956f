"""Pay tables: symbolic payouts, break-even multipliers and side-by-side tables.

The engine's counts do not depend on the pay table (a round's *pay entry*
does: see :mod:`odds.rules.settle`), so the seat's net payout is a sum of count
times amount over the pay entries, and any amount may be a sympy symbol.
The expected value is then linear in each multiplier and the variance
quadratic, both exact.  Punto-banco's banker and tie bets are settled from
the outcome counts alone.

This module imports sympy; ``odds/__init__`` does not import it, so
``lucky9 odds`` starts without sympy.

The bank's edge per unit staked is the negative of a seat's expected
value.  At a table of N players, each staking one unit, the bank's expected
take per round is N times the seat figure: under a fixed-rule profile every
seat has the heads-up figures whatever N and its position (see
:mod:`odds.exact.engine`), and expectations add even though the seats share the
bank's hand.  (Variances do not add: the seats are correlated.)
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import sympy  # type: ignore[import-untyped]

from odds.exact.results import RoundOdds
from odds.rules.errors import ProfileError
from odds.rules.profile import Profile
from odds.rules.settle import Outcome, Pay, amount, bet_amount, category_outcome, pay_lines

__all__ = [
    "PAY_ENTRIES",
    "TABLE_OPTIONS",
    "BreakEven",
    "PayoutError",
    "SymbolicPayout",
    "TableFigures",
    "apply_table",
    "bank_edge",
    "break_even",
    "compare_tables",
    "entry_bet",
    "parse_table",
    "pay_table",
    "sqrt_decimal",
    "symbolic_payout",
]

# The pay-table entries that can be made symbols: profile option names.
PAY_ENTRIES: dict[str, str] = {
    "win": "what an ordinary win pays the player seat",
    "colon": "what a player Colon is paid",
    "colon_nine": "what a player Colon nine is paid",
    "bank_colon": "what a bank Colon collects (with bank_bonus)",
    "bank_colon_nine": "what a bank Colon nine collects (with bank_bonus)",
    "banker_pays": "what punto-banco's banker bet wins",
    "tie_pays": "what punto-banco's tie bet wins",
}
# Options a candidate pay table may set: the entries and when they are paid.
# None of them changes the engine's counts, only how a round is settled.
TABLE_OPTIONS = (*PAY_ENTRIES, "bonus_on", "bank_bonus")

Expr = Any  # a sympy expression (sympy ships no type hints mypy can use)


class PayoutError(ValueError):
    """A pay-table entry, symbol or candidate table that cannot be used."""


def entry_bet(entry: str) -> str:
    """The bet whose payout an entry settles: ``player``, ``banker`` or ``tie``.

    >>> entry_bet("colon_nine"), entry_bet("tie_pays")
    ('player', 'tie')
    """
    _check_entry(entry)
    return {"banker_pays": "banker", "tie_pays": "tie"}.get(entry, "player")


def _check_entry(entry: str) -> None:
    if entry not in PAY_ENTRIES:
        raise PayoutError(
            f"{entry!r} is not a pay-table entry (entries: {', '.join(PAY_ENTRIES)})"
        )


def pay_table(profile: Profile) -> dict[str, Fraction]:
    """The entries in force under ``profile``, resolved, in table order.

    A bank Colon entry without its own value collects the players' multiplier.

    >>> from odds.rules.profiles import BUILTIN
    >>> pay_table(BUILTIN["standard"])
    {'win': Fraction(1, 1), 'colon': Fraction(2, 1), 'colon_nine': Fraction(3, 1)}
    >>> pay_table(BUILTIN["punto-banco"])["banker_pays"]
    Fraction(19, 20)
    """
    values: dict[str, Fraction | None] = {
        "win": profile.win,
        "colon": profile.player_multiplier(False),  # under max_bonus: per unit at the stake
        "colon_nine": profile.player_multiplier(True),
        "bank_colon": profile.bank_multiplier(False),
        "bank_colon_nine": profile.bank_multiplier(True),
        "banker_pays": profile.banker_pays,
        "tie_pays": profile.tie_pays,
    }
    return {k: v for k, v in values.items() if v is not None}


def _structure(profile: Profile, symbols: Sequence[str]) -> Profile:
    """``profile`` with every symbolised entry present in its pay table.

    An entry the profile does not pay (``colon = none``) gets a placeholder
    value, so that the rounds it settles are routed to it; the amount itself
    comes from the symbol.
    """
    changes: dict[str, Any] = {}
    for name in symbols:
        _check_entry(name)
        if name in ("banker_pays", "tie_pays") and getattr(profile, name) is None:
            raise PayoutError(
                f"{name} is not in the pay table of profile {profile.key!r}: "
                "only punto-banco style profiles offer the banker and tie bets"
            )
        if name in ("bank_colon", "bank_colon_nine"):
            if not profile.bank_bonus:
                raise PayoutError(
                    f"{name} is not in the pay table of profile {profile.key!r}: "
                    "its bank collects nothing extra on a Colon (set bank_bonus on)"
                )
            if profile.bank_multiplier(name == "bank_colon_nine") is None:
                changes[name] = Fraction(1)
        if name in ("colon", "colon_nine") and getattr(profile, name) is None:
            changes[name] = Fraction(1)
    return replace(profile, **changes) if changes else profile


def _rational(value: Fraction) -> Expr:
    return sympy.Rational(value.numerator, value.denominator)


def _to_fraction(value: Expr) -> Fraction:
    if not isinstance(value, sympy.Rational):
        raise PayoutError(f"{value} is not a number: give a value for every symbol in it")
    return Fraction(int(value.p), int(value.q))


# The option each pay line's amount is (a bank line with no value: the players' multiplier).
_LINE_OPTION = {Pay.WIN: "win", Pay.COLON: "colon", Pay.COLON_NINE: "colon_nine",
                Pay.BANK_COLON: "bank_colon", Pay.BANK_COLON_NINE: "bank_colon_nine"}


def _amounts(profile: Profile, structure: Profile, syms: Mapping[str, Expr]) -> dict[Pay, Expr]:
    """Each player pay entry's net amount (odds.rules.settle's), symbols where asked for."""
    amounts: dict[Pay, Expr] = {}
    for pay in pay_lines(structure):
        name = _LINE_OPTION.get(pay, "")
        if name.startswith("bank_") and name not in syms and getattr(profile, name) is None:
            name = name.removeprefix("bank_")
        if name in syms:  # what a bank Colon collects, the seat pays
            amounts[pay] = -syms[name] if pay in (Pay.BANK_COLON, Pay.BANK_COLON_NINE) \
                else syms[name]
        else:
            amounts[pay] = _rational(amount(profile, pay))
    return amounts


def _terms(result: RoundOdds, bet: str, symbols: Sequence[str]) -> list[tuple[int, Expr]]:
    """(count of sequences, net amount) pairs of a bet, amounts symbolic where asked."""
    profile = result.profile
    structure = _structure(profile, symbols)
    syms = {name: sympy.Symbol(name) for name in symbols}
    if bet == "player":
        amounts = _amounts(profile, structure, syms)
        counts = replace(result, profile=structure).pay_counts()
        return [(count, amounts[entry]) for entry, count in counts.items()]
    if bet not in result.bets:
        raise PayoutError(
            f"{bet!r} is not a bet of profile {profile.key!r} (bets: {', '.join(result.bets)})"
        )
    name = f"{bet}_pays"
    raw = getattr(profile, name)
    assert raw is not None
    pays = syms.get(name, _rational(raw))
    # The banker bet wins when the player seat loses; the tie bet on a push.
    paid = Outcome.LOSS if bet == "banker" else Outcome.PUSH
    table = {o: pays if o is paid else _rational(bet_amount(profile, bet, o, 0, 0))
             for o in Outcome}
    by_outcome: dict[Outcome, int] = dict.fromkeys(Outcome, 0)
    for key, count in result.outcome_counts.items():
        by_outcome[category_outcome(key[4])] += count
    return [(by_outcome[o], table[o]) for o in Outcome]


@dataclass(frozen=True)
class SymbolicPayout:
    """A bet's exact expected net payout and variance per unit stake.

    ``expected_value`` and ``variance`` are sympy expressions in the symbols
    named in ``symbols`` (sympy ``Rational`` when there are none); ``values``
    holds the profile's own value of each symbolised entry (None where the
    profile does not pay it).
    """

    bet: str
    symbols: tuple[str, ...]
    expected_value: Expr
    variance: Expr
    values: dict[str, Fraction | None]

    def at(self, **values: Fraction | int | str) -> tuple[Fraction, Fraction]:
        """Expected value and variance with every symbol given a value.

        >>> from odds import BUILTIN, Shoe, round_odds
        >>> r = round_odds(BUILTIN["standard"], Shoe.packs_of(1))
        >>> s = symbolic_payout(r, ["colon"])
        >>> s.at(colon=2) == r.bet_moments()
        True
        """
        missing = [s for s in self.symbols if s not in values]
        unknown = [s for s in values if s not in self.symbols]
        if missing or unknown:
            raise PayoutError(
                f"give a value for each symbol ({', '.join(self.symbols) or 'none'}); "
                + (f"missing: {', '.join(missing)}" if missing else
                   f"not a symbol here: {', '.join(unknown)}")
            )
        subs = {sympy.Symbol(k): _rational(Fraction(v)) for k, v in values.items()}
        ev = self.expected_value.subs(subs)
        var = self.variance.subs(subs)
        return _to_fraction(ev), _to_fraction(var)


def symbolic_payout(
    result: RoundOdds, symbols: Iterable[str] = (), bet: str | None = None
) -> SymbolicPayout:
    """A bet's EV and variance with the named pay-table entries as symbols.

    ``bet`` defaults to the bet the symbols settle (``player`` without
    symbols); all symbols must belong to that bet.  An entry the profile
    does not pay (``colon = none``) is added to its pay table as a symbol.

    >>> from odds import BUILTIN, Shoe, round_odds
    >>> r = round_odds(BUILTIN["plain"], Shoe.packs_of(1))
    >>> s = symbolic_payout(r, ["win"])
    >>> s.expected_value
    103960291*win/229033350 - 103960291/229033350
    >>> symbolic_payout(r, ["colonn"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    odds.money.payout.PayoutError: 'colonn' is not a pay-table entry (entries: win, colon, ...)
    """
    names = tuple(dict.fromkeys(symbols))
    for name in names:
        _check_entry(name)
    bets = {entry_bet(name) for name in names}
    if bet is None:
        bet = bets.pop() if len(bets) == 1 else "player"
        if bets:
            raise PayoutError(
                f"symbols {', '.join(names)} settle different bets: give them one at a time"
            )
    for name in names:
        if entry_bet(name) != bet:
            raise PayoutError(
                f"{name} does not settle the {bet} bet (it settles {entry_bet(name)})"
            )
    terms = _terms(result, bet, names)
    total = result.total
    ev = sympy.expand(sum((count * amount for count, amount in terms), sympy.Integer(0)) / total)
    second = sum((count * amount**2 for count, amount in terms), sympy.Integer(0)) / total
    var = sympy.expand(second - ev**2)
    values = {name: getattr(result.profile, name) for name in names}
    return SymbolicPayout(bet, names, ev, var, values)


@dataclass(frozen=True)
class BreakEven:
    """The value of one entry that makes its bet's expected value exactly 0.

    ``value`` is None when the expected value does not depend on the entry;
    then ``always`` says whether it is 0 anyway (every value is fair).
    ``value`` is an expression when other entries were left as symbols.
    """

    entry: str
    bet: str
    value: Expr | None
    always: bool
    others: tuple[str, ...]

    @property
    def fraction(self) -> Fraction | None:
        """The break-even value as a Fraction (None if symbolic or none)."""
        if self.value is None or not isinstance(self.value, sympy.Rational):
            return None
        return Fraction(int(self.value.p), int(self.value.q))

    @property
    def payable(self) -> bool:
        """False when the value is a negative number: no pay table reaches it."""
        value = self.fraction
        return value is None or value >= 0


def break_even(result: RoundOdds, entry: str, symbols: Iterable[str] = ()) -> BreakEven:
    """Solve EV = 0 for one entry; other entries keep the profile's values.

    Entries listed in ``symbols`` stay symbolic (the answer is then an
    expression in them).

    >>> from odds import BUILTIN, Shoe, round_odds
    >>> r = round_odds(BUILTIN["plain"], Shoe.packs_of(1))
    >>> break_even(r, "win").value
    1
    >>> b = break_even(round_odds(BUILTIN["standard"], Shoe.packs_of(1)), "colon_nine")
    >>> b.value < 0, b.payable
    (True, False)
    """
    others = tuple(s for s in dict.fromkeys(symbols) if s != entry)
    payout = symbolic_payout(result, (entry, *others), bet=entry_bet(entry))
    x = sympy.Symbol(entry)
    ev = payout.expected_value
    slope = sympy.expand(sympy.diff(ev, x))
    assert sympy.diff(slope, x) == 0, "EV is linear in every multiplier"
    if slope == 0:
        return BreakEven(entry, payout.bet, None, sympy.expand(ev) == 0, others)
    intercept = sympy.expand(ev.subs(x, 0))
    return BreakEven(entry, payout.bet, sympy.simplify(-intercept / slope), False, others)


_ITEM = re.compile(r"\s*([A-Za-z_-]+)\s*=\s*(\S*)\s*")


def parse_table(text: str) -> dict[str, str]:
    """A candidate pay table ``colon=2,colon_nine=5/2`` as option strings.

    Values are checked when the table is applied (:func:`apply_table`).

    >>> parse_table("colon=3/2, colon-nine=5/2")
    {'colon': '3/2', 'colon_nine': '5/2'}
    >>> parse_table("colour=2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    odds.money.payout.PayoutError: pay table 'colour=2': 'colour' is not a pay-table option (...)
    """
    table: dict[str, str] = {}
    items = [item for item in re.split(r"[,;]", text) if item.strip()]
    if not items:
        raise PayoutError(f"pay table {text!r} is empty (write e.g. colon=2,colon_nine=3)")
    for item in items:
        m = _ITEM.fullmatch(item)
        if not m or not m[2]:
            raise PayoutError(
                f"pay table {text!r}: {item.strip()!r} is not NAME=VALUE (e.g. colon=3/2)"
            )
        name = m[1].lower().replace("-", "_")
        if name not in TABLE_OPTIONS:
            raise PayoutError(
                f"pay table {text!r}: {m[1]!r} is not a pay-table option "
                f"(options: {', '.join(TABLE_OPTIONS)})"
            )
        if name in table:
            raise PayoutError(f"pay table {text!r}: {name} is given twice")
        table[name] = m[2]
    return table


def apply_table(profile: Profile, table: Mapping[str, Any]) -> Profile:
    """``profile`` with a candidate pay table's options (validated) applied.

    >>> from odds.rules.profiles import BUILTIN
    >>> apply_table(BUILTIN["standard"], {"colon": "3/2"}).colon
    Fraction(3, 2)
    >>> apply_table(BUILTIN["standard"], {"colon": "-1"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    odds.money.payout.PayoutError: pay table colon=-1: option colon: -1 is negative (...)
    """
    shown = ",".join(f"{k}={v}" for k, v in table.items())
    for name in table:
        if name not in TABLE_OPTIONS:
            raise PayoutError(
                f"pay table {shown}: {name!r} is not a pay-table option "
                f"(options: {', '.join(TABLE_OPTIONS)})"
            )
    try:
        return profile.with_options(**table)
    except ProfileError as exc:
        raise PayoutError(f"pay table {shown}: {exc}") from None


@dataclass(frozen=True)
class TableFigures:
    """A candidate pay table's profile, entries and (EV, variance) per bet."""

    profile: Profile
    pay: dict[str, Fraction]
    moments: dict[str, tuple[Fraction, Fraction]]


def compare_tables(result: RoundOdds, tables: Sequence[Mapping[str, Any]]) -> list[TableFigures]:
    """Exact EV and variance of every bet under each candidate pay table.

    The round's counts are reused: a pay table changes no count.

    >>> from odds import BUILTIN, Shoe, round_odds
    >>> r = round_odds(BUILTIN["standard"], Shoe.packs_of(1))
    >>> a, b = compare_tables(r, [{}, {"colon": "3/2"}])
    >>> a.moments["player"][0] == r.expected_value, b.moments["player"][0] < a.moments["player"][0]
    (True, True)
    """
    out = []
    for table in tables:
        profile = apply_table(result.profile, table)
        variant = replace(result, profile=profile)
        moments = {bet: variant.bet_moments(bet) for bet in variant.bets}
        out.append(TableFigures(profile, pay_table(profile), moments))
    return out


def bank_edge(expected_value: Fraction, players: int = 1) -> tuple[Fraction, Fraction]:
    """The bank's edge per unit staked, and per round at a table of N players.

    Per round is N times the seat figure (each player stakes one unit; every
    seat has the same expected value under fixed rules).

    >>> bank_edge(Fraction(1, 50), 8)
    (Fraction(-1, 50), Fraction(-4, 25))
    """
    if isinstance(players, bool) or not isinstance(players, int) or players < 1:
        raise PayoutError(f"a table has at least 1 player, not {players!r}")
    return -expected_value, -expected_value * players


def sqrt_decimal(value: Fraction, digits: int = 8) -> str:
    """The square root of a non-negative fraction, rounded half-even, exactly.

    >>> sqrt_decimal(Fraction(2)), sqrt_decimal(Fraction(1, 4), 2)
    ('1.41421356', '0.50')
    """
    if value < 0:
        raise ValueError(f"{value} is negative: it has no real square root")
    scaled = value * 10 ** (2 * digits)
    root = math.isqrt(math.floor(scaled))  # floor(sqrt(scaled))
    half = Fraction(2 * root + 1, 2) ** 2  # (root + 1/2)^2
    if scaled > half or (scaled == half and root % 2):
        root += 1
    whole, part = divmod(root, 10**digits)
    return f"{whole}.{part:0{digits}d}" if digits else f"{whole}"
