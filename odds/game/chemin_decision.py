"""A chemin de fer decision at the table: what a solved side does with the hand it sees
(:func:`odds.game.chemin.solve_chemin` gives the strategies)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from odds.game.game import STOOD_LABEL, BankSet, Game, GameError, Hand, hand_total
from odds.rules.cards import Card

__all__ = ["Decision", "decision", "hand_of"]


@dataclass(frozen=True)
class Decision:
    """The EV of each choice at one decision, given the other side's strategy."""

    side: str
    where: Hand | BankSet
    stand: Fraction
    draw: Fraction
    weight: Fraction  # P(this information set is reached) under the strategies


def decision(game: Game, player: Mapping[Hand, Fraction], bank: Mapping[BankSet, Fraction],
             side: str, where: Hand | BankSet) -> Decision:
    """The player's EV of standing and of drawing at one information set.

    EVs are per unit, conditional on reaching the set (the player's EV,
    whoever decides).

    >>> from odds import BUILTIN, Shoe
    >>> from odds.game.chemin import chemin_game, solve_chemin
    >>> g = chemin_game(BUILTIN["chemin-de-fer"], Shoe.infinite_shoe(), "A1")
    >>> s = solve_chemin(g).equilibria[0]
    >>> d = decision(g, s.player, s.bank, "player", (5,))
    >>> d.stand == d.draw
    True
    """
    sums = [Fraction(0), Fraction(0)]
    for (ph, bh, seen, db), ev in game.ev_numerators().items():
        drew = seen != STOOD_LABEL
        if side == "player":
            if ph != where:
                continue
            q = game.bank_prob(bank, (bh, seen))
            sums[drew] += ev * (q if db else 1 - q)
        else:
            if (bh, seen) != where:
                continue
            rp = game.player_prob(player, ph)
            sums[db] += ev * (rp if drew else 1 - rp)
    mass = Fraction(0)  # the deals that reach the set (cells of a stand by the banker)
    for (ph, bh, seen, db), counts in game.cells.items():
        if db:
            continue
        if side == "player" and ph == where and seen == STOOD_LABEL:
            mass += sum(counts)
        elif side == "bank" and (bh, seen) == where:
            rp = game.player_prob(player, ph)
            mass += sum(counts) * (rp if seen != STOOD_LABEL else 1 - rp)
    if not mass:
        raise GameError("this situation cannot arise with these cards and strategies")
    return Decision(side, where, sums[0] / mass, sums[1] / mass, mass / game.total)


def hand_of(cards: tuple[Card, ...], information: str) -> Hand:
    """The information-set key of two cards: their values (cards) or their total.

    >>> from odds import parse_cards
    >>> hand_of(parse_cards("3h 2s"), "cards"), hand_of(parse_cards("3h 2s"), "totals")
    ((2, 3), (5,))
    """
    values = tuple(sorted(c.points for c in cards))
    return values if information == "cards" else (hand_total(values),)
