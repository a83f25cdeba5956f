"""Every bet through the shoe: the batch engine's bet columns against the references.

The references are the event enumerator (:func:`odds.exact.bets.bet_odds`,
itself checked against a brute force over physical cards in test_bets.py)
and :func:`odds.exact.engine.round_odds`; the suit model is checked against
a brute force over the physical cards of one rank, and against the
enumerator averaged over the suits of the cards that left the shoe.
"""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from itertools import combinations, permutations, product

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cli import main
from odds import BUILTIN, Shoe, round_odds
from odds.exact.bet_table import COLON_SHARE, SuitModel, bet_set, bet_table, check_countable
from odds.exact.bets import bet_odds
from odds.exact.deal import shuffled_shoe
from odds.exact.rounds import deal_rounds
from odds.money.counting import CountSystem, count_study, kernel
from odds.money.counting import study as counting
from odds.report.count_report import count_data
from odds.rules.bet_files import bet_from_data
from odds.rules.bet_library import resolve_bets
from odds.rules.bets import bet_payout, profile_bets
from odds.rules.cards import RANKS, Card, Suit
from odds.rules.errors import BetError
from tests.bets_brute import CUSTOM
from tests.examples import examples
from tests.paths import ROOT

PROFILES = ["punto-banco", "ez-baccarat", "standard", "super9"]


def _compositions(rng: random.Random, n: int) -> list[tuple[int, int | None, list[int]]]:
    """(packs, packs for the suit model, counts): near-exhausted single packs, 2, 8, 100 packs."""
    out: list[tuple[int, int | None, list[int]]] = []
    for i in range(n):
        packs = (1, 1, 2, 8, 100)[i % 5]
        full = [4 * packs] * 13
        if packs == 1:  # near-exhausted: 6 to 14 cards left
            keep = rng.randint(6, 14)
            cards = [r for r in range(13) for _ in range(4)]
            rng.shuffle(cards)
            counts = [0] * 13
            for r in cards[:keep]:
                counts[r] += 1
        else:
            gone = rng.randint(0, 52 * packs - 6 if packs < 8 else 40 * packs)
            counts = list(full)
            for _ in range(gone):
                r = rng.choice([k for k in range(13) if counts[k]])
                counts[r] -= 1
        out.append((packs, packs, counts))
    return out


def _by_rank(bets: list) -> list:  # type: ignore[type-arg]
    return [b for b in bets if not b.uses_suits]


def _check_against_enumerator(key: str, n: int, seed: int) -> int:
    """Each bet's columns on n compositions: the main bets (player, banker, tie) against
    round_odds, every other bet against bet_odds, entry by entry."""
    profile = BUILTIN[key]
    bets = _by_rank(list(profile_bets(profile).values()))
    main_bets = [b for b in bets if b.name in ("player", "banker", "tie")]
    side = [b for b in bets if b not in main_bets]
    table = bet_table(profile, bets)
    cases = _compositions(random.Random(seed), n)
    got = table.counts([c for _, _, c in cases])
    checked = 0
    for i, (_, _, counts) in enumerate(cases):
        shoe = Shoe(tuple(counts))
        reference = round_odds(profile, shoe)
        for bet in main_bets:
            assert got.expected_values(bet.name)[i] == reference.bet_moments(bet.name)[0], (
                key, bet.name, i)
            checked += 1
        want = bet_odds(profile, shoe, side) if side else {}
        for bet in side:
            mine = got.entry_counts(bet.name)[i]
            total = sum(mine)
            theirs = want[bet.name]
            assert [c / total for c in mine] == [Fraction(c, theirs.total)
                                                 for c in theirs.entry_counts], (key, bet.name, i)
            assert got.expected_values(bet.name)[i] == theirs.expected_value
            checked += 1
    return checked


@pytest.mark.parametrize("key", [k if k == "standard" else pytest.param(k, marks=pytest.mark.slow)
                                 for k in PROFILES])  # the other profiles: long twins (CI)
def test_every_bet_by_rank_equals_the_enumerator(key: str) -> None:
    """A quick run: 10 compositions a profile (1, 2, 8 and 100 packs)."""
    assert _check_against_enumerator(key, 10, seed=len(key)) >= 10


@pytest.mark.slow
@pytest.mark.parametrize("key", PROFILES)
def test_every_bet_by_rank_equals_the_enumerator_on_80_compositions(key: str) -> None:
    """320 compositions in all (80 a profile), every bet of the four profiles by rank (the
    fast twin above draws 10 a profile; 80 covers every bet's pay lines many times over)."""
    assert _check_against_enumerator(key, 80, seed=1000 + len(key)) >= 80


@pytest.mark.parametrize("key", [k if k in ("standard", "punto-banco")
                                 else pytest.param(k, marks=pytest.mark.slow) for k in PROFILES])
def test_every_bet_on_fresh_and_infinite_shoes_equals_the_enumerator(key: str) -> None:
    profile = BUILTIN[key]
    bets = list(profile_bets(profile).values())
    table = bet_table(profile, bets)
    for shoe in (Shoe.packs_of(1), Shoe.packs_of(8), Shoe.infinite_shoe()):
        got = table.counts([list(shoe.counts)], infinite=shoe.infinite, packs=shoe.packs)
        want = bet_odds(profile, shoe, bets)
        for bet in bets:
            assert got.expected_values(bet.name)[0] == want[bet.name].expected_value, (
                key, bet.name, shoe.label)
            assert got.variance(bet.name, 0) == want[bet.name].variance


@pytest.mark.parametrize("key", [pytest.param("punto-banco", marks=pytest.mark.slow), "standard"])
def test_a_profile_file_bet_of_each_event_kind_equals_the_enumerator(key: str) -> None:
    profile = BUILTIN[key]
    bets = [bet_from_data(f"custom-{i}", {"pay": [{**events, "pays": pays}]}, "test.toml")
            for i, (events, pays, _) in enumerate(CUSTOM)]
    bets.append(bet_from_data("colon-kind", {"pay": [{"player_pair": "colon", "pays": 4},
                                                     {"banker_pair": "rank", "pays": 2}]},
                              "test.toml"))
    table = bet_table(profile, bets)
    rng = random.Random(7)
    # 3 random compositions by default, 10 in CI (LUCKY9_SLOW=1)
    cases = [(p, c) for p, _, c in _compositions(rng, examples(3, 10))] + [(8, [32] * 13)]
    for packs, counts in cases:
        got = table.counts([counts], packs=packs)
        shoe = Shoe.packs_of(packs) if counts == [4 * packs] * 13 else Shoe(tuple(counts))
        if any(b.uses_suits for b in bets) and shoe.packs is None:
            by_rank = [b for b in bets if not b.uses_suits]
        else:
            by_rank = bets
        want = bet_odds(profile, shoe, by_rank)
        for bet in by_rank:
            assert got.expected_values(bet.name)[0] == want[bet.name].expected_value, (
                bet.name, counts)


def test_a_pair_of_one_ten_card_rank_cannot_be_a_column() -> None:
    bet = bet_from_data("king-pair", {"pay": [{"player_pair": "K", "pays": 30}]}, "t.toml")
    with pytest.raises(BetError, match="10, J, Q and K"):
        check_countable(bet)
    with pytest.raises(BetError, match="king-pair"):
        bet_table(BUILTIN["punto-banco"], [bet])
    nines = bet_from_data("nine-pair", {"pay": [{"player_pair": "9", "pays": 30}]}, "t.toml")
    check_countable(nines)  # a pair of a rank A..9 is fine


# -- suits --------------------------------------------------------------------------------


@pytest.mark.parametrize("packs", [1, 2, 3, 4])
def test_suit_model_against_the_cards_of_one_rank(packs: int) -> None:
    """Ordered draws of 2 and 4 cards from the 4k cards of one rank, counted one by one."""
    cards = [s for s in range(4) for _ in range(packs)]
    two = list(permutations(range(len(cards)), 2))
    same = sum(cards[a] == cards[b] for a, b in two)
    model = SuitModel(packs)
    assert model.single == Fraction(same, len(two))
    four = list(permutations(range(len(cards)), 4))
    both = sum(cards[a] == cards[b] and cards[c] == cards[d] for a, b, c, d in four)
    assert model.both == Fraction(both, len(four))
    for kind in range(5):
        assert sum(model.scenarios(kind)) == 1


def test_suit_model_of_the_infinite_shoe() -> None:
    assert (SuitModel(None).single, SuitModel(None).both) == (Fraction(1, 4), Fraction(1, 16))


def _unseen_average(profile, bet, packs: int, removed: list[int]) -> Fraction:  # type: ignore[no-untyped-def]
    """EV of a suited bet when ranks left the shoe with their suits unseen: the
    enumerator's EV with the suits known, averaged over every set of suits they could have."""
    total = Fraction(0)
    ways = 0
    by_rank: dict[int, int] = {}
    for r in removed:
        by_rank[r] = by_rank.get(r, 0) + 1
    choices = []
    for r, m in by_rank.items():
        physical = [(s, k) for s in range(4) for k in range(packs)]
        choices.append([(r, c) for c in combinations(physical, m)])
    for pick in product(*choices):
        cards = [Card(RANKS[r], list(Suit)[s]) for r, chosen in pick for s, _ in chosen]
        shoe = Shoe.packs_of(packs).without(cards)
        total += bet_odds(profile, shoe, [bet])[bet.name].expected_value
        ways += 1
    return total / ways


@pytest.mark.parametrize("removed", [pytest.param([0], marks=pytest.mark.slow), [0, 0],
                                     pytest.param([12, 12, 5], marks=pytest.mark.slow),
                                     [3, 3, 3, 7]])
def test_suited_bets_given_the_ranks_seen_average_the_suits(removed: list[int]) -> None:
    profile = BUILTIN["punto-banco"]
    bet = resolve_bets(profile, ["perfect-pair"])[0]
    counts = [4] * 13
    for r in removed:
        counts[r] -= 1
    got = bet_table(profile, [bet]).counts([counts], packs=1).expected_values("perfect-pair")[0]
    assert got == _unseen_average(profile, bet, 1, removed)


def test_suited_bets_need_the_packs_and_a_shoe_they_fit() -> None:
    table = bet_table(BUILTIN["punto-banco"], resolve_bets(BUILTIN["punto-banco"],
                                                           ["perfect-pair"]))
    with pytest.raises(BetError, match="number of packs"):
        table.counts([[4] * 13])
    with pytest.raises(BetError, match="more cards of a rank"):
        table.counts([[5] + [4] * 12], packs=1)


# -- one meaning per name ------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(BUILTIN))
def test_one_list_of_a_profiles_bets(key: str) -> None:
    """`--bet all`, the shoe-level commands and the profile's bets are one list."""
    profile = BUILTIN[key]
    names = list(profile_bets(profile))
    chosen = bet_set(profile)
    assert [n for n in chosen.names if n != COLON_SHARE] == names
    assert COLON_SHARE not in names  # the Colon part of the seat's EV is not a bet


def test_colon_share_is_the_seat_less_the_seat_without_colon() -> None:
    profile = BUILTIN["standard"]
    chosen = bet_set(profile, ["player", COLON_SHARE, "colon"])
    counts = chosen.table().counts([[4] * 13, [3, 4, 4, 2, 4, 4, 4, 4, 1, 4, 4, 4, 4]])
    evs = chosen.exact_evs(counts)
    plain = profile.with_options(colon="none", colon_nine="none")
    for i, comp in enumerate(([4] * 13, [3, 4, 4, 2, 4, 4, 4, 4, 1, 4, 4, 4, 4])):
        shoe = Shoe(tuple(comp))
        assert evs[COLON_SHARE][i] == (round_odds(profile, shoe).expected_value
                                       - round_odds(plain, shoe).expected_value)
        assert evs["colon"][i] == bet_odds(profile, shoe, ["colon"])["colon"].expected_value
    assert evs["colon"][0] != evs[COLON_SHARE][0]


# -- the count study ----------------------------------------------------------------------


@pytest.mark.parametrize("key", ["ez-baccarat", "standard"])
def test_settling_dealt_rounds_equals_the_bets_own_payout(key: str) -> None:
    """The study's settled outcomes (BetTable.settle) are Bet.payout of each dealt round."""
    profile = BUILTIN[key]
    bets = _by_rank(list(profile_bets(profile).values()))
    table = bet_table(profile, bets)
    rounds = deal_rounds(profile, shuffled_shoe(1, 3, 11), 0.9)
    for r in rounds:
        p, b = r.player, r.bank
        pv = np.array([(p[0].rank.points + p[1].rank.points) % 10])
        bv = np.array([(b[0].rank.points + b[1].rank.points) % 10])
        x = np.array([p[2].rank.points if len(p) > 2 else 10])
        y = np.array([b[2].rank.points if len(b) > 2 else 10])
        got = table.settle(pv, bv, x, y, (np.array([p[0].rank.index]), np.array([p[1].rank.index])),
                           (np.array([b[0].rank.index]), np.array([b[1].rank.index])))
        for bet in bets:
            assert Fraction(got[bet.name][0]) == bet_payout(profile, bet, p, b), (bet.name, r)


@given(st.lists(st.integers(-3, 3), min_size=13, max_size=13),
       st.lists(st.integers(0, 8), min_size=13, max_size=13), st.integers(1, 3))
@settings(max_examples=60, deadline=None)
def test_a_count_system_bets_as_its_running_or_true_count_says(
        tags: list[int], left: list[int], packs: int) -> None:
    """_system_bets against the count computed by hand for one composition."""
    counts = [min(4 * packs, n) for n in left]
    seen = [4 * packs - n for n in counts]
    running = sum(t * s for t, s in zip(tags, seen, strict=True))
    cards_left = sum(counts)
    assume(cards_left >= 6)
    for trigger in (-2.0, 0.0, 1.5):
        system = CountSystem(tuple(tags), trigger, 0 if sum(tags) else None, "exact")
        bets = kernel._system_bets(system, np.array([counts]), packs)
        if sum(tags):  # unbalanced: the running count from the initial running count 0
            want = running >= trigger
        else:  # balanced: the true count per 52 cards left (a tie is left out: floats)
            true = Fraction(running * 52, cards_left)
            if true == Fraction(trigger):
                continue
            want = true >= Fraction(trigger)
        assert bool(bets[0]) == want, (tags, counts, trigger)


def test_jobs_and_chunks_do_not_change_the_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(counting, "SHOES_PER_BATCH", 4)
    args = (BUILTIN["ez-baccarat"], 1, 18, 0.75)
    one = count_data(count_study(*args, seed=5, jobs=1))
    two = count_data(count_study(*args, seed=5, jobs=2))
    assert one == two
    monkeypatch.setattr(counting, "SHOES_PER_BATCH", 64)
    _close(count_data(count_study(*args, seed=5, jobs=1)), one)  # sums grouped otherwise


def _close(a: object, b: object, where: str = "") -> None:
    """Equal, floats to 1e-9 relative (another grouping of the same float sums)."""
    if isinstance(a, dict) and isinstance(b, dict):
        assert a.keys() == b.keys(), where
        for k in a:
            _close(a[k], b[k], f"{where}/{k}")
    elif isinstance(a, list) and isinstance(b, list):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _close(x, y, f"{where}[{i}]")
    elif isinstance(a, float) and isinstance(b, float):
        assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12), where
    else:
        assert a == b, where


def test_count_takes_any_bet_of_the_profile_and_a_count_system() -> None:
    out = CliRunner().invoke(main, [
        "count", "--profile", "ez-baccarat", "--decks", "8", "--shoes", "3", "--seed", "2",
        "--bet", "dragon-7", "--bet", "panda-8", "--cut-cards", "14", "--burn", "1",
        "--tags", "0,0,0,-1,-1,-1,-1,2,2,0,0,0,0", "--trigger", "4", "--format", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert set(data["bets"]) == {"dragon-7", "panda-8"}  # the bets asked for
    assert data["study"]["cards_behind_cut_card"] == 14 and data["study"]["burn"] == 1
    assert data["study"]["count_system"]["tags"] == [0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0]
    system = data["bets"]["dragon-7"]["system"]
    for key in ("bets_per_shoe", "edge_when_betting", "units_per_shoe", "units_per_100_hands"):
        assert key in system, key


@pytest.mark.parametrize("args, message", [
    (["--tags", "1,2,3"], "13 whole numbers"),
    (["--tags", "0,0,0,0,0,0,0,0,0,0,0,0,x"], "not a whole number"),
    (["--tags", "0,0,0,0,0,0,0,0,0,0,0,0,1.5"], "not a whole number"),
    (["--tags", "0,0,0,-1,-1,-1,-1,2,2,0,0,0,0", "--trigger", "four"], "trigger"),
    (["--trigger", "4"], "go with --tags"),
    (["--cut-cards", "500"], "cut"),
    (["--bet", "no-such-bet"], "no-such-bet"),
    (["--jobs", "100000"], "jobs"),
    (["--shoes", "1000000000000"], "shoes"),
    (["--burn", "-1"], "burn"),
])
def test_count_bad_input_exits_2(args: list[str], message: str) -> None:
    out = CliRunner().invoke(main, ["count", "--decks", "8", "--shoes", "2", *args])
    assert out.exit_code == 2, out.output
    assert message in out.output
    assert "Traceback" not in out.output


def test_count_refuses_a_bet_it_cannot_count(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "kings.toml"
    path.write_text('base = "punto-banco"\nname = "kings"\nbets = ["banker", "king-pair"]\n'
                    '[[bet.king-pair.pay]]\nplayer_pair = "K"\npays = 30\n')
    out = CliRunner().invoke(main, ["count", "--profile", str(path), "--decks", "1",
                                    "--shoes", "2", "--bet", "king-pair"])
    assert out.exit_code == 2, out.output
    assert "10, J, Q and K" in out.output


def test_shoe_and_removal_take_every_bet() -> None:
    out = CliRunner().invoke(main, ["shoe", "--profile", "ez-baccarat", "--decks", "1",
                                    "--seed", "3", "--format", "json"])
    assert out.exit_code == 0, out.output
    first = json.loads(out.output)["rounds"][0]["ev"]
    assert set(first) == {"player", "ez-banker", "tie", "dragon-7", "panda-8"}
    want = bet_odds(BUILTIN["ez-baccarat"], Shoe.packs_of(1), ["dragon-7"])["dragon-7"]
    assert Fraction(first["dragon-7"]) == want.expected_value
    text = CliRunner().invoke(main, ["removal", "--profile", "ez-baccarat", "--decks", "8",
                                     "--bet", "dragon-7"]).output
    assert "dragon-7" in text.split("rank    left", 2)[-1].splitlines()[0]


# the standard seat and all three options at once by default; each option alone, and no
# colon, in CI (slow)
@pytest.mark.parametrize("options", [
    {}, pytest.param({"bank_bonus": "on"}, marks=pytest.mark.slow),
    pytest.param({"bonus_on": "always"}, marks=pytest.mark.slow),
    pytest.param({"colon_match": "value"}, marks=pytest.mark.slow),
    {"bank_bonus": "on", "bonus_on": "always", "colon_match": "value"},
    pytest.param({"colon": "none", "colon_nine": "none"}, marks=pytest.mark.slow),
], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "standard")
def test_one_definition_of_the_seats_amounts(options: dict[str, str]) -> None:
    """The seat's Bet (main_bet, what the batch engine's columns and bet_odds use) pays what
    the engine's pay table does (settle.bet_amount, behind round_odds), on depleted shoes."""
    profile = BUILTIN["standard"].with_options(**options)
    table = bet_table(profile, [profile_bets(profile)["player"]])
    comps = [[4] * 13, [4, 4, 4, 4, 4, 4, 4, 4, 1, 2, 4, 3, 4], [2, 1, 3, 4, 0, 2, 4, 4, 2, 1, 1, 3, 0]]
    got = table.counts(comps)
    for i, comp in enumerate(comps):
        want = round_odds(profile, Shoe(tuple(comp)))
        assert got.distribution("player", i) == want.payout_distribution(), (options, comp)


@pytest.mark.parametrize("packs", [1, 2, 8])
def test_a_pair_bet_has_no_effect_of_removal(packs: int) -> None:
    """Closed form: one card of rank r off a fresh shoe of n a rank leaves
    P(pair) = (n-1)(13n-2) / ((13n-1)(13n-2)) = (n-1)/(13n-1), unchanged; so no linear
    count can see a pair bet (docs/counting.md), though its EV moves through a shoe."""
    from odds.exact.removal import removal

    result = removal(BUILTIN["punto-banco"], Shoe.packs_of(packs),
                     ["player-pair", "banker-pair", "either-pair", "dragon-7"])
    for effect in result.effects:
        changes = dict(effect.changes)
        assert changes["player-pair"] == changes["banker-pair"] == changes["either-pair"] == 0
    assert any(dict(e.changes)["dragon-7"] for e in result.effects)


def test_thorp_and_walden_natural_bets_from_a_profile_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The 1966 natural 9 and natural 8 side bets (9:1), defined in a profile file:
    house edges 5.10% and 5.47% at 8 packs (P(natural 9) = 0.09490) as published, and a
    count on the nines (the eights) alone, from the effects of removal."""
    from odds.exact.removal import removal
    from odds.rules.profiles import load_profile

    path = tmp_path / "tw.toml"
    path.write_text('base = "punto-banco"\nname = "tw"\nbets = ["natural-9", "natural-8"]\n'
                    '[[bet.natural-9.pay]]\nbanker_natural = [9]\npays = 9\n'
                    '[[bet.natural-8.pay]]\nbanker_natural = [8]\npays = 9\n')
    profile = load_profile(path)
    chosen = bet_set(profile)
    evs = chosen.exact_evs(chosen.table().counts([[32] * 13]))
    assert round(float(-evs["natural-9"][0]) * 100, 2) == 5.10
    assert round(float(-evs["natural-8"][0]) * 100, 2) == 5.47
    assert round(float((evs["natural-9"][0] + 1) / 10), 5) == 0.09490
    effects = removal(profile, Shoe.packs_of(8)).effects
    nine = {e.rank.value: dict(e.changes)["natural-9"] for e in effects}
    assert nine["9"] < 0 and all(v > 0 for r, v in nine.items() if r != "9")
    assert all(abs(v) < abs(nine["9"]) / 5 for r, v in nine.items() if r != "9")


@pytest.mark.parametrize("key, bet", [("ez-baccarat", "dragon-7"),
                                      pytest.param("ez-baccarat", "panda-8", marks=pytest.mark.slow),
                                      pytest.param("punto-banco", "dragon-bonus-banker",
                                                   marks=pytest.mark.slow)])
def test_the_tables_removal_section_has_every_bet_as_the_enumerator_says(key: str,
                                                                          bet: str) -> None:
    """The committed reference tables (tables/) against bet_removal_effects."""

    from odds.exact.bets import bet_removal_effects

    page = json.loads((ROOT / "tables" / key
                       / f"{key}-d8.json").read_text())
    rows = {row["rank"]: Fraction(row[f"{bet} EV change"]["fraction"])
            for row in page["sections"]["removal"]["rows"]}
    assert rows == {rank: change for rank, change in
                    bet_removal_effects(BUILTIN[key], bet, Shoe.packs_of(8))}
