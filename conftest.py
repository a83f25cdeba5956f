"""Test session set-up for every test path (tests/, the doctests of odds/, docs/, README.md).

The batch engine stores its rules tables in the user's cache folder
(odds/exact/table_cache.py).  Tests must never write into the real home, so
each test process points ``XDG_CACHE_HOME`` at a folder of its own,
removed at the end; CLI runs in subprocesses inherit it.  The suite then
also exercises the disk cache: a table built by one test is read back by
the next.
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

_SAVED: dict[str, str | None] = {}


def pytest_configure(config: pytest.Config) -> None:
    for name in ("XDG_CACHE_HOME", "LUCKY9_NO_CACHE"):
        _SAVED[name] = os.environ.get(name)
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="lucky9-test-cache-")
    os.environ.pop("LUCKY9_NO_CACHE", None)


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = os.environ.get("XDG_CACHE_HOME")
    if folder and os.path.basename(folder).startswith("lucky9-test-cache-"):
        shutil.rmtree(folder, ignore_errors=True)
    for name, value in _SAVED.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
