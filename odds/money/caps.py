"""Settling a whole table under the session's caps (docs/bank.md, 'Caps and limits').

``bonus_cap = k``: the first k bonus payments in seat order are honoured, a
later Colon is settled as if it were none.  ``round_cap = X``: the bank
collects losers in full, then pays winners at most X, in seat order or pro
rata.  A cap changes what a seat is paid, so each seat is settled by position.
``max_bonus = X``: a seat's bonus pays at most X in money, never less than a
plain win (:class:`~odds.rules.rule_types.BonusLimit`), so at each seat's own
stake: :func:`seat_limits`, :func:`capped_type`.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

from odds.exact.seats import PairCounts, SeatType
from odds.rules.profile import Profile
from odds.rules.rule_types import CapRule
from odds.rules.session_options import Session

__all__ = [
    "SeatLimits",
    "capped_type",
    "seat_capped_moments",
    "seat_limits",
    "settle_states",
    "settle_table",
    "settlement_denominator",
]

# -- a cap per bonus payment in money, seat by seat ----------------------------------

SeatLimits = tuple[Fraction | None, ...]


def seat_limits(profile: Profile, session: Session, stakes: Sequence[Fraction]) -> SeatLimits:
    """Each seat's most per unit staked a bonus pays under ``max_bonus`` (None: not lowered).

    A cap in money binds less at a smaller stake: each seat's own stake decides.

    >>> from odds.rules.profiles import BUILTIN
    >>> seat_limits(BUILTIN["standard"], Session(max_bonus=Fraction(250)),
    ...             [Fraction(50), Fraction(100), Fraction(500)])
    (None, Fraction(5, 2), Fraction(1, 1))
    """
    out: list[Fraction | None] = []
    for stake in stakes:
        at = profile.at_stake(stake, session.max_bonus)
        limit = at.bonus_limit
        out.append(limit.per_unit(profile.win) if limit is not None and at.bonus_binds else None)
    return tuple(out)


def capped_type(t: SeatType, limit: Fraction | None) -> SeatType:
    """A seat type with its bonus paid at most ``limit`` per unit staked.

    A bonus the cap brings down to what the hand gets without it is no longer
    a bonus payment (``bonus_cap`` does not count it).

    >>> capped_type((Fraction(3), True, Fraction(1)), Fraction(5, 2))
    (Fraction(5, 2), True, Fraction(1, 1))
    >>> capped_type((Fraction(3), True, Fraction(1)), Fraction(1))
    (Fraction(1, 1), False, Fraction(1, 1))
    """
    a, bonus, fb = t
    if not bonus or limit is None or a <= limit:
        return t
    return (limit, True, fb) if limit > fb else (limit, False, limit)


def seat_capped_moments(
    heads_up: Mapping[SeatType, int], pairs: PairCounts | None, stakes: Sequence[Fraction],
    limits: SeatLimits,
) -> tuple[tuple[tuple[Fraction, Fraction], ...], Fraction, Fraction | None]:
    """Exact moments of a table whose only caps are per seat (``max_bonus``, a profile's limit).

    A seat's capped net is a function of its own hand against the bank's, so on a shuffled
    shoe every seat has the law of the heads-up seat (``heads_up``: deals by seat type) and
    every pair of seats that of seats 1 and 2 (``pairs``).  Returns each seat's (mean,
    variance) in money, the bank's mean (minus the seats' sum, by linearity: exact on any
    shoe) and the bank's variance, ``sum_i Var_i + sum_{i != j} Cov_ij``, or None without
    ``pairs``.  ``bonus_cap`` and ``round_cap`` are caps on the whole table: not here.

    >>> t, c = (Fraction(3), True, Fraction(1)), (Fraction(-1), False, Fraction(-1))
    >>> seats, mean, var = seat_capped_moments({t: 1, c: 3}, None, [Fraction(2)], (Fraction(2),))
    >>> seats, mean, var  # a 3:1 bonus capped at 2 per unit: nets 4 or -2 at stake 2
    (((Fraction(-1, 2), Fraction(27, 4)),), Fraction(1, 2), Fraction(27, 4))
    """
    groups = sorted(set(limits), key=lambda lim: (lim is None, lim or 0))
    total = sum(heads_up.values())
    first: dict[Fraction | None, Fraction] = {}
    second: dict[Fraction | None, Fraction] = {}
    for lim in groups:
        first[lim] = sum((capped_type(t, lim)[0] * w for t, w in heads_up.items()),
                         Fraction(0)) / total
        second[lim] = sum((capped_type(t, lim)[0] ** 2 * w for t, w in heads_up.items()),
                          Fraction(0)) / total
    seats = tuple((s * first[lim], s * s * (second[lim] - first[lim] ** 2))
                  for s, lim in zip(stakes, limits, strict=True))
    mean = -sum((m for m, _ in seats), Fraction(0))
    if len(stakes) == 1:
        return seats, mean, seats[0][1]
    if pairs is None:
        return seats, mean, None
    # E[g_a(X1) g_b(X2)] for each pair of limits, in one pass over the pair counts.
    cross: dict[tuple[Fraction | None, Fraction | None], int | Fraction] = {
        (a, b): 0 for a in groups for b in groups}
    for (t1, t2), w in pairs.counts.items():
        for a in groups:
            x = capped_type(t1, a)[0] * w
            for b in groups:
                cross[a, b] += x * capped_type(t2, b)[0]
    var = sum((v for _, v in seats), Fraction(0))
    for i, (si, a) in enumerate(zip(stakes, limits, strict=True)):
        for j, (sj, b) in enumerate(zip(stakes, limits, strict=True)):
            if i != j:
                var += si * sj * (Fraction(cross[a, b]) / pairs.total - first[a] * first[b])
    return seats, mean, var


# -- settling a table: caps in seat order -----------------------------------------


def settlement_denominator(types: Iterable[SeatType], stakes: Sequence[Fraction],
                           cap: Fraction | None) -> int:
    """The common denominator of every amount a seat can be settled with.

    Every seat type's net and capped net at every stake, and the round cap: each
    is a whole number of ``1 / settlement_denominator`` units.

    >>> settlement_denominator([(Fraction(3, 2), True, Fraction(1))], [Fraction(1, 3)], None)
    6
    """
    scale = 1 if cap is None else cap.denominator
    for a, _, fb in types:
        for s in stakes:
            scale = math.lcm(scale, (a * s).denominator, (fb * s).denominator)
    return scale


def settle_table(
    nets: Sequence[tuple[int, bool, int]], bonus_cap: int | None, round_cap: int | None,
    cap_rule: CapRule,
) -> tuple[int, list[Fraction]]:
    """Settle one round: (bank net, each seat's net), amounts in integer units.

    ``nets`` holds each seat's (net, paid as a bonus, net if the bonus is
    capped), stakes applied, in seat order.

    >>> settle_table([(3, True, 1), (2, True, 1), (-1, False, -1)], 1, None, CapRule.SEAT_ORDER)
    (-3, [Fraction(3, 1), Fraction(1, 1), Fraction(-1, 1)])
    >>> settle_table([(3, False, 3), (1, False, 1), (-1, False, -1)], None, 2, CapRule.PRO_RATA)
    (-1, [Fraction(3, 2), Fraction(1, 2), Fraction(-1, 1)])
    """
    used = 0
    due: list[int] = []
    for a, bonus, fb in nets:
        if bonus and bonus_cap is not None:
            if used >= bonus_cap:
                a = fb
            else:
                used += 1
        due.append(a)
    collected = -sum(a for a in due if a < 0)
    claims = sum(a for a in due if a > 0)
    if round_cap is None or claims <= round_cap:
        return collected - claims, [Fraction(a) for a in due]
    paid: list[Fraction] = []
    left = round_cap
    for a in due:
        if a <= 0:
            paid.append(Fraction(a))
        elif cap_rule is CapRule.PRO_RATA:
            paid.append(Fraction(a * round_cap, claims))
        else:
            part = min(a, left)
            left -= part
            paid.append(Fraction(part))
    return collected - round_cap, paid


def settle_states(
    states: list[tuple[int, dict[SeatType, int]]], session: Session,
    stakes: Sequence[Fraction], limits: SeatLimits | None = None,
) -> tuple[dict[Fraction, Fraction], tuple[dict[Fraction, Fraction], ...]]:
    """Bank and seat distributions from bank states with independent seats.

    ``states``: each bank state's weight and a seat's types against it (type ->
    weight, the same for every seat, the seats independent given the state);
    ``stakes``: each seat's stake.  The table is settled under the session's
    caps (``limits``: each seat's :func:`seat_limits`); returns the bank's net
    distribution and each seat's.
    """
    n = len(stakes)
    limits = limits or (None,) * n
    scale = settlement_denominator({capped_type(t, lim) for _, d in states for t in d
                                    for lim in limits}, stakes, session.round_cap)
    cap = None if session.round_cap is None else int(session.round_cap * scale)
    k = session.bonus_cap
    bank_counts: dict[int, int] = defaultdict(int)
    seat_counts: list[dict[Fraction, int]] = [defaultdict(int) for _ in range(n)]
    totals = {sum(d.values()) for _, d in states}
    assert len(totals) == 1, "every bank hand leaves the seats the same total weight"
    per_seat = totals.pop()
    for wb, dist in states:
        seats = [[(int(a * s * scale), bonus, int(fb * s * scale), w)
                  for (a, bonus, fb), w in ((capped_type(t, lim), w) for t, w in dist.items())]
                 for s, lim in zip(stakes, limits, strict=True)]
        if k is None and cap is None:
            _plain(seats, wb, per_seat, bank_counts, seat_counts)
        else:
            _capped(seats, wb, k, cap, session.cap_rule, bank_counts, seat_counts)
    total = sum(w for w, _ in states) * per_seat**n
    bank = {Fraction(v, scale): Fraction(c, total) for v, c in sorted(bank_counts.items()) if c}
    seat_out = tuple(
        {v / scale: Fraction(c, total) for v, c in sorted(d.items()) if c} for d in seat_counts)
    return bank, seat_out


def _plain(seats: list[list[tuple[int, bool, int, int]]], wb: int, per_seat: int,
           bank_counts: dict[int, int], seat_counts: list[dict[Fraction, int]]) -> None:
    """No caps: the bank's net is minus the sum of independent seats."""
    n = len(seats)
    dist: dict[int, int] = {0: wb}
    for options in seats:
        new: dict[int, int] = defaultdict(int)
        for v, w in dist.items():
            for a, _, _, c in options:
                new[v - a] += w * c
        dist = new
    for v, w in dist.items():
        bank_counts[v] += w
    others = wb * per_seat ** (n - 1)
    for i, options in enumerate(seats):
        for a, _, _, c in options:
            seat_counts[i][Fraction(a)] += others * c


def _capped(seats: list[list[tuple[int, bool, int, int]]], wb: int, k: int | None,
            cap: int | None, rule: CapRule, bank_counts: dict[int, int],
            seat_counts: list[dict[Fraction, int]]) -> None:
    """Caps: a forward pass over (bonuses used, collected, claims), seat by seat.

    Each seat's own net needs the claims before it (seat order) or the total
    claims (pro rata): prefix states times a suffix pass of later claims.
    """
    n = len(seats)
    limit = n  # bonuses used never exceed the seats settled

    def step(used: int, a: int, bonus: bool, fb: int) -> tuple[int, int]:
        if bonus and k is not None:
            return (used, fb) if used >= k else (used + 1, a)
        return used, a

    # Suffix: later seats' claims given the bonuses used before them.
    suffix: list[dict[int, dict[int, int]]] = [dict() for _ in range(n + 1)]
    need_suffix = cap is not None and rule is CapRule.PRO_RATA
    if need_suffix:
        suffix[n] = {u: {0: 1} for u in range(limit + 1)}
        for i in range(n - 1, -1, -1):
            for u in range(limit + 1):
                acc: dict[int, int] = defaultdict(int)
                for a, bonus, fb, c in seats[i]:
                    u2, due = step(u, a, bonus, fb)
                    claim = max(due, 0)
                    # States with more bonuses used than seats are unreachable: clamp.
                    for later, w in suffix[i + 1][min(u2, limit)].items():
                        acc[later + claim] += c * w
                suffix[i][u] = acc
    states: dict[tuple[int, int, int], int] = {(0, 0, 0): wb}
    for i in range(n):
        new: dict[tuple[int, int, int], int] = defaultdict(int)
        for (used, got, claims), w in states.items():
            for a, bonus, fb, c in seats[i]:
                u2, due = step(used, a, bonus, fb)
                if due <= 0:
                    new[u2, got - due, claims] += w * c
                else:
                    new[u2, got, claims + due] += w * c
        # This seat's own net, from the states before it.
        prefix: dict[tuple[int, int], int] = defaultdict(int)
        for (used, _, claims), w in states.items():
            prefix[used, claims] += w
        later_total = _later_weight(seats, i)
        out = seat_counts[i]
        for (used, before), w in prefix.items():
            for a, bonus, fb, c in seats[i]:
                u2, due = step(used, a, bonus, fb)
                if due <= 0 or cap is None:
                    out[Fraction(due)] += w * c * later_total
                elif rule is CapRule.SEAT_ORDER:
                    out[Fraction(min(due, max(0, cap - before)))] += w * c * later_total
                else:
                    for later, w2 in suffix[i + 1][u2].items():
                        total = before + due + later
                        paid = Fraction(due) if total <= cap else Fraction(due * cap, total)
                        out[paid] += w * c * w2
        states = new
    for (_, got, claims), w in states.items():
        bank_counts[got - (claims if cap is None else min(claims, cap))] += w


def _later_weight(seats: list[list[tuple[int, bool, int, int]]], i: int) -> int:
    out = 1
    for options in seats[i + 1:]:
        out *= sum(c for *_, c in options)
    return out
