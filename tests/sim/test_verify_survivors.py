"""Tests that kill the survivors of a mutation run on the verifier's statistics and verdict:
an impossible side-bet payout, a continuous shoe's payout amount the log never shows, the
per-round expected EV, a side bet of zero variance, alpha at its bounds, the side-bet note
of continuous shoes.  Figures are computed here from their definitions."""

from __future__ import annotations

import math
from dataclasses import fields, replace
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

from cli import main
from odds import BUILTIN, Shoe, round_odds
from odds.sim.expect import round_probabilities, rounds_model
from odds.sim.stats import Moments, model_report, seat_report
from odds.sim.tallies import RunHeader, Tally
from odds.sim.verdict import check_alpha, continuous_side_notes, verify_tallies
from odds.sim.verify import verify_text

STANDARD = BUILTIN["standard"]
ALPHA = 0.01


def _by_name(report) -> dict:
    return {c.name: c for c in report.checks}


def _bet_tally(n: int, pays: dict[Fraction, int]) -> Tally:
    return Tally(seat=1, rounds=n, categories={"win": n // 2, "loss": n - n // 2},
                 bets={"banker": pays})


# -- stats ------------------------------------------------------------------------


def _banker_on_the_infinite_shoe(n: int):  # type: ignore[no-untyped-def]
    """Punto banco's exact round, the banker bet's payouts and n rounds paid in proportion."""
    exact = round_odds(BUILTIN["punto-banco"], Shoe.infinite_shoe())
    dist = exact.payout_distribution("banker")
    return exact, dist, {a: round(float(p) * n) for a, p in dist.items()}


def test_a_side_bet_payout_the_exact_distribution_calls_impossible_rejects() -> None:
    exact, dist, pays = _banker_on_the_infinite_shoe(10_000)
    assert Fraction(7) not in dist
    pays[Fraction(7)] = 1
    check = _by_name(seat_report(_bet_tally(sum(pays.values()), pays), exact, ALPHA,
                                 {"banker": dist}))["bet banker payouts"]
    assert check.p == 0 and math.isinf(check.statistic)
    assert check.note == "impossible under the rules: 7"
    row = [r for r in check.rows if r[0] == "7"]
    assert row == [("7", 1, 0.0, math.inf)]
    assert check.df == len(dist) - 1


def _fresh_model(n: int, bets: tuple[str, ...] = (), profile=STANDARD, packs: int = 1):
    """Every round from a full shoe: the per-round model of a fresh shoe."""
    probs = round_probabilities(profile, [[4 * packs] * 13] * n, bets=bets)
    return rounds_model(profile, probs, np.arange(n), bets)


def test_a_continuous_payout_amount_the_log_never_shows_is_tested_as_zero() -> None:
    n = 600
    model = _fresh_model(n)
    exact = round_odds(STANDARD, Shoe.packs_of(1))
    dist = exact.payout_distribution("player")
    pays = {a: round(float(p) * n) for a, p in dist.items() if a != 3}
    assert Fraction(3) in model.amounts and Fraction(3) not in pays
    rounds = sum(pays.values())
    tally = Tally(seat=1, rounds=rounds, categories={"win": rounds}, payouts=pays)
    model = _fresh_model(rounds)
    got = _by_name(model_report(1, tally, model, ALPHA))["payouts"]
    row = [r for r in got.rows if r[0] == "3"]
    assert len(row) == 1 and row[0][1] == 0
    assert row[0][2] == pytest.approx(float(dist[Fraction(3)]) * rounds)
    # The same rounds with the amount written as 0: the same test.
    written = _by_name(model_report(1, replace(tally, payouts={**pays, Fraction(3): 0}), model,
                                    ALPHA))["payouts"]
    assert got.statistic == pytest.approx(written.statistic) and got.df == written.df
    # Identical fresh rounds: the generalised chi-square is Pearson's of the fresh shoe.
    pearson = _by_name(seat_report(tally, exact, ALPHA))["payouts"]
    assert got.df == pearson.df
    assert got.statistic == pytest.approx(pearson.statistic, rel=1e-6)


def test_the_continuous_expected_ev_is_the_mean_of_the_rounds_exact_evs() -> None:
    comps = [[4] * 13, [4] * 8 + [0] + [4] * 4, [2] * 13]  # a full pack, no 9s, half a pack
    rows = np.repeat(np.arange(3), [50, 30, 20])
    probs = round_probabilities(STANDARD, [comps[k] for k in rows.tolist()])
    model = rounds_model(STANDARD, probs, np.arange(len(rows)))
    tally = Tally(seat=1, rounds=len(rows), categories={"win": 50, "loss": 50},
                  payouts={Fraction(1): 50, Fraction(-1): 50})
    report = model_report(1, tally, model, ALPHA)
    evs = [round_odds(STANDARD, Shoe(tuple(c))).bet_moments("player")[0] for c in comps]
    want = sum(evs[k] * c for k, c in enumerate((50, 30, 20))) / 100
    assert report.ev_expected == pytest.approx(float(want), rel=1e-9)
    assert report.ev_observed == 0.0
    z = _by_name(report)["expected value"]
    assert z.rows[0][2] == pytest.approx(float(want), rel=1e-9)


def test_a_side_bet_with_zero_variance_is_tested_without_an_ev_test() -> None:
    exact = round_odds(BUILTIN["punto-banco"], Shoe.infinite_shoe())
    n = 500
    report = seat_report(_bet_tally(n, {Fraction(-1): n}), exact, ALPHA,
                         {"banker": {Fraction(-1): Fraction(1)}})
    checks = _by_name(report)
    assert "bet banker expected value" not in checks
    assert checks["bet banker payouts"].p == 1 and checks["bet banker payouts"].df == 0
    # The same on a continuous shoe's model.
    model = _fresh_model(n, ("banker",), BUILTIN["punto-banco"], 8)
    flat = replace(model, quantities={**model.quantities, "bet:banker": (
        ("-1",), Moments(np.array([float(n)]), np.zeros((1, 1))))})
    checks = _by_name(model_report(1, _bet_tally(n, {Fraction(-1): n}), flat, ALPHA))
    assert "bet banker expected value" not in checks
    assert checks["bet banker payouts"].p == 1


# -- verdict ----------------------------------------------------------------------


@pytest.mark.parametrize("alpha", [1, 1.0, 0, -0.5, 1.5])
def test_alpha_must_lie_strictly_between_0_and_1(alpha) -> None:
    with pytest.raises(ValueError, match=f"alpha must be between 0 and 1, not {alpha!r}"):
        check_alpha(alpha)
    log = "round,seat,player,bank,result,payout\n1,1,8h 7s 4d,Ac 6d,win,1\n"
    with pytest.raises(ValueError, match="alpha must be between 0 and 1"):
        verify_text(log, alpha=alpha)
    header = RunHeader(STANDARD, Shoe.infinite_shoe())
    with pytest.raises(ValueError, match="alpha must be between 0 and 1"):
        verify_tallies(header, [Tally(seat=1, rounds=1, categories={"win": 1})], alpha=alpha)
    check_alpha(0.999)
    check_alpha(1e-300)


def test_alpha_1_on_the_command_line_is_bad_input(tmp_path) -> None:
    path = tmp_path / "log.csv"
    path.write_text("round,seat,player,bank,result,payout\n1,1,8h 7s 4d,Ac 6d,win,1\n")
    out = CliRunner().invoke(main, ["verify", str(path), "--alpha", "1"])
    assert out.exit_code == 2 and "Traceback" not in out.output
    assert "--alpha" in out.output


def test_the_continuous_side_bet_note_names_the_tested_bets_in_the_right_number() -> None:
    two = continuous_side_notes(["player-pair", "dragon-7"], {})
    assert two == ["side bets player-pair, dragon-7: payouts tested against the exact odds of "
                   "each round's pay table given the cards left before it (the batch engine)"]
    one = continuous_side_notes(["player-pair", "dragon-7"], {"dragon-7": "it needs suits"})
    assert one[0].startswith("side bet player-pair: payouts tested")
    assert one[1] == ("side bet dragon-7: continuous shoe, and it needs suits: its payout "
                      "frequencies are NOT tested, only the row audit ran")
    assert len(one) == 2
    none = continuous_side_notes(["dragon-7"], {"dragon-7": "it needs suits"})
    assert len(none) == 1 and "payouts tested" not in none[0]
    assert continuous_side_notes([], {}) == []


# -- round four of the mutation run (seed 20261207) ----------------------------------


@pytest.mark.parametrize("prob", [Fraction(1), Fraction(0), Fraction(3, 2)])
def test_a_binomial_tail_needs_a_probability_strictly_between_0_and_1(prob) -> None:
    from odds.sim.stats import binomial_p

    with pytest.raises(ValueError, match="0 < prob < 1"):
        binomial_p(5, 5, prob)


def test_a_continuous_side_bet_s_ev_row_is_the_exact_ev_per_round() -> None:
    profile, n = BUILTIN["punto-banco"], 400
    model = _fresh_model(n, ("banker",), profile, 8)
    exact = round_odds(profile, Shoe.packs_of(8))
    dist = exact.payout_distribution("banker")
    pays = {a: round(float(p) * n) for a, p in dist.items()}
    rounds = sum(pays.values())
    model = _fresh_model(rounds, ("banker",), profile, 8)
    check = _by_name(model_report(1, _bet_tally(rounds, pays), model, ALPHA))[
        "bet banker expected value"]
    ev = exact.bet_moments("banker")[0]
    assert check.rows[0][2] == pytest.approx(float(ev), rel=1e-9)  # per round, not in all


def test_strategy_odds_pay_a_win_1_a_tie_0_and_a_loss_minus_1_by_default() -> None:
    from odds.sim.stats import StrategyOdds

    odds = StrategyOdds("player optimal, bank optimal", Fraction(4, 10), Fraction(1, 10),
                        Fraction(5, 10), Fraction(1, 2), Fraction(1, 2))
    assert odds.expected_value == Fraction(4, 10) - Fraction(5, 10)


def test_the_largest_file_read_whole_is_the_one_the_docs_give() -> None:
    import re

    from odds.sim.verdict import MAX_FILE
    from tests.paths import ROOT

    text = (ROOT / "docs" / "simulate-and-verify.md").read_text(encoding="utf-8")
    found = re.search(r"read whole instead \(up to (\d+) GiB\)", text)
    assert found is not None
    assert MAX_FILE == int(found.group(1)) * 2**30


def test_a_log_that_no_frequency_test_reads_passes_on_its_rules_alone() -> None:
    log = "\n".join(["round,player,bank,result,payout", "1,9s Kc,Kh 7d,win,1"])  # a natural
    result = verify_text(log, "one.csv")
    assert not result.broken_rules, result.violation_counts
    untested = replace(result, seats=())
    assert untested.tests == 0 and untested.verdict == "pass"
    assert untested.verdict_text() == ("PASS: every row keeps the rules (no frequency test ran: "
                                       "see the notes)")
    assert result.verdict_text().startswith("PASS: the frequencies agree")


# -- the second held-out seed (20261208) ------------------------------------------------


def test_a_continuous_shoe_s_final_values_are_tested_and_a_skewed_vector_rejected() -> None:
    n = 2_000
    model = _fresh_model(n)
    finals = {side: [round(float(x)) for x in model.quantities[f"{side}_final"][1].expected]
              for side in ("player", "bank")}
    finals["player"][0] += n - sum(finals["player"])  # the counts sum to the rounds
    finals["bank"][0] += n - sum(finals["bank"])
    tally = Tally(seat=1, rounds=n, categories={"win": n}, player_final=finals["player"],
                  bank_final=finals["bank"])
    checks = _by_name(model_report(1, tally, model, ALPHA))
    for side in ("player", "bank"):
        assert checks[f"{side} final value"].df == 9 and checks[f"{side} final value"].p > 0.5
    skewed = list(finals["bank"])
    skewed[9] += 200  # two hundred more nines, two hundred fewer zeros
    skewed[0] -= 200
    bad = _by_name(model_report(1, replace(tally, bank_final=skewed), model, ALPHA))
    assert bad["bank final value"].p < 1e-6 and bad["player final value"].p > 0.5
    # A log without final values has no such test.
    bare = _by_name(model_report(1, replace(tally, player_final=None, bank_final=None), model,
                                 ALPHA))
    assert "player final value" not in bare and "bank final value" not in bare


def test_a_shoe_part_of_one_card_is_tested_and_an_empty_part_skipped() -> None:
    from odds.sim.stats import position_check

    labels = [str(v) for v in range(10)]
    expected = np.zeros((3, 10))
    cov = np.zeros((3, 10, 10))
    observed = np.zeros((3, 10), dtype=int)
    # Part 0: 40 cards over ten values alike; part 1: one card that can only be a 0;
    # part 2: no card at all.
    p = np.full(10, 0.1)
    expected[0] = 40 * p
    cov[0] = 40 * (np.diag(p) - np.outer(p, p)) * (100 - 40) / (100 - 1)
    observed[0] = 4
    expected[1, 0] = 1.0
    observed[1, 0] = 1
    fair = position_check(observed, expected, cov, labels)
    assert math.isfinite(fair.statistic) and fair.p > 0.5
    observed[1] = 0
    observed[1, 9] = 1  # a 9 where only a 0 was left
    assert position_check(observed, expected, cov, labels).p == 0
    # With no card in a part the part adds nothing: the same as the first part alone.
    alone = position_check(observed[:1], expected[:1], cov[:1], labels)
    fair0 = position_check(np.vstack([observed[:1], observed[2:]]),
                           np.vstack([expected[:1], expected[2:]]),
                           np.concatenate([cov[:1], cov[2:]]), labels)
    assert (alone.statistic, alone.df) == (fair0.statistic, fair0.df)


# -- the third held-out seed (20261209) -------------------------------------------------


def test_a_fresh_shoe_side_bet_amount_the_log_never_shows_is_tested_as_zero() -> None:
    exact, dist, pays = _banker_on_the_infinite_shoe(10_000)
    tie = Fraction(0)
    assert tie in dist
    missing = {a: c for a, c in pays.items() if a != tie}
    rounds = sum(missing.values())
    got = _by_name(seat_report(_bet_tally(rounds, missing), exact, ALPHA,
                               {"banker": dist}))["bet banker payouts"]
    row = [r for r in got.rows if r[0] == "0"]
    assert len(row) == 1 and row[0][1] == 0  # observed: none
    written = _by_name(seat_report(_bet_tally(rounds, {**missing, tie: 0}), exact, ALPHA,
                                   {"banker": dist}))["bet banker payouts"]
    assert got.statistic == written.statistic and got.df == written.df
    assert got.p < ALPHA  # some 950 ties expected, none seen


def test_a_side_bet_s_ev_row_is_labelled_ev_on_fresh_and_continuous_shoes() -> None:
    profile, n = BUILTIN["punto-banco"], 400
    exact = round_odds(profile, Shoe.packs_of(8))
    dist = exact.payout_distribution("banker")
    pays = {a: round(float(p) * n) for a, p in dist.items()}
    rounds = sum(pays.values())
    fresh = _by_name(seat_report(_bet_tally(rounds, pays), exact, ALPHA, {"banker": dist}))
    model = _fresh_model(rounds, ("banker",), profile, 8)
    continuous = _by_name(model_report(1, _bet_tally(rounds, pays), model, ALPHA))
    for checks in (fresh, continuous):
        assert [r[0] for r in checks["bet banker expected value"].rows] == ["EV"]


def test_a_part_of_the_shoe_with_one_cell_adds_no_degree_of_freedom() -> None:
    from odds.sim.stats import position_check

    labels = [str(v) for v in range(10)]
    p = np.full(10, 0.1)
    expected = np.zeros((2, 10))
    cov = np.zeros((2, 10, 10))
    observed = np.zeros((2, 10), dtype=int)
    expected[0] = 100 * p
    cov[0] = 100 * (np.diag(p) - np.outer(p, p)) * (1000 - 100) / (1000 - 1)
    observed[0] = [12, 8, 10, 10, 11, 9, 10, 10, 10, 10]
    expected[1, 3] = 6.0  # six cards that can only be 3s: one cell, nothing to test
    observed[1, 3] = 6
    both = position_check(observed, expected, cov, labels)
    first = position_check(observed[:1], expected[:1], cov[:1], labels)
    assert first.df >= 1
    assert (both.statistic, both.df, both.p) == (first.statistic, first.df, first.p)


def test_a_game_s_report_without_payouts_has_no_ev_test_and_no_observed_ev() -> None:
    from odds.sim.stats import StrategyOdds, strategy_report

    odds = StrategyOdds("p, b", Fraction(4, 10), Fraction(1, 10), Fraction(5, 10),
                        Fraction(1, 2), Fraction(1, 2))
    tally = Tally(seat=1, rounds=1000, categories={"win": 400, "push": 100, "loss": 500})
    report = strategy_report(tally, odds, ALPHA)
    assert math.isnan(report.ev_observed) and report.ev_interval is None
    assert "expected value" not in _by_name(report)
    assert report.ev_exact == Fraction(-1, 10)


def test_a_game_paying_even_money_has_an_ev_test_though_its_variance_is_under_1() -> None:
    from odds.sim.stats import StrategyOdds, strategy_report

    odds = StrategyOdds("p, b", Fraction(4, 10), Fraction(1, 10), Fraction(5, 10),
                        Fraction(1, 2), Fraction(1, 2))  # pays 1, 0, -1: variance 0.89
    tally = Tally(seat=1, rounds=1000, categories={"win": 400, "push": 100, "loss": 500},
                  payouts={Fraction(1): 400, Fraction(0): 100, Fraction(-1): 500})
    check = _by_name(strategy_report(tally, odds, ALPHA))["expected value"]
    assert check.statistic == 0 and check.rows == (("EV", 0, -0.1, 0.0),)


def test_a_tallies_file_with_options_and_no_profile_takes_its_profile_from_the_file() -> None:
    from odds.sim.verdict import RuleOverrides

    header, sources = RuleOverrides().apply({"options": {"colon": "5"}}, "f")
    assert dict(sources)["profile"] == "file" and header.profile.colon == 5
    _, bare = RuleOverrides().apply({}, "f")
    assert dict(bare)["profile"] == "default"


def test_where_the_cards_kind_came_from_is_said_only_when_given() -> None:
    from odds.sim.verdict import RuleOverrides

    assert dict(RuleOverrides().apply({"cards": "values"}, "f")[1])["cards"] == "file"
    assert dict(RuleOverrides(cards="ranks").apply({"cards": "values"}, "f")[1])["cards"] == "flag"
    assert "cards" not in dict(RuleOverrides().apply({}, "f")[1])


@pytest.mark.parametrize("reshuffle", ["round", "cut"])
def test_a_verification_of_tallies_says_it_read_tallies(reshuffle) -> None:
    from odds.sim.simulate import simulate

    sim = simulate(BUILTIN["plain"], Shoe.packs_of(1), 2000, seed=5, reshuffle=reshuffle)
    result = verify_tallies(sim.header, sim.tallies)
    assert result.kind == "tallies" and result.rows == 0


# -- the fourth held-out seed (20261210) ------------------------------------------------


def test_a_position_check_of_two_cells_has_one_degree_of_freedom_and_is_tested() -> None:
    from odds.sim.stats import position_check

    labels = [str(v) for v in range(10)]
    # One part whose cards left are 0s and 9s alike: 40 dealt of 200, two cells.
    p = np.zeros(10)
    p[0] = p[9] = 0.5
    expected = (40 * p)[None, :]
    cov = (40 * (np.diag(p) - np.outer(p, p)) * (200 - 40) / (200 - 1))[None, :, :]
    skewed = np.zeros((1, 10), dtype=int)
    skewed[0, 0], skewed[0, 9] = 32, 8  # four times as many 0s as 9s
    check = position_check(skewed, expected, cov, labels)
    assert check.df == 1 and check.p < 1e-4, check
    fair = skewed.copy()
    fair[0, 0], fair[0, 9] = 20, 20
    assert position_check(fair, expected, cov, labels).statistic == 0


def test_a_pair_bet_s_unaudited_rows_on_point_values_say_why_in_full() -> None:
    # A bet that needs suits, on a log of point values: what is missing first is the ranks.
    from odds.sim.verdict import unchecked_note

    why = ("cards given as point values: the bet looks at pairs, and a pair of zero-point "
           "cards (10, J, Q, K) is a pair only if the ranks match")
    for bet in ("player-pair", "perfect-pair"):
        assert unchecked_note(BUILTIN["punto-banco"], bet, 3, True) == (
            f"bet {bet}: the payout of 3 rows is not audited ({why})")
    assert unchecked_note(BUILTIN["punto-banco"], "perfect-pair", 1, False) == (
        "bet perfect-pair: the payout of 1 row is not audited "
        "(the bet needs suits and the log's cards give none)")


# -- the fifth held-out seed (20261211) --------------------------------------------------


def test_a_continuous_shoe_s_ev_rows_have_no_observed_count_as_on_a_fresh_shoe() -> None:
    # An EV test's row is (label, 0, expected EV per round, z): it counts nothing.
    profile, n = BUILTIN["punto-banco"], 400
    exact = round_odds(profile, Shoe.packs_of(8))
    player, banker = (exact.payout_distribution(b) for b in ("player", "banker"))
    pays = {a: round(float(p) * n) for a, p in player.items()}
    rounds = sum(pays.values())
    bets = {a: round(float(p) * rounds) for a, p in banker.items()}
    bets[Fraction(-1)] += rounds - sum(bets.values())
    tally = Tally(seat=1, rounds=rounds, categories={"win": rounds}, payouts=pays,
                  bets={"banker": bets})
    model = _fresh_model(rounds, ("banker",), profile, 8)
    checks = _by_name(model_report(1, tally, model, ALPHA))
    for name, bet, paid in (("expected value", "player", pays),
                            ("bet banker expected value", "banker", bets)):
        ev, var = (float(x) for x in exact.bet_moments(bet))
        total = sum(float(a) * c for a, c in paid.items())  # the rounds are independent
        z = (total - rounds * ev) / math.sqrt(rounds * var)
        (row,) = checks[name].rows
        assert row[:2] == ("EV", 0), name
        assert row[2] == pytest.approx(ev, rel=1e-9), name
        assert row[3] == checks[name].statistic == pytest.approx(z, rel=1e-6), name


def test_a_game_s_ev_test_divides_by_the_variance_of_its_three_amounts() -> None:
    from odds.sim.stats import StrategyOdds, strategy_report

    odds = StrategyOdds("p, b", Fraction(4, 10), Fraction(1, 10), Fraction(5, 10),
                        Fraction(1, 2), Fraction(1, 2))  # pays 1, 0, -1
    n = 1000
    tally = Tally(seat=1, rounds=n, categories={"win": 450, "push": 100, "loss": 450},
                  payouts={Fraction(1): 450, Fraction(0): 100, Fraction(-1): 450})
    ev = Fraction(4, 10) - Fraction(5, 10)
    var = Fraction(4, 10) + Fraction(5, 10) - ev * ev  # E[X^2] - EV^2 = 0.89
    check = _by_name(strategy_report(tally, odds, ALPHA))["expected value"]
    assert check.statistic == pytest.approx((0 - float(ev)) / math.sqrt(float(var) / n))


def test_a_side_bet_needing_suits_on_a_shoe_known_by_rank_is_audited_only_and_says_why() -> None:
    from odds.sim.verdict import side_odds

    header = RunHeader(BUILTIN["punto-banco"], Shoe((4,) * 13))  # a composition: no suits
    dists, notes = side_odds(header, ["perfect-pair", "player-pair"])
    assert list(dists) == ["player-pair"]
    assert notes[0].startswith("bet perfect-pair: its payout frequencies are not tested (bet "
                               "perfect-pair needs suits, but the shoe")
    assert notes[0].endswith("); only its row audit ran")
    assert notes[1].startswith("side bet player-pair: payouts tested")


# -- the sixth held-out seed (20261212) --------------------------------------------------


def test_two_sets_of_rounds_modelled_apart_and_added_are_the_rounds_modelled_together() -> None:
    # The verifier models a log block by block and adds the blocks' models: every count's
    # mean and covariance, the EV's mean and variance, add (rounds independent given the
    # cards dealt).
    comps = [[4] * 13, [4] * 8 + [0] + [4] * 4, [2] * 13]
    rows = [0] * 30 + [1] * 20 + [2] * 10
    probs = round_probabilities(STANDARD, [comps[k] for k in rows])
    whole = rounds_model(STANDARD, probs, np.arange(len(rows)))
    first = rounds_model(STANDARD, probs, np.arange(25))
    rest = rounds_model(STANDARD, probs, np.arange(25, len(rows)))
    both = first.plus(rest)
    assert both.rounds == whole.rounds == 60
    assert whole.ev is not None and both.ev == pytest.approx(whole.ev, rel=1e-12)
    assert both.ev[1] > first.ev[1] > 0 and both.ev[1] > rest.ev[1] > 0
    for name, (labels, m) in whole.quantities.items():
        got_labels, got = both.quantities[name]
        assert got_labels == labels
        assert np.allclose(got.expected, m.expected) and np.allclose(got.cov, m.cov), name



def test_a_continuous_shoe_s_report_has_no_single_exact_ev() -> None:
    # Each round of a cut-card shoe has its own exact EV: the report gives their mean
    # (ev_expected), with or without the payouts seen, and never one "exact" EV (a model
    # once carried an exact EV of 0 for it, added block to block).

    model = _fresh_model(200)
    paid = Tally(seat=1, rounds=200, categories={"win": 100, "loss": 100},
                 payouts={Fraction(1): 100, Fraction(-1): 100})
    bare = replace(paid, payouts=None)
    with_pay, without = (model_report(1, t, model, ALPHA) for t in (paid, bare))
    assert with_pay.ev_exact is None and with_pay.ev_expected is not None
    assert without.ev_exact is None and without.ev_expected == with_pay.ev_expected
    assert without.ev_interval is None and math.isnan(without.ev_observed)
    assert "ev_exact" not in {f.name for f in fields(model)}


def test_a_game_with_choices_on_a_continuous_shoe_is_audited_only_and_says_why() -> None:
    # The strategies' exact odds are a fresh shoe's: rounds from a cut-card shoe are not
    # tested against them (on an infinite shoe, or reshuffled every round, they are).
    from odds.sim.verdict import choice_reports

    def strategies(profile, shoe):  # type: ignore[no-untyped-def]
        from odds.sim.stats import StrategyOdds

        return StrategyOdds("p, b", Fraction(4, 10), Fraction(1, 10), Fraction(5, 10),
                            Fraction(1, 2), Fraction(1, 2))

    family = BUILTIN["family"]
    tally = Tally(seat=1, rounds=10, categories={"win": 4, "push": 1, "loss": 5})
    reports, (note,) = choice_reports(RunHeader(family, Shoe.packs_of(2), reshuffle="cut"),
                                      [tally], ALPHA, strategies)
    assert reports == () and note.endswith(
        "; the strategies' exact odds are a fresh shoe's, and this is a continuous shoe: "
        "the frequencies are not tested, only the audit ran")
    for header in (RunHeader(family, Shoe.infinite_shoe(), reshuffle="cut"),
                   RunHeader(family, Shoe.packs_of(2))):
        reports, (note,) = choice_reports(header, [tally], ALPHA, strategies)
        assert len(reports) == 1 and note.endswith("frequencies tested against the exact "
                                                   "odds of p, b")


# -- the seventh held-out seed (20261213) ------------------------------------------------


def test_a_p_value_of_exactly_0_001_prints_in_decimals_and_below_it_in_powers_of_ten() -> None:
    import mpmath

    from odds.sim.stats import p_text

    assert p_text(mpmath.mpf("0.001")) == "0.001" and p_text(mpmath.mpf("0.0125")) == "0.013"
    assert p_text(mpmath.mpf(0)) == "0"
    assert p_text(mpmath.mpf("0.000999")) == "9.99e-4"


def test_a_continuous_ev_test_runs_on_one_round_and_not_on_a_model_of_no_variance() -> None:
    # The EV test divides by the total's standard deviation: any variance above 0 (one
    # round's is under 1), none where the rounds' payouts cannot vary (no division by 0).
    exact = round_odds(STANDARD, Shoe.packs_of(1))
    win = max(exact.payout_distribution("player"))
    tally = Tally(seat=1, rounds=1, categories={"win": 1}, payouts={win: 1})
    model = _fresh_model(1)
    assert model.ev is not None and 0 < model.ev[1] < 2
    assert "expected value" in _by_name(model_report(1, tally, model, ALPHA))
    for variance in (0.0, 0.5):
        fixed = replace(model, ev=(model.ev[0], variance))
        checks = _by_name(model_report(1, tally, fixed, ALPHA))
        assert ("expected value" in checks) == (variance > 0), variance


def test_likely_causes_are_named_exactly_when_the_frequencies_reject() -> None:
    # At p = alpha the frequencies do not reject (the verdict passes): no cause is named.
    from tests.planted import planted_tallies

    v = verify_text(planted_tallies(20_000, 7, "naive", 1), "naive.csv")
    assert v.verdict == "fail" and v.causes
    at = replace(v, alpha=float(v.p_value))  # mpmath's default precision is a float's
    assert at.p_value == at.alpha and at.verdict == "pass" and at.causes == ()
    above = replace(v, alpha=float(v.p_value) * 1.5)
    assert above.verdict == "fail" and above.causes


def test_tallies_of_a_cut_card_shoe_test_a_pair_bet_and_say_their_rules_came_from_the_file(
        ) -> None:
    # The sample of shoes the tallies are tested against is dealt by rank: a pair bet's
    # per-round odds are had (a log of point values could not tell a 10-J from a pair).
    from odds.report.verify_report import verify_data
    from odds.sim.verdict import verify_tallies

    header = RunHeader(BUILTIN["punto-banco"], Shoe.packs_of(2), reshuffle="cut",
                       penetration=0.75)
    tally = Tally(seat=1, rounds=1000, categories={"win": 450, "push": 100, "loss": 450},
                  payouts={Fraction(1): 450, Fraction(0): 100, Fraction(-1): 450},
                  bets={"player-pair": {Fraction(11): 70, Fraction(-1): 930}})
    v = verify_tallies(header, [tally])
    assert v.notes[-1] == ("side bet player-pair: payouts tested against the exact odds of "
                           "each round's pay table given the cards left before it (the batch "
                           "engine)")
    assert "bet player-pair payouts" in _by_name(v.seats[0])
    assert verify_data(v)["rules_from"] == "file" and v.header_from == "file"


# -- the eighth held-out seed (20261214) -------------------------------------------------


def test_a_verification_with_no_frequency_test_has_a_p_value_of_1() -> None:
    import json

    from odds.sim.tallies import tallies_json
    from odds.sim.verify import verify_text

    family = BUILTIN["family"]  # players choose: without strategies, the audit alone runs
    text = tallies_json(RunHeader(family, Shoe.infinite_shoe()),
                        [Tally(seat=1, rounds=10, categories={"win": 4, "push": 1, "loss": 5})])
    v = verify_text(json.dumps(json.loads(text)), "family.json")
    assert v.seats == () and v.p_value == 1 and v.verdict == "pass" and v.causes == ()


@pytest.mark.parametrize("cards", ["suits", "", 3])
def test_cards_that_are_neither_ranks_nor_values_are_refused_with_the_file(cards) -> None:
    from odds.sim.tallies import TallyError
    from odds.sim.verdict import RuleOverrides

    with pytest.raises(TallyError) as got:
        RuleOverrides().values({"cards": cards}, "log.csv")
    assert str(got.value) == f"log.csv: cards must be ranks or values, not {cards!r}"
    assert RuleOverrides().values({"cards": "values"}, "f") is True
    assert RuleOverrides(cards="ranks").values({"cards": cards}, "f") is False  # the flag wins
