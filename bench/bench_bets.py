"""Speed of the bet enumerator, whole-process: prints figures and peak RSS.

``lucky9 odds --profile punto-banco --bet all --decks 8`` (target: under 1 s
whole-process) beside the same command without bets, measured in the same
run; peak RSS of each child process from resource.getrusage.

Run: python bench/bench_bets.py
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def run(args: list[str], repeat: int = 5) -> tuple[float, float, float, float]:
    """Best and median wall time (s) of ``python cli.py ARGS``, best CPU time (user +
    system, s: steadier than wall time on a shared machine) and peak RSS (MiB)."""
    times = []
    cpus = []
    peak = 0.0
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        # A fresh child per run: its peak RSS is the largest seen so far among children.
        subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], check=True,
                       capture_output=True)
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        peak = after.ru_maxrss / 1024
    return min(times), statistics.median(times), min(cpus), peak


def in_process() -> None:
    from odds import BUILTIN, Shoe
    from odds.exact.bets import bet_odds

    print("bet_odds in-process, best of 5 (s)")
    for key, decks, bets in (("punto-banco", 8, ["all"]), ("ez-baccarat", 8, ["all"]),
                             ("standard", 8, ["all"]), ("punto-banco", 8, ["perfect-pair"]),
                             ("punto-banco", 8, ["dragon-7"])):
        times = []
        for _ in range(5):
            start = time.perf_counter()
            bet_odds(BUILTIN[key], Shoe.packs_of(decks), bets)
            times.append(time.perf_counter() - start)
        print(f"  {key:<12} {decks} packs  {' '.join(bets):<14} {min(times):.4f}")


def main() -> None:
    base = ["odds", "--profile", "punto-banco"]
    cases = [
        ("lucky9 odds --profile punto-banco (reference)", base),
        ("lucky9 odds --profile punto-banco --bet all --decks 8", [*base, "--bet", "all",
                                                                   "--decks", "8"]),
        ("  the same, --format json", [*base, "--bet", "all", "--decks", "8", "--format", "json"]),
        ("lucky9 odds --profile ez-baccarat --bet all --slot 5=7h",
         ["odds", "--profile", "ez-baccarat", "--bet", "all", "--slot", "5=7h"]),
    ]
    print("whole process, python cli.py ...: wall best / median of 5, CPU best (s), wall ratio "
          "to the reference, peak RSS of the children so far (MiB)")
    reference = None
    for label, args in cases:
        best, median, cpu, rss = run(args)
        reference = reference or best
        print(f"  {label:<56} {best:.3f} {median:.3f} cpu {cpu:.3f}  x{best / reference:.2f}"
              f"  {rss:.0f} MiB")
    in_process()


if __name__ == "__main__":
    main()
