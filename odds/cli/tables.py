"""Files to print and publish: ``lucky9 tables``, ``lucky9 par`` and ``lucky9 card``."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any

import click

from odds.cli.common import PROFILE, IntRange, PathType, note, out, reports_errors
from odds.cli.options import (
    SHOE_SECTION,
    SectionOption,
    capped_profile,
    command,
    max_bonus_options,
    resolve_rules_at_stake,
    rule_options,
    rule_options_without,
    with_cut,
)
from odds.cli.progress import progress, step_progress
from odds.exact.shoe_source import fresh_packs
from odds.report.card import card
from odds.report.file_formats import check_suffix, html_to_pdf
from odds.report.par import ParSheet, check_par_shoe, par_data, par_sheet, render
from odds.report.table_files import table_steps, write_tables
from odds.report.write_folder import Undo, distinct_profiles, output_paths, write_whole
from odds.rules import Profile, Shoe
from odds.rules.bet_library import resolve_bets
from odds.rules.bet_types import Bet


@command()
@click.option("--out", "folder", type=PathType(file_okay=False), default="tables",
              show_default=True, help="folder to write the tables into (created if missing)")
@click.option("--profile", "profiles", type=PROFILE, multiple=True, metavar="NAME|FILE",
              help="only this profile (repeatable): a built-in name or a .toml profile file "
                   "[default: every built-in profile, and the index]")
@max_bonus_options
@reports_errors
def tables(folder: str, profiles: tuple[Profile, ...], max_bonus: str | None,
           stake: str | None, fee: str | None, commission: str | None) -> None:
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
      lucky9 tables --profile super9 --max-bonus 5000 --stake 4000 --out capped
    """
    if not profiles and any(v is not None for v in (max_bonus, stake, fee, commission)):
        raise click.UsageError("--max-bonus, --stake, --fee and --commission are for the tables "
                               "of chosen profiles: give --profile NAME|FILE")
    chosen = [capped_profile(with_cut(p, fee, commission), max_bonus, stake)
              for p in distinct_profiles(profiles)] or None
    with step_progress(lambda: table_steps(chosen), "computing tables") as step:
        written = write_tables(folder, chosen, progress=step)
    out(f"wrote {len(written)} files to {folder}")


@command("par")
@rule_options
@max_bonus_options
@click.option("--bet", "bets", multiple=True, metavar="NAME", required=True,
              help="the bet (repeatable: one sheet each): any built-in bet or one of the "
                   "profile file")
@click.option("--format", "fmt", type=click.Choice(["html", "md", "json"]), default="md",
              show_default=True, help="output format (html: print-ready A4 with charts)")
@click.option("--out", "out_path", type=PathType(), default=None, metavar="PATH",
              help="write here, whole or not at all (several bets: a folder, one file each); "
                   "a name whose suffix names another format is refused, and with --format "
                   "html FILE.pdf is printed by headless Chromium [default: standard output]")
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
    profile, shoe = resolve_rules_at_stake(params)
    pdf = _pdf_asked(params["out_path"], fmt := params["fmt"], len(params["bets"]))
    _check_par(profile, shoe, params)
    bets = resolve_bets(profile, params["bets"])  # every name checked before any work
    paths, undo = output_paths(params["out_path"], [f"{profile.key}-{b.name}-par.{fmt}"
                                                    for b in bets], "sheets",
                               "several HTML sheets go to a folder: give --out DIR"
                               if fmt == "html" else None)
    show = params["count"] and sys.stderr.isatty() if params["progress"] is None \
        else params["progress"]
    sheets = _sheets(profile, bets, bool(show),
                     **{k: params[k] for k in ("count", "shoes", "seed", "cut_cards")})
    if pdf:
        return _pdf(params["out_path"], render(par_data(next(sheets)), fmt))
    texts = _written(paths, undo, lambda: [render(par_data(sheet), fmt) for sheet in sheets])
    if not paths and fmt == "json" and len(texts) > 1:
        out("[\n" + ",\n".join(t.rstrip("\n") for t in texts) + "\n]")
    elif not paths:
        out("\n".join(t.rstrip("\n") + "\n" for t in texts).rstrip("\n"))


def _check_par(profile: Profile, shoe: Shoe, params: dict[str, Any]) -> None:
    """A PAR sheet's shoe and study, checked before any work."""
    fresh_packs(shoe, "a PAR sheet is for a fresh shoe of packs: give --decks D")
    check_par_shoe(profile, params["shoes"], params["seed"], params["cut_cards"])


def _pdf_asked(path: str | None, fmt: str, files: int) -> bool:
    """True when one HTML page goes to FILE.pdf; a suffix of another format is refused."""
    return path is not None and files == 1 and \
        check_suffix(path, fmt, also=["pdf"] if fmt == "html" else []) == "pdf"


def _pdf(path: str, page: str) -> None:
    html_to_pdf(page, path)
    note(f"wrote {path}")


def _sheets(profile: Profile, bets: list[Bet], show: bool, count: bool, shoes: int, seed: int,
            cut_cards: int) -> Iterator[ParSheet]:
    """Each bet's PAR sheet, a progress bar for each bet's shoe study."""
    for bet in bets:
        with progress(show, shoes, f"{bet.name}: dealing shoes") as advance:
            sheet = par_sheet(profile, bet, count=count, shoes=shoes, seed=seed,
                              cut_cards=cut_cards, progress=advance)
        yield sheet


def _written(paths: list[str], undo: Undo, make: Callable[[], list[str]]) -> list[str]:
    """The texts, written whole to ``paths`` if there are any (each named on stderr)."""
    texts = write_whole(paths, undo, make)
    for p in paths:
        note(f"wrote {p}")
    return texts


@command("card")
@click.option("--profile", "profiles", type=PROFILE, multiple=True, required=True,
              metavar="NAME|FILE", cls=SectionOption, section=SHOE_SECTION,
              help="the profile (repeatable: one card each): a built-in name or a .toml file")
@click.option("--out", "out_path", type=PathType(), default=None, metavar="PATH",
              help="write here, whole or not at all: FILE.html, or FILE.pdf (printed by "
                   "headless Chromium); several profiles: a folder, PROFILE-card.html each "
                   "[default: standard output]")
@rule_options_without("profile")
@max_bonus_options
@reports_errors
def card_command(**params: Any) -> None:
    """The table card: one A4 page for players, in large type (HTML or PDF).

    \b
    The house's rules in words, what each bet the table takes pays (a Lucky 9
    table: the seat bet, its Colon a bonus), and each bet's house edge in
    percent at the profile's own number of packs (or --decks), after the
    house's cut where the profile takes one.  The shoe and rule flags apply
    to every profile given.

    \b
    Examples:
      lucky9 card --profile ez-baccarat --out ez-card.html
      lucky9 card --profile standard --decks 6 --colon 2 --out card.pdf
      lucky9 card --profile standard --profile punto-banco --out cards
    """
    out_path = params.pop("out_path")
    chosen = _card_profiles(params)
    pdf = out_path is not None and len(chosen) == 1 and \
        check_suffix(out_path, "html", also=["pdf"], format_flag=None) == "pdf"
    paths, undo = output_paths(out_path, [f"{p.key}-card.html" for p, _ in chosen], "cards",
                               "several cards go to a folder: give --out DIR")
    if pdf:
        html_to_pdf(card(*chosen[0]), out_path)
        note(f"wrote {out_path}")
        return
    texts = _written(paths, undo, lambda: [card(p, shoe) for p, shoe in chosen])
    if not paths:
        out(texts[0].rstrip("\n"))


def _card_profiles(params: dict[str, Any]) -> list[tuple[Profile, Shoe]]:
    """Each profile of a card command with the shoe and rule flags applied (all checked first)."""
    chosen = []
    for profile in distinct_profiles(params.pop("profiles"), "a table card"):
        chosen.append(resolve_rules_at_stake({**params, "profile": profile}))
    return chosen


COMMANDS = (tables, par_command, card_command)
