"""The shoe study's speed: `lucky9 count --decks 8 --penetration 0.8` on one core; prints figures.

Target: 10,000 shoes in under 5 minutes on one core.  The study is timed on
``--shoes`` shoes (default 1,000) and the rate scaled to 10,000 (the work
is linear in the shoes: each chunk of shoes is dealt and evaluated alone);
the scaled figure is marked as such.  Wall and CPU time are both printed:
on a shared machine the wall time includes waiting for a core.  The reference, in the same run, is
today's engine: round_odds on a sample of the same rounds, scaled to every
round of the study.  With --jobs 2 it also times two processes.

Run: python bench/bench_count.py [--shoes 1000] [--profile standard] [--jobs 2]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from odds import BUILTIN, Profile, Shoe, round_odds  # noqa: E402
from odds.exact.batch import clear_tables, rules_table  # noqa: E402
from odds.money.counting import count_study, deal_compositions  # noqa: E402

TARGET_SHOES = 10_000
TARGET_SECONDS = 300


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=1000)
    parser.add_argument("--profile", default="standard")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--sample", type=int, default=5, help="round_odds calls (default 5)")
    args = parser.parse_args()
    profile = BUILTIN[args.profile]
    # A temporary disk cache: the table is built here, and read back by the workers of --jobs.
    cache = tempfile.mkdtemp(prefix="bench-count-cache-")
    os.environ["XDG_CACHE_HOME"] = cache
    os.environ.pop("LUCKY9_NO_CACHE", None)
    try:
        run(args, profile)
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def run(args: argparse.Namespace, profile: Profile) -> None:
    start = time.perf_counter()
    rules_table(profile)
    build = time.perf_counter() - start
    clear_tables()
    start = time.perf_counter()
    rules_table(profile)
    read = time.perf_counter() - start
    print(f"{args.profile}, 8 packs, penetration 0.8, seed 0")
    print(f"  rules table built once: {build:.2f} s; read back from the disk cache "
          f"(each later process): {read:.2f} s")
    start = time.perf_counter()
    cpu = time.process_time()
    study = count_study(profile, 8, args.shoes, 0.8, seed=0, jobs=1)
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    rate = study.rounds / seconds
    scaled = seconds * TARGET_SHOES / args.shoes
    print(f"  one core: {args.shoes:,} shoes, {study.rounds:,} rounds in {seconds:.1f} s "
          f"= {rate:,.0f} exact rounds/s, {args.shoes / seconds:.1f} shoes/s")
    print(f"  CPU time of this process: {cpu:.1f} s ({cpu / seconds:.0%} of the wall time: "
          "the rest is waiting for a core on a shared machine)")
    word = "measured" if args.shoes == TARGET_SHOES else "scaled from the run above"
    print(f"  10,000 shoes on one core: {scaled:.0f} s wall, {cpu * TARGET_SHOES / args.shoes:.0f} s "
          f"CPU ({word}); target < {TARGET_SECONDS} s: "
          f"{'met' if scaled < TARGET_SECONDS else 'NOT met'}")
    if args.jobs > 1:
        start = time.perf_counter()
        count_study(profile, 8, args.shoes, 0.8, seed=0, jobs=args.jobs)
        par = time.perf_counter() - start
        print(f"  --jobs {args.jobs}: {par:.1f} s (x{seconds / par:.2f} against one core; "
              "the workers read the rules table from the disk cache)")
    comps = deal_compositions(profile, 8, 0.8, 0, 0)
    picks = comps[:: max(1, len(comps) // args.sample)][: args.sample]
    start = time.perf_counter()
    for comp in picks:
        round_odds(profile, Shoe(tuple(int(c) for c in comp)))
    each = (time.perf_counter() - start) / len(picks)
    engine = each * study.rounds
    print(f"  round_odds on {len(picks)} rounds of shoe 0: {each * 1000:.0f} ms each; "
          f"the study's rounds would take {engine / 3600:.1f} h (scaled)")
    print(f"  ratio round_odds / batch study: {engine / seconds:,.0f}x")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS: {peak:.0f} MB")


if __name__ == "__main__":
    main()
