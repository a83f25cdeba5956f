"""How much a test does by default, and all of it in CI.

How many examples a hypothesis property runs (:func:`examples`), and which
cases of a parametrized test run (:func:`halve`): fewer by default, so that
the default run stays within 4 minutes on two cores (docs/performance.md);
CI (``LUCKY9_SLOW=1``, conftest.py) runs every property at its full count and every case.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

import pytest
from _pytest.mark.structures import ParameterSet


def examples(default: int, ci: int) -> int:
    """``ci`` where the slow tests run (``LUCKY9_SLOW=1``), else ``default``."""
    return ci if os.environ.get("LUCKY9_SLOW") == "1" else default


def halve(argnames: str, cases: Iterable[Any], keep: int = 2) -> list[Any]:
    """``cases`` of ``pytest.mark.parametrize(argnames, ...)``: one in ``keep`` (the first,
    then every ``keep``-th) runs by default, the others are marked slow (CI runs them all).

    A case that is already a ``pytest.param`` keeps its values, id and marks.
    """
    out = []
    for i, case in enumerate(cases):
        if i % keep == 0:
            out.append(case)
            continue
        if isinstance(case, ParameterSet):
            out.append(pytest.param(*case.values, id=case.id,
                                    marks=[*case.marks, pytest.mark.slow]))
        elif "," in argnames:
            out.append(pytest.param(*case, marks=pytest.mark.slow))
        else:
            out.append(pytest.param(case, marks=pytest.mark.slow))
    return out
