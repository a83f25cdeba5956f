"""``python -m odds``: the ``lucky9`` command, for when the script is not on PATH.

The command line lives in ``odds.cli``, above the library; it is imported only
when this module runs, so ``import odds`` never loads click.
"""

from __future__ import annotations


def run() -> None:
    """Run the ``lucky9`` command with this process's arguments."""
    from odds.cli import main

    main(prog_name="lucky9")


if __name__ == "__main__":
    run()
