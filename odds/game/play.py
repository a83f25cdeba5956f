"""Play a strategy pair: heads-up exactly, or one seat at a table of N players.

What ``lucky9 play`` (and ``odds``/``solve`` on the family rules) compute,
before any rendering: :func:`play` resolves the strategy specifications,
evaluates them, and returns a :class:`HeadsUp` or a :class:`AtTable`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from odds.game.game import Game, GameError, Hand, PairResult, TableSet, build_game
from odds.game.strategy import named_strategy, resolve_pair
from odds.game.table import TableGame, table_game
from odds.game.table_finite import FiniteTable
from odds.rules.cards import Card
from odds.rules.profile import Profile
from odds.rules.shoe import Shoe

__all__ = ["AtTable", "HeadsUp", "play"]


@dataclass(frozen=True)
class HeadsUp:
    """A strategy pair evaluated heads-up."""

    game: Game
    result: PairResult
    specs: tuple[str, str]
    strategies: tuple[Mapping[Any, Fraction], Mapping[Any, Fraction]]


@dataclass(frozen=True)
class AtTable:
    """One seat at a table of N players, the others playing the same strategy."""

    table: TableGame | FiniteTable
    players: Mapping[Hand, Fraction]
    spec: str
    bank_spec: str
    bank: Mapping[TableSet, Fraction]
    seat: PairResult
    response: Mapping[Hand, Fraction]
    response_ev: Fraction


def play(profile: Profile, shoe: Shoe, player_spec: str, bank_spec: str,
         information: str = "cards", players: int = 1,
         player_cards: tuple[Card, ...] = (), bank_cards: tuple[Card, ...] = ()) -> HeadsUp | AtTable:
    """Evaluate a (player strategy, bank strategy) pair exactly.

    >>> from odds import BUILTIN
    >>> r = play(BUILTIN["family"], Shoe.infinite_shoe(), "standard-rule", "standard-rule")
    >>> r.result.expected_value
    Fraction(0, 1)
    """
    if players > 1:
        if player_cards or bank_cards:
            raise GameError("--player/--bank cards are for heads-up play (--players 1)")
        if player_spec.strip().lower() == "best-response":
            raise GameError(
                "at a table the players' strategy is a name or a file; one seat's best "
                "response to the bank and the others is printed with it")
        table = table_game(profile, players, information, shoe)
        own, _ = resolve_pair(table.game, player_spec, "never")
        spec = bank_spec.strip().lower()
        # At a table nothing is zero-sum between two sides: the bank's best
        # play against the players' strategy is its best response.
        if spec in ("best-response", "optimal"):
            bank_spec = "best-response"
            bank, _ = table.bank_best_response(own)
        else:
            rule = named_strategy(bank_spec, table.game, "bank")
            if rule is None:
                raise GameError(
                    f"at a table the bank strategy is a rule of thumb or best-response, "
                    f"not {bank_spec!r}")
            bank = {(h, k, n): rule[h, "stood"] for h, k, n in table.bank_sets}
        seat = table.seat_result(own, own, bank)
        response, response_ev = table.player_best_response(own, bank)
        return AtTable(table, own, player_spec, bank_spec, bank, seat, response, response_ev)
    game = build_game(profile, shoe, information, player_cards=player_cards, bank_cards=bank_cards)
    pair = resolve_pair(game, player_spec, bank_spec)
    return HeadsUp(game, game.evaluate(*pair), (player_spec, bank_spec), pair)
