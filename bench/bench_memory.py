"""Peak RSS of the test suite, per test process, and the tests that raise it; prints figures.

Runs the suite as CI does (``python -m pytest -q -n 2``) with bench/rss_plugin.py
loaded: after every test each worker notes its peak RSS when it rose.  Prints
each worker's final peak, the highest, and the tests that raised a peak the
most (the candidates to slim).  The target of issue 10: every test process
under 300 MB.

Run: python bench/bench_memory.py [-- extra pytest arguments, e.g. tests/sim/test_verify.py]
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    extra = sys.argv[1:]
    if extra[:1] == ["--"]:
        extra = extra[1:]
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, LUCKY9_RSS_DIR=folder,
                   PYTHONPATH=os.pathsep.join([str(ROOT / "bench"),
                                               os.environ.get("PYTHONPATH", "")]))
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "2", "-p",
                               "rss_plugin", *extra], cwd=ROOT, env=env, check=False,
                              capture_output=True, text=True)
        took = time.perf_counter() - start
        for line in done.stdout.strip().splitlines():
            if line.startswith(("FAILED", "ERROR")) or line == done.stdout.strip().splitlines()[-1]:
                print(line)
        rows = [json.loads(line) for f in Path(folder).glob("*.jsonl")
                for line in f.read_text().splitlines()]
        if os.environ.get("LUCKY9_RSS_KEEP"):  # the per-test lines, for a closer look
            Path(os.environ["LUCKY9_RSS_KEEP"]).write_text(
                "".join(json.dumps(r) + "\n" for r in rows))
    print(f"suite: {took:.0f} s wall, exit code {done.returncode}; "
          f"load average {os.getloadavg()[0]:.2f}")
    peaks: dict[str, int] = {}
    steps = []
    for worker in sorted({r["worker"] for r in rows}):
        mine = [r for r in rows if r["worker"] == worker]
        peaks[worker] = max(r["peak_kb"] for r in mine)
        prev = 0
        for r in mine:
            if r["peak_kb"] > prev:
                steps.append((r["peak_kb"] - prev, r["peak_kb"], worker, r["test"]))
            prev = r["peak_kb"]
        print(f"{worker}: resident after its first test {mine[0]['now_kb'] / 1024:.0f} MB, "
              f"after its last {mine[-1]['now_kb'] / 1024:.0f} MB ({len(mine)} tests)")
    for worker, kb in peaks.items():
        print(f"{worker}: peak RSS {kb / 1024:.0f} MB")
    print(f"highest peak RSS of a test process: {max(peaks.values(), default=0) / 1024:.0f} MB "
          "(target: under 300 MB)")
    # The other processes: commands tests run in processes of their own, and
    # conftest.py's one-off jobs (the largest of all the run's processes
    # but the test processes, whose high-water mark the plugin resets).
    print("largest other process of the run (commands run by tests, conftest's one-off jobs): "
          f"{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.0f} MB")
    print("tests that raised a peak the most (MB raised, peak after, worker, test):")
    for rise, kb, worker, test in sorted(steps, reverse=True)[:12]:
        print(f"  +{rise / 1024:5.0f}  {kb / 1024:5.0f}  {worker}  {test}")
    # Each test's own peak (the plugin resets the high-water mark after each),
    # above what the process held when it began: what a test costs, wherever it ran.
    own = []
    for worker in sorted({r["worker"] for r in rows}):
        before = None
        for r in (r for r in rows if r["worker"] == worker):
            if before is not None and "test_peak_kb" in r:
                own.append((r["test_peak_kb"], r["test_peak_kb"] - before, worker, r["test"]))
            before = r["now_kb"]
    print("the tests with the highest peaks (MB peak, MB above the resident before it, "
          "worker, test):")
    for kb, rise, worker, test in sorted(own, reverse=True)[:12]:
        print(f"  {kb / 1024:5.0f}  +{rise / 1024:4.0f}  {worker}  {test}")


if __name__ == "__main__":
    main()
