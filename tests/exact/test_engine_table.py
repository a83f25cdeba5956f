"""A seat at a table of N players has the heads-up figures (fixed rules).

Brute force deals a whole table in the real order (two cards each, one at
a time, bank last in each round; players draw in seat order, the bank
last) from a small shoe, and compares every seat with the engine.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from odds import BUILTIN, Shoe, round_odds
from tests.brute import PIPS, settle
from tests.examples import halve


def deal_table(profile_key: str, counts: list[int], seats: int) -> list[Counter[str]]:
    """Outcome probabilities for each seat, dealing card by card."""
    profile = BUILTIN[profile_key]
    result: list[Counter[str]] = [Counter() for _ in range(seats)]
    c = list(counts)
    hands: list[list[int]] = [[] for _ in range(seats + 1)]  # last one is the bank
    order = [i for _ in range(2) for i in range(seats + 1)]

    def draws(rule: object, hand: list[int]) -> bool:
        v = (PIPS[hand[0]] + PIPS[hand[1]]) % 10
        return v not in profile.naturals and v in rule.draws  # type: ignore[attr-defined]

    def third(seat: int, weight: Fraction) -> None:
        if seat > seats:
            for s in range(seats):
                outcome, _ = settle(profile, hands[s], hands[seats])
                result[s][outcome] += weight
            return
        hand = hands[seat]
        rule = profile.bank_draw if seat == seats else profile.player_draw
        if draws(rule, hand):
            left = sum(c)
            for r in range(13):
                if c[r]:
                    p = Fraction(c[r], left)
                    c[r] -= 1
                    hand.append(r)
                    third(seat + 1, weight * p)
                    hand.pop()
                    c[r] += 1
        else:
            third(seat + 1, weight)

    def initial(k: int, weight: Fraction) -> None:
        if k == len(order):
            third(0, weight)
            return
        left = sum(c)
        for r in range(13):
            if c[r]:
                p = Fraction(c[r], left)
                c[r] -= 1
                hands[order[k]].append(r)
                initial(k + 1, weight * p)
                hands[order[k]].pop()
                c[r] += 1

    initial(0, Fraction(1))
    return result


# Few distinct ranks keep the whole-table enumeration small; these still give
# naturals, hands that stand and hands that draw.
SHOES = {
    2: [3, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 3],  # A 5 9 K, three each
    3: [0, 0, 4, 0, 0, 4, 0, 0, 0, 0, 0, 0, 4],  # 3 6 K, four each
}


@pytest.mark.parametrize("profile", halve("profile", ["standard", "forced-draw"]))  # CI: both
@pytest.mark.parametrize("seats", [2, 3])
def test_seat_figures_do_not_depend_on_position_or_table_size(profile: str, seats: int) -> None:
    counts = SHOES[seats]
    heads_up = round_odds(BUILTIN[profile], Shoe(tuple(counts)))
    for seat, got in enumerate(deal_table(profile, counts, seats)):
        assert sum(got.values()) == 1
        assert (got["win"], got["push"], got["loss"]) == (
            heads_up.win, heads_up.push, heads_up.loss), f"seat {seat} of {seats}"
