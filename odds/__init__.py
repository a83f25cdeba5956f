"""lucky9-odds: exact odds of Lucky 9 and its baccarat relatives.

>>> from odds import BUILTIN, Shoe, round_odds
>>> round_odds(BUILTIN["standard"], Shoe.packs_of(8)).player_colon
Fraction(31, 415)
"""

from odds.cards import RANKS, Card, Rank, Suit, hand_value, parse_card, parse_cards
from odds.engine import ConditionError, round_odds
from odds.game import Game, GameError, PairResult, build_game, chemin_de_fer
from odds.profiles import (
    BUILTIN,
    OPTIONS,
    BonusOn,
    ColonMatch,
    DrawRule,
    Naturals,
    Profile,
    ProfileError,
    get_profile,
    load_profile,
    resolve_profile,
)
from odds.results import RoundOdds
from odds.settle import Outcome, Pay
from odds.shoe import Shoe, parse_shoe
from odds.solve import Equilibrium, solve_game
from odds.table_game import TableGame, table_game

__version__ = "0.1.0"

__all__ = [
    "BUILTIN",
    "OPTIONS",
    "RANKS",
    "BonusOn",
    "Card",
    "ColonMatch",
    "ConditionError",
    "DrawRule",
    "Equilibrium",
    "Game",
    "GameError",
    "Naturals",
    "Outcome",
    "PairResult",
    "Pay",
    "Profile",
    "ProfileError",
    "Rank",
    "RoundOdds",
    "Shoe",
    "Suit",
    "TableGame",
    "build_game",
    "chemin_de_fer",
    "get_profile",
    "hand_value",
    "load_profile",
    "parse_card",
    "parse_cards",
    "parse_shoe",
    "resolve_profile",
    "round_odds",
    "solve_game",
    "table_game",
]
