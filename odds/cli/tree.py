"""One round in detail: ``lucky9 tree``, ``lucky9 conditional`` and ``lucky9 removal``."""

from __future__ import annotations

import sys
from typing import Any

import click

from odds.cli.common import CARDS, IntRange, PathType, emit, format_option, out, reports_errors
from odds.cli.options import command, known_cards, resolve_rules, rule_options
from odds.rules.atomic import check_target

TERMINAL_NODES = 2000  # larger trees go to a file (-o) or a pipe, not a terminal


def _stdout_is_terminal() -> bool:
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
    from odds.exact.tree import Stage, probability_tree, subtree
    from odds.report.tree_export import GraphvizMissing, tree_chunks, write_tree

    if params["output"] is not None:
        check_target(params["output"])
    profile, shoe = resolve_rules(params)
    fmt = params["fmt"]
    depth = params["depth"]
    if depth is not None and depth < 0:
        raise click.UsageError(f"--depth is a whole number, 0 or more, not {depth}")
    if depth is None:
        depth = 1 if fmt in ("text", "dot", "svg") else int(Stage.OUTCOME)
    start = params["start"]
    start_stage = 0 if start is None else (0 if start == "deal" else start.count("/") + 1)
    full = probability_tree(
        profile, shoe,
        player=params["player"] or (), bank=params["bank"] or (),
        removed=params["removed"] or (),
        player_total=params["player_total"], bank_total=params["bank_total"],
        depth=min(start_stage + depth, int(Stage.OUTCOME)),
    )
    graph = full if start is None else subtree(full, start, depth)
    nodes = graph.number_of_nodes()
    if (not params["output"] and fmt in ("json", "graphml", "gexf") and nodes > TERMINAL_NODES
            and _stdout_is_terminal()):
        raise click.UsageError(
            f"--format {fmt} of {nodes:,} nodes (megabytes of text) is not written to a terminal: "
            f"give -o FILE, a --depth, or redirect the output (> tree.{fmt})")
    try:
        if params["output"] is not None:
            write_tree(graph, params["output"], fmt)
            click.echo(f"wrote {params['output']}: {fmt}, {graph.number_of_nodes():,} nodes, "
                       f"{graph.number_of_edges():,} edges", err=True)
        else:
            for piece in tree_chunks(graph, fmt):  # a node at a time: no whole copy held
                out(piece.decode(), nl=False)
    except GraphvizMissing as exc:
        raise click.ClickException(str(exc)) from None


@command()
@rule_options
@known_cards
@click.option("--by", type=click.Choice(["player", "bank", "pair"]), default="player",
              show_default=True,
              help="condition on the player's two-card value, the bank's, or both (a pair)")
@format_option("text", "json", "csv")
@reports_errors
def conditional(**params: Any) -> None:
    """The odds given each two-card value (or pair of values), exactly.

    \b
    The table casinos publish for baccarat: P(win), P(push), P(loss) of the
    player seat and each bet's EV, given the player's two-card value (--by
    player), the bank's (--by bank) or both (--by pair).

    \b
    Examples:
      lucky9 conditional
      lucky9 conditional --profile punto-banco
      lucky9 conditional --by pair --format csv
    """
    from odds import round_odds
    from odds.exact.conditional import conditional_table
    from odds.report.conditional_report import conditional_data, conditional_rows, conditional_text

    profile, shoe = resolve_rules(params)
    result = round_odds(
        profile, shoe,
        player=params["player"] or (), bank=params["bank"] or (),
        removed=params["removed"] or (),
    )
    table = conditional_table(result, params["by"])
    fmt = params["fmt"]
    emit(fmt, lambda: conditional_data(result, table, params["by"]),
         lambda: conditional_text(result, table, params["by"]),
         lambda: conditional_rows(result, table, params["by"]))


@command()
@rule_options
@click.option("--removed", type=CARDS, default=None,
              help="cards already dealt: the effects are from the shoe that is left")
@click.option("--bet", "bets", multiple=True, metavar="NAME",
              help="add a side bet (see 'lucky9 odds --help'; 'all': every bet of the "
                   "profile), from its own enumerator: about a second each; repeatable")
@format_option("text", "json", "csv")
@reports_errors
def removal(**params: Any) -> None:
    """Effect of removal: how taking one card of each rank moves the odds.

    \b
    For each rank, the exact change per card removed in the EV of every bet
    (the player seat and its P(win); banker and tie where the profile has
    them; colon: the part of the seat's EV its Colon pays add) when one card
    of that rank leaves the shoe.  Weighted by the cards left they sum to
    exactly 0.  For the EV of a partly dealt shoe itself, use 'lucky9 odds
    --removed CARDS' (or --shoe); to follow a shoe round by round, 'lucky9 shoe'.

    \b
    Examples:
      lucky9 removal --decks 8
      lucky9 removal --profile punto-banco --format csv
      lucky9 removal --profile ez-baccarat --bet all
    """
    from odds.report.removal_report import removal_data, removal_rows, removal_text

    profile, shoe = resolve_rules(params)
    if params["removed"]:
        shoe = shoe.without(params["removed"])
    side = params["bets"]
    emit(params["fmt"], lambda: removal_data(profile, shoe, side),
         lambda: removal_text(profile, shoe, side=side),
         lambda: removal_rows(profile, shoe, side))


COMMANDS = (tree, conditional, removal)
