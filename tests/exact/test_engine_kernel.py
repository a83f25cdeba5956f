"""The engine's kernels (draw stage, shoe splitting) refuse rules they do not implement."""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odds.exact.engine import KnownCards, draw_leaves, pair_options, third_card_leaves
from odds.exact.rounds import read_cards
from odds.exact.shoe_follow import table_rounds
from odds.rules.errors import ProfileError
from odds.rules.profiles import BUILTIN
from odds.rules.shoe import Shoe
from tests.brute import _draws
from tests.examples import examples


def test_the_draw_stage_refuses_a_profile_where_players_choose() -> None:
    deal = KnownCards((4,) * 13, False, (), ())
    with pytest.raises(ProfileError, match="no fixed draw rule"):
        third_card_leaves(BUILTIN["family"], 3, 4, (16, 4, 4, 4, 4, 4, 4, 4, 4, 4), deal)


@pytest.mark.parametrize("key", ["family", "chemin-de-fer"])
def test_splitting_a_table_record_refuses_rules_where_a_side_chooses(key: str) -> None:
    # Chemin de fer's open cells: the cards alone do not say what the side chose.
    with pytest.raises(ValueError, match="no fixed draw rule"):
        table_rounds(BUILTIN[key], Shoe.packs_of(1), read_cards("9 5 2 K K 6 3"), 1)


def test_splitting_a_table_record_refuses_a_tableau_past_one_seat() -> None:
    with pytest.raises(ValueError, match="follow 1 seat"):
        table_rounds(BUILTIN["punto-banco"], Shoe.packs_of(1), read_cards("9 5 2 K K 6 3"), 2)


def test_one_seat_record_follows_the_bank_tableau() -> None:
    # Dealt P B P B: player 2 3 (5) draws an 8; bank 3 K (3) stands on a
    # player's third 8 under the tableau (read as if the player stood, it
    # would draw): the round is five cards.
    (r,) = table_rounds(BUILTIN["punto-banco"], Shoe.packs_of(1), read_cards("2 3 3 K 8"), 1)
    assert [c.rank.value for c in r.seats[0]] == ["2", "3", "8"]
    assert [c.rank.value for c in r.bank] == ["3", "K"]


# -- the one pair enumeration and the one draw stage, against brute force -------------

def _brute_pairs(counts: list[int], infinite: bool) -> Counter[tuple[int, int]]:
    """Ordered two-card draws, counted one by one, keyed by the sorted classes."""
    out: Counter[tuple[int, int]] = Counter()
    if infinite:
        for a, ca in enumerate(counts):
            for b, cb in enumerate(counts):
                if ca and cb:
                    out[min(a, b), max(a, b)] += ca * cb
        return out
    cards = [c for c, k in enumerate(counts) for _ in range(k)]
    for a, b in permutations(range(len(cards)), 2):
        x, y = cards[a], cards[b]
        out[min(x, y), max(x, y)] += 1
    return out


def _brute_leaves(profile, pv: int, bv: int, vc: list[int],  # type: ignore[no-untyped-def]
                  third: dict[str, int]) -> Counter[tuple[int | None, int | None]]:
    """Slots 5 and 6 dealt card by card from what is left, the rules read plainly."""
    nat = profile.naturals
    stop = profile.naturals_stop_draws and (pv in nat or bv in nat)
    cards = [v for v, k in enumerate(vc) for _ in range(k)]
    out: Counter[tuple[int | None, int | None]] = Counter()
    fixed = {5: third.get("s5"), 6: third.get("s6")}
    free = [s for s in (5, 6) if fixed[s] is None]
    for picks in permutations(range(len(cards)), len(free)):
        slot = dict(fixed)
        for s, i in zip(free, picks, strict=True):
            slot[s] = cards[i]
        p_draws = not stop and pv not in nat and _draws(profile.player_draw, pv, None)
        x = slot[5] if p_draws else None
        b_draws = not stop and bv not in nat and _draws(profile.bank_draw, bv, x)
        y = (slot[6] if p_draws else slot[5]) if b_draws else None
        out[x, y] += 1
    return out


@pytest.mark.parametrize("infinite", [False, True], ids=["finite", "infinite"])
def test_pair_options_against_brute_force(infinite: bool) -> None:
    for counts in ([2, 0, 1, 3], [1, 1], [4] * 13, [0, 2, 0]):
        got: Counter[tuple[int, int]] = Counter()
        for a, b, w, taken in pair_options(counts, (), infinite):
            assert a <= b and taken == (a, b) and w > 0
            got[a, b] += w
        assert got == _brute_pairs(counts, infinite)


@settings(max_examples=examples(40, 300), deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=10), st.booleans())
def test_pair_options_counts_every_ordered_pair(counts: list[int], infinite: bool) -> None:
    n = sum(counts)
    total = sum(w for *_, w, _ in pair_options(counts, (), infinite))
    assert total == (n * n if infinite else n * (n - 1))
    # One known card: the other is any card left, counted once each.
    if n:
        known = next(c for c, k in enumerate(counts) if k)
        assert sum(w for *_, w, _ in pair_options(counts, (known,), infinite)) == n


SMALL_VC = [2, 1, 0, 1, 1, 0, 1, 0, 1, 1]  # 8 cards left, by point value


@pytest.mark.parametrize("key", ["standard", "punto-banco", "super9", "forced-draw"])
def test_draw_leaves_against_brute_force(key: str) -> None:
    profile = BUILTIN[key]
    for pv in range(10):
        for bv in range(10):
            got = Counter({(x, y): c for x, y, c in
                           draw_leaves(profile, pv, bv, tuple(SMALL_VC), False)})
            assert +got == _brute_leaves(profile, pv, bv, SMALL_VC, {}), (pv, bv)


@settings(max_examples=examples(40, 300), deadline=None)
@given(st.sampled_from(["standard", "punto-banco", "super9", "plain"]), st.integers(0, 9),
       st.integers(0, 9), st.lists(st.integers(0, 2), min_size=10, max_size=10),
       st.sampled_from([{}, {"s5": 3}, {"s6": 0}, {"s5": 6, "s6": 7}]))
def test_draw_leaves_with_known_slots_against_brute_force(
        key: str, pv: int, bv: int, vc: list[int], third: dict[str, int]) -> None:
    if sum(vc) < 2:
        return
    profile = BUILTIN[key]
    got: Counter[tuple[int | None, int | None]] = Counter()
    for x, y, c in draw_leaves(profile, pv, bv, tuple(vc), False, third):
        got[x, y] += c
    assert +got == _brute_leaves(profile, pv, bv, vc, third)
