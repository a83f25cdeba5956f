"""Bench: chemin de fer models B2 and B3 at 8 packs; time and peak RSS, with a reference.

Each case runs in a fresh process (one core), which counts the game and
solves it; the process reports its wall time and its own peak RSS.  The
reference, measured in the same run on the same game, is the general exact
LP of ``lucky9 solve`` for the family rules (``odds.game.solve.solve_game``:
one variable per banker set, no set summed out).  Target: B2 and B3 at 8
packs, each under 10 s.

    python bench/bench_chemin.py            # 8 packs, B2 and B3, and the reference
    python bench/bench_chemin.py --all      # also 1, 2, 6 packs and with commission 1/20
"""

from __future__ import annotations

import multiprocessing
import resource
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from odds import BUILTIN, Shoe  # noqa: E402
from odds.game.chemin import chemin_game, solve_chemin  # noqa: E402
from odds.game.solve import solve_game  # noqa: E402
from odds.rules.text import decimal  # noqa: E402


def _case(decks: int, model: str, commission: Fraction, reference: bool, queue: object) -> None:
    start = time.perf_counter()
    game = chemin_game(BUILTIN["chemin-de-fer"], Shoe.packs_of(decks), model)
    counted = time.perf_counter()
    if reference:
        value = solve_game(game).value
    else:
        value = solve_chemin(game, commission, model).equilibria[0].player_payoff
    done = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    queue.put((counted - start, done - counted, done - start, peak, value))  # type: ignore[attr-defined]


def measure(decks: int, model: str, commission: Fraction = Fraction(0),
            reference: bool = False) -> tuple[float, float]:
    """Run one case in a fresh process; print it; return (total seconds, peak MB)."""
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    proc = ctx.Process(target=_case, args=(decks, model, commission, reference, queue))
    proc.start()
    count, solve, total, peak, value = queue.get()
    proc.join()
    what = "reference LP" if reference else (
        f"commission {commission}" if commission else "Foster/reduced")
    print(f"{decks:>2} packs  {model}  {what:<18} count {count:6.2f} s  solve {solve:6.2f} s  "
          f"total {total:6.2f} s  peak RSS {peak:6.0f} MB  player's EV {decimal(value)}")
    return total, peak


def main() -> None:
    print("chemin de fer, each case in a fresh process on one core")
    for model in ("B2", "B3"):
        t, m = measure(8, model)
        rt, rm = measure(8, model, reference=True)
        print(f"   {model} at 8 packs: {t:.2f} s ({'under' if t < 10 else 'OVER'} 10 s), "
              f"time ratio to the reference {t / rt:.2f}, peak RSS ratio {m / rm:.2f}")
    if "--all" in sys.argv:
        for decks in (1, 2, 6):
            for model in ("B2", "B3"):
                measure(decks, model)
        for model in ("B2", "B3"):
            measure(8, model, Fraction(1, 20))


if __name__ == "__main__":
    main()
