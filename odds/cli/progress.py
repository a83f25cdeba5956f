"""Progress bars on standard error, and signals acted on at a job's steps.

Exit code 143 is a SIGTERM: the run unwinds like Ctrl-C (which exits 1
"Aborted!"), so every temporary file is removed.  Every progress callback
below also stops the job at a signal the interpreter dropped
(:func:`unwind_if_terminated`).
"""

from __future__ import annotations

import contextlib
import signal
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import click

__all__ = [
    "delayed_progress",
    "install_sigterm",
    "progress",
    "rate_progress",
    "signals_at_steps",
    "step_progress",
    "unwind_if_terminated",
]

_SIGNALLED: list[int] = []  # the SIGTERM received, if one was


def _terminated(signum: int, _frame: Any) -> None:
    """SIGTERM: unwind like Ctrl-C does, so every temporary file is removed."""
    _SIGNALLED.append(signum)
    raise SystemExit(128 + signum)


def install_sigterm() -> None:
    """From now on a SIGTERM unwinds the run as Ctrl-C does (exit code 143)."""
    signal.signal(signal.SIGTERM, _terminated)


def unwind_if_terminated() -> None:
    """Raise again the exit of a SIGTERM whose exception the interpreter dropped.

    CPython loses the exception a signal handler raises while it compiles a
    module's source: sent SIGTERM as it imported a module with no bytecode
    cached yet, `lucky9 tables` ran to its end one time in four (measured).
    The commands' progress callbacks call this: such a run stops at its next
    step, and cleans up as any other.
    """
    if _SIGNALLED:
        if _SIGNALLED[0] == signal.SIGINT:
            raise KeyboardInterrupt
        raise SystemExit(128 + _SIGNALLED[0])


@contextlib.contextmanager
def signals_at_steps() -> Iterator[None]:
    """While a process pool runs, Ctrl-C and SIGTERM are noted, and acted on at the job's
    next step (its progress callback, at least every half second), never inside the
    pool's own locks: raised there, they left `count --jobs 2` waiting on a lock."""
    def note(signum: int, _frame: Any) -> None:
        _SIGNALLED.append(signum)

    old = {s: signal.signal(s, note) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
    unwind_if_terminated()  # a signal noted after the last step


@contextlib.contextmanager
def progress(show: bool, length: int, label: str) -> Iterator[Callable[[int], None]]:
    """The progress callback of a job that reports how much of ``length`` it has done.

    With ``show``, a bar on standard error; either way, the callback stops the
    job at a SIGTERM the interpreter dropped (:func:`unwind_if_terminated`).
    """
    bar = click.progressbar(length=length, label=label, file=sys.stderr) if show else None
    last = [0]

    def advance(done: int) -> None:
        unwind_if_terminated()
        if bar is not None:
            bar.update(done - last[0])
            last[0] = done

    with bar if bar is not None else contextlib.nullcontext():
        yield advance


@contextlib.contextmanager
def step_progress(length: Callable[[], int], label: str) -> Iterator[Callable[[str], None]]:
    """A callback called once per step of a job: a bar on standard error from the first step.

    The bar starts with the first result (so after the job checked its
    inputs); ``length`` is asked for then.
    """
    with contextlib.ExitStack() as stack:
        bars: list[Any] = []

        def step(_label: str) -> None:
            unwind_if_terminated()
            if not bars:
                bars.append(stack.enter_context(click.progressbar(
                    length=length(), label=label, file=sys.stderr)))
            bars[0].update(1)

        yield step


PROGRESS_AFTER = 2.0  # seconds a job runs before its bar shows (docs/bank.md: "about 2 s")


def _terminal() -> bool:
    """Is standard error a terminal (where a bar is drawn)?"""
    return sys.stderr.isatty()


@contextlib.contextmanager
def delayed_progress(after: float | None = None) -> Iterator[Callable[[int, int], None]]:
    """A progress callback (done, total) that shows a bar on standard error once a job
    has run ``after`` seconds (:data:`PROGRESS_AFTER` unless given), and only when
    standard error is a terminal.  A new total starts a new bar (a new stage: the round,
    then the session's chains)."""
    after = PROGRESS_AFTER if after is None else after
    start = time.monotonic()
    state: dict[str, Any] = {"bar": None, "last": 0, "total": None}
    show = _terminal()

    def advance(done: int, total: int) -> None:
        unwind_if_terminated()
        if not show:
            return
        bar = state["bar"]
        if bar is not None and state["total"] != total:  # a new stage: a new bar
            bar.render_finish()
            bar = state["bar"] = None
        if bar is None:
            if time.monotonic() - start < after:
                return
            bar = state["bar"] = click.progressbar(length=total, file=sys.stderr,
                                                   label="bank")
            state["total"], state["last"] = total, 0
        bar.update(done - state["last"])
        state["last"] = done

    try:
        yield advance
    finally:
        if state["bar"] is not None:
            state["bar"].render_finish()


@contextlib.contextmanager
def rate_progress(show: bool, label: str, unit: str = "rows"
                  ) -> Iterator[Callable[[int, int, int], None]]:
    """A progress callback (done, total, items) of a job measured in bytes: with ``show``,
    a line on standard error with the share done, the items per second and the time
    left (redrawn at most twice a second); either way the callback stops the job at a
    noted signal (:func:`unwind_if_terminated`)."""
    start = time.monotonic()
    state = {"last": 0.0, "drawn": False}

    def advance(done: int, total: int, items: int) -> None:
        unwind_if_terminated()
        now = time.monotonic()
        if not show or (now - state["last"] < 0.5 and done < total):
            return
        state["last"], state["drawn"] = now, True
        elapsed = max(now - start, 1e-9)
        left = (f"{_clock(elapsed * (total - done) / done)} left" if done
                else "time left not known yet")
        click.echo(f"\r{label}: {done / max(total, 1):4.0%}, {items:,} {unit}, "
                   f"{items / elapsed:,.0f} {unit}/s, {left}   ", file=sys.stderr, nl=False)

    try:
        yield advance
    finally:
        if state["drawn"]:
            click.echo("", file=sys.stderr)


def _clock(seconds: float) -> str:
    """h:mm:ss"""
    s = int(round(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"
