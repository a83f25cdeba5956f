"""Exact counts: the engine, its results, conditional odds, effect of removal, the tree.

Imports only :mod:`odds.rules`.  Pure Python integers and fractions; numpy
is imported only by the modules that need it, never from here.
"""

from odds.exact.engine import ConditionError, round_odds
from odds.exact.results import RoundOdds

__all__ = ["ConditionError", "RoundOdds", "round_odds"]
