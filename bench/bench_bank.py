"""Speed of the bank's figures (issue 12); prints absolute times, ratios and peak RSS.

Targets: N = 8 on the infinite shoe, full exact distribution, under 1 s;
ruin over 100 rounds for every capital up to 1,000 stakes at N = 8, under
2 s.  The reference measured in the same run is one exact heads-up
round_odds call on the infinite shoe (memo emptied).

Run: python bench/bench_bank.py; python bench/bench_bank.py --table for the
table as it is played (N = 6 on one pack with stakes 100 and a capital of
20,000 over 200 rounds: target under 5 s and 300 MB; the exact N = 2
distribution on 8 and 27 packs), each command in a process of its own, its
CPU time reported beside the wall time (the machine's 2 cores are shared).

python bench/bench_bank.py --mixed: a card room's night, seven players on six
packs over 300 rounds with a target ruin of 1%, at stakes of 100 to 500 against
the same table at 500 each, measured in the same run (target: the mixed table
at most 10 s of CPU and 300 MB); then a 1/2 stake beside 275 on the infinite
shoe, whose lattice is too fine and whose ruin and capital are brackets.
"""

from __future__ import annotations

import resource
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from odds import BUILTIN, CapRule, Session, Shoe, round_odds  # noqa: E402
from odds.exact.engine import _MEMO  # noqa: E402
from odds.money.bank import bank_round  # noqa: E402
from odds.money.ruin import ruin_by_capital, session_risk  # noqa: E402
from odds.money.target import capital_for_target  # noqa: E402


def best_of(func, repeat: int = 5) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_cli(args: list[str]) -> tuple[float, float, float]:
    """One ``lucky9`` run in a process of its own: (wall s, CPU s, peak RSS MB)."""
    import os
    import subprocess

    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"lucky9 {' '.join(args)} failed: {proc.stderr.read().decode()}"
                         if proc.stderr else "failed")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def table_runs() -> None:
    """The table as it is played: whole commands, each in a process of its own."""
    ref = run_cli(["odds", "--decks", "8"])
    print(f"reference: lucky9 odds --decks 8 in its own process: {ref[0]:.2f} s wall, "
          f"{ref[1]:.2f} s CPU, {ref[2]:.0f} MB peak RSS")
    print("wall / CPU seconds (ratio of CPU to the reference's), peak RSS; target in brackets")
    cases = [
        ("bank N = 6, stakes 100, capital 20,000, 200 rounds, 1 pack",
         ["bank", "--players", "6", "--decks", "1", "--stakes", "100", "--capital", "20000",
          "--rounds", "200"], 5.0),
        ("bank N = 2 exact distribution, 8 packs",
         ["bank", "--players", "2", "--decks", "8"], 10.0),
        ("bank N = 2 exact distribution, 27 packs (the exact bound)",
         ["bank", "--players", "2", "--decks", "27"], 10.0),
    ]
    for label, args, target in cases:
        wall, cpu, rss = run_cli(args)
        verdict = "ok" if cpu < target and rss < 300 else "OVER"
        print(f"  {label:<58} {wall:6.2f} / {cpu:6.2f} s  x{cpu / ref[1]:5.1f}  {rss:5.0f} MB  "
              f"[< {target:g} s CPU, < 300 MB: {verdict}]")


def mixed_runs() -> None:
    """Mixed stakes against equal stakes, each command in a process of its own."""
    night = ["bank", "--decks", "6", "--players", "7", "--rounds", "300", "--target-ruin", "0.01"]
    equal = run_cli([*night, "--stakes", "500"])
    mixed = run_cli([*night, "--stakes", "100,200,300,400,500,500,500"])
    print("a card room's night: 7 players, 6 packs, 300 rounds, capital for a 1% ruin")
    print(f"  stakes 500 each (reference)    {equal[0]:6.2f} s wall {equal[1]:6.2f} s CPU  "
          f"{equal[2]:5.0f} MB")
    verdict = "ok" if mixed[1] <= 10 and mixed[2] <= 300 else "OVER"
    print(f"  stakes 100,200,300,400,500 x3  {mixed[0]:6.2f} s wall {mixed[1]:6.2f} s CPU  "
          f"{mixed[2]:5.0f} MB  x{mixed[1] / equal[1]:.2f} the reference's CPU  "
          f"[<= 10 s CPU, <= 300 MB: {verdict}]")
    half = run_cli(["bank", "--decks", "inf", "--stakes", "275,1/2", "--capital", "3000",
                    "--rounds", "50", "--target-ruin", "0.01"])
    print(f"  stakes 275 and 1/2, inf shoe, capital 3,000, 50 rounds (bracketed): "
          f"{half[0]:.2f} s wall {half[1]:.2f} s CPU {half[2]:.0f} MB")


def main() -> None:
    if "--table" in sys.argv:
        table_runs()
        return
    if "--mixed" in sys.argv:
        mixed_runs()
        return
    inf = Shoe.infinite_shoe()

    def reference():  # type: ignore[no-untyped-def]
        _MEMO.clear()
        return round_odds(BUILTIN["standard"], inf)

    ref, _ = best_of(reference)
    print(f"reference: round_odds(standard, inf), memo emptied: {ref:.4f} s")
    print("seconds, best / median of 5; ratio = best / reference; target in brackets")

    def show(label: str, func, target: float) -> None:  # type: ignore[no-untyped-def]
        best, median = best_of(func)
        verdict = "ok" if best < target else "SLOW"
        print(f"  {label:<58} {best:.4f} / {median:.4f}  x{best / ref:6.1f}  "
              f"[< {target:g} s: {verdict}]")

    for key in ("standard", "super9", "plain"):
        show(f"{key}: N = 8, infinite shoe, exact distribution",
             lambda key=key: bank_round(BUILTIN[key], inf, Session(players=8)), 1.0)
    show("N = 8, stakes 1..8, bonus_cap 2, round_cap 10 pro-rata",
         lambda: bank_round(BUILTIN["standard"], inf, Session(
             stakes=tuple(Fraction(i) for i in range(1, 9)), bonus_cap=2,
             round_cap=Fraction(10), cap_rule=CapRule.PRO_RATA)), 5.0)
    dist = bank_round(BUILTIN["standard"], inf, Session(players=8)).distribution
    show("ruin within 100 rounds, every capital 0..1,000 (N = 8)",
         lambda: ruin_by_capital(dist, 100, 1000), 2.0)
    show("ruin in 100 rounds from capital 1,000, and result (N = 8)",
         lambda: session_risk(dist, 1000, 100), 2.0)
    show("capital for 1% ruin within 100 rounds (N = 8)",
         lambda: capital_for_target(dist, 100, Fraction(1, 100)), 2.0)
    show("N = 1, 8 packs, exact distribution (heads-up, engine)",
         lambda: bank_round(BUILTIN["standard"], Shoe.packs_of(8), Session(players=1)), 3.0)
    show("N = 3, 8 packs, estimate from 20,000 rounds",
         lambda: bank_round(BUILTIN["standard"], Shoe.packs_of(8), Session(players=3)), 5.0)
    print(f"peak RSS: {rss_mb():.0f} MB")


if __name__ == "__main__":
    main()
