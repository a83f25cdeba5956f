"""The bank's session study: everything ``lucky9 bank`` shows, and its inputs checked first.

:func:`bank_study` computes the bank's round at a table
(:func:`odds.money.bank.bank_round`) and, where the session asks, its ruin
within R rounds (:mod:`odds.money.ruin`, with an interval on a sampled round:
:mod:`odds.money.sampling`), the capital for a target ruin
(:mod:`odds.money.target`) and each person's result under both rotations
(:mod:`odds.money.rotation`).  Before any round is computed, the session's
chains are sized from the rules alone (:func:`net_bounds`,
:func:`check_study_size`).  :func:`bank_table_rows` gives the reference bank
table's rows.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from odds.exact.seats import MAX_PAIR_CARDS
from odds.money.bank import MAX_SAMPLES, BankRound, TableError, bank_round
from odds.money.chain import check_chain_size
from odds.money.cut import bank_round_with_cut
from odds.money.rotation import PersonFigures, rotation_figures
from odds.money.ruin import SessionRisk, session_risk
from odds.money.sampling import (
    SessionEstimates,
    check_estimate_size,
    session_estimates,
    tilted_round,
)
from odds.money.target import CapitalTarget, capital_for_target, capital_interval
from odds.rules.numbers import parse_amount, parse_probability
from odds.rules.profile import Profile
from odds.rules.profiles import as_profile
from odds.rules.rule_types import Rotation
from odds.rules.session_options import Session
from odds.rules.settle import pay_lines
from odds.rules.shoe import Shoe, as_shoe

__all__ = ["MAX_NET_SET", "BankStudy", "NetBounds", "bank_study", "bank_table_rows",
           "check_study_size", "net_bounds", "session_distribution"]

@dataclass(frozen=True)
class BankStudy:
    """A round at a table and, where the session asks, its risk over a session."""

    round: BankRound
    target_ruin: Fraction | None
    risk: SessionRisk | None
    target: CapitalTarget | None
    stake_factor: Fraction | None
    rotation: tuple[PersonFigures, ...] | None
    other_rotation: tuple[PersonFigures, ...] | None
    loss_over: Fraction = Fraction(5)
    session_distribution: Mapping[Fraction, Fraction] | None = None  # what the session used


def bank_study(
    profile: Profile | str, shoe: Shoe | int | str | None = None, session: Session | None = None, *,
    target_ruin: Fraction | float | str | None = None, samples: int = 20_000, seed: int = 1,
    loss_over: Fraction | int | str | None = None, precision: float | str | None = None,
    progress: Callable[[int, int], None] | None = None, plot: bool = False,
) -> BankStudy:
    """The bank's round, ruin with capital and rounds, capital for a target, rotation.

    Session figures need ``session.rounds``; ruin needs ``session.capital``
    too; the capital for a target needs ``target_ruin``; the largest stake
    needs all three.  ``loss_over`` defaults to 5 times the largest stake.
    Where the round is estimated, every session figure is computed on the sampled
    round tilted to its exact mean (:func:`session_distribution`), and
    ``precision`` (a probability) doubles the samples until the 95% interval on
    the ruin probability at the capital, and at the capital for the target, is
    at most +-``precision`` wide, or :data:`odds.money.bank.MAX_SAMPLES` are drawn.
    Every chain is sized before the round is computed (:func:`check_study_size`;
    with ``plot``, the ruin-against-capital curve a plot draws too).

    >>> from odds import BUILTIN
    >>> s = bank_study(BUILTIN["standard"], Shoe.infinite_shoe(),
    ...                Session(players=2, capital=Fraction(10), rounds=5), target_ruin="0.01")
    >>> s.risk.exact, s.target.capital <= 10 * 5 * 2 * 3
    (True, True)
    """
    loss = None
    if loss_over is not None:
        loss = parse_amount(loss_over, "loss over")
    if precision is not None:
        precision = float(parse_probability(precision, "precision", low=MIN_PRECISION))
    target = None
    if target_ruin is not None:
        target = parse_probability(target_ruin, "target ruin")
    profile = as_profile(profile)
    if target is not None and (profile.session if session is None else session).rounds is None:
        raise ValueError("a target ruin needs the number of rounds of the session (rounds)")
    check_study_size(profile, shoe, session, target=target is not None, plot=plot)
    r = bank_round_with_cut(profile, shoe, session, samples=samples, seed=seed, progress=progress)
    s = r.session
    if loss is None:
        loss = 5 * max(s.stakes or (Fraction(1),))
    if s.rounds is None:
        return BankStudy(r, target, None, None, None, None, None, loss)
    while precision is not None and not _precise(r, s.capital, s.rounds, target, precision):
        assert r.samples is not None
        r = bank_round_with_cut(profile, shoe, session, samples=min(MAX_SAMPLES, 2 * r.samples),
                       seed=seed, progress=progress)
    chain = session_distribution(r)
    risk = cap = factor = None
    if s.capital is not None:
        risk = session_risk(chain, s.capital, s.rounds, exact=None if r.exact else False)
        if not r.exact and r.samples is not None:
            risk = replace(risk, estimates=_estimate(r, s.capital, s.rounds, risk))
    if target is not None:
        cap = _capital_target(r, chain, s.rounds, target)
        if s.capital is not None:
            factor = None if cap.capital == 0 else s.capital / cap.capital
    rot = rotation_figures(r, s.rounds, s.rotation)
    flip = Rotation.ROTATE if s.rotation is Rotation.FIXED else Rotation.FIXED
    other = rotation_figures(r, s.rounds, flip)
    return BankStudy(r, target, risk, cap, factor, rot, other, loss, chain)


# The finest --precision: a 95% interval on a ruin probability from MAX_SAMPLES rounds is
# no narrower than about 1/MAX_SAMPLES (one ruin in the sample), so a finer one would only
# draw every sample for nothing.
MIN_PRECISION = Fraction(1, 1_000_000)


def session_distribution(r: BankRound) -> Mapping[Fraction, Fraction]:
    """The round every session figure of :func:`bank_study` is computed on.

    The round itself where it is exact; a sampled round tilted to its exact mean
    (:func:`odds.money.sampling.tilted_round`), the round the estimates' values are
    those of, so that the ruin, the result, the capital for a target and the largest
    stake all come from one distribution.

    >>> from odds import BUILTIN
    >>> r = bank_round(BUILTIN["standard"], 1, Session(players=3), samples=2000)
    >>> d = session_distribution(r)
    >>> abs(sum(v * p for v, p in d.items()) - r.mean) < 1e-9, set(d) == set(r.distribution)
    (True, True)
    """
    if r.exact or r.samples is None:
        return r.distribution
    return tilted_round(r.distribution, None if r.exact_moments is None else r.exact_moments[0])


def _capital_target(r: BankRound, chain: Mapping[Fraction, Fraction], rounds: int,
                    target: Fraction) -> CapitalTarget:
    """The smallest capital for ``target`` on the session's round; on a sampled round with
    its interval (:func:`odds.money.target.capital_interval`), samples and seed."""
    cap = capital_for_target(chain, rounds, target, exact=None if r.exact else False)
    if r.exact or r.samples is None:
        return cap
    mean = None if r.exact_moments is None else r.exact_moments[0]
    found = capital_interval(r.distribution, r.samples, rounds, target, cap.capital,
                             exact_mean=mean, seed=r.seed)
    return replace(cap, interval=found, samples=r.samples, seed=r.seed)


def _precise(r: BankRound, capital: Fraction | None, rounds: int, target: Fraction | None,
             precision: float) -> bool:
    """Is every ruin estimate within +-``precision`` (at the capital, and at the capital for the
    target), or is there nothing more to sample?"""
    if r.exact or r.samples is None or r.samples >= MAX_SAMPLES:
        return True
    at = [] if capital is None else [capital]
    if target is not None:
        at.append(capital_for_target(session_distribution(r), rounds, target, exact=False).capital)
    return all(_estimate(r, c, rounds).ruin.half_width <= precision for c in at)


def bank_table_rows(
    profile: Profile, shoe: Shoe, *, loss: int = 5, rounds: int = 50,
    target: Fraction = Fraction(1, 100), samples: int = 20_000,
    progress: Callable[[int], None] | None = None, players: int = 8,
) -> list[dict[str, Any]]:
    """The reference bank table of a profile and shoe: N = 1..8 at stake 1 each.

    Each row: players, mean, variance, exact, P(loss > ``loss`` stakes), and
    the capital for a ``target`` ruin risk over ``rounds`` rounds.  Tableau
    or stopping-natural profiles have heads-up rows only.

    >>> from odds import BUILTIN
    >>> rows = bank_table_rows(BUILTIN["plain"], Shoe.infinite_shoe())
    >>> [r["players"] for r in rows][-1], rows[0]["mean"]
    (8, Fraction(0, 1))
    """
    out = []
    for n in range(1, players + 1):
        try:
            r = bank_round(profile, shoe, Session(players=n), samples=samples)
        except TableError:
            break
        cap = capital_for_target(session_distribution(r), rounds, target,
                                 exact=None if r.exact else False)
        out.append({
            "players": n, "mean": r.mean, "variance": r.variance, "exact": r.exact,
            "p_loss": r.p_loss_more_than(loss), "capital": cap.capital,
            "capital_exact": cap.exact and r.exact,
        })
        if progress is not None:
            progress(n)
    return out


@dataclass(frozen=True)
class NetBounds:
    """What the bank's nets can be at a table, from the rules and the session alone.

    Every net of a round lies on the lattice of ``1 / scale`` units, between
    ``-worst / scale`` and ``top / scale``, and takes one of at most ``nets``
    values, whatever the shoe and whether the round is counted or sampled: the
    session's chains can be sized from these before the round is computed.
    """

    scale: Fraction
    nets: int
    top: int
    worst: int


MAX_NET_SET = 100_000  # candidate nets listed one by one; beyond, their range bounds them


def net_bounds(profile: Profile, session: Session) -> NetBounds:
    """Bounds on the bank's nets at ``session``'s table, before any round is computed.

    A seat is settled by one entry of the pay table (its stake times the entry's
    amount; a capped bonus falls back to another entry); the bank's net is minus
    their sum or, past ``round_cap`` X, what it collects less X (never below -X).
    So the nets are among those sums: their greatest common divisor divides
    every net's, and their count, largest and smallest bound the round's.

    >>> from odds import BUILTIN
    >>> net_bounds(BUILTIN["standard"], Session(players=2))  # -6 .. +2 by 1
    NetBounds(scale=Fraction(1, 1), nets=9, top=2, worst=6)
    >>> # stakes 100 and 50, the bank pays at most 120: -120 .. +150 by 10
    >>> net_bounds(BUILTIN["standard"], Session(stakes=(Fraction(100), Fraction(50)),
    ...                                         round_cap=Fraction(120)))
    NetBounds(scale=Fraction(1, 10), nets=10, top=15, worst=12)
    """
    players = session.players or (len(session.stakes) if session.stakes else 1)
    stakes = session.stakes_for(players)
    amounts = set(pay_lines(profile).values())
    # Under max_bonus a seat's bonus pays at most its own capped amount (odds.money.caps).
    capped = [{m for nine in (False, True)
               if (m := profile.at_stake(st, session.max_bonus).player_multiplier(nine))
               is not None} for st in stakes]
    cap = session.round_cap
    den = 1 if cap is None else cap.denominator
    for st, more in zip(stakes, capped, strict=True):
        for a in amounts | more:
            den = math.lcm(den, (st * a).denominator)
    dues = [sorted({int(st * a * den) for a in amounts | more})  # each seat's net
            for st, more in zip(stakes, capped, strict=True)]

    def sums(choices: list[list[int]]) -> set[int] | None:
        found = {0}
        for c in choices:
            found = {x + y for x in found for y in c}
            if len(found) > MAX_NET_SET:
                return None
        return found

    bank = sums([[-d for d in c] for c in dues])
    hi = sum(max(-d for d in c) for c in dues)  # every seat loses its most
    lo = -sum(max(c) for c in dues)  # every seat wins its most
    extra: set[int] | None = set()
    if cap is not None:
        x = int(cap * den)
        lo = max(lo, -x)
        losses = sums([sorted({max(-d, 0) for d in c}) for c in dues])
        extra = None if losses is None else {v - x for v in losses}
        if bank is not None:
            bank = {v for v in bank if v >= -x}  # a round the cap leaves alone pays <= X
    step = math.gcd(*(abs(d) for c in dues for d in c), 0 if cap is None else int(cap * den))
    if bank is not None and extra is not None:
        found = bank | extra
        step = math.gcd(*found) or 1
        count = len(found)
        hi, lo = max(found), min(found)
    else:
        step = step or 1
        count = (hi - lo) // step + 1
    return NetBounds(Fraction(den, step), count, max(hi, 0) // step, max(-lo, 0) // step)


def check_study_size(profile: Profile, shoe: Shoe | int | str | None, session: Session | None,
                     *, target: bool = False, plot: bool = False) -> None:
    """Refuse a session whose chains would not fit, before any round is computed.

    The chains' sizes come from :func:`net_bounds` (upper bounds on the round's
    lattice and nets): the session chain (capital x lattice plus what the rounds
    can win, ``MAX_CELLS`` and ``MAX_WORK``), on a round that may be sampled the
    estimate's interval (``MAX_TERMS``, ``MAX_INFLUENCE``), with ``target`` the
    chain that searches every capital up to the rounds' worst losses, and with
    ``plot`` the ruin against every capital up to twice the capital (or twice
    the target's, or 10) over the session's rounds (or 50) that the plot draws.

    >>> from odds import BUILTIN
    >>> check_study_size(BUILTIN["standard"], 1, Session(players=2, capital=Fraction(10**9),
    ...                                                  rounds=10))
    Traceback (most recent call last):
    ...
    ValueError: the session's chain may take up to 1,000,000,021 capitals on its lattice ...
    """
    profile = as_profile(profile)
    s = profile.session if session is None else session
    if s.rounds is None and not plot:
        return
    b = net_bounds(profile, s)
    if plot:
        rounds = s.rounds or 50
        top: Fraction = max(10 * b.scale, 2 * Fraction(s.capital or 0) * b.scale,
                            Fraction(2 * b.worst * rounds if target else 0))
        check_chain_size(math.floor(top) + rounds * b.top + 1, b.nets, rounds, b.scale,
                         may=True, what="the plot's chain (ruin against capital)")
    if s.rounds is None:
        return
    players = s.players or (len(s.stakes) if s.stakes else 1)
    shoe = as_shoe(shoe, profile.decks)
    sampled = not shoe.infinite and players > 1 and not (players == 2
                                                         and shoe.size <= MAX_PAIR_CARDS)
    if s.capital is not None:
        width = math.floor(s.capital * b.scale) + s.rounds * b.top + 1
        check_chain_size(width, b.nets, s.rounds, b.scale, may=True)
        if sampled:
            check_estimate_size(width, b.nets, s.rounds)
    if target:
        width = b.worst * s.rounds + s.rounds * b.top + 1
        check_chain_size(width, b.nets, s.rounds, b.scale, may=True,
                         what="the search for a capital")
        if sampled:  # the capital's interval: ruin estimates up to the rounds' worst losses
            check_estimate_size(width, b.nets, s.rounds)


QUANTILES = (0.05, 0.5, 0.95)


def _estimate(r: BankRound, capital: Fraction, rounds: int,
              risk: SessionRisk | None = None) -> SessionEstimates:
    assert r.samples is not None
    mean = None if r.exact_moments is None else r.exact_moments[0]
    at = None if risk is None else {q: risk.quantile(q) for q in QUANTILES}
    return session_estimates(r.distribution, r.samples, capital, rounds, exact_mean=mean,
                             seed=r.seed, quantiles=at)
