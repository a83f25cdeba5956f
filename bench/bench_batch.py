"""Speed of the batch engine against round_odds on the same compositions; prints figures.

1,000 compositions of an 8-pack shoe depleted at random (seeded).  The batch
engine evaluates all of them, two ways:

- summary: the exact EV of every bet, P(win/push/loss), P(Colon), P(Colon nine);
- full: all that and every outcome key (every settlement category by two-card
  values and Colon classes), final-value distributions and draw counts
  (``counts(..., full=True)``), and on first use after a summary.

round_odds evaluates a sample of them in the same run (each is a new
composition to it; it gives the full figures), and the ratios are of
evaluations per second.  Then the rules table: built cold, then read back
from the disk cache (a temporary cache folder, so the real one is untouched),
and the BLAS thread count.  Peak RSS at the end.

Run: python bench/bench_batch.py [--sample 20]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from odds import BUILTIN, Shoe, round_odds  # noqa: E402
from odds.exact.batch import clear_tables, rules_table  # noqa: E402
from odds.exact.products import _class_weights  # noqa: E402
from odds.exact.sequences import row_classes  # noqa: E402


def compositions(n: int, packs: int = 8, seed: int = 10) -> list[list[int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        cards = [r for r in range(13) for _ in range(4 * packs)]
        rng.shuffle(cards)
        left = cards[rng.randint(0, 52 * packs - 6):]
        out.append([left.count(r) for r in range(13)])
    return out


def evaluate(profile_key: str, comps: list[list[int]], full: bool = False) -> None:
    batch = rules_table(BUILTIN[profile_key]).counts(comps, full=full)
    for bet in batch.bets:
        batch.expected_values(bet)
    batch.probabilities()
    if full:
        for array in (batch.outcome, batch.player_final, batch.bank_final, batch.player_draws,
                      batch.bank_draws):
            assert len(array) == len(comps)


def best(func, repeat: int = 3) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=20, help="round_odds calls (default 20)")
    args = parser.parse_args()
    cache = tempfile.mkdtemp(prefix="bench-batch-cache-")
    os.environ["XDG_CACHE_HOME"] = cache
    os.environ.pop("LUCKY9_NO_CACHE", None)
    try:
        run(args.sample)
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def files() -> list[Path]:
    """The tables in the disk cache."""
    return sorted(Path(os.environ["XDG_CACHE_HOME"]).rglob("*.npz"))


def run(sample_size: int) -> None:
    comps = compositions(1000)
    n = len(comps)
    profile = BUILTIN["standard"]

    print("rules table of standard, once per process:")
    start = time.perf_counter()
    row_classes()
    classes = time.perf_counter() - start
    start = time.perf_counter()
    table = rules_table(profile)
    cold = time.perf_counter() - start
    loads = []
    for _ in range(3):
        clear_tables()
        start = time.perf_counter()
        table = rules_table(profile)
        loads.append(time.perf_counter() - start)
    size = sum(f.stat().st_size for f in files())
    print(f"  row classes (needed either way): {classes:.3f} s")
    print(f"  built cold (canonical sequences included): {cold:.3f} s")
    print(f"  read from the disk cache: {min(loads):.3f} s (best of 3; file {size / 1e6:.1f} MB): "
          f"{cold / min(loads):.0f}x quicker")

    print(f"batch engine, {n:,} depleted 8-pack compositions:")
    summary_rates = {}
    for key in ("standard", "super9", "punto-banco"):
        stored = files()
        start = time.perf_counter()
        rules_table(BUILTIN[key])
        build = time.perf_counter() - start
        how = "in memory" if key == "standard" else "from disk" if files() == stored else "built"
        summary = best(lambda: evaluate(key, comps))  # noqa: B023
        full = best(lambda: evaluate(key, comps, full=True))  # noqa: B023
        summary_rates[key] = n / summary
        print(f"  {key:<12} table {build:.2f} s ({how}); summary {summary:.3f} s = {n / summary:,.0f}/s; "
              f"full {full:.3f} s = {n / full:,.0f}/s")
    k = len(table.keys) + 22
    lazy = best(lambda: table.counts(comps).outcome)
    print(f"  standard: full columns {k} ({len(table.keys)} outcome keys + 22), {table.distinct} "
          f"distinct; summary first, then full on first use: {lazy:.3f} s = {n / lazy:,.0f}/s")

    sample = comps[:sample_size]
    start = time.perf_counter()
    for comp in sample:
        r = round_odds(profile, Shoe(tuple(comp)))
        assert r.expected_value is not None
    engine = (time.perf_counter() - start) / len(sample)
    summary = best(lambda: evaluate("standard", comps))
    full = best(lambda: evaluate("standard", comps, full=True))
    print(f"round_odds on {len(sample)} of the same compositions: {engine * 1000:.1f} ms each "
          f"= {1 / engine:.1f} evaluations/s")
    print(f"ratio batch / round_odds (evaluations per second), standard: summary "
          f"{engine / (summary / n):,.0f}x ({n / summary:,.0f}/s), full "
          f"{engine / (full / n):,.0f}x ({n / full:,.0f}/s)")

    print("BLAS threads for one product of 512 compositions, seconds:")
    weights = _class_weights(np.array(comps[:512]), False, 416**6).astype(np.float64)
    for threads in (1, 2):
        with threadpool_limits(threads, user_api="blas"):
            only = best(lambda: weights.T @ table.summary, 5)
            whole = best(lambda: weights.T @ table.product, 3)
        print(f"  {threads} thread(s): summary {only:.4f}   full (distinct + summary) {whole:.4f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS: {peak:.0f} MB")


if __name__ == "__main__":
    main()
