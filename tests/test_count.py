"""Issue 10 part 6: the shoe study, `lucky9 count`."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cli import main
from odds.exact.bet_table import bet_set
from odds.exact.engine import round_odds
from odds.exact.rounds import deal_rounds, shuffled_shoe
from odds.money.counting import count_study, deal_compositions, integer_tags
from odds.money.counting.summary import _ratio
from odds.report.count_report import count_data
from odds.rules.profiles import BUILTIN
from odds.rules.shoe import Shoe


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("key, packs", [("standard", 1), ("punto-banco", 2), ("super9", 1)])
def test_study_compositions_are_the_followed_shoe(key: str, packs: int) -> None:
    """Shoe k of a study is the shoe `lucky9 shoe --seed S --index k` deals, round by round."""
    profile = BUILTIN[key]
    comps = deal_compositions(profile, packs, 0.8, 9, 3)
    rounds = deal_rounds(profile, shuffled_shoe(packs, 9, 3), 0.8)
    assert len(comps) == len(rounds)
    counts = [4 * packs] * 13
    for comp, r in zip(comps, rounds, strict=True):
        assert comp.tolist() == counts
        for card in r.cards:
            counts[card.rank.index] -= 1


@pytest.mark.parametrize("key", ["standard", pytest.param("punto-banco", marks=pytest.mark.slow)])
def test_per_round_evs_are_exact(key: str) -> None:
    """The study's per-round EVs (bet_set on the dealt compositions) against round_odds."""
    profile = BUILTIN[key]
    comps = np.vstack([deal_compositions(profile, 1, 0.75, 4, i) for i in range(3)])
    bets = ["player", "banker", "tie"] if key == "punto-banco" else ["player", "colon-share"]
    chosen = bet_set(profile, bets)
    counts = chosen.table().counts(comps, packs=1)
    exact = chosen.exact_evs(counts)
    floats = chosen.float_evs(counts)
    for bet in bets:
        for i in range(0, len(comps), 4):
            shoe = Shoe(tuple(int(c) for c in comps[i]))
            odds = round_odds(profile, shoe)
            if bet == "colon-share":
                plain = profile.with_options(colon="none", colon_nine="none")
                assert exact[bet][i] == odds.expected_value - round_odds(plain, shoe).expected_value
            else:
                assert exact[bet][i] == odds.bet_moments(bet)[0]
            assert math.isclose(floats[bet][i], float(exact[bet][i]), rel_tol=1e-12,
                                abs_tol=1e-15)


def test_jobs_do_not_change_the_figures() -> None:
    one = count_data(count_study(BUILTIN["punto-banco"], 1, 24, 0.75, seed=5, jobs=1))
    two = count_data(count_study(BUILTIN["punto-banco"], 1, 24, 0.75, seed=5, jobs=2))
    assert one == two


def test_study_figures_hold_together() -> None:
    study = count_study(BUILTIN["punto-banco"], 1, 40, 0.75, seed=2,
                        bets=["player", "banker", "tie"])
    data = count_data(study)
    assert data["study"]["rounds"] == study.rounds
    for bet, figures in data["bets"].items():
        assert sum(figures["histogram"]["counts"]) == study.rounds
        p = figures["percentiles"]
        assert figures["min"] <= p["1"] <= p["50"] <= p["99"] <= figures["max"]
        # Perfect information never earns less than sitting out or flat betting.
        perfect = figures["perfect_information"]["gain_per_round_dealt"]["mean"]
        assert perfect >= 0
        assert perfect >= figures["tag_count"]["sit_out"]["gain_per_round_dealt"]["mean"] - 1e-15
        assert perfect >= figures["flat_bet"]["gain_per_round_dealt"]["mean"]
        assert figures["linear_count"]["correlation_with_exact_ev"] > 0.5, bet
        assert len(figures["count"]["tags"]) == 13
        share = figures["positive_share"]["mean"]
        assert (figures["mean_when_positive"] is None) == (share == 0)
        assert figures["mean_when_positive"] is None or figures["mean_when_positive"] > 0
    assert data["bets"]["tie"]["effects_of_removal_exact"]["A"] == str(
        study.bets[2].effects[0])


def test_linear_count_is_exact_for_one_card_removed() -> None:
    """The linear estimate reproduces the exact EV after one card: (N0-1)/N * g_r = g_r."""
    study = count_study(BUILTIN["standard"], 1, 2, 0.75, seed=1)
    player = study.bets[0]
    for r in range(13):
        shoe = Shoe.packs_of(1).without([__import__("odds").RANKS[r].value])
        exact = round_odds(BUILTIN["standard"], shoe).expected_value
        assert exact == player.fresh_ev + player.effects[r]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.fractions(min_value=-5, max_value=5), min_size=1, max_size=13))
def test_integer_tags_are_scaled_and_bounded(effects: list[Fraction]) -> None:
    tags = integer_tags(tuple(effects))
    assert all(abs(t) <= 3 for t in tags)
    top = max(abs(e) for e in effects)
    if top:
        assert max(abs(t) for t in tags) == 3
        assert all(t == 0 or (t > 0) == (e > 0) for t, e in zip(tags, effects, strict=True))


def test_ratio_standard_error() -> None:
    sums = np.array([2.0, 4.0, 6.0])
    counts = np.array([2.0, 2.0, 2.0])
    s = np.array([sums.sum(), (sums**2).sum()])
    c = np.array([counts.sum(), (counts**2).sum()])
    mean, se = _ratio(s, c, float((sums * counts).sum()), 3)
    assert mean == 2.0
    assert se == pytest.approx(np.std([1.0, 2.0, 3.0], ddof=1) / math.sqrt(3))


def test_count_command_json_and_text() -> None:
    out = run("count", "--shoes", "8", "--decks", "1", "--seed", "3", "--format", "json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["study"]["shoes"] == 8 and data["study"]["cut_card_after"] == 41
    assert set(data["bets"]) == {"player", "colon", "colon-nine", "colon-share"}
    assert "estimates" in data["note"] and "exact" in data["note"]
    player = data["bets"]["player"]
    for key in ("percentiles", "histogram", "positive_share", "perfect_information",
                "linear_count", "tag_count", "count", "cut_card_effect"):
        assert key in player
    text = run("count", "--shoes", "8", "--decks", "1", "--seed", "3", "--profile", "punto-banco")
    assert text.exit_code == 0, text.output
    assert "betting correlation" in text.output and "cut-card effect" in text.output
    assert all(len(line) <= 80 for line in text.output.splitlines()[2:])


def test_count_command_progress_bar_on_stderr() -> None:
    out = CliRunner().invoke(main, ["count", "--shoes", "3", "--decks", "1", "--progress",
                                    "--format", "json"])
    assert out.exit_code == 0
    assert "dealing shoes" in out.stderr
    json.loads(out.stdout)  # stdout holds only the data


@pytest.mark.parametrize("args, message", [
    (["--shoes", "0"], "0 is not in the range"),
    (["--shoes", "2.5"], "is not a valid integer"),
    (["--decks", "-1"], "at least 1 pack"),
    (["--decks", "inf"], "give --decks D"),
    (["--jobs", "0"], "0 is not in the range"),
    (["--penetration", "0"], "0"),
    (["--profile", "family"], "no fixed draw rule"),
    (["--decks", "101"], "at most 100 packs (5,200 cards, some 800 rounds"),
], ids=["shoes", "fraction", "negative", "inf", "jobs", "penetration", "family", "huge"])
def test_count_command_bad_input(args: list[str], message: str) -> None:
    out = run("count", "--shoes", "2", *args)
    assert out.exit_code == 2, out.output
    assert message in out.output


def test_count_command_reports_the_bets_asked_for() -> None:
    out = run("count", "--profile", "punto-banco", "--shoes", "3", "--decks", "1",
              "--bet", "tie", "--format", "json")
    assert out.exit_code == 0, out.output
    assert list(json.loads(out.output)["bets"]) == ["tie"]
    bad = run("count", "--shoes", "2", "--bet", "dragon-8")
    assert bad.exit_code == 2 and "unknown bet 'dragon-8'" in bad.output
