"""The command line's package: commands loaded when asked for, and cli.py only starts it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
from click.testing import CliRunner

import cli
import odds.cli
from odds.cli import LAZY, main

ROOT = Path(__file__).resolve().parents[2]


def test_every_command_is_listed_and_loads_under_its_name() -> None:
    ctx = click.Context(main, info_name="lucky9")
    assert main.list_commands(ctx) == sorted(LAZY)
    for name in LAZY:
        command = main.get_command(ctx, name)
        assert command is not None and command.name == name


def test_cli_py_is_the_package_s_entry_point_and_nothing_else() -> None:
    assert cli.main is odds.cli.main and cli.run is odds.cli.run
    public = {name for name in vars(cli) if not name.startswith("__")}
    assert public <= {"main", "run", "annotations"}, public


def test_lucky9_odds_loads_only_its_own_command_module() -> None:
    code = ("import sys; from cli import main; from click.testing import CliRunner; "
            "assert CliRunner().invoke(main, ['odds']).exit_code == 0; "
            "print(sorted(m for m in sys.modules if m.startswith('odds.cli.')), "
            "sorted(m for m in ('numpy', 'sympy', 'networkx') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True, timeout=120)
    assert done.stdout.strip() == (
        "['odds.cli.common', 'odds.cli.odds_cmd', 'odds.cli.options', 'odds.cli.progress'] []")


def test_python_m_odds_runs_the_package() -> None:
    done = subprocess.run([sys.executable, "-m", "odds", "--version"], cwd=ROOT,
                          capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.startswith("lucky9, version ")


def test_a_library_error_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["shoe", "--decks", "1"])
    assert result.exit_code == 2
    assert "give --cards FILE (the cards dealt) or --seed S (shuffle one)" in result.output
