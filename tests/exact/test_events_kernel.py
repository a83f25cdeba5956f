"""The event enumerator's paths (odds.exact.events) against card-by-card brute force."""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odds.exact.bets import bet_odds
from odds.exact.events import event_counts, joint_counts, prepare_deal
from odds.rules.bet_files import bet_from_data
from odds.rules.cards import parse_cards
from odds.rules.profiles import BUILTIN
from odds.rules.shoe import parse_shoe
from tests.bets_brute import HAND_WRITTEN, brute, small_shoe
from tests.brute import PIPS, play
from tests.examples import examples

SMALL = "2,1,0,1,0,1,1,0,1,1,0,0,0"  # 8 cards: 20,160 ordered six-card deals


def _brute(key: str, spec: str) -> Counter[tuple[int, int, int | None, int | None]]:
    """Every ordered six-card deal, played by tests/brute, keyed by (pv, bv, x, y)."""
    profile = BUILTIN[key]
    counts = [int(c) for c in spec.split(",")]
    cards = [r for r, c in enumerate(counts) for _ in range(c)]
    out: Counter[tuple[int, int, int | None, int | None]] = Counter()
    for order in permutations(range(len(cards)), 6):
        dealt = [cards[i] for i in order]
        p, b = play(profile, list(dealt))
        pv = (PIPS[p[0]] + PIPS[p[1]]) % 10
        bv = (PIPS[b[0]] + PIPS[b[1]]) % 10
        out[pv, bv, PIPS[p[2]] if len(p) > 2 else None, PIPS[b[2]] if len(b) > 2 else None] += 1
    return out


def _by_round(joint) -> Counter[tuple[int, int, int | None, int | None]]:  # type: ignore[no-untyped-def]
    out: Counter[tuple[int, int, int | None, int | None]] = Counter()
    for (pv, _, bv, _, x, y), c in joint.items():
        out[pv, bv, x, y] += c
    return +out


@pytest.mark.parametrize("key", ["standard", "punto-banco", "super9"])
def test_every_path_counts_the_brute_force_deals(key: str) -> None:
    profile = BUILTIN[key]
    deal = prepare_deal(profile, parse_shoe(SMALL))
    brute = _brute(key, SMALL)
    assert _by_round(event_counts(profile, deal, True, False, False)) == brute  # values only
    assert _by_round(event_counts(profile, deal, True, True, False)) == brute  # with pairs
    assert _by_round(joint_counts(profile, deal, True, False, True)) == brute  # general path
    pairs_only = event_counts(profile, deal, False, True, False)
    assert sum(pairs_only.values()) == sum(brute.values())


@settings(max_examples=examples(20, 80), deadline=None)
@given(st.sampled_from(["standard", "punto-banco", "plain", "ez-baccarat"]),
       st.lists(st.integers(0, 3), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6))
def test_fast_paths_agree_with_the_general_path(key: str, counts: list[int]) -> None:
    profile = BUILTIN[key]
    deal = prepare_deal(profile, parse_shoe(",".join(map(str, counts))))
    general = _by_round(joint_counts(profile, deal, True, False, True))
    assert _by_round(event_counts(profile, deal, True, False, False)) == general
    assert _by_round(event_counts(profile, deal, True, True, False)) == general


# Suited pairs of the lowest rank (aces, pair code 0) and the highest (kings) beside plain ones.
EDGE_PAIRS = parse_cards("Ah Ah As Kc Kc Kd 9h 8d 2s")
SUITED_WINS = {  # bets on the round and on suited pairs at once, settled by hand
    "player": lambda f: 5 if f["psuited"] and f["winner"] == "player" else -1,
    "banker": lambda f: 5 if f["bsuited"] and f["winner"] == "banker" else -1,
}


@pytest.mark.parametrize("hand", ["player", "bank"])
def test_suited_pairs_of_the_lowest_and_highest_rank_match_brute_force(hand: str) -> None:
    # A hand's first card known sends a bet on the round and on suited pairs to the event
    # enumerator, which splits the other hand's pairs by suits; the brute force deals every
    # ordering of the physical cards.
    profile, card = BUILTIN["punto-banco"], parse_cards("9h")[0]
    bets = [bet_from_data(f"suited-{side}", {"pay": [{f"{side}_pair": "suited", "winner": side,
                                                      "pays": 5}]}, "test.toml")
            for side in SUITED_WINS]
    got = bet_odds(profile, small_shoe(EDGE_PAIRS), [*bets, "perfect-pair"], **{hand: "9h"})
    payers = {**{f"suited-{side}": pay for side, pay in SUITED_WINS.items()},
              "perfect-pair": HAND_WRITTEN["perfect-pair"]}
    want = brute(profile, payers, [(1 if hand == "player" else 2, card)],  # type: ignore[no-untyped-call]
                 cards=EDGE_PAIRS)
    for name in payers:
        assert got[name].payout_distribution() == dict(sorted(want[name].items(),
                                                              reverse=True)), name
