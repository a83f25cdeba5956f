"""Where the checkout's files are, for tests in any folder under tests/."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the checkout
DATA = ROOT / "tests" / "data"  # the example logs, tallies and profile files the tests read


def lucky9_on_path(folder: Path) -> dict[str, str]:
    """An environment whose PATH has a ``lucky9`` running this checkout's cli.py."""
    bin_dir = folder / ".bin"
    bin_dir.mkdir(exist_ok=True)
    script = bin_dir / "lucky9"
    script.write_text(
        f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -c "
        f"'import sys; sys.path.insert(0, {json.dumps(str(ROOT))}); from cli import main; "
        "main(prog_name=\"lucky9\")' \"$@\"\n")
    script.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "COLUMNS": "80"}
