"""Chemin de fer: the fast solver against a separate brute force, equilibria, bad input."""

from __future__ import annotations

from fractions import Fraction

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli import main
from odds import BUILTIN, Shoe
from odds.game.chemin import MODELS, chemin_game, parse_commission, solve_chemin
from odds.game.chemin_decision import decision
from odds.game.game import GameError, hand_total, value_classes
from odds.rules.shoe import parse_shoe
from odds.rules.text import decimal
from tests import chemin_brute
from tests.examples import examples
from tests.paths import ROOT

CHEMIN = BUILTIN["chemin-de-fer"]
INF = Shoe.infinite_shoe()
# Tiny shoes: one card of each rank (13 cards); nine cards; a few more low cards.
TINY = parse_shoe("1,1,1,1,1,1,1,1,1,1,1,1,1")
NINE = parse_shoe("1,1,1,1,1,0,1,1,1,1,0,0,0")
SMALL = parse_shoe("2,1,2,1,2,1,1,1,1,1,1,0,1")


def _brute(shoe: Shoe, model: str, commission: Fraction = Fraction(0)):
    _, p_info, b_info = MODELS[model]
    counts = None if shoe.infinite else list(value_classes(shoe))
    table, sp, sb = chemin_brute.deal_table(counts, p_info, b_info, commission)
    return table, (sp, sb)


# (model, shoe, solve it by the brute force's own method too); B3 on the
# infinite shoe is a programme of ~500 sets, too slow here: the brute force
# checks the equilibrium found instead, which fixes the value just as well.
CASES = [("A1", INF, True), ("B2", INF, True), ("B3", INF, False), ("B1", TINY, True),
         ("B2", TINY, True), ("B3", NINE, True), ("B2", SMALL, True), ("B3", SMALL, False)]


# B3 on the infinite shoe is slow (CI); B3 on the nine-card and small shoes runs by default
@pytest.mark.parametrize(("model", "shoe", "solve"), [
    pytest.param(*case, marks=[pytest.mark.slow] if case[:2] == ("B3", INF) else [])
    for case in CASES], ids=[f"{m}-{len(s.counts) and s.label}"[:30] for m, s, _ in CASES])
def test_fast_solver_agrees_with_brute_force(model: str, shoe: Shoe, solve: bool) -> None:
    sol = solve_chemin(chemin_game(CHEMIN, shoe, model), 0, model)
    eq = sol.equilibria[0]
    table, settled = _brute(shoe, model)
    if solve:
        # The value, found by the brute force's own method (corners tried one
        # by one, or the exact simplex over the whole programme).
        assert chemin_brute.zero_sum_value(table, settled) == sol.value
    # The strategies found, played in the brute-force deal, give the value,
    # and neither side can do better against the other.
    player_ev, bank_ev = chemin_brute.payoffs(table, settled, eq.player, eq.bank)
    assert player_ev == sol.value == -bank_ev
    best_p, best_b = chemin_brute.best_responses(table, settled, eq.player, eq.bank)
    assert (best_p, best_b) == (player_ev, bank_ev)


def test_kemeny_and_snell_from_the_cli() -> None:
    # Kemeny and Snell (1957): with replacement, totals only, the player draws
    # on 5 with probability 9/11; the banker mixes only at 6 when the player stood.
    result = CliRunner().invoke(main, ["solve", "--profile", "chemin-de-fer", "--model", "A1"])
    assert result.exit_code == 0, result.output
    assert "player 5: draws with probability 9/11 (0.81818182)" in result.output
    assert "-679568/53094899" in result.output
    assert "banker 6 / stood: draws with probability 859/2288" in result.output


# B2 on one pack and B3 on eight by default; the other four in CI (slow)
@pytest.mark.parametrize("model, decks", [
    pytest.param(model, decks, id=f"{model}-{decks}",
                 marks=[] if (model, decks) in (("B2", 1), ("B3", 8)) else [pytest.mark.slow])
    for model in ("B2", "B3") for decks in (1, 6, 8)])
def test_best_responses_hold_the_value(model: str, decks: int) -> None:
    game = chemin_game(CHEMIN, Shoe.packs_of(decks), model)
    eq = solve_chemin(game).equilibria[0]
    # The game's own best responses (odds.game.game), not the solver's checks.
    _, player_best = game.player_best_response(eq.bank)
    _, bank_best = game.bank_best_response(eq.player)
    assert player_best == eq.player_payoff == bank_best
    assert game.evaluate(eq.player, eq.bank).expected_value == eq.player_payoff


def test_with_replacement_the_banker_learns_nothing_from_his_cards() -> None:
    a1 = solve_chemin(chemin_game(CHEMIN, INF, "A1"))
    assert solve_chemin(chemin_game(CHEMIN, INF, "B2")).value == a1.value
    assert solve_chemin(chemin_game(CHEMIN, INF, "B3")).value == a1.value


def test_more_information_never_hurts_its_holder() -> None:
    shoe = Shoe.packs_of(1)
    b1, b2, b3 = (solve_chemin(chemin_game(CHEMIN, shoe, m)).value for m in ("B1", "B2", "B3"))
    assert b2 <= b1  # the banker sees more
    assert b3 >= b2  # the player sees more


@pytest.mark.parametrize(("model", "shoe"), [("A1", INF), ("B2", TINY), ("B3", NINE)])
def test_commission_equilibria_against_brute_force(model: str, shoe: Shoe) -> None:
    alpha = Fraction(1, 20)
    sol = solve_chemin(chemin_game(CHEMIN, shoe, model), alpha, model)
    table, settled = _brute(shoe, model, alpha)
    assert sol.complete == (model != "B3")
    for eq in sol.equilibria:
        p, b = chemin_brute.payoffs(table, settled, eq.player, eq.bank)
        assert (p, b) == (eq.player_payoff, eq.bank_payoff)
        assert chemin_brute.best_responses(table, settled, eq.player, eq.bank) == (p, b)


def test_commission_zero_is_the_zero_sum_game() -> None:
    game = chemin_game(CHEMIN, INF, "A1")
    eq = solve_chemin(game, 0).equilibria[0]
    assert eq.bank_payoff == -eq.player_payoff


@settings(max_examples=examples(2, 5), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 2), min_size=13, max_size=13).filter(lambda c: sum(c) >= 8),
       st.sampled_from(["B1", "B2", "B3"]),
       st.sampled_from([Fraction(0), Fraction(1, 20), Fraction(1, 10)]))
def test_any_small_shoe_solves_and_checks(counts: list[int], model: str, alpha: Fraction) -> None:
    shoe = parse_shoe(",".join(map(str, counts)))
    try:
        game = chemin_game(CHEMIN, shoe, model)
    except GameError:
        return  # no round with a choice can be dealt from this shoe
    if not game.player_choices:
        return
    try:
        sol = solve_chemin(game, alpha, model)
    except GameError as exc:  # B3 with commission searches a part of the strategies only
        assert model == "B3" and alpha and "at most one composition" in str(exc)
        return
    for eq in sol.equilibria:
        assert eq.player_response == eq.player_payoff and eq.bank_response == eq.bank_payoff
        assert -1 <= eq.player_payoff <= 1
        assert all(0 <= p <= 1 for p in [*eq.player.values(), *eq.bank.values()])
        if alpha == 0:
            assert eq.bank_payoff == -eq.player_payoff
        else:  # the commission only ever takes from the banker
            assert eq.bank_payoff <= -eq.player_payoff


def test_removed_cards_change_the_solution() -> None:
    full = solve_chemin(chemin_game(CHEMIN, Shoe.packs_of(1), "B2")).value
    less = Shoe.packs_of(1).without(tuple(__import__("odds").parse_cards("5 5 5 5")))
    assert solve_chemin(chemin_game(CHEMIN, less, "B2")).value != full


def test_the_casino_table_restricts_the_banker() -> None:
    game = chemin_game(CHEMIN, INF)
    # Open cells only: 3 against a 9 and 5 against a 4.
    cells = {(hand_total(h), s) for h, s in game.bank_choices}
    assert sorted(cells) == [(3, "third 9"), (5, "third 4")]
    sol = solve_chemin(game)
    # Forced to stand on 6 when the player stood, the banker no longer keeps
    # the player from drawing on 5, whatever its cards.
    assert set(sol.equilibria[0].player.values()) == {Fraction(1)}


def test_a_decision_banker_5_against_a_4() -> None:
    game = chemin_game(CHEMIN, Shoe.packs_of(6), "B2")
    eq = solve_chemin(game).equilibria[0]
    d = decision(game, eq.player, eq.bank, "bank", ((2, 3), "third 4"))
    # Drawing on 2-3 against a 4 costs the banker: he stands in the solution.
    assert eq.bank[(2, 3), "third 4"] == 0 and d.draw > d.stand


@pytest.mark.parametrize(("args", "message"), [
    (["--commission", "1/5"], "outside 0 to 1/10"),
    (["--commission", "-1/20"], "outside 0 to 1/10"),
    (["--commission", "x"], "is not a number"),
    (["--model", "A1", "--decks", "6"], "deals with replacement"),
    (["--profile", "family", "--model", "B2"], "needs rules where the player chooses"),
    (["--profile", "punto-banco", "--model", "B2"], "gives the player no choice"),
    (["--model", "B2", "--shoe", "1,0,0,0,0,0,0,0,0,0,0,0,1"], "round fills 6 more"),
    (["--model", "B3", "--players", "2"], "heads-up"),
], ids=["commission-high", "commission-negative", "commission-text", "A1-finite", "family",
        "punto-banco", "tiny-shoe", "players"])
def test_bad_input_is_a_usage_error(args: list[str], message: str) -> None:
    base = [] if "--profile" in args else ["--profile", "chemin-de-fer"]
    result = CliRunner().invoke(main, ["solve", *base, *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_parse_commission() -> None:
    assert parse_commission("0") == 0
    assert parse_commission("1/10") == Fraction(1, 10)
    with pytest.raises(GameError):
        parse_commission("0.11")


def test_play_answers_one_banker_decision() -> None:
    args = ["play", "--profile", "chemin-de-fer", "--model", "B2", "--decks", "1",
            "--bank", "2 3", "--third", "4", "--format", "json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    import json

    data = json.loads(result.output)
    game = chemin_game(CHEMIN, Shoe.packs_of(1), "B2")
    eq = solve_chemin(game).equilibria[0]
    d = decision(game, eq.player, eq.bank, "bank", ((2, 3), "third 4"))
    assert (data["ev_stand"], data["ev_draw"]) == (str(d.stand), str(d.draw))


def test_play_answers_the_players_choice_on_5_at_indifference() -> None:
    # At Kemeny and Snell's equilibrium the player is indifferent on 5.
    result = CliRunner().invoke(main, ["play", "--profile", "chemin-de-fer", "--model", "A1",
                                       "--player", "2 3"])
    assert result.exit_code == 0, result.output
    assert "best for the player: either (indifferent)" in result.output


@pytest.mark.parametrize("args", [
    ["--bank", "2 3"],
    ["--player", "2 3", "--third", "4"],
    ["--bank", "2 3", "--third", "4 5"],
    ["--bank", "2 3", "--player", "4 4"],
    ["--bank", "9 K", "--third", "4"],
], ids=["no-third", "third-without-bank", "two-thirds", "both", "natural"])
def test_play_bad_decisions_are_usage_errors(args: list[str]) -> None:
    result = CliRunner().invoke(main, ["play", "--profile", "chemin-de-fer", "--decks", "1",
                                       *args])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


_DOCS_ROWS = [("A1", None)] + [(m, d) for m in ("B2", "B3") for d in (1, 2, 6, 8, None)]


@pytest.mark.parametrize("rows", [
    [row for row in _DOCS_ROWS if row[1] in (None, 1)],
    pytest.param([row for row in _DOCS_ROWS if row[1] not in (None, 1)],
                 marks=pytest.mark.slow),  # the long twin: 2, 6 and 8 packs
], ids=["one-pack-and-inf", "more-packs"])
def test_the_docs_table_is_the_solvers(rows) -> None:
    # docs/chemin-de-fer.md shows the exact figures pack by pack: they must be current.

    from odds.game.game import hand_label

    page = (ROOT / "docs" / "chemin-de-fer.md").read_text()
    for model, decks in rows:
        shoe = Shoe.packs_of(decks) if decks else INF
        s = solve_chemin(chemin_game(CHEMIN, shoe, model))
        e = s.equilibria[0]
        mix = ", ".join(f"{hand_label(h)}: {v}" for h, v in e.player.items())
        mixed = ", ".join(f"{hand_label(k[0])} / {k[1]}: {v}"
                          for k, v in e.bank.items() if 0 < v < 1)
        row = f"| {model} | {decks or 'inf'} | {s.value} | {decimal(s.value)} | {mix} | {mixed} |"
        assert row in page, row


def test_the_published_game_sizes() -> None:
    # Ethier and Gamez (2013), abstract: A1 is 2 x 2^88, B2 2 x 2^484, B3 2^5 x 2^484.
    assert len(chemin_game(CHEMIN, INF, "A1").bank_choices) == 88
    b2 = chemin_game(CHEMIN, Shoe.packs_of(6), "B2")
    b3 = chemin_game(CHEMIN, Shoe.packs_of(6), "B3")
    assert len(b2.bank_choices) == len(b3.bank_choices) == 484
    assert (len(b2.player_choices), len(b3.player_choices)) == (1, 5)


def test_a_profile_file_can_say_who_sees_what(tmp_path) -> None:
    from odds.rules.profiles import load_profile

    path = tmp_path / "house.toml"
    path.write_text('base = "chemin-de-fer"\nplayer_sees = "total"\nbank_sees = "cards"\n'
                    'bank_draw = { draws = "0-5", tableau = { 0 = "all", 1 = "all", 2 = "all", '
                    '3 = "0-7", 4 = "2-7", 5 = "5-7", 6 = "6-7", 7 = [], 8 = [], 9 = [] }, '
                    'open = { 3 = [9], 4 = [1], 5 = [4] } }\n', encoding="utf-8")
    house = load_profile(path)
    assert (house.player_sees, house.bank_sees, house.bank_sees_third) == ("total", "cards", True)
    game = chemin_game(house, INF)
    cells = {(hand_total(h), s) for h, s in game.bank_choices}
    assert cells == {(3, "third 9"), (4, "third 1"), (5, "third 4")}
    assert game.information == "totals" and game.bank_information == "cards"


def test_the_casino_game_agrees_with_the_general_lp() -> None:
    # The family solver's exact LP (one variable per banker set, nothing summed
    # out) on the same game gives the same value as the reduced programme.
    from odds.game.solve import solve_game

    game = chemin_game(CHEMIN, Shoe.packs_of(2))
    assert solve_game(game).value == solve_chemin(game).value


def _log_with(tmp_path, rows: list[str]):
    """A chemin de fer round log: the simulator's header, then the rows given."""
    path = tmp_path / "run.csv"
    made = CliRunner().invoke(main, ["simulate", "--profile", "chemin-de-fer", "--rounds", "1",
                                     "--seed", "1", "--log", str(path)])
    assert made.exit_code == 0, made.output
    head = [line for line in path.read_text().splitlines() if line.startswith("#")]
    path.write_text("\n".join([*head, "round,seat,player,bank,result,payout", *rows]) + "\n")
    return path


def test_verify_accepts_the_open_cells_of_chemin_de_fer(tmp_path) -> None:
    rows = [
        "1,1,2s 3d 4c,Ah 4s,win_comparison,1",  # player draws on 5; banker 5 stands on a 4 (open)
        "2,1,2s 3d,Qh 6s,loss_comparison,-1",  # player stands on 5; banker 6 stands
        "3,1,Ks 2d 4c,2h 3s 9d,win_comparison,1",  # banker 5 draws on a 4 (open)
    ]
    result = CliRunner().invoke(main, ["verify", str(_log_with(tmp_path, rows))])
    assert result.exit_code == 0, result.output
    assert "player draw  ok" in result.output and "bank draw    ok" in result.output


def test_verify_still_catches_a_forced_cell(tmp_path) -> None:
    rows = ["1,1,Ks 6d 3c,2h 4s,win_comparison,1"]  # the player drew on 6: never allowed
    result = CliRunner().invoke(main, ["verify", str(_log_with(tmp_path, rows))])
    assert result.exit_code == 1, result.output
    assert "player draw" in result.output and "FAIL" in result.output


def test_verify_tests_a_chemin_log_against_the_strategies_that_made_it(tmp_path) -> None:
    # The simulator plays the profile's table and stands in its open cells and on 5:
    # the strategies "never" (player) and "never" (banker, who sees the third card).
    path = tmp_path / "run.csv"
    made = CliRunner().invoke(main, ["simulate", "--profile", "chemin-de-fer", "--rounds", "3000",
                                     "--seed", "5", "--log", str(path)])
    assert made.exit_code == 0, made.output
    good = CliRunner().invoke(main, ["verify", str(path), "--strategy", "never",
                                     "--bank-strategy", "never"])
    assert good.exit_code == 0 and "PASS" in good.output, good.output
    bad = CliRunner().invoke(main, ["verify", str(path), "--strategy", "always",
                                    "--bank-strategy", "never"])
    assert bad.exit_code == 1 and "player draws" in bad.output, bad.output


# no commission on eight packs and 1/20 on one pack by default; the other two in CI (slow)
@pytest.mark.parametrize("alpha, decks", [
    pytest.param(alpha, decks, id=f"alpha{i}-{decks}",
                 marks=[] if (i, decks) in ((0, 8), (1, 1)) else [pytest.mark.slow])
    for i, alpha in enumerate([Fraction(0), Fraction(1, 20)]) for decks in (1, 8)])
def test_b2_has_one_equilibrium(decks: int, alpha: Fraction) -> None:
    # Downton and Lockwood (1975) and Ethier and Gamez (2013) report a unique
    # B2 solution; Ethier and Lee (2023): unique with a commission, rare cases apart.
    game = chemin_game(CHEMIN, Shoe.packs_of(decks), "B2")
    sol = solve_chemin(game, alpha, "B2")
    assert sol.complete and len(sol.equilibria) == 1
    assert sol.equilibria[0].free_cells == 0  # no other banker mix is an equilibrium
    if alpha:  # every equilibrium is listed: the zero-sum search agrees on the banker's mix
        zero = solve_chemin(game).equilibria[0]
        mixed = {k for k, v in zero.bank.items() if 0 < v < 1}
        assert {k for k, v in sol.equilibria[0].bank.items() if 0 < v < 1} == mixed


def test_solve_json_has_the_value_and_both_strategies() -> None:
    import json

    result = CliRunner().invoke(main, ["solve", "--profile", "chemin-de-fer", "--model", "A1",
                                       "--commission", "1/20", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["model"] == "A1" and data["commission"] == "1/20" and data["all_equilibria"]
    (eq,) = data["equilibria"]
    assert eq["player"] == {"5": "179/214"} and eq["bank"]["6"]["stood"] == "859/2288"
    assert eq["check"]["bank_best_response"] == eq["bank_payoff"]


def test_solve_takes_the_shoe_options() -> None:
    runner = CliRunner()
    args = ["solve", "--profile", "chemin-de-fer", "--model", "B2", "--format", "json"]
    full = json_of(runner.invoke(main, [*args, "--decks", "1"]))
    removed = json_of(runner.invoke(main, [*args, "--decks", "1", "--removed", "5 5 5 5"]))
    composition = json_of(runner.invoke(main, [*args, "--shoe", "4,4,4,4,0,4,4,4,4,4,4,4,4"]))
    assert removed["value"] == composition["value"] != full["value"]
    expected = solve_chemin(chemin_game(CHEMIN, parse_shoe("4,4,4,4,0,4,4,4,4,4,4,4,4"), "B2"))
    assert removed["value"] == str(expected.value)


def test_information_totals_under_the_casino_table() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["solve", "--profile", "chemin-de-fer", "--decks", "1",
                                  "--information", "totals", "--format", "json"])
    assert json_of(result)["information"] == {"player": "totals", "bank": "totals"}
    both = runner.invoke(main, ["solve", "--profile", "chemin-de-fer", "--model", "B2",
                                "--information", "totals"])
    assert both.exit_code == 2 and "leave --information out" in both.output


def json_of(result):
    import json

    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.slow  # the search runs through every corner before it gives up
def test_b3_with_a_commission_on_the_infinite_shoe_points_to_a1() -> None:
    # The search covers equilibria mixing on at most one composition; on the infinite
    # shoe the six compositions of 6 tie, so B3 (which is A1 there) is out of its reach:
    # the error says so and names the model that answers.
    result = CliRunner().invoke(main, ["solve", "--profile", "chemin-de-fer", "--model", "B3",
                                       "--decks", "inf", "--commission", "1/20"])
    assert result.exit_code == 2, result.output
    assert "model A1" in result.output and "Traceback" not in result.output
    ok = CliRunner().invoke(main, ["solve", "--profile", "chemin-de-fer", "--model", "A1",
                                   "--commission", "1/20"])
    assert ok.exit_code == 0, ok.output
