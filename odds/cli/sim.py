"""Simulation and its check: ``lucky9 simulate`` and ``lucky9 verify``."""

from __future__ import annotations

from typing import Any

import click

from odds.cli.common import IntRange, PathType, emit, format_option, reports_errors
from odds.cli.options import RULE_FLAGS, command, resolve_rules, rule_options
from odds.cli.progress import progress
from odds.rules import Profile, Shoe
from odds.rules.atomic import check_target, same_target


@command("simulate")
@rule_options
@click.option("--rounds", type=IntRange(min=1), default=100_000, show_default=True,
              help="rounds to deal (each seat plays every round)")
@click.option("--seats", type=IntRange(1, 8), default=1, show_default=True,
              help="player seats against the bank")
@click.option("--seed", type=IntRange(min=0), default=None,
              help="seed for numpy's generator [default: fresh entropy, printed]")
@click.option("--reshuffle", type=click.Choice(["round", "cut"]), default="round",
              show_default=True,
              help="round: a fresh shoe every round; cut: deal each shoe to a cut card")
@click.option("--penetration", type=click.FloatRange(0, 1, min_open=True), default=0.75,
              show_default=True,
              help="with --reshuffle cut: share of the shoe dealt before the cut card")
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
      lucky9 simulate --seats 4 --decks 2 --rounds 1000 --seed 3 --log rounds.csv
    """
    from odds.report.simulate_report import simulation_data, simulation_text
    from odds.sim.simulate import simulate
    from odds.sim.tallies import tallies_csv, tallies_json, write_atomic

    profile, shoe = resolve_rules(params)
    rounds, seats = params["rounds"], params["seats"]
    for option in ("tallies_path", "log_path"):
        if params[option] is not None:
            check_target(params[option])  # before the run, not after it
    if (params["tallies_path"] is not None and params["log_path"] is not None
            and same_target(params["tallies_path"], params["log_path"])):
        raise click.UsageError("--log and --tallies name the same file; give two files")
    show = params["progress"]
    if show is None:
        show = rounds * seats >= 1_000_000
    with progress(show, rounds, "simulating") as advance:
        sim = simulate(profile, shoe, rounds, seats=seats, seed=params["seed"],
                       reshuffle=params["reshuffle"], penetration=params["penetration"],
                       log=params["log_path"], progress=advance)
    path = params["tallies_path"]
    if path is not None:
        text = (tallies_csv(sim.header, sim.tallies) if path.lower().endswith(".csv")
                else tallies_json(sim.header, sim.tallies, sim.note))
        write_atomic(path, text)
    emit(params["fmt"], lambda: simulation_data(sim),
         lambda: simulation_text(sim))
    if path is not None:
        click.echo(f"tallies written to {path}", err=True)
    if params["log_path"] is not None:
        click.echo(f"round log written to {params['log_path']}", err=True)


def _strategy_odds(p_spec: str | None, b_spec: str | None) -> Any:
    """The exact odds of a strategy pair, for verify (odds.game; the verifier cannot import it)."""

    def odds_of(profile: Profile, shoe: Shoe) -> Any:
        from odds.game.game import build_game
        from odds.game.strategy import resolve_pair
        from odds.sim.stats import StrategyOdds

        game = build_game(profile, shoe, "cards")
        player, bank = resolve_pair(game, p_spec or "optimal", b_spec or "optimal")
        r = game.evaluate(player, bank)
        label = f"player {p_spec or 'optimal'}, bank {b_spec or 'optimal'}"
        return StrategyOdds(label, r.win, r.push, r.loss, r.player_draws, r.bank_draws,
                            profile.win)

    return odds_of


@command("verify")
@click.argument("file", type=PathType(dir_okay=False))
@rule_options
@click.option("--seats", type=IntRange(1, 8), default=None,
              help="seats of the run (with rule flags; default: from the file)")
@click.option("--reshuffle", type=click.Choice(["round", "cut"]), default=None,
              help="how the run reshuffled (with rule flags; default: from the file)")
@click.option("--cards", type=click.Choice(["ranks", "values"]), default=None,
              help="values: cards are written as point values 0-9 (checks that need "
                   "ranks or suits are skipped) [default: the file's 'cards', else ranks]")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=0.01, show_default=True, help="significance level of the verdict")
@click.option("--strategy", default=None,
              help="where players choose: the strategy the log's players played (name or "
                   "file, see 'lucky9 play'); the frequencies are tested against its exact "
                   "odds")
@click.option("--bank-strategy", default=None,
              help="where the bank chooses: the strategy the log's bank played")
@format_option("text", "json")
@reports_errors
def verify_command(**params: Any) -> None:
    """Check a simulator's tallies or round log against the rules and exact odds.

    FILE is a tallies file (JSON or CSV) or a round log (CSV or JSON
    Lines), from 'lucky9 simulate' or any simulator (formats: the README's
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
    """
    from click.core import ParameterSource

    from odds.report.verify_report import verify_data, verify_lines
    from odds.sim.verify import RuleOverrides, verify_file

    ctx = click.get_current_context()
    if not params["file"]:
        raise click.UsageError("no file name was given (an empty path)")
    given = [name for name in ("profile", "decks", "shoe", "forced_draw", "seats", "reshuffle",
                               *(opt.name for opt in RULE_FLAGS))
             if ctx.get_parameter_source(name) in (ParameterSource.COMMANDLINE,
                                                   ParameterSource.ENVIRONMENT)]
    overrides = RuleOverrides(
        profile=params["profile"] if "profile" in given else None,
        options={name: params[name] for name in given
                 if name not in ("profile", "decks", "shoe", "forced_draw", "seats",
                                 "reshuffle")}
        | ({"forced_draw": True} if "forced_draw" in given else {}),
        shoe=params["decks"] if "decks" in given else params["shoe"] if "shoe" in given
        else None,
        reshuffle=params["reshuffle"],
        cards=params["cards"],
    )
    if "decks" in given and "shoe" in given:
        raise click.UsageError("give --decks or --shoe, not both")
    p_spec, b_spec = params["strategy"], params["bank_strategy"]
    strategies = _strategy_odds(p_spec, b_spec) if p_spec or b_spec else None
    result = verify_file(params["file"], overrides, params["alpha"], params["seats"],
                         strategies)
    emit(params["fmt"], lambda: verify_data(result),
         lambda: verify_lines(result))
    if not result.passed:
        ctx.exit(1)


for _param in verify_command.params:
    if isinstance(_param, click.Option) and _param.name == "profile":
        # The file's header decides unless --profile is given: no misleading default.
        _param.show_default = "the file's header, else standard"


COMMANDS = (simulate_command, verify_command)
