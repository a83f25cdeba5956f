"""lucky9-odds: exact odds of Lucky 9 and its baccarat relatives.

The package is cut by capability (see docs/architecture.md): ``io``,
``rules``, ``exact``, ``money``, ``game``, ``sim``, ``checks`` and ``report``,
with the command line in ``cli``; this page re-exports the public face.

>>> from odds import BUILTIN, Shoe, round_odds
>>> round_odds(BUILTIN["standard"], Shoe.packs_of(8)).player_colon
Fraction(31, 415)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from odds._version import __version__ as __version__

# Every public name is imported when first used (PEP 562), so that ``import odds``
# (and so every ``lucky9`` command, which imports odds.cli under it) loads only what
# it uses: ``lucky9 odds`` neither the game solvers nor the bank nor numpy.  Each
# subpackage is imported by name (no table of module paths), so the import graph
# shows it; the names each one gives are listed here.
_EXACT = frozenset({"BetOdds", "ConditionError", "RoundOdds", "bet_odds", "bet_removal_effects",
                    "round_odds", "slot_round_odds"})
_GAME = frozenset({"ChemSolution", "Equilibrium", "Game", "GameError", "PairResult", "TableGame",
                   "build_game", "chemin_de_fer", "chemin_game", "solve_chemin", "solve_game",
                   "table_game"})
_MONEY = frozenset({"BankRound", "BankStudy", "bank_round", "bank_study"})
_RULES = frozenset({"BETS", "BUILTIN", "OPTIONS", "RANKS", "Bet", "BetError", "BonusOn", "CapRule",
                    "Card", "ColonMatch", "DrawRule", "Naturals", "Outcome", "Pay", "Profile",
                    "ProfileError", "Rank", "Rotation", "Session", "Shoe", "Suit", "as_profile",
                    "as_shoe", "bet_payout", "get_profile", "hand_value", "load_profile",
                    "parse_card", "parse_cards", "parse_shoe", "profile_bets", "resolve_profile"})

if TYPE_CHECKING:
    from odds.exact import (
        BetOdds,
        ConditionError,
        RoundOdds,
        bet_odds,
        bet_removal_effects,
        round_odds,
        slot_round_odds,
    )
    from odds.exact.removal import removal_effects
    from odds.exact.shoe_follow import follow_shoe
    from odds.game import (
        ChemSolution,
        Equilibrium,
        Game,
        GameError,
        PairResult,
        TableGame,
        build_game,
        chemin_de_fer,
        chemin_game,
        solve_chemin,
        solve_game,
        table_game,
    )
    from odds.money import BankRound, BankStudy, bank_round, bank_study
    from odds.money.counting import count_study
    from odds.report.table_files import write_tables
    from odds.rules import (
        BETS,
        BUILTIN,
        OPTIONS,
        RANKS,
        Bet,
        BetError,
        BonusOn,
        CapRule,
        Card,
        ColonMatch,
        DrawRule,
        Naturals,
        Outcome,
        Pay,
        Profile,
        ProfileError,
        Rank,
        Rotation,
        Session,
        Shoe,
        Suit,
        as_profile,
        as_shoe,
        bet_payout,
        get_profile,
        hand_value,
        load_profile,
        parse_card,
        parse_cards,
        parse_shoe,
        profile_bets,
        resolve_profile,
    )
    from odds.sim.simulate import simulate
    from odds.sim.verify import verify_file


def __getattr__(name: str) -> Any:
    """A public name, imported on first use.

    >>> import odds
    >>> odds.simulate.__module__, odds.Shoe.__module__
    ('odds.sim.simulate', 'odds.rules.shoe')
    """
    value: Any
    module: Any
    if name in _RULES:
        from odds import rules as module
    elif name in _EXACT:
        from odds import exact as module
    elif name in _GAME:
        from odds import game as module
    elif name in _MONEY:
        from odds import money as module
    elif name == "count_study":
        from odds.money.counting import count_study as value
    elif name == "follow_shoe":
        from odds.exact.shoe_follow import follow_shoe as value
    elif name == "removal_effects":
        from odds.exact.removal import removal_effects as value
    elif name == "simulate":
        from odds.sim.simulate import simulate as value
    elif name == "verify_file":
        from odds.sim.verify import verify_file as value
    elif name == "write_tables":
        from odds.report.table_files import write_tables as value
    else:
        raise AttributeError(f"module 'odds' has no attribute {name!r}")
    if name in _RULES | _EXACT | _GAME | _MONEY:
        value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """Every public name, imported or not (for ``dir(odds)`` and completion)."""
    return sorted({*globals(), *__all__})


def report_text(result: RoundOdds) -> str:
    """The full text report of a round, as ``lucky9 odds`` prints it.

    >>> from odds import report_text, round_odds
    >>> print(report_text(round_odds("standard")))  # doctest: +ELLIPSIS
    profile standard: Philippine Lucky 9 ...
    ...
    outcome (player seat)      probability  odds against
      win                       0.45390897    1.20 to 1  103960291/229033350
    ...
    """
    from odds.report.odds_report import odds_text

    return "\n".join(odds_text(result))

__all__ = [
    "BETS",
    "BUILTIN",
    "BankRound",
    "BankStudy",
    "Bet",
    "BetError",
    "BetOdds",
    "BonusOn",
    "CapRule",
    "Card",
    "ChemSolution",
    "ColonMatch",
    "ConditionError",
    "DrawRule",
    "Equilibrium",
    "Game",
    "GameError",
    "Naturals",
    "OPTIONS",
    "Outcome",
    "PairResult",
    "Pay",
    "Profile",
    "ProfileError",
    "RANKS",
    "Rank",
    "Rotation",
    "RoundOdds",
    "Session",
    "Shoe",
    "Suit",
    "TableGame",
    "as_profile",
    "as_shoe",
    "bank_round",
    "bank_study",
    "bet_odds",
    "bet_payout",
    "bet_removal_effects",
    "build_game",
    "chemin_de_fer",
    "chemin_game",
    "count_study",
    "follow_shoe",
    "get_profile",
    "hand_value",
    "load_profile",
    "parse_card",
    "parse_cards",
    "parse_shoe",
    "profile_bets",
    "removal_effects",
    "report_text",
    "resolve_profile",
    "round_odds",
    "simulate",
    "slot_round_odds",
    "solve_chemin",
    "solve_game",
    "table_game",
    "verify_file",
    "write_tables",
]
