"""``lucky9 odds`` (one round's exact odds) and ``lucky9 profiles``."""

from __future__ import annotations

from typing import Any

import click

from odds.cli.common import CARDS, PROFILE, IntRange, emit, format_option, reports_errors
from odds.cli.game import play_round
from odds.cli.options import command, resolve_rules, rule_options
from odds.rules import Profile


@command()
@rule_options
@click.option("--player", type=CARDS, default=None,
              help="the player's known cards in deal order (0-3), e.g. '8h 7s'")
@click.option("--bank", type=CARDS, default=None, help="the bank's known cards (0-3)")
@click.option("--removed", type=CARDS, default=None,
              help="cards seen or burned, no longer in the shoe")
@click.option("--player-total", type=IntRange(), default=None, metavar="T",
              help="given only the player's two-card value T (0-9), any cards that make it")
@click.option("--bank-total", type=IntRange(), default=None, metavar="T",
              help="given only the bank's two-card value T (0-9)")
@click.option("--strategy", default=None,
              help="player strategy where players choose (see 'lucky9 play')")
@click.option("--bank-strategy", default=None,
              help="bank strategy where the bank chooses (see 'lucky9 play')")
@click.option("--slot", "slots", multiple=True, metavar="K=CARD",
              help="the card dealt in slot K of the deal order: 1-4 player, bank, player, "
                   "bank (the two-card hands as dealt), 5 the next card whoever takes it, 6 "
                   "the one after; repeatable, e.g. --slot 5=9h")
@click.option("--bet", "bets", multiple=True, metavar="NAME",
              help="add a bet's EV, variance and payouts (built-in: player, banker, tie, "
                   "player-pair, banker-pair, either-pair, perfect-pair, dragon-bonus-player, "
                   "dragon-bonus-banker, dragon-7, panda-8, ez-banker, colon, colon-nine; or "
                   "one the profile file defines); 'all': every bet of the profile; repeatable")
@format_option("text", "json", "csv")
@reports_errors
def odds(**params: Any) -> None:
    """Exact odds of one round for a player seat against the bank.

    \b
    Examples:
      lucky9 odds
      lucky9 odds --decks 8 --naturals compare --colon 5/2
      lucky9 odds --player '8h 7s' --bank 'Ac 6d' --format json
      lucky9 odds --profile punto-banco
      lucky9 odds --player-total 5 --bank-total 3
      lucky9 odds --profile punto-banco --bet all
      lucky9 odds --profile ez-baccarat --bet dragon-7 --slot 5=7h

    \b
    The EV now, in a dealt shoe (the cards seen so far removed):
      lucky9 odds --decks 8 --removed '5 5 5 5 4 4 6 A'
    """
    from odds import round_odds
    from odds.report.odds_report import odds_data, odds_rows, odds_text

    profile, shoe = resolve_rules(params)
    p_spec, b_spec = params.pop("strategy"), params.pop("bank_strategy")
    slots, bets = params.pop("slots"), params.pop("bets")
    if (slots or bets) and (p_spec or b_spec or not profile.fixed):
        raise click.UsageError("--slot and --bet need a fixed-rule profile (no strategies)")
    if (slots or bets) and (params["player_total"] is not None
                            or params["bank_total"] is not None):
        raise click.UsageError(
            "--slot and --bet cannot be combined with --player-total/--bank-total: "
            "give known cards instead")
    if slots or bets:
        from odds.exact.bets import odds_and_bets
        from odds.report.bets_report import odds_bets_data, odds_bets_rows, odds_bets_text

        both = odds_and_bets(profile, shoe, bets, player=params["player"] or (),
                             bank=params["bank"] or (), removed=params["removed"] or (),
                             slots=slots)
        emit(params["fmt"], lambda: odds_bets_data(*both), lambda: odds_bets_text(*both),
             lambda: odds_bets_rows(*both))
        return
    if p_spec or b_spec or not profile.fixed:
        if params["fmt"] == "csv":
            raise click.UsageError(
                f"profile {profile.key!r} is played as a game (players and bank choose), "
                "which has no CSV form: use --format text or json"
                if not profile.fixed else "with strategies, use --format text or json")
        if params["player_total"] is not None or params["bank_total"] is not None:
            raise click.UsageError(
                "--player-total/--bank-total are for fixed-rule profiles; "
                "with strategies give known cards (--player, --bank)")
        if params["removed"]:
            shoe = shoe.without(params["removed"])
        play_round(profile, shoe, p_spec or "optimal", b_spec or "optimal", "cards", 1,
                   params["fmt"], params["player"] or (), params["bank"] or ())
        return
    result = round_odds(
        profile, shoe,
        player=params["player"] or (), bank=params["bank"] or (),
        removed=params["removed"] or (),
        player_total=params["player_total"], bank_total=params["bank_total"],
    )
    fmt = params["fmt"]
    emit(fmt, lambda: odds_data(result),
         lambda: odds_text(result),
         lambda: odds_rows(result))


@command()
@click.argument("name", required=False, type=PROFILE)
@format_option("text", "json")
@reports_errors
def profiles(name: Profile | None, fmt: str) -> None:
    """List the built-in profiles, or show one profile's full rules.

    NAME is a built-in key or a .toml profile file.
    """
    from odds import BUILTIN
    from odds.report.profile_report import (
        profile_data,
        profile_list_data,
        profile_list_text,
        profile_text,
    )

    if name is None:
        emit(fmt, lambda: profile_list_data(BUILTIN), lambda: profile_list_text(BUILTIN))
    else:
        emit(fmt, lambda: profile_data(name), lambda: profile_text(name))


COMMANDS = (odds, profiles)
