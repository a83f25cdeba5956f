"""The house's cut in figures: a seat's moments, the bank's round, the break-even cut.

The cut is a fee per seat per round and a commission on a seat's win
(:mod:`odds.rules.house_cut`, options of a profile's ``[session]``).  Both are
exact:

* a seat's figures per unit at a stake come from its payout distribution,
  each net mapped through :func:`~odds.rules.house_cut.net_after_cut`;
* the bank's round with a commission is the round of the pay table the
  commission amounts to (:func:`commissioned`: every amount a winning seat
  is paid, its caps included, times ``1 - commission``, which is exact because
  settling a table under caps is homogeneous in what winners are paid), and
  the fee adds ``players * fee`` to every one of the bank's nets (the mean
  moves, the variance does not);
* the break-even fee and commission solve a linear equation in exact
  fractions (:func:`break_even_cut`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from odds.exact.results import RoundOdds, mean_and_variance
from odds.money.bank import BankRound, bank_round
from odds.rules.errors import ProfileError
from odds.rules.house_cut import net_after_cut
from odds.rules.profile import Profile
from odds.rules.rule_types import BonusLimit
from odds.rules.session_options import Session
from odds.rules.shoe import Shoe

__all__ = ["CUTS", "BreakEvenCut", "CutError", "SeatCut", "bank_round_with_cut",
           "break_even_cut", "commissioned", "cut_data", "cut_stakes", "seat_after_cut",
           "seat_cuts", "with_fee"]

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


def commissioned(profile: Profile, session: Session) -> tuple[Profile, Session]:
    """The pay table and caps a commission amounts to (without it: both as given).

    A winning seat keeps ``1 - commission`` of what it is paid: every positive
    pay entry and every cap in money (``max_bonus``, ``round_cap``) scaled
    alike, so that a cap that binds binds on the same rounds.

    >>> from odds import BUILTIN
    >>> p, s = commissioned(BUILTIN["standard"], Session(commission=Fraction(1, 20),
    ...                                                  max_bonus=Fraction(5000)))
    >>> p.win, p.colon, p.colon_nine, s.max_bonus, s.commission
    (Fraction(19, 20), Fraction(19, 10), Fraction(57, 20), Fraction(4750, 1), None)
    """
    c = session.commission
    if not c:
        return profile, session
    keep = 1 - c

    def scaled(value: Fraction | None) -> Fraction | None:
        return None if value is None else value * keep

    changes = {"win": profile.win * keep, "colon": scaled(profile.colon),
               "colon_nine": scaled(profile.colon_nine)}
    limit = profile.bonus_limit
    if limit is not None:
        changes["bonus_limit"] = BonusLimit(limit.max_bonus * keep, limit.stake)
    if profile.bank_bonus:  # the bank collects what it did: pin its multipliers before scaling
        changes.update(bank_colon=profile.bank_multiplier(False),
                       bank_colon_nine=profile.bank_multiplier(True))
    session = replace(session, commission=None, max_bonus=scaled(session.max_bonus),
                      round_cap=scaled(session.round_cap))
    return replace(profile, **changes, session=session), session  # type: ignore[arg-type]


def with_fee(r: BankRound, fee: Fraction | None) -> BankRound:
    """The bank's round with ``fee`` collected from every seat: every net moves, not its spread.

    >>> from odds import BUILTIN
    >>> r = bank_round(BUILTIN["plain"], Shoe.infinite_shoe(), Session(players=2))
    >>> f = with_fee(r, Fraction(1, 10))
    >>> f.mean - r.mean, f.variance == r.variance
    (Fraction(1, 5), True)
    """
    if not fee:
        return r
    total = fee * r.players

    def shift(dist: Mapping[Fraction, Fraction], by: Fraction) -> dict[Fraction, Fraction]:
        return {v + by: p for v, p in dist.items()}

    moments = None if r.exact_moments is None else (r.exact_moments[0] + total,
                                                    r.exact_moments[1])
    seat = r.exact_seat
    if seat is not None:
        if len(set(r.stakes)) == 1:
            seat = (seat[0] - fee / r.stakes[0], seat[1])
        else:  # per unit, the fee differs from seat to seat: read each seat's distribution
            seat = None
    return replace(r, distribution=shift(r.distribution, total),
                   seats=tuple(shift(s, -fee) for s in r.seats), exact_moments=moments,
                   exact_seat=seat, session=replace(r.session, fee=fee))


def bank_round_with_cut(profile: Profile, shoe: Shoe | int | str | None = None,
                        session: Session | None = None, **options: object) -> BankRound:
    """:func:`~odds.money.bank.bank_round` with the session's fee and commission taken.

    The round returned keeps the profile and session as given (its cut named).

    >>> from odds import BUILTIN
    >>> s = Session(players=2, commission=Fraction(1, 20))
    >>> r = bank_round_with_cut(BUILTIN["plain"], Shoe.infinite_shoe(), s)
    >>> r.mean > bank_round(BUILTIN["plain"], Shoe.infinite_shoe(), s).mean
    True
    """
    session = profile.session if session is None else session
    paid, paid_session = commissioned(profile, replace(session, fee=None))
    r = bank_round(paid, shoe, paid_session, **options)  # type: ignore[arg-type]
    r = with_fee(r, session.fee)
    return replace(r, profile=profile, session=replace(r.session, fee=session.fee,
                                                       commission=session.commission,
                                                       max_bonus=session.max_bonus,
                                                       round_cap=session.round_cap))


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
    base = replace(session, **{cut: None})
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
