"""Round logs rewritten for a test: cards as point values, side-bet columns settled by hand
from the card ranks."""

from __future__ import annotations

import csv
import io


def _as_values(text: str) -> str:
    """A log with every card written as its point value."""
    from odds.rules.cards import POINTS, parse_card

    out = []
    for line in text.splitlines():
        if line.startswith("#") or line.startswith("round"):
            out.append(line)
            continue
        fields = line.split(",")
        for k in (2, 3):
            fields[k] = " ".join(str(POINTS[parse_card(t).rank.index]) for t in fields[k].split())
        out.append(",".join(fields))
    return "\n".join(out[:1] + ["# cards: values"] + out[1:]) + "\n"


POINT = {"A": 1, "J": 0, "Q": 0, "K": 0, "10": 0} | {str(v): v for v in range(2, 10)}


def rank(card: str) -> str:
    return card[:-1] if card[-1] in "cdhs" else card


def final(cards: list[str]) -> int:
    return sum(POINT[rank(c)] for c in cards) % 10


def player_pair(player: list[str], bank: list[str]) -> str:
    """The usual pair bet: the player's first two cards of the same rank pay 11 to 1."""
    return "11" if rank(player[0]) == rank(player[1]) else "-1"


def dragon_7(player: list[str], bank: list[str]) -> str:
    """EZ Baccarat's Dragon 7: the banker wins with a three-card 7, paying 40 to 1.

    Three banker cards mean no natural was dealt, so the higher final value wins.
    """
    wins = len(bank) == 3 and final(bank) == 7 and final(bank) > final(player)
    return "40" if wins else "-1"


def with_side_bets(text: str, strip_suits: bool = False) -> tuple[str, int]:
    """Our simulator's log with bet:player-pair and bet:dragon-7 columns added.

    Returns the text and how many rows the Dragon 7 wins (so the log exercises it).
    """
    head = [ln for ln in text.splitlines() if ln.startswith("#")]
    body = "\n".join(ln for ln in text.splitlines() if not ln.startswith("#"))
    rows = list(csv.reader(io.StringIO(body)))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    cols = rows[0]
    writer.writerow([*cols, "bet:player-pair", "bet:dragon-7"])
    dragons = 0
    for row in rows[1:]:
        player = row[cols.index("player")].split()
        bank = row[cols.index("bank")].split()
        d7 = dragon_7(player, bank)
        dragons += d7 == "40"
        if strip_suits:
            row[cols.index("player")] = " ".join(rank(c) for c in player)
            row[cols.index("bank")] = " ".join(rank(c) for c in bank)
        writer.writerow([*row, player_pair(player, bank), d7])
    return "\n".join(head) + "\n" + out.getvalue(), dragons
