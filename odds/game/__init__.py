"""The family rules as a game: strategies, exact evaluation, the exact LP and solver, tables.

Imports :mod:`odds.rules` and :mod:`odds.exact`; not its siblings
:mod:`odds.money` and :mod:`odds.sim`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from odds.game.chemin import ChemSolution, chemin_game, solve_chemin
    from odds.game.game import Game, GameError, PairResult, build_game, chemin_de_fer
    from odds.game.solve import Equilibrium, solve_game
    from odds.game.table import TableGame, table_game


def __getattr__(name: str) -> Any:
    """A public name, its module imported on first use (PEP 562): ``lucky9 odds`` asks
    :mod:`odds.game.questions` which question a round is, and needs no game builder.

    >>> import odds.game
    >>> odds.game.solve_chemin.__module__
    'odds.game.chemin'
    """
    module: Any
    if name in ("ChemSolution", "chemin_game", "solve_chemin"):
        from odds.game import chemin as module
    elif name in ("Game", "GameError", "PairResult", "build_game", "chemin_de_fer"):
        from odds.game import game as module
    elif name in ("Equilibrium", "solve_game"):
        from odds.game import solve as module
    elif name in ("TableGame", "table_game"):
        from odds.game import table as module
    else:
        raise AttributeError(f"module 'odds.game' has no attribute {name!r}")
    value = getattr(module, name)
    globals()[name] = value
    return value


__all__ = [
    "ChemSolution",
    "Equilibrium",
    "Game",
    "GameError",
    "PairResult",
    "TableGame",
    "build_game",
    "chemin_de_fer",
    "chemin_game",
    "solve_chemin",
    "solve_game",
    "table_game",
]
