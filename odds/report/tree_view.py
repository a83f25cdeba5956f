"""The part of a round's probability tree a report shows: from a node, so many levels.

``lucky9 tree`` shows one level below the start in the formats people read
(text, dot, svg) and the whole round in the formats programs read (JSON,
GraphML, GEXF); only the levels shown are built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from odds.exact.tree import Stage, probability_tree, subtree
from odds.rules.profile import Profile
from odds.rules.shoe import Shoe

if TYPE_CHECKING:
    import networkx as nx  # type: ignore[import-untyped, unused-ignore]

__all__ = ["READ_BY_PEOPLE", "tree_levels", "tree_view"]

READ_BY_PEOPLE = ("text", "dot", "svg")  # formats shown one level deep unless --depth


def tree_levels(fmt: str, depth: int | None = None, start: str | None = None) -> tuple[int, int]:
    """The levels shown below ``start`` (a node's key; None: the deal) and the levels
    built from the deal to show them.

    >>> tree_levels("text"), tree_levels("json"), tree_levels("text", 2, "P5/B3")
    ((1, 1), (5, 5), (2, 4))
    """
    if depth is not None and depth < 0:
        raise ValueError(f"--depth is a whole number, 0 or more, not {depth}")
    if depth is None:
        depth = 1 if fmt in READ_BY_PEOPLE else int(Stage.OUTCOME)
    start_stage = 0 if start is None else (0 if start == "deal" else start.count("/") + 1)
    return depth, min(start_stage + depth, int(Stage.OUTCOME))


def tree_view(profile: Profile, shoe: Shoe, fmt: str, depth: int | None = None,
              start: str | None = None, **known: Any) -> nx.DiGraph:
    """The tree a report in ``fmt`` shows: from ``start`` down ``depth`` levels
    (:func:`tree_levels`), given the ``known`` cards or totals of
    :func:`odds.exact.tree.probability_tree`.

    >>> from odds.rules.profiles import BUILTIN
    >>> tree_view(BUILTIN["plain"], Shoe.packs_of(1), "text").number_of_nodes()
    17
    """
    shown, built = tree_levels(fmt, depth, start)
    full = probability_tree(profile, shoe, depth=built, **known)
    return full if start is None else subtree(full, start, shown)
