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

Connecting, probing the address and closing are bounded in time and stop at
Ctrl-C or SIGTERM (:mod:`odds.io.dask_cluster`, shared with ``verify --cluster``).

Dask is optional (``pip install 'lucky9-odds[cluster]'``); this module
imports it only when a cluster is asked for.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from odds.exact import bet_table
from odds.io.dask_cluster import (
    MAX_TIMEOUT,
    ClusterError,
    DaskSession,
    check_address,
    check_timeout,
    distributed_module,
)
from odds.io.dask_cluster import check_workers as check_every_worker
from odds.io.textio import excerpt
from odds.money.counting.folder import code_identity
from odds.money.counting.kernel import ChunkSums, evaluate_chunk
from odds.money.counting.plan import StudyPlan

__all__ = ["MAX_TIMEOUT", "ClusterError", "ClusterSession", "DaskRunner", "check_address",
           "check_timeout", "check_workers"]

PER_WORKER = 2  # chunks in flight per worker thread: one running, one waiting
MAX_IN_FLIGHT = 128


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


def check_workers(found: dict[str, Any], expected: dict[str, str]) -> None:
    """Every worker runs this very code (:func:`odds.io.dask_cluster.check_workers`).

    >>> check_workers({}, {"version": "0.1.0", "code": "abc"})
    Traceback (most recent call last):
    ...
    odds.io.dask_cluster.ClusterError: the cluster has no worker to run the study
    """
    check_every_worker(found, expected, "the study")


def worker_identity() -> dict[str, str]:
    """What a worker runs (called on each worker): :func:`code_identity`."""
    return code_identity()


def held_tables() -> list[int]:
    """The bet tables this process holds in memory, as object ids (called on each worker)."""
    return [id(t) for t in bet_table.held_bet_tables()]


class ClusterSession(DaskSession):
    """A connection to a Dask cluster (and the local cluster it started, if any), bounded
    in time and stoppable at every step (:class:`odds.io.dask_cluster.DaskSession`)."""

    def __init__(self, client: Any, local: Any, pids: set[int],
                 tracker: int | None = None) -> None:
        super().__init__(client, local, pids, tracker)
        # Chunks finished out of order wait in the client (7 MB each with every
        # punto-banco bet): at most MAX_IN_FLIGHT, however many workers.
        self.slots = min(MAX_IN_FLIGHT, PER_WORKER * max(1, sum(client.nthreads().values())))

    @classmethod
    def open(cls, address: str, timeout: float = 10.0) -> ClusterSession:
        """Connect (or start a local cluster on 127.0.0.1) and check every worker."""
        session = cls.connect(address, timeout, worker_identity, "the study")
        assert isinstance(session, ClusterSession)
        session.address = address
        return session

    def runner(self, plan: StudyPlan) -> DaskRunner:
        """What runs one study's chunks here (the plan is sent to every worker once)."""
        return DaskRunner(self, plan)


class DaskRunner:
    """One study's chunks on a cluster: ``submit`` / ``wait`` / ``result`` / ``close``."""

    def __init__(self, session: ClusterSession, plan: StudyPlan) -> None:
        self.client = session.client
        self.slots = session.slots
        self.plan = self.client.scatter(plan, broadcast=True)
        self.sent: list[Any] = []
        self._wait = distributed_module().wait

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
