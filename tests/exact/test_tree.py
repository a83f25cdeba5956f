"""The probability tree, checked against the engine, invariants and brute force.

The brute force below deals cards as at the table (each hand's third card
is the next card of the shoe) and settles with rules written out here; it
shares nothing with the code under test.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from odds import BUILTIN, ConditionError, ProfileError, Shoe, round_odds
from odds.exact.removal import removal_effects
from odds.exact.tree import Node, Stage, leaf_counts, probability_tree, subtree
from tests.examples import examples, halve

FIXED = [key for key, p in BUILTIN.items() if p.fixed]

# -- brute force -----------------------------------------------------------------

POINT = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]  # A..K


def _sequences(counts: list[int], k: int):
    if k == 0:
        yield (), 1
        return
    for r, c in enumerate(counts):
        if c:
            counts[r] -= 1
            for rest, w in _sequences(counts, k - 1):
                yield (r, *rest), w * c
            counts[r] += 1


def _colon(r1: int, r2: int) -> int:
    return 0 if r1 != r2 else (2 if r1 == 8 else 1)


def _baccarat_bank(bv: int, x: int | None) -> bool:
    if x is None:
        return bv <= 5
    return (bv <= 2 or (bv == 3 and x != 8) or (bv == 4 and 2 <= x <= 7)
            or (bv == 5 and 4 <= x <= 7) or (bv == 6 and x in (6, 7)))


def brute(counts, profile_key: str):
    """{(pv, pcol, bv, bcol, x, y): [count, outcome, payout]} by dealing every order."""
    out: dict = {}
    for seq, w in _sequences(list(counts), 6):
        pv = (POINT[seq[0]] + POINT[seq[1]]) % 10
        bv = (POINT[seq[2]] + POINT[seq[3]]) % 10
        pcol, bcol = _colon(seq[0], seq[1]), _colon(seq[2], seq[3])
        nxt = 4
        x = y = None
        if profile_key == "punto-banco":
            if pv < 8 and bv < 8:
                if pv <= 5:
                    x = POINT[seq[nxt]]
                    nxt += 1
                if _baccarat_bank(bv, x):
                    y = POINT[seq[nxt]]
        else:  # standard: naturals 8, 9 never draw; 0-5 draw; 6, 7 stand
            if pv <= 5:
                x = POINT[seq[nxt]]
                nxt += 1
            if bv <= 5:
                y = POINT[seq[nxt]]
        pf = pv if x is None else (pv + x) % 10
        bf = bv if y is None else (bv + y) % 10
        if profile_key == "standard" and (pv >= 8 or bv >= 8):
            mine, theirs = (pv if pv >= 8 else -1), (bv if bv >= 8 else -1)
        else:
            mine, theirs = pf, bf
        if mine > theirs:
            outcome = "win"
            pay = Fraction(1)
            if profile_key == "standard" and pcol:
                pay = Fraction(3 if pcol == 2 else 2)
        elif mine == theirs:
            outcome, pay = "push", Fraction(0)
        else:
            outcome, pay = "loss", Fraction(-1)
        key = (pv, pcol, bv, bcol, x, y)
        row = out.setdefault(key, [0, outcome, pay])
        assert row[1:] == [outcome, pay]
        row[0] += w
    return out


SMALL = (2, 0, 2, 0, 1, 0, 0, 2, 2, 0, 0, 1, 3)  # A A 3 3 5 8 8 9 9 Q K K K


@pytest.mark.parametrize("key", ["standard", "punto-banco"])
def test_tree_leaves_match_brute_force(key):
    shoe = Shoe(SMALL)
    expected = brute(SMALL, key)
    assert leaf_counts(BUILTIN[key], shoe) == {k: v[0] for k, v in expected.items()}
    tree = probability_tree(BUILTIN[key], shoe)
    total = sum(v[0] for v in expected.values())
    leaves = {(n.player, n.player_colon, n.bank, n.bank_colon, n.player_third, n.bank_third):
              (d["count"], d["outcome"], d["payout"])
              for n, d in tree.nodes(data=True) if n.stage == Stage.OUTCOME}
    assert leaves == {k: tuple(v) for k, v in expected.items()}
    root = tree.nodes[Node(Stage.DEAL)]
    assert root["expected_value"] == sum(v[0] * v[2] for v in expected.values()) / total
    for outcome in ("win", "push", "loss"):
        assert root[outcome] == Fraction(
            sum(v[0] for v in expected.values() if v[1] == outcome), total)


tiny_shoes = st.lists(st.sampled_from([0, 0, 0, 0, 0, 1, 2]), min_size=13, max_size=13).filter(
    lambda c: 6 <= sum(c) <= 9)


@settings(max_examples=examples(8, 25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts=tiny_shoes, key=st.sampled_from(["standard", "punto-banco"]))
def test_tree_leaves_match_brute_force_on_any_tiny_shoe(counts, key):
    expected = brute(counts, key)
    assert leaf_counts(BUILTIN[key], Shoe(tuple(counts))) == {k: v[0] for k, v in expected.items()}
    tree = probability_tree(BUILTIN[key], Shoe(tuple(counts)))
    total = sum(v[0] for v in expected.values())
    root = tree.nodes[Node(Stage.DEAL)]
    assert root["expected_value"] == sum(v[0] * v[2] for v in expected.values()) / total


def test_conditional_by_value_matches_brute_force():
    from odds.exact.conditional import conditional_table

    expected = brute(SMALL, "standard")
    table = conditional_table(round_odds(BUILTIN["standard"], Shoe(SMALL)), "pair")
    total = sum(v[0] for v in expected.values())
    for row in table:
        mine = [v for k, v in expected.items() if (k[0], k[2]) == row.values]
        n = sum(v[0] for v in mine)
        assert row.probability == Fraction(n, total)
        assert row.win == Fraction(sum(v[0] for v in mine if v[1] == "win"), n)
        assert row.expected_value == sum(v[0] * v[2] for v in mine) / n
    assert len(table) == len({(k[0], k[2]) for k in expected})


def _brute_ev_win(counts):
    rows = brute(counts, "standard").values()
    total = sum(v[0] for v in rows)
    ev = sum(v[0] * v[2] for v in rows) / total
    return ev, Fraction(sum(v[0] for v in rows if v[1] == "win"), total)


def test_removal_effects_match_brute_force():
    counts = (0, 0, 2, 0, 1, 0, 0, 2, 1, 0, 0, 0, 3)  # 3 3 5 8 8 9 K K K
    shoe = Shoe(counts)
    ev0, win0 = _brute_ev_win(counts)
    effects = removal_effects(BUILTIN["standard"], shoe)
    assert [e.rank.index for e in effects] == [i for i, c in enumerate(counts) if c]
    for e in effects:
        less = list(counts)
        less[e.rank.index] -= 1
        ev, win = _brute_ev_win(less)
        assert (e.ev_change, e.win_change) == (ev - ev0, win - win0)


# -- agreement with the engine -----------------------------------------------------


def _check_against_engine(tree, result):
    outcome_counts: Counter = Counter()
    player_final = [0] * 10
    bank_final = [0] * 10
    leaf_sum = Fraction(0)
    for node, data in tree.nodes(data=True):
        if node.stage == Stage.OUTCOME:
            outcome_counts[node.player, node.bank, node.player_colon, node.bank_colon,
                           node.outcome] += data["count"]
            leaf_sum += data["probability"]
        if node.stage == Stage.BANK_DRAW:
            player_final[node.player_final] += data["count"]
            bank_final[node.bank_final] += data["count"]
    assert leaf_sum == 1
    assert dict(outcome_counts) == dict(result.outcome_counts)
    assert tuple(player_final) == result.player_final_counts
    assert tuple(bank_final) == result.bank_final_counts
    root = tree.nodes[Node(Stage.DEAL)]
    assert root["count"] == result.total == tree.graph["total"]
    assert (root["win"], root["push"], root["loss"]) == (result.win, result.push, result.loss)
    assert root["expected_value"] == result.expected_value
    firsts = [(n, d) for n, d in tree.nodes(data=True) if n.stage == Stage.PLAYER_CARDS]
    assert sum(d["probability"] for n, d in firsts if n.player_colon) == result.player_colon
    assert sum(d["probability"] for n, d in firsts if n.player_colon == 2) == \
        result.player_colon_nine
    banks = [(n, d) for n, d in tree.nodes(data=True) if n.stage == Stage.BANK_CARDS]
    assert sum(d["probability"] for n, d in banks if n.bank_colon) == result.bank_colon
    assert sum(d["probability"] for n, d in banks if n.bank_colon == 2) == result.bank_colon_nine
    draws = [(n, d) for n, d in tree.nodes(data=True) if n.stage == Stage.PLAYER_DRAW]
    assert sum(d["probability"] for n, d in draws if n.player_third is not None) == \
        result.player_draws
    bank_draws = [(n, d) for n, d in tree.nodes(data=True) if n.stage == Stage.BANK_DRAW]
    assert sum(d["probability"] for n, d in bank_draws if n.bank_third is not None) == \
        result.bank_draws


def _check_invariants(tree):
    for node, data in tree.nodes(data=True):
        children = list(tree.successors(node))
        if children:
            assert sum(tree.edges[node, c]["probability"] for c in children) == 1, node
            assert sum(tree.nodes[c]["count"] for c in children) == data["count"]
        if node.stage:
            (parent,) = tree.predecessors(node)
            assert parent == node.parent()
            assert data["probability"] == (
                tree.nodes[parent]["probability"] * tree.edges[parent, node]["probability"])
        assert data["win"] + data["push"] + data["loss"] == 1
        assert data["stage"] == node.stage.label


# standard (bonuses) and punto-banco by default; the other fixed profiles in CI (slow)
@pytest.mark.parametrize("key, decks", [
    pytest.param(key, decks, id=f"{key}-{decks}",
                 marks=[] if key in ("standard", "punto-banco") else [pytest.mark.slow])
    for key in FIXED for decks in (1, 8)])
def test_tree_agrees_with_engine(key, decks):
    shoe = Shoe.packs_of(decks)
    tree = probability_tree(BUILTIN[key], shoe)
    _check_against_engine(tree, round_odds(BUILTIN[key], shoe))


def test_tree_invariants_standard_8_packs():
    _check_invariants(probability_tree(BUILTIN["standard"], Shoe.packs_of(8)))


def test_family_has_no_fixed_tree():
    with pytest.raises(ValueError, match="no fixed draw rule"):
        probability_tree(BUILTIN["family"])


@pytest.mark.parametrize(
    "conditions",
    halve("conditions", [  # half by default, all in CI
        {"player": "8h 7s", "bank": "Ac 6d"},
        {"player": "8h 7s 4d", "bank": "Ac 6d"},
        {"removed": "5 5 5 9 9 K"},
        {"player_total": 5},
        {"player_total": 0, "bank_total": 7},
        {"bank": "K"},
    ]),
    ids=["known-two", "known-third", "removed", "player-total", "both-totals", "one-card"],
)
@pytest.mark.parametrize("key", ["standard", pytest.param("punto-banco", marks=pytest.mark.slow)])
def test_tree_conditions_agree_with_engine(key, conditions):
    tree = probability_tree(BUILTIN[key], Shoe.packs_of(1), **conditions)
    _check_invariants(tree)
    _check_against_engine(tree, round_odds(BUILTIN[key], Shoe.packs_of(1), **conditions))


def test_tree_infinite_shoe():
    shoe = Shoe.infinite_shoe()
    tree = probability_tree(BUILTIN["super9"], shoe)
    _check_against_engine(tree, round_odds(BUILTIN["super9"], shoe))


# Small shoes with few ranks, so that each example builds a small tree quickly.
shoes = st.lists(st.sampled_from([0, 0, 0, 0, 1, 2, 3]), min_size=13, max_size=13).filter(
    lambda c: sum(c) >= 6)


@settings(max_examples=examples(4, 12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts=shoes, key=st.sampled_from(FIXED), total=st.none() | st.integers(0, 9),
       depth=st.integers(0, 5))
def test_tree_properties(counts, key, total, depth):
    shoe = Shoe(tuple(counts))
    try:
        result = round_odds(BUILTIN[key], shoe, player_total=total)
    except ConditionError:
        with pytest.raises(ConditionError):
            probability_tree(BUILTIN[key], shoe, player_total=total)
        return
    full = probability_tree(BUILTIN[key], shoe, player_total=total)
    _check_invariants(full)
    _check_against_engine(full, result)
    cut = probability_tree(BUILTIN[key], shoe, player_total=total, depth=depth)
    assert set(cut) == {n for n in full if n.stage <= depth}
    assert set(cut.edges) == {(u, v) for u, v in full.edges if v.stage <= depth}
    assert all(cut.nodes[n] == full.nodes[n] for n in cut)


# -- nodes and bad input --------------------------------------------------------------


def test_node_repr_round_trips():
    node = Node(Stage.OUTCOME, 8, 2, True, 3, 0, False, None, 4, "win_natural_8")
    assert repr(node) == (
        "Node(Stage.OUTCOME, player=8, player_colon=2, player_natural=True, bank=3, "
        "player_third=None, bank_third=4, outcome='win_natural_8')")
    assert eval(repr(node)) == node and hash(eval(repr(node))) == hash(node)


def test_nodes_are_readable_hashable_states():
    tree = probability_tree(BUILTIN["standard"], Shoe.packs_of(8), depth=2)
    node = Node(Stage.BANK_CARDS, player=8, player_natural=True, player_colon=2,
                bank=0, bank_colon=1)
    assert node in tree and node.key == "P8c9/B0c"
    assert tree.nodes[node]["label"] == "bank 0 Colon"
    assert Node(Stage.PLAYER_CARDS, 8, 2, True).label == "player 8 natural, Colon nine"
    assert tree.number_of_nodes() == 1 + 16 + 16 * 16
    assert {node.key: node for node in tree}["P8c9/B0c"] == node


def test_subtree():
    tree = probability_tree(BUILTIN["standard"], Shoe.packs_of(1))
    part = subtree(tree, "P5/B3", 1)
    assert {n.key for n in part} == {"P5/B3"} | {f"P5/B3/p{x}" for x in range(10)}
    with pytest.raises(ValueError, match="'Q5' is not a node"):
        subtree(tree, "Q5")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"depth": -1}, "a tree depth is a whole number, 0 or more"),
        ({"player_total": 10}, "10 is not a two-card value for the player"),
        ({"shoe": Shoe((0, 0, 0, 0, 4, 0, 0, 0, 0, 4, 0, 0, 0)), "player_total": 3},
         "no deal under profile 'standard'"),
        ({"player": "8h 7s 4d", "bank": "8c"}, None),  # legal: player stands? 5 draws
        ({"player": "Kh 7s 4d"}, "no deal under profile"),  # a 7 stands, so no third card
    ],
    ids=["depth", "total-10", "shoe-cannot", "fine", "third-card-on-7"],
)
def test_bad_input(kwargs, message):
    if message is None:
        probability_tree(BUILTIN["standard"], **kwargs)
        return
    with pytest.raises(ValueError, match=message):
        probability_tree(BUILTIN["standard"], **kwargs)


def test_profile_error_is_value_error():
    assert issubclass(ProfileError, ValueError)
