"""The capital for a target ruin on a sampled round: one distribution for every figure, an interval.

Every session figure of an estimated round is computed on the sampled round
tilted to its exact mean (``session_distribution``); the smallest capital for
a target once came from the raw sampled round instead, so it contradicted the
ruin printed beside it, and it had no interval.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odds import BUILTIN, Shoe
from odds.money.bank import bank_round
from odds.money.chain import lattice
from odds.money.ruin import ruin_by_capital, session_risk
from odds.money.sampling import ruin_estimate, session_estimates, tilted_round
from odds.money.session import bank_study, session_distribution
from odds.money.target import capital_for_target, capital_interval, largest_stake
from odds.rules.session_options import Session

STD = BUILTIN["standard"]


@pytest.fixture(scope="module")
def study4():
    """Four seats on two packs, 100 rounds, a 1% target, 4,000 rounds sampled: seeds 1-4."""
    return {seed: bank_study(STD, 2, Session(players=4, rounds=100, capital=Fraction(85)),
                             samples=4000, seed=seed, target_ruin="0.01")
            for seed in range(1, 5)}


def test_the_capital_agrees_with_the_ruin_printed_beside_it(study4) -> None:
    # The contradiction: P(ruin) at the capital above the target while the
    # capital search called that capital enough (or the other way round).
    for seed, s in study4.items():
        assert s.risk is not None and s.target is not None and s.risk.estimate is not None
        chain = session_distribution(s.round)
        assert s.session_distribution == chain
        step = 1 / lattice(chain)[0]
        cap = s.target.capital
        at = ruin_estimate(s.round.distribution, 4000, cap, 100, exact_mean=s.round.mean).value
        below = ruin_estimate(s.round.distribution, 4000, cap - step, 100,
                              exact_mean=s.round.mean).value
        assert at <= 0.01 < below, seed
        assert s.target.ruin == pytest.approx(at, abs=1e-12)
        # the ruin at --capital is the same chain's
        assert (s.risk.estimate.value <= 0.01) == (s.risk.capital >= cap), seed
        assert float(s.risk.ruin) == pytest.approx(s.risk.estimate.value, abs=1e-12)


def test_the_capitals_intervals_overlap_across_seeds(study4) -> None:
    # Before, the raw sampled round gave capitals 77 to 96 over these seeds, no interval.
    intervals = {seed: s.target.interval for seed, s in study4.items()}
    assert all(iv is not None for iv in intervals.values())
    lows = [iv[0] for iv in intervals.values() if iv is not None]
    highs = [iv[1] for iv in intervals.values() if iv is not None]
    assert max(lows) <= min(highs), intervals
    for seed, s in study4.items():
        t = s.target
        assert t.interval is not None and t.interval[0] <= t.capital <= t.interval[1]
        assert (t.samples, t.seed) == (4000, seed)


def test_the_result_and_largest_stake_come_from_the_same_round(study4) -> None:
    s = study4[1]
    chain = session_distribution(s.round)
    risk = session_risk(chain, Fraction(85), 100, exact=False)
    assert s.risk is not None and s.risk.result == risk.result
    # the expected result is the exact mean's, less what ruin cuts off
    assert abs(sum(v * p for v, p in chain.items()) - s.round.mean) < 1e-9
    assert s.target is not None and s.stake_factor == Fraction(85) / s.target.capital


def test_an_exact_round_has_an_exact_capital_and_no_interval() -> None:
    s = bank_study(STD, Shoe.infinite_shoe(), Session(players=2, rounds=20), target_ruin="0.01")
    assert s.round.exact and s.target is not None and s.target.exact
    assert s.target.interval is None and s.target.samples is None
    assert s.session_distribution == s.round.distribution


def test_precision_narrows_the_ruin_at_the_capital_for_the_target() -> None:
    s = bank_study(STD, 1, Session(players=3, rounds=20), samples=1000, precision=0.002,
                   target_ruin="0.05")
    assert s.target is not None and s.target.samples is not None
    assert s.target.samples > 1000 and s.round.samples == s.target.samples
    e = ruin_estimate(s.round.distribution, s.target.samples, s.target.capital, 20,
                      exact_mean=s.round.mean)
    assert e.half_width <= 0.002


# -- capital_interval against brute force ----------------------------------------------------


def _scan(dist, samples, rounds, target, mean):
    """Every capital's ruin interval, one by one: the capitals that may be the smallest."""
    scale, steps = lattice(dist)
    top = max(0, -min(steps)) * rounds
    iv = [ruin_estimate(dist, samples, Fraction(k) / scale, rounds, exact_mean=mean).interval
          for k in range(top + 1)]
    may = [k for k in range(top + 1)
           if iv[k][0] <= target and (k == 0 or iv[k - 1][1] >= target)]
    return [Fraction(k) / scale for k in may]


def test_the_search_finds_what_a_scan_of_every_capital_finds() -> None:
    r = bank_round(STD, 1, Session(players=3), samples=3000, seed=7)
    chain = session_distribution(r)
    for rounds, target in ((10, Fraction(1, 20)), (20, Fraction(1, 100)), (15, Fraction(1, 3))):
        point = capital_for_target(chain, rounds, target, exact=False).capital
        may = _scan(r.distribution, 3000, rounds, float(target), r.mean)
        got = capital_interval(r.distribution, 3000, rounds, target, point, exact_mean=r.mean)
        assert got == (min(may + [point]), max(may + [point])), (rounds, target)
        # the capitals in between may each be the answer too: an interval, not a set with gaps
        assert may == [c for c in may if got[0] <= c <= got[1]]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 40), min_size=3, max_size=7), st.integers(100, 5000),
       st.integers(2, 12), st.sampled_from([Fraction(1, 100), Fraction(1, 10), Fraction(1, 2)]))
def test_the_interval_holds_the_point_and_its_ends_are_boundaries(weights, samples, rounds,
                                                                  target) -> None:
    nets = [Fraction(v) for v in range(-(len(weights) // 2) - 1, len(weights) - len(weights) // 2 - 1)]
    total = sum(weights)
    dist = {v: Fraction(w, total) for v, w in zip(nets, weights, strict=True)}
    mean = sum(v * p for v, p in dist.items()) + Fraction(1, 10)
    point = capital_for_target(tilted_round(dist, mean), rounds, target, exact=False).capital
    lo, hi = capital_interval(dist, samples, rounds, target, point, exact_mean=mean)
    assert lo <= point <= hi

    def bounds(c):
        return ruin_estimate(dist, samples, c, rounds, exact_mean=mean).interval

    t = float(target)
    if lo < point:  # the lowest whose ruin interval reaches down to the target
        assert bounds(lo)[0] <= t and (lo == 0 or bounds(lo - 1)[0] > t)
    if hi > point:  # one step above the highest reaching up to it
        assert bounds(hi - 1)[1] >= t and bounds(hi)[1] < t


def test_the_interval_covers_the_true_capital_95_percent() -> None:
    # Rounds drawn straight from the exact two-seat distribution on one pack (one multinomial
    # draw per seed); the true capital for a 5% ruin within 20 rounds is the exact chain's.
    # Measured: 196 of 200 seeds (and 191 of 200 for a 1% ruin within 50 rounds, 2,000 rounds
    # sampled); each end fails with probability at most 2.5%, so at least 95% is promised.
    exact = bank_round(STD, Shoe.packs_of(1), Session(players=2))
    rounds, target, n = 20, Fraction(1, 20), 5000
    truth = capital_for_target(exact.distribution, rounds, target).capital
    values = list(exact.distribution)
    probs = [float(exact.distribution[v]) for v in values]
    covered = 0
    for seed in range(1, 201):
        got = np.random.default_rng(seed).multinomial(n, probs)
        dist = {v: Fraction(int(k), n) for v, k in zip(values, got, strict=True) if k}
        point = capital_for_target(tilted_round(dist, exact.mean), rounds, target,
                                   exact=False).capital
        lo, hi = capital_interval(dist, n, rounds, target, point, exact_mean=exact.mean)
        covered += lo <= truth <= hi
    # 95% of 200 is 190 +- 3.1: below 184 the interval is too narrow.
    assert covered >= 184, covered


def test_tilted_round_is_the_round_the_estimates_are_of() -> None:
    r = bank_round(STD, 1, Session(players=3), samples=2000, seed=3)
    chain = tilted_round(r.distribution, r.mean)
    e = session_estimates(r.distribution, 2000, 10, 20, exact_mean=r.mean)
    assert float(session_risk(chain, 10, 20, exact=False).ruin) == pytest.approx(e.ruin.value,
                                                                               abs=1e-12)
    caps, ruin, _, _ = ruin_by_capital(chain, 20, 10, exact=False)
    assert float(ruin[-1]) == pytest.approx(e.ruin.value, abs=1e-12)
    assert math.isclose(float(sum(chain.values())), 1.0, abs_tol=1e-12)
    assert tilted_round(r.distribution, None) == r.distribution


def test_largest_stake_refuses_a_negative_capital() -> None:
    walk = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    with pytest.raises(ValueError, match="negative"):
        largest_stake(walk, -1, 3, Fraction(1, 4))


@pytest.mark.parametrize("capital", [1, 2])
def test_capital_interval_counts_an_interval_touching_the_target(capital) -> None:
    # Tilted to mean 0, a +-1 sample is the fair walk itself: each interval is one point.
    # Ruin within 3 rounds: 5/8 from 0, 1/4 from 1, 1/8 from 2.  At target 1/4, capital 1
    # reaches it from below and from above, so the interval runs from 1 to 1 + 1.
    sampled = {Fraction(1): Fraction(1, 4), Fraction(-1): Fraction(3, 4)}
    assert capital_interval(sampled, 10_000, 3, Fraction(1, 4), Fraction(capital),
                            exact_mean=Fraction(0)) == (Fraction(1), Fraction(2))


# -- the search itself: _first against a scan, capital 0, whole numbers, a bound on its steps --


def _recorded(threshold):
    asked = []

    def holds(k):
        asked.append(k)
        return k >= threshold

    return holds, asked


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 200), st.data())
def test_first_finds_what_a_scan_finds_asking_only_whole_capitals_in_range(top, data) -> None:
    from odds.money.target import _first

    threshold = data.draw(st.integers(0, top + 3), label="threshold")
    start = data.draw(st.integers(0, top), label="start")
    holds, asked = _recorded(threshold)
    got = _first(holds, top, start)
    assert got == min(threshold, top)  # the scan: the first k that holds, top taken as true
    assert all(type(k) is int and 0 <= k <= top for k in asked), asked  # no float midpoints
    assert len(asked) <= 2 * top.bit_length() + 4


@pytest.mark.parametrize("top,start", [(1, 0), (7, 3), (10, 10), (1000, 999), (3, 2)])
def test_first_gallops_down_to_capital_0_when_it_already_holds(top, start) -> None:
    from odds.money.target import _first

    holds, asked = _recorded(0)
    assert _first(holds, top, start) == 0
    assert 0 in asked or top == 0


@pytest.mark.parametrize("top,start,threshold", [(2, 0, 1), (5, 0, 3), (6, 1, 6), (9, 2, 7),
                                                 (13, 0, 11), (100, 37, 64)])
def test_first_bisects_a_clamped_range_in_whole_numbers(top, start, threshold) -> None:
    # The gallop overshoots top and is clamped to it: the bisection's ends then sum to odd
    # numbers, where a true division would ask for capital 2.5.
    from odds.money.target import _first

    holds, asked = _recorded(threshold)
    assert _first(holds, top, start) == min(threshold, top)
    assert all(isinstance(k, int) for k in asked)


@pytest.mark.parametrize("threshold", [0, 1, 2, 499_999, 500_000, 500_001, 999_999, 10**6])
def test_first_takes_a_logarithmic_number_of_steps(threshold) -> None:
    # A search that stops halving (or doubling) would run for ever on a range this wide;
    # the bound on its steps turns that into an error, and here is never reached.
    from odds.money.target import _first

    holds, asked = _recorded(threshold)
    assert _first(holds, 10**6, 500_000) == min(threshold, 10**6)
    assert len(asked) <= 2 * (10**6).bit_length() + 4
    assert len(set(asked)) == len(asked)  # no capital asked twice


def test_first_refuses_a_start_outside_its_range() -> None:
    from odds.money.target import _first

    with pytest.raises(ValueError, match="outside"):
        _first(bool, 5, 6)


def test_capital_0_already_meets_the_target_exact_and_sampled() -> None:
    # A round the bank loses 1 with probability 1/100: ruin in 1 round from capital 0 is 1/100.
    dist = {Fraction(1): Fraction(99, 100), Fraction(-1): Fraction(1, 100)}
    assert capital_for_target(dist, 1, Fraction(1, 20)).capital == 0
    got = capital_interval(dist, 10_000, 1, Fraction(1, 20), Fraction(3),
                           exact_mean=Fraction(98, 100))
    assert got[0] == 0
    assert largest_stake(dist, 10, 1, Fraction(1, 20)) is None


@pytest.mark.parametrize("target", [True, False, "1%", float("nan"), float("inf"), None])
def test_a_target_that_is_not_a_number_is_refused_as_such(target) -> None:
    from odds.money.target import check_target_ruin

    with pytest.raises(ValueError, match="is not a number"):
        check_target_ruin(target)


@pytest.mark.parametrize("target", [0, 1, Fraction(3, 2), -0.5])
def test_a_target_outside_0_to_1_is_refused(target) -> None:
    from odds.money.target import check_target_ruin

    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        check_target_ruin(target)
    assert check_target_ruin(0.01) == Fraction(1, 100)


def test_a_sampled_interval_on_a_coarser_unit_is_that_of_the_round_rounded_to_it() -> None:
    # Nets 3/2, -1, -5/2 on a lattice of 1: rounded toward the bank's loss, 1, -1, -3.
    dist = {Fraction(3, 2): Fraction(45, 100), Fraction(-1): Fraction(40, 100),
            Fraction(-5, 2): Fraction(15, 100)}
    rounded = {Fraction(1): Fraction(45, 100), Fraction(-1): Fraction(40, 100),
               Fraction(-3): Fraction(15, 100)}

    def mean(d):
        return sum(v * p for v, p in d.items())

    for rounds, target, point in ((10, Fraction(1, 10), 8), (1, Fraction(1, 100), 6),
                                  (3, Fraction(1, 1000), 6)):
        on_unit = capital_interval(dist, 20_000, rounds, target, Fraction(point),
                                   unit=Fraction(1), seed=3, exact_mean=mean(dist))
        assert on_unit == capital_interval(rounded, 20_000, rounds, target, Fraction(point),
                                           seed=3, exact_mean=mean(rounded)), rounds
        assert all(end.denominator == 1 for end in on_unit)  # on the unit's lattice
    # One round at 1%: only the worst loss (3 once rounded) can ruin, 15% of the time.
    assert on_unit == (6, 9) and capital_interval(
        dist, 20_000, 1, Fraction(1, 100), Fraction(6), unit=Fraction(1), seed=3,
        exact_mean=mean(dist)) == (3, 3)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 5000), st.data())
def test_first_asks_at_most_twice_log2_top_plus_two_whatever_the_predicate_answers(top, data):
    # Not even a predicate that answers at random (no capital search has one) makes the
    # search take more steps: its bound on steps (2 log2 + 4) stops only a broken search.
    from odds.money.target import _first

    start = data.draw(st.integers(0, top), label="start")
    asked: list[int] = []

    def holds(k: int) -> bool:
        asked.append(k)
        return data.draw(st.booleans(), label=f"holds({k})")

    assert 0 <= _first(holds, top, start) <= top
    assert len(asked) <= 2 * top.bit_length() + 2


def test_the_searches_start_at_the_point_where_its_ruin_estimate_is_0() -> None:
    # A ruin estimated as 0 at the point (none of the samples ruined) gives no rate to
    # extrapolate with: the searches start at the point itself.
    from types import SimpleNamespace

    from odds.money.target import _starts

    values = {10: 0.0, 9: 0.02}

    def estimate(k: int) -> SimpleNamespace:
        return SimpleNamespace(value=values[k], half_width=0.01)

    assert _starts(estimate, 10, 100, 0.01) == (10, 10)
    values[10] = 0.01  # a ruin estimate of 1%: extrapolated around the point
    low, high = _starts(estimate, 10, 100, 0.01)
    assert low < 10 < high


def test_the_interval_s_top_end_is_at_most_the_capital_it_is_capped_at() -> None:
    # A fair walk of +-1/2 (two lattice steps a unit): uncapped (3/2, 9/2); capped at 4, and
    # at 9/4 (4.5 lattice steps: the last whole step below is 2), the top end stops there.
    half = {Fraction(1, 2): Fraction(1, 2), Fraction(-1, 2): Fraction(1, 2)}
    ask = (half, 100, 20, Fraction(1, 10), Fraction(7, 2))
    assert capital_interval(*ask) == (Fraction(3, 2), Fraction(9, 2))
    assert capital_interval(*ask, most=Fraction(4)) == (Fraction(3, 2), Fraction(4))
    assert capital_interval(*ask, most=Fraction(9, 4)) == (Fraction(3, 2), Fraction(2))
    assert capital_interval(*ask, most=Fraction(10)) == (Fraction(3, 2), Fraction(9, 2))


@pytest.mark.parametrize(("threshold", "start"), [(5, 0), (5, 9), (0, 7), (10, 10), (3, 3)])
def test_first_stops_on_the_step_after_its_limit_and_not_before(threshold, start) -> None:
    from odds.money.target import _first

    asked: list[int] = []

    def holds(k: int) -> bool:
        asked.append(k)
        return k >= threshold

    want = _first(holds, 10, start)
    n = len(asked)
    assert want == threshold and n >= 1
    assert _first(holds, 10, start, limit=n) == want  # n asks within a limit of n
    with pytest.raises(RuntimeError, match=f"more than {n - 1} steps over 0..10"):
        _first(holds, 10, start, limit=n - 1)


def test_the_searches_start_where_an_exponential_ruin_crosses_the_target() -> None:
    # A ruin of 2^-k at capital k, known to +-50%: from the point (10) and one step below,
    # the low end starts where 0.5 * 2^-k reaches 0.01 (k = log2 50 = 5.6: 6) and the high
    # end where 1.5 * 2^-k does (k = log2 150 = 7.2: 8).  At the range's ends (capital 0,
    # or the top) there is no step below or nothing above: the point itself, nothing asked.
    from types import SimpleNamespace

    from odds.money.target import _starts

    def estimate(k: int) -> SimpleNamespace:
        assert 0 <= k <= 100, k
        value = 2.0 ** -k
        return SimpleNamespace(value=value, half_width=value / 2)

    assert _starts(estimate, 10, 100, 0.01) == (6, 8)
    assert _starts(estimate, 3, 100, 0.01) == (6, 8)  # from below the answer: the same

    def nothing(k: int) -> SimpleNamespace:
        raise AssertionError(f"estimated capital {k}")

    assert _starts(nothing, 0, 100, 0.01) == (0, 0)
    assert _starts(nothing, 100, 100, 0.01) == (100, 100)


def test_an_exact_ruin_exactly_at_the_target_meets_it() -> None:
    # One round that loses 1 a third of the time: at capital 0 the ruin is exactly 1/3, which
    # meets a 1/3 target (float(1/3) is a hair below it: compared exactly, not as floats).
    third = {Fraction(1): Fraction(2, 3), Fraction(-1): Fraction(1, 3)}
    got = capital_for_target(third, 1, Fraction(1, 3))
    assert got.exact and (got.capital, got.ruin) == (0, Fraction(1, 3))
    assert capital_for_target(third, 1, Fraction(1, 3) - Fraction(1, 10**12)).capital == 1


def test_a_capital_between_two_lattice_points_is_the_one_below() -> None:
    # On a walk of +-1, a capital of 14.5 is ruined exactly when 14 is (after 15 losses):
    # the interval around it is the one around 14.
    walk = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    ask = (walk, 100, 20, Fraction(1, 10))
    assert capital_interval(*ask, Fraction(29, 2)) == capital_interval(*ask, Fraction(14)) == (
        Fraction(3), Fraction(14))


@pytest.mark.parametrize("start", [0, 3, 99, 100])
def test_first_never_asks_top_where_the_predicate_is_taken_as_true(start) -> None:
    from odds.money.target import _first

    def holds(k: int) -> bool:
        assert k < 100, "asked the top"
        return False

    assert _first(holds, 100, start) == 100


def test_a_very_wide_ruin_interval_starts_the_low_search_at_capital_0() -> None:
    # An interval twice the ruin's size: its share is capped at 0.99, so the low end starts
    # where 0.01 * 2^-k reaches the target t: from the point 10, k = log2(0.01 / t), up to
    # a whole capital: 1.74 (2) for t = 0.003; below 0 (capital 0) for t = 0.03.
    from types import SimpleNamespace

    from odds.money.target import _starts

    def estimate(k: int) -> SimpleNamespace:
        value = 2.0 ** -k
        return SimpleNamespace(value=value, half_width=2 * value)

    assert _starts(estimate, 10, 100, 0.003)[0] == 2
    assert _starts(estimate, 10, 100, 0.03)[0] == 0
