"""``lucky9 odds`` (one round's exact odds) and ``lucky9 profiles``."""

from __future__ import annotations

from typing import Any

import click

from odds.cli.common import CARDS, PROFILE, IntRange, emit, format_option, reports_errors
from odds.cli.options import (
    LazyHelpOption,
    command,
    max_bonus_options,
    resolve_rules_at_stake,
    rule_options,
)
from odds.exact.round_cache import round_odds_cached
from odds.game.questions import round_question
from odds.report.odds_report import odds_data, odds_rows, odds_text
from odds.rules import BUILTIN, Card, Profile, Shoe


def _bet_help() -> str:
    """``--bet``'s help, the built-in bets listed (imported only when help is shown)."""
    from odds.rules.bet_library import bet_names

    return (f"add a bet's EV, variance and payouts (built-in: {', '.join(bet_names())}; "
            "or one the profile file defines); 'all': every bet of the profile; repeatable")


@command()
@rule_options
@max_bonus_options
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
@click.option("--bet", "bets", multiple=True, metavar="NAME", cls=LazyHelpOption,
              lazy_help=_bet_help)
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
      lucky9 odds --max-bonus 5000 --stake 4000

    \b
    The EV now, in a dealt shoe (the cards seen so far removed):
      lucky9 odds --decks 8 --removed '5 5 5 5 4 4 6 A'
    """
    profile, shoe = resolve_rules_at_stake(params)
    p_spec, b_spec = params["strategy"], params["bank_strategy"]
    known: dict[str, Any] = {k: params[k] or () for k in ("player", "bank", "removed")}
    totals: dict[str, Any] = {k: params[k] for k in ("player_total", "bank_total")}
    fmt = params["fmt"]
    question = round_question(profile, (p_spec, b_spec), bool(params["slots"] or params["bets"]),
                              any(t is not None for t in totals.values()), fmt == "csv")
    if question == "bets":  # each question imports only what answers it (a quick start)
        from odds.exact.bets import odds_and_bets
        from odds.report.bets_report import odds_bets_data, odds_bets_rows, odds_bets_text

        both = odds_and_bets(profile, shoe, params["bets"], slots=params["slots"], **known)
        emit(fmt, lambda: odds_bets_data(*both), lambda: odds_bets_text(*both),
             lambda: odds_bets_rows(*both))
    elif question == "game":
        _emit_game(fmt, profile, shoe.without(known["removed"]) if known["removed"] else shoe,
                   (p_spec or "optimal", b_spec or "optimal"), known["player"], known["bank"])
    else:
        result = round_odds_cached(profile, shoe, **known, **totals)
        emit(fmt, lambda: odds_data(result), lambda: odds_text(result),
             lambda: odds_rows(result))


def _emit_game(fmt: str, profile: Profile, shoe: Shoe, strategies: tuple[str, str],
               player: tuple[Card, ...], bank: tuple[Card, ...]) -> None:
    """A round of a game: the strategy pair's exact odds, heads-up."""
    from odds.game.play import play
    from odds.report.game_report import play_data, play_text

    result = play(profile, shoe, *strategies, "cards", 1, player, bank)
    emit(fmt, lambda: play_data(result), lambda: play_text(result))


@command()
@click.argument("name", required=False, type=PROFILE)
@format_option("text", "json")
@reports_errors
def profiles(name: Profile | None, fmt: str) -> None:
    """List the built-in profiles, or show one profile's full rules.

    NAME is a built-in key or a .toml profile file.
    """
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
