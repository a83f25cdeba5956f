"""A grid of shoe studies: several rule variants with the same shoes and seed (:func:`count_grid`).

Each cell is one :func:`odds.money.counting.study.count_study`; a cluster is
reached once for the whole grid, and a saved grid keeps cell k in its own
folder ``cell-k`` of the grid's folder.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from odds.money.counting.cluster import ClusterSession
from odds.money.counting.folder import FolderError
from odds.money.counting.plan import MAX_SHOES, CountSystem, study_plan
from odds.money.counting.study import count_study
from odds.money.counting.summary import Bankroll, CountStudy
from odds.rules.bet_types import Bet
from odds.rules.profile import Profile

__all__ = ["MAX_CELLS", "CountGrid", "count_grid"]

MAX_CELLS = 64  # cells of a study grid


@dataclass(frozen=True)
class CountGrid:
    """Studies of several rule variants with the same shoes and seed, one per cell.

    ``cells`` is the number asked for; fewer ``studies`` (or a partial last
    one) when the grid was stopped.
    """

    cells: int
    studies: tuple[CountStudy, ...]

    @property
    def partial(self) -> bool:
        return len(self.studies) < self.cells or any(s.partial for s in self.studies)


def count_grid(
    cells: Sequence[tuple[Profile, int, int | None]],
    shoes: int,
    penetration: float = 0.8,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    *,
    bets: Sequence[str | Bet] = ("all",),
    burn: int = 0,
    burn_rule: str = "none",
    count_burn: bool = True,
    rounds_after_cut: int = 0,
    system: CountSystem | None = None,
    save: str | Path | None = None,
    resume: bool = False,
    cluster: Any = None,
    cluster_timeout: float = 10.0,
    partial_on_stop: bool = False,
    bankroll: Bankroll | None = None,
) -> CountGrid:
    """One :func:`count_study` per cell ``(profile, packs, cut_cards)``, the same seed each.

    Each cell's figures are those of the single study (a cluster is reached
    once for the whole grid; with ``save``, cell k is kept in ``save/cell-k``).
    ``progress`` counts the shoes of every cell.

    >>> from odds.rules.profiles import BUILTIN
    >>> grid = count_grid([(BUILTIN["punto-banco"], 1, None), (BUILTIN["punto-banco"], 2, 20)],
    ...                   8, seed=1, bets=["tie"])
    >>> [(s.packs, s.cut) for s in grid.studies]
    [(1, 41), (2, 84)]
    """
    if not 1 <= len(cells) <= MAX_CELLS:
        raise ValueError(f"a study grid has 1 to {MAX_CELLS} cells, not {len(cells)}")
    if isinstance(shoes, int) and not isinstance(shoes, bool) and shoes * len(cells) > MAX_SHOES:
        raise ValueError(f"a study grid deals at most {MAX_SHOES:,} shoes in all, not "
                         f"{len(cells)} cells of {shoes:,}")
    for profile, packs, cut in cells:  # every cell checked before any shoe is dealt
        study_plan(profile, packs, bets=bets, penetration=penetration, cut_cards=cut, burn=burn,
                   seed=seed, system=system, burn_rule=burn_rule, count_burn=count_burn,
                   rounds_after_cut=rounds_after_cut)
    folders: list[Path | None] = [None] * len(cells)
    if save is not None:
        folders = _grid_folders(Path(save), len(cells), resume)
    session = None
    if isinstance(cluster, str):
        session = cluster = ClusterSession.open(cluster, cluster_timeout)
    studies: list[CountStudy] = []
    try:
        for k, (profile, packs, cut) in enumerate(cells):
            base = k * shoes

            def step(done: int, base: int = base) -> None:
                if progress:
                    progress(base + done)

            folder = folders[k]
            try:
                study = count_study(
                    profile, packs, shoes, penetration, seed, jobs, step, bets=bets,
                    cut_cards=cut, burn=burn, burn_rule=burn_rule, count_burn=count_burn,
                    rounds_after_cut=rounds_after_cut, system=system, save=folder,
                    resume=resume and folder is not None and (folder / "study.json").exists(),
                    cluster=cluster, cluster_timeout=cluster_timeout,
                    partial_on_stop=partial_on_stop, bankroll=bankroll)
            except (KeyboardInterrupt, SystemExit):
                if partial_on_stop and studies:
                    break
                raise
            studies.append(study)
            if study.partial:
                break
    finally:
        if session is not None:
            session.close()
    return CountGrid(len(cells), tuple(studies))


def _grid_folders(root: Path, cells: int, resume: bool) -> list[Path | None]:
    """``root/cell-k``: a new grid needs a new or empty folder; a resumed one, its own cells."""
    names = [f"cell-{k:03d}" for k in range(cells)]
    flag = "--resume" if resume else "--save"
    if resume:
        if not (root / names[0]).is_dir():
            raise FolderError(f"{flag} {str(root)[:120]!r}: the folder holds no study grid "
                              "(no cell-000; start one with --save)")
        extra = sorted(set(os.listdir(root)) - set(names))
        if extra:
            raise FolderError(f"{flag} {str(root)[:120]!r}: the folder holds a grid of other "
                              f"cells ({extra[0]!r} is not one of the {cells} cells here); "
                              "give the same options")
    else:
        if root.exists() and (not root.is_dir() or any(root.iterdir())):
            raise FolderError(f"{flag} {str(root)[:120]!r}: give a new or empty folder")
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise FolderError(f"{flag} {str(root)[:120]!r}: cannot make the folder: "
                              f"{exc.strerror or exc}") from None
    return [root / n for n in names]

