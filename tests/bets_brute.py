"""Bets by brute force: every ordering of the physical cards of a small shoe, dealt in table
order and settled by hand-written rules (not through odds.rules.bets)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations

from odds import Shoe
from odds.rules.cards import RANKS, Card, Suit, parse_cards
from tests.brute import PIPS, settle


def _decide(rule: object, own: int, other: int | None) -> bool:
    tableau = rule.tableau  # type: ignore[attr-defined]
    if other is not None and tableau is not None:
        return other in tableau[own]
    return own in rule.draws  # type: ignore[attr-defined]


def deal_in_order(profile, seq):
    """Deal six physical cards in table order: P B P B, then the next cards as drawn."""
    p, b = [seq[0], seq[2]], [seq[1], seq[3]]
    pv = (PIPS[p[0].rank.index] + PIPS[p[1].rank.index]) % 10
    bv = (PIPS[b[0].rank.index] + PIPS[b[1].rank.index]) % 10
    nat = profile.naturals
    stop = profile.naturals_stop_draws and (pv in nat or bv in nat)
    nxt = 4
    third = None
    if not stop and pv not in nat and _decide(profile.player_draw, pv, None):
        p.append(seq[nxt])
        third = PIPS[seq[nxt].rank.index]
        nxt += 1
    if not stop and bv not in nat and _decide(profile.bank_draw, bv, third):
        b.append(seq[nxt])
    return p, b


def facts(profile, p, b):
    """Everything the hand-written bets below look at."""
    ranks_p = [c.rank.index for c in p]
    ranks_b = [c.rank.index for c in b]
    outcome, _ = settle(profile, ranks_p, ranks_b)
    pv = (PIPS[ranks_p[0]] + PIPS[ranks_p[1]]) % 10
    bv = (PIPS[ranks_b[0]] + PIPS[ranks_b[1]]) % 10
    return {
        "winner": {"win": "player", "loss": "banker", "push": "tie"}[outcome],
        "pnat": pv if pv in profile.naturals else None,
        "bnat": bv if bv in profile.naturals else None,
        "pf": sum(PIPS[r] for r in ranks_p) % 10,
        "bf": sum(PIPS[r] for r in ranks_b) % 10,
        "pn": len(p), "bn": len(b),
        "ppair": p[0].rank is p[1].rank, "bpair": b[0].rank is b[1].rank,
        "psuited": p[0] == p[1], "bsuited": b[0] == b[1],
        "prank": p[0].rank.value if p[0].rank is p[1].rank else None,
        "pvalue": PIPS[ranks_p[0]] == PIPS[ranks_p[1]],
        "bvalue": PIPS[ranks_b[0]] == PIPS[ranks_b[1]],
    }


def _dragon(side):
    def pay(f):
        nat = f["pnat"] if side == "player" else f["bnat"]
        if f["winner"] == side and nat is not None:
            return 1
        if f["winner"] == "tie" and f["pnat"] is not None and f["bnat"] is not None:
            return 0
        if f["winner"] == side:
            return {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}.get(abs(f["pf"] - f["bf"]), -1)
        return -1
    return pay


# The built-in bets, settled by hand, not through odds.rules.bets.
HAND_WRITTEN = {
    "banker": lambda f: Fraction(19, 20) if f["winner"] == "banker" else 0 if f["winner"] == "tie"
    else -1,
    "tie": lambda f: 8 if f["winner"] == "tie" else -1,
    "player-pair": lambda f: 11 if f["ppair"] else -1,
    "banker-pair": lambda f: 11 if f["bpair"] else -1,
    "either-pair": lambda f: 5 if f["ppair"] or f["bpair"] else -1,
    "perfect-pair": lambda f: 250 if f["psuited"] and f["bsuited"] else 25
    if f["psuited"] or f["bsuited"] else -1,
    "dragon-bonus-player": _dragon("player"),
    "dragon-bonus-banker": _dragon("banker"),
    "dragon-7": lambda f: 40 if f["winner"] == "banker" and f["bf"] == 7 and f["bn"] == 3 else -1,
    "panda-8": lambda f: 25 if f["winner"] == "player" and f["pf"] == 8 and f["pn"] == 3 else -1,
    "ez-banker": lambda f: 0 if f["winner"] == "banker" and f["bf"] == 7 and f["bn"] == 3
    else 1 if f["winner"] == "banker" else 0 if f["winner"] == "tie" else -1,
    "lucky-6": lambda f: (12 if f["bn"] == 2 else 20) if f["winner"] == "banker" and f["bf"] == 6
    else -1,
    "colon": lambda f: 2 if f["ppair"] else -1,
    "colon-nine": lambda f: 3 if f["prank"] == "9" else -1,
}

# Published figures of built-in bets, under punto-banco's rules: (citation, packs,
# {pay-table line: ordered six-card deals it settles}, all deals).  tests/exact/test_bets.py
# checks each.
WOO_EZ = "Wizard of Odds, EZ Baccarat: https://wizardofodds.com/games/baccarat/ez-baccarat/"
PUBLISHED: dict[str, tuple[str, int, dict[int, int], int]] = {
    "dragon-7": (WOO_EZ, 8, {0: 112_633_011_329_024}, 4_998_398_275_503_360),
    "panda-8": (WOO_EZ, 8, {0: 172_660_763_262_976}, 4_998_398_275_503_360),
    # Wizard of Odds, Lucky 6 (the Macau pay table, house edge 16.68%):
    # https://wizardofodds.com/games/baccarat/side-bets/lucky-6/
    "lucky-6": ("Wizard of Odds, Lucky 6: https://wizardofodds.com/games/baccarat/side-bets/"
                "lucky-6/", 8, {0: 186_173_936_904_192, 1: 83_058_367_551_488},
                4_998_398_275_503_360),
}


# Every event type in a profile file's bet, with the same bet settled by hand.
CUSTOM = [
    ({"winner": "banker", "banker_final": [6], "banker_cards": 3}, 50,
     lambda f: f["winner"] == "banker" and f["bf"] == 6 and f["bn"] == 3),
    ({"player_natural": [9]}, 4, lambda f: f["pnat"] == 9),
    ({"banker_natural": True, "winner": "banker"}, 2, lambda f: f["bnat"] is not None
     and f["winner"] == "banker"),
    ({"player_natural": False, "player_final": "0-4"}, 1,
     lambda f: f["pnat"] is None and f["pf"] <= 4),
    ({"margin": [0, 1]}, 1, lambda f: abs(f["pf"] - f["bf"]) <= 1),
    ({"player_cards": 2, "banker_cards": 2}, Fraction(1, 2), lambda f: f["pn"] == f["bn"] == 2),
    ({"player_pair": "unsuited"}, 6, lambda f: f["ppair"] and not f["psuited"]),
    ({"banker_pair": "value"}, 3, lambda f: f["bvalue"]),
    ({"player_pair": "9", "winner": "player"}, 20, lambda f: f["prank"] == "9"
     and f["winner"] == "player"),
    ({"banker_pair": "none", "winner": "tie"}, 7, lambda f: not f["bpair"] and f["winner"] == "tie"),
]


# A small shoe from two packs, so that suited pairs (two 9h) can happen.
SMALL = parse_cards("9h 9h 9s 8d Kc Qc 5h 2s 3d")


def small_shoe(cards=SMALL) -> Shoe:
    full = Shoe.packs_of(2)
    pool = Counter(cards)
    removed = []
    for rank in RANKS:
        for suit in Suit:
            card = Card(rank, suit)
            removed += [card] * (2 - pool[card])
    return full.without(removed)


def brute(profile, payers, slots=(), cards=SMALL):
    """Distribution of each payer's net over every ordering of the physical cards."""
    dist = {name: Counter() for name in payers}
    n = 0
    seen: Counter = Counter()  # orderings by their facts: each bet pays a kind of deal once
    for seq in permutations(cards, 6):
        if any(seq[k - 1].rank is not c.rank or (c.suit and seq[k - 1].suit is not c.suit)
               for k, c in slots):
            continue
        p, b = deal_in_order(profile, list(seq))
        seen[tuple(facts(profile, p, b).items())] += 1
        n += 1
    for items, count in seen.items():
        f = dict(items)
        for name, pay in payers.items():
            dist[name][pay(f)] += count  # the net as paid (1 and Fraction(1) are one key)
    out = {}
    for name, d in dist.items():
        nets = Counter()
        for net, v in d.items():
            nets[Fraction(net)] += v
        out[name] = {k: Fraction(v, n) for k, v in nets.items()}
    return out
