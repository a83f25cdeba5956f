"""Files to print and publish: ``lucky9 tables``, ``lucky9 par`` and ``lucky9 card``."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from typing import Any

import click

from odds.cli.common import PROFILE, IntRange, PathType, out, reports_errors
from odds.cli.options import command, resolve_rules, rule_options
from odds.cli.progress import progress, unwind_if_terminated
from odds.rules import Profile
from odds.rules.atomic import check_target

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


@command()
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
            unwind_if_terminated()
            # The bar starts with the first result, after the folder was checked.
            if not bars:
                bars.append(stack.enter_context(click.progressbar(
                    length=table_steps(chosen), label="computing tables",
                    file=sys.stderr)))
            bars[0].update(1)

        written = write_tables(folder, chosen, progress=step)
    out(f"wrote {len(written)} files to {folder}")


@command("par")
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
    from odds.rules.bets import resolve_bets

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
            with progress(bool(show), params["shoes"], f"{bet.name}: dealing shoes") as advance:
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


@command("card")
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


COMMANDS = (tables, par_command, card_command)
