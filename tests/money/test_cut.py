"""The house's cut: a fee per seat per round and a commission on a seat's win.

Checked against brute force on a small shoe (every ordering, settled by hand,
the cut taken by hand), and by the invariants: the fee moves the mean and not
the variance; the break-even cut gives the bank exactly the edge asked.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter, defaultdict
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odds import BUILTIN, Shoe, round_odds
from odds.money.bank import bank_round
from odds.money.cut import bank_round_with_cut, commissioned, with_fee
from odds.money.seat_cut import CutError, break_even_cut, seat_after_cut
from odds.rules.errors import ProfileError
from odds.rules.rule_types import CapRule
from odds.rules.session_options import Session
from tests.bank_brute import _brute_settle, _tiny_shoe
from tests.brute import play, settle

INF = Shoe.infinite_shoe()
FIVE_PERCENT = Fraction(1, 20)


def _cut_by_hand(net: Fraction, fee: Fraction, commission: Fraction) -> Fraction:
    """A seat's money after the cut, written again: the house keeps a share of a win, then the fee."""
    kept = net - commission * net if net > 0 else net
    return kept - fee


# -- one seat: brute force on a small shoe ------------------------------------------------

SMALL = [8, 8, 4, 4, 12, 11, 2, 3, 7]  # 9 9 5 5 K Q 3 4 8: Colons, naturals, zeros


@functools.lru_cache(maxsize=1)
def _small_shoe_nets() -> tuple[tuple[Fraction, int], ...]:
    """The player's net over every ordering of six of the nine cards, by the brute force's rules."""
    profile = BUILTIN["standard"]
    money: Counter[Fraction] = Counter()
    for seq in itertools.permutations(SMALL, 6):
        p, b = play(profile, list(seq))
        money[settle(profile, p, b)[1]] += 1
    return tuple(money.items())


@pytest.mark.parametrize("commission,fee", [(FIVE_PERCENT, Fraction(0)),
                                            (Fraction(1, 10), Fraction(1, 4)),
                                            (Fraction(0), Fraction(3, 100))])
def test_seat_cut_matches_brute_force(commission, fee) -> None:
    profile = BUILTIN["standard"]
    counts = [0] * 13
    for r in SMALL:
        counts[r] += 1
    result = round_odds(profile, Shoe(tuple(counts)))
    money = dict(_small_shoe_nets())
    n = sum(money.values())
    assert sum(v * c for v, c in money.items()) / Fraction(n) == result.expected_value
    after = defaultdict(Fraction)
    for v, c in money.items():
        after[_cut_by_hand(v, fee, commission)] += Fraction(c, n)
    mean = sum(v * p for v, p in after.items())
    var = sum(v * v * p for v, p in after.items()) - mean * mean
    cut = seat_after_cut(result, Session(fee=fee, commission=commission))
    assert cut.after == (mean, var)


# -- the bank's round: brute force, two seats on a 9-card shoe, under caps ------------------

CAPS = [((1, 1), None, None, CapRule.SEAT_ORDER),
        ((1, 2), 1, None, CapRule.SEAT_ORDER),
        ((1, 2), None, Fraction(5, 2), CapRule.PRO_RATA),
        ((2, 1), None, Fraction(2), CapRule.SEAT_ORDER)]


@pytest.mark.slow
@pytest.mark.parametrize("stakes,bonus_cap,round_cap,rule", CAPS,
                         ids=[f"stakes{s}-bonus{b}-round{r}-{c.value}" for s, b, r, c in CAPS])
def test_bank_cut_matches_brute_force(tiny_tallies, stakes, bonus_cap, round_cap, rule) -> None:
    """Caps first, then the commission on what each winner is paid, then the fee."""
    profile, tally = tiny_tallies["always+bank"]
    fee, commission = Fraction(1, 10), Fraction(1, 8)
    total = sum(tally.values())
    bank: Counter = Counter()
    for seq, count in tally.items():
        _, paid = _brute_settle(seq, stakes, bonus_cap, round_cap, rule)
        bank[-sum(_cut_by_hand(Fraction(x), fee, commission) for x in paid)] += count
    session = Session(stakes=tuple(map(Fraction, stakes)), bonus_cap=bonus_cap,
                      round_cap=round_cap, cap_rule=rule, fee=fee, commission=commission)
    r = bank_round_with_cut(profile, _tiny_shoe(), session)
    assert r.exact
    assert dict(r.distribution) == {v: Fraction(c, total) for v, c in sorted(bank.items())}
    assert r.session.fee == fee and r.session.commission == commission
    assert r.session.round_cap == round_cap  # the caps as given, not as scaled


def test_bank_cut_agrees_with_the_seats_cut() -> None:
    """Fast twin of the brute force: on the infinite shoe without caps the bank's mean is minus
    the seats' means, each computed its own way (the seat's nets through net_after_cut)."""
    stakes = (Fraction(1), Fraction(2), Fraction(3))
    session = Session(stakes=stakes, fee=Fraction(1, 10), commission=FIVE_PERCENT)
    r = bank_round_with_cut(BUILTIN["standard"], INF, session)
    result = round_odds(BUILTIN["standard"], INF)
    seats = sum(s * seat_after_cut(result, session, s).after[0] for s in stakes)
    assert r.mean == -seats
    for i, s in enumerate(stakes, 1):
        assert r.seat_moments(i)[0] == s * seat_after_cut(result, session, s).after[0]


def test_commission_with_a_binding_max_bonus_is_taken_from_the_capped_bonus() -> None:
    profile = BUILTIN["standard"]
    stake, cap = Fraction(4000), Fraction(5000)
    paid, _ = commissioned(profile.at_stake(stake, cap),
                           Session(commission=FIVE_PERCENT, max_bonus=cap))
    assert paid.player_multiplier(True) == cap / stake * (1 - FIVE_PERCENT)
    assert paid.player_multiplier(False) == cap / stake * (1 - FIVE_PERCENT)
    assert paid.win == 1 - FIVE_PERCENT


# -- invariants ----------------------------------------------------------------------------


@functools.lru_cache(maxsize=4)
def _plain_round(players: int):
    return bank_round(BUILTIN["standard"], INF, Session(players=players))


@settings(max_examples=4, deadline=None)
@given(fee=st.fractions(min_value=0, max_value=5).map(lambda f: f.limit_denominator(100)),
       players=st.integers(1, 2))
def test_fee_moves_the_mean_not_the_variance(fee, players) -> None:
    session = Session(players=players, fee=fee)
    plain = _plain_round(players)
    cut = bank_round_with_cut(BUILTIN["standard"], INF, session)
    assert cut.mean == plain.mean + players * fee
    assert cut.variance == plain.variance
    assert with_fee(plain, fee).distribution == cut.distribution


@pytest.mark.parametrize("cut", ["fee", "commission"])
@pytest.mark.parametrize("edge", [Fraction(0), Fraction(1, 100)])
def test_break_even_cut_gives_the_bank_its_edge_exactly(cut, edge) -> None:
    result = round_odds(BUILTIN["standard"], Shoe.packs_of(6))
    stake = Fraction(100)
    b = break_even_cut(result, cut, edge, stake)
    assert b.value is not None and b.value > 0
    got = seat_after_cut(result, Session(**{cut: b.value}), stake)
    assert got.bank_edge == edge


def test_break_even_commission_agrees_with_the_win_pay_it_amounts_to() -> None:
    """A commission on plain wins only is ``--win``: at the break-even commission on a table
    without bonuses, the break-even ``win`` is 1 - commission."""
    result = round_odds(BUILTIN["plain"].with_options(win="21/20"), Shoe.packs_of(1))
    b = break_even_cut(result, "commission")
    assert b.value == Fraction(1, 21)
    assert round_odds(BUILTIN["plain"].with_options(win=1), Shoe.packs_of(1)).expected_value == 0


def test_break_even_cut_says_when_there_is_none() -> None:
    result = round_odds(BUILTIN["plain"], INF)
    assert break_even_cut(result, "fee", Fraction(-1, 100)).value is None
    assert "without a fee" in break_even_cut(result, "fee", Fraction(-1, 100)).reason
    assert break_even_cut(result, "commission", Fraction(9, 10)).value is None
    with pytest.raises(CutError, match="'rake' is not a cut"):
        break_even_cut(result, "rake")


@pytest.mark.parametrize("options,message", [
    ({"fee": "-1"}, "fee: -1 is negative"),
    ({"commission": "100%"}, "commission: 1 is not a share"),
    ({"commission": "abc"}, "commission: 'abc' is not a number"),
])
def test_bad_cuts_are_refused_with_a_sentence(options, message) -> None:
    with pytest.raises(ProfileError, match=message):
        Session().with_options(**options)


def test_session_options_read_the_cut_and_show_it_only_where_set() -> None:
    s = Session().with_options(fee="10", commission="5%")
    assert (s.fee, s.commission) == (Fraction(10), FIVE_PERCENT)
    assert s.as_data()["commission"] == "1/20"
    assert "fee" not in Session().as_data()
