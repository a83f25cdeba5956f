"""The engine's kernels (draw stage, shoe splitting) refuse rules they do not implement."""

from __future__ import annotations

import pytest

from odds.exact.engine import Deal, third_card_leaves
from odds.exact.rounds import read_cards
from odds.exact.shoe_follow import table_rounds
from odds.rules.profiles import BUILTIN, ProfileError
from odds.rules.shoe import Shoe


def test_the_draw_stage_refuses_a_profile_where_players_choose() -> None:
    deal = Deal((4,) * 13, False, (), ())
    with pytest.raises(ProfileError, match="no fixed draw rule"):
        third_card_leaves(BUILTIN["family"], 3, 4, (16, 4, 4, 4, 4, 4, 4, 4, 4, 4), deal)


@pytest.mark.parametrize("key", ["family", "chemin-de-fer"])
def test_splitting_a_table_record_refuses_rules_where_a_side_chooses(key: str) -> None:
    # Chemin de fer's open cells: the cards alone do not say what the side chose.
    with pytest.raises(ValueError, match="no fixed draw rule"):
        table_rounds(BUILTIN[key], Shoe.packs_of(1), read_cards("9 5 2 K K 6 3"), 1)


def test_splitting_a_table_record_refuses_a_tableau_past_one_seat() -> None:
    with pytest.raises(ValueError, match="follow 1 seat"):
        table_rounds(BUILTIN["punto-banco"], Shoe.packs_of(1), read_cards("9 5 2 K K 6 3"), 2)


def test_one_seat_record_follows_the_bank_tableau() -> None:
    # Dealt P B P B: player 2 3 (5) draws an 8; bank 3 K (3) stands on a
    # player's third 8 under the tableau (read as if the player stood, it
    # would draw): the round is five cards.
    (r,) = table_rounds(BUILTIN["punto-banco"], Shoe.packs_of(1), read_cards("2 3 3 K 8"), 1)
    assert [c.rank.value for c in r.seats[0]] == ["2", "3", "8"]
    assert [c.rank.value for c in r.bank] == ["3", "K"]
