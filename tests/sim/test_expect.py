"""The verifier's per-round side-bet cells against the exact engine, labels high to low.

The order of a side bet's payout labels must hold when the bet is counted on its
own, not only in the one product of :func:`round_probabilities`.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from odds import BUILTIN, Shoe, bet_odds
from odds.sim.expect import round_probabilities, side_bet_cells


@pytest.mark.parametrize("profile, bet", [("ez-baccarat", "dragon-7"),
                                          ("ez-baccarat", "panda-8"),
                                          ("standard", "player-pair")])
def test_a_side_bets_cells_counted_alone_are_the_engines_high_to_low(profile, bet) -> None:
    p = BUILTIN[profile]
    comps = np.array([[4] * 13, [4, 3, 4, 2, 4, 4, 1, 4, 4, 3, 4, 4, 4], [8] * 13])
    probs = round_probabilities(p, comps)  # the bet not asked for: counted in side_bet_cells
    assert probs.side is None or bet not in probs.side
    labels, cells = side_bet_cells(p, bet, probs, np.arange(len(comps)))
    assert list(labels) == sorted(labels, key=Fraction, reverse=True)
    for row, comp in enumerate(comps):
        exact = bet_odds(p, Shoe(tuple(int(c) for c in comp)), [bet])[bet].payout_distribution()
        got = {Fraction(label): cells[row, k] for k, label in enumerate(labels) if cells[row, k]}
        assert set(got) == set(exact)
        for amount, prob in exact.items():
            assert got[amount] == pytest.approx(float(prob), rel=1e-12)


def test_a_side_bet_on_a_pair_of_kings_is_named_uncountable_not_raised() -> None:
    """A bet the shoe engines cannot count is skipped with the engine's reason."""
    import dataclasses

    from odds.rules.bet_types import Bet, Condition, Entry
    from odds.sim.expect import countable_side_bet

    kings = Bet("kings", "", "player", (Entry(Condition(player_pair="K"), Fraction(30)),))
    profile = dataclasses.replace(BUILTIN["standard"], bet_defs=(kings,))
    why = countable_side_bet(profile, "kings", values_only=False)
    assert why is not None and why.startswith("bet 'kings' names a pair of K")
    assert countable_side_bet(profile, "kings", values_only=True) == \
        "the cards are written by value only"
    assert countable_side_bet(BUILTIN["standard"], "player-pair", values_only=False) is None
