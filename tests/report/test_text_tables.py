"""Text tables never run their columns together, at any magnitude.

Every command's text table goes through :func:`odds.rules.text.text_table`; fed extreme
values (10^12, -10^9, tiny fractions, long labels) each row must still split into its cells.
"""

from __future__ import annotations

import re
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from odds.money.rotation import PersonFigures
from odds.rules.text import decimal, text_table

EXTREME = st.one_of(
    st.sampled_from([10**12, -(10**9), 1e-12, -1e-15, 0, 123456789.123456, -5, 2**63]),
    st.floats(min_value=-1e13, max_value=1e13, allow_nan=False),
    st.integers(min_value=-(10**15), max_value=10**15),
    st.fractions(min_value=-(10**12), max_value=10**12, max_denominator=10**9),
)


def _cell(x: object) -> str:
    if isinstance(x, F):
        return decimal(x, 6)
    if isinstance(x, float):
        return f"{x:+.5f}" if abs(x) < 1e6 else f"{x:.3e}"
    return str(x)


SPEC = st.builds(lambda lead, align, width: f"{' ' * lead}{align}{width}",
                 st.integers(0, 2), st.sampled_from("<>"), st.integers(0, 14))


def _valid(specs: list[str]) -> bool:
    return all(not (b.lstrip()[0] == "<" and a.lstrip()[0] == ">" and not b.startswith(" "))
               for a, b in zip(specs, specs[1:], strict=False))


@settings(max_examples=150, deadline=None)
@given(specs=st.lists(SPEC, min_size=1, max_size=7).filter(_valid),
       data=st.data())
@example(specs=["  <8", ">12", ">9", ">15", ">10", ">9"], data=None)
def test_every_row_splits_back_into_its_cells(specs, data) -> None:
    if data is None:  # the row: "0         -35770.00340699.911 ..."
        rows = [["person", "fixed: mean", "sd", "rotate: banks", "mean", "sd"],
                ["0", "-35770.003", "40699.911", "38", "-68.133", "16625.543"],
                ["1", "+10000000000.000", "1000000000000.125", "3", "-1e-12", "0.000001"]]
    else:
        n = len(specs)
        rows = data.draw(st.lists(st.lists(EXTREME.map(_cell), min_size=n, max_size=n),
                                  min_size=1, max_size=6))
        label = data.draw(st.text(alphabet="abcdefghij:()%", min_size=1, max_size=30))
        rows[0][0] = label
    lines = text_table(rows, specs)
    assert len(lines) == len(rows)
    edges: dict[int, set[int]] = {}
    for line, row in zip(lines, rows, strict=True):
        found = _cells(line, row)
        assert found is not None, line
        for j, (start, end) in enumerate(found):  # every row is aligned
            edges.setdefault(j, set()).add(end if specs[j].lstrip()[0] == ">" else start)
    assert all(len(at) == 1 for at in edges.values()), lines


def _cells(line: str, row: list[str]) -> list[tuple[int, int]] | None:
    """Where each cell of ``row`` stands in ``line``, when the line is the cells in order
    with at least one space between each two (None otherwise)."""
    pattern = " *" + " +".join(f"({re.escape(c)})" for c in row) + " *"
    m = re.fullmatch(pattern, line)
    return None if m is None else [m.span(g) for g in range(1, len(row) + 1)]


def test_a_bad_column_is_refused() -> None:
    with pytest.raises(ValueError, match="left-aligned after a right-aligned"):
        text_table([["1", "a"]], [">3", "<3"])
    with pytest.raises(ValueError, match="not '=3'"):
        text_table([["1"]], ["=3"])
    with pytest.raises(ValueError, match="2 cells for 1 columns"):
        text_table([["1", "2"]], [">3"])


def test_cells_that_fit_print_as_in_fixed_columns() -> None:
    # The layout of the fixed-width f-strings it replaced, wherever the cells fit.
    rows = [["seat", "stake", "mean", "sd"], ["1", "100", "2.728361", "99.8191"]]
    assert text_table(rows, ["  <5", ">6", ">12", ">10"]) == [
        f"  {'seat':<5}{'stake':>6}{'mean':>12}{'sd':>10}",
        f"  {'1':<5}{'100':>6}{'2.728361':>12}{'99.8191':>10}"]


# -- every report's tables, fed extreme values -------------------------------------------

BIG = st.sampled_from([F(10**12), F(-(10**9)), F(1, 10**9), F(-35770003, 1000),
                       F(340699911, 1000), F(0)])


@settings(max_examples=25, deadline=None)
@given(means=st.lists(BIG, min_size=3, max_size=3), sds=st.lists(BIG, min_size=3, max_size=3))
def test_who_carries_the_risk_never_runs_together(means, sds) -> None:
    from odds.report.bank_report import _rotation_text

    people = [PersonFigures(i, i + 38, m, abs(s) ** 2)
              for i, (m, s) in enumerate(zip(means, sds, strict=True))]

    class Round:  # what the table reads of a round
        players = 2
        session = type("S", (), {"rounds": 200, "rotation": __import__(
            "odds.rules.rule_types", fromlist=["Rotation"]).Rotation.FIXED})()

    lines = _rotation_text(Round(), people, people)  # type: ignore[arg-type]
    for line, p in zip(lines[2:5], people, strict=True):
        assert _cells(line, [str(p.person), f"{float(p.mean):+.3f}", f"{p.sd:.3f}",
                             str(p.bank_rounds), f"{float(p.mean):+.3f}", f"{p.sd:.3f}"]), line


# Two fields side by side, one of them padded to a width, with nothing between them; or a
# row joined from padded fields.
TOUCHING = re.compile(r"\{[^{}]*\}\{[^{}]*:[<>]\d+|\{[^{}]*:[<>][^{}]*\}\{"
                      r"|join\(f\"\{[^{}]*:[<>]")


def test_report_tables_go_through_text_table() -> None:
    # A fixed-width column pads but cannot widen: two of them side by side run together
    # as soon as a cell is wider.  Tables are laid out by text_table.
    root = Path(__file__).parents[2] / "odds" / "report"
    found = []
    for path in sorted(root.glob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if TOUCHING.search(line):
                found.append(f"{path.name}:{n}: {line.strip()}")
    assert found == [], "\n".join(found)
