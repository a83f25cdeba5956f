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


def _cut_card_tallies(penetration: str | None) -> str:
    """A 2-pack cut-card run's tallies, its penetration line dropped or restated."""
    sim = simulate("standard", 2, rounds=300, reshuffle="cut", seed=5)
    lines = [ln for ln in tallies_csv(sim.header, sim.tallies).splitlines()
             if not ln.startswith("# penetration")]
    if penetration is not None:
        lines.insert(0, f"# penetration: {penetration}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("penetration", [None, "0.75", "0.5"])
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
