"""The README's test command lists what it skipped, one line per reason, with a count."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_slow_tests_skip_by_default_and_run_in_ci(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import os
    import subprocess
    import sys

    (tmp_path / "test_x.py").write_text(
        "import pytest\n\n@pytest.mark.slow\ndef test_long():\n    pass\n\n"
        "def test_short():\n    pass\n")
    (tmp_path / "conftest.py").write_text((ROOT / "conftest.py").read_text())
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    slow: long\n")

    def outcome(env: dict[str, str], *extra: str) -> str:
        # Only the conftest is under test: no third-party plugins (a second a run saved).
        env = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", **env}
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                               "-p", "no:xdist", "-p", "no:randomly", *extra, "test_x.py"],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120,
                              env={k: v for k, v in {**os.environ, **env}.items() if v})
        return done.stdout

    default = outcome({"LUCKY9_SLOW": ""})
    assert "1 passed, 1 skipped" in default and "LUCKY9_SLOW=1 runs it" in default, default
    assert "2 passed" in outcome({"LUCKY9_SLOW": "1"})
    assert "1 passed, 1 deselected" in outcome({"LUCKY9_SLOW": ""}, "-m", "slow")


def test_ci_runs_the_slow_tests() -> None:
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert "export LUCKY9_SLOW=1" in lines[:-1]


@pytest.mark.slow  # two pytest sessions (about 20 s); CI, where the tools are, runs it
def test_without_dot_or_chromium_checks_skip_with_a_reason_or_fail_when_required(
        tmp_path) -> None:  # type: ignore[no-untyped-def]
    import os
    import subprocess
    import sys

    empty = tmp_path / "bin"  # a PATH with neither dot nor chromium (nor anything else)
    empty.mkdir()
    page = (ROOT / "docs" / "tree-and-conditional.md").read_text(encoding="utf-8").splitlines()
    svg = next(i for i, line in enumerate(page, 1) if line.startswith("$ lucky9 tree")
               and "--format svg" in line)  # the transcript's id is its line on the page
    chosen = ["tests/report/test_tables.py", "tests/report/test_tree_export.py",
              "tests/project/test_docs.py", "-k",
              f"one_a4_page[standard] or svg_with_dot or tree-and-conditional.md:{svg}"]

    def pytest_run(required: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PATH": str(empty), "LUCKY9_REQUIRE_TOOLS": required}
        return subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-n", "0",
                               "-p", "no:cacheprovider", *chosen], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=300)

    plain = pytest_run("")
    assert plain.returncode == 0 and "3 skipped" in plain.stdout, plain.stdout[-2000:]
    for reason in ("no headless chromium", "Graphviz 'dot' is not installed",
                   "an SVG transcript needs Graphviz's dot"):
        assert reason in plain.stdout, (reason, plain.stdout[-2000:])
    strict = pytest_run("1")
    assert strict.returncode == 1 and "3 failed" in strict.stdout, strict.stdout[-2000:]
