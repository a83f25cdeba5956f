"""odds.game.questions: which game a question is, on which shoe, and its answer."""

from __future__ import annotations

import pytest

from odds.game.chemin import chemin_game, solve_chemin
from odds.game.chemin_decision import decision, hand_of
from odds.game.game import GameError
from odds.game.questions import (
    chemin_decision,
    chemin_solution,
    game_shoe,
    is_chemin,
    round_question,
    third_points,
)
from odds.rules import BUILTIN, Shoe, parse_cards

CHEMIN = BUILTIN["chemin-de-fer"]
INF = Shoe.infinite_shoe()


def test_chemin_is_asked_for_by_a_model_a_commission_or_removed_cards() -> None:
    family = BUILTIN["family"]
    assert not is_chemin(family)
    assert is_chemin(family, model="A1")
    assert is_chemin(family, commission="1/20")
    assert is_chemin(family, removed=parse_cards("5 5"))
    assert is_chemin(CHEMIN)


@pytest.mark.parametrize(("given", "players", "model", "infinite"), [
    (False, 1, None, False), (False, 2, None, True), (False, 1, "a1", True),
    (False, 1, "B2", False), (True, 4, "A1", False)])
def test_the_shoe_of_a_game(given: bool, players: int, model: str | None, infinite: bool) -> None:
    assert game_shoe(Shoe.packs_of(6), given, players, model).infinite is infinite


def test_a_chemin_solution_is_solve_chemin_of_its_game() -> None:
    direct = solve_chemin(chemin_game(CHEMIN, INF, "A1"), 0, "A1")
    assert chemin_solution(CHEMIN, INF, "a1").value == direct.value
    with pytest.raises(GameError, match="heads-up"):
        chemin_solution(CHEMIN, INF, "A1", players=2)
    with pytest.raises(GameError, match="leave --information out"):
        chemin_solution(CHEMIN, INF, "A1", information="totals")


def test_a_banker_decision_is_the_decision_at_his_information_set() -> None:
    game = chemin_game(CHEMIN, INF, "A1")
    eq = solve_chemin(game, 0, "A1").equilibria[0]
    d, _ = chemin_decision(CHEMIN, INF, "A1", bank=parse_cards("2 3"), third="4")
    where = (hand_of(parse_cards("2 3"), game.information), "third 4")
    assert d == decision(game, eq.player, eq.bank, "bank", where)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"player": parse_cards("2 3"), "bank": parse_cards("2 3")}, "one decision"),
    ({"player": parse_cards("2 3 4")}, "player's two cards, not 3"),
    ({"bank": parse_cards("2 3")}, "--third CARD, or --third stood"),
    ({"player": parse_cards("2 3"), "third": "4"}, "--third goes with --bank"),
    ({"bank": parse_cards("2 3"), "third": "4 5"}, "one card or stood"),
    ({"player": parse_cards("2 3"), "strategies": ("never", "optimal")}, "equilibrium"),
])
def test_a_decision_that_cannot_be_asked_is_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(GameError, match=message):
        chemin_decision(CHEMIN, INF, "A1", **kwargs)


def test_third_points() -> None:
    assert third_points("K") == 0 and third_points("stood") is None


def test_round_question() -> None:
    assert round_question(BUILTIN["standard"], ("never", None)) == "game"
    with pytest.raises(GameError, match="no CSV form"):
        round_question(BUILTIN["family"], table=True)
    with pytest.raises(GameError, match="with strategies, use --format"):
        round_question(BUILTIN["standard"], (None, "never"), table=True)
    with pytest.raises(GameError, match="are for fixed-rule profiles"):
        round_question(BUILTIN["family"], totals=True)
    with pytest.raises(GameError, match="cannot be combined"):
        round_question(BUILTIN["standard"], by_slot=True, totals=True)
