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
from typing import TYPE_CHECKING, Any

from odds.exact.tree import Node, Stage
from odds.io.atomic import AtomicFile
from odds.rules.text import decimal, fraction, wrap_rules

if TYPE_CHECKING:
    import networkx as nx  # type: ignore[import-untyped, unused-ignore]

__all__ = [
    "FORMATS",
    "GraphvizMissing",
    "portable",
    "read_tree",
    "tree_bytes",
    "tree_chunks",
    "tree_dot",
    "tree_json",
    "tree_svg",
    "tree_text",
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


def _node_items(tree: nx.DiGraph) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each node's key and portable attributes (see :func:`portable`), one at a time."""
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
        yield node.key, _attrs({**data, **state})


def _edge_items(tree: nx.DiGraph) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Each edge's end keys and portable attributes, one at a time."""
    for u, v, data in tree.edges(data=True):
        yield u.key, v.key, _attrs(data)


def portable(tree: nx.DiGraph) -> nx.DiGraph:
    """A copy with string node ids (the keys) and no ``Fraction`` or huge int.

    Node states are kept as plain attributes (``player``, ``bank_third``, ...;
    a missing one means None), so a reader can rebuild each :class:`Node`.
    The file writers below stream the same attributes node by node instead
    of building this copy.

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
    out.add_nodes_from(_node_items(tree))
    out.add_edges_from(_edge_items(tree))
    return out


def tree_json(tree: nx.DiGraph) -> str:
    """Node-link JSON (``nodes`` and ``edges`` lists), fractions as strings.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.exact.tree import probability_tree
    >>> data = json.loads(tree_json(probability_tree(BUILTIN["plain"], depth=0)))
    >>> data["nodes"][0]["id"], data["nodes"][0]["probability"], data["edges"]
    ('deal', '1', [])
    """
    return "".join(_json_chunks(tree))


def _json_chunks(tree: nx.DiGraph) -> Iterator[str]:
    """``json.dumps(node-link data, indent=1) + "\\n"``, written node by node."""

    def items(name: str, rows: Iterator[dict[str, Any]]) -> Iterator[str]:
        yield f",\n {json.dumps(name)}: ["
        sep = "\n  "
        for row in rows:
            yield sep + json.dumps(row, indent=1).replace("\n", "\n  ")
            sep = ",\n  "
        yield "]" if sep == "\n  " else "\n ]"

    graph = json.dumps(_attrs(tree.graph), indent=1).replace("\n", "\n ")
    yield f'{{\n "directed": true,\n "multigraph": false,\n "graph": {graph}'
    yield from items("nodes", ({"id": n, **d} for n, d in _node_items(tree)))
    yield from items("edges", ({"source": u, "target": v, **d} for u, v, d in _edge_items(tree)))
    yield "\n}\n"


# -- GraphML and GEXF, written as a stream -------------------------------------------
# networkx builds the whole XML document in memory (about 400 MB for a full
# 17,000-node tree); these write one node at a time, byte for byte what
# nx.generate_graphml / nx.generate_gexf make of portable(tree) (the tests
# compare them; a carriage return in a text is the one difference), so
# networkx and other readers load them back.

_XML_TYPES = {bool: "boolean", int: "long", float: "double", str: "string"}


def _xml_text(text: str) -> str:
    # A carriage return as a reference: a reader would turn a bare one into a line feed
    # (networkx writes it bare, then splits its output into lines on it).
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("\r", "&#13;"))


def _xml_attr(text: str) -> str:
    return (_xml_text(text).replace('"', "&quot;").replace("\n", "&#10;")
            .replace("\t", "&#09;"))


def _tag(name: str, attrs: dict[str, str], end: str = ">") -> str:
    return f"<{name}" + "".join(f' {k}="{_xml_attr(v)}"' for k, v in attrs.items()) + end


def _graphml_chunks(tree: nx.DiGraph) -> Iterator[str]:
    """GraphML as networkx writes it: keys first (newest first), then nodes, edges, graph data."""
    keys: dict[tuple[str, str, str], str] = {}

    def key(name: str, value: Any, scope: str) -> str:
        return keys.setdefault((name, _XML_TYPES[type(value)], scope), f"d{len(keys)}")

    graph = _attrs(tree.graph)
    for name, value in graph.items():  # first pass: the keys, in networkx's order
        key(name, value, "graph")
    for _, data in _node_items(tree):
        for name, value in data.items():
            key(name, value, "node")
    for _, _, data in _edge_items(tree):
        for name, value in data.items():
            key(name, value, "edge")

    def datas(data: dict[str, Any], scope: str, indent: str) -> str:
        lines = []
        for name, value in data.items():
            text = _xml_text(str(value))
            start = _tag("data", {"key": key(name, value, scope)}, " />" if not text else ">")
            lines.append(f"{indent}{start}{text}</data>\n" if text else f"{indent}{start}\n")
        return "".join(lines)

    yield _tag("graphml", {
        "xmlns": "http://graphml.graphdrawing.org/xmlns",
        "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
        "xsi:schemaLocation": "http://graphml.graphdrawing.org/xmlns "
                              "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd"}) + "\n"
    for (name, kind, scope), ident in reversed(keys.items()):
        yield "  " + _tag("key", {"id": ident, "for": scope, "attr.name": name,
                                  "attr.type": kind}, " />") + "\n"
    yield '  <graph edgedefault="directed">\n'
    for node, data in _node_items(tree):
        if data:
            yield f"    {_tag('node', {'id': node})}\n{datas(data, 'node', '      ')}    </node>\n"
        else:
            yield f"    {_tag('node', {'id': node}, ' />')}\n"
    for u, v, data in _edge_items(tree):
        edge = {"source": u, "target": v}
        if data:
            yield f"    {_tag('edge', edge)}\n{datas(data, 'edge', '      ')}    </edge>\n"
        else:
            yield f"    {_tag('edge', edge, ' />')}\n"
    yield datas(graph, "graph", "    ")
    yield "  </graph>\n</graphml>\n"


def _gexf_chunks(tree: nx.DiGraph) -> Iterator[str]:
    """GEXF 1.2 as networkx writes it (a node's ``label`` is its label attribute)."""
    import time

    import networkx as nx  # type: ignore[import-untyped, unused-ignore]

    ids: dict[tuple[str, str], tuple[str, str]] = {}  # (class, title) -> (id, type)
    order: list[str] = []  # classes, in the order their first attribute was met

    def attr_id(scope: str, name: str, value: Any) -> str:
        found = ids.get((scope, name))
        if found is None:
            if scope not in order:
                order.append(scope)
            found = ids[scope, name] = (str(len(ids)), _XML_TYPES[type(value)])
        return found[0]

    for _, data in _node_items(tree):  # first pass: the attribute ids, in networkx's order
        for name, value in data.items():
            if name != "label":
                attr_id("node", name, value)
    for _, _, data in _edge_items(tree):
        for name, value in data.items():
            attr_id("edge", name, value)

    def values(data: dict[str, Any], scope: str, indent: str) -> str:
        if not data:
            return ""
        lines = [f"{indent}<attvalues>\n"]
        for name, value in data.items():
            text = str(value).lower() if isinstance(value, bool) else str(value)
            if isinstance(value, float):
                text = {"inf": "INF", "nan": "NaN", "-inf": "-INF"}.get(text, text)
            lines.append(f"{indent}  " + _tag("attvalue", {"for": attr_id(scope, name, value),
                                                            "value": text}, " />") + "\n")
        lines.append(f"{indent}</attvalues>\n")
        return "".join(lines)

    def element(name: str, attrs: dict[str, str], inner: str) -> str:
        if not inner:
            return f"      {_tag(name, attrs, ' />')}\n"
        return f"      {_tag(name, attrs)}\n{inner}      </{name}>\n"

    version = "1.2draft"
    yield _tag("gexf", {
        "xmlns": f"http://www.gexf.net/{version}",
        "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
        "xsi:schemaLocation": f"http://www.gexf.net/{version} "
                              f"http://www.gexf.net/{version}/gexf.xsd",
        "version": "1.2"}) + "\n"
    yield ("  " + _tag("meta", {"lastmodifieddate": time.strftime("%Y-%m-%d")})
           + f"\n    <creator>{_xml_text(f'NetworkX {nx.__version__}')}</creator>\n  </meta>\n")
    yield "  " + _tag("graph", {"defaultedgetype": "directed", "mode": "static",
                                "name": str(tree.graph.get("name", ""))}) + "\n"
    for scope in reversed(order):
        yield f'    <attributes mode="static" class="{scope}">\n'
        for (where, name), (ident, kind) in ids.items():
            if where == scope:
                yield "      " + _tag("attribute", {"id": ident, "title": name, "type": kind},
                                      " />") + "\n"
        yield "    </attributes>\n"
    def block(name: str, elements: Iterator[str]) -> Iterator[str]:
        first = next(elements, None)
        if first is None:
            yield f"    <{name} />\n"
            return
        yield f"    <{name}>\n{first}"
        yield from elements
        yield f"    </{name}>\n"

    def label(data: dict[str, Any], node: str) -> str:
        return str(data.pop("label", node))

    yield from block("nodes", (
        element("node", {"id": node, "label": label(data, node)}, values(data, "node", "        "))
        for node, data in _node_items(tree)))
    yield from block("edges", (
        element("edge", {"source": u, "target": v, "id": str(i)}, values(data, "edge", "        "))
        for i, (u, v, data) in enumerate(_edge_items(tree))))
    yield "  </graph>\n</gexf>\n"


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
    >>> lines = tree_text(probability_tree(BUILTIN["plain"], depth=1))
    >>> print(next(line for line in lines if line.startswith("deal")))
    deal                            1.0000          0.4539  0.0922  0.4539  0.0000
    """
    roots = [n for n in tree if tree.in_degree(n) == 0]
    g = tree.graph
    lines = textwrap.wrap(
        f"profile {g.get('profile')}, shoe {g.get('shoe')}, given: {g.get('conditions')}", 79,
        subsequent_indent="  ")
    lines += wrap_rules(f"rules: {g.get('rules')}")
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
    lines.append("(EV in units of the stake, as a decimal, not in percent)")
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


def tree_chunks(tree: nx.DiGraph, fmt: str) -> Iterator[bytes]:
    """The tree in one of :data:`FORMATS`, as the bytes of a file, piece by piece.

    JSON, GraphML and GEXF come a node at a time, so a full tree (about
    17,000 nodes, 15-25 MB of text) is never held whole in memory; the
    others come in one piece.  The format is checked before anything is made.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.exact.tree import probability_tree
    >>> next(tree_chunks(probability_tree(BUILTIN["plain"], depth=0), "gexf"))[:5]
    b'<gexf'
    >>> tree_chunks(probability_tree(BUILTIN["plain"], depth=0), "png")
    Traceback (most recent call last):
    ...
    ValueError: 'png' is not a tree format (text, json, graphml, gexf, dot, svg)
    """
    if fmt not in FORMATS:
        raise ValueError(f"{fmt!r} is not a tree format ({', '.join(FORMATS)})")
    if fmt in _STREAMED:
        return _pieces(_STREAMED[fmt](tree))
    if fmt == "text":
        return iter([("\n".join(tree_text(tree)) + "\n").encode()])
    if fmt == "dot":
        return iter([tree_dot(tree).encode()])
    return iter([tree_svg(tree)])


def _pieces(chunks: Iterator[str], size: int = 1 << 16) -> Iterator[bytes]:
    """Small chunks joined into pieces of about ``size`` characters, encoded."""
    held: list[str] = []
    length = 0
    for chunk in chunks:
        held.append(chunk)
        length += len(chunk)
        if length >= size:
            yield "".join(held).encode()
            held, length = [], 0
    if held:
        yield "".join(held).encode()


def tree_bytes(tree: nx.DiGraph, fmt: str) -> bytes:
    """The tree in one of :data:`FORMATS`, as the bytes of a file (see :func:`tree_chunks`).

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.exact.tree import probability_tree
    >>> tree_bytes(probability_tree(BUILTIN["plain"], depth=0), "gexf")[:5]
    b'<gexf'
    """
    return b"".join(tree_chunks(tree, fmt))


def write_tree(tree: nx.DiGraph, path: str | Path, fmt: str) -> None:
    """Write the tree to ``path`` in format ``fmt``, atomically (see :func:`read_tree`).

    JSON, GraphML and GEXF are written as they are made, a node at a time.
    """
    chunks = tree_chunks(tree, fmt)
    with AtomicFile(path) as out:
        for chunk in chunks:
            out.handle.write(chunk)


_STREAMED: dict[str, Callable[[nx.DiGraph], Iterator[str]]] = {
    "json": _json_chunks, "graphml": _graphml_chunks, "gexf": _gexf_chunks}
