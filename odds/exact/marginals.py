"""One round's marginals for many compositions: the batch engine's columns a verifier tests.

A verifier of round logs tests, for every round, the chances of the
categories, both two-card values, both final values, both Colon classes,
the draws and the player seat's net payouts, given the cards left before
the round.  Each of these is a sum of columns of the batch engine's rules
table (:mod:`odds.exact.batch`): the two-card values and Colon classes sum
the outcome keys ``(pv, bv, pcol, bcol, category)``, the categories and the
payouts sum the summary keys ``(pcol, bcol, category)``, the final values
and draws are columns of their own.  :func:`margin_table` folds them once
per profile into one small matrix over the same row classes, so a batch
of compositions is one matrix product: the same weights, the same chunks, the same proof of exactness as
:meth:`odds.exact.batch.RulesTable.counts` (each group of columns -- the
categories, each value, each Colon class, the payouts -- partitions a row
class's orderings, so every entry is an integer at most 720 and every
column sums to at most ``13 ** 6`` over the rows).  No deal is counted here
that the rules table did not count.  (About 40 columns: each group's last
column is the total less the others, and the bank's first two cards are
distributed as the player's; see :class:`MarginTable`.)

**Cards known by point value only.**  A log that writes cards by point
value (``0`` for any of 10, J, Q, K) gives compositions whose zero-point
cards are all in the 10's column.  That composition is exact for every
quantity that depends on points only (all but a Colon of two zero-point
cards and what it pays): the ordered deals of a point sequence with ``m``
zero-point cards number ``ff(q0, m)`` times the others' falling factorials
however the ``q0`` zero-point cards split between the four ranks (an
ordered choice of ``m`` distinct cards among ``q0``), so any split, the
lumped one included, gives the same counts
(:func:`lump_zero_points`; ``tests/exact/test_marginals.py`` checks it against
the engine on the split compositions).

>>> from odds.rules.profiles import BUILTIN
>>> from odds.exact.engine import round_odds
>>> from odds.rules.shoe import Shoe
>>> m = round_marginals(BUILTIN["standard"], [[4] * 13])
>>> from fractions import Fraction
>>> Fraction(int(m.bank_draws[0]), m.totals[0]) == round_odds(BUILTIN["standard"],
...                                                         Shoe.packs_of(1)).bank_draws
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from odds.exact.batch import rules_table
from odds.exact.engine import colon_class
from odds.exact.products import check_compositions, composition_counts, sequence_totals
from odds.exact.sequences import category_codes
from odds.exact.table_cache import held
from odds.rules.profile import Profile
from odds.rules.settle import bet_amount, category_outcome

__all__ = ["MarginTable", "RoundMarginals", "clear_margin_tables", "colon_by_points",
           "lump_zero_points", "margin_table", "round_marginals"]

TEN = 9  # rank index of the 10: the column of the zero-point cards in a value-only composition


@dataclass(frozen=True, eq=False)
class MarginTable:
    """The marginal columns of one profile's rules table.

    Groups of columns, in order: the categories (:attr:`categories`), the
    player's two-card value 0-9, the player's final value 0-9, the bank's
    final value 0-9, the player's Colon class (none, Colon, Colon nine), the
    player seat's net payout (:attr:`amounts`, high to low), then player
    draws and bank draws.  Each group but the draws partitions a class's
    orderings, so its last column is left out: it is the total less the
    others (:class:`RoundMarginals` adds it back, in exact integers).  The
    bank's two-card value and Colon class have no columns: the bank's first
    two cards are as random as the player's (every ordering of a
    composition's cards is equally likely), so their counts are the
    player's (``tests/exact/test_marginals.py`` checks it against the rules
    table's own bank columns).

    >>> from odds.rules.profiles import BUILTIN
    >>> t = margin_table(BUILTIN["standard"])
    >>> [str(a) for a in t.amounts], t.matrix.shape[1]
    (['3', '2', '1', '0', '-1'], 42)
    """

    profile: Profile
    categories: list[str]
    amounts: tuple[Fraction, ...]
    matrix: np.ndarray  # (row classes, columns) float64, integers <= 720

    @property
    def groups(self) -> dict[str, tuple[int, int]]:
        """Each group's first column and its size (the column left out included)."""
        sizes = {"categories": len(self.categories), "player_value": 10, "player_final": 10,
                 "bank_final": 10, "player_colon": 3, "payouts": len(self.amounts)}
        out = {}
        at = 0
        for name, size in sizes.items():
            out[name] = (at, size)
            at += size - 1
        out["draws"] = (at, 2)
        return out


def _build(profile: Profile) -> MarginTable:
    rules = rules_table(profile)
    names, _ = category_codes(profile)
    amount = {key: bet_amount(profile, "player", category_outcome(key[2]), key[0], key[1])
              for key in rules.summary_keys}
    amounts = tuple(sorted(set(amount.values()), reverse=True))
    table = MarginTable(profile, names, amounts, np.zeros(0))
    groups = table.groups
    full = {name: np.zeros((rules.product.shape[0], size)) for name, (_, size) in groups.items()}
    product, scatter = rules.product, rules.scatter
    for j, (pv, _, _, _, _) in enumerate(rules.keys):
        full["player_value"][:, pv] += product[:, scatter[j]]
    k = len(rules.keys)
    full["player_final"][:] = product[:, scatter[k:k + 10]]
    full["bank_final"][:] = product[:, scatter[k + 10:k + 20]]
    full["draws"][:] = product[:, scatter[k + 20:k + 22]]
    for s, key in enumerate(rules.summary_keys):
        pcol, _, name = key
        column = rules.summary[:, s]
        full["categories"][:, names.index(name)] += column
        full["player_colon"][:, pcol] += column
        full["payouts"][:, amounts.index(amount[key])] += column
    matrix = np.hstack([full[name] if name == "draws" else full[name][:, :-1]
                        for name in groups])
    return MarginTable(profile, names, amounts, matrix)


HELD = 2  # profiles whose margin tables stay in memory (3 MB each)
_HELD: dict[Profile, MarginTable] = {}


def margin_table(profile: Profile) -> MarginTable:
    """The marginal columns of ``profile``'s rules table, folded once and cached.

    >>> from odds.rules.profiles import BUILTIN
    >>> margin_table(BUILTIN["family"])
    Traceback (most recent call last):
    ...
    odds.rules.errors.ProfileError: profile 'family' has no fixed draw rule ...
    """
    return held(_HELD, profile, HELD, lambda: _build(profile))


_JOINED: dict[tuple[int, ...], tuple[Any, ...]] = {}  # the objects keyed, then their join


def clear_margin_tables() -> None:
    """Forget the margin tables held in memory."""
    _HELD.clear()
    _JOINED.clear()


def lump_zero_points(compositions: Any) -> np.ndarray:
    """Compositions with every zero-point card (10, J, Q, K) counted as a 10.

    Exact for every quantity that depends on point values only (see the
    module docstring).

    >>> lump_zero_points([[4] * 13]).tolist()
    [[4, 4, 4, 4, 4, 4, 4, 4, 4, 16, 0, 0, 0]]
    """
    comps = np.array(compositions, dtype=np.int64).reshape(-1, 13)
    comps[:, TEN] = comps[:, TEN:].sum(axis=1)
    comps[:, TEN + 1:] = 0
    return comps


def colon_by_points(profile: Profile) -> bool:
    """True when a Colon of two zero-point cards does not depend on their ranks.

    Then value-only compositions give the Colon classes and the payouts too.

    >>> from odds.rules.profiles import BUILTIN
    >>> colon_by_points(BUILTIN["standard"]), colon_by_points(BUILTIN["punto-banco"])
    (False, False)
    >>> colon_by_points(BUILTIN["standard"].with_options(colon_match="value"))
    True
    """
    return colon_class(profile, TEN, TEN) == colon_class(profile, TEN, TEN + 1)


@dataclass(frozen=True, eq=False)
class RoundMarginals:
    """Exact counts of every marginal of one round, for a batch of compositions.

    ``counts`` (n, the table's columns) int64, or Python ints once a total
    reaches ``2 ** 63``; ``totals[i]`` the ordered six-card deals of
    composition i; ``extra`` the counts of the extra matrices, in the same
    product.  The properties give whole groups (the column the table leaves
    out added back as the total less the others).
    """

    table: MarginTable
    compositions: np.ndarray
    totals: tuple[int, ...]
    counts: np.ndarray
    extra: tuple[np.ndarray, ...]

    def _group(self, name: str) -> np.ndarray:
        start, size = self.table.groups[name]
        part = self.counts[:, start:start + size - 1]
        totals = np.array(self.totals, dtype=self.counts.dtype)
        rest = totals - part.sum(axis=1)
        return np.concatenate([part, rest[:, None]], axis=1)

    @property
    def categories(self) -> np.ndarray:
        """(n, len(categories)) counts by category."""
        return self._group("categories")

    @property
    def player_value(self) -> np.ndarray:
        """(n, 10) counts by the player's two-card value."""
        return self._group("player_value")

    @property
    def bank_value(self) -> np.ndarray:
        """(n, 10) counts by the bank's two-card value: the player's (see :class:`MarginTable`)."""
        return self.player_value

    @property
    def player_final(self) -> np.ndarray:
        """(n, 10) counts by the player's final value."""
        return self._group("player_final")

    @property
    def bank_final(self) -> np.ndarray:
        """(n, 10) counts by the bank's final value."""
        return self._group("bank_final")

    @property
    def player_colon(self) -> np.ndarray:
        """(n, 3) counts by the player's Colon class: none, Colon, Colon nine."""
        return self._group("player_colon")

    @property
    def bank_colon(self) -> np.ndarray:
        """(n, 3) counts by the bank's Colon class: the player's (see :class:`MarginTable`)."""
        return self.player_colon

    @property
    def player_draws(self) -> np.ndarray:
        """(n,) counts of deals where the player draws."""
        return np.asarray(self.counts[:, self.table.groups["draws"][0]])

    @property
    def bank_draws(self) -> np.ndarray:
        """(n,) counts of deals where the bank draws."""
        return np.asarray(self.counts[:, self.table.groups["draws"][0] + 1])

    @property
    def payouts(self) -> np.ndarray:
        """(n, len(amounts)) counts by the player seat's net payout."""
        return self._group("payouts")


def round_marginals(profile: Profile, compositions: Any, *,
                    extra: Sequence[np.ndarray] = ()) -> RoundMarginals:
    """Exact counts of every marginal of one round, for each composition.

    ``extra``: more matrices over the rules table's row classes (a bet
    table's columns, :attr:`odds.exact.bet_table.BetTable.matrix`), counted
    in the same product (the weights of a composition are made once).

    >>> from odds.rules.profiles import BUILTIN
    >>> m = round_marginals(BUILTIN["plain"], [[4] * 13])
    >>> from fractions import Fraction
    >>> Fraction(int(m.player_colon[0, 1:].sum()), m.totals[0])
    Fraction(1, 17)
    """
    table = margin_table(profile)
    comps, _ = check_compositions(compositions, False)
    totals = sequence_totals(comps, False)
    matrix = table.matrix
    widths = [m.shape[1] for m in extra]
    if extra:
        if any(m.shape[0] != matrix.shape[0] for m in extra):
            raise ValueError("an extra matrix is not over the rules table's row classes")
        # One matrix per (table, extras), kept: the batch engine reorders each matrix once.
        matrix = held(_JOINED, (id(table), *map(id, extra)), HELD,
                      lambda: (table, *extra, np.hstack([table.matrix, *extra])))[-1]
    both = composition_counts(comps, False, totals, matrix)
    w = table.matrix.shape[1]
    parts = []
    for width in widths:
        parts.append(both[:, w:w + width])
        w += width
    return RoundMarginals(table, comps, totals, both[:, :table.matrix.shape[1]], tuple(parts))
