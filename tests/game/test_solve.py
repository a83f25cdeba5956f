"""The exact simplex, strategy files and the solve / play commands."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cli import main
from odds import BUILTIN, Shoe
from odds.game.game import GameError, build_game
from odds.game.lp import maximise, maximise_fractions
from odds.game.strategy import load_strategy, strategy_data
from tests.examples import examples

FAMILY = BUILTIN["family"]

small = st.integers(-6, 6).map(Fraction)
ratio = st.fractions(min_value=-6, max_value=6, max_denominator=7)


@settings(max_examples=examples(27, 80), deadline=None)
@given(data=st.data(), n=st.integers(1, 5), m=st.integers(1, 5))
def test_integer_simplex_takes_the_fraction_simplex_pivots(data: st.DataObject, n: int, m: int) -> None:
    # The integer tableau must make exactly the reference's choices (same pivots, same
    # vertex, same duals): the game solver's strategies, and the tables, depend on them.
    a = [[data.draw(ratio) for _ in range(n)] for _ in range(m)]
    a += [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    b = [abs(data.draw(ratio)) for _ in range(m)] + [Fraction(5)] * n
    c = [data.draw(ratio) for _ in range(n)]
    assert maximise(c, a, b) == maximise_fractions(c, a, b)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), n=st.integers(1, 4), m=st.integers(1, 4))
def test_simplex_certificate(data: st.DataObject, n: int, m: int) -> None:
    # Random bounded programmes (every x_i <= 5 added): the answer must come
    # with its own proof, a feasible dual of equal value (strong duality).
    a = [[data.draw(small) for _ in range(n)] for _ in range(m)]
    b = [data.draw(st.integers(0, 9).map(Fraction)) for _ in range(m)]
    c = [data.draw(small) for _ in range(n)]
    a += [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    b += [Fraction(5)] * n
    r = maximise(c, a, b)
    assert all(v >= 0 for v in r.x) and all(v >= 0 for v in r.y)
    for row, limit in zip(a, b, strict=True):
        assert sum(p * q for p, q in zip(row, r.x, strict=True)) <= limit
    for j in range(n):
        assert sum(a[i][j] * r.y[i] for i in range(len(a))) >= c[j]
    assert sum(p * q for p, q in zip(c, r.x, strict=True)) == r.value
    assert sum(p * q for p, q in zip(b, r.y, strict=True)) == r.value
    # And no vertex of the box does better (a brute-force bound on small cases).
    if n <= 2:
        for corner in ([0] * n, [5] * n, [0, 5][:n], [5, 0][:n]):
            if all(sum(p * q for p, q in zip(row, corner, strict=True)) <= lim
                   for row, lim in zip(a, b, strict=True)):
                assert sum(p * q for p, q in zip(c, corner, strict=True)) <= r.value


def test_simplex_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="b >= 0"):
        maximise([1], [[1]], [-1])
    with pytest.raises(ValueError, match="sizes do not agree"):
        maximise([1, 2], [[1]], [1])


# -- strategy files -----------------------------------------------------------------


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.fixture
def totals_game() -> object:
    return build_game(FAMILY, Shoe.infinite_shoe(), "totals")


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


PLAYER_OK = (
    '"0" = 1\n"1" = 1\n"2" = 1\n"3" = 1\n"4" = 1\n"5" = "1/2"\n"6" = 0\n"7" = 0\n"8" = 0.0\n'
)



@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[draw]\n"9" = 1\n', "entry '9' is not an information set where the player chooses"),
        ('[draw]\n"5" = "3/2"\n' + "\n".join(f'"{v}" = 0' for v in range(9) if v != 5),
         "entry draw.'5': 3/2 is not a probability"),
        ('[draw]\n"5" = -1\n', "entry draw.'5': -1 is not a probability"),
        ('[draw]\n' + "\n".join(f'"{v}" = 0' for v in range(8)),
         "no entry for information set '8'"),
        ('side = "bank"\n[draw]\n', "it is a 'bank' strategy, but it is used for the player"),
        ('[draw]\n"5" = true\n', "entry draw.'5': true is not a probability"),
        ("draw = 3\n", "no 'draw' table"),
        ("[draw\n", "is not valid TOML"),
    ],
    ids=["unknown", "above-one", "negative", "missing", "side", "bool", "no-table", "syntax"],
)
def test_bad_player_strategy_file_exits_2_naming_the_entry(
    tmp_path: Path, text: str, message: str
) -> None:
    path = write(tmp_path, "mine.toml", text)
    code, out = run("play", "--decks", "inf", "--information", "totals",
                    "--strategy", path, "--bank-strategy", "never")
    assert code == 2, out
    assert message in out
    assert "Traceback" not in out


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"draw": {"6": {"seen": 1}}}, "entry draw.'6'.'seen' is not an information set"),
        ({"draw": {"6": 1}}, "entry draw.'6' must be a table keyed by what the bank saw"),
        ({"draw": {"6": {"stood": 2}}}, "entry draw.'6'.'stood': 2 is not a probability"),
        ({"draw": {"6": {"stood": 1}}}, "no entry for information set '0' / 'stood'"),
        ({"draw": {"x": {}}}, "entry 'x' is not a hand where the bank chooses"),
    ],
    ids=["unknown-sight", "not-a-table", "above-one", "missing", "unknown-hand"],
)
def test_bad_bank_strategy_file_json(tmp_path: Path, data: dict, message: str) -> None:  # type: ignore[type-arg]
    path = write(tmp_path, "bank.json", json.dumps(data))
    code, out = run("play", "--decks", "inf", "--information", "totals",
                    "--strategy", "never", "--bank-strategy", path)
    assert code == 2, out
    assert message in out


def test_strategy_file_round_trip(tmp_path: Path, totals_game: object) -> None:
    from odds.game.game import Game

    assert isinstance(totals_game, Game)
    code, out = run("solve", "--decks", "inf", "--information", "totals", "--format", "json")
    assert code == 0, out
    solved = json.loads(out)
    for side in ("player", "bank"):
        path = write(tmp_path, f"{side}.json", json.dumps(solved[side]))
        loaded = load_strategy(path, totals_game, side)
        assert strategy_data(totals_game, loaded, side) == solved[side]
    # Evaluating the pair read back gives the game value.
    code, out = run("play", "--decks", "inf", "--information", "totals", "--format", "json",
                    "--strategy", str(tmp_path / "player.json"),
                    "--bank-strategy", str(tmp_path / "bank.json"))
    assert code == 0, out
    assert json.loads(out)["expected_value"] == solved["value"] == "-456160/53094899"


def test_unknown_strategy_name() -> None:
    code, out = run("play", "--strategy", "sometimes")
    assert code == 2 and "unknown player strategy 'sometimes'" in out
    code, out = run("play", "--strategy", "best-response", "--bank-strategy", "best-response")
    assert code == 2 and "only one side can play best-response" in out


def test_toml_player_file_works(tmp_path: Path) -> None:
    path = write(tmp_path, "p.toml", 'side = "player"\ninformation = "totals"\n[draw]\n'
                 + PLAYER_OK)
    code, out = run("play", "--decks", "inf", "--information", "totals",
                    "--strategy", path, "--bank-strategy", "best-response", "--format", "json")
    assert code == 0, out
    assert json.loads(out)["player"]["draw"]["5"] == "1/2"
    with pytest.raises(GameError, match="written for --information totals"):
        load_strategy(path, build_game(FAMILY, Shoe.infinite_shoe(), "cards"), "player")


# -- commands -------------------------------------------------------------------------


SOLVE_INF_TOTALS = """\
shoe: inf; information: totals (each side acts on its two-card value only); heads-up
game value (player's EV per unit)  -0.00859141  -456160/53094899
bank's edge                         0.00859141  456160/53094899
exact LP: 45 rows x 27 columns, 30 pivots; check: both best responses give the value, \
exploitability 0

optimal strategies (draw, stand, or the probability of drawing):
value  player  bank: stood  bank: drew
0      draw    draw         draw
1      draw    draw         draw
2      draw    draw         draw
3      draw    draw         draw
4      draw    draw         draw
5      6/11    draw         stand
6      stand   587/2288     stand
7      stand   stand        stand
8      stand   stand        stand

decimals rounded half-even to 8 places
"""


def test_solve_text_exact_output() -> None:
    from odds.rules.text import rules_line, wrap_rules

    code, out = run("solve", "--decks", "inf", "--information", "totals")
    assert code == 0, out
    # The rules line is the report module's (its wording is not this test's business).
    assert out == "\n".join(wrap_rules(f"rules: {rules_line(FAMILY)}")) + "\n" + SOLVE_INF_TOTALS


def test_solve_json_one_pack_cards() -> None:
    code, out = run("solve", "--profile", "family", "--decks", "1", "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    assert data["check"]["exploitability"] == "0"
    assert data["value"] == data["check"]["player_best_response"]
    assert data["lp"]["columns"] == 150
    assert set(data["player"]["draw"]) >= {"0-5", "1-4", "2-3"}


def test_odds_dispatches_family_to_the_game() -> None:
    code, out = run("odds", "--profile", "family", "--decks", "8",
                    "--strategy", "standard-rule", "--bank-strategy", "standard-rule",
                    "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    assert data["expected_value"] == "0"
    assert data["probabilities"]["win"] == data["probabilities"]["loss"]
    # A fixed profile without strategies still goes to the round engine.
    code, out = run("odds", "--profile", "plain", "--decks", "1", "--format", "json")
    assert code == 0 and "variance" in json.loads(out)
    code, out = run("odds", "--profile", "family", "--format", "csv")
    assert code == 2 and "--format text or json" in out
    # Removed cards leave the shoe the game is played from.
    code, out = run("odds", "--profile", "family", "--decks", "1", "--removed", "9h 9s 9d 9c",
                    "--strategy", "never", "--bank-strategy", "never", "--format", "json")
    assert code == 0, out
    assert json.loads(out)["shoe"].endswith("less 4 cards")
    code, out = run("odds", "--profile", "family", "--decks", "inf", "--removed", "9h",
                    "--strategy", "never", "--bank-strategy", "never")
    assert code == 2 and "cannot be removed from an infinite shoe" in out


def test_worked_example_from_the_command_line() -> None:
    code, out = run("play", "--player", "8h 7s", "--bank", "Ac 6d", "--strategy", "always",
                    "--bank-strategy", "never", "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    assert data["probabilities"] == {"win": "1/6", "push": "1/12", "loss": "3/4"}


def test_table_commands() -> None:
    code, out = run("solve", "--players", "3", "--information", "totals", "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    assert data["players"] == 3 and data["shoe"] == "inf"
    assert data["bank_strategy"] == "best-response"
    assert set(data["bank"]["5"]) == {
        f"{k}/{n}" for n in range(1, 4) for k in range(n + 1)
    }
    assert Fraction(data["seat_best_response_value"]) >= Fraction(
        data["seat_value"])
    code, out = run("solve", "--players", "3", "--decks", "8")
    assert code == 2 and "exact finite-shoe tables stop at 2 players" in out
    # A finite shoe at a table of 2 is counted exactly (a small shoe here).
    code, out = run("solve", "--players", "2", "--information", "totals", "--format", "json",
                    "--shoe", "A=2 2=0 3=1 4=2 5=2 6=1 7=1 8=1 9=2 10=2 J=1 Q=0 K=1")
    assert code == 0, out
    assert json.loads(out)["shoe"] == "custom (16 cards)"
    code, out = run("play", "--players", "2", "--strategy", "standard-rule",
                    "--bank-strategy", "standard-rule", "--information", "totals")
    assert code == 0 and "table of 2 players" in out
    code, out = run("play", "--players", "9")
    assert code == 2
    code, out = run("play", "--players", "2", "--strategy", "best-response")
    assert code == 2 and "one seat's best response" in out


def test_cards_chart_lists_every_hand_once() -> None:
    from odds.game.solve import solve_game
    from odds.report.game_report import chart_rows

    game = build_game(FAMILY, Shoe.packs_of(1), "cards")
    eq = solve_game(game)
    rows = chart_rows(game, eq.player, eq.bank)
    listed = [pair for row in rows[1:] for pair in row[1].split()]
    assert sorted(listed) == sorted(f"{a}-{b}" for a, b in game.player_sets)
    assert len(rows) < len(game.player_sets)  # rows were merged
    for row in rows[1:]:
        for pair in row[1].split():
            a, b = map(int, pair.split("-"))
            assert (a + b) % 10 == int(row[0])
