"""The bank's round on a finite shoe at three seats, enumerated hand by hand, must bite.

Mutation testing (docs/mutation.md) found the hand-by-hand enumeration of
odds/money/bank.py never run to its end by any test (every finite table
either had two seats or ran out of budget), its budget never tested at its
edge, the refusal of a profile without fixed draw rules never tried, and the
cache of pair counts free to grow.  Here a twelve-card shoe at three seats is
checked against every deal in table order, the budget at its exact edge.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction
from functools import cache

import pytest

from odds import BUILTIN, Shoe
from odds.money import bank as bank_module
from odds.money.bank import _settle_sequences, bank_round
from odds.rules.profiles import CapRule, ProfileError, Session
from tests.bank_brute import _brute_settle
from tests.brute import PIPS, settle

STD = BUILTIN["standard"]
PLAIN_STD = STD.with_options(colon="none", colon_nine="none")  # the seat's net with no bonus
F = Fraction


def _shoe(ranks: dict[int, int]) -> Shoe:
    counts = [0] * 13
    for r, c in ranks.items():
        counts[r] = c
    return Shoe(tuple(counts))


# Five 5s, four 9s, three Ks: twelve cards, exactly a round of three seats and the bank.
# Pairs (Colons, Colon nines) and mixed hands of unequal counts, hands that draw
# (5+5, 5+K, K+K, 5+9 = 4) and naturals (9+9, 9+K), totals past 10, and empty ranks
# between the full ones.
TWELVE = {4: 5, 8: 4, 12: 3}


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


@pytest.fixture(scope="module")
def twelve_tally() -> dict:
    return table_order_tally(STD, PLAIN_STD, TWELVE, 3)


SESSIONS = [
    Session(stakes=(F(1), F(2), F(3))),
    Session(stakes=(F(1), F(1), F(2)), bonus_cap=1),
    Session(stakes=(F(2), F(1), F(1)), round_cap=F(3), cap_rule=CapRule.PRO_RATA),
]


@pytest.mark.parametrize("session", SESSIONS, ids=["stakes-1-2-3", "bonus-cap-1", "round-cap-3"])
def test_three_seats_on_twelve_cards_match_every_deal_in_table_order(twelve_tally,
                                                                      session) -> None:
    bank: Counter = Counter()
    seats: list[Counter] = [Counter() for _ in range(3)]
    for seq, p in twelve_tally.items():
        net, paid = _brute_settle(seq, session.stakes, session.bonus_cap, session.round_cap,
                                  session.cap_rule)
        bank[F(net)] += p
        for i, x in enumerate(paid):
            seats[i][F(x)] += p
    r = bank_round(STD, _shoe(TWELVE), session)  # the default budget
    assert r.exact and r.method == "exact enumeration of the shoe's composition, hand by hand"
    assert dict(r.distribution) == {v: p for v, p in sorted(bank.items()) if p}
    for i in range(3):
        assert dict(r.seats[i]) == {v: p for v, p in sorted(seats[i].items()) if p}


# -- the budget, at its edge ------------------------------------------------------------------
# A shoe of one rank deals one hand, one way, at every step: the enumeration makes one
# transition per hand that stands and 13 (one per rank the third card could be) per hand
# that draws.  Three seats and the bank are four hands.


@pytest.mark.parametrize("rank,per_hand", [(8, 1), (4, 13)], ids=["nines-stand", "fives-draw"])
def test_a_budget_of_exactly_the_transitions_is_enough_and_one_fewer_is_not(rank,
                                                                              per_hand) -> None:
    shoe = _shoe({rank: 12})
    needed = 4 * per_hand
    r = bank_round(STD, shoe, Session(players=3), budget=needed, samples=10)
    assert r.exact and r.method == "exact enumeration of the shoe's composition, hand by hand"
    # Every hand is the same (9 9 naturals, or 5 5 drawing a 5): every seat pushes.
    assert dict(r.distribution) == {F(0): F(1)}
    assert all(dict(s) == {F(0): F(1)} for s in r.seats)
    short = bank_round(STD, shoe, Session(players=3), budget=needed - 1, samples=10)
    assert not short.exact and short.samples == 10
    assert short.method.startswith("10 Monte Carlo rounds, seed 1")


# -- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["family", "chemin-de-fer"])
def test_a_profile_where_players_choose_is_refused_with_its_sentence(key) -> None:
    assert not BUILTIN[key].fixed
    with pytest.raises(ProfileError) as caught:
        bank_round(BUILTIN[key], Shoe.infinite_shoe(), Session(players=1))
    assert str(caught.value) == (
        f"profile {key!r} has no fixed draw rule (players and bank choose): "
        "the bank's figures need fixed rules")


def test_settlements_for_more_seats_than_stakes_are_refused_not_cut_short() -> None:
    # Three seats' settlements against two stakes: a seat must not silently vanish.
    win = (F(1), False, F(1))
    with pytest.raises(ValueError):
        _settle_sequences(({(win, win, win): 1}, 1), Session(players=2), (F(1), F(1)))
    bank, seats = _settle_sequences(({(win, win): 1}, 1), Session(players=2), (F(1), F(1)))
    assert bank == {F(-2): F(1)} and seats == ({F(1): F(1)}, {F(1): F(1)})


# -- the cache of pair counts -----------------------------------------------------------------


def test_the_pair_counts_of_one_shoe_only_are_kept() -> None:
    # A batch or a --precision run may ask for many shoes: the memory holds the last one's
    # counts, and asking again for it reuses them.
    first, second = _shoe({4: 6, 8: 6}), _shoe({4: 5, 8: 4, 12: 3})
    bank_round(STD, first, Session(players=2))
    kept = bank_module._PAIRS[STD, first]
    assert list(bank_module._PAIRS) == [(STD, first)]
    bank_round(STD, second, Session(players=2))
    assert list(bank_module._PAIRS) == [(STD, second)]
    bank_round(STD, first, Session(players=2))
    assert list(bank_module._PAIRS) == [(STD, first)]
    assert bank_module._PAIRS[STD, first] is not kept  # counted again: it was dropped
