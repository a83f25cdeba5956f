"""Bets counted through the enumerator given known cards, against a card-by-card brute force.

Mutation testing (docs/mutation.md) found two blind spots in ``odds.exact.bets``:
the known first cards of the two hands could shift by one place in the suit split
of a bet on the round and on suited pairs, and a bet on pairs alone could count
its deals against the wrong number of cards left (its probabilities unchanged,
its count of deals not the round's).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from odds import BUILTIN, Shoe, round_odds
from odds.exact.bets import bet_odds
from odds.rules.bets import bet_from_data
from odds.rules.cards import parse_cards
from tests.bets_brute import HAND_WRITTEN, brute, small_shoe

STD = BUILTIN["standard"]


def _suited_and_wins(f: dict) -> int:
    return 5 if f["psuited"] and f["winner"] == "player" else -1


@pytest.mark.parametrize("player, bank", [("9h", "9s"), ("9h", "8d"), ("Kc", "9h")])
def test_a_bet_on_the_round_and_suited_pairs_given_both_hands_first_cards(player, bank) -> None:
    bet = bet_from_data("suited-win", {"pay": [{"player_pair": "suited", "winner": "player",
                                                "pays": 5}]}, "test.toml")
    got = bet_odds(STD, small_shoe(), [bet, "perfect-pair"], player=player, bank=bank)
    slots = [(1, parse_cards(player)[0]), (2, parse_cards(bank)[0])]
    want = brute(STD, {"suited-win": _suited_and_wins,
                       "perfect-pair": HAND_WRITTEN["perfect-pair"]}, slots)
    for name in ("suited-win", "perfect-pair"):
        assert got[name].payout_distribution() == dict(sorted(want[name].items(),
                                                              reverse=True)), name


@pytest.mark.parametrize("known", [{}, {"player": "8h 7s"}, {"bank": "Ac"}])
@pytest.mark.parametrize("shoe", [Shoe.packs_of(1), Shoe.infinite_shoe()], ids=["1", "inf"])
def test_a_bet_on_pairs_alone_counts_the_rounds_deals(shoe, known) -> None:
    """One meaning of a count of deals: every bet's is the round's (ordered six-card deals)."""
    total = round_odds(STD, shoe, **known).total
    for name in ("player-pair", "perfect-pair", "tie"):
        odds = bet_odds(STD, shoe, [name], **known)[name]
        assert odds.total == total, name
        assert sum(odds.payout_distribution().values()) == Fraction(1)
