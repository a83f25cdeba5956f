"""Checks that need several engines: a simulator's log of a game with choices.

Above :mod:`odds.sim` and :mod:`odds.game` (the verifier does not import the
game; a check of strategies needs both), below :mod:`odds.report`.
"""

from odds.checks.strategy_odds import strategy_odds, verify_played

__all__ = ["strategy_odds", "verify_played"]
