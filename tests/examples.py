"""How many examples a hypothesis property runs: fewer by default, all of them in CI.

The default run stays within the README's 4 minutes; CI (``LUCKY9_SLOW=1``,
conftest.py) runs every property at its full count.
"""

from __future__ import annotations

import os


def examples(default: int, ci: int) -> int:
    """``ci`` where the slow tests run (``LUCKY9_SLOW=1``), else ``default``."""
    return ci if os.environ.get("LUCKY9_SLOW") == "1" else default
