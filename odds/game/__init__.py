"""The family rules as a game: strategies, exact evaluation, the exact LP and solver, tables.

Imports :mod:`odds.rules` and :mod:`odds.exact`; not its siblings
:mod:`odds.money` and :mod:`odds.sim`.
"""

from odds.game.chemin import ChemSolution, chemin_game, solve_chemin
from odds.game.game import Game, GameError, PairResult, build_game, chemin_de_fer
from odds.game.solve import Equilibrium, solve_game
from odds.game.table_game import TableGame, table_game

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
