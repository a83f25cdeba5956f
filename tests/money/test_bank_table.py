"""The table as it is played: several seats on one finite shoe, one bank, money as stated.

The brute forces here deal the cards one at a time in table order (two
cards to each seat and to the bank, seat by seat then the bank, then third
cards in table order), as docs/rules.md describes a round, so they check the
exchangeability argument of odds/exact/seats.py too (which deals each hand's
three slots in turn).
"""

from __future__ import annotations

import json
import math
import sys
from collections import defaultdict
from fractions import Fraction
from functools import cache

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cli import main
from odds import BUILTIN, Shoe, round_odds
from odds.exact.engine import colon_class
from odds.exact.seats import pair_counts, seat_type, table_moments
from odds.money.bank import _monte_carlo, bank_round, wilson
from odds.money.ruin import session_risk
from odds.money.sampling import Z95, _tilt, ruin_estimate, session_estimates
from odds.money.session import bank_study
from odds.rules.cards import POINTS
from odds.rules.session_options import Session

STD = BUILTIN["standard"]


def _draws(profile, rule, value):
    return value not in profile.naturals and bool(rule.decide(value, None))


def table_order(profile, counts, seats):
    """Every deal of a round, one card at a time in table order: {(seat types...): probability}.

    Each card comes out with probability (its rank's count left) / (cards left).
    """
    hands = seats + 1  # the bank last
    kinds: dict[tuple[Fraction, bool, Fraction], int] = {}  # seat types as small ints: quick keys

    @cache
    def deal(pos, left, cards):
        # cards: per hand, the ranks it holds so far
        if pos < 2 * hands:  # first and second cards, round the table
            h = pos % hands
            out = defaultdict(Fraction)
            for r, c in enumerate(left):
                if c:
                    nl = left[:r] + (c - 1,) + left[r + 1:]
                    nc = cards[:h] + (tuple(sorted(cards[h] + (r,))),) + cards[h + 1:]
                    for k, w in deal(pos + 1, nl, nc).items():
                        out[k] += Fraction(c, sum(left)) * w
            return dict(out)
        h = pos - 2 * hands
        if h == hands:  # everyone has drawn: settle
            finals = []
            for _i, held in enumerate(cards):
                v = (POINTS[held[0]] + POINTS[held[1]]) % 10
                f = v if len(held) == 2 else (v + POINTS[held[2]]) % 10
                finals.append((v, colon_class(profile, held[0], held[1]), f))
            bank = finals[-1]
            return {tuple(kinds.setdefault(seat_type(profile, s, bank), len(kinds))
                          for s in finals[:-1]): Fraction(1)}
        held = cards[h]
        rule = profile.bank_draw if h == seats else profile.player_draw
        v = (POINTS[held[0]] + POINTS[held[1]]) % 10
        if not _draws(profile, rule, v):
            return deal(pos + 1, left, cards)
        out = defaultdict(Fraction)
        for r, c in enumerate(left):
            if c:
                nl = left[:r] + (c - 1,) + left[r + 1:]
                nc = cards[:h] + (held + (r,),) + cards[h + 1:]
                for k, w in deal(pos + 1, nl, nc).items():
                    out[k] += Fraction(c, sum(left)) * w
        return dict(out)

    found = deal(0, tuple(counts), ((),) * hands)
    named = {i: kind for kind, i in kinds.items()}
    return {tuple(named[i] for i in key): p for key, p in found.items()}


def _probabilities(counts):
    total = sum(counts.values())
    return {k: Fraction(w) / total for k, w in counts.items() if w}


def _brute_moments(found, stakes):
    total = sum(found.values())
    mean = sum(w / total * -sum(a * s for (a, _, _), s in zip(k, stakes, strict=False))
               for k, w in found.items())
    second = sum(w / total * sum(a * s for (a, _, _), s in zip(k, stakes, strict=False)) ** 2
                 for k, w in found.items())
    return mean, second - mean * mean


TEN = (2, 1, 1, 0, 2, 1, 0, 1, 2, 0, 0, 0, 0)  # 10 cards: A A 2 3 5 5 6 8 9 9
NINE = (2, 1, 1, 0, 2, 1, 0, 1, 1, 0, 0, 0, 0)  # 9 cards: the ten less a 9 (its brute force: 1 s, not 3)


# fast twin: test_pair_counts_equal_table_order_on_a_random_nine_card_shoe
@pytest.mark.slow
def test_pair_counts_equal_table_order_on_a_ten_card_shoe() -> None:
    pairs = pair_counts(STD, Shoe(TEN))
    assert _probabilities(pairs.counts) == _probabilities(table_order(STD, TEN, 2))


def _variance_at_two_seats_equals_table_order(counts) -> None:
    stakes = [Fraction(1), Fraction(3)]
    found = table_order(STD, counts, 2)
    assert table_moments(pair_counts(STD, Shoe(counts)), stakes) == _brute_moments(found, stakes)


def test_variance_at_two_seats_equals_table_order_on_a_nine_card_shoe() -> None:
    _variance_at_two_seats_equals_table_order(NINE)


# fast twin: test_variance_at_two_seats_equals_table_order_on_a_nine_card_shoe
@pytest.mark.slow
def test_variance_at_two_seats_equals_table_order_on_a_ten_card_shoe() -> None:
    _variance_at_two_seats_equals_table_order(TEN)


@pytest.mark.parametrize("shoe, stakes", [
    # Three seats and the bank need up to 12 cards: fours and tens (naturals, Colons, draws).
    ((0, 0, 0, 6, 0, 0, 0, 0, 0, 6, 0, 0, 0), (1, 2, 3)),
    # Six seats and the bank need up to 21 cards (the long twin).
    pytest.param((0, 0, 0, 10, 0, 0, 0, 0, 0, 11, 0, 0, 0), (1, 2, 1, 1, 3, 1),
                 marks=pytest.mark.slow),
], ids=["three-seats", "six-seats"])
def test_variance_at_several_seats_equals_table_order(shoe, stakes) -> None:
    stakes = [Fraction(s) for s in stakes]
    found = table_order(STD, shoe, len(stakes))
    mean, var = table_moments(pair_counts(STD, Shoe(shoe)), stakes)
    assert (mean, var) == _brute_moments(found, stakes)
    seat = sum(w * k[0][0] for k, w in found.items())
    assert mean == -sum(stakes) * seat


def test_two_seats_share_the_shoe() -> None:
    # On one pack the seats' results are correlated; on the infinite shoe the covariance
    # comes from the bank's hand only.  Either way the exact mean is N x the seat's.
    pairs = pair_counts(STD, Shoe.packs_of(1))
    mean, var, cov = pairs.moments()
    assert mean == round_odds(STD, Shoe.packs_of(1)).expected_value
    assert cov != 0
    r = bank_round(STD, Shoe.packs_of(1), Session(players=2))
    assert r.exact and r.mean == -2 * mean and r.variance == 2 * var + 2 * cov


def _pairs_equal_table_order(counts) -> None:
    assert _probabilities(pair_counts(STD, Shoe(tuple(counts))).counts) == \
        _probabilities(table_order(STD, tuple(counts), 2))


@settings(max_examples=1, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=13, max_size=13).filter(lambda c: sum(c) == 9))
def test_pair_counts_equal_table_order_on_a_random_nine_card_shoe(counts) -> None:
    _pairs_equal_table_order(counts)


@pytest.mark.slow  # the long twin of the nine-card one
@settings(max_examples=5, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=13, max_size=13).filter(lambda c: sum(c) in (9, 10)))
def test_pair_counts_equal_table_order_on_random_small_shoes(counts) -> None:
    _pairs_equal_table_order(counts)


# -- estimates against the exact figures ------------------------------------------------

SEEDS = range(1, 21)


@pytest.mark.parametrize("packs", [1, pytest.param(8, marks=pytest.mark.slow)])  # 8 packs: CI
def test_ruin_intervals_cover_the_exact_ruin_at_two_seats(packs) -> None:
    shoe = Shoe.packs_of(packs)
    stakes = (Fraction(1), Fraction(1))
    exact = bank_round(STD, shoe, Session(players=2))
    assert exact.exact
    exact_risk = session_risk(exact.distribution, 10, 20)
    truth = exact_risk.ruin
    ahead = sum(p for v, p in exact_risk.result.items() if v > 0)
    covered, covered_ahead = [], []
    net_missed: dict[Fraction, list[int]] = {v: [] for v in exact.distribution}
    for seed in SEEDS:
        dist, _ = _monte_carlo(STD, shoe, Session(players=2, stakes=stakes), stakes, 5000, seed)
        for v, p in exact.distribution.items():  # each net's probability, as bank prints it
            lo, hi = wilson(float(dist.get(v, 0)), 5000)
            if not lo <= p <= hi:
                net_missed[v].append(seed)
        e = session_estimates(dist, 5000, 10, 20, exact_mean=exact.mean, seed=seed,
                              quantiles={0.5: Fraction(0)})
        covered.append(e.ruin.interval[0] <= truth <= e.ruin.interval[1])
        covered_ahead.append(e.ahead.interval[0] <= ahead <= e.ahead.interval[1])
        assert e.ruin.narrowed > 0.3  # the exact mean as a control variate tightens it
        assert e.ruin == ruin_estimate(dist, 5000, 10, 20, exact_mean=exact.mean, seed=seed)
    missed = [s for s, c in zip(SEEDS, covered, strict=True) if not c]
    missed_ahead = [s for s, c in zip(SEEDS, covered_ahead, strict=True) if not c]
    report = (f"{packs} packs, seeds {SEEDS.start}-{SEEDS.stop - 1}: ruin {float(truth):.6f} "
              f"covered {20 - len(missed)} of 20 (missed {missed}); P(ahead) {float(ahead):.6f} "
              f"covered {20 - len(missed_ahead)} of 20 (missed {missed_ahead}); each net's "
              f"probability missed in seeds {({str(v): m for v, m in net_missed.items()})}")
    print(report, file=sys.stderr)
    # The acceptance: at least 19 of 20 seeds, for each figure.  The seeds are 1-20, as they
    # were before the estimator was mended, not chosen.  Measured over 1,000 seeds each
    # interval covers 94-95% (test_the_estimates_are_unbiased_and_their_intervals_95_percent
    # below checks the rate itself), so even a right interval misses 2 of 20 seeds about one
    # time in four: this test pins the seeds, the rate test checks the intervals.
    # The nets' Wilson intervals cover 91.5-98.5% each over 200 seeds on one pack (the
    # rarest nets, seen about once in 5,000 rounds, the least).
    assert len(missed) <= 1 and len(missed_ahead) <= 1, report
    assert all(len(m) <= 1 for m in net_missed.values()), report


def _tally(values: list[Fraction], probs: list[float], n: int, seed: int) -> dict[Fraction, Fraction]:
    """The frequencies of ``n`` rounds drawn from a distribution (one multinomial draw)."""
    import numpy as np

    got = np.random.default_rng(seed).multinomial(n, probs)
    return {v: Fraction(int(k), n) for v, k in zip(values, got, strict=True) if k}


def test_the_estimates_are_unbiased_and_their_intervals_95_percent() -> None:
    # The sampled rounds drawn straight from the exact two-seat distribution on one pack
    # (one multinomial draw per seed, as the Monte Carlo's rounds fall, without dealing cards).
    # The control variate once corrected R(p) linearly in the sample mean; R bends with the
    # mean, and once the correction has removed 85-98% of the variance that curvature was a
    # bias of a third of the interval.  On these 400 seeds the linear correction covered
    # P(ahead) 361 times (error -0.40 +- 1.23 standard errors) and the ruin 374 times
    # (-0.21 +- 1.00); the tilted round covers them 384 (-0.01 +- 0.97) and 381 times.
    exact = bank_round(STD, Shoe.packs_of(1), Session(players=2))
    risk = session_risk(exact.distribution, 10, 20)
    truth = {"ruin": float(risk.ruin),
             "ahead": float(sum(p for v, p in risk.result.items() if v > 0))}
    values = list(exact.distribution)
    probs = [float(exact.distribution[v]) for v in values]
    n, seeds = 5000, range(1, 401)
    covered = {"ruin": 0, "ahead": 0}
    errors: dict[str, list[float]] = {"ruin": [], "ahead": []}
    for seed in seeds:
        e = session_estimates(_tally(values, probs, n, seed), n, 10, 20, exact_mean=exact.mean,
                              quantiles={})
        for name, est in (("ruin", e.ruin), ("ahead", e.ahead)):
            lo, hi = est.interval
            covered[name] += lo <= truth[name] <= hi
            errors[name].append((est.value - truth[name]) / (est.half_width / Z95))
            assert est.narrowed > 0.5
    for name in covered:
        z = errors[name]
        mean = sum(z) / len(z)
        sd = math.sqrt(sum((e - mean) ** 2 for e in z) / len(z))
        print(f"{name}: covered {covered[name]} of {len(seeds)}, error {mean:+.3f} "
              f"+- {sd:.3f} (in standard errors)", file=sys.stderr)
        # 95% of 400 is 380 +- 4.4: below 370 (2.3 sd) the interval is too narrow.
        assert covered[name] >= 370 and abs(mean) < 0.2 and 0.85 < sd < 1.15, (name, covered)


def test_the_tilt_reaches_the_exact_mean_and_changes_least() -> None:
    import numpy as np

    probs = np.array([0.2, 0.5, 0.3])
    x = np.array([-2.0, 0.0, 1.0])
    q = _tilt(probs, x, 0.1)
    assert q is not None and abs(q @ x - 0.1) < 1e-12 and abs(q.sum() - 1) < 1e-12
    # An exponential tilt: log(q / p) is linear in x.
    r = np.log(q / probs)
    assert abs((r[2] - r[1]) / (x[2] - x[1]) - (r[1] - r[0]) / (x[1] - x[0])) < 1e-9
    assert _tilt(probs, x, float(probs @ x)) is not None
    assert np.allclose(_tilt(probs, x, float(probs @ x)), probs)
    assert _tilt(probs, x, 1.0) is None and _tilt(probs, x, -3.0) is None  # out of reach


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 50), min_size=2, max_size=6), st.floats(0.01, 0.99))
def test_the_estimate_is_the_chain_on_the_tilted_round(weights, where) -> None:
    import numpy as np

    nets = [Fraction(v) for v in range(-3, -3 + len(weights))]
    total = sum(weights)
    dist = {v: Fraction(w, total) for v, w in zip(nets, weights, strict=True)}
    target = nets[0] + (nets[-1] - nets[0]) * Fraction(where)
    e = session_estimates(dist, 1000, 4, 6, exact_mean=target, quantiles={})
    q = _tilt(np.array([float(p) for p in dist.values()]), np.array([float(v) for v in nets]),
              float(target))
    assert q is not None
    tilted = {v: Fraction(float(p)) for v, p in zip(nets, q, strict=True)}
    assert abs(e.ruin.value - float(session_risk(tilted, 4, 6, exact=False).ruin)) < 1e-9
    assert abs(e.ruin.raw - float(session_risk(dist, 4, 6).ruin)) < 1e-12
    assert e.ruin.interval[0] <= e.ruin.value <= e.ruin.interval[1]


# -- money as the user states it -----------------------------------------------------------


def test_stakes_and_capital_reduced_by_their_divisor_give_the_same_answer() -> None:
    inf = Shoe.infinite_shoe()
    big = bank_study(STD, inf, Session(players=6, stakes=(Fraction(100),) * 6,
                                       capital=Fraction(20000), rounds=200))
    small = bank_study(STD, inf, Session(players=6, capital=Fraction(200), rounds=200))
    assert big.risk is not None and small.risk is not None
    assert big.risk.ruin == small.risk.ruin
    assert {v / 100: p for v, p in big.risk.result.items()} == small.risk.result
    assert big.round.mean == 100 * small.round.mean


def run(*args):
    return CliRunner().invoke(main, ["bank", *args])


def test_one_stake_applies_to_every_player_and_amounts_are_the_users() -> None:
    result = run("--players", "3", "--decks", "inf", "--stakes", "100")
    assert result.exit_code == 0, result.output
    assert "stakes 100 each" in result.stdout and "P(loss > 500)" in result.stdout
    assert "a stake of 1" not in result.stdout and "stakes' units" in result.stdout
    assert "P(loss > 5 stakes)" not in result.stdout


@pytest.mark.parametrize("args,words", [
    (["--players", "3", "--stakes", "1,2"], "2 stakes given for 3 players"),
    (["--players", "2", "--stakes", "0"], "stakes: 0 is not a stake (a stake is a positive"),
    (["--players", "2", "--stakes", "-5"], "stakes: -5 is not a stake (a stake is a positive"),
    (["--players", "2", "--stakes", "100", "--capital", "50", "--rounds", "5"],
     "less than one stake"),
    (["--players", "2", "--capital", "10", "--rounds", "1000000"], "give fewer rounds"),
    (["--players", "2", "--samples", "2000001"], "2000000"),
    (["--players", "2", "--decks", "1000000000"], "52,000"),
    (["--players", "2", "--rounds", "100000000000"], "at most"),
    (["--players", "9"], "1 to 8 players"),
], ids=lambda v: v if isinstance(v, str) else " ".join(v))
def test_bad_input_is_one_line_and_exit_2(args, words) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output
    assert len([line for line in result.output.splitlines() if line.startswith("Error")]) == 1


def test_plot_to_an_unwritable_path_is_refused_before_the_work(tmp_path, monkeypatch) -> None:
    import odds.money.session as session_module

    def never(*args, **kwargs):
        raise AssertionError("the computation started")

    monkeypatch.setattr(session_module, "bank_study", never)
    result = run("--players", "2", "--plot", str(tmp_path / "missing" / "x.svg"))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


def test_plot_without_matplotlib_is_refused_before_the_work(tmp_path, monkeypatch) -> None:
    import odds.money.session as session_module

    def never(*args, **kwargs):
        raise AssertionError("the computation started")

    monkeypatch.setattr(session_module, "bank_study", never)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = run("--players", "2", "--plot", str(tmp_path / "x.png"))
    assert result.exit_code == 1, result.output
    assert "pip install matplotlib" in result.output
    assert not (tmp_path / "x.png").exists()


def test_precision_buys_samples_until_the_interval_is_that_narrow() -> None:
    result = run("--players", "3", "--decks", "1", "--capital", "5", "--rounds", "10",
                 "--samples", "1000", "--precision", "0.01", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    est = data["session_risk"]["ruin_estimate"]
    assert est["samples"] > 1000 and est["samples"] == data["samples"]
    assert (est["interval"][1] - est["interval"][0]) / 2 <= 0.01
    assert set(data["session_risk"]["quantiles"]) == {"0.05", "0.5", "0.95"}
    for q in data["session_risk"]["quantiles"].values():
        lo, hi = (Fraction(v) for v in q["interval"])
        assert lo <= Fraction(q["estimate"]) <= hi


def test_a_progress_bar_only_after_two_seconds_on_a_terminal(monkeypatch) -> None:
    import io

    from odds.cli.progress import delayed_progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    with delayed_progress(after=3600.0) as advance:
        advance(1, 10)
    assert screen.getvalue() == ""  # a quick run shows nothing
    with delayed_progress(after=0.0) as advance:
        advance(5, 10)
        advance(10, 10)
    assert "bank" in screen.getvalue()
    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    with delayed_progress(after=0.0) as advance:
        advance(5, 10)
    assert pipe.getvalue() == ""  # not a terminal: no bar


def test_session_estimates_quantile_figures_count_the_result_from_the_capital() -> None:
    # Without the exact mean the figure is the chain's own: P(ruined or result <= at).
    walk = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    risk = session_risk(walk, 2, 3)
    e = session_estimates(walk, 1000, 2, 3, quantiles={0.5: Fraction(0), 0.9: Fraction(1)})
    for at, est in e.quantiles.values():
        below = risk.ruin + sum(p for v, p in risk.result.items() if v <= at)
        assert est.value == pytest.approx(float(below))
