"""The house's cut in figures: a seat's moments, the bank's round, the break-even cut.

The cut is a fee per seat per round and a commission on a seat's win
(:mod:`odds.rules.house_cut`, options of a profile's ``[session]``).  Both are
exact:

* a seat's figures per unit at a stake: :mod:`odds.money.seat_cut`;
* the bank's round with a commission is the round of the pay table the
  commission amounts to (:func:`commissioned`: every amount a winning seat
  is paid, its caps included, times ``1 - commission``, which is exact because
  settling a table under caps is homogeneous in what winners are paid), and
  the fee adds ``players * fee`` to every one of the bank's nets (the mean
  moves, the variance does not);
* the break-even fee and commission: :mod:`odds.money.seat_cut`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction

from odds.money.bank import BankRound, bank_round
from odds.rules.profile import Profile
from odds.rules.rule_types import BonusLimit
from odds.rules.session_options import Session
from odds.rules.shoe import Shoe

__all__ = ["bank_round_with_cut", "commissioned", "with_fee"]


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

    changes: dict[str, object] = {"win": profile.win * keep, "colon": scaled(profile.colon),
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
    seats = None if r.exact_seats is None else tuple((m - fee, v) for m, v in r.exact_seats)
    mean = None if r.exact_mean is None else r.exact_mean + total
    return replace(r, distribution=shift(r.distribution, total),
                   seats=tuple(shift(s, -fee) for s in r.seats), exact_moments=moments,
                   exact_seats=seats, exact_mean=mean, session=replace(r.session, fee=fee))


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
