"""The README's set-up commands stay true (its transcripts: tests/project/test_docs.py)."""

from __future__ import annotations

import re
import tomllib

from odds._version import __version__
from tests.paths import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_ci_runs_the_readme_test_command() -> None:
    commands = re.findall(r"```sh\n(.*?)\n```", README, re.S)
    assert len(commands) >= 2
    assert commands[0].endswith("lucky9 odds")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert ci == commands[1]
    assert "-n auto" in ci  # pytest-xdist: the suite uses every core


def test_readme_first_screen_links_the_rules_and_defines_colon() -> None:
    first_screen = "\n".join(README.splitlines()[:25])
    assert "(docs/rules.md)" in first_screen
    assert README.index("**Colon**") < README.index("P(Colon)")
    assert "../shared" not in README


def test_license_matches_pyproject() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == {"text": "MIT"}
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert "pytest-xdist" in " ".join(project["optional-dependencies"]["test"])
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert project["dynamic"] == ["version"]  # read from odds/_version.py, the one home
    assert f"## [{__version__}]" in changelog or "## [Unreleased]" in changelog
