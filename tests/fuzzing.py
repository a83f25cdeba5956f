"""The fuzz suite's hostile values and output names, and the promises every run keeps whatever its input."""

from __future__ import annotations

import os
from datetime import timedelta

import click
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from cli import main
from odds.io.textio import MAX_MESSAGE
from tests.examples import examples

# 10 examples a property by default, 25 where the slow tests run (CI: LUCKY9_SLOW=1).
EXAMPLES = int(os.environ.get("LUCKY9_FUZZ_EXAMPLES", examples(10, 25)))


FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=timedelta(seconds=30),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                           HealthCheck.data_too_large],
)


NASTY = [
    "", " ", "-", "--", "0", "-1", "-0", "00", "1", "2", "²", "٣", "１", "1.5", "1e400", "-1e400",
    "1e999999999", "nan", "NaN", "inf", "-inf", "∞", "1/0", "0/0", "3/2", "-3/2",
    "1" * 5000, "9" * 31, "x" * 10_000, "\ufeff8", "8\x00", "A" * 300, ".", "..", "/",
    "/dev/zero", "/dev/null", "/dev/urandom", "/proc/self/status", "no/such/file.toml",
    "a.toml", "a.json", "\n", "\t", "'", '"', "{", "[", "[[[[[[[[", "%s", "${HOME}", "$(id)",
    "é", "🂡", "8h 7s", "8h 7s 6d 5c", "Ah Ah Ah Ah Ah", "A=1", "A=² 2=4", ",".join(["4"] * 13),
    ",".join(["0"] * 13), "A" + " A" * 60_000, "on", "off", "none", "standard", "family",
    "optimal", "best-response", "draw-below:5", "draw-below:99", "draw-below:²", "compare",
    "outright", "0-5", "5-0", "0-9", "10", "json", "csv", "text", "svg", "pair", "totals",
]


VALUE = st.one_of(
    st.sampled_from(NASTY),
    st.text(max_size=30),
    st.integers(-10**6, 10**6).map(str),
)


# Output names, all inside the test's own folder (or a device that is never replaced).
OUTPUT = st.one_of(
    st.sampled_from(["", ".", "..", "sub", "sub/", "sub/x.csv", "x.csv", "x.jsonl", "x.json",
                     "no/such/x.csv", "/dev/null", "/dev/full", "a" * 250 + ".csv",
                     "a" * 256, "-", "x.csv/", "\ufeff.csv", "x\x00.csv"]),
    st.text(alphabet=st.characters(blacklist_characters="/\x00",
                                   blacklist_categories=["Cs"]), min_size=1, max_size=20),
)


def _value_options(command: str) -> list[str]:
    """The command's options that take a value (flags and the output paths excluded)."""
    names = []
    command_object = main.get_command(click.Context(main, info_name="lucky9"), command)
    assert command_object is not None, command
    for param in command_object.params:
        if getattr(param, "is_flag", False) or param.name in ("output", "tallies_path",
                                                               "log_path", "folder", "plot",
                                                               "save", "resume"):
            continue
        if param.param_type_name == "option":
            names.append(max(param.opts, key=len))
    return names


class Accepted(Exception):
    """The stubbed computation was reached: the input was accepted."""


def _reached(*args, **kwargs):
    raise Accepted


def _check(result, args: list[str], allowed_one: bool, files: bool = False) -> None:
    """The promises every run keeps, whatever its input.

    With ``files``, the input was a file: its byte-order mark must not show.
    """
    exc = result.exception
    if isinstance(exc, Accepted):
        return
    assert exc is None or isinstance(exc, SystemExit), f"traceback for {args!r}: {exc!r}"
    codes = {0, 1, 2} if allowed_one else {0, 2}
    assert result.exit_code in codes, (args, result.exit_code, result.output[-500:])
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    if result.exit_code == 2:
        assert len(errors) == 1, result.stderr[-500:]
    for line in errors:
        assert len(line) <= MAX_MESSAGE + 20, line[:100]
        for leak in ("invalid literal", "set_int_max_str_digits", "Traceback",
                     *(["\\ufeff"] if files else [])):
            assert leak not in line, line
