"""Exact counts: the engine, its results, conditional odds, effect of removal, the tree.

Imports only :mod:`odds.rules`.  Pure Python integers and fractions; numpy
is imported only by the modules that need it, never from here.
"""

from odds.exact.bets import BetOdds, bet_odds, bet_removal_effects, slot_round_odds
from odds.exact.engine import ConditionError, round_odds
from odds.exact.results import RoundOdds

__all__ = [
    "BetOdds",
    "ConditionError",
    "RoundOdds",
    "bet_odds",
    "bet_removal_effects",
    "round_odds",
    "slot_round_odds",
]
