"""The shape of the library, checked: no import cycle of any kind, modules cut
small, no private name shared across modules, the draw rule written once.

docs/architecture.md states these rules; these tests keep them true.  The
import graph is read from the source (every ``import`` statement, at module
level, inside functions and under ``if TYPE_CHECKING:`` alike), so a cycle
hidden behind a function-level import fails here even where import-linter,
which skips some of those, would pass.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "odds"
MAX_LINES = 700


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> list[tuple[str, list[str], int]]:
    """(imported module, names taken from it, line) for every import statement."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, [], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((module, [alias.name for alias in node.names], node.lineno))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.append((node.args[0].value, [], node.lineno))
    return found


def import_graph() -> nx.DiGraph:
    """Module -> the odds modules it imports (``from pkg import mod`` counts as pkg.mod)."""
    graph = nx.DiGraph()
    for name, path in MODULES.items():
        graph.add_node(name)
        for module, names, _ in _imports(name, path):
            for target in [module, *(f"{module}.{n}" for n in names)]:
                if target in MODULES and target != name:
                    graph.add_edge(name, target)
    return graph


def test_the_import_graph_of_odds_has_no_cycle() -> None:
    cycles = [sorted(c) for c in nx.strongly_connected_components(import_graph()) if len(c) > 1]
    assert cycles == [], f"import cycles (every import counted, function-level too): {cycles}"


def test_the_cycle_check_sees_a_function_level_cycle() -> None:
    # The check itself bites: a cycle through an import inside a function is found.
    graph = import_graph()
    a, b = "odds.rules.cards", "odds.report.par"
    graph.add_edge(a, b)
    graph.add_edge(b, a)
    assert any(len(c) > 1 for c in nx.strongly_connected_components(graph))


def test_no_module_of_odds_imports_a_private_name_of_another() -> None:
    shared = [f"{MODULES[name].relative_to(ROOT)}:{line} imports {module}.{n}"
              for name, path in MODULES.items()
              for module, names, line in _imports(name, path)
              if module.startswith("odds") and module != name
              for n in names if n.startswith("_") and not n.startswith("__")]
    assert shared == []


def test_no_module_of_odds_is_imported_by_a_string() -> None:
    # A registry or importlib.import_module("odds...") hides an edge of the graph.
    found = [f"{MODULES[name].relative_to(ROOT)}" for name, path in MODULES.items()
             if "import_module(" in path.read_text(encoding="utf-8")]
    assert found == []


@pytest.mark.parametrize("name", sorted(MODULES), ids=str)
def test_every_module_of_odds_is_at_most_700_lines(name: str) -> None:
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{MODULES[name].relative_to(ROOT)} has {lines} lines"


def test_every_command_function_is_under_40_lines() -> None:
    # A command parses, calls the library and renders: what is longer decides something.
    long = []
    for name, path in MODULES.items():
        if not name.startswith("odds.cli"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and any(
                    "command" in ast.unparse(d) for d in node.decorator_list):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length >= 40:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({length} lines)")
    assert long == []


def test_cli_py_only_starts_the_command_line() -> None:
    tree = ast.parse((ROOT / "cli.py").read_text(encoding="utf-8"))
    defined = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    assert defined == []


def test_the_draw_decision_is_written_once() -> None:
    # A rule's cell is read (DrawRule.decide, defined in rule_types) only by
    # odds.rules.draw, which puts it together with the naturals.
    deciding = [f"{path.relative_to(ROOT)}"
                for name, path in MODULES.items()
                if name not in ("odds.rules.draw", "odds.rules.rule_types")
                and ".decide(" in path.read_text(encoding="utf-8")]
    assert deciding == []


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
