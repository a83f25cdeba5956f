"""The verifier's notes must say what was done: each test breaks one sentence's meaning.

Mutation testing (docs/mutation.md) found notes of the verifier that no test
read: the assumed penetration of a continuous shoe, and who chooses in a game
with choices.  Each test states when the note must appear and when it must not.
"""

from __future__ import annotations

import random

import pytest

from odds.rules.profiles import BUILTIN
from odds.sim.simulate import simulate
from odds.sim.tallies import tallies_csv
from odds.sim.verify import RuleOverrides, verify_text
from tests.examples import halve


def _cut_card_tallies(penetration: str | None) -> str:
    """A 2-pack cut-card run's tallies, its penetration line dropped or restated."""
    sim = simulate("standard", 2, rounds=300, reshuffle="cut", seed=5)
    lines = [ln for ln in tallies_csv(sim.header, sim.tallies).splitlines()
             if not ln.startswith("# penetration")]
    if penetration is not None:
        lines.insert(0, f"# penetration: {penetration}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("penetration", halve("penetration", [None, "0.75", "0.5"]))  # 0.75: CI
def test_a_continuous_shoe_without_a_penetration_says_it_assumed_one(penetration) -> None:
    result = verify_text(_cut_card_tallies(penetration), "tallies")
    said = [n for n in result.notes if "states no penetration" in n]
    if penetration is None:
        assert said == ["the file states no penetration: assumed 0.75 "
                        "(our simulator's default)"]
    else:
        assert said == []


def _choice_log() -> str:
    """Forty rounds of an infinite shoe, both sides drawing on 0-5 (the standard rule and a
    legal choice)."""
    from odds.rules.cards import POINTS, RANKS
    from odds.rules.settle import category

    profile = BUILTIN["standard"]
    rng = random.Random(7)
    rows = ["# profile: standard", "# shoe: inf", "round,seat,player,bank,result,payout"]
    for r in range(1, 41):
        cards = [rng.randrange(13) for _ in range(6)]
        p, b = cards[0:2], cards[2:4]
        pv = (POINTS[p[0]] + POINTS[p[1]]) % 10
        bv = (POINTS[b[0]] + POINTS[b[1]]) % 10
        if pv <= 5:  # a natural is 8 or 9: it stands, and does not stop the other's draw
            p.append(cards[4])
        if bv <= 5:
            b.append(cards[5])
        pf = (pv + sum(POINTS[c] for c in p[2:])) % 10
        bf = (bv + sum(POINTS[c] for c in b[2:])) % 10
        outcome, how = category(profile, pv, bv, pf, bf)
        pay = {"win": "1", "push": "0", "loss": "-1"}[outcome.value]
        hand = " ".join
        rows.append(f"{r},1,{hand(RANKS[c].value for c in p)},{hand(RANKS[c].value for c in b)},"
                    f"{outcome.value}_{how},{pay}")
    return "\n".join(rows) + "\n"


@pytest.mark.parametrize("player, bank, who", [
    ("choice", "choice", "players and bank choose"),
    ("choice", "0-5", "players choose"),
    ("0-5", "choice", "the bank chooses"),
])
def test_a_game_with_choices_says_who_chooses(player, bank, who) -> None:
    rules = RuleOverrides(options={"player_draw": player, "bank_draw": bank})
    result = verify_text(_choice_log(), "log", rules)
    head = [n for n in result.notes if "the audit accepts any legal choice" in n]
    assert len(head) == 1, result.notes
    assert f": {who};" in head[0], head[0]
    assert result.broken_rules == [], result.violations


# -- what a file is and where it came from -----------------------------------------------

def test_text_without_a_source_is_called_input() -> None:
    from odds.sim.tallies import TallyError

    with pytest.raises(TallyError, match=r"^input, line 1: not a tallies file"):
        verify_text("nonsense\n")


def _family_tallies(**changes: object) -> str:
    import json

    from odds.rules.shoe import Shoe
    from odds.sim.tallies import RunHeader, Tally, category_names, tallies_json

    profile = BUILTIN["family"]
    tally = Tally(rounds=10, categories={category_names(profile)[0]: 10})
    data = json.loads(tallies_json(RunHeader(profile, Shoe.infinite_shoe()), [tally]))
    return json.dumps({**data, **changes})


def test_tallies_of_a_game_with_choices_are_tallies_audited_only() -> None:
    result = verify_text(_family_tallies(), "family.json")
    assert (result.kind, result.source, result.verdict) == ("tallies", "family.json", "pass")
    assert result.notes[0].endswith("only the audit ran")


def test_a_tallies_file_of_another_format_is_refused() -> None:
    from odds.sim.tallies import TallyError

    with pytest.raises(TallyError, match="format 'lucky9-tallies/9' is not lucky9-tallies/1"):
        verify_text(_family_tallies(format="lucky9-tallies/9"), "t.json")


# -- a log's seats, and its cards as the command line says ------------------------------

@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_a_log_that_states_no_seats_has_the_seats_it_shows(tmp_path, suffix) -> None:
    import json

    path = tmp_path / f"three{suffix}"
    simulate("standard", 1, rounds=30, seats=3, seed=3, log=path)
    if suffix == ".csv":
        text = "".join(ln for ln in path.read_text().splitlines(keepends=True)
                       if not ln.startswith("# seats"))
    else:
        head, *rows = path.read_text().splitlines(keepends=True)
        data = json.loads(head)
        del data["seats"]
        text = json.dumps(data) + "\n" + "".join(rows)
    result = verify_text(text, path.name)
    assert result.header.seats == 3 and len(result.seats) == 3
    assert result.verdict == "pass", result.violations


@pytest.mark.parametrize("cards", ["ranks", None])
def test_a_json_log_of_ranks_read_as_ranks(tmp_path, cards) -> None:
    path = tmp_path / "ranks.jsonl"
    simulate("standard", 1, rounds=30, seed=4, log=path)
    result = verify_text(path.read_text(), path.name, RuleOverrides(cards=cards))
    assert result.verdict == "pass", result.violations
    assert not any("point values" in n for n in result.notes)


def test_a_json_log_of_ranks_read_as_values_is_refused_on_its_line(tmp_path) -> None:
    from odds.sim.tallies import TallyError

    path = tmp_path / "ranks.jsonl"
    simulate("standard", 1, rounds=30, seed=4, log=path)
    with pytest.raises(TallyError, match=r"^ranks.jsonl, line \d+: .* is not a point value"):
        verify_text(path.read_text(), path.name, RuleOverrides(cards="values"))


# -- a header is read in blocks up to its bounds, then the file is read whole -------------

def _header_blocks(first: list[str], more: list[list[str]]):
    return iter([(1 + i, block) for i, block in enumerate(more, start=1)]), first


@pytest.mark.parametrize("bound, line", [("HEAD_LINES", "# x"), ("HEAD_LIMIT", "# " + "x" * 48)])
def test_a_header_past_its_bound_stops_reading_in_blocks(monkeypatch, bound, line) -> None:
    from odds.sim import verify

    monkeypatch.setattr(verify, "HEAD_LINES", 10 if bound == "HEAD_LINES" else 10**6)
    monkeypatch.setattr(verify, "HEAD_LIMIT", 100 if bound == "HEAD_LIMIT" else 10**9)
    # a short first block (under either bound), then comment blocks, then a row
    blocks, first = _header_blocks(["# a"], [[line] * 4] * 5 + [["round,seat"]])
    assert verify._opening(blocks, 1, list(first))[2] is False
    # within the bounds, the blocks are joined until the first row
    monkeypatch.setattr(verify, "HEAD_LINES", 10**6)
    monkeypatch.setattr(verify, "HEAD_LIMIT", 10**9)
    blocks, first = _header_blocks(["# a"], [[line] * 4] * 5 + [["round,seat"]])
    number, lines, within = verify._opening(blocks, 1, list(first))
    assert within is True and lines[-1] == "round,seat" and len(lines) == 22


# -- a shoe dealt past its end ------------------------------------------------------------

# 24 two-card hands that stand, from one pack (the four 3s are left over).
_STANDING = ([(f"{z}{s}", f"{h}{s}") for z, h in zip(("10", "J", "Q", "K"), "6789", strict=True)
              for s in "shdc"]
             + [(f"A{s}", f"5{s}") for s in "shdc"] + [(f"2{s}", f"4{s}") for s in "shdc"])


def _row(r: int, seat: int, player: tuple[str, str], bank: tuple[str, str]) -> str:
    """A log row of two standing hands, settled under the standard rules (shoe 1)."""
    from odds.rules.cards import parse_cards

    p, b = (sum(c.points for c in parse_cards(" ".join(hand))) % 10 for hand in (player, bank))
    colon = player[0][:-1] == player[1][:-1]
    outcome, pay = (("win", 2 if colon else 1) if p > b else
                    ("push", 0) if p == b else ("loss", -1))
    return f"{r},{seat},{' '.join(player)},{' '.join(bank)},{outcome},{pay},1"


def test_a_two_seat_shoe_dealt_past_its_end_needs_nine_cards_a_round(tmp_path) -> None:
    from click.testing import CliRunner

    from cli import main

    hands = [*_STANDING, ("3s", "3h"), ("3d", "3c")]  # 26 standing hands: the whole pack
    rows = []
    for r in range(8):  # 8 rounds of two seats and the bank: 48 cards
        one, two, bank = hands[3 * r:3 * r + 3]
        rows += [_row(r + 1, 1, one, bank), _row(r + 1, 2, two, bank)]
    rows.append(_row(9, 1, hands[24], hands[25]))  # 4 cards left for a round of two seats
    log = tmp_path / "two.csv"
    log.write_text("\n".join(["# shoe: 1", "# reshuffle: cut", "# seats: 2",
                              "round,seat,player,bank,result,payout,shoe", *rows]) + "\n")
    result = CliRunner().invoke(main, ["verify", str(log)])
    assert result.exit_code == 1, result.output
    assert ("cards: the round starts with 4 cards left in shoe 1, fewer than the 9 a round "
            "of 2 seats can need") in result.output


# -- the audit of side bets on value-only cards: a third card worth 0 is a card -----------

def test_a_zero_third_card_counts_in_a_side_bets_audit_of_value_only_cards() -> None:
    head = ("# profile: ez-baccarat\n# shoe: inf\n# cards: values\n"
            "round,seat,player,bank,result,payout,bet:dragon-7\n")
    rows = ["1,1,1 2 0,2 1 4,loss_comparison,-1,40",  # the player's 3 draws a zero; the
            "2,1,1 2 5,2 1 4,win_comparison,1,-1"]    # bank's 3 then draws 4: a three-card 7
    result = verify_text(head + "\n".join(rows) + "\n", "values.csv")
    assert result.broken_rules == [] and result.violations == ()
    wrong = verify_text(head + "\n".join([rows[0].replace(",40", ",-1"), rows[1]]) + "\n",
                        "values.csv")
    assert wrong.broken_rules == ["bet dragon-7"]


# -- the run's seats, said with the right number ------------------------------------------

@pytest.mark.parametrize("stated, seat, said", [
    (1, 2, "seat 2, but the run has 1 seat"), (2, 3, "seat 3, but the run has 2 seats")])
def test_a_seat_beyond_the_runs_seats_is_named(stated, seat, said) -> None:
    from odds.sim.tallies import TallyError

    rows = [f"1,{s},9 9,1 2 3,win,1" for s in range(1, seat + 1)]
    text = (f"# profile: plain\n# shoe: inf\n# seats: {stated}\n# cards: values\n"
            "round,seat,player,bank,result,payout\n" + "\n".join(rows) + "\n")
    with pytest.raises(TallyError, match=f"line {3 + seat + 2}: {said}$"):
        verify_text(text, "s.csv")


def test_a_card_dealt_once_too_often_in_a_shoe_says_it_counted_the_earlier_rounds() -> None:
    text = ("# profile: standard\n# shoe: 1\n# reshuffle: cut\n"
            "round,seat,player,bank,result,payout,shoe\n"
            "1,1,A A,A 9,loss_comparison,-1,1\n2,1,A 8,K 9,loss_comparison,-1,1\n"
            "3,1,A 7,K 9,loss_comparison,-1,1\n")  # the fifth ace, in round 3
    result = verify_text(text, "f")
    assert "cards" in result.broken_rules
    assert ("deals 5 cards of rank A counting the cards dealt earlier in its shoe, but the "
            "shoe (1 pack) holds 4") in [v.message.split(":")[0] for v in result.violations]


def test_a_wrong_final_value_names_both_the_rules_and_the_logs_values() -> None:
    text = ("# profile: standard\n# shoe: inf\n"
            "round,seat,player,bank,result,payout,player_final,bank_final\n"
            "1,1,9h 8d,Kc 6d,win_comparison,1,5,6\n")
    result = verify_text(text, "f")
    assert result.broken_rules == ["final value"]
    assert [v.message for v in result.violations] == [
        "player 9h 8d is 7 and bank Kc 6d is 6, the log says 5 and 6"]


# -- outcome-only tallies of a continuous shoe: the chi-square over outcomes ---------------

def test_outcome_only_tallies_of_a_continuous_shoe_get_the_outcomes_chi_square() -> None:
    from odds.sim.tallies import Tally
    from odds.sim.verify import verify_tallies

    sim = simulate("standard", 2, rounds=2000, reshuffle="cut", seed=5)
    t = sim.tallies[0]
    outcomes = {k: 0 for k in ("win", "push", "loss")}
    for name, count in t.categories.items():
        outcomes[name.split("_")[0]] += count
    result = verify_tallies(sim.header, [Tally(rounds=t.rounds, categories=outcomes)])
    assert [c.name for c in result.seats[0].checks] == ["outcomes", "win", "push", "loss"]
    assert result.verdict == "pass"


@pytest.mark.parametrize("threes, said", [(2, "2 cards left"), (1, "1 card left")])
def test_a_shoe_dealt_past_its_end_counts_the_cards_left_in_words(tmp_path, threes, said) -> None:
    from click.testing import CliRunner

    from cli import main

    rows = [_row(r + 1, 1, _STANDING[2 * r], _STANDING[2 * r + 1])
            for r in range(12)]  # 12 heads-up rounds where both stand: 48 cards
    rows.append("13,1,3s 3h,3d 3c,push,0,1")
    log = tmp_path / "short.csv"
    log.write_text("\n".join(["# reshuffle: cut", "round,seat,player,bank,result,payout,shoe",
                              *rows]) + "\n")
    shoe = ",".join(["4", "4", str(threes)] + ["4"] * 10)  # a pack short of 4 - threes threes
    result = CliRunner().invoke(main, ["verify", str(log), "--shoe", shoe])
    assert result.exit_code == 1, result.output
    assert f"the round starts with {said} in shoe 1, fewer than the 6 a round of 1 seat" \
        in result.output
