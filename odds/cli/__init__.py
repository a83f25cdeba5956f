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

__all__ = ["SHORT_HELP", "Lucky9", "main", "run"]

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

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands with their short help, from :data:`SHORT_HELP`: ``lucky9 --help``
        imports no command's module (tests/cli/test_start.py checks the text is each one's)."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(map(len, names))
        rows = [(name, click.Command(name, help=self.summary(ctx, name)).get_short_help_str(limit))
                for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def summary(self, ctx: click.Context, name: str) -> str:
        """A command's short help: from the static table, or (not in it) from the command."""
        if name in SHORT_HELP:
            return SHORT_HELP[name]
        command = self.get_command(ctx, name)
        return command.get_short_help_str(10**6) if command is not None else ""

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


# Each command's short help (its docstring's first sentence), for ``lucky9 --help``.
SHORT_HELP: dict[str, str] = {
    "bank": "The bank's side: its net per round at N players, caps, session ruin, rotation.",
    "card": "The table card: one A4 page for players, in large type (HTML or PDF).",
    "conditional": "The odds given each two-card value (or pair of values), exactly.",
    "count": "The shoe study: is any bet worth counting?",
    "night": "The owner's night: one page from a profile file with a [session] table.",
    "odds": "Exact odds of one round for a player seat against the bank.",
    "par": "A bet's PAR sheet: combinations, edge, removal, countability, volatility.",
    "payout": "Pay tables: EV as an expression, break-even multipliers, candidates side by side.",
    "play": "Exact odds of a round when players and bank follow given strategies.",
    "profiles": "List the built-in profiles, or show one profile's full rules.",
    "removal": "Effect of removal: how taking one card of each rank moves the odds.",
    "shoe": "Follow a dealt shoe: the exact odds before every round, given the cards seen.",
    "simulate": "Monte Carlo simulation of rounds, independent of the exact engine.",
    "solve": "Optimal play under rules where players and bank choose (family profile).",
    "tables": "Regenerate the reference tables: every built-in profile, D = 1, 2, 4, 6, 8, inf.",
    "tree": "The exact probability tree of one round, by state.",
    "verify": "Check a simulator's tallies or round log against the rules and exact odds.",
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
