"""``lucky9 shoe --seats N``: following a table of several seats, checked against
``lucky9 odds --shoe`` on the composition left, on a log of the project's own simulator."""

from __future__ import annotations

import csv
import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from cli import main
from odds import BUILTIN, Shoe
from odds.exact.rounds import read_cards
from odds.exact.seats import pair_counts, table_moments
from odds.exact.shoe_follow import table_rounds
from odds.rules.cards import parse_card


def _record_from_log(path, shoe_id: str = "1") -> tuple[str, list[int]]:
    """The simulator's round log (one row per seat) as a card record in deal order."""
    with open(path, encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(line for line in handle if not line.startswith("#"))
                if r["shoe"] == shoe_id]
    rounds: dict[str, list[dict[str, str]]] = {}
    for r in rows:
        rounds.setdefault(r["round"], []).append(r)
    lines = []
    sizes = []
    for seats in rounds.values():
        seats.sort(key=lambda r: int(r["seat"]))
        hands = [r["player"].split() for r in seats] + [seats[0]["bank"].split()]
        order = [h[0] for h in hands] + [h[1] for h in hands] + [c for h in hands for c in h[2:]]
        lines.append(" ".join(order))
        lines.append("--")
        sizes.append(len(order))
    return "\n".join(lines) + "\n", sizes


@pytest.mark.parametrize("rounds", [2, pytest.param(5, marks=pytest.mark.slow)])
def test_a_simulated_six_seat_shoe_matches_odds_on_every_composition(tmp_path, rounds) -> None:
    log = tmp_path / "six.csv"
    done = CliRunner().invoke(main, ["simulate", "--seats", "6", "--decks", "2", "--rounds",
                                     str(rounds), "--seed", "11", "--reshuffle", "cut",
                                     "--log", str(log)])
    assert done.exit_code == 0, done.output
    text, sizes = _record_from_log(log)
    assert len(sizes) >= min(rounds, 3)
    record = tmp_path / "table.txt"
    record.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["shoe", "--decks", "2", "--seats", "6", "--cards",
                                       str(record), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert len(data["rounds"]) == len(sizes)
    counts = [8] * 13
    for got, size, line in zip(data["rounds"], sizes, text.split("\n--\n"), strict=False):
        odds = CliRunner().invoke(main, ["odds", "--shoe", ",".join(map(str, counts)),
                                         "--format", "json"])
        assert odds.exit_code == 0, odds.output
        assert Fraction(got["seat_ev"]) == Fraction(json.loads(odds.stdout)["expected_value"])
        assert Fraction(got["bank_mean"]) == -6 * Fraction(got["seat_ev"])
        assert got["cards_left"] == sum(counts)
        for token in line.split()[:size]:
            counts[parse_card(token).rank.index] -= 1


@pytest.mark.parametrize("shoe", [Shoe((2,) * 13),  # 26 cards: by default; one pack: CI
                                  pytest.param(Shoe.packs_of(1), marks=pytest.mark.slow)],
                         ids=["26-cards", "one-pack"])
def test_bank_variance_before_a_round_is_the_pairs(shoe: Shoe) -> None:
    p = BUILTIN["standard"]
    rounds = table_rounds(p, shoe, read_cards("9 5 2 K K 6 3"), 2)
    from odds.exact.shoe_follow import follow_table

    f = follow_table(p, shoe, rounds, 2)
    assert (f.bank_mean[0], f.bank_variance[0]) == table_moments(pair_counts(p, shoe),
                                                                 [Fraction(1)] * 2)


@pytest.mark.parametrize("cards,seats,words", [
    ("9 5 2 K K 6", 2, "needs a third card for seat 2"),
    ("9 5 2 K\n--\nK 6 3", 2, "closes a round after card 4"),
    ("9 5 2 K K 6 3 4", 2, "fewer than a round of 2 seat(s) needs"),
    ("Ah Ah 2 K K 6 3", 2, "holds only 1"),
])
def test_a_bad_record_is_one_line_and_exit_2(tmp_path, cards, seats, words) -> None:
    path = tmp_path / "t.txt"
    path.write_text(cards, encoding="utf-8")
    result = CliRunner().invoke(main, ["shoe", "--decks", "1", "--seats", str(seats),
                                       "--cards", str(path)])
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output


def test_seats_need_a_record_and_a_table_profile(tmp_path) -> None:
    result = CliRunner().invoke(main, ["shoe", "--decks", "1", "--seats", "3", "--seed", "1"])
    assert result.exit_code == 2 and "give --cards FILE" in result.output
    path = tmp_path / "t.txt"
    path.write_text("9 5 2 K K 6 3", encoding="utf-8")
    result = CliRunner().invoke(main, ["shoe", "--profile", "punto-banco", "--decks", "1",
                                       "--seats", "2", "--cards", str(path)])
    assert result.exit_code == 2 and "one" in result.output
    result = CliRunner().invoke(main, ["shoe", "--decks", "1", "--seats", "9", "--cards",
                                       str(path)])
    assert result.exit_code == 2
