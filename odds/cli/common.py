"""What every command shares: parameter types, errors, and writing to standard output.

Library ``ValueError``s become usage errors (exit code 2) in two places: the
parameter types below, for single values, and :func:`reports_errors`, for
checks that span options.  Standard output that cannot be written (full,
closed) is one line and exit code 1 (:class:`StdoutFailed`).
"""

from __future__ import annotations

import csv
import functools
import io
import json
import os
import re
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from odds.io.atomic import OutputError
from odds.io.textio import excerpt, shorten
from odds.rules import BUILTIN, Card, Profile, Shoe, parse_cards, parse_shoe, resolve_profile

__all__ = [
    "CARDS",
    "PROFILE",
    "SHOE",
    "CardsType",
    "IntRange",
    "PathType",
    "ProfileType",
    "ShoeType",
    "StdoutFailed",
    "emit",
    "emit_rows",
    "format_option",
    "note",
    "out",
    "reports_errors",
]

F = TypeVar("F", bound=Callable[..., Any])

# -- parameter types: parse with the library, fail with its sentence ----------


class IntRange(click.IntRange):
    """``click.IntRange`` for ASCII digits only: ``int()`` also reads '٣' and '１'."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not re.fullmatch(r"\s*[+-]?[0-9]+\s*", value):
            self.fail(f"{excerpt(value)} is not a valid integer (digits 0-9 only)", param, ctx)
        return super().convert(value, param, ctx)

    def _describe_range(self) -> str:
        # click describes an unbounded range as "x<=None"; say nothing instead.
        if self.min is None and self.max is None:
            return ""
        return super()._describe_range()


class CardsType(click.ParamType):  # type: ignore[type-arg]
    """Cards as people type them: ``8h 7s``, ``T♥,K``."""

    name = "cards"

    def convert(self, value: Any, param: Any, ctx: Any) -> tuple[Card, ...]:
        if isinstance(value, tuple):
            return value
        try:
            return parse_cards(value)
        except ValueError as exc:
            self.fail(shorten(str(exc)), param, ctx)


class ShoeType(click.ParamType):  # type: ignore[type-arg]
    """A number of packs, ``inf``, or a per-rank composition."""

    name = "shoe"

    def convert(self, value: Any, param: Any, ctx: Any) -> Shoe:
        if isinstance(value, Shoe):
            return value
        try:
            return parse_shoe(str(value))
        except ValueError as exc:
            self.fail(shorten(str(exc)), param, ctx)


class ProfileType(click.ParamType):  # type: ignore[type-arg]
    """A built-in profile key (any case) or a TOML profile file."""

    name = "profile"

    def shell_complete(self, ctx: Any, param: Any, incomplete: str) -> list[Any]:
        """Built-in names that start with what was typed, else file names."""
        from click.shell_completion import CompletionItem

        names = [CompletionItem(key) for key in BUILTIN if key.startswith(incomplete.lower())]
        return names or [CompletionItem(incomplete, type="file")]

    def convert(self, value: Any, param: Any, ctx: Any) -> Profile:
        if isinstance(value, Profile):
            return value
        try:
            return resolve_profile(str(value))
        except ValueError as exc:
            self.fail(shorten(str(exc)), param, ctx)


class PathType(click.Path):
    """click's Path, with a name it cannot check (a NUL byte) a usage error, not a traceback."""

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        try:
            return super().convert(value, param, ctx)
        except ValueError as exc:
            self.fail(f"{shorten(repr(value), 80)} cannot be a file name ({exc})", param, ctx)


CARDS = CardsType()
SHOE = ShoeType()
PROFILE = ProfileType()


def reports_errors(func: F) -> F:
    """Turn a library ``ValueError`` raised by a command into a usage error."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except ValueError as exc:
            raise click.UsageError(shorten(str(exc)), click.get_current_context()) from None
        except OutputError as exc:
            raise click.ClickException(shorten(str(exc))) from None

    return wrapper  # type: ignore[return-value]


# -- standard output --------------------------------------------------------------


def out(text: str, nl: bool = True) -> None:
    """Print to standard output; if it is full or closed, say so (exit code 1), no traceback."""
    try:
        click.echo(text, nl=nl)
        sys.stdout.flush()
    except OSError as exc:
        raise StdoutFailed(exc) from None


def note(text: str) -> None:
    """A line on standard error: what was written where."""
    click.echo(text, err=True)


class StdoutFailed(click.ClickException):
    """Standard output cannot be written (``> /dev/full``, a closed pipe): exit code 1."""

    def __init__(self, exc: OSError) -> None:
        super().__init__(f"cannot write to standard output: {exc.strerror or exc}")
        # Nothing more can reach it; send what is buffered nowhere, so exiting is quiet.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError, io.UnsupportedOperation):
            pass  # not a real file (a test runner's buffer): nothing to silence


def emit_rows(rows: list[list[str]]) -> None:
    """Write CSV rows to standard output."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    out(buffer.getvalue(), nl=False)


def emit(fmt: str, data: Callable[[], Any], text: Callable[[], list[str]],
         rows: Callable[[], list[list[str]]] | None = None) -> None:
    """Print a report as JSON, CSV rows or terminal text, rendering only the one asked for."""
    if fmt == "json":
        out(json.dumps(data(), indent=2))
    elif fmt == "csv" and rows is not None:
        emit_rows(rows())
    else:
        out("\n".join(text()))


def format_option(*formats: str) -> Callable[[F], F]:
    """--format with the given choices, the first being the default."""
    return click.option("--format", "fmt", type=click.Choice(formats), default=formats[0],
                        show_default=True, help="output format")
