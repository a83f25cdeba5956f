"""Tests that bite, round two: the bank's session (odds/money/session.py).

Each test here is aimed at a bug that ``bench/mutate.py`` planted in the
module and that no earlier test caught (docs/mutation.md lists them).  Tests
of meaning: every path of a short session enumerated, the float chain against
the exact one, the library against the CLI.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odds import BUILTIN, Shoe
from odds.money.ruin import CHAIN_BUDGET, ruin_by_capital, session_risk
from odds.money.session import bank_study
from odds.money.target import capital_for_target
from odds.rules.profiles import Rotation, Session

F = Fraction
WALK = {F(1): F(1, 2), F(-1): F(1, 2)}
INF = Shoe.infinite_shoe()


def _every_path(dist: dict[Fraction, Fraction], capital: Fraction,
                rounds: int) -> tuple[list[Fraction], dict[Fraction, Fraction]]:
    """Ruin by round and the result of the sessions not ruined, over every path."""
    ruin = [F(0)] * rounds
    result: dict[Fraction, Fraction] = {}
    for path in itertools.product(dist.items(), repeat=rounds):
        p, c, first = F(1), capital, None
        for _, q in path:
            p *= q
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
    return ruin, result


# Nets of one round: some all positive (the bank can never be ruined), some all
# negative (it is ruined as soon as its capital runs out), most mixed.
nets = st.sampled_from([F(-3), F(-2), F(-1), F(-1, 2), F(0), F(1, 2), F(1), F(2), F(3)])
dists = st.lists(st.tuples(nets, st.integers(1, 4)), min_size=1, max_size=4,
                 unique_by=lambda t: t[0]).map(
    lambda pairs: {v: F(w, sum(x for _, x in pairs)) for v, w in pairs})


@settings(max_examples=60, deadline=None)
@given(dist=dists, capital=st.sampled_from([F(0), F(1, 2), F(1), F(5, 2), F(4)]),
       rounds=st.integers(1, 3))
def test_both_chains_equal_every_path(dist, capital, rounds) -> None:
    ruin, result = _every_path(dist, capital, rounds)
    exact = session_risk(dist, capital, rounds, exact=True)
    assert list(exact.ruin_by_round) == ruin and dict(exact.result) == result
    approx = session_risk(dist, capital, rounds, exact=False)
    assert not approx.exact and approx.error_bound > 0
    assert [float(x) for x in approx.ruin_by_round] == pytest.approx(
        [float(x) for x in ruin], abs=1e-12)
    assert set(approx.result) == set(result)
    for v, p in result.items():
        assert approx.result[v] == pytest.approx(float(p), abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(dist=dists, top=st.sampled_from([F(0), F(1), F(5, 2), F(4)]), rounds=st.integers(1, 3))
def test_ruin_by_capital_is_every_paths_ruin_for_each_capital(dist, top, rounds) -> None:
    for exact in (True, False):
        capitals, ruin, was_exact, bound = ruin_by_capital(dist, rounds, top, exact=exact)
        assert was_exact is exact and (bound == 0) is exact
        # The lattice's step is the nets' greatest common divisor (a capital between two
        # of its points is ruined exactly when the lower one is).
        den = math.lcm(*(v.denominator for v in dist))
        step = F(math.gcd(*(int(v * den) for v in dist)), den) or F(1)  # all nets 0: unit steps
        assert capitals[0] == 0 and capitals[-1] <= top < capitals[-1] + step
        assert all(b - a == step for a, b in zip(capitals, capitals[1:], strict=False))
        for c, p in zip(capitals, ruin, strict=True):
            assert float(p) == pytest.approx(float(_every_path(dist, c, rounds)[0][-1]), abs=1e-12)


def test_a_bank_that_only_wins_is_never_ruined() -> None:
    up = {F(1): F(1, 3), F(2): F(2, 3)}
    for exact in (True, False):
        _, ruin, _, _ = ruin_by_capital(up, 3, 2, exact=exact)
        assert [float(p) for p in ruin] == [0.0, 0.0, 0.0]
        assert float(session_risk(up, 0, 3, exact=exact).ruin) == 0.0


@pytest.mark.parametrize("dist", [{}, {F(1): F(3, 2), F(-1): F(-1, 2)}])
def test_a_round_distribution_needs_nets_of_non_negative_probability(dist) -> None:
    for call in (lambda: session_risk(dist, 1, 2), lambda: ruin_by_capital(dist, 2, 1)):
        with pytest.raises(ValueError, match="at least one net"):
            call()


def test_the_exact_chain_is_chosen_while_it_is_small() -> None:
    # A +-1 walk from capital c over R rounds has c + R + 1 capitals and 2 nets.
    assert session_risk(WALK, 10, 5).exact
    big = session_risk(WALK, CHAIN_BUDGET, 1)  # width x 2 x 1 > CHAIN_BUDGET
    assert not big.exact and big.error_bound > 0
    assert capital_for_target(WALK, 3, F(1, 4)).exact


# -- bank_study: what `lucky9 bank` shows ------------------------------------------------


def test_the_library_estimates_with_the_clis_default_seed() -> None:
    """A sampled round from the library is the one `lucky9 bank` prints by default."""
    import cli

    default = next(p.default for p in cli.bank.params if p.name == "seed")
    study = bank_study(BUILTIN["standard"], Shoe.packs_of(1), Session(players=3), samples=300)
    assert not study.round.exact
    assert study.round.seed == default
    again = bank_study(BUILTIN["standard"], Shoe.packs_of(1), Session(players=3), samples=300,
                       seed=default)
    assert study.round.distribution == again.round.distribution


@pytest.mark.parametrize("loss", ["x", "1/0", -1])
def test_a_bad_loss_threshold_is_a_value_error(loss) -> None:
    with pytest.raises(ValueError, match="loss over"):
        bank_study(BUILTIN["plain"], INF, Session(players=1), loss_over=loss)


def test_a_target_without_rounds_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="number of rounds"):
        bank_study(BUILTIN["plain"], INF, Session(players=1), target_ruin="0.01")


def test_the_other_rotation_is_the_other_mode() -> None:
    for mode, other in ((Rotation.FIXED, Rotation.ROTATE), (Rotation.ROTATE, Rotation.FIXED)):
        study = bank_study(BUILTIN["standard"], INF,
                           Session(players=2, rounds=5, rotation=mode))
        assert study.rotation is not None and study.other_rotation is not None
        banks = [p.bank_rounds for p in study.rotation]
        other = [p.bank_rounds for p in study.other_rotation]
        fixed, rotate = (banks, other) if mode is Rotation.FIXED else (other, banks)
        assert fixed == [5, 0, 0] and rotate == [2, 2, 1]


def test_the_stake_factor_is_capital_over_the_capital_for_the_target() -> None:
    study = bank_study(BUILTIN["standard"], INF,
                       Session(players=2, capital=F(30), rounds=10), target_ruin="1/20")
    assert study.target is not None and study.target.capital > 0
    assert study.stake_factor == F(30) / study.target.capital

