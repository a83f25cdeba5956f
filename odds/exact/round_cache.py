"""A disk cache of a plain round's exact counts: ``lucky9 odds`` answered without recounting.

A round with no known cards and no given totals depends only on the rules
and the shoe, and its cold enumeration (:func:`odds.exact.engine.round_odds`)
is most of a plain ``lucky9 odds``'s time.  :func:`round_odds_cached` keeps
its integer counts in ``round-HASH.json`` beside the rules tables (the
folder :func:`odds.exact.cache_folder.cache_dir` names), HASH a SHA-256 of
the key: the profile's rule options, the shoe (counts per rank and whether
it is infinite), the package version, a format number and a digest of the
sources that count a round, so a stale entry is never looked up.

What is read is checked before it is used: the file repeats the key and a
SHA-256 of its counts, every count is a non-negative integer, and the
outcome counts, each hand's final values and the total all sum to the
number of six-card orderings the shoe has.  A file that fails a check, or
cannot be read, counts as missing: the round is counted exactly and the file
written again (whole or not at all, :mod:`odds.io.atomic`).  An unwritable
folder is skipped without a word, and ``LUCKY9_NO_CACHE=1`` turns the cache
off.  Any other question goes to the engine directly.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from odds._version import __version__
from odds.exact.cache_folder import cache_dir, entry_name
from odds.exact.results import RoundOdds
from odds.io.atomic import OutputError, WriteError, write_file
from odds.rules.cards import Card
from odds.rules.profile import Profile
from odds.rules.profiles import as_profile
from odds.rules.shoe import Shoe, as_shoe

__all__ = ["ROUND_FORMAT", "round_key", "round_odds_cached"]

ROUND_FORMAT = 1
# The modules whose code decides a round's counts: a change to any is a new key.
ROUND_SOURCES = ("odds.exact.engine", "odds.exact.results", "odds.exact.round_cache",
                 "odds.rules.settle", "odds.rules.cards", "odds.rules.draw", "odds.rules.profile",
                 "odds.rules.profiles", "odds.rules.rule_types", "odds.rules.shoe")
MAX_FILE = 1 << 20  # bytes: a round's entry is about 100 kB; a larger file is not ours


def round_odds_cached(
    profile: Profile | str,
    shoe: Shoe | int | str | None = None,
    *,
    player: Iterable[str | Card] | str = (),
    bank: Iterable[str | Card] | str = (),
    removed: Iterable[str | Card] | str = (),
    player_total: int | None = None,
    bank_total: int | None = None,
) -> RoundOdds:
    """:func:`~odds.exact.engine.round_odds`, the plain round's counts read from the disk cache.

    The same result, field by field, as ``round_odds`` with the same arguments.

    >>> round_odds_cached("standard", 8).player_colon
    Fraction(31, 415)
    """
    profile = as_profile(profile)
    shoe = as_shoe(shoe, profile.decks)
    conditions = any((_given(player), _given(bank), _given(removed),
                      player_total is not None, bank_total is not None))
    folder = cache_dir()
    if conditions or folder is None or not profile.fixed:
        return round_odds(profile, shoe, player=player, bank=bank, removed=removed,
                          player_total=player_total, bank_total=bank_total)
    key = round_key(profile, shoe)
    text = json.dumps(key, sort_keys=True, separators=(",", ":"))
    path = folder / f"{entry_name('round', key)}.json"
    counts = _load(path, text, _orderings(shoe))
    if counts is not None:
        return RoundOdds(profile=profile, shoe=shoe, player=(), bank=(), removed=(),
                         player_total=None, bank_total=None, **counts)
    result = round_odds(profile, shoe)
    _store(path, text, result)
    return result


def _given(cards: Iterable[str | Card] | str) -> bool:
    return bool(cards.strip()) if isinstance(cards, str) else bool(tuple(cards))


def round_key(profile: Profile, shoe: Shoe) -> dict[str, Any]:
    """What determines a plain round's counts, as JSON data: its cache key.

    >>> from odds.rules.profiles import BUILTIN
    >>> key = round_key(BUILTIN["standard"], Shoe.packs_of(8))
    >>> sorted(key), key["shoe"]["counts"][0], key["shoe"]["infinite"]
    (['format', 'rules', 'shoe', 'sources', 'version'], 32, False)
    """
    return {"format": ROUND_FORMAT, "version": __version__, "sources": _source_digest(),
            "rules": profile.options(),
            "shoe": {"counts": list(shoe.counts), "infinite": shoe.infinite}}


@lru_cache(maxsize=1)
def _source_digest() -> str:
    digest = hashlib.sha256()
    for name in ROUND_SOURCES:
        module = sys.modules.get(name)
        try:
            digest.update(Path(module.__file__ or "").read_bytes() if module else b"?")
        except OSError:
            digest.update(b"?")  # an unreadable source: still one key per code
    return digest.hexdigest()


def _orderings(shoe: Shoe) -> int:
    """The six-card orderings of a fresh round from ``shoe`` (what its counts must sum to).

    >>> _orderings(Shoe.packs_of(1)) == 52 * 51 * 50 * 49 * 48 * 47, _orderings(Shoe.infinite_shoe())
    (True, 19770609664)
    """
    n = sum(shoe.counts)
    return n**6 if shoe.infinite else math.perm(n, 6)


def round_odds(*args: Any, **kwargs: Any) -> RoundOdds:
    """:func:`odds.exact.engine.round_odds`, the engine imported only when a round is counted."""
    from odds.exact.engine import round_odds as count

    return count(*args, **kwargs)


def _payload(result: RoundOdds) -> dict[str, Any]:
    return {
        "total": result.total,
        "outcome_counts": [[*k, c] for k, c in result.outcome_counts.items()],  # in order
        "player_final_counts": list(result.player_final_counts),
        "bank_final_counts": list(result.bank_final_counts),
        "player_draw_count": result.player_draw_count,
        "bank_draw_count": result.bank_draw_count,
    }


def _digest(payload: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def _store(path: Path, text: str, result: RoundOdds) -> None:
    payload = _payload(result)
    entry = {"key": text, "digest": _digest(payload), "counts": payload}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_file(path, json.dumps(entry).encode())
    except (OSError, WriteError, OutputError):
        pass  # no cache: the same result, only slower next time


def _load(path: Path, text: str, orderings: int) -> dict[str, Any] | None:
    """The RoundOdds counts stored at ``path``, if it is there, whole and passes the checks."""
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_FILE + 1)
        entry = json.loads(raw) if len(raw) <= MAX_FILE else None
    except (OSError, ValueError):
        return None
    if (not isinstance(entry, dict) or entry.get("key") != text
            or not isinstance(entry.get("counts"), dict)
            or entry.get("digest") != _digest(entry["counts"])):
        return None
    return _checked(entry["counts"], orderings)


def _checked(payload: dict[str, Any], orderings: int) -> dict[str, Any] | None:
    """The payload as RoundOdds fields if its counts add up to ``orderings``; else None."""
    def count(x: Any) -> bool:
        return type(x) is int and x >= 0

    try:
        rows = payload["outcome_counts"]
        finals = [tuple(payload[f"{who}_final_counts"]) for who in ("player", "bank")]
        drew = [payload[f"{who}_draw_count"] for who in ("player", "bank")]
        total = payload["total"]
        outcomes = {}
        for pv, bv, pcol, bcol, cat, c in rows:
            if not (all(type(v) is int and 0 <= v <= 9 for v in (pv, bv, pcol, bcol))
                    and isinstance(cat, str) and count(c)):
                return None
            outcomes[pv, bv, pcol, bcol, cat] = c
    except (KeyError, TypeError, ValueError):
        return None
    if (total != orderings or len(outcomes) != len(rows) or sum(outcomes.values()) != total
            or any(len(f) != 10 or not all(map(count, f)) or sum(f) != total for f in finals)
            or not all(count(d) and d <= total for d in drew)):
        return None
    return {"total": total, "outcome_counts": outcomes, "player_final_counts": finals[0],
            "bank_final_counts": finals[1], "player_draw_count": drew[0],
            "bank_draw_count": drew[1]}
