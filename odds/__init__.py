"""lucky9-odds: exact odds of Lucky 9 and its baccarat relatives.

The package is cut by capability (see docs/architecture.md): ``rules``,
``exact``, ``money``, ``game``, ``sim`` and ``report``; this page re-exports
the public face.

>>> from odds import BUILTIN, Shoe, round_odds
>>> round_odds(BUILTIN["standard"], Shoe.packs_of(8)).player_colon
Fraction(31, 415)
"""

from odds.exact import (
    BetOdds,
    ConditionError,
    RoundOdds,
    bet_odds,
    bet_removal_effects,
    round_odds,
    slot_round_odds,
)
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
from odds.rules import (
    BETS,
    BUILTIN,
    OPTIONS,
    RANKS,
    Bet,
    BetError,
    BonusOn,
    Card,
    ColonMatch,
    DrawRule,
    Naturals,
    Outcome,
    Pay,
    Profile,
    ProfileError,
    Rank,
    Shoe,
    Suit,
    bet_payout,
    get_profile,
    hand_value,
    load_profile,
    parse_card,
    parse_cards,
    parse_shoe,
    profile_bets,
    resolve_profile,
)

__version__ = "0.1.0"

__all__ = [
    "BETS",
    "BUILTIN",
    "OPTIONS",
    "RANKS",
    "Bet",
    "BetError",
    "BetOdds",
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
    "bet_odds",
    "bet_payout",
    "bet_removal_effects",
    "build_game",
    "chemin_de_fer",
    "get_profile",
    "hand_value",
    "load_profile",
    "parse_card",
    "parse_cards",
    "parse_shoe",
    "profile_bets",
    "resolve_profile",
    "round_odds",
    "slot_round_odds",
    "solve_game",
    "table_game",
]
