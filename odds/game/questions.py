"""Which game a question about choices is, on which shoe, and its answer.

What ``lucky9 solve``, ``play`` and ``odds`` decide before they render:
whether the rules are chemin de fer (the banker sees the player's third
card), which shoe a table or a published model is dealt from, and the one
chemin de fer decision a player or banker asks about.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from odds.game.errors import GameError
from odds.io.textio import excerpt
from odds.rules.cards import Card, parse_cards
from odds.rules.profile import Profile
from odds.rules.shoe import Shoe

if TYPE_CHECKING:  # the solvers are imported by the questions that need them (lucky9 odds does not)
    from odds.game.chemin import ChemSolution
    from odds.game.chemin_decision import Decision

__all__ = ["chemin_decision", "chemin_solution", "game_shoe", "is_chemin", "round_question", "third_points"]


def is_chemin(profile: Profile, model: str | None = None, commission: Any = None,
              removed: Sequence[Card] = ()) -> bool:
    """Chemin de fer: a model, a commission or removed cards are asked for, or the player
    chooses on some totals only.

    >>> from odds.rules.profiles import BUILTIN
    >>> is_chemin(BUILTIN["chemin-de-fer"]), is_chemin(BUILTIN["family"])
    (True, False)
    >>> is_chemin(BUILTIN["family"], model="B2")
    True
    """
    rule = profile.player_draw
    if model or commission is not None or removed:
        return True
    return rule is not None and bool(rule.choose)


def game_shoe(shoe: Shoe, given: bool, players: int = 1, model: str | None = None) -> Shoe:
    """The shoe a game is dealt from: ``shoe`` if one was ``given``, else the infinite
    shoe for a table of more than one player or Kemeny and Snell's model A1 (dealt
    with replacement), else ``shoe``.

    >>> game_shoe(Shoe.packs_of(8), False, model="a1").label
    'inf'
    >>> game_shoe(Shoe.packs_of(8), True, players=4).label, game_shoe(Shoe.packs_of(8), False).label
    ('8 packs', '8 packs')
    """
    if given:
        return shoe
    if players > 1 or (model or "").upper() == "A1":
        return Shoe.infinite_shoe()
    return shoe


def _heads_up(players: int) -> None:
    if players > 1:
        raise GameError("chemin de fer is heads-up: the banker against one player")


def chemin_solution(profile: Profile, shoe: Shoe, model: str | None = None,
                    commission: str | None = None, information: str = "cards",
                    removed: Sequence[Card] = (), players: int = 1) -> ChemSolution:
    """Chemin de fer solved exactly: under a published ``model``, or the profile's rules
    with each side seeing its cards (``information`` "cards") or its total ("totals").

    >>> from odds.rules.profiles import BUILTIN
    >>> s = chemin_solution(BUILTIN["chemin-de-fer"], Shoe.infinite_shoe(), "a1")
    >>> s.model, s.value
    ('A1', Fraction(-679568, 53094899))
    """
    _heads_up(players)
    from odds.game.chemin import chemin_game, parse_commission, solve_chemin

    alpha = parse_commission(0 if commission is None else commission)
    model = model.upper() if model else None
    if information == "totals":
        if model:
            raise GameError("--model says what each side sees: leave --information out")
        profile = profile.with_options(player_sees="total", bank_sees="total")
    if removed:
        shoe = shoe.without(tuple(removed))
    return solve_chemin(chemin_game(profile, shoe, model), alpha, model)


def third_points(third: str) -> int | None:
    """The point value of the player's face-up third card, or None if he ``stood``.

    >>> third_points("4h"), third_points(" Stood ")
    (4, None)
    """
    if third.strip().lower() == "stood":
        return None
    card = parse_cards(third)
    if len(card) != 1:
        raise GameError(f"--third takes one card or stood, not {excerpt(third)}")
    return card[0].points


def _check_hands(player: Sequence[Card], bank: Sequence[Card], third: str | None) -> None:
    if bool(player) == bool(bank):
        raise GameError("give the banker's two cards with --bank and --third CARD|stood, "
                        "or the player's two cards with --player (one decision)")
    for cards, who in ((player, "player"), (bank, "banker")):
        if cards and len(cards) != 2:
            raise GameError(f"give the {who}'s two cards, not {len(cards)}")
    if bank and third is None:
        raise GameError("give the player's third card with --third CARD, or --third stood")
    if not bank and third is not None:
        raise GameError("--third goes with --bank: the banker decides after the player")


def chemin_decision(profile: Profile, shoe: Shoe, model: str | None,
                    player: Sequence[Card] = (), bank: Sequence[Card] = (),
                    third: str | None = None, players: int = 1,
                    strategies: tuple[str, str] = ("optimal", "optimal"),
                    ) -> tuple[Decision, ChemSolution]:
    """One chemin de fer decision, the other side playing its equilibrium strategy.

    The player's, given his two cards (``player``), or the banker's, given his
    two cards and the player's ``third`` card (or "stood").

    >>> from odds.rules.profiles import BUILTIN
    >>> d, _ = chemin_decision(BUILTIN["chemin-de-fer"], Shoe.infinite_shoe(), "A1",
    ...                        player=parse_cards("2 3"))
    >>> d.side, d.where, d.stand == d.draw
    ('player', (5,), True)
    """
    _heads_up(players)
    if strategies != ("optimal", "optimal"):
        raise GameError("a chemin de fer decision is answered against the other side's "
                        "equilibrium strategy: leave --strategy and --bank-strategy out")
    _check_hands(player, bank, third)
    x = third_points(third) if bank and third is not None else None
    model = model.upper() if model else None
    from odds.game.chemin import chemin_game, solve_chemin
    from odds.game.chemin_decision import decision, hand_of
    from odds.game.game import third_label

    game = chemin_game(profile, shoe, model)
    sol = solve_chemin(game, 0, model)
    eq = sol.equilibria[0]
    # Under a model where a side sees its cards, its information set is its two
    # cards, so the EVs are exactly those given the cards held.
    if bank:
        where: Any = (hand_of(tuple(bank), game.bank_information or game.information),
                      third_label(x))
        if where not in game.bank_sets:
            raise GameError("this situation cannot arise: a hand is a natural, the "
                            "player could not have done that, or the shoe lacks the cards")
        return decision(game, eq.player, eq.bank, "bank", where), sol
    where = hand_of(tuple(player), game.information)
    if where not in game.player_sets:
        raise GameError("this situation cannot arise: a natural stops every draw, "
                        "or the shoe lacks the cards")
    return decision(game, eq.player, eq.bank, "player", where), sol


def round_question(profile: Profile, strategies: tuple[str | None, str | None] = (None, None),
                   by_slot: bool = False, totals: bool = False, table: bool = False) -> str:
    """Which question one round's odds are: ``"bets"`` (a fixed-rule round with bets or
    cards by slot), ``"game"`` (strategies given, or rules where players and bank
    choose) or ``"round"`` (the exact engine).  ``totals``: given two-card values
    only; ``table``: the answer is wanted as a table (CSV rows), which a game has not.

    >>> from odds.rules.profiles import BUILTIN
    >>> round_question(BUILTIN["standard"]), round_question(BUILTIN["family"])
    ('round', 'game')
    >>> round_question(BUILTIN["punto-banco"], by_slot=True)
    'bets'
    >>> round_question(BUILTIN["family"], by_slot=True)
    Traceback (most recent call last):
    ...
    odds.game.errors.GameError: --slot and --bet need a fixed-rule profile (no strategies)
    """
    chosen = any(strategies) or not profile.fixed
    if by_slot:
        if chosen:
            raise GameError("--slot and --bet need a fixed-rule profile (no strategies)")
        if totals:
            raise GameError("--slot and --bet cannot be combined with --player-total/"
                            "--bank-total: give known cards instead")
        return "bets"
    if not chosen:
        return "round"
    if table:
        raise GameError(
            f"profile {profile.key!r} is played as a game (players and bank choose), "
            "which has no CSV form: use --format text or json"
            if not profile.fixed else "with strategies, use --format text or json")
    if totals:
        raise GameError("--player-total/--bank-total are for fixed-rule profiles; "
                        "with strategies give known cards (--player, --bank)")
    return "game"
