"""The batch engine: exact round odds for many shoe compositions at once.

The count of an ordered six-card deal depends on the shoe only through the
multiset of ranks it uses.  For a composition ``c`` (cards left per rank
A..K) and an outcome column::

    count(column; c) = sum over six-card rank multisets M of W(M; c) * T[M, column]

where ``W(M; c) = prod_r fallingfactorial(c_r, m_r)`` (powers ``c_r ** m_r``
for the infinite shoe, which deals with replacement) and ``T[M, column]`` is
the number of ORDERED arrangements of M's ranks into the six slots (player
1, player 2, bank 1, bank 2, player 3, bank 3) that lead to the column.  An
unused third-card slot is filled all the same, exactly as
:mod:`odds.exact.engine` pads, so every count is one of full six-card orderings.
``T`` depends on the rules alone: :func:`rules_table` builds it once per
fixed-rule profile (about a second) and caches it, in memory and on disk
(:mod:`odds.exact.table_cache`: about 0.02 s to read back in a later
process); a batch of compositions is then one matrix product.

Rows are not the 18,564 rank multisets but their 6,063 classes under
permutations of the four zero-point ranks (10, J, Q, K): they only differ
by which of them pair up, so T is the same on a class and W is summed over
it (:func:`odds.exact.sequences.row_classes`; :mod:`odds.exact.products`
computes the class sums directly).  T is binned from
:func:`odds.exact.sequences.dealt_bands`, the one enumeration of the
canonical sequences under the profile's drawing rules.

Columns: every key of :attr:`RoundOdds.outcome_counts` the profile can
produce (:attr:`RulesTable.keys`), then player final values 0-9, bank final
values 0-9, player draws, bank draws.  Every bet and the Colon figures only
need the keys summed over the two-card values, by (player Colon class, bank
Colon class, category): :attr:`RulesTable.summary_keys`, about 40 columns
instead of about 550, so :meth:`RulesTable.counts` computes these eagerly
and the full columns on first use (``outcome``, ``player_final``, ...), or
at once with ``full=True``, in the same product.  About half the full
columns equal another one (two keys that every row class reaches in the
same number of orderings), so the product takes each distinct column once
(279 of 548 under ``standard``) and scatters the results.

Exactness: every count is one matrix product of non-negative integers,
exact in float64, int64 or limbs as :mod:`odds.exact.products` proves.

The API (``compositions``: any (n, 13) array-like of non-negative integer
counts per rank A..K, or a sequence of :class:`Shoe` objects)::

    rules_table(profile) -> RulesTable          # cached per rule set (last 2) and on disk
    RulesTable.profile, .keys, .summary_keys    # keys: (pv, bv, pcol, bcol, category)
    RulesTable.product, .scatter, .distinct     # distinct full columns + summary; full j -> column
    RulesTable.matrix, .summary                 # the full table T, the summary columns
    RulesTable.counts(compositions, *, infinite=False, full=False) -> BatchCounts
    batch_counts(profile, compositions, *, infinite=False, full=False) -> BatchCounts
    BatchCounts.table, .compositions (n, 13) int64, .infinite,
        .totals (tuple of Python ints: ordered six-card sequences),
        .summary (n, len(summary_keys))                          # eager
        .outcome (n, len(keys)), .player_final (n, 10), .bank_final (n, 10),
        .player_draws (n,), .bank_draws (n,)         # full=True, else on first use
        # counts are int64, or Python ints (dtype=object) once a total reaches 2**63
    BatchCounts.round_odds(i, shoe=None) -> RoundOdds   # == engine.round_odds
    BatchCounts.bets -> tuple[str, ...]                 # player (, banker, tie)
    BatchCounts.expected_values(bet="player") -> list[Fraction]
    BatchCounts.ev_numerators(bet="player") -> (num, den)  # EV_i = num[i] / (den * totals[i])
    BatchCounts.probabilities() -> {win, push, loss, colon, colon_nine: list[Fraction]}

>>> from odds.rules.profiles import BUILTIN
>>> from odds.exact.engine import round_odds
>>> from odds.rules.shoe import Shoe
>>> batch = batch_counts(BUILTIN["standard"], [[4] * 13, [3] + [4] * 12])
>>> batch.totals[0] == 52 * 51 * 50 * 49 * 48 * 47
True
>>> batch.expected_values()[0] == round_odds(BUILTIN["standard"], Shoe.packs_of(1)).expected_value
True
>>> batch.probabilities()["colon"][0]
Fraction(1, 17)

The jobs are split by module: the rows and the dealt sequences
(:mod:`odds.exact.sequences`), a batch's exact product
(:mod:`odds.exact.products`), tables on disk and in memory
(:mod:`odds.exact.table_cache`); here, T built from the dealt sequences and
held per rule set, and the counts read back as round odds and EVs.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from odds.exact.deal import draw_arrays
from odds.exact.engine import colon_class
from odds.exact.products import (
    check_compositions,
    clear_ordered,
    composition_counts,
    sequence_totals,
    single_counts,
)
from odds.exact.results import OutcomeKey, RoundOdds, round_bets
from odds.exact.sequences import category_codes, dealt_bands, orderings, reachable_keys, row_classes
from odds.exact.table_cache import TableParts, cached_table, held
from odds.exact.weights import INT64_EXACT
from odds.rules.errors import ProfileError
from odds.rules.profile import Profile
from odds.rules.settle import COLON_NINE, bet_amount, category_outcome
from odds.rules.shoe import Shoe

__all__ = ["BatchCounts", "RulesTable", "batch_counts", "clear_tables", "over_common_denominator",
           "require_fixed", "rules_table", "rules_text", "table_key"]


def _build(
    profile: Profile,
) -> tuple[tuple[OutcomeKey, ...], tuple[SummaryKey, ...], np.ndarray, np.ndarray]:
    """Enumerate the 13**6 ordered rank sequences with canonical faces into T.

    Returns the keys, the summary keys, the product matrix and the scatter
    index of :class:`RulesTable`.
    """
    colon = np.array(
        [[colon_class(profile, a, b) for b in range(13)] for a in range(13)], dtype=np.int32
    )
    player_draws, bank_draws = draw_arrays(profile)  # for the reachable keys
    names, cat = category_codes(profile)
    n_cat = len(names)
    keys = reachable_keys(profile, names, cat, colon, player_draws, bank_draws)
    column = np.full(100 * 9 * n_cat, -1, dtype=np.int32)
    for j, (pv_, bv_, pcol, bcol, name) in enumerate(keys):
        column[(((pv_ * 10 + bv_) * 3 + pcol) * 3 + bcol) * n_cat + names.index(name)] = j
    k = len(keys)
    width = k + 22  # the keys, then player finals, bank finals, player draws, bank draws
    # Entries <= 6! = 720 (a row's sequences are its orderings): int16, 6.6 MB.
    table = np.zeros((len(row_classes().codes), width), dtype=np.int16)
    for d in dealt_bands(profile):
        s, row, first, last, pt, pv, bv, pd, bd = (d.ranks, d.row, d.first, d.last, d.points,
                                                   d.pv, d.bv, d.player_draws, d.bank_draws)
        pf = np.where(pd, (pv + pt[4]) % 10, pv)
        bf = np.where(bd, (bv + pt[5]) % 10, bv)
        key = (((pv * 10 + bv.astype(np.int32)) * 3 + colon[s[0], s[1]]) * 3
               + colon[s[2], s[3]]) * n_cat + cat.ravel()[
            ((pv * 10 + bv.astype(np.int16)) * 10 + pf) * 10 + bf]
        base = (row - first) * width
        size = (last - first) * width
        cols = column[key]
        assert cols.min() >= 0, "a sequence reached a key thought unreachable"
        counts = np.bincount(base + cols, minlength=size)
        counts += np.bincount(base + k + pf, minlength=size)
        counts += np.bincount(base + (k + 10) + bf, minlength=size)
        counts += np.bincount((base + k + 20)[pd], minlength=size)
        counts += np.bincount((base + k + 21)[bd], minlength=size)
        # Bands may share their edge rows: add.
        table[first:last] += counts.reshape(last - first, width)
    summary_keys = sorted({key_[2:] for key_ in keys})
    fold = np.zeros((len(keys), len(summary_keys)), dtype=np.float32)
    for j, key_ in enumerate(keys):
        fold[j, summary_keys.index(key_[2:])] = 1
    # About half the columns equal another (every row class reaches the two
    # keys in as many orderings): multiply by each distinct column once, then scatter.
    reps, scatter = _distinct_columns(table)
    product = np.empty((table.shape[0], len(reps) + len(summary_keys)), dtype=np.float64)
    for start in range(0, table.shape[0], 512):  # a band of rows at a time: no copy of T
        rows = table[start:start + 512]
        product[start:start + 512, :len(reps)] = rows[:, reps]
        # A row's entries sum to at most 720: the fold is exact even in float32.
        product[start:start + 512, len(reps):] = rows[:, :len(keys)].astype(np.float32) @ fold
    return tuple(keys), tuple(summary_keys), product, scatter


def _distinct_columns(table: np.ndarray) -> tuple[list[int], np.ndarray]:
    """The first of each set of equal columns, and each column's set (its index in the first).

    Columns are grouped by a hash (random integer weights, wrapping integer
    sums: equal columns hash equally whatever the order of the sums, which a
    float projection does not promise), then compared exactly within each
    group: no copy of the table is made, where ``np.unique(table, axis=1)``
    sorted one (46 MB at its peak).  The entries are whole numbers.

    >>> _distinct_columns(np.array([[1, 0, 1, 2], [3, 0, 3, 3]], dtype=np.float32))
    ([0, 1, 3], array([0, 1, 0, 2]))
    """
    weights = np.asarray(np.random.default_rng(0).integers(0, 2**63, size=table.shape[0],
                                                           dtype=np.uint64))
    projection = np.zeros(table.shape[1], dtype=np.uint64)
    for start in range(0, table.shape[0], 512):  # 512 rows at a time: 2 MB
        band: np.ndarray = table[start:start + 512].astype(np.uint64)
        projection += weights[start:start + 512] @ band
    first: list[int] = []
    scatter = np.empty(table.shape[1], dtype=np.intp)
    seen: dict[int, list[int]] = {}  # hash -> the distinct columns that have it
    for j, h in enumerate(projection.tolist()):
        for d in seen.setdefault(h, []):
            if np.array_equal(table[:, first[d]], table[:, j]):
                scatter[j] = d
                break
        else:
            seen[h].append(len(first))
            scatter[j] = len(first)
            first.append(j)
    return first, scatter


SummaryKey = tuple[int, int, str]


@dataclass(frozen=True, eq=False)
class RulesTable:
    """The rules half of the product: T per row class, for one fixed-rule profile.

    The full table (:attr:`matrix`) has a column per key of :attr:`keys`,
    then player finals 0-9, bank finals 0-9, player draws, bank draws; the
    summary columns (:attr:`summary`) sum the key columns over the two-card
    values into (player Colon class, bank Colon class, category) columns,
    :attr:`summary_keys`: all that settles every bet, so :meth:`counts`
    computes only these unless asked for the full counts.

    Stored as one float64 matrix, ``product``: the distinct columns of the
    full table (about half of them: many keys have the same column), then
    the summary columns; full column j is ``product[:, scatter[j]]``.

    >>> from odds.rules.profiles import BUILTIN
    >>> table = rules_table(BUILTIN["standard"])
    >>> len(table.keys), table.keys[0], len(table.summary_keys)
    (526, (0, 0, 0, 0, 'push_comparison'), 39)
    >>> table.distinct, table.matrix.shape
    (279, (6063, 548))
    """

    profile: Profile
    keys: tuple[OutcomeKey, ...]
    summary_keys: tuple[SummaryKey, ...]
    product: np.ndarray  # (row classes, distinct + len(summary_keys)) float64, integers <= 720
    scatter: np.ndarray  # (len(keys) + 22,) intp: full column -> column of product

    @property
    def distinct(self) -> int:
        """How many distinct columns the full table has (the first columns of ``product``)."""
        return int(self.product.shape[1]) - len(self.summary_keys)

    @property
    def summary(self) -> np.ndarray:
        """(row classes, len(summary_keys)) float64: the summary columns of T."""
        return self.product[:, self.distinct:]

    @property
    def matrix(self) -> np.ndarray:
        """(row classes, len(keys) + 22) float64: the full table T (made on each use, 26 MB)."""
        full: np.ndarray = self.product[:, self.scatter]
        return full

    def counts(self, compositions: Any, *, infinite: bool = False, full: bool = False) -> BatchCounts:
        """Exact counts for each composition (exact as :mod:`odds.exact.products` proves).

        With ``full`` the full counts (``outcome``, finals, draws) are
        computed at once, in the same product as the summary; otherwise on
        first use, in one more product.

        >>> from odds.rules.profiles import BUILTIN
        >>> rules_table(BUILTIN["plain"]).counts([[1] * 6 + [0] * 7]).totals
        (720,)
        >>> batch = rules_table(BUILTIN["plain"]).counts([[4] * 13], full=True)
        >>> Fraction(int(batch.player_draws[0]), batch.totals[0])  # two-card value 0-5
        Fraction(137, 221)
        """
        comps, infinite = check_compositions(compositions, infinite)
        totals = sequence_totals(comps, infinite)
        if not full:
            return BatchCounts(table=self, compositions=comps, infinite=infinite, totals=totals,
                               summary=composition_counts(comps, infinite, totals, self.summary))
        both = composition_counts(comps, infinite, totals, self.product)
        d = self.distinct
        return BatchCounts(table=self, compositions=comps, infinite=infinite, totals=totals,
                           summary=both[:, d:], full_counts=both[:, self.scatter])


@dataclass(frozen=True, eq=False)
class BatchCounts:
    """Exact counts for a batch of compositions under one profile.

    Rows follow ``compositions``; ``totals[i]`` is the number of ordered
    six-card sequences of composition i (``ff(N, 6)``, or ``N ** 6``
    infinite).  ``summary`` (computed eagerly) holds the counts by
    :attr:`RulesTable.summary_keys`; ``outcome`` (by :attr:`RulesTable.keys`),
    ``player_final``, ``bank_final``, ``player_draws`` and ``bank_draws`` are
    given by ``counts(..., full=True)`` (``full_counts``, every column of the
    full table), else computed on first use, in one more matrix product.  Counts are int64, or
    Python integers (dtype=object) when a total reaches ``2 ** 63``.
    """

    table: RulesTable
    compositions: np.ndarray
    infinite: bool
    totals: tuple[int, ...]
    summary: np.ndarray
    full_counts: np.ndarray | None = field(default=None, repr=False)  # given: counts(full=True)

    def __len__(self) -> int:
        return len(self.totals)

    @cached_property
    def _full(self) -> np.ndarray:
        """(n, len(keys) + 22): every column of the full table."""
        if self.full_counts is not None:
            return self.full_counts
        table = self.table
        distinct = composition_counts(self.compositions, self.infinite, self.totals,
                           table.product[:, :table.distinct])
        full: np.ndarray = distinct[:, table.scatter]
        return full

    @property
    def outcome(self) -> np.ndarray:
        """(n, len(keys)) counts by :attr:`RoundOdds.outcome_counts` key."""
        return self._full[:, :len(self.table.keys)]

    @property
    def player_final(self) -> np.ndarray:
        """(n, 10) counts by the player's final value."""
        k = len(self.table.keys)
        return self._full[:, k:k + 10]

    @property
    def bank_final(self) -> np.ndarray:
        """(n, 10) counts by the bank's final value."""
        k = len(self.table.keys)
        return self._full[:, k + 10:k + 20]

    @property
    def player_draws(self) -> np.ndarray:
        """(n,) counts of sequences where the player takes a third card."""
        return self._full[:, len(self.table.keys) + 20]

    @property
    def bank_draws(self) -> np.ndarray:
        """(n,) counts of sequences where the bank takes a third card."""
        return self._full[:, len(self.table.keys) + 21]

    @property
    def profile(self) -> Profile:
        """The profile the counts are for."""
        return self.table.profile

    @property
    def bets(self) -> tuple[str, ...]:
        """The profile's bets, as :attr:`RoundOdds.bets`: player, and banker/tie."""
        return round_bets(self.profile)

    def shoe(self, i: int) -> Shoe:
        """Composition ``i`` as a :class:`Shoe` (no pack count: an explicit composition)."""
        return Shoe(tuple(int(c) for c in self.compositions[i]), infinite=self.infinite)

    def round_odds(self, i: int, shoe: Shoe | None = None) -> RoundOdds:
        """Composition ``i`` as the engine's :class:`RoundOdds`, equal in every field.

        ``shoe`` is the shoe to record (say ``Shoe.packs_of(8)`` for a fresh
        shoe, for its label); its counts must be composition ``i``'s.  Without
        the full counts computed, only row ``i`` is.

        >>> from odds.rules.profiles import BUILTIN
        >>> batch_counts(BUILTIN["standard"], [[4] * 13]).round_odds(0).player_colon
        Fraction(1, 17)
        """
        comp = tuple(int(c) for c in self.compositions[i])
        if shoe is None:
            shoe = self.shoe(i)
        elif tuple(shoe.counts) != comp or shoe.infinite != self.infinite:
            raise ValueError(f"the shoe given is not composition {i} of the batch")
        if "_full" in self.__dict__:
            row = self._full[i]
        else:
            table = self.table
            row = single_counts(self.compositions[i], self.infinite, self.totals[i],
                                table.product[:, :table.distinct])[table.scatter]
        k = len(self.table.keys)
        return RoundOdds(
            profile=self.profile,
            shoe=shoe,
            player=(),
            bank=(),
            removed=(),
            player_total=None,
            bank_total=None,
            total=self.totals[i],
            outcome_counts={
                key: int(count) for key, count in zip(self.table.keys, row[:k], strict=True)
                if count
            },
            player_final_counts=tuple(int(c) for c in row[k:k + 10]),
            bank_final_counts=tuple(int(c) for c in row[k + 10:k + 20]),
            player_draw_count=int(row[k + 20]),
            bank_draw_count=int(row[k + 21]),
        )

    def _amounts(self, bet: str) -> list[Fraction]:
        """The net payout of ``bet`` per summary column."""
        if bet not in self.bets:
            raise ValueError(
                f"{bet!r} is not a bet of profile {self.profile.key!r} "
                f"(bets: {', '.join(self.bets)})"
            )
        profile = self.profile
        out = []
        for pcol, bcol, cat in self.table.summary_keys:
            out.append(bet_amount(profile, bet, category_outcome(cat), pcol, bcol))
        return out

    def ev_numerators(self, bet: str = "player") -> tuple[np.ndarray, int]:
        """Numerators and the common denominator of each composition's EV.

        ``EV_i == Fraction(num[i], den * totals[i])``; ``num`` is int64 when
        no sum can reach ``2 ** 63``, else Python integers (dtype=object).

        >>> from odds.rules.profiles import BUILTIN
        >>> num, den = batch_counts(BUILTIN["punto-banco"], [[4] * 13]).ev_numerators("banker")
        >>> den, int(num[0]) < 0
        (20, True)
        """
        scaled, den = over_common_denominator(self._amounts(bet))
        return self.weighted_sums(scaled), den

    def weighted_sums(self, scaled: Sequence[int]) -> np.ndarray:
        """``summary @ scaled`` exactly: int64 when no sum can reach ``2 ** 63``, else
        Python integers (dtype=object)."""
        # |sum_k count_k * a_k| <= max|a| * total: the int64 bound.
        largest = max((abs(a) for a in scaled), default=0)
        if self.summary.dtype == np.int64 and largest * max(self.totals, default=0) < INT64_EXACT:
            num: np.ndarray = self.summary @ np.array(scaled, dtype=np.int64)
        else:
            num = self.summary.astype(object) @ np.array(scaled, dtype=object)
        return num

    def expected_values(self, bet: str = "player") -> list[Fraction]:
        """The exact expected net payout per unit stake of ``bet``, per composition.

        >>> from odds.rules.profiles import BUILTIN
        >>> batch_counts(BUILTIN["plain"], [[4] * 13]).expected_values()
        [Fraction(0, 1)]
        """
        num, den = self.ev_numerators(bet)
        return [Fraction(int(n), den * t) for n, t in zip(num, self.totals, strict=True)]

    def probabilities(self) -> dict[str, list[Fraction]]:
        """P(win), P(push), P(loss) of the player seat, P(Colon), P(Colon nine).

        >>> from odds.rules.profiles import BUILTIN
        >>> batch_counts(BUILTIN["standard"], [[4] * 13]).probabilities()["colon_nine"]
        [Fraction(1, 221)]
        """
        keys = self.table.summary_keys
        masks = {
            "win": [k[2].startswith("win_") for k in keys],
            "push": [k[2].startswith("push_") for k in keys],
            "loss": [k[2].startswith("loss_") for k in keys],
            "colon": [k[0] > 0 for k in keys],
            "colon_nine": [k[0] == COLON_NINE for k in keys],
        }
        out = {}
        for name, mask in masks.items():
            sums = self.summary[:, np.array(mask, dtype=bool)].sum(axis=1)
            out[name] = [Fraction(int(s), t) for s, t in zip(sums, self.totals, strict=True)]
        return out


def over_common_denominator(amounts: Sequence[Fraction]) -> tuple[list[int], int]:
    """Amounts as integer numerators over their least common denominator.

    >>> over_common_denominator([Fraction(19, 20), Fraction(-1), Fraction(8)])
    ([19, -20, 160], 20)
    """
    den = math.lcm(*(a.denominator for a in amounts)) if amounts else 1
    return [int(a * den) for a in amounts], den


def rules_table(profile: Profile) -> RulesTable:
    """The rules table of a fixed-rule profile, built once and cached.

    Cached in memory (the last :data:`HELD` rule sets, about 15 MB each,
    shared by profiles that differ only in what they pay) and on disk, if
    it can be written (:mod:`odds.exact.table_cache`: ``LUCKY9_NO_CACHE=1``
    turns that off).  :func:`clear_tables` empties the memory.

    >>> from odds.rules.profiles import BUILTIN
    >>> rules_table(BUILTIN["standard"]).product is rules_table(BUILTIN["standard"]).product
    True
    >>> rules_table(BUILTIN["family"])
    Traceback (most recent call last):
    ...
    odds.rules.errors.ProfileError: profile 'family' has no fixed draw rule ...
    """
    require_fixed(profile)
    parts = held(_HELD, rules_text(profile), HELD,
                 lambda: cached_table(table_key(profile), lambda: _build(profile), orderings))
    return RulesTable(profile, *parts)


def require_fixed(profile: Profile) -> None:
    """The batch engine's tables need fixed drawing rules: a ProfileError otherwise."""
    if not profile.fixed:
        raise ProfileError(
            f"profile {profile.key!r} has no fixed draw rule (players and bank choose): "
            "the batch engine needs fixed rules"
        )


HELD = 2  # rule sets whose tables stay in memory (a test process used to keep 4, 160 MB)
_HELD: dict[str, TableParts] = {}


def clear_tables() -> None:
    """Forget the rules tables held in memory (the disk cache stays)."""
    _HELD.clear()
    clear_ordered()


@lru_cache(maxsize=64)
def rules_text(profile: Profile) -> str:
    """What the table depends on, as text: the memory cache's key."""
    options = profile.options()
    return json.dumps({name: options[name] for name in TABLE_OPTIONS}, sort_keys=True)


TABLE_FORMAT = 1  # how a rules table is stored on disk (odds.exact.table_cache)
# The options T depends on: the draw and settlement rules and what a Colon
# is.  Payouts and the shoe are applied after the product, so profiles
# that differ only there share one table (a test checks each other option).
TABLE_OPTIONS = ("naturals", "natural_values", "naturals_stop_draws", "player_draw", "bank_draw",
                 "colon_match")
# The modules whose code builds T (the build, Colon classes, settlement,
# point values, draw rules and table): editing any of them makes a new disk-cache key.
TABLE_SOURCES = ("odds.exact.batch", "odds.exact.sequences", "odds.exact.deal", "odds.exact.engine",
                 "odds.rules.settle", "odds.rules.cards", "odds.rules.draw", "odds.rules.profiles",
                 "odds.rules.profile", "odds.rules.rule_types")


def table_key(profile: Profile) -> dict[str, Any] | None:
    """What determines the rules table of ``profile``, as JSON data: its disk-cache key.

    None when the package's version or sources cannot be read (then no disk cache).

    >>> from odds.rules.profiles import BUILTIN
    >>> key = table_key(BUILTIN["standard"])
    >>> sorted(key), key["rules"]["player_draw"]
    (['format', 'rules', 'sources', 'version'], {'draws': [0, 1, 2, 3, 4, 5]})
    >>> table_key(BUILTIN["standard"].with_options(colon="5")) == key
    True
    """
    try:
        version = metadata.version("lucky9-odds")
    except metadata.PackageNotFoundError:
        return None
    sources = _source_digest()
    if sources is None:
        return None
    options = profile.options()
    return {"format": TABLE_FORMAT, "version": version, "sources": sources,
            "rules": {name: options[name] for name in TABLE_OPTIONS}}


@lru_cache(maxsize=1)
def _source_digest() -> str | None:
    digest = hashlib.sha256()
    for name in TABLE_SOURCES:
        try:
            digest.update(Path(sys.modules[name].__file__ or "").read_bytes())
        except (KeyError, OSError):
            return None
    return digest.hexdigest()


def batch_counts(
    profile: Profile, compositions: Any, *, infinite: bool = False, full: bool = False
) -> BatchCounts:
    """``rules_table(profile).counts(compositions, infinite=infinite, full=full)``.

    >>> from odds.rules.profiles import BUILTIN
    >>> batch_counts(BUILTIN["standard"], [[4] * 13], infinite=True).totals
    (19770609664,)
    """
    return rules_table(profile).counts(compositions, infinite=infinite, full=full)
