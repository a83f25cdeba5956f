"""Help screens: sections, only the options a command accepts, examples that paste."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from cli import main
from tests.paths import ROOT

CONTEXT = click.Context(main, info_name="lucky9")
COMMANDS = main.list_commands(CONTEXT)


def command_named(name: str) -> click.Command:
    """The command (the group loads its module when first asked)."""
    command = main.get_command(CONTEXT, name)
    assert command is not None, name
    return command


def help_text(*args: str) -> str:
    result = CliRunner().invoke(main, [*args, "--help"], terminal_width=80)
    assert result.exit_code == 0, result.output
    return result.output


def examples(command: str) -> list[str]:
    """The help's example commands, a line ending in a backslash joined to the next."""
    found: list[str] = []
    going = False
    for line in help_text(command).splitlines():
        text = line.strip()
        if going:
            found[-1] = found[-1][:-1] + " " + text
        elif text.startswith("lucky9 "):
            found.append(text)
        going = bool(found) and found[-1].endswith("\\") and (going or text.startswith("lucky9 "))
    return found


@pytest.mark.parametrize("command", COMMANDS)
def test_every_help_example_parses_as_pasted(command: str) -> None:
    found = examples(command)
    assert found or command in ("profiles", "tables"), f"'lucky9 {command} --help' shows no example"
    for line in found:
        words = shlex.split(line)
        assert words[:2] == ["lucky9", command], line
        ctx = command_named(command).make_context(command, words[2:], resilient_parsing=False)
        ctx.close()


def test_a_bad_example_would_fail() -> None:
    with pytest.raises(click.UsageError):
        command_named("odds").make_context("odds", ["--decks", "8", "(the", "EV", "now)"])


@pytest.mark.parametrize("command", [c for c in COMMANDS if "--naturals" in help_text(c)])
def test_rule_options_have_their_own_headings_after_the_commands_own(command: str) -> None:
    text = help_text(command)
    own, shoe, rules = (text.index("\nOptions:"), text.index("\nProfile and shoe:"),
                        text.index("\nRule options"))
    assert own < shoe < rules
    assert "  --naturals [" in text[rules:] and "  --naturals [" not in text[:rules]
    assert "--help" in text[own:shoe]


@pytest.mark.parametrize("command", ["solve", "play"])
def test_the_game_commands_do_not_offer_what_they_refuse(command: str) -> None:
    text = help_text(command)
    for flag in ("--banker-pays", "--tie-pays", "--colon ", "--colon-nine", "--bonus-on", "--bank-bonus"):
        assert flag not in text, flag
    assert "--player-draw" in text
    result = CliRunner().invoke(main, [command, "--colon", "2"])
    assert result.exit_code == 2 and "No such option '--colon'" in result.output


def test_verify_profile_has_no_misleading_default() -> None:
    text = help_text("verify")
    profile = text[text.index("--profile PROFILE"):text.index("--decks, --packs D")]
    assert "default: standard]" not in profile and "file's header" in profile
    assert "docs/simulate-and-verify.md" in text


def test_profile_names_are_case_insensitive_and_complete() -> None:
    result = CliRunner().invoke(main, ["odds", "--profile", "Punto-Banco", "--format", "json"])
    assert result.exit_code == 0 and '"profile": "punto-banco"' in result.output
    param = next(p for p in command_named("odds").params if p.name == "profile")
    ctx = command_named("odds").make_context("odds", [], resilient_parsing=True)
    names = [item.value for item in param.shell_complete(ctx, "p")]
    assert names == ["plain", "punto-banco"]
    assert [item.type for item in param.shell_complete(ctx, "my")] == ["file"]


def test_help_fits_a_terminal() -> None:
    for command in COMMANDS:
        assert max(map(len, help_text(command).splitlines())) <= 80, command
    assert re.search(r"Commands:\n", help_text())


def test_a_big_tree_in_json_is_not_poured_into_a_terminal(monkeypatch, tmp_path) -> None:
    from odds.cli import tree as tree_commands

    monkeypatch.setattr(tree_commands, "_stdout_is_terminal", lambda: True)
    result = CliRunner().invoke(main, ["tree", "--format", "json"])
    assert result.exit_code == 2
    assert "20,643 nodes" in result.output and "give -o FILE" in result.output
    small = CliRunner().invoke(main, ["tree", "--format", "json", "--depth", "1"])
    assert small.exit_code == 0 and small.output.startswith("{")


@pytest.mark.slow  # the whole tree twice (15 MB); the refusal above is its fast twin
def test_a_big_tree_in_json_goes_whole_to_a_file_or_a_pipe(tmp_path) -> None:
    out = CliRunner().invoke(main, ["tree", "--format", "json", "-o", str(tmp_path / "t.json")])
    assert out.exit_code == 0 and (tmp_path / "t.json").stat().st_size > 1_000_000
    # A pipe (here a file as standard output) gets everything: the same bytes as -o.
    # In a process of its own: captured by CliRunner, the 15 MB of text were held
    # three times over in this test process.
    with (tmp_path / "piped.json").open("wb") as piped:
        done = subprocess.run([sys.executable, str(ROOT / "cli.py"), "tree", "--format", "json"],
                              stdout=piped, stderr=subprocess.PIPE, check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "piped.json").read_bytes() == (tmp_path / "t.json").read_bytes()


@pytest.mark.parametrize("command", COMMANDS)
def test_no_help_shows_an_unbounded_range_as_none(command: str) -> None:
    # click printed "[x<=None]" for an integer option with neither bound.
    assert "None]" not in help_text(command)
    assert "<=None" not in help_text(command)


def test_a_bounded_integer_option_still_shows_its_range() -> None:
    assert "1<=x<=8]" in help_text("solve")


SEATED = ["bank", "payout", "solve", "play", "simulate", "verify", "shoe"]


@pytest.mark.parametrize("command", SEATED)
def test_every_seated_command_takes_both_seats_and_players(command: str) -> None:
    """One flag for the player seats: --seats and --players name the same option."""
    text = CliRunner().invoke(main, [command, "--help"], terminal_width=200).output
    line = next(ln for ln in text.splitlines() if "--seats" in ln and "--players" in ln)
    assert line.lstrip().startswith(("--seats, --players", "--players, --seats")), line


@pytest.mark.parametrize(("command", "args"), [
    ("simulate", ["--rounds", "200", "--seed", "3", "--format", "json"]),
    ("payout", ["--format", "json"]),
])
def test_seats_and_players_give_the_same_result(command: str, args: list[str]) -> None:
    runs = [CliRunner().invoke(main, [command, flag, "3", *args]) for flag in ("--seats", "--players")]
    assert [r.exit_code for r in runs] == [0, 0], runs[0].output
    assert runs[0].output == runs[1].output


def test_packs_is_another_name_of_decks_on_every_command() -> None:
    """--decks counts 52-card packs; --packs is the same option, wherever --decks is."""
    for name in main.list_commands(click.Context(main)):
        text = CliRunner().invoke(main, [name, "--help"], terminal_width=200).output
        if "--decks" in text:
            assert "--decks, --packs" in text, name
    runs = [CliRunner().invoke(main, ["odds", flag, "2", "--format", "json"])
            for flag in ("--decks", "--packs")]
    assert runs[0].exit_code == 0 and runs[0].output == runs[1].output
