"""``lucky9 night FILE``: the owner's night at her table, on one page."""

from __future__ import annotations

from typing import Any

import click

from odds.cli.common import PROFILE, SHOE, IntRange, PathType, note, out, reports_errors
from odds.cli.options import COMMISSION_HELP, FEE_HELP, command, with_cut
from odds.money.night import NIGHT_SAMPLES, owners_night
from odds.report.file_formats import check_suffix, html_to_pdf
from odds.report.night_report import night_data, render_night
from odds.report.write_folder import output_paths, write_whole


@command()
@click.argument("profile", type=PROFILE, metavar="FILE")
@click.option("--decks", "--packs", "decks", type=SHOE, default=None, metavar="D|inf",
              help="number of 52-card packs, or inf [default: the profile's]")
@click.option("--target-ruin", default="0.01", show_default=True, metavar="P",
              help="the ruin risk over the night the capital is sized for")
@click.option("--loss-over", default=None, metavar="X",
              help="P(the bank loses more than X in a round) [default: 5 x the largest stake]")
@click.option("--fee", default=None, metavar="F", help=FEE_HELP)
@click.option("--commission", default=None, metavar="C", help=COMMISSION_HELP)
@click.option("--samples", type=IntRange(min=1, max=2_000_000), default=NIGHT_SAMPLES,
              show_default=True, help="Monte Carlo rounds where the bank's round is estimated")
@click.option("--seed", type=IntRange(min=0), default=1, show_default=True,
              help="seed of the Monte Carlo estimate")
@click.option("--format", "fmt", type=click.Choice(["text", "md", "json", "html"]),
              default="text", show_default=True, help="output format")
@click.option("--out", "out_path", type=PathType(dir_okay=False), default=None, metavar="FILE",
              help="write here, whole or not at all (its suffix must name the format; with "
                   "--format html, FILE.pdf is printed by headless Chromium) "
                   "[default: standard output]")
@reports_errors
def night(**params: Any) -> None:
    """The owner's night: one page from a profile file with a [session] table.

    \b
    The rules; each offered bet's edge; what each cap does at each stake;
    the bank's mean and sd per round at those stakes; P(the bank loses more
    than X in a round); the capital for the target ruin over the night (with
    its 95% interval where the round is estimated); who carries the risk
    with a fixed or a rotating bank; the fee and commission at which the bank
    breaks even.  Every figure is the one the single command prints (odds
    --bet all, bank --target-ruin, payout --solve fee --solve commission).
    The [session] needs the table (players, stakes) and the rounds.

    \b
    Examples:
      lucky9 night tests/data/owner-night.toml
      lucky9 night tests/data/owner-night.toml --format html --out night.pdf
    """
    fmt, path = params["fmt"], params["out_path"]
    pdf = path is not None and check_suffix(
        path, fmt, also=["pdf"] if fmt == "html" else []) == "pdf"
    profile = with_cut(params["profile"], params["fee"], params["commission"])
    found = owners_night(profile, params["decks"], target_ruin=params["target_ruin"],
                         samples=params["samples"], seed=params["seed"],
                         loss_over=params["loss_over"])
    page = render_night(night_data(found), fmt)
    if pdf:
        html_to_pdf(page, path)
    elif path is not None:
        paths, undo = output_paths(path, ["night"], "pages")
        write_whole(paths, undo, lambda: [page])
    else:
        out(page.rstrip("\n"))
        return
    note(f"wrote {path}")


COMMANDS = (night,)
