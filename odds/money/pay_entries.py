"""Pay-table entries by name, as people type them (``colon-nine``, ``Colon_Nine``).

The names of :func:`odds.money.payout.parse_table`'s entries are Python
names (``colon_nine``); ``lucky9 payout --symbol`` and ``--solve`` take them
in any case, with hyphens or underscores.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["entry_names"]


def entry_names(names: Iterable[str]) -> list[str]:
    """Each name as a pay-table entry: stripped, lower case, hyphens as underscores.

    >>> entry_names([" Colon-Nine", "bank_colon"])
    ['colon_nine', 'bank_colon']
    """
    return [name.strip().lower().replace("-", "_") for name in names]
