"""Following a dealt shoe: the exact odds before every round, given every card seen.

Before round k the shoe holds the starting shoe less every card of rounds
1..k-1.  All those compositions are evaluated in one call of the batch engine
(:mod:`odds.exact.batch`), so a whole 8-pack shoe costs about one matrix
product.

**The bets.**  ``player`` (the seat, with its Colon pays), ``banker`` and
``tie`` where the profile has them, as :attr:`BatchCounts.bets`; and, in a
profile that pays Colon bonuses, ``colon``: **the part of the player seat's EV
that the Colon pay entries contribute**, that is the seat's EV less the EV
of the same seat settled as a plain win / push / loss (a Colon that wins
paid 1, not its multiplier; a bank Colon that beats the seat collecting 1).
It is not a wager one can place alone; it says how much of the seat's EV is
the bonus, and how the shoe moves it.  Its amounts per summary column are
built here (:func:`bet_amounts`), on the batch engine's public
``summary`` and ``summary_keys``.

>>> from odds.rules.profiles import BUILTIN
>>> from odds.rules.shoe import Shoe
>>> from odds.rules.cards import parse_cards
>>> from odds.exact.engine import round_odds
>>> from odds.exact.rounds import split_rounds
>>> shoe = Shoe.packs_of(1)
>>> follow = follow_shoe(BUILTIN["standard"], shoe, split_rounds(BUILTIN["standard"],
...                      parse_cards("9 2 9 6 10 5 K K 3 4")))
>>> follow.bets, follow.evs["player"][0] == round_odds(BUILTIN["standard"], shoe).expected_value
(('player', 'colon'), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from odds.exact.batch import BatchCounts, RulesTable, over_common_denominator, rules_table
from odds.exact.results import profile_bets
from odds.exact.rounds import Round, check_dealable
from odds.rules.profiles import Profile
from odds.rules.settle import Outcome, bet_amount
from odds.rules.shoe import Shoe

__all__ = [
    "ShoeFollow",
    "bet_amounts",
    "bet_names",
    "bet_numerators",
    "expected_values",
    "follow_shoe",
]


def bet_names(profile: Profile) -> tuple[str, ...]:
    """The bets of a profile: player, banker and tie where it has them, colon where it pays one.

    >>> from odds.rules.profiles import BUILTIN
    >>> bet_names(BUILTIN["standard"]), bet_names(BUILTIN["punto-banco"])
    (('player', 'colon'), ('player', 'banker', 'tie'))
    """
    return profile_bets(profile) + (("colon",) if profile.bonuses else ())


def bet_amounts(table: RulesTable, bet: str) -> list[Fraction]:
    """The net result of ``bet`` per unit stake, per column of ``table.summary_keys``.

    >>> from odds.rules.profiles import BUILTIN
    >>> table = rules_table(BUILTIN["standard"])
    >>> sorted(set(bet_amounts(table, "colon")))
    [Fraction(0, 1), Fraction(1, 1), Fraction(2, 1)]
    """
    return _amounts(table.profile, table.summary_keys, bet)


def _amounts(profile: Profile, summary_keys: tuple[tuple[int, int, str], ...], bet: str
             ) -> list[Fraction]:
    if bet not in bet_names(profile):
        raise ValueError(
            f"{bet!r} is not a bet of profile {profile.key!r} "
            f"(bets: {', '.join(bet_names(profile))})")
    plain = {Outcome.WIN: profile.win, Outcome.PUSH: Fraction(0), Outcome.LOSS: Fraction(-1)}
    out = []
    for pcol, bcol, cat in summary_keys:
        outcome = Outcome(cat.split("_")[0])
        if bet == "colon":
            out.append(bet_amount(profile, "player", outcome, pcol, bcol) - plain[outcome])
        else:
            out.append(bet_amount(profile, bet, outcome, pcol, bcol))
    return out


@lru_cache(maxsize=16)
def _scaled_amounts(profile: Profile, summary_keys: tuple[tuple[int, int, str], ...], bet: str
                    ) -> tuple[list[int], int]:
    """Integer amounts per summary column and their common denominator (once per rules).

    Keyed by what the amounts depend on, never by a table: keyed by tables,
    this cache kept up to 16 of them (15 MB each) alive.
    """
    return over_common_denominator(_amounts(profile, summary_keys, bet))


def bet_numerators(batch: BatchCounts, bet: str) -> tuple[np.ndarray, int]:
    """As :meth:`BatchCounts.ev_numerators`, for every bet of :func:`bet_names` (colon too).

    ``EV_i == Fraction(int(num[i]), den * batch.totals[i])``.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.exact.batch import batch_counts
    >>> batch = batch_counts(BUILTIN["standard"], [[4] * 13])
    >>> num, den = bet_numerators(batch, "colon")
    >>> Fraction(int(num[0]), den * batch.totals[0]) > 0
    True
    """
    if bet != "colon":
        return batch.ev_numerators(bet)
    scaled, den = _scaled_amounts(batch.table.profile, batch.table.summary_keys, bet)
    return batch.weighted_sums(scaled), den


def expected_values(batch: BatchCounts, bet: str) -> list[Fraction]:
    """Exact EV of ``bet`` per composition of the batch."""
    num, den = bet_numerators(batch, bet)
    return [Fraction(int(n), den * t) for n, t in zip(num, batch.totals, strict=True)]


@dataclass(frozen=True)
class ShoeFollow:
    """A followed shoe: per round, the shoe before it and its exact odds.

    ``compositions[k]`` is the shoe before round k+1 (then one more: the
    shoe after the last round); ``evs[bet][k]`` and ``probabilities[name][k]``
    (player seat ``win``, ``push``, ``loss``; ``colon``, ``colon_nine``) are
    exact, for those compositions.
    """

    profile: Profile
    shoe: Shoe
    rounds: tuple[Round, ...]
    compositions: tuple[tuple[int, ...], ...]
    bets: tuple[str, ...]
    evs: dict[str, list[Fraction]]
    probabilities: dict[str, list[Fraction]]


def follow_shoe(profile: Profile, shoe: Shoe, rounds: Sequence[Round]) -> ShoeFollow:
    """The exact odds of every bet before each round, and after the last.

    The shoe after the last round is evaluated too when it can still deal a
    round (six cards); otherwise the last entry has no odds.
    """
    check_dealable(shoe, [c for r in rounds for c in r.cards])
    counts = list(shoe.counts)
    comps = [tuple(counts)]
    for r in rounds:
        for card in r.cards:
            counts[card.rank.index] -= 1
        comps.append(tuple(counts))
    evaluable = comps if sum(comps[-1]) >= 6 else comps[:-1]
    batch = rules_table(profile).counts([list(c) for c in evaluable])
    bets = bet_names(profile)
    evs = {bet: expected_values(batch, bet) for bet in bets}
    probs = batch.probabilities()
    return ShoeFollow(profile, shoe, tuple(rounds), tuple(comps), bets, evs, probs)
