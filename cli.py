"""The ``lucky9`` command's entry point (``lucky9 = "cli:run"``; ``python cli.py``).

The command line is the package :mod:`odds.cli`, one module per group of
commands; this file only starts it.  A few names the tests reach through
``cli`` (a command's options, a progress bar, the hooks they patch) are read,
and set, in the module they live in: ``monkeypatch.setattr(cli, ...)``
patches the module that uses the name.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from typing import Any

from odds.cli import main, run

__all__ = ["main", "run"]


class _Home:
    """A name of this module that lives in another module (imported when first used)."""

    def __init__(self, module: Callable[[], types.ModuleType], name: str) -> None:
        self.module, self.name = module, name

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        return getattr(self.module(), self.name)

    def __set__(self, obj: object, value: Any) -> None:
        setattr(self.module(), self.name, value)


def _progress() -> types.ModuleType:
    from odds.cli import progress

    return progress


def _tree() -> types.ModuleType:
    from odds.cli import tree

    return tree


def _count() -> types.ModuleType:
    from odds.cli import count

    return count


def _bank() -> types.ModuleType:
    from odds.cli import bank

    return bank


class _Entry(types.ModuleType):
    """This module, with the names the tests reach through it."""

    _SIGNALLED = _Home(_progress, "_SIGNALLED")
    _bank_progress = _Home(_progress, "delayed_progress")
    _stdout_is_terminal = _Home(_tree, "_stdout_is_terminal")
    count_command = _Home(_count, "count_command")
    bank = _Home(_bank, "bank")


sys.modules[__name__].__class__ = _Entry

if __name__ == "__main__":  # pragma: no cover
    run()
