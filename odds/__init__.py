"""lucky9-odds: exact odds of Lucky 9 and its baccarat relatives.

The package is cut by capability (see docs/architecture.md): ``rules``,
``exact``, ``money``, ``game``, ``sim`` and ``report``; this page re-exports
the public face.

>>> from odds import BUILTIN, Shoe, round_odds
>>> round_odds(BUILTIN["standard"], Shoe.packs_of(8)).player_colon
Fraction(31, 415)
"""

from odds.exact import ConditionError, RoundOdds, round_odds
from odds.game import (
    Equilibrium,
    Game,
    GameError,
    PairResult,
    TableGame,
    build_game,
    chemin_de_fer,
    solve_game,
    table_game,
)
from odds.money import BankRound, BankStudy, bank_round, bank_study
from odds.rules import (
    BUILTIN,
    OPTIONS,
    RANKS,
    BonusOn,
    CapRule,
    Card,
    ColonMatch,
    DrawRule,
    Naturals,
    Outcome,
    Pay,
    Profile,
    ProfileError,
    Rank,
    Rotation,
    Session,
    Shoe,
    Suit,
    get_profile,
    hand_value,
    load_profile,
    parse_card,
    parse_cards,
    parse_shoe,
    resolve_profile,
)

__version__ = "0.1.0"

__all__ = [
    "BUILTIN",
    "OPTIONS",
    "RANKS",
    "BankRound",
    "BankStudy",
    "BonusOn",
    "CapRule",
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
    "Rotation",
    "Session",
    "Shoe",
    "Suit",
    "TableGame",
    "bank_round",
    "bank_study",
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
