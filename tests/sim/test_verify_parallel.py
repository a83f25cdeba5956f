"""`verify --jobs N`: a round log judged in parts by several processes, the report and its
JSON byte for byte those of one process; a stop reports the parts done, marked partial."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psutil
import pytest
from click.testing import CliRunner

from cli import main
from odds.rules.profiles import BUILTIN
from odds.rules.shoe import Shoe
from odds.sim import parallel
from odds.sim import verify as verify_module
from odds.sim.simulate import simulate
from odds.sim.verify import verify_file

BLOCK = 2048  # bytes: a log of a few hundred rounds makes many blocks and parts
CLI = str(Path(__file__).resolve().parents[2] / "cli.py")


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("parallel")
    runs = {
        "fresh-3-seats.csv": dict(profile="standard", packs=2, rounds=300, seats=3),
        "cut-shoe-column.csv": dict(profile="punto-banco", packs=1, rounds=500, seats=1,
                                    reshuffle="cut"),
        "cut-2-seats.jsonl": dict(profile="standard", packs=1, rounds=200, seats=2,
                                  reshuffle="cut"),
    }
    made = {}
    for name, run in runs.items():
        path = folder / name
        simulate(BUILTIN[str(run["profile"])], Shoe.packs_of(int(run["packs"])),
                 int(run["rounds"]), seats=int(run["seats"]), seed=5,
                 reshuffle=str(run.get("reshuffle", "round")), log=path)
        made[name] = path
    # Rule breaks spread over the log: a wrong payout, a hand of four cards.
    text = made["cut-shoe-column.csv"].read_text().splitlines()
    body = [i for i, ln in enumerate(text) if ln[:1].isdigit()]
    for k, i in enumerate(body[5::61]):
        cells = text[i].split(",")
        if k % 2:
            cells[5] = "5"
        else:
            cells[2] = cells[2] + " Ks"
        text[i] = ",".join(cells)
    (folder / "broken.csv").write_text("\n".join(text) + "\n")
    made["broken.csv"] = folder / "broken.csv"
    # A column verify does not know, as programmers add them: ignored with one note.
    extra = [ln + (",player_total" if ln.startswith("round,") else ",7" if ln[:1].isdigit()
                   else "") for ln in made["cut-shoe-column.csv"].read_text().splitlines()]
    (folder / "extra-column.csv").write_text("\n".join(extra) + "\n")
    made["extra-column.csv"] = folder / "extra-column.csv"
    return made


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Blocks of BLOCK bytes in one process and in the parts (workers fork with it), and
    what the parallel run did: its number of parts, and whether it fell back."""
    monkeypatch.setattr(verify_module, "BLOCK", BLOCK)
    monkeypatch.setattr(parallel, "BLOCK", BLOCK)
    monkeypatch.setattr(parallel, "MIN_PART", 2 * BLOCK)
    monkeypatch.setattr(parallel, "MAX_PART", 8 * BLOCK)
    seen: dict[str, Any] = {"parts": [], "fell back": False}
    merge = parallel.merge_judges
    run = verify_module.verify_parts

    def counting(parts: list[Any], check: bool = True) -> Any:
        seen["parts"].append(len(parts))
        return merge(parts, check)

    def watched(*args: Any, **kwargs: Any) -> Any:
        try:
            return run(*args, **kwargs)
        except parallel.Unsplittable:
            seen["fell back"] = True
            raise

    monkeypatch.setattr(parallel, "merge_judges", counting)
    monkeypatch.setattr(verify_module, "verify_parts", watched)
    return seen


def _verify(path: Path, *args: str) -> tuple[int, str]:
    out = CliRunner().invoke(main, ["verify", str(path), *args])
    assert out.exception is None or isinstance(out.exception, SystemExit), out.output
    return out.exit_code, out.stdout


@pytest.mark.parametrize("name", ["fresh-3-seats.csv", "cut-shoe-column.csv",
                                  "cut-2-seats.jsonl", "broken.csv", "extra-column.csv"])
def test_jobs_2_gives_the_one_process_report_byte_for_byte(logs, name, small_blocks) -> None:
    path = logs[name]
    for fmt in ("json", "text"):
        one = _verify(path, "--format", fmt)
        two = _verify(path, "--format", fmt, "--jobs", "2")
        assert two == one
    assert small_blocks["fell back"] is False
    assert min(small_blocks["parts"]) >= 4  # really in parts
    data = json.loads(_verify(path, "--format", "json", "--jobs", "3")[1])
    assert data == json.loads(one[1] if fmt == "json" else _verify(path, "--format", "json")[1])


def test_the_broken_log_breaks_rules_in_several_parts(logs, small_blocks) -> None:
    """The planted faults are found in every part (a test that can fail)."""
    code, text = _verify(logs["broken.csv"], "--format", "json", "--jobs", "2")
    data = json.loads(text)
    assert code == 1
    counts = data["audit"]["counts"]
    assert counts["payout"] == 4 and sum(counts.values()) >= 8, counts
    lines = [v["line"] for v in data["audit"]["violations"]]
    assert lines == sorted(lines)


def test_a_log_the_parts_cannot_judge_apart_is_judged_in_one_process(
        logs, small_blocks, tmp_path: Path) -> None:
    # A round of the first shoe written again near the end: out of order across parts.
    text = logs["fresh-3-seats.csv"].read_text().splitlines()
    body = [i for i, ln in enumerate(text) if ln[:1].isdigit()]
    text.insert(body[-40], text[body[0]].replace("1,1,", "2,1,", 1))
    path = tmp_path / "shuffled.csv"
    path.write_text("\n".join(text) + "\n")
    assert _verify(path, "--format", "json", "--jobs", "2") == _verify(path, "--format", "json")
    assert small_blocks["fell back"] is True


def test_a_tallies_file_is_verified_as_ever(tmp_path: Path) -> None:
    out = CliRunner().invoke(main, ["simulate", "--rounds", "300", "--seed", "2", "--tallies",
                                    str(tmp_path / "t.json")])
    assert out.exit_code == 0
    assert _verify(tmp_path / "t.json", "--jobs", "2") == _verify(tmp_path / "t.json")


def _children() -> list[psutil.Process]:
    return [p for p in psutil.Process().children(recursive=True)
            if p.status() != psutil.STATUS_ZOMBIE
            and not any("resource_tracker" in c for c in p.cmdline())]


def test_a_stop_reports_the_parts_done_marked_partial(logs, small_blocks) -> None:
    path = logs["cut-shoe-column.csv"]
    whole = verify_file(path)

    def stop(done: int, total: int, rows: int) -> None:
        if rows:
            raise KeyboardInterrupt

    part = verify_file(path, jobs=2, progress=stop, partial_on_stop=True)
    assert part.notes[0].startswith("PARTIAL: stopped after ")
    assert 0 < part.rows < whole.rows
    assert f"{part.rows:,} rows" in part.notes[0]
    assert _children() == []  # the workers ended at once
    with pytest.raises(KeyboardInterrupt):
        verify_file(path, jobs=2, progress=stop)
    assert _children() == []


def test_progress_counts_bytes_and_rows_to_the_end(logs, small_blocks) -> None:
    path = logs["fresh-3-seats.csv"]
    seen: list[tuple[int, int, int]] = []
    result = verify_file(path, jobs=2, progress=lambda *a: seen.append(a))
    done = [s for s in seen if s[2]]
    assert done[-1] == (path.stat().st_size, path.stat().st_size, result.rows)
    assert [s[0] for s in done] == sorted(s[0] for s in done)


@pytest.mark.parametrize("args, message", [
    (["--jobs", "0"], "0"),
    (["--jobs", "65"], "65"),
    (["--jobs", "2", "--cluster", "local:1"], "not both"),
    (["--cluster", "local:0"], "takes 1 to 64 workers"),
    (["--cluster", "tcp://127.0.0.1:99999"], "not a port"),
    (["--cluster", "local:1", "--cluster-timeout", "0"], "0"),
], ids=["jobs-0", "jobs-65", "both", "local-0", "port", "timeout-0"])
def test_bad_parallel_options_are_usage_errors(logs, args: list[str], message: str) -> None:
    out = CliRunner().invoke(main, ["verify", str(logs["fresh-3-seats.csv"]), *args])
    assert out.exit_code == 2, out.output
    assert message in out.output and "Traceback" not in out.output


# CI (slow: a log of 300,000 rows, stopped by a real SIGTERM); its fast twin is
# test_a_stop_reports_the_parts_done_marked_partial.
@pytest.mark.slow
def test_sigterm_prints_a_partial_report_and_leaves_no_process(tmp_path: Path) -> None:
    path = tmp_path / "log.csv"
    # Cut-card shoes with a shoe column: every round is tested against its own exact odds,
    # some 30 s of CPU a million rows, so the first parts are done long before the last
    # (a fresh-shoe log is judged too fast: every part could be done before the signal).
    simulate(BUILTIN["standard"], Shoe.packs_of(8), 100_000, seats=3, seed=1, reshuffle="cut",
             log=path)
    err_path = tmp_path / "err.txt"
    with err_path.open("wb") as err_file:
        proc = subprocess.Popen([sys.executable, CLI, "verify", str(path), "--jobs", "2",
                                 "--progress"], stdout=subprocess.PIPE, stderr=err_file,
                                start_new_session=True)
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and proc.poll() is None and not re.search(
                    r"[1-9][0-9,]* rows, ", err_path.read_text()):
                time.sleep(0.2)
            proc.send_signal(signal.SIGTERM)
            sent = time.monotonic()
            out, _ = proc.communicate(timeout=60)
            took = time.monotonic() - sent
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.communicate()
    assert proc.returncode == 143, err_path.read_text()
    assert b"PARTIAL: stopped after" in out
    assert took < 20, took
    alive = [p for p in psutil.process_iter() if _sid(p.pid) == proc.pid
             and p.status() != psutil.STATUS_ZOMBIE]
    assert alive == []


def _sid(pid: int) -> int | None:
    try:
        return os.getsid(pid)
    except (ProcessLookupError, PermissionError):
        return None


# CI (slow: a local Dask cluster of two workers starts, about 10 s); its fast twin is
# test_jobs_2_gives_the_one_process_report_byte_for_byte.
@pytest.mark.slow
def test_a_local_cluster_gives_the_one_process_report_byte_for_byte(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    path = tmp_path / "log.csv"  # about 3 MB: three parts of the 1 MB blocks the workers use
    simulate(BUILTIN["punto-banco"], Shoe.packs_of(8), 60_000, seed=3, reshuffle="cut",
             log=path)
    seen: list[int] = []
    merge = parallel.merge_judges

    def counting(parts: list[Any], check: bool = True) -> Any:
        seen.append(len(parts))
        return merge(parts, check)

    one = _verify(path, "--format", "json")
    parallel.merge_judges = counting  # type: ignore[assignment]
    try:
        on_cluster = _verify(path, "--format", "json", "--cluster", "local:2",
                             "--cluster-timeout", "60")
    finally:
        parallel.merge_judges = merge
    assert on_cluster == one
    assert seen and seen[0] >= 2
