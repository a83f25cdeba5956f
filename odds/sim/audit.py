"""The rule-by-rule audit of a round log: every row recomputed from its cards.

Every row's draw and stand decisions, final values, result and payout are
recomputed with the reference code (:mod:`odds.exact.engine`,
:mod:`odds.rules.settle`), and the first violations are kept with their line
numbers.  The audited rows are then tallied for :mod:`odds.sim.stats`.

One piece on purpose (about 690 lines): every rule the audit checks, each
with its message, shares one row context; split by rule, that context would
travel between files.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from odds.exact.engine import colon_class
from odds.rules.bet_library import resolve_bets
from odds.rules.bet_types import Bet
from odds.rules.bets import round_of_cards
from odds.rules.cards import RANKS, Card, Suit
from odds.rules.draw import STOOD, draw_table, who_may_choose
from odds.rules.errors import BetError
from odds.rules.profile import Profile
from odds.rules.rule_types import DrawRule, Naturals
from odds.rules.settle import (
    Outcome,
    bet_amount,
    category,
    category_outcome,
    category_table,
    seat_amount,
)
from odds.sim.logs import CODE_POINT, CODE_RANK, VALUE_CODE, IntArray, Log, code_name
from odds.sim.tallies import (
    OUTCOMES,
    Tally,
    category_names,
)

__all__ = [
    "Violation",
]

EXAMPLES = 10  # violations shown


@dataclass(frozen=True)
class Violation:
    """One row that breaks a rule."""

    line: int
    round: int
    seat: int
    rule: str
    message: str

    def text(self) -> str:
        """One line for the report."""
        where = f"line {self.line} (round {self.round}, seat {self.seat})"
        return f"{where}: {self.rule}: {self.message}"


# -- the rules as lookup tables (from the reference code) ---------------------


@dataclass(frozen=True)
class Reference:
    profile: Profile
    names: tuple[str, ...]  # category names; codes index this
    player_draw: npt.NDArray[np.bool_]  # [pv, bv]
    bank_draw: npt.NDArray[np.bool_]  # [bv, player third value or 10, pv]
    cat: IntArray  # [pv, bv, pf, bf] -> category code
    colon: IntArray  # [rank, rank] -> Colon class
    pay: list[list[list[Fraction]]]  # [outcome 0 win 1 push 2 loss][pcol][bcol]
    # Where a side chooses (no fixed rule): any choice is legal, except that a
    # natural never draws and, with naturals_stop_draws, nobody draws against one.
    player_free: npt.NDArray[np.bool_] | None = None  # [pv, bv]
    bank_free: npt.NDArray[np.bool_] | None = None  # [bv, x, pv]

    @classmethod
    def of(cls, profile: Profile) -> Reference:
        names = category_names(profile)
        # A side with no rule never has to draw: its cells are free instead.
        never = DrawRule(frozenset())
        table = draw_table(replace(profile, player_draw=profile.player_draw or never,
                                   bank_draw=profile.bank_draw or never))
        pdraw = np.array(table.player, dtype=bool)
        bdraw = np.array(table.bank, dtype=bool).transpose(1, 2, 0)  # [pv, bv, x] -> [bv, x, pv]
        pfree = np.zeros((10, 10), dtype=bool)
        bfree = np.zeros((10, 11, 10), dtype=bool)
        for pv in range(10):
            for bv in range(10):
                pfree[pv, bv] = who_may_choose(profile, pv, bv)[0]
                for x in range(11):
                    bfree[bv, x, pv] = who_may_choose(profile, pv, bv, None if x == STOOD else x)[1]
        index = {name: i for i, name in enumerate(names)}
        cat = np.array([[[[index[f"{outcome.value}_{how}"] for outcome, how in row] for row in by_pf]
                          for by_pf in by_bank] for by_bank in category_table(profile)],
                       dtype=np.int64)
        colon = np.array([[colon_class(profile, a, b) for b in range(13)] for a in range(13)])
        pay = [
            [[seat_amount(profile, outcome, pc, bc) for bc in range(3)]
             for pc in range(3)]
            for outcome in (Outcome.WIN, Outcome.PUSH, Outcome.LOSS)
        ]
        return cls(profile, names, pdraw, bdraw, cat, colon.astype(np.int64), pay,
                   pfree if pfree.any() else None, bfree if bfree.any() else None)


def bet_outcomes(profile: Profile, bet: str) -> dict[str, Fraction]:
    """A bet that pays by the round's outcome: its net payout by the player's outcome.

    >>> from odds.rules.profiles import BUILTIN
    >>> bet_outcomes(BUILTIN["punto-banco"], "banker")["loss"]
    Fraction(19, 20)
    >>> bet_outcomes(BUILTIN["standard"], "tie")
    Traceback (most recent call last):
    ...
    ValueError: 'tie' is not a bet of profile 'standard' (bets: player)
    """
    bets = ["player"] + [name for name, pays in (("banker", profile.banker_pays),
                                                 ("tie", profile.tie_pays)) if pays is not None]
    if bet in bets[1:]:
        return {o.value: bet_amount(profile, bet, o, 0, 0) for o in Outcome}
    raise ValueError(f"{bet!r} is not a bet of profile {profile.key!r} "
                     f"(bets: {', '.join(bets)})")


def bet_payout(profile: Profile, bet: str, player: list[int], bank: list[int]) -> Fraction:
    """A bet's net payout per unit stake on one round, from its cards (rank indices).

    For the bets that pay by outcome (``banker``, ``tie``, through
    :func:`bet_outcomes`); the other bets (:func:`side_bet`) are settled
    from the cards by :func:`side_payouts` with :mod:`odds.rules.bets`.

    >>> from odds.rules.profiles import BUILTIN
    >>> bet_payout(BUILTIN["punto-banco"], "tie", [0, 5], [1, 4])  # A 6 v 2 5: 7 all
    Fraction(8, 1)
    """
    from odds.rules.cards import POINTS as points

    pv = (points[player[0]] + points[player[1]]) % 10
    bv = (points[bank[0]] + points[bank[1]]) % 10
    pf = (pv + sum(points[c] for c in player[2:])) % 10
    bf = (bv + sum(points[c] for c in bank[2:])) % 10
    outcome, _ = category(profile, pv, bv, pf, bf)
    return bet_outcomes(profile, bet)[outcome.value]


def side_bet(profile: Profile, bet: str) -> Bet | None:
    """The bet of a ``bet:NAME`` column: None when it pays by outcome alone.

    ``banker`` and ``tie`` (where the profile offers them) settle by the
    round's outcome (:func:`bet_outcomes`); any other bet of the profile, or
    any built-in bet (:mod:`odds.rules.bets`), is settled from the round's
    cards by its pay table.

    >>> from odds.rules.profiles import BUILTIN
    >>> side_bet(BUILTIN["punto-banco"], "tie") is None
    True
    >>> side_bet(BUILTIN["punto-banco"], "dragon-7").name
    'dragon-7'
    >>> side_bet(BUILTIN["punto-banco"], "all")
    Traceback (most recent call last):
    ...
    ValueError: a bet column names one bet, not 'all'
    """
    try:
        bet_outcomes(profile, bet)
        return None
    except ValueError:
        if bet in ("banker", "tie"):
            raise
    if bet.strip().lower() == "all":
        raise ValueError("a bet column names one bet, not 'all'")
    return resolve_bets(profile, [bet])[0]


def _card(code: int) -> Card:
    """A log's card code as a card (no suit when the log gives none)."""
    if code < 52:
        return Card(RANKS[code // 4], list(Suit)[code % 4])
    return Card(RANKS[int(CODE_RANK[code])])


def side_payouts(log: Log, profile: Profile, bet: Bet
                 ) -> tuple[list[Fraction | None], int]:
    """Each row's net payout of ``bet`` from its cards, and the rows left unknown.

    None where the row cannot be settled: its cards break the draw rules
    (reported as a draw violation), the bet needs suits the log's cards do
    not give, or (value-only cards) the bet looks at pairs and a hand's first
    two cards are both worth 0 (a pair of 10, J, Q, K only if the ranks match).
    The count is of the rows left unknown for want of suits or ranks.

    A round's events depend on its two-card values, third cards' points and
    the first two cards of each hand only where they may pair (equal
    points), so rows are settled once per such key.
    """
    p, b = log.player, log.bank
    pp = np.where(p >= 0, CODE_POINT[np.maximum(p, 0)], -1)
    bp = np.where(b >= 0, CODE_POINT[np.maximum(b, 0)], -1)
    keys = np.stack([(pp[:, 0] + pp[:, 1]) % 10, (bp[:, 0] + bp[:, 1]) % 10,
                     pp[:, 2], bp[:, 2]], axis=1).tolist()
    firsts = np.concatenate([p[:, :2], b[:, :2]], axis=1)
    if not bet.uses_suits:  # ranks only (value codes stay values)
        firsts = np.where(firsts < 52, 52 + CODE_RANK[firsts], firsts)
    paired = np.stack([pp[:, 0] == pp[:, 1], bp[:, 0] == bp[:, 1]], axis=1)
    paired &= bet.uses_pairs
    out: list[Fraction | None] = []
    cache: dict[tuple[Any, ...], Fraction | None] = {}
    unknown = 0
    for (pv, bv, x, y), two, (p_pair, b_pair) in zip(keys, firsts.tolist(),
                                                     paired.tolist(), strict=True):
        hands = (tuple(two[:2]) if p_pair else None, tuple(two[2:]) if b_pair else None)
        key = (pv, bv, x, y, *hands)
        if any(h is not None and _unknowable(bet, h) for h in hands):
            unknown += 1
            out.append(None)
            continue
        if key in cache:
            value = cache[key]
        else:
            player = [*_two(pv, hands[0]), *([_card(VALUE_CODE + x)] if x >= 0 else [])]
            bank = [*_two(bv, hands[1]), *([_card(VALUE_CODE + y)] if y >= 0 else [])]
            try:
                value = bet.pays(round_of_cards(profile, player, bank,
                                                suits=bet.uses_suits), profile)
            except BetError:
                value = None  # the cards break the draw rules: a draw violation
            cache[key] = value
        out.append(value)
    return out, unknown


def _two(value: int, pair: tuple[int, ...] | None) -> list[Card]:
    """A hand's first two cards: the given ones, or two of unequal points worth ``value``."""
    if pair is not None:
        return [_card(pair[0]), _card(pair[1])]
    a = 3 if value == 2 else 1
    return [_card(VALUE_CODE + a), _card(VALUE_CODE + (value - a) % 10)]


def _unknowable(bet: Bet, two: tuple[int, ...]) -> bool:
    """True when a hand's first two cards cannot settle a pair bet."""
    if bet.uses_suits and any(c >= 52 for c in two):
        return bool(CODE_RANK[two[0]] == CODE_RANK[two[1]])  # a pair: suited or not?
    return all(c >= VALUE_CODE and CODE_POINT[c] == 0 for c in two)


@dataclass
class Audited:
    """Per-row values recomputed from a log's cards, and the violations found."""

    pv: IntArray
    bv: IntArray
    pf: IntArray
    bf: IntArray
    pcol: IntArray
    bcol: IntArray
    pdrew: npt.NDArray[np.bool_]
    bdrew: npt.NDArray[np.bool_]
    violations: list[Violation]
    counts: dict[str, int]
    payout_unchecked: int = 0  # rows whose payout needs ranks the log does not give
    # bet:NAME columns settled from the cards: the rows left unaudited for want of
    # suits or ranks, by bet
    bets_unchecked: dict[str, int] = field(default_factory=dict)


def audit(log: Log, ref: Reference) -> Audited:
    p, b = log.player, log.bank
    pp = np.where(p >= 0, CODE_POINT[np.maximum(p, 0)], 0)
    bp = np.where(b >= 0, CODE_POINT[np.maximum(b, 0)], 0)
    pv = (pp[:, 0] + pp[:, 1]) % 10
    bv = (bp[:, 0] + bp[:, 1]) % 10
    pdrew = p[:, 2] >= 0
    bdrew = b[:, 2] >= 0
    pf = (pv + pp[:, 2]) % 10
    bf = (bv + bp[:, 2]) % 10
    x = np.where(pdrew, pp[:, 2], 10)
    pcol = ref.colon[CODE_RANK[p[:, 0]], CODE_RANK[p[:, 1]]]
    bcol = ref.colon[CODE_RANK[b[:, 0]], CODE_RANK[b[:, 1]]]
    want_p = ref.player_draw[pv, bv]
    want_b = ref.bank_draw[bv, x, pv]
    expected = ref.cat[pv, bv, pf, bf]
    # Reported results as category codes (outcome-only results: -1, -2, -3).
    res_code = np.array(
        [ref.names.index(r) if r in ref.names else -1 - OUTCOMES.index(r) for r in log.results],
        dtype=np.int64,
    )[log.result]
    outcome_at = np.array([OUTCOMES.index(category_outcome(n).value) for n in ref.names])
    exp_outcome = outcome_at[expected]
    rep_outcome = np.where(res_code >= 0, outcome_at[np.maximum(res_code, 0)], -1 - res_code)
    result_bad = np.where(res_code >= 0, res_code != expected, rep_outcome != exp_outcome)
    amounts = list(log.payouts)
    table = np.zeros((3, 3, 3), dtype=np.int64)
    for o in range(3):
        for pc in range(3):
            for bc in range(3):
                a = ref.pay[o][pc][bc]
                if a not in amounts:
                    amounts.append(a)
                table[o, pc, bc] = amounts.index(a)
    want_pay = table[exp_outcome, pcol, bcol]
    # Every seat faces the same bank hand (check_shoe): a bank that draws wrongly
    # is one break of its round, listed on the round's first row, not once a seat.
    round_first = np.zeros(len(pv), dtype=bool)
    round_first[np.unique(log.key(), return_index=True)[1]] = True
    # A free choice (chemin de fer's open cells) is never a wrong draw.  The masks are
    # boolean arrays: ``~`` on a Python bool is an integer (``~False == -1``).
    no_choice = np.zeros(len(pv), dtype=bool)
    player_free = ref.player_free[pv, bv] if ref.player_free is not None else no_choice
    bank_free = ref.bank_free[bv, x, pv] if ref.bank_free is not None else no_choice
    checks: list[tuple[str, npt.NDArray[np.bool_]]] = [
        ("player draw", (pdrew != want_p) & ~player_free),
        ("bank draw", round_first & (bdrew != want_b) & ~bank_free),
    ]
    if log.player_final is not None and log.bank_final is not None:
        checks.append(("final value", (log.player_final != pf) | (log.bank_final != bf)))
    checks.append(("result", result_bad))
    bets_unchecked: dict[str, int] = {}
    for bet, (bet_amounts, bet_index) in log.bets.items():
        side = side_bet(ref.profile, bet)
        if side is not None:
            settled, unchecked = side_payouts(log, ref.profile, side)
            got = [bet_amounts[k] for k in bet_index.tolist()]
            wrong = np.array([w is not None and w != g
                              for w, g in zip(settled, got, strict=True)],
                             dtype=bool)
            if unchecked:
                bets_unchecked[bet] = unchecked
            checks.append((f"bet {bet}", wrong))
            continue
        by_outcome = bet_outcomes(ref.profile, bet)
        known = list(bet_amounts)
        want = np.empty(3, dtype=np.int64)
        for o, name in enumerate(OUTCOMES):
            if by_outcome[name] not in known:
                known.append(by_outcome[name])
            want[o] = known.index(by_outcome[name])
        checks.append((f"bet {bet}", ~result_bad & (bet_index != want[exp_outcome])))
    unknown = np.zeros(len(pv), dtype=bool)
    if log.values and ref.colon[9, 9] != ref.colon[9, 10]:
        # A pair of zero-point cards is a Colon only if the ranks match: unknown here.
        unknown = ((pp[:, 0] == 0) & (pp[:, 1] == 0)) | ((bp[:, 0] == 0) & (bp[:, 1] == 0))
    checks.append(("payout", ~result_bad & ~unknown & (log.payout != want_pay)))
    counts = {}
    found: list[tuple[int, str]] = []
    for rule, mask in checks:
        rows = np.flatnonzero(mask)
        counts[rule] = int(rows.size)
        found += [(int(i), rule) for i in rows[:EXAMPLES]]
    found.sort()
    violations = []
    for i, rule in found[:EXAMPLES]:
        ctx = _RowContext(log, ref, i, int(pv[i]), int(bv[i]), int(pf[i]), int(bf[i]),
                          int(pcol[i]), int(bcol[i]), amounts)
        message = (_MESSAGES[rule](ctx) if rule in _MESSAGES
                   else _bet_message(ctx, rule.removeprefix("bet ")))
        violations.append(Violation(int(log.line[i]), int(log.round[i]), int(log.seat[i]),
                                    rule, message))
    return Audited(pv, bv, pf, bf, pcol, bcol, pdrew, bdrew, violations, counts,
                   int(unknown.sum()), bets_unchecked)


@dataclass(frozen=True)
class _RowContext:
    log: Log
    ref: Reference
    i: int
    pv: int
    bv: int
    pf: int
    bf: int
    pcol: int
    bcol: int
    amounts: list[Fraction]

    def cards(self, who: str) -> str:
        row = (self.log.player if who == "player" else self.log.bank)[self.i]
        return " ".join(code_name(int(c)) for c in row if c >= 0)

    @property
    def result(self) -> str:
        return self.log.results[int(self.log.result[self.i])]

    @property
    def payout(self) -> Fraction:
        return self.log.payouts[int(self.log.payout[self.i])]

    @property
    def expected(self) -> str:
        return self.ref.names[int(self.ref.cat[self.pv, self.bv, self.pf, self.bf])]


def _draw_message(ctx: _RowContext, who: str) -> str:
    profile = ctx.ref.profile
    own = ctx.pv if who == "player" else ctx.bv
    drew = (ctx.log.player if who == "player" else ctx.log.bank)[ctx.i, 2] >= 0
    nat = profile.naturals
    if own in nat:
        why = "a natural never draws"
    elif profile.naturals_stop_draws and (ctx.pv in nat or ctx.bv in nat):
        why = "a natural on either side stops all draws"
    else:
        rule = profile.player_draw if who == "player" else profile.bank_draw
        assert rule is not None
        why = f"the {who} {rule.describe()}"
        if who == "bank" and rule.tableau is not None and ctx.log.player[ctx.i, 2] >= 0:
            x = int(CODE_POINT[ctx.log.player[ctx.i, 2]])
            why += f"; the player's third card is worth {x}"
    should = "stand" if drew else "draw"
    did = "drew" if drew else "stood"
    return f"{who} {ctx.cards(who)} has {own}: must {should} ({why}), but {did}"


def _result_message(ctx: _RowContext) -> str:
    from odds.rules.text import rules_line

    profile = ctx.ref.profile
    expected, reported = ctx.expected, ctx.result
    exp_out, rep_out = expected.split("_")[0], reported.split("_")[0]
    head = (f"player {ctx.cards('player')} ({ctx.pf}) vs bank {ctx.cards('bank')} ({ctx.bf}): "
            f"the rules give {expected}, the log says {reported}")
    by_finals = "win" if ctx.pf > ctx.bf else "loss" if ctx.pf < ctx.bf else "push"
    naturals = rules_line(profile).split(";")[0]  # 'naturals 8-9 outright'
    if "natural" in expected and "natural" not in reported:
        nat = ctx.pv if ctx.pv in profile.naturals else ctx.bv
        why = f"{nat} is a natural ({naturals})"
        if exp_out != rep_out and profile.naturals_rule is Naturals.OUTRIGHT \
                and rep_out == by_finals:
            why += ("; a natural beats any non-natural hand, whatever it drew to, "
                    "but the log compared final values")
        return f"{head} ({why})"
    if reported.startswith(("win_natural_", "loss_natural_")):
        v = int(reported.rsplit("_", 1)[1])
        if v not in profile.naturals:
            return f"{head} ({v} is not a natural: {naturals})"
    if exp_out == rep_out:
        return f"{head} (the outcome is right, but not how it came about)"
    if "natural" not in expected:
        return f"{head} (comparison: the higher final value wins, equal values push)"
    return f"{head} ({naturals})"


def _payout_message(ctx: _RowContext) -> str:
    profile = ctx.ref.profile
    exp_out = OUTCOMES.index(category_outcome(ctx.expected).value)
    want = ctx.ref.pay[exp_out][ctx.pcol][ctx.bcol]
    got = ctx.payout
    head = (f"{ctx.expected} with player {ctx.cards('player')}: "
            f"the rules pay {want}, the log pays {got}")
    codes = ctx.log.player[ctx.i]
    same_value = CODE_POINT[codes[0]] == CODE_POINT[codes[1]]
    if ctx.pcol == 0 and same_value and profile.colon is not None and got == profile.colon:
        return (f"{head} (colon_match {profile.colon_match.value}: "
                f"{code_name(int(codes[0]))} {code_name(int(codes[1]))} is not a Colon; "
                "only equal ranks pair)")
    if exp_out == 1 and got != 0:
        return f"{head} (a push returns the stake: net 0)"
    if ctx.pcol and want in (profile.colon, profile.colon_nine) and got != want:
        return f"{head} (Colon bonus on {profile.bonus_on.value})"
    if ctx.bcol and profile.bank_bonus and exp_out == 2:
        return f"{head} (bank Colon collects with bank_bonus on)"
    return head


def _bet_message(ctx: _RowContext, bet: str) -> str:
    amounts, index = ctx.log.bets[bet]
    got = amounts[int(index[ctx.i])]
    side = side_bet(ctx.ref.profile, bet)
    if side is not None:
        p = [_card(int(c)) for c in ctx.log.player[ctx.i] if c >= 0]
        b = [_card(int(c)) for c in ctx.log.bank[ctx.i] if c >= 0]
        r = round_of_cards(ctx.ref.profile, p, b, suits=side.uses_suits)
        entry = side.entry_of(r, ctx.ref.profile)
        line = side.entries[entry].name if entry < len(side.entries) else "otherwise"
        return (f"player {ctx.cards('player')}, bank {ctx.cards('bank')}: a bet on {bet} "
                f"pays {side.pays(r, ctx.ref.profile)} ({line}), the log pays {got}")
    want = bet_outcomes(ctx.ref.profile, bet)[ctx.expected.split("_")[0]]
    return (f"{ctx.expected}: a bet on {bet} pays {want}, the log pays {got} "
            f"(player {ctx.cards('player')}, bank {ctx.cards('bank')})")


_MESSAGES: dict[str, Callable[[_RowContext], str]] = {
    "player draw": lambda c: _draw_message(c, "player"),
    "bank draw": lambda c: _draw_message(c, "bank"),
    "final value": lambda c: (
        f"player {c.cards('player')} is {c.pf} and bank {c.cards('bank')} is {c.bf}, "
        f"the log says {c.log.player_final[c.i] if c.log.player_final is not None else '?'} "
        f"and {c.log.bank_final[c.i] if c.log.bank_final is not None else '?'}"
    ),
    "result": _result_message,
    "payout": _payout_message,
}


def log_tallies(log: Log, audited: Audited, seats: int, ref: Reference | None = None
                ) -> list[Tally]:
    names = log.results
    # Value-only cards: a Colon of zero-point cards by rank cannot be counted.
    no_colon = log.values and (ref is None or ref.colon[9, 9] != ref.colon[9, 10])
    tallies = []
    for s in range(1, seats + 1):
        rows = log.seat == s
        n = int(rows.sum())
        if not n:
            continue
        res = np.bincount(log.result[rows], minlength=len(names))
        cats = {name: int(res[i]) for i, name in enumerate(names) if res[i]}
        if any(name in OUTCOMES for name in cats):  # outcome-only: collapse
            merged: dict[str, int] = {}
            for name, c in cats.items():
                key = name.split("_")[0]
                merged[key] = merged.get(key, 0) + c
            cats = merged
        pays = np.bincount(log.payout[rows], minlength=len(log.payouts))
        tallies.append(Tally(
            seat=s, rounds=n, categories=cats,
            player_value=np.bincount(audited.pv[rows], minlength=10).tolist(),
            bank_value=np.bincount(audited.bv[rows], minlength=10).tolist(),
            player_final=np.bincount(audited.pf[rows], minlength=10).tolist(),
            bank_final=np.bincount(audited.bf[rows], minlength=10).tolist(),
            player_colon=None if no_colon else int((audited.pcol[rows] > 0).sum()),
            # A Colon nine is two 9s: known from point values too.
            player_colon_nine=int((audited.pcol[rows] == 2).sum()),
            bank_colon=None if no_colon else int((audited.bcol[rows] > 0).sum()),
            bank_colon_nine=int((audited.bcol[rows] == 2).sum()),
            player_draws=int(audited.pdrew[rows].sum()),
            bank_draws=int(audited.bdrew[rows].sum()),
            payouts={a: int(pays[i]) for i, a in enumerate(log.payouts) if pays[i]},
            bets={bet: {a: int(c) for a, c in zip(amounts, np.bincount(
                index[rows], minlength=len(amounts)).tolist(), strict=True) if c}
                for bet, (amounts, index) in log.bets.items()} or None,
        ))
    return tallies
