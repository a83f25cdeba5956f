"""The shoe study run: its chunks on a runner, folded in shoe order (:func:`count_study`).

A study's shoes are cut into chunks of :data:`SHOES_PER_BATCH` shoes, each a
pure function of the plan and two shoe numbers
(:func:`odds.money.counting.kernel.evaluate_chunk`).  A runner runs them: here,
one at a time (``_Serial``), in a process pool (``_Pool``, ``jobs``), or on a
Dask cluster (:mod:`odds.money.counting.cluster`); every runner has the same
four calls, ``submit`` / ``wait`` / ``result`` / ``close``.  The chunks' sums
are folded in shoe order as they come (``_Fold``), so the figures never depend
on where the chunks ran; with a save folder (:mod:`odds.money.counting.folder`)
each finished chunk, and the fold now and then, is written to disk, so a
stopped study resumes where it stopped.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from odds.money.counting.cluster import ClusterSession, check_address, check_timeout
from odds.money.counting.folder import StudyFolder, study_settings
from odds.money.counting.kernel import SHOES_PER_BATCH, ChunkSums, evaluate_chunk
from odds.money.counting.plan import MAX_JOBS, MAX_SHOES, CountSystem, StudyPlan, study_plan
from odds.money.counting.summary import Bankroll, CountStudy, summarise
from odds.rules.bet_types import Bet
from odds.rules.profile import Profile
from odds.rules.profiles import as_profile

__all__ = ["CHECKPOINT_CHUNKS", "CHECKPOINT_SECONDS", "count_study"]

CHECKPOINT_CHUNKS = 64  # chunks folded between two writes of the checkpoint (total.npz)
CHECKPOINT_SECONDS = 60.0


def count_study(
    profile: Profile | str,
    packs: int,
    shoes: int,
    penetration: float = 0.8,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    *,
    bets: Sequence[str | Bet] = ("all",),
    cut_cards: int | None = None,
    burn: int = 0,
    burn_rule: str = "none",
    count_burn: bool = True,
    rounds_after_cut: int = 0,
    system: CountSystem | None = None,
    save: str | Path | None = None,
    resume: bool = False,
    cluster: Any = None,
    cluster_timeout: float = 10.0,
    partial_on_stop: bool = False,
    bankroll: Bankroll | None = None,
) -> CountStudy:
    """Deal ``shoes`` shoes to the cut card, evaluate every round exactly, summarise.

    ``progress`` is called with the number of shoes done so far (at least
    every half second while chunks run in other processes).

    The shoes run in chunks of a fixed size, in one process (``jobs=1``), in
    ``jobs`` processes, or on a Dask cluster (``cluster``: a scheduler's
    address ``tcp://host:port``, ``local:N`` for N worker processes on this
    machine, or an open :class:`odds.money.counting.cluster.ClusterSession`); the
    chunks' sums are added in shoe order, so the figures never depend on
    where they ran.

    The shoe as dealt: ``burn`` cards burned face down, or ``burn_rule="casino"``
    (the first card shown, its value burned face down, the shown card seen
    when ``count_burn``), and ``rounds_after_cut`` rounds dealt after the one
    the cut card comes out in (:func:`odds.money.counting.plan.study_plan`).

    ``save`` names a folder that keeps every finished chunk
    (:mod:`odds.money.counting.folder`); with ``resume`` the folder's study
    (the same settings, the same version) is continued where it stopped.
    With ``partial_on_stop``, an interrupt (KeyboardInterrupt or SystemExit,
    raised by ``progress`` or a signal) ends the study early with the
    figures of the chunks done (``partial`` is then True); without it, or
    before any chunk is done, the interrupt is raised again.

    ``bankroll`` (:class:`odds.money.counting.summary.Bankroll`) sizes the
    counter's figures: risk of ruin, the win at a risk, the Kelly ramp.

    >>> from odds.rules.profiles import BUILTIN
    >>> study = count_study(BUILTIN["punto-banco"], 1, 20, 0.75, seed=1,
    ...                     bets=["player", "banker", "tie"])
    >>> [b.bet for b in study.bets], study.shoes
    (['player', 'banker', 'tie'], 20)
    """
    profile = as_profile(profile)
    if isinstance(shoes, bool) or not isinstance(shoes, int) or not 1 <= shoes <= MAX_SHOES:
        raise ValueError(f"the study deals 1 to {MAX_SHOES:,} shoes, not {shoes!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= MAX_JOBS:
        raise ValueError(f"jobs is a whole number from 1 to {MAX_JOBS}, not {jobs!r}")
    if cluster is not None and jobs != 1:
        raise ValueError("give jobs or a cluster, not both (the cluster's workers are the jobs)")
    if resume and save is None:
        raise ValueError("resume needs the folder of the study to resume (save)")
    if isinstance(cluster, str):
        check_address(cluster)
        check_timeout(cluster_timeout)
    plan, (eor, exact_effects) = study_plan(profile, packs, bets=bets, penetration=penetration,
                                            cut_cards=cut_cards, burn=burn, seed=seed,
                                            system=system, burn_rule=burn_rule,
                                            count_burn=count_burn,
                                            rounds_after_cut=rounds_after_cut)
    plan.bets.table()  # build once here: fail early, and a pool's workers fork with it
    shown_penetration = penetration if cut_cards is None else None
    # Chunks of a fixed size, added in shoe order: the figures do not depend on ``jobs``.
    chunk = SHOES_PER_BATCH
    ranges = [(a, min(shoes, a + chunk)) for a in range(0, shoes, chunk)]
    folder = None
    if save is not None:
        settings = study_settings(plan, shoes, shown_penetration, cut_cards, chunk)
        folder = (StudyFolder.resume if resume else StudyFolder.create)(save, settings)
    fold = _Fold(ranges, folder, chunk)
    waiting = set(fold.order)
    todo = [(a, b) for a, b in ranges if a in waiting and a not in fold.on_disk]
    stopped = False
    where = None
    try:
        if progress:
            progress(fold.shoes_kept(ranges))
        if todo:
            runner = _runner(plan, jobs, cluster, cluster_timeout, len(todo))
            where = _where(cluster, runner)
            _run(todo, runner, fold, progress, fold.shoes_kept(ranges))
        fold.flush()
        total = fold.total
    except BaseException as exc:
        fold.checkpoint()  # every finished chunk is kept, whatever stopped the study
        if not (partial_on_stop and isinstance(exc, (KeyboardInterrupt, SystemExit))):
            raise
        total = fold.partial()
        if not total.rounds[0]:
            raise
        stopped = True
    fold.checkpoint()
    return summarise(plan, shoes, shown_penetration, cut_cards, eor, exact_effects, total,
                     stopped, bankroll, where)


def _where(cluster: Any, runner: Any) -> dict[str, Any] | None:
    """Where a study's chunks ran on a cluster: the address asked for, the scheduler's,
    its workers and threads (None off a cluster)."""
    if cluster is None:
        return None
    session = runner.session if isinstance(runner, _Owned) else cluster
    address = cluster if isinstance(cluster, str) else getattr(session, "address", None)
    out: dict[str, Any] = {"address": address,
                           "scheduler": None, "workers": None, "threads": None}
    try:
        client = session.client
        threads = client.nthreads()
        out.update(scheduler=str(client.scheduler.address), workers=len(threads),
                   threads=int(sum(threads.values())))
    except (AttributeError, TypeError, ValueError, OSError):  # an older or a fake client
        pass
    return out



class _Fold:
    """Chunk sums added in shoe order, the figures' one order, as they come.

    Chunks that finish early wait in ``ready`` (at most the runner's window);
    with a save folder, each chunk is written the moment it finishes, and the
    fold itself every :data:`CHECKPOINT_CHUNKS` chunks or
    :data:`CHECKPOINT_SECONDS` (and when the study ends or stops).
    """

    def __init__(self, ranges: list[tuple[int, int]], folder: Any, chunk: int) -> None:
        self.folder = folder
        self.total = ChunkSums()
        self.end = ranges[-1][1]
        # A last chunk short of a whole one is never in the checkpoint (its file is kept
        # beside it): a study grown later deals that chunk whole, as a straight run does.
        self.short = ranges[-1][0] if ranges[-1][1] - ranges[-1][0] < chunk else None
        self.sealed = False
        start = 0
        self.on_disk: set[int] = set()
        if folder is not None:
            kept = folder.load_total()
            if kept is not None:
                self.total = kept
                start = folder.next
            self.on_disk = set(folder.saved())
        self.order = deque(a for a, _ in ranges if a >= start)
        self.ready: dict[int, ChunkSums] = {}
        self.since = 0
        self.last = time.monotonic()

    def shoes_kept(self, ranges: list[tuple[int, int]]) -> int:
        """Shoes already done: folded, waiting in order, or saved beyond the checkpoint."""
        head = self.order[0] if self.order else None
        return sum(b - a for a, b in ranges
                   if head is None or a < head or a in self.ready or a in self.on_disk)

    def put(self, first: int, sums: ChunkSums) -> None:
        if self.folder is not None:
            self.folder.write_chunk(first, sums)
        self.ready[first] = sums
        self.flush()

    def _take(self, first: int) -> ChunkSums | None:
        if first in self.ready:
            return self.ready.pop(first)
        if first in self.on_disk:
            self.on_disk.discard(first)
            sums: ChunkSums = self.folder.load_chunk(first)
            return sums
        return None

    def flush(self) -> None:
        while self.order:
            sums = self._take(self.order[0])
            if sums is None:
                break
            if self.order[0] == self.short and self.folder is not None:
                self.checkpoint(force=True)  # the fold up to the short chunk, never beyond
                self.sealed = True
            self.total.add(sums)
            self.order.popleft()
            self.since += 1
        if self.folder is not None and self.since and (
                self.since >= CHECKPOINT_CHUNKS or not self.order
                or time.monotonic() - self.last >= CHECKPOINT_SECONDS):
            self.checkpoint()

    def checkpoint(self, force: bool = False) -> None:
        """Write the fold so far (a no-op without a folder, with nothing new, or once the
        short last chunk is folded)."""
        if self.folder is None or self.sealed or (
                not force and not self.since and self.folder.total_written):
            return
        self.folder.write_total(self.total, self.order[0] if self.order else self.end)
        self.since = 0
        self.last = time.monotonic()

    def partial(self) -> ChunkSums:
        """The fold so far plus every chunk finished beyond it, in shoe order."""
        out = self.total.copy()
        for first in sorted(set(self.ready) | self.on_disk):
            if self.order and first >= self.order[0]:
                sums = self.ready.get(first)
                out.add(sums if sums is not None else self.folder.load_chunk(first))
        return out


class _Serial:
    """Chunks run here, one at a time."""

    slots = 1

    def __init__(self, plan: StudyPlan) -> None:
        self.plan = plan

    def submit(self, a: int, b: int) -> Future[ChunkSums]:
        done: Future[ChunkSums] = Future()
        done.set_result(evaluate_chunk(self.plan, a, b))
        return done

    def wait(self, pending: list[Any], timeout: float) -> set[Any]:
        return set(pending)

    def result(self, handle: Any) -> ChunkSums:
        out: ChunkSums = handle.result()
        return out

    def close(self, cancel: bool) -> None:
        pass


class _Pool(_Serial):
    """Chunks in ``jobs`` processes, a few in flight at a time (so that Ctrl-C stops the
    study at once: waiting chunks are cancelled, not run)."""

    def __init__(self, plan: StudyPlan, jobs: int, chunks: int) -> None:
        super().__init__(plan)
        self.slots = 2 * jobs
        self.pool = ProcessPoolExecutor(max_workers=min(jobs, chunks))

    def submit(self, a: int, b: int) -> Future[ChunkSums]:
        return self.pool.submit(evaluate_chunk, self.plan, a, b)

    def wait(self, pending: list[Any], timeout: float) -> set[Any]:
        finished, _ = wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)
        return finished

    def close(self, cancel: bool) -> None:
        if not cancel:
            self.pool.shutdown(wait=True)
            return
        # Waiting chunks are cancelled; the running ones (one a process, a second or
        # so) end before the processes exit.  Ending a process mid-chunk instead left,
        # when it was writing its result, half a message in the result pipe: the
        # pool's manager thread waited for the rest, and the interpreter for that
        # thread at exit (measured: 2 exits in 3 hung).
        self.pool.shutdown(wait=True, cancel_futures=True)


def _runner(plan: StudyPlan, jobs: int, cluster: Any, timeout: float,
            chunks: int) -> Any:
    if isinstance(cluster, str):
        return _Owned(ClusterSession.open(cluster, timeout), plan)
    if cluster is not None:
        return cluster.runner(plan)
    if jobs == 1:
        return _Serial(plan)
    return _Pool(plan, jobs, chunks)


class _Owned:
    """A cluster session opened for one study: closed with the study's runner."""

    def __init__(self, session: Any, plan: StudyPlan) -> None:
        self.session = session
        try:
            self.runner = session.runner(plan)
        except BaseException:
            session.close()
            raise
        self.slots = self.runner.slots

    def submit(self, a: int, b: int) -> Any:
        return self.runner.submit(a, b)

    def wait(self, pending: list[Any], timeout: float) -> set[Any]:
        out: set[Any] = self.runner.wait(pending, timeout)
        return out

    def result(self, handle: Any) -> ChunkSums:
        out: ChunkSums = self.runner.result(handle)
        return out

    def close(self, cancel: bool) -> None:
        try:
            self.runner.close(cancel)
        finally:
            self.session.close()



def _run(todo: list[tuple[int, int]], runner: Any, fold: _Fold,
         progress: Callable[[int], None] | None, done: int) -> None:
    """Run the chunks ``todo`` on ``runner`` and fold them in; ``progress`` as they finish."""
    pending: dict[Any, tuple[int, int]] = {}
    queue = deque(todo)
    try:
        while queue or pending:
            while queue and len(pending) + len(fold.ready) < runner.slots:
                a, b = queue.popleft()
                pending[runner.submit(a, b)] = (a, b)
            for handle in runner.wait(list(pending), 0.5):
                a, b = pending.pop(handle)
                fold.put(a, runner.result(handle))
                done += b - a
            if progress:
                progress(done)  # also lets the caller notice a signal while chunks run
    except BaseException:
        runner.close(cancel=True)
        raise
    runner.close(cancel=False)

