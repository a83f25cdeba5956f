"""The table game for a finite shoe: every hand's cards counted jointly.

In a finite shoe the other seats' cards change a seat's odds, and what the
bank sees (k of n non-natural players drew) is correlated with the cards
left.  This module counts, for seat 1, every deal of the N + 1 two-card
hands by value class, and for each the seat's and the bank's third cards.
The other seats' third cards need no enumeration: by exchangeability of a
shuffled shoe, seat 1's third card and the bank's are a uniform ordered
pair from the cards left after the two-card deal, whoever else drew.

Counts are integers kept per (seat hand, bank hand, other seats' hands,
seat action, bank action), independent of any strategy; strategies are
applied afterwards as Fraction weights.  The cost grows like P**(N+1)
(P = number of value pairs the shoe can deal, 55 for a full pack): N = 2
counts 166 375 deals for any number of packs; N = 3 would count 9.2
million, which is refused unless the shoe is small (see ``LIMIT``).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction

from odds.game.game import Game, GameError, Hand, PairResult, TableSet, build_game, value_classes
from odds.rules.profile import Profile
from odds.rules.settle import Outcome, outcome_of
from odds.rules.shoe import Shoe

__all__ = ["LIMIT", "FiniteTable", "finite_table"]

_INDEX = {Outcome.WIN: 0, Outcome.PUSH: 1, Outcome.LOSS: 2}  # settled = [win, push, loss]
LIMIT = 2_000_000  # most (N+1)-hand deals counted; 55**3 = 166 375 fits, 55**4 does not

Others = tuple[tuple[Hand, ...], int]  # (other seats' non-natural hands, sorted; naturals)
Key = tuple[Hand, Hand, Others, bool, bool]


def _pairs(vc: tuple[int, ...]) -> list[tuple[int, int, int]]:
    out = []
    for a in range(10):
        for b in range(a, 10):
            w = vc[a] * (vc[a] - 1) if a == b else 2 * vc[a] * vc[b]
            if w:
                out.append((a, b, w))
    return out


def _minus(vc: tuple[int, ...], a: int, b: int) -> tuple[int, ...]:
    return tuple(c - (v == a) - (v == b) for v, c in enumerate(vc))


@dataclass(frozen=True, eq=False)
class FiniteTable:
    """Seat 1's counts at a table of ``players`` on a finite shoe.

    ``counts[seat hand, bank hand, others, seat drew, bank drew]`` holds
    [win, push, loss] counts of ordered sequences (the 2(N+1) two-card
    cards, then seat 1's third card slot and the bank's), out of ``total``.
    """

    game: Game
    players: int
    counts: Mapping[Key, list[int]]
    settled: list[int]
    total: int

    @property
    def bank_sets(self) -> tuple[TableSet, ...]:
        """Every (bank hand, k, n) where the bank chooses."""
        hands = sorted({bh for bh, _ in self.game.bank_sets})
        return tuple(
            (bh, k, n) for bh in hands for n in range(1, self.players + 1)
            for k in range(n + 1)
        )

    def _folded(
        self, own: Mapping[Hand, Fraction], others: Mapping[Hand, Fraction]
    ) -> dict[tuple[Hand, Hand, int, int, bool, bool], list[Fraction]]:
        """Counts by (seat hand, bank hand, k, n, seat drew, bank drew), weighted.

        Probabilities are scaled to integers over their common denominator
        ``scale`` (Python integers are far faster than Fractions here); the
        sums are divided once at the end.
        """
        hands = self.game.player_choices
        scale = math.lcm(1, *(self.game.player_prob(s, h).denominator
                              for s in (own, others) for h in hands))
        m = self.players - 1

        def scaled(strategy: Mapping[Hand, Fraction], h: Hand) -> int:
            p = self.game.player_prob(strategy, h) * scale
            assert p.denominator == 1
            return p.numerator

        cache: dict[Others, dict[int, int]] = {}

        def drew(group: Others) -> dict[int, int]:
            """P(k of the other seats drew) times scale**m."""
            if group not in cache:
                dist = {0: scale ** (m - len(group[0]))}
                for h in group[0]:
                    r = scaled(others, h)
                    nxt: dict[int, int] = defaultdict(int)
                    for k, p in dist.items():
                        if r:
                            nxt[k + 1] += p * r
                        if r != scale:
                            nxt[k] += p * (scale - r)
                    dist = dict(nxt)
                cache[group] = dist
            return cache[group]

        own_scaled = {h: scaled(own, h) for h in {ph for ph, *_ in self.counts}}
        out: dict[tuple[Hand, Hand, int, int, bool, bool], list[int]] = defaultdict(
            lambda: [0, 0, 0]
        )
        for (ph, bh, group, dp, db), c in self.counts.items():
            rp = own_scaled[ph]
            pa = rp if dp else scale - rp
            if not pa:
                continue
            n = len(group[0]) + 1
            for k, p in drew(group).items():
                cell = out[ph, bh, k + dp, n, dp, db]
                w = pa * p
                cell[0] += w * c[0]
                cell[1] += w * c[1]
                cell[2] += w * c[2]
        whole = scale ** (m + 1)
        return {key: [Fraction(v, whole) for v in c] for key, c in out.items()}

    def seat_result(
        self,
        own: Mapping[Hand, Fraction],
        others: Mapping[Hand, Fraction],
        bank: Mapping[TableSet, Fraction],
    ) -> PairResult:
        """Exact figures for seat 1 playing ``own`` while the others play ``others``.

        >>> from odds import BUILTIN, parse_shoe
        >>> small = parse_shoe("2 1 1 1 1 1 1 1 1 2 1 1 1")
        >>> t = finite_table(BUILTIN["family"], small, 2, "totals")
        >>> never = {h: Fraction(0) for h in t.game.player_choices}
        >>> t.seat_result(never, never, {s: Fraction(0) for s in t.bank_sets}).expected_value
        Fraction(0, 1)
        """
        sums = [Fraction(0)] * 3
        p_draw = b_draw = Fraction(0)
        for (_, bh, k, n, dp, db), c in self._folded(own, others).items():
            q = bank[bh, k, n]
            w = q if db else 1 - q
            if not w:
                continue
            for i in range(3):
                sums[i] += w * c[i]
            mass = w * sum(c)
            if dp:
                p_draw += mass
            if db:
                b_draw += mass
        win, push, loss = ((s + c) / self.total for s, c in zip(sums, self.settled, strict=True))
        return PairResult(win, push, loss, self.game.seat_value((win, push, loss)),
                          p_draw / self.total, b_draw / self.total)

    def _ev(self, c: list[Fraction]) -> Fraction:
        return self.game.seat_value(c)

    def bank_best_response(
        self, players: Mapping[Hand, Fraction]
    ) -> tuple[dict[TableSet, Fraction], Fraction]:
        """The bank's exact best response when every seat plays ``players``.

        The seats are exchangeable, so the bank's whole result given what it
        saw is N times seat 1's: minimising seat 1's EV per sight is enough.

        >>> from odds import BUILTIN, parse_shoe
        >>> small = parse_shoe("2 1 1 1 1 1 1 1 1 2 1 1 1")
        >>> t = finite_table(BUILTIN["family"], small, 2, "totals")
        >>> rule = {h: Fraction(int(h[0] <= 5)) for h in t.game.player_choices}
        >>> t.bank_best_response(rule)[1] < 0
        True
        """
        gain: dict[TableSet, list[Fraction]] = defaultdict(lambda: [Fraction(0), Fraction(0)])
        for (_, bh, k, n, _, db), c in self._folded(players, players).items():
            gain[bh, k, n][db] += self._ev(c)
        best = {s: Fraction(int(gain[s][1] < gain[s][0])) for s in self.bank_sets}
        return best, self.seat_result(players, players, best).expected_value

    def player_best_response(
        self, others: Mapping[Hand, Fraction], bank: Mapping[TableSet, Fraction]
    ) -> tuple[dict[Hand, Fraction], Fraction]:
        """Seat 1's exact best response to the bank and the other seats; its EV."""
        draw = {h: Fraction(1) for h in self.game.player_choices}
        stand = {h: Fraction(0) for h in self.game.player_choices}
        gain: dict[Hand, list[Fraction]] = defaultdict(lambda: [Fraction(0), Fraction(0)])
        for own in (draw, stand):
            for (ph, bh, k, n, dp, db), c in self._folded(own, others).items():
                q = bank[bh, k, n]
                gain[ph][dp] += (q if db else 1 - q) * self._ev(c)
        best = {h: Fraction(int(gain[h][1] > gain[h][0])) for h in self.game.player_choices}
        return best, self.seat_result(best, others, bank).expected_value


def finite_table(
    profile: Profile, shoe: Shoe, players: int, information: str = "totals"
) -> FiniteTable:
    """Count the table game of ``players`` seats on a finite shoe.

    >>> from odds import BUILTIN, parse_shoe
    >>> small = parse_shoe("2 1 1 1 1 1 1 1 1 2 1 1 1")
    >>> t = finite_table(BUILTIN["family"], small, 2, "totals")
    >>> t.total == 15 * 14 * 13 * 12 * 11 * 10 * 9 * 8
    True
    """
    game = build_game(profile, shoe, information)
    if game.bank_forced:
        raise GameError(
            f"profile {profile.key!r} fixes the bank's draws; the table game needs a bank "
            "that chooses (the family rules)"
        )
    vc0 = value_classes(shoe)
    n0 = sum(vc0)
    hands = len(_pairs(vc0))
    if hands ** (players + 1) > LIMIT:
        raise GameError(
            f"a table of {players} players on {shoe.label} means about "
            f"{hands ** (players + 1):,} two-card deals to count (the limit is {LIMIT:,}): "
            "exact finite-shoe tables stop at 2 players for a full pack; use --decks inf"
        )
    if n0 < 2 * (players + 1) + 2:
        raise GameError(f"the shoe has {n0} cards, too few for {players} players and a bank")
    naturals = profile.naturals

    def key_of(a: int, b: int) -> Hand:
        return (a, b) if information == "cards" else ((a + b) % 10,)

    def others(
        vc: tuple[int, ...], m: int
    ) -> Iterator[tuple[tuple[int, ...], int, list[Hand], int]]:
        """(cards left, weight, non-natural hands, naturals) over m more seats."""
        if m == 0:
            yield vc, 1, [], 0
            return
        for a, b, w in _pairs(vc):
            nat = (a + b) % 10 in naturals
            for left, w2, hs, nats in others(_minus(vc, a, b), m - 1):
                yield left, w * w2, hs if nat else [key_of(a, b), *hs], nats + nat

    # Neither hand is a natural past this point: the final values decide.
    win_if = [[(pf > bf) - (pf < bf) for bf in range(10)] for pf in range(10)]
    counts: dict[Key, list[int]] = defaultdict(lambda: [0, 0, 0])
    settled = [0, 0, 0]
    total = 0
    for a, b, wp in _pairs(vc0):
        vc1 = _minus(vc0, a, b)
        pv = (a + b) % 10
        ph = key_of(a, b)
        for c, d, wb in _pairs(vc1):
            vc2 = _minus(vc1, c, d)
            bv = (c + d) % 10
            bh = key_of(c, d)
            for vc, wo, hs, nats in others(vc2, players - 1):
                w = wp * wb * wo
                r = sum(vc)
                total += w * r * (r - 1)
                if pv in naturals or bv in naturals:
                    # Naturals settle first and stop every draw (build_game checked).
                    settled[_INDEX[outcome_of(profile, pv, bv, pv, bv)]] += w * r * (r - 1)
                    continue
                group: Others = (tuple(sorted(hs)), nats)
                # Bank finals if it draws: rotated counts and their prefix sums.
                rot = [vc[(g - bv) % 10] for g in range(10)]
                below = [0]
                for x in rot:
                    below.append(below[-1] + x)
                # Seat stands, bank stands / draws.
                out = win_if[pv][bv]
                counts[ph, bh, group, False, False][1 - out] += w * r * (r - 1)
                cell = counts[ph, bh, group, False, True]
                cell[0] += w * (r - 1) * below[pv]
                cell[1] += w * (r - 1) * rot[pv]
                cell[2] += w * (r - 1) * (r - below[pv + 1])
                stand_cell = counts[ph, bh, group, True, False]
                draw_cell = counts[ph, bh, group, True, True]
                for x in range(10):
                    if not vc[x]:
                        continue
                    pf = (pv + x) % 10
                    wx = w * vc[x]
                    stand_cell[1 - win_if[pf][bv]] += wx * (r - 1)
                    # The bank's card is one of the other r - 1: not this x.
                    taken = (bv + x) % 10
                    lo = below[pf] - (taken < pf)
                    eq = rot[pf] - (taken == pf)
                    draw_cell[0] += wx * lo
                    draw_cell[1] += wx * eq
                    draw_cell[2] += wx * (r - 1 - lo - eq)
    return FiniteTable(game, players, dict(counts), settled, total)
