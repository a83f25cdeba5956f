"""Speed of the exact engine and of the CLI's cold start; prints figures.

Run: python bench/bench_engine.py
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

from odds import BUILTIN, Shoe, round_odds  # noqa: E402
from odds.exact.engine import _MEMO  # noqa: E402


def cold(func):  # type: ignore[no-untyped-def]
    """Time from an empty draw-stage memo, as a fresh process would."""

    def run():  # type: ignore[no-untyped-def]
        _MEMO.clear()
        return func()

    return run


def best_of(func, repeat: int = 7) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def child_cpu(cmd: list[str], repeat: int = 5) -> float:
    """The least CPU (user + system seconds) a child process running ``cmd`` took."""
    spent = []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        spent.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(spent)


def main() -> None:
    print("exact round, in-process, seconds: cold (memo emptied) best / median of 7; warm best")
    cases = [(key, Shoe.packs_of(d), f"{d} pack(s)", {}) for key in
             ("standard", "forced-draw", "super9", "punto-banco") for d in (1, 8)]
    cases.append(("standard", Shoe.infinite_shoe(), "inf", {}))
    cases.append(("standard", Shoe.packs_of(8), "8, known", {"player": "8h 7s", "bank": "Ac"}))
    for key, shoe, label, known in cases:
        def job():  # type: ignore[no-untyped-def]
            return round_odds(BUILTIN[key], shoe, **known)  # noqa: B023

        best, median = best_of(cold(job))
        warm, _ = best_of(job)
        print(f"  {key:<12} {label:<10} {best:.4f}  {median:.4f}   warm {warm:.4f}")

    print("lucky9 odds --format json, process start to exit (best / median of 5, seconds)")
    cmd = [sys.executable, str(ROOT / "cli.py"), "odds", "--decks", "8", "--format", "json"]
    best, median = best_of(lambda: subprocess.run(cmd, check=True, capture_output=True), 5)
    print(f"  standard 8 packs          {best:.4f}  {median:.4f}")
    # CPU of the whole process (user + system), the machine's load aside: `lucky9 odds` on a
    # fixed-rule profile against `import click` alone, in the same run (goal: at most 0.15 s).
    click_cpu = child_cpu([sys.executable, "-c", "import click"])
    odds_cpu = child_cpu([sys.executable, str(ROOT / "cli.py"), "odds"])
    print(f"  CPU, best of 5: lucky9 odds {odds_cpu:.3f} s, python -c 'import click' "
          f"{click_cpu:.3f} s: {odds_cpu / click_cpu:.1f}x")
    probe = [sys.executable, "-c", "import sys, cli; print(sorted(m for m in ('sympy', "
             "'networkx', 'numpy') if m in sys.modules))"]
    heavy = subprocess.run(probe, check=True, capture_output=True, text=True, cwd=ROOT).stdout
    print(f"  heavy modules imported by cli at start: {heavy.strip()}")


if __name__ == "__main__":
    main()
