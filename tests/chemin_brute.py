"""A slow, separate chemin de fer solver for the tests: cards dealt one at a time.

Nothing here uses :mod:`odds.game`: the round is dealt card by card in
table order (player, banker, player, banker, then the third cards), with
the rules of chemin de fer written out again, and the payoffs are kept per
(player's information, banker's information, actions).  The game is then
solved without Foster's sweep: with one player choice by trying every
corner of the player's guaranteed EV and every end (each banker set's
minimum evaluated directly), with several by the exact simplex
over the whole programme (no set summed out).
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from odds.game.lp import maximise

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
    settled banker EV): weights[key] = (player EV part, banker EV part), the
    probability-weighted payoffs.  Sequences are counted in integers, each
    weighted up to six cards (an unused third-card slot is any card), and
    divided once at the end.
    """
    infinite = counts is None
    left = [4, 1, 1, 1, 1, 1, 1, 1, 1, 1] if infinite else list(counts)
    if infinite:
        left[0] = 4  # 10 J Q K out of 13 ranks
    n0 = sum(left)
    wins: dict = defaultdict(lambda: [0, 0])  # key -> [player wins, banker wins] counts
    settled = [0, 0]

    def take(v: int) -> None:
        if not infinite:
            left[v] -= 1

    def put(v: int) -> None:
        if not infinite:
            left[v] += 1

    def tally(slot: list[int], pf: int, bf: int, weight: int) -> None:
        if pf > bf:
            slot[0] += weight
        elif pf < bf:
            slot[1] += weight

    def info(cards: list[int], how: str) -> tuple[int, ...]:
        return tuple(sorted(cards)) if how == "cards" else (_value(cards),)

    def after_initial(pc: list[int], bc: list[int], weight: int) -> None:
        pv, bv = _value(pc), _value(bc)
        n4 = sum(left)
        n5 = n4 if infinite else n4 - 1
        if pv >= 8 or bv >= 8:
            tally(settled, pv, bv, weight * n4 * n5)
            return
        pset, bhand = info(pc, player_info), info(bc, bank_info)
        if pv >= 5:  # the player stands (on 5 by choice): the banker's card is the next one
            tally(wins[pset, (bhand, STOOD), False, False], pv, bv, weight * n4 * n5)
            for y in range(10):
                if left[y]:
                    tally(wins[pset, (bhand, STOOD), False, True], pv, (bv + y) % 10,
                          weight * left[y] * n5)
        if pv <= 5:  # the player draws, face up
            for x in range(10):
                if not left[x]:
                    continue
                cx = left[x]
                take(x)
                pf = (pv + x) % 10
                seen = f"third {x}"
                tally(wins[pset, (bhand, seen), True, False], pf, bv, weight * cx * n5)
                for y in range(10):
                    if left[y]:
                        tally(wins[pset, (bhand, seen), True, True], pf, (bv + y) % 10,
                              weight * cx * left[y])
                put(x)

    # Table order: player, banker, player, banker.
    for p1 in range(10):
        c1 = left[p1]
        if not c1:
            continue
        take(p1)
        for b1 in range(10):
            c2 = left[b1]
            if not c2:
                continue
            take(b1)
            for p2 in range(10):
                c3 = left[p2]
                if not c3:
                    continue
                take(p2)
                for b2 in range(10):
                    c4 = left[b2]
                    if not c4:
                        continue
                    take(b2)
                    after_initial([p1, p2], [b1, b2], c1 * c2 * c3 * c4)
                    put(b2)
                put(p2)
            put(b1)
        put(p1)
    total = n0 ** 6 if infinite else n0 * (n0 - 1) * (n0 - 2) * (n0 - 3) * (n0 - 4) * (n0 - 5)
    keep = 1 - commission

    def parts(w: int, lose: int) -> tuple[Fraction, Fraction]:
        return Fraction(w - lose, total), (lose * keep - w) / total

    table = {key: parts(*wl) for key, wl in wins.items()}
    sp, sb = parts(*settled)
    return table, sp, sb


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
        return const + sum(min(ln[0] + sum(c * r[p] for p, c in ln[1].items()) for ln in two)
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
    low = min(ln[0] - sum(abs(c) for c in ln[1].values()) for two in lines.values() for ln in two) - 1
    for j, s in enumerate(sets):
        for ln in lines[s]:
            row = [Fraction(0)] * (n + len(sets))
            for p, c in ln[1].items():
                row[index[p]] = -c
            row[n + j] = Fraction(1)
            rows.append(row)
            rhs.append(ln[0] - low)
    for i in range(n):
        row = [Fraction(0)] * (n + len(sets))
        row[i] = Fraction(1)
        rows.append(row)
        rhs.append(Fraction(1))
    result = maximise([Fraction(0)] * n + [Fraction(1)] * len(sets), rows, rhs)
    return const + result.value + low * len(sets)
