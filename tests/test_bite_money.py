"""The bank's money must bite: caps with fractional amounts, bonus caps above 1, the
session's chain off the lattice, targets given as floats, the reference table's figures.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from odds import BUILTIN, Shoe
from odds.money.bank import bank_round
from odds.money.caps import settle_table
from odds.money.ruin import ruin_by_capital, session_risk
from odds.money.session import bank_study, bank_table_rows
from odds.money.target import capital_for_target, largest_stake
from odds.rules.profiles import CapRule, ProfileError, Session
from tests.test_bank import _brute_settle, _tiny_shoe, tiny_tallies  # noqa: F401

INF = Shoe.infinite_shoe()
F = Fraction

# -- 5. fractional stakes and pays under caps: the 9-card brute force ---------------------

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
def test_fractional_stakes_and_caps_match_the_brute_force(tiny_tallies, profile_name,  # noqa: F811
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


# -- 5. a bonus cap of 2 or more ------------------------------------------------------------

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


# -- 5. the session chain: capital off the lattice, brute force over paths -----------------

DISTS = [
    {F(1): F(1, 2), F(-1): F(1, 2)},
    {F(3, 2): F(1, 5), F(-1): F(1, 2), F(-1, 2): F(3, 10)},
    {F(2): F(1, 3), F(-3): F(1, 6), F(0): F(1, 2)},
]


@pytest.mark.parametrize("d", range(len(DISTS)))
@pytest.mark.parametrize("capital", [F(0), F(5, 2), F(7, 4), F(1, 3), F(3)])
def test_session_risk_matches_every_path(d, capital) -> None:
    dist = DISTS[d]
    rounds = 4
    # Ruin by round r: sum over paths, first ruined at or before r.
    ruin = [F(0)] * rounds
    result: dict[Fraction, Fraction] = {}
    for path in itertools.product(dist.items(), repeat=rounds):
        p = F(1)
        for _, q in path:
            p *= q
        c = capital
        first = None
        for r, (v, _) in enumerate(path):
            c += v
            if c < 0:
                first = r
                break
        if first is None:
            result[c - capital] = result.get(c - capital, F(0)) + p
        else:
            for later in range(first, rounds):
                ruin[later] += p
    risk = session_risk(dist, capital, rounds, exact=True)
    assert risk.ruin == ruin[-1] and list(risk.ruin_by_round) == ruin
    assert dict(risk.result) == {v: result[v] for v in sorted(result)}
    approx = session_risk(dist, capital, rounds, exact=False)
    assert approx.ruin == pytest.approx(float(ruin[-1]), abs=1e-12)
    assert set(approx.result) == set(result)
    for v, p in result.items():
        assert approx.result[v] == pytest.approx(float(p), abs=1e-12)
    assert risk.capital == capital
    assert risk.mean_result == pytest.approx(
        float(sum(v * p for v, p in result.items()) - ruin[-1] * capital))


@pytest.mark.parametrize("d", range(len(DISTS)))
def test_ruin_by_capital_matches_session_risk_on_the_lattice(d) -> None:
    dist = DISTS[d]
    caps, ruin, exact, _ = ruin_by_capital(dist, 4, 3, exact=True)
    assert exact
    for c, p in zip(caps, ruin, strict=True):
        assert session_risk(dist, c, 4, exact=True).ruin == p
    _, approx, exact, _ = ruin_by_capital(dist, 4, 3, exact=False)
    assert not exact
    assert approx == pytest.approx([float(p) for p in ruin], abs=1e-12)


@pytest.mark.parametrize("rounds,ok", [(0, False), (1, True)])
def test_a_session_has_at_least_one_round(rounds, ok) -> None:
    walk = DISTS[0]
    for call in (lambda: session_risk(walk, 1, rounds), lambda: ruin_by_capital(walk, rounds, 1)):
        if ok:
            call()
        else:
            with pytest.raises(ValueError):
                call()
    with pytest.raises(ValueError):
        session_risk(walk, -F(1, 2), 1)
    assert session_risk(walk, 0, 1).ruin == F(1, 2)


# -- 5. targets: floats read as their decimal, boundaries, largest stake --------------------


def test_a_float_target_is_its_decimal_not_its_binary_value() -> None:
    walk = DISTS[0]
    assert capital_for_target(walk, 3, 0.01).target == F(1, 100)
    assert capital_for_target(walk, 3, 0.3).target == F(3, 10)
    study = bank_study(BUILTIN["plain"], INF, Session(players=1, rounds=3), target_ruin=0.01)
    assert study.target_ruin == F(1, 100) and study.target.target == F(1, 100)
    study = bank_study(BUILTIN["plain"], INF, Session(players=1, rounds=3), target_ruin="1/100")
    assert study.target_ruin == F(1, 100)


@pytest.mark.parametrize("target", [0, 1, F(0), F(1), 0.0, 1.0, -0.5, "1", "0"])
def test_a_target_must_be_strictly_between_0_and_1(target) -> None:
    with pytest.raises(ValueError):
        if isinstance(target, str):
            bank_study(BUILTIN["plain"], INF, Session(players=1, rounds=3), target_ruin=target)
        else:
            capital_for_target(DISTS[0], 3, target)


def test_capital_for_target_is_the_smallest_on_the_lattice() -> None:
    dist = DISTS[1]
    for target in (F(1, 2), F(1, 5), F(1, 20), F(1, 1000)):
        got = capital_for_target(dist, 4, target)
        caps, ruin, _, _ = ruin_by_capital(dist, 4, 4)
        want = next(c for c, p in zip(caps, ruin, strict=True) if p <= target)
        assert got.capital == want and got.ruin <= target
        assert got.capital == 0 or session_risk(dist, got.capital - F(1, 2), 4).ruin > target


def test_largest_stake_when_no_stake_can_ruin_the_bank() -> None:
    # The bank never loses: no stake can ruin it; said with None, not a ZeroDivisionError.
    never = {F(1): F(1, 2), F(0): F(1, 2)}
    assert largest_stake(never, 10, 3, F(1, 4)) is None
    assert largest_stake(never, 0, 3, F(1, 4)) is None
    study = bank_study(BUILTIN["plain"], INF, Session(players=1, rounds=1, capital=F(0)),
                       target_ruin="0.9")
    assert study.stake_factor is None or study.stake_factor >= 0


def test_largest_stake_scales_the_capital() -> None:
    walk = DISTS[0]
    need = capital_for_target(walk, 3, F(1, 8)).capital
    assert need == 2
    assert largest_stake(walk, 10, 3, F(1, 8)) == 5
    assert largest_stake(walk, F(5, 2), 3, F(1, 8)) == F(5, 4)
    assert largest_stake(walk, 0, 3, F(1, 8)) == 0
    with pytest.raises(ValueError):
        largest_stake(walk, 1, 0, F(1, 8))


# -- 5. the reference bank table: 50 rounds, 1% ruin, 20,000 samples ------------------------


@pytest.mark.slow
def test_reference_rows_use_50_rounds_a_1_percent_target_and_20000_samples() -> None:
    profile = BUILTIN["standard"]
    shoe = Shoe.packs_of(1)
    rows = bank_table_rows(profile, shoe, players=3)
    assert [r["exact"] for r in rows] == [True, True, False]  # two seats are counted exactly
    # An estimated round's capital is an estimate, whatever the chain over it.
    assert rows[0]["capital_exact"] and not rows[2]["capital_exact"]
    for row in rows:
        r = bank_round(profile, shoe, Session(players=row["players"]), samples=20_000)
        assert row["mean"] == r.mean and row["variance"] == r.variance
        assert row["p_loss"] == r.p_loss_more_than(5)
        assert row["capital"] == capital_for_target(r.distribution, 50, F(1, 100)).capital
    other = bank_round(profile, shoe, Session(players=3), samples=19_999)
    assert rows[2]["mean"] == other.mean  # exact at three seats too
    assert rows[2]["p_loss"] != other.p_loss_more_than(5)  # the distribution is sampled


@pytest.mark.parametrize("samples,ok", [(0, False), (1, True)])
def test_one_monte_carlo_sample_is_enough(samples, ok) -> None:
    call = lambda: bank_round(BUILTIN["standard"], Shoe.packs_of(1),  # noqa: E731
                              Session(players=3), samples=samples)
    if ok:
        r = call()
        assert not r.exact and sum(r.distribution.values()) == 1 and len(r.distribution) == 1
    else:
        with pytest.raises(ValueError):
            call()


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
