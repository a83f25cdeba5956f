"""Tree exports (round trips through networkx), atomic writes, `lucky9 tree`."""

from __future__ import annotations

import json
import os
import re
import shutil
import tracemalloc
from fractions import Fraction

import networkx as nx
import pytest
from click.testing import CliRunner

from cli import main
from odds import BUILTIN, Shoe
from odds.exact.tree import Node, Stage, probability_tree, subtree
from odds.report.tree_export import (
    GraphvizMissing,
    portable,
    read_tree,
    tree_bytes,
    tree_chunks,
    tree_dot,
    tree_json,
    tree_svg,
    tree_text,
    write_tree,
)
from tests.examples import halve

HAS_DOT = shutil.which("dot") is not None
# .ci/run installs Graphviz and sets LUCKY9_REQUIRE_TOOLS=1: there a missing dot fails.
REQUIRED = os.environ.get("LUCKY9_REQUIRE_TOOLS") == "1"


@pytest.fixture(scope="module")
def tree():
    return probability_tree(BUILTIN["punto-banco"], Shoe.packs_of(8), depth=3)


@pytest.mark.parametrize("fmt", ["json", "graphml", "gexf"])
def test_round_trip(tree, tmp_path, fmt):
    path = tmp_path / f"tree.{fmt}"
    write_tree(tree, path, fmt)
    back = read_tree(path)
    assert isinstance(back, nx.DiGraph)
    assert set(back) == {n.key for n in tree}
    assert set(back.edges) == {(u.key, v.key) for u, v in tree.edges}
    for node, data in tree.nodes(data=True):
        got = back.nodes[node.key]
        for name in ("probability", "win", "push", "loss", "expected_value"):
            assert Fraction(got[name]) == data[name]
            assert got[f"{name}_float"] == pytest.approx(float(data[name]), abs=0, rel=1e-15)
        assert int(got["count"]) == data["count"]
        assert got["stage"] == node.stage.label
        assert got["label"] == node.label
        # the node state can be rebuilt from the attributes
        state = {k: got.get(k) for k in ("player", "player_colon", "bank", "bank_colon",
                                          "player_third", "bank_third")}
        assert state["player"] == node.player and state["bank_third"] == node.bank_third
    for u, v, data in tree.edges(data=True):
        assert Fraction(back.edges[u.key, v.key]["probability"]) == data["probability"]


def test_json_is_node_link(tree):
    data = json.loads(tree_json(tree))
    assert data["directed"] and not data["multigraph"]
    assert data["graph"]["profile"] == "punto-banco"
    assert len(data["nodes"]) == tree.number_of_nodes()
    assert len(data["edges"]) == tree.number_of_edges()


def test_huge_counts_become_strings():
    flat = portable(probability_tree(BUILTIN["plain"], Shoe.packs_of(60), depth=0))
    assert flat.nodes["deal"]["count"] == str((52 * 60) * (52 * 60 - 1) * (52 * 60 - 2)
                                              * (52 * 60 - 3) * (52 * 60 - 4) * (52 * 60 - 5))


def _awkward():
    """A small tree whose strings need escaping and whose counts are both long and string."""
    tree = probability_tree(BUILTIN["plain"], Shoe.packs_of(60), depth=1)
    tree.graph["conditions"] = 'a & <b> "c"\n\td'
    tree.graph["name"] = 'n<&>"'
    first = next(iter(tree))
    tree.nodes[first]["label"] = "x <&> \"y\""
    return tree


TREES = {
    "deal only": lambda: probability_tree(BUILTIN["plain"], depth=0),
    "punto-banco depth 3": lambda: probability_tree(BUILTIN["punto-banco"], Shoe.packs_of(8),
                                                    depth=3),
    "subtree": lambda: subtree(probability_tree(BUILTIN["standard"], Shoe.packs_of(1)), "P5/B3"),
    "awkward": _awkward,
}


@pytest.mark.parametrize("make", halve("make", TREES.values()), ids=TREES.keys())  # half: CI
def test_streamed_files_equal_networkx(make):
    """GraphML, GEXF and JSON are written a node at a time, byte for byte what networkx's
    writers (and json.dumps of the node-link data) make of the whole portable copy."""
    tree = make()
    flat = portable(tree)
    counts = {type(d["count"]) for _, d in flat.nodes(data=True)}
    assert make is not _awkward or counts == {int, str}  # two GraphML keys named "count"
    graphml = "\n".join(nx.generate_graphml(flat)) + "\n"
    assert tree_bytes(tree, "graphml").decode() == graphml
    gexf = "\n".join(nx.generate_gexf(flat)) + "\n"
    ours = tree_bytes(tree, "gexf").decode()
    date = re.compile(r'lastmodifieddate="[0-9-]+"')  # the day, which may turn meanwhile
    assert date.sub("", ours) == date.sub("", gexf)
    data = {"directed": True, "multigraph": False, "graph": dict(flat.graph),
            "nodes": [{"id": n, **d} for n, d in flat.nodes(data=True)],
            "edges": [{"source": u, "target": v, **d} for u, v, d in flat.edges(data=True)]}
    assert tree_json(tree) == json.dumps(data, indent=1) + "\n"


def test_a_carriage_return_survives_graphml(tmp_path):
    """networkx writes it bare (and then splits its lines on it); a reader would see a line
    feed.  Written as a reference, it reads back as written."""
    tree = probability_tree(BUILTIN["plain"], depth=0)
    tree.graph["conditions"] = "a\r\nb\rc"
    write_tree(tree, tmp_path / "t.graphml", "graphml")
    assert read_tree(tmp_path / "t.graphml").graph["conditions"] == "a\r\nb\rc"


def test_streamed_files_come_in_pieces(tree):
    """A node at a time: the writer never holds the document."""
    pieces = list(tree_chunks(tree, "graphml"))
    assert len(pieces) > 10 and max(map(len, pieces)) < 70_000


# CI (slow: networkx's whole document under tracemalloc); the fast twin is the one above.
@pytest.mark.slow
def test_streaming_holds_a_tenth_of_what_networkx_holds(tree):
    tracemalloc.start()
    try:
        for _ in tree_chunks(tree, "graphml"):
            pass
        ours = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        "\n".join(nx.generate_graphml(portable(tree)))
        theirs = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert ours * 10 < theirs


def test_dot_text_has_every_node_and_edge(tree):
    text = tree_dot(tree)
    assert text.startswith("digraph lucky9 {") and text.rstrip().endswith("}")
    for node in tree:
        assert f'"{node.key}" [label=' in text
    for u, v in tree.edges:
        assert f'"{u.key}" -> "{v.key}"' in text
    assert text.count('" -> "') == tree.number_of_edges()


@pytest.mark.skipif(not HAS_DOT and not REQUIRED,
                    reason="Graphviz 'dot' is not installed (needed only for SVG)")
def test_svg_with_dot(tree):
    assert HAS_DOT, "Graphviz's dot is not on PATH"
    svg = tree_svg(probability_tree(BUILTIN["standard"], Shoe.packs_of(8), depth=1))
    assert svg.lstrip().startswith(b"<?xml") and b"<svg" in svg and b"player 9 natural" in svg


def test_svg_without_dot_says_so(monkeypatch, tmp_path):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    small = probability_tree(BUILTIN["standard"], Shoe.packs_of(1), depth=1)
    with pytest.raises(GraphvizMissing, match="needs Graphviz's 'dot' program"):
        tree_svg(small)
    result = CliRunner().invoke(main, ["tree", "--format", "svg", "-o", str(tmp_path / "t.svg")])
    assert result.exit_code == 1
    assert "needs Graphviz's 'dot' program, which is not installed" in result.output
    assert list(tmp_path.iterdir()) == []


def test_write_tree_keeps_old_file_on_error(tmp_path, monkeypatch):
    path = tmp_path / "tree.json"
    path.write_text("old")

    def broken(tree, fmt):
        yield b"half a file"
        raise RuntimeError("disk full")

    small = probability_tree(BUILTIN["plain"], depth=0)
    with monkeypatch.context() as m:
        m.setattr("odds.report.tree_export.tree_chunks", broken)
        with pytest.raises(RuntimeError):
            write_tree(small, path, "json")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["tree.json"]
    write_tree(small, tmp_path / "new.json", "json")
    mask = os.umask(0)
    os.umask(mask)
    assert (tmp_path / "new.json").stat().st_mode & 0o777 == 0o666 & ~mask
    with pytest.raises(ValueError, match="no folder"):
        write_tree(small, tmp_path / "no" / "x.json", "json")


def test_text_fits_a_terminal():
    lines = tree_text(probability_tree(BUILTIN["standard"], Shoe.packs_of(8), depth=1))
    assert max(map(len, lines)) <= 80
    assert any(line.startswith("  player 9 natural ") for line in lines)


# -- the command -----------------------------------------------------------------------


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_tree_command_text():
    result = run("tree", "--decks", "8")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(map(len, lines)) <= 80
    assert lines[0] == "profile standard, shoe 8 packs, given: none"
    assert "deal                            1.0000          0.4531  0.0938  0.4531  0.0344" in lines
    assert "  player 9 natural              0.0949  0.0949  0.9055  0.0945  0.0000  0.9055" in lines


def test_tree_command_from_and_depth():
    result = run("tree", "--from", "P5/B3", "--depth", "1")
    assert result.exit_code == 0, result.output
    assert "P5/B3: bank 3" in result.output
    assert sum(line.startswith("  player draws ") for line in result.output.splitlines()) == 10


@pytest.mark.parametrize("fmt", halve("fmt", ["json", "graphml", "gexf", "dot"]))  # half: CI
def test_tree_command_writes_files(tmp_path, fmt):
    path = tmp_path / f"t.{fmt}"
    result = run("tree", "--profile", "punto-banco", "--player-total", "5", "--format", fmt,
                 "--output", str(path))
    assert result.exit_code == 0, result.output
    assert f"wrote {path}: {fmt}" in result.output
    if fmt != "dot":
        back = read_tree(path)
        assert back.nodes["P5"]["probability"] == "1"
        assert all(n.startswith(("deal", "P5")) for n in back)
        assert any(back.nodes[n].get("stage") == "outcome" for n in back)  # default: all levels


def test_tree_command_stdout_json():
    result = run("tree", "--format", "json", "--depth", "1", "--player", "9h 9s")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [n["id"] for n in data["nodes"]] == ["deal", "P8c9"]
    assert data["graph"]["conditions"] == "player 9h 9s"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--depth", "-1"], "--depth is a whole number, 0 or more, not -1"),
        (["--player-total", "10"], "10 is not a two-card value for the player (values run 0-9)"),
        (["--bank-total", "-2"], "-2 is not a two-card value for the bank"),
        (["--shoe", "A=0 2=0 3=0 4=0 5=4 6=0 7=0 8=0 9=0 10=4 J=0 Q=0 K=0",
          "--player-total", "3"], "no deal under profile 'standard'"),
        (["--from", "P10"], "'P10' is not a node of this tree"),
        (["--profile", "family"], "has no fixed draw rule"),
        (["--removed", "A A A A A"], "the shoe holds only 4 cards of rank A"),
        (["--format", "png"], "'png' is not one of"),
    ],
    ids=["depth", "total-10", "bank-total", "shoe-cannot", "from", "family", "removed", "format"],
)
def test_tree_command_bad_input(args, message):
    result = run("tree", *args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_tree_node_at_depth_zero():
    result = run("tree", "--depth", "0", "--format", "json")
    data = json.loads(result.output)
    assert [n["id"] for n in data["nodes"]] == ["deal"]
    tree = probability_tree(BUILTIN["standard"], depth=0)
    assert list(tree) == [Node(Stage.DEAL)]
