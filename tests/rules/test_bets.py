"""Bets as data: aliases, refusals and words of odds.rules.bets.

Each test states what a profile-file author or a reader of a report relies
on: an alias parses to the same event as the word it stands for, a condition
no round can meet is refused with a sentence naming it (and the boundary
next to it is accepted), a settled round is an immutable value, and the words
of a built-in bet agree with its pay table.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from fractions import Fraction
from itertools import permutations

import pytest

from odds import BUILTIN, Shoe
from odds.exact.bets import bet_odds
from odds.rules.bet_files import bet_from_data, check_bet, condition_from_data
from odds.rules.bet_library import BETS, main_bet, resolve_bets
from odds.rules.bet_types import Bet, Pair
from odds.rules.bets import bet_payout, profile_bets, round_of_cards
from odds.rules.cards import parse_cards
from odds.rules.errors import BetError, ProfileError
from odds.rules.profiles import profile_from_data

PB = BUILTIN["punto-banco"]
EZ = BUILTIN["ez-baccarat"]
STD = BUILTIN["standard"]


def _one_entry_bet(events: dict[str, object], pays: int = 5) -> Bet:
    return bet_from_data("x", {"pay": [{**events, "pays": pays}]}, "house.toml")


# -- aliases parse to the event they stand for ---------------------------------


def test_winner_bank_is_the_banker() -> None:
    assert condition_from_data({"winner": "bank"}, "t") == condition_from_data(
        {"winner": "banker"}, "t")
    assert condition_from_data({"winner": " Bank "}, "t").winner == "banker"
    bet = _one_entry_bet({"winner": "bank"}, 2)
    # Kh 4s 6d (player 0) against 5c Kd 2h (banker 7): the banker wins.
    assert bet_payout(PB, bet, "Kh 4s 6d", "5c Kd 2h") == 2
    assert bet_payout(PB, bet, "Kh 8s", "5c Kd") == -1  # a player natural 8 wins


@pytest.mark.parametrize("flag, word", [(True, "rank"), (False, "none")], ids=["true", "false"])
def test_a_pair_event_given_as_true_or_false(flag: bool, word: str) -> None:
    for key in ("player_pair", "banker_pair"):
        assert condition_from_data({key: flag}, "t") == condition_from_data({key: word}, "t")
        assert getattr(condition_from_data({key: flag}, "t"), key) == word


def test_player_pair_false_pays_on_no_pair_only() -> None:
    bet = _one_entry_bet({"player_pair": False}, 3)
    assert bet_payout(PB, bet, "9h 9s", "Kc 8d") == -1  # a pair of nines
    assert bet_payout(PB, bet, "9h Ks", "Kc 8d") == 3  # no pair
    # A pair by value (10 and K) is not a pair by rank: "none" still holds.
    assert bet_payout(PB, bet, "10h Ks 5d", "Kc 7d") == 3


# -- conditions no round can meet ------------------------------------------------


def test_a_whole_number_out_of_range_is_named_first_as_written() -> None:
    with pytest.raises(BetError) as info:
        condition_from_data({"margin": [10, "x"]}, "t")
    assert str(info.value) == "t.margin: 10 is impossible (it runs 0-9)"
    with pytest.raises(BetError) as info:
        condition_from_data({"player_final": [3, 12, 10]}, "t")
    assert str(info.value) == "t.player_final: 12 is impossible (it runs 0-9)"
    # The boundary: 9 is a hand value, 10 is not.
    assert condition_from_data({"banker_final": [0, 9]}, "t").banker_final == frozenset({0, 9})
    with pytest.raises(BetError, match=r"^t\.banker_final: 10 is impossible \(it runs 0-9\)$"):
        condition_from_data({"banker_final": [0, 10]}, "t")


@pytest.mark.parametrize("side", ["player", "banker"])
def test_a_win_by_a_margin_of_0_is_refused(side: str) -> None:
    with pytest.raises(BetError) as info:
        condition_from_data({"winner": side, "margin": 0}, "in h.toml: bet.x.pay[1]")
    assert str(info.value) == (f"in h.toml: bet.x.pay[1]: a {side} win by a margin of 0 "
                               "is impossible")
    with pytest.raises(BetError, match=f"a {side} win by a margin of 0 is impossible"):
        _one_entry_bet({"winner": side, "margin": [0]})
    # One possible margin next to 0 is enough: the entry can pay.
    assert condition_from_data({"winner": side, "margin": [0, 1]}, "t").margin == frozenset({0, 1})
    # A tie is the round with a margin of 0.
    assert condition_from_data({"winner": "tie", "margin": 0}, "t").margin == frozenset({0})


def test_a_win_by_a_margin_of_0_in_a_profile_file_names_the_file() -> None:
    with pytest.raises(ProfileError) as info:
        profile_from_data({"base": "punto-banco", "bet": {"x": {"pay": [
            {"winner": "player", "margin": 0, "pays": 9}]}}}, "house.toml")
    assert str(info.value) == ("in house.toml: bet.x.pay[1]: a player win by a margin of 0 "
                               "is impossible")


@pytest.mark.parametrize("key", ["pays", "payout", "Side"])
def test_an_unknown_key_of_a_bet_is_refused(key: str) -> None:
    data = {"side": "banker", "pay": [{"winner": "banker", "pays": 1}], key: 3}
    with pytest.raises(BetError) as info:
        bet_from_data("x", data, "house.toml")
    assert str(info.value) == (f"in house.toml: bet.x: unknown key {key!r} "
                               "(a bet has description, otherwise, pay, side)")
    # The four keys it names are all accepted.
    ok = {"side": "banker", "description": "d", "otherwise": 0,
          "pay": [{"winner": "banker", "pays": 1}]}
    assert bet_from_data("x", ok, "house.toml").otherwise == 0


def test_a_natural_under_a_profile_without_naturals_is_refused() -> None:
    none = STD.with_options(natural_values="")
    assert none.naturals == frozenset()
    with pytest.raises(BetError) as info:
        check_bet(_one_entry_bet({"player_natural": True}), none)
    assert str(info.value) == ("in house.toml: bet.x.pay[1].player_natural: "
                               "profile 'standard' has no naturals")
    with pytest.raises(BetError) as info:
        check_bet(BETS["dragon-bonus-banker"], none)
    assert str(info.value) == ("bet dragon-bonus-banker, entry 1: banker_natural: "
                               "profile 'standard' has no naturals")
    with pytest.raises(BetError, match="has no naturals"):
        resolve_bets(none, ["dragon-bonus-player"])
    # "Not a natural" can hold there (every hand), and a natural is fine where there are some.
    check_bet(_one_entry_bet({"player_natural": False}), none)
    check_bet(_one_entry_bet({"player_natural": True}), BUILTIN["family"])
    check_bet(BETS["dragon-bonus-banker"], PB)


# -- a settled round is a value ------------------------------------------------------


def test_rounds_are_immutable_values_that_can_be_counted() -> None:
    # The 24 deals of 9h 9s Kc 7d (P B P B, all two-card rounds under punto-banco),
    # counted by their events: deal order and suits do not matter, so the deals fall
    # into 4 rounds. Counting them needs a round hashable all the way down.
    seen: Counter[object] = Counter()
    for p0, b0, p1, b1 in permutations(parse_cards("9h 9s Kc 7d"), 4):
        seen[round_of_cards(PB, [p0, p1], [b0, b1])] += 1
    assert seen == {
        round_of_cards(PB, "9h 9s", "Kc 7d"): 4,
        round_of_cards(PB, "Kc 7d", "9h 9s"): 4,
        round_of_cards(PB, "9h Kc", "9s 7d"): 8,
        round_of_cards(PB, "9s 7d", "9h Kc"): 8,
    }
    pair = round_of_cards(PB, "9h 9s", "Kc 7d").player_pair
    assert pair == Pair(8, True, None) and hash(pair) == hash(Pair(8, True, None))
    with pytest.raises(dataclasses.FrozenInstanceError):
        pair.rank = 1  # type: ignore[misc]


# -- the built-in library's words agree with its pay tables ------------------------


@pytest.mark.parametrize("name, side, final, pays", [("dragon-7", "banker", 7, 40),
                                                      ("panda-8", "player", 8, 25)])
def test_a_three_card_bet_says_what_its_entry_pays(name: str, side: str, final: int,
                                                   pays: int) -> None:
    bet = BETS[name]
    (entry,) = bet.entries
    c = entry.condition
    assert (bet.name, bet.side, c.winner) == (name, side, side) and entry.pays == pays
    assert (getattr(c, f"{side}_final"), getattr(c, f"{side}_cards")) == (frozenset({final}), 3)
    assert bet.description.startswith(f"the {side} wins with a three-card {final}, {pays}:1 ")
    assert entry.label == f"{side} wins with a 3-card {final}"


def test_ez_baccarat_offers_the_panda_8_and_it_pays_a_three_card_8_only() -> None:
    assert list(profile_bets(EZ)) == ["player", "ez-banker", "tie", "dragon-7", "panda-8"]
    assert [b.name for b in resolve_bets(EZ, ["all"])] == list(profile_bets(EZ))
    assert bet_payout(EZ, "panda-8", "Kh 3s 5d", "Kc 7d") == 25  # 3 + 5: a three-card 8 wins
    assert bet_payout(EZ, "panda-8", "Kh 8s", "Kc 7d") == -1  # a two-card 8 is a natural
    assert bet_payout(EZ, "panda-8", "Kh 3s 5d", "Kc 3d 6h") == -1  # the banker 9 wins


def test_the_colon_side_bets_read_as_the_seats_colon_lines() -> None:
    seat = {e.condition.player_pair: e.label for e in main_bet(STD).entries
            if e.condition.player_pair is not None}
    assert seat == {"9": "player Colon nine", "colon": "player Colon"}
    assert [e.label for e in BETS["colon"].entries] == [seat["colon"]]
    assert [e.label for e in BETS["colon-nine"].entries] == [seat["9"]]
    # One pack: the player's first two cards are a pair by rank 3/51 = 1/17 of the time,
    # a pair of nines (4/52)(3/51) = 1/221; the report line carries the label.
    odds = bet_odds(STD, Shoe.packs_of(1), ["colon", "colon-nine"])
    assert odds["colon"].entries()[0][:3] == ("player Colon", Fraction(2), Fraction(1, 17))
    assert odds["colon"].expected_value == Fraction(2 - 16, 17)
    assert odds["colon-nine"].entries()[0][:3] == ("player Colon nine", Fraction(3),
                                                   Fraction(1, 221))


@pytest.mark.parametrize(("player", "bank", "says"), [
    ("Kh 4s", "5c Kd", "say the player draws"),  # the player's 4 must draw
    ("Kh 7s", "5c Kd", "say the banker draws"),  # the player stood on 7; the banker's 5 draws
], ids=["player", "banker"])
def test_cards_against_the_draw_rules_name_the_hand_that_broke_them(player, bank, says) -> None:
    with pytest.raises(BetError, match=f"cannot be dealt under profile 'punto-banco' .*{says}"):
        round_of_cards(BUILTIN["punto-banco"], player, bank)


def test_a_condition_describes_only_the_fields_it_sets() -> None:
    from odds.rules.bet_types import Condition

    assert Condition().describe() == "always"
    cond = Condition(winner="banker", player_natural=False, banker_cards=3)
    assert cond.describe() == "winner banker, player natural no, banker cards 3"
