"""odds.rules imports one way: no cycle, no registry, no private name across modules.

Every import counts, those inside functions and under ``if TYPE_CHECKING:``
included, since either can hide a cycle that a module-level graph would not
show.
"""

from __future__ import annotations

import ast
from pathlib import Path

import odds.rules

RULES = Path(odds.rules.__file__).parent


def _imports() -> dict[str, list[tuple[str, str]]]:
    """Module name -> (imported module, imported name) for every import of odds.rules."""
    out: dict[str, list[tuple[str, str]]] = {}
    for path in sorted(RULES.glob("*.py")):
        name = "odds.rules" if path.stem == "__init__" else f"odds.rules.{path.stem}"
        found: list[tuple[str, str]] = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.extend((node.module, alias.name) for alias in node.names)
            elif isinstance(node, ast.Import):
                found.extend((alias.name, "") for alias in node.names)
            elif (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module"
                  and node.args and isinstance(node.args[0], ast.Constant)):
                found.append((str(node.args[0].value), ""))
        out[name] = found
    return out


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle_in_rules() -> None:
    imports = _imports()
    modules = set(imports) - {"odds.rules"}  # the package's face imports them all
    graph = {m: {t for t, _ in imports[m] if t in modules and t != m} for m in modules}
    assert _cycles(graph) == []


def test_a_cycle_is_found() -> None:
    # The checker itself: the cycle this file guards against, bets <-> profiles <-> settle.
    graph = {"bets": {"profiles", "settle"}, "profiles": {"bets"}, "settle": {"profiles"},
             "cards": set()}
    assert _cycles(graph) == [["bets", "profiles", "settle"]]


def test_no_module_loaded_by_name_and_no_private_name_across_modules() -> None:
    for module, found in _imports().items():
        for target, name in found:
            assert not (target.startswith("odds") and name == "" and target != "odds"), \
                f"{module} imports {target} by name or as a module"
            if target.startswith("odds.") and name.startswith("_"):
                raise AssertionError(f"{module} imports the private name {name} of {target}")
