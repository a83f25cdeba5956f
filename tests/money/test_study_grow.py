"""Studies that grow: --resume DIR with the folder's options, more shoes, a cluster named.

A study saved with --save is resumed with every option left out (read from the
folder), and grown with --shoes: the shoes beyond are dealt with the same seed
stream, and the result equals, byte for byte, a straight run of that many
shoes.  A study run on a cluster says where in its report.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli import main
from odds.money.counting import count_grid, count_study
from odds.money.counting import study as counting
from odds.report.count_report import count_data, count_text, grid_rows
from odds.rules.profiles import BUILTIN

PROFILE = BUILTIN["punto-banco"]
STUDY = ["--profile", "punto-banco", "--decks", "1", "--bet", "tie", "--seed", "4",
         "--tags", "0,0,0,0,0,0,0,-1,-1,1,1,1,1", "--trigger", "1", "--penetration", "0.7"]


def run(*args: str) -> Any:
    return CliRunner().invoke(main, ["count", *args])


def _json(study: Any) -> str:
    return json.dumps(count_data(study), sort_keys=True)


@pytest.mark.parametrize("first", [6, 8], ids=["short-last-chunk", "whole-chunks"])
def test_a_grown_study_is_a_straight_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         first: int) -> None:
    """Chunks of 4 shoes: 6 shoes end in a short chunk (4-5) that the grown study deals
    whole (4-7); 8 end on a chunk's edge.  Grown to 14, the figures are a straight 14's."""
    monkeypatch.setattr(counting, "SHOES_PER_BATCH", 4)
    folder = tmp_path / "s"
    count_study(PROFILE, 1, first, 0.7, seed=4, bets=["tie"], save=folder)
    seen: list[int] = []
    grown = count_study(PROFILE, 1, 14, 0.7, seed=4, bets=["tie"], save=folder, resume=True,
                        progress=seen.append)
    assert seen[0] == first - first % 4  # the short chunk is dealt again, whole
    assert _json(grown) == _json(count_study(PROFILE, 1, 14, 0.7, seed=4, bets=["tie"]))
    assert json.loads((folder / "study.json").read_text())["settings"]["shoes"] == 14
    # Resumed again as it stands (14 shoes, a short last chunk kept apart): nothing to deal.
    again: list[int] = []
    same = count_study(PROFILE, 1, 14, 0.7, seed=4, bets=["tie"], save=folder, resume=True,
                       progress=again.append)
    assert again == [14] and _json(same) == _json(grown)


def test_the_command_resumes_with_the_folders_options_and_grows(tmp_path: Path) -> None:
    folder = str(tmp_path / "s")
    saved = run(*STUDY, "--shoes", "3", "--save", folder)
    assert saved.exit_code == 0, saved.output
    # Nothing retyped: the folder's options, the same figures.
    again = run("--resume", folder)
    assert again.exit_code == 0, again.output
    assert again.output == saved.output
    # Grown: 3 shoes there, 5 here; byte for byte a straight 5-shoe run, text and JSON.
    grown = run("--resume", folder, "--shoes", "5")
    straight = run(*STUDY, "--shoes", "5")
    assert grown.exit_code == 0 and grown.output == straight.output
    assert "study: 5 shoes of 1 pack, seed 4" in grown.output
    assert run("--resume", folder, "--format", "json").output == run(
        *STUDY, "--shoes", "5", "--format", "json").output


@pytest.mark.parametrize("args, message", [
    (["--seed", "5"], "(seed: 4 there, 5 here); give the same options"),
    (["--shoes", "2"], "has 3 shoes, not 2: a study can grow (--shoes more), not shrink"),
    (["--decks", "2"], "packs: 1 there, 2 here"),
    (["--trigger", "2"], "count_system.trigger: 1.0 there, 2.0 here"),
], ids=["seed", "shrink", "decks", "trigger"])
def test_options_given_on_resume_must_agree(tmp_path: Path, args: list[str],
                                            message: str) -> None:
    folder = tmp_path / "s"
    assert run(*STUDY, "--shoes", "3", "--save", str(folder)).exit_code == 0
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    out = run("--resume", str(folder), *args)
    assert out.exit_code == 2, out.output
    assert message in " ".join(out.output.split()), out.output
    assert "Traceback" not in out.output
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before  # nothing written


def test_a_folder_without_a_study_is_refused(tmp_path: Path) -> None:
    out = run("--resume", str(tmp_path))
    assert out.exit_code == 2 and "holds no study" in out.output


def test_a_grid_resumes_with_its_cells_from_the_folder(tmp_path: Path) -> None:
    folder = str(tmp_path / "g")
    grid = ["--profile", "punto-banco", "--decks", "1,2", "--cut-cards", "20", "--bet", "tie",
            "--seed", "2", "--format", "csv"]
    saved = run(*grid, "--shoes", "2", "--save", folder)
    assert saved.exit_code == 0, saved.output
    again = run("--resume", folder, "--format", "csv")
    assert again.exit_code == 0, again.output
    assert again.output == saved.output
    grown = run("--resume", folder, "--shoes", "3", "--format", "csv")
    assert grown.output == run(*grid, "--shoes", "3").output


class _Client:
    class scheduler:  # noqa: N801 - as dask names it
        address = "tcp://10.0.0.5:8786"

    def nthreads(self) -> dict[str, int]:
        return {"tcp://w1": 2, "tcp://w2": 2}


class _Session:
    """An open cluster session whose chunks run here (the report reads its client)."""

    client = _Client()

    def runner(self, plan: Any) -> Any:
        return counting._Serial(plan)


def test_a_study_on_a_cluster_says_where() -> None:
    study = count_study(PROFILE, 1, 2, 0.7, seed=4, bets=["tie"], cluster=_Session())
    assert count_data(study)["study"]["cluster"] == {
        "address": None, "scheduler": "tcp://10.0.0.5:8786", "workers": 2, "threads": 4}
    assert ("dealt on the Dask cluster (scheduler tcp://10.0.0.5:8786, 2 workers, 4 threads)"
            in " ".join(count_text(study)))
    here = count_study(PROFILE, 1, 2, 0.7, seed=4, bets=["tie"])
    assert count_data(here)["study"]["cluster"] is None
    assert not any("Dask" in line for line in count_text(here))


@pytest.mark.slow  # starts a local Dask cluster
def test_the_command_on_a_local_cluster_names_it() -> None:
    pytest.importorskip("distributed")
    out = run(*STUDY, "--shoes", "2", "--cluster", "local:1")
    assert out.exit_code == 0, out.output
    assert "dealt on the Dask cluster local:1 (scheduler tcp://127.0.0.1:" in out.output
    assert "1 worker" in out.output


def test_the_grids_csv_has_units_a_shoe_and_the_count_systems_columns() -> None:
    from odds.money.counting import CountSystem

    system = CountSystem((0, 0, 0, 0, 0, 0, 0, -1, -1, 1, 1, 1, 1), 1)
    grid = count_grid([(PROFILE, 1, None), (PROFILE, 1, 20)], 3, 0.7, seed=4, bets=["tie"],
                      system=system)
    rows = grid_rows(grid)
    head = rows[0]
    for k, study in enumerate(grid.studies):
        row = dict(zip(head, rows[1 + k], strict=True))
        f = count_data(study)["bets"]["tie"]
        assert float(row["system_units_per_shoe"]) == f["system"]["units_per_shoe"]["mean"]
        assert float(row["system_bets_per_shoe"]) == f["system"]["bets_per_shoe"]["mean"]
        assert float(row["perfect_information_units_per_shoe"]) == (
            f["perfect_information"]["units_per_shoe"]["mean"])
        assert float(row["kelly_ramp_units_per_shoe"]) == f["kelly_ramp"]["units_per_shoe"]["mean"]
        assert row["count_system_tags"] == "0 0 0 0 0 0 0 -1 -1 1 1 1 1"
        assert row["count_system_trigger"] == "1"
    # The old columns keep their places.
    assert head[:3] == ["profile", "packs", "cut_card_after"] and head[7] == "bet"


def test_a_refused_growth_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A damaged chunk refuses the grown study before study.json or any file is changed."""
    from odds.money.counting.folder import FolderError

    monkeypatch.setattr(counting, "SHOES_PER_BATCH", 4)
    folder = tmp_path / "s"
    count_study(PROFILE, 1, 6, 0.7, seed=4, bets=["tie"], save=folder)
    (folder / "chunk-0000000004.npz").write_bytes(b"not a chunk")  # the short chunk, kept
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    with pytest.raises(FolderError, match="chunk-0000000004.npz' is damaged"):
        count_study(PROFILE, 1, 14, 0.7, seed=4, bets=["tie"], save=folder, resume=True)
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
