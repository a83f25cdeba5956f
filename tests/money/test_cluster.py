"""`lucky9 count --cluster`: a study's chunks on Dask, the figures byte for byte those of one
process.  Dask is in the test extras, so these run in CI; every cluster here is a
LocalCluster bound to 127.0.0.1."""

from __future__ import annotations

import importlib
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli import main
from odds.money.counting import cluster as cluster_module
from odds.money.counting import count_study
from odds.money.counting.cluster import (
    ClusterError,
    ClusterSession,
    check_workers,
    held_tables,
)
from odds.money.counting.folder import code_identity
from odds.report.count_report import count_data
from odds.rules.profiles import BUILTIN

pytest.importorskip("distributed")

ARGS = (BUILTIN["punto-banco"], 1, 150, 0.75)
BETS = ["tie", "banker"]


def _json(study: Any) -> str:
    """The study's JSON but where it ran (``study.cluster``, the report's only difference)."""
    data = count_data(study)
    data["study"].pop("cluster")
    return json.dumps(data, indent=2)


@pytest.fixture(scope="module")
def session() -> Iterator[ClusterSession]:
    s = ClusterSession.open("local:2", timeout=30)
    try:
        yield s
    finally:
        s.close()


def test_two_workers_two_jobs_and_one_process_give_byte_identical_json(
        session: ClusterSession) -> None:
    one = _json(count_study(*ARGS, seed=6, bets=BETS, jobs=1))
    two = _json(count_study(*ARGS, seed=6, bets=BETS, jobs=2))
    on_cluster = _json(count_study(*ARGS, seed=6, bets=BETS, cluster=session))
    assert one == two == on_cluster
    assert len(session.client.nthreads()) == 2


def test_each_worker_keeps_its_rules_table(session: ClusterSession) -> None:
    count_study(*ARGS, seed=7, bets=BETS, cluster=session)
    before = session.client.run(held_tables)
    count_study(*ARGS, seed=8, bets=BETS, cluster=session)
    after = session.client.run(held_tables)
    # The same table objects serve the next study: made once per worker, not per chunk.
    assert before == after and all(len(ids) >= 1 for ids in after.values())


def test_progress_follows_the_chunks(session: ClusterSession) -> None:
    seen: list[int] = []
    count_study(*ARGS, seed=6, bets=BETS, cluster=session, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == 150
    assert set(seen) >= {150} and len(set(seen)) >= 3  # 64, 128, 150 shoes as chunks end


def test_saved_chunks_from_a_cluster_resume_anywhere(session: ClusterSession,
                                                     tmp_path: Path) -> None:
    want = _json(count_study(*ARGS, seed=6, bets=BETS))
    folder = tmp_path / "s"

    def stop(done: int) -> None:
        if done >= 64:
            raise KeyboardInterrupt

    part = count_study(*ARGS, seed=6, bets=BETS, cluster=session, save=folder, progress=stop,
                       partial_on_stop=True)
    assert part.partial
    assert _json(count_study(*ARGS, seed=6, bets=BETS, save=folder, resume=True)) == want


def test_workers_with_another_version_or_no_package_are_refused(
        session: ClusterSession) -> None:
    found = session.client.run(cluster_module.worker_identity, on_error="return")
    check_workers(found, code_identity())  # the same code: accepted
    with pytest.raises(ClusterError, match=r"runs lucky9-odds 0\.1\.0 .*this program 9\.9\.9"):
        check_workers(found, {"version": "9.9.9", "code": "0"})
    # What a worker without the package answers: the import fails there.
    missing = session.client.run(importlib.import_module, "odds_not_on_this_worker",
                                 on_error="return")
    assert all(isinstance(v, ModuleNotFoundError) for v in missing.values())
    with pytest.raises(ClusterError, match="cannot run the study .*install lucky9-odds"):
        check_workers(missing, code_identity())


def test_a_version_mismatch_stops_the_command_with_exit_2(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    monkeypatch.setattr(cluster_module, "code_identity",
                        lambda: {"version": "9.9.9", "code": "0"})
    out = CliRunner().invoke(main, ["count", "--decks", "1", "--shoes", "4", "--bet", "tie",
                                    "--profile", "punto-banco", "--cluster", "local:1"])
    assert out.exit_code == 2, out.output
    assert "every worker needs the same version" in out.output
    assert "Traceback" not in out.output


# CI (slow: a local cluster of 2 workers); its fast twin is
# test_two_workers_two_jobs_and_one_process_give_byte_identical_json.
@pytest.mark.slow
def test_cli_local_cluster_matches_jobs_1(tmp_path: Path) -> None:
    common = ["count", "--profile", "punto-banco", "--decks", "1", "--shoes", "100", "--seed",
              "2", "--bet", "tie", "--format", "json"]
    one = CliRunner().invoke(main, common)
    on_cluster = CliRunner().invoke(main, [*common, "--cluster", "local:2", "--progress"])
    assert on_cluster.exit_code == 0, on_cluster.output
    there, here = json.loads(on_cluster.stdout), json.loads(one.output)
    assert there["study"].pop("cluster")["workers"] == 2 and here["study"].pop("cluster") is None
    assert there == here
    assert "dealing shoes" in on_cluster.stderr


def test_an_unreachable_scheduler_is_an_error_within_the_timeout() -> None:
    started = time.monotonic()
    out = CliRunner().invoke(main, ["count", "--decks", "1", "--shoes", "4", "--cluster",
                                    "tcp://127.0.0.1:9", "--cluster-timeout", "2"])
    took = time.monotonic() - started
    assert out.exit_code == 2, out.output
    assert "cannot reach the Dask scheduler at 'tcp://127.0.0.1:9' within 2 s" in out.output
    assert took < 30, took


@pytest.mark.parametrize("args, message", [
    (["--cluster", "local:0"], "takes 1 to 64 workers"),
    (["--cluster", "local:65"], "takes 1 to 64 workers"),
    (["--cluster", "http://example.org"], "such as tcp://host:8786"),
    (["--cluster", "local:2", "--jobs", "2"], "not both"),
    (["--cluster", "local:1", "--cluster-timeout", "601"], "601"),
    (["--cluster", "local:1", "--cluster-timeout", "0"], "0"),
], ids=["zero", "too-many", "http", "jobs", "timeout-big", "timeout-zero"])
def test_bad_cluster_options(args: list[str], message: str) -> None:
    out = CliRunner().invoke(main, ["count", "--decks", "1", "--shoes", "4", *args])
    assert out.exit_code == 2, out.output
    assert message in out.output


def test_without_dask_the_flag_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    out = CliRunner().invoke(main, ["count", "--decks", "1", "--shoes", "4", "--cluster",
                                    "local:1"])
    assert out.exit_code == 2, out.output
    assert "pip install 'lucky9-odds[cluster]'" in out.output
