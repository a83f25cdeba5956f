"""Speed of `verify` on a cut-card log with exact per-round expectations; prints figures.

A 10^6-row round log of 8-pack cut-card shoes (standard profile, our
simulator, seeded, with the shoe column) is verified: every round is tested
against its exact odds given the cards dealt before it in its shoe.  The
reference, measured in the same run, is the same log verified as a
fresh-shoe log (the shoe column dropped and reshuffle 'round'): reading,
auditing and tallying alike, without the per-round expectations.  A second
ratio compares the per-round engine with round_odds on single compositions.

Run: python bench/bench_verify.py [--rows 1000000]
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from odds import BUILTIN, Shoe, round_odds  # noqa: E402
from odds.sim.expect import _table, round_probabilities  # noqa: E402
from odds.sim.simulate import simulate  # noqa: E402
from odds.sim.verify import verify_file  # noqa: E402

SEED = 2026


def load() -> str:
    return " ".join(f"{x:.2f}" for x in __import__("os").getloadavg())


def main() -> None:
    print(f"load average: {load()}")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args()
    profile = BUILTIN["standard"]
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "cut.csv"
        start = time.perf_counter()
        simulate(profile, Shoe.packs_of(8), args.rows, seed=SEED, reshuffle="cut", log=log)
        print(f"log: {args.rows:,} rows, 8-pack cut-card shoes, seed {SEED}, written in "
              f"{time.perf_counter() - start:.1f} s")
        start = time.perf_counter()
        _table(profile)
        print(f"rules table (once per profile and process): {time.perf_counter() - start:.1f} s")
        start, cpu = time.perf_counter(), time.process_time()
        result = verify_file(log)
        exact = time.perf_counter() - start
        exact_cpu = time.process_time() - cpu
        print(f"verify, exact per-round expectations: {exact:.1f} s wall, {exact_cpu:.1f} s "
              f"CPU ({args.rows / exact:,.0f} rows/s); verdict {result.verdict}")
        fresh = Path(folder) / "fresh.csv"
        lines = log.read_text().splitlines()
        with fresh.open("w") as out:
            for line in lines:
                if line.startswith("# reshuffle"):
                    out.write("# reshuffle: round\n")
                elif not line.startswith("#"):
                    out.write(line.rsplit(",", 1)[0] + "\n")
                else:
                    out.write(line + "\n")
        del lines
        start, cpu = time.perf_counter(), time.process_time()
        verify_file(fresh)
        reference = time.perf_counter() - start
        reference_cpu = time.process_time() - cpu
        print(f"reference, the same log against fresh-shoe odds: {reference:.1f} s wall, "
              f"{reference_cpu:.1f} s CPU")
        print(f"ratio exact per-round / reference: {exact / reference:.1f}x wall, "
              f"{exact_cpu / reference_cpu:.1f}x CPU")
    comps = [[32] * 13 for _ in range(2000)]
    for i, c in enumerate(comps):
        c[i % 13] -= 1 + i % 7
        c[(3 * i) % 13] -= i % 5
    start = time.perf_counter()
    round_probabilities(profile, comps)
    engine = (time.perf_counter() - start) / len(comps)
    start = time.perf_counter()
    for c in comps[:3]:
        round_odds(profile, Shoe(tuple(c)))
    single = (time.perf_counter() - start) / 3
    print(f"per-round engine {engine * 1e6:.0f} us per composition; round_odds "
          f"{single * 1e3:.0f} ms; ratio {single / engine:,.0f}x")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak RSS: {rss / 1024:.0f} MB")
    print(f"load average: {load()}")


if __name__ == "__main__":
    main()
