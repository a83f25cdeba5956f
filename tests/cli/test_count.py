"""count's work is bounded before it starts, and a signal stops every worker.

--jobs 100000 starts no processes, --jobs 2
stops at Ctrl-C and SIGTERM within seconds (workers included), --shoes 10^12
is refused before any memory is taken.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from tests.paths import ROOT

CLI = str(ROOT / "cli.py")


def _children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True,
                         text=True)
    return [int(p) for p in out.stdout.split()]


def test_count_jobs_100000_is_refused_before_any_process_starts() -> None:
    out = CliRunner().invoke(main, ["count", "--decks", "1", "--shoes", "2", "--jobs", "100000"])
    assert out.exit_code == 2
    assert "--jobs" in out.output and "64" in out.output


def test_count_shoes_10_to_the_12_is_refused_before_any_memory_is_taken() -> None:
    out = CliRunner().invoke(main, ["count", "--decks", "8", "--shoes", str(10**12)])
    assert out.exit_code == 2
    assert "--shoes" in out.output and "1000000000" in out.output.replace(",", "")


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_count_jobs_2_stops_at_a_signal_with_its_workers(sig: signal.Signals) -> None:
    proc = subprocess.Popen(
        [sys.executable, CLI, "count", "--decks", "8", "--shoes", "1000000", "--jobs", "2",
         "--seed", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while len(_children(proc.pid)) < 2:  # the pool's workers are running
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.1)
    time.sleep(1.0)
    workers = _children(proc.pid)
    sent = time.monotonic()
    proc.send_signal(sig)
    try:
        proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()  # no process or pipe left behind for the next test
        proc.communicate()
        for w in workers:
            subprocess.run(["kill", "-9", str(w)], capture_output=True)
        pytest.fail("count --jobs 2 did not stop within 30 s of the signal")
    took = time.monotonic() - sent
    assert took < 10, f"count took {took:.1f} s to stop"
    # click's Ctrl-C: "Aborted!", exit 1; SIGTERM: 128 + 15, as every command
    assert proc.returncode == (1 if sig == signal.SIGINT else 128 + signal.SIGTERM), proc.returncode
    time.sleep(0.5)
    alive = [w for w in workers if Path(f"/proc/{w}").exists()
             and "Z" not in Path(f"/proc/{w}/stat").read_text().split()[2]]
    assert alive == [], "workers left running"
