"""A shoe study saved as it runs, so that a stopped study can be resumed.

``lucky9 count --save DIR`` keeps in DIR:

* ``study.json``: what the study is (every setting that changes a figure,
  the shoes asked for, the chunk size) and what made it (the package's
  version and a digest of the code that deals and counts): a folder made by
  another command line or another version is refused, never mixed in;
* ``chunk-FIRST.npz``: the moment sums of one finished chunk of shoes
  (:class:`odds.money.counting.kernel.ChunkSums`), written whole or not at all
  (:mod:`odds.io.atomic`) the moment the chunk ends;
* ``total.npz``: the sums of chunks ``0 .. next-1`` added in shoe order (a
  checkpoint).  Chunk files it covers are deleted once it is written.  A last
  chunk short of a whole one stays a file of its own, never folded in, so a
  study resumed with more shoes (``--shoes``: it grows, it never shrinks)
  deals that chunk whole and ends, bit for bit, where a straight run would.

The study's figures are a left fold of chunk sums in shoe order; resuming
continues that fold from the checkpoint, so a study stopped and resumed
gives, bit for bit, the figures of one run straight through.

Files are read with ``allow_pickle=False`` and a size bound; a file that does
not load, lacks an array or has the wrong shape is "damaged", and the study
is refused with the file's name, not silently dealt again.
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
import zlib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from odds.io.atomic import AtomicFile, write_file
from odds.io.textio import check_nesting, excerpt, read_text
from odds.money.counting.kernel import ChunkSums
from odds.money.counting.plan import StudyPlan

__all__ = ["FolderError", "StudyFolder", "code_identity", "read_settings", "study_settings"]

FORMAT = 1
MAX_SETTINGS = 1_000_000  # bytes of study.json: a few kB in practice
MAX_CHUNK_FILE = 256 * 2**20  # bytes of one .npz: a few kB per bet
MAX_BINS = 10**7  # bins of a stored histogram (a study's have 100,002)
# The code that decides a study's figures: every module of this package (the
# study's own code) and of the two layers below it that deal and count
# (odds.exact and odds.rules, whole: a module list would go stale as they are
# cut).  A digest of them is the study's "version" beside the package's, so a
# resumed study never mixes code.
STUDY_PACKAGE = Path(__file__).parent
CODE_PACKAGES = (STUDY_PACKAGE, STUDY_PACKAGE.parent.parent / "exact", STUDY_PACKAGE.parent.parent / "rules")


class FolderError(ValueError):
    """The save or resume folder cannot be used: a usage error."""


def code_identity() -> dict[str, str]:
    """The package's version and a digest of the code behind a study's figures.

    Two processes (a client and a cluster's worker) with the same identity
    give the same figures for the same chunk.

    >>> sorted(code_identity())
    ['code', 'version']
    """
    try:
        version = metadata.version("lucky9-odds")
    except metadata.PackageNotFoundError:  # run from a source tree, not installed
        version = "unknown"
    digest = hashlib.sha256()
    files = [path for package in CODE_PACKAGES for path in sorted(package.glob("*.py"))]
    for path in files:
        digest.update(path.read_bytes())
    return {"version": version, "code": digest.hexdigest()[:16]}


def study_settings(plan: StudyPlan, shoes: int, penetration: float | None,
                   cut_cards: int | None, chunk: int) -> dict[str, Any]:
    """Every setting that changes a figure of the study, as JSON data."""
    system = plan.system
    return {
        "profile": plan.profile.key,
        "options": plan.profile.options(),
        "bets": list(plan.names),
        "bet_definitions": hashlib.sha256(repr(plan.bets.bets).encode()).hexdigest()[:16],
        "packs": plan.packs,
        "penetration": penetration,
        "cut_cards": cut_cards,
        "burn": plan.burn,
        "burn_rule": plan.burn_rule,
        "count_burn": plan.count_burn,
        "rounds_after_cut": plan.rounds_after_cut,
        "seed": plan.seed,
        "count_system": None if system is None else {
            "tags": list(system.tags), "trigger": system.trigger, "irc": system.irc,
            "deck_estimate": system.deck_estimate,
            "schedule": [list(step) for step in system.schedule]},
        "shoes": shoes,
        "chunk": chunk,
    }


def _differences(a: dict[str, Any], b: dict[str, Any],
                 prefix: str = "") -> list[tuple[str, Any, Any]]:
    """The settings that differ, as (dotted name, there, here).

    >>> _differences({"seed": 1, "options": {"decks": 8}}, {"seed": 1, "options": {"decks": 6}})
    [('options.decks', 8, 6)]
    """
    out: list[tuple[str, Any, Any]] = []
    for key in sorted(set(a) | set(b)):
        x, y = a.get(key), b.get(key)
        if isinstance(x, dict) and isinstance(y, dict):
            out += _differences(x, y, f"{prefix}{key}.")
        elif x != y:
            out.append((f"{prefix}{key}", x, y))
    return out


def _but_shoes(settings: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in settings.items() if k != "shoes"}


def _grown(folder: Path, there: Any, here: int) -> bool:
    """True when the study asks for more shoes than the folder's (it grows); fewer are
    refused: the figures of the shoes dealt cannot be taken apart again."""
    if not isinstance(there, int) or isinstance(there, bool):
        raise FolderError(f"--resume {_shown(folder)}: a damaged (or foreign) study folder: "
                          "study.json is not the record of a lucky9-odds study")
    if here < there:
        raise FolderError(f"--resume {_shown(folder)}: the study there has {there:,} shoes, "
                          f"not {here:,}: a study can grow (--shoes more), not shrink")
    return here > there


def read_settings(path: str | Path) -> dict[str, Any]:
    """The settings a save folder's study.json holds (the study's command line, as data),
    checked to be a study's record; for ``--resume DIR`` with options left out.

    >>> import tempfile
    >>> root = tempfile.mkdtemp()
    >>> _ = StudyFolder.create(root + "/s", {"chunk": 64, "shoes": 10})
    >>> read_settings(root + "/s")
    {'chunk': 64, 'shoes': 10}
    """
    settings: dict[str, Any] = _record(Path(path))["settings"]
    return settings


def _record(folder: Path) -> dict[str, Any]:
    """The record a save folder's study.json holds, checked to be a lucky9-odds study's."""
    if not str(folder).strip():
        raise FolderError("--resume: an empty path is not a folder name (give the study's folder)")
    if not folder.is_dir():
        raise FolderError(f"--resume {_shown(folder)}: no such folder "
                          "(start a study with --save)")
    meta = folder / "study.json"
    if not meta.is_file():
        raise FolderError(f"--resume {_shown(folder)}: the folder holds no study "
                          "(no study.json; start one with --save)")
    text = read_text(meta, MAX_SETTINGS, "study file", FolderError)
    try:
        check_nesting(text, "study.json")  # before json recurses (RecursionError)
        record = json.loads(text)
        if (not isinstance(record, dict) or not isinstance(record.get("settings"), dict)
                or record.get("format") != FORMAT or record.get("program") != "lucky9-odds"):
            raise TypeError
    except (ValueError, KeyError, TypeError, RecursionError):
        raise FolderError(f"--resume {_shown(folder)}: a damaged (or foreign) study folder: "
                          "study.json is not the record of a lucky9-odds study") from None
    return record


def _shown(folder: Path) -> str:
    return excerpt(str(folder), 120)


@dataclass
class StudyFolder:
    """An open save folder: its checkpoint and the chunk files beyond it.

    Use :meth:`create` (a new study: the folder is missing or empty) or
    :meth:`resume` (the folder holds this very study).
    """

    path: Path
    chunk: int
    next: int = 0  # first shoe not folded into total.npz
    total_written: bool = False

    # -- opening -------------------------------------------------------------

    @classmethod
    def create(cls, path: str | Path, settings: dict[str, Any]) -> StudyFolder:
        """A new save folder for a study with these settings.

        >>> import tempfile
        >>> folder = StudyFolder.create(tempfile.mkdtemp() + "/s", {"chunk": 64, "shoes": 10})
        >>> sorted(os.listdir(folder.path))
        ['study.json']
        """
        if not str(path).strip():
            raise FolderError("--save: an empty path is not a folder name (give a new folder)")
        folder = Path(path)
        if folder.exists() and not folder.is_dir():
            raise FolderError(f"--save {_shown(folder)}: not a folder")
        if folder.is_dir() and any(folder.iterdir()):
            if (folder / "study.json").exists():
                raise FolderError(f"--save {_shown(folder)}: the folder already holds a study; "
                                  "continue it with --resume, or give a new folder")
            raise FolderError(f"--save {_shown(folder)}: the folder is not empty; "
                              "give a new or empty folder")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise FolderError(f"--save {_shown(folder)}: cannot make the folder: "
                              f"{exc.strerror or exc}") from None
        cls._check_writable(folder, "--save")
        record = {"format": FORMAT, "program": "lucky9-odds", **code_identity(),
                  "settings": settings}
        write_file(folder / "study.json", json.dumps(record, indent=1, sort_keys=True) + "\n")
        return cls(folder, int(settings["chunk"]))

    @classmethod
    def resume(cls, path: str | Path, settings: dict[str, Any]) -> StudyFolder:
        """The save folder of a stopped study with exactly these settings.

        Refused, with the reason, when the folder is missing, not writable,
        damaged, or made by another command line or another version.
        """
        if not str(path).strip():
            raise FolderError("--resume: an empty path is not a folder name (give the study's folder)")
        folder = Path(path)
        record = _record(folder)
        saved = record["settings"]
        here = code_identity()
        if (record.get("version"), record.get("code")) != (here["version"], here["code"]):
            raise FolderError(
                f"--resume {_shown(folder)}: the study was made by lucky9-odds "
                f"{record.get('version')} (code {record.get('code')}), this is "
                f"{here['version']} (code {here['code']}); resume it with that version")
        if _but_shoes(saved) != _but_shoes(settings):
            shown = "; ".join(f"{k}: {excerpt(a, 60)} there, {excerpt(b, 60)} here"
                              for k, a, b in _differences(_but_shoes(saved),
                                                          _but_shoes(settings))[:3])
            raise FolderError(f"--resume {_shown(folder)}: the folder holds a study made by "
                              f"another command line ({shown}); give the same options")
        grown = _grown(folder, saved.get("shoes"), settings["shoes"])
        cls._check_writable(folder, "--resume")
        out = cls(folder, int(settings["chunk"]))
        total = folder / "total.npz"
        if total.exists():
            out.total_written = True
            out.next = int(out._load(total)[1])
        for first in out.saved():  # every file loads, or the study is refused now
            out.load_chunk(first)
        if grown:  # only once every file is known good: a refusal changes nothing
            out._grow(record, settings)
        return out

    def _grow(self, record: dict[str, Any], settings: dict[str, Any]) -> None:
        """The study asks for more shoes than the folder's: its short last chunk (if any)
        goes, to be dealt whole, and study.json says the new number of shoes."""
        old = int(record["settings"]["shoes"])
        if old % self.chunk:
            short = self._chunk_path(old - old % self.chunk)
            if short.exists():
                os.unlink(short)
        write_file(self.path / "study.json",
                   json.dumps({**record, "settings": settings}, indent=1, sort_keys=True) + "\n")

    @staticmethod
    def _check_writable(folder: Path, flag: str) -> None:
        """Write and remove a probe file: the folder is writable, really (root included)."""
        try:
            with AtomicFile(folder / ".probe") as f:
                f.write(b"")
            os.unlink(folder / ".probe")
        except (OSError, ValueError) as exc:
            raise FolderError(f"{flag} {_shown(folder)}: the folder is not writable "
                              f"({exc})") from None

    # -- chunks and checkpoint -----------------------------------------------

    def _chunk_path(self, first: int) -> Path:
        return self.path / f"chunk-{first:010d}.npz"

    def saved(self) -> list[int]:
        """First shoes of the chunk files beyond the checkpoint, in order."""
        out = []
        for entry in os.listdir(self.path):
            if entry.startswith("chunk-") and entry.endswith(".npz"):
                digits = entry[len("chunk-"):-len(".npz")]
                if digits.isdigit() and int(digits) % self.chunk == 0:
                    first = int(digits)
                    if first >= self.next:
                        out.append(first)
        return sorted(out)

    def write_chunk(self, first: int, sums: ChunkSums) -> None:
        """Save one finished chunk, whole or not at all."""
        self._save(self._chunk_path(first), sums, first)

    def load_chunk(self, first: int) -> ChunkSums:
        """The sums of a saved chunk (refused with the file's name if damaged)."""
        return self._load(self._chunk_path(first))[0]

    def write_total(self, total: ChunkSums, next_first: int) -> None:
        """Checkpoint: the fold of every chunk before ``next_first``; then drop their files."""
        self._save(self.path / "total.npz", total, next_first)
        self.total_written = True
        self.next = next_first
        for entry in os.listdir(self.path):
            if entry.startswith("chunk-") and entry.endswith(".npz"):
                digits = entry[len("chunk-"):-len(".npz")]
                if digits.isdigit() and int(digits) < next_first:
                    try:
                        os.unlink(self.path / entry)
                    except FileNotFoundError:
                        pass

    def load_total(self) -> ChunkSums | None:
        """The checkpoint's sums, or None before the first checkpoint."""
        if not self.total_written:
            return None
        return self._load(self.path / "total.npz")[0]

    @staticmethod
    def _save(path: Path, sums: ChunkSums, first: int) -> None:
        """One .npz of a few arrays: every moment sum in one, each histogram sparse."""
        names: dict[str, list[Any]] = {"s": [], "r": [], "h": []}
        values: dict[str, list[np.ndarray]] = {"s": [], "r": [], "h": [], "i": []}
        for tag, part in (("s", sums.per_shoe), ("r", sums.per_round)):
            for k, v in part.items():
                names[tag].append([k, len(v)])
                values[tag].append(v)
        for k, v in sums.hist.items():
            # 100,002 bins a bet, nearly all 0; whole counts, exact either way.
            where = np.flatnonzero(v)
            names["h"].append([k, len(where), len(v)])
            values["h"].append(v[where])
            values["i"].append(where.astype(np.int64))
        index = json.dumps(names).encode()
        arrays = {"first": np.array([first], dtype=np.int64), "rounds": sums.rounds,
                  "index": np.frombuffer(index, dtype=np.uint8)}
        for tag, parts in values.items():
            arrays[tag] = np.concatenate(parts) if parts else np.zeros(
                0, dtype=np.int64 if tag == "i" else np.float64)
        with AtomicFile(path) as f:
            np.savez(f.handle, **arrays)  # type: ignore[arg-type]

    @staticmethod
    def _load(path: Path) -> tuple[ChunkSums, int]:
        def damaged(why: str) -> FolderError:
            return FolderError(f"--resume: {_shown(path)} is damaged ({why}); delete it to "
                               "deal its shoes again")

        try:
            if os.path.getsize(path) > MAX_CHUNK_FILE:
                raise damaged(f"over {MAX_CHUNK_FILE:,} bytes")
            with open(path, "rb") as handle:
                data = np.load(handle, allow_pickle=False)
                if not isinstance(data, np.lib.npyio.NpzFile):
                    raise damaged("not an .npz archive")
                with data:
                    arrays = {k: np.asarray(data[k]) for k in data.files}
        except FolderError:
            raise
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error) as exc:
            raise damaged(str(exc) or type(exc).__name__) from None
        want = {"first": np.int64, "rounds": np.float64, "index": np.uint8, "s": np.float64,
                "r": np.float64, "h": np.float64, "i": np.int64}
        if set(arrays) != set(want) or any(arrays[k].dtype != t or arrays[k].ndim != 1
                                           for k, t in want.items()):
            raise damaged("not the arrays of a chunk")
        first, rounds = arrays["first"], arrays["rounds"]
        if first.shape != (1,) or rounds.shape != (5,):
            raise damaged("the shoe counts are missing")
        try:
            names = json.loads(arrays["index"].tobytes())
            out = ChunkSums(rounds.astype(np.float64))
            for tag, target in (("s", out.per_shoe), ("r", out.per_round)):
                at = 0
                for key, n in names[tag]:
                    if not isinstance(key, str) or not isinstance(n, int) or n < 0:
                        raise ValueError
                    target[key] = arrays[tag][at:at + n].copy()
                    if len(target[key]) != n:
                        raise ValueError
                    at += n
                if at != len(arrays[tag]):
                    raise ValueError
            at = 0
            for key, n, size in names["h"]:
                if not (isinstance(key, str) and isinstance(n, int) and isinstance(size, int)
                        and 0 <= n <= size <= MAX_BINS):
                    raise ValueError
                where, counts = arrays["i"][at:at + n], arrays["h"][at:at + n]
                if len(where) != n or (n and not 0 <= int(where.min()) <= int(where.max())
                                       < size):
                    raise ValueError
                hist = np.zeros(size, dtype=np.float64)
                hist[where] = counts
                out.hist[key] = hist
                at += n
            if at != len(arrays["h"]) or at != len(arrays["i"]):
                raise ValueError
        except (ValueError, TypeError, KeyError):
            raise damaged("its index does not match its arrays") from None
        return out, int(first[0])
