"""Ruin where the nets' lattice is too fine: two coarser chains bracket it (odds.money.bracket).

Rounding every net toward the bank's loss can only bring ruin sooner, toward its gain only
later: the exact ruin lies between the two chains' (checked here against a brute force over
every sequence of rounds), and the bracket shrinks to nothing as the lattice refines.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cli import main
from odds import BUILTIN, Shoe
from odds.money.bank import bank_round
from odds.money.bracket import capital_bracket, coarsen, lattice_plan, nets_plan
from odds.money.ruin import session_risk
from odds.money.sampling import ruin_estimate, tilted_round
from odds.money.session import bank_study
from odds.money.target import capital_for_target
from odds.rules.session_options import Session

F = Fraction
STD = BUILTIN["standard"]


def brute_ruin(dist, capital, rounds):
    """Every sequence of ``rounds`` nets, one by one: ruined at the first capital + net < 0."""
    total = F(0)
    for seq in itertools.product(dist.items(), repeat=rounds):
        c, p, ruined = F(capital), F(1), False
        for v, q in seq:
            p *= q
            c += v
            ruined = ruined or c < 0
        total += p if ruined else 0
    return total


def test_the_bracket_holds_the_brute_force_ruin_and_shrinks_as_it_refines() -> None:
    # stakes 2 and 3 at the infinite shoe: nets on a lattice of 1, up to -15 .. +5
    r = bank_round(STD, Shoe.infinite_shoe(), Session(stakes=(F(2), F(3))))
    exact = brute_ruin(r.distribution, 7, 3)
    assert session_risk(r.distribution, 7, 3).ruin == exact
    widths = []
    for unit in (F(8), F(4), F(2), F(1)):
        upper = brute_ruin(coarsen(r.distribution, unit, down=True), 7, 3)
        lower = brute_ruin(coarsen(r.distribution, unit, down=False), 7, 3)
        assert lower <= exact <= upper, unit
        assert session_risk(coarsen(r.distribution, unit, down=True), 7, 3).ruin == upper
        assert session_risk(coarsen(r.distribution, unit, down=False), 7, 3).ruin == lower
        widths.append(upper - lower)
    assert widths == sorted(widths, reverse=True) and widths[-1] == 0 and widths[0] > 0


NETS = st.lists(st.tuples(st.integers(-12, 6), st.integers(1, 5)), min_size=1, max_size=5)


@settings(max_examples=60, deadline=None)
@given(NETS, st.sampled_from([F(1), F(1, 2), F(3, 2)]), st.integers(0, 12), st.integers(1, 3),
       st.integers(1, 6))
def test_property_lower_le_exact_le_upper(nets, step, capital, rounds, factor) -> None:
    weights = {}
    for v, w in nets:
        weights[F(v) * step] = weights.get(F(v) * step, 0) + w
    total = sum(weights.values())
    dist = {v: F(w, total) for v, w in weights.items()}
    unit = step * factor
    exact = brute_ruin(dist, capital, rounds)
    upper = session_risk(coarsen(dist, unit, down=True), capital, rounds).ruin
    lower = session_risk(coarsen(dist, unit, down=False), capital, rounds).ruin
    assert lower <= exact <= upper
    if factor == 1 or all((v / unit).denominator == 1 for v in dist):
        assert lower == exact == upper  # nets already on the lattice: no bracket


def test_the_capital_bracket_holds_the_true_smallest_capital() -> None:
    r = bank_round(STD, Shoe.infinite_shoe(), Session(stakes=(F(2), F(3), F(5))))
    for rounds, target in ((5, F(1, 20)), (12, F(1, 100))):
        truth = capital_for_target(r.distribution, rounds, target).capital
        widths = []
        for unit in (F(8), F(4), F(2)):
            c = capital_bracket(r.distribution, rounds, target, unit)
            assert c.bracket is not None and c.bracket[0] <= truth <= c.bracket[1] == c.capital
            assert c.ruin <= target and c.ruin_lower is not None and c.ruin_lower <= c.ruin
            assert session_risk(r.distribution, c.capital, rounds).ruin <= target  # for certain
            widths.append(c.bracket[1] - c.bracket[0])
        assert widths == sorted(widths, reverse=True), widths


def test_a_coarse_estimate_is_the_coarse_chain_of_the_tilted_round() -> None:
    r = bank_round(STD, 1, Session(stakes=(F(2), F(3), F(5))), samples=2000, seed=5)
    chain = tilted_round(r.distribution, r.mean)
    for down in (True, False):
        e = ruin_estimate(r.distribution, 2000, 40, 20, exact_mean=r.mean, unit=F(4), down=down)
        ruin = session_risk(coarsen(chain, F(4), down=down), 40, 20, exact=False).ruin
        assert e.value == pytest.approx(float(ruin), abs=1e-9)
        assert e.interval[0] <= e.value <= e.interval[1]


def test_the_lattice_plan_does_not_grow_with_capital_over_step() -> None:
    # The same table in units of 1, 1/2, 1/100: the chosen lattice's cells stay bounded.
    cells = []
    for step in (F(1), F(1, 2), F(1, 100)):
        per = int(1 / step)
        p = lattice_plan(step, 100_000 * per, 500 * per, 1500 * per, 300, sampled=True)
        cells.append(p.cells)
        assert p.work <= 10**9 and p.cells * 300 <= 12_000_000
    assert max(cells) < 2 * min(cells)
    with pytest.raises(ValueError, match="give fewer rounds"):
        lattice_plan(F(1), 10, 1, 3, 10**6)


def test_the_study_brackets_where_the_lattice_is_too_fine_and_not_where_it_fits() -> None:
    stakes = (F(100), F(275), F(1, 2))
    s = bank_study(STD, "inf", Session(stakes=stakes, capital=F(20000), rounds=200),
                   target_ruin="0.01")
    assert s.risk is not None and s.risk.bracket is not None and s.risk.unit is not None
    lower, upper = s.risk.bracket
    assert lower <= upper
    assert s.target is not None and s.target.bracket is not None
    assert s.target.bracket[0] <= s.target.capital == s.target.bracket[1]
    assert s.stake_factors is not None and s.stake_factor == s.stake_factors[0]
    fits = bank_study(STD, "inf", Session(stakes=(F(100), F(200)), capital=F(2000), rounds=50),
                      target_ruin="0.01")
    assert fits.risk is not None and fits.risk.bracket is None and fits.risk.unit is None
    assert fits.target is not None and fits.target.bracket is None


def test_precision_refines_the_bracket() -> None:
    session = Session(stakes=(F(100), F(275), F(1, 2)), capital=F(20000), rounds=200)
    loose = bank_study(STD, "inf", session, precision=0.5)
    tight = bank_study(STD, "inf", session, precision=1e-6)
    assert loose.risk is not None and tight.risk is not None
    assert loose.risk.unit is not None and tight.risk.unit is not None
    assert loose.risk.unit > tight.risk.unit  # a loose precision stops at a coarser lattice
    for s in (loose, tight):
        assert s.risk.bracket is not None
    lo_w = float(loose.risk.bracket[1]) - float(loose.risk.bracket[0])
    hi_w = float(tight.risk.bracket[1]) - float(tight.risk.bracket[0])
    assert lo_w <= 0.5 and hi_w <= lo_w
    assert nets_plan(loose.round.distribution, F(20000), 200).unit == tight.risk.unit


def run(*args: str):
    return CliRunner().invoke(main, ["bank", *args])


def test_the_command_brackets_mixed_stakes_in_text_and_json() -> None:
    args = ["--decks", "inf", "--stakes", "100,275,1/2", "--capital", "20000", "--rounds", "200",
            "--target-ruin", "0.01"]
    text = run(*args)
    assert text.exit_code == 0, text.output
    assert "P(ruin within 200 rounds)  between " in text.output
    assert "toward the bank's gain (lower) and its loss (upper)" in text.output
    assert "the smallest capital lies in [" in text.output
    import json

    data = json.loads(run(*args, "--format", "json").stdout)
    b = data["session_risk"]["bracket"]
    assert float(b["lower"]) <= float(b["upper"]) and b["lattice_step"] != "1/2"
    c = data["capital_for_target"]["bracket"]
    assert F(c["capitals"][0]) <= F(data["capital_for_target"]["capital"]) == F(c["capitals"][1])


def test_the_command_on_mixed_stakes_estimated_answers_with_intervals() -> None:
    # The fast twin of the owner's table: 3 mixed seats on one pack, estimated.
    result = run("--decks", "1", "--stakes", "100,200,500", "--rounds", "60", "--target-ruin",
                 "0.01", "--capital", "5000", "--samples", "2000")
    assert result.exit_code == 0, result.output
    assert "smallest capital" in result.output and "95% interval" in result.output


@pytest.mark.slow
def test_the_owners_table_answers() -> None:
    result = run("--decks", "6", "--players", "7", "--stakes", "100,200,300,400,500,500,500",
                 "--rounds", "300", "--target-ruin", "0.01")
    assert result.exit_code == 0, result.output
    assert "smallest capital" in result.output and "95% interval" in result.output


@pytest.mark.parametrize("args,words", [
    (["--precision", "2"], "precision: "),
    (["--precision", "0"], "precision: "),
    (["--rounds", "100000", "--decks", "1", "--players", "2", "--capital", "1000"],
     "give fewer rounds"),
])
def test_bad_input_is_one_sentence_and_exit_2(args, words) -> None:
    result = run("--stakes", "100,275", "--capital", "1000", "--rounds", "10", *args)
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output


# -- progress: the session's chains report too ------------------------------------------------


def test_the_session_chains_report_progress_even_on_an_exact_round() -> None:
    # A run whose round is exact (no sampling, so no progress from the round) once ran its
    # session chains for seconds without a call: no bar ever showed.
    seen: list[tuple[int, int]] = []
    bank_study(STD, "inf", Session(players=2, capital=F(50), rounds=50), target_ruin="0.01",
               progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[0][0] == 0 and seen[-1][0] >= 2
    assert all(0 <= d <= t for d, t in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_the_command_shows_its_bar_on_a_terminal_past_the_delay(monkeypatch) -> None:
    import odds.cli.progress as progress

    args = ["--decks", "inf", "--players", "2", "--capital", "50", "--rounds", "50",
            "--target-ruin", "0.01"]
    monkeypatch.setattr(progress, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(progress, "_terminal", lambda: True)
    shown = run(*args)
    assert shown.exit_code == 0 and "bank" in shown.stderr
    assert "bank" not in shown.stdout.splitlines()[0]  # the bar goes to stderr, not the report
    monkeypatch.setattr(progress, "_terminal", lambda: False)  # a pipe: never a bar
    assert run(*args).stderr == ""
    monkeypatch.setattr(progress, "_terminal", lambda: True)
    monkeypatch.setattr(progress, "PROGRESS_AFTER", 3600.0)  # a quick run: no bar
    assert run(*args).stderr == ""


def test_an_estimate_with_many_nets_and_capitals_is_not_refused() -> None:
    # 101 nets x 30,001 capitals was refused ("more than the 3,000,000 allowed") although the
    # passes keep one row of capitals at a time.
    sampled = {F(v): F(1, 101) for v in range(-75, 26)}
    e = ruin_estimate(sampled, 5000, 22500, 300, exact_mean=F(-1))
    assert 0 <= e.interval[0] <= e.value <= e.interval[1] <= 1
