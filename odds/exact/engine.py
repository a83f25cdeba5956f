"""The exact engine: integer counts of ordered card sequences for one round.

One player seat against the bank.  The round deals six card slots: the
player's two cards, the bank's two, the player's third and the bank's third.
A slot a hand does not use is still filled (from the cards left), so every
sequence is a full six-card ordering and the fresh 8-pack total is
416*415*414*413*412*411; known cards fill their slots and are not counted.

The enumeration works in two stages.  The first two cards of each hand are
enumerated by rank (Colon pairs need ranks), as unordered pairs with their
multiplicity; the third cards only matter by point value, so the second stage
works on the ten value classes of what is left and is memoised on that
composition.  Counts are Python integers end to end; :class:`RoundOdds`
divides once, into ``Fraction``.

A seat at a table of N players: under a fixed-rule profile nobody's draw
depends on any other player's cards, so the other seats' cards are just
cards not seen by this seat; by exchangeability of a shuffled shoe, the
seat's cards and the bank's are a uniform random sample whatever N and the
seat's position.  The heads-up figures are therefore every seat's figures
(tests/exact/test_engine.py checks this by brute force).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from odds.exact.results import RoundOdds
from odds.rules.cards import POINTS, Card, parse_cards
from odds.rules.draw import STOOD, DrawTable, draw_table
from odds.rules.errors import ProfileError
from odds.rules.profile import Profile
from odds.rules.profiles import as_profile
from odds.rules.rule_types import ColonMatch
from odds.rules.settle import COLON, COLON_NINE, NO_COLON, category
from odds.rules.shoe import Shoe, as_shoe

__all__ = ["ConditionError", "KnownCards", "clear_rounds", "draw_leaves", "falling", "pair_options",
           "round_odds", "third_card_leaves", "two_card_groups"]

NINE = 8  # rank index of the 9


class ConditionError(ValueError):
    """Known or removed cards that no deal under the profile can produce."""


@dataclass(frozen=True)
class KnownCards:
    """What is fixed before the enumeration: the shoe left and known cards.

    ``player`` and ``bank`` hold the known cards' rank indices in deal order
    (two-card hand first, then the third card); ``counts`` are the cards left
    after known and removed cards are taken out.
    """

    counts: tuple[int, ...]
    infinite: bool
    player: tuple[int, ...]
    bank: tuple[int, ...]

    @property
    def unknown_slots(self) -> int:
        """How many of the six slots the shoe must fill."""
        return 6 - len(self.player) - len(self.bank)


def prepare(
    profile: Profile,
    shoe: Shoe,
    player: Iterable[str | Card] | str = (),
    bank: Iterable[str | Card] | str = (),
    removed: Iterable[str | Card] | str = (),
) -> tuple[KnownCards, tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    """Validate the conditions and take known and removed cards out of the shoe."""
    if not profile.fixed:
        raise ProfileError(
            f"profile {profile.key!r} has no fixed draw rule (players and bank choose): "
            "its odds depend on how they play: 'lucky9 play --strategy S --bank-strategy S' "
            "evaluates a pair of strategies, 'lucky9 solve' finds the optimal ones"
        )
    p_cards = _cards(player)
    b_cards = _cards(bank)
    r_cards = _cards(removed)
    for cards, who in ((p_cards, "player"), (b_cards, "bank")):
        if len(cards) > 3:
            raise ConditionError(
                f"the {who} holds at most 3 cards, but {len(cards)} were given "
                f"({' '.join(map(str, cards))})"
            )
    left = shoe.take([
        ("removed cards", r_cards, False),
        ("player cards", p_cards, True),
        ("bank cards", b_cards, True),
    ])
    deal = KnownCards(
        left.counts,
        shoe.infinite,
        tuple(c.rank.index for c in p_cards),
        tuple(c.rank.index for c in b_cards),
    )
    if not shoe.infinite and left.size < deal.unknown_slots:
        raise ConditionError(
            f"the shoe has {left.size} cards left, but a round fills "
            f"{deal.unknown_slots} more card slots (counted as full six-card deals)"
        )
    return deal, p_cards, b_cards, r_cards


def _cards(cards: Iterable[str | Card] | str) -> tuple[Card, ...]:
    if isinstance(cards, str):
        return parse_cards(cards) if cards.strip() else ()
    items = tuple(cards)
    return parse_cards(items) if items else ()


def pair_options(
    counts: tuple[int, ...] | list[int], known: tuple[int, ...], infinite: bool
) -> list[tuple[int, int, int, tuple[int, ...]]]:
    """Two-card hands as (class, class, number of orderings, classes drawn).

    The one enumeration of a hand's first two cards.  ``counts`` are cards
    left per class: 13 ranks, or 10 point values where only values matter.
    Unknown pairs are enumerated unordered, an unequal pair counting twice;
    ``classes drawn`` lists the classes taken from ``counts`` (``known``
    cards, given as classes, are not).

    >>> opts = pair_options((4,) * 13, (), False)
    >>> sum(w for *_, w, _ in opts) == 52 * 51
    True
    >>> pair_options([0, 2, 1], (), False)
    [(1, 1, 2, (1, 1)), (1, 2, 4, (1, 2))]
    """
    if len(known) >= 2:
        return [(known[0], known[1], 1, ())]
    if len(known) == 1:
        return [(known[0], j, c, (j,)) for j, c in enumerate(counts) if c]
    out: list[tuple[int, int, int, tuple[int, ...]]] = []
    size = len(counts)
    for i, ci in enumerate(counts):
        if not ci:
            continue
        same = ci * ci if infinite else ci * (ci - 1)
        if same:
            out.append((i, i, same, (i, i)))
        for j in range(i + 1, size):
            if counts[j]:
                out.append((i, j, 2 * ci * counts[j], (i, j)))
    return out


def colon_class(profile: Profile, r1: int, r2: int) -> int:
    """0 for no Colon, 1 for a Colon, 2 for a Colon nine (a pair of 9s).

    >>> from odds.rules.profiles import BUILTIN
    >>> colon_class(BUILTIN["standard"], 9, 12), colon_class(BUILTIN["standard"], 8, 8)
    (0, 2)
    >>> colon_class(BUILTIN["standard"].with_options(colon_match="value"), 9, 12)
    1
    """
    if r1 == r2 == NINE:
        return COLON_NINE
    if r1 == r2 or (profile.colon_match is ColonMatch.VALUE and POINTS[r1] == POINTS[r2]):
        return COLON
    return NO_COLON


def initial_groups(
    profile: Profile, deal: KnownCards
) -> dict[tuple[int, int, int, int, tuple[int, ...]], int]:
    """Counts of the four two-card slots, grouped by what the rest depends on.

    Key: (player value, bank value, player Colon class, bank Colon class,
    point values of the cards drawn from the shoe).
    """
    groups: dict[tuple[int, int, int, int, tuple[int, ...]], int] = defaultdict(int)
    base = list(deal.counts)
    colon = [[colon_class(profile, a, b) for b in range(13)] for a in range(13)]
    for r1, r2, wp, taken_p in pair_options(base, deal.player[:2], deal.infinite):
        pv = (POINTS[r1] + POINTS[r2]) % 10
        pcol = colon[r1][r2]
        p_points = tuple(POINTS[r] for r in taken_p)
        left = base
        if taken_p and not deal.infinite:
            left = base.copy()
            for r in taken_p:
                left[r] -= 1
        for r3, r4, wb, taken_b in pair_options(left, deal.bank[:2], deal.infinite):
            bv = (POINTS[r3] + POINTS[r4]) % 10
            # Player's drawn points, then the bank's: the same composition
            # may come under two keys; the draw-stage memo merges them.
            drawn = p_points + tuple(POINTS[r] for r in taken_b)
            groups[pv, bv, pcol, colon[r3][r4], drawn] += wp * wb
    return groups


def _check_totals(player_total: int | None, bank_total: int | None) -> None:
    for total, who in ((player_total, "player"), (bank_total, "bank")):
        if total is not None and (isinstance(total, bool) or total not in range(10)):
            raise ConditionError(
                f"{total!r} is not a two-card value for the {who} (values run 0-9)"
            )


def two_card_groups(
    profile: Profile, deal: KnownCards, player_total: int | None = None, bank_total: int | None = None
) -> Iterator[tuple[int, int, int, int, tuple[int, ...], int]]:
    """The two-card stage as (pv, bv, pcol, bcol, value counts left, count).

    :func:`initial_groups` with the composition the draw stage starts from,
    keeping only the given two-card values (``player_total``/``bank_total``).

    >>> from odds.rules.profiles import BUILTIN
    >>> deal, *_ = prepare(BUILTIN["standard"], Shoe.packs_of(1))
    >>> sum(w for *_, w in two_card_groups(BUILTIN["standard"], deal, 9)) == 256 * 50 * 49
    True
    """
    _check_totals(player_total, bank_total)
    base_vc = value_counts(deal.counts)
    for (pv, bv, pcol, bcol, drawn), weight in initial_groups(profile, deal).items():
        if (player_total is not None and pv != player_total) or (
            bank_total is not None and bv != bank_total
        ):
            continue
        vc = base_vc.copy()
        if not deal.infinite:
            for v in drawn:
                vc[v] -= 1
        yield pv, bv, pcol, bcol, tuple(vc), weight


def value_counts(counts: Iterable[int]) -> list[int]:
    """Cards left per point value 0..9 from per-rank counts.

    >>> value_counts([4] * 13)
    [16, 4, 4, 4, 4, 4, 4, 4, 4, 4]
    """
    c = list(counts)
    return [c[9] + c[10] + c[11] + c[12], *c[:9]]


def falling(n: int, k: int, infinite: bool) -> int:
    """n (n-1) ... (n-k+1): ways to deal k cards in order from n; n**k from an infinite shoe.

    >>> falling(52, 2, False), falling(10, 2, True)
    (2652, 100)
    """
    out = 1
    if infinite:
        for _ in range(k):
            out *= n
        return out
    for i in range(k):
        out *= n - i
    return out


Leaf = tuple[int | None, int | None, int]


def _draw_options(
    table: DrawTable, pv: int, bv: int, vc: tuple[int, ...], deal: KnownCards
) -> tuple[list[tuple[int | None, int]], tuple[bool, ...], int | None, int | None]:
    """What the summed draw stage (:class:`_Stage`) starts from, given the profile's draw table.

    Returns the player's third-card options (value or None for standing,
    with their counts; empty if a known third card cannot be drawn), the
    bank's row of the draw table (``row[x]``: whether it draws on the
    player's third card ``x``, :data:`~odds.rules.draw.STOOD` where the player
    stood), and the known third-card values.
    """
    p3 = POINTS[deal.player[2]] if len(deal.player) > 2 else None
    b3 = POINTS[deal.bank[2]] if len(deal.bank) > 2 else None
    p_opts: list[tuple[int | None, int]]
    if table.player[pv][bv]:
        p_opts = [(p3, 1)] if p3 is not None else [(x, c) for x, c in enumerate(vc) if c]
    elif p3 is not None:
        p_opts = []
    else:
        p_opts = [(None, 1)]
    return p_opts, table.bank[pv][bv], p3, b3


def third_card_leaves(
    profile: Profile,
    pv: int,
    bv: int,
    vc: tuple[int, ...],
    deal: KnownCards,
) -> list[Leaf]:
    """The draw stage: (player third value or None, bank's, count) leaves.

    :func:`draw_leaves` with the deal's known third cards (given by hand).
    """
    third: dict[str, int] = {}
    if len(deal.player) > 2:
        third["p3"] = POINTS[deal.player[2]]
    if len(deal.bank) > 2:
        third["b3"] = POINTS[deal.bank[2]]
    return draw_leaves(profile, pv, bv, vc, deal.infinite, third)


def draw_leaves(
    profile: Profile,
    pv: int,
    bv: int,
    vc: Sequence[int],
    infinite: bool,
    third: Mapping[str, int] | None = None,
) -> list[Leaf]:
    """The draw stage's leaves: (player third value or None, bank's, count of deals).

    The one enumeration of the third cards: ``vc`` are the cards left per
    point value once the first four are dealt, and the rules decide (through
    :func:`odds.rules.draw.draw_table`) who draws.  ``third`` holds known
    third cards as point values, by hand (``p3``, ``b3``) or by slot (``s5``,
    the fifth card dealt, the player's third if it draws and the bank's
    otherwise; ``s6``).  Counts include the padding of the unused third-card
    slots (a known one counts once, the others are any card left), so every
    deal is a full six-card ordering; a known third card that the rules
    would not draw makes its branch impossible (no leaf).

    >>> from odds.rules.profiles import BUILTIN
    >>> vc = (16,) + (4,) * 9  # 52 cards left
    >>> draw_leaves(BUILTIN["standard"], 7, 6, vc, False)  # both stand: slots 5, 6 padded
    [(None, None, 2652)]
    >>> draw_leaves(BUILTIN["standard"], 7, 6, vc, False, {"p3": 4})  # a 7 never draws
    []
    """
    table = draw_table(profile)
    bank_row = table.bank[pv][bv]
    third = third or {}
    p_draws = table.player[pv][bv]
    n = sum(vc)
    x_opts: list[tuple[int | None, int, bool]]  # value, ways, drawn from the shoe
    if p_draws:
        known_x = third.get("p3", third.get("s5"))
        x_opts = ([(known_x, 1, False)] if known_x is not None
                  else [(v, c, True) for v, c in enumerate(vc) if c])
    elif "p3" in third:
        return []
    else:
        x_opts = [(None, 1, False)]
    leaves: list[Leaf] = []
    for x, wx, drew_x in x_opts:
        vc2 = vc
        if drew_x and not infinite:
            vc2 = tuple(c - (v == x) for v, c in enumerate(vc))
        n2 = n - (drew_x and not infinite)
        b_draws = bank_row[STOOD if x is None else x]
        bank_slot = "s6" if p_draws else "s5"
        y_opts: list[tuple[int | None, int, bool]]
        if b_draws:
            known_y = third.get("b3", third.get(bank_slot))
            y_opts = ([(known_y, 1, False)] if known_y is not None
                      else [(v, c, True) for v, c in enumerate(vc2) if c])
        elif "b3" in third:
            continue
        else:
            y_opts = [(None, 1, False)]
        used = {"s5"} if p_draws or b_draws else set()
        if p_draws and b_draws:
            used.add("s6")
        idle = sum(1 for slot in ("s5", "s6") if slot not in used and slot not in third)
        for y, wy, drew_y in y_opts:
            left = n2 - (drew_y and not infinite)
            leaves.append((x, y, wx * wy * falling(left, idle, infinite)))
    return leaves


def round_odds(
    profile: Profile | str,
    shoe: Shoe | int | str | None = None,
    *,
    decks: int | str | None = None,
    player: Iterable[str | Card] | str = (),
    bank: Iterable[str | Card] | str = (),
    removed: Iterable[str | Card] | str = (),
    player_total: int | None = None,
    bank_total: int | None = None,
) -> RoundOdds:
    """Exact odds of one round for a player seat against the bank.

    ``profile`` is a :class:`Profile`, a built-in name (any case) or a
    ``.toml`` profile file.  ``shoe`` (or its synonym ``decks``) is a
    :class:`Shoe`, a number of packs, ``"inf"`` or a composition as
    :func:`parse_shoe` reads it; it defaults to the profile's number of packs.
    ``player`` and ``bank`` are known cards in deal order (0-3 each),
    ``removed`` cards seen or burned.  ``player_total`` / ``bank_total``
    condition on a two-card value alone (any cards that make it, weighted by
    how often they come).  Anything else is a ``ValueError`` that says what
    is expected.

    >>> round_odds("standard", decks=8).player_colon
    Fraction(31, 415)
    >>> round_odds("plain", shoe="inf").expected_value
    Fraction(0, 1)
    >>> round_odds("standard", 8, decks=8)
    Traceback (most recent call last):
    ...
    ValueError: give the shoe once: shoe=8 or decks=8, not both

    >>> from odds.rules.profiles import BUILTIN
    >>> r = round_odds(BUILTIN["plain"], Shoe.packs_of(1))
    >>> r.total == 52 * 51 * 50 * 49 * 48 * 47, r.win == r.loss, r.expected_value
    (True, True, Fraction(0, 1))
    >>> round_odds(BUILTIN["standard"], player="8h 7s 4d", bank="Ac 6d").win
    Fraction(1, 1)
    """
    profile = as_profile(profile)
    if decks is not None:
        if shoe is not None:
            raise ValueError(f"give the shoe once: shoe={shoe!r} or decks={decks!r}, not both")
        shoe = decks
    shoe = as_shoe(shoe, profile.decks)
    deal, p_cards, b_cards, r_cards = prepare(profile, shoe, player, bank, removed)
    _check_totals(player_total, bank_total)  # before the lookup: True == 1 as a key
    asked = (profile, shoe, p_cards, b_cards, r_cards, player_total, bank_total)
    held = _ROUNDS.pop(asked, None)  # re-inserted last: least recently asked first
    if held is not None:
        if held.profile is not profile:
            # An equal profile may differ in what its equality leaves out (its session:
            # stakes, caps, the house's cut; notes; a bet's source), which what is figured
            # from the result reads: the answer carries the profile asked with, and is
            # the one kept, so that the same profile asked again gets the same answer.
            held = replace(held, profile=profile)
        _ROUNDS[asked] = held
        return held
    outcomes: dict[tuple[int, int, int, int, str], int] = defaultdict(int)
    player_final = [0] * 10
    bank_final = [0] * 10
    drew = [0, 0]
    stages, runs = _memo(profile, deal)
    draws = draw_table(profile)  # once: a stage is cheap, and there are thousands
    by_stage: dict[tuple[int, int, tuple[int, ...]], int] = defaultdict(int)
    for pv, bv, pcol, bcol, vc, weight in two_card_groups(profile, deal, player_total, bank_total):
        key = (pv, bv, vc)
        stage = stages.get(key)
        if stage is None:
            if (pv, bv) not in runs:
                runs[pv, bv] = shared_runs(profile, pv, bv, runs)
            stage = stages[key] = _Stage.of(draws, pv, bv, vc, deal, runs[pv, bv])
        for cat, count in stage.categories.items():
            outcomes[pv, bv, pcol, bcol, cat] += weight * count
        by_stage[key] += weight
    for key, weight in by_stage.items():
        stage = stages[key]
        for v in range(10):
            player_final[v] += weight * stage.player_final[v]
            bank_final[v] += weight * stage.bank_final[v]
        drew[0] += weight * stage.player_drew
        drew[1] += weight * stage.bank_drew
    total = sum(player_final)
    if total == 0:
        given = [f"player {' '.join(map(str, p_cards))}" if p_cards else "",
                 f"bank {' '.join(map(str, b_cards))}" if b_cards else "",
                 f"player total {player_total}" if player_total is not None else "",
                 f"bank total {bank_total}" if bank_total is not None else ""]
        raise ConditionError(
            f"no deal under profile {profile.key!r} from this shoe is consistent with "
            f"{'; '.join(g for g in given if g) or 'the conditions'} "
            "(a known third card needs a hand that draws; a total needs cards left to make it)"
        )
    odds = RoundOdds(
        profile=profile,
        shoe=shoe,
        player=p_cards,
        bank=b_cards,
        removed=r_cards,
        player_total=player_total,
        bank_total=bank_total,
        total=total,
        outcome_counts=dict(outcomes),
        player_final_counts=tuple(player_final),
        bank_final_counts=tuple(bank_final),
        player_draw_count=drew[0],
        bank_draw_count=drew[1],
    )
    while len(_ROUNDS) >= ROUNDS_HELD:
        _ROUNDS.pop(next(iter(_ROUNDS)))
    _ROUNDS[asked] = odds
    return odds


# The rounds last asked for, by (profile, shoe, known cards, removed cards, given
# totals), answered again without counting: a report, a command or a session asks
# for one round from many places (a PAR sheet's lines, a bank's seats, a
# verifier's expectations).  A RoundOdds is read-only and about 90 kB: at most
# ROUNDS_HELD are kept, the least recently asked for goes first.
ROUNDS_HELD = 16
_ROUNDS: dict[tuple[Any, ...], RoundOdds] = {}


def clear_rounds() -> None:
    """Forget the rounds kept by :func:`round_odds` (the next ask counts again).

    >>> from odds.rules.profiles import BUILTIN
    >>> first = round_odds(BUILTIN["standard"], Shoe.packs_of(1))
    >>> round_odds(BUILTIN["standard"], Shoe.packs_of(1)) is first
    True
    >>> clear_rounds()
    >>> round_odds(BUILTIN["standard"], Shoe.packs_of(1)) is first
    False
    """
    _ROUNDS.clear()


StageKey = tuple[int, int, tuple[int, ...]]
Runs = list[list[tuple[str, int, int]]]
# Draw stages memoised on (player value, bank value, composition left), kept
# across calls for the same rules and known third cards: the same shoe asked
# again (warm), or queries that differ by a known card, share compositions.
# Bounded: one evaluation of a full shoe makes about 2,900 stages (~1.6 kB
# each); a memo past _MEMO_STAGES starts afresh at the next evaluation, so a
# memo holds at most _MEMO_STAGES + one evaluation's stages, and at most
# _MEMO_RULES memos are kept (the least recently used goes): about 20 MB in
# all (4 rule sets of 6,000 stages, 60 MB, made `lucky9 tables` 5% faster).
# (Unbounded, new compositions grew it to gigabytes without a hit.)
_MEMO: dict[tuple[Profile, tuple[int, ...], tuple[int, ...], bool],
            tuple[dict[StageKey, _Stage], dict[tuple[int, int], Runs]]] = {}
_MEMO_STAGES = 3_000  # stages kept per memo before it starts afresh
_MEMO_RULES = 2  # rule sets kept


def _memo(
    profile: Profile, deal: KnownCards
) -> tuple[dict[StageKey, _Stage], dict[tuple[int, int], Runs]]:
    key = (profile, deal.player[2:], deal.bank[2:], deal.infinite)
    memo = _MEMO.pop(key, None)  # re-inserted last: the dict's order is least recent first
    if memo is None or len(memo[0]) > _MEMO_STAGES:
        while len(_MEMO) >= _MEMO_RULES:
            _MEMO.pop(next(iter(_MEMO)))
        memo = ({}, {})
    _MEMO[key] = memo
    return memo


@dataclass(frozen=True)
class _Stage:
    """The draw stage of one (player value, bank value, composition), summed.

    The same counts as summing :func:`third_card_leaves`, computed a whole
    bank-final vector at a time: for each player third card, the bank's
    final values are the value counts rotated by the bank's two-card value.
    """

    categories: dict[str, int]
    player_final: list[int]
    bank_final: list[int]
    player_drew: int
    bank_drew: int

    @classmethod
    def of(
        cls,
        draws: DrawTable,
        pv: int,
        bv: int,
        vc: tuple[int, ...],
        deal: KnownCards,
        runs: list[list[tuple[str, int, int]]],
    ) -> _Stage:
        p_opts, bank_row, p3, b3 = _draw_options(draws, pv, bv, vc, deal)
        inf = deal.infinite
        n = sum(vc)
        cats: dict[str, int] = defaultdict(int)
        pf_counts = [0] * 10
        bf_counts = [0] * 10
        p_drew = b_drew = 0
        # The bank's final-value counts if it draws from the shoe: the value
        # counts rotated by bv, less the player's third card if it took one.
        rotated = [vc[(g - bv) % 10] for g in range(10)]
        prefix = [0]
        for c in rotated:
            prefix.append(prefix[-1] + c)
        rotated_weight = 0  # how many times the plain rotated vector is added
        for x, wx in p_opts:
            took = x is not None and p3 is None and not inf
            f = pv if x is None else (pv + x) % 10
            unused = p3 is None and x is None
            minus = -1  # bank final value whose count is one less (the card the player took)
            bank_drew = bank_row[STOOD if x is None else x]
            if bank_drew:
                if b3 is not None:
                    point = (bv + b3) % 10
                    weight = wx * falling(n - took, unused, inf)
                else:
                    point = -1
                    if took and x is not None:
                        minus = (bv + x) % 10
                    weight = wx * falling(n - took - (not inf), unused, inf)
            elif b3 is not None:
                continue
            else:
                point = bv
                weight = wx * falling(n - took, unused + 1, inf)
            if point >= 0:
                size = weight
                for name, lo, hi in runs[f]:
                    if lo <= point < hi:
                        cats[name] += weight
                        break
                bf_counts[point] += weight
            else:
                size = weight * (n - (minus >= 0))
                for name, lo, hi in runs[f]:
                    part = prefix[hi] - prefix[lo] - (lo <= minus < hi)
                    if part:
                        cats[name] += weight * part
                rotated_weight += weight
                if minus >= 0:
                    bf_counts[minus] -= weight
            if bank_drew:
                b_drew += size
            pf_counts[f] += size
            if x is not None:
                p_drew += size
        if rotated_weight:
            bf_counts = [t + rotated_weight * c for t, c in zip(bf_counts, rotated, strict=True)]
        return cls(dict(cats), pf_counts, bf_counts, p_drew, b_drew)


def shared_runs(profile: Profile, pv: int, bv: int, runs: dict[tuple[int, int], Runs]) -> Runs:
    """:func:`category_runs`, shared by every (pv, bv) the settlement cannot tell apart.

    A round's category reads a two-card value only where it is a natural
    (:func:`odds.rules.settle.category`), so the runs are stored once under
    (pv or -1, bv or -1), -1 for a value that is not a natural: a cold round
    builds a few tables instead of 100.
    """
    settles = (pv if pv in profile.naturals else -1, bv if bv in profile.naturals else -1)
    if settles not in runs:
        runs[settles] = category_runs(profile, pv, bv)
    return runs[settles]


def category_runs(profile: Profile, pv: int, bv: int) -> list[list[tuple[str, int, int]]]:
    """For each player final value, the bank final values by category, as runs.

    ``runs[f]`` lists (category, first, past-last) over bank finals 0..9, so
    a stage can sum a category with one slice.
    """
    table = []
    for f in range(10):
        row: list[tuple[str, int, int]] = []
        for g in range(10):
            outcome, how = category(profile, pv, bv, f, g)
            name = f"{outcome.value}_{how}"
            if row and row[-1][0] == name:
                row[-1] = (name, row[-1][1], g + 1)
            else:
                row.append((name, g, g + 1))
        table.append(row)
    return table
