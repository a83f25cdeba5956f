"""Where a run's files go, written whole: one file, a folder of several, or none.

``lucky9 par`` and ``lucky9 card`` write one file per bet or profile: one
goes to the path given, several into a folder (created if missing, and
removed again if the run fails and leaves it empty), none to standard
output.  The files are written all or none (:func:`odds.report.par.write_par`,
each through :class:`odds.io.atomic.AtomicFile`).
"""

from __future__ import annotations

import contextlib
import pathlib
from collections.abc import Callable, Sequence

from odds.io.atomic import check_target
from odds.report.par import write_par
from odds.rules.profile import Profile

__all__ = ["MAX_PROFILES", "distinct_profiles", "out_folder", "output_paths", "write_whole"]

MAX_PROFILES = 16  # profiles of one 'tables --profile' or 'card' run

Undo = Callable[[], None]


def _nothing() -> None:
    """Nothing to undo."""


def distinct_profiles(profiles: Sequence[Profile], fixed_for: str | None = None) -> list[Profile]:
    """The profiles of one run: at most :data:`MAX_PROFILES`, no key twice (their files
    would collide); with ``fixed_for`` (what is made of each), fixed-rule profiles only.

    >>> from odds.rules.profiles import BUILTIN
    >>> distinct_profiles([BUILTIN["standard"]] * 2)
    Traceback (most recent call last):
    ...
    ValueError: profile 'standard' is given twice (two profiles with one name would write the same files)
    >>> distinct_profiles([BUILTIN["family"]], "a table card")
    Traceback (most recent call last):
    ...
    ValueError: profile 'family' has no fixed rule (...): a table card is for a fixed-rule profile
    """
    if len(profiles) > MAX_PROFILES:
        raise ValueError(f"at most {MAX_PROFILES} profiles a run, not {len(profiles)}")
    keys = [p.key for p in profiles]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise ValueError(f"profile {twice[0]!r} is given twice (two profiles with one "
                         "name would write the same files)")
    for profile in profiles if fixed_for else ():
        if not profile.fixed:
            raise ValueError(f"profile {profile.key!r} has no fixed rule (its players "
                             f"and bank choose): {fixed_for} is for a fixed-rule profile")
    return list(profiles)


def out_folder(target: str, names: Sequence[str], what: str) -> tuple[list[str], Undo]:
    """The files ``names`` in the folder ``target`` (created if missing), each checked.

    Returns them and an undo that removes the folder again if this run made it and it
    is still empty: a run that fails leaves nothing behind.
    """
    folder = pathlib.Path(target)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--out {target!r}: several {what} are written into a folder, "
                         "and this is a file")
    made = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"--out {target!r}: {exc.strerror or exc}") from None

    def undo() -> None:
        if made:
            with contextlib.suppress(OSError):
                folder.rmdir()

    paths = [str(folder / name) for name in names]
    try:
        for p in paths:
            check_target(p)
    except BaseException:
        undo()
        raise
    return paths, undo


def output_paths(target: str | None, names: Sequence[str], what: str,
                 several_to_stdout: str | None = None) -> tuple[list[str], Undo]:
    """Where files named ``names`` go: no ``target``, standard output (no paths; refused
    with ``several_to_stdout`` for more than one); one name, ``target`` itself;
    several, the folder ``target`` (:func:`out_folder`).

    >>> output_paths(None, ["a.md"], "sheets")[0]
    []
    >>> output_paths(None, ["a.html", "b.html"], "sheets", "give --out DIR")
    Traceback (most recent call last):
    ...
    ValueError: give --out DIR
    """
    if target is None:
        if several_to_stdout is not None and len(names) > 1:
            raise ValueError(several_to_stdout)
        return [], _nothing
    if len(names) == 1:
        check_target(target)
        return [target], _nothing
    return out_folder(target, names, what)


def write_whole(paths: Sequence[str], undo: Undo, make: Callable[[], list[str]]) -> list[str]:
    """Make the texts and, where ``paths`` are given, write them all or none.

    On any failure (an error, Ctrl-C) ``undo`` removes the folder this run made.
    Returns the texts.
    """
    try:
        texts = make()
        if paths:
            write_par(list(zip(paths, texts, strict=True)))
    except BaseException:
        undo()
        raise
    return texts
