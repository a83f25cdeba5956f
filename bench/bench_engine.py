"""Speed of the exact engine and of the CLI's cold start; prints figures.

Run: python bench/bench_engine.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from odds import BUILTIN, Shoe, round_odds  # noqa: E402
from odds.exact.engine import _MEMO, clear_rounds  # noqa: E402


def cold(func):  # type: ignore[no-untyped-def]
    """Time from an empty draw-stage memo, as a fresh process would."""

    def run():  # type: ignore[no-untyped-def]
        _MEMO.clear()
        clear_rounds()
        return func()

    return run


def counted(func):  # type: ignore[no-untyped-def]
    """Time a count with the draw-stage memo kept but no round kept whole (asked again,
    a round is answered from memory: that is not the engine's speed)."""

    def run():  # type: ignore[no-untyped-def]
        clear_rounds()
        return func()

    return run


def best_of(func, repeat: int = 7) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


WRAP = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
        "capture_output=True); u = resource.getrusage(resource.RUSAGE_CHILDREN); "
        "print(u.ru_utime + u.ru_stime, u.ru_maxrss)")


def child_cpu(cmd: list[str], repeat: int = 5, env: dict[str, str] | None = None
              ) -> tuple[float, int]:
    """The least CPU (user + system seconds) a child process running ``cmd`` took, and its
    peak RSS in kB (each run measured alone, in a wrapper process of its own)."""
    spent = []
    for _ in range(repeat):
        done = subprocess.run([sys.executable, "-c", WRAP, *cmd], check=True, capture_output=True,
                              text=True, cwd=ROOT, env=env)
        cpu, rss = done.stdout.split()
        spent.append((float(cpu), int(rss)))
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
        warm, _ = best_of(counted(job))
        print(f"  {key:<12} {label:<10} {best:.4f}  {median:.4f}   warm {warm:.4f}")

    # The round's counts come from the disk cache (a folder of this run's own, filled by the
    # first run), or are counted afresh with LUCKY9_NO_CACHE=1.
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "XDG_CACHE_HOME": folder}
        env.pop("LUCKY9_NO_CACHE", None)
        print("lucky9 odds --format json, process start to exit (best / median of 5, seconds)")
        cmd = [sys.executable, str(ROOT / "cli.py"), "odds", "--decks", "8", "--format", "json"]
        for label, where in (("disk cache", env), ("counted", {**env, "LUCKY9_NO_CACHE": "1"})):
            best, median = best_of(
                lambda: subprocess.run(cmd, check=True, capture_output=True, env=where), 5)  # noqa: B023
            print(f"  standard 8 packs, {label:<11} {best:.4f}  {median:.4f}")
        # CPU of the whole process (user + system), the machine's load aside: `lucky9 odds` on
        # a fixed-rule profile against `import click` alone, in the same run (goal: at most
        # 0.15 s).
        odds = [sys.executable, str(ROOT / "cli.py"), "odds"]
        subprocess.run(odds, check=True, capture_output=True, cwd=ROOT, env=env)
        runs = {"python -c 'import click'": child_cpu([sys.executable, "-c", "import click"]),
                "lucky9 odds (round from the disk cache)": child_cpu(odds, env=env),
                "lucky9 odds, LUCKY9_NO_CACHE=1 (counted)":
                    child_cpu(odds, env={**env, "LUCKY9_NO_CACHE": "1"}),
                "lucky9 --help": child_cpu([*odds[:2], "--help"], env=env)}
    click_cpu = runs["python -c 'import click'"][0]
    print("  CPU (user + system) best of 5, its ratio to `import click` in this run, peak RSS:")
    for label, (cpu, rss) in runs.items():
        print(f"    {label:<42} {cpu:.3f} s  {cpu / click_cpu:.2f}x  {rss / 1024:.0f} MB")
    print(f"  load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    probe = [sys.executable, "-c", "import sys, cli; print(sorted(m for m in ('sympy', "
             "'networkx', 'numpy') if m in sys.modules))"]
    heavy = subprocess.run(probe, check=True, capture_output=True, text=True, cwd=ROOT).stdout
    print(f"  heavy modules imported by cli at start: {heavy.strip()}")


if __name__ == "__main__":
    main()
