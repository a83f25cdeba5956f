"""The ``lucky9`` command's entry point (``lucky9 = "cli:run"``; ``python cli.py``).

The command line is the package :mod:`odds.cli`, one module per group of
commands; this file only starts it.
"""

from __future__ import annotations

from odds.cli import main, run

__all__ = ["main", "run"]

if __name__ == "__main__":  # pragma: no cover
    run()
