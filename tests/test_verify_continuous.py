"""Issue 11: continuous shoes tested exactly per round; a simulator's rule break is a failure."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from cli import main
from odds.exact.engine import round_odds
from odds.rules.profiles import BUILTIN
from odds.rules.shoe import Shoe
from odds.sim.expect import round_probabilities
from odds.sim.simulate import simulate
from odds.sim.verify import verify_file, verify_text


@pytest.mark.parametrize("key", ["standard", "super9", "punto-banco"])
def test_per_round_probabilities_agree_with_the_engine(key):
    profile = BUILTIN[key]
    rng = random.Random(11)
    comps = []
    for packs in (1, 2):
        counts = [4 * packs] * 13
        for _ in range(rng.randrange(5, 30)):
            r = rng.randrange(13)
            counts[r] = max(0, counts[r] - 1)
        comps.append(counts)
    probs = round_probabilities(profile, comps)
    for i, counts in enumerate(comps):
        exact = round_odds(profile, Shoe(tuple(counts)))
        for k, name in enumerate(probs.names):
            assert probs.categories[i, k] == pytest.approx(
                float(exact.categories.get(name, 0)), abs=1e-13)
        assert probs.bank_draws[i] == pytest.approx(float(exact.bank_draws), abs=1e-13)
        dist = exact.payout_distribution("player")
        for j, amount in enumerate(probs.amounts):
            assert probs.payouts[i, j] == pytest.approx(float(dist.get(amount, 0)), abs=1e-13)
        assert probs.player_colon[i, 1:].sum() == pytest.approx(float(exact.player_colon),
                                                                abs=1e-13)


HEAD = "# shoe: 1\n# reshuffle: cut\n# profile: plain\nround,seat,player,bank,result,payout,shoe\n"


def test_a_fourth_card_is_a_rule_failure_on_its_line():
    rows = ("1,1,8h 7s,Ac 6d,win_comparison,1,1\n"
            "2,1,2h 2s 3c 4d,Kc 6c,loss_comparison,-1,1\n")
    result = verify_text(HEAD + rows, "log")
    assert result.verdict == "fail" and "hand size" in result.broken_rules
    assert [v.line for v in result.violations if v.rule == "hand size"] == [6]


def test_the_same_card_twice_in_a_shoe_is_a_rule_failure_on_its_line():
    rows = ("1,1,8h 7s,Ac 6d,win_comparison,1,1\n"
            "2,1,8h 2s,Kc 6c,loss_comparison,-1,1\n")
    result = verify_text(HEAD + rows, "log")
    assert "cards" in result.broken_rules
    assert [v.line for v in result.violations if v.rule == "cards"] == [6]
    # In a new shoe the same card is fine.
    fine = verify_text(HEAD + rows.replace("-1,1\n", "-1,2\n"), "log")
    assert "cards" not in fine.broken_rules


def test_the_cli_exits_1_not_2_for_a_simulator_bug(tmp_path):
    path = tmp_path / "log.csv"
    path.write_text(HEAD + "1,1,8h 7s 8h,Ac 6d,win_comparison,1,1\n")
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exit_code == 1, result.output
    assert "line 5 (round 1, seat 1): cards" in result.output


def test_our_cut_card_simulator_passes_with_the_shoe_column(tmp_path):
    seed = 20261201
    print(f"seed {seed}")
    log = tmp_path / "cut.csv"
    simulate(BUILTIN["standard"], Shoe.packs_of(2), 40_000, seed=seed, reshuffle="cut",
             log=log)
    result = verify_file(log)
    assert result.expectation == "per round"
    assert result.verdict == "pass", result.verdict_text()
