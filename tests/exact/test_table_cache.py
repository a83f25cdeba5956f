"""The disk cache of rules tables: hits, damaged and stale files, the key, turned off, unwritable.

Every test points ``XDG_CACHE_HOME`` at its own temporary folder (never the
real home) and empties the in-memory cache around itself, so that each
``rules_table`` call goes to the disk cache.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from odds.exact import batch as batch_module
from odds.exact.batch import TABLE_OPTIONS, RulesTable, clear_tables, rules_table, table_key
from odds.exact.table_cache import cache_dir
from odds.rules.options import OPTIONS
from odds.rules.profile import Profile
from odds.rules.profiles import BUILTIN
from odds.rules.shoe import Shoe
from tests.batch_check import assert_same

STANDARD = BUILTIN["standard"]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh cache folder; the in-memory cache emptied before and after."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("LUCKY9_NO_CACHE", raising=False)
    clear_tables()
    yield tmp_path / "lucky9-odds"
    clear_tables()


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The profiles whose table is built (not read from disk), in order."""
    built: list[str] = []
    real = batch_module._build

    def counting(profile: Profile) -> object:
        built.append(profile.key)
        return real(profile)

    monkeypatch.setattr(batch_module, "_build", counting)
    return built


def fresh(profile: Profile = STANDARD) -> RulesTable:
    """The table as a new process would get it: not from memory."""
    clear_tables()
    return rules_table(profile)


def table_digest(table: RulesTable) -> tuple[Any, ...]:
    """What :func:`same_table` compares, with the arrays as digests: a table need not be held
    while another is built (that raised a test's peak by 20 MB)."""
    return digest((table.keys, table.summary_keys, table.product, table.scatter))


def same_table(a: RulesTable, b: RulesTable) -> bool:
    return (a.keys == b.keys and a.summary_keys == b.summary_keys
            and np.array_equal(a.product, b.product) and a.product.dtype == b.product.dtype
            and np.array_equal(a.scatter, b.scatter))


def digest(parts: tuple[Any, ...]) -> tuple[Any, ...]:
    """A built table's parts, its arrays as dtype, shape and SHA-256 (not 15 MB kept per table)."""
    keys, summary_keys, product, scatter = parts
    return (keys, summary_keys, *((a.dtype, a.shape, hashlib.sha256(a.tobytes()).hexdigest())
                                  for a in (product, scatter)))


def files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*")) if folder.exists() else []


def test_built_once_then_read(cache: Path, builds: list[str]) -> None:
    built = fresh()
    assert builds == ["standard"] and len(files(cache)) == 1
    assert files(cache)[0].name.startswith("rules-table-") and files(cache)[0].suffix == ".npz"
    read = fresh()
    assert builds == ["standard"]  # read from disk, not built again
    assert same_table(built, read)
    # The table read back gives the engine's figures, every field.
    batch = read.counts([[4] * 13, [3, 4, 4, 4, 4, 4, 4, 4, 2, 4, 4, 4, 1]], full=True)
    assert_same(batch, 0, Shoe.packs_of(1))
    assert_same(batch, 1, Shoe((3, 4, 4, 4, 4, 4, 4, 4, 2, 4, 4, 4, 1)))


def test_profiles_that_differ_in_pay_share_a_table(cache: Path, builds: list[str]) -> None:
    fresh(STANDARD)
    fresh(BUILTIN["plain"])  # standard without the Colon bonus: the same rules table
    fresh(STANDARD.with_options(colon_match="value"))
    assert builds == ["standard", "standard"] and len(files(cache)) == 2


def test_memory_holds_the_last_rule_sets(monkeypatch: pytest.MonkeyPatch) -> None:
    """About 15 MB a table: memory keeps the last HELD rule sets, the newest used last.

    What is kept is the question, not the table: a stand-in build (four real
    builds raised this test process's peak by 13 MB and took 3 s).
    """
    monkeypatch.setenv("LUCKY9_NO_CACHE", "1")
    builds: list[str] = []

    def stand_in(profile: Profile) -> tuple[object, ...]:
        builds.append(profile.key)
        return (), (), np.zeros((1, 1)), np.zeros(1, dtype=np.intp)

    monkeypatch.setattr(batch_module, "_build", stand_in)
    clear_tables()
    try:
        value = STANDARD.with_options(colon_match="value")
        compare = STANDARD.with_options(naturals="compare")
        assert batch_module.HELD == 2
        rules_table(STANDARD)
        rules_table(value)
        rules_table(BUILTIN["plain"])  # standard's rules: held, and now the newest
        rules_table(compare)  # pushes out the oldest, colon_match=value
        rules_table(STANDARD)
        assert builds == ["standard", "standard", "standard"]
        rules_table(value)
        assert builds == ["standard", "standard", "standard", "standard"]
        assert len(batch_module._HELD) == 2
    finally:
        clear_tables()


def test_nothing_else_keeps_a_table_alive() -> None:
    """Only the memory cache holds tables: a cache keyed by table (as the Colon amounts'
    was) kept up to 16 of them, 15 MB each, alive in a long-running process."""
    import gc

    from odds.exact.removal import removal

    clear_tables()
    try:
        for options in ({}, {"colon_match": "value"}, {"naturals": "compare"}):
            profile = STANDARD.with_options(**options)
            rules_table(profile).counts([[4] * 13]).ev_numerators("player")
            removal(profile, Shoe.packs_of(1))
        gc.collect()
        alive = {id(o.product) for o in gc.get_objects() if isinstance(o, RulesTable)}
        held = {id(parts[2]) for parts in batch_module._HELD.values()}
        assert alive <= held and len(held) == batch_module.HELD
    finally:
        clear_tables()


OUTSIDE_THE_KEY = {"decks": 3, "colon": "5", "colon_nine": "none", "bonus_on": "always",
                   "bank_bonus": True, "bank_colon": "4", "bank_colon_nine": "6", "win": "2",
                   "ties": "bank", "banker_pays": "19/20", "tie_pays": "8"}


def _same_table_built(names: list[str]) -> None:
    base = digest(batch_module._build(STANDARD))
    for name in names:
        other = STANDARD.with_options(**{name: OUTSIDE_THE_KEY[name]})
        assert digest(batch_module._build(other)) == base, name


@pytest.mark.slow  # a table built per option; the test below builds two
def test_every_option_outside_the_key_builds_the_same_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUCKY9_NO_CACHE", "1")
    _same_table_built(list(OUTSIDE_THE_KEY))


def test_options_outside_the_key_leave_the_table_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # The key leaves out every option but TABLE_OPTIONS: each of the others,
    # changed, must give the same table (built, not read): two of them here (a
    # pay and the packs), every one in the slow twin above.
    monkeypatch.setenv("LUCKY9_NO_CACHE", "1")
    changes = OUTSIDE_THE_KEY
    assert set(changes) | set(TABLE_OPTIONS) == {opt.name for opt in OPTIONS}
    for name, value in changes.items():
        other = STANDARD.with_options(**{name: value})
        assert table_key(other) == table_key(STANDARD), name
    _same_table_built(["decks", "banker_pays"])
    # And an option inside the key changes it.
    for name, value in {"naturals": "compare", "natural_values": "9", "naturals_stop_draws": True,
                        "player_draw": "0-4", "bank_draw": "0-6", "colon_match": "value"}.items():
        assert table_key(STANDARD.with_options(**{name: value})) != table_key(STANDARD), name


# garbage and a folder by default; the other damages in CI (slow)
@pytest.mark.parametrize("damage", ["garbage", *(pytest.param(d, marks=pytest.mark.slow)
                                                 for d in ("truncated", "flipped byte", "empty")),
                                    "folder"])
def test_damaged_file_is_rebuilt(cache: Path, builds: list[str], damage: str) -> None:
    good = table_digest(fresh())
    (path,) = files(cache)
    data = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"not a table")
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "flipped byte":  # in the product's data: the zip CRC catches it
        at = len(data) // 2
        path.write_bytes(data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1:])
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        path.unlink()
        path.mkdir()
    assert table_digest(fresh()) == good and builds == ["standard", "standard"]
    if damage != "folder":  # a folder in the way is left alone, and the table still built
        assert fresh() is not None and builds == ["standard", "standard"]  # the new file reads


def _rewrite(path: Path, change: str) -> None:
    """Write the stored arrays back with one change, as a valid .npz."""
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    if change == "product":
        arrays["product"][100, 0] += 1  # a whole file, a wrong count
    elif change == "key":
        arrays["key"] = np.array(str(arrays["key"]).replace('"format":1', '"format":0'))
    elif change == "scatter":
        arrays["scatter"][0] = arrays["product"].shape[1]
    elif change == "missing":
        del arrays["scatter"]
    elif change == "dtype":
        arrays["product"] = arrays["product"].astype(np.float64)
    with open(path, "wb") as f:
        np.savez(f, **arrays)


# product and key by default; the other changes in CI (slow)
@pytest.mark.parametrize("change", ["product", "key", *(pytest.param(c, marks=pytest.mark.slow)
                                                        for c in ("scatter", "missing", "dtype"))])
def test_wrong_content_is_rebuilt(cache: Path, builds: list[str], change: str) -> None:
    good = table_digest(fresh())
    (path,) = files(cache)
    _rewrite(path, change)
    assert table_digest(fresh()) == good and builds == ["standard", "standard"]


def test_a_pickle_is_never_loaded(cache: Path, builds: list[str]) -> None:
    fresh()
    (path,) = files(cache)
    with open(path, "wb") as f:
        np.save(f, np.array([object()], dtype=object), allow_pickle=True)
    fresh()
    assert builds == ["standard", "standard"]


def test_the_key_holds_the_version_and_the_sources(
    cache: Path, builds: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh()
    key = table_key(STANDARD)
    assert key is not None and key["version"] == batch_module.metadata.version("lucky9-odds")
    monkeypatch.setattr(batch_module.metadata, "version", lambda name: "99.0")
    assert table_key(STANDARD) != key
    fresh()  # another version: its own file, built
    assert builds == ["standard", "standard"] and len(files(cache)) == 2
    fresh()
    assert builds == ["standard", "standard"]
    monkeypatch.setattr(batch_module, "_source_digest", lambda: "edited")
    fresh()  # the same version, other sources: built again
    assert builds == ["standard"] * 3 and len(files(cache)) == 3


def test_no_version_no_disk_cache(
    cache: Path, builds: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def missing(name: str) -> str:
        raise batch_module.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(batch_module.metadata, "version", missing)
    assert table_key(STANDARD) is None
    fresh()
    fresh()
    assert builds == ["standard", "standard"] and files(cache) == []


@pytest.mark.parametrize("value", ["1", pytest.param("yes", marks=pytest.mark.slow)])  # yes: CI
def test_turned_off_by_the_environment(
    cache: Path, builds: list[str], monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    fresh()  # a stored table that must not be read
    monkeypatch.setenv("LUCKY9_NO_CACHE", value)
    assert cache_dir() is None
    fresh()
    fresh(BUILTIN["super9"])
    assert builds == ["standard", "standard", "super9"] and len(files(cache)) == 1
    monkeypatch.setenv("LUCKY9_NO_CACHE", "0")  # 0 or empty: on
    fresh()
    assert builds == ["standard", "standard", "super9"]


def test_xdg_cache_home_and_its_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("LUCKY9_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == tmp_path / "lucky9-odds"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "lucky9-odds"
    monkeypatch.setenv("XDG_CACHE_HOME", "not/absolute")  # the XDG spec: ignore it
    assert cache_dir() == tmp_path / "home" / ".cache" / "lucky9-odds"


def test_unwritable_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                           builds: list[str]) -> None:
    # A regular file where the cache folder's parent should be: no folder can
    # be made there, even by root.
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    monkeypatch.delenv("LUCKY9_NO_CACHE", raising=False)
    try:
        assert same_table(fresh(), fresh())
        assert builds == ["standard", "standard"]
    finally:
        clear_tables()


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores folder permissions")
def test_read_only_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                        builds: list[str]) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.delenv("LUCKY9_NO_CACHE", raising=False)
    home.chmod(0o555)
    try:
        fresh()
        assert builds == ["standard"] and list(home.iterdir()) == []
    finally:
        home.chmod(0o755)
        clear_tables()
