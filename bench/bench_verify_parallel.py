"""`verify --jobs N` and `verify --cluster local:N` against one process; prints figures.

A cut-card round log of ``--rows`` rows (8-pack `punto-banco` shoes with the
`shoe` column: every round tested against its exact odds given the cards dealt
before it, the slow case) is written once, then verified by the command in a
child process: ``--jobs 1``, ``--jobs 2`` and ``--cluster local:2`` (with
``--cluster``).  For each: wall and CPU seconds (the whole process tree's),
rows per second of wall time, the peak RSS of the largest process of the tree
(sampled every 0.2 s), and that the JSON is byte for byte the one of
``--jobs 1``.  The ratios are of the same run; the load average is printed
before and after (on a shared machine the wall-clock ratio says how much of
the machine the run got, the CPU ratio what the parts cost).

Run: python bench/bench_verify_parallel.py [--rows 1000000] [--jobs 2] [--cluster]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from odds import BUILTIN, Shoe  # noqa: E402
from odds.sim.simulate import simulate  # noqa: E402

SEED = 2026


def load() -> str:
    return "load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def run(path: Path, args: list[str]) -> tuple[float, float, int, bytes]:
    """Wall s, CPU s of the process tree, the largest peak RSS in it, the JSON."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "verify", str(path),
                             "--format", "json", "--no-progress", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    peak: dict[int, int] = {}
    while proc.poll() is None:
        try:
            tree = [psutil.Process(proc.pid), *psutil.Process(proc.pid).children(True)]
        except psutil.Error:
            tree = []
        for p in tree:
            try:
                peak[p.pid] = max(peak.get(p.pid, 0), p.memory_info().rss)
            except psutil.Error:
                pass
        time.sleep(0.2)
    out, err = proc.communicate()
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode not in (0, 1):
        raise SystemExit(err.decode())
    return wall, cpu, max(peak.values(), default=0), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cluster", action="store_true",
                        help="also --cluster local:JOBS (a LocalCluster, about 10 s to start)")
    opts = parser.parse_args()
    print(load(), f"on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cut.csv"
        t = time.monotonic()
        simulate(BUILTIN["punto-banco"], Shoe.packs_of(8), opts.rows, seed=SEED,
                 reshuffle="cut", log=path)
        size = path.stat().st_size
        print(f"log: {opts.rows:,} rows of 8-pack cut-card shoes with the shoe column, "
              f"{size / 1e6:.0f} MB, written in {time.monotonic() - t:.0f} s")
        ways = [("--jobs 1", []), (f"--jobs {opts.jobs}", ["--jobs", str(opts.jobs)])]
        if opts.cluster:
            ways.append((f"--cluster local:{opts.jobs}", ["--cluster", f"local:{opts.jobs}",
                                                           "--cluster-timeout", "60"]))
        results = {}
        for name, args in ways:
            wall, cpu, rss, out = run(path, args)
            results[name] = (wall, cpu, out)
            same = "same JSON" if out == results["--jobs 1"][2] else "JSON DIFFERS"
            print(f"  {name:<18} {wall:7.1f} s wall {cpu:7.1f} s CPU "
                  f"{opts.rows / wall:9,.0f} rows/s  peak RSS {rss / 2**20:5.0f} MB  {same}")
        one = results["--jobs 1"]
        for name, (wall, cpu, _) in list(results.items())[1:]:
            print(f"  {name} / --jobs 1: {one[0] / wall:.2f}x rows per second, "
                  f"{cpu / one[1]:.2f}x CPU")
        if opts.cluster:
            jobs = results[f"--jobs {opts.jobs}"][0]
            cluster = results[f"--cluster local:{opts.jobs}"][0]
            print(f"  --cluster local:{opts.jobs} / --jobs {opts.jobs}: "
                  f"{jobs / cluster:.2f}x rows per second")
    print(load())


if __name__ == "__main__":
    main()
