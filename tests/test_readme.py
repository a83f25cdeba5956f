"""The README's set-up commands and examples stay true."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_ci_runs_the_readme_test_command() -> None:
    commands = re.findall(r"```sh\n(.*?)\n```", README, re.S)
    assert len(commands) >= 2
    assert commands[0].endswith("lucky9 odds")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert ci == commands[1]


def test_readme_odds_example_is_current() -> None:
    block = README.split("$ lucky9 odds\n", 1)[1].split("\n```", 1)[0]
    out = CliRunner().invoke(main, ["odds"]).output.rstrip()
    assert block == out


def test_readme_profiles_listing_is_current() -> None:
    # The built-in profiles' keys and titles, as `lucky9 profiles` prints them.
    block = README.split("$ lucky9 profiles\n", 1)[1].split("\n```", 1)[0]
    block = block.split("\n\n$ ", 1)[0]  # the next command of the same block
    out = CliRunner().invoke(main, ["profiles"]).output.rstrip()
    assert block == out
