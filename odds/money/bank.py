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
engine; more are enumerated hand by hand over the shoe's composition while
that stays small (a budget of transitions), and beyond are estimated by a
seeded Monte Carlo with 99% intervals, marked ``exact = False``.

Caps (RULES.md section 6).  ``bonus_cap = k``: the first k bonus payments in
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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from odds.exact.engine import colon_class, prepare, third_card_leaves, two_card_groups, value_counts
from odds.rules.cards import POINTS
from odds.rules.profiles import CapRule, Profile, ProfileError, Rotation, Session
from odds.rules.settle import NO_COLON, Pay, category, pay_entry
from odds.rules.shoe import Shoe

__all__ = [
    "CHAIN_BUDGET",
    "EXACT_BUDGET",
    "BankRound",
    "BankStudy",
    "CapitalTarget",
    "PersonFigures",
    "SessionRisk",
    "bank_round",
    "bank_study",
    "bank_table_rows",
    "capital_for_target",
    "largest_stake",
    "rotation_figures",
    "ruin_by_capital",
    "session_risk",
    "settle_table",
    "wilson",
]

EXACT_BUDGET = 200_000  # hand transitions enumerated on a finite shoe before estimating (about 2 s)
CHAIN_BUDGET = 400_000  # state x support x rounds for the exact (rational) Markov chain
CHAIN_DIGITS = 600  # most digits of an exact chain's denominator (rounds x digits of one round's)
Z99 = 2.5758293035489004  # two-sided 99% normal quantile

# A seat's settlement against one bank hand: (net per unit stake, settled by a
# bonus entry, net per unit if that bonus is capped).
SeatType = tuple[Fraction, bool, Fraction]
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

    @property
    def players(self) -> int:
        """Players at the table."""
        return len(self.stakes)

    @property
    def mean(self) -> Fraction:
        """The bank's expected net per round (the sample mean if estimated)."""
        return _moments(self.distribution)[0]

    @property
    def variance(self) -> Fraction:
        """Variance of the bank's net per round (the sample variance if estimated)."""
        return _moments(self.distribution)[1]

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
        """Mean and variance of seat ``seat``'s net (1-based), in units."""
        return _moments(self.seats[seat - 1])

    def interval(self, p: Fraction) -> tuple[float, float] | None:
        """99% Wilson interval of a frequency, or None when exact."""
        if self.exact or self.samples is None:
            return None
        return wilson(float(p), self.samples)

    def mean_interval(self) -> tuple[float, float] | None:
        """99% normal interval of the bank's mean net, or None when exact."""
        if self.exact or self.samples is None:
            return None
        half = Z99 * math.sqrt(float(self.variance) / self.samples)
        return float(self.mean) - half, float(self.mean) + half

    def scaled(self, factor: Fraction) -> Mapping[Fraction, Fraction]:
        """The bank's distribution with every stake multiplied by ``factor``."""
        return {v * factor: p for v, p in self.distribution.items()}


def wilson(p: float, n: int, z: float = Z99) -> tuple[float, float]:
    """The Wilson score interval of a frequency ``p`` over ``n`` trials.

    >>> lo, hi = wilson(0.5, 100); round(lo, 3), round(hi, 3)
    (0.375, 0.625)
    """
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _moments(dist: Mapping[Fraction, Fraction]) -> tuple[Fraction, Fraction]:
    mean = sum((v * p for v, p in dist.items()), Fraction(0))
    second = sum((v * v * p for v, p in dist.items()), Fraction(0))
    return mean, second - mean * mean


def bank_round(
    profile: Profile,
    shoe: Shoe | None = None,
    session: Session | None = None,
    *,
    samples: int = 20_000,
    seed: int = 1,
    budget: int = EXACT_BUDGET,
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
    if session is None:
        session = profile.session
    if shoe is None:
        shoe = Shoe.packs_of(profile.decks)
    if not profile.fixed:
        raise ProfileError(
            f"profile {profile.key!r} has no fixed draw rule (players and bank choose): "
            "the bank's figures need fixed rules")
    players = session.players or (len(session.stakes) if session.stakes else 1)
    stakes = session.stakes_for(players)
    session = replace(session, players=players, stakes=stakes)
    if session.bonus_cap is not None and session.bonus_cap < 0:
        raise ProfileError(f"bonus_cap: {session.bonus_cap} is negative")
    if players > 1:
        _check_table(profile, players)
    if samples < 1:
        raise ValueError(f"samples: give at least 1 Monte Carlo round, not {samples}")
    slots = 3 * (players + 1)
    if not shoe.infinite and shoe.size < slots:
        raise ValueError(
            f"the shoe has {shoe.size} cards, but a round of {players} player"
            f"{'s' if players > 1 else ''} fills {slots} card slots")
    common = dict(profile=profile, shoe=shoe, session=session, stakes=stakes)
    if players == 1:
        states = [(1, _joint_types(profile, shoe))]
        bank, seats = _settle_states(states, session, stakes)
        return BankRound(**common, distribution=bank, seats=seats, exact=True,  # type: ignore[arg-type]
                         method="exact enumeration (heads-up)")
    if shoe.infinite:
        bank, seats = _settle_states(_independent_states(profile, shoe), session, stakes)
        return BankRound(**common, distribution=bank, seats=seats, exact=True,  # type: ignore[arg-type]
                         method="seats independent given the bank's hand (infinite shoe)")
    try:
        sequences = _finite_sequences(profile, shoe, players, budget)
    except _TooLarge:
        bank, seats = _monte_carlo(profile, shoe, session, stakes, samples, seed)
        return BankRound(**common, distribution=bank, seats=seats, exact=False,  # type: ignore[arg-type]
                         method=f"{samples:,} Monte Carlo rounds, seed {seed} "
                                f"(exact enumeration exceeds {budget:,} hand transitions)",
                         samples=samples, seed=seed)
    bank, seats = _settle_sequences(sequences, session, stakes)
    return BankRound(**common, distribution=bank, seats=seats, exact=True,  # type: ignore[arg-type]
                     method="exact enumeration of the shoe's composition, hand by hand")


def _check_table(profile: Profile, players: int) -> None:
    rule = profile.bank_draw
    if rule is not None and rule.tableau is not None:
        raise TableError(
            f"profile {profile.key!r}: the bank's draw looks at the player's third card "
            f"(a tableau), which the rules define for one player only; use 1 player, not {players}")
    if profile.naturals_stop_draws:
        raise TableError(
            f"profile {profile.key!r}: a natural stops every draw, which the rules define "
            f"for one player hand only; use 1 player, not {players}")


# -- seat types against the bank's hand --------------------------------------------


def _seat_type(profile: Profile, pv: int, pcol: int, pf: int, bv: int, bcol: int,
               bf: int) -> SeatType:
    outcome = category(profile, pv, bv, pf, bf)[0]
    entry = pay_entry(profile, outcome, pcol, bcol)
    amount = entry.amount(profile)
    if entry in (Pay.COLON, Pay.COLON_NINE):
        return amount, True, pay_entry(profile, outcome, NO_COLON, bcol).amount(profile)
    return amount, False, amount


def _joint_types(profile: Profile, shoe: Shoe) -> dict[SeatType, int]:
    """Heads-up: the seat's settlement counted over every deal, by the engine."""
    deal, *_ = prepare(profile, shoe)
    by_hand: dict[tuple[int, int, int, int, int, int], int] = defaultdict(int)
    finals: dict[tuple[int, int, tuple[int, ...]], list[tuple[int, int, int]]] = {}
    for pv, bv, pcol, bcol, vc, weight in two_card_groups(profile, deal):
        leaves = finals.get((pv, bv, vc))
        if leaves is None:
            leaves = finals[pv, bv, vc] = [
                (pv if x is None else (pv + x) % 10, bv if y is None else (bv + y) % 10, count)
                for x, y, count in third_card_leaves(profile, pv, bv, vc, deal)]
        for pf, bf, count in leaves:
            by_hand[pv, pcol, pf, bv, bcol, bf] += weight * count
    out: dict[SeatType, int] = defaultdict(int)
    for key, count in by_hand.items():
        out[_seat_type(profile, *key)] += count
    return dict(out)


def _draws(profile: Profile, rule: Any, value: int) -> bool:
    return value not in profile.naturals and bool(rule.decide(value, None))


def _independent_states(profile: Profile, shoe: Shoe) -> list[tuple[int, dict[SeatType, int]]]:
    """Infinite shoe: bank hands (weight) with the seat's settlement counts given each."""
    counts = shoe.counts
    classes: dict[tuple[int, int], int] = defaultdict(int)
    for r1, c1 in enumerate(counts):
        for r2, c2 in enumerate(counts):
            classes[(POINTS[r1] + POINTS[r2]) % 10, colon_class(profile, r1, r2)] += c1 * c2
    vc = value_counts(counts)
    n = sum(vc)
    banks: dict[BankKey, int] = defaultdict(int)
    for (bv, bcol), w in classes.items():
        if _draws(profile, profile.bank_draw, bv):
            for y, c in enumerate(vc):
                banks[bv, bcol, (bv + y) % 10] += w * c
        else:
            banks[bv, bcol, bv] += w * n
    merged: dict[frozenset[tuple[SeatType, int]], int] = defaultdict(int)
    for (bv, bcol, bf), wb in banks.items():
        seat: dict[SeatType, int] = defaultdict(int)
        for (pv, pcol), w in classes.items():
            if _draws(profile, profile.player_draw, pv):
                for x, c in enumerate(vc):
                    seat[_seat_type(profile, pv, pcol, (pv + x) % 10, bv, bcol, bf)] += w * c
            else:
                seat[_seat_type(profile, pv, pcol, pv, bv, bcol, bf)] += w * n
        merged[frozenset(seat.items())] += wb
    return [(w, dict(key)) for key, w in merged.items()]


# -- settling a table: caps in seat order -----------------------------------------


def _scale(types: Iterable[SeatType], stakes: Sequence[Fraction], cap: Fraction | None) -> int:
    """The common denominator of every amount a seat can be settled with."""
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


def _settle_states(
    states: list[tuple[int, dict[SeatType, int]]], session: Session,
    stakes: Sequence[Fraction],
) -> tuple[dict[Fraction, Fraction], tuple[dict[Fraction, Fraction], ...]]:
    """Bank and seat distributions from bank states with independent seats."""
    n = len(stakes)
    scale = _scale({t for _, d in states for t in d}, stakes, session.round_cap)
    cap = None if session.round_cap is None else int(session.round_cap * scale)
    k = session.bonus_cap
    bank_counts: dict[int, int] = defaultdict(int)
    seat_counts: list[dict[Fraction, int]] = [defaultdict(int) for _ in range(n)]
    totals = {sum(d.values()) for _, d in states}
    assert len(totals) == 1, "every bank hand leaves the seats the same total weight"
    per_seat = totals.pop()
    for wb, dist in states:
        seats = [[(int(a * s * scale), bonus, int(fb * s * scale), w)
                  for (a, bonus, fb), w in dist.items()] for s in stakes]
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


# -- finite shoes: every hand dealt from the composition --------------------------


class _TooLarge(Exception):
    pass


def _canonical(counts: Sequence[int]) -> tuple[int, ...]:
    # The four 0-point ranks (10 J Q K) are interchangeable for every rule.
    return (*counts[:9], *sorted(counts[9:]))


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
    ids: dict[tuple[int, ...], int] = {}  # small ints stand for settlements: cheap to hash
    types: list[SeatType] = []

    def hands(counts: tuple[int, ...], rule: Any) -> Iterable[tuple[int, int, int, int,
                                                                     tuple[int, ...]]]:
        """(two-card value, Colon class, final value, weight, counts left) per hand."""
        nonlocal work
        c = list(counts)
        for r1 in range(13):
            if not c[r1]:
                continue
            w1 = c[r1]
            c[r1] -= 1
            for r2 in range(r1, 13):
                if not c[r2]:
                    continue
                w = w1 * c[r2] * (1 if r1 == r2 else 2)
                c[r2] -= 1
                v = (POINTS[r1] + POINTS[r2]) % 10
                col = colon_class(profile, r1, r2)
                if _draws(profile, rule, v):
                    work += 13
                    for r3 in range(13):
                        if c[r3]:
                            w3 = c[r3]
                            c[r3] -= 1
                            yield v, col, (v + POINTS[r3]) % 10, w * w3, _canonical(c)
                            c[r3] += 1
                else:
                    work += 1
                    yield v, col, v, w, _canonical(c)
                c[r2] += 1
            c[r1] += 1
            if work > budget:
                raise _TooLarge

    Layer = dict[tuple[tuple[int, ...], BankKey, tuple[int, ...]], int]
    layer: Layer = defaultdict(int)
    for bv, bcol, bf, w, left in hands(_canonical(list(shoe.counts)), profile.bank_draw):
        layer[left, (bv, bcol, bf), ()] += w
    if len(layer) * work > budget:  # the first seat alone would already exceed the budget
        raise _TooLarge
    for _ in range(players):
        new: Layer = defaultdict(int)
        for (counts, bank, done), w in layer.items():
            for pv, pcol, pf, w2, left in hands(counts, profile.player_draw):
                key = (pv, pcol, pf, *bank)
                t = ids.get(key)
                if t is None:
                    t = ids[key] = len(types)
                    types.append(_seat_type(profile, pv, pcol, pf, *bank))
                new[left, bank, (*done, t)] += w * w2
        layer = new
    by_ids: dict[tuple[int, ...], int] = defaultdict(int)
    for (counts, _, done), w in layer.items():
        left_n = sum(counts)
        by_ids[done] += w * math.perm(left_n, slots - (n0 - left_n))
    out: dict[tuple[SeatType, ...], int] = defaultdict(int)
    for done, w in by_ids.items():
        out[tuple(types[t] for t in done)] += w
    return dict(out), math.perm(n0, slots)


def _settle_sequences(
    found: tuple[dict[tuple[SeatType, ...], int], int], session: Session,
    stakes: Sequence[Fraction],
) -> tuple[dict[Fraction, Fraction], tuple[dict[Fraction, Fraction], ...]]:
    sequences, total = found
    scale = _scale({t for seq in sequences for t in seq}, stakes, session.round_cap)
    cap = None if session.round_cap is None else int(session.round_cap * scale)
    bank: dict[Fraction, Fraction] = defaultdict(Fraction)
    seats: list[dict[Fraction, Fraction]] = [defaultdict(Fraction) for _ in stakes]
    for seq, w in sequences.items():
        nets = [(int(a * s * scale), b, int(fb * s * scale)) for (a, b, fb), s in zip(seq, stakes,
                                                                                     strict=True)]
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
    seed: int,
) -> tuple[dict[Fraction, Fraction], tuple[dict[Fraction, Fraction], ...]]:
    """Seeded Monte Carlo of whole rounds (random.Random: reproducible, no numpy)."""
    rng = random.Random(seed)
    deck = [r for r, c in enumerate(shoe.counts) for _ in range(c)]
    players = len(stakes)
    cache: dict[tuple[int, ...], SeatType] = {}
    types: list[SeatType] = []
    tallies: dict[tuple[SeatType, ...], int] = defaultdict(int)

    def hand(cards: list[int], rule: Any) -> tuple[int, int, int]:
        v = (POINTS[cards[0]] + POINTS[cards[1]]) % 10
        f = (v + POINTS[cards[2]]) % 10 if _draws(profile, rule, v) else v
        return v, colon_class(profile, cards[0], cards[1]), f

    for _ in range(samples):
        cards = rng.sample(deck, 3 * (players + 1))
        bv, bcol, bf = hand(cards[:3], profile.bank_draw)
        types.clear()
        for i in range(players):
            pv, pcol, pf = hand(cards[3 + 3 * i: 6 + 3 * i], profile.player_draw)
            key = (pv, pcol, pf, bv, bcol, bf)
            t = cache.get(key)
            if t is None:
                t = cache[key] = _seat_type(profile, *key)
            types.append(t)
        tallies[tuple(types)] += 1
    return _settle_sequences((dict(tallies), samples), session, stakes)


# -- the session: a Markov chain over capital ---------------------------------------


def _lattice(dist: Mapping[Fraction, Fraction]) -> tuple[int, dict[int, Fraction]]:
    scale = 1
    for v in dist:
        scale = math.lcm(scale, v.denominator)
    return scale, {int(v * scale): p for v, p in dist.items() if p}


def _check_dist(dist: Mapping[Fraction, Fraction]) -> None:
    if not dist or any(p < 0 for p in dist.values()):
        raise ValueError("a round's distribution needs at least one net with probability >= 0")


def _check_capital(capital: Fraction | int, rounds: int) -> None:
    if capital < 0:
        raise ValueError(f"capital: {capital} is negative (give 0 or more units)")
    if isinstance(rounds, bool) or rounds < 1:
        raise ValueError(f"rounds: a session has at least 1 round, not {rounds}")


@dataclass(frozen=True)
class SessionRisk:
    """Ruin within ``rounds`` and the bank's result after them, from ``capital``.

    ``result`` maps the bank's total net after ``rounds`` rounds (sessions
    not ruined) to its probability; ``ruin`` is the probability of ruin
    within the session and ``ruin_by_round[r]`` within r + 1 rounds.
    Exact rationals when ``exact``, else floats within ``error_bound``.
    """

    capital: Fraction
    rounds: int
    ruin: Fraction | float
    ruin_by_round: tuple[Fraction | float, ...]
    result: Mapping[Fraction, Fraction | float]
    exact: bool
    error_bound: float

    def quantile(self, q: float) -> Fraction:
        """The bank's result after the session at quantile ``q`` (ruin counted as -capital).

        >>> walk = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
        >>> s = session_risk(walk, 0, 3)
        >>> s.quantile(0.5), s.quantile(0.9)
        (Fraction(0, 1), Fraction(3, 1))
        """
        acc = float(self.ruin)
        if q <= acc:
            return -self.capital
        for v, p in self.result.items():
            acc += float(p)
            if q <= acc:
                return v
        return max(self.result) if self.result else -self.capital

    @property
    def mean_result(self) -> float:
        """Expected result, a ruined bank counted as losing its whole capital."""
        kept = sum(float(v) * float(p) for v, p in self.result.items())
        return kept - float(self.ruin) * float(self.capital)


def session_risk(
    distribution: Mapping[Fraction, Fraction], capital: Fraction | int, rounds: int,
    *, exact: bool | None = None,
) -> SessionRisk:
    """Ruin probability within ``rounds`` rounds from ``capital``, and the result.

    Ruin (RULES.md section 6): the first round with capital + net < 0.
    ``exact`` None chooses rationals while states x nets x rounds stays
    under ``CHAIN_BUDGET``.

    A fair +-1 walk from capital 0 is ruined in the first round half the time:

    >>> walk = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    >>> s = session_risk(walk, 0, 3)
    >>> s.ruin, s.exact, s.result
    (Fraction(5, 8), True, {Fraction(1, 1): Fraction(1, 4), Fraction(3, 1): Fraction(1, 8)})
    """
    _check_dist(distribution)
    _check_capital(capital, rounds)
    capital = Fraction(capital)
    scale, steps = _lattice(distribution)
    start = math.floor(capital * scale)
    offset = capital * scale - start  # capital off the lattice keeps its fraction
    width = start + rounds * max(max(steps), 0) + 1
    if exact is None:
        exact = _small(width * len(steps) * rounds, steps, rounds)
    alive: Mapping[int, Fraction | float]
    if exact:
        ruin_list, alive = _forward_exact(steps, start, rounds)
    else:
        ruin_list, alive = _forward_float(steps, start, rounds)
    result: dict[Fraction, Fraction | float] = {}
    for c, p in alive.items():
        if p:
            result[Fraction(c, scale) + offset / scale - capital] = p
    result = {v: result[v] for v in sorted(result)}
    bound = 0.0 if exact else _bound(rounds, len(steps))
    return SessionRisk(capital, rounds, ruin_list[-1], tuple(ruin_list), result, exact, bound)


def _small(work: int, steps: Mapping[int, Fraction], rounds: int) -> bool:
    """Is the exact chain affordable: little work, and fractions of readable size?"""
    denom = 1
    for p in steps.values():
        denom = math.lcm(denom, p.denominator)
    return work <= CHAIN_BUDGET and len(str(denom)) * rounds <= CHAIN_DIGITS


def _bound(rounds: int, support: int) -> float:
    # Sums of products of non-negative floats: each round adds at most
    # (support + 1) roundings of relative size 2**-53 to every mass, and the
    # inputs are rounded once; probabilities are at most 1.
    return rounds * (support + 2) * 2.0**-53


def _forward_exact(steps: Mapping[int, Fraction], start: int,
                   rounds: int) -> tuple[list[Fraction | float], dict[int, Fraction]]:
    denom = 1
    for p in steps.values():
        denom = math.lcm(denom, p.denominator)
    ints = {v: int(p * denom) for v, p in steps.items()}
    alive = {start: 1}
    ruined = 0
    out: list[Fraction | float] = []
    for r in range(1, rounds + 1):
        new: dict[int, int] = defaultdict(int)
        ruined *= denom
        for c, m in alive.items():
            for v, a in ints.items():
                if c + v < 0:
                    ruined += m * a
                else:
                    new[c + v] += m * a
        alive = new
        out.append(Fraction(ruined, denom**r))
    total = denom**rounds
    return out, {c: Fraction(m, total) for c, m in alive.items()}


def _forward_float(steps: Mapping[int, Fraction], start: int,
                   rounds: int) -> tuple[list[Fraction | float], dict[int, float]]:
    import numpy as np

    lo, hi = min(steps), max(steps)
    pmf = np.zeros(hi - lo + 1)
    for v, p in steps.items():
        pmf[v - lo] = float(p)
    alive = np.zeros(start + 1)
    alive[start] = 1.0
    ruined = 0.0
    out: list[Fraction | float] = []
    for _ in range(rounds):
        new = np.convolve(alive, pmf)  # index j is capital j + lo
        cut = max(0, -lo)
        ruined += float(new[:cut].sum())
        alive = new[cut:] if lo < 0 else np.concatenate([np.zeros(lo), new])
        out.append(ruined)
    return out, {c: float(m) for c, m in enumerate(alive) if m > 0}


def ruin_by_capital(
    distribution: Mapping[Fraction, Fraction], rounds: int, max_capital: Fraction | int,
    *, exact: bool | None = None,
) -> tuple[list[Fraction], list[Fraction | float], bool, float]:
    """Ruin within ``rounds`` for every capital on the lattice up to ``max_capital``.

    One backward pass: V_r(c) = sum_v p_v [c + v < 0 or V_{r-1}(c + v)].
    Returns (capitals, ruin probabilities, exact, error bound).

    >>> walk = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    >>> caps, ruin, exact, _ = ruin_by_capital(walk, 3, 2)
    >>> [str(c) for c in caps], [str(p) for p in ruin]
    (['0', '1', '2'], ['5/8', '1/4', '1/8'])
    """
    _check_dist(distribution)
    _check_capital(max_capital, rounds)
    scale, steps = _lattice(distribution)
    top = math.floor(Fraction(max_capital) * scale)
    lo, hi = min(steps), max(steps)
    domain = top + rounds * max(hi, 0) + 1
    if exact is None:
        exact = _small(domain * len(steps) * rounds, steps, rounds)
    values: list[Fraction | float]
    if exact:
        denom = 1
        for p in steps.values():
            denom = math.lcm(denom, p.denominator)
        ints = {v: int(p * denom) for v, p in steps.items()}
        v_prev = [0] * domain
        one = 1
        for _ in range(rounds):
            cur = [0] * domain
            for c in range(domain):
                acc = 0
                for v, a in ints.items():
                    j = c + v
                    if j < 0:
                        acc += a * one
                    elif j < domain:
                        acc += a * v_prev[j]
                cur[c] = acc
            v_prev = cur
            one *= denom
        values = [Fraction(x, one) for x in v_prev[: top + 1]]
    else:
        import numpy as np

        pmf = np.zeros(hi - lo + 1)
        for v, p in steps.items():
            pmf[v - lo] = float(p)
        vec = np.zeros(domain)
        for _ in range(rounds):
            ext = np.concatenate([np.ones(max(0, -lo)), vec, np.zeros(max(0, hi))])
            if lo > 0:
                ext = ext[lo:]
            vec = np.correlate(ext, pmf, "valid")[:domain]
        values = [float(x) for x in vec[: top + 1]]
    capitals = [Fraction(c, scale) for c in range(top + 1)]
    return capitals, values, exact, 0.0 if exact else _bound(rounds, len(steps))


@dataclass(frozen=True)
class CapitalTarget:
    """The smallest capital whose ruin risk within ``rounds`` is at most ``target``."""

    target: Fraction
    rounds: int
    capital: Fraction
    ruin: Fraction | float
    exact: bool
    error_bound: float


def _check_target(target: Fraction | float) -> Fraction:
    t = Fraction(str(target)) if isinstance(target, float) else Fraction(target)
    if not 0 < t < 1:
        raise ValueError(f"target ruin {target} must be strictly between 0 and 1")
    return t


def capital_for_target(
    distribution: Mapping[Fraction, Fraction], rounds: int, target: Fraction | float,
    *, exact: bool | None = None,
) -> CapitalTarget:
    """The smallest capital (on the lattice of nets) with ruin within ``rounds`` <= ``target``.

    Ruin is impossible once the capital covers ``rounds`` worst rounds, so
    the search is bounded.

    >>> walk = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    >>> capital_for_target(walk, 3, Fraction(1, 4)).capital
    Fraction(1, 1)
    """
    t = _check_target(target)
    _check_dist(distribution)
    worst = max(Fraction(0), -min(Fraction(v) for v in distribution))
    top = worst * rounds
    capitals, ruin, was_exact, bound = ruin_by_capital(distribution, rounds, top, exact=exact)
    for c, p in zip(capitals, ruin, strict=True):
        if p <= (t if was_exact else float(t)):
            return CapitalTarget(t, rounds, c, p, was_exact, bound)
    return CapitalTarget(t, rounds, capitals[-1], ruin[-1], was_exact, bound)


def largest_stake(
    distribution: Mapping[Fraction, Fraction], capital: Fraction | int, rounds: int,
    target: Fraction | float, *, exact: bool | None = None,
) -> Fraction | None:
    """The largest factor on every stake keeping ruin within ``rounds`` <= ``target``.

    Scaling every stake by s is scaling the capital by 1/s, so the answer is
    capital / (smallest capital for the target at the given stakes); None when
    that capital is 0 (no stake can ruin the bank).

    >>> walk = {Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)}
    >>> largest_stake(walk, 10, 3, Fraction(1, 4))
    Fraction(10, 1)
    """
    _check_capital(capital, rounds)
    need = capital_for_target(distribution, rounds, target, exact=exact).capital
    return None if need == 0 else Fraction(capital) / need


# -- rotation ---------------------------------------------------------------------


@dataclass(frozen=True)
class PersonFigures:
    """One person's expected result and spread over a session."""

    person: int
    bank_rounds: int
    mean: Fraction
    variance: Fraction

    @property
    def sd(self) -> float:
        """Standard deviation of the person's result over the session."""
        return math.sqrt(self.variance)


def rotation_figures(round_: BankRound, rounds: int,
                     rotation: Rotation) -> tuple[PersonFigures, ...]:
    """Each of the N+1 persons' result over ``rounds`` rounds, fixed or rotating bank.

    Person 0 banks first.  ``fixed``: person 0 banks every round and person
    i sits in seat i.  ``rotate``: in round r (from 0) person p holds
    position (p - r) mod (N+1), position 0 being the bank and j seat j.
    Rounds are independent, so means and variances add.

    >>> from odds import BUILTIN
    >>> r = bank_round(BUILTIN["plain"], Shoe.infinite_shoe(), Session(players=2))
    >>> [p.bank_rounds for p in rotation_figures(r, 7, Rotation.ROTATE)]
    [3, 2, 2]
    """
    if rounds < 1:
        raise ValueError(f"rounds: a session has at least 1 round, not {rounds}")
    n = round_.players
    roles = [(round_.mean, round_.variance)] + [round_.seat_moments(i) for i in range(1, n + 1)]
    out = []
    for p in range(n + 1):
        mean = var = Fraction(0)
        banks = 0
        for r in range(rounds):
            pos = p if rotation is Rotation.FIXED else (p - r) % (n + 1)
            banks += pos == 0
            mean += roles[pos][0]
            var += roles[pos][1]
        out.append(PersonFigures(p, banks, mean, var))
    return tuple(out)


# -- reference rows -----------------------------------------------------------------


def bank_table_rows(
    profile: Profile, shoe: Shoe, *, loss: int = 5, rounds: int = 50,
    target: Fraction = Fraction(1, 100), samples: int = 20_000,
    progress: Callable[[int], None] | None = None,
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
    for n in range(1, 9):
        try:
            r = bank_round(profile, shoe, Session(players=n), samples=samples)
        except TableError:
            break
        cap = capital_for_target(r.distribution, rounds, target)
        out.append({
            "players": n, "mean": r.mean, "variance": r.variance, "exact": r.exact,
            "p_loss": r.p_loss_more_than(loss), "capital": cap.capital,
            "capital_exact": cap.exact and r.exact,
        })
        if progress is not None:
            progress(n)
    return out


# -- everything ``lucky9 bank`` shows -------------------------------------------------


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


def bank_study(
    profile: Profile, shoe: Shoe | None = None, session: Session | None = None, *,
    target_ruin: Fraction | float | str | None = None, samples: int = 20_000, seed: int = 1,
    loss_over: Fraction | int | str = 5,
) -> BankStudy:
    """The bank's round, ruin with capital and rounds, capital for a target, rotation.

    Session figures need ``session.rounds``; ruin needs ``session.capital``
    too; the capital for a target needs ``target_ruin``; the largest stake
    needs all three.

    >>> from odds import BUILTIN
    >>> s = bank_study(BUILTIN["standard"], Shoe.infinite_shoe(),
    ...                Session(players=2, capital=Fraction(10), rounds=5), target_ruin="0.01")
    >>> s.risk.exact, s.target.capital <= 10 * 5 * 2 * 3
    (True, True)
    """
    try:
        loss = Fraction(str(loss_over).strip())
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"loss over {loss_over!r} is not a number (write 5 or 5/2)") from None
    if loss < 0:
        raise ValueError(f"loss over {loss_over}: give 0 or more units")
    target = None
    if target_ruin is not None:
        if isinstance(target_ruin, str):
            try:
                target = Fraction(target_ruin.strip())
            except (ValueError, ZeroDivisionError):
                raise ValueError(f"target ruin {target_ruin!r} is not a number (write 0.01 or 1/100)"
                                 ) from None
        else:
            target = _check_target(target_ruin)
        target = _check_target(target)
    r = bank_round(profile, shoe, session, samples=samples, seed=seed)
    s = r.session
    if target is not None and s.rounds is None:
        raise ValueError("a target ruin needs the number of rounds of the session (rounds)")
    risk = cap = factor = None
    rot = other = None
    if s.rounds is not None:
        if s.capital is not None:
            risk = session_risk(r.distribution, s.capital, s.rounds)
        if target is not None:
            cap = capital_for_target(r.distribution, s.rounds, target)
            if s.capital is not None:
                factor = None if cap.capital == 0 else s.capital / cap.capital
        rot = rotation_figures(r, s.rounds, s.rotation)
        flip = Rotation.ROTATE if s.rotation is Rotation.FIXED else Rotation.FIXED
        other = rotation_figures(r, s.rounds, flip)
    return BankStudy(r, target, risk, cap, factor, rot, other, loss)
