"""The start of a command: `lucky9 odds` imports only what answers one round."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT

# Run the command in a fresh interpreter, then list the package's modules it imported.
PROBE = """
import json, sys
import cli
try:
    cli.main(sys.argv[1:], standalone_mode=False)
finally:
    sys.stdout.flush()
    print(json.dumps(sorted(m for m in sys.modules if m == "odds" or m.startswith("odds."))),
          file=sys.stderr)
"""

# What decides which question a round is (odds.game.questions, which raises
# odds.game.errors' GameError); the game builders and solvers answer games, which a
# fixed-rule profile is not.
GAME_DECIDES = {"odds.game", "odds.game.errors", "odds.game.questions"}


def imported(*args: str, env: dict[str, str] | None = None) -> list[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True,
                          cwd=ROOT, check=True, env=env)
    return list(json.loads(done.stderr.strip().splitlines()[-1]))


@pytest.mark.parametrize("profile", ["standard", "punto-banco"])
def test_odds_imports_no_bank_no_simulator_no_solver(profile: str) -> None:
    modules = imported("odds", "--profile", profile, env={**os.environ, "LUCKY9_NO_CACHE": "1"})
    assert not [m for m in modules if m.startswith(("odds.money", "odds.sim", "odds.exact.bets",
                                                    "odds.rules.bets"))], modules
    assert {m for m in modules if m.split(".")[:2] == ["odds", "game"]} <= GAME_DECIDES, modules
    assert "odds.exact.engine" in modules  # the probe sees what the command imported


def test_odds_from_the_disk_cache_imports_no_engine(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    env.pop("LUCKY9_NO_CACHE", None)
    assert "odds.exact.engine" in imported("odds", "--decks", "2", env=env)  # counted, stored
    modules = imported("odds", "--decks", "2", env=env)
    assert "odds.exact.round_cache" in modules and "odds.exact.engine" not in modules, modules


def test_the_package_root_imports_names_on_first_use() -> None:
    probe = ("import sys, odds; before = sorted(m for m in sys.modules if m.startswith('odds.'));"
             "odds.solve_game; odds.bank_study;"
             "print(before, 'odds.game.solve' in sys.modules, 'odds.money.session' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT,
                          check=True)
    assert done.stdout.split() == ["['odds._version']", "True", "True"], done.stdout
    import odds

    assert set(odds.__all__) <= set(dir(odds))
    for name in odds.__all__:
        assert getattr(odds, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        odds.nothing  # noqa: B018


def test_help_lists_every_command_without_importing_one() -> None:
    modules = imported("--help")
    assert not [m for m in modules if m.startswith("odds.cli.")
                and m not in ("odds.cli.common", "odds.cli.progress")], modules


def test_the_static_short_help_is_each_commands_own() -> None:
    import click

    from odds.cli import LAZY, SHORT_HELP, main

    ctx = click.Context(main)
    assert set(SHORT_HELP) == set(LAZY) == set(main.list_commands(ctx))
    for name, text in SHORT_HELP.items():
        command = main.get_command(ctx, name)
        assert command is not None and not command.hidden
        assert text == command.get_short_help_str(10**6), name


def test_help_reads_as_click_writes_it_from_the_commands() -> None:
    import click

    from odds.cli import main

    ctx = click.Context(main, info_name="lucky9")
    ours = main.get_help(ctx)
    formatter = ctx.make_formatter()
    click.Group.format_commands(main, ctx, formatter)  # loads every command, as click would
    assert ours.endswith(formatter.getvalue().rstrip("\n")), (ours, formatter.getvalue())
