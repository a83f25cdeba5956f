"""Exporting a probability tree: text, node-link JSON, GraphML, GEXF, DOT, SVG.

Exporters take a tree built by :func:`odds.exact.tree.probability_tree`, never the
engine.  GraphML, GEXF and JSON hold no fractions, so every exact value is
written as a fraction string (``"31/415"``) with a float beside it
(``probability_float``); counts too large for a 64-bit integer are strings.
Node ids are the nodes' keys (``P5/B4c/p4``).  DOT is written by this module
(no Graphviz needed); SVG needs Graphviz's ``dot`` program.  Files are
written atomically: to a temporary file in the same folder, then renamed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import textwrap
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from odds.exact.tree import Node, Stage
from odds.rules.atomic import AtomicFile
from odds.rules.text import decimal, fraction

if TYPE_CHECKING:
    import networkx as nx  # type: ignore[import-untyped, unused-ignore]

__all__ = [
    "FORMATS",
    "GraphvizMissing",
    "portable",
    "read_tree",
    "tree_dot",
    "tree_json",
    "tree_svg",
    "tree_text",
    "write_atomic",
    "write_tree",
]

FORMATS = ("text", "json", "graphml", "gexf", "dot", "svg")
_INT64 = 2**63


class GraphvizMissing(RuntimeError):
    """Graphviz's ``dot`` program, needed to draw SVG, is not installed."""


def _value(value: Any) -> Any:
    if isinstance(value, Fraction):
        return fraction(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int) and not -_INT64 <= value < _INT64:
        return str(value)
    return value


def _attrs(data: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in data.items():
        if value is None:
            continue
        out[name] = _value(value)
        if isinstance(value, Fraction):
            out[f"{name}_float"] = float(value)
    return out


def portable(tree: nx.DiGraph) -> nx.DiGraph:
    """A copy with string node ids (the keys) and no ``Fraction`` or huge int.

    Node states are kept as plain attributes (``player``, ``bank_third``, ...;
    a missing one means None), so a reader can rebuild each :class:`Node`.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.rules.shoe import Shoe
    >>> from odds.exact.tree import probability_tree
    >>> flat = portable(probability_tree(BUILTIN["standard"], Shoe.packs_of(8), depth=1))
    >>> flat.nodes["P8c9"]["probability"], flat.edges["deal", "P8c9"]["probability_float"]
    ('31/5395', 0.005746061167747915)
    """
    import networkx as nx  # type: ignore[import-untyped, unused-ignore]

    out = nx.DiGraph()
    out.graph.update(_attrs(tree.graph))
    for node, data in tree.nodes(data=True):
        state = {
            "player": node.player, "player_colon": node.player_colon,
            "player_natural": node.player_natural,
            "bank": node.bank, "bank_colon": node.bank_colon,
            "bank_natural": node.bank_natural,
            "player_third": node.player_third, "bank_third": node.bank_third,
        }
        if node.stage < Stage.BANK_CARDS:
            state = {k: v for k, v in state.items() if k.startswith("player")
                     and "third" not in k} if node.stage else {}
        elif node.stage < Stage.PLAYER_DRAW:
            state = {k: v for k, v in state.items() if "third" not in k}
        elif node.stage < Stage.BANK_DRAW:
            state.pop("bank_third")
        out.add_node(node.key, **_attrs({**data, **state}))
    for u, v, data in tree.edges(data=True):
        out.add_edge(u.key, v.key, **_attrs(data))
    return out


def tree_json(tree: nx.DiGraph) -> str:
    """Node-link JSON (``nodes`` and ``edges`` lists), fractions as strings.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.exact.tree import probability_tree
    >>> data = json.loads(tree_json(probability_tree(BUILTIN["plain"], depth=0)))
    >>> data["nodes"][0]["id"], data["nodes"][0]["probability"], data["edges"]
    ('deal', '1', [])
    """
    flat = portable(tree)
    data = {
        "directed": True,
        "multigraph": False,
        "graph": dict(flat.graph),
        "nodes": [{"id": n, **d} for n, d in flat.nodes(data=True)],
        "edges": [{"source": u, "target": v, **d} for u, v, d in flat.edges(data=True)],
    }
    return json.dumps(data, indent=1) + "\n"


def read_tree(path: str | Path, fmt: str | None = None) -> nx.DiGraph:
    """Load an exported tree (json, graphml or gexf) back into networkx.

    Nodes are the string keys; attributes are as written (fraction strings).
    ``fmt`` defaults to the file's suffix.

    >>> import tempfile
    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.exact.tree import probability_tree
    >>> path = Path(tempfile.mkdtemp()) / "tree.graphml"
    >>> write_tree(probability_tree(BUILTIN["plain"], depth=1), path, "graphml")
    >>> read_tree(path).nodes["P9"]["probability"]
    '64/663'
    """
    import networkx as nx  # type: ignore[import-untyped, unused-ignore]

    path = Path(path)
    fmt = fmt or path.suffix.lstrip(".").lower()
    if fmt == "json":
        data = json.loads(path.read_text(encoding="utf-8"))
        try:
            return nx.node_link_graph(data, directed=True, multigraph=False, edges="edges")
        except TypeError:  # networkx < 3.4 names the key "link"
            return nx.node_link_graph(data, directed=True, multigraph=False, link="edges")
    if fmt == "graphml":
        return nx.read_graphml(path)
    if fmt == "gexf":
        return nx.read_gexf(path)
    raise ValueError(f"cannot read a tree from {str(path)!r}: format {fmt!r} is not json, "
                     "graphml or gexf")


def _children(tree: nx.DiGraph, node: Node) -> list[Node]:
    return sorted(tree.successors(node), key=Node.sort_key)


def tree_text(tree: nx.DiGraph, digits: int = 4) -> list[str]:
    """An indented tree: each node's path probability and the seat's odds given it.

    The root is the node with no parent (the deal, or the start of a
    :func:`odds.exact.tree.subtree`).

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.exact.tree import probability_tree
    >>> print(tree_text(probability_tree(BUILTIN["plain"], depth=1))[-20])
    deal                            1.0000          0.4539  0.0922  0.4539  0.0000
    """
    roots = [n for n in tree if tree.in_degree(n) == 0]
    g = tree.graph
    lines = textwrap.wrap(
        f"profile {g.get('profile')}, shoe {g.get('shoe')}, given: {g.get('conditions')}", 79,
        subsequent_indent="  ")
    lines += textwrap.wrap(f"rules: {g.get('rules')}", 79, subsequent_indent="  ")
    lines.append(f"probability tree, {tree.number_of_nodes():,} nodes shown; "
                 f"decimals rounded to {digits} places")
    top = min(r.stage for r in roots)
    width = max(len("  " * (n.stage - top) + n.label) for n in tree)
    width = max([width] + [len(f"{r.key}: {r.label}") for r in roots if r.stage > 1])
    width = max(width, 20)
    cols = ("P(path)", "P(step)", "win", "tie", "loss", "EV")
    head = f"{'node':<{width}}" + "".join(f" {c:>{digits + 3}}" for c in cols)
    lines += ["", head]

    def walk(node: Node, indent: int, step: Fraction | None) -> Iterator[str]:
        data = tree.nodes[node]
        label = node.label
        if step is None and node.stage > Stage.PLAYER_CARDS:
            label = f"{node.key}: {label}"  # a subtree's start: say where it is
        cells = [data["probability"], step]
        cells += [data["win"], data["push"], data["loss"], data["expected_value"]]
        text = "".join(f" {'' if c is None else decimal(c, digits):>{digits + 3}}" for c in cells)
        yield f"{'  ' * indent + label:<{width}}{text}"
        for child in _children(tree, node):
            yield from walk(child, indent + 1, tree.edges[node, child]["probability"])

    for root in sorted(roots, key=Node.sort_key):
        lines += list(walk(root, 0, None))
    lines.append("")
    lines.append("P(path): probability of reaching the node; P(step): given its parent;")
    lines.append("win, tie, loss, EV: the player seat's odds and expected value given the node")
    return lines


def _dot_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


_COLORS = {"win": "#d9f2d9", "push": "#eeeeee", "loss": "#f7d9d9"}


def tree_dot(tree: nx.DiGraph, digits: int = 4) -> str:
    """Graphviz DOT text for the tree, written here (Graphviz is not needed).

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.rules.shoe import Shoe
    >>> from odds.exact.tree import probability_tree
    >>> text = tree_dot(probability_tree(BUILTIN["standard"], Shoe.packs_of(1), depth=1))
    >>> text.splitlines()[0], '"deal" -> "P8c9"' in text
    ('digraph lucky9 {', True)
    """
    g = tree.graph
    title = (f"Lucky 9 probability tree: profile {g.get('profile')}, shoe {g.get('shoe')}, "
             f"given: {g.get('conditions')}\nwin / push / loss and EV of the player seat "
             "given each node; edges: probability given the parent")
    lines = [
        "digraph lucky9 {",
        f"  graph [rankdir=LR, labelloc=t, fontname=Helvetica, label={_dot_quote(title)}];",
        "  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=Helvetica, "
        "fontsize=10];",
        "  edge [fontname=Helvetica, fontsize=9];",
    ]
    for node in sorted(tree, key=Node.sort_key):
        data = tree.nodes[node]
        name = node.label
        if node.stage > Stage.PLAYER_CARDS and not tree.in_degree(node):
            name = f"{node.key}: {name}"  # a subtree's start: say where it is
        label = f"{name}\nP = {decimal(data['probability'], digits)}"
        if "outcome" in data:
            color = _COLORS[data["outcome"]]
            label += f"\npays {fraction(data['payout'])}"
        else:
            color = "#fff7d6" if node.player_natural or node.bank_natural else "white"
            label += (f"\nwin {decimal(data['win'], digits)}  loss {decimal(data['loss'], digits)}"
                      f"\nEV {decimal(data['expected_value'], digits)}")
        lines.append(f"  {_dot_quote(node.key)} [label={_dot_quote(label)}, "
                     f"fillcolor={_dot_quote(color)}];")
    for u, v, data in tree.edges(data=True):
        lines.append(f"  {_dot_quote(u.key)} -> {_dot_quote(v.key)} "
                     f"[label={_dot_quote(decimal(data['probability'], digits))}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def tree_svg(tree: nx.DiGraph) -> bytes:
    """SVG drawn by Graphviz's ``dot`` from :func:`tree_dot`.

    Raises :class:`GraphvizMissing` when ``dot`` is not on the PATH.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.exact.tree import probability_tree
    >>> small = probability_tree(BUILTIN["plain"], depth=1)
    >>> shutil.which("dot") is None or b"<svg" in tree_svg(small)
    True
    """
    dot = shutil.which("dot")
    if dot is None:
        raise GraphvizMissing(
            "--format svg needs Graphviz's 'dot' program, which is not installed "
            "(install Graphviz, e.g. 'apt-get install graphviz' or 'brew install graphviz', "
            "or write --format dot and render it elsewhere)"
        )
    done = subprocess.run(
        [dot, "-Tsvg"], input=tree_dot(tree).encode(), capture_output=True, check=False,
        timeout=300,
    )
    if done.returncode != 0:
        raise GraphvizMissing(f"Graphviz 'dot' failed: {done.stderr.decode(errors='replace')}")
    return done.stdout


def write_atomic(path: str | Path, write: Callable[[IO[bytes]], None]) -> None:
    """Write a file via ``write(handle)`` whole or not at all (see :mod:`odds.rules.atomic`).

    On any error the temporary file is removed and ``path`` is untouched.

    >>> import os, tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> write_atomic(folder / "a.txt", lambda f: f.write(b"hi") and None)
    >>> (folder / "a.txt").read_text(), os.listdir(folder)
    ('hi', ['a.txt'])
    """
    with AtomicFile(path) as out:
        write(out.handle)


def tree_bytes(tree: nx.DiGraph, fmt: str) -> bytes:
    """The tree in one of :data:`FORMATS`, as the bytes of a file.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.exact.tree import probability_tree
    >>> tree_bytes(probability_tree(BUILTIN["plain"], depth=0), "gexf")[:5]
    b'<gexf'
    >>> tree_bytes(probability_tree(BUILTIN["plain"], depth=0), "png")
    Traceback (most recent call last):
    ...
    ValueError: 'png' is not a tree format (text, json, graphml, gexf, dot, svg)
    """
    import networkx as nx  # type: ignore[import-untyped, unused-ignore]

    if fmt == "text":
        return ("\n".join(tree_text(tree)) + "\n").encode()
    if fmt == "json":
        return tree_json(tree).encode()
    if fmt == "graphml":
        return ("\n".join(nx.generate_graphml(portable(tree))) + "\n").encode()
    if fmt == "gexf":
        return ("\n".join(nx.generate_gexf(portable(tree))) + "\n").encode()
    if fmt == "dot":
        return tree_dot(tree).encode()
    if fmt == "svg":
        return tree_svg(tree)
    raise ValueError(f"{fmt!r} is not a tree format ({', '.join(FORMATS)})")


def write_tree(tree: nx.DiGraph, path: str | Path, fmt: str) -> None:
    """Write the tree to ``path`` in format ``fmt``, atomically (see :func:`read_tree`)."""
    data = tree_bytes(tree, fmt)

    def write(out: IO[bytes]) -> None:
        out.write(data)

    write_atomic(path, write)
