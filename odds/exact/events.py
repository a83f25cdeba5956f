"""The event enumerator: ordered six-card deals counted by what bets are keyed on.

The enumerator counts ordered six-card deals, as :mod:`odds.exact.engine` does,
but keeps the events bets are keyed on: both hands' two-card values and
pairs (the pair's rank, and its suits only when a requested bet needs
them), and both third cards.  Counts are integers (:mod:`odds.exact.bets`
turns them into each bet's odds).  The two-card hands and the draw stage
are the engine's (:func:`~odds.exact.engine.pair_options`,
:func:`~odds.exact.engine.draw_leaves`).

**Slots.**  The deal order is the table's: slot 1 is the player's first
card, 2 the bank's first, 3 the player's second, 4 the bank's second; slot 5
is the next card, whoever takes it (the player's third if the player draws,
else the bank's third if the bank draws, else the card the shoe shows
next); slot 6 is the card after it (the bank's third when both draw).  A
card given for a slot is taken out of the shoe, like a known card.  (The
engine's six positions are the hands' own: the player's two cards, the
bank's two, then the third cards; they are the same deals, counted once.)

**Suits.**  Suits never change a round's settlement, so they are counted
only for suited pairs: given the ranks of the first four cards, their suits
are a uniform draw from the suits left of those ranks, split exactly.

The general enumeration (any known cards and slots) and its two fast paths
(no third card known: whole rows of a table per stage; pairs alone: no draw
stage) must count the same deals; :func:`event_counts` picks one.
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from odds.exact.engine import ConditionError, draw_leaves, falling, pair_options, value_counts
from odds.rules.bet_types import NO_PAIR, Pair, pair_matches
from odds.rules.cards import POINTS, Card, parse_card, parse_cards
from odds.rules.draw import STOOD, draw_table
from odds.rules.errors import BetError, ProfileError
from odds.rules.profile import Profile
from odds.rules.settle import COLON, COLON_NINE, NO_COLON, Outcome, category
from odds.rules.shoe import Shoe

__all__ = [
    "EventKey",
    "KnownSlots",
    "colon_of_code",
    "event_counts",
    "joint_counts",
    "pair_of_code",
    "parse_slot",
    "prepare_deal",
    "round_events",
    "suits_left",
]

EventKey = tuple[int, int, int, int, int | None, int | None]
"""(pv, player pair code, bv, bank pair code, player third, bank third)."""

NINE = 8
_OUTCOME_WINNER = {Outcome.WIN: "player", Outcome.LOSS: "banker", Outcome.PUSH: "tie"}
_SLOT_NAMES = {1: "the player's first card", 2: "the bank's first card",
               3: "the player's second card", 4: "the bank's second card",
               5: "the next card (player's third if it draws, else bank's third)",
               6: "the card after it (bank's third when both draw)"}


def parse_slot(text: str) -> tuple[int, Card]:
    """Parse ``K=CARD``: the card dealt in slot K (1-6) of the deal order.

    >>> parse_slot("5=9h")
    (5, Card('9h'))
    >>> parse_slot("7=9h")
    Traceback (most recent call last):
    ...
    ValueError: '7=9h': slot 7 does not exist (slots 1-4 are the two-card hands as dealt, ...)
    """
    m = re.fullmatch(r"\s*(\d+)\s*[=:]\s*(\S+)\s*", text)
    if not m:
        raise ValueError(f"{text!r} is not a slot: write SLOT=CARD, e.g. 5=9h")
    k = int(m[1])
    if k not in _SLOT_NAMES:
        raise ValueError(
            f"{text!r}: slot {k} does not exist (slots 1-4 are the two-card hands as dealt, "
            "player first; 5 the next card; 6 the one after)"
        )
    return k, parse_card(m[2])


# -- the conditions, once checked ----------------------------------------------


@dataclass(frozen=True)
class KnownSlots:
    """Known cards by position, and what is left of the shoe.

    ``player``/``bank`` hold the known first-two-card cards of each hand;
    ``third`` holds known third cards by position: ``p3``/``b3`` (given by
    hand) or ``s5``/``s6`` (given by slot), as point values.
    """

    counts: tuple[int, ...]
    infinite: bool
    player: tuple[Card, ...]
    bank: tuple[Card, ...]
    third: Mapping[str, int]
    suits: tuple[tuple[int, ...], ...] | None  # per rank, cards left by suit (None: unknown)
    shoe: Shoe
    player_cards: tuple[Card, ...]
    bank_cards: tuple[Card, ...]
    removed: tuple[Card, ...]
    slots: tuple[tuple[int, Card], ...]


def _cards(cards: Iterable[str | Card] | str) -> tuple[Card, ...]:
    if isinstance(cards, str):
        return parse_cards(cards) if cards.strip() else ()
    items = tuple(cards)
    return parse_cards(items) if items else ()


def _same(a: Card, b: Card) -> bool:
    return a.rank is b.rank and (a.suit is None or b.suit is None or a.suit is b.suit)


def prepare_deal(
    profile: Profile,
    shoe: Shoe,
    player: Iterable[str | Card] | str = (),
    bank: Iterable[str | Card] | str = (),
    removed: Iterable[str | Card] | str = (),
    slots: Iterable[tuple[int, Card] | str] = (),
) -> KnownSlots:
    """Check the conditions and take every known card out of the shoe.

    A slot given twice, or a slot 1-4 card that differs from the hand's
    card given by ``player``/``bank``, is a contradiction; slots 5 and 6
    cannot be combined with a known third card (give third cards one way).

    >>> from odds.rules.profiles import BUILTIN
    >>> prepare_deal(BUILTIN["punto-banco"], Shoe.packs_of(1), player="9h", slots=["1=8h"])
    Traceback (most recent call last):
    ...
    odds.exact.engine.ConditionError: slot 1 is the player's first card, given as 9h by ... but 8h by --slot 1
    """
    if not profile.fixed:
        raise ProfileError(
            f"profile {profile.key!r} has no fixed draw rule (players and bank choose): "
            "bets need fixed rules"
        )
    p_cards, b_cards, r_cards = _cards(player), _cards(bank), _cards(removed)
    for cards, who in ((p_cards, "player"), (b_cards, "bank")):
        if len(cards) > 3:
            raise ConditionError(f"the {who} holds at most 3 cards, but {len(cards)} were given")
    given: dict[int, Card] = {}
    for item in slots:
        k, card = parse_slot(item) if isinstance(item, str) else item
        if k in given:
            raise ConditionError(f"slot {k} is given twice ({given[k]} and {card})")
        given[k] = card
    # Slots 1-4 are the hands' first two cards, dealt alternately.
    positions = {1: (p_cards, 0, "player"), 2: (b_cards, 0, "bank"),
                 3: (p_cards, 1, "player"), 4: (b_cards, 1, "bank")}
    hand = {"player": list(p_cards[:2]), "bank": list(b_cards[:2])}
    hand_slots: dict[str, list[Card | None]] = {"player": [None, None], "bank": [None, None]}
    for k in (1, 2, 3, 4):
        if k not in given:
            continue
        cards, i, who = positions[k]
        if len(cards) > i:
            if not _same(cards[i], given[k]):
                raise ConditionError(
                    f"slot {k} is {_SLOT_NAMES[k]}, given as {cards[i]} by the {who}'s cards, "
                    f"but {given[k]} by --slot {k}"
                )
            continue  # the same card, given twice: counted once
        hand_slots[who][i] = given[k]
    extra = [c for who in ("player", "bank") for c in hand_slots[who] if c is not None]
    for who in ("player", "bank"):
        hand[who] += [c for c in hand_slots[who] if c is not None]
    third: dict[str, int] = {}
    if len(p_cards) == 3:
        third["p3"] = p_cards[2].points
    if len(b_cards) == 3:
        third["b3"] = b_cards[2].points
    for k in (5, 6):
        if k in given:
            if third:
                raise ConditionError(
                    f"slot {k} and a known third card (--player/--bank with 3 cards) cannot "
                    "be combined: give the third cards by hand or by slot, not both"
                )
    for k in (5, 6):
        if k in given:
            third[f"s{k}"] = given[k].points
    slot_cards = tuple(given[k] for k in (5, 6) if k in given)
    left = shoe.take([
        ("removed cards", r_cards, False),
        ("player cards", p_cards, True),
        ("bank cards", b_cards, True),
        ("slot cards", tuple(extra) + slot_cards, True),
    ])
    unknown = 6 - len(hand["player"]) - len(hand["bank"]) - len(third)
    if not shoe.infinite and left.size < unknown:
        raise ConditionError(
            f"the shoe has {left.size} cards left, but a round fills {unknown} more card slots"
        )
    suits = suits_left(left) if not shoe.infinite else tuple((1, 1, 1, 1) for _ in range(13))
    return KnownSlots(
        left.counts, shoe.infinite, tuple(hand["player"]), tuple(hand["bank"]), third, suits,
        shoe, p_cards, b_cards, r_cards, tuple(sorted(given.items())),
    )


def suits_left(left: Shoe) -> tuple[tuple[int, ...], ...] | None:
    """Cards left per rank and suit, or None when the shoe's suits are not known."""
    if left.packs is None:
        return None
    out = []
    for r in range(13):
        by_suit = tuple(left.packs - left.taken[4 * r + s] for s in range(4))
        if sum(by_suit) != left.counts[r]:
            return None  # a card of this rank was removed without its suit
        out.append(by_suit)
    return tuple(out)


# -- the enumeration ------------------------------------------------------------

# Pair codes of a hand's first two cards: -1 none, rank*2 (+1 if suited), 26 a
# pair by value only (two ten-cards of different ranks).
_NONE, _VALUE_PAIR = -1, 26


def _pair_code(r1: int, r2: int) -> int:
    if r1 == r2:
        return 2 * r1
    if POINTS[r1] == POINTS[r2]:
        return _VALUE_PAIR
    return _NONE


def pair_of_code(code: int, suits: bool) -> Pair:
    """The :class:`odds.rules.bets.Pair` a pair code stands for."""
    if code == _NONE:
        return NO_PAIR
    if code == _VALUE_PAIR:
        return Pair(None, True, None)
    return Pair(code // 2, True, bool(code & 1) if suits else None)


def _suit_split(
    ranks: Sequence[int], known: Sequence[Card | None], rank: int, deal: KnownSlots
) -> dict[tuple[bool | None, bool | None], int]:
    """Counts of the suits of the first four cards of ``rank``, by (player, bank) suited.

    ``ranks`` and ``known`` are the four positions p1 p2 b1 b2 (known card
    or None).  A hand is looked at when both its cards have ``rank``.
    """
    assert deal.suits is not None
    pos = [i for i in range(4) if ranks[i] == rank]
    free = [i for i in pos if known[i] is None]
    fixed: dict[int, int] = {}
    for i in pos:
        card = known[i]
        if card is not None:
            if card.suit is None:
                raise BetError(
                    f"the known card {card} has no suit, but a suited bet needs it (write {card}h)"
                )
            fixed[i] = card.suit.index
    by_suit = deal.suits[rank]
    paired = [ranks[0] == ranks[1] == rank, ranks[2] == ranks[3] == rank]
    out: dict[tuple[bool | None, bool | None], int] = defaultdict(int)
    for assign in itertools.product(range(4), repeat=len(free)):
        suit = dict(fixed)
        suit.update(zip(free, assign, strict=True))
        ways = 1
        if not deal.infinite:
            taken = [0, 0, 0, 0]
            for s in assign:
                ways *= by_suit[s] - taken[s]
                taken[s] += 1
        if not ways:
            continue
        key = (suit[0] == suit[1] if paired[0] else None, suit[2] == suit[3] if paired[1] else None)
        out[key] += ways
    return out


GroupKey = tuple[int, int, tuple[int, ...]]


def _two_card_groups(
    profile: Profile, deal: KnownSlots, pairs: bool, suits: bool
) -> dict[GroupKey, dict[tuple[int, int], int]]:
    """The first four cards: (pv, bv, value counts left) -> {(player pair, bank pair): count}.

    Pair codes are -1 when ``pairs`` is off (all groups merge).
    """
    groups: dict[GroupKey, dict[tuple[int, int], int]] = defaultdict(lambda: defaultdict(int))
    base_vc = value_counts(list(deal.counts))
    known = [*deal.player, None, None][:2] + [*deal.bank, None, None][:2]
    cache: dict[tuple[int, tuple[int, ...]], dict[tuple[bool | None, bool | None], int]] = {}
    for ranks, weight, taken in _first_four(deal):
        r1, r2, r3, r4 = ranks
        pv = (POINTS[r1] + POINTS[r2]) % 10
        bv = (POINTS[r3] + POINTS[r4]) % 10
        vc = base_vc.copy()
        if not deal.infinite:
            for r in taken:
                vc[POINTS[r]] -= 1
        pcode = _pair_code(r1, r2) if pairs else _NONE
        bcode = _pair_code(r3, r4) if pairs else _NONE
        cell = groups[pv, bv, tuple(vc)]
        if not suits or (pcode < 0 or pcode == _VALUE_PAIR) and (
                bcode < 0 or bcode == _VALUE_PAIR):
            cell[pcode, bcode] += weight
            continue
        cell_split = _split_by_suits(deal, ranks, known, taken, weight, pcode, bcode, cache)
        for key, ways in cell_split.items():
            cell[key] += ways
    return groups


def _without(counts: list[int], taken: tuple[int, ...], inf: bool) -> list[int]:
    """``counts`` less the cards ``taken`` (a copy; the same list when nothing is taken)."""
    if not taken or inf:
        return counts
    left = counts.copy()
    for r in taken:
        left[r] -= 1
    return left


def _pair_then_pair(
    base: list[int], p_known: tuple[int, ...], b_known: tuple[int, ...], inf: bool,
) -> Iterator[tuple[tuple[int, int, int, int], int, tuple[int, ...], tuple[int, ...], list[int]]]:
    """The player's two cards, then the bank's from what is left (by rank or by value):
    the four cards, the count of deals, what each hand took from the shoe, and the
    counts left after the player's pair."""
    for a1, a2, wp, taken_p in pair_options(base, p_known, inf):
        left = _without(base, taken_p, inf)
        for b1, b2, wb, taken_b in pair_options(left, b_known, inf):
            yield (a1, a2, b1, b2), wp * wb, taken_p, taken_b, left


def _first_four(deal: KnownSlots) -> Iterator[tuple[tuple[int, int, int, int], int, tuple[int, ...]]]:
    """Every way the first four cards' ranks can come (P, P, B, B, the known ones kept):
    the ranks, the count of deals, and the ranks taken from the shoe."""
    p_known = tuple(c.rank.index for c in deal.player)
    b_known = tuple(c.rank.index for c in deal.bank)
    for ranks, weight, taken_p, taken_b, _ in _pair_then_pair(
            list(deal.counts), p_known, b_known, deal.infinite):
        yield ranks, weight, taken_p + taken_b


def _split_by_suits(
    deal: KnownSlots, ranks: tuple[int, int, int, int], known: Sequence[Card | None],
    taken: tuple[int, ...], weight: int, pcode: int, bcode: int,
    cache: dict[tuple[int, tuple[int, ...]], dict[tuple[bool | None, bool | None], int]]
    | None = None,
) -> dict[tuple[int, int], int]:
    """A group's weight split by whether each rank pair is suited."""
    order = ranks
    out: dict[tuple[int, int], int] = {(pcode, bcode): weight}
    for rank in {r for r, code in ((ranks[0], pcode), (ranks[2], bcode))
                 if 0 <= code < _VALUE_PAIR}:
        pattern = tuple(i for i in range(4) if order[i] == rank)
        parts = cache.get((rank, pattern)) if cache is not None else None
        if parts is None:
            parts = _suit_split(order, known, rank, deal)
            if cache is not None:
                cache[rank, pattern] = parts
        m = sum(1 for r in taken if r == rank)
        whole = falling(deal.counts[rank], m, deal.infinite)
        new: dict[tuple[int, int], int] = {}
        for (pc, bc), w in out.items():
            # The rank's share of the weight is whole; each suit pattern takes ways of it.
            share = w // whole
            for (ps, bs), ways in parts.items():
                key = (pc + 1 if ps else pc, bc + 1 if bs else bc)
                new[key] = new.get(key, 0) + share * ways
        out = new
    return out



def round_events(
    profile: Profile, pv: int, bv: int, x: int | None, y: int | None
) -> tuple[str, int | None, int | None, int, int, int, int]:
    pf = pv if x is None else (pv + x) % 10
    bf = bv if y is None else (bv + y) % 10
    winner = _OUTCOME_WINNER[category(profile, pv, bv, pf, bf)[0]]
    return (winner, pv if pv in profile.naturals else None,
            bv if bv in profile.naturals else None, pf, bf, 2 + (x is not None),
            2 + (y is not None))


def joint_counts(
    profile: Profile, deal: KnownSlots, pairs: bool, suits: bool, rounds: bool
) -> dict[tuple[int, int, int, int, int | None, int | None], int]:
    """Counts by (pv, player pair code, bv, bank pair code, player third, bank third).

    Third cards are -2 where no bet looks past the first four cards.
    """
    groups = _two_card_groups(profile, deal, pairs, suits)
    joint: dict[tuple[int, int, int, int, int | None, int | None], int] = defaultdict(int)
    for (pv, bv, vc), cell in groups.items():
        leaves = draw_leaves(profile, pv, bv, vc, deal.infinite, deal.third)
        if not leaves:
            continue
        if not rounds:
            size = sum(c for *_, c in leaves)
            for (pc, bc), w in cell.items():
                joint[pv, pc, bv, bc, -2, -2] += w * size
            continue
        for (pc, bc), w in cell.items():
            for x, y, c in leaves:
                joint[pv, pc, bv, bc, x, y] += w * c
    return joint


def _value_groups(deal: KnownSlots) -> dict[GroupKey, dict[tuple[int, int], int]]:
    """The first four cards by point value alone: (pv, bv, value counts left) -> count."""
    inf = deal.infinite
    p_known = tuple(c.points for c in deal.player)
    b_known = tuple(c.points for c in deal.bank)
    groups: dict[GroupKey, int] = defaultdict(int)
    for (v1, v2, v3, v4), weight, _, taken_b, left in _pair_then_pair(
            value_counts(deal.counts), p_known, b_known, inf):
        vc = _without(left, taken_b, inf)
        groups[(v1 + v2) % 10, (v3 + v4) % 10, tuple(vc)] += weight
    return {key: {(_NONE, _NONE): w} for key, w in groups.items()}


def _round_joint(
    profile: Profile, deal: KnownSlots, groups: Mapping[GroupKey, Mapping[tuple[int, int], int]]
) -> dict[tuple[int, int, int, int, int | None, int | None], int]:
    """The joint with third cards, fast, when no third card is known.

    Every stage draws from the same number ``n`` of cards, so a leaf's
    count is W * vc[x] * (vc[y] - [x == y]) or a padding product of ``n``:
    a stage adds whole rows of an 11 x 11 table (index 10: stood) at a time.
    """
    assert not deal.third
    inf = deal.infinite
    draws = draw_table(profile)
    plans: dict[tuple[int, int], list[tuple[int | None, bool]]] = {}
    tables: dict[tuple[int, int, int, int], list[list[int]]] = {}
    for (pv, bv, vc), cell in groups.items():
        plan = plans.get((pv, bv))
        if plan is None:
            xs: list[int | None] = list(range(10)) if draws.player[pv][bv] else [None]
            bank_row = draws.bank[pv][bv]
            plan = plans[pv, bv] = [(x, bank_row[STOOD if x is None else x]) for x in xs]
        n = sum(vc)
        rest = n if inf else n - 1  # cards left for slot 6 once slot 5 is dealt
        for (pc, bc), w in cell.items():
            table = tables.get((pv, pc, bv, bc))
            if table is None:
                table = tables[pv, pc, bv, bc] = [[0] * 11 for _ in range(11)]
            for x, bank_draws in plan:
                if x is None:
                    row = table[10]
                    if bank_draws:
                        wy = w * rest
                        for y in range(10):
                            row[y] += wy * vc[y]
                    else:
                        row[10] += w * n * rest
                    continue
                wx = w * vc[x]
                if not wx:
                    continue
                row = table[x]
                if bank_draws:
                    for y in range(10):
                        row[y] += wx * vc[y]
                    if not inf:
                        row[x] -= wx  # the bank cannot draw the player's own third card
                else:
                    row[10] += wx * rest
    joint: dict[tuple[int, int, int, int, int | None, int | None], int] = {}
    for (pv, pc, bv, bc), table in tables.items():
        for x in range(11):
            for y, count in enumerate(table[x]):
                if count:
                    joint[pv, pc, bv, bc, None if x == 10 else x, None if y == 10 else y] = count
    return joint


def _pair_joint(
    profile: Profile, deal: KnownSlots, suits: bool
) -> dict[tuple[int, int, int, int, int | None, int | None], int]:
    """The joint of the first four cards' pairs; the draws only as a count of deals."""
    if deal.third:
        return joint_counts(profile, deal, True, suits, False)
    inf = deal.infinite
    known = [*deal.player, None, None][:2] + [*deal.bank, None, None][:2]
    cells: dict[tuple[int, int], int] = defaultdict(int)
    cache: dict[tuple[int, tuple[int, ...]], dict[tuple[bool | None, bool | None], int]] = {}
    for ranks, weight, taken in _first_four(deal):
        pc = _pair_code(ranks[0], ranks[1])
        bc = _pair_code(ranks[2], ranks[3])
        if not suits or not (0 <= pc < _VALUE_PAIR or 0 <= bc < _VALUE_PAIR):
            cells[pc, bc] += weight
            continue
        split = _split_by_suits(deal, ranks, known, taken, weight, pc, bc, cache)
        for key, ways in split.items():
            cells[key] += ways
    # No third card is known: slots 5 and 6 are any two of the cards left.
    size = falling(sum(deal.counts) - (4 - len(deal.player) - len(deal.bank)) * (not inf),
                    2, inf)
    return {(0, pc, 0, bc, -2, -2): w * size for (pc, bc), w in cells.items() if w}


def event_counts(profile: Profile, deal: KnownSlots, uses_round: bool, uses_pairs: bool,
                 suits: bool) -> dict[EventKey, int]:
    """Counts of deals by event, on the fewest events a kind of bet needs.

    A bet on the round alone needs no pairs, a bet on pairs alone no draw
    stage (its third cards are -2); ``suits`` splits suited pairs.

    >>> from odds.rules.profiles import BUILTIN
    >>> deal = prepare_deal(BUILTIN["standard"], Shoe.packs_of(1))
    >>> sum(event_counts(BUILTIN["standard"], deal, True, False, False).values())
    14658134400
    """
    if uses_round and deal.third:
        return joint_counts(profile, deal, uses_pairs, suits, True)
    if uses_round and not uses_pairs:
        return _round_joint(profile, deal, _value_groups(deal))
    if uses_round:
        return _round_joint(profile, deal, _two_card_groups(profile, deal, True, suits))
    return _pair_joint(profile, deal, suits)


def colon_of_code(profile: Profile, code: int) -> int:
    """The Colon class (0 none, 1, 2 nines) of a two-card hand's pair code."""
    pair = pair_of_code(code, False)
    if pair.rank == NINE:
        return COLON_NINE
    return COLON if pair_matches("colon", pair, profile) else NO_COLON

