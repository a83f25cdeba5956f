"""The verifier's audit and its reading of the rules must bite: Colon counts under a
Colon-by-rank profile, a value-only log's unknown 10-K pairs, rule options given as
flags, and a cut-card log without a shoe column.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from odds import BUILTIN, Shoe
from odds.sim.simulate import simulate
from odds.sim.verify import RuleOverrides, verify_text
from tests.logs import _as_values

RANK_BANK = BUILTIN["standard"].with_options(colon_match="rank", bank_bonus="on",
                                             bank_colon="2", colon="5/2")


def _log(tmp_path: Path, profile, rounds: int, seed: int, reshuffle: str = "round") -> str:
    path = tmp_path / "log.csv"
    simulate(profile, Shoe.packs_of(2), rounds, seed=seed, reshuffle=reshuffle, log=path)
    return path.read_text(encoding="utf-8")


def _checks(result) -> dict:
    return {c.name: c for s in result.seats for c in s.checks}


# -- 3. audit -------------------------------------------------------------------------


def test_colon_counts_are_tested_for_card_logs_under_colon_by_rank(tmp_path) -> None:
    text = _log(tmp_path, RANK_BANK, 3000, seed=4)
    result = verify_text(text, "rank.csv")
    assert result.verdict == "pass", result.verdict_text()
    checks = _checks(result)
    for name in ("player colon", "bank colon", "player colon nine", "bank colon nine"):
        assert name in checks, name
    # The Colon counts are the log's: about 3000 * P(Colon) rounds, not 0.
    assert checks["player colon"].rows[0][1] > 50


def test_a_value_only_log_under_colon_by_rank_with_bank_bonuses_passes(tmp_path) -> None:
    # A bank 10-K pair read from point values may or may not be a Colon: unknown, not a break.
    text = _log(tmp_path, RANK_BANK, 3000, seed=6)
    result = verify_text(_as_values(text), "values.csv")
    assert not result.broken_rules, result.verdict_text()
    assert result.verdict == "pass", result.verdict_text()


# -- 4. verify ------------------------------------------------------------------------


def _strip_options(text: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True)
                   if not line.startswith("# options:"))


def test_rule_options_given_as_flags_are_used(tmp_path) -> None:
    played = BUILTIN["standard"].with_options(colon="none", colon_nine="none")
    text = _strip_options(_log(tmp_path, played, 3000, seed=2))
    # The header says standard (Colons pay a bonus): the log's unit pays break the rules.
    assert verify_text(text, "f").broken_rules
    flagged = verify_text(text, "f", RuleOverrides(options={"colon": "none",
                                                            "colon_nine": "none"}))
    assert not flagged.broken_rules and flagged.verdict == "pass", flagged.verdict_text()
    assert dict(flagged.sources)["option colon"] == "flag"


def test_a_cut_card_log_without_a_shoe_column_is_not_tested_as_fresh_shoes(tmp_path) -> None:
    text = _log(tmp_path, BUILTIN["standard"], 2000, seed=3, reshuffle="cut")
    lines = text.splitlines()
    body = [ln.rsplit(",", 1)[0] if not ln.startswith("#") else ln for ln in lines]
    assert body[-1].count(",") == 5 and "shoe" not in body[lines.index(
        next(ln for ln in lines if ln.startswith("round")))]
    result = verify_text("\n".join(body) + "\n", "noshoe.csv")
    assert result.continuous
    assert result.expectation != "fresh"
    with_shoe = verify_text(text, "shoe.csv")
    assert with_shoe.expectation == "per round"


@pytest.mark.parametrize("flag", [{"bank_draw": "0-4"}, {"player_draw": "0-4"}])
def test_a_draw_rule_given_as_a_flag_breaks_a_standard_log(tmp_path, flag) -> None:
    text = _strip_options(_log(tmp_path, BUILTIN["standard"], 400, seed=9))
    assert not verify_text(text, "f").broken_rules
    assert verify_text(text, "f", RuleOverrides(options=flag)).broken_rules
