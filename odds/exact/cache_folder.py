"""Where the disk caches live (:func:`cache_dir`) and how an entry is named (:func:`entry_name`).

Shared by the rules tables' cache (:mod:`odds.exact.table_cache`) and the
round results' cache (:mod:`odds.exact.round_cache`); numpy-free, so a quick
command can use it.  ``LUCKY9_NO_CACHE=1`` turns every cache off.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["FOLDER", "NO_CACHE", "cache_dir", "entry_name"]

NO_CACHE = "LUCKY9_NO_CACHE"  # set to 1 (or any value but 0 or empty) to turn the cache off
FOLDER = "lucky9-odds"


def cache_dir(environ: Mapping[str, str] = os.environ) -> Path | None:
    """The cache folder, or None when ``LUCKY9_NO_CACHE`` turns the cache off.

    >>> cache_dir({"XDG_CACHE_HOME": "/tmp/xdg"})
    PosixPath('/tmp/xdg/lucky9-odds')
    >>> cache_dir({"XDG_CACHE_HOME": "/tmp/xdg", "LUCKY9_NO_CACHE": "1"}) is None
    True
    >>> cache_dir({"XDG_CACHE_HOME": "relative", "HOME": "/home/me"})
    PosixPath('/home/me/.cache/lucky9-odds')
    """
    if environ.get(NO_CACHE, "") not in ("", "0"):
        return None
    base = environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(base):
        return Path(base) / FOLDER
    home = environ.get("HOME", "")
    return Path(home if os.path.isabs(home) else os.path.expanduser("~")) / ".cache" / FOLDER


def entry_name(prefix: str, key: Mapping[str, Any]) -> str:
    """A file name for ``key`` (JSON data): ``prefix`` and a SHA-256 of its canonical JSON.

    >>> entry_name("t", {"b": 1, "a": [2]}) == entry_name("t", {"a": [2], "b": 1})
    True
    >>> entry_name("t", {"a": 1})
    't-015abd7f5cc57a2dd94b7590f04ad808'
    """
    text = json.dumps(key, sort_keys=True, separators=(",", ":"))
    return f"{prefix}-{hashlib.sha256(text.encode()).hexdigest()[:32]}"
