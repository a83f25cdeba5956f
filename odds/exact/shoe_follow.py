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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from odds.exact.batch import rules_table
from odds.exact.bet_table import COLON_SHARE, BetSet, bet_set
from odds.exact.rounds import CardRecord, DealtRound, check_dealable, read_cards, record_rounds
from odds.rules.bet_types import Bet
from odds.rules.cards import POINTS, Card
from odds.rules.draw import STOOD, draw_table
from odds.rules.profile import Profile
from odds.rules.profiles import as_profile
from odds.rules.shoe import Shoe, as_shoe

__all__ = ["COLON_SHARE", "ShoeFollow", "TableFollow", "TableRound", "bet_names", "follow_shoe",
           "follow_table", "table_rounds"]


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
    rounds: tuple[DealtRound, ...]
    compositions: tuple[tuple[int, ...], ...]
    bets: tuple[str, ...]
    evs: dict[str, list[Fraction]]
    probabilities: dict[str, list[Fraction]]
    suits: str = "none"  # "none" (no bet on suits), "unseen" (exact given ranks), "known"


def follow_shoe(profile: Profile | str, shoe: Shoe | int | str | None,
                rounds: Sequence[DealtRound] | str,
                bets: Sequence[str | Bet] = ("all",)) -> ShoeFollow:
    """The exact odds of every bet before each round, and after the last.

    The shoe after the last round is evaluated too when it can still deal a
    round (six cards); otherwise the last entry has no odds.  ``rounds`` are
    :class:`DealtRound` values or a dealer's record as text (see
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


def _evs(profile: Profile, shoe: Shoe, rounds: Sequence[DealtRound], chosen: BetSet,
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


# -- a table of several seats ------------------------------------------------------------

MAX_SEATS = 8


@dataclass(frozen=True)
class TableRound:
    """One round at a table of N seats: each seat's cards, the bank's, and where it starts.

    A round deals two cards to each seat in turn and to the bank, twice round
    the table, then third cards in table order (seat 1 .. seat N, the bank),
    each hand drawing by its own two cards (docs/rules.md).
    """

    number: int
    start: int
    seats: tuple[tuple[Card, ...], ...]
    bank: tuple[Card, ...]

    @property
    def cards(self) -> tuple[Card, ...]:
        """The round's cards in deal order."""
        hands = (*self.seats, self.bank)
        out = [h[0] for h in hands] + [h[1] for h in hands]
        out += [c for h in hands for c in h[2:]]
        return tuple(out)


def table_rounds(profile: Profile, shoe: Shoe, record: CardRecord,
                 seats: int) -> tuple[TableRound, ...]:
    """Split a table's record into rounds by replaying the rules, checked as heads-up.

    Every card must be in the shoe and belong to a complete round; every mark
    (a blank line or ``--``) must fall between rounds.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.exact.rounds import read_cards
    >>> r = table_rounds(BUILTIN["standard"], Shoe.packs_of(1), read_cards("9 5 2 K K 6 3"), 2)
    >>> [(len(s), s[0].rank.value) for s in r[0].seats], len(r[0].bank)
    ([(2, '9'), (3, '5')], 2)
    """
    if isinstance(seats, bool) or not 1 <= seats <= MAX_SEATS:
        raise ValueError(f"seats: a table has 1 to {MAX_SEATS} seats, not {seats}")
    if seats > 1 and (profile.naturals_stop_draws or (
            profile.bank_draw is not None and getattr(profile.bank_draw, "tableau", None))):
        raise ValueError(f"profile {profile.key!r}: the rules define the bank's draw for one "
                         f"player hand only; follow 1 seat, not {seats}")
    if not profile.fixed:
        raise ValueError(f"profile {profile.key!r} has no fixed draw rule: a table's "
                         "record is split by replaying fixed rules (where a side chooses, "
                         "the cards do not say what it chose)")
    # Past one seat the guard above leaves rules where each hand decides on
    # its own two cards alone, so the bank's cell read with seat 1's values
    # is the bank's decision whatever the other seats hold.
    draw = draw_table(profile)
    if not record.cards:
        raise ValueError("the record holds no cards")
    check_dealable(shoe, record.cards, record.lines)
    cards, lines = record.cards, record.lines
    hands = seats + 1
    out: list[TableRound] = []
    starts = [0]
    pos = 0
    while pos < len(cards):
        number = len(out) + 1
        if pos + 2 * hands > len(cards):
            raise ValueError(
                f"the last {len(cards) - pos} card(s), from card {pos + 1} (line {lines[pos]}), "
                f"are fewer than a round of {seats} seat(s) needs ({2 * hands} to {3 * hands})")
        held = [[cards[pos + h], cards[pos + hands + h]] for h in range(hands)]
        k = pos + 2 * hands
        values = [(POINTS[a.rank.index] + POINTS[b.rank.index]) % 10 for a, b in held]
        bv = values[seats]
        third = None  # seat 1's third card, on which a heads-up tableau bank decides
        for h in range(hands):
            if h == seats:
                draws = draw.bank[values[0]][bv][STOOD if third is None else third]
            else:
                draws = draw.player[values[h]][bv]
            if draws:
                if k >= len(cards):
                    raise ValueError(
                        f"round {number} (from card {pos + 1}, line {lines[pos]}) needs a third "
                        f"card for {'the bank' if h == seats else f'seat {h + 1}'}, but the "
                        "record ends")
                held[h].append(cards[k])
                if h == 0:
                    third = POINTS[cards[k].rank.index]
                k += 1
        out.append(TableRound(number, pos, tuple(tuple(h) for h in held[:-1]), tuple(held[-1])))
        pos = k
        starts.append(pos)
    for mark, line in record.marks:
        if mark not in starts:
            r = max(i for i, s in enumerate(starts) if s < mark)
            raise ValueError(
                f"line {line}: the record closes a round after card {mark}, but under the rules "
                f"round {r + 1} runs from card {starts[r] + 1} to card {starts[r + 1]}")
    return tuple(out)


@dataclass(frozen=True)
class TableFollow:
    """Before each round of a table: the shoe left, a seat's exact odds, the bank's moments.

    ``seat_ev[k]`` is every seat's exact EV per unit before round k (the seats
    face the same chances); ``bank_mean[k]`` and ``bank_variance[k]`` are the
    bank's exact mean and variance of net per round at ``seats`` stakes of 1,
    the variance with the seats' covariance through the shared shoe.
    """

    profile: Profile
    shoe: Shoe
    seats: int
    rounds: tuple[TableRound, ...]
    lefts: tuple[Shoe, ...]
    seat_ev: tuple[Fraction, ...]
    win: tuple[Fraction, ...]
    push: tuple[Fraction, ...]
    loss: tuple[Fraction, ...]
    bank_mean: tuple[Fraction | None, ...]
    bank_variance: tuple[Fraction | None, ...]


def follow_table(profile: Profile, shoe: Shoe, rounds: Sequence[TableRound], seats: int,
                 progress: Callable[[int, int], None] | None = None) -> TableFollow:
    """The exact odds before each round of a table of ``seats`` seats.

    A seat's odds come from the batch engine on every composition at once; the
    bank's variance from :func:`odds.exact.seats.pair_counts` on each (the
    shoe left must hold a whole round of two seats and the bank, 9 cards, and
    at most 27 packs; else the variance is None).

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.exact.rounds import read_cards
    >>> p, s = BUILTIN["standard"], Shoe.packs_of(1)
    >>> f = follow_table(p, s, table_rounds(p, s, read_cards("9 5 2 K K 6 3"), 2), 2)
    >>> f.bank_mean[0] == -2 * f.seat_ev[0]
    True
    """
    from odds.exact.batch import batch_counts
    from odds.exact.seats import MAX_PAIR_CARDS, pair_counts, table_moments

    lefts = []
    counts = list(shoe.counts)
    for r in rounds:
        lefts.append(Shoe(tuple(counts), packs=shoe.packs if counts == list(shoe.counts) else None))
        for c in r.cards:
            counts[c.rank.index] -= 1
    lefts[0] = shoe
    batch = batch_counts(profile, [s.counts for s in lefts])
    evs = batch.expected_values()
    probs = batch.probabilities()
    means: list[Fraction | None] = []
    variances: list[Fraction | None] = []
    for k, left in enumerate(lefts):
        if seats == 1:
            means.append(-evs[k])
            variances.append(None)
        elif 9 <= left.size <= MAX_PAIR_CARDS:
            mean, var = table_moments(pair_counts(profile, left), [Fraction(1)] * seats)
            means.append(mean)
            variances.append(var)
        else:
            means.append(-seats * evs[k])
            variances.append(None)
        if progress is not None:
            progress(k + 1, len(lefts))
    return TableFollow(profile, shoe, seats, tuple(rounds), tuple(lefts), tuple(evs),
                       tuple(probs["win"]), tuple(probs["push"]), tuple(probs["loss"]),
                       tuple(means), tuple(variances))
