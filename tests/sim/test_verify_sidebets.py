"""``lucky9 verify`` with ``bet:NAME`` columns for side bets.

The side bets' payouts are settled here independently from the card ranks
(not with :mod:`odds.rules.bets`), written into our simulator's log, and the
verifier must agree with them row by row and in frequency.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from click.testing import CliRunner

from cli import main
from odds import BUILTIN, Shoe
from odds.sim.simulate import simulate
from odds.sim.verify import verify_file, verify_text
from tests.logs import POINT, _as_values, rank, with_side_bets


@pytest.fixture(scope="module")
def fresh_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, int]:
    path = tmp_path_factory.mktemp("sidebets") / "log.csv"
    simulate(BUILTIN["punto-banco"], Shoe.packs_of(8), 4000, seed=15, log=path)
    return with_side_bets(path.read_text())


def test_a_correct_side_bet_log_passes_with_its_payouts_tested(fresh_log):
    text, dragons = fresh_log
    assert dragons > 0  # the log exercises the Dragon 7's winning line
    result = verify_text(text, "sides.csv")
    assert result.verdict == "pass", result.verdict_text()
    assert not result.violations
    names = [c.name for c in result.seats[0].checks]
    for bet in ("player-pair", "dragon-7"):
        assert f"bet {bet} payouts" in names and f"bet {bet} expected value" in names
    assert any("player-pair, dragon-7: payouts tested against the exact distribution" in n
               for n in result.notes)


def test_one_wrong_side_bet_payout_fails_naming_the_line(fresh_log, tmp_path):
    text, _ = fresh_log
    lines = text.splitlines()
    k = next(i for i, ln in enumerate(lines) if ln.endswith(",11,-1"))  # a player pair
    lines[k] = lines[k][: -len(",11,-1")] + ",-1,-1"  # ... paid as a loss
    bad = verify_text("\n".join(lines) + "\n", "bad")
    assert bad.broken_rules == ["bet player-pair"]
    assert bad.violations[0].line == k + 1
    message = bad.violations[0].message
    assert "a bet on player-pair pays 11" in message and "the log pays -1" in message
    player = next(csv.reader([lines[k]]))[2]
    assert f"player {player}" in message
    path = tmp_path / "bad.csv"
    path.write_text("\n".join(lines) + "\n")
    res = CliRunner().invoke(main, ["verify", str(path)])
    assert res.exit_code == 1, res.output
    assert f"line {k + 1}" in res.output and "bet player-pair" in res.output


def test_a_wrong_dragon_7_payout_is_caught(fresh_log):
    text, _ = fresh_log
    lines = text.splitlines()
    k = next(i for i, ln in enumerate(lines) if ln.endswith(",40"))
    lines[k] = lines[k][: -len(",40")] + ",-1"
    bad = verify_text("\n".join(lines) + "\n", "bad")
    assert bad.broken_rules == ["bet dragon-7"]
    assert bad.violations[0].line == k + 1
    assert "pays 40" in bad.violations[0].message


def test_an_unknown_bet_is_bad_input(fresh_log, tmp_path):
    text, _ = fresh_log
    path = tmp_path / "unknown.csv"
    path.write_text(text.replace("bet:dragon-7", "bet:dragon-8"))
    res = CliRunner().invoke(main, ["verify", str(path)])
    assert res.exit_code == 2, res.output
    assert "column bet:dragon-8: unknown bet 'dragon-8'" in res.output
    assert "Traceback" not in res.output
    with pytest.raises(ValueError, match="names one bet, not 'all'"):
        verify_text(text.replace("bet:dragon-7", "bet:all"))


@pytest.fixture(scope="module")
def cut_log(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("cut") / "cut.csv"
    simulate(BUILTIN["punto-banco"], Shoe.packs_of(8), 1500, seed=16, reshuffle="cut",
             log=path)
    return with_side_bets(path.read_text())[0]


def test_a_continuous_shoe_tests_side_bet_frequencies_round_by_round(cut_log):
    """Each round's side-bet odds given the cards left before it (the batch engine)."""
    result = verify_text(cut_log, "cut.csv")
    assert result.verdict == "pass", result.verdict_text()
    names = [c.name for c in result.seats[0].checks]
    for bet in ("player-pair", "dragon-7"):
        assert f"bet {bet} payouts" in names and f"bet {bet} expected value" in names
    assert any("player-pair, dragon-7: payouts tested against the exact odds of each round"
               in n for n in result.notes)
    lines = cut_log.splitlines()
    k = next(i for i, ln in enumerate(lines) if ln.endswith(",11,-1"))
    lines[k] = lines[k][: -len(",11,-1")] + ",12,-1"
    assert verify_text("\n".join(lines) + "\n", "bad").broken_rules == ["bet player-pair"]


def test_a_continuous_shoe_short_of_pairs_fails_on_the_pair_bet(cut_log):
    """Half the rounds with a player pair left out: every row is right, the frequency not."""
    kept, pairs = [], 0
    for line in cut_log.splitlines():
        if line.endswith(",11,-1"):
            pairs += 1
            if pairs % 2 == 0:
                continue
        kept.append(line)
    bad = verify_text("\n".join(kept) + "\n", "short.csv")
    assert bad.verdict == "fail" and bad.broken_rules == []
    checks = {c.name: c.p for c in bad.seats[0].checks}
    assert checks["bet player-pair payouts"] < 1e-4  # as the player colon, the same event
    assert checks["bet dragon-7 payouts"] > 0.01


def test_a_continuous_shoe_with_value_only_cards_leaves_side_bets_untested(cut_log):
    head = [ln for ln in cut_log.splitlines() if ln.startswith("#")]
    rows = list(csv.reader(io.StringIO("\n".join(ln for ln in cut_log.splitlines()
                                                  if not ln.startswith("#")))))
    cols = rows[0]
    for row in rows[1:]:
        for side in ("player", "bank"):
            row[cols.index(side)] = " ".join(str(POINT[rank(c)]) for c in
                                             row[cols.index(side)].split())
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    result = verify_text("\n".join([*head, "# cards: values"]) + "\n" + out.getvalue(),
                         "values.csv")
    names = [c.name for c in result.seats[0].checks]
    assert not any("player-pair" in n for n in names)
    assert any("player-pair: continuous shoe, and the cards are written by value only" in n
               and "NOT tested" in n for n in result.notes)


def test_a_suited_bet_without_suits_is_not_audited_and_says_so(fresh_log):
    text, _ = fresh_log
    head = [ln for ln in text.splitlines() if ln.startswith("#")]
    body = [ln for ln in text.splitlines() if not ln.startswith("#")]
    # Rank-only cards, and a perfect-pair column that claims every bet lost.
    rows = [re.sub(r"(10|[AJQK2-9])[cdhs]", r"\1", ln) for ln in body]
    rows = [rows[0] + ",bet:perfect-pair"] + [ln + ",-1" for ln in rows[1:]]
    pairs = 0  # rows with a pair of ranks in a hand's first two cards: suits needed
    for row in csv.reader(rows[1:]):
        hands = [row[2].split(), row[3].split()]
        pairs += any(h[0] == h[1] for h in hands)
    assert pairs > 10
    result = verify_text("\n".join(head + rows) + "\n", "ranks.csv")
    # The rows without a pair are audited: the claimed -1 is right there.
    assert "bet perfect-pair" not in result.broken_rules
    assert any(f"bet perfect-pair: the payout of {pairs:,} rows is not audited "
               "(the bet needs suits and the log's cards give none)" in n
               for n in result.notes), result.notes


def test_a_pair_bet_on_point_values_leaves_only_pairs_of_zeros_unaudited(fresh_log):
    text, _ = fresh_log
    values = _as_values(text)
    # A pair of zero-point values may be 10 and K (no pair) or K and K; any other pair of
    # equal values is a pair of ranks, settled from the values.
    zeros = sum(any(h.split()[:2] == ["0", "0"] for h in (row[2], row[3]))
                for row in csv.reader(ln for ln in values.splitlines()[1:]
                                      if not ln.startswith("#")))
    assert zeros > 10
    result = verify_text(values, "values.csv")
    assert result.broken_rules == []
    assert any(f"bet player-pair: the payout of {zeros:,} rows is not audited" in n
               for n in result.notes), result.notes


def test_ez_baccarat_side_bets_verify_from_a_file(tmp_path):
    path = tmp_path / "x.csv"
    simulate(BUILTIN["ez-baccarat"], Shoe.packs_of(8), 500, seed=3, log=path)
    text, _ = with_side_bets(path.read_text())
    path.write_text(text)
    assert verify_file(path).verdict == "pass"


def test_a_suited_bet_is_audited_from_suited_cards(fresh_log):
    """Perfect pair (25 for a suited pair in either hand, 250 both), settled here."""
    text, _ = fresh_log
    head = [ln for ln in text.splitlines() if ln.startswith("#")]
    body = [ln for ln in text.splitlines() if not ln.startswith("#")]
    rows = [body[0] + ",bet:perfect-pair"]
    suited = []
    for i, row in enumerate(csv.reader(body[1:])):
        perfect = [h.split()[0] == h.split()[1] for h in (row[2], row[3])]
        pays = "250" if all(perfect) else "25" if any(perfect) else "-1"
        if pays != "-1":
            suited.append(i)
        rows.append(body[i + 1] + "," + pays)
    assert verify_text("\n".join(head + rows) + "\n", "pp.csv").broken_rules == []
    if not suited:
        pytest.skip("no perfect pair in this log")
    k = suited[0] + 1
    rows[k] = rows[k][: rows[k].rindex(",")] + ",-1"
    bad = verify_text("\n".join(head + rows) + "\n", "pp.csv")
    assert bad.broken_rules == ["bet perfect-pair"]
    assert bad.violations[0].line == len(head) + k + 1
    assert "perfect pair" in bad.violations[0].message


def test_tallies_with_a_side_bet_are_tested_against_its_exact_payouts():
    import dataclasses
    from fractions import Fraction

    from odds.sim.verdict import verify_tallies

    sim = simulate(BUILTIN["punto-banco"], Shoe.packs_of(8), 10000, seed=2)
    t = sim.tallies[0]

    def with_dragons(wins: int):
        bets = {**(t.bets or {}), "dragon-7": {Fraction(40): wins, Fraction(-1): 10000 - wins}}
        return verify_tallies(sim.header, [dataclasses.replace(t, bets=bets)])

    assert with_dragons(225).verdict == "pass"  # about 2.25 % of rounds
    assert with_dragons(400).verdict == "fail"


def test_a_continuous_shoe_without_a_shoe_column_tests_side_bets_over_shoes(cut_log):
    head = [ln for ln in cut_log.splitlines() if ln.startswith("#")]
    rows = list(csv.reader(io.StringIO("\n".join(ln for ln in cut_log.splitlines()
                                                  if not ln.startswith("#")))))
    drop = rows[0].index("shoe")
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([r[:drop] + r[drop + 1:] for r in rows])
    result = verify_text("\n".join(head) + "\n" + out.getvalue(), "noshoe.csv")
    assert result.verdict == "pass", result.verdict_text()
    names = [c.name for c in result.seats[0].checks]
    assert "bet player-pair payouts" in names and "bet dragon-7 expected value" in names
    assert any(n.startswith("no shoe column") for n in result.notes)
