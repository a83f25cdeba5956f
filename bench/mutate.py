"""Mutation testing of the core: plant one small bug at a time, see if a test fails.

    nice python bench/mutate.py                      # every core module, default sample
    nice python bench/mutate.py odds/rules/settle.py --sample 0   # all of settle's mutants
    nice python bench/mutate.py --list odds/rules/cards.py        # the mutants, not run

Each mutant is one AST edit of one module: an arithmetic operator swapped
(``+``/``-``, ``*``/``//``, ``%``/``//``...), a comparison flipped (``<``/``<=``,
``==``/``!=``, ``in``/``not in``, ``is``/``is not``), ``and``/``or`` swapped, a
``not`` or unary minus dropped, an integer constant plus one, a boolean flipped,
a string constant changed, or a statement replaced by ``pass``.  Not mutated:
docstrings, annotations, ``assert`` statements (internal invariants that
cannot fail on correct code), ``__all__``, f-string text and the message of a
``raise`` (wording, checked by the CLI tests, not logic).

The mutant is written into a private copy of the checkout (taken once, at
start; the working tree is never touched) and the module's fast test
selection (:data:`TESTS`: its own test files and doctests, without the
minute-long regenerations) runs with ``-x`` and a timeout in a forked child
(numpy, sympy and mpmath are imported once, by the parent).  A mutant is
*killed* if a test fails, errors or times out.  One worker, one mutant at a
time: the machine is shared.

The sample is drawn with a fixed seed from the module's mutants, so a run
after new tests replays the same mutants.  Mutants shown to be harmless
(equivalent to the original) are listed in :data:`HARMLESS` with the reason;
they are reported but left out of the score.  The result is printed as a
markdown table (``--out FILE`` also writes it with the survivors listed).
Not part of CI: a full run takes tens of minutes.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The core modules and their fast test selections (pytest arguments; the
# module file itself is always added, for its doctests).  Slow tests that
# regenerate everything are left out; each has a fast targeted twin.
_ENGINE_FAST = ["tests/test_engine.py::" + name for name in (
    "test_engine_equals_brute_force_on_eight_card_shoes[naturals-pairs-standard]",
    "test_engine_equals_rank_brute_force_on_a_sub_pack[standard]",
    "test_engine_equals_brute_force_on_eight_card_shoes[low-cards-punto-banco]",
    "test_engine_equals_brute_force_on_eight_card_shoes[zeros-nines-super9]",
    "test_engine_equals_brute_force_on_eight_card_shoes[naturals-pairs-forced-draw]",
    "test_option_variants_equal_brute_force_on_eight_cards",
    "test_known_cards_equal_brute_force_on_small_shoes",
    "test_known_bank_third_card_with_a_value",
    "test_known_cards_on_the_infinite_shoe",
    "test_total_sequences_of_a_conditioned_query",
    "test_known_and_removed_cards_equal_brute_force",
    "test_probabilities_sum_to_one[standard-1]",
    "test_probabilities_sum_to_one[punto-banco-1]",
    "test_probabilities_sum_to_one[super9-8]",
    "test_plain_is_fair[1]",
    "test_colon_closed_form[1]",
    "test_colon_by_value_closed_form",
    "test_eight_pack_total_sequences",
    "test_infinite_shoe_total_and_colon",
    "test_punto_banco_reproduces_published_figures",
    "test_naturals_compare_equals_outright_when_naturals_stop_draws",
    "test_family_worked_example_fixed_draw",
    "test_leaves_agree_with_stage_sums",
    "test_known_third_card_that_cannot_be_drawn",
    "test_too_many_known_cards",
    "test_family_has_no_fixed_rule",
    "test_cards_objects_accepted",
    "test_a_shoe_of_exactly_six_cards_is_enough",
    "test_a_two_card_total_runs_0_to_9",
    "test_leaves_agree_with_the_engine",
    "test_categories_come_in_report_order_and_values_average_to_the_ev",
    "test_a_result_is_a_hashable_value",
)]
# The verifier: the focused tests first, then the cheap ones of test_verify.py
# (not those that simulate or write thousands of rows).
_VERIFY_FAST = ["tests/test_verify_bites.py"] + ["tests/test_verify.py::" + name for name in (
    "test_the_audit_names_the_broken_rule",
    "test_chi_square_p_value_matches_the_closed_form",
    "test_an_impossible_payout_gets_p_zero",
    "test_example_files_verify",
    "test_foreign_log_without_header_uses_the_flags",
    "test_bad_files_say_what_is_wrong",
    "test_small_counts_use_the_exact_binomial_tail",
    "test_the_example_buggy_log_breaks_four_rules",
    "test_a_foreign_spelling_is_read",
)]
TESTS: dict[str, list[str]] = {
    "odds/rules/cards.py": ["tests/test_cards.py", "tests/test_inputs.py",
                            "tests/test_shoe.py", *_ENGINE_FAST],
    "odds/rules/shoe.py": ["tests/test_shoe.py", "tests/test_inputs.py", *_ENGINE_FAST],
    "odds/rules/profiles.py": ["tests/test_profiles.py", "tests/test_inputs.py",
                               "tests/test_settle.py", *_ENGINE_FAST],
    "odds/rules/settle.py": ["tests/test_settle.py", *_ENGINE_FAST],
    "odds/exact/engine.py": _ENGINE_FAST,
    "odds/exact/results.py": [*_ENGINE_FAST, "tests/test_settle.py"],
    "odds/sim/audit.py": _VERIFY_FAST,
    "odds/sim/stats.py": _VERIFY_FAST,
}
DEFAULT_SAMPLE = 60
SEED = 16

# Mutants shown to be harmless: "module:line:col:what" -> why it cannot change behaviour.
HARMLESS: dict[str, str] = {
    "odds/sim/audit.py:79:26:10 -> 11":
        "the bank-draw table gets an 11th own-value row that no index (0-9) reaches",
    "odds/sim/audit.py:79:34:10 -> 11":
        "the bank-draw table gets a 12th third-card column that no index (0-10) reaches",
    "odds/sim/stats.py:34:18:True -> False":
        "Check(frozen=False): nothing assigns to a Check, so mutability is never used",
    "odds/exact/results.py:89:38:False -> True":
        "bank_draw_count shown in repr(RoundOdds): repr is not part of any result",
    "odds/exact/engine.py:442:26:10 -> 11":
        "the stage's player-final vector gets an 11th slot that round_odds never reads "
        "(it sums values 0-9)",
    "odds/rules/cards.py:134:7:> -> >= (#1)":
        "a one-character token that is a suit letter is no rank either way: "
        "the same error, word for word",
}


@dataclass(frozen=True)
class Mutant:
    index: int
    line: int
    col: int
    what: str

    @property
    def key(self) -> str:
        return f"{self.line}:{self.col}:{self.what}"


_BINOPS: dict[type, type] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.Div: ast.Mult,
    ast.FloorDiv: ast.Mult, ast.Mod: ast.FloorDiv, ast.Pow: ast.Mult,
    ast.BitOr: ast.BitAnd, ast.BitAnd: ast.BitOr,
}
_CMPOPS: dict[type, type] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
_SYMBOL = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
    ast.Mod: "%", ast.Pow: "**", ast.BitOr: "|", ast.BitAnd: "&", ast.Lt: "<",
    ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
    ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not",
    ast.And: "and", ast.Or: "or",
}
_DELETABLE = (ast.Assign, ast.AugAssign, ast.Expr, ast.Return, ast.If, ast.For, ast.While,
              ast.Raise, ast.Continue, ast.Break, ast.With, ast.Try)


class _Mutator(ast.NodeTransformer):
    """Numbers every possible mutation in visit order; applies number ``target``."""

    def __init__(self, target: int = -1) -> None:
        self.target = target
        self.found: list[Mutant] = []
        self.skip_strings = 0

    def _offer(self, node: ast.AST, what: str) -> bool:
        index = len(self.found)
        self.found.append(Mutant(index, getattr(node, "lineno", 0),
                                 getattr(node, "col_offset", 0), what))
        return index == self.target

    # -- what is never mutated ------------------------------------------------
    def visit_Assert(self, node: ast.Assert) -> ast.AST:
        return node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        self.skip_strings += 1
        self.generic_visit(node)
        self.skip_strings -= 1
        return node

    def visit_Raise(self, node: ast.Raise) -> ast.AST:
        self.skip_strings += 1
        self.generic_visit(node)
        self.skip_strings -= 1
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        if node.value is not None:
            node.value = self.visit(node.value)
        return node

    def _body(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for i, stmt in enumerate(body):
            docstring = (i == 0 and isinstance(stmt, ast.Expr)
                         and isinstance(stmt.value, ast.Constant)
                         and isinstance(stmt.value.value, str))
            if docstring or (isinstance(stmt, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "__all__" for t in stmt.targets)):
                out.append(stmt)
                continue
            if isinstance(stmt, _DELETABLE) and self._offer(
                    stmt, f"delete {type(stmt).__name__.lower()}"):
                out.append(ast.copy_location(ast.Pass(), stmt))
                continue
            new = self.visit(stmt)
            out.append(new if isinstance(new, ast.stmt) else stmt)
        return out

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for field, value in ast.iter_fields(node):
            if field in ("annotation", "returns", "type_comment"):
                continue
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                setattr(node, field, self._body(value))
            elif isinstance(value, list):
                setattr(node, field, [self.visit(v) if isinstance(v, ast.AST) else v
                                      for v in value])
            elif isinstance(value, ast.AST):
                setattr(node, field, self.visit(value))
        return node

    def visit_arguments(self, node: ast.arguments) -> ast.AST:
        node.defaults = [self.visit(d) for d in node.defaults]
        node.kw_defaults = [self.visit(d) if d is not None else None for d in node.kw_defaults]
        return node

    # -- operators --------------------------------------------------------------
    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        swap = _BINOPS.get(type(node.op))
        if swap and self._offer(node, f"{_SYMBOL[type(node.op)]} -> {_SYMBOL[swap]}"):
            node.op = swap()
            return node
        return self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        swap = _BINOPS.get(type(node.op))
        if swap and self._offer(node, f"{_SYMBOL[type(node.op)]}= -> {_SYMBOL[swap]}="):
            node.op = swap()
            return node
        return self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        for k, op in enumerate(node.ops):
            swap = _CMPOPS.get(type(op))
            if swap and self._offer(node, f"{_SYMBOL[type(op)]} -> {_SYMBOL[swap]} (#{k + 1})"):
                node.ops[k] = swap()
                return node
        return self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        swap = ast.Or if isinstance(node.op, ast.And) else ast.And
        if self._offer(node, f"{_SYMBOL[type(node.op)]} -> {_SYMBOL[swap]}"):
            node.op = swap()
            return node
        return self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        if isinstance(node.op, (ast.Not, ast.USub)) and self._offer(
                node, f"drop {'not' if isinstance(node.op, ast.Not) else 'unary -'}"):
            return node.operand
        return self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        v = node.value
        if isinstance(v, bool):
            if self._offer(node, f"{v} -> {not v}"):
                return ast.copy_location(ast.Constant(not v), node)
        elif isinstance(v, int):
            if self._offer(node, f"{v} -> {v + 1}"):
                return ast.copy_location(ast.Constant(v + 1), node)
        elif isinstance(v, str) and not self.skip_strings:
            if self._offer(node, f"{v[:20]!r} -> 'XX...XX'"):
                return ast.copy_location(ast.Constant(f"XX{v}XX"), node)
        return node


def mutants(source: str) -> list[Mutant]:
    """Every mutant of a module's source, in a stable order."""
    m = _Mutator()
    m.visit(ast.parse(source))
    return m.found


def mutated(source: str, index: int) -> str:
    """The source with mutant ``index`` applied."""
    tree = ast.parse(source)
    m = _Mutator(index)
    tree = m.visit(tree)
    ast.fix_missing_locations(tree)
    return ast.unparse(tree)


def sample(found: list[Mutant], size: int, seed: int) -> list[Mutant]:
    if size <= 0 or size >= len(found):
        return found
    return sorted(random.Random(seed).sample(found, size), key=lambda m: m.index)


def _copy_tree(dest: Path) -> None:
    def ignore(_: str, names: list[str]) -> set[str]:
        return {n for n in names if n in {".git", "__pycache__", ".mypy_cache", ".ruff_cache",
                                           ".pytest_cache", ".hypothesis", ".venv", "mutants"}}
    shutil.copytree(ROOT, dest, ignore=ignore)


def _selection(work: Path, module: str) -> list[str]:
    """The module's test arguments, less test files the checkout does not have."""
    out: list[str] = []
    for arg in TESTS[module]:
        file, _, name = arg.partition("::")
        there = (work / file).exists() and (
            not name or f"def {name.split('[')[0]}(" in (work / file).read_text(encoding="utf-8"))
        if arg.startswith("tests/") and not there:
            if out and out[-1] == "--deselect":
                out.pop()
            continue
        out.append(arg)
    return out


_HEAVY = ("numpy", "mpmath", "sympy", "networkx", "click",
          "fractions", "tomllib", "csv", "json")


def _preload() -> None:
    """Import the heavy libraries once, so each forked test run starts warm.

    (Not pytest or hypothesis: pytest must import its plugins itself.)

    Nothing of ``odds`` or ``tests`` is imported here: each child imports
    them afresh from the checkout, mutant included.
    """
    import importlib

    for name in _HEAVY:
        try:
            importlib.import_module(name)
        except ImportError:
            pass


def _run(work: Path, module: str, timeout: float) -> tuple[str, float]:
    """Run the module's test selection in a forked child (``-x``), with a timeout."""
    args = ["-q", "-x", "-p", "no:cacheprovider", "--no-header",
            *_selection(work, module), module]
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child: run pytest on the checkout and exit with its code
        code = 3
        try:
            os.chdir(work)
            sys.path.insert(0, str(work))
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            import pytest

            code = int(pytest.main(args))
        except BaseException:
            import traceback

            traceback.print_exc(file=sys.__stdout__)
        finally:
            os._exit(code)
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.perf_counter() - start > timeout:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            return "timeout", time.perf_counter() - start
        time.sleep(0.05)
    took = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code == 0:
        return "survived", took
    if code in (1, 2):  # tests failed, or the mutant broke the import
        return "killed", took
    return f"error {code}", took


def run_module(work: Path, module: str, size: int, seed: int, log: list[str],
               save: Callable[[dict[str, object]], None] = lambda entry: None,
               known: dict[str, str] | None = None) -> dict[str, object]:
    """Run a sample of the module's mutants; ``known`` statuses (by key) are reused."""
    path = work / module
    original = path.read_text(encoding="utf-8")
    status, base = _run(work, module, 600)
    if status != "survived":
        raise SystemExit(f"{module}: the tests fail before any mutation ({status})")
    # The mutant's source is the AST printed back (comments and layout lost):
    # check that the printed-back original passes too (once: not on a rerun).
    if not known:
        path.write_text(ast.unparse(ast.parse(original)), encoding="utf-8")
        status, _ = _run(work, module, 600)
        if status != "survived":
            path.write_text(original, encoding="utf-8")
            raise SystemExit(f"{module}: the tests fail on the unparsed original ({status})")
    found = mutants(original)
    chosen = sample(found, size, seed)
    timeout = max(30.0, 4 * base)
    results: list[dict[str, object]] = []
    entry: dict[str, object] = {"module": module, "mutants": len(found), "sampled": len(chosen),
                                "tests_seconds": round(base, 1), "results": results}
    try:
        for n, m in enumerate(chosen, 1):
            if known and m.key in known:
                status, took = known[m.key], 0.0
            else:
                path.write_text(mutated(original, m.index), encoding="utf-8")
                status, took = _run(work, module, timeout)
            results.append({"key": m.key, "line": m.line, "what": m.what, "status": status})
            line = f"{module} {n}/{len(chosen)} line {m.line}: {m.what}: {status} ({took:.1f} s)"
            log.append(line)
            print(line, file=sys.stderr, flush=True)
            save(entry)
    finally:
        path.write_text(original, encoding="utf-8")
    return entry


def score(entry: dict[str, object]) -> tuple[int, int, int, float]:
    """(planted, caught, harmless, score over planted less harmless)."""
    results = entry["results"]
    assert isinstance(results, list)
    module = entry["module"]
    harmless = sum(1 for r in results if r["status"] == "survived"
                   and f"{module}:{r['key']}" in HARMLESS)
    caught = sum(1 for r in results if r["status"] in ("killed", "timeout"))
    real = len(results) - harmless
    return len(results), caught, harmless, (caught / real if real else 1.0)


def markdown(entries: list[dict[str, object]]) -> str:
    lines = ["| module | mutants (all) | planted (sample) | caught | harmless | score | "
             "fast tests (s) |", "|---|---|---|---|---|---|---|"]
    for e in entries:
        planted, caught, harmless, s = score(e)
        lines.append(f"| `{e['module']}` | {e['mutants']} | {planted} | {caught} | {harmless} "
                     f"| {100 * s:.0f}% | {e['tests_seconds']} |")
    survivors = [f"- `{e['module']}` line {r['line']}: {r['what']}"
                 + (f" (harmless: {HARMLESS[str(e['module']) + ':' + r['key']]})"
                    if f"{e['module']}:{r['key']}" in HARMLESS else "")
                 for e in entries for r in e["results"]  # type: ignore[attr-defined]
                 if r["status"] == "survived"]
    if survivors:
        lines += ["", "Surviving mutants:", "", *survivors]
    return "\n".join(lines) + "\n"


def compare(before: list[dict[str, object]], after: list[dict[str, object]]) -> str:
    """A before/after table of two ``--json`` results over the same samples."""
    old = {str(e["module"]): e for e in before}
    lines = ["| module | mutants (all) | planted | caught before | caught after | harmless "
             "| score before | score after |", "|---|---|---|---|---|---|---|---|"]
    for e in after:
        planted, caught, harmless, s = score(e)
        b = old.get(str(e["module"]))
        if b is None:
            lines.append(f"| `{e['module']}` | {e['mutants']} | {planted} | - | {caught} "
                         f"| {harmless} | - | {100 * s:.0f}% |")
            continue
        _, caught_b, harmless_b, s_b = score(b)
        lines.append(f"| `{e['module']}` | {e['mutants']} | {planted} | {caught_b} | {caught} "
                     f"| {harmless} | {100 * s_b:.0f}% | {100 * s:.0f}% |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("modules", nargs="*", default=list(TESTS),
                        help="modules to mutate (default: the core, every key of TESTS)")
    parser.add_argument("--sample", type=int, default=DEFAULT_SAMPLE,
                        help=f"mutants per module (0: all; default {DEFAULT_SAMPLE})")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--rev", help="mutate and test this git revision, not the working tree")
    parser.add_argument("--reuse", type=Path,
                        help="a previous --json result: its killed mutants are not run again "
                             "(tests only grow), its survivors are")
    parser.add_argument("--reuse-all", action="store_true",
                        help="with --reuse, reuse survivors too (to extend a sample)")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("BEFORE", "AFTER"),
                        help="print a before/after table of two --json results, run nothing")
    parser.add_argument("--list", action="store_true", help="list the sampled mutants, run none")
    parser.add_argument("--json", type=Path, help="write the raw results as JSON")
    parser.add_argument("--out", type=Path, help="write the markdown table here too")
    args = parser.parse_args()
    unknown = [m for m in args.modules if m not in TESTS]
    if unknown:
        raise SystemExit(f"no fast test selection for {', '.join(unknown)} (see TESTS)")
    if args.compare:
        before, after = (json.loads(p.read_text(encoding="utf-8")) for p in args.compare)
        print(compare(before, after) + "\n" + markdown(after).split("\n\n", 1)[-1])
        return
    if args.list:
        for module in args.modules:
            found = mutants((ROOT / module).read_text(encoding="utf-8"))
            for m in sample(found, args.sample, args.seed):
                print(f"{module}:{m.key}")
        return
    entries = []
    log: list[str] = []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="lucky9-mutate-") as tmp:
        work = Path(tmp) / "checkout"
        if args.rev:
            work.mkdir()
            archive = subprocess.run(["git", "archive", args.rev], cwd=ROOT, check=True,
                                     capture_output=True).stdout
            subprocess.run(["tar", "-x"], cwd=work, input=archive, check=True)
        else:
            _copy_tree(work)
        # Fewer hypothesis examples per property: a mutant is usually caught by the first.
        (work / "tests" / "conftest.py").write_text(
            "from hypothesis import settings\n"
            "settings.register_profile('mutate', max_examples=20, deadline=None)\n"
            "settings.load_profile('mutate')\n", encoding="utf-8")
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
        sys.dont_write_bytecode = True
        _preload()
        def save(entry: dict[str, object]) -> None:
            if args.json:
                args.json.write_text(json.dumps([*entries, entry], indent=1), encoding="utf-8")

        previous: dict[str, dict[str, str]] = {}
        if args.reuse:
            for e in json.loads(args.reuse.read_text(encoding="utf-8")):
                previous[e["module"]] = {
                    r["key"]: r["status"] for r in e["results"]
                    if args.reuse_all or r["status"] in ("killed", "timeout")}
        for module in args.modules:
            entries.append(run_module(work, module, args.sample, args.seed, log, save,
                                      previous.get(module)))
    table = markdown(entries)
    print(table)
    print(f"took {time.perf_counter() - start:.0f} s", file=sys.stderr)
    if args.out:
        args.out.write_text(table, encoding="utf-8")


if __name__ == "__main__":
    main()
