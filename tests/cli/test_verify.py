"""``lucky9 verify`` and ``lucky9 simulate`` on the command line, as a simulator
programmer meets them: the over-dealt shoe, the profile question, the cut card."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli import main

SEED = 20261204


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def _cut_log(tmp_path: Path) -> Path:
    path = tmp_path / "cut.csv"
    out = run("simulate", "--decks", "1", "--reshuffle", "cut", "--rounds", "200", "--seed",
              str(SEED), "--log", str(path))
    assert out.exit_code == 0, out.output
    return path


def test_verify_reports_an_over_dealt_shoe_once(tmp_path):
    path = _cut_log(tmp_path)
    lines = path.read_text().splitlines()
    k = next(i for i, ln in enumerate(lines) if ln.startswith("round,"))
    one, two = lines[k + 1].split(","), lines[k + 2].split(",")
    two[3] = " ".join([one[2].split()[0], *two[3].split()[1:]])  # a card dealt twice
    lines[k + 2] = ",".join(two)
    path.write_text("\n".join(lines) + "\n")
    out = run("verify", str(path))
    assert out.exit_code == 1, out.output
    assert "  cards        1 row broken" in out.output
    assert f"line {k + 3} (round 2, seat 1): cards: deals 2 " in out.output
    assert "shoe 1 is over-dealt from here, so its " in out.output


def test_verify_asks_whether_a_headerless_log_is_another_profile(tmp_path):
    log = tmp_path / "pb.csv"
    out = run("simulate", "--profile", "punto-banco", "--rounds", "1000", "--seed", str(SEED),
              "--log", str(log))
    assert out.exit_code == 0, out.output
    bare = tmp_path / "bare.csv"
    bare.write_text("\n".join(",".join(ln.split(",")[:6]) for ln in log.read_text().splitlines()
                              if not ln.startswith("#")) + "\n")
    out = run("verify", str(bare))
    assert out.exit_code == 1, out.output
    assert out.output.rstrip().splitlines()[-1].startswith(
        "hint: is this a different profile? The file names none, so it was read as standard")
    assert "--profile punto-banco" in out.output
    data = json.loads(run("verify", str(bare), "--format", "json").output)
    assert "--profile punto-banco" in data["hint"]
    fixed = run("verify", str(bare), "--profile", "punto-banco")
    assert fixed.exit_code == 0, fixed.output
    assert "hint:" not in fixed.output


def test_simulate_cut_cards_states_the_cut_and_seed(tmp_path):
    out = run("simulate", "--profile", "punto-banco", "--cut-cards", "14", "--rounds", "500",
              "--seed", "2")
    assert out.exit_code == 0, out.output
    assert ("shoe: 8 packs; continuous shoe, cut card at penetration 0.9663: 402 of 416 cards "
            "dealt, 14 behind it (") in out.output
    assert out.output.count("seed 2") == 1
    data = json.loads(run("simulate", "--profile", "punto-banco", "--cut-cards", "14",
                          "--rounds", "500", "--seed", "2", "--format", "json").output)
    assert data["cut_cards"] == 14 and data["reshuffle"] == "cut" and data["seed"] == 2
    assert data["penetration"] == pytest.approx(402 / 416)
    default = run("simulate", "--decks", "8", "--reshuffle", "cut", "--rounds", "100",
                  "--seed", "3")
    assert ("continuous shoe, cut card at penetration 0.75: 312 of 416 cards dealt, 104 behind "
            "it (") in default.output
    fresh = json.loads(run("simulate", "--rounds", "10", "--seed", "3", "--format",
                           "json").output)
    assert fresh["cut_cards"] is None and fresh["penetration"] is None


def test_simulate_cut_cards_log_verifies(tmp_path):
    log = tmp_path / "cc.csv"
    out = run("simulate", "--decks", "2", "--cut-cards", "20", "--rounds", "2000", "--seed",
              str(SEED), "--log", str(log))
    assert out.exit_code == 0, out.output
    verdict = run("verify", str(log))
    assert verdict.exit_code == 0, verdict.output
    assert "reshuffle: cut at penetration 0.807692 (20 cards behind the cut card)" in verdict.output


@pytest.mark.parametrize("args, message", [
    (["--cut-cards", "14", "--penetration", "0.8"], "give --penetration or --cut-cards, not both"),
    (["--cut-cards", "14", "--reshuffle", "round"],
     "--cut-cards places a cut card, but --reshuffle round deals a fresh shoe every round"),
    (["--penetration", "0.8", "--reshuffle", "round"], "--penetration places a cut card"),
    (["--cut-cards", "52", "--decks", "1"],
     "a cut card with 52 cards behind it leaves none to deal: the shoe holds 52 cards"),
    (["--cut-cards", "-1"], "-1"),
], ids=["both", "cut-cards-round", "penetration-round", "too-many", "negative"])
def test_simulate_cut_card_bad_input_exits_2(args, message):
    out = run("simulate", "--rounds", "10", *args)
    assert out.exit_code == 2, out.output
    assert message in out.output
    assert "Traceback" not in out.output
