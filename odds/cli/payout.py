"""``lucky9 payout``: pay tables, break-even values, candidates side by side."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import click

from odds.cli.common import IntRange, emit, format_option, reports_errors
from odds.cli.options import (
    command,
    max_bonus_options,
    parse_edge,
    resolve_rules_at_stake,
    rule_options,
)
from odds.exact.bets import bet_odds
from odds.exact.engine import round_odds
from odds.exact.results import RoundOdds
from odds.money.pay_entries import entry_names
from odds.money.payout import parse_table
from odds.money.seat_cut import CUTS, BreakEvenCut, break_even_cut, cut_stakes
from odds.report.bets_report import break_even_data, break_even_page
from odds.report.payout_report import payout_data, payout_text


@command()
@rule_options
@click.option("--symbol", "symbols", multiple=True, metavar="ENTRY",
              help="make a pay-table entry a symbol (win, colon, colon_nine, bank_colon, "
                   "bank_colon_nine, banker_pays, tie_pays); repeatable")
@click.option("--solve", "solve", multiple=True, metavar="ENTRY",
              help="the entry's break-even value (EV exactly 0), others as set or symbolic; "
                   "or the house's cut (fee, commission) that gives the bank --edge; "
                   "repeatable [default: every entry of the pay table]")
@click.option("--edge", default="0", show_default=True, metavar="E",
              help="with --solve fee|commission: the bank's edge to keep, per unit staked "
                   "(e.g. 2% or 0.02)")
@max_bonus_options
@click.option("--table", "tables", multiple=True, metavar="SPEC",
              help="a candidate pay table, e.g. 'colon=3/2,colon_nine=5/2'; repeatable: "
                   "shown side by side with the profile's own")
@click.option("--players", "--seats", "players", type=IntRange(1, 8), default=1, show_default=True,
              help="players at the table: the bank's edge per round is N x the seat figure")
@click.option("--bet", "bets", multiple=True, metavar="NAME",
              help="a bet's pay table instead (see 'lucky9 odds --help'; 'all': every bet of "
                   "the profile): each line's probability and break-even pay; repeatable")
@format_option("text", "json")
@reports_errors
def payout(**params: Any) -> None:
    """Pay tables: EV as an expression, break-even multipliers, candidates side by side.

    Exact fractions and decimals, per unit stake, from the player seat's side;
    the bank's edge is the negative.  Every seat has the same figures under
    fixed rules, so at a table of N players the bank's expected take per round
    is N x the seat figure.

    \b
    Examples:
      lucky9 payout
      lucky9 payout --symbol colon --symbol colon_nine
      lucky9 payout --solve colon_nine --colon 2
      lucky9 payout --bank-bonus on --solve colon
      lucky9 payout --table colon=3/2,colon_nine=5/2 --table colon=1 --players 8
      lucky9 payout --profile punto-banco --symbol banker_pays
      lucky9 payout --profile ez-baccarat --bet dragon-7 --bet panda-8
      lucky9 payout --decks 6 --solve fee --solve commission --edge 1% --stake 100
    """
    profile, shoe = resolve_rules_at_stake(params)
    edge = parse_edge(params.pop("edge"))
    if params["bets"]:
        if params["symbols"] or params["solve"] or params["tables"]:
            raise click.UsageError("--bet shows a bet's own pay table: give it without "
                                   "--symbol, --solve or --table")
        results = bet_odds(profile, shoe, params["bets"])
        emit(params["fmt"], lambda: {"profile": profile.key, "shoe": shoe.label,
                                     "bets": break_even_data(results)},
             lambda: break_even_page(profile, shoe, results))
        return
    tables = [parse_table(spec) for spec in params["tables"]]
    result = round_odds(profile, shoe)
    solve, cuts = _solved(result, entry_names(params["solve"]), edge)
    data = payout_data(result, entry_names(params["symbols"]), solve, tables,
                       params["players"], cuts)
    emit(params["fmt"], lambda: data, lambda: payout_text(data))


def _solved(result: RoundOdds, names: list[str], edge: Fraction
            ) -> tuple[list[str] | None, list[BreakEvenCut]]:
    """The pay-table entries to solve (None: every one) and the house's cuts solved for."""
    cuts = [break_even_cut(result, name, edge, stake) for name in names if name in CUTS
            for stake in cut_stakes(result.profile)]
    return ([name for name in names if name not in CUTS] if cuts else names or None), cuts


COMMANDS = (payout,)
