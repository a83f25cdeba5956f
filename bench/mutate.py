"""Mutation testing: plant one small bug at a time, see if a test fails.

    nice -n 15 python bench/mutate.py                    # MODULES, 40 mutants each, seed 16
    nice -n 15 python bench/mutate.py odds/money/session.py --sample 0   # every mutant
    nice -n 15 python bench/mutate.py --list odds/sim/stats.py  # the mutants and their tests
    nice -n 15 python bench/mutate.py --map-only         # build the coverage map, nothing else

Each mutant is one AST edit of one module: an arithmetic operator swapped
(``+``/``-``, ``*``/``//``, ``%``/``//``...), a comparison flipped (``<``/``<=``,
``==``/``!=``, ``in``/``not in``, ``is``/``is not``), ``and``/``or`` swapped, a
``not`` or unary minus dropped, an integer constant plus one, a boolean flipped,
a string constant changed, or a statement replaced by ``pass``.  Not mutated:
docstrings, annotations, ``assert`` statements (internal invariants that
cannot fail on correct code), ``__all__``, f-string text and the message of a
``raise`` (wording, checked by the CLI tests, not logic).

Which tests run: every test that executes the mutated statement, read from
a coverage map (one run of the whole suite under coverage.py, a context per
test, subprocesses included; cached in ``.mutate-cache/`` keyed on the code
and refreshed for changed test files; see :func:`coverage_map`).  A mutant
at module level (data, defaults, decorators: run at import) gets every test
that executes the module.  The tests run fastest first, ``-x``, in a forked
child of a parent that has numpy, sympy and mpmath imported, with a timeout
of three times their measured time plus a minute.  A mutant is *caught* if
a test fails, errors or times out (a timeout is counted as caught, and
reported as such); a kill counts only if the test that failed passes on the
unmutated code.  One worker, one mutant at a time: the machine is shared.

The mutant is written into a private copy of the checkout (the working
tree is never touched).  The sample is drawn with a fixed seed from the
module's mutants, so a run after new tests replays the same mutants.
Mutants shown to be harmless (equivalent to the original) are listed in
:data:`HARMLESS` with the reason; they are reported but left out of the
score.  Needs coverage.py (``pip install coverage``: a bench tool, not a
test dependency).  Not part of CI: a run takes hours on a loaded machine.
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

# The modules measured by default (docs/mutation.md): the rules' decisions, the
# exact engine and the bet engines, the bank's money, the study's kernel, the
# verifier; where a module was cut by job, each part is here.
MODULES = [
    "odds/rules/draw.py",
    "odds/rules/settle.py",
    "odds/rules/bets.py",
    "odds/rules/bet_types.py",
    "odds/rules/bet_files.py",
    "odds/exact/engine.py",
    "odds/exact/events.py",
    "odds/exact/bets.py",
    "odds/exact/hands.py",
    "odds/exact/batch.py",
    "odds/exact/sequences.py",
    "odds/exact/products.py",
    "odds/exact/weights.py",
    "odds/exact/deal.py",
    "odds/money/bank.py",
    "odds/money/caps.py",
    "odds/money/session.py",
    "odds/money/ruin.py",
    "odds/money/sampling.py",
    "odds/money/target.py",
    "odds/money/counting/kernel.py",
    "odds/money/counting/summary.py",
    "odds/money/counting/study.py",
    "odds/sim/stats.py",
    "odds/sim/expect.py",
    "odds/sim/audit.py",
    "odds/sim/shoe_check.py",
    "odds/sim/verdict.py",
    "odds/sim/log_judge.py",
    "odds/sim/verify.py",
]
DEFAULT_SAMPLE = 40
SEED = 16

# Mutants shown to be harmless: "module:line:col:what" -> why it cannot change behaviour.
HARMLESS: dict[str, str] = {
    "odds/money/target.py:74:25:0 -> 1":
        "capital_for_target's search range with the worst loss taken as at least 1: the range "
        "only grows, every capital in it has the same ruin, and the first capital that meets "
        "the target is the same (at the top of either range the ruin is 0)",
    "odds/money/target.py:145:14:0 -> 1":
        "capital_interval's search range with the worst loss taken as at least 1: the range only "
        "grows by capitals whose ruin is 0, as the top's is, so the searches find the same ends",
    "odds/money/target.py:79:62:True -> False":
        "capital_for_target pairs capitals with their ruin: ruin_by_capital returns one ruin "
        "per capital, so zip stops at the same place strict or not",
    "odds/money/target.py:210:16:2 -> 3":
        "_first's bound on its steps, 3 log2 instead of 2 log2 (+4): its gallop and bisection "
        "take at most 2 log2(top) + 2 steps for any predicate (tests/money/test_capital_target.py "
        "counts them), so only a broken search reaches either bound, and both stop it",
    "odds/money/target.py:176:11:0 -> 1":
        "_starts at the point 0 starting from the point itself: the searches find the same "
        "ends from any start",
    "odds/money/target.py:222:26:1 -> 2":
        "_first's upward gallop taking a first step of 2 instead of 1: it still stops with a "
        "capital where the predicate is false below one where it is true (or top), and the "
        "bisection between them finds the same first capital",
    "odds/money/target.py:229:43:2 -> 3":
        "_first's downward gallop tripling its step instead of doubling it: it still stops at "
        "a capital where the predicate is false (or -1) with one where it is true above, and "
        "the bisection between them finds the same first capital (in a bounded number of "
        "steps: fewer gallop steps, at most one more bisection step a tripling)",
    "odds/rules/draw.py:42:0:delete expr":
        "STOOD's attribute docstring, a bare string statement: deleting it changes nothing "
        "that runs (its only reader is a person)",
    "odds/rules/draw.py:42:0:'The index that stand' -> 'XX...XX'":
        "STOOD's attribute docstring, a bare string statement: its text is read by no code",
    "odds/sim/audit.py:96:30:10 -> 11":
        "the player's free-choice table gets an 11th column (the bank's value) that no "
        "index (0-9) reaches",
    "odds/sim/audit.py:97:26:10 -> 11":
        "the bank's free-choice table gets an 11th own-value row that no index (0-9) reaches",
    "odds/sim/shoe_check.py:114:8:delete if":
        "check_shoe skipping a hand whose sizes are None: every reader of a log (parse_log, "
        "for CSV and JSON Lines alike) records both hands' sizes, so None never reaches it",
    "odds/sim/stats.py:132:19:- -> +":
        "binomial_p's span of terms summed with |count + mean| for |count - mean|: only longer; "
        "the terms added lie past 40 standard deviations beyond the count, below 1e-300 of the "
        "first, so the float sum is the same",
    "odds/sim/stats.py:132:58:1 -> 2":
        "binomial_p's span of terms summed with sqrt(mean (2 - q)) for sqrt(mean (1 - q)): "
        "only longer; the terms added lie past 40 standard deviations, below 1e-300 of the "
        "first, so the float sum is the same",
    "odds/sim/stats.py:60:43:1 -> 2":
        "p_text's mpmath.nstr with min_fixed=2 instead of 1: with max_fixed=0 no exponent is in "
        "[min_fixed, max_fixed), so a p-value below 0.001 prints in scientific notation either way",
    "odds/sim/verdict.py:91:32:>= -> > (#1)":
        "Verification.causes at p = alpha exactly: likely_causes rejects a test at alpha over "
        "the number of tests, and the smallest test's p is then exactly that, so it names no "
        "cause either way (tests/sim/test_verify_survivors.py checks none is named there)",
    "odds/sim/verdict.py:367:39:10 -> 11":
        "values_note comparing the Colon class of 10-10 with that of 10-Q instead of 10-J: two "
        "zero-point cards of different ranks, a Colon under the same rules (colon_match value) "
        "or not alike, so the note is the same",
    "odds/sim/verdict.py:46:13:20 -> 21":
        "the bytes of a round log read at a time, 2 MiB instead of 1 MiB: any block size gives "
        "the same report (tests/sim/test_verify_stream.py reads logs in blocks of many sizes); "
        "only the memory and the speed differ",
    "odds/sim/stats.py:35:18:True -> False":
        "Check(frozen=False): nothing assigns to a Check, so mutability is never used",
    "odds/exact/results.py:110:38:False -> True":
        "bank_draw_count shown in repr(RoundOdds): repr is not part of any result",
    "odds/exact/engine.py:570:26:10 -> 11":
        "the stage's player-final vector gets an 11th slot that round_odds never reads "
        "(it sums values 0-9)",
    "odds/money/ruin.py:265:16:delete assign":
        "ruin_by_capital's float chain, ext = ext[lo:] only when every net is a gain (lo > 0): "
        "then no ruin cell is prepended and the vector stays all zeros, so the slice only "
        "drops zeros",
    "odds/money/counting/summary.py:144:16:0 -> 1":
        "CountStudy(burn=0 -> 1): its one constructor, summarise, always passes the plan's "
        "burn, so the default is never used",
    "odds/money/counting/summary.py:401:8:delete return":
        "_corr_from_sums with n < 2: n is the rounds dealt, at least 1; with one round both "
        "variances are x*x - x**2 = 0 exactly and the next test returns None just the same",
    "odds/sim/stats.py:132:50:* -> //":
        "binomial_p's span with the variance mean * (1 - q) made mean // (1 - q), which is "
        "at least as large: the tail is summed over more terms, and those past 40 standard "
        "deviations are below exp(-800) of the first, so the p-value is the same to a unit in "
        "the last place (measured: at most 2.4e-16 relative over six tails, n = 10 to 10^6)",
    "odds/sim/stats.py:570:67:True -> False":
        "strategy_report's zip of OUTCOMES, the observed counts and the probabilities: three "
        "lists of three made on the lines above it, so zip stops at the same place strict or not",
    "odds/money/bank.py:410:8:+= -> -=":
        "the infinite shoe's bank states weighted -w instead of w: every weight negated, and "
        "settle_states divides the counts by the states' total weight, so the distributions "
        "are the same",
    "odds/money/target.py:210:39:4 -> 5":
        "_first's bound on its steps, 2 log2 + 5 instead of + 4: its gallop and bisection take "
        "at most 2 log2(top) + 2 steps for any predicate (tests/money/test_capital_target.py "
        "counts them); the bound as a parameter is tested at the step it stops on",
    "odds/money/counting/kernel.py:275:54:0 -> 1":
        "_outcomes' points of a card slot past the round's end, 1 instead of 0: a third card's "
        "points are read only where that side drew (np.where on the draw tables), so a missing "
        "slot's points are never read",
    "odds/money/bank.py:191:11:or -> and":
        "BankRound.interval's test 'exact and no samples' for 'exact or no samples': bank_round "
        "makes every exact round without samples and every sampled one with them, so the two "
        "tests agree on every BankRound it returns",
    "odds/money/bank.py:284:19:1 -> 2":
        "the heads-up table's one bank state weighted 2 instead of 1: settle_states multiplies "
        "its counts by the weight and divides by the states' total weight, so one state of any "
        "weight gives the same distributions",
    "odds/sim/stats.py:357:18:True -> False":
        "RoundModel(frozen=False): nothing assigns to a RoundModel's fields (plus() and "
        "replace() make new ones), and none is hashed (its dict fields could not be)",
    "odds/sim/verdict.py:46:8:1 -> 2":
        "BLOCK (bytes read at a time) doubled: the report does not depend on the block size "
        "(test_verify_stream checks that any block size gives the same report)",
    "odds/sim/verdict.py:65:49:0 -> 1":
        "Verification.exact_total's default: no code reads the field",
    "odds/exact/engine.py:524:15:3000 -> 3001":
        "_MEMO_STAGES, the stages a memo keeps before it starts afresh: a cache's size, so "
        "every result is the same (the memory test bounds the stages with slack)",
    "odds/exact/engine.py:525:14:2 -> 3":
        "_MEMO_RULES, the rule sets whose memos are kept: a cache's size, so every result "
        "is the same",
    "odds/sim/expect.py:43:18:True -> False":
        "RoundProbabilities(frozen=False): nothing assigns to its fields (it is built once, in "
        "round_probabilities, and read), and none is hashed (its arrays could not be)",
    "odds/sim/expect.py:179:7:and -> or":
        "_quantities' test of both Colon-nine vectors: round_probabilities always sets both "
        "(columns of the player's and the bank's Colon tables), never one alone",
    "odds/sim/expect.py:223:4:delete return":
        "the last line of countable_side_bet, return None: a function that falls off its end "
        "returns None",
    "odds/sim/expect.py:314:18:True -> False":
        "ShoeSample(frozen=False): nothing assigns to its fields (sample_shoes builds it, "
        "shoes_model reads it), and none is hashed (its arrays could not be)",
    "odds/sim/expect.py:344:34:+ -> -":
        "sample_shoes' first line number for parse_log of the log our own simulator just "
        "wrote: it appears only in the message of a malformed line or a rule break, and the "
        "simulator writes neither (the audit of its logs is tested to find nothing)",
    "odds/exact/sequences.py:208:7:32768 -> 32769":
        "BAND, the sequences a band of the table's build holds: the build sums the same "
        "sequences whatever the band (a memory bound only)",
    "odds/exact/products.py:143:15:2 -> 3":
        "ORDERED_HELD, the reordered matrices a cache keeps: a cache's size, every result the "
        "same",
    "odds/money/counting/study.py:113:4:delete expr":
        "plan.bets.table() in count_study: study_plan has just built and cached the same table "
        "(through removal()), so the call only reads the cache (a counting wrapper on the "
        "table's build saw no build)",
    "odds/money/caps.py:174:11:<= -> < (#1)":
        "a seat claiming 0 under a round cap: pro rata pays 0 * cap / claims and seat order "
        "min(0, left) = 0 either way; only a negative round cap told them apart, and Session "
        "refuses one when it is made",
    "odds/money/caps.py:262:54:1 -> 2":
        "one more entry in the suffix table of bonus caps: reads take min(u2, limit) or a u2 of "
        "at most i + 1 <= limit, so the extra entry is never read",
    "odds/money/caps.py:279:19:<= -> < (#1)":
        "a seat whose due is 0 goes to the same state either way (got - 0 == got, claims + 0 "
        "== claims)",
    "odds/money/caps.py:299:48:<= -> < (#1)":
        "a seat's claim equal to the cap: Fraction(due * cap, total) with total == cap is "
        "Fraction(due), the same as the branch not taken",
    "odds/money/chain.py:32:10:1 -> 2":
        "lattice's common denominator started at 2: the scale is den / gcd(v * den), that is "
        "1 / (the gcd of the nets as fractions), whatever common multiple den is",
    "odds/money/sampling.py:323:40:+ -> -":
        "_tilt's fallback step when the tilted variance is 0 (all the weight on one net, "
        "reached only by underflow at an extreme t): any point tried is kept only inside the "
        "bracket, which the sign of the mean still halves, so the same t is found",
    "odds/money/session.py:404:39:>= -> > (#1)":
        "net_bounds under a round cap X: the bank's net -X left out of the uncapped sums is "
        "in the capped ones all the same (losses always hold 0, a push, so -X is among "
        "losses - X): the same set of nets",
    "odds/money/session.py:412:23:1 -> 2":
        "net_bounds' step when too many nets to list: the gcd of the seats' dues, which hold "
        "minus each stake (a loss, never 0), so the step is never 0 and `or` is never taken",
    "odds/rules/draw.py:159:34:0 -> 1":
        "hand_draws reading the player's cell against a bank of 1 instead of 0: it has just "
        "refused naturals that stop every draw, so a player's cell depends on its own value "
        "alone (the same row whatever the bank's value)",
    "odds/rules/draw.py:160:29:0 -> 1":
        "hand_draws reading the bank's cell where the player's two cards are worth 1 instead "
        "of 0: naturals that stop every draw refused, the bank's cell where the player stood "
        "depends on the bank's own value alone",
    "odds/rules/draw.py:188:19:64 -> 65":
        "the draw tables' lru_cache keeping 65 rule sets instead of 64: the same tables",
    "odds/rules/draw.py:163:18:True -> False":
        "DrawTable(frozen=False): nothing assigns to its fields (_table builds it once per rule "
        "set, every caller reads it), and none is hashed (nor used as a key)",
    "odds/rules/settle.py:144:35:1 -> 2":
        "the bank's stand-in -1 for 'no natural' made -2 under outright naturals: the branch "
        "runs only when a hand holds a natural, so with none the bank faces the player's "
        "natural (0-9), above -1 and -2 alike, and the stand-in is never compared otherwise",
    "odds/exact/engine.py:589:42:- -> +":
        "_Stage.of with the bank's third card known: falling(n + took, unused) for "
        "falling(n - took, unused). took (the player drew from the shoe) needs x, and unused "
        "needs x to be None, so one of them is 0: falling(n, 0) or falling(n, unused) alike",
    "odds/exact/weights.py:62:0:delete if":
        "the `if TYPE_CHECKING:` import of numpy for annotations (postponed by "
        "`from __future__ import annotations`, never evaluated); every function that uses "
        "numpy imports it itself",
    "odds/exact/deal.py:231:64:< -> <= (#1)":
        "_table_lengths refusing seats <= 1 instead of < 1: its one caller, round_lengths, "
        "sends it every seats but 1 (1 deals heads-up), so the same numbers are refused",
    "odds/exact/deal.py:231:72:1 -> 2":
        "_table_lengths refusing seats < 2 instead of < 1: its one caller, round_lengths, "
        "sends it every seats but 1 (1 deals heads-up), and below 2 that leaves what is "
        "below 1",
    "odds/exact/events.py:464:56:11 -> 12":
        "_round_joint's 11 x 11 table of third cards with rows one wider: nothing writes "
        "column 11 (third cards 0-9 and 10, stood), and the joint is read off it skipping "
        "zero counts",
    "odds/exact/events.py:476:16:delete if":
        "_round_joint skipping a player third card of weight 0: without the skip it adds "
        "0 * vc[y] to the row, and the joint is read off it skipping zero counts",
    "odds/rules/cards.py:136:7:> -> >= (#1)":
        "a one-character token that is a suit letter is no rank either way: "
        "the same error, word for word",
    "odds/rules/bet_types.py:212:0:delete assign":
        "the _Test alias of the compiled tests' type: it appears only in annotations, "
        "postponed by `from __future__ import annotations` and never evaluated",
    "odds/exact/bets.py:147:50:2 -> 3":
        "the stand-in round of a bet that looks at pairs only (third cards -2: no entry's "
        "condition looks past the first two cards, or uses_round would hold), with 3 "
        "player cards instead of 2: no condition of such a bet reads player_cards",
    "odds/exact/products.py:261:75:'i' -> 'XX...XX'":
        "check_compositions' fast path for a table of signed machine integers: without it "
        "the table takes the object path, which checks each count (whole, below 2**63: "
        "always so in int64) and converts it to the same int64 table",
    "odds/money/counting/study.py:35:20:64 -> 65":
        "CHECKPOINT_CHUNKS, the chunks folded between two writes of the checkpoint: every "
        "chunk is saved the moment it finishes and the fold is written again when the study "
        "ends or stops, so the figures, and a resumed study's, are the same",
    "odds/money/counting/kernel.py:275:49:0 -> 1":
        "_outcomes reading an undealt slot (-1) as rank index 1 instead of 0 to keep the "
        "index in range: the outer np.where puts 0 points there whatever was read",
    "odds/sim/log_judge.py:234:8:delete raise":
        "verify_log's 'the round log has no rows' after parse([], number): parsing no rows "
        "raises first (NoRows, the same sentence, or the missing column it names), so the "
        "raise is never reached",
    "odds/money/counting/study.py:218:8:delete return":
        "_Fold._take's last statement, return None: without it the function falls off its "
        "end and returns None all the same",
    "odds/money/session.py:414:57:0 -> 1":
        "net_bounds' top as max(hi, 1) // step for max(hi, 0) // step: every stake is "
        "positive and every seat can lose it, so the bank's best net hi is at least one "
        "lattice unit and max(hi, 0) = max(hi, 1) = hi",
    "odds/sim/verify.py:117:51:1 -> 2":
        "verify_text's max(seat, default=1) over the tallies: read_tallies refuses a file "
        "without tallies ('no tallies found', 'a non-empty tallies list'), so the default "
        "is never used",
    "odds/sim/verify.py:182:8:delete expr":
        "verify_file's blocks.close() before reading the file whole: the generator is "
        "finalized (its file closed) as the function returns anyway, and the file may be "
        "read a second time while it is open",
    "odds/money/target.py:23:18:True -> False":
        "CapitalTarget(frozen=False): nothing assigns to its fields (capital_for_target "
        "builds it, _capital_target copies it with dataclasses.replace), and none is hashed",
}


@dataclass(frozen=True)
class Mutant:
    index: int
    line: int
    col: int
    what: str
    # The lines of the statement that holds the mutant (a compound statement's
    # header only), as coverage.py records them, and whether that statement
    # runs inside a function (else it runs once, when the module is imported).
    first: int = 0
    last: int = 0
    in_function: bool = False

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
        self.statements: list[tuple[int, int]] = [(0, 0)]
        self.functions = 0

    def _offer(self, node: ast.AST, what: str) -> bool:
        index = len(self.found)
        first, last = self.statements[-1]
        self.found.append(Mutant(index, getattr(node, "lineno", 0),
                                 getattr(node, "col_offset", 0), what,
                                 first, last, self.functions > 0))
        return index == self.target

    @staticmethod
    def _lines(stmt: ast.stmt) -> tuple[int, int]:
        """A statement's lines; a compound statement's header only (not its body)."""
        last = stmt.end_lineno or stmt.lineno
        for field in ("body", "handlers", "orelse", "finalbody", "cases"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and inner and hasattr(inner[0], "lineno"):
                last = min(last, inner[0].lineno - 1)
        return stmt.lineno, max(stmt.lineno, last)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        # Decorators and defaults run when the module is imported; the body when called.
        # (The order of ast.iter_fields, as generic_visit had it: mutant numbers stay.)
        node.args = self.visit(node.args)  # type: ignore[assignment]
        self.functions += 1
        node.body = self._body(node.body)
        self.functions -= 1
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        return node

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        node.args = self.visit(node.args)  # type: ignore[assignment]
        self.functions += 1
        node.body = self.visit(node.body)  # type: ignore[assignment]
        self.functions -= 1
        return node

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
            self.statements.append(self._lines(stmt))
            try:
                if isinstance(stmt, _DELETABLE) and self._offer(
                        stmt, f"delete {type(stmt).__name__.lower()}"):
                    out.append(ast.copy_location(ast.Pass(), stmt))
                    continue
                new = self.visit(stmt)
            finally:
                self.statements.pop()
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


# -- the coverage map: which tests execute which lines --------------------------
#
# One run of the whole suite under coverage.py, each test in a context of its
# own (its pytest node id, switched by the plugin hooks below; a subprocess a
# test starts, a CLI run of the docs' transcripts say, is measured too, in the
# same test's context).  The map is cached in CACHE, keyed on the code under
# test (a hash of odds/, cli.py, conftest.py and pyproject.toml) and named with
# the commit it was built on; a test file added or changed since is measured
# again on its own and merged in (the code's lines have not moved).

CACHE = ROOT / ".mutate-cache"
_CODE = ("odds", "cli.py", "conftest.py", "pyproject.toml")
_RC = """[run]
source_pkgs = odds
data_file = {data}
parallel = true
patch = subprocess
"""


def _digest(paths: list[Path]) -> str:
    import hashlib

    h = hashlib.sha256()
    for path in sorted(paths):
        h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def _code_files() -> list[Path]:
    out: list[Path] = []
    for name in _CODE:
        path = ROOT / name
        out += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return out


def _test_files() -> dict[str, str]:
    """Every file the suite collects tests from, with a hash of its text."""
    files = [*sorted((ROOT / "tests").rglob("test_*.py")), *sorted((ROOT / "docs").glob("*.md")),
             ROOT / "README.md", *sorted((ROOT / "odds").rglob("*.py"))]  # (their doctests)
    return {str(f.relative_to(ROOT)): _digest([f]) for f in files}


def _commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT,
                          capture_output=True, text=True)
    return done.stdout.strip() or "no-commit"


# The plugin hooks: ``-p mutate`` loads this module into the measured pytest run.
_PLUGIN: dict[str, object] = {"tests": {}, "failed": [], "start": 0.0}


def pytest_runtest_logstart(nodeid: str, location: object) -> None:
    """Measure the test about to run in a coverage context of its own (and its subprocesses)."""
    import base64

    import coverage

    cov = coverage.Coverage.current()
    if cov is not None:
        cov.switch_context(nodeid)
        encoded = os.environ.get("COVERAGE_PROCESS_CONFIG")
        if encoded:
            config = json.loads(base64.b64decode(encoded))
            config["context"] = nodeid
            os.environ["COVERAGE_PROCESS_CONFIG"] = base64.b64encode(
                json.dumps(config).encode()).decode()
    _PLUGIN["start"] = time.perf_counter()


def pytest_runtest_logreport(report: object) -> None:
    """Note a test that fails on the unmutated code: it is never selected."""
    if getattr(report, "failed", False):
        failed = _PLUGIN["failed"]
        assert isinstance(failed, list)
        failed.append(getattr(report, "nodeid", ""))


def pytest_runtest_logfinish(nodeid: str, location: object) -> None:
    """Note the test's time (it orders a mutant's tests, fastest first)."""
    tests = _PLUGIN["tests"]
    assert isinstance(tests, dict) and isinstance(_PLUGIN["start"], float)
    tests[nodeid] = round(time.perf_counter() - _PLUGIN["start"], 3)


def pytest_sessionfinish(session: object, exitstatus: object) -> None:
    """Write the tests' times and failures where ``_measure`` reads them."""
    out = os.environ.get("LUCKY9_MUTATE_TESTS")
    if out:
        Path(out).write_text(json.dumps({"tests": _PLUGIN["tests"], "failed": _PLUGIN["failed"]}),
                             encoding="utf-8")


def _measure(files: list[str], folder: Path) -> dict[str, object]:
    """Run these test files (all: the suite) under coverage.py; the map of what ran where."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    rc = folder / "coveragerc"
    rc.write_text(_RC.format(data=folder / ".coverage"), encoding="utf-8")
    times = folder / "tests.json"
    env = {**os.environ, "LUCKY9_MUTATE_TESTS": str(times),
           "PYTHONPATH": os.pathsep.join([str(ROOT / "bench"), os.environ.get("PYTHONPATH", "")])}
    env.pop("COVERAGE_PROCESS_CONFIG", None)
    command = ["nice", "-n", "15", sys.executable, "-m", "coverage", "run", f"--rcfile={rc}",
               "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "-p", "mutate",
               "--no-header", *files]
    what = ("the whole suite" if not files else ", ".join(files) if len(files) <= 5
            else f"{len(files)} test files and tests")
    print(f"measuring {what} under coverage "
          f"(nice -n 15, one process) ...", file=sys.stderr, flush=True)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, check=False)
    if done.returncode not in (0, 1) or not times.exists():  # 1: some tests failed
        raise SystemExit(f"the measurement did not run (pytest exit {done.returncode}): "
                         "the map is left as it was")
    out = _collect(folder)
    print(f"measured {len(out['tests'])} tests in {time.perf_counter() - start:.0f} s "  # type: ignore[arg-type]
          f"({len(out['failed'])} failing, never selected)", file=sys.stderr, flush=True)  # type: ignore[arg-type]
    shutil.rmtree(folder)
    return out


def _measure_split(files: list[str], jobs: int) -> dict[str, object]:
    """``_measure`` in ``jobs`` processes side by side, each on a share of the files; merged.

    One process (``jobs`` 1) measures the files as one run.  With more, the
    files are dealt out largest first to the share with the least so far (a
    test file's size stands in for its time), each share measured on its own
    and the maps merged: a test's context is its node id whichever process ran
    it, so the merged map is the one a single run would give.
    """
    if jobs <= 1 or len(files) < 2:
        return _measure(files, CACHE / "whole")
    def size(f: str) -> int:
        path = ROOT / f.split("::")[0]
        return path.stat().st_size if path.exists() else 0

    shares: list[list[str]] = [[] for _ in range(jobs)]
    sizes = [0] * jobs
    for f in sorted(files, key=lambda f: (-size(f), f)):
        k = sizes.index(min(sizes))
        shares[k].append(f)
        sizes[k] += size(f)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(jobs) as pool:
        parts = list(pool.map(lambda kv: _measure(kv[1], CACHE / f"whole-{kv[0]}"),
                              enumerate(s for s in shares if s)))
    out: dict[str, object] = {"tests": {}, "failed": [], "lines": {}}
    for part in parts:
        _merge(out, part, lambda t: False)
    return out


def _collect(folder: Path) -> dict[str, object]:
    """The map from a measurement's data files (and its tests' times) in ``folder``."""
    import coverage

    ran = json.loads((folder / "tests.json").read_text(encoding="utf-8"))
    cov = coverage.Coverage(config_file=str(folder / "coveragerc"))
    cov.combine(strict=True)
    data = cov.get_data()
    lines: dict[str, dict[str, list[str]]] = {}
    for measured in data.measured_files():
        try:
            rel = str(Path(measured).resolve().relative_to(ROOT))
        except ValueError:
            continue  # a copy elsewhere (a test's temporary checkout)
        by_line = data.contexts_by_lineno(measured)
        into = lines.setdefault(rel, {})
        for line, contexts in by_line.items():
            into[str(line)] = sorted(set(into.get(str(line), [])) | set(contexts))
    return {"tests": ran["tests"], "failed": ran["failed"], "lines": lines}


def _module_hashes() -> dict[str, str]:
    """Each code file's layout: where its statements start and end.

    An edit that leaves every statement on the same lines (a condition or a
    constant changed in place) keeps the module's map: the same lines, run by
    the same tests as far as a line-level map can tell.  ``--rebuild-map``
    measures everything again when that is not enough.
    """
    import hashlib

    out = {}
    for f in _code_files():
        text = f.read_text(encoding="utf-8")
        if f.suffix != ".py":
            out[str(f.relative_to(ROOT))] = _digest([f])
            continue
        spans = sorted((n.lineno, n.end_lineno or n.lineno) for n in ast.walk(ast.parse(text))
                       if isinstance(n, ast.stmt))
        out[str(f.relative_to(ROOT))] = hashlib.sha256(repr(spans).encode()).hexdigest()[:16]
    return out


def coverage_map(rebuild: bool = False, only: list[str] | None = None,
                 jobs: int = 1, for_modules: list[str] | None = None) -> dict[str, object]:
    """The cached map of the code as it is now: built, or brought up to date.

    A map is measured once for the whole suite.  After a change, only what
    changed is measured again: a test file added or edited (its tests), or a
    module of ``odds`` edited (every test that executed it before); the rest
    of the map stands (a change to cli.py, conftest.py or pyproject.toml, or
    ``rebuild``, measures everything again).  A test that executed an edited
    module is measured again with its whole file (its node id may have gone:
    a parameter's id names a line of a page, say).

    ``for_modules``: only these edited modules' tests are measured again; the
    other edited modules drop out of the map (their mutants are then not
    executed), and the map is not cached, being partial.
    """
    key = _digest(_code_files())
    CACHE.mkdir(exist_ok=True)
    found = sorted(CACHE.glob("covmap-*.json"), key=lambda f: f.stat().st_mtime)
    files, modules = _test_files(), _module_hashes()
    if only is not None:  # a folder named stands for the files under it
        only = [f for f in files if any(f == o.rstrip("/") or f.startswith(o.rstrip("/") + "/")
                                        for o in only)]
    cmap: dict[str, object] | None = None
    if found and not rebuild:
        cmap = json.loads(found[-1].read_text(encoding="utf-8"))
        assert isinstance(cmap, dict)
        if "modules" not in cmap and cmap["code"] == key:
            cmap["modules"] = modules  # a map from before per-module layouts, of this code
        old = cmap.get("modules", {})
        assert isinstance(old, dict)
        edited = sorted(m for m in set(old) | set(modules) if old.get(m) != modules.get(m))
        if any(not m.startswith("odds/") for m in edited) or "modules" not in cmap:
            cmap = None
    if cmap is None:
        if only is not None:  # no map yet: measure the files named only (a partial map)
            files = {f: h for f, h in files.items() if f in only}
        whole = _measure_split(list(files), jobs)
        cmap = {"commit": _commit(), "code": key, "files": files, "modules": modules, **whole}
    else:
        assert isinstance(cmap["files"], dict) and isinstance(cmap["lines"], dict)
        changed = sorted(f for f, h in files.items() if cmap["files"].get(f) != h)
        if only is not None:  # measure these now; the rest stays out of the map
            files = {f: (h if f in only else cmap["files"][f]) for f, h in files.items()
                     if f in only or f in cmap["files"]}
            changed = [f for f in changed if f in only]
        gone = [f for f in cmap["files"] if f not in files and not (ROOT / f).exists()]
        lines = cmap["lines"]
        stale = {t.split("::")[0] for m in edited if for_modules is None or m in for_modules
                 for ts in lines.get(m, {}).values() for t in ts if t}
        stale -= set(changed + gone)
        for m in edited:
            lines.pop(m, None)
        if not (changed or gone or edited):
            return cmap
        again = changed + sorted(stale)
        part = (_measure_split(again, jobs) if again
                else {"tests": {}, "failed": [], "lines": {}})
        _merge(cmap, part, lambda t: t.split("::")[0] in set(changed + gone) | stale)
        cmap.update(commit=_commit(), code=key, files=files, modules=modules)
        if for_modules is not None:
            return cmap  # partial: not cached
        for old_map in found:
            old_map.unlink()
    _write_json(CACHE / f"covmap-{_commit()}-{key}.json", cmap)
    return cmap


def _merge(cmap: dict[str, object], part: dict[str, object],
           replaced: Callable[[str], bool]) -> None:
    """Replace the map's entries of the ``replaced`` tests by a new measurement of them."""
    tests, failed, lines = cmap["tests"], cmap["failed"], cmap["lines"]
    assert isinstance(tests, dict) and isinstance(failed, list) and isinstance(lines, dict)
    for nodeid in [t for t in tests if replaced(t)]:
        del tests[nodeid]
    tests.update(part["tests"])  # type: ignore[arg-type]
    cmap["failed"] = [t for t in failed if not replaced(t)] + list(part["failed"])  # type: ignore[call-overload]
    for by_line in lines.values():
        for line in by_line:
            by_line[line] = [t for t in by_line[line] if not replaced(t)]
    for module, by_line in part["lines"].items():  # type: ignore[attr-defined]
        into = lines.setdefault(module, {})
        for line, contexts in by_line.items():
            into[line] = sorted(set(into.get(line, [])) | {c for c in contexts if c})


def _write_json(path: Path, data: object) -> None:
    """Write whole or not at all (a temporary file, then a rename)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, path)


# Test files that start a local Dask cluster: its worker processes hang in the forked
# child a mutant runs in (the baseline run timed out there), so they are left out of every
# selection; each computes what an in-process test of the same figure computes (the
# cluster's report is byte for byte the one process's, tested in CI).
FORK_UNSAFE = ("tests/money/test_cluster.py", "tests/money/test_cluster_reach.py",
               "tests/money/test_study_grid.py", "tests/money/test_study_grow.py",
               "tests/sim/test_verify_parallel.py")


def select(cmap: dict[str, object], module: str, m: Mutant) -> tuple[list[str], str]:
    """The tests that execute the mutant's statement, fastest first, and how they were chosen.

    A statement that runs inside a function: the tests whose context covers
    one of its lines.  One that runs when the module is imported (module-level
    data, a default, a decorator): every test that executes any line of the
    module, since an import is shared by every test after it.
    """
    tests, failed, lines = cmap["tests"], set(cmap["failed"]), cmap["lines"]  # type: ignore[call-overload]
    assert isinstance(tests, dict) and isinstance(lines, dict)
    by_line: dict[str, list[str]] = lines.get(module, {})
    if m.in_function:
        chosen = {t for line in range(m.first, m.last + 1) for t in by_line.get(str(line), [])}
        how = "tests that execute its lines"
    else:
        chosen = {t for ts in by_line.values() for t in ts}
        how = "runs at import: every test that executes the module"
    chosen = {t for t in chosen if t and t in tests and t not in failed
              and not t.startswith(FORK_UNSAFE)}
    if m.in_function:
        return sorted(chosen, key=lambda t: (tests[t], t)), how
    # At import: the tests that execute most of the module first (they are the likeliest
    # to see its data), then the fastest; the same tests either way.
    reach: dict[str, int] = {}
    for ts in by_line.values():
        for t in ts:
            reach[t] = reach.get(t, 0) + 1
    return sorted(chosen, key=lambda t: (-reach.get(t, 0) // 10, tests[t], t)), how


def _copy_tree(dest: Path) -> None:
    def ignore(_: str, names: list[str]) -> set[str]:
        return {n for n in names if n in {".git", "__pycache__", ".mypy_cache", ".ruff_cache",
                                           ".pytest_cache", ".hypothesis", ".venv", "mutants"}}
    shutil.copytree(ROOT, dest, ignore=ignore)


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


class _Recorder:
    """A plugin for the forked child: notes the test running and the first that fails."""

    def __init__(self, out: Path) -> None:
        self.out = out

    def pytest_runtest_logstart(self, nodeid: str, location: object) -> None:
        self.out.write_text(json.dumps({"running": nodeid}), encoding="utf-8")

    def pytest_runtest_logreport(self, report: object) -> None:
        if getattr(report, "failed", False):
            self.out.write_text(json.dumps({"failed": getattr(report, "nodeid", "")}),
                                encoding="utf-8")

    def pytest_collectreport(self, report: object) -> None:
        if getattr(report, "failed", False):
            self.out.write_text(json.dumps({"failed": "collecting "
                                            + str(getattr(report, "nodeid", ""))}),
                                encoding="utf-8")


def _suite_order(tests: list[str]) -> list[str]:
    """The tests in the suite's own collection order of folders (pyproject's testpaths:
    tests, then the library's doctests, then docs), each folder's in the order given.

    A doctest collected before any test file imported its package loads the module a
    second time under ``--import-mode=importlib`` (the package's ``__init__`` imported it
    once): two copies, and a test that patches one while the code calls the other fails.
    Tests first, as in the suite, and the doctests find the module already imported.
    """
    roots = ("tests/", "odds/", "docs/", "README")
    return sorted(tests, key=lambda t: next((i for i, r in enumerate(roots) if t.startswith(r)),
                                            len(roots)))


def _run(work: Path, tests: list[str], timeout: float) -> tuple[str, float, str]:
    """Run these tests in a forked child (``-x``), with a timeout: (status, seconds, test).

    ``test`` is the first test that failed, or the one running at the timeout.
    """
    args = ["-q", "-x", "-p", "no:cacheprovider", "--no-header", *_suite_order(tests)]
    note = work.parent / "running.json"
    note.write_text("{}", encoding="utf-8")
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

            code = int(pytest.main(args, plugins=[_Recorder(note)]))
        except BaseException:
            import traceback

            traceback.print_exc(file=sys.__stdout__)
        finally:
            os._exit(code)
    status = ""
    while True:
        done, wait = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.perf_counter() - start > timeout:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            status = "timeout"
            break
        time.sleep(0.05)
    took = time.perf_counter() - start
    seen = json.loads(note.read_text(encoding="utf-8") or "{}")
    if status == "timeout":
        return status, took, str(seen.get("running", ""))
    code = os.waitstatus_to_exitcode(wait)
    if code == 0:
        return "survived", took, ""
    if code in (1, 2):  # tests failed, or the mutant broke the import
        return "killed", took, str(seen.get("failed", seen.get("running", "")))
    if code == 4:  # pytest's usage error: a conftest.py that imports the mutant failed to
        return "killed", took, "a conftest.py failed to import"  # (the original passed them)
    return f"error {code}", took, ""


def _timeout(cmap: dict[str, object], tests: list[str]) -> float:
    """Three times the tests' time under coverage (itself slower than a plain run), plus a minute."""
    times = cmap["tests"]
    assert isinstance(times, dict)
    return 60.0 + 3 * sum(float(times.get(t, 1.0)) for t in tests)


def run_module(work: Path, module: str, size: int, seed: int, log: list[str],
               cmap: dict[str, object],
               save: Callable[[dict[str, object]], None] = lambda entry: None,
               known: dict[str, str] | None = None,
               against: list[str] | None = None) -> dict[str, object]:
    """Run a sample of the module's mutants, each against the tests that execute its lines.

    ``against``: these test files instead, for every mutant (with ``known``, the
    survivors of a run against the tests written for them).

    ``known`` statuses (by key) are reused.
    """
    path = work / module
    original = path.read_text(encoding="utf-8")
    found = mutants(original)
    chosen = sample(found, size, seed)
    picks = {m.key: ((against, "the test files named") if against else select(cmap, module, m))
             for m in chosen}
    # The mutant's source is the AST printed back (comments and layout lost): the
    # printed-back original must pass the tests that come first for each mutant.
    first = sorted({t for tests, _ in picks.values() for t in tests[:3]})
    path.write_text(ast.unparse(ast.parse(original)), encoding="utf-8")
    try:
        status, base, test = _run(work, first, _timeout(cmap, first) + 600)
    finally:
        path.write_text(original, encoding="utf-8")
    if status != "survived":
        raise SystemExit(f"{module}: the tests fail on the unparsed original ({status}: {test})")
    results: list[dict[str, object]] = []
    entry: dict[str, object] = {"module": module, "mutants": len(found), "sampled": len(chosen),
                                "seed": seed, "results": results}
    try:
        for n, m in enumerate(chosen, 1):
            tests, how = picks[m.key]
            test = ""
            if known and m.key in known:
                status, took = known[m.key], 0.0
            elif f"{module}:{m.key}" in HARMLESS:  # read by hand: equivalent, not run
                status, took = "harmless", 0.0
            elif not tests:
                status, took = "not executed", 0.0
            else:
                path.write_text(mutated(original, m.index), encoding="utf-8")
                status, took, test = _run(work, tests, _timeout(cmap, tests))
            results.append({"key": m.key, "line": m.line, "what": m.what, "status": status,
                            "tests": len(tests), "selection": how, "test": test,
                            "seconds": round(took, 1)})
            shown = "timeout (counted as caught)" if status == "timeout" else status
            line = (f"{module} {n}/{len(chosen)} line {m.line}: {m.what}: {shown} "
                    f"({len(tests)} tests, {took:.1f} s){': ' + test if test else ''}")
            log.append(line)
            print(line, file=sys.stderr, flush=True)
            save(entry)
    finally:
        path.write_text(original, encoding="utf-8")
    # A kill counts only if the test that failed passes on the unmutated code.
    killers = sorted({str(r["test"]) for r in results if r["status"] == "killed"
                      and str(r["test"]).startswith(("tests/", "odds/", "docs/", "README"))})
    if killers:
        status, _, test = _run(work, killers, _timeout(cmap, killers) + 600)
        if status != "survived":
            for r in results:
                if r["test"] == test and r["status"] == "killed":
                    r["status"] = "error: its test fails unmutated"
            print(f"{module}: {test} fails on the unmutated code: its kills do not count",
                  file=sys.stderr, flush=True)
    save(entry)
    return entry


_ALIVE = ("survived", "not executed", "harmless")


def _caught(status: object) -> bool:
    """Killed, timed out, or the test process killed by a signal (the mutant blew it up:
    ``error -9`` is the kernel's out-of-memory kill)."""
    return status in ("killed", "timeout") or str(status).startswith("error -")


def score(entry: dict[str, object]) -> tuple[int, int, int, float]:
    """(planted, caught, harmless, score over planted less harmless); a timeout is caught."""
    results = entry["results"]
    assert isinstance(results, list)
    module = entry["module"]
    harmless = sum(1 for r in results if r["status"] in _ALIVE
                   and f"{module}:{r['key']}" in HARMLESS)
    caught = sum(1 for r in results if _caught(r["status"]))
    real = len(results) - harmless
    return len(results), caught, harmless, (caught / real if real else 1.0)


def markdown(entries: list[dict[str, object]]) -> str:
    lines = ["| module | mutants in the module | planted (sample, seed) "
             "| caught (of them timeouts) | harmless | not caught | score |",
             "|---|---|---|---|---|---|---|"]
    for e in entries:
        planted, caught, harmless, s = score(e)
        timeouts = sum(1 for r in e["results"] if r["status"] == "timeout")  # type: ignore[attr-defined]
        lines.append(f"| `{e['module']}` | {e['mutants']:,} | {planted} (seed {e.get('seed', SEED)}) "
                     f"| {caught} ({timeouts}) | {harmless} | {planted - caught - harmless} "
                     f"| {100 * s:.0f}% |")
    survivors = [f"- `{e['module']}` line {r['line']}: {r['what']} ({r['status']})"
                 + (f" (harmless: {HARMLESS[str(e['module']) + ':' + r['key']]})"
                    if f"{e['module']}:{r['key']}" in HARMLESS else "")
                 for e in entries for r in e["results"]  # type: ignore[attr-defined]
                 if not _caught(r["status"])]
    if survivors:
        lines += ["", "Not caught:", "", *survivors]
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


def stale_harmless() -> list[str]:
    """The keys of :data:`HARMLESS` that name no mutant of the code as it is now."""
    keys: dict[str, set[str]] = {}
    for key in HARMLESS:
        module = key.split(":", 1)[0]
        if module not in keys:
            path = ROOT / module
            keys[module] = ({m.key for m in mutants(path.read_text(encoding="utf-8"))}
                            if path.is_file() else set())
    return [key for key in HARMLESS if key.split(":", 1)[1] not in keys[key.split(":", 1)[0]]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("modules", nargs="*", default=MODULES,
                        help="modules to mutate (default: MODULES)")
    parser.add_argument("--sample", type=int, default=DEFAULT_SAMPLE,
                        help=f"mutants per module (0: all; default {DEFAULT_SAMPLE})")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--rebuild-map", action="store_true",
                        help="measure the whole suite under coverage again, cache or not")
    parser.add_argument("--map-tests", nargs="+", metavar="FILE",
                        help="measure only these test files or folders (and doctest modules) "
                             "not yet in the map; the others stay out of it (a partial map, "
                             "also when none was built before)")
    parser.add_argument("--map-jobs", type=int, default=1, metavar="N",
                        help="measure the coverage map in N processes side by side (default 1: "
                             "the machine is shared)")
    parser.add_argument("--map-for", nargs="+", metavar="MODULE",
                        help="bring the map up to date for these edited modules only (their "
                             "tests' files measured again); other edited modules drop out and "
                             "the partial map is not cached")
    parser.add_argument("--map-only", action="store_true",
                        help="build or refresh the coverage map, run no mutant")
    parser.add_argument("--reuse", type=Path,
                        help="a previous --json result: its killed mutants are not run again "
                             "(tests only grow), its survivors are")
    parser.add_argument("--against", nargs="+", metavar="TESTFILE",
                        help="with --reuse: run its survivors against these test files only "
                             "(the tests written for them), not the map's selection")
    parser.add_argument("--reuse-all", action="store_true",
                        help="with --reuse, reuse survivors too (to extend a sample)")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("BEFORE", "AFTER"),
                        help="print a before/after table of two --json results, run nothing")
    parser.add_argument("--list", action="store_true",
                        help="list the sampled mutants and how many tests each gets, run none")
    parser.add_argument("--json", type=Path, help="write the raw results as JSON")
    parser.add_argument("--out", type=Path, help="write the markdown table here too")
    args = parser.parse_args()
    missing = [m for m in args.modules if not (ROOT / m).is_file()]
    if missing:
        raise SystemExit(f"no such module: {', '.join(missing)}")
    if args.compare:
        before, after = (json.loads(p.read_text(encoding="utf-8")) for p in args.compare)
        print(compare(before, after) + "\n" + markdown(after).split("\n\n", 1)[-1])
        return
    stale = stale_harmless()
    if stale:
        print(f"HARMLESS keys that name no mutant (code moved or gone): {', '.join(stale)}",
              file=sys.stderr)
    print(f"seed {args.seed}, {args.sample or 'every'} mutants a module", file=sys.stderr)
    if args.against:  # no map: the survivors run against the files named
        if not args.reuse:
            raise SystemExit("--against reruns the survivors of a run: give --reuse FILE.json")
        cmap: dict[str, object] = {"tests": {}, "failed": [], "lines": {}, "files": {}}
    else:
        cmap = coverage_map(rebuild=args.rebuild_map, only=args.map_tests, jobs=args.map_jobs,
                            for_modules=args.map_for)
    unmeasured = sorted(set(_test_files()) - set(cmap["files"]))  # type: ignore[arg-type]
    if unmeasured and not args.against:
        print(f"not in the coverage map (their tests are never selected): "
              f"{', '.join(unmeasured)}", file=sys.stderr)
    if args.map_only:
        return
    if args.list:
        for module in args.modules:
            found = mutants((ROOT / module).read_text(encoding="utf-8"))
            for m in sample(found, args.sample, args.seed):
                tests, how = select(cmap, module, m)
                print(f"{module}:{m.key}  {len(tests)} tests ({how})")
        return
    entries = []
    log: list[str] = []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="lucky9-mutate-") as tmp:
        work = Path(tmp) / "checkout"
        _copy_tree(work)
        # Fewer hypothesis examples per property: a mutant is usually caught by the first.
        (work / "tests" / "conftest.py").write_text(
            "from hypothesis import settings\n"
            "settings.register_profile('mutate', max_examples=20, deadline=None)\n"
            "settings.load_profile('mutate')\n", encoding="utf-8")
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
        os.environ["LUCKY9_MUTATING"] = "1"  # conftest.py: no compiled module outlives a run
        sys.dont_write_bytecode = True
        _preload()

        def save(entry: dict[str, object]) -> None:
            if args.json:
                _write_json(args.json, [*entries, entry])

        previous: dict[str, dict[str, str]] = {}
        if args.reuse:
            for e in json.loads(args.reuse.read_text(encoding="utf-8")):
                previous[e["module"]] = {
                    r["key"]: r["status"] for r in e["results"]
                    if args.reuse_all or _caught(r["status"])}
        for module in args.modules:
            entries.append(run_module(work, module, args.sample, args.seed, log, cmap, save,
                                      previous.get(module), args.against))
    table = markdown(entries)
    print(f"seed {args.seed}; a timeout counts as caught\n\n{table}")
    print(f"took {time.perf_counter() - start:.0f} s", file=sys.stderr)
    if args.out:
        args.out.write_text(table, encoding="utf-8")


if __name__ == "__main__":
    main()
