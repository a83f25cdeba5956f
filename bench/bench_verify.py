"""Speed of `verify` on a cut-card log with exact per-round expectations; prints figures.

A 10^6-row round log of 8-pack cut-card shoes (standard profile, our
simulator, seeded, with the shoe column) is verified: every round is tested
against its exact odds given the cards dealt before it in its shoe.  The
reference, measured in the same run, is the same log verified as a
fresh-shoe log (the shoe column dropped and reshuffle 'round'): reading,
auditing and tallying alike, without the per-round expectations.  A second
ratio compares the per-round engine (the batch engine's marginal columns,
odds.exact.marginals) with round_odds on single compositions.

With ``--against DIR`` (a checkout of other code, say the commit before a
change), the same log is also verified by that code in a child process and
the ratio of the two is printed, with both peak RSS: a before/after
measured in one run on the same file.

Run: python bench/bench_verify.py [--rows 1000000] [--against DIR]
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
from odds.exact.marginals import margin_table  # noqa: E402
from odds.sim.expect import round_probabilities  # noqa: E402
from odds.sim.simulate import simulate  # noqa: E402
from odds.sim.verify import verify_file  # noqa: E402

SEED = 2026


def load() -> str:
    return " ".join(f"{x:.2f}" for x in __import__("os").getloadavg())


# The child prints its own peak (VmHWM), not ru_maxrss: a forked child inherits the
# parent's high-water mark (see bench_verify_stream.py).
CHILD = ("import sys; sys.path.insert(0, {root!r}); import odds.sim.verify as v; "
         "r = v.verify_file({path!r}); print(r.verdict); "
         "print(next(int(x.split()[1]) for x in open('/proc/self/status') "
         "if x.startswith('VmHWM')))")


def child(root: Path, log: Path) -> tuple[float, float, float, str]:
    """Verify ``log`` with the code in ``root``, in a fresh interpreter: wall s, CPU s,
    its peak RSS (MB), verdict."""
    import os
    import subprocess

    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", CHILD.format(root=str(root), path=str(log))],
                            cwd=root, stdout=subprocess.PIPE, text=True)
    _, _, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    assert proc.stdout is not None
    lines = proc.stdout.read().split()
    proc.stdout.close()
    cpu = usage.ru_utime + usage.ru_stime
    return wall, cpu, int(lines[-1]) / 1024, lines[0]


def main() -> None:
    print(f"load average: {load()}")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--against", type=Path, help="a checkout of other code to compare")
    args = parser.parse_args()
    profile = BUILTIN["standard"]
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "cut.csv"
        start = time.perf_counter()
        simulate(profile, Shoe.packs_of(8), args.rows, seed=SEED, reshuffle="cut", log=log)
        print(f"log: {args.rows:,} rows, 8-pack cut-card shoes, seed {SEED}, written in "
              f"{time.perf_counter() - start:.1f} s")
        start = time.perf_counter()
        margin_table(profile)
        print(f"margin table (once per profile and process; the rules table from the disk "
              f"cache or built): {time.perf_counter() - start:.1f} s")
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
        if args.against is not None:
            figures = {}
            for name, root in (("this code", ROOT), ("--against", args.against.resolve())):
                figures[name] = child(root, log)
                wall, cpu, rss, verdict = figures[name]
                print(f"verify in a child, {name} ({root}): {wall:.1f} s wall, {cpu:.1f} s CPU, "
                      f"peak RSS {rss:,.0f} MB; verdict {verdict}")
            (w1, c1, r1, _), (w2, c2, r2, _) = figures["this code"], figures["--against"]
            print(f"ratio this code / --against: {w1 / w2:.2f}x wall, {c1 / c2:.2f}x CPU, "
                  f"{r1 / r2:.2f}x peak RSS")
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
