"""The exact odds of any bet on one round, and of a round given cards by slot.

The deals come from the event enumerator (:mod:`odds.exact.events`: counts
of ordered six-card deals by both hands' two-card values, pairs and third
cards, with known cards by hand or by slot); here they are summed by settled
round and each bet's pay table is read once per round.  Counts are
integers; a bet's payout distribution divides once.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from odds.exact.engine import ConditionError
from odds.exact.events import (
    colon_of_code,
    event_counts,
    joint_counts,
    pair_of_code,
    parse_slot,
    prepare_deal,
    round_events,
    suits_left,
)
from odds.exact.results import RoundOdds, mean_and_variance
from odds.rules.bet_library import resolve_bets
from odds.rules.bet_types import Bet, Pair, RoundEvents
from odds.rules.cards import RANKS, Card, Suit
from odds.rules.errors import BetError
from odds.rules.profile import Profile
from odds.rules.profiles import as_profile
from odds.rules.settle import category
from odds.rules.shoe import Shoe, as_shoe

__all__ = [
    "BetOdds",
    "bet_odds",
    "bet_removal_effects",
    "odds_and_bets",
    "parse_slot",
    "slot_round_odds",
]


@dataclass(frozen=True)
class BetOdds:
    """The exact odds of one bet: counts of deals by pay-table entry.

    ``entry_counts[i]`` counts the deals settled by ``bet.entries[i]``; the
    last item counts those no entry pays (``bet.otherwise``).
    """

    bet: Bet
    total: int
    entry_counts: tuple[int, ...]

    def payout_distribution(self) -> dict[Fraction, Fraction]:
        """The net payout per unit stake, by amount (highest first)."""
        amounts: dict[Fraction, int] = defaultdict(int)
        pays = [e.pays for e in self.bet.entries] + [self.bet.otherwise]
        for amount, count in zip(pays, self.entry_counts, strict=True):
            if count:
                amounts[amount] += count
        return {a: Fraction(c, self.total) for a, c in sorted(amounts.items(), reverse=True)}

    @property
    def expected_value(self) -> Fraction:
        """The bet's expected net payout per unit stake (minus the house edge)."""
        return mean_and_variance(self.payout_distribution())[0]

    @property
    def variance(self) -> Fraction:
        """The variance of the net payout per unit stake."""
        return mean_and_variance(self.payout_distribution())[1]

    def entries(self) -> list[tuple[str, Fraction, Fraction, Fraction | None]]:
        """(entry, pays, probability, break-even pay) per pay-table line, then otherwise.

        The break-even pay of a line makes the bet's EV exactly 0 with the
        other lines as they are (None when the line never happens).
        """
        ev = self.expected_value
        rows: list[tuple[str, Fraction, Fraction, Fraction | None]] = []
        lines = [(e.name, e.pays) for e in self.bet.entries] + [("otherwise", self.bet.otherwise)]
        for (name, pays), count in zip(lines, self.entry_counts, strict=True):
            p = Fraction(count, self.total)
            rows.append((name, pays, p, pays - ev / p if p else None))
        return rows


def bet_odds(
    profile: Profile | str,
    shoe: Shoe | int | str | None = None,
    bets: Iterable[str | Bet] = ("all",),
    *,
    player: Iterable[str | Card] | str = (),
    bank: Iterable[str | Card] | str = (),
    removed: Iterable[str | Card] | str = (),
    slots: Iterable[tuple[int, Card] | str] = (),
) -> dict[str, BetOdds]:
    """The exact odds of bets on one round, by bet name.

    ``bets`` are names (``all``: the profile's bets) or :class:`Bet`
    values; conditions as :func:`odds.exact.engine.round_odds`, plus ``slots``
    (``"5=9h"``: the card dealt in slot 5, see the module docstring).
    Bets on the round alone and bets on pairs alone are counted apart
    (each on the fewest events it needs); a bet on both counts the joint.

    >>> from odds.rules.profiles import BUILTIN
    >>> odds = bet_odds(BUILTIN["punto-banco"], Shoe.packs_of(8), ["player-pair", "dragon-7"])
    >>> odds["player-pair"].payout_distribution()[Fraction(11)]
    Fraction(31, 415)
    >>> odds["dragon-7"].entry_counts[0]
    112633011329024
    """
    profile = as_profile(profile)
    shoe = as_shoe(shoe, profile.decks)
    chosen = resolve_bets(profile, bets)
    deal = prepare_deal(profile, shoe, player, bank, removed, slots)
    suits = any(b.uses_suits for b in chosen)
    if suits and deal.suits is None:
        names = ", ".join(b.name for b in chosen if b.uses_suits)
        raise BetError(
            f"bet {names} needs suits, but the shoe ({shoe.label}) is known by rank only "
            "(a composition, or cards removed without suits): give packs and suited cards"
        )
    # Each kind of bet counts the fewest events it needs; the deals are then
    # summed by settled round, so that a bet is evaluated once per round.
    rounds_of: dict[tuple[bool, bool], dict[RoundEvents, int]] = {}
    out = {}
    for bet in chosen:
        kind = (bet.uses_round, bet.uses_pairs)
        by_round = rounds_of.get(kind)
        if by_round is None:
            joint = event_counts(profile, deal, kind[0], kind[1], suits)
            by_round = rounds_of[kind] = defaultdict(int)
            settled: dict[tuple[int, int, int | None, int | None], tuple[
                str, int | None, int | None, int, int, int, int]] = {}
            pairs: dict[int, Pair] = {}
            for (pv, pc, bv, bc, x, y), count in joint.items():
                ev = settled.get((pv, bv, x, y))
                if ev is None:
                    ev = settled[pv, bv, x, y] = (
                        ("tie", None, None, 0, 0, 2, 2) if x == -2
                        else round_events(profile, pv, bv, x, y))
                pp = pairs.get(pc)
                if pp is None:
                    pp = pairs[pc] = pair_of_code(pc, suits)
                bp = pairs.get(bc)
                if bp is None:
                    bp = pairs[bc] = pair_of_code(bc, suits)
                by_round[RoundEvents(*ev, pp, bp)] += count
        total = sum(by_round.values())
        if not total:
            raise ConditionError(
                f"no deal under profile {profile.key!r} from this shoe is consistent with the "
                "given cards (a known third card needs a hand that draws)"
            )
        counts = [0] * (len(bet.entries) + 1)
        for r, count in by_round.items():
            counts[bet.entry_of(r, profile)] += count
        out[bet.name] = BetOdds(bet, total, tuple(counts))
    return out


def bet_removal_effects(
    profile: Profile | str, bet: str | Bet, shoe: Shoe | int | str | None = None
) -> list[tuple[str, Fraction]]:
    """Effect of removal on one bet: (rank, exact change in its EV) per rank left.

    Weighted by the cards of each rank left, the changes sum to exactly 0.

    >>> from odds.rules.profiles import BUILTIN
    >>> shoe = Shoe.packs_of(1)
    >>> effects = bet_removal_effects(BUILTIN["punto-banco"], "player-pair", shoe)
    >>> sum(shoe.counts[i] * e for i, (_, e) in enumerate(effects))
    Fraction(0, 1)
    """
    profile = as_profile(profile)
    shoe = as_shoe(shoe, profile.decks)
    if shoe.infinite:
        raise ValueError("removing a card does not change an infinite shoe; give a number of packs")
    chosen = resolve_bets(profile, [bet])[0]
    base = bet_odds(profile, shoe, [chosen])[chosen.name].expected_value
    out = []
    for rank in RANKS:
        if not shoe.counts[rank.index]:
            continue
        if chosen.uses_suits:
            # A card of this rank, suit unseen: the average over its suits,
            # weighted by the cards of each suit left.
            by_suit = suits_left(shoe)
            if by_suit is None:
                raise BetError(f"bet {chosen.name} needs suits, but the shoe's are not known")
            evs = Fraction(0)
            for suit in Suit:
                n = by_suit[rank.index][suit.index]
                if n:
                    after = bet_odds(profile, shoe.without([Card(rank, suit)]), [chosen])
                    evs += n * after[chosen.name].expected_value
            ev = evs / shoe.counts[rank.index]
        else:
            ev = bet_odds(profile, shoe.without([Card(rank)]), [chosen])[chosen.name].expected_value
        out.append((rank.value, ev - base))
    return out


def slot_round_odds(
    profile: Profile | str,
    shoe: Shoe | int | str | None = None,
    *,
    player: Iterable[str | Card] | str = (),
    bank: Iterable[str | Card] | str = (),
    removed: Iterable[str | Card] | str = (),
    slots: Iterable[tuple[int, Card] | str] = (),
) -> RoundOdds:
    """The round's odds (as :func:`odds.exact.engine.round_odds`) given cards by slot too.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.exact.engine import round_odds
    >>> a = slot_round_odds(BUILTIN["standard"], Shoe.packs_of(1), player="8h 7s", bank="Ac 6d")
    >>> b = round_odds(BUILTIN["standard"], Shoe.packs_of(1), player="8h 7s", bank="Ac 6d")
    >>> a.outcome_counts == b.outcome_counts, a.total == b.total
    (True, True)
    """
    profile = as_profile(profile)
    shoe = as_shoe(shoe, profile.decks)
    deal = prepare_deal(profile, shoe, player, bank, removed, slots)
    joint = joint_counts(profile, deal, True, False, True)
    outcomes: dict[tuple[int, int, int, int, str], int] = defaultdict(int)
    player_final = [0] * 10
    bank_final = [0] * 10
    drew = [0, 0]
    for (pv, pc, bv, bc, x, y), count in joint.items():
        pf = pv if x is None else (pv + x) % 10
        bf = bv if y is None else (bv + y) % 10
        outcome, how = category(profile, pv, bv, pf, bf)
        outcomes[pv, bv, colon_of_code(profile, pc), colon_of_code(profile, bc),
                 f"{outcome.value}_{how}"] += count
        player_final[pf] += count
        bank_final[bf] += count
        drew[0] += count * (x is not None)
        drew[1] += count * (y is not None)
    total = sum(player_final)
    if not total:
        raise ConditionError(
            f"no deal under profile {profile.key!r} from this shoe is consistent with the "
            "given cards (a known third card needs a hand that draws)"
        )
    return RoundOdds(
        profile=profile, shoe=shoe, player=deal.player_cards, bank=deal.bank_cards,
        removed=deal.removed, player_total=None, bank_total=None, total=total,
        outcome_counts={k: v for k, v in outcomes.items() if v},
        player_final_counts=tuple(player_final), bank_final_counts=tuple(bank_final),
        player_draw_count=drew[0], bank_draw_count=drew[1], slots=deal.slots,
    )


def odds_and_bets(
    profile: Profile | str,
    shoe: Shoe | int | str | None = None,
    bets: Iterable[str | Bet] = (),
    *,
    player: Iterable[str | Card] | str = (),
    bank: Iterable[str | Card] | str = (),
    removed: Iterable[str | Card] | str = (),
    slots: Iterable[tuple[int, Card] | str] = (),
) -> tuple[RoundOdds, dict[str, BetOdds]]:
    """The round's odds and the odds of each bet, under the same conditions.

    Without slots the round comes from :func:`odds.exact.engine.round_odds`.

    >>> from odds.rules.profiles import BUILTIN
    >>> result, bets = odds_and_bets(BUILTIN["punto-banco"], Shoe.packs_of(1), ["tie"])
    >>> bets["tie"].payout_distribution() == result.payout_distribution("tie")
    True
    """
    from odds.exact.engine import round_odds

    profile = as_profile(profile)
    shoe = as_shoe(shoe, profile.decks)
    slots = tuple(slots)
    if slots:
        result = slot_round_odds(profile, shoe, player=player, bank=bank, removed=removed,
                                 slots=slots)
    else:
        result = round_odds(profile, shoe, player=player, bank=bank, removed=removed)
    bets = tuple(bets)
    extra = (bet_odds(profile, shoe, bets, player=player, bank=bank, removed=removed,
                      slots=slots) if bets else {})
    return result, extra


