"""How every command prints its figures: EVs in percent, main and side bets alike.

The exact EVs come from each command's own JSON (or the library); the text must
print each one with odds.rules.text.percent, as `lucky9 odds` prints the seat's
EV, for main and side bets alike.  Every command wraps its rules line one way.
"""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner

from cli import main
from tests.paths import DATA


def _run(*args: str, **kwargs):
    return CliRunner().invoke(main, list(args), **kwargs)



def test_side_bets_print_in_percent_as_the_main_bets() -> None:
    out = _run("odds", "--profile", "ez-baccarat", "--decks", "8", "--bet", "dragon-7")
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    seat = next(line for line in lines if line.strip().startswith("player seat EV"))
    dragon = next(line for line in lines if line.strip().startswith("dragon-7 EV"))
    assert seat.split()[3].endswith("%") and dragon.split()[2] == "-7.611334%", (seat, dragon)


@pytest.mark.parametrize("args", [
    ["odds", "--profile", "ez-baccarat"],
    pytest.param(["removal", "--profile", "ez-baccarat"], marks=pytest.mark.slow),  # CI
    ["conditional", "--profile", "ez-baccarat"], ["payout", "--profile", "ez-baccarat"],
    ["bank", "--profile", "ez-baccarat", "--decks", "inf"],
    ["simulate", "--profile", "ez-baccarat", "--rounds", "10", "--seed", "1"],
    ["tree", "--profile", "ez-baccarat", "--depth", "1"],
    ["shoe", "--profile", "ez-baccarat", "--decks", "1", "--seed", "1"],
    ["solve", "--decks", "inf", "--information", "totals"],
], ids=lambda a: a[0])
def test_every_command_wraps_its_rules_line_one_way(args: list[str]) -> None:
    from odds.rules.text import wrap_rules

    out = _run(*args)
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("rules"))
    # the printed lines, joined, wrap to themselves: one function wrapped them
    printed = [lines[start]]
    for line in lines[start + 1:]:
        if not line.startswith("  ") or len(printed[-1]) + 1 + len(line.split()[0]) <= 79:
            break
        printed.append(line)
    assert len(printed) >= 2 and all(len(line) <= 79 for line in printed), printed
    assert wrap_rules(" ".join(line.strip() for line in printed)) == printed


def test_a_verify_report_wraps_its_rules_line_the_same_way() -> None:
    from odds.rules.text import wrap_rules

    out = _run("verify", str(DATA / "example-log.csv"))
    lines = out.output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("rules ("))
    assert lines[start + 1].startswith("  ") and len(lines[start]) <= 79
    assert lines[start:start + 2] == wrap_rules(" ".join(
        line.strip() for line in lines[start:start + 2]))[:2]


def _json(*args: str):  # type: ignore[no-untyped-def]
    import json

    out = _run(*args, "--format", "json")
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def _text(*args: str) -> list[str]:
    out = _run(*args)
    assert out.exit_code == 0, out.output
    return out.output.splitlines()


def _tables(lines: list[str], first: str) -> list[tuple[list[str], list[list[str]]]]:
    """The tables of a report whose header line starts with the words ``first``: (header, rows)."""
    found = []
    for k, line in enumerate(lines):
        if line.split()[:len(first.split())] == first.split():
            rows = []
            for row in lines[k + 1:]:
                if not row.strip():
                    break
                rows.append(row.split())
            found.append((line.split(), rows))
    return found


def test_odds_prints_every_bet_and_the_seat_in_percent() -> None:
    from fractions import Fraction

    from odds.rules.text import percent

    args = ("odds", "--profile", "ez-baccarat", "--decks", "8", "--bet", "dragon-7",
            "--bet", "panda-8")
    data = _json(*args)
    lines = _text(*args)
    seat = percent(Fraction(data["expected_value"]))
    assert any(line.split()[:4] == ["player", "seat", "EV", seat] for line in lines), lines
    for bet in ("dragon-7", "panda-8"):
        ev = percent(Fraction(data["bets"][bet]["expected_value"]))
        assert any(line.split()[:3] == [bet, "EV", ev] for line in lines), (bet, ev)


def test_payout_prints_a_side_bets_ev_as_its_main_bets_in_percent() -> None:
    from fractions import Fraction

    from odds.exact.bets import bet_odds
    from odds.rules.profiles import BUILTIN
    from odds.rules.shoe import Shoe
    from odds.rules.text import percent

    exact = bet_odds(BUILTIN["ez-baccarat"], Shoe.packs_of(8), ["player", "dragon-7", "panda-8"])
    main = _text("payout", "--profile", "ez-baccarat")
    assert ["EV", percent(exact["player"].expected_value)] in [line.split()[:2] for line in main]
    args = ("payout", "--profile", "ez-baccarat", "--bet", "dragon-7", "--bet", "panda-8")
    data = _json(*args)
    side = _text(*args)
    for bet in ("dragon-7", "panda-8"):
        ev = Fraction(data["bets"][bet]["expected_value"])
        assert ev == exact[bet].expected_value
        assert f"bet {bet}: EV {percent(ev)} = {ev}" in side, side


def test_removal_prints_side_bets_as_the_seat_in_percent() -> None:
    from fractions import Fraction

    from odds.rules.text import decimal, percent

    args = ("removal", "--profile", "ez-baccarat", "--decks", "8", "--bet", "dragon-7",
            "--bet", "panda-8")
    data = _json(*args)
    lines = _text(*args)
    ev = Fraction(data["expected_value"])
    assert f"player seat EV {percent(ev)} ({ev}), P(win) {decimal(Fraction(data['win']))}" \
        in lines, lines
    for bet in ("dragon-7", "panda-8"):
        value = Fraction(data["expected_values"][bet])
        assert f"{bet} bet: EV {percent(value)} ({value})" in lines, (bet, lines)
    effects = {e["rank"]: e for e in data["effects"]}
    (seat_head, seat_rows), *side = _tables(lines, "rank left")
    assert seat_head == ["rank", "left", "EV", "change", "P(win)", "change", "EV", "after"]
    for rank, _left, change, win, after in seat_rows:
        e = effects[rank]
        assert (change, win, after) == (percent(Fraction(e["ev_change"])),
                                        decimal(Fraction(e["win_change"])),
                                        percent(Fraction(e["ev_after"]))), rank
    assert [head[2:] for head, _ in side] == [["dragon-7", "panda-8"]]
    for rank, _left, *cells in side[0][1]:
        assert cells == [percent(Fraction(effects[rank]["ev_changes"][bet]))
                         for bet in ("dragon-7", "panda-8")], rank


def test_shoe_prints_side_bets_as_the_main_bets_in_percent() -> None:
    from fractions import Fraction

    from odds.rules.text import percent

    args = ("shoe", "--profile", "ez-baccarat", "--decks", "1", "--seed", "7")
    data = _json(*args)
    lines = _text(*args)
    tables = _tables(lines, "round seen left")
    seen = set()
    for head, rows in tables:
        bets = [name for name in head[3:] if not name.startswith("P(")]
        rounds = [row for row in rows if row[0].isdigit()]
        assert len(rounds) == len(data["rounds"])
        for row, state in zip(rounds, data["rounds"], strict=True):
            assert row[3:3 + len(bets)] == [percent(Fraction(state["ev"][bet]), 4)
                                           for bet in bets], (head, row)
        seen.update(bets)
    assert seen == {"player", "ez-banker", "tie", "dragon-7", "panda-8"}, tables


def test_conditional_prints_every_bets_ev_in_percent() -> None:
    from fractions import Fraction

    from odds.rules.text import decimal, percent

    data = _json("conditional", "--profile", "punto-banco")
    text = _text("conditional", "--profile", "punto-banco")
    ((head, rows),) = _tables(text, "player P(value)")
    assert head[-5:] == ["EV", "banker", "EV", "tie", "EV"]
    for row, want in zip(rows, data["rows"], strict=True):
        assert row[1] == decimal(Fraction(want["probability"]), 6)
        assert row[-3:] == [percent(Fraction(want["expected_value"][bet]), 4)
                            for bet in ("player", "banker", "tie")], row


# CI (slow: two seats' pairs on a whole pack, twice); the fast twin of its percent column is
# test_a_par_sheet_prints_the_bets_ev_edge_and_changes_in_percent (one percent function).
@pytest.mark.slow
def test_shoe_seats_prints_the_seats_ev_in_percent(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from fractions import Fraction

    from odds.rules.text import percent

    record = tmp_path / "table.txt"
    record.write_text("9h 9d 9c Kh Kd Ks\n", encoding="utf-8")  # two seats and the bank: naturals
    args = ("shoe", "--decks", "1", "--seats", "2", "--cards", str(record))
    data = _json(*args)
    lines = _text(*args)
    ((head, rows),) = _tables(lines, "round left")
    assert head[2:4] == ["seat", "EV"] and len(rows) == 1
    assert rows[0][2] == percent(Fraction(data["rounds"][0]["seat_ev"]), 4) == "+2.7284%"
    # its rules line wraps as every command's does (--seats too)
    from odds.rules.text import wrap_rules

    start = next(k for k, line in enumerate(lines) if line.startswith("rules: "))
    assert lines[start:start + 2] == wrap_rules(f"rules: {data['rules']}")
    note = lines[lines.index(next(line for line in lines if line.startswith("shoe: "))) + 1:
                 lines.index("")]
    assert len(note) > 1 and all(len(line) <= 79 for line in note), note


def test_a_par_sheet_prints_the_bets_ev_edge_and_changes_in_percent() -> None:
    from fractions import Fraction

    from odds.rules.text import decimal, percent

    args = ("par", "--profile", "ez-baccarat", "--bet", "dragon-7", "--no-count")
    data = _json(*args)
    sections: dict[str, dict[str, list[str]]] = {}
    table: dict[str, list[str]] = sections.setdefault("the bet", {})
    for line in _text(*args):
        if line.startswith("## "):
            table = sections.setdefault(line[3:].split(" (")[0], {})
        elif line.startswith("| ") and not line.startswith("|---"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            table[cells[0]] = cells[1:]
    sizes = data["shoe_sizes"]
    line, hit = data["bet"]["pay_table"][0]["line"], sizes[0]["lines"][0]
    assert sections["Probability per pay line"][line][1] == decimal(Fraction(hit["probability"]), 6)
    ret = sections["Contribution to the return"]
    assert ret[line][1] == percent(Fraction(hit["return"]), 4)
    assert ret["total: the EV"][1:] == [percent(Fraction(s["expected_value"]), 4) for s in sizes]
    assert sections["Per number of packs"]["house edge"] == [
        percent(Fraction(s["house_edge"]), 4) for s in sizes]
    removal = sections["Effect of removal"]
    for e in data["removal"]["effects"]:
        assert removal[e["rank"]][1] == percent(Fraction(e["ev_change"]), 6), e


def test_count_prints_a_side_bets_ev_as_its_main_bets_in_percent() -> None:
    from fractions import Fraction

    from odds.rules.text import percent

    args = ("count", "--profile", "ez-baccarat", "--decks", "1", "--shoes", "5", "--seed", "2",
            "--bet", "player", "--bet", "dragon-7")
    data = _json(*args)
    text = "\n".join(_text(*args))

    def estimate(entry: dict[str, Any]) -> str:
        """The estimate and its 95% interval, each as every command prints an EV."""
        mean, ci = entry["mean"], entry["ci95"]
        return ("n/a" if mean is None else percent(Fraction(mean), 4)) + (
            "" if ci is None else
            f" [{percent(Fraction(ci[0]), 4)}, {percent(Fraction(ci[1]), 4)}]")

    for bet, label in (("player", "player seat"), ("dragon-7", "dragon-7 bet")):
        b = data["bets"][bet]
        section = text.split(f"\n{label}\n", 1)[1]
        fresh = Fraction(b["fresh_ev"])
        assert f"  fresh-shoe EV {percent(fresh)} (exact {fresh})" in section, (bet, section)
        assert f"  EV across rounds: mean {estimate(b['mean'])}, sd " in section, bet
        assert f"(mean EV less the fresh EV): {estimate(b['cut_card_effect'])}" in section, bet
        pi = b["perfect_information"]
        assert (f"perfect information (bet when EV > 0):\n"
                f"      a round dealt       {estimate(pi['gain_per_round_dealt'])}") in section, bet
        assert f"EV when betting     {estimate(pi['edge_when_betting'])}" in section, bet
    grid = _text("count", "--profile", "ez-baccarat", "--decks", "1,2", "--shoes", "3",
                 "--seed", "2", "--bet", "player", "--bet", "dragon-7")
    rows = [line for line in grid if line.startswith("ez-baccarat ")]
    assert len(rows) == 4 and all(line.count("%") == 6 for line in rows), grid


def test_verify_prints_a_side_bets_tests_in_the_main_bets_columns() -> None:
    import re

    out = _run("verify", str(DATA / "example-log-bets.csv"))
    lines = [line for line in out.output.splitlines() if re.match(r"  (z|chi-square) ", line)]

    def column(name: str) -> int:
        """Where the test's figure ends, and where its p-value starts."""
        line = next(line for line in lines if line.split(None, 1)[1].startswith(name + " "))
        figure = re.search(r" ([+-]?\d+\.\d+|inf) ", line[11 + len(name):])
        assert figure is not None, line
        return 11 + len(name) + figure.end(1), line.index("p = ")

    assert column("bet banker expected value") == column("expected value")
    assert column("bet tie expected value") == column("expected value")
    assert column("bet banker payouts") == column("payouts")
