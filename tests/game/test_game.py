"""The family rules as a game: evaluation against brute force, solutions, tables.

The brute-force enumerators here deal every ordered card sequence of a small
shoe (or every value sequence of a small infinite shoe, weighted), apply the
strategies card by card as a dealer would, and share nothing with
odds.game.game: no value classes, no padding trick, no grouping by information
set.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import permutations, product
from math import perm

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from odds import BUILTIN, Shoe, parse_cards, round_odds
from odds.game.game import GameError, build_game, chemin_de_fer, hand_label
from odds.game.solve import solve_game
from odds.game.strategy import named_strategy
from odds.game.table import table_game
from tests.examples import examples, halve

FAMILY = BUILTIN["family"]
PIPS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]  # by rank index A..K, written out again
PROBS = [Fraction(0), Fraction(1), Fraction(1, 2), Fraction(1, 3), Fraction(3, 7)]

Info = Callable[[int, int], tuple[int, ...]]


def cards_info(a: int, b: int) -> tuple[int, ...]:
    return (min(a, b), max(a, b))


def totals_info(a: int, b: int) -> tuple[int, ...]:
    return ((a + b) % 10,)


def compare(pv: int, bv: int, pf: int, bf: int, naturals: set[int]) -> int:
    """+1 player wins, 0 push, -1 loss; a natural settles on two cards."""
    if pv in naturals or bv in naturals:
        mine = pv if pv in naturals else -1
        theirs = bv if bv in naturals else -1
    else:
        mine, theirs = pf, bf
    return (mine > theirs) - (mine < theirs)


def brute_play(
    deck: list[int], infinite_weights: list[int] | None, info: Info,
    player: dict[tuple[int, ...], Fraction], bank: dict[tuple[tuple[int, ...], str], Fraction],
    naturals: set[int], sees_third: bool = False,
) -> tuple[Fraction, Fraction, Fraction]:
    """P(win), P(push), P(loss) by dealing every sequence.

    ``deck``: point values of the cards (finite shoe, dealt without
    replacement, every ordered 6-card sequence equally likely); or, with
    ``infinite_weights``, the weight of each point value 0..9 (dealt with
    replacement).  The player's cards are dealt 1st and 3rd, the bank's 2nd
    and 4th, third cards in turn.
    """
    res = [Fraction(0)] * 3
    if infinite_weights is None:
        seqs = ((s, Fraction(1)) for s in permutations(deck, 6))
        count = perm(len(deck), 6)
    else:
        size = sum(infinite_weights)
        values = [v for v in range(10) if infinite_weights[v]]
        seqs = (
            (s, Fraction(
                infinite_weights[s[0]] * infinite_weights[s[1]] * infinite_weights[s[2]]
                * infinite_weights[s[3]] * infinite_weights[s[4]] * infinite_weights[s[5]],
                size**6))
            for s in product(values, repeat=6)
        )
        count = 1
    for seq, weight in seqs:
        p1, b1, p2, b2, c5, c6 = seq
        pv, bv = (p1 + p2) % 10, (b1 + b2) % 10
        if pv in naturals or bv in naturals:
            res[1 - compare(pv, bv, pv, bv, naturals)] += weight
            continue
        r = player.get(info(p1, p2))
        for p_draws, wp in ((True, r), (False, 1 - r)):
            if not wp:
                continue
            pf = (pv + c5) % 10 if p_draws else pv
            bank_card = c6 if p_draws else c5
            seen = ("third " + str(c5) if sees_third else "drew") if p_draws else "stood"
            q = bank[info(b1, b2), seen]
            for b_draws, wb in ((True, q), (False, 1 - q)):
                if not wb:
                    continue
                bf = (bv + bank_card) % 10 if b_draws else bv
                res[1 - compare(pv, bv, pf, bf, naturals)] += weight * wp * wb
    return res[0] / count, res[1] / count, res[2] / count


def random_pair(data: st.DataObject, game: object) -> tuple[dict, dict]:  # type: ignore[type-arg]
    from odds.game.game import Game

    assert isinstance(game, Game)
    player = {h: data.draw(st.sampled_from(PROBS)) for h in game.player_choices}
    bank = {s: data.draw(st.sampled_from(PROBS)) for s in game.bank_choices}
    return player, bank


SMALL_SHOES = [
    # 8 cards: ranks A 2 3 5 8 9 10 K (each once)
    (1, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 0, 1),
    # 8 cards with repeats: A A 4 4 9 10 J 5
    (2, 0, 0, 2, 1, 0, 0, 0, 1, 1, 1, 0, 0),
]


# cards on the distinct shoe by default; the shoe with repeats (its ranks repeated are
# also in test_finite_table_equals_brute_force's shoe) and totals in CI (slow)
@pytest.mark.parametrize("information, counts", [
    pytest.param(info, counts, id=f"{info}-{name}",
                 marks=[] if (info, name) == ("cards", "distinct") else [pytest.mark.slow])
    for name, counts in zip(["distinct", "repeats"], SMALL_SHOES, strict=True)
    for info in ["cards", "totals"]])
@settings(max_examples=examples(2, 6), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_evaluation_equals_brute_force_finite(
    counts: tuple[int, ...], information: str, data: st.DataObject
) -> None:
    game = build_game(FAMILY, Shoe(counts), information)
    player, bank = random_pair(data, game)
    deck = [PIPS[r] for r, c in enumerate(counts) for _ in range(c)]
    info = cards_info if information == "cards" else totals_info
    bp = {h: player[h] for h in player}
    bb = {s: bank[s] for s in bank}
    got = game.evaluate(player, bank)
    assert (got.win, got.push, got.loss) == brute_play(deck, None, info, bp, bb, {9})
    assert got.expected_value == got.win - got.loss


@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_evaluation_equals_brute_force_infinite_with_third_card_seen(
    data: st.DataObject,
) -> None:
    # An infinite shoe of three values; the bank sees the player's third card.
    weights = [3, 0, 0, 1, 0, 2, 0, 0, 0, 0]
    counts = (0, 0, 1, 0, 2, 0, 0, 0, 0, 3, 0, 0, 0)
    game = build_game(FAMILY, Shoe(counts, infinite=True), "totals", bank_sees_third=True)
    player, bank = random_pair(data, game)
    got = game.evaluate(player, bank)
    assert (got.win, got.push, got.loss) == brute_play(
        [], weights, totals_info, player, bank, {9}, sees_third=True
    )


def test_fixed_rules_agree_with_the_round_engine() -> None:
    # punto-banco's fixed rules (banker tableau: the bank sees the third card)
    # evaluated as a game with no choices left equal the engine's round odds.
    profile = BUILTIN["punto-banco"]
    for shoe in (Shoe.packs_of(1), Shoe.infinite_shoe()):
        game = build_game(profile, shoe, "cards")
        assert not game.player_choices and not game.bank_choices
        got = game.evaluate({}, {})
        want = round_odds(profile, shoe)
        assert (got.win, got.push, got.loss) == (want.win, want.push, want.loss)


def test_standard_rule_for_both_is_fair_and_worse_than_optimal() -> None:
    # Same fixed rule on both sides, no bonuses: symmetric, EV exactly 0.
    for shoe in (Shoe.packs_of(1), Shoe.packs_of(8), Shoe.infinite_shoe()):
        game = build_game(FAMILY, shoe, "cards")
        std_p = named_strategy("standard-rule", game, "player")
        std_b = named_strategy("standard-rule", game, "bank")
        assert std_p is not None and std_b is not None
        result = game.evaluate(std_p, std_b)
        assert result.expected_value == 0 and result.win == result.loss
        assert result.player_draws == result.bank_draws


SOLVED = [
    ("inf", "totals"), ("inf", "cards"), ("1", "totals"), ("1", "cards"), ("2", "totals"),
]


@pytest.fixture(scope="module")
def solved() -> dict[tuple[str, str], object]:
    out = {}
    for decks, info in SOLVED:
        shoe = Shoe.infinite_shoe() if decks == "inf" else Shoe.packs_of(int(decks))
        out[decks, info] = solve_game(build_game(FAMILY, shoe, info))
    return out


@pytest.mark.parametrize("case", halve("case", SOLVED), ids=["-".join(c) for c in SOLVED])
def test_equilibrium_is_exact(case: tuple[str, str], solved: dict) -> None:  # type: ignore[type-arg]
    eq = solved[case]
    game = eq.game
    assert eq.exploitability == 0
    assert eq.player_response == eq.value == eq.bank_response
    # Both strategies are probabilities, and the value is what they give.
    assert all(0 <= p <= 1 for p in [*eq.player.values(), *eq.bank.values()])
    assert game.evaluate(eq.player, eq.bank).expected_value == eq.value
    # The value lies between what each pure rule of thumb guarantees.
    for name in ["standard-rule", "never", "always", "draw-below:3", "draw-below:7"]:
        p = named_strategy(name, game, "player")
        b = named_strategy(name, game, "bank")
        assert p is not None and b is not None
        assert game.bank_best_response(p)[1] <= eq.value <= game.player_best_response(b)[1]
        assert game.evaluate(p, eq.bank).expected_value <= eq.value
        assert game.evaluate(eq.player, b).expected_value >= eq.value
    # The bank has the edge: the player moves first and shows whether he drew.
    assert eq.value < 0


def test_infinite_shoe_cards_and_totals_agree(solved: dict) -> None:  # type: ignore[type-arg]
    # With replacement, which cards make a total tells nothing more.
    assert solved["inf", "cards"].value == solved["inf", "totals"].value


def test_a_mixed_solution_is_an_exact_fraction(solved: dict) -> None:  # type: ignore[type-arg]
    eq = solved["inf", "totals"]
    mixed = {hand_label(h): p for h, p in eq.player.items() if 0 < p < 1}
    assert list(mixed) == ["5"] and mixed["5"].denominator > 1


def test_chemin_de_fer_kemeny_snell() -> None:
    # Kemeny & Snell, "Game-theoretic solution of baccarat", Amer. Math.
    # Monthly 64 (1957) 465-469: under their model (infinite shoe, player
    # draws 0-4, stands 6-7, chooses on 5; banker sees the player's third
    # card) the player should draw on 5 with probability 9/11.
    eq = solve_game(chemin_de_fer())
    assert {hand_label(h): p for h, p in eq.player.items()} == {"5": Fraction(9, 11)}
    assert eq.exploitability == 0
    # The exact value our solver finds (the banker's edge, about 1.28 %).
    assert eq.value == Fraction(-679568, 53094899)
    # The banker's choices at the player's 5 matter: he mixes somewhere.
    assert any(0 < p < 1 for p in eq.bank.values())


def test_family_sheet_worked_example() -> None:
    # rules-fr-family.txt, section 06: « Vos 8♥ 7♠ font 15, valeur 5. Banque
    # A♣ 6♦ fait 7. Aucun naturel. Choisissez une troisième : 4♦ donne somme
    # 19, valeur 9. Banque reste à 7 ; vous gagnez. Mise 2 : restitution 2
    # plus gain 2, total 4. Tirer plutôt 7♦ donnerait somme 22, valeur 2 et
    # défaite. »
    player, bank = parse_cards("8h 7s"), parse_cards("Ac 6d")
    for third, win, loss in (("4d", 1, 0), ("7d", 0, 1)):
        # A shoe of the four dealt cards and two of the card drawn: after the
        # deal the player's third card can only be that card.
        counts = [0] * 13
        for card in (*player, *bank, *parse_cards(f"{third} {third}")):
            counts[card.rank.index] += 1
        game = build_game(FAMILY, Shoe(tuple(counts)), "cards",
                          player_cards=player, bank_cards=bank)
        always = named_strategy("always", game, "player")
        never = named_strategy("never", game, "bank")
        assert always is not None and never is not None
        result = game.evaluate(always, never)
        assert (result.win, result.loss) == (win, loss)
        stake = 2
        assert stake + stake * result.expected_value == (4 if win else 0)
    # From the full pack: the player's 5 drawing against a standing 7 wins on
    # a 3 or a 4 (8 of the 48 cards left), pushes on a 2.
    game = build_game(FAMILY, Shoe.packs_of(1), "cards", player_cards=player, bank_cards=bank)
    always = named_strategy("always", game, "player")
    never = named_strategy("never", game, "bank")
    assert always is not None and never is not None
    result = game.evaluate(always, never)
    assert (result.win, result.push) == (Fraction(8, 48), Fraction(4, 48))


def test_game_refuses_what_it_cannot_model() -> None:
    with pytest.raises(ValueError, match="Colon bonuses"):
        build_game(BUILTIN["standard"], Shoe.packs_of(1))
    with pytest.raises(GameError, match="not an information model"):
        build_game(FAMILY, Shoe.packs_of(1), "suits")
    with pytest.raises(GameError, match="two cards or none"):
        build_game(FAMILY, Shoe.packs_of(1), player_cards=parse_cards("8h"))


# -- a table of N players (infinite shoe) ---------------------------------------


def brute_table(
    weights: list[int], players: int, own: dict, others: dict, bank: dict  # type: ignore[type-arg]
) -> Fraction:
    """Seat 1's EV at a table, dealing every value sequence (with replacement).

    Every player's two cards, the bank's two, then every player's third card
    and the bank's, all enumerated; the bank sees (k drew, n non-natural).
    """
    size = sum(weights)
    values = [v for v in range(10) if weights[v]]
    total = Fraction(0)
    hands = list(product(values, repeat=2))
    for deal in product(hands, repeat=players + 1):
        w = Fraction(1)
        for a, b in deal:
            w *= Fraction(weights[a] * weights[b], size * size)
        *seats, (b1, b2) = deal
        bv = (b1 + b2) % 10
        pvs = [(a + b) % 10 for a, b in seats]
        if bv == 9 or pvs[0] == 9:  # settled at once, whatever the others do
            total += w * compare(pvs[0], bv, pvs[0], bv, {9})
            continue
        # Each non-natural seat draws or not.
        live = [i for i, v in enumerate(pvs) if v != 9]
        for acts in product([True, False], repeat=len(live)):
            wa = w
            for i, act in zip(live, acts, strict=True):
                r = (own if i == 0 else others)[(pvs[i],)]
                wa *= r if act else 1 - r
            if not wa:
                continue
            k, n = sum(acts), len(live)
            q = bank[(bv,), k, n]
            drew = dict(zip(live, acts, strict=True))
            for b_act, wb in ((True, q), (False, 1 - q)):
                if not wb:
                    continue
                # Seat 1's third card and the bank's: only those matter to seat 1.
                for x, y in product(values, repeat=2):
                    wx = Fraction(weights[x] * weights[y], size * size)
                    pf = (pvs[0] + x) % 10 if drew.get(0) else pvs[0]
                    bf = (bv + y) % 10 if b_act else bv
                    total += wa * wb * wx * compare(pvs[0], bv, pf, bf, {9})
    return total


@settings(max_examples=examples(2, 4), deadline=None)
@given(data=st.data(), players=st.sampled_from([1, 2]))
def test_table_seat_equals_brute_force(data: st.DataObject, players: int) -> None:
    weights = [2, 0, 0, 1, 0, 0, 1, 0, 0, 1]
    counts = (0, 0, 1, 0, 0, 1, 0, 0, 1, 2, 0, 0, 0)
    table = table_game(FAMILY, players, "totals", Shoe(counts, infinite=True))
    own = {h: data.draw(st.sampled_from(PROBS)) for h in table.game.player_choices}
    others = {h: data.draw(st.sampled_from(PROBS)) for h in table.game.player_choices}
    bank = {s: data.draw(st.sampled_from(PROBS)) for s in table.bank_sets}
    got = table.seat_result(own, others, bank)
    assert got.expected_value == brute_table(weights, players, own, others, bank)


def test_table_of_one_is_heads_up(solved: dict) -> None:  # type: ignore[type-arg]
    eq = solved["inf", "totals"]
    table = table_game(FAMILY, 1, "totals")
    bank = {(h, k, n): eq.bank[h, "drew" if k else "stood"] for h, k, n in table.bank_sets}
    assert table.seat_result(eq.player, eq.player, bank).expected_value == eq.value
    assert table.bank_best_response(eq.player)[1] == eq.value


@settings(max_examples=examples(3, 8), deadline=None)
@given(data=st.data(), players=st.integers(2, 5))
def test_table_best_responses_are_best(data: st.DataObject, players: int) -> None:
    table = table_game(FAMILY, players, "totals")
    own = {h: data.draw(st.sampled_from(PROBS)) for h in table.game.player_choices}
    bank = {s: data.draw(st.sampled_from(PROBS)) for s in table.bank_sets}
    best_bank, value = table.bank_best_response(own)
    assert value <= table.seat_result(own, own, bank).expected_value
    best_seat, seat_value = table.player_best_response(own, bank)
    assert seat_value >= table.seat_result(own, own, bank).expected_value
    assert seat_value == table.seat_result(best_seat, own, bank).expected_value


# -- a table on a finite shoe: every hand counted jointly --------------------------


def brute_finite_table(
    deck: list[int], info: Info, own: dict, others: dict, bank: dict  # type: ignore[type-arg]
) -> tuple[Fraction, Fraction, Fraction]:
    """Seat 1's P(win/push/loss) at a table of 2, dealing every order of ``deck``.

    Seat 1, seat 2 and the bank get two cards each; then seat 1 takes the
    next card if it draws, seat 2 the next if it draws, the bank the next.
    """
    res = [Fraction(0)] * 3
    count = perm(len(deck))
    for seq, mult in orderings(deck):
        s1, s2, bk = seq[0:2], seq[2:4], seq[4:6]
        pv, ov, bv = sum(s1) % 10, sum(s2) % 10, sum(bk) % 10
        if pv == 9 or bv == 9:
            res[1 - compare(pv, bv, pv, bv, {9})] += mult
            continue
        r1 = own[info(*s1)]
        r2 = others[info(*s2)] if ov != 9 else Fraction(0)
        for d1, w1 in ((True, r1), (False, 1 - r1)):
            for d2, w2 in ((True, r2), (False, 1 - r2)):
                w = w1 * w2
                if not w:
                    continue
                nxt = 6
                pf = pv
                if d1:
                    pf = (pv + seq[nxt]) % 10
                    nxt += 1
                if d2:
                    nxt += 1
                n = 1 + (ov != 9)
                q = bank[info(*bk), d1 + d2, n]
                for db, wb in ((True, q), (False, 1 - q)):
                    if not wb:
                        continue
                    bf = (bv + seq[nxt]) % 10 if db else bv
                    res[1 - compare(pv, bv, pf, bf, {9})] += mult * w * wb
    return res[0] / count, res[1] / count, res[2] / count


def orderings(deck: list[int]) -> list[tuple[tuple[int, ...], int]]:
    """Every distinct order of the values in ``deck``, with how many card orders give it."""
    from collections import Counter

    counts = Counter(deck)
    out: list[tuple[tuple[int, ...], int]] = []

    def walk(prefix: list[int], mult: int) -> None:
        if len(prefix) == len(deck):
            out.append((tuple(prefix), mult))
            return
        for v in list(counts):
            if counts[v]:
                counts[v] -= 1
                walk([*prefix, v], mult * (counts[v] + 1))
                counts[v] += 1

    walk([], 1)
    return out


@pytest.mark.parametrize("information", [pytest.param("totals", marks=pytest.mark.slow), "cards"])
@settings(max_examples=examples(2, 3), deadline=None)
@given(data=st.data())
def test_finite_table_equals_brute_force(information: str, data: st.DataObject) -> None:
    # 9 cards: A A 4 5 5 9 10 K K (values 1 1 4 5 5 9 0 0 0)
    counts = (2, 0, 0, 1, 2, 0, 0, 0, 1, 1, 0, 0, 2)
    deck = [PIPS[r] for r, c in enumerate(counts) for _ in range(c)]
    table = table_game(FAMILY, 2, information, Shoe(counts))
    own = {h: data.draw(st.sampled_from(PROBS)) for h in table.game.player_choices}
    others = {h: data.draw(st.sampled_from(PROBS)) for h in table.game.player_choices}
    bank = {s: data.draw(st.sampled_from(PROBS)) for s in table.bank_sets}
    got = table.seat_result(own, others, bank)
    info = cards_info if information == "cards" else totals_info
    assert (got.win, got.push, got.loss) == brute_finite_table(deck, info, own, others, bank)


def test_finite_table_of_one_is_heads_up(solved: dict) -> None:  # type: ignore[type-arg]
    eq = solved["1", "cards"]
    table = table_game(FAMILY, 1, "cards", Shoe.packs_of(1))
    bank = {(h, k, n): eq.bank[h, "drew" if k else "stood"] for h, k, n in table.bank_sets}
    assert table.seat_result(eq.player, eq.player, bank) == eq.game.evaluate(eq.player, eq.bank)
    assert table.bank_best_response(eq.player)[1] == eq.value


def test_finite_table_limits() -> None:
    with pytest.raises(GameError, match="exact finite-shoe tables stop at 2 players"):
        table_game(FAMILY, 3, "totals", Shoe.packs_of(1))
