"""Tests that bite, round three: the shoe study (odds/money/counting.py).

Aimed at mutants of ``bench/mutate.py`` that the earlier tests let live: the
bounds on the cut card and the burn (the largest value accepted deals a
round, the next is refused with a sentence naming the bound), jobs against a
cluster, where the chunks run, the save folder's checkpoint and the chunks
kept beyond it, a grid stopped by an interrupt, and a few figures
(``rounds_bet_share``, ``tags_balanced``, the penetration shown).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import re
from pathlib import Path
from typing import Any

import pytest

from odds.exact.rounds import round_lengths, shuffled_ranks
from odds.money.counting import (
    MAX_SHOES,
    CountSystem,
    count_grid,
    count_study,
    study_plan,
)
from odds.money.counting import study as counting
from odds.money.counting.folder import StudyFolder
from odds.report.count_report import count_data
from odds.rules.profiles import BUILTIN

PROFILE = BUILTIN["punto-banco"]


def _json(study: Any) -> str:
    return json.dumps(count_data(study), indent=2)


def _stopper(after: int) -> Any:
    def progress(done: int) -> None:
        if done >= after:
            raise KeyboardInterrupt

    return progress


# -- bounds: the largest value accepted deals a round, the next is refused -----------------


@pytest.mark.parametrize("packs, burn", [(1, 0), (1, 3), (2, 5)], ids=["1-pack", "burn-3", "2-packs"])
def test_the_cut_card_bound_the_refusal_names_is_the_largest_accepted(packs: int, burn: int) -> None:
    size = 52 * packs
    with pytest.raises(ValueError, match=r"\(at most \d+ behind it\)") as info:
        study_plan(PROFILE, packs, bets=["tie"], cut_cards=size - burn, burn=burn)
    most = int(re.search(r"at most (\d+) behind it", str(info.value)).group(1))  # type: ignore[union-attr]
    plan, _ = study_plan(PROFILE, packs, bets=["tie"], cut_cards=most, burn=burn)
    assert plan.stop == size - most
    # The largest cut card accepted still deals a round in every shoe (a round starts while
    # the cut card has not come out and six cards are left).
    for index in range(3):
        dealt = round_lengths(PROFILE, shuffled_ranks(packs, 1, index), start=burn,
                              stop=min(plan.stop, size - 5))
        assert len(dealt) >= 1
    with pytest.raises(ValueError) as info:
        study_plan(PROFILE, packs, bets=["tie"], cut_cards=most + 1, burn=burn)
    assert str(info.value) == (
        f"a cut card with {most + 1} cards behind it and {burn} burned has fewer than 6 cards "
        f"ahead in a shoe of {size} cards (at most {most} behind it)")


@pytest.mark.parametrize("penetration, stop, last", [(0.75, 39, 38), (1.0, 52, 46)],
                         ids=["before-the-cut-card", "six-left"])
def test_the_largest_burn_accepted_deals_one_round_a_shoe(penetration: float, stop: int,
                                                          last: int) -> None:
    """Burning ``last`` cards leaves room for one round (it starts before the cut card
    and with six cards left); burning one more leaves none, and is refused."""
    with pytest.raises(ValueError) as info:
        study_plan(PROFILE, 1, bets=["tie"], penetration=penetration, burn=last + 1)
    assert str(info.value) == (f"burning {last + 1} cards leaves no round to deal before the "
                               f"cut card ({stop} cards into a shoe of 52)")
    study = count_study(PROFILE, 1, 3, penetration, seed=2, bets=["tie"], burn=last)
    assert study.burn == last and study.cut == stop
    assert study.rounds == 3 and study.rounds_per_shoe[2:] == (1, 1)
    for index in range(3):  # one round a shoe, really dealt
        assert len(round_lengths(PROFILE, shuffled_ranks(1, 2, index), start=last,
                                 stop=min(stop, 52 - 5))) == 1


def test_the_penetration_is_shown_only_when_it_places_the_cut_card() -> None:
    by_share = count_study(PROFILE, 1, 2, 0.75, seed=1, bets=["tie"])
    assert (by_share.penetration, by_share.cut_cards, by_share.cut) == (0.75, None, 39)
    assert count_data(by_share)["study"]["penetration"] == 0.75
    by_cards = count_study(PROFILE, 1, 2, 0.75, seed=1, bets=["tie"], cut_cards=13)
    assert (by_cards.penetration, by_cards.cut_cards, by_cards.cut) == (None, 13, 39)
    assert count_data(by_cards)["study"]["penetration"] is None


# -- where the chunks run ------------------------------------------------------------------


class _HereCluster:
    """A stand-in for an open cluster session: its runner deals the chunks in this process."""

    def __init__(self) -> None:
        self.plans: list[Any] = []

    def runner(self, plan: Any) -> Any:
        self.plans.append(plan)
        return counting._Serial(plan)


def test_jobs_and_a_cluster_together_are_refused() -> None:
    cluster = _HereCluster()
    with pytest.raises(ValueError) as info:
        count_study(PROFILE, 1, 2, 0.75, seed=1, jobs=2, bets=["tie"], cluster=cluster)
    assert str(info.value) == ("give jobs or a cluster, not both (the cluster's workers are the "
                               "jobs)")
    assert cluster.plans == []
    # With jobs left at 1, the cluster runs the chunks, and the figures are the same.
    study = count_study(PROFILE, 1, 2, 0.75, seed=1, bets=["tie"], cluster=cluster)
    assert len(cluster.plans) == 1
    assert _json(study) == _json(count_study(PROFILE, 1, 2, 0.75, seed=1, bets=["tie"]))


@pytest.mark.parametrize("jobs, children", [(1, False), (2, True)], ids=["here", "pool"])
def test_one_job_deals_in_this_process_and_two_in_a_pool(jobs: int, children: bool) -> None:
    seen: list[int] = []

    def progress(done: int) -> None:
        seen.append(len(multiprocessing.active_children()))

    count_study(PROFILE, 1, 2, 0.75, seed=1, jobs=jobs, progress=progress, bets=["tie"])
    assert len(seen) >= 2  # before the first chunk, and as chunks finish
    assert (max(seen) > 0) is children


# -- the save folder: its checkpoint, and the chunks kept beyond it ------------------------


def _kept(folder: Path) -> StudyFolder:
    settings = json.loads((folder / "study.json").read_text())["settings"]
    return StudyFolder.resume(folder, settings)


def test_the_checkpoint_folds_every_chunk_done(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """With a checkpoint every chunk, a study stopped after two chunks of four shoes keeps
    both in total.npz (and no chunk file); finished, it keeps the total alone."""
    monkeypatch.setattr(counting, "SHOES_PER_BATCH", 4)
    monkeypatch.setattr(counting, "CHECKPOINT_CHUNKS", 1)
    folder = tmp_path / "s"
    part = count_study(PROFILE, 1, 12, 0.75, seed=5, bets=["tie"], save=folder,
                       progress=_stopper(8), partial_on_stop=True)
    assert part.partial and part.shoes == 8
    assert sorted(os.listdir(folder)) == ["study.json", "total.npz"]
    assert _kept(folder).next == 8
    done = count_study(PROFILE, 1, 12, 0.75, seed=5, bets=["tie"], save=folder, resume=True)
    assert not done.partial and done.shoes == 12
    assert sorted(os.listdir(folder)) == ["study.json", "total.npz"]
    assert _kept(folder).next == MAX_SHOES + 1


class _LastFirst:
    """A runner that hands back the chunk submitted last first, as a pool may."""

    slots = 2

    def __init__(self, plan: Any) -> None:
        self.inner = counting._Serial(plan)

    def submit(self, a: int, b: int) -> Any:
        return self.inner.submit(a, b)

    def wait(self, pending: list[Any], timeout: float) -> set[Any]:
        return {pending[-1]}

    def result(self, handle: Any) -> Any:
        return handle.result()

    def close(self, cancel: bool) -> None:
        pass


def test_a_chunk_saved_beyond_the_checkpoint_is_folded_on_resume(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(counting, "SHOES_PER_BATCH", 4)
    args = (PROFILE, 1, 12, 0.75)
    want = _json(count_study(*args, seed=5, bets=["tie"]))
    real = counting._runner
    monkeypatch.setattr(counting, "_runner", lambda plan, *rest: _LastFirst(plan))
    folder = tmp_path / "s"
    part = count_study(*args, seed=5, bets=["tie"], save=folder, progress=_stopper(4),
                       partial_on_stop=True)
    # Shoes 4-7 finished first, then the stop: shoes 0-3 were never dealt.
    assert part.partial and part.shoes == 4
    assert _kept(folder).saved() == [4]
    monkeypatch.setattr(counting, "_runner", real)
    resumed = count_study(*args, seed=5, bets=["tie"], save=folder, resume=True)
    assert not resumed.partial and resumed.shoes == 12
    assert _json(resumed) == want


# -- a grid stopped by an interrupt --------------------------------------------------------


CELLS = [(PROFILE, 1, None), (PROFILE, 1, 20)]


def test_an_interrupted_grid_raises_unless_partial_figures_are_asked() -> None:
    with pytest.raises(KeyboardInterrupt):
        count_grid(CELLS, 2, 0.75, seed=1, progress=_stopper(2), bets=["tie"])
    grid = count_grid(CELLS, 2, 0.75, seed=1, progress=_stopper(2), bets=["tie"],
                      partial_on_stop=True)
    assert grid.partial and len(grid.studies) == 1 and grid.studies[0].partial


# -- figures -------------------------------------------------------------------------------


def test_perfect_information_bets_on_the_positive_rounds() -> None:
    """``rounds_bet_share`` of perfect information is the share of rounds with EV > 0; the
    strategies that bet every round have none."""
    study = count_study(PROFILE, 1, 5, 0.9, seed=3, bets=["banker", "tie"])
    for bet in study.bets:
        f = bet.figures
        share = f["perfect_information"]["rounds_bet_share"]
        assert share == f["positive_share"]
        assert 0 < share["mean"] < 1, bet.bet
        assert "rounds_bet_share" not in f["flat_bet"]
        assert "rounds_bet_share" not in f["perfect_information_spread"]
        assert f["linear_count"]["sit_out"]["rounds_bet_share"]["mean"] == pytest.approx(
            f["linear_count"]["sit_out"]["mean_stake"])


@pytest.mark.parametrize("key, bet", [("punto-banco", "banker"), ("standard", "colon")])
def test_tags_are_balanced_when_they_sum_to_0_over_a_pack(key: str, bet: str) -> None:
    study = count_study(BUILTIN[key], 1, 2, 0.75, seed=1, bets=[bet])
    count = study.bets[0].figures["count"]
    tags = tuple(count["tags"])
    assert count["tags_balanced"] is (sum(tags) == 0) is CountSystem(tags, 0).balanced
    # punto-banco's banker tags sum to 1 (unbalanced); standard's colon tags are all 0.
    assert count["tags_balanced"] is (key == "standard")
