"""``lucky9 bank``: the bank's side of the table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from odds.cli.common import IntRange, PathType, emit, format_option, note, reports_errors
from odds.cli.options import COMMISSION_HELP, FEE_HELP, MAX_BONUS_HELP, command, resolve_rules, rule_options
from odds.cli.progress import delayed_progress
from odds.money.session import bank_study
from odds.money.session_inputs import session_of
from odds.report.bank_report import (
    PlotUnavailable,
    bank_data,
    bank_rows,
    bank_text,
    check_plot_path,
    check_plot_ready,
    write_plot,
)


@command()
@rule_options
@click.option("--players", "--seats", "players", default=None, metavar="N",
              help="players at the table, 1-8 [default: the profile's [session], else 1]; "
                   "dealt from the profile's shoe (or --decks, --shoe) at every N")
@click.option("--stakes", default=None, metavar="S|S1,S2,...",
              help="each seat's stake in seat order, or one stake for every seat; replaces "
                   "the profile's [session] stakes [default: 1 each]")
@click.option("--capital", default=None, metavar="C",
              help="the bank's capital, in the stakes' units")
@click.option("--rounds", default=None, metavar="R", help="rounds in the session")
@click.option("--target-ruin", default=None, metavar="P",
              help="a ruin risk between 0 and 1 (e.g. 0.01 or 1%): the smallest capital, and the "
                   "largest stake for --capital, that keep ruin within --rounds at most P "
                   "(where the round is estimated, the capital with a 95% interval)")
@click.option("--max-stake", default=None, metavar="S", help="the largest stake the bank accepts")
@click.option("--bonus-cap", default=None, metavar="K",
              help="at most K bonus payments per round, in seat order (later Colons paid as "
                   "plain results)")
@click.option("--round-cap", default=None, metavar="X",
              help="the most the bank pays winners in one round (losers are collected first)")
@click.option("--max-bonus", default=None, metavar="X", help=MAX_BONUS_HELP)
@click.option("--fee", default=None, metavar="F", help=FEE_HELP)
@click.option("--commission", default=None, metavar="C", help=COMMISSION_HELP)
@click.option("--cap-rule", type=click.Choice(["seat-order", "pro-rata"]), default=None,
              help="how claims beyond --round-cap are cut [default: seat-order]")
@click.option("--rotation", type=click.Choice(["fixed", "rotate"]), default=None,
              help="one person banks every round, or N+1 persons pass the bank [default: fixed]")
@click.option("--loss-over", default=None, metavar="X",
              help="print P(the bank loses more than X in a round) [default: 5 x the largest "
                   "stake]")
@click.option("--samples", type=IntRange(min=1, max=2_000_000), default=20_000,
              show_default=True,
              help="Monte Carlo rounds where the round is estimated (at most 2,000,000)")
@click.option("--precision", default=None, metavar="P",
              help="where the round is estimated: double --samples until the 95% interval "
                   "on the ruin probability (at --capital, and at the capital for "
                   "--target-ruin) is within +-P (e.g. 0.001; at least 0.000001)")
@click.option("--seed", type=IntRange(min=0), default=1, show_default=True,
              help="seed of the Monte Carlo estimate")
@click.option("--plot", type=PathType(dir_okay=False), default=None, metavar="FILE",
              help="draw ruin against capital and the net distribution (.svg or .png; "
                   "needs the [plot] extra)")
@format_option("text", "json", "csv")
@reports_errors
def bank(**params: Any) -> None:
    """The bank's side: its net per round at N players, caps, session ruin, rotation.

    \b
    Exact where it can be: on the infinite shoe (seats independent given the
    bank's hand), heads-up on any shoe, and 2 players on a finite shoe of up
    to 27 packs (every pair of seats' cards counted against every bank hand:
    measured 1.8-2.0 s of CPU and 60 MB at 8 to 27 packs; the boundary of
    exact work within 10 s and 300 MB).  With 3 to 8 players on
    a finite shoe the mean and variance of the bank's net are exact (without
    caps) and the distribution is a seeded Monte Carlo estimate, labelled as
    such, with 95% intervals; the ruin probability then has a 95% interval,
    the exact mean used as a control variate.  With --capital and --rounds:
    ruined in the first round the bank cannot pay from capital plus that
    round's stakes.  Amounts are in the stakes' units (stakes of 100 and a
    capital of 20,000 are worked as 1 and 200).  Session options can also
    come from a [session] table in a profile file.

    \b
    Examples:
      lucky9 bank --players 8 --decks inf
      lucky9 bank --players 8 --decks inf --capital 50 --rounds 50 \\
          --target-ruin 0.01
      lucky9 bank --players 6 --decks 1 --stakes 100 --capital 20000 --rounds 200
      lucky9 bank --players 3 --stakes 1,1,2 --round-cap 4 --cap-rule pro-rata
    """
    plot = _plot_target(params["plot"])
    profile, shoe = resolve_rules(params)
    session = session_of(profile, params)
    estimate = {k: params[k] for k in ("target_ruin", "samples", "seed", "loss_over", "precision")}
    with delayed_progress() as advance:
        study = bank_study(profile, shoe, session, progress=advance, plot=plot is not None,
                           **estimate)
    emit(params["fmt"], lambda: bank_data(study), lambda: bank_text(study), lambda: bank_rows(study))
    if plot is not None:
        _plotting(lambda: write_plot(study, plot))
        note(f"plot written to {plot}")


def _plot_target(plot: str | None) -> str | None:
    """The --plot file, checked (writable, matplotlib installed) before any work."""
    if plot is not None:
        check_plot_path(plot)
        _plotting(check_plot_ready)
    return plot


def _plotting(job: Callable[[], None]) -> None:
    """Run a plotting job; matplotlib missing (the [plot] extra) is exit code 1, one line."""
    try:
        job()
    except PlotUnavailable as exc:
        raise click.ClickException(str(exc)) from None


COMMANDS = (bank,)
