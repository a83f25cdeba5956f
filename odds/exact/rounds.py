"""A dealt shoe, round by round: reading a dealer's record, shuffling, splitting into rounds.

A shoe's cards come out in deal order (RULES.md section 2, one seat): player,
bank, player, bank, then the player's third card if the rules make the
player draw, then the bank's if they make the bank draw.  So a round takes 4,
5 or 6 cards, and how many depends on the cards: **the sequence is split by
replaying it under the profile's fixed rules**.  A record needs no round
marks; where it has them (a blank line or a line ``--``), each must fall on a
boundary of the replay, so that a mis-recorded card is caught where it
happened rather than silently shifting every later round.

A card record (:func:`read_cards`) is text with one or more card tokens per
line, as :func:`odds.rules.cards.parse_card` reads them (``9h``, ``K``,
``T♥``), separated by spaces or commas; ``#`` starts a comment.  A shoe
shuffled here (:func:`shuffled_shoe`) is dealt to a cut card
(:func:`deal_rounds`): a round starts while fewer than ``cut`` cards are out
and at least six are left, so the round that passes the cut card is
finished and is the last.

Pure Python but for the shuffle (numpy's generator, imported when shuffling).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from odds.exact.engine import colon_class
from odds.rules.cards import POINTS, RANKS, Card, Suit, hand_value, parse_card
from odds.rules.draw import STOOD, DrawTable, draw_table
from odds.rules.profiles import Profile, ProfileError
from odds.rules.settle import Outcome, Pay, category, pay_entry
from odds.rules.shoe import Shoe

__all__ = [
    "CardRecord",
    "MAX_DEALT_PACKS",
    "check_dealable",
    "check_dealt_packs",
    "Round",
    "cut_position",
    "deal_rounds",
    "read_cards",
    "record_rounds",
    "round_lengths",
    "shuffled_shoe",
    "split_rounds",
]

MARKS = ("", "--")  # a blank line or a line "--" closes a round


@dataclass(frozen=True)
class CardRecord:
    """Cards in deal order, the line each came from, and the marked round ends.

    ``marks`` maps a card count k to the line of a mark that says a round
    ends after the k-th card.
    """

    cards: tuple[Card, ...]
    lines: tuple[int, ...]
    marks: tuple[tuple[int, int], ...] = ()


def read_cards(text: str | Iterable[str]) -> CardRecord:
    """Read a dealer's record: card tokens per line, blank or ``--`` lines close a round.

    A line holding only a comment (``# ...``) closes nothing.

    >>> record = read_cards("8h 7s 9c K\\n--\\n4 4, 2 3 # a comment\\nA\\n")
    >>> len(record.cards), record.lines[-1], record.marks
    (9, 4, ((4, 2),))
    >>> read_cards("8h 7s\\n9c 1x")
    Traceback (most recent call last):
    ...
    ValueError: line 2: '1x' is not a card (rank must be one of A 2 3 4 5 6 7 8 9 10 J Q K)
    """
    lines = text.splitlines() if isinstance(text, str) else list(text)
    cards: list[Card] = []
    where: list[int] = []
    marks: dict[int, int] = {}
    for number, raw in enumerate(lines, start=1):
        line = raw.split("#", 1)[0].strip()
        if not line and raw.strip():  # a comment alone on its line: not a round mark
            continue
        if line in MARKS:
            if cards:
                marks.setdefault(len(cards), number)
            continue
        for token in re.split(r"[\s,;\ufeff]+", line):  # a stray byte-order mark: a space
            if not token:
                continue
            try:
                cards.append(parse_card(token))
            except ValueError as exc:
                raise ValueError(f"line {number}: {exc}") from None
            where.append(number)
    marks.pop(len(cards), None)  # a mark after the last card closes nothing
    return CardRecord(tuple(cards), tuple(where), tuple(sorted(marks.items())))


@dataclass(frozen=True)
class Round:
    """One dealt round: its cards in deal order and how it settled for the player seat."""

    number: int  # 1, 2, ...
    start: int  # cards dealt in this shoe before the round
    player: tuple[Card, ...]
    bank: tuple[Card, ...]
    outcome: Outcome
    pay: Pay

    @property
    def cards(self) -> tuple[Card, ...]:
        """The round's cards in deal order: P B P B, then third cards."""
        out = [self.player[0], self.bank[0], self.player[1], self.bank[1]]
        out.extend(self.player[2:])
        out.extend(self.bank[2:])
        return tuple(out)

    def describe(self) -> str:
        """``P 8h 7s 2c (7)  B Ac 6d (7)  push``.

        >>> from odds.rules.profiles import BUILTIN
        >>> from odds.rules.cards import parse_cards
        >>> split_rounds(BUILTIN["standard"], parse_cards("9 9 9 K"))[0].describe()
        'P 9 9 (8)  B 9 K (9)  loss'
        """
        player = " ".join(map(str, self.player))
        bank = " ".join(map(str, self.bank))
        how = self.outcome.value if self.pay.value in (self.outcome.value, "loss") else (
            f"{self.outcome.value}, {self.pay.value.replace('_', ' ')}")
        return (f"P {player} ({hand_value(self.player)})  B {bank} ({hand_value(self.bank)})  "
                f"{how}")


def _draws(profile: Profile) -> DrawTable:
    """The profile's draw table (:func:`odds.rules.draw.draw_table`), refusing one where
    players choose with a message about splitting a shoe."""
    if not profile.fixed:  # the family rules; chemin de fer's open cells too: a record
        # dealt there follows the players' choices, which a replay cannot know
        raise ProfileError(
            f"profile {profile.key!r} has no fixed draw rule (players and bank choose), "
            "so a dealt shoe cannot be split into rounds"
        )
    return draw_table(profile)


def round_lengths(profile: Profile, ranks: Sequence[int], start: int = 0,
                  stop: int | None = None) -> list[int]:
    """Cards each round takes, dealing from ``ranks`` (rank indices 0..12) at ``start``.

    A round starts while fewer than ``stop`` cards are out (default: no cut
    card) and at least four are left; a last round short of the third cards
    it needs is counted with its full need, so the caller can see it is
    short (its length runs past the end).

    >>> from odds.rules.profiles import BUILTIN
    >>> round_lengths(BUILTIN["standard"], [8, 1, 8, 5, 9, 4, 12, 12, 2, 3])  # 9 2 9 6 | 10 5 K K 3 4
    [4, 6]
    """
    table = _draws(profile)
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


def _settle(profile: Profile, number: int, start: int, cards: Sequence[Card]) -> Round:
    player = [cards[0], cards[2]]
    bank = [cards[1], cards[3]]
    pv, bv = hand_value(player), hand_value(bank)
    table = _draws(profile)
    rest = list(cards[4:])
    x = STOOD
    if table.player[pv][bv]:
        player.append(rest.pop(0))
        x = player[2].points
    if table.bank[pv][bv][x]:
        bank.append(rest.pop(0))
    assert not rest
    outcome, _ = category(profile, pv, bv, hand_value(player), hand_value(bank))
    pcol = colon_class(profile, player[0].rank.index, player[1].rank.index)
    bcol = colon_class(profile, bank[0].rank.index, bank[1].rank.index)
    return Round(number, start, tuple(player), tuple(bank), outcome,
                 pay_entry(profile, outcome, pcol, bcol))


def check_dealable(shoe: Shoe, cards: Sequence[Card], lines: Sequence[int] | None = None) -> None:
    """Refuse a card dealt more often than ``shoe`` holds, naming the line and the card.

    >>> from odds.rules.cards import parse_cards
    >>> check_dealable(Shoe.packs_of(1), parse_cards("Ah 2 Ah"), [1, 1, 3])
    Traceback (most recent call last):
    ...
    ValueError: line 3: Ah is dealt 2 times, but the shoe (1 pack) holds only 1
    """
    if shoe.infinite:
        raise ValueError("an infinite shoe deals with replacement: follow a shoe of some packs")
    left = list(shoe.counts)
    suited: dict[Card, int] = {}
    for k, card in enumerate(cards):
        where = f"line {lines[k]}: " if lines is not None else f"card {k + 1}: "
        i = card.rank.index
        left[i] -= 1
        if left[i] < 0:
            raise ValueError(
                f"{where}{card} is card {shoe.counts[i] - left[i]} of rank {card.rank} dealt, "
                f"but the shoe ({shoe.label}) holds only {shoe.counts[i]}")
        if card.suit is not None and shoe.packs is not None:
            suited[card] = suited.get(card, 0) + 1
            if suited[card] > shoe.packs:
                raise ValueError(
                    f"{where}{card} is dealt {suited[card]} times, "
                    f"but the shoe ({shoe.label}) holds only {shoe.packs}")


def split_rounds(
    profile: Profile,
    cards: Sequence[Card],
    marks: Iterable[tuple[int, int]] = (),
    lines: Sequence[int] | None = None,
) -> tuple[Round, ...]:
    """Split cards in deal order into rounds by replaying them under ``profile``.

    Every card must belong to a complete round; every mark (a card count
    after which the record says a round ended, and the mark's line) must
    fall between rounds.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.rules.cards import parse_cards
    >>> rounds = split_rounds(BUILTIN["standard"], parse_cards("9 2 9 6 10 5 K K 3 4"))
    >>> [r.describe() for r in rounds]
    ['P 9 9 (8)  B 2 6 (8)  push', 'P 10 K 3 (3)  B 5 K 4 (9)  loss']
    >>> split_rounds(BUILTIN["standard"], parse_cards("9 2 9 6 10 5 K K 3"))
    Traceback (most recent call last):
    ...
    ValueError: round 2 (from card 5) needs 6 cards under the rules, but only 5 are left
    >>> split_rounds(BUILTIN["standard"], parse_cards("9 2 9 6 10 5"), [(5, 3)])
    Traceback (most recent call last):
    ...
    ValueError: the last 2 card(s), from card 5, are fewer than a round needs (4 to 6)
    """
    ranks = [c.rank.index for c in cards]
    lengths = round_lengths(profile, ranks)
    starts = [sum(lengths[:k]) for k in range(len(lengths) + 1)]
    # A mark inside a round is the most telling error: check marks first.
    for mark, line in sorted(marks):
        if mark > starts[-1]:
            continue  # inside the unfinished last round: the checks below say so
        if mark not in starts:
            k = max(k for k, start in enumerate(starts) if start < mark)
            where = f"line {line}: " if lines else ""
            raise ValueError(
                f"{where}the record closes a round after card {mark}, but under the rules "
                f"round {k + 1} runs from card {starts[k] + 1} to card {starts[k + 1]}")
    rounds: list[Round] = []
    pos = 0
    for number, n in enumerate(lengths, start=1):
        if pos + n > len(cards):
            where = f" (line {lines[pos]})" if lines else ""
            # Without the player's third card, the bank's need may be unknown (a tableau).
            need = f"{n}" if pos + 4 < len(cards) else f"at least {min(n, 5)}"
            raise ValueError(
                f"round {number} (from card {pos + 1}{where}) needs {need} cards under the "
                f"rules, but only {len(cards) - pos} are left")
        rounds.append(_settle(profile, number, pos, cards[pos:pos + n]))
        pos += n
    if pos < len(cards):
        where = f" (line {lines[pos]})" if lines else ""
        raise ValueError(
            f"the last {len(cards) - pos} card(s), from card {pos + 1}{where}, "
            "are fewer than a round needs (4 to 6)")
    return tuple(rounds)


def record_rounds(profile: Profile, shoe: Shoe, record: CardRecord) -> tuple[Round, ...]:
    """The rounds of a dealer's record, every card checked against ``shoe``.

    >>> from odds.rules.profiles import BUILTIN
    >>> rounds = record_rounds(BUILTIN["standard"], Shoe.packs_of(1), read_cards("9 2 9 6"))
    >>> rounds[0].outcome.value
    'push'
    """
    if not record.cards:
        raise ValueError("the record holds no cards")
    check_dealable(shoe, record.cards, record.lines)
    return split_rounds(profile, record.cards, record.marks, record.lines)


def cut_position(size: int, penetration: float) -> int:
    """Where the cut card sits: ``max(1, int(penetration * size))`` cards in.

    >>> cut_position(416, 0.8)
    332
    """
    if not 0 < penetration <= 1:
        raise ValueError(f"penetration must be more than 0 and at most 1, not {penetration!r}")
    return max(1, int(penetration * size))


def _permutation(size: int, seed: int, index: int) -> list[int]:
    """numpy's PCG64 seeded with ``[seed, index]``: shoe k of a seed, whatever the process."""
    import numpy as np  # only shuffling needs it; reading a record does not

    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"the seed is a whole number, 0 or more, not {seed!r}")
    order: list[int] = np.random.default_rng([seed, index]).permutation(size).tolist()
    return order


def shuffled_shoe(packs: int, seed: int, index: int = 0) -> tuple[Card, ...]:
    """``packs`` suited packs, shuffled: shoe ``index`` of seed ``seed``.

    The generator is numpy's PCG64 seeded with ``[seed, index]``, so shoe k
    of ``lucky9 count --seed S`` is the shoe ``lucky9 shoe --seed S --index k``
    follows, whatever the processes.

    >>> shoe = shuffled_shoe(1, 7)
    >>> len(shoe), len(set(shoe)), shoe == shuffled_shoe(1, 7)
    (52, 52, True)
    """
    check_dealt_packs(packs)
    cards = [Card(rank, suit) for _ in range(packs) for rank in RANKS for suit in Suit]
    return tuple(cards[i] for i in _permutation(len(cards), seed, index))


def shuffled_ranks(packs: int, seed: int, index: int = 0) -> list[int]:
    """The rank indices of :func:`shuffled_shoe` (the same shuffle), for studies.

    >>> shuffled_ranks(1, 7)[:5] == [c.rank.index for c in shuffled_shoe(1, 7)[:5]]
    True
    """
    check_dealt_packs(packs)
    return [(c % 52) // 4 for c in _permutation(52 * packs, seed, index)]


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


def deal_rounds(profile: Profile, cards: Sequence[Card], penetration: float) -> tuple[Round, ...]:
    """Deal a shuffled shoe round by round to the cut card.

    >>> from odds.rules.profiles import BUILTIN
    >>> rounds = deal_rounds(BUILTIN["standard"], shuffled_shoe(1, 7), 0.75)
    >>> rounds[-1].start < 39 <= rounds[-1].start + len(rounds[-1].cards)
    True
    """
    cut = cut_position(len(cards), penetration)
    lengths = round_lengths(profile, [c.rank.index for c in cards],
                            stop=min(cut, len(cards) - 5))
    used = sum(lengths)
    return split_rounds(profile, cards[:used])
