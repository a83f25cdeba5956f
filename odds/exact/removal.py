"""Effect of removal: how one card taken from the shoe moves the odds of every bet.

For each rank, the exact change in the expected value of every bet asked
for (by default every bet of the profile, and ``colon-share``, the part of
the seat's EV its Colon pays contribute, where it pays them) and in the
seat's P(win), when one card of that rank leaves the shoe.  Weighted by the
shoe's composition the changes sum to exactly 0: the shoe's figures are the
average over which card comes off the top.

The shoe and its one-card-less shoes are evaluated in one call of the batch
engine (:mod:`odds.exact.batch` and :mod:`odds.exact.bet_table`, imported
when called: they need numpy), equal to :func:`odds.exact.engine.round_odds`
and :func:`odds.exact.bets.bet_odds` on each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from odds.rules.bet_types import Bet
from odds.rules.cards import RANKS, Rank
from odds.rules.profile import Profile
from odds.rules.profiles import as_profile
from odds.rules.shoe import Shoe, as_shoe

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


def removal(profile: Profile, shoe: Shoe, bets: Sequence[str | Bet] = ("all",)) -> Removal:
    """The shoe's EVs and one :class:`RemovalEffect` per rank it still holds, in A..K order.

    ``bets``: the bets by name or as :class:`Bet` values (``all``: every bet of
    the profile, with ``colon-share`` where it pays Colon bonuses; see
    :func:`odds.exact.bet_table.bet_set`).  Every bet goes through the batch
    engine; a bet on suited pairs is exact given the ranks seen (the suit of
    the card removed unseen), unless the shoe's own removed cards have known
    suits: then such a bet's effects come from its event enumerator
    (:func:`odds.exact.bets.bet_removal_effects`, averaging over the suits left).

    >>> from odds.rules.profiles import BUILTIN
    >>> result = removal(BUILTIN["punto-banco"], Shoe.packs_of(8), ["player", "banker", "tie"])
    >>> result.bets, result.effects[4].change("banker") < 0  # the banker bet loves fives
    (('player', 'banker', 'tie'), True)
    >>> removal(BUILTIN["ez-baccarat"], Shoe.packs_of(8)).bets
    ('player', 'ez-banker', 'tie', 'dragon-7', 'panda-8')
    """
    from odds.exact.batch import rules_table
    from odds.exact.bet_table import bet_set

    if shoe.infinite:
        raise ValueError(
            "removing a card does not change an infinite shoe; give a number of packs"
        )
    if shoe.size < 7:
        raise ValueError(
            f"the shoe holds {shoe.size} cards: removing one must leave the six a round "
            "can need, so give a shoe of 7 cards or more"
        )
    chosen = bet_set(profile, bets, suits=shoe.packs is not None)
    ranks = [rank for rank in RANKS if shoe.counts[rank.index]]
    comps = [list(shoe.counts)]
    for rank in ranks:
        less = list(shoe.counts)
        less[rank.index] -= 1
        comps.append(less)
    win = rules_table(profile).counts(comps).probabilities()["win"]
    evs = chosen.exact_evs(chosen.table().counts(comps, packs=shoe.packs))
    names = chosen.names
    known = chosen.uses_suits and shoe.packs is not None and any(shoe.taken) and all(
        sum(shoe.taken[4 * r:4 * r + 4]) == 4 * shoe.packs - shoe.counts[r] for r in range(13))
    if known:  # the suits left are known: the enumerator splits them exactly
        from odds.exact.bets import bet_odds, bet_removal_effects

        for bet in chosen.bets:
            if bet.uses_suits:
                changes = dict(bet_removal_effects(profile, bet, shoe))
                ev = bet_odds(profile, shoe, [bet])[bet.name].expected_value
                evs[bet.name] = [ev] + [ev + changes[rank.value] for rank in ranks]
    effects = tuple(
        RemovalEffect(
            rank,
            (evs["player"][k] - evs["player"][0]) if "player" in evs else Fraction(0),
            win[k] - win[0],
            tuple((bet, evs[bet][k] - evs[bet][0]) for bet in names),
        )
        for k, rank in enumerate(ranks, start=1)
    )
    base = tuple((bet, evs[bet][0]) for bet in names)
    return Removal(profile, shoe, names, base, win[0], effects)


def removal_effects(profile: Profile | str,
                    shoe: Shoe | int | str | None = None) -> tuple[RemovalEffect, ...]:
    """One :class:`RemovalEffect` per rank the shoe still holds, in A..K order.

    >>> from odds.rules.profiles import BUILTIN
    >>> effects = removal_effects(BUILTIN["plain"], Shoe.packs_of(1))
    >>> sum(e.ev_change for e in effects)
    Fraction(0, 1)
    """
    profile = as_profile(profile)
    return removal(profile, as_shoe(shoe, profile.decks)).effects
