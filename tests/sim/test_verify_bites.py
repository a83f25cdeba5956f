"""``lucky9 verify``: the blind spots mutation testing found (issue 16).

Each test pins down behaviour any verifier must keep, whatever its internals
(a rule break in a round is rejected with its line; the statistics are the
documented ones; the report prints what it computed).  Where the wording of
a message or a rejection's route (bad input or an audit failure) may change,
only the stable part is asserted.
"""

from __future__ import annotations

import math
import random
import re
from fractions import Fraction
from statistics import NormalDist

import mpmath
import pytest

from odds import BUILTIN, Shoe, round_odds
from odds.report.verify_report import verify_lines
from odds.sim.simulate import simulate
from odds.sim.tallies import RunHeader, Tally, TallyError
from odds.sim.verify import verify_tallies, verify_text

HEAD = "# profile: standard\n# shoe: {shoe}\nround,seat,player,bank,result,payout{extra}\n"
ONE_PACK = RunHeader(BUILTIN["standard"], Shoe.packs_of(1))


def log(*rows: str, shoe: str = "1", finals: bool = False) -> str:
    """A round log with a header (lines 1-3); its rows are lines 4, 5, ..."""
    extra = ",player_final,bank_final" if finals else ""
    return HEAD.format(shoe=shoe, extra=extra) + "".join(r + "\n" for r in rows)


def judged(text: str, rules: RunHeader | None = None) -> tuple[bool, str]:
    """(passed, what the verifier said): its report, or the error it raised.

    A rule break in the data may be reported as bad input or as an audit
    failure; either way the file must not pass and the message must say where.
    """
    try:
        result = verify_text(text, "f", rules)
    except TallyError as exc:
        return False, str(exc)
    return result.passed, "\n".join(verify_lines(result))


# Correct rows under standard rules (player 5 draws a 4; bank 7 stands; 9 natural).
WIN = "1,1,8h 7s 4d,Ac 6d,win_comparison,1"
NATURAL = "2,1,9h Kd,5c 2d,win_natural_9,1"
LOSS_TO_NATURAL = "3,1,2h 3d 4c,Kc 8s,loss_natural_8,-1"
# A♣ (the first card code) as a third card: the player's 4 draws it, the bank's 3 too.
ACE_THIRD = "4,1,Kd 4d Ac,Qc 7d,loss_comparison,-1"
BANK_ACE_THIRD = "5,1,Qh 7s,Jd 3c Ac,win_comparison,1"


# -- the audit --------------------------------------------------------------------


def test_correct_rows_pass_the_audit() -> None:
    passed, said = judged(log(WIN, NATURAL, LOSS_TO_NATURAL, ACE_THIRD, BANK_ACE_THIRD))
    assert passed, said
    passed, said = judged(log(WIN + ",9,7", NATURAL + ",9,7", LOSS_TO_NATURAL + ",9,8",
                              ACE_THIRD + ",5,7", BANK_ACE_THIRD + ",7,4", finals=True))
    assert passed, said


@pytest.mark.parametrize("finals", ["8,7", "9,6", "7,9"], ids=["player", "bank", "swapped"])
def test_wrong_final_values_fail_the_audit(finals: str) -> None:
    passed, said = judged(log(NATURAL + ",9,7", WIN + "," + finals, finals=True))
    assert not passed
    assert "line 5" in said and "line 4" not in said
    assert "8h 7s 4d" in said and "Ac 6d" in said  # the row's cards, each hand its own


@pytest.mark.parametrize(("row", "words"), [
    # Player 8 (natural) against a bank 5 that draws to 9: the natural wins.
    ("2,1,8h Kd,5c Kc 4d,loss_comparison,-1", "compared final values"),
    # A Colon (K K, drawing a 9) that wins is paid its multiplier, 2.
    ("2,1,Kh Kd 9c,Qc 7d,win_comparison,1", "Colon bonus"),
], ids=["natural-beats-a-drawn-9", "colon-paid-as-a-win"])
def test_violation_messages_say_which_rule(row: str, words: str) -> None:
    passed, said = judged(log(WIN, row))
    where = [ln for ln in said.splitlines() if "line 5" in ln]
    assert not passed and where and words in where[0]


def test_two_naturals_mixed_up_are_not_called_a_missed_natural() -> None:
    # Player 9 against bank 8, both naturals: the log has the winner wrong, but
    # it did see both naturals.
    passed, said = judged(log(WIN, "2,1,9h Kd,8c Kc,loss_natural_8,-1"))
    where = [ln for ln in said.splitlines() if "line 5" in ln]
    assert not passed and where and "win_natural_9" in where[0]
    assert "is a natural" not in where[0]


def test_a_draw_violation_names_the_draw_rule_under_baccarat_rules() -> None:
    # Punto-banco: a player 6 stands; no natural is involved.
    text = ("# profile: punto-banco\n# shoe: 8\nround,seat,player,bank,result,payout\n"
            "1,1,Kh 6d 2c,Qc 7d,win_comparison,1\n")
    passed, said = judged(text)
    where = [ln for ln in said.splitlines() if "line 4" in ln]
    assert not passed and where
    assert "0-5" in where[0] and "stops all draws" not in where[0]


def test_a_game_with_choices_is_refused_or_judged_never_a_crash() -> None:
    text = ("# profile: family\n# shoe: 1\nround,seat,player,bank,result,payout\n"
            "1,1,Kh 6d,Qc 7d,loss_comparison,-1\n")
    try:
        verify_text(text, "f")
    except ValueError as exc:  # refused, with a sentence (TallyError is a ValueError)
        assert "family" in str(exc)


@pytest.mark.parametrize(("row", "line"), [
    ("2,1,9h Kd,5c 2d,win_comparison,1", "line 5"),
    ("2,1,2h 3d 4c,Kc 8s,loss_comparison,-1", "line 5"),
    ("2,1,8h 7s 4d,Ac 6d,win_natural_9,1", "line 5"),
])
def test_right_outcome_wrong_category_fails(row: str, line: str) -> None:
    passed, said = judged(log(WIN, row))
    assert not passed and line in said
    # An outcome-only result is judged by outcome alone.
    outcome = row.split(",")[4].split("_")[0]
    passed, said = judged(log(WIN.replace("win_comparison", "win"),
                              row.replace(row.split(",")[4], outcome)))
    assert passed, said


@pytest.mark.parametrize(("rows", "card"), [
    (["1,1,Ac 8d,Ac 6d,win_natural_9,1"], "A"),
    (["1,1,Ks 9d,Ks 7d,win_natural_9,1"], "K"),
    (["1,1,Ks Ks 9d,Kc 7d,win_comparison,2"], "K"),
], ids=["two-ace-of-clubs", "two-king-of-spades", "king-of-spades-in-one-hand"])
def test_a_suited_card_twice_from_one_pack_is_rejected(rows: list[str], card: str) -> None:
    # A♣ and K♠ are the first and last suited cards.
    passed, said = judged(log(*rows))
    assert not passed and "line 4" in said and card in said
    # From two packs the same rows are possible.
    passed, said = judged(log(*rows, shoe="2"))
    assert passed, said


def test_three_kings_of_spades_from_two_packs_are_rejected() -> None:
    row = "1,1,Ks Ks 9d,Ks 7d,win_comparison,2"
    assert not judged(log(row, shoe="2"))[0]
    assert judged(log(row, shoe="3"))[0]


def test_five_kings_in_a_round_of_one_pack_are_rejected() -> None:
    text = ("# profile: standard\n# shoe: 1\n# seats: 2\nround,seat,player,bank,result,payout\n"
            "1,1,K K 9,K 7,win_comparison,2\n1,2,K K 9,K 7,win_comparison,2\n")
    passed, said = judged(text)
    assert not passed and "K" in said
    assert judged(text.replace("1,2,K K", "1,2,Q Q"))[0]


def test_the_line_of_an_unknown_result_is_the_file_line() -> None:
    passed, said = judged(log(WIN, NATURAL, "3,1,2h 3d 4c,Kc 8s,win_natural_7,1"))
    assert not passed
    assert "line 6" in said and "win_natural_7" in said


# -- rows in any order -------------------------------------------------------------


def _shuffled(text: str, seed: int) -> str:
    lines = text.splitlines(keepends=True)
    head = [ln for ln in lines if ln.startswith("#")]
    body = [ln for ln in lines if not ln.startswith("#")]
    rows = body[1:]
    random.Random(seed).shuffle(rows)
    return "".join(head + body[:1] + rows)


@pytest.mark.parametrize("seats", [1, 3])
def test_rows_out_of_round_and_seat_order_give_the_same_verdict(tmp_path, seats: int) -> None:
    path = tmp_path / "log.csv"
    simulate(BUILTIN["standard"], Shoe.packs_of(1), 400, seats=seats, seed=16, log=path)
    text = path.read_text()
    ordered = verify_text(text, "f")
    shuffled = verify_text(_shuffled(text, 1), "f")
    assert ordered.passed and shuffled.passed
    assert shuffled.rows == ordered.rows == 400 * seats
    for a, b in zip(ordered.seats, shuffled.seats, strict=True):
        assert [(c.name, c.statistic) for c in a.checks] == [(c.name, c.statistic)
                                                              for c in b.checks]


def test_rows_out_of_order_still_show_a_bank_that_differs() -> None:
    text = ("# profile: standard\n# shoe: 8\n# seats: 2\nround,seat,player,bank,result,payout\n"
            "2,2,9h Kd,5c 2d,win_natural_9,1\n1,2,9h Kd,5c 2d,win_natural_9,1\n"
            "2,1,9c Kd,5c 2d,win_natural_9,1\n1,1,9s Kd,5c 3d,win_natural_9,1\n")
    passed, said = judged(text)
    assert not passed and "bank" in said
    assert judged(text.replace("5c 3d", "5c 2d"))[0]


def test_a_round_and_seat_given_twice_out_of_order_is_rejected() -> None:
    passed, said = judged(log(WIN, NATURAL, "1,1,9h Kd,5c 2d,win_natural_9,1"))
    assert not passed and "twice" in said


# -- the statistics ------------------------------------------------------------------


def pooled_chi_square(observed: list[int], probs: list[Fraction]) -> tuple[float, int]:
    """The documented test: cells expected under 5 pooled; a pool still under 5
    joins the smallest cell; impossible (p = 0) cells left out."""
    n = sum(observed)
    cells = [(o, float(p) * n) for o, p in zip(observed, probs, strict=True) if p]
    small = [c for c in cells if c[1] < 5]
    big = [c for c in cells if c[1] >= 5]
    if small:
        pool = (sum(o for o, _ in small), sum(e for _, e in small))
        if pool[1] >= 5 or not big:
            big.append(pool)
        else:
            j = min(range(len(big)), key=lambda k: big[k][1])
            big[j] = (big[j][0] + pool[0], big[j][1] + pool[1])
    return sum((o - e) ** 2 / e for o, e in big), len(big) - 1


@pytest.mark.parametrize(("rounds", "pool"), [(100, "joins the smallest cell"),
                                             (60, "is a cell"), (3000, "none")])
def test_the_category_chi_square_pools_small_cells_and_counts_empty_ones_as_zero(
        rounds: int, pool: str) -> None:
    exact = round_odds(BUILTIN["standard"], Shoe.packs_of(1))
    names = list(exact.categories)
    probs = [exact.categories[k] for k in names]
    observed = [math.floor(float(p) * rounds * 1.1) for p in probs]
    observed[probs.index(min(probs))] = 0  # an empty category, left out of the tally
    big = probs.index(max(probs))
    observed[big] += rounds - sum(observed)
    tally = Tally(rounds=rounds, categories={k: o for k, o in zip(names, observed,
                                                                    strict=True) if o})
    result = verify_tallies(ONE_PACK, [tally])
    check = result.seats[0].checks[0]
    stat, df = pooled_chi_square(observed, probs)
    small = sum(float(p) * rounds for p in probs if float(p) * rounds < 5)
    assert pool == ("none" if not small else "is a cell" if small >= 5
                    else "joins the smallest cell")
    assert check.name == "categories"
    assert check.df == df and math.isclose(check.statistic, stat, rel_tol=1e-9)
    assert math.isclose(float(check.p), float(
        mpmath.gammainc(df / 2, stat / 2, mpmath.inf, regularized=True)), rel_tol=1e-9)


@pytest.mark.parametrize(("probs", "observed", "df"), [
    ((Fraction(3, 4), Fraction(1, 8), Fraction(1, 8)), (28, 6, 6), 2),  # 5 is not under 5
    ((Fraction(1, 2), Fraction(3, 8), Fraction(1, 16), Fraction(1, 16)), (19, 15, 4, 2), 2),
    ((Fraction(1, 2), Fraction(7, 16), Fraction(1, 32), Fraction(1, 32)), (21, 15, 3, 1), 1),
], ids=["cells-of-5", "pool-of-5", "pool-under-5"])
def test_pooling_at_exactly_5_expected(probs, observed, df) -> None:
    # n = 40: expected counts are exact in binary, so the boundary is exact.
    from odds.sim.stats import _chi_square

    check = _chi_square("t", [str(i) for i in range(len(probs))], list(observed), list(probs))
    stat, want = pooled_chi_square(list(observed), list(probs))
    assert (check.df, want) == (df, df)
    assert math.isclose(check.statistic, stat, rel_tol=1e-12)


def test_one_cell_is_nothing_to_test() -> None:
    result = verify_tallies(ONE_PACK, [Tally(rounds=1, categories={"win_comparison": 1})])
    check = result.seats[0].checks[0]
    assert (check.statistic, check.df, check.p) == (0, 0, 1)


def test_outcome_only_tallies_are_tested_by_outcome() -> None:
    ideal = ideal_tally(100_000)
    outcomes = ideal.outcomes
    result = verify_tallies(ONE_PACK, [Tally(rounds=ideal.rounds, categories=dict(outcomes))])
    assert result.passed and result.seats[0].checks[0].name == "outcomes"
    shifted = dict(outcomes)
    shifted["win"] += 2000
    shifted["loss"] -= 2000
    bad = verify_tallies(ONE_PACK, [Tally(rounds=ideal.rounds, categories=shifted)])
    assert bad.verdict == "fail" and bad.seats[0].checks[0].p < 1e-6


def test_z_scores_are_the_normal_approximation(sim_standard) -> None:
    tally = sim_standard.tallies[0]
    exact = round_odds(BUILTIN["standard"], Shoe.packs_of(1))
    result = verify_tallies(sim_standard.header, sim_standard.tallies)
    checks = {c.name: c for c in result.seats[0].checks}
    n = tally.rounds
    for name, count, prob in (("win", tally.outcomes["win"], exact.win),
                              ("loss", tally.outcomes["loss"], exact.loss),
                              ("bank draws", tally.bank_draws, exact.bank_draws)):
        z = (count - float(prob) * n) / math.sqrt(n * float(prob) * (1 - float(prob)))
        assert math.isclose(checks[name].statistic, z, rel_tol=1e-9), name
        assert math.isclose(float(checks[name].p), math.erfc(abs(z) / math.sqrt(2)),
                            rel_tol=1e-9), name
    mean = float(sum(a * c for a, c in tally.payouts.items()) / n)
    ev, var = exact.bet_moments("player")
    z = (mean - float(ev)) / math.sqrt(float(var) / n)
    assert math.isclose(checks["expected value"].statistic, z, rel_tol=1e-9)
    # Fewer than 10 failures expected: the exact binomial tail, not the normal one.
    from odds.sim.stats import _z_check

    assert _z_check("x", 95, 100, Fraction(19, 20)).note == "exact binomial"
    assert _z_check("x", 5, 100, Fraction(1, 20)).note == "exact binomial"
    assert _z_check("x", 50, 100, Fraction(1, 2)).note == ""


DEGENERATE = BUILTIN["standard"].with_options(natural_values="none", player_draw="none",
                                              bank_draw="0-9")


def test_a_probability_of_exactly_0_or_1_counts_as_expected() -> None:
    # The player never draws, the bank always does, nobody has a natural.
    sim = simulate(DEGENERATE, Shoe.packs_of(1), 3000, seed=16)
    result = verify_tallies(sim.header, sim.tallies)
    assert result.verdict == "pass", "\n".join(verify_lines(result))
    tally = sim.tallies[0]
    assert tally.player_draws == 0 and tally.bank_draws == tally.rounds
    for name, value in (("player_draws", 1), ("bank_draws", tally.rounds - 1)):
        wrong = Tally(**{**tally.__dict__, name: value})
        bad = verify_tallies(sim.header, [wrong])
        assert bad.verdict == "fail", name
        assert bad.p_value == 0
        assert "combined p = 0 " in verify_lines(bad)[-1]


def _scaled(tally: Tally, scale: int) -> Tally:
    out = Tally(**tally.__dict__)
    for name in ("player_value", "bank_value", "player_final", "bank_final"):
        setattr(out, name, [v * scale for v in getattr(tally, name)])
    for name in ("player_colon", "player_colon_nine", "bank_colon", "bank_colon_nine",
                 "player_draws", "bank_draws"):
        setattr(out, name, getattr(tally, name) * scale)
    out.rounds = tally.rounds * scale
    out.payouts = {k: v * scale for k, v in tally.payouts.items()}
    out.categories = {k: v * scale for k, v in tally.categories.items()}
    return out


@pytest.fixture(scope="module")
def sim_standard():
    return simulate(BUILTIN["standard"], Shoe.packs_of(1), 20_000, seed=16)


@pytest.mark.parametrize("side", ["player_final", "bank_final"])
def test_wrong_final_value_frequencies_fail(sim_standard, side: str) -> None:
    # Only the final values are off (a fifth of the 7s counted as 3s).
    assert verify_tallies(sim_standard.header, sim_standard.tallies).passed
    tally = Tally(**sim_standard.tallies[0].__dict__)
    vec = list(getattr(tally, side))
    move = vec[7] // 5
    vec[7] -= move
    vec[3] += move
    setattr(tally, side, vec)
    result = verify_tallies(sim_standard.header, [tally])
    assert result.verdict == "fail"
    finals = [c for c in result.seats[0].checks if "final" in c.name]
    assert len(finals) == 2 and min(c.p for c in finals) < 1e-20


# -- the report text ------------------------------------------------------------------

P_TEXT = r"p = (\d\.\d{3}|\d(\.\d{1,2})?e-\d+|0)"


def _check_lines(lines: list[str]) -> list[str]:
    return [ln for ln in lines if re.match(r"  (chi-square|z) ", ln)]


def test_tiny_p_values_are_printed_as_such(sim_standard) -> None:
    tally = _scaled(sim_standard.tallies[0], 10)
    cats = dict(tally.categories)
    cats["win_comparison"] += 8000
    cats["loss_comparison"] -= 8000
    tally.categories = cats
    result = verify_tallies(sim_standard.header, [tally])
    lines = verify_lines(result)
    checks = _check_lines(lines)
    assert checks and all(re.search(P_TEXT, ln) for ln in checks)
    assert not [ln for ln in checks if re.search(r"p = 0(\s|$)", ln)]  # nothing impossible
    tiny = re.search(r"combined p = (\S+)", lines[-1])
    assert tiny and re.fullmatch(r"\d(\.\d{1,2})?e-\d+", tiny.group(1)), lines[-1]
    assert 0 < result.p_value < 1e-20
    # p = min(1, tests x smallest p), printed with three significant digits.
    ps = [c.p for s in result.seats for c in s.checks]
    assert result.p_value == len(ps) * min(ps)
    assert float(tiny.group(1)) == pytest.approx(float(result.p_value), rel=5e-3)


def ideal_tally(n: int) -> Tally:
    """Categories and payouts at their expected counts (rounded): every p near 1."""
    exact = round_odds(BUILTIN["standard"], Shoe.packs_of(1))
    cats = {k: round(p * n) for k, p in exact.categories.items()}
    cats["loss_comparison"] += n - sum(cats.values())
    pays = {a: round(p * n) for a, p in exact.payout_distribution().items()}
    pays[Fraction(-1)] += n - sum(pays.values())
    return Tally(rounds=n, categories=cats, payouts=pays)


def test_the_combined_p_is_capped_at_1_and_counts_every_test() -> None:
    result = verify_tallies(ONE_PACK, [ideal_tally(100_000)])
    ps = [c.p for s in result.seats for c in s.checks]
    assert len(ps) * min(ps) > 1
    assert result.p_value == 1
    lines = verify_lines(result)
    assert "combined p = 1.000" in lines[-1]
    count = re.search(r"over (\d+) tests", lines[-1])
    assert count and int(count.group(1)) == len(_check_lines(lines)) == len(ps) == result.tests
    normal = [ln for ln in _check_lines(lines) if "exact binomial" not in ln]
    assert all(re.search(r"p = [01]\.\d{3}", ln) for ln in normal)


def test_payout_cells_are_listed_from_the_highest_amount(sim_standard) -> None:
    lines = verify_lines(verify_tallies(sim_standard.header, sim_standard.tallies))
    by_amount = [ln for ln in lines if "z by amount" in ln][0]
    amounts = [Fraction(cell.split(":")[0]) for cell in by_amount.split(": ", 1)[1].split()]
    assert amounts == sorted(amounts, reverse=True) and len(amounts) == 5


@pytest.mark.parametrize("alpha", [0.01, 0.05])
def test_the_ev_interval_is_the_mean_plus_minus_z_standard_errors(sim_standard,
                                                                  alpha: float) -> None:
    tally = sim_standard.tallies[0]
    result = verify_tallies(sim_standard.header, sim_standard.tallies, alpha=alpha)
    n = tally.rounds
    mean = sum(a * c for a, c in tally.payouts.items()) / n
    var = sum((a - mean) ** 2 * c for a, c in tally.payouts.items()) / (n - 1)
    half = NormalDist().inv_cdf(1 - alpha / 2) * math.sqrt(var) / math.sqrt(n)
    line = [ln for ln in verify_lines(result) if "interval" in ln][0]
    found = re.search(r"observed ([-+]\d\.\d+), (\d+)% interval \[([-+]\d\.\d+), ([-+]\d\.\d+)\]",
                      line)
    assert found, line
    assert float(found.group(1)) == pytest.approx(float(mean), abs=1e-6)
    assert int(found.group(2)) == round(100 * (1 - alpha))
    assert float(found.group(3)) == pytest.approx(float(mean) - half, abs=2e-6)
    assert float(found.group(4)) == pytest.approx(float(mean) + half, abs=2e-6)
    exact = round_odds(BUILTIN["standard"], Shoe.packs_of(1)).expected_value
    assert f"({exact.numerator}/{exact.denominator})" in line


def test_the_header_says_where_the_rules_came_from() -> None:
    rows = [WIN, NATURAL]
    def rules_line(text: str, rules: RunHeader | None = None) -> str:
        result = verify_text(text, "f", rules)
        return [ln for ln in verify_lines(result) if ln.startswith("rules")][0]

    from_file = rules_line(log(*rows))
    assert "file" in from_file and "profile standard" in from_file
    flag = rules_line(log(*rows), RunHeader(BUILTIN["plain"], Shoe.packs_of(1)))
    assert ("command line" in flag or "flag" in flag) and "profile plain" in flag
    bare = rules_line("round,seat,player,bank,result,payout\n" + WIN + "\n")
    assert "default" in bare and "profile standard" in bare
    first = verify_lines(verify_text(log(*rows), "my-log.csv"))[0]
    assert "my-log.csv" in first and "2 rows" in first
