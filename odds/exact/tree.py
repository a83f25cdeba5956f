"""The probability tree of one round, as a ``networkx.DiGraph``.

The tree follows the deal: the root is the deal; its children are the
player's two-card states (value, with natural and Colon marks); below each,
the bank's two-card states; then the player's draw (the third card's point
value, or a stand) and so the player's final value; then the bank's draw and
final value; the leaves are the outcomes.  The bank's two cards come before
the player's draw because, under baccarat rules, a bank natural stops the
player from drawing.

Nodes aggregate by *state*, not by card sequence: one node per path of
values and marks, so the 8-pack tree has a few thousand nodes, not billions.
The counts are the engine's own (:func:`odds.exact.engine.initial_groups` and
:func:`odds.exact.engine.third_card_leaves`: ordered six-card sequences, integers),
so the leaves sum to exactly the engine's figures.  Each edge carries the
exact conditional probability of the child given the parent (a
``Fraction``), each node the exact probability of its path and the player
seat's win / push / loss probabilities and expected value given the node.

This module imports networkx; ``odds/__init__`` does not import it, so
``lucky9 odds`` starts without it.
"""

from __future__ import annotations

import enum
import gc
import math
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from odds.exact.engine import (
    ConditionError,
    prepare,
    third_card_leaves,
    two_card_groups,
)
from odds.rules.cards import Card
from odds.rules.profile import Profile
from odds.rules.settle import Outcome, Pay, category, pay_entry
from odds.rules.shoe import Shoe

if TYPE_CHECKING:
    import networkx as nx  # type: ignore[import-untyped, unused-ignore]

__all__ = ["Node", "Stage", "leaf_counts", "probability_tree", "subtree"]

_COLON_MARK = {0: "", 1: "c", 2: "c9"}
_COLON_WORDS = {0: "", 1: "Colon", 2: "Colon nine"}


class Stage(enum.IntEnum):
    """The levels of the tree; a node's stage is its depth below the root."""

    DEAL = 0
    PLAYER_CARDS = 1
    BANK_CARDS = 2
    PLAYER_DRAW = 3
    BANK_DRAW = 4
    OUTCOME = 5

    @property
    def label(self) -> str:
        """The stage's name as written in exports: ``player_cards``, ..."""
        return self.name.lower()


# Plain ints for the hot paths: reading an enum member off its class is slow.
_DEAL, _PLAYER_CARDS, _BANK_CARDS, _PLAYER_DRAW, _BANK_DRAW, _OUTCOME = range(6)


@dataclass(frozen=True, slots=True)
class Node:
    """One state of the round: hashable, readable, a node of the tree.

    Fields a stage has not reached keep their defaults.  Colon classes are 0
    (none), 1 (Colon) and 2 (Colon nine); ``player_third`` and
    ``bank_third`` are point values of third cards, None where the hand
    stood.  ``outcome`` is the settlement category (``win_comparison``, ...).

    >>> n = Node(Stage.PLAYER_DRAW, player=5, bank=3, player_third=4)
    >>> n.key, n.player_final, n.parent().key
    ('P5/B3/p4', 9, 'P5/B3')
    >>> Node(Stage.BANK_DRAW, player=6, bank=0, bank_colon=1, bank_third=7)
    Node(Stage.BANK_DRAW, player=6, bank=0, bank_colon=1, player_third=None, bank_third=7)
    """

    stage: Stage
    player: int | None = None
    player_colon: int = 0
    player_natural: bool = False
    bank: int | None = None
    bank_colon: int = 0
    bank_natural: bool = False
    player_third: int | None = None
    bank_third: int | None = None
    outcome: str | None = None

    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # networkx hashes nodes often: hash once (plain ints hash faster than enums).
        object.__setattr__(self, "_hash", hash((
            int(self.stage), self.player, self.player_colon, self.bank,
            self.bank_colon, self.player_third, self.bank_third, self.outcome,
        )))

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        # Only the fields the state has set, so a node reads at a glance.
        # A third card of None is shown once its stage is reached: it means "stood".
        reached = {"player_third": self.stage >= _PLAYER_DRAW,
                   "bank_third": self.stage >= _BANK_DRAW}
        shown = [f"Stage.{self.stage.name}"]
        for name, default in _DEFAULTS:
            value = getattr(self, name)
            if value != default or reached.get(name, False):
                shown.append(f"{name}={value!r}")
        return f"Node({', '.join(shown)})"

    @property
    def player_final(self) -> int | None:
        """The player's final value, once the player's draw is known."""
        if self.stage < _PLAYER_DRAW or self.player is None:
            return None
        return self.player if self.player_third is None else (self.player + self.player_third) % 10

    @property
    def bank_final(self) -> int | None:
        """The bank's final value, once the bank's draw is known."""
        if self.stage < _BANK_DRAW or self.bank is None:
            return None
        return self.bank if self.bank_third is None else (self.bank + self.bank_third) % 10

    def parent(self) -> Node:
        """The node one stage up (the root is its own parent)."""
        if self.stage == Stage.DEAL:
            return self
        up = Stage(self.stage - 1)
        keep = {
            Stage.DEAL: (),
            Stage.PLAYER_CARDS: ("player", "player_colon", "player_natural"),
            Stage.BANK_CARDS: ("bank", "bank_colon", "bank_natural"),
            Stage.PLAYER_DRAW: ("player_third",),
            Stage.BANK_DRAW: ("bank_third",),
        }
        names = [name for s in Stage if s <= up for name in keep.get(s, ())]
        return Node(up, **{name: getattr(self, name) for name in names})

    @property
    def key(self) -> str:
        """A compact, unique id: ``P5/B4c/p4/b-/win_comparison``.

        ``P`` and ``B`` are the two-card values (``c`` a Colon, ``c9`` a
        Colon nine), ``p`` and ``b`` the third cards' values (``-`` stood).
        """
        if self.stage == _DEAL:
            return "deal"
        parts = [f"P{self.player}{_COLON_MARK[self.player_colon]}"]
        if self.stage >= _BANK_CARDS:
            parts.append(f"B{self.bank}{_COLON_MARK[self.bank_colon]}")
        if self.stage >= _PLAYER_DRAW:
            parts.append("p-" if self.player_third is None else f"p{self.player_third}")
        if self.stage >= _BANK_DRAW:
            parts.append("b-" if self.bank_third is None else f"b{self.bank_third}")
        if self.stage == _OUTCOME:
            parts.append(str(self.outcome))
        return "/".join(parts)

    @property
    def label(self) -> str:
        """This node's own step in words: ``player 8 natural, Colon``, ``bank draws 4 -> 9``."""
        if self.stage == _DEAL:
            return "deal"
        if self.stage == _PLAYER_CARDS:
            return _hand("player", self.player, self.player_natural, self.player_colon)
        if self.stage == _BANK_CARDS:
            return _hand("bank", self.bank, self.bank_natural, self.bank_colon)
        if self.stage == _PLAYER_DRAW:
            return _draw("player", self.player, self.player_third, self.player_final,
                         self.player_natural)
        if self.stage == _BANK_DRAW:
            return _draw("bank", self.bank, self.bank_third, self.bank_final, self.bank_natural)
        outcome, _, how = str(self.outcome).partition("_")
        return f"{outcome}, {how.replace('_', ' ')}"

    def __str__(self) -> str:
        return self.key

    def sort_key(self) -> tuple[int, ...]:
        """Order siblings by value, Colon class, then third card (stand first).

        >>> [n.key for n in sorted([Node(Stage.PLAYER_CARDS, 4, 1), Node(Stage.PLAYER_CARDS, 4)],
        ...                        key=Node.sort_key)]
        ['P4', 'P4c']
        """
        return tuple(
            -1 if v is None else int(v)
            for v in (self.stage, self.player, self.player_colon, self.bank, self.bank_colon,
                      self.player_third, self.bank_third)
        ) + (_OUTCOME_ORDER.get(str(self.outcome).partition("_")[0], 3),)


_OUTCOME_ORDER = {"win": 0, "push": 1, "loss": 2}
_DEFAULTS = (
    ("player", None), ("player_colon", 0), ("player_natural", False),
    ("bank", None), ("bank_colon", 0), ("bank_natural", False),
    ("player_third", None), ("bank_third", None), ("outcome", None),
)
_ONE, _ZERO = Fraction(1), Fraction(0)


def _hand(who: str, value: int | None, natural: bool, colon: int) -> str:
    marks = [m for m in ("natural" if natural else "", _COLON_WORDS[colon]) if m]
    return f"{who} {value}" + (f" {', '.join(marks)}" if marks else "")


def _draw(
    who: str, value: int | None, third: int | None, final: int | None, natural: bool
) -> str:
    if third is None:
        return f"{who} stays on {value}" + (" (natural)" if natural else "")
    return f"{who} draws {third} -> {final}"


LeafKey = tuple[int, int, int, int, int | None, int | None]


def leaf_counts(
    profile: Profile,
    shoe: Shoe | None = None,
    *,
    player: Iterable[str | Card] | str = (),
    bank: Iterable[str | Card] | str = (),
    removed: Iterable[str | Card] | str = (),
    player_total: int | None = None,
    bank_total: int | None = None,
) -> dict[LeafKey, int]:
    """Counts of six-card sequences by (pv, pcol, bv, bcol, player third, bank third).

    The engine's own enumeration pieces, summed per state; ``third`` values
    are point values or None (stood).  Same conditions as
    :func:`odds.exact.engine.round_odds`.

    >>> from odds.rules.profiles import BUILTIN
    >>> counts = leaf_counts(BUILTIN["standard"], Shoe.packs_of(1))
    >>> sum(counts.values()) == 52 * 51 * 50 * 49 * 48 * 47
    True
    """
    return _leaf_counts(profile, shoe, player, bank, removed, player_total, bank_total)[0]


def _leaf_counts(
    profile: Profile,
    shoe: Shoe | None,
    player: Iterable[str | Card] | str,
    bank: Iterable[str | Card] | str,
    removed: Iterable[str | Card] | str,
    player_total: int | None,
    bank_total: int | None,
) -> tuple[dict[LeafKey, int], str]:
    """The leaf counts and the conditions in words."""
    if shoe is None:
        shoe = Shoe.packs_of(profile.decks)
    deal, p_cards, b_cards, r_cards = prepare(profile, shoe, player, bank, removed)
    memo: dict[tuple[int, int, tuple[int, ...]], list[tuple[int | None, int | None, int]]] = {}
    counts: dict[LeafKey, int] = defaultdict(int)
    for pv, bv, pcol, bcol, vc, weight in two_card_groups(profile, deal, player_total, bank_total):
        key = (pv, bv, vc)
        leaves = memo.get(key)
        if leaves is None:
            leaves = memo[key] = third_card_leaves(profile, pv, bv, vc, deal)
        for x, y, count in leaves:
            counts[pv, pcol, bv, bcol, x, y] += weight * count
    given = [f"player {' '.join(map(str, p_cards))}" if p_cards else "",
             f"bank {' '.join(map(str, b_cards))}" if b_cards else "",
             f"player two-card value {player_total}" if player_total is not None else "",
             f"bank two-card value {bank_total}" if bank_total is not None else ""]
    if not any(counts.values()):
        raise ConditionError(
            f"no deal under profile {profile.key!r} from this shoe is "
            f"consistent with {'; '.join(g for g in given if g) or 'the conditions'} "
            "(a known third card needs a hand that draws; a total needs cards left to make it)"
        )
    if r_cards:
        given.append(f"removed {' '.join(map(str, r_cards))}")
    return {k: c for k, c in counts.items() if c}, "; ".join(g for g in given if g) or "none"


def probability_tree(
    profile: Profile,
    shoe: Shoe | None = None,
    *,
    player: Iterable[str | Card] | str = (),
    bank: Iterable[str | Card] | str = (),
    removed: Iterable[str | Card] | str = (),
    player_total: int | None = None,
    bank_total: int | None = None,
    depth: int | None = None,
) -> nx.DiGraph:
    """The exact probability tree of one round, down to ``depth`` (None: all 5 levels).

    Node attributes: ``stage`` (a :class:`Stage` name), ``label``,
    ``count`` (six-card sequences), ``probability`` (of the path, a
    ``Fraction``), and the seat's ``win``, ``push``, ``loss`` and
    ``expected_value`` given the node; leaves add ``outcome``, ``category``,
    ``pay`` and ``payout``.  Edge attribute: ``probability`` of the child
    given the parent.  Graph attributes: ``profile``, ``rules``, ``shoe``,
    ``conditions``, ``total``, ``depth``.  Conditions are those of
    :func:`odds.exact.engine.round_odds`.

    >>> from odds.rules.profiles import BUILTIN
    >>> tree = probability_tree(BUILTIN["standard"], Shoe.packs_of(8), depth=1)
    >>> root = Node(Stage.DEAL)
    >>> sum(tree.edges[root, child]["probability"] for child in tree[root])
    Fraction(1, 1)
    >>> nine = Node(Stage.PLAYER_CARDS, player=9, player_natural=True)
    >>> tree.nodes[nine]["label"], tree.nodes[nine]["loss"]
    ('player 9 natural', Fraction(0, 1))
    """
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
        raise ValueError(
            f"a tree depth is a whole number, 0 or more (0: the root only; 5 reaches the "
            f"outcomes), not {depth!r}"
        )
    if shoe is None:
        shoe = Shoe.packs_of(profile.decks)
    # The build makes tens of thousands of small containers and no cycles:
    # the cyclic collector would rescan them again and again (measured: it
    # doubles the 8-pack build time), so it is paused for the build.
    paused = gc.isenabled()
    gc.disable()
    try:
        return _build(profile, shoe, player, bank, removed, player_total, bank_total, depth)
    finally:
        if paused:
            gc.enable()


def _build(
    profile: Profile,
    shoe: Shoe,
    player: Iterable[str | Card] | str,
    bank: Iterable[str | Card] | str,
    removed: Iterable[str | Card] | str,
    player_total: int | None,
    bank_total: int | None,
    depth: int | None,
) -> nx.DiGraph:
    import networkx as nx  # type: ignore[import-untyped, unused-ignore]

    from odds.rules.text import rules_line

    counts, conditions = _leaf_counts(
        profile, shoe, player, bank, removed, player_total, bank_total
    )
    limit = Stage.OUTCOME if depth is None else Stage(min(depth, Stage.OUTCOME))
    settle: dict[tuple[int, int, int, int], tuple[Outcome, str]] = {}
    pays: dict[tuple[Outcome, int, int], Pay] = {}
    leaves = []
    for (pv, pcol, bv, bcol, x, y), count in counts.items():
        pf = pv if x is None else (pv + x) % 10
        bf = bv if y is None else (bv + y) % 10
        got = settle.get((pv, bv, pf, bf))
        if got is None:
            got = settle[pv, bv, pf, bf] = category(profile, pv, bv, pf, bf)
        pay = pays.get((got[0], pcol, bcol))
        if pay is None:
            pay = pays[got[0], pcol, bcol] = pay_entry(profile, got[0], pcol, bcol)
        leaves.append((pv, pcol, bv, bcol, x, y, count, got, pay))
    # Money in whole units of 1/scale, so that every node sums integers.
    amounts = {pay: pay.amount(profile) for pay in set(pays.values())}
    scale = math.lcm(*(a.denominator for a in amounts.values()))
    units = {pay: int(a * scale) for pay, a in amounts.items()}
    # Rows per state, keyed by value tuples (cheap to hash), summed level by
    # level from the leaves up: count, win, push, loss, money * scale.
    outcomes = list(Outcome)
    levels: list[dict[tuple[Any, ...], list[int]]] = [{} for _ in range(6)]
    bottom = levels[5]
    for pv, pcol, bv, bcol, x, y, count, (outcome, how), pay in leaves:
        row = [count, 0, 0, 0, count * units[pay]]
        row[1 + outcomes.index(outcome)] = count
        bottom[pv, pcol, bv, bcol, x, y, f"{outcome.value}_{how}"] = row
    cut = (0, 2, 4, 5, 6, 7)  # key length at each stage
    for stage in range(4, -1, -1):
        above = levels[stage]
        for key, row in levels[stage + 1].items():
            up = key[: cut[stage]]
            sums = above.get(up)
            if sums is None:
                above[up] = row.copy()
            else:
                sums[0] += row[0]
                sums[1] += row[1]
                sums[2] += row[2]
                sums[3] += row[3]
                sums[4] += row[4]
    total = levels[0][()][0]
    tree = nx.DiGraph(
        profile=profile.key,
        rules=rules_line(profile),
        shoe=shoe.label,
        conditions=conditions,
        total=total,
        depth=int(limit),
    )
    naturals = profile.naturals
    names = [s.label for s in Stage]
    made: list[dict[tuple[Any, ...], Node]] = [{} for _ in range(6)]

    # Nodes and edges are handed to networkx as they are made: a list of them
    # all held every attribute dict twice (a full 8-pack tree holds 32 MB;
    # its build peaked at 53 MB).
    def node_items() -> Iterator[tuple[Node, dict[str, Any]]]:
        for stage in range(limit + 1):
            as_stage = Stage(stage)
            for key, (n, win, push, loss, money) in levels[stage].items():
                node = _node(as_stage, key, naturals)
                made[stage][key] = node
                attrs: dict[str, Any] = {
                    "stage": names[stage],
                    "label": node.label,
                    "count": n,
                    "probability": Fraction(n, total),
                }
                if stage == _OUTCOME:
                    # A leaf's outcome is certain: no division needed.
                    outcome = outcomes[[win, push, loss].index(n)]
                    pay = pays[outcome, key[1], key[3]]
                    attrs.update(
                        (o.value, _ONE if o is outcome else _ZERO) for o in outcomes
                    )
                    attrs["expected_value"] = amounts[pay]
                    attrs["outcome"] = outcome.value
                    attrs["category"] = node.outcome
                    attrs["pay"] = pay.value
                    attrs["payout"] = amounts[pay]
                else:
                    attrs["win"] = Fraction(win, n)
                    attrs["push"] = Fraction(push, n)
                    attrs["loss"] = Fraction(loss, n)
                    attrs["expected_value"] = Fraction(money, n * scale)
                yield node, attrs

    def edge_items() -> Iterator[tuple[Node, Node, dict[str, Any]]]:
        for stage in range(1, limit + 1):
            for key, row in levels[stage].items():
                up = key[: cut[stage - 1]]
                yield (made[stage - 1][up], made[stage][key],
                       {"probability": Fraction(row[0], levels[stage - 1][up][0])})

    tree.add_nodes_from(node_items())
    tree.add_edges_from(edge_items())
    return tree


def _node(stage: Stage, key: tuple[Any, ...], naturals: frozenset[int]) -> Node:
    """The node of a state key (pv, pcol, bv, bcol, x, y, category), cut to ``stage``."""
    if stage == _DEAL:
        return Node(stage)
    pv, pcol = key[0], key[1]
    if stage == _PLAYER_CARDS:
        return Node(stage, pv, pcol, pv in naturals)
    bv, bcol = key[2], key[3]
    rest = key[4:] + (None,) * (7 - len(key))
    return Node(stage, pv, pcol, pv in naturals, bv, bcol, bv in naturals, *rest)


def subtree(tree: nx.DiGraph, start: Node | str, depth: int | None = None) -> nx.DiGraph:
    """The part of ``tree`` from ``start`` (a node or its key) down ``depth`` levels.

    >>> from odds.rules.profiles import BUILTIN
    >>> tree = probability_tree(BUILTIN["plain"], Shoe.packs_of(1), depth=3)
    >>> part = subtree(tree, "P5/B3", 1)
    >>> sorted(n.key for n in part)[:3]
    ['P5/B3', 'P5/B3/p0', 'P5/B3/p1']
    """
    import networkx as nx  # type: ignore[import-untyped, unused-ignore]

    if depth is not None and (isinstance(depth, bool) or depth < 0):
        raise ValueError(
            f"a tree depth is a whole number, 0 or more (0: the start only), not {depth!r}"
        )
    if isinstance(start, str):
        found = [n for n in tree if n.key == start]
        if not found:
            raise ValueError(
                f"{start!r} is not a node of this tree (keys look like P5, P4c/B3, "
                "P5/B3/p4, P5/B3/p-/b-: see 'lucky9 tree --help')"
            )
        start = found[0]
    assert isinstance(start, Node)
    if start not in tree:
        raise ValueError(f"{start!r} is not a node of this tree")
    limit = start.stage + (Stage.OUTCOME if depth is None else depth)
    keep = [start] + [n for n in nx.descendants(tree, start) if n.stage <= limit]
    part: nx.DiGraph = tree.subgraph(keep).copy()
    return part
