"""The shoe study dealt as casinos deal: the casino burn, rounds after the cut card, a trigger
schedule (odds/exact/deal.py, odds/money/counting), against brute force on small shoes."""

from __future__ import annotations

import numpy as np
import pytest

from odds.exact.deal import casino_burn, deal_shoe, round_lengths, shuffled_ranks, shuffled_shoe
from odds.money.counting import CountSystem, count_study, study_plan
from odds.money.counting.kernel import _system_bets
from odds.report.count_report import count_data
from odds.rules.cards import RANKS
from odds.rules.profiles import BUILTIN

PB = BUILTIN["punto-banco"]
HOW = (1, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0)  # How's unbalanced Dragon 7 tags
SEED = 5


def _first_of_each_rank() -> dict[int, int]:
    """A shoe index of seed SEED (1 pack) whose first card is rank r, for every r."""
    found: dict[int, int] = {}
    index = 0
    while len(found) < 13:
        found.setdefault(shuffled_ranks(1, SEED, index)[0], index)
        index += 1
    return found


def _brute(ranks: list[int], burned: int, stop: int, extra: int, shown: int | None
           ) -> tuple[list[list[int]], list[list[int]]]:
    """Round by round, one round at a time: the known composition before each and its cards."""
    pos, comps, cards = burned, [], []
    rounds = 0
    while pos < len(ranks) - 5 and (pos < stop or rounds < extra):
        if pos >= stop:
            rounds += 1
        seen = ranks[burned:pos] + ([shown] if shown is not None else [])
        comps.append([4 - seen.count(r) for r in range(13)])
        n = round_lengths(PB, ranks[pos:], stop=1)[0]
        cards.append(ranks[pos:pos + n])
        pos += n
    return comps, cards


@pytest.mark.parametrize("rank", range(13), ids=[r.value for r in RANKS])
@pytest.mark.parametrize("count_burn", [True, False], ids=["counted", "not-counted"])
@pytest.mark.parametrize("extra", [0, 1, 2], ids=["0-after", "1-after", "2-after"])
def test_casino_burn_deals_as_brute_force(rank: int, count_burn: bool, extra: int) -> None:
    index = _first_of_each_rank()[rank]
    ranks = shuffled_ranks(1, SEED, index)
    burned = 1 + (rank + 1 if rank < 9 else 10)  # A..9 their value, 10-K 10, plus the shown one
    assert 1 + casino_burn(rank) == burned
    comps, slots = deal_shoe(PB, 1, SEED, index, stop=30, burn_rule="casino",
                             count_burn=count_burn, rounds_after_cut=extra)
    want_comps, want_cards = _brute(ranks, burned, 30, extra, rank if count_burn else None)
    assert comps.tolist() == want_comps
    assert [[c for c in row if c >= 0] for row in slots.tolist()] == want_cards


def test_the_shown_card_leaves_the_known_composition_only_when_counted() -> None:
    shown = shuffled_ranks(8, 1, 0)[0]
    seen, _ = deal_shoe(PB, 8, 1, 0, stop=402, burn_rule="casino", count_burn=True)
    unseen, _ = deal_shoe(PB, 8, 1, 0, stop=402, burn_rule="casino", count_burn=False)
    gap = unseen - seen
    assert (gap[:, shown] == 1).all() and int(np.abs(gap).sum()) == len(gap)
    assert seen[0].sum() == 415 and unseen[0].sum() == 416


@pytest.mark.parametrize("stop", [40, 43, 45, 46])
def test_rounds_after_cut_stop_where_fewer_than_six_cards_are_left(stop: int) -> None:
    # The cut card near the end of a pack: the rounds after it run out of cards, a round
    # starting only with six cards left (the most a round can take).
    for index in range(12):
        ranks = shuffled_ranks(1, SEED, index)
        for extra in (1, 2, 3):
            comps, slots = deal_shoe(PB, 1, SEED, index, stop=stop, rounds_after_cut=extra)
            want_comps, want_cards = _brute(ranks, 0, stop, extra, None)
            assert comps.tolist() == want_comps, (index, extra)
            assert [[c for c in row if c >= 0] for row in slots.tolist()] == want_cards


@pytest.mark.parametrize("burn_rule", ["none", "casino"])
def test_rounds_after_cut_deal_exactly_that_many_more_rounds(burn_rule: str) -> None:
    for index in range(20):
        base, _ = deal_shoe(PB, 8, 1, index, stop=390, burn_rule=burn_rule)
        for extra in (1, 2):  # 26 cards behind the cut card: room for both
            more, _ = deal_shoe(PB, 8, 1, index, stop=390, burn_rule=burn_rule,
                                rounds_after_cut=extra)
            assert len(more) == len(base) + extra
            assert (more[:len(base)] == base).all()


def test_casino_shoe_is_the_shoe_of_the_seed() -> None:
    """--seed keeps its meaning: shoe k is `lucky9 shoe --seed S --index k`, burn card first."""
    cards = [c.rank.index for c in shuffled_shoe(1, 3, 4)]
    _, slots = deal_shoe(PB, 1, 3, 4, stop=30, burn_rule="casino")
    start = 1 + casino_burn(cards[0])
    assert slots[0][:4].tolist() == cards[start:start + 4]


def test_study_defaults_are_the_old_figures() -> None:
    plain = count_data(count_study(PB, 1, 8, 0.75, seed=2, bets=["banker"]))
    same = count_data(count_study(PB, 1, 8, 0.75, seed=2, bets=["banker"], burn_rule="none",
                                  count_burn=False, rounds_after_cut=0))
    assert plain["bets"] == same["bets"] and plain["study"]["rounds"] == same["study"]["rounds"]
    casino = count_data(count_study(PB, 1, 8, 0.75, seed=2, bets=["banker"],
                                    burn_rule="casino", rounds_after_cut=1))
    assert casino["bets"] != plain["bets"]
    assert casino["study"]["burn_rule"] == "casino" and casino["study"]["rounds_after_cut"] == 1


def test_json_gives_a_95_interval_beside_each_estimate() -> None:
    data = count_data(count_study(PB, 1, 30, 0.75, seed=2, bets=["banker"]))
    found = 0

    def walk(node: object) -> None:
        nonlocal found
        if isinstance(node, dict):
            if "mean" in node and "se" in node and node["se"] is not None:
                lo, hi = node["ci95"]
                assert lo <= node["mean"] <= hi
                assert hi - lo == pytest.approx(2 * 1.959963984540054 * node["se"])
                found += 1
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(data)
    assert found > 20


def _trigger(schedule: tuple[tuple[int, float], ...], first: float, cards_seen: int) -> float:
    """The schedule read by hand: the last step reached, else the first trigger."""
    reached = [level for cards, level in schedule if cards_seen >= cards]
    return reached[-1] if reached else first


def test_trigger_schedule_changes_the_trigger_by_cards_seen() -> None:
    system = CountSystem(HOW, 0, -32, schedule=((100, -2), (200, -5)))
    assert system.trigger_at(np.array([0, 99, 100, 199, 200, 400])).tolist() == [
        0, 0, -2, -2, -5, -5]
    comps, _ = deal_shoe(PB, 8, 1, 0, stop=400)
    bets = _system_bets(system, comps, 8)
    seen = (32 - comps).astype(float)
    running = seen @ np.array(HOW, dtype=float) - 32
    want = [rc >= _trigger(system.schedule, 0, int(n))
            for rc, n in zip(running, seen.sum(axis=1), strict=True)]
    assert bets.tolist() == want
    flat = _system_bets(CountSystem(HOW, 0, -32), comps, 8)
    assert bets.tolist() != flat.tolist()  # the schedule bets where the flat trigger does not


@pytest.mark.parametrize(("schedule", "message"), [
    (((0, 0), (0, 1)), "cards increase"),
    (((100, 0), (50, 1)), "cards increase"),
    (((-1, 0),), "whole number of cards"),
    (((0, float("nan")),), "finite number"),
    (tuple((k, 0) for k in range(65)), "at most 64"),
])
def test_a_bad_trigger_schedule_is_refused(schedule: tuple[tuple[int, float], ...],
                                           message: str) -> None:
    with pytest.raises(ValueError, match=message):
        CountSystem(HOW, 0, -32, schedule=schedule)


def test_a_trigger_schedule_needs_an_unbalanced_count() -> None:
    with pytest.raises(ValueError, match="unbalanced"):
        CountSystem((0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0), 4, schedule=((0, 4),))


@pytest.mark.parametrize(("options", "message"), [
    ({"burn": 2, "burn_rule": "casino"}, "give one of them"),
    ({"burn_rule": "vegas"}, "burn rule is one of none, casino"),
    ({"rounds_after_cut": 11}, "0 to 10"),
    ({"rounds_after_cut": -1}, "0 to 10"),
    ({"rounds_after_cut": 3, "cut_cards": 14}, "need 18 cards behind it"),
    ({"burn_rule": "casino", "cut_cards": 36}, "fewer than 6 cards ahead"),
])
def test_bad_dealing_settings_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        study_plan(PB, 1, bets=["banker"], **options)  # type: ignore[arg-type]


def test_the_casino_burn_s_most_cards_bound_the_cut_card() -> None:
    from odds.exact.deal import MAX_CASINO_BURN

    # The card turned face up and what a ten burns: 1 + 10 cards before the first round.
    assert MAX_CASINO_BURN == 1 + 10 == max(1 + casino_burn(r) for r in range(13))
    study_plan(PB, 1, bets=["tie"], burn_rule="casino", cut_cards=52 - 11 - 6)
    with pytest.raises(ValueError, match=r"up to 11 cards\) has fewer than 6 cards ahead "
                                         r"in a shoe of 52 cards \(at most 35 behind it\)"):
        study_plan(PB, 1, bets=["tie"], burn_rule="casino", cut_cards=52 - 11 - 5)
