"""Every bet through the shoe: bets as data compiled into columns of the batch engine.

:mod:`odds.exact.batch` counts a round's ordered six-card deals for many
compositions at once, as ``W(c) @ T`` over the row classes of six-card rank
multisets.  A :class:`odds.rules.bets.Bet` is a pay table keyed on the
events of a settled round (two-card values, naturals, pairs, third cards,
final values, margins, cards per hand); every one of those events is a
function of the six ranks in deal order, so a bet is one more set of
columns of ``T``: for each row class, how many of its orderings each entry
of the pay table settles.  :func:`bet_table` enumerates the 1.4 million
canonical rank sequences once per (rule set, bets) and bins them by entry,
in the same bands as the rules table; :meth:`BetTable.counts` is then one
matrix product for any batch of compositions (exact by the same proof as
the rules table: each bet's columns partition the sequences).

**Suits.**  Only ``suited`` and ``unsuited`` pairs look at suits, and a
composition by rank does not say them.  When the suits of the cards that
left the shoe were not seen, the cards of a rank still in the shoe are a
uniformly random subset of that rank's cards in the full shoe, so the
chance that a hand's two cards of rank r share a suit is that of two cards
drawn from the full shoe's rank r: ``(k - 1) / (4k - 1)`` for k packs
(1/4 for the infinite shoe), whatever is left; two pairs of the same rank
take the joint chance of four such cards.  A bet on suits through the shoe
is therefore exact **given the ranks seen** (what a counter who tracks ranks
knows), and needs the number of packs the shoe was made of
(:class:`SuitModel`).  A shoe whose removed cards' suits are known (a record
dealt card by card) has other odds: :func:`odds.exact.bets.bet_odds` counts
those, one composition at a time.

**What a table cannot express.**  Row classes do not tell 10, J, Q and K
apart (they are permuted within a class), so a pair of one particular
ten-card rank (``player_pair = "K"``) cannot be a column: :func:`bet_table`
refuses it with a :class:`BetError` that says so (a pair by rank, by value,
a Colon, and a pair of any rank A..9 are all fine).

>>> from fractions import Fraction
>>> from odds.rules.profiles import BUILTIN
>>> from odds.rules.bets import profile_bets
>>> from odds.exact.bets import bet_odds
>>> from odds.rules.shoe import Shoe
>>> ez = BUILTIN["ez-baccarat"]
>>> table = bet_table(ez, list(profile_bets(ez).values()))
>>> counts = table.counts([[32] * 13])
>>> counts.expected_values("dragon-7")[0] == bet_odds(ez, Shoe.packs_of(8), ["dragon-7"])[
...     "dragon-7"].expected_value
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np

from odds.exact.batch import require_fixed, rules_text
from odds.exact.deal import draw_arrays
from odds.exact.products import check_compositions, composition_counts, sequence_totals
from odds.exact.sequences import SLOTS, dealt_bands, row_classes
from odds.exact.table_cache import held
from odds.exact.weights import INT64_EXACT
from odds.rules.bet_types import PAIR_KINDS, RANK_NAMES, Bet, Pair, RoundEvents, pair_matches
from odds.rules.cards import POINTS
from odds.rules.errors import BetError
from odds.rules.profile import Profile
from odds.rules.settle import Outcome, category, plain_amounts

__all__ = ["COLON_SHARE", "BetCounts", "BetSet", "BetTable", "SuitModel", "bet_set", "bet_table",
           "check_countable", "clear_bet_tables", "held_bet_tables"]

NO_THIRD = 10  # "no third card" in a round index
_WINNER = {Outcome.WIN: "player", Outcome.LOSS: "banker", Outcome.PUSH: "tie"}
# Pair codes of a hand's first two cards: 0 none, 1 same value of two ranks
# (two ten-cards), 2 + r a pair of rank r.
NONE_CODE, VALUE_CODE = 0, 1
PAIR_CODES = 15
# Pair types of a deal, for the suit split: no rank pair, the player's only,
# the banker's only, both of different ranks, both of the same rank.
T_NONE, T_PLAYER, T_BANKER, T_BOTH, T_SAME = range(5)
SCENARIOS = ((False, False), (True, False), (False, True), (True, True))  # suited (player, banker)


@dataclass(frozen=True)
class SuitModel:
    """The chances that rank pairs are suited: ``packs`` (None: infinite shoe).

    ``single``: two cards of one rank share a suit; ``both``: with four cards
    of one rank, cards 1-2 and 3-4 each share a suit.

    >>> SuitModel(8).single, SuitModel(None).both
    (Fraction(7, 31), Fraction(1, 16))
    """

    packs: int | None

    @property
    def single(self) -> Fraction:
        k = self.packs
        return Fraction(1, 4) if k is None else Fraction(k - 1, 4 * k - 1)

    @property
    def both(self) -> Fraction:
        k = self.packs
        if k is None:
            return Fraction(1, 16)
        if k < 2:
            return Fraction(0)
        # Cards 1-2 share suit u (k-1 of 4k-1 after the first); then 3-4 share a suit
        # among the 4k-2 left: k-2 of suit u, k of each other suit.
        return self.single * Fraction((k - 2) * (k - 3) + 3 * k * (k - 1), (4 * k - 2) * (4 * k - 3))

    def scenarios(self, kind: int) -> tuple[Fraction, Fraction, Fraction, Fraction]:
        """P(suited player pair, suited banker pair) in :data:`SCENARIOS` order."""
        f, g = self.single, self.both
        if kind == T_NONE:
            return (Fraction(1), Fraction(0), Fraction(0), Fraction(0))
        if kind == T_PLAYER:
            return (1 - f, f, Fraction(0), Fraction(0))
        if kind == T_BANKER:
            return (1 - f, Fraction(0), f, Fraction(0))
        if kind == T_BOTH:
            return ((1 - f) ** 2, f * (1 - f), (1 - f) * f, f * f)
        return (1 - 2 * f + g, f - g, f - g, g)


def _pair_code(r1: int, r2: int) -> int:
    if r1 == r2:
        return 2 + r1
    return VALUE_CODE if POINTS[r1] == POINTS[r2] else NONE_CODE


def _pair_of_code(code: int, suited: bool | None) -> Pair:
    if code == NONE_CODE:
        return Pair()
    if code == VALUE_CODE:
        return Pair(None, True, None)
    return Pair(code - 2, True, suited)


def check_countable(bet: Bet) -> None:
    """Raise :class:`BetError` when the batch engine cannot express ``bet``.

    >>> from odds.rules.bet_library import BETS
    >>> from odds.rules.bet_types import Condition, Entry
    >>> check_countable(BETS["perfect-pair"])
    >>> kings = Bet("kings", "", "player", (Entry(Condition(player_pair="K"), Fraction(30)),))
    >>> check_countable(kings)
    Traceback (most recent call last):
    ...
    odds.rules.errors.BetError: bet 'kings' names a pair of K: ...
    """
    for entry in bet.entries:
        for kind in (entry.condition.player_pair, entry.condition.banker_pair):
            if kind is not None and kind not in PAIR_KINDS and RANK_NAMES[kind] >= 9:
                raise BetError(
                    f"bet {bet.name!r} names a pair of {kind}: the shoe engines count 10, J, Q "
                    "and K as one class of zero-point cards, so a pair of one particular "
                    "ten-card rank cannot be counted through the shoe (a pair by rank, by "
                    "value, a Colon or a pair of A-9 can; one round's odds of this bet come "
                    "from `lucky9 odds --bet`)"
                )


def _round_index(pv: Any, bv: Any, x: Any, y: Any) -> Any:
    return ((pv * 10 + bv) * 11 + x) * 11 + y


def _pair_classes(profile: Profile, kinds: set[str], suits: bool,
                  ) -> tuple[np.ndarray, list[tuple[Pair, Pair]]]:
    """Class of each (pair code, suited) of one side for a bet's pair kinds.

    Two pair states fall in one class when every pair kind the bet looks at
    matches both or neither; one representative pair is kept per class.
    """
    index = np.zeros((PAIR_CODES, 2), dtype=np.intp)
    reps: list[tuple[Pair, Pair]] = []
    seen: dict[tuple[bool, ...], int] = {}
    for code in range(PAIR_CODES):
        for s in (False, True):
            suited = s if (suits and code >= 2) else None
            pair = _pair_of_code(code, suited)
            key = tuple(pair_matches(k, pair, profile) for k in sorted(kinds))
            if key not in seen:
                seen[key] = len(reps)
                reps.append((pair, pair))
            index[code, int(s)] = seen[key]
    return index, reps


def _entry_tables(profile: Profile, bets: Sequence[Bet]) -> tuple[np.ndarray, list[np.ndarray]]:
    """The compact index of each reachable round, and per bet the entry settling each
    (round, pair codes, suited scenario).

    A bet's table is (rounds, 15, 15, scenarios), int8: one round when the bet
    does not look past the pairs, one scenario when it does not look at suits.
    Bets are evaluated through their own :meth:`Bet.entry_of` (one meaning of
    every event), once per class of pair codes the bet tells apart.
    """
    player_draws, bank_draws = draw_arrays(profile)
    rounds: list[tuple[int, RoundEvents]] = []
    for pv in range(10):
        for bv in range(10):
            xs = range(10) if player_draws[pv, bv] else [NO_THIRD]
            for x in xs:
                ys = range(10) if bank_draws[pv, bv, x] else [NO_THIRD]
                for y in ys:
                    pf = pv if x == NO_THIRD else (pv + x) % 10
                    bf = bv if y == NO_THIRD else (bv + y) % 10
                    winner = _WINNER[category(profile, pv, bv, pf, bf)[0]]
                    rounds.append((_round_index(pv, bv, x, y), RoundEvents(
                        winner, pv if pv in profile.naturals else None,
                        bv if bv in profile.naturals else None, pf, bf,
                        2 + (x != NO_THIRD), 2 + (y != NO_THIRD), Pair(), Pair())))
    compact = np.zeros(11 * 11 * 100, dtype=np.intp)
    for i, (at, _) in enumerate(rounds):
        compact[at] = i
    out = []
    for bet in bets:
        suits = bet.uses_suits
        kinds = {"player": set(), "banker": set()}  # type: dict[str, set[str]]
        for e in bet.entries:
            if e.condition.player_pair is not None:
                kinds["player"].add(e.condition.player_pair)
            if e.condition.banker_pair is not None:
                kinds["banker"].add(e.condition.banker_pair)

        p_index, p_reps = _pair_classes(profile, kinds["player"], suits)
        b_index, b_reps = _pair_classes(profile, kinds["banker"], suits)
        small = np.zeros((len(p_reps), len(b_reps)), dtype=np.int8)
        todo = rounds if bet.uses_round else rounds[:1]
        scenarios = SCENARIOS if suits else SCENARIOS[:1]
        table = np.zeros((len(todo), PAIR_CODES, PAIR_CODES, len(scenarios)), dtype=np.int8)
        for n, (_, base) in enumerate(todo):
            for i, (pp, _) in enumerate(p_reps):
                for j, (bp, _) in enumerate(b_reps):
                    r = RoundEvents(base.winner, base.player_natural, base.banker_natural,
                              base.player_final, base.banker_final, base.player_cards,
                              base.banker_cards, pp, bp)
                    small[i, j] = bet.entry_of(r, profile)
            for s, (sp, sb) in enumerate(scenarios):
                table[n, :, :, s] = small[p_index[:, int(sp)][:, None], b_index[:, int(sb)][None, :]]
        out.append(table)
    return compact, out


@dataclass(frozen=True, eq=False)
class BetTable:
    """The bets' columns of ``T``, for one fixed-rule profile and a list of bets.

    ``columns[b]`` lists, for bet b, the patterns its columns stand for:
    an entry index (a bet that does not look at suits), or ``(pair type,
    entry if no pair is suited, player's suited, banker's suited, both)``.
    ``matrix`` is (row classes, columns) float64, integer entries <= 720.
    """

    profile: Profile
    bets: tuple[Bet, ...]
    columns: tuple[tuple[Any, ...], ...]
    offsets: tuple[int, ...]  # first column of each bet in ``matrix``
    matrix: np.ndarray
    compact: np.ndarray  # round index -> row of the entry tables
    entries: tuple[np.ndarray, ...]  # per bet: entry by (round, pair codes, suit scenario)

    @property
    def names(self) -> tuple[str, ...]:
        """The bets' names, in order."""
        return tuple(b.name for b in self.bets)

    def bet(self, name: str) -> int:
        """Index of the bet called ``name``."""
        try:
            return self.names.index(name)
        except ValueError:
            raise BetError(
                f"{name!r} is not among the bets counted ({', '.join(self.names)})"
            ) from None

    @property
    def uses_suits(self) -> bool:
        """True when some bet needs suits (then counts need a :class:`SuitModel`)."""
        return any(b.uses_suits for b in self.bets)

    def settle(self, pv: np.ndarray, bv: np.ndarray, x: np.ndarray, y: np.ndarray,
               player: tuple[np.ndarray, np.ndarray], banker: tuple[np.ndarray, np.ndarray]
               ) -> dict[str, np.ndarray]:
        """The net payout of every bet that does not look at suits, for dealt rounds.

        ``pv``/``bv`` two-card values, ``x``/``y`` third-card values (10: none),
        ``player``/``banker`` the ranks of each hand's first two cards: the
        same entry tables the columns were built from.
        """
        code = np.array([[_pair_code(a, b) for b in range(13)] for a in range(13)], dtype=np.intp)
        at = self.compact[_round_index(pv.astype(np.intp), bv.astype(np.intp),
                                       x.astype(np.intp), y.astype(np.intp))]
        pc = code[player[0], player[1]]
        bc = code[banker[0], banker[1]]
        out = {}
        for bet, table in zip(self.bets, self.entries, strict=True):
            if bet.uses_suits:
                continue
            pays = np.array([float(e.pays) for e in bet.entries] + [float(bet.otherwise)])
            here = at if bet.uses_round else 0
            out[bet.name] = pays[table[here, pc, bc, 0]]
        return out

    def counts(self, compositions: Any, *, infinite: bool = False,
               packs: int | None = None) -> BetCounts:
        """Exact counts of every bet's columns for each composition.

        ``packs``: the packs the shoe was made of, needed for bets on suits
        (see the module docstring); ignored for the infinite shoe.

        >>> from odds.rules.profiles import BUILTIN
        >>> from odds.rules.bet_library import BETS
        >>> t = bet_table(BUILTIN["punto-banco"], [BETS["perfect-pair"]])
        >>> t.counts([[4] * 13])
        Traceback (most recent call last):
        ...
        odds.rules.errors.BetError: bet perfect-pair needs suits: ...
        """
        comps, infinite = check_compositions(compositions, infinite)
        if self.uses_suits and not infinite:
            if packs is None or isinstance(packs, bool) or not isinstance(packs, int) or packs < 1:
                names = ", ".join(b.name for b in self.bets if b.uses_suits)
                raise BetError(
                    f"bet {names} needs suits: give the number of packs the shoe was made of "
                    "(the suits of the cards gone are taken as unseen)"
                )
            full = 4 * packs
            over = np.flatnonzero((comps > full).any(axis=1))
            if len(over):
                raise BetError(
                    f"composition {int(over[0])} holds more cards of a rank than {packs} "
                    f"pack(s) have ({full})"
                )
        totals = sequence_totals(comps, infinite)
        counts = composition_counts(comps, infinite, totals, self.matrix)
        model = SuitModel(None if infinite else packs)
        return BetCounts(self, comps, infinite, totals, counts, model)


@dataclass(frozen=True, eq=False)
class BetCounts:
    """Exact counts of a :class:`BetTable`'s columns for a batch of compositions.

    ``counts`` is (n, columns): int64, or Python ints once a total reaches
    ``2 ** 63``.  A bet's entry counts may be fractions when it looks at
    suits (an expectation over the suits unseen).
    """

    table: BetTable
    compositions: np.ndarray
    infinite: bool
    totals: tuple[int, ...]
    counts: np.ndarray
    suits: SuitModel

    def __len__(self) -> int:
        return len(self.totals)

    def _weights(self, b: int) -> tuple[list[list[int]], int]:
        """Per column of bet b, the share of its count that goes to each entry, over ``den``."""
        bet = self.table.bets[b]
        size = len(bet.entries) + 1
        rows: list[list[Fraction]] = []
        for pattern in self.table.columns[b]:
            share = [Fraction(0)] * size
            if isinstance(pattern, int):
                share[pattern] = Fraction(1)
            else:
                kind, *entries = pattern
                for p, e in zip(self.suits.scenarios(kind), entries, strict=True):
                    share[e] += p
            rows.append(share)
        den = math.lcm(*(s.denominator for row in rows for s in row)) if rows else 1
        return [[int(s * den) for s in row] for row in rows], den

    def _columns(self, b: int) -> np.ndarray:
        start = self.table.offsets[b]
        return self.counts[:, start:start + len(self.table.columns[b])]

    def entry_counts(self, name: str) -> list[tuple[Fraction, ...]]:
        """Per composition, the count of deals each entry settles (``otherwise`` last).

        Integers (as Fractions) unless the bet looks at suits.
        """
        b = self.table.bet(name)
        weights, den = self._weights(b)
        cols = self._columns(b).astype(object)
        sums = cols @ np.array(weights, dtype=object).reshape(len(weights), -1)
        return [tuple(Fraction(int(v), den) for v in row) for row in sums]

    def ev_numerators(self, name: str) -> tuple[np.ndarray, int]:
        """``EV_i == Fraction(int(num[i]), den * totals[i])``: int64 when safe, else objects."""
        b = self.table.bet(name)
        bet = self.table.bets[b]
        weights, wden = self._weights(b)
        pays = [e.pays for e in bet.entries] + [bet.otherwise]
        pden = math.lcm(*(p.denominator for p in pays))
        scaled = [sum(w * int(p * pden) for w, p in zip(row, pays, strict=True)) for row in weights]
        cols = self._columns(b)
        largest = max((abs(a) for a in scaled), default=0)
        if cols.dtype == np.int64 and largest * max(self.totals, default=0) < INT64_EXACT:
            num: np.ndarray = cols @ np.array(scaled, dtype=np.int64)
        else:
            num = cols.astype(object) @ np.array(scaled, dtype=object)
        return num, wden * pden

    def expected_values(self, name: str) -> list[Fraction]:
        """The exact EV per unit stake of bet ``name``, per composition."""
        num, den = self.ev_numerators(name)
        return [Fraction(int(n), den * t) for n, t in zip(num, self.totals, strict=True)]

    def float_evs(self, name: str) -> np.ndarray:
        """The exact EVs, each rounded once to float64."""
        num, den = self.ev_numerators(name)
        if num.dtype == object:
            return np.array([float(Fraction(int(n), den * t))
                             for n, t in zip(num, self.totals, strict=True)])
        totals = np.array([float(t) for t in self.totals])
        return np.asarray(num.astype(np.float64) / den / totals)

    def distribution(self, name: str, i: int) -> dict[Fraction, Fraction]:
        """Composition i's exact payout distribution of bet ``name`` (net amount -> probability)."""
        bet = self.table.bets[self.table.bet(name)]
        pays = [e.pays for e in bet.entries] + [bet.otherwise]
        out: dict[Fraction, Fraction] = {}
        for pay, count in zip(pays, self.entry_counts(name)[i], strict=True):
            if count:
                out[pay] = out.get(pay, Fraction(0)) + count / self.totals[i]
        return out

    def variance(self, name: str, i: int) -> Fraction:
        """Composition i's exact variance of bet ``name``'s net payout."""
        dist = self.distribution(name, i)
        mean = sum((a * p for a, p in dist.items()), Fraction(0))
        return sum((a * a * p for a, p in dist.items()), Fraction(0)) - mean * mean

    @cached_property
    def names(self) -> tuple[str, ...]:
        """The bets' names."""
        return self.table.names


def _build(profile: Profile, bets: Sequence[Bet]) -> BetTable:
    for bet in bets:
        check_countable(bet)
    code = np.array([[_pair_code(a, b) for b in range(13)] for a in range(13)], dtype=np.intp)
    compact, entries = _entry_tables(profile, bets)
    sizes = [len(b.entries) + 1 for b in bets]
    # Column codes per bet: an entry; with suits, the pair type and four entries.
    spans = [5 * k**4 if b.uses_suits else k for b, k in zip(bets, sizes, strict=True)]
    starts = np.concatenate([[0], np.cumsum(spans)[:-1]]).astype(np.int64)
    width = int(sum(spans))
    rows = len(row_classes().codes)
    table = np.zeros((rows, width), dtype=np.int16)
    for band in dealt_bands(profile):  # the same enumeration as the rules table
        s, row, first, last = band.ranks, band.row, band.first, band.last
        pt, pv, bv = band.points, band.pv, band.bv
        x = np.where(band.player_draws, pt[4], NO_THIRD)
        y = np.where(band.bank_draws, pt[5], NO_THIRD)
        at = compact[_round_index(pv.astype(np.intp), bv.astype(np.intp), x.astype(np.intp),
                                  y.astype(np.intp))]
        pc = code[s[0], s[1]]
        bc = code[s[2], s[3]]
        base = (row - first) * width
        size = (last - first) * width
        counts = np.zeros(size, dtype=np.int64)
        for b, bet in enumerate(bets):
            k = sizes[b]
            here = at if bet.uses_round else 0
            if not bet.uses_suits:
                col = entries[b][here, pc, bc, 0].astype(np.int64)
            else:
                pr, br = pc >= 2, bc >= 2
                kind = np.where(pr & br, np.where(pc == bc, T_SAME, T_BOTH),
                                np.where(pr, T_PLAYER, np.where(br, T_BANKER, T_NONE)))
                col = kind.astype(np.int64)
                for sc in range(4):
                    col = col * k + entries[b][here, pc, bc, sc]
            counts += np.bincount(base + starts[b] + col, minlength=size)
        table[first:last] += counts.reshape(last - first, width).astype(np.int16)
    used = np.flatnonzero(table.any(axis=0))
    columns: list[tuple[Any, ...]] = []
    offsets: list[int] = []
    keep: list[int] = []
    for b, bet in enumerate(bets):
        k = sizes[b]
        mine = [int(j) for j in used if starts[b] <= j < starts[b] + spans[b]]
        offsets.append(len(keep))
        keep += mine
        pats: list[Any] = []
        for j in mine:
            c = j - int(starts[b])
            if not bet.uses_suits:
                pats.append(c)
            else:
                digits = []
                for _ in range(4):
                    c, digit = divmod(c, k)
                    digits.append(digit)
                pats.append((c, *reversed(digits)))
        columns.append(tuple(pats))
    matrix = table[:, keep].astype(np.float64)
    return BetTable(profile, tuple(bets), tuple(columns), tuple(offsets), matrix, compact,
                    tuple(entries))


HELD = 4  # bet tables kept in memory (a few MB each)
_HELD: dict[tuple[str, tuple[Bet, ...]], BetTable] = {}


def bet_table(profile: Profile, bets: Sequence[Bet]) -> BetTable:
    """The compiled columns of ``bets`` under ``profile``'s rules, built once and cached.

    About a second to build (every canonical six-card rank sequence is
    settled once); the last :data:`HELD` tables stay in memory.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.rules.bet_library import BETS
    >>> bet_table(BUILTIN["family"], [BETS["tie"]])
    Traceback (most recent call last):
    ...
    odds.rules.errors.ProfileError: profile 'family' has no fixed draw rule ...
    """
    require_fixed(profile)
    if not bets:
        raise BetError("no bet to count")
    names = [b.name for b in bets]
    if len(set(names)) != len(names):
        raise BetError(f"a bet is named twice among {', '.join(names)}")
    table = held(_HELD, (rules_text(profile), tuple(bets)), HELD, lambda: _build(profile, bets))
    if table.profile is not profile:
        table = BetTable(profile, table.bets, table.columns, table.offsets, table.matrix,
                         table.compact, table.entries)
    return table


def held_bet_tables() -> list[BetTable]:
    """The bet tables held in memory now (at most :data:`HELD`)."""
    return list(_HELD.values())


def clear_bet_tables() -> None:
    """Forget the bet tables held in memory."""
    _HELD.clear()


assert SLOTS == 6

# -- the bets of a shoe-level command ---------------------------------------------

COLON_SHARE = "colon-share"
"""Not a bet: the part of the player seat's EV that its Colon pay entries add."""


def plain_seat(profile: Profile) -> Bet:
    """The player seat settled as a plain win / push / loss (no Colon entries).

    >>> from odds.rules.profiles import BUILTIN
    >>> [(e.label, e.pays) for e in plain_seat(BUILTIN["standard"]).entries]
    [('player wins', Fraction(1, 1)), ('push', Fraction(0, 1))]
    """
    from odds.rules.bet_types import Condition, Entry

    win, push, loss = plain_amounts(profile)
    return Bet("seat-plain", "the seat settled plainly", "player",
               (Entry(Condition(winner="player"), win, "player wins"),
                Entry(Condition(winner="tie"), push, "push")), loss)


@dataclass(frozen=True)
class BetSet:
    """The bets a shoe-level command follows: :class:`Bet` values, and ``colon-share``.

    ``names`` is what the command reports, in order; the table counts those
    bets (and, for ``colon-share``, the seat's own bet and its plain twin).
    """

    profile: Profile
    bets: tuple[Bet, ...]
    share: bool

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self.bets) + ((COLON_SHARE,) if self.share else ())

    @property
    def uses_suits(self) -> bool:
        return any(b.uses_suits for b in self.bets)

    def _counted(self) -> list[Bet]:
        from odds.rules.bet_library import main_bet

        counted = list(self.bets)
        if self.share:
            if "player" not in {b.name for b in counted}:
                counted.append(main_bet(self.profile))
            counted.append(plain_seat(self.profile))
        return counted

    def table(self) -> BetTable:
        """The compiled table of every bet counted."""
        return bet_table(self.profile, self._counted())

    def float_evs(self, counts: BetCounts) -> dict[str, np.ndarray]:
        """Every reported name's exact EV per composition, rounded once to float64."""
        out = {b.name: counts.float_evs(b.name) for b in self.bets}
        if self.share:
            num, den = self.share_numerators(counts)
            out[COLON_SHARE] = np.array([float(Fraction(int(n), den * t))
                                         for n, t in zip(num, counts.totals, strict=True)])
        return out

    def share_numerators(self, counts: BetCounts) -> tuple[np.ndarray, int]:
        """``colon-share`` as :meth:`BetCounts.ev_numerators`: the seat's less its plain twin's."""
        seat, a = counts.ev_numerators("player")
        plain, b = counts.ev_numerators("seat-plain")
        den = math.lcm(a, b)
        num: np.ndarray = seat.astype(object) * (den // a) - plain.astype(object) * (den // b)
        return num, den

    def exact_evs(self, counts: BetCounts) -> dict[str, list[Fraction]]:
        """Every reported name's exact EV per composition."""
        out = {b.name: counts.expected_values(b.name) for b in self.bets}
        if self.share:
            seat = out.get("player") or counts.expected_values("player")
            plain = counts.expected_values("seat-plain")
            out[COLON_SHARE] = [a - b for a, b in zip(seat, plain, strict=True)]
        return out


def bet_set(profile: Profile, names: Sequence[str | Bet] = ("all",), *,
            suits: bool = True) -> BetSet:
    """The bets named (``all``: every bet of the profile, then ``colon-share`` where the
    profile pays Colon bonuses), checked for the shoe engines.

    ``suits=False`` (a shoe given by its composition alone, without the
    packs it was made of): ``all`` leaves out the bets on suited pairs, and
    naming one is an error that says why.

    >>> from odds.rules.profiles import BUILTIN
    >>> bet_set(BUILTIN["standard"]).names
    ('player', 'colon', 'colon-nine', 'colon-share')
    >>> bet_set(BUILTIN["ez-baccarat"], ["dragon-7", "panda-8"]).names
    ('dragon-7', 'panda-8')
    >>> bet_set(BUILTIN["punto-banco"], ["colon-share"])
    Traceback (most recent call last):
    ...
    odds.rules.errors.BetError: colon-share is the part of the seat's EV its Colon pays add, ...
    """
    from odds.rules.bet_library import resolve_bets

    share = False
    chosen: list[str | Bet] = []
    for item in names:
        name = item.strip().lower() if isinstance(item, str) else None
        if name == COLON_SHARE:
            if not profile.bonuses:
                raise BetError(
                    f"{COLON_SHARE} is the part of the seat's EV its Colon pays add, and "
                    f"profile {profile.key!r} pays no Colon bonus"
                )
            share = True
            continue
        if name == "all" and profile.bonuses:
            share = True
        chosen.append(item)
    bets = tuple(resolve_bets(profile, chosen)) if chosen else ()
    if not suits:
        named = {i.strip().lower() for i in names if isinstance(i, str)}
        for bet in bets:
            if bet.uses_suits and bet.name in named:
                raise BetError(
                    f"bet {bet.name} needs suits, and a shoe given by its composition alone "
                    "says neither suits nor the packs it was made of: give --decks (the "
                    "suits of the cards gone are then taken as unseen)"
                )
        bets = tuple(b for b in bets if not b.uses_suits)
    if not bets and not share:
        raise BetError("no bet named")
    for bet in bets:
        check_countable(bet)
    return BetSet(profile, bets, share)
