"""The bank's round by brute force: every ordering of a 9-card shoe, two seats, in the real
deal order; seats settled under caps by hand."""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction as F
from functools import cache
from itertools import permutations

from odds import Shoe
from odds.rules.rule_types import CapRule
from tests.brute import PIPS, settle

# 9 9 5 5 K Q 3 4 8: a Colon nine, a Colon, zero cards and naturals are all possible.
TINY_RANKS = [8, 8, 4, 4, 12, 11, 2, 3, 7]


def _tiny_shoe() -> Shoe:
    counts = [0] * 13
    for r in TINY_RANKS:
        counts[r] += 1
    return Shoe(tuple(counts))


def _draws(rule: object, value: int) -> bool:
    return value in rule.draws  # type: ignore[attr-defined]


@cache
def _rank_orders() -> frozenset[tuple[int, ...]]:
    """The shoe's distinct rank orders (9! orderings of its cards, 2! x 2! each)."""
    return frozenset(permutations(TINY_RANKS))


def dealt_orders(profile) -> list[list[list[int]]]:
    """Two seats' and the bank's final hands, one list per distinct rank order of the shoe.

    Dealt as at a table: two cards each, one at a time, the bank last; then third
    cards in seat order, the bank last.
    """
    orders = []
    for cards in _rank_orders():
        hands = [[cards[0], cards[3]], [cards[1], cards[4]], [cards[2], cards[5]]]
        nxt = 6
        for i, hand in enumerate(hands):
            v = (PIPS[hand[0]] + PIPS[hand[1]]) % 10
            rule = profile.bank_draw if i == 2 else profile.player_draw
            if v not in profile.naturals and _draws(rule, v):
                hand.append(cards[nxt])
                nxt += 1
        orders.append(hands)
    return orders


def _brute_types(profile, plain) -> Counter:
    """Seat settlements (net, net without any bonus) per ordering, dealt as at a table.

    Two cards each, one at a time, the bank last; then third cards in seat
    order, the bank last.  ``plain`` is the profile without player bonuses.
    """
    tally: Counter = Counter()
    memo: dict = {}

    def net_of(prof, hand, bank):
        key = (id(prof), tuple(hand), tuple(bank))
        if key not in memo:
            memo[key] = settle(prof, hand, bank)[1]
        return memo[key]

    # Each distinct rank order stands for 2! x 2! orderings of the physical cards.
    for hands in dealt_orders(profile):
        bank = hands[2]
        seats = []
        for hand in hands[:2]:
            net = net_of(profile, hand, bank)
            fallback = net_of(plain, hand, bank)
            seats.append((net, net != fallback, fallback))
        tally[tuple(seats)] += 1
    return tally


def _brute_settle(seats, stakes, bonus_cap, round_cap, rule):
    used = 0
    due = []
    for (net, bonus, fallback), stake in zip(seats, stakes, strict=True):
        if bonus and bonus_cap is not None and used >= bonus_cap:
            net = fallback
        elif bonus:
            used += 1
        due.append(net * stake)
    claims = sum(d for d in due if d > 0)
    if round_cap is None or claims <= round_cap:
        return -sum(due), due
    paid = []
    budget = round_cap
    for d in due:
        if d <= 0:
            paid.append(d)
        elif rule is CapRule.PRO_RATA:
            paid.append(d * round_cap / claims)
        else:
            paid.append(min(d, budget))
            budget -= paid[-1]
    return -sum(paid), paid


def table_order_tally(profile, plain, ranks: dict[int, int], seats: int) -> dict:
    """Every deal of a round, a card at a time in table order: {seat settlements: probability}.

    Two cards round the table (seat by seat, the bank last), then third cards in
    the same order, each by the profile's plain draw sets.  A seat's settlement
    is (net, paid as a bonus, net had the bonus not been paid), per unit stake.
    """
    hands = seats + 1
    start = tuple(ranks.get(r, 0) for r in range(13))

    @cache
    def deal(pos: int, left: tuple[int, ...], held: tuple[tuple[int, ...], ...]) -> dict:
        if pos < 2 * hands:
            h = pos % hands
        else:
            h = pos - 2 * hands
            if h == hands:
                bank = list(held[-1])
                out = []
                for mine in held[:-1]:
                    net = settle(profile, list(mine), bank)[1]
                    fallback = settle(plain, list(mine), bank)[1]
                    out.append((net, net != fallback, fallback))
                return {tuple(out): F(1)}
            rule = profile.bank_draw if h == seats else profile.player_draw
            v = (PIPS[held[h][0]] + PIPS[held[h][1]]) % 10
            if v in profile.naturals or v not in rule.draws:
                return deal(pos + 1, left, held)
        found: dict = defaultdict(F)
        n = sum(left)
        for r, c in enumerate(left):
            if c:
                hand = held[h] + (r,)
                if pos < 2 * hands:  # the first two cards' order does not matter
                    hand = tuple(sorted(hand))
                nxt = deal(pos + 1, left[:r] + (c - 1,) + left[r + 1:],
                           held[:h] + (hand,) + held[h + 1:])
                for k, w in nxt.items():
                    found[k] += F(c, n) * w
        return dict(found)

    return deal(0, start, ((),) * hands)
