"""Effect of removal: how one card taken from the shoe moves the odds of every bet.

For each rank, the exact change in the expected value of every bet of the
profile (:func:`odds.exact.shoe_follow.bet_names`: the player seat, banker
and tie where the profile has them, and ``colon``, the part of the seat's EV
its Colon pays contribute) and in the seat's P(win), when one card of that
rank leaves the shoe.  Weighted by the shoe's composition the changes sum to
exactly 0: the shoe's figures are the average over which card comes off the
top.

The shoe and its one-card-less shoes are evaluated in one call of the batch
engine (:mod:`odds.exact.batch`, imported when called: it needs numpy),
equal to :func:`odds.exact.engine.round_odds` on each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from odds.rules.cards import RANKS, Rank
from odds.rules.profiles import Profile
from odds.rules.shoe import Shoe

__all__ = ["Removal", "RemovalEffect", "removal", "removal_effects"]


@dataclass(frozen=True)
class RemovalEffect:
    """The exact change in the figures when one ``rank`` is removed.

    ``ev_change`` and ``win_change`` are the player seat's; ``changes``
    holds the EV change of every bet, in :attr:`Removal.bets` order.
    """

    rank: Rank
    ev_change: Fraction
    win_change: Fraction
    changes: tuple[tuple[str, Fraction], ...] = ()

    def change(self, bet: str) -> Fraction:
        """The EV change of ``bet``."""
        return dict(self.changes)[bet]


@dataclass(frozen=True)
class Removal:
    """The shoe's own figures and the effect of removing each rank it holds."""

    profile: Profile
    shoe: Shoe
    bets: tuple[str, ...]
    expected_values: tuple[tuple[str, Fraction], ...]
    win: Fraction
    effects: tuple[RemovalEffect, ...]

    def expected_value(self, bet: str = "player") -> Fraction:
        """The shoe's EV of ``bet``."""
        return dict(self.expected_values)[bet]


def removal(profile: Profile, shoe: Shoe, side: Sequence[str] = ()) -> Removal:
    """The shoe's EVs and one :class:`RemovalEffect` per rank it still holds, in A..K order.

    ``side``: more bets by name (:func:`odds.rules.bets.resolve_bets`; ``all``:
    every bet of the profile), after the profile's own; a side bet's changes
    come from :func:`odds.exact.bets.bet_removal_effects` (its enumerator, not
    the batch engine's tables; a suited bet averages over the suits left).

    >>> from odds.rules.profiles import BUILTIN
    >>> result = removal(BUILTIN["punto-banco"], Shoe.packs_of(8))
    >>> result.bets, result.effects[4].change("banker") < 0  # the banker bet loves fives
    (('player', 'banker', 'tie'), True)
    >>> removal(BUILTIN["punto-banco"], Shoe.packs_of(8), ["dragon-7"]).bets[-1]
    'dragon-7'
    """
    from odds.exact.batch import rules_table
    from odds.exact.shoe_follow import bet_names, bet_numerators

    if shoe.infinite:
        raise ValueError(
            "removing a card does not change an infinite shoe; give a number of packs"
        )
    if shoe.size < 7:
        raise ValueError(
            f"the shoe holds {shoe.size} cards: removing one must leave the six a round "
            "can need, so give a shoe of 7 cards or more"
        )
    ranks = [rank for rank in RANKS if shoe.counts[rank.index]]
    comps = [list(shoe.counts)]
    for rank in ranks:
        less = list(shoe.counts)
        less[rank.index] -= 1
        comps.append(less)
    batch = rules_table(profile).counts(comps)
    bets = bet_names(profile)
    evs = {}
    for bet in bets:
        num, den = bet_numerators(batch, bet)
        evs[bet] = [Fraction(int(n), den * t) for n, t in zip(num, batch.totals, strict=True)]
    win = batch.probabilities()["win"]
    effects = tuple(
        RemovalEffect(
            rank,
            evs["player"][k] - evs["player"][0],
            win[k] - win[0],
            tuple((bet, evs[bet][k] - evs[bet][0]) for bet in bets),
        )
        for k, rank in enumerate(ranks, start=1)
    )
    base = tuple((bet, evs[bet][0]) for bet in bets)
    if side:
        base, effects = _side_bets(profile, shoe, side, bets, base, effects)
        bets = tuple(name for name, _ in base)
    return Removal(profile, shoe, bets, base, win[0], effects)


def _side_bets(profile: Profile, shoe: Shoe, side: Sequence[str], bets: Sequence[str],
               base: tuple[tuple[str, Fraction], ...], effects: tuple[RemovalEffect, ...]
               ) -> tuple[tuple[tuple[str, Fraction], ...], tuple[RemovalEffect, ...]]:
    """Add the side bets' EVs and changes (bets already there are skipped)."""
    from odds.exact.bets import bet_odds, bet_removal_effects
    from odds.rules.bets import resolve_bets

    for bet in resolve_bets(profile, side):
        if bet.name in bets or bet.name in dict(base):
            continue
        ev = bet_odds(profile, shoe, [bet])[bet.name].expected_value
        changes = dict(bet_removal_effects(profile, bet, shoe))
        base += ((bet.name, ev),)
        effects = tuple(replace(e, changes=(*e.changes, (bet.name, changes[e.rank.value])))
                        for e in effects)
    return base, effects


def removal_effects(profile: Profile, shoe: Shoe) -> tuple[RemovalEffect, ...]:
    """One :class:`RemovalEffect` per rank the shoe still holds, in A..K order.

    >>> from odds.rules.profiles import BUILTIN
    >>> effects = removal_effects(BUILTIN["plain"], Shoe.packs_of(1))
    >>> sum(e.ev_change for e in effects)
    Fraction(0, 1)
    """
    return removal(profile, shoe).effects
