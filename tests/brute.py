"""Independent brute-force enumerators, for checking the engine.

Nothing here is shared with the engine: no grouping, no value classes, no
memo, no padding trick.  Rules are read from the profile's plain fields
and applied card by card, as a dealer would.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations

from odds.rules.profile import Profile

# Point values by rank index A..K, written out again on purpose.
PIPS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]
NINE_RANK = 8


def _draws(rule: object, own: int, other_third: int | None) -> bool:
    draws = rule.draws  # type: ignore[attr-defined]
    tableau = rule.tableau  # type: ignore[attr-defined]
    if other_third is not None and tableau is not None:
        return other_third in tableau[own]
    return own in draws


def _pair_class(profile: Profile, a: int, b: int) -> int:
    if a == b == NINE_RANK:
        return 2
    if a == b:
        return 1
    if profile.colon_match.value == "value" and PIPS[a] == PIPS[b]:
        return 1
    return 0


def settle(profile: Profile, p: list[int], b: list[int]) -> tuple[str, Fraction]:
    """Play out a dealt round given full hands (ranks); returns (outcome, player net).

    ``p`` and ``b`` are the cards each hand ends with (2 or 3).
    """
    pv = (PIPS[p[0]] + PIPS[p[1]]) % 10
    bv = (PIPS[b[0]] + PIPS[b[1]]) % 10
    pf = sum(PIPS[c] for c in p) % 10
    bf = sum(PIPS[c] for c in b) % 10
    return settle_values(profile, pv, bv, pf, bf, _pair_class(profile, p[0], p[1]),
                         _pair_class(profile, b[0], b[1]))


def settle_values(
    profile: Profile, pv: int, bv: int, pf: int, bf: int, pc: int, bc: int
) -> tuple[str, Fraction]:
    """(outcome, player net) from two-card values, final values and pair classes (0, 1 Colon, 2 nines)."""
    p_nat = pv in profile.naturals
    b_nat = bv in profile.naturals
    if profile.naturals_rule.value == "outright" and (p_nat or b_nat):
        if p_nat and b_nat:
            mine, theirs = pv, bv
        elif p_nat:
            mine, theirs = 1, 0
        else:
            mine, theirs = 0, 1
    else:
        mine, theirs = pf, bf
    outcome = "win" if mine > theirs else "loss" if mine < theirs else "push"
    paid_bonus = None
    if pc and (outcome == "win" or profile.bonus_on.value == "always"):
        if pc == 2 and profile.colon_nine is not None:
            paid_bonus = profile.colon_nine
        elif profile.colon is not None:
            paid_bonus = profile.colon
    if paid_bonus is not None:
        net = paid_bonus
    elif outcome == "win":
        net = profile.win
    elif outcome == "push":
        net = profile.ties  # the pay table's tie amount (0, a push, by default)
    else:
        net = Fraction(-1)
        if profile.bank_bonus and bc:
            nine = profile.bank_colon_nine if profile.bank_colon_nine is not None else profile.colon_nine
            plain = profile.bank_colon if profile.bank_colon is not None else profile.colon
            if bc == 2 and nine is not None:
                net = -nine
            elif plain is not None:
                net = -plain
    return outcome, net


def play(profile: Profile, cards: list[int]) -> tuple[list[int], list[int]]:
    """Deal six cards in slot order P1 P2 B1 B2 P3 B3; returns both final hands."""
    p = cards[0:2]
    b = cards[2:4]
    pv = (PIPS[p[0]] + PIPS[p[1]]) % 10
    bv = (PIPS[b[0]] + PIPS[b[1]]) % 10
    stop = profile.naturals_stop_draws and (pv in profile.naturals or bv in profile.naturals)
    p_third = None
    if not stop and pv not in profile.naturals and _draws(profile.player_draw, pv, None):
        p.append(cards[4])
        p_third = PIPS[cards[4]]
    if not stop and bv not in profile.naturals and _draws(profile.bank_draw, bv, p_third):
        b.append(cards[5])
    return p, b


def by_permutations(
    profile: Profile,
    shoe_cards: list[int],
    player: list[int] | None = None,
    bank: list[int] | None = None,
) -> dict[str, Fraction]:
    """Every ordering of distinct physical cards, counted one by one.

    ``shoe_cards`` are the ranks of the cards in the shoe after known cards
    were dealt; ``player``/``bank`` are known ranks in deal order.  Known
    third cards must be the ones the hand draws, else the ordering is
    inconsistent and skipped.  Returns probabilities of outcomes, Colon
    flags and the mean and second moment of the player's net payout.
    """
    player = player or []
    bank = bank or []
    slots = [("p", 0), ("p", 1), ("b", 0), ("b", 1), ("p", 2), ("b", 2)]
    known = {("p", i): r for i, r in enumerate(player)} | {("b", i): r for i, r in enumerate(bank)}
    free = [s for s in slots if s not in known]
    tally: Counter[str] = Counter()
    nets: Counter[Fraction] = Counter()  # orderings by the player's net: summed once at the end
    n = 0
    for seq in permutations(range(len(shoe_cards)), len(free)):
        fill = dict(known)
        for slot, idx in zip(free, seq, strict=True):
            fill[slot] = shoe_cards[idx]
        cards = [fill[s] for s in slots]
        p, b = play(profile, cards.copy())
        if len(player) == 3 and len(p) < 3:
            continue
        if len(bank) == 3 and len(b) < 3:
            continue
        outcome, net = settle(profile, p, b)
        n += 1
        tally[outcome] += 1
        tally["player_colon"] += _pair_class(profile, p[0], p[1]) > 0
        tally["bank_colon"] += _pair_class(profile, b[0], b[1]) > 0
        tally["player_draws"] += len(p) == 3
        tally["bank_draws"] += len(b) == 3
        nets[net] += 1
    out = {k: Fraction(v, n) for k, v in tally.items()}
    out["ev"] = sum((net * k for net, k in nets.items()), Fraction(0)) / n
    out["second"] = sum((net * net * k for net, k in nets.items()), Fraction(0)) / n
    out["n"] = Fraction(n)
    return out


def by_rank_weights(profile: Profile, counts: list[int]) -> dict[str, Fraction]:
    """Every ordered six-card deal by ranks, weighted by its number of physical card orders.

    The same six-slot deal as :func:`by_permutations` (slots P1 P2 B1 B2 P3 B3, a
    third-card slot filled even when its hand stands), but over rank sequences,
    all 13^6 of them at once with numpy, so a full pack is quick.  A sequence
    r1..r6 stands for prod_k (count[r_k] - #{j < k: r_j = r_k}) orders of physical
    cards.  Each sequence is played out by the draw rules read from the profile;
    the weights are summed exactly (int64: a full pack has 52*51*50*49*48*47, about
    1.5e10, orders in all) by (two-card values, final values, pair classes), and
    each class is settled once by :func:`settle_values`.
    """
    import numpy as np

    c = np.array(counts, dtype=np.int64)
    pips = np.array(PIPS, dtype=np.int64)
    pair = np.array([[_pair_class(profile, x, y) for y in range(13)] for x in range(13)])
    naturals = np.array([v in profile.naturals for v in range(10)])
    player_rule = np.array([_draws(profile.player_draw, v, None) for v in range(10)])
    # bank_rule[v, t + 1]: the bank with two-card value v draws when the player's
    # third card has point value t (t = -1: the player stood).
    bank_rule = np.array([[_draws(profile.bank_draw, v, None if t < 0 else t) for t in range(-1, 10)]
                          for v in range(10)])
    rest = np.indices((13,) * 5, dtype=np.int64).reshape(5, -1)
    acc = np.zeros(10 * 10 * 10 * 10 * 3 * 3, dtype=np.int64)
    for first in range(13):
        seq = [np.full(rest.shape[1], first, dtype=np.int64), *rest]
        weight = np.ones(rest.shape[1], dtype=np.int64)
        for k, r in enumerate(seq):
            earlier = sum((seq[j] == r).astype(np.int64) for j in range(k)) if k else 0
            weight *= np.maximum(c[r] - earlier, 0)
        p1, p2, b1, b2, p3, b3 = seq
        pv = (pips[p1] + pips[p2]) % 10
        bv = (pips[b1] + pips[b2]) % 10
        stop = profile.naturals_stop_draws & (naturals[pv] | naturals[bv])
        p_draws = ~stop & ~naturals[pv] & player_rule[pv]
        third = np.where(p_draws, pips[p3], -1)
        b_draws = ~stop & ~naturals[bv] & bank_rule[bv, third + 1]
        pf = (pv + np.where(p_draws, pips[p3], 0)) % 10
        bf = (bv + np.where(b_draws, pips[b3], 0)) % 10
        key = ((((pv * 10 + bv) * 10 + pf) * 10 + bf) * 3 + pair[p1, p2]) * 3 + pair[b1, b2]
        np.add.at(acc, key, weight)
    tally: Counter[str] = Counter()
    money = Fraction(0)
    second = Fraction(0)
    total = 0
    for key_, w in enumerate(acc.tolist()):
        if not w:
            continue
        rest_, bc = divmod(key_, 3)
        rest_, pc = divmod(rest_, 3)
        rest_, bf_ = divmod(rest_, 10)
        rest_, pf_ = divmod(rest_, 10)
        pv_, bv_ = divmod(rest_, 10)
        outcome, net = settle_values(profile, pv_, bv_, pf_, bf_, pc, bc)
        total += w
        tally[outcome] += w
        money += net * w
        second += net * net * w
    out = {k: Fraction(v, total) for k, v in tally.items()}
    out["ev"] = money / total
    out["second"] = second / total
    out["n"] = Fraction(total)
    return out
