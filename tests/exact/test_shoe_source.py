"""odds.exact.shoe_source: which source a followed shoe's cards come from."""

from __future__ import annotations

import io

import pytest

from odds.exact.deal import shuffled_shoe
from odds.exact.rounds import deal_rounds, read_cards, record_rounds
from odds.exact.shoe_source import (
    MAX_RECORD,
    MAX_SHOE_CARDS,
    check_source,
    fresh_packs,
    read_record,
    recorded_rounds,
    seeded_rounds,
)
from odds.rules import BUILTIN, Shoe

STANDARD = BUILTIN["standard"]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"cards_file": "a", "seed": 1}, "not both"),
    ({"cards_file": None, "seed": None}, "or --seed S"),
    ({"cards_file": None, "seed": 1, "seats": 2}, "--seats follows a table's record"),
    ({"cards_file": "a", "seed": None, "index": 1}, "--index goes with --seed"),
    ({"cards_file": "a", "seed": None, "penetration": 0.5}, "--penetration goes with --seed"),
], ids=["both", "neither", "seats", "index", "penetration"])
def test_one_source_and_what_goes_with_it(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_source(Shoe.packs_of(1), **kwargs)


def test_a_record_follows_at_most_100_packs() -> None:
    check_source(Shoe.packs_of(100), "a", None)
    with pytest.raises(ValueError, match=f"{MAX_SHOE_CARDS:,} cards"):
        check_source(Shoe.packs_of(101), "a", None)


def test_standard_input_is_read_bounded() -> None:
    assert read_record("-", io.TextIOWrapper(io.BytesIO(b"9h 2c"))) == ("9h 2c", "<stdin>")
    assert read_record("-", io.StringIO("9h 2c")) == ("9h 2c", "<stdin>")  # no .buffer
    with pytest.raises(ValueError, match="larger than"):
        read_record("-", io.TextIOWrapper(io.BytesIO(b"9" * (MAX_RECORD + 1))))


def test_a_file_is_read_by_name(tmp_path) -> None:
    path = tmp_path / "dealt.txt"
    path.write_text("9 2 9 6\n")
    assert read_record(str(path), io.StringIO()) == ("9 2 9 6\n", str(path))


def test_the_rounds_are_the_replays_of_the_record() -> None:
    source = recorded_rounds(STANDARD, Shoe.packs_of(1), "9 2 9 6", "d.txt")
    assert source.rounds == record_rounds(STANDARD, Shoe.packs_of(1), read_cards("9 2 9 6"))
    with pytest.raises(ValueError, match=r"^d\.txt: "):
        recorded_rounds(STANDARD, Shoe.packs_of(1), "9 2 9", "d.txt")


def test_a_seeded_shoe_is_shoe_index_of_the_seed() -> None:
    source = seeded_rounds(STANDARD, Shoe.packs_of(2), 5, 3, 0.5)
    assert source.rounds == deal_rounds(STANDARD, shuffled_shoe(2, 5, 3), 0.5)
    assert source.label == "shuffled with seed 5 (shoe 3), cut card at 0.5"
    assert seeded_rounds(STANDARD, Shoe.packs_of(1), 5).fields == {
        "seed": 5, "index": 0, "penetration": 0.8}


def test_only_a_fresh_shoe_of_packs_is_shuffled() -> None:
    assert fresh_packs(Shoe.packs_of(6), "no") == 6
    for shoe in (Shoe.infinite_shoe(), Shoe.packs_of(1).without(read_cards("9").cards)):
        with pytest.raises(ValueError, match="^no$"):
            fresh_packs(shoe, "no")
