"""Every Python the project declares is named in the README and tested by CI."""

from __future__ import annotations

import re
import tomllib

from tests.paths import ROOT


def declared() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    versions = [c.rsplit(" :: ", 1)[1] for c in project["classifiers"]
                if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    assert project["requires-python"] == f">={versions[0]}"
    return versions


def test_ci_tests_every_declared_python() -> None:
    versions = declared()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    loop = re.search(r"^for v in ([0-9. ]+); do$", ci, re.M)
    assert loop is not None
    # The lowest runs the whole suite (the README's command, CI's last line); the others
    # run the fast tests, skipped with a note where the machine lacks them.
    assert loop[1].split() == versions[1:]
    assert "is not installed here: its fast tests are skipped" in ci


def test_the_readme_names_every_declared_python() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(line for line in readme.splitlines() if line.startswith("Set up and run"))
    assert re.findall(r"3\.\d+", line) == declared()
