"""The bank's session chain on the edges of its input, each checked by a count by hand.

Mutation testing (docs/mutation.md) found that a net of probability 0 could be
refused unseen: a round's distribution may list an amount it never pays.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from odds.money.session import ruin_by_capital, session_risk


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
