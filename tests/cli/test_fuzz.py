"""A fuzz suite of our own: hostile option values for every command, hostile files for every reader.

Property-based (hypothesis).  For every example it asserts what the README
promises ("Exit codes"):

- the exit code is 0 or 2, or 1 where 1 is documented (``verify`` judging a
  file inconsistent, an output that cannot be written for want of space,
  Graphviz missing for ``--format svg``);
- never a traceback: the runner's exception is ``SystemExit`` or none;
- an error is one line of bounded length;
- no file is left partial or outside its target: after a run the working
  folder holds only the outputs asked for (nothing if the run failed), and
  never a temporary file;
- bounded time: the hypothesis deadline.

Commands whose valid runs take seconds here (``solve``, ``play``,
``removal``, ``payout``, ``tables``) are fuzzed up to the point where the
input has been parsed and checked: the computation itself is replaced by a
stub that records "accepted" (its inputs are what is being tested; its
answers are tested elsewhere).  ``bank``, ``count`` and ``shoe`` run for real
(:func:`test_the_real_bank_count_and_shoe_keep_their_promises`): a number that would make a valid
run long is tamed to a small one, while numbers past every bound are kept, so
the bounds are exercised and must refuse before the work starts.

A run runs 10 examples per property, CI (``LUCKY9_SLOW=1``) 25;
``LUCKY9_FUZZ_EXAMPLES=2000 python -m pytest tests/cli/test_fuzz.py`` runs a
long local session.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cli import main
from odds.io.textio import MAX_MESSAGE
from tests.fuzzing import EXAMPLES, FUZZ, OUTPUT, VALUE, _check, _reached, _value_options
from tests.paths import DATA

# -- hostile values ---------------------------------------------------------------------------


# Cheap settings that keep a valid run short; a hostile value may replace each.
BASE = {
    "odds": [], "conditional": [], "profiles": [],
    "tree": ["--depth", "1"],
    "simulate": ["--rounds", "50", "--seed", "1"],
    "verify": [str(DATA / "example-log.csv")],
    "shoe": ["--decks", "1", "--seed", "1"],
}
SLOW_VALUES = {  # values that make a valid run slow, replaced by a cheap one
    "--rounds": "50", "--depth": "1", "--seats": "2", "--players": "1",
}


def _stub_heavy(monkeypatch) -> None:
    import odds.game.game
    import odds.game.play
    import odds.money.counting
    import odds.money.session
    import odds.report.removal_report
    import odds.report.table_files

    reached = _reached
    monkeypatch.setattr(odds.game.play, "play", reached)
    monkeypatch.setattr(odds.money.session, "bank_study", reached)
    monkeypatch.setattr(odds.money.counting, "count_study", reached)
    monkeypatch.setattr(odds.game.game, "build_game", reached)
    monkeypatch.setattr(odds.report.removal_report, "removal_data", reached)
    monkeypatch.setattr(odds.report.removal_report, "removal_text", reached)
    monkeypatch.setattr(odds.report.table_files, "build_tables", reached)
    import odds

    monkeypatch.setattr(odds, "round_odds", reached)


def _one_allowed(command: str, args: list[str]) -> bool:
    return command == "verify" or any("/dev/full" in a or a == "svg" for a in args)


def _folder_state(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() if p.is_file() else b"<dir>"
            for p in sorted(folder.rglob("*"))}


# -- every command: hostile option values ---------------------------------------------------------


@pytest.mark.parametrize("command", ["odds", "conditional", "tree", "simulate", "verify",
                                     "profiles"])
@FUZZ
@given(data=st.data())
def test_hostile_option_values(command: str, data, monkeypatch) -> None:
    import odds.game.play

    monkeypatch.setattr(odds.game.play, "play", _reached)  # strategies: seconds per valid run
    options = _value_options(command)
    picked = data.draw(st.lists(st.sampled_from(options), min_size=1, max_size=3, unique=True))
    args = list(BASE[command])
    for option in picked:
        value = data.draw(VALUE)
        if option in SLOW_VALUES and re.fullmatch(r"\s*[0-9]+\s*", value):
            value = SLOW_VALUES[option]
        if option == "--decks" and command == "simulate" and re.fullmatch(r"[0-9 ]+", value):
            value = "1"  # a valid shoe of many packs only costs time
        args += [option, value]
    if command == "profiles":
        args = [data.draw(VALUE)] + args
    result = CliRunner().invoke(main, [command, *args])
    _check(result, args, _one_allowed(command, args))


@pytest.mark.parametrize("command", ["solve", "play", "removal", "payout", "tables"])
@FUZZ
@given(data=st.data())
def test_hostile_option_values_slow_commands(command: str, data, monkeypatch) -> None:
    _stub_heavy(monkeypatch)
    options = _value_options(command)
    args: list[str] = []
    if command == "tables":
        args = ["--out", data.draw(st.sampled_from(["", "/dev/null", "/proc/x", "README.md/x"]))]
    else:
        for option in data.draw(st.lists(st.sampled_from(options), min_size=1, max_size=3,
                                         unique=True)):
            args += [option, data.draw(VALUE)]
    result = CliRunner().invoke(main, [command, *args])
    _check(result, args, _one_allowed(command, args))


# -- bank, count and shoe, computed for real -------------------------------------------------------

# A valid run of these three costs what its sizes say (rounds x capital x players, shoes x
# packs, packs followed): a number from 4 to 10^12 becomes 2, so a run stays well under a
# second, while 0-3, and numbers past every bound (10^12 and more: 31 digits, 1e400), stay
# as drawn: those must be refused before any work.
REAL_BASE = {
    "bank": ["--decks", "inf"],
    "count": ["--shoes", "2", "--decks", "1", "--no-progress"],
    "shoe": ["--decks", "1", "--seed", "1"],
}
REAL_VALUE = st.one_of(
    VALUE,
    st.sampled_from(["0", "1", "2", "3", "inf", "1/2", "0.01", "2:1", "1,2", "1,,1", "4,4,4",
                     str(10**12), str(10**30), "9" * 40, "1e12", "1" * 5000,
                     "0,-1,0,-1,-1,-1,0,1,1,0,0,0,0", "exact", "half", "rotate", "pro-rata"]),
)


def _tame(value: str) -> str:
    """A number from 4 to 10^12 (written in ASCII) as "2"; any other value as it is."""
    from fractions import Fraction

    text = value.strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,13}(\.[0-9]{1,6})?(/[0-9]{1,6})?", text):
        return value
    try:
        number = abs(Fraction(text))
    except ZeroDivisionError:
        return value
    return "2" if 3 < number < 10**12 else value


def _plot_names(command: str) -> list[str]:
    """The options that name a file or folder the command writes."""
    return {"bank": ["--plot"], "count": ["--save", "--resume"]}.get(command, [])


@pytest.mark.parametrize("command", sorted(REAL_BASE))
@settings(FUZZ, max_examples=max(1, EXAMPLES // 3))
@given(data=st.data())
def test_the_real_bank_count_and_shoe_keep_their_promises(command: str, data, tmp_path_factory) -> None:
    """The real computation: exit 0, or 2 with one line; no traceback; no partial file."""
    options = _value_options(command) + _plot_names(command)
    options = [o for o in options if o not in ("--jobs", "--progress")]  # a pool: seconds
    picked = data.draw(st.lists(st.sampled_from(options), min_size=1, max_size=3, unique=True))
    args = list(REAL_BASE[command])
    targets = []
    for option in picked:
        if option == "--plot":
            value = data.draw(st.sampled_from(["p.svg", "p.png", "p.txt", "sub/p.svg",
                                               "no/such/p.svg", "/dev/null", "p.svg/"]))
            targets.append(value)
        elif option in ("--save", "--resume"):  # a study's folder, and the files in it
            value = data.draw(st.sampled_from(["s", "sub/s", "sub", "no/such/s", "/dev/null",
                                               " ", ""]))
            targets.append(value)
        else:
            value = _tame(data.draw(REAL_VALUE))
        args += [option, value]
    folder = tmp_path_factory.mktemp("real")
    (folder / "sub").mkdir()
    before = _folder_state(folder)
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(main, [command, *args])
    finally:
        os.chdir(cwd)
    _check(result, args, False)
    after = _folder_state(folder)
    assert not [n for n in after if ".tmp" in n or n.startswith(".")], after.keys()
    changed = {n for n in set(after) | set(before) if after.get(n) != before.get(n)}
    wanted = {os.path.normpath(t) for t in targets if t}
    assert {n for n in changed
            if not any(n == t or n.startswith(t + os.sep) for t in wanted)} == set(), (args, changed)
    if result.exit_code != 0:
        assert not changed, (args, changed)


def test_the_real_fuzz_reaches_the_work() -> None:
    """The taming keeps valid runs valid: a tamed run of each command computes (exit 0)."""
    for command, extra in (("bank", ["--players", _tame("8"), "--rounds", _tame("100000"),
                                     "--capital", _tame("5000")]),
                           ("count", ["--shoes", _tame("1000")]),
                           ("shoe", ["--decks", _tame("100")])):
        base = [a for a in REAL_BASE[command] if a != "--decks" or command != "shoe"]
        if command == "shoe":
            base = ["--seed", "1"]
        result = CliRunner().invoke(main, [command, *base, *extra])
        assert result.exit_code == 0, (command, result.output[-300:])
    assert _tame("1e400") == "1e400" and _tame(str(10**12)) == str(10**12) and _tame("3") == "3"


# -- commands that write: no file partial or outside its target ------------------------------------


@FUZZ
@given(log=st.one_of(st.none(), OUTPUT), tallies=st.one_of(st.none(), OUTPUT),
       tree=OUTPUT, fmt=st.sampled_from(["text", "json", "dot"]))
def test_outputs_whole_and_in_place(tmp_path_factory, log, tallies, tree, fmt) -> None:
    folder = tmp_path_factory.mktemp("out")
    (folder / "sub").mkdir()
    (folder / "x.csv").write_text("old\n")
    before = _folder_state(folder)
    runner = CliRunner()
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        sim = ["simulate", "--rounds", "30", "--seed", "1"]
        if log is not None:
            sim += ["--log", log]
        if tallies is not None:
            sim += ["--tallies", tallies]
        for args, targets in ((sim, [t for t in (log, tallies) if t is not None]),
                              (["tree", "--depth", "1", "--format", fmt, "-o", tree], [tree])):
            result = runner.invoke(main, args)
            _check(result, args, _one_allowed(args[0], args))
            after = _folder_state(folder)
            assert not [n for n in after if n.endswith(".tmp")], after.keys()
            changed = {n for n in set(after) | set(before) if after.get(n) != before.get(n)}
            named = {os.path.normpath(t) for t in targets if t}
            # A failed run may leave a target it finished (the round log is put in place
            # when the run ends, before the tallies are written), never another file.
            assert changed <= named, (args, changed)
            if result.exit_code != 0 and args[0] == "tree":
                assert not changed, (args, changed)
            before = after
    finally:
        os.chdir(cwd)


# -- every reader: hostile files ------------------------------------------------------------------


def _deep(text: str, at: int) -> str:
    return text[:at] + "[" * 50_000 + text[at:]


def _huge_number(text: str, at: int) -> str:
    return re.sub(r"\d+", lambda m: "1" * 5000, text, count=1 + at % 5)


MUTATIONS = {
    "bom": lambda t, at: "\ufeff" + t,
    "deep": _deep,
    "truncate": lambda t, at: t[:at],
    "repeat-line": lambda t, at: "\n".join(
        (lines := t.split("\n"))[: at % max(1, len(lines))] + lines[at % max(1, len(lines)):]
        * 2),
    "huge-number": _huge_number,
    "float-overflow": lambda t, at: re.sub(r"-?\b\d+\b", "1e400", t, count=1 + at % 7),
    "endless-exponent": lambda t, at: re.sub(r"-?\b\d+\b", "1e999999999", t, count=1 + at % 7),
    "zero": lambda t, at: re.sub(r"\b\d+\b", "0", t),
    "superscript": lambda t, at: re.sub(r"\b1\b", "²", t, count=1 + at % 3),
    "long-field": lambda t, at: t[:at] + '"' + "x" * 140_000 + '"' + t[at:],
    "crlf": lambda t, at: t.replace("\n", "\r\n"),
    "nul": lambda t, at: t[:at] + "\x00" + t[at:],
    "empty": lambda t, at: "",
    "negative": lambda t, at: re.sub(r"\b(\d+)\b", r"-\1", t, count=1 + at % 9),
    "repeat-column": lambda t, at: t.replace("round,seat", "round,round,seat").replace(
        "seat,", "seat,seat,", 1),
    "seat-100": lambda t, at: re.sub(r'("seat": |\n\d+,)(\d+)', r"\g<1>100", t, count=1),
}

READERS = {
    "log.csv": "example-log.csv",
    "log.jsonl": "example-log.jsonl",
    "tallies.csv": "example-tallies.csv",
    "tallies.json": "example-tallies.json",
    "buggy.csv": "example-buggy-log.csv",
    "sidebets.csv": "example-log.csv",  # with bet:NAME columns added
}


def _reader_text(kind: str) -> str:
    text = (DATA / READERS[kind]).read_text(encoding="utf-8")
    if kind == "sidebets.csv":
        from tests.logs import with_side_bets

        text = with_side_bets(text)[0]
    return text


# tallies.csv in CI (slow): tallies.json, the same tallies, runs by default
@pytest.mark.parametrize("kind", [pytest.param(k, marks=pytest.mark.slow) if k == "tallies.csv"
                                  else k for k in sorted(READERS)])
@FUZZ
@given(data=st.data())
def test_hostile_files_verify(kind: str, data, tmp_path_factory, monkeypatch) -> None:
    """Mutated files, read whole or block by block (blocks of a few dozen bytes)."""
    from odds.sim import verify as verify_module

    monkeypatch.setattr(verify_module, "BLOCK", data.draw(st.sampled_from([8 << 20, 40, 333])))
    text = _reader_text(kind)
    for name in data.draw(st.lists(st.sampled_from(sorted(MUTATIONS)), min_size=1, max_size=3)):
        text = MUTATIONS[name](text, data.draw(st.integers(0, max(0, len(text)))))
    path = tmp_path_factory.mktemp("v") / ("x." + kind.split(".")[1])
    path.write_text(text, encoding="utf-8")
    args = [str(path)]
    result = CliRunner().invoke(main, ["verify", *args])
    _check(result, args, True, files=True)


def _mutated_or_random(data, text: str) -> str:
    """``text`` with one to three mutations, or (half the time) random text instead."""
    if data.draw(st.booleans()):
        for name in data.draw(st.lists(st.sampled_from(sorted(MUTATIONS)), min_size=1,
                                       max_size=3)):
            text = MUTATIONS[name](text, data.draw(st.integers(0, max(0, len(text)))))
        return text
    return data.draw(st.text(max_size=300))


@FUZZ
@given(data=st.data(), stdin=st.booleans())
def test_hostile_files_shoe_cards(data, stdin: bool, tmp_path_factory) -> None:
    """`lucky9 shoe --cards`: a dealer's record, mutated, from a file or standard input."""
    text = "# shoe 1\n8h 7s 9c K\n--\n4 4, 2 3 5\n\nA Q J 10 9 8\n"
    text = _mutated_or_random(data, text)
    decks = data.draw(st.sampled_from(["1", "2", "inf"]))
    if stdin:
        args = ["shoe", "--decks", decks, "--cards", "-"]
        result = CliRunner().invoke(main, args, input=text.encode("utf-8", "surrogatepass"))
    else:
        path = tmp_path_factory.mktemp("s") / "dealt.txt"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        args = ["shoe", "--decks", decks, "--cards", str(path)]
        result = CliRunner().invoke(main, args)
    _check(result, args, False, files=True)


@FUZZ
@given(raw=st.binary(max_size=3000), suffix=st.sampled_from([".csv", ".json", ".jsonl", ""]))
def test_random_bytes_verify(tmp_path_factory, raw: bytes, suffix: str) -> None:
    path = tmp_path_factory.mktemp("b") / f"x{suffix}"
    path.write_bytes(raw)
    result = CliRunner().invoke(main, ["verify", str(path)])
    _check(result, [str(path)], True)


PROFILE = 'base = "standard"\nname = "mine"\ncolon = "5/2"\ndecks = 6\nnatural_values = [8, 9]\n' \
          '[bank_draw]\ndraws = [0, 1, 2, 3]\n'
STRATEGY_JSON = '{"draw": {"0": true, "5": false}}'


@pytest.mark.parametrize("reader", ["profile", "strategy.json", "strategy.toml"])
@FUZZ
@given(data=st.data())
def test_hostile_files_profile_and_strategy(reader: str, data, tmp_path_factory,
                                            monkeypatch) -> None:
    text = {"profile": PROFILE, "strategy.json": STRATEGY_JSON,
            "strategy.toml": 'draw = "draw-below:5"\n'}[reader]
    text = _mutated_or_random(data, text)
    suffix = ".toml" if reader != "strategy.json" else ".json"
    path = tmp_path_factory.mktemp("p") / f"x{suffix}"
    path.write_text(text, encoding="utf-8")
    if reader == "profile":
        args = ["profiles", str(path)]
    else:
        from odds import BUILTIN, Shoe
        from odds.game.game import GameError, build_game
        from odds.game.strategy import load_strategy

        game = _small_game(build_game, BUILTIN, Shoe)
        try:
            load_strategy(path, game, "player")
        except GameError as exc:
            assert len(str(exc)) <= MAX_MESSAGE * 4, str(exc)[:200]
        return
    result = CliRunner().invoke(main, args)
    _check(result, args, False, files=True)


_GAME: list = []


def _small_game(build_game, builtin, shoe):
    if not _GAME:
        _GAME.append(build_game(builtin["family"], shoe.infinite_shoe()))
    return _GAME[0]
