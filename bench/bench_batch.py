"""Speed of the batch engine against round_odds on the same compositions; prints figures.

1,000 compositions of an 8-pack shoe depleted at random (seeded).  The batch
engine evaluates all of them (exact EV of every bet, P(win/push/loss),
P(Colon), P(Colon nine)); round_odds evaluates a sample of them (each is a
new composition to it), and the ratio is of evaluations per second.

Run: python bench/bench_batch.py [--sample 20]
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from odds import BUILTIN, Shoe, round_odds  # noqa: E402
from odds.exact import batch as batch_module  # noqa: E402
from odds.exact.batch import _class_weights, rules_table  # noqa: E402


def compositions(n: int, packs: int = 8, seed: int = 10) -> list[list[int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        cards = [r for r in range(13) for _ in range(4 * packs)]
        rng.shuffle(cards)
        left = cards[rng.randint(0, 52 * packs - 6):]
        out.append([left.count(r) for r in range(13)])
    return out


def evaluate(profile_key: str, comps: list[list[int]]) -> None:
    batch = rules_table(BUILTIN[profile_key]).counts(comps)
    for bet in batch.bets:
        batch.expected_values(bet)
    batch.probabilities()


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
    comps = compositions(1000)
    print("batch engine, 1,000 depleted 8-pack compositions (exact EVs of every bet + probabilities)")
    start = time.perf_counter()
    batch_module._classes()
    batch_module._sequences()
    shared = time.perf_counter() - start
    print(f"  row classes and canonical sequences (once per process): {shared:.2f} s")
    for key in ("standard", "super9", "punto-banco"):
        start = time.perf_counter()
        rules_table(BUILTIN[key])
        build = time.perf_counter() - start
        seconds = best(lambda: evaluate(key, comps))  # noqa: B023
        print(f"  {key:<12} rules table built in {build:.2f} s; batch {seconds:.3f} s "
              f"= {1000 / seconds:,.0f} evaluations/s")
    profile = BUILTIN["standard"]
    table = rules_table(profile)
    full = best(lambda: table.counts(comps).outcome)
    print(f"  standard with every outcome key as well ({len(table.keys)} columns): {full:.3f} s "
          f"= {1000 / full:,.0f} /s")

    sample = comps[: args.sample]
    start = time.perf_counter()
    for comp in sample:
        r = round_odds(profile, Shoe(tuple(comp)))
        assert r.expected_value is not None
    engine = (time.perf_counter() - start) / len(sample)
    batch_seconds = best(lambda: evaluate("standard", comps))
    ratio = engine / (batch_seconds / 1000)
    print(f"round_odds on {len(sample)} of the same compositions: {engine * 1000:.1f} ms each "
          f"= {1 / engine:.1f} evaluations/s")
    print(f"ratio batch / round_odds (evaluations per second): {ratio:,.0f}x")

    print("BLAS threads for the summary product (512 compositions), seconds:")
    weights = _class_weights(np.array(comps[:512]), False, 416**6).astype(np.float64)
    for threads in (1, 2):
        with threadpool_limits(threads, user_api="blas"):
            summary = best(lambda: weights.T @ table.summary, 5)
            whole = best(lambda: weights.T @ table.matrix.astype(np.float64), 3)
        print(f"  {threads} thread(s): summary {summary:.4f}   all columns {whole:.4f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS: {peak:.0f} MB")


if __name__ == "__main__":
    main()
