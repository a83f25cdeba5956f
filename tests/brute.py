"""Independent brute-force enumerators, for checking the engine.

Nothing here is shared with the engine: no grouping, no value classes, no
memo, no padding trick.  Rules are read from the profile's plain fields
and applied card by card, as a dealer would.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations

from odds.rules.profiles import Profile

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
    pc = _pair_class(profile, p[0], p[1])
    bc = _pair_class(profile, b[0], b[1])
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
        net = Fraction(0)
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
    money = Fraction(0)
    money2 = Fraction(0)
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
        money += net
        money2 += net * net
    out = {k: Fraction(v, n) for k, v in tally.items()}
    out["ev"] = money / n
    out["second"] = money2 / n
    out["n"] = Fraction(n)
    return out


def by_rank_weights(profile: Profile, counts: list[int]) -> dict[str, Fraction]:
    """Ordered deals weighted by rank counts, card slot by card slot.

    The same six-slot deal as :func:`by_permutations`, but each slot loops
    over ranks with the number of cards of that rank left, so a full pack is
    feasible.  A third card is only enumerated when the hand draws; the
    third-card stage is weighted by P(leaf | first four cards) times
    m(m-1), m the cards left, so every four-card prefix carries weight
    m(m-1) in all, as it does among full six-card orderings.
    """
    c = list(counts)
    tally: Counter[str] = Counter()
    total = 0
    money_num = 0
    second_num = 0
    nets: dict[Fraction, int] = Counter()
    for a in range(13):
        wa = c[a]
        if not wa:
            continue
        c[a] -= 1
        for b_ in range(13):
            wb = c[b_]
            if not wb:
                continue
            c[b_] -= 1
            for d in range(13):
                wd = c[d]
                if not wd:
                    continue
                c[d] -= 1
                for e in range(13):
                    we = c[e]
                    if not we:
                        continue
                    c[e] -= 1
                    w4 = wa * wb * wd * we
                    for cards, w in _third_cards(profile, [a, b_], [d, e], c):
                        p, b = cards
                        outcome, net = settle(profile, p, b)
                        weight = w4 * w
                        total += weight
                        tally[outcome] += weight
                        nets[net] += weight
                    c[e] += 1
                c[d] += 1
            c[b_] += 1
        c[a] += 1
    for net, w in nets.items():
        money_num += net * w
        second_num += net * net * w
    out = {k: Fraction(v, total) for k, v in tally.items()}
    out["ev"] = Fraction(money_num, total)
    out["second"] = Fraction(second_num) / total
    return out


def _third_cards(
    profile: Profile, p: list[int], b: list[int], c: list[int]
) -> list[tuple[tuple[list[int], list[int]], int]]:
    """Both hands completed by the draw rules, weighted by m(m-1) P(leaf)."""
    pv = (PIPS[p[0]] + PIPS[p[1]]) % 10
    bv = (PIPS[b[0]] + PIPS[b[1]]) % 10
    stop = profile.naturals_stop_draws and (pv in profile.naturals or bv in profile.naturals)
    m = sum(c)
    out = []
    p_opts: list[tuple[list[int], int, int | None]] = []
    if not stop and pv not in profile.naturals and _draws(profile.player_draw, pv, None):
        for r in range(13):
            if c[r]:
                # P(third card r) = c[r]/m; scaled by m(m-1) this is c[r](m-1),
                # and the bank's card below then scales by 1/(m-1).
                p_opts.append((p + [r], c[r], r))
    else:
        p_opts.append((p, m, None))
    for hand, w, r in p_opts:
        if r is not None:
            c[r] -= 1
        third = None if r is None else PIPS[r]
        left = m - (r is not None)
        if not stop and bv not in profile.naturals and _draws(profile.bank_draw, bv, third):
            # P(bank card s) = c[s]/left among the cards not in either hand.
            for s in range(13):
                if c[s]:
                    out.append(((hand, b + [s]), w * c[s] * (m - 1) // left))
        else:
            out.append(((hand, b), w * (m - 1)))
        if r is not None:
            c[r] += 1
    return out
