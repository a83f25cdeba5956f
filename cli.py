"""The ``lucky9`` command: parse, call the ``odds`` library, render.

No maths here.  Library ``ValueError``s become usage errors (exit code 2)
in two places: the parameter types below, for single values, and
:func:`reports_errors`, for checks that span options.  Exit codes (README,
"Exit codes"): 0 done; 1 the command could not finish for a reason outside
its input (disk full, standard output full or closed, Graphviz missing) or
``verify`` found the file inconsistent; 2 bad input; 143 ended by SIGTERM
(temporary files removed, as on Ctrl-C, which exits 1 "Aborted!").
"""

from __future__ import annotations

import contextlib
import csv
import errno
import functools
import io
import json
import os
import re
import signal
import sys
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import click

from odds import OPTIONS, Profile, Shoe, parse_cards, parse_shoe, resolve_profile
from odds.rules.atomic import OutputError, check_target, same_target
from odds.rules.cards import Card
from odds.rules.textio import MAX_MESSAGE, excerpt, shorten

F = TypeVar("F", bound=Callable[..., Any])

# -- parameter types: parse with the library, fail with its sentence ----------


class IntRange(click.IntRange):
    """``click.IntRange`` for ASCII digits only: ``int()`` also reads '٣' and '１'."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not re.fullmatch(r"\s*[+-]?[0-9]+\s*", value):
            self.fail(f"{excerpt(value)} is not a valid integer (digits 0-9 only)", param, ctx)
        return super().convert(value, param, ctx)



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

        from odds import BUILTIN

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


def out(text: str, nl: bool = True) -> None:
    """Print to standard output; if it is full or closed, say so (exit code 1), no traceback."""
    try:
        click.echo(text, nl=nl)
        sys.stdout.flush()
    except OSError as exc:
        raise _StdoutFailed(exc) from None


class _StdoutFailed(click.ClickException):
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


class Lucky9(click.Group):
    """The command group: every command's help in sections, every error message one short line."""

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
            failure = _StdoutFailed(exc)
            failure.show()
            sys.exit(failure.exit_code)
        sys.exit(code if isinstance(code, int) else 0)


_SIGNALLED: list[int] = []  # the SIGTERM received, if one was


def _terminated(signum: int, _frame: Any) -> None:
    """SIGTERM: unwind like Ctrl-C does, so every temporary file is removed."""
    _SIGNALLED.append(signum)
    raise SystemExit(128 + signum)


def _unwind_if_terminated() -> None:
    """Raise again the exit of a SIGTERM whose exception the interpreter dropped.

    CPython loses the exception a signal handler raises while it compiles a
    module's source: sent SIGTERM as it imported a module with no bytecode
    cached yet, `lucky9 tables` ran to its end one time in four (measured).
    The commands' progress callbacks call this: such a run stops at its next
    step, and cleans up as any other.
    """
    if _SIGNALLED:
        if _SIGNALLED[0] == signal.SIGINT:
            raise KeyboardInterrupt
        raise SystemExit(128 + _SIGNALLED[0])


@contextlib.contextmanager
def _signals_at_steps() -> Iterator[None]:
    """While a process pool runs, Ctrl-C and SIGTERM are noted, and acted on at the job's
    next step (its progress callback, at least every half second), never inside the
    pool's own locks: raised there, they left `count --jobs 2` waiting on a lock."""
    def note(signum: int, _frame: Any) -> None:
        _SIGNALLED.append(signum)

    old = {s: signal.signal(s, note) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
    _unwind_if_terminated()  # a signal noted after the last step


@contextlib.contextmanager
def _progress(show: bool, length: int, label: str) -> Iterator[Callable[[int], None]]:
    """The progress callback of a job that reports how much of ``length`` it has done.

    With ``show``, a bar on standard error; either way, the callback stops the
    job at a SIGTERM the interpreter dropped (:func:`_unwind_if_terminated`).
    """
    bar = click.progressbar(length=length, label=label, file=sys.stderr) if show else None
    last = [0]

    def advance(done: int) -> None:
        _unwind_if_terminated()
        if bar is not None:
            bar.update(done - last[0])
            last[0] = done

    with bar if bar is not None else contextlib.nullcontext():
        yield advance


def run() -> None:
    """The ``lucky9`` program: SIGTERM cleans up like Ctrl-C, then :func:`main`."""
    signal.signal(signal.SIGTERM, _terminated)
    main()


# -- shared options -------------------------------------------------------------

_RULE_FLAGS = [opt for opt in OPTIONS if opt.name != "decks"]
# The family game has no pair bonuses and no side bets: solve and play do not offer them.
_BONUS_FLAGS = ("colon_match", "colon", "colon_nine", "bonus_on", "bank_bonus", "bank_colon",
                "bank_colon_nine", "banker_pays", "tie_pays")

SHOE_SECTION = "Profile and shoe"
RULES_SECTION = "Rule options (each replaces the profile's setting; see docs/rules.md)"


class SectionOption(click.Option):
    """An option listed in --help under a heading of its own."""

    def __init__(self, *args: Any, section: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.section = section


class SectionedCommand(click.Command):
    """Help lists the command's own options first, then each section of shared options."""

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        sections: dict[str, list[tuple[str, str]]] = {"Options": []}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx) if isinstance(param, click.Option) else None
            if record is not None:
                sections.setdefault(getattr(param, "section", None) or "Options", []).append(record)
        for name, records in sections.items():
            if records:
                with formatter.section(name):
                    formatter.write_dl(records)




def rule_options(func: F) -> F:
    """--profile, --decks, --shoe and one flag per profile option."""
    return rule_options_without()(func)


def rule_options_without(*without: str) -> Callable[[F], F]:
    """:func:`rule_options` less the options named in ``without``."""

    def decorate(func: F) -> F:
        for opt in reversed(_RULE_FLAGS):
            if opt.name in without:
                continue
            flag = "--" + opt.name.replace("_", "-")
            choice = click.Choice(opt.choices, case_sensitive=False) if opt.choices else None
            func = click.option(flag, opt.name, type=choice or str, default=None, cls=SectionOption,
                                section=RULES_SECTION, help=opt.help,
                                metavar=None if choice else "VALUE")(func)
        func = click.option("--forced-draw", is_flag=True, default=None, cls=SectionOption,
                            section=SHOE_SECTION,
                            help="every non-natural hand draws (the forced-draw variant)")(func)
        func = click.option("--shoe", "shoe", type=SHOE, default=None, cls=SectionOption,
                            section=SHOE_SECTION,
                            help="explicit shoe: 13 counts in A..K order, "
                                 "or RANK=COUNT for every rank")(func)
        if "decks" not in without:  # count takes a list of them (a study grid)
            func = click.option("--decks", type=SHOE, default=None, metavar="D|inf",
                                cls=SectionOption, section=SHOE_SECTION,
                                help="number of 52-card packs, or inf (with replacement) "
                                     "[default: the profile's]")(func)
        func = click.option("--profile", "profile", type=PROFILE, default="standard",
                            show_default=True, cls=SectionOption, section=SHOE_SECTION,
                            help="built-in profile (see 'lucky9 profiles'; any case) "
                                 "or a .toml profile file")(func)
        return func

    return decorate


def resolve_rules(params: dict[str, Any]) -> tuple[Profile, Shoe]:
    """The profile with flag overrides applied, and the shoe to deal from.

    Pops the rule options from ``params``.
    """
    profile: Profile = params.pop("profile")
    overrides = {opt.name: params.pop(opt.name, None) for opt in _RULE_FLAGS}
    forced = params.pop("forced_draw")
    if forced:
        overrides["forced_draw"] = True
    overrides = {k: v for k, v in overrides.items() if v is not None}
    if overrides:
        profile = profile.with_options(**overrides)
    decks: Shoe | None = params.pop("decks")
    shoe: Shoe | None = params.pop("shoe")
    if decks is not None and decks.packs is not None:
        # The shoe asked for is the profile's decks option from here on.
        profile = profile.with_options(decks=decks.packs)
    if decks is not None and shoe is not None:
        raise click.UsageError("give --decks or --shoe, not both")
    if shoe is None:
        if decks is not None and decks.packs is None and not decks.infinite:
            raise click.UsageError(
                "--decks takes a number of packs or inf; use --shoe for a composition")
        shoe = decks or Shoe.packs_of(profile.decks)
    return profile, shoe


TERMINAL_NODES = 2000  # larger trees go to a file (-o) or a pipe, not a terminal


def _stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


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


# -- commands -----------------------------------------------------------------


Lucky9.command_class = SectionedCommand  # every command's help in sections


@click.group(cls=Lucky9, context_settings={"help_option_names": ["-h", "--help"],
                                            "max_content_width": 100})
@click.version_option(package_name="lucky9-odds")
def main() -> None:
    """Exact odds of Lucky 9 (and its baccarat relatives) for any rules and shoe.

    Every probability is computed exactly, as integer counts of card
    sequences divided once; decimals are printed rounded.
    """


@main.command()
@rule_options
@click.option("--player", type=CARDS, default=None,
              help="the player's known cards in deal order (0-3), e.g. '8h 7s'")
@click.option("--bank", type=CARDS, default=None, help="the bank's known cards (0-3)")
@click.option("--removed", type=CARDS, default=None,
              help="cards seen or burned, no longer in the shoe")
@click.option("--player-total", type=IntRange(), default=None, metavar="T",
              help="given only the player's two-card value T (0-9), any cards that make it")
@click.option("--bank-total", type=IntRange(), default=None, metavar="T",
              help="given only the bank's two-card value T (0-9)")
@click.option("--strategy", default=None,
              help="player strategy where players choose (see 'lucky9 play')")
@click.option("--bank-strategy", default=None,
              help="bank strategy where the bank chooses (see 'lucky9 play')")
@click.option("--slot", "slots", multiple=True, metavar="K=CARD",
              help="the card dealt in slot K of the deal order: 1-4 player, bank, player, "
                   "bank (the two-card hands as dealt), 5 the next card whoever takes it, 6 "
                   "the one after; repeatable, e.g. --slot 5=9h")
@click.option("--bet", "bets", multiple=True, metavar="NAME",
              help="add a bet's EV, variance and payouts (built-in: player, banker, tie, "
                   "player-pair, banker-pair, either-pair, perfect-pair, dragon-bonus-player, "
                   "dragon-bonus-banker, dragon-7, panda-8, ez-banker, colon, colon-nine; or "
                   "one the profile file defines); 'all': every bet of the profile; repeatable")
@format_option("text", "json", "csv")
@reports_errors
def odds(**params: Any) -> None:
    """Exact odds of one round for a player seat against the bank.

    \b
    Examples:
      lucky9 odds
      lucky9 odds --decks 8 --naturals compare --colon 5/2
      lucky9 odds --player '8h 7s' --bank 'Ac 6d' --format json
      lucky9 odds --profile punto-banco
      lucky9 odds --player-total 5 --bank-total 3
      lucky9 odds --profile punto-banco --bet all
      lucky9 odds --profile ez-baccarat --bet dragon-7 --slot 5=7h

    \b
    The EV now, in a dealt shoe (the cards seen so far removed):
      lucky9 odds --decks 8 --removed '5 5 5 5 4 4 6 A'
    """
    from odds import round_odds
    from odds.report.odds_report import odds_data, odds_rows, odds_text

    profile, shoe = resolve_rules(params)
    p_spec, b_spec = params.pop("strategy"), params.pop("bank_strategy")
    slots, bets = params.pop("slots"), params.pop("bets")
    if (slots or bets) and (p_spec or b_spec or not profile.fixed):
        raise click.UsageError("--slot and --bet need a fixed-rule profile (no strategies)")
    if (slots or bets) and (params["player_total"] is not None
                            or params["bank_total"] is not None):
        raise click.UsageError(
            "--slot and --bet cannot be combined with --player-total/--bank-total: "
            "give known cards instead")
    if slots or bets:
        from odds.exact.bets import odds_and_bets
        from odds.report.bets_report import odds_bets_data, odds_bets_rows, odds_bets_text

        both = odds_and_bets(profile, shoe, bets, player=params["player"] or (),
                             bank=params["bank"] or (), removed=params["removed"] or (),
                             slots=slots)
        emit(params["fmt"], lambda: odds_bets_data(*both), lambda: odds_bets_text(*both),
             lambda: odds_bets_rows(*both))
        return
    if p_spec or b_spec or not profile.fixed:
        if params["fmt"] == "csv":
            raise click.UsageError(
                f"profile {profile.key!r} is played as a game (players and bank choose), "
                "which has no CSV form: use --format text or json"
                if not profile.fixed else "with strategies, use --format text or json")
        if params["player_total"] is not None or params["bank_total"] is not None:
            raise click.UsageError(
                "--player-total/--bank-total are for fixed-rule profiles; "
                "with strategies give known cards (--player, --bank)")
        if params["removed"]:
            shoe = shoe.without(params["removed"])
        play_round(profile, shoe, p_spec or "optimal", b_spec or "optimal", "cards", 1,
                   params["fmt"], params["player"] or (), params["bank"] or ())
        return
    result = round_odds(
        profile, shoe,
        player=params["player"] or (), bank=params["bank"] or (),
        removed=params["removed"] or (),
        player_total=params["player_total"], bank_total=params["bank_total"],
    )
    fmt = params["fmt"]
    emit(fmt, lambda: odds_data(result),
         lambda: odds_text(result),
         lambda: odds_rows(result))


@main.command()
@click.argument("name", required=False, type=PROFILE)
@format_option("text", "json")
@reports_errors
def profiles(name: Profile | None, fmt: str) -> None:
    """List the built-in profiles, or show one profile's full rules.

    NAME is a built-in key or a .toml profile file.
    """
    from odds import BUILTIN
    from odds.report.profile_report import (
        profile_data,
        profile_list_data,
        profile_list_text,
        profile_text,
    )

    if name is None:
        emit(fmt, lambda: profile_list_data(BUILTIN), lambda: profile_list_text(BUILTIN))
    else:
        emit(fmt, lambda: profile_data(name), lambda: profile_text(name))


# -- games: the family rules, where players and bank choose ---------------------

_INFORMATION = click.option(
    "--information", type=click.Choice(["cards", "totals"]), default="cards",
    show_default=True,
    help="cards: each side knows its own two cards; totals: only its two-card value")


def _game_rules(params: dict[str, Any]) -> tuple[Profile, Shoe, bool]:
    """resolve_rules, and True if --decks or --shoe was given."""
    given = params.get("decks") is not None or params.get("shoe") is not None
    profile, shoe = resolve_rules(params)
    return profile, shoe, given


def _family_default(command: click.Command) -> click.Command:
    """Make --profile default to family (the rules where people choose)."""
    for param in command.params:
        if param.name == "profile":
            param.default = "family"
    return command


def play_round(profile: Profile, shoe: Shoe, player_spec: str, bank_spec: str,
               information: str, players: int, fmt: str,
               player_cards: tuple[Card, ...] = (), bank_cards: tuple[Card, ...] = ()) -> None:
    """Evaluate a (player strategy, bank strategy) pair exactly and print it."""
    from odds.game.play import play
    from odds.report.game_report import play_data, play_text

    result = play(profile, shoe, player_spec, bank_spec, information, players,
                  player_cards, bank_cards)
    emit(fmt, lambda: play_data(result),
         lambda: play_text(result))


@main.command()
@rule_options_without(*_BONUS_FLAGS)
@click.option("--players", type=IntRange(1, 8), default=1, show_default=True,
              help="players at the table (more than 1: infinite shoe unless --decks or "
                   "--shoe is given; finite shoes are exact up to 2 players)")
@_INFORMATION
@click.option("--strategy", default="optimal", show_default=True,
              help="at a table: the players' strategy (name or file) the bank answers")
@click.option("--model", type=click.Choice(["A1", "B1", "B2", "B3"], case_sensitive=False),
              default=None, help="chemin de fer: a published model (A1 with replacement, "
              "totals; B2 banker sees his cards; B3 both do); the banker may choose anywhere")
@click.option("--commission", default=None, metavar="ALPHA",
              help="chemin de fer: the share of the banker's wins taken (0 to 1/10, e.g. 1/20)")
@click.option("--removed", type=CARDS, default=None,
              help="chemin de fer: cards already out of the shoe, e.g. '5 5 K 9'")
@format_option("text", "json")
@reports_errors
def solve(**params: Any) -> None:
    """Optimal play under rules where players and bank choose (family profile).

    Heads-up: the exact zero-sum equilibrium (exact LP, checked by both exact
    best responses). At a table of N players (infinite shoe, or a finite one
    up to 2 players): the bank's exact best response to the players'
    strategy, and one seat's best response.

    \b
    Examples:
      lucky9 solve --decks 8
      lucky9 solve --decks inf --information totals --format json
      lucky9 solve --players 4
      lucky9 solve --profile chemin-de-fer --model B2 --decks 6 --commission 1/20
    """
    from odds.game.game import build_game
    from odds.game.solve import solve_game
    from odds.report.game_report import solve_data, solve_text

    profile, shoe, given = _game_rules(params)
    if _is_chemin(profile, params):
        if not given and (params.get("model") or "").upper() == "A1":
            shoe = Shoe.infinite_shoe()  # Kemeny and Snell's model deals with replacement
        _solve_chemin(profile, shoe, params)
        return
    players = params["players"]
    if players > 1:
        if not given:
            shoe = Shoe.infinite_shoe()
        play_round(profile, shoe, params["strategy"], "best-response",
                   params["information"], players, params["fmt"])
        return
    eq = solve_game(build_game(profile, shoe, params["information"]))
    emit(params["fmt"], lambda: solve_data(eq),
         lambda: solve_text(eq))


_family_default(solve)


def _is_chemin(profile: Profile, params: dict[str, Any]) -> bool:
    """Chemin de fer: a model is asked for, or the player chooses on some totals only."""
    rule = profile.player_draw
    if params.get("model") or params.get("commission") is not None or params.get("removed"):
        return True
    return rule is not None and bool(rule.choose)


def _solve_chemin(profile: Profile, shoe: Shoe, params: dict[str, Any]) -> None:
    from odds.game.chemin import chemin_game, parse_commission, solve_chemin
    from odds.report.chemin_report import chemin_data, chemin_text

    if params["players"] > 1:
        raise click.UsageError("chemin de fer is heads-up: the banker against one player")
    commission = parse_commission(params["commission"] or 0)
    model = params["model"].upper() if params["model"] else None
    if params["information"] == "totals":
        if model:
            raise click.UsageError("--model says what each side sees: leave --information out")
        profile = profile.with_options(player_sees="total", bank_sees="total")
    if params.get("removed"):
        shoe = shoe.without(params["removed"])
    sol = solve_chemin(chemin_game(profile, shoe, model), commission, model)
    emit(params["fmt"], lambda: chemin_data(sol), lambda: chemin_text(sol))


@main.command()
@rule_options_without(*_BONUS_FLAGS)
@click.option("--strategy", "player_strategy", default="optimal", show_default=True,
              help="player strategy: standard-rule, never, always, draw-below:K, optimal, "
                   "best-response, or a .toml/.json file")
@click.option("--bank-strategy", default="optimal", show_default=True,
              help="bank strategy: the same names, or a file")
@click.option("--players", type=IntRange(1, 8), default=1, show_default=True,
              help="players at the table, all playing --strategy (more than 1: infinite "
                   "shoe unless --decks or --shoe is given; the bank's optimal is then its "
                   "best response)")
@_INFORMATION
@click.option("--player", type=CARDS, default=None, help="the player's two cards, e.g. '8h 7s'")
@click.option("--bank", type=CARDS, default=None, help="the bank's two cards, e.g. 'Ac 6d'")
@click.option("--model", type=click.Choice(["A1", "B1", "B2", "B3"], case_sensitive=False),
              default=None, help="chemin de fer: a published model (see lucky9 solve)")
@click.option("--third", default=None, metavar="CARD|stood",
              help="chemin de fer: the player's face-up third card, or stood; with --bank, "
                   "the banker's decision")
@format_option("text", "json")
@reports_errors
def play(**params: Any) -> None:
    """Exact odds of a round when players and bank follow given strategies.

    \b
    Examples:
      lucky9 play --strategy standard-rule --bank-strategy standard-rule
      lucky9 play --decks 8 --strategy draw-below:5 --bank-strategy best-response
      lucky9 play --strategy mine.toml --information totals
      lucky9 play --profile chemin-de-fer --bank '2 3' --third 4
    """
    profile, shoe, given = _game_rules(params)
    if params["model"] or params["third"] is not None or (
            profile.player_draw is not None and profile.player_draw.choose):
        if not given and (params["model"] or "").upper() == "A1":
            shoe = Shoe.infinite_shoe()  # Kemeny and Snell's model deals with replacement
        _play_chemin(profile, shoe, params)
        return
    if params["players"] > 1 and not given:
        shoe = Shoe.infinite_shoe()
    play_round(profile, shoe, params["player_strategy"], params["bank_strategy"],
               params["information"], params["players"], params["fmt"],
               params["player"] or (), params["bank"] or ())


_family_default(play)


def _play_chemin(profile: Profile, shoe: Shoe, params: dict[str, Any]) -> None:
    """One chemin de fer decision, the other side playing its equilibrium strategy."""
    from odds.game.chemin import chemin_game, decision, hand_of, solve_chemin
    from odds.game.game import third_label
    from odds.report.chemin_report import decision_data, decision_text

    if params["players"] > 1:
        raise click.UsageError("chemin de fer is heads-up: the banker against one player")
    if params["player_strategy"] != "optimal" or params["bank_strategy"] != "optimal":
        raise click.UsageError("a chemin de fer decision is answered against the other side's "
                               "equilibrium strategy: leave --strategy and --bank-strategy out")
    player, bank, third = params["player"], params["bank"], params["third"]
    if bool(player) == bool(bank):
        raise click.UsageError("give the banker's two cards with --bank and --third CARD|stood, "
                               "or the player's two cards with --player (one decision)")
    for cards, who in ((player, "player"), (bank, "banker")):
        if cards and len(cards) != 2:
            raise click.UsageError(f"give the {who}'s two cards, not {len(cards)}")
    x: int | None = None
    if bank:
        if third is None:
            raise click.UsageError("give the player's third card with --third CARD, "
                                   "or --third stood")
        if third.strip().lower() != "stood":
            card = parse_cards(third)
            if len(card) != 1:
                raise click.UsageError(f"--third takes one card or stood, not {excerpt(third)}")
            x = card[0].points
    elif third is not None:
        raise click.UsageError("--third goes with --bank: the banker decides after the player")
    model = params["model"].upper() if params["model"] else None
    game = chemin_game(profile, shoe, model)
    sol = solve_chemin(game, 0, model)
    eq = sol.equilibria[0]
    # Under a model where a side sees its cards, its information set is its two
    # cards, so the EVs below are exactly those given the cards held.
    if bank:
        where: Any = (hand_of(bank, game.bank_information or game.information), third_label(x))
        if where not in game.bank_sets:
            raise click.UsageError("this situation cannot arise: a hand is a natural, the "
                                   "player could not have done that, or the shoe lacks the cards")
        d = decision(game, eq.player, eq.bank, "bank", where)
    else:
        where = hand_of(player, game.information)
        if where not in game.player_sets:
            raise click.UsageError("this situation cannot arise: a natural stops every draw, "
                                   "or the shoe lacks the cards")
        d = decision(game, eq.player, eq.bank, "player", where)
    emit(params["fmt"], lambda: decision_data(d, sol), lambda: decision_text(d, sol))


def _entry_names(names: tuple[str, ...]) -> list[str]:
    return [name.strip().lower().replace("-", "_") for name in names]


@main.command()
@rule_options
@click.option("--symbol", "symbols", multiple=True, metavar="ENTRY",
              help="make a pay-table entry a symbol (win, colon, colon_nine, bank_colon, "
                   "bank_colon_nine, banker_pays, tie_pays); repeatable")
@click.option("--solve", "solve", multiple=True, metavar="ENTRY",
              help="the entry's break-even value (EV exactly 0), others as set or symbolic; "
                   "repeatable [default: every entry of the pay table]")
@click.option("--table", "tables", multiple=True, metavar="SPEC",
              help="a candidate pay table, e.g. 'colon=3/2,colon_nine=5/2'; repeatable: "
                   "shown side by side with the profile's own")
@click.option("--players", type=IntRange(1, 8), default=1, show_default=True,
              help="players at the table: the bank's edge per round is N x the seat figure")
@click.option("--bet", "bets", multiple=True, metavar="NAME",
              help="a bet's pay table instead (see 'lucky9 odds --help'; 'all': every bet of "
                   "the profile): each line's probability and break-even pay; repeatable")
@format_option("text", "json")
@reports_errors
def payout(**params: Any) -> None:
    """Pay tables: EV as an expression, break-even multipliers, candidates side by side.

    Exact fractions and decimals, per unit stake, from the player seat's side;
    the bank's edge is the negative.  Every seat has the same figures under
    fixed rules, so at a table of N players the bank's expected take per round
    is N x the seat figure.

    \b
    Examples:
      lucky9 payout
      lucky9 payout --symbol colon --symbol colon_nine
      lucky9 payout --solve colon_nine --colon 2
      lucky9 payout --bank-bonus on --solve colon
      lucky9 payout --table colon=3/2,colon_nine=5/2 --table colon=1 --players 8
      lucky9 payout --profile punto-banco --symbol banker_pays
      lucky9 payout --profile ez-baccarat --bet dragon-7 --bet panda-8
    """
    from odds import round_odds
    from odds.money.payout import parse_table
    from odds.report.payout_report import payout_data, payout_text

    profile, shoe = resolve_rules(params)
    if params["bets"]:
        if params["symbols"] or params["solve"] or params["tables"]:
            raise click.UsageError("--bet shows a bet's own pay table: give it without "
                                   "--symbol, --solve or --table")
        from odds.exact.bets import bet_odds
        from odds.report.bets_report import break_even_data, break_even_page

        results = bet_odds(profile, shoe, params["bets"])
        emit(params["fmt"], lambda: {"profile": profile.key, "shoe": shoe.label,
                                     "bets": break_even_data(results)},
             lambda: break_even_page(profile, shoe, results))
        return
    tables = [parse_table(spec) for spec in params["tables"]]
    result = round_odds(profile, shoe)
    solve = _entry_names(params["solve"]) or None
    data = payout_data(result, _entry_names(params["symbols"]), solve, tables,
                       params["players"])
    emit(params["fmt"], lambda: data,
         lambda: payout_text(data))



MAX_PROFILES = 16  # profiles of one 'tables --profile' or 'card' run


def _out_folder(target: str, names: list[str], what: str) -> tuple[list[str], Callable[[], None]]:
    """The files ``names`` in the folder ``target`` (created if missing), each checked.

    Returns them and an undo that removes the folder again if this run made it and it
    is still empty: a run that fails leaves nothing behind.
    """
    import pathlib

    folder = pathlib.Path(target)
    if folder.exists() and not folder.is_dir():
        raise click.UsageError(f"--out {target!r}: several {what} are written into a folder, "
                               "and this is a file")
    made = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise click.UsageError(f"--out {target!r}: {exc.strerror or exc}") from None

    def undo() -> None:
        if made:
            with contextlib.suppress(OSError):
                folder.rmdir()

    paths = [str(folder / name) for name in names]
    try:
        for p in paths:
            check_target(p)
    except BaseException:
        undo()
        raise
    return paths, undo


def _write_whole(paths: list[str], undo: Callable[[], None],
                 make: Callable[[], list[str]]) -> list[str]:
    """Make the texts and, where ``paths`` are given, write them all or none.

    On any failure (an error, Ctrl-C) ``undo`` removes the folder this run made; the
    files written are named on stderr.  Returns the texts.
    """
    from odds.report.par import write_par

    try:
        texts = make()
        if paths:
            write_par(list(zip(paths, texts, strict=True)))
    except BaseException:
        undo()
        raise
    for p in paths:
        click.echo(f"wrote {p}", err=True)
    return texts


def _distinct(profiles: tuple[Profile, ...]) -> list[Profile]:
    """The --profile values, at most MAX_PROFILES, no key twice (their files would collide)."""
    if len(profiles) > MAX_PROFILES:
        raise click.UsageError(f"at most {MAX_PROFILES} profiles a run, not {len(profiles)}")
    keys = [p.key for p in profiles]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise click.UsageError(f"profile {twice[0]!r} is given twice (two profiles with one "
                               "name would write the same files)")
    return list(profiles)


@main.command()
@click.option("--out", "folder", type=PathType(file_okay=False), default="tables",
              show_default=True, help="folder to write the tables into (created if missing)")
@click.option("--profile", "profiles", type=PROFILE, multiple=True, metavar="NAME|FILE",
              help="only this profile (repeatable): a built-in name or a .toml profile file "
                   "[default: every built-in profile, and the index]")
@reports_errors
def tables(folder: str, profiles: tuple[Profile, ...]) -> None:
    """Regenerate the reference tables: every built-in profile, D = 1, 2, 4, 6, 8, inf.

    Markdown, CSV and JSON per profile and shoe, a printable one-page HTML
    sheet per profile, and README.md, an index.  Reproducible byte for byte;
    files are moved into place atomically, so an interrupted run leaves the
    old tables whole.  Progress goes to standard error.  With --profile, the
    pages and sheet of those profiles only (your own rules from a profile
    file too), and no index.

    \b
    Examples:
      lucky9 tables --out tables
      lucky9 tables --profile standard --profile ez-baccarat --out my-tables
    """
    from odds.report.table_files import table_steps, write_tables

    chosen = _distinct(profiles) or None

    with contextlib.ExitStack() as stack:
        bars: list[Any] = []

        def step(_label: str) -> None:
            _unwind_if_terminated()
            # The bar starts with the first result, after the folder was checked.
            if not bars:
                bars.append(stack.enter_context(click.progressbar(
                    length=table_steps(chosen), label="computing tables",
                    file=sys.stderr)))
            bars[0].update(1)

        written = write_tables(folder, chosen, progress=step)
    out(f"wrote {len(written)} files to {folder}")


@main.command("par")
@rule_options
@click.option("--bet", "bets", multiple=True, metavar="NAME", required=True,
              help="the bet (repeatable: one sheet each): any built-in bet or one of the "
                   "profile file")
@click.option("--format", "fmt", type=click.Choice(["html", "md", "json"]), default="md",
              show_default=True, help="output format (html: print-ready A4 with charts)")
@click.option("--out", "out_path", type=PathType(), default=None, metavar="PATH",
              help="write here, whole or not at all (several bets: a folder, one file each) "
                   "[default: standard output]")
@click.option("--count/--no-count", default=True, show_default=True,
              help="run the shoe study (countability, cut-card effect)")
@click.option("--shoes", type=IntRange(1, 100_000), default=2000, show_default=True,
              help="shoes of the study, 1 to 100,000")
@click.option("--seed", type=IntRange(min=0), default=1, show_default=True,
              help="seed of the study (shoe k is 'lucky9 shoe --seed S --index k')")
@click.option("--cut-cards", type=IntRange(min=0), default=14, show_default=True, metavar="N",
              help="the study's cut card: N cards behind it")
@click.option("--progress/--no-progress", default=None,
              help="progress bar on stderr [default: on when stderr is a terminal]")
@reports_errors
def par_command(**params: Any) -> None:
    """A bet's PAR sheet: combinations, edge, removal, countability, volatility.

    \b
    Per pay line at 1, 2, 4, 6, 8 packs and the infinite shoe: exact
    combinations, probability, contribution to the return; per shoe size:
    house edge, hit frequency, variance, standard deviation; the break-even
    pay of each line, the effect of removal per rank and the volatility on
    the profile's own shoe; the countability (best linear count's tags,
    betting correlation, what perfect information and the count gain a shoe)
    and the cut-card effect, from a shoe study whose shoes and seed are
    printed (--no-count leaves it out).  The same figures as odds, payout,
    removal and count give.

    \b
    Examples:
      lucky9 par --profile ez-baccarat --bet dragon-7 --no-count
      lucky9 par --profile ez-baccarat --bet dragon-7 --format html --out d7.html
      lucky9 par --profile punto-banco --bet tie --bet dragon-7 --out sheets
    """
    from odds.report.par import check_par_shoe, par_data, par_sheet, render

    profile, shoe = resolve_rules(params)
    if shoe.packs is None or shoe.size != 52 * shoe.packs:
        raise click.UsageError("a PAR sheet is for a fresh shoe of packs: give --decks D")
    check_par_shoe(profile, params["shoes"], params["seed"], params["cut_cards"])
    from odds.rules.bet_library import resolve_bets

    bets = resolve_bets(profile, params["bets"])  # every name checked before any work
    fmt, target = params["fmt"], params["out_path"]
    paths: list[str] = []
    undo: Callable[[], None] = lambda: None  # noqa: E731
    if target is not None:
        if len(bets) == 1:
            check_target(target)
            paths = [target]
        else:
            paths, undo = _out_folder(target, [f"{profile.key}-{b.name}-par.{fmt}"
                                               for b in bets], "sheets")
    elif fmt == "html" and len(bets) > 1:
        raise click.UsageError("several HTML sheets go to a folder: give --out DIR")
    show = params["progress"]
    if show is None:
        show = params["count"] and sys.stderr.isatty()

    def sheets() -> list[str]:
        texts = []
        for bet in bets:
            with _progress(bool(show), params["shoes"], f"{bet.name}: dealing shoes") as advance:
                sheet = par_sheet(profile, bet, count=params["count"], shoes=params["shoes"],
                                  seed=params["seed"], cut_cards=params["cut_cards"],
                                  progress=advance)
            texts.append(render(par_data(sheet), fmt))
        return texts

    texts = _write_whole(paths, undo, sheets)
    if not paths and fmt == "json" and len(texts) > 1:
        out("[\n" + ",\n".join(t.rstrip("\n") for t in texts) + "\n]")
    elif not paths:
        out("\n".join(t.rstrip("\n") + "\n" for t in texts).rstrip("\n"))


@main.command("card")
@click.option("--profile", "profiles", type=PROFILE, multiple=True, required=True,
              metavar="NAME|FILE",
              help="the profile (repeatable: one card each): a built-in name or a .toml file")
@click.option("--out", "out_path", type=PathType(), default=None, metavar="PATH",
              help="write here, whole or not at all (several profiles: a folder, "
                   "PROFILE-card.html each) [default: standard output]")
@reports_errors
def card_command(profiles: tuple[Profile, ...], out_path: str | None) -> None:
    """The table card: one A4 page for players, in large type (HTML).

    \b
    The house's rules in words, what each bet of the profile pays, and each
    bet's house edge in percent at the profile's own number of packs.

    \b
    Examples:
      lucky9 card --profile ez-baccarat --out ez-card.html
      lucky9 card --profile standard --profile punto-banco --out cards
    """
    from odds.report.card import card

    chosen = _distinct(profiles)
    for profile in chosen:
        if not profile.fixed:
            raise click.UsageError(f"profile {profile.key!r} has no fixed rule (its players "
                                   "and bank choose): a table card is for a fixed-rule profile")
    paths: list[str] = []
    undo: Callable[[], None] = lambda: None  # noqa: E731
    if out_path is not None and len(chosen) == 1:
        check_target(out_path)
        paths = [out_path]
    elif out_path is not None:
        paths, undo = _out_folder(out_path, [f"{p.key}-card.html" for p in chosen], "cards")
    elif len(chosen) > 1:
        raise click.UsageError("several cards go to a folder: give --out DIR")
    texts = _write_whole(paths, undo, lambda: [card(p) for p in chosen])
    if not paths:
        out(texts[0].rstrip("\n"))


# -- the probability tree, conditional odds, effect of removal -----------------


def _known_cards(func: F) -> F:
    """--player, --bank, --removed as for ``lucky9 odds``."""
    func = click.option("--removed", type=CARDS, default=None,
                        help="cards seen or burned, no longer in the shoe")(func)
    func = click.option("--bank", type=CARDS, default=None,
                        help="the bank's known cards (0-3)")(func)
    func = click.option("--player", type=CARDS, default=None,
                        help="the player's known cards in deal order (0-3), e.g. '8h 7s'")(func)
    return func


@main.command()
@rule_options
@_known_cards
@click.option("--player-total", type=IntRange(), default=None, metavar="T",
              help="given only the player's two-card value T (0-9)")
@click.option("--bank-total", type=IntRange(), default=None, metavar="T",
              help="given only the bank's two-card value T (0-9)")
@click.option("--depth", type=IntRange(), default=None, metavar="N",
              help="levels shown below the start (0-5: player cards, bank cards, player draw, "
                   "bank draw, outcome) [default: 1 for text, dot, svg; all for json, "
                   "graphml, gexf]")
@click.option("--from", "start", default=None, metavar="KEY",
              help="start at this node, by key: P5 (player 5), P4c (a Colon), P8c9 "
                   "(Colon nine), P5/B3, P5/B3/p4 (player drew a 4), P5/B3/p-/b- (both stood)")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "graphml", "gexf", "dot",
                                                     "svg"]),
              default="text", show_default=True, help="output format")
@click.option("--output", "-o", type=PathType(dir_okay=False), default=None,
              help="write to this file (atomically) instead of standard output")
@reports_errors
def tree(**params: Any) -> None:
    """The exact probability tree of one round, by state.

    \b
    Levels: the deal; the player's two-card value (natural and Colon marks);
    the bank's; the player's draw and final value; the bank's; the outcome.
    Each node shows the probability of its path, the probability given its
    parent, and the player seat's win / push / loss and EV given the node.
    JSON, GraphML and GEXF hold fractions as strings with a float beside.
    They are not written to a terminal beyond 2,000 nodes (a full tree is
    about 15 MB): give -o FILE, a --depth, or redirect the output.

    \b
    Examples:
      lucky9 tree
      lucky9 tree --from P5/B3 --depth 2
      lucky9 tree --profile punto-banco --format graphml -o punto.graphml
      lucky9 tree --depth 1 --format svg -o tree.svg
    """
    from odds.exact.tree import Stage, probability_tree, subtree
    from odds.report.tree_export import GraphvizMissing, tree_chunks, write_tree

    if params["output"] is not None:
        check_target(params["output"])
    profile, shoe = resolve_rules(params)
    fmt = params["fmt"]
    depth = params["depth"]
    if depth is not None and depth < 0:
        raise click.UsageError(f"--depth is a whole number, 0 or more, not {depth}")
    if depth is None:
        depth = 1 if fmt in ("text", "dot", "svg") else int(Stage.OUTCOME)
    start = params["start"]
    start_stage = 0 if start is None else (0 if start == "deal" else start.count("/") + 1)
    full = probability_tree(
        profile, shoe,
        player=params["player"] or (), bank=params["bank"] or (),
        removed=params["removed"] or (),
        player_total=params["player_total"], bank_total=params["bank_total"],
        depth=min(start_stage + depth, int(Stage.OUTCOME)),
    )
    graph = full if start is None else subtree(full, start, depth)
    nodes = graph.number_of_nodes()
    if (not params["output"] and fmt in ("json", "graphml", "gexf") and nodes > TERMINAL_NODES
            and _stdout_is_terminal()):
        raise click.UsageError(
            f"--format {fmt} of {nodes:,} nodes (megabytes of text) is not written to a terminal: "
            f"give -o FILE, a --depth, or redirect the output (> tree.{fmt})")
    try:
        if params["output"] is not None:
            write_tree(graph, params["output"], fmt)
            click.echo(f"wrote {params['output']}: {fmt}, {graph.number_of_nodes():,} nodes, "
                       f"{graph.number_of_edges():,} edges", err=True)
        else:
            for piece in tree_chunks(graph, fmt):  # a node at a time: no whole copy held
                out(piece.decode(), nl=False)
    except GraphvizMissing as exc:
        raise click.ClickException(str(exc)) from None


@main.command()
@rule_options
@_known_cards
@click.option("--by", type=click.Choice(["player", "bank", "pair"]), default="player",
              show_default=True,
              help="condition on the player's two-card value, the bank's, or both (a pair)")
@format_option("text", "json", "csv")
@reports_errors
def conditional(**params: Any) -> None:
    """The odds given each two-card value (or pair of values), exactly.

    \b
    The table casinos publish for baccarat: P(win), P(push), P(loss) of the
    player seat and each bet's EV, given the player's two-card value (--by
    player), the bank's (--by bank) or both (--by pair).

    \b
    Examples:
      lucky9 conditional
      lucky9 conditional --profile punto-banco
      lucky9 conditional --by pair --format csv
    """
    from odds import round_odds
    from odds.exact.conditional import conditional_table
    from odds.report.conditional_report import conditional_data, conditional_rows, conditional_text

    profile, shoe = resolve_rules(params)
    result = round_odds(
        profile, shoe,
        player=params["player"] or (), bank=params["bank"] or (),
        removed=params["removed"] or (),
    )
    table = conditional_table(result, params["by"])
    fmt = params["fmt"]
    emit(fmt, lambda: conditional_data(result, table, params["by"]),
         lambda: conditional_text(result, table, params["by"]),
         lambda: conditional_rows(result, table, params["by"]))


@main.command()
@rule_options
@click.option("--removed", type=CARDS, default=None,
              help="cards already dealt: the effects are from the shoe that is left")
@click.option("--bet", "bets", multiple=True, metavar="NAME",
              help="add a side bet (see 'lucky9 odds --help'; 'all': every bet of the "
                   "profile), from its own enumerator: about a second each; repeatable")
@format_option("text", "json", "csv")
@reports_errors
def removal(**params: Any) -> None:
    """Effect of removal: how taking one card of each rank moves the odds.

    \b
    For each rank, the exact change per card removed in the EV of every bet
    (the player seat and its P(win); banker and tie where the profile has
    them; colon: the part of the seat's EV its Colon pays add) when one card
    of that rank leaves the shoe.  Weighted by the cards left they sum to
    exactly 0.  For the EV of a partly dealt shoe itself, use 'lucky9 odds
    --removed CARDS' (or --shoe); to follow a shoe round by round, 'lucky9 shoe'.

    \b
    Examples:
      lucky9 removal --decks 8
      lucky9 removal --profile punto-banco --format csv
      lucky9 removal --profile ez-baccarat --bet all
    """
    from odds.report.removal_report import removal_data, removal_rows, removal_text

    profile, shoe = resolve_rules(params)
    if params["removed"]:
        shoe = shoe.without(params["removed"])
    side = params["bets"]
    emit(params["fmt"], lambda: removal_data(profile, shoe, side),
         lambda: removal_text(profile, shoe, side=side),
         lambda: removal_rows(profile, shoe, side))


MAX_RECORD = 1 << 22  # bytes of a card record: 4 MiB, far beyond a 100-pack shoe
MAX_SHOE_CARDS = 100 * 52  # cards of a shoe that `shoe` follows (as --seed: 100 packs)


@main.command("shoe")
@rule_options
@click.option("--cards", "cards_file", default=None, metavar="FILE",  # read_text checks it
              help="the cards dealt, in deal order, one or more per line ('-': standard "
                   "input); a blank line or '--' may close a round; '#' starts a comment")
@click.option("--seed", type=IntRange(min=0), default=None,
              help="shuffle the shoe with this seed and deal it to the cut card")
@click.option("--index", type=IntRange(min=0), default=None,
              help="with --seed: which shoe of the seed (shoe k of 'lucky9 count --seed S')"
                   "  [default: 0]")
@click.option("--penetration", type=click.FloatRange(0, 1, min_open=True), default=None,
              help="with --seed: share of the shoe dealt before the cut card  [default: 0.8]")
@click.option("--seats", type=IntRange(min=1, max=8), default=None,
              help="with --cards: a table of N seats and the bank (two cards to each seat and "
                   "the bank, then third cards in table order); each seat's exact odds and "
                   "the bank's exact mean and variance before each round  [default: 1]")
@format_option("text", "json", "csv")
@reports_errors
def shoe_command(**params: Any) -> None:
    """Follow a dealt shoe: the exact odds before every round, given the cards seen.

    \b
    The cards are split into rounds by replaying them under the rules: a
    round takes P B P B, then the player's third card if the rules make the
    player draw, then the bank's (4 to 6 cards).  Round marks in the file
    (a blank line or a line '--') are checked against that replay.
    Before each round: the exact EV of every bet (player seat; banker, tie
    where the profile has them; colon: the part of the seat's EV its Colon
    pays add) and the seat's P(win/push/loss), given every card seen so far.
    The shoe (shuffled with --seed, or dealt in --cards) has at most 100 packs.

    \b
    Examples:
      lucky9 shoe --decks 8 --seed 1
      lucky9 shoe --decks 1 --cards dealt.txt --format csv
      lucky9 shoe --profile punto-banco --cards -
      lucky9 shoe --decks 1 --seats 6 --cards table.txt
    """
    from odds.exact.deal import shuffled_shoe
    from odds.exact.rounds import deal_rounds, read_cards, record_rounds
    from odds.exact.shoe_follow import follow_shoe
    from odds.report.shoe_report import shoe_data, shoe_rows, shoe_text

    profile, shoe = resolve_rules(params)
    source: dict[str, Any]
    if params["cards_file"] is not None and params["seed"] is not None:
        raise click.UsageError("give --cards FILE or --seed S, not both")
    if params["cards_file"] is None and params["seed"] is None:
        raise click.UsageError("give --cards FILE (the cards dealt) or --seed S (shuffle one)")
    if params["seats"] is not None and params["seats"] > 1 and params["cards_file"] is None:
        raise click.UsageError("--seats follows a table's record: give --cards FILE")
    if params["cards_file"] is not None:
        for option in ("index", "penetration"):
            if params[option] is not None:
                raise click.UsageError(f"--{option} goes with --seed (a shuffled shoe); "
                                       "--cards deals the cards of the file")
        if shoe.size > MAX_SHOE_CARDS:
            raise click.UsageError(f"--cards follows a shoe of at most {MAX_SHOE_CARDS:,} cards "
                                   f"(100 packs), not {shoe.size:,}")
        from odds.rules.textio import decode_text, read_text

        name = params["cards_file"]
        if name == "-":  # bounded like a file: a stream that never ends is refused
            stdin = sys.stdin
            raw = (stdin.buffer.read(MAX_RECORD + 1) if hasattr(stdin, "buffer")
                   else stdin.read(MAX_RECORD + 1).encode("utf-8"))
            if len(raw) > MAX_RECORD:
                raise click.UsageError(f"standard input is larger than {MAX_RECORD:,} bytes "
                                       "(a card record is a few kilobytes)")
            text = decode_text(raw, "standard input")
        else:
            text = read_text(name, MAX_RECORD, "card file")
        name = "<stdin>" if name == "-" else name
        seats = params["seats"]
        if seats is not None and seats > 1:
            from odds.exact.shoe_follow import follow_table, table_rounds
            from odds.report.shoe_report import table_data, table_rows, table_text

            try:
                table = table_rounds(profile, shoe, read_cards(text), seats)
            except ValueError as exc:
                raise click.UsageError(f"{name}: {exc}") from None
            with _bank_progress() as advance:
                followed = follow_table(profile, shoe, table, seats, advance)
            emit(params["fmt"], lambda: table_data(followed, {"cards_file": name}),
                 lambda: table_text(followed, f"cards from {name}"),
                 lambda: table_rows(followed))
            return
        try:
            rounds = record_rounds(profile, shoe, read_cards(text))
        except ValueError as exc:
            raise click.UsageError(f"{name}: {exc}") from None
        source = {"cards_file": name}
        label = f"cards from {name}"
    else:
        if shoe.packs is None or shoe.size != 52 * shoe.packs:
            raise click.UsageError("--seed shuffles a fresh shoe of packs: give --decks D")
        seed = params["seed"]
        index = 0 if params["index"] is None else params["index"]
        pen = 0.8 if params["penetration"] is None else params["penetration"]
        rounds = deal_rounds(profile, shuffled_shoe(shoe.packs, seed, index), pen)
        source = {"seed": seed, "index": index, "penetration": pen}
        label = f"shuffled with seed {seed}" + (f" (shoe {index})" if index else "") + (
            f", cut card at {pen:g}")
    follow = follow_shoe(profile, shoe, rounds)
    emit(params["fmt"], lambda: shoe_data(follow, source),
         lambda: shoe_text(follow, label),
         lambda: shoe_rows(follow))


def _tags(text: str | None) -> tuple[int, ...] | None:
    """``--tags``: 13 whole numbers, one per rank A..K (commas or spaces)."""
    if text is None:
        return None
    parts = [p for p in re.split(r"[,\s]+", text.strip()) if p]
    if len(parts) != 13:
        raise click.UsageError(
            f"--tags takes 13 whole numbers, one per rank A 2 3 4 5 6 7 8 9 10 J Q K, "
            f"not {len(parts)} ({text!r})")
    out = []
    for p in parts:
        if not re.fullmatch(r"[+-]?[0-9]{1,4}", p):
            raise click.UsageError(f"--tags: {p!r} is not a whole number from -1000 to 1000")
        out.append(int(p))
    return tuple(out)


def _number(text: str | None, option: str) -> float | None:
    if text is None:
        return None
    if not re.fullmatch(r"[+-]?([0-9]{1,9}(\.[0-9]{0,9})?|\.[0-9]{1,9})", text.strip()):
        raise click.UsageError(f"{option}: {text!r} is not a number (say 4 or -1.5)")
    return float(text)


@main.command("count")
@rule_options_without("decks")
@click.option("--decks", "decks_list", default=None, metavar="D[,D...]", cls=SectionOption,
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
@click.option("--seed", type=IntRange(min=0), default=0, show_default=True,
              help="seed: shoe k is the shoe 'lucky9 shoe --seed S --index k' follows")
@click.option("--jobs", type=IntRange(1, 64), default=1, show_default=True,
              help="processes to spread the shoes over, 1 to 64 (the figures do not depend on it)")
@click.option("--bet", "bets", multiple=True, metavar="BET",
              help="study this bet (repeatable): any bet of 'lucky9 odds --help' or of the "
                   "profile file, colon-share [default: every bet of the profile]")
@click.option("--tags", default=None, metavar="A,2,...,K",
              help="your count system: 13 tags, one per rank A..K; balanced tags are read "
                   "as a true count, unbalanced as a running count from --irc")
@click.option("--trigger", default=None, metavar="X",
              help="with --tags: bet when the count is X or more [default: 0]")
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
    it is positive, the gain of a player who bets only when it is (perfect
    information), the best linear count from the effects of removal (its
    integer tags, betting correlation, and what two bet ramps earn with it),
    your own count (--tags, --trigger) and the cut-card effect.  Each way of
    betting gives bets per shoe, the edge when betting, units won per shoe and
    per 100 hands, and what settling the rounds really dealt would give (a
    simulation of outcomes needs many times the shoes).  The per-round EVs are
    exact; the summaries are estimates over the N shoes, printed with
    standard errors.  Shoes have 1 to 100 packs.

    \b
    Examples:
      lucky9 count --shoes 200 --decks 1 --seed 1
      lucky9 count --profile ez-baccarat --decks 8 --bet dragon-7 --cut-cards 14 \\
          --tags 0,0,0,-1,-1,-1,-1,2,2,0,0,0,0 --trigger 4
      lucky9 count --profile punto-banco --shoes 10000 --decks 8 --jobs 2
      lucky9 count --profile punto-banco --shoes 100000 --decks 8 --save study \\
          --cluster local:2
      lucky9 count --profile ez-baccarat --decks 6,8 --cut-cards 14,52 \\
          --bet dragon-7 --format csv
    """
    from odds.money.counting import CountSystem, count_grid, count_study, study_plan
    from odds.report.count_report import count_data, count_text, grid_data, grid_rows, grid_text

    ctx = click.get_current_context()
    decks_param = next(p for p in ctx.command.params if p.name == "decks_list")
    decks: list[Shoe | None] = [None]
    raw_decks = params.pop("decks_list")
    if raw_decks is not None:
        decks = [SHOE.convert(part.strip(), decks_param, ctx) for part in _list(raw_decks, "--decks")]
    cuts: list[int | None] = [None]
    if params["cut_cards_list"] is not None:
        cuts = [_whole(part, "--cut-cards") for part in _list(params["cut_cards_list"],
                                                               "--cut-cards")]
    profiles = [params["profile"], *params.pop("grid_profiles")]
    base = dict(params)
    cells: list[tuple[Profile, int, int | None]] = []
    for p in profiles:
        for d in decks:
            profile, shoe = resolve_rules({**base, "profile": p, "decks": d})
            if shoe.packs is None or shoe.size != 52 * shoe.packs:
                raise click.UsageError("the study shuffles fresh shoes of packs: give --decks D")
            for c in cuts:
                cells.append((profile, shoe.packs, c))
    tags = _tags(params["tags"])
    trigger = _number(params["trigger"], "--trigger")
    if tags is None and (trigger is not None or params["irc"] is not None):
        raise click.UsageError("--trigger and --irc go with --tags (your count system)")
    system = None
    if tags is not None:
        try:
            system = CountSystem(tags, trigger if trigger is not None else 0.0, params["irc"],
                                 params["deck_estimate"])
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
        if system.balanced and params["irc"] is not None:
            raise click.UsageError("--irc is for unbalanced tags; these sum to 0 (a true count)")
    shoes = params["shoes"]
    if params["save"] is not None and params["resume"] is not None:
        raise click.UsageError("give --save DIR (a new study) or --resume DIR, not both")
    if params["cluster"] is not None and params["jobs"] != 1:
        raise click.UsageError("give --jobs or --cluster, not both (the workers are the jobs)")
    folder = params["resume"] if params["resume"] is not None else params["save"]
    grid = len(cells) > 1
    if params["fmt"] == "csv" and not grid:
        raise click.UsageError("--format csv is the table of a study grid (several --decks, "
                               "--cut-cards or --grid-profile); use text or json")
    show = params["progress"]
    if show is None:
        show = shoes * len(cells) >= 1000 and sys.stderr.isatty()
    bets = params["bets"] or ("all",)
    # Every setting checked before any shoe is dealt (and before the bar shows).
    for profile, packs, cut in cells:
        study_plan(profile, packs, bets=bets, penetration=params["penetration"],
                   cut_cards=cut, burn=params["burn"], seed=params["seed"], system=system)
    options = {"bets": bets, "burn": params["burn"], "system": system,
               "save": folder, "resume": params["resume"] is not None,
               "cluster": params["cluster"], "cluster_timeout": params["cluster_timeout"],
               "partial_on_stop": True}
    with _signals_at_steps(), _progress(show, shoes * len(cells), "dealing shoes") as advance:
        if grid:
            studies = count_grid(cells, shoes, params["penetration"], params["seed"],
                                 params["jobs"], advance, **options)
            emit(params["fmt"], lambda: grid_data(studies), lambda: grid_text(studies),
                 lambda: grid_rows(studies))
        else:
            profile, packs, cut = cells[0]
            study = count_study(profile, packs, shoes, params["penetration"], params["seed"],
                                params["jobs"], advance, cut_cards=cut, **options)
            emit(params["fmt"], lambda: count_data(study), lambda: count_text(study))


MAX_LIST = 64  # values of a list option (--decks 6,8): a grid's cells are bounded anyway


def _list(text: str, option: str) -> list[str]:
    parts = text.split(",")
    if len(parts) > MAX_LIST:
        raise click.UsageError(f"{option} takes at most {MAX_LIST} values, not {len(parts)}")
    if any(not part.strip() for part in parts):
        raise click.UsageError(f"{option}: {text[:40]!r} has an empty value (say 6,8)")
    return parts


def _whole(text: str, option: str) -> int:
    text = text.strip()
    if not re.fullmatch(r"[0-9]{1,9}", text):
        raise click.UsageError(f"{option}: {text[:40]!r} is not a whole number of cards, 0 or more")
    return int(text)


@main.command("simulate")
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
    with _progress(show, rounds, "simulating") as advance:
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


@main.command("verify")
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
                               *(opt.name for opt in _RULE_FLAGS))
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


# -- issue 12: the bank's side of the table ---------------------------------------

_SESSION_FLAGS = ("players", "stakes", "max_stake", "bonus_cap", "round_cap", "cap_rule",
                  "capital", "rounds", "rotation")


@main.command()
@rule_options
@click.option("--players", default=None, metavar="N",
              help="players at the table, 1-8 [default: the profile's [session], else 1]; "
                   "dealt from the profile's shoe (or --decks, --shoe) at every N")
@click.option("--stakes", default=None, metavar="S|S1,S2,...",
              help="each seat's stake in seat order, or one stake for every seat "
                   "[default: 1 each]")
@click.option("--capital", default=None, metavar="C",
              help="the bank's capital, in the stakes' units")
@click.option("--rounds", default=None, metavar="R", help="rounds in the session")
@click.option("--target-ruin", default=None, metavar="P",
              help="a ruin risk between 0 and 1 (e.g. 0.01): the smallest capital, and the "
                   "largest stake for --capital, that keep ruin within --rounds at most P")
@click.option("--max-stake", default=None, metavar="S", help="the largest stake the bank accepts")
@click.option("--bonus-cap", default=None, metavar="K",
              help="at most K bonus payments per round, in seat order (later Colons paid as "
                   "plain results)")
@click.option("--round-cap", default=None, metavar="X",
              help="the most the bank pays winners in one round (losers are collected first)")
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
@click.option("--precision", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=None, metavar="P",
              help="where the round is estimated: double --samples until the 95% interval "
                   "on the ruin probability is within +-P (e.g. 0.001)")
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
    from odds.money.session import bank_study
    from odds.report.bank_report import (
        PlotUnavailable,
        bank_data,
        bank_rows,
        bank_text,
        check_plot_path,
        check_plot_ready,
        write_plot,
    )

    if params["plot"] is not None:
        check_plot_path(params["plot"])
        try:
            check_plot_ready()
        except PlotUnavailable as exc:
            raise click.ClickException(str(exc)) from None
    profile, shoe = resolve_rules(params)
    stakes = params["stakes"]
    if stakes is not None and "," not in stakes:  # one stake for every seat
        seats = profile.session.with_options(
            **({"players": params["players"]} if params["players"] is not None else {})).players
        if seats is not None:
            params["stakes"] = ",".join([stakes.strip()] * seats)
    session = profile.session.with_options(
        **{k: params[k] for k in _SESSION_FLAGS if params[k] is not None})
    if session.capital is not None:
        seats = session.players or (len(session.stakes) if session.stakes else 1)
        top = max(session.stakes_for(seats))
        if session.capital < top:
            raise click.UsageError(f"capital {session.capital} is less than one stake ({top}): "
                                   "the bank could not pay a single winner")
    with _bank_progress() as advance:
        study = bank_study(profile, shoe, session, target_ruin=params["target_ruin"],
                           samples=params["samples"], seed=params["seed"],
                           loss_over=params["loss_over"], precision=params["precision"],
                           progress=advance, plot=params["plot"] is not None)
    fmt = params["fmt"]
    if fmt == "json":
        out(json.dumps(bank_data(study), indent=2))
    elif fmt == "csv":
        emit_rows(bank_rows(study))
    else:
        out("\n".join(bank_text(study)))
    if params["plot"] is not None:
        try:
            write_plot(study, params["plot"])
        except PlotUnavailable as exc:
            raise click.ClickException(str(exc)) from None
        click.echo(f"plot written to {params['plot']}", err=True)


@contextlib.contextmanager
def _bank_progress(after: float = 2.0) -> Iterator[Callable[[int, int], None]]:
    """A progress callback (done, total) that shows a bar on standard error once a job
    has run ``after`` seconds, and only when standard error is a terminal."""
    import time

    start = time.monotonic()
    state: dict[str, Any] = {"bar": None, "last": 0, "total": None}
    show = sys.stderr.isatty()

    def advance(done: int, total: int) -> None:
        _unwind_if_terminated()
        if not show:
            return
        bar = state["bar"]
        if bar is not None and state["total"] != total:  # a new stage: a new bar
            bar.render_finish()
            bar = state["bar"] = None
        if bar is None:
            if time.monotonic() - start < after:
                return
            bar = state["bar"] = click.progressbar(length=total, file=sys.stderr,
                                                   label="bank")
            state["total"], state["last"] = total, 0
        bar.update(done - state["last"])
        state["last"] = done

    try:
        yield advance
    finally:
        if state["bar"] is not None:
            state["bar"].render_finish()


if __name__ == "__main__":  # pragma: no cover
    run()
