"""The bank's session (odds/money/session.py): the ruin chain and its edges.

Every path of a short session enumerated, the float chain against the exact
one, capitals off the lattice, targets given as floats, the largest stake,
the reference table's figures, the library against the CLI.
"""

from __future__ import annotations

import inspect
import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odds import BUILTIN, Shoe
from odds.money.bank import bank_round
from odds.money.ruin import CHAIN_BUDGET, ruin_by_capital, session_risk
from odds.money.session import bank_study, bank_table_rows
from odds.money.target import capital_for_target, largest_stake
from odds.rules.rule_types import Rotation
from odds.rules.session_options import Session

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
    big = session_risk(WALK, 10, 500)  # 511 capitals x 2 x 500 rounds > CHAIN_BUDGET
    assert 511 * 2 * 500 > CHAIN_BUDGET and not big.exact and big.error_bound > 0
    assert capital_for_target(WALK, 3, F(1, 4)).exact


def test_a_capital_past_the_rounds_worst_losses_costs_what_the_rounds_do() -> None:
    # Ruin is impossible from capital 5 over 5 rounds of a +-1 walk, and the result does not
    # depend on the capital: a capital of 10**12 is that chain, not a chain of 10**12 capitals.
    safe, huge = session_risk(WALK, 5, 5), session_risk(WALK, 10**12, 5)
    assert huge.ruin == safe.ruin == 0 and huge.result == safe.result and huge.exact
    assert huge.capital == 10**12 and huge.quantile(0.01) == -5


# -- bank_study: what `lucky9 bank` shows ------------------------------------------------


def test_the_library_estimates_with_the_clis_default_seed() -> None:
    """A sampled round from the library is the one `lucky9 bank` prints by default."""
    from odds.cli.bank import bank

    default = next(p.default for p in bank.params if p.name == "seed")
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


# -- the session chain: capital off the lattice, brute force over paths -----------------

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


# -- targets: floats read as their decimal, boundaries, largest stake --------------------


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


# -- the reference bank table: 50 rounds, 1% ruin, 20,000 samples ------------------------


@pytest.mark.slow
def test_reference_rows_use_50_rounds_a_1_percent_target_and_20000_samples() -> None:
    from odds.money.session import session_distribution

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
        # on the round every session figure uses: the sampled round tilted to the exact mean
        chain = session_distribution(r)
        assert row["capital"] == capital_for_target(chain, 50, F(1, 100),
                                                    exact=None if r.exact else False).capital
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


# -- the session chain on the edges of its input, each checked by a count by hand ------------------
# Mutation testing (docs/mutation.md) found that a net of probability 0 could be
# refused unseen: a round's distribution may list an amount it never pays.

@pytest.mark.parametrize("exact", [True, False])
def test_a_net_of_probability_zero_is_allowed_and_changes_nothing(exact) -> None:
    # A +-1 walk with a -5 that never happens: the same walk, whatever its listing says.
    walk = {F(1): F(1, 2), F(-1): F(1, 2)}
    listed = {**walk, F(-5): F(0)}
    a, b = session_risk(listed, 1, 3, exact=exact), session_risk(walk, 1, 3, exact=exact)
    assert a.ruin == b.ruin
    # ruin is a capital below 0: from 1 in 3 rounds only by losing the first two (1/4);
    # win-lose-lose ends at 0, not ruined
    assert float(a.ruin) == pytest.approx(1 / 4)
    assert [float(p) for p in ruin_by_capital(listed, 2, 2, exact=exact)[1]] == \
        [float(p) for p in ruin_by_capital(walk, 2, 2, exact=exact)[1]]


# -- bank_study and the reference table: what they promise, checked from outside ---------

def test_precision_recomputes_the_risk_on_the_final_sample() -> None:
    from odds import BUILTIN, Shoe
    from odds.money.session import bank_study, session_distribution
    from odds.rules.session_options import Session

    s = bank_study(BUILTIN["standard"], Shoe.packs_of(1),
                   Session(players=3, capital=F(5), rounds=10), samples=1000, precision=0.01)
    assert s.round.samples is not None and s.round.samples > 1000  # it bought samples
    again = session_risk(session_distribution(s.round), F(5), 10, exact=False)
    assert s.risk is not None and s.risk.ruin == again.ruin and s.risk.result == again.result
    assert s.risk.estimate is not None
    assert s.risk.estimate.value == pytest.approx(float(again.ruin), abs=1e-12)


@pytest.mark.parametrize("precision, ok", [(0, False), (1, False), (0.5, True)])
def test_precision_is_a_probability_strictly_between_0_and_1(precision, ok) -> None:
    from odds import BUILTIN, Shoe
    from odds.money.session import bank_study
    from odds.rules.session_options import Session

    def study():
        return bank_study(BUILTIN["standard"], Shoe.infinite_shoe(),
                          Session(capital=F(5), rounds=3), precision=precision)
    if ok:
        assert study().risk is not None
    else:
        with pytest.raises(ValueError, match=f"precision: {precision} is not between 0 and 1"):
            study()


def test_the_reference_table_reports_progress_once_a_row() -> None:
    from odds import BUILTIN, Shoe
    from odds.money.session import bank_table_rows

    seen: list[int] = []
    rows = bank_table_rows(BUILTIN["plain"], Shoe.infinite_shoe(), players=3,
                           progress=seen.append)
    assert seen == [r["players"] for r in rows] == [1, 2, 3]


def test_a_plot_without_rounds_is_sized_and_nothing_else() -> None:
    from odds import BUILTIN
    from odds.money.session import check_study_size
    from odds.rules.session_options import Session

    # No rounds: the plot's curve (50 rounds by default) is checked, the session's chain not.
    assert check_study_size(BUILTIN["standard"], None, Session(capital=F(10)), plot=True) is None


def test_a_bank_round_without_a_session_takes_the_profiles() -> None:
    from odds import BUILTIN, Shoe
    from odds.money.bank import bank_round

    p = BUILTIN["standard"]
    alone = bank_round(p, Shoe.infinite_shoe())
    given = bank_round(p, Shoe.infinite_shoe(), p.session)
    assert (alone.session, alone.mean, alone.variance) == (given.session, given.mean,
                                                            given.variance)


def test_a_finite_shoe_past_the_banks_bound_is_refused_before_the_round() -> None:
    from odds import BUILTIN, Shoe
    from odds.money.bank import MAX_BANK_CARDS, bank_round
    from odds.rules.session_options import Session

    packs = MAX_BANK_CARDS // 52 + 1
    with pytest.raises(ValueError, match=f"at most {MAX_BANK_CARDS:,} cards"):
        bank_round(BUILTIN["standard"], Shoe.packs_of(packs), Session(players=1))


def test_the_exact_chain_budget_is_four_hundred_thousand_steps() -> None:
    # A +-1 walk from capital c over 400 rounds: c + 401 capitals x 2 nets x 400 rounds.
    assert session_risk(WALK, 99, 400).exact  # 500 x 2 x 400 = 400,000
    assert not session_risk(WALK, 100, 400).exact


def test_the_exact_chain_counts_the_digits_of_the_rounds_own_denominator() -> None:
    # Fifths: 1 digit a round, so 600 rounds are within CHAIN_DIGITS (600) and stay exact.
    stall = {F(0): F(4, 5), F(-1): F(1, 5)}
    risk = session_risk(stall, 0, 600)
    assert risk.exact and risk.ruin == 1 - F(4, 5) ** 600


def test_bank_study_samples_as_many_rounds_as_bank_round_by_default() -> None:
    study = bank_study(BUILTIN["standard"], Shoe.packs_of(1), Session(players=3))
    default = inspect.signature(bank_round).parameters["samples"].default
    assert not study.round.exact and study.round.samples == default


@pytest.mark.parametrize("session", [Session(players=2),
                                     Session(stakes=(F(100), F(50)), round_cap=F(120))],
                         ids=["two-seats", "stakes-and-cap"])
def test_net_bounds_past_the_listing_limit_count_the_whole_range(session, monkeypatch) -> None:
    import odds.money.session as money_session

    listed = money_session.net_bounds(BUILTIN["standard"], session)
    monkeypatch.setattr(money_session, "MAX_NET_SET", 1)  # every set of nets is too long
    ranged = money_session.net_bounds(BUILTIN["standard"], session)
    assert ranged.nets == ranged.top + ranged.worst + 1  # -worst .. top, every lattice step
    assert (ranged.scale, ranged.top, ranged.worst) == (listed.scale, listed.top, listed.worst)
    assert ranged.nets >= listed.nets
