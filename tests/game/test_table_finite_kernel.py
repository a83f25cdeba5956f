"""The finite table game settles naturals with odds.rules.settle, under either naturals rule."""

from __future__ import annotations

import pytest

from odds import BUILTIN, parse_shoe
from odds.game.game import build_game
from odds.game.table_finite import finite_table

SMALL = "2 1 1 1 1 1 1 1 1 2 1 1 1"


@pytest.mark.parametrize("options", [
    {}, {"naturals": "compare"}, {"naturals": "compare", "natural_values": "8"},
    {"natural_values": "8"},
], ids=["outright-9", "compare-9", "compare-8", "outright-8"])
def test_one_seat_table_settles_naturals_as_the_heads_up_game(options: dict[str, str]) -> None:
    profile = BUILTIN["family"].with_options(**options)
    shoe = parse_shoe(SMALL)
    game = build_game(profile, shoe, "totals")
    table = finite_table(profile, shoe, 1, "totals")
    assert table.total == game.total
    assert table.settled == game.settled
