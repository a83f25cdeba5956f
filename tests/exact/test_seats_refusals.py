"""Kernels refuse the rules they do not implement, with a sentence naming what.

The two-seat counts (odds.exact.seats) deal each hand by its own two cards;
under a banker tableau or naturals that stop every draw a hand's draw looks
at the other hand, and before this refusal punto banco's seat mean came out
0.0 (its heads-up EV is about -0.01286): wrong, and silent.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from odds.exact.deal import round_lengths
from odds.exact.engine import round_odds
from odds.exact.rounds import split_rounds
from odds.exact.seats import pair_counts
from odds.rules.cards import parse_cards
from odds.rules.draw import hand_draws, who_draws
from odds.rules.errors import ProfileError
from odds.rules.profiles import BUILTIN
from odds.rules.shoe import Shoe

TINY = Shoe((1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0))  # ten cards: a round of two seats fits
STOPPING = BUILTIN["standard"].with_options(naturals_stop_draws=True)


def test_punto_banco_seats_refuse_the_tableau() -> None:
    pb = BUILTIN["punto-banco"]
    # The figure the silent answer missed: the heads-up seat does lose.
    assert round(float(round_odds(pb, Shoe.packs_of(1)).expected_value), 5) == -0.01286
    with pytest.raises(ProfileError, match=r"'punto-banco': the bank's draw looks at the player's "
                                           r"third card \(a tableau\), which the rules define for one"):
        pair_counts(pb, Shoe.packs_of(1))


@pytest.mark.parametrize("key", ["punto-banco", "ez-baccarat"])
def test_every_tableau_is_refused(key: str) -> None:
    with pytest.raises(ValueError, match="tableau"):
        pair_counts(BUILTIN[key], TINY)


def test_naturals_that_stop_every_draw_are_refused() -> None:
    with pytest.raises(ProfileError, match="a natural stops every draw"):
        pair_counts(STOPPING, TINY)


@pytest.mark.parametrize("key", ["family", "chemin-de-fer"])
def test_rules_where_players_choose_are_refused(key: str) -> None:
    with pytest.raises(ProfileError, match=f"'{key}' has no fixed draw rule"):
        pair_counts(BUILTIN[key], TINY)


def test_the_refusal_comes_before_the_shoe_checks() -> None:
    with pytest.raises(ProfileError, match="tableau"):
        pair_counts(BUILTIN["punto-banco"], Shoe.infinite_shoe())


@pytest.mark.parametrize("key", ["standard", "plain", "forced-draw", "super9"])
def test_hand_draws_agree_with_the_rule(key: str) -> None:
    profile = BUILTIN[key]
    player, bank = hand_draws(profile)
    for own in range(10):
        for other in range(10):
            assert who_draws(profile, own, other)[0] == player[own]
            for third in (None, *range(10)):
                assert who_draws(profile, other, own, third)[1] == bank[own]


def test_the_rules_the_seats_take_still_count() -> None:
    pairs = pair_counts(BUILTIN["standard"], TINY)
    assert sum(pairs.counts.values()) == pairs.total == 3628800
    mean, _, _ = pairs.moments()
    assert isinstance(mean, Fraction)


# -- a dealt shoe split into rounds: chemin de fer's players choose ------------------------

def test_splitting_a_record_refuses_open_cells() -> None:
    cards = parse_cards("9 2 9 6 10 5 K K 3 4")
    with pytest.raises(ProfileError, match="'chemin-de-fer' has no fixed draw rule .* cannot be "
                                           "split into rounds"):
        split_rounds(BUILTIN["chemin-de-fer"], cards)
    with pytest.raises(ProfileError, match="cannot be split into rounds"):
        round_lengths(BUILTIN["family"], [c.rank.index for c in cards])


def test_splitting_follows_the_tableau_and_stopping_naturals() -> None:
    """Not refused: the replay looks at the player's third card and at naturals."""
    pb = BUILTIN["punto-banco"]
    # P 2 3 (5) draws 8 -> 3; B 10 3 (3) stands on a player's third card of 8.
    assert round_lengths(pb, [1, 9, 2, 2, 7]) == [5]
    assert round_lengths(BUILTIN["standard"], [1, 9, 2, 2, 7, 0]) == [6]
    # P 2 3 (5) draws 4 -> 9; B 10 3 (3) draws on a player's third card of 4.
    assert round_lengths(pb, [1, 9, 2, 2, 3, 0]) == [6]
    # The bank's natural 9 stops the player's draw on 0.
    assert round_lengths(STOPPING, [9, 8, 9, 9]) == [4]
    assert round_lengths(BUILTIN["standard"], [9, 8, 9, 9, 0]) == [5]


# -- the batch engine's tables need fixed rules: chemin de fer's open cells too -------------

@pytest.mark.parametrize("key", ["family", "chemin-de-fer"])
def test_batch_tables_refuse_choices(key: str) -> None:
    from odds.exact.batch import rules_table
    from odds.exact.bet_table import bet_table
    from odds.exact.marginals import margin_table

    profile = BUILTIN[key]
    for build in (rules_table, margin_table, lambda p: bet_table(p, [])):
        with pytest.raises(ProfileError, match="no fixed draw rule"):
            build(profile)
