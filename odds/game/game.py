"""Rules where people choose: the round as a two-player game, evaluated exactly.

Under the ``family`` profile (docs/rules.md, 'The family rules') only a two-card 9 is a
natural, naturals settle first and stop every draw, and then the player
chooses to stand or take one card and the bank chooses last, knowing its
own cards and whether the player took one.  A :class:`Game` holds, for one
profile, shoe and information model, the exact integer counts of card
sequences behind every (player information set, bank information set,
player action, bank action) combination; evaluating a pair of strategies,
or a best response, is then a weighted sum of those counts.

Only point values matter once no pair bonus is paid, so hands are
enumerated by value classes (0 = 10 J Q K, 1..9).  Counts are of ordered
six-card sequences, as in :mod:`odds.exact.engine`: the player's two cards, the
bank's two, then the two third-card slots, an unused slot being filled
anyway (padding), so every deal has the same denominator.

Information models:

* ``cards``: each side knows its own two cards.  Cards of equal point
  value are interchangeable for everything that follows (third cards count
  by value, no pair bonus is paid), so the information set is the unordered
  pair of point values, written ``0-5`` (0 stands for 10 J Q K).
* ``totals``: each side acts on its two-card value only, written ``5``.

The bank's information set adds what it saw: whether the player drew
(``stood`` / ``drew``), or, where the bank sees the player's third card
face up (chemin de fer), ``stood`` / ``third 0`` .. ``third 9``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from odds.game.errors import GameError
from odds.rules.cards import Card
from odds.rules.draw import forced_draws
from odds.rules.errors import ProfileError
from odds.rules.profile import Profile
from odds.rules.profiles import as_profile
from odds.rules.settle import Outcome, outcome_of, plain_amounts
from odds.rules.shoe import Shoe, as_shoe

__all__ = [
    "INFORMATION",
    "BankSet",
    "Game",
    "GameError",
    "PairResult",
    "build_game",
    "chemin_de_fer",
    "hand_label",
    "hand_total",
    "value_classes",
]

INFORMATION = ("cards", "totals")
STOOD_LABEL = "stood"
DREW = "drew"

Hand = tuple[int, ...]  # (a, b) with a <= b under "cards"; (total,) under "totals"
TableSet = tuple[Hand, int, int]  # (bank hand, players who drew, non-natural players)
BankSet = tuple[Hand, str]  # (bank hand, what the bank saw)
Counts = list[int]  # [win, push, loss] counts of card sequences


def hand_total(hand: Hand) -> int:
    """The two-card value of an information-set hand.

    >>> hand_total((8, 7)), hand_total((5,))
    (5, 5)
    """
    return sum(hand) % 10


def hand_label(hand: Hand) -> str:
    """How a hand is written in charts and strategy files: ``0-5`` or ``5``.

    >>> hand_label((0, 5)), hand_label((5,))
    ('0-5', '5')
    """
    return "-".join(map(str, hand))


def third_label(x: int | None) -> str:
    """What a bank that sees the player's third card saw: ``stood`` or ``third x``."""
    return STOOD_LABEL if x is None else f"third {x}"


def value_classes(shoe: Shoe) -> tuple[int, ...]:
    """Cards per point value 0..9 (10 J Q K count 0).

    >>> value_classes(Shoe.packs_of(1))
    (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)
    """
    c = shoe.counts
    return (c[9] + c[10] + c[11] + c[12], *c[:9])


@dataclass(frozen=True)
class PairResult:
    """Exact figures of one round for the player seat under given strategies."""

    win: Fraction
    push: Fraction
    loss: Fraction
    expected_value: Fraction
    player_draws: Fraction
    bank_draws: Fraction


@dataclass(frozen=True, eq=False)
class Game:
    """The heads-up round under one profile, shoe and information model.

    ``player_sets`` are the player's information sets (non-natural hands),
    ``bank_sets`` the bank's (hand, what it saw).  ``player_forced`` and
    ``bank_forced`` give the action a rule imposes (True: draw), absent
    where the side chooses.  ``cells`` maps (player hand, bank hand, seen,
    bank draws) to [win, push, loss] counts, the player's action being
    implied by ``seen``; ``settled`` counts the deals a natural settles.
    Every count is out of ``total`` ordered six-card sequences.
    """

    profile: Profile
    shoe: Shoe
    information: str
    bank_sees_third: bool
    player_sets: tuple[Hand, ...]
    bank_sets: tuple[BankSet, ...]
    player_forced: Mapping[Hand, bool]
    bank_forced: Mapping[BankSet, bool]
    cells: Mapping[tuple[Hand, Hand, str, bool], Counts] = field(repr=False)
    settled: Counts = field(repr=False)
    total: int
    bank_information: str | None = None  # None: the same as ``information``

    @property
    def player_choices(self) -> tuple[Hand, ...]:
        """Player information sets where the player chooses."""
        return tuple(h for h in self.player_sets if h not in self.player_forced)

    @property
    def bank_choices(self) -> tuple[BankSet, ...]:
        """Bank information sets where the bank chooses."""
        return tuple(s for s in self.bank_sets if s not in self.bank_forced)

    def seen_labels(self) -> tuple[str, ...]:
        """The bank's observations, in chart order."""
        if self.bank_sees_third:
            return (STOOD_LABEL, *(third_label(x) for x in range(10)))
        return (STOOD_LABEL, DREW)

    def player_prob(self, strategy: Mapping[Hand, Fraction], hand: Hand) -> Fraction:
        """P(the player draws) at ``hand``: the rule's if forced, else the strategy's."""
        forced = self.player_forced.get(hand)
        if forced is not None:
            return Fraction(int(forced))
        return strategy[hand]

    def bank_prob(self, strategy: Mapping[BankSet, Fraction], where: BankSet) -> Fraction:
        """P(the bank draws) at ``where``: the rule's if forced, else the strategy's."""
        forced = self.bank_forced.get(where)
        if forced is not None:
            return Fraction(int(forced))
        return strategy[where]

    def evaluate(
        self, player: Mapping[Hand, Fraction], bank: Mapping[BankSet, Fraction]
    ) -> PairResult:
        """Exact P(win/push/loss), EV and draw frequencies for a strategy pair.

        >>> from odds.rules.profiles import BUILTIN
        >>> g = build_game(BUILTIN["family"], Shoe.infinite_shoe(), "totals")
        >>> never_p = {h: Fraction(0) for h in g.player_choices}
        >>> never_b = {s: Fraction(0) for s in g.bank_choices}
        >>> g.evaluate(never_p, never_b).expected_value
        Fraction(0, 1)
        """
        sums = [Fraction(0)] * 3
        p_draw = b_draw = Fraction(0)
        for (ph, bh, seen, db), counts in self.cells.items():
            rp = self.player_prob(player, ph)
            pa = rp if seen != STOOD_LABEL else 1 - rp
            rb = self.bank_prob(bank, (bh, seen))
            pb = rb if db else 1 - rb
            w = pa * pb
            if not w:
                continue
            for k in range(3):
                sums[k] += w * counts[k]
            mass = w * sum(counts)
            if seen != STOOD_LABEL:
                p_draw += mass
            if db:
                b_draw += mass
        settled = [Fraction(c) for c in self.settled]
        win, push, loss = (
            (s + c) / self.total for s, c in zip(sums, settled, strict=True)
        )
        return PairResult(
            win, push, loss, self.seat_value((win, push, loss)),
            p_draw / self.total, b_draw / self.total,
        )

    def seat_value(self, counts: Sequence[Any]) -> Fraction:
        """The seat's result from [win, push, loss] counts (or probabilities).

        The amounts are odds.rules.settle's (:func:`~odds.rules.settle.plain_amounts`):
        the game's rules pay no Colon bonus.
        """
        a_win, a_push, a_loss = self._amounts
        return Fraction(counts[0] * a_win + counts[1] * a_push + counts[2] * a_loss)

    @cached_property
    def _amounts(self) -> tuple[Fraction, Fraction, Fraction]:
        return plain_amounts(self.profile)

    @cached_property
    def _ev(self) -> dict[tuple[Hand, Hand, str, bool], Fraction]:
        return {key: self.seat_value(c) for key, c in self.cells.items()}

    def ev_numerators(self) -> dict[tuple[Hand, Hand, str, bool], Fraction]:
        """Per cell, the player's expected-value numerator (:meth:`seat_value`)."""
        return dict(self._ev)

    def settled_ev(self) -> Fraction:
        """The EV numerator of the deals a natural settles."""
        return self.seat_value(self.settled)

    def player_best_response(
        self, bank: Mapping[BankSet, Fraction]
    ) -> tuple[dict[Hand, Fraction], Fraction]:
        """The player's exact best response to a bank strategy, and its EV.

        Ties draw nothing (stand).  Each information set is decided alone:
        the player moves once, so a best response is local.

        >>> from odds.rules.profiles import BUILTIN
        >>> g = build_game(BUILTIN["family"], Shoe.infinite_shoe(), "totals")
        >>> best, ev = g.player_best_response({s: Fraction(0) for s in g.bank_choices})
        >>> [hand_label(h) for h, p in best.items() if p], ev > 0
        (['0', '1', '2', '3', '4'], True)
        """
        gain: dict[Hand, list[Fraction]] = defaultdict(lambda: [Fraction(0), Fraction(0)])
        for key, ev in self._ev.items():
            ph, bh, seen, db = key
            rb = self.bank_prob(bank, (bh, seen))
            gain[ph][seen != STOOD_LABEL] += ev * (rb if db else 1 - rb)
        best: dict[Hand, Fraction] = {}
        value = self.settled_ev()
        for ph in self.player_sets:
            stand, draw = gain[ph]
            forced = self.player_forced.get(ph)
            if forced is None:
                best[ph] = Fraction(int(draw > stand))
                value += max(stand, draw)
            else:
                value += draw if forced else stand
        return best, value / self.total

    def bank_best_response(
        self, player: Mapping[Hand, Fraction]
    ) -> tuple[dict[BankSet, Fraction], Fraction]:
        """The bank's exact best response to a player strategy, and the player's EV.

        The bank minimises the player's EV at each of its information sets
        (it moves last, so that is a best response); ties stand.

        >>> from odds.rules.profiles import BUILTIN
        >>> g = build_game(BUILTIN["family"], Shoe.infinite_shoe(), "totals")
        >>> best, ev = g.bank_best_response({h: Fraction(0) for h in g.player_choices})
        >>> sorted({hand_label(h) for (h, seen), p in best.items() if p}), ev < 0
        (['0', '1', '2', '3', '4'], True)
        """
        gain: dict[BankSet, list[Fraction]] = defaultdict(lambda: [Fraction(0), Fraction(0)])
        for key, ev in self._ev.items():
            ph, bh, seen, db = key
            rp = self.player_prob(player, ph)
            gain[bh, seen][db] += ev * (rp if seen != STOOD_LABEL else 1 - rp)
        best: dict[BankSet, Fraction] = {}
        value = self.settled_ev()
        for where in self.bank_sets:
            stand, draw = gain[where]
            forced = self.bank_forced.get(where)
            if forced is None:
                best[where] = Fraction(int(draw < stand))
                value += min(stand, draw)
            else:
                value += draw if forced else stand
        return best, value / self.total


def _player_forced(profile: Profile) -> dict[int, bool]:
    """The player's fixed decisions by two-card value, where no natural settles first."""
    plain = [v for v in range(10) if v not in profile.naturals]
    forced = {v: forced_draws(profile, v, plain[0])[0] for v in plain} if plain else {}
    return {v: d for v, d in forced.items() if d is not None}


def build_game(
    profile: Profile | str,
    shoe: Shoe | int | str | None,
    information: str = "cards",
    *,
    player_rule: Mapping[int, bool] | None = None,
    bank_sees_third: bool | None = None,
    bank_information: str | None = None,
    player_cards: tuple[Card, ...] = (),
    bank_cards: tuple[Card, ...] = (),
) -> Game:
    """Count every deal of a heads-up round as a game between player and bank.

    ``player_rule`` forces the player's action on some two-card values
    (True: must draw), leaving the others to choice; by default a profile
    with a fixed player rule forces every value and ``choice`` forces none.
    The bank sees the player's third card face up when its profile rule has
    a tableau, or when ``bank_sees_third`` says so.  ``player_cards`` and
    ``bank_cards`` fix a side's two cards (taken out of a finite shoe).

    >>> from odds.rules.profiles import BUILTIN
    >>> g = build_game(BUILTIN["family"], Shoe.packs_of(1), "totals")
    >>> len(g.player_choices), len(g.bank_choices), g.total == 52 * 51 * 50 * 49 * 48 * 47
    (9, 18, True)
    """
    profile = as_profile(profile)
    shoe = as_shoe(shoe, profile.decks)
    for info in (information, bank_information or information):
        if info not in INFORMATION:
            raise GameError(
                f"{info!r} is not an information model (use cards or totals)"
            )
    if profile.bonuses or profile.bank_bonus:
        raise ProfileError(
            f"profile {profile.key!r} pays Colon bonuses, which depend on ranks; "
            "the game solver handles rules without pair bonuses (a profile with colon "
            "and colon_nine none, such as family)"
        )
    if not profile.naturals_stop_draws:
        raise ProfileError(
            f"profile {profile.key!r} lets hands draw against a natural; the game "
            "solver needs naturals_stop_draws on (naturals settle first)"
        )
    naturals = profile.naturals
    forced_p = dict(player_rule) if player_rule is not None else _player_forced(profile)
    bank_rule = profile.bank_draw
    sees = bank_sees_third
    if sees is None:
        sees = profile.bank_sees_third
    if sees is None:
        sees = bank_rule is not None and bank_rule.tableau is not None
    for cards, who in ((player_cards, "player"), (bank_cards, "bank")):
        if len(cards) not in (0, 2):
            raise GameError(
                f"give the {who}'s two cards or none, not {len(cards)} "
                f"({' '.join(map(str, cards))}): the game starts from two-card hands"
            )
    inf = shoe.infinite
    left = shoe
    if not inf:
        if player_cards:
            left = left.without(player_cards, "player cards")
        if bank_cards:
            left = left.without(bank_cards, "bank cards")
    vc0 = value_classes(left)
    n0 = sum(vc0)
    slots = 6 - len(player_cards) - len(bank_cards)
    if not inf and n0 < slots:
        raise GameError(
            f"the shoe has {n0} cards left, but a round fills {slots} more card slots "
            "(counted as full six-card deals)"
        )
    known_p = tuple(sorted(c.points for c in player_cards))
    known_b = tuple(sorted(c.points for c in bank_cards))

    def key_of(a: int, b: int, info: str = information) -> Hand:
        return (a, b) if info == "cards" else ((a + b) % 10,)

    bank_info = bank_information or information

    def pairs(vc: tuple[int, ...], known: tuple[int, ...]) -> list[tuple[int, int, int]]:
        if known:
            return [(known[0], known[1], 1)]
        out = []
        for a in range(10):
            for b in range(a, 10):
                if a == b:
                    w = vc[a] * vc[a] if inf else vc[a] * (vc[a] - 1)
                else:
                    w = 2 * vc[a] * vc[b]
                if w:
                    out.append((a, b, w))
        return out

    cells: dict[tuple[Hand, Hand, str, bool], Counts] = defaultdict(lambda: [0, 0, 0])
    settled = [0, 0, 0]
    player_sets: set[Hand] = set()
    bank_sets: set[BankSet] = set()
    index = {Outcome.WIN: 0, Outcome.PUSH: 1, Outcome.LOSS: 2}

    # Settlement by (two-card values, final values), looked up, not recomputed.
    table = [
        index[outcome_of(profile, pv, bv, pf, bf)]
        for pv in range(10) for bv in range(10) for pf in range(10) for bf in range(10)
    ]

    def add(counts: Counts, pv: int, bv: int, pf: int, bf: int, weight: int) -> None:
        counts[table[((pv * 10 + bv) * 10 + pf) * 10 + bf]] += weight

    total = 0
    for a, b, wp in pairs(vc0, known_p):
        vc1 = vc0 if inf or known_p else tuple(c - (v == a) - (v == b) for v, c in enumerate(vc0))
        pv = (a + b) % 10
        ph = key_of(a, b)
        for c, d, wb in pairs(vc1, known_b):
            w = wp * wb
            bv = (c + d) % 10
            vc = vc1 if inf or known_b else tuple(
                x - (v == c) - (v == d) for v, x in enumerate(vc1)
            )
            n = sum(vc)
            dec = 0 if inf else 1
            total += w * n * (n - dec)
            if pv in naturals or bv in naturals:
                add(settled, pv, bv, pv, bv, w * n * (n - dec))
                continue
            bh = key_of(c, d, bank_info)
            player_sets.add(ph)
            # The player stands: the bank's card (if any) is the next one, the
            # other slot is padding.
            bank_sets.add((bh, STOOD_LABEL))
            for db in (False, True):
                cell = cells[ph, bh, STOOD_LABEL, db]
                if db:
                    for y in range(10):
                        if vc[y]:
                            add(cell, pv, bv, pv, (bv + y) % 10, w * vc[y] * (n - dec))
                else:
                    add(cell, pv, bv, pv, bv, w * n * (n - dec))
            for x in range(10):
                if not vc[x]:
                    continue
                seen = third_label(x) if sees else DREW
                bank_sets.add((bh, seen))
                wx = w * vc[x]
                pf = (pv + x) % 10
                add(cells[ph, bh, seen, False], pv, bv, pf, bv, wx * (n - dec))
                cell = cells[ph, bh, seen, True]
                for y in range(10):
                    cy = vc[y] - (dec and y == x)
                    if cy:
                        add(cell, pv, bv, pf, (bv + y) % 10, wx * cy)
    if not total:
        raise GameError(f"no round can be dealt from this shoe ({shoe.label})")
    forced_b: dict[BankSet, bool] = {}
    plain = [v for v in range(10) if v not in naturals]
    for bh, seen in bank_sets:
        # Only hands that no natural settles reach a choice: read the bank's
        # cell against any player value that is no natural.
        third = None if seen == STOOD_LABEL or not sees else int(seen.split()[1])
        bank_draws = forced_draws(profile, plain[0], hand_total(bh), third)[1]
        if bank_draws is not None:
            forced_b[bh, seen] = bank_draws
    p_forced = {h: forced_p[hand_total(h)] for h in player_sets if hand_total(h) in forced_p}
    order = {s: i for i, s in enumerate((STOOD_LABEL, DREW, *(third_label(x) for x in range(10))))}
    return Game(
        profile=profile,
        shoe=shoe,
        information=information,
        bank_sees_third=sees,
        player_sets=tuple(sorted(player_sets)),
        bank_sets=tuple(sorted(bank_sets, key=lambda s: (s[0], order[s[1]]))),
        player_forced=p_forced,
        bank_forced=forced_b,
        cells=dict(cells),
        settled=settled,
        total=total,
        bank_information=bank_information if bank_information != information else None,
    )


def chemin_de_fer(shoe: Shoe | int | str | None = None, information: str = "totals") -> Game:
    """Chemin de fer under Kemeny and Snell's model, as a game.

    Naturals 8 and 9 settle at once; the player must draw on 0-4, stand on
    6-7 and chooses on 5; the banker sees its own cards and the player's
    third card face up (or that the player stood) and chooses freely.

    >>> g = chemin_de_fer()
    >>> [hand_label(h) for h in g.player_choices], len(g.bank_choices)
    (['5'], 88)
    """
    from odds.rules.profiles import BUILTIN

    profile = BUILTIN["punto-banco"].with_options(
        player_draw="choice", bank_draw="choice", banker_pays="none", tie_pays="none"
    )
    rule = {v: v <= 4 for v in range(8) if v != 5}
    return build_game(
        profile, Shoe.infinite_shoe() if shoe is None else as_shoe(shoe), information,
        player_rule=rule, bank_sees_third=True,
    )
