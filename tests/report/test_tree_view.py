"""odds.report.tree_view: the levels of the tree a format shows, and only those built."""

from __future__ import annotations

import pytest

from odds.exact.tree import Stage, probability_tree, subtree
from odds.report.tree_view import tree_levels, tree_view
from odds.rules import BUILTIN, Shoe

OUTCOME = int(Stage.OUTCOME)


@pytest.mark.parametrize(("fmt", "depth", "start", "levels"), [
    ("text", None, None, (1, 1)), ("svg", None, "deal", (1, 1)), ("gexf", None, None, (5, 5)),
    ("json", None, "P5", (OUTCOME, OUTCOME)), ("text", 9, None, (9, OUTCOME)),
    ("text", 1, "P5/B3/p4", (1, 4))])
def test_levels(fmt: str, depth: int | None, start: str | None, levels: tuple[int, int]) -> None:
    assert tree_levels(fmt, depth, start) == levels


def test_a_negative_depth_is_refused() -> None:
    with pytest.raises(ValueError, match="0 or more, not -1"):
        tree_levels("text", -1)


def test_the_view_is_the_subtree_of_the_tree_built() -> None:
    profile, shoe = BUILTIN["plain"], Shoe.packs_of(1)
    view = tree_view(profile, shoe, "text", 1, "P5", player_total=5)
    expected = subtree(probability_tree(profile, shoe, player_total=5, depth=2), "P5", 1)
    assert sorted(map(str, view.nodes)) == sorted(map(str, expected.nodes))
