"""Each round's exact probabilities given the cards left in the shoe, for many rounds at once.

The verifier needs, for every round of a continuous shoe, the probabilities
of every quantity it tests *given the cards already dealt from that shoe*:
categories, two-card and final values, naturals, Colon classes, draws, the
player seat's payouts and any side bet's payouts.  This module counts no
deal itself: it is a thin adapter over the batch engine.
:func:`round_probabilities` asks :func:`odds.exact.marginals.round_marginals`
(the rules table's columns folded into the marginals tested) and, for the
side bets, :mod:`odds.exact.bet_table`, in one matrix product per chunk of
compositions, and divides the exact counts by each composition's total in
float64 (probabilities good to one rounding; they only enter the frequency
tests' statistics, which are floats anyway).  The reference every test
compares against is :func:`odds.exact.engine.round_odds`.

Cards written by point value only: the zero-point cards of a composition
are counted as 10s (:func:`odds.exact.marginals.lump_zero_points`), exact
for everything that depends on points; what a Colon of two zero-point cards
decides (the Colon classes and the payouts, under ``colon_match = rank``)
is then None, except the Colon nine (a pair of 9s), which points tell.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from odds.rules.profile import Profile
from odds.rules.settle import category_outcome
from odds.sim.stats import Moments, RoundModel, moments_of_rounds
from odds.sim.tallies import OUTCOMES

__all__ = ["RoundProbabilities", "round_probabilities"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class RoundProbabilities:
    """Per-round probabilities (one row per composition), float64.

    ``categories`` (n, len(names)); ``player_value``, ``bank_value`` (two-card
    values), ``player_final``, ``bank_final`` (n, 10); ``player_colon``,
    ``bank_colon`` (n, 3): no Colon, Colon, Colon nine, or None where the
    ranks are unknown (value-only cards) and a zero-point pair's Colon
    depends on them; ``player_colon_nine``, ``bank_colon_nine`` (n,);
    ``player_draws``, ``bank_draws`` (n,); ``payouts`` (n, len(amounts)),
    or None where a zero-point pair's Colon decides the payout and the ranks
    are unknown; ``side``: side bets' payout labels (high to low) and
    per-round probabilities, for the bets asked for.
    """

    names: tuple[str, ...]
    categories: FloatArray
    player_value: FloatArray
    bank_value: FloatArray
    player_final: FloatArray
    bank_final: FloatArray
    player_colon: FloatArray | None
    bank_colon: FloatArray | None
    player_draws: FloatArray
    bank_draws: FloatArray
    amounts: tuple[Fraction, ...]
    payouts: FloatArray | None
    compositions: IntArray | None = None  # the cards left before each round (None: values only)
    player_colon_nine: FloatArray | None = None
    bank_colon_nine: FloatArray | None = None
    side: dict[str, tuple[tuple[str, ...], FloatArray]] | None = None


def round_probabilities(profile: Profile, compositions: npt.ArrayLike,
                        values_only: bool = False,
                        bets: tuple[str, ...] = ()) -> RoundProbabilities:
    """Exact counts of the batch engine, divided in float64: one round for each composition.

    ``compositions``: (n, 13) counts per rank A..K of the cards left; with
    ``values_only`` the ranks 10, J, Q, K are not told apart (they are
    counted as 10s) and what needs them (a Colon of zero-point cards) is
    None.  ``bets``: side bets (countable through the shoe, see
    :func:`countable_side_bet`) whose per-round payout probabilities are
    computed in the same product.

    >>> from odds.rules.profiles import BUILTIN
    >>> p = round_probabilities(BUILTIN["standard"], [[4] * 13, [3] + [4] * 12])
    >>> from odds.exact.engine import round_odds
    >>> from odds.rules.shoe import Shoe
    >>> exact = round_odds(BUILTIN["standard"], Shoe.packs_of(1))
    >>> bool(p.bank_draws[0] == float(exact.bank_draws))
    True
    """
    from odds.exact.marginals import colon_by_points, lump_zero_points, round_marginals
    from odds.sim.tallies import category_names

    comps = np.asarray(compositions, dtype=np.int64).reshape(-1, 13)
    if values_only:
        comps = lump_zero_points(comps)
    side_sets = []
    if bets:
        if values_only:
            raise ValueError("side bets need the ranks left, and the cards are written by "
                             "value only")
        from odds.exact.bet_table import bet_set

        side_sets = [bet_set(profile, [bet], suits=False) for bet in bets]
    tables = [s.table() for s in side_sets]
    m = round_marginals(profile, comps, extra=[t.matrix for t in tables])
    totals = np.array([float(t) for t in m.totals])[:, None]

    def share(counts: Any) -> FloatArray:
        out: FloatArray = np.asarray(counts, dtype=np.float64) / totals
        return out

    names = category_names(profile)
    at = [m.table.categories.index(n) if n in m.table.categories else -1 for n in names]
    cats = share(m.categories)
    categories = np.where(np.array(at) >= 0, cats[:, at], 0.0)
    ranked = not values_only or colon_by_points(profile)
    player_colon = share(m.player_colon)
    bank_colon = share(m.bank_colon)
    side = None
    if bets:
        from odds.exact.bet_table import BetCounts, SuitModel

        side = {}
        for bet, table, cols in zip(bets, tables, m.extra, strict=True):
            counts = BetCounts(table, m.compositions, False, m.totals, cols, SuitModel(None))
            side[bet] = _cells(counts, bet)
    return RoundProbabilities(
        names=names,
        categories=categories,
        player_value=share(m.player_value),
        bank_value=share(m.bank_value),
        player_final=share(m.player_final),
        bank_final=share(m.bank_final),
        player_colon=player_colon if ranked else None,
        bank_colon=bank_colon if ranked else None,
        player_draws=share(m.player_draws[:, None])[:, 0],
        bank_draws=share(m.bank_draws[:, None])[:, 0],
        amounts=m.table.amounts,
        payouts=share(m.payouts) if ranked else None,
        compositions=None if values_only else m.compositions,
        player_colon_nine=player_colon[:, 2],
        bank_colon_nine=bank_colon[:, 2],
        side=side,
    )


# -- models of a seat's counts ------------------------------------------------


def _quantities(profile: Profile, probs: RoundProbabilities, rows: Any,
                bets: tuple[str, ...] = ()) -> dict[str, Any]:
    """Per-round cell probabilities of every tested quantity, for the given rows."""
    from odds.sim.audit import bet_outcomes

    rows = np.asarray(rows)
    if len(rows) == len(probs.categories) and np.array_equal(rows, np.arange(len(rows))):
        rows = slice(None)  # every round, in order: views, not copies
    nat = sorted(profile.naturals)
    out: dict[str, Any] = {
        "categories": probs.categories[rows],
        "player_value": probs.player_value[rows],
        "bank_value": probs.bank_value[rows],
        "player_final": probs.player_final[rows],
        "bank_final": probs.bank_final[rows],
        "player_natural": probs.player_value[rows][:, nat].sum(axis=1),
        "bank_natural": probs.bank_value[rows][:, nat].sum(axis=1),
        "player_draws": probs.player_draws[rows],
        "bank_draws": probs.bank_draws[rows],
    }
    if probs.player_colon is not None and probs.bank_colon is not None:
        out["player_colon"] = probs.player_colon[rows][:, 1:].sum(axis=1)
        out["bank_colon"] = probs.bank_colon[rows][:, 1:].sum(axis=1)
    if probs.player_colon_nine is not None and probs.bank_colon_nine is not None:
        # Known from points alone (a pair of 9s), value-only cards included.
        out["player_colon_nine"] = probs.player_colon_nine[rows]
        out["bank_colon_nine"] = probs.bank_colon_nine[rows]
    if probs.payouts is not None:
        out["payouts"] = probs.payouts[rows]
    outcome = np.array([OUTCOMES.index(category_outcome(n).value) for n in probs.names])
    by_outcome = np.zeros((len(probs.names), 3))
    by_outcome[np.arange(len(probs.names)), outcome] = 1
    outcomes = out["categories"] @ by_outcome
    for bet in bets:
        if bet not in ("banker", "tie"):  # a side bet: the batch engine's columns
            out[f"bet:{bet}"] = side_bet_cells(profile, bet, probs, rows)
            continue
        table = bet_outcomes(profile, bet)
        amounts = sorted(set(table.values()), reverse=True)
        cells = np.zeros((3, len(amounts)))
        for o, name in enumerate(("win", "push", "loss")):
            cells[o, amounts.index(table[name])] = 1
        out[f"bet:{bet}"] = (tuple(str(a) for a in amounts), outcomes @ cells)
    return out


def countable_side_bet(profile: Profile, bet: str, values_only: bool) -> str | None:
    """Why the per-round odds of side bet ``bet`` cannot be computed here, or None.

    They come from the batch engine (:mod:`odds.exact.bet_table`) on the
    composition left before each round: by rank, so a log with value-only
    cards cannot have them, nor a bet on suits (the suits of the cards dealt
    before would condition it).
    """
    from odds.exact.bet_table import check_countable
    from odds.rules.bet_library import resolve_bets
    from odds.rules.errors import BetError

    if values_only:
        return "the cards are written by value only"
    chosen = resolve_bets(profile, [bet])[0]
    if chosen.uses_suits:
        return "the bet looks at suits"
    try:
        check_countable(chosen)
    except BetError as exc:
        return str(exc)
    return None


def side_bet_cells(profile: Profile, bet: str, probs: RoundProbabilities,
                   rows: Any) -> tuple[tuple[str, ...], FloatArray]:
    """Per-round probabilities of each net payout of side bet ``bet`` (labels high to low),
    exact counts of the batch engine on each round's composition, divided in float64.

    Taken from ``probs.side`` when :func:`round_probabilities` was asked for
    the bet (one product for every quantity), else counted here.
    """
    if probs.side is not None and bet in probs.side:
        labels, cells = probs.side[bet]
        return labels, cells[rows]
    from odds.exact.bet_table import bet_set

    if probs.compositions is None:
        raise ValueError(f"bet {bet}: the ranks left are not known (value-only cards)")
    chosen = bet_set(profile, [bet], suits=False)
    return _cells(chosen.table().counts(probs.compositions[rows]), bet)


def _cells(counts: Any, bet: str) -> tuple[tuple[str, ...], FloatArray]:
    """A side bet's per-composition payout probabilities from its exact column counts.

    The bet does not look at suits, so each column is one entry of its pay table.
    """
    table = counts.table
    b = table.bet(bet)
    the_bet = table.bets[b]
    pays = [e.pays for e in the_bet.entries] + [the_bet.otherwise]
    amounts = sorted(set(pays), reverse=True)
    fold = np.zeros((len(table.columns[b]), len(amounts)))
    for j, entry in enumerate(table.columns[b]):
        fold[j, amounts.index(pays[entry])] = 1
    start = table.offsets[b]
    cols = np.asarray(counts.counts[:, start:start + len(table.columns[b])], dtype=np.float64)
    totals = np.array([float(t) for t in counts.totals])
    # Each row of ``cols`` is a partition of the composition's deals: the sums are exact
    # integers below 2**53 (8 packs: 5e15) before the one division.
    cells: FloatArray = (cols @ fold) / totals[:, None]
    return tuple(str(a) for a in amounts), cells


MULTI = ("categories", "player_value", "bank_value", "player_final", "bank_final", "payouts")


def rounds_model(profile: Profile, probs: RoundProbabilities, rows: Any,
                 bets: tuple[str, ...] = ()) -> RoundModel:
    """The model of one seat's counts: its rounds are independent given the cards dealt.

    Expected counts are the sums of the rounds' probabilities, variances the
    sums of the rounds' (multinomial) variances.
    """
    q = _quantities(profile, probs, rows, bets)
    n = len(q["categories"])
    return _model(profile, probs, q, n, moments_of_rounds,
                  lambda p: (float(p.sum()), float((p * (1 - p)).sum())),
                  lambda m, s: (float(m.sum()), float((s - m * m).sum())))


def _model(profile: Profile, probs: RoundProbabilities, q: dict[str, Any], n: int,
           multi: Any, single: Any, ev_fn: Any) -> RoundModel:
    labels = {"categories": probs.names, "payouts": tuple(str(a) for a in probs.amounts)}
    quantities = {}
    scalars: dict[str, Any] = {}
    for name, p in q.items():
        if name.startswith("bet:"):
            quantities[name] = (p[0], multi(p[1]))
        elif name in MULTI:
            quantities[name] = (labels.get(name, tuple(str(v) for v in range(10))), multi(p))
        else:
            scalars[name] = single(p)
    nat = tuple(str(v) for v in sorted(profile.naturals))
    scalars["player_natural_values"] = nat
    scalars["bank_natural_values"] = nat
    ev = None
    if "payouts" in q:
        a = np.array([float(x) for x in probs.amounts])
        mean = q["payouts"] @ a
        second = q["payouts"] @ (a * a)
        ev = ev_fn(mean, second)
    return RoundModel(n, quantities, scalars, probs.amounts, ev)


# -- tallies from continuous shoes: the expectation over dealt shoes ----------

SAMPLE_ROUNDS = 20_000  # rounds of simulated shoes behind a tallies model
SAMPLE_SEED = 1


@dataclass(frozen=True)
class ShoeSample:
    """Per-round exact probabilities over shoes dealt by our simulator."""

    probs: RoundProbabilities
    shoe: IntArray  # shoe of each sampled round
    rounds: int
    shoes: int
    seed: int
    penetration: float


def sample_shoes(profile: Profile, shoe: Any, seats: int, penetration: float,
                 rounds: int = SAMPLE_ROUNDS, seed: int = SAMPLE_SEED) -> ShoeSample:
    """Deal ``rounds`` rounds of cut-card shoes (our simulator, ``seed``) and compute
    every round's exact probabilities given the cards dealt before it in its shoe.
    """
    import tempfile
    from pathlib import Path

    from odds.sim.logs import parse_log
    from odds.sim.shoe_check import check_shoe
    from odds.sim.simulate import simulate

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sample.csv"
        simulate(profile, shoe, rounds, seats=seats, seed=seed, reshuffle="cut",
                 penetration=penetration, log=path)
        lines = path.read_text(encoding="utf-8").splitlines()
    skip = next(i for i, ln in enumerate(lines) if not ln.startswith("#"))
    log = parse_log(lines[skip:], skip + 1, "sample")
    check = check_shoe(log, shoe, seats, "sample")
    assert check.compositions is not None and log.shoe is not None
    probs = round_probabilities(profile, check.compositions)
    shoe_of = log.shoe[check.first]
    return ShoeSample(probs, shoe_of, len(shoe_of), len(np.unique(shoe_of)), seed, penetration)


def shoes_model(profile: Profile, sample: ShoeSample, n: int,
                bets: tuple[str, ...] = ()) -> RoundModel:
    """The model of ``n`` rounds' counts from continuous shoes, estimated from ``sample``.

    The rounds' probabilities are random through the shoe: the count of a
    cell has expectation ``n mu`` (mu: the mean over the sampled rounds) and
    variance ``n E[p (1 - p)] + (n / r) V + n**2 V / (K r**2)``: the rounds'
    own variance, the spread of the shoes (V: the covariance over shoes of a
    shoe's summed probabilities less ``rounds * mu``, r rounds per shoe on
    average) and the spread of the estimate of mu from K sampled shoes.
    """
    rows = np.arange(sample.rounds)
    q = _quantities(profile, sample.probs, rows, bets)
    shoe_ids = np.unique(sample.shoe, return_inverse=True)[1].ravel()
    k = int(shoe_ids.max()) + 1
    per_shoe = np.bincount(shoe_ids, minlength=k).astype(np.float64)
    r = float(per_shoe.mean())
    spread = n / r + n * n / (k * r * r)

    def shoe_cov(p: Any) -> Any:
        p2 = p.reshape(len(p), -1)
        mu = p2.mean(axis=0)
        sums = np.zeros((k, p2.shape[1]))
        np.add.at(sums, shoe_ids, p2)
        dev = sums - per_shoe[:, None] * mu[None, :]
        return mu, dev.T @ dev / max(k - 1, 1)

    def multi(p: Any) -> Moments:
        mu, cov = shoe_cov(p)
        within = np.diag(mu) - p.T @ p / len(p)
        return Moments(n * mu, n * within + spread * cov)

    def single(p: Any) -> tuple[float, float]:
        mu, cov = shoe_cov(p)
        return float(n * mu[0]), float(n * mu[0] - n * float((p * p).mean())
                                       + spread * float(cov[0, 0]))

    def ev_fn(mean: Any, second: Any) -> tuple[float, float]:
        mu, cov = shoe_cov(mean)
        within = float((second - mean * mean).mean())
        return float(n * mu[0]), n * within + spread * float(cov[0, 0])

    return _model(profile, sample.probs, q, n, multi, single, ev_fn)
