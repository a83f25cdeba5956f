"""Who draws a third card: a profile's drawing rules, decided in one place.

Every part of the library that deals a round (the exact engine, the batch
engine, the event enumerator, the simulator, the verifier's audit, a dealt
shoe split into rounds, the bank's seats, the family game) asks this module,
so the rule is written once:

- a natural never draws;
- with ``naturals_stop_draws``, nobody draws when either hand is a natural;
- otherwise the player draws when its rule says so on its two-card value,
  and the banker when its rule says so on its own value and the player's
  third card (``None``: the player stood), as baccarat's tableau does.

A profile whose rule is ``None`` (the family rules: the players choose) has
no fixed decision: :func:`who_draws` refuses it with a
:class:`~odds.rules.errors.ProfileError`.  A rule's open cells (chemin de
fer's) are where a side may choose; :func:`who_may_choose` says where, and
the fixed decision there is the rule's default.

>>> from odds.rules.profiles import BUILTIN
>>> who_draws(BUILTIN["punto-banco"], 4, 5, 6)
(True, True)
>>> who_draws(BUILTIN["punto-banco"], 4, 5, 1)
(True, False)
>>> who_draws(BUILTIN["standard"], 9, 0)
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from odds.rules.errors import ProfileError
from odds.rules.profile import Profile
from odds.rules.rule_types import DrawRule

__all__ = ["STOOD", "DrawTable", "draw_table", "fixed_rules", "forced_draws", "hand_draws",
           "who_draws", "who_may_choose"]

STOOD = 10
"""The index that stands for "the player took no third card" in a table's last axis."""


def fixed_rules(profile: Profile) -> tuple[DrawRule, DrawRule]:
    """The profile's player and banker rules, refusing a profile where players choose.

    >>> from odds.rules.profiles import BUILTIN
    >>> fixed_rules(BUILTIN["family"])
    Traceback (most recent call last):
    ...
    odds.rules.errors.ProfileError: profile 'family' has no fixed draw rule (the players choose), ...
    """
    player_rule, bank_rule = profile.player_draw, profile.bank_draw
    if player_rule is None or bank_rule is None:
        raise ProfileError(
            f"profile {profile.key!r} has no fixed draw rule (the players choose), "
            "so this computation, which deals rounds by the rules, cannot use it; "
            "solve it as a game (lucky9 solve) or give both rules"
        )
    return player_rule, bank_rule


def _may_draw(naturals: frozenset[int], stop: bool, player_value: int,
              bank_value: int) -> tuple[bool, bool]:
    """Whether each side may take a third card at all (naturals settle first)."""
    p_nat, b_nat = player_value in naturals, bank_value in naturals
    halted = stop and (p_nat or b_nat)
    return not halted and not p_nat, not halted and not b_nat


def who_draws(profile: Profile, player_value: int, bank_value: int,
              third_card: int | None = None) -> tuple[bool, bool]:
    """(the player draws, the banker draws) for these two-card values.

    ``third_card`` is the point value (0-9) of the player's third card, or
    None where the player stood; the player's own decision never depends
    on it.  A rule's open cells take the rule's default here.
    """
    table = draw_table(profile)
    return (table.player[player_value][bank_value],
            table.bank[player_value][bank_value][STOOD if third_card is None else third_card])


def who_may_choose(profile: Profile, player_value: int, bank_value: int,
                   third_card: int | None = None) -> tuple[bool, bool]:
    """(the player may choose, the banker may choose) here.

    A side with no fixed rule may choose wherever it may draw at all; a side
    with a rule, on the rule's open cells only.

    >>> from odds.rules.profiles import BUILTIN
    >>> who_may_choose(BUILTIN["chemin-de-fer"], 5, 3)
    (True, False)
    """
    may_p, may_b = _may_draw(profile.naturals, profile.naturals_stop_draws, player_value, bank_value)
    p_rule, b_rule = profile.player_draw, profile.bank_draw
    return (may_p and (p_rule is None or p_rule.chooses(player_value, None)),
            may_b and (b_rule is None or b_rule.chooses(bank_value, third_card)))


def forced_draws(profile: Profile, player_value: int, bank_value: int,
                 third_card: int | None = None) -> tuple[bool | None, bool | None]:
    """Each side's fixed decision here, or None where that side may choose.

    Unlike :func:`who_draws` this takes a profile where a side has no rule
    (the family rules): such a side is free wherever it may draw at all, and
    must stand where it may not (a natural, or a natural facing it under
    ``naturals_stop_draws``).

    >>> from odds.rules.profiles import BUILTIN
    >>> forced_draws(BUILTIN["chemin-de-fer"], 5, 3), forced_draws(BUILTIN["family"], 4, 8)
    ((None, True), (None, None))
    >>> forced_draws(BUILTIN["family"], 4, 9)
    (False, False)
    """
    may_p, may_b = _may_draw(profile.naturals, profile.naturals_stop_draws, player_value,
                             bank_value)
    free_p, free_b = who_may_choose(profile, player_value, bank_value, third_card)
    p_rule, b_rule = profile.player_draw, profile.bank_draw
    player = None if free_p else may_p and p_rule is not None and p_rule.decide(player_value, None)
    bank = None if free_b else may_b and b_rule is not None and b_rule.decide(bank_value, third_card)
    return player, bank


def hand_draws(profile: Profile) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
    """Who draws at a table of several seats: (player, bank), each by its own two-card value.

    With several player hands a hand can only decide on its own two cards:
    a bank tableau (which player's third card?) or naturals that stop every
    draw (whose natural?) are defined for one player hand, and refused with
    a :class:`~odds.rules.profiles.ProfileError`.

    >>> from odds.rules.profiles import BUILTIN
    >>> player, bank = hand_draws(BUILTIN["standard"])
    >>> [v for v in range(10) if player[v]], [v for v in range(10) if bank[v]]
    ([0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5])
    >>> hand_draws(BUILTIN["punto-banco"])
    Traceback (most recent call last):
    ...
    odds.rules.errors.ProfileError: profile 'punto-banco': the bank's draw looks at ...
    """
    player_rule, bank_rule = fixed_rules(profile)
    if player_rule.choose or player_rule.open or bank_rule.choose or bank_rule.open:
        raise ProfileError(
            f"profile {profile.key!r} has no fixed draw rule (a side may choose on its open "
            "cells), which a table dealt by fixed rules cannot follow")
    if bank_rule.tableau is not None:
        raise ProfileError(
            f"profile {profile.key!r}: the bank's draw looks at the player's third card "
            "(a tableau), which the rules define for one player only")
    if profile.naturals_stop_draws:
        raise ProfileError(
            f"profile {profile.key!r}: a natural stops every draw, which the rules define "
            "for one player hand only")
    table = draw_table(profile)
    # Without stopping naturals and a tableau, a cell depends on its own value
    # alone: read the player's against a bank of 0, the bank's where the player stood.
    return (tuple(table.player[v][0] for v in range(10)),
            tuple(table.bank[0][v][STOOD] for v in range(10)))


@dataclass(frozen=True)
class DrawTable:
    """Every decision of a fixed profile: ``player[pv][bv]``, ``bank[pv][bv][x]``.

    ``x`` is the player's third-card value, or :data:`STOOD` (10) where the
    player stood.  Nested tuples, so that ``numpy.array(table.bank)`` is the
    vectorised view (this layer stays free of numpy).
    """

    player: tuple[tuple[bool, ...], ...]
    bank: tuple[tuple[tuple[bool, ...], ...], ...]


def draw_table(profile: Profile) -> DrawTable:
    """The profile's decisions for every pair of two-card values, computed once.

    >>> from odds.rules.profiles import BUILTIN
    >>> t = draw_table(BUILTIN["punto-banco"])
    >>> t.player[5][3], t.bank[5][3][8], t.bank[5][3][STOOD]
    (True, False, True)
    """
    player_rule, bank_rule = fixed_rules(profile)
    return _table(profile.naturals, profile.naturals_stop_draws, player_rule, bank_rule)


@lru_cache(maxsize=64)
def _table(naturals: frozenset[int], stop: bool, player_rule: DrawRule,
           bank_rule: DrawRule) -> DrawTable:
    player: list[tuple[bool, ...]] = []
    bank: list[tuple[tuple[bool, ...], ...]] = []
    for pv in range(10):
        prow: list[bool] = []
        brow: list[tuple[bool, ...]] = []
        for bv in range(10):
            may_p, may_b = _may_draw(naturals, stop, pv, bv)
            prow.append(may_p and player_rule.decide(pv, None))
            brow.append(tuple(may_b and bank_rule.decide(bv, None if x == STOOD else x)
                              for x in range(11)))
        player.append(tuple(prow))
        bank.append(tuple(brow))
    return DrawTable(tuple(player), tuple(bank))

