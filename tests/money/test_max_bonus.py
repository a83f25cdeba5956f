"""``max_bonus``: a cap per bonus payment in money, checked against brute force.

A hand paid by a bonus entry at stake s wins max(s x win, min(s x multiplier, X)).
The brute forces below apply that by hand to every dealt ordering of a small
shoe (the one-seat round and the two-seat table) and compare exactly.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odds import BUILTIN, Shoe, round_odds
from odds.money.bank import bank_round
from odds.money.caps import capped_type, seat_limits
from odds.rules.errors import ProfileError
from odds.rules.profiles import profile_from_data
from odds.rules.rule_types import CapRule
from odds.rules.session_options import Session
from tests.bank_brute import TINY_RANKS, _tiny_shoe, dealt_orders
from tests.brute import play, settle

F = Fraction
INF = Shoe.infinite_shoe()
ALWAYS = BUILTIN["standard"].with_options(bonus_on="always", bank_bonus="on", bank_colon="2",
                                          bank_colon_nine="3", colon="5/2")


def _capped_money(net: Fraction, plain: Fraction, stake: Fraction, cap: Fraction | None,
                  win: Fraction) -> tuple[Fraction, bool, Fraction]:
    """A seat's (money, still a bonus payment, money without the bonus), by the rule's words."""
    if net == plain:  # not paid by a bonus entry
        return net * stake, False, plain * stake
    money = net * stake if cap is None else max(win * stake, min(net * stake, cap))
    return money, money > plain * stake, plain * stake


@lru_cache(maxsize=2)
def _one_seat_nets(profile) -> list[tuple[tuple[Fraction, Fraction], int]]:
    """A seat's (net, net without the bonuses) per unit staked over every ordering of the
    9-card shoe's six slots, counted: the same for every stake and cap, so worked once a
    profile (as _settled_tables does for a table)."""
    plain = profile.with_options(colon="none", colon_nine="none")
    kinds: Counter = Counter()
    for seq in permutations(TINY_RANKS, 6):
        p, b = play(profile, list(seq))
        kinds[settle(profile, p, b)[1], settle(plain, p, b)[1]] += 1
    return list(kinds.items())


def _brute_one_seat(profile, stake: Fraction, cap: Fraction | None) -> tuple[Fraction, Fraction]:
    """EV and variance per unit staked, every ordering of the 9-card shoe's six slots."""
    money = money2 = F(0)
    n = 0
    for (net, plain), count in _one_seat_nets(profile):
        paid = _capped_money(net, plain, stake, cap, profile.win)[0] / stake
        money += count * paid
        money2 += count * paid * paid
        n += count
    mean = money / n
    return mean, money2 / n - mean * mean


ONE_SEAT = [(F(1), F(5, 2)), (F(4000), F(5000)), (F(3), F(2)), (F(1), F(3)), (F(2, 3), F(1))]


@pytest.mark.parametrize("profile", [BUILTIN["standard"], ALWAYS], ids=["standard", "always"])
@pytest.mark.parametrize("stake,cap", ONE_SEAT, ids=[f"{s}-{c}" for s, c in ONE_SEAT])
def test_one_seat_ev_and_variance_match_the_brute_force(profile, stake, cap) -> None:
    r = round_odds(profile.at_stake(stake, cap), _tiny_shoe())
    assert (r.expected_value, r.variance) == _brute_one_seat(profile, stake, cap)


@lru_cache(maxsize=1)
def _dealt_tables() -> Counter:
    """Two seats' and the bank's final hands over every rank order of the 9-card shoe.

    Dealt as at a table (tests.bank_brute's deal: two cards each, the bank last,
    then third cards in seat order); standard's draw rule, which both profiles share.
    """
    tally: Counter = Counter()
    for hands in dealt_orders(BUILTIN["standard"]):
        tally[tuple(tuple(h) for h in hands)] += 1
    return tally


@lru_cache(maxsize=2)
def _settled_tables(profile) -> list[tuple[tuple[tuple[Fraction, Fraction], ...], int]]:
    """Each dealt table's seats settled by hand (with the bonuses, and without them), and its
    count: the same for every stake and cap, so worked once a profile; tables whose seats
    settle alike are counted together (a stake and cap then act on each kind once)."""
    plain = profile.with_options(colon="none", colon_nine="none")
    kinds: Counter = Counter()
    for (*players, bank_hand), count in _dealt_tables().items():
        kinds[tuple((settle(profile, list(hand), list(bank_hand))[1],
                     settle(plain, list(hand), list(bank_hand))[1]) for hand in players)] += count
    return list(kinds.items())


def _brute_table(profile, stakes, cap, bonus_cap):
    """Two seats against the bank, each seat's pay capped and the table settled by hand."""
    bank: Counter = Counter()
    seats: list[Counter] = [Counter(), Counter()]
    for nets, count in _settled_tables(profile):
        used = 0
        paid = []
        for (net, plain_net), stake in zip(nets, stakes, strict=True):
            money, bonus, fallback = _capped_money(net, plain_net, stake, cap, profile.win)
            if bonus and bonus_cap is not None:
                if used >= bonus_cap:
                    money = fallback
                else:
                    used += 1
            paid.append(money)
        bank[-sum(paid)] += count
        for i, x in enumerate(paid):
            seats[i][x] += count
    n = sum(bank.values())
    return ({v: F(c, n) for v, c in sorted(bank.items())},
            [{v: F(c, n) for v, c in sorted(s.items())} for s in seats])


TABLES = [((F(1), F(2)), F(5, 2), None), ((F(1), F(2)), F(3), 1), ((F(3, 2), F(1, 2)), F(2), 1),
          ((F(100), F(1000)), F(1500), None), ((F(2), F(2)), F(1), 0)]


@pytest.mark.parametrize("profile", [BUILTIN["standard"], ALWAYS], ids=["standard", "always"])
@pytest.mark.parametrize("stakes,cap,bonus_cap", TABLES, ids=[str(i) for i in range(len(TABLES))])
def test_two_seats_on_a_tiny_shoe_match_the_brute_force(profile, stakes, cap, bonus_cap) -> None:
    r = bank_round(profile, _tiny_shoe(), Session(stakes=stakes, max_bonus=cap,
                                                  bonus_cap=bonus_cap))
    bank, seats = _brute_table(profile, stakes, cap, bonus_cap)
    assert r.exact
    assert dict(r.distribution) == bank
    assert [dict(s) for s in r.seats] == seats


def test_heads_up_bank_is_minus_the_capped_seat_at_its_stake() -> None:
    stake, cap = F(400), F(700)
    r = bank_round(BUILTIN["standard"], Shoe.packs_of(1), Session(stakes=(stake,), max_bonus=cap))
    seat = round_odds(BUILTIN["standard"].at_stake(stake, cap), Shoe.packs_of(1))
    assert r.mean == -stake * seat.expected_value
    assert r.variance == stake * stake * seat.variance


@settings(max_examples=15, deadline=None)
@given(stake=st.fractions(min_value=F(1, 10), max_value=10_000),
       extra=st.fractions(min_value=0, max_value=1000))
def test_a_cap_at_or_above_stake_times_the_largest_multiplier_is_no_cap(stake, extra) -> None:
    profile = BUILTIN["standard"]
    cap = stake * 3 + extra  # Colon nine pays 3: the largest multiplier
    at = profile.at_stake(stake, cap)
    assert not at.bonus_binds
    assert round_odds(at, INF).to_dict() == round_odds(profile, INF).to_dict()
    stakes = (stake, stake)
    capped = bank_round(profile, INF, Session(stakes=stakes, max_bonus=cap))
    free = bank_round(profile, INF, Session(stakes=stakes))
    assert dict(capped.distribution) == dict(free.distribution)
    assert seat_limits(profile, Session(max_bonus=cap), stakes) == (None, None)


@settings(max_examples=15, deadline=None)
@given(stake=st.fractions(min_value=F(1, 10), max_value=1000),
       caps=st.lists(st.fractions(min_value=F(1, 100), max_value=5000), min_size=2, max_size=2))
def test_a_lower_cap_never_raises_the_player_ev(stake, caps) -> None:
    low, high = sorted(caps)
    ev = {c: round_odds(BUILTIN["standard"].at_stake(stake, c), INF).expected_value
          for c in (low, high)}
    free = round_odds(BUILTIN["standard"], INF).expected_value
    plain = round_odds(BUILTIN["plain"], INF).expected_value
    assert plain <= ev[low] <= ev[high] <= free
    if BUILTIN["standard"].at_stake(stake, low).bonus_binds:
        assert ev[low] < free


def test_a_binding_cap_lowers_the_ev_step_by_step() -> None:
    evs = [round_odds(BUILTIN["standard"].at_stake(F(100), F(c)), Shoe.packs_of(1)).expected_value
           for c in (400, 300, 250, 200, 150, 100, 50)]
    assert all(a >= b for a, b in zip(evs, evs[1:], strict=False))
    assert evs[0] > evs[3] > evs[-1]
    # At or below a plain win every bonus is a plain win: the plain game exactly.
    assert evs[-1] == evs[-2] == round_odds(BUILTIN["plain"], Shoe.packs_of(1)).expected_value


def test_capped_type_is_no_longer_a_bonus_at_a_plain_win() -> None:
    assert capped_type((F(3), True, F(1)), F(2)) == (F(2), True, F(1))
    assert capped_type((F(3), True, F(1)), F(1)) == (F(1), False, F(1))
    assert capped_type((F(1), False, F(1)), F(1, 2)) == (F(1), False, F(1))


@pytest.mark.parametrize("raw,message", [
    (0, "max_bonus: 0 must be more than 0"),
    (-5, "max_bonus: -5 is negative (give more than 0)"),
    ("lots", "max_bonus: 'lots' is not a number"),
])
@pytest.mark.parametrize("where", ["pay table", "session"])
def test_a_bad_max_bonus_in_a_file_is_refused_with_its_key(raw, message, where) -> None:
    data = {"max_bonus": raw} if where == "pay table" else {"session": {"max_bonus": raw}}
    with pytest.raises(ProfileError, match="in house.toml: .*" + message.replace("(", r"\(")
                       .replace(")", r"\)")):
        profile_from_data(data, "house.toml")


def test_max_bonus_in_both_places_is_refused() -> None:
    with pytest.raises(ProfileError, match="given twice"):
        profile_from_data({"max_bonus": 5, "session": {"max_bonus": 6}}, "house.toml")


def test_max_bonus_from_either_place_is_the_session_s() -> None:
    for data in ({"max_bonus": "5000"}, {"session": {"max_bonus": 5000}}):
        assert profile_from_data(data, "house.toml").session.max_bonus == 5000


def test_cap_rule_is_untouched_by_max_bonus() -> None:
    s = Session(stakes=(F(1), F(2)), max_bonus=F(3), round_cap=F(4), cap_rule=CapRule.PRO_RATA)
    r = bank_round(BUILTIN["standard"], INF, s)
    assert r.exact and sum(r.distribution.values()) == 1


@pytest.mark.parametrize("stakes,cap", [((F(3), F(2)), F(7)), ((F(2, 3), F(5)), F(1)),
                                        ((F(100), F(1000), F(4000)), F(2500))])
def test_the_bank_s_nets_lie_within_the_bounds_the_chain_is_sized_by(stakes, cap) -> None:
    from odds.money.session import bank_study, net_bounds

    session = Session(stakes=stakes, max_bonus=cap, capital=10 * max(stakes), rounds=5)
    bounds = net_bounds(BUILTIN["standard"], session)
    r = bank_round(BUILTIN["standard"], INF, session)
    for v in r.distribution:
        assert (v * bounds.scale).denominator == 1
        assert -bounds.worst <= v * bounds.scale <= bounds.top
    study = bank_study(BUILTIN["standard"], INF, session)
    assert study.risk is not None and 0 <= study.risk.ruin <= 1


def test_a_sampled_table_settles_every_seat_under_the_cap() -> None:
    # Three seats on one pack: estimated; a Colon nine would pay 3, the cap of 2 pays 2.
    r = bank_round(BUILTIN["standard"], Shoe.packs_of(1), Session(players=3, max_bonus=F(2)),
                   samples=3000, seed=7)
    # A cap on one seat's payment is a function of that seat's hand: the moments stay exact.
    assert not r.exact and r.moments_exact and r.mean_interval() is None
    alone = bank_round(BUILTIN["standard"], Shoe.packs_of(1), Session(players=1, max_bonus=F(2)))
    assert r.mean == 3 * alone.mean and r.seat_moments(2) == alone.seat_moments(1)
    assert all(max(seat) == 2 for seat in r.seats)
    free = bank_round(BUILTIN["standard"], Shoe.packs_of(1), Session(players=3), samples=3000,
                      seed=7)
    assert any(max(seat) == 3 for seat in free.seats)
