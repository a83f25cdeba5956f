"""Resumable shoe studies: `lucky9 count --save DIR` / `--resume DIR`, and PARTIAL figures.

The figures are a left fold of chunk sums in shoe order, so a study stopped
after any number of chunks and resumed must give, byte for byte, the JSON of
one run straight through (a test that compares floats loosely could not fail
on a fold in another order: these compare the serialised text).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cli import main
from odds.money.counting import count_study
from odds.money.counting import folder as study_folder
from odds.money.counting import study as counting
from odds.money.counting.folder import FolderError
from odds.report.count_report import count_data, count_text
from odds.rules.profiles import BUILTIN
from tests.examples import examples
from tests.paths import ROOT

CLI = str(ROOT / "cli.py")
ARGS = (BUILTIN["punto-banco"], 1, 40, 0.75)
BETS = ["tie", "banker"]


def _json(study: Any) -> str:
    return json.dumps(count_data(study), indent=2)


class Stop(Exception):
    pass


def _stopper(after: int, exc: BaseException) -> Any:
    def progress(done: int) -> None:
        if done >= after:
            raise exc

    return progress


@pytest.fixture(scope="module")
def straight() -> str:
    return _json(count_study(*ARGS, seed=3, bets=BETS))


@pytest.mark.parametrize("after, jobs", [(8, 1), (24, 1), (16, 2)], ids=["1-chunk", "3", "jobs2"])
def test_stopped_after_k_chunks_and_resumed_is_byte_identical(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, after: int, jobs: int) -> None:
    monkeypatch.setattr(counting, "SHOES_PER_BATCH", 8)
    monkeypatch.setattr(counting, "CHECKPOINT_CHUNKS", 2)  # both a checkpoint and chunk files
    want = _json(count_study(*ARGS, seed=3, bets=BETS))
    folder = tmp_path / "study"
    part = count_study(*ARGS, seed=3, bets=BETS, jobs=jobs, save=folder,
                       progress=_stopper(after, KeyboardInterrupt()), partial_on_stop=True)
    assert part.partial and after <= part.shoes < 40 and part.shoes_planned == 40
    assert count_data(part)["study"]["partial"] is True
    assert "PARTIAL: stopped after" in "\n".join(count_text(part))
    assert "study.json" in os.listdir(folder)
    resumed = count_study(*ARGS, seed=3, bets=BETS, save=folder, resume=True)
    assert not resumed.partial
    assert _json(resumed) == want
    # Resuming a finished study deals nothing more and gives the same figures.
    again = count_study(*ARGS, seed=3, bets=BETS, save=folder, resume=True,
                        progress=_stopper(41, Stop()))
    assert _json(again) == want


def test_a_stop_without_partial_raises_and_keeps_the_chunks(tmp_path: Path,
                                                             straight: str) -> None:
    folder = tmp_path / "s"
    with pytest.raises(Stop):
        count_study(*ARGS, seed=3, bets=BETS, save=folder, progress=_stopper(1, Stop()))
    assert _json(count_study(*ARGS, seed=3, bets=BETS, save=folder, resume=True)) == straight


@settings(max_examples=examples(3, 8), deadline=None)
@given(after=st.integers(1, 30), chunk=st.sampled_from([4, 8, 16]),
       checkpoint=st.integers(1, 5), stops=st.integers(1, 3))
def test_any_number_of_stops_gives_the_straight_figures(after: int, chunk: int, checkpoint: int,
                                                        stops: int) -> None:
    import tempfile

    old = counting.SHOES_PER_BATCH, counting.CHECKPOINT_CHUNKS
    counting.SHOES_PER_BATCH, counting.CHECKPOINT_CHUNKS = chunk, checkpoint
    try:
        args = (BUILTIN["punto-banco"], 1, 30, 0.75)
        want = _json(count_study(*args, seed=9, bets=["tie"]))
        folder = Path(tempfile.mkdtemp()) / "s"
        resume = False
        for k in range(stops):
            stop = min(30, after + k * chunk)
            study = count_study(*args, seed=9, bets=["tie"], save=folder, resume=resume,
                                progress=_stopper(stop, KeyboardInterrupt()),
                                partial_on_stop=True)
            resume = True
            if not study.partial:
                break
        assert _json(count_study(*args, seed=9, bets=["tie"], save=folder, resume=True)) == want
    finally:
        counting.SHOES_PER_BATCH, counting.CHECKPOINT_CHUNKS = old


# -- refusals -------------------------------------------------------------------


def run(*args: str) -> Any:
    return CliRunner().invoke(main, ["count", "--profile", "punto-banco", "--decks", "1",
                                     "--shoes", "10", "--bet", "tie", *args])


@pytest.fixture()
def saved(tmp_path: Path) -> Path:
    folder = tmp_path / "study"
    out = run("--seed", "1", "--save", str(folder), "--format", "json")
    assert out.exit_code == 0, out.output
    return folder


def test_resume_refuses_another_command_line(saved: Path) -> None:
    out = run("--seed", "2", "--resume", str(saved))
    assert out.exit_code == 2
    assert "another command line" in out.output and "seed: 1 there, 2 here" in out.output
    assert "Traceback" not in out.output
    out = run("--seed", "1", "--shoes", "5", "--resume", str(saved))  # more grows it; fewer:
    assert out.exit_code == 2 and "has 10 shoes, not 5: a study can grow" in out.output
    out = run("--seed", "1", "--tie-pays", "9", "--resume", str(saved))
    assert out.exit_code == 2 and "options.tie_pays: '8' there, '9' here" in out.output


def test_resume_refuses_another_version(saved: Path) -> None:
    meta = saved / "study.json"
    record = json.loads(meta.read_text())
    record["version"] = "0.0.1"
    meta.write_text(json.dumps(record))
    out = run("--seed", "1", "--resume", str(saved))
    assert out.exit_code == 2
    assert "made by lucky9-odds 0.0.1" in out.output and "resume it with that version" in out.output


@pytest.mark.parametrize("target, content, message", [
    ("study.json", b"{not json", "a damaged (or foreign) study folder"),
    ("study.json", b"\xff\xfe\x00", "study file"),
    ("total.npz", b"PK\x03\x04 broken", "total.npz' is damaged"),
], ids=["json", "binary-json", "total"])
def test_resume_refuses_a_damaged_folder(saved: Path, target: str, content: bytes,
                                         message: str) -> None:
    (saved / target).write_bytes(content)
    out = run("--seed", "1", "--resume", str(saved))
    assert out.exit_code == 2, out.output
    assert message in out.output and "Traceback" not in out.output


@pytest.mark.parametrize("content, message", [
    (b"not a zip", "is damaged"), (b"\x93NUMPY", "is damaged"), (None, "not the arrays of a chunk")],
    ids=["garbage", "npy", "foreign"])
def test_resume_refuses_a_damaged_chunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        content: bytes | None, message: str) -> None:
    import numpy as np

    monkeypatch.setattr(counting, "SHOES_PER_BATCH", 4)
    folder = tmp_path / "s"
    args = (BUILTIN["punto-banco"], 1, 20, 0.75)
    part = count_study(*args, seed=1, bets=["tie"], save=folder, partial_on_stop=True,
                       progress=_stopper(4, KeyboardInterrupt()))
    assert part.partial
    planted = folder / "chunk-0000000012.npz"  # beyond the checkpoint: read on resume
    if content is None:
        with open(planted, "wb") as f:
            np.savez(f, first=np.array([12]), rounds=np.zeros(5), **{"x|y": np.zeros(2)})
    else:
        planted.write_bytes(content)
    with pytest.raises(FolderError, match=message) as info:
        count_study(*args, seed=1, bets=["tie"], save=folder, resume=True)
    assert "chunk-0000000012.npz" in str(info.value) and "delete it" in str(info.value)


def test_save_and_resume_refuse_unusable_folders(saved: Path, tmp_path: Path) -> None:
    out = run("--seed", "1", "--save", str(saved))
    assert out.exit_code == 2 and "already holds a study" in out.output
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    out = run("--save", str(tmp_path / "full"))
    assert out.exit_code == 2 and "not empty" in out.output
    (tmp_path / "file").write_text("x")
    out = run("--save", str(tmp_path / "file"))
    assert out.exit_code == 2 and "not a folder" in out.output
    out = run("--save", "/proc/lucky9-study")
    assert out.exit_code == 2 and "cannot make the folder" in out.output
    out = run("--resume", str(tmp_path / "missing"))
    assert out.exit_code == 2 and "no such folder" in out.output
    out = run("--resume", str(tmp_path / "full"))
    assert out.exit_code == 2 and "holds no study" in out.output
    out = run("--save", str(tmp_path / "a"), "--resume", str(saved))
    assert out.exit_code == 2 and "not both" in out.output


def test_resume_refuses_a_folder_it_cannot_write(saved: Path, monkeypatch: pytest.MonkeyPatch
                                                 ) -> None:
    # Root may write anywhere, so a read-only mode proves nothing here: the probe's
    # failure is what the check reads, whatever caused it.
    def refuse(path: Any) -> Any:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(study_folder, "AtomicFile", refuse)
    with pytest.raises(FolderError, match="the folder is not writable"):
        count_study(BUILTIN["punto-banco"].with_options(decks=1), 1, 10, 0.8, seed=1,
                    bets=["tie"], save=saved, resume=True)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_resume_refuses_a_read_only_folder(saved: Path) -> None:  # pragma: no cover - as root
    saved.chmod(0o500)
    try:
        out = run("--seed", "1", "--resume", str(saved))
        assert out.exit_code == 2 and "not writable" in out.output
    finally:
        saved.chmod(0o700)


# -- a real signal -------------------------------------------------------------


@pytest.mark.slow
def test_sigterm_half_way_prints_partial_figures_and_resumes_byte_identical(
        tmp_path: Path) -> None:
    folder = tmp_path / "study"
    common = ["count", "--profile", "punto-banco", "--decks", "1", "--shoes", "1200",
              "--bet", "tie", "--seed", "4", "--format", "json"]
    proc = subprocess.Popen([sys.executable, CLI, *common, "--save", str(folder)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    try:
        while not any(n.startswith(("chunk-", "total")) for n in
                      (os.listdir(folder) if folder.exists() else [])):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no chunk finished"
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 128 + signal.SIGTERM, stderr
    data = json.loads(stdout)
    assert data["study"]["partial"] is True, "the study ended before the signal: make it longer"
    assert 0 < data["study"]["shoes"] < 1200 and data["study"]["shoes_planned"] == 1200
    assert b"Traceback" not in stderr
    resumed = CliRunner().invoke(main, [*common, "--resume", str(folder)])
    assert resumed.exit_code == 0, resumed.output
    straight = CliRunner().invoke(main, common)
    assert resumed.output == straight.output


def test_a_failing_backend_loses_no_finished_chunk(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker lost mid-study (here: the third chunk's result fails): the chunks done are
    on disk, and the study resumed anywhere gives the straight figures."""
    from odds.money.counting.cluster import ClusterError

    monkeypatch.setattr(counting, "SHOES_PER_BATCH", 8)
    want = _json(count_study(*ARGS, seed=3, bets=BETS))
    real = counting._runner

    class Failing:
        def __init__(self, inner: Any) -> None:
            self.inner, self.slots, self.seen = inner, inner.slots, 0

        def submit(self, a: int, b: int) -> Any:
            return self.inner.submit(a, b)

        def wait(self, pending: list[Any], timeout: float) -> set[Any]:
            out: set[Any] = self.inner.wait(pending, timeout)
            return out

        def result(self, handle: Any) -> Any:
            self.seen += 1
            if self.seen == 3:
                raise ClusterError("a chunk failed on the cluster (KilledWorker)")
            return self.inner.result(handle)

        def close(self, cancel: bool) -> None:
            self.inner.close(cancel)

    monkeypatch.setattr(counting, "_runner", lambda *a: Failing(real(*a)))
    folder = tmp_path / "s"
    with pytest.raises(ClusterError):
        count_study(*ARGS, seed=3, bets=BETS, save=folder)
    monkeypatch.setattr(counting, "_runner", real)
    kept = study_folder.StudyFolder.resume(folder, json.loads(
        (folder / "study.json").read_text())["settings"])
    assert kept.next == 16  # the two chunks done before the failure
    assert _json(count_study(*ARGS, seed=3, bets=BETS, save=folder, resume=True)) == want
