"""The ``lucky9`` command line: parse, call the ``odds`` library, render.

One module per group of commands; a command's module is imported only when
that command runs (or ``--help`` lists them all), so ``lucky9 odds`` loads
neither numpy nor sympy nor networkx.  Exit codes (docs/commands.md#exit-codes-and-hostile-input): 0
done; 1 the command could not finish for a reason outside its input (disk
full, standard output full or closed, Graphviz missing) or ``verify`` found
the file inconsistent; 2 bad input; 143 ended by SIGTERM (temporary files
removed, as on Ctrl-C, which exits 1 "Aborted!").
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import click

from odds.cli.common import StdoutFailed
from odds.cli.progress import install_sigterm
from odds.io.textio import MAX_MESSAGE, shorten

__all__ = ["Lucky9", "main", "run"]

Loader = Callable[[], Sequence[click.Command]]


class Lucky9(click.Group):
    """The command group: commands loaded when first asked for, every error one short line."""

    def __init__(self, *args: Any, lazy: Mapping[str, Loader] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command's name, loaded or not."""
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command, its module imported now if it was not."""
        if cmd_name not in self.commands and cmd_name in self.lazy:
            for loaded in self.lazy[cmd_name]():
                self.add_command(loaded)
        return super().get_command(ctx, cmd_name)

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        """Run the command; in standalone mode, print errors (bounded) and exit."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
            sys.stdout.flush()
        except click.ClickException as exc:
            exc.message = shorten(exc.message, MAX_MESSAGE - 60)  # type: ignore[misc]
            exc.show()
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        except OSError as exc:
            if exc.filename is not None or exc.errno not in (
                    errno.ENOSPC, errno.EPIPE, errno.EIO, errno.EBADF, errno.EDQUOT):
                raise
            failure = StdoutFailed(exc)
            failure.show()
            sys.exit(failure.exit_code)
        sys.exit(code if isinstance(code, int) else 0)


# -- the command modules, each imported when one of its commands is asked for ----


def _odds() -> Sequence[click.Command]:
    from odds.cli import odds_cmd

    return odds_cmd.COMMANDS


def _game() -> Sequence[click.Command]:
    from odds.cli import game

    return game.COMMANDS


def _payout() -> Sequence[click.Command]:
    from odds.cli import payout

    return payout.COMMANDS


def _tables() -> Sequence[click.Command]:
    from odds.cli import tables

    return tables.COMMANDS


def _tree() -> Sequence[click.Command]:
    from odds.cli import tree

    return tree.COMMANDS


def _conditional() -> Sequence[click.Command]:
    from odds.cli import conditional

    return conditional.COMMANDS


def _shoe() -> Sequence[click.Command]:
    from odds.cli import shoe

    return shoe.COMMANDS


def _count() -> Sequence[click.Command]:
    from odds.cli import count

    return count.COMMANDS


def _sim() -> Sequence[click.Command]:
    from odds.cli import sim

    return sim.COMMANDS


def _bank() -> Sequence[click.Command]:
    from odds.cli import bank

    return bank.COMMANDS


def _night() -> Sequence[click.Command]:
    from odds.cli import night

    return night.COMMANDS


LAZY: dict[str, Loader] = {
    "odds": _odds, "profiles": _odds,
    "solve": _game, "play": _game,
    "payout": _payout,
    "tables": _tables, "par": _tables, "card": _tables,
    "tree": _tree, "conditional": _conditional, "removal": _conditional,
    "shoe": _shoe,
    "count": _count,
    "simulate": _sim, "verify": _sim,
    "bank": _bank,
    "night": _night,
}


@click.group(cls=Lucky9, lazy=LAZY,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="lucky9-odds")
def main() -> None:
    """Exact odds of Lucky 9 (and its baccarat relatives) for any rules and shoe.

    Every probability is computed exactly, as integer counts of card
    sequences divided once; decimals are printed rounded.
    """


def run() -> None:
    """The ``lucky9`` program: SIGTERM cleans up like Ctrl-C, then :func:`main`."""
    install_sigterm()
    main()
