"""The exact zero-sum equilibrium of a heads-up game, certified by best responses.

The player moves first with private cards; the bank sees only its own
hand and what the player did (and, in chemin de fer, the player's third
card).  Each side moves once, so a behaviour strategy is one draw
probability per information set, and the player's EV is linear in the
player's probabilities for any fixed bank action.  The player's problem is

    maximise  sum over bank sets j of  min over bank actions d of  L_jd(r)

with ``L_jd`` affine in the player's draw probabilities ``r``: a linear
programme with one variable per player set, one per bank set and one row
per (bank set, bank action).  Its dual prices are the bank's optimal
(possibly mixed) strategy.  Every solution is checked by computing both
exact best responses: each must give exactly the game value.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from odds.game.game import STOOD_LABEL, BankSet, Game, Hand
from odds.game.lp import maximise

__all__ = ["Equilibrium", "solve_game"]


@dataclass(frozen=True, eq=False)
class Equilibrium:
    """A solved game: value (the player's EV), both optimal strategies, checks.

    ``player_response`` and ``bank_response`` are the EVs of each side's best
    response to the other's optimal strategy; ``exploitability`` is their
    difference, exactly 0 for a true equilibrium.
    """

    game: Game
    value: Fraction
    player: dict[Hand, Fraction]
    bank: dict[BankSet, Fraction]
    player_response: Fraction
    bank_response: Fraction
    lp_rows: int
    lp_columns: int
    pivots: int

    @property
    def exploitability(self) -> Fraction:
        """How much either side could gain by deviating (0 at an equilibrium)."""
        return self.player_response - self.bank_response


def solve_game(game: Game) -> Equilibrium:
    """Solve a heads-up game exactly and check the solution by best responses.

    >>> from odds import BUILTIN, Shoe
    >>> from odds.game.game import build_game
    >>> eq = solve_game(build_game(BUILTIN["family"], Shoe.infinite_shoe(), "totals"))
    >>> eq.exploitability, eq.value == eq.player_response == eq.bank_response
    (Fraction(0, 1), True)
    """
    players = list(game.player_choices)
    p_index = {h: i for i, h in enumerate(players)}
    banks = list(game.bank_sets)
    # L_jd(r) = const[j, d] + sum_i coef[j, d][i] r_i, numerators over game.total.
    const: dict[tuple[BankSet, bool], Fraction] = defaultdict(Fraction)
    coef: dict[tuple[BankSet, bool], dict[int, Fraction]] = defaultdict(
        lambda: defaultdict(Fraction)
    )
    for (ph, bh, seen, db), ev in game.ev_numerators().items():
        key = ((bh, seen), db)
        drew = seen != STOOD_LABEL
        forced = game.player_forced.get(ph)
        if forced is not None:
            if forced == drew:
                const[key] += ev
            continue
        i = p_index[ph]
        if drew:
            coef[key][i] += ev
        else:  # weight 1 - r_i
            const[key] += ev
            coef[key][i] -= ev
    # Scale by the common factor of the data, to keep the fractions small.
    scale = Fraction(0)
    for v in [*const.values(), *(c for row in coef.values() for c in row.values())]:
        if v:
            scale = Fraction(math.gcd(scale.numerator, v.numerator),
                             math.lcm(scale.denominator, v.denominator))
    scale = scale or Fraction(1)
    n_p, n_b = len(players), len(banks)
    a: list[list[Fraction]] = []
    b: list[Fraction] = []
    row_of: list[tuple[int, bool]] = []
    shift = Fraction(0)
    for j, where in enumerate(banks):
        forced_b = game.bank_forced.get(where)
        actions = (False, True) if forced_b is None else (forced_b,)
        # A lower bound on the bank set's part, less 1: the shifted variable
        # w_j = z_j - low stays >= 1, so its dual row holds with equality.
        low = min(
            (const[where, d] + sum(min(Fraction(0), c) for c in coef[where, d].values()))
            / scale
            for d in actions
        ) - 1
        shift += low
        for d in actions:
            row = [Fraction(0)] * (n_p + n_b)
            for i, c in coef[where, d].items():
                row[i] = -c / scale
            row[n_p + j] = Fraction(1)
            a.append(row)
            b.append(const[where, d] / scale - low)
            row_of.append((j, d))
    for i in range(n_p):
        row = [Fraction(0)] * (n_p + n_b)
        row[i] = Fraction(1)
        a.append(row)
        b.append(Fraction(1))
    objective = [Fraction(0)] * n_p + [Fraction(1)] * n_b
    result = maximise(objective, a, b)
    value = ((result.value + shift) * scale + game.settled_ev()) / game.total
    player = {h: result.x[p_index[h]] for h in players}
    mass: dict[int, list[Fraction]] = defaultdict(lambda: [Fraction(0), Fraction(0)])
    for (j, d), y in zip(row_of, result.y, strict=False):
        mass[j][d] += y
    bank = {}
    for j, where in enumerate(banks):
        if where in game.bank_forced:
            continue
        stand, draw = mass[j]
        bank[where] = draw / (stand + draw)
    _, player_response = game.player_best_response(bank)
    _, bank_response = game.bank_best_response(player)
    if not player_response == value == bank_response:
        raise ArithmeticError(
            f"the solution fails its check: LP value {value}, best responses "
            f"{player_response} (player) and {bank_response} (bank)"
        )
    return Equilibrium(
        game, value, player, bank, player_response, bank_response,
        len(a), len(objective), result.pivots,
    )
