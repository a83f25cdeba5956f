"""The disk cache of a plain round's counts: the same result, hits, damaged and stale files, off.

Every test points ``XDG_CACHE_HOME`` at its own temporary folder, and counts
the engine's calls, so a hit is one the engine did not answer.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from odds.exact import round_cache
from odds.exact.engine import round_odds
from odds.exact.results import RoundOdds
from odds.exact.round_cache import round_key, round_odds_cached
from odds.rules.profiles import BUILTIN
from odds.rules.shoe import Shoe

STANDARD = BUILTIN["standard"]
ONE = Shoe.packs_of(1)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("LUCKY9_NO_CACHE", raising=False)
    yield tmp_path / "lucky9-odds"


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The profiles the engine counted (not read from the cache), in order."""
    calls: list[str] = []

    def counting(profile: Any, *args: Any, **kwargs: Any) -> RoundOdds:
        calls.append(profile.key)
        return round_odds(profile, *args, **kwargs)

    monkeypatch.setattr(round_cache, "round_odds", counting)
    return calls


def same(a: RoundOdds, b: RoundOdds) -> bool:
    """Field by field (RoundOdds compares by identity), the outcomes in the same order."""
    return all(getattr(a, f.name) == getattr(b, f.name)
               and type(getattr(a, f.name)) is type(getattr(b, f.name))
               for f in dataclasses.fields(a)) and list(a.outcome_counts) == list(b.outcome_counts)


@pytest.mark.parametrize("key", ["standard", "punto-banco", "super9"])
@pytest.mark.parametrize("shoe", [ONE, Shoe.infinite_shoe()], ids=["1 pack", "inf"])
def test_a_hit_is_the_engines_result(cache: Path, counted: list[str], key: str,
                                     shoe: Shoe) -> None:
    exact = round_odds(BUILTIN[key], shoe)
    first = round_odds_cached(BUILTIN[key], shoe)
    second = round_odds_cached(BUILTIN[key], shoe)
    assert counted == [key]  # the second came from the disk
    assert same(exact, first) and same(exact, second)
    assert len(list(cache.glob("round-*.json"))) == 1


def test_a_condition_goes_to_the_engine(cache: Path, counted: list[str]) -> None:
    result = round_odds_cached(STANDARD, ONE, player="8h 7s")
    assert same(result, round_odds(STANDARD, ONE, player="8h 7s"))
    round_odds_cached(STANDARD, ONE, bank_total=3)
    assert counted == ["standard", "standard"] and not cache.exists()


def test_turned_off_reads_and_writes_nothing(cache: Path, counted: list[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    round_odds_cached(STANDARD, ONE)
    monkeypatch.setenv("LUCKY9_NO_CACHE", "1")
    round_odds_cached(STANDARD, ONE)
    assert counted == ["standard", "standard"]


def test_the_key_tells_rules_and_shoes_apart() -> None:
    keys = {json.dumps(round_key(p, s), sort_keys=True)
            for p in (STANDARD, STANDARD.with_options(colon_match="value"))
            for s in (ONE, Shoe.packs_of(2), Shoe.infinite_shoe(), ONE.without("Ah"))}
    assert len(keys) == 8


def damage_counts(entry: dict[str, Any]) -> None:
    """Move one deal from one outcome to another: the sums still hold, the digest not."""
    rows = entry["counts"]["outcome_counts"]
    rows[0][-1] += 1
    rows[1][-1] -= 1


def forge_counts(entry: dict[str, Any]) -> None:
    """A wrong total with a matching digest: the orderings check refuses it."""
    entry["counts"]["total"] += 1
    entry["digest"] = round_cache._digest(entry["counts"])


def forge_finals(entry: dict[str, Any]) -> None:
    entry["counts"]["player_final_counts"][0] += 1
    entry["counts"]["player_final_counts"][1] -= 1
    entry["counts"]["player_final_counts"][2] = -5
    entry["digest"] = round_cache._digest(entry["counts"])


def other_key(entry: dict[str, Any]) -> None:
    entry["key"] = entry["key"].replace('"infinite":false', '"infinite":true')


@pytest.mark.parametrize("spoil", [damage_counts, forge_counts, forge_finals, other_key])
def test_a_spoilt_file_is_recounted_and_rewritten(cache: Path, counted: list[str],
                                                  spoil: Any) -> None:
    exact = round_odds_cached(STANDARD, ONE)
    (path,) = cache.glob("round-*.json")
    entry = json.loads(path.read_text())
    spoil(entry)
    path.write_text(json.dumps(entry))
    again = round_odds_cached(STANDARD, ONE)
    assert counted == ["standard", "standard"] and same(exact, again)
    assert round_odds_cached(STANDARD, ONE) is not None and counted == ["standard"] * 2


@pytest.mark.parametrize("content", [b"", b"{not json", b"[1, 2]", b"\xff\xfe", b'{"key": 1}'])
def test_an_unreadable_file_counts_as_missing(cache: Path, counted: list[str],
                                              content: bytes) -> None:
    exact = round_odds_cached(STANDARD, ONE)
    (path,) = cache.glob("round-*.json")
    path.write_bytes(content)
    assert same(exact, round_odds_cached(STANDARD, ONE)) and len(counted) == 2


def test_an_unwritable_folder_is_skipped(tmp_path: Path, counted: list[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))  # a file where the folder should be
    monkeypatch.delenv("LUCKY9_NO_CACHE", raising=False)
    assert same(round_odds_cached(STANDARD, ONE), round_odds(STANDARD, ONE))
    round_odds_cached(STANDARD, ONE)
    assert counted == ["standard", "standard"]
