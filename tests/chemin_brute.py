"""A slow, separate chemin de fer solver for the tests: cards dealt one at a time.

Nothing here uses :mod:`odds.game`: the round is dealt card by card in
table order (player, banker, player, banker, then the third cards), with
the rules of chemin de fer written out again, and the payoffs are kept per
(player's information, banker's information, actions).  The game is then
solved without Foster's sweep: with one player choice by trying every
corner of the player's guaranteed EV and every end (each banker set's
minimum evaluated directly), with several by the plain ``Fraction``
simplex on the whole sequence form.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from odds.game.lp import maximise_fractions

STOOD = "stood"


def _value(cards: list[int]) -> int:
    return sum(cards) % 10


def _result(p: int, b: int) -> int:
    return (p > b) - (p < b)


def deal_table(counts: list[int] | None, player_info: str, bank_info: str,
               commission: Fraction = Fraction(0)) -> tuple[dict, Fraction, Fraction]:
    """Payoff weights of every (player set, bank set, player draws, bank draws).

    ``counts`` are cards per point value 0..9 (None: an infinite single deck,
    value 0 four times as likely).  Returns (weights, settled player EV,
    settled banker EV): weights[key] = (P, player EV contribution, banker EV
    contribution) where the contributions are the probability-weighted payoffs.
    """
    infinite = counts is None
    left = [16, 4, 4, 4, 4, 4, 4, 4, 4, 4] if infinite else list(counts)
    table: dict = defaultdict(lambda: [Fraction(0), Fraction(0)])
    settled = [Fraction(0), Fraction(0)]

    def draw_probs() -> list[tuple[int, Fraction]]:
        n = sum(left)
        return [(v, Fraction(c, n)) for v, c in enumerate(left) if c]

    def take(v: int) -> None:
        if not infinite:
            left[v] -= 1

    def put(v: int) -> None:
        if not infinite:
            left[v] += 1

    def pay(result: int) -> tuple[Fraction, Fraction]:
        if result > 0:
            return Fraction(1), Fraction(-1)
        if result < 0:
            return Fraction(-1), 1 - commission
        return Fraction(0), Fraction(0)

    def info(cards: list[int], how: str) -> tuple[int, ...]:
        return tuple(sorted(cards)) if how == "cards" else (_value(cards),)

    def after_initial(pc: list[int], bc: list[int], prob: Fraction) -> None:
        pv, bv = _value(pc), _value(bc)
        if pv >= 8 or bv >= 8:
            a, b = pay(_result(pv, bv))
            settled[0] += prob * a
            settled[1] += prob * b
            return
        pset, bhand = info(pc, player_info), info(bc, bank_info)
        # The player stands (on 5 by choice, 6-7 by rule), or draws face up.
        for pdraw in (False, True):
            if pv <= 4 and not pdraw or pv >= 6 and pdraw:
                continue
            if not pdraw:
                seen = STOOD
                for bdraw in (False, True):
                    key = (pset, (bhand, seen), pdraw, bdraw)
                    if not bdraw:
                        a, b = pay(_result(pv, bv))
                        table[key][0] += prob * a
                        table[key][1] += prob * b
                        continue
                    for y, py in draw_probs():
                        a, b = pay(_result(pv, (bv + y) % 10))
                        table[key][0] += prob * py * a
                        table[key][1] += prob * py * b
                continue
            for x, px in draw_probs():
                take(x)
                seen = f"third {x}"
                pf = (pv + x) % 10
                for bdraw in (False, True):
                    key = (pset, (bhand, seen), pdraw, bdraw)
                    if not bdraw:
                        a, b = pay(_result(pf, bv))
                        table[key][0] += prob * px * a
                        table[key][1] += prob * px * b
                        continue
                    for y, py in draw_probs():
                        a, b = pay(_result(pf, (bv + y) % 10))
                        table[key][0] += prob * px * py * a
                        table[key][1] += prob * px * py * b
                put(x)

    # Table order: player, banker, player, banker.
    for p1, q1 in draw_probs():
        take(p1)
        for b1, r1 in draw_probs():
            take(b1)
            for p2, q2 in draw_probs():
                take(p2)
                for b2, r2 in draw_probs():
                    take(b2)
                    after_initial([p1, p2], [b1, b2], q1 * r1 * q2 * r2)
                    put(b2)
                put(p2)
            put(b1)
        put(p1)
    return dict(table), settled[0], settled[1]


def payoffs(table: dict, settled: tuple[Fraction, Fraction], player: dict, bank: dict
            ) -> tuple[Fraction, Fraction]:
    """Both sides' EV for behaviour strategies (P(draw) per set; forced sets absent)."""
    pp, bp = settled
    for (pset, bset, pdraw, bdraw), (a, b) in table.items():
        rp = player.get(pset)
        wp = Fraction(1) if rp is None else (rp if pdraw else 1 - rp)
        rb = bank.get(bset, Fraction(0))
        wb = rb if bdraw else 1 - rb
        pp += wp * wb * a
        bp += wp * wb * b
    return pp, bp


def choice_sets(table: dict) -> tuple[list, list]:
    """The player's sets where he chooses (both actions occur), and the banker's sets."""
    acts = defaultdict(set)
    for pset, _, pdraw, _ in table:
        acts[pset].add(pdraw)
    players = sorted(p for p, a in acts.items() if len(a) == 2)
    banks = sorted({bset for _, bset, _, _ in table})
    return players, banks


def best_responses(table: dict, settled: tuple[Fraction, Fraction], player: dict, bank: dict
                   ) -> tuple[Fraction, Fraction]:
    """The player's best EV against ``bank`` and the banker's best EV against ``player``."""
    players, banks = choice_sets(table)
    gain = defaultdict(lambda: [Fraction(0), Fraction(0)])
    fixed = settled[0]
    for (pset, bset, pdraw, bdraw), (a, _) in table.items():
        rb = bank.get(bset, Fraction(0))
        w = a * (rb if bdraw else 1 - rb)
        if pset in players:
            gain[pset][pdraw] += w
        else:
            fixed += w
    player_best = fixed + sum(max(g) for g in gain.values())
    bgain = defaultdict(lambda: [Fraction(0), Fraction(0)])
    for (pset, bset, pdraw, bdraw), (_, b) in table.items():
        rp = player.get(pset)
        wp = Fraction(1) if rp is None else (rp if pdraw else 1 - rp)
        bgain[bset][bdraw] += wp * b
    bank_best = settled[1] + sum(max(g) for g in bgain.values())
    return player_best, bank_best


def zero_sum_value(table: dict, settled: tuple[Fraction, Fraction]) -> Fraction:
    """The game's value, found without Foster's sweep (corners tried one by one, or an LP)."""
    players, banks = choice_sets(table)
    # lines[bset][bdraw] = (constant, {player set: coefficient}) of the player's EV
    lines: dict = defaultdict(lambda: [[Fraction(0), defaultdict(Fraction)] for _ in range(2)])
    const = settled[0]
    for (pset, bset, pdraw, bdraw), (a, _) in table.items():
        line = lines[bset][bdraw]
        if pset not in players:
            line[0] += a
        elif pdraw:
            line[1][pset] += a
        else:
            line[0] += a
            line[1][pset] -= a

    def f(r: dict) -> Fraction:
        return const + sum(min(l[0] + sum(c * r[p] for p, c in l[1].items()) for l in two)
                           for two in lines.values())

    if len(players) == 1:
        (h,) = players
        points = {Fraction(0), Fraction(1)}
        for two in lines.values():
            (a0, c0), (a1, c1) = two
            if c0[h] != c1[h]:
                t = (a1 - a0) / (c0[h] - c1[h])
                if 0 < t < 1:
                    points.add(t)
        return max(f({h: t}) for t in points)
    # Several choices: maximise sum_j z_j with z_j <= each line, 0 <= r <= 1 (reference simplex).
    n, sets = len(players), list(lines)
    index = {p: i for i, p in enumerate(players)}
    rows, rhs = [], []
    low = min(l[0] - sum(abs(c) for c in l[1].values()) for two in lines.values() for l in two) - 1
    for j, s in enumerate(sets):
        for l in lines[s]:
            row = [Fraction(0)] * (n + len(sets))
            for p, c in l[1].items():
                row[index[p]] = -c
            row[n + j] = Fraction(1)
            rows.append(row)
            rhs.append(l[0] - low)
    for i in range(n):
        row = [Fraction(0)] * (n + len(sets))
        row[i] = Fraction(1)
        rows.append(row)
        rhs.append(Fraction(1))
    result = maximise_fractions([Fraction(0)] * n + [Fraction(1)] * len(sets), rows, rhs)
    return const + result.value + low * len(sets)
