"""Exact counts: the engine, its results, conditional odds, effect of removal, the tree.

Imports only :mod:`odds.rules`.  Pure Python integers and fractions; numpy
is imported only by the modules that need it, never from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from odds.exact.bets import BetOdds, bet_odds, bet_removal_effects, slot_round_odds
    from odds.exact.engine import ConditionError, round_odds
    from odds.exact.results import RoundOdds


def __getattr__(name: str) -> Any:
    """A public name, its module imported on first use (PEP 562): the engine alone
    (``lucky9 odds``) does not load the bets' tables.

    >>> import odds.exact
    >>> odds.exact.round_odds.__module__
    'odds.exact.engine'
    """
    module: Any
    if name in ("BetOdds", "bet_odds", "bet_removal_effects", "slot_round_odds"):
        from odds.exact import bets as module
    elif name in ("ConditionError", "round_odds"):
        from odds.exact import engine as module
    elif name == "RoundOdds":
        from odds.exact import results as module
    else:
        raise AttributeError(f"module 'odds.exact' has no attribute {name!r}")
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """Every public name, imported or not."""
    return sorted({*globals(), *__all__})


__all__ = [
    "BetOdds",
    "ConditionError",
    "RoundOdds",
    "bet_odds",
    "bet_removal_effects",
    "round_odds",
    "slot_round_odds",
]
