"""The README's test command lists what it skipped, one line per reason, with a count."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.paths import ROOT


def test_the_skipped_tests_are_listed_by_reason(tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text(
        "import pytest\n\n@pytest.mark.slow\ndef test_long():\n    pass\n\n"
        "def test_dot_a():\n    pytest.skip('dot missing')\n\n"
        "def test_dot_b():\n    pytest.skip('dot missing')\n\n"
        "def test_short():\n    pass\n")
    (tmp_path / "conftest.py").write_text((ROOT / "conftest.py").read_text())
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    slow: long\n")

    def run(slow: str) -> str:
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               "-p", "no:xdist", "-p", "no:randomly", "test_x.py"],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120,
                              env={k: v for k, v in {**os.environ, "LUCKY9_SLOW": slow,
                                                     "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}.items()
                                   if v})
        return done.stdout

    lines = run("").splitlines()
    at = next(i for i, line in enumerate(lines) if "skipped, by reason" in line)
    assert lines[at + 1:at + 3] == ["    2  dot missing",
                                    "    1  slow: runs in CI; LUCKY9_SLOW=1 runs it here"]
    assert "1 passed, 3 skipped" in lines[-1]
    everything = run("1")
    assert "2  dot missing" in everything and "slow: runs in CI" not in everything


def test_halve_runs_one_case_in_two_by_default_and_keeps_ids_and_marks() -> None:
    import pytest

    from tests.examples import halve

    cases = halve("a, b", [(1, 2), pytest.param(3, 4, id="x", marks=pytest.mark.xfail), (5, 6)])
    assert cases[0] == (1, 2) and cases[2] == (5, 6)
    assert cases[1].values == (3, 4) and cases[1].id == "x"
    assert [m.name for m in cases[1].marks] == ["xfail", "slow"]
    single = halve("shoe", [(1, 2), (3, 4)])  # one argument whose values are tuples
    assert single[1].values == ((3, 4),) and [m.name for m in single[1].marks] == ["slow"]
    assert halve("k", "abc", keep=3)[0] == "a" and halve("k", "abcd", keep=3)[3] == "d"
