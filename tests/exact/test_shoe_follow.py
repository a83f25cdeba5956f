"""Removal for every bet, reading and splitting a dealt shoe, `lucky9 shoe`."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cli import main
from odds.exact.deal import round_lengths, shuffled_shoe
from odds.exact.engine import round_odds
from odds.exact.removal import removal, removal_effects
from odds.exact.rounds import deal_rounds, read_cards, record_rounds, split_rounds
from odds.exact.shoe_follow import bet_names, follow_shoe
from odds.report.removal_report import weighted_sum
from odds.rules.cards import RANKS, Card, parse_cards
from odds.rules.profile import Profile
from odds.rules.profiles import BUILTIN
from odds.rules.shoe import Shoe
from tests.brute import PIPS, _draws, play, settle
from tests.examples import examples

FIXED = ["standard", "plain", "forced-draw", "super9", "punto-banco"]


def run(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args), input=input)


def plain_seat(profile: Profile) -> Profile:
    """The same seat settled as a plain win / push / loss: no Colon pays either way."""
    return profile.with_options(colon="none", colon_nine="none", bank_bonus="off")


# -- removal for every bet ------------------------------------------------------------


def engine_effects(profile: Profile, shoe: Shoe) -> list[tuple[str, Fraction, Fraction]]:
    """Today's definition, on the engine: one round_odds per rank removed."""
    base = round_odds(profile, shoe)
    out = []
    for rank in RANKS:
        if shoe.counts[rank.index]:
            after = round_odds(profile, shoe.without([Card(rank)]))
            out.append((rank.value, after.expected_value - base.expected_value,
                        after.win - base.win))
    return out


# 13 engine runs each: two cases by default (a Lucky 9 rule set on one pack, baccarat
# on eight), every other one slow.
_DEFAULT_EFFECTS = {("standard", 1)}


@pytest.mark.parametrize("key, packs", [
    pytest.param(key, packs, id=f"{key}-{packs}",
                 marks=[] if (key, packs) in _DEFAULT_EFFECTS else [pytest.mark.slow])
    for key, packs in [(key, 1) for key in FIXED] + [("standard", 8), ("punto-banco", 8)]])
def test_removal_player_effects_equal_the_engine(key: str, packs: int) -> None:
    profile, shoe = BUILTIN[key], Shoe.packs_of(packs)
    ours = [(e.rank.value, e.ev_change, e.win_change) for e in removal_effects(profile, shoe)]
    assert ours == engine_effects(profile, shoe)


def test_removal_every_bet_against_the_engine() -> None:
    shoe = Shoe.packs_of(2)
    result = removal(BUILTIN["punto-banco"], shoe)
    base = round_odds(BUILTIN["punto-banco"], shoe)
    for e in result.effects[:examples(4, 13)]:  # every rank in CI
        after = round_odds(BUILTIN["punto-banco"], shoe.without([Card(e.rank)]))
        for bet in ("banker", "tie"):
            assert e.change(bet) == after.bet_moments(bet)[0] - base.bet_moments(bet)[0]
    # colon: the seat's EV less the same seat settled plainly.
    super9 = BUILTIN["super9"]
    result = removal(super9, shoe)
    plain = plain_seat(super9)
    assert result.expected_value("colon-share") == (
        round_odds(super9, shoe).expected_value - round_odds(plain, shoe).expected_value)
    for e in result.effects[:3]:
        less = shoe.without([Card(e.rank)])
        after = round_odds(super9, less).expected_value - round_odds(plain, less).expected_value
        assert e.change("colon-share") == after - result.expected_value("colon-share")


@settings(max_examples=examples(5, 15), deadline=None)
@given(counts=st.lists(st.integers(0, 5), min_size=13, max_size=13).filter(lambda c: sum(c) >= 7),
       key=st.sampled_from(FIXED))
def test_removal_weighted_sums_are_zero_for_every_bet(counts: list[int], key: str) -> None:
    shoe = Shoe(tuple(counts))
    result = removal(BUILTIN[key], shoe)
    # A composition without packs: every bet but those on suited pairs (which need the packs).
    assert result.bets == tuple(b for b in bet_names(BUILTIN[key]) if b != "perfect-pair")
    for bet in result.bets:
        assert weighted_sum(result.effects, shoe, bet) == 0
    assert weighted_sum(result.effects, shoe, "win_change") == 0


def test_removal_text_json_csv_for_every_bet() -> None:
    out = run("removal", "--profile", "punto-banco", "--decks", "2")
    assert out.exit_code == 0, out.output
    flat = " ".join(out.output.split())
    assert "change in EV per card of the rank removed, from 2 packs (104 cards)" in flat
    assert "sum to 0 (banker 0, tie 0, player-pair 0," in flat
    assert "dragon-bonus-banker 0)" in flat
    for bet in ("banker", "tie", "player-pair", "perfect-pair", "dragon-bonus-banker"):
        assert f" {bet} " in out.output or f" {bet}\n" in out.output, bet  # a column each
    assert all(len(line) <= 80 for line in out.output.splitlines()[7:])
    data = json.loads(run("removal", "--profile", "super9", "--format", "json").output)
    assert data["bets"] == ["player", "colon", "colon-nine", "colon-share"]
    assert data["weighted_sums"] == {"player": "0", "colon": "0", "colon-nine": "0",
                                     "colon-share": "0"}
    assert data["normalisation"].startswith("change in EV per card")
    rows = list(csv.reader(io.StringIO(run("removal", "--profile", "punto-banco",
                                           "--format", "csv").output)))
    assert rows[0][6:8] == ["banker_ev_change", "banker_ev_change_decimal"]
    assert sum(4 * Fraction(r[8]) for r in rows[1:]) == 0  # tie, weighted: 0


def test_removal_refuses_a_shoe_too_small() -> None:
    out = run("removal", "--shoe", "A=2 2=2 3=2 4=0 5=0 6=0 7=0 8=0 9=0 10=0 J=0 Q=0 K=0")
    assert out.exit_code == 2 and "7 cards or more" in out.output


# -- reading a record ---------------------------------------------------------------------


def test_read_cards_lines_marks_comments() -> None:
    record = read_cards("# shoe 1\n8h 7s, 2c\nAc 3\n\n--\n9 9 K K # round 2\n\n")
    assert [str(c) for c in record.cards] == ["8h", "7s", "2c", "Ac", "3", "9", "9", "K", "K"]
    assert record.lines == (2, 2, 2, 3, 3, 6, 6, 6, 6)
    assert record.marks == ((5, 4),)


@pytest.mark.parametrize("text, message", [
    ("8h 7s\n2c 1x\n", "line 2: '1x' is not a card"),
    ("8h 7s\n2c Az\n", "line 2: 'Az' is not a card (suit must be"),
])
def test_read_cards_names_the_line_and_the_token(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        read_cards(text)


# -- splitting into rounds: brute force over every split --------------------------------


def consistent(profile: Profile, cards: list[int]) -> bool:
    """Could these 4-6 ranks (deal order P B P B, thirds) be one whole round? Read by hand."""
    p, b = [cards[0], cards[2]], [cards[1], cards[3]]
    pv, bv = (PIPS[p[0]] + PIPS[p[1]]) % 10, (PIPS[b[0]] + PIPS[b[1]]) % 10
    stop = profile.naturals_stop_draws and (pv in profile.naturals or bv in profile.naturals)
    player_draws = not stop and pv not in profile.naturals and _draws(profile.player_draw, pv, None)
    rest = cards[4:]
    third = None
    if player_draws:
        if not rest:
            return False
        third = PIPS[rest.pop(0)]
    bank_draws = not stop and bv not in profile.naturals and _draws(profile.bank_draw, bv, third)
    return len(rest) == (1 if bank_draws else 0)


def all_splits(n: int) -> list[list[int]]:
    if n == 0:
        return [[]]
    return [[k, *rest] for k in (4, 5, 6) if k <= n for rest in all_splits(n - k)]


@settings(max_examples=60, deadline=None)
@given(data=st.data(), key=st.sampled_from(FIXED))
def test_round_splitting_matches_brute_force(data: st.DataObject, key: str) -> None:
    profile = BUILTIN[key]
    ranks = data.draw(st.lists(st.integers(0, 12), min_size=4, max_size=22))
    ok = []
    for split in all_splits(len(ranks)):
        pos, good = 0, True
        for k in split:
            good = good and consistent(profile, ranks[pos:pos + k])
            pos += k
        if good:
            ok.append(split)
    assert len(ok) <= 1  # a deal has one reading at most
    cards = tuple(Card(RANKS[r]) for r in ranks)
    if ok:
        rounds = split_rounds(profile, cards)
        assert [len(r.cards) for r in rounds] == ok[0]
        pos = 0
        for r in rounds:  # and each round settles as the brute-force dealer says
            hands = play(profile, _slot_order(ranks[pos:pos + len(r.cards)]))
            assert [c.rank.index for c in r.player] == hands[0]
            assert [c.rank.index for c in r.bank] == hands[1]
            assert r.outcome.value == settle(profile, *hands)[0]
            pos += len(r.cards)
    else:
        with pytest.raises(ValueError, match="round|fewer than a round"):
            split_rounds(profile, cards)


def _slot_order(cards: list[int]) -> list[int]:
    """Deal order P B P B, thirds -> the brute-force dealer's slots P P B B p3 b3.

    The fifth card is the player's third if the player draws, else the bank's; the
    dealer reads slot 4 only when the player draws and slot 5 only when the bank does.
    """
    third = cards[4] if len(cards) > 4 else 0
    last = cards[-1] if len(cards) > 4 else 0
    return [cards[0], cards[2], cards[1], cards[3], third, last]


def test_split_rounds_error_messages() -> None:
    standard = BUILTIN["standard"]
    with pytest.raises(ValueError, match=r"round 2 \(from card 5\) needs 6 cards"):
        split_rounds(standard, parse_cards("9 2 9 6 10 5 K K 3"))
    with pytest.raises(ValueError, match="the last 3 card"):
        split_rounds(standard, parse_cards("9 2 9 6 10 5 K"))
    record = read_cards("8h 7s 2c Ac\n--\n9 9 K K\n")
    with pytest.raises(ValueError, match="line 2: the record closes a round after card 4"):
        record_rounds(standard, Shoe.packs_of(1), record)
    with pytest.raises(ValueError, match="line 3: 9 is card 5 of rank 9"):
        record_rounds(standard, Shoe.packs_of(1), read_cards("9 9 9 9\n4 4 4 4\n9 K K K"))
    with pytest.raises(ValueError, match="line 2: Kh is dealt 2 times"):
        record_rounds(standard, Shoe.packs_of(1), read_cards("Kh 2 3 4 5 6\nKh 2 3 4 5 6"))


# -- following a shoe: exact against round_odds ---------------------------------------------


@pytest.mark.parametrize("key", ["standard", pytest.param("punto-banco", marks=pytest.mark.slow),
                                 pytest.param("super9", marks=pytest.mark.slow)])
def test_follow_shoe_equals_round_odds_before_every_round(key: str) -> None:
    profile, shoe = BUILTIN[key], Shoe.packs_of(1)
    rounds = deal_rounds(profile, shuffled_shoe(1, 5), 0.9)
    follow = follow_shoe(profile, shoe, rounds)
    seen: list[Card] = []
    plain = plain_seat(profile) if "colon-share" in follow.bets else None
    for k, r in enumerate(rounds):
        odds = round_odds(profile, shoe.without(seen) if seen else shoe)
        assert follow.evs["player"][k] == odds.expected_value
        assert follow.probabilities["win"][k] == odds.win
        assert follow.probabilities["push"][k] == odds.push
        for bet in ("banker", "tie"):
            if bet in follow.bets:
                assert follow.evs[bet][k] == odds.bet_moments(bet)[0]
        if plain is not None:
            base = round_odds(plain, shoe.without(seen) if seen else shoe).expected_value
            assert follow.evs["colon-share"][k] == odds.expected_value - base
        seen += r.cards


def test_dealing_reaches_the_cut_card_and_stops() -> None:
    cards = shuffled_shoe(8, 3)
    rounds = deal_rounds(BUILTIN["punto-banco"], cards, 0.8)
    last = rounds[-1]
    assert last.start < 332 <= last.start + len(last.cards)
    assert sum(len(r.cards) for r in rounds) == last.start + len(last.cards)
    lengths = round_lengths(BUILTIN["punto-banco"], [c.rank.index for c in cards], stop=332)
    assert lengths == [len(r.cards) for r in rounds]


# -- the command --------------------------------------------------------------------------


def test_shoe_command_seeded_text_json_csv() -> None:
    text = run("shoe", "--decks", "1", "--seed", "4")
    assert text.exit_code == 0, text.output
    assert "dealt P " in text.output and "after " in text.output
    assert all(len(line) <= 80 for line in text.output.splitlines()[3:])
    data = json.loads(run("shoe", "--decks", "1", "--seed", "4", "--format", "json").output)
    first = data["rounds"][0]
    assert {"round", "cards_seen", "ev", "probabilities", "dealt"} <= set(first)
    assert first["cards_seen"] == 0 and first["round"] == 1
    assert Fraction(first["ev"]["player"]) == round_odds(BUILTIN["standard"],
                                                         Shoe.packs_of(1)).expected_value
    second = data["rounds"][1]
    assert second["cards_seen"] == len(first["dealt"]["cards"])
    shoe = Shoe.packs_of(1).without(first["dealt"]["cards"])
    assert Fraction(second["ev"]["colon-share"]) == (
        round_odds(BUILTIN["standard"], shoe).expected_value
        - round_odds(plain_seat(BUILTIN["standard"]), shoe).expected_value)
    rows = list(csv.reader(io.StringIO(
        run("shoe", "--decks", "1", "--seed", "4", "--format", "csv").output)))
    assert rows[0][:4] == ["round", "cards_seen", "cards_left", "ev_player"]
    assert len(rows) == len(data["rounds"]) + 1


def test_shoe_command_reads_a_file_and_stdin(tmp_path) -> None:  # type: ignore[no-untyped-def]
    record = "9h 2c 9d 6s\n--\nKh 5c Kd Ks 3h 4d\n"
    path = tmp_path / "dealt.txt"
    path.write_text(record, encoding="utf-8")
    from_file = run("shoe", "--cards", str(path), "--format", "json")
    from_stdin = run("shoe", "--cards", "-", "--format", "json", input=record)
    assert from_file.exit_code == 0, from_file.output
    assert json.loads(from_file.output)["rounds"] == json.loads(from_stdin.output)["rounds"]
    rounds = json.loads(from_file.output)["rounds"]
    assert [r["dealt"]["outcome"] for r in rounds] == ["push", "loss"]
    assert json.loads(from_file.output)["after_last_round"]["cards_seen"] == 10


@pytest.mark.parametrize("args, stdin, message", [
    (["--cards", "-"], "9 2 9 6\n10 5 K\n", "the last 3 card(s), from card 5 (line 2)"),
    (["--cards", "-"], "9 2 9 6\n10 5 K K 3\n", "needs 6 cards"),
    (["--cards", "-"], "9 2 9 6\n10 5 Kx K 3\n", "line 2: 'Kx' is not a card"),
    (["--cards", "-"], "9 9 9 9\n9 K K K\n", "line 2: 9 is card 5 of rank 9"),
    (["--cards", "-"], "", "no cards"),
    (["--cards", "-", "--decks", "-2"], "9 2 9 6\n", "at least 1 pack"),
    (["--cards", "-", "--decks", "1.5"], "9 2 9 6\n", "is not a shoe"),
    (["--seed", "1", "--decks", "inf"], None, "give --decks D"),
    (["--seed", "-1"], None, "-1"),
    ([], None, "give --cards FILE"),
    (["--profile", "family", "--seed", "1"], None, "no fixed draw rule"),
    (["--seed", "1", "--decks", "900000"], None,
     "a shoe dealt round by round has at most 100 packs (5,200 cards"),
], ids=["short", "short-third", "token", "too-many", "empty", "negative", "fraction", "inf",
        "seed", "nothing", "family", "huge"])
def test_shoe_command_bad_input(args: list[str], stdin: str | None, message: str) -> None:
    out = run("shoe", *args, input=stdin)
    assert out.exit_code == 2, out.output
    assert message in out.output
    assert "Traceback" not in out.output
