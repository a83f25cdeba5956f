"""Chemin de fer as it is played: the banker sees the player's third card.

The player must draw on 0-4, must stand on 6-7 and chooses on 5; the banker
chooses after seeing his own hand and the player's face-up third card (or
that the player stood).  Published models (Kemeny and Snell; Downton and
Lockwood; Ethier and Gamez; Ethier and Lee) differ by how cards are dealt
and by what each side sees of its own two cards:

* ``A1``: with replacement (an infinite shoe), each side sees its total;
* ``B1``: without replacement, each side sees its total;
* ``B2``: without replacement, the banker sees his two cards, the player
  his total;
* ``B3``: without replacement, each side sees its two cards.

In every published model the banker may choose in every cell; without a
model, the profile's own rules apply (the ``chemin-de-fer`` profile: the
classic banker's table with its open cells, each side seeing its cards).

**Method.**  For a fixed player strategy the banker's payoff is a sum over
his information sets, each depending on his action there only, so his best
response is found set by set.  With one player choice (total 5, models A1,
B1, B2) the player's guaranteed EV is ``f(p) = sum_j min_d L_jd(p)``, a
concave, piecewise linear function of his draw probability ``p`` on 5
with at most one corner per banker set: sweeping the corners in order
finds its maximum exactly (Foster's algorithm).  With one choice per
composition of 5 (B3) the sets whose best action is the same over the
whole cube of player strategies are summed out first; the few left form a
small exact linear programme.  Every solution is checked by computing
both sides' exact best responses.

**Commission.**  With ``alpha`` taken from the banker's wins the game is
no longer zero-sum (a bimatrix game).  With one player choice every Nash
equilibrium is found by walking the corners of the banker's best response
(Foster's algorithm generalised); with several, one equilibrium is found
among the strategies that mix on at most one composition, and checked.

One piece on purpose (about 700 lines): the models, the payoff forms and the
solvers that read them (zero-sum, bimatrix, one decision) are one method;
split, each part would need the others' private forms to be read.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from odds.game.game import STOOD_LABEL, BankSet, Game, GameError, Hand, build_game
from odds.game.lp import maximise
from odds.rules.cards import Card
from odds.rules.numbers import parse_number
from odds.rules.profile import Profile
from odds.rules.profiles import as_profile
from odds.rules.settle import plain_amounts
from odds.rules.shoe import Shoe, as_shoe

__all__ = [
    "MAX_COMMISSION",
    "MODELS",
    "ChemEquilibrium",
    "ChemSolution",
    "chemin_game",
    "parse_commission",
    "solve_chemin",
]

# model -> (dealt with replacement, what the player sees, what the banker sees)
MODELS: dict[str, tuple[bool, str, str]] = {
    "A1": (True, "totals", "totals"),
    "B1": (False, "totals", "totals"),
    "B2": (False, "totals", "cards"),
    "B3": (False, "cards", "cards"),
}
MODEL_WORDS = {
    "A1": "dealt with replacement, each side sees its total",
    "B1": "dealt without replacement, each side sees its total",
    "B2": "dealt without replacement, the banker sees his two cards, the player his total",
    "B3": "dealt without replacement, each side sees its two cards",
}
MAX_COMMISSION = Fraction(1, 10)
_SEES = {"total": "totals", "cards": "cards", None: "cards"}


def parse_commission(raw: str | Fraction | int) -> Fraction:
    """The banker's commission as an exact fraction from 0 to 1/10.

    >>> parse_commission("1/20"), parse_commission("0.05"), parse_commission("5%")
    (Fraction(1, 20), Fraction(1, 20), Fraction(1, 20))
    >>> parse_commission("1/5")
    Traceback (most recent call last):
    ...
    odds.game.errors.GameError: commission 1/5 is outside 0 to 1/10 (write 1/20 or 0.05 for 5%)
    """
    try:
        value = parse_number(raw, "commission", percent=True, hint="write 1/20, 0.05 or 5%")
    except ValueError as exc:
        raise GameError(str(exc)) from None
    if not 0 <= value <= MAX_COMMISSION:
        raise GameError(f"commission {value} is outside 0 to 1/10 (write 1/20 or 0.05 for 5%)")
    return value


def chemin_game(
    profile: Profile | str,
    shoe: Shoe | int | str | None,
    model: str | None = None,
    *,
    player_cards: tuple[Card, ...] = (),
    bank_cards: tuple[Card, ...] = (),
) -> Game:
    """The chemin de fer round as a game, under a published model or the profile's rules.

    >>> from odds import BUILTIN
    >>> g = chemin_game(BUILTIN["chemin-de-fer"], Shoe.infinite_shoe(), "A1")
    >>> [h for h in g.player_choices], len(g.bank_choices)
    ([(5,)], 88)
    >>> chemin_game(BUILTIN["family"], Shoe.infinite_shoe(), "A1")
    Traceback (most recent call last):
    ...
    odds.game.errors.GameError: model A1 is chemin de fer: it needs rules where ... face down)
    """
    profile = as_profile(profile)
    shoe = as_shoe(shoe, profile.decks)
    rule = profile.player_draw
    sees = profile.bank_sees_third
    if sees is None:
        sees = profile.bank_draw is not None and profile.bank_draw.tableau is not None
    if model is None:
        if rule is None or not rule.choose or not sees:
            raise GameError(
                f"profile {profile.key!r} is not chemin de fer: the player must choose on "
                "some totals only and the banker must see his third card (use "
                "--profile chemin-de-fer, or lucky9 solve without --model for the family game)")
        return build_game(profile, shoe, _SEES[profile.player_sees],
                          bank_information=_SEES[profile.bank_sees], bank_sees_third=True,
                          player_cards=player_cards, bank_cards=bank_cards)
    key = model.strip().upper()
    if key not in MODELS:
        raise GameError(f"{model[:20]!r} is not a model (use one of {', '.join(MODELS)})")
    if rule is None or not rule.choose or not sees:
        why = ("lets the player choose on every total" if rule is None
               else "gives the player no choice" if not rule.choose else "")
        hidden = "" if sees else "keeps the third card face down"
        raise GameError(
            f"model {key} is chemin de fer: it needs rules where the player chooses on "
            f"some totals only and the banker sees his third card (profile {profile.key!r} "
            f"{' and '.join(w for w in (why, hidden) if w)})")
    with_replacement, p_info, b_info = MODELS[key]
    if with_replacement and not shoe.infinite:
        raise GameError(f"model {key} deals with replacement: use --decks inf "
                        "(or model B1 for the same information without replacement)")
    # The published models leave the banker free in every cell.
    free = replace(profile, bank_draw=None, bank_sees_third=True)
    return build_game(free, shoe, p_info, bank_information=b_info, bank_sees_third=True,
                      player_cards=player_cards, bank_cards=bank_cards)


# -- linear forms: each (bank set, bank action) is affine in the player's choices --

Affine = tuple[Fraction, dict[int, Fraction]]  # constant, coefficient per player choice


@dataclass(frozen=True)
class _Forms:
    """Both sides' payoff numerators as affine functions of the player's draw probabilities."""

    choices: tuple[Hand, ...]
    sets: tuple[BankSet, ...]  # every bank set
    player: dict[tuple[BankSet, bool], Affine]  # the player's EV numerator
    bank: dict[tuple[BankSet, bool], Affine]  # the banker's, after commission
    settled_player: Fraction
    settled_bank: Fraction


def _forms(game: Game, commission: Fraction) -> _Forms:
    # The cells hold integer counts: each side's numerator is summed as an integer over a
    # common denominator (one Fraction a form at the end, not one per cell).
    choices = game.player_choices
    index = {h: i for i, h in enumerate(choices)}
    keep = 1 - commission
    amounts = plain_amounts(game.profile)
    # The seat's amounts, seen from the bank: commission on what the bank wins.
    bank_amounts = tuple(-a * (keep if a < 0 else 1) for a in amounts)
    p_den = math.lcm(*(a.denominator for a in amounts))
    b_den = math.lcm(*(a.denominator for a in bank_amounts))
    p_num = tuple(int(a * p_den) for a in amounts)
    b_num = tuple(int(a * b_den) for a in bank_amounts)
    p_const: dict[tuple[BankSet, bool], int] = defaultdict(int)
    b_const: dict[tuple[BankSet, bool], int] = defaultdict(int)
    p_coef: dict[tuple[BankSet, bool], dict[int, int]] = defaultdict(lambda: defaultdict(int))
    b_coef: dict[tuple[BankSet, bool], dict[int, int]] = defaultdict(lambda: defaultdict(int))

    def value(counts: Sequence[int], num: tuple[int, ...]) -> int:
        return counts[0] * num[0] + counts[1] * num[1] + counts[2] * num[2]

    for (ph, bh, seen, db), counts in game.cells.items():
        key = ((bh, seen), db)
        pv = value(counts, p_num)
        bv = value(counts, b_num)
        drew = seen != STOOD_LABEL
        forced = game.player_forced.get(ph)
        if forced is not None:
            if forced == drew:
                p_const[key] += pv
                b_const[key] += bv
            continue
        i = index[ph]
        if drew:
            p_coef[key][i] += pv
            b_coef[key][i] += bv
        else:
            p_const[key] += pv
            b_const[key] += bv
            p_coef[key][i] -= pv
            b_coef[key][i] -= bv
    keys = {(s, d) for s in game.bank_sets for d in (False, True)}

    def form(const: dict[tuple[BankSet, bool], int], coef: dict[tuple[BankSet, bool], dict[int, int]],
             den: int, k: tuple[BankSet, bool]) -> Affine:
        return Fraction(const[k], den), {i: Fraction(c, den) for i, c in coef[k].items()}

    return _Forms(
        choices, game.bank_sets,
        {k: form(p_const, p_coef, p_den, k) for k in keys},
        {k: form(b_const, b_coef, b_den, k) for k in keys},
        Fraction(value(game.settled, p_num), p_den), Fraction(value(game.settled, b_num), b_den),
    )


def _at(form: Affine, r: Mapping[int, Fraction]) -> Fraction:
    const, coef = form
    return const + sum((c * r[i] for i, c in coef.items()), Fraction(0))


def _slope(form: Affine, i: int = 0) -> Fraction:
    return form[1].get(i, Fraction(0))


# -- results ---------------------------------------------------------------------


@dataclass(frozen=True)
class ChemEquilibrium:
    """One equilibrium: both strategies, both payoffs, and the exact checks.

    ``player`` maps each player choice set to P(draw) (for an interval of
    equilibria, its lower end, with ``player_upper`` the upper end); ``bank``
    maps each bank set where the banker chooses to P(draw).  Payoffs are per
    unit staked, the banker's after commission.  ``free_cells`` counts bank
    sets where the banker is indifferent and any mix is an equilibrium too.
    """

    player: dict[Hand, Fraction]
    bank: dict[BankSet, Fraction]
    player_payoff: Fraction
    bank_payoff: Fraction
    player_response: Fraction
    bank_response: Fraction
    player_upper: Fraction | None = None
    free_cells: int = 0


@dataclass(frozen=True, eq=False)
class ChemSolution:
    """A solved chemin de fer game.

    ``equilibria`` holds every Nash equilibrium when ``complete`` (one
    player choice), else one.  With no commission the game is zero-sum and
    ``value`` is the player's EV at the (first) equilibrium.
    """

    game: Game
    model: str | None
    commission: Fraction
    equilibria: tuple[ChemEquilibrium, ...]
    complete: bool
    method: str

    @property
    def value(self) -> Fraction:
        """The player's EV per unit at the first equilibrium (the game's value when zero-sum)."""
        return self.equilibria[0].player_payoff


def _bank_payoffs(forms: _Forms, game: Game, player: Mapping[Hand, Fraction],
                  bank: Mapping[BankSet, Fraction]) -> tuple[Fraction, Fraction]:
    r = {i: player[h] for i, h in enumerate(forms.choices)}
    p_sum, b_sum = forms.settled_player, forms.settled_bank
    for s in forms.sets:
        q = game.bank_prob(bank, s)
        for d, weight in ((False, 1 - q), (True, q)):
            if weight:
                p_sum += weight * _at(forms.player[s, d], r)
                b_sum += weight * _at(forms.bank[s, d], r)
    return p_sum / game.total, b_sum / game.total


def _responses(forms: _Forms, game: Game, player: Mapping[Hand, Fraction],
               bank: Mapping[BankSet, Fraction]) -> tuple[Fraction, Fraction]:
    """The best EV each side can get against the other's strategy (exact)."""
    # The player's: each of his choice sets alone (he moves once), from r = 0.
    gain: dict[int, Fraction] = defaultdict(Fraction)
    base = forms.settled_player
    for s in forms.sets:
        q = game.bank_prob(bank, s)
        for d, weight in ((False, 1 - q), (True, q)):
            if weight:
                const, coef = forms.player[s, d]
                base += weight * const
                for i, c in coef.items():
                    gain[i] += weight * c
    player_best = base + sum((max(Fraction(0), g) for g in gain.values()), Fraction(0))
    r = {i: player[h] for i, h in enumerate(forms.choices)}
    bank_best = forms.settled_bank
    for s in forms.sets:
        values = {d: _at(forms.bank[s, d], r) for d in (False, True)}
        forced = game.bank_forced.get(s)
        bank_best += values[forced] if forced is not None else max(values.values())
    return player_best / game.total, bank_best / game.total


def _equilibrium(forms: _Forms, game: Game, player: dict[Hand, Fraction],
                 bank: dict[BankSet, Fraction], upper: Fraction | None = None,
                 free: int = 0) -> ChemEquilibrium:
    pp, bp = _bank_payoffs(forms, game, player, bank)
    pr, br = _responses(forms, game, player, bank)
    if pr != pp or br != bp:
        raise ArithmeticError(
            f"the equilibrium fails its check: payoffs {pp}, {bp}; best responses {pr}, {br}")
    return ChemEquilibrium(player, bank, pp, bp, pr, br, upper, free)


# -- zero-sum: Foster's sweep (one choice), reduced LP (several) ------------------


def _foster_zero_sum(forms: _Forms, game: Game) -> ChemEquilibrium:
    """Maximise f(p) = sum_j min_d L_jd(p) over p in [0, 1] by sweeping its corners."""
    slope0 = Fraction(0)
    corners: list[tuple[Fraction, Fraction, BankSet]] = []  # (p, slope change, set)
    for s in forms.sets:
        forced = game.bank_forced.get(s)
        if forced is not None:
            slope0 += _slope(forms.player[s, forced])
            continue
        (a0, _), (a1, _) = forms.player[s, False], forms.player[s, True]
        s0, s1 = _slope(forms.player[s, False]), _slope(forms.player[s, True])
        # The line lower just right of 0 is active first.
        low, high = ((s0, s1) if (a0, s0) <= (a1, s1) else (s1, s0))
        slope0 += low
        if s0 != s1:
            t = (a1 - a0) / (s0 - s1)  # where the lines cross
            if 0 < t < 1 and high < low:
                corners.append((t, high - low, s))
    changes: dict[Fraction, Fraction] = defaultdict(Fraction)
    for t, change, _ in corners:
        changes[t] += change
    slope = slope0
    p = Fraction(0) if slope <= 0 else Fraction(1)
    if slope > 0:
        for t in sorted(changes):
            slope += changes[t]
            if slope <= 0:
                p = t
                break
    r = {0: p}
    bank: dict[BankSet, Fraction] = {}
    tied: list[BankSet] = []
    fixed_slope = Fraction(0)
    for s in forms.sets:
        forced = game.bank_forced.get(s)
        if forced is not None:
            fixed_slope += _slope(forms.player[s, forced])
            continue
        v0, v1 = _at(forms.player[s, False], r), _at(forms.player[s, True], r)
        s0, s1 = _slope(forms.player[s, False]), _slope(forms.player[s, True])
        if v0 == v1 and s0 != s1:
            tied.append(s)
            continue
        if v0 == v1:  # the same line: either action
            d = False
        else:
            d = v1 < v0
        bank[s] = Fraction(int(d))
        fixed_slope += s1 if d else s0
    # At a corner the banker mixes where he is indifferent so that the
    # player's slope is 0 (interior p), <= 0 at p = 0, >= 0 at p = 1.
    need = -fixed_slope - sum((_slope(forms.player[s, False]) for s in tied), Fraction(0))
    for s in tied:
        s0, s1 = _slope(forms.player[s, False]), _slope(forms.player[s, True])
        span = s1 - s0
        if p == 0:
            q = Fraction(int(s1 < s0))
        elif p == 1:
            q = Fraction(int(s1 > s0))
        else:
            q = min(Fraction(1), max(Fraction(0), need / span)) if span else Fraction(0)
            need -= q * span
        bank[s] = q
    player = {forms.choices[0]: p}
    # Other splits of the mix among the tied sets are optimal too (with
    # replacement, the compositions of one total): say so, as the bimatrix search does.
    return _equilibrium(forms, game, player, bank, free=max(0, len(tied) - 1))


def _reduced_lp(forms: _Forms, game: Game) -> ChemEquilibrium:
    """Zero-sum with several player choices: sum out sets decided over the whole cube."""
    n = len(forms.choices)
    const = forms.settled_player
    lin: dict[int, Fraction] = defaultdict(Fraction)
    open_sets: list[BankSet] = []
    decided: dict[BankSet, bool] = {}
    for s in forms.sets:
        forced = game.bank_forced.get(s)
        if forced is None:
            e0 = forms.player[s, True][0] - forms.player[s, False][0]
            e: dict[int, Fraction] = defaultdict(Fraction)
            for d, sign in ((True, 1), (False, -1)):
                for i, c in forms.player[s, d][1].items():
                    e[i] += sign * c
            low = e0 + sum((min(Fraction(0), c) for c in e.values()), Fraction(0))
            high = e0 + sum((max(Fraction(0), c) for c in e.values()), Fraction(0))
            if low <= 0 <= high and low < high:
                open_sets.append(s)
                continue
            forced = high <= 0 and low < 0  # drawing never costs the banker more
            decided[s] = forced
        c0, coef = forms.player[s, forced]
        const += c0
        for i, c in coef.items():
            lin[i] += c
    # maximise lin.r + sum_j z_j, z_j <= L_jd(r), r <= 1; z_j shifted to stay >= 0.
    m = len(open_sets)
    rows: list[list[Fraction]] = []
    rhs: list[Fraction] = []
    where: list[tuple[int, bool]] = []
    shift = Fraction(0)
    for j, s in enumerate(open_sets):
        low = min(forms.player[s, d][0] + sum((min(Fraction(0), c)
                                               for c in forms.player[s, d][1].values()),
                                              Fraction(0)) for d in (False, True)) - 1
        shift += low
        for d in (False, True):
            c0, coef = forms.player[s, d]
            row = [Fraction(0)] * (n + m)
            for i, c in coef.items():
                row[i] = -c
            row[n + j] = Fraction(1)
            rows.append(row)
            rhs.append(c0 - low)
            where.append((j, d))
    for i in range(n):
        row = [Fraction(0)] * (n + m)
        row[i] = Fraction(1)
        rows.append(row)
        rhs.append(Fraction(1))
    objective = [lin[i] for i in range(n)] + [Fraction(1)] * m
    scale = max((abs(v) for row in rows for v in row), default=Fraction(1)) or Fraction(1)
    result = maximise([c / scale for c in objective], [[v / scale for v in row] for row in rows],
                      [v / scale for v in rhs])
    player = {h: result.x[i] for i, h in enumerate(forms.choices)}
    mass: dict[int, list[Fraction]] = defaultdict(lambda: [Fraction(0), Fraction(0)])
    for (j, d), y in zip(where, result.y, strict=False):
        mass[j][d] += y
    bank: dict[BankSet, Fraction] = {s: Fraction(int(d)) for s, d in decided.items()}
    for j, s in enumerate(open_sets):
        stand, draw = mass[j]
        if stand + draw:
            bank[s] = draw / (stand + draw)
        else:  # no price: the banker's best reply to the player's optimum
            r = {i: player[h] for i, h in enumerate(forms.choices)}
            bank[s] = Fraction(int(_at(forms.player[s, True], r) < _at(forms.player[s, False], r)))
    return _equilibrium(forms, game, player, bank)


# -- commission: a bimatrix game ----------------------------------------------------


def _bank_reply(forms: _Forms, game: Game, r: Mapping[int, Fraction]
                ) -> tuple[dict[BankSet, Fraction], list[BankSet]]:
    """The banker's best reply at r (pure), and the sets where he is indifferent."""
    bank: dict[BankSet, Fraction] = {}
    tied: list[BankSet] = []
    for s in forms.sets:
        if s in game.bank_forced:
            continue
        v0, v1 = _at(forms.bank[s, False], r), _at(forms.bank[s, True], r)
        if v0 == v1:
            tied.append(s)
            bank[s] = Fraction(0)
        else:
            bank[s] = Fraction(int(v1 > v0))
    return bank, tied


def _player_slopes(forms: _Forms, game: Game, bank: Mapping[BankSet, Fraction]
                   ) -> list[Fraction]:
    slopes = [Fraction(0)] * len(forms.choices)
    for s in forms.sets:
        q = game.bank_prob(bank, s)
        for d, weight in ((False, 1 - q), (True, q)):
            if weight:
                for i, c in forms.player[s, d][1].items():
                    slopes[i] += weight * c
    return slopes


def _nash_one_choice(forms: _Forms, game: Game) -> list[ChemEquilibrium]:
    """Every Nash equilibrium with one player choice: corners and ends of [0, 1]."""
    h = forms.choices[0]
    corners: set[Fraction] = set()
    for s in forms.sets:
        if s in game.bank_forced:
            continue
        (b0, _), (b1, _) = forms.bank[s, False], forms.bank[s, True]
        s0, s1 = _slope(forms.bank[s, False]), _slope(forms.bank[s, True])
        if s0 != s1:
            t = (b1 - b0) / (s0 - s1)
            if 0 < t < 1:
                corners.add(t)
    found: list[ChemEquilibrium] = []
    points = sorted(corners | {Fraction(0), Fraction(1)})
    for p in points:
        bank, tied = _bank_reply(forms, game, {0: p})
        slope = _player_slopes(forms, game, bank)[0]
        spans = [(s, _slope(forms.player[s, True]) - _slope(forms.player[s, False])) for s in tied]
        lowest = slope + sum((min(Fraction(0), d) for _, d in spans), Fraction(0))
        highest = slope + sum((max(Fraction(0), d) for _, d in spans), Fraction(0))
        if p == 0 and lowest <= 0:
            for s, d in spans:
                bank[s] = Fraction(int(d < 0))
        elif p == 1 and highest >= 0:
            for s, d in spans:
                bank[s] = Fraction(int(d > 0))
        elif 0 < p < 1 and lowest <= 0 <= highest:
            need = -slope
            for s, d in spans:
                q = min(Fraction(1), max(Fraction(0), need / d)) if d else Fraction(0)
                bank[s] = q
                need -= q * d
        else:
            continue
        found.append(_equilibrium(forms, game, {h: p}, bank, free=max(0, len(spans) - 1)))
    # Between corners the banker's reply is fixed and pure: an interval of
    # equilibria only where the player's slope is exactly 0 there.
    for lo, hi in zip(points, points[1:], strict=False):
        mid = (lo + hi) / 2
        bank, tied = _bank_reply(forms, game, {0: mid})
        if not tied and _player_slopes(forms, game, bank)[0] == 0:
            found.append(_equilibrium(forms, game, {h: lo}, bank, upper=hi))
    found.sort(key=lambda e: e.player[h])
    return found


def _nash_several(forms: _Forms, game: Game, hint: Mapping[Hand, Fraction]) -> ChemEquilibrium:
    """One Nash equilibrium when the player has several choices (mixing on at most one).

    ``hint`` (the zero-sum solution) orders the search: its pure choices and
    its mixed composition are tried first.
    """
    n = len(forms.choices)
    import itertools

    guess = [hint[h] for h in forms.choices]

    def consistent(r: Mapping[int, Fraction], slopes: list[Fraction], mixed: int | None) -> bool:
        return all(
            (slopes[i] == 0) if i == mixed else (slopes[i] >= 0 if r[i] == 1 else slopes[i] <= 0)
            for i in range(n))

    def strategies(r: Mapping[int, Fraction]) -> dict[Hand, Fraction]:
        return {h: r[i] for i, h in enumerate(forms.choices)}

    def order(items: list[int]) -> list[tuple[Fraction, ...]]:
        combos = list(itertools.product((Fraction(1), Fraction(0)), repeat=len(items)))
        return sorted(combos, key=lambda c: sum(abs(v - guess[i]) for i, v in zip(items, c,
                                                                                  strict=True)))

    for pure in order(list(range(n))):
        r = dict(enumerate(pure))
        bank, tied = _bank_reply(forms, game, r)
        if not tied and consistent(r, _player_slopes(forms, game, bank), None):
            return _equilibrium(forms, game, strategies(r), bank)
    for mixed in sorted(range(n), key=lambda i: guess[i] in (0, 1)):
        others = [i for i in range(n) if i != mixed]
        for pure in order(others):
            r = dict(zip(others, pure, strict=True))
            corners = set()
            for s in forms.sets:
                if s in game.bank_forced:
                    continue
                e0 = _at(forms.bank[s, True], {**r, mixed: Fraction(0)}) - _at(
                    forms.bank[s, False], {**r, mixed: Fraction(0)})
                e1 = _slope(forms.bank[s, True], mixed) - _slope(forms.bank[s, False], mixed)
                if e1 and 0 < -e0 / e1 < 1:
                    corners.add(-e0 / e1)
            for t in sorted(corners):
                rr = {**r, mixed: t}
                bank, tied = _bank_reply(forms, game, rr)
                if len(tied) != 1:
                    continue
                s = tied[0]
                base = _player_slopes(forms, game, bank)
                d = [_slope(forms.player[s, True], i) - _slope(forms.player[s, False], i)
                     for i in range(n)]
                if not d[mixed]:
                    continue
                q = -base[mixed] / d[mixed]
                if not 0 <= q <= 1:
                    continue
                bank[s] = q
                slopes = [base[i] + q * d[i] for i in range(n)]
                if consistent(rr, slopes, mixed):
                    return _equilibrium(forms, game, strategies(rr), bank)
    raise GameError(
        "no Nash equilibrium mixing on at most one composition was found for this shoe "
        "(the search covers those only): try model B2, or no commission; on the infinite "
        "shoe B3 is A1, so try model A1")


def solve_chemin(game: Game, commission: Fraction | int = 0, model: str | None = None
                 ) -> ChemSolution:
    """Solve a chemin de fer game exactly (zero-sum, or bimatrix with a commission).

    >>> from odds import BUILTIN
    >>> s = solve_chemin(chemin_game(BUILTIN["chemin-de-fer"], Shoe.infinite_shoe(), "A1"))
    >>> s.equilibria[0].player, s.value
    ({(5,): Fraction(9, 11)}, Fraction(-679568, 53094899))
    """
    commission = Fraction(commission)
    if not 0 <= commission <= MAX_COMMISSION:
        raise GameError(f"commission {commission} is outside 0 to 1/10")
    if not game.player_choices:
        raise GameError("the player has no choice under these rules: nothing to solve")
    forms = _forms(game, commission)
    one = len(game.player_choices) == 1
    if commission == 0:
        eq = _foster_zero_sum(forms, game) if one else _reduced_lp(forms, game)
        method = "Foster's sweep" if one else "reduced exact LP"
        return ChemSolution(game, model, commission, (eq,), one, method)
    if one:
        found = _nash_one_choice(forms, game)
        if not found:  # pragma: no cover - a finite game always has one
            raise ArithmeticError("no Nash equilibrium found")
        return ChemSolution(game, model, commission, tuple(found), True,
                            "Foster's algorithm for bimatrix games")
    hint = _reduced_lp(_forms(game, Fraction(0)), game).player
    return ChemSolution(game, model, commission, (_nash_several(forms, game, hint),), False,
                        "search over strategies mixing on at most one composition")


# -- one decision: draw or stand? --------------------------------------------------------
