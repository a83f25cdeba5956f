"""One round given what is known: ``lucky9 conditional`` and ``lucky9 removal``."""

from __future__ import annotations

from typing import Any

import click

from odds.cli.common import CARDS, emit, format_option, reports_errors
from odds.cli.options import command, known_cards, resolve_rules, rule_options
from odds.exact.conditional import conditional_table
from odds.exact.engine import round_odds
from odds.report.conditional_report import conditional_data, conditional_rows, conditional_text
from odds.report.removal_report import removal_data, removal_rows, removal_text


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
    them; and the Colon bonus's share of the seat's EV, column colon-share)
    when one card of that rank leaves the shoe.  Weighted by the cards left
    they sum to exactly 0.  For the EV of a partly dealt shoe itself, use
    'lucky9 odds --removed CARDS' (or --shoe); to follow a shoe round by
    round, 'lucky9 shoe'.

    \b
    Examples:
      lucky9 removal --decks 8
      lucky9 removal --profile punto-banco --format csv
      lucky9 removal --profile ez-baccarat --bet all
    """
    profile, shoe = resolve_rules(params)
    if params["removed"]:
        shoe = shoe.without(params["removed"])
    side = params["bets"]
    emit(params["fmt"], lambda: removal_data(profile, shoe, side),
         lambda: removal_text(profile, shoe, side=side),
         lambda: removal_rows(profile, shoe, side))


COMMANDS = (conditional, removal)
