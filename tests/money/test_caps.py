"""Caps with fractional stakes where the seats are counted against the bank's hand
(heads-up and the infinite shoe): the integer-scaled count must agree with plain
Fraction arithmetic, and every amount in units must scale with the stakes.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction

import pytest

from odds import BUILTIN, Shoe, round_odds
from odds.money.bank import bank_round
from odds.money.caps import settle_states, settle_table
from odds.rules.errors import ProfileError
from odds.rules.rule_types import CapRule
from odds.rules.session_options import Session
from tests.bank_brute import _brute_settle, _tiny_shoe

INF = Shoe.infinite_shoe()
F = Fraction


def _scaled(dist: dict[Fraction, Fraction], t: Fraction) -> dict[Fraction, Fraction]:
    return {v * t: p for v, p in dist.items()}


# -- every amount is in units: stakes and round cap times t => every net times t ------------

HOMOGENEOUS = [
    # (base stakes, bonus cap, base round cap): bonuses and the round cap both bite.
    ((F(1), F(2)), 1, F(3)),
    ((F(2), F(1), F(1)), 1, F(4)),
]


@pytest.mark.parametrize("t", [F(1, 2), F(2, 5)])
@pytest.mark.parametrize("rule", list(CapRule))
@pytest.mark.parametrize("stakes,bonus_cap,round_cap", HOMOGENEOUS,
                         ids=[f"stakes{len(s)}-bonus{b}-round{r}" for s, b, r in HOMOGENEOUS])
def test_scaling_stakes_and_round_cap_scales_every_net(stakes, bonus_cap, round_cap, rule,
                                                       t) -> None:
    profile = BUILTIN["standard"]
    base = bank_round(profile, INF, Session(stakes=stakes, bonus_cap=bonus_cap,
                                            round_cap=round_cap, cap_rule=rule))
    small = bank_round(profile, INF, Session(stakes=tuple(s * t for s in stakes),
                                             bonus_cap=bonus_cap, round_cap=round_cap * t,
                                             cap_rule=rule))
    assert base.exact and small.exact
    assert dict(small.distribution) == _scaled(dict(base.distribution), t)
    for i in range(len(stakes)):
        assert dict(small.seats[i]) == _scaled(dict(base.seats[i]), t)
    # The cap really binds: the bank's worst round is exactly the cap.
    assert small.worst == -round_cap * t


# -- heads-up: the seat's own distribution, pushed through the cap -----------------------


@pytest.fixture(scope="module")
def seat_dists() -> dict[str, dict[Fraction, Fraction]]:
    return {key: dict(round_odds(BUILTIN[key], INF).payout_distribution())
            for key in ("standard", "plain")}


@pytest.mark.parametrize("stake,cap", [(F(1, 2), F(1)), (F(3, 4), F(3, 2)), (F(2, 3), F(1, 3)),
                                       (F(5, 2), F(4))])
@pytest.mark.parametrize("rule", list(CapRule))
def test_heads_up_round_cap_at_a_fractional_stake_is_the_seat_capped(seat_dists, stake, cap,
                                                                     rule) -> None:
    want: dict[Fraction, Fraction] = defaultdict(Fraction)
    for v, p in seat_dists["standard"].items():
        want[-min(v * stake, cap)] += p
    r = bank_round(BUILTIN["standard"], INF, Session(stakes=(stake,), round_cap=cap,
                                                     cap_rule=rule))
    assert r.exact
    assert dict(r.distribution) == {v: want[v] for v in sorted(want)}
    assert dict(r.seats[0]) == {-v: want[v] for v in sorted(want, reverse=True)}


@pytest.mark.parametrize("stake", [F(1, 2), F(2, 3), F(7, 4)])
def test_heads_up_bonus_cap_zero_at_a_fractional_stake_is_the_plain_game(seat_dists,
                                                                         stake) -> None:
    # A capped Colon is settled as if it were none: the plain profile's seat, times the stake.
    plain = seat_dists["plain"]
    r = bank_round(BUILTIN["standard"], INF, Session(stakes=(stake,), bonus_cap=0))
    assert r.exact
    assert dict(r.seats[0]) == {v * stake: p for v, p in sorted(plain.items())}
    assert dict(r.distribution) == {-v * stake: p for v, p in sorted(plain.items(), reverse=True)}


# -- the scaled integer count against every combination of seats, in Fractions --------------

# (net per unit, bonus paid, net if the bonus is capped): fractional pays (a 5/2 Colon,
# a 19/20 commission), a bonus on a loss, a push.
TYPES_A = {(F(5, 2), True, F(1)): 2, (F(-1), False, F(-1)): 3, (F(0), False, F(0)): 1,
           (F(19, 20), False, F(19, 20)): 1}
TYPES_B = {(F(3), True, F(1)): 1, (F(-1), False, F(-1)): 2, (F(1, 2), True, F(-1)): 3,
           (F(1), False, F(1)): 1}
STATES = [(2, TYPES_A), (3, TYPES_B)]

DIRECT = [
    ((F(1, 2), F(3, 2)), None, None),
    ((F(1, 2), F(3, 2)), 0, None),
    ((F(2, 3), F(1), F(1, 3)), 1, None),
    ((F(3, 2), F(1, 2)), None, F(7, 4)),
    ((F(1, 2), F(2, 3), F(3, 4)), 1, F(5, 3)),
    ((F(1, 3), F(1, 3), F(1, 3)), 2, F(1, 2)),
    ((F(1), F(1)), 1, F(0)),
]


def _direct(states, stakes, bonus_cap, round_cap, rule):
    """Every bank state and every seat type per seat, settled in Fractions."""
    bank: dict[Fraction, int] = defaultdict(int)
    seats: list[dict[Fraction, int]] = [defaultdict(int) for _ in stakes]
    for wb, dist in states:
        for combo in itertools.product(dist.items(), repeat=len(stakes)):
            w = wb
            for _, c in combo:
                w *= c
            net, paid = _brute_settle([t for t, _ in combo], stakes, bonus_cap, round_cap, rule)
            bank[F(net)] += w
            for i, x in enumerate(paid):
                seats[i][F(x)] += w
    total = sum(wb for wb, _ in states) * sum(STATES[0][1].values()) ** len(stakes)
    return ({v: F(c, total) for v, c in sorted(bank.items()) if c},
            tuple({v: F(c, total) for v, c in sorted(d.items()) if c} for d in seats))


@pytest.mark.parametrize("rule", list(CapRule))
@pytest.mark.parametrize("stakes,bonus_cap,round_cap", DIRECT,
                         ids=[f"{i}" for i in range(len(DIRECT))])
def test_settle_states_matches_every_combination_of_seats(stakes, bonus_cap, round_cap,
                                                          rule) -> None:
    assert sum(TYPES_A.values()) == sum(TYPES_B.values())  # the same seat weight per bank hand
    session = Session(stakes=stakes, bonus_cap=bonus_cap, round_cap=round_cap, cap_rule=rule)
    bank, seats = settle_states(STATES, session, stakes)
    want_bank, want_seats = _direct(STATES, stakes, bonus_cap, round_cap, rule)
    assert bank == want_bank
    assert seats == want_seats


@pytest.mark.parametrize("cap", ["bonus_cap", "round_cap"])
def test_a_negative_cap_is_refused_when_the_session_is_made(cap) -> None:
    """A round cap of -1 once gave a bank that wins every round; now no session holds it."""
    with pytest.raises(ProfileError, match=f"^{cap}: -1 is negative$"):
        Session(**{cap: -1 if cap == "bonus_cap" else Fraction(-1)})
    assert getattr(Session(**{cap: 0}), cap) == 0


# -- fractional stakes and pays under caps: the 9-card brute force -------------------------

FRACTIONAL_CAPS = [
    ((F(1, 2), F(3, 2)), 1, None, CapRule.SEAT_ORDER),
    ((F(3, 2), F(1, 2)), None, F(5, 4), CapRule.SEAT_ORDER),
    ((F(1, 2), F(3, 2)), None, F(7, 3), CapRule.PRO_RATA),
    ((F(3, 2), F(2, 3)), 1, F(3, 2), CapRule.SEAT_ORDER),
    ((F(3, 2), F(2, 3)), 1, F(3, 2), CapRule.PRO_RATA),
]


@pytest.mark.parametrize("profile_name", ["standard", "always+bank"])
@pytest.mark.parametrize("stakes,bonus_cap,round_cap,rule", FRACTIONAL_CAPS,
                         ids=[f"{i}" for i in range(len(FRACTIONAL_CAPS))])
def test_fractional_stakes_and_caps_match_the_brute_force(tiny_tallies, profile_name,
                                                           stakes, bonus_cap, round_cap,
                                                           rule) -> None:
    profile, tally = tiny_tallies[profile_name]
    total = sum(tally.values())
    bank: dict[Fraction, int] = {}
    seats: list[dict[Fraction, int]] = [{}, {}]
    for seq, count in tally.items():
        net, paid = _brute_settle(seq, stakes, bonus_cap, round_cap, rule)
        bank[F(net)] = bank.get(F(net), 0) + count
        for i, x in enumerate(paid):
            seats[i][F(x)] = seats[i].get(F(x), 0) + count
    session = Session(stakes=stakes, bonus_cap=bonus_cap, round_cap=round_cap, cap_rule=rule)
    r = bank_round(profile, _tiny_shoe(), session)
    assert r.exact
    assert dict(r.distribution) == {v: F(c, total) for v, c in sorted(bank.items())}
    for i in range(2):
        assert dict(r.seats[i]) == {v: F(c, total) for v, c in sorted(seats[i].items())}


# -- a bonus cap of 2 or more --------------------------------------------------------------

SEAT_TYPES = [(3, True, 1), (2, True, 1), (-1, False, -1), (1, False, 1), (4, True, -1)]


@pytest.mark.parametrize("bonus_cap", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("rule", list(CapRule))
def test_settle_table_with_every_bonus_cap_matches_the_brute_force(bonus_cap, rule) -> None:
    for seats in itertools.product(SEAT_TYPES, repeat=4):
        for round_cap in (None, 3, 6):
            stakes = (1,) * 4
            want_net, want = _brute_settle(seats, stakes, bonus_cap,
                                           None if round_cap is None else F(round_cap), rule)
            net, paid = settle_table(list(seats), bonus_cap, round_cap, rule)
            assert (net, paid) == (want_net, want), (seats, round_cap)


def test_a_bonus_cap_of_two_at_a_table_of_four() -> None:
    profile = BUILTIN["standard"]
    means = {}
    for cap in (None, 0, 1, 2, 3, 4):
        means[cap] = bank_round(profile, INF, Session(players=4, bonus_cap=cap)).mean
    # The bank pays fewer bonuses the lower the cap: strictly, from 0 to 4.
    assert means[0] > means[1] > means[2] > means[3] > means[4] == means[None]
    two = bank_round(profile, INF, Session(players=2, bonus_cap=2))
    assert dict(two.distribution) == dict(bank_round(profile, INF, Session(players=2)).distribution)


def test_a_negative_bonus_cap_is_refused() -> None:
    with pytest.raises(ProfileError):
        bank_round(BUILTIN["standard"], INF, Session(players=2, bonus_cap=-1))
