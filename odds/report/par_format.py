"""A PAR sheet's figures as text: what its Markdown and HTML forms print alike.

The sheet's data (:func:`odds.report.par.par_data`) holds exact fractions as
strings and sampled figures as means with intervals; these turn them into
the decimals and percentages both forms print.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from odds.rules.text import decimal, percent

__all__ = ["RETURN_TITLE", "estimate_text", "ev_percent", "fraction_decimal", "hit_percent",
           "study_line"]


RETURN_TITLE = "Contribution to the return (pays x probability, in percent of the stake)"


def fraction_decimal(text: str | None, digits: int = 6) -> str:
    """A fraction string as a rounded decimal."""
    return "—" if text is None else decimal(Fraction(text), digits)


def hit_percent(text: str, digits: int = 4) -> str:
    """A probability in percent (a hit frequency), unsigned."""
    return decimal(Fraction(text) * 100, digits) + "%"


def ev_percent(text: str | None, digits: int = 4) -> str:
    """Money per unit staked (an EV, an edge, a line's contribution, an EV change) in percent
    of the stake, as every command prints a bet's EV (:func:`odds.rules.text.percent`).

    >>> ev_percent("-64613588827/848912750595"), ev_percent("48625789144/97624966318425", 6)
    ('-7.6113%', '+0.049809%')
    """
    return "—" if text is None else percent(Fraction(text), digits)


def estimate_text(entry: dict[str, Any] | None, digits: int = 4, scale: float = 1.0,
         unit: str = "") -> str:
    """A sampled figure: mean, and its 95% interval."""
    if entry is None or entry.get("mean") is None:
        return "—"
    mean = entry["mean"] * scale
    ci = entry.get("ci95")
    if ci is None:
        return f"{mean:+.{digits}f}{unit}"
    return (f"{mean:+.{digits}f}{unit} (95%: {ci[0] * scale:+.{digits}f}{unit} to "
            f"{ci[1] * scale:+.{digits}f}{unit})")


def study_line(data: dict[str, Any]) -> str:
    """How the shoe study was made, in one sentence (for every format)."""
    c = data["countability"]
    if c is None:
        return "left out (--no-count)"
    s = c["study"]
    return (f"{s['shoes']:,} shoes of {s['packs']} packs, seed {s['seed']}, cut card with "
            f"{s['cards_behind_cut_card']} cards behind it (penetration "
            f"{s['cut_card_after'] / s['cards']:.3f}), no burn; "
            f"{s['rounds']:,} rounds ({s['rounds_per_shoe']['mean']:.2f} a shoe)")
