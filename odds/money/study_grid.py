"""The settings of a shoe study as ``lucky9 count`` is given them: a grid and a count.

Lists of values (``6,8``), the cells of a study grid (every profile, shoe and
cut card), your count system from its tags, trigger and initial running
count, and the settings that go together; every one checked before any shoe
is dealt.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from odds.money.counting import CountSystem, study_plan
from odds.money.counting.folder import FolderError, read_settings
from odds.rules.profile import Profile
from odds.rules.profiles import BUILTIN
from odds.rules.shoe import Shoe

__all__ = [
    "MAX_LIST",
    "Cell",
    "check_cells",
    "check_run",
    "count_system",
    "parse_number",
    "parse_schedule",
    "parse_tags",
    "parse_whole",
    "resumed_options",
    "split_values",
    "study_cells",
]

MAX_LIST = 64  # values of a list option (--decks 6,8): a grid's cells are bounded anyway

Cell = tuple[Profile, int, int | None]  # a profile, its packs, the cards behind the cut card


def split_values(text: str, option: str) -> list[str]:
    """The values of a list option, at most :data:`MAX_LIST`, none empty.

    >>> split_values("6, 8", "--decks")
    ['6', ' 8']
    >>> split_values("6,,8", "--decks")
    Traceback (most recent call last):
    ...
    ValueError: --decks: '6,,8' has an empty value (say 6,8)
    """
    parts = text.split(",")
    if len(parts) > MAX_LIST:
        raise ValueError(f"{option} takes at most {MAX_LIST} values, not {len(parts)}")
    if any(not part.strip() for part in parts):
        raise ValueError(f"{option}: {text[:40]!r} has an empty value (say 6,8)")
    return parts


def parse_whole(text: str, option: str) -> int:
    """A whole number of cards, 0 or more (ASCII digits).

    >>> parse_whole(" 14 ", "--cut-cards")
    14
    >>> parse_whole("-1", "--cut-cards")
    Traceback (most recent call last):
    ...
    ValueError: --cut-cards: '-1' is not a whole number of cards, 0 or more
    """
    text = text.strip()
    if not re.fullmatch(r"[0-9]{1,9}", text):
        raise ValueError(f"{option}: {text[:40]!r} is not a whole number of cards, 0 or more")
    return int(text)


def parse_tags(text: str | None, option: str = "--tags") -> tuple[int, ...] | None:
    """A count system's tags: 13 whole numbers, one per rank A..K (commas or spaces).

    >>> parse_tags("0 0 0 -1 -1 -1 -1 2 2 0 0 0 0")
    (0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0)
    >>> parse_tags(None) is None
    True
    """
    if text is None:
        return None
    parts = [p for p in re.split(r"[,\s]+", text.strip()) if p]
    if len(parts) != 13:
        raise ValueError(
            f"{option} takes 13 whole numbers, one per rank A 2 3 4 5 6 7 8 9 10 J Q K, "
            f"not {len(parts)} ({text!r})")
    tags = []
    for p in parts:
        if not re.fullmatch(r"[+-]?[0-9]{1,4}", p):
            raise ValueError(f"{option}: {p!r} is not a whole number from -1000 to 1000")
        tags.append(int(p))
    return tuple(tags)


def parse_number(text: str | None, option: str) -> float | None:
    """A decimal number as people write it (4, -1.5, .5), or None.

    >>> parse_number("-1.5", "--trigger"), parse_number(None, "--trigger")
    (-1.5, None)
    >>> parse_number("1e9", "--trigger")
    Traceback (most recent call last):
    ...
    ValueError: --trigger: '1e9' is not a number (say 4 or -1.5)
    """
    if text is None:
        return None
    if not re.fullmatch(r"[+-]?([0-9]{1,9}(\.[0-9]{0,9})?|\.[0-9]{1,9})", text.strip()):
        raise ValueError(f"{option}: {text!r} is not a number (say 4 or -1.5)")
    return float(text)


def parse_schedule(text: str | None,
                   option: str = "--trigger-schedule") -> tuple[tuple[int, float], ...]:
    """A trigger schedule: ``CARDS:TRIGGER`` steps, commas between, cards increasing.

    >>> parse_schedule("0:0, 200:-2,300:-4.5")
    ((0, 0.0), (200, -2.0), (300, -4.5))
    >>> parse_schedule("200-2")
    Traceback (most recent call last):
    ...
    ValueError: --trigger-schedule: '200-2' is not CARDS:TRIGGER (say 0:0,200:-2)
    """
    if text is None:
        return ()
    steps = []
    for part in split_values(text, option):
        cards, sep, level = part.strip().partition(":")
        if not sep or not re.fullmatch(r"[0-9]{1,7}", cards.strip()):
            raise ValueError(f"{option}: {part.strip()[:40]!r} is not CARDS:TRIGGER "
                             "(say 0:0,200:-2)")
        number = parse_number(level, option)
        assert number is not None
        steps.append((int(cards), number))
    return tuple(steps)


def count_system(tags: str | None, trigger: str | None = None, irc: int | None = None,
                 deck_estimate: str = "half",
                 schedule: str | None = None) -> CountSystem | None:
    """Your count system from its tags (None: no count), the count to bet from
    (``trigger``, default 0, or a ``schedule`` of triggers by cards seen) and,
    for unbalanced tags, the initial running count.

    >>> count_system("0,0,0,-1,-1,-1,-1,2,2,0,0,0,0", "4").balanced
    True
    >>> count_system(None, "4")
    Traceback (most recent call last):
    ...
    ValueError: --trigger, --trigger-schedule and --irc go with --tags (your count system)
    """
    parsed = parse_tags(tags)
    level = parse_number(trigger, "--trigger")
    steps = parse_schedule(schedule)
    if parsed is None:
        if level is not None or irc is not None or steps:
            raise ValueError("--trigger, --trigger-schedule and --irc go with --tags "
                             "(your count system)")
        return None
    if steps and steps[0][0] == 0:
        if level is not None:
            raise ValueError("--trigger-schedule starts at 0 cards, so --trigger would never "
                             "apply: give one of them")
        level = steps[0][1]
    system = CountSystem(parsed, level if level is not None else 0.0, irc, deck_estimate,
                         steps)
    if system.balanced and irc is not None:
        raise ValueError("--irc is for unbalanced tags; these sum to 0 (a true count)")
    return system


def study_cells(rules: Sequence[tuple[Profile, Shoe]],
                cuts: Sequence[int | None] = (None,)) -> list[Cell]:
    """The cells of a study grid: every (profile, shoe) with every cut card (None: the
    study's penetration); each shoe a fresh shoe of packs.

    >>> from odds.rules.profiles import BUILTIN
    >>> cells = study_cells([(BUILTIN["standard"], Shoe.packs_of(6))], [14, 52])
    >>> [(p.key, packs, cut) for p, packs, cut in cells]
    [('standard', 6, 14), ('standard', 6, 52)]
    """
    cells: list[Cell] = []
    for profile, shoe in rules:
        if shoe.packs is None or shoe.size != 52 * shoe.packs:
            raise ValueError("the study shuffles fresh shoes of packs: give --decks D")
        cells.extend((profile, shoe.packs, cut) for cut in cuts)
    return cells


def check_run(cells: Sequence[Cell], table: bool = False, save: str | None = None,
              resume: str | None = None, cluster: str | None = None, jobs: int = 1) -> None:
    """Settings of a run that go together: CSV rows (``table``) are a grid's, a study is
    saved or resumed, and spread over processes or a cluster.

    >>> check_run([], save="a", resume="a")
    Traceback (most recent call last):
    ...
    ValueError: give --save DIR (a new study) or --resume DIR, not both
    """
    if save is not None and resume is not None:
        raise ValueError("give --save DIR (a new study) or --resume DIR, not both")
    if cluster is not None and jobs != 1:
        raise ValueError("give --jobs or --cluster, not both (the workers are the jobs)")
    if table and len(cells) <= 1:
        raise ValueError("--format csv is the table of a study grid (several --decks, "
                         "--cut-cards or --grid-profile); use text or json")


def check_cells(cells: Sequence[Cell], bets: Sequence[str], penetration: float, burn: int,
                seed: int, system: CountSystem | None, **dealing: Any) -> None:
    """Every cell's study planned (so checked) before any shoe is dealt (``dealing``: the
    burn rule and the rounds after the cut card, as :func:`odds.money.counting.study_plan`
    takes them)."""
    for profile, packs, cut in cells:
        study_plan(profile, packs, bets=bets, penetration=penetration, cut_cards=cut,
                   burn=burn, seed=seed, system=system, **dealing)


def _number(value: float) -> str:
    """A trigger as --trigger takes it (4, -1.5)."""
    return f"{value:.9f}".rstrip("0").rstrip(".")


def _profile_of(settings: dict[str, Any], folder: str) -> Profile:
    key = settings.get("profile")
    if key not in BUILTIN or not isinstance(settings.get("options"), dict):
        raise FolderError(f"--resume {folder[:120]!r}: the study's profile {key!r} is not a "
                          "built-in one: give it again with --profile FILE")
    try:
        return BUILTIN[key].with_options(**settings["options"])
    except ValueError:
        raise FolderError(f"--resume {folder[:120]!r}: study.json is damaged (its rule "
                          "options are not this version's)") from None


def resumed_options(folder: str | Path, profile: bool = True) -> dict[str, Any]:
    """The options of the study (or study grid) saved in ``folder``, named and written as
    ``lucky9 count`` takes them: ``--resume DIR`` needs none retyped.  ``profile=False``
    leaves the profiles out (given again on the command line).

    >>> import tempfile
    >>> from odds.money.counting import count_study
    >>> root = tempfile.mkdtemp() + "/s"
    >>> _ = count_study("punto-banco", 1, 2, seed=4, bets=["tie"], save=root)
    >>> options = resumed_options(root)
    >>> options["seed"], options["shoes"], options["decks_list"], options["bets"]
    (4, 2, '1', ('tie',))
    """
    path = Path(folder)
    shown = str(folder)
    names = sorted(p.name for p in path.iterdir() if p.name.startswith("cell-")) \
        if path.is_dir() and (path / "cell-000").is_dir() else []
    cells = [read_settings(path / n) for n in names] or [read_settings(path)]
    try:
        first = cells[0]
        options: dict[str, Any] = {
            "shoes": first["shoes"], "penetration": first["penetration"] or 0.8,
            "burn": first["burn"], "burn_rule": first["burn_rule"],
            "count_burn": first["count_burn"], "rounds_after_cut": first["rounds_after_cut"],
            "seed": first["seed"], "bets": tuple(first["bets"])}
        packs = list(dict.fromkeys(int(c["packs"]) for c in cells))
        cuts = list(dict.fromkeys(c["cut_cards"] for c in cells))
        keys = list(dict.fromkeys(c["profile"] for c in cells))
        system = first["count_system"]
    except (KeyError, TypeError, ValueError):
        raise FolderError(f"--resume {shown[:120]!r}: study.json is damaged "
                          "(not the record of a study)") from None
    grid = [(k, d, c) for k in keys for d in packs for c in cuts]
    if grid != [(c["profile"], c["packs"], c["cut_cards"]) for c in cells]:
        raise FolderError(f"--resume {shown[:120]!r}: the grid's cells are not every profile "
                          "at every --decks and --cut-cards: give its options again")
    options["decks_list"] = ",".join(str(d) for d in packs)
    options["cut_cards_list"] = None if cuts == [None] else ",".join(str(c) for c in cuts)
    if profile:
        by_key = {c["profile"]: _profile_of(c, shown) for c in cells}
        options["profile"], options["grid_profiles"] = by_key[keys[0]], tuple(
            by_key[k] for k in keys[1:])
    if system is not None:
        schedule = [tuple(step) for step in system.get("schedule") or ()]
        options.update({
            "tags": ",".join(str(t) for t in system["tags"]),
            "trigger": None if schedule and schedule[0][0] == 0 else _number(system["trigger"]),
            "irc": system["irc"], "deck_estimate": system["deck_estimate"],
            "schedule": ",".join(f"{c}:{_number(x)}" for c, x in schedule) or None})
    return options
