"""The house's cut for one seat: its figures per unit at a stake, the break-even cut.

A seat's nets are mapped one by one through
:func:`~odds.rules.house_cut.net_after_cut` (exact fractions); the break-even
fee and commission solve a linear equation.  This module imports no numpy (what
``lucky9 odds`` loads); the bank's round with the cut is :mod:`odds.money.cut`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from fractions import Fraction

from odds.exact.results import RoundOdds, mean_and_variance
from odds.rules.errors import ProfileError
from odds.rules.house_cut import net_after_cut
from odds.rules.profile import Profile
from odds.rules.session_options import Session

__all__ = ["CUTS", "BreakEvenCut", "CutError", "SeatCut", "break_even_cut", "cut_data",
           "cut_stakes", "seat_after_cut", "seat_cuts"]

CUTS = ("fee", "commission")


class CutError(ProfileError):
    """A cut that cannot be solved for or applied."""


@dataclass(frozen=True)
class SeatCut:
    """A bet's figures per unit at ``stake`` before and after the house's cut."""

    stake: Fraction
    fee: Fraction
    commission: Fraction
    before: tuple[Fraction, Fraction]  # EV, variance per unit
    after: tuple[Fraction, Fraction]

    @property
    def bank_edge(self) -> Fraction:
        """The bank's edge per unit staked after the cut."""
        return -self.after[0]


def seat_after_cut(result: RoundOdds, session: Session, stake: Fraction = Fraction(1),
                   bet: str = "player") -> SeatCut:
    """A bet's EV and variance per unit at ``stake`` after the session's fee and commission.

    ``result.profile`` is the profile at ``stake`` (its ``max_bonus`` applied).

    >>> from odds import BUILTIN, Shoe, round_odds
    >>> r = round_odds(BUILTIN["plain"], Shoe.packs_of(1))
    >>> c = seat_after_cut(r, Session(fee=Fraction(1, 100)))
    >>> c.after[0] == c.before[0] - Fraction(1, 100), c.after[1] == c.before[1]
    (True, True)
    """
    fee, commission = session.fee or Fraction(0), session.commission or Fraction(0)
    dist: dict[Fraction, Fraction] = defaultdict(Fraction)
    for net, p in result.payout_distribution(bet).items():
        dist[net_after_cut(net, fee, commission, stake)] += p
    return SeatCut(stake, fee, commission, result.bet_moments(bet), mean_and_variance(dist))


def cut_stakes(profile: Profile) -> tuple[Fraction, ...]:
    """The stakes a seat's figures after the cut are shown at: the fee is money, so per unit
    it depends on the stake.

    Each distinct stake of the profile's ``[session]`` (``--stake S`` sets one), else the
    stake of its ``max_bonus``, else 1.

    >>> cut_stakes(Profile("x", "x", session=Session(stakes=(Fraction(2), Fraction(1),
    ...                                                       Fraction(2)))))
    (Fraction(1, 1), Fraction(2, 1))
    """
    stakes = profile.session.stakes
    if stakes:
        return tuple(sorted(set(stakes)))
    if profile.bonus_limit is not None:
        return (profile.bonus_limit.stake,)
    return (Fraction(1),)


def seat_cuts(result: RoundOdds, bet: str = "player") -> tuple[SeatCut, ...]:
    """:func:`seat_after_cut` at each of :func:`cut_stakes` (empty without a cut); under a
    ``max_bonus``, each at its own stake."""
    profile = result.profile
    session = profile.session
    if not session.has_cut:
        return ()
    out = []
    for stake in cut_stakes(profile):
        at = result
        if session.max_bonus is not None:
            at = replace(result, profile=profile.at_stake(stake))
        out.append(seat_after_cut(at, session, stake, bet))
    return tuple(out)


def cut_data(cuts: tuple[SeatCut, ...]) -> list[dict[str, str]]:
    """Seat figures after the cut as JSON-ready data (exact fractions as strings)."""
    def text(v: Fraction) -> str:
        return str(v.numerator) if v.denominator == 1 else str(v)

    return [{"stake": text(c.stake), "fee": text(c.fee), "commission": text(c.commission),
             "expected_value": text(c.after[0]), "variance": text(c.after[1]),
             "bank_edge": text(c.bank_edge)} for c in cuts]


@dataclass(frozen=True)
class BreakEvenCut:
    """The fee or commission at which the bank keeps ``edge`` of what is staked.

    ``value`` is None where no such cut exists (a commission of 1 or more,
    or one that changes nothing because no seat ever wins).
    """

    cut: str
    edge: Fraction
    stake: Fraction
    value: Fraction | None
    reason: str = ""


def break_even_cut(result: RoundOdds, cut: str, edge: Fraction = Fraction(0),
                   stake: Fraction = Fraction(1), session: Session | None = None,
                   bet: str = "player") -> BreakEvenCut:
    """The fee (money per seat per round at ``stake``) or commission that gives the bank ``edge``.

    The other cut keeps the session's value.  The bank's edge per unit is
    ``-EV``; the fee lowers EV by ``fee / stake``, the commission by
    ``commission * E[win]`` (the mean of the positive nets): both linear.

    >>> from odds import BUILTIN, Shoe, round_odds
    >>> r = round_odds(BUILTIN["standard"], Shoe.packs_of(6))
    >>> b = break_even_cut(r, "fee")
    >>> b.value == r.expected_value
    True
    >>> c = break_even_cut(r, "commission")
    >>> seat_after_cut(r, Session(commission=c.value)).after[0]
    Fraction(0, 1)
    """
    if cut not in CUTS:
        raise CutError(f"{cut!r} is not a cut (cuts: {', '.join(CUTS)})")
    session = result.profile.session if session is None else session
    base = replace(session, fee=None) if cut == "fee" else replace(session, commission=None)
    ev = seat_after_cut(result, base, stake, bet).after[0]
    target = -edge  # the EV per unit that gives the bank its edge
    if cut == "fee":
        value = (ev - target) * stake
        if value < 0:
            return BreakEvenCut(cut, edge, stake, None,
                                "the bank keeps more than that edge without a fee")
        return BreakEvenCut(cut, edge, stake, value)
    # EV(c) = EV(no commission, the fee taken) - c * E[win], the win the positive net.
    win = sum((net * p for net, p in result.payout_distribution(bet).items() if net > 0),
              Fraction(0))
    if win == 0:
        return BreakEvenCut(cut, edge, stake, None, "no seat ever wins: a commission takes nothing")
    value = (ev - target) / win
    if value < 0:
        return BreakEvenCut(cut, edge, stake, None,
                            "the bank keeps more than that edge without a commission")
    if value >= 1:
        return BreakEvenCut(cut, edge, stake, None,
                            "even a commission of the whole win does not reach that edge")
    return BreakEvenCut(cut, edge, stake, value)
