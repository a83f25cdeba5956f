"""The shoe study's chunks on a Dask cluster (``lucky9 count --cluster``).

A chunk of shoes is a pure function of the study's plan and two shoe numbers
(:func:`odds.money.counting.kernel.evaluate_chunk`), so a cluster runs it as it is:
the plan is sent to every worker once (``scatter``), each chunk is one
``submit``, a few chunks per worker are in flight at a time, and the
chunks' sums come back to be added in shoe order.  The figures are the same
as in one process, bit for bit.

Each worker is a long-lived process: it builds (or reads from the disk
cache, :mod:`odds.exact.table_cache`) the study's rules table with its first
chunk and keeps it in memory for the next ones (:func:`odds.exact.bet_table.
bet_table`), so a table is made once per worker, not per chunk.

``ADDRESS`` is a scheduler's address (``tcp://host:8786``) or ``local:N``,
a ``LocalCluster`` of N worker processes bound to 127.0.0.1.  Before any
chunk runs, every worker must run this very code (:func:`odds.money.
counting.folder.code_identity`: the package's version and a digest of the
code behind the figures); a worker without the package or with another
version is a :class:`ClusterError` naming it.

Dask is optional (``pip install 'lucky9-odds[cluster]'``); this module
imports it only when a cluster is asked for.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import numpy as np

from odds.exact import bet_table
from odds.io.textio import excerpt
from odds.money.counting.folder import code_identity
from odds.money.counting.kernel import ChunkSums, evaluate_chunk
from odds.money.counting.plan import MAX_JOBS, StudyPlan

__all__ = ["MAX_TIMEOUT", "ClusterError", "ClusterSession", "DaskRunner", "check_address",
           "check_timeout", "check_workers"]

MAX_TIMEOUT = 600.0  # seconds to wait for a scheduler at most
MAX_WORKERS = MAX_JOBS  # worker processes of a local cluster
PER_WORKER = 2  # chunks in flight per worker thread: one running, one waiting
MAX_IN_FLIGHT = 128
INSTALL = "pip install 'lucky9-odds[cluster]' (or: pip install 'dask[distributed]')"
_ADDRESS = re.compile(r"(tcp|tls)://[A-Za-z0-9._\[\]:-]{1,255}:[0-9]{1,5}")


class ClusterError(ValueError):
    """The cluster cannot run the study (unreachable, workers missing or unlike): exit 2."""


def check_address(address: str) -> None:
    """Refuse an address that is neither ``tcp://host:port`` nor ``local:N``.

    >>> check_address("local:2"); check_address("tcp://127.0.0.1:8786")
    >>> check_address("local:0")
    Traceback (most recent call last):
    ...
    odds.money.counting.cluster.ClusterError: --cluster local:N takes 1 to 64 workers, not 'local:0'
    """
    if not isinstance(address, str):
        raise ClusterError(f"--cluster takes an address, not {excerpt(address)}")
    if address.startswith("local:"):
        n = address[len("local:"):]
        if not (n.isdigit() and len(n) <= 3 and 1 <= int(n) <= MAX_WORKERS):
            raise ClusterError(f"--cluster local:N takes 1 to {MAX_WORKERS} workers, "
                               f"not {excerpt(address, 40)}")
        return
    if not _ADDRESS.fullmatch(address):
        raise ClusterError(f"--cluster takes a scheduler's address such as "
                           f"tcp://host:8786, or local:N; not {excerpt(address, 80)}")
    port = int(address.rsplit(":", 1)[1])
    if not 1 <= port <= 65535:
        raise ClusterError(f"--cluster {excerpt(address, 80)}: port {port} is out of range 1-65535")


def check_timeout(seconds: float) -> None:
    """The time allowed to reach the scheduler: more than 0, at most :data:`MAX_TIMEOUT`.

    >>> check_timeout(0)
    Traceback (most recent call last):
    ...
    odds.money.counting.cluster.ClusterError: --cluster-timeout is more than 0 and at most 600 seconds, not 0
    """
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
            or not 0 < seconds <= MAX_TIMEOUT:
        raise ClusterError(f"--cluster-timeout is more than 0 and at most {MAX_TIMEOUT:g} "
                           f"seconds, not {seconds!r}")


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ClusterError(f"--cluster needs Dask, which is not installed: {INSTALL}") from None
    return distributed


def evaluate_packed(plan: StudyPlan, first: int, last: int) -> tuple[ChunkSums, dict[str, Any]]:
    """:func:`evaluate_chunk` with its histograms sent sparse (the bins that are not 0).

    A chunk's fine histograms are 100,002 bins a bet, nearly all empty: 7 MB a
    chunk of every punto-banco bet, dense.  Their counts are whole numbers, so
    the sparse form gives back the same float64 values exactly (:func:`unpack`).
    """
    sums = evaluate_chunk(plan, first, last)
    packed = {}
    for name, hist in sums.hist.items():
        where = np.flatnonzero(hist)
        packed[name] = (len(hist), where.astype(np.int32), hist[where])
    sums.hist = {}
    return sums, packed


def unpack(result: tuple[ChunkSums, dict[str, Any]]) -> ChunkSums:
    """The chunk's sums with their dense histograms again.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.money.counting import evaluate_chunk, study_plan
    >>> plan, _ = study_plan(BUILTIN["punto-banco"], 1, bets=["tie"])
    >>> dense = evaluate_chunk(plan, 0, 3)
    >>> again = unpack(evaluate_packed(plan, 0, 3))
    >>> all((again.hist[k] == v).all() for k, v in dense.hist.items())
    True
    """
    sums, packed = result
    for name, (size, where, values) in packed.items():
        hist = np.zeros(size, dtype=np.float64)
        hist[where] = values
        sums.hist[name] = hist
    return sums


def worker_identity() -> dict[str, str]:
    """What a worker runs (called on each worker): :func:`code_identity`."""
    return code_identity()


def held_tables() -> list[int]:
    """The bet tables this process holds in memory, as object ids (called on each worker)."""
    return [id(t) for t in bet_table.held_bet_tables()]


def check_workers(found: dict[str, Any], expected: dict[str, str]) -> None:
    """Every worker runs the package, in this very version: else a ClusterError naming one.

    ``found`` maps a worker's address to what :func:`worker_identity` gave
    there (or the exception it raised).

    >>> me = {"version": "0.1.0", "code": "abc"}
    >>> check_workers({"tcp://10.0.0.2:1": me}, me)
    >>> check_workers({}, me)
    Traceback (most recent call last):
    ...
    odds.money.counting.cluster.ClusterError: the cluster has no worker to run the study
    >>> check_workers({"tcp://10.0.0.2:1": ModuleNotFoundError("No module named 'odds'")}, me)
    Traceback (most recent call last):
    ...
    odds.money.counting.cluster.ClusterError: worker tcp://10.0.0.2:1 cannot run the study ...: install
    lucky9-odds 0.1.0 on every worker
    """
    if not found:
        raise ClusterError("the cluster has no worker to run the study")
    for address, seen in sorted(found.items()):
        if isinstance(seen, BaseException):
            raise ClusterError(
                f"worker {excerpt(address, 80)[1:-1]} cannot run the study "
                f"({type(seen).__name__}: {excerpt(str(seen), 120)[1:-1]}): install "
                f"lucky9-odds {expected['version']} on every worker")
        if seen != expected:
            other = seen if isinstance(seen, dict) else {}
            raise ClusterError(
                f"worker {excerpt(address, 80)[1:-1]} runs lucky9-odds "
                f"{_plain(other.get('version'))} (code {_plain(other.get('code'))}), "
                f"this program {expected['version']} (code {expected['code']}): every worker "
                "needs the same version, or the figures could differ")


def _plain(value: Any) -> str:
    """A short excerpt of a value a worker sent, without quotes around text."""
    shown = excerpt(value, 40)
    return shown[1:-1] if isinstance(value, str) and shown[:1] in "'\"" else shown


def _local_cluster(distributed: Any, workers: int) -> Any:
    """N worker processes here, every socket on 127.0.0.1."""
    import dask

    # Dask sets MALLOC_TRIM_THRESHOLD_ in its workers; set at all, it turns off glibc's
    # sliding mmap threshold, so each large numpy temporary is mapped and unmapped
    # again: measured 2.3 s of system time for 1.9 s of work on 256 8-pack shoes.
    environ = {k: v for k, v in dask.config.get("distributed.nanny.pre-spawn-environ").items()
               if k != "MALLOC_TRIM_THRESHOLD_"}
    # Its profiler samples the running task's stack every 10 ms, holding the GIL: off.
    with dask.config.set({"distributed.nanny.pre-spawn-environ": environ,
                          "distributed.worker.profile.enabled": False}):
        return distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address=None, silence_logs=logging.ERROR,
            # The scheduler serves HTTP even without a dashboard, by default on port
            # 8787 (taken by any other cluster): any free port of 127.0.0.1.
            scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"})


class ClusterSession:
    """A connection to a Dask cluster (and the local cluster it started, if any)."""

    def __init__(self, client: Any, local: Any) -> None:
        self.client = client
        self.local = local
        # Chunks finished out of order wait in the client (7 MB each with every
        # punto-banco bet): at most MAX_IN_FLIGHT, however many workers.
        self.slots = min(MAX_IN_FLIGHT, PER_WORKER * max(1, sum(client.nthreads().values())))

    @classmethod
    def open(cls, address: str, timeout: float = 10.0) -> ClusterSession:
        """Connect (or start a local cluster on 127.0.0.1) and check every worker."""
        check_address(address)
        check_timeout(timeout)
        distributed = _distributed()
        logging.getLogger("distributed").setLevel(logging.ERROR)
        local = None
        try:
            if address.startswith("local:"):
                local = _local_cluster(distributed, int(address[len("local:"):]))
                client = distributed.Client(local, timeout=timeout)
            else:
                client = distributed.Client(address, timeout=timeout)
        except (OSError, TimeoutError) as exc:
            if local is not None:
                local.close()
            raise ClusterError(f"cannot reach the Dask scheduler at {excerpt(address, 80)} "
                               f"within {timeout:g} s ({excerpt(str(exc), 160)[1:-1]})") from None
        try:
            check_workers(client.run(worker_identity, on_error="return"), code_identity())
            return cls(client, local)
        except BaseException:
            client.close()
            if local is not None:
                local.close()
            raise

    def runner(self, plan: StudyPlan) -> DaskRunner:
        """What runs one study's chunks here (the plan is sent to every worker once)."""
        return DaskRunner(self, plan)

    def close(self) -> None:
        """Disconnect; a local cluster is shut down."""
        self.client.close()
        if self.local is not None:
            self.local.close()


class DaskRunner:
    """One study's chunks on a cluster: ``submit`` / ``wait`` / ``result`` / ``close``."""

    def __init__(self, session: ClusterSession, plan: StudyPlan) -> None:
        self.client = session.client
        self.slots = session.slots
        self.plan = self.client.scatter(plan, broadcast=True)
        self.sent: list[Any] = []
        self._wait = _distributed().wait

    def submit(self, a: int, b: int) -> Any:
        future = self.client.submit(evaluate_packed, self.plan, a, b, pure=False)
        self.sent.append(future)
        return future

    def wait(self, pending: list[Any], timeout: float) -> set[Any]:
        try:
            finished, _ = self._wait(pending, timeout=timeout, return_when="FIRST_COMPLETED")
        except TimeoutError:
            return set()
        return set(finished)

    def result(self, handle: Any) -> ChunkSums:
        try:
            out = unpack(handle.result())
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as exc:
            raise ClusterError(f"a chunk failed on the cluster ({type(exc).__name__}: "
                               f"{excerpt(str(exc), 160)[1:-1]}); the chunks done are kept "
                               "with --save") from None
        return out

    def close(self, cancel: bool) -> None:
        """Forget the study's chunks on the cluster (cancelled, with ``cancel``) and its plan."""
        if cancel:
            self.client.cancel([f for f in self.sent if not f.done()], force=True)
        self.sent.clear()
        self.plan.release()
