"""Simulation and its check: ``lucky9 simulate`` and ``lucky9 verify``."""

from __future__ import annotations

import contextlib
import sys
from typing import Any

import click
from click.core import ParameterSource

from odds.checks.strategy_odds import verify_played
from odds.cli.common import IntRange, PathType, emit, format_option, note, reports_errors
from odds.cli.options import PROBABILITY, RULE_FLAGS, command, resolve_rules, rule_options
from odds.cli.progress import progress, rate_progress, signals_at_steps
from odds.report.simulate_report import simulation_data, simulation_text
from odds.report.verify_report import verify_data, verify_lines
from odds.sim.run_files import check_run_files, write_tallies
from odds.sim.simulate import simulate
from odds.sim.verdict import RuleOverrides


@command("simulate")
@rule_options
@click.option("--rounds", type=IntRange(min=1), default=100_000, show_default=True,
              help="rounds to deal (each seat plays every round)")
@click.option("--seats", "--players", "seats", type=IntRange(1, 8), default=1, show_default=True,
              help="player seats against the bank")
@click.option("--seed", type=IntRange(min=0), default=None,
              help="seed for numpy's generator [default: fresh entropy, printed]")
@click.option("--reshuffle", type=click.Choice(["round", "cut"]), default="round",
              show_default=True,
              help="round: a fresh shoe every round; cut: deal each shoe to a cut card "
                   "(--penetration or --cut-cards alone imply cut)")
@click.option("--penetration", type=click.FloatRange(0, 1, min_open=True), default=0.75,
              show_default=True,
              help="with --reshuffle cut: share of the shoe dealt before the cut card "
                   "(count's default is 0.8)")
@click.option("--cut-cards", type=IntRange(min=0), default=None, metavar="N",
              help="with --reshuffle cut: the cut card as the number of cards behind it "
                   "(instead of --penetration; par's default is 14)")
@click.option("--tallies", "tallies_path", type=PathType(dir_okay=False), default=None,
              help="write the tallies here (.csv for CSV, else JSON)")
@click.option("--log", "log_path", type=PathType(dir_okay=False), default=None,
              help="write a round log here, one row per seat per round "
                   "(CSV; JSON Lines if FILE ends in .jsonl)")
@click.option("--progress/--no-progress", default=None,
              help="progress bar on stderr [default: on for a million player-rounds or more]")
@format_option("text", "json")
@reports_errors
def simulate_command(**params: Any) -> None:
    """Monte Carlo simulation of rounds, independent of the exact engine.

    Check its output against the exact odds with 'lucky9 verify'.

    \b
    Examples:
      lucky9 simulate --rounds 1000000 --seed 1 --tallies run.json
      lucky9 simulate --profile punto-banco --reshuffle cut --penetration 0.8
      lucky9 simulate --profile punto-banco --cut-cards 14 --seed 2
      lucky9 simulate --seats 4 --decks 2 --rounds 1000 --seed 3 --log rounds.csv
    """
    profile, shoe = resolve_rules(params)
    rounds, tallies, log = params["rounds"], params["tallies_path"], params["log_path"]
    check_run_files(tallies, log)  # before the run, not after it
    show = params["progress"]
    if show is None:
        show = rounds * params["seats"] >= 1_000_000
    reshuffle = _reshuffle(params)
    with progress(show, rounds, "simulating") as advance:
        sim = simulate(profile, shoe, rounds, seats=params["seats"], seed=params["seed"],
                       reshuffle=reshuffle, penetration=params["penetration"],
                       log=log, progress=advance, cut_cards=params["cut_cards"])
    if tallies is not None:
        write_tallies(tallies, sim)
    emit(params["fmt"], lambda: simulation_data(sim), lambda: simulation_text(sim))
    if tallies is not None:
        note(f"tallies written to {tallies}")
    if log is not None:
        note(f"round log written to {log}")


def _reshuffle(params: dict[str, Any]) -> str:
    """--reshuffle, implied cut by --penetration or --cut-cards (not both of those)."""
    ctx = click.get_current_context()
    given = [name for name in ("penetration", "cut_cards")
             if ctx.get_parameter_source(name) in (ParameterSource.COMMANDLINE,
                                                   ParameterSource.ENVIRONMENT)]
    if len(given) == 2:
        raise click.UsageError("give --penetration or --cut-cards, not both (two ways to "
                               "place one cut card)")
    stated = ctx.get_parameter_source("reshuffle") in (ParameterSource.COMMANDLINE,
                                                       ParameterSource.ENVIRONMENT)
    if given and params["reshuffle"] == "round" and stated:
        flag = "--" + given[0].replace("_", "-")
        raise click.UsageError(f"{flag} places a cut card, but --reshuffle round deals a "
                               "fresh shoe every round: give --reshuffle cut")
    return "cut" if given else str(params["reshuffle"])


@command("verify")
@click.argument("file", type=PathType(dir_okay=False))
@rule_options
@click.option("--seats", "--players", "seats", type=IntRange(1, 8), default=None,
              help="seats of the run (with rule flags; default: from the file)")
@click.option("--reshuffle", type=click.Choice(["round", "cut"]), default=None,
              help="how the run reshuffled (with rule flags; default: from the file)")
@click.option("--cards", type=click.Choice(["ranks", "values"]), default=None,
              help="values: cards are written as point values 0-9 (checks that need "
                   "ranks or suits are skipped) [default: the file's 'cards', else ranks]")
@click.option("--alpha", type=PROBABILITY, default=0.01, show_default=True, metavar="P",
              help="significance level of the verdict (e.g. 0.01 or 1%)")
@click.option("--strategy", default=None,
              help="where players choose: the strategy the log's players played (name or "
                   "file, see 'lucky9 play'); the frequencies are tested against its exact "
                   "odds")
@click.option("--bank-strategy", default=None,
              help="where the bank chooses: the strategy the log's bank played")
@click.option("--jobs", type=IntRange(1, 64), default=1, show_default=True,
              help="processes to judge a round log in, 1 to 64 (the report does not "
                   "depend on it)")
@click.option("--cluster", default=None, metavar="ADDRESS",
              help="judge a round log on a Dask cluster: a scheduler's address "
                   "(tcp://host:8786) or local:N (N worker processes here); needs the "
                   "[cluster] extra")
@click.option("--cluster-timeout", type=click.FloatRange(0, 600, min_open=True), default=10.0,
              show_default=True, metavar="SECONDS",
              help="with --cluster: how long to try to reach the scheduler (at most 600)")
@click.option("--progress/--no-progress", default=None,
              help="with --jobs or --cluster: rows per second and the time left on stderr "
                   "[default: on when stderr is a terminal]")
@format_option("text", "json")
@reports_errors
def verify_command(**params: Any) -> None:
    """Check a simulator's tallies or round log against the rules and exact odds.

    FILE is a tallies file (JSON or CSV) or a round log (CSV or JSON
    Lines), from 'lucky9 simulate' or any simulator (formats: docs/commands.md,
    "File formats for simulate and verify", and docs/simulate-and-verify.md).
    The rules come from the file's header; a rule flag (--profile, --decks,
    ...) replaces only the field it names, and the report says where each
    rule came from (file, flag, default); a file without a header is read as
    'standard'.  Exit code 0: consistent; 1: a rule is broken or the
    frequencies reject; 2: bad input.

    \b
    Examples:
      lucky9 verify run.json
      lucky9 verify rounds.csv --alpha 0.001
      lucky9 verify their-log.csv --profile plain --decks 6
      lucky9 verify log.csv --strategy draw-below:5 --bank-strategy draw-below:6
      lucky9 verify big-log.csv --jobs 8
      lucky9 verify big-log.csv --cluster tcp://scheduler:8786
    """
    if not params["file"]:
        raise click.UsageError("no file name was given (an empty path)")
    parallel = params["jobs"] > 1 or params["cluster"] is not None
    if params["jobs"] > 1 and params["cluster"] is not None:
        raise click.UsageError("give --jobs or --cluster, not both (the cluster's workers "
                               "are the jobs)")
    show = sys.stderr.isatty() if params["progress"] is None else params["progress"]
    with (signals_at_steps() if parallel else contextlib.nullcontext()), \
            rate_progress(show and parallel, "verifying") as advance:
        result = verify_played(params["file"], _overrides(params), params["alpha"],
                               params["seats"], params["strategy"], params["bank_strategy"],
                               jobs=params["jobs"], cluster=params["cluster"],
                               cluster_timeout=params["cluster_timeout"], progress=advance,
                               partial_on_stop=True)
        emit(params["fmt"], lambda: verify_data(result), lambda: verify_lines(result))
    if not result.passed:
        click.get_current_context().exit(1)


_HEADER = ("profile", "decks", "shoe", "forced_draw", "seats", "reshuffle")


def _overrides(params: dict[str, Any]) -> RuleOverrides:
    """The header fields given on the command line (the file's stand for the rest)."""
    ctx = click.get_current_context()
    given = [name for name in (*_HEADER, *(opt.name for opt in RULE_FLAGS))
             if ctx.get_parameter_source(name) in (ParameterSource.COMMANDLINE,
                                                   ParameterSource.ENVIRONMENT)]
    overrides = RuleOverrides(
        profile=params["profile"] if "profile" in given else None,
        options={name: params[name] for name in given if name not in _HEADER}
        | ({"forced_draw": True} if "forced_draw" in given else {}),
        shoe=params["decks"] if "decks" in given else params["shoe"] if "shoe" in given
        else None,
        reshuffle=params["reshuffle"],
        cards=params["cards"],
    )
    if "decks" in given and "shoe" in given:
        raise click.UsageError("give --decks or --shoe, not both")
    return overrides


for _param in verify_command.params:
    if isinstance(_param, click.Option) and _param.name == "profile":
        # The file's header decides unless --profile is given: no misleading default.
        _param.show_default = "the file's header, else standard"


COMMANDS = (simulate_command, verify_command)
