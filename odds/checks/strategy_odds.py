"""A log of a game with choices, verified against the strategies its players played.

:func:`odds.sim.verify.verify_file` tests the frequencies of a run against
exact odds; where players or the bank choose, those odds are the strategy
pair's (:mod:`odds.game`), which the verifier is handed as a function of the
run's profile and shoe.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from odds.game.game import build_game
from odds.game.strategy import resolve_pair
from odds.rules.profile import Profile
from odds.rules.settle import plain_amounts
from odds.rules.shoe import Shoe
from odds.sim.stats import StrategyOdds
from odds.sim.verdict import RuleOverrides, StrategyFn, Verification
from odds.sim.verify import verify_file

__all__ = ["strategy_odds", "verify_played"]


def strategy_odds(player_spec: str | None, bank_spec: str | None) -> StrategyFn | None:
    """The exact odds of a strategy pair as a function of the rules (None: no strategy
    named); a side not named plays ``optimal``.

    >>> from odds.rules.profiles import BUILTIN
    >>> odds_of = strategy_odds("standard-rule", "standard-rule")
    >>> r = odds_of(BUILTIN["family"], Shoe.infinite_shoe())
    >>> r.label, r.win - r.loss
    ('player standard-rule, bank standard-rule', Fraction(0, 1))
    >>> strategy_odds(None, None) is None
    True
    """
    if not (player_spec or bank_spec):
        return None
    p_spec, b_spec = player_spec or "optimal", bank_spec or "optimal"

    def odds_of(profile: Profile, shoe: Shoe) -> StrategyOdds:
        game = build_game(profile, shoe, "cards")
        player, bank = resolve_pair(game, p_spec, b_spec)
        r = game.evaluate(player, bank)
        return StrategyOdds(f"player {p_spec}, bank {b_spec}", r.win, r.push, r.loss,
                            r.player_draws, r.bank_draws, plain_amounts(profile))

    return odds_of


def verify_played(path: str | Path, overrides: RuleOverrides | None = None,
                  alpha: float = 0.01, seats: int | None = None,
                  player_spec: str | None = None, bank_spec: str | None = None,
                  **parallel: Any) -> Verification:
    """:func:`odds.sim.verify.verify_file`, the frequencies tested against the exact
    odds of the strategies played where players or the bank choose (``parallel``:
    its jobs, cluster, progress and stop options)."""
    return verify_file(path, overrides, alpha, seats, strategy_odds(player_spec, bank_spec),
                       **parallel)
