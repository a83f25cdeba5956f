"""The deal: who draws as arrays, one shuffle convention, a shoe split into rounds.

Every part of the library that deals from a shoe's cards asks this module,
so that the deal is written once:

- :func:`draw_arrays`: the profile's draw rule (:func:`odds.rules.draw.draw_table`)
  as numpy arrays, for vectorised dealing;
- :func:`hand_draws`: who draws by a hand's own two-card value, for the
  computations that deal every hand by its own cards alone (a table of
  seats), refusing the rules under which that is not so;
- the decisions live in :mod:`odds.rules.draw`; nothing here decides a draw.

Low on purpose: it imports :mod:`odds.rules` and numpy only (numpy when a
function needs it, so that reading a record stays free of it).

>>> from odds.rules.profiles import BUILTIN
>>> player, bank = draw_arrays(BUILTIN["punto-banco"])
>>> player.shape, bank.shape, bool(bank[5, 3, 8]), bool(bank[5, 3, STOOD])
((10, 10), (10, 10, 11), False, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from odds.rules.draw import STOOD, draw_table
from odds.rules.profiles import Profile, ProfileError

if TYPE_CHECKING:
    import numpy as np

__all__ = ["STOOD", "draw_arrays", "hand_draws"]


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


def hand_draws(profile: Profile, computation: str) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
    """(a player hand draws, the bank draws) by the hand's own two-card value 0-9.

    Only where each hand's draw follows from its own two cards: ``computation``
    (what is asking, for the message) is refused with a ``ProfileError`` for
    a profile where players choose (the family rules, chemin de fer's open
    cells), a banker tableau (the bank looks at the player's third card) and
    naturals that stop every draw (a hand looks at the other's natural).

    >>> from odds.rules.profiles import BUILTIN
    >>> player, bank = hand_draws(BUILTIN["standard"], "the seats")
    >>> [v for v in range(10) if player[v]], [v for v in range(10) if bank[v]]
    ([0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5])
    >>> hand_draws(BUILTIN["punto-banco"], "the seats")
    Traceback (most recent call last):
    ...
    odds.rules.profiles.ProfileError: profile 'punto-banco': its banker draws by a tableau ...
    """
    if not profile.fixed:
        raise ProfileError(
            f"profile {profile.key!r} has no fixed draw rule (players and bank choose): "
            f"{computation} deal by fixed rules")
    bank_rule = profile.bank_draw
    if bank_rule is not None and bank_rule.tableau is not None:
        raise ProfileError(
            f"profile {profile.key!r}: its banker draws by a tableau (looking at the player's "
            f"third card), which {computation} do not handle: they deal each hand by its own "
            "two cards")
    if profile.naturals_stop_draws:
        raise ProfileError(
            f"profile {profile.key!r}: a natural stops every draw (the other hand's too), "
            f"which {computation} do not handle: they deal each hand by its own two cards")
    table = draw_table(profile)
    # Neither draw looks at the other hand here: read the player's at bank value 0 and
    # the bank's at player value 0, player stood.
    return (tuple(table.player[v][0] for v in range(10)),
            tuple(table.bank[0][v][STOOD] for v in range(10)))
