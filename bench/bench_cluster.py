"""The shoe study on a Dask cluster against a process pool, in one run: time and peak RSS.

The same study (8 packs, penetration 0.8, seed 0, every bet of the profile) is
run with ``--jobs 2`` (the reference, measured in this run) and on a local
Dask cluster of 2 worker processes (then of 1, for the scaling), every
process on this machine and every socket on 127.0.0.1.  Printed:

* the cluster's start-up (scheduler, workers, the version check on connect);
* the study's wall time on the warm cluster against ``--jobs 2``: the
  overhead, target at most 10 % at 2,000 shoes;
* the overhead per chunk of 64 shoes, and the round trip of an empty task;
* 1 worker against 2 (the speed-up on this machine's 2 shared cores);
* the peak RSS of this client process, of each worker, and of the pool's
  processes (as the kernel counts them: the largest child).

The figures are the same on every backend: the run checks it (JSON text equal).

Run: python bench/bench_cluster.py [--shoes 2000] [--profile punto-banco]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from odds import BUILTIN  # noqa: E402
from odds.exact.batch import rules_table  # noqa: E402
from odds.money.counting import SHOES_PER_BATCH, count_study  # noqa: E402
from odds.report.count_report import count_data  # noqa: E402

TARGET = 0.10


def peak_rss_mb() -> float:
    """This process's peak RSS in MB (Linux: ru_maxrss is in kB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def children_peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def noop() -> None:
    return None


def timed(label: str, run: object) -> tuple[float, float, str]:
    start = time.perf_counter()
    cpu = time.process_time()
    study = run()  # type: ignore[operator]
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu
    print(f"  {label}: {wall:6.1f} s wall ({cpu:.1f} s CPU in this process)")
    return wall, cpu, json.dumps(count_data(study))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=2000)
    parser.add_argument("--profile", default="punto-banco")
    args = parser.parse_args()
    cache = tempfile.mkdtemp(prefix="bench-cluster-cache-")
    os.environ["XDG_CACHE_HOME"] = cache  # workers read the table this process builds
    os.environ.pop("LUCKY9_NO_CACHE", None)
    try:
        run(args)
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def run(args: argparse.Namespace) -> None:
    from odds.money.counting.cluster import ClusterSession

    profile = BUILTIN[args.profile]
    rules_table(profile)
    chunks = -(-args.shoes // SHOES_PER_BATCH)
    print(f"{args.profile}, 8 packs, penetration 0.8, seed 0, every bet; {args.shoes:,} shoes "
          f"in {chunks} chunks of {SHOES_PER_BATCH}; load average at start "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    def study(**kw: object) -> object:
        return count_study(profile, 8, args.shoes, 0.8, seed=0, **kw)  # type: ignore[arg-type]

    def children_cpu() -> float:
        t = os.times()
        return t.children_user + t.children_system

    # The machine is shared: each backend runs twice, interleaved, and the best is kept;
    # CPU time (user + system, every process of the backend) is printed beside the wall.
    pool_walls, pool_cpus, jsons = [], [], []
    session = None
    start = time.perf_counter()
    session = ClusterSession.open("local:2", timeout=60)
    startup = time.perf_counter() - start
    try:
        print(f"  local:2 cluster start-up (scheduler, 2 workers, version check): "
              f"{startup:.1f} s")
        start = time.perf_counter()
        for _ in range(50):
            session.client.submit(noop, pure=False).result()
        trip = (time.perf_counter() - start) / 50
        print(f"  round trip of an empty task: {1000 * trip:.1f} ms")
        study(cluster=session, bets=["tie"])  # each worker reads its table once
        two_walls, two_cpus = [], []
        for _ in range(2):
            before = children_cpu()
            wall, _, text = timed("--jobs 2 (process pool, the reference)", lambda: study(jobs=2))
            pool_walls.append(wall)
            pool_cpus.append(children_cpu() - before)
            pool_rss = children_peak_rss_mb()  # the pool's processes, reaped (not the workers)
            jsons.append(text)
            a = session.client.run(os.times)
            wall, _, text = timed("local:2, warm", lambda: study(cluster=session))
            b = session.client.run(os.times)
            two_walls.append(wall)
            two_cpus.append(sum(b[k].user + b[k].system - a[k].user - a[k].system for k in a))
            jsons.append(text)
        workers = session.client.run(peak_rss_mb)
    finally:
        session.close()
    session = ClusterSession.open("local:1", timeout=60)
    try:
        study(cluster=session, bets=["tie"])  # the worker reads its table
        one_wall, _, text = timed("local:1, warm", lambda: study(cluster=session))
        jsons.append(text)
    finally:
        session.close()
    best, pool_wall = min(two_walls), min(pool_walls)
    overhead = best / pool_wall - 1
    cpu_overhead = min(two_cpus) / min(pool_cpus) - 1
    print(f"  overhead of the cluster against --jobs 2, wall: {overhead:+.1%} (best of 2: "
          f"{best:.1f} s against {pool_wall:.1f} s); target <= {TARGET:.0%}: "
          f"{'met' if overhead <= TARGET else 'NOT met'}")
    print(f"  the same in CPU time of the workers: {cpu_overhead:+.1%} "
          f"({min(two_cpus):.1f} s against {min(pool_cpus):.1f} s)")
    print(f"  per chunk, in CPU: {1000 * (min(two_cpus) - min(pool_cpus)) / chunks:+.0f} ms over "
          f"the pool's (a chunk takes {1000 * min(pool_cpus) / chunks:.0f} ms of CPU in the pool)")
    print(f"  with the start-up counted: {(best + startup) / pool_wall - 1:+.1%}")
    print(f"  1 worker -> 2 workers: {one_wall:.1f} s -> {best:.1f} s, "
          f"speed-up x{one_wall / best:.2f}")
    print(f"  peak RSS: this client {peak_rss_mb():.0f} MB; pool processes (largest) "
          f"{pool_rss:.0f} MB; workers " + ", ".join(
              f"{rss:.0f} MB" for _, rss in sorted(workers.items())))
    same = len(set(jsons)) == 1
    print(f"  figures identical on every backend (JSON text): {same}")
    if not same:
        raise SystemExit("the figures differ between backends")


if __name__ == "__main__":
    main()
