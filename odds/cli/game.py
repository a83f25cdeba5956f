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
from odds.rules import Card, Profile, Shoe, parse_cards
from odds.rules.textio import excerpt


def _game_rules(params: dict[str, Any]) -> tuple[Profile, Shoe, bool]:
    """resolve_rules, and True if --decks or --shoe was given."""
    given = params.get("decks") is not None or params.get("shoe") is not None
    profile, shoe = resolve_rules(params)
    return profile, shoe, given


def play_round(profile: Profile, shoe: Shoe, player_spec: str, bank_spec: str,
               information: str, players: int, fmt: str,
               player_cards: tuple[Card, ...] = (), bank_cards: tuple[Card, ...] = ()) -> None:
    """Evaluate a (player strategy, bank strategy) pair exactly and print it."""
    from odds.game.play import play
    from odds.report.game_report import play_data, play_text

    result = play(profile, shoe, player_spec, bank_spec, information, players,
                  player_cards, bank_cards)
    emit(fmt, lambda: play_data(result),
         lambda: play_text(result))


@command()
@rule_options_without(*BONUS_FLAGS)
@click.option("--players", type=IntRange(1, 8), default=1, show_default=True,
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
    from odds.game.game import build_game
    from odds.game.solve import solve_game
    from odds.report.game_report import solve_data, solve_text

    profile, shoe, given = _game_rules(params)
    if _is_chemin(profile, params):
        if not given and (params.get("model") or "").upper() == "A1":
            shoe = Shoe.infinite_shoe()  # Kemeny and Snell's model deals with replacement
        _solve_chemin(profile, shoe, params)
        return
    players = params["players"]
    if players > 1:
        if not given:
            shoe = Shoe.infinite_shoe()
        play_round(profile, shoe, params["strategy"], "best-response",
                   params["information"], players, params["fmt"])
        return
    eq = solve_game(build_game(profile, shoe, params["information"]))
    emit(params["fmt"], lambda: solve_data(eq),
         lambda: solve_text(eq))


family_default(solve)


def _is_chemin(profile: Profile, params: dict[str, Any]) -> bool:
    """Chemin de fer: a model is asked for, or the player chooses on some totals only."""
    rule = profile.player_draw
    if params.get("model") or params.get("commission") is not None or params.get("removed"):
        return True
    return rule is not None and bool(rule.choose)


def _solve_chemin(profile: Profile, shoe: Shoe, params: dict[str, Any]) -> None:
    from odds.game.chemin import chemin_game, parse_commission, solve_chemin
    from odds.report.chemin_report import chemin_data, chemin_text

    if params["players"] > 1:
        raise click.UsageError("chemin de fer is heads-up: the banker against one player")
    commission = parse_commission(params["commission"] or 0)
    model = params["model"].upper() if params["model"] else None
    if params["information"] == "totals":
        if model:
            raise click.UsageError("--model says what each side sees: leave --information out")
        profile = profile.with_options(player_sees="total", bank_sees="total")
    if params.get("removed"):
        shoe = shoe.without(params["removed"])
    sol = solve_chemin(chemin_game(profile, shoe, model), commission, model)
    emit(params["fmt"], lambda: chemin_data(sol), lambda: chemin_text(sol))


@command()
@rule_options_without(*BONUS_FLAGS)
@click.option("--strategy", "player_strategy", default="optimal", show_default=True,
              help="player strategy: standard-rule, never, always, draw-below:K, optimal, "
                   "best-response, or a .toml/.json file")
@click.option("--bank-strategy", default="optimal", show_default=True,
              help="bank strategy: the same names, or a file")
@click.option("--players", type=IntRange(1, 8), default=1, show_default=True,
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
    if params["model"] or params["third"] is not None or (
            profile.player_draw is not None and profile.player_draw.choose):
        if not given and (params["model"] or "").upper() == "A1":
            shoe = Shoe.infinite_shoe()  # Kemeny and Snell's model deals with replacement
        _play_chemin(profile, shoe, params)
        return
    if params["players"] > 1 and not given:
        shoe = Shoe.infinite_shoe()
    play_round(profile, shoe, params["player_strategy"], params["bank_strategy"],
               params["information"], params["players"], params["fmt"],
               params["player"] or (), params["bank"] or ())


family_default(play)


def _play_chemin(profile: Profile, shoe: Shoe, params: dict[str, Any]) -> None:
    """One chemin de fer decision, the other side playing its equilibrium strategy."""
    from odds.game.chemin import chemin_game, decision, hand_of, solve_chemin
    from odds.game.game import third_label
    from odds.report.chemin_report import decision_data, decision_text

    if params["players"] > 1:
        raise click.UsageError("chemin de fer is heads-up: the banker against one player")
    if params["player_strategy"] != "optimal" or params["bank_strategy"] != "optimal":
        raise click.UsageError("a chemin de fer decision is answered against the other side's "
                               "equilibrium strategy: leave --strategy and --bank-strategy out")
    player, bank, third = params["player"], params["bank"], params["third"]
    if bool(player) == bool(bank):
        raise click.UsageError("give the banker's two cards with --bank and --third CARD|stood, "
                               "or the player's two cards with --player (one decision)")
    for cards, who in ((player, "player"), (bank, "banker")):
        if cards and len(cards) != 2:
            raise click.UsageError(f"give the {who}'s two cards, not {len(cards)}")
    x: int | None = None
    if bank:
        if third is None:
            raise click.UsageError("give the player's third card with --third CARD, "
                                   "or --third stood")
        if third.strip().lower() != "stood":
            card = parse_cards(third)
            if len(card) != 1:
                raise click.UsageError(f"--third takes one card or stood, not {excerpt(third)}")
            x = card[0].points
    elif third is not None:
        raise click.UsageError("--third goes with --bank: the banker decides after the player")
    model = params["model"].upper() if params["model"] else None
    game = chemin_game(profile, shoe, model)
    sol = solve_chemin(game, 0, model)
    eq = sol.equilibria[0]
    # Under a model where a side sees its cards, its information set is its two
    # cards, so the EVs below are exactly those given the cards held.
    if bank:
        where: Any = (hand_of(bank, game.bank_information or game.information), third_label(x))
        if where not in game.bank_sets:
            raise click.UsageError("this situation cannot arise: a hand is a natural, the "
                                   "player could not have done that, or the shoe lacks the cards")
        d = decision(game, eq.player, eq.bank, "bank", where)
    else:
        where = hand_of(player, game.information)
        if where not in game.player_sets:
            raise click.UsageError("this situation cannot arise: a natural stops every draw, "
                                   "or the shoe lacks the cards")
        d = decision(game, eq.player, eq.bank, "player", where)
    emit(params["fmt"], lambda: decision_data(d, sol), lambda: decision_text(d, sol))


COMMANDS = (solve, play)
