"""The bank's session study: everything ``lucky9 bank`` shows, and its inputs checked first.

:func:`bank_study` reads top to bottom: the inputs resolved once
(:func:`odds.money.session_inputs.bank_table`) and the chains sized from the rules
alone (:func:`net_bounds`, :func:`check_study_size`); the round, exact or sampled
(:func:`odds.money.bank.bank_round`); the lattice its chains run on, the nets' own or,
where that is too fine for the budget, a coarser one whose two chains bracket the
ruin (:mod:`odds.money.bracket`); the ruin within R rounds (:mod:`odds.money.ruin`,
with an interval on a sampled round: :mod:`odds.money.sampling`); the capital for a
target (:mod:`odds.money.target`); each person's result under both rotations
(:mod:`odds.money.rotation`).  :func:`bank_table_rows` gives the reference bank
table's rows.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from odds.money.bank import MAX_SAMPLES, BankRound, TableError, bank_round
from odds.money.bracket import (
    LatticePlan,
    capital_bracket,
    coarsen,
    lattice_plan,
    nets_plan,
    refinements,
)
from odds.money.chain import lattice
from odds.money.cut import bank_round_with_cut
from odds.money.rotation import PersonFigures, rotation_figures
from odds.money.ruin import SessionRisk, ruin_by_capital, session_risk
from odds.money.sampling import SessionEstimates, session_estimates, tilted_round
from odds.money.session_inputs import BankTable, bank_table
from odds.money.target import CapitalTarget, capital_for_target, capital_interval
from odds.rules.profile import Profile
from odds.rules.rule_types import Rotation
from odds.rules.session_options import Session
from odds.rules.settle import pay_lines
from odds.rules.shoe import Shoe

__all__ = ["MAX_NET_SET", "BankStudy", "NetBounds", "bank_study", "bank_table_rows",
           "check_study_size", "net_bounds", "ruin_curve", "session_distribution"]

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class BankStudy:
    """A round at a table and, where the session asks, its risk over a session.

    On a coarse lattice (``risk.unit``, ``target.unit``) the ruin and the capital are
    brackets (:mod:`odds.money.bracket`); ``stake_factor`` is then the largest factor
    that keeps the ruin's upper bound within the target, and ``stake_factors`` the
    lowest and highest the true largest factor can be.
    """

    round: BankRound
    target_ruin: Fraction | None
    risk: SessionRisk | None
    target: CapitalTarget | None
    stake_factor: Fraction | None
    rotation: tuple[PersonFigures, ...] | None
    other_rotation: tuple[PersonFigures, ...] | None
    loss_over: Fraction = Fraction(5)
    session_distribution: Mapping[Fraction, Fraction] | None = None  # what the session used
    stake_factors: tuple[Fraction, Fraction | None] | None = None


def bank_study(
    profile: Profile | str, shoe: Shoe | int | str | None = None, session: Session | None = None, *,
    target_ruin: Fraction | float | str | None = None, samples: int = 20_000, seed: int = 1,
    loss_over: Fraction | int | str | None = None, precision: float | str | None = None,
    progress: Progress | None = None, plot: bool = False,
) -> BankStudy:
    """The bank's round, ruin with capital and rounds, capital for a target, rotation.

    Session figures need ``session.rounds``; ruin needs ``session.capital``
    too; the capital for a target needs ``target_ruin``; the largest stake
    needs all three.  ``loss_over`` defaults to 5 times the largest stake.
    Where the round is estimated, every session figure is computed on the sampled
    round tilted to its exact mean (:func:`session_distribution`).  The chains run
    on the nets' own lattice where it fits the budget, else on the finest coarser
    one that does, the ruin and the capital then brackets (:mod:`odds.money.bracket`).
    ``precision`` (a probability) asks for the ruin within +-``precision``: a bracket
    refined until its width is at most ``precision`` (or the finest lattice that fits
    is reached), and on an estimated round the samples doubled until the 95% interval
    on the ruin at the capital, and at the capital for the target, is at most
    +-``precision`` wide, or :data:`odds.money.bank.MAX_SAMPLES` are drawn.  Every
    chain is sized before the round is computed (:func:`check_study_size`; with
    ``plot``, the ruin-against-capital curve a plot draws too).  ``progress`` is called
    with (done, total) while the round is computed, then for the session's chains.

    >>> from odds import BUILTIN
    >>> s = bank_study(BUILTIN["standard"], Shoe.infinite_shoe(),
    ...                Session(players=2, capital=Fraction(10), rounds=5), target_ruin="0.01")
    >>> s.risk.exact, s.target.capital <= 10 * 5 * 2 * 3
    (True, True)
    """
    table = bank_table(profile, shoe, session, target_ruin=target_ruin, loss_over=loss_over,
                       precision=precision)
    _check_sizes(table, plot=plot)
    r = bank_round_with_cut(table.profile, table.shoe, table.session, samples=samples,
                            seed=seed, progress=progress)
    s = table.session
    if s.rounds is None:
        return BankStudy(r, table.target, None, None, None, None, None, table.loss_over)
    risk, cap = _session_figures(r, table, progress)
    while not _precise(r, risk, cap, table):
        assert r.samples is not None
        r = bank_round_with_cut(table.profile, table.shoe, s,
                                samples=min(MAX_SAMPLES, 2 * r.samples), seed=seed,
                                progress=progress)
        risk, cap = _session_figures(r, table, progress)
    factor = factors = None
    if cap is not None and s.capital is not None:
        factor = None if cap.capital == 0 else s.capital / cap.capital
        if cap.bracket is not None:
            least = cap.bracket[0]
            factors = (factor or Fraction(0), None if least == 0 else s.capital / least)
    rot = rotation_figures(r, s.rounds, s.rotation)
    flip = Rotation.ROTATE if s.rotation is Rotation.FIXED else Rotation.FIXED
    other = rotation_figures(r, s.rounds, flip)
    return BankStudy(r, table.target, risk, cap, factor, rot, other, table.loss_over,
                     session_distribution(r), factors)



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


def _sampled(r: BankRound) -> bool:
    return not r.exact and r.samples is not None


class _Chains:
    """The session's chains reported to ``progress`` as (done, total): one step per chain
    run, out of a total planned up front (grown if more are run)."""

    def __init__(self, progress: Progress | None, total: int) -> None:
        self.progress, self.done, self.total = progress, 0, max(total, 1)

    def step(self) -> None:
        self.done += 1
        self.total = max(self.total, self.done)
        if self.progress is not None:
            self.progress(self.done, self.total)


def _session_figures(r: BankRound, table: BankTable, progress: Progress | None
                     ) -> tuple[SessionRisk | None, CapitalTarget | None]:
    """The ruin at the capital and the capital for the target, on the lattice that fits."""
    s = table.session
    assert s.rounds is not None
    chain = session_distribution(r)
    tries = 1 if table.precision is None else 3  # lattices tried (odds.money.bracket)
    sampled = _sampled(r)
    runs = (s.capital is not None) * (tries + 2 * sampled) \
        + (table.target is not None) * (tries + sampled)
    chains = _Chains(progress, runs)
    if chains.progress is not None:
        chains.progress(0, chains.total)
    risk = None if s.capital is None else _ruin(r, chain, s.capital, s.rounds,
                                                  table.precision, chains)
    cap = None if table.target is None else _capital_target(r, chain, s.rounds, table.target,
                                                            table.precision, chains)
    if chains.progress is not None:
        chains.progress(chains.total, chains.total)  # done, whatever was planned
    return risk, cap


def _ruin(r: BankRound, chain: Mapping[Fraction, Fraction], capital: Fraction, rounds: int,
          precision: float | None, chains: _Chains) -> SessionRisk:
    """The ruin from ``capital``: on the nets' own lattice, else bracketed (refined until
    within ``precision``); on a sampled round with its estimates (both bounds')."""
    plan = nets_plan(chain, capital, rounds, sampled=_sampled(r))
    exact = None if r.exact else False
    lower = None
    for k in refinements(plan, precision):
        unit = None if k == 1 else plan.step * k
        if unit is None:
            risk = session_risk(chain, capital, rounds, exact=exact)
            chains.step()
            break
        risk = session_risk(coarsen(chain, unit, down=True), capital, rounds, exact=exact)
        lower = session_risk(coarsen(chain, unit, down=False), capital, rounds, exact=exact)
        chains.step()
        if precision is not None and float(risk.ruin) - float(lower.ruin) <= precision:
            break
    if _sampled(r):
        risk = replace(risk, estimates=_estimate(r, capital, rounds, risk, unit))
        chains.step()
        if lower is not None:
            lower = replace(lower, estimates=_estimate(r, capital, rounds, None, unit,
                                                        down=False))
            chains.step()
    return replace(risk, lower=lower, unit=unit)


def _capital_target(r: BankRound, chain: Mapping[Fraction, Fraction], rounds: int,
                    target: Fraction, precision: float | None,
                    chains: _Chains) -> CapitalTarget:
    """The smallest capital for ``target``: on the nets' own lattice, else the smallest whose
    upper bound meets it, with the bracket; on a sampled round with its interval
    (:func:`odds.money.target.capital_interval`), samples and seed."""
    exact = None if r.exact else False
    worst = max(Fraction(0), -min(chain))
    plan = nets_plan(chain, worst * rounds, rounds, what="the search for a capital")
    cap = _capital_on(chain, rounds, target, plan, precision, exact, chains)
    if not _sampled(r):
        return cap
    assert r.samples is not None
    # The interval's ruin estimates keep every round's masses: a lattice that fits them at
    # capitals up to twice the point (the interval's ends lie near it).
    most = max(2 * cap.capital, 10 * (1 / lattice(chain)[0]))
    fits = nets_plan(chain, most, rounds, sampled=True, what="the capital's interval")
    if fits.factor > plan.factor:
        cap = _capital_on(chain, rounds, target, fits, None, exact, chains)
    unit = cap.unit
    mean = None if r.exact_moments is None else r.exact_moments[0]
    found = capital_interval(r.distribution, r.samples, rounds, target, cap.capital,
                             exact_mean=mean, seed=r.seed, unit=unit, most=most)
    chains.step()
    return replace(cap, interval=found, samples=r.samples, seed=r.seed)


def _capital_on(chain: Mapping[Fraction, Fraction], rounds: int, target: Fraction,
                plan: LatticePlan, precision: float | None, exact: bool | None,
                chains: _Chains) -> CapitalTarget:
    cap = None
    for k in refinements(plan, precision):
        if k == 1:
            cap = capital_for_target(chain, rounds, target, exact=exact)
            chains.step()
            break
        cap = capital_bracket(chain, rounds, target, plan.step * k, exact=exact)
        chains.step()
        assert cap.ruin_lower is not None
        if precision is not None and float(cap.ruin) - float(cap.ruin_lower) <= precision:
            break
    assert cap is not None
    return cap


def _precise(r: BankRound, risk: SessionRisk | None, cap: CapitalTarget | None,
             table: BankTable) -> bool:
    """Is every ruin estimate within +-``precision`` (at the capital, and at the capital for the
    target), or is there nothing more to sample?"""
    if table.precision is None or not _sampled(r) or r.samples is None \
            or r.samples >= MAX_SAMPLES:
        return True
    assert table.session.rounds is not None
    widths = [] if risk is None or risk.estimate is None else [risk.estimate.half_width]
    if cap is not None:
        widths.append(_estimate(r, cap.capital, table.session.rounds, None, cap.unit,
                                plain=False).ruin.half_width)
    return all(w <= table.precision for w in widths)


def ruin_curve(study: BankStudy, top: Fraction, rounds: int
               ) -> tuple[list[Fraction], list[Fraction | float], bool, Fraction | None]:
    """The ruin within ``rounds`` at every capital up to ``top`` on the study's round (the
    one its session figures use), for a plot: on the nets' own lattice where it fits,
    else the upper bound on the finest lattice that does.  (capitals, ruin, exact, unit)

    >>> from odds import BUILTIN
    >>> s = bank_study(BUILTIN["standard"], "inf", Session(players=1))
    >>> caps, ruin, exact, unit = ruin_curve(s, Fraction(3), 2)
    >>> caps[-1], ruin[0] > ruin[-1], exact, unit
    (Fraction(3, 1), True, True, None)
    """
    r = study.round
    chain = r.distribution if study.session_distribution is None else study.session_distribution
    unit = nets_plan(chain, top, rounds, what="the plot's chain (ruin against capital)").unit
    if unit is not None:
        chain = coarsen(chain, unit, down=True)
    capitals, ruin, exact, _ = ruin_by_capital(chain, rounds, top,
                                               exact=None if r.exact else False)
    return capitals, ruin, exact, unit


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


def check_study_size(profile: Profile | str, shoe: Shoe | int | str | None,
                     session: Session | None, *, target: bool = False,
                     plot: bool = False) -> None:
    """Refuse a session whose chains would not fit on any lattice, before any round is computed.

    The chains' sizes come from :func:`net_bounds` (upper bounds on the round's lattice
    and nets).  A chain too wide on the nets' own lattice is run on a coarser one
    (:func:`odds.money.bracket.lattice_plan`), so only the rounds can make it too big:
    the session chain at the capital, with ``target`` the chain that searches every
    capital up to the rounds' worst losses, and with ``plot`` the ruin against every
    capital up to twice the capital (or twice the target's, or 10) over the session's
    rounds (or 50) that the plot draws.

    >>> from odds import BUILTIN
    >>> check_study_size(BUILTIN["standard"], 1, Session(players=2, capital=Fraction(10**9),
    ...                                                  rounds=10))
    >>> check_study_size(BUILTIN["standard"], 1, Session(players=2, capital=Fraction(10),
    ...                                                  rounds=10**6))
    Traceback (most recent call last):
    ...
    ValueError: the session's chain takes 1,000,001 capitals x 3 nets over 1,000,000 rounds ...
    """
    _check_sizes(bank_table(profile, shoe, session), target=target, plot=plot)


def _check_sizes(table: BankTable, *, target: bool | None = None, plot: bool = False) -> None:
    s = table.session
    target = table.target is not None if target is None else target
    if s.rounds is None and not plot:
        return
    b = net_bounds(table.profile, s)
    step = 1 / b.scale
    if plot:
        rounds = s.rounds or 50
        top = max(10 * b.scale, 2 * Fraction(s.capital or 0) * b.scale,
                  Fraction(2 * b.worst * rounds if target else 0))
        lattice_plan(step, math.floor(top), b.top, b.worst, rounds, nets=b.nets,
                     what="the plot's chain (ruin against capital)")
    if s.rounds is None:
        return
    if s.capital is not None:
        lattice_plan(step, math.floor(s.capital * b.scale), b.top, b.worst, s.rounds,
                     nets=b.nets, sampled=table.may_sample)
    if target:
        lattice_plan(step, b.worst * s.rounds, b.top, b.worst, s.rounds, nets=b.nets,
                     what="the search for a capital")
        if table.may_sample:  # the capital's interval: ruin estimates near the capital
            lattice_plan(step, 10, b.top, b.worst, s.rounds, nets=b.nets, sampled=True,
                         what="the capital's interval")


QUANTILES = (0.05, 0.5, 0.95)


def _estimate(r: BankRound, capital: Fraction, rounds: int, risk: SessionRisk | None = None,
              unit: Fraction | None = None, *, down: bool = True,
              plain: bool = True) -> SessionEstimates:
    assert r.samples is not None
    mean = None if r.exact_moments is None else r.exact_moments[0]
    at = None if risk is None else {q: risk.quantile(q) for q in QUANTILES}
    return session_estimates(r.distribution, r.samples, capital, rounds, exact_mean=mean,
                             seed=r.seed, quantiles=at, unit=unit, down=down,
                             plain=plain and risk is not None)
