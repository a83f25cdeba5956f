"""The game at a table of N players against one bank (infinite shoe here).

Each player is settled against the bank alone, but the bank makes one
choice for all its comparisons, knowing its own hand, how many players
took a card and how many had naturals (docs/rules.md, 'The family rules').  With cards
dealt with replacement, hands are independent, so a seat's result depends
on the other seats only through the bank's choice, and that through the
number ``k`` of players who drew among the ``n`` who were not natural: the
bank's information set is (own hand, k, n), written ``k/n`` in charts.

All players follow one strategy here (a symmetric table); the bank's
exact best response to it, and one seat's exact best response to the
bank and the other seats, are computed exactly for any N.

Finite shoes need every hand's cards counted jointly: see
:mod:`odds.game.table_finite` (exact for 2 players on full packs).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import factorial
from typing import TYPE_CHECKING

from odds.game.game import (
    STOOD_LABEL,
    Game,
    GameError,
    Hand,
    PairResult,
    TableSet,
    build_game,
    value_classes,
)
from odds.rules.profile import Profile
from odds.rules.profiles import as_profile
from odds.rules.shoe import Shoe, as_shoe

if TYPE_CHECKING:
    from odds.game.table_finite import FiniteTable

__all__ = ["TableGame", "TableSet", "table_game"]

def seen_label(k: int, n: int) -> str:
    """``k/n``: k of the n non-natural players took a card.

    >>> seen_label(2, 3)
    '2/3'
    """
    return f"{k}/{n}"


@dataclass(frozen=True, eq=False)
class TableGame:
    """A table of ``players`` seats built on a heads-up infinite-shoe game.

    ``joint[ph, bh, drew, bank_draws]`` holds [win, push, loss] numerators
    of one seat (over ``game.total``), summed over the player's third card.
    """

    game: Game
    players: int
    joint: Mapping[tuple[Hand, Hand, bool, bool], list[int]]
    hand_weight: Mapping[Hand, Fraction]  # P(a seat's non-natural hand)

    @property
    def bank_sets(self) -> tuple[TableSet, ...]:
        """Every (bank hand, k, n) where the bank chooses."""
        hands = sorted({bh for bh, _ in self.game.bank_sets})
        return tuple(
            (bh, k, n) for bh in hands for n in range(1, self.players + 1)
            for k in range(n + 1)
        )

    def _others(self, strategy: Mapping[Hand, Fraction]) -> dict[tuple[int, int], Fraction]:
        """P(k of the other N-1 seats drew, n were not natural)."""
        drew = sum((w * self.game.player_prob(strategy, h) for h, w in self.hand_weight.items()),
                   Fraction(0))
        stood = sum(self.hand_weight.values(), Fraction(0)) - drew
        natural = 1 - drew - stood
        m = self.players - 1
        out: dict[tuple[int, int], Fraction] = {}
        for k in range(m + 1):
            for s in range(m - k + 1):
                ways = factorial(m) // (factorial(k) * factorial(s) * factorial(m - k - s))
                p = ways * drew**k * stood**s * natural ** (m - k - s)
                if p:
                    out[k, k + s] = p
        return out

    def _bank_draw(
        self, bank: Mapping[TableSet, Fraction], others: Mapping[tuple[int, int], Fraction],
        bh: Hand, drew: bool,
    ) -> Fraction:
        """P(the bank draws) at hand ``bh`` given this seat drew or not."""
        return sum(
            (p * bank[bh, k + drew, n + 1] for (k, n), p in others.items()), Fraction(0)
        )

    def seat_result(
        self,
        own: Mapping[Hand, Fraction],
        others: Mapping[Hand, Fraction],
        bank: Mapping[TableSet, Fraction],
    ) -> PairResult:
        """Exact figures for one seat playing ``own`` while the others play ``others``.

        >>> from odds import BUILTIN, Shoe
        >>> t = table_game(BUILTIN["family"], 3)
        >>> never = {h: Fraction(0) for h in t.game.player_choices}
        >>> bank = {s: Fraction(0) for s in t.bank_sets}
        >>> t.seat_result(never, never, bank).expected_value
        Fraction(0, 1)
        """
        dist = self._others(others)
        sums = [Fraction(0)] * 3
        p_draw = b_draw = Fraction(0)
        q: dict[tuple[Hand, bool], Fraction] = {}
        for (ph, bh, drew, db), counts in self.joint.items():
            rp = self.game.player_prob(own, ph)
            pa = rp if drew else 1 - rp
            if (bh, drew) not in q:
                q[bh, drew] = self._bank_draw(bank, dist, bh, drew)
            pb = q[bh, drew] if db else 1 - q[bh, drew]
            w = pa * pb
            for i in range(3):
                sums[i] += w * counts[i]
            mass = w * sum(counts)
            if drew:
                p_draw += mass
            if db:
                b_draw += mass
        g = self.game
        win, push, loss = ((s + c) / g.total for s, c in zip(sums, g.settled, strict=True))
        return PairResult(win, push, loss, g.seat_value((win, push, loss)),
                          p_draw / g.total, b_draw / g.total)

    def bank_best_response(
        self, players: Mapping[Hand, Fraction]
    ) -> tuple[dict[TableSet, Fraction], Fraction]:
        """The bank's exact best response when every seat plays ``players``.

        Returns the strategy and a seat's EV against it (the bank's whole
        edge is N times minus that).  Unreachable sights and ties stand.

        >>> from odds import BUILTIN
        >>> t = table_game(BUILTIN["family"], 2)
        >>> rule = {h: Fraction(int(h[0] <= 5)) for h in t.game.player_choices}
        >>> best, ev = t.bank_best_response(rule)
        >>> best[(5,), 0, 2], best[(5,), 2, 2], ev < 0
        (Fraction(1, 1), Fraction(0, 1), True)
        """
        delta: dict[tuple[Hand, bool], Fraction] = defaultdict(Fraction)
        mass: dict[bool, Fraction] = defaultdict(Fraction)
        for h, w in self.hand_weight.items():
            r = self.game.player_prob(players, h)
            mass[True] += w * r
            mass[False] += w * (1 - r)
        for (ph, bh, drew, db), counts in self.joint.items():
            r = self.game.player_prob(players, ph)
            ev = self.game.seat_value(counts) * (r if drew else 1 - r)
            delta[bh, drew] += ev if db else -ev
        best: dict[TableSet, Fraction] = {}
        for bh, k, n in self.bank_sets:
            # Seat EV given (bh, k, n) gains, if the bank draws: k drawers' and
            # (n - k) standers' conditional gains, each over its probability.
            change = Fraction(0)
            for count, drew in ((k, True), (n - k, False)):
                if count and mass[drew]:
                    change += count * delta[bh, drew] / mass[drew]
            best[bh, k, n] = Fraction(int(change < 0))
        return best, self.seat_result(players, players, best).expected_value

    def player_best_response(
        self, others: Mapping[Hand, Fraction], bank: Mapping[TableSet, Fraction]
    ) -> tuple[dict[Hand, Fraction], Fraction]:
        """One seat's exact best response to the bank and the other seats; its EV.

        >>> from odds import BUILTIN
        >>> t = table_game(BUILTIN["family"], 2)
        >>> rule = {h: Fraction(int(h[0] <= 5)) for h in t.game.player_choices}
        >>> bank = {s: Fraction(int(s[0][0] <= 5)) for s in t.bank_sets}
        >>> t.player_best_response(rule, bank)[1]
        Fraction(0, 1)
        """
        dist = self._others(others)
        gain: dict[Hand, list[Fraction]] = defaultdict(lambda: [Fraction(0), Fraction(0)])
        q: dict[tuple[Hand, bool], Fraction] = {}
        for (ph, bh, drew, db), counts in self.joint.items():
            if (bh, drew) not in q:
                q[bh, drew] = self._bank_draw(bank, dist, bh, drew)
            pb = q[bh, drew] if db else 1 - q[bh, drew]
            gain[ph][drew] += pb * self.game.seat_value(counts)
        best = {
            h: Fraction(int(gain[h][True] > gain[h][False])) for h in self.game.player_choices
        }
        return best, self.seat_result(best, others, bank).expected_value


def table_game(profile: Profile | str, players: int, information: str = "totals",
               shoe: Shoe | int | str | None = None) -> TableGame | FiniteTable:
    """Build the table game for ``players`` seats (1 to 8).

    ``shoe`` may be any infinite shoe (``Shoe(counts, infinite=True)``), by
    default one pack's proportions; a finite shoe is counted exactly by
    :func:`odds.game.table_finite.finite_table` as far as that stays tractable
    (2 players for full packs).

    >>> from odds import BUILTIN
    >>> len(table_game(BUILTIN["family"], 2).bank_sets)
    45
    """
    profile = as_profile(profile)
    shoe = Shoe.infinite_shoe() if shoe is None else as_shoe(shoe)
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 8:
        raise GameError(f"a table seats 1 to 8 players, not {players!r}")
    if not shoe.infinite:
        from odds.game.table_finite import finite_table

        return finite_table(profile, shoe, players, information)
    game = build_game(profile, shoe, information)
    if game.bank_forced:
        raise GameError(
            f"profile {profile.key!r} fixes the bank's draws; the table game needs a bank "
            "that chooses (the family rules)"
        )
    joint: dict[tuple[Hand, Hand, bool, bool], list[int]] = defaultdict(lambda: [0, 0, 0])
    for (ph, bh, seen, db), counts in game.cells.items():
        cell = joint[ph, bh, seen != STOOD_LABEL, db]
        for i in range(3):
            cell[i] += counts[i]
    vc = value_classes(shoe)
    size = sum(vc)
    weight: dict[Hand, Fraction] = defaultdict(Fraction)
    for a in range(10):
        for b in range(10):
            if (a + b) % 10 in profile.naturals or not vc[a] * vc[b]:
                continue
            key: Hand = (min(a, b), max(a, b)) if information == "cards" else ((a + b) % 10,)
            weight[key] += Fraction(vc[a] * vc[b], size * size)
    return TableGame(game, players, dict(joint), dict(weight))
