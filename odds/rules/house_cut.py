"""The house's cut: a fee per seat per round and a commission on a seat's win.

Where the players have the edge, a house lives from its cut (docs/bank.md,
"The owner's night").  Two cuts, both options of a profile's ``[session]``
(:class:`~odds.rules.session_options.Session`):

* ``fee``: collected from every seat every round, whatever the result, in
  money.  It shifts a seat's net by a constant: the mean moves, the variance
  does not.
* ``commission``: the share of a winning seat's win the house keeps, taken
  from what the seat is paid after every cap.  A win of ``w`` pays
  ``w * (1 - commission)``; a push or a loss is untouched.

:func:`net_after_cut` is the one place a seat's settled net becomes its net
after the cut.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["cut_note", "net_after_cut", "share_text"]


def net_after_cut(net: Fraction, fee: Fraction | None, commission: Fraction | None,
                  stake: Fraction = Fraction(1)) -> Fraction:
    """A seat's net after the house's cut: the commission on a win, then the fee.

    ``net`` and the result are per unit of ``stake``; ``fee`` is in money (so
    ``fee / stake`` per unit), ``commission`` a share (None: no cut).

    >>> net_after_cut(Fraction(2), Fraction(5), Fraction(1, 20), Fraction(100))
    Fraction(37, 20)
    >>> net_after_cut(Fraction(-1), Fraction(5), Fraction(1, 20), Fraction(100))
    Fraction(-21, 20)
    >>> net_after_cut(Fraction(0), None, Fraction(1, 20))
    Fraction(0, 1)
    """
    if net > 0 and commission:
        net = net * (1 - commission)
    if fee:
        net -= fee / stake
    return net


def share_text(share: Fraction) -> str:
    """A share as people write it: ``5%`` where it is a whole or short percent, else a fraction.

    >>> share_text(Fraction(1, 20)), share_text(Fraction(1, 40)), share_text(Fraction(1, 3))
    ('5%', '2.5%', '1/3')
    """
    percent = share * 100
    for places in range(5):
        scaled = percent * 10**places
        if scaled.denominator == 1:
            whole, part = divmod(int(scaled), 10**places)
            return f"{whole}.{part:0{places}d}%" if places else f"{whole}%"
    return f"{share.numerator}/{share.denominator}"


def cut_note(fee: Fraction | None, commission: Fraction | None) -> str | None:
    """The house's cut in one line, or None without one.

    >>> cut_note(Fraction(10), Fraction(1, 20))
    "the house's cut: a fee of 10 per seat per round; a commission of 5% of a seat's win"
    >>> cut_note(None, Fraction(0)) is None
    True
    """
    parts = []
    if fee:
        parts.append(f"a fee of {_amount(fee)} per seat per round")
    if commission:
        parts.append(f"a commission of {share_text(commission)} of a seat's win")
    return "the house's cut: " + "; ".join(parts) if parts else None


def _amount(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(value)
