"""A disk cache of the batch engine's rules tables (built once per machine, not per process),
and the memory cache (:func:`held`) of the tables a process keeps.

Building a rules table enumerates 1.4 million rank sequences (about a
second); every new process (each worker of ``lucky9 count --jobs``, each
``lucky9 shoe``) did it again.  Loading the stored table is many times
quicker (bench/bench_batch.py prints both).

One file per table, ``rules-table-HASH.npz``, in
``$XDG_CACHE_HOME/lucky9-odds`` (``~/.cache/lucky9-odds`` when the variable
is unset or not an absolute path, as the XDG spec says).  HASH is a SHA-256
of everything that determines the table (:func:`odds.exact.batch.table_key`:
the rule options that decide T, the package version, a format number and a
digest of the source files that build it), so a stale table is never looked
up; the file repeats the key, and a table read back must have, row by row,
as many orderings as its rank multiset has.  The cache is never required:

- ``LUCKY9_NO_CACHE=1`` turns it off (no reads, no writes);
- a file that cannot be read, is not a whole ``.npz`` (its CRCs are
  checked), lacks an array or fails the checks counts as missing: the
  table is rebuilt and the file written again;
- a folder that cannot be made or written (a read-only home) is skipped
  without a word: the result is the same, only slower.

Files are written whole or not at all (:mod:`odds.io.atomic`), so two
processes filling the same entry at once leave one whole file, and arrays
are read with ``allow_pickle=False``: a planted file cannot run code.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from odds.exact.cache_folder import NO_CACHE, cache_dir, entry_name
from odds.exact.results import OutcomeKey
from odds.io.atomic import OutputError, WriteError, write_file

__all__ = ["NO_CACHE", "TableParts", "cache_dir", "cached_table", "entry_name", "held", "load",
           "store"]

# keys, summary keys, product matrix, scatter index: what RulesTable holds besides its profile.
TableParts = tuple[tuple[OutcomeKey, ...], tuple[tuple[int, int, str], ...], np.ndarray, np.ndarray]

# Anything a damaged or foreign file can raise while being read as .npz.
READ_ERRORS = (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile)


def load(
    folder: Path, name: str, check: Callable[[dict[str, np.ndarray]], bool]
) -> dict[str, np.ndarray] | None:
    """The arrays stored under ``name``, if the file is there, whole and passes ``check``.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp()) / "cache"
    >>> store(folder, "demo", {"a": np.arange(3)})
    True
    >>> load(folder, "demo", lambda arrays: len(arrays["a"]) == 3)["a"].tolist()
    [0, 1, 2]
    >>> load(folder, "demo", lambda arrays: False) is None
    True
    >>> _ = (folder / "demo.npz").write_bytes(b"not a zip file")
    >>> load(folder, "demo", lambda arrays: True) is None
    True
    """
    try:
        # Our own handle: np.load given a path leaves it open when the file is damaged.
        with open(folder / f"{name}.npz", "rb") as file:
            data = np.load(file, allow_pickle=False)
            if not isinstance(data, np.lib.npyio.NpzFile):
                return None  # a bare .npy array: not ours
            arrays = {key: data[key] for key in data.files}
        return arrays if check(arrays) else None
    except READ_ERRORS:
        return None


def store(folder: Path, name: str, arrays: Mapping[str, np.ndarray]) -> bool:
    """Store ``arrays`` under ``name``, whole or not at all; False if the folder is unwritable.

    >>> store(Path("/dev/null/cache"), "demo", {"a": np.arange(3)})
    False
    """
    buffer = io.BytesIO()
    named: dict[str, Any] = dict(arrays)  # typed Any: numpy's stub reads **kwds as allow_pickle
    np.savez(buffer, allow_pickle=False, **named)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_file(folder / f"{name}.npz", buffer.getvalue())
    except (OSError, WriteError, OutputError):
        return False
    return True


def cached_table(
    key: Mapping[str, Any] | None, build: Callable[[], TableParts], orderings: Callable[[], np.ndarray]
) -> TableParts:
    """The table stored under ``key``, else ``build()`` (then stored).

    ``key`` None (no version or sources to key on) or the cache turned off:
    just ``build()``.  ``orderings()`` gives, per row class, the number of
    orderings of its rank multiset (with canonical faces): every row of the
    table read back must sum to it over the keys, over the summary columns
    and over each hand's final values.
    """
    folder = cache_dir()
    if key is None or folder is None:
        return build()
    name = entry_name("rules-table", key)
    text = json.dumps(key, sort_keys=True, separators=(",", ":"))
    arrays = load(folder, name, lambda arrays: _valid(arrays, text, orderings))
    if arrays is not None:
        return _decode(arrays)
    parts = build()
    store(folder, name, _encode(parts, text))
    return parts


def _encode(parts: TableParts, text: str) -> dict[str, np.ndarray]:
    keys, summary_keys, product, scatter = parts
    names = sorted({k[4] for k in keys})
    return {
        "key": np.array(text),
        "categories": np.array(names),
        "keys": np.array([[*k[:4], names.index(k[4])] for k in keys], dtype=np.int16),
        "summary_keys": np.array([[*k[:2], names.index(k[2])] for k in summary_keys],
                                 dtype=np.int16),
        "product": product.astype(np.uint16),  # integers 0..720
        "scatter": scatter.astype(np.int32),
    }


def _decode(arrays: dict[str, np.ndarray]) -> TableParts:
    names = [str(n) for n in arrays["categories"]]
    keys = tuple((int(a), int(b), int(c), int(d), names[e])
                 for a, b, c, d, e in arrays["keys"].tolist())
    summary_keys = tuple((int(a), int(b), names[c]) for a, b, c in arrays["summary_keys"].tolist())
    return (keys, summary_keys, arrays["product"].astype(np.float64),
            arrays["scatter"].astype(np.intp))


def _valid(arrays: dict[str, np.ndarray], text: str, orderings: Callable[[], np.ndarray]) -> bool:
    """The stored arrays are this key's table, whole: shapes, ranges and row sums."""
    shapes = {"key": 0, "categories": 1, "keys": 2, "summary_keys": 2, "product": 2, "scatter": 1}
    if any(name not in arrays or arrays[name].ndim != ndim for name, ndim in shapes.items()):
        return False
    if str(arrays["key"]) != text or arrays["categories"].dtype.kind != "U":
        return False
    keys, summary, product, scatter = (arrays[n] for n in ("keys", "summary_keys", "product",
                                                           "scatter"))
    rows = orderings()
    k, s = len(keys), len(summary)
    d = product.shape[1] - s
    n_cat = len(arrays["categories"])
    if (product.dtype != np.uint16 or keys.shape[1:] != (5,) or summary.shape[1:] != (3,)
            or scatter.shape != (k + 22,) or product.shape[0] != len(rows) or d < 1
            or scatter.min() < 0 or scatter.max() >= d
            or keys.min() < 0 or keys[:, 4].max() >= n_cat
            or summary.min() < 0 or summary[:, 2].max() >= n_cat):
        return False
    full = product[:, scatter].astype(np.int64)
    sums = (full[:, :k].sum(axis=1), product[:, d:].astype(np.int64).sum(axis=1),
            full[:, k:k + 10].sum(axis=1), full[:, k + 10:k + 20].sum(axis=1))
    return all(np.array_equal(total, rows) for total in sums)


_T = TypeVar("_T")


def held(store: dict[Any, _T], key: Any, limit: int, build: Callable[[], _T]) -> _T:
    """``store[key]``, built if missing; the ``limit`` most recently used stay held.

    The memory cache beside the disk's: the batch engine's tables, bet
    tables and margin tables are each held so, a few per process.

    >>> store: dict[str, int] = {}
    >>> held(store, "a", 1, lambda: 1), held(store, "b", 1, lambda: 2), list(store)
    (1, 2, ['b'])
    """
    value = store.pop(key, None)
    if value is None:
        value = build()
    store[key] = value  # the newest last
    while len(store) > limit:
        del store[next(iter(store))]
    return value
