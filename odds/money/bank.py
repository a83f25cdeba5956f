"""The bank's side of the table: its net per round at N players, caps, session risk.

Per round.  Under a fixed-rule profile a seat's draw depends only on its own
two cards, and (without a tableau) the bank's only on its own two cards.  On
the infinite shoe the seats are therefore independent *given the bank's
hand* (its two-card value, Colon class and final value): the bank's net is
exact by conditioning on the bank's hand and convolving the seats.  With a
tableau (the bank looks at "the" player's third card) or with naturals that
stop every draw, the rules define the bank's draw for one player hand only,
so those profiles are heads-up only (as in ``lucky9 simulate``).

On a finite shoe the seats share the cards.  One player is exact through the
engine; two are exact through :mod:`odds.exact.seats` (every pair of seats'
cards counted against every bank hand, up to 27 packs); more are enumerated
hand by hand while the shoe is tiny (a budget of transitions), and beyond,
the distribution is a seeded Monte Carlo estimate with 95% intervals, marked
``exact = False``, whose mean and variance are nonetheless exact without caps
(``exact_moments``: N times a seat's mean, and the seats' covariance from the
two-seat counts).

Caps (docs/bank.md, 'Caps and limits').  ``bonus_cap = k``: the first k bonus payments in
seat order are honoured, a later Colon is settled as if it were none.
``round_cap = X``: the bank collects losers in full, then pays winners at
most X, in seat order or pro rata.  A cap changes what a seat is paid, so
each seat's figures are reported by position.

The session.  With capital C the bank is ruined in the first round whose
settlement it cannot pay from C plus that round's collected stakes, i.e.
when C + net < 0.  The ruin probability within R rounds and the result after
R rounds come from a Markov chain over capital on the lattice of possible
nets: exact rationals while it is small, else floating point (numpy,
imported lazily) with a stated error bound.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, TypeVar

from odds.exact.engine import round_odds
from odds.exact.hands import HandDeal, canonical, hand_counts, hand_deals, hand_of
from odds.exact.seats import (
    MAX_PAIR_CARDS,
    PairCounts,
    SeatType,
    outcome_type,
    pair_counts,
    seat_type,
)
from odds.money.caps import (
    SeatLimits,
    capped_type,
    seat_capped_moments,
    seat_limits,
    settle_states,
    settle_table,
    settlement_denominator,
)
from odds.rules.draw import hand_draws
from odds.rules.errors import ProfileError
from odds.rules.profile import Profile
from odds.rules.profiles import as_profile
from odds.rules.session_options import Session
from odds.rules.settle import Outcome
from odds.rules.shoe import Shoe, as_shoe

__all__ = [
    "BankRound",
    "EXACT_BUDGET",
    "bank_round",
    "wilson",
]

EXACT_BUDGET = 200_000  # hand transitions enumerated on a finite shoe before estimating (about 2 s)
Z95 = 1.959963984540054  # two-sided 95% normal quantile

# A seat's settlement against one bank hand: (net per unit stake, settled by a
# bonus entry, net per unit if that bonus is capped).
BankKey = tuple[int, int, int]  # bank two-card value, Colon class, final value


class TableError(ProfileError):
    """A table the rules do not define (a tableau or stopping naturals at N > 1)."""


# -- one round -------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class BankRound:
    """The bank's net for one round at a table, and each seat's, in units.

    ``distribution`` maps the bank's net to its probability (exact) or its
    frequency over ``samples`` rounds (``exact`` False); ``seats`` holds each
    seat's net (money, its stake included) the same way, in seat order.

    >>> from odds import BUILTIN
    >>> r = bank_round(BUILTIN["plain"], Shoe.infinite_shoe(), Session(players=2))
    >>> r.exact, r.mean, r.worst, sum(r.distribution.values())
    (True, Fraction(0, 1), Fraction(-2, 1), Fraction(1, 1))
    """

    profile: Profile
    shoe: Shoe
    session: Session
    stakes: tuple[Fraction, ...]
    distribution: Mapping[Fraction, Fraction]
    seats: tuple[Mapping[Fraction, Fraction], ...]
    exact: bool
    method: str
    samples: int | None = None
    seed: int | None = None
    exact_moments: tuple[Fraction, Fraction] | None = None  # exact mean, variance of an estimate
    exact_seats: tuple[tuple[Fraction, Fraction], ...] | None = None  # each seat's, in money
    exact_mean: Fraction | None = None  # of an estimate whose variance is not exact
    uncapped_mean: Fraction | None = None  # exact, without bonus_cap and round_cap

    @property
    def moments_exact(self) -> bool:
        """True when the mean and variance printed are exact (even if the distribution is not)."""
        return self.exact or self.exact_moments is not None

    @property
    def mean_exact(self) -> bool:
        """True when the mean printed is exact (with the variance, or alone)."""
        return self.moments_exact or self.exact_mean is not None

    @property
    def seats_exact(self) -> bool:
        """True when each seat's mean and variance are exact."""
        return self.exact or self.exact_seats is not None

    @property
    def players(self) -> int:
        """Players at the table."""
        return len(self.stakes)

    @property
    def mean(self) -> Fraction:
        """The bank's expected net per round (exact where known, else the sample mean)."""
        if self.exact_moments is not None:
            return self.exact_moments[0]
        if self.exact_mean is not None:
            return self.exact_mean
        return _moments(self.distribution)[0]

    @property
    def variance(self) -> Fraction:
        """Variance of the bank's net per round (exact where known, else the sample variance)."""
        if self.exact_moments is not None:
            return self.exact_moments[1]
        return _moments(self.distribution)[1]

    @property
    def sample_mean(self) -> Fraction:
        """The mean of the distribution as computed or sampled."""
        return _moments(self.distribution)[0]

    @property
    def sd(self) -> float:
        """Standard deviation of the bank's net per round."""
        return math.sqrt(self.variance)

    @property
    def worst(self) -> Fraction:
        """The bank's worst net in one round (among those seen, if estimated)."""
        return min(self.distribution)

    @property
    def best(self) -> Fraction:
        """The bank's best net in one round."""
        return max(self.distribution)

    def p_loss_more_than(self, x: Fraction | int) -> Fraction:
        """P(the bank loses more than ``x`` units in the round): P(net < -x)."""
        return sum((p for v, p in self.distribution.items() if v < -x), Fraction(0))

    def seat_moments(self, seat: int) -> tuple[Fraction, Fraction]:
        """Mean and variance of seat ``seat``'s net (1-based), in the stakes' units."""
        if self.exact_seats is not None:
            return self.exact_seats[seat - 1]
        return _moments(self.seats[seat - 1])

    def interval(self, p: Fraction) -> tuple[float, float] | None:
        """95% Wilson interval of a frequency, or None when exact."""
        if self.exact or self.samples is None:
            return None
        return wilson(float(p), self.samples)

    def mean_interval(self) -> tuple[float, float] | None:
        """95% normal interval of the bank's mean net, or None when exact."""
        if self.mean_exact or self.samples is None:
            return None
        half = Z95 * math.sqrt(float(self.variance) / self.samples)
        return float(self.mean) - half, float(self.mean) + half

    def scaled(self, factor: Fraction) -> Mapping[Fraction, Fraction]:
        """The bank's distribution with every stake multiplied by ``factor``."""
        return {v * factor: p for v, p in self.distribution.items()}


def wilson(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a frequency ``p`` over ``n`` trials.

    >>> lo, hi = wilson(0.5, 100); round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    """
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _moments(dist: Mapping[Fraction, Fraction]) -> tuple[Fraction, Fraction]:
    mean = sum((v * p for v, p in dist.items()), Fraction(0))
    second = sum((v * v * p for v, p in dist.items()), Fraction(0))
    return mean, second - mean * mean


MAX_SAMPLES = 2_000_000  # Monte Carlo rounds (measured: 2 min of CPU and 59 MB at 8 seats)
FLUSH = 50_000  # distinct sampled tables tallied before they are settled (bounds the memory)
MAX_BANK_CARDS = 52_000  # a finite shoe's cards (1,000 packs): beyond, the infinite shoe


def bank_round(
    profile: Profile | str,
    shoe: Shoe | int | str | None = None,
    session: Session | None = None,
    *,
    samples: int = 20_000,
    seed: int = 1,
    budget: int = EXACT_BUDGET,
    progress: Callable[[int, int], None] | None = None,
) -> BankRound:
    """The bank's net per round at a table of N players, exactly where tractable.

    ``session`` gives the players, stakes and caps (default: the profile's
    session; 1 player at stake 1).  On a finite shoe with 2 or more players
    the enumeration stops after ``budget`` hand transitions and the round is
    estimated from ``samples`` seeded Monte Carlo rounds instead.

    >>> from odds import BUILTIN, round_odds
    >>> r = bank_round(BUILTIN["standard"], Shoe.infinite_shoe(), Session(players=8))
    >>> r.mean == -8 * round_odds(BUILTIN["standard"], Shoe.infinite_shoe()).expected_value
    True
    >>> r.worst  # eight Colon nines paid 3:1
    Fraction(-24, 1)
    """
    profile = as_profile(profile)
    shoe = as_shoe(shoe, profile.decks)
    if session is None:
        session = profile.session
    if not shoe.infinite and shoe.size > MAX_BANK_CARDS:
        raise ValueError(f"a finite shoe for the bank has at most {MAX_BANK_CARDS:,} cards "
                         f"(1,000 packs), not {shoe.size:,}: give --decks inf for a bigger one")
    if not profile.fixed:
        raise ProfileError(
            f"profile {profile.key!r} has no fixed draw rule (players and bank choose): "
            "the bank's figures need fixed rules")
    players = session.players or (len(session.stakes) if session.stakes else 1)
    stakes = session.stakes_for(players)
    session = replace(session, players=players, stakes=stakes)
    if session.max_bonus is not None and profile.bonus_limit is not None:
        profile = replace(profile, bonus_limit=None)  # the session's cap, at each seat's stake
    if session.bonus_cap is not None and session.bonus_cap < 0:
        raise ProfileError(f"bonus_cap: {session.bonus_cap} is negative")
    if players > 1:
        _check_table(profile, players)
    if isinstance(samples, bool) or not 1 <= samples <= MAX_SAMPLES:
        shown = samples if isinstance(samples, bool) else f"{samples:,}"
        raise ValueError(f"samples: give 1 to {MAX_SAMPLES:,} Monte Carlo rounds, not {shown}")
    slots = 3 * (players + 1)
    if not shoe.infinite and shoe.size < slots:
        raise ValueError(
            f"the shoe has {shoe.size} cards, but a round of {players} player"
            f"{'s' if players > 1 else ''} fills {slots} card slots")
    common = dict(profile=profile, shoe=shoe, session=session, stakes=stakes)
    limits = seat_limits(profile, session, stakes)
    if players == 1:
        states = [(1, _joint_types(profile, shoe))]
        bank, seats = settle_states(states, session, stakes, limits)
        return BankRound(**common, distribution=bank, seats=seats, exact=True,  # type: ignore[arg-type]
                         method="exact enumeration (heads-up)")
    if shoe.infinite:
        bank, seats = settle_states(_independent_states(profile, shoe), session, stakes, limits)
        return BankRound(**common, distribution=bank, seats=seats, exact=True,  # type: ignore[arg-type]
                         method="seats independent given the bank's hand (infinite shoe)")
    pairs = None
    if shoe.size <= MAX_PAIR_CARDS and (players == 2 or not session.capped):
        pairs = pair_counts(profile, shoe, progress)  # kept: a --precision run asks again
    if players == 2 and pairs is not None:
        bank, seats = _settle_sequences((pairs.counts, pairs.total), session, stakes, limits)
        return BankRound(**common, distribution=bank, seats=seats, exact=True,  # type: ignore[arg-type]
                         method="two seats counted against every bank hand on the shoe's "
                                "composition (falling-factorial weights)")
    try:
        sequences = _finite_sequences(profile, shoe, players, budget)
    except _TooLarge:
        bank, seats = _monte_carlo(profile, shoe, session, stakes, samples, seed, progress)
        known, fields = _exact_figures(profile, shoe, session, stakes, limits, pairs)
        return BankRound(**common, distribution=bank, seats=seats, exact=False,  # type: ignore[arg-type]
                         method=f"{samples:,} Monte Carlo rounds, seed {seed}; {known}",
                         samples=samples, seed=seed, **fields)
    bank, seats = _settle_sequences(sequences, session, stakes, limits)
    return BankRound(**common, distribution=bank, seats=seats, exact=True,  # type: ignore[arg-type]
                     method="exact enumeration of the shoe's composition, hand by hand")


def _exact_figures(profile: Profile, shoe: Shoe, session: Session, stakes: Sequence[Fraction],
                   limits: SeatLimits, pairs: PairCounts | None) -> tuple[str, dict[str, Any]]:
    """What stays exact of a sampled round: the method's words, and the BankRound fields.

    A per-seat cap (``limits``) is a function of the seat's hand against the bank's: the
    mean is exact by linearity on any shoe, the variance from the two-seat counts
    (:func:`odds.money.caps.seat_capped_moments`).  ``bonus_cap`` and ``round_cap`` act on
    the whole table: the mean is then sampled, and the exact mean without them (below it:
    they only lower what the bank pays) stands beside it.
    """
    seat_figs, mean, var = seat_capped_moments(_joint_types(profile, shoe), pairs, stakes,
                                               limits)
    if session.capped:
        return ("the mean without bonus_cap and round_cap exact", {"uncapped_mean": mean})
    if var is None:
        return ("mean exact; variance sampled (the shoe is beyond the exact pair counts)",
                {"exact_mean": mean, "exact_seats": seat_figs})
    return ("mean and variance exact (every pair of seats counted)",
            {"exact_moments": (mean, var), "exact_seats": seat_figs})


def _check_table(profile: Profile, players: int) -> None:
    try:
        hand_draws(profile)  # refuses rules defined for one player hand
    except ProfileError as exc:
        raise TableError(f"{exc}; use 1 player, not {players}") from None


# -- seat types against the bank's hand --------------------------------------------


_KNOWN_TYPES: dict[Profile, tuple[dict[tuple[int, ...], int], dict[SeatType, int],
                                   list[SeatType]]] = {}
KNOWN_PROFILES = 4  # profiles whose seat types are kept (a few MB each at most)


def _seat_types(profile: Profile) -> tuple[Callable[[tuple[int, ...]], int], list[SeatType]]:
    """The profile's seat type of a (seat hand, bank hand) key, ``(pv, pcol, pf, bv, bcol,
    bf)``, each worked out once: a seat type is a function of the rules alone, so the
    shoes of a table, and a rerun, share them. A profile has a few distinct seat types,
    each held once however many keys lead to it.

    Returns ``of(key)``, the type's number, and the list of types by number: counts are
    kept by number (a small int hashes at once; a type's Fractions are hashed afresh each
    time) and turned into types at the end.
    """
    entry = _KNOWN_TYPES.get(profile)
    if entry is None:
        if len(_KNOWN_TYPES) >= KNOWN_PROFILES:
            _KNOWN_TYPES.clear()
        entry = _KNOWN_TYPES[profile] = ({}, {}, [])
    known, numbers, types = entry

    def of(key: tuple[int, ...]) -> int:
        i = known.get(key)
        if i is None:
            t = seat_type(profile, (key[0], key[1], key[2]), (key[3], key[4], key[5]))
            i = numbers.get(t)
            if i is None:
                i = numbers[t] = len(types)
                types.append(t)
            known[key] = i
        return i

    return of, types


def _joint_types(profile: Profile, shoe: Shoe) -> dict[SeatType, int]:
    """Heads-up: the seat's settlement counted over every deal, by the engine.

    A settlement reads the outcome and the two Colon classes alone
    (:func:`~odds.exact.seats.outcome_type`), so the engine's outcome counts
    (:func:`~odds.exact.engine.round_odds`, kept for the rounds asked again)
    give the types.
    """
    out: dict[SeatType, int] = defaultdict(int)
    types: dict[tuple[str, int, int], SeatType] = {}
    for (_, _, pcol, bcol, cat), count in round_odds(profile, shoe).outcome_counts.items():
        key = (cat.partition("_")[0], pcol, bcol)
        t = types.get(key)
        if t is None:
            t = types[key] = outcome_type(profile, Outcome(key[0]), pcol, bcol)
        out[t] += count
    return dict(out)


def _independent_states(profile: Profile, shoe: Shoe) -> list[tuple[int, dict[SeatType, int]]]:
    """Infinite shoe: bank hands (weight) with the seat's settlement counts given each."""
    player_draws, bank_draws = hand_draws(profile)
    banks = hand_counts(profile, shoe.counts, bank_draws)
    seat_hands = hand_counts(profile, shoe.counts, player_draws)
    merged: dict[frozenset[tuple[int, int]], int] = defaultdict(int)
    type_of, types = _seat_types(profile)
    for (bv, bcol, bf), wb in banks.items():
        seat: dict[int, int] = defaultdict(int)
        for (pv, pcol, pf), w in seat_hands.items():
            seat[type_of((pv, pcol, pf, bv, bcol, bf))] += w
        merged[frozenset(seat.items())] += wb
    return [(w, {types[i]: count for i, count in sorted(key)}) for key, w in merged.items()]


# -- finite shoes: every hand dealt from the composition --------------------------


class _TooLarge(Exception):
    pass


def _finite_sequences(
    profile: Profile, shoe: Shoe, players: int, budget: int
) -> tuple[dict[tuple[SeatType, ...], int], int]:
    """Counts of the seats' settlements, in seat order, over every deal.

    By exchangeability of a shuffled shoe every hand's three card slots may
    be dealt in any fixed order (a slot a hand does not use is filled too,
    as in the engine): the bank's hand first, then seat by seat.  States
    (composition left, bank hand, settlements so far) are merged as they go.
    """
    n0 = shoe.size
    slots = 3 * (players + 1)
    work = 0
    type_of, types = _seat_types(profile)  # small ints stand for settlements: cheap to hash

    def hands(counts: tuple[int, ...], draws: tuple[bool, ...]) -> list[HandDeal]:
        """(two-card value, Colon class, final value, weight, counts left) per hand."""
        nonlocal work
        deals, done = hand_deals(profile, counts, draws)
        work += done
        if work > budget:
            raise _TooLarge
        return deals

    Layer = dict[tuple[tuple[int, ...], BankKey, tuple[int, ...]], int]
    layer: Layer = defaultdict(int)
    player_draws, bank_draws = hand_draws(profile)
    for bv, bcol, bf, w, left in hands(canonical(shoe.counts), bank_draws):
        layer[left, (bv, bcol, bf), ()] += w
    if len(layer) * work > budget:  # the first seat alone would already exceed the budget
        raise _TooLarge
    for _ in range(players):
        new: Layer = defaultdict(int)
        for (counts, bank, done), w in layer.items():
            for pv, pcol, pf, w2, left in hands(counts, player_draws):
                new[left, bank, (*done, type_of((pv, pcol, pf, *bank)))] += w * w2
        layer = new
    by_ids: dict[tuple[int, ...], int] = defaultdict(int)
    for (counts, _, done), w in layer.items():
        left_n = sum(counts)
        by_ids[done] += w * math.perm(left_n, slots - (n0 - left_n))
    out: dict[tuple[SeatType, ...], int] = defaultdict(int)
    for done, w in by_ids.items():
        out[tuple(types[t] for t in done)] += w
    return dict(out), math.perm(n0, slots)


_Seq = TypeVar("_Seq", bound=tuple[SeatType, ...])  # the seats' types, in seat order


def _settle_sequences(
    found: tuple[Mapping[_Seq, int], int], session: Session,
    stakes: Sequence[Fraction], limits: SeatLimits | None = None,
) -> tuple[dict[Fraction, Fraction], tuple[dict[Fraction, Fraction], ...]]:
    sequences, total = found
    limits = limits or (None,) * len(stakes)
    scale = settlement_denominator({capped_type(t, lim) for seq in sequences for t in seq
                                    for lim in limits}, stakes, session.round_cap)
    cap = None if session.round_cap is None else int(session.round_cap * scale)
    bank: dict[Fraction, Fraction] = defaultdict(Fraction)
    seats: list[dict[Fraction, Fraction]] = [defaultdict(Fraction) for _ in stakes]
    for seq, w in sequences.items():
        nets = []
        for t, s, lim in zip(seq, stakes, limits, strict=True):
            a, b, fb = capped_type(t, lim)
            nets.append((int(a * s * scale), b, int(fb * s * scale)))
        net, paid = settle_table(nets, session.bonus_cap, cap, session.cap_rule)
        p = Fraction(w, total)
        bank[Fraction(net, scale)] += p
        for i, x in enumerate(paid):
            seats[i][x / scale] += p
    return _sorted(bank), tuple(_sorted(d) for d in seats)


def _sorted(d: Mapping[Fraction, Fraction]) -> dict[Fraction, Fraction]:
    return {v: d[v] for v in sorted(d) if d[v]}


def _monte_carlo(
    profile: Profile, shoe: Shoe, session: Session, stakes: Sequence[Fraction], samples: int,
    seed: int, progress: Callable[[int, int], None] | None = None,
) -> tuple[dict[Fraction, Fraction], tuple[dict[Fraction, Fraction], ...]]:
    """Seeded Monte Carlo of whole rounds (random.Random: reproducible, no numpy)."""
    rng = random.Random(seed)
    deck = [r for r, c in enumerate(shoe.counts) for _ in range(c)]
    players = len(stakes)
    type_of, kinds = _seat_types(profile)  # a hand pair's seat type, by its index in ``kinds``
    types: list[int] = []
    tallies: dict[tuple[int, ...], int] = defaultdict(int)  # small ints: cheap to hash

    player_draws, bank_draws = hand_draws(profile)
    limits = seat_limits(profile, session, stakes)

    bank: dict[Fraction, Fraction] = defaultdict(Fraction)  # counts (Fractions: their sum)
    seats: list[dict[Fraction, Fraction]] = [defaultdict(Fraction) for _ in stakes]

    def flush() -> None:
        n = sum(tallies.values())
        if not n:
            return
        merged: dict[tuple[SeatType, ...], int] = defaultdict(int)
        for ids, k in tallies.items():
            merged[tuple(kinds[i] for i in ids)] += k
        part, part_seats = _settle_sequences((dict(merged), n), session, stakes, limits)
        for v, p in part.items():
            bank[v] += p * n
        for mine, got in zip(seats, part_seats, strict=True):
            for v, p in got.items():
                mine[v] += p * n
        tallies.clear()

    for done in range(samples):
        if progress is not None and done % 4096 == 0:
            progress(done, samples)
        cards = rng.sample(deck, 3 * (players + 1))
        bv, bcol, bf = hand_of(profile, cards[:3], bank_draws)
        types.clear()
        for i in range(players):
            pv, pcol, pf = hand_of(profile, cards[3 + 3 * i: 6 + 3 * i], player_draws)
            types.append(type_of((pv, pcol, pf, bv, bcol, bf)))
        tallies[tuple(types)] += 1
        if len(tallies) >= FLUSH:  # settle what is tallied: memory stays bounded
            flush()
    flush()
    return _sorted({v: c / samples for v, c in bank.items()}), tuple(
        _sorted({v: c / samples for v, c in d.items()}) for d in seats)
