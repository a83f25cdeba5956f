"""Writing a file whole or not at all: the one writer every command that writes uses.

A regular file (or a missing one) is written to a temporary file in the
same folder, given the mode a new file gets under the umask (0644 under the
usual 022), and renamed over the target, so a reader never sees half a file
and a failed or interrupted run (an exception, Ctrl-C, or SIGTERM once the
CLI turns it into an exit) leaves the old file whole and no temporary file
behind.  A symbolic link to a regular file is replaced by the new file, not
followed.

Anything else is never replaced: a character device or a FIFO
(``/dev/null``, ``/dev/stdout``, a named pipe with a reader) is written
directly; a folder, a block device or a socket is refused.

Two kinds of failure, because the CLI exits differently for them:

- :class:`WriteError` (a ``ValueError``): the target itself cannot be
  written (no name, no such folder, a folder, no permission, a name too
  long): a usage error;
- :class:`OutputError`: the system failed while writing (disk full, an I/O
  error): the command could not finish, through no fault of its input.

It sits in :mod:`odds.rules`, the bottom layer, because the simulator, the
tree export and the table writer all use it.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
from pathlib import Path
from types import TracebackType
from typing import IO

from odds.io.textio import excerpt

__all__ = [
    "SYSTEM_ERRORS",
    "AtomicFile", "OutputError", "WriteError", "check_target", "same_target", "write_file"]

# The system, not the path, failed: these are OutputError, the rest WriteError.
SYSTEM_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG})


class WriteError(ValueError):
    """The target cannot be written: a usage error (exit code 2)."""


class OutputError(Exception):
    """Writing failed for a reason outside the input (disk full, I/O error): exit code 1."""


def _fail(path: str, exc: OSError) -> Exception:
    reason = exc.strerror or str(exc)
    if exc.errno == errno.ENXIO:
        reason = "a named pipe with no reader"
    text = f"cannot write {excerpt(path, 120)}: {reason}"
    return OutputError(text) if exc.errno in SYSTEM_ERRORS else WriteError(text)


def check_target(path: str | Path) -> bool:
    """Check that ``path`` can be written; True if it is written directly (a device or FIFO).

    Call it before long work, so a bad target fails at once.

    >>> check_target("/dev/null")
    True
    >>> check_target("")
    Traceback (most recent call last):
    ...
    odds.io.atomic.WriteError: no file name was given (an empty path)
    >>> check_target("/no/such/folder/x.csv")
    Traceback (most recent call last):
    ...
    odds.io.atomic.WriteError: cannot write '/no/such/folder/x.csv': no folder '/no/such/folder'
    """
    name = str(path)
    if not name:
        raise WriteError("no file name was given (an empty path)")
    shown = excerpt(name, 120)
    try:
        st: os.stat_result | None = os.stat(name)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise _fail(name, exc) from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise WriteError(f"cannot write {shown}: it is a folder")
        if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
            return True
        if not stat.S_ISREG(st.st_mode):
            raise WriteError(f"cannot write {shown}: it is not a regular file, a device or a pipe")
    folder = os.path.dirname(name) or "."
    if name.endswith(os.sep) or not os.path.isdir(folder):
        raise WriteError(f"cannot write {shown}: no folder {excerpt(folder, 120)}")
    return False


def same_target(a: str | Path, b: str | Path) -> bool:
    """True if two output paths name the same file (so one would overwrite the other).

    >>> same_target("run.csv", "./run.csv"), same_target("a.csv", "b.csv")
    (True, False)
    """
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _temp_prefix(folder: str, name: str) -> str:
    """``.NAME.``, cut so that the temporary name (8 random characters, ``.tmp``) still fits."""
    try:
        limit = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        limit = 255
    room = max(1, limit - len(".") - len(".") - 8 - len(".tmp"))
    raw = os.fsencode(name)[:room]
    return "." + raw.decode("utf-8", errors="ignore") + "."


class AtomicFile:
    """A file being written: ``handle`` takes the bytes; :meth:`commit` puts it in place.

    As a context manager it commits on success and discards on any
    exception (the target is then untouched).

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> with AtomicFile(folder + "/a.txt") as f:
    ...     _ = f.handle.write(b"hi")
    >>> with open(folder + "/a.txt") as f:
    ...     f.read(), os.listdir(folder)
    ('hi', ['a.txt'])
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.direct = check_target(self.path)
        self.temp: str | None = None
        try:
            if self.direct:
                # O_NONBLOCK: a FIFO with no reader fails at once (ENXIO) instead of hanging.
                fd = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK)
                flags = fcntl.fcntl(fd, fcntl.F_GETFL)
                fcntl.fcntl(fd, fcntl.F_SETFL, flags & ~os.O_NONBLOCK)
            else:
                folder = os.path.dirname(self.path) or "."
                import tempfile  # here: a command that writes no file need not import it

                fd, self.temp = tempfile.mkstemp(
                    prefix=_temp_prefix(folder, os.path.basename(self.path)), suffix=".tmp",
                    dir=folder)
        except OSError as exc:
            raise _fail(self.path, exc) from None
        self.handle: IO[bytes] = os.fdopen(fd, "wb")

    def write(self, data: bytes | str) -> None:
        """Write bytes (or text, as UTF-8); a failure discards the file and says why."""
        try:
            self.handle.write(data.encode() if isinstance(data, str) else data)
        except OSError as exc:
            raise self.failed(exc) from None

    def failed(self, exc: OSError) -> Exception:
        """Discard the file after ``exc``; the error to raise (one sentence naming the file)."""
        self.discard()
        return _fail(self.path, exc)

    def commit(self) -> None:
        """Close the file and move it into place (a no-op move for a device or FIFO)."""
        try:
            self.handle.close()
            if self.temp is not None:
                # mkstemp makes the file private (0600); give it the mode a new file gets.
                mask = os.umask(0)
                os.umask(mask)
                os.chmod(self.temp, 0o666 & ~mask)
                os.replace(self.temp, self.path)
                self.temp = None
        except OSError as exc:
            self.discard()
            raise _fail(self.path, exc) from None

    def discard(self) -> None:
        """Close and remove the temporary file; the target stays as it was."""
        try:
            self.handle.close()
        except OSError:
            pass  # the buffer could not be flushed: it is being thrown away anyway
        if self.temp is not None:
            try:
                os.unlink(self.temp)
            except FileNotFoundError:
                pass
            self.temp = None

    def __enter__(self) -> AtomicFile:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if kind is None:
            self.commit()
            return
        self.discard()
        if isinstance(exc, OSError):
            raise _fail(self.path, exc) from None


def write_file(path: str | Path, data: bytes | str) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` whole or not at all.

    >>> import tempfile
    >>> p = tempfile.mkdtemp() + "/t.txt"
    >>> write_file(p, "hi\\n"); Path(p).read_text()
    'hi\\n'
    >>> write_file("/dev/full", "hi")
    Traceback (most recent call last):
    ...
    odds.io.atomic.OutputError: cannot write '/dev/full': No space left on device
    """
    with AtomicFile(path) as f:
        f.write(data)
