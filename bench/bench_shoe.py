"""Following one 8-pack shoe: the batch engine against round_odds per round; prints figures.

One shuffled 8-pack shoe (seed 1) is dealt to the cut card at 0.8 and the
exact odds of every bet are computed before each round, as `lucky9 shoe`
does.  The reference is today's engine, one round_odds per round (each a new
composition, so its draw-stage memo never helps), timed on a sample of the
rounds and scaled to the whole shoe.  Both in this run, one core.

Run: python bench/bench_shoe.py [--sample 8]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from odds import BUILTIN, Shoe, round_odds  # noqa: E402
from odds.exact.batch import rules_table  # noqa: E402
from odds.exact.deal import shuffled_shoe  # noqa: E402
from odds.exact.rounds import deal_rounds  # noqa: E402
from odds.exact.shoe_follow import follow_shoe  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=8, help="round_odds calls (default 8)")
    args = parser.parse_args()
    shoe = Shoe.packs_of(8)
    for key in ("standard", "punto-banco"):
        profile = BUILTIN[key]
        start = time.perf_counter()
        rules_table(profile)
        build = time.perf_counter() - start
        rounds = deal_rounds(profile, shuffled_shoe(8, 1), 0.8)
        times = []
        for _ in range(3):
            start = time.perf_counter()
            follow = follow_shoe(profile, shoe, rounds)
            times.append(time.perf_counter() - start)
        ours = min(times)
        print(f"{key}: one 8-pack shoe, {len(rounds)} rounds (+ the shoe after the last)")
        print(f"  rules table built once per process: {build:.2f} s")
        print(f"  follow_shoe (batch engine, every bet): {ours * 1000:.1f} ms "
              f"= {ours / (len(rounds) + 1) * 1000:.2f} ms a round")
        seen: list = []
        picks = set(range(0, len(rounds), max(1, len(rounds) // args.sample)))
        spent, n = 0.0, 0
        for k, r in enumerate(rounds):
            if k in picks:
                start = time.perf_counter()
                odds = round_odds(profile, shoe.without(seen) if seen else shoe)
                spent += time.perf_counter() - start
                n += 1
                assert odds.expected_value == follow.evs["player"][k]
            seen += r.cards
        each = spent / n
        whole = each * (len(rounds) + 1)
        print(f"  round_odds on {n} of the rounds: {each * 1000:.0f} ms each, "
              f"so {whole:.1f} s for the shoe (scaled)")
        print(f"  ratio round_odds / follow_shoe: {whole / ours:,.0f}x "
              f"({whole / (ours + build):,.0f}x counting the table build)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS: {peak:.0f} MB")


if __name__ == "__main__":
    main()
