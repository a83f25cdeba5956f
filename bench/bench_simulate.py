"""Speed of the reference simulator and of ``verify`` on a large round log.

Prints player-rounds per second for ``standard``, heads-up, a fresh shoe each
round (the issue-5 target is at least 2 million on one core), a few other
set-ups for context, and the time ``verify`` takes on a 10^6-row round log
(target: under 10 s).  Run: ``python bench/bench_simulate.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from odds import BUILTIN, Shoe
from odds.sim.simulate import simulate
from odds.sim.verify import verify_file


def rate(profile: str, shoe: Shoe, rounds: int, seats: int = 1, reshuffle: str = "round",
         repeat: int = 3) -> float:
    """Best of ``repeat`` runs, in player-rounds per second."""
    best = float("inf")
    for seed in range(repeat):
        start = time.perf_counter()
        simulate(BUILTIN[profile], shoe, rounds, seats=seats, seed=seed, reshuffle=reshuffle)
        best = min(best, time.perf_counter() - start)
    return rounds * seats / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2_000_000)
    parser.add_argument("--log-rows", type=int, default=1_000_000)
    args = parser.parse_args()
    n = args.rounds
    print(f"simulate, {n:,} rounds, best of 3 (player-rounds per second)")
    cases = [
        ("standard", "1 pack", Shoe.packs_of(1), 1, "round"),
        ("standard", "8 packs", Shoe.packs_of(8), 1, "round"),
        ("standard", "inf", Shoe.infinite_shoe(), 1, "round"),
        ("punto-banco", "8 packs", Shoe.packs_of(8), 1, "round"),
        ("standard", "1 pack", Shoe.packs_of(1), 8, "round"),
        ("standard", "8 packs", Shoe.packs_of(8), 1, "cut"),
        ("punto-banco", "8 packs", Shoe.packs_of(8), 1, "cut"),
    ]
    for profile, label, shoe, seats, reshuffle in cases:
        per_second = rate(profile, shoe, n // seats, seats, reshuffle)
        print(f"  {profile:<12} {label:<8} seats {seats}  reshuffle {reshuffle:<5} "
              f"{per_second / 1e6:6.2f} M/s")
    for packs in (1, 8):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "log.csv")
            start = time.perf_counter()
            simulate(BUILTIN["standard"], Shoe.packs_of(packs), args.log_rows, seed=1, log=path)
            written = time.perf_counter() - start
            size = os.path.getsize(path)
            start = time.perf_counter()
            result = verify_file(path)
            checked = time.perf_counter() - start
        print(f"round log, standard, {packs} pack{'s' if packs > 1 else ''}, "
              f"{args.log_rows:,} rows ({size / 1e6:.0f} MB): simulated and written in "
              f"{written:.1f} s; verify (read, audit, tests; verdict {result.verdict}) "
              f"{checked:.1f} s")

if __name__ == "__main__":
    main()
