"""A study grid: `lucky9 count` over pack counts, cut cards and pay tables in one run."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli import main
from odds.money.counting import MAX_CELLS, count_grid, count_study
from odds.money.counting import study as counting
from odds.report.count_report import GRID_COLUMNS, count_data, grid_data
from odds.rules.profiles import BUILTIN

COMMON = ["count", "--profile", "punto-banco", "--shoes", "6", "--seed", "2", "--bet", "tie",
          "--bet", "banker"]


def run(*args: str) -> Any:
    return CliRunner().invoke(main, [*COMMON, *args])


def test_a_2x2_grid_equals_the_four_single_studies() -> None:
    out = run("--decks", "1,2", "--cut-cards", "10,20", "--format", "json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["cells"] == 4 and data["partial"] is False
    cells = [(c["cell"]["packs"], c["cell"]["cut_cards"]) for c in data["grid"]]
    assert cells == [(1, 10), (1, 20), (2, 10), (2, 20)]
    for cell in data["grid"]:
        packs, cut = cell["cell"]["packs"], cell["cell"]["cut_cards"]
        single = run("--decks", str(packs), "--cut-cards", str(cut), "--format", "json")
        assert single.exit_code == 0, single.output
        assert json.dumps(cell["study"], indent=2) == single.output.rstrip("\n")


def test_a_grid_of_pay_tables_from_profile_files(tmp_path: Path) -> None:
    nine = tmp_path / "tie9.toml"
    nine.write_text('base = "punto-banco"\nname = "tie9"\ntie_pays = "9"\n')
    out = CliRunner().invoke(main, ["count", "--profile", "punto-banco", "--grid-profile",
                                    str(nine), "--decks", "1", "--shoes", "5", "--bet", "tie",
                                    "--format", "json"])
    assert out.exit_code == 0, out.output
    grid = json.loads(out.output)["grid"]
    assert [c["cell"]["profile"] for c in grid] == ["punto-banco", "tie9"]
    eight, nine_ = (c["study"]["bets"]["tie"] for c in grid)
    # The same shoes: a tie paying 9 gains exactly one unit more per tie than paying 8.
    assert eight["fresh_ev"] != nine_["fresh_ev"]
    assert grid[0]["study"]["study"]["rounds"] == grid[1]["study"]["study"]["rounds"]


def test_the_grid_as_csv_and_text() -> None:
    out = run("--decks", "1,2", "--format", "csv")
    assert out.exit_code == 0, out.output
    rows = list(csv.reader(io.StringIO(out.output)))
    assert tuple(rows[0]) == GRID_COLUMNS
    assert len(rows) == 1 + 2 * 2  # a row per cell and bet
    assert [r[1] for r in rows[1:]] == ["1", "1", "2", "2"]
    assert [r[7] for r in rows[1:]] == ["tie", "banker", "tie", "banker"]
    text = run("--decks", "1,2")
    assert text.exit_code == 0 and "study grid: 2 cells" in text.output
    assert all(len(line) <= 100 for line in text.output.splitlines())


def test_the_library_grid_is_the_single_studies() -> None:
    cells = [(BUILTIN["punto-banco"], 1, None), (BUILTIN["ez-baccarat"], 1, 14)]
    grid = count_grid(cells, 5, 0.75, 3, bets=["tie"])
    for (profile, packs, cut), study in zip(cells, grid.studies, strict=True):
        single = count_study(profile, packs, 5, 0.75, 3, bets=["tie"], cut_cards=cut)
        assert count_data(study) == count_data(single)
    assert grid_data(grid)["partial"] is False


def test_a_grid_stopped_and_resumed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(counting, "SHOES_PER_BATCH", 4)
    cells = [(BUILTIN["punto-banco"], 1, None), (BUILTIN["punto-banco"], 2, None)]
    want = grid_data(count_grid(cells, 12, 0.75, 1, bets=["tie"]))

    def stop(done: int) -> None:
        if done >= 16:  # in the second cell
            raise KeyboardInterrupt

    part = count_grid(cells, 12, 0.75, 1, 1, stop, bets=["tie"], save=tmp_path / "g",
                      partial_on_stop=True)
    assert part.partial and len(part.studies) == 2 and part.studies[1].partial
    resumed = count_grid(cells, 12, 0.75, 1, bets=["tie"], save=tmp_path / "g", resume=True)
    assert json.dumps(grid_data(resumed)) == json.dumps(want)
    with pytest.raises(ValueError, match="grid of other cells"):
        count_grid(cells[:1], 12, 0.75, 1, bets=["tie"], save=tmp_path / "g", resume=True)


@pytest.mark.parametrize("args, message", [
    (["--decks", "1,,2"], "has an empty value"),
    (["--decks", "1,x"], "--decks"),
    (["--cut-cards", "10,-1"], "not a whole number of cards"),
    (["--decks", ",".join(["1"] * 65)], "at most 64 values"),
    (["--decks", ",".join(["1"] * 9), "--cut-cards", ",".join(["10"] * 8)],
     f"1 to {MAX_CELLS} cells, not 72"),
    (["--decks", "1,2", "--shoes", "600000000"], "at most 1,000,000,000 shoes in all"),
    (["--decks", "1", "--format", "csv"], "--format csv is the table of a study grid"),
    (["--decks", "1,2", "--cut-cards", "10,60"], "has fewer than 6 cards ahead"),
], ids=["empty", "word", "negative", "list", "cells", "shoes", "csv", "cell-checked"])
def test_bad_grids_are_refused_before_any_shoe(args: list[str], message: str) -> None:
    out = run(*args)
    assert out.exit_code == 2, out.output
    assert message in out.output
    assert "Traceback" not in out.output
