"""Strategies: a draw probability per information set, named or from a file.

A player strategy gives, for each information set where the player chooses
(its own two cards, or its two-card value, see :mod:`odds.game.game`), the
probability of taking a third card: an exact rational in [0, 1].  A bank
strategy does the same per (own hand, what the bank saw).

Named strategies look at the two-card value only:

* ``standard-rule``: draw on 0-5 (the Philippine game's fixed rule);
* ``never`` and ``always``;
* ``draw-below:K``: draw on a two-card value below K (0 to 10);
* ``optimal``: the side's strategy in the exact heads-up equilibrium;
* ``best-response``: the exact best response to the other side's strategy.

A strategy file (TOML or JSON) has a ``draw`` table; for the player, one
entry per hand (``"0-5" = "1/2"`` or ``"5" = 1``); for the bank, one table
per hand keyed by what it saw (``"6" = { stood = 1, drew = "1/4" }``).
Optional keys ``side`` and ``information`` are checked against the use.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from odds.game.game import Game, GameError, hand_label, hand_total
from odds.io.textio import check_nesting, check_numbers, excerpt, load_json, read_text
from odds.rules.profiles import MAX_TOML

__all__ = [
    "NAMED",
    "SIDES",
    "Strategy",
    "load_strategy",
    "named_strategy",
    "parse_probability",
    "resolve_pair",
    "strategy_data",
    "strategy_from_data",
]

SIDES = ("player", "bank")
NAMED = ("standard-rule", "never", "always", "draw-below:K", "optimal", "best-response")

Strategy = dict[Any, Fraction]  # Hand -> P(draw) for the player, BankSet -> for the bank
_NUMBER = re.compile(r"\s*[0-9]{1,30}(\.[0-9]{1,30})?(/[0-9]{1,30})?\s*")


def _sets(game: Game, side: str) -> tuple[Any, ...]:
    if side not in SIDES:
        raise GameError(f"{excerpt(side)} is not a side (player or bank)")
    return game.player_choices if side == "player" else game.bank_choices


def _total(item: Any, side: str) -> int:
    return hand_total(item if side == "player" else item[0])


def named_strategy(name: str, game: Game, side: str) -> Strategy | None:
    """A rule-of-thumb strategy by name, or None if ``name`` is not one.

    ``optimal`` and ``best-response`` are not rules of thumb: see
    :func:`resolve_pair`.

    >>> from odds import BUILTIN, Shoe
    >>> from odds.game.game import build_game
    >>> g = build_game(BUILTIN["family"], Shoe.infinite_shoe(), "totals")
    >>> s = named_strategy("draw-below:4", g, "player")
    >>> [hand_label(h) for h, p in s.items() if p]
    ['0', '1', '2', '3']
    >>> named_strategy("draw-below:11", g, "player")
    Traceback (most recent call last):
    ...
    odds.game.errors.GameError: 'draw-below:11' needs a value from 0 to 10 (draws on values below it)
    """
    text = name.strip().lower()
    sets = _sets(game, side)
    threshold: int | None
    if text == "standard-rule":
        threshold = 6
    elif text == "never":
        threshold = 0
    elif text == "always":
        threshold = 10
    elif text.startswith("draw-below:"):
        number = text.partition(":")[2].strip()
        if not re.fullmatch(r"[0-9]{1,2}", number) or int(number) > 10:  # ASCII: '²' is a digit
            raise GameError(
                f"{excerpt(name)} needs a value from 0 to 10 (draws on values below it)"
            )
        threshold = int(number)
    else:
        return None
    return {s: Fraction(int(_total(s, side) < threshold)) for s in sets}


def parse_probability(raw: Any, where: str) -> Fraction:
    """A draw probability as written: 0, 1, 0.25, "9/11", true/false are refused.

    >>> parse_probability("9/11", "x"), parse_probability(0.25, "x")
    (Fraction(9, 11), Fraction(1, 4))
    >>> parse_probability("3/2", "entry '5'")
    Traceback (most recent call last):
    ...
    odds.game.errors.GameError: entry '5': 3/2 is not a probability (a number 0 to 1: 1, 0.25, 9/11)
    """
    value: Fraction | None = None
    if isinstance(raw, bool):
        value = None
    elif isinstance(raw, (int, Fraction)):
        value = Fraction(raw)
    elif isinstance(raw, float) and math.isfinite(raw):
        value = Fraction(repr(raw))  # the decimal as written, not the binary double
    elif isinstance(raw, str) and _NUMBER.fullmatch(raw):
        try:
            value = Fraction(raw.strip())
        except ZeroDivisionError:
            value = None
    if value is None or not 0 <= value <= 1:
        shown = excerpt(raw) if value is None else str(value)
        raise GameError(
            f"{where}: {shown} is not a probability "
            "(a number 0 to 1: 1, 0.25, 9/11)"
        )
    return value


def strategy_from_data(data: Mapping[str, Any], game: Game, side: str, source: str) -> Strategy:
    """A strategy from parsed file data, checked entry by entry against the game.

    Errors name the file and the entry: an unknown information set, a
    probability outside [0, 1], or an information set left out.

    >>> from odds import BUILTIN, Shoe
    >>> from odds.game.game import build_game
    >>> g = build_game(BUILTIN["family"], Shoe.infinite_shoe(), "totals")
    >>> s = strategy_from_data({"draw": {str(v): int(v < 5) for v in range(9)}}, g, "player", "x")
    >>> s[(4,)], s[(5,)]
    (Fraction(1, 1), Fraction(0, 1))
    >>> strategy_from_data({"draw": {"4": 1}}, g, "player", "'s.toml'")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    odds.game.errors.GameError: strategy file 's.toml': no entry for information set '0' (every hand ...)
    """
    where = f"strategy file {source}"
    sets = _sets(game, side)
    unknown_keys = set(data) - {"side", "information", "draw", "profile", "shoe", "value"}
    if unknown_keys:
        raise GameError(
            f"{where}: unknown key {excerpt(sorted(unknown_keys)[0])} "
            "(a strategy file has a 'draw' table, and optionally 'side' and 'information')"
        )
    if "side" in data and data["side"] != side:
        raise GameError(
            f"{where}: it is a {excerpt(data['side'])} strategy, but it is used for the {side}"
        )
    if "information" in data and data["information"] != game.information:
        raise GameError(
            f"{where}: it is written for --information {data['information']}, "
            f"but the game uses --information {game.information}"
        )
    table = data.get("draw")
    if not isinstance(table, Mapping):
        raise GameError(
            f"{where}: no 'draw' table (give one draw probability per information set)"
        )
    out: Strategy = {}
    if side == "player":
        by_label = {hand_label(h): h for h in sets}
        for key, raw in table.items():
            hand = by_label.get(str(key))
            if hand is None:
                raise GameError(
                    f"{where}: entry {excerpt(key)} is not an information set where the player "
                    f"chooses (under --information {game.information} they are "
                    f"{_examples(by_label)})"
                )
            out[hand] = parse_probability(raw, f"{where}: entry draw.{excerpt(key)}")
        missing = [label for label, h in by_label.items() if h not in out]
        if missing:
            raise GameError(
                f"{where}: no entry for information set {missing[0]!r} "
                "(every hand where the player chooses needs a draw probability)"
            )
        return out
    hands = {hand_label(h): h for h, _ in sets}
    pairs = {(hand_label(h), seen): (h, seen) for h, seen in sets}
    for key, row in table.items():
        if str(key) not in hands:
            raise GameError(
                f"{where}: entry {excerpt(key)} is not a hand where the bank chooses (under "
                f"--information {game.information} they are {_examples(hands)})"
            )
        if not isinstance(row, Mapping):
            raise GameError(
                f"{where}: entry draw.{excerpt(key)} must be a table keyed by what the bank saw "
                f"(e.g. {{ stood = 1, drew = 0 }})"
            )
        for seen, raw in row.items():
            found = pairs.get((str(key), str(seen)))
            if found is None:
                saw = sorted({s for k, s in pairs if k == str(key)}, key=game.seen_labels().index)
                raise GameError(
                    f"{where}: entry draw.{excerpt(key)}.{excerpt(seen)} is not an information set "
                    f"where the bank chooses (what it can see: {', '.join(saw)})"
                )
            out[found] = parse_probability(raw, f"{where}: entry draw.{excerpt(key)}.{excerpt(seen)}")
    for (label, seen), found in pairs.items():
        if found not in out:
            raise GameError(
                f"{where}: no entry for information set {label!r} / {excerpt(seen)} "
                "(every hand and sight where the bank chooses needs a draw probability)"
            )
    return out


def _examples(labels: Mapping[str, Any]) -> str:
    names = list(labels)
    return ", ".join(names) if len(names) <= 12 else ", ".join(names[:6]) + ", ..."


def load_strategy(path: str | Path, game: Game, side: str) -> Strategy:
    """Read a strategy file (``.toml`` or ``.json``) for one side of ``game``.

    >>> from odds import BUILTIN, Shoe
    >>> from odds.game.game import build_game
    >>> load_strategy("nowhere.toml", build_game(BUILTIN["family"], Shoe.packs_of(1)), "bank")
    Traceback (most recent call last):
    ...
    odds.game.errors.GameError: strategy file 'nowhere.toml' does not exist
    """
    path = Path(path)
    where = f"strategy file {excerpt(str(path), 120)}"
    text = read_text(path, MAX_TOML, "strategy file", GameError)
    if path.suffix.lower() == ".json":
        data = load_json(text, where, GameError)
    else:
        check_nesting(text, where, GameError, toml=True)
        check_numbers(text, where, GameError)
        try:
            data = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, RecursionError) as exc:
            raise GameError(f"{where} is not valid TOML: {exc}") from None
    if not isinstance(data, Mapping):
        raise GameError(f"{where} must hold a table with a 'draw' entry")
    return strategy_from_data(data, game, side, repr(str(path)))


def _is_file(spec: str) -> bool:
    return "/" in spec or Path(spec).suffix.lower() in {".toml", ".json"}


def resolve_pair(
    game: Game, player_spec: str, bank_spec: str
) -> tuple[Strategy, Strategy]:
    """Both sides' strategies from names or files; ``optimal`` solves the game.

    >>> from odds import BUILTIN, Shoe
    >>> from odds.game.game import build_game
    >>> g = build_game(BUILTIN["family"], Shoe.infinite_shoe(), "totals")
    >>> p, b = resolve_pair(g, "standard-rule", "best-response")
    >>> g.evaluate(p, b).expected_value < 0
    True
    """
    specs = {"player": player_spec, "bank": bank_spec}
    found: dict[str, Strategy] = {}
    lowered = {side: spec.strip().lower() for side, spec in specs.items()}
    if lowered["player"] == lowered["bank"] == "best-response":
        raise GameError("only one side can play best-response (to the other's strategy)")
    for side, spec in specs.items():
        if lowered[side] in ("best-response", "optimal"):
            continue
        named = named_strategy(spec, game, side)
        if named is not None:
            found[side] = named
        elif _is_file(spec):
            found[side] = load_strategy(spec, game, side)
        else:
            raise GameError(
                f"unknown {side} strategy {excerpt(spec)} (use one of {', '.join(NAMED)}, "
                "or a .toml or .json strategy file)"
            )
    if "optimal" in lowered.values():
        from odds.game.solve import solve_game

        eq = solve_game(game)
        if lowered["player"] == "optimal":
            found["player"] = eq.player
        if lowered["bank"] == "optimal":
            found["bank"] = eq.bank
    if "player" not in found:
        found["player"] = game.player_best_response(found["bank"])[0]
    if "bank" not in found:
        found["bank"] = game.bank_best_response(found["player"])[0]
    return found["player"], found["bank"]


def strategy_data(game: Game, strategy: Mapping[Any, Fraction], side: str) -> dict[str, Any]:
    """A strategy as file data (the form :func:`strategy_from_data` reads).

    >>> from odds import BUILTIN, Shoe
    >>> from odds.game.game import build_game
    >>> g = build_game(BUILTIN["family"], Shoe.infinite_shoe(), "totals")
    >>> s = named_strategy("standard-rule", g, "bank")
    >>> strategy_from_data(strategy_data(g, s, "bank"), g, "bank", "x") == s
    True
    """
    draw: dict[str, Any] = {}
    for item in _sets(game, side):
        p = strategy[item]
        text = str(p)
        if side == "player":
            draw[hand_label(item)] = text
        else:
            draw.setdefault(hand_label(item[0]), {})[item[1]] = text
    return {"side": side, "information": game.information, "draw": draw}
