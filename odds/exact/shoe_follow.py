"""Following a dealt shoe: the exact odds before every round, given every card seen.

Before round k the shoe holds the starting shoe less every card of rounds
1..k-1.  All those compositions are evaluated in one call of the batch engine
(:mod:`odds.exact.batch` for the seat's probabilities,
:mod:`odds.exact.bet_table` for the bets), so a whole 8-pack shoe costs about
one matrix product.

**The bets.**  Any bets (:func:`odds.exact.bet_table.bet_set`; by default every
bet of the profile, as :func:`odds.rules.bets.profile_bets` lists them), and,
in a profile that pays Colon bonuses, ``colon-share``: **the part of the
player seat's EV that the Colon pay entries contribute**, that is the seat's
EV less the EV of the same seat settled as a plain win / push / loss.  It is
not a wager one can place alone (the ``colon`` side bet is one); it says how
much of the seat's EV is the bonus, and how the shoe moves it.

**Suits.**  A bet on suited pairs is exact given the ranks seen
(:mod:`odds.exact.bet_table`) when the record's cards have no suits; when
every card of the record has its suit, the suits left are known, and such a
bet's odds before each round come from the event enumerator
(:func:`odds.exact.bets.bet_odds`), which counts them (``suits`` says which).

>>> from odds.rules.profiles import BUILTIN
>>> from odds.rules.shoe import Shoe
>>> from odds.rules.cards import parse_cards
>>> from odds.exact.engine import round_odds
>>> from odds.exact.rounds import split_rounds
>>> shoe = Shoe.packs_of(1)
>>> follow = follow_shoe(BUILTIN["standard"], shoe, split_rounds(BUILTIN["standard"],
...                      parse_cards("9 2 9 6 10 5 K K 3 4")))
>>> follow.bets, follow.evs["player"][0] == round_odds(BUILTIN["standard"], shoe).expected_value
(('player', 'colon', 'colon-nine', 'colon-share'), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from odds.exact.batch import rules_table
from odds.exact.bet_table import COLON_SHARE, BetSet, bet_set
from odds.exact.rounds import Round, check_dealable, read_cards, record_rounds
from odds.rules.bets import Bet
from odds.rules.profiles import Profile, as_profile
from odds.rules.shoe import Shoe, as_shoe

__all__ = ["COLON_SHARE", "ShoeFollow", "bet_names", "follow_shoe"]


def bet_names(profile: Profile) -> tuple[str, ...]:
    """What the shoe commands report by default: every bet of the profile, then
    ``colon-share`` where it pays Colon bonuses.

    >>> from odds.rules.profiles import BUILTIN
    >>> bet_names(BUILTIN["ez-baccarat"])
    ('player', 'ez-banker', 'tie', 'dragon-7', 'panda-8')
    """
    return bet_set(profile).names


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
    suits: str = "none"  # "none" (no bet on suits), "unseen" (exact given ranks), "known"


def follow_shoe(profile: Profile | str, shoe: Shoe | int | str | None,
                rounds: Sequence[Round] | str,
                bets: Sequence[str | Bet] = ("all",)) -> ShoeFollow:
    """The exact odds of every bet before each round, and after the last.

    The shoe after the last round is evaluated too when it can still deal a
    round (six cards); otherwise the last entry has no odds.  ``rounds`` are
    :class:`Round` values or a dealer's record as text (see
    :func:`odds.exact.rounds.read_cards`).

    >>> follow = follow_shoe("standard", 1, "9h 2c 9d 6s")  # one round: a 9-2 push
    >>> follow.evs["player"]  # the seat's EV before it, and after
    [Fraction(1041476, 38172225), Fraction(1603931, 69027255)]
    """
    profile = as_profile(profile)
    shoe = as_shoe(shoe, profile.decks)
    if isinstance(rounds, str):
        rounds = record_rounds(profile, shoe, read_cards(rounds))
    chosen = bet_set(profile, bets, suits=shoe.packs is not None or shoe.infinite)
    check_dealable(shoe, [c for r in rounds for c in r.cards])
    counts = list(shoe.counts)
    comps = [tuple(counts)]
    for r in rounds:
        for card in r.cards:
            counts[card.rank.index] -= 1
        comps.append(tuple(counts))
    evaluable = comps if sum(comps[-1]) >= 6 else comps[:-1]
    batch = rules_table(profile).counts([list(c) for c in evaluable], infinite=shoe.infinite)
    probs = batch.probabilities()
    suits = "none"
    if chosen.uses_suits:
        cards = [c for r in rounds for c in r.cards]
        suits = "known" if shoe.packs is not None and all(c.suit is not None for c in cards) \
            and cards else "unseen"
    evs = _evs(profile, shoe, rounds, chosen, evaluable, suits)
    return ShoeFollow(profile, shoe, tuple(rounds), tuple(comps), chosen.names, evs, probs, suits)


def _evs(profile: Profile, shoe: Shoe, rounds: Sequence[Round], chosen: BetSet,
         evaluable: list[tuple[int, ...]], suits: str) -> dict[str, list[Fraction]]:
    counted = chosen.table().counts([list(c) for c in evaluable], infinite=shoe.infinite,
                                    packs=shoe.packs)
    evs = chosen.exact_evs(counted)
    if suits == "known":
        from odds.exact.bets import bet_odds

        suited = [b for b in chosen.bets if b.uses_suits]
        left = shoe
        for k in range(len(evaluable)):
            odds = bet_odds(profile, left, suited)
            for bet in suited:
                evs[bet.name][k] = odds[bet.name].expected_value
            if k < len(rounds):
                left = left.without(list(rounds[k].cards), "cards dealt")
    return evs
