"""odds.report.write_folder: a run's files, one, a folder of several, or none; all or none."""

from __future__ import annotations

from pathlib import Path

import pytest

from odds.report.write_folder import (
    MAX_PROFILES,
    distinct_profiles,
    out_folder,
    output_paths,
    write_whole,
)
from odds.rules import BUILTIN


def test_profiles_of_a_run() -> None:
    profiles = [BUILTIN["standard"], BUILTIN["punto-banco"]]
    assert distinct_profiles(profiles, "a table card") == profiles
    with pytest.raises(ValueError, match=f"at most {MAX_PROFILES} profiles"):
        distinct_profiles([BUILTIN["standard"]] * (MAX_PROFILES + 1))


def test_one_file_goes_to_the_path_several_into_a_folder(tmp_path: Path) -> None:
    assert output_paths(str(tmp_path / "a.md"), ["x.md"], "sheets")[0] == [str(tmp_path / "a.md")]
    paths, _ = output_paths(str(tmp_path / "new"), ["x.md", "y.md"], "sheets")
    assert paths == [str(tmp_path / "new" / "x.md"), str(tmp_path / "new" / "y.md")]
    assert (tmp_path / "new").is_dir()


def test_a_file_is_no_folder(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("")
    with pytest.raises(ValueError, match="several cards are written into a folder"):
        out_folder(str(tmp_path / "f"), ["a", "b"], "cards")


def test_a_failed_run_leaves_nothing(tmp_path: Path) -> None:
    paths, undo = out_folder(str(tmp_path / "new"), ["a", "b"], "sheets")

    def fails() -> list[str]:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_whole(paths, undo, fails)
    assert list(tmp_path.iterdir()) == []
    paths, undo = out_folder(str(tmp_path / "new"), ["a", "b"], "sheets")
    assert write_whole(paths, undo, lambda: ["1", "2"]) == ["1", "2"]
    assert [Path(p).read_text() for p in paths] == ["1", "2"]


def test_nothing_is_written_to_standard_output() -> None:
    assert write_whole([], lambda: None, lambda: ["text"]) == ["text"]
