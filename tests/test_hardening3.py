"""Round three of hardening: bounded work, refused input, plain messages, one API."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str, **kwargs):
    return CliRunner().invoke(main, list(args), **kwargs)


def _usage(result, *words: str) -> str:
    """The run was refused as a usage error, one line naming each of ``words``."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert "Traceback" not in result.output
    text = result.output.strip().splitlines()[-1]
    for word in words:
        assert word in text, (word, result.output)
    return text


# -- item 20: no import cycle inside odds.rules ---------------------------------------------------


def test_item20_no_import_cycle_in_rules() -> None:
    import grimp

    graph = grimp.build_graph("odds", exclude_type_checking_imports=True)
    modules = sorted(m for m in graph.modules if m.startswith("odds.rules."))
    for a in modules:
        for b in modules:
            if a < b and graph.chain_exists(a, b) and graph.chain_exists(b, a):
                pytest.fail(f"import cycle: {a} <-> {b}")
    assert not graph.direct_import_exists(importer="odds.rules.profiles",
                                          imported="odds.rules.bets")


def test_item20_profile_file_bets_still_load(tmp_path) -> None:
    from odds.rules.profiles import load_profile

    path = tmp_path / "p.toml"
    path.write_text('base = "standard"\nbets = ["colon"]\n')
    assert load_profile(path).bets == ("colon",)
