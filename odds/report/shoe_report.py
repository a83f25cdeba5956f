"""Rendering a followed shoe: JSON-ready data, CSV rows, terminal text.

The numbers come from :func:`odds.exact.shoe_follow.follow_shoe`: the exact
EV of every bet and the player seat's P(win / push / loss) before each
round, given every card seen so far in the shoe.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from odds.exact.shoe_follow import ShoeFollow, TableFollow
from odds.rules.cards import RANKS
from odds.rules.text import decimal, fraction, percent, rules_line, text_table, wrap_rules

__all__ = ["shoe_data", "shoe_rows", "shoe_text", "table_data", "table_rows", "table_text"]

PROBABILITIES = ("win", "push", "loss", "colon", "colon_nine")


def _state(follow: ShoeFollow, k: int) -> dict[str, Any]:
    comp = follow.compositions[k]
    evaluated = k < len(follow.evs[follow.bets[0]])
    return {
        "cards_seen": follow.shoe.size - sum(comp),
        "cards_left": sum(comp),
        "composition": {rank.value: comp[rank.index] for rank in RANKS},
        "ev": {bet: fraction(follow.evs[bet][k]) for bet in follow.bets} if evaluated else None,
        "probabilities": {name: fraction(follow.probabilities[name][k]) for name in PROBABILITIES}
        if evaluated else None,
    }


def shoe_data(follow: ShoeFollow, source: dict[str, Any]) -> dict[str, Any]:
    """The followed shoe as JSON-ready data; ``source`` says where the cards came from.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.rules.shoe import Shoe
    >>> from odds.rules.cards import parse_cards
    >>> from odds.exact.rounds import split_rounds
    >>> from odds.exact.shoe_follow import follow_shoe
    >>> rounds = split_rounds(BUILTIN["standard"], parse_cards("9 2 9 6"))
    >>> data = shoe_data(follow_shoe(BUILTIN["standard"], Shoe.packs_of(1), rounds), {})
    >>> data["rounds"][0]["ev"]["player"], data["rounds"][0]["dealt"]["outcome"]
    ('1041476/38172225', 'push')
    """
    rounds = []
    for k, r in enumerate(follow.rounds):
        rounds.append({
            "round": r.number,
            **_state(follow, k),
            "dealt": {
                "cards": [str(c) for c in r.cards],
                "player": [str(c) for c in r.player],
                "bank": [str(c) for c in r.bank],
                "outcome": r.outcome.value,
                "pay": r.pay.value,
            },
        })
    return {
        "profile": follow.profile.key,
        "title": follow.profile.title,
        "shoe": {"label": follow.shoe.label, "cards": follow.shoe.size,
                 "counts": list(follow.shoe.counts)},
        "source": source,
        "bets": list(follow.bets),
        "note": "ev: exact expected net result per unit stake of each bet before the round, "
                "given every card seen in this shoe; probabilities: the player seat's "
                "(win, push, loss) and P(player Colon), P(Colon nine)",
        "rounds": rounds,
        "after_last_round": _state(follow, len(follow.rounds)),
        "options": follow.profile.options(),
    }


def shoe_rows(follow: ShoeFollow) -> list[list[str]]:
    """CSV rows: one per round, exact fractions, the round's cards and the cards left by rank.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.rules.shoe import Shoe
    >>> from odds.rules.cards import parse_cards
    >>> from odds.exact.rounds import split_rounds
    >>> from odds.exact.shoe_follow import follow_shoe
    >>> rounds = split_rounds(BUILTIN["standard"], parse_cards("9 2 9 6"))
    >>> shoe_rows(follow_shoe(BUILTIN["standard"], Shoe.packs_of(1), rounds))[0][:5]
    ['round', 'cards_seen', 'cards_left', 'ev_player', 'ev_player_decimal']
    """
    head = ["round", "cards_seen", "cards_left"]
    for bet in follow.bets:
        head += [f"ev_{bet}", f"ev_{bet}_decimal"]
    head += ["p_win", "p_push", "p_loss", "player_cards", "bank_cards", "outcome", "pay"]
    head += [f"left_{rank.value}" for rank in RANKS]
    rows = [head]
    for k, r in enumerate(follow.rounds):
        left = sum(follow.compositions[k])
        row = [str(r.number), str(follow.shoe.size - left), str(left)]
        for bet in follow.bets:
            row += [fraction(follow.evs[bet][k]), decimal(follow.evs[bet][k], 10)]
        row += [fraction(follow.probabilities[p][k]) for p in ("win", "push", "loss")]
        row += [" ".join(map(str, r.player)), " ".join(map(str, r.bank)), r.outcome.value,
                r.pay.value]
        row += [str(c) for c in follow.compositions[k]]
        rows.append(row)
    return rows


def _groups(bets: tuple[str, ...], width: int) -> list[list[str]]:
    """The bets in tables that fit 79 columns: the first also has the seat's P(win/push/loss).

    >>> _groups(("player", "banker", "tie", "dragon-7"), 11)
    [['player', 'banker', 'tie'], ['dragon-7']]
    """
    groups: list[list[str]] = [[]]
    room = 79 - 17 - 24
    for bet in bets:
        w = max(width, len(bet) + 1)
        if groups[-1] and room < w:
            groups.append([])
            room = 79 - 17
        groups[-1].append(bet)
        room -= w
    return groups


def shoe_text(follow: ShoeFollow, source: str, digits: int = 6) -> list[str]:
    """Terminal lines: a row of exact odds before each round, then what it dealt.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.rules.shoe import Shoe
    >>> from odds.rules.cards import parse_cards
    >>> from odds.exact.rounds import split_rounds
    >>> from odds.exact.shoe_follow import follow_shoe
    >>> rounds = split_rounds(BUILTIN["plain"], parse_cards("9 2 9 6"))
    >>> print("\\n".join(shoe_text(follow_shoe(BUILTIN["plain"], Shoe.packs_of(1), rounds),
    ...                            "cards given")[-5:]))
    round  seen  left      player  P(win) P(push) P(loss)
        1     0    52     0.0000%  0.4539  0.0922  0.4539
                     dealt P 9 9 (8)  B 2 6 (8)  push
    after 1 round: 4 cards seen, 48 left
        -     4    48     0.0000%  0.4546  0.0908  0.4546
    """
    profile, shoe = follow.profile, follow.shoe
    width = digits + 6  # room for -100.0000%
    lines = [
        f"profile {profile.key}: {profile.title}",
        *textwrap.wrap(f"shoe: {shoe.label} ({shoe.size} cards), {len(follow.rounds)} rounds; "
                       f"{source}", 79, subsequent_indent="  "),
        *wrap_rules(f"rules: {rules_line(profile)}"),
        *textwrap.wrap(
            "before each round: the exact EV of each bet and the player "
            "seat's P(win/push/loss), given every card seen in this shoe (exact fractions "
            f"with --format json or csv); EVs in percent of the stake, rounded to {digits - 2} "
            "places, probabilities to 4"
            + ("; colon-share: the part of the seat's EV its Colon pays add (not a bet)"
               if "colon-share" in follow.bets else "")
            + ("; suited pairs: exact given the ranks seen (suits of the cards gone unseen)"
               if follow.suits == "unseen" else
               "; suited pairs: from the suits left" if follow.suits == "known" else ""), 79),
    ]
    groups = _groups(follow.bets, width)

    def row(label: str, k: int, bets: list[str], seat: bool) -> list[object]:
        left = sum(follow.compositions[k])
        cells: list[object] = [label, shoe.size - left, left]
        cells += [percent(follow.evs[bet][k], digits - 2) for bet in bets]
        if seat:
            cells += [decimal(follow.probabilities[name][k], 4) for name in ("win", "push", "loss")]
        return cells

    n = len(follow.rounds)
    left = sum(follow.compositions[n])
    for g, bets in enumerate(groups):
        seat = g == 0
        table: list[Sequence[object] | str] = [
            ["round", "seen", "left", *bets] + (["P(win)", "P(push)", "P(loss)"] if seat else [])]
        for k, r in enumerate(follow.rounds):
            table.append(row(str(r.number), k, bets, seat))
            if seat:
                table.append(f"{'':>17}dealt {r.describe()}")
        if seat:
            table.append(f"after {n} round{'s' * (n != 1)}: {shoe.size - left} cards seen, "
                         f"{left} left")
        if n < len(follow.evs[follow.bets[0]]):
            table.append(row("-", n, bets, seat))
        lines.append("")
        lines += text_table(table, [">5", ">6", ">6", *(f">{max(width, len(bet) + 1)}"
                                                       for bet in bets)]
                            + ([">8"] * 3 if seat else []))
        if n >= len(follow.evs[follow.bets[0]]) and seat:
            lines.append("(fewer than six cards left: no round to evaluate)")
    return lines


def table_data(follow: TableFollow, source: dict[str, Any]) -> dict[str, Any]:
    """``lucky9 shoe --seats N --format json``: every round's exact figures.

    Exact figures are fraction strings; a bank variance is null where the shoe
    left holds fewer than 9 cards (no two seats' round to count).
    """
    rounds = []
    for k, r in enumerate(follow.rounds):
        mean, var = follow.bank_mean[k], follow.bank_variance[k]
        rounds.append({
            "round": r.number, "cards_before": r.start, "cards_left": follow.lefts[k].size,
            "seats": [" ".join(map(str, s)) for s in r.seats],
            "bank": " ".join(map(str, r.bank)),
            "seat_ev": fraction(follow.seat_ev[k]),
            "seat_probabilities": {"win": fraction(follow.win[k]), "push": fraction(follow.push[k]),
                                   "loss": fraction(follow.loss[k])},
            "bank_mean": None if mean is None else fraction(mean),
            "bank_variance": None if var is None else fraction(var),
        })
    return {"profile": follow.profile.key, "rules": rules_line(follow.profile),
            "shoe": follow.shoe.label, "seats": follow.seats, "source": source, "exact": True,
            "stakes": "1 each", "rounds": rounds}


def table_rows(follow: TableFollow) -> list[list[str]]:
    """CSV rows of ``lucky9 shoe --seats N``: one row per round, exact fractions."""
    rows = [["round", "cards_left", "seat_ev", "win", "push", "loss", "bank_mean",
             "bank_variance"]]
    for k, r in enumerate(follow.rounds):
        mean, var = follow.bank_mean[k], follow.bank_variance[k]
        rows.append([str(r.number), str(follow.lefts[k].size), fraction(follow.seat_ev[k]),
                     fraction(follow.win[k]), fraction(follow.push[k]), fraction(follow.loss[k]),
                     "" if mean is None else fraction(mean), "" if var is None else fraction(var)])
    return rows


def table_text(follow: TableFollow, source: str) -> list[str]:
    """The terminal report of ``lucky9 shoe --seats N``."""
    p = follow.profile
    lines = [f"profile {p.key}: {p.title}", *wrap_rules(f"rules: {rules_line(p)}"),
             f"shoe: {follow.shoe.label}, {source}; {follow.seats} seats and the bank",
             *textwrap.wrap("exact odds before each round, given every card seen; a seat's EV "
                            "in percent of the stake (the same at every seat); the bank's mean "
                            "and variance of net per round at stakes of 1, the variance with "
                            "the seats' covariance through the shared shoe", 79),
             ""]
    table: list[list[object]] = [["round", "left", "seat EV", "P(win)", "P(loss)", "bank mean",
                                  "bank sd", "cards"]]
    for k, r in enumerate(follow.rounds):
        mean, var = follow.bank_mean[k], follow.bank_variance[k]
        hands = "  ".join(f"S{i} " + " ".join(map(str, s)) for i, s in enumerate(r.seats, 1))
        table.append([r.number, follow.lefts[k].size, percent(follow.seat_ev[k], 4),
                      decimal(follow.win[k], 6), decimal(follow.loss[k], 6),
                      "-" if mean is None else decimal(mean, 6),
                      "-" if var is None else f"{float(var) ** 0.5:.4f}",
                      f"{hands}  B " + " ".join(map(str, r.bank))])
    return lines + text_table(table, [">5", " >5", " >10", " >9", " >9", " >10", " >9", "  <0"])
