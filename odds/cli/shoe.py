"""``lucky9 shoe``: follow a dealt shoe, the exact odds before every round."""

from __future__ import annotations

import sys
from typing import Any

import click

from odds.cli.common import IntRange, emit, format_option, reports_errors
from odds.cli.options import command, resolve_rules, rule_options
from odds.cli.progress import delayed_progress
from odds.exact.shoe_follow import follow_shoe, follow_table
from odds.exact.shoe_source import (
    check_source,
    read_record,
    recorded_rounds,
    recorded_table,
    seeded_rounds,
)
from odds.report.shoe_report import shoe_data, shoe_rows, shoe_text, table_data, table_rows, table_text
from odds.rules.profile import Profile
from odds.rules.shoe import Shoe


@command("shoe")
@rule_options
@click.option("--cards", "cards_file", default=None, metavar="FILE",  # read_text checks it
              help="the cards dealt, in deal order, one or more per line ('-': standard "
                   "input); a blank line or '--' may close a round; '#' starts a comment")
@click.option("--seed", type=IntRange(min=0), default=None,
              help="shuffle the shoe with this seed and deal it to the cut card")
@click.option("--index", type=IntRange(min=0), default=None,
              help="with --seed: which shoe of the seed (shoe k of 'lucky9 count --seed S')"
                   "  [default: 0]")
@click.option("--penetration", type=click.FloatRange(0, 1, min_open=True), default=None,
              help="with --seed: share of the shoe dealt before the cut card  [default: 0.8]")
@click.option("--seats", "--players", "seats", type=IntRange(min=1, max=8), default=None,
              help="with --cards: a table of N seats and the bank (two cards to each seat and "
                   "the bank, then third cards in table order); each seat's exact odds and "
                   "the bank's exact mean and variance before each round  [default: 1]")
@format_option("text", "json", "csv")
@reports_errors
def shoe_command(**params: Any) -> None:
    """Follow a dealt shoe: the exact odds before every round, given the cards seen.

    \b
    The cards are split into rounds by replaying them under the rules: a
    round takes P B P B, then the player's third card if the rules make the
    player draw, then the bank's (4 to 6 cards).  Round marks in the file
    (a blank line or a line '--') are checked against that replay.
    Before each round: the exact EV of every bet (player seat; banker, tie
    where the profile has them; colon: the part of the seat's EV its Colon
    pays add) and the seat's P(win/push/loss), given every card seen so far.
    The shoe (shuffled with --seed, or dealt in --cards) has at most 100 packs.

    \b
    Examples:
      lucky9 shoe --decks 8 --seed 1
      lucky9 shoe --decks 1 --cards dealt.txt --format csv
      lucky9 shoe --profile punto-banco --cards -
      lucky9 shoe --decks 1 --seats 6 --cards table.txt
    """
    profile, shoe = resolve_rules(params)
    name, seats, fmt = params["cards_file"], params["seats"], params["fmt"]
    check_source(shoe, name, params["seed"], params["index"], params["penetration"], seats)
    if name is None:
        source = seeded_rounds(profile, shoe, params["seed"], params["index"],
                               params["penetration"])
    else:
        text, name = read_record(name, sys.stdin)
        if seats is not None and seats > 1:
            return _emit_table(profile, shoe, text, name, seats, fmt)
        source = recorded_rounds(profile, shoe, text, name)
    follow = follow_shoe(profile, shoe, source.rounds)
    emit(fmt, lambda: shoe_data(follow, source.fields), lambda: shoe_text(follow, source.label),
         lambda: shoe_rows(follow))


def _emit_table(profile: Profile, shoe: Shoe, text: str, name: str, seats: int, fmt: str) -> None:
    """A dealt table of several seats: each seat's exact odds before every round."""
    table = recorded_table(profile, shoe, text, name, seats)
    with delayed_progress() as advance:
        followed = follow_table(profile, shoe, table, seats, advance)
    emit(fmt, lambda: table_data(followed, {"cards_file": name}),
         lambda: table_text(followed, f"cards from {name}"),
         lambda: table_rows(followed))


COMMANDS = (shoe_command,)
