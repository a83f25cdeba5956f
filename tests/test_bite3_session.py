"""The bank's session chain on the edges of its input, each checked by a count by hand.

Mutation testing (docs/mutation.md) found that a net of probability 0 could be
refused unseen: a round's distribution may list an amount it never pays.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from odds.money.ruin import ruin_by_capital, session_risk


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
    from odds.money.session import bank_study
    from odds.rules.profiles import Session

    s = bank_study(BUILTIN["standard"], Shoe.packs_of(1),
                   Session(players=3, capital=F(5), rounds=10), samples=1000, precision=0.01)
    assert s.round.samples is not None and s.round.samples > 1000  # it bought samples
    again = session_risk(s.round.distribution, F(5), 10)
    assert s.risk is not None and s.risk.ruin == again.ruin and s.risk.result == again.result


@pytest.mark.parametrize("precision, ok", [(0, False), (1, False), (0.5, True)])
def test_precision_is_a_probability_strictly_between_0_and_1(precision, ok) -> None:
    from odds import BUILTIN, Shoe
    from odds.money.session import bank_study
    from odds.rules.profiles import Session

    def study():
        return bank_study(BUILTIN["standard"], Shoe.infinite_shoe(),
                          Session(capital=F(5), rounds=3), precision=precision)
    if ok:
        assert study().risk is not None
    else:
        with pytest.raises(ValueError, match=f"precision {precision}: give a probability"):
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
    from odds.rules.profiles import Session

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
    from odds.rules.profiles import Session

    packs = MAX_BANK_CARDS // 52 + 1
    with pytest.raises(ValueError, match=f"at most {MAX_BANK_CARDS:,} cards"):
        bank_round(BUILTIN["standard"], Shoe.packs_of(packs), Session(players=1))
