"""odds.sim.run_files: a simulated run's tallies and log, checked before the run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from odds.rules import BUILTIN, Shoe
from odds.sim.run_files import check_run_files, write_tallies
from odds.sim.simulate import simulate
from odds.sim.tallies import tallies_csv, tallies_json


def test_two_targets_must_be_two_files(tmp_path: Path) -> None:
    check_run_files(str(tmp_path / "t.json"), str(tmp_path / "log.csv"))
    check_run_files(None, None)
    with pytest.raises(ValueError, match="name the same file"):
        check_run_files(str(tmp_path / "t.csv"), str(tmp_path / "." / "t.csv"))


def test_tallies_are_csv_by_their_extension(tmp_path: Path) -> None:
    sim = simulate(BUILTIN["standard"], Shoe.packs_of(1), 50, seed=1)
    write_tallies(str(tmp_path / "t.CSV"), sim)
    write_tallies(str(tmp_path / "t.json"), sim)
    assert (tmp_path / "t.CSV").read_text() == tallies_csv(sim.header, sim.tallies)
    assert (tmp_path / "t.json").read_text() == tallies_json(sim.header, sim.tallies, sim.note)
    assert json.loads((tmp_path / "t.json").read_text())
