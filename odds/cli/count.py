"""``lucky9 count``: the shoe study, is any bet worth counting?"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any

import click
from click.core import ParameterSource

from odds.cli.common import (
    PROFILE,
    SHOE,
    IntRange,
    PathType,
    emit,
    format_option,
    note,
    reports_errors,
)
from odds.cli.options import SHOE_SECTION, SectionOption, command, resolve_rules, rule_options_without
from odds.cli.progress import progress, signals_at_steps
from odds.exact.deal import BURN_RULES, MAX_ROUNDS_AFTER_CUT
from odds.money.counting import Bankroll, CountSystem, count_grid, count_study
from odds.money.study_grid import (
    Cell,
    check_cells,
    check_run,
    count_system,
    parse_whole,
    resumed_options,
    split_values,
    study_cells,
)
from odds.report.count_report import count_data, count_text, grid_data, grid_rows, grid_text
from odds.rules import Profile, Shoe


@command("count")
@rule_options_without("decks")
@click.option("--decks", "--packs", "decks_list", default=None, metavar="D[,D...]", cls=SectionOption,
              section=SHOE_SECTION,
              help="number of 52-card packs; several (6,8) make a study grid "
                   "[default: the profile's]")
@click.option("--shoes", type=IntRange(1, 10**9), default=1000, show_default=True,
              help="shoes to shuffle and deal to the cut card (at most 10^9)")
@click.option("--penetration", type=click.FloatRange(0, 1, min_open=True), default=0.8,
              show_default=True, help="share of the shoe dealt before the cut card")
@click.option("--cut-cards", "cut_cards_list", default=None, metavar="N[,N...]",
              help="the cut card as the number of cards behind it (instead of --penetration); "
                   "several (14,52) make a study grid")
@click.option("--grid-profile", "grid_profiles", multiple=True, type=PROFILE, metavar="NAME|FILE",
              help="with --profile, more profiles (pay tables) to study side by side: a grid "
                   "(repeatable)")
@click.option("--burn", type=IntRange(min=0), default=0, show_default=True,
              help="cards burned face down at the start of each shoe (unseen)")
@click.option("--burn-rule", type=click.Choice(BURN_RULES), default="none", show_default=True,
              help="casino: burn as casinos do, instead of --burn: the first card is shown "
                   "and its value (A 1, 2-9 their value, 10-K 10) burned face down, unseen")
@click.option("--count-burn/--no-count-burn", default=True, show_default=True,
              help="with --burn-rule casino: the card shown is seen (it leaves the known "
                   "composition and enters your count)")
@click.option("--rounds-after-cut", type=IntRange(0, MAX_ROUNDS_AFTER_CUT), default=0,
              show_default=True, metavar="N",
              help=f"rounds dealt after the round the cut card comes out in, 0 to "
                   f"{MAX_ROUNDS_AFTER_CUT} (casinos deal 1)")
@click.option("--seed", type=IntRange(min=0), default=0, show_default=True,
              help="seed: shoe k is the shoe 'lucky9 shoe --seed S --index k' follows")
@click.option("--jobs", type=IntRange(1, 64), default=1, show_default=True,
              help="processes to spread the shoes over, 1 to 64 (the figures do not depend on it)")
@click.option("--bet", "bets", multiple=True, metavar="BET",
              help="study this bet (repeatable): any bet of 'lucky9 odds --help' or of the "
                   "profile file, or colon-share: the Colon bonus's share of the seat's EV "
                   "(not a wager) [default: every bet of the profile]")
@click.option("--tags", default=None, metavar="A,2,...,K",
              help="your count system: 13 tags, one per rank A..K; balanced tags are read "
                   "as a true count, unbalanced as a running count from --irc")
@click.option("--trigger", default=None, metavar="X",
              help="with --tags: bet when the count is X or more [default: 0]")
@click.option("--trigger-schedule", "schedule", default=None, metavar="C:X[,C:X...]",
              help="with unbalanced --tags: a trigger that changes through the shoe, from C "
                   "cards seen on bet at a running count of X or more "
                   "(0:0,200:-2,300:-4)")
@click.option("--irc", type=IntRange(-10**6, 10**6), default=None, metavar="N",
              help="with unbalanced --tags: the initial running count [default: 0]")
@click.option("--deck-estimate", type=click.Choice(["exact", "half", "whole"]), default="half",
              show_default=True, help="with balanced --tags: how the decks left are estimated")
@click.option("--save", type=click.Path(), default=None, metavar="DIR",
              help="keep every finished chunk of shoes in DIR (a new or empty folder), so a "
                   "stopped study can be resumed")
@click.option("--resume", type=click.Path(), default=None, metavar="DIR",
              help="continue the study saved in DIR (give the same options as when it started)")
@click.option("--cluster", default=None, metavar="ADDRESS",
              help="run the chunks on a Dask cluster: a scheduler's address (tcp://host:8786) "
                   "or local:N (N worker processes here); needs the [cluster] extra")
@click.option("--cluster-timeout", type=click.FloatRange(0, 600, min_open=True), default=10.0,
              show_default=True, metavar="SECONDS",
              help="with --cluster: how long to try to reach the scheduler (at most 600)")
@click.option("--bankroll", default="1000", show_default=True, metavar="MONEY",
              help="the counter's bankroll, for the risk of ruin, the win at --risk-of-ruin "
                   "and the Kelly ramp (2, 2.5 or 5/2)")
@click.option("--betting-unit", default="1", show_default=True, metavar="MONEY",
              help="the table's betting unit: the ramp is in whole units of it")
@click.option("--risk-of-ruin", default="0.05", show_default=True, metavar="P",
              help="the risk of ruin to size the bet for, strictly between 0 and 1 "
                   "(0.05 or 1/20)")
@click.option("--ramp-spread", type=IntRange(1, 1000), default=4, show_default=True,
              metavar="N", help="the Kelly ramp's most units a bet, 1 to 1000")
@click.option("--plot", type=PathType(dir_okay=False), default=None, metavar="FILE",
              help="draw each bet's EV and share of rounds by count bucket (.svg or .png; "
                   "needs the [plot] extra)")
@click.option("--progress/--no-progress", default=None,
              help="progress bar on stderr [default: on for 1,000 shoes or more, "
                   "when stderr is a terminal]")
@format_option("text", "json", "csv")
@reports_errors
def count_command(**params: Any) -> None:
    """The shoe study: is any bet worth counting?

    \b
    Deals N shoes to the cut card, evaluates every round exactly (the
    batch engine, on the composition left before the round) and reports per
    bet: the distribution of the EV across rounds, how often and by how much
    it is positive, perfect information's gain, the best linear count from
    the effects of removal, your own count (--tags, --trigger) and the
    cut-card effect; each way of betting with its bets and units per shoe
    and the EV when betting.  For a counter: a shoe's sd, N0, the risk of
    ruin and the win at --risk-of-ruin for --bankroll, the EV of each count
    bucket, and the Kelly ramp.  The per-round EVs are exact; the summaries
    are estimates over the N shoes, printed with 95% intervals.
    --burn-rule casino --rounds-after-cut 1 deals shoes as casinos do.

    \b
    Examples:
      lucky9 count --shoes 200 --decks 1 --seed 1
      lucky9 count --profile ez-baccarat --decks 8 --bet dragon-7 --cut-cards 14 \\
          --tags 0,0,0,-1,-1,-1,-1,2,2,0,0,0,0 --trigger 4 --bankroll 5000
      lucky9 count --profile punto-banco --shoes 100000 --decks 8 --save study \\
          --cluster local:2
      lucky9 count --resume study --shoes 200000
      lucky9 count --profile ez-baccarat --decks 6,8 --cut-cards 14,52 \\
          --bet dragon-7 --format csv
    """
    cells, bets, system = _checked(params)
    with _session(params) as cluster:  # a bad address fails first, in the time allowed
        _study(cells, bets, system, {**params, "cluster": cluster})


def _checked(params: dict[str, Any]) -> tuple[list[Cell], tuple[str, ...], CountSystem | None]:
    """The cells, bets and count system, every setting checked before any shoe is dealt."""
    _resumed(params)
    cells = study_cells(*_grid(params))
    system = count_system(params["tags"], params["trigger"], params["irc"],
                          params["deck_estimate"], params["schedule"])
    check_run(cells, params["fmt"] == "csv", params["save"], params["resume"],
              params["cluster"], params["jobs"])
    _check_money(params, len(cells))
    return cells, params["bets"] or ("all",), system


def _resumed(params: dict[str, Any]) -> None:
    """--resume DIR: every study option left out is the folder's (those given must agree
    with it, which the study checks)."""
    if params["resume"] is None or params["save"] is not None:
        return
    ctx = click.get_current_context()

    def given(name: str) -> bool:
        return ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)

    saved = resumed_options(params["resume"], profile=not given("profile"))
    for name, value in saved.items():
        if not given(name):
            params[name] = value


def _dealing(params: dict[str, Any]) -> dict[str, Any]:
    """The shoe as dealt: the burn rule and the rounds after the cut card."""
    return {"burn_rule": params["burn_rule"], "count_burn": params["count_burn"],
            "rounds_after_cut": params["rounds_after_cut"]}


def _study(cells: list[Cell], bets: tuple[str, ...], system: CountSystem | None,
           params: dict[str, Any]) -> None:
    """Deal the shoes of every cell (a bar on stderr, signals at its steps) and print."""
    check_cells(cells, bets, params["penetration"], params["burn"], params["seed"], system,
                **_dealing(params))
    fmt, shoes, resume = params["fmt"], params["shoes"], params["resume"]
    show = params["progress"]
    if show is None:
        show = shoes * len(cells) >= 1000 and sys.stderr.isatty()
    options = {"bets": bets, "burn": params["burn"], "system": system, **_dealing(params),
               "save": resume if resume is not None else params["save"],
               "resume": resume is not None, "cluster": params["cluster"],
               "cluster_timeout": params["cluster_timeout"], "partial_on_stop": True,
               "bankroll": params["bankroll"]}
    run = (params["penetration"], params["seed"], params["jobs"])
    with signals_at_steps(), progress(show, shoes * len(cells), "dealing shoes") as advance:
        if len(cells) > 1:
            studies = count_grid(cells, shoes, *run, advance, **options)
            emit(fmt, lambda: grid_data(studies), lambda: grid_text(studies),
                 lambda: grid_rows(studies))
        else:
            profile, packs, cut = cells[0]
            study = count_study(profile, packs, shoes, *run, advance, cut_cards=cut, **options)
            emit(fmt, lambda: count_data(study), lambda: count_text(study))
    if params["plot"] is not None and len(cells) == 1:
        from odds.report.count_plot import write_count_plot

        _plotting(lambda: write_count_plot(study, params["plot"]))
        note(f"plot written to {params['plot']}")


def _check_money(params: dict[str, Any], cells: int) -> None:
    """The bankroll's options, read as :class:`Bankroll`, and --plot: one study's, a .svg
    or .png that can be written, matplotlib installed."""
    params["bankroll"] = Bankroll.of(params["bankroll"], params["betting_unit"],
                                     params["risk_of_ruin"], params["ramp_spread"])
    plot = params["plot"]
    if plot is None:
        return
    if cells > 1:
        raise ValueError("--plot draws one study, not a study grid: give one --decks, "
                         "--cut-cards and profile")
    from odds.report.bank_report import check_plot_path, check_plot_ready

    check_plot_path(plot)
    _plotting(check_plot_ready)


def _plotting(job: Callable[[], None]) -> None:
    """A plotting job; matplotlib missing (the [plot] extra) is exit code 1, one line."""
    from odds.report.bank_report import PlotUnavailable

    try:
        job()
    except PlotUnavailable as exc:
        raise click.ClickException(str(exc)) from None


@contextlib.contextmanager
def _session(params: dict[str, Any]) -> Iterator[Any]:
    """The --cluster session, opened before the study plans (a bad address fails in the
    time allowed, not after the rules table is built), closed after it."""
    if params["cluster"] is None:
        yield None
        return
    from odds.money.counting.cluster import ClusterSession

    session = ClusterSession.open(params["cluster"], params["cluster_timeout"])
    try:
        yield session
    finally:
        session.close()


def _grid(params: dict[str, Any]) -> tuple[list[tuple[Profile, Shoe]], list[int | None]]:
    """Each (profile, shoe) of the grid, --profile and every --grid-profile at each
    --decks, and the cut cards (None: --penetration)."""
    ctx = click.get_current_context()
    decks_param = next(p for p in ctx.command.params if p.name == "decks_list")
    decks: list[Shoe | None] = [None]
    raw_decks = params.pop("decks_list")
    if raw_decks is not None:
        decks = [SHOE.convert(part.strip(), decks_param, ctx)
                 for part in split_values(raw_decks, "--decks")]
    cuts = _cut_cards(params.pop("cut_cards_list"))
    profiles = [params["profile"], *params.pop("grid_profiles")]
    return [resolve_rules({**params, "profile": p, "decks": d})
            for p in profiles for d in decks], cuts


def _cut_cards(text: str | None) -> list[int | None]:
    """--cut-cards: one or several cut cards (None: --penetration)."""
    if text is None:
        return [None]
    if click.get_current_context().get_parameter_source("penetration") in (
            ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT):
        raise click.UsageError("give --penetration or --cut-cards, not both (two ways to "
                               "place one cut card)")
    return [parse_whole(part, "--cut-cards") for part in split_values(text, "--cut-cards")]


COMMANDS = (count_command,)
