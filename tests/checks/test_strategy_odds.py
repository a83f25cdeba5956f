"""odds.checks: a log of a game with choices, against the strategies played."""

from __future__ import annotations

import pytest

from odds.checks import strategy_odds, verify_played
from odds.game.game import build_game
from odds.game.strategy import resolve_pair
from odds.rules import BUILTIN, Shoe
from odds.sim.verify import verify_file


def test_a_side_not_named_plays_optimal() -> None:
    profile, shoe = BUILTIN["family"], Shoe.infinite_shoe()
    odds_of = strategy_odds("draw-below:5", None)
    assert odds_of is not None
    got = odds_of(profile, shoe)
    game = build_game(profile, shoe, "cards")
    r = game.evaluate(*resolve_pair(game, "draw-below:5", "optimal"))
    assert got.label == "player draw-below:5, bank optimal"
    assert (got.win, got.push, got.loss) == (r.win, r.push, r.loss)
    assert (got.player_draws, got.bank_draws, got.expected_value) == (
        r.player_draws, r.bank_draws, r.expected_value)


def test_no_strategy_is_the_plain_verifier() -> None:
    assert strategy_odds(None, "") is None
    with pytest.raises(ValueError) as plain:
        verify_file("no-such-file.csv")
    with pytest.raises(ValueError) as played:
        verify_played("no-such-file.csv")
    assert str(played.value) == str(plain.value)
