"""A PAR sheet's speed and memory: `lucky9 par` with and without its shoe study; prints figures.

Targets (one bet, on one core): with the countability section (2,000 shoes)
under 60 s; with --no-count under 5 s.  Each command runs as its own
process (``os.wait4`` gives its CPU time and peak RSS alone); wall time is
printed too, but on a shared machine it includes waiting for a core, so the
targets are read on CPU time.  The references, measured in the same run,
are the commands whose figures the sheet gathers: ``lucky9 count`` with the
same study (the sheet's slow part) and ``lucky9 removal`` (one exact job of
the sheet); the ratios say what the sheet adds to them.

Run: python bench/bench_par.py [--profile ez-baccarat] [--bet dragon-7] [--shoes 2000]
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

TARGET_COUNT = 60.0
TARGET_NO_COUNT = 5.0


def measure(args: list[str]) -> tuple[float, float, float]:
    """(wall s, CPU s, peak RSS MB) of ``python -m cli ARGS`` run alone."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", "import cli; cli.run()", *args],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"failed: lucky9 {' '.join(args)}: "
                         f"{proc.stderr.read().decode() if proc.stderr else ''}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="ez-baccarat")
    parser.add_argument("--bet", default="dragon-7")
    parser.add_argument("--shoes", type=int, default=2000)
    args = parser.parse_args()
    study = ["--shoes", str(args.shoes), "--seed", "1", "--cut-cards", "14"]
    with tempfile.TemporaryDirectory() as tmp:
        # A fresh disk cache: every process builds the rules table itself, as on a new machine.
        os.environ["XDG_CACHE_HOME"] = tmp
        sheet = str(Path(tmp) / "sheet.html")
        runs = {
            "par, with the study": ["par", "--profile", args.profile, "--bet", args.bet,
                                    *study, "--format", "html", "--out", sheet],
            "reference: count, the same study": [
                "count", "--profile", args.profile, "--bet", args.bet, "--decks", "8",
                *study, "--format", "json"],
            "par --no-count": ["par", "--profile", args.profile, "--bet", args.bet,
                               "--no-count", "--format", "html", "--out", sheet],
            "reference: removal --bet": ["removal", "--profile", args.profile, "--bet",
                                         args.bet, "--format", "json"],
        }
        got = {}
        print(f"lucky9 par --profile {args.profile} --bet {args.bet} "
              f"({args.shoes:,} shoes for the study)")
        for label, command in runs.items():
            got[label] = measure(command)
            wall, cpu, rss = got[label]
            print(f"  {label:<36} wall {wall:6.1f} s  CPU {cpu:6.1f} s  peak RSS {rss:5.0f} MB")
    full, study_ref = got["par, with the study"], got["reference: count, the same study"]
    quick, removal_ref = got["par --no-count"], got["reference: removal --bet"]
    print(f"  with the study: CPU {full[1]:.1f} s = {full[1] / study_ref[1]:.2f} x count's, "
          f"peak RSS {full[2] / study_ref[2]:.2f} x; target < {TARGET_COUNT:.0f} s: "
          f"{'met' if full[1] < TARGET_COUNT else 'NOT met'}")
    print(f"  --no-count: CPU {quick[1]:.1f} s = {quick[1] / removal_ref[1]:.2f} x removal's, "
          f"peak RSS {quick[2] / removal_ref[2]:.2f} x; target < {TARGET_NO_COUNT:.0f} s: "
          f"{'met' if quick[1] < TARGET_NO_COUNT else 'NOT met'}")


if __name__ == "__main__":
    main()
