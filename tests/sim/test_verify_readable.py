"""``lucky9 verify`` as a simulator programmer meets it: one over-dealt card is one
break (not a cascade), a header that contradicts the shoe column is named, other
simulators' result words and per-shoe round numbers are read, and a log of another
profile is asked about."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from odds import BUILTIN, Shoe
from odds.exact.deal import cut_position
from odds.report.verify_report import verify_data, verify_lines
from odds.sim import verify as verify_module
from odds.sim.cut_card import penetration_for_cut
from odds.sim.logs import RESULT_WORDS, parse_log
from odds.sim.profile_hint import fitting_profiles
from odds.sim.simulate import simulate
from odds.sim.tallies import TallyError
from odds.sim.verify import verify_file, verify_text
from tests.paths import DATA

SEED = 20261204


def _cut_log(tmp_path: Path, rounds: int = 300, profile: str = "standard", packs: int = 1,
             name: str = "cut.csv") -> list[str]:
    path = tmp_path / name
    simulate(BUILTIN[profile], Shoe.packs_of(packs), rounds, seed=SEED, reshuffle="cut",
             log=path)
    return path.read_text().splitlines()


def _rows(lines: list[str]) -> tuple[int, list[list[str]]]:
    """The index of the column line and the rows split into fields."""
    k = next(i for i, ln in enumerate(lines) if ln.startswith("round,"))
    return k, [ln.split(",") for ln in lines[k + 1:]]


# -- 1. an over-dealt card: its first row and the count of the rows after it --------

def _over_dealt(lines: list[str]) -> tuple[list[str], int, int]:
    """The log with round 2's first bank card replaced by round 1's first player card
    (one card dealt twice from a one-pack shoe); the changed line's number and the
    rows of its shoe after it."""
    k, rows = _rows(lines)
    assert rows[0][6] == rows[1][6] == "1"  # rounds 1 and 2 are in shoe 1
    first = rows[0][2].split()[0]
    bank = rows[1][3].split()
    rows[1][3] = " ".join([first, *bank[1:]])
    later = sum(1 for r in rows[2:] if r[6] == "1")
    return lines[:k + 1] + [",".join(r) for r in rows], k + 3, later


def test_an_over_dealt_card_is_one_break_with_the_count_of_the_rows_after_it(tmp_path):
    lines, line, later = _over_dealt(_cut_log(tmp_path))
    assert later > 3
    result = verify_text("\n".join(lines) + "\n", "log")
    assert result.verdict == "fail"
    assert result.violation_counts["cards"] == 1  # not 1 + later
    cards = [v for v in result.violations if v.rule == "cards"]
    assert [v.line for v in cards] == [line]
    assert f"shoe 1 is over-dealt from here, so its {later:,} later rows are not counted " \
           "again" in cards[0].message
    text = "\n".join(verify_lines(result))
    assert "  cards        1 row broken" in text


def test_an_over_dealt_card_read_block_by_block_gives_the_same_report(tmp_path, monkeypatch):
    lines, line, later = _over_dealt(_cut_log(tmp_path))
    path = tmp_path / "over.csv"
    path.write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(verify_module, "BLOCK", 300)  # a few rows a block
    streamed = verify_file(path)
    whole = verify_text(path.read_text(), str(path))
    assert streamed.violation_counts == whole.violation_counts
    assert streamed.violation_counts["cards"] == 1
    assert [v.message for v in streamed.violations] == [v.message for v in whole.violations]


def test_each_over_dealt_shoe_is_one_break(tmp_path):
    lines = _cut_log(tmp_path)
    k, rows = _rows(lines)
    # shoe 2 gets the same fault as shoe 1
    starts = [i for i, r in enumerate(rows) if i == 0 or r[6] != rows[i - 1][6]]
    for s in starts[:2]:
        rows[s + 1][3] = " ".join([rows[s][2].split()[0], *rows[s + 1][3].split()[1:]])
    result = verify_text("\n".join(lines[:k + 1] + [",".join(r) for r in rows]) + "\n", "log")
    assert result.violation_counts["cards"] == 2
    assert [v.line for v in result.violations if v.rule == "cards"] == [
        k + 3 + starts[0], k + 3 + starts[1]]


# -- 2. reshuffle: round with a shoe column of several rounds a shoe ----------------

def test_reshuffle_round_with_a_shoe_column_warns_and_names_the_matching_value(tmp_path):
    lines = _cut_log(tmp_path)
    text = "\n".join(lines).replace("# reshuffle: cut", "# reshuffle: round") + "\n"
    result = verify_text(text, "log")
    warning = [n for n in result.notes if n.startswith("warning:")]
    assert len(warning) == 1, result.notes
    assert "the header says reshuffle: round" in warning[0]
    assert "reshuffle: cut says" in warning[0] and "(shoe 1 again at line" in warning[0]
    assert result.expectation == "per round"
    # as cut, and with every round its own shoe, no warning
    assert not any(n.startswith("warning:") for n in verify_text("\n".join(lines) + "\n",
                                                                   "log").notes)
    k, rows = _rows(lines)
    own = [",".join([*r[:6], str(i + 1)]) for i, r in enumerate(rows)]
    fresh = "\n".join(lines[:k + 1]).replace("# reshuffle: cut", "# reshuffle: round")
    assert not any(n.startswith("warning:")
                   for n in verify_text(fresh + "\n" + "\n".join(own) + "\n", "log").notes)


# -- 3. other simulators' words and per-shoe round numbers --------------------------

def test_result_words_of_other_simulators_are_read_as_outcomes(tmp_path):
    path = tmp_path / "pb.csv"
    simulate(BUILTIN["punto-banco"], Shoe.packs_of(8), 2000, seed=SEED, log=path)
    lines = path.read_text().splitlines()
    k, rows = _rows(lines)
    words = {"win": ["Player", "PLAYER"], "push": ["Tie", "tie"], "loss": ["Banker", "bank"]}
    for i, r in enumerate(rows):
        r[4] = words[r[4].split("_")[0]][i % 2]
    original = verify_text(path.read_text(), "log")
    result = verify_text("\n".join(lines[:k + 1] + [",".join(r) for r in rows]) + "\n", "log")
    assert result.verdict == "pass", result.verdict_text()
    assert not result.broken_rules
    note = next(n for n in result.notes if n.startswith("results read as"))
    assert "'banker' as loss" in note and "'tie' as push" in note and "'player' as win" in note
    # outcome words test the outcomes only; the payouts carry the same figures
    assert result.seats[0].ev_observed == original.seats[0].ev_observed


def test_a_wrong_result_word_is_a_rule_break():
    row = "1,1,8h 7s 4d,Ac 6d,{},1\n"  # the player's 9 beats the bank's 7
    log = "round,seat,player,bank,result,payout\n"
    assert verify_text(log + row.format("Player"), "log").broken_rules == []
    bad = verify_text(log + row.format("Banker"), "log")
    assert bad.broken_rules == ["result"]
    assert "the log says loss" in bad.violations[0].message


def test_result_words_are_not_ambiguous_with_category_names():
    for profile in BUILTIN.values():
        from odds.sim.tallies import category_names
        assert not set(RESULT_WORDS) & set(category_names(profile))
    assert set(RESULT_WORDS.values()) == {"win", "push", "loss"}
    assert "draw" not in RESULT_WORDS  # in baccarat, drawing takes a card


def _per_shoe(lines: list[str]) -> str:
    """The log with its rounds numbered from 1 again in every shoe."""
    k, rows = _rows(lines)
    count: dict[str, int] = {}
    for r in rows:
        count[r[6]] = count.get(r[6], 0) + 1
        r[0] = str(count[r[6]])
    return "\n".join(lines[:k + 1] + [",".join(r) for r in rows]) + "\n"


def test_round_numbers_restarting_in_every_shoe_are_read_by_shoe_and_round(tmp_path,
                                                                           monkeypatch):
    lines = _cut_log(tmp_path, rounds=400)
    restarted = _per_shoe(lines)
    assert restarted.count("\n1,1,") > 3  # several shoes start at round 1
    original = verify_data(verify_text("\n".join(lines) + "\n", "log"))
    again = verify_data(verify_text(restarted, "log"))
    assert again["verdict"] == "pass" and again["audit"] == original["audit"]
    assert again["seats"] == original["seats"]
    path = tmp_path / "restart.csv"
    path.write_text(restarted)
    monkeypatch.setattr(verify_module, "BLOCK", 400)
    streamed = verify_data(verify_file(path))
    assert streamed["audit"] == original["audit"]
    for a, b in zip(streamed["seats"][0]["tests"], original["seats"][0]["tests"], strict=True):
        assert a["name"] == b["name"] and math.isclose(a["statistic"] or 0, b["statistic"] or 0,
                                                       rel_tol=1e-9, abs_tol=1e-12)


def test_a_round_given_twice_in_one_shoe_names_the_shoe():
    log = ("# shoe: 1\n# reshuffle: cut\n# profile: plain\nround,seat,player,bank,result,"
           "payout,shoe\n1,1,8h 7s 4d,Ac 6d,win_comparison,1,1\n"
           "1,1,9h 7c 3d,Ad 6c,win_comparison,1,2\n1,1,9s 7d 3c,As 6h,win_comparison,1,2\n")
    with pytest.raises(TallyError, match="line 7: round 1 of shoe 2 seat 1 is given twice "
                                         r"\(also line 6\)"):
        verify_text(log, "log")


def test_rounds_restarting_without_a_shoe_column_are_refused_with_the_fix():
    log = ("round,seat,player,bank,result,payout\n1,1,8h 7s 4d,Ac 6d,win_comparison,1\n"
           "1,1,9h 7c 3d,Ad 6c,win_comparison,1\n")
    with pytest.raises(TallyError, match=r"line 3: round 1 seat 1 is given twice \(also line "
                                         r"2\); if round numbers start again in every shoe, "
                                         "add a shoe column"):
        verify_text(log, "log")


def test_a_jsonl_log_with_rounds_restarting_per_shoe_and_result_words(tmp_path):
    import json
    path = tmp_path / "cut.jsonl"
    simulate(BUILTIN["standard"], Shoe.packs_of(1), 200, seed=SEED, reshuffle="cut", log=path)
    lines = path.read_text().splitlines()
    original = verify_text(path.read_text(), "log")
    count: dict[int, int] = {}
    out = []
    for ln in lines:
        obj = json.loads(ln)
        if "round" in obj:
            count[obj["shoe"]] = count.get(obj["shoe"], 0) + 1
            obj["round"] = count[obj["shoe"]]
            obj["result"] = {"win": "Player", "push": "TIE", "loss": "Banker"}[
                obj["result"].split("_")[0]]
        out.append(json.dumps(obj))
    result = verify_text("\n".join(out) + "\n", "log")
    assert result.verdict == "pass" and result.rows == original.rows
    assert result.expectation == "per round"
    assert any(n.startswith("results read as") for n in result.notes)


def test_a_round_number_too_large_for_the_shoe_key_is_named():
    log = ("round,seat,player,bank,result,payout,shoe\n"
           f"{1 << 32},1,8h 7s 4d,Ac 6d,win_comparison,1,1\n")
    with pytest.raises(TallyError, match="line 2: round 4294967296 is more than 4,294,967,295"):
        verify_text(log, "log")


# -- 4. a log of another profile, read under the default one ------------------------

def _headerless(tmp_path: Path, bets: bool) -> str:
    path = tmp_path / "pb.csv"
    simulate(BUILTIN["punto-banco"], Shoe.packs_of(8), 1500, seed=SEED, log=path)
    rows = [ln for ln in path.read_text().splitlines() if not ln.startswith("#")]
    if not bets:
        rows = [",".join(ln.split(",")[:6]) for ln in rows]
    return "\n".join(rows) + "\n"


def test_a_headerless_punto_banco_log_is_asked_whether_it_is_punto_banco(tmp_path):
    text = _headerless(tmp_path, bets=False)
    result = verify_text(text, "pb.csv")
    assert result.verdict == "fail" and "bank draw" in result.broken_rules
    assert "is this a different profile?" in result.hint
    assert "--profile punto-banco" in result.hint
    assert verify_lines(result)[-1].startswith("hint: is this a different profile?")
    assert verify_data(result)["hint"] == result.hint
    from odds.sim.verdict import RuleOverrides
    right = verify_text(text, "pb.csv", RuleOverrides(profile=BUILTIN["punto-banco"]))
    assert right.verdict == "pass" and right.hint == ""


def test_a_bet_column_of_another_profile_is_asked_about_too(tmp_path):
    with pytest.raises(TallyError, match="'banker' is not a bet of profile 'standard' .*"
                                         "is this a different profile?.*--profile punto-banco"):
        verify_text(_headerless(tmp_path, bets=True), "pb.csv")


def test_no_profile_question_when_the_profile_is_named_or_nothing_fits(tmp_path):
    text = "# profile: standard\n" + _headerless(tmp_path, bets=False)
    named = verify_text(text, "pb.csv")
    assert named.verdict == "fail" and named.hint == ""
    buggy = verify_text((DATA / "example-buggy-log.csv").read_text(), "buggy.csv")
    assert buggy.verdict == "fail" and buggy.hint == ""


def test_fitting_profiles_against_a_brute_force_of_each_profile():
    """A row fits a profile when the audit under it finds nothing: the same as auditing
    the row under that profile by itself."""
    rows = ["round,seat,player,bank,result,payout", "1,1,Kc 4d 6h,3s 3d 2c,loss,-1"]
    log = parse_log(rows, 1, "t")
    fits = fitting_profiles(log, BUILTIN["standard"], 1)
    from odds.sim.verdict import RuleOverrides
    for key, profile in BUILTIN.items():
        if key == "standard" or not profile.fixed:
            continue
        alone = verify_text("\n".join(rows) + "\n", "t", RuleOverrides(profile=profile))
        rule_breaks = [r for r in alone.broken_rules if r not in ("cards", "hand size")]
        assert (key in fits) == (not rule_breaks), key


# -- 6. a cut card given as the cards behind it -------------------------------------

@pytest.mark.parametrize("size", [52, 104, 312, 416, 49, 2081])
def test_penetration_for_cut_puts_the_cut_card_exactly(size):
    for behind in range(size):
        assert cut_position(size, penetration_for_cut(size, behind)) == size - behind


def test_a_cut_cards_simulation_states_its_cut_and_verifies(tmp_path):
    path = tmp_path / "cc.csv"
    sim = simulate(BUILTIN["standard"], Shoe.packs_of(2), 3000, seed=SEED, reshuffle="cut",
                   cut_cards=14, log=path)
    assert sim.cut_cards == 14 and sim.header.reshuffle == "cut"
    assert cut_position(104, sim.header.penetration) == 90
    result = verify_file(path)
    assert result.verdict == "pass", result.verdict_text()
    with pytest.raises(ValueError, match="use reshuffle 'cut'"):
        simulate(BUILTIN["standard"], Shoe.packs_of(2), 10, cut_cards=14)
    with pytest.raises(ValueError, match="with 104 cards behind it leaves none to deal"):
        simulate(BUILTIN["standard"], Shoe.packs_of(2), 10, reshuffle="cut", cut_cards=104)
