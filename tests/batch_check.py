"""The batch engine's answer for one composition against the engine's, every field and every bet."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from odds.exact.batch import (
    BatchCounts,
)
from odds.exact.engine import round_odds
from odds.rules.shoe import Shoe


def assert_same(batch: BatchCounts, i: int, shoe: Shoe, figures: Figures | None = None) -> None:
    """Composition ``i`` of the batch against the engine, every field and every bet."""
    evs, numerators, probs = figures or batch_figures(batch)
    profile = batch.profile
    want = round_odds(profile, shoe)
    got = batch.round_odds(i, shoe)
    assert got.profile == want.profile and got.shoe == want.shoe
    assert (got.player, got.bank, got.removed) == (want.player, want.bank, want.removed)
    assert (got.player_total, got.bank_total) == (want.player_total, want.bank_total)
    assert got.total == want.total == batch.totals[i]
    assert dict(got.outcome_counts) == {k: v for k, v in want.outcome_counts.items() if v}
    assert got.player_final_counts == want.player_final_counts
    assert got.bank_final_counts == want.bank_final_counts
    assert got.player_draw_count == want.player_draw_count
    assert got.bank_draw_count == want.bank_draw_count
    assert batch.bets == want.bets
    for bet in want.bets:
        ev = want.bet_moments(bet)[0]
        assert evs[bet][i] == ev
        num, den = numerators[bet]
        assert Fraction(int(num[i]), den * batch.totals[i]) == ev
    assert probs["win"][i] == want.win
    assert probs["push"][i] == want.push
    assert probs["loss"][i] == want.loss
    assert probs["colon"][i] == want.player_colon
    assert probs["colon_nine"][i] == want.player_colon_nine


Figures = tuple[dict[str, list[Fraction]], dict[str, tuple[np.ndarray, int]],
                dict[str, list[Fraction]]]


def batch_figures(batch: BatchCounts) -> Figures:
    return ({bet: batch.expected_values(bet) for bet in batch.bets},
            {bet: batch.ev_numerators(bet) for bet in batch.bets},
            batch.probabilities())
