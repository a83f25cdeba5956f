"""Every bet through the shoe: the batch engine's bet columns against the enumerator; prints figures.

Targets: all of ez-baccarat's bets at once (player, ez-banker, tie, dragon-7,
panda-8) at 5,000 compositions a second or more, and at least 100x
:func:`odds.exact.bets.bet_odds` on the same compositions (the reference,
measured in the same run on a sample of them).  The compositions are those
a study meets: 8-pack shoes dealt to the cut card.  Prints the table's build
time (once per rule set and bets),
the rate for 1, 64 and 4,096 compositions a call, CPU and wall time, and
the process's peak RSS.

Run: python bench/bench_bet_table.py [--profile ez-baccarat] [--compositions 20000]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from odds import BUILTIN, Shoe  # noqa: E402
from odds.exact.bet_table import bet_set  # noqa: E402
from odds.exact.bets import bet_odds  # noqa: E402
from odds.money.counting import deal_compositions  # noqa: E402

TARGET_RATE = 5_000
TARGET_RATIO = 100


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="ez-baccarat")
    parser.add_argument("--compositions", type=int, default=20_000)
    parser.add_argument("--sample", type=int, default=20, help="bet_odds calls (default 20)")
    args = parser.parse_args()
    profile = BUILTIN[args.profile]
    comps = []
    seed = 0
    while sum(len(c) for c in comps) < args.compositions:
        comps.append(deal_compositions(profile, 8, 0.8, 1, seed))
        seed += 1
    batch = np.vstack(comps)[:args.compositions]
    chosen = bet_set(profile)
    print(f"profile {profile.key}: bets {', '.join(chosen.names)}; {len(batch)} compositions "
          f"from {seed} shuffled 8-pack shoes")
    start = time.perf_counter()
    table = chosen.table()
    print(f"  build of the bet table: {time.perf_counter() - start:.2f} s, "
          f"peak RSS {_peak_mib():.0f} MiB")

    rates = {}
    for size in (1, 64, 4096):
        n = min(len(batch), max(size, 2000 if size == 1 else len(batch)))
        wall = time.perf_counter()
        cpu = time.process_time()
        for at in range(0, n, size):
            counts = table.counts(batch[at:at + size], packs=8)
            chosen.float_evs(counts)
        wall = time.perf_counter() - wall
        cpu = time.process_time() - cpu
        rates[size] = n / cpu
        print(f"  {size:>5} a call: {n} compositions, cpu {cpu:.2f} s, wall {wall:.2f} s, "
              f"{n / cpu:,.0f} a second (cpu)")

    # The reference: bet_odds, one composition at a time, every bet (exact Fractions).
    cpu = time.process_time()
    for row in batch[:args.sample]:
        bet_odds(profile, Shoe(tuple(int(c) for c in row)), list(chosen.bets))
    per = (time.process_time() - cpu) / args.sample
    best = max(rates.values())
    print(f"  reference bet_odds: {per * 1000:.1f} ms a composition (cpu, {args.sample} "
          f"compositions), {1 / per:,.0f} a second")
    print(f"  batch engine / bet_odds: x{best * per:,.0f} (target x{TARGET_RATIO}); "
          f"best rate {best:,.0f} a second (target {TARGET_RATE:,}): "
          f"{'met' if best >= TARGET_RATE and best * per >= TARGET_RATIO else 'NOT met'}")
    # Exact figures too: the same batch as Fractions, for the cost of exactness.
    cpu = time.process_time()
    counts = table.counts(batch[:4096], packs=8)
    exact = chosen.exact_evs(counts)
    cpu = time.process_time() - cpu
    print(f"  exact EVs (Fractions) for 4096 compositions: cpu {cpu:.2f} s, "
          f"{4096 / cpu:,.0f} a second; {len(exact)} bets")
    print(f"  peak RSS {_peak_mib():.0f} MiB")


if __name__ == "__main__":
    main()
