"""A reference Monte Carlo simulator, vectorised with numpy.

It shares the rules with the exact engine (who draws, from
:func:`odds.rules.draw.draw_table`; who wins, from
:func:`odds.rules.settle.category_table`) and nothing of its counting: it
deals shuffled cards and settles them (``colon_match``, the multipliers,
``bonus_on``, ``bank_bonus`` read from the profile), so that the engine's
counts and the simulator's frequencies check each other (``lucky9 verify``).

Deal order (docs/rules.md, 'A round'): two cards each, one at a time, the bank
last in each turn; then third cards in seat order, the bank last.  Cards are
numbered ``0 .. 52*D-1``; card ``i`` has rank ``(i % 52) // 4`` and suit
``i % 4``.  An infinite shoe deals with replacement from one pack; a custom
composition has no suits.

``reshuffle="round"`` deals every round from a fresh shoe: cards are drawn
without replacement by rejection (a draw equal to an earlier card of the same
round is drawn again, which leaves the draw uniform over the cards left), a
batch of rounds at a time.  With a fresh shoe every slot of the round is
exchangeable, so the third cards are taken from fixed slots.
``reshuffle="cut"`` deals shoes to a cut card, cards in real order; many
shoes are dealt side by side, one round of each per step.

This module imports numpy; the ``odds`` package does not import it.

One piece on purpose (about 680 lines): dealing, settling and logging a
batch of rounds share one array layout.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import dataclass, fields
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from odds.exact.deal import cut_position, shuffled_orders
from odds.io.atomic import AtomicFile
from odds.rules.cards import POINTS, RANKS, Suit
from odds.rules.draw import STOOD, draw_table
from odds.rules.errors import ProfileError
from odds.rules.profile import Profile
from odds.rules.profiles import as_profile
from odds.rules.rule_types import BonusOn, ColonMatch
from odds.rules.settle import Outcome, Pay, bet_amount, category_outcome, category_table, pay_lines
from odds.rules.shoe import Shoe, as_shoe
from odds.sim.cut_card import penetration_for_cut
from odds.sim.tallies import MAX_CARDS, OUTCOMES, RESHUFFLES, RunHeader, Tally, category_names

__all__ = ["CUT_NOTE", "Simulation", "simulate"]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

CUT_NOTE = (
    "continuous shoe with a cut card: cards dealt in earlier rounds of a shoe are "
    "not reshuffled, so card removal shifts each round's odds from the fresh-shoe "
    "figures; lucky9 verify tests these rounds against their exact odds given the "
    "cards dealt before them"
)

# Category codes: 0 win by comparison, 1 push by comparison, 2 push of equal
# naturals, 3 loss by comparison, 4+v win by natural v, 14+v loss by natural v.
N_CATS = 24
# Pay codes: odds.rules.settle.Pay's entries, in order.
PAY_NAMES = tuple(pay.value for pay in Pay)
WIN, COLON, COLON_NINE, PUSH, LOSS, BANK_COLON, BANK_COLON_NINE = range(7)
_SUIT_LETTERS = tuple(s.value for s in Suit)
_RANK_NAMES = tuple(r.value for r in RANKS)
NINE = 8  # rank index of the 9
MOD10 = np.array([v % 10 for v in range(20)], dtype=np.int8)  # last digit, by lookup


def category_name(code: int) -> str:
    """The name of a category code (``win_natural_9`` ...).

    >>> category_name(0), category_name(13), category_name(2)
    ('win_comparison', 'win_natural_9', 'push_natural')
    """
    if code >= 14:
        return f"loss_natural_{code - 14}"
    if code >= 4:
        return f"win_natural_{code - 4}"
    return ("win_comparison", "push_comparison", "push_natural", "loss_comparison")[code]


def pay_amounts(profile: Profile) -> list[Fraction | None]:
    """Net payout per unit stake of each pay code (None where the table has none).

    >>> from odds.rules.profiles import BUILTIN
    >>> [str(a) for a in pay_amounts(BUILTIN["super9"])]
    ['1', '3/2', '2', '0', '-1', '-2', '-3']
    """
    lines = pay_lines(profile)
    return [lines.get(pay) for pay in Pay]


# MAX_CARDS (20,000 packs): the card table and one shoe stay a few MB; a run's header
# states no larger shoe (odds.sim.tallies).


def _id_type(size: int) -> type[np.signedinteger[Any]]:
    """The integer type of card ids for a shoe of ``size`` cards.

    int16 wrapped at 631 packs (32,768 cards); int32 holds any shoe up to
    MAX_CARDS.  Smaller shoes keep int16, whose random stream every seeded
    run so far was dealt from, so their results stay reproducible.
    """
    return np.int16 if size <= np.iinfo(np.int16).max + 1 else np.int32


@dataclass(frozen=True)
class _Cards:
    """The card table of a shoe: rank, point value and suit (-1: none) by card id."""

    size: int  # ids are 0..size-1
    infinite: bool
    rank: npt.NDArray[np.int8]
    point: npt.NDArray[np.int8]
    suit: npt.NDArray[np.int8]

    @classmethod
    def of(cls, shoe: Shoe) -> _Cards:
        if not shoe.infinite and shoe.size > MAX_CARDS:
            raise ValueError(
                f"the simulator deals from at most {MAX_CARDS:,} cards "
                f"({MAX_CARDS // 52:,} packs), not {shoe.size:,}; a shoe that large "
                "deals like an infinite one (--decks inf)"
            )
        if shoe.infinite:
            ids = np.arange(52)
            rank = ids // 4
            suit = ids % 4
        elif shoe.packs is not None and shoe.counts == (4 * shoe.packs,) * 13:
            ids = np.arange(52 * shoe.packs)
            rank = (ids % 52) // 4
            suit = ids % 4
        else:
            rank = np.repeat(np.arange(13), shoe.counts)
            suit = np.full(len(rank), -1)
        points = np.array(POINTS, dtype=np.int8)[rank]
        return cls(len(rank), shoe.infinite, rank.astype(np.int8), points,
                   suit.astype(np.int8))

    def names(self) -> list[str]:
        """Card names by id, as the round log writes them."""
        return [
            _RANK_NAMES[r] + (_SUIT_LETTERS[s] if s >= 0 else "")
            for r, s in zip(self.rank.tolist(), self.suit.tolist(), strict=True)
        ]


@dataclass(frozen=True)
class _Rules:
    """Lookup tables from a profile, for vectorised decisions."""

    player_draws: BoolArray  # [pv, bv]: odds.rules.draw's table
    bank_draws: BoolArray  # [pv, bv, player third value 0..9 or 10 = stood]
    tableau: bool
    stop: bool
    category: IntArray  # [pv, bv, pf, bf] -> category code: odds.rules.settle's table
    by_value: bool
    amounts: list[Fraction | None]
    bonus_always: bool

    @classmethod
    def of(cls, profile: Profile) -> _Rules:
        p_rule, b_rule = profile.player_draw, profile.bank_draw
        if p_rule is None or b_rule is None:
            raise ProfileError(
                f"profile {profile.key!r} has no fixed draw rule (players and bank choose): "
                "it cannot be simulated without a strategy"
            )
        table = draw_table(profile)
        return cls(
            np.array(table.player, dtype=bool), np.array(table.bank, dtype=bool),
            b_rule.tableau is not None, profile.naturals_stop_draws, _category_codes(profile),
            profile.colon_match is ColonMatch.VALUE, pay_amounts(profile),
            profile.bonus_on is BonusOn.ALWAYS,
        )


_CODE = {category_name(code): code for code in range(N_CATS)}
_OUTCOME_OF_CODE = np.array([OUTCOMES.index(category_outcome(category_name(code)).value)
                             for code in range(N_CATS)], dtype=np.int8)


def _category_codes(profile: Profile) -> IntArray:
    table = category_table(profile)
    return np.array([[[[_CODE[f"{outcome.value}_{how}"] for outcome, how in row]
                       for row in by_pf] for by_pf in by_bv] for by_bv in table], dtype=np.int8)


@dataclass
class _Batch:
    """Results of a batch of rounds: arrays (rounds, seats) or (rounds,) for the bank."""

    first: IntArray  # card ids of the first 2N+2 slots (deal order)
    p3: IntArray  # (B, N) player third-card ids (meaningful where pdraw)
    b3: IntArray  # (B,) bank third-card id (meaningful where bdraw)
    pv: IntArray
    bv: IntArray
    pf: IntArray
    bf: IntArray
    pcol: IntArray
    bcol: IntArray
    pdraw: BoolArray
    bdraw: BoolArray
    cat: IntArray
    pay: IntArray


def _colon(rules: _Rules, r1: Any, r2: Any, v1: Any, v2: Any) -> IntArray:
    same = (v1 == v2) if rules.by_value else (r1 == r2)
    out: IntArray = np.where(same, np.where(r1 == NINE, 2, 1), 0).astype(np.int8)
    return out


def _play(
    rules: _Rules,
    cards: _Cards,
    seats: int,
    first: IntArray,
    third: Callable[[BoolArray], tuple[IntArray, IntArray]],
) -> _Batch:
    """Play a batch of rounds from the first 2N+2 card ids of each."""
    n = seats
    point, rank = cards.point, cards.rank
    pts = point[first]
    rks = rank[first]
    p1, p2 = pts[:, :n], pts[:, n + 1: 2 * n + 1]
    b1, b2 = pts[:, n], pts[:, 2 * n + 1]
    pv = MOD10[p1 + p2]
    bv = MOD10[b1 + b2]
    # The draw table is heads-up; past one seat the rules decide each hand on
    # its own two cards alone (a tableau or naturals stopping draws is refused
    # there), so seat 1's cells are the bank's.
    pdraw = rules.player_draws[pv, bv[:, None]]
    p3, b3 = third(pdraw)
    x = point[p3]
    pf = np.where(pdraw, MOD10[pv + x], pv)
    bdraw = rules.bank_draws[pv[:, 0], bv, np.where(pdraw[:, 0], x[:, 0], STOOD)]
    bf = np.where(bdraw, MOD10[bv + point[b3]], bv)
    # Who won and how: odds.rules.settle's category of (pv, bv, pf, bf), by lookup.
    cat = rules.category[pv, bv[:, None], pf, bf[:, None]]
    outcome = _OUTCOME_OF_CODE[cat]
    win = outcome == 0
    loss = outcome == 2
    pcol = _colon(rules, rks[:, :n], rks[:, n + 1: 2 * n + 1], p1, p2)
    bcol = _colon(rules, rks[:, n], rks[:, 2 * n + 1], b1, b2)
    amounts = rules.amounts
    pay = np.where(win, WIN, np.where(loss, LOSS, PUSH))
    bcc = bcol[:, None]
    if amounts[BANK_COLON] is not None:
        pay = np.where(loss & (bcc >= 1), BANK_COLON, pay)
    if amounts[BANK_COLON_NINE] is not None:
        pay = np.where(loss & (bcc == 2), BANK_COLON_NINE, pay)
    paid = True if rules.bonus_always else win
    if amounts[COLON] is not None:
        pay = np.where(paid & (pcol >= 1), COLON, pay)
    if amounts[COLON_NINE] is not None:
        pay = np.where(paid & (pcol == 2), COLON_NINE, pay)
    return _Batch(first, p3, b3, pv, bv, pf, bf, pcol, bcol, pdraw, bdraw, cat, pay)


def _fresh_deal(rng: np.random.Generator, cards: _Cards, rounds: int, slots: int) -> IntArray:
    """Card ids for ``rounds`` rounds of ``slots`` cards, each from a fresh shoe."""
    size = cards.size
    ID = _id_type(size)
    if cards.infinite:
        return rng.integers(0, size, size=(rounds, slots), dtype=ID).astype(np.intp)
    ids = np.empty((rounds, slots), dtype=ID)
    for j in range(slots):
        col = rng.integers(0, size, size=rounds, dtype=ID)
        if j:
            bad = ids[:, 0] == col
            for k in range(1, j):
                bad |= ids[:, k] == col
            redo = np.flatnonzero(bad)
            while redo.size:
                new = rng.integers(0, size, size=redo.size, dtype=ID)
                col[redo] = new
                clash = (ids[redo, :j] == new[:, None]).any(axis=1)
                redo = redo[clash]
        ids[:, j] = col
    return ids.astype(np.intp)


@dataclass(frozen=True)
class Simulation:
    """The result of :func:`simulate`: the run's header and one tally per seat."""

    header: RunHeader
    rounds: int
    tallies: tuple[Tally, ...]
    shoes: int  # shoes shuffled (= rounds with reshuffle 'round')

    @property
    def cut_cards(self) -> int | None:
        """Cards left behind the cut card in every shoe (None: a fresh shoe every round)."""
        h = self.header
        if h.reshuffle != "cut" or h.penetration is None:
            return None
        return h.shoe.size - cut_position(h.shoe.size, h.penetration)

    @property
    def note(self) -> str | None:
        """What a reader must know about the figures (the cut-card caveat)."""
        return CUT_NOTE if self.header.reshuffle == "cut" else None

    def expected_value(self, seat: int = 1) -> Fraction:
        """The seat's average net payout per unit stake over the run."""
        pays = self.tallies[seat - 1].payouts or {}
        return sum((a * c for a, c in pays.items()), Fraction(0)) / self.rounds


class _Accumulator:
    """Adds batches into per-seat integer counts."""

    def __init__(self, seats: int) -> None:
        self.n = seats
        self.cats = np.zeros((seats, N_CATS), dtype=np.int64)
        self.vectors = {k: np.zeros((seats, 10), dtype=np.int64) for k in ("pv", "bv", "pf", "bf")}
        self.pcol = np.zeros((seats, 3), dtype=np.int64)
        self.bcol = np.zeros(3, dtype=np.int64)
        self.pdraw = np.zeros(seats, dtype=np.int64)
        self.bdraw = 0
        self.pay = np.zeros((seats, len(PAY_NAMES)), dtype=np.int64)
        self.rounds = 0

    def add(self, b: _Batch) -> None:
        n = self.n

        def per_seat(codes: IntArray, width: int) -> IntArray:
            flat = (codes + np.arange(n) * width).ravel()
            out: IntArray = np.bincount(flat, minlength=n * width).reshape(n, width)
            return out

        self.cats += per_seat(b.cat, N_CATS)
        self.vectors["pv"] += per_seat(b.pv, 10)
        self.vectors["pf"] += per_seat(b.pf, 10)
        self.vectors["bv"] += np.bincount(b.bv, minlength=10)[None, :]
        self.vectors["bf"] += np.bincount(b.bf, minlength=10)[None, :]
        self.pcol += per_seat(b.pcol.astype(np.intp), 3)
        self.bcol += np.bincount(b.bcol.astype(np.intp), minlength=3)
        self.pdraw += b.pdraw.sum(axis=0)
        self.bdraw += int(b.bdraw.sum())
        self.pay += per_seat(b.pay, len(PAY_NAMES))
        self.rounds += len(b.bv)

    def tallies(self, profile: Profile, amounts: list[Fraction | None]) -> tuple[Tally, ...]:
        names = set(category_names(profile))
        out = []
        for s in range(self.n):
            cats = {category_name(c): int(k) for c, k in enumerate(self.cats[s])}
            extra = {k: v for k, v in cats.items() if v and k not in names}
            assert not extra, f"simulated categories outside the profile: {extra}"
            ordered = {name: cats.get(name, 0) for name in category_names(profile)}
            payouts: dict[Fraction, int] = {}
            for code, count in enumerate(self.pay[s].tolist()):
                if count:
                    amount = amounts[code]
                    assert amount is not None
                    payouts[amount] = payouts.get(amount, 0) + count
            out.append(Tally(
                seat=s + 1,
                rounds=self.rounds,
                categories=ordered,
                player_value=self.vectors["pv"][s].tolist(),
                bank_value=self.vectors["bv"][s].tolist(),
                player_final=self.vectors["pf"][s].tolist(),
                bank_final=self.vectors["bf"][s].tolist(),
                player_colon=int(self.pcol[s, 1] + self.pcol[s, 2]),
                player_colon_nine=int(self.pcol[s, 2]),
                bank_colon=int(self.bcol[1] + self.bcol[2]),
                bank_colon_nine=int(self.bcol[2]),
                player_draws=int(self.pdraw[s]),
                bank_draws=self.bdraw,
                payouts=payouts,
                bets=_bets_by_outcome(profile, ordered),
            ))
        return tuple(out)


def _bets_by_outcome(profile: Profile,
                     categories: dict[str, int]) -> dict[str, dict[Fraction, int]] | None:
    """Punto-banco's banker and tie bets, counted by net payout from the outcomes."""
    outcome = {"win": 0, "push": 0, "loss": 0}
    for name, count in categories.items():
        outcome[name.split("_")[0]] += count
    bets: dict[str, dict[Fraction, int]] = {}
    for name, pays in (("banker", profile.banker_pays), ("tie", profile.tie_pays)):
        if pays is not None:
            tally = bets[name] = {}
            for result in Outcome:
                paid = bet_amount(profile, name, result, 0, 0)
                tally[paid] = tally.get(paid, 0) + outcome[result.value]
    return {k: {a: c for a, c in v.items() if c} for k, v in bets.items()} or None


# Rounds of log text built at a time: the text of a whole batch (2^17 rounds)
# took 130 MB of strings to write 10^6 rounds; 2^14 at a time, the same bytes.
LOG_ROUNDS = 1 << 14


class _LogWriter:
    """Streams round-log rows (one per seat per round) to a temp file, renamed at the end."""

    def __init__(self, path: str | Path, header: RunHeader, cards: _Cards,
                 amounts: list[Fraction | None]) -> None:
        self.target = Path(path)
        self.file = AtomicFile(path)
        self.handle = io.StringIO()
        # Text of each card id, category and payout code: indexed a column at a time.
        self.names = np.array(cards.names(), dtype=object)
        self.pays = np.array(["" if a is None else str(a) for a in amounts], dtype=object)
        self.categories = np.array([category_name(c) for c in range(N_CATS)], dtype=object)
        self.json = self.target.suffix.lower() in (".jsonl", ".json")
        if self.json:
            self.handle.write(json.dumps({"format": "lucky9-log/1", **header.as_data()}) + "\n")
        else:
            self.handle.write("\n".join(header.comment_lines("lucky9-log/1")) + "\n")
            p = header.profile
            bets = "".join(f",bet:{name}" for name, pays in (("banker", p.banker_pays),
                                                              ("tie", p.tie_pays))
                           if pays is not None)
            self.handle.write("round,seat,player,bank,result,payout"
                              + (",shoe" if header.reshuffle == "cut" else "") + bets + "\n")
        self.seats = header.seats
        # Punto-banco's bets on the round (bet:banker, bet:tie), by player outcome code.
        p = self.profile = header.profile
        self.bets = [(name, pays) for name, pays in (("banker", p.banker_pays),
                                                    ("tie", p.tie_pays)) if pays is not None]

    def bet_columns(self, cat: IntArray) -> list[tuple[str, Any]]:
        """Each bet's net payout text per round, from the player's category codes."""
        win = (cat == 0) | ((cat >= 4) & (cat < 14))
        push = (cat == 1) | (cat == 2)
        out = []
        profile = self.profile
        for name, _ in self.bets:
            text = {o: str(bet_amount(profile, name, o, 0, 0)) for o in Outcome}
            amounts = np.where(win, text[Outcome.WIN],
                               np.where(push, text[Outcome.PUSH], text[Outcome.LOSS]))
            out.append((name, amounts.astype(object)))
        return out

    def write(self, b: _Batch, first_round: int, shoe: IntArray | None = None) -> None:
        """Append a batch's rows, :data:`LOG_ROUNDS` rounds of text at a time."""
        for lo in range(0, len(b.bv), LOG_ROUNDS):
            part = _Batch(*(getattr(b, f.name)[lo:lo + LOG_ROUNDS] for f in fields(_Batch)))
            self._write(part, first_round + lo, None if shoe is None else shoe[lo:lo + LOG_ROUNDS])

    def _write(self, b: _Batch, first_round: int, shoe: IntArray | None) -> None:
        """Append rows, built column-wise (object arrays concatenate in C)."""
        n = self.seats
        names, cats, pays = self.names, self.categories, self.pays
        count = len(b.bv)
        bank = names[b.first[:, n]] + " " + names[b.first[:, 2 * n + 1]]
        bank = np.where(b.bdraw, bank + (" " + names[b.b3]), bank)
        rounds = np.array([str(r) for r in range(first_round, first_round + count)],
                          dtype=object)
        shoes = (None if shoe is None else
                 np.array([str(k) for k in shoe.tolist()], dtype=object))
        rows = np.empty((count, n), dtype=object)
        for s in range(n):
            player = names[b.first[:, s]] + " " + names[b.first[:, n + 1 + s]]
            player = np.where(b.pdraw[:, s], player + (" " + names[b.p3[:, s]]), player)
            result, payout = cats[b.cat[:, s]], pays[b.pay[:, s]]
            bets = self.bet_columns(b.cat[:, s])
            tail: Any
            if self.json:
                tail = '"'
                if shoes is not None:
                    tail = tail + ', "shoe": ' + shoes
                for name, amounts in bets:
                    tail = tail + f', "bet:{name}": "' + amounts + '"'
                tail = tail + "}\n"
                rows[:, s] = ('{"round": ' + rounds + f', "seat": {s + 1}, "player": "'
                              + player + '", "bank": "' + bank + '", "result": "' + result
                              + '", "payout": "' + payout + tail)
            else:
                tail = "" if shoes is None else "," + shoes
                for _, amounts in bets:
                    tail = tail + "," + amounts
                tail = tail + "\n"
                rows[:, s] = (rounds + f",{s + 1}," + player + "," + bank + "," + result
                              + "," + payout + tail)
        self.handle.write("".join(rows.ravel().tolist()))
        self._flush()

    def _flush(self) -> None:
        """Hand the text written so far to the file (a batch at a time)."""
        self.file.write(self.handle.getvalue())
        self.handle.seek(0)
        self.handle.truncate()

    def close(self, keep: bool) -> None:
        """Put the log in place (``keep``) or remove it; see :class:`AtomicFile`."""
        if keep:
            self._flush()
            self.file.commit()
        else:
            self.file.discard()


def simulate(
    profile: Profile | str,
    shoe: Shoe | int | str | None = None,
    rounds: int = 100_000,
    *,
    seats: int = 1,
    seed: int | None = None,
    reshuffle: str = "round",
    penetration: float = 0.75,
    log: str | Path | None = None,
    progress: Callable[[int], None] | None = None,
    batch: int = 1 << 17,
    cut_cards: int | None = None,
) -> Simulation:
    """Simulate ``rounds`` rounds of ``seats`` players against the bank.

    ``seed`` seeds numpy's default generator (None: fresh entropy, recorded
    in the result); ``reshuffle`` is ``round`` (a fresh shoe every round) or
    ``cut`` (deal each shoe until ``penetration`` of it is used, or to a cut
    card with ``cut_cards`` cards behind it: the header records its penetration).  ``log``
    names a round log to write (CSV; JSON Lines if it ends in ``.jsonl`` or
    ``.json``); ``progress`` is called with the number of
    rounds done after each batch.

    >>> from odds.rules.profiles import BUILTIN
    >>> sim = simulate(BUILTIN["plain"], Shoe.packs_of(1), 1000, seed=7)
    >>> t = sim.tallies[0]
    >>> t.rounds, sum(t.categories.values()), sum(t.player_final)
    (1000, 1000, 1000)
    >>> simulate(BUILTIN["plain"], rounds=10, seats=9)
    Traceback (most recent call last):
    ...
    ValueError: seats must be 1 to 8 players, not 9
    """
    profile = as_profile(profile)
    shoe = as_shoe(shoe, profile.decks)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise ValueError(f"rounds must be a whole number 1 or more, not {rounds!r}")
    if isinstance(seats, bool) or not isinstance(seats, int) or not 1 <= seats <= 8:
        raise ValueError(f"seats must be 1 to 8 players, not {seats!r}")
    if reshuffle not in RESHUFFLES:
        raise ValueError(f"reshuffle must be round or cut, not {reshuffle!r}")
    rules = _Rules.of(profile)
    if seats > 1 and (rules.tableau or rules.stop):
        why = "its bank rule looks at the player's third card" if rules.tableau else (
            "a natural stops every draw, which the rules define for one player hand")
        raise ValueError(
            f"profile {profile.key!r} is defined for one player hand ({why}); "
            f"use 1 seat, not {seats}"
        )
    cards = _Cards.of(shoe)
    slots = 3 * seats + 3
    if not shoe.infinite and cards.size < slots:
        raise ValueError(
            f"the shoe ({shoe.label}) has {cards.size} cards, but a round of {seats} "
            f"seat{'s' if seats > 1 else ''} may need {slots}"
        )
    if reshuffle == "cut":
        if shoe.infinite:
            raise ValueError(
                "an infinite shoe is never cut: use reshuffle 'round' or a number of packs"
            )
        if cut_cards is not None:
            penetration = penetration_for_cut(cards.size, cut_cards)
        if not 0 < penetration <= 1:
            raise ValueError(f"penetration must be more than 0 and at most 1, not {penetration!r}")
    elif cut_cards is not None:
        raise ValueError("cut_cards places a cut card: use reshuffle 'cut', not 'round'")
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % (1 << 63))  # type: ignore[operator]
    rng = np.random.default_rng(seed)
    header = RunHeader(profile, shoe, seats, reshuffle,
                       penetration if reshuffle == "cut" else None, seed)
    acc = _Accumulator(seats)
    writer = _LogWriter(log, header, cards, rules.amounts) if log is not None else None
    per_batch = max(1, batch // seats)
    shoes = 0
    ok = False
    try:
        done = 0
        if reshuffle == "round":
            n = seats
            while done < rounds:
                size = min(per_batch, rounds - done)
                ids = _fresh_deal(rng, cards, size, slots)

                def fixed(pdraw: BoolArray, ids: IntArray = ids) -> tuple[IntArray, IntArray]:
                    return ids[:, 2 * n + 2: 3 * n + 2], ids[:, 3 * n + 2]

                result = _play(rules, cards, seats, ids[:, : 2 * n + 2], fixed)
                acc.add(result)
                if writer is not None:
                    writer.write(result, done + 1)
                done += size
                shoes += size
                if progress is not None:
                    progress(done)
        else:
            for result, used, shoe_of in _cut_batches(seed, rules, cards, seats, rounds,
                                                      penetration, per_batch):
                acc.add(result)
                if writer is not None:
                    writer.write(result, done + 1, shoes + 1 + shoe_of)
                done += len(result.bv)
                shoes += used
                if progress is not None:
                    progress(done)
        ok = True
    finally:
        if writer is not None:
            writer.close(ok)
    return Simulation(header, rounds, acc.tallies(profile, rules.amounts), shoes)


def _cut_batches(seed: int, rules: _Rules, cards: _Cards, seats: int, rounds: int,
                 penetration: float, per_batch: int) -> Any:
    """Yield (batch, shoes used) until ``rounds`` rounds, shoes dealt to the cut card.

    Many shoes are dealt side by side, one round of each per step; the rounds
    come out shoe by shoe, in the order they were dealt; shoe k of the run is
    shoe k of the seed (:func:`odds.exact.deal.shuffled_orders`).
    """
    size = cards.size
    n = seats
    cut = cut_position(size, penetration)  # at least one round per shoe
    first_slots = 2 * n + 2
    # A round starts while the cut card is not out and a full round is left.
    per_shoe = max(1, cut // (2 * n + 2))
    done = 0
    dealt = 0  # shoes dealt so far: the next batch starts at shoe ``dealt`` of the seed
    while done < rounds:
        count = max(1, min(per_batch, rounds - done) // per_shoe + 1)
        decks = shuffled_orders(size, seed, dealt, count)  # shoes dealt .. dealt + count - 1
        pos = np.zeros(count, dtype=np.intp)
        parts: list[tuple[_Batch, IntArray, int]] = []
        step = 0
        while True:
            active = np.flatnonzero((pos < cut) & (size - pos >= 3 * n + 3))
            if not active.size:
                break
            deck = decks[active]
            start = pos[active]
            take = start[:, None] + np.arange(first_slots)
            first = np.take_along_axis(deck, take, axis=1)
            row = np.arange(active.size)

            def sequential(pdraw: BoolArray, deck: IntArray = deck, start: IntArray = start,
                           row: IntArray = row) -> tuple[IntArray, IntArray]:
                before: IntArray = np.cumsum(pdraw, axis=1) - pdraw
                p_at = start[:, None] + first_slots + before
                p3 = np.take_along_axis(deck, np.minimum(p_at, size - 1), axis=1)
                b_at = start + first_slots + pdraw.sum(axis=1)
                return p3, deck[row, b_at]

            result = _play(rules, cards, seats, first, sequential)
            pos[active] = start + first_slots + result.pdraw.sum(axis=1) + result.bdraw
            parts.append((result, active, step))
            step += 1
        # Order rounds shoe by shoe: sort by (shoe, step).
        shoe_of = np.concatenate([a for _, a, _ in parts])
        step_of = np.concatenate([np.full(len(a), s) for _, a, s in parts])
        order = np.lexsort((step_of, shoe_of))[: rounds - done]
        merged = _merge([p for p, _, _ in parts], order)
        used = int(shoe_of[order].max()) + 1 if order.size else 0
        done += len(order)
        dealt += used
        yield merged, used, shoe_of[order]


def _merge(parts: list[_Batch], order: IntArray) -> _Batch:
    fields = {}
    for name in _Batch.__dataclass_fields__:
        fields[name] = np.concatenate([getattr(p, name) for p in parts])[order]
    return _Batch(**fields)
