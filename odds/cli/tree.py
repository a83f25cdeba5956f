"""``lucky9 tree``: the exact probability tree of one round, by state."""

from __future__ import annotations

import sys
from typing import Any

import click

from odds.cli.common import IntRange, PathType, note, out, reports_errors
from odds.cli.options import command, known_cards, resolve_rules, rule_options
from odds.io.atomic import check_target
from odds.report.file_formats import check_suffix
from odds.report.tree_export import GraphvizMissing, tree_chunks, write_tree
from odds.report.tree_view import tree_view

TERMINAL_NODES = 2000  # larger trees go to a file (-o) or a pipe, not a terminal


def _stdout_is_terminal() -> bool:
    """Standard output is a terminal (a test makes it one)."""
    return sys.stdout.isatty()


@command()
@rule_options
@known_cards
@click.option("--player-total", type=IntRange(), default=None, metavar="T",
              help="given only the player's two-card value T (0-9)")
@click.option("--bank-total", type=IntRange(), default=None, metavar="T",
              help="given only the bank's two-card value T (0-9)")
@click.option("--depth", type=IntRange(), default=None, metavar="N",
              help="levels shown below the start (0-5: player cards, bank cards, player draw, "
                   "bank draw, outcome) [default: 1 for text, dot, svg; all for json, "
                   "graphml, gexf]")
@click.option("--from", "start", default=None, metavar="KEY",
              help="start at this node, by key: P5 (player 5), P4c (a Colon), P8c9 "
                   "(Colon nine), P5/B3, P5/B3/p4 (player drew a 4), P5/B3/p-/b- (both stood)")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "graphml", "gexf", "dot",
                                                     "svg"]),
              default="text", show_default=True, help="output format")
@click.option("--output", "-o", type=PathType(dir_okay=False), default=None,
              help="write to this file (atomically) instead of standard output")
@reports_errors
def tree(**params: Any) -> None:
    """The exact probability tree of one round, by state.

    \b
    Levels: the deal; the player's two-card value (natural and Colon marks);
    the bank's; the player's draw and final value; the bank's; the outcome.
    Each node shows the probability of its path, the probability given its
    parent, and the player seat's win / push / loss and EV given the node.
    JSON, GraphML and GEXF hold fractions as strings with a float beside.
    They are not written to a terminal beyond 2,000 nodes (a full tree is
    about 15 MB): give -o FILE, a --depth, or redirect the output.

    \b
    Examples:
      lucky9 tree
      lucky9 tree --from P5/B3 --depth 2
      lucky9 tree --profile punto-banco --format graphml -o punto.graphml
      lucky9 tree --depth 1 --format svg -o tree.svg
    """
    output, fmt = params["output"], params["fmt"]
    if output is not None:
        check_suffix(output, fmt, "--output")
        check_target(output)
    profile, shoe = resolve_rules(params)
    graph = tree_view(profile, shoe, fmt, params["depth"], params["start"],
                      player=params["player"] or (), bank=params["bank"] or (),
                      removed=params["removed"] or (), player_total=params["player_total"],
                      bank_total=params["bank_total"])
    try:
        _write(graph, fmt, output)
    except GraphvizMissing as exc:
        raise click.ClickException(str(exc)) from None


def _write(graph: Any, fmt: str, output: str | None) -> None:
    """The tree to ``output``, or a node at a time to standard output (not a large
    machine format to a terminal)."""
    nodes = graph.number_of_nodes()
    if output is not None:
        write_tree(graph, output, fmt)
        note(f"wrote {output}: {fmt}, {nodes:,} nodes, {graph.number_of_edges():,} edges")
        return
    if fmt in ("json", "graphml", "gexf") and nodes > TERMINAL_NODES and _stdout_is_terminal():
        raise click.UsageError(
            f"--format {fmt} of {nodes:,} nodes (megabytes of text) is not written to a terminal: "
            f"give -o FILE, a --depth, or redirect the output (> tree.{fmt})")
    for piece in tree_chunks(graph, fmt):  # a node at a time: no whole copy held
        out(piece.decode(), nl=False)


COMMANDS = (tree,)
