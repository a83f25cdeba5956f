"""The draw rule, decided once (odds.rules.draw), against the rules as written."""

from __future__ import annotations

import numpy as np
import pytest

from odds.rules.draw import STOOD, draw_table, fixed_rules, hand_draws, who_draws, who_may_choose
from odds.rules.errors import ProfileError
from odds.rules.profiles import BUILTIN

# Punto banco's tableau, as casinos print it: the banker's two-card total and
# the player's third cards on which the banker draws (the player stood: 0-5).
TABLEAU = {0: range(10), 1: range(10), 2: range(10), 3: [0, 1, 2, 3, 4, 5, 6, 7, 9],
           4: [2, 3, 4, 5, 6, 7], 5: [4, 5, 6, 7], 6: [6, 7], 7: [], 8: [], 9: []}


def test_punto_banco_tableau_cell_by_cell() -> None:
    pb = BUILTIN["punto-banco"]
    for pv in range(10):
        for bv in range(10):
            natural = pv in (8, 9) or bv in (8, 9)
            player, _ = who_draws(pb, pv, bv)
            assert player == (not natural and pv <= 5)
            for third in range(10):
                _, bank = who_draws(pb, pv, bv, third)
                assert bank == (not natural and third in TABLEAU[bv]), (pv, bv, third)
            _, bank_stood = who_draws(pb, pv, bv, None)
            assert bank_stood == (not natural and bv <= 5)


def test_standard_lucky9_draws_on_0_to_5_and_naturals_stand() -> None:
    # RULES.md: both sides draw on 0-5; a natural (8 or 9) never draws, and the
    # other hand still plays its rule.
    std = BUILTIN["standard"]
    for pv in range(10):
        for bv in range(10):
            for third in [None, *range(10)]:
                player, bank = who_draws(std, pv, bv, third)
                assert player == (pv <= 5)
                assert bank == (bv <= 5)


def test_table_and_arrays_agree_with_who_draws() -> None:
    pb = BUILTIN["punto-banco"]
    table = draw_table(pb)
    player, bank = np.array(table.player), np.array(table.bank)
    assert player.shape == (10, 10) and bank.shape == (10, 10, 11)
    for pv in range(10):
        for bv in range(10):
            for x in range(11):
                third = None if x == STOOD else x
                assert (bool(player[pv, bv]), bool(bank[pv, bv, x])) == who_draws(pb, pv, bv, third)


def test_a_profile_where_players_choose_is_refused() -> None:
    with pytest.raises(ProfileError, match="no fixed draw rule"):
        fixed_rules(BUILTIN["family"])
    with pytest.raises(ProfileError, match="no fixed draw rule"):
        who_draws(BUILTIN["family"], 3, 4)


@pytest.mark.parametrize("side", ["player_draw", "bank_draw"])
def test_a_profile_where_one_side_chooses_is_refused(side: str) -> None:
    """One rule fixed and the other chosen: a ProfileError, never a rule of None (an
    AttributeError where the table reads it)."""
    one_side = BUILTIN["standard"].with_options(**{side: "choice"})
    for job in (fixed_rules, draw_table, hand_draws):
        with pytest.raises(ProfileError, match="no fixed draw rule"):
            job(one_side)


def test_free_cells_of_chemin_de_fer_and_family() -> None:
    assert who_may_choose(BUILTIN["chemin-de-fer"], 5, 3) == (True, False)
    assert who_may_choose(BUILTIN["chemin-de-fer"], 4, 3) == (False, False)
    # The family rules: anyone may choose but a natural.
    assert who_may_choose(BUILTIN["family"], 3, 4, 2) == (True, True)
    # A natural 9 settles first: nobody draws against it either.
    assert who_may_choose(BUILTIN["family"], 9, 4, None) == (False, False)


def test_a_draw_table_has_a_row_per_two_card_value_and_a_cell_per_third_card_or_none() -> None:
    # Docs and the vectorised engines read it as arrays of shape (10, 10) and (10, 10, 11):
    # two-card values 0-9 on each side, the player's third card 0-9 or STOOD (10).
    for profile in BUILTIN.values():
        if not profile.fixed:
            continue
        table = draw_table(profile)
        assert len(table.player) == len(table.bank) == 10, profile.key
        assert all(len(row) == 10 for row in table.player), profile.key
        assert all(len(row) == 10 and all(len(cell) == STOOD + 1 == 11 for cell in row)
                   for row in table.bank), profile.key
