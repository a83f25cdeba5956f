"""The deal: one shuffle convention, a shoe split into rounds, who draws as arrays.

Every part of the library that deals from a shoe's cards asks this module,
so that the deal is written once:

- **one shuffle**: shoe ``index`` of seed ``seed`` is numpy's PCG64 seeded
  with ``[seed, index]`` permuting the shoe's cards (:func:`shuffled_order`),
  so shoe k of ``lucky9 count --seed S`` is the shoe ``lucky9 shoe --seed S
  --index k`` follows, whatever the processes; :func:`shuffled_shoe` (cards)
  and :func:`shuffled_ranks` (rank indices) are that shoe, and
  :func:`shuffled_orders` deals many of them side by side (the simulator's
  cut-card shoes: shoe k of ``lucky9 simulate --reshuffle cut --seed S``);
- **rounds**: a shoe's cards are split into rounds by replaying the rules
  (:func:`round_lengths`, for a table of 1 to N seats) up to the cut card
  (:func:`cut_position`); :func:`deal_shoe` deals a shuffled shoe and gives,
  vectorised, the composition known before each round and its card slots;
- :func:`draw_arrays`: the profile's draw rule (:func:`odds.rules.draw.draw_table`)
  as numpy arrays, for vectorised dealing;
- :func:`odds.rules.draw.hand_draws`: who draws by a hand's own two-card value, for the
  computations that deal every hand by its own cards alone (a table of
  seats), refusing the rules under which that is not so;
- the decisions live in :mod:`odds.rules.draw`; nothing here decides a draw.

Low on purpose: it imports :mod:`odds.rules` and numpy only (numpy when a
function needs it, so that reading a record stays free of it).

**Deal order** (docs/rules.md): two cards to each seat in turn and to the
bank, twice round the table, then third cards in table order (seat 1 ..
seat N, then the bank).  Heads-up that is player, bank, player, bank, the
player's third card, the bank's: a round takes 4, 5 or 6 cards.  Heads-up
the bank may look at the player's third card (a tableau) and a natural may
stop every draw; at a table of several seats each hand draws by its own two
cards, and rules where it does not are refused (:func:`odds.rules.draw.hand_draws`).

>>> from odds.rules.profiles import BUILTIN
>>> player, bank = draw_arrays(BUILTIN["punto-banco"])
>>> player.shape, bank.shape, bool(bank[5, 3, 8]), bool(bank[5, 3, STOOD])
((10, 10), (10, 10, 11), False, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from odds.rules.cards import POINTS, RANKS, Card, Suit
from odds.rules.draw import STOOD, DrawTable, draw_table, hand_draws
from odds.rules.errors import ProfileError
from odds.rules.profile import Profile

if TYPE_CHECKING:
    import numpy as np

__all__ = ["BURN_RULES", "MAX_CASINO_BURN", "MAX_DEALT_PACKS", "MAX_ROUNDS_AFTER_CUT", "STOOD",
           "casino_burn", "check_burn_rule", "check_dealt_packs", "cut_position", "deal_shoe",
           "draw_arrays", "round_lengths", "shuffled_order", "shuffled_orders", "shuffled_ranks",
           "shuffled_shoe"]


def draw_arrays(profile: Profile) -> tuple[np.ndarray, np.ndarray]:
    """Who draws, as bool arrays: player ``[pv, bv]``, bank ``[pv, bv, x]``.

    ``x`` is the player's third-card value, or :data:`STOOD` (10) where the
    player stood: :func:`odds.rules.draw.draw_table` as numpy sees it (new
    arrays on each call: the caller may keep or change them).  A profile
    whose players choose is refused with a ``ProfileError``.
    """
    import numpy as np

    table = draw_table(profile)
    return np.array(table.player, dtype=bool), np.array(table.bank, dtype=bool)


# -- the one shuffle ---------------------------------------------------------------------

MAX_DEALT_PACKS = 100
# A shoe shuffled here is dealt and every round of it evaluated exactly: at 100
# packs about 800 rounds, 4 s for `lucky9 shoe`; at 1,000 packs 31 s; a fuzzed
# --decks 900000 ran for many minutes.  Real tables use 1 to 8.


def check_dealt_packs(packs: object) -> None:
    """A ``ValueError`` unless ``packs`` is a number of packs a dealt shoe may have (1-100).

    >>> check_dealt_packs(8)
    >>> check_dealt_packs(1000)
    Traceback (most recent call last):
    ...
    ValueError: a shoe dealt round by round has at most 100 packs (5,200 cards, ...
    """
    if isinstance(packs, bool) or not isinstance(packs, int) or packs < 1:
        raise ValueError(f"a shoe needs at least 1 pack, not {packs!r}")
    if packs > MAX_DEALT_PACKS:
        raise ValueError(
            f"a shoe dealt round by round has at most {MAX_DEALT_PACKS} packs "
            f"({52 * MAX_DEALT_PACKS:,} cards, some 800 rounds, each evaluated exactly), "
            f"not {packs:,}")


def shuffled_order(size: int, seed: int, index: int) -> list[int]:
    """The shuffle: numpy's PCG64 seeded with ``[seed, index]`` permutes ``range(size)``.

    Shoe ``index`` of a seed, whatever the process (the one convention: the
    studies' shoes and ``lucky9 shoe --seed`` are the same shoes).

    >>> shuffled_order(5, 7, 0) == shuffled_order(5, 7, 0) != shuffled_order(5, 7, 1)
    True
    """
    import numpy as np  # only shuffling needs it; reading a record does not

    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"the seed is a whole number, 0 or more, not {seed!r}")
    order: list[int] = np.random.default_rng([seed, index]).permutation(size).tolist()
    return order


def shuffled_orders(size: int, seed: int, first: int, count: int) -> np.ndarray:
    """Shoes ``first`` .. ``first + count - 1`` of seed ``seed``, one a row.

    Row k is :func:`shuffled_order` ``(size, seed, first + k)`` as a numpy
    array: the simulator deals its cut-card shoes side by side from these, so
    its shoe k is the shoe ``lucky9 shoe --seed S --index k`` follows.

    >>> rows = shuffled_orders(6, 3, 2, 2)
    >>> rows.shape, rows[1].tolist() == shuffled_order(6, 3, 3)
    ((2, 6), True)
    """
    import numpy as np

    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"the seed is a whole number, 0 or more, not {seed!r}")
    # Generator.permutation(size) shuffles arange(size) in place: the same, without a copy.
    rows = np.tile(np.arange(size, dtype=np.intp), (count, 1))
    for k in range(count):
        np.random.default_rng([seed, first + k]).shuffle(rows[k])
    return rows


def shuffled_shoe(packs: int, seed: int, index: int = 0) -> tuple[Card, ...]:
    """``packs`` suited packs, shuffled: shoe ``index`` of seed ``seed``.

    Card ``i`` of the unshuffled shoe is pack ``i // 52``, rank ``(i % 52) // 4``,
    suit ``i % 4``; :func:`shuffled_order` puts them in deal order.

    >>> shoe = shuffled_shoe(1, 7)
    >>> len(shoe), len(set(shoe)), shoe == shuffled_shoe(1, 7)
    (52, 52, True)
    """
    check_dealt_packs(packs)
    cards = [Card(rank, suit) for _ in range(packs) for rank in RANKS for suit in Suit]
    return tuple(cards[i] for i in shuffled_order(len(cards), seed, index))


def shuffled_ranks(packs: int, seed: int, index: int = 0) -> list[int]:
    """The rank indices of :func:`shuffled_shoe` (the same shuffle), for studies.

    >>> shuffled_ranks(1, 7)[:5] == [c.rank.index for c in shuffled_shoe(1, 7)[:5]]
    True
    """
    check_dealt_packs(packs)
    return [(c % 52) // 4 for c in shuffled_order(52 * packs, seed, index)]


def cut_position(size: int, penetration: float) -> int:
    """Where the cut card sits: ``max(1, int(penetration * size))`` cards in.

    >>> cut_position(416, 0.8)
    332
    """
    if not 0 < penetration <= 1:
        raise ValueError(f"penetration must be more than 0 and at most 1, not {penetration!r}")
    return max(1, int(penetration * size))


# -- a shoe split into rounds ------------------------------------------------------------

def _heads_up_draws(profile: Profile) -> DrawTable:
    """The draw table a dealt shoe is split by, heads-up: refuses rules where players choose
    (the family rules; chemin de fer's open cells: a record dealt there follows the players'
    choices, which a replay cannot know)."""
    if not profile.fixed:
        raise ProfileError(
            f"profile {profile.key!r} has no fixed draw rule (players and bank choose), "
            "so a dealt shoe cannot be split into rounds"
        )
    return draw_table(profile)


def round_lengths(profile: Profile, ranks: Sequence[int], start: int = 0,
                  stop: int | None = None, seats: int = 1) -> list[int]:
    """Cards each round takes, dealing from ``ranks`` (rank indices 0..12) at ``start``.

    A round starts while fewer than ``stop`` cards are out (default: no cut
    card) and at least the first two cards of every hand are left; a last
    round short of the third cards it needs is counted with its full need,
    so the caller can see it is short (its length runs past the end).
    ``seats`` players sit at the table (see the deal order above).

    >>> from odds.rules.profiles import BUILTIN
    >>> round_lengths(BUILTIN["standard"], [8, 1, 8, 5, 9, 4, 12, 12, 2, 3])  # 9 2 9 6 | 10 5 K K 3 4
    [4, 6]
    >>> round_lengths(BUILTIN["standard"], [8, 4, 1, 8, 12, 5, 9], seats=2)  # 9 5 2 | 9 K 6 | 10
    [7]
    """
    if seats != 1:
        return _table_lengths(profile, ranks, start, stop, seats)
    table = _heads_up_draws(profile)
    player, bank = table.player, table.bank
    size = len(ranks)
    end = size if stop is None else min(stop, size)
    pos = start
    out: list[int] = []
    while pos < end and size - pos >= 4:
        p1, b1, p2, b2 = (POINTS[r] for r in ranks[pos:pos + 4])
        pv, bv = (p1 + p2) % 10, (b1 + b2) % 10
        n = 4
        x = STOOD
        if player[pv][bv]:
            x = POINTS[ranks[pos + 4]] if pos + 4 < size else 0
            n = 5
        if bank[pv][bv][x]:
            n += 1
        out.append(n)
        pos += n
    return out


def _table_lengths(profile: Profile, ranks: Sequence[int], start: int, stop: int | None,
                   seats: int) -> list[int]:
    """:func:`round_lengths` at a table of several seats: each hand draws by its own cards."""
    if isinstance(seats, bool) or not isinstance(seats, int) or seats < 1:
        raise ValueError(f"seats: a table has 1 seat or more, not {seats!r}")
    player, bank = hand_draws(profile)
    hands = seats + 1
    draws = [player] * seats + [bank]
    size = len(ranks)
    end = size if stop is None else min(stop, size)
    pos = start
    out: list[int] = []
    while pos < end and size - pos >= 2 * hands:
        n = 2 * hands
        for h in range(hands):
            if draws[h][(POINTS[ranks[pos + h]] + POINTS[ranks[pos + hands + h]]) % 10]:
                n += 1
        out.append(n)
        pos += n
    return out


BURN_RULES = ("none", "casino")
MAX_ROUNDS_AFTER_CUT = 10  # casinos deal 0 or 1 more round after the cut card; 10 is plenty


def casino_burn(rank: int) -> int:
    """Cards burned face down after the first card of a shoe, turned face up, of rank index
    ``rank``: its point value by the baccarat rule for burns (A = 1, 2-9 their value, 10 J Q K
    burn 10; docs/counting.md). No profile has a burn rule of its own.

    >>> [casino_burn(r) for r in range(13)]
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    """
    return POINTS[rank] or 10


MAX_CASINO_BURN = 1 + max(map(casino_burn, range(13)))  # the card shown and what it burns


def check_burn_rule(burn_rule: str) -> None:
    """Refuse a burn rule that is not one of :data:`BURN_RULES`."""
    if burn_rule not in BURN_RULES:
        raise ValueError(f"the burn rule is one of {', '.join(BURN_RULES)}, not {burn_rule!r}")


def deal_shoe(profile: Profile, packs: int, seed: int, index: int, *, stop: int,
              burn: int = 0, burn_rule: str = "none", count_burn: bool = True,
              rounds_after_cut: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Shoe ``index`` of ``seed`` dealt heads-up to the cut card ``stop``, vectorised.

    Returns the composition the player knows before each round, (rounds, 13)
    (the ``burn`` cards burned first are not seen), and each round's six card
    slots in deal order, (rounds, 6), -1 past the round's end.

    ``burn_rule="casino"`` burns as casinos do instead of ``burn`` cards: the
    first card is turned face up and :func:`casino_burn` of it are burned face
    down (unseen); the exposed card is seen when ``count_burn``.  After the
    round the cut card comes out in (the last round by ``stop``),
    ``rounds_after_cut`` more rounds are dealt while six cards are left.

    >>> from odds.rules.profiles import BUILTIN
    >>> comps, slots = deal_shoe(BUILTIN["standard"], 1, 7, 0, stop=39)
    >>> comps[0].tolist() == [4] * 13, slots.shape[1], int((slots[0] >= 0).sum()) >= 4
    (True, 6, True)
    >>> comps, _ = deal_shoe(BUILTIN["standard"], 1, 7, 0, stop=39, burn_rule="casino")
    >>> int(comps[0].sum())  # the exposed card seen, the burned ones not
    51
    """
    import numpy as np

    check_burn_rule(burn_rule)
    ranks = shuffled_ranks(packs, seed, index)
    size = len(ranks)
    if burn_rule == "casino":
        burn = 1 + casino_burn(ranks[0])
    lengths = round_lengths(profile, ranks, start=burn, stop=min(stop, size - 5))
    if rounds_after_cut:
        end = burn + sum(lengths)  # a round has at most 6 cards: so many rounds start by then
        after = round_lengths(profile, ranks, start=end,
                              stop=min(size - 5, end + 6 * rounds_after_cut))
        lengths += after[:rounds_after_cut]
    starts = burn + np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.intp)
    arr = np.asarray(ranks, dtype=np.int64)
    seen = np.zeros((size + 1, 13), dtype=np.int64)
    seen[1:] = np.cumsum(np.eye(13, dtype=np.int64)[arr], axis=0)
    base = seen[burn].copy()  # burned cards are not seen ...
    if burn_rule == "casino" and count_burn:
        base[ranks[0]] -= 1  # ... but the one turned face up is
    comps = 4 * packs - (seen[starts] - base)
    slots = np.full((len(starts), 6), -1, dtype=np.int64)
    for j in range(6):
        where = starts + j
        ok = (j < np.asarray(lengths)) & (where < size)
        slots[ok, j] = arr[where[ok]]
    return comps, slots
