"""The bank's side of the table: brute force, simulation, closed forms, invariants."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from odds import BUILTIN, Shoe, round_odds
from odds.exact.seats import MAX_PAIR_CARDS
from odds.money import bank as bank_module
from odds.money.bank import _settle_sequences, bank_round
from odds.money.rotation import rotation_figures
from odds.money.ruin import ruin_by_capital, session_risk
from odds.money.session import bank_table_rows
from odds.money.target import capital_for_target, largest_stake
from odds.rules.errors import ProfileError
from odds.rules.profiles import load_profile
from odds.rules.rule_types import CapRule, Rotation
from odds.rules.session_options import Session
from tests.bank_brute import _brute_settle, _tiny_shoe, table_order_tally
from tests.examples import examples, halve

INF = Shoe.infinite_shoe()

# -- brute force: every ordering of a 9-card shoe, N = 2, in the real deal order ----------


CAPS = [
    ((1, 1), None, None, CapRule.SEAT_ORDER),
    ((1, 2), None, None, CapRule.SEAT_ORDER),
    ((1, 2), 0, None, CapRule.SEAT_ORDER),
    ((2, 1), 1, None, CapRule.SEAT_ORDER),
    ((1, 2), None, Fraction(2), CapRule.SEAT_ORDER),
    ((1, 2), None, Fraction(5, 2), CapRule.PRO_RATA),
    ((2, 1), 1, Fraction(3), CapRule.PRO_RATA),
]


@pytest.mark.parametrize("profile_name", ["standard", "always+bank"])
@pytest.mark.parametrize("stakes,bonus_cap,round_cap,rule",
                         halve("stakes,bonus_cap,round_cap,rule", CAPS),  # half: CI
                         ids=[f"stakes{s}-bonus{b}-round{r}-{c.value}" for s, b, r, c in CAPS])
def test_tiny_shoe_two_players_matches_brute_force(tiny_tallies, profile_name, stakes, bonus_cap,
                                                   round_cap, rule) -> None:
    profile, tally = tiny_tallies[profile_name]
    total = sum(tally.values())
    bank: Counter = Counter()
    seats = [Counter(), Counter()]
    for seq, count in tally.items():
        net, paid = _brute_settle(seq, stakes, bonus_cap, round_cap, rule)
        bank[Fraction(net)] += count
        for i, x in enumerate(paid):
            seats[i][Fraction(x)] += count
    session = Session(stakes=tuple(map(Fraction, stakes)), bonus_cap=bonus_cap,
                      round_cap=round_cap, cap_rule=rule)
    r = bank_round(profile, _tiny_shoe(), session)
    assert r.exact
    assert dict(r.distribution) == {v: Fraction(c, total) for v, c in sorted(bank.items())}
    for i in range(2):
        assert dict(r.seats[i]) == {v: Fraction(c, total) for v, c in sorted(seats[i].items())}


# -- infinite shoe: exact figures and invariants ------------------------------------------


@pytest.mark.parametrize("key", halve("key", ["standard", "plain", "super9", "forced-draw"]))
@pytest.mark.parametrize("players", [1, 2, 5, 8])
def test_mean_is_n_times_the_seat_figure(key, players) -> None:
    profile = BUILTIN[key]
    seat = round_odds(profile, INF)
    r = bank_round(profile, INF, Session(players=players))
    assert sum(r.distribution.values()) == 1
    assert r.mean == -players * seat.expected_value
    for i in range(1, players + 1):
        assert r.seat_moments(i) == (seat.expected_value, seat.variance)


@pytest.mark.parametrize("key,decks", [("standard", 1), ("punto-banco", 8), ("super9", 2)])
def test_heads_up_is_the_seat_distribution_negated(key, decks) -> None:
    profile = BUILTIN[key]
    shoe = Shoe.packs_of(decks)
    seat = round_odds(profile, shoe).payout_distribution()
    r = bank_round(profile, shoe, Session(players=1))
    assert r.exact
    assert dict(r.distribution) == {-v: p for v, p in sorted(seat.items(), reverse=True)}


def test_bonus_cap_zero_is_the_plain_game() -> None:
    capped = bank_round(BUILTIN["standard"], INF, Session(players=4, bonus_cap=0))
    plain = bank_round(BUILTIN["plain"], INF, Session(players=4))
    assert dict(capped.distribution) == dict(plain.distribution)


def test_seats_are_positively_correlated_through_the_bank() -> None:
    # Var(sum) > N Var(seat): every seat faces the same bank hand.
    seat = round_odds(BUILTIN["standard"], INF)
    r = bank_round(BUILTIN["standard"], INF, Session(players=8))
    assert r.variance > 8 * seat.variance


@settings(max_examples=examples(5, 15), deadline=None)
@given(
    stakes=st.lists(st.integers(1, 3), min_size=1, max_size=3),
    bonus_cap=st.one_of(st.none(), st.integers(0, 3)),
    round_cap=st.one_of(st.none(), st.integers(0, 8)),
    rule=st.sampled_from(list(CapRule)),
)
@example(stakes=[1], bonus_cap=2, round_cap=0, rule=CapRule.PRO_RATA)  # more bonuses than seats
def test_caps_conserve_money_and_bound_the_loss(stakes, bonus_cap, round_cap, rule) -> None:
    session = Session(stakes=tuple(map(Fraction, stakes)), bonus_cap=bonus_cap,
                      round_cap=None if round_cap is None else Fraction(round_cap), cap_rule=rule)
    r = bank_round(BUILTIN["standard"], INF, session)
    assert sum(r.distribution.values()) == 1
    assert r.mean == -sum(r.seat_moments(i)[0] for i in range(1, len(stakes) + 1))
    if round_cap is not None:
        assert r.worst >= -round_cap
    other = CapRule.PRO_RATA if rule is CapRule.SEAT_ORDER else CapRule.SEAT_ORDER
    from dataclasses import replace
    r2 = bank_round(BUILTIN["standard"], INF, replace(session, cap_rule=other))
    assert dict(r2.distribution) == dict(r.distribution)  # the rule moves money between seats only


def test_seat_order_cap_favours_early_seats() -> None:
    r = bank_round(BUILTIN["standard"], INF, Session(players=4, round_cap=Fraction(2)))
    means = [r.seat_moments(i)[0] for i in range(1, 5)]
    assert means == sorted(means, reverse=True) and means[0] > means[-1]
    pro = bank_round(BUILTIN["standard"], INF, Session(players=4, round_cap=Fraction(2),
                                                       cap_rule=CapRule.PRO_RATA))
    assert len({pro.seat_moments(i)[0] for i in range(1, 5)}) == 1


# -- simulation: N = 8 on the infinite shoe, chi-square -----------------------------------


def _simulate_standard(rounds: int, players: int, seed: int) -> np.ndarray:
    """The bank's net per round under ``standard`` rules, infinite shoe, own vectorised code.

    Dealt 10^5 rounds at a time (a test process's memory: all at once took 100 MB).
    """
    rng = np.random.default_rng(seed)
    return np.concatenate([_deal_standard(rng, min(100_000, rounds - start), players)
                           for start in range(0, rounds, 100_000)])


def _deal_standard(rng: np.random.Generator, rounds: int, players: int) -> np.ndarray:
    ranks = rng.integers(0, 13, size=(rounds, 3 * (players + 1)), dtype=np.int8)
    pts = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0], dtype=np.int8)[ranks]  # A..K

    def hand(k):
        r = ranks[:, 3 * k: 3 * k + 3]
        p = pts[:, 3 * k: 3 * k + 3]
        two = (p[:, 0] + p[:, 1]) % 10
        draws = two <= 5
        final = np.where(draws, (two + p[:, 2]) % 10, two)
        pair = r[:, 0] == r[:, 1]
        nines = pair & (r[:, 0] == 8)
        return two, final, pair, nines

    bv, bf, _, _ = hand(0)
    bnat = bv >= 8
    net = np.zeros(rounds, dtype=np.int64)
    for k in range(1, players + 1):
        pv, pf, pair, nines = hand(k)
        pnat = pv >= 8
        mine = np.where(pnat | bnat, np.where(pnat, pv, -1), pf)
        theirs = np.where(pnat | bnat, np.where(bnat, bv, -1), bf)
        win = mine > theirs
        loss = mine < theirs
        seat = np.where(win, np.where(nines, 3, np.where(pair, 2, 1)), np.where(loss, -1, 0))
        net -= seat
    return net


def _chi2_sf(x: float, df: int) -> float:
    """P(chi-square with df degrees > x), by the series of the lower incomplete gamma."""
    a, z = df / 2, x / 2
    term = total = 1 / a
    n = 1
    while term > 1e-15 * total:
        term *= z / (a + n)
        total += term
        n += 1
    return 1 - math.exp(-z + a * math.log(z) - math.lgamma(a)) * total


def test_eight_players_match_a_simulation() -> None:
    rounds = 1_000_000
    nets = _simulate_standard(rounds, 8, seed=12)
    exact = bank_round(BUILTIN["standard"], INF, Session(players=8)).distribution
    seen = dict(zip(*(a.tolist() for a in np.unique(nets, return_counts=True)), strict=True))
    assert set(seen) <= {int(v) for v in exact}
    # Bins with at least 5 expected; the far loss tail pooled.
    bins, obs, exp = [], [], []
    tail_o = tail_e = 0.0
    for v, p in sorted(exact.items()):
        e = float(p) * rounds
        if e < 20 and not bins:
            tail_o += seen.get(int(v), 0)
            tail_e += e
            continue
        bins.append(v)
        obs.append(seen.get(int(v), 0) + tail_o)
        exp.append(e + tail_e)
        tail_o = tail_e = 0.0
    stat = sum((o - e) ** 2 / e for o, e in zip(obs, exp, strict=True))
    assert _chi2_sf(stat, len(bins) - 1) > 1e-4, stat


# -- the session: Markov chain against closed forms and simulation ------------------------

WALK = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}


@pytest.mark.parametrize("capital,rounds", [(0, 1), (0, 7), (3, 10), (5, 30)])
def test_fair_walk_matches_the_reflection_principle(capital, rounds) -> None:
    # Ruin = the walk reaches -(capital + 1); reflection: P(min <= -a) = P(S <= -a) + P(S < -a).
    a = capital + 1

    def p_at_most(x):
        return sum(Fraction(math.comb(rounds, k), 2**rounds)
                   for k in range(rounds + 1) if 2 * k - rounds <= x)

    expected = p_at_most(-a) + p_at_most(-a - 1)
    risk = session_risk(WALK, capital, rounds, exact=True)
    assert risk.exact and risk.ruin == expected
    assert sum(risk.result.values()) + risk.ruin == 1
    floats = session_risk(WALK, capital, rounds, exact=False)
    assert abs(floats.ruin - float(expected)) <= floats.error_bound + 1e-15


def test_biased_walk_matches_gamblers_ruin() -> None:
    # Up with p = 3/5: ruin ever = (q/p)^(capital + 1); 3000 rounds leave a negligible tail.
    walk = {Fraction(1): Fraction(3, 5), Fraction(-1): Fraction(2, 5)}
    for capital in (0, 2, 6):
        risk = session_risk(walk, capital, 3000)
        assert not risk.exact
        assert abs(risk.ruin - (2 / 3) ** (capital + 1)) < 1e-9


def test_backward_and_forward_chains_agree() -> None:
    dist = bank_round(BUILTIN["standard"], INF, Session(players=3)).distribution
    capitals, ruin, exact, _ = ruin_by_capital(dist, 6, 12)
    for c in (0, 3, 12):
        forward = session_risk(dist, c, 6, exact=exact)
        assert forward.ruin == ruin[capitals.index(c)]
    floats = ruin_by_capital(dist, 6, 12, exact=False)[1]
    assert max(abs(float(a) - b) for a, b in zip(ruin, floats, strict=True)) < 1e-12


def test_colon_table_ruin_matches_simulated_sessions() -> None:
    capital, rounds, sessions = 15, 40, 25_000
    nets = _simulate_standard(rounds * sessions, 8, seed=7).reshape(sessions, rounds)
    ruined = ((capital + np.cumsum(nets, axis=1)) < 0).any(axis=1).mean()
    dist = bank_round(BUILTIN["standard"], INF, Session(players=8)).distribution
    p = session_risk(dist, capital, rounds).ruin
    assert abs(ruined - p) < 4.5 * math.sqrt(p * (1 - p) / sessions)


def test_capital_for_target_is_the_smallest() -> None:
    dist = bank_round(BUILTIN["standard"], INF, Session(players=2)).distribution
    found = capital_for_target(dist, 10, Fraction(1, 100))
    assert found.ruin <= Fraction(1, 100)
    assert session_risk(dist, found.capital - 1, 10, exact=found.exact).ruin > Fraction(1, 100)
    factor = largest_stake(dist, 40, 10, Fraction(1, 100))
    assert factor == Fraction(40) / found.capital
    scaled = {v * factor: p for v, p in dist.items()}
    assert session_risk(scaled, 40, 10).ruin <= Fraction(1, 100)


def test_rotation_is_zero_sum_and_fixed_bank_carries_the_risk() -> None:
    r = bank_round(BUILTIN["standard"], INF, Session(players=3))
    for mode in Rotation:
        people = rotation_figures(r, 10, mode)
        assert sum(p.mean for p in people) == 0
        assert sum(p.bank_rounds for p in people) == 10
    fixed = rotation_figures(r, 10, Rotation.FIXED)
    assert fixed[0].mean == 10 * r.mean and fixed[0].variance == 10 * r.variance
    rotate = rotation_figures(r, 10, Rotation.ROTATE)
    assert fixed[0].sd > max(p.sd for p in rotate)


def test_reference_rows() -> None:
    rows = bank_table_rows(BUILTIN["standard"], INF)
    assert [r["players"] for r in rows] == list(range(1, 9))
    seat = round_odds(BUILTIN["standard"], INF).expected_value
    assert all(r["mean"] == -r["players"] * seat for r in rows)
    assert [r["capital"] for r in rows] == sorted(r["capital"] for r in rows)
    assert len(bank_table_rows(BUILTIN["punto-banco"], INF)) == 1  # heads-up only


# -- finite shoes beyond the budget: labelled estimates -----------------------------------


def test_finite_shoe_at_a_table_is_an_estimate_with_intervals() -> None:
    r = bank_round(BUILTIN["standard"], Shoe.packs_of(8), Session(players=3), samples=4000, seed=3)
    assert not r.exact and r.samples == 4000
    assert r.method == ("4,000 Monte Carlo rounds, seed 3; mean and variance exact "
                        "(every pair of seats counted)")
    exact_mean = -3 * round_odds(BUILTIN["standard"], Shoe.packs_of(8)).expected_value
    assert r.moments_exact and r.mean == exact_mean and r.mean_interval() is None
    assert r.sample_mean != exact_mean  # the distribution itself is the sample's
    again = bank_round(BUILTIN["standard"], Shoe.packs_of(8), Session(players=3), samples=4000,
                       seed=3)
    assert dict(again.distribution) == dict(r.distribution)  # seeded


# -- bad input -------------------------------------------------------------------------


@pytest.mark.parametrize("make,words", [
    (lambda: Session(players=9), "1 to 8 players"),
    (lambda: Session(players=0), "1 to 8 players"),
    (lambda: Session().with_options(stakes="1,-2"), "-2 is not a stake"),
    (lambda: Session().with_options(stakes="1,0"), "0 is not a stake"),
    (lambda: Session(stakes=(Fraction(1), Fraction(-2))), "-2 is not a stake"),
    (lambda: Session(max_stake=Fraction(0)), "max_stake: 0 is not a stake"),
    (lambda: Session().with_options(bonus_cap="-1"), "negative"),
    (lambda: Session().with_options(round_cap="-3"), "negative"),
    (lambda: Session().with_options(capital="-5"), "negative"),
    (lambda: Session().with_options(stakes="1,5", max_stake="4"), "above max_stake"),
    (lambda: Session().with_options(cap_rule="fair"), "seat-order, pro-rata"),
    (lambda: bank_round(BUILTIN["punto-banco"], INF, Session(players=2)), "one player"),
    (lambda: capital_for_target(WALK, 5, Fraction(0)), "strictly between 0 and 1"),
    (lambda: capital_for_target(WALK, 5, Fraction(1)), "strictly between 0 and 1"),
    (lambda: session_risk(WALK, -1, 5), "negative"),
])
def test_bad_input_is_a_sentence(make, words) -> None:
    with pytest.raises(ValueError, match=words):
        make()


def test_session_table_in_a_profile_file(tmp_path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('base = "standard"\n[session]\nstakes = [1, 1, 2]\nbonus_cap = 1\n'
                    'cap_rule = "pro-rata"\ncapital = 40\nrounds = 20\n', encoding="utf-8")
    s = load_profile(path).session
    assert s.stakes == (1, 1, 2) and s.bonus_cap == 1 and s.cap_rule is CapRule.PRO_RATA
    assert s.capital == 40 and s.rounds == 20
    path.write_text('base = "standard"\n[session]\nround_cap = -2\n', encoding="utf-8")
    with pytest.raises(ProfileError, match=r"house.toml: session.round_cap: -2 is negative"):
        load_profile(path)
    path.write_text('base = "standard"\n[session]\nbank_roll = 2\n', encoding="utf-8")
    with pytest.raises(ProfileError, match=r"house.toml: unknown session option 'bank_roll'"):
        load_profile(path)


@pytest.mark.parametrize("players", [1, 2])
def test_a_shoe_one_card_too_small_for_the_table(players) -> None:
    slots = 3 * (players + 1)
    for size, ok in ((slots - 1, False), (slots, True)):
        counts = [0] * 13
        counts[0] = size
        session = Session(players=players)
        if ok:
            r = bank_round(BUILTIN["standard"], Shoe(tuple(counts)), session, samples=50)
            assert sum(r.distribution.values()) == 1
        else:
            with pytest.raises(ValueError, match=f"{slots} card slots"):
                bank_round(BUILTIN["standard"], Shoe(tuple(counts)), session, samples=50)


# -- three seats on a finite shoe, enumerated hand by hand -----------------------------------------
# Mutation testing (docs/mutation.md) found the hand-by-hand enumeration of
# odds/money/bank.py never run to its end by any test (every finite table
# either had two seats or ran out of budget), its budget never tested at its
# edge, the refusal of a profile without fixed draw rules never tried, and the
# cache of pair counts free to grow.  Here a twelve-card shoe at three seats is
# checked against every deal in table order, the budget at its exact edge.

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


def test_a_budget_below_the_first_seat_s_bound_is_refused_before_any_seat_is_dealt(
        monkeypatch) -> None:
    # The first seat deals one hand from each composition the bank's hand leaves; each
    # such hand is at most the bank's work (the shoe only shrinks).  So that every size is
    # bounded before the work starts, a budget under states x the bank's work stops
    # before any seat's hand is dealt, though the seats' real work would be less.
    from odds.exact.hands import canonical, hand_deals
    from odds.rules.draw import hand_draws

    shoe = Shoe((2,) * 13)
    bank_deals, bank_work = hand_deals(STD, canonical(shoe.counts), hand_draws(STD)[1])
    bound = len({(left, (bv, bcol, bf)) for bv, bcol, bf, _, left in bank_deals}) * bank_work
    calls = []

    def counted(*args):
        calls.append(args)
        return hand_deals(*args)

    monkeypatch.setattr(bank_module, "hand_deals", counted)
    r = bank_round(STD, shoe, Session(players=3), budget=bound - 1, samples=10)
    assert not r.exact and len(calls) == 1  # the bank's hand only
    calls.clear()
    r = bank_round(STD, shoe, Session(players=1), budget=bound - 1, samples=10)
    assert r.exact and not calls  # one seat heads-up: the engine, no budget


@pytest.mark.parametrize("shoe", [Shoe.packs_of(1), Shoe.infinite_shoe()], ids=["1-pack", "inf"])
def test_the_heads_up_counts_are_the_engine_s_deals_by_net(shoe) -> None:
    counts = bank_module._joint_types(STD, shoe)
    r = round_odds(STD, shoe)
    assert all(c > 0 for c in counts.values()) and sum(counts.values()) == r.total
    by_net: Counter = Counter()
    for (net, _, _), c in counts.items():
        by_net[net] += c
    assert {v: Fraction(c, r.total) for v, c in by_net.items()} == r.payout_distribution()


@pytest.mark.parametrize("profile, shoe", [
    (STD, Shoe((2,) * 13)),
    (BUILTIN["super9"].with_options(bonus_on="always", bank_bonus="yes"),
     Shoe((2, 3, 1, 2, 2, 1, 2, 3, 2, 0, 2, 2, 2))),
], ids=["standard-26-cards", "super9-always-bank-bonus-24-cards"])
def test_the_heads_up_types_are_the_settlements_of_every_pair_of_final_hands(profile, shoe) -> None:
    # The engine's outcome counts by (outcome, Colon classes) against every final hand
    # dealt, settled by seat_type: the two-card stage and the draw stage's leaves.
    from odds.exact.engine import prepare, third_card_leaves, two_card_groups
    from odds.exact.seats import seat_type

    deal, *_ = prepare(profile, shoe)
    want: Counter = Counter()
    for pv, bv, pcol, bcol, vc, weight in two_card_groups(profile, deal):
        for x, y, count in third_card_leaves(profile, pv, bv, vc, deal):
            pf = pv if x is None else (pv + x) % 10
            bf = bv if y is None else (bv + y) % 10
            want[seat_type(profile, (pv, pcol, pf), (bv, bcol, bf))] += weight * count
    assert bank_module._joint_types(profile, shoe) == dict(want)


def test_the_seat_types_of_a_few_profiles_only_are_kept() -> None:
    # Seat types are worked out once a profile and kept for KNOWN_PROFILES profiles: a
    # program that tries many pay tables does not keep every one's.
    bank_module._KNOWN_TYPES.clear()
    for n in range(bank_module.KNOWN_PROFILES + 2):
        profile = STD.with_options(colon=str(2 + n))
        of, types = bank_module._seat_types(profile)
        assert types[of((9, 1, 9, 5, 0, 5))][0] == 2 + n  # a winning Colon pays its multiplier
        assert 1 <= len(bank_module._KNOWN_TYPES) <= bank_module.KNOWN_PROFILES
    assert profile in bank_module._KNOWN_TYPES
    bank_module._KNOWN_TYPES.clear()


def test_a_sampled_table_reports_its_progress_every_4096_rounds() -> None:
    calls: list[tuple[int, int]] = []
    shoe = Shoe((3,) * 13)  # 39 cards: no pair table is counted (its progress aside)
    r = bank_round(STD, shoe, Session(players=3, bonus_cap=F(1)), budget=1, samples=9000,
                   progress=lambda done, total: calls.append((done, total)))
    assert not r.exact and r.samples == 9000
    assert calls == [(0, 9000), (4096, 9000), (8192, 9000)]


def test_a_sampled_table_deals_a_shoe_of_exactly_the_cards_a_round_fills() -> None:
    shoe = Shoe((1,) * 12 + (0,))  # 12 cards: three seats and the bank fill 12 slots
    r = bank_round(STD, shoe, Session(players=3, bonus_cap=F(1)), budget=1, samples=50)
    assert not r.exact and sum(r.distribution.values()) == 1


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


def test_the_pair_counts_of_the_last_shoes_asked_are_kept() -> None:
    # A bank at several stakes, capitals or a --precision run asks again for the same shoe:
    # the counts of the last PAIRS_HELD shoes are given again, the oldest dropped first.
    from odds.exact import seats as seats_module

    seats_module.clear_pairs()
    first, second = _shoe({4: 6, 8: 6}), _shoe({4: 5, 8: 4, 12: 3})
    kept = seats_module.pair_counts(STD, first)
    done: list[tuple[int, int]] = []
    assert seats_module.pair_counts(STD, first, lambda d, t: done.append((d, t))) is kept
    assert done == [(1, 1)]  # a progress bar asked for is ended all the same
    bank_round(STD, first, Session(players=2))  # the bank asks the same function
    assert list(seats_module._PAIRS.values()) == [kept]
    assert seats_module.pair_counts(STD, second) is not kept
    assert seats_module.pair_counts(STD, first) is kept  # a shoe between: still kept
    assert seats_module.pair_counts(BUILTIN["plain"], first) is not kept  # another pay table
    for n in range(seats_module.PAIRS_HELD):
        seats_module.pair_counts(STD, _shoe({4: 5, 8: 5 + n % 2, 12: 4 + n // 2}))
    assert seats_module.pair_counts(STD, first) is not kept  # counted again: it was dropped
    assert len(seats_module._PAIRS) == seats_module.PAIRS_HELD
    seats_module.clear_pairs()
    assert not seats_module._PAIRS


def test_a_profiles_own_cap_holds_when_the_session_names_none() -> None:
    # A profile carrying max_bonus at a stake (at_stake) caps the bank's payouts as the same
    # cap given by the session does; a session's own cap replaces the profile's.
    stake, cap = Fraction(4000), Fraction(5000)
    own = BUILTIN["standard"].at_stake(stake, cap)
    assert own.bonus_binds
    by_profile = bank_round(own, INF, Session(stakes=(stake, stake)))
    by_session = bank_round(BUILTIN["standard"], INF,
                            Session(stakes=(stake, stake), max_bonus=cap))
    assert dict(by_profile.distribution) == dict(by_session.distribution)
    assert by_profile.worst == -2 * cap  # two Colon nines, each capped at max_bonus
    replaced = bank_round(own, INF, Session(stakes=(stake, stake), max_bonus=Fraction(6000)))
    assert replaced.worst == -2 * Fraction(6000)


def test_two_seats_are_counted_exactly_up_to_the_pairs_bound() -> None:
    # 27 packs, 1,404 cards, the largest shoe whose pair counts stay in int64: still exact.
    shoe = Shoe.packs_of(27)
    assert shoe.size == MAX_PAIR_CARDS
    r = bank_round(BUILTIN["standard"], shoe, Session(players=2))
    assert r.exact and r.method.startswith("two seats counted")
    assert r.mean == -2 * round_odds(BUILTIN["standard"], shoe).expected_value


# -- sampled rounds: what a held-out mutation run found untested ------------------------------


def _sampled_with_a_table_cap():
    # A round cap keeps the mean an estimate (a per-seat cap would not): its interval is printed.
    return bank_round(STD, _shoe(TWELVE), Session(stakes=(F(1), F(2), F(1)), round_cap=F(3)),
                      samples=700, seed=5, budget=1)


def test_sampled_distributions_each_sum_to_one() -> None:
    r = _sampled_with_a_table_cap()
    assert not r.exact and r.samples == 700
    assert sum(r.distribution.values()) == 1
    assert len(r.seats) == 3
    for seat in r.seats:
        assert sum(seat.values()) == 1 and all(p > 0 for p in seat.values())
        assert all((p * 700).denominator == 1 for p in seat.values())  # frequencies of 700


def test_the_sampled_mean_s_interval_is_1_96_standard_errors_each_side() -> None:
    from statistics import NormalDist

    r = _sampled_with_a_table_cap()
    lo, hi = r.mean_interval()
    values = [float(v) for v in r.distribution]
    probs = [float(p) for p in r.distribution.values()]
    mean = sum(v * p for v, p in zip(values, probs, strict=True))
    var = sum((v - mean) ** 2 * p for v, p in zip(values, probs, strict=True))
    half = NormalDist().inv_cdf(0.975) * math.sqrt(var / 700)
    assert half == pytest.approx(1.96 * math.sqrt(var / 700), rel=1e-4)
    assert (lo + hi) / 2 == pytest.approx(mean, rel=1e-12, abs=1e-12)
    assert (hi - lo) / 2 == pytest.approx(half, rel=1e-12)


def test_bank_round_samples_its_own_default() -> None:
    import inspect

    from odds.money.session import bank_study

    default = inspect.signature(bank_round).parameters["samples"].default
    r = bank_round(STD, _shoe(TWELVE), Session(players=3, round_cap=F(4)), budget=1)
    assert not r.exact and r.samples == default
    assert r.method.startswith(f"{default:,} Monte Carlo rounds")
    assert inspect.signature(bank_study).parameters["samples"].default == default


# -- the fifth held-out seed (20261211) ---------------------------------------------------


def test_a_sample_settled_in_many_small_batches_is_the_sample_settled_at_once(monkeypatch) -> None:
    # The sampled tables are settled in batches of FLUSH distinct tables (memory stays
    # bounded); a batch settled is forgotten, so batches of 2 give the same figures.
    ask = (STD, Shoe.packs_of(1), Session(players=3, bonus_cap=Fraction(1)))  # no pair counts
    whole = bank_round(*ask, samples=200, seed=9, budget=1)
    monkeypatch.setattr(bank_module, "FLUSH", 2)
    parts = bank_round(*ask, samples=200, seed=9, budget=1)
    assert not parts.exact and sum(parts.distribution.values()) == 1
    assert dict(parts.distribution) == dict(whole.distribution)
    assert [dict(s) for s in parts.seats] == [dict(s) for s in whole.seats]


def test_one_seat_is_counted_heads_up_and_a_round_is_itself_only() -> None:
    r = bank_round(STD, Shoe.packs_of(1), Session(players=1))
    assert r.exact and r.method == "exact enumeration (heads-up)"
    # A result, not a value: its fields hold dicts, so it is compared (and hashed) as itself.
    again = bank_round(STD, Shoe.packs_of(1), Session(players=1))
    assert r != again and len({r, again}) == 2


def test_a_frequency_has_an_interval_only_where_the_round_is_sampled() -> None:
    from odds.money.bank import wilson

    exact = bank_round(STD, Shoe.packs_of(1), Session(players=1))
    assert all(exact.interval(p) is None for p in exact.distribution.values())
    sampled = bank_round(STD, Shoe.packs_of(1), Session(players=3, bonus_cap=Fraction(1)),
                         samples=200, seed=9, budget=1)
    p = next(iter(sampled.distribution.values()))
    lo, hi = sampled.interval(p)
    assert (lo, hi) == wilson(float(p), 200) and lo < float(p) < hi


# -- the seventh held-out seed (20261213) --------------------------------------------------


@pytest.mark.parametrize("samples", [0, 2_000_001, True])
def test_the_rounds_sampled_are_1_to_2_million_refused_before_any_is_dealt(samples) -> None:
    with pytest.raises(ValueError) as got:
        bank_round(STD, Shoe.packs_of(8), Session(players=3), samples=samples)
    shown = {0: "0", 2_000_001: "2,000,001", True: "True"}[samples]
    assert str(got.value) == f"samples: give 1 to 2,000,000 Monte Carlo rounds, not {shown}"


def test_a_bank_round_scaled_is_every_net_times_the_factor_at_the_same_chance() -> None:
    r = bank_round(STD, INF, Session(players=2))
    for factor in (Fraction(3), Fraction(1, 2)):
        scaled = r.scaled(factor)
        assert list(scaled) == [v * factor for v in r.distribution]
        assert list(scaled.values()) == list(r.distribution.values())


# -- the eighth held-out seed (20261214) ---------------------------------------------------


def test_a_finite_shoe_of_1000_packs_is_the_bank_s_largest() -> None:
    r = bank_round(STD, Shoe.packs_of(1000), Session(players=1))
    assert r.exact and r.shoe.size == 52_000
    with pytest.raises(ValueError, match="^a finite shoe for the bank has at most 52,000 cards "
                                         r"\(1,000 packs\), not 52,052: give --decks inf"):
        bank_round(STD, Shoe.packs_of(1001), Session(players=1))
