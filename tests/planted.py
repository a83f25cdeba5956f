"""Planted simulators for the verifier's hints: small, seeded, written here independently of
odds.sim.simulate, each dealing and settling ``standard`` rounds (one seat, a fresh shoe of
``packs`` packs every round) with at most one deliberate mistake.

``deal`` is how the six cards of a round (player, player, bank, bank, player's third,
bank's third) come off the shoe:

* ``fair``: the first six cards of a uniformly shuffled shoe;
* ``replacement``: each card drawn from the whole list of the shoe's cards, never removed
  (the cards are not taken out of the shoe);
* ``naive``: the first six cards of a 1-pack list ordered A..K shuffled by the naive swap
  (each position swapped with any position, ``n^n`` equally likely paths for ``n!``
  orders: a biased shuffle).

``settle``: ``right`` or ``ties-lose`` (the comparison gives equal hands to the bank: a
comparison bug).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np

POINTS = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0])
NAMES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
CARD = [NAMES[i // 4] + "cdhs"[i % 4] for i in range(52)]


def deal(rounds: int, packs: int, how: str, rng: np.random.Generator) -> np.ndarray:
    """(rounds, 6) card codes 0..51 (rank * 4 + suit)."""
    size = 52 * packs
    if how == "replacement":
        return rng.integers(0, size, size=(rounds, 6)) % 52
    if how == "fair":
        order = np.argsort(rng.random((rounds, size)), axis=1)[:, :6]
        return order % 52
    if how == "naive":
        assert packs == 1
        deck = np.tile(np.arange(52), (rounds, 1))
        rows = np.arange(rounds)
        for i in range(52):
            j = rng.integers(0, 52, size=rounds)
            deck[rows, i], deck[rows, j] = deck[rows, j], deck[rows, i].copy()
        return deck[:, :6]
    raise ValueError(how)


def play(ids: np.ndarray, settle: str = "right") -> dict[str, np.ndarray]:
    """Standard rules: naturals 8-9 outright, each side draws on 0-5, Colon 2:1 and Colon
    nine 3:1 on a win."""
    rank = ids // 4
    pts = POINTS[rank]
    pv = (pts[:, 0] + pts[:, 1]) % 10
    bv = (pts[:, 2] + pts[:, 3]) % 10
    pnat, bnat = pv >= 8, bv >= 8
    pdraw, bdraw = ~pnat & (pv < 6), ~bnat & (bv < 6)
    pf = np.where(pdraw, (pv + pts[:, 4]) % 10, pv)
    bf = np.where(bdraw, (bv + pts[:, 5]) % 10, bv)
    either = pnat | bnat
    mine = np.where(either, np.where(pnat, pv, -1), pf)
    theirs = np.where(either, np.where(bnat, bv, -1), bf)
    sign = np.sign(mine - theirs)
    if settle == "ties-lose":
        sign = np.where(sign == 0, -1, sign)
    pcol = np.where(rank[:, 0] == rank[:, 1], np.where(rank[:, 0] == 8, 2, 1), 0)
    bcol = np.where(rank[:, 2] == rank[:, 3], np.where(rank[:, 2] == 8, 2, 1), 0)
    pay = np.select([sign > 0, sign < 0], [1, -1], 0)
    pay = np.where((sign > 0) & (pcol == 1), 2, pay)
    pay = np.where((sign > 0) & (pcol == 2), 3, pay)
    result = np.select([sign > 0, sign < 0], [0, 2], 1)
    return {"ids": ids, "pdraw": pdraw, "bdraw": bdraw, "pv": pv, "bv": bv, "pf": pf,
            "bf": bf, "pcol": pcol, "bcol": bcol, "pay": pay, "result": result}


def planted_log(rounds: int, seed: int, how: str, packs: int = 1,
                settle: str = "right") -> str:
    """A round log (CSV, one seat, no header) of the planted simulator."""
    r = play(deal(rounds, packs, how, np.random.default_rng(seed)), settle)
    words = ("win", "push", "loss")
    lines = ["round,seat,player,bank,result,payout"]
    for i, (row, pd, bd, res, pay) in enumerate(zip(
            r["ids"].tolist(), r["pdraw"].tolist(), r["bdraw"].tolist(),
            r["result"].tolist(), r["pay"].tolist(), strict=True)):
        player = f"{CARD[row[0]]} {CARD[row[1]]}" + (f" {CARD[row[4]]}" if pd else "")
        bank = f"{CARD[row[2]]} {CARD[row[3]]}" + (f" {CARD[row[5]]}" if bd else "")
        lines.append(f"{i + 1},1,{player},{bank},{words[res]},{pay}")
    return "\n".join(lines) + "\n"


def planted_tallies(rounds: int, seed: int, how: str, packs: int = 1,
                    settle: str = "right") -> str:
    """The planted simulator's own tallies file (CSV), as a simulator that counts writes it."""
    r = play(deal(rounds, packs, how, np.random.default_rng(seed)), settle)
    out = [f"# shoe: {packs}", "seat,quantity,key,count", f"1,rounds,,{rounds}"]
    for k, word in enumerate(("win", "push", "loss")):
        out.append(f"1,category,{word},{int((r['result'] == k).sum())}")
    for name, key in (("player_value", "pv"), ("bank_value", "bv"), ("player_final", "pf"),
                      ("bank_final", "bf")):
        counts = np.bincount(r[key], minlength=10).tolist()
        out += [f"1,{name},{v},{c}" for v, c in enumerate(counts)]
    scalars = {"player_colon": (r["pcol"] > 0).sum(), "player_colon_nine": (r["pcol"] == 2).sum(),
               "bank_colon": (r["bcol"] > 0).sum(), "bank_colon_nine": (r["bcol"] == 2).sum(),
               "player_draws": r["pdraw"].sum(), "bank_draws": r["bdraw"].sum()}
    out += [f"1,{name},,{int(v)}" for name, v in scalars.items()]
    pays = Counter(Fraction(int(p)) for p in r["pay"].tolist())
    out += [f"1,payout,{a},{c}" for a, c in sorted(pays.items(), reverse=True)]
    return "\n".join(out) + "\n"


def planted_shoe_log(rounds: int, seed: int, shuffle: str, packs: int = 2,
                     penetration: float = 0.75) -> str:
    """A round log of continuous shoes (one seat, a ``shoe`` column, rows in deal order):
    each shoe dealt to its cut card, then a new one.

    ``shuffle``: ``fair`` (numpy's permutation) or ``half`` (Fisher-Yates stopped half way:
    the later half of the shoe keeps much of a new shoe's order, A..K): a biased shuffle.
    """
    rng = np.random.default_rng(seed)
    new = np.repeat(np.arange(52), packs)  # a new shoe: all aces, then all 2s, ...
    size = len(new)
    cut = int(size * penetration)
    words = ("win", "push", "loss")
    lines = [f"# shoe: {packs}", "# reshuffle: cut", f"# penetration: {penetration}",
             "round,seat,player,bank,result,payout,shoe"]
    shoe_no, at, order = 0, size, new
    for number in range(1, rounds + 1):
        if at >= cut:
            shoe_no += 1
            at = 0
            if shuffle == "fair":
                order = rng.permutation(new)
            else:
                order = new.copy()
                for i in range(size // 2):
                    j = int(rng.integers(i, size))
                    order[i], order[j] = order[j], order[i]
        cards = order[at:at + 6]
        first = np.array([[cards[0], cards[2], cards[1], cards[3], cards[4], cards[5]]])
        r = play(first)
        pd, bd = bool(r["pdraw"][0]), bool(r["bdraw"][0])
        ids = first[0].tolist()
        # The third cards come off the shoe in turn: the bank's is the next card left.
        third_bank = ids[4] if not pd else ids[5]
        ids[5] = third_bank
        r = play(np.array([ids]))
        used = 4 + pd + bd
        at += used
        player = f"{CARD[ids[0]]} {CARD[ids[1]]}" + (f" {CARD[ids[4]]}" if pd else "")
        bank = f"{CARD[ids[2]]} {CARD[ids[3]]}" + (f" {CARD[ids[5]]}" if bd else "")
        lines.append(f"{number},1,{player},{bank},{words[int(r['result'][0])]},"
                     f"{int(r['pay'][0])},{shoe_no}")
    return "\n".join(lines) + "\n"
