"""The game layer's error: a game that cannot be built, a question it cannot answer.

Its own module, so that deciding which question a round is (:mod:`odds.game.questions`)
imports no game builder.
"""

from __future__ import annotations

__all__ = ["GameError"]


class GameError(ValueError):
    """A game that cannot be built or a strategy that does not fit it."""
