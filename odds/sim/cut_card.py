"""A cut card placed by the number of cards left behind it (``--cut-cards``), as the
penetration that puts it there (the form a run's header records)."""

from __future__ import annotations

import math

from odds.exact.deal import cut_position

__all__ = ["penetration_for_cut"]


def penetration_for_cut(size: int, cut_cards: int) -> float:
    """The penetration whose cut card leaves ``cut_cards`` of ``size`` cards behind it.

    ``(size - cut_cards) / size`` as a float can fall a hair short (1/49 * 49
    is 0.9999999999999999), and the cut card sits at ``int(penetration *
    size)`` cards: the next float up is taken where needed.

    >>> penetration_for_cut(416, 14)
    0.9663461538461539
    >>> cut_position(416, penetration_for_cut(416, 14))
    402
    >>> penetration_for_cut(52, 52)
    Traceback (most recent call last):
    ...
    ValueError: a cut card with 52 cards behind it leaves none to deal: the shoe holds 52 cards
    """
    if isinstance(cut_cards, bool) or not isinstance(cut_cards, int) or cut_cards < 0:
        raise ValueError(f"cut_cards must be a whole number 0 or more, not {cut_cards!r}")
    if cut_cards >= size:
        raise ValueError(f"a cut card with {cut_cards} cards behind it leaves none to deal: the "
                         f"shoe holds {size} cards")
    dealt = size - cut_cards
    penetration = dealt / size
    while int(penetration * size) < dealt:
        penetration = math.nextafter(penetration, 2.0)
    assert cut_position(size, penetration) == dealt
    return penetration
