"""The bank's plot: capital and net axes whose tick labels people can read (up to 10^7)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("matplotlib")

from odds import BUILTIN, Shoe  # noqa: E402
from odds.money.session import bank_study  # noqa: E402
from odds.report.bank_report import money_axis, plot_figure  # noqa: E402
from odds.rules.session_options import Session  # noqa: E402


def _labels(fig, axis):
    """The shown tick labels of ``axis`` in order, with their drawn extents."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    lo, hi = sorted(axis.get_view_interval())
    shown = [(t.get_position()[0], t) for t in axis.get_ticklabels()
             if t.get_text() and t.get_visible() and lo <= t.get_position()[0] <= hi]
    shown.sort(key=lambda pair: pair[0])
    return [(t.get_text(), t.get_window_extent(renderer)) for _, t in shown]


def _readable(labels) -> None:
    assert len(labels) >= 2
    for (a, box_a), (b, box_b) in zip(labels, labels[1:], strict=False):
        assert box_a.x1 < box_b.x0, f"tick labels {a!r} and {b!r} overlap"
    for text, _ in labels:
        value = float(text.replace(",", ""))
        if abs(value) >= 1000:
            digits = text.lstrip("-").split(".")[0]
            assert digits == f"{int(abs(value)):,}", text  # thousands separated


@pytest.mark.parametrize("top", [10, 250, 8000, 150_000, 1_250_000, 10**7, 3 * 10**7])
def test_money_axis_labels_never_collide(top) -> None:
    import matplotlib.pyplot as plt

    fig, (left, _) = plt.subplots(1, 2, figsize=(11, 4.2))  # the plot's own layout
    try:
        left.plot([0, top], [0, 1])
        left.set_xlim(0, top)
        money_axis(left.xaxis)
        _readable(_labels(fig, left.xaxis))
    finally:
        plt.close(fig)


@settings(max_examples=4, deadline=None)
@given(capital=st.integers(min_value=10, max_value=5 * 10**6))
def test_the_bank_plot_s_axes_are_readable(capital) -> None:
    import matplotlib.pyplot as plt

    stake = max(1, capital // 50)  # a lattice of about a hundred capitals: quick
    study = bank_study(BUILTIN["standard"], Shoe.infinite_shoe(),
                       Session(players=2, stakes=(F(stake),), capital=F(capital), rounds=5))
    fig = plot_figure(study)
    try:
        left, right = fig.axes[:2]
        assert left.get_xlim()[1] >= capital
        _readable(_labels(fig, left.xaxis))
        _readable(_labels(fig, right.xaxis))
    finally:
        plt.close(fig)


def test_the_issue_s_capital_axis() -> None:
    # "100000125000150000": the capital axis of a bank of 75,000 at stakes of 500.
    import matplotlib.pyplot as plt

    study = bank_study(BUILTIN["standard"], Shoe.infinite_shoe(),
                       Session(players=7, stakes=(F(500),), capital=F(75_000), rounds=5))
    fig = plot_figure(study)
    try:
        labels = _labels(fig, fig.axes[0].xaxis)
        _readable(labels)
        assert "100,000" in [text for text, _ in labels]
    finally:
        plt.close(fig)
