"""Shoes: packs, the infinite shoe, compositions, and the cards a shoe can hold."""

from __future__ import annotations

import pytest

from odds import (
    BUILTIN,
    Shoe,
    parse_shoe,
    round_odds,
)


@pytest.mark.parametrize("counts", [(4,) * 12, (4,) * 14, (-1,) + (4,) * 12, (4,) * 12 + (-2,)],
                         ids=["12", "14", "negative-ace", "negative-king"])
def test_a_shoe_needs_13_non_negative_counts(counts: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="13 non-negative counts"):
        Shoe(counts)


def test_a_shoe_may_have_none_left_of_a_rank() -> None:
    shoe = Shoe((0,) * 12 + (6,))
    assert shoe.size == 6 and shoe.label == "custom (6 cards)"
    assert Shoe((0,) * 13).size == 0


def test_an_infinite_shoe_refuses_removed_cards_but_takes_dealt_ones() -> None:
    inf = Shoe.infinite_shoe()
    with pytest.raises(ValueError, match="cannot be removed from an infinite shoe"):
        inf.without("Ah")
    assert inf.without("Ah Ah 9 9 9 9 9", dealt=True) == inf
    assert inf.take([("removed cards", (), False), ("player cards", (), True)]) == inf
    assert (inf.size, inf.label) == (52, "inf")


def test_a_suited_king_of_spades_is_held_once_per_pack() -> None:
    one = Shoe.packs_of(1)
    assert one.without("Ks").counts[12] == 3
    assert one.without("Kc Kd Kh Ks").counts[12] == 0
    with pytest.raises(ValueError, match=r"holds only 1 Ks \(1 pack\), but 2 are taken"):
        one.without("Ks K♠")
    assert Shoe.packs_of(2).without("Ks Ks").counts[12] == 6
    with pytest.raises(ValueError, match="holds only 2 Ks"):
        Shoe.packs_of(2).without("Ks Ks Ks")
    with pytest.raises(ValueError, match="holds only 1 Ac"):
        one.without("Ac Ac")


def test_a_composition_refuses_more_of_a_rank_than_it_holds() -> None:
    shoe = Shoe((1,) * 13)  # no packs: suits are not limited, ranks are
    assert shoe.without("Ks").size == 12
    with pytest.raises(ValueError, match="holds only 1 card of rank K"):
        shoe.without("K K")


@pytest.mark.parametrize(("packs", "label"), [(1, "1 pack"), (2, "2 packs")])
def test_labels_count_what_is_gone(packs: int, label: str) -> None:
    shoe = Shoe.packs_of(packs)
    assert shoe.label == label and shoe.size == 52 * packs
    assert shoe.without("A").label == f"{label} less 1 card"
    assert shoe.without("A 2").label == f"{label} less 2 cards"


@pytest.mark.parametrize("bad", [True, 0, -3, 1.5, "2"])
def test_packs_of_needs_a_whole_number_of_packs(bad: object) -> None:
    with pytest.raises(ValueError, match="at least 1 pack"):
        Shoe.packs_of(bad)  # type: ignore[arg-type]


def test_parse_shoe_compositions() -> None:
    assert parse_shoe("inf") == parse_shoe("∞") == Shoe.infinite_shoe()
    assert parse_shoe(" 2 ").counts == (8,) * 13
    assert parse_shoe("0 " * 12 + "5").counts == (0,) * 12 + (5,)
    assert parse_shoe("A:1 2=0 3=0 4=0 5=0 6=0 7=0 8=0 9=0 T=2 J=0 Q=0 K=3").counts == (
        1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 3)
    for bad, words in [("4 " * 12, "is not a shoe"), ("A=x", "is not RANK=COUNT"),
                       ("A=1 A=2", "given twice"), ("A=4", "no count for rank 2")]:
        with pytest.raises(ValueError, match=words):
            parse_shoe(bad)


@pytest.mark.parametrize("packs", [0, -1])
def test_too_few_packs(packs: int) -> None:
    with pytest.raises(ValueError, match="at least 1 pack"):
        Shoe.packs_of(packs)


def test_parse_shoe_forms() -> None:
    assert parse_shoe("inf").infinite
    assert parse_shoe("4").counts == (16,) * 13
    assert parse_shoe(",".join(["2"] * 13)).size == 26
    with pytest.raises(ValueError, match="gives no count for rank K"):
        parse_shoe("A=4 2=4 3=4 4=4 5=4 6=4 7=4 8=4 9=4 10=4 J=4 Q=4")
    with pytest.raises(ValueError, match="is not a shoe"):
        parse_shoe("4,4,4")
    with pytest.raises(ValueError, match="is not RANK=COUNT"):
        parse_shoe("X=4")


def test_removal_from_infinite_shoe() -> None:
    with pytest.raises(ValueError, match="infinite shoe"):
        round_odds(BUILTIN["standard"], Shoe.infinite_shoe(), removed="9")


def test_error_counts_against_the_whole_shoe() -> None:
    with pytest.raises(ValueError, match=r"holds only 4 cards of rank 9 \(1 pack\), but 5 are taken "
                       r"\(removed cards, player cards and bank cards include 9\)"):
        round_odds(BUILTIN["standard"], Shoe.packs_of(1), player="9 9", bank="9 9", removed="9")
