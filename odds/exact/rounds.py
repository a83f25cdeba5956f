"""A dealt shoe, round by round: reading a dealer's record, splitting it into rounds.

A shoe's cards come out in deal order (docs/rules.md, 'A round'; one seat): player,
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
shuffled by the deal layer (:func:`odds.exact.deal.shuffled_shoe`) is dealt
to a cut card (:func:`deal_rounds`): a round starts while fewer than ``cut``
cards are out and at least six are left, so the round that passes the cut
card is finished and is the last.  The replay itself is the deal layer's
(:func:`odds.exact.deal.round_lengths`); here the rounds are settled.

Pure Python (numpy only where the deal layer shuffles).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from odds.exact.deal import cut_position, round_lengths
from odds.exact.engine import colon_class
from odds.rules.cards import Card, hand_value, parse_card
from odds.rules.draw import STOOD, draw_table
from odds.rules.profile import Profile
from odds.rules.settle import Outcome, Pay, category, pay_entry
from odds.rules.shoe import Shoe

__all__ = [
    "CardRecord",
    "check_dealable",
    "DealtRound",
    "deal_rounds",
    "read_cards",
    "record_rounds",
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
class DealtRound:
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


def _settle(profile: Profile, number: int, start: int, cards: Sequence[Card]) -> DealtRound:
    player = [cards[0], cards[2]]
    bank = [cards[1], cards[3]]
    pv, bv = hand_value(player), hand_value(bank)
    table = draw_table(profile)  # refused before, by round_lengths, where players choose
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
    return DealtRound(number, start, tuple(player), tuple(bank), outcome,
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
) -> tuple[DealtRound, ...]:
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
    rounds: list[DealtRound] = []
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


def record_rounds(profile: Profile, shoe: Shoe, record: CardRecord) -> tuple[DealtRound, ...]:
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


def deal_rounds(profile: Profile, cards: Sequence[Card], penetration: float) -> tuple[DealtRound, ...]:
    """Deal a shuffled shoe round by round to the cut card.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.exact.deal import shuffled_shoe
    >>> rounds = deal_rounds(BUILTIN["standard"], shuffled_shoe(1, 7), 0.75)
    >>> rounds[-1].start < 39 <= rounds[-1].start + len(rounds[-1].cards)
    True
    """
    cut = cut_position(len(cards), penetration)
    lengths = round_lengths(profile, [c.rank.index for c in cards],
                            stop=min(cut, len(cards) - 5))
    used = sum(lengths)
    return split_rounds(profile, cards[:used])
