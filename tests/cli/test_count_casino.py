"""`lucky9 count` dealt as casinos deal (--burn-rule, --count-burn, --rounds-after-cut,
--trigger-schedule) and its one convention for sampled figures (95% intervals)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli import main

BASE = ["count", "--profile", "ez-baccarat", "--decks", "8", "--shoes", "10", "--seed", "1",
        "--bet", "dragon-7", "--cut-cards", "16"]
HOW = ["--tags", "1,0,0,-1,-1,-1,-1,2,2,0,0,0,0", "--irc", "-32"]
JACOBSON = ["--tags", "0,0,0,-1,-1,-1,-1,2,2,0,0,0,0", "--trigger", "4"]


@pytest.mark.parametrize(("args", "message"), [
    (["--burn", "2", "--burn-rule", "casino"], "give one of them"),
    (["--burn-rule", "vegas"], "'vegas' is not one of 'none', 'casino'"),
    (["--rounds-after-cut", "11"], "0<=x<=10"),
    (["--rounds-after-cut", "3", "--cut-cards", "14"], "need 18 cards behind it, not 14"),
    (["--trigger-schedule", "0:0"], "go with --tags"),
    ([*JACOBSON[:2], "--trigger-schedule", "0:4"], "for unbalanced tags"),
    ([*HOW, "--trigger-schedule", "200-2"], "is not CARDS:TRIGGER (say 0:0,200:-2)"),
    ([*HOW, "--trigger-schedule", "0:0,200:x"], "'x' is not a number"),
    ([*HOW, "--trigger-schedule", "200:0,100:-2"], "cards increase step by step"),
    ([*HOW, "--trigger-schedule", "0:0,,100:-2"], "has an empty value"),
    ([*HOW, "--trigger", "1", "--trigger-schedule", "0:0"], "--trigger would never apply"),
], ids=["burn-and-casino", "rule", "rounds-bound", "rounds-room", "schedule-no-tags",
        "schedule-balanced", "schedule-form", "schedule-number", "schedule-order",
        "schedule-empty", "schedule-and-trigger"])
def test_bad_input_exits_2_with_a_sentence(args: list[str], message: str) -> None:
    out = CliRunner().invoke(main, [*BASE, *args])
    assert out.exit_code == 2, out.output
    assert message in " ".join(out.output.split())
    assert "Traceback" not in out.output


def test_text_prints_95_intervals_and_the_casino_deal() -> None:
    out = CliRunner().invoke(main, [*BASE, *HOW, "--burn-rule", "casino", "--rounds-after-cut",
                                    "1", "--trigger-schedule", "0:0,300:-2"])
    assert out.exit_code == 0, out.output
    text = " ".join(out.output.split())
    assert "95% interval [lo, hi]" in text and " ± " not in text
    assert "the first card shown (counted) and its value burned face down (10-K: 10)" in text
    assert "1 round dealt after the cut card comes out" in text
    assert "bet at 0 from 0 cards seen, -2 from 300 cards seen or more" in text
    assert "EV when betting" in text and "edge when betting" not in text


def test_json_has_ci95_beside_the_se_and_the_dealing() -> None:
    out = CliRunner().invoke(main, [*BASE, *HOW, "--burn-rule", "casino", "--no-count-burn",
                                    "--trigger-schedule", "0:0,300:-2", "--format", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    study = data["study"]
    assert (study["burn_rule"], study["count_burn"], study["rounds_after_cut"]) == (
        "casino", False, 0)
    assert study["count_system"]["trigger_schedule"] == [
        {"cards_seen": 0, "trigger": 0.0}, {"cards_seen": 300, "trigger": -2.0}]
    system = data["bets"]["dragon-7"]["system"]
    for key in ("units_per_shoe", "bets_per_shoe", "edge_when_betting"):
        entry = system[key]
        lo, hi = entry["ci95"]
        assert lo <= entry["mean"] <= hi and entry["se"] > 0


def test_defaults_print_what_they_printed() -> None:
    """--burn-rule none, --count-burn and --rounds-after-cut 0 are today's study."""
    plain = CliRunner().invoke(main, [*BASE, *JACOBSON, "--format", "json"])
    explicit = CliRunner().invoke(main, [*BASE, *JACOBSON, "--format", "json", "--burn-rule",
                                         "none", "--rounds-after-cut", "0", "--count-burn"])
    assert plain.exit_code == explicit.exit_code == 0
    assert plain.output == explicit.output
    assert json.loads(plain.output)["study"]["burn_rule"] == "none"


def test_grid_csv_appends_the_95_intervals_after_the_old_columns() -> None:
    out = CliRunner().invoke(main, ["count", "--profile", "punto-banco", "--decks", "1,2",
                                    "--shoes", "6", "--seed", "1", "--bet", "tie",
                                    "--format", "csv"])
    assert out.exit_code == 0, out.output
    rows = [line.split(",") for line in out.output.splitlines()]
    head = rows[0]
    assert head[:3] == ["profile", "packs", "cut_card_after"]
    old = head.index("linear_count_sit_out_per_round_se")
    assert old == 20  # the old columns keep their places, the intervals come after them
    assert head[old + 1:old + 3] == ["mean_ev_ci95_low", "mean_ev_ci95_high"]
    for row in rows[1:]:
        mean, se = float(row[head.index("mean_ev")]), float(row[head.index("mean_ev_se")])
        lo, hi = float(row[head.index("mean_ev_ci95_low")]), float(row[head.index(
            "mean_ev_ci95_high")])
        assert lo < mean < hi
        assert hi - lo == pytest.approx(2 * 1.959963984540054 * se)
