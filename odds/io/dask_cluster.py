"""A connection to a Dask cluster, bounded in time and stoppable (``--cluster ADDRESS``).

Shared by the commands that spread their work over a cluster (``lucky9
count --cluster``, ``lucky9 verify --cluster``); what runs there is theirs.
``ADDRESS`` is a scheduler's address (``tcp://host:8786``, ``tls://...``) or
``local:N``, a ``LocalCluster`` of N worker processes bound to 127.0.0.1.

Every blocking step is bounded and can be stopped:

* before Dask connects, a ``tcp://`` address is *probed*: a Dask scheduler
  sends its handshake first, a length-prefixed frame, the moment it accepts a
  connection.  A port that accepts and says nothing (an HTTP server waits for
  a request) is "cannot reach ... within N s"; one that sends something else
  (``HTTP/1.1 400 Bad Request``, which Dask would read as a frame of 3 EiB)
  is "not a Dask scheduler";
* connecting, starting a local cluster and asking every worker what it runs
  happen under a deadline (``SIGALRM``) with Ctrl-C and SIGTERM raising at
  once (no process pool's lock is held there);
* closing is bounded too, and a local cluster's processes are waited for and,
  if one is still there, ended: no process outlives the command.

Dask is optional (``pip install 'lucky9-odds[cluster]'``); it is imported
only when a cluster is asked for.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from odds.io.textio import excerpt

__all__ = ["MAX_TIMEOUT", "MAX_WORKERS", "ClusterError", "DaskSession", "check_address",
           "check_timeout", "check_workers", "distributed_module", "probe"]

MAX_TIMEOUT = 600.0  # seconds to wait for a scheduler at most
MAX_WORKERS = 64  # worker processes of a local cluster
LOCAL_START = 120.0  # seconds a local cluster may take to start (a loaded machine)
CLOSE_WAIT = 10.0  # seconds to wait for the cluster to close before its processes are ended
INSTALL = "pip install 'lucky9-odds[cluster]' (or: pip install 'dask[distributed]')"
# A Dask handshake frame: 8 bytes of total length, then 8 bytes of the number of frames.
MAX_HANDSHAKE = 1 << 20


class ClusterError(ValueError):
    """The cluster cannot run the job (unreachable, not Dask, workers missing or unlike): exit 2."""


def _split(address: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of ``tcp://host:port`` (or ``tls://``), else None."""
    scheme, sep, rest = address.partition("://")
    if not sep or scheme not in ("tcp", "tls"):
        return None
    host, colon, port = rest.rpartition(":")
    if not colon or not port.isdigit() or len(port) > 5 or not 1 <= len(host) <= 255:
        return None
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not host or any(not (c.isalnum() or c in ".-_:") for c in host):
        return None
    return scheme, host, int(port)


def check_address(address: str) -> None:
    """Refuse an address that is neither ``tcp://host:port`` (port 1 to 65535) nor ``local:N``.

    >>> check_address("local:2"); check_address("tcp://127.0.0.1:8786")
    >>> check_address("local:0")
    Traceback (most recent call last):
    ...
    odds.io.dask_cluster.ClusterError: --cluster local:N takes 1 to 64 workers, not 'local:0'
    >>> check_address("tcp://127.0.0.1:99999")
    Traceback (most recent call last):
    ...
    odds.io.dask_cluster.ClusterError: --cluster: port 99999 is not a port (1 to 65535)
    """
    if not isinstance(address, str):
        raise ClusterError(f"--cluster takes an address, not {excerpt(address)}")
    if address.startswith("local:"):
        n = address[len("local:"):]
        if not (n.isdigit() and len(n) <= 3 and 1 <= int(n) <= MAX_WORKERS):
            raise ClusterError(f"--cluster local:N takes 1 to {MAX_WORKERS} workers, "
                               f"not {excerpt(address, 40)}")
        return
    parts = _split(address)
    if parts is None:
        raise ClusterError(f"--cluster takes a scheduler's address such as "
                           f"tcp://host:8786, or local:N; not {excerpt(address, 80)}")
    if not 1 <= parts[2] <= 65535:
        raise ClusterError(f"--cluster: port {parts[2]} is not a port (1 to 65535)")


def check_timeout(seconds: float) -> None:
    """The time allowed to reach the scheduler: more than 0, at most :data:`MAX_TIMEOUT`.

    >>> check_timeout(0)
    Traceback (most recent call last):
    ...
    odds.io.dask_cluster.ClusterError: --cluster-timeout is more than 0 and at most 600 seconds, not 0
    """
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
            or not 0 < seconds <= MAX_TIMEOUT:
        raise ClusterError(f"--cluster-timeout is more than 0 and at most {MAX_TIMEOUT:g} "
                           f"seconds, not {seconds!r}")


def distributed_module() -> Any:
    """``distributed``, or a ClusterError saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise ClusterError(f"--cluster needs Dask, which is not installed: {INSTALL}") from None
    return distributed


class _TimedOut(Exception):
    """The deadline of :func:`bounded` passed."""


def _stop(signum: int, _frame: Any) -> None:
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise SystemExit(128 + signum)


def _expired(_signum: int, _frame: Any) -> None:
    raise _TimedOut


@contextlib.contextmanager
def bounded(seconds: float | None, message: str) -> Iterator[None]:
    """Run the block under a deadline (a ClusterError ``message`` when it passes), with
    Ctrl-C and SIGTERM raising at once (KeyboardInterrupt, exit 143).

    In the main thread only (signals are delivered there); elsewhere the block just runs.

    >>> with bounded(5, "slow"):
    ...     pass
    >>> with bounded(0.05, "too slow"):
    ...     time.sleep(2)
    Traceback (most recent call last):
    ...
    odds.io.dask_cluster.ClusterError: too slow
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {s: signal.signal(s, _stop) for s in (signal.SIGINT, signal.SIGTERM)}
    old_alarm = signal.signal(signal.SIGALRM, _expired)
    try:
        if seconds is not None:
            signal.setitimer(signal.ITIMER_REAL, seconds)
        yield
    except _TimedOut:
        raise ClusterError(message) from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old_alarm)
        for s, handler in old.items():
            signal.signal(s, handler)


def probe(address: str, timeout: float) -> None:
    """A ``tcp://`` address must answer as a Dask scheduler does within ``timeout`` seconds.

    A scheduler writes its handshake the moment it accepts: an 8-byte frame
    length, then the number of frames.  Nothing within the time, or anything
    else, is a ClusterError.  (``tls://`` is only connected to: TLS speaks first
    from the client.)
    """
    parts = _split(address)
    if parts is None:
        return
    scheme, host, port = parts
    shown = excerpt(address, 80)
    deadline = time.monotonic() + timeout
    try:
        conn = socket.create_connection((host, port), timeout=timeout)
    except TimeoutError:
        raise ClusterError(f"cannot reach the Dask scheduler at {shown} within "
                           f"{timeout:g} s (no answer to a connection)") from None
    except OSError as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {shown} within {timeout:g} s "
                           f"({exc.strerror or exc})") from None
    with conn:
        if scheme != "tcp":
            return
        head = b""
        try:
            while len(head) < 16:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                conn.settimeout(left)
                more = conn.recv(16 - len(head))
                if not more:
                    break
                head += more
        except TimeoutError:
            raise ClusterError(
                f"cannot reach a Dask scheduler at {shown} within {timeout:g} s: the port "
                "accepts connections but sends nothing (a Dask scheduler greets at once; "
                "is this the scheduler's address?)") from None
        except OSError as exc:
            raise ClusterError(f"cannot reach the Dask scheduler at {shown} within "
                               f"{timeout:g} s ({exc.strerror or exc})") from None
    if len(head) < 16:
        raise ClusterError(f"{shown} is not a Dask scheduler (it closed the connection "
                           f"after {len(head)} bytes)")
    total, frames = struct.unpack("<QQ", head)
    if not (16 <= total <= MAX_HANDSHAKE and 1 <= frames <= 64):
        raise ClusterError(f"{shown} is not a Dask scheduler (it answered "
                           f"{excerpt(head.decode('latin-1'), 40)}, not a Dask handshake)")


def check_workers(found: dict[str, Any], expected: dict[str, str], job: str = "the job") -> None:
    """Every worker runs the package, in this very version: else a ClusterError naming one.

    ``found`` maps a worker's address to what the identity function gave
    there (or the exception it raised).

    >>> me = {"version": "0.1.0", "code": "abc"}
    >>> check_workers({"tcp://10.0.0.2:1": me}, me)
    >>> check_workers({}, me, "the study")
    Traceback (most recent call last):
    ...
    odds.io.dask_cluster.ClusterError: the cluster has no worker to run the study
    >>> check_workers({"tcp://10.0.0.2:1": ModuleNotFoundError("No module named 'odds'")}, me)
    Traceback (most recent call last):
    ...
    odds.io.dask_cluster.ClusterError: worker tcp://10.0.0.2:1 cannot run the job ...: install
    lucky9-odds 0.1.0 on every worker
    """
    if not found:
        raise ClusterError(f"the cluster has no worker to run {job}")
    for address, seen in sorted(found.items()):
        if isinstance(seen, BaseException):
            raise ClusterError(
                f"worker {excerpt(address, 80)[1:-1]} cannot run {job} "
                f"({type(seen).__name__}: {excerpt(str(seen), 120)[1:-1]}): install "
                f"lucky9-odds {expected['version']} on every worker")
        if seen != expected:
            other = seen if isinstance(seen, dict) else {}
            raise ClusterError(
                f"worker {excerpt(address, 80)[1:-1]} runs lucky9-odds "
                f"{_plain(other.get('version'))} (code {_plain(other.get('code'))}), "
                f"this program {expected['version']} (code {expected['code']}): every worker "
                "needs the same version, or the results could differ")


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
            dashboard_address=None, silence_logs=logging.CRITICAL,
            # The scheduler serves HTTP even without a dashboard, by default on port
            # 8787 (taken by any other cluster): any free port of 127.0.0.1.
            scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"})


def _children() -> set[int]:
    """This process's descendants, but multiprocessing's resource tracker (it ends
    with this process, and is shared with anything else here that spawns)."""
    import psutil  # type: ignore[import-untyped]

    out = set()
    for p in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if not any("resource_tracker" in part for part in p.cmdline()):
                out.add(p.pid)
    return out


def _end_processes(pids: set[int], wait: float) -> None:
    """Wait up to ``wait`` seconds for the processes ``pids``, then end any still there."""
    import psutil

    procs = []
    for pid in pids:
        with contextlib.suppress(psutil.Error):
            procs.append(psutil.Process(pid))
    _, alive = psutil.wait_procs(procs, timeout=wait)
    for sig in ("terminate", "kill"):
        for p in alive:
            with contextlib.suppress(psutil.Error):
                getattr(p, sig)()
        _, alive = psutil.wait_procs(alive, timeout=2)
        if not alive:
            return


def _tracker_pid() -> int | None:
    """The process id of this process's multiprocessing resource tracker, if running."""
    from multiprocessing import resource_tracker

    return getattr(resource_tracker._resource_tracker, "_pid", None)


def _stop_resource_tracker(pid: int | None, wait: float = 1.0) -> None:
    """End the resource tracker ``pid`` if the local cluster's start ran it (it would
    otherwise outlive this process by a moment: it ends when its pipe closes).

    Only the tracker this session started, and only when nothing else of this process
    still runs, may be stopped; the wait is bounded (a process that still holds its pipe
    keeps it alive, and it then ends with that process).  Whatever spawns next starts
    a tracker again.
    """
    import multiprocessing
    from multiprocessing import resource_tracker

    tracker: Any = resource_tracker._resource_tracker
    if pid is None or getattr(tracker, "_pid", None) != pid or _children() \
            or multiprocessing.active_children():
        return
    with contextlib.suppress(Exception), tracker._lock:
        if tracker._fd is None:
            return
        os.close(tracker._fd)  # its end of the pipe: the tracker reads EOF and ends
        tracker._fd, tracker._pid = None, None
    deadline = time.monotonic() + wait
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(pid, os.WNOHANG)[0] == 0 and time.monotonic() < deadline:
            time.sleep(0.01)


class DaskSession:
    """A Dask client (and the local cluster it started, if any), every worker checked.

    ``identity`` is a module-level function the workers run (it must import
    there): what it returns on each worker must equal what it returns here.
    """

    address: str | None = None  # as the user gave it (``local:2``, ``tcp://host:8786``)

    def __init__(self, client: Any, local: Any, pids: set[int],
                 tracker: int | None = None) -> None:
        self.client = client
        self.local = local
        self.pids = pids  # the local cluster's processes, ended when the session closes
        self.tracker = tracker  # the resource tracker the local cluster's start ran

    @classmethod
    def connect(cls, address: str, timeout: float, identity: Callable[[], dict[str, str]],
                job: str = "the job") -> DaskSession:
        """Connect (or start a local cluster on 127.0.0.1) and check every worker."""
        check_address(address)
        check_timeout(timeout)
        shown = excerpt(address, 80)
        unreachable = f"cannot reach the Dask scheduler at {shown} within {timeout:g} s"
        if not address.startswith("local:"):
            with bounded(timeout + 1, unreachable):  # the probe's own timeout first
                probe(address, timeout)  # before Dask is imported: seconds on a busy machine
        distributed = distributed_module()
        # Failures are reported here, as sentences: not as Dask's logged tracebacks.
        logging.getLogger("distributed").setLevel(logging.CRITICAL)
        local, client, pids, tracker = None, None, set(), None
        try:
            if address.startswith("local:"):
                before, tracker_before = _children(), _tracker_pid()
                try:
                    with bounded(max(timeout, LOCAL_START),
                                 f"the local cluster {shown} did not start within "
                                 f"{max(timeout, LOCAL_START):g} s"):
                        local = _local_cluster(distributed, int(address[len("local:"):]))
                except BaseException:  # stopped while starting: its processes end now
                    _end_processes(_children() - before, 0.5)
                    raise
                pids = _children() - before
                tracker = _tracker_pid()
                if tracker == tracker_before:  # not this start's: left running
                    tracker = None
                target: Any = local
            else:
                target = address
            try:
                with bounded(timeout + 1, unreachable):
                    client = distributed.Client(target, timeout=timeout)
            except (OSError, TimeoutError) as exc:
                raise ClusterError(f"{unreachable} ({excerpt(str(exc), 160)[1:-1]})") from None
            with bounded(max(timeout, 60.0), f"the workers of {shown} did not answer "
                                             f"within {max(timeout, 60.0):g} s"):
                found = client.run(identity, on_error="return")
            check_workers(found, identity(), job)
            return cls(client, local, pids, tracker)
        except BaseException:
            DaskSession(client, local, pids, tracker).close()
            raise

    def close(self) -> None:
        """Disconnect; a local cluster is shut down and its processes waited for (or ended).

        Ctrl-C and SIGTERM wait for the end of this (a few seconds at most).
        """
        with _deferred_signals():
            try:
                if self.client is not None:
                    with contextlib.suppress(Exception):
                        self.client.close(timeout=CLOSE_WAIT)
                if self.local is not None:
                    with contextlib.suppress(Exception):
                        self.local.close(timeout=CLOSE_WAIT)
            finally:
                if self.pids:
                    _end_processes(self.pids, CLOSE_WAIT)
                _stop_resource_tracker(self.tracker)
                self.client = self.local = None
                self.pids, self.tracker = set(), None


@contextlib.contextmanager
def _deferred_signals() -> Iterator[None]:
    """Ctrl-C and SIGTERM noted during the block and raised after it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    seen: list[int] = []

    def note(signum: int, _frame: Any) -> None:
        seen.append(signum)

    old = {s: signal.signal(s, note) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
        if seen:
            handler = old[signal.Signals(seen[0])]
            if callable(handler):
                handler(seen[0], None)
            elif handler == signal.SIG_DFL:
                _stop(seen[0], None)
