"""`--cluster` against addresses that are not a Dask scheduler, and stops at every stage:
the real command in a subprocess, a real socket server on 127.0.0.1 in the test, bounded in
time; exit code, message, elapsed time, and that no process of the command survives it."""

from __future__ import annotations

import http.server
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

pytest.importorskip("distributed")

CLI = str(Path(__file__).resolve().parents[2] / "cli.py")
STARTUP = 25.0  # seconds a cold start may take on a loaded machine, beyond the timeout
TIMEOUT = 1  # --cluster-timeout of the unreachable addresses: each test waits it out once


def _server(answer: bytes | None) -> Iterator[int]:
    """A TCP server on 127.0.0.1 that accepts and sends ``answer`` (None: nothing, ever)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.2)
    held: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            if answer is not None:
                conn.sendall(answer)
            held.append(conn)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join(2)
        for conn in held:
            conn.close()
        listener.close()


@pytest.fixture
def silent_port() -> Iterator[int]:
    yield from _server(None)


@pytest.fixture
def bad_request_port() -> Iterator[int]:
    yield from _server(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")


@pytest.fixture
def http_port() -> Iterator[int]:
    """python3 -m http.server's server: it waits for a request, says nothing first."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             http.server.SimpleHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("log") / "log.csv"
    subprocess.run([sys.executable, CLI, "simulate", "--rounds", "200", "--seed", "1",
                    "--log", str(path)], check=True, capture_output=True, timeout=120)
    return path


def _command(which: str, address: str, log: Path, timeout: str = str(TIMEOUT)) -> list[str]:
    if which == "count":
        args = ["count", "--decks", "1", "--shoes", "4", "--bet", "tie", "--profile",
                "punto-banco"]
    else:
        args = ["verify", str(log)]
    return [sys.executable, CLI, *args, "--cluster", address, "--cluster-timeout", timeout]


def _survivors(session: int) -> list[psutil.Process]:
    """Processes still alive in the command's session (zombies are not alive)."""
    out = []
    for p in psutil.process_iter(["pid"]):
        try:
            if os.getsid(p.pid) == session and p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
        except (ProcessLookupError, PermissionError, psutil.Error):
            continue
    return out


def _run(command: list[str], limit: float) -> tuple[int, str, float, int]:
    started = time.monotonic()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"still running after {limit} s: {command}")
    return proc.returncode, (out + err).decode(), time.monotonic() - started, proc.pid


def _after(pid: int) -> list[psutil.Process]:
    time.sleep(0.5)
    return _survivors(pid)


@pytest.mark.parametrize("which", ["count", "verify"])
def test_a_port_that_accepts_and_never_answers_is_an_error_within_the_timeout(
        silent_port: int, which: str, log: Path) -> None:
    code, text, took, pid = _run(_command(which, f"tcp://127.0.0.1:{silent_port}", log),
                                 TIMEOUT + STARTUP + 10)
    assert code == 2, text
    assert f"cannot reach a Dask scheduler at 'tcp://127.0.0.1:{silent_port}' within {TIMEOUT} s" \
        in text
    assert "Traceback" not in text
    assert took < TIMEOUT + STARTUP, took
    assert _after(pid) == []


@pytest.mark.parametrize("which", ["count", "verify"])
def test_an_http_server_is_not_a_scheduler(http_port: int, which: str, log: Path) -> None:
    code, text, took, pid = _run(_command(which, f"tcp://127.0.0.1:{http_port}", log),
                                 TIMEOUT + STARTUP + 10)
    assert code == 2, text
    assert f"within {TIMEOUT} s" in text and "Traceback" not in text
    assert took < TIMEOUT + STARTUP, took
    assert _after(pid) == []


@pytest.mark.parametrize("which", ["count", "verify"])
def test_a_port_that_answers_400_bad_request_is_not_a_dask_scheduler(
        bad_request_port: int, which: str, log: Path) -> None:
    code, text, took, pid = _run(_command(which, f"tcp://127.0.0.1:{bad_request_port}", log),
                                 TIMEOUT + STARTUP + 10)
    assert code == 2, text
    assert f"'tcp://127.0.0.1:{bad_request_port}' is not a Dask scheduler" in text
    assert "MemoryError" not in text and "Traceback" not in text
    assert took < TIMEOUT + STARTUP, took
    assert _after(pid) == []


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["term", "int"])
def test_a_signal_while_waiting_for_the_scheduler_ends_the_command(
        silent_port: int, signum: int, log: Path) -> None:
    command = _command("count", f"tcp://127.0.0.1:{silent_port}", log, timeout="120")
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        # Wait until the command has connected to the port (it then waits for an answer).
        deadline = time.monotonic() + STARTUP + 10
        while time.monotonic() < deadline and not any(
                c.raddr and c.raddr.port == silent_port and c.status == "ESTABLISHED"
                for c in psutil.Process(proc.pid).net_connections("tcp")):
            time.sleep(0.1)
        sent = time.monotonic()
        proc.send_signal(signum)
        proc.communicate(timeout=15)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == (128 + signum if signum == signal.SIGTERM else 1)
    assert took < 5, took
    assert _after(proc.pid) == []


# CI (slow: a local cluster of two workers starts, about 10 s).
@pytest.mark.slow
@pytest.mark.parametrize("which", ["count", "verify"])
def test_no_process_outlives_a_local_cluster(which: str, log: Path) -> None:
    for _ in range(2):  # the leftover worker was intermittent
        code, text, _, pid = _run(_command(which, "local:2", log, timeout="30"), 180)
        assert code in (0, 1), text
        assert _survivors(pid) == []  # at once: not even a second later
