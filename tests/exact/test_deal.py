"""The deal layer (odds.exact.deal): one shuffle, rounds of 1 to N seats, vectorised dealing."""

from __future__ import annotations

import numpy as np
import pytest

from odds.exact.deal import (
    cut_position,
    deal_shoe,
    draw_arrays,
    round_lengths,
    shuffled_order,
    shuffled_orders,
    shuffled_ranks,
    shuffled_shoe,
)
from odds.exact.rounds import CardRecord, split_rounds
from odds.exact.shoe_follow import table_rounds
from odds.money.counting import deal_compositions
from odds.rules.draw import STOOD, who_draws
from odds.rules.errors import ProfileError
from odds.rules.profiles import BUILTIN
from odds.rules.shoe import Shoe

STANDARD = BUILTIN["standard"]


def test_the_shuffle_is_pcg64_seeded_with_seed_and_index() -> None:
    """The convention every study and `lucky9 shoe --seed` rest on (the docs' figures too)."""
    order = np.random.default_rng([2026, 3]).permutation(416).tolist()
    assert shuffled_order(416, 2026, 3) == order
    assert shuffled_ranks(8, 2026, 3) == [(c % 52) // 4 for c in order]
    # As the earlier odds.exact.rounds dealt them (pinned: a changed stream changes every study).
    assert shuffled_ranks(1, 7)[:12] == [2, 11, 6, 9, 12, 3, 4, 0, 6, 1, 4, 1]
    assert [str(c) for c in shuffled_shoe(1, 7)[:6]] == ["3h", "Qh", "7h", "10c", "Kd", "4c"]
    with pytest.raises(ValueError, match="the seed is a whole number"):
        shuffled_order(52, -1, 0)


@pytest.mark.parametrize("seed", [-1, True, 1.5, "7", None], ids=repr)
def test_the_shoes_of_a_seed_refuse_what_is_not_a_seed(seed: object) -> None:
    """shuffled_orders checks its seed as shuffled_order does (numpy would take -1 or 1.5)."""
    with pytest.raises(ValueError, match="the seed is a whole number, 0 or more"):
        shuffled_orders(52, seed, 0, 2)  # type: ignore[arg-type]
    assert shuffled_orders(52, 7, 3, 2).tolist() == [shuffled_order(52, 7, 3),
                                                      shuffled_order(52, 7, 4)]


def test_draw_arrays_are_the_draw_table() -> None:
    for key in ("standard", "punto-banco", "super9"):
        player, bank = draw_arrays(BUILTIN[key])
        for pv in range(10):
            for bv in range(10):
                assert bool(player[pv, bv]) == who_draws(BUILTIN[key], pv, bv)[0]
                for x in (None, *range(10)):
                    assert bool(bank[pv, bv, STOOD if x is None else x]) == who_draws(
                        BUILTIN[key], pv, bv, x)[1]


@pytest.mark.parametrize("seats", range(2, 9))
def test_rounds_of_n_seats_split_as_a_tables_record(seats: int) -> None:
    """round_lengths(seats=N) splits a shoe as odds.exact.shoe_follow.table_rounds does."""
    for seed in range(3):
        cards = shuffled_shoe(2, seed)
        lengths = round_lengths(STANDARD, [c.rank.index for c in cards],
                                stop=len(cards) - 3 * (seats + 1), seats=seats)
        used = cards[:sum(lengths)]
        record = CardRecord(used, tuple(range(1, len(used) + 1)))
        rounds = table_rounds(STANDARD, Shoe.packs_of(2), record, seats)
        assert [len(r.cards) for r in rounds] == lengths


def test_one_seat_is_the_heads_up_replay() -> None:
    for key in ("standard", "punto-banco", "ez-baccarat", "super9"):
        cards = shuffled_shoe(1, 11)
        ranks = [c.rank.index for c in cards]
        lengths = round_lengths(BUILTIN[key], ranks, stop=len(cards) - 5)
        rounds = split_rounds(BUILTIN[key], cards[:sum(lengths)])
        assert [len(r.cards) for r in rounds] == lengths


def test_several_seats_refuse_a_tableau() -> None:
    with pytest.raises(ProfileError, match="tableau"):
        round_lengths(BUILTIN["punto-banco"], shuffled_ranks(1, 1), seats=2)
    with pytest.raises(ValueError, match="seats: a table has 1 seat or more"):
        round_lengths(STANDARD, shuffled_ranks(1, 1), seats=0)


@pytest.mark.parametrize("burn", [0, 7])
def test_dealing_a_shoe_gives_what_the_player_knows(burn: int) -> None:
    packs, seed, index = 2, 5, 4
    stop = cut_position(104, 0.75)
    comps, slots = deal_shoe(STANDARD, packs, seed, index, stop=stop, burn=burn)
    ranks = shuffled_ranks(packs, seed, index)
    lengths = round_lengths(STANDARD, ranks, start=burn, stop=min(stop, 104 - 5))
    assert len(comps) == len(slots) == len(lengths)
    at = burn
    for k, n in enumerate(lengths):
        seen = np.bincount(ranks[burn:at], minlength=13)
        assert comps[k].tolist() == (4 * packs - seen).tolist()
        assert slots[k].tolist() == ranks[at:at + n] + [-1] * (6 - n)
        at += n
    # The study's compositions are these.
    assert np.array_equal(deal_compositions(STANDARD, packs, 0.75, seed, index, burn=burn), comps)


@pytest.mark.parametrize("packs", [0, -1, True, False, 2.0, "8", None])
def test_a_dealt_shoe_needs_a_whole_number_of_packs(packs) -> None:
    from odds.exact.deal import check_dealt_packs

    with pytest.raises(ValueError, match=f"a shoe needs at least 1 pack, not {packs!r}$"):
        check_dealt_packs(packs)


def test_a_dealt_shoe_has_1_to_100_packs() -> None:
    from odds.exact.deal import MAX_DEALT_PACKS, check_dealt_packs

    check_dealt_packs(1)
    check_dealt_packs(MAX_DEALT_PACKS)
    with pytest.raises(ValueError, match="at most 100 packs"):
        check_dealt_packs(MAX_DEALT_PACKS + 1)


def test_a_shoe_dealt_to_its_end_starts_no_round_with_fewer_than_six_cards() -> None:
    # With the cut card past the end (stop beyond the pack), rounds are dealt while six
    # cards are left: a round may need all six, so none starts on four or five.
    left = []
    for seed in range(40):
        comps, _ = deal_shoe(BUILTIN["standard"], 1, seed, 0, stop=60)
        sizes = comps.sum(axis=1)
        assert sizes.min() >= 6, (seed, sizes.tolist())
        left.append(int(sizes[-1]))
    assert min(left) == 6  # a shoe whose last round starts on exactly six cards


@pytest.mark.parametrize("penetration", [0, -0.5, 1.01, float("nan")])
def test_a_cut_card_outside_the_shoe_is_refused(penetration: float) -> None:
    with pytest.raises(ValueError, match="penetration must be more than 0 and at most 1"):
        cut_position(416, penetration)
    assert cut_position(416, 1) == 416 and cut_position(416, 1e-9) == 1


@pytest.mark.parametrize("packs", [0, 101, True])
def test_every_shuffle_of_a_dealt_shoe_checks_its_packs_first(packs) -> None:
    # A bad number of packs is refused before any shuffle (not an empty or a huge one).
    from odds.exact.deal import check_dealt_packs

    with pytest.raises(ValueError) as want:
        check_dealt_packs(packs)
    for shuffle in (shuffled_shoe, shuffled_ranks):
        with pytest.raises(ValueError) as got:
            shuffle(packs, 7)
        assert str(got.value) == str(want.value), shuffle.__name__
    with pytest.raises(ValueError) as got:
        deal_shoe(STANDARD, packs, 7, 0, stop=40)
    assert str(got.value) == str(want.value)
