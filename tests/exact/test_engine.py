"""The exact engine against brute force, invariants and published figures."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest

from odds import BUILTIN, ConditionError, Profile, Shoe, parse_cards, round_odds
from odds.exact.engine import category_runs, shared_runs, third_card_leaves
from tests.brute import PIPS, by_permutations, by_rank_weights, settle
from tests.examples import halve

FIXED = [key for key, p in BUILTIN.items() if p.fixed]


def ranks(text: str) -> list[int]:
    return [c.rank.index for c in parse_cards(text)] if text.strip() else []


def shoe_of(text: str) -> tuple[Shoe, list[int]]:
    """A small explicit shoe from a card list, and its ranks for brute force."""
    rs = ranks(text)
    counts = [0] * 13
    for r in rs:
        counts[r] += 1
    return Shoe(tuple(counts)), rs


def check_against(result: object, brute: dict[str, Fraction]) -> None:
    r = result
    assert r.win == brute.get("win", 0)  # type: ignore[attr-defined]
    assert r.push == brute.get("push", 0)  # type: ignore[attr-defined]
    assert r.loss == brute.get("loss", 0)  # type: ignore[attr-defined]
    assert r.expected_value == brute["ev"]  # type: ignore[attr-defined]
    assert r.variance == brute["second"] - brute["ev"] ** 2  # type: ignore[attr-defined]


SMALL_SHOES = {
    "mixed-10": "A 2 3 4 5 6 7 8 9 K",
    "pairs-10": "9 9 8 8 K K 5 5 3 3",
    "zeros-10": "10 J Q K K 4 4 6 7 2",
}


# 151,200 orderings each: one pair runs by default, the rest are slow (their fast
# twins: test_engine_equals_brute_force_on_eight_card_shoes, below).
@pytest.mark.parametrize("profile, shoe", [
    pytest.param(p, s, id=f"{s}-{p}",
                 marks=[] if (p, s) == ("standard", "mixed-10") else [pytest.mark.slow])
    for s in SMALL_SHOES for p in ["standard", "forced-draw", "punto-banco", "super9"]])
def test_engine_equals_permutation_brute_force(profile: str, shoe: str) -> None:
    s, rs = shoe_of(SMALL_SHOES[shoe])
    result = round_odds(BUILTIN[profile], s)
    brute = by_permutations(BUILTIN[profile], rs)
    check_against(result, brute)
    assert result.player_colon == brute.get("player_colon", 0)
    assert result.bank_colon == brute.get("bank_colon", 0)
    assert result.player_draws == brute.get("player_draws", 0)
    assert result.bank_draws == brute.get("bank_draws", 0)
    # The engine's total is every ordering of six physical cards.
    assert result.total == brute["n"]


# 151,200 orderings each: bank-bonus runs by default, the rest are slow (their fast
# twin: test_option_variants_equal_brute_force_on_eight_cards, every option, below).
@pytest.mark.parametrize(
    "options",
    [
        pytest.param({"naturals": "compare"}, marks=pytest.mark.slow),
        pytest.param({"colon_match": "value", "bonus_on": "always"}, marks=pytest.mark.slow),
        {"bank_bonus": "on", "colon": "5/2", "colon_nine": "none"},
        pytest.param({"natural_values": "9", "player_draw": "0-6", "bank_draw": "0-4"},
                     marks=pytest.mark.slow),
    ],
    ids=["compare", "value-always", "bank-bonus", "odd-rules"],
)
def test_option_variants_equal_brute_force(options: dict[str, str]) -> None:
    profile = BUILTIN["standard"].with_options(**options)
    s, rs = shoe_of(SMALL_SHOES["zeros-10"])
    check_against(round_odds(profile, s), by_permutations(profile, rs))


@pytest.mark.parametrize(
    "player,bank,removed",
    [
        ("8h 7s", "", ""),
        ("K", "9", ""),
        ("3 2 9", "", ""),
        ("", "6 K", "5"),
        ("4 K A", "2 2 K", ""),
        ("", "K", "9 9 K 2 A"),
    ],
)
def test_known_and_removed_cards_equal_brute_force(player: str, bank: str, removed: str) -> None:
    profile = BUILTIN["standard"]
    full = "A 2 3 4 5 6 7 8 9 10 J Q K 9 K 2"
    _, rs = shoe_of(full)
    taken = ranks(player) + ranks(bank) + ranks(removed)
    left = list(rs)
    for r in taken:
        left.remove(r)
    s, _ = shoe_of(full)
    result = round_odds(profile, s, player=player, bank=bank, removed=removed)
    check_against(result, by_permutations(profile, left, ranks(player), ranks(bank)))


# standard runs by default; the other profiles are slow (their fast twin:
# test_engine_equals_rank_brute_force_on_a_sub_pack, below)
@pytest.mark.parametrize("profile", ["standard", *(pytest.param(p, marks=pytest.mark.slow)
                                                  for p in ("forced-draw", "super9", "punto-banco"))])
def test_engine_equals_rank_brute_force_on_one_full_pack(profile: str) -> None:
    result = round_odds(BUILTIN[profile], Shoe.packs_of(1))
    brute = by_rank_weights(BUILTIN[profile], [4] * 13)
    check_against(result, brute)
    assert result.total == brute["n"] == 52 * 51 * 50 * 49 * 48 * 47


@pytest.mark.parametrize("profile", ["standard", "forced-draw", "punto-banco"])
def test_engine_equals_rank_brute_force_on_a_sub_pack(profile: str) -> None:
    # The seconds-long twin of the one-pack test: the same rank-by-rank
    # enumerator on 11 cards, pairs of 9s and of ten-cards included.
    counts = [2, 1, 0, 1, 0, 1, 0, 1, 2, 1, 0, 1, 1]
    result = round_odds(BUILTIN[profile], Shoe(tuple(counts)))
    check_against(result, by_rank_weights(BUILTIN[profile], counts))


@pytest.mark.parametrize("decks", [1, 2, 8])
@pytest.mark.parametrize("profile", halve("profile", FIXED))  # half the profiles: CI
def test_probabilities_sum_to_one(profile: str, decks: int) -> None:
    r = round_odds(BUILTIN[profile], Shoe.packs_of(decks))
    assert r.win + r.push + r.loss == 1
    assert sum(r.categories.values()) == 1
    assert sum(r.player_final) == 1 and sum(r.bank_final) == 1
    for bet in r.bets:
        assert sum(r.payout_distribution(bet).values()) == 1


@pytest.mark.parametrize("decks", [1, 2, 8])
def test_plain_is_fair(decks: int) -> None:
    # Player and bank follow the same fixed rule, so the round is symmetric.
    r = round_odds(BUILTIN["plain"], Shoe.packs_of(decks))
    assert r.expected_value == 0
    assert r.win == r.loss


@pytest.mark.parametrize("decks", [1, 2, 3, 8])
def test_colon_closed_form(decks: int) -> None:
    # The second card matches the first's rank: 4D-1 of the 52D-1 left.
    r = round_odds(BUILTIN["standard"], Shoe.packs_of(decks))
    assert r.player_colon == Fraction(4 * decks - 1, 52 * decks - 1)
    assert r.bank_colon == r.player_colon
    assert r.player_colon_nine == Fraction(4 * decks, 52 * decks) * Fraction(
        4 * decks - 1, 52 * decks - 1
    )


def test_colon_by_value_closed_form() -> None:
    # A zero card matches any of the 16D-1 other zero cards; others their rank.
    r = round_odds(BUILTIN["standard"].with_options(colon_match="value"), Shoe.packs_of(1))
    zeros = Fraction(16, 52) * Fraction(15, 51)
    assert r.player_colon == zeros + Fraction(36, 52) * Fraction(3, 51)


def test_eight_pack_total_sequences() -> None:
    r = round_odds(BUILTIN["standard"], Shoe.packs_of(8))
    assert r.total == 416 * 415 * 414 * 413 * 412 * 411


def test_infinite_shoe_total_and_colon() -> None:
    r = round_odds(BUILTIN["standard"], Shoe.infinite_shoe())
    assert r.total == 52**6
    assert r.player_colon == Fraction(1, 13)
    assert r.win + r.push + r.loss == 1


def test_punto_banco_reproduces_published_figures() -> None:
    # Published 8-deck punto banco: Banker 0.458597, Player 0.446247,
    # Tie 0.095156; house edges Banker 1.0579%, Player 1.2351%, Tie 14.3596%
    # (RULES.md section 5; e.g. the Wizard of Odds baccarat tables).
    r = round_odds(BUILTIN["punto-banco"], Shoe.packs_of(8))
    assert round(float(r.loss), 6) == 0.458597
    assert round(float(r.win), 6) == 0.446247
    assert round(float(r.push), 6) == 0.095156
    assert round(float(-r.bet_moments("banker")[0]) * 100, 4) == 1.0579
    assert round(float(-r.bet_moments("player")[0]) * 100, 4) == 1.2351
    assert round(float(-r.bet_moments("tie")[0]) * 100, 4) == 14.3596


def test_punto_banco_by_player_value() -> None:
    # Published 8-deck conditional odds by player two-card value (issue 3).
    table = round_odds(BUILTIN["punto-banco"]).by_value("player")
    assert [round(float(table[0][k]), 6) for k in ("win", "loss", "push")] == [
        0.278792, 0.654627, 0.066581]
    assert [round(float(table[5][k]), 6) for k in ("win", "loss", "push")] == [
        0.358488, 0.537849, 0.103663]


def test_naturals_compare_equals_outright_when_naturals_stop_draws() -> None:
    pb = BUILTIN["punto-banco"]
    a = round_odds(pb, Shoe.packs_of(2))
    b = round_odds(pb.with_options(naturals="outright"), Shoe.packs_of(2))
    assert (a.win, a.push, a.loss) == (b.win, b.push, b.loss)


def test_family_worked_example_fixed_draw() -> None:
    # rules-fr-family.txt: "Vos 8♥ 7♠ font 15, valeur 5. Banque A♣ 6♦ fait 7.
    # [...] 4♦ donne somme 19, valeur 9. Banque reste à 7 ; vous gagnez."
    # Under standard rules the 5 draws and the 7 stands, as in the example.
    win = round_odds(BUILTIN["plain"], player="8h 7s 4d", bank="Ac 6d")
    assert win.win == 1
    lose = round_odds(BUILTIN["plain"], player="8h 7s 7d", bank="Ac 6d")
    assert lose.loss == 1


def test_leaves_agree_with_stage_sums() -> None:
    profile = BUILTIN["punto-banco"]
    deal_shoe = Shoe.packs_of(1)
    from odds.exact.engine import prepare, value_counts

    deal, *_ = prepare(profile, deal_shoe)
    vc = tuple(value_counts(deal.counts))
    leaves = third_card_leaves(profile, 3, 5, vc, deal)
    n = sum(vc)
    assert sum(w for *_, w in leaves) == n * (n - 1)


def test_known_third_card_that_cannot_be_drawn() -> None:
    with pytest.raises(ConditionError, match="consistent"):
        round_odds(BUILTIN["standard"], player="8 K 5")


def test_too_many_known_cards() -> None:
    with pytest.raises(ConditionError, match="at most 3 cards"):
        round_odds(BUILTIN["standard"], player="A 2 3 4")


def test_family_has_no_fixed_rule() -> None:
    with pytest.raises(ValueError, match="no fixed draw rule"):
        round_odds(BUILTIN["family"])


def test_cards_objects_accepted() -> None:
    a = round_odds(BUILTIN["standard"], player=parse_cards("9 9"))
    b = round_odds(BUILTIN["standard"], player="9 9")
    assert a.expected_value == b.expected_value
    assert a.player_colon_nine == 1


# -- fast twins of the slow brute forces, and paths nothing else exercises --------

EIGHT_CARD_SHOES = {
    "naturals-pairs": "9 9 8 K K 5 3 A",
    "low-cards": "A 2 3 4 5 6 7 2",
    "zeros-nines": "10 J K 9 9 4 6 7",
}


def brute_finals(profile, shoe_cards, player=(), bank=()):
    """Final-value distributions by playing every ordering (tests.brute.play)."""
    from collections import Counter
    from itertools import permutations

    from tests.brute import PIPS, play

    slots = ["p0", "p1", "b0", "b1", "p2", "b2"]
    known = {f"p{i}": r for i, r in enumerate(player)} | {f"b{i}": r for i, r in enumerate(bank)}
    free = [s for s in slots if s not in known]
    pf, bf = Counter(), Counter()
    for seq in permutations(shoe_cards, len(free)):
        fill = dict(known) | dict(zip(free, seq, strict=True))
        p, b = play(profile, [fill[s] for s in slots])
        if len(p) < len(player) or len(b) < len(bank):
            continue  # a known third card the hand does not draw
        pf[sum(PIPS[c] for c in p) % 10] += 1
        bf[sum(PIPS[c] for c in b) % 10] += 1
    n = sum(pf.values())
    return ([Fraction(pf[v], n) for v in range(10)], [Fraction(bf[v], n) for v in range(10)])


# standard and punto-banco on every shoe; forced-draw and super9 on one by default,
# on the others in CI (slow)
@pytest.mark.parametrize("profile, shoe", [
    pytest.param(p, s, id=f"{s}-{p}",
                 marks=[] if p in ("standard", "punto-banco") or s == "naturals-pairs"
                 else [pytest.mark.slow])
    for p in ["standard", "forced-draw", "punto-banco", "super9"] for s in EIGHT_CARD_SHOES])
def test_engine_equals_brute_force_on_eight_card_shoes(profile: str, shoe: str) -> None:
    # The seconds-long twin of the one-pack and ten-card brute forces: every
    # figure the engine returns, final-value distributions included.
    p = BUILTIN[profile]
    s, rs = shoe_of(EIGHT_CARD_SHOES[shoe])
    result = round_odds(p, s)
    brute = by_permutations(p, rs)
    check_against(result, brute)
    for name in ("player_colon", "bank_colon", "player_draws", "bank_draws"):
        assert getattr(result, name) == brute.get(name, 0), name
    assert result.total == brute["n"] == 8 * 7 * 6 * 5 * 4 * 3
    assert [list(result.player_final), list(result.bank_final)] == list(brute_finals(p, rs))


@pytest.mark.parametrize(
    "options",
    [{"naturals": "compare"}, {"colon_match": "value", "bonus_on": "always"},
     {"bank_bonus": "on", "colon": "5/2", "colon_nine": "none"},
     {"natural_values": "9", "player_draw": "0-6", "bank_draw": "0-4"}],
    ids=["compare", "value-always", "bank-bonus", "odd-rules"],
)
def test_option_variants_equal_brute_force_on_eight_cards(options: dict[str, str]) -> None:
    profile = BUILTIN["standard"].with_options(**options)
    s, rs = shoe_of("10 K 9 9 4 4 6 5")
    check_against(round_odds(profile, s), by_permutations(profile, rs))


@pytest.mark.parametrize(
    "player,bank",
    [("K 5", "2 3 4"), ("K 5", "A 3 8"), ("A 2 7", ""), ("", "2 2 9"), ("4 K 6", "A 3 9")],
)
def test_known_cards_equal_brute_force_on_small_shoes(player: str, bank: str) -> None:
    # Known third cards worth something (a bank 5 + 4 is 9, a bank 4 + 8 is 2):
    # the third card's value is added and taken mod 10, not dropped.
    profile = BUILTIN["standard"]
    full = "A 2 3 4 5 6 7 8 9 K 9 K 2 4 8"
    left = ranks(full)
    for r in ranks(player) + ranks(bank):
        left.remove(r)
    s, _ = shoe_of(full)
    result = round_odds(profile, s, player=player, bank=bank)
    brute = by_permutations(profile, left, ranks(player), ranks(bank))
    check_against(result, brute)
    assert result.total == brute["n"]
    assert [list(result.player_final), list(result.bank_final)] == list(
        brute_finals(profile, left, ranks(player), ranks(bank)))


@pytest.mark.parametrize(("bank", "final"), [("2 3 4", 9), ("A 3 8", 2), ("5 K 5", 0)])
def test_known_bank_third_card_with_a_value(bank: str, final: int) -> None:
    r = round_odds(BUILTIN["standard"], Shoe.packs_of(1), player="K Q", bank=bank)
    assert r.bank_final[final] == 1 and r.bank_draws == 1
    # Player 0 draws; against a fixed bank total the player's final decides.
    assert r.win == sum(r.player_final[v] for v in range(final + 1, 10))


def test_known_cards_on_the_infinite_shoe() -> None:
    # Known (dealt) cards are allowed on the infinite shoe; the rest is dealt
    # with replacement, so the figures are a brute force over 13 equal ranks.
    from itertools import product

    from tests.brute import play, settle

    profile = BUILTIN["standard"]
    r = round_odds(profile, Shoe.infinite_shoe(), player="K 5", bank="9h")
    assert r.total == 52**3
    wins = pushes = 0
    ev = Fraction(0)
    for b1, p3, b3 in product(range(13), repeat=3):
        p, b = play(profile, [12, 4, 8, b1, p3, b3])
        outcome, net = settle(profile, p, b)
        wins += outcome == "win"
        pushes += outcome == "push"
        ev += net
    assert (r.win, r.push, r.expected_value) == (
        Fraction(wins, 13**3), Fraction(pushes, 13**3), ev / 13**3)
    assert round_odds(profile, Shoe.infinite_shoe(), player="8h 7s 4d", bank="Ac 6d").win == 1
    with pytest.raises(ValueError, match="infinite shoe"):
        round_odds(profile, Shoe.infinite_shoe(), player="K 5", removed="9")


def test_total_sequences_of_a_conditioned_query() -> None:
    # Every six-slot ordering consistent with the conditions, unused slots filled.
    one = Shoe.packs_of(1)
    assert round_odds(BUILTIN["standard"], one, player="3 2 9").total == 49 * 48 * 47
    assert round_odds(BUILTIN["standard"], one, bank="3 2 9").total == 49 * 48 * 47
    # Player 5 always draws: a known third card leaves 3 free slots; 9 never draws.
    assert round_odds(BUILTIN["standard"], one, player="A 4 7", bank="K").total == 48 * 47
    # Two-card player 9: 256 ordered pairs from one pack, then four slots of 50.
    assert round_odds(BUILTIN["standard"], one, player_total=9).total == 256 * 50 * 49 * 48 * 47
    assert round_odds(BUILTIN["standard"], one, bank_total=9).total == 256 * 50 * 49 * 48 * 47


def test_a_shoe_of_exactly_six_cards_is_enough() -> None:
    # A round fills six card slots: six cards are enough, five are not.
    s, rs = shoe_of("9 8 K 5 3 A")
    assert round_odds(BUILTIN["standard"], s).total == 720 == by_permutations(
        BUILTIN["standard"], rs)["n"]
    with pytest.raises(ConditionError, match="fills 6 more card slots"):
        round_odds(BUILTIN["standard"], shoe_of("9 8 K 5 3")[0])
    with pytest.raises(ConditionError, match="fills 4 more"):
        round_odds(BUILTIN["standard"], s, player="9 8", removed="5")


@pytest.mark.parametrize("total", [10, -1, True])
def test_a_two_card_total_runs_0_to_9(total: object) -> None:
    with pytest.raises(ConditionError, match="is not a two-card value"):
        round_odds(BUILTIN["standard"], player_total=total)  # type: ignore[arg-type]
    with pytest.raises(ConditionError, match="for the bank"):
        round_odds(BUILTIN["standard"], bank_total=total)  # type: ignore[arg-type]


@pytest.mark.parametrize(("player", "bank"), [("", ""), ("K 5", "2 3 4"), ("A 2 7", ""),
                                              ("", "A 3 8")])
def test_leaves_agree_with_the_engine(player: str, bank: str) -> None:
    # third_card_leaves (used by the tree) sums to the engine's final values.
    from odds.exact.engine import prepare, two_card_groups

    profile = BUILTIN["punto-banco"]
    r = round_odds(profile, Shoe.packs_of(1), player=player, bank=bank)
    deal, *_ = prepare(profile, Shoe.packs_of(1), player, bank)
    pf, bf = [0] * 10, [0] * 10
    for pv, bv, _, _, vc, weight in two_card_groups(profile, deal):
        for x, y, count in third_card_leaves(profile, pv, bv, vc, deal):
            pf[pv if x is None else (pv + x) % 10] += weight * count
            bf[bv if y is None else (bv + y) % 10] += weight * count
    assert sum(pf) == r.total
    assert [Fraction(c, r.total) for c in pf] == list(r.player_final)
    assert [Fraction(c, r.total) for c in bf] == list(r.bank_final)


def test_categories_come_in_report_order_and_values_average_to_the_ev() -> None:
    from odds.exact.results import CATEGORY_ORDER

    r = round_odds(BUILTIN["standard"], Shoe.packs_of(1))
    assert tuple(r.categories) == CATEGORY_ORDER
    for side in ("player", "bank"):
        table = r.by_value(side)
        assert sum(row["probability"] * row["expected_value"] for row in table.values()) == (
            r.expected_value)
        for outcome in ("win", "push", "loss"):
            assert sum(row["probability"] * row[outcome] for row in table.values()) == (
                getattr(r, outcome))


def test_the_draw_stage_memo_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    # New compositions never hit the memo: it must start afresh, not grow (issue 10).
    from odds.exact import engine

    monkeypatch.setattr(engine, "_MEMO_STAGES", 50)
    engine._MEMO.clear()
    one = Shoe.packs_of(1)
    most = 0
    for removed in ("Ah", "2c", "3d", "4s"):
        round_odds(BUILTIN["standard"], one.without(removed))
        stages = len(next(iter(engine._MEMO.values()))[0])
        most = max(most, stages)
        assert stages <= 50 + 3000  # what one evaluation of a full pack makes: ~2,900
    assert most > 50  # the bound was reached, and the memo started afresh
    for key in ("plain", "forced-draw", "super9", "standard", "punto-banco"):
        round_odds(BUILTIN[key], Shoe((1,) * 13))
    assert len(engine._MEMO) == engine._MEMO_RULES
    # The least recently used rule set went: plain, not standard (used again since).
    kept = {k[0].key for k in engine._MEMO}
    assert "standard" in kept and "plain" not in kept


def test_the_memo_bound_is_small() -> None:
    # At ~1.6 kB a stage: at most about 2 * (3,000 + 2,900) stages, ~20 MB (a test
    # process's memory, issue 10: it was 4 * (6,000 + 2,900), ~60 MB).
    from odds.exact import engine

    assert engine._MEMO_STAGES * engine._MEMO_RULES <= 6_000


def test_a_result_is_a_hashable_value() -> None:
    # Frozen results can be dict keys and graph nodes (STYLE.md), compared by identity.
    from odds.exact.engine import clear_rounds

    a = round_odds(BUILTIN["standard"], Shoe.packs_of(1))
    assert round_odds(BUILTIN["standard"], Shoe.packs_of(1)) is a  # asked again: kept
    clear_rounds()
    b = round_odds(BUILTIN["standard"], Shoe.packs_of(1))
    assert len({a: 1, b: 2}) == 2 and a == a and a != b
    assert a.outcome_counts == b.outcome_counts


def test_a_round_asked_again_is_the_one_counted_for_exactly_that_question() -> None:
    from odds.exact.engine import ROUNDS_HELD, ConditionError, clear_rounds

    clear_rounds()
    standard = BUILTIN["standard"]
    packs = round_odds(standard, Shoe.packs_of(1))
    counts = round_odds(standard, Shoe((4,) * 13))  # the same cards, another shoe: its label
    assert counts is not packs and counts.shoe.packs is None and packs.shoe.packs == 1
    assert counts.outcome_counts == packs.outcome_counts
    known = round_odds(standard, Shoe.packs_of(1), player="9h 9s")
    assert known is not packs and known.player_colon_nine == 1
    one = round_odds(standard, Shoe.packs_of(1), player_total=1)
    assert round_odds(standard, Shoe.packs_of(1), player_total=1) is one
    with pytest.raises(ConditionError, match="True is not a two-card value"):
        round_odds(standard, Shoe.packs_of(1), player_total=True)  # True == 1, but not a total
    from odds.rules.session_options import Session

    cut = replace(standard, session=Session(fee=Fraction(1, 20)))
    assert cut == standard  # a profile's session is not part of its equality ...
    with_cut = round_odds(cut, Shoe.packs_of(1))
    assert with_cut is not packs and with_cut.profile.session.fee == Fraction(1, 20)
    assert round_odds(cut, Shoe.packs_of(1)) is with_cut  # the equal profile's answer is kept
    plain_again = round_odds(standard, Shoe.packs_of(1))
    assert plain_again.profile.session.fee is None  # ... nor mixed
    assert round_odds(standard, Shoe.packs_of(1)) is plain_again  # and the last asker's is kept
    other = round_odds(BUILTIN["plain"], Shoe.packs_of(1))
    assert other is not packs and other.expected_value == 0
    # Bounded: ROUNDS_HELD other rounds later, the first is counted again.
    for n in range(ROUNDS_HELD):
        round_odds(standard, Shoe((4,) * 12 + (n + 1,)))
    again = round_odds(standard, Shoe.packs_of(1))
    assert again is not packs and again.outcome_counts == packs.outcome_counts


# -- a seat at a table of N players has the heads-up figures (fixed rules) -------------------------
# Brute force deals a whole table in the real order (two cards each, one at
# a time, bank last in each round; players draw in seat order, the bank
# last) from a small shoe, and compares every seat with the engine.

def deal_table(profile_key: str, counts: list[int], seats: int) -> list[Counter[str]]:
    """Outcome probabilities for each seat, dealing card by card."""
    profile = BUILTIN[profile_key]
    result: list[Counter[str]] = [Counter() for _ in range(seats)]
    c = list(counts)
    hands: list[list[int]] = [[] for _ in range(seats + 1)]  # last one is the bank
    order = [i for _ in range(2) for i in range(seats + 1)]

    def draws(rule: object, hand: list[int]) -> bool:
        v = (PIPS[hand[0]] + PIPS[hand[1]]) % 10
        return v not in profile.naturals and v in rule.draws  # type: ignore[attr-defined]

    def third(seat: int, weight: Fraction) -> None:
        if seat > seats:
            for s in range(seats):
                outcome, _ = settle(profile, hands[s], hands[seats])
                result[s][outcome] += weight
            return
        hand = hands[seat]
        rule = profile.bank_draw if seat == seats else profile.player_draw
        if draws(rule, hand):
            left = sum(c)
            for r in range(13):
                if c[r]:
                    p = Fraction(c[r], left)
                    c[r] -= 1
                    hand.append(r)
                    third(seat + 1, weight * p)
                    hand.pop()
                    c[r] += 1
        else:
            third(seat + 1, weight)

    def initial(k: int, weight: Fraction) -> None:
        if k == len(order):
            third(0, weight)
            return
        left = sum(c)
        for r in range(13):
            if c[r]:
                p = Fraction(c[r], left)
                c[r] -= 1
                hands[order[k]].append(r)
                initial(k + 1, weight * p)
                hands[order[k]].pop()
                c[r] += 1

    initial(0, Fraction(1))
    return result


# Few distinct ranks keep the whole-table enumeration small; these still give
# naturals, hands that stand and hands that draw.
SHOES = {
    2: [3, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 3],  # A 5 9 K, three each
    3: [0, 0, 4, 0, 0, 4, 0, 0, 0, 0, 0, 0, 4],  # 3 6 K, four each
}


@pytest.mark.parametrize("profile", halve("profile", ["standard", "forced-draw"]))  # CI: both
@pytest.mark.parametrize("seats", [2, 3])
def test_seat_figures_do_not_depend_on_position_or_table_size(profile: str, seats: int) -> None:
    counts = SHOES[seats]
    heads_up = round_odds(BUILTIN[profile], Shoe(tuple(counts)))
    for seat, got in enumerate(deal_table(profile, counts, seats)):
        assert sum(got.values()) == 1
        assert (got["win"], got["push"], got["loss"]) == (
            heads_up.win, heads_up.push, heads_up.loss), f"seat {seat} of {seats}"


@pytest.mark.parametrize("profile", [*[p for p in BUILTIN.values() if p.fixed],
                                     BUILTIN["standard"].with_options(naturals="compare"),
                                     BUILTIN["standard"].with_options(natural_values="7,8,9")],
                         ids=lambda p: p.key)
def test_runs_are_shared_only_where_settlement_cannot_tell_the_values_apart(profile: Profile) -> None:
    runs: dict[tuple[int, int], list[list[tuple[str, int, int]]]] = {}
    for pv in range(10):
        for bv in range(10):
            assert shared_runs(profile, pv, bv, runs) == category_runs(profile, pv, bv), (pv, bv)
    assert len(runs) == (len(profile.naturals) + 1) ** 2
