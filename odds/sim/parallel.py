"""A round log verified in parts, in several processes or on a Dask cluster, its
tallies merged exactly (``lucky9 verify --jobs N``, ``--cluster ADDRESS``).

The log is cut into *parts* at places where one process, reading it whole,
ends a block (:func:`odds.sim.log_judge.held_back`): at the start of a shoe
when the log has a shoe column (so no part needs the cards dealt in the one
before), at the start of a round otherwise.  Each part is read as a stream,
block by block, where the whole file's blocks fall, so each part is judged
block for block as one process judges it; then the parts' judges are merged
in file order: counts added, tallies added (whole numbers), the first
violations kept, and the per-round models of continuous shoes (floats) added
block by block in the one process's order.  The report and its JSON are
therefore byte for byte those of one process.

Where the parts cannot be judged apart (a part's error, rounds out of order
across parts, seats that grow from part to part in a log that states none),
the log is judged again in one process, so the answer is still that one.

A stop (Ctrl-C, SIGTERM, raised by ``progress``) ends every worker process at
once; with ``partial_on_stop``, the parts done are reported, marked partial.
"""

from __future__ import annotations

import contextlib
import hashlib
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields, replace
from importlib import metadata
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

import numpy as np

from odds.io.textio import read_line_blocks
from odds.sim.audit import EXAMPLES
from odds.sim.log_judge import LogJudge, Opening, held_back, judge_blocks, log_judge, open_log
from odds.sim.stats import RoundModel
from odds.sim.tallies import RunHeader, TallyError
from odds.sim.verdict import BLOCK, MAX_SEATS, RuleOverrides, StrategyFn, Verification

__all__ = ["MAX_JOBS", "DaskWorkers", "Part", "PartJudge", "ProcessWorkers", "Progress",
           "Unsplittable", "count_lines", "find_cuts", "judge_part", "merge_judges",
           "verify_parts", "worker_identity"]

MAX_JOBS = 64
MIN_PART = BLOCK  # bytes of a part at least (a part is whole blocks)
PER_SLOT = 8  # parts per worker at least: the last ones end close together
MAX_PART = 64 * BLOCK  # and at most: a stop loses at most this much work a worker
WINDOW = (16 << 10, 256 << 10)  # bytes read before a block's end to find where it is cut

Progress = Callable[[int, int, int], None]  # (bytes done, bytes in all, rows done)


class Unsplittable(Exception):
    """The parts cannot be judged apart: the log is judged in one process.  Never
    reaches a user."""


@dataclass(frozen=True)
class Part:
    """Bytes ``start`` to ``stop`` of the log, whose first line is line ``number``."""

    start: int
    stop: int
    number: int = 0


@dataclass
class PartJudge(LogJudge):
    """A judge of one part: keeps each block's per-round models apart (the merge adds
    them in the whole log's order), and what the merge checks across parts."""

    blocks: list[dict[int, RoundModel]] = field(default_factory=list)
    # Each block's sums of the ranks-by-position test (floats: the merge adds them in
    # the whole log's order, as one process does).
    position_blocks: list[tuple[Any, Any, Any]] = field(default_factory=list)
    first_key: int | None = None  # the part's first round key
    first_seats: int | None = None  # the seats its first block was judged with

    def feed(self, log: Any) -> None:
        if self.first_key is None:
            self.first_key = int(log.key().min())
        self.models = {}
        self.positions = None
        super().feed(log)
        if self.positions is not None:
            self.position_blocks.append(self.positions)
            self.positions = None
        if self.first_seats is None:
            self.first_seats = self.header.seats
        if self.models:
            self.blocks.append(self.models)
        self.models = {}


def worker_identity() -> dict[str, str]:
    """The package's version and a digest of the code that judges a log (called on
    each worker of a cluster: every worker must give what this process gives)."""
    try:
        version = metadata.version("lucky9-odds")
    except metadata.PackageNotFoundError:  # run from a source tree, not installed
        version = "unknown"
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parent.parent
    for package in ("io", "rules", "exact", "sim"):
        for path in sorted((root / package).glob("*.py")):
            digest.update(path.read_bytes())
    return {"version": version, "code": digest.hexdigest()[:16]}


# -- where the log is cut --------------------------------------------------------


def _opening(path: str, kind: str, source: str,
             rules: Any) -> tuple[Opening, int]:
    """The log's opening, and the number of blocks it took."""
    taken = [0]

    def counted() -> Iterator[tuple[int, list[str]]]:
        for item in read_line_blocks(path, "file", TallyError, source, BLOCK):
            taken[0] += 1
            yield item

    blocks = counted()
    opening = open_log(blocks, kind, source, rules)
    if hasattr(blocks, "close"):
        blocks.close()
    return opening, taken[0]


def _block_end(handle: Any, grid: int, size: int) -> int:
    """Where the whole file's block ending before byte ``grid`` ends: after the last
    end of line before it (0 if none in the block before)."""
    if grid >= size:
        return size
    low = max(0, grid - BLOCK)
    handle.seek(low)
    data = handle.read(grid - low)
    at = data.rfind(b"\n")
    return low + at + 1 if at >= 0 else -1


def _cut_in(handle: Any, begin: int, end: int, opening: Opening, window: int) -> int | None:
    """Where one process cuts the block of bytes ``begin`` to ``end``, if that is decided
    by its rows alone (its last shoe, or round, starts after its first row); else None.

    One process cuts there whatever rows it held back before ``begin``: the rows
    from the cut on are one shoe (or round), and the row before it is another's.
    """
    low = max(begin, end - window)
    handle.seek(low)
    data = handle.read(end - low)
    first = data.find(b"\n") + 1 if low > begin else 0  # the window's first whole line
    if first <= 0 and low > begin:
        return None
    body = data[first:]
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    lines = text.split("\n")[:-1]
    if len(text.splitlines()) != len(lines) or not all(ln.strip() for ln in lines):
        return None  # other line breaks, or blank lines: not decided here
    try:
        log = opening.parse(lines, 1)
    except (ValueError, IndexError):
        return None
    if len(log.line) != len(lines):
        return None
    cut = held_back(log)
    key = log.key()
    other = np.flatnonzero(key != key[-1])
    if cut <= 0 or not other.size or len(key) - int(other[-1]) - 1 > MAX_SEATS:
        return None
    offsets = np.cumsum([0] + [len(ln.encode("utf-8")) + 1 for ln in lines])
    return low + first + int(offsets[int(log.line[cut]) - 1])


def find_cuts(path: str, kind: str, source: str, rules: Any, parts: int) -> list[int]:
    """Byte offsets where the log's parts start after the first, about evenly spaced."""
    size = os.path.getsize(path)
    opening, taken = _opening(path, kind, source, rules)
    cuts: list[int] = []
    with open(path, "rb") as handle:
        for i in range(1, parts):
            want = size * i // parts
            j = max(want // BLOCK, taken)  # the grid point G_j = (j + 1) * BLOCK
            while (j + 1) * BLOCK < size and (not cuts or j * BLOCK > cuts[-1]):
                end = _block_end(handle, (j + 1) * BLOCK, size)
                begin = _block_end(handle, j * BLOCK, size)
                found = None
                if 0 <= begin < end < size:
                    for window in WINDOW:
                        found = _cut_in(handle, begin, end, opening, window)
                        if found is not None:
                            break
                if found is not None and found > max(cuts, default=0) + MIN_PART // 2:
                    cuts.append(found)
                    break
                j += 1
                if (j + 1) * BLOCK >= size * (i + 1) // parts:
                    break  # none near enough: one part fewer
    return cuts


def count_lines(path: str, start: int, stop: int) -> int:
    """The lines between two line starts, as :meth:`str.splitlines` counts them."""
    breaks = (b"\r", b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e", b"\xc2\x85",
              b"\xe2\x80\xa8", b"\xe2\x80\xa9")
    lines = 0
    with open(path, "rb") as handle:
        handle.seek(start)
        left = stop - start
        while left > 0:
            data = handle.read(min(left, 8 << 20))
            if not data:
                break
            left -= len(data)
            if any(b in data for b in breaks):
                # Other line breaks count as splitlines counts them (a read may cut
                # "\r\n" in two: counted from the whole part, it never is here).
                handle.seek(start)
                text = handle.read(stop - start).decode("utf-8", "surrogateescape")
                return len(text.splitlines())
            lines += data.count(b"\n")
    return lines


# -- one part ---------------------------------------------------------------------


def judge_part(path: str, kind: str, source: str, rules: Any, seats: int | None,
               part: Part) -> PartJudge:
    """Judge the rows of one part of the log (in a worker process)."""
    if part.start == 0:
        blocks = read_line_blocks(path, "file", TallyError, source, BLOCK, stop=part.stop)
        opening = open_log(blocks, kind, source, rules)
    else:
        opening, _ = _opening(path, kind, source, rules)
        blocks = read_line_blocks(path, "file", TallyError, source, BLOCK, start=part.start,
                                  stop=part.stop, number=part.number)
        number, lines = next(blocks, (part.number, []))
        more = next(blocks, None)  # one process holds the first block's rows back
        opening = Opening(opening.data, opening.parse, number,
                          list(lines) + (more[1] if more else []), None)
    judge, _, _ = log_judge(opening, source, rules, seats, streaming=True)
    part_judge = PartJudge(**{f.name: getattr(judge, f.name) for f in fields(LogJudge)})
    judge_blocks(part_judge, opening, blocks)
    part_judge.ref = None  # rebuilt where it is needed: not sent back
    return part_judge


# -- the merge --------------------------------------------------------------------


def _add_counts(a: dict[Any, int], b: dict[Any, int]) -> dict[Any, int]:
    out = dict(a)
    for key, count in b.items():
        out[key] = out.get(key, 0) + count
    return out


_FIRST = {"header", "stated", "source", "shape", "ref", "streaming", "sample", "side",
          "profile_given", "first_key", "first_seats"}


def merge_judges(parts: list[PartJudge], check: bool = True) -> LogJudge:
    """The judge of the whole log from its parts' judges, in file order.

    Every whole-number counter is added (a field or a table of them, so a counter
    added to :class:`LogJudge` merges too); models are added block by block.
    With ``check``, raises :class:`Unsplittable` where one process would have
    judged the log otherwise.
    """
    models: dict[int, RoundModel] = {}
    merged: dict[str, Any] = {}
    for i, part in enumerate(parts):
        for block in part.blocks:
            for seat, model in block.items():
                models[seat] = models[seat].plus(model) if seat in models else model
        if i == 0:
            merged = {f.name: getattr(part, f.name) for f in fields(LogJudge)}
            continue
        if check:
            _check_next(merged, part)
        for f in fields(LogJudge):
            name, mine, theirs = f.name, merged[f.name], getattr(part, f.name)
            if name in _FIRST or name == "models":
                if name == "sample" and mine is None:
                    merged[name] = theirs
                continue
            if name == "violations":
                merged[name] = sorted(mine + theirs, key=lambda v: (v.line, v.rule))[:EXAMPLES]
            elif name == "tallies":
                merged[name] = {**mine, **{s: mine[s].plus(t) if s in mine else t
                                           for s, t in theirs.items()}}
            elif name == "ignored":
                merged[name] = mine + tuple(c for c in theirs if c not in mine)
            elif name == "packs_needed":
                merged[name] = max(x for x in (mine, theirs) if x is not None) if (
                    mine is not None or theirs is not None) else None
            elif name == "shared_shoe":
                merged[name] = mine if mine is not None else theirs
            elif name == "last_round":
                merged[name] = theirs if theirs is not None else mine
            elif name == "dealt":
                mine.spoiled.update(theirs.spoiled)
                mine.closed |= theirs.closed | set(mine.open)
                mine.open = theirs.open
            elif isinstance(mine, bool):
                merged[name] = mine or theirs
            elif isinstance(mine, int):
                merged[name] = mine + theirs
            elif isinstance(mine, dict) and all(isinstance(v, int) for v in
                                                (*mine.values(), *theirs.values())):
                merged[name] = _add_counts(mine, theirs)
            elif isinstance(mine, dict):
                merged[name] = {**mine, **theirs}
        if not part.stated and part.header.seats > merged["header"].seats:
            merged["header"] = part.header
    merged["models"] = models
    positions = None
    for part in parts:
        for sums in part.position_blocks:
            positions = sums if positions is None else tuple(
                a + b for a, b in zip(positions, sums, strict=True))
    merged["positions"] = positions
    return LogJudge(**merged)


def _check_next(merged: dict[str, Any], part: PartJudge) -> None:
    """The next part follows as one process reading on would find it, or Unsplittable."""
    if part.shape != merged["shape"] or part.side != merged["side"]:
        raise Unsplittable("the columns change")
    last = merged["last_round"]
    if last is not None and part.first_key is not None and part.first_key <= last:
        raise Unsplittable("a round comes back")
    if not part.stated and part.first_seats is not None \
            and merged["header"].seats > part.first_seats:
        raise Unsplittable("seats grow across parts")


# -- running the parts --------------------------------------------------------------


def _serve(conn: Connection) -> None:
    """A worker process: judge each part sent, send back the judge (or the error).

    SIGTERM ends it (the parent's handler, inherited, would only note it); Ctrl-C at
    a terminal reaches every process of the group: the parent decides.
    """
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        if task is None:
            return
        kind, args = task
        try:
            out: Any = (count_lines if kind == "count" else judge_part)(*args)
        except Exception as exc:  # judged again in one process, which reports it
            out = Unsplittable(f"{type(exc).__name__}: {exc}")
        conn.send(out)


class ProcessWorkers:
    """``jobs`` worker processes, each fed one task at a time through its own pipe.

    Stopping ends them at once (``terminate``): nothing is read from a pipe after
    that, so a process ended while it sends cannot leave a reader waiting.
    """

    def __init__(self, jobs: int) -> None:
        methods = multiprocessing.get_all_start_methods()
        ctx: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self.procs: list[Any] = []
        self.conns: list[Connection] = []
        for _ in range(jobs):
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(target=_serve, args=(theirs,), daemon=True)
            proc.start()
            theirs.close()
            self.procs.append(proc)
            self.conns.append(mine)

    def run(self, tasks: list[tuple[str, tuple[Any, ...]]], done: Callable[[int, Any], None],
            tick: Callable[[], None]) -> None:
        """Run every task; ``done(i, result)`` as each ends, ``tick()`` twice a second."""
        queue = list(enumerate(tasks))[::-1]
        busy: dict[Connection, int] = {}
        for conn in self.conns:
            if queue:
                i, task = queue.pop()
                conn.send(task)
                busy[conn] = i
        while busy:
            ready: list[Any] = wait(list(busy), timeout=0.5)
            for conn in ready:
                try:
                    result = conn.recv()
                except EOFError:
                    raise Unsplittable("a worker process ended") from None
                done(busy.pop(conn), result)
                if queue:
                    i, task = queue.pop()
                    conn.send(task)
                    busy[conn] = i
            tick()

    def close(self) -> None:
        for proc in self.procs:
            if proc.is_alive():
                proc.terminate()
        for proc in self.procs:
            proc.join(5)
            if proc.is_alive():
                proc.kill()
                proc.join(5)
        for conn in self.conns:
            conn.close()


class DaskWorkers:
    """The tasks on a Dask cluster (an open :class:`odds.io.dask_cluster.DaskSession`)."""

    def __init__(self, session: Any) -> None:
        self.client = session.client
        self.futures: list[Any] = []

    def run(self, tasks: list[tuple[str, tuple[Any, ...]]], done: Callable[[int, Any], None],
            tick: Callable[[], None]) -> None:
        from odds.io.dask_cluster import distributed_module

        dwait = distributed_module().wait
        pending = {}
        for i, (kind, args) in enumerate(tasks):
            future = self.client.submit(count_lines if kind == "count" else judge_part, *args,
                                        pure=False)
            pending[future] = i
            self.futures.append(future)
        while pending:
            try:
                finished, _ = dwait(list(pending), timeout=0.5, return_when="FIRST_COMPLETED")
            except TimeoutError:
                finished = set()
            for future in finished:
                i = pending.pop(future)
                try:
                    result = future.result()
                except (KeyboardInterrupt, SystemExit):
                    raise
                except Exception as exc:
                    result = Unsplittable(f"{type(exc).__name__}: {exc}")
                done(i, result)
            tick()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.cancel([f for f in self.futures if not f.done()], force=True)
        self.futures.clear()


@dataclass
class PartsRun:
    """What a parallel run found: the merged judge, and for a stopped run how far it got."""

    judge: LogJudge
    rows: int
    parts_done: int
    parts: int
    bytes_done: int
    size: int
    stopped: bool = False


def verify_parts(path: str, kind: str, source: str, rules: RunHeader | RuleOverrides | None,
                 alpha: float, seats: int | None, strategies: StrategyFn | None,
                 workers: ProcessWorkers | DaskWorkers, slots: int,
                 progress: Progress | None = None,
                 partial_on_stop: bool = False) -> Verification:
    """Verify a round log in parts on ``workers`` (``slots`` of them), or raise
    :class:`Unsplittable` for the caller to judge it in one process."""
    size = os.path.getsize(path)
    want = max(1, min(max(PER_SLOT * slots, -(-size // MAX_PART)), size // MIN_PART))
    cuts = find_cuts(path, kind, source, rules, want) if want > 1 else []
    bounds = [0, *cuts, size]
    spans = list(zip(bounds, bounds[1:], strict=False))
    lines: dict[int, int] = {}
    tick = (lambda: progress(0, size, 0)) if progress else (lambda: None)

    def counted(i: int, result: Any) -> None:
        if isinstance(result, BaseException):
            raise Unsplittable(str(result))
        lines[i] = result

    workers.run([("count", (path, a, b)) for a, b in spans], counted, tick)
    numbers = [1 + sum(lines[k] for k in range(i)) for i in range(len(spans))]
    parts = [Part(a, b, n) for (a, b), n in zip(spans, numbers, strict=True)]
    judges: dict[int, PartJudge] = {}
    state = {"bytes": 0, "rows": 0}

    def judged(i: int, result: Any) -> None:
        if isinstance(result, BaseException):
            raise Unsplittable(str(result))
        judges[i] = result
        state["bytes"] += parts[i].stop - parts[i].start
        state["rows"] += result.rows
        if progress:
            progress(state["bytes"], size, state["rows"])

    def tick_rows() -> None:
        if progress:
            progress(state["bytes"], size, state["rows"])

    tasks = [("judge", (path, kind, source, rules, seats, p)) for p in parts]
    stopped = False
    try:
        workers.run(tasks, judged, tick_rows)
    except (KeyboardInterrupt, SystemExit):
        workers.close()  # at once: the partial report is made without them
        if not (partial_on_stop and judges):
            raise
        stopped = True
    done = [judges[i] for i in sorted(judges)]
    judge = merge_judges(done, check=not stopped)
    _, sources, header_from = log_judge(_opening(path, kind, source, rules)[0], source, rules,
                                        seats, True)
    result = judge.verdict(alpha, strategies, header_from, sources)
    if stopped:
        note = (f"PARTIAL: stopped after {judge.rows:,} rows, {len(done)} of {len(parts)} "
                f"parts of the log ({state['bytes'] / size:.0%} of its bytes); every "
                "figure below is of those rows")
        result = replace(result, notes=(note, *result.notes))
    return result


