"""``lucky9 verify``: false alarms (a correct simulator called wrong), and the
audit and rule paths that no test held before.

Each case is built as a user would: a log file written in ``tmp_path`` and
``lucky9 verify`` run on it through click's runner (or the library).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli import main
from odds.sim.verify import verify_file

HEAD = "round,seat,player,bank,result,payout"
POINT = {"A": "1", "10": "0", "J": "0", "Q": "0", "K": "0"}


def run(*args: str) -> Result:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a numpy RuntimeWarning is a failure here
        return CliRunner().invoke(main, ["verify", *args])


def write(tmp_path: Path, name: str, *lines: str) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


def simulated(tmp_path: Path, name: str, *args: str) -> Path:
    path = tmp_path / name
    result = CliRunner().invoke(main, ["simulate", "--no-progress", "--log", str(path), *args])
    assert result.exit_code == 0, result.output
    return path


def as_values(src: Path, dst: Path) -> Path:
    """The same rounds with every card written as its point value."""
    out = []
    for line in src.read_text().splitlines():
        if line.startswith("#") or line.startswith("round"):
            out.append(line)
            continue
        cells = line.split(",")
        for i in (2, 3):
            cells[i] = " ".join(POINT.get(c[:-1], c[:-1]) for c in cells[i].split())
        out.append(",".join(cells))
    dst.write_text("\n".join(out) + "\n")
    return dst


def names_of_tests(path: Path, *args: str) -> list[str]:
    import json

    result = run(str(path), "--format", "json", *args)
    assert result.exit_code in (0, 1), result.output
    return [t["name"] for s in json.loads(result.output)["seats"] for t in s["tests"]]


# -- suited cards against a composition of ranks ------------------------------


def test_suited_cards_with_rank_only_shoe_are_not_blamed_on_the_simulator(tmp_path) -> None:
    log = simulated(tmp_path, "run.csv", "--rounds", "400", "--seed", "3")
    result = run(str(log), "--shoe", ",".join(["4"] * 13))
    assert result.exit_code == 0, result.output
    assert "  cards        ok" in result.output
    assert "suits written on the cards of 400 rounds are not checked" in result.output
    assert result.output.rstrip().splitlines()[-1].startswith("PASS")


def test_suited_cards_with_rank_only_shoe_still_count_the_ranks(tmp_path) -> None:
    # The suits are read past, the ranks are not: five kings from a shoe of four.
    log = write(tmp_path, "five.csv", HEAD, "1,1,Ks Kh Kd,Kc Ks 9d,loss_comparison,-1")
    result = run(str(log), "--shoe", ",".join(["4"] * 13))
    assert result.exit_code == 1
    assert "deals 5 cards of rank K in one round" in result.output


# -- a one-row log with a shoe column: exact small-count tests ----------------

ONE_ROUND = "1,1,2c Ad 3h,9h 9s,loss_natural_8,-1"  # a bank Colon nine (two 9s)


@pytest.mark.parametrize("column", [True, False], ids=["shoe column", "no shoe column"])
def test_one_row_log_with_a_shoe_column_uses_the_exact_small_count_tests(
        tmp_path, column: bool) -> None:
    log = write(tmp_path, "one.csv", "# shoe: 8", "# reshuffle: cut",
                HEAD + (",shoe" if column else ""), ONE_ROUND + (",1" if column else ""))
    result = run(str(log))
    assert result.exit_code == 0, result.output
    line = next(ln for ln in result.output.splitlines() if "bank colon nine" in ln)
    assert "(exact binomial)" in line
    fresh = write(tmp_path, "fresh.csv", "# shoe: 8", HEAD, ONE_ROUND)
    fresh_line = next(ln for ln in run(str(fresh)).output.splitlines()
                      if "bank colon nine" in ln)
    # One round: the binomial tail of the round's own probability, 2 p (the
    # fresh shoe's and the per-round one agree to within the sampled shoes' error).
    def p_value(text: str) -> float:
        return float(text.split("p = ")[1].split()[0])

    assert p_value(line) == pytest.approx(p_value(fresh_line), abs=0.002)
    assert "one cell: nothing to test" in result.output  # a chi-square of one round pools


def test_thirty_colon_nines_in_thirty_rounds_still_fail_on_the_exact_tail(tmp_path) -> None:
    rows = [f"{k},1,2c Ad 3h,9h 9s,loss_natural_8,-1,{k}" for k in range(1, 31)]
    log = write(tmp_path, "nines.csv", "# shoe: 8", "# reshuffle: cut", HEAD + ",shoe", *rows)
    result = run(str(log))
    assert result.exit_code == 1, result.output
    verdict = next(ln for ln in result.output.splitlines() if ln.startswith("FAIL"))
    assert verdict.startswith("FAIL: the frequencies do not match")
    line = next(ln for ln in result.output.splitlines() if "bank colon nine" in ln)
    assert "(exact binomial)" in line and "e-" in line.split("p = ")[1]


# -- value-only cards: every test the values allow ------------------------------


@pytest.mark.parametrize(("args", "dropped"), [
    (("--rounds", "2000", "--seed", "4"), {"player colon", "bank colon"}),
    (("--rounds", "2000", "--seed", "4", "--reshuffle", "cut", "--decks", "2"),
     {"player colon", "bank colon", "payouts", "expected value"}),
], ids=["fresh shoe", "shoe column"])
def test_value_only_cards_keep_every_test_the_values_allow(tmp_path, args, dropped) -> None:
    ranks = simulated(tmp_path, "ranks.csv", *args)
    values = as_values(ranks, tmp_path / "values.csv")
    with_ranks = names_of_tests(ranks)
    with_values = names_of_tests(values, "--cards", "values")
    assert "player colon nine" in with_values and "bank colon nine" in with_values
    assert set(with_ranks) - set(with_values) == dropped
    assert set(with_values) <= set(with_ranks)
    text = run(str(values), "--cards", "values").output
    assert "the player and bank Colon counts are not tested (the Colon-nine counts are" in text
    assert text.rstrip().splitlines()[-1].startswith("PASS")


def test_value_only_cards_colon_nine_test_rejects_too_many_pairs_of_nines(tmp_path) -> None:
    rows = [f"{k},1,9 9,7 0,win_natural_8,3" for k in range(1, 41)]
    log = write(tmp_path, "nines.csv", "# shoe: 8", "# cards: values", HEAD, *rows)
    result = run(str(log))
    assert result.exit_code == 1, result.output
    line = next(ln for ln in result.output.splitlines() if "player colon nine" in ln)
    assert "e-" in line.split("p = ")[1]


# -- a shoe dealt past its end --------------------------------------------------


def _pack_in_two_card_hands() -> list[str]:
    """A 52-card pack as 13 rounds of two standing hands (two-card values 6-9)."""
    suits = "shdc"
    zeros = [f"{r}{s}" for r in ("10", "J", "Q", "K") for s in suits]
    highs = [f"{r}{s}" for r in ("6", "7", "8", "9") for s in suits]
    hands = [(z, h) for z, h in zip(zeros, highs, strict=True)]
    hands += [(f"A{s}", f"5{s}") for s in suits] + [(f"2{s}", f"4{s}") for s in suits]
    hands += [("3s", "3h"), ("3d", "3c")]
    value = {"A": 1, "10": 0, "J": 0, "Q": 0, "K": 0}

    def points(hand: tuple[str, str]) -> int:
        return sum(value.get(c[:-1], 0) if c[:-1] in value else int(c[:-1]) for c in hand) % 10

    rows = []
    for k in range(13):
        player, bank = hands[2 * k], hands[2 * k + 1]
        p, b = points(player), points(bank)
        colon = player[0][:-1] == player[1][:-1]
        outcome, pay = (("win", 2 if colon else 1) if p > b else
                        ("push", 0) if p == b else ("loss", -1))
        rows.append(f"{k + 1},1,{' '.join(player)},{' '.join(bank)},{outcome},{pay},1")
    return rows


def test_shoe_dealt_past_its_end_names_the_rule_and_stops(tmp_path) -> None:
    rows = _pack_in_two_card_hands()
    log = write(tmp_path, "pack.csv", "# shoe: 1", "# reshuffle: cut", HEAD + ",shoe", *rows)
    result = run(str(log))
    assert result.exit_code == 1, result.output
    assert "nan" not in result.output and "seat 1:" not in result.output
    assert ("line 16 (round 13, seat 1): cards: the round starts with 4 cards left in shoe 1, "
            "fewer than the 6 a round of 1 seat can need") in result.output
    assert "  cards        1 row broken" in result.output
    assert result.output.rstrip().splitlines()[-1] == (
        "FAIL: 1 rule break (cards); the simulator deals or settles wrongly")
    # The first 12 rounds alone are a legal shoe, and are tested.
    short = write(tmp_path, "short.csv", "# shoe: 1", "# reshuffle: cut", HEAD + ",shoe",
                  *rows[:12])
    assert "seat 1: 12 rounds" in run(str(short)).output


def test_shoe_dealt_past_its_end_by_a_reused_shoe_id_names_the_rule_and_stops(
        tmp_path) -> None:
    log = simulated(tmp_path, "cut.csv", "--rounds", "40", "--seed", "5", "--reshuffle", "cut",
                    "--decks", "1")
    lines = log.read_text().splitlines()
    rows = [ln for ln in lines if ln[:1].isdigit()]
    first = [ln for ln in rows if ln.endswith(",1")]
    assert len(first) < len(rows)
    again = [f"{len(rows) + k + 1}," + ln.split(",", 1)[1] for k, ln in enumerate(first)]
    log.write_text("\n".join([*lines, *again]) + "\n")  # shoe 1 comes back after shoe 2
    result = run(str(log))
    assert result.exit_code == 1, result.output
    assert "nan" not in result.output and "seat 1:" not in result.output
    assert "a shoe is dealt past its end (rule cards)" in result.output
    assert "FAIL:" in result.output and "(cards)" in result.output


# -- the report's wording --------------------------------------------------------


def test_a_bank_hand_broken_at_a_six_seat_table_is_listed_once(tmp_path) -> None:
    # The bank holds 3 (draws on 0-5) but stands: one break of round 1, not six.
    rows = [f"1,{s},9h 9d,Ah 2s,win_natural_8,3" for s in range(1, 7)]
    log = write(tmp_path, "six.csv", "# shoe: 8", "# seats: 6", HEAD, *rows)
    result = run(str(log))
    assert result.exit_code == 1, result.output
    assert "  bank draw    1 row broken" in result.output
    assert result.output.count("bank draw: ") == 1
    assert "FAIL: 1 rule break (bank draw)" in result.output


def test_seat_1_with_1_round_says_1_round(tmp_path) -> None:
    log = write(tmp_path, "one.csv", "# shoe: 8", HEAD, ONE_ROUND)
    output = run(str(log)).output
    assert "seat 1: 1 round\n" in output and "1 rounds" not in output


def test_a_frequency_fail_names_the_test_that_rejected(tmp_path) -> None:
    rows = [f"{k},1,2c Ad 3h,9h 9s,loss_natural_8,-1,{k}" for k in range(1, 31)]
    log = write(tmp_path, "nines.csv", "# shoe: 8", "# reshuffle: cut", HEAD + ",shoe", *rows)
    # The same four cards in every round: the smallest p is the ranks' (every round is
    # its shoe's first, so the test of ranks by shoe position sees them all in one part).
    output = run(str(log)).output
    verdict = next(ln for ln in output.splitlines() if ln.startswith("FAIL"))
    assert verdict.startswith("FAIL: the frequencies do not match the exact odds: seat 1's "
                              "chi-square test of ranks by shoe position rejects (p = ")
    hints = output[output.index(verdict):].splitlines()[1:]
    assert len(hints) == 1 and hints[0].startswith("hint: likely cause: a biased shuffle")


# -- audit: Colon counts of card logs; a value-only bank zero pair --------------


def test_audit_keeps_colon_counts_for_card_logs_under_colon_by_rank(tmp_path) -> None:
    log = simulated(tmp_path, "run.csv", "--rounds", "500", "--seed", "6")
    names = names_of_tests(log)
    assert {"player colon", "player colon nine", "bank colon", "bank colon nine"} <= set(names)
    # And the count is of the cards: every player hand a Colon (K-K) fails on it.
    rows = [f"{k},1,Kh Kd 9c,10s Jd 7c,win_comparison,2" for k in range(1, 41)]
    many = write(tmp_path, "colons.csv", "# shoe: inf", HEAD, *rows)
    result = run(str(many))
    line = next(ln for ln in result.output.splitlines() if "z          player colon  " in ln)
    assert "e-" in line.split("p = ")[1], line


def test_value_only_bank_ten_king_pair_stays_unknown_no_false_fail(tmp_path) -> None:
    # Bank bonus on: a bank Colon beating the player collects 2.  The bank's
    # 0-0 may be 10-K (no Colon, the player loses 1) or K-K (loses 2): either
    # payout keeps the rules, so neither row is a break.
    rows = ["1,1,5 2,0 0 9,loss_comparison,-1", "2,1,5 2,0 0 9,loss_comparison,-2"]
    log = write(tmp_path, "bank.csv", "# shoe: 8", "# cards: values", HEAD, *rows)
    result = run(str(log), "--bank-bonus", "on")
    assert "  payout       ok" in result.output, result.output
    assert "the payout of 2 rows with such a pair is not audited" in result.output
    assert result.exit_code == 0, result.output


# -- verify: rule flags; a cut-card log without a shoe column -------------------


def test_rule_options_given_as_flags_are_applied(tmp_path) -> None:
    log = simulated(tmp_path, "run.csv", "--rounds", "300", "--seed", "1")
    assert ",2\n" in log.read_text()  # a player Colon won: paid 2 under standard
    assert run(str(log)).exit_code == 0
    result = run(str(log), "--colon", "5")
    assert result.exit_code == 1, result.output
    assert "option colon (flag)" in result.output
    assert "Colon paid 5:1" in result.output
    assert "FAIL:" in result.output and "(payout)" in result.output


def test_a_cut_card_log_without_a_shoe_column_is_tested_over_shoes(tmp_path) -> None:
    log = simulated(tmp_path, "cut.csv", "--rounds", "300", "--seed", "7", "--reshuffle", "cut",
                    "--decks", "2")
    lines = log.read_text().splitlines()
    bare = tmp_path / "bare.csv"
    bare.write_text("\n".join(ln if ln.startswith("#") else ln.rsplit(",", 1)[0]
                              for ln in lines) + "\n")
    assert verify_file(log).expectation == "per round"
    v = verify_file(bare)
    assert v.expectation == "over shoes" and v.passed
    assert any(n.startswith("no shoe column: continuous shoe without card order") for n in v.notes)
    text = run(str(bare)).output
    assert "(mean of the rounds' exact EVs)" in text and "; exact " not in text
