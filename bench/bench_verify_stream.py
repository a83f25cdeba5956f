"""Memory and time of `verify` on a long round log, block by block against whole; prints figures.

Issue 13 (class 12): a round log is read block by block (odds.sim.verify.BLOCK
bytes of whole rounds at a time), so memory does not grow with the log.  A
log of ``--rows`` rows (fresh 8-pack shoes, standard rules, our simulator,
seeded) is written as CSV and as JSON Lines, and one of cut-card shoes (whose
every round is tested against its exact odds given the cards dealt before it:
per-round arrays, the case the block size bounds) as CSV; each is verified in a child
process, block by block (``verify_file``) and, as the reference in the same
run, read whole (``verify_text`` on the file's text, the way verify read
every log before).  For each: wall and CPU seconds and the child's peak RSS.

With ``--against DIR`` (a checkout of other code, say the commit before a
change), each log is also verified block by block by that code, in a child
process of the same run, and the ratio of the two is printed.

Run: python bench/bench_verify_stream.py [--rows 10000000] [--no-whole] [--against DIR]
(10^7 rows read whole need about 15 GB of memory for JSON Lines.)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from odds import BUILTIN, Shoe  # noqa: E402
from odds.sim.simulate import simulate  # noqa: E402

SEED = 2026
CHILD = {
    "block by block": "from odds.sim.verify import verify_file; v = verify_file({path!r})",
    "whole": ("from pathlib import Path; from odds.sim.verify import verify_text; "
              "v = verify_text(Path({path!r}).read_text(), {path!r})"),
}


# The child prints its own peak from /proc/self/status (VmHWM: the high-water mark of
# its memory since exec).  Not ru_maxrss: Linux carries the parent's high-water mark
# into a child forked (or vforked) from it, so a child of this process, grown by
# simulating the log, reported the parent's 213 MB for runs that peaked at 70 MB.
PEAK = ("; print(next(int(line.split()[1]) for line in open('/proc/self/status') "
        "if line.startswith('VmHWM')))")


def child(code: str, root: Path = ROOT) -> tuple[float, float, float, str]:
    """Run ``code`` in a fresh interpreter in ``root`` (whose ``odds`` it imports): wall s,
    CPU s, its own peak RSS (MB), verdict."""
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen([sys.executable, "-c", code + "; print(v.verdict, v.rows)" + PEAK],
                                cwd=root, stdout=out, stderr=subprocess.STDOUT, text=True)
        _, _, usage = os.wait4(proc.pid, 0)  # this child's own rusage (CPU time)
        proc.returncode = 0
        wall = time.perf_counter() - start
        out.seek(0)
        lines = out.read().strip().splitlines()
    cpu = usage.ru_utime + usage.ru_stime
    if len(lines) < 2 or not lines[-1].isdigit():
        return wall, cpu, float("nan"), lines[-1] if lines else "(no output)"
    return wall, cpu, int(lines[-1]) / 1024, lines[-2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--no-whole", action="store_true", help="skip the whole reading")
    parser.add_argument("--against", type=Path, help="a checkout of other code to compare")
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as folder:
        for suffix, reshuffle in ((".csv", "round"), (".jsonl", "round"), (".csv", "cut")):
            log = Path(folder) / f"{reshuffle}{suffix}"
            start = time.perf_counter()
            simulate(BUILTIN["standard"], Shoe.packs_of(8), args.rows, seed=SEED, log=log,
                     reshuffle=reshuffle)
            size = log.stat().st_size / 1e6
            kind = "fresh shoes" if reshuffle == "round" else "cut-card shoes, per-round odds"
            print(f"{suffix[1:]} log, {kind}: {args.rows:,} rows, {size:,.0f} MB, written in "
                  f"{time.perf_counter() - start:.0f} s")
            figures = {}
            for how, code in CHILD.items():
                if how == "whole" and args.no_whole:
                    continue
                wall, cpu, rss, verdict = child(code.format(path=str(log)))
                figures[how] = (wall, cpu)
                print(f"  {how:>15}: {wall:6.1f} s wall, {cpu:6.1f} s CPU, peak RSS "
                      f"{rss:,.0f} MB; {verdict}")
            if args.against is not None:
                root = args.against.resolve()
                wall, cpu, rss, verdict = child(CHILD["block by block"].format(path=str(log)),
                                                root)
                w1, c1 = figures["block by block"]
                print(f"  {'--against':>15}: {wall:6.1f} s wall, {cpu:6.1f} s CPU, peak RSS "
                      f"{rss:,.0f} MB; {verdict} ({root})")
                print(f"  this code / --against, block by block: {w1 / wall:.2f}x wall, "
                      f"{c1 / cpu:.2f}x CPU")
            if len(figures) == 2:
                (w1, c1), (w2, c2) = figures["block by block"], figures["whole"]
                print(f"  block by block / whole: {w1 / w2:.2f}x wall, {c1 / c2:.2f}x CPU")
            log.unlink()


if __name__ == "__main__":
    main()
