"""Round three of hardening: bounded work, refused input, plain messages, one API."""

from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner

from cli import main
from tests.paths import DATA, ROOT


def _run(*args: str, **kwargs):
    return CliRunner().invoke(main, list(args), **kwargs)


def _usage(result, *words: str) -> str:
    """The run was refused as a usage error, one line naming each of ``words``."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert "Traceback" not in result.output
    text = result.output.strip().splitlines()[-1]
    for word in words:
        assert word in text, (word, result.output)
    return text


# -- item 20: no import cycle inside odds.rules ---------------------------------------------------


def test_item20_no_import_cycle_in_rules() -> None:
    import grimp

    graph = grimp.build_graph("odds", exclude_type_checking_imports=True)
    modules = sorted(m for m in graph.modules if m.startswith("odds.rules."))
    for a in modules:
        for b in modules:
            if a < b and graph.chain_exists(a, b) and graph.chain_exists(b, a):
                pytest.fail(f"import cycle: {a} <-> {b}")
    assert not graph.direct_import_exists(importer="odds.rules.profiles",
                                          imported="odds.rules.bets")


def test_item20_profile_file_bets_still_load(tmp_path) -> None:
    from odds.rules.profiles import load_profile

    path = tmp_path / "p.toml"
    path.write_text('base = "standard"\nbets = ["colon"]\n')
    assert load_profile(path).bets == ("colon",)


# -- item 11: input the docs say is refused ---------------------------------------------------------


@pytest.mark.parametrize("digits", [31, 50, 119])
def test_item11_toml_numbers_of_31_digits_or_more(tmp_path, digits) -> None:
    path = tmp_path / "big.toml"
    path.write_text(f'base = "standard"\n[session]\nplayers = 1{"0" * (digits - 1)}\n')
    _usage(_run("odds", "--profile", str(path)), f"{digits} digits", "at most 30")
    path.write_text(f'base = "standard"\n[session]\nplayers = 1_{"0_" * (digits - 2)}0\n')
    _usage(_run("odds", "--profile", str(path)), f"{digits} digits")


def test_item11_bank_final_and_banker_final_together(tmp_path) -> None:
    path = tmp_path / "both.toml"
    path.write_text('base = "standard"\nbets = ["x"]\n[bet.x]\nside = "tie"\n'
                    'pay = [{winner = "tie", pays = 8, bank_final = 7, banker_final = 6}]\n')
    _usage(_run("odds", "--profile", str(path)), "'bank_final' and 'banker_final'")


def test_item11_bet_named_all(tmp_path) -> None:
    path = tmp_path / "all.toml"
    path.write_text('base = "standard"\n[bet.all]\nside = "tie"\n'
                    'pay = [{winner = "tie", pays = 8}]\n')
    _usage(_run("odds", "--profile", str(path)), "'all' is not a bet name")


def test_item11_shoe_cards_with_index(tmp_path) -> None:
    path = tmp_path / "dealt.txt"
    path.write_text("8h 7s 6d 5c\n")
    _usage(_run("shoe", "--cards", str(path), "--index", "5"), "--index goes with --seed")
    _usage(_run("shoe", "--cards", str(path), "--penetration", "0.5"), "--penetration")


@pytest.mark.parametrize("args", [
    ["simulate", "--rounds", "٣"], ["shoe", "--seed", "١"], ["shoe", "--seed", "1", "--index", "１"],
    ["count", "--shoes", "٣"], ["count", "--jobs", "²"], ["bank", "--rounds", "٣"],
])
def test_item11_non_ascii_digits(args) -> None:
    _usage(_run(*args), "not a whole number" if args[0] == "bank" else "not a valid integer")


# -- item 10: shoe --cards bounded like --seed ------------------------------------------------------


def test_item10_shoe_cards_packs_bounded(tmp_path) -> None:
    path = tmp_path / "dealt.txt"
    path.write_text("8h 7s 6d 5c\n" * 3)
    _usage(_run("shoe", "--decks", "1000000", "--cards", str(path)), "at most 5,200 cards")
    _usage(_run("shoe", "--decks", "101", "--cards", str(path)), "100 packs")
    assert _run("shoe", "--decks", "8", "--cards", str(path)).exit_code == 0


def test_item10_shoe_cards_record_length_bounded(tmp_path) -> None:
    path = tmp_path / "dealt.txt"
    path.write_bytes(b"8h " * ((1 << 22) // 3 + 10))
    _usage(_run("shoe", "--decks", "8", "--cards", str(path)), "bytes")


# -- item 18: papercuts -----------------------------------------------------------------------------


def test_item18_seed_and_cards_not_both(tmp_path) -> None:
    _usage(_run("shoe", "--seed", "1", "--cards", "x"), "not both")


# -- item 9: bank's sizes bounded before the work starts ------------------------------------------


@pytest.mark.parametrize("args, words", [
    (["--capital", "1000000000", "--rounds", "10"], ["capitals on its lattice", "20,000,000"]),
    (["--stakes", "1,1/1000000007", "--capital", "10", "--rounds", "10"],
     ["1,000,000,007 a unit"]),
    (["--decks", "1000000000", "--players", "2"], ["at most 52,000 cards"]),
    (["--rounds", "1000000000", "--capital", "10"], ["at most 10,000,000 rounds"]),
    (["--rounds", "9000000", "--capital", "10"], ["steps, more than"]),
])
def test_item9_bank_sizes_bounded(args, words) -> None:
    _usage(_run("bank", *args), *words)


def test_item9_session_table_rounds_same_limit(tmp_path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(f'base = "standard"\n[session]\nrounds = {10**20}\ncapital = 10\n')
    _usage(_run("bank", "--profile", str(path)), "at most 10,000,000 rounds")


def test_item18_a_pay_written_as_odds_is_read_as_the_output_writes_it() -> None:
    """`--colon 2:1` is 2 (the output writes pays as 2:1); 19:20 is 19/20; 2:0 divides by 0."""
    from click.testing import CliRunner

    from cli import main
    from odds.rules.profiles import BUILTIN

    std = BUILTIN["standard"]
    assert std.with_options(colon="2:1", colon_nine="3:1") == std
    assert BUILTIN["punto-banco"].with_options(banker_pays="19:20") == BUILTIN["punto-banco"]
    out = CliRunner().invoke(main, ["odds", "--colon", "2:0"])
    assert out.exit_code == 2 and "divides by zero" in out.output
    out = CliRunner().invoke(main, ["odds", "--colon", "2:1:1"])
    assert out.exit_code == 2 and "2:1" in out.output


def test_item18_a_comment_line_inside_a_round_is_not_a_round_mark() -> None:
    from odds.exact.rounds import read_cards

    record = read_cards("8h 7s\n# the dealer paused\n9c K\n\nA 2\n")
    assert record.marks == ((4, 4),)  # only the blank line after four cards closes a round
    assert read_cards("8h 7s\n  #\n9c K\n").marks == ()


@pytest.mark.parametrize("text, message", [
    ('colon = true', "colon: true is not a number"),
    ('colon = 1979-05-27', "colon: 1979-05-27 is not a number"),
    ('[session]\ncapital = true', "session.capital: true is not a number"),
])
def test_item12_messages_write_values_as_the_file_does(tmp_path, text: str,  # type: ignore[no-untyped-def]
                                                       message: str) -> None:
    from click.testing import CliRunner

    from cli import main

    path = tmp_path / "p.toml"
    path.write_text(f'base = "standard"\nname = "p"\n{text}\n')
    out = CliRunner().invoke(main, ["bank" if "session" in text else "odds", "--profile",
                                    str(path)])
    assert out.exit_code == 2 and message in out.output, out.output
    assert "True" not in out.output and "datetime" not in out.output


def test_item12_an_empty_stake_between_commas_is_named() -> None:
    from click.testing import CliRunner

    from cli import main

    out = CliRunner().invoke(main, ["bank", "--players", "3", "--stakes", "1,,1"])
    assert out.exit_code == 2 and "empty stake between commas" in out.output
    assert "2 stakes given" not in out.output


@pytest.mark.parametrize("pen", ["nan", "inf", "0", "1.5", "true"])
def test_item12_a_tallies_penetration_out_of_range_is_named(tmp_path, pen: str) -> None:  # type: ignore[no-untyped-def]
    from odds.sim.tallies import TallyError, header_from_data

    with pytest.raises(TallyError, match="penetration .* is not a number from 0 to 1"):
        header_from_data({"profile": "standard", "shoe": "8", "reshuffle": "cut",
                     "penetration": pen if pen != "true" else True}, "t.json")


# -- item 12, the rest: no message leaks Python ----------------------------------------------------

_PYTHON = ("True", "False", "None", "datetime", "invalid literal", "Invalid literal",
           "Maximum allowed dimension", "Traceback")


def _no_python(result) -> str:  # type: ignore[no-untyped-def]
    text = _usage(result)
    for word in _PYTHON:
        assert word not in result.output, (word, result.output)
    return text


def test_item12_a_digit_int_would_misread_is_refused_in_words() -> None:
    # '²' is a digit to str.isdigit() but int() refuses it: "invalid literal for int()".
    text = _no_python(_run("play", "--strategy", "draw-below:²"))
    assert "needs a value from 0 to 10" in text


@pytest.mark.parametrize("value, written", [
    ("true", "true"), ("1979-05-27", "1979-05-27"), ("07:32:00", "07:32:00"),
    ("1979-05-27T07:32:00", "1979-05-27T07:32:00"),
])
@pytest.mark.parametrize("line", ["winner = {v}", "margin = {v}", "banker_final = {v}",
                                  "player_cards = {v}", "pays = {v}"])
def test_item12_bet_table_values_are_named_as_the_file_writes_them(  # type: ignore[no-untyped-def]
        tmp_path, line: str, value: str, written: str) -> None:
    pays = "" if line.startswith("pays") else "pays = 5\n"
    path = tmp_path / "p.toml"
    path.write_text('base = "punto-banco"\nname = "p"\nbets = ["x"]\n[bet.x]\nside = "banker"\n'
                    f"[[bet.x.pay]]\n{pays}{line.format(v=value)}\n")
    text = _no_python(_run("odds", "--profile", str(path)))
    assert written in text and "bet.x.pay[1]" in text


@pytest.mark.parametrize("key", ["name", "title", "session"])
def test_item12_profile_fields_are_named_as_the_file_writes_them(tmp_path, key: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "p.toml"
    path.write_text(f'base = "standard"\n{key} = 1979-05-27\n')
    assert "1979-05-27" in _no_python(_run("odds", "--profile", str(path)))


@pytest.mark.parametrize("field, value, words", [
    ("shoe", None, ["shoe: null is not a shoe"]),
    ("shoe", True, ["shoe: true is not a shoe"]),
    ("reshuffle", None, ["reshuffle must be round or cut, not null"]),
    ("reshuffle", True, ["not true"]),
    ("profile", None, ["not null"]),
    ("options", True, ["not true"]),
])
def test_item12_tallies_fields_are_named_as_json_writes_them(  # type: ignore[no-untyped-def]
        tmp_path, field: str, value: object, words: list[str]) -> None:
    import json

    data = json.loads((DATA / "example-tallies.json").read_text())
    data[field] = value
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data, indent=1))
    text = _no_python(_run("verify", str(path)))
    for word in words:
        assert word in text, text


@pytest.mark.parametrize("shoe", ["99999999999999999999999999999", "20001"])
def test_item12_a_log_header_shoe_too_large_to_count_is_refused(tmp_path, shoe: str) -> None:  # type: ignore[no-untyped-def]
    # 10^29 packs overflowed numpy's int64 (an OverflowError traceback, exit 1).
    lines = (DATA / "example-log.csv").read_text().splitlines()
    lines = [f"# shoe: {shoe}" if line.startswith("# shoe:") else line for line in lines]
    path = tmp_path / "log.csv"
    path.write_text("\n".join(lines) + "\n")
    assert "at most 1,040,000 cards" in _no_python(_run("verify", str(path)))


@pytest.mark.parametrize("args, words", [
    (["bank", "--target-ruin", "inf", "--rounds", "3", "--capital", "5"], ["target ruin 'inf'"]),
    (["bank", "--loss-over", "inf", "--rounds", "3", "--capital", "5"], ["loss over 'inf'"]),
    (["bank", "--stakes", "1,inf", "--players", "2"], ["stakes: 'inf'"]),
    (["payout", "--table", "colon=inf"], ["colon: 'inf'"]),
])
def test_item12_inf_is_named_with_its_option(args: list[str], words: list[str]) -> None:
    # Was "Invalid literal for Fraction: 'inf'", naming no option, file or key.
    text = _no_python(_run(*args))
    for word in words:
        assert word in text, text


def test_item12_inf_in_a_profile_file_names_file_and_key(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "p.toml"
    path.write_text('base = "standard"\nname = "p"\n[session]\ncapital = "inf"\n')
    text = _no_python(_run("bank", "--profile", str(path), "--rounds", "3"))
    assert "p.toml" in text and "session.capital: 'inf'" in text


@pytest.mark.parametrize("target", [float("inf"), float("nan"), True, "x"])
def test_item12_library_target_ruin_not_a_number(target: object) -> None:
    from odds import BUILTIN, Session, Shoe, bank_study

    with pytest.raises(ValueError, match="target ruin .* is not a number") as info:
        bank_study(BUILTIN["standard"], Shoe.infinite_shoe(),
                   Session(players=1, capital=5, rounds=3), target_ruin=target)  # type: ignore[arg-type]
    assert "Invalid literal" not in str(info.value)


@pytest.mark.parametrize("args", [
    ["count", "--shoes", "1000000000000"],
    ["bank", "--decks", "1000000000", "--players", "2"],
    ["bank", "--capital", "1000000000", "--rounds", "3", "--players", "2"],
])
def test_item12_sizes_numpy_cannot_hold_are_refused_before_numpy(args: list[str]) -> None:
    # numpy's "Maximum allowed dimension exceeded" came from sizes no bound stopped.
    _no_python(_run(*args))


def test_item12_a_tallies_file_on_one_line_is_not_taken_for_a_round_log(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Its "reshuffle": "round" read as a log's "round" key: "the round log has no rows".
    import json

    data = json.loads((DATA / "example-tallies.json").read_text())
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data))
    out = _run("verify", str(path))
    assert out.exit_code == 0 and "PASS" in out.output, out.output


# -- item 17: every public function takes a profile and a shoe in the forms round_odds takes -----

def _public_functions() -> list[str]:
    import inspect

    import odds

    return [name for name in odds.__all__ if inspect.isfunction(getattr(odds, name))
            and {"profile", "shoe"} & set(inspect.signature(getattr(odds, name)).parameters)]


@pytest.mark.parametrize("name", _public_functions())
def test_item17_every_public_function_is_annotated_with_every_form(name: str) -> None:
    import inspect
    import typing

    import odds

    func = getattr(odds, name)
    # The parameters' annotations only: a return type may name a class imported for type
    # checking alone (table_game's FiniteTable), which get_type_hints cannot resolve.
    names = vars(sys.modules[func.__module__])
    hints = {k: eval(v, names) if isinstance(v, str) else v
             for k, v in func.__annotations__.items() if k != "return"}
    params = inspect.signature(func).parameters
    if "profile" in params:
        assert str in typing.get_args(hints["profile"]), name
    if "shoe" in params:
        forms = typing.get_args(hints["shoe"])
        assert {int, str, type(None)} <= set(forms), (name, forms)


def test_item17_the_public_list_is_not_empty() -> None:
    assert {"round_odds", "bet_odds", "bank_study", "simulate", "follow_shoe"} <= set(
        _public_functions())


def test_item17_names_and_numbers_give_the_same_figures_as_objects() -> None:
    from odds import (
        BUILTIN,
        Session,
        Shoe,
        bank_round,
        bank_study,
        bet_odds,
        bet_payout,
        bet_removal_effects,
        follow_shoe,
        profile_bets,
        removal_effects,
        round_odds,
        slot_round_odds,
    )

    pb, one = BUILTIN["punto-banco"], Shoe.packs_of(1)
    assert bet_odds("punto-banco", 1, ["tie"])["tie"].entry_counts == bet_odds(
        pb, one, ["tie"])["tie"].entry_counts
    assert bet_odds("punto-banco", "inf", ["tie"])["tie"].payout_distribution() == \
        round_odds(pb, "inf").payout_distribution("tie")
    # the slower ones once each, by name, with an invariant: the changes weighted by the
    # cards left sum to 0
    assert sum(4 * e for _, e in bet_removal_effects("punto-banco", "tie", 1)) == 0
    assert slot_round_odds("standard", 1, player="8h 7s").win == round_odds(
        "standard", 1, player="8h 7s").win
    session = Session(players=2, capital=10, rounds=3)
    assert bank_round("standard", "inf", session).mean == bank_round(
        BUILTIN["standard"], Shoe.infinite_shoe(), session).mean
    assert bank_study("standard", "inf", session).risk == bank_study(
        BUILTIN["standard"], Shoe.infinite_shoe(), session).risk
    assert bet_payout("punto-banco", "tie", "Ah 6s", "2c 5d") == 8
    assert list(profile_bets("ez-baccarat")) == list(profile_bets(BUILTIN["ez-baccarat"]))
    assert sum(4 * e.ev_change for e in removal_effects("plain", 1)) == 0
    follow = follow_shoe("standard", None, "9h 2c 9d 6s")
    assert follow.evs["player"][0] == round_odds("standard").expected_value
    assert follow.evs["player"][1] == round_odds("standard", removed="9h 2c 9d 6s").expected_value


@pytest.mark.parametrize("call", ["bet_odds", "bank_study", "simulate", "removal_effects"])
def test_item17_a_wrong_profile_or_shoe_is_a_value_error_in_words(call: str) -> None:
    import odds

    func = getattr(odds, call)
    with pytest.raises(ValueError, match="unknown profile 'standrd'"):
        func("standrd")
    with pytest.raises(ValueError, match="a shoe is a Shoe, a number of packs"):
        func("standard", 2.5)


# -- item 18, the rest: bets in percent, shell completion documented -------------------------------

def test_item18_side_bets_print_in_percent_as_the_main_bets() -> None:
    out = _run("odds", "--profile", "ez-baccarat", "--decks", "8", "--bet", "dragon-7")
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    seat = next(line for line in lines if line.strip().startswith("player seat EV"))
    dragon = next(line for line in lines if line.strip().startswith("dragon-7 EV"))
    assert seat.split()[3].endswith("%") and dragon.split()[2] == "-7.611334%", (seat, dragon)


def test_item18_shell_completion_runs_as_documented(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import re
    import subprocess

    from tests.paths import lucky9_on_path

    page = (ROOT / "docs" / "commands.md").read_text()
    block = re.search(r"^## Shell completion\n.*?^```\n\$ (.*?)\n(.*?)^```$", page, re.S | re.M)
    assert block is not None, "docs/commands.md has no shell completion example"
    command, expected = block.group(1), block.group(2).splitlines()
    done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=lucky9_on_path(tmp_path),
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines() == expected, (done.stdout, done.stderr)
    assert "_LUCKY9_COMPLETE=bash_source lucky9" in page


# -- item 15: slow tests are skipped by default, with the reason; CI runs them -------------------

def test_item15_slow_tests_skip_by_default_and_run_in_ci(tmp_path) -> None:  # type: ignore[no-untyped-def]
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


def test_item15_ci_runs_the_slow_tests() -> None:
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert "export LUCKY9_SLOW=1" in lines[:-1]


@pytest.mark.parametrize("args", [
    ["odds", "--profile", "ez-baccarat"],
    pytest.param(["removal", "--profile", "ez-baccarat"], marks=pytest.mark.slow),  # CI
    ["conditional", "--profile", "ez-baccarat"], ["payout", "--profile", "ez-baccarat"],
    ["bank", "--profile", "ez-baccarat", "--decks", "inf"],
    ["simulate", "--profile", "ez-baccarat", "--rounds", "10", "--seed", "1"],
    ["tree", "--profile", "ez-baccarat", "--depth", "1"],
    ["shoe", "--profile", "ez-baccarat", "--decks", "1", "--seed", "1"],
    ["solve", "--decks", "inf", "--information", "totals"],
], ids=lambda a: a[0])
def test_item18_every_command_wraps_its_rules_line_one_way(args: list[str]) -> None:
    from odds.rules.text import wrap_rules

    out = _run(*args)
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("rules"))
    # the printed lines, joined, wrap to themselves: one function wrapped them
    printed = [lines[start]]
    for line in lines[start + 1:]:
        if not line.startswith("  ") or len(printed[-1]) + 1 + len(line.split()[0]) <= 79:
            break
        printed.append(line)
    assert len(printed) >= 2 and all(len(line) <= 79 for line in printed), printed
    assert wrap_rules(" ".join(line.strip() for line in printed)) == printed


def test_item18_a_verify_report_wraps_its_rules_line_the_same_way() -> None:
    from odds.rules.text import wrap_rules

    out = _run("verify", str(DATA / "example-log.csv"))
    lines = out.output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("rules ("))
    assert lines[start + 1].startswith("  ") and len(lines[start]) <= 79
    assert lines[start:start + 2] == wrap_rules(" ".join(
        line.strip() for line in lines[start:start + 2]))[:2]


# -- item 14: without Graphviz or Chromium the checks that need them skip, and fail when required --

@pytest.mark.slow  # two pytest sessions (about 20 s); CI, where the tools are, runs it
def test_item14_without_dot_or_chromium_checks_skip_with_a_reason_or_fail_when_required(
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


# -- item 18: a side bet's EV prints as the main bets' does, in percent, in every command ---------
# The exact EVs come from each command's own JSON (or the library); the text must print each one
# with odds.rules.text.percent, as `lucky9 odds` prints the seat's EV, for main and side bets
# alike.  On the old code removal, shoe, payout --bet and conditional printed decimals here.


def _json(*args: str):  # type: ignore[no-untyped-def]
    import json

    out = _run(*args, "--format", "json")
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def _text(*args: str) -> list[str]:
    out = _run(*args)
    assert out.exit_code == 0, out.output
    return out.output.splitlines()


def _tables(lines: list[str], first: str) -> list[tuple[list[str], list[list[str]]]]:
    """The tables of a report whose header line starts with the words ``first``: (header, rows)."""
    found = []
    for k, line in enumerate(lines):
        if line.split()[:len(first.split())] == first.split():
            rows = []
            for row in lines[k + 1:]:
                if not row.strip():
                    break
                rows.append(row.split())
            found.append((line.split(), rows))
    return found


def test_item18_odds_prints_every_bet_and_the_seat_in_percent() -> None:
    from fractions import Fraction

    from odds.rules.text import percent

    args = ("odds", "--profile", "ez-baccarat", "--decks", "8", "--bet", "dragon-7",
            "--bet", "panda-8")
    data = _json(*args)
    lines = _text(*args)
    seat = percent(Fraction(data["expected_value"]))
    assert any(line.split()[:4] == ["player", "seat", "EV", seat] for line in lines), lines
    for bet in ("dragon-7", "panda-8"):
        ev = percent(Fraction(data["bets"][bet]["expected_value"]))
        assert any(line.split()[:3] == [bet, "EV", ev] for line in lines), (bet, ev)


def test_item18_payout_prints_a_side_bets_ev_as_its_main_bets_in_percent() -> None:
    from fractions import Fraction

    from odds.exact.bets import bet_odds
    from odds.rules.profiles import BUILTIN
    from odds.rules.shoe import Shoe
    from odds.rules.text import percent

    exact = bet_odds(BUILTIN["ez-baccarat"], Shoe.packs_of(8), ["player", "dragon-7", "panda-8"])
    main = _text("payout", "--profile", "ez-baccarat")
    assert ["EV", percent(exact["player"].expected_value)] in [line.split()[:2] for line in main]
    args = ("payout", "--profile", "ez-baccarat", "--bet", "dragon-7", "--bet", "panda-8")
    data = _json(*args)
    side = _text(*args)
    for bet in ("dragon-7", "panda-8"):
        ev = Fraction(data["bets"][bet]["expected_value"])
        assert ev == exact[bet].expected_value
        assert f"bet {bet}: EV {percent(ev)} = {ev}" in side, side


def test_item18_removal_prints_side_bets_as_the_seat_in_percent() -> None:
    from fractions import Fraction

    from odds.rules.text import decimal, percent

    args = ("removal", "--profile", "ez-baccarat", "--decks", "8", "--bet", "dragon-7",
            "--bet", "panda-8")
    data = _json(*args)
    lines = _text(*args)
    ev = Fraction(data["expected_value"])
    assert f"player seat EV {percent(ev)} ({ev}), P(win) {decimal(Fraction(data['win']))}" \
        in lines, lines
    for bet in ("dragon-7", "panda-8"):
        value = Fraction(data["expected_values"][bet])
        assert f"{bet} bet: EV {percent(value)} ({value})" in lines, (bet, lines)
    effects = {e["rank"]: e for e in data["effects"]}
    (seat_head, seat_rows), *side = _tables(lines, "rank left")
    assert seat_head == ["rank", "left", "EV", "change", "P(win)", "change", "EV", "after"]
    for rank, _left, change, win, after in seat_rows:
        e = effects[rank]
        assert (change, win, after) == (percent(Fraction(e["ev_change"])),
                                        decimal(Fraction(e["win_change"])),
                                        percent(Fraction(e["ev_after"]))), rank
    assert [head[2:] for head, _ in side] == [["dragon-7", "panda-8"]]
    for rank, _left, *cells in side[0][1]:
        assert cells == [percent(Fraction(effects[rank]["ev_changes"][bet]))
                         for bet in ("dragon-7", "panda-8")], rank


def test_item18_shoe_prints_side_bets_as_the_main_bets_in_percent() -> None:
    from fractions import Fraction

    from odds.rules.text import percent

    args = ("shoe", "--profile", "ez-baccarat", "--decks", "1", "--seed", "7")
    data = _json(*args)
    lines = _text(*args)
    tables = _tables(lines, "round seen left")
    seen = set()
    for head, rows in tables:
        bets = [name for name in head[3:] if not name.startswith("P(")]
        rounds = [row for row in rows if row[0].isdigit()]
        assert len(rounds) == len(data["rounds"])
        for row, state in zip(rounds, data["rounds"], strict=True):
            assert row[3:3 + len(bets)] == [percent(Fraction(state["ev"][bet]), 4)
                                           for bet in bets], (head, row)
        seen.update(bets)
    assert seen == {"player", "ez-banker", "tie", "dragon-7", "panda-8"}, tables


def test_item18_conditional_prints_every_bets_ev_in_percent() -> None:
    from fractions import Fraction

    from odds.rules.text import decimal, percent

    data = _json("conditional", "--profile", "punto-banco")
    text = _text("conditional", "--profile", "punto-banco")
    ((head, rows),) = _tables(text, "player P(value)")
    assert head[-5:] == ["EV", "banker", "EV", "tie", "EV"]
    for row, want in zip(rows, data["rows"], strict=True):
        assert row[1] == decimal(Fraction(want["probability"]), 6)
        assert row[-3:] == [percent(Fraction(want["expected_value"][bet]), 4)
                            for bet in ("player", "banker", "tie")], row


# CI (slow: two seats' pairs on a whole pack, twice); the fast twin of its percent column is
# test_item18_a_par_sheet_prints_the_bets_ev_edge_and_changes_in_percent (one percent function).
@pytest.mark.slow
def test_item18_shoe_seats_prints_the_seats_ev_in_percent(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from fractions import Fraction

    from odds.rules.text import percent

    record = tmp_path / "table.txt"
    record.write_text("9h 9d 9c Kh Kd Ks\n", encoding="utf-8")  # two seats and the bank: naturals
    args = ("shoe", "--decks", "1", "--seats", "2", "--cards", str(record))
    data = _json(*args)
    lines = _text(*args)
    ((head, rows),) = _tables(lines, "round left")
    assert head[2:4] == ["seat", "EV"] and len(rows) == 1
    assert rows[0][2] == percent(Fraction(data["rounds"][0]["seat_ev"]), 4) == "+2.7284%"
    # its rules line wraps as every command's does (item 18's rules-line papercut, --seats too)
    from odds.rules.text import wrap_rules

    start = next(k for k, line in enumerate(lines) if line.startswith("rules: "))
    assert lines[start:start + 2] == wrap_rules(f"rules: {data['rules']}")
    note = lines[lines.index(next(line for line in lines if line.startswith("shoe: "))) + 1:
                 lines.index("")]
    assert len(note) > 1 and all(len(line) <= 79 for line in note), note


def test_item18_a_par_sheet_prints_the_bets_ev_edge_and_changes_in_percent() -> None:
    from fractions import Fraction

    from odds.rules.text import decimal, percent

    args = ("par", "--profile", "ez-baccarat", "--bet", "dragon-7", "--no-count")
    data = _json(*args)
    sections: dict[str, dict[str, list[str]]] = {}
    table: dict[str, list[str]] = sections.setdefault("the bet", {})
    for line in _text(*args):
        if line.startswith("## "):
            table = sections.setdefault(line[3:].split(" (")[0], {})
        elif line.startswith("| ") and not line.startswith("|---"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            table[cells[0]] = cells[1:]
    sizes = data["shoe_sizes"]
    line, hit = data["bet"]["pay_table"][0]["line"], sizes[0]["lines"][0]
    assert sections["Probability per pay line"][line][1] == decimal(Fraction(hit["probability"]), 6)
    ret = sections["Contribution to the return"]
    assert ret[line][1] == percent(Fraction(hit["return"]), 4)
    assert ret["total: the EV"][1:] == [percent(Fraction(s["expected_value"]), 4) for s in sizes]
    assert sections["Per number of packs"]["house edge"] == [
        percent(Fraction(s["house_edge"]), 4) for s in sizes]
    removal = sections["Effect of removal"]
    for e in data["removal"]["effects"]:
        assert removal[e["rank"]][1] == percent(Fraction(e["ev_change"]), 6), e


def test_item18_count_prints_a_side_bets_ev_as_its_main_bets_in_percent() -> None:
    from fractions import Fraction

    from odds.rules.text import percent

    args = ("count", "--profile", "ez-baccarat", "--decks", "1", "--shoes", "5", "--seed", "2",
            "--bet", "player", "--bet", "dragon-7")
    data = _json(*args)
    text = "\n".join(_text(*args))

    def estimate(entry: dict[str, float | None]) -> str:
        mean, se = entry["mean"], entry["se"]
        return ("n/a" if mean is None else percent(Fraction(mean), 4)) + (
            "" if se is None else f" ± {100 * se:.4f}%")

    for bet, label in (("player", "player seat"), ("dragon-7", "dragon-7 bet")):
        b = data["bets"][bet]
        section = text.split(f"\n{label}\n", 1)[1]
        fresh = Fraction(b["fresh_ev"])
        assert f"  fresh-shoe EV {percent(fresh)} (exact {fresh})" in section, (bet, section)
        assert f"  EV across rounds: mean {estimate(b['mean'])}, sd " in section, bet
        assert f"(mean EV less the fresh EV): {estimate(b['cut_card_effect'])}" in section, bet
        pi = b["perfect_information"]
        assert (f"perfect information (bet when EV > 0): {estimate(pi['gain_per_round_dealt'])}"
                f" a round dealt") in section, bet
        assert f"edge when betting {estimate(pi['edge_when_betting'])}" in section, bet
    grid = _text("count", "--profile", "ez-baccarat", "--decks", "1,2", "--shoes", "3",
                 "--seed", "2", "--bet", "player", "--bet", "dragon-7")
    rows = [line for line in grid if line.startswith("ez-baccarat ")]
    assert len(rows) == 4 and all(line.count("%") == 4 for line in rows), grid


def test_item18_verify_prints_a_side_bets_tests_in_the_main_bets_columns() -> None:
    import re

    out = _run("verify", str(DATA / "example-log-bets.csv"))
    lines = [line for line in out.output.splitlines() if re.match(r"  (z|chi-square) ", line)]

    def column(name: str) -> int:
        """Where the test's figure ends, and where its p-value starts."""
        line = next(line for line in lines if line.split(None, 1)[1].startswith(name + " "))
        figure = re.search(r" ([+-]?\d+\.\d+|inf) ", line[11 + len(name):])
        assert figure is not None, line
        return 11 + len(name) + figure.end(1), line.index("p = ")

    assert column("bet banker expected value") == column("expected value")
    assert column("bet tie expected value") == column("expected value")
    assert column("bet banker payouts") == column("payouts")
