"""The study's kernel on shoes whose cards are chosen: every round worked by hand.

The kernel settles each round on the cards really dealt (``sampled_outcomes``,
``settled_per_round``).  Its card slots are exchangeable for any statistic of
a shuffled shoe, so only known cards can tell the player's first two cards
(slots 0 and 2, the deal being P B P B) from the bank's (1 and 3), or the
sign of the Colon's share.  Here the shuffle is replaced by a fixed order and
each round is worked out in the comments.
"""

from __future__ import annotations

import pytest

from odds.exact import deal
from odds.money.counting import evaluate_chunk, study_plan
from odds.rules.profiles import BUILTIN

A, TEN, QUEEN, KING = 0, 9, 11, 12  # rank indices; 2..9 are value - 1


def rank(value: int) -> int:
    return value - 1


def fixed_shoe(first: list[int]) -> list[int]:
    """One pack: ``first`` on top, the rest of the pack after it in rank order."""
    rest = [r for r in range(13) for _ in range(4)]
    for r in first:
        rest.remove(r)
    return first + rest


def settle(monkeypatch: pytest.MonkeyPatch, key: str, top: list[int], bets: list[str]):  # type: ignore[no-untyped-def]
    """The kernel's sums for one shoe starting with ``top``, its cut card after 6 cards."""
    monkeypatch.setattr(deal, "shuffled_ranks", lambda packs, seed, index=0: fixed_shoe(top))
    plan, _ = study_plan(BUILTIN[key], 1, bets=bets, cut_cards=46)
    return evaluate_chunk(plan, 0, 1)


def test_punto_banco_rounds_settled_on_the_cards_dealt(monkeypatch: pytest.MonkeyPatch) -> None:
    top = [
        # Round 1: player 9 9 (8, a natural and a pair), banker 2 5 (7): the player wins,
        # the player's pair is paid.  (Read from slots 0,1 and 2,3 it would be 9+2 = 1
        # against 9+5 = 4, both drawing.)
        rank(9), rank(2), rank(9), rank(5),
        # Round 2 (4 cards out, fewer than 6: it is dealt): player K 7 (7), banker 4 3 (7):
        # both stand, a tie: player and banker push, the tie pays 8.  (From slots 0,1
        # and 2,3: K+4 = 4 against 7+3 = 0.)
        KING, rank(4), rank(7), rank(3),
    ]
    sums = settle(monkeypatch, "punto-banco", top, ["player", "banker", "tie", "player-pair",
                                                    "banker-pair"])
    assert list(sums.rounds[:2]) == [1, 2]  # one shoe, two rounds (8 cards out: no third)
    shoe = {bet: sums.per_shoe[f"{bet}:flat_bet:outcome"][0]
            for bet in ("player", "banker", "tie", "player-pair", "banker-pair")}
    assert shoe == {"player": 1 + 0, "banker": -1 + 0, "tie": -1 + 8,
                    "player-pair": 11 - 1, "banker-pair": -1 - 1}


def test_lucky9_colon_and_its_share_settled_on_the_cards_dealt(
        monkeypatch: pytest.MonkeyPatch) -> None:
    top = [
        # Round 1: player 3 3 (6, a Colon, stands), bank 10 5 (5, draws the K: 5): the
        # player wins with a Colon, paid 2 instead of 1: the Colon's share is +1.
        # (From slots 0,1 and 2,3: 3+10 = 3 against 3+5 = 8, the bank's natural.)
        rank(3), TEN, rank(3), rank(5), KING,
        # Round 2 (5 cards out): player 2 6 (8), bank K 9 (9): naturals, the bank wins.
        # (From slots 0,1 and 2,3: 2+K = 2 against 6+9 = 5, both drawing.)
        rank(2), KING, rank(6), rank(9),
    ]
    sums = settle(monkeypatch, "standard", top, ["player", "colon", "colon-share"])
    assert list(sums.rounds[:2]) == [1, 2]
    assert sums.per_shoe["player:flat_bet:outcome"][0] == 2 - 1
    # The Colon's share: +1 in round 1 (2 paid where a plain seat is paid 1), 0 in round 2.
    assert list(sums.per_shoe["colon-share:settled"][:2]) == [1, 1]


def test_the_colon_shares_settled_figure_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """The figure the share's sums make: +1 over 2 rounds is +0.5 a round dealt."""
    from odds.money.counting import count_study
    from odds.report.count_report import count_data

    top = [rank(3), TEN, rank(3), rank(5), KING, rank(2), KING, rank(6), rank(9)]
    monkeypatch.setattr(deal, "shuffled_ranks", lambda packs, seed, index=0: fixed_shoe(top))
    data = count_data(count_study(BUILTIN["standard"], 1, 1, cut_cards=46,
                                  bets=["player", "colon-share"]))
    assert data["bets"]["colon-share"]["settled_per_round"]["mean"] == 0.5


def test_an_ace_counts_one_point_in_the_rounds_dealt(monkeypatch: pytest.MonkeyPatch) -> None:
    top = [
        # Round 1: player A 8 (9, a natural), banker K 8 (8, a natural): the player wins.
        # (An ace read as no card, 0 points, would make it 8 against 8: a tie.)
        A, KING, rank(8), rank(8),
        # Round 2 (4 cards out, fewer than 6: it is dealt): player 2 6 (8), banker A 8 (9):
        # naturals, the banker wins.  (An ace read as 0: 8 against 8, a tie.)
        rank(2), A, rank(6), rank(8),
    ]
    sums = settle(monkeypatch, "punto-banco", top, ["player", "banker", "tie"])
    assert list(sums.rounds[:2]) == [1, 2]
    shoe = {bet: sums.per_shoe[f"{bet}:flat_bet:outcome"][0] for bet in ("player", "tie")}
    assert shoe == {"player": 1 - 1, "tie": -1 - 1}


def test_one_card_seen_the_linear_count_is_the_exact_ev_and_the_share_is_not_staked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The linear count adds each seen card's effect of removal, times (cards in a full shoe
    # - 1) / cards left: with one card seen that is exactly its effect, so the estimate is
    # the exact EV of a pack less that card.  A shoe dealt as one round from a pack less
    # one ace (the first round's cards kept, its composition made the counter's view).
    from fractions import Fraction

    from odds import Shoe, round_odds
    from odds.money.counting import kernel

    dealt = kernel.deal_shoe

    def one_round(*args, **kwargs):  # type: ignore[no-untyped-def]
        comps, slots = dealt(*args, **kwargs)
        comps = comps[:1].copy()
        comps[0, A] -= 1
        return comps, slots[:1]

    monkeypatch.setattr(kernel, "deal_shoe", one_round)
    plan, _ = study_plan(BUILTIN["standard"], 1, bets=["player", "colon-share"])
    sums = evaluate_chunk(plan, 0, 1)
    assert list(sums.rounds[:2]) == [1, 1]  # one shoe, one round
    ev = float(round_odds(BUILTIN["standard"], Shoe((3,) + (4,) * 12)).expected_value)
    assert sums.per_round["player:ev"][0] == pytest.approx(ev, rel=1e-12)
    est, est2, est_ev = sums.per_round["player:linear_count:corr"]
    assert est == pytest.approx(ev, rel=1e-9) and est2 == pytest.approx(ev * ev, rel=1e-9)
    assert est_ev == pytest.approx(ev * ev, rel=1e-9)
    assert Fraction(plan.fresh_ev[0]) != Fraction(ev)  # the ace's effect is not 0
    # The Colon's share is a figure, not a bet: nothing is staked on it.
    share = {k for k in sums.per_shoe if k.startswith("colon-share:")}
    assert share == {"colon-share:ev", "colon-share:positive", "colon-share:settled",
                     "colon-share:buckets:shoe"}, share
