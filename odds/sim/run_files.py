"""The files a simulated run writes: its tallies (CSV or JSON) and its round log.

Both targets are checked before the run (not after it), and must be two files.
"""

from __future__ import annotations

from odds.io.atomic import check_target, same_target, write_file
from odds.sim.simulate import Simulation
from odds.sim.tallies import tallies_csv, tallies_json

__all__ = ["check_run_files", "write_tallies"]


def check_run_files(tallies: str | None, log: str | None) -> None:
    """Each target can be written, and they are not one file.

    >>> check_run_files("run.json", "./run.json")
    Traceback (most recent call last):
    ...
    ValueError: --log and --tallies name the same file; give two files
    """
    for path in (tallies, log):
        if path is not None:
            check_target(path)
    if tallies is not None and log is not None and same_target(tallies, log):
        raise ValueError("--log and --tallies name the same file; give two files")


def write_tallies(path: str, sim: Simulation) -> None:
    """Write the run's tallies to ``path``, whole: CSV if it ends in ``.csv``, else JSON."""
    text = (tallies_csv(sim.header, sim.tallies) if path.lower().endswith(".csv")
            else tallies_json(sim.header, sim.tallies, sim.note))
    write_file(path, text)
