"""Cards, shoes and profiles: parsing, validation and the errors people see."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from odds import (
    BUILTIN,
    Card,
    ProfileError,
    Rank,
    Shoe,
    Suit,
    load_profile,
    parse_card,
    parse_cards,
    parse_shoe,
    round_odds,
)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("8h", Card(Rank.EIGHT, Suit.HEARTS)),
        ("AC", Card(Rank.ACE, Suit.CLUBS)),
        ("t♠", Card(Rank.TEN, Suit.SPADES)),
        ("10♦️", Card(Rank.TEN, Suit.DIAMONDS)),
        ("q", Card(Rank.QUEEN)),
        ("9", Card(Rank.NINE)),
        ("kD", Card(Rank.KING, Suit.DIAMONDS)),
    ],
)
def test_parse_card(text: str, expected: Card) -> None:
    assert parse_card(text) == expected


def test_parse_cards_separators() -> None:
    assert parse_cards("8h,7s  Ac;10d") == parse_cards("8h 7s Ac 10d")
    assert [str(c) for c in parse_cards("8♥ 7♠ K")] == ["8h", "7s", "K"]


@pytest.mark.parametrize(
    "text,message",
    [
        ("1x", "'1x' is not a card (rank must be one of A 2 3 4 5 6 7 8 9 10 J Q K)"),
        ("8z", "'8z' is not a card (suit must be one of c d h s or ♣ ♦ ♥ ♠)"),
        ("11", "'11' is not a card"),
        ("Z", "'Z' is not a card"),
    ],
)
def test_bad_card(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_card(text)


def test_empty_card_list() -> None:
    with pytest.raises(ValueError, match="no cards were given"):
        parse_cards(" , ")


def test_too_many_copies_of_a_rank() -> None:
    with pytest.raises(ValueError, match="holds only 4 cards of rank A .1 pack., but 5 are taken"):
        Shoe.packs_of(1).without("A A A A A")


def test_same_suited_card_twice_in_one_pack() -> None:
    with pytest.raises(ValueError, match="holds only 1 Ah"):
        Shoe.packs_of(1).without("Ah Ah")
    Shoe.packs_of(2).without("Ah Ah")  # two packs hold two


def test_suited_and_rank_only_cards_mix() -> None:
    # Three rank-only aces and Ah fit one pack; a second Ah does not.
    Shoe.packs_of(1).without("A A A Ah")
    with pytest.raises(ValueError):
        Shoe.packs_of(1).without("A A Ah Ah")


def test_cards_across_hands_are_checked_together() -> None:
    with pytest.raises(ValueError, match="bank cards include Ah"):
        round_odds(BUILTIN["standard"], Shoe.packs_of(1), player="Ah", bank="Ah")


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


# -- profiles -------------------------------------------------------------------


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_profile_file_overrides(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'base = "standard"\nname = "house"\ncolon = "5/2"\ncolon_nine = 4\n'
        'naturals = "compare"\nbank_bonus = true\ndecks = 2\n',
    )
    p = load_profile(path)
    assert (p.key, p.colon, p.colon_nine, p.naturals_rule.value, p.bank_bonus, p.decks) == (
        "house", Fraction(5, 2), Fraction(4), "compare", True, 2)


def test_profile_file_tableau(tmp_path: Path) -> None:
    rows = "\n".join(
        f'{v} = {x}' for v, x in enumerate(
            ['"all"', '"all"', '"all"', "[0,1,2,3,4,5,6,7,9]", "[2,3,4,5,6,7]",
             "[4,5,6,7]", "[6,7]", "[]"])
    )
    path = write(
        tmp_path,
        'base = "plain"\nnaturals_stop_draws = true\n'
        f"[bank_draw]\ndraws = [0,1,2,3,4,5]\n[bank_draw.tableau]\n{rows}\n",
    )
    p = load_profile(path)
    pb = BUILTIN["punto-banco"]
    assert p.bank_draw == pb.bank_draw
    a = round_odds(p, Shoe.packs_of(1))
    b = round_odds(pb, Shoe.packs_of(1))
    assert (a.win, a.push) == (b.win, b.push)


@pytest.mark.parametrize(
    "text,message",
    [
        ('colr = 2\n', "unknown option 'colr'"),
        ('colon = "two"\n', "colon: 'two' is not a number"),
        ('colon = -2\n', "colon: -2 is negative"),
        ('bank_bonus = "maybe"\n', "bank_bonus: 'maybe' is not on or off"),
        ('naturals = "sometimes"\n', "naturals: 'sometimes' is not one of outright, compare"),
        ('player_draw = [0, 1, 8]\n', "player_draw: 8 is a natural"),
        ('player_draw = [0, 12]\n', "player_draw: 12 is not a hand value 0-9"),
        ('base = "bacarrat"\n', "base 'bacarrat' is not a built-in profile"),
        ('decks = 0\n', "decks: a shoe needs at least 1 pack"),
        ('[bank_draw]\ndraws = [0,1,2]\n[bank_draw.tableau]\n0 = "all"\n',
         "bank_draw.tableau: no entry for own value 1"),
        ('colon = \n', "is not valid TOML"),
        ('colon = "1/0"\n', "colon: '1/0' divides by zero"),
        ('colon = nan\n', "colon: nan is not a number"),
        ('colon = inf\n', "colon: inf is not a number"),
        ('player_draw = "5-0"\n', "range '5-0' runs backwards"),
        ('[player_draw]\ndraws = [0]\n[player_draw.tableau]\n' + "".join(
            f"{v} = []\n" for v in range(10)), "the player acts first"),
        ('[bank_draw]\ndraws = [0]\n[bank_draw.tableau]\n0 = []\n00 = [1]\n',
         "own value 0 is given twice"),
    ],
)
def test_bad_profile_file(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    assert message in str(info.value)
    assert str(path) in str(info.value)


def test_missing_profile_file(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="does not exist"):
        load_profile(tmp_path / "nope.toml")


def test_unknown_profile_key() -> None:
    from odds import get_profile

    with pytest.raises(ProfileError, match="unknown profile 'standrd'"):
        get_profile("standrd")


def test_forced_draw_option_equals_builtin() -> None:
    p = BUILTIN["standard"].with_options(forced_draw=True)
    assert p.forced_draw and BUILTIN["forced-draw"].forced_draw
    assert p.player_draw == BUILTIN["forced-draw"].player_draw


def test_every_option_shows_in_options() -> None:
    from odds import OPTIONS
    from odds.rules.profiles import INFORMATION_OPTIONS

    for profile in BUILTIN.values():
        # The information options show where a profile sets them (chemin-de-fer).
        assert set(profile.options()) - set(INFORMATION_OPTIONS) == {o.name for o in OPTIONS}
        assert len(profile.describe()) >= len(OPTIONS)


def test_profile_key_from_a_file_name_with_spaces(tmp_path: Path) -> None:
    path = tmp_path / "My Table.toml"
    path.write_text("colon = 3\n", encoding="utf-8")
    assert load_profile(path).key == "my-table"


def test_forced_draw_follows_natural_values_given_with_it() -> None:
    p = BUILTIN["standard"].with_options(natural_values="5,8,9", forced_draw=True)
    assert p.player_draw is not None and p.player_draw.draws == frozenset({0, 1, 2, 3, 4, 6, 7})


def test_profiles_built_directly_are_validated() -> None:
    from dataclasses import replace

    with pytest.raises(ProfileError, match="colon: -1 is negative"):
        replace(BUILTIN["standard"], colon=Fraction(-1))
    with pytest.raises(ProfileError, match="not all hand values"):
        replace(BUILTIN["standard"], naturals=frozenset({12}))
    with pytest.raises(ValueError, match="at least 1 pack"):
        Shoe((4,) * 13, packs=0)


def test_error_counts_against_the_whole_shoe() -> None:
    with pytest.raises(ValueError, match=r"holds only 4 cards of rank 9 \(1 pack\), but 5 are taken "
                       r"\(removed cards, player cards and bank cards include 9\)"):
        round_odds(BUILTIN["standard"], Shoe.packs_of(1), player="9 9", bank="9 9", removed="9")
