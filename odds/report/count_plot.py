"""The shoe study's count buckets drawn (``lucky9 count --plot FILE``): needs matplotlib.

One row per bet: on the left the mean exact EV of the rounds in each count
bucket with its 95% interval (and the Kelly ramp's units where the bet is a
wager), on the right the share of rounds dealt in each bucket.  The figures
are those of :func:`odds.report.count_report.count_data`, nothing computed
here.
"""

from __future__ import annotations

import os
from typing import Any

from odds.io.atomic import AtomicFile
from odds.money.counting import CountStudy
from odds.report.bank_report import PlotUnavailable, check_plot_path
from odds.report.count_report import count_data

__all__ = ["MAX_PLOTTED_BETS", "write_count_plot"]

MAX_PLOTTED_BETS = 12  # rows of the figure: the first 12 bets of the study

_NO_MATPLOTLIB = ("--plot needs matplotlib, an optional extra: pip install matplotlib (or, in a "
                  "checkout of lucky9-odds, pip install -e '.[plot]')")


def write_count_plot(study: CountStudy, path: str | os.PathLike[str]) -> None:
    """Draw each bet's EV and share of rounds by count bucket (SVG or PNG by the suffix),
    written whole or not at all."""
    target = check_plot_path(path)
    fmt = target.suffix.lower().lstrip(".")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotUnavailable(_NO_MATPLOTLIB) from None
    bets = list(count_data(study)["bets"].items())[:MAX_PLOTTED_BETS]
    fig, axes = plt.subplots(len(bets), 2, figsize=(11, 3.2 * len(bets)), squeeze=False)
    for (bet, figures), (left, right) in zip(bets, axes, strict=True):
        _draw(bet, figures["count_buckets"], left, right)
    fig.suptitle(f"{study.profile.key}: {study.shoes} shoes of {study.packs} pack"
                 + "s" * (study.packs != 1) + f", seed "
                 f"{study.seed} (95% intervals)", fontsize=9)
    fig.tight_layout()
    try:
        with AtomicFile(target) as out:
            fig.savefig(out.handle, format=fmt)
    finally:
        plt.close(fig)


def _draw(bet: str, table: dict[str, Any], left: Any, right: Any) -> None:
    rows = table["buckets"]
    counts = [row["count"] for row in rows]
    ev = [100 * row["ev"]["mean"] for row in rows]
    low = [100 * (row["ev"]["mean"] - row["ev"]["ci95"][0]) if row["ev"]["ci95"] else 0
           for row in rows]
    high = [100 * (row["ev"]["ci95"][1] - row["ev"]["mean"]) if row["ev"]["ci95"] else 0
            for row in rows]
    kind = "true count, rounded down" if table["count"] == "true" else "running count"
    left.errorbar(counts, ev, yerr=[low, high], fmt="o", markersize=3, capsize=2)
    left.axhline(0, color="grey", linewidth=0.8)
    left.set_xlabel(kind)
    left.set_ylabel("EV, % of the stake")
    left.set_title(f"{bet}: EV by count bucket", fontsize=9)
    if rows and "ramp_units" in rows[0]:
        ramp = left.twinx()
        ramp.step(counts, [row["ramp_units"] for row in rows], where="mid", color="tab:red",
                  linewidth=0.8)
        ramp.set_ylabel("Kelly ramp, units", color="tab:red")
    right.bar(counts, [100 * row["share"]["mean"] for row in rows], width=0.8)
    right.set_xlabel(kind)
    right.set_ylabel("% of rounds dealt")
    right.set_title(f"{bet}: how often", fontsize=9)
