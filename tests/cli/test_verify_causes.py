"""``lucky9 verify`` names the likely cause of rejected frequencies: each hint on a planted
simulator (tests/planted.py), and never a cause the pattern does not support."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest
from click.testing import CliRunner, Result

from cli import main
from odds.sim.causes import likely_causes
from odds.sim.stats import Check, SeatReport, dealt_ranks_moments
from tests.planted import planted_log, planted_shoe_log, planted_tallies

SEED = 7
REMOVED = "likely cause: cards not removed from the shoe as they are dealt"
SHUFFLE = "likely cause: a biased shuffle or deal"
SETTLE = "likely cause: a comparison or payout bug"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def _verify(path: Path, *flags: str) -> tuple[Result, dict]:
    text = run("verify", str(path), *flags)
    data = json.loads(run("verify", str(path), *flags, "--format", "json").output)
    return text, data


def _hints(output: str) -> list[str]:
    return [ln for ln in output.splitlines() if ln.startswith("hint: likely cause")]


@pytest.mark.parametrize("how, packs, settle, rounds, cause, evidence", [
    ("replacement", 4, "right", 120_000, REMOVED,
     "Colons (pairs in the first two cards) are too frequent, player colon (z +"),
    ("naive", 1, "right", 20_000, SHUFFLE, "the cards dealt are off, "),
    ("fair", 1, "ties-lose", 20_000, SETTLE, "the settlements are off, "),
], ids=["replacement", "naive-shuffle", "ties-lose"])
def test_each_planted_bug_in_tallies_gets_its_cause_and_no_other(tmp_path, how, packs, settle,
                                                                 rounds, cause, evidence):
    path = tmp_path / "tallies.csv"
    path.write_text(planted_tallies(rounds, SEED, how, packs, settle))
    out, data = _verify(path)
    assert out.exit_code == 1, out.output
    hints = _hints(out.output)
    assert len(hints) == 1 and hints[0].startswith(f"hint: {cause}"), out.output
    assert evidence in hints[0]
    assert "every row keeps" not in hints[0]  # a tallies file has no rows to audit
    assert data["causes"] == [hints[0][len("hint: "):]]
    assert data["verdict"] == "fail"


def test_a_fair_planted_simulator_gets_no_cause(tmp_path):
    path = tmp_path / "fair.csv"
    path.write_text(planted_tallies(20_000, SEED, "fair", 1))
    out, data = _verify(path)
    assert out.exit_code == 0, out.output
    assert data["causes"] == [] and not _hints(out.output)


def test_the_naive_shuffle_log_is_called_a_biased_shuffle_with_the_rules_kept(tmp_path):
    path = tmp_path / "naive.csv"
    path.write_text(planted_log(20_000, SEED, "naive"))
    out, data = _verify(path)
    assert out.exit_code == 1, out.output
    assert data["audit"]["counts"] and not any(data["audit"]["counts"].values())
    assert len(data["causes"]) == 1 and data["causes"][0].startswith(SHUFFLE)
    assert ", while every row keeps the draw rules" in data["causes"][0]
    assert "adds a test of each card's position in its shoe" in data["causes"][0]


def test_a_settlement_bug_in_a_log_is_the_audit_s_not_a_guess(tmp_path):
    path = tmp_path / "ties.csv"
    path.write_text(planted_log(2000, SEED, "fair", settle="ties-lose"))
    out, data = _verify(path)
    assert out.exit_code == 1, out.output
    assert data["audit"]["counts"]["result"] > 0
    assert data["causes"] == [] and not _hints(out.output)


@pytest.mark.slow
def test_a_log_drawn_with_replacement_from_a_six_pack_list_is_named(tmp_path):
    # The simulator: cards drawn with replacement from a 6-pack list, a fresh
    # shoe each round; a Colon is 1/13 likely, not 23/311.  Its fast twin is the tallies
    # case above (4 packs, where a log would over-deal a card now and then).
    path = tmp_path / "replace.csv"
    path.write_text(planted_log(300_000, SEED, "replacement", packs=6))
    out = run("verify", str(path), "--decks", "6", "--format", "json")
    assert out.exit_code == 1, out.output
    data = json.loads(out.output)
    assert not any(data["audit"]["counts"].values())
    assert len(data["causes"]) == 1 and data["causes"][0].startswith(REMOVED)
    assert "while every row keeps the rules and the two-card values" in data["causes"][0]


# -- the patterns on their own: a cause only where its evidence is --------------


def _check(name: str, p: float, z: float = 0.0, chi: bool = False) -> Check:
    return Check(name, z, 9 if chi else None, mpmath.mpf(p))


def _seat(**ps: float) -> SeatReport:
    """A seat whose tests have the p-values given (by name with _ for spaces; z is +5 for
    a rejecting z test, 0 otherwise); every other test agrees (p = 0.5)."""
    names = ["outcomes", "win", "push", "loss", "player two-card value", "player natural",
             "bank two-card value", "bank natural", "player colon", "bank colon",
             "player draws", "bank draws", "payouts", "expected value"]
    checks = []
    for name in names:
        p = ps.get(name.replace(" ", "_").replace("-", "_"), 0.5)
        chi = name in ("outcomes", "payouts") or name.endswith("value") and "two" in name
        checks.append(_check(name, p, 5.0 if p < 1e-6 else 0.0, chi))
    return SeatReport(1, 1000, tuple(checks), 0.0, Fraction(0), None, 0.0)


@pytest.mark.parametrize("ps, expected", [
    ({"player_colon": 1e-9}, [REMOVED]),
    ({"player_colon": 1e-9, "player_draws": 1e-9}, []),  # the draws off too: no claim
    ({"player_colon": 1e-9, "player_two_card_value": 1e-9}, [SHUFFLE]),
    ({"player_two_card_value": 1e-9}, [SHUFFLE]),
    ({"push": 1e-9}, [SETTLE]),
    ({"push": 1e-9, "bank_draws": 1e-9}, []),  # the draws off: not a settlement alone
    ({"push": 1e-9, "bank_colon": 1e-9}, [REMOVED]),
    ({"player_colon": 1e-4}, []),  # below alpha, but not at the verdict's level
    ({}, []),
], ids=["colon", "colon-and-draws", "colon-and-values", "values", "push", "push-and-draws",
        "push-and-colon", "weak", "none"])
def test_a_cause_is_named_only_where_the_pattern_supports_it(ps, expected):
    causes = likely_causes([_seat(**ps)], 0.01, "6 packs", False, True)
    assert [c for c in causes if not any(c.startswith(e) for e in expected)] == []
    assert len(causes) == len(expected)


def test_an_infinite_shoe_has_no_cards_to_remove():
    assert likely_causes([_seat(player_colon=1e-9)], 0.01, "inf", True, False) == ()


def test_the_planted_tallies_file_of_the_docs_is_the_planted_simulator_s():
    from tests.paths import DATA

    text = (DATA / "planted-replacement-tallies.csv").read_text()
    assert text == planted_tallies(120_000, SEED, "replacement", 4)


# -- each card's position in its shoe (a log with a shoe column) -----------------


def test_a_biased_shuffle_of_continuous_shoes_fails_the_position_test_and_is_named(tmp_path):
    path = tmp_path / "half.csv"
    path.write_text(planted_shoe_log(1200, SEED, "half"))
    out, data = _verify(path)
    assert out.exit_code == 1, out.output
    assert not any(data["audit"]["counts"].values())
    tests = {t["name"]: t for t in data["seats"][0]["tests"]}
    assert 30 <= tests["ranks by shoe position"]["df"] <= 36  # 3 parts x (13 - 1), pooled
    assert float(tests["ranks by shoe position"]["p"]) < 1e-100
    assert "seat 1's chi-square test of ranks by shoe position rejects" in data["verdict_text"]
    assert len(data["causes"]) == 1 and data["causes"][0].startswith(SHUFFLE)
    assert "the cards dealt are off, ranks by shoe position (p = " in data["causes"][0]
    assert "adds a test of each card's position" not in data["causes"][0]
    assert "chi-square ranks by shoe position" in out.output


def test_a_fair_shuffle_of_continuous_shoes_passes_the_position_test(tmp_path):
    path = tmp_path / "fair.csv"
    path.write_text(planted_shoe_log(1200, SEED, "fair"))
    out, data = _verify(path)
    assert out.exit_code == 0, out.output
    tests = {t["name"]: t for t in data["seats"][0]["tests"]}
    assert float(tests["ranks by shoe position"]["p"]) > 0.01
    assert data["causes"] == []


def test_without_a_shoe_column_the_shuffle_hint_says_how_to_get_the_position_test():
    causes = likely_causes([_seat(player_two_card_value=1e-9)], 0.01, "1 pack", False, True)
    assert causes[0].endswith("(a round log with a shoe column, the shoe's number with its "
                              "rows in deal order, adds a test of each card's position in "
                              "its shoe)")


@pytest.mark.parametrize("composition, k", [((3, 2, 1), 2), ((2, 2, 2, 1), 3), ((1, 4), 4)])
def test_dealt_ranks_moments_are_the_exact_moments_of_k_cards_dealt(composition, k):
    # Brute force: every ordered deal of k cards from the composition, equally likely.
    cards = [r for r, n in enumerate(composition) for _ in range(n)]
    deals = list(itertools.permutations(range(len(cards)), k))
    counts = np.array([np.bincount([cards[i] for i in d], minlength=len(composition))
                       for d in deals], dtype=float)
    mean = counts.mean(axis=0)
    cov = (counts - mean).T @ (counts - mean) / len(deals)
    m = dealt_ranks_moments([composition, composition], [k, k])
    assert np.allclose(m.expected, 2 * mean) and np.allclose(m.cov, 2 * cov)
