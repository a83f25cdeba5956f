"""Chemin de fer against what the papers publish, checked by a separate count.

What could be read of each paper, and so what is compared here (the same
list as docs/chemin-de-fer.md, "Compared with the published solutions"):

- Kemeny and Snell, "Game-theoretic solution of baccarat", Amer. Math.
  Monthly 64 (1957) 465-469: model A1, the player draws on 5 with
  probability 9/11, and the solution is unique (Ethier and Gamez 2013,
  section 1, report it as "the unique solution").
- Ethier and Gamez, "A game-theoretic analysis of baccara chemin de fer",
  Games 4 (2013) 711-737 (arXiv 1305.5468), abstract and section 1: the
  sizes 2 x 2^88, 2 x 2^484, 2^5 x 2^484; Downton and Lockwood (1975)
  "found the unique solution" of B2 for d = 1, ..., 8; B3 is solved for
  every d, its optimal strategies "uniquely optimal" suspected, not proved.
- Ethier and Lee, "A game-theoretic analysis of baccara chemin de fer, II",
  Games 14 (2023) 63 (arXiv 2308.00118), abstract and section 1: a
  commission of 100 alpha % on the banker's wins, 0 <= alpha <= 1/10, makes
  a bimatrix game; under B2 the Nash equilibrium is unique "with rare
  exceptions"; the cards count A = 1, 2-9 at face value, 10 J Q K = 0, six
  52-card decks.

The papers' pack-by-pack tables (values and mixing probabilities for each
number of decks) could not be read: no figure from them is asserted here.
Every check below counts the deals with tests/chemin_brute.py (cards dealt
one at a time, nothing from odds.game) and compares with the fast solver.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from odds import BUILTIN, Shoe
from odds.game.chemin import chemin_game, solve_chemin
from odds.game.game import GameError, hand_label, value_classes
from odds.rules.text import decimal
from tests import chemin_brute
from tests.paths import ROOT

CHEMIN = BUILTIN["chemin-de-fer"]
INF = Shoe.infinite_shoe()
INFO = {"A1": ("totals", "totals"), "B2": ("totals", "cards"), "B3": ("cards", "cards")}


def _table(decks: int | None, model: str, commission: Fraction = Fraction(0)):
    counts = list(value_classes(Shoe.packs_of(decks))) if decks else None
    table, sp, sb = chemin_brute.deal_table(counts, *INFO[model], commission)
    return table, (sp, sb)


def _zero_sum_solutions(table, settled):
    """Every optimal strategy of a zero-sum game with one player choice, from the brute count.

    Returns (value, the player's optimal draw probabilities, the banker's
    sets where he mixes at an optimum, whether the banker's optimum is unique).
    The player's guaranteed EV f(p) = const + sum over banker sets of the
    lower of two lines (stand, draw) is concave: its maximisers are corners or
    ends.  Every optimal banker strategy is a best reply to an optimal p and
    leaves the player indifferent there (slope 0), which pins his mix in the
    sets where he is indifferent unless two or more of them share it.
    """
    players, banks = chemin_brute.choice_sets(table)
    (h,) = players
    lines = {b: [[Fraction(0), Fraction(0)], [Fraction(0), Fraction(0)]] for b in banks}
    const = settled[0]
    for (pset, bset, pdraw, bdraw), (a, _) in table.items():
        line = lines[bset][bdraw]  # [constant, slope in p] of the player's EV
        if pset != h:
            line[0] += a
        elif pdraw:
            line[1] += a
        else:
            line[0] += a
            line[1] -= a

    def at(line: list[Fraction], p: Fraction) -> Fraction:
        return line[0] + line[1] * p

    def f(p: Fraction) -> Fraction:
        return const + sum(min(at(s, p), at(d, p)) for s, d in lines.values())

    points = {Fraction(0), Fraction(1)}
    for (c0, s0), (c1, s1) in lines.values():
        if s0 != s1 and 0 < (c1 - c0) / (s0 - s1) < 1:
            points.add((c1 - c0) / (s0 - s1))
    value = max(f(p) for p in points)
    best = sorted(p for p in points if f(p) == value)
    (p,) = best[:1]
    pinned_slope = Fraction(0)
    spans: dict = {}
    for b, (stand, draw) in lines.items():
        if at(stand, p) == at(draw, p):
            spans[b] = (stand[1], draw[1] - stand[1])
        else:
            pinned_slope += (draw if at(draw, p) < at(stand, p) else stand)[1]
    need = -pinned_slope - sum(s0 for s0, _ in spans.values())
    widths = [d for _, d in spans.values()]
    unique = (0 < p < 1 and 0 not in widths
              and (len(widths) == 1 or need in (sum(min(Fraction(0), d) for d in widths),
                                                sum(max(Fraction(0), d) for d in widths))))
    return value, best, set(spans), unique


def test_kemeny_and_snell_nine_elevenths_and_unique() -> None:
    # Kemeny and Snell (1957): model A1 (with replacement from one deck, totals
    # only), the player draws on 5 with probability 9/11, a unique solution.
    table, settled = _table(None, "A1")
    value, best, mixed, unique = _zero_sum_solutions(table, settled)
    assert best == [Fraction(9, 11)] and unique
    assert mixed == {((6,), "stood")}
    sol = solve_chemin(chemin_game(CHEMIN, INF, "A1"))
    assert sol.value == value
    assert sol.equilibria[0].player == {(5,): Fraction(9, 11)}


def _slow_but(fast: set, values: list) -> list:
    """Parameters, all but those in ``fast`` marked slow (CI runs them)."""
    return [v if v in fast else pytest.param(v, marks=pytest.mark.slow) for v in values]


@pytest.mark.parametrize("decks", _slow_but({1}, list(range(1, 9))))
def test_downton_and_lockwood_b2_solution_is_unique(decks: int) -> None:
    # Ethier and Gamez (2013), section 1: Downton and Lockwood (1975) "found
    # the unique solution" of B2 for d = 1, ..., 8.  The brute count finds one
    # optimal p and one optimal banker strategy (he mixes at 0-6 when the
    # player stood), and the fast solver's figures are that solution.
    table, settled = _table(decks, "B2")
    value, best, mixed, unique = _zero_sum_solutions(table, settled)
    assert len(best) == 1 and unique
    assert mixed == {((0, 6), "stood")}
    eq = solve_chemin(chemin_game(CHEMIN, Shoe.packs_of(decks), "B2")).equilibria[0]
    assert (eq.player_payoff, eq.player) == (value, {(5,): best[0]})
    assert {k for k, v in eq.bank.items() if 0 < v < 1} == mixed and eq.free_cells == 0


def test_with_replacement_b2_has_many_banker_optima() -> None:
    # With replacement the banker's two cards tell him nothing: B2 is A1 again
    # (same value, p = 9/11), but his mix at 6 can be shared among the
    # compositions of 6 at will, so B2's uniqueness is a finite-shoe fact and a
    # printed strategy may differ from another solver's at --decks inf.
    table, settled = _table(None, "B2")
    value, best, mixed, unique = _zero_sum_solutions(table, settled)
    assert best == [Fraction(9, 11)] and not unique
    assert mixed == {((a, b), "stood") for a, b in [(0, 6), (1, 5), (2, 4), (3, 3), (7, 9), (8, 8)]}
    assert value == solve_chemin(chemin_game(CHEMIN, INF, "A1")).value
    # The solver says so too: one mixed cell printed, five more where other mixes are optimal.
    eq = solve_chemin(chemin_game(CHEMIN, INF, "B2")).equilibria[0]
    assert eq.free_cells == len(mixed) - 1 == 5


@pytest.mark.parametrize("decks", _slow_but({1}, [1, 2, 6, 8, None]),
                         ids=["1", "2", "6", "8", "inf"])
def test_b3_solution_holds_in_the_brute_count(decks: int | None) -> None:
    # Ethier and Gamez (2013) solve B3 for every d.  Ours, played in the
    # brute count, gives the value, and neither side can do better.
    shoe = Shoe.packs_of(decks) if decks else INF
    sol = solve_chemin(chemin_game(CHEMIN, shoe, "B3"))
    eq = sol.equilibria[0]
    table, settled = _table(decks, "B3")
    ev = chemin_brute.payoffs(table, settled, eq.player, eq.bank)
    assert ev == (sol.value, -sol.value)
    assert chemin_brute.best_responses(table, settled, eq.player, eq.bank) == ev
    # The player sees more than under B2, so he does at least as well.
    assert sol.value >= solve_chemin(chemin_game(CHEMIN, shoe, "B2")).value


COMMISSIONS = ([(d, Fraction(1, 20)) for d in range(1, 9)]
               + [(d, a) for d in (1, 6) for a in (Fraction(1, 100), Fraction(1, 10))])


FAST_COMMISSIONS = {(1, Fraction(1, 20))}


@pytest.mark.parametrize(("decks", "alpha"),
                         [c if c in FAST_COMMISSIONS else pytest.param(*c, marks=pytest.mark.slow)
                          for c in COMMISSIONS],
                         ids=[f"{d}-{a}" for d, a in COMMISSIONS])
def test_ethier_and_lee_one_equilibrium_with_a_commission(decks: int, alpha: Fraction) -> None:
    # Ethier and Lee (2023): with a commission 0 <= alpha <= 1/10 on the
    # banker's wins, B2's Nash equilibrium is unique "with rare exceptions".
    # Every equilibrium is listed: here exactly one, with no free cell, and the
    # brute count confirms both payoffs and both best replies.
    sol = solve_chemin(chemin_game(CHEMIN, Shoe.packs_of(decks), "B2"), alpha, "B2")
    assert sol.complete
    (eq,) = sol.equilibria
    assert eq.free_cells == 0 and eq.player_upper is None
    table, settled = _table(decks, "B2", alpha)
    ev = chemin_brute.payoffs(table, settled, eq.player, eq.bank)
    assert ev == (eq.player_payoff, eq.bank_payoff)
    assert chemin_brute.best_responses(table, settled, eq.player, eq.bank) == ev
    # At a Nash equilibrium each side gets at least what it can guarantee; the
    # commission does not touch the player's payoffs, so that is the zero-sum value.
    assert eq.player_payoff >= solve_chemin(chemin_game(CHEMIN, Shoe.packs_of(decks), "B2")).value


def test_the_commission_range_is_the_papers() -> None:
    # Ethier and Lee (2023): 0 <= alpha <= 1/10.
    game = chemin_game(CHEMIN, INF, "A1")
    assert solve_chemin(game, Fraction(1, 10), "A1").complete
    with pytest.raises(GameError, match="outside 0 to 1/10"):
        solve_chemin(game, Fraction(1, 10) + Fraction(1, 10**9), "A1")


def test_the_cards_and_the_shoe_are_the_papers() -> None:
    # Ethier and Lee (2023), section 1: A counts 1, 2-9 their face, 10 J Q K
    # nothing; six 52-card decks.  Per pack: sixteen cards of value 0, four of each other.
    assert list(value_classes(Shoe.packs_of(1))) == [16] + [4] * 9
    assert CHEMIN.decks == 6


def _commission_row(model: str, decks: int | None) -> str:
    shoe = Shoe.packs_of(decks) if decks else INF
    eq = solve_chemin(chemin_game(CHEMIN, shoe, model), Fraction(1, 20), model).equilibria[0]
    mix = ", ".join(f"{hand_label(h)}: {v}" for h, v in eq.player.items())
    mixed = ", ".join(f"{hand_label(k[0])} / {k[1]}: {v}" for k, v in eq.bank.items() if 0 < v < 1)
    return (f"| {model} | {decks or 'inf'} | {decimal(eq.player_payoff)} | "
            f"{decimal(eq.bank_payoff)} | {mix} | {mixed} |")


PAGE = ROOT / "docs" / "chemin-de-fer.md"


# A1 and B2 on one pack by default; B2 on 2, 6 and 8 packs in CI (slow)
@pytest.mark.parametrize(("model", "decks"), [("A1", None), ("B2", 1),
                                              *(pytest.param("B2", d, marks=pytest.mark.slow)
                                                for d in (2, 6, 8))])
def test_the_docs_commission_table_is_the_solvers(model: str, decks: int | None) -> None:
    # docs/chemin-de-fer.md, "With a commission, pack by pack": current figures.
    row = _commission_row(model, decks)
    assert row in PAGE.read_text(encoding="utf-8"), row


@pytest.mark.slow
@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_the_docs_commission_table_is_the_solvers_b3(decks: int) -> None:
    row = _commission_row("B3", decks)
    assert row in PAGE.read_text(encoding="utf-8"), row


def test_the_docs_comparison_names_what_could_not_be_read() -> None:
    # The page says which published tables were not compared, not only which were.
    page = PAGE.read_text(encoding="utf-8")
    section = page.split("## Compared with the published solutions", 1)[1]
    assert "Not compared: the papers' pack-by-pack tables" in section
    for source in ("Kemeny and Snell (1957)", "Downton and Lockwood (1975",
                   "Ethier and Gámez (2013", "Ethier and Lee (2023"):
        assert source in section, source
