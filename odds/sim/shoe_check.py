"""A logged shoe checked card by card: no card dealt more often than the shoe
holds it, rounds in order, and what was dealt before each round (for the
exact odds of continuous shoes).  Violations as :mod:`odds.sim.audit` reports them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from odds.rules.cards import POINTS, RANKS
from odds.rules.shoe import Shoe
from odds.sim.audit import EXAMPLES, Violation
from odds.sim.logs import CODE_RANK, IntArray, Log, code_name
from odds.sim.tallies import (
    TallyError,
)

__all__ = ["DealtBefore", "OutOfOrder", "ShoeCheck", "check_shoe"]


@dataclass
class ShoeCheck:
    """What :func:`check_shoe` found: rounds, card-count violations, compositions."""

    index: IntArray  # each row's round (0..rounds-1, dense, in round-number order)
    first: IntArray  # the first row (lowest seat) of each round
    violations: list[Violation]
    counts: dict[str, int]
    # With a shoe column: the cards left (per rank A..K) before each round.
    compositions: IntArray | None = None
    suits_ignored: int = 0  # rounds with suited cards, from a shoe of ranks without suits
    # shoe -> [line of its first over-dealt round, rows of that shoe after it]
    spoiled: dict[int, list[int]] = field(default_factory=dict)
    # A shoe of packs that some round over-deals: the fewest packs that hold every
    # round, the copies of the card (or rank) that sets it, and its name; else None.
    packs_needed: tuple[int, int, str] | None = None


class OutOfOrder(Exception):
    """A log's rows come in an order that block-by-block reading cannot follow.

    Raised between blocks (a round or shoe seen in an earlier block comes
    back); the verifier then reads the file whole.  Never reaches a user.
    """


@dataclass
class DealtBefore:
    """Cards dealt in each shoe by the earlier blocks of a log read block by block.

    ``open``: shoe number -> counts per rank (13), then per card (52), of
    the shoes of the last block; a shoe left behind is ``closed``: if it comes
    back, :class:`OutOfOrder`.
    """

    open: dict[int, IntArray] = field(default_factory=dict)
    closed: set[int] = field(default_factory=set)
    # A shoe dealt past what it holds: its first such row's line, and the rows of
    # that shoe after it (not judged card by card: one break, not a cascade).
    spoiled: dict[int, list[int]] = field(default_factory=dict)


def check_shoe(log: Log, shoe: Shoe, seats: int, where: str,
               dealt: DealtBefore | None = None) -> ShoeCheck:
    """Rows of each round: one per seat, the same bank, cards the shoe can hold.

    A round that deals more of a card than the stated shoe holds (within the
    round, or with a ``shoe`` column within the shoe: all cards of earlier
    rounds of that shoe, every seat's and the bank's, count as dealt) is a
    rule break of the simulator, reported as a violation (rule ``cards``),
    as is a hand of fewer than 2 or more than 3 cards (rule ``hand size``).
    """
    key = log.key()  # with a shoe column, (shoe, round): rounds may restart per shoe
    if np.all(key[1:] > key[:-1]):
        order = np.arange(len(key))  # one row per round, in order (heads-up)
    else:
        order = np.lexsort((log.seat, key))
    r, s = key[order], log.seat[order]
    dup = np.flatnonzero((r[1:] == r[:-1]) & (s[1:] == s[:-1]))
    if dup.size:
        a, b = order[dup[0]], order[dup[0] + 1]
        in_shoe = "" if log.shoe is None else f" of shoe {log.shoe[a]}"
        fix = ("" if log.shoe is not None else "; if round numbers start again in every "
               "shoe, add a shoe column (the shoe's number) to tell the rounds apart")
        raise TallyError(
            f"{where}, line {log.line[max(a, b)]}: round {log.round[a]}{in_shoe} seat "
            f"{s[dup[0]]} is given twice (also line {log.line[min(a, b)]}){fix}"
        )
    over = np.flatnonzero(log.seat > seats)
    if over.size:
        i = int(over[0])
        raise TallyError(
            f"{where}, line {log.line[i]}: seat {log.seat[i]}, but the run has {seats} "
            f"seat{'s' if seats > 1 else ''}"
        )
    starts = np.flatnonzero(np.r_[True, r[1:] != r[:-1]])
    first = order[starts]  # the first row (lowest seat) of each round, in round order
    index = np.empty(len(order), dtype=np.int64)
    index[order] = np.cumsum(np.r_[True, r[1:] != r[:-1]]) - 1
    same = (log.bank == log.bank[first[index]]).all(axis=1)
    bad = np.flatnonzero(~same)
    if bad.size:
        i = int(bad[0])
        raise TallyError(
            f"{where}, line {log.line[i]}: round {log.round[i]}: the bank's cards differ "
            f"from line {log.line[first[index[i]]]} (every seat faces the same bank hand)"
        )
    found: list[tuple[int, str, str]] = []  # (row, rule, message)
    counts = {"hand size": 0, "cards": 0}
    for who, size in (("player", log.player_size), ("bank", log.bank_size)):
        if size is None:
            continue
        wrong = np.flatnonzero((size < 2) | (size > 3))
        counts["hand size"] += int(wrong.size)
        found += [(int(i), "hand size",
                   f"the {who}'s hand has {size[i]} cards; a hand has 2, or 3 after a draw")
                  for i in wrong[:EXAMPLES]]
    check = ShoeCheck(index, first, [], counts)
    if not shoe.infinite:
        _card_counts(log, shoe, seats, check, found, dealt)
    found.sort()
    for i, rule, message in found[:EXAMPLES]:
        check.violations.append(Violation(int(log.line[i]), int(log.round[i]),
                                          int(log.seat[i]), rule, message))
    return check


def _card_counts(log: Log, shoe: Shoe, seats: int, check: ShoeCheck,
                 found: list[tuple[int, str, str]], dealt: DealtBefore | None = None) -> None:
    """Cards per round (and per shoe) against the stated shoe; compositions.

    ``dealt``: the cards of each shoe dealt in earlier blocks of the log,
    counted in and brought up to date.
    """
    first, index = check.first, check.index
    width = 3 * seats + 3  # every card of each round: each seat's three slots, the bank's
    cards = np.full((len(first), width), -1, dtype=np.int64)
    cols = 3 * (log.seat[:, None] - 1) + np.arange(3)
    cards[index[:, None], cols] = log.player
    cards[:, 3 * seats:] = log.bank[first]
    ranks = np.where(cards >= 0, CODE_RANK[np.maximum(cards, 0)], 13)
    rows = len(first)
    # Counts per round by bincount of (round, rank) cells: far faster than np.add.at.
    cell = np.repeat(np.arange(rows, dtype=np.int64), width)
    per_round = np.bincount(cell * 14 + ranks.ravel(), minlength=rows * 14).reshape(rows, 14)
    per_round = per_round[:, :13]
    held = np.array(shoe.counts, dtype=np.int64)
    if log.values:
        # Cards as point values: the four zero-point ranks are one class (column of the 10).
        held = np.array(shoe.counts[:9] + (sum(shoe.counts[9:]), 0, 0, 0), dtype=np.int64)
    suited = (cards >= 0) & (cards < 52)
    by_card: Any = None
    card_before: IntArray | None
    if shoe.packs is not None and suited.any():
        by_card = np.bincount(cell * 53 + np.where(suited, cards, 52).ravel(),
                              minlength=rows * 53).reshape(rows, 53)[:, :52].astype(np.int32)
    elif shoe.packs is None and suited.any():
        # A composition of ranks says nothing of suits: a suit written on a card
        # is read past (its rank is counted as any other card's), and noted.
        check.suits_ignored += int(suited.any(axis=1).sum())
    if log.shoe is None:
        before = np.zeros_like(per_round)
        card_before = None if by_card is None else np.zeros_like(by_card)
        what = "in one round"
    else:
        shoe_of = log.shoe[first]
        seq = np.lexsort((first, shoe_of))  # rounds shoe by shoe, in file (deal) order
        sorted_shoe = shoe_of[seq]
        new = np.r_[True, sorted_shoe[1:] != sorted_shoe[:-1]]
        group = np.cumsum(new) - 1
        starts = np.flatnonzero(new)

        def dealt_before(per: npt.NDArray[np.int64] | npt.NDArray[np.int32]) -> IntArray:
            cum = np.cumsum(per[seq], axis=0, dtype=np.int64)
            base = np.vstack([np.zeros((1, per.shape[1]), dtype=np.int64),
                              cum[starts[1:] - 1]])
            within = cum - base[group] - per[seq]
            out: IntArray = np.empty_like(within)
            out[seq] = within
            return out

        before = dealt_before(per_round)
        card_before = None if by_card is None else dealt_before(by_card)
        if dealt is not None:
            before, card_before = _carry(dealt, shoe_of, per_round, by_card, before,
                                         card_before)
        what = "counting the cards dealt earlier in its shoe"
        check.compositions = held[None, :] - before
    over = (before + per_round) > held[None, :]
    if card_before is not None and by_card is not None:
        over_card = (card_before + by_card) > (shoe.packs or 0)
    else:
        over_card = np.zeros((len(first), 1), dtype=bool)
    bad = over.any(axis=1) | over_card.any(axis=1)
    if shoe.packs is not None and bad.any():
        check.packs_needed = _packs_needed(before + per_round, held // shoe.packs,
                                           None if card_before is None or by_card is None
                                           else card_before + by_card, log.values)
    if log.shoe is not None:
        bad = _first_in_shoe(log, check, bad, shoe_of, seq, group, dealt or DealtBefore())
    check.counts["cards"] += int(bad.sum())
    for k in np.flatnonzero(bad)[:EXAMPLES].tolist():
        if over[k].any():
            rd = int(np.flatnonzero(over[k])[0])
            total = int(before[k, rd] + per_round[k, rd])
            kind = (f"value {POINTS[rd]}" if log.values else f"rank {RANKS[rd].value}")
            text = (f"deals {total} cards of {kind} {what}, but the "
                    f"shoe ({shoe.label}) holds {held[rd]}")
        else:
            assert card_before is not None and by_card is not None
            c = int(np.flatnonzero(over_card[k])[0])
            total = int(card_before[k, c] + by_card[k, c])
            text = (f"deals {total} {code_name(c)} {what}, but the shoe "
                    f"({shoe.label}) holds {shoe.packs}")
        found.append((int(first[k]), "cards",
                       text + ": these cards cannot come from the stated shoe"))


def _packs_needed(rank_total: IntArray, per_pack: IntArray, card_total: Any,
                  values: bool) -> tuple[int, int, str]:
    """The fewest packs that hold every round's cards (with what was dealt before them)."""
    top = rank_total.max(axis=0)
    r = int(np.argmax(-(-top // np.maximum(per_pack, 1))))
    packs, copies = -(-int(top[r]) // max(int(per_pack[r]), 1)), int(top[r])
    name = f"value {POINTS[r]}" if values else f"rank {RANKS[r].value}"
    if card_total is not None:
        most = card_total.max(axis=0)
        c = int(np.argmax(most))
        if int(most[c]) >= packs:
            packs, copies, name = int(most[c]), int(most[c]), code_name(c)
    return packs, copies, name


def _first_in_shoe(log: Log, check: ShoeCheck, bad: npt.NDArray[np.bool_], shoe_of: IntArray,
                   seq: IntArray, group: IntArray, dealt: DealtBefore) -> npt.NDArray[np.bool_]:
    """Only the first over-dealt round of each shoe is a break.

    Once a shoe has dealt more of a card than it holds, every later round of
    it counts that card as over-dealt too: one fault, not a cascade.  The
    later rows of the shoe are counted in ``dealt.spoiled`` (across blocks).
    """
    in_order: IntArray = bad[seq].astype(np.int64)
    prior: IntArray = np.cumsum(in_order) - in_order  # breaks in deal order before each round
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    base: IntArray = prior[starts]  # those of the earlier shoes
    earlier: npt.NDArray[np.bool_] = prior - base[group] > 0  # a break earlier in this shoe
    earlier |= np.isin(shoe_of[seq], list(dealt.spoiled))  # or in an earlier block
    later = np.zeros(len(bad), dtype=bool)
    later[seq] = earlier
    first = bad & ~later
    rows = np.bincount(check.index, minlength=len(bad))
    for k in np.flatnonzero(first).tolist():
        dealt.spoiled[int(shoe_of[k])] = [int(log.line[check.first[k]]), 0]
    ids, inverse = np.unique(shoe_of[later], return_inverse=True)
    for name, count in zip(ids.tolist(), np.bincount(inverse.ravel(), weights=rows[later],
                                                      minlength=len(ids)).tolist(), strict=True):
        dealt.spoiled[name][1] += int(count)
    check.spoiled = dealt.spoiled
    return first


def _carry(dealt: DealtBefore, shoe_of: IntArray, per_round: IntArray, by_card: Any,
           before: IntArray, card_before: IntArray | None
           ) -> tuple[IntArray, IntArray | None]:
    """Add the cards of earlier blocks to ``before``; count this block's in ``dealt``."""
    ids, inverse = np.unique(shoe_of, return_inverse=True)
    inverse = inverse.ravel()
    names = ids.tolist()
    if dealt.closed.intersection(names):
        raise OutOfOrder("a shoe comes back after other shoes")
    base = np.zeros((len(ids), 65), dtype=np.int64)
    for j, name in enumerate(names):
        if name in dealt.open:
            base[j] = dealt.open[name]
    before = before + base[inverse, :13]
    if card_before is not None:
        card_before = card_before + base[inverse, 13:]
    total = base.copy()
    np.add.at(total[:, :13], inverse, per_round)
    if by_card is not None:
        np.add.at(total[:, 13:], inverse, by_card)
    dealt.closed.update(set(dealt.open) - set(names))
    dealt.open = dict(zip(names, total, strict=True))
    return before, card_before
