"""Every script in bench/ still loads: a benchmark that no longer runs is a figure nobody can check.

The benches are not run here (they take minutes and print timings), but each
is imported as ``python bench/NAME.py`` would load it, so an import the
code has moved away from fails the suite: bench_tables.py and bench_tree.py
still read ``from odds import engine`` a round after the layout moved the
engine to ``odds.exact``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT

BENCH = ROOT / "bench"
SCRIPTS = sorted(BENCH.glob("*.py"))


def test_the_benches_are_found() -> None:
    assert {"bench_batch.py", "bench_memory.py", "bench_tables.py", "bench_tree.py"} <= {
        path.name for path in SCRIPTS}


@pytest.mark.parametrize("path", SCRIPTS, ids=[path.name for path in SCRIPTS])
def test_bench_script_loads(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCH))  # as when run: its own folder first
    name = f"_bench_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    # A bench is run as a script: it has a main() (the pytest plugin has hooks).
    assert callable(getattr(module, "main", None)) or path.name == "rss_plugin.py"
