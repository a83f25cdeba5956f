"""A pytest plugin for bench/bench_memory.py: each test process's peak RSS after every test.

Loaded with ``-p rss_plugin`` (bench/ on PYTHONPATH).  Every test process
(each xdist worker) appends ``{"worker", "test", "peak_kb", "test_peak_kb",
"now_kb"}`` lines (the process's peak so far, the test's own peak and the
resident memory after the test) to a file in the
folder named by ``LUCKY9_RSS_DIR``.  With ``LUCKY9_RSS_TRIM=1`` it first
collects garbage and hands free heap back to the system (glibc's
``malloc_trim``), so "now" is the memory still in use.
"""

from __future__ import annotations

import json
import os
import resource
from pathlib import Path
from typing import Any


def _high_water_kb() -> int:
    """This process's peak RSS since exec (VmHWM), in KB; ru_maxrss where /proc is missing.

    Not ru_maxrss first: Linux carries a parent's high-water mark into a child
    forked from it, so a worker would report its parent's peak if that were higher.
    """
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def pytest_runtest_logfinish(nodeid: str, location: Any) -> None:
    folder = os.environ.get("LUCKY9_RSS_DIR")
    if not folder:
        return
    if os.environ.get("LUCKY9_RSS_TRIM"):  # what is live, not what the allocator keeps
        import ctypes
        import gc

        gc.collect()
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    test_peak = _high_water_kb()
    _PEAK[0] = max(_PEAK[0], test_peak)
    with open("/proc/self/statm") as statm:  # resident pages now (Linux)
        now = int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with (Path(folder) / f"{worker}.jsonl").open("a") as out:
        out.write(json.dumps({"worker": worker, "test": nodeid, "peak_kb": _PEAK[0],
                              "test_peak_kb": test_peak, "now_kb": now}) + "\n")
    _reset_high_water()


_PEAK = [0]  # this process's peak over all its tests so far, in KB


def _reset_high_water() -> None:
    """Start the next test's high-water mark at the memory resident now (Linux 4.0+).

    Then each test's own peak is known, not only the tests that raised the
    process's peak.  Where it cannot be reset, a test's peak is the process's.
    """
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
    except OSError:
        pass
