"""The canonical six-card rank sequences, dealt once under a profile's drawing rules.

The batch engine (:mod:`odds.exact.batch`) counts a round's ordered six-card
deals as ``W(c) @ T``: a composition's weights times, per rank multiset, how
many of its orderings lead to each outcome.  Its rows are not the 18,564
rank multisets of six cards but their 6,063 classes under permutations of
the four zero-point ranks (10, J, Q, K), which only differ by which of them
pair up, so T is the same on a class (:func:`row_classes`).

This module holds the rows and the one enumeration behind every table of
the engine: :func:`dealt_bands` deals the 1.4 million ordered rank
sequences whose faces are canonical (a class's representative) under the
profile's drawing rules (:func:`odds.exact.deal.draw_arrays`), band by
band; the rules table (:mod:`odds.exact.batch`), the columns of any bet
(:mod:`odds.exact.bet_table`) and the verifier's marginals are bins of it.
Slots are in deal order, player 1, bank 1, player 2, bank 2, then the
third-card slots; an unused third-card slot is filled all the same, as
:mod:`odds.exact.engine` pads, so every count is one of full six-card orderings.

>>> from odds.rules.profiles import BUILTIN
>>> len(row_classes().codes)
6063
>>> band = next(dealt_bands(BUILTIN["standard"]))
>>> band.ranks.shape[0], bool(band.player_draws.any())
(6, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement

import numpy as np

from odds.exact.deal import draw_arrays
from odds.exact.results import OutcomeKey
from odds.rules.cards import POINTS
from odds.rules.profile import Profile
from odds.rules.settle import category_table

__all__ = ["BAND", "FACES", "FACE_COUNTS", "INDEX_BITS", "NONFACE", "SLOTS", "DealtBand",
           "RowClasses", "category_codes", "dealt_bands", "multisets", "orderings",
           "reachable_keys", "row_classes"]

SLOTS = 6
NONFACE = 9  # ranks A..9: one rank per point value
FACES = 4  # ranks 10, J, Q, K: all worth 0
FACE_COUNTS = 7  # a rank appears 0..6 times in six cards


def multisets(ranks: int, sizes: range) -> list[tuple[int, ...]]:
    """Count vectors of the multisets of the given sizes, by size then lexicographically."""
    out = []
    for k in sizes:
        for combo in combinations_with_replacement(range(ranks), k):
            counts = [0] * ranks
            for r in combo:
                counts[r] += 1
            out.append(tuple(counts))
    return out


@dataclass(frozen=True)
class RowClasses:
    """The row classes: rank multisets of six cards up to permuting the faces.

    A class is a multiset of non-face ranks (``nonface``) and a partition of
    the face cards into at most four non-increasing parts (``partition``);
    its canonical representative gives the faces in that order to 10, J, Q, K.
    """

    codes: np.ndarray  # base-7 code of each canonical representative, sorted
    nonface_index: np.ndarray  # row -> index into nonface multisets
    partition_index: np.ndarray  # row -> index into partitions
    nonface: list[tuple[int, ...]]  # multisets of 0..6 cards over ranks A..9
    partitions: list[tuple[int, ...]]  # face partitions, length 4


@lru_cache(maxsize=1)
def row_classes() -> RowClasses:
    nonface = multisets(NONFACE, range(SLOTS + 1))
    nonface_at = {m: i for i, m in enumerate(nonface)}
    partitions = sorted({
        tuple(sorted(m, reverse=True)) for m in multisets(FACES, range(SLOTS + 1))
    })
    partition_at = {p: i for i, p in enumerate(partitions)}
    rows = []
    for counts in multisets(NONFACE + FACES, range(SLOTS, SLOTS + 1)):
        faces = counts[NONFACE:]
        if list(faces) == sorted(faces, reverse=True):
            code = sum(c * FACE_COUNTS**r for r, c in enumerate(counts))
            rows.append((code, nonface_at[counts[:NONFACE]], partition_at[faces]))
    rows.sort()
    return RowClasses(
        codes=np.array([r[0] for r in rows], dtype=np.int64),
        nonface_index=np.array([r[1] for r in rows], dtype=np.intp),
        partition_index=np.array([r[2] for r in rows], dtype=np.intp),
        nonface=nonface,
        partitions=partitions,
    )


INDEX_BITS = 23  # a sequence's index, its six ranks read in base 13, is below 13**6 < 2**23


def _sequences() -> np.ndarray:
    """The ordered rank sequences of six cards whose faces are canonical, with their rows.

    A sequence counts for its class when its face ranks appear in
    non-increasing number 10 >= J >= Q >= K: the class's representative.
    Returns one int64 per sequence, ``row << INDEX_BITS | index`` (index: its
    ranks in base 13, first card most significant; :func:`_ranks` reads them
    back), sorted: by row, so that the build can fill the table a band of rows
    at a time.  1.4 million sequences: 11 MB, built with a peak some 23 MB
    above its classes (as ranks with their rows and a stable sort by row it
    was 74 MB; joining 13 parts, 44 MB).  Made for each build (0.3 s), not
    kept: held in the process after a build, it left the batch products 40%
    slower (measured, 5,600 against 9,400 compositions a second; the cause is
    in the allocator, not in the product), and a process builds a table per
    rule set at most once.
    """
    classes = row_classes()
    power = FACE_COUNTS ** np.arange(13, dtype=np.int64)
    grid = np.indices((13,) * (SLOTS - 1), dtype=np.int8).reshape(SLOTS - 1, -1)
    rest = np.zeros(grid.shape[1], dtype=np.int64)  # the code of cards 2..6
    faces = np.zeros((FACES, grid.shape[1]), dtype=np.int8)  # how many of each face in them
    for slot in grid:
        rest += power[slot]
        for f in range(FACES):
            faces[f] += slot == NONFACE + f
    del grid

    def kept(first: int) -> np.ndarray:
        """The sequences (of cards 2..6) whose faces are canonical after ``first``."""
        keep = np.ones(len(rest), dtype=bool)
        for f in range(FACES - 1):  # each face at least as often as the next: 10 >= J >= Q >= K
            keep &= faces[f] + (first == NONFACE + f) >= faces[f + 1] + (first == NONFACE + f + 1)
        return keep

    # Counted first, then written in place: no parts to join (that held both, 22 MB).
    packed = np.empty(sum(int(np.count_nonzero(kept(first))) for first in range(13)),
                      dtype=np.int64)
    at = 0
    for first in range(13):
        index = np.flatnonzero(kept(first))
        row = np.searchsorted(classes.codes, rest[index] + power[first])
        packed[at:at + len(index)] = (row << INDEX_BITS) | (index + first * len(rest))
        at += len(index)
    packed.sort()
    return packed


def _ranks(packed: np.ndarray) -> np.ndarray:
    """The (6, n) ranks of packed sequences (see :func:`_sequences`)."""
    index = packed & ((1 << INDEX_BITS) - 1)
    ranks = np.empty((SLOTS, len(packed)), dtype=np.int8)
    for slot in range(SLOTS - 1, -1, -1):
        index, ranks[slot] = np.divmod(index, 13)
    return ranks


def category_codes(profile: Profile) -> tuple[list[str], np.ndarray]:
    """Category names (in order of first appearance) and the (pv, bv, pf, bf) -> index array.

    The numbered view of :func:`odds.rules.settle.category_table`, the one winner map.
    """
    names: list[str] = []
    cat = np.zeros((10, 10, 10, 10), dtype=np.int32)
    for pv, by_bank in enumerate(category_table(profile)):
        for bv, by_pf in enumerate(by_bank):
            for pf, row in enumerate(by_pf):
                for bf, (outcome, how) in enumerate(row):
                    name = f"{outcome.value}_{how}"
                    if name not in names:
                        names.append(name)
                    cat[pv, bv, pf, bf] = names.index(name)
    return names, cat


def reachable_keys(
    profile: Profile, names: list[str], cat: np.ndarray, colon: np.ndarray,
    player_draws: np.ndarray, bank_draws: np.ndarray,
) -> list[OutcomeKey]:
    """The outcome keys some sequence reaches, in code order.

    The six slots take any ranks independently, so a key is reachable when
    its two-card hands are and its category follows from some third cards.
    """
    hands = {(int(POINTS[a] + POINTS[b]) % 10, int(colon[a, b]))
             for a in range(13) for b in range(13)}
    keys = []
    for pv, pcol in hands:
        for bv, bcol in hands:
            cats = set()
            for x in range(10):
                drew = bool(player_draws[pv, bv])
                pf = (pv + x) % 10 if drew else pv
                for y in range(10):
                    bf = (bv + y) % 10 if bank_draws[pv, bv, x if drew else 10] else bv
                    cats.add(int(cat[pv, bv, pf, bf]))
            keys += [(pv, bv, pcol, bcol, c) for c in cats]
    return [(pv, bv, pcol, bcol, names[c]) for pv, bv, pcol, bcol, c in sorted(keys)]


BAND = 32_768  # sequences per band of the build (its temporaries: about 4 MB)


@dataclass(frozen=True)
class DealtBand:
    """A band of the canonical rank sequences, dealt under a profile's drawing rules.

    ``ranks`` (6, n) rank indices in slot order (P B P B, then the third-card
    slots); ``row`` each sequence's row class; ``first``/``last`` the band's
    rows; ``points`` their point values; ``pv``/``bv`` two-card values;
    ``player_draws``/``bank_draws`` whether each hand takes a third card.
    """

    ranks: np.ndarray
    row: np.ndarray
    first: int
    last: int
    points: np.ndarray
    pv: np.ndarray
    bv: np.ndarray
    player_draws: np.ndarray
    bank_draws: np.ndarray


def dealt_bands(profile: Profile) -> Iterator[DealtBand]:
    """The 1.4 million canonical sequences in bands of :data:`BAND`, each dealt once:
    the one enumeration behind the rules table and every bet's columns."""
    points = np.array(POINTS, dtype=np.int8)  # small types: 1.4 million sequences
    player_draws, bank_draws = draw_arrays(profile)
    packed = _sequences()
    for start in range(0, len(packed), BAND):
        band = packed[start:start + BAND]
        s = _ranks(band)
        row = band >> INDEX_BITS
        pt = points[s]
        pv = (pt[0] + pt[1]) % 10
        bv = (pt[2] + pt[3]) % 10
        pd = player_draws[pv, bv]
        bd = bank_draws[pv, bv, np.where(pd, pt[4], 10)]
        yield DealtBand(s, row, int(row[0]), int(row[-1]) + 1, pt, pv, bv, pd, bd)


def orderings() -> np.ndarray:
    """Per row class, the orderings of its rank multiset: ``6! / prod(m_r!)``."""
    codes = row_classes().codes
    counts = (codes[:, None] // FACE_COUNTS ** np.arange(13, dtype=np.int64)) % FACE_COUNTS
    factorials = np.array([math.factorial(m) for m in range(FACE_COUNTS)], dtype=np.int64)
    out: np.ndarray = math.factorial(SLOTS) // factorials[counts].prod(axis=1)
    return out
