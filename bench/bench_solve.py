"""Bench: exact heads-up equilibria of the family rules, and the table game.

Prints, for each shoe and information model, the time to count the game,
the time to solve it exactly (LP and best-response check), the LP size and
the value.  Targets (issue 6): 8 packs, cards, under 60 s; totals under 5 s.

    python bench/bench_solve.py            # 8 packs, both models; a table of 2
    python bench/bench_solve.py --all      # 1, 2, 4, 6, 8 packs and inf; tables 1-8
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from odds import BUILTIN, Shoe  # noqa: E402
from odds.game.game import build_game, chemin_de_fer  # noqa: E402
from odds.game.solve import solve_game  # noqa: E402
from odds.game.table import table_game  # noqa: E402
from odds.rules.text import decimal  # noqa: E402


def heads_up(shoe: Shoe, information: str) -> None:
    start = time.perf_counter()
    game = build_game(BUILTIN["family"], shoe, information)
    counted = time.perf_counter()
    eq = solve_game(game)
    solved = time.perf_counter()
    print(
        f"{shoe.label:>8}  {information:<6}  count {counted - start:6.2f} s  "
        f"solve+check {solved - counted:6.2f} s  total {solved - start:6.2f} s  "
        f"LP {eq.lp_rows} rows x {eq.lp_columns} cols, {eq.pivots} pivots  "
        f"value {decimal(eq.value)}  exploitability {eq.exploitability}"
    )


def table(players: int, shoe: Shoe, information: str = "totals") -> None:
    start = time.perf_counter()
    t = table_game(BUILTIN["family"], players, information, shoe)
    counted = time.perf_counter()
    eq = solve_game(t.game)
    bank, seat = t.bank_best_response(eq.player)
    _, best = t.player_best_response(eq.player, bank)
    took = time.perf_counter() - start
    print(
        f"table of {players}, {shoe.label}, {information}: bank best response to the "
        f"heads-up optimum ({len(bank)} sets): seat EV {decimal(seat)}; seat's best "
        f"response {decimal(best)}  (count {counted - start:.2f} s, total {took:.2f} s)"
    )


def main() -> None:
    everything = "--all" in sys.argv
    shoes = [Shoe.packs_of(8)]
    if everything:
        shoes = [Shoe.packs_of(d) for d in (1, 2, 4, 6, 8)] + [Shoe.infinite_shoe()]
    print("heads-up equilibrium, family profile (exact LP over the rationals)")
    for shoe in shoes:
        for information in ("cards", "totals"):
            heads_up(shoe, information)
    start = time.perf_counter()
    eq = solve_game(chemin_de_fer())
    print(
        f"chemin de fer (Kemeny-Snell): player draws on 5 with P = "
        f"{next(iter(eq.player.values()))}, value {eq.value} = {decimal(eq.value)}, "
        f"LP {eq.lp_rows} x {eq.lp_columns}, {time.perf_counter() - start:.2f} s"
    )
    table(2, Shoe.packs_of(8))
    if everything:
        for players in range(1, 9):
            table(players, Shoe.infinite_shoe())
        table(2, Shoe.packs_of(1))
        table(2, Shoe.packs_of(8), "cards")


if __name__ == "__main__":
    main()
