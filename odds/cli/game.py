"""The family rules, where players and bank choose: ``lucky9 solve`` and ``lucky9 play``."""

from __future__ import annotations

from typing import Any

import click

from odds.cli.common import CARDS, IntRange, emit, format_option, reports_errors
from odds.cli.options import (
    BONUS_FLAGS,
    INFORMATION,
    command,
    family_default,
    resolve_rules,
    rule_options_without,
)
from odds.game.game import build_game
from odds.game.play import AtTable, HeadsUp
from odds.game.play import play as play_pair
from odds.game.questions import chemin_decision, chemin_solution, game_shoe, is_chemin
from odds.game.solve import solve_game
from odds.report.chemin_report import chemin_data, chemin_text, decision_data, decision_text
from odds.report.game_report import play_data, play_text, solve_data, solve_text
from odds.rules import Profile, Shoe


def _game_rules(params: dict[str, Any]) -> tuple[Profile, Shoe, bool]:
    """resolve_rules, and True if --decks or --shoe was given."""
    given = params.get("decks") is not None or params.get("shoe") is not None
    profile, shoe = resolve_rules(params)
    return profile, shoe, given


def emit_play(fmt: str, result: HeadsUp | AtTable) -> None:
    """Print a strategy pair's exact odds (:func:`odds.game.play.play`)."""
    emit(fmt, lambda: play_data(result), lambda: play_text(result))


@command()
@rule_options_without(*BONUS_FLAGS)
@click.option("--players", "--seats", "players", type=IntRange(1, 8), default=1, show_default=True,
              help="players at the table (more than 1: infinite shoe unless --decks or "
                   "--shoe is given; finite shoes are exact up to 2 players)")
@INFORMATION
@click.option("--strategy", default="optimal", show_default=True,
              help="at a table: the players' strategy (name or file) the bank answers")
@click.option("--model", type=click.Choice(["A1", "B1", "B2", "B3"], case_sensitive=False),
              default=None, help="chemin de fer: a published model (A1 with replacement, "
              "totals; B2 banker sees his cards; B3 both do); the banker may choose anywhere")
@click.option("--commission", default=None, metavar="ALPHA",
              help="chemin de fer: the share of the banker's wins taken (0 to 1/10, e.g. 1/20)")
@click.option("--removed", type=CARDS, default=None,
              help="chemin de fer: cards already out of the shoe, e.g. '5 5 K 9'")
@format_option("text", "json")
@reports_errors
def solve(**params: Any) -> None:
    """Optimal play under rules where players and bank choose (family profile).

    Heads-up: the exact zero-sum equilibrium (exact LP, checked by both exact
    best responses). At a table of N players (infinite shoe, or a finite one
    up to 2 players): the bank's exact best response to the players'
    strategy, and one seat's best response.

    \b
    Examples:
      lucky9 solve --decks 8
      lucky9 solve --decks inf --information totals --format json
      lucky9 solve --players 4
      lucky9 solve --profile chemin-de-fer --model B2 --decks 6 --commission 1/20
    """
    profile, shoe, given = _game_rules(params)
    fmt, players, information = params["fmt"], params["players"], params["information"]
    if is_chemin(profile, params["model"], params["commission"], params["removed"]):
        sol = chemin_solution(profile, game_shoe(shoe, given, model=params["model"]),
                              params["model"], params["commission"], information,
                              params["removed"] or (), players)
        emit(fmt, lambda: chemin_data(sol), lambda: chemin_text(sol))
    elif players > 1:
        emit_play(fmt, play_pair(profile, game_shoe(shoe, given, players), params["strategy"],
                                 "best-response", information, players))
    else:
        eq = solve_game(build_game(profile, shoe, information))
        emit(fmt, lambda: solve_data(eq), lambda: solve_text(eq))


family_default(solve)


@command()
@rule_options_without(*BONUS_FLAGS)
@click.option("--strategy", "player_strategy", default="optimal", show_default=True,
              help="player strategy: standard-rule, never, always, draw-below:K, optimal, "
                   "best-response, or a .toml/.json file")
@click.option("--bank-strategy", default="optimal", show_default=True,
              help="bank strategy: the same names, or a file")
@click.option("--players", "--seats", "players", type=IntRange(1, 8), default=1, show_default=True,
              help="players at the table, all playing --strategy (more than 1: infinite "
                   "shoe unless --decks or --shoe is given; the bank's optimal is then its "
                   "best response)")
@INFORMATION
@click.option("--player", type=CARDS, default=None, help="the player's two cards, e.g. '8h 7s'")
@click.option("--bank", type=CARDS, default=None, help="the bank's two cards, e.g. 'Ac 6d'")
@click.option("--model", type=click.Choice(["A1", "B1", "B2", "B3"], case_sensitive=False),
              default=None, help="chemin de fer: a published model (see lucky9 solve)")
@click.option("--third", default=None, metavar="CARD|stood",
              help="chemin de fer: the player's face-up third card, or stood; with --bank, "
                   "the banker's decision")
@format_option("text", "json")
@reports_errors
def play(**params: Any) -> None:
    """Exact odds of a round when players and bank follow given strategies.

    \b
    Examples:
      lucky9 play --strategy standard-rule --bank-strategy standard-rule
      lucky9 play --decks 8 --strategy draw-below:5 --bank-strategy best-response
      lucky9 play --strategy mine.toml --information totals
      lucky9 play --profile chemin-de-fer --bank '2 3' --third 4
    """
    profile, shoe, given = _game_rules(params)
    fmt, players, model = params["fmt"], params["players"], params["model"]
    if is_chemin(profile, model) or params["third"] is not None:
        d, sol = chemin_decision(profile, game_shoe(shoe, given, model=model), model,
                                 params["player"] or (), params["bank"] or (), params["third"],
                                 players, (params["player_strategy"], params["bank_strategy"]))
        emit(fmt, lambda: decision_data(d, sol), lambda: decision_text(d, sol))
        return
    emit_play(fmt, play_pair(profile, game_shoe(shoe, given, players),
                             params["player_strategy"], params["bank_strategy"],
                             params["information"], players,
                             params["player"] or (), params["bank"] or ()))


family_default(play)


COMMANDS = (solve, play)
