"""Time the whole ``lucky9 tables`` run (target: under 60 s on one core).

Run from the repository root: ``python bench/bench_tables.py``.  Prints the
wall-clock and CPU time of :func:`odds.report.tables.write_tables` into a temporary
folder (the run is single-threaded, so CPU time is one core's time; on a
busy machine wall time is longer), and how many enumerations it needed.
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from odds.exact import engine  # noqa: E402
from odds.report.table_files import table_steps, write_tables


def main() -> None:
    calls = 0
    engine_calls = 0
    import odds.report.tables

    real, real_engine = odds.report.tables._enumerate, engine.round_odds

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        return real(*args, **kwargs)

    def counted_engine(*args, **kwargs):  # type: ignore[no-untyped-def]
        nonlocal engine_calls
        engine_calls += 1
        return real_engine(*args, **kwargs)

    odds.report.tables._enumerate = counted  # type: ignore[assignment]
    odds.report.tables.round_odds = counted_engine  # type: ignore[attr-defined]
    steps = 0

    def step(_label: str) -> None:
        nonlocal steps
        steps += 1

    with tempfile.TemporaryDirectory() as tmp:
        wall, cpu = time.perf_counter(), time.process_time()
        files = write_tables(Path(tmp) / "tables", progress=step)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert steps == table_steps()
    print(f"lucky9 tables, whole set: {len(files)} files, {steps} profile/shoe pages")
    print(f"  enumerations: {calls}, of them by round_odds (rules with choices): {engine_calls}; "
          "the others by the batch engine")
    print(f"  wall time: {wall:.1f} s")
    print(f"  CPU time (one core): {cpu:.1f} s   target < 60 s: {'ok' if cpu < 60 else 'MISSED'}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  peak RSS: {peak:.0f} MB   target < 300 MB (issue 10): {'ok' if peak < 300 else 'MISSED'}")


if __name__ == "__main__":
    main()
