"""Test session set-up for every test path (tests/, the doctests of odds/, docs/, README.md).

The batch engine stores its rules tables in the user's cache folder
(odds/exact/table_cache.py).  Tests must never write into the real home, so
the test session points ``XDG_CACHE_HOME`` at a folder of its own, removed
at the end; its test processes (xdist workers) and CLI runs in subprocesses
inherit it.  The suite then also exercises the disk cache: a table built by
one test, in either process, is read back by the next (files are written
whole, so two processes filling one entry at once leave one whole file).

A test process runs some 800 tests, where a command runs one job: so that its
memory stays that of a job (under 300 MB; ``bench/bench_memory.py``
measures it), the library's caches of rules tables and draw stages are
emptied after every test (a table is read back from the disk cache in some
40 ms) and the verifier's table when a test file ends; click's cache of wrapped
streams after every test (see :func:`_forget_click_streams`); and the heap
that C's allocator keeps after a test frees it is handed back to the system
(:func:`_hand_back`): measured, a worker kept 320-390 MB resident after its
800 tests, 190-225 MB with it.

Before the tests, the main process has processes of their own do two one-off
jobs that used to land in whichever test process came first: the rules
tables of the built-in profiles, into the session's disk cache
(:func:`_fill_table_cache`), and hypothesis's table of the code points UTF-8
encodes (:func:`_warm_hypothesis`; 200 MB at its peak).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

import pytest

_SAVED: dict[str, str | None] = {}


_PREFIX = "lucky9-test-cache-"


def _session_folder() -> str | None:
    """The cache folder the session's main process made, in a worker it started; else None."""
    folder = os.environ.get("XDG_CACHE_HOME", "")
    if os.environ.get("PYTEST_XDIST_WORKER") and os.path.basename(folder).startswith(_PREFIX):
        return folder
    return None


def pytest_configure(config: pytest.Config) -> None:
    for name in ("XDG_CACHE_HOME", "LUCKY9_NO_CACHE", "PYTHONDONTWRITEBYTECODE",
                 "PYTHONPYCACHEPREFIX"):
        _SAVED[name] = os.environ.get(name)
    if _session_folder() is None:
        os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix=_PREFIX)
        _write_bytecode(os.environ["XDG_CACHE_HOME"])
    os.environ.pop("LUCKY9_NO_CACHE", None)
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        _warm_hypothesis()
        _fill_table_cache()


# The two preparing processes run side by side while the tests are collected (some
# 4 s a process: the package, sympy and the test modules); the tests start once they
# are done.  In a run with test processes (xdist) the main process waits when a
# test process has collected, before any test is sent; in a run without, after the
# collection.
@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: Any, ids: list[str]) -> None:
    _wait_apart()


def pytest_collection_finish(session: pytest.Session) -> None:
    _wait_apart()
    _freeze()


# Hypothesis's first text strategy in a checkout tabulates which of the 1.1
# million code points UTF-8 encodes (a list of 1.1 million pairs) and stores
# the result under .hypothesis/.  A test process that did it peaked some 200 MB
# higher (a worker at 376 MB, measured, in a fresh clone): the main process has
# a process of its own do it first, and every test process reads the stored table.
_WARM = (
    "from hypothesis import given, settings, strategies as st\n"
    "given(st.text(max_size=1))(settings(max_examples=1, database=None)(lambda s: None))()\n"
)


# Where PYTHONDONTWRITEBYTECODE is set (some machines set it for every process), every
# process of the run (the test processes, each command a test runs in a process of its
# own, a Dask cluster's workers) compiled the package, and pytest rewrote every test
# module, again in every run: some 9 s of CPU a test process.  The run's processes write
# their compiled modules as on any other machine instead (``__pycache__`` beside the
# sources, ignored by git), so a second run reads them; the installed packages' own
# compiled modules are read where they are.  A mutation run (bench/mutate.py, which sets
# LUCKY9_MUTATING) rewrites a module in place between test runs, possibly at the same
# size within the same second, so a compiled module kept from one run to the next could
# be another mutant's: its runs' processes write to the session's folder, gone at the end.
def _write_bytecode(folder: str) -> None:
    global _DONT_WRITE
    if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is None:
        return
    if os.environ.get("LUCKY9_MUTATING"):
        os.environ["PYTHONPYCACHEPREFIX"] = os.path.join(folder, "pycache")
        return
    _DONT_WRITE = sys.dont_write_bytecode
    sys.dont_write_bytecode = False  # this process too: its collection writes them


_DONT_WRITE: bool | None = None  # the process's own setting, put back at the end


# The rules tables of the built-in profiles (three rule sets), built into the
# session's disk cache before the tests, by a process of its own (2 s): else the
# first test of each rule set in each test process built it, at some 50 MB
# above that process's memory of the moment.  Tests of the build itself use a
# folder of their own or no cache (tests/exact/test_table_cache.py).
_FILL = (
    "from odds.exact.batch import rules_table\n"
    "from odds.rules.profiles import BUILTIN\n"
    "for profile in BUILTIN.values():\n"
    "    if profile.fixed:\n"
    "        rules_table(profile)\n"
)


def _fill_table_cache() -> None:
    _apart(_FILL, cwd=os.path.dirname(os.path.abspath(__file__)))  # this checkout's odds


def _warm_hypothesis() -> None:
    _apart(_WARM)  # in the session's folder: hypothesis keeps .hypothesis/ there


_APART: list[subprocess.Popen[bytes]] = []


def _apart(code: str, cwd: str | None = None) -> None:
    """Start ``code`` in a Python process of its own (:func:`_wait_apart` waits for it);
    if it fails, the tests do the job as before."""
    try:
        _APART.append(subprocess.Popen([sys.executable, "-c", code], cwd=cwd,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    except OSError:
        pass


def _wait_apart() -> None:
    """Wait for the processes :func:`_apart` started (at most 300 s each; then stopped)."""
    while _APART:
        process = _APART.pop()
        try:
            process.wait(timeout=300)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# Tests marked ``slow`` (the long twins of fast default tests, documentation
# transcripts that take seconds) are skipped, with the reason said, unless
# LUCKY9_SLOW=1 (.ci/run sets it: CI runs everything) or the run asks for them
# by marker (``-m slow``).  What the default run and CI's run cost, and the goals
# they have not met yet: docs/performance.md.
SLOW_ENV = "LUCKY9_SLOW"


def _run_slow(config: pytest.Config) -> bool:
    if os.environ.get(SLOW_ENV) == "1":
        return True
    expression = config.getoption("markexpr", "") or ""
    return "slow" in expression and "not slow" not in expression


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _run_slow(config):
        return
    skip = pytest.mark.skip(reason=f"slow: runs in CI; {SLOW_ENV}=1 runs it here")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)


# The modules every test process imports (sympy, networkx, numpy, hypothesis, the
# library and the collected tests) live for the whole run: once collected, they are
# moved out of the cyclic collector's sight (gc.freeze), so its full collections
# (after a test file, and the interpreter's own) walk only what the tests made.
# Measured on 40 test files in one process: 40 s of collections became 21 s, and
# the peak resident memory did not grow (348 MB before, 337 MB after).
def _freeze() -> None:
    gc.collect()
    gc.freeze()


def pytest_unconfigure(config: pytest.Config) -> None:
    _wait_apart()  # a run that ended before its tests (a collection error)
    folder = os.environ.get("XDG_CACHE_HOME")
    if folder and _session_folder() is None and os.path.basename(folder).startswith(_PREFIX):
        shutil.rmtree(folder, ignore_errors=True)
    for name, value in _SAVED.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    if _DONT_WRITE is not None:
        sys.dont_write_bytecode = _DONT_WRITE


# The engine answers a round asked again from memory (odds.exact.engine: the last
# 16 rounds, some 90 kB each), and that memory is kept from test to test: the
# suite asks some 1,900 rounds, 730 of them again (the standard rules from one
# pack alone 314 times); so are the pair counts of two seats (odds.exact.seats: the
# last 8 shoes; one pack's take 1.5 s).  A test that patches anything (the monkeypatch
# fixture) starts and ends with both empty, so a patched engine or rule is always counted.
def pytest_runtest_setup(item: pytest.Item) -> None:
    _forget_kept_answers_if_patched(item)


def _forget_kept_answers_if_patched(item: pytest.Item) -> None:
    if "monkeypatch" not in getattr(item, "fixturenames", ()):
        return
    for module, forget in (("odds.exact.engine", "clear_rounds"), ("odds.exact.seats", "clear_pairs")):
        if module in sys.modules:
            getattr(sys.modules[module], forget)()


def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    _forget_kept_answers_if_patched(item)
    _forget_click_streams()
    _forget_tables()
    file_end = nextitem is None or nextitem.path != item.path
    if file_end:
        _forget_verifier_table()
    _hand_back()
    if _resident() > _COLLECTED[0] + (FILE_GROWTH if file_end else GROWTH):
        gc.collect()
        _hand_back()
        _COLLECTED[0] = _resident()


# The rules tables and the engine's memo are emptied after every test, though
# reading a table back from the disk cache and checking it is some 40 ms (about
# 30 s of CPU over a run): kept between tests while a process stayed under
# 180 MB, they saved some 3% of the run's time, and a worker's peak went from
# 250 to 392 MB (bench/bench_memory.py), past the 300 MB a test process may take.


# A test's garbage in reference cycles waits for the collector's rare full
# collections: a networkx graph is one (its views refer back to it), and a
# probability tree is 30 MB, so test_tree.py held up to four (+70 MB) at once.
# A full collection costs some 50 ms (12 s of a run when it ran after every
# file): it runs after a test that left the process GROWTH larger than the last
# collection did, or FILE_GROWTH larger when a test file ends.
GROWTH = 16 * 1024 * 1024
FILE_GROWTH = 4 * 1024 * 1024
_COLLECTED = [0]


def _resident() -> int:
    """Resident memory now, in bytes (Linux; 0 elsewhere: then no collection between files)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None (another C library: nothing to do)."""
    name = ctypes.util.find_library("c")
    try:
        trim: Callable[[int], int] = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError, TypeError):
        return None
    return trim


_TRIM = _malloc_trim()


def _hand_back() -> None:
    """Return the free heap to the system (about 10 ms).

    numpy's arrays and the engine's objects are freed to glibc's heap, which
    keeps the pages; over hundreds of tests the freed pages, scattered
    among live ones, held a worker's resident memory at twice its live memory.
    """
    if _TRIM is not None:
        _TRIM(0)


def _forget_click_streams() -> None:
    """Empty click's caches of text streams (click 8.x, ``click._compat``).

    They map a stream to its text wrapper in a ``WeakKeyDictionary``; for a
    stream that needs no wrapper the value is the stream itself, so the entry
    is never dropped.  A command has one stderr; under ``CliRunner`` every
    invocation has its own, and each kept its whole output alive (14 MB over
    tests/cli/test_help.py alone).
    """
    compat = sys.modules.get("click._compat")
    for name in ("_default_text_stdin", "_default_text_stdout", "_default_text_stderr"):
        for cell in getattr(getattr(compat, name, None), "__closure__", None) or ():
            if isinstance(cell.cell_contents, WeakKeyDictionary):
                cell.cell_contents.clear()


def _forget_tables() -> None:
    """The caches a job builds up: rules tables, draw stages."""
    batch = sys.modules.get("odds.exact.batch")
    if batch is not None:
        batch.clear_tables()
    engine = sys.modules.get("odds.exact.engine")
    if engine is not None:
        engine._MEMO.clear()


def _forget_verifier_table() -> None:
    """The verifier's marginal columns (folded from a rules table), kept for a test file."""
    marginals = sys.modules.get("odds.exact.marginals")
    if marginals is not None:
        marginals.clear_margin_tables()


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """What was skipped and why, one line per reason (the README's command lists it)."""
    reasons: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = getattr(report, "longrepr", None)
        text = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
        text = text.removeprefix("Skipped: ")
        reasons[text] = reasons.get(text, 0) + 1
    if reasons:
        terminalreporter.write_sep("-", "skipped, by reason")
        for text, count in sorted(reasons.items(), key=lambda item: -item[1]):
            terminalreporter.write_line(f"{count:5d}  {text}")
