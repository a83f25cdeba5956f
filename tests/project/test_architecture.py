"""The library's structure: imports go one way."""

from __future__ import annotations

import pytest


def test_no_import_cycle_in_rules() -> None:
    import grimp

    graph = grimp.build_graph("odds", exclude_type_checking_imports=True)
    modules = sorted(m for m in graph.modules if m.startswith("odds.rules."))
    for a in modules:
        for b in modules:
            if a < b and graph.chain_exists(a, b) and graph.chain_exists(b, a):
                pytest.fail(f"import cycle: {a} <-> {b}")
    assert not graph.direct_import_exists(importer="odds.rules.profiles",
                                          imported="odds.rules.bets")
